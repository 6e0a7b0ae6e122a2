//! `y = a*x + y` over N floats on a Vulkan compute device, verified against the CPU.

use std::process::ExitCode;

use ash::vk;
use clap::Parser;
use softnavi_examples::{
    run_example, spirv_words, CommonArgs, Context, Lcg, MemoryLocation, Outcome, Result, SAXPY_SPV,
};

/// Must match `local_size_x` in shaders/saxpy.comp.
const LOCAL_SIZE: u32 = 64;
/// How many mismatches to print before giving up on listing them.
const MAX_REPORTED: usize = 10;
/// Relative tolerance, see `verify`.
const REL_TOLERANCE: f32 = 1e-6;

/// SAXPY (`y = a*x + y`) on a Vulkan compute device, checked element by element on the CPU.
///
/// Exit status: 0 verified, 1 mismatch, 2 Vulkan/device error (or bad arguments),
/// 3 validation messages with --validate.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Number of elements (default deliberately not a multiple of the workgroup size 64)
    #[arg(long, default_value_t = 1_000_003, value_parser = clap::value_parser!(u32).range(1..))]
    n: u32,
    /// The scalar `a`
    #[arg(long, default_value_t = 2.5, allow_negative_numbers = true)]
    a: f32,
    /// Seed for the pseudo-random inputs
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    common: CommonArgs,
}

fn main() -> ExitCode {
    let args = Args::parse();
    run_example("saxpy", &args.common, |ctx| run(ctx, &args))
}

fn run(ctx: &Context, args: &Args) -> Result<Outcome> {
    let n = args.n;
    let a = args.a;
    let groups = n.div_ceil(LOCAL_SIZE);
    ctx.check_workgroup_size([LOCAL_SIZE, 1, 1])?;
    ctx.check_workgroup_count([groups, 1, 1])?;
    ctx.check_storage_buffer_size(u64::from(n) * 4)?;
    println!("saxpy: n = {n}, a = {a}, workgroups = {groups} x {LOCAL_SIZE} invocations");

    let mut rng = Lcg::new(args.seed);
    let x: Vec<f32> = (0..n).map(|_| rng.next_f32_signed()).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.next_f32_signed()).collect();

    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let x_buf = ctx.create_buffer_with_data("saxpy x", usage, MemoryLocation::CpuToGpu, &x)?;
    let y_buf = ctx.create_buffer_with_data("saxpy y", usage, MemoryLocation::GpuToCpu, &y)?;

    let spirv = spirv_words(SAXPY_SPV)?;
    // Push constants: layout(push_constant) uniform Params { float a; uint n; } -> 8 bytes.
    let mut push = [0u8; 8];
    push[..4].copy_from_slice(&a.to_ne_bytes());
    push[4..].copy_from_slice(&n.to_ne_bytes());
    let kernel = ctx.create_compute_kernel(&spirv, c"main", &[&x_buf, &y_buf], 8)?;

    let elapsed = ctx.submit_and_wait(|cmd| {
        kernel.record_dispatch(cmd, &push, [groups, 1, 1])?;
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    println!("saxpy: dispatch time (submit -> fence): {:.3} ms", elapsed.as_secs_f64() * 1e3);

    let out: Vec<f32> = y_buf.read(n as usize)?;
    if verify(a, &x, &y, &out) {
        println!("saxpy: verified {n} elements on {}", ctx.device_name());
        Ok(Outcome::Verified)
    } else {
        Ok(Outcome::Mismatch)
    }
}

/// Compares every element with the CPU reference `a.mul_add(x, y)`.
///
/// The shader computes `pc.a * x[i] + y[i]`, which a GPU compiler may or may not contract into
/// a fused multiply-add. The fused and unfused results differ by at most the rounding error of
/// the product (<= 0.5 ulp of `a*x`) plus one final rounding (<= 1 ulp of the result), so we
/// accept `|gpu - cpu| <= 1e-6 * (|a*x| + |y|)` (about 8 ulp of the larger term; scaling by the
/// terms rather than the result keeps cancellation cases like `a*x ~= -y` from failing).
/// NaN never compares as within tolerance.
fn verify(a: f32, x: &[f32], y: &[f32], gpu: &[f32]) -> bool {
    let mut mismatches = 0usize;
    let mut exact_fused = 0usize;
    let mut exact_unfused = 0usize;
    for (i, ((&xi, &yi), &got)) in x.iter().zip(y).zip(gpu).enumerate() {
        let fused = a.mul_add(xi, yi);
        let unfused = a * xi + yi;
        exact_fused += usize::from(got.to_bits() == fused.to_bits());
        exact_unfused += usize::from(got.to_bits() == unfused.to_bits());
        let tolerance = REL_TOLERANCE * ((a * xi).abs() + yi.abs());
        let within = (got - fused).abs() <= tolerance;
        if !within {
            if mismatches < MAX_REPORTED {
                eprintln!(
                    "saxpy: mismatch at [{i}]: gpu {got:e} ({:#010x}), expected {fused:e} \
                     ({:#010x}), x = {xi:e}, y = {yi:e}",
                    got.to_bits(),
                    fused.to_bits()
                );
            }
            mismatches += 1;
        }
    }
    println!(
        "saxpy: bit-exact vs fused mul_add: {exact_fused}, vs separate mul+add: {exact_unfused} \
         (of {})",
        gpu.len()
    );
    if mismatches > 0 {
        eprintln!("saxpy: FAILED: {mismatches} of {} elements outside tolerance", gpu.len());
    }
    mismatches == 0
}
