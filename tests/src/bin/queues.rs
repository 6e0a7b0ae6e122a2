//! `softnavi-queues [--validate] [SCENARIO...]`: queues, families, fences, binary and
//! timeline semaphores, vkQueueSubmit2 and the sync2 commands, through the real loader.
//! Scenarios (all but `lost` and `hang` by default; `rejects` runs on softnavi only, `lost`
//! and `hang` on softnavi and on RADV over the model):
//! - `families`: the queue families; invalid queue requests at device creation, refused,
//!   and a family named twice, taken (not with --validate: they are invalid usage).
//! - `chain`: 4 threads submit to 2 queues, each step waiting on the timeline value the
//!   previous step signals; the result is checked against the CPU.
//! - `wbs`: wait-before-signal, a batch waiting on a value the host signals later from
//!   another thread; vkWaitSemaphores timeouts, any and all.
//! - `binary`: a dispatch on a compute queue, then a copy on a transfer queue waiting on a
//!   binary semaphore; then the same with vkQueueSubmit2, vkCmdPipelineBarrier2 and
//!   vkCmdWriteTimestamp2.
//! - `held`: vkQueueWaitIdle waits for a held batch; a device destroyed with a batch held
//!   forever (not with --validate: the layer reports the leaked objects).
//! - `rejects`: a dispatch recorded in a pool of the transfer-only family fails at
//!   vkEndCommandBuffer (not with --validate: invalid usage).
//! - `lost`: a faulting dispatch on one queue; fences, semaphore waits and submits on both
//!   queues return VK_ERROR_DEVICE_LOST (not with --validate: the layer keeps counting the
//!   lost batches' objects as in use, so destroying them is reported); then a new device
//!   runs the `chain` scenario.
//! - `hang`: `lost` with a dispatch that never ends (run it with a short
//!   SOFTNAVI_HANG_TIMEOUT_MS).
//!
//! Prints `PASS name` / `FAIL name: why` per scenario and exits non-zero on any failure or
//! validation message.

use std::ffi::c_void;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use ash::vk;
use softnavi_examples::spirv_words;
use softnavi_tests::pipeline::ComputePipeline;
use softnavi_tests::vkr;

const COPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/copy.spv"));
const BDA_STORE: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bda_store.spv"));
const BDA_SPIN: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/bda_spin.spv"));

type R<T> = Result<T, String>;

fn check(cond: bool, what: impl FnOnce() -> String) -> R<()> {
    if cond {
        Ok(())
    } else {
        Err(what())
    }
}

unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user: *mut c_void,
) -> vk::Bool32 {
    // SAFETY: the layer passes valid callback data; `user` is the counter that outlives
    // the messenger.
    let msg = unsafe { data.as_ref().and_then(|d| d.message_as_c_str()) }.map(|m| m.to_string_lossy().into_owned());
    if severity
        .intersects(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
    {
        // SAFETY: as above.
        unsafe { &*(user as *const AtomicUsize) }.fetch_add(1, Ordering::SeqCst);
        println!("validation [{severity:?}]: {}", msg.unwrap_or_default());
    }
    vk::FALSE
}

struct Instance {
    _entry: ash::Entry,
    instance: ash::Instance,
    messenger: Option<(ash::ext::debug_utils::Instance, vk::DebugUtilsMessengerEXT)>,
    messages: Arc<AtomicUsize>,
    pdev: vk::PhysicalDevice,
    softnavi: bool,
    /// Mesa's RADV over softnavi's amdgpu shim (`scripts/radv`): the GPU model loses the
    /// device as under softnavi's ICD.
    radv: bool,
    /// The device's Vulkan version: below 1.2 / 1.3 the KHR extensions are used.
    api: u32,
    families: Vec<vk::QueueFamilyProperties>,
}

impl Instance {
    fn new(validate: bool) -> R<Instance> {
        // SAFETY: loading the system loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("loading libvulkan: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
        let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
        let exts = [ash::ext::debug_utils::NAME.as_ptr()];
        let mut info = vk::InstanceCreateInfo::default().application_info(&app);
        if validate {
            info = info.enabled_layer_names(&layers).enabled_extension_names(&exts);
        }
        // SAFETY: valid create info.
        let instance = vkr("vkCreateInstance", unsafe { entry.create_instance(&info, None) })?;
        let messages = Arc::new(AtomicUsize::new(0));
        let messenger = if validate {
            let du = ash::ext::debug_utils::Instance::new(&entry, &instance);
            let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
                .message_severity(
                    vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR,
                )
                .message_type(
                    vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                        | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                        | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
                )
                .pfn_user_callback(Some(on_message))
                .user_data(Arc::as_ptr(&messages) as *mut c_void);
            // SAFETY: valid create info; the counter outlives the messenger.
            let m = vkr("vkCreateDebugUtilsMessengerEXT", unsafe { du.create_debug_utils_messenger(&info, None) })?;
            Some((du, m))
        } else {
            None
        };
        // SAFETY: a live instance.
        let pdevs = vkr("vkEnumeratePhysicalDevices", unsafe { instance.enumerate_physical_devices() })?;
        let pdev = *pdevs.first().ok_or("no physical device")?;
        // SAFETY: a live physical device.
        let props = unsafe { instance.get_physical_device_properties(pdev) };
        let name = props.device_name_as_c_str().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        // SAFETY: as above.
        let families = unsafe { instance.get_physical_device_queue_family_properties(pdev) };
        println!(
            "device: {name}; families: {:?}",
            families.iter().map(|f| (f.queue_flags, f.queue_count)).collect::<Vec<_>>()
        );
        Ok(Instance {
            _entry: entry,
            instance,
            messenger,
            messages,
            pdev,
            softnavi: name.contains("softnavi"),
            radv: name.contains("(RADV "),
            api: props.api_version,
            families,
        })
    }

    /// A compute-only family where there is one (RADV's compute rings), else the first
    /// with COMPUTE.
    fn compute_family(&self) -> u32 {
        let has = |f: &&vk::QueueFamilyProperties, flag| f.queue_flags.contains(flag);
        let pick = |only: bool| {
            self.families
                .iter()
                .position(|f| has(&f, vk::QueueFlags::COMPUTE) && !(only && has(&f, vk::QueueFlags::GRAPHICS)))
        };
        pick(true).or_else(|| pick(false)).unwrap_or(0) as u32
    }

    /// A transfer-only family, if the driver has one.
    fn transfer_family(&self) -> Option<u32> {
        self.families
            .iter()
            .position(|f| {
                f.queue_flags.contains(vk::QueueFlags::TRANSFER) && !f.queue_flags.contains(vk::QueueFlags::COMPUTE)
            })
            .map(|i| i as u32)
    }
}

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: every device is gone; nothing else uses the instance.
        unsafe {
            if let Some((du, m)) = self.messenger.take() {
                du.destroy_debug_utils_messenger(m, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

/// The timeline-semaphore and synchronization2 commands: core on a 1.3 device, the KHR
/// extensions' on older ones.
#[derive(Clone)]
struct Api {
    d: ash::Device,
    tl: Option<ash::khr::timeline_semaphore::Device>,
    s2: Option<ash::khr::synchronization2::Device>,
}

impl Api {
    /// # Safety
    /// As for `vkWaitSemaphores`.
    unsafe fn wait_semaphores(&self, info: &vk::SemaphoreWaitInfo<'_>, timeout: u64) -> Result<(), vk::Result> {
        // SAFETY: by the caller's contract.
        unsafe {
            match &self.tl {
                Some(tl) => tl.wait_semaphores(info, timeout),
                None => self.d.wait_semaphores(info, timeout),
            }
        }
    }

    /// # Safety
    /// As for `vkSignalSemaphore`.
    unsafe fn signal_semaphore(&self, info: &vk::SemaphoreSignalInfo<'_>) -> Result<(), vk::Result> {
        // SAFETY: by the caller's contract.
        unsafe {
            match &self.tl {
                Some(tl) => tl.signal_semaphore(info),
                None => self.d.signal_semaphore(info),
            }
        }
    }

    /// # Safety
    /// As for `vkGetSemaphoreCounterValue`.
    unsafe fn get_semaphore_counter_value(&self, s: vk::Semaphore) -> Result<u64, vk::Result> {
        // SAFETY: by the caller's contract.
        unsafe {
            match &self.tl {
                Some(tl) => tl.get_semaphore_counter_value(s),
                None => self.d.get_semaphore_counter_value(s),
            }
        }
    }

    /// # Safety
    /// As for `vkQueueSubmit2`.
    unsafe fn queue_submit2(&self, q: vk::Queue, s: &[vk::SubmitInfo2<'_>], f: vk::Fence) -> Result<(), vk::Result> {
        // SAFETY: by the caller's contract.
        unsafe {
            match &self.s2 {
                Some(s2) => s2.queue_submit2(q, s, f),
                None => self.d.queue_submit2(q, s, f),
            }
        }
    }

    /// # Safety
    /// As for `vkCmdPipelineBarrier2`.
    unsafe fn cmd_pipeline_barrier2(&self, c: vk::CommandBuffer, dep: &vk::DependencyInfo<'_>) {
        // SAFETY: by the caller's contract.
        unsafe {
            match &self.s2 {
                Some(s2) => s2.cmd_pipeline_barrier2(c, dep),
                None => self.d.cmd_pipeline_barrier2(c, dep),
            }
        }
    }

    /// # Safety
    /// As for `vkCmdWriteTimestamp2`.
    unsafe fn cmd_write_timestamp2(&self, c: vk::CommandBuffer, st: vk::PipelineStageFlags2, p: vk::QueryPool, q: u32) {
        // SAFETY: by the caller's contract.
        unsafe {
            match &self.s2 {
                Some(s2) => s2.cmd_write_timestamp2(c, st, p, q),
                None => self.d.cmd_write_timestamp2(c, st, p, q),
            }
        }
    }
}

/// A device with `n` compute queues (at most what the family has) and a transfer queue.
struct Device {
    /// A batch will never run: no vkDeviceWaitIdle before destruction.
    held_forever: std::cell::Cell<bool>,
    d: ash::Device,
    api: Api,
    compute_family: u32,
    compute: Vec<vk::Queue>,
    /// (family, queue): the transfer-only family's first queue, else a compute queue.
    transfer: (u32, vk::Queue),
    mem_type: u32,
    pool: vk::CommandPool,
    transfer_pool: vk::CommandPool,
}

impl Device {
    fn new(inst: &Instance, n: u32) -> R<Device> {
        let cf = inst.compute_family();
        let n = n.min(inst.families[cf as usize].queue_count);
        let prio = [1.0f32; 8];
        let mut qinfos =
            vec![vk::DeviceQueueCreateInfo::default().queue_family_index(cf).queue_priorities(&prio[..n as usize])];
        let tf = inst.transfer_family();
        if let Some(tf) = tf {
            qinfos.push(vk::DeviceQueueCreateInfo::default().queue_family_index(tf).queue_priorities(&prio[..1]));
        }
        // The promoted structures, valid on 1.2/1.3 devices and with the extensions.
        let mut tl = vk::PhysicalDeviceTimelineSemaphoreFeatures::default().timeline_semaphore(true);
        let mut s2 = vk::PhysicalDeviceSynchronization2Features::default().synchronization2(true);
        let mut bda = vk::PhysicalDeviceBufferDeviceAddressFeatures::default().buffer_device_address(true);
        let (old12, old13) = (inst.api < vk::API_VERSION_1_2, inst.api < vk::API_VERSION_1_3);
        let mut exts = Vec::new();
        if old12 {
            exts.extend([ash::khr::timeline_semaphore::NAME.as_ptr(), ash::khr::buffer_device_address::NAME.as_ptr()]);
        }
        if old13 {
            exts.push(ash::khr::synchronization2::NAME.as_ptr());
        }
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&qinfos)
            .enabled_extension_names(&exts)
            .push_next(&mut tl)
            .push_next(&mut s2)
            .push_next(&mut bda);
        // SAFETY: valid create info.
        let d = vkr("vkCreateDevice", unsafe { inst.instance.create_device(inst.pdev, &info, None) })?;
        let api = Api {
            d: d.clone(),
            tl: old12.then(|| ash::khr::timeline_semaphore::Device::new(&inst.instance, &d)),
            s2: old13.then(|| ash::khr::synchronization2::Device::new(&inst.instance, &d)),
        };
        // SAFETY: these queues were requested above.
        let compute: Vec<vk::Queue> = (0..n).map(|i| unsafe { d.get_device_queue(cf, i) }).collect();
        let transfer = match tf {
            // SAFETY: as above.
            Some(tf) => (tf, unsafe { d.get_device_queue(tf, 0) }),
            None => (cf, compute[compute.len() - 1]),
        };
        // SAFETY: a live physical device.
        let mp = unsafe { inst.instance.get_physical_device_memory_properties(inst.pdev) };
        let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
        let mem_type = (0..mp.memory_type_count)
            .find(|&i| mp.memory_types[i as usize].property_flags.contains(want))
            .ok_or("no host-visible coherent memory")?;
        let reset = vk::CommandPoolCreateFlags::RESET_COMMAND_BUFFER;
        let pinfo = vk::CommandPoolCreateInfo::default().queue_family_index(cf).flags(reset);
        // SAFETY: valid create info.
        let pool = vkr("vkCreateCommandPool", unsafe { d.create_command_pool(&pinfo, None) })?;
        let tinfo = vk::CommandPoolCreateInfo::default().queue_family_index(transfer.0).flags(reset);
        // SAFETY: valid create info.
        let transfer_pool = vkr("vkCreateCommandPool", unsafe { d.create_command_pool(&tinfo, None) })?;
        Ok(Device {
            held_forever: false.into(),
            d,
            api,
            compute_family: cf,
            compute,
            transfer,
            mem_type,
            pool,
            transfer_pool,
        })
    }

    fn buffer(&self, n: u32) -> R<Buf> {
        let info = vk::BufferCreateInfo::default().size(4 * n as u64).usage(
            vk::BufferUsageFlags::STORAGE_BUFFER
                | vk::BufferUsageFlags::TRANSFER_SRC
                | vk::BufferUsageFlags::TRANSFER_DST,
        );
        // SAFETY: valid create infos; the memory is bound once and mapped whole.
        unsafe {
            let buf = vkr("vkCreateBuffer", self.d.create_buffer(&info, None))?;
            let req = self.d.get_buffer_memory_requirements(buf);
            let ainfo = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(self.mem_type);
            let mem = vkr("vkAllocateMemory", self.d.allocate_memory(&ainfo, None))?;
            vkr("vkBindBufferMemory", self.d.bind_buffer_memory(buf, mem, 0))?;
            let ptr = vkr("vkMapMemory", self.d.map_memory(mem, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()))?;
            Ok(Buf { buf, mem, ptr: ptr as *mut u32, n })
        }
    }

    fn cmd(&self, pool: vk::CommandPool) -> R<vk::CommandBuffer> {
        let info = vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1);
        // SAFETY: valid allocate info.
        Ok(vkr("vkAllocateCommandBuffers", unsafe { self.d.allocate_command_buffers(&info) })?[0])
    }

    fn begin(&self, c: vk::CommandBuffer, flags: vk::CommandBufferUsageFlags) -> R<()> {
        // SAFETY: a live command buffer, not in use.
        vkr("vkBeginCommandBuffer", unsafe {
            self.d.begin_command_buffer(c, &vk::CommandBufferBeginInfo::default().flags(flags))
        })
    }

    fn timeline(&self, initial: u64) -> R<vk::Semaphore> {
        let mut t =
            vk::SemaphoreTypeCreateInfo::default().semaphore_type(vk::SemaphoreType::TIMELINE).initial_value(initial);
        let info = vk::SemaphoreCreateInfo::default().push_next(&mut t);
        // SAFETY: valid create info.
        vkr("vkCreateSemaphore", unsafe { self.d.create_semaphore(&info, None) })
    }

    fn fence(&self) -> R<vk::Fence> {
        // SAFETY: valid create info.
        vkr("vkCreateFence", unsafe { self.d.create_fence(&vk::FenceCreateInfo::default(), None) })
    }
}

impl Drop for Device {
    fn drop(&mut self) {
        // SAFETY: the scenario is over (or the device lost); nothing is pending that
        // matters. Objects the scenario made die with the device in the driver's book
        // keeping; scenarios destroy what they created before returning.
        unsafe {
            if !self.held_forever.get() {
                let _ = self.d.device_wait_idle();
            }
            self.d.destroy_command_pool(self.pool, None);
            self.d.destroy_command_pool(self.transfer_pool, None);
            self.d.destroy_device(None);
        }
    }
}

struct Buf {
    buf: vk::Buffer,
    mem: vk::DeviceMemory,
    ptr: *mut u32,
    n: u32,
}

impl Buf {
    fn write(&self, f: impl Fn(u32) -> u32) {
        for i in 0..self.n {
            // SAFETY: the mapping holds n dwords.
            unsafe { self.ptr.add(i as usize).write_volatile(f(i)) };
        }
    }

    /// The first index where the contents differ from `f`.
    fn mismatch(&self, f: impl Fn(u32) -> u32) -> Option<(u32, u32, u32)> {
        // SAFETY: the mapping holds n dwords.
        (0..self.n).map(|i| (i, unsafe { self.ptr.add(i as usize).read_volatile() }, f(i))).find(|(_, a, b)| a != b)
    }

    fn destroy(self, d: &ash::Device) {
        // SAFETY: no pending work uses the buffer.
        unsafe {
            d.destroy_buffer(self.buf, None);
            d.free_memory(self.mem, None);
        }
    }
}

/// `copy.comp` with both bindings on one buffer: each dispatch adds 1 to every element.
struct Increment(ComputePipeline);

impl Increment {
    fn new(dev: &Device, buf: &Buf) -> R<Increment> {
        let d = &dev.d;
        let words = spirv_words(COPY).map_err(|e| e.to_string())?;
        let p = ComputePipeline::new(d, &words, &[vk::DescriptorType::STORAGE_BUFFER; 2], 0)?;
        let bi = [vk::DescriptorBufferInfo { buffer: buf.buf, offset: 0, range: vk::WHOLE_SIZE }];
        let writes = [0, 1].map(|b| {
            vk::WriteDescriptorSet::default()
                .dst_set(p.set)
                .dst_binding(b)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .buffer_info(&bi)
        });
        // SAFETY: a live set and buffer.
        unsafe { d.update_descriptor_sets(&writes, &[]) };
        Ok(Increment(p))
    }

    fn record(&self, d: &ash::Device, c: vk::CommandBuffer, n: u32) {
        self.0.bind(d, c);
        // SAFETY: a command buffer in the recording state.
        unsafe { d.cmd_dispatch(c, n.div_ceil(64), 1, 1) };
    }

    fn destroy(self, d: &ash::Device) {
        self.0.destroy(d);
    }
}

fn wait_value(d: &Api, sems: &[vk::Semaphore], values: &[u64], any: bool, timeout: Duration) -> vk::Result {
    let flags = if any { vk::SemaphoreWaitFlags::ANY } else { vk::SemaphoreWaitFlags::empty() };
    let info = vk::SemaphoreWaitInfo::default().flags(flags).semaphores(sems).values(values);
    // SAFETY: live semaphores.
    match unsafe { d.wait_semaphores(&info, timeout.as_nanos().min(u64::MAX as u128) as u64) } {
        Ok(()) => vk::Result::SUCCESS,
        Err(e) => e,
    }
}

fn families(inst: &Instance, validate: bool) -> R<()> {
    check(inst.families.iter().all(|f| f.timestamp_valid_bits == 64 || !inst.softnavi), || {
        "timestampValidBits".into()
    })?;
    if !inst.softnavi {
        return Ok(());
    }
    let f: Vec<(vk::QueueFlags, u32)> = inst.families.iter().map(|f| (f.queue_flags, f.queue_count)).collect();
    check(f == [(vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER, 4), (vk::QueueFlags::TRANSFER, 2)], || {
        format!("families {f:?}")
    })?;
    if validate {
        return Ok(());
    }
    let prio = [1.0f32; 8];
    for (family, n) in [(7u32, 1usize), (0, 5), (1, 3)] {
        let q = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&prio[..n])];
        // SAFETY: a create info the driver must refuse.
        let r = unsafe {
            inst.instance.create_device(inst.pdev, &vk::DeviceCreateInfo::default().queue_create_infos(&q), None)
        };
        match r {
            Err(vk::Result::ERROR_INITIALIZATION_FAILED) => {}
            Err(e) => return Err(format!("family {family} × {n}: {e:?}")),
            Ok(d) => {
                // SAFETY: the device just made.
                unsafe { d.destroy_device(None) };
                return Err(format!("family {family} × {n} was accepted"));
            }
        }
    }
    // Family 0 named twice, 1 and 3 queues: invalid usage the CTS's robustness tests commit
    // (their universal and compute families are one here); taken, with the larger count.
    let q =
        [1usize, 3].map(|n| vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&prio[..n]));
    // SAFETY: a create info the driver takes; the device is destroyed below.
    let d = vkr("vkCreateDevice (family 0 twice)", unsafe {
        inst.instance.create_device(inst.pdev, &vk::DeviceCreateInfo::default().queue_create_infos(&q), None)
    })?;
    // SAFETY: queue 2 of family 0 exists on this device; nothing runs.
    let third = unsafe { d.get_device_queue(0, 2) };
    // SAFETY: idle, no objects made from it.
    unsafe { d.destroy_device(None) };
    check(third != vk::Queue::null(), || "family 0 named twice: no third queue".into())
}

fn chain(inst: &Instance) -> R<()> {
    const N: u32 = 256;
    const STEPS: u64 = 400;
    const THREADS: u64 = 4;
    let dev = Device::new(inst, 2)?;
    let d = &dev.d;
    let buf = dev.buffer(N)?;
    buf.write(|i| i);
    let inc = Increment::new(&dev, &buf)?;
    let sem = dev.timeline(0)?;
    let mut cbs = Vec::new();
    for _ in 0..THREADS {
        let c = dev.cmd(dev.pool)?;
        dev.begin(c, vk::CommandBufferUsageFlags::SIMULTANEOUS_USE)?;
        inc.record(d, c, N);
        // SAFETY: recording.
        vkr("vkEndCommandBuffer", unsafe { d.end_command_buffer(c) })?;
        cbs.push(c);
    }
    // Queue operations are externally synchronised: one lock per VkQueue, which also holds
    // the next step that queue takes. Steps go to queue `k % queues` and enter each queue
    // in step order (a queue runs its batches in submission order, so a step submitted
    // behind a later one of the same queue would wait forever); across queues the threads
    // race, so a step is often submitted before the step it waits for.
    type Slot = Arc<(Mutex<(vk::Queue, u64)>, Condvar)>;
    let nq = dev.compute.len() as u64;
    let queues: Vec<Slot> =
        dev.compute.iter().enumerate().map(|(i, &q)| Arc::new((Mutex::new((q, i as u64)), Condvar::new()))).collect();
    let start = Instant::now();
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (d, queues, c) = (d.clone(), queues.clone(), cbs[t as usize]);
            std::thread::spawn(move || -> R<()> {
                for k in (t..STEPS).step_by(THREADS as usize) {
                    let (wv, sv, sems, cs) = ([k], [k + 1], [sem], [c]);
                    let mut tl = vk::TimelineSemaphoreSubmitInfo::default()
                        .wait_semaphore_values(&wv)
                        .signal_semaphore_values(&sv);
                    let stages = [vk::PipelineStageFlags::COMPUTE_SHADER];
                    let submit = vk::SubmitInfo::default()
                        .wait_semaphores(&sems)
                        .wait_dst_stage_mask(&stages)
                        .command_buffers(&cs)
                        .signal_semaphores(&sems)
                        .push_next(&mut tl);
                    let (lock, turn) = &*queues[(k % nq) as usize];
                    let mut q = lock.lock().map_err(|_| "poisoned")?;
                    while q.1 != k {
                        q = turn.wait(q).map_err(|_| "poisoned")?;
                    }
                    // SAFETY: valid submission; the queue is locked.
                    vkr("vkQueueSubmit", unsafe { d.queue_submit(q.0, &[submit], vk::Fence::null()) })?;
                    q.1 = k + nq;
                    turn.notify_all();
                }
                Ok(())
            })
        })
        .collect();
    for t in threads {
        t.join().map_err(|_| "a submitting thread panicked")??;
    }
    let r = wait_value(&dev.api, &[sem], &[STEPS], false, Duration::from_secs(120));
    let elapsed = start.elapsed();
    check(r == vk::Result::SUCCESS, || format!("waiting for value {STEPS}: {r:?}"))?;
    // SAFETY: a live semaphore.
    let v = vkr("vkGetSemaphoreCounterValue", unsafe { dev.api.get_semaphore_counter_value(sem) })?;
    check(v == STEPS, || format!("counter value {v}"))?;
    if let Some((i, got, want)) = buf.mismatch(|i| i + STEPS as u32) {
        return Err(format!("element {i}: {got}, expected {want}"));
    }
    println!("chain: {STEPS} steps by {THREADS} threads on {} queue(s) in {elapsed:?}", queues.len());
    // SAFETY: idle.
    unsafe {
        vkr("vkDeviceWaitIdle", d.device_wait_idle())?;
        d.destroy_semaphore(sem, None);
    }
    inc.destroy(d);
    buf.destroy(d);
    Ok(())
}

fn wbs(inst: &Instance) -> R<()> {
    const N: u32 = 128;
    let dev = Device::new(inst, 1)?;
    let d = &dev.d;
    let buf = dev.buffer(N)?;
    buf.write(|i| i * 3);
    let inc = Increment::new(&dev, &buf)?;
    let (a, b) = (dev.timeline(0)?, dev.timeline(1)?);
    let fence = dev.fence()?;
    let c = dev.cmd(dev.pool)?;
    dev.begin(c, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
    inc.record(d, c, N);
    // SAFETY: recording.
    vkr("vkEndCommandBuffer", unsafe { d.end_command_buffer(c) })?;
    let (wv, sv, sems, cs) = ([5u64], [6u64], [a], [c]);
    let mut tl = vk::TimelineSemaphoreSubmitInfo::default().wait_semaphore_values(&wv).signal_semaphore_values(&sv);
    let stages = [vk::PipelineStageFlags::COMPUTE_SHADER];
    let submit = vk::SubmitInfo::default()
        .wait_semaphores(&sems)
        .wait_dst_stage_mask(&stages)
        .command_buffers(&cs)
        .signal_semaphores(&sems)
        .push_next(&mut tl);
    let t0 = Instant::now();
    // SAFETY: valid submission.
    vkr("vkQueueSubmit", unsafe { d.queue_submit(dev.compute[0], &[submit], fence) })?;
    let took = t0.elapsed();
    check(took < Duration::from_millis(500), || format!("vkQueueSubmit blocked for {took:?}"))?;
    // SAFETY: a live fence.
    let st = unsafe { d.get_fence_status(fence) };
    check(st == Ok(false), || format!("fence status before the signal: {st:?}"))?;
    let r = wait_value(&dev.api, &[a], &[6], false, Duration::from_millis(20));
    check(r == vk::Result::TIMEOUT, || format!("wait a>=6 before the signal: {r:?}"))?;
    let r = wait_value(&dev.api, &[a, b], &[6, 1], true, Duration::ZERO);
    check(r == vk::Result::SUCCESS, || format!("wait any(a>=6, b>=1): {r:?}"))?;
    let r = wait_value(&dev.api, &[a, b], &[6, 1], false, Duration::from_millis(1));
    check(r == vk::Result::TIMEOUT, || format!("wait all(a>=6, b>=1): {r:?}"))?;
    let d2 = dev.api.clone();
    let signaller = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(50));
        // SAFETY: a live semaphore; 5 is above its value.
        unsafe { d2.signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(a).value(5)) }
    });
    // SAFETY: a live fence.
    let r = unsafe { d.wait_for_fences(&[fence], true, 10_000_000_000) };
    vkr("vkSignalSemaphore", signaller.join().map_err(|_| "the signalling thread panicked")?)?;
    vkr("vkWaitForFences after the host signal", r)?;
    // The batch's signal (lavapipe may publish it a moment after the fence).
    let r = wait_value(&dev.api, &[a], &[6], false, Duration::from_secs(5));
    check(r == vk::Result::SUCCESS, || format!("wait a>=6 after the batch: {r:?}"))?;
    // SAFETY: a live semaphore.
    let v = vkr("vkGetSemaphoreCounterValue", unsafe { dev.api.get_semaphore_counter_value(a) })?;
    check(v == 6, || format!("a = {v} after the batch, expected 6"))?;
    if let Some((i, got, want)) = buf.mismatch(|i| i * 3 + 1) {
        return Err(format!("element {i}: {got}, expected {want}"));
    }
    // SAFETY: idle.
    unsafe {
        d.destroy_fence(fence, None);
        d.destroy_semaphore(a, None);
        d.destroy_semaphore(b, None);
    }
    inc.destroy(d);
    buf.destroy(d);
    Ok(())
}

fn binary(inst: &Instance) -> R<()> {
    const N: u32 = 192;
    let dev = Device::new(inst, 1)?;
    let d = &dev.d;
    let (a, out) = (dev.buffer(N)?, dev.buffer(N)?);
    a.write(|i| 1000 + i);
    out.write(|_| 0);
    let inc = Increment::new(&dev, &a)?;
    // SAFETY: valid create infos.
    let sem = vkr("vkCreateSemaphore", unsafe { d.create_semaphore(&vk::SemaphoreCreateInfo::default(), None) })?;
    let qp = vkr("vkCreateQueryPool", unsafe {
        d.create_query_pool(
            &vk::QueryPoolCreateInfo::default().query_type(vk::QueryType::TIMESTAMP).query_count(2),
            None,
        )
    })?;
    let fence = dev.fence()?;
    let (cc, tc) = (dev.cmd(dev.pool)?, dev.cmd(dev.transfer_pool)?);
    let transfer_shared = dev.transfer.0 == dev.compute_family;
    for round in 0..2u32 {
        let sync2 = round == 1;
        dev.begin(cc, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
        inc.record(d, cc, N);
        dev.begin(tc, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
        // SAFETY: recording; live objects.
        unsafe {
            // Query commands other than timestamps need a compute queue.
            d.cmd_reset_query_pool(cc, qp, 0, 2);
            let region = [vk::BufferCopy { src_offset: 0, dst_offset: 0, size: 4 * N as u64 }];
            if sync2 {
                let mb = [vk::MemoryBarrier2::default()
                    .src_stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)
                    .src_access_mask(vk::AccessFlags2::SHADER_STORAGE_WRITE)
                    .dst_stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)
                    .dst_access_mask(vk::AccessFlags2::MEMORY_READ)];
                dev.api.cmd_pipeline_barrier2(cc, &vk::DependencyInfo::default().memory_barriers(&mb));
                dev.api.cmd_write_timestamp2(tc, vk::PipelineStageFlags2::NONE, qp, 0);
                d.cmd_copy_buffer(tc, a.buf, out.buf, &region);
                dev.api.cmd_write_timestamp2(tc, vk::PipelineStageFlags2::ALL_TRANSFER, qp, 1);
            } else {
                d.cmd_write_timestamp(tc, vk::PipelineStageFlags::TOP_OF_PIPE, qp, 0);
                d.cmd_copy_buffer(tc, a.buf, out.buf, &region);
                d.cmd_write_timestamp(tc, vk::PipelineStageFlags::TRANSFER, qp, 1);
            }
            vkr("vkEndCommandBuffer", d.end_command_buffer(cc))?;
            vkr("vkEndCommandBuffer", d.end_command_buffer(tc))?;
            vkr("vkResetFences", d.reset_fences(&[fence]))?;
            if sync2 {
                let (c1, c2) = (
                    [vk::CommandBufferSubmitInfo::default().command_buffer(cc)],
                    [vk::CommandBufferSubmitInfo::default().command_buffer(tc)],
                );
                let sig = [vk::SemaphoreSubmitInfo::default()
                    .semaphore(sem)
                    .stage_mask(vk::PipelineStageFlags2::COMPUTE_SHADER)];
                let wait = [vk::SemaphoreSubmitInfo::default()
                    .semaphore(sem)
                    .stage_mask(vk::PipelineStageFlags2::ALL_TRANSFER)];
                let s1 = [vk::SubmitInfo2::default().command_buffer_infos(&c1).signal_semaphore_infos(&sig)];
                let s2 = [vk::SubmitInfo2::default().wait_semaphore_infos(&wait).command_buffer_infos(&c2)];
                vkr("vkQueueSubmit2", dev.api.queue_submit2(dev.compute[0], &s1, vk::Fence::null()))?;
                vkr("vkQueueSubmit2", dev.api.queue_submit2(dev.transfer.1, &s2, fence))?;
            } else {
                let (c1, c2, sems) = ([cc], [tc], [sem]);
                let stages = [vk::PipelineStageFlags::TRANSFER];
                let s1 = [vk::SubmitInfo::default().command_buffers(&c1).signal_semaphores(&sems)];
                let s2 = [vk::SubmitInfo::default()
                    .wait_semaphores(&sems)
                    .wait_dst_stage_mask(&stages)
                    .command_buffers(&c2)];
                vkr("vkQueueSubmit", d.queue_submit(dev.compute[0], &s1, vk::Fence::null()))?;
                vkr("vkQueueSubmit", d.queue_submit(dev.transfer.1, &s2, fence))?;
            }
            vkr("vkWaitForFences", d.wait_for_fences(&[fence], true, 10_000_000_000))?;
            let mut ts = [0u64; 2];
            vkr(
                "vkGetQueryPoolResults",
                d.get_query_pool_results(qp, 0, &mut ts, vk::QueryResultFlags::TYPE_64 | vk::QueryResultFlags::WAIT),
            )?;
            check(ts[1] >= ts[0], || format!("timestamps {ts:?}"))?;
            // The compute queue's batch is done too (the transfer waited for it).
            vkr("vkQueueWaitIdle", d.queue_wait_idle(dev.compute[0]))?;
        }
        if let Some((i, got, want)) = out.mismatch(|i| 1000 + i + 1 + round) {
            return Err(format!("round {round}: element {i}: {got}, expected {want}"));
        }
    }
    println!("binary: transfer queue family {} (shared with compute: {transfer_shared})", dev.transfer.0);
    // SAFETY: idle.
    unsafe {
        d.destroy_fence(fence, None);
        d.destroy_semaphore(sem, None);
        d.destroy_query_pool(qp, None);
    }
    inc.destroy(d);
    a.destroy(d);
    out.destroy(d);
    Ok(())
}

fn rejects(inst: &Instance) -> R<()> {
    let dev = Device::new(inst, 1)?;
    let d = &dev.d;
    let buf = dev.buffer(64)?;
    let inc = Increment::new(&dev, &buf)?;
    let c = dev.cmd(dev.transfer_pool)?;
    dev.begin(c, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
    inc.record(d, c, 64);
    // SAFETY: recording (invalid usage on purpose: the driver must refuse it).
    let r = unsafe { d.end_command_buffer(c) };
    check(r.is_err(), || "a dispatch in a transfer-family command buffer was accepted".into())?;
    println!("rejects: vkEndCommandBuffer -> {r:?}");
    inc.destroy(d);
    buf.destroy(d);
    Ok(())
}

fn lost(inst: &Instance, shader: &[u8]) -> R<()> {
    let dev = Device::new(inst, 2)?;
    check(dev.compute.len() == 2, || "two compute queues".into())?;
    let d = &dev.d;
    let words = spirv_words(shader).map_err(|e| e.to_string())?;
    let ranges = [vk::PushConstantRange { stage_flags: vk::ShaderStageFlags::COMPUTE, offset: 0, size: 8 }];
    let (fa, fb) = (dev.fence()?, dev.fence()?);
    let (never, sig) = (dev.timeline(0)?, dev.timeline(0)?);
    // SAFETY: valid create infos; recording.
    unsafe {
        let module = vkr(
            "vkCreateShaderModule",
            d.create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None),
        )?;
        let layout = vkr(
            "vkCreatePipelineLayout",
            d.create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().push_constant_ranges(&ranges), None),
        )?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let pipeline = d
            .create_compute_pipelines(
                vk::PipelineCache::null(),
                &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)],
                None,
            )
            .map_err(|(_, e)| format!("vkCreateComputePipelines: {e:?}"))?[0];
        // A held batch on queue 1: waits on a value nobody signals. Not on RADV: its
        // submit thread keeps such a batch and waits for the point without a timeout, also
        // in vkDestroyDevice (as on a real kernel, where no reset signals it).
        let hold = !inst.radv;
        if hold {
            let held = [vk::SemaphoreSubmitInfo::default()
                .semaphore(never)
                .value(1)
                .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
            vkr(
                "vkQueueSubmit2 (held)",
                dev.api.queue_submit2(dev.compute[1], &[vk::SubmitInfo2::default().wait_semaphore_infos(&held)], fb),
            )?;
        }
        let c = dev.cmd(dev.pool)?;
        dev.begin(c, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
        d.cmd_bind_pipeline(c, vk::PipelineBindPoint::COMPUTE, pipeline);
        // An address nothing is mapped at.
        d.cmd_push_constants(c, layout, vk::ShaderStageFlags::COMPUTE, 0, &0x7f00_dead_0000u64.to_le_bytes());
        d.cmd_dispatch(c, 1, 1, 1);
        vkr("vkEndCommandBuffer", d.end_command_buffer(c))?;
        let sv = [vk::SemaphoreSubmitInfo::default()
            .semaphore(sig)
            .value(1)
            .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
        let cs = [vk::CommandBufferSubmitInfo::default().command_buffer(c)];
        vkr(
            "vkQueueSubmit2 (fault)",
            dev.api.queue_submit2(
                dev.compute[0],
                &[vk::SubmitInfo2::default().command_buffer_infos(&cs).signal_semaphore_infos(&sv)],
                fa,
            ),
        )?;
        let t0 = Instant::now();
        let r = d.wait_for_fences(&[fa], true, 20_000_000_000);
        // RADV returns what the kernel says of the fence, which a reset signals (with an
        // error RADV does not read); it reports the loss at its next submission or idle wait.
        let signalled_ok = |r: vk::Result| inst.radv && r == vk::Result::SUCCESS;
        let lost = r == Err(vk::Result::ERROR_DEVICE_LOST) || signalled_ok(r.err().unwrap_or(vk::Result::SUCCESS));
        check(lost, || format!("fence of the faulting batch: {r:?}"))?;
        if hold {
            let r = d.wait_for_fences(&[fb], true, 20_000_000_000);
            check(r == Err(vk::Result::ERROR_DEVICE_LOST), || format!("fence of the held batch: {r:?}"))?;
        }
        let r = wait_value(&dev.api, &[sig], &[1], false, Duration::from_secs(20));
        check(r == vk::Result::ERROR_DEVICE_LOST || signalled_ok(r), || format!("semaphore wait: {r:?}"))?;
        // An empty batch never reaches RADV's kernel interface: it answers it without looking.
        for (i, &q) in dev.compute.iter().enumerate().filter(|_| !inst.radv) {
            let r = d.queue_submit(q, &[vk::SubmitInfo::default()], vk::Fence::null());
            check(r == Err(vk::Result::ERROR_DEVICE_LOST), || format!("submit on queue {i} after the loss: {r:?}"))?;
        }
        if inst.radv {
            // The next batch with work reaches the kernel interface, which refuses it.
            let c = dev.cmd(dev.pool)?;
            dev.begin(c, vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT)?;
            d.cmd_bind_pipeline(c, vk::PipelineBindPoint::COMPUTE, pipeline);
            d.cmd_dispatch(c, 1, 1, 1);
            vkr("vkEndCommandBuffer", d.end_command_buffer(c))?;
            let r =
                d.queue_submit(dev.compute[0], &[vk::SubmitInfo::default().command_buffers(&[c])], vk::Fence::null());
            check(r == Err(vk::Result::ERROR_DEVICE_LOST), || format!("a submission after the loss: {r:?}"))?;
            println!("lost: RADV refused the next submission with VK_ERROR_DEVICE_LOST in {:?}", t0.elapsed());
        } else {
            let r = d.device_wait_idle();
            check(r == Err(vk::Result::ERROR_DEVICE_LOST), || format!("vkDeviceWaitIdle: {r:?}"))?;
            println!("lost: every wait returned VK_ERROR_DEVICE_LOST in {:?}", t0.elapsed());
        }
        d.destroy_pipeline(pipeline, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_shader_module(module, None);
        d.destroy_fence(fa, None);
        d.destroy_fence(fb, None);
        d.destroy_semaphore(never, None);
        d.destroy_semaphore(sig, None);
    }
    drop(dev);
    // The process goes on: a new device runs work (through RADV, after the GPU reset the
    // shim does as the kernel would; its old contexts stay lost).
    chain(inst).map_err(|e| format!("a new device after the loss: {e}"))?;
    println!("lost: a new device made after the loss ran the chain scenario");
    Ok(())
}

/// vkQueueWaitIdle and vkDeviceWaitIdle cover held batches; a device destroyed with a batch
/// still held (waiting on a value nobody signals) neither hangs nor fails.
fn held(inst: &Instance, validate: bool) -> R<()> {
    let dev = Device::new(inst, 1)?;
    let d = &dev.d;
    let (a, never) = (dev.timeline(0)?, dev.timeline(0)?);
    let fence = dev.fence()?;
    let q = dev.compute[0];
    let wait =
        [vk::SemaphoreSubmitInfo::default().semaphore(a).value(1).stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
    // SAFETY: valid submissions and live objects throughout.
    unsafe {
        vkr(
            "vkQueueSubmit2",
            dev.api.queue_submit2(q, &[vk::SubmitInfo2::default().wait_semaphore_infos(&wait)], fence),
        )?;
        let api = dev.api.clone();
        let signaller = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(30));
            api.signal_semaphore(&vk::SemaphoreSignalInfo::default().semaphore(a).value(1))
        });
        let t0 = Instant::now();
        vkr("vkQueueWaitIdle", d.queue_wait_idle(q))?;
        let waited = t0.elapsed();
        vkr("vkSignalSemaphore", signaller.join().map_err(|_| "the signalling thread panicked")?)?;
        let st = d.get_fence_status(fence);
        check(st == Ok(true), || format!("fence after vkQueueWaitIdle: {st:?}"))?;
        check(waited >= Duration::from_millis(20), || {
            format!("vkQueueWaitIdle returned after {waited:?}, before the signal")
        })?;
        // Held forever: the device goes with it (softnavi only: lavapipe's vkDestroyDevice
        // waits for the batch).
        if !validate && inst.softnavi {
            let w = [vk::SemaphoreSubmitInfo::default()
                .semaphore(never)
                .value(1)
                .stage_mask(vk::PipelineStageFlags2::ALL_COMMANDS)];
            vkr("vkResetFences", d.reset_fences(&[fence]))?;
            vkr(
                "vkQueueSubmit2",
                dev.api.queue_submit2(q, &[vk::SubmitInfo2::default().wait_semaphore_infos(&w)], fence),
            )?;
            let r = d.wait_for_fences(&[fence], true, 10_000_000);
            check(r == Err(vk::Result::TIMEOUT), || format!("fence of a held batch: {r:?}"))?;
            let t0 = Instant::now();
            dev.held_forever.set(true);
            drop(dev);
            println!("held: device destroyed with a held batch in {:?}", t0.elapsed());
            return Ok(());
        }
        d.destroy_fence(fence, None);
        d.destroy_semaphore(a, None);
        d.destroy_semaphore(never, None);
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let validate = args.iter().any(|a| a == "--validate");
    let mut wanted: Vec<&str> = args.iter().filter(|a| !a.starts_with("--")).map(String::as_str).collect();
    if wanted.is_empty() {
        wanted = vec!["families", "chain", "wbs", "binary", "held", "rejects"];
    }
    let inst = match Instance::new(validate) {
        Ok(i) => i,
        Err(e) => {
            println!("FAIL setup: {e}");
            return ExitCode::FAILURE;
        }
    };
    let mut failed = 0;
    for name in wanted {
        let r = match name {
            "families" => families(&inst, validate),
            "chain" => chain(&inst),
            "wbs" => wbs(&inst),
            "binary" => binary(&inst),
            "held" => held(&inst, validate),
            "rejects" if inst.softnavi && !validate && inst.transfer_family().is_some() => rejects(&inst),
            // After a loss the layer still counts the lost batches' objects as in use.
            "lost" if (inst.softnavi || inst.radv) && !validate => lost(&inst, BDA_STORE),
            // The same with a shader that never ends (run it with a short
            // SOFTNAVI_HANG_TIMEOUT_MS: the default one is long).
            "hang" if (inst.radv || inst.softnavi) && !validate => lost(&inst, BDA_SPIN),
            "rejects" | "lost" | "hang" => {
                println!("SKIP {name}");
                continue;
            }
            other => Err(format!("unknown scenario {other}")),
        };
        match r {
            Ok(()) => println!("PASS {name}"),
            Err(e) => {
                println!("FAIL {name}: {e}");
                failed += 1;
            }
        }
    }
    let messages = inst.messages.load(Ordering::SeqCst);
    drop(inst);
    if messages > 0 {
        println!("FAIL validation: {messages} message(s)");
        failed += 1;
    }
    if failed == 0 {
        println!("ALL PASS");
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}
