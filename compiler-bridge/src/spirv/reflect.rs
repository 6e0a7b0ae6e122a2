//! The pipeline layout a module's resources imply, for tools and benchmarks that compile
//! SPIR-V without an application's `VkPipelineLayout`.

use std::collections::BTreeMap;

use spirv::{Dim, StorageClass};

use super::module::Module;
use super::types::{Rule, Type};
use crate::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use crate::CompileError;

/// Most descriptor sets a reflected layout may have (Vulkan's `maxBoundDescriptorSets` is
/// at least 4; 32 bounds what a hostile module can make us allocate).
const MAX_SETS: u32 = 32;

/// The pipeline layout of entry point `entry_point` of `words`: one binding per
/// `DescriptorSet`/`Binding` pair of the module's buffer variables (uniform buffers, and
/// storage buffers: `StorageBuffer` storage or `BufferBlock` blocks; never dynamic, which
/// SPIR-V cannot express), arrays of them with their length as count, and the push
/// constant block's size. Sets without bindings are empty.
pub fn reflect_layout(words: &[u32], entry_point: &str) -> Result<PipelineLayout, CompileError> {
    let module = super::parse(words)?;
    let m = Module::new(&module, entry_point, &[])?;
    let mut sets: BTreeMap<u32, BTreeMap<u32, Binding>> = BTreeMap::new();
    let mut push_constant_size = 0u32;
    for (&id, global) in &m.globals {
        let kind = match global.storage {
            StorageClass::PushConstant => {
                let (size, _) = m.size_align(global.pointee, Rule::Explicit)?;
                push_constant_size = push_constant_size.max(size as u32); // size_align caps sizes at u32::MAX
                continue;
            }
            StorageClass::StorageBuffer => DescriptorKind::StorageBuffer,
            StorageClass::Uniform => DescriptorKind::UniformBuffer,
            StorageClass::UniformConstant => {
                let ty = match m.ty(global.pointee)? {
                    Type::Array { elem, .. } => *elem,
                    _ => global.pointee,
                };
                match m.ty(ty)? {
                    Type::Image { sampled: 2, dim: Dim::DimBuffer, .. } => DescriptorKind::StorageTexelBuffer,
                    Type::Image { dim: Dim::DimBuffer, .. } => DescriptorKind::UniformTexelBuffer,
                    Type::Image { sampled: 2, .. } => DescriptorKind::StorageImage,
                    Type::Image { .. } => DescriptorKind::SampledImage,
                    Type::Sampler => DescriptorKind::Sampler,
                    Type::SampledImage { .. } => DescriptorKind::CombinedImageSampler,
                    _ => {
                        return Err(CompileError::unsupported(format!(
                            "reflecting descriptor %{id} of storage class UniformConstant"
                        )))
                    }
                }
            }
            _ => continue,
        };
        let (block, count) = match m.ty(global.pointee)? {
            Type::Array { elem, len } => (*elem, *len),
            Type::RuntimeArray { .. } => {
                return Err(CompileError::unsupported(format!("reflecting runtime descriptor array %{id}")))
            }
            _ => (global.pointee, 1),
        };
        let kind = if m.deco.buffer_block.contains(&block) { DescriptorKind::StorageBuffer } else { kind };
        let (Some(&set), Some(&binding)) = (m.deco.set.get(&id), m.deco.binding.get(&id)) else {
            return Err(CompileError::invalid(format!("buffer variable %{id} lacks DescriptorSet or Binding")));
        };
        if set >= MAX_SETS {
            return Err(CompileError::unsupported(format!("descriptor set {set} (at most {MAX_SETS} reflected)")));
        }
        // Variables may alias one binding; the binding holds the most descriptors any uses.
        let entry = sets.entry(set).or_default().entry(binding).or_insert(Binding { binding, kind, count });
        if entry.kind != kind {
            return Err(CompileError::invalid(format!(
                "set {set} binding {binding} is used as both {:?} and {kind:?}",
                entry.kind
            )));
        }
        entry.count = entry.count.max(count);
    }
    let set_count = sets.keys().next_back().map_or(0, |&s| s + 1);
    Ok(PipelineLayout {
        sets: (0..set_count)
            .map(|s| SetLayout::new(sets.get(&s).map_or_else(Vec::new, |b| b.values().copied().collect())))
            .collect(),
        push_constant_size,
    })
}
