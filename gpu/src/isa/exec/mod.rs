//! The wave executor: runs a wave's predecoded program until it ends, waits at a
//! barrier, faults, or is told to stop.
//!
//! Whole-wave execution: VGPRs are stored lane-contiguous (`lanes` u32 per register), each
//! instruction is one `match` arm that loops over the lanes. Wave64 is executed as one
//! 64-lane pass that reads all of its inputs before writing any output, which is what the
//! hardware's two passes over the pre-instruction state compute (RDNA3-NOTES,
//! "Wave32 and wave64").

// Lane loops index several per-lane arrays (sources, results, EXEC bits) by lane number.
#[allow(clippy::needless_range_loop)]
mod alu;
#[allow(clippy::needless_range_loop)]
mod buffer;
mod bvh;
mod check;
#[allow(clippy::needless_range_loop)]
mod ds;
#[allow(clippy::needless_range_loop)]
mod flat;
pub(crate) mod fp;
#[allow(clippy::needless_range_loop)]
pub(crate) mod image;
#[allow(clippy::needless_range_loop)]
mod imgfast;
#[allow(clippy::needless_range_loop)]
mod lanes;
#[allow(clippy::needless_range_loop)]
mod packed;
#[allow(clippy::needless_range_loop)]
mod salu;
#[allow(clippy::needless_range_loop)]
mod sample;
#[allow(clippy::needless_range_loop)]
mod smem;
pub(crate) mod tier;
#[allow(clippy::needless_range_loop)]
mod trap;
#[allow(clippy::needless_range_loop)]
mod valu16;
#[allow(clippy::needless_range_loop)]
mod valu64;
#[allow(clippy::needless_range_loop)]
mod vmem;

use std::mem::MaybeUninit;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

pub(crate) use trap::COVERAGE_NOTES as TRAP_NOTES;

use super::decode::{DecodeError, Inst, Operand, SGPR_EXEC_LO, SGPR_NULL, SGPR_TTMP0, SGPR_VCC_LO};
use super::program::{Program, NO_TARGET};
use crate::mem::{AddressSpace, Tlb, VmFault};

/// VGPRs allocated per wave: all 256 addressable, plus slack so that a multi-dword
/// operand starting near v255 stays inside the allocation.
pub const VGPR_ALLOC: usize = 256 + 16;
/// The private register VOPD computes its X half into.
const VOPD_TEMP: u16 = 256;
/// The private register that holds a DPP instruction's permuted src0 (lanes.rs).
const DPP_TEMP: u16 = 257;
/// Scalar register file size (incl. VCC, TTMP, NULL, M0, EXEC), plus slack for pairs.
const SGPR_FILE: usize = 128 + 16;

/// Why a wave stopped running.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stop {
    Ended,
    Barrier,
    /// The device asked every wave to stop (hang timeout or a fault elsewhere).
    Aborted,
}

/// What went wrong in a wave, as the hardware would report it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultKind {
    /// A memory access outside every mapping.
    Vm(VmFault),
    /// An instruction the wave cannot execute (RDNA3-NOTES, "Exceptions": not maskable).
    IllegalInstruction(String),
    /// Something softnavi does not model (a modifier combination, a message, a register
    /// it leaves out): reported as an illegal instruction, but never taken by a trap
    /// handler, which could otherwise skip past a limitation of the model.
    Unsupported(String),
    /// MEMVIOL: a memory access breaking an alignment rule (RDNA3-NOTES, "Exceptions": not
    /// maskable).
    MemoryViolation(String),
    /// A rule the debug checker (`SOFTNAVI_CHECK=1`) found broken; the text names the rule
    /// (check.rs).
    Check(String),
}

impl std::fmt::Display for FaultKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FaultKind::Vm(v) => write!(
                f,
                "VM fault: {} of {} bytes at {:#x} is outside every mapping",
                if v.write { "write" } else { "read" },
                v.len,
                v.addr
            ),
            FaultKind::IllegalInstruction(why) | FaultKind::Unsupported(why) => write!(f, "illegal instruction: {why}"),
            FaultKind::MemoryViolation(why) => write!(f, "memory violation (MEMVIOL): {why}"),
            FaultKind::Check(why) => write!(f, "debug check (SOFTNAVI_CHECK) failed: {why}"),
        }
    }
}

/// A fault with the wave's position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fault {
    pub kind: FaultKind,
    pub pc: u64,
    /// The instruction in LLVM syntax (or its words, if it did not decode).
    pub inst: String,
}

impl From<VmFault> for FaultKind {
    fn from(v: VmFault) -> Self {
        FaultKind::Vm(v)
    }
}

pub(crate) fn illegal(why: impl Into<String>) -> FaultKind {
    FaultKind::IllegalInstruction(why.into())
}

pub(crate) fn unsupported(why: impl Into<String>) -> FaultKind {
    FaultKind::Unsupported(why.into())
}

/// Memory a running wave can reach.
pub struct Ctx<'a> {
    pub vm: &'a AddressSpace,
    pub tlb: &'a mut Tlb,
    /// The workgroup's LDS allocation.
    pub lds: &'a mut [u8],
    pub abort: &'a AtomicBool,
    /// SH_MEM_CONFIG, SH_MEM_BASES and the trap handler of the dispatch's VMID.
    pub vmid: &'a crate::spi::VmidRegs,
    /// The trap handler's program (the code at TBA), if one is installed.
    pub handler: Option<&'a Program>,
    /// The device's host-trap request counter: a wave whose [`Wave::host_trap_seen`]
    /// differs enters its trap handler with HT = 1 at its next check.
    pub host_trap: &'a AtomicU64,
}

/// Architectural state of one wave.
pub struct Wave {
    pub sgpr: [u32; SGPR_FILE],
    /// `VGPR_ALLOC` registers × `lanes`, lane-contiguous per register.
    pub vgpr: Vec<u32>,
    pub lanes: usize,
    /// Index of the next instruction in the program.
    pub pc: usize,
    pub scc: bool,
    pub mode: u32,
    pub status: u32,
    /// TRAPSTS (s_getreg / s_setreg; zero at launch).
    pub trapsts: u32,
    pub flat_scratch: u64,
    /// SH_MEM_BASES of the wave's VMID, for the aperture sources (src_shared_base, ...).
    pub sh_mem_bases: u32,
    /// VGPRs allocated to the wave (RSRC1.VGPRS rounded up to the allocation granule):
    /// operands at or past it are out of range (RDNA3-NOTES,
    /// "VGPR out-of-range behaviour").
    pub vgprs: u32,
    /// Instructions executed, for statistics and hang reports.
    pub executed: u64,
    /// Of those, the instructions run by translated code (crate::jit), inline or through
    /// its call-outs.
    pub translated: u64,
    /// The wave runs its trap handler's program (`pc` indexes it), not the kernel's.
    pub in_handler: bool,
    /// The host-trap request counter this wave has answered (set at launch).
    pub host_trap_seen: u64,
    /// RSRC3.TRAP_ON_START / TRAP_ON_END, still to be taken.
    pub trap_on_start: bool,
    pub trap_on_end: bool,
    /// Memory counters, the debug checker and launch ids (check.rs).
    pub track: check::Track,
}

enum Flow {
    Next,
    Jump(usize),
    Barrier,
    End,
    /// A jump to a byte address outside the current program (s_rfe_b64 back to the
    /// kernel, s_setpc into the other program).
    Far(u64),
    /// Enter the trap handler.
    Trap(trap::TrapCause),
}

/// Why [`Wave::run_in`] left its loop.
enum Leave {
    Stop(Stop),
    Fault(Fault),
    /// Continue in the program and mode [`Wave::run`] picks now.
    Switch,
    Far(u64),
    Trap(trap::TrapCause, usize),
    HostTrap,
}

/// STATUS.PRIV: the wave is in its trap handler and may use TTMPs.
const STATUS_PRIV: u32 = 1 << 5;

impl Wave {
    pub fn new(lanes: usize) -> Wave {
        Wave {
            sgpr: [0; SGPR_FILE],
            vgpr: vec![0; VGPR_ALLOC * lanes],
            lanes,
            pc: 0,
            scc: false,
            mode: 0,
            status: 0,
            trapsts: 0,
            flat_scratch: 0,
            sh_mem_bases: 0,
            vgprs: 256,
            executed: 0,
            translated: 0,
            in_handler: false,
            host_trap_seen: 0,
            trap_on_start: false,
            trap_on_end: false,
            track: check::Track::default(),
        }
    }

    /// Resets the wave for a new launch, keeping its allocations.
    pub fn reset(&mut self, lanes: usize) {
        self.sgpr = [0; SGPR_FILE];
        if self.vgpr.len() != VGPR_ALLOC * lanes {
            self.vgpr = vec![0; VGPR_ALLOC * lanes];
        }
        self.lanes = lanes;
        self.pc = 0;
        self.scc = false;
        self.mode = 0;
        self.status = 0;
        self.trapsts = 0;
        self.flat_scratch = 0;
        self.sh_mem_bases = 0;
        self.vgprs = 256;
        self.executed = 0;
        self.translated = 0;
        self.in_handler = false;
        self.host_trap_seen = 0;
        self.trap_on_start = false;
        self.trap_on_end = false;
        self.track.reset();
    }

    pub fn wave64(&self) -> bool {
        self.lanes == 64
    }

    /// The wave's lane mask width.
    fn lane_mask(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            u32::MAX as u64
        }
    }

    pub fn exec(&self) -> u64 {
        (self.sgpr[SGPR_EXEC_LO as usize] as u64 | (self.sgpr[SGPR_EXEC_LO as usize + 1] as u64) << 32)
            & self.lane_mask()
    }

    pub fn set_exec(&mut self, v: u64) {
        self.sgpr[SGPR_EXEC_LO as usize] = v as u32;
        if self.lanes == 64 {
            self.sgpr[SGPR_EXEC_LO as usize + 1] = (v >> 32) as u32;
        }
    }

    pub fn vcc(&self) -> u64 {
        (self.sgpr[SGPR_VCC_LO as usize] as u64 | (self.sgpr[SGPR_VCC_LO as usize + 1] as u64) << 32) & self.lane_mask()
    }

    /// A VGPR's lanes.
    #[inline(always)]
    pub fn v(&self, r: usize) -> &[u32] {
        let n = self.lanes;
        let r = r.min(VGPR_ALLOC - 1);
        &self.vgpr[r * n..r * n + n]
    }

    #[inline(always)]
    fn v_mut(&mut self, r: usize) -> &mut [u32] {
        let n = self.lanes;
        let r = r.min(VGPR_ALLOC - 1);
        &mut self.vgpr[r * n..r * n + n]
    }

    /// Reads scalar register `i` with the rules of RDNA3-NOTES, "NULL" and
    /// "SGPR out-of-range behaviour": NULL reads zero, TTMPs read zero outside the trap
    /// handler.
    fn sget(&self, i: usize) -> u32 {
        match i {
            _ if i == SGPR_NULL as usize => 0,
            _ if (SGPR_TTMP0 as usize..SGPR_TTMP0 as usize + 16).contains(&i) && self.status & STATUS_PRIV == 0 => 0,
            _ => self.sgpr.get(i).copied().unwrap_or(0),
        }
    }

    /// Writes scalar register `i`: NULL and out-of-range writes are dropped, TTMPs only in
    /// the trap handler (RDNA3-NOTES, "SGPR out-of-range behaviour").
    fn sset(&mut self, i: usize, v: u32) {
        if i == SGPR_NULL as usize || i >= 128 {
            return;
        }
        if (SGPR_TTMP0 as usize..SGPR_TTMP0 as usize + 16).contains(&i) && self.status & STATUS_PRIV == 0 {
            return;
        }
        self.sgpr[i] = v;
    }

    /// Sets SCC from an SALU instruction with destination `dst`, unless that destination is
    /// a TTMP the wave may not write: such an instruction also leaves SCC alone
    /// (RDNA3-NOTES, "SGPR out-of-range behaviour").
    fn set_scc_for(&mut self, dst: &Operand, scc: bool) {
        if let Operand::Sgpr(i) = *dst {
            if (SGPR_TTMP0..SGPR_TTMP0 + 16).contains(&i) && self.status & STATUS_PRIV == 0 {
                return;
            }
        }
        self.scc = scc;
    }

    /// A 32-bit scalar source.
    fn s32(&self, op: &Operand) -> u32 {
        match *op {
            Operand::Sgpr(i) => self.sget(i as usize),
            Operand::Const { value, .. } => value as u32,
            Operand::Scc => self.scc as u32,
            Operand::Vccz => (self.vcc() == 0) as u32,
            Operand::Execz => (self.exec() == 0) as u32,
            Operand::Vgpr(r) => self.v(r as usize)[0],
            // A 32-bit read of an aperture register is its low half (LLVM names it
            // SRC_SHARED_BASE_LO etc.).
            Operand::Special(code @ 235..=238) => self.aperture(code) as u32,
            // Instructions with another special source trap before they execute (program.rs).
            Operand::None | Operand::Special(_) => 0,
        }
    }

    /// The aperture sources (235 src_shared_base, 236 src_shared_limit, 237
    /// src_private_base, 238 src_private_limit): the 4 GiB windows whose bits 63:48 are
    /// SH_MEM_BASES.SHARED_BASE / PRIVATE_BASE, the limit being the window's last byte
    /// (AMDGPUUsage, "Address Spaces": 2^32-byte apertures aligned to 2^32).
    fn aperture(&self, code: u8) -> u64 {
        let bases = crate::spi::VmidRegs { sh_mem_bases: self.sh_mem_bases, ..Default::default() };
        match code {
            235 => bases.shared_aperture(),
            236 => bases.shared_aperture() | 0xffff_ffff,
            237 => bases.private_aperture(),
            _ => bases.private_aperture() | 0xffff_ffff,
        }
    }

    /// A 64-bit scalar source; SGPR pairs ignore the LSB of the index (RDNA3-NOTES,
    /// "SGPR alignment").
    fn s64(&self, op: &Operand) -> u64 {
        match *op {
            Operand::Sgpr(i) if i != SGPR_NULL => {
                let i = (i & !1) as usize;
                self.sget(i) as u64 | (self.sget(i + 1) as u64) << 32
            }
            Operand::Const { value, .. } => value,
            Operand::Special(code @ 235..=238) => self.aperture(code),
            _ => self.s32(op) as u64,
        }
    }

    fn sdst32(&mut self, op: &Operand, v: u32) {
        if let Operand::Sgpr(i) = *op {
            self.sset(i as usize, v);
        }
    }

    /// A 64-bit scalar destination: an SGPR pair (the index's low bit ignored). NULL as a
    /// destination discards the whole value (RDNA3-NOTES, "NULL"): the pair it would name
    /// starts at NULL, whose neighbour M0 must not be written.
    fn sdst64(&mut self, op: &Operand, v: u64) {
        if let Operand::Sgpr(i) = *op {
            if i == SGPR_NULL {
                return;
            }
            let i = (i & !1) as usize;
            self.sset(i, v as u32);
            self.sset(i + 1, (v >> 32) as u32);
        }
    }

    /// A lane mask source (VCC or an SGPR / pair).
    fn mask_src(&self, op: &Operand) -> u64 {
        (if self.wave64() { self.s64(op) } else { self.s32(op) as u64 }) & self.lane_mask()
    }

    /// Writes a lane mask to an SGPR (pair in wave64) or EXEC.
    fn mask_dst(&mut self, op: &Operand, v: u64) {
        if self.wave64() {
            self.sdst64(op, v);
        } else {
            self.sdst32(op, v as u32);
        }
    }

    /// Per-lane 32-bit values of a vector source (VGPR, or a broadcast scalar).
    #[inline(always)]
    fn vsrc(&self, op: &Operand) -> [u32; 64] {
        let mut out = [0u32; 64];
        match *op {
            // Constant-size copies compile to a few vector moves, not a memcpy call.
            Operand::Vgpr(r) if self.lanes == 32 => out[..32].copy_from_slice(&self.v(r as usize)[..32]),
            Operand::Vgpr(r) => out[..self.lanes].copy_from_slice(self.v(r as usize)),
            _ => out[..self.lanes].fill(self.s32(op)),
        }
        out
    }

    /// A source's `N` lane values (`N` = the wave's lanes): a VGPR's lanes in the register
    /// file, or a scalar broadcast into `tmp`. Constant sizes let the hot VALU operations
    /// compile to vector loads and a vectorised loop without copies.
    #[inline(always)]
    fn src_n<'a, const N: usize>(&'a self, op: &Operand, tmp: &'a mut MaybeUninit<[u32; N]>) -> &'a [u32; N] {
        if let Operand::Vgpr(r) = *op {
            // One bounds check per operand, and a fixed-size view for the lane loops.
            let r = r as usize * N;
            if let Some(v) = self.vgpr.get(r..r + N).and_then(|v| <&[u32; N]>::try_from(v).ok()) {
                return v;
            }
        }
        tmp.write([self.s32(op); N])
    }

    /// EXEC for a wave of `N` lanes (wave32 reads EXEC_LO alone).
    #[inline(always)]
    fn exec_n<const N: usize>(&self) -> u64 {
        if N == 32 {
            self.sgpr[SGPR_EXEC_LO as usize] as u64
        } else {
            self.sgpr[SGPR_EXEC_LO as usize] as u64 | (self.sgpr[SGPR_EXEC_LO as usize + 1] as u64) << 32
        }
    }

    /// Writes the active lanes of `N` lane values to a VGPR destination.
    #[inline(always)]
    fn dst_n<const N: usize>(&mut self, op: &Operand, vals: &[u32; N]) {
        let Operand::Vgpr(r) = *op else { return };
        let exec = self.exec_n::<N>();
        let r = r as usize * N;
        let Some(d) = self.vgpr.get_mut(r..r + N).and_then(|d| <&mut [u32; N]>::try_from(d).ok()) else { return };
        if exec == u64::MAX >> (64 - N) {
            *d = *vals;
        } else {
            for l in 0..N {
                if exec >> l & 1 != 0 {
                    d[l] = vals[l];
                }
            }
        }
    }

    /// `dst[l] = f(src0[l], src1[l])` for the active lanes.
    #[inline(always)]
    fn map2(&mut self, inst: &Inst, f: impl Fn(u32, u32) -> u32) {
        #[inline(always)]
        fn go<const N: usize>(w: &mut Wave, inst: &Inst, f: impl Fn(u32, u32) -> u32) {
            let (mut t0, mut t1, mut out) = (MaybeUninit::uninit(), MaybeUninit::uninit(), [0u32; N]);
            let (a, b) = (w.src_n::<N>(&inst.src[0], &mut t0), w.src_n::<N>(&inst.src[1], &mut t1));
            for l in 0..N {
                out[l] = f(a[l], b[l]);
            }
            w.dst_n::<N>(&inst.dst, &out);
        }
        if self.lanes == 32 {
            go::<32>(self, inst, f)
        } else {
            go::<64>(self, inst, f)
        }
    }

    /// `dst[l] = f(src0[l], src1[l])` on f32 lanes, with the hardware's NaN propagation
    /// applied in a second pass only when a result is NaN.
    #[inline(always)]
    fn map2_f32(&mut self, inst: &Inst, f: impl Fn(f32, f32) -> f32) {
        #[inline(always)]
        fn go<const N: usize>(w: &mut Wave, inst: &Inst, f: impl Fn(f32, f32) -> f32) {
            let (mut t0, mut t1, mut out) = (MaybeUninit::uninit(), MaybeUninit::uninit(), [0u32; N]);
            let (a, b) = (w.src_n::<N>(&inst.src[0], &mut t0), w.src_n::<N>(&inst.src[1], &mut t1));
            let g = f32::from_bits;
            let mut nan = 0u32;
            for l in 0..N {
                let r = f(g(a[l]), g(b[l]));
                nan |= r.is_nan() as u32;
                out[l] = r.to_bits();
            }
            if nan != 0 {
                for l in 0..N {
                    out[l] = fp::nan2(g(a[l]), g(b[l]), g(out[l])).to_bits();
                }
            }
            w.dst_n::<N>(&inst.dst, &out);
        }
        if self.lanes == 32 {
            go::<32>(self, inst, f)
        } else {
            go::<64>(self, inst, f)
        }
    }

    /// `dst[l] = a[l] * b[l] + c[l]` (f32, one rounding) for the active lanes, the sources
    /// given explicitly (fmac reads its destination, fmamk its literal in src2).
    #[inline(always)]
    fn fma3(&mut self, inst: &Inst, srcs: [&Operand; 3]) {
        #[inline(always)]
        fn go<const N: usize>(w: &mut Wave, inst: &Inst, srcs: [&Operand; 3]) {
            let (mut t0, mut t1, mut t2) = (MaybeUninit::uninit(), MaybeUninit::uninit(), MaybeUninit::uninit());
            let a = w.src_n::<N>(srcs[0], &mut t0);
            let b = w.src_n::<N>(srcs[1], &mut t1);
            let c = w.src_n::<N>(srcs[2], &mut t2);
            let (mut out, nan) = fp::fma_lanes(a, b, c);
            // NaN results get the hardware's propagation in a second pass, so that the
            // common case stays one vectorised loop.
            if nan {
                let f = f32::from_bits;
                for l in 0..N {
                    out[l] = fp::nan3(f(a[l]), f(b[l]), f(c[l]), f(out[l])).to_bits();
                }
            }
            w.dst_n::<N>(&inst.dst, &out);
        }
        if self.lanes == 32 {
            go::<32>(self, inst, srcs)
        } else {
            go::<64>(self, inst, srcs)
        }
    }

    /// The lane mask of lanes where `f(src0[l], src1[l])` holds (VOPC).
    #[inline(always)]
    fn cmp_mask(&self, inst: &Inst, f: impl Fn(u32, u32) -> bool) -> u64 {
        #[inline(always)]
        fn go<const N: usize>(w: &Wave, inst: &Inst, f: impl Fn(u32, u32) -> bool) -> u64 {
            let (mut t0, mut t1) = (MaybeUninit::uninit(), MaybeUninit::uninit());
            let (a, b) = (w.src_n::<N>(&inst.src[0], &mut t0), w.src_n::<N>(&inst.src[1], &mut t1));
            // An OR reduction of per-lane bits: vectorises, unlike a shift per lane.
            let mut m = 0u64;
            for l in 0..N {
                m |= if f(a[l], b[l]) { 1u64 << l } else { 0 };
            }
            m
        }
        if self.lanes == 32 {
            go::<32>(self, inst, f)
        } else {
            go::<64>(self, inst, f)
        }
    }

    /// Per-lane 64-bit values of a vector source (VGPR pair, or a broadcast scalar).
    fn vsrc64(&self, op: &Operand) -> [u64; 64] {
        let mut out = [0u64; 64];
        match *op {
            Operand::Vgpr(r) => {
                let (lo, hi) = (self.v(r as usize), self.v(r as usize + 1));
                for l in 0..self.lanes {
                    out[l] = lo[l] as u64 | (hi[l] as u64) << 32;
                }
            }
            _ => out[..self.lanes].fill(self.s64(op)),
        }
        out
    }

    /// Writes the active lanes of a VGPR destination.
    #[inline(always)]
    fn vdst(&mut self, op: &Operand, vals: &[u32; 64], exec: u64) {
        let Operand::Vgpr(r) = *op else { return };
        let n = self.lanes;
        let d = self.v_mut(r as usize);
        if exec == u64::MAX >> (64 - n) {
            if n == 32 {
                d[..32].copy_from_slice(&vals[..32]);
            } else {
                d.copy_from_slice(&vals[..n]);
            }
        } else {
            for l in 0..n {
                if exec >> l & 1 != 0 {
                    d[l] = vals[l];
                }
            }
        }
    }

    fn vdst64(&mut self, op: &Operand, vals: &[u64; 64], exec: u64) {
        let Operand::Vgpr(r) = *op else { return };
        let mut lo = [0u32; 64];
        let mut hi = [0u32; 64];
        for l in 0..self.lanes {
            lo[l] = vals[l] as u32;
            hi[l] = (vals[l] >> 32) as u32;
        }
        self.vdst(&Operand::Vgpr(r), &lo, exec);
        self.vdst(&Operand::Vgpr(r.wrapping_add(1)), &hi, exec);
    }

    /// Runs until the wave ends, reaches a barrier, faults, or `ctx.abort` is set. `prog`
    /// is the kernel; the wave runs it or the trap handler (`ctx.handler`), switching at
    /// trap entry and `s_rfe_b64` (trap.rs).
    pub fn run(&mut self, prog: &Program, ctx: &mut Ctx) -> Result<Stop, Fault> {
        if std::mem::take(&mut self.trap_on_start) && self.can_trap() && !self.in_handler {
            let c = trap::TrapCause { pc: prog.addr(self.pc), id: 0, host: false, bits: trap::trapsts::WAVESTART };
            self.take_trap(c, self.pc, prog, ctx)?;
        }
        loop {
            let cur = match (self.in_handler, ctx.handler) {
                (true, Some(h)) => h,
                _ => prog,
            };
            // A wave its trap handler halted (STATUS.HALT written, then s_rfe_b64) stays
            // where it is until the dispatch is aborted (hang timeout), like s_sethalt.
            if self.status & salu::STATUS_HALT != 0 && !self.privileged() {
                while !ctx.abort.load(Ordering::Relaxed) {
                    std::thread::sleep(std::time::Duration::from_millis(1));
                }
                return Ok(Stop::Aborted);
            }
            let leave =
                if self.needs_check(cur) { self.run_in::<true>(cur, ctx) } else { self.run_in::<false>(cur, ctx) };
            match leave {
                Leave::Stop(s) => return Ok(s),
                Leave::Switch => {}
                Leave::Fault(f) => match Wave::exception_bits(&f.kind) {
                    // MEMVIOL and illegal instructions enter the handler; they cannot be
                    // masked (RDNA3-NOTES, "Exceptions").
                    Some(bits) if self.can_trap() && ctx.handler.is_some() => {
                        self.trapsts |= bits;
                        let c = trap::TrapCause { pc: f.pc, id: 0, host: false, bits };
                        self.take_trap(c, self.pc, cur, ctx)?;
                    }
                    _ => return Err(f),
                },
                Leave::Trap(c, idx) => self.take_trap(c, idx, cur, ctx)?,
                Leave::HostTrap => {
                    let now = ctx.host_trap.load(Ordering::Acquire);
                    if !self.trap_enabled() {
                        self.host_trap_seen = now;
                    } else if !self.privileged() {
                        self.host_trap_seen = now;
                        let c = trap::TrapCause {
                            pc: cur.addr(self.pc),
                            id: 0,
                            host: true,
                            bits: trap::trapsts::HOST_TRAP,
                        };
                        self.take_trap(c, self.pc, cur, ctx)?;
                    }
                }
                Leave::Far(target) => {
                    if let Some(t) = prog.index_of(target) {
                        self.in_handler = false;
                        self.pc = t;
                    } else if let Some(t) = ctx.handler.and_then(|h| h.index_of(target)) {
                        self.in_handler = true;
                        self.pc = t;
                    } else {
                        let idx = self.pc.saturating_sub(1);
                        return Err(Fault {
                            kind: illegal(format!(
                                "jump to {target:#x}, outside the decoded program and the trap handler"
                            )),
                            pc: cur.addr(idx),
                            inst: cur.describe(idx),
                        });
                    }
                }
            }
        }
    }

    /// Enters the trap handler for `c` (raised at instruction `idx` of `cur`), or the fault
    /// report when none is installed.
    fn take_trap(&mut self, c: trap::TrapCause, idx: usize, cur: &Program, ctx: &Ctx) -> Result<(), Fault> {
        self.enter_trap(c, ctx.handler.is_some()).map_err(|kind| Fault {
            kind,
            pc: cur.addr(idx),
            inst: cur.describe(idx),
        })
    }

    /// Whether the run loop must take its checking path: MODE enables float exception
    /// traps or trap-after-instruction, the program reads TRAPSTS (whose sticky EXCP
    /// bits then accumulate), or every instruction must go through step() (the debug
    /// checker, released VGPRs).
    fn needs_check(&self, prog: &Program) -> bool {
        self.mode & trap::MODE_CHECKED != 0 || prog.reads_trapsts() || self.track.slow
    }

    /// The run loop over one program. With `CHECK`, every instruction goes through the
    /// float-exception detection and the trap-after-instruction check (trap.rs); without
    /// it the loop is the lean one, and leaves as soon as MODE asks for checking.
    fn run_in<const CHECK: bool>(&mut self, prog: &Program, ctx: &mut Ctx) -> Leave {
        let insts = prog.insts();
        let mut since_check = 0u32;
        // The translation tier runs the lean path's waves from its entry points; one that
        // becomes ready while the wave runs is picked up at the next periodic check.
        let mut jit = if CHECK { None } else { prog.translation().map(|t| &**t) };
        loop {
            if let Some(t) = jit {
                let float = if t.is_entry(self.pc) { tier::host_float(self.mode, prog) } else { None };
                if let Some(float) = float {
                    match self.enter(t, prog, ctx, float) {
                        tier::Entered::Leave(leave) => return leave,
                        tier::Entered::Resume => {
                            if ctx.abort.load(Ordering::Relaxed) {
                                return Leave::Stop(Stop::Aborted);
                            }
                            if ctx.host_trap.load(Ordering::Relaxed) != self.host_trap_seen {
                                return Leave::HostTrap;
                            }
                            continue;
                        }
                        tier::Entered::Interp => {}
                    }
                }
            }
            let idx = self.pc;
            let Some(inst) = insts.get(idx) else {
                return Leave::Fault(Fault {
                    kind: illegal("the program counter left the decoded program"),
                    pc: prog.addr(idx),
                    inst: String::new(),
                });
            };
            self.pc = idx + 1;
            self.executed += 1;
            if CHECK {
                if let Some(leave) = self.step_checked(inst, idx, prog, ctx) {
                    return leave;
                }
            } else if !self.fast(inst) {
                if let Some(leave) = self.step_flow(inst, idx, prog, ctx) {
                    return leave;
                }
                // MODE asked for exception checking, or the debug checker or released VGPRs
                // (check.rs) need every instruction to go through step().
                if self.mode & trap::MODE_CHECKED != 0 || self.track.slow {
                    return Leave::Switch;
                }
            }
            // Fast-path instructions count too: a loop made only of them (a spin on SALU
            // and a branch) must still see an abort and pick up its translation.
            since_check += 1;
            if since_check >= 4096 {
                since_check = 0;
                if !CHECK && jit.is_none() {
                    jit = prog.translation().map(|t| &**t);
                }
                if ctx.abort.load(Ordering::Relaxed) {
                    return Leave::Stop(Stop::Aborted);
                }
                if ctx.host_trap.load(Ordering::Relaxed) != self.host_trap_seen {
                    return Leave::HostTrap;
                }
            }
        }
    }

    /// Executes `inst` (at `idx`) on the step path; `Some` when the run loop must leave.
    #[inline(always)]
    fn step_flow(&mut self, inst: &Inst, idx: usize, prog: &Program, ctx: &mut Ctx) -> Option<Leave> {
        match self.step(inst, idx, prog, ctx) {
            Ok(Flow::Next) => None,
            Ok(Flow::Jump(t)) => {
                self.pc = t;
                None
            }
            Ok(Flow::Barrier) => Some(Leave::Stop(Stop::Barrier)),
            Ok(Flow::End) => Some(Leave::Stop(Stop::Ended)),
            Ok(Flow::Far(target)) => Some(Leave::Far(target)),
            Ok(Flow::Trap(c)) => {
                self.pc = idx;
                Some(Leave::Trap(c, idx))
            }
            Err(kind) => {
                self.pc = idx;
                Some(Leave::Fault(Fault { kind, pc: prog.addr(idx), inst: prog.describe(idx) }))
            }
        }
    }

    /// The checking path's instruction (out of line, so that the lean loop keeps its
    /// registers): float exception detection around it, then trap-after-instruction.
    #[inline(never)]
    fn step_checked(&mut self, inst: &Inst, idx: usize, prog: &Program, ctx: &mut Ctx) -> Option<Leave> {
        let before = self.fp_before(inst);
        // Trap-after-instruction follows an instruction that started with it enabled.
        let after_inst = self.mode & trap::MODE_TRAP_AFTER_INST != 0;
        // The debug checker and released VGPRs (check.rs) see every instruction in step().
        if self.track.slow || !self.fast(inst) {
            if let Some(leave) = self.step_flow(inst, idx, prog, ctx) {
                return Some(leave);
            }
        }
        if let Some(b) = &before {
            let bits = self.fp_after(inst, b);
            self.trapsts |= bits;
            if bits & (self.mode >> crate::spi::mode::EXCP_EN) != 0 && self.can_trap() {
                let c = trap::TrapCause { pc: prog.addr(self.pc), id: 0, host: false, bits: 0 };
                return Some(Leave::Trap(c, idx));
            }
        }
        if after_inst && self.can_trap() {
            let bits = trap::trapsts::TRAP_AFTER_INST;
            let c = trap::TrapCause { pc: prog.addr(self.pc), id: 0, host: false, bits };
            return Some(Leave::Trap(c, idx));
        }
        (!self.needs_check(prog)).then_some(Leave::Switch)
    }

    /// VOPD: both halves read the state from before the instruction. X is computed into a
    /// private register (above v255, seeded with X's destination for v_dual_fmac), then Y
    /// runs, then X's result is committed.
    fn vopd(&mut self, pair: &[Inst; 2]) -> Result<(), FaultKind> {
        let [x, y] = pair;
        let Operand::Vgpr(xd) = x.dst else { return Err(illegal("VOPD X half without a VGPR destination")) };
        let n = self.lanes;
        let (xd, tmp) = (xd as usize, VOPD_TEMP as usize);
        self.vgpr.copy_within(xd * n..xd * n + n, tmp * n);
        let mut xt = *x;
        xt.dst = Operand::Vgpr(VOPD_TEMP);
        self.valu(&xt)?;
        self.valu(y)?;
        self.vgpr.copy_within(tmp * n..tmp * n + n, xd * n);
        Ok(())
    }

    /// Whether a conditional branch (SOPP s_cbranch_scc0/1, vccz/nz, execz/nz) is taken.
    #[inline(always)]
    fn branch_taken(&self, op: super::table::Op) -> bool {
        use super::table::Op::*;
        match op {
            S_CBRANCH_SCC0 => !self.scc,
            S_CBRANCH_SCC1 => self.scc,
            S_CBRANCH_VCCZ => self.vcc() == 0,
            S_CBRANCH_VCCNZ => self.vcc() != 0,
            S_CBRANCH_EXECZ => self.exec() == 0,
            _ => self.exec() != 0,
        }
    }

    fn branch(&self, inst: &Inst) -> Result<Flow, FaultKind> {
        if inst.imm1 == NO_TARGET {
            return Err(illegal("branch target outside the decoded program"));
        }
        Ok(Flow::Jump(inst.imm1 as usize))
    }

    fn step(&mut self, inst: &Inst, idx: usize, prog: &Program, ctx: &mut Ctx) -> Result<Flow, FaultKind> {
        use super::table::{
            ds_ops, flat_ops, global_ops, mtbuf_ops, mubuf_ops, scratch_ops, smem_ops, vopd_ops, Kind, Op::*,
        };
        let op = inst.op;
        let cls = check::class(op);
        if cls != 0 || self.track.slow {
            self.track_inst(inst, cls, idx, prog)?;
        }
        match op {
            // ---- Program control (SOPP) ----
            // The waits (s_waitcnt*, s_wait_idle) and the no-ops are read from the table
            // below (Kind::Wait, Kind::Nop).
            S_ROUND_MODE | S_DENORM_MODE => {
                self.set_float_mode(inst);
                Ok(Flow::Next)
            }
            // RDNA3-NOTES, "Traps": without a trap handler s_trap is a NOP.
            // In a privileged wave (the trap handler) s_trap is not taken either (trap.rs).
            S_TRAP if !self.can_trap() => Ok(Flow::Next),
            // The saved PC is the s_trap's own (RDNA3-NOTES,
            // "Program counter and branches").
            S_TRAP => Ok(Flow::Trap(trap::TrapCause { pc: prog.addr(idx), id: inst.imm as u8, host: false, bits: 0 })),
            // A halted wave stays at this instruction until something resumes it; nothing
            // does here, so the dispatch hangs until the device's hang timeout, as on
            // hardware without a debugger. The trap handler ignores HALT.
            S_SETHALT => {
                if self.set_halt(inst.imm & 1 != 0) {
                    return Ok(Flow::Jump(idx));
                }
                Ok(Flow::Next)
            }
            S_SENDMSGHALT => {
                // The halted wave stays here; repeating the message is harmless, as the
                // messages executed (sendmsg) have no effect that repeats.
                self.sendmsg(inst.imm)?;
                if self.set_halt(true) {
                    return Ok(Flow::Jump(idx));
                }
                Ok(Flow::Next)
            }
            // s_setkill 1 kills the wave: it ends where it is.
            S_SETKILL if inst.imm & 1 != 0 => Ok(Flow::End),
            S_SETKILL => Ok(Flow::Next),
            S_ENDPGM_SAVED => Ok(Flow::End),
            S_CODE_END => {
                if let Some(e) = prog.decode_error(idx) {
                    let words: Vec<String> = prog.words(idx).iter().map(|w| format!("{w:08x}")).collect();
                    let why = format!("{e} (words {})", words.join(" "));
                    // Encodings softnavi does not accept are its limits; words that do not
                    // form an instruction, and decoded opcodes it does not execute, are
                    // illegal instructions.
                    return Err(match e {
                        DecodeError::UnknownOpcode { .. } | DecodeError::Unsupported { .. } => unsupported(why),
                        _ => illegal(why),
                    });
                }
                Err(illegal("s_code_end executed (ran past the end of the shader)"))
            }
            // RSRC3.TRAP_ON_END: the first s_endpgm enters the handler (TRAPSTS.WAVE_END)
            // with its own PC; returning to it ends the wave.
            S_ENDPGM if self.trap_on_end && self.can_trap() => {
                self.trap_on_end = false;
                Ok(Flow::Trap(trap::TrapCause {
                    pc: prog.addr(idx),
                    id: 0,
                    host: false,
                    bits: trap::trapsts::WAVE_END,
                }))
            }
            S_ENDPGM => Ok(Flow::End),
            V_ILLEGAL => Err(illegal("v_illegal executed (the all-zero instruction dword)")),
            S_BARRIER => Ok(Flow::Barrier),
            S_BRANCH => self.branch(inst),
            S_CBRANCH_SCC0 | S_CBRANCH_SCC1 | S_CBRANCH_VCCZ | S_CBRANCH_VCCNZ | S_CBRANCH_EXECZ | S_CBRANCH_EXECNZ => {
                if self.branch_taken(op) {
                    self.branch(inst)
                } else {
                    Ok(Flow::Next)
                }
            }
            S_SENDMSG => {
                self.sendmsg(inst.imm)?;
                Ok(Flow::Next)
            }
            S_SENDMSG_RTN_B32 | S_SENDMSG_RTN_B64 => {
                self.sendmsg_rtn(inst, ctx)?;
                Ok(Flow::Next)
            }
            S_CALL_B64 => {
                self.sdst64(&inst.dst, prog.addr(idx + 1));
                self.branch(inst)
            }
            // S_RFE_B64 (RDNA3 pseudo-code "WAVE_STATUS.PRIV = 0; PC = S0"): back from the
            // trap handler to the kernel program (or wherever S0 points); outside a trap
            // handler PRIV is already clear and it is a jump like s_setpc_b64.
            S_RFE_B64 => {
                let target = self.s64(&inst.src[0]) & 0xffff_ffff_ffff;
                self.status &= !STATUS_PRIV;
                Ok(Flow::Far(target))
            }
            S_GETPC_B64 => {
                self.sdst64(&inst.dst, prog.addr(idx + 1));
                Ok(Flow::Next)
            }
            S_SETPC_B64 | S_SWAPPC_B64 => {
                let target = self.s64(&inst.src[0]) & 0xffff_ffff_ffff;
                if op == S_SWAPPC_B64 {
                    self.sdst64(&inst.dst, prog.addr(idx + 1));
                }
                match prog.index_of(target) {
                    Some(t) => Ok(Flow::Jump(t)),
                    // Maybe in the other program (kernel or trap handler).
                    None => Ok(Flow::Far(target)),
                }
            }

            // ---- Scalar memory ----
            smem_ops!() => {
                self.smem(inst, ctx)?;
                Ok(Flow::Next)
            }

            // ---- LDS ----
            ds_ops!() => {
                self.ds(inst, ctx)?;
                Ok(Flow::Next)
            }

            // ---- Vector memory ----
            mubuf_ops!() => {
                self.mubuf(inst, ctx)?;
                Ok(Flow::Next)
            }
            mtbuf_ops!() => {
                self.mtbuf(inst, ctx)?;
                Ok(Flow::Next)
            }
            flat_ops!() => {
                self.flat(inst, ctx)?;
                Ok(Flow::Next)
            }
            global_ops!() => {
                self.global(inst, ctx)?;
                Ok(Flow::Next)
            }

            scratch_ops!() => {
                self.scratch(inst, ctx)?;
                Ok(Flow::Next)
            }
            IMAGE_LOAD | IMAGE_LOAD_MIP | IMAGE_MSAA_LOAD | IMAGE_STORE | IMAGE_STORE_MIP | IMAGE_GET_RESINFO
            | IMAGE_ATOMIC_SWAP | IMAGE_ATOMIC_CMPSWAP | IMAGE_ATOMIC_ADD | IMAGE_ATOMIC_SUB | IMAGE_ATOMIC_SMIN
            | IMAGE_ATOMIC_UMIN | IMAGE_ATOMIC_SMAX | IMAGE_ATOMIC_UMAX | IMAGE_ATOMIC_AND | IMAGE_ATOMIC_OR
            | IMAGE_ATOMIC_XOR | IMAGE_ATOMIC_INC | IMAGE_ATOMIC_DEC => {
                self.mimg(inst, ctx)?;
                Ok(Flow::Next)
            }
            IMAGE_BVH_INTERSECT_RAY | IMAGE_BVH64_INTERSECT_RAY => {
                self.bvh(inst, ctx)?;
                Ok(Flow::Next)
            }
            _ if sample::executes(op) => {
                self.sample(inst, ctx)?;
                Ok(Flow::Next)
            }
            vopd_ops!() => {
                let pair = prog.dual(inst).ok_or_else(|| illegal("VOPD halves missing"))?;
                self.vopd(pair)?;
                Ok(Flow::Next)
            }

            // ---- The table's waits and no-ops ----
            _ if op.kind() == Kind::Wait => {
                self.waitcnt(inst);
                Ok(Flow::Next)
            }
            // Performance levels, thread trace data and the wake-up of sleeping waves have
            // no effect here (s_sleep does not sleep); the debug-mode branches are never
            // taken (no debugger sets COND_DBG_SYS/USER); s_wait_event times out at once
            // (no export-ready event exists for compute waves); s_waitcnt_depctr waits on
            // dependency counters that are always satisfied here.
            _ if op.kind() == Kind::Nop => Ok(Flow::Next),

            // ---- Everything else is ALU ----
            _ if inst.form.is_dpp() => {
                self.dpp(inst)?;
                Ok(Flow::Next)
            }
            _ => {
                self.alu(inst)?;
                Ok(Flow::Next)
            }
        }
    }
}
