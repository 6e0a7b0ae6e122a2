//! Workgroup processors: a pool of host threads that run the workgroups of dispatches.
//!
//! A dispatch is a [`Job`]; every worker takes workgroups from it (an atomic counter)
//! until none are left. A workgroup runs on one worker from start to end: its waves take
//! turns on that thread, switching at `s_barrier` (RDNA3-NOTES, "Workgroups and barriers":
//! a barrier is satisfied when every wave that has not ended has reached it, so an early
//! `s_endpgm` never deadlocks the others). Each worker keeps its LDS and wave storage
//! between workgroups, so the hot path allocates nothing.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crossbeam::channel::{unbounded, Receiver, Sender};
use parking_lot::{Condvar, Mutex};

use crate::isa::exec::{Ctx, Stop, Wave};
use crate::isa::program::Program;
use crate::mem::{AddressSpace, Tlb};
use crate::report::{wave_state, Report, ReportKind, WaveLocation};
use crate::spi::{Dispatch, Launch};

/// Waves a workgroup can have (1024 work-items in wave32).
pub const MAX_WAVES_PER_GROUP: u32 = 32;

/// One dispatch being executed.
pub struct Job {
    pub dispatch: Dispatch,
    /// The waves' launch state that every workgroup shares, worked out once.
    launch: Launch,
    pub program: Arc<Program>,
    /// The trap handler (the code at the VMID's TBA) when the dispatch has TRAP_PRESENT
    /// and one is installed.
    pub handler: Option<Arc<Program>>,
    /// The device's host-trap request counter ([`crate::Device::host_trap`]).
    pub host_trap: Arc<AtomicU64>,
    pub vm: Arc<AddressSpace>,
    pub queue: u32,
    pub index: u64,
    groups: u64,
    /// Next workgroup to claim.
    next: AtomicU64,
    /// Workgroups a participant claims at once ([`Pool::run`] sets it from the groups and
    /// threads): fewer trips to the shared counters.
    chunk: AtomicU64,
    /// Workgroups run to their end (each participant adds its own when it leaves).
    finished: AtomicU64,
    /// Participants inside [`Worker::run_job`] (checked before reporting an abort, so that
    /// no wave is still running when the CP moves on).
    active: AtomicUsize,
    /// Participants that have joined; the n-th owns scratch slots `[n * waves, (n + 1) *
    /// waves)`.
    participants: AtomicU32,
    /// Participants the scratch ring has slots for (unbounded without scratch).
    max_participants: u32,
    /// Waves launched and wave-instructions executed, for statistics.
    pub waves: AtomicU64,
    pub instructions: AtomicU64,
    /// Of `instructions`, those run by translated code.
    pub translated: AtomicU64,
    done: Mutex<()>,
    done_cv: Condvar,
    /// Set on a fault or a hang: every wave stops at its next check.
    pub abort: AtomicBool,
    /// Set by the watchdog when the hang timeout passed (or the queue is being destroyed).
    hung: AtomicBool,
    /// The first fault, as a report.
    failure: Mutex<Option<Report>>,
    /// Wave states collected while aborting (for hang reports).
    live_waves: Mutex<Vec<String>>,
}

/// How a dispatch ended.
pub enum Outcome {
    Done,
    Failed(Report),
    /// Still running after the timeout: the job was aborted; the text lists the live waves.
    Hung(Vec<String>),
}

impl Job {
    pub fn new(
        dispatch: Dispatch,
        program: Arc<Program>,
        handler: Option<Arc<Program>>,
        host_trap: Arc<AtomicU64>,
        vm: Arc<AddressSpace>,
        queue: u32,
        index: u64,
    ) -> Arc<Job> {
        let groups = dispatch.group_count();
        // The SPI gives every live wave its own slot of the scratch ring
        // (COMPUTE_TMPRING_SIZE.WAVES of them); a participant holds one group's worth.
        let max_participants = if dispatch.scratch_enabled() {
            dispatch.scratch_slots() / dispatch.waves_per_group().max(1)
        } else {
            u32::MAX
        };
        Arc::new(Job {
            launch: dispatch.launch(),
            dispatch,
            program,
            handler,
            host_trap,
            vm,
            queue,
            index,
            groups,
            next: AtomicU64::new(0),
            chunk: AtomicU64::new(1),
            finished: AtomicU64::new(0),
            active: AtomicUsize::new(0),
            participants: AtomicU32::new(0),
            max_participants,
            waves: AtomicU64::new(0),
            instructions: AtomicU64::new(0),
            translated: AtomicU64::new(0),
            done: Mutex::new(()),
            done_cv: Condvar::new(),
            abort: AtomicBool::new(false),
            hung: AtomicBool::new(false),
            failure: Mutex::new(None),
            live_waves: Mutex::new(Vec::new()),
        })
    }

    fn fail(&self, report: Report) {
        let mut f = self.failure.lock();
        if f.is_none() {
            *f = Some(report);
        }
        self.abort.store(true, Ordering::SeqCst);
    }

    /// Whether the CP can move on: every group ran, or the job was aborted and nobody is
    /// running any of it any more.
    fn settled(&self) -> bool {
        self.finished.load(Ordering::Acquire) == self.groups
            || (self.abort.load(Ordering::SeqCst) && self.active.load(Ordering::SeqCst) == 0)
    }

    fn wake(&self) {
        let _g = self.done.lock();
        self.done_cv.notify_all();
    }

    /// Aborts the job as hung (the watchdog's verdict).
    fn hang(&self) {
        self.hung.store(true, Ordering::SeqCst);
        self.abort.store(true, Ordering::SeqCst);
        self.wake();
    }
}

/// Per-worker storage reused across workgroups: every pool thread has one, and so does
/// every CP thread (it runs workgroups of its own dispatches too).
pub struct Worker {
    lds: Vec<u8>,
    waves: Vec<Wave>,
    tlb: Tlb,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum WaveState {
    Running,
    AtBarrier,
    Ended,
}

impl Default for Worker {
    fn default() -> Worker {
        Worker { lds: vec![0; 64 * 1024], waves: Vec::new(), tlb: Tlb::default() }
    }
}

impl Worker {
    /// Claims and runs workgroups of `job` until none are left or it is aborted.
    fn run_job(&mut self, job: &Job) {
        // Announce first, then check for an abort: a participant the CP did not see as
        // active cannot start a group after the CP decided the job had stopped.
        job.active.fetch_add(1, Ordering::SeqCst);
        let participant = job.participants.fetch_add(1, Ordering::Relaxed);
        // Without a scratch slot of its own, this participant leaves the groups to others
        // (participant 0 always has one: validation checked that a group fits).
        if participant < job.max_participants {
            let slot_base = participant * job.dispatch.waves_per_group();
            self.claim_groups(job, slot_base);
        }
        self.tlb = Tlb::default();
        if job.active.fetch_sub(1, Ordering::SeqCst) == 1 && job.abort.load(Ordering::SeqCst) {
            job.wake();
        }
    }

    fn claim_groups(&mut self, job: &Job, slot_base: u32) {
        // Counted here and added to the job's totals once, when this participant leaves:
        // the shared counters are touched once per chunk of groups, not once per group.
        let (mut finished, mut waves, mut executed, mut translated) = (0u64, 0u64, 0u64, 0u64);
        let chunk = job.chunk.load(Ordering::Relaxed).max(1);
        'claim: while !job.abort.load(Ordering::SeqCst) {
            let first = job.next.fetch_add(chunk, Ordering::Relaxed);
            if first >= job.groups {
                break;
            }
            let mut id = job.dispatch.group_id(first);
            for g in first..(first + chunk).min(job.groups) {
                if g > first {
                    id = job.dispatch.next_group_id(id);
                    if job.abort.load(Ordering::SeqCst) {
                        break 'claim;
                    }
                }
                match catch_unwind(AssertUnwindSafe(|| self.run_group(job, id, slot_base))) {
                    Ok(count) => {
                        executed += self.waves[..count].iter().map(|w| w.executed).sum::<u64>();
                        translated += self.waves[..count].iter().map(|w| w.translated).sum::<u64>();
                        waves += count as u64;
                        finished += 1;
                    }
                    Err(p) => {
                        let msg = p
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| p.downcast_ref::<String>().cloned());
                        job.fail(Report {
                            kind: ReportKind::Internal,
                            summary: format!("internal error in a WGP worker: {}", msg.unwrap_or_default()),
                            details: format!("  workgroup {id:?} of queue {} dispatch #{}\n", job.queue, job.index),
                        });
                    }
                }
            }
        }
        // The statistics first, so that whoever sees the last group finished sees them.
        job.waves.fetch_add(waves, Ordering::Relaxed);
        job.instructions.fetch_add(executed, Ordering::Relaxed);
        job.translated.fetch_add(translated, Ordering::Relaxed);
        if finished > 0 && job.finished.fetch_add(finished, Ordering::AcqRel) + finished == job.groups {
            job.wake();
        }
    }

    /// Runs one workgroup to its end (or to a fault or abort); returns its wave count.
    fn run_group(&mut self, job: &Job, id: [u32; 3], slot_base: u32) -> usize {
        let d = &job.dispatch;
        let count = job.launch.init_waves(d, id, &mut self.waves, slot_base);
        let lds_len = d.lds_bytes() as usize;
        if self.lds.len() < lds_len {
            self.lds.resize(lds_len, 0);
        }
        let mut state = [WaveState::Running; MAX_WAVES_PER_GROUP as usize];
        let mut live = count;
        let prog = &*job.program;
        // Waves answer host-trap requests made after their launch.
        let host_trap = job.host_trap.load(Ordering::Acquire);
        for wave in &mut self.waves[..count] {
            wave.host_trap_seen = host_trap;
        }
        while live > 0 {
            for w in 0..count {
                if state[w] != WaveState::Running {
                    continue;
                }
                let mut ctx = Ctx {
                    vm: &job.vm,
                    tlb: &mut self.tlb,
                    lds: &mut self.lds[..lds_len],
                    abort: &job.abort,
                    vmid: &d.vmid,
                    handler: job.handler.as_deref(),
                    host_trap: &job.host_trap,
                };
                let wave = &mut self.waves[w];
                match wave.run(prog, &mut ctx) {
                    Ok(Stop::Ended) => {
                        state[w] = WaveState::Ended;
                        live -= 1;
                    }
                    // A single-wave workgroup treats s_barrier as s_nop (RDNA3-NOTES,
                    // "Workgroups and barriers").
                    Ok(Stop::Barrier) => state[w] = if count == 1 { WaveState::Running } else { WaveState::AtBarrier },
                    Ok(Stop::Aborted) => {
                        self.record_live(job, id, count, &state);
                        return count;
                    }
                    Err(fault) => {
                        let at = WaveLocation { queue: job.queue, dispatch: job.index, workgroup: id, wave: w as u32 };
                        job.fail(Report::wave_fault(at, &fault, wave));
                        return count;
                    }
                }
            }
            // Every wave that has not ended is at the barrier: release them all.
            for s in state.iter_mut().take(count) {
                if *s == WaveState::AtBarrier {
                    *s = WaveState::Running;
                }
            }
        }
        count
    }

    fn record_live(&self, job: &Job, id: [u32; 3], count: usize, state: &[WaveState]) {
        let mut out = job.live_waves.lock();
        for (w, wave) in self.waves.iter().enumerate().take(count) {
            if state[w] == WaveState::Ended || out.len() >= 64 {
                continue;
            }
            let at = WaveLocation { queue: job.queue, dispatch: job.index, workgroup: id, wave: w as u32 };
            let prog = match (&job.handler, wave.in_handler) {
                (Some(h), true) => h,
                _ => &job.program,
            };
            let pc = prog.addr(wave.pc);
            let inst = prog
                .insts()
                .get(wave.pc)
                .map(|i| crate::isa::disasm::disassemble(i, pc, wave.wave64()))
                .unwrap_or_default();
            let waiting = if state[w] == WaveState::AtBarrier { " (waiting at s_barrier)" } else { "" };
            out.push(format!("  {at}{waiting}\n    pc={pc:#x}: {inst}\n{}", wave_state(wave, 4)));
        }
    }
}

/// A dispatch the watchdog keeps an eye on.
struct Watched {
    job: Arc<Job>,
    deadline: Instant,
    stop: Arc<AtomicBool>,
}

/// The hang detector: aborts a dispatch that runs past its deadline, or whose queue is
/// being destroyed, wherever its waves run (on pool threads or on the CP thread itself).
struct Watchdog {
    watched: Mutex<Vec<Watched>>,
    cv: Condvar,
    shutdown: AtomicBool,
}

impl Watchdog {
    fn run(&self) {
        let mut w = self.watched.lock();
        while !self.shutdown.load(Ordering::Relaxed) {
            let now = Instant::now();
            for e in w.iter() {
                if (now >= e.deadline || e.stop.load(Ordering::Relaxed)) && !e.job.hung.load(Ordering::Relaxed) {
                    e.job.hang();
                }
            }
            // Stop flags are polled; deadlines are waited for exactly.
            let next = w.iter().map(|e| e.deadline).min().map_or(Duration::from_millis(20), |d| {
                d.saturating_duration_since(now).clamp(Duration::from_micros(100), Duration::from_millis(20))
            });
            self.cv.wait_for(&mut w, next);
        }
    }
}

/// The worker threads.
pub struct Pool {
    tx: Option<Sender<Arc<Job>>>,
    threads: Vec<JoinHandle<()>>,
    watchdog: Arc<Watchdog>,
    size: usize,
}

impl Pool {
    /// A pool for `threads` threads running workgroups: the CP thread of a queue runs
    /// workgroups of its dispatches itself, so `threads - 1` pool threads are started.
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        let (tx, rx): (Sender<Arc<Job>>, Receiver<Arc<Job>>) = unbounded();
        let watchdog = Arc::new(Watchdog {
            watched: Mutex::new(Vec::new()),
            cv: Condvar::new(),
            shutdown: AtomicBool::new(false),
        });
        let mut pool = Pool { tx: Some(tx), threads: Vec::new(), watchdog: watchdog.clone(), size: threads.max(1) };
        let wd = watchdog.clone();
        pool.threads.push(std::thread::Builder::new().name("softnavi-watchdog".into()).spawn(move || wd.run())?);
        for i in 0..pool.size - 1 {
            let rx = rx.clone();
            let handle = std::thread::Builder::new().name(format!("softnavi-wgp{i}")).spawn(move || {
                let mut w = Worker::default();
                for job in rx {
                    w.run_job(&job);
                }
            })?; // dropping `pool` on error stops the threads already started
            pool.threads.push(handle);
        }
        Ok(pool)
    }

    /// Threads that run workgroups of one dispatch (the pool's and the CP's).
    pub fn size(&self) -> usize {
        self.size
    }

    /// Runs `job` on the pool's threads and on the calling CP thread (with its `worker`
    /// storage) and waits until it is done or failed. The watchdog aborts it as a hang
    /// after `timeout`, or when `stop` is set (the queue is being destroyed).
    pub fn run(&self, job: &Arc<Job>, worker: &mut Worker, timeout: Duration, stop: &Arc<AtomicBool>) -> Outcome {
        let Some(tx) = &self.tx else { return Outcome::Failed(shutdown_report()) };
        if job.groups == 0 {
            return Outcome::Done;
        }
        self.watchdog.watched.lock().push(Watched {
            job: job.clone(),
            deadline: Instant::now() + timeout,
            stop: stop.clone(),
        });
        // The watchdog looks at least every 20 ms; wake it only for a shorter deadline.
        if timeout < Duration::from_millis(20) {
            self.watchdog.cv.notify_one();
        }
        // Helpers for the groups beyond the one this thread takes: a single-group
        // dispatch wakes nobody.
        let helpers = ((self.size - 1) as u64).min(job.groups - 1);
        // Chunks small enough that the last ones leave little imbalance between threads
        // (a few hundred per thread), at most 32 groups.
        job.chunk.store((job.groups / (256 * (helpers + 1))).clamp(1, 32), Ordering::Relaxed);
        for _ in 0..helpers {
            if tx.send(job.clone()).is_err() {
                job.fail(shutdown_report());
            }
        }
        worker.run_job(job);
        let mut g = job.done.lock();
        while !job.settled() {
            job.done_cv.wait_for(&mut g, Duration::from_millis(20));
        }
        drop(g);
        self.watchdog.watched.lock().retain(|w| !Arc::ptr_eq(&w.job, job));
        if let Some(r) = job.failure.lock().take() {
            return Outcome::Failed(r);
        }
        if job.hung.load(Ordering::SeqCst) {
            return Outcome::Hung(std::mem::take(&mut *job.live_waves.lock()));
        }
        Outcome::Done
    }
}

fn shutdown_report() -> Report {
    Report { kind: ReportKind::Internal, summary: "the WGP pool has shut down".into(), details: String::new() }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.tx = None;
        self.watchdog.shutdown.store(true, Ordering::Relaxed);
        self.watchdog.cv.notify_all();
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
