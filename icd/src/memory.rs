//! VkDeviceMemory and VkBuffer: device memory is a winsys buffer object in the GPU
//! address space; buffers are ranges of it.
//!
//! The memory types are those of an RDNA3 dGPU under amdgpu (RADV's layout): heap 0 is
//! "VRAM", heap 1 is "GTT" (system memory the GPU reaches over PCIe). In the model both are
//! the same host memory in one address space, so the heaps differ only in what the
//! application is told; the flags are kept honest all the same: a type without
//! HOST_VISIBLE cannot be mapped.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use ash::vk;

use crate::device::{dev, DeviceShared};
use crate::handle::{chain, chain_mut, code, destroy, guard, object, slice, Object};

const DL: u32 = vk::MemoryPropertyFlags::DEVICE_LOCAL.as_raw();
const HV: u32 = vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw();
const HC: u32 = vk::MemoryPropertyFlags::HOST_COHERENT.as_raw();
const CACHED: u32 = vk::MemoryPropertyFlags::HOST_CACHED.as_raw();

/// Heap 0: VRAM. Heap 1: GTT.
pub const VRAM_HEAP: u32 = 0;
pub const GTT_HEAP: u32 = 1;

/// Memory types (flags, heap), ordered as the specification requires: a type whose flags
/// are a subset of another's comes first.
pub const TYPES: [(u32, u32); 5] = [
    // VRAM, not CPU-visible.
    (DL, VRAM_HEAP),
    // GTT, write-combined.
    (HV | HC, GTT_HEAP),
    // VRAM through the resizable BAR.
    (DL | HV | HC, VRAM_HEAP),
    // GTT, cached and not coherent: flushes and invalidations are the application's job.
    (HV | CACHED, GTT_HEAP),
    // GTT, cached and snooped.
    (HV | HC | CACHED, GTT_HEAP),
];
pub(crate) const ALL_TYPES: u32 = (1 << TYPES.len()) - 1;

/// The flags of memory type `i` (None if there is no such type).
pub fn type_flags(i: u32) -> Option<vk::MemoryPropertyFlags> {
    TYPES.get(i as usize).map(|t| vk::MemoryPropertyFlags::from_raw(t.0))
}

/// Bytes allocated in each heap by this process (every device), for VK_EXT_memory_budget.
static HEAP_USAGE: [AtomicU64; 2] = [AtomicU64::new(0), AtomicU64::new(0)];

pub fn memory_properties(info: &gpu::ChipInfo) -> vk::PhysicalDeviceMemoryProperties {
    let mut p = vk::PhysicalDeviceMemoryProperties {
        memory_type_count: TYPES.len() as u32,
        memory_heap_count: 2,
        ..Default::default()
    };
    for (i, &(f, heap)) in TYPES.iter().enumerate() {
        p.memory_types[i] = vk::MemoryType { property_flags: vk::MemoryPropertyFlags::from_raw(f), heap_index: heap };
    }
    // Both heaps are carved from the one address space of `memory_size` bytes
    // (SOFTNAVI_MEMORY_MB): each may take all of it, and the budget says what is left.
    p.memory_heaps[VRAM_HEAP as usize] =
        vk::MemoryHeap { size: info.memory_size, flags: vk::MemoryHeapFlags::DEVICE_LOCAL };
    p.memory_heaps[GTT_HEAP as usize] = vk::MemoryHeap { size: info.memory_size, flags: vk::MemoryHeapFlags::empty() };
    p
}

/// VK_EXT_memory_budget: (budget, usage) per heap. Usage is what this process has
/// allocated in the heap; the budget is that plus what the shared address space still has
/// room for (a device's allocator fails beyond it).
pub fn memory_budget(info: &gpu::ChipInfo) -> ([u64; 2], [u64; 2]) {
    let usage = [HEAP_USAGE[0].load(Ordering::Relaxed), HEAP_USAGE[1].load(Ordering::Relaxed)];
    let free = info.memory_size.saturating_sub(usage[0] + usage[1]);
    ([usage[0] + free, usage[1] + free], usage)
}

pub struct DeviceMemory {
    pub bo: Arc<gpu::mem::Bo>,
    pub size: u64,
    /// Index into [`TYPES`].
    pub type_index: u32,
    dev: Arc<DeviceShared>,
}
object!(DeviceMemory, vk::DeviceMemory);

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        self.dev.gpu.free(&self.bo);
        let heap = TYPES[self.type_index as usize].1 as usize;
        HEAP_USAGE[heap].fetch_sub(self.size, Ordering::Relaxed);
    }
}

/// The alignment of a memory object's GPU address: swizzled (MSAA) images need their
/// block's (64 or 256 KiB, image.rs), and an image's offset in its memory is only aligned
/// relative to the memory's start. An image's block is no larger than the image, nor than
/// the memory holding it: the largest power of two up to the size, at most 256 KiB, covers
/// every image the memory can hold without reserving 256 KiB of address space for small
/// allocations.
fn bo_align(size: u64) -> u64 {
    const LARGEST_BLOCK: u64 = 256 << 10;
    if size == 0 {
        return 0;
    }
    (1u64 << (63 - size.leading_zeros())).min(LARGEST_BLOCK)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn allocate_memory(
    device: vk::Device,
    info: *const vk::MemoryAllocateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::DeviceMemory,
) -> vk::Result {
    guard("vkAllocateMemory", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let d = dev(device);
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let Some(&(_, heap)) = TYPES.get(info.memory_type_index as usize) else {
            tracing::warn!("vkAllocateMemory: there is no memory type {}", info.memory_type_index);
            return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
        };
        let mut host = None;
        // SAFETY: the chain is valid per the specification.
        for s in unsafe { chain(info.p_next) } {
            // SAFETY: reading the header only.
            let t = unsafe { (*s).s_type };
            match t {
                // A dedicated allocation needs nothing special: every allocation is its own BO.
                vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO | vk::StructureType::MEMORY_ALLOCATE_FLAGS_INFO => {}
                // SAFETY: a structure of this type.
                vk::StructureType::IMPORT_MEMORY_HOST_POINTER_INFO_EXT => host = Some(unsafe { *s.cast() }),
                _ => tracing::warn!("vkAllocateMemory: ignoring {t:?} in pNext"),
            }
        }
        let placed = match host {
            None => d.shared.gpu.alloc(info.allocation_size, bo_align(info.allocation_size)).map_err(|e| e.to_string()),
            Some(h) => import_host(d, info, &h),
        };
        if let (Some(_), Err(e)) = (host, &placed) {
            tracing::warn!("vkAllocateMemory: {e}");
            return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
        }
        match placed {
            Ok(bo) => {
                HEAP_USAGE[heap as usize].fetch_add(info.allocation_size, Ordering::Relaxed);
                let m = DeviceMemory {
                    bo,
                    size: info.allocation_size,
                    type_index: info.memory_type_index,
                    dev: d.shared.clone(),
                };
                // SAFETY: out is valid per the specification.
                unsafe { *out = m.into_handle() };
                vk::Result::SUCCESS
            }
            Err(e) => {
                tracing::warn!("vkAllocateMemory: {e}");
                vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
            }
        }
    })
}

/// `minImportedHostPointerAlignment`: host allocations are mapped page by page.
pub const HOST_POINTER_ALIGNMENT: u64 = gpu::mem::PAGE;

/// The memory types a host allocation may be imported as: the host-visible ones.
fn host_pointer_types() -> u32 {
    (0..TYPES.len() as u32)
        .filter(|&i| type_flags(i).is_some_and(|f| f.contains(vk::MemoryPropertyFlags::HOST_VISIBLE)))
        .fold(0, |m, i| m | 1 << i)
}

/// VK_EXT_external_memory_host: the host allocation `h` names, mapped in place at a GPU
/// address (`gpu::mem::Memory::from_host`), or why not.
fn import_host(
    d: &crate::device::Device,
    info: &vk::MemoryAllocateInfo<'_>,
    h: &vk::ImportMemoryHostPointerInfoEXT<'_>,
) -> Result<Arc<gpu::mem::Bo>, String> {
    if h.handle_type != vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT {
        return Err(format!("host pointer handle type {:?} is not supported (HOST_ALLOCATION only)", h.handle_type));
    }
    if host_pointer_types() >> info.memory_type_index & 1 == 0 {
        return Err(format!("memory type {} cannot hold a host allocation", info.memory_type_index));
    }
    let aligned = |v: u64| v % HOST_POINTER_ALIGNMENT == 0;
    let ptr = h.p_host_pointer as *mut u8;
    if !(aligned(ptr as u64) && aligned(info.allocation_size)) || info.allocation_size == 0 || ptr.is_null() {
        return Err(format!(
            "host pointer {ptr:?} and size {} must be multiples of minImportedHostPointerAlignment ({HOST_POINTER_ALIGNMENT})",
            info.allocation_size
        ));
    }
    // SAFETY: the application keeps the allocation alive while the memory object exists
    // (VUID-VkImportMemoryHostPointerInfoEXT-pHostPointer-01389 and the spec's lifetime rule).
    let mem = unsafe { gpu::mem::Memory::from_host(ptr, info.allocation_size) }.ok_or("not page aligned")?;
    d.shared.gpu.import(mem, bo_align(info.allocation_size)).map_err(|e| e.to_string())
}

/// `vkGetMemoryHostPointerPropertiesEXT`: any host allocation can be imported as a
/// host-visible memory type.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_memory_host_pointer_properties(
    _d: vk::Device,
    handle_type: vk::ExternalMemoryHandleTypeFlags,
    ptr: *const std::ffi::c_void,
    out: *mut vk::MemoryHostPointerPropertiesEXT<'_>,
) -> vk::Result {
    guard("vkGetMemoryHostPointerPropertiesEXT", vk::Result::ERROR_INVALID_EXTERNAL_HANDLE, || {
        if handle_type != vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT
            || (ptr as u64) % HOST_POINTER_ALIGNMENT != 0
        {
            tracing::warn!(
                "vkGetMemoryHostPointerPropertiesEXT: {handle_type:?} at {ptr:?}: not an importable host allocation"
            );
            return vk::Result::ERROR_INVALID_EXTERNAL_HANDLE;
        }
        // SAFETY: out is valid per the specification.
        unsafe { (*out).memory_type_bits = host_pointer_types() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn free_memory(
    _device: vk::Device,
    mem: vk::DeviceMemory,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<DeviceMemory>("vkFreeMemory", mem) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn map_memory(
    _device: vk::Device,
    mem: vk::DeviceMemory,
    offset: u64,
    _size: u64,
    _flags: vk::MemoryMapFlags,
    out: *mut *mut std::ffi::c_void,
) -> vk::Result {
    guard("vkMapMemory", vk::Result::ERROR_MEMORY_MAP_FAILED, || {
        // SAFETY: a live memory handle.
        let Some(m) = (unsafe { DeviceMemory::from_handle(mem) }) else { return vk::Result::ERROR_MEMORY_MAP_FAILED };
        if !type_flags(m.type_index).is_some_and(|f| f.contains(vk::MemoryPropertyFlags::HOST_VISIBLE)) {
            tracing::warn!(
                "vkMapMemory: memory type {} is not HOST_VISIBLE (VRAM outside the BAR): it cannot be mapped",
                m.type_index
            );
            return vk::Result::ERROR_MEMORY_MAP_FAILED;
        }
        if offset > m.bo.size() {
            return vk::Result::ERROR_MEMORY_MAP_FAILED;
        }
        // SAFETY: offset is inside the BO; out is valid per the specification.
        unsafe { *out = m.bo.host_ptr().add(offset as usize) as *mut _ };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn unmap_memory(_device: vk::Device, _mem: vk::DeviceMemory) {}

/// Flushing host writes to the device. Correct as a no-op, also for the non-coherent
/// HOST_CACHED type: the mapping *is* the BO's backing store, which the GPU model reads
/// and writes directly (there is no GPU-side cache or copy between host and GPU that a
/// flush would have to write back), so host writes are visible to the device as soon as
/// the submission that reads them happens after them.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn flush_mapped_memory_ranges(
    _d: vk::Device,
    _n: u32,
    _r: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    vk::Result::SUCCESS
}

/// Invalidating host caches of device writes: a no-op for the same reason as
/// [`flush_mapped_memory_ranges`] (the GPU model's writes land in the very memory mapped).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn invalidate_mapped_memory_ranges(
    _d: vk::Device,
    _n: u32,
    _r: *const vk::MappedMemoryRange<'_>,
) -> vk::Result {
    vk::Result::SUCCESS
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_memory_commitment(_d: vk::Device, mem: vk::DeviceMemory, out: *mut u64) {
    guard("vkGetDeviceMemoryCommitment", (), || {
        // SAFETY: live handle, valid out pointer.
        unsafe {
            if let Some(m) = DeviceMemory::from_handle(mem) {
                *out = m.size;
            }
        }
    })
}

pub struct Buffer {
    pub size: u64,
    pub usage: vk::BufferUsageFlags,
    /// The memory it is bound to (kept alive by the binding) and the GPU address.
    pub bound: Option<(Arc<gpu::mem::Bo>, u64)>,
}
object!(Buffer, vk::Buffer);

impl Buffer {
    /// GPU address of byte `offset` of the buffer (0 if unbound: a GPU access faults).
    pub fn va(&self, offset: u64) -> u64 {
        self.bound.as_ref().map_or(0, |(_, va)| va + offset)
    }
}

/// # Safety
/// `h` must be a live buffer handle (or null).
pub unsafe fn buffer<'a>(h: vk::Buffer) -> Option<&'a Buffer> {
    // SAFETY: by the caller's contract.
    unsafe { Buffer::from_handle(h) }.map(|b| &*b)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_buffer(
    _device: vk::Device,
    info: *const vk::BufferCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Buffer,
) -> vk::Result {
    guard("vkCreateBuffer", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let unsupported = vk::BufferCreateFlags::SPARSE_BINDING
            | vk::BufferCreateFlags::PROTECTED
            | vk::BufferCreateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY;
        if info.flags.intersects(unsupported) {
            tracing::warn!(
                "vkCreateBuffer: sparse, protected and capture/replay buffers are not supported ({:?})",
                info.flags
            );
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        // SAFETY: out is valid per the specification.
        unsafe { *out = Buffer { size: info.size, usage: info.usage, bound: None }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_buffer(
    _d: vk::Device,
    b: vk::Buffer,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Buffer>("vkDestroyBuffer", b) }
}

/// A buffer of `size` bytes may live in any memory type.
fn requirements(size: u64) -> vk::MemoryRequirements {
    vk::MemoryRequirements { size: size.div_ceil(4) * 4, alignment: 16, memory_type_bits: ALL_TYPES }
}

/// Fills a `VkMemoryRequirements2` and its chain with `r` (buffers and images alike).
///
/// # Safety
/// `out` and its chain must be valid.
pub(crate) unsafe fn fill_requirements2(r: vk::MemoryRequirements, out: *mut vk::MemoryRequirements2<'_>) {
    // SAFETY: by the caller's contract.
    unsafe {
        (*out).memory_requirements = r;
        for s in chain_mut((*out).p_next) {
            if (*s).s_type == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                // Allocations are BOs of their own either way: no reason to prefer one.
                let d = &mut *(s as *mut vk::MemoryDedicatedRequirements<'static>);
                d.prefers_dedicated_allocation = vk::FALSE;
                d.requires_dedicated_allocation = vk::FALSE;
            }
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_buffer_memory_requirements(
    _d: vk::Device,
    b: vk::Buffer,
    out: *mut vk::MemoryRequirements,
) {
    guard("vkGetBufferMemoryRequirements", (), || {
        // SAFETY: live handle, valid out pointer.
        unsafe {
            if let Some(b) = buffer(b) {
                *out = requirements(b.size);
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_buffer_memory_requirements2(
    _d: vk::Device,
    info: *const vk::BufferMemoryRequirementsInfo2<'_>,
    out: *mut vk::MemoryRequirements2<'_>,
) {
    guard("vkGetBufferMemoryRequirements2", (), || {
        // SAFETY: valid per the specification.
        unsafe {
            let Some(b) = buffer((*info).buffer) else { return };
            fill_requirements2(requirements(b.size), out);
        }
    })
}

/// Vulkan 1.3 / VK_KHR_maintenance4: the requirements of a buffer not created yet, the
/// same function of the size as for a created one (the image variant is in image.rs).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_buffer_memory_requirements(
    _d: vk::Device,
    info: *const vk::DeviceBufferMemoryRequirements<'_>,
    out: *mut vk::MemoryRequirements2<'_>,
) {
    guard("vkGetDeviceBufferMemoryRequirements", (), || {
        // SAFETY: valid per the specification.
        unsafe {
            let ci = (*info).p_create_info;
            if ci.is_null() {
                return;
            }
            fill_requirements2(requirements((*ci).size), out);
        }
    })
}

fn bind(buf: vk::Buffer, mem: vk::DeviceMemory, offset: u64) -> Result<(), vk::Result> {
    // SAFETY: live handles, externally synchronised per the specification.
    let (b, m) = unsafe { (Buffer::from_handle(buf), DeviceMemory::from_handle(mem)) };
    let (Some(b), Some(m)) = (b, m) else { return Err(vk::Result::ERROR_UNKNOWN) };
    if offset + b.size > m.size {
        tracing::warn!(
            "vkBindBufferMemory: buffer of {} bytes at offset {offset} overruns {} bytes of memory",
            b.size,
            m.size
        );
    }
    b.bound = Some((m.bo.clone(), m.bo.va() + offset));
    Ok(())
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn bind_buffer_memory(
    _d: vk::Device,
    b: vk::Buffer,
    m: vk::DeviceMemory,
    offset: u64,
) -> vk::Result {
    guard("vkBindBufferMemory", vk::Result::ERROR_UNKNOWN, || code(bind(b, m, offset)))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn bind_buffer_memory2(
    _d: vk::Device,
    n: u32,
    infos: *const vk::BindBufferMemoryInfo<'_>,
) -> vk::Result {
    guard("vkBindBufferMemory2", vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: valid per the specification.
        for i in unsafe { slice(infos, n) } {
            if let Err(e) = bind(i.buffer, i.memory, i.memory_offset) {
                return e;
            }
        }
        vk::Result::SUCCESS
    })
}

/// VK_KHR_buffer_device_address: a buffer's GPU virtual address. Every allocation has one,
/// so `VkMemoryAllocateFlagsInfo`'s DEVICE_ADDRESS flag and the SHADER_DEVICE_ADDRESS
/// usage need nothing more.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_buffer_device_address(
    _d: vk::Device,
    info: *const vk::BufferDeviceAddressInfo<'_>,
) -> vk::DeviceAddress {
    guard("vkGetBufferDeviceAddressKHR", 0, || {
        // SAFETY: valid per the specification; a live buffer handle.
        unsafe { buffer((*info).buffer) }.map_or(0, |b| b.va(0))
    })
}

/// The opaque capture address of a buffer is its address (capture/replay, which would
/// need buffers at addresses the application chooses, is not reported).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_buffer_opaque_capture_address(
    d: vk::Device,
    info: *const vk::BufferDeviceAddressInfo<'_>,
) -> u64 {
    // SAFETY: same contract.
    unsafe { get_buffer_device_address(d, info) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_memory_opaque_capture_address(
    _d: vk::Device,
    info: *const vk::DeviceMemoryOpaqueCaptureAddressInfo<'_>,
) -> u64 {
    guard("vkGetDeviceMemoryOpaqueCaptureAddressKHR", 0, || {
        // SAFETY: valid per the specification; a live memory handle.
        unsafe { DeviceMemory::from_handle((*info).memory) }.map_or(0, |m| m.bo.va())
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::device::Device;

    /// The specification's order of memory types: a type whose flags are a strict subset of
    /// another's comes first; there is a HOST_VISIBLE | HOST_COHERENT type and a DEVICE_LOCAL
    /// one; budget usage follows allocations.
    #[test]
    fn memory_types_are_ordered_and_complete() {
        for (i, a) in TYPES.iter().enumerate() {
            for b in &TYPES[..i] {
                assert!(!(a.0 != b.0 && a.0 & b.0 == a.0), "type {a:?} must come before {b:?}");
            }
        }
        assert!(TYPES.iter().any(|t| t.0 == HV | HC));
        assert!(TYPES.iter().any(|t| t.0 & DL != 0 && t.1 == VRAM_HEAP));
        assert!(TYPES.iter().all(|t| (t.0 & DL != 0) == (t.1 == VRAM_HEAP)));
        assert_eq!(ALL_TYPES, 0x1f);
    }

    /// VK_KHR_buffer_device_address is not reported while the lowering lacks
    /// PhysicalStorageBuffer (`features::device_extensions` lists it once the table says so),
    /// but its commands work: called directly on an in-process device, as the loader would.
    #[test]
    fn buffer_device_address_is_where_the_gpu_sees_the_data() {
        // SAFETY: every call gets valid create infos and live handles, as Vulkan requires.
        unsafe {
            let mut instance = vk::Instance::null();
            let ii = vk::InstanceCreateInfo::default();
            assert_eq!(crate::instance::create_instance(&ii, std::ptr::null(), &mut instance), vk::Result::SUCCESS);
            let mut pd = vk::PhysicalDevice::null();
            let mut n = 1;
            assert_eq!(crate::instance::enumerate_physical_devices(instance, &mut n, &mut pd), vk::Result::SUCCESS);
            let prio = [1.0];
            let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&prio)];
            let di = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
            let mut device = vk::Device::null();
            assert_eq!(crate::device::create_device(pd, &di, std::ptr::null(), &mut device), vk::Result::SUCCESS);

            let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let ai =
                vk::MemoryAllocateInfo::default().allocation_size(1 << 16).memory_type_index(2).push_next(&mut flags);
            let mut mem = vk::DeviceMemory::null();
            assert_eq!(allocate_memory(device, &ai, std::ptr::null(), &mut mem), vk::Result::SUCCESS);
            let bi = vk::BufferCreateInfo::default()
                .size(256)
                .usage(vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS);
            let mut buf = vk::Buffer::null();
            assert_eq!(create_buffer(device, &bi, std::ptr::null(), &mut buf), vk::Result::SUCCESS);
            assert_eq!(bind_buffer_memory(device, buf, mem, 4096), vk::Result::SUCCESS);

            let info = vk::BufferDeviceAddressInfo::default().buffer(buf);
            let addr = get_buffer_device_address(device, &info);
            let mi = vk::DeviceMemoryOpaqueCaptureAddressInfo::default().memory(mem);
            let base = get_device_memory_opaque_capture_address(device, &mi);
            assert_ne!(addr, 0);
            assert_eq!(addr, base + 4096);
            assert_eq!(get_buffer_opaque_capture_address(device, &info), addr);

            // Bytes written through the host mapping are at that address in the GPU's view.
            let mut ptr = std::ptr::null_mut();
            assert_eq!(
                map_memory(device, mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty(), &mut ptr),
                vk::Result::SUCCESS
            );
            let pattern: Vec<u8> = (0..64u8).map(|i| i.wrapping_mul(37) ^ 0x5a).collect();
            std::ptr::copy_nonoverlapping(pattern.as_ptr(), (ptr as *mut u8).add(4096), pattern.len());
            let mut seen = vec![0u8; pattern.len()];
            let d = Device::from_handle(device).unwrap();
            d.shared.gpu.address_space().read(addr, &mut seen).unwrap();
            assert_eq!(seen, pattern);

            // Capture/replay is not offered.
            let replay =
                vk::BufferCreateInfo::default().size(256).flags(vk::BufferCreateFlags::DEVICE_ADDRESS_CAPTURE_REPLAY);
            let mut b2 = vk::Buffer::null();
            assert_eq!(
                create_buffer(device, &replay, std::ptr::null(), &mut b2),
                vk::Result::ERROR_FEATURE_NOT_PRESENT
            );

            destroy_buffer(device, buf, std::ptr::null());
            free_memory(device, mem, std::ptr::null());
            crate::device::destroy_device(device, std::ptr::null());
            crate::instance::destroy_instance(instance, std::ptr::null());
        }
    }
}
