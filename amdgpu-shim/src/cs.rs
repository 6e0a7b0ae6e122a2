//! Command submission (DRM_IOCTL_AMDGPU_CS) onto the rings, each a queue of the GPU model
//! with its own command processor, made when first used; and the waits on submissions.

use std::sync::Arc;
use std::time::Instant;

use parking_lot::Mutex;

use crate::syncobj::Fence;
use crate::uapi::{self, chunk, info as q, CsChunk, CsChunkDep, CsChunkIb, CsChunkSyncobj};
use crate::{info, user};

/// Rings per IP type in the ring index.
const RINGS_PER_IP: u32 = 8;

/// Queues by ring index ([`ring_index`]).
static RINGS: Mutex<Vec<Option<Arc<gpu::Queue>>>> = Mutex::new(Vec::new());

/// The index of ring `ring` of IP `ip`, when the model has it.
pub fn ring_index(ip: u32, instance: u32, ring: u32) -> Result<u32, i32> {
    let rings = match ip {
        q::HW_IP_GFX => info::GFX_RINGS,
        q::HW_IP_COMPUTE => info::COMPUTE_RINGS,
        _ => 0,
    };
    if instance != 0 || ring >= rings {
        tracing::warn!("submission to IP {ip} instance {instance} ring {ring}: the model has no such ring (EINVAL)");
        return Err(libc::EINVAL);
    }
    Ok(ip * RINGS_PER_IP + ring)
}

fn queue(index: u32) -> Result<Arc<gpu::Queue>, i32> {
    let mut rings = RINGS.lock();
    if rings.len() <= index as usize {
        rings.resize(index as usize + 1, None);
    }
    if let Some(q) = &rings[index as usize] {
        return Ok(q.clone());
    }
    // The GFX ring is RADV's general queue: the model's graphics-ring CP, which takes
    // RADV's graphics preamble; the compute rings are compute queues.
    let kind = if index / RINGS_PER_IP == q::HW_IP_GFX { gpu::QueueKind::Gfx } else { gpu::QueueKind::Compute };
    let q = Arc::new(crate::gpu::device()?.create_queue_of(kind).map_err(|_| libc::ENOMEM)?);
    rings[index as usize] = Some(q.clone());
    Ok(q)
}

/// Highest fence sequence number ring `ring` has completed; everything counts as done on a
/// lost device (the kernel signals a reset device's fences, with an error).
pub fn ring_completed(ring: u32) -> u64 {
    if lost() {
        return u64::MAX;
    }
    RINGS.lock().get(ring as usize).and_then(|q| q.as_ref().map(|q| q.completed())).unwrap_or(u64::MAX)
}

pub fn lost() -> bool {
    crate::gpu::device().is_ok_and(|d| matches!(d.status(), gpu::Status::Lost(_)))
}

/// GPU resets so far: a context made before the last one is lost for good (the kernel's
/// guilty context), contexts made after it work.
static RESETS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The GPU reset count, after resetting a lost device as the kernel's recovery would have
/// by now (`gpu::Device::recover`: the rings' work dropped, their fences signalled).
pub fn resets() -> u64 {
    use std::sync::atomic::Ordering;
    // One recovery at a time: two would count one loss twice and make a context made
    // between them look guilty.
    static RECOVERING: Mutex<()> = Mutex::new(());
    let _one = RECOVERING.lock();
    if lost() {
        let recovered = crate::gpu::device().ok().and_then(|d| d.recover(std::time::Duration::from_secs(10)));
        if recovered.is_some() {
            RESETS.fetch_add(1, Ordering::AcqRel);
        }
    }
    RESETS.load(Ordering::Acquire)
}

/// What one CS ioctl asks for, read from its chunks.
#[derive(Default)]
pub struct Request {
    pub ibs: Vec<CsChunkIb>,
    pub waits: Vec<Fence>,
    /// Syncobjs (handle, point) to signal with the submission's fence.
    pub signals: Vec<(u32, u64)>,
    /// Syncobjs (handle, point) whose fences to wait for.
    pub syncobj_waits: Vec<(u32, u64)>,
    /// BO handles of the BO_HANDLES chunk.
    pub bo_handles: Option<Vec<u32>>,
    /// The user fence: BO handle and byte offset.
    pub user_fence: Option<(u32, u32)>,
}

/// Reads the chunks of a CS ioctl.
pub fn read_chunks(cs: &uapi::Cs) -> Result<Request, i32> {
    let mut r = Request::default();
    let ptrs = user::read_array::<u64>(cs.chunks, cs.num_chunks as usize)?;
    for p in ptrs {
        let c: CsChunk = user::read(p, std::mem::size_of::<CsChunk>())?;
        let bytes = c.length_dw as usize * 4;
        match c.chunk_id {
            chunk::IB => r.ibs.push(user::read(c.chunk_data, bytes)?),
            chunk::DEPENDENCIES | chunk::SCHEDULED_DEPENDENCIES => {
                let n = bytes / std::mem::size_of::<CsChunkDep>();
                for d in user::read_array::<CsChunkDep>(c.chunk_data, n)? {
                    r.waits.push(Fence::on_ring(ring_index(d.ip_type, d.ip_instance, d.ring)?, d.handle));
                }
            }
            chunk::SYNCOBJ_IN | chunk::SYNCOBJ_OUT => {
                let hs = user::read_array::<u32>(c.chunk_data, bytes / 4)?;
                let list = if c.chunk_id == chunk::SYNCOBJ_IN { &mut r.syncobj_waits } else { &mut r.signals };
                list.extend(hs.into_iter().map(|h| (h, 0)));
            }
            chunk::SYNCOBJ_TIMELINE_WAIT | chunk::SYNCOBJ_TIMELINE_SIGNAL => {
                let n = bytes / std::mem::size_of::<CsChunkSyncobj>();
                let items = user::read_array::<CsChunkSyncobj>(c.chunk_data, n)?;
                let list =
                    if c.chunk_id == chunk::SYNCOBJ_TIMELINE_WAIT { &mut r.syncobj_waits } else { &mut r.signals };
                list.extend(items.into_iter().map(|s| (s.handle, s.point)));
            }
            chunk::BO_HANDLES => {
                let l: uapi::BoList = user::read(c.chunk_data, bytes)?;
                let es = user::read_array::<uapi::BoListEntry>(l.bo_info_ptr, l.bo_number as usize)?;
                r.bo_handles = Some(es.iter().map(|e| e.bo_handle).collect());
            }
            chunk::FENCE => {
                let f: uapi::CsChunkFence = user::read(c.chunk_data, bytes)?;
                r.user_fence = Some((f.handle, f.offset));
            }
            other => {
                tracing::warn!("CS chunk id {other:#x}: not known to softnavi (EINVAL, as the kernel)");
                return Err(libc::EINVAL);
            }
        }
    }
    Ok(r)
}

/// Submits the IBs (all for one ring, as the kernel requires) after `wait`; returns the
/// ring and the submission's sequence number.
pub fn submit(ibs: &[CsChunkIb], wait: &Fence) -> Result<(u32, u64), i32> {
    let first = ibs.first().ok_or(libc::EINVAL)?;
    let ring = ring_index(first.ip_type, first.ip_instance, first.ring)?;
    let mut list = Vec::with_capacity(ibs.len());
    for ib in ibs {
        if ring_index(ib.ip_type, ib.ip_instance, ib.ring)? != ring {
            return Err(libc::EINVAL);
        }
        if ib.flags & chunk::IB_FLAG_CE != 0 {
            tracing::warn!("CS: a constant-engine IB: gfx11 has no CE (EINVAL)");
            return Err(libc::EINVAL);
        }
        if ib.ib_bytes % 4 != 0 {
            return Err(libc::EINVAL);
        }
        list.push(gpu::Ib { va: ib.va_start, dwords: ib.ib_bytes / 4 });
    }
    // A ring runs its submissions in order: only other rings' work is waited for here.
    let others = Fence(wait.0.iter().filter(|(r, _)| **r != ring).map(|(r, s)| (*r, *s)).collect());
    crate::gpu::wait_until(None, || others.is_signaled());
    if lost() {
        return Err(libc::ECANCELED);
    }
    let q = queue(ring)?;
    let seq = q.submit(&list).map_err(|e| {
        tracing::error!("CS: {e}");
        libc::ECANCELED
    })?;
    Ok((ring, seq))
}

/// Waits until ring `ring` completed `seq` or the deadline passes; `true` when it did.
pub fn wait_seq(ring: u32, seq: u64, deadline: Option<Instant>) -> bool {
    crate::gpu::wait_until(deadline, || ring_completed(ring) >= seq)
}

/// User fences not yet written: (ring, sequence number, BO, offset).
type UserFence = (u32, u64, Arc<crate::gem::Gem>, u32);
static USER_FENCES: Mutex<Vec<UserFence>> = Mutex::new(Vec::new());

/// Has the sequence number of submission `seq` on `ring` written into `gem` at `offset`
/// once it completes, as the kernel's end-of-submission fence write does.
pub fn add_user_fence(ring: u32, seq: u64, gem: Arc<crate::gem::Gem>, offset: u32) -> Result<(), i32> {
    if offset % 8 != 0 || u64::from(offset) + 8 > gem.mem.size() {
        return Err(libc::EINVAL);
    }
    USER_FENCES.lock().push((ring, seq, gem, offset));
    write_user_fences();
    Ok(())
}

/// Writes the user fences of completed submissions (called on every GPU interrupt).
pub fn write_user_fences() {
    let Some(mut pending) = USER_FENCES.try_lock() else { return };
    pending.retain(|(ring, seq, gem, offset)| {
        if ring_completed(*ring) < *seq {
            return true;
        }
        // SAFETY: add_user_fence checked that offset + 8 lies in the BO's memory, which
        // the entry keeps alive; the 8-byte write is aligned.
        unsafe { (gem.mem.host_ptr().add(*offset as usize) as *mut u64).write_volatile(*seq) };
        false
    });
}
