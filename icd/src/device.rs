//! VkDevice and VkQueue, and the synchronisation objects that live on them: fences,
//! semaphores and events. A device owns one software GPU (`gpu::Device`) and its one
//! hardware compute queue; submissions go through the winsys as indirect buffers.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use parking_lot::Mutex;

use crate::cmd::CommandBuffer;
use crate::features;
use crate::handle::{destroy, guard, object, slice, Object};
use crate::instance::PhysicalDevice;

/// State shared by a device and the objects created from it.
pub struct DeviceShared {
    pub queue: gpu::Queue,
    pub gpu: gpu::Device,
    pub info: gpu::ChipInfo,
    /// Fence value of the newest submission.
    pub last_seq: AtomicU64,
    /// The scratch ring: one slot of `bytes_per_wave` for every wave that can be live.
    scratch: Mutex<Vec<(Arc<gpu::mem::Bo>, u64)>>,
}

impl DeviceShared {
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

    /// Waits for fence value `seq` of the queue.
    pub fn wait(&self, seq: u64, timeout: Duration) -> vk::Result {
        match self.queue.wait(seq, timeout) {
            Ok(true) => vk::Result::SUCCESS,
            Ok(false) => vk::Result::TIMEOUT,
            Err(report) => {
                crate::debug::report_lost(&report);
                vk::Result::ERROR_DEVICE_LOST
            }
        }
    }

    pub fn lost(&self) -> bool {
        matches!(self.gpu.status(), gpu::Status::Lost(_))
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
    queue: vk::Queue,
    /// The device extensions enabled at creation.
    pub extensions: Vec<std::ffi::CString>,
}
object!(Device, vk::Device, dispatchable);

pub struct Queue {
    pub shared: Arc<DeviceShared>,
}
object!(Queue, vk::Queue, dispatchable);

/// The device behind a handle.
pub fn dev<'a>(h: vk::Device) -> &'a Device {
    // SAFETY: entry points receive live device handles.
    let d = unsafe { Device::from_handle(h) };
    d.map(|d| &*d).unwrap_or_else(|| panic!("null VkDevice")) // ok: caught by guard()
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
        // SAFETY: valid per the specification.
        for q in unsafe { slice(info.p_queue_create_infos, info.queue_create_info_count) } {
            if q.queue_family_index != 0 || q.queue_count != 1 {
                tracing::warn!(
                    "vkCreateDevice: queue family {} × {} requested; softnavi has one family with one queue",
                    q.queue_family_index,
                    q.queue_count
                );
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            }
        }
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
        // SAFETY: valid per the specification.
        let missing = unsafe { features::unsupported_features(&features::SHADER, info) };
        if !missing.is_empty() {
            tracing::warn!("vkCreateDevice: unsupported features requested: {}", missing.join(", "));
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        let gpu = match gpu::Device::new(physical.config.clone()) {
            Ok(g) => g,
            Err(e) => {
                tracing::error!("vkCreateDevice: cannot start the GPU's worker threads: {e}");
                return vk::Result::ERROR_INITIALIZATION_FAILED;
            }
        };
        let Ok(queue) = gpu.create_queue() else { return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY };
        let shared = Arc::new(DeviceShared {
            queue,
            info: gpu.info().clone(),
            gpu,
            last_seq: AtomicU64::new(0),
            scratch: Mutex::new(Vec::new()),
        });
        let queue = Queue { shared: shared.clone() }.into_handle();
        // SAFETY: out is valid per the specification.
        unsafe { *out = Device { shared, queue, extensions }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_device(device: vk::Device, _alloc: *const vk::AllocationCallbacks<'_>) {
    guard("vkDestroyDevice", (), || {
        // SAFETY: the application no longer uses the device or its queue.
        unsafe {
            if let Some(d) = Device::destroy(device) {
                drop(Queue::destroy(d.queue));
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_queue(device: vk::Device, family: u32, index: u32, out: *mut vk::Queue) {
    guard("vkGetDeviceQueue", (), || {
        if family == 0 && index == 0 {
            // SAFETY: out is valid per the specification.
            unsafe { *out = dev(device).queue };
        }
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
        // SAFETY: out is valid per the specification.
        unsafe {
            *out = if info.queue_family_index == 0 && info.queue_index == 0 && info.flags.is_empty() {
                dev(device).queue
            } else {
                vk::Queue::null()
            };
        }
    })
}

fn wait_idle(shared: &DeviceShared) -> vk::Result {
    let seq = shared.last_seq.load(Ordering::Acquire);
    if shared.lost() {
        return vk::Result::ERROR_DEVICE_LOST;
    }
    shared.wait(seq, Duration::MAX)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn device_wait_idle(device: vk::Device) -> vk::Result {
    guard("vkDeviceWaitIdle", vk::Result::ERROR_DEVICE_LOST, || wait_idle(&dev(device).shared))
}

fn queue_of<'a>(h: vk::Queue) -> &'a Queue {
    // SAFETY: entry points receive live queue handles.
    let q = unsafe { Queue::from_handle(h) };
    q.map(|q| &*q).unwrap_or_else(|| panic!("null VkQueue")) // ok: caught by guard()
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn queue_wait_idle(queue: vk::Queue) -> vk::Result {
    guard("vkQueueWaitIdle", vk::Result::ERROR_DEVICE_LOST, || wait_idle(&queue_of(queue).shared))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn queue_submit(
    queue: vk::Queue,
    n: u32,
    submits: *const vk::SubmitInfo<'_>,
    fence: vk::Fence,
) -> vk::Result {
    guard("vkQueueSubmit", vk::Result::ERROR_DEVICE_LOST, || {
        let q = queue_of(queue);
        let mut ibs = Vec::new();
        // SAFETY: valid per the specification.
        for s in unsafe { slice(submits, n) } {
            // Semaphores need no work: the one queue runs submissions in order, so a wait
            // on a semaphore signalled by an earlier submission is already satisfied.
            // SAFETY: valid per the specification.
            for &cb in unsafe { slice(s.p_command_buffers, s.command_buffer_count) } {
                // SAFETY: live command buffer handles.
                if let Some(cb) = unsafe { CommandBuffer::from_handle(cb) } {
                    ibs.extend(cb.ib());
                }
            }
        }
        let seq = match q.shared.queue.submit(&ibs) {
            Ok(seq) => seq,
            Err(e) => {
                tracing::error!("vkQueueSubmit: {e}");
                return vk::Result::ERROR_DEVICE_LOST;
            }
        };
        q.shared.last_seq.fetch_max(seq, Ordering::AcqRel);
        // SAFETY: a live fence handle (or null).
        if let Some(f) = unsafe { Fence::from_handle(fence) } {
            *f.state.lock() = FenceState::Pending(seq);
        }
        vk::Result::SUCCESS
    })
}

enum FenceState {
    Unsignaled,
    Signaled,
    Pending(u64),
}

pub struct Fence {
    state: Mutex<FenceState>,
    dev: Arc<DeviceShared>,
}
object!(Fence, vk::Fence);

impl Fence {
    /// SUCCESS if signalled, NOT_READY if not (yet), DEVICE_LOST.
    fn poll(&self, timeout: Duration) -> vk::Result {
        let mut s = self.state.lock();
        match *s {
            FenceState::Signaled => vk::Result::SUCCESS,
            FenceState::Unsignaled => {
                if self.dev.lost() {
                    return vk::Result::ERROR_DEVICE_LOST;
                }
                vk::Result::NOT_READY
            }
            FenceState::Pending(seq) => match self.dev.wait(seq, timeout) {
                vk::Result::SUCCESS => {
                    *s = FenceState::Signaled;
                    vk::Result::SUCCESS
                }
                vk::Result::TIMEOUT => vk::Result::NOT_READY,
                e => e,
            },
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_fence(
    device: vk::Device,
    info: *const vk::FenceCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Fence,
) -> vk::Result {
    guard("vkCreateFence", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let signaled = unsafe { (*info).flags }.contains(vk::FenceCreateFlags::SIGNALED);
        let state = if signaled { FenceState::Signaled } else { FenceState::Unsignaled };
        // SAFETY: out is valid per the specification.
        unsafe { *out = Fence { state: Mutex::new(state), dev: dev(device).shared.clone() }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_fence(_d: vk::Device, f: vk::Fence, _alloc: *const vk::AllocationCallbacks<'_>) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Fence>("vkDestroyFence", f) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn reset_fences(_d: vk::Device, n: u32, fences: *const vk::Fence) -> vk::Result {
    guard("vkResetFences", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        for &f in unsafe { slice(fences, n) } {
            // SAFETY: live fence handles.
            if let Some(f) = unsafe { Fence::from_handle(f) } {
                *f.state.lock() = FenceState::Unsignaled;
            }
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_fence_status(_d: vk::Device, f: vk::Fence) -> vk::Result {
    guard("vkGetFenceStatus", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a live fence handle.
        match unsafe { Fence::from_handle(f) } {
            Some(f) => f.poll(Duration::ZERO),
            None => vk::Result::ERROR_UNKNOWN,
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn wait_for_fences(
    _d: vk::Device,
    n: u32,
    fences: *const vk::Fence,
    wait_all: vk::Bool32,
    timeout_ns: u64,
) -> vk::Result {
    guard("vkWaitForFences", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: valid per the specification; live fence handles.
        let fences: Vec<&Fence> =
            unsafe { slice(fences, n) }.iter().filter_map(|&f| unsafe { Fence::from_handle(f) }.map(|f| &*f)).collect();
        let deadline = Instant::now().checked_add(Duration::from_nanos(timeout_ns));
        let left = || deadline.map_or(Duration::MAX, |d| d.saturating_duration_since(Instant::now()));
        if wait_all != 0 {
            for f in &fences {
                match f.poll(left()) {
                    vk::Result::SUCCESS => {}
                    vk::Result::NOT_READY => return vk::Result::TIMEOUT,
                    e => return e,
                }
            }
            return vk::Result::SUCCESS;
        }
        loop {
            for f in &fences {
                match f.poll(Duration::ZERO) {
                    vk::Result::SUCCESS => return vk::Result::SUCCESS,
                    vk::Result::NOT_READY => {}
                    e => return e,
                }
            }
            if left().is_zero() {
                return vk::Result::TIMEOUT;
            }
            // Any-of: wait a little on the first pending fence, then look again.
            if let Some(f) = fences.first() {
                if let vk::Result::ERROR_DEVICE_LOST = f.poll(left().min(Duration::from_millis(1))) {
                    return vk::Result::ERROR_DEVICE_LOST;
                }
            }
        }
    })
}

/// Binary semaphores: with one queue executing submissions in order, there is nothing to
/// track (see `queue_submit`).
pub struct Semaphore;
object!(Semaphore, vk::Semaphore);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_semaphore(
    _d: vk::Device,
    info: *const vk::SemaphoreCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Semaphore,
) -> vk::Result {
    guard("vkCreateSemaphore", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: the chain is valid per the specification.
        for s in unsafe { crate::handle::chain((*info).p_next) } {
            // SAFETY: reading the header only.
            if unsafe { (*s).s_type } == vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO {
                tracing::warn!("vkCreateSemaphore: timeline semaphores are not supported yet");
                return vk::Result::ERROR_FEATURE_NOT_PRESENT;
            }
        }
        // SAFETY: out is valid per the specification.
        unsafe { *out = Semaphore.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_semaphore(
    _d: vk::Device,
    s: vk::Semaphore,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Semaphore>("vkDestroySemaphore", s) }
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
