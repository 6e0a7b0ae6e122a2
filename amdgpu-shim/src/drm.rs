//! A DRM file of the render node and the ioctls on it: the DRM core's (version,
//! capabilities, syncobjs) and amdgpu's.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use parking_lot::Mutex;

use crate::gem::Gem;
use crate::syncobj::{self, Fence, Syncobj, WaitError, WaitItem};
use crate::uapi::{self, amdgpu, cap, ctx, nr, Pod, Request, DRM_COMMAND_BASE, DRM_TYPE, IOC_READ, IOC_WRITE};
use crate::{info, user};

/// The amdgpu kernel interface version reported: 3.49, Linux 6.1's (Debian 12's kernel).
pub const DRM_VERSION: (i32, i32, i32) = (3, 49, 0);
const DRIVER_NAME: &str = "amdgpu";
const DRIVER_DATE: &str = "20150101";
const DRIVER_DESC: &str = "AMD GPU (softnavi GPU model)";

/// A submission context.
#[derive(Debug)]
struct Ctx {
    /// The GPU reset count when it was made (`cs::resets`): a reset since makes it lost.
    epoch: u64,
}

/// One open file of the render node.
#[derive(Default)]
pub struct DrmFile {
    next_handle: AtomicU32,
    ctxs: Mutex<HashMap<u32, Ctx>>,
    syncobjs: Mutex<HashMap<u32, Arc<Syncobj>>>,
    bos: Mutex<HashMap<u32, Arc<Gem>>>,
    bo_lists: Mutex<HashMap<u32, Vec<u32>>>,
}

type Res = Result<i32, i32>;

impl DrmFile {
    pub fn new() -> DrmFile {
        DrmFile { next_handle: AtomicU32::new(1), ..Default::default() }
    }

    fn handle(&self) -> u32 {
        self.next_handle.fetch_add(1, Ordering::Relaxed)
    }

    fn syncobj(&self, h: u32) -> Result<Arc<Syncobj>, i32> {
        self.syncobjs.lock().get(&h).cloned().ok_or(libc::ENOENT)
    }

    fn bo(&self, h: u32) -> Result<Arc<Gem>, i32> {
        self.bos.lock().get(&h).cloned().ok_or(libc::ENOENT)
    }

    /// A handle for `g` in this file: the one it has already, as the kernel does on import.
    fn bo_handle(&self, g: &Arc<Gem>) -> u32 {
        let mut bos = self.bos.lock();
        if let Some((h, _)) = bos.iter().find(|(_, b)| Arc::ptr_eq(b, g)) {
            return *h;
        }
        let h = self.handle();
        g.handles.fetch_add(1, Ordering::Relaxed);
        bos.insert(h, g.clone());
        h
    }

    fn close_bo(&self, h: u32) -> Res {
        let g = self.bos.lock().remove(&h).ok_or(libc::EINVAL)?;
        if g.handles.fetch_sub(1, Ordering::AcqRel) == 1 {
            g.release();
        }
        Ok(0)
    }
}

/// Runs `f` on the ioctl's argument: copied in (when the request writes), changed, and
/// copied back (when it reads), as much of it as the caller's structure size says.
fn with_arg<T: Pod>(req: Request, arg: *mut c_void, f: impl FnOnce(&mut T) -> Res) -> Res {
    let addr = arg as u64;
    let mut v = if req.dir & IOC_WRITE != 0 { user::read::<T>(addr, req.size)? } else { T::zeroed() };
    let r = f(&mut v)?;
    if req.dir & IOC_READ != 0 {
        user::write(addr, req.size, &v)?;
    }
    Ok(r)
}

/// Answers one ioctl on the node. `Err` is the errno.
pub fn ioctl(file: &DrmFile, request: u64, arg: *mut c_void) -> Res {
    let req = Request::decode(request);
    if req.kind != DRM_TYPE {
        // Not a DRM ioctl (a terminal or file ioctl on the node): what a DRM device says.
        tracing::warn!("{} on the render node: not a DRM ioctl (ENOTTY)", uapi::ioctl_name(req));
        return Err(libc::ENOTTY);
    }
    let r = dispatch(file, req, arg);
    if let Err(e) = r {
        tracing::debug!("{}: errno {e}", uapi::ioctl_name(req));
    }
    r
}

fn dispatch(file: &DrmFile, req: Request, arg: *mut c_void) -> Res {
    match req.nr {
        nr::VERSION => with_arg(req, arg, version),
        nr::GET_CAP => with_arg(req, arg, get_cap),
        nr::SET_CLIENT_CAP => with_arg(req, arg, |_: &mut uapi::DrmSetClientCap| {
            // Client caps (stereo, atomic, writeback) are KMS's; a render node refuses them.
            Err(libc::EOPNOTSUPP)
        }),
        nr::GEM_CLOSE => with_arg(req, arg, |a: &mut uapi::DrmGemClose| file.close_bo(a.handle)),
        nr::PRIME_HANDLE_TO_FD => with_arg(req, arg, |a: &mut uapi::DrmPrimeHandle| {
            a.fd = crate::gem::export(&file.bo(a.handle)?, a.flags & libc::O_CLOEXEC as u32 != 0)?;
            Ok(0)
        }),
        nr::PRIME_FD_TO_HANDLE => with_arg(req, arg, |a: &mut uapi::DrmPrimeHandle| {
            let g = crate::gem::import(a.fd).ok_or(libc::EINVAL)?;
            a.handle = file.bo_handle(&g);
            Ok(0)
        }),
        nr::SYNCOBJ_CREATE => with_arg(req, arg, |a: &mut uapi::SyncobjCreate| syncobj_create(file, a)),
        nr::SYNCOBJ_DESTROY => with_arg(req, arg, |a: &mut uapi::SyncobjDestroy| {
            file.syncobjs.lock().remove(&a.handle).map(|_| 0).ok_or(libc::EINVAL)
        }),
        nr::SYNCOBJ_HANDLE_TO_FD => with_arg(req, arg, |a: &mut uapi::SyncobjHandle| syncobj_to_fd(file, a)),
        nr::SYNCOBJ_FD_TO_HANDLE => with_arg(req, arg, |a: &mut uapi::SyncobjHandle| syncobj_from_fd(file, a)),
        nr::SYNCOBJ_WAIT => with_arg(req, arg, |a: &mut uapi::SyncobjWait| syncobj_wait(file, a)),
        nr::SYNCOBJ_TIMELINE_WAIT => {
            with_arg(req, arg, |a: &mut uapi::SyncobjTimelineWait| syncobj_timeline_wait(file, a))
        }
        nr::SYNCOBJ_RESET => with_arg(req, arg, |a: &mut uapi::SyncobjArray| {
            for o in syncobjs(file, a.handles, a.count_handles)? {
                o.reset();
            }
            Ok(0)
        }),
        nr::SYNCOBJ_SIGNAL => with_arg(req, arg, |a: &mut uapi::SyncobjArray| {
            for o in syncobjs(file, a.handles, a.count_handles)? {
                o.attach(0, syncobj::Fence::signaled());
            }
            Ok(0)
        }),
        nr::SYNCOBJ_TIMELINE_SIGNAL => with_arg(req, arg, |a: &mut uapi::SyncobjTimelineArray| {
            let objs = syncobjs(file, a.handles, a.count_handles)?;
            let points = user::read_array::<u64>(a.points, objs.len())?;
            for (o, p) in objs.iter().zip(points) {
                o.attach(p, syncobj::Fence::signaled());
            }
            Ok(0)
        }),
        nr::SYNCOBJ_QUERY => with_arg(req, arg, |a: &mut uapi::SyncobjTimelineArray| {
            let objs = syncobjs(file, a.handles, a.count_handles)?;
            let last = a.flags & uapi::syncobj::QUERY_LAST_SUBMITTED != 0;
            let points: Vec<u64> = objs.iter().map(|o| o.query(last)).collect();
            user::write_array(a.points, &points)?;
            Ok(0)
        }),
        nr::SYNCOBJ_TRANSFER => with_arg(req, arg, |a: &mut uapi::SyncobjTransfer| {
            let (src, dst) = (file.syncobj(a.src_handle)?, file.syncobj(a.dst_handle)?);
            let f = src.fence(a.src_point).ok_or(libc::EINVAL)?;
            dst.attach(a.dst_point, f);
            Ok(0)
        }),
        n if n >= DRM_COMMAND_BASE => amdgpu_ioctl(file, req, arg),
        _ => unknown(req),
    }
}

fn amdgpu_ioctl(file: &DrmFile, req: Request, arg: *mut c_void) -> Res {
    match req.nr - DRM_COMMAND_BASE {
        amdgpu::INFO => with_arg(req, arg, |a: &mut uapi::AmdgpuInfo| {
            info::query(crate::gpu::chip(), &crate::gem::usage(), a).map(|_| 0)
        }),
        amdgpu::CTX => with_arg(req, arg, |a: &mut uapi::AmdgpuCtx| ctx_op(file, a)),
        amdgpu::GEM_CREATE => with_arg(req, arg, |a: &mut uapi::GemCreate| {
            let g = Gem::create(a)?;
            let h = file.bo_handle(&g);
            *a = uapi::GemCreate::zeroed();
            a.bo_size = h as u64;
            Ok(0)
        }),
        amdgpu::GEM_MMAP => with_arg(req, arg, |a: &mut uapi::GemMmap| {
            let g = file.bo(a.handle_or_offset as u32)?;
            if g.mem.is_host() {
                return Err(libc::EPERM); // amdgpu: userptr BOs are mapped by their owner
            }
            a.handle_or_offset = g.mmap_offset();
            Ok(0)
        }),
        amdgpu::GEM_VA => with_arg(req, arg, |a: &mut uapi::GemVa| gem_va(file, a)),
        amdgpu::GEM_OP => with_arg(req, arg, |a: &mut uapi::GemOp| gem_op(file, a)),
        amdgpu::GEM_METADATA => with_arg(req, arg, |a: &mut uapi::GemMetadata| {
            let g = file.bo(a.handle)?;
            match a.op {
                uapi::gem::METADATA_OP_SET => g.set_metadata(a)?,
                uapi::gem::METADATA_OP_GET => g.get_metadata(a),
                _ => return Err(libc::EINVAL),
            }
            Ok(0)
        }),
        amdgpu::GEM_WAIT_IDLE => with_arg(req, arg, |a: &mut uapi::GemWaitIdle| {
            let g = file.bo(a.handle_or_status)?;
            let f = g.fence.lock().clone();
            let idle = crate::gpu::wait_until(deadline(a.timeout as i64), || f.is_signaled());
            let vram = g.create.lock().domains & uapi::gem::DOMAIN_VRAM != 0;
            a.handle_or_status = u32::from(!idle);
            a.flags_or_domain = if vram { uapi::gem::DOMAIN_VRAM } else { uapi::gem::DOMAIN_GTT } as u32;
            Ok(0)
        }),
        amdgpu::GEM_USERPTR => with_arg(req, arg, |a: &mut uapi::GemUserptr| {
            // SAFETY: user space keeps the range mapped while the BO lives, as it must under
            // amdgpu (which pins the pages; an unmapped range is a GPU VM fault here).
            let g = unsafe { Gem::from_user(a.addr, a.size, a.flags) }?;
            a.handle = file.bo_handle(&g);
            Ok(0)
        }),
        amdgpu::BO_LIST => with_arg(req, arg, |a: &mut uapi::BoList| bo_list(file, a)),
        amdgpu::CS => with_arg(req, arg, |a: &mut uapi::Cs| cs(file, a)),
        amdgpu::WAIT_CS => with_arg(req, arg, |a: &mut uapi::WaitCs| {
            file.ctxs.lock().get(&a.ctx_id).ok_or(libc::EINVAL)?;
            let ring = crate::cs::ring_index(a.ip_type, a.ip_instance, a.ring)?;
            let done = crate::cs::wait_seq(ring, a.handle, deadline(a.timeout as i64));
            *a = uapi::WaitCs::zeroed();
            a.handle = u64::from(!done);
            Ok(0)
        }),
        amdgpu::WAIT_FENCES => with_arg(req, arg, |a: &mut uapi::WaitFences| wait_fences(a)),
        amdgpu::VM => with_arg(req, arg, |a: &mut uapi::AmdgpuVm| {
            // Reserving a VMID (for SPM/thread trace) changes nothing in the model: one VMID.
            a.flags = 0;
            a.op = 0;
            Ok(0)
        }),
        _ => unknown(req),
    }
}

fn unknown(req: Request) -> Res {
    tracing::warn!(
        "{} is not implemented by softnavi's amdgpu shim (EINVAL, as the kernel for an unknown ioctl)",
        uapi::ioctl_name(req)
    );
    Err(libc::EINVAL)
}

/// Copies `s` to the user buffer `ptr` of `*len` bytes (at most), and sets `*len` to the
/// string's length, as drm_version does.
fn put_string(s: &str, ptr: u64, len: &mut u64) -> Result<(), i32> {
    let n = (*len as usize).min(s.len());
    if n > 0 {
        user::write_bytes(ptr, &s.as_bytes()[..n])?;
    }
    *len = s.len() as u64;
    Ok(())
}

fn version(v: &mut uapi::DrmVersion) -> Res {
    (v.version_major, v.version_minor, v.version_patchlevel) = DRM_VERSION;
    put_string(DRIVER_NAME, v.name, &mut v.name_len)?;
    put_string(DRIVER_DATE, v.date, &mut v.date_len)?;
    put_string(DRIVER_DESC, v.desc, &mut v.desc_len)?;
    Ok(0)
}

fn get_cap(c: &mut uapi::DrmGetCap) -> Res {
    c.value = match c.capability {
        cap::SYNCOBJ | cap::SYNCOBJ_TIMELINE | cap::TIMESTAMP_MONOTONIC => 1,
        cap::PRIME => cap::PRIME_IMPORT | cap::PRIME_EXPORT,
        // No display engine: no dumb buffers, no framebuffer modifiers.
        cap::DUMB_BUFFER | cap::ADDFB2_MODIFIERS => 0,
        other => {
            tracing::debug!("DRM_IOCTL_GET_CAP {other:#x}: not a capability softnavi knows (EINVAL)");
            return Err(libc::EINVAL);
        }
    };
    Ok(0)
}

fn ctx_op(file: &DrmFile, a: &mut uapi::AmdgpuCtx) -> Res {
    let [op, _flags, id, priority] = a.words;
    let epoch = crate::cs::resets();
    match op {
        ctx::OP_ALLOC => {
            let p = priority as i32;
            if p != ctx::PRIORITY_UNSET && !(ctx::PRIORITY_VERY_LOW..=ctx::PRIORITY_VERY_HIGH).contains(&p) {
                return Err(libc::EINVAL);
            }
            let h = file.handle();
            file.ctxs.lock().insert(h, Ctx { epoch });
            a.words = [h, 0, 0, 0];
        }
        ctx::OP_FREE => {
            file.ctxs.lock().remove(&id).ok_or(libc::EINVAL)?;
            a.words = [0; 4];
        }
        ctx::OP_QUERY_STATE | ctx::OP_QUERY_STATE2 => {
            let ctxs = file.ctxs.lock();
            let c = ctxs.get(&id).ok_or(libc::EINVAL)?;
            // A reset since the context was made means its work (or its neighbours': the
            // model does not tell whose) hung or faulted: it is the guilty context.
            let lost = c.epoch != epoch;
            let (flags, status) =
                if lost { (ctx::QUERY2_FLAGS_RESET | ctx::QUERY2_FLAGS_GUILTY, ctx::GUILTY_RESET) } else { (0, 0) };
            a.words = if op == ctx::OP_QUERY_STATE2 {
                [flags as u32, (flags >> 32) as u32, 0, 0]
            } else {
                [0, 0, u32::from(lost), status]
            };
        }
        other => {
            tracing::warn!("DRM_IOCTL_AMDGPU_CTX op {other} is not implemented by softnavi (EINVAL)");
            return Err(libc::EINVAL);
        }
    }
    Ok(0)
}

fn syncobj_create(file: &DrmFile, a: &mut uapi::SyncobjCreate) -> Res {
    if a.flags & !uapi::syncobj::CREATE_SIGNALED != 0 {
        return Err(libc::EINVAL);
    }
    let h = file.handle();
    file.syncobjs.lock().insert(h, Arc::new(Syncobj::new(a.flags & uapi::syncobj::CREATE_SIGNALED != 0)));
    a.handle = h;
    Ok(0)
}

/// DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD: an opaque descriptor for the syncobj, or with
/// EXPORT_SYNC_FILE a sync file of its current fence (EINVAL without one, as the kernel).
fn syncobj_to_fd(file: &DrmFile, a: &mut uapi::SyncobjHandle) -> Res {
    use uapi::syncobj::EXPORT_SYNC_FILE;
    if a.flags & !EXPORT_SYNC_FILE != 0 || a.pad != 0 {
        return Err(libc::EINVAL);
    }
    let obj = file.syncobj(a.handle)?;
    let what = if a.flags & EXPORT_SYNC_FILE != 0 {
        syncobj::Exported::SyncFile(obj.fence(0).ok_or(libc::EINVAL)?)
    } else {
        syncobj::Exported::Object(obj)
    };
    // The kernel makes both close-on-exec.
    a.fd = syncobj::export(what, true)?;
    Ok(0)
}

/// DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE: a handle for an opaque descriptor's syncobj, or with
/// IMPORT_SYNC_FILE the sync file's fence put into the given syncobj.
fn syncobj_from_fd(file: &DrmFile, a: &mut uapi::SyncobjHandle) -> Res {
    use uapi::syncobj::IMPORT_SYNC_FILE;
    if a.flags & !IMPORT_SYNC_FILE != 0 || a.pad != 0 {
        return Err(libc::EINVAL);
    }
    match (syncobj::import(a.fd), a.flags & IMPORT_SYNC_FILE != 0) {
        (Some(syncobj::Exported::SyncFile(f)), true) => file.syncobj(a.handle)?.attach(0, f),
        (Some(syncobj::Exported::Object(o)), false) => {
            let h = file.handle();
            file.syncobjs.lock().insert(h, o);
            a.handle = h;
        }
        // Another kind of descriptor, or a sync file from outside softnavi (nothing here
        // can wait on a real dma-fence).
        _ => return Err(libc::EINVAL),
    }
    Ok(0)
}

fn syncobjs(file: &DrmFile, handles: u64, count: u32) -> Result<Vec<Arc<Syncobj>>, i32> {
    if count == 0 {
        return Err(libc::EINVAL);
    }
    let hs = user::read_array::<u32>(handles, count as usize)?;
    let map = file.syncobjs.lock();
    hs.iter().map(|h| map.get(h).cloned().ok_or(libc::ENOENT)).collect()
}

/// An absolute CLOCK_MONOTONIC timeout in ns as an Instant (`None`: beyond any wait).
fn deadline(abs_ns: i64) -> Option<Instant> {
    let mut now = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes the timespec.
    unsafe { libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now) };
    let now_ns = now.tv_sec as i128 * 1_000_000_000 + now.tv_nsec as i128;
    let left = (abs_ns as i128 - now_ns).max(0);
    if left > i64::MAX as i128 / 2 {
        return None;
    }
    Instant::now().checked_add(Duration::from_nanos(left as u64))
}

fn wait_common(file: &DrmFile, handles: u64, points: Option<u64>, count: u32, flags: u32, timeout: i64) -> Res {
    use uapi::syncobj::{WAIT_ALL, WAIT_AVAILABLE, WAIT_FOR_SUBMIT};
    let objs = syncobjs(file, handles, count)?;
    let pts = match points {
        Some(p) if p != 0 => user::read_array::<u64>(p, objs.len())?,
        _ => vec![0; objs.len()],
    };
    let items: Vec<WaitItem> = objs.iter().zip(&pts).map(|(o, &p)| WaitItem { obj: o, point: p }).collect();
    let all = flags & WAIT_ALL != 0;
    match syncobj::wait(&items, all, flags & WAIT_FOR_SUBMIT != 0, flags & WAIT_AVAILABLE != 0, deadline(timeout)) {
        Ok(i) => Ok(i as i32),
        Err(WaitError::NotSubmitted) => Err(libc::EINVAL),
        Err(WaitError::Timeout) => Err(libc::ETIME),
    }
}

fn syncobj_wait(file: &DrmFile, a: &mut uapi::SyncobjWait) -> Res {
    let i = wait_common(file, a.handles, None, a.count_handles, a.flags, a.timeout_nsec)?;
    a.first_signaled = i as u32;
    Ok(0)
}

fn syncobj_timeline_wait(file: &DrmFile, a: &mut uapi::SyncobjTimelineWait) -> Res {
    let i = wait_common(file, a.handles, Some(a.points), a.count_handles, a.flags, a.timeout_nsec)?;
    a.first_signaled = i as u32;
    Ok(0)
}

/// `mmap` of the node: the BO's own memory at the offset GEM_MMAP gave (the model and
/// the CPU share it), so no copy is ever needed. A fixed address cannot be honoured.
pub fn mmap(
    _file: &DrmFile,
    addr: *mut c_void,
    len: usize,
    _prot: i32,
    flags: i32,
    off: i64,
) -> Result<*mut c_void, i32> {
    if flags & libc::MAP_FIXED != 0 && !addr.is_null() {
        tracing::warn!("mmap of a BO at a fixed address {addr:?}: not supported by softnavi (EINVAL)");
        return Err(libc::EINVAL);
    }
    let Some((g, within)) = crate::gem::by_offset(off as u64, len as u64) else {
        tracing::warn!("mmap of the render node at offset {off:#x} ({len} bytes): no buffer object there (EINVAL)");
        return Err(libc::EINVAL);
    };
    // SAFETY: by_offset checked that within + len lies in the BO's memory.
    let p = unsafe { g.mem.host_ptr().add(within as usize) };
    crate::gem::note_mapped(p as usize, g);
    Ok(p.cast())
}

/// `munmap` of memory a node `mmap` gave out: `true` when it was such memory (and the
/// mapping is forgotten; the memory stays the BO's), `false` for anything else.
pub fn munmap(addr: *mut c_void, _len: usize) -> bool {
    crate::gem::note_unmapped(addr as usize)
}

fn gem_va(file: &DrmFile, a: &mut uapi::GemVa) -> Res {
    use uapi::gem::*;
    let vm = crate::gpu::device()?.address_space();
    let va = a.va_address & gpu::mem::VA_MASK;
    match a.operation {
        // A sparse resource's reservation: unbound pages, reads give 0, writes are dropped
        // (`AddressSpace::map_prt`; RADV reports residencyNonResidentStrict).
        VA_OP_MAP if a.handle == 0 && a.flags & VM_PAGE_PRT != 0 => {
            vm.map_prt(va, a.map_size).map_err(va_errno("PRT mapping"))?;
        }
        VA_OP_CLEAR => {
            vm.clear_range(va, a.map_size).map_err(va_errno("clear"))?;
        }
        VA_OP_REPLACE => {
            // Sparse binding (RADV's vkQueueBindSparse): whatever is mapped in the range
            // goes, then the BO's pages, or (no BO, PRT) unbound pages, take it.
            let g = if a.handle == 0 { None } else { Some(file.bo(a.handle)?) };
            vm.clear_range(va, a.map_size).map_err(va_errno("replace"))?;
            if let Some(g) = g {
                vm.map_at(va, &g.mem, a.offset_in_bo, a.map_size).map_err(va_errno("replace"))?;
            } else if a.flags & VM_PAGE_PRT != 0 {
                vm.map_prt(va, a.map_size).map_err(va_errno("PRT mapping"))?;
            }
        }
        VA_OP_MAP => {
            let g = file.bo(a.handle)?;
            let bo = vm.map_at(va, &g.mem, a.offset_in_bo, a.map_size).map_err(va_errno("map"))?;
            g.vas.lock().push(bo.va());
        }
        VA_OP_UNMAP => {
            let g = file.bo(a.handle)?;
            let mut vas = g.vas.lock();
            let i = vas.iter().position(|v| *v == va).ok_or(libc::ENOENT)?;
            vas.remove(i);
            vm.unmap_at(va);
        }
        _ => return Err(libc::EINVAL),
    }
    Ok(0)
}

/// The errno a GEM_VA operation `what` answers a refused mapping with (logged): ENOMEM when
/// the host had no memory for it, EINVAL otherwise.
fn va_errno(what: &'static str) -> impl Fn(gpu::mem::MapError) -> i32 {
    move |e| {
        tracing::warn!("GEM_VA {what}: {e}");
        if matches!(e, gpu::mem::MapError::NoMemory { .. }) {
            libc::ENOMEM
        } else {
            libc::EINVAL
        }
    }
}

fn gem_op(file: &DrmFile, a: &mut uapi::GemOp) -> Res {
    let g = file.bo(a.handle)?;
    match a.op {
        uapi::gem::OP_GET_GEM_CREATE_INFO => {
            let c = *g.create.lock();
            user::write(a.value, std::mem::size_of::<uapi::GemCreate>(), &c)?;
        }
        uapi::gem::OP_SET_PLACEMENT => g.create.lock().domains = a.value,
        _ => return Err(libc::EINVAL),
    }
    Ok(0)
}

fn bo_list(file: &DrmFile, a: &mut uapi::BoList) -> Res {
    use uapi::gem::*;
    let entries = || -> Result<Vec<u32>, i32> {
        let size = (a.bo_info_size as usize).max(4);
        let mut hs = Vec::with_capacity(a.bo_number as usize);
        for i in 0..a.bo_number as u64 {
            let e: uapi::BoListEntry = user::read(a.bo_info_ptr + i * size as u64, size)?;
            file.bo(e.bo_handle)?;
            hs.push(e.bo_handle);
        }
        Ok(hs)
    };
    match a.operation {
        BO_LIST_OP_CREATE => {
            let hs = entries()?;
            let h = file.handle();
            file.bo_lists.lock().insert(h, hs);
            *a = uapi::BoList::zeroed();
            a.operation = h;
        }
        BO_LIST_OP_UPDATE => {
            let hs = entries()?;
            *file.bo_lists.lock().get_mut(&a.list_handle).ok_or(libc::ENOENT)? = hs;
            *a = uapi::BoList::zeroed();
        }
        BO_LIST_OP_DESTROY => {
            file.bo_lists.lock().remove(&a.list_handle).ok_or(libc::ENOENT)?;
        }
        _ => return Err(libc::EINVAL),
    }
    Ok(0)
}

fn cs(file: &DrmFile, a: &mut uapi::Cs) -> Res {
    let epoch = crate::cs::resets();
    let made = file.ctxs.lock().get(&a.ctx_id).ok_or(libc::EINVAL)?.epoch;
    // A context from before a GPU reset takes no more work (the kernel's ECANCELED).
    if made != epoch {
        return Err(libc::ECANCELED);
    }
    let r = crate::cs::read_chunks(a)?;
    let mut wait = r.waits.iter().fold(Fence::signaled(), |f, w| f.merge(w));
    for (h, p) in &r.syncobj_waits {
        // The kernel refuses to wait for a point nobody submitted.
        let f = file.syncobj(*h)?.fence(*p).ok_or(libc::EINVAL)?;
        wait = wait.merge(&f);
    }
    let signals: Vec<(Arc<Syncobj>, u64)> =
        r.signals.iter().map(|(h, p)| file.syncobj(*h).map(|o| (o, *p))).collect::<Result<_, _>>()?;
    let handles = match (&r.bo_handles, a.bo_list_handle) {
        (Some(hs), _) => hs.clone(),
        (None, 0) => Vec::new(),
        (None, l) => file.bo_lists.lock().get(&l).cloned().ok_or(libc::ENOENT)?,
    };
    let bos: Vec<Arc<Gem>> = handles.iter().map(|h| file.bo(*h)).collect::<Result<_, _>>()?;
    let fence_bo = r.user_fence.map(|(h, off)| file.bo(h).map(|g| (g, off))).transpose()?;
    let (ring, seq) = crate::cs::submit(&r.ibs, &wait)?;
    if let Some((g, off)) = fence_bo {
        crate::cs::add_user_fence(ring, seq, g, off)?;
    }
    let done = Fence::on_ring(ring, seq);
    for g in &bos {
        let mut f = g.fence.lock();
        *f = f.merge(&done);
    }
    for (o, p) in signals {
        o.attach(p, done.clone());
    }
    *a = uapi::Cs::zeroed();
    a.ctx_id = seq as u32;
    a.bo_list_handle = (seq >> 32) as u32;
    Ok(0)
}

fn wait_fences(a: &mut uapi::WaitFences) -> Res {
    let fs = user::read_array::<uapi::CsChunkDep>(a.fences, a.fence_count as usize)?;
    let mut items = Vec::with_capacity(fs.len());
    for f in &fs {
        items.push((crate::cs::ring_index(f.ip_type, f.ip_instance, f.ring)?, f.handle));
    }
    let mut first = 0;
    let all = a.wait_all != 0;
    let done = crate::gpu::wait_until(deadline(a.timeout_ns as i64), || {
        let sig = |(r, s): &(u32, u64)| crate::cs::ring_completed(*r) >= *s;
        if all {
            items.iter().all(sig)
        } else {
            items.iter().position(sig).map(|i| first = i).is_some()
        }
    });
    *a = uapi::WaitFences::zeroed();
    a.fences = u64::from(done) | (first as u64) << 32;
    Ok(0)
}
