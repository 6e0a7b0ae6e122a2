//! DRM sync objects, binary and timeline, as the kernel keeps them.
//!
//! A [`Fence`] is the completion of some submissions: for each ring, the highest fence
//! sequence number it waits for (later submissions on a ring complete after earlier ones,
//! so one number per ring says it all). A binary syncobj holds one fence or none; a
//! timeline syncobj holds a chain of points, each with the fence of everything up to it
//! (the kernel's `dma_fence_chain`: a point signals when its own fence and every earlier
//! point's have).

use std::collections::BTreeMap;
use std::time::Instant;

use parking_lot::Mutex;

/// Completion of submissions: ring → sequence number. Empty = signalled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Fence(pub BTreeMap<u32, u64>);

impl Fence {
    pub fn signaled() -> Fence {
        Fence::default()
    }

    pub fn on_ring(ring: u32, seq: u64) -> Fence {
        Fence(BTreeMap::from([(ring, seq)]))
    }

    /// Both fences.
    pub fn merge(&self, other: &Fence) -> Fence {
        let mut m = self.0.clone();
        for (&r, &s) in &other.0 {
            let e = m.entry(r).or_insert(0);
            *e = (*e).max(s);
        }
        Fence(m)
    }

    pub fn is_signaled(&self) -> bool {
        self.0.iter().all(|(&r, &s)| crate::cs::ring_completed(r) >= s)
    }
}

#[derive(Debug, Default)]
struct State {
    /// The binary payload (point 0): `None` = no fence yet (unsignalled, not submitted).
    binary: Option<Fence>,
    /// Timeline points in increasing order, each with the fence of everything up to it.
    chain: Vec<(u64, Fence)>,
}

#[derive(Debug, Default)]
pub struct Syncobj {
    state: Mutex<State>,
}

/// Why a wait could not start.
#[derive(Debug, PartialEq, Eq)]
pub enum WaitError {
    /// A point (or binary fence) that was never submitted, without WAIT_FOR_SUBMIT.
    NotSubmitted,
    Timeout,
}

impl Syncobj {
    pub fn new(signaled: bool) -> Syncobj {
        let s = Syncobj::default();
        if signaled {
            s.state.lock().binary = Some(Fence::signaled());
        }
        s
    }

    /// Replaces the fence at `point` (0: the binary payload) or adds the timeline point.
    pub fn attach(&self, point: u64, fence: Fence) {
        let mut s = self.state.lock();
        if point == 0 {
            s.binary = Some(fence);
        } else {
            let prev = s.chain.last().map(|(_, f)| f.clone()).unwrap_or_default();
            let f = prev.merge(&fence);
            // A point lower than the last one joins the chain at its end, as the kernel's
            // dma_fence_chain does (it then signals with everything before it).
            let at = s.chain.last().map_or(point, |(p, _)| point.max(*p));
            s.chain.push((at, f));
        }
        drop(s);
        crate::gpu::notify();
    }

    /// Removes the binary fence (DRM_IOCTL_SYNCOBJ_RESET).
    pub fn reset(&self) {
        let mut s = self.state.lock();
        s.binary = None;
        s.chain.clear();
    }

    /// The fence of `point` (0: the binary payload); `None` when it was not submitted.
    pub fn fence(&self, point: u64) -> Option<Fence> {
        let s = self.state.lock();
        if point == 0 {
            // A timeline used as binary: its last point.
            return s.binary.clone().or_else(|| s.chain.last().map(|(_, f)| f.clone()));
        }
        s.chain.iter().find(|(p, _)| *p >= point).map(|(_, f)| f.clone())
    }

    /// The highest signalled point of the timeline (DRM_IOCTL_SYNCOBJ_QUERY), or the last
    /// submitted one with `last_submitted`.
    pub fn query(&self, last_submitted: bool) -> u64 {
        let s = self.state.lock();
        if last_submitted {
            return s.chain.last().map_or(0, |(p, _)| *p);
        }
        s.chain.iter().take_while(|(_, f)| f.is_signaled()).last().map_or(0, |(p, _)| *p)
    }
}

/// What to wait for: a syncobj and a point (0: binary).
pub struct WaitItem<'a> {
    pub obj: &'a Syncobj,
    pub point: u64,
}

/// Waits for all (or the first) of `items`. `for_submit`: a point not yet submitted is
/// waited for; else it is an error at once. `available`: only its submission is waited
/// for. Returns the index of the first signalled item.
pub fn wait(
    items: &[WaitItem],
    all: bool,
    for_submit: bool,
    available: bool,
    deadline: Option<Instant>,
) -> Result<usize, WaitError> {
    if !for_submit && items.iter().any(|i| i.obj.fence(i.point).is_none()) {
        return Err(WaitError::NotSubmitted);
    }
    let done = |i: &WaitItem| i.obj.fence(i.point).is_some_and(|f| available || f.is_signaled());
    let mut first = None;
    let ok = crate::gpu::wait_until(deadline, || {
        if all {
            items.iter().all(done).then(|| first = Some(0)).is_some()
        } else {
            first = items.iter().position(done);
            first.is_some()
        }
    });
    match (ok, first) {
        (true, Some(i)) => Ok(i),
        _ => Err(WaitError::Timeout),
    }
}

/// What a descriptor made by [`export`] stands for: the syncobj itself (an opaque fd,
/// `DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD`) or a snapshot of its fence (a sync file, with
/// `DRM_SYNCOBJ_HANDLE_TO_FD_FLAGS_EXPORT_SYNC_FILE`).
#[derive(Clone, Debug)]
pub enum Exported {
    Object(std::sync::Arc<Syncobj>),
    SyncFile(Fence),
}

/// Exported descriptors by the inode of their memfd (the descriptor number may be
/// dup'ed, passed on or reused; the inode is what the kernel's file is). Entries live as
/// long as the process, as PRIME's do.
static EXPORTED: Mutex<Option<std::collections::HashMap<u64, Exported>>> = Mutex::new(None);

/// The size of an exported memfd: how [`import`] tells ours from other descriptors.
const EXPORT_SIZE: i64 = 4093;

/// A new descriptor for `what`.
pub fn export(what: Exported, cloexec: bool) -> Result<i32, i32> {
    let flags = if cloexec { libc::MFD_CLOEXEC } else { 0 };
    // SAFETY: the name is a NUL-terminated literal.
    let fd = unsafe { libc::memfd_create(c"softnavi-syncobj".as_ptr(), flags) };
    // SAFETY: fd is the memfd just made (or -1, which ftruncate refuses).
    if fd < 0 || unsafe { libc::ftruncate(fd, EXPORT_SIZE) } != 0 {
        return Err(crate::errno());
    }
    let (_, ino, _) = crate::node::identity(fd).ok_or(libc::EIO)?;
    EXPORTED.lock().get_or_insert_with(std::collections::HashMap::new).insert(ino, what);
    Ok(fd)
}

/// What a descriptor made by [`export`] stands for; `None` for any other descriptor.
pub fn import(fd: i32) -> Option<Exported> {
    let (_, ino, size) = crate::node::identity(fd)?;
    if size != EXPORT_SIZE {
        return None;
    }
    EXPORTED.lock().as_ref()?.get(&ino).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn binary_and_timeline_without_gpu_work() {
        let b = Syncobj::new(false);
        assert_eq!(b.fence(0), None);
        let item = [WaitItem { obj: &b, point: 0 }];
        assert_eq!(wait(&item, true, false, false, Some(Instant::now())), Err(WaitError::NotSubmitted));
        assert_eq!(wait(&item, true, true, false, Some(Instant::now())), Err(WaitError::Timeout));
        b.attach(0, Fence::signaled());
        assert_eq!(wait(&item, true, false, false, Some(Instant::now())), Ok(0));
        b.reset();
        assert_eq!(b.fence(0), None);

        let t = Syncobj::new(false);
        t.attach(3, Fence::signaled());
        t.attach(7, Fence::signaled());
        assert_eq!(t.query(false), 7);
        assert!(t.fence(5).is_some(), "point 5 is reached by point 7");
        assert!(t.fence(8).is_none());
        let items = [WaitItem { obj: &t, point: 3 }, WaitItem { obj: &t, point: 9 }];
        assert_eq!(wait(&items, false, true, false, Some(Instant::now())), Ok(0));
        assert_eq!(wait(&items, true, true, false, Some(Instant::now())), Err(WaitError::Timeout));
    }
}
