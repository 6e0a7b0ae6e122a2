//! VkDeviceMemory and VkBuffer: device memory is a winsys buffer object in the GPU
//! address space; buffers are ranges of it. All memory is host memory and coherent, so
//! every memory type may be mapped.

use std::sync::Arc;

use ash::vk;

use crate::device::{dev, DeviceShared};
use crate::handle::{chain, chain_mut, code, destroy, guard, object, slice, Object};

/// Memory types, ordered as the specification requires (a type whose flags are a subset
/// of another's comes first).
const TYPES: [vk::MemoryPropertyFlags; 3] = [
    vk::MemoryPropertyFlags::DEVICE_LOCAL,
    vk::MemoryPropertyFlags::from_raw(
        vk::MemoryPropertyFlags::DEVICE_LOCAL.as_raw()
            | vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw()
            | vk::MemoryPropertyFlags::HOST_COHERENT.as_raw(),
    ),
    vk::MemoryPropertyFlags::from_raw(
        vk::MemoryPropertyFlags::DEVICE_LOCAL.as_raw()
            | vk::MemoryPropertyFlags::HOST_VISIBLE.as_raw()
            | vk::MemoryPropertyFlags::HOST_COHERENT.as_raw()
            | vk::MemoryPropertyFlags::HOST_CACHED.as_raw(),
    ),
];
const ALL_TYPES: u32 = (1 << TYPES.len()) - 1;

pub fn memory_properties(info: &gpu::ChipInfo) -> vk::PhysicalDeviceMemoryProperties {
    let mut p = vk::PhysicalDeviceMemoryProperties {
        memory_type_count: TYPES.len() as u32,
        memory_heap_count: 1,
        ..Default::default()
    };
    for (i, &f) in TYPES.iter().enumerate() {
        p.memory_types[i] = vk::MemoryType { property_flags: f, heap_index: 0 };
    }
    p.memory_heaps[0] = vk::MemoryHeap { size: info.memory_size, flags: vk::MemoryHeapFlags::DEVICE_LOCAL };
    p
}

pub struct DeviceMemory {
    pub bo: Arc<gpu::mem::Bo>,
    pub size: u64,
    dev: Arc<DeviceShared>,
}
object!(DeviceMemory, vk::DeviceMemory);

impl Drop for DeviceMemory {
    fn drop(&mut self) {
        self.dev.gpu.free(&self.bo);
    }
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
        if info.memory_type_index as usize >= TYPES.len() {
            return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
        }
        // SAFETY: the chain is valid per the specification.
        for s in unsafe { chain(info.p_next) } {
            // SAFETY: reading the header only.
            let t = unsafe { (*s).s_type };
            if t != vk::StructureType::MEMORY_DEDICATED_ALLOCATE_INFO
                && t != vk::StructureType::MEMORY_ALLOCATE_FLAGS_INFO
            {
                tracing::warn!("vkAllocateMemory: ignoring {t:?} in pNext");
            }
        }
        match d.shared.gpu.alloc(info.allocation_size, 0) {
            Ok(bo) => {
                // SAFETY: out is valid per the specification.
                unsafe { *out = DeviceMemory { bo, size: info.allocation_size, dev: d.shared.clone() }.into_handle() };
                vk::Result::SUCCESS
            }
            Err(e) => {
                tracing::warn!("vkAllocateMemory: {e}");
                vk::Result::ERROR_OUT_OF_DEVICE_MEMORY
            }
        }
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

/// All memory is coherent: flushes and invalidations have nothing to do.
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

fn requirements(b: &Buffer) -> vk::MemoryRequirements {
    vk::MemoryRequirements { size: b.size.div_ceil(4) * 4, alignment: 16, memory_type_bits: ALL_TYPES }
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
                *out = requirements(b);
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
            (*out).memory_requirements = requirements(b);
            for s in chain_mut((*out).p_next) {
                if (*s).s_type == vk::StructureType::MEMORY_DEDICATED_REQUIREMENTS {
                    let d = &mut *(s as *mut vk::MemoryDedicatedRequirements<'static>);
                    d.prefers_dedicated_allocation = vk::FALSE;
                    d.requires_dedicated_allocation = vk::FALSE;
                }
            }
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
                vk::MemoryAllocateInfo::default().allocation_size(1 << 16).memory_type_index(0).push_next(&mut flags);
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
