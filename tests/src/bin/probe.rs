//! `softnavi-probe SCENARIO`: small Vulkan programs that exercise one behaviour of a driver
//! through the real loader, run as subprocesses by the integration tests (so each gets its
//! own `VK_ICD_FILENAMES` and a crash could not take the test runner down).
//!
//! Scenarios print one `RESULT: ...` line the tests check, and exit 0 unless the scenario
//! itself could not be carried out.

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{spirv_words, Context, ContextOptions, Error, MemoryLocation};

const ATOMIC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/atomic.spv"));
const SPIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/spin.spv"));
const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/copy.spv"));

fn context() -> Result<Context, Error> {
    Context::new(&ContextOptions { app_name: "softnavi-probe", device_filter: None, validate: false })
}

/// Runs `copy.comp` over `n` elements and checks `dst[i] == src[i] + 1`.
fn copy_dispatch(ctx: &Context, n: u32) -> Result<bool, Error> {
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let src_data: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2654435761)).collect();
    let mut src = ctx.create_buffer("src", 4 * n as u64, usage, MemoryLocation::CpuToGpu)?;
    src.write(&src_data)?;
    let dst = ctx.create_buffer("dst", 4 * n as u64, usage, MemoryLocation::GpuToCpu)?;
    let kernel = ctx.create_compute_kernel(&spirv_words(COPY)?, c"main", &[&src, &dst], 0)?;
    ctx.submit_and_wait(|cmd| {
        kernel.record_dispatch(cmd, &[], [n.div_ceil(64), 1, 1])?;
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    let out: Vec<u32> = dst.read(n as usize)?;
    Ok(out.iter().zip(&src_data).all(|(d, s)| *d == s.wrapping_add(1)))
}

/// Pipeline creation with an instruction the lowering does not support must fail with an
/// error code (the ICD logs which instruction), not crash.
fn unsupported_spirv() -> Result<String, Error> {
    let ctx = context()?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let counter = ctx.create_buffer("counter", 4, usage, MemoryLocation::CpuToGpu)?;
    let r = match ctx.create_compute_kernel(&spirv_words(ATOMIC)?, c"main", &[&counter], 0) {
        Ok(_) => Ok("pipeline created".into()),
        Err(Error::Vulkan { call, result }) => Ok(format!("{call} returned {result:?}")),
        Err(e) => Err(e),
    };
    r
}

/// A shader module made of garbage words must be rejected, not crash.
fn garbage_module() -> Result<String, Error> {
    let ctx = context()?;
    let words: Vec<u32> = (0..64u32).map(|i| i.wrapping_mul(0x9e37_79b9) ^ 0x0723_0203).collect();
    let info = vk::ShaderModuleCreateInfo::default().code(&words);
    // SAFETY: valid device and create info.
    match unsafe { ctx.device().create_shader_module(&info, None) } {
        Ok(m) => {
            // SAFETY: the module was just created.
            unsafe { ctx.device().destroy_shader_module(m, None) };
            Ok("module created".into())
        }
        Err(e) => Ok(format!("vkCreateShaderModule returned {e:?}")),
    }
}

/// A dispatch whose descriptor points at a buffer with no memory faults on the GPU: the
/// device is lost, the process survives, and a new device works.
fn fault_then_recover() -> Result<String, Error> {
    let first = {
        let ctx = context()?;
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let src = ctx.create_buffer("src", 4096, usage, MemoryLocation::CpuToGpu)?;
        let dst = ctx.create_buffer("dst", 4096, usage, MemoryLocation::GpuToCpu)?;
        let kernel = ctx.create_compute_kernel(&spirv_words(COPY)?, c"main", &[&src, &dst], 0)?;
        // Point binding 1 at a buffer that was never bound to memory (invalid usage, and
        // exactly what a buggy application does).
        let info = vk::BufferCreateInfo::default().size(4096).usage(usage);
        // SAFETY: valid device and create info.
        let unbound = unsafe { ctx.device().create_buffer(&info, None) }
            .map_err(|result| Error::Vulkan { call: "vkCreateBuffer", result })?;
        let bi = [vk::DescriptorBufferInfo::default().buffer(unbound).range(vk::WHOLE_SIZE)];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(kernel.descriptor_set())
            .dst_binding(1)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&bi);
        // SAFETY: the set is not in use.
        unsafe { ctx.device().update_descriptor_sets(&[write], &[]) };
        let r = ctx.submit_and_wait(|cmd| kernel.record_dispatch(cmd, &[], [16, 1, 1]));
        // SAFETY: the device is idle (lost); the buffer is no longer referenced.
        unsafe { ctx.device().destroy_buffer(unbound, None) };
        match r {
            Err(Error::Vulkan { call, result }) => format!("{call} returned {result:?}"),
            Ok(_) => "the faulting dispatch completed".into(),
            Err(e) => return Err(e),
        }
    };
    let ctx = context()?;
    let ok = copy_dispatch(&ctx, 10_000)?;
    Ok(format!("{first}; new device: {}", if ok { "verified" } else { "WRONG RESULTS" }))
}

/// A shader that never ends is a GPU hang after SOFTNAVI_HANG_TIMEOUT_MS: device lost, and
/// a new device works.
fn hang_then_recover() -> Result<String, Error> {
    let first = {
        let ctx = context()?;
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
        let data = ctx.create_buffer("data", 4096, usage, MemoryLocation::CpuToGpu)?;
        let kernel = ctx.create_compute_kernel(&spirv_words(SPIN)?, c"main", &[&data], 0)?;
        match ctx.submit_and_wait(|cmd| kernel.record_dispatch(cmd, &[], [4, 1, 1])) {
            Err(Error::Vulkan { call, result }) => format!("{call} returned {result:?}"),
            Ok(_) => "the endless dispatch completed".into(),
            Err(e) => return Err(e),
        }
    };
    let ctx = context()?;
    let ok = copy_dispatch(&ctx, 1000)?;
    Ok(format!("{first}; new device: {}", if ok { "verified" } else { "WRONG RESULTS" }))
}

fn main() -> ExitCode {
    let scenario = std::env::args().nth(1).unwrap_or_default();
    let r = match scenario.as_str() {
        "unsupported-spirv" => unsupported_spirv(),
        "garbage-module" => garbage_module(),
        "fault-then-recover" => fault_then_recover(),
        "hang-then-recover" => hang_then_recover(),
        "copy" => context().and_then(|c| copy_dispatch(&c, 100_000)).map(|ok| {
            if ok {
                "verified".into()
            } else {
                "WRONG RESULTS".into()
            }
        }),
        _ => {
            eprintln!(
                "usage: softnavi-probe unsupported-spirv|garbage-module|fault-then-recover|hang-then-recover|copy"
            );
            return ExitCode::from(2);
        }
    };
    match r {
        Ok(s) => {
            println!("RESULT: {s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("softnavi-probe {scenario}: {e}");
            ExitCode::from(1)
        }
    }
}
