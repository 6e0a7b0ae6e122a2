//! `softnavi-features SCENARIO [ARGS]`: what a driver reports about itself and the
//! extensions behind it (VK_EXT_subgroup_size_control, VK_KHR_pipeline_executable_properties),
//! through the real loader, for `tests/tests/features.rs` to compare with its oracles.
//!
//! Output is line-based: `EXT name`, `FEATURE Struct.member 0|1`, `PROP name value`,
//! `STAT name value`, `RESULT ...`; `VALIDATION n` counts the validation layer's
//! errors and warnings when the scenario runs with it. Exit 0 unless the scenario itself
//! could not be carried out.

use std::ffi::{c_void, CStr};
use std::process::ExitCode;

use ash::vk;

const SUBGROUP_SIZE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/subgroup_size.spv"));
const SUBGROUP: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/subgroup.spv"));
const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/copy.spv"));
/// OpenCL kernels compiled by clang-19 for wave64 (tests/build.rs): an AMDHSA code object.
const GROUP_W64: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/w64v5/group.elf"));

type Res<T> = Result<T, String>;

/// The device extensions whose features and properties `report` reads (and enables).
const KNOWN_EXTENSIONS: &[&str] = &[
    "VK_KHR_pipeline_executable_properties",
    "VK_EXT_subgroup_size_control",
    "VK_KHR_shader_non_semantic_info",
    "VK_KHR_storage_buffer_storage_class",
    "VK_KHR_shader_float16_int8",
    "VK_KHR_16bit_storage",
    "VK_KHR_8bit_storage",
    "VK_KHR_shader_atomic_int64",
    "VK_EXT_shader_atomic_float",
    "VK_EXT_shader_atomic_float2",
    "VK_KHR_shader_integer_dot_product",
    "VK_KHR_buffer_device_address",
    "VK_KHR_variable_pointers",
];

fn vkr(call: &str) -> impl FnOnce(vk::Result) -> String + '_ {
    move |r| format!("{call} returned {r:?}")
}

/// Code as words (an ELF file's length need not be a multiple of 4: padded with zeros).
fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| c.iter().rev().fold(0, |w, &b| w << 8 | b as u32)).collect()
}

/// An instance (optionally with the validation layer) and its first physical device.
struct Instance {
    _entry: ash::Entry,
    instance: ash::Instance,
    pd: vk::PhysicalDevice,
    messenger: Option<softnavi_tests::validation::Validation>,
}

impl Instance {
    fn new(validate: bool) -> Res<Instance> {
        Self::with_api(validate, vk::API_VERSION_1_1)
    }

    fn with_api(validate: bool, api: u32) -> Res<Instance> {
        // SAFETY: loading the system loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| e.to_string())?;
        let app = vk::ApplicationInfo::default().api_version(api);
        let (instance, messenger) =
            softnavi_tests::validation::create_instance(&entry, &app, &[], validate).map_err(|(w, e)| vkr(w)(e))?;
        // SAFETY: a live instance.
        let pd = unsafe { instance.enumerate_physical_devices() }.map_err(vkr("vkEnumeratePhysicalDevices"))?;
        let pd = *pd.first().ok_or("no physical device")?;
        Ok(Instance { _entry: entry, instance, pd, messenger })
    }

    fn extensions(&self) -> Res<Vec<String>> {
        // SAFETY: a live physical device.
        let e = unsafe { self.instance.enumerate_device_extension_properties(self.pd) }
            .map_err(vkr("vkEnumerateDeviceExtensionProperties"))?;
        Ok(e.iter()
            .filter_map(|e| e.extension_name_as_c_str().ok())
            .map(|n| n.to_string_lossy().into_owned())
            .collect())
    }

    /// Creates a device with `extensions` and the `pNext` feature chain `features`.
    fn device(&self, extensions: &[&CStr], features: *const c_void) -> Result<ash::Device, vk::Result> {
        let prio = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&prio)];
        let names: Vec<_> = extensions.iter().map(|e| e.as_ptr()).collect();
        let mut info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(&names);
        info.p_next = features;
        // SAFETY: valid create info; the chain is valid.
        unsafe { self.instance.create_device(self.pd, &info, None) }
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: every child object is gone.
        unsafe {
            if let Some(v) = self.messenger.take() {
                v.destroy();
            }
            self.instance.destroy_instance(None);
        }
    }
}

fn flag(b: vk::Bool32) -> u32 {
    (b != 0) as u32
}

/// Prints extensions, the features2 chain and the properties2 chain.
fn report(validate: bool) -> Res<String> {
    let inst = Instance::new(validate)?;
    for e in inst.extensions()? {
        println!("EXT {e}");
    }
    let mut s16 = vk::PhysicalDevice16BitStorageFeatures::default();
    let mut vp = vk::PhysicalDeviceVariablePointersFeatures::default();
    let mut dp = vk::PhysicalDeviceShaderDrawParametersFeatures::default();
    let mut f16 = vk::PhysicalDeviceShaderFloat16Int8Features::default();
    let mut s8 = vk::PhysicalDevice8BitStorageFeatures::default();
    let mut af = vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT::default();
    let mut af2 = vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT::default();
    let mut dot = vk::PhysicalDeviceShaderIntegerDotProductFeatures::default();
    let mut bda = vk::PhysicalDeviceBufferDeviceAddressFeatures::default();
    let mut ssc = vk::PhysicalDeviceSubgroupSizeControlFeatures::default();
    let mut pe = vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default()
        .push_next(&mut s16)
        .push_next(&mut vp)
        .push_next(&mut dp)
        .push_next(&mut f16)
        .push_next(&mut s8)
        .push_next(&mut af)
        .push_next(&mut af2)
        .push_next(&mut dot)
        .push_next(&mut bda)
        .push_next(&mut ssc)
        .push_next(&mut pe);
    // SAFETY: a live physical device; a valid chain.
    unsafe { inst.instance.get_physical_device_features2(inst.pd, &mut f2) };
    let f = f2.features;
    let mut features = vec![
        ("robustBufferAccess", f.robust_buffer_access),
        ("shaderFloat64", f.shader_float64),
        ("shaderInt64", f.shader_int64),
        ("shaderInt16", f.shader_int16),
        ("geometryShader", f.geometry_shader),
    ];
    // SAFETY: a live physical device.
    let plain = unsafe { inst.instance.get_physical_device_features(inst.pd) };
    println!("RESULT features2 core == features: {}", format!("{plain:?}") == format!("{f:?}"));
    features.extend([
        ("storageBuffer16BitAccess", s16.storage_buffer16_bit_access),
        ("uniformAndStorageBuffer16BitAccess", s16.uniform_and_storage_buffer16_bit_access),
        ("storagePushConstant16", s16.storage_push_constant16),
        ("storageInputOutput16", s16.storage_input_output16),
        ("variablePointersStorageBuffer", vp.variable_pointers_storage_buffer),
        ("variablePointers", vp.variable_pointers),
        ("shaderDrawParameters", dp.shader_draw_parameters),
        ("shaderFloat16", f16.shader_float16),
        ("shaderInt8", f16.shader_int8),
        ("storageBuffer8BitAccess", s8.storage_buffer8_bit_access),
        ("uniformAndStorageBuffer8BitAccess", s8.uniform_and_storage_buffer8_bit_access),
        ("storagePushConstant8", s8.storage_push_constant8),
        ("shaderBufferFloat32AtomicAdd", af.shader_buffer_float32_atomic_add),
        ("shaderSharedFloat32AtomicAdd", af.shader_shared_float32_atomic_add),
        ("shaderBufferFloat64AtomicAdd", af.shader_buffer_float64_atomic_add),
        ("shaderImageFloat32Atomics", af.shader_image_float32_atomics),
        ("shaderBufferFloat32AtomicMinMax", af2.shader_buffer_float32_atomic_min_max),
        ("shaderSharedFloat32AtomicMinMax", af2.shader_shared_float32_atomic_min_max),
        ("shaderIntegerDotProduct", dot.shader_integer_dot_product),
        ("bufferDeviceAddress", bda.buffer_device_address),
        ("bufferDeviceAddressCaptureReplay", bda.buffer_device_address_capture_replay),
        ("subgroupSizeControl", ssc.subgroup_size_control),
        ("computeFullSubgroups", ssc.compute_full_subgroups),
        ("pipelineExecutableInfo", pe.pipeline_executable_info),
    ]);
    for (name, v) in features {
        println!("FEATURE {name} {}", flag(v));
    }
    let mut sub = vk::PhysicalDeviceSubgroupProperties::default();
    let mut sscp = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let mut dotp = vk::PhysicalDeviceShaderIntegerDotProductProperties::default();
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut sub).push_next(&mut id);
    let exts = inst.extensions()?;
    if exts.iter().any(|e| e == "VK_EXT_subgroup_size_control") {
        p2 = p2.push_next(&mut sscp);
    }
    if exts.iter().any(|e| e == "VK_KHR_shader_integer_dot_product") {
        p2 = p2.push_next(&mut dotp);
    }
    // SAFETY: a live physical device; a valid chain.
    unsafe { inst.instance.get_physical_device_properties2(inst.pd, &mut p2) };
    println!("PROP subgroupSize {}", sub.subgroup_size);
    println!("PROP supportedOperations {}", sub.supported_operations.as_raw());
    println!("PROP supportedStages {}", sub.supported_stages.as_raw());
    println!("PROP minSubgroupSize {}", sscp.min_subgroup_size);
    println!("PROP maxSubgroupSize {}", sscp.max_subgroup_size);
    println!("PROP maxComputeWorkgroupSubgroups {}", sscp.max_compute_workgroup_subgroups);
    println!("PROP requiredSubgroupSizeStages {}", sscp.required_subgroup_size_stages.as_raw());
    // A device with every extension of the ones above and every reported feature enabled.
    let names: Vec<std::ffi::CString> = exts
        .iter()
        .filter(|e| KNOWN_EXTENSIONS.contains(&e.as_str()))
        .map(|e| std::ffi::CString::new(e.as_str()).map_err(|e| e.to_string()))
        .collect::<Res<_>>()?;
    let refs: Vec<&CStr> = names.iter().map(|n| n.as_c_str()).collect();
    // Only the structures of enabled extensions may be chained (and the 1.1 core ones).
    let has = |e: &str| exts.iter().any(|x| x == e);
    // The same structures, unlinked from the query's chain.
    s16.p_next = std::ptr::null_mut();
    vp.p_next = std::ptr::null_mut();
    dp.p_next = std::ptr::null_mut();
    f16.p_next = std::ptr::null_mut();
    s8.p_next = std::ptr::null_mut();
    af.p_next = std::ptr::null_mut();
    af2.p_next = std::ptr::null_mut();
    dot.p_next = std::ptr::null_mut();
    bda.p_next = std::ptr::null_mut();
    ssc.p_next = std::ptr::null_mut();
    pe.p_next = std::ptr::null_mut();
    let mut chain = vk::PhysicalDeviceFeatures2 { features: f, ..Default::default() };
    chain = chain.push_next(&mut s16).push_next(&mut vp).push_next(&mut dp);
    if has("VK_KHR_shader_float16_int8") {
        chain = chain.push_next(&mut f16);
    }
    if has("VK_KHR_8bit_storage") {
        chain = chain.push_next(&mut s8);
    }
    if has("VK_EXT_shader_atomic_float") {
        chain = chain.push_next(&mut af);
    }
    if has("VK_EXT_shader_atomic_float2") {
        chain = chain.push_next(&mut af2);
    }
    if has("VK_KHR_shader_integer_dot_product") {
        chain = chain.push_next(&mut dot);
    }
    if has("VK_KHR_buffer_device_address") {
        chain = chain.push_next(&mut bda);
    }
    if has("VK_EXT_subgroup_size_control") {
        chain = chain.push_next(&mut ssc);
    }
    if has("VK_KHR_pipeline_executable_properties") {
        chain = chain.push_next(&mut pe);
    }
    let dev = inst.device(&refs, &chain as *const _ as *const c_void);
    let created = match dev {
        Ok(d) => {
            // SAFETY: nothing was created on it.
            unsafe { d.destroy_device(None) };
            "SUCCESS".to_string()
        }
        Err(e) => format!("{e:?}"),
    };
    drop(inst);
    if validate {
        println!("VALIDATION {}", softnavi_tests::validation::messages());
    }
    Ok(format!("device with every extension and reported feature: {created}"))
}

/// Device creation with what is not supported (no validation layer: this is invalid usage).
fn bad_devices() -> Res<String> {
    let inst = Instance::new(false)?;
    let r = |d: Result<ash::Device, vk::Result>| match d {
        Ok(d) => {
            // SAFETY: nothing was created on it.
            unsafe { d.destroy_device(None) };
            "SUCCESS".to_string()
        }
        Err(e) => format!("{e:?}"),
    };
    let unknown = r(inst.device(&[c"VK_EXT_softnavi_no_such_extension"], std::ptr::null()));
    let geometry = vk::PhysicalDeviceFeatures { geometry_shader: vk::TRUE, ..Default::default() };
    let prio = [1.0];
    let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&prio)];
    let info = vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_features(&geometry);
    // SAFETY: valid create info.
    let core = r(unsafe { inst.instance.create_device(inst.pd, &info, None) });
    let draw =
        vk::PhysicalDeviceShaderDrawParametersFeatures { shader_draw_parameters: vk::TRUE, ..Default::default() };
    let chained = r(inst.device(&[], &draw as *const _ as *const c_void));
    let f2 = vk::PhysicalDeviceFeatures2 { features: geometry, ..Default::default() };
    let features2 = r(inst.device(&[], &f2 as *const _ as *const c_void));
    Ok(format!("unknown extension: {unknown}; geometryShader: {core}; shaderDrawParameters: {chained}; features2 geometryShader: {features2}"))
}

/// A device with VK_EXT_subgroup_size_control and VK_KHR_pipeline_executable_properties.
struct Device {
    inst: Instance,
    dev: ash::Device,
    queue: vk::Queue,
    memory_type: u32,
}

impl Device {
    fn new(validate: bool) -> Res<Device> {
        let inst = Instance::new(validate)?;
        let mut ssc = vk::PhysicalDeviceSubgroupSizeControlFeatures::default()
            .subgroup_size_control(true)
            .compute_full_subgroups(true);
        let mut pe =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
        let f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut ssc).push_next(&mut pe);
        let dev = inst
            .device(
                &[ash::ext::subgroup_size_control::NAME, ash::khr::pipeline_executable_properties::NAME],
                &f2 as *const _ as *const c_void,
            )
            .map_err(vkr("vkCreateDevice"))?;
        // SAFETY: a live device with one queue.
        let queue = unsafe { dev.get_device_queue(0, 0) };
        // SAFETY: a live physical device.
        let mp = unsafe { inst.instance.get_physical_device_memory_properties(inst.pd) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let memory_type = (0..mp.memory_type_count)
            .find(|&i| mp.memory_types[i as usize].property_flags.contains(want))
            .ok_or("no host-visible coherent memory")?;
        Ok(Device { inst, dev, queue, memory_type })
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: every child object is gone.
        unsafe { self.dev.destroy_device(None) };
    }
}

/// A compute pipeline with one storage buffer at set 0 binding 0, and what it needs.
struct Kernel<'a> {
    d: &'a Device,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    bindings: u32,
}

impl<'a> Kernel<'a> {
    /// `required`: a VkPipelineShaderStageRequiredSubgroupSizeCreateInfo; `stage_flags`,
    /// `flags`: the stage's and the pipeline's flags.
    fn new(
        d: &'a Device,
        spirv: &[u8],
        entry: &CStr,
        bindings: u32,
        required: Option<u32>,
        stage_flags: vk::PipelineShaderStageCreateFlags,
        flags: vk::PipelineCreateFlags,
    ) -> Result<Kernel<'a>, vk::Result> {
        let b: Vec<_> = (0..bindings)
            .map(|i| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(i)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        // SAFETY: valid create infos throughout.
        unsafe {
            let set_layout =
                d.dev.create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&b), None)?;
            let sl = [set_layout];
            let layout =
                d.dev.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&sl), None)?;
            let mut k = Kernel { d, set_layout, layout, pipeline: vk::Pipeline::null(), bindings };
            let code = words(spirv);
            let module = d.dev.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&code), None)?;
            let mut req = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default()
                .required_subgroup_size(required.unwrap_or(0));
            let mut stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(entry)
                .flags(stage_flags);
            if required.is_some() {
                stage = stage.push_next(&mut req);
            }
            let info = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout).flags(flags)];
            let p = d.dev.create_compute_pipelines(vk::PipelineCache::null(), &info, None);
            d.dev.destroy_shader_module(module, None);
            k.pipeline = p.map_err(|(_, e)| e)?[0];
            Ok(k)
        }
    }

    /// Runs `groups` workgroups with one host-visible buffer of `words` words at every
    /// binding; returns its contents.
    fn run(&self, groups: u32, words: usize) -> Res<Vec<u32>> {
        let dev = &self.d.dev;
        let bytes = 4 * words as u64;
        // SAFETY: valid create infos; every object is destroyed before returning.
        unsafe {
            let buf = dev
                .create_buffer(
                    &vk::BufferCreateInfo::default().size(bytes).usage(vk::BufferUsageFlags::STORAGE_BUFFER),
                    None,
                )
                .map_err(vkr("vkCreateBuffer"))?;
            let req = dev.get_buffer_memory_requirements(buf);
            let mem = dev
                .allocate_memory(
                    &vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(self.d.memory_type),
                    None,
                )
                .map_err(vkr("vkAllocateMemory"))?;
            dev.bind_buffer_memory(buf, mem, 0).map_err(vkr("vkBindBufferMemory"))?;
            let ptr =
                dev.map_memory(mem, 0, bytes, vk::MemoryMapFlags::empty()).map_err(vkr("vkMapMemory"))? as *mut u32;
            std::ptr::write_bytes(ptr, 0xee, words);
            let sizes = [vk::DescriptorPoolSize::default()
                .ty(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(self.bindings)];
            let pool = dev
                .create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
                .map_err(vkr("vkCreateDescriptorPool"))?;
            let sl = [self.set_layout];
            let set = dev
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&sl),
                )
                .map_err(vkr("vkAllocateDescriptorSets"))?[0];
            let bi = [vk::DescriptorBufferInfo::default().buffer(buf).range(vk::WHOLE_SIZE)];
            let w: Vec<_> = (0..self.bindings)
                .map(|b| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(b)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(&bi)
                })
                .collect();
            dev.update_descriptor_sets(&w, &[]);
            let cpool = dev
                .create_command_pool(&vk::CommandPoolCreateInfo::default().queue_family_index(0), None)
                .map_err(vkr("vkCreateCommandPool"))?;
            let cmd = dev
                .allocate_command_buffers(
                    &vk::CommandBufferAllocateInfo::default().command_pool(cpool).command_buffer_count(1),
                )
                .map_err(vkr("vkAllocateCommandBuffers"))?[0];
            dev.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default())
                .map_err(vkr("vkBeginCommandBuffer"))?;
            dev.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            dev.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, self.layout, 0, &[set], &[]);
            dev.cmd_dispatch(cmd, groups, 1, 1);
            let barrier = vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::SHADER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ);
            dev.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &[barrier],
                &[],
                &[],
            );
            dev.end_command_buffer(cmd).map_err(vkr("vkEndCommandBuffer"))?;
            let cmds = [cmd];
            dev.queue_submit(self.d.queue, &[vk::SubmitInfo::default().command_buffers(&cmds)], vk::Fence::null())
                .map_err(vkr("vkQueueSubmit"))?;
            dev.queue_wait_idle(self.d.queue).map_err(vkr("vkQueueWaitIdle"))?;
            let out = std::slice::from_raw_parts(ptr, words).to_vec();
            dev.destroy_command_pool(cpool, None);
            dev.destroy_descriptor_pool(pool, None);
            dev.destroy_buffer(buf, None);
            dev.free_memory(mem, None);
            Ok(out)
        }
    }
}

impl Drop for Kernel<'_> {
    fn drop(&mut self) {
        // SAFETY: the device is idle; these objects are ours.
        unsafe {
            self.d.dev.destroy_pipeline(self.pipeline, None);
            self.d.dev.destroy_pipeline_layout(self.layout, None);
            self.d.dev.destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

/// Checks subgroup_size.comp's output for subgroups of `size` laid out linearly.
fn check_subgroups(data: &[u32], size: u32) -> Result<(), String> {
    for (slot, w) in data.chunks(4).enumerate() {
        let local = slot as u32 % 128;
        let want = [size, local % size, local / size, 128 / size];
        if w != want {
            return Err(format!("invocation {slot}: got {w:?}, expected {want:?}"));
        }
    }
    Ok(())
}

/// Dispatches subgroup_size.comp with each subgroup size requirement (valid usage, run with
/// the validation layer), then creates pipelines that break the rules (without it).
fn subgroup_sizes() -> Res<String> {
    let mut results = Vec::new();
    {
        let d = Device::new(true)?;
        let full = vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS;
        let varying = vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE;
        let none = vk::PipelineShaderStageCreateFlags::empty();
        for (what, required, flags, expect) in [
            ("none", None, none, 32),
            ("required=32", Some(32), none, 32),
            ("required=64", Some(64), none, 64),
            ("required=64+full", Some(64), full, 64),
            ("varying+full", None, varying | full, 32),
        ] {
            let k = Kernel::new(&d, SUBGROUP_SIZE, c"main", 1, required, flags, vk::PipelineCreateFlags::empty())
                .map_err(vkr("vkCreateComputePipelines"))?;
            let data = k.run(3, 3 * 128 * 4)?;
            let r = match check_subgroups(&data, expect) {
                Ok(()) => format!("{what}: verified size {expect}"),
                Err(e) => format!("{what}: WRONG: {e}"),
            };
            results.push(r);
        }
    }
    println!("VALIDATION {}", softnavi_tests::validation::messages());
    let d = Device::new(false)?;
    let full = vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS;
    let flags = vk::PipelineCreateFlags::empty();
    for (what, spirv, required, stage_flags) in [
        ("required=16", SUBGROUP_SIZE, Some(16), vk::PipelineShaderStageCreateFlags::empty()),
        ("80 wide+required=64+full", SUBGROUP, Some(64), full),
        ("80 wide+full", SUBGROUP, None, full),
    ] {
        let r = match Kernel::new(&d, spirv, c"main", 1, required, stage_flags, flags) {
            Ok(_) => "SUCCESS".to_string(),
            Err(e) => format!("{e:?}"),
        };
        results.push(format!("{what}: {r}"));
    }
    Ok(results.join("; "))
}

/// Pipeline executable properties, statistics and internal representations of copy.comp
/// compiled for `required` lanes; the representations' texts are written to `dir`.
fn executables(dir: &str, required: u32) -> Res<String> {
    let d = Device::new(true)?;
    let flags =
        vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
    let k = Kernel::new(&d, COPY, c"main", 2, Some(required), vk::PipelineShaderStageCreateFlags::empty(), flags)
        .map_err(vkr("vkCreateComputePipelines"))?;
    let pe = ash::khr::pipeline_executable_properties::Device::new(&d.inst.instance, &d.dev);
    let info = vk::PipelineInfoKHR::default().pipeline(k.pipeline);
    // SAFETY: a live pipeline; the two-call idiom by hand below.
    let props =
        unsafe { pe.get_pipeline_executable_properties(&info) }.map_err(vkr("vkGetPipelineExecutablePropertiesKHR"))?;
    println!("PROP executables {}", props.len());
    for p in &props {
        println!("PROP stages {}", p.stages.as_raw());
        println!("PROP executableSubgroupSize {}", p.subgroup_size);
        println!("PROP name {}", p.name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default());
    }
    let ex = vk::PipelineExecutableInfoKHR::default().pipeline(k.pipeline).executable_index(0);
    // SAFETY: as above.
    let stats =
        unsafe { pe.get_pipeline_executable_statistics(&ex) }.map_err(vkr("vkGetPipelineExecutableStatisticsKHR"))?;
    for s in &stats {
        let name = s.name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // SAFETY: the format says which member is valid.
        let v = unsafe {
            match s.format {
                vk::PipelineExecutableStatisticFormatKHR::UINT64 => s.value.u64.to_string(),
                vk::PipelineExecutableStatisticFormatKHR::INT64 => s.value.i64.to_string(),
                vk::PipelineExecutableStatisticFormatKHR::FLOAT64 => s.value.f64.to_string(),
                _ => s.value.b32.to_string(),
            }
        };
        println!("STAT {name}={v}");
    }
    // The two-call idiom with too small a count: INCOMPLETE and that many written.
    let fp = pe.fp();
    let mut count = 2u32;
    let mut few = [vk::PipelineExecutableStatisticKHR::default(); 2];
    // SAFETY: room for `count` statistics.
    let r = unsafe { (fp.get_pipeline_executable_statistics_khr)(d.dev.handle(), &ex, &mut count, few.as_mut_ptr()) };
    println!("RESULT statistics with room for 2: {r:?}, count {count}");
    // Internal representations: sizes first, then the texts, then one truncated.
    let mut n = 0u32;
    // SAFETY: the count query.
    let r = unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(d.dev.handle(), &ex, &mut n, std::ptr::null_mut())
    };
    if r != vk::Result::SUCCESS {
        return Err(format!("vkGetPipelineExecutableInternalRepresentationsKHR returned {r:?}"));
    }
    let mut reps = vec![vk::PipelineExecutableInternalRepresentationKHR::default(); n as usize];
    // SAFETY: room for n; pData null: sizes only.
    let r = unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(d.dev.handle(), &ex, &mut n, reps.as_mut_ptr())
    };
    println!("RESULT representation sizes: {r:?}");
    let mut buffers: Vec<Vec<u8>> = reps.iter().map(|r| vec![0xffu8; r.data_size]).collect();
    for (r, b) in reps.iter_mut().zip(&mut buffers) {
        r.p_data = b.as_mut_ptr().cast();
    }
    // SAFETY: each pData has data_size bytes.
    let r = unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(d.dev.handle(), &ex, &mut n, reps.as_mut_ptr())
    };
    println!("RESULT representations: {r:?}");
    for (rep, b) in reps.iter().zip(&buffers) {
        let name = rep.name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let text = CStr::from_bytes_until_nul(b).map_err(|e| e.to_string())?.to_string_lossy().into_owned();
        let file = format!("{dir}/{}.txt", name.replace(' ', "_"));
        std::fs::write(&file, &text).map_err(|e| format!("{file}: {e}"))?;
        println!("IR {name} text={} size={} file={file}", rep.is_text, rep.data_size);
    }
    let mut small = vec![0xffu8; 16];
    let mut one = [vk::PipelineExecutableInternalRepresentationKHR { data_size: 16, ..Default::default() }];
    one[0].p_data = small.as_mut_ptr().cast();
    let mut count = 1u32;
    // SAFETY: room for one, with 16 bytes of data.
    let r = unsafe {
        (fp.get_pipeline_executable_internal_representations_khr)(d.dev.handle(), &ex, &mut count, one.as_mut_ptr())
    };
    println!(
        "RESULT truncated: {r:?}, count {count}, dataSize {}, last byte {}, text {:?}",
        one[0].data_size,
        small[15],
        String::from_utf8_lossy(&small[..15])
    );
    // The pipeline computes right in this wave size too: copy.comp adds 1 in place here
    // (both bindings are the same buffer).
    let out = k.run(4, 4 * 64)?;
    let ok = out.iter().all(|&w| w == 0xeeee_eeef);
    drop(k);
    drop(d);
    println!("VALIDATION {}", softnavi_tests::validation::messages());
    Ok(format!("dispatch {}", if ok { "verified" } else { "WRONG RESULTS" }))
}

/// The executable of a pipeline made from an application's code object (the OpenCL kernel
/// `collatz`, wave64): statistics and its disassembly, written to `dir`; no LLVM IR.
fn code_object(dir: &str) -> Res<String> {
    // Not with the validation layer: it takes every shader module for SPIR-V.
    let d = Device::new(false)?;
    let flags =
        vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR | vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR;
    let none = vk::PipelineShaderStageCreateFlags::empty();
    let k = Kernel::new(&d, GROUP_W64, c"collatz", 2, None, none, flags).map_err(vkr("vkCreateComputePipelines"))?;
    let pe = ash::khr::pipeline_executable_properties::Device::new(&d.inst.instance, &d.dev);
    let ex = vk::PipelineExecutableInfoKHR::default().pipeline(k.pipeline).executable_index(0);
    // SAFETY: a live pipeline.
    let stats =
        unsafe { pe.get_pipeline_executable_statistics(&ex) }.map_err(vkr("vkGetPipelineExecutableStatisticsKHR"))?;
    for s in &stats {
        let name = s.name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // SAFETY: softnavi's statistics are all UINT64.
        println!("STAT {name}={}", unsafe { s.value.u64 });
    }
    let fp = pe.fp();
    let mut n = 0u32;
    // SAFETY: the count query, then room for n with pData null, then with the data.
    unsafe {
        let f = fp.get_pipeline_executable_internal_representations_khr;
        f(d.dev.handle(), &ex, &mut n, std::ptr::null_mut()).result().map_err(vkr("count query"))?;
        let mut reps = vec![vk::PipelineExecutableInternalRepresentationKHR::default(); n as usize];
        f(d.dev.handle(), &ex, &mut n, reps.as_mut_ptr()).result().map_err(vkr("size query"))?;
        for r in &mut reps {
            let mut text = vec![0u8; r.data_size];
            r.p_data = text.as_mut_ptr().cast();
            let mut one = 1u32;
            f(d.dev.handle(), &ex, &mut one, r).result().map_err(vkr("data query"))?;
            let name = r.name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let file = format!("{dir}/{}.txt", name.replace(' ', "_"));
            let text = CStr::from_bytes_until_nul(&text).map_err(|e| e.to_string())?;
            std::fs::write(&file, text.to_bytes()).map_err(|e| format!("{file}: {e}"))?;
            println!("IR {name}");
        }
    }
    drop(k);
    // Requiring another subgroup size than the code object's wave size is an error.
    let wrong = match Kernel::new(&d, GROUP_W64, c"collatz", 2, Some(32), none, vk::PipelineCreateFlags::empty()) {
        Ok(_) => "SUCCESS".to_string(),
        Err(e) => format!("{e:?}"),
    };
    Ok(format!("{n} representation(s); required size 32: {wrong}"))
}

/// Prints `SAME what 0|1`: whether a promoted structure read on its own equals the
/// Vulkan1x structure's members.
fn same(what: &str, eq: bool) {
    println!("SAME {what} {}", eq as u32);
}

/// A Vulkan 1.3 instance: the Vulkan11/12/13 property and feature structures, each
/// promoted structure read through its own pNext chain against them, limits, memory
/// types, heaps and budget, private data and vkGetDeviceBufferMemoryRequirements.
fn properties(validate: bool) -> Res<String> {
    let inst = Instance::with_api(validate, vk::API_VERSION_1_3)?;
    let (i, pd) = (&inst.instance, inst.pd);
    let mut v11 = vk::PhysicalDeviceVulkan11Properties::default();
    let mut v12 = vk::PhysicalDeviceVulkan12Properties::default();
    let mut v13 = vk::PhysicalDeviceVulkan13Properties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default().push_next(&mut v11).push_next(&mut v12).push_next(&mut v13);
    // SAFETY: a 1.3 physical device; every structure chained is core 1.3.
    unsafe { i.get_physical_device_properties2(pd, &mut p2) };
    let p = p2.properties;
    let l = &p.limits;
    let ver = |v: u32| format!("{}.{}", vk::api_version_major(v), vk::api_version_minor(v));
    println!("PROP apiVersion {}", ver(p.api_version));
    println!("PROP deviceType {:?}", p.device_type);
    for (name, v) in [
        ("maxComputeSharedMemorySize", l.max_compute_shared_memory_size as u64),
        ("maxComputeWorkGroupInvocations", l.max_compute_work_group_invocations as u64),
        ("maxComputeWorkGroupCountX", l.max_compute_work_group_count[0] as u64),
        ("maxComputeWorkGroupCountY", l.max_compute_work_group_count[1] as u64),
        ("maxStorageBufferRange", l.max_storage_buffer_range as u64),
        ("maxUniformBufferRange", l.max_uniform_buffer_range as u64),
        ("maxPushConstantsSize", l.max_push_constants_size as u64),
        ("maxBoundDescriptorSets", l.max_bound_descriptor_sets as u64),
        ("minStorageBufferOffsetAlignment", l.min_storage_buffer_offset_alignment),
        ("minUniformBufferOffsetAlignment", l.min_uniform_buffer_offset_alignment),
        ("nonCoherentAtomSize", l.non_coherent_atom_size),
        ("maxImageDimension1D", l.max_image_dimension1_d as u64),
        ("maxFramebufferLayers", l.max_framebuffer_layers as u64),
        ("maxPerSetDescriptors", v11.max_per_set_descriptors as u64),
        ("maxMemoryAllocationSize", v11.max_memory_allocation_size),
        ("maxMultiviewViewCount", v11.max_multiview_view_count as u64),
        ("maxTimelineSemaphoreValueDifference", v12.max_timeline_semaphore_value_difference),
        ("maxUpdateAfterBindDescriptorsInAllPools", v12.max_update_after_bind_descriptors_in_all_pools as u64),
        (
            "maxPerStageDescriptorUpdateAfterBindStorageBuffers",
            v12.max_per_stage_descriptor_update_after_bind_storage_buffers as u64,
        ),
        ("maxBufferSize", v13.max_buffer_size),
        ("maxInlineUniformBlockSize", v13.max_inline_uniform_block_size as u64),
        ("storageTexelBufferOffsetAlignmentBytes", v13.storage_texel_buffer_offset_alignment_bytes),
    ] {
        println!("PROP {name} {v}");
    }
    println!("PROP timestampPeriod {}", l.timestamp_period);
    println!("PROP driverID {}", v12.driver_id.as_raw());
    println!("PROP driverName {}", v12.driver_name_as_c_str().map_err(|e| e.to_string())?.to_string_lossy());
    println!("PROP driverInfo {}", v12.driver_info_as_c_str().map_err(|e| e.to_string())?.to_string_lossy());
    let c = v12.conformance_version;
    println!("PROP conformanceVersion {}.{}.{}.{}", c.major, c.minor, c.subminor, c.patch);
    println!("PROP denormBehaviorIndependence {}", v12.denorm_behavior_independence.as_raw());
    println!("PROP shaderDenormPreserveFloat32 {}", v12.shader_denorm_preserve_float32);

    // Each promoted structure on its own, against the Vulkan1x ones.
    let mut id = vk::PhysicalDeviceIDProperties::default();
    let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
    let mut m3 = vk::PhysicalDeviceMaintenance3Properties::default();
    let mut mv = vk::PhysicalDeviceMultiviewProperties::default();
    let mut drv = vk::PhysicalDeviceDriverProperties::default();
    let mut fc = vk::PhysicalDeviceFloatControlsProperties::default();
    let mut di = vk::PhysicalDeviceDescriptorIndexingProperties::default();
    let mut ts = vk::PhysicalDeviceTimelineSemaphoreProperties::default();
    let mut sc = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
    let mut m4 = vk::PhysicalDeviceMaintenance4Properties::default();
    let mut tb = vk::PhysicalDeviceTexelBufferAlignmentProperties::default();
    let mut iub = vk::PhysicalDeviceInlineUniformBlockProperties::default();
    let mut p2 = vk::PhysicalDeviceProperties2::default()
        .push_next(&mut id)
        .push_next(&mut sg)
        .push_next(&mut m3)
        .push_next(&mut mv)
        .push_next(&mut drv)
        .push_next(&mut fc)
        .push_next(&mut di)
        .push_next(&mut ts)
        .push_next(&mut sc)
        .push_next(&mut m4)
        .push_next(&mut tb)
        .push_next(&mut iub);
    // SAFETY: as above.
    unsafe { i.get_physical_device_properties2(pd, &mut p2) };
    same(
        "ID",
        id.device_uuid == v11.device_uuid
            && id.driver_uuid == v11.driver_uuid
            && id.device_luid_valid == v11.device_luid_valid,
    );
    same(
        "Subgroup",
        (sg.subgroup_size, sg.supported_stages, sg.supported_operations)
            == (v11.subgroup_size, v11.subgroup_supported_stages, v11.subgroup_supported_operations),
    );
    same(
        "Maintenance3",
        (m3.max_per_set_descriptors, m3.max_memory_allocation_size)
            == (v11.max_per_set_descriptors, v11.max_memory_allocation_size),
    );
    same("Multiview", mv.max_multiview_view_count == v11.max_multiview_view_count);
    same(
        "Driver",
        drv.driver_id == v12.driver_id
            && drv.driver_name == v12.driver_name
            && drv.driver_info == v12.driver_info
            && (drv.conformance_version.major, drv.conformance_version.minor) == (c.major, c.minor),
    );
    same(
        "FloatControls",
        (
            fc.denorm_behavior_independence,
            fc.rounding_mode_independence,
            fc.shader_denorm_preserve_float32,
            fc.shader_rounding_mode_rtz_float32,
        ) == (
            v12.denorm_behavior_independence,
            v12.rounding_mode_independence,
            v12.shader_denorm_preserve_float32,
            v12.shader_rounding_mode_rtz_float32,
        ),
    );
    same(
        "DescriptorIndexing",
        (
            di.max_update_after_bind_descriptors_in_all_pools,
            di.max_per_stage_descriptor_update_after_bind_storage_buffers,
            di.max_descriptor_set_update_after_bind_storage_buffers_dynamic,
            di.robust_buffer_access_update_after_bind,
        ) == (
            v12.max_update_after_bind_descriptors_in_all_pools,
            v12.max_per_stage_descriptor_update_after_bind_storage_buffers,
            v12.max_descriptor_set_update_after_bind_storage_buffers_dynamic,
            v12.robust_buffer_access_update_after_bind,
        ),
    );
    same(
        "TimelineSemaphore",
        ts.max_timeline_semaphore_value_difference == v12.max_timeline_semaphore_value_difference,
    );
    same(
        "SubgroupSizeControl",
        (sc.min_subgroup_size, sc.max_subgroup_size, sc.max_compute_workgroup_subgroups)
            == (v13.min_subgroup_size, v13.max_subgroup_size, v13.max_compute_workgroup_subgroups),
    );
    same("Maintenance4", m4.max_buffer_size == v13.max_buffer_size);
    same(
        "TexelBufferAlignment",
        tb.storage_texel_buffer_offset_alignment_bytes == v13.storage_texel_buffer_offset_alignment_bytes,
    );
    same("InlineUniformBlock", iub.max_inline_uniform_block_size == v13.max_inline_uniform_block_size);

    // Features 1.3 requires of graphics: false here, named in docs/VULKAN.md.
    let mut f13 = vk::PhysicalDeviceVulkan13Features::default();
    let mut f12 = vk::PhysicalDeviceVulkan12Features::default();
    let mut f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut f12).push_next(&mut f13);
    // SAFETY: as above.
    unsafe { i.get_physical_device_features2(pd, &mut f2) };
    for (name, v) in [
        ("dynamicRendering", f13.dynamic_rendering),
        ("robustImageAccess", f13.robust_image_access),
        ("inlineUniformBlock", f13.inline_uniform_block),
        ("privateData", f13.private_data),
        ("maintenance4", f13.maintenance4),
        ("synchronization2", f13.synchronization2),
        ("timelineSemaphore", f12.timeline_semaphore),
        ("imagelessFramebuffer", f12.imageless_framebuffer),
        ("separateDepthStencilLayouts", f12.separate_depth_stencil_layouts),
    ] {
        println!("FEATURE13 {name} {v}");
    }

    // Memory types, heaps and budget.
    let mut budget = vk::PhysicalDeviceMemoryBudgetPropertiesEXT::default();
    let has_budget = inst.extensions()?.iter().any(|e| e == "VK_EXT_memory_budget");
    let mut mp2 = vk::PhysicalDeviceMemoryProperties2::default();
    if has_budget {
        mp2 = mp2.push_next(&mut budget);
    }
    // SAFETY: as above.
    unsafe { i.get_physical_device_memory_properties2(pd, &mut mp2) };
    let mp = mp2.memory_properties;
    for t in 0..mp.memory_type_count as usize {
        let m = mp.memory_types[t];
        println!("MEMTYPE {t} {} {}", m.property_flags.as_raw(), m.heap_index);
    }
    for h in 0..mp.memory_heap_count as usize {
        println!("MEMHEAP {h} {} {}", mp.memory_heaps[h].size, mp.memory_heaps[h].flags.as_raw());
    }

    // A device with privateData and maintenance4 (where reported).
    let mut en13 = vk::PhysicalDeviceVulkan13Features::default()
        .private_data(f13.private_data == vk::TRUE)
        .maintenance4(f13.maintenance4 == vk::TRUE);
    let f2 = vk::PhysicalDeviceFeatures2::default().push_next(&mut en13);
    let budget_ext = [ash::ext::memory_budget::NAME];
    let exts: &[&CStr] = if has_budget { &budget_ext } else { &[] };
    let dev = inst.device(exts, &f2 as *const _ as *const c_void).map_err(vkr("vkCreateDevice"))?;
    let host = (0..mp.memory_type_count)
        .find(|&t| {
            mp.memory_types[t as usize]
                .property_flags
                .contains(vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT)
        })
        .ok_or("no host-visible coherent memory type")?;
    let size = 3 << 20;
    // SAFETY: valid create infos on a live device; everything is destroyed below.
    let result = unsafe {
        let ai = vk::MemoryAllocateInfo::default().allocation_size(size).memory_type_index(host);
        let mem = dev.allocate_memory(&ai, None).map_err(vkr("vkAllocateMemory"))?;
        if has_budget {
            let mut after = vk::PhysicalDeviceMemoryBudgetPropertiesEXT::default();
            let mut mp2 = vk::PhysicalDeviceMemoryProperties2::default().push_next(&mut after);
            i.get_physical_device_memory_properties2(pd, &mut mp2);
            let heap = mp.memory_types[host as usize].heap_index as usize;
            println!("BUDGET usageGrowth {}", after.heap_usage[heap] - budget.heap_usage[heap]);
            println!("BUDGET withinHeap {}", (after.heap_budget[heap] <= mp.memory_heaps[heap].size) as u32);
        }
        dev.free_memory(mem, None);
        let bi = vk::BufferCreateInfo::default().size(1000).usage(vk::BufferUsageFlags::STORAGE_BUFFER);
        let buf = dev.create_buffer(&bi, None).map_err(vkr("vkCreateBuffer"))?;
        let r1 = dev.get_buffer_memory_requirements(buf);
        dev.destroy_buffer(buf, None);
        println!("REQ memoryTypeBits {}", r1.memory_type_bits);
        if f13.maintenance4 == vk::TRUE {
            let dbr = vk::DeviceBufferMemoryRequirements::default().create_info(&bi);
            let mut r2 = vk::MemoryRequirements2::default();
            dev.get_device_buffer_memory_requirements(&dbr, &mut r2);
            let r2 = r2.memory_requirements;
            same(
                "DeviceBufferMemoryRequirements",
                (r1.size, r1.alignment, r1.memory_type_bits) == (r2.size, r2.alignment, r2.memory_type_bits),
            );
        }
        if f13.private_data == vk::TRUE {
            let slot = dev
                .create_private_data_slot(&vk::PrivateDataSlotCreateInfo::default(), None)
                .map_err(vkr("vkCreatePrivateDataSlot"))?;
            let fence = dev.create_fence(&vk::FenceCreateInfo::default(), None).map_err(vkr("vkCreateFence"))?;
            let before = dev.get_private_data(fence, slot);
            dev.set_private_data(fence, slot, 0x5eed_f00d_1234).map_err(vkr("vkSetPrivateData"))?;
            let after = dev.get_private_data(fence, slot);
            dev.set_private_data(dev.handle(), slot, 7).map_err(vkr("vkSetPrivateData"))?;
            let on_device = dev.get_private_data(dev.handle(), slot);
            dev.destroy_fence(fence, None);
            dev.destroy_private_data_slot(slot, None);
            println!("PRIVATE {before:#x} {after:#x} {on_device}");
        }
        dev.destroy_device(None);
        "done"
    };
    drop(inst);
    if validate {
        println!("VALIDATION {}", softnavi_tests::validation::messages());
    }
    Ok(result.to_string())
}

/// Mapping memory of a type without HOST_VISIBLE (invalid usage: no validation layer).
fn memory() -> Res<String> {
    let inst = Instance::with_api(false, vk::API_VERSION_1_3)?;
    // SAFETY: a live physical device.
    let mp = unsafe { inst.instance.get_physical_device_memory_properties(inst.pd) };
    let t = (0..mp.memory_type_count)
        .find(|&t| !mp.memory_types[t as usize].property_flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE))
        .ok_or("every memory type is host visible")?;
    let dev = inst.device(&[], std::ptr::null()).map_err(vkr("vkCreateDevice"))?;
    // SAFETY: valid allocate info on a live device; freed below.
    let r = unsafe {
        let mem = dev
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(4096).memory_type_index(t), None)
            .map_err(vkr("vkAllocateMemory"))?;
        let r = dev.map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty());
        dev.free_memory(mem, None);
        dev.destroy_device(None);
        r
    };
    Ok(format!("map of device-local type {t}: {}", r.err().map_or("SUCCESS".to_string(), |e| format!("{e:?}"))))
}

/// Device creation with features Vulkan 1.3 requires: dynamicRendering (softnavi has it,
/// without draws) and inlineUniformBlock (which it lacks).
fn bad_devices_13() -> Res<String> {
    let inst = Instance::with_api(false, vk::API_VERSION_1_3)?;
    let mut out = Vec::new();
    for (name, f) in [
        ("dynamicRendering", vk::PhysicalDeviceVulkan13Features::default().dynamic_rendering(true)),
        ("inlineUniformBlock", vk::PhysicalDeviceVulkan13Features::default().inline_uniform_block(true)),
    ] {
        let r = match inst.device(&[], &f as *const _ as *const c_void) {
            Ok(d) => {
                // SAFETY: nothing was created on it.
                unsafe { d.destroy_device(None) };
                "SUCCESS".to_string()
            }
            Err(e) => format!("{e:?}"),
        };
        out.push(format!("{name}: {r}"));
    }
    Ok(out.join("; "))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| args.get(i).map(String::as_str).unwrap_or_default();
    let r = match arg(1) {
        "report" => report(arg(2) == "--validate"),
        "bad-devices" => bad_devices(),
        "properties" => properties(arg(2) == "--validate"),
        "memory" => memory(),
        "bad-devices-13" => bad_devices_13(),
        "subgroup-sizes" => subgroup_sizes(),
        "executables" => executables(arg(2), arg(3).parse().unwrap_or(32)),
        "code-object" => code_object(arg(2)),
        _ => {
            eprintln!("usage: softnavi-features report [--validate]|bad-devices|subgroup-sizes|executables DIR SIZE|code-object DIR");
            return ExitCode::from(2);
        }
    };
    match r {
        Ok(s) => {
            println!("RESULT: {s}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("softnavi-features {}: {e}", arg(1));
            ExitCode::from(1)
        }
    }
}
