//! softnavi-descriptors: descriptor scenarios, each checked against a CPU reference.
//!
//! `softnavi-descriptors [--validate] SCENARIO...` (no scenario: all of them). Scenarios:
//! - `indexing`: a runtime array of storage buffers (variable descriptor count, partially
//!   bound, update-after-bind: every descriptor is written after vkCmdBindDescriptorSets)
//!   and an array of uniform buffers, both indexed with `nonuniformEXT` divergent indices;
//!   in wave32 and wave64 where the device can require those subgroup sizes. On softnavi the
//!   unwritten element is read too and must read 0 (a null V#).
//! - `push`: VK_KHR_push_descriptor: vkCmdPushDescriptorSetKHR and the template form next
//!   to a bound set, several pushes per command buffer, two command buffers.
//! - `dynamic`: dynamic uniform and storage buffers in two sets (offset order), VK_WHOLE_SIZE
//!   with a dynamic offset, two dispatches with other offsets; on softnavi, lanes past the
//!   ranges (robust buffer access: loads read 0, stores are dropped).
//! - `copies`: update templates with a stride running across bindings, VkCopyDescriptorSet
//!   with ranges across bindings.
//! - `pools`: FREE_DESCRIPTOR_SET (free and reuse), out-of-pool, vkResetDescriptorPool,
//!   vkGetDescriptorSetLayoutSupport with a variable count.
//!
//! Exit status: 0 all verified, 1 a mismatch, 2 a Vulkan error, 3 validation messages.

use std::ffi::{c_void, CStr};
use std::process::ExitCode;

use ash::vk;

const INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/desc_index.spv"));
const PUSH: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/desc_push.spv"));
const DYNAMIC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/desc_dynamic.spv"));
const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/desc_copy.spv"));

/// A failure: (exit status, message).
type Res<T> = Result<T, (u8, String)>;

fn vkr(call: &str) -> impl FnOnce(vk::Result) -> (u8, String) + '_ {
    move |r| (2, format!("{call} returned {r:?}"))
}

fn mismatch(msg: String) -> (u8, String) {
    (1, msg)
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| c.iter().rev().fold(0, |w, &b| w << 8 | b as u32)).collect()
}

/// A host-visible buffer.
struct Buf {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u32,
    size: u64,
}

/// Instance, device and the helpers the scenarios share.
struct Gpu {
    _entry: ash::Entry,
    instance: ash::Instance,
    messenger: Option<softnavi_tests::validation::Validation>,
    device: ash::Device,
    push: ash::khr::push_descriptor::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    memory_types: vk::PhysicalDeviceMemoryProperties,
    /// Subgroup sizes a pipeline can require (empty: only the default).
    wave_sizes: Vec<u32>,
    /// Why the descriptor-indexing scenario cannot run here, if it cannot.
    no_indexing: Option<String>,
    softnavi: bool,
    /// Mesa's RADV (over softnavi's amdgpu shim, `scripts/radv`).
    radv: bool,
    buffers: Vec<Buf>,
}

impl Gpu {
    fn new(validate: bool) -> Res<Gpu> {
        // SAFETY: loading the system loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| (2, e.to_string()))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let (instance, messenger) =
            softnavi_tests::validation::create_instance(&entry, &app, &[], validate).map_err(|(w, e)| vkr(w)(e))?;
        // SAFETY: a live instance.
        let pds = unsafe { instance.enumerate_physical_devices() }.map_err(vkr("vkEnumeratePhysicalDevices"))?;
        let pd = *pds.first().ok_or((2, "no physical device".to_string()))?;

        // SAFETY: a live physical device.
        let dev_exts = unsafe { instance.enumerate_device_extension_properties(pd) }
            .map_err(vkr("vkEnumerateDeviceExtensionProperties"))?;
        let has = |n: &CStr| dev_exts.iter().any(|e| e.extension_name_as_c_str().ok() == Some(n));
        if !has(ash::khr::push_descriptor::NAME) {
            return Err((2, "the device does not report VK_KHR_push_descriptor".into()));
        }
        // The extension structures work on any version (the extension or Vulkan 1.2 / 1.3);
        // the extensions are enabled where reported, as a Vulkan 1.1 device needs them.
        let mut di_f = vk::PhysicalDeviceDescriptorIndexingFeatures::default();
        let mut sc_f = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
        let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut di_f).push_next(&mut sc_f);
        // SAFETY: a live physical device; a valid chain.
        unsafe { instance.get_physical_device_features2(pd, &mut f2) };
        let core = f2.features;
        let (di_f, sc_f) = (di_f, sc_f);
        if core.robust_buffer_access == 0 {
            return Err((2, "the device does not support robustBufferAccess".into()));
        }
        let need = [
            ("runtimeDescriptorArray", di_f.runtime_descriptor_array),
            ("shaderStorageBufferArrayNonUniformIndexing", di_f.shader_storage_buffer_array_non_uniform_indexing),
            ("shaderUniformBufferArrayNonUniformIndexing", di_f.shader_uniform_buffer_array_non_uniform_indexing),
            ("descriptorBindingPartiallyBound", di_f.descriptor_binding_partially_bound),
            ("descriptorBindingVariableDescriptorCount", di_f.descriptor_binding_variable_descriptor_count),
            ("descriptorBindingUpdateUnusedWhilePending", di_f.descriptor_binding_update_unused_while_pending),
            ("descriptorBindingStorageBufferUpdateAfterBind", di_f.descriptor_binding_storage_buffer_update_after_bind),
            ("descriptorBindingUniformBufferUpdateAfterBind", di_f.descriptor_binding_uniform_buffer_update_after_bind),
        ];
        let indexing_missing = need.iter().find(|(_, v)| *v == 0).map(|(n, _)| n.to_string());
        let mut sc = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut sc);
        // SAFETY: a live physical device; a valid chain.
        unsafe { instance.get_physical_device_properties2(pd, &mut props) };
        let api = props.properties.api_version;
        let name = props.properties.device_name_as_c_str().unwrap_or(c"?").to_string_lossy().into_owned();
        let (min_sg, max_sg, sg_stages) =
            (sc.min_subgroup_size, sc.max_subgroup_size, sc.required_subgroup_size_stages);
        let size_control = sc_f.subgroup_size_control != 0
            && (api >= vk::API_VERSION_1_3 || has(ash::ext::subgroup_size_control::NAME));
        let wave_sizes: Vec<u32> = if size_control && sg_stages.contains(vk::ShaderStageFlags::COMPUTE) {
            [32, 64].into_iter().filter(|s| (min_sg..=max_sg).contains(s)).collect()
        } else {
            Vec::new()
        };
        println!("device: {name}; wave sizes required: {wave_sizes:?}");
        let indexing =
            indexing_missing.is_none() && (api >= vk::API_VERSION_1_2 || has(ash::ext::descriptor_indexing::NAME));
        let mut ext_names = vec![ash::khr::push_descriptor::NAME.as_ptr()];
        if indexing && has(ash::ext::descriptor_indexing::NAME) {
            ext_names.push(ash::ext::descriptor_indexing::NAME.as_ptr());
        }
        if !wave_sizes.is_empty() && has(ash::ext::subgroup_size_control::NAME) {
            ext_names.push(ash::ext::subgroup_size_control::NAME.as_ptr());
        }
        let mut e_di = vk::PhysicalDeviceDescriptorIndexingFeatures::default()
            .runtime_descriptor_array(indexing)
            .shader_storage_buffer_array_non_uniform_indexing(indexing)
            .shader_uniform_buffer_array_non_uniform_indexing(indexing)
            .descriptor_binding_partially_bound(indexing)
            .descriptor_binding_variable_descriptor_count(indexing)
            .descriptor_binding_update_unused_while_pending(indexing)
            .descriptor_binding_storage_buffer_update_after_bind(indexing)
            .descriptor_binding_uniform_buffer_update_after_bind(indexing);
        let mut e_sc =
            vk::PhysicalDeviceSubgroupSizeControlFeatures::default().subgroup_size_control(!wave_sizes.is_empty());
        let core_on = vk::PhysicalDeviceFeatures::default().robust_buffer_access(true);
        let prio = [1.0f32];
        // SAFETY: a live physical device.
        let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
        let qf = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or((2, "no compute queue family".to_string()))? as u32;
        let qi = [vk::DeviceQueueCreateInfo::default().queue_family_index(qf).queue_priorities(&prio)];
        let mut di = vk::DeviceCreateInfo::default()
            .queue_create_infos(&qi)
            .enabled_extension_names(&ext_names)
            .enabled_features(&core_on);
        if indexing {
            di = di.push_next(&mut e_di);
        }
        if !wave_sizes.is_empty() {
            di = di.push_next(&mut e_sc);
        }
        // SAFETY: valid create info.
        let device = unsafe { instance.create_device(pd, &di, None) }.map_err(vkr("vkCreateDevice"))?;
        // SAFETY: a live device.
        let queue = unsafe { device.get_device_queue(qf, 0) };
        let pi = vk::CommandPoolCreateInfo::default()
            .queue_family_index(qf)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid create info.
        let pool = unsafe { device.create_command_pool(&pi, None) }.map_err(vkr("vkCreateCommandPool"))?;
        // SAFETY: a live physical device.
        let memory_types = unsafe { instance.get_physical_device_memory_properties(pd) };
        let push = ash::khr::push_descriptor::Device::new(&instance, &device);
        Ok(Gpu {
            _entry: entry,
            instance,
            messenger,
            device,
            push,
            queue,
            pool,
            memory_types,
            wave_sizes,
            no_indexing: if indexing {
                None
            } else {
                Some(indexing_missing.unwrap_or("VK_EXT_descriptor_indexing".into()))
            },
            softnavi: name.to_lowercase().contains("softnavi"),
            radv: name.contains("(RADV "),
            buffers: Vec::new(),
        })
    }

    /// A host-visible, coherent storage + uniform buffer of `size` bytes filled with `data`
    /// (the rest zero); returns its index in `self.buffers`.
    fn buffer(&mut self, size: u64, data: &[u32]) -> Res<usize> {
        let d = &self.device;
        let bi = vk::BufferCreateInfo::default()
            .size(size)
            .usage(vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::UNIFORM_BUFFER);
        // SAFETY: valid create info.
        let buffer = unsafe { d.create_buffer(&bi, None) }.map_err(vkr("vkCreateBuffer"))?;
        // SAFETY: a live buffer.
        let req = unsafe { d.get_buffer_memory_requirements(buffer) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let ty = (0..self.memory_types.memory_type_count)
            .find(|&i| {
                req.memory_type_bits & (1 << i) != 0
                    && self.memory_types.memory_types[i as usize].property_flags.contains(want)
            })
            .ok_or((2, "no host-visible coherent memory type".to_string()))?;
        let ai = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
        // SAFETY: valid allocate info.
        let memory = unsafe { d.allocate_memory(&ai, None) }.map_err(vkr("vkAllocateMemory"))?;
        // SAFETY: live objects; the memory fits the buffer.
        unsafe { d.bind_buffer_memory(buffer, memory, 0) }.map_err(vkr("vkBindBufferMemory"))?;
        // SAFETY: host-visible memory, mapped once.
        let ptr = unsafe { d.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
            .map_err(vkr("vkMapMemory"))? as *mut u32;
        let n = (size / 4) as usize;
        // SAFETY: the mapping holds size bytes.
        let host = unsafe { std::slice::from_raw_parts_mut(ptr, n) };
        host.fill(0);
        host[..data.len().min(n)].copy_from_slice(&data[..data.len().min(n)]);
        self.buffers.push(Buf { buffer, memory, ptr, size });
        Ok(self.buffers.len() - 1)
    }

    fn read(&self, b: usize) -> Vec<u32> {
        let b = &self.buffers[b];
        // SAFETY: the mapping holds size bytes; the GPU is idle (after submit_and_wait).
        unsafe { std::slice::from_raw_parts(b.ptr, (b.size / 4) as usize) }.to_vec()
    }

    fn fill(&self, b: usize, v: u32) {
        let b = &self.buffers[b];
        // SAFETY: the mapping holds size bytes; the GPU is idle.
        unsafe { std::slice::from_raw_parts_mut(b.ptr, (b.size / 4) as usize) }.fill(v);
    }

    fn info(&self, b: usize, offset: u64, range: u64) -> vk::DescriptorBufferInfo {
        vk::DescriptorBufferInfo { buffer: self.buffers[b].buffer, offset, range }
    }

    fn set_layout(
        &self,
        flags: vk::DescriptorSetLayoutCreateFlags,
        bindings: &[(vk::DescriptorType, u32, vk::DescriptorBindingFlags)],
    ) -> Res<vk::DescriptorSetLayout> {
        let b: Vec<_> = bindings
            .iter()
            .enumerate()
            .map(|(i, &(t, n, _))| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i as u32)
                    .descriptor_type(t)
                    .descriptor_count(n)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let bf: Vec<_> = bindings.iter().map(|b| b.2).collect();
        let mut flags_info = vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&bf);
        let mut info = vk::DescriptorSetLayoutCreateInfo::default().flags(flags).bindings(&b);
        if bf.iter().any(|f| !f.is_empty()) {
            info = info.push_next(&mut flags_info);
        }
        // SAFETY: valid create info.
        unsafe { self.device.create_descriptor_set_layout(&info, None) }.map_err(vkr("vkCreateDescriptorSetLayout"))
    }

    /// A compute pipeline of `spirv` with `layouts` and `push` bytes of push constants,
    /// requiring subgroup size `wave` when given.
    fn pipeline(
        &self,
        spirv: &[u8],
        layouts: &[vk::DescriptorSetLayout],
        push: u32,
        wave: Option<u32>,
    ) -> Res<(vk::Pipeline, vk::PipelineLayout)> {
        let d = &self.device;
        let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: push }];
        let mut li = vk::PipelineLayoutCreateInfo::default().set_layouts(layouts);
        if push > 0 {
            li = li.push_constant_ranges(&ranges);
        }
        // SAFETY: valid create info.
        let layout = unsafe { d.create_pipeline_layout(&li, None) }.map_err(vkr("vkCreatePipelineLayout"))?;
        let code = words(spirv);
        let mi = vk::ShaderModuleCreateInfo::default().code(&code);
        // SAFETY: valid SPIR-V.
        let module = unsafe { d.create_shader_module(&mi, None) }.map_err(vkr("vkCreateShaderModule"))?;
        let mut req =
            vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default().required_subgroup_size(wave.unwrap_or(0));
        let mut stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        if wave.is_some() {
            stage = stage.push_next(&mut req);
        }
        let ci = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)];
        // SAFETY: valid create info.
        let r = unsafe { d.create_compute_pipelines(vk::PipelineCache::null(), &ci, None) };
        // SAFETY: the module is no longer needed.
        unsafe { d.destroy_shader_module(module, None) };
        let p = r.map_err(|(_, e)| vkr("vkCreateComputePipelines")(e))?;
        Ok((p[0], layout))
    }

    fn pool(
        &self,
        flags: vk::DescriptorPoolCreateFlags,
        max_sets: u32,
        sizes: &[(vk::DescriptorType, u32)],
    ) -> Res<vk::DescriptorPool> {
        let s: Vec<_> = sizes.iter().map(|&(ty, n)| vk::DescriptorPoolSize { ty, descriptor_count: n }).collect();
        let i = vk::DescriptorPoolCreateInfo::default().flags(flags).max_sets(max_sets).pool_sizes(&s);
        // SAFETY: valid create info.
        unsafe { self.device.create_descriptor_pool(&i, None) }.map_err(vkr("vkCreateDescriptorPool"))
    }

    fn alloc(&self, pool: vk::DescriptorPool, layouts: &[vk::DescriptorSetLayout]) -> Res<Vec<vk::DescriptorSet>> {
        let i = vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(layouts);
        // SAFETY: valid allocate info.
        unsafe { self.device.allocate_descriptor_sets(&i) }.map_err(vkr("vkAllocateDescriptorSets"))
    }

    fn write(
        &self,
        set: vk::DescriptorSet,
        binding: u32,
        element: u32,
        ty: vk::DescriptorType,
        infos: &[vk::DescriptorBufferInfo],
    ) {
        let w = [vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(binding)
            .dst_array_element(element)
            .descriptor_type(ty)
            .buffer_info(infos)];
        // SAFETY: valid writes.
        unsafe { self.device.update_descriptor_sets(&w, &[]) };
    }

    fn command_buffer(&self) -> Res<vk::CommandBuffer> {
        let ai = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: valid allocate info.
        let c = unsafe { self.device.allocate_command_buffers(&ai) }.map_err(vkr("vkAllocateCommandBuffers"))?[0];
        // SAFETY: a new command buffer.
        unsafe { self.device.begin_command_buffer(c, &vk::CommandBufferBeginInfo::default()) }
            .map_err(vkr("vkBeginCommandBuffer"))?;
        Ok(c)
    }

    /// Ends `cmds` (after a compute-to-host barrier), submits them and waits.
    fn submit(&self, cmds: &[vk::CommandBuffer]) -> Res<()> {
        let d = &self.device;
        for &c in cmds {
            let mb = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            // SAFETY: a recording command buffer.
            unsafe {
                d.cmd_pipeline_barrier(
                    c,
                    vk::PipelineStageFlags::COMPUTE_SHADER,
                    vk::PipelineStageFlags::HOST,
                    vk::DependencyFlags::empty(),
                    &mb,
                    &[],
                    &[],
                );
                d.end_command_buffer(c).map_err(vkr("vkEndCommandBuffer"))?;
            }
        }
        let si = [vk::SubmitInfo::default().command_buffers(cmds)];
        // SAFETY: recorded command buffers; then idle.
        unsafe {
            d.queue_submit(self.queue, &si, vk::Fence::null()).map_err(vkr("vkQueueSubmit"))?;
            d.queue_wait_idle(self.queue).map_err(vkr("vkQueueWaitIdle"))?;
            d.free_command_buffers(self.pool, cmds);
        }
        Ok(())
    }

    fn dispatch(&self, c: vk::CommandBuffer, p: vk::Pipeline, layout: vk::PipelineLayout, push: &[u32], groups: u32) {
        let d = &self.device;
        let bytes: Vec<u8> = push.iter().flat_map(|w| w.to_le_bytes()).collect();
        // SAFETY: a recording command buffer with compatible state.
        unsafe {
            d.cmd_bind_pipeline(c, vk::PipelineBindPoint::COMPUTE, p);
            if !bytes.is_empty() {
                d.cmd_push_constants(c, layout, vk::ShaderStageFlags::COMPUTE, 0, &bytes);
            }
            d.cmd_dispatch(c, groups, 1, 1);
        }
    }

    fn bind(
        &self,
        c: vk::CommandBuffer,
        layout: vk::PipelineLayout,
        first: u32,
        sets: &[vk::DescriptorSet],
        offsets: &[u32],
    ) {
        // SAFETY: a recording command buffer.
        unsafe {
            self.device.cmd_bind_descriptor_sets(c, vk::PipelineBindPoint::COMPUTE, layout, first, sets, offsets)
        };
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: the device is idle; every object is destroyed once, children first.
        unsafe {
            let _ = self.device.device_wait_idle();
            for b in self.buffers.drain(..) {
                self.device.destroy_buffer(b.buffer, None);
                self.device.free_memory(b.memory, None);
            }
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_device(None);
            if let Some(v) = self.messenger.take() {
                v.destroy();
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// Compares `got` with `want` over `want.len()` words; names the first difference.
fn check(what: &str, got: &[u32], want: &[u32]) -> Res<()> {
    match got.iter().zip(want).position(|(a, b)| a != b) {
        Some(i) => Err(mismatch(format!("{what}: word {i}: got {:#x}, want {:#x}", got[i], want[i]))),
        None if got.len() < want.len() => Err(mismatch(format!("{what}: {} words, want {}", got.len(), want.len()))),
        None => Ok(()),
    }
}

/// Objects a scenario made, destroyed at its end.
#[derive(Default)]
struct Made {
    pipelines: Vec<(vk::Pipeline, vk::PipelineLayout)>,
    set_layouts: Vec<vk::DescriptorSetLayout>,
    pools: Vec<vk::DescriptorPool>,
    templates: Vec<vk::DescriptorUpdateTemplate>,
}

impl Made {
    fn destroy(self, g: &Gpu) {
        let d = &g.device;
        // SAFETY: the device is idle; the objects are no longer used.
        unsafe {
            let _ = d.device_wait_idle();
            for (p, l) in self.pipelines {
                d.destroy_pipeline(p, None);
                d.destroy_pipeline_layout(l, None);
            }
            for t in self.templates {
                d.destroy_descriptor_update_template(t, None);
            }
            for p in self.pools {
                d.destroy_descriptor_pool(p, None);
            }
            for l in self.set_layouts {
                d.destroy_descriptor_set_layout(l, None);
            }
        }
    }
}

const SSBO: vk::DescriptorType = vk::DescriptorType::STORAGE_BUFFER;
const UBO: vk::DescriptorType = vk::DescriptorType::UNIFORM_BUFFER;
const NONE: vk::DescriptorBindingFlags = vk::DescriptorBindingFlags::empty();

fn indexing(g: &mut Gpu, m: &mut Made) -> Res<()> {
    if let Some(missing) = &g.no_indexing {
        println!("indexing: SKIPPED: the device does not support {missing}");
        return Ok(());
    }
    const GROUPS: u32 = 4;
    const N: usize = 64 * GROUPS as usize;
    const MAX: u32 = 64; // layout maximum of the runtime array
    const COUNT: u32 = 8; // allocated (variable) count
    const SKIP: u32 = 5; // the element left unwritten
    let uab = vk::DescriptorBindingFlags::UPDATE_AFTER_BIND;
    let var = uab
        | vk::DescriptorBindingFlags::UPDATE_UNUSED_WHILE_PENDING
        | vk::DescriptorBindingFlags::PARTIALLY_BOUND
        | vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT;
    let sl = g.set_layout(
        vk::DescriptorSetLayoutCreateFlags::UPDATE_AFTER_BIND_POOL,
        &[(SSBO, 1, uab), (UBO, 4, uab), (SSBO, MAX, var)],
    )?;
    m.set_layouts.push(sl);
    let pool = g.pool(vk::DescriptorPoolCreateFlags::UPDATE_AFTER_BIND, 1, &[(SSBO, 1 + COUNT), (UBO, 4)])?;
    m.pools.push(pool);
    let counts = [COUNT];
    let mut vc = vk::DescriptorSetVariableDescriptorCountAllocateInfo::default().descriptor_counts(&counts);
    let ai = vk::DescriptorSetAllocateInfo::default()
        .descriptor_pool(pool)
        .set_layouts(std::slice::from_ref(&sl))
        .push_next(&mut vc);
    // SAFETY: valid allocate info.
    let set = unsafe { g.device.allocate_descriptor_sets(&ai) }.map_err(vkr("vkAllocateDescriptorSets"))?[0];

    let ins: Vec<usize> = (0..COUNT)
        .map(|k| g.buffer(4 * N as u64, &(0..N as u32).map(|i| k * 1000 + i).collect::<Vec<_>>()))
        .collect::<Res<_>>()?;
    let ubos: Vec<usize> = (0..4u32)
        .map(|j| {
            g.buffer(
                256,
                &(0..16u32).map(|w| if w % 4 == 0 { 100_000 * (j + 1) + w / 4 } else { 0 }).collect::<Vec<_>>(),
            )
        })
        .collect::<Res<_>>()?;
    let out = g.buffer(4 * N as u64, &[])?;

    let mut waves: Vec<Option<u32>> = g.wave_sizes.iter().map(|&w| Some(w)).collect();
    if waves.is_empty() {
        waves.push(None);
    }
    for wave in waves {
        for probe in [false, true] {
            if probe && !g.softnavi {
                continue; // reading an unwritten descriptor is undefined in Vulkan
            }
            let p = g.pipeline(INDEX, &[sl], 12, wave)?;
            m.pipelines.push(p);
            g.fill(out, 0xdead_beef);
            let c = g.command_buffer()?;
            g.bind(c, p.1, 0, &[set], &[]);
            g.dispatch(c, p.0, p.1, &[COUNT, SKIP, probe as u32], GROUPS);
            // Update after bind: every descriptor is written only now, before the submit.
            g.write(set, 0, 0, SSBO, &[g.info(out, 0, vk::WHOLE_SIZE)]);
            let ui: Vec<_> = ubos.iter().map(|&b| g.info(b, 0, 256)).collect();
            g.write(set, 1, 0, UBO, &ui);
            for (k, &b) in ins.iter().enumerate() {
                if k as u32 != SKIP {
                    g.write(set, 2, k as u32, SSBO, &[g.info(b, 0, vk::WHOLE_SIZE)]);
                }
            }
            g.submit(&[c])?;
            let want: Vec<u32> = (0..N as u32)
                .map(|i| {
                    let mut k = (i * 7 + 3) % COUNT;
                    if k == SKIP && !probe {
                        k = (k + 1) % COUNT;
                    }
                    let a = if k == SKIP { 0 } else { k * 1000 + i };
                    a + 100_000 * ((i & 3) + 1) + ((i >> 2) & 3)
                })
                .collect();
            check(&format!("indexing (wave {wave:?}, unwritten read {probe})"), &g.read(out), &want)?;
            println!("indexing: wave {wave:?}, unwritten element read {probe}: {N} values ok");
        }
    }
    Ok(())
}

fn push(g: &mut Gpu, m: &mut Made) -> Res<()> {
    const N: usize = 128;
    let pl =
        g.set_layout(vk::DescriptorSetLayoutCreateFlags::PUSH_DESCRIPTOR_KHR, &[(SSBO, 1, NONE), (SSBO, 1, NONE)])?;
    let sl = g.set_layout(vk::DescriptorSetLayoutCreateFlags::empty(), &[(UBO, 1, NONE)])?;
    m.set_layouts.extend([pl, sl]);
    let p = g.pipeline(PUSH, &[pl, sl], 0, None)?;
    m.pipelines.push(p);
    let pool = g.pool(vk::DescriptorPoolCreateFlags::empty(), 2, &[(UBO, 2)])?;
    m.pools.push(pool);
    let sets = g.alloc(pool, &[sl, sl])?;
    let s1 = g.buffer(256, &[3, 7])?;
    let s2 = g.buffer(256, &[5, 1])?;
    g.write(sets[0], 0, 0, UBO, &[g.info(s1, 0, vk::WHOLE_SIZE)]);
    g.write(sets[1], 0, 0, UBO, &[g.info(s2, 0, 8)]);
    let a = g.buffer(4 * N as u64, &(0..N as u32).collect::<Vec<_>>())?;
    let b = g.buffer(4 * N as u64, &(0..N as u32).map(|i| 1000 + 2 * i).collect::<Vec<_>>())?;
    let outs: Vec<usize> = (0..4).map(|_| g.buffer(4 * N as u64, &[])).collect::<Res<_>>()?;

    let entries = [vk::DescriptorUpdateTemplateEntry {
        dst_binding: 0,
        dst_array_element: 0,
        descriptor_count: 2,
        descriptor_type: SSBO,
        offset: 0,
        stride: 32,
    }];
    let ti = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::PUSH_DESCRIPTORS_KHR)
        .descriptor_set_layout(pl)
        .pipeline_bind_point(vk::PipelineBindPoint::COMPUTE)
        .pipeline_layout(p.1)
        .set(0);
    // SAFETY: valid create info.
    let t = unsafe { g.device.create_descriptor_update_template(&ti, None) }
        .map_err(vkr("vkCreateDescriptorUpdateTemplate"))?;
    m.templates.push(t);

    let push_set = |c, src: usize, dst: usize| {
        let i0 = [g.info(src, 0, vk::WHOLE_SIZE)];
        let i1 = [g.info(dst, 0, vk::WHOLE_SIZE)];
        let w = [
            vk::WriteDescriptorSet::default().dst_binding(0).descriptor_type(SSBO).buffer_info(&i0),
            vk::WriteDescriptorSet::default().dst_binding(1).descriptor_type(SSBO).buffer_info(&i1),
        ];
        // SAFETY: a recording command buffer; valid writes.
        unsafe { g.push.cmd_push_descriptor_set(c, vk::PipelineBindPoint::COMPUTE, p.1, 0, &w) };
    };
    // Template data: two VkDescriptorBufferInfo 32 bytes apart.
    #[repr(C)]
    #[derive(Clone, Copy)]
    struct Slot {
        info: vk::DescriptorBufferInfo,
        _pad: [u64; 1],
    }
    let data = [
        Slot { info: g.info(b, 0, vk::WHOLE_SIZE), _pad: [0] },
        Slot { info: g.info(outs[2], 0, vk::WHOLE_SIZE), _pad: [0] },
    ];

    // Command buffer 1: push, dispatch; bind set 1 anew (set 0 stays: compatible layout);
    // push again, dispatch; push with the template, dispatch.
    let c1 = g.command_buffer()?;
    g.bind(c1, p.1, 1, &[sets[0]], &[]);
    push_set(c1, a, outs[0]);
    g.dispatch(c1, p.0, p.1, &[], (N / 64) as u32);
    g.bind(c1, p.1, 1, &[sets[1]], &[]);
    g.dispatch(c1, p.0, p.1, &[], 1); // first half of outs[0] again, with set 1 = s2
    push_set(c1, b, outs[1]);
    g.dispatch(c1, p.0, p.1, &[], (N / 64) as u32);
    // SAFETY: a recording command buffer; data matches the template.
    unsafe { g.push.cmd_push_descriptor_set_with_template(c1, t, p.1, 0, data.as_ptr() as *const c_void) };
    g.dispatch(c1, p.0, p.1, &[], (N / 64) as u32);
    // Command buffer 2: its own push (nothing carries over from c1).
    let c2 = g.command_buffer()?;
    g.bind(c2, p.1, 1, &[sets[0]], &[]);
    push_set(c2, b, outs[3]);
    g.dispatch(c2, p.0, p.1, &[], (N / 64) as u32);
    g.submit(&[c1, c2])?;

    let f = |src: &dyn Fn(u32) -> u32, s: (u32, u32), n: usize| -> Vec<u32> {
        (0..n as u32).map(|i| src(i) * s.0 + s.1).collect()
    };
    let av = |i: u32| i;
    let bv = |i: u32| 1000 + 2 * i;
    let mut want0 = f(&av, (5, 1), 64);
    want0.extend(f(&av, (3, 7), N)[64..].iter());
    check("push: push + rebind of set 1", &g.read(outs[0]), &want0)?;
    check("push: second push", &g.read(outs[1]), &f(&bv, (5, 1), N))?;
    check("push: template push", &g.read(outs[2]), &f(&bv, (5, 1), N))?;
    check("push: second command buffer", &g.read(outs[3]), &f(&bv, (3, 7), N))?;
    println!("push: 4 pushes (one by template) over 2 command buffers: ok");
    Ok(())
}

fn dynamic(g: &mut Gpu, m: &mut Made) -> Res<()> {
    const N: u32 = 128;
    let s0 = g.set_layout(
        vk::DescriptorSetLayoutCreateFlags::empty(),
        &[(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1, NONE), (vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 1, NONE)],
    )?;
    let s1 = g.set_layout(
        vk::DescriptorSetLayoutCreateFlags::empty(),
        &[(vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 1, NONE)],
    )?;
    m.set_layouts.extend([s0, s1]);
    let p = g.pipeline(DYNAMIC, &[s0, s1], 4, None)?;
    m.pipelines.push(p);
    let pool = g.pool(
        vk::DescriptorPoolCreateFlags::empty(),
        2,
        &[(vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, 1), (vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, 2)],
    )?;
    m.pools.push(pool);
    let sets = g.alloc(pool, &[s0, s1])?;
    // Uniform: scale 3 at offset 0, scale 5 at 256.
    let mut u = vec![0u32; 128];
    u[0] = 3;
    u[64] = 5;
    let ub = g.buffer(512, &u)?;
    // Source: 8 KiB of i + 10000 * (offset / 256).
    let src = g.buffer(8192, &(0..2048u32).map(|w| (w % 64) + 10_000 * (w / 64)).collect::<Vec<_>>())?;
    let dst = g.buffer(2048, &[])?;
    g.fill(dst, 0xdead_beef);
    g.write(sets[0], 0, 0, vk::DescriptorType::UNIFORM_BUFFER_DYNAMIC, &[g.info(ub, 0, 16)]);
    g.write(sets[0], 1, 0, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, &[g.info(dst, 0, 384)]);
    g.write(sets[1], 0, 0, vk::DescriptorType::STORAGE_BUFFER_DYNAMIC, &[g.info(src, 0, 256)]);
    let robust = g.softnavi;
    let c = g.command_buffer()?;
    // Dispatch 1: offsets in (set, binding) order: uniform 0, dst 0, src 7936.
    g.bind(c, p.1, 0, &sets, &[0, 0, 7936]);
    g.dispatch(c, p.0, p.1, &[if robust { N } else { 64 }], N / 64);
    // Dispatch 2: uniform 256, dst 1024, src 7680.
    g.bind(c, p.1, 0, &sets, &[256, 1024, 7680]);
    g.dispatch(c, p.0, p.1, &[if robust { N } else { 64 }], N / 64);
    g.submit(&[c])?;
    let got = g.read(dst);
    let mut want = vec![0xdead_beef; 512];
    // The source range is 64 words: past it, loads read 0 (robust buffer access); the
    // destination range is 96 words: past it, stores are dropped.
    let lanes = if robust { 96 } else { 64 };
    for i in 0..lanes {
        let v = |base: u32, scale: u32| if i < 64 { ((i as u32) + 10_000 * base) * scale + 1 } else { 1 };
        want[i] = v(31, 3);
        want[256 + i] = v(30, 5);
    }
    check("dynamic", &got, &want)?;
    println!("dynamic: 2 dispatches, 3 dynamic offsets each, robust accesses {robust}: ok");
    Ok(())
}

fn copies(g: &mut Gpu, m: &mut Made) -> Res<()> {
    const N: usize = 64;
    let sl = g.set_layout(
        vk::DescriptorSetLayoutCreateFlags::empty(),
        &[(SSBO, 2, NONE), (SSBO, 2, NONE), (SSBO, 1, NONE)],
    )?;
    m.set_layouts.push(sl);
    let p = g.pipeline(COPY, &[sl], 0, None)?;
    m.pipelines.push(p);
    let pool = g.pool(vk::DescriptorPoolCreateFlags::empty(), 2, &[(SSBO, 10)])?;
    m.pools.push(pool);
    let sets = g.alloc(pool, &[sl, sl])?;
    let k: Vec<usize> = (0..4u32)
        .map(|b| g.buffer(4 * N as u64, &(0..N as u32).map(|i| (b + 1) * 1000 + i).collect::<Vec<_>>()))
        .collect::<Res<_>>()?;
    let outs = [g.buffer(16 * N as u64, &[])?, g.buffer(16 * N as u64, &[])?];
    // Set 0 by a template: three descriptors from binding 0 element 0 on (running into
    // binding 1), 24 bytes apart; then binding 1 element 1 and the output.
    let entries = [
        vk::DescriptorUpdateTemplateEntry {
            dst_binding: 0,
            dst_array_element: 0,
            descriptor_count: 3,
            descriptor_type: SSBO,
            offset: 0,
            stride: 24,
        },
        vk::DescriptorUpdateTemplateEntry {
            dst_binding: 1,
            dst_array_element: 1,
            descriptor_count: 1,
            descriptor_type: SSBO,
            offset: 72,
            stride: 0,
        },
        vk::DescriptorUpdateTemplateEntry {
            dst_binding: 2,
            dst_array_element: 0,
            descriptor_count: 1,
            descriptor_type: SSBO,
            offset: 96,
            stride: 0,
        },
    ];
    let ti = vk::DescriptorUpdateTemplateCreateInfo::default()
        .descriptor_update_entries(&entries)
        .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
        .descriptor_set_layout(sl);
    // SAFETY: valid create info.
    let t = unsafe { g.device.create_descriptor_update_template(&ti, None) }
        .map_err(vkr("vkCreateDescriptorUpdateTemplate"))?;
    m.templates.push(t);
    let mut data = [0u8; 128];
    for (n, &b) in [k[0], k[1], k[2], k[3], outs[0]].iter().enumerate() {
        let i = g.info(b, 0, vk::WHOLE_SIZE);
        let at = if n < 3 { 24 * n } else { 72 + 24 * (n - 3) };
        data[at..at + 8].copy_from_slice(&ash::vk::Handle::as_raw(i.buffer).to_le_bytes());
        data[at + 8..at + 16].copy_from_slice(&i.offset.to_le_bytes());
        data[at + 16..at + 24].copy_from_slice(&i.range.to_le_bytes());
    }
    // SAFETY: data matches the template.
    unsafe { g.device.update_descriptor_set_with_template(sets[0], t, data.as_ptr() as *const c_void) };
    // Set 1: a copy of set 0's (0, 1) .. (1, 1) to (0, 0) .. (1, 0), then (1, 1) and the output.
    let cp = [vk::CopyDescriptorSet::default()
        .src_set(sets[0])
        .src_binding(0)
        .src_array_element(1)
        .dst_set(sets[1])
        .dst_binding(0)
        .dst_array_element(0)
        .descriptor_count(3)];
    // SAFETY: valid copies.
    unsafe { g.device.update_descriptor_sets(&[], &cp) };
    g.write(sets[1], 1, 1, SSBO, &[g.info(k[0], 0, vk::WHOLE_SIZE)]);
    g.write(sets[1], 2, 0, SSBO, &[g.info(outs[1], 0, vk::WHOLE_SIZE)]);
    let c = g.command_buffer()?;
    for (s, _) in sets.iter().enumerate() {
        g.bind(c, p.1, 0, &sets[s..s + 1], &[]);
        g.dispatch(c, p.0, p.1, &[], 1);
    }
    g.submit(&[c])?;
    for (s, order) in [[1u32, 2, 3, 4], [2, 3, 4, 1]].iter().enumerate() {
        let want: Vec<u32> = (0..N as u32).flat_map(|i| order.map(|b| b * 1000 + i)).collect();
        check(&format!("copies: set {s}"), &g.read(outs[s]), &want)?;
    }
    println!("copies: template with stride across bindings, copy across bindings: ok");
    Ok(())
}

fn pools(g: &mut Gpu, m: &mut Made) -> Res<()> {
    let sl = g.set_layout(vk::DescriptorSetLayoutCreateFlags::empty(), &[(SSBO, 2, NONE)])?;
    m.set_layouts.push(sl);
    let pool = g.pool(vk::DescriptorPoolCreateFlags::FREE_DESCRIPTOR_SET, 4, &[(SSBO, 8)])?;
    m.pools.push(pool);
    let sets = g.alloc(pool, &[sl, sl, sl, sl])?;
    let ai = vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(std::slice::from_ref(&sl));
    // SAFETY: valid allocate info (the pool is full: maxSets and descriptors).
    match unsafe { g.device.allocate_descriptor_sets(&ai) } {
        Err(vk::Result::ERROR_OUT_OF_POOL_MEMORY) | Err(vk::Result::ERROR_FRAGMENTED_POOL) => {}
        Ok(_) if !g.softnavi => println!("pools: this driver allocated past the pool's size"),
        r => return Err(mismatch(format!("pools: allocation from a full pool: {r:?}, want ERROR_OUT_OF_POOL_MEMORY"))),
    }
    let d = &g.device;
    {
        // Free two, allocate two again, in the freed space.
        // SAFETY: sets of this pool, not in use.
        unsafe { d.free_descriptor_sets(pool, &sets[1..3]) }.map_err(vkr("vkFreeDescriptorSets"))?;
        let again = g.alloc(pool, &[sl, sl])?;
        if again.len() != 2 {
            return Err(mismatch("pools: reallocation after free".into()));
        }
    }
    // SAFETY: the pool's sets are not in use.
    unsafe { d.reset_descriptor_pool(pool, vk::DescriptorPoolResetFlags::empty()) }
        .map_err(vkr("vkResetDescriptorPool"))?;
    let all = g.alloc(pool, &[sl, sl, sl, sl])?;
    if all.len() != 4 {
        return Err(mismatch("pools: allocation after reset".into()));
    }
    if let Some(missing) = &g.no_indexing {
        println!("pools: out-of-pool, free + reuse, reset: ok (no variable counts: no {missing})");
        return Ok(());
    }
    // Layout support with a variable-count binding.
    let b = [vk::DescriptorSetLayoutBinding::default()
        .binding(0)
        .descriptor_type(SSBO)
        .descriptor_count(1024)
        .stage_flags(vk::ShaderStageFlags::COMPUTE)];
    let bf = [vk::DescriptorBindingFlags::VARIABLE_DESCRIPTOR_COUNT | vk::DescriptorBindingFlags::PARTIALLY_BOUND];
    let mut fi = vk::DescriptorSetLayoutBindingFlagsCreateInfo::default().binding_flags(&bf);
    let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&b).push_next(&mut fi);
    let mut var = vk::DescriptorSetVariableDescriptorCountLayoutSupport::default();
    let mut support = vk::DescriptorSetLayoutSupport::default().push_next(&mut var);
    // SAFETY: valid structures.
    unsafe { d.get_descriptor_set_layout_support(&info, &mut support) };
    let supported = support.supported;
    let max_var = var.max_variable_descriptor_count;
    if g.radv && supported != 0 && max_var == 0 {
        // RADV 22.3 looks for the structure in the create info's pNext chain instead of
        // the support's, so it never fills it in (later Mesa reads pSupport->pNext).
        println!("pools: out-of-pool, free + reuse, reset: ok; layout support: RADV 22.3 leaves maxVariableDescriptorCount unset (its bug)");
        return Ok(());
    }
    if supported == 0 || max_var < 1024 {
        return Err(mismatch(format!(
            "pools: layout support: supported {supported}, maxVariableDescriptorCount {max_var}"
        )));
    }
    println!("pools: out-of-pool, free + reuse, reset, layout support (max variable count {max_var}): ok");
    Ok(())
}

type Scenario = fn(&mut Gpu, &mut Made) -> Res<()>;
const SCENARIOS: &[(&str, Scenario)] =
    &[("indexing", indexing), ("push", push), ("dynamic", dynamic), ("copies", copies), ("pools", pools)];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let validate = args.iter().any(|a| a == "--validate");
    let wanted: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    if let Some(bad) = wanted.iter().find(|w| !SCENARIOS.iter().any(|(n, _)| n == *w)) {
        eprintln!("unknown scenario {bad}; known: {:?}", SCENARIOS.iter().map(|s| s.0).collect::<Vec<_>>());
        return ExitCode::from(2);
    }
    let mut g = match Gpu::new(validate) {
        Ok(g) => g,
        Err((code, msg)) => {
            eprintln!("softnavi-descriptors: {msg}");
            return ExitCode::from(code);
        }
    };
    let mut status = 0u8;
    for (name, f) in SCENARIOS {
        if !wanted.is_empty() && !wanted.contains(name) {
            continue;
        }
        let mut made = Made::default();
        let r = f(&mut g, &mut made);
        made.destroy(&g);
        if let Err((code, msg)) = r {
            eprintln!("{name}: FAILED: {msg}");
            status = status.max(code);
        }
    }
    drop(g);
    let messages = softnavi_tests::validation::messages();
    if validate {
        println!("validation: {messages} error/warning message(s)");
    }
    if status == 0 && messages > 0 {
        status = 3;
    }
    ExitCode::from(status)
}
