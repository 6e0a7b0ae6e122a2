//! The shader ABI shared by the SPIR-V lowering and the ICD (see `docs/ABI.md`).
//!
//! One function computes each layout; both sides call it, so the kernarg segment the ICD
//! writes is the one the compiled kernel reads.

/// Size of one buffer descriptor (a gfx11 V#) in descriptor-set memory.
pub const BUFFER_DESCRIPTOR_SIZE: u32 = 16;
/// Size of one image descriptor (a gfx11 T#).
pub const IMAGE_DESCRIPTOR_SIZE: u32 = 32;
/// Size of one sampler descriptor (a gfx11 S#).
pub const SAMPLER_DESCRIPTOR_SIZE: u32 = 16;
/// Where the S# of a combined image sampler is, after its T#.
pub const COMBINED_SAMPLER_OFFSET: u32 = IMAGE_DESCRIPTOR_SIZE;
/// Alignment of descriptor bindings and of kernarg sub-blocks.
pub const ALIGN: u32 = 16;
/// Kernarg offset of `NumWorkgroups` (3 × u32).
pub const KERNARG_NUM_WORKGROUPS: u32 = 0x00;
/// Kernarg offset of the first descriptor-set address (u64 each).
pub const KERNARG_SET_ADDRESSES: u32 = 0x10;

/// The descriptor types whose memory layout this ABI defines.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DescriptorKind {
    UniformBuffer,
    StorageBuffer,
    UniformBufferDynamic,
    StorageBufferDynamic,
    /// A uniform texel buffer: the buffer view's V# (format, stride = texel size,
    /// num_records = texels), 16 bytes like the other buffer descriptors.
    UniformTexelBuffer,
    /// A storage texel buffer: as [`Self::UniformTexelBuffer`].
    StorageTexelBuffer,
    /// A sampler: its 16-byte S#.
    Sampler,
    /// A sampled image: the image view's 32-byte T#.
    SampledImage,
    /// A storage image: the image view's 32-byte T#.
    StorageImage,
    /// A combined image sampler: the T# and then the S# (48 bytes; a shader may read the
    /// two as separate image and sampler variables of one binding).
    CombinedImageSampler,
    /// An input attachment: the image view's 32-byte T#. Only fragment shaders read them,
    /// so compute pipelines never do; sets and layouts hold them all the same.
    InputAttachment,
}

impl DescriptorKind {
    /// Dynamic buffers live in the kernarg segment, not in set memory.
    pub fn is_dynamic(self) -> bool {
        matches!(self, Self::UniformBufferDynamic | Self::StorageBufferDynamic)
    }

    /// Bytes one descriptor of this kind takes in set memory (the stride of an array).
    pub fn size(self) -> u32 {
        match self {
            Self::Sampler => SAMPLER_DESCRIPTOR_SIZE,
            Self::SampledImage | Self::StorageImage | Self::InputAttachment => IMAGE_DESCRIPTOR_SIZE,
            Self::CombinedImageSampler => IMAGE_DESCRIPTOR_SIZE + SAMPLER_DESCRIPTOR_SIZE,
            _ => BUFFER_DESCRIPTOR_SIZE,
        }
    }
}

/// One binding of a descriptor set layout.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Binding {
    pub binding: u32,
    pub kind: DescriptorKind,
    pub count: u32,
}

/// Where a binding's descriptors are.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BindingLocation {
    /// Byte offset of descriptor 0 in the set's memory.
    SetMemory(u32),
    /// Index of descriptor 0 among the set's dynamic descriptors.
    Dynamic(u32),
}

/// A descriptor set layout: bindings sorted by number, with their locations.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SetLayout {
    bindings: Vec<Binding>,
    locations: Vec<(u32, u32)>, // (is_dynamic as u32, offset or index): Hash/Eq-friendly
    size: u32,
    dynamic_count: u32,
}

fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a) * a
}

impl SetLayout {
    /// Lays out `bindings` (any order; binding numbers must be unique).
    pub fn new(mut bindings: Vec<Binding>) -> Self {
        bindings.sort_by_key(|b| b.binding);
        let mut size = 0;
        let mut dynamic_count = 0;
        let mut locations = Vec::with_capacity(bindings.len());
        for b in &bindings {
            if b.kind.is_dynamic() {
                locations.push((1, dynamic_count));
                dynamic_count += b.count;
            } else {
                size = align_up(size, ALIGN);
                locations.push((0, size));
                size += b.count * b.kind.size();
            }
        }
        SetLayout { bindings, locations, size: align_up(size, ALIGN), dynamic_count }
    }

    pub fn bindings(&self) -> &[Binding] {
        &self.bindings
    }

    /// The binding with number `binding`, and where its descriptors are.
    pub fn binding(&self, binding: u32) -> Option<(Binding, BindingLocation)> {
        let i = self.bindings.binary_search_by_key(&binding, |b| b.binding).ok()?;
        let (dynamic, v) = self.locations[i];
        let loc = if dynamic == 1 { BindingLocation::Dynamic(v) } else { BindingLocation::SetMemory(v) };
        Some((self.bindings[i], loc))
    }

    /// Bytes of descriptor memory one set of this layout needs.
    pub fn size(&self) -> u32 {
        self.size
    }

    /// Number of dynamic buffer descriptors (kernarg V# slots) this layout has.
    pub fn dynamic_count(&self) -> u32 {
        self.dynamic_count
    }
}

/// A pipeline layout as far as the ABI is concerned.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct PipelineLayout {
    pub sets: Vec<SetLayout>,
    /// End of the highest push-constant range, in bytes.
    pub push_constant_size: u32,
}

/// Offsets of the parts of a SPIR-V pipeline's kernarg segment.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct KernargLayout {
    pub num_workgroups: u32,
    pub set_addresses: u32,
    pub dynamic_descriptors: u32,
    pub push_constants: u32,
    /// Total size, a multiple of 16.
    pub size: u32,
}

impl PipelineLayout {
    pub fn kernarg(&self) -> KernargLayout {
        let sets_end = KERNARG_SET_ADDRESSES + 8 * self.sets.len() as u32;
        let dynamic_descriptors = align_up(sets_end, ALIGN);
        let dynamic_total: u32 = self.sets.iter().map(SetLayout::dynamic_count).sum();
        let push_constants = align_up(dynamic_descriptors + dynamic_total * BUFFER_DESCRIPTOR_SIZE, ALIGN);
        let size = align_up(push_constants + self.push_constant_size, ALIGN);
        KernargLayout {
            num_workgroups: KERNARG_NUM_WORKGROUPS,
            set_addresses: KERNARG_SET_ADDRESSES,
            dynamic_descriptors,
            push_constants,
            size,
        }
    }

    /// Kernarg offset of the V# of dynamic descriptor `index` (within its binding) of
    /// (`set`, `binding`), or `None` when that binding is not dynamic.
    pub fn dynamic_descriptor_offset(&self, set: u32, binding: u32, index: u32) -> Option<u32> {
        let before: u32 = self.sets.iter().take(set as usize).map(SetLayout::dynamic_count).sum();
        match self.sets.get(set as usize)?.binding(binding)? {
            (_, BindingLocation::Dynamic(first)) => {
                Some(self.kernarg().dynamic_descriptors + (before + first + index) * BUFFER_DESCRIPTOR_SIZE)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn b(binding: u32, kind: DescriptorKind, count: u32) -> Binding {
        Binding { binding, kind, count }
    }

    #[test]
    fn set_layout_sorts_and_aligns_bindings() {
        let l = SetLayout::new(vec![
            b(3, DescriptorKind::StorageBuffer, 2),
            b(0, DescriptorKind::UniformBuffer, 1),
            b(1, DescriptorKind::StorageBufferDynamic, 2),
        ]);
        assert_eq!(l.binding(0).unwrap().1, BindingLocation::SetMemory(0));
        assert_eq!(l.binding(1).unwrap().1, BindingLocation::Dynamic(0));
        assert_eq!(l.binding(3).unwrap().1, BindingLocation::SetMemory(16));
        assert_eq!(l.size(), 48);
        assert_eq!(l.dynamic_count(), 2);
        assert!(l.binding(2).is_none());
    }

    #[test]
    fn image_descriptors_take_their_descriptor_sizes() {
        let l = SetLayout::new(vec![
            b(0, DescriptorKind::CombinedImageSampler, 3),
            b(1, DescriptorKind::Sampler, 1),
            b(2, DescriptorKind::StorageImage, 2),
            b(3, DescriptorKind::StorageBuffer, 1),
        ]);
        assert_eq!(l.binding(1).unwrap().1, BindingLocation::SetMemory(144));
        assert_eq!(l.binding(2).unwrap().1, BindingLocation::SetMemory(160));
        assert_eq!(l.binding(3).unwrap().1, BindingLocation::SetMemory(224));
        assert_eq!(l.size(), 240);
    }

    #[test]
    fn kernarg_layout_matches_abi_doc() {
        let set0 = SetLayout::new(vec![b(0, DescriptorKind::StorageBufferDynamic, 1)]);
        let set1 = SetLayout::new(vec![b(0, DescriptorKind::StorageBuffer, 1)]);
        let set2 = SetLayout::new(vec![b(5, DescriptorKind::UniformBufferDynamic, 3)]);
        let p = PipelineLayout { sets: vec![set0, set1, set2], push_constant_size: 20 };
        let k = p.kernarg();
        assert_eq!(k.set_addresses, 0x10);
        assert_eq!(k.dynamic_descriptors, 0x30); // 0x10 + 3 * 8 = 0x28 -> 0x30
        assert_eq!(k.push_constants, 0x30 + 4 * 16);
        assert_eq!(k.size, 0x30 + 64 + 32);
        assert_eq!(p.dynamic_descriptor_offset(2, 5, 1), Some(0x30 + 2 * 16));
        assert_eq!(p.dynamic_descriptor_offset(1, 0, 0), None);
    }
}
