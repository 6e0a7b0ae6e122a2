//! Descriptor set layouts, pools and sets. A set is a range of its pool's GPU memory
//! holding 16-byte V# buffer descriptors at the offsets `compiler_bridge::abi` computes;
//! shaders read them with scalar loads (docs/ABI.md). Dynamic buffers live in the kernarg
//! segment instead, so the set keeps them on the host until a bind supplies the offsets.

use std::sync::Arc;

use ash::vk;
use compiler_bridge::abi::{self, BindingLocation, DescriptorKind};
use parking_lot::Mutex;

use crate::device::{dev, DeviceShared};
use crate::features::api;
use crate::handle::{chain, chain_mut, destroy, guard, object, slice, Object};
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
        vk::DescriptorType::SAMPLER if api::SAMPLERS => DescriptorKind::Sampler,
        vk::DescriptorType::COMBINED_IMAGE_SAMPLER if api::SAMPLERS => DescriptorKind::CombinedImageSampler,
        vk::DescriptorType::SAMPLED_IMAGE if api::SAMPLERS => DescriptorKind::SampledImage,
        vk::DescriptorType::STORAGE_IMAGE => DescriptorKind::StorageImage,
        vk::DescriptorType::INPUT_ATTACHMENT => DescriptorKind::InputAttachment,
        _ => return None,
    })
}

/// Whether descriptors of type `t` are buffer views (written from `pTexelBufferView`).
pub fn is_texel(t: vk::DescriptorType) -> bool {
    matches!(t, vk::DescriptorType::UNIFORM_TEXEL_BUFFER | vk::DescriptorType::STORAGE_TEXEL_BUFFER)
}

/// Whether descriptors of type `t` are written from `pImageInfo`.
pub fn is_image(t: vk::DescriptorType) -> bool {
    matches!(
        t,
        vk::DescriptorType::SAMPLER
            | vk::DescriptorType::COMBINED_IMAGE_SAMPLER
            | vk::DescriptorType::SAMPLED_IMAGE
            | vk::DescriptorType::STORAGE_IMAGE
            | vk::DescriptorType::INPUT_ATTACHMENT
    )
}

/// The S#s of a layout's immutable samplers, per binding number. Sets hold them from
/// allocation on (and push descriptor images from their first push); writes leave them.
pub type Immutable = std::collections::HashMap<u32, Vec<[u32; 4]>>;
/// Descriptors one set may hold (`maxPerSetDescriptors`; every `maxUpdateAfterBind*`
/// limit is the same: set memory is read when a dispatch runs, whatever the flags).
use crate::instance::{MAX_DESCRIPTORS as MAX_PER_SET_DESCRIPTORS, MAX_PUSH_DESCRIPTORS};

pub struct DescriptorSetLayout {
    pub abi: Arc<abi::SetLayout>,
    pub immutable: Arc<Immutable>,
    /// The binding created with VARIABLE_DESCRIPTOR_COUNT (the highest-numbered one).
    variable: Option<u32>,
}
object!(DescriptorSetLayout, vk::DescriptorSetLayout);

/// Binding flags this implementation honours: set memory is read when a dispatch runs, so
/// updates after bind are seen; unwritten descriptors are null V#s (partially bound).
fn known_binding_flags() -> vk::DescriptorBindingFlags {
    if api::DESCRIPTOR_INDEXING {
        vk::DescriptorBindingFlags::UPDATE_AFTER_BIND
            | vk::DescriptorBindingFlags::UPDATE_UNUSED_WHILE_PENDING
            | vk::DescriptorBindingFlags::PARTIALLY_BOUND
            | vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT
    } else {
        vk::DescriptorBindingFlags::empty()
    }
}

fn known_layout_flags() -> vk::DescriptorSetLayoutCreateFlags {
    let mut f = vk::DescriptorSetLayoutCreateFlags::empty();
    if api::DESCRIPTOR_INDEXING {
        f |= vk::DescriptorSetLayoutCreateFlags::UPDATE_AFTER_BIND_POOL;
    }
    if api::PUSH_DESCRIPTOR {
        f |= vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR;
    }
    f
}

fn layout_from(info: &vk::DescriptorSetLayoutCreateInfo<'_>) -> Result<DescriptorSetLayout, String> {
    let unknown = info.flags & !known_layout_flags();
    if !unknown.is_empty() {
        return Err(format!("descriptor set layout flags {unknown:?} are not supported"));
    }
    let push = info.flags.contains(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR);
    let mut binding_flags: &[vk::DescriptorBindingFlags] = &[];
    // SAFETY: a valid pNext chain per the specification.
    for s in unsafe { chain(info.p_next) } {
        // SAFETY: s is a valid structure of a chain.
        if unsafe { (*s).s_type } == vk::StructureType::DESCRIPTOR_SET_LAYOUT_BINDING_FLAGS_CREATE_INFO {
            // SAFETY: the structure type says what it is.
            let f = unsafe { &*(s as *const vk::DescriptorSetLayoutBindingFlagsCreateInfo<'_>) };
            // SAFETY: valid per the specification (binding_count is 0 or the layout's).
            binding_flags = unsafe { slice(f.p_binding_flags, f.binding_count) };
        }
    }
    let mut bindings = Vec::new();
    let mut immutable = Immutable::new();
    let mut variable = None;
    let mut total = 0u64;
    // SAFETY: valid per the specification.
    for (i, b) in unsafe { slice(info.p_bindings, info.binding_count) }.iter().enumerate() {
        let k = kind(b.descriptor_type)
            .ok_or_else(|| format!("descriptor type {:?} is not supported yet", b.descriptor_type))?;
        let flags = binding_flags.get(i).copied().unwrap_or_default();
        let unknown = flags & !known_binding_flags();
        if !unknown.is_empty() {
            return Err(format!("binding {} flags {unknown:?} are not supported", b.binding));
        }
        // VUID-VkDescriptorSetLayoutBindingFlagsCreateInfo-None-03015 and -03011: dynamic
        // buffers have a fixed count and are never updated after binding; partially bound
        // (unused elements need no valid descriptor) holds for them as for any binding.
        let not_dynamic =
            vk::DescriptorBindingFlags::UPDATE_AFTER_BIND | vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT;
        if k.is_dynamic() && flags.intersects(not_dynamic) {
            return Err(format!("binding {}: dynamic buffers take no {:?}", b.binding, flags & not_dynamic));
        }
        if push && k.is_dynamic() {
            return Err(format!("binding {}: push descriptor layouts hold no dynamic buffers", b.binding));
        }
        if flags.contains(vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT) {
            if push {
                return Err("push descriptor layouts have no variable-count binding".into());
            }
            variable = Some(b.binding);
        }
        total += u64::from(b.descriptor_count);
        let takes_samplers = matches!(k, DescriptorKind::Sampler | DescriptorKind::CombinedImageSampler);
        if takes_samplers && !b.p_immutable_samplers.is_null() {
            // SAFETY: descriptor_count samplers, per the specification.
            let samplers = unsafe { slice(b.p_immutable_samplers, b.descriptor_count) };
            // SAFETY: live sampler handles.
            immutable
                .insert(b.binding, samplers.iter().map(|&h| unsafe { crate::image::sampler_descriptor(h) }).collect());
        }
        bindings.push(abi::Binding { binding: b.binding, kind: k, count: b.descriptor_count });
    }
    if let Some(v) = variable {
        if bindings.iter().any(|b| b.binding > v) {
            return Err(format!("the variable-count binding {v} is not the highest-numbered binding"));
        }
    }
    if total > u64::from(MAX_PER_SET_DESCRIPTORS) {
        return Err(format!("{total} descriptors exceed maxPerSetDescriptors ({MAX_PER_SET_DESCRIPTORS})"));
    }
    if push && total > u64::from(MAX_PUSH_DESCRIPTORS) {
        return Err(format!("{total} push descriptors exceed maxPushDescriptors ({MAX_PUSH_DESCRIPTORS})"));
    }
    Ok(DescriptorSetLayout { abi: Arc::new(abi::SetLayout::new(bindings)), immutable: Arc::new(immutable), variable })
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
                unsafe { *out = l.into_handle() };
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
        let layout = layout_from(unsafe { &*info });
        // SAFETY: out and its chain are valid per the specification.
        unsafe {
            (*out).supported = layout.is_ok() as vk::Bool32;
            for s in chain_mut((*out).p_next) {
                if (*s).s_type == vk::StructureType::DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_LAYOUT_SUPPORT {
                    let v = &mut *(s as *mut vk::DescriptorSetVariableDescriptorCountLayoutSupport<'_>);
                    // The variable binding may grow to what the other bindings leave of the set.
                    v.max_variable_descriptor_count = match &layout {
                        Ok(DescriptorSetLayout { abi, variable: Some(var), .. }) => {
                            let others: u32 =
                                abi.bindings().iter().filter(|b| b.binding != *var).map(|b| b.count).sum();
                            MAX_PER_SET_DESCRIPTORS.saturating_sub(others)
                        }
                        _ => 0,
                    };
                }
            }
        }
    })
}

/// A set's memory and host-side state.
pub struct DescriptorSet {
    pub layout: Arc<abi::SetLayout>,
    immutable: Arc<Immutable>,
    /// GPU address of the set's descriptors.
    pub va: u64,
    host: *mut u8,
    offset: u64,
    size: u64,
    /// Dynamic buffers: (address, range, range is VK_WHOLE_SIZE) per dynamic descriptor.
    pub dynamic: Vec<(u64, u64, bool)>,
    /// The variable-count binding and the count this set was allocated with.
    variable: Option<(u32, u32)>,
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
            let size = kind(s.ty).map_or(abi::BUFFER_DESCRIPTOR_SIZE, DescriptorKind::size);
            bytes += s.descriptor_count as u64 * size as u64;
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
        let mut counts: &[u32] = &[];
        // SAFETY: a valid pNext chain per the specification.
        for s in unsafe { chain(info.p_next) } {
            // SAFETY: s is a valid structure of a chain.
            if unsafe { (*s).s_type } == vk::StructureType::DESCRIPTOR_SET_VARIABLE_DESCRIPTOR_COUNT_ALLOCATE_INFO {
                // SAFETY: the structure type says what it is.
                let v = unsafe { &*(s as *const vk::DescriptorSetVariableDescriptorCountAllocateInfo<'_>) };
                // SAFETY: valid per the specification (0 or descriptor_set_count counts).
                counts = unsafe { slice(v.p_descriptor_counts, v.descriptor_set_count) };
            }
        }
        let mut made = Vec::new();
        for (i, &l) in layouts.iter().enumerate() {
            // SAFETY: live layout handles.
            let Some(l) = (unsafe { DescriptorSetLayout::from_handle(l) }) else { return vk::Result::ERROR_UNKNOWN };
            // A variable-count binding is the highest one, so its descriptors end the set's
            // memory: a smaller count just shortens the set.
            let variable = l.variable.map(|b| {
                let max = l.abi.binding(b).map_or(0, |(x, _)| x.count);
                (b, counts.get(i).copied().unwrap_or(0).min(max))
            });
            let unused = match variable {
                Some((b, n)) => match l.abi.binding(b) {
                    Some((x, BindingLocation::SetMemory(_))) => (x.count - n) * x.kind.size(),
                    _ => 0,
                },
                None => 0,
            };
            let size = (l.abi.size() - unused) as u64;
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
            let mut set = DescriptorSet {
                layout: l.abi.clone(),
                immutable: l.immutable.clone(),
                va: pool.bo.va() + off,
                // SAFETY: off + size is inside the pool BO.
                host: unsafe { pool.bo.host_ptr().add(off as usize) },
                offset: off,
                size,
                dynamic: vec![(0, 0, false); l.abi.dynamic_count() as usize],
                variable,
            };
            // SAFETY: the set's memory range is ours; descriptors start out null.
            unsafe { std::ptr::write_bytes(set.host, 0, size as usize) };
            let (layout, immutable) = (set.layout.clone(), set.immutable.clone());
            write_immutable(&layout, &immutable, set.variable, set.mem());
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

/// Resolves (binding, element) of a set of `layout` to a location, moving on to the next
/// bindings when the element runs past the binding's count (as consecutive-binding updates
/// require). `variable` is the variable-count binding and its allocated count.
fn locate(
    layout: &abi::SetLayout,
    variable: Option<(u32, u32)>,
    mut binding: u32,
    mut element: u32,
) -> Option<(BindingLocation, abi::Binding, u32)> {
    loop {
        let (b, loc) = layout.binding(binding)?;
        let count = match variable {
            Some((v, n)) if v == binding => n,
            _ => b.count,
        };
        if element < count {
            let at = match loc {
                BindingLocation::SetMemory(off) => BindingLocation::SetMemory(off + element * b.kind.size()),
                BindingLocation::Dynamic(i) => BindingLocation::Dynamic(i + element),
            };
            return Some((at, b, element));
        }
        element -= count;
        let next = layout.bindings().iter().find(|x| x.binding > binding)?;
        binding = next.binding;
    }
}

/// A buffer descriptor's (address, range): `VK_WHOLE_SIZE` resolved, null buffer (0, 0).
fn buffer_range(info: &vk::DescriptorBufferInfo) -> (u64, u64) {
    // SAFETY: a live buffer handle (or a null descriptor).
    match unsafe { buffer(info.buffer) } {
        Some(b) => {
            let range = if info.range == vk::WHOLE_SIZE { b.size.saturating_sub(info.offset) } else { info.range };
            (b.va(info.offset), range)
        }
        None => (0, 0),
    }
}

/// One descriptor of an update: a buffer range, a buffer view (texel buffers), or an
/// image view and sampler (the image and sampler types).
pub enum Item {
    Buffer(vk::DescriptorBufferInfo),
    Texel(vk::BufferView),
    Image(vk::DescriptorImageInfo),
}

/// Copies `words` into `mem` at `off`, or says why not.
fn put(mem: &mut [u8], off: u32, words: &[u32], what: &str) {
    let Some(dst) = mem.get_mut(off as usize..off as usize + 4 * words.len()) else {
        tracing::warn!("{what}: outside the set's memory");
        return;
    };
    for (d, w) in dst.chunks_exact_mut(4).zip(words) {
        d.copy_from_slice(&w.to_le_bytes());
    }
}

/// Writes the S#s of every immutable sampler of `layout` into `mem` (a set's memory or a
/// push descriptor image).
pub fn write_immutable(layout: &abi::SetLayout, immutable: &Immutable, variable: Option<(u32, u32)>, mem: &mut [u8]) {
    for (&binding, samplers) in immutable {
        for (e, s) in samplers.iter().enumerate() {
            if let Some((BindingLocation::SetMemory(off), b, _)) = locate(layout, variable, binding, e as u32) {
                let at = if b.kind == DescriptorKind::Sampler { off } else { off + abi::COMBINED_SAMPLER_OFFSET };
                put(mem, at, s, "immutable sampler");
            }
        }
    }
}

/// Writes descriptor (binding, element) into `mem`, the memory of a set of `layout` (a
/// set's, or a command buffer's push descriptor image), or its dynamic slot.
pub fn write_descriptor(
    (layout, immutable, variable): (&abi::SetLayout, &Immutable, Option<(u32, u32)>),
    mem: &mut [u8],
    dynamic: &mut [(u64, u64, bool)],
    (binding, element): (u32, u32),
    item: Item,
) {
    let what = format!("descriptor update of binding {binding} element {element}");
    let Some((loc, b, e)) = locate(layout, variable, binding, element) else {
        tracing::warn!("{what}: no such binding");
        return;
    };
    match (item, loc) {
        (Item::Buffer(info), BindingLocation::Dynamic(i)) => {
            let (va, range) = buffer_range(&info);
            if let Some(d) = dynamic.get_mut(i as usize) {
                *d = (va, range, info.range == vk::WHOLE_SIZE);
            }
        }
        (Item::Buffer(info), BindingLocation::SetMemory(off)) => {
            let (va, range) = buffer_range(&info);
            // Range rounded up to a dword, like RADV, so a dword access at the end fits.
            let records = (range.div_ceil(4) * 4).min(u32::MAX as u64) as u32;
            put(mem, off, &gpu::rsrc::BufferResource::raw(va, records).encode(), &what);
        }
        // SAFETY: a live buffer view handle (or a null descriptor).
        (Item::Texel(v), BindingLocation::SetMemory(off)) => {
            put(mem, off, &unsafe { crate::view::view_vsharp(v) }, &what)
        }
        (Item::Image(info), BindingLocation::SetMemory(off)) => {
            let fixed = immutable.get(&b.binding).is_some_and(|s| (e as usize) < s.len());
            if b.kind != DescriptorKind::Sampler {
                // SAFETY: a live image view handle (or a null descriptor).
                put(mem, off, &unsafe { crate::image::view_descriptor(info.image_view) }, &what);
            }
            let sampler_at = match b.kind {
                DescriptorKind::Sampler => Some(off),
                DescriptorKind::CombinedImageSampler => Some(off + abi::COMBINED_SAMPLER_OFFSET),
                _ => None,
            };
            if let (Some(at), false) = (sampler_at, fixed) {
                // SAFETY: a live sampler handle.
                put(mem, at, &unsafe { crate::image::sampler_descriptor(info.sampler) }, &what);
            }
        }
        _ => tracing::warn!("{what}: the descriptor does not fit the binding's type"),
    }
}

impl DescriptorSet {
    /// The set's descriptor memory on the host.
    fn mem(&mut self) -> &mut [u8] {
        // SAFETY: host..host+size is this set's range of the pool's mapped BO, and the set
        // is externally synchronised (&mut self).
        unsafe { std::slice::from_raw_parts_mut(self.host, self.size as usize) }
    }

    /// The device address of every buffer descriptor of the set, bindings in increasing
    /// number and array elements in order (what an external code object's `global_buffer`
    /// arguments receive). `dynamic` holds the dynamic buffers with their offsets applied.
    pub fn buffer_addresses(&self, dynamic: &[(u64, u64)]) -> Vec<u64> {
        let mut out = Vec::new();
        for b in self.layout.bindings() {
            for e in 0..b.count {
                let va = match locate(&self.layout, self.variable, b.binding, e) {
                    Some((BindingLocation::SetMemory(off), _, _)) if u64::from(off) + 8 <= self.size => {
                        // SAFETY: off + 8 <= the set's size (checked above).
                        let (w0, w1) = unsafe {
                            let p = self.host.add(off as usize) as *const u32;
                            (p.read_unaligned(), p.add(1).read_unaligned())
                        };
                        w0 as u64 | ((w1 & 0xffff) as u64) << 32
                    }
                    Some((BindingLocation::Dynamic(i), _, _)) => dynamic.get(i as usize).map_or(0, |d| d.0),
                    _ => 0,
                };
                out.push(va);
            }
        }
        out
    }

    /// Writes descriptor (binding, element) of the set.
    fn write(&mut self, at: (u32, u32), item: Item) {
        let (layout, immutable, variable) = (self.layout.clone(), self.immutable.clone(), self.variable);
        let mut dynamic = std::mem::take(&mut self.dynamic);
        write_descriptor((&layout, &immutable, variable), self.mem(), &mut dynamic, at, item);
        self.dynamic = dynamic;
    }

    /// Copies `count` descriptors from (src, sb, se) to (self, db, de), each element
    /// resolved on its own so that ranges may run across consecutive bindings.
    fn copy_from(&mut self, src: *const DescriptorSet, (sb, se): (u32, u32), (db, de): (u32, u32), count: u32) {
        for k in 0..count {
            // SAFETY: src is a live set; when it is self, only this loop reads it, between
            // our writes (ranges do not overlap, per the specification).
            let s = unsafe { &*src };
            let from = locate(&s.layout, s.variable, sb, se + k);
            match (from, locate(&self.layout, self.variable, db, de + k)) {
                (Some((BindingLocation::SetMemory(so), x, _)), Some((BindingLocation::SetMemory(d), y, _)))
                    if x.kind == y.kind
                        && u64::from(so + x.kind.size()) <= s.size
                        && u64::from(d + x.kind.size()) <= self.size =>
                {
                    // SAFETY: both ranges are inside their sets (checked); copy handles overlap.
                    unsafe {
                        std::ptr::copy(s.host.add(so as usize), self.host.add(d as usize), x.kind.size() as usize)
                    };
                }
                (Some((BindingLocation::Dynamic(si), _, _)), Some((BindingLocation::Dynamic(d), _, _))) => {
                    let v = s.dynamic.get(si as usize).copied().unwrap_or((0, 0, false));
                    if let Some(x) = self.dynamic.get_mut(d as usize) {
                        *x = v;
                    }
                }
                _ => tracing::warn!("vkUpdateDescriptorSets: copy between incompatible bindings"),
            }
        }
    }
}

/// Calls `f` with ((binding, element), descriptor) for every descriptor write `w` holds;
/// a type softnavi has no descriptors of is skipped with a log line.
///
/// # Safety
/// `w` is a valid `VkWriteDescriptorSet`.
pub unsafe fn write_items(w: &vk::WriteDescriptorSet<'_>, f: &mut dyn FnMut((u32, u32), Item)) {
    if kind(w.descriptor_type).is_none() {
        tracing::warn!("descriptor write: descriptor type {:?} is not supported", w.descriptor_type);
        return;
    }
    let at = |i: usize| (w.dst_binding, w.dst_array_element + i as u32);
    // SAFETY (all three): the array the descriptor type names is valid, per the specification.
    if is_texel(w.descriptor_type) {
        for (i, &v) in unsafe { slice(w.p_texel_buffer_view, w.descriptor_count) }.iter().enumerate() {
            f(at(i), Item::Texel(v));
        }
    } else if is_image(w.descriptor_type) {
        for (i, ii) in unsafe { slice(w.p_image_info, w.descriptor_count) }.iter().enumerate() {
            f(at(i), Item::Image(*ii));
        }
    } else {
        for (i, bi) in unsafe { slice(w.p_buffer_info, w.descriptor_count) }.iter().enumerate() {
            f(at(i), Item::Buffer(*bi));
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
            // SAFETY: valid per the specification.
            unsafe { write_items(w, &mut |at, item| set.write(at, item)) };
        }
        // SAFETY: valid per the specification.
        for c in unsafe { slice(copies, nc) } {
            // SAFETY: a live set handle; kept as a pointer, as it may be the destination too.
            let Some(src) = (unsafe { DescriptorSet::from_handle(c.src_set) }).map(|s| &*s as *const DescriptorSet)
            else {
                continue;
            };
            // SAFETY: a live set handle, externally synchronised.
            let Some(dst) = (unsafe { DescriptorSet::from_handle(c.dst_set) }) else { continue };
            dst.copy_from(
                src,
                (c.src_binding, c.src_array_element),
                (c.dst_binding, c.dst_array_element),
                c.descriptor_count,
            );
        }
    })
}

/// A descriptor update template: where in the application's data each descriptor is.
pub struct DescriptorUpdateTemplate {
    entries: Vec<vk::DescriptorUpdateTemplateEntry>,
}
object!(DescriptorUpdateTemplate, vk::DescriptorUpdateTemplate);

impl DescriptorUpdateTemplate {
    /// Calls `f` with ((binding, element), buffer info) for every descriptor the template
    /// takes from `data`.
    ///
    /// # Safety
    /// `data` must hold a `VkDescriptorBufferInfo` at every entry's offset + i × stride.
    pub unsafe fn for_each(&self, data: *const std::ffi::c_void, mut f: impl FnMut((u32, u32), Item)) {
        for e in &self.entries {
            for i in 0..e.descriptor_count as usize {
                let at = (data as *const u8).wrapping_add(e.offset + i * e.stride);
                // SAFETY: by the caller's contract: a VkBufferView for texel buffer entries,
                // a VkDescriptorBufferInfo for the others.
                let item = unsafe {
                    if is_texel(e.descriptor_type) {
                        Item::Texel(at.cast::<vk::BufferView>().read_unaligned())
                    } else if is_image(e.descriptor_type) {
                        Item::Image(at.cast::<vk::DescriptorImageInfo>().read_unaligned())
                    } else {
                        Item::Buffer(at.cast::<vk::DescriptorBufferInfo>().read_unaligned())
                    }
                };
                f((e.dst_binding, e.dst_array_element + i as u32), item);
            }
        }
    }
}

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
        let push_ok =
            api::PUSH_DESCRIPTOR && info.template_type == vk::DescriptorUpdateTemplateType::PUSH_DESCRIPTORS_KHR;
        if info.template_type != vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET && !push_ok {
            tracing::warn!("vkCreateDescriptorUpdateTemplate: template type {:?} is not supported", info.template_type);
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
        // SAFETY: the application's data matches the template, per the specification.
        unsafe { t.for_each(data, |at, item| set.write(at, item)) };
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dynamic_layout(flags: vk::DescriptorBindingFlags) -> Result<DescriptorSetLayout, String> {
        let b = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC)
            .descriptor_count(4)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)];
        let f = [flags];
        let mut bf = vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&f);
        layout_from(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&b).push_next(&mut bf))
    }

    /// VUID-VkDescriptorSetLayoutBindingFlagsCreateInfo-None-03011 / -03015 forbid only
    /// UPDATE_AFTER_BIND and VARIABLE_DESCRIPTOR_COUNT on dynamic buffers; PARTIALLY_BOUND
    /// is valid (CTS `descriptor_indexing.*_buffer_dynamic*` failed layout creation).
    #[test]
    fn dynamic_buffers_may_be_partially_bound() {
        assert!(dynamic_layout(vk::DescriptorBindingFlags::PARTIALLY_BOUND).is_ok());
        assert!(dynamic_layout(vk::DescriptorBindingFlags::UPDATE_AFTER_BIND).is_err());
        assert!(dynamic_layout(vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT).is_err());
    }

    /// INPUT_ATTACHMENT is a core descriptor type every layout may hold (CTS
    /// `api.descriptor_pool.out_of_pool_memory`, `api.maintenance3_check.descriptor_set`):
    /// a view's T# per descriptor, written from `pImageInfo`.
    #[test]
    fn input_attachments_are_image_descriptors() {
        let b = [vk::DescriptorSetLayoutBinding::default()
            .binding(0)
            .descriptor_type(vk::DescriptorType::INPUT_ATTACHMENT)
            .descriptor_count(2)
            .stage_flags(vk::ShaderStageFlags::FRAGMENT)];
        let l = layout_from(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&b)).expect("a layout"); // ok: test
        assert_eq!(l.abi.size(), 2 * abi::IMAGE_DESCRIPTOR_SIZE);
        assert!(is_image(vk::DescriptorType::INPUT_ATTACHMENT));
    }
}
