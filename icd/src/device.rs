//! VkDevice: its hardware queues (queue.rs), the scheduler thread that advances held
//! submissions, and events. Fences and semaphores are in sync.rs. A device owns one
//! software GPU (`gpu::Device`); submissions go through the winsys as indirect buffers.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::thread::JoinHandle;

use ash::vk;
use parking_lot::Mutex;

use crate::features;
use crate::handle::{destroy, guard, object, slice, Object};
use crate::instance::PhysicalDevice;
use crate::queue::{self, Hw, Queue};
use crate::sync::Notify;

/// State shared by a device and the objects created from it.
pub struct DeviceShared {
    /// The hardware queues, one per requested VkQueue, in creation order.
    pub queues: Vec<Arc<Hw>>,
    /// Woken by GPU interrupts, host signals and new held batches.
    pub notify: Arc<Notify>,
    pub gpu: gpu::Device,
    pub info: gpu::ChipInfo,
    /// The scratch ring: one slot of `bytes_per_wave` for every wave that can be live.
    scratch: Mutex<Vec<(Arc<gpu::mem::Bo>, u64)>>,
    /// The driver's own pipelines (blit.rs), built on first use, by variant; destroyed
    /// with the device (each holds the device: vkDestroyDevice breaks the cycle).
    pub meta: Mutex<std::collections::HashMap<usize, vk::Pipeline>>,
}

impl DeviceShared {
    pub fn new(gpu: gpu::Device, queues: Vec<Arc<Hw>>, notify: Arc<Notify>) -> DeviceShared {
        DeviceShared {
            queues,
            notify,
            info: gpu.info().clone(),
            gpu,
            scratch: Mutex::new(Vec::new()),
            meta: Mutex::new(Default::default()),
        }
    }

    /// A scratch ring with at least `bytes_per_wave` per wave slot; returns its address
    /// and slot size. Older, smaller rings stay alive for command buffers recorded with them.
    pub fn scratch_ring(&self, bytes_per_wave: u64) -> Result<(u64, u64), vk::Result> {
        let mut s = self.scratch.lock();
        if let Some((bo, per)) = s.last() {
            if *per >= bytes_per_wave {
                return Ok((bo.va(), *per));
            }
        }
        let per = bytes_per_wave.div_ceil(256) * 256;
        let bo = self
            .gpu
            .alloc(per * self.info.scratch_wave_slots as u64, 256)
            .map_err(|_| vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)?;
        let va = bo.va();
        s.push((bo, per));
        Ok((va, per))
    }

    /// Whether the device is lost; the first time, the fault report is explained with the
    /// debug names of the objects involved (debug.rs).
    pub fn lost(&self) -> bool {
        match self.gpu.status() {
            gpu::Status::Lost(report) => {
                crate::debug::report_lost(&report);
                true
            }
            gpu::Status::Healthy => false,
        }
    }

    /// Every queue idle: nothing held, everything submitted done.
    pub fn idle(&self) -> bool {
        self.queues.iter().all(|q| q.idle())
    }
}

impl Drop for DeviceShared {
    fn drop(&mut self) {
        for (bo, _) in self.scratch.get_mut().drain(..) {
            self.gpu.free(&bo);
        }
    }
}

pub struct Device {
    pub shared: Arc<DeviceShared>,
    /// The VkQueue handles, parallel to `shared.queues`.
    queues: Vec<vk::Queue>,
    scheduler: Option<JoinHandle<()>>,
    /// The device extensions enabled at creation, then the instance's (for the device-level
    /// commands of instance extensions: VK_EXT_debug_utils).
    pub extensions: Vec<std::ffi::CString>,
}
object!(Device, vk::Device, dispatchable);

/// The device behind a handle.
pub fn dev<'a>(h: vk::Device) -> &'a Device {
    // SAFETY: entry points receive live device handles.
    let d = unsafe { Device::from_handle(h) };
    d.map(|d| &*d).unwrap_or_else(|| panic!("null VkDevice")) // ok: caught by guard()
}

/// Checks the queue create infos against the families: (family, count, flags) each.
fn requested_queues(info: &vk::DeviceCreateInfo<'_>) -> Result<Vec<(u32, u32, vk::DeviceQueueCreateFlags)>, String> {
    let families = queue::families();
    let mut out: Vec<(u32, u32, vk::DeviceQueueCreateFlags)> = Vec::new();
    // SAFETY: valid per the specification.
    for q in unsafe { slice(info.p_queue_create_infos, info.queue_create_info_count) } {
        let (f, n) = (q.queue_family_index, q.queue_count);
        let Some(props) = families.get(f as usize) else {
            return Err(format!("queue family {f} does not exist (softnavi has {})", families.len()));
        };
        if n == 0 || n > props.queue_count {
            return Err(format!("{n} queues of family {f} requested; it has {}", props.queue_count));
        }
        if !q.flags.is_empty() {
            return Err(format!("queue create flags {:?} are not supported (no protected memory)", q.flags));
        }
        // A family named twice is invalid usage (VUID-VkDeviceCreateInfo-queueFamilyIndex-02802)
        // that the CTS itself commits where its universal and compute families are one
        // (`robustness.*`); lavapipe and RADV go on, and so does softnavi, with the larger
        // count.
        if let Some(e) = out.iter_mut().find(|e| e.0 == f) {
            tracing::warn!(
                "vkCreateDevice: queue family {f} appears twice (invalid usage); making {} queues",
                e.1.max(n)
            );
            e.1 = e.1.max(n);
            continue;
        }
        out.push((f, n, q.flags));
    }
    Ok(out)
}

/// Sends the translation tier's compiles to the compile server when shaders go there, so
/// that an LLVM crash fails one translation, not the application (issue 22). Once per
/// process, before the device's first translation.
fn contain_translations() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        if compiler_bridge::llvm::default_backend().is_ok_and(|b| b == compiler_bridge::Backend::Server) {
            gpu::jit::set_host_compiler("by softnavi-llvmd", Box::new(compiler_bridge::llvm::compile_host));
        }
    });
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_device(
    physical: vk::PhysicalDevice,
    info: *const vk::DeviceCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Device,
) -> vk::Result {
    guard("vkCreateDevice", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: live handle and valid create info per the specification.
        let (Some(physical), info) = (unsafe { PhysicalDevice::from_handle(physical) }, unsafe { &*info }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        let requested = match requested_queues(info) {
            Ok(r) => r,
            Err(e) => {
                tracing::warn!("vkCreateDevice: {e}");
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            }
        };
        let supported = features::device_extensions(&features::SHADER);
        let mut extensions = Vec::new();
        // SAFETY: valid per the specification.
        for &e in unsafe { slice(info.pp_enabled_extension_names, info.enabled_extension_count) } {
            // SAFETY: NUL-terminated extension names.
            let name = unsafe { std::ffi::CStr::from_ptr(e) };
            if !supported.iter().any(|x| x.0 == name) {
                tracing::warn!("vkCreateDevice: device extension {name:?} is not supported");
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            }
            extensions.push(name.to_owned());
        }
        extensions.extend(physical.instance_extensions.iter().cloned());
        // SAFETY: valid per the specification.
        let missing = unsafe { features::unsupported_features(&features::SHADER, info) };
        if !missing.is_empty() {
            tracing::warn!("vkCreateDevice: unsupported features requested: {}", missing.join(", "));
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        if physical.config.jit != gpu::jit::JitMode::Off {
            contain_translations();
        }
        let gpu = match gpu::Device::new(physical.config.clone()) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!("vkCreateDevice: cannot start the GPU's worker threads: {e}");
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            }
        };
        let mut queues = Vec::new();
        for &(family, n, flags) in &requested {
            for index in 0..n {
                let Ok(q) = gpu.create_queue() else { return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY };
                queues.push(Arc::new(Hw::new(family, index, flags, q)));
            }
        }
        let notify = Arc::new(Notify::default());
        let hook = notify.clone();
        gpu.set_interrupt_hook(Some(Arc::new(move || hook.notify())));
        let shared = Arc::new(DeviceShared::new(gpu, queues, notify));
        let sched = shared.clone();
        let scheduler =
            match std::thread::Builder::new().name("softnavi-sched".into()).spawn(move || queue::scheduler(sched)) {
                Ok(t) => t,
                Err(e) => {
                    tracing::error!("vkCreateDevice: cannot start the submission scheduler thread: {e}");
                    shared.gpu.set_interrupt_hook(None);
                    return vk::Result::ERROR_INITIALIZATION_FAILED;
                }
            };
        let handles =
            shared.queues.iter().map(|hw| Queue { shared: shared.clone(), hw: hw.clone() }.into_handle()).collect();
        // SAFETY: out is valid per the specification.
        unsafe { *out = Device { shared, queues: handles, scheduler: Some(scheduler), extensions }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_device(device: vk::Device, _alloc: *const vk::AllocationCallbacks<'_>) {
    guard("vkDestroyDevice", (), || {
        // SAFETY: the application no longer uses the device or its queues.
        let Some(mut d) = (unsafe { Device::destroy(device) }) else { return };
        d.shared.notify.stop.store(true, Ordering::Release);
        d.shared.notify.notify();
        if let Some(t) = d.scheduler.take() {
            if t.join().is_err() {
                tracing::error!("vkDestroyDevice: the scheduler thread panicked");
            }
        }
        for hw in &d.shared.queues {
            let n = hw.drop_held(&d.shared);
            if n > 0 {
                tracing::warn!("vkDestroyDevice: queue {}.{}: {n} batch(es) still held, dropped", hw.family, hw.index);
            }
        }
        d.shared.gpu.set_interrupt_hook(None);
        for (_, p) in d.shared.meta.lock().drain() {
            // SAFETY: the device's own pipelines; no command buffer is pending any more.
            unsafe { destroy::<crate::pipeline::Pipeline>("vkDestroyDevice", p) };
        }
        for q in d.queues.drain(..) {
            // SAFETY: the queues die with their device.
            drop(unsafe { Queue::destroy(q) });
        }
    })
}

fn find_queue(d: &Device, family: u32, index: u32, flags: vk::DeviceQueueCreateFlags) -> vk::Queue {
    let found = d.shared.queues.iter().position(|hw| hw.family == family && hw.index == index && hw.flags == flags);
    match found {
        Some(i) => d.queues[i],
        None => {
            tracing::warn!("vkGetDeviceQueue: no queue {family}.{index} with flags {flags:?} was created");
            vk::Queue::null()
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_queue(device: vk::Device, family: u32, index: u32, out: *mut vk::Queue) {
    guard("vkGetDeviceQueue", (), || {
        let q = find_queue(dev(device), family, index, vk::DeviceQueueCreateFlags::empty());
        // SAFETY: out is valid per the specification.
        unsafe { *out = q };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_queue2(
    device: vk::Device,
    info: *const vk::DeviceQueueInfo2<'_>,
    out: *mut vk::Queue,
) {
    guard("vkGetDeviceQueue2", (), || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let q = find_queue(dev(device), info.queue_family_index, info.queue_index, info.flags);
        // SAFETY: out is valid per the specification.
        unsafe { *out = q };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn device_wait_idle(device: vk::Device) -> vk::Result {
    guard("vkDeviceWaitIdle", vk::Result::ERROR_DEVICE_LOST, || {
        let d = &dev(device).shared;
        queue::wait_idle(d, &d.queues)
    })
}

/// An event: a dword of GPU memory (1 = set), written by the host or by the CP.
pub struct Event {
    pub bo: Arc<gpu::mem::Bo>,
    dev: Arc<DeviceShared>,
}
object!(Event, vk::Event);

impl Drop for Event {
    fn drop(&mut self) {
        self.dev.gpu.free(&self.bo);
    }
}

impl Event {
    fn word(&self) -> *mut u32 {
        self.bo.host_ptr() as *mut u32
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_event(
    device: vk::Device,
    _info: *const vk::EventCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Event,
) -> vk::Result {
    guard("vkCreateEvent", vk::Result::ERROR_OUT_OF_DEVICE_MEMORY, || {
        let d = dev(device);
        let Ok(bo) = d.shared.gpu.alloc(8, 0) else { return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY };
        // SAFETY: out is valid per the specification.
        unsafe { *out = Event { bo, dev: d.shared.clone() }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_event(_d: vk::Device, e: vk::Event, _alloc: *const vk::AllocationCallbacks<'_>) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Event>("vkDestroyEvent", e) }
}

fn event_op(e: vk::Event, value: Option<u32>) -> vk::Result {
    // SAFETY: a live event handle.
    let Some(ev) = (unsafe { Event::from_handle(e) }) else { return vk::Result::ERROR_UNKNOWN };
    match value {
        // SAFETY: the event BO is at least 4 bytes and lives as long as the event.
        Some(v) => unsafe { ev.word().write_volatile(v) },
        None => {
            if ev.dev.lost() {
                return vk::Result::ERROR_DEVICE_LOST;
            }
            // SAFETY: as above.
            return if unsafe { ev.word().read_volatile() } == 1 {
                vk::Result::EVENT_SET
            } else {
                vk::Result::EVENT_RESET
            };
        }
    }
    vk::Result::SUCCESS
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_event_status(_d: vk::Device, e: vk::Event) -> vk::Result {
    guard("vkGetEventStatus", vk::Result::ERROR_DEVICE_LOST, || event_op(e, None))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn set_event(_d: vk::Device, e: vk::Event) -> vk::Result {
    guard("vkSetEvent", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || event_op(e, Some(1)))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn reset_event(_d: vk::Device, e: vk::Event) -> vk::Result {
    guard("vkResetEvent", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || event_op(e, Some(0)))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_group_peer_memory_features(
    _d: vk::Device,
    _heap: u32,
    _local: u32,
    _remote: u32,
    out: *mut vk::PeerMemoryFeatureFlags,
) {
    // One device in the group: a device's memory is all "peer" memory of itself.
    // SAFETY: out is valid per the specification.
    unsafe {
        *out = vk::PeerMemoryFeatureFlags::COPY_SRC
            | vk::PeerMemoryFeatureFlags::COPY_DST
            | vk::PeerMemoryFeatureFlags::GENERIC_SRC
            | vk::PeerMemoryFeatureFlags::GENERIC_DST
    };
}
