//! `softnavi-probe SCENARIO`: small Vulkan programs that exercise one behaviour of a driver
//! through the real loader, run as subprocesses by the integration tests (so each gets its
//! own `VK_ICD_FILENAMES` and a crash could not take the test runner down).
//!
//! Scenarios print one `RESULT: ...` line the tests check, and exit 0 unless the scenario
//! itself could not be carried out.

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{spirv_words, ComputeKernel, Context, ContextOptions, Error, MemoryLocation};

const ATOMIC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/atomic.spv"));
const SPIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/spin.spv"));
const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/copy.spv"));
const IDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ids.spv"));
const SUBGROUP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/subgroup.spv"));
/// From the SPIR-V corpus: 8- and 16-bit vectors in storage buffer structs.
const STORAGE8_STRUCT: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/spirv/memory/storage8_struct.spv"));

fn context() -> Result<Context, Error> {
    Context::new(&ContextOptions {
        compute_only_queue: false,
        app_name: "softnavi-probe",
        device_filter: None,
        validate: false,
        shader_features: false,
    })
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

/// Pipeline creation with SPIR-V the lowering does not support (sparse residency) must fail with an
/// error code (the ICD logs what is unsupported), not crash.
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

/// A pipeline whose shader makes LLVM fail (`storage8_struct.comp` under
/// `SOFTNAVI_LLVM_SLP=on`, set by the test) must be an error from vkCreateComputePipelines,
/// and the same device must then create and run a pipeline normally.
fn llvm_failure_then_recover() -> Result<String, Error> {
    let ctx = Context::new(&ContextOptions {
        compute_only_queue: false,
        app_name: "softnavi-probe",
        device_filter: None,
        validate: false,
        shader_features: true,
    })?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let a = ctx.create_buffer("a", 4096, usage, MemoryLocation::CpuToGpu)?;
    let o = ctx.create_buffer("o", 4096, usage, MemoryLocation::CpuToGpu)?;
    let r = ctx.create_buffer("r", 4096, usage, MemoryLocation::CpuToGpu)?;
    let first = match ctx.create_compute_kernel(&spirv_words(STORAGE8_STRUCT)?, c"main", &[&a, &o, &r], 0) {
        Ok(_) => "pipeline created".to_string(),
        Err(Error::Vulkan { call, result }) => format!("{call} returned {result:?}"),
        Err(e) => return Err(e),
    };
    let ok = copy_dispatch(&ctx, 10_000)?;
    Ok(format!("{first}; same device: {}", if ok { "verified" } else { "WRONG RESULTS" }))
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

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

fn barrier(ctx: &Context, cmd: vk::CommandBuffer) {
    let mb = [vk::MemoryBarrier::default()
        .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
        .dst_access_mask(
            vk::AccessFlags::SHADER_READ
                | vk::AccessFlags::SHADER_WRITE
                | vk::AccessFlags::TRANSFER_READ
                | vk::AccessFlags::TRANSFER_WRITE
                | vk::AccessFlags::HOST_READ,
        )];
    let stages = vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
    // SAFETY: `cmd` is recording.
    unsafe {
        ctx.device().cmd_pipeline_barrier(
            cmd,
            stages,
            stages | vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &mb,
            &[],
            &[],
        )
    };
}

/// vkCmdFillBuffer, vkCmdUpdateBuffer and vkCmdCopyBuffer (large enough to be split into
/// several CP DMA packets), checked on the host.
fn transfer() -> Result<String, Error> {
    let ctx = context()?;
    let n = 100_000u64;
    let usage =
        vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let a = ctx.create_buffer("a", n, usage, MemoryLocation::CpuToGpu)?;
    let b = ctx.create_buffer("b", n, usage, MemoryLocation::GpuToCpu)?;
    let pattern: Vec<u8> = (0..256u32).map(|i| (i * 7 + 3) as u8).collect();
    ctx.submit_and_wait(|cmd| {
        let d = ctx.device();
        // SAFETY: `cmd` is recording; the buffers outlive the submission.
        unsafe {
            d.cmd_fill_buffer(cmd, a.handle(), 0, vk::WHOLE_SIZE, 0x1122_3344);
            barrier(&ctx, cmd);
            d.cmd_update_buffer(cmd, a.handle(), 64, &pattern);
            barrier(&ctx, cmd);
            d.cmd_copy_buffer(cmd, a.handle(), b.handle(), &[vk::BufferCopy { src_offset: 0, dst_offset: 0, size: n }]);
            barrier(&ctx, cmd);
        }
        Ok(())
    })?;
    let out: Vec<u32> = b.read((n / 4) as usize)?;
    let bytes: Vec<u8> = out.iter().flat_map(|w| w.to_le_bytes()).collect();
    let fill = 0x1122_3344u32.to_le_bytes();
    let ok = (0..n as usize).all(|i| {
        let want = if (64..320).contains(&i) { pattern[i - 64] } else { fill[i % 4] };
        bytes[i] == want
    });
    Ok(if ok { "verified".into() } else { "WRONG RESULTS".into() })
}

const SENTINEL: u32 = 0xdead_beef;

/// Reads the ids buffer and checks that exactly the invocations of groups
/// `[base, base + count)` wrote `(group x, group y, count.x * 100 + count.y, tag)`.
fn check_ids(out: &[u32], base: [u32; 2], count: [u32; 2], tag: u32) -> bool {
    for y in 0..4u32 {
        for x in 0..64u32 {
            let (gx, gy) = (x / 4, y);
            let inside = (base[0]..base[0] + count[0]).contains(&gx) && (base[1]..base[1] + count[1]).contains(&gy);
            let i = 4 * (y * 64 + x) as usize;
            let want = if inside { [gx, gy, count[0] * 100 + count[1], tag] } else { [SENTINEL; 4] };
            if out[i..i + 4] != want {
                eprintln!("slot ({x}, {y}): got {:x?}, want {want:x?}", &out[i..i + 4]);
                return false;
            }
        }
    }
    true
}

/// Binds the ids kernel, its descriptor set and the push constant `tag`.
fn bind_ids(ctx: &Context, kernel: &ComputeKernel<'_>, cmd: vk::CommandBuffer, tag: u32) {
    let d = ctx.device();
    // SAFETY: `cmd` is recording; the kernel outlives the submission.
    unsafe {
        d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, kernel.pipeline());
        d.cmd_bind_descriptor_sets(
            cmd,
            vk::PipelineBindPoint::COMPUTE,
            kernel.pipeline_layout(),
            0,
            &[kernel.descriptor_set()],
            &[],
        );
        d.cmd_push_constants(cmd, kernel.pipeline_layout(), vk::ShaderStageFlags::COMPUTE, 0, &tag.to_le_bytes());
    }
}

/// A compute pipeline created with `VK_PIPELINE_CREATE_DISPATCH_BASE`, destroyed on drop.
struct DispatchBasePipeline<'a>(vk::Pipeline, &'a Context);

impl<'a> DispatchBasePipeline<'a> {
    fn new(ctx: &'a Context, words: &[u32], layout: vk::PipelineLayout) -> Result<Self, Error> {
        let d = ctx.device();
        // SAFETY: valid device and create info.
        let module = unsafe { d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None) }
            .map_err(|result| Error::Vulkan { call: "vkCreateShaderModule", result })?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let info = [vk::ComputePipelineCreateInfo::default()
            .flags(vk::PipelineCreateFlags::DISPATCH_BASE)
            .stage(stage)
            .layout(layout)];
        // SAFETY: valid device, module and layout; the module is destroyed after the call.
        let r = unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &info, None) };
        // SAFETY: not used by any pipeline creation in flight any more.
        unsafe { d.destroy_shader_module(module, None) };
        let pipelines = r.map_err(|(_, result)| Error::Vulkan { call: "vkCreateComputePipelines", result })?;
        Ok(Self(pipelines[0], ctx))
    }
}

impl Drop for DispatchBasePipeline<'_> {
    fn drop(&mut self) {
        // SAFETY: created by `new`; `submit_and_wait` waited for every use.
        unsafe { self.1.device().destroy_pipeline(self.0, None) };
    }
}

/// vkCmdDispatchBase and vkCmdDispatchIndirect: workgroup ids include the base, the
/// workgroup count is the dispatch's, and the indirect counts come from GPU memory.
fn dispatch_variants() -> Result<String, Error> {
    let ctx = context()?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
    let mut out = ctx.create_buffer("ids", 256 * 16, usage, MemoryLocation::GpuToCpu)?;
    let mut args = ctx.create_buffer("args", 16, vk::BufferUsageFlags::INDIRECT_BUFFER, MemoryLocation::CpuToGpu)?;
    args.write(&[5u32, 3, 1, 0])?;
    let kernel = ctx.create_compute_kernel(&spirv_words(IDS)?, c"main", &[&out], 4)?;
    // A non-zero dispatch base needs a pipeline created with VK_PIPELINE_CREATE_DISPATCH_BASE
    // (VUID-vkCmdDispatchBase-baseGroupX-00427): the same shader and layout, with that flag.
    let based = DispatchBasePipeline::new(&ctx, &spirv_words(IDS)?, kernel.pipeline_layout())?;
    let mut results = Vec::new();
    out.write(&vec![SENTINEL; 256 * 4])?;
    ctx.submit_and_wait(|cmd| {
        bind_ids(&ctx, &kernel, cmd, 7);
        // SAFETY: `cmd` is recording; the pipeline has the kernel's layout, so the bound set and
        // push constants stay valid; it outlives the submission.
        unsafe {
            ctx.device().cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, based.0);
            ctx.device().cmd_dispatch_base(cmd, 2, 1, 0, 3, 2, 1);
        }
        barrier(&ctx, cmd);
        Ok(())
    })?;
    results.push(("base", check_ids(&out.read(256 * 4)?, [2, 1], [3, 2], 7)));
    out.write(&vec![SENTINEL; 256 * 4])?;
    ctx.submit_and_wait(|cmd| {
        bind_ids(&ctx, &kernel, cmd, 9);
        // SAFETY: `cmd` is recording.
        unsafe { ctx.device().cmd_dispatch_indirect(cmd, args.handle(), 0) };
        barrier(&ctx, cmd);
        Ok(())
    })?;
    results.push(("indirect", check_ids(&out.read(256 * 4)?, [0, 0], [5, 3], 9)));
    let bad: Vec<&str> = results.iter().filter(|r| !r.1).map(|r| r.0).collect();
    Ok(if bad.is_empty() { "verified".into() } else { format!("WRONG RESULTS: {}", bad.join(", ")) })
}

/// Hundreds of dispatches in one command buffer (its PM4 spans several chained IB chunks),
/// then a secondary command buffer run with vkCmdExecuteCommands (a nested IB).
fn many_dispatches() -> Result<String, Error> {
    let ctx = context()?;
    let d = ctx.device();
    let mut out = ctx.create_buffer("ids", 256 * 16, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::GpuToCpu)?;
    out.write(&vec![SENTINEL; 256 * 4])?;
    let kernel = ctx.create_compute_kernel(&spirv_words(IDS)?, c"main", &[&out], 4)?;
    let pool_info = vk::CommandPoolCreateInfo::default().queue_family_index(ctx.queue_family_index());
    // SAFETY: valid device and create info.
    let pool = unsafe { d.create_command_pool(&pool_info, None) }.map_err(vkerr("vkCreateCommandPool"))?;
    let alloc = vk::CommandBufferAllocateInfo::default()
        .command_pool(pool)
        .level(vk::CommandBufferLevel::SECONDARY)
        .command_buffer_count(1);
    // SAFETY: valid pool.
    let secondary = unsafe { d.allocate_command_buffers(&alloc) }.map_err(vkerr("vkAllocateCommandBuffers"))?[0];
    let inherit = vk::CommandBufferInheritanceInfo::default();
    let begin = vk::CommandBufferBeginInfo::default().inheritance_info(&inherit);
    let record = |cmd: vk::CommandBuffer, tag: u32| {
        bind_ids(&ctx, &kernel, cmd, tag);
        // SAFETY: `cmd` is recording.
        unsafe { d.cmd_dispatch(cmd, 16, 4, 1) };
        barrier(&ctx, cmd);
    };
    // SAFETY: the secondary command buffer is fresh.
    unsafe { d.begin_command_buffer(secondary, &begin) }.map_err(vkerr("vkBeginCommandBuffer"))?;
    record(secondary, 1000);
    // SAFETY: recording.
    unsafe { d.end_command_buffer(secondary) }.map_err(vkerr("vkEndCommandBuffer"))?;
    ctx.submit_and_wait(|cmd| {
        for tag in 0..400 {
            record(cmd, tag);
        }
        Ok(())
    })?;
    let after_primary = check_ids(&out.read(256 * 4)?, [0, 0], [16, 4], 399);
    ctx.submit_and_wait(|cmd| {
        // SAFETY: recording; the secondary is executable.
        unsafe { d.cmd_execute_commands(cmd, &[secondary]) };
        Ok(())
    })?;
    let after_secondary = check_ids(&out.read(256 * 4)?, [0, 0], [16, 4], 1000);
    // SAFETY: all work is done.
    unsafe { d.destroy_command_pool(pool, None) };
    Ok(match (after_primary, after_secondary) {
        (true, true) => "verified".into(),
        (a, b) => format!("WRONG RESULTS: primary {a}, secondary {b}"),
    })
}

/// Timestamp queries around a dispatch, read back on the host and copied on the GPU.
fn timestamps() -> Result<String, Error> {
    let ctx = context()?;
    let d = ctx.device();
    let info = vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2);
    // SAFETY: valid device and create info.
    let pool = unsafe { d.create_query_pool(&info, None) }.map_err(vkerr("vkCreateQueryPool"))?;
    let usage = vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_DST;
    let copy = ctx.create_buffer("copy", 32, usage, MemoryLocation::GpuToCpu)?;
    let n = 200_000u32;
    let src = ctx.create_buffer("src", 4 * n as u64, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::CpuToGpu)?;
    let dst = ctx.create_buffer("dst", 4 * n as u64, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::GpuToCpu)?;
    let kernel = ctx.create_compute_kernel(&spirv_words(COPY)?, c"main", &[&src, &dst], 0)?;
    ctx.submit_and_wait(|cmd| {
        // SAFETY: recording; everything outlives the submission.
        unsafe {
            d.cmd_reset_query_pool(cmd, pool, 0, 2);
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::TOP_OF_PIPE, pool, 0);
            kernel.record_dispatch(cmd, &[], [n / 64, 1, 1])?;
            d.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 1);
            d.cmd_copy_query_pool_results(
                cmd,
                pool,
                0,
                2,
                copy.handle(),
                0,
                16,
                vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT | vk::QueryResultFlags::WITH_AVAILABILITY,
            );
        }
        barrier(&ctx, cmd);
        Ok(())
    })?;
    let mut host = [[0u64; 2]; 2];
    // SAFETY: valid pool; `host` holds 2 × (value, availability).
    unsafe {
        d.get_query_pool_results(
            pool,
            0,
            &mut host,
            vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT | vk::QueryResultFlags::WITH_AVAILABILITY,
        )
    }
    .map_err(vkerr("vkGetQueryPoolResults"))?;
    let gpu: Vec<u32> = copy.read(8)?;
    let gpu = [
        [gpu[0] as u64 | (gpu[1] as u64) << 32, gpu[2] as u64],
        [gpu[4] as u64 | (gpu[5] as u64) << 32, gpu[6] as u64],
    ];
    // SAFETY: done with the pool.
    unsafe { d.destroy_query_pool(pool, None) };
    let period = ctx.limits().timestamp_period as f64;
    let ok = host[0][1] == 1 && host[1][1] == 1 && host[1][0] > host[0][0] && host == gpu;
    Ok(if ok {
        format!("verified (dispatch took {:.3} ms of GPU time)", (host[1][0] - host[0][0]) as f64 * period / 1e6)
    } else {
        format!("WRONG RESULTS: host {host:?}, copied {gpu:?}")
    })
}

/// Events: set by the GPU and seen by the host; set by the host and waited for by the GPU.
fn events() -> Result<String, Error> {
    let ctx = context()?;
    let d = ctx.device();
    // SAFETY: valid device.
    let (e1, e2) = unsafe {
        (d.create_event(&vk::EventCreateInfo::default(), None), d.create_event(&vk::EventCreateInfo::default(), None))
    };
    let (e1, e2) = (e1.map_err(vkerr("vkCreateEvent"))?, e2.map_err(vkerr("vkCreateEvent"))?);
    // SAFETY: valid events.
    let before = unsafe { d.get_event_status(e1) }.map_err(vkerr("vkGetEventStatus"))?;
    // SAFETY: valid event.
    unsafe { d.set_event(e2) }.map_err(vkerr("vkSetEvent"))?;
    ctx.submit_and_wait(|cmd| {
        // SAFETY: recording.
        unsafe {
            let stage = vk::PipelineStageFlags::COMPUTE_SHADER;
            d.cmd_wait_events(cmd, &[e2], vk::PipelineStageFlags::HOST, stage, &[], &[], &[]);
            d.cmd_set_event(cmd, e1, stage);
        }
        Ok(())
    })?;
    // SAFETY: valid event.
    let after = unsafe { d.get_event_status(e1) }.map_err(vkerr("vkGetEventStatus"))?;
    // SAFETY: valid event.
    unsafe { d.reset_event(e1) }.map_err(vkerr("vkResetEvent"))?;
    // SAFETY: valid event.
    let reset = unsafe { d.get_event_status(e1) }.map_err(vkerr("vkGetEventStatus"))?;
    // SAFETY: no longer used.
    unsafe {
        d.destroy_event(e1, None);
        d.destroy_event(e2, None);
    }
    Ok(if !before && after && !reset { "verified".into() } else { format!("WRONG RESULTS: {before} {after} {reset}") })
}

/// Invocations per workgroup of `subgroup.comp`, and words each writes.
const SUBGROUP_GROUP: usize = 80;
const SUBGROUP_WORDS: usize = 8;

/// Checks one workgroup's words from `subgroup.comp` against what Vulkan requires of the
/// subgroup basic category; `Ok(linear)` tells whether invocation `i` is lane `i % size` of
/// subgroup `i / size` (how waves are filled; the spec does not require it).
fn check_subgroup_workgroup(words: &[u32], size: u32) -> Result<bool, String> {
    let inv: Vec<&[u32]> = words.chunks(SUBGROUP_WORDS).collect();
    let n = inv.len();
    let num = inv[0][3];
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); num.min(n as u32) as usize];
    let mut seen = std::collections::HashSet::new();
    for (i, w) in inv.iter().enumerate() {
        let [sg_size, lane, id, nsub, _, _, _, index] = [w[0], w[1], w[2], w[3], w[4], w[5], w[6], w[7]];
        if index != i as u32 {
            return Err(format!("invocation {i}: gl_LocalInvocationIndex {index}"));
        }
        // SubgroupSize is VkPhysicalDeviceSubgroupProperties::subgroupSize (no varying
        // subgroup size for a SPIR-V 1.3 module without the pipeline flags).
        if sg_size != size {
            return Err(format!("invocation {i}: gl_SubgroupSize {sg_size}, subgroupSize is {size}"));
        }
        if nsub != num {
            return Err(format!("invocation {i}: gl_NumSubgroups {nsub}, invocation 0 saw {num}"));
        }
        if lane >= size || id >= num {
            return Err(format!("invocation {i}: lane {lane} of subgroup {id}, out of range"));
        }
        if !seen.insert((id, lane)) {
            return Err(format!("invocation {i}: lane {lane} of subgroup {id} is taken twice"));
        }
        members[id as usize].push(i);
    }
    // Every subgroup has at least one invocation and at most `size`.
    if (num as usize) < n.div_ceil(size as usize) || members.iter().any(Vec::is_empty) {
        return Err(format!("{num} subgroups for {n} invocations of subgroup size {size}"));
    }
    for (id, m) in members.iter().enumerate() {
        // subgroupElect: true in exactly one invocation, the active one with the lowest lane
        // (all are active at the top of main; in the branch, those with lane % 3 == 2).
        let lowest = |ms: &[usize]| ms.iter().copied().min_by_key(|&i| inv[i][1]);
        let elected: Vec<usize> = m.iter().copied().filter(|&i| inv[i][4] == 1).collect();
        if elected.len() != 1 || lowest(m) != Some(elected[0]) || m.iter().any(|&i| inv[i][4] > 1) {
            return Err(format!("subgroup {id}: subgroupElect() true in {elected:?}"));
        }
        if let Some(&i) = m.iter().find(|&&i| inv[i][5] != elected[0] as u32) {
            return Err(format!("subgroup {id}: invocation {i} read leader {}, want {}", inv[i][5], elected[0]));
        }
        let (branch, rest): (Vec<usize>, Vec<usize>) = m.iter().partition(|&&i| inv[i][1] % 3 == 2);
        if let Some(&i) = rest.iter().find(|&&i| inv[i][6] != SENTINEL) {
            return Err(format!("subgroup {id}: invocation {i} outside the branch wrote {:#x}", inv[i][6]));
        }
        let elected: Vec<usize> = branch.iter().copied().filter(|&i| inv[i][6] == 1).collect();
        let ok = if branch.is_empty() {
            elected.is_empty()
        } else {
            elected.len() == 1 && lowest(&branch) == Some(elected[0]) && branch.iter().all(|&i| inv[i][6] <= 1)
        };
        if !ok {
            return Err(format!("subgroup {id}: in the branch, subgroupElect() true in {elected:?} of {branch:?}"));
        }
    }
    Ok(inv.iter().enumerate().all(|(i, w)| w[1] as usize == i % size as usize && w[2] as usize == i / size as usize))
}

/// The subgroup basic category (Vulkan 1.1 requires it in compute shaders): built-ins,
/// subgroupElect in uniform and divergent control flow, subgroup barriers through shared
/// memory, over three workgroups whose last subgroup is partial.
fn subgroup() -> Result<String, Error> {
    let ctx = context()?;
    let mut sub = vk::PhysicalDeviceSubgroupProperties::default();
    let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut sub);
    // SAFETY: valid physical device of a Vulkan 1.1 instance; `props` chains `sub`.
    unsafe { ctx.instance().get_physical_device_properties2(ctx.physical_device(), &mut props) };
    let (size, stages, ops) = (sub.subgroup_size, sub.supported_stages, sub.supported_operations);
    if !size.is_power_of_two()
        || !stages.contains(vk::ShaderStageFlags::COMPUTE)
        || !ops.contains(vk::SubgroupFeatureFlags::BASIC)
    {
        return Ok(format!("WRONG PROPERTIES: subgroupSize {size}, stages {stages:?}, operations {ops:?}"));
    }
    let groups = 3;
    let words = groups * SUBGROUP_GROUP * SUBGROUP_WORDS;
    let mut out = ctx.create_buffer(
        "subgroup",
        4 * words as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER,
        MemoryLocation::GpuToCpu,
    )?;
    out.write(&vec![SENTINEL; words])?;
    let kernel = ctx.create_compute_kernel(&spirv_words(SUBGROUP)?, c"main", &[&out], 0)?;
    ctx.submit_and_wait(|cmd| {
        kernel.record_dispatch(cmd, &[], [groups as u32, 1, 1])?;
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    let data: Vec<u32> = out.read(words)?;
    let mut linear = true;
    for (g, w) in data.chunks(SUBGROUP_GROUP * SUBGROUP_WORDS).enumerate() {
        match check_subgroup_workgroup(w, size) {
            Ok(l) => linear &= l,
            Err(e) => {
                for (i, inv) in w.chunks(SUBGROUP_WORDS).enumerate() {
                    eprintln!("workgroup {g} invocation {i}: {inv:x?}");
                }
                return Ok(format!("WRONG RESULTS: workgroup {g}: {e}"));
            }
        }
    }
    Ok(format!(
        "verified (subgroupSize {size}, {} subgroups per workgroup of {SUBGROUP_GROUP}{})",
        data[3],
        if linear { ", linear" } else { "" }
    ))
}

fn main() -> ExitCode {
    let scenario = std::env::args().nth(1).unwrap_or_default();
    let r = match scenario.as_str() {
        "unsupported-spirv" => unsupported_spirv(),
        "garbage-module" => garbage_module(),
        "fault-then-recover" => fault_then_recover(),
        "hang-then-recover" => hang_then_recover(),
        "llvm-failure-then-recover" => llvm_failure_then_recover(),
        "transfer" => transfer(),
        "dispatch-variants" => dispatch_variants(),
        "many-dispatches" => many_dispatches(),
        "timestamps" => timestamps(),
        "events" => events(),
        "subgroup" => subgroup(),
        "copy" => context().and_then(|c| copy_dispatch(&c, 100_000)).map(|ok| {
            if ok {
                "verified".into()
            } else {
                "WRONG RESULTS".into()
            }
        }),
        _ => {
            eprintln!(
                "usage: softnavi-probe unsupported-spirv|garbage-module|fault-then-recover|hang-then-recover|llvm-failure-then-recover|copy|..."
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
