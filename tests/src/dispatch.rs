//! Running one compute dispatch through Vulkan for the test runners: buffers from bytes,
//! a descriptor set, push constants, specialisation, an optional required subgroup size.

use std::ffi::CString;

use ash::vk;
use softnavi_examples::{Context, Error, MemoryLocation};

use crate::image::{self, ImageBinding};

/// How a buffer reaches the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A storage buffer descriptor (set 0, binding = its position among the bindings).
    Storage,
    /// A uniform buffer descriptor (set 0, binding = its position).
    Uniform,
    /// No descriptor: the buffer's device address (8 bytes) is put at the start of the push
    /// constants, in binding order, before [`Case::push`]'s bytes. Needs buffer device address.
    Address,
}

pub struct Binding {
    pub kind: Kind,
    pub data: Vec<u8>,
}

/// One dispatch of one shader.
pub struct Dispatch<'a> {
    /// SPIR-V words, or an AMDHSA code object padded to words.
    pub code: &'a [u32],
    pub entry: &'a str,
    pub bindings: &'a [Binding],
    pub push: &'a [u8],
    /// Specialisation constants: (constant id, value bytes).
    pub spec: &'a [(u32, Vec<u8>)],
    pub groups: [u32; 3],
    /// A required subgroup size (VK_EXT_subgroup_size_control), when the device allows it.
    pub subgroup_size: Option<u32>,
    /// Image and sampler descriptors (set 0, at their own binding numbers).
    pub images: &'a [ImageBinding],
}

/// What a dispatch leaves: every buffer binding's bytes, in binding order, and every
/// image's texels ([`image::read_back`]).
pub struct Results {
    pub buffers: Vec<Vec<u8>>,
    pub images: Vec<Vec<u8>>,
}

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// Runs one dispatch; returns every binding's contents afterwards, in binding order.
pub fn run(ctx: &Context, case: &Dispatch<'_>) -> Result<Vec<Vec<u8>>, Error> {
    run_with_images(ctx, case).map(|r| r.buffers)
}

/// Set 0's layout bindings: the buffers' (at their positions) and the images'.
fn layout_bindings<'a>(
    described: &[(u32, vk::DescriptorType)],
    images: &[ImageBinding],
    objects: &'a image::Objects<'_>,
) -> Result<Vec<vk::DescriptorSetLayoutBinding<'a>>, Error> {
    let mut out: Vec<vk::DescriptorSetLayoutBinding<'a>> = described
        .iter()
        .map(|&(b, ty)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    for (i, samplers) in images.iter().zip(&objects.immutable) {
        if out.iter().any(|b| b.binding == i.binding) {
            return Err(Error::Unsupported(format!("binding {} declared twice", i.binding)));
        }
        let mut b = vk::DescriptorSetLayoutBinding::default()
            .binding(i.binding)
            .descriptor_type(i.ty)
            .descriptor_count(i.count())
            .stage_flags(vk::ShaderStageFlags::COMPUTE);
        if i.immutable {
            b = b.immutable_samplers(samplers);
        }
        out.push(b);
    }
    Ok(out)
}

/// The image descriptors' writes (their infos must outlive the update).
fn image_infos(o: &image::Objects<'_>, images: &[ImageBinding]) -> Vec<Vec<vk::DescriptorImageInfo>> {
    images
        .iter()
        .zip(&o.elements)
        .map(|(b, elems)| {
            elems
                .iter()
                .map(|&(view, sampler)| {
                    let layout =
                        if view == vk::ImageView::null() { vk::ImageLayout::UNDEFINED } else { image::layout(b.ty) };
                    let sampler = if b.immutable { vk::Sampler::null() } else { sampler };
                    vk::DescriptorImageInfo::default().image_view(view).sampler(sampler).image_layout(layout)
                })
                .collect()
        })
        .collect()
}

/// Runs one dispatch with images; returns every buffer's and image's contents afterwards.
pub fn run_with_images(ctx: &Context, case: &Dispatch<'_>) -> Result<Results, Error> {
    let d = ctx.device();
    let bda = case.bindings.iter().any(|b| b.kind == Kind::Address);
    let mut bufs = Vec::new();
    for (i, b) in case.bindings.iter().enumerate() {
        let mut usage = match b.kind {
            Kind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
            Kind::Storage | Kind::Address => vk::BufferUsageFlags::STORAGE_BUFFER,
        };
        if b.kind == Kind::Address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let size = b.data.len().div_ceil(4).max(1) * 4;
        let mut padded = b.data.clone();
        padded.resize(size, 0);
        let mut buf = ctx.create_buffer(&format!("b{i}"), size as u64, usage, MemoryLocation::CpuToGpu)?;
        buf.write(&padded)?;
        bufs.push(buf);
    }
    let described: Vec<(u32, vk::DescriptorType)> = case
        .bindings
        .iter()
        .enumerate()
        .filter_map(|(i, b)| match b.kind {
            Kind::Storage => Some((i as u32, vk::DescriptorType::STORAGE_BUFFER)),
            Kind::Uniform => Some((i as u32, vk::DescriptorType::UNIFORM_BUFFER)),
            Kind::Address => None,
        })
        .collect();
    let objects = image::create(ctx, case.images)?;
    let layout_bindings = layout_bindings(&described, case.images, &objects)?;
    let staging = image::staging(ctx, case.images)?;
    let mut push = Vec::new();
    if bda {
        // The KHR entry point: the instance asks for Vulkan 1.1, where the core one is absent.
        let bda_fn = ash::khr::buffer_device_address::Device::new(ctx.instance(), d);
        for (b, buf) in case.bindings.iter().zip(&bufs) {
            if b.kind == Kind::Address {
                let info = vk::BufferDeviceAddressInfo::default().buffer(buf.handle());
                // SAFETY: the buffer was created with SHADER_DEVICE_ADDRESS usage on a device
                // with bufferDeviceAddress enabled (skip_reason checked the need).
                let addr = unsafe { bda_fn.get_buffer_device_address(&info) };
                push.extend_from_slice(&addr.to_le_bytes());
            }
        }
    }
    push.extend_from_slice(case.push);
    push.resize(push.len().div_ceil(4) * 4, 0);

    let mut set_layout = vk::DescriptorSetLayout::null();
    let mut layout = vk::PipelineLayout::null();
    let mut module = vk::ShaderModule::null();
    let mut pipeline = vk::Pipeline::null();
    let mut pool = vk::DescriptorPool::null();
    let result = (|| {
        // SAFETY: valid device and create infos throughout; objects are used after creation only.
        unsafe {
            set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                    None,
                )
                .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
            let sets = [set_layout];
            let ranges =
                [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(push.len() as u32)];
            let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
            if !push.is_empty() {
                layout_info = layout_info.push_constant_ranges(&ranges);
            }
            layout = d.create_pipeline_layout(&layout_info, None).map_err(vkerr("vkCreatePipelineLayout"))?;
            module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(case.code), None)
                .map_err(vkerr("vkCreateShaderModule"))?;
            let mut entries = Vec::new();
            let mut data = Vec::new();
            for (id, bytes) in case.spec {
                entries.push(
                    vk::SpecializationMapEntry::default().constant_id(*id).offset(data.len() as u32).size(bytes.len()),
                );
                data.extend_from_slice(bytes);
            }
            let spec = vk::SpecializationInfo::default().map_entries(&entries).data(&data);
            let name = CString::new(case.entry).map_err(|_| Error::Unsupported("entry point has a NUL".into()))?;
            let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default();
            let mut stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(&name)
                .specialization_info(&spec);
            let f = ctx.shader_features();
            if let Some(size) = case.subgroup_size.filter(|&s| f.subgroup_size_control && s != f.subgroup_size) {
                required.required_subgroup_size = size;
                stage = stage.push_next(&mut required);
            }
            pipeline = d
                .create_compute_pipelines(
                    vk::PipelineCache::null(),
                    &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)],
                    None,
                )
                .map_err(|(_, r)| Error::Vulkan { call: "vkCreateComputePipelines", result: r })?[0];
            let mut set = vk::DescriptorSet::null();
            if !layout_bindings.is_empty() {
                let sizes: Vec<_> = layout_bindings
                    .iter()
                    .map(|b| {
                        vk::DescriptorPoolSize::default().ty(b.descriptor_type).descriptor_count(b.descriptor_count)
                    })
                    .collect();
                pool = d
                    .create_descriptor_pool(
                        &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                        None,
                    )
                    .map_err(vkerr("vkCreateDescriptorPool"))?;
                set = d
                    .allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&sets),
                    )
                    .map_err(vkerr("vkAllocateDescriptorSets"))?[0];
                let infos: Vec<[vk::DescriptorBufferInfo; 1]> = described
                    .iter()
                    .map(|&(b, _)| {
                        [vk::DescriptorBufferInfo::default().buffer(bufs[b as usize].handle()).range(vk::WHOLE_SIZE)]
                    })
                    .collect();
                let mut writes: Vec<_> = described
                    .iter()
                    .zip(&infos)
                    .map(|(&(b, ty), info)| {
                        vk::WriteDescriptorSet::default()
                            .dst_set(set)
                            .dst_binding(b)
                            .descriptor_type(ty)
                            .buffer_info(info)
                    })
                    .collect();
                let image_infos = image_infos(&objects, case.images);
                for (b, info) in case
                    .images
                    .iter()
                    .zip(&image_infos)
                    .filter(|(b, _)| !(b.immutable && b.ty == vk::DescriptorType::SAMPLER))
                {
                    writes.push(
                        vk::WriteDescriptorSet::default()
                            .dst_set(set)
                            .dst_binding(b.binding)
                            .descriptor_type(b.ty)
                            .image_info(info),
                    );
                }
                d.update_descriptor_sets(&writes, &[]);
            }
            ctx.submit_and_wait(|cmd| {
                image::record_upload(ctx, cmd, &objects, &staging, case.images);
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
                if set != vk::DescriptorSet::null() {
                    d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, layout, 0, &[set], &[]);
                }
                if !push.is_empty() {
                    d.cmd_push_constants(cmd, layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
                }
                d.cmd_dispatch(cmd, case.groups[0], case.groups[1], case.groups[2]);
                ctx.cmd_compute_to_host_barrier(cmd);
                image::record_download(ctx, cmd, &objects, &staging, case.images);
                Ok(())
            })?;
        }
        let mut buffers = Vec::new();
        for (b, init) in bufs.iter().zip(case.bindings) {
            buffers.push(b.read::<u8>(init.data.len())?);
        }
        Ok(Results { buffers, images: image::read_back(&staging, case.images)? })
    })();
    // SAFETY: the device is idle (submit_and_wait waited) or lost; null handles are ignored.
    unsafe {
        d.destroy_pipeline(pipeline, None);
        d.destroy_shader_module(module, None);
        d.destroy_descriptor_pool(pool, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_descriptor_set_layout(set_layout, None);
    }
    result
}
