//! Wave launch cost (a bench binary: `cargo bench -p softnavi-gpu --bench launch`).
//!
//! Dispatches of many tiny waves that only run `s_endpgm`, timed from `Queue::submit` to
//! the fence having signalled; the figure is the dispatch's time divided by its waves, so
//! that it is what the SPI, the workers' group claiming and the wave set-up cost per wave
//! (the submission's own few microseconds are spread over 65536 waves). Cases:
//!
//! - 65536 one-wave workgroups (32 work-items, wave32; 64, wave64);
//! - 8192 workgroups of 256 work-items (8 wave32 waves each, 4 wave64);
//! - 65536 one-wave workgroups with every system SGPR (TGID X/Y/Z, TG_SIZE) and all
//!   three work-item ids in v0, on a 3D grid.
//!
//! Each case runs on one device per thread count (`--threads 1,2`; default 1 and 2),
//! rounds alternating between the devices so that noise from other tenants hits all of
//! them alike (`--rounds N`, default 15; `--waves N` waves per dispatch, default 65536).
//! Kernels are assembled with llvm-mc-19, as in the tests (`SOFTNAVI_ASM_CACHE=DIR` keeps
//! them for a machine without LLVM).

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{Dispatch, Gpu, W32, W64};

struct Case {
    name: &'static str,
    wave64: bool,
    /// Work-items per group.
    threads: [u32; 3],
    tgid: [bool; 3],
    /// TG_SIZE_EN and TIDIG_COMP_CNT 2 (x, y and z ids in v0).
    full_ids: bool,
}

const CASES: [Case; 5] = [
    Case {
        name: "1 wave32 per group",
        wave64: false,
        threads: [32, 1, 1],
        tgid: [true, false, false],
        full_ids: false,
    },
    Case {
        name: "8 wave32 per group",
        wave64: false,
        threads: [256, 1, 1],
        tgid: [true, false, false],
        full_ids: false,
    },
    Case { name: "1 wave64 per group", wave64: true, threads: [64, 1, 1], tgid: [true, false, false], full_ids: false },
    Case {
        name: "4 wave64 per group",
        wave64: true,
        threads: [256, 1, 1],
        tgid: [true, false, false],
        full_ids: false,
    },
    Case {
        name: "1 wave32, 3D ids, all SGPRs",
        wave64: false,
        threads: [4, 4, 2],
        tgid: [true, true, true],
        full_ids: true,
    },
];

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str| args.iter().position(|a| a == name).and_then(|i| args.get(i + 1).cloned());
    let threads: Vec<usize> =
        arg("--threads").map(|s| s.split(',').filter_map(|t| t.parse().ok()).collect()).unwrap_or(vec![1, 2]);
    let rounds: usize = arg("--rounds").and_then(|s| s.parse().ok()).unwrap_or(15);
    let waves: u32 = arg("--waves").and_then(|s| s.parse().ok()).unwrap_or(65536);
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    println!("softnavi wave launch bench ({cores} cores available, {waves} waves per dispatch, {rounds} rounds)");
    for case in &CASES {
        let lanes = if case.wave64 { 64 } else { 32 };
        let items: u32 = case.threads.iter().product();
        let per_group = items.div_ceil(lanes);
        let groups = waves / per_group;
        // A 3D grid for the 3D case (16 x 16 x rest), else a row.
        let grid = if case.full_ids { [16, 16, groups / 256] } else { [groups, 1, 1] };
        let total_waves = grid.iter().product::<u32>() as u64 * per_group as u64;
        let mut setups = Vec::new();
        for &t in &threads {
            let mut gpu = Gpu::with_threads(t, Duration::from_secs(60));
            let code = gpu.kernel_for("s_endpgm", case.wave64);
            let mut d = Dispatch::new(&code, &[1, 2, 3, 4], case.tgid, case.threads);
            if case.full_ids {
                d.rsrc2 |= 1 << 10 | 2 << 11; // TG_SIZE_EN, TIDIG_COMP_CNT = 2
            }
            let ib = d.ib(grid, if case.wave64 { W64 } else { W32 });
            let ib = gpu.ib(&ib);
            gpu.run_ibs(&[ib]).unwrap(); // warm up (program decode, worker storage)
            setups.push((t, gpu, ib, code, Vec::new()));
        }
        for _ in 0..rounds {
            for (_, gpu, ib, _, times) in setups.iter_mut() {
                let start = Instant::now();
                gpu.run_ibs(&[*ib]).unwrap();
                times.push(start.elapsed());
            }
        }
        for (t, gpu, _, _, times) in setups.iter_mut() {
            times.sort();
            let stats = gpu.dev.stats();
            assert_eq!(stats.waves, total_waves * (rounds as u64 + 1), "every wave ran");
            let ns = |d: Duration| d.as_secs_f64() * 1e9 / total_waves as f64;
            let (best, median): (Duration, Duration) = (times[0], times[times.len() / 2]);
            println!(
                "launch  {:<28} threads={t}  best {:6.1} ns/wave  median {:6.1} ns/wave  ({} groups, {} waves, best {:.2} ms)",
                case.name,
                ns(best),
                ns(median),
                grid.iter().product::<u32>(),
                total_waves,
                best.as_secs_f64() * 1e3,
            );
        }
    }
}
