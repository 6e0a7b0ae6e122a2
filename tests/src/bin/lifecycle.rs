//! `softnavi-lifecycle [N] [--validate]`: creates and destroys every kind of Vulkan object a
//! compute driver has, N times (default 3): instance, device (two queues when the first
//! compute family has them), memory, buffers, descriptor pool and sets, pipeline layout,
//! shader module, compute pipeline, command pool and buffers, fence, semaphore, event and
//! query pool; each round submits a small dispatch (with a timestamp before and after),
//! waits, checks the result and destroys everything. Run under valgrind by
//! `tests/tests/valgrind.rs` to find leaks in the ICD.
//!
//! Prints `lifecycle: N rounds clean` and exits 0; exits 1 on a wrong result, 2 on a Vulkan
//! error, 3 when `--validate` was given and the validation layer reported anything.

use std::ffi::{c_void, CStr};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};

use ash::vk;
use softnavi_examples::spirv_words;

const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/copy.spv"));
const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";
/// Elements per buffer: 4 workgroups of `copy.comp`.
const N: u32 = 256;

static MESSAGES: AtomicUsize = AtomicUsize::new(0);

unsafe extern "system" fn on_message(
    _severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    MESSAGES.fetch_add(1, Ordering::Relaxed);
    // SAFETY: the layer passes a valid callback data struct for the duration of the call.
    if let Some(msg) = unsafe { data.as_ref() }.and_then(|d| unsafe { d.message_as_c_str() }) {
        println!("lifecycle: validation: {}", msg.to_string_lossy());
    }
    vk::FALSE
}

#[derive(Debug)]
enum Failure {
    Vulkan(&'static str, vk::Result),
    Wrong(String),
}

trait Call<T> {
    fn call(self, what: &'static str) -> Result<T, Failure>;
}

impl<T> Call<T> for Result<T, vk::Result> {
    fn call(self, what: &'static str) -> Result<T, Failure> {
        self.map_err(|r| Failure::Vulkan(what, r))
    }
}

/// One round: everything created, used and destroyed.
fn round(entry: &ash::Entry, validate: bool, words: &[u32]) -> Result<(), Failure> {
    let app = vk::ApplicationInfo::default().application_name(c"softnavi-lifecycle").api_version(vk::API_VERSION_1_1);
    let layers = [VALIDATION_LAYER.as_ptr()];
    let extensions = [ash::ext::debug_utils::NAME.as_ptr()];
    let mut info = vk::InstanceCreateInfo::default().application_info(&app);
    if validate {
        info = info.enabled_layer_names(&layers).enabled_extension_names(&extensions);
    }
    // SAFETY: `info` and what it points to outlive the call.
    let instance = unsafe { entry.create_instance(&info, None) }.call("vkCreateInstance")?;
    let debug = ash::ext::debug_utils::Instance::new(entry, &instance);
    let messenger = if validate {
        let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(
                vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
            )
            .message_type(
                vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                    | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                    | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
            )
            .pfn_user_callback(Some(on_message));
        // SAFETY: valid instance with VK_EXT_debug_utils enabled.
        Some(unsafe { debug.create_debug_utils_messenger(&info, None) }.call("vkCreateDebugUtilsMessengerEXT")?)
    } else {
        None
    };
    let r = with_instance(&instance, words);
    if let Some(m) = messenger {
        // SAFETY: created above, destroyed once.
        unsafe { debug.destroy_debug_utils_messenger(m, None) };
    }
    // SAFETY: every child object was destroyed by `with_instance`.
    unsafe { instance.destroy_instance(None) };
    r
}

fn with_instance(instance: &ash::Instance, words: &[u32]) -> Result<(), Failure> {
    // SAFETY: plain queries on a valid instance.
    let phys = unsafe { instance.enumerate_physical_devices() }.call("vkEnumeratePhysicalDevices")?;
    let Some(&pd) = phys.first() else {
        return Err(Failure::Wrong("no physical device".into()));
    };
    // SAFETY: valid physical device.
    let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
    let Some(family) = families.iter().position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE)) else {
        return Err(Failure::Wrong("no compute queue family".into()));
    };
    let queues = families[family].queue_count.min(2);
    let timestamps = families[family].timestamp_valid_bits > 0;
    let priorities = [1.0f32, 0.5];
    let queue_info = [vk::DeviceQueueCreateInfo::default()
        .queue_family_index(family as u32)
        .queue_priorities(&priorities[..queues as usize])];
    // SAFETY: valid physical device; `queue_info` outlives the call.
    let device =
        unsafe { instance.create_device(pd, &vk::DeviceCreateInfo::default().queue_create_infos(&queue_info), None) }
            .call("vkCreateDevice")?;
    // SAFETY: valid physical device.
    let memory = unsafe { instance.get_physical_device_memory_properties(pd) };
    let mut objects = Objects::default();
    let r = with_device(&device, &memory, words, family as u32, queues, timestamps, &mut objects);
    // SAFETY: the queues are idle (or the device is lost); everything is destroyed once.
    unsafe {
        let _ = device.device_wait_idle();
        objects.destroy(&device);
        device.destroy_device(None);
    }
    r
}

/// Every object of a round, so that they are destroyed on error paths too.
#[derive(Default)]
struct Objects {
    memory: Vec<vk::DeviceMemory>,
    buffers: Vec<vk::Buffer>,
    set_layout: vk::DescriptorSetLayout,
    pool: vk::DescriptorPool,
    layout: vk::PipelineLayout,
    module: vk::ShaderModule,
    pipeline: vk::Pipeline,
    cmd_pool: vk::CommandPool,
    fence: vk::Fence,
    semaphore: vk::Semaphore,
    event: vk::Event,
    query_pool: vk::QueryPool,
}

impl Objects {
    /// # Safety
    /// The objects belong to `device` and are not in use.
    unsafe fn destroy(&mut self, device: &ash::Device) {
        // SAFETY: per the contract; null handles are ignored by vkDestroy*.
        unsafe {
            device.destroy_query_pool(self.query_pool, None);
            device.destroy_event(self.event, None);
            device.destroy_semaphore(self.semaphore, None);
            device.destroy_fence(self.fence, None);
            device.destroy_command_pool(self.cmd_pool, None);
            device.destroy_pipeline(self.pipeline, None);
            device.destroy_shader_module(self.module, None);
            device.destroy_pipeline_layout(self.layout, None);
            device.destroy_descriptor_pool(self.pool, None);
            device.destroy_descriptor_set_layout(self.set_layout, None);
            for b in self.buffers.drain(..) {
                device.destroy_buffer(b, None);
            }
            for m in self.memory.drain(..) {
                device.free_memory(m, None);
            }
        }
    }
}

fn with_device(
    device: &ash::Device,
    memory: &vk::PhysicalDeviceMemoryProperties,
    words: &[u32],
    family: u32,
    queues: u32,
    timestamps: bool,
    o: &mut Objects,
) -> Result<(), Failure> {
    // SAFETY (whole function): every create info and what it points to outlives its call;
    // every handle passed belongs to `device`; objects are recorded in `o` as soon as they
    // exist so that the caller destroys them.
    unsafe {
        // Buffers in host-visible, coherent memory, bound at offsets of one allocation.
        let size = 4 * N as u64;
        for _ in 0..2 {
            let info = vk::BufferCreateInfo::default().size(size).usage(vk::BufferUsageFlags::STORAGE_BUFFER);
            o.buffers.push(device.create_buffer(&info, None).call("vkCreateBuffer")?);
        }
        let req = device.get_buffer_memory_requirements(o.buffers[0]);
        let stride = req.size.next_multiple_of(req.alignment);
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let Some(type_index) = (0..memory.memory_type_count).find(|&i| {
            req.memory_type_bits & (1 << i) != 0 && memory.memory_types[i as usize].property_flags.contains(want)
        }) else {
            return Err(Failure::Wrong("no host-visible coherent memory type".into()));
        };
        let alloc = vk::MemoryAllocateInfo::default().allocation_size(2 * stride).memory_type_index(type_index);
        let mem = device.allocate_memory(&alloc, None).call("vkAllocateMemory")?;
        o.memory.push(mem);
        // A second allocation that is only mapped and freed (mapped memory freed implicitly).
        let spare = device
            .allocate_memory(
                &vk::MemoryAllocateInfo::default().allocation_size(65536).memory_type_index(type_index),
                None,
            )
            .call("vkAllocateMemory")?;
        o.memory.push(spare);
        device.map_memory(spare, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).call("vkMapMemory")?;
        device.bind_buffer_memory(o.buffers[0], mem, 0).call("vkBindBufferMemory")?;
        device.bind_buffer_memory(o.buffers[1], mem, stride).call("vkBindBufferMemory")?;
        let ptr =
            device.map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()).call("vkMapMemory")? as *mut u32;
        let src: Vec<u32> = (0..N).map(|i| i.wrapping_mul(2654435761)).collect();
        std::ptr::copy_nonoverlapping(src.as_ptr(), ptr, N as usize);
        std::ptr::write_bytes(ptr.add((stride / 4) as usize), 0, N as usize);

        // Descriptors.
        let bindings = [0, 1].map(|b| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        });
        o.set_layout = device
            .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
            .call("vkCreateDescriptorSetLayout")?;
        let sizes = [vk::DescriptorPoolSize { ty: vk::DescriptorType::STORAGE_BUFFER, descriptor_count: 8 }];
        o.pool = device
            .create_descriptor_pool(
                &vk::DescriptorPoolCreateInfo::default()
                    .flags(vk::DescriptorPoolCreateFlags::FREE_DESCRIPTOR_SET)
                    .max_sets(4)
                    .pool_sizes(&sizes),
                None,
            )
            .call("vkCreateDescriptorPool")?;
        let set_layouts = [o.set_layout; 2];
        let sets = device
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default().descriptor_pool(o.pool).set_layouts(&set_layouts),
            )
            .call("vkAllocateDescriptorSets")?;
        // The second set is freed explicitly, the first with the pool.
        device.free_descriptor_sets(o.pool, &sets[1..]).call("vkFreeDescriptorSets")?;
        let infos =
            [o.buffers[0], o.buffers[1]].map(|b| [vk::DescriptorBufferInfo { buffer: b, offset: 0, range: size }]);
        let writes = [0, 1].map(|i| {
            vk::WriteDescriptorSet::default()
                .dst_set(sets[0])
                .dst_binding(i as u32)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&infos[i])
        });
        device.update_descriptor_sets(&writes, &[]);

        // Pipeline.
        let set_layouts = [o.set_layout];
        o.layout = device
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts), None)
            .call("vkCreatePipelineLayout")?;
        o.module = device
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
            .call("vkCreateShaderModule")?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(o.module)
            .name(c"main");
        let info = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(o.layout)];
        o.pipeline = device
            .create_compute_pipelines(vk::PipelineCache::null(), &info, None)
            .map_err(|(_, r)| Failure::Vulkan("vkCreateComputePipelines", r))?[0];

        // Synchronisation objects and queries.
        o.fence = device.create_fence(&vk::FenceCreateInfo::default(), None).call("vkCreateFence")?;
        o.semaphore = device.create_semaphore(&vk::SemaphoreCreateInfo::default(), None).call("vkCreateSemaphore")?;
        o.event = device.create_event(&vk::EventCreateInfo::default(), None).call("vkCreateEvent")?;
        if timestamps {
            o.query_pool = device
                .create_query_pool(
                    &vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2),
                    None,
                )
                .call("vkCreateQueryPool")?;
        }

        // Commands: a primary buffer with the dispatch, and one that is allocated and freed.
        o.cmd_pool = device
            .create_command_pool(
                &vk::CommandPoolCreateInfo::default()
                    .queue_family_index(family)
                    .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER),
                None,
            )
            .call("vkCreateCommandPool")?;
        let cmds = device
            .allocate_command_buffers(
                &vk::CommandBufferAllocateInfo::default()
                    .command_pool(o.cmd_pool)
                    .level(vk::CommandBufferLevel::PRIMARY)
                    .command_buffer_count(2),
            )
            .call("vkAllocateCommandBuffers")?;
        device.free_command_buffers(o.cmd_pool, &cmds[1..]);
        let cmd = cmds[0];
        device
            .begin_command_buffer(
                cmd,
                &vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT),
            )
            .call("vkBeginCommandBuffer")?;
        if timestamps {
            device.cmd_reset_query_pool(cmd, o.query_pool, 0, 2);
            device.cmd_write_timestamp(cmd, vk::PipelineStageFlags::TOP_OF_PIPE, o.query_pool, 0);
        }
        device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, o.pipeline);
        device.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, o.layout, 0, &sets[..1], &[]);
        device.cmd_dispatch(cmd, N / 64, 1, 1);
        device.cmd_set_event(cmd, o.event, vk::PipelineStageFlags::COMPUTE_SHADER);
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        device.cmd_pipeline_barrier(
            cmd,
            vk::PipelineStageFlags::COMPUTE_SHADER,
            vk::PipelineStageFlags::HOST,
            vk::DependencyFlags::empty(),
            &barrier,
            &[],
            &[],
        );
        if timestamps {
            device.cmd_write_timestamp(cmd, vk::PipelineStageFlags::BOTTOM_OF_PIPE, o.query_pool, 1);
        }
        device.end_command_buffer(cmd).call("vkEndCommandBuffer")?;

        // First queue: the dispatch, signalling the semaphore; last queue: waits on it and
        // signals the fence (the same queue when there is only one).
        let first = device.get_device_queue(family, 0);
        let last = device.get_device_queue(family, queues - 1);
        let cmd_list = [cmd];
        let signal = [o.semaphore];
        device
            .queue_submit(
                first,
                &[vk::SubmitInfo::default().command_buffers(&cmd_list).signal_semaphores(&signal)],
                vk::Fence::null(),
            )
            .call("vkQueueSubmit")?;
        let stages = [vk::PipelineStageFlags::ALL_COMMANDS];
        device
            .queue_submit(
                last,
                &[vk::SubmitInfo::default().wait_semaphores(&signal).wait_dst_stage_mask(&stages)],
                o.fence,
            )
            .call("vkQueueSubmit")?;
        device.wait_for_fences(&[o.fence], true, 60_000_000_000).call("vkWaitForFences")?;
        if !device.get_event_status(o.event).call("vkGetEventStatus")? {
            return Err(Failure::Wrong("the event is not set after the submission".into()));
        }
        if timestamps {
            let mut stamps = [0u64; 2];
            device
                .get_query_pool_results(
                    o.query_pool,
                    0,
                    &mut stamps,
                    vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT,
                )
                .call("vkGetQueryPoolResults")?;
            if stamps[1] < stamps[0] {
                return Err(Failure::Wrong(format!("timestamps go backwards: {stamps:?}")));
            }
        }
        let dst = std::slice::from_raw_parts(ptr.add((stride / 4) as usize), N as usize);
        if let Some(i) = (0..N as usize).find(|&i| dst[i] != src[i].wrapping_add(1)) {
            return Err(Failure::Wrong(format!("dst[{i}] = {}, expected {}", dst[i], src[i].wrapping_add(1))));
        }
        device.unmap_memory(mem);
        device.reset_command_pool(o.cmd_pool, vk::CommandPoolResetFlags::empty()).call("vkResetCommandPool")?;
        device.reset_descriptor_pool(o.pool, vk::DescriptorPoolResetFlags::empty()).call("vkResetDescriptorPool")?;
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut rounds = 3usize;
    let mut validate = false;
    for arg in std::env::args().skip(1) {
        match arg.as_str() {
            "--validate" => validate = true,
            n => match n.parse() {
                Ok(n) => rounds = n,
                Err(_) => {
                    eprintln!("usage: softnavi-lifecycle [N] [--validate]");
                    return ExitCode::from(2);
                }
            },
        }
    }
    // SAFETY: loading the system Vulkan loader; nothing else in this process unloads it.
    let entry = match unsafe { ash::Entry::load() } {
        Ok(e) => e,
        Err(e) => {
            eprintln!("lifecycle: cannot load the Vulkan loader: {e}");
            return ExitCode::from(2);
        }
    };
    let words = match spirv_words(COPY) {
        Ok(w) => w,
        Err(e) => {
            eprintln!("lifecycle: {e}");
            return ExitCode::from(2);
        }
    };
    for i in 0..rounds {
        match round(&entry, validate, &words) {
            Ok(()) => {}
            Err(Failure::Vulkan(call, r)) => {
                eprintln!("lifecycle: round {i}: {call} returned {r:?}");
                return ExitCode::from(2);
            }
            Err(Failure::Wrong(why)) => {
                eprintln!("lifecycle: round {i}: {why}");
                return ExitCode::from(1);
            }
        }
    }
    let messages = MESSAGES.load(Ordering::Relaxed);
    if messages > 0 {
        eprintln!("lifecycle: {messages} validation messages");
        return ExitCode::from(3);
    }
    println!("lifecycle: {rounds} rounds clean");
    ExitCode::SUCCESS
}
