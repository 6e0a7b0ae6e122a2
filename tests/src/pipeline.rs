//! A compute pipeline with its one descriptor set, on a bare `ash::Device`: what the apps
//! that make their own device (softnavi-queues, softnavi-rayquery) share. Binding `i` of
//! set 0 is one descriptor of the `i`-th type given, visible to the compute stage.

use ash::vk;

use crate::vkr;

pub struct ComputePipeline {
    module: vk::ShaderModule,
    dsl: vk::DescriptorSetLayout,
    pub layout: vk::PipelineLayout,
    pub pipeline: vk::Pipeline,
    pool: vk::DescriptorPool,
    pub set: vk::DescriptorSet,
}

impl ComputePipeline {
    /// The pipeline of SPIR-V `words` (entry `main`) with `push` bytes of push constants.
    pub fn new(d: &ash::Device, words: &[u32], types: &[vk::DescriptorType], push: u32) -> Result<Self, String> {
        let bindings: Vec<_> = types
            .iter()
            .enumerate()
            .map(|(b, &t)| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b as u32)
                    .descriptor_type(t)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let pc = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: push }];
        let sizes: Vec<_> = types.iter().map(|&ty| vk::DescriptorPoolSize { ty, descriptor_count: 1 }).collect();
        // SAFETY: valid create infos; the objects are destroyed by `destroy`.
        unsafe {
            let module = vkr(
                "vkCreateShaderModule",
                d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None),
            )?;
            let dsl = vkr(
                "vkCreateDescriptorSetLayout",
                d.create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None),
            )?;
            let dsls = [dsl];
            let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&dsls);
            let info = if push > 0 { info.push_constant_ranges(&pc) } else { info };
            let layout = vkr("vkCreatePipelineLayout", d.create_pipeline_layout(&info, None))?;
            let stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(c"main");
            let pinfo = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)];
            let pipeline = d
                .create_compute_pipelines(vk::PipelineCache::null(), &pinfo, None)
                .map_err(|(_, e)| format!("vkCreateComputePipelines: {e:?}"))?[0];
            let pool = vkr(
                "vkCreateDescriptorPool",
                d.create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None),
            )?;
            let set = vkr(
                "vkAllocateDescriptorSets",
                d.allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&dsls),
                ),
            )?[0];
            Ok(ComputePipeline { module, dsl, layout, pipeline, pool, set })
        }
    }

    /// Binds the pipeline and its set in `cmd` (recording).
    pub fn bind(&self, d: &ash::Device, cmd: vk::CommandBuffer) {
        // SAFETY: a command buffer in the recording state; live objects.
        unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, self.layout, 0, &[self.set], &[]);
        }
    }

    pub fn destroy(self, d: &ash::Device) {
        // SAFETY: no pending work uses these objects.
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_descriptor_set_layout(self.dsl, None);
            d.destroy_shader_module(self.module, None);
        }
    }
}
