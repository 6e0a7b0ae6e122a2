//! Descriptor set layouts, pools and sets. A set is a range of its pool's GPU memory
//! holding 16-byte V# buffer descriptors at the offsets `compiler_bridge::abi` computes;
//! shaders read them with scalar loads (docs/ABI.md). Dynamic buffers live in the kernarg
//! segment instead, so the set keeps them on the host until a bind supplies the offsets.

use std::sync::Arc;

use ash::vk;
use compiler_bridge::abi::{self, BindingLocation, DescriptorKind};
use parking_lot::Mutex;

use crate::device::{dev, DeviceShared};
use crate::handle::{destroy, guard, object, slice, Object};
use crate::memory::buffer;

pub fn kind(t: vk::DescriptorType) -> Option<DescriptorKind> {
    Some(match t {
        vk::DescriptorType::UNIFORM_BUFFER => DescriptorKind::UniformBuffer,
        vk::DescriptorType::STORAGE_BUFFER => DescriptorKind::StorageBuffer,
        vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC => DescriptorKind::UniformBufferDynamic,
        vk::DescriptorType::STORAGE_BUFFER_DYNAMIC => DescriptorKind::StorageBufferDynamic,
        vk::DescriptorType::UNIFORM_TEXEL_BUFFER if crate::features::api::BUFFER_VIEWS => {
            DescriptorKind::UniformTexelBuffer
        }
        vk::DescriptorType::STORAGE_TEXEL_BUFFER if crate::features::api::BUFFER_VIEWS => {
            DescriptorKind::StorageTexelBuffer
        }
        _ => return None,
    })
}

/// Whether descriptors of type `t` are buffer views (written from `pTexelBufferView`).
fn is_texel(t: vk::DescriptorType) -> bool {
    matches!(t, vk::DescriptorType::UNIFORM_TEXEL_BUFFER | vk::DescriptorType::STORAGE_TEXEL_BUFFER)
}

pub struct DescriptorSetLayout {
    pub abi: Arc<abi::SetLayout>,
}
object!(DescriptorSetLayout, vk::DescriptorSetLayout);

fn layout_from(info: &vk::DescriptorSetLayoutCreateInfo<'_>) -> Result<abi::SetLayout, String> {
    let mut bindings = Vec::new();
    // SAFETY: valid per the specification.
    for b in unsafe { slice(info.p_bindings, info.binding_count) } {
        let k = kind(b.descriptor_type)
            .ok_or_else(|| format!("descriptor type {:?} is not supported yet", b.descriptor_type))?;
        bindings.push(abi::Binding { binding: b.binding, kind: k, count: b.descriptor_count });
    }
    if !info.flags.is_empty() {
        return Err(format!("descriptor set layout flags {:?} are not supported yet", info.flags));
    }
    Ok(abi::SetLayout::new(bindings))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_descriptor_set_layout(
    _d: vk::Device,
    info: *const vk::DescriptorSetLayoutCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::DescriptorSetLayout,
) -> vk::Result {
    guard("vkCreateDescriptorSetLayout", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        match layout_from(unsafe { &*info }) {
            Ok(l) => {
                // SAFETY: out is valid per the specification.
                unsafe { *out = DescriptorSetLayout { abi: Arc::new(l) }.into_handle() };
                vk::Result::SUCCESS
            }
            Err(e) => {
                tracing::warn!("vkCreateDescriptorSetLayout: {e}");
                vk::Result::ERROR_FEATURE_NOT_PRESENT
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_descriptor_set_layout(
    _d: vk::Device,
    l: vk::DescriptorSetLayout,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<DescriptorSetLayout>("vkDestroyDescriptorSetLayout", l) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_descriptor_set_layout_support(
    _d: vk::Device,
    info: *const vk::DescriptorSetLayoutCreateInfo<'_>,
    out: *mut vk::DescriptorSetLayoutSupport<'_>,
) {
    guard("vkGetDescriptorSetLayoutSupport", (), || {
        // SAFETY: valid per the specification.
        unsafe { (*out).supported = layout_from(&*info).is_ok() as vk::Bool32 };
    })
}

/// A set's memory and host-side state.
pub struct DescriptorSet {
    pub layout: Arc<abi::SetLayout>,
    /// GPU address of the set's descriptors.
    pub va: u64,
    host: *mut u8,
    offset: u64,
    size: u64,
    /// Dynamic buffers: (address, range) per dynamic descriptor.
    pub dynamic: Vec<(u64, u64)>,
}
object!(DescriptorSet, vk::DescriptorSet);

struct PoolState {
    /// Free ranges of the pool memory (offset, size).
    free: Vec<(u64, u64)>,
    sets: Vec<vk::DescriptorSet>,
}

pub struct DescriptorPool {
    bo: Arc<gpu::mem::Bo>,
    can_free: bool,
    max_sets: u32,
    state: Mutex<PoolState>,
    dev: Arc<DeviceShared>,
}
object!(DescriptorPool, vk::DescriptorPool);

impl DescriptorPool {
    fn reset(&self) {
        let mut s = self.state.lock();
        for set in s.sets.drain(..) {
            // SAFETY: the pool owns its sets; resetting frees them.
            drop(unsafe { DescriptorSet::destroy(set) });
        }
        s.free = vec![(0, self.bo.size())];
    }

    fn alloc(&self, size: u64) -> Option<u64> {
        let mut s = self.state.lock();
        if s.sets.len() as u32 >= self.max_sets {
            return None;
        }
        let size = size.max(abi::ALIGN as u64);
        let i = s.free.iter().position(|&(_, len)| len >= size)?;
        let (off, len) = s.free[i];
        if len == size {
            s.free.remove(i);
        } else {
            s.free[i] = (off + size, len - size);
        }
        Some(off)
    }

    fn release(&self, off: u64, size: u64) {
        let size = size.max(abi::ALIGN as u64);
        let mut s = self.state.lock();
        s.free.push((off, size));
        s.free.sort_unstable();
        // Merge neighbours so that large sets fit again.
        let mut merged: Vec<(u64, u64)> = Vec::with_capacity(s.free.len());
        for &(o, l) in &s.free {
            match merged.last_mut() {
                Some((mo, ml)) if *mo + *ml == o => *ml += l,
                _ => merged.push((o, l)),
            }
        }
        s.free = merged;
    }
}

impl Drop for DescriptorPool {
    fn drop(&mut self) {
        self.reset();
        self.dev.gpu.free(&self.bo);
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_descriptor_pool(
    device: vk::Device,
    info: *const vk::DescriptorPoolCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::DescriptorPool,
) -> vk::Result {
    guard("vkCreateDescriptorPool", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let d = dev(device);
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let mut bytes = info.max_sets as u64 * abi::ALIGN as u64;
        // SAFETY: valid per the specification.
        for s in unsafe { slice(info.p_pool_sizes, info.pool_size_count) } {
            bytes += s.descriptor_count as u64 * abi::BUFFER_DESCRIPTOR_SIZE as u64;
        }
        let Ok(bo) = d.shared.gpu.alloc(bytes.max(abi::ALIGN as u64), 0) else {
            return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
        };
        let free = vec![(0, bo.size())];
        let pool = DescriptorPool {
            bo,
            can_free: info.flags.contains(vk::DescriptorPoolCreateFlags::FREE_DESCRIPTOR_SET),
            max_sets: info.max_sets,
            state: Mutex::new(PoolState { free, sets: Vec::new() }),
            dev: d.shared.clone(),
        };
        // SAFETY: out is valid per the specification.
        unsafe { *out = pool.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_descriptor_pool(
    _d: vk::Device,
    p: vk::DescriptorPool,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<DescriptorPool>("vkDestroyDescriptorPool", p) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn reset_descriptor_pool(
    _d: vk::Device,
    p: vk::DescriptorPool,
    _f: vk::DescriptorPoolResetFlags,
) -> vk::Result {
    guard("vkResetDescriptorPool", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a live pool handle.
        if let Some(p) = unsafe { DescriptorPool::from_handle(p) } {
            p.reset();
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn allocate_descriptor_sets(
    _d: vk::Device,
    info: *const vk::DescriptorSetAllocateInfo<'_>,
    out: *mut vk::DescriptorSet,
) -> vk::Result {
    guard("vkAllocateDescriptorSets", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        // SAFETY: a live pool handle.
        let Some(pool) = (unsafe { DescriptorPool::from_handle(info.descriptor_pool) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        // SAFETY: valid per the specification.
        let layouts = unsafe { slice(info.p_set_layouts, info.descriptor_set_count) };
        let mut made = Vec::new();
        for &l in layouts {
            // SAFETY: live layout handles.
            let Some(l) = (unsafe { DescriptorSetLayout::from_handle(l) }) else { return vk::Result::ERROR_UNKNOWN };
            let size = l.abi.size() as u64;
            let Some(off) = pool.alloc(size) else {
                // Undo the sets made so far: the call allocates all or none.
                for s in made {
                    // SAFETY: handles made just above.
                    if let Some(set) = unsafe { DescriptorSet::destroy(s) } {
                        pool.release(set.offset, set.size);
                    }
                }
                return vk::Result::ERROR_OUT_OF_POOL_MEMORY;
            };
            let set = DescriptorSet {
                layout: l.abi.clone(),
                va: pool.bo.va() + off,
                // SAFETY: off + size is inside the pool BO.
                host: unsafe { pool.bo.host_ptr().add(off as usize) },
                offset: off,
                size,
                dynamic: vec![(0, 0); l.abi.dynamic_count() as usize],
            };
            // SAFETY: the set's memory range is ours; descriptors start out null.
            unsafe { std::ptr::write_bytes(set.host, 0, size as usize) };
            made.push(set.into_handle());
        }
        let mut st = pool.state.lock();
        for (i, &h) in made.iter().enumerate() {
            st.sets.push(h);
            // SAFETY: out has room for descriptor_set_count handles.
            unsafe { *out.add(i) = h };
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn free_descriptor_sets(
    _d: vk::Device,
    p: vk::DescriptorPool,
    n: u32,
    sets: *const vk::DescriptorSet,
) -> vk::Result {
    guard("vkFreeDescriptorSets", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a live pool handle.
        let Some(pool) = (unsafe { DescriptorPool::from_handle(p) }) else { return vk::Result::ERROR_UNKNOWN };
        if !pool.can_free {
            tracing::warn!("vkFreeDescriptorSets on a pool without FREE_DESCRIPTOR_SET_BIT");
        }
        // SAFETY: valid per the specification.
        for &s in unsafe { slice(sets, n) } {
            pool.state.lock().sets.retain(|&x| x != s);
            // SAFETY: the application no longer uses the set.
            if let Some(set) = unsafe { DescriptorSet::destroy(s) } {
                pool.release(set.offset, set.size);
            }
        }
        vk::Result::SUCCESS
    })
}

impl DescriptorSet {
    /// The device address of every buffer descriptor of the set, bindings in increasing
    /// number and array elements in order (what an external code object's `global_buffer`
    /// arguments receive). `dynamic` holds the dynamic buffers with their offsets applied.
    pub fn buffer_addresses(&self, dynamic: &[(u64, u64)]) -> Vec<u64> {
        let mut out = Vec::new();
        for b in self.layout.bindings() {
            for e in 0..b.count {
                let va = match self.locate(b.binding, e) {
                    Some(BindingLocation::SetMemory(off)) => {
                        // SAFETY: off + 16 <= the set's size (the layout computed it).
                        let (w0, w1) = unsafe {
                            let p = self.host.add(off as usize) as *const u32;
                            (p.read_unaligned(), p.add(1).read_unaligned())
                        };
                        w0 as u64 | ((w1 & 0xffff) as u64) << 32
                    }
                    Some(BindingLocation::Dynamic(i)) => dynamic.get(i as usize).map_or(0, |d| d.0),
                    None => 0,
                };
                out.push(va);
            }
        }
        out
    }

    /// Resolves (binding, element) to a location, moving on to the next bindings when the
    /// element runs past the binding's count (as consecutive-binding updates require).
    fn locate(&self, mut binding: u32, mut element: u32) -> Option<BindingLocation> {
        loop {
            let (b, loc) = self.layout.binding(binding)?;
            if element < b.count {
                return Some(match loc {
                    BindingLocation::SetMemory(off) => {
                        BindingLocation::SetMemory(off + element * abi::BUFFER_DESCRIPTOR_SIZE)
                    }
                    BindingLocation::Dynamic(i) => BindingLocation::Dynamic(i + element),
                });
            }
            element -= b.count;
            let next = self.layout.bindings().iter().find(|x| x.binding > binding)?;
            binding = next.binding;
        }
    }

    fn write_buffer(&mut self, binding: u32, element: u32, info: &vk::DescriptorBufferInfo) {
        // SAFETY: a live buffer handle (or null descriptor).
        let (va, range) = match unsafe { buffer(info.buffer) } {
            Some(b) => {
                let range = if info.range == vk::WHOLE_SIZE { b.size.saturating_sub(info.offset) } else { info.range };
                (b.va(info.offset), range)
            }
            None => (0, 0),
        };
        match self.locate(binding, element) {
            Some(BindingLocation::SetMemory(off)) => {
                // Range rounded up to a dword, like RADV, so a dword access at the end fits.
                let records = (range.div_ceil(4) * 4).min(u32::MAX as u64) as u32;
                let v = gpu::rsrc::BufferResource::raw(va, records).encode();
                for (k, w) in v.iter().enumerate() {
                    // SAFETY: off + 16 <= the set's size (the layout computed it).
                    unsafe { (self.host.add(off as usize + 4 * k) as *mut u32).write_unaligned(*w) };
                }
            }
            Some(BindingLocation::Dynamic(i)) => {
                if let Some(d) = self.dynamic.get_mut(i as usize) {
                    *d = (va, range);
                }
            }
            None => tracing::warn!("descriptor update of binding {binding} element {element}: no such binding"),
        }
    }

    /// Writes the V# of buffer view `view` (texel buffer descriptors, view.rs).
    fn write_texel(&mut self, binding: u32, element: u32, view: vk::BufferView) {
        // SAFETY: a live buffer view handle (or null descriptor).
        let v = unsafe { crate::view::view_vsharp(view) };
        match self.locate(binding, element) {
            Some(BindingLocation::SetMemory(off)) => {
                for (k, w) in v.iter().enumerate() {
                    // SAFETY: off + 16 <= the set's size (the layout computed it).
                    unsafe { (self.host.add(off as usize + 4 * k) as *mut u32).write_unaligned(*w) };
                }
            }
            _ => {
                tracing::warn!("texel buffer descriptor update of binding {binding} element {element}: no such binding")
            }
        }
    }

    fn copy_from(&mut self, src: &DescriptorSet, sb: u32, se: u32, db: u32, de: u32) {
        match (src.locate(sb, se), self.locate(db, de)) {
            (Some(BindingLocation::SetMemory(s)), Some(BindingLocation::SetMemory(d))) => {
                // SAFETY: both ranges are inside their sets; copy handles overlap (same set).
                unsafe {
                    std::ptr::copy(
                        src.host.add(s as usize),
                        self.host.add(d as usize),
                        abi::BUFFER_DESCRIPTOR_SIZE as usize,
                    )
                };
            }
            (Some(BindingLocation::Dynamic(s)), Some(BindingLocation::Dynamic(d))) => {
                let v = src.dynamic.get(s as usize).copied().unwrap_or((0, 0));
                if let Some(x) = self.dynamic.get_mut(d as usize) {
                    *x = v;
                }
            }
            _ => tracing::warn!("vkUpdateDescriptorSets: copy between incompatible bindings"),
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn update_descriptor_sets(
    _d: vk::Device,
    nw: u32,
    writes: *const vk::WriteDescriptorSet<'_>,
    nc: u32,
    copies: *const vk::CopyDescriptorSet<'_>,
) {
    guard("vkUpdateDescriptorSets", (), || {
        // SAFETY: valid per the specification.
        for w in unsafe { slice(writes, nw) } {
            // SAFETY: a live set handle, externally synchronised.
            let Some(set) = (unsafe { DescriptorSet::from_handle(w.dst_set) }) else { continue };
            if kind(w.descriptor_type).is_none() {
                tracing::warn!("vkUpdateDescriptorSets: descriptor type {:?} is not supported", w.descriptor_type);
                continue;
            }
            if is_texel(w.descriptor_type) {
                // SAFETY: valid per the specification for texel buffer descriptor types.
                for (i, &v) in unsafe { slice(w.p_texel_buffer_view, w.descriptor_count) }.iter().enumerate() {
                    set.write_texel(w.dst_binding, w.dst_array_element + i as u32, v);
                }
                continue;
            }
            // SAFETY: valid per the specification for buffer descriptor types.
            for (i, bi) in unsafe { slice(w.p_buffer_info, w.descriptor_count) }.iter().enumerate() {
                set.write_buffer(w.dst_binding, w.dst_array_element + i as u32, bi);
            }
        }
        // SAFETY: valid per the specification.
        for c in unsafe { slice(copies, nc) } {
            // SAFETY: live set handles.
            let (Some(src), Some(dst)) =
                (unsafe { DescriptorSet::from_handle(c.src_set) }, unsafe { DescriptorSet::from_handle(c.dst_set) })
            else {
                continue;
            };
            let src: &DescriptorSet = src;
            for k in 0..c.descriptor_count {
                // Same-set copies read through a raw pointer: ranges never overlap by the spec.
                let src_ptr = src as *const DescriptorSet;
                // SAFETY: src stays valid; dst is the externally synchronised destination.
                dst.copy_from(
                    unsafe { &*src_ptr },
                    c.src_binding,
                    c.src_array_element + k,
                    c.dst_binding,
                    c.dst_array_element + k,
                );
            }
        }
    })
}

/// A descriptor update template: where in the application's data each descriptor is.
pub struct DescriptorUpdateTemplate {
    entries: Vec<vk::DescriptorUpdateTemplateEntry>,
}
object!(DescriptorUpdateTemplate, vk::DescriptorUpdateTemplate);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_descriptor_update_template(
    _d: vk::Device,
    info: *const vk::DescriptorUpdateTemplateCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::DescriptorUpdateTemplate,
) -> vk::Result {
    guard("vkCreateDescriptorUpdateTemplate", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        if info.template_type != vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET {
            tracing::warn!("vkCreateDescriptorUpdateTemplate: push descriptor templates are not supported");
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        // SAFETY: valid per the specification.
        let entries = unsafe { slice(info.p_descriptor_update_entries, info.descriptor_update_entry_count) }.to_vec();
        if let Some(e) = entries.iter().find(|e| kind(e.descriptor_type).is_none()) {
            tracing::warn!(
                "vkCreateDescriptorUpdateTemplate: descriptor type {:?} is not supported",
                e.descriptor_type
            );
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        // SAFETY: out is valid per the specification.
        unsafe { *out = DescriptorUpdateTemplate { entries }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_descriptor_update_template(
    _d: vk::Device,
    t: vk::DescriptorUpdateTemplate,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<DescriptorUpdateTemplate>("vkDestroyDescriptorUpdateTemplate", t) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn update_descriptor_set_with_template(
    _d: vk::Device,
    set: vk::DescriptorSet,
    t: vk::DescriptorUpdateTemplate,
    data: *const std::ffi::c_void,
) {
    guard("vkUpdateDescriptorSetWithTemplate", (), || {
        // SAFETY: live handles, externally synchronised.
        let (Some(set), Some(t)) =
            (unsafe { DescriptorSet::from_handle(set) }, unsafe { DescriptorUpdateTemplate::from_handle(t) })
        else {
            return;
        };
        for e in &t.entries {
            for i in 0..e.descriptor_count as usize {
                if is_texel(e.descriptor_type) {
                    // SAFETY: the application's data holds a VkBufferView here.
                    let v = unsafe { *((data as *const u8).add(e.offset + i * e.stride) as *const vk::BufferView) };
                    set.write_texel(e.dst_binding, e.dst_array_element + i as u32, v);
                    continue;
                }
                // SAFETY: the application's data holds a VkDescriptorBufferInfo here.
                let bi =
                    unsafe { &*((data as *const u8).add(e.offset + i * e.stride) as *const vk::DescriptorBufferInfo) };
                set.write_buffer(e.dst_binding, e.dst_array_element + i as u32, bi);
            }
        }
    })
}
