//! The side-by-side benchmark: the same SPIR-V workloads on softnavi and on lavapipe (or
//! any other devices named with `--devices`) in one process, each result checked against a
//! CPU reference, timed from `vkQueueSubmit` to the fence (pipelines and buffers are built
//! before timing), best of `--runs`. Prints each time, the ratio to the last device and
//! the geometric mean of the ratios.
//!
//! ```sh
//! VK_ICD_FILENAMES=$PWD/target/release/softnavi_icd.json:/usr/share/vulkan/icd.d/lvp_icd.x86_64.json \
//!     target/release/bench
//! ```
//! (`scripts/bench` does exactly that.)

use std::process::ExitCode;
use std::time::Duration;

use ash::vk;
use clap::Parser;
use softnavi_examples::{spirv_words, Buffer, Context, ContextOptions, Error, Lcg, MemoryLocation, Result};

const SGEMM_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_sgemm.spv"));
const SAXPY_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_saxpy.spv"));
const NBODY_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_nbody.spv"));
const HISTOGRAM_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_histogram.spv"));
const COLLATZ_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_collatz.spv"));
const REDUCE_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_reduce.spv"));
const TRANSPOSE_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_transpose.spv"));
const IMAGE_COPY_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_image_copy.spv"));
const BUFFER_COPY_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_buffer_copy.spv"));
const BILINEAR_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bench_bilinear.spv"));

/// Runs the benchmark workloads on several Vulkan devices in one process.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Devices to compare, by case-insensitive substring of the device name; ratios are
    /// to the last one
    #[arg(long, value_delimiter = ',', default_value = "softnavi,llvmpipe")]
    devices: Vec<String>,
    /// Timed runs per workload and device (after one untimed, verified run); the best counts
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u32).range(1..))]
    runs: u32,
    /// Only the workloads whose name contains one of these
    #[arg(long, value_delimiter = ',')]
    only: Vec<String>,
    /// Divide every problem size by this (a quick run; figures are not comparable)
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=64))]
    shrink: u32,
}

/// One workload: a name, its class, and how to run it on a device.
struct Workload {
    name: &'static str,
    class: &'static str,
    run: fn(&Context, &Plan) -> Result<Sample>,
}

const WORKLOADS: &[Workload] = &[
    Workload { name: "sgemm", class: "tiled sgemm 512x512, 16x16 LDS tiles, 2 barriers per step", run: sgemm },
    Workload { name: "saxpy", class: "streaming saxpy, 16 M floats", run: saxpy },
    Workload { name: "nbody", class: "n-body 4096 (ALU, rsq, uniform vec4 loads)", run: nbody },
    Workload { name: "histogram", class: "256-bin histogram of 16 M u32 (LDS atomics)", run: histogram },
    Workload { name: "collatz", class: "collatz steps of 1 M u32 (divergent loop)", run: collatz },
    Workload { name: "reduce", class: "sum of 16 M u32 (strided loop, LDS tree)", run: reduce },
    Workload { name: "transpose", class: "transpose 2048x2048 u32 via LDS tile", run: transpose },
    Workload { name: "image_copy", class: "2048x2048 rgba8 storage image copy, imageLoad/imageStore", run: image_copy },
    Workload { name: "buffer_copy", class: "the same 16 MiB as a u32 SSBO copy, 8x8 groups", run: buffer_copy },
    Workload { name: "bilinear", class: "1024² rgba8 sampled LINEAR to a 2048² storage image", run: bilinear },
];

/// How a workload runs: its size divisor and the number of timed runs.
struct Plan {
    shrink: u32,
    runs: u32,
}

/// What one workload gave on one device.
struct Sample {
    best: Duration,
    verified: bool,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let plan = Plan { shrink: args.shrink, runs: args.runs };
    let workloads: Vec<&Workload> = WORKLOADS
        .iter()
        .filter(|w| args.only.is_empty() || args.only.iter().any(|o| w.name.contains(o.as_str())))
        .collect();
    let mut contexts = Vec::new();
    for filter in &args.devices {
        let options = ContextOptions {
            compute_only_queue: false,
            app_name: "bench",
            device_filter: Some(filter),
            validate: false,
            shader_features: false,
        };
        match Context::new(&options) {
            Ok(ctx) => {
                println!("device {}: {}", contexts.len(), ctx.device_name());
                contexts.push(ctx);
            }
            Err(e) => {
                eprintln!("bench: no device matching `{filter}`: {e}");
                return ExitCode::from(2);
            }
        }
    }
    let mut table: Vec<Vec<Option<Sample>>> = Vec::new();
    let mut failed = false;
    for w in &workloads {
        let mut row = Vec::new();
        for ctx in &contexts {
            match (w.run)(ctx, &plan) {
                Ok(s) => {
                    failed |= !s.verified;
                    if !s.verified {
                        eprintln!("bench: {} on {}: WRONG RESULT", w.name, ctx.device_name());
                    }
                    row.push(Some(s));
                }
                Err(e) => {
                    eprintln!("bench: {} on {}: {e}", w.name, ctx.device_name());
                    failed = true;
                    row.push(None);
                }
            }
        }
        table.push(row);
    }
    print_table(&workloads, &contexts, &table);
    drop(contexts);
    ExitCode::from(if failed { 1 } else { 0 })
}

fn print_table(workloads: &[&Workload], contexts: &[Context], table: &[Vec<Option<Sample>>]) {
    let last = contexts.len() - 1;
    let mut header = String::from("| workload |");
    for i in 0..contexts.len() {
        header += &format!(" device {i} (ms) |");
    }
    for i in 0..last {
        header += &format!(" ratio {i}/{last} |");
    }
    println!("\n{header}");
    println!("|{}", " --- |".repeat(1 + contexts.len() + last));
    let mut logs = vec![Vec::new(); last];
    for (w, row) in workloads.iter().zip(table) {
        let mut line = format!("| {} ({}) |", w.name, w.class);
        for s in row {
            line += &match s {
                Some(s) => format!(" {:.2}{} |", s.best.as_secs_f64() * 1e3, if s.verified { "" } else { " WRONG" }),
                None => " error |".into(),
            };
        }
        for (i, log) in logs.iter_mut().enumerate() {
            line += &match (&row[i], &row[last]) {
                (Some(a), Some(b)) => {
                    let r = a.best.as_secs_f64() / b.best.as_secs_f64();
                    log.push(r.ln());
                    format!(" {r:.2}x |")
                }
                _ => " - |".into(),
            };
        }
        println!("{line}");
    }
    for (i, log) in logs.iter().enumerate() {
        if !log.is_empty() {
            let geomean = (log.iter().sum::<f64>() / log.len() as f64).exp();
            println!("geometric mean of device {i} / device {last}: {geomean:.2}x over {} workloads", log.len());
        }
    }
    for (i, ctx) in contexts.iter().enumerate() {
        println!("device {i}: {}", ctx.device_name());
    }
}

/// Runs `record`'s commands once (untimed), lets `check` verify the result, then `runs`
/// more times, and returns the best time.
fn measure(
    ctx: &Context,
    plan: &Plan,
    record: impl Fn(vk::CommandBuffer) -> Result<()>,
    check: impl FnOnce() -> Result<bool>,
) -> Result<Sample> {
    ctx.submit_and_wait(&record)?;
    let verified = check()?;
    let mut best = Duration::MAX;
    for _ in 0..plan.runs {
        best = best.min(ctx.submit_and_wait(&record)?);
    }
    Ok(Sample { best, verified })
}

/// Records a zero fill of `buffer` and a barrier that makes it visible to compute shaders
/// (the accumulating workloads start from zero in every run).
fn zero(ctx: &Context, cmd: vk::CommandBuffer, buffer: &Buffer<'_>) {
    let barrier = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
        .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
    // SAFETY: `cmd` is recording (inside `submit_and_wait`) and `buffer` is live.
    unsafe {
        ctx.device().cmd_fill_buffer(cmd, buffer.handle(), 0, vk::WHOLE_SIZE, 0);
        ctx.device().cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::TRANSFER,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
    }
}

fn storage() -> vk::BufferUsageFlags {
    vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST
}

fn push(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_ne_bytes()).collect()
}

/// Workgroups of `size` invocations for `n` elements as rows of at most 1024 groups (the
/// shader bounds-checks the index).
fn grid(n: u32, size: u32) -> [u32; 3] {
    let groups = n.div_ceil(size);
    [groups.min(1024), groups.div_ceil(1024), 1]
}

/// Relative closeness for float results computed in a different order.
fn close(got: f32, want: f32, tol: f32) -> bool {
    (got - want).abs() <= tol * want.abs().max(1.0)
}

fn sgemm(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (512 / plan.shrink).max(16) / 16 * 16;
    let mut rng = Lcg::new(1);
    let a: Vec<f32> = (0..n * n).map(|_| rng.next_f32_signed()).collect();
    let b: Vec<f32> = (0..n * n).map(|_| rng.next_f32_signed()).collect();
    let ab = ctx.create_buffer_with_data("a", storage(), MemoryLocation::CpuToGpu, &a)?;
    let bb = ctx.create_buffer_with_data("b", storage(), MemoryLocation::CpuToGpu, &b)?;
    let cb = ctx.create_buffer("c", u64::from(n * n) * 4, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(SGEMM_SPV)?, c"main", &[&ab, &bb, &cb], 4)?;
    let pc = push(&[n]);
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, [n / 16, n / 16, 1])?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let c: Vec<f32> = cb.read((n * n) as usize)?;
            let n = n as usize;
            Ok((0..n * n).step_by(7).all(|i| {
                let (r, col) = (i / n, i % n);
                let want: f32 = (0..n).map(|k| a[r * n + k] * b[k * n + col]).sum();
                close(c[i], want, 1e-4)
            }))
        },
    )
}

fn saxpy(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (16 << 20) / plan.shrink;
    let mut rng = Lcg::new(2);
    let x: Vec<f32> = (0..n).map(|_| rng.next_f32_signed()).collect();
    let y: Vec<f32> = (0..n).map(|_| rng.next_f32_signed()).collect();
    let xb = ctx.create_buffer_with_data("x", storage(), MemoryLocation::CpuToGpu, &x)?;
    let yb = ctx.create_buffer_with_data("y", storage(), MemoryLocation::GpuToCpu, &y)?;
    let k = ctx.create_compute_kernel(&spirv_words(SAXPY_SPV)?, c"main", &[&xb, &yb], 8)?;
    let a = 1.5f32;
    let pc = push(&[a.to_bits(), n]);
    // The timed runs after the checked one go on updating y.
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, grid(n, 64))?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let out: Vec<f32> = yb.read(n as usize)?;
            Ok(out.iter().zip(x.iter().zip(&y)).all(|(&o, (&x, &y))| o == a.mul_add(x, y) || o == a * x + y))
        },
    )
}

fn nbody(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (4096 / plan.shrink).max(64);
    let mut rng = Lcg::new(3);
    let pos: Vec<f32> = (0..n * 4)
        .map(|i| if i % 4 == 3 { rng.next_f32_signed().abs() + 0.1 } else { rng.next_f32_signed() * 10.0 })
        .collect();
    let pb = ctx.create_buffer_with_data("pos", storage(), MemoryLocation::CpuToGpu, &pos)?;
    let ab = ctx.create_buffer("acc", u64::from(n) * 16, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(NBODY_SPV)?, c"main", &[&pb, &ab], 8)?;
    let eps2 = 0.01f32;
    let pc = push(&[n, eps2.to_bits()]);
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, [n.div_ceil(64), 1, 1])?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let acc: Vec<f32> = ab.read((n * 4) as usize)?;
            let n = n as usize;
            Ok((0..n).step_by(13).all(|i| {
                let mut want = [0f64; 3];
                for j in 0..n {
                    let d: Vec<f64> = (0..3).map(|c| f64::from(pos[j * 4 + c]) - f64::from(pos[i * 4 + c])).collect();
                    let r2 = d.iter().map(|v| v * v).sum::<f64>() + f64::from(eps2);
                    let s = f64::from(pos[j * 4 + 3]) / (r2 * r2.sqrt());
                    (0..3).for_each(|c| want[c] += d[c] * s);
                }
                let scale = want.iter().fold(1.0f64, |m, v| m.max(v.abs()));
                (0..3).all(|c| (f64::from(acc[i * 4 + c]) - want[c]).abs() <= 1e-3 * scale)
            }))
        },
    )
}

fn histogram(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (16 << 20) / plan.shrink;
    let mut rng = Lcg::new(4);
    let data: Vec<u32> = (0..n).map(|_| rng.next_u32()).collect();
    let db = ctx.create_buffer_with_data("data", storage(), MemoryLocation::CpuToGpu, &data)?;
    let bb = ctx.create_buffer("bins", 256 * 4, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(HISTOGRAM_SPV)?, c"main", &[&db, &bb], 4)?;
    let pc = push(&[n]);
    measure(
        ctx,
        plan,
        |cmd| {
            zero(ctx, cmd, &bb);
            k.record_dispatch(cmd, &pc, grid(n, 256))?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let bins: Vec<u32> = bb.read(256)?;
            let mut want = [0u32; 256];
            data.iter().for_each(|&v| want[(v & 255) as usize] += 1);
            Ok(bins == want)
        },
    )
}

fn collatz_steps(mut v: u32, cap: u32) -> u32 {
    let mut s = 0;
    while v > 1 && s < cap {
        v = if v & 1 != 0 { v.wrapping_mul(3).wrapping_add(1) } else { v >> 1 };
        s += 1;
    }
    s
}

fn collatz(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (1 << 20) / plan.shrink;
    let cap = 1000;
    let start: Vec<u32> = (1..=n).collect();
    let ib = ctx.create_buffer_with_data("start", storage(), MemoryLocation::CpuToGpu, &start)?;
    let ob = ctx.create_buffer("steps", u64::from(n) * 4, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(COLLATZ_SPV)?, c"main", &[&ib, &ob], 8)?;
    let pc = push(&[n, cap]);
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, [n.div_ceil(64), 1, 1])?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let steps: Vec<u32> = ob.read(n as usize)?;
            Ok(steps.iter().zip(&start).all(|(&s, &v)| s == collatz_steps(v, cap)))
        },
    )
}

fn reduce(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (16 << 20) / plan.shrink;
    let mut rng = Lcg::new(5);
    let data: Vec<u32> = (0..n).map(|_| rng.next_u32() >> 8).collect();
    let db = ctx.create_buffer_with_data("data", storage(), MemoryLocation::CpuToGpu, &data)?;
    let tb = ctx.create_buffer("total", 4, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(REDUCE_SPV)?, c"main", &[&db, &tb], 4)?;
    let pc = push(&[n]);
    // 1024 workgroups of 256: each invocation sums n / 262144 values.
    let groups = 1024u32.min(n.div_ceil(256));
    measure(
        ctx,
        plan,
        |cmd| {
            zero(ctx, cmd, &tb);
            k.record_dispatch(cmd, &pc, [groups, 1, 1])?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let total: Vec<u32> = tb.read(1)?;
            Ok(total[0] == data.iter().fold(0u32, |a, &v| a.wrapping_add(v)))
        },
    )
}

fn transpose(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = (2048 / plan.shrink).max(16) / 16 * 16;
    let src: Vec<u32> = (0..n * n).collect();
    let sb = ctx.create_buffer_with_data("src", storage(), MemoryLocation::CpuToGpu, &src)?;
    let db = ctx.create_buffer("dst", u64::from(n * n) * 4, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(TRANSPOSE_SPV)?, c"main", &[&sb, &db], 4)?;
    let pc = push(&[n]);
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, [n / 16, n / 16, 1])?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let dst: Vec<u32> = db.read((n * n) as usize)?;
            let n = n as usize;
            Ok((0..n * n).all(|i| dst[i] == src[(i % n) * n + i / n]))
        },
    )
}

fn buffer_copy(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = image_side(2048, plan);
    let mut rng = Lcg::new(6);
    let data: Vec<u32> = (0..n * n).map(|_| rng.next_u32()).collect();
    let sb = ctx.create_buffer_with_data("src", storage(), MemoryLocation::CpuToGpu, &data)?;
    let db = ctx.create_buffer("dst", u64::from(n * n) * 4, storage(), MemoryLocation::GpuToCpu)?;
    let k = ctx.create_compute_kernel(&spirv_words(BUFFER_COPY_SPV)?, c"main", &[&sb, &db], 4)?;
    let pc = push(&[n]);
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, [n / 8, n / 8, 1])?;
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || Ok(db.read::<u32>((n * n) as usize)? == data),
    )
}

fn image_copy(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let n = image_side(2048, plan);
    let mut rng = Lcg::new(6);
    let data: Vec<u32> = (0..n * n).map(|_| rng.next_u32()).collect();
    let src = Image::new(ctx, n, vk::ImageUsageFlags::STORAGE)?;
    let dst = Image::new(ctx, n, vk::ImageUsageFlags::STORAGE)?;
    src.init(Some(&data), vk::ImageLayout::GENERAL)?;
    dst.init(None, vk::ImageLayout::GENERAL)?;
    let k = ImageKernel::new(ctx, IMAGE_COPY_SPV, &[Binding::Storage(&src), Binding::Storage(&dst)], 0)?;
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &[], [n / 8, n / 8, 1]);
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || Ok(dst.read()? == data),
    )
}

fn bilinear(ctx: &Context, plan: &Plan) -> Result<Sample> {
    let (m, n) = (image_side(1024, plan), image_side(2048, plan));
    let mut rng = Lcg::new(7);
    let data: Vec<u32> = (0..m * m).map(|_| rng.next_u32()).collect();
    let src = Image::new(ctx, m, vk::ImageUsageFlags::SAMPLED)?;
    let dst = Image::new(ctx, n, vk::ImageUsageFlags::STORAGE)?;
    src.init(Some(&data), vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)?;
    dst.init(None, vk::ImageLayout::GENERAL)?;
    let k = ImageKernel::new(ctx, BILINEAR_SPV, &[Binding::Sampled(&src), Binding::Storage(&dst)], 4)?;
    let pc = push(&[(1.0 / n as f32).to_bits()]);
    measure(
        ctx,
        plan,
        |cmd| {
            k.record_dispatch(cmd, &pc, [n / 8, n / 8, 1]);
            ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        },
        || {
            let got = dst.read()?;
            // Vulkan's LINEAR filter at texel centres of the n x n output: the four
            // neighbours of (x + 0.5) * m / n - 0.5, clamped to the edge, each channel
            // within 2/255 of the exact weights' result.
            let channel = |t: u32, c: usize| f64::from(t.to_le_bytes()[c]);
            let taps = |x: u32| {
                let u = (f64::from(x) + 0.5) * f64::from(m) / f64::from(n) - 0.5;
                let i = u.floor();
                let clamp = |i: f64| i.clamp(0.0, f64::from(m - 1)) as usize;
                (clamp(i), clamp(i + 1.0), u - i)
            };
            let m = m as usize;
            Ok((0..n).all(|y| {
                let (y0, y1, b) = taps(y);
                (0..n).all(|x| {
                    let (x0, x1, a) = taps(x);
                    let g = got[(y * n + x) as usize];
                    (0..4).all(|c| {
                        let t = |yy: usize, xx: usize| channel(data[yy * m + xx], c);
                        let want = (1.0 - b) * ((1.0 - a) * t(y0, x0) + a * t(y0, x1))
                            + b * ((1.0 - a) * t(y1, x0) + a * t(y1, x1));
                        (channel(g, c) - want).abs() <= 2.0
                    })
                })
            }))
        },
    )
}

/// The side of a square image workload of `full` texels a side, shrunk, a multiple of 8.
fn image_side(full: u32, plan: &Plan) -> u32 {
    (full / plan.shrink).max(8) / 8 * 8
}

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// A square R8G8B8A8_UNORM image (OPTIMAL tiling) with its own memory (the first type
/// that fits) and a 2D view.
struct Image<'c> {
    ctx: &'c Context,
    n: u32,
    image: vk::Image,
    memory: vk::DeviceMemory,
    view: vk::ImageView,
}

impl Drop for Image<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: no submitted work uses the image anymore (every submission is waited
        // for); null handles are ignored.
        unsafe {
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.memory, None);
        }
    }
}

impl<'c> Image<'c> {
    const FORMAT: vk::Format = vk::Format::R8G8B8A8_UNORM;

    fn new(ctx: &'c Context, n: u32, usage: vk::ImageUsageFlags) -> Result<Self> {
        let d = ctx.device();
        let mut img =
            Image { ctx, n, image: vk::Image::null(), memory: vk::DeviceMemory::null(), view: vk::ImageView::null() };
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(Self::FORMAT)
            .extent(vk::Extent3D { width: n, height: n, depth: 1 })
            .mip_levels(1)
            .array_layers(1)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage | vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
        // SAFETY: valid device and create infos; `Image::drop` destroys what was created.
        unsafe {
            img.image = d.create_image(&info, None).map_err(vkerr("vkCreateImage"))?;
            let req = d.get_image_memory_requirements(img.image);
            let props = ctx.instance().get_physical_device_memory_properties(ctx.physical_device());
            let ty = (0..props.memory_type_count)
                .find(|&i| req.memory_type_bits >> i & 1 != 0)
                .ok_or_else(|| Error::Unsupported("no memory type for the image".into()))?;
            let alloc = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
            img.memory = d.allocate_memory(&alloc, None).map_err(vkerr("vkAllocateMemory"))?;
            d.bind_image_memory(img.image, img.memory, 0).map_err(vkerr("vkBindImageMemory"))?;
            let view = vk::ImageViewCreateInfo::default()
                .image(img.image)
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(Self::FORMAT)
                .subresource_range(Self::all());
            img.view = d.create_image_view(&view, None).map_err(vkerr("vkCreateImageView"))?;
        }
        Ok(img)
    }

    fn all() -> vk::ImageSubresourceRange {
        vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: 0,
            level_count: 1,
            base_array_layer: 0,
            layer_count: 1,
        }
    }

    fn region(&self) -> [vk::BufferImageCopy; 1] {
        [vk::BufferImageCopy::default()
            .image_subresource(vk::ImageSubresourceLayers {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                mip_level: 0,
                base_array_layer: 0,
                layer_count: 1,
            })
            .image_extent(vk::Extent3D { width: self.n, height: self.n, depth: 1 })]
    }

    /// Records a layout transition (or, with `old == new`, a plain dependency).
    fn barrier(
        &self,
        cmd: vk::CommandBuffer,
        (old, new): (vk::ImageLayout, vk::ImageLayout),
        (src, dst): (vk::AccessFlags, vk::AccessFlags),
        (src_stage, dst_stage): (vk::PipelineStageFlags, vk::PipelineStageFlags),
    ) {
        let b = [vk::ImageMemoryBarrier::default()
            .image(self.image)
            .old_layout(old)
            .new_layout(new)
            .src_access_mask(src)
            .dst_access_mask(dst)
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(Self::all())];
        // SAFETY: `cmd` is recording and the image is live.
        unsafe {
            self.ctx.device().cmd_pipeline_barrier(
                cmd,
                src_stage,
                dst_stage,
                vk::DependencyFlags::empty(),
                &[],
                &[],
                &b,
            )
        };
    }

    /// Uploads `data` (n x n texels, if any) and leaves the image in `layout` for compute
    /// shaders.
    fn init(&self, data: Option<&[u32]>, layout: vk::ImageLayout) -> Result<()> {
        use vk::{AccessFlags as A, ImageLayout as L, PipelineStageFlags as S};
        let usage = vk::BufferUsageFlags::TRANSFER_SRC;
        let staging = data.map(|d| self.ctx.create_buffer_with_data("staging", usage, MemoryLocation::CpuToGpu, d));
        let staging = staging.transpose()?;
        let shader = A::SHADER_READ | A::SHADER_WRITE;
        self.ctx.submit_and_wait(|cmd| {
            if let Some(b) = &staging {
                self.barrier(
                    cmd,
                    (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL),
                    (A::NONE, A::TRANSFER_WRITE),
                    (S::TOP_OF_PIPE, S::TRANSFER),
                );
                // SAFETY: recording; the buffer and image live until the submission completes.
                unsafe {
                    self.ctx.device().cmd_copy_buffer_to_image(
                        cmd,
                        b.handle(),
                        self.image,
                        L::TRANSFER_DST_OPTIMAL,
                        &self.region(),
                    )
                };
                self.barrier(
                    cmd,
                    (L::TRANSFER_DST_OPTIMAL, layout),
                    (A::TRANSFER_WRITE, shader),
                    (S::TRANSFER, S::COMPUTE_SHADER),
                );
            } else {
                self.barrier(cmd, (L::UNDEFINED, layout), (A::NONE, shader), (S::TOP_OF_PIPE, S::COMPUTE_SHADER));
            }
            Ok(())
        })?;
        Ok(())
    }

    /// Reads back the texels compute shaders wrote (the image is in GENERAL layout).
    fn read(&self) -> Result<Vec<u32>> {
        use vk::{AccessFlags as A, ImageLayout as L, PipelineStageFlags as S};
        let count = (self.n * self.n) as usize;
        let usage = vk::BufferUsageFlags::TRANSFER_DST;
        let buffer = self.ctx.create_buffer("readback", count as u64 * 4, usage, MemoryLocation::GpuToCpu)?;
        self.ctx.submit_and_wait(|cmd| {
            self.barrier(
                cmd,
                (L::GENERAL, L::GENERAL),
                (A::SHADER_WRITE, A::TRANSFER_READ),
                (S::COMPUTE_SHADER, S::TRANSFER),
            );
            let to_host =
                [vk::MemoryBarrier::default().src_access_mask(A::TRANSFER_WRITE).dst_access_mask(A::HOST_READ)];
            // SAFETY: recording; the buffer and image live until the submission completes.
            unsafe {
                let d = self.ctx.device();
                d.cmd_copy_image_to_buffer(cmd, self.image, L::GENERAL, buffer.handle(), &self.region());
                d.cmd_pipeline_barrier(cmd, S::TRANSFER, S::HOST, vk::DependencyFlags::empty(), &to_host, &[], &[]);
            }
            Ok(())
        })?;
        buffer.read(count)
    }
}

/// A descriptor of an image workload's set 0: a storage image (GENERAL layout) or a
/// combined image sampler (SHADER_READ_ONLY_OPTIMAL; the kernel's LINEAR, CLAMP_TO_EDGE
/// sampler).
enum Binding<'a, 'c> {
    Storage(&'a Image<'c>),
    Sampled(&'a Image<'c>),
}

/// A compute pipeline whose set 0 holds `Binding`s (binding i = the i-th), with its
/// sampler, layouts and descriptor pool.
struct ImageKernel<'c> {
    ctx: &'c Context,
    sampler: vk::Sampler,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
}

impl Drop for ImageKernel<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: no submitted work uses these objects anymore; null handles are ignored.
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
            d.destroy_sampler(self.sampler, None);
        }
    }
}

impl<'c> ImageKernel<'c> {
    fn new(ctx: &'c Context, spirv: &[u8], bindings: &[Binding<'_, 'c>], push_size: u32) -> Result<Self> {
        let d = ctx.device();
        let mut k = ImageKernel {
            ctx,
            sampler: vk::Sampler::null(),
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            pool: vk::DescriptorPool::null(),
            set: vk::DescriptorSet::null(),
        };
        let ty = |b: &Binding<'_, '_>| match b {
            Binding::Storage(_) => vk::DescriptorType::STORAGE_IMAGE,
            Binding::Sampled(_) => vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
        };
        let layout_bindings: Vec<_> = (0..)
            .zip(bindings)
            .map(|(i, b)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i)
                    .descriptor_type(ty(b))
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let pool_sizes: Vec<_> =
            bindings.iter().map(|b| vk::DescriptorPoolSize::default().ty(ty(b)).descriptor_count(1)).collect();
        let push_ranges = [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(push_size)];
        let words = spirv_words(spirv)?;
        // SAFETY: valid device and create infos; `ImageKernel::drop` destroys what was
        // created.
        unsafe {
            let sampler = vk::SamplerCreateInfo::default()
                .mag_filter(vk::Filter::LINEAR)
                .min_filter(vk::Filter::LINEAR)
                .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
                .address_mode_u(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .address_mode_v(vk::SamplerAddressMode::CLAMP_TO_EDGE)
                .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE);
            k.sampler = d.create_sampler(&sampler, None).map_err(vkerr("vkCreateSampler"))?;
            let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings);
            k.set_layout = d.create_descriptor_set_layout(&info, None).map_err(vkerr("vkCreateDescriptorSetLayout"))?;
            let set_layouts = [k.set_layout];
            let mut info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
            if push_size > 0 {
                info = info.push_constant_ranges(&push_ranges);
            }
            k.layout = d.create_pipeline_layout(&info, None).map_err(vkerr("vkCreatePipelineLayout"))?;
            let info = vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&pool_sizes);
            k.pool = d.create_descriptor_pool(&info, None).map_err(vkerr("vkCreateDescriptorPool"))?;
            let info = vk::DescriptorSetAllocateInfo::default().descriptor_pool(k.pool).set_layouts(&set_layouts);
            k.set = d.allocate_descriptor_sets(&info).map_err(vkerr("vkAllocateDescriptorSets"))?[0];
            let infos: Vec<_> = bindings
                .iter()
                .map(|b| match b {
                    Binding::Storage(i) => {
                        [vk::DescriptorImageInfo::default().image_view(i.view).image_layout(vk::ImageLayout::GENERAL)]
                    }
                    Binding::Sampled(i) => [vk::DescriptorImageInfo::default()
                        .sampler(k.sampler)
                        .image_view(i.view)
                        .image_layout(vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL)],
                })
                .collect();
            let writes: Vec<_> = (0..)
                .zip(bindings.iter().zip(&infos))
                .map(|(i, (b, info))| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(k.set)
                        .dst_binding(i)
                        .descriptor_type(ty(b))
                        .image_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
                .map_err(vkerr("vkCreateShaderModule"))?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let info = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(k.layout)];
            let r = d.create_compute_pipelines(vk::PipelineCache::null(), &info, None);
            d.destroy_shader_module(module, None);
            k.pipeline = r.map_err(|(_, result)| Error::Vulkan { call: "vkCreateComputePipelines", result })?[0];
        }
        Ok(k)
    }

    /// Records bind pipeline + set + push constants (if any) + dispatch.
    fn record_dispatch(&self, cmd: vk::CommandBuffer, push_constants: &[u8], groups: [u32; 3]) {
        let d = self.ctx.device();
        // SAFETY: `cmd` is recording; every bound object outlives the submission.
        unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, self.layout, 0, &[self.set], &[]);
            if !push_constants.is_empty() {
                d.cmd_push_constants(cmd, self.layout, vk::ShaderStageFlags::COMPUTE, 0, push_constants);
            }
            d.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
        }
    }
}
