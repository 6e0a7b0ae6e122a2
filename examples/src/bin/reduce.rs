//! Sums N u32 values on a Vulkan compute device (one partial sum per workgroup) and verifies
//! both the partial sums and the total against the CPU.

use std::process::ExitCode;

use ash::vk;
use clap::Parser;
use softnavi_examples::{
    run_example, spirv_words, CommonArgs, Context, Lcg, MemoryLocation, Outcome, Result, REDUCE_SPV,
};

/// Must match `local_size_x` in shaders/reduce.comp.
const LOCAL_SIZE: u32 = 256;
/// Input values are masked to this, so the default problem cannot overflow u32.
const VALUE_MASK: u32 = 0x3ff;
/// Written to `partial[]` before the dispatch to catch workgroups that never write.
const SENTINEL: u32 = 0xdead_beef;
/// How many mismatching partial sums to print.
const MAX_REPORTED: usize = 10;

/// Parallel sum of N u32 values on a Vulkan compute device: each workgroup reduces a
/// grid-strided slice in shared memory, the host adds the per-workgroup partial sums.
///
/// Exit status: 0 verified, 1 mismatch, 2 Vulkan/device error (or bad arguments),
/// 3 validation messages with --validate.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Number of values
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u32).range(1..))]
    n: u32,
    /// Number of workgroups (of 256 invocations each)
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..))]
    groups: u32,
    /// Seed for the pseudo-random inputs
    #[arg(long, default_value_t = 1)]
    seed: u64,
    #[command(flatten)]
    common: CommonArgs,
}

fn main() -> ExitCode {
    let args = Args::parse();
    run_example("reduce", &args.common, |ctx| run(ctx, &args))
}

fn run(ctx: &Context, args: &Args) -> Result<Outcome> {
    let (n, groups) = (args.n, args.groups);
    ctx.check_workgroup_size([LOCAL_SIZE, 1, 1])?;
    ctx.check_workgroup_count([groups, 1, 1])?;
    ctx.check_storage_buffer_size(u64::from(n) * 4)?;
    ctx.check_storage_buffer_size(u64::from(groups) * 4)?;
    let stride = u64::from(groups) * u64::from(LOCAL_SIZE);
    println!("reduce: n = {n}, workgroups = {groups} x {LOCAL_SIZE} invocations, stride = {stride}");

    let mut rng = Lcg::new(args.seed);
    let data: Vec<u32> = (0..n).map(|_| rng.next_u32() & VALUE_MASK).collect();

    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let in_buf = ctx.create_buffer_with_data("reduce data", usage, MemoryLocation::CpuToGpu, &data)?;
    let sentinels = vec![SENTINEL; groups as usize];
    let partial_buf = ctx.create_buffer_with_data("reduce partial", usage, MemoryLocation::GpuToCpu, &sentinels)?;

    let spirv = spirv_words(REDUCE_SPV)?;
    // Push constants: layout(push_constant) uniform Params { uint n; } -> 4 bytes.
    let push = n.to_ne_bytes();
    let kernel = ctx.create_compute_kernel(&spirv, c"main", &[&in_buf, &partial_buf], 4)?;

    let elapsed = ctx.submit_and_wait(|cmd| {
        kernel.record_dispatch(cmd, &push, [groups, 1, 1])?;
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    println!("reduce: dispatch time (submit -> fence): {:.3} ms", elapsed.as_secs_f64() * 1e3);

    let partial: Vec<u32> = partial_buf.read(groups as usize)?;
    let expected_partial = simulate_partials(&data, groups);
    let mut mismatches = 0usize;
    for (g, (&got, &want)) in partial.iter().zip(&expected_partial).enumerate() {
        if got != want {
            if mismatches < MAX_REPORTED {
                let note = if got == SENTINEL { " (never written)" } else { "" };
                eprintln!("reduce: mismatch in partial[{g}]: gpu {got}{note}, expected {want}");
            }
            mismatches += 1;
        }
    }

    // Wrapping arithmetic, like the GPU's u32 adds (the default inputs cannot overflow).
    let gpu_sum = partial.iter().fold(0u32, |acc, &v| acc.wrapping_add(v));
    let cpu_sum = data.iter().fold(0u32, |acc, &v| acc.wrapping_add(v));
    if gpu_sum != cpu_sum {
        eprintln!("reduce: mismatch in total: gpu {gpu_sum}, expected {cpu_sum}");
    }
    if mismatches > 0 || gpu_sum != cpu_sum {
        eprintln!("reduce: FAILED: {mismatches} of {groups} partial sums wrong");
        return Ok(Outcome::Mismatch);
    }
    println!("reduce: verified sum {cpu_sum} of {n} values on {}", ctx.device_name());
    Ok(Outcome::Verified)
}

/// What each workgroup of shaders/reduce.comp should produce: invocation (g, l) sums elements
/// `i = g*256 + l + k*stride` for k = 0, 1, ... while `i < n`, with `stride = groups*256`.
fn simulate_partials(data: &[u32], groups: u32) -> Vec<u32> {
    let local = u64::from(LOCAL_SIZE);
    let stride = u64::from(groups) * local;
    let n = data.len() as u64;
    (0..u64::from(groups))
        .map(|g| {
            let mut acc = 0u32;
            for l in 0..local {
                let mut i = g * local + l;
                while i < n {
                    acc = acc.wrapping_add(data[i as usize]);
                    i += stride;
                }
            }
            acc
        })
        .collect()
}
