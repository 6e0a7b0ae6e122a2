//! `softnavi-hostptr`: VK_EXT_external_memory_host. The app allocates page-aligned host
//! memory, imports it as device memory (`VkImportMemoryHostPointerInfoEXT`) under a
//! storage/transfer buffer, and lets the GPU read and write it in place: it copies a
//! pattern the host wrote out of it into an ordinary buffer and back in at an offset, and
//! fills a range of it; then the host checks its own memory, byte for byte. On RADV over
//! the model this goes through amdgpu's GEM_USERPTR (softnavi's shim).
//!
//! Prints `PASS hostptr` or `FAIL hostptr: why` (exit 1), `SKIP` where the device lacks the
//! extension (exit 0), exit 2 on a Vulkan error, 3 on validation messages (`--validate`).

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{Context, Error, MemoryLocation};
use softnavi_tests::app::{self, Report};

const SIZE: usize = 1 << 16;

/// Host memory aligned to `align`, freed on drop.
struct HostMem {
    ptr: *mut u8,
    layout: std::alloc::Layout,
}

impl HostMem {
    fn new(size: usize, align: usize) -> Option<HostMem> {
        let layout = std::alloc::Layout::from_size_align(size, align).ok()?;
        // SAFETY: a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        (!ptr.is_null()).then_some(HostMem { ptr, layout })
    }
    fn bytes(&mut self) -> &mut [u8] {
        // SAFETY: `layout.size()` bytes allocated in `new`, owned by self.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.layout.size()) }
    }
}

impl Drop for HostMem {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout in `new`.
        unsafe { std::alloc::dealloc(self.ptr, self.layout) }
    }
}

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// The imported buffer: a buffer over `host` (the device memory and buffer are destroyed
/// before `host` is freed, by `run`).
fn import(ctx: &Context, host: &mut HostMem) -> Result<(vk::Buffer, vk::DeviceMemory), Error> {
    let (dev, inst) = (ctx.device(), ctx.instance());
    let ext = ash::ext::external_memory_host::Device::new(inst, dev);
    let kind = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
    let mut props = vk::MemoryHostPointerPropertiesEXT::default();
    // SAFETY: `host` is a live allocation aligned as the device asks (checked by `run`).
    unsafe { (ext.fp().get_memory_host_pointer_properties_ext)(dev.handle(), kind, host.ptr as *const _, &mut props) }
        .result()
        .map_err(vkerr("vkGetMemoryHostPointerPropertiesEXT"))?;
    let mut external = vk::ExternalMemoryBufferCreateInfo::default().handle_types(kind);
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let info = vk::BufferCreateInfo::default().size(SIZE as u64).usage(usage).push_next(&mut external);
    // SAFETY: a valid create info.
    let buffer = unsafe { dev.create_buffer(&info, None) }.map_err(vkerr("vkCreateBuffer"))?;
    // SAFETY: a live buffer.
    let req = unsafe { dev.get_buffer_memory_requirements(buffer) };
    let Some(ty) = (0..32).find(|i| (req.memory_type_bits & props.memory_type_bits) >> i & 1 != 0) else {
        // SAFETY: unused.
        unsafe { dev.destroy_buffer(buffer, None) };
        return Err(Error::Unsupported("no memory type takes both the buffer and the host pointer".into()));
    };
    let mut import = vk::ImportMemoryHostPointerInfoEXT::default().handle_type(kind).host_pointer(host.ptr as *mut _);
    let alloc =
        vk::MemoryAllocateInfo::default().allocation_size(SIZE as u64).memory_type_index(ty).push_next(&mut import);
    // SAFETY: a valid allocate info over live host memory.
    let memory = unsafe { dev.allocate_memory(&alloc, None) }.map_err(vkerr("vkAllocateMemory (host pointer)"))?;
    // SAFETY: live objects, offset 0.
    unsafe { dev.bind_buffer_memory(buffer, memory, 0) }.map_err(vkerr("vkBindBufferMemory"))?;
    Ok((buffer, memory))
}

fn run(ctx: &Context) -> Result<Result<(), String>, Error> {
    let mut props = vk::PhysicalDeviceExternalMemoryHostPropertiesEXT::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut props);
    // SAFETY: a plain query.
    unsafe { ctx.instance().get_physical_device_properties2(ctx.physical_device(), &mut p2) };
    let align = (props.min_imported_host_pointer_alignment as usize).max(4096);
    let mut host = HostMem::new(SIZE, align).ok_or_else(|| Error::Unsupported("host allocation".into()))?;
    for (i, b) in host.bytes().iter_mut().enumerate() {
        *b = (i as u32).wrapping_mul(2_654_435_761).to_le_bytes()[3];
    }
    let before = host.bytes().to_vec();
    let (buffer, memory) = import(ctx, &mut host)?;
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let scratch = ctx.create_buffer("scratch", SIZE as u64, usage, MemoryLocation::GpuToCpu)?;
    let dev = ctx.device();
    let half = (SIZE / 2) as u64;
    let r = ctx.submit_and_wait(|cmd| {
        let copy = |src, dst, so, dof, size| {
            // SAFETY: recording; the buffers live until the submission completes.
            unsafe { dev.cmd_copy_buffer(cmd, src, dst, &[vk::BufferCopy { src_offset: so, dst_offset: dof, size }]) }
        };
        copy(buffer, scratch.handle(), 0, 0, half);
        ctx.cmd_compute_to_host_barrier(cmd);
        copy(scratch.handle(), buffer, 0, half, half);
        // SAFETY: as above.
        unsafe { dev.cmd_fill_buffer(cmd, buffer, 256, 1024, 0x5eed_f00d) };
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    });
    // SAFETY: the device is idle (submit_and_wait) or failed; the objects are unused.
    unsafe {
        dev.destroy_buffer(buffer, None);
        dev.free_memory(memory, None);
    }
    r?;
    let mut want = before.clone();
    want.copy_within(..SIZE / 2, SIZE / 2);
    for w in want[256..1280].chunks_exact_mut(4) {
        w.copy_from_slice(&0x5eed_f00du32.to_le_bytes());
    }
    let got = host.bytes();
    Ok(match (0..SIZE).find(|&i| got[i] != want[i]) {
        None => Ok(()),
        Some(i) => Err(format!("host byte {i} is {:#x}, expected {:#x}", got[i], want[i])),
    })
}

fn main() -> ExitCode {
    let ctx = match app::context("softnavi-hostptr", true) {
        Ok(c) => c,
        Err(code) => return code,
    };
    if !ctx.shader_features().extensions.iter().any(|e| e == "VK_EXT_external_memory_host") {
        println!("SKIP hostptr: the device does not offer VK_EXT_external_memory_host");
        return ExitCode::SUCCESS;
    }
    let mut report = Report::default();
    report.case("hostptr", run(&ctx));
    report.finish(&ctx)
}
