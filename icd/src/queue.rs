//! Queue families, VkQueue and submission.
//!
//! Families, like an RDNA3 under amdgpu as RADV exposes it, minus graphics: family 0 is the
//! compute rings (COMPUTE | TRANSFER, [`COMPUTE_QUEUES`] queues), family 1 a transfer-only
//! family ([`TRANSFER_QUEUES`] queues) whose command buffers hold only CP DMA work: copy,
//! fill, update, barriers, events and timestamps (cmd.rs refuses dispatches and binds in
//! its pools). Every VkQueue is its own hardware queue (`gpu::Queue`: a ring and a CP
//! thread), so two queues run concurrently.
//!
//! Each queue has a scheduler like amdgpu's drm scheduler: a batch whose semaphore waits
//! are not satisfied yet is held (not written into the ring) until they are; the
//! application's thread never blocks. Batches of one queue enter the ring in submission
//! order. Fast path: a queue with nothing held and a batch whose waits are satisfied is
//! written into the ring inline. The device's scheduler thread advances held batches when
//! something happens (a GPU interrupt, a host signal, a new held batch), and drops them
//! when the device is lost.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use ash::vk;
use parking_lot::Mutex;

use crate::cmd::CommandBuffer;
use crate::device::DeviceShared;
use crate::handle::{chain, guard, object, slice, Object};
use crate::sync::{deadline, fence, semaphore, wait_until, FenceInner, FenceState, SemInner};

/// Queues of family 0 (compute + transfer). amdgpu gives user mode up to 8 compute rings
/// (its kernel compute queues) and RADV exposes what the kernel reports; 4 keeps the CP
/// threads of a device few.
pub const COMPUTE_QUEUES: u32 = 4;
/// Queues of family 1 (transfer only): a Navi 31 has two SDMA engines.
pub const TRANSFER_QUEUES: u32 = 2;
/// The transfer-only family.
pub const TRANSFER_FAMILY: u32 = 1;

/// `SOFTNAVI_GRAPHICS_QUEUE_FLAG=1`: family 0 also claims `VK_QUEUE_GRAPHICS_BIT`. A
/// compatibility switch, off by default, for compute-only applications that refuse any
/// device without a graphics queue although they never draw (wgpu: wgpu-hal's
/// `expose_adapter` hides such devices). softnavi still has no graphics: its graphics
/// commands fail their command buffer (graphics.rs), and an application that draws cannot
/// work.
pub fn claims_graphics() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| {
        let on = std::env::var("SOFTNAVI_GRAPHICS_QUEUE_FLAG").is_ok_and(|v| v == "1");
        if on {
            tracing::warn!(
                "SOFTNAVI_GRAPHICS_QUEUE_FLAG=1: queue family 0 claims GRAPHICS for compatibility; \
                 softnavi has no graphics pipelines"
            );
        }
        on
    })
}

/// The queue families, in index order.
pub fn families() -> [vk::QueueFamilyProperties; 2] {
    let family = |flags, n| vk::QueueFamilyProperties {
        queue_flags: flags,
        queue_count: n,
        timestamp_valid_bits: 64,
        min_image_transfer_granularity: vk::Extent3D { width: 1, height: 1, depth: 1 },
    };
    [
        family(
            if claims_graphics() {
                vk::QueueFlags::GRAPHICS | vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER
            } else {
                vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER
            },
            COMPUTE_QUEUES,
        ),
        family(vk::QueueFlags::TRANSFER, TRANSFER_QUEUES),
    ]
}

/// One submission batch: its command buffers' IBs and its semaphore and fence operations.
#[derive(Default)]
pub struct Batch {
    ibs: Vec<gpu::Ib>,
    /// (semaphore, payload to reach).
    waits: Vec<(Arc<SemInner>, u64)>,
    /// (semaphore, payload to set).
    signals: Vec<(Arc<SemInner>, u64)>,
    fence: Option<Arc<FenceInner>>,
}

impl Batch {
    fn ready(&self) -> bool {
        self.waits.iter().all(|(s, v)| s.value() >= *v)
    }
}

/// A hardware queue behind a VkQueue, with its scheduler state.
pub struct Hw {
    pub family: u32,
    pub index: u32,
    pub flags: vk::DeviceQueueCreateFlags,
    pub gpu: gpu::Queue,
    /// Fence value of the newest submission in the ring.
    last_seq: AtomicU64,
    /// Batches held until their waits are satisfied, in submission order.
    held: Mutex<VecDeque<Batch>>,
}

impl Hw {
    pub fn new(family: u32, index: u32, flags: vk::DeviceQueueCreateFlags, gpu: gpu::Queue) -> Hw {
        Hw { family, index, flags, gpu, last_seq: AtomicU64::new(0), held: Mutex::new(VecDeque::new()) }
    }

    /// Nothing held and everything in the ring done.
    pub fn idle(&self) -> bool {
        self.held.lock().is_empty() && self.gpu.completed() >= self.last_seq.load(Ordering::Acquire)
    }

    /// Writes a batch into the ring. Its signals become visible, and its fence signals,
    /// when the queue's fence reaches the submission's value.
    fn push(self: &Arc<Self>, b: Batch, dev: &DeviceShared) -> Result<(), vk::Result> {
        let seq = self.gpu.submit(&b.ibs).map_err(|e| {
            tracing::error!("queue {}.{}: submission refused: {e}", self.family, self.index);
            vk::Result::ERROR_DEVICE_LOST
        })?;
        self.last_seq.fetch_max(seq, Ordering::AcqRel);
        for (s, v) in &b.signals {
            s.pending(self, seq, *v);
        }
        if let Some(f) = &b.fence {
            *f.state.lock() = FenceState::Submitted(Arc::downgrade(self), seq);
        }
        if !b.signals.is_empty() || b.fence.is_some() {
            // The GPU may have finished before the signals were registered: look again.
            dev.notify.notify();
        }
        Ok(())
    }

    /// Writes the held batches whose waits are satisfied, from the front, into the ring.
    fn advance(self: &Arc<Self>, held: &mut VecDeque<Batch>, dev: &DeviceShared) -> Result<(), vk::Result> {
        while held.front().is_some_and(Batch::ready) {
            if let Some(b) = held.pop_front() {
                dev.notify.held.fetch_sub(1, Ordering::AcqRel);
                self.push(b, dev)?;
            }
        }
        Ok(())
    }

    /// Submits batches in order: inline when nothing is held and the waits are satisfied,
    /// held for the scheduler otherwise.
    fn submit(self: &Arc<Self>, batches: Vec<Batch>, dev: &DeviceShared) -> vk::Result {
        let mut held = self.held.lock();
        let mut wake = false;
        for b in batches {
            if held.is_empty() && b.ready() {
                if let Err(e) = self.push(b, dev) {
                    return e;
                }
            } else {
                if let Some(f) = &b.fence {
                    *f.state.lock() = FenceState::Held;
                }
                held.push_back(b);
                dev.notify.held.fetch_add(1, Ordering::AcqRel);
                wake = true;
            }
        }
        drop(held);
        if wake {
            dev.notify.notify();
        }
        vk::Result::SUCCESS
    }

    /// Drops the held batches (device lost or destroyed); returns how many there were.
    pub fn drop_held(&self, dev: &DeviceShared) -> usize {
        let mut held = self.held.lock();
        let n = held.len();
        held.clear();
        dev.notify.held.fetch_sub(n, Ordering::AcqRel);
        n
    }
}

/// The device's scheduler thread: advances held batches whenever something happened.
pub fn scheduler(dev: Arc<DeviceShared>) {
    loop {
        let seen = dev.notify.generation();
        if dev.notify.stop.load(Ordering::Acquire) {
            return;
        }
        let lost = dev.lost();
        for hw in &dev.queues {
            let mut held = hw.held.lock();
            if held.is_empty() {
                continue;
            }
            if lost || hw.advance(&mut held, &dev).is_err() {
                drop(held);
                let n = hw.drop_held(&dev);
                tracing::warn!("queue {}.{}: the device is lost; {n} held batch(es) dropped", hw.family, hw.index);
            }
        }
        // Woken by interrupts only while something is held; the timeout is a safety net.
        dev.notify.sleep_scheduler(seen, Duration::from_millis(100));
    }
}

pub struct Queue {
    pub shared: Arc<DeviceShared>,
    pub hw: Arc<Hw>,
}
object!(Queue, vk::Queue, dispatchable);

fn queue_of<'a>(h: vk::Queue) -> &'a Queue {
    // SAFETY: entry points receive live queue handles.
    let q = unsafe { Queue::from_handle(h) };
    q.map(|q| &*q).unwrap_or_else(|| panic!("null VkQueue")) // ok: caught by guard()
}

/// Waits until every queue of `queues` is idle (held batches included).
pub fn wait_idle(dev: &DeviceShared, queues: &[Arc<Hw>]) -> vk::Result {
    wait_until(dev, deadline(u64::MAX), || queues.iter().all(|q| q.idle()).then_some(vk::Result::SUCCESS))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn queue_wait_idle(queue: vk::Queue) -> vk::Result {
    guard("vkQueueWaitIdle", vk::Result::ERROR_DEVICE_LOST, || {
        let q = queue_of(queue);
        wait_idle(&q.shared, std::slice::from_ref(&q.hw))
    })
}

fn ibs_of(cbs: impl Iterator<Item = vk::CommandBuffer>) -> Vec<gpu::Ib> {
    // SAFETY: live command buffer handles, per the specification.
    cbs.filter_map(|cb| unsafe { CommandBuffer::from_handle(cb) }.and_then(|c| c.ib())).collect()
}

/// The semaphore operations of a list, with their payloads (binary ones counted).
fn sem_ops(sems: &[vk::Semaphore], values: &[u64], wait: bool) -> Vec<(Arc<SemInner>, u64)> {
    let mut ops = Vec::new();
    for (i, &s) in sems.iter().enumerate() {
        // SAFETY: live semaphore handles, per the specification.
        let Some(s) = (unsafe { semaphore(s) }) else { continue };
        let v = values.get(i).copied().unwrap_or(0);
        let target = if wait { s.inner.wait_target(v) } else { s.inner.signal_target(v) };
        ops.push((s.inner.clone(), target));
    }
    ops
}

fn finish_submit(q: &Queue, what: &str, mut batches: Vec<Batch>, f: vk::Fence) -> vk::Result {
    // SAFETY: a live fence handle (or null).
    if let Some(f) = unsafe { fence(f) } {
        if batches.is_empty() {
            batches.push(Batch::default());
        }
        if let Some(last) = batches.last_mut() {
            last.fence = Some(f.inner.clone());
        }
    }
    if q.shared.lost() {
        tracing::warn!("{what}: the device is lost");
        return vk::Result::ERROR_DEVICE_LOST;
    }
    q.hw.submit(batches, &q.shared)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn queue_submit(
    queue: vk::Queue,
    n: u32,
    submits: *const vk::SubmitInfo<'_>,
    f: vk::Fence,
) -> vk::Result {
    guard("vkQueueSubmit", vk::Result::ERROR_DEVICE_LOST, || {
        let q = queue_of(queue);
        let mut batches = Vec::new();
        // SAFETY: valid per the specification.
        for s in unsafe { slice(submits, n) } {
            let (mut wait_values, mut signal_values): (&[u64], &[u64]) = (&[], &[]);
            // SAFETY: the chain is valid per the specification.
            for e in unsafe { chain(s.p_next) } {
                // SAFETY: reading the header, then the structure its type names.
                unsafe {
                    if (*e).s_type == vk::StructureType::TIMELINE_SEMAPHORE_SUBMIT_INFO {
                        let t = &*(e as *const vk::TimelineSemaphoreSubmitInfo<'_>);
                        wait_values = slice(t.p_wait_semaphore_values, t.wait_semaphore_value_count);
                        signal_values = slice(t.p_signal_semaphore_values, t.signal_semaphore_value_count);
                    } else if (*e).s_type == vk::StructureType::PROTECTED_SUBMIT_INFO
                        && (*(e as *const vk::ProtectedSubmitInfo<'_>)).protected_submit != 0
                    {
                        tracing::warn!("vkQueueSubmit: protected submissions are not supported");
                        return vk::Result::ERROR_FEATURE_NOT_PRESENT;
                    }
                }
            }
            // SAFETY: valid per the specification.
            let (waits, cbs, signals) = unsafe {
                (
                    slice(s.p_wait_semaphores, s.wait_semaphore_count),
                    slice(s.p_command_buffers, s.command_buffer_count),
                    slice(s.p_signal_semaphores, s.signal_semaphore_count),
                )
            };
            batches.push(Batch {
                waits: sem_ops(waits, wait_values, true),
                ibs: ibs_of(cbs.iter().copied()),
                signals: sem_ops(signals, signal_values, false),
                fence: None,
            });
        }
        finish_submit(q, "vkQueueSubmit", batches, f)
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn queue_submit2(
    queue: vk::Queue,
    n: u32,
    submits: *const vk::SubmitInfo2<'_>,
    f: vk::Fence,
) -> vk::Result {
    guard("vkQueueSubmit2", vk::Result::ERROR_DEVICE_LOST, || {
        let q = queue_of(queue);
        let mut batches = Vec::new();
        // SAFETY: valid per the specification.
        for s in unsafe { slice(submits, n) } {
            if s.flags.contains(vk::SubmitFlags::PROTECTED) {
                tracing::warn!("vkQueueSubmit2: protected submissions are not supported");
                return vk::Result::ERROR_FEATURE_NOT_PRESENT;
            }
            // SAFETY: valid per the specification.
            let (waits, cbs, signals) = unsafe {
                (
                    slice(s.p_wait_semaphore_infos, s.wait_semaphore_info_count),
                    slice(s.p_command_buffer_infos, s.command_buffer_info_count),
                    slice(s.p_signal_semaphore_infos, s.signal_semaphore_info_count),
                )
            };
            let ops = |infos: &[vk::SemaphoreSubmitInfo<'_>], wait| {
                let sems: Vec<vk::Semaphore> = infos.iter().map(|i| i.semaphore).collect();
                let values: Vec<u64> = infos.iter().map(|i| i.value).collect();
                sem_ops(&sems, &values, wait)
            };
            batches.push(Batch {
                waits: ops(waits, true),
                ibs: ibs_of(cbs.iter().map(|c| c.command_buffer)),
                signals: ops(signals, false),
                fence: None,
            });
        }
        finish_submit(q, "vkQueueSubmit2", batches, f)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sync::Notify;

    fn device(queues: u32) -> Arc<DeviceShared> {
        let gpu = gpu::Device::new(gpu::Config::default()).expect("the GPU's threads start");
        let hw = (0..queues)
            .map(|i| Arc::new(Hw::new(0, i, vk::DeviceQueueCreateFlags::empty(), gpu.create_queue().expect("a queue"))))
            .collect();
        let notify = Arc::new(Notify::default());
        let hook = notify.clone();
        gpu.set_interrupt_hook(Some(Arc::new(move || hook.notify())));
        Arc::new(DeviceShared::new(gpu, hw, notify))
    }

    fn fence() -> Arc<FenceInner> {
        Arc::new(FenceInner { state: Mutex::new(FenceState::Unsignaled) })
    }

    fn signaled(f: &FenceInner) -> bool {
        matches!(&*f.state.lock(), FenceState::Submitted(hw, seq) if hw.upgrade().is_some_and(|h| h.gpu.completed() >= *seq))
    }

    #[test]
    fn held_batches_wait_for_a_host_signal_and_keep_submission_order() {
        let dev = device(2);
        let sem = Arc::new(SemInner::new(true, 0));
        let (f1, f2) = (fence(), fence());
        let q = &dev.queues[0];
        // Waits on 5, which nobody has signalled: held, and so is the batch behind it.
        let first = Batch {
            waits: vec![(sem.clone(), 5)],
            signals: vec![(sem.clone(), 6)],
            fence: Some(f1.clone()),
            ..Default::default()
        };
        let second = Batch { fence: Some(f2.clone()), ..Default::default() };
        assert_eq!(q.submit(vec![first, second], &dev), vk::Result::SUCCESS);
        assert!(matches!(*f1.state.lock(), FenceState::Held));
        assert!(matches!(*f2.state.lock(), FenceState::Held), "a later batch of the queue overtook a held one");
        assert!(!q.idle());
        // The other queue is not blocked by it: its batch goes into the ring inline.
        let other = fence();
        assert_eq!(
            dev.queues[1].submit(vec![Batch { fence: Some(other.clone()), ..Default::default() }], &dev),
            vk::Result::SUCCESS
        );
        assert!(matches!(*other.state.lock(), FenceState::Submitted(..)));
        let sched = dev.clone();
        let t = std::thread::spawn(move || scheduler(sched));
        sem.host_signal(5);
        dev.notify.notify();
        let r = wait_until(&dev, deadline(10_000_000_000), || {
            (sem.value() >= 6 && signaled(&f2)).then_some(vk::Result::SUCCESS)
        });
        assert_eq!(r, vk::Result::SUCCESS);
        assert!(signaled(&f1));
        assert_eq!(wait_idle(&dev, &dev.queues), vk::Result::SUCCESS);
        dev.notify.stop.store(true, Ordering::Release);
        dev.notify.notify();
        t.join().expect("the scheduler ends");
        dev.gpu.set_interrupt_hook(None);
    }

    #[test]
    fn a_binary_semaphore_pairs_each_wait_with_one_signal() {
        let sem = SemInner::new(false, 0);
        assert_eq!((sem.signal_target(0), sem.signal_target(0)), (1, 2));
        assert_eq!((sem.wait_target(0), sem.wait_target(0), sem.wait_target(0)), (1, 2, 3));
        assert_eq!(sem.value(), 0);
        sem.host_signal(2);
        assert_eq!(sem.value(), 2);
    }
}
