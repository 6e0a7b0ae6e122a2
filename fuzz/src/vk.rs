//! Vulkan through the ICD's own entry points, in process and without the loader (the
//! library's `vk_icdGetInstanceProcAddr`, as the loader would call it): one instance and
//! device with two storage buffers bound in set 0, recreated when a fuzzed kernel loses
//! the device.

use std::ffi::CStr;
use std::sync::Mutex;

use ash::vk;

/// Storage buffers the pipelines' set 0 has (an external code object's `global_buffer`
/// arguments take them in order).
pub const BUFFERS: u32 = 2;
/// Bytes of each buffer.
const BUFFER_BYTES: u64 = 64 << 10;
/// Bytes of push constants the pipeline layout has.
pub const PUSH_BYTES: u32 = 256;

/// Settings for every fuzz run: a small device, short hang timeout, no disk cache (hits
/// would skip the compiler, and files would pile up), no log spam. Each only when unset, so
/// that a finding can be replayed with other values.
fn configure_env() {
    for (k, v) in [
        ("SOFTNAVI_THREADS", "2"),
        ("SOFTNAVI_MEMORY_MB", "512"),
        ("SOFTNAVI_HANG_TIMEOUT_MS", "1000"),
        ("SOFTNAVI_JIT", "off"),
        ("SOFTNAVI_CACHE_DIR", "off"),
        ("SOFTNAVI_LOG", "off"),
    ] {
        if std::env::var_os(k).is_none() {
            std::env::set_var(k, v);
        }
    }
}

/// An instance and device of the ICD, and the objects every target's pipelines use.
pub struct Vk {
    pub instance: ash::Instance,
    pub device: ash::Device,
    pub queue: vk::Queue,
    pub exec: ash::khr::pipeline_executable_properties::Device,
    pub set_layout: vk::DescriptorSetLayout,
    pub layout: vk::PipelineLayout,
    set: vk::DescriptorSet,
    resources: Resources,
    pool: vk::CommandPool,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
}

/// Why a [`Vk::dispatch`] did not complete.
#[derive(Debug, PartialEq, Eq)]
pub enum DispatchError {
    /// The device was lost (a fault or a hang of the kernel): make a new one.
    Lost,
    Other(vk::Result),
}

impl Vk {
    /// A fresh instance and device.
    pub fn create() -> Vk {
        configure_env();
        // SAFETY: the ICD's vk_icdGetInstanceProcAddr is a valid vkGetInstanceProcAddr.
        let entry = unsafe {
            ash::Entry::from_static_fn(ash::StaticFn {
                get_instance_proc_addr: softnavi_icd::vk_icdGetInstanceProcAddr,
            })
        };
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let instance =
            unsafe { entry.create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None) }
                .expect("vkCreateInstance"); // ok: fuzz harness set-up

        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let physical = unsafe { instance.enumerate_physical_devices() }.expect("a softnavi device")[0]; // ok: set-up
        let priorities = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&priorities)];
        let exts = [ash::khr::pipeline_executable_properties::NAME.as_ptr()];
        let mut exec_features =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&exts)
            .push_next(&mut exec_features);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let device = unsafe { instance.create_device(physical, &info, None) }.expect("vkCreateDevice"); // ok: set-up

        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let queue = unsafe { device.get_device_queue(0, 0) };
        let exec = ash::khr::pipeline_executable_properties::Device::new(&instance, &device);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let (set_layout, layout, set, resources) = unsafe { descriptors(&instance, physical, &device) };
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let pool = unsafe { device.create_command_pool(&vk::CommandPoolCreateInfo::default(), None) }.unwrap(); // ok: set-up
        let alloc = vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let cmd = unsafe { device.allocate_command_buffers(&alloc) }.unwrap()[0]; // ok: set-up

        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }.unwrap(); // ok: set-up
        Vk { instance, device, queue, exec, set_layout, layout, set, resources, pool, cmd, fence }
    }

    /// A shader module of `code` (SPIR-V words or a code object's bytes).
    pub fn shader_module(&self, code: &[u8]) -> Result<vk::ShaderModule, vk::Result> {
        // vkCreateShaderModule takes u32 words: copy into aligned storage.
        let mut words = vec![0u32; code.len().div_ceil(4)];
        for (w, c) in words.iter_mut().zip(code.chunks(4)) {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            *w = u32::from_le_bytes(b);
        }
        let info =
            vk::ShaderModuleCreateInfo { code_size: code.len() & !3, p_code: words.as_ptr(), ..Default::default() };
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe { self.device.create_shader_module(&info, None) }
    }

    /// A compute pipeline of `module`'s `entry` with [`Vk::layout`], capturing statistics.
    pub fn pipeline(
        &self,
        module: vk::ShaderModule,
        entry: &CStr,
        cache: vk::PipelineCache,
        flags: vk::PipelineCreateFlags,
    ) -> Result<vk::Pipeline, vk::Result> {
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(entry);
        let info = vk::ComputePipelineCreateInfo::default()
            .stage(stage)
            .layout(self.layout)
            .flags(flags | vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe { self.device.create_compute_pipelines(cache, &[info], None) }.map(|p| p[0]).map_err(|(_, e)| e)
    }

    /// What VK_KHR_pipeline_executable_properties tells about a pipeline (the statistics
    /// disassemble its code); the results are only looked at.
    pub fn inspect(&self, pipeline: vk::Pipeline) {
        let info = vk::PipelineInfoKHR::default().pipeline(pipeline);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let _ = std::hint::black_box(unsafe { self.exec.get_pipeline_executable_properties(&info) });
        let exe = vk::PipelineExecutableInfoKHR::default().pipeline(pipeline).executable_index(0);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let _ = std::hint::black_box(unsafe { self.exec.get_pipeline_executable_statistics(&exe) });
    }

    /// Records and runs one dispatch of `pipeline` (set 0 bound, push constants zero) and
    /// waits for it.
    pub fn dispatch(&self, pipeline: vk::Pipeline, groups: [u32; 3]) -> Result<(), DispatchError> {
        let d = &self.device;
        let other = DispatchError::Other;
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe {
            d.reset_command_buffer(self.cmd, vk::CommandBufferResetFlags::empty()).map_err(other)?;
            d.begin_command_buffer(self.cmd, &vk::CommandBufferBeginInfo::default()).map_err(other)?;
            d.cmd_bind_pipeline(self.cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_bind_descriptor_sets(self.cmd, vk::PipelineBindPoint::COMPUTE, self.layout, 0, &[self.set], &[]);
            let push = [0u8; PUSH_BYTES as usize];
            d.cmd_push_constants(self.cmd, self.layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
            d.cmd_dispatch(self.cmd, groups[0], groups[1], groups[2]);
            d.end_command_buffer(self.cmd).map_err(other)?;
            let cmds = [self.cmd];
            let submit = vk::SubmitInfo::default().command_buffers(&cmds);
            d.reset_fences(&[self.fence]).map_err(other)?;
            let lost = |e| if e == vk::Result::ERROR_DEVICE_LOST { DispatchError::Lost } else { other(e) };
            d.queue_submit(self.queue, &[submit], self.fence).map_err(lost)?;
            // The device's hang timeout ends any dispatch long before this.
            d.wait_for_fences(&[self.fence], true, 60_000_000_000).map_err(lost)
        }
    }
}

impl Drop for Vk {
    fn drop(&mut self) {
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe {
            let _ = self.device.device_wait_idle();
            self.device.destroy_fence(self.fence, None);
            self.device.destroy_command_pool(self.pool, None);
            self.device.destroy_descriptor_pool(self.resources.pool, None);
            for &(b, m) in &self.resources.buffers {
                self.device.destroy_buffer(b, None);
                self.device.free_memory(m, None);
            }
            self.device.destroy_pipeline_layout(self.layout, None);
            self.device.destroy_descriptor_set_layout(self.set_layout, None);
            self.device.destroy_device(None);
            self.instance.destroy_instance(None);
        }
    }
}

/// What set 0 is made of, destroyed with the device.
struct Resources {
    pool: vk::DescriptorPool,
    buffers: Vec<(vk::Buffer, vk::DeviceMemory)>,
}

/// Set 0 (two storage buffers, bound to fresh memory) and the pipeline layout with it and
/// [`PUSH_BYTES`] of push constants.
///
/// # Safety
/// `d` must be a live device of `physical`, created from `instance`.
unsafe fn descriptors(
    instance: &ash::Instance,
    physical: vk::PhysicalDevice,
    d: &ash::Device,
) -> (vk::DescriptorSetLayout, vk::PipelineLayout, vk::DescriptorSet, Resources) {
    let bindings: Vec<_> = (0..BUFFERS)
        .map(|b| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    let info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let set_layout = unsafe { d.create_descriptor_set_layout(&info, None) }.unwrap(); // ok: set-up
    let set_layouts = [set_layout];
    let push = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: PUSH_BYTES }];
    let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&push);
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let layout = unsafe { d.create_pipeline_layout(&info, None) }.unwrap(); // ok: set-up
    let sizes = [vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: BUFFERS }];
    let info = vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes);
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let pool = unsafe { d.create_descriptor_pool(&info, None) }.unwrap(); // ok: set-up
    let info = vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&set_layouts);
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let set = unsafe { d.allocate_descriptor_sets(&info) }.unwrap()[0]; // ok: set-up

    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let memory_type = unsafe { instance.get_physical_device_memory_properties(physical) }
        .memory_types_as_slice()
        .iter()
        .position(|t| t.property_flags.contains(vk::MemoryPropertyFlags::HOST_VISIBLE))
        .expect("a host-visible memory type") as u32; // ok: set-up
    let mut resources = Resources { pool, buffers: Vec::new() };
    for b in 0..BUFFERS {
        let info = vk::BufferCreateInfo::default().size(BUFFER_BYTES).usage(vk::BufferUsageFlags::STORAGE_BUFFER);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let buffer = unsafe { d.create_buffer(&info, None) }.unwrap(); // ok: set-up
        let info = vk::MemoryAllocateInfo::default().allocation_size(BUFFER_BYTES).memory_type_index(memory_type);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        let memory = unsafe { d.allocate_memory(&info, None) }.unwrap(); // ok: set-up

        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe { d.bind_buffer_memory(buffer, memory, 0) }.unwrap(); // ok: set-up
        resources.buffers.push((buffer, memory));
        let buffers = [vk::DescriptorBufferInfo { buffer, offset: 0, range: vk::WHOLE_SIZE }];
        let write = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .dst_binding(b)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&buffers);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe { d.update_descriptor_sets(&[write], &[]) };
    }
    (set_layout, layout, set, resources)
}

static VK: Mutex<Option<Vk>> = Mutex::new(None);

/// The process's [`Vk`], made on first use and again after [`reset`].
pub fn with<R>(f: impl FnOnce(&Vk) -> R) -> R {
    static AT_EXIT: std::sync::Once = std::sync::Once::new();
    // Destroy the device before LeakSanitizer's exit check (registered earlier, so run
    // later): its live threads' memory would be reported as leaked.
    AT_EXIT.call_once(|| {
        extern "C" fn destroy() {
            reset();
        }
        extern "C" {
            fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
        }
        // SAFETY: registers a plain function with the C library.
        unsafe { atexit(destroy) };
    });
    let mut g = VK.lock().unwrap_or_else(|e| e.into_inner());
    f(g.get_or_insert_with(Vk::create))
}

/// Drops the process's [`Vk`] (after its device was lost).
pub fn reset() {
    *VK.lock().unwrap_or_else(|e| e.into_inner()) = None;
}
