//! softnavi-pipes: pipeline caches, command-buffer lifecycles, copies and dispatch variants,
//! events, timestamps and debug names, one scenario per run:
//!
//! `softnavi-pipes [--validate] cache|cmdbufs|copies|events|timestamps|markers|sparse|fault`
//!
//! Prints `RESULT: ...` and exits 0 when the scenario verified; 1 on wrong results or a
//! Vulkan error; 3 when `--validate` (VK_LAYER_KHRONOS_validation) reported any error or
//! warning. Checks of what only softnavi promises (a cache hit skips compilation, the data
//! layout, fault reports) are made only on softnavi; the rest must hold on any driver
//! (lavapipe is the oracle). Core 1.2/1.3 features (hostQueryReset,
//! pipelineCreationCacheControl) are used only when the device reports them, or, without
//! `--validate`, on softnavi regardless.

use std::ffi::{c_void, CStr};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use ash::vk;
use softnavi_examples::spirv_words;

const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/copy.spv"));
const IDS: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/ids.spv"));
const INC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/inc.spv"));

type R<T> = Result<T, String>;

fn vkr(call: &'static str) -> impl Fn(vk::Result) -> String {
    move |e| format!("{call} returned {e:?}")
}

fn check(ok: bool, what: impl FnOnce() -> String) -> R<()> {
    if ok {
        Ok(())
    } else {
        Err(format!("WRONG RESULTS: {}", what()))
    }
}

/// A host-visible, coherent, mapped buffer.
struct Buf {
    b: vk::Buffer,
    m: vk::DeviceMemory,
    p: *mut u8,
    size: u64,
}

impl Buf {
    fn read(&self, n: usize) -> Vec<u32> {
        // SAFETY: mapped, coherent, at least 4n bytes (callers stay inside the size).
        (0..n.min(self.size as usize / 4)).map(|i| unsafe { (self.p as *const u32).add(i).read_volatile() }).collect()
    }

    fn write(&self, words: &[u32]) {
        for (i, &w) in words.iter().enumerate().take(self.size as usize / 4) {
            // SAFETY: as above.
            unsafe { (self.p as *mut u32).add(i).write_volatile(w) };
        }
    }
}

/// A compute shader with its set (storage buffers at bindings 0..) and layout (push
/// constants of `push` bytes); pipelines are made from it on demand.
struct Kernel {
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
    module: vk::ShaderModule,
    pipeline: vk::Pipeline,
    push: u32,
}

struct App {
    _entry: ash::Entry,
    instance: ash::Instance,
    messenger: Option<softnavi_tests::validation::Validation>,
    debug: Option<ash::ext::debug_utils::Device>,
    device: ash::Device,
    queue: vk::Queue,
    pool: vk::CommandPool,
    memory: vk::PhysicalDeviceMemoryProperties,
    props: vk::PhysicalDeviceProperties,
    softnavi: bool,
    /// Mesa's RADV (over softnavi's amdgpu shim, `scripts/radv`).
    radv: bool,
    /// Core 1.2/1.3 features may be used (reported, or softnavi without validation).
    modern: bool,
    exec_props: Option<ash::khr::pipeline_executable_properties::Device>,
    /// VK_AMD_buffer_marker, where the device has it (softnavi, RADV).
    markers: Option<ash::amd::buffer_marker::Device>,
    /// sparseBinding and sparseResidencyBuffer enabled (the queue binds sparse memory).
    sparse: bool,
    bufs: std::cell::RefCell<Vec<Buf>>,
    kernels: std::cell::RefCell<Vec<Kernel>>,
}

impl App {
    fn new(validate: bool) -> R<App> {
        // SAFETY: loading the system loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("no Vulkan loader: {e}"))?;
        // SAFETY: valid entry.
        let exts = unsafe { entry.enumerate_instance_extension_properties(None) }
            .map_err(vkr("vkEnumerateInstanceExtensionProperties"))?;
        let has_debug = exts.iter().any(|e| e.extension_name_as_c_str().ok() == Some(ash::ext::debug_utils::NAME));
        let mut ext_names = Vec::new();
        if has_debug || validate {
            ext_names.push(ash::ext::debug_utils::NAME.as_ptr());
        }
        let app = vk::ApplicationInfo::default().application_name(c"softnavi-pipes").api_version(vk::API_VERSION_1_3);
        let (instance, messenger) = softnavi_tests::validation::create_instance(&entry, &app, &ext_names, validate)
            .map_err(|(w, e)| vkr(w)(e))?;
        // SAFETY: valid instance.
        let pds = unsafe { instance.enumerate_physical_devices() }.map_err(vkr("vkEnumeratePhysicalDevices"))?;
        let pd = *pds.first().ok_or("no physical device")?;
        // SAFETY: valid physical device.
        let props = unsafe { instance.get_physical_device_properties(pd) };
        // SAFETY: as above.
        let memory = unsafe { instance.get_physical_device_memory_properties(pd) };
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(pd) };
        let family = families
            .iter()
            .position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE))
            .ok_or("no compute queue family")? as u32;
        // SAFETY: valid physical device.
        let have = unsafe { instance.get_physical_device_features(pd) };
        let sparse = have.sparse_binding == vk::TRUE
            && have.sparse_residency_buffer == vk::TRUE
            && families[family as usize].queue_flags.contains(vk::QueueFlags::SPARSE_BINDING);
        let features = vk::PhysicalDeviceFeatures::default().sparse_binding(sparse).sparse_residency_buffer(sparse);
        let name = props.device_name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let softnavi = name.contains("softnavi");
        let v13 = props.api_version >= vk::API_VERSION_1_3;
        // SAFETY: valid physical device.
        let dev_exts = unsafe { instance.enumerate_device_extension_properties(pd) }
            .map_err(vkr("vkEnumerateDeviceExtensionProperties"))?;
        let has = |n: &CStr| dev_exts.iter().any(|e| e.extension_name_as_c_str().ok() == Some(n));
        let exec = has(ash::khr::pipeline_executable_properties::NAME);
        let marker = has(ash::amd::buffer_marker::NAME);
        let mut names = Vec::new();
        if exec {
            names.push(ash::khr::pipeline_executable_properties::NAME.as_ptr());
        }
        if marker {
            names.push(ash::amd::buffer_marker::NAME.as_ptr());
        }
        let prio = [1.0f32];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&prio)];
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default().host_query_reset(true);
        let mut v13f = vk::PhysicalDeviceVulkan13Features::default().pipeline_creation_cache_control(true);
        let mut execf =
            vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR::default().pipeline_executable_info(true);
        let mut dinfo = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&names)
            .enabled_features(&features);
        if v13 {
            dinfo = dinfo.push_next(&mut v12).push_next(&mut v13f);
        }
        if exec {
            dinfo = dinfo.push_next(&mut execf);
        }
        // SAFETY: valid create info.
        let device = unsafe { instance.create_device(pd, &dinfo, None) }.map_err(vkr("vkCreateDevice"))?;
        // SAFETY: valid device; family/queue 0 exist.
        let queue = unsafe { device.get_device_queue(family, 0) };
        let pinfo = vk::CommandPoolCreateInfo::default()
            .queue_family_index(family)
            .flags(vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER);
        // SAFETY: valid device.
        let pool = unsafe { device.create_command_pool(&pinfo, None) }.map_err(vkr("vkCreateCommandPool"))?;
        let debug = (has_debug || validate).then(|| ash::ext::debug_utils::Device::new(&instance, &device));
        let exec_props = exec.then(|| ash::khr::pipeline_executable_properties::Device::new(&instance, &device));
        println!(
            "softnavi-pipes: device {name} (Vulkan {}.{})",
            vk::api_version_major(props.api_version),
            vk::api_version_minor(props.api_version)
        );
        let markers = marker.then(|| ash::amd::buffer_marker::Device::new(&instance, &device));
        Ok(App {
            _entry: entry,
            instance,
            messenger,
            debug,
            device,
            queue,
            pool,
            memory,
            props,
            softnavi,
            radv: name.contains("(RADV "),
            modern: v13 || (softnavi && !validate),
            exec_props,
            markers,
            sparse,
            bufs: Default::default(),
            kernels: Default::default(),
        })
    }

    /// A host-visible buffer of `size` bytes (zeroed), usable for anything a compute app
    /// does with buffers; freed with the app.
    fn buffer(&self, size: u64) -> R<usize> {
        let d = &self.device;
        let usage = vk::BufferUsageFlags::STORAGE_BUFFER
            | vk::BufferUsageFlags::TRANSFER_SRC
            | vk::BufferUsageFlags::TRANSFER_DST
            | vk::BufferUsageFlags::INDIRECT_BUFFER;
        // SAFETY: valid device and create info.
        let b = unsafe { d.create_buffer(&vk::BufferCreateInfo::default().size(size).usage(usage), None) }
            .map_err(vkr("vkCreateBuffer"))?;
        // SAFETY: valid buffer.
        let req = unsafe { d.get_buffer_memory_requirements(b) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let ty = (0..self.memory.memory_type_count)
            .find(|&i| {
                req.memory_type_bits & (1 << i) != 0
                    && self.memory.memory_types[i as usize].property_flags.contains(want)
            })
            .ok_or("no host-visible coherent memory type")?;
        let ainfo = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
        // SAFETY: valid allocate info.
        let m = unsafe { d.allocate_memory(&ainfo, None) }.map_err(vkr("vkAllocateMemory"))?;
        // SAFETY: fresh buffer and memory of a compatible type.
        unsafe { d.bind_buffer_memory(b, m, 0) }.map_err(vkr("vkBindBufferMemory"))?;
        // SAFETY: host-visible memory, not mapped yet.
        let p = unsafe { d.map_memory(m, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()) }
            .map_err(vkr("vkMapMemory"))? as *mut u8;
        // SAFETY: mapped, size bytes.
        unsafe { std::ptr::write_bytes(p, 0, size as usize) };
        let mut bufs = self.bufs.borrow_mut();
        bufs.push(Buf { b, m, p, size });
        Ok(bufs.len() - 1)
    }

    fn buf<T>(&self, i: usize, f: impl FnOnce(&Buf) -> T) -> T {
        f(&self.bufs.borrow()[i])
    }

    fn handle(&self, i: usize) -> vk::Buffer {
        self.buf(i, |b| b.b)
    }

    /// A kernel over buffers `bufs` (bindings 0..), with `push` bytes of push constants,
    /// and its pipeline made with `flags` (none made when `make` is false).
    fn kernel(&self, spirv: &[u8], bufs: &[usize], push: u32, flags: vk::PipelineCreateFlags, make: bool) -> R<usize> {
        let d = &self.device;
        let words = spirv_words(spirv).map_err(|e| e.to_string())?;
        let n = bufs.len() as u32;
        let bindings: Vec<_> = (0..n)
            .map(|b| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(b)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        // SAFETY: valid create infos throughout.
        unsafe {
            let set_layout = d
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
                .map_err(vkr("vkCreateDescriptorSetLayout"))?;
            let sls = [set_layout];
            let ranges = [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(push)];
            let mut li = vk::PipelineLayoutCreateInfo::default().set_layouts(&sls);
            if push > 0 {
                li = li.push_constant_ranges(&ranges);
            }
            let layout = d.create_pipeline_layout(&li, None).map_err(vkr("vkCreatePipelineLayout"))?;
            let sizes = [vk::DescriptorPoolSize::default().ty(vk::DescriptorType::STORAGE_BUFFER).descriptor_count(n)];
            let pool = d
                .create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
                .map_err(vkr("vkCreateDescriptorPool"))?;
            let set = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&sls),
                )
                .map_err(vkr("vkAllocateDescriptorSets"))?[0];
            let infos: Vec<[vk::DescriptorBufferInfo; 1]> = bufs
                .iter()
                .map(|&b| [vk::DescriptorBufferInfo::default().buffer(self.handle(b)).range(vk::WHOLE_SIZE)])
                .collect();
            let writes: Vec<_> = infos
                .iter()
                .enumerate()
                .map(|(i, info)| {
                    vk::WriteDescriptorSet::default()
                        .dst_set(set)
                        .dst_binding(i as u32)
                        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                        .buffer_info(info)
                })
                .collect();
            d.update_descriptor_sets(&writes, &[]);
            let module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
                .map_err(vkr("vkCreateShaderModule"))?;
            let mut k = Kernel { set_layout, layout, pool, set, module, pipeline: vk::Pipeline::null(), push };
            if make {
                k.pipeline = self
                    .pipeline(&k, vk::PipelineCache::null(), flags, None)
                    .map_err(vkr("vkCreateComputePipelines"))?;
            }
            let mut ks = self.kernels.borrow_mut();
            ks.push(k);
            Ok(ks.len() - 1)
        }
    }

    fn k<T>(&self, i: usize, f: impl FnOnce(&Kernel) -> T) -> T {
        f(&self.kernels.borrow()[i])
    }

    /// A pipeline of kernel `k` (the caller destroys it), with creation feedback if asked.
    fn pipeline(
        &self,
        k: &Kernel,
        cache: vk::PipelineCache,
        flags: vk::PipelineCreateFlags,
        feedback: Option<&mut vk::PipelineCreationFeedback>,
    ) -> Result<vk::Pipeline, vk::Result> {
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(k.module)
            .name(c"main");
        let mut stage_fb = [vk::PipelineCreationFeedback::default()];
        let mut own = vk::PipelineCreationFeedback::default();
        let use_fb = feedback.is_some();
        let fb_ptr: *mut vk::PipelineCreationFeedback = match feedback {
            Some(f) => f,
            None => &mut own,
        };
        // SAFETY: fb_ptr is valid for the call.
        let mut fbi = vk::PipelineCreationFeedbackCreateInfo::default()
            .pipeline_creation_feedback(unsafe { &mut *fb_ptr })
            .pipeline_stage_creation_feedbacks(&mut stage_fb);
        let mut info = vk::ComputePipelineCreateInfo::default().stage(stage).layout(k.layout).flags(flags);
        // VkPipelineCreationFeedbackCreateInfo is core 1.3 (or an extension).
        if use_fb && self.modern {
            info = info.push_next(&mut fbi);
        }
        // SAFETY: valid device, module, layout.
        match unsafe { self.device.create_compute_pipelines(cache, &[info], None) } {
            Ok(p) => Ok(p[0]),
            Err((_, e)) => Err(e),
        }
    }

    fn cmd(&self, level: vk::CommandBufferLevel) -> R<vk::CommandBuffer> {
        let info =
            vk::CommandBufferAllocateInfo::default().command_pool(self.pool).level(level).command_buffer_count(1);
        // SAFETY: valid pool.
        Ok(unsafe { self.device.allocate_command_buffers(&info) }.map_err(vkr("vkAllocateCommandBuffers"))?[0])
    }

    fn begin(&self, cb: vk::CommandBuffer, flags: vk::CommandBufferUsageFlags) -> R<()> {
        // SAFETY: a command buffer not pending.
        unsafe { self.device.begin_command_buffer(cb, &vk::CommandBufferBeginInfo::default().flags(flags)) }
            .map_err(vkr("vkBeginCommandBuffer"))
    }

    fn end(&self, cb: vk::CommandBuffer) -> R<()> {
        // SAFETY: recording.
        unsafe { self.device.end_command_buffer(cb) }.map_err(vkr("vkEndCommandBuffer"))
    }

    fn submit(&self, cbs: &[vk::CommandBuffer]) -> R<vk::Fence> {
        // SAFETY: valid device.
        let fence =
            unsafe { self.device.create_fence(&vk::FenceCreateInfo::default(), None) }.map_err(vkr("vkCreateFence"))?;
        let s = [vk::SubmitInfo::default().command_buffers(cbs)];
        // SAFETY: executable command buffers; the queue is used from this thread only.
        unsafe { self.device.queue_submit(self.queue, &s, fence) }.map_err(vkr("vkQueueSubmit"))?;
        Ok(fence)
    }

    fn wait(&self, fence: vk::Fence) -> R<()> {
        // SAFETY: valid fence.
        let r = unsafe { self.device.wait_for_fences(&[fence], true, 20_000_000_000) }.map_err(vkr("vkWaitForFences"));
        // SAFETY: signalled (or the device is lost); no longer used.
        unsafe { self.device.destroy_fence(fence, None) };
        r
    }

    /// Records with `f` into a one-time command buffer, submits it and waits.
    fn run(&self, f: impl FnOnce(vk::CommandBuffer) -> R<()>) -> R<()> {
        let cb = self.cmd(vk::CommandBufferLevel::PRIMARY)?;
        self.begin(cb, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
        f(cb)?;
        self.end(cb)?;
        let r = self.submit(&[cb]).and_then(|fence| self.wait(fence));
        // SAFETY: complete (or lost).
        unsafe { self.device.free_command_buffers(self.pool, &[cb]) };
        r
    }

    /// Binds kernel `k` (pipeline `p`, or its own) with its set and push constants.
    fn bind(&self, cb: vk::CommandBuffer, k: usize, p: Option<vk::Pipeline>, push: &[u8]) {
        self.k(k, |k| {
            // SAFETY: recording; the objects outlive the submission.
            unsafe {
                self.device.cmd_bind_pipeline(cb, vk::PipelineBindPoint::COMPUTE, p.unwrap_or(k.pipeline));
                self.device.cmd_bind_descriptor_sets(cb, vk::PipelineBindPoint::COMPUTE, k.layout, 0, &[k.set], &[]);
                if k.push > 0 {
                    self.device.cmd_push_constants(cb, k.layout, vk::ShaderStageFlags::COMPUTE, 0, push);
                }
            }
        })
    }

    /// A global barrier from shader/transfer writes to everything after (shader, transfer,
    /// indirect and host reads).
    fn barrier(&self, cb: vk::CommandBuffer) {
        let all = vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_READ;
        let m = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE | vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(
                all | vk::AccessFlags::TRANSFER_WRITE
                    | vk::AccessFlags::INDIRECT_COMMAND_READ
                    | vk::AccessFlags::HOST_READ,
            )];
        let stages = vk::PipelineStageFlags::COMPUTE_SHADER | vk::PipelineStageFlags::TRANSFER;
        // SAFETY: recording.
        unsafe {
            self.device.cmd_pipeline_barrier(
                cb,
                stages,
                stages | vk::PipelineStageFlags::DRAW_INDIRECT | vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &m,
                &[],
                &[],
            )
        };
    }

    fn name<H: vk::Handle>(&self, h: H, name: &CStr) {
        if let Some(d) = &self.debug {
            let info = vk::DebugUtilsObjectNameInfoEXT::default().object_handle(h).object_name(name);
            // SAFETY: a live object of this device.
            if let Err(e) = unsafe { d.set_debug_utils_object_name(&info) } {
                eprintln!("vkSetDebugUtilsObjectNameEXT: {e:?}");
            }
        }
    }
}

impl Drop for App {
    fn drop(&mut self) {
        let d = &self.device;
        // SAFETY: after the idle wait nothing is in use; reverse creation order.
        unsafe {
            let _ = d.device_wait_idle();
            for k in self.kernels.borrow_mut().drain(..) {
                d.destroy_pipeline(k.pipeline, None);
                d.destroy_shader_module(k.module, None);
                d.destroy_descriptor_pool(k.pool, None);
                d.destroy_pipeline_layout(k.layout, None);
                d.destroy_descriptor_set_layout(k.set_layout, None);
            }
            for b in self.bufs.borrow_mut().drain(..) {
                d.destroy_buffer(b.b, None);
                d.free_memory(b.m, None);
            }
            d.destroy_command_pool(self.pool, None);
            d.destroy_device(None);
            if let Some(v) = &self.messenger {
                v.destroy();
            }
            self.instance.destroy_instance(None);
        }
    }
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Pipeline caches: miss then hit (faster, feedback, statistics), serialised data
/// (header, two-call idiom, INCOMPLETE), initial data, foreign data ignored, merging,
/// FAIL_ON_PIPELINE_COMPILE_REQUIRED, and the cached pipeline computes right.
fn cache(app: &App) -> R<String> {
    let d = &app.device;
    let n = 256u32;
    let (src, dst) = (app.buffer(4 * n as u64)?, app.buffer(4 * n as u64)?);
    app.buf(src, |b| b.write(&(0..n).map(|i| i * 3).collect::<Vec<_>>()));
    let k = app.kernel(COPY, &[src, dst], 0, vk::PipelineCreateFlags::empty(), false)?;
    let new_cache = |data: &[u8]| -> R<vk::PipelineCache> {
        let info = vk::PipelineCacheCreateInfo::default().initial_data(data);
        // SAFETY: valid device; the data may be anything (the implementation checks it).
        unsafe { d.create_pipeline_cache(&info, None) }.map_err(vkr("vkCreatePipelineCache"))
    };
    let mut made = Vec::new();
    let mut caches = Vec::new();
    let result = (|| -> R<String> {
        let c1 = new_cache(&[])?;
        caches.push(c1);
        let kk = |f: &mut dyn FnMut(&Kernel) -> Result<vk::Pipeline, vk::Result>| app.k(k, |k| f(k));
        let (mut fb_miss, mut fb_hit) =
            (vk::PipelineCreationFeedback::default(), vk::PipelineCreationFeedback::default());
        let t = Instant::now();
        let p1 = kk(&mut |k| app.pipeline(k, c1, vk::PipelineCreateFlags::empty(), Some(&mut fb_miss)))
            .map_err(vkr("vkCreateComputePipelines (miss)"))?;
        let miss = t.elapsed();
        made.push(p1);
        let t = Instant::now();
        let p2 = kk(&mut |k| app.pipeline(k, c1, vk::PipelineCreateFlags::empty(), Some(&mut fb_hit)))
            .map_err(vkr("vkCreateComputePipelines (hit)"))?;
        let hit = t.elapsed();
        made.push(p2);
        let valid = vk::PipelineCreationFeedbackFlags::VALID;
        let hit_flag = vk::PipelineCreationFeedbackFlags::APPLICATION_PIPELINE_CACHE_HIT;
        if app.modern {
            check(fb_miss.flags.contains(valid) && fb_hit.flags.contains(valid), || {
                format!("feedback flags {:?} / {:?}", fb_miss.flags, fb_hit.flags)
            })?;
        }
        if app.softnavi && app.modern {
            check(!fb_miss.flags.contains(hit_flag) && fb_hit.flags.contains(hit_flag), || {
                format!("cache hit flags: miss {:?}, hit {:?}", fb_miss.flags, fb_hit.flags)
            })?;
        }
        if app.softnavi {
            check(hit * 2 < miss, || format!("a hit took {:.3} ms, the miss {:.3} ms", ms(hit), ms(miss)))?;
        }
        // The data: header, and the two-call idiom with a short buffer.
        // SAFETY: valid cache.
        let data = unsafe { d.get_pipeline_cache_data(c1) }.map_err(vkr("vkGetPipelineCacheData"))?;
        let word = |i: usize| u32::from_le_bytes([data[4 * i], data[4 * i + 1], data[4 * i + 2], data[4 * i + 3]]);
        check(data.len() >= 32, || format!("{} bytes of cache data", data.len()))?;
        check(
            word(0) == 32
                && word(1) == 1
                && word(2) == app.props.vendor_id
                && word(3) == app.props.device_id
                && data[16..32] == app.props.pipeline_cache_uuid,
            || format!("cache header {:02x?}", &data[..32]),
        )?;
        let mut short = vec![0u8; 40.min(data.len().saturating_sub(1))];
        let mut size = short.len();
        // SAFETY: size bytes at short.
        let r = unsafe {
            (d.fp_v1_0().get_pipeline_cache_data)(d.handle(), c1, &mut size, short.as_mut_ptr() as *mut c_void)
        };
        check(r == vk::Result::INCOMPLETE && size <= short.len(), || format!("short read: {r:?}, {size} bytes"))?;
        if app.softnavi {
            check(data.len() > 1000, || format!("only {} bytes of data after a compilation", data.len()))?;
        }
        // Initial data: the whole, a short read (valid by itself), foreign data.
        let c2 = new_cache(&data)?;
        caches.push(c2);
        let c_short = new_cache(&short[..size])?;
        caches.push(c_short);
        let mut foreign = data.clone();
        foreign[20] ^= 0xff;
        let c_foreign = new_cache(&foreign)?;
        caches.push(c_foreign);
        let mut flipped = data.clone();
        let last = flipped.len() - 1;
        flipped[last] ^= 1;
        let c_flipped = new_cache(&flipped)?;
        caches.push(c_flipped);
        let c_merged = new_cache(&[])?;
        caches.push(c_merged);
        // SAFETY: valid caches.
        unsafe { d.merge_pipeline_caches(c_merged, &[c2]) }.map_err(vkr("vkMergePipelineCaches"))?;
        let mut summary = format!("miss {:.1} ms, hit {:.3} ms, {} bytes of data", ms(miss), ms(hit), data.len());
        let mut p_cached = p2;
        if app.modern {
            let fail_on = vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED;
            let mut outcome = |c: vk::PipelineCache| -> R<Option<vk::Pipeline>> {
                match kk(&mut |k| app.pipeline(k, c, fail_on, None)) {
                    Ok(p) => {
                        made.push(p);
                        Ok(Some(p))
                    }
                    Err(vk::Result::PIPELINE_COMPILE_REQUIRED) => Ok(None),
                    Err(e) => Err(format!("vkCreateComputePipelines with FAIL_ON_PIPELINE_COMPILE_REQUIRED: {e:?}")),
                }
            };
            let from_data = outcome(c2)?;
            let merged = outcome(c_merged)?;
            let short_one = outcome(c_short)?;
            let foreign_one = outcome(c_foreign)?;
            let flipped_one = outcome(c_flipped)?;
            let empty = outcome(new_cache(&[]).inspect(|&c| caches.push(c))?)?;
            if app.softnavi {
                check(from_data.is_some() && merged.is_some(), || "initial data / merged cache missed".into())?;
                check(
                    short_one.is_none() && foreign_one.is_none() && flipped_one.is_none() && empty.is_none(),
                    || {
                        format!(
                            "compiled under FAIL_ON_PIPELINE_COMPILE_REQUIRED: short {} foreign {} flipped {} empty {}",
                            short_one.is_some(),
                            foreign_one.is_some(),
                            flipped_one.is_some(),
                            empty.is_some()
                        )
                    },
                )?;
            }
            if let Some(p) = from_data {
                p_cached = p;
            }
            // EARLY_RETURN_ON_FAILURE: a miss in the first stops the batch; every handle
            // is null.
            let fresh = new_cache(&[])?;
            caches.push(fresh);
            let batch = app.k(k, |k| {
                let stage = vk::PipelineShaderStageCreateInfo::default()
                    .stage(vk::ShaderStageFlags::COMPUTE)
                    .module(k.module)
                    .name(c"main");
                let early = fail_on | vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE;
                let infos = [
                    vk::ComputePipelineCreateInfo::default().stage(stage).layout(k.layout).flags(early),
                    vk::ComputePipelineCreateInfo::default().stage(stage).layout(k.layout),
                ];
                // SAFETY: valid device, module and layout.
                unsafe { d.create_compute_pipelines(fresh, &infos, None) }
            });
            let handles = match batch {
                Ok(ps) => ps,
                Err((ps, vk::Result::PIPELINE_COMPILE_REQUIRED)) => ps,
                Err((_, e)) => return Err(format!("vkCreateComputePipelines (early return): {e:?}")),
            };
            made.extend(handles.iter().copied().filter(|p| *p != vk::Pipeline::null()));
            if app.softnavi {
                check(handles.iter().all(|p| *p == vk::Pipeline::null()), || {
                    format!("EARLY_RETURN_ON_FAILURE: handles {handles:?}")
                })?;
            }
            summary.push_str("; FAIL_ON_PIPELINE_COMPILE_REQUIRED honoured");
        }
        // The executable statistics say where the code came from.
        if let (Some(ep), true) = (&app.exec_props, app.softnavi) {
            let p = kk(&mut |k| app.pipeline(k, c1, vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR, None))
                .map_err(vkr("vkCreateComputePipelines (statistics)"))?;
            made.push(p);
            let info = vk::PipelineExecutableInfoKHR::default().pipeline(p).executable_index(0);
            // SAFETY: a pipeline created with CAPTURE_STATISTICS.
            let stats = unsafe { ep.get_pipeline_executable_statistics(&info) }
                .map_err(vkr("vkGetPipelineExecutableStatisticsKHR"))?;
            let from_cache = stats.iter().find_map(|s| {
                // SAFETY: a u64 statistic when the name matches.
                (s.name_as_c_str().ok() == Some(c"From pipeline cache")).then_some(unsafe { s.value.u64 })
            });
            check(from_cache == Some(1), || format!("statistic 'From pipeline cache' = {from_cache:?}"))?;
            summary.push_str("; statistics say from cache");
        }
        // The cached pipeline computes.
        app.run(|cb| {
            app.bind(cb, k, Some(p_cached), &[]);
            // SAFETY: recording.
            unsafe { d.cmd_dispatch(cb, n / 64, 1, 1) };
            app.barrier(cb);
            Ok(())
        })?;
        let out = app.buf(dst, |b| b.read(n as usize));
        check(out.iter().enumerate().all(|(i, &v)| v == 3 * i as u32 + 1), || format!("dst {:?}", &out[..8]))?;
        Ok(summary)
    })();
    // SAFETY: idle; no longer used.
    unsafe {
        let _ = d.device_wait_idle();
        for p in made {
            d.destroy_pipeline(p, None);
        }
        for c in caches {
            d.destroy_pipeline_cache(c, None);
        }
    }
    result.map(|s| format!("verified ({s})"))
}

/// Secondary command buffers (own bound state, executed twice in one primary, many
/// chunks), SIMULTANEOUS_USE resubmission, reset / re-record / pool reset.
fn cmdbufs(app: &App) -> R<String> {
    let d = &app.device;
    let n = 256u32;
    let data = app.buffer(4 * n as u64)?;
    let inc = app.kernel(INC, &[data], 0, vk::PipelineCreateFlags::empty(), true)?;
    let (src, dst) = (app.buffer(4 * n as u64)?, app.buffer(4 * n as u64)?);
    let copy = app.kernel(COPY, &[src, dst], 0, vk::PipelineCreateFlags::empty(), true)?;
    let inherit = vk::CommandBufferInheritanceInfo::default();
    let begin2 = |cb, flags| {
        let info = vk::CommandBufferBeginInfo::default().flags(flags).inheritance_info(&inherit);
        // SAFETY: a secondary command buffer not pending.
        unsafe { d.begin_command_buffer(cb, &info) }.map_err(vkr("vkBeginCommandBuffer"))
    };
    // A secondary with its own pipeline and set.
    let s1 = app.cmd(vk::CommandBufferLevel::SECONDARY)?;
    begin2(s1, vk::CommandBufferUsageFlags::SIMULTANEOUS_USE)?;
    app.bind(s1, inc, None, &[]);
    // SAFETY: recording.
    unsafe { d.cmd_dispatch(s1, n / 64, 1, 1) };
    app.end(s1)?;
    // A secondary of many IB chunks: 3000 fills.
    let words = 3000u32;
    let fills = app.buffer(4 * words as u64)?;
    let s2 = app.cmd(vk::CommandBufferLevel::SECONDARY)?;
    begin2(s2, vk::CommandBufferUsageFlags::SIMULTANEOUS_USE)?;
    for i in 0..words {
        // SAFETY: recording.
        unsafe { d.cmd_fill_buffer(s2, app.handle(fills), 4 * i as u64, 4, i * 7 + 1) };
    }
    app.end(s2)?;
    // The primary: the primary's own binding (copy) does not leak into the secondary.
    let p = app.cmd(vk::CommandBufferLevel::PRIMARY)?;
    app.begin(p, vk::CommandBufferUsageFlags::SIMULTANEOUS_USE)?;
    app.barrier(p);
    app.bind(p, copy, None, &[]);
    // SAFETY: recording.
    unsafe {
        d.cmd_dispatch(p, n / 64, 1, 1);
        d.cmd_execute_commands(p, &[s1]);
    }
    app.barrier(p);
    // SAFETY: recording.
    unsafe { d.cmd_execute_commands(p, &[s1, s2]) };
    app.barrier(p);
    app.end(p)?;
    // Submitted twice before either completes.
    let f1 = app.submit(&[p])?;
    let f2 = app.submit(&[p])?;
    app.wait(f1)?;
    app.wait(f2)?;
    let got = app.buf(data, |b| b.read(n as usize));
    check(got.iter().all(|&v| v == 4), || format!("inc data after 2 × 2 runs: {:?}", &got[..8]))?;
    let got = app.buf(dst, |b| b.read(n as usize));
    check(got.iter().all(|&v| v == 1), || format!("copy dst {:?}", &got[..8]))?;
    let got = app.buf(fills, |b| b.read(words as usize));
    check(got.iter().enumerate().all(|(i, &v)| v == i as u32 * 7 + 1), || {
        let bad = got.iter().enumerate().find(|(i, &v)| v != *i as u32 * 7 + 1);
        format!("many-chunk secondary: first wrong word {bad:?}")
    })?;
    // Reset and re-record.
    let one = app.buffer(16)?;
    let c = app.cmd(vk::CommandBufferLevel::PRIMARY)?;
    let value = |v: u32, how: &str| -> R<()> {
        // SAFETY: recording.
        unsafe { d.cmd_fill_buffer(c, app.handle(one), 0, 16, v) };
        app.barrier(c);
        app.end(c)?;
        app.submit(&[c]).and_then(|f| app.wait(f))?;
        let got = app.buf(one, |b| b.read(4));
        check(got == [v; 4], || format!("{how}: {got:?}, expected {v}"))
    };
    app.begin(c, vk::CommandBufferUsageFlags::empty())?;
    value(7, "first recording")?;
    // SAFETY: not pending.
    unsafe { d.reset_command_buffer(c, vk::CommandBufferResetFlags::RELEASE_RESOURCES) }
        .map_err(vkr("vkResetCommandBuffer"))?;
    app.begin(c, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
    value(8, "after vkResetCommandBuffer")?;
    // Begin on an executable command buffer resets it implicitly.
    app.begin(c, vk::CommandBufferUsageFlags::empty())?;
    value(9, "re-recorded")?;
    // SAFETY: nothing of the pool is pending.
    unsafe {
        d.free_command_buffers(app.pool, &[s1, s2, p]);
        d.reset_command_pool(app.pool, vk::CommandPoolResetFlags::RELEASE_RESOURCES)
    }
    .map_err(vkr("vkResetCommandPool"))?;
    app.begin(c, vk::CommandBufferUsageFlags::empty())?;
    value(10, "after vkResetCommandPool")?;
    // SAFETY: complete.
    unsafe { d.free_command_buffers(app.pool, &[c]) };
    Ok("verified".into())
}

/// vkCmdCopyBuffer2, fill with VK_WHOLE_SIZE, a 65536-byte update, dispatch base and an
/// indirect dispatch whose counts a previous dispatch wrote.
fn copies(app: &App) -> R<String> {
    let d = &app.device;
    let (a, b) = (app.buffer(4096)?, app.buffer(4096)?);
    app.buf(a, |x| x.write(&(0..1024).map(|i| i ^ 0x5a5a).collect::<Vec<_>>()));
    let whole = app.buffer(1024)?;
    let big = app.buffer(65536)?;
    let update: Vec<u32> = (0..16384u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let update_bytes: Vec<u8> = update.iter().flat_map(|w| w.to_le_bytes()).collect();
    let modern = app.modern;
    app.run(|cb| {
        // SAFETY: recording; regions inside the buffers.
        unsafe {
            let regions = [
                vk::BufferCopy2::default().src_offset(0).dst_offset(64).size(256),
                vk::BufferCopy2::default().src_offset(1024).dst_offset(2048).size(1024),
            ];
            if modern {
                let info = vk::CopyBufferInfo2::default()
                    .src_buffer(app.handle(a))
                    .dst_buffer(app.handle(b))
                    .regions(&regions);
                d.cmd_copy_buffer2(cb, &info);
            } else {
                let r: Vec<vk::BufferCopy> = regions
                    .iter()
                    .map(|r| vk::BufferCopy { src_offset: r.src_offset, dst_offset: r.dst_offset, size: r.size })
                    .collect();
                d.cmd_copy_buffer(cb, app.handle(a), app.handle(b), &r);
            }
            d.cmd_fill_buffer(cb, app.handle(whole), 12, vk::WHOLE_SIZE, 0xabcd_0123);
            d.cmd_update_buffer(cb, app.handle(big), 0, &update_bytes);
        }
        app.barrier(cb);
        Ok(())
    })?;
    let (src, got) = (app.buf(a, |x| x.read(1024)), app.buf(b, |x| x.read(1024)));
    let expect = |i: usize| match i {
        16..=79 => src[i - 16],
        512..=767 => src[i - 512 + 256],
        _ => 0,
    };
    check((0..1024).all(|i| got[i] == expect(i)), || "vkCmdCopyBuffer2 regions".into())?;
    let got = app.buf(whole, |x| x.read(256));
    check(got[..3] == [0, 0, 0] && got[3..].iter().all(|&v| v == 0xabcd_0123), || {
        format!("fill WHOLE_SIZE: {:x?}", &got[..6])
    })?;
    let got = app.buf(big, |x| x.read(16384));
    check(got == update, || "65536-byte vkCmdUpdateBuffer".into())?;

    // Dispatch base: ids.comp records (workgroup id, count) per invocation.
    let slots = app.buffer(16 * 64 * 4 * 4)?;
    let ids = app.kernel(IDS, &[slots], 4, vk::PipelineCreateFlags::DISPATCH_BASE, true)?;
    app.run(|cb| {
        app.bind(cb, ids, None, &7u32.to_le_bytes());
        // SAFETY: recording; the pipeline allows a base.
        unsafe { d.cmd_dispatch_base(cb, 2, 1, 0, 3, 2, 1) };
        app.barrier(cb);
        Ok(())
    })?;
    let s = app.buf(slots, |x| x.read(16 * 64 * 4));
    let slot = |x: usize, y: usize| &s[4 * (y * 64 + x)..4 * (y * 64 + x) + 4];
    let mut ok = true;
    for y in 0..4 {
        for x in 0..24 {
            let inside = (8..20).contains(&x) && (1..3).contains(&y);
            let want = if inside { [x as u32 / 4, y as u32, 302, 7] } else { [0; 4] };
            ok &= slot(x, y) == want;
        }
    }
    check(ok, || format!("dispatch base: slot(8,1) {:?} slot(19,2) {:?}", slot(8, 1), slot(19, 2)))?;

    // Indirect: copy.comp writes the counts (src + 1 = 2, 1, 1), then ids runs that grid.
    let (csrc, counts) = (app.buffer(256)?, app.buffer(256)?);
    app.buf(csrc, |x| x.write(&[1, 0, 0]));
    let copy = app.kernel(COPY, &[csrc, counts], 0, vk::PipelineCreateFlags::empty(), true)?;
    app.buf(slots, |x| x.write(&vec![0; 16 * 64 * 4]));
    app.run(|cb| {
        app.bind(cb, copy, None, &[]);
        // SAFETY: recording.
        unsafe { d.cmd_dispatch(cb, 1, 1, 1) };
        app.barrier(cb);
        app.bind(cb, ids, None, &9u32.to_le_bytes());
        // SAFETY: recording; counts holds a VkDispatchIndirectCommand at 0.
        unsafe { d.cmd_dispatch_indirect(cb, app.handle(counts), 0) };
        app.barrier(cb);
        Ok(())
    })?;
    let s = app.buf(slots, |x| x.read(16 * 64 * 4));
    let slot = |x: usize, y: usize| &s[4 * (y * 64 + x)..4 * (y * 64 + x) + 4];
    let ok = (0..8).all(|x| slot(x, 0) == [x as u32 / 4, 0, 201, 9]) && slot(8, 0) == [0; 4] && slot(0, 1) == [0; 4];
    check(ok, || {
        format!("dispatch indirect: slot(0,0) {:?} slot(7,0) {:?} slot(8,0) {:?}", slot(0, 0), slot(7, 0), slot(8, 0))
    })?;
    Ok(format!("verified ({})", if modern { "vkCmdCopyBuffer2" } else { "vkCmdCopyBuffer; 1.3 not reported" }))
}

/// Events: host set/reset/status; set and waited for between dispatches; a GPU wait for an
/// event the host sets after submission.
fn events(app: &App) -> R<String> {
    let d = &app.device;
    let n = 256u32;
    let data = app.buffer(4 * n as u64)?;
    let inc = app.kernel(INC, &[data], 0, vk::PipelineCreateFlags::empty(), true)?;
    // SAFETY: valid device.
    let (e1, e2) = unsafe {
        (
            d.create_event(&vk::EventCreateInfo::default(), None).map_err(vkr("vkCreateEvent"))?,
            d.create_event(&vk::EventCreateInfo::default(), None).map_err(vkr("vkCreateEvent"))?,
        )
    };
    let status = |e| {
        // SAFETY: valid event.
        unsafe { d.get_event_status(e) }.map_err(vkr("vkGetEventStatus"))
    };
    let result = (|| -> R<String> {
        let s0 = status(e1)?;
        // SAFETY: valid event, not used by pending work.
        unsafe { d.set_event(e1) }.map_err(vkr("vkSetEvent"))?;
        let s1 = status(e1)?;
        // SAFETY: as above.
        unsafe { d.reset_event(e1) }.map_err(vkr("vkResetEvent"))?;
        let s2 = status(e1)?;
        check(!s0 && s1 && !s2, || format!("host event status {s0} {s1} {s2}"))?;
        let stage = vk::PipelineStageFlags::COMPUTE_SHADER;
        let mb = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
        app.run(|cb| {
            app.bind(cb, inc, None, &[]);
            // SAFETY: recording.
            unsafe {
                d.cmd_dispatch(cb, n / 64, 1, 1);
                d.cmd_set_event(cb, e1, stage);
                d.cmd_wait_events(cb, &[e1], stage, stage, &mb, &[], &[]);
                d.cmd_dispatch(cb, n / 64, 1, 1);
                d.cmd_reset_event(cb, e1, stage);
            }
            app.barrier(cb);
            Ok(())
        })?;
        let got = app.buf(data, |b| b.read(n as usize));
        check(got.iter().all(|&v| v == 2), || format!("after set/wait between dispatches: {:?}", &got[..4]))?;
        check(!status(e1)?, || "vkCmdResetEvent did not reset".into())?;
        // The GPU waits for the host.
        let cb = app.cmd(vk::CommandBufferLevel::PRIMARY)?;
        app.begin(cb, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
        let hb = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::HOST_WRITE)
            .dst_access_mask(vk::AccessFlags::SHADER_READ | vk::AccessFlags::SHADER_WRITE)];
        // SAFETY: recording.
        unsafe { d.cmd_wait_events(cb, &[e2], vk::PipelineStageFlags::HOST, stage, &hb, &[], &[]) };
        app.bind(cb, inc, None, &[]);
        // SAFETY: recording.
        unsafe { d.cmd_dispatch(cb, n / 64, 1, 1) };
        app.barrier(cb);
        app.end(cb)?;
        // SAFETY: valid device.
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }.map_err(vkr("vkCreateFence"))?;
        let s = [vk::SubmitInfo::default().command_buffers(std::slice::from_ref(&cb))];
        // SAFETY: executable command buffer.
        unsafe { d.queue_submit(app.queue, &s, fence) }.map_err(vkr("vkQueueSubmit"))?;
        std::thread::sleep(Duration::from_millis(300));
        // SAFETY: valid fence.
        let early = unsafe { d.get_fence_status(fence) }.map_err(vkr("vkGetFenceStatus"))?;
        // SAFETY: valid event.
        unsafe { d.set_event(e2) }.map_err(vkr("vkSetEvent"))?;
        let t = Instant::now();
        app.wait(fence)?;
        let waited = t.elapsed();
        // SAFETY: complete.
        unsafe { d.free_command_buffers(app.pool, &[cb]) };
        check(!early, || "the submission completed before the host set the event".into())?;
        let got = app.buf(data, |b| b.read(n as usize));
        check(got.iter().all(|&v| v == 3), || format!("after the host-set event: {:?}", &got[..4]))?;
        Ok(format!("verified (the GPU waited; completed {:.1} ms after vkSetEvent)", ms(waited)))
    })();
    // SAFETY: idle; not used.
    unsafe {
        let _ = d.device_wait_idle();
        d.destroy_event(e1, None);
        d.destroy_event(e2, None);
    }
    result
}

/// Timestamps around a long dispatch: GPU ticks × timestampPeriod against the host's time;
/// vkGetQueryPoolResults flags; vkCmdCopyQueryPoolResults; host query reset.
fn timestamps(app: &App) -> R<String> {
    let d = &app.device;
    let n = 1u32 << 18;
    let data = app.buffer(4 * n as u64)?;
    let inc = app.kernel(INC, &[data], 0, vk::PipelineCreateFlags::empty(), true)?;
    let copied = app.buffer(64)?;
    let info = vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(3);
    // SAFETY: valid device.
    let pool = unsafe { d.create_query_pool(&info, None) }.map_err(vkr("vkCreateQueryPool"))?;
    let result = (|| -> R<String> {
        let wide = vk::QueryResultFlags::TYPE_64;
        let flags = wide | vk::QueryResultFlags::WAIT | vk::QueryResultFlags::WITH_AVAILABILITY;
        let start = Instant::now();
        app.run(|cb| {
            // SAFETY: recording.
            unsafe {
                d.cmd_reset_query_pool(cb, pool, 0, 3);
                d.cmd_write_timestamp(cb, vk::PipelineStageFlags::TOP_OF_PIPE, pool, 0);
            }
            app.bind(cb, inc, None, &[]);
            // SAFETY: recording.
            unsafe {
                d.cmd_dispatch(cb, n / 64, 1, 1);
                d.cmd_write_timestamp(cb, vk::PipelineStageFlags::BOTTOM_OF_PIPE, pool, 1);
                d.cmd_copy_query_pool_results(cb, pool, 0, 2, app.handle(copied), 0, 16, flags);
            }
            app.barrier(cb);
            Ok(())
        })?;
        let host = start.elapsed();
        let mut r = [[0u64; 2]; 2];
        // SAFETY: valid pool; r holds 2 × (value, availability).
        unsafe { d.get_query_pool_results(pool, 0, &mut r, flags) }.map_err(vkr("vkGetQueryPoolResults"))?;
        let c = app.buf(copied, |b| b.read(8));
        let c = [[c[0] as u64 | (c[1] as u64) << 32, c[2] as u64], [c[4] as u64 | (c[5] as u64) << 32, c[6] as u64]];
        check(r == c, || format!("host results {r:?}, copied {c:?}"))?;
        check(r[0][1] == 1 && r[1][1] == 1 && r[1][0] > r[0][0], || format!("timestamps {r:?}"))?;
        let period = app.props.limits.timestamp_period as f64;
        let gpu = Duration::from_nanos(((r[1][0] - r[0][0]) as f64 * period) as u64);
        // The GPU's interval lies inside the host's (submission to fence), and a long
        // dispatch is most of it (softnavi: no other work, so a truthful period).
        check(gpu <= host + Duration::from_millis(2), || format!("GPU {:.3} ms > host {:.3} ms", ms(gpu), ms(host)))?;
        if app.softnavi {
            check(gpu * 10 >= host, || {
                format!("GPU {:.3} ms is under a tenth of the host's {:.3} ms", ms(gpu), ms(host))
            })?;
        }
        // Query 2 was reset and never written: NOT_READY, availability 0 (PARTIAL is not
        // allowed for timestamps).
        let mut one = [[0u64; 2]];
        let partial = wide | vk::QueryResultFlags::WITH_AVAILABILITY;
        // SAFETY: as above.
        let r2 = unsafe { d.get_query_pool_results(pool, 2, &mut one, partial) };
        check(r2 == Err(vk::Result::NOT_READY) && one[0][1] == 0, || format!("unwritten query: {r2:?} {one:?}"))?;
        // Copied without WAIT: availability says which were written; the unwritten one's
        // value is left alone.
        let later = app.buffer(64)?;
        app.buf(later, |b| b.write(&[0xdead_beef; 16]));
        app.run(|cb| {
            let f = wide | vk::QueryResultFlags::WITH_AVAILABILITY;
            // SAFETY: recording.
            unsafe { d.cmd_copy_query_pool_results(cb, pool, 0, 3, app.handle(later), 0, 16, f) };
            app.barrier(cb);
            Ok(())
        })?;
        let l = app.buf(later, |b| b.read(16));
        let avail = |q: usize| l[4 * q + 2] as u64 | (l[4 * q + 3] as u64) << 32;
        let value = |q: usize| l[4 * q] as u64 | (l[4 * q + 1] as u64) << 32;
        if app.radv && avail(2) == 1 && value(2) == 0 {
            // RADV 22.3's copy shader (ACO, wave64) makes the availability wave-uniform:
            // `s_cmp_lg_u64 vcc, 0; s_cselect_b64 s[4:5], -1, 0` after the per-lane
            // `v_cmp_ne_i64 vcc, -1, value`, so one available query marks all, and the
            // unwritten one is stored as 0. Its code, executed as written.
            println!("timestamps: RADV 22.3 copies an unwritten query as available (its shader's bug)");
        } else {
            check(avail(0) != 0 && avail(1) != 0 && avail(2) == 0, || {
                format!("copied availability without WAIT: {l:x?}")
            })?;
        }
        check(value(0) == r[0][0] && value(1) == r[1][0], || format!("copied values without WAIT: {l:x?}"))?;
        if app.softnavi {
            check(value(2) == 0xdead_beef_dead_beef, || format!("an unavailable query's value was written: {l:x?}"))?;
        }
        let mut narrow = [0u32; 2];
        // SAFETY: as above, 32-bit results.
        unsafe { d.get_query_pool_results(pool, 0, &mut narrow, vk::QueryResultFlags::empty()) }
            .map_err(vkr("vkGetQueryPoolResults (32-bit)"))?;
        // A value over 32 bits may wrap or saturate.
        let fits = |n: u32, w: u64| n == w as u32 || (w > u32::MAX as u64 && n == u32::MAX);
        check(fits(narrow[0], r[0][0]) && fits(narrow[1], r[1][0]), || format!("32-bit results {narrow:?} of {r:?}"))?;
        let mut reset_note = "";
        if app.modern {
            // SAFETY: the queries are not in use; hostQueryReset is enabled (or softnavi).
            unsafe { d.reset_query_pool(pool, 0, 3) };
            let mut again = [[0u64; 2]; 2];
            // SAFETY: as above.
            let r3 = unsafe { d.get_query_pool_results(pool, 0, &mut again, partial) };
            check(r3 == Err(vk::Result::NOT_READY) && again[0][1] == 0 && again[1][1] == 0, || {
                format!("after vkResetQueryPool: {r3:?} {again:?}")
            })?;
            reset_note = "; host reset";
        }
        Ok(format!(
            "verified (dispatch {:.3} ms GPU, {:.3} ms host, period {period} ns{reset_note})",
            ms(gpu),
            ms(host)
        ))
    })();
    // SAFETY: idle; not used.
    unsafe {
        let _ = d.device_wait_idle();
        d.destroy_query_pool(pool, None);
    }
    result
}

/// A faulting dispatch with named objects: the device-lost report names them (checked by
/// tests/tests/pipes.rs on stderr). Not run with validation (the fault is API misuse).
fn fault(app: &App) -> R<String> {
    let d = &app.device;
    let (src, dst) = (app.buffer(4096)?, app.buffer(4096)?);
    let k = app.kernel(COPY, &[src, dst], 0, vk::PipelineCreateFlags::empty(), true)?;
    // Binding 1 points at a buffer with no memory: the shader's stores fault.
    let info = vk::BufferCreateInfo::default().size(4096).usage(vk::BufferUsageFlags::STORAGE_BUFFER);
    // SAFETY: valid device.
    let unbound = unsafe { d.create_buffer(&info, None) }.map_err(vkr("vkCreateBuffer"))?;
    let bi = [vk::DescriptorBufferInfo::default().buffer(unbound).range(vk::WHOLE_SIZE)];
    let set = app.k(k, |k| k.set);
    let w = vk::WriteDescriptorSet::default()
        .dst_set(set)
        .dst_binding(1)
        .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
        .buffer_info(&bi);
    // SAFETY: the set is not in use.
    unsafe { d.update_descriptor_sets(&[w], &[]) };
    app.k(k, |k| {
        app.name(k.pipeline, c"faulty-copy");
        app.name(k.module, c"copy.comp");
    });
    app.name(app.queue, c"compute-queue");
    let cb = app.cmd(vk::CommandBufferLevel::PRIMARY)?;
    app.name(cb, c"fault-cb");
    app.begin(cb, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
    app.bind(cb, k, None, &[]);
    let label = |name| vk::DebugUtilsLabelEXT::default().label_name(name);
    if let Some(du) = &app.debug {
        // SAFETY: recording; a valid queue.
        unsafe {
            du.cmd_begin_debug_utils_label(cb, &label(c"copy step"));
            du.queue_begin_debug_utils_label(app.queue, &label(c"frame 1"));
        }
    }
    // SAFETY: recording.
    unsafe { d.cmd_dispatch(cb, 16, 1, 1) };
    if let Some(du) = &app.debug {
        // SAFETY: recording, inside the label.
        unsafe { du.cmd_end_debug_utils_label(cb) };
    }
    app.end(cb)?;
    let r = app.submit(&[cb]).and_then(|f| app.wait(f));
    if let Some(du) = &app.debug {
        // SAFETY: inside the label begun above.
        unsafe { du.queue_end_debug_utils_label(app.queue) };
    }
    // SAFETY: the device is lost or idle.
    unsafe { d.destroy_buffer(unbound, None) };
    match r {
        Err(e) if e.contains("ERROR_DEVICE_LOST") => Ok(format!("device lost as expected ({e})")),
        Err(e) => Err(e),
        Ok(()) => Err("WRONG RESULTS: the faulting dispatch completed".into()),
    }
}

/// VK_AMD_buffer_marker: markers written before, after and between work land in the buffer
/// with their values, after the work they follow (the dispatch's results are all there when
/// the last marker is); untouched words keep their contents.
fn markers(app: &App) -> R<String> {
    let Some(m) = &app.markers else { return Ok("SKIP: no VK_AMD_buffer_marker".into()) };
    let d = &app.device;
    let n = 1u32 << 16;
    let data = app.buffer(4 * n as u64)?;
    let inc = app.kernel(INC, &[data], 0, vk::PipelineCreateFlags::empty(), true)?;
    let out = app.buffer(16)?;
    app.buf(out, |b| b.write(&[0xdead_beef; 4]));
    app.run(|cb| {
        use vk::PipelineStageFlags as S;
        // SAFETY: recording; the buffers live until the app ends.
        unsafe { m.cmd_write_buffer_marker(cb, S::TOP_OF_PIPE, app.handle(out), 0, 0x1111) };
        app.bind(cb, inc, None, &[]);
        // SAFETY: as above.
        unsafe {
            d.cmd_dispatch(cb, n / 64, 1, 1);
            m.cmd_write_buffer_marker(cb, S::COMPUTE_SHADER, app.handle(out), 4, 0x2222);
            m.cmd_write_buffer_marker(cb, S::BOTTOM_OF_PIPE, app.handle(out), 8, 0x3333);
        }
        app.barrier(cb);
        Ok(())
    })?;
    let got = app.buf(out, |b| b.read(4));
    check(got == [0x1111, 0x2222, 0x3333, 0xdead_beef], || format!("markers {got:x?}"))?;
    let sums = app.buf(data, |b| b.read(n as usize));
    check(sums.iter().all(|&v| v == 1), || "the dispatch before the markers is incomplete".into())?;
    Ok("verified: three markers, each after the work it follows".into())
}

/// Sparse binding (vkQueueBindSparse) of a four-page buffer to three pages of memory out
/// of order (buffer pages 0, 1, 3 to memory pages 2, 0, 1; page 2 unbound), then rebound
/// (page 1 unbound, page 2 to memory page 0). A shader writes every word of the buffer and
/// copies read it back: the bound pages hold what was written, through a buffer aliasing
/// the memory each landed in the memory page it is bound to, unbound pages read 0
/// (residencyNonResidentStrict; writes to them dropped); a small copy across two pages'
/// boundary (RADV's CP DMA) reads both. Skipped where sparse residency is not offered.
fn sparse(app: &App) -> R<String> {
    if !app.sparse {
        return Ok("SKIP: no sparseBinding and sparseResidencyBuffer on a compute queue".into());
    }
    let d = &app.device;
    let usage =
        vk::BufferUsageFlags::STORAGE_BUFFER | vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let flags = vk::BufferCreateFlags::SPARSE_BINDING | vk::BufferCreateFlags::SPARSE_RESIDENCY;
    // The page is the buffer's alignment: ask with one page's worth, then make four.
    let probe = vk::BufferCreateInfo::default().size(4096).usage(usage).flags(flags);
    // SAFETY: valid device and create infos throughout; objects are destroyed with the app.
    let (b, req) = unsafe {
        let b = d.create_buffer(&probe, None).map_err(vkr("vkCreateBuffer (sparse)"))?;
        let page = d.get_buffer_memory_requirements(b).alignment;
        d.destroy_buffer(b, None);
        let b = d.create_buffer(&probe.size(4 * page), None).map_err(vkr("vkCreateBuffer (sparse)"))?;
        (b, d.get_buffer_memory_requirements(b))
    };
    let page = req.alignment;
    let ty =
        (0..app.memory.memory_type_count).find(|&i| req.memory_type_bits & (1 << i) != 0).ok_or("no memory type")?;
    let info = vk::MemoryAllocateInfo::default().allocation_size(3 * page).memory_type_index(ty);
    // SAFETY: valid allocate info.
    let mem = unsafe { d.allocate_memory(&info, None) }.map_err(vkr("vkAllocateMemory"))?;
    // A plain buffer over the same memory, to see where each page landed.
    // SAFETY: as above; the alias is bound before use.
    let alias = unsafe {
        let a = d
            .create_buffer(&vk::BufferCreateInfo::default().size(3 * page).usage(usage), None)
            .map_err(vkr("vkCreateBuffer"))?;
        d.bind_buffer_memory(a, mem, 0).map_err(vkr("vkBindBufferMemory (alias)"))?;
        a
    };
    let mut bufs = app.bufs.borrow_mut();
    bufs.push(Buf { b: alias, m: vk::DeviceMemory::null(), p: std::ptr::null_mut(), size: 0 });
    bufs.push(Buf { b, m: mem, p: std::ptr::null_mut(), size: 0 });
    let sparse_buf = bufs.len() - 1;
    drop(bufs);
    let words = (page / 4) as usize;
    let bind = |binds: &[(u64, Option<u64>)]| -> R<()> {
        let binds: Vec<_> = binds
            .iter()
            .map(|&(at, m)| {
                vk::SparseMemoryBind::default()
                    .resource_offset(at * page)
                    .size(page)
                    .memory(if m.is_some() { mem } else { vk::DeviceMemory::null() })
                    .memory_offset(m.unwrap_or(0) * page)
            })
            .collect();
        let buf_binds = [vk::SparseBufferMemoryBindInfo::default().buffer(b).binds(&binds)];
        let info = [vk::BindSparseInfo::default().buffer_binds(&buf_binds)];
        // SAFETY: valid device; the fence is waited for and destroyed by `wait`.
        let fence = unsafe { d.create_fence(&vk::FenceCreateInfo::default(), None) }.map_err(vkr("vkCreateFence"))?;
        // SAFETY: valid bind infos; the queue is used from this thread only.
        unsafe { d.queue_bind_sparse(app.queue, &info, fence) }.map_err(vkr("vkQueueBindSparse"))?;
        app.wait(fence)
    };
    bind(&[(0, Some(2)), (1, Some(0)), (3, Some(1))])?;
    let src = app.buffer(4 * page)?;
    let pattern: Vec<u32> = (0..4 * words as u32).map(|i| i.wrapping_mul(2_654_435_761) | 1).collect();
    app.buf(src, |s| s.write(&pattern));
    let (back, alias_back, edge_back) = (app.buffer(4 * page)?, app.buffer(3 * page)?, app.buffer(1024)?);
    // copy.comp stores src + 1.
    let copy = app.kernel(COPY, &[src, sparse_buf], 0, vk::PipelineCreateFlags::empty(), true)?;
    let read_back = |cb| {
        app.barrier(cb);
        let whole = [vk::BufferCopy::default().size(4 * page)];
        let edge = [vk::BufferCopy::default().src_offset(page - 512).size(1024)];
        // SAFETY: recording; the buffers live until the app ends.
        unsafe {
            d.cmd_fill_buffer(cb, app.handle(back), 0, vk::WHOLE_SIZE, 0xdead_beef);
            app.barrier(cb);
            d.cmd_copy_buffer(cb, b, app.handle(back), &whole);
            d.cmd_copy_buffer(cb, b, app.handle(edge_back), &edge);
            d.cmd_copy_buffer(cb, alias, app.handle(alias_back), &[vk::BufferCopy::default().size(3 * page)]);
        }
        app.barrier(cb);
    };
    app.run(|cb| {
        app.bind(cb, copy, None, &[]);
        // SAFETY: recording.
        unsafe { d.cmd_dispatch(cb, 4 * words as u32 / 64, 1, 1) };
        read_back(cb);
        Ok(())
    })?;
    let page_of = |p: usize| (p * words..(p + 1) * words).map(|i| pattern[i] + 1).collect::<Vec<u32>>();
    let zero = vec![0u32; words];
    let got = app.buf(back, |b| b.read(4 * words));
    let got_mem = app.buf(alias_back, |b| b.read(3 * words));
    for (p, want) in [(0, &page_of(0)), (1, &page_of(1)), (2, &zero), (3, &page_of(3))] {
        check(got[p * words..(p + 1) * words] == want[..], || format!("buffer page {p} after the first binding"))?;
    }
    let (lo, hi) = ((page as usize - 512) / 4, (page as usize + 512) / 4);
    let edge = app.buf(edge_back, |b| b.read(256));
    check(edge == got[lo..hi], || "the small copy across the boundary of pages 0 and 1".into())?;
    for (m, p) in [(0, 1), (1, 3), (2, 0)] {
        check(got_mem[m * words..(m + 1) * words] == page_of(p)[..], || {
            format!("memory page {m} should hold buffer page {p}")
        })?;
    }
    // Rebind: page 1 unbound, page 2 to memory page 0 (which holds buffer page 1's data).
    bind(&[(1, None), (2, Some(0))])?;
    app.run(|cb| {
        read_back(cb);
        Ok(())
    })?;
    let got = app.buf(back, |b| b.read(4 * words));
    for (p, want) in [(0, &page_of(0)), (1, &zero), (2, &page_of(1)), (3, &page_of(3))] {
        check(got[p * words..(p + 1) * words] == want[..], || format!("buffer page {p} after rebinding"))?;
    }
    Ok(format!("verified: a sparse buffer of 4 pages of {page} bytes bound, written, read back and rebound"))
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let validate = args.iter().any(|a| a == "--validate");
    let scenario = args.iter().find(|a| !a.starts_with("--")).cloned().unwrap_or_default();
    let run: fn(&App) -> R<String> = match scenario.as_str() {
        "cache" => cache,
        "cmdbufs" => cmdbufs,
        "copies" => copies,
        "events" => events,
        "timestamps" => timestamps,
        "markers" => markers,
        "sparse" => sparse,
        "fault" => fault,
        _ => {
            eprintln!("usage: softnavi-pipes [--validate] cache|cmdbufs|copies|events|timestamps|markers|sparse|fault");
            return ExitCode::from(2);
        }
    };
    let r = App::new(validate).and_then(|app| {
        let r = run(&app);
        drop(app);
        r
    });
    let messages = softnavi_tests::validation::messages();
    match r {
        Ok(s) => {
            println!("RESULT: {s}");
            if validate {
                println!("validation: {messages} error/warning messages");
                if messages > 0 {
                    return ExitCode::from(3);
                }
            }
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("softnavi-pipes {scenario}: {e}");
            ExitCode::from(1)
        }
    }
}
