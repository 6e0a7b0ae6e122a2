//! Fences and semaphores (binary and timeline), and the device's wake-up signal that every
//! host wait and the submission scheduler sleep on.
//!
//! A semaphore is a 64-bit payload plus the signals that are on their way: (hardware queue,
//! fence value, payload). A signal becomes visible when its queue's fence reaches that value,
//! that is when the GPU work submitted before it has completed, never earlier. A binary
//! semaphore is the same thing counted: its n-th signal operation sets the payload to n and
//! its n-th wait waits for n (the specification requires the signal to be submitted first).

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Weak};
use std::time::{Duration, Instant};

use ash::vk;
use parking_lot::{Condvar, Mutex};

use crate::device::{dev, DeviceShared};
use crate::handle::{chain, destroy, guard, object, slice, Object};
use crate::queue::Hw;

/// maxTimelineSemaphoreValueDifference: payloads are plain u64s compared with `>=`, so any
/// difference works (RADV reports the same).
pub const MAX_TIMELINE_SEMAPHORE_VALUE_DIFFERENCE: u64 = u64::MAX;

/// The device's wake-up signal: a generation counter bumped on every GPU interrupt, host
/// signal, new held batch and device loss. Host waiters sleep on one condition variable;
/// the scheduler on another, poked only while batches are held, so that the GPU's
/// interrupts do not wake it for nothing.
#[derive(Default)]
pub struct Notify {
    gen: Mutex<u64>,
    cv: Condvar,
    sched: Condvar,
    /// Batches held by the device's queues.
    pub held: AtomicUsize,
    /// Set when the device is being destroyed: the scheduler ends.
    pub stop: AtomicBool,
}

impl Notify {
    pub fn notify(&self) {
        *self.gen.lock() += 1;
        self.cv.notify_all();
        if self.held.load(Ordering::Acquire) > 0 || self.stop.load(Ordering::Acquire) {
            self.sched.notify_one();
        }
    }

    pub fn generation(&self) -> u64 {
        *self.gen.lock()
    }

    /// Sleeps until the generation differs from `seen` or `timeout` passes.
    pub fn sleep(&self, seen: u64, timeout: Duration) {
        let mut g = self.gen.lock();
        if *g == seen {
            self.cv.wait_for(&mut g, timeout.min(Duration::from_millis(100)));
        }
    }

    /// The scheduler's sleep: until the generation differs from `seen` while batches are
    /// held, or `timeout` passes.
    pub fn sleep_scheduler(&self, seen: u64, timeout: Duration) {
        let mut g = self.gen.lock();
        if *g == seen {
            self.sched.wait_for(&mut g, timeout);
        }
    }
}

/// The deadline of a Vulkan timeout in nanoseconds (None: forever).
pub fn deadline(timeout_ns: u64) -> Option<Instant> {
    Instant::now().checked_add(Duration::from_nanos(timeout_ns))
}

/// Waits until `ready` says SUCCESS (or an error), the device is lost (DEVICE_LOST) or the
/// deadline passes (TIMEOUT). `ready` returns None while the condition does not hold.
pub fn wait_until(
    dev: &DeviceShared,
    deadline: Option<Instant>,
    mut ready: impl FnMut() -> Option<vk::Result>,
) -> vk::Result {
    loop {
        let seen = dev.notify.generation();
        if let Some(r) = ready() {
            return r;
        }
        if dev.lost() {
            return vk::Result::ERROR_DEVICE_LOST;
        }
        let left = match deadline {
            Some(d) => d.saturating_duration_since(Instant::now()),
            None => Duration::MAX,
        };
        if left.is_zero() {
            return vk::Result::TIMEOUT;
        }
        dev.notify.sleep(seen, left);
    }
}

// ---------------------------------------------------------------------------------------
// Fences

pub enum FenceState {
    Unsignaled,
    Signaled,
    /// Its batch is held by the scheduler (waiting on semaphores).
    Held,
    /// Its batch is in the ring of this queue, done when the queue's fence reaches the value.
    Submitted(Weak<Hw>, u64),
}

pub struct FenceInner {
    pub state: Mutex<FenceState>,
}

impl FenceInner {
    /// Whether the fence has signalled (None: not yet).
    fn signaled(&self) -> Option<vk::Result> {
        let mut s = self.state.lock();
        match &*s {
            FenceState::Signaled => Some(vk::Result::SUCCESS),
            FenceState::Unsignaled | FenceState::Held => None,
            FenceState::Submitted(hw, seq) => match hw.upgrade() {
                Some(hw) if hw.gpu.completed() < *seq => None,
                _ => {
                    *s = FenceState::Signaled;
                    Some(vk::Result::SUCCESS)
                }
            },
        }
    }
}

pub struct Fence {
    pub inner: Arc<FenceInner>,
    dev: Arc<DeviceShared>,
}
object!(Fence, vk::Fence);

/// # Safety
/// `f` is a live fence handle or null.
pub unsafe fn fence<'a>(f: vk::Fence) -> Option<&'a Fence> {
    // SAFETY: by the caller's contract.
    unsafe { Fence::from_handle(f) }.map(|f| &*f)
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
        let f = Fence { inner: Arc::new(FenceInner { state: Mutex::new(state) }), dev: dev(device).shared.clone() };
        // SAFETY: out is valid per the specification.
        unsafe { *out = f.into_handle() };
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
        // SAFETY: valid per the specification; live fence handles.
        for f in unsafe { slice(fences, n) }.iter().filter_map(|&f| unsafe { fence(f) }) {
            *f.inner.state.lock() = FenceState::Unsignaled;
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_fence_status(_d: vk::Device, f: vk::Fence) -> vk::Result {
    guard("vkGetFenceStatus", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: a live fence handle.
        let Some(f) = (unsafe { fence(f) }) else { return vk::Result::ERROR_UNKNOWN };
        if f.dev.lost() {
            return vk::Result::ERROR_DEVICE_LOST;
        }
        f.inner.signaled().unwrap_or(vk::Result::NOT_READY)
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn wait_for_fences(
    device: vk::Device,
    n: u32,
    fences: *const vk::Fence,
    wait_all: vk::Bool32,
    timeout_ns: u64,
) -> vk::Result {
    guard("vkWaitForFences", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: valid per the specification; live fence handles.
        let fences: Vec<&Fence> = unsafe { slice(fences, n) }.iter().filter_map(|&f| unsafe { fence(f) }).collect();
        let d = &dev(device).shared;
        wait_until(d, deadline(timeout_ns), || {
            let mut done = fences.iter().map(|f| f.inner.signaled().is_some());
            let ok = if wait_all != 0 { done.all(|x| x) } else { done.any(|x| x) };
            ok.then_some(vk::Result::SUCCESS)
        })
    })
}

// ---------------------------------------------------------------------------------------
// Semaphores

pub struct SemState {
    /// The payload: the highest signal whose work has completed (or host-signalled value).
    value: u64,
    /// Signals in rings, not yet completed: (queue, fence value, payload).
    pending: Vec<(Weak<Hw>, u64, u64)>,
    /// Binary semaphores: signal and wait operations submitted so far.
    signals: u64,
    waits: u64,
}

pub struct SemInner {
    pub timeline: bool,
    state: Mutex<SemState>,
}

impl SemInner {
    pub fn new(timeline: bool, initial: u64) -> SemInner {
        let state = SemState { value: if timeline { initial } else { 0 }, pending: Vec::new(), signals: 0, waits: 0 };
        SemInner { timeline, state: Mutex::new(state) }
    }

    /// The current payload, after folding in the signals whose work has completed.
    pub fn value(&self) -> u64 {
        let mut s = self.state.lock();
        let mut value = s.value;
        s.pending.retain(|(hw, seq, v)| match hw.upgrade() {
            Some(hw) if hw.gpu.completed() < *seq => true,
            _ => {
                value = value.max(*v);
                false
            }
        });
        s.value = value;
        value
    }

    /// The payload a signal operation submitted now sets (`value` for timelines).
    pub fn signal_target(&self, value: u64) -> u64 {
        if self.timeline {
            return value;
        }
        let mut s = self.state.lock();
        s.signals += 1;
        s.signals
    }

    /// The payload a wait operation submitted now waits for (`value` for timelines).
    pub fn wait_target(&self, value: u64) -> u64 {
        if self.timeline {
            return value;
        }
        let mut s = self.state.lock();
        s.waits += 1;
        s.waits
    }

    /// A signal on its way: visible once `hw`'s fence reaches `seq`.
    pub fn pending(&self, hw: &Arc<Hw>, seq: u64, value: u64) {
        self.state.lock().pending.push((Arc::downgrade(hw), seq, value));
    }

    pub fn host_signal(&self, value: u64) {
        let mut s = self.state.lock();
        s.value = s.value.max(value);
    }
}

pub struct Semaphore {
    pub inner: Arc<SemInner>,
}
object!(Semaphore, vk::Semaphore);

/// # Safety
/// `s` is a live semaphore handle or null.
pub unsafe fn semaphore<'a>(s: vk::Semaphore) -> Option<&'a Semaphore> {
    // SAFETY: by the caller's contract.
    unsafe { Semaphore::from_handle(s) }.map(|s| &*s)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_semaphore(
    _d: vk::Device,
    info: *const vk::SemaphoreCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Semaphore,
) -> vk::Result {
    guard("vkCreateSemaphore", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let (mut timeline, mut initial) = (false, 0);
        // SAFETY: the chain is valid per the specification.
        for s in unsafe { chain((*info).p_next) } {
            // SAFETY: reading the header, then the structure its type names.
            unsafe {
                if (*s).s_type == vk::StructureType::SEMAPHORE_TYPE_CREATE_INFO {
                    let t = &*(s as *const vk::SemaphoreTypeCreateInfo<'_>);
                    timeline = t.semaphore_type == vk::SemaphoreType::TIMELINE;
                    initial = t.initial_value;
                } else if (*s).s_type == vk::StructureType::EXPORT_SEMAPHORE_CREATE_INFO {
                    tracing::warn!("vkCreateSemaphore: exportable semaphores are not supported");
                    return vk::Result::ERROR_FEATURE_NOT_PRESENT;
                }
            }
        }
        if timeline && !crate::features::api::TIMELINE_SEMAPHORE {
            tracing::warn!("vkCreateSemaphore: timeline semaphores are not supported");
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        let s = Semaphore { inner: Arc::new(SemInner::new(timeline, initial)) };
        // SAFETY: out is valid per the specification.
        unsafe { *out = s.into_handle() };
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

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_semaphore_counter_value(
    device: vk::Device,
    s: vk::Semaphore,
    out: *mut u64,
) -> vk::Result {
    guard("vkGetSemaphoreCounterValue", vk::Result::ERROR_DEVICE_LOST, || {
        if dev(device).shared.lost() {
            return vk::Result::ERROR_DEVICE_LOST;
        }
        // SAFETY: a live semaphore handle.
        let Some(s) = (unsafe { semaphore(s) }) else { return vk::Result::ERROR_UNKNOWN };
        // SAFETY: out is valid per the specification.
        unsafe { *out = s.inner.value() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn wait_semaphores(
    device: vk::Device,
    info: *const vk::SemaphoreWaitInfo<'_>,
    timeout_ns: u64,
) -> vk::Result {
    guard("vkWaitSemaphores", vk::Result::ERROR_DEVICE_LOST, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        // SAFETY: as above; the two arrays have semaphore_count entries.
        let (sems, values) =
            unsafe { (slice(info.p_semaphores, info.semaphore_count), slice(info.p_values, info.semaphore_count)) };
        // SAFETY: live semaphore handles.
        let waits: Vec<(&Semaphore, u64)> =
            sems.iter().zip(values).filter_map(|(&s, &v)| unsafe { semaphore(s) }.map(|s| (s, v))).collect();
        let any = info.flags.contains(vk::SemaphoreWaitFlags::ANY);
        wait_until(&dev(device).shared, deadline(timeout_ns), || {
            let mut done = waits.iter().map(|(s, v)| s.inner.value() >= *v);
            let ok = if any { done.any(|x| x) } else { done.all(|x| x) };
            ok.then_some(vk::Result::SUCCESS)
        })
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn signal_semaphore(
    device: vk::Device,
    info: *const vk::SemaphoreSignalInfo<'_>,
) -> vk::Result {
    guard("vkSignalSemaphore", vk::Result::ERROR_DEVICE_LOST, || {
        let d = &dev(device).shared;
        if d.lost() {
            return vk::Result::ERROR_DEVICE_LOST;
        }
        // SAFETY: valid per the specification; a live semaphore handle.
        let (s, value) = unsafe { ((*info).semaphore, (*info).value) };
        // SAFETY: as above.
        let Some(s) = (unsafe { semaphore(s) }) else { return vk::Result::ERROR_UNKNOWN };
        s.inner.host_signal(value);
        // Held batches may now be ready, host waiters may be done.
        d.notify.notify();
        vk::Result::SUCCESS
    })
}
