//! Instruction throughput of the wave executor on one core (a bench binary:
//! `cargo bench -p softnavi-gpu --bench valu`; `--iterations N`, `--rounds N`).
//!
//! `--wave 32|64` runs one wave size only.
//!
//! One workgroup of `WAVES` waves runs a loop of 32-bit VALU work with full EXEC: eight
//! dependent `v_fma_f32` (x * 0.5 + y chains, which stay finite: a loop that overflows to
//! inf and then NaN would measure NaN propagation, not typical shader work), a
//! `v_add_nc_u32` counter, `v_cmp_gt_u32` into VCC and `s_cbranch_vccnz` (11
//! wave-instructions per iteration), on a device with one WGP worker thread. The figure
//! is wave-instructions (as the device counts them) per second of the best round, for
//! wave32 and wave64. The target is 100 M/s on one core of the CI machine class.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{addr, Dispatch, Gpu, W32, W64};

const WAVES: u32 = 4;

fn kernel(iterations: u32, wave64: bool) -> String {
    let vcc = if wave64 { "vcc" } else { "vcc_lo" };
    format!(
        "
    v_cvt_f32_u32 v1, v0
    v_mul_f32 v1, 0x3a83126f, v1
    v_mov_b32 v2, 1.0
    v_mov_b32 v3, 0.5
    v_mov_b32 v6, 0.5
    v_mov_b32 v5, 0
loop:
    v_fma_f32 v2, v2, v6, v1
    v_fma_f32 v3, v3, v6, v2
    v_fma_f32 v2, v2, v6, v3
    v_fma_f32 v3, v3, v6, v1
    v_fma_f32 v2, v2, v6, v1
    v_fma_f32 v3, v3, v6, v2
    v_fma_f32 v2, v2, v6, v3
    v_fma_f32 v3, v3, v6, v1
    v_add_nc_u32 v5, 1, v5
    v_cmp_gt_u32 {vcc}, {iterations}, v5
    s_cbranch_vccnz loop
    v_lshlrev_b32 v4, 2, v0
    global_store_b32 v4, v2, s[0:1]
    s_endpgm
"
    )
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let arg = |name: &str, default: u32| {
        args.iter().position(|a| a == name).and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(default)
    };
    let (iterations, rounds) = (arg("--iterations", 20_000), arg("--rounds", 7));
    println!("softnavi VALU throughput, one WGP worker thread ({WAVES} waves, {iterations} loop iterations each)");
    let only = args.iter().position(|a| a == "--wave").and_then(|i| args.get(i + 1)?.parse::<u32>().ok());
    for wave64 in [false, true].into_iter().filter(|&w| only.is_none_or(|n| (n == 64) == w)) {
        let lanes = if wave64 { 64 } else { 32 };
        let mut gpu = Gpu::with_threads(1, Duration::from_secs(600));
        let code = gpu.kernel_for(&kernel(iterations, wave64), wave64);
        let out = gpu.alloc((WAVES * lanes * 4) as u64);
        let ib = Dispatch::new(&code, &addr(out.va()), [false; 3], [WAVES * lanes, 1, 1])
            .ib([1, 1, 1], if wave64 { W64 } else { W32 });
        gpu.run(&ib).unwrap(); // warm up: program decode, page faults
        let mut times = Vec::new();
        for _ in 0..rounds {
            let start = Instant::now();
            gpu.run(&ib).unwrap();
            times.push(start.elapsed());
        }
        times.sort();
        let stats = gpu.dev.stats();
        let per_dispatch = stats.wave_instructions / stats.dispatches;
        let rate = |t: Duration| per_dispatch as f64 / t.as_secs_f64() / 1e6;
        println!(
            "wave{lanes}: {per_dispatch} wave-instructions per dispatch; best {:.1} ms = {:.1} M wave-instructions/s, median {:.1} ms = {:.1} M/s ({rounds} rounds)",
            times[0].as_secs_f64() * 1e3,
            rate(times[0]),
            times[rounds as usize / 2].as_secs_f64() * 1e3,
            rate(times[rounds as usize / 2]),
        );
    }
}
