//! GEM buffer objects: host memory the GPU model addresses once user space maps it at a
//! VA (GEM_VA), and the CPU once it `mmap`s the node at the BO's offset (GEM_MMAP).

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;

use gpu::mem::Memory;
use parking_lot::Mutex;

use crate::syncobj::Fence;
use crate::uapi::{gem, GemCreate, GemMetadata, Pod};

/// Offsets GEM_MMAP hands out are `id << OFFSET_SHIFT`: room for BOs of up to 64 GiB.
const OFFSET_SHIFT: u32 = 36;

/// Metadata user space attaches to a BO (tiling and opaque words), for sharing.
#[derive(Clone, Copy)]
pub struct Metadata {
    pub flags: u64,
    pub tiling_info: u64,
    pub size: u32,
    pub data: [u32; 64],
}

pub struct Gem {
    id: u64,
    pub mem: Arc<Memory>,
    /// What GEM_CREATE asked for (GEM_OP returns it; SET_PLACEMENT changes the domains).
    pub create: Mutex<GemCreate>,
    pub metadata: Mutex<Option<Metadata>>,
    /// GPU VAs (48-bit) it is mapped at.
    pub vas: Mutex<Vec<u64>>,
    /// The submissions that used it (GEM_WAIT_IDLE).
    pub fence: Mutex<Fence>,
    /// Handles to it in every DRM file.
    pub handles: AtomicUsize,
}

/// Every BO by id (for `mmap` of the node, PRIME and usage accounting).
static ALL: Mutex<Option<HashMap<u64, Arc<Gem>>>> = Mutex::new(None);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

/// Bytes in BOs created for VRAM and for GTT.
static USAGE: Mutex<(u64, u64)> = Mutex::new((0, 0));

pub fn usage() -> crate::info::Usage {
    let (vram, gtt) = *USAGE.lock();
    crate::info::Usage { vram, gtt }
}

fn is_vram(create: &GemCreate) -> bool {
    create.domains & gem::DOMAIN_VRAM != 0
}

impl Gem {
    /// A new BO (GEM_CREATE). Errors are errno values.
    pub fn create(c: &GemCreate) -> Result<Arc<Gem>, i32> {
        if c.domains & gem::DOMAIN_ONCHIP != 0 {
            tracing::warn!(
                "GEM_CREATE in GDS/GWS/OA (domains {:#x}): the model has no such on-chip memory (EINVAL)",
                c.domains
            );
            return Err(libc::EINVAL);
        }
        if c.bo_size == 0 {
            return Err(libc::EINVAL);
        }
        let cap = crate::gpu::chip().memory_size;
        {
            let mut u = USAGE.lock();
            let used = if is_vram(c) { &mut u.0 } else { &mut u.1 };
            if *used + c.bo_size > cap {
                return Err(libc::ENOMEM);
            }
            *used += c.bo_size;
        }
        let mem = Memory::new(c.bo_size).map_err(|_| {
            Self::unaccount(c);
            libc::ENOMEM
        })?;
        Ok(Self::register(mem, *c))
    }

    /// A new BO over `mem`, known to [`ALL`].
    fn register(mem: Arc<Memory>, create: GemCreate) -> Arc<Gem> {
        let g = Arc::new(Gem {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            mem,
            create: Mutex::new(create),
            metadata: Mutex::new(None),
            vas: Mutex::new(Vec::new()),
            fence: Mutex::new(Fence::signaled()),
            handles: AtomicUsize::new(0),
        });
        ALL.lock().get_or_insert_with(HashMap::new).insert(g.id, g.clone());
        g
    }

    /// A BO over application memory (GEM_USERPTR): `size` bytes at `addr`, both page
    /// aligned, as amdgpu checks. Writable userptr BOs must be REGISTERed (amdgpu: EACCES
    /// otherwise); READONLY ones are refused (the model's VM has no read-only mappings), and
    /// ANONONLY/VALIDATE need nothing more here (the application's memory is used in place).
    /// The memory counts in no heap, as amdgpu pins it rather than allocating.
    ///
    /// # Safety
    /// The application keeps `addr..addr + size` mapped while the BO lives (amdgpu pins the
    /// pages; the shim cannot).
    pub unsafe fn from_user(addr: u64, size: u64, flags: u32) -> Result<Arc<Gem>, i32> {
        let known = gem::USERPTR_READONLY | gem::USERPTR_ANONONLY | gem::USERPTR_VALIDATE | gem::USERPTR_REGISTER;
        if flags & !known != 0 {
            return Err(libc::EINVAL);
        }
        if flags & gem::USERPTR_READONLY != 0 {
            tracing::warn!("GEM_USERPTR with READONLY: the model's VM has no read-only mappings (EINVAL)");
            return Err(libc::EINVAL);
        }
        if flags & gem::USERPTR_REGISTER == 0 {
            return Err(libc::EACCES);
        }
        // SAFETY: by the caller's contract.
        let mem = unsafe { Memory::from_host(addr as *mut u8, size) }.ok_or(libc::EINVAL)?;
        let create = GemCreate { bo_size: size, alignment: 0, domains: gem::DOMAIN_CPU, domain_flags: 0 };
        Ok(Self::register(mem, create))
    }

    fn unaccount(c: &GemCreate) {
        let mut u = USAGE.lock();
        let used = if is_vram(c) { &mut u.0 } else { &mut u.1 };
        *used -= c.bo_size;
    }

    pub fn size(&self) -> u64 {
        self.create.lock().bo_size
    }

    /// The offset GEM_MMAP gives for it.
    pub fn mmap_offset(&self) -> u64 {
        self.id << OFFSET_SHIFT
    }

    /// Called when the last handle to it (in any file) is closed: unmaps it from the GPU
    /// and forgets it; its memory goes once the CPU mappings and running work let go.
    pub fn release(self: &Arc<Gem>) {
        // Every mapping of its memory goes, sparse bindings (cut or not) included.
        self.vas.lock().clear();
        if let Ok(d) = crate::gpu::device() {
            d.address_space().unmap_memory(&self.mem);
        }
        // A userptr BO (`from_user`) was never counted.
        if ALL.lock().as_mut().and_then(|m| m.remove(&self.id)).is_some() && !self.mem.is_host() {
            Self::unaccount(&self.create.lock());
        }
    }

    pub fn set_metadata(&self, m: &GemMetadata) -> Result<(), i32> {
        if m.data_size_bytes as usize > 64 * 4 {
            return Err(libc::EINVAL);
        }
        *self.metadata.lock() =
            Some(Metadata { flags: m.flags, tiling_info: m.tiling_info, size: m.data_size_bytes, data: m.data });
        Ok(())
    }

    pub fn get_metadata(&self, m: &mut GemMetadata) {
        let md = *self.metadata.lock();
        let handle = m.handle;
        *m = GemMetadata::zeroed();
        m.handle = handle;
        if let Some(md) = md {
            m.flags = md.flags;
            m.tiling_info = md.tiling_info;
            m.data_size_bytes = md.size;
            m.data = md.data;
        }
    }
}

/// The BO `mmap` of the node at `offset` (for `len` bytes) reaches, and where in it.
pub fn by_offset(offset: u64, len: u64) -> Option<(Arc<Gem>, u64)> {
    let id = offset >> OFFSET_SHIFT;
    let g = ALL.lock().as_ref()?.get(&id).cloned()?;
    let within = offset - g.mmap_offset();
    (within.checked_add(len)? <= g.mem.size()).then_some((g, within))
}

/// CPU mappings of BOs handed out by `mmap` of the node: address → (BO, count).
static MAPPED: Mutex<Option<HashMap<usize, CpuMapping>>> = Mutex::new(None);

/// A BO handed out by `mmap`, and how many times at that address.
type CpuMapping = (Arc<Gem>, usize);

/// Records a CPU mapping of `g` at `addr` (the BO's own memory: the model and the CPU
/// share it).
pub fn note_mapped(addr: usize, g: Arc<Gem>) {
    let mut m = MAPPED.lock();
    let e = m.get_or_insert_with(HashMap::new).entry(addr).or_insert((g, 0));
    e.1 += 1;
}

/// Forgets one CPU mapping at `addr`; `false` when there is none.
pub fn note_unmapped(addr: usize) -> bool {
    let mut m = MAPPED.lock();
    let Some(map) = m.as_mut() else { return false };
    let Some(e) = map.get_mut(&addr) else { return false };
    e.1 -= 1;
    if e.1 == 0 {
        map.remove(&addr);
    }
    true
}

/// The size of a PRIME (dma-buf) memfd: marks it as ours, as node memfds are marked.
const PRIME_SIZE: i64 = 0x3D3A_B0F0;

/// Exported BOs by the inode of their dma-buf memfd.
static PRIME: Mutex<Option<HashMap<u64, Arc<Gem>>>> = Mutex::new(None);

/// A dma-buf descriptor for `g` (PRIME_HANDLE_TO_FD): a memfd the registry knows. Only this
/// process can import it: the model's memory is the process's own.
pub fn export(g: &Arc<Gem>, cloexec: bool) -> Result<i32, i32> {
    let flags = if cloexec { libc::MFD_CLOEXEC } else { 0 };
    // SAFETY: the name is a NUL-terminated literal.
    let fd = unsafe { libc::memfd_create(c"softnavi-dmabuf".as_ptr(), flags) };
    // SAFETY: fd is the memfd just made (or -1, which ftruncate refuses).
    if fd < 0 || unsafe { libc::ftruncate(fd, PRIME_SIZE) } != 0 {
        return Err(crate::errno());
    }
    let (_, ino, _) = crate::node::identity(fd).ok_or(libc::EIO)?;
    PRIME.lock().get_or_insert_with(HashMap::new).insert(ino, g.clone());
    Ok(fd)
}

/// The BO a dma-buf descriptor of ours stands for (PRIME_FD_TO_HANDLE).
pub fn import(fd: i32) -> Option<Arc<Gem>> {
    let (_, ino, size) = crate::node::identity(fd)?;
    if size != PRIME_SIZE {
        return None;
    }
    PRIME.lock().as_ref()?.get(&ino).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// amdgpu's GEM_USERPTR rules (`amdgpu_gem_userptr_ioctl`): unknown flags and unaligned
    /// ranges are EINVAL, a writable range not REGISTERed is EACCES; a BO over the range
    /// uses the application's bytes in place.
    #[test]
    fn userptr_bos_follow_amdgpus_rules() {
        let layout = std::alloc::Layout::from_size_align(8192, 4096).expect("layout"); // ok: test
                                                                                       // SAFETY: a non-zero size; freed below.
        let p = unsafe { std::alloc::alloc_zeroed(layout) };
        let (addr, flags) = (p as u64, gem::USERPTR_ANONONLY | gem::USERPTR_VALIDATE | gem::USERPTR_REGISTER);
        // SAFETY (every call): the allocation lives until the end of the test.
        unsafe {
            assert_eq!(Gem::from_user(addr, 8192, flags | 1 << 9).err(), Some(libc::EINVAL));
            assert_eq!(Gem::from_user(addr + 16, 4096, flags).err(), Some(libc::EINVAL));
            assert_eq!(Gem::from_user(addr, 100, flags).err(), Some(libc::EINVAL));
            assert_eq!(Gem::from_user(addr, 8192, gem::USERPTR_ANONONLY).err(), Some(libc::EACCES));
            let g = Gem::from_user(addr, 8192, flags).expect("a userptr BO"); // ok: test
            assert_eq!((g.mem.host_ptr(), g.mem.size(), g.mem.is_host()), (p, 8192, true));
            g.release();
            std::alloc::dealloc(p, layout);
        }
    }
}
