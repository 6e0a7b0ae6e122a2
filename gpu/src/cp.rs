//! The command processor (CP): one thread per queue, consuming PM4 packets from the ring
//! and from the indirect buffers it points to, as an RDNA3 MEC does.
//!
//! Dispatches run to completion before the CP reads the next packet, so every packet that
//! waits for earlier work (EVENT_WRITE CS_PARTIAL_FLUSH, RELEASE_MEM end-of-pipe) is
//! already satisfied; cache operations have nothing to do (memory is coherent here).
//! Anything the CP cannot execute — an unknown or malformed packet, a fault while
//! fetching — stops the CP and makes the device lost with the decoded packet in the report.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use crate::mem::atomic::{self, AtomicError, AtomicOp};
use crate::mem::{AddressSpace, Tlb, VmFault};
use crate::pm4::{
    self, ib, op, Header, CONTEXT_REG_BASE, CONTEXT_REG_END, SH_REG_BASE, SH_REG_END, UCONFIG_REG_BASE, UCONFIG_REG_END,
};
use crate::report::{Report, ReportKind};
use crate::spi::Dispatch;
use crate::wgp::{Job, Outcome, Worker};
use crate::winsys::{DispatchRecord, QueueKind, QueueShared};

/// How long an idle CP polls the doorbell before it sleeps.
const DOORBELL_POLL: Duration = Duration::from_micros(100);

/// How deep INDIRECT_BUFFER packets may nest: the ring calls IB1, IB1 may call IB2.
const MAX_IB_DEPTH: u32 = 2;

/// Why the CP stopped.
enum CpError {
    /// A packet the CP cannot execute; `what` says why.
    Packet { what: String },
    /// A memory access of the CP itself faulted.
    Fault { fault: VmFault, what: &'static str },
    /// A dispatch failed (its report is complete).
    Dispatch(Report),
    /// A dispatch or a wait did not finish within the hang timeout.
    Hang { what: String, waves: Vec<String> },
    /// The queue is being destroyed.
    Stopped,
}

fn packet_error(what: impl Into<String>) -> CpError {
    CpError::Packet { what: what.into() }
}

/// What the stream does after a packet.
enum Next {
    Continue,
    /// Skip this many dwords (COND_EXEC).
    Skip(u32),
    /// Continue in another IB (INDIRECT_BUFFER with CHAIN).
    Chain(u64, u32),
}

pub(crate) struct CommandProcessor {
    q: Arc<QueueShared>,
    sh: Vec<u32>,
    uconfig: HashMap<u32, u32>,
    /// The graphics ring's context registers and CONTEXT_CONTROL dwords: recorded for
    /// reports, not modelled (nothing the model runs reads them).
    context: HashMap<u32, u32>,
    context_control: [u32; 2],
    /// Whether PIPELINESTAT_START has turned the pipeline statistics counters on.
    pipeline_stats: bool,
    /// The CS_INVOCATIONS counter: work-items launched while the counters were on (the
    /// graphics counters stay 0: no graphics work runs).
    cs_invocations: u64,
    /// The graphics ring's base for indirect arguments (SET_BASE).
    indirect_base: u64,
    tlb: Tlb,
    dispatches: u64,
    /// LDS and wave storage for the workgroups this thread runs itself.
    worker: Worker,
    /// The value memory held before the last ATOMIC_MEM (COPY_DATA's atomic-return source).
    atomic_return: u64,
    /// The packet being executed and where it came from, for reports.
    current: Vec<u32>,
    location: String,
}

impl CommandProcessor {
    pub fn new(q: Arc<QueueShared>) -> CommandProcessor {
        CommandProcessor {
            q,
            sh: vec![0; ((SH_REG_END - SH_REG_BASE) / 4) as usize],
            uconfig: HashMap::new(),
            context: HashMap::new(),
            context_control: [0; 2],
            pipeline_stats: false,
            cs_invocations: 0,
            indirect_base: 0,
            tlb: Tlb::default(),
            dispatches: 0,
            atomic_return: 0,
            worker: Worker::default(),
            current: Vec::new(),
            location: String::new(),
        }
    }

    pub fn run(mut self) {
        let q = self.q.clone();
        loop {
            if q.stop.load(Ordering::Relaxed) {
                return;
            }
            let (r, mut w) = (q.rptr.load(Ordering::Acquire), q.wptr.load(Ordering::Acquire));
            if r == w {
                // Poll the write pointer for a moment before sleeping, as the hardware CP
                // polls: back-to-back submissions then cost no thread wake-up.
                let spin = Instant::now();
                while w == r && spin.elapsed() < DOORBELL_POLL && !q.stop.load(Ordering::Relaxed) {
                    std::thread::yield_now();
                    w = q.wptr.load(Ordering::Acquire);
                }
            }
            if r == w || q.dev.lost().is_some() {
                let mut g = q.doorbell.0.lock();
                if q.wptr.load(Ordering::Acquire) == r || q.dev.lost().is_some() {
                    q.doorbell.1.wait_for(&mut g, Duration::from_millis(50));
                }
                continue;
            }
            // Busy from before the second look: a recovery (`Device::recover`) waits for it
            // to clear, and may have skipped the ring since the first. Lost is read first:
            // a recovery moves rptr before it clears that.
            q.busy.store(true, Ordering::SeqCst);
            if q.dev.lost().is_some() || q.rptr.load(Ordering::SeqCst) != r {
                q.busy.store(false, Ordering::SeqCst);
                continue;
            }
            let done = self.ring_packet(r);
            q.busy.store(false, Ordering::SeqCst);
            match done {
                Ok(len) => {
                    // A recovery that skipped the ring meanwhile wins.
                    let _ = q.rptr.compare_exchange(r, r + len, Ordering::AcqRel, Ordering::Acquire);
                    // Let submitters waiting for ring space see the progress.
                    q.dev.interrupt();
                }
                Err(CpError::Stopped) => return,
                Err(e) => {
                    let report = self.report(e);
                    q.dev.lose(report);
                }
            }
        }
    }

    fn ring_word(&self, pos: u64) -> u32 {
        let at = (pos % self.q.ring_dwords()) * 4;
        // SAFETY: at + 4 <= the ring's size; the ring BO lives as long as the queue.
        unsafe { (self.q.ring.host_ptr().add(at as usize) as *const u32).read_volatile() }
    }

    /// Executes the packet at ring position `r`; returns its length in dwords.
    fn ring_packet(&mut self, r: u64) -> Result<u64, CpError> {
        let hdr = self.ring_word(r);
        self.location = format!("ring of queue {} at dword {}", self.q.id, r % self.q.ring_dwords());
        self.current = vec![hdr];
        let h = Header::parse(hdr).map_err(|e| packet_error(e.to_string()))?;
        let len = 1 + h.payload as u64;
        if r % self.q.ring_dwords() + len > self.q.ring_dwords() {
            return Err(packet_error("packet runs past the end of the ring"));
        }
        let words: Vec<u32> = (0..len).map(|k| self.ring_word(r + k)).collect();
        self.current = words.clone();
        match self.packet(h, &words[1..], 0)? {
            Next::Continue => Ok(len),
            Next::Skip(_) | Next::Chain(..) => Err(packet_error("COND_EXEC and chained IBs are not valid in the ring")),
        }
    }

    fn read_words(&mut self, va: u64, dwords: u32) -> Result<Vec<u32>, CpError> {
        let mut bytes = vec![0u8; dwords as usize * 4];
        self.tlb
            .read(&self.q.dev.vm, va, &mut bytes)
            .map_err(|fault| CpError::Fault { fault, what: "fetching an indirect buffer" })?;
        Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }

    /// Runs an indirect buffer and everything it chains to.
    fn run_ib(&mut self, mut va: u64, mut dwords: u32, depth: u32) -> Result<(), CpError> {
        let mut chained = 0u32;
        'ib: loop {
            if va % 4 != 0 {
                return Err(packet_error(format!("indirect buffer address {va:#x} is not dword aligned")));
            }
            let words = self.read_words(va, dwords)?;
            let mut at = 0usize;
            while at < words.len() {
                if self.q.stop.load(Ordering::Relaxed) {
                    return Err(CpError::Stopped);
                }
                self.location = format!("IB{depth} {va:#x} + dword {at}");
                self.current = vec![words[at]];
                let h = Header::parse(words[at]).map_err(|e| packet_error(e.to_string()))?;
                let end = at + 1 + h.payload as usize;
                if end > words.len() {
                    self.current = words[at..].to_vec();
                    return Err(packet_error(format!(
                        "packet of {} dwords runs past the end of its {}-dword indirect buffer",
                        1 + h.payload,
                        words.len()
                    )));
                }
                self.current = words[at..end].to_vec();
                match self.packet(h, &words[at + 1..end], depth)? {
                    Next::Continue => at = end,
                    Next::Skip(n) => at = end + n as usize,
                    Next::Chain(nva, ndw) => {
                        chained += 1;
                        if chained > 1 << 20 {
                            return Err(packet_error("more than 2^20 chained indirect buffers (a chain loop?)"));
                        }
                        va = nva;
                        dwords = ndw;
                        continue 'ib;
                    }
                }
            }
            return Ok(());
        }
    }

    fn sh_index(reg: u32) -> Option<usize> {
        (SH_REG_BASE..SH_REG_END).contains(&reg).then(|| ((reg - SH_REG_BASE) / 4) as usize)
    }

    fn sh_get(&self, reg: u32) -> u32 {
        Self::sh_index(reg).map_or(0, |i| self.sh[i])
    }

    /// Reads a register the CP keeps (SH or UCONFIG) by byte offset, for WAIT_REG_MEM and
    /// COPY_DATA.
    fn reg_read(&self, reg: u32) -> Result<u32, CpError> {
        match Self::sh_index(reg) {
            Some(i) => Ok(self.sh[i]),
            None if (UCONFIG_REG_BASE..UCONFIG_REG_END).contains(&reg) => {
                Ok(self.uconfig.get(&reg).copied().unwrap_or(0))
            }
            None => Err(packet_error(format!("register {reg:#x} is not an SH or UCONFIG register"))),
        }
    }

    fn reg_write(&mut self, reg: u32, v: u32) -> Result<(), CpError> {
        match Self::sh_index(reg) {
            Some(i) => self.sh[i] = v,
            None if (UCONFIG_REG_BASE..UCONFIG_REG_END).contains(&reg) => {
                self.uconfig.insert(reg, v);
            }
            None => return Err(packet_error(format!("register {reg:#x} is not an SH or UCONFIG register"))),
        }
        Ok(())
    }

    fn need(p: &[u32], n: usize) -> Result<(), CpError> {
        if p.len() < n {
            return Err(packet_error(format!("payload has {} dwords, this packet needs {n}", p.len())));
        }
        Ok(())
    }

    fn mem_fault(what: &'static str) -> impl Fn(VmFault) -> CpError {
        move |fault| CpError::Fault { fault, what }
    }

    fn packet(&mut self, h: Header, p: &[u32], depth: u32) -> Result<Next, CpError> {
        if self.q.dev.config.pm4_trace {
            eprintln!("softnavi cp{} {}: {}", self.q.id, self.location, pm4::describe(&self.current));
        }
        match h.opcode {
            op::NOP => {}
            op::SET_SH_REG | op::SET_SH_REG_INDEX => {
                Self::need(p, 1)?;
                let first = SH_REG_BASE + (p[0] & 0xffff) * 4;
                for (k, &v) in p[1..].iter().enumerate() {
                    let reg = first + 4 * k as u32;
                    let i = Self::sh_index(reg)
                        .ok_or_else(|| packet_error(format!("SET_SH_REG writes {reg:#x}, outside the SH registers")))?;
                    self.sh[i] = v;
                }
            }
            op::SET_UCONFIG_REG => {
                Self::need(p, 1)?;
                let first = UCONFIG_REG_BASE + (p[0] & 0xffff) * 4;
                for (k, &v) in p[1..].iter().enumerate() {
                    let reg = first + 4 * k as u32;
                    if reg >= UCONFIG_REG_END {
                        return Err(packet_error(format!(
                            "SET_UCONFIG_REG writes {reg:#x}, outside the UCONFIG registers"
                        )));
                    }
                    self.uconfig.insert(reg, v);
                }
            }
            op::DISPATCH_DIRECT => {
                Self::need(p, 4)?;
                self.dispatch([p[0], p[1], p[2]], p[3])?;
            }
            op::DISPATCH_INDIRECT => {
                // The compute engines take the arguments' address; the graphics ring an
                // offset from the base SET_BASE gave (RADV's radv_emit_dispatch_packets).
                let (va, initiator) = if self.q.kind == QueueKind::Gfx {
                    if p.len() != 2 {
                        return Err(packet_error(
                            "DISPATCH_INDIRECT on the graphics ring takes 2 dwords (an offset from SET_BASE)",
                        ));
                    }
                    (self.indirect_base.wrapping_add(p[0] as u64), p[1])
                } else {
                    Self::need(p, 3)?;
                    (p[0] as u64 | (p[1] as u64) << 32, p[2])
                };
                self.dispatch_indirect(va, initiator)?;
            }
            op::INDIRECT_BUFFER => {
                Self::need(p, 3)?;
                let va = (p[0] & !3) as u64 | (p[1] as u64) << 32;
                let size = p[2] & ib::SIZE_MASK;
                if p[2] & ib::VALID == 0 && self.q.kind == QueueKind::Compute {
                    return Err(packet_error("INDIRECT_BUFFER without the VALID bit (a compute queue needs it)"));
                }
                if p[2] & ib::CHAIN != 0 {
                    if depth == 0 {
                        return Err(packet_error("a chained INDIRECT_BUFFER in the ring"));
                    }
                    return Ok(Next::Chain(va, size));
                }
                if depth >= MAX_IB_DEPTH {
                    return Err(packet_error(format!("INDIRECT_BUFFER nested deeper than IB{MAX_IB_DEPTH}")));
                }
                if size > 0 {
                    let (loc, cur) = (self.location.clone(), self.current.clone());
                    self.run_ib(va, size, depth + 1)?;
                    self.location = loc;
                    self.current = cur;
                }
            }
            op::EVENT_WRITE => {
                Self::need(p, 1)?;
                if self.q.kind == QueueKind::Gfx && self.gfx_event(p[0] & 0x3f)? {
                    return Ok(Next::Continue);
                }
                match p[0] & 0x3f {
                    // Dispatches are complete when the CP moves on; caches are coherent.
                    pm4::event::CS_PARTIAL_FLUSH
                    | pm4::event::CACHE_FLUSH
                    | pm4::event::CACHE_FLUSH_TS
                    | pm4::event::CACHE_FLUSH_AND_INV_EVENT
                    | pm4::event::CACHE_FLUSH_AND_INV_TS_EVENT
                    | pm4::event::CS_DONE
                    | pm4::event::BOTTOM_OF_PIPE_TS => {}
                    // The MEC takes these too: RADV starts the counters on its compute
                    // queues for compute pipeline-statistics queries.
                    e @ (pm4::event::PIPELINESTAT_START | pm4::event::PIPELINESTAT_STOP) => {
                        self.pipeline_stats = e == pm4::event::PIPELINESTAT_START;
                    }
                    pm4::event::SAMPLE_PIPELINESTAT => self.sample_pipelinestat(p)?,
                    e => return Err(packet_error(format!("EVENT_WRITE of event type {e:#x} is not a compute event"))),
                }
            }
            op::ACQUIRE_MEM => Self::need(p, 7)?,
            op::RELEASE_MEM => {
                Self::need(p, 7)?;
                self.release_mem(p)?;
            }
            op::WRITE_DATA => {
                Self::need(p, 3)?;
                self.write_data(p)?;
            }
            op::DMA_DATA => {
                Self::need(p, 6)?;
                self.dma_data(p)?;
            }
            op::WAIT_REG_MEM => {
                Self::need(p, 6)?;
                self.wait_reg_mem(p)?;
            }
            op::COPY_DATA => {
                Self::need(p, 5)?;
                self.copy_data(p)?;
            }
            op::LOAD_SH_REG_INDEX => {
                Self::need(p, 4)?;
                self.load_sh_reg_index(p)?;
            }
            op::ATOMIC_MEM => {
                Self::need(p, 8)?;
                self.atomic_mem(p)?;
            }
            op::COND_EXEC => {
                Self::need(p, 4)?;
                let va = (p[0] & !3) as u64 | (p[1] as u64) << 32;
                let v = self
                    .tlb
                    .read_u32(&self.q.dev.vm, va)
                    .map_err(Self::mem_fault("COND_EXEC reading its condition"))?;
                if v == 0 {
                    return Ok(Next::Skip(p[3]));
                }
            }
            other if self.q.kind == QueueKind::Gfx => self.gfx_packet(other, p)?,
            other => {
                let name = op::name(other).map_or_else(|| format!("opcode {other:#04x}"), str::to_string);
                return Err(packet_error(format!("{name} is not supported on a compute queue")));
            }
        }
        Ok(Next::Continue)
    }

    fn dispatch_indirect(&mut self, va: u64, initiator: u32) -> Result<(), CpError> {
        let mut dims = [0u32; 3];
        for (k, d) in dims.iter_mut().enumerate() {
            *d = self
                .tlb
                .read_u32(&self.q.dev.vm, va + 4 * k as u64)
                .map_err(Self::mem_fault("reading DISPATCH_INDIRECT arguments"))?;
        }
        let start = [
            self.sh_get(pm4::reg::COMPUTE_START_X),
            self.sh_get(pm4::reg::COMPUTE_START_Y),
            self.sh_get(pm4::reg::COMPUTE_START_Z),
        ];
        let force0 = initiator & pm4::initiator::FORCE_START_AT_000 != 0;
        let end = [0, 1, 2].map(|d| if force0 { dims[d] } else { start[d].saturating_add(dims[d]) });
        self.dispatch(end, initiator)
    }

    /// The graphics ring's own packets: its preamble and state, recorded; draws refused.
    fn gfx_packet(&mut self, opcode: u8, p: &[u32]) -> Result<(), CpError> {
        match opcode {
            op::CONTEXT_CONTROL => {
                Self::need(p, 2)?;
                for (k, dw) in self.context_control.iter_mut().enumerate() {
                    if p[k] & pm4::context_control::UPDATE_ENABLES != 0 {
                        *dw = p[k];
                    }
                }
            }
            // Back to the clear-state defaults: nothing recorded is left.
            op::CLEAR_STATE => self.context.clear(),
            op::SET_CONTEXT_REG => {
                Self::need(p, 1)?;
                let first = CONTEXT_REG_BASE + (p[0] & 0xffff) * 4;
                for (k, &v) in p[1..].iter().enumerate() {
                    let reg = first + 4 * k as u32;
                    if reg >= CONTEXT_REG_END {
                        return Err(packet_error(format!(
                            "SET_CONTEXT_REG writes {reg:#x}, outside the context registers"
                        )));
                    }
                    self.context.insert(reg, v);
                }
            }
            op::CONTEXT_REG_RMW => {
                Self::need(p, 3)?;
                let reg = CONTEXT_REG_BASE + (p[0] & 0xffff) * 4;
                let old = self.context.get(&reg).copied().unwrap_or(0);
                self.context.insert(reg, (old & !p[1]) | (p[2] & p[1]));
            }
            op::SET_UCONFIG_REG_INDEX => {
                Self::need(p, 1)?;
                for (k, &v) in p[1..].iter().enumerate() {
                    self.reg_write(UCONFIG_REG_BASE + ((p[0] & 0xffff) + k as u32) * 4, v)?;
                }
            }
            op::SET_BASE => {
                Self::need(p, 3)?;
                if p[0] & 0xf != pm4::set_base::INDIRECT_BASE {
                    return Err(packet_error(format!("SET_BASE of base index {} is not supported", p[0] & 0xf)));
                }
                self.indirect_base = (p[1] & !3) as u64 | (p[2] as u64) << 32;
            }
            // The PFP waits for the ME: they are one in-order engine here.
            op::PFP_SYNC_ME => {}
            // A draw's state; the draw itself is refused below.
            op::INDEX_TYPE | op::NUM_INSTANCES | op::INDEX_BASE | op::INDEX_BUFFER_SIZE => {}
            o if op::is_draw(o) => return Err(packet_error("graphics is not modelled (a draw on the graphics ring)")),
            other => {
                let name = op::name(other).map_or_else(|| format!("opcode {other:#04x}"), str::to_string);
                return Err(packet_error(format!("{name} is not supported on the graphics ring")));
            }
        }
        Ok(())
    }

    /// EVENT_WRITE SAMPLE_PIPELINESTAT: the counters to memory (`pm4::pipelinestat`).
    fn sample_pipelinestat(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::pipelinestat::*;
        Self::need(p, 3)?;
        let va = (p[1] & !7) as u64 | (p[2] as u64) << 32;
        let vm = self.q.dev.vm.clone();
        for k in 0..COUNTERS {
            let v = if k == CS_INVOCATIONS { self.cs_invocations } else { 0 };
            self.tlb.write_u64(&vm, va + 8 * k as u64, v).map_err(Self::mem_fault("SAMPLE_PIPELINESTAT"))?;
        }
        Ok(())
    }

    /// An EVENT_WRITE only the graphics ring takes; `false` for the compute events.
    fn gfx_event(&mut self, event: u32) -> Result<bool, CpError> {
        use pm4::event::*;
        match event {
            // No graphics work ever runs, so there is none to wait for or flush.
            e if is_graphics_sync(e) => {}
            PIPELINESTAT_START | PIPELINESTAT_STOP => self.pipeline_stats = event == PIPELINESTAT_START,
            ZPASS_DONE | SAMPLE_STREAMOUTSTATS | PIXEL_PIPE_STAT_DUMP => {
                return Err(packet_error(format!(
                    "EVENT_WRITE {}: occlusion and streamout counters are not modelled",
                    name(event)
                )))
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// The end-of-pipe interrupt: the handler reads the queue's fence from memory, like
    /// amdgpu's fence interrupt handler, and wakes the waiters.
    fn interrupt(&mut self) {
        let vm = self.q.dev.vm.clone();
        if let Ok(v) = self.tlb.read_u64(&vm, self.q.fence.va()) {
            self.q.completed.fetch_max(v, Ordering::AcqRel);
        }
        self.q.dev.interrupt();
    }

    fn release_mem(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::release::*;
        let dst_sel = (p[1] >> DST_SEL_SHIFT) & 3;
        let int_sel = (p[1] >> INT_SEL_SHIFT) & 7;
        let data_sel = p[1] >> DATA_SEL_SHIFT;
        let va = p[2] as u64 | (p[3] as u64) << 32;
        let data = p[4] as u64 | (p[5] as u64) << 32;
        if dst_sel != DST_MEM && dst_sel != DST_TC_L2 {
            return Err(packet_error(format!("RELEASE_MEM DST_SEL {dst_sel} (a queue register) is not supported")));
        }
        let vm = self.q.dev.vm.clone();
        let fault = Self::mem_fault("RELEASE_MEM writing its data");
        // The address field starts at bit 2 (32-bit data) or bit 3 (64-bit data).
        match data_sel {
            DATA_NONE => {}
            DATA_32 => self.tlb.write_u32(&vm, va & !3, data as u32).map_err(fault)?,
            DATA_64 => self.tlb.write_u64(&vm, va & !7, data).map_err(fault)?,
            DATA_TIMESTAMP | DATA_SYSTEM_CLOCK => {
                let t = self.q.dev.timestamp();
                self.tlb.write_u64(&vm, va & !7, t).map_err(fault)?
            }
            s => return Err(packet_error(format!("RELEASE_MEM DATA_SEL {s} (GDS or atomic data) is not supported"))),
        }
        match int_sel {
            INT_NONE | INT_SEND_DATA => {}
            INT_ONLY | INT_AFTER_WRITE | 4..=6 => self.interrupt(),
            s => return Err(packet_error(format!("RELEASE_MEM INT_SEL {s} is reserved"))),
        }
        Ok(())
    }

    fn write_data(&mut self, p: &[u32]) -> Result<(), CpError> {
        let dst_sel = (p[0] >> pm4::sel::DST_SEL_SHIFT) & 0xf;
        let one_addr = p[0] & pm4::sel::WR_ONE_ADDR != 0;
        let vm = self.q.dev.vm.clone();
        for (k, &v) in p[3..].iter().enumerate() {
            let step = if one_addr { 0 } else { k as u32 };
            match dst_sel {
                // A register's dword offset in dword 2.
                pm4::sel::REG => self.reg_write((p[1] & 0x3ffff).wrapping_add(step) * 4, v)?,
                pm4::sel::SRC_MEM | pm4::sel::TC_L2 | pm4::sel::MEM => {
                    let addr = (p[1] & !3) as u64 | (p[2] as u64) << 32;
                    self.tlb.write_u32(&vm, addr + 4 * step as u64, v).map_err(Self::mem_fault("WRITE_DATA"))?
                }
                s => return Err(packet_error(format!("WRITE_DATA DST_SEL {s} (GDS or counters) is not supported"))),
            }
        }
        Ok(())
    }

    /// LOAD_SH_REG_INDEX: SH registers loaded from memory.
    fn load_sh_reg_index(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::load_sh_reg::*;
        let index = p[0] & 3;
        if index != INDEX_DIRECT_ADDR {
            return Err(packet_error(format!("LOAD_SH_REG_INDEX INDEX {index} is not supported on a compute queue")));
        }
        if p[2] & FORMAT_OFFSET_AND_DATA != 0 {
            return Err(packet_error("LOAD_SH_REG_INDEX with DATA_FORMAT offset-and-data is not supported"));
        }
        let va = (p[0] & !3) as u64 | (p[1] as u64) << 32;
        let first = SH_REG_BASE + (p[2] & 0xffff) * 4;
        let count = p[3] & 0x3fff;
        let vm = self.q.dev.vm.clone();
        for k in 0..count {
            let reg = first + 4 * k;
            let i = Self::sh_index(reg)
                .ok_or_else(|| packet_error(format!("LOAD_SH_REG_INDEX writes {reg:#x}, outside the SH registers")))?;
            self.sh[i] = self
                .tlb
                .read_u32(&vm, va + 4 * k as u64)
                .map_err(Self::mem_fault("LOAD_SH_REG_INDEX reading registers"))?;
        }
        Ok(())
    }

    /// ATOMIC_MEM: one atomic on memory by the CP; the old value is kept for COPY_DATA's
    /// atomic-return source. LOOP_UNTIL_COMPARE_SATISFIED repeats a compare-swap until
    /// it swaps (a lock acquisition), within the hang timeout.
    fn atomic_mem(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::atomic_mem::*;
        let tc_op = p[0] & 0x7f;
        let command = (p[0] >> COMMAND_SHIFT) & 0xf;
        let op =
            operation(tc_op).ok_or_else(|| packet_error(format!("ATOMIC_MEM TC_OP {tc_op:#x} is not supported")))?;
        let wide = tc_op & OP_64 != 0;
        let va = p[1] as u64 | (p[2] as u64) << 32;
        let src = p[3] as u64 | (p[4] as u64) << 32;
        let cmp = p[5] as u64 | (p[6] as u64) << 32;
        let mask = if wide { u64::MAX } else { u32::MAX as u64 };
        let (src, cmp) = (src & mask, cmp & mask);
        let vm = self.q.dev.vm.clone();
        let start = Instant::now();
        loop {
            let old = atomic::at(&mut self.tlb, &vm, va, wide, op, src, cmp).map_err(|e| match e {
                AtomicError::Fault(fault) => CpError::Fault { fault, what: "ATOMIC_MEM" },
                e => packet_error(format!("ATOMIC_MEM at {va:#x}: {e:?}")),
            })?;
            self.atomic_return = old;
            let satisfied = old == cmp || op != AtomicOp::CmpSwap;
            if command != LOOP_UNTIL_COMPARE_SATISFIED || satisfied {
                return Ok(());
            }
            self.poll_pause(start, || {
                format!("ATOMIC_MEM compare-swap at {va:#x} (memory {old:#x}, compare {cmp:#x})")
            })?;
        }
    }

    /// Between two polls: yields the core to the shaders and queues that may produce the
    /// awaited value, and gives up (a hang) after the hang timeout.
    fn poll_pause(&self, start: Instant, what: impl Fn() -> String) -> Result<(), CpError> {
        if self.q.stop.load(Ordering::Relaxed) {
            return Err(CpError::Stopped);
        }
        let elapsed = start.elapsed();
        let timeout = self.q.dev.config.hang_timeout;
        if elapsed > timeout {
            return Err(CpError::Hang {
                what: format!("{} was not satisfied within {} ms", what(), timeout.as_millis()),
                waves: Vec::new(),
            });
        }
        // Spin politely at first (the value often comes from another thread within
        // microseconds), then sleep so that a long wait costs no CPU.
        if elapsed < Duration::from_micros(200) {
            std::thread::yield_now();
        } else {
            std::thread::sleep(Duration::from_micros(50));
        }
        Ok(())
    }

    fn dma_data(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::dma::*;
        let src_sel = (p[0] >> SRC_SEL_SHIFT) & 3;
        let dst_sel = (p[0] >> DST_SEL_SHIFT) & 3;
        let src = p[1] as u64 | (p[2] as u64) << 32;
        let dst = p[3] as u64 | (p[4] as u64) << 32;
        let cmd = p[5];
        let bytes = (cmd & BYTE_COUNT_MASK) as u64;
        if cmd & (SAS | DAS) != 0 {
            return Err(packet_error("DMA_DATA with a register source or destination (SAS/DAS) is not supported"));
        }
        if bytes == 0 || dst_sel == DST_NOWHERE {
            // A pure synchronisation packet (CP_SYNC with no bytes), or a prefetch.
            return Ok(());
        }
        if dst_sel == SEL_GDS || src_sel == SEL_GDS {
            return Err(packet_error("DMA_DATA to or from GDS is not supported"));
        }
        // With SAIC/DAIC the address does not move: the transfer is of dwords.
        if cmd & (SAIC | DAIC) != 0 && (bytes % 4 != 0 || src % 4 != 0 || dst % 4 != 0) {
            return Err(packet_error(format!(
                "DMA_DATA of {bytes} bytes without address increment: addresses and size must be multiples of 4"
            )));
        }
        let vm = self.q.dev.vm.clone();
        let dst_len = if cmd & DAIC != 0 { 4 } else { bytes };
        if src_sel == SRC_DATA_SEL {
            if dst % 4 != 0 || bytes % 4 != 0 {
                return Err(packet_error(format!(
                    "DMA_DATA fill of {bytes} bytes at {dst:#x}: address and size must be multiples of 4"
                )));
            }
            return self.dma_fill(&vm, dst, dst_len, p[1]);
        }
        let src_len = if cmd & SAIC != 0 { 4 } else { bytes };
        if cmd & (SAIC | DAIC) == 0 {
            return self.dma_copy(&vm, src, dst, bytes);
        }
        let s = self.tlb.translate(&vm, src, src_len, false).map_err(Self::mem_fault("DMA_DATA reading its source"))?;
        let d = Tlb::default()
            .translate(&vm, dst, dst_len, true)
            .map_err(Self::mem_fault("DMA_DATA writing its destination"))?;
        for k in 0..(bytes / 4) as usize {
            let (so, doff) = (if cmd & SAIC != 0 { 0 } else { 4 * k }, if cmd & DAIC != 0 { 0 } else { 4 * k });
            // SAFETY: so + 4 <= src_len and doff + 4 <= dst_len, both checked above.
            unsafe { (d.add(doff) as *mut u32).write_unaligned((s.add(so) as *const u32).read_unaligned()) };
        }
        Ok(())
    }

    /// Faults at the first byte of `[va, va + len)` that no mapping holds, if one does:
    /// DMA_DATA checks its ranges whole before it moves a byte.
    fn dma_mapped(vm: &AddressSpace, va: u64, len: u64, write: bool, what: &'static str) -> Result<(), CpError> {
        let mut at = 0;
        while at < len {
            let Some(room) = vm.room(va + at) else {
                return Err(CpError::Fault {
                    fault: VmFault { addr: (va + at) & crate::mem::VA_MASK, len: len - at, write },
                    what,
                });
            };
            at += room;
        }
        Ok(())
    }

    /// DMA_DATA's fill of `len` bytes (a multiple of 4) at `dst` with `value`, a piece per
    /// mapping: a range may run over several (a sparse buffer's pages).
    fn dma_fill(&mut self, vm: &AddressSpace, dst: u64, len: u64, value: u32) -> Result<(), CpError> {
        Self::dma_mapped(vm, dst, len, true, "DMA_DATA fill")?;
        let mut at = 0;
        while at < len {
            // Checked above: mapped, and mappings end on pages (the pieces stay dwords).
            let n = vm.room(dst + at).unwrap_or(len - at).min(len - at);
            let ptr = self.tlb.translate(vm, dst + at, n, true).map_err(Self::mem_fault("DMA_DATA fill"))?;
            for k in 0..n / 4 {
                // SAFETY: translate() checked [dst + at, dst + at + n) lies in one BO.
                unsafe { (ptr.add(4 * k as usize) as *mut u32).write_unaligned(value) };
            }
            at += n;
        }
        Ok(())
    }

    /// DMA_DATA's copy of `bytes` from `src` to `dst`, a piece per mapping on either side.
    fn dma_copy(&mut self, vm: &AddressSpace, src: u64, dst: u64, bytes: u64) -> Result<(), CpError> {
        Self::dma_mapped(vm, src, bytes, false, "DMA_DATA reading its source")?;
        Self::dma_mapped(vm, dst, bytes, true, "DMA_DATA writing its destination")?;
        let mut dtlb = Tlb::default();
        let mut at = 0;
        while at < bytes {
            let room = |va| vm.room(va).unwrap_or(bytes - at);
            let n = room(src + at).min(room(dst + at)).min(bytes - at);
            let s =
                self.tlb.translate(vm, src + at, n, false).map_err(Self::mem_fault("DMA_DATA reading its source"))?;
            let d =
                dtlb.translate(vm, dst + at, n, true).map_err(Self::mem_fault("DMA_DATA writing its destination"))?;
            // SAFETY: both ranges were checked; `copy` handles overlap within a piece.
            unsafe { std::ptr::copy(s, d, n as usize) };
            at += n;
        }
        Ok(())
    }

    fn wait_reg_mem(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::wait::*;
        let function = p[0] & 7;
        let mem = (p[0] >> MEM_SPACE_SHIFT) & 3 == SPACE_MEM;
        let operation = (p[0] >> OPERATION_SHIFT) & 3;
        if operation != OP_WAIT && operation != OP_WAIT_PREEMPTABLE {
            return Err(packet_error(format!("WAIT_REG_MEM OPERATION {operation} is not a compute operation")));
        }
        let addr = (p[1] & !3) as u64 | (p[2] as u64) << 32;
        let (reference, mask) = (p[3], p[4]);
        let start = Instant::now();
        let vm = self.q.dev.vm.clone();
        loop {
            let v = if mem {
                self.tlb.read_u32(&vm, addr).map_err(Self::mem_fault("WAIT_REG_MEM polling memory"))?
            } else {
                self.reg_read((p[1] & 0x3ffff) * 4)?
            } & mask;
            match test(function, v, reference) {
                None => return Err(packet_error(format!("WAIT_REG_MEM function {function} is reserved"))),
                Some(true) => return Ok(()),
                Some(false) => {}
            }
            self.poll_pause(start, || {
                format!(
                    "WAIT_REG_MEM on {} {addr:#x} (value {v:#x}, reference {reference:#x}, function {function})",
                    if mem { "memory" } else { "register" }
                )
            })?;
        }
    }

    fn copy_data(&mut self, p: &[u32]) -> Result<(), CpError> {
        use pm4::sel::*;
        let src_sel = p[0] & 0xf;
        let dst_sel = (p[0] >> DST_SEL_SHIFT) & 0xf;
        let wide = p[0] & COUNT_SEL != 0;
        let src = p[1] as u64 | (p[2] as u64) << 32;
        let dst = p[3] as u64 | (p[4] as u64) << 32;
        let align = if wide { !7 } else { !3 };
        let vm = self.q.dev.vm.clone();
        let value = match src_sel {
            REG => self.reg_read((p[1] & 0x3ffff) * 4)? as u64,
            SRC_MEM | TC_L2 => {
                let f = Self::mem_fault("COPY_DATA reading memory");
                if wide {
                    self.tlb.read_u64(&vm, src & align).map_err(f)?
                } else {
                    self.tlb.read_u32(&vm, src & align).map_err(f)? as u64
                }
            }
            IMM => src,
            ATOMIC_RETURN => self.atomic_return,
            TIMESTAMP | SYSTEM_CLOCK => self.q.dev.timestamp(),
            s => return Err(packet_error(format!("COPY_DATA SRC_SEL {s} (GDS or counters) is not supported"))),
        };
        match dst_sel {
            REG => self.reg_write((p[3] & 0x3ffff) * 4, value as u32)?,
            SRC_MEM | TC_L2 | MEM => {
                let f = Self::mem_fault("COPY_DATA writing memory");
                if wide {
                    self.tlb.write_u64(&vm, dst & align, value).map_err(f)?
                } else {
                    self.tlb.write_u32(&vm, dst & align, value as u32).map_err(f)?
                }
            }
            s => return Err(packet_error(format!("COPY_DATA DST_SEL {s} (GDS or counters) is not supported"))),
        }
        Ok(())
    }

    fn dispatch(&mut self, dims: [u32; 3], initiator: u32) -> Result<(), CpError> {
        let mut d = Dispatch::from_regs(|r| self.sh_get(r), dims, initiator);
        d.vmid = self.q.dev.config.vmid;
        (d.vmid.tba, d.vmid.tma) = *self.q.dev.trap_handler.lock();
        d.check = self.q.dev.config.check;
        d.validate().map_err(|e| packet_error(format!("dispatch cannot launch: {e}")))?;
        let index = self.dispatches;
        self.dispatches += 1;
        if d.group_count() == 0 {
            return Ok(());
        }
        let dev = self.q.dev.clone();
        let program =
            dev.programs.get(&dev.vm, d.pgm, d.wave64()).map_err(Self::mem_fault("fetching the shader program"))?;
        // The trap handler is a program of its own at TBA, for waves with TRAP_PRESENT
        // (STATUS.TRAP_EN); without one (TBA = 0) their traps are fault reports (trap.rs).
        let handler = if d.rsrc2 >> 6 & 1 != 0 && d.vmid.tba != 0 {
            Some(
                dev.programs
                    .get(&dev.vm, d.vmid.tba, d.wave64())
                    .map_err(Self::mem_fault("fetching the trap handler at TBA"))?,
            )
        } else {
            None
        };
        let waves = (d.group_count().saturating_mul(d.waves_per_group() as u64), dev.config.jit_hot_waves);
        crate::jit::prepare(&program, dev.config.jit, waves, &dev.jit_stats);
        if let Some(h) = &handler {
            crate::jit::prepare(h, dev.config.jit, waves, &dev.jit_stats);
        }
        // Scratch slots are numbered within a dispatch (wgp.rs), so two queues' dispatches
        // with scratch at the same base would share slots: they take turns. Dispatches
        // without scratch, or with rings of their own, run concurrently.
        let _scratch_turn = d.scratch_enabled().then(|| dev.scratch_ring_lock(d.scratch_base));
        if self.pipeline_stats {
            self.cs_invocations += d.invocations();
        }
        let job = Job::new(d, program, handler, dev.host_trap.clone(), dev.vm.clone(), self.q.id, index);
        let started = Instant::now();
        match dev.pool.run(&job, &mut self.worker, dev.config.hang_timeout, &self.q.stop) {
            Outcome::Done => {
                let record = DispatchRecord {
                    queue: self.q.id,
                    index,
                    workgroups: job.dispatch.group_count(),
                    waves: job.waves.load(Ordering::Relaxed),
                    wave_instructions: job.instructions.load(Ordering::Relaxed),
                    translated_instructions: job.translated.load(Ordering::Relaxed),
                    elapsed: started.elapsed(),
                    wave64: job.dispatch.wave64(),
                    occupancy: job.dispatch.occupancy(),
                };
                let share = record.translated_instructions as f64 * 100.0 / record.wave_instructions.max(1) as f64;
                let jit = dev.jit_stats.lock().clone();
                tracing::debug!(
                    "queue {} dispatch #{index}: {} workgroups, {} waves, {} wave-instructions ({share:.1}% translated) \
                     in {:?}; occupancy {}; translation tier: {} programs, {} failed, {:?} compiling",
                    record.queue,
                    record.workgroups,
                    record.waves,
                    record.wave_instructions,
                    record.elapsed,
                    record.occupancy,
                    jit.programs,
                    jit.failures,
                    jit.compile_time
                );
                dev.stats.lock().record(record);
                Ok(())
            }
            Outcome::Failed(r) => Err(CpError::Dispatch(r)),
            Outcome::Hung(_) if self.q.stop.load(Ordering::Relaxed) => Err(CpError::Stopped),
            Outcome::Hung(waves) => Err(CpError::Hang {
                what: format!(
                    "dispatch #{index} ({} workgroups, shader at {:#x}) did not finish within {} ms",
                    job.dispatch.group_count(),
                    job.dispatch.pgm,
                    dev.config.hang_timeout.as_millis()
                ),
                waves,
            }),
        }
    }

    fn report(&self, e: CpError) -> Report {
        let mut packet = format!(
            "  packet at {}: {}\n  words: {}\n",
            self.location,
            pm4::describe(&self.current),
            self.current.iter().map(|w| format!("{w:08x}")).collect::<Vec<_>>().join(" ")
        );
        if self.q.kind == QueueKind::Gfx {
            packet += &format!(
                "  graphics ring state: CONTEXT_CONTROL {:#010x} {:#010x}, {} context registers set, \
                 pipeline statistics {}\n",
                self.context_control[0],
                self.context_control[1],
                self.context.len(),
                if self.pipeline_stats { "on" } else { "off" }
            );
        }
        match e {
            CpError::Packet { what } => Report {
                kind: ReportKind::CpError,
                summary: format!("command processor error on queue {}: {what}", self.q.id),
                details: packet,
            },
            CpError::Fault { fault, what } => Report {
                kind: ReportKind::VmFault,
                summary: format!(
                    "command processor VM fault on queue {} while {what}: {} of {} bytes at {:#x}",
                    self.q.id,
                    if fault.write { "write" } else { "read" },
                    fault.len,
                    fault.addr
                ),
                details: packet,
            },
            CpError::Dispatch(r) => Report { details: format!("{}{packet}", r.details), ..r },
            CpError::Hang { what, waves } => Report {
                kind: ReportKind::Hang,
                summary: format!("GPU hang on queue {}: {what}", self.q.id),
                details: format!("{packet}  live waves ({}):\n{}", waves.len(), waves.join("")),
            },
            CpError::Stopped => Report { kind: ReportKind::Internal, summary: "queue stopped".into(), details: packet },
        }
    }
}
