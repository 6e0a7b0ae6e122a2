//! The winsys: the kernel-driver-like interface between the ICD and the GPU model, and
//! the only door into it. Buffer objects in the GPU address space, hardware queues with a
//! ring and a doorbell, submission of indirect buffers, fences, and the device status.
//!
//! A submission writes, like amdgpu's ring emission, one `INDIRECT_BUFFER` packet per IB
//! into the queue's ring in GPU memory, then a `RELEASE_MEM` that writes the fence value
//! and raises the end-of-pipe interrupt, and rings the doorbell (the write pointer).

use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use parking_lot::{Condvar, Mutex};

use crate::cp::CommandProcessor;
use crate::info::{ChipInfo, Config};
use crate::isa::program::ProgramCache;
use crate::mem::{AddressSpace, AllocError, Bo};
use crate::pm4::{self, Builder};
use crate::report::Report;
use crate::spi::Occupancy;
use crate::wgp::Pool;

/// How long [`Queue::wait`] polls the fence before it sleeps.
const FENCE_POLL: Duration = Duration::from_micros(50);

/// Ring size in dwords (64 KiB).
const RING_DWORDS: u64 = 16 * 1024;

/// Dispatches remembered by [`Device::stats`].
const RECENT_DISPATCHES: usize = 64;

/// What one finished dispatch did.
#[derive(Clone, Debug)]
pub struct DispatchRecord {
    pub queue: u32,
    /// The queue's dispatch counter.
    pub index: u64,
    pub workgroups: u64,
    pub waves: u64,
    pub wave_instructions: u64,
    /// Of `wave_instructions`, those run by translated code (crate::jit).
    pub translated_instructions: u64,
    pub elapsed: Duration,
    pub wave64: bool,
    /// What the modelled hardware's resources allow at once.
    pub occupancy: Occupancy,
}

/// Counters since the device was created.
#[derive(Clone, Debug, Default)]
pub struct DeviceStats {
    pub dispatches: u64,
    pub workgroups: u64,
    pub waves: u64,
    pub wave_instructions: u64,
    /// Of `wave_instructions`, those run by translated code.
    pub translated_instructions: u64,
    /// The translation tier's work for this device (programs, compile time).
    pub jit: crate::jit::JitStats,
    /// The most recent dispatches, oldest first.
    pub recent: VecDeque<DispatchRecord>,
}

impl DeviceStats {
    pub(crate) fn record(&mut self, r: DispatchRecord) {
        self.dispatches += 1;
        self.workgroups += r.workgroups;
        self.waves += r.waves;
        self.wave_instructions += r.wave_instructions;
        self.translated_instructions += r.translated_instructions;
        if self.recent.len() == RECENT_DISPATCHES {
            self.recent.pop_front();
        }
        self.recent.push_back(r);
    }
}

/// The device's health.
#[derive(Clone, Debug)]
pub enum Status {
    Healthy,
    Lost(Arc<Report>),
}

pub(crate) struct DeviceShared {
    pub info: ChipInfo,
    pub config: Config,
    pub vm: Arc<AddressSpace>,
    pub pool: Pool,
    pub programs: ProgramCache,
    lost: Mutex<Option<Arc<Report>>>,
    /// Notified on every fence interrupt and when the device is lost.
    events: (Mutex<()>, Condvar),
    pub created: Instant,
    next_queue: AtomicU64,
    pub stats: Mutex<DeviceStats>,
    /// The translation tier's statistics, updated by its compile thread.
    pub jit_stats: Arc<Mutex<crate::jit::JitStats>>,
    /// The trap handler (TBA, TMA) of the device's VMID: [`Config::vmid`]'s at creation,
    /// then what [`Device::set_trap_handler`] installs.
    pub trap_handler: Mutex<(u64, u64)>,
    /// Host-initiated trap requests so far ([`Device::host_trap`]).
    pub host_trap: Arc<AtomicU64>,
    /// Called after every interrupt ([`Device::set_interrupt_hook`]).
    hook: Mutex<Option<InterruptHook>>,
    /// One lock per scratch ring base in use ([`DeviceShared::scratch_ring_lock`]).
    scratch_rings: Mutex<std::collections::HashMap<u64, Arc<Mutex<()>>>>,
    /// Counts the device as alive for the translation tier's background compiles.
    _jit_live: crate::jit::Liveness,
    /// The device's queues, for [`Device::recover`].
    queues: Mutex<Vec<std::sync::Weak<QueueShared>>>,
}

/// A function the winsys calls on every interrupt (fence written, ring progress, device
/// lost), like a kernel driver's fence callbacks: it runs on the CP thread and must be short.
pub type InterruptHook = Arc<dyn Fn() + Send + Sync>;

impl DeviceShared {
    pub fn lose(&self, report: Report) {
        let mut l = self.lost.lock();
        if l.is_none() {
            tracing::error!("{report}");
            *l = Some(Arc::new(report));
        }
        drop(l);
        self.interrupt();
    }

    pub fn lost(&self) -> Option<Arc<Report>> {
        self.lost.lock().clone()
    }

    /// The end-of-pipe interrupt: wakes everyone waiting on a fence.
    pub fn interrupt(&self) {
        {
            let _g = self.events.0.lock();
            self.events.1.notify_all();
        }
        let hook = self.hook.lock().clone();
        if let Some(h) = hook {
            h();
        }
    }

    /// Exclusive use of the scratch ring at `base` for one dispatch: a wave's scratch slot
    /// is its position within its dispatch, so dispatches of two queues sharing a ring
    /// must not overlap in time.
    pub fn scratch_ring_lock(&self, base: u64) -> parking_lot::ArcMutexGuard<parking_lot::RawMutex, ()> {
        let ring = self.scratch_rings.lock().entry(base).or_default().clone();
        ring.lock_arc()
    }

    /// GPU timestamp counter ticks since the device was created.
    pub fn timestamp(&self) -> u64 {
        let ns = self.created.elapsed().as_nanos() as u64;
        ns / (1_000_000_000 / self.info.timestamp_hz)
    }
}

/// A software RDNA3 GPU.
pub struct Device {
    shared: Arc<DeviceShared>,
}

/// Why [`Device::set_trap_handler`] refused an address.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum TrapHandlerError {
    #[error("the trap handler's {0} address {1:#x} is not 256-byte aligned")]
    Unaligned(&'static str, u64),
    #[error("the trap handler's {0} address {1:#x} is above the 48-bit address space")]
    TooHigh(&'static str, u64),
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum SubmitError {
    #[error("the device is lost: {0}")]
    Lost(String),
    #[error("an indirect buffer of {0} dwords is too large (at most {max})", max = pm4::ib::SIZE_MASK)]
    IbTooLarge(u32),
}

/// An indirect buffer in GPU memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ib {
    pub va: u64,
    pub dwords: u32,
}

impl Device {
    /// A new device with its worker threads; fails only if the threads cannot start.
    pub fn new(config: Config) -> std::io::Result<Device> {
        let info = config.chip_info();
        let trap_handler = Mutex::new((config.vmid.tba, config.vmid.tma));
        let vm = Arc::new(AddressSpace::new(config.memory_size));
        let pool = Pool::new(config.threads)?;
        Ok(Device {
            shared: Arc::new(DeviceShared {
                info,
                config,
                vm,
                pool,
                programs: ProgramCache::default(),
                lost: Mutex::new(None),
                events: (Mutex::new(()), Condvar::new()),
                created: Instant::now(),
                next_queue: AtomicU64::new(0),
                stats: Mutex::new(DeviceStats::default()),
                jit_stats: Arc::default(),
                _jit_live: crate::jit::Liveness::new(),
                trap_handler,
                host_trap: Arc::new(AtomicU64::new(0)),
                hook: Mutex::new(None),
                scratch_rings: Mutex::new(std::collections::HashMap::new()),
                queues: Mutex::new(Vec::new()),
            }),
        })
    }

    pub fn info(&self) -> &ChipInfo {
        &self.shared.info
    }

    /// Allocates a zeroed buffer object; its host pointer stays valid while it lives.
    pub fn alloc(&self, size: u64, align: u64) -> Result<Arc<Bo>, AllocError> {
        self.shared.vm.alloc(size, align)
    }

    /// Maps memory of the caller's (`Memory::from_host`) as a buffer object.
    pub fn import(&self, mem: Arc<crate::mem::Memory>, align: u64) -> Result<Arc<Bo>, AllocError> {
        self.shared.vm.import(mem, align)
    }

    /// Unmaps a buffer object; GPU accesses to it fault from now on.
    pub fn free(&self, bo: &Bo) {
        self.shared.vm.free(bo.va());
    }

    pub fn address_space(&self) -> &AddressSpace {
        &self.shared.vm
    }

    /// Dispatch statistics: totals and the recent dispatches with their occupancy.
    pub fn stats(&self) -> DeviceStats {
        let mut s = self.shared.stats.lock().clone();
        s.jit = self.shared.jit_stats.lock().clone();
        s
    }

    pub fn status(&self) -> Status {
        match self.shared.lost() {
            Some(r) => Status::Lost(r),
            None => Status::Healthy,
        }
    }

    /// Recovers a lost device, as a kernel driver's GPU reset does: once every command
    /// processor has stopped executing (within `timeout`), the work still in the rings is
    /// dropped, every fence submitted so far signals, and the device takes work again.
    /// Memory and mappings stay. Returns the report of the loss it recovered from; `None`
    /// when the device was not lost, or when a CP was still busy at the timeout (the
    /// device then stays lost).
    pub fn recover(&self, timeout: Duration) -> Option<Arc<Report>> {
        let dev = &self.shared;
        let report = dev.lost()?;
        let queues: Vec<Arc<QueueShared>> = dev.queues.lock().iter().filter_map(|q| q.upgrade()).collect();
        let deadline = Instant::now() + timeout;
        while queues.iter().any(|q| q.busy.load(Ordering::Acquire)) {
            if Instant::now() >= deadline {
                tracing::error!("the lost device was not recovered: a command processor is still executing");
                return None;
            }
            std::thread::sleep(Duration::from_millis(1));
        }
        for q in &queues {
            let next = q.submit.lock();
            // The CP moves rptr on only from where it read a packet (compare-exchange), so
            // a packet it finishes late cannot undo the skip.
            q.rptr.store(q.wptr.load(Ordering::Acquire), Ordering::Release);
            let last = *next - 1;
            // SAFETY: the fence BO holds a u64 and lives as long as the queue.
            unsafe { (q.fence.host_ptr() as *mut u64).write_volatile(last) };
            q.completed.fetch_max(last, Ordering::AcqRel);
        }
        *dev.lost.lock() = None;
        tracing::warn!("the device was recovered from: {}", report.summary);
        dev.interrupt();
        Some(report)
    }

    /// GPU timestamp counter now (ticks of `info().timestamp_hz`).
    pub fn timestamp(&self) -> u64 {
        self.shared.timestamp()
    }

    /// Installs the trap handler of the device's VMID, as KFD's
    /// `AMDKFD_IOC_SET_TRAP_HANDLER` does: `tba` is the handler's code (a program of its
    /// own, 256-byte aligned; 0 = none), `tma` its data (what `s_sendmsg_rtn_b64
    /// MSG_RTN_GET_TMA` returns, shifted right by 8, so also 256-byte aligned). Dispatches
    /// submitted from now on get it; waves use it when their dispatch has
    /// COMPUTE_PGM_RSRC2.TRAP_PRESENT (RDNA3-NOTES, "TBA and TMA").
    pub fn set_trap_handler(&self, tba: u64, tma: u64) -> Result<(), TrapHandlerError> {
        for (name, a) in [("TBA", tba), ("TMA", tma)] {
            if a % 256 != 0 {
                return Err(TrapHandlerError::Unaligned(name, a));
            }
            if a >> 48 != 0 {
                return Err(TrapHandlerError::TooHigh(name, a));
            }
        }
        *self.shared.trap_handler.lock() = (tba, tma);
        Ok(())
    }

    /// A host-initiated trap: every wave running now with a trap handler (STATUS.TRAP_EN)
    /// enters it with TTMP1.HT = 1 and TRAPSTS.HOST_TRAP at its next check point (the run
    /// loop looks every 4096 instructions outside the fast path); waves without one
    /// ignore it, and a wave in its handler takes it after `s_rfe_b64`.
    pub fn host_trap(&self) {
        self.shared.host_trap.fetch_add(1, Ordering::AcqRel);
    }

    /// Installs (or with `None` removes) the function called after every interrupt: every
    /// fence write with an interrupt, every ring packet consumed, and the device's loss.
    /// A scheduler waiting for fences to signal sleeps until it is called.
    pub fn set_interrupt_hook(&self, hook: Option<InterruptHook>) {
        *self.shared.hook.lock() = hook;
    }

    /// Creates a compute queue with its own command processor thread.
    pub fn create_queue(&self) -> Result<Queue, AllocError> {
        self.create_queue_of(QueueKind::Compute)
    }

    /// Creates a queue of `kind` with its own command processor thread.
    pub fn create_queue_of(&self, kind: QueueKind) -> Result<Queue, AllocError> {
        let ring = self.shared.vm.alloc(RING_DWORDS * 4, 0)?;
        let fence = self.shared.vm.alloc(8, 0)?;
        let id = self.shared.next_queue.fetch_add(1, Ordering::Relaxed) as u32;
        let q = Arc::new(QueueShared {
            dev: self.shared.clone(),
            id,
            kind,
            ring,
            fence,
            wptr: AtomicU64::new(0),
            rptr: AtomicU64::new(0),
            doorbell: (Mutex::new(()), Condvar::new()),
            completed: AtomicU64::new(0),
            stop: Arc::new(AtomicBool::new(false)),
            busy: AtomicBool::new(false),
            submit: Mutex::new(1),
        });
        let mut queues = self.shared.queues.lock();
        queues.retain(|q| q.strong_count() > 0);
        queues.push(Arc::downgrade(&q));
        drop(queues);
        let cpq = q.clone();
        let thread = std::thread::Builder::new()
            .name(format!("softnavi-cp{id}"))
            .spawn(move || CommandProcessor::new(cpq).run())
            .map_err(|_| AllocError::OutOfAddressSpace)?;
        Ok(Queue { shared: q, thread: Some(thread) })
    }
}

/// Which command processor a queue has. Both run compute work the same way; they differ,
/// as on the hardware, in which packets they take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueKind {
    /// A compute queue (an MEC pipe): compute packets only; what softnavi's ICD uses, and
    /// RADV's async compute queues (amdgpu's compute rings).
    Compute,
    /// The graphics ring (PFP and ME): RADV's general queue. It also takes the graphics
    /// preamble and state (recorded, not modelled); a draw is a CP error.
    Gfx,
}

pub(crate) struct QueueShared {
    pub dev: Arc<DeviceShared>,
    pub id: u32,
    pub kind: QueueKind,
    pub ring: Arc<Bo>,
    /// 64-bit fence value written by the end-of-submission RELEASE_MEM.
    pub fence: Arc<Bo>,
    /// Dwords written into the ring (monotonic; position = wptr % RING_DWORDS).
    pub wptr: AtomicU64,
    /// Dwords the CP has consumed.
    pub rptr: AtomicU64,
    pub doorbell: (Mutex<()>, Condvar),
    /// Highest fence value signalled (mirrors the fence memory for waiters).
    pub completed: AtomicU64,
    pub stop: Arc<AtomicBool>,
    /// Whether the CP is executing a packet (see [`Device::recover`]).
    pub busy: AtomicBool,
    /// Next fence sequence number; held while writing the ring.
    submit: Mutex<u64>,
}

impl QueueShared {
    pub fn ring_dwords(&self) -> u64 {
        RING_DWORDS
    }

    pub fn ring_doorbell(&self) {
        let _g = self.doorbell.0.lock();
        self.doorbell.1.notify_all();
    }
}

/// A hardware compute queue (ring + command processor).
pub struct Queue {
    shared: Arc<QueueShared>,
    thread: Option<JoinHandle<()>>,
}

struct RingWriter<'a> {
    q: &'a QueueShared,
    wptr: u64,
}

impl pm4::Sink for RingWriter<'_> {
    fn put(&mut self, dwords: &[u32]) {
        for &d in dwords {
            let at = (self.wptr % RING_DWORDS) * 4;
            // SAFETY: `at` + 4 <= ring size; the ring BO lives as long as the queue.
            unsafe { (self.q.ring.host_ptr().add(at as usize) as *mut u32).write_volatile(d) };
            self.wptr += 1;
        }
    }
}

impl Queue {
    pub fn id(&self) -> u32 {
        self.shared.id
    }

    /// Submits indirect buffers; returns the fence value that signals their completion.
    pub fn submit(&self, ibs: &[Ib]) -> Result<u64, SubmitError> {
        let q = &*self.shared;
        if let Some(r) = q.dev.lost() {
            return Err(SubmitError::Lost(r.summary.clone()));
        }
        if let Some(ib) = ibs.iter().find(|ib| ib.dwords > pm4::ib::SIZE_MASK) {
            return Err(SubmitError::IbTooLarge(ib.dwords));
        }
        let mut next = q.submit.lock();
        let seq = *next;
        *next += 1;
        let mut w = RingWriter { q, wptr: q.wptr.load(Ordering::Acquire) };
        for ib in ibs {
            self.emit(&mut w, 4, |b| b.indirect_buffer(ib.va, ib.dwords, false))?;
        }
        self.emit(&mut w, 8, |b| {
            b.release_mem(
                pm4::event::CACHE_FLUSH_AND_INV_TS_EVENT,
                pm4::release::DATA_64,
                pm4::release::INT_AFTER_WRITE,
                q.fence.va(),
                seq,
            )
        })?;
        Ok(seq)
    }

    /// Writes one packet of `dwords` into the ring and rings the doorbell. A packet never
    /// wraps: the ring's end is padded with a NOP first, as a kernel driver does.
    fn emit(
        &self,
        w: &mut RingWriter,
        dwords: u64,
        f: impl FnOnce(&mut Builder<RingWriter>),
    ) -> Result<(), SubmitError> {
        let q = &*self.shared;
        let room_to_end = RING_DWORDS - w.wptr % RING_DWORDS;
        let pad = if room_to_end < dwords { room_to_end } else { 0 };
        self.wait_for_space(w.wptr, pad + dwords)?;
        let mut b = Builder(w);
        b.nop(pad as u32);
        f(&mut b);
        q.wptr.store(w.wptr, Ordering::Release);
        q.ring_doorbell();
        Ok(())
    }

    fn wait_for_space(&self, wptr: u64, dwords: u64) -> Result<(), SubmitError> {
        let q = &*self.shared;
        loop {
            if wptr + dwords - q.rptr.load(Ordering::Acquire) <= RING_DWORDS {
                return Ok(());
            }
            if let Some(r) = q.dev.lost() {
                return Err(SubmitError::Lost(r.summary.clone()));
            }
            let mut g = q.dev.events.0.lock();
            q.dev.events.1.wait_for(&mut g, Duration::from_millis(5));
        }
    }

    /// Highest fence value that has signalled.
    pub fn completed(&self) -> u64 {
        self.shared.completed.load(Ordering::Acquire)
    }

    /// Waits until fence value `seq` signals. `Ok(false)` on timeout; `Err` when the device
    /// is lost first.
    pub fn wait(&self, seq: u64, timeout: Duration) -> Result<bool, Arc<Report>> {
        let q = &*self.shared;
        let start = Instant::now();
        let deadline = start.checked_add(timeout);
        loop {
            if q.completed.load(Ordering::Acquire) >= seq {
                return Ok(true);
            }
            if let Some(r) = q.dev.lost() {
                return Err(r);
            }
            let now = Instant::now();
            let left = match deadline {
                Some(d) if now >= d => return Ok(false),
                Some(d) => d - now,
                None => Duration::from_secs(3600),
            };
            // Short waits are common (a small submission): poll the fence for a moment
            // before sleeping until the end-of-pipe interrupt.
            if now - start < FENCE_POLL {
                std::thread::yield_now();
                continue;
            }
            let mut g = q.dev.events.0.lock();
            // Re-check under the lock so that an interrupt between the check and the wait
            // is not missed.
            if q.completed.load(Ordering::Acquire) >= seq || q.dev.lost().is_some() {
                continue;
            }
            q.dev.events.1.wait_for(&mut g, left.min(Duration::from_millis(100)));
        }
    }

    /// GPU address of the queue's fence value (a u64 in memory).
    pub fn fence_va(&self) -> u64 {
        self.shared.fence.va()
    }
}

impl Drop for Queue {
    fn drop(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        self.shared.ring_doorbell();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
        self.shared.dev.vm.free(self.shared.ring.va());
        self.shared.dev.vm.free(self.shared.fence.va());
    }
}
