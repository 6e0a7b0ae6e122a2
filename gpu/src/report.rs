//! Device-lost reports: what a driver developer needs to see when a shader faults or
//! hangs or a command stream is malformed.

use std::fmt;

use crate::isa::disasm::sreg_name;
use crate::isa::exec::{Fault, Wave};

/// What made the device lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ReportKind {
    VmFault,
    IllegalInstruction,
    /// MEMVIOL (an alignment rule broken).
    MemoryViolation,
    /// A rule the debug checker (`SOFTNAVI_CHECK=1`) found broken.
    Check,
    Hang,
    CpError,
    /// A bug in softnavi itself (a worker panicked); reported instead of crashing.
    Internal,
}

/// A device-lost report: a one-line summary and the full text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report {
    pub kind: ReportKind,
    pub summary: String,
    pub details: String,
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "softnavi: GPU device lost: {}", self.summary)?;
        write!(f, "{}", self.details)
    }
}

/// Where in the work a wave was.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WaveLocation {
    pub queue: u32,
    pub dispatch: u64,
    pub workgroup: [u32; 3],
    pub wave: u32,
}

impl fmt::Display for WaveLocation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "queue {} dispatch #{} workgroup ({}, {}, {}) wave {}",
            self.queue, self.dispatch, self.workgroup[0], self.workgroup[1], self.workgroup[2], self.wave
        )
    }
}

/// A readable dump of a wave's registers (scalar file, EXEC, VCC and the first VGPRs).
pub fn wave_state(w: &Wave, vgprs: usize) -> String {
    let mut s = String::new();
    let exec = w.exec();
    s.push_str(&format!(
        "    exec={:#018x} vcc={:#018x} scc={} mode={:#x} status={:#x} flat_scratch={:#x} executed={}\n",
        exec,
        w.vcc(),
        w.scc as u8,
        w.mode,
        w.status,
        w.flat_scratch,
        w.executed
    ));
    for row in 0..(106 / 8 + 1) {
        let regs: Vec<String> =
            (row * 8..(row * 8 + 8).min(106)).map(|i| format!("{}={:08x}", sreg_name(i as u8, 1), w.sgpr[i])).collect();
        if !regs.is_empty() {
            s.push_str(&format!("    {}\n", regs.join(" ")));
        }
    }
    s.push_str(&format!("    m0={:08x}\n", w.sgpr[125]));
    for r in 0..vgprs {
        let lanes: Vec<String> = w.v(r).iter().map(|v| format!("{v:08x}")).collect();
        s.push_str(&format!("    v{r}: {}\n", lanes.join(" ")));
    }
    s
}

impl Report {
    /// A report for a faulting wave.
    pub fn wave_fault(at: WaveLocation, fault: &Fault, wave: &Wave) -> Report {
        let kind = match fault.kind {
            crate::isa::exec::FaultKind::Vm(_) => ReportKind::VmFault,
            crate::isa::exec::FaultKind::IllegalInstruction(_) | crate::isa::exec::FaultKind::Unsupported(_) => {
                ReportKind::IllegalInstruction
            }
            crate::isa::exec::FaultKind::MemoryViolation(_) => ReportKind::MemoryViolation,
            crate::isa::exec::FaultKind::Check(_) => ReportKind::Check,
        };
        Report {
            kind,
            summary: format!("{} at PC {:#x} ({at})", fault.kind, fault.pc),
            details: format!(
                "  {}\n  location: {at}\n  pc: {:#x}\n  instruction: {}\n  wave state:\n{}",
                fault.kind,
                fault.pc,
                fault.inst,
                wave_state(wave, 4)
            ),
        }
    }
}
