//! GPU-model benchmarks (a bench binary: `cargo bench -p softnavi-gpu --bench dispatch`).
//!
//! 1. Dispatch overhead: one empty dispatch (one wave of `s_endpgm`) per submission,
//!    timed from `Queue::submit` to the fence having signalled, as a driver's
//!    `vkQueueSubmit` + `vkWaitForFences` sees it. Also a submission without a dispatch.
//! 2. Thread scaling: the same large ALU-bound dispatch with 1, 2, ... WGP worker threads
//!    (`--threads 1,2,16`; default 1, 2 and the number of cores; `--groups N`,
//!    `--rounds N`).
//!
//! Kernels are assembled with llvm-mc-19, as in the tests.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{addr, Dispatch, Gpu, W32};
use gpu::pm4::Builder;

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

fn micros(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn overhead(threads: usize, iterations: usize) {
    let mut gpu = Gpu::with_threads(threads, Duration::from_secs(10));
    let code = gpu.kernel("s_endpgm");
    let dispatch = gpu.ib(&Dispatch::new(&code, &[], [false; 3], [1, 1, 1]).ib([1, 1, 1], W32));
    let mut nop = Vec::new();
    Builder(&mut nop).nop(4);
    let nop = gpu.ib(&nop);
    for (name, ib) in [("empty dispatch", dispatch), ("submission without dispatch", nop)] {
        let mut times = Vec::with_capacity(iterations);
        for i in 0..iterations + iterations / 10 {
            let t = Instant::now();
            let seq = gpu.queue.submit(&[ib]).unwrap();
            assert!(gpu.queue.wait(seq, Duration::from_secs(10)).unwrap());
            if i >= iterations / 10 {
                times.push(t.elapsed()); // the first 10 % warm up
            }
        }
        times.sort();
        println!(
            "overhead  threads={threads}  {name:<28} median {:7.1} us  p10 {:7.1} us  p90 {:7.1} us  ({} submissions)",
            micros(percentile(&times, 0.5)),
            micros(percentile(&times, 0.1)),
            micros(percentile(&times, 0.9)),
            times.len()
        );
    }
}

/// 16 iterations of 8 FMAs, an add and the loop's SALU per work-item, in groups of 256
/// work-items (8 wave32 each; 1024 groups by default, `--groups N`).
const ALU_KERNEL: &str = "
    v_cvt_f32_u32 v1, v0
    v_mov_b32 v2, 1.0
    v_mov_b32 v3, 0.5
    s_mov_b32 s4, 16
loop:
    v_fma_f32 v2, v1, v3, v2
    v_fma_f32 v3, v2, v1, v3
    v_fma_f32 v2, v3, v3, v2
    v_fma_f32 v3, v2, v2, v3
    v_fma_f32 v2, v1, v3, v2
    v_fma_f32 v3, v2, v1, v3
    v_fma_f32 v2, v3, v3, v2
    v_fma_f32 v3, v2, v2, v3
    v_add_nc_u32 v1, 1, v1
    s_sub_u32 s4, s4, 1
    s_cmp_lg_u32 s4, 0
    s_cbranch_scc1 loop
    v_lshlrev_b32 v4, 2, v0
    s_lshl_b32 s5, s2, 10
    v_add_nc_u32 v4, s5, v4
    global_store_b32 v4, v2, s[0:1]
    s_endpgm
";

/// Runs the same dispatch on one device per thread count, alternating between them round
/// by round so that noise from other tenants of the machine hits all of them alike, and
/// compares the best and the median times.
fn scaling(threads: &[usize], groups: u32, rounds: usize) {
    let mut setups = Vec::new();
    for &t in threads {
        let mut gpu = Gpu::with_threads(t, Duration::from_secs(600));
        let code = gpu.kernel(ALU_KERNEL);
        let out = gpu.alloc(groups as u64 * 256 * 4);
        let ib = Dispatch::new(&code, &addr(out.va()), [true, false, false], [256, 1, 1]).ib([groups, 1, 1], W32);
        gpu.run(&ib).unwrap(); // warm up (program decode, page faults)
        setups.push((t, gpu, ib, out, code, Vec::new()));
    }
    for _ in 0..rounds {
        for (_, gpu, ib, _, _, times) in setups.iter_mut() {
            let start = Instant::now();
            gpu.run(ib).unwrap();
            times.push(start.elapsed());
        }
    }
    let mut base: Option<(Duration, Duration)> = None;
    for (t, gpu, _, _, _, times) in setups.iter_mut() {
        times.sort();
        let (best, median) = (times[0], times[times.len() / 2]);
        let (b0, m0) = *base.get_or_insert((best, median));
        let stats = gpu.dev.stats();
        let per_dispatch = stats.wave_instructions / stats.dispatches;
        println!(
            "scaling   threads={t:<3} best {:8.1} ms  median {:8.1} ms  {:7.1} M wave-instructions/s  speedup {:.2}x (best) {:.2}x (median)  ({per_dispatch} wave-instructions, {} waves, {rounds} rounds)",
            best.as_secs_f64() * 1e3,
            median.as_secs_f64() * 1e3,
            per_dispatch as f64 / best.as_secs_f64() / 1e6,
            b0.as_secs_f64() / best.as_secs_f64(),
            m0.as_secs_f64() / median.as_secs_f64(),
            stats.waves / stats.dispatches,
        );
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let mut threads: Vec<usize> = vec![1, 2];
    if cores > 2 {
        threads.push(cores);
    }
    if let Some(i) = args.iter().position(|a| a == "--threads") {
        threads = args.get(i + 1).map(|s| s.split(',').filter_map(|t| t.parse().ok()).collect()).unwrap_or(threads);
    }
    let only =
        |name: &str| !args.iter().any(|a| a == "--overhead" || a == "--scaling") || args.iter().any(|a| a == name);
    println!("softnavi GPU-model benchmarks ({cores} cores available)");
    if only("--overhead") {
        for &t in &threads {
            overhead(t, 2000);
        }
    }
    let groups = args.iter().position(|a| a == "--groups").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(1024);
    let rounds = args.iter().position(|a| a == "--rounds").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(9);
    if only("--scaling") {
        scaling(&threads, groups, rounds);
    }
}
