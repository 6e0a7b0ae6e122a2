//! Workgroup processors: a pool of host threads that run the workgroups of dispatches.
//!
//! A dispatch is a [`Job`]; every worker takes workgroups from it (an atomic counter)
//! until none are left. A workgroup runs on one worker from start to end: its waves take
//! turns on that thread, switching at `s_barrier` (seed 001, "workgroups and barriers":
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
use crate::spi::Dispatch;

/// Waves a workgroup can have (1024 work-items in wave32).
pub const MAX_WAVES_PER_GROUP: u32 = 32;

/// One dispatch being executed.
pub struct Job {
    pub dispatch: Dispatch,
    pub program: Arc<Program>,
    pub vm: Arc<AddressSpace>,
    pub queue: u32,
    pub index: u64,
    groups: u64,
    next: AtomicU64,
    /// Workers that have joined; the n-th owns scratch slots `[n * waves, (n + 1) * waves)`.
    participants: AtomicU32,
    /// Participants the scratch ring has slots for (unbounded without scratch).
    max_participants: u32,
    /// Waves launched and wave-instructions executed, for statistics.
    pub waves: AtomicU64,
    pub instructions: AtomicU64,
    /// Workers still holding this job.
    holders: AtomicUsize,
    done: Mutex<bool>,
    done_cv: Condvar,
    /// Set on a fault or a hang: every wave stops at its next check.
    pub abort: AtomicBool,
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
    pub fn new(dispatch: Dispatch, program: Arc<Program>, vm: Arc<AddressSpace>, queue: u32, index: u64) -> Arc<Job> {
        let groups = dispatch.group_count();
        // The SPI gives every live wave its own slot of the scratch ring
        // (COMPUTE_TMPRING_SIZE.WAVES of them); a worker holds one group's worth.
        let max_participants = if dispatch.scratch_enabled() {
            dispatch.scratch_slots() / dispatch.waves_per_group().max(1)
        } else {
            u32::MAX
        };
        Arc::new(Job {
            participants: AtomicU32::new(0),
            max_participants,
            waves: AtomicU64::new(0),
            instructions: AtomicU64::new(0),
            dispatch,
            program,
            vm,
            queue,
            index,
            groups,
            next: AtomicU64::new(0),
            holders: AtomicUsize::new(0),
            done: Mutex::new(false),
            done_cv: Condvar::new(),
            abort: AtomicBool::new(false),
            failure: Mutex::new(None),
            live_waves: Mutex::new(Vec::new()),
        })
    }

    fn fail(&self, report: Report) {
        let mut f = self.failure.lock();
        if f.is_none() {
            *f = Some(report);
        }
        self.abort.store(true, Ordering::Relaxed);
    }

    fn release(&self) {
        if self.holders.fetch_sub(1, Ordering::AcqRel) == 1 {
            *self.done.lock() = true;
            self.done_cv.notify_all();
        }
    }
}

/// Per-worker storage reused across workgroups.
struct Worker {
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

impl Worker {
    fn run_job(&mut self, job: &Job) {
        let participant = job.participants.fetch_add(1, Ordering::Relaxed);
        if participant >= job.max_participants {
            // No scratch slots left for another worker: the others run the groups.
            return;
        }
        let slot_base = participant * job.dispatch.waves_per_group();
        let (mut waves, mut instructions) = (0, 0);
        loop {
            if job.abort.load(Ordering::Relaxed) {
                break;
            }
            let g = job.next.fetch_add(1, Ordering::Relaxed);
            if g >= job.groups {
                break;
            }
            let id = job.dispatch.group_id(g);
            let r = catch_unwind(AssertUnwindSafe(|| self.run_group(job, id, slot_base)));
            match r {
                Ok(count) => {
                    waves += count as u64;
                    instructions += self.waves[..count].iter().map(|w| w.executed).sum::<u64>();
                }
                Err(p) => {
                    let msg =
                        p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
                    job.fail(Report {
                        kind: ReportKind::Internal,
                        summary: format!("internal error in a WGP worker: {}", msg.unwrap_or_default()),
                        details: format!("  workgroup {id:?} of queue {} dispatch #{}\n", job.queue, job.index),
                    });
                }
            }
        }
        job.waves.fetch_add(waves, Ordering::Relaxed);
        job.instructions.fetch_add(instructions, Ordering::Relaxed);
    }

    /// Runs one workgroup to its end (or to a fault or abort); returns its wave count.
    fn run_group(&mut self, job: &Job, id: [u32; 3], slot_base: u32) -> usize {
        let d = &job.dispatch;
        let count = d.init_waves(id, &mut self.waves, slot_base);
        let lds_len = d.lds_bytes() as usize;
        if self.lds.len() < lds_len {
            self.lds.resize(lds_len, 0);
        }
        let mut state = [WaveState::Running; MAX_WAVES_PER_GROUP as usize];
        let mut live = count;
        let prog = &*job.program;
        while live > 0 {
            for w in 0..count {
                if state[w] != WaveState::Running {
                    continue;
                }
                let mut ctx = Ctx { vm: &job.vm, tlb: &mut self.tlb, lds: &mut self.lds[..lds_len], abort: &job.abort };
                let wave = &mut self.waves[w];
                match wave.run(prog, &mut ctx) {
                    Ok(Stop::Ended) => {
                        state[w] = WaveState::Ended;
                        live -= 1;
                    }
                    // A single-wave workgroup treats s_barrier as s_nop (seed 004).
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
            let pc = job.program.addr(wave.pc);
            let inst = job
                .program
                .insts()
                .get(wave.pc)
                .map(|i| crate::isa::disasm::disassemble(i, pc, wave.wave64()))
                .unwrap_or_default();
            let waiting = if state[w] == WaveState::AtBarrier { " (waiting at s_barrier)" } else { "" };
            out.push(format!("  {at}{waiting}\n    pc={pc:#x}: {inst}\n{}", wave_state(wave, 4)));
        }
    }
}

/// The worker threads.
pub struct Pool {
    tx: Option<Sender<Arc<Job>>>,
    threads: Vec<JoinHandle<()>>,
    size: usize,
}

impl Pool {
    /// Starts `threads` workers (at least one).
    pub fn new(threads: usize) -> std::io::Result<Pool> {
        let (tx, rx): (Sender<Arc<Job>>, Receiver<Arc<Job>>) = unbounded();
        let mut pool = Pool { tx: Some(tx), threads: Vec::new(), size: threads.max(1) };
        for i in 0..pool.size {
            let rx = rx.clone();
            let handle = std::thread::Builder::new().name(format!("softnavi-wgp{i}")).spawn(move || {
                let mut w = Worker { lds: vec![0; 64 * 1024], waves: Vec::new(), tlb: Tlb::default() };
                for job in rx {
                    w.run_job(&job);
                    w.tlb = Tlb::default();
                    job.release();
                }
            })?; // dropping `pool` on error stops the workers already started
            pool.threads.push(handle);
        }
        Ok(pool)
    }

    pub fn size(&self) -> usize {
        self.size
    }

    /// Runs `job` on every worker and waits until it is done, fails, or runs longer than
    /// `timeout` (then it is aborted and reported as a hang). `stop` is polled so that a
    /// queue being destroyed does not wait for a runaway shader.
    pub fn run(&self, job: &Arc<Job>, timeout: Duration, stop: &AtomicBool) -> Outcome {
        let Some(tx) = &self.tx else { return Outcome::Failed(shutdown_report()) };
        if job.groups == 0 {
            return Outcome::Done;
        }
        let workers = (self.size as u64).min(job.groups) as usize;
        job.holders.store(workers, Ordering::Release);
        for _ in 0..workers {
            if tx.send(job.clone()).is_err() {
                return Outcome::Failed(shutdown_report());
            }
        }
        let deadline = Instant::now() + timeout;
        let mut hung = false;
        let mut done = job.done.lock();
        while !*done {
            let now = Instant::now();
            if !hung && (now >= deadline || stop.load(Ordering::Relaxed)) {
                hung = true;
                job.abort.store(true, Ordering::Relaxed);
            }
            let wait = if hung { Duration::from_millis(50) } else { (deadline - now).min(Duration::from_millis(20)) };
            job.done_cv.wait_for(&mut done, wait);
        }
        drop(done);
        if let Some(r) = job.failure.lock().take() {
            return Outcome::Failed(r);
        }
        if hung {
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
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}
