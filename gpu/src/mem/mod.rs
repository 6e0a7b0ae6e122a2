//! GPU virtual memory: a 48-bit address space of buffer objects (BOs) backed by host
//! memory, with translation and fault checks.
//!
//! A BO's host memory never moves while the BO lives, so the ICD can map it once and the
//! GPU threads can translate an address to a host pointer. Shaders and the command
//! processor reach memory only through [`AddressSpace::translate`] (or a [`Tlb`] over it),
//! so an access outside every BO is a VM fault, never a host crash. BOs are separated by
//! an unmapped guard page, so an access running off the end of one faults too.
//!
//! Concurrent accesses by different waves to the same bytes race exactly as they do on
//! the hardware (the application's business); atomics use host atomic instructions.

pub mod atomic;

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use parking_lot::RwLock;

pub const PAGE: u64 = 4096;
/// Lowest address handed out: the first 4 GiB stay unmapped so that small integers used
/// as pointers fault.
const VA_START: u64 = 1 << 32;
/// End of the range [`AddressSpace::alloc`] hands out: the low half of the 48-bit space.
/// The high half is left to [`AddressSpace::map_at`], where a kernel-driver interface puts
/// the addresses user space picks (amdgpu's "high" VA range).
const VA_END: u64 = 1 << 47;
/// GPU virtual addresses are 48 bits: the bits above are ignored, so that user space may
/// write the high half sign-extended (0xffff_8000_0000_0000 and up), as amdgpu lets it.
pub const VA_MASK: u64 = (1 << 48) - 1;

/// Host memory for buffer objects: an anonymous mapping, page aligned, and zeroed lazily by
/// the kernel, so that a large one costs nothing until it is touched. One may back BOs at
/// several addresses ([`AddressSpace::map_at`]).
pub struct Memory {
    map: Backing,
}

enum Backing {
    Anon(memmap2::MmapMut),
    /// Memory its owner keeps alive ([`Memory::from_host`]).
    Host {
        ptr: *mut u8,
        len: u64,
    },
}

// SAFETY: a Host backing is memory its creator guarantees valid for the Memory's life
// (`from_host`); accesses through it are synchronised like any BO's (the module docs).
unsafe impl Send for Memory {}
// SAFETY: as above.
unsafe impl Sync for Memory {}

impl Memory {
    /// `size` bytes, rounded up to a page.
    pub fn new(size: u64) -> std::io::Result<Arc<Memory>> {
        let size = size.max(1).div_ceil(PAGE) * PAGE;
        let map = memmap2::MmapMut::map_anon(usize::try_from(size).map_err(std::io::Error::other)?)?;
        Ok(Arc::new(Memory { map: Backing::Anon(map) }))
    }

    /// The `len` bytes at `ptr`, which the caller owns: what amdgpu's userptr BOs and
    /// Vulkan's imported host allocations are. `None` unless both are page aligned and
    /// `len` is not 0.
    ///
    /// # Safety
    /// `ptr..ptr + len` must stay valid for reads and writes while the Memory, and every BO
    /// mapped over it, lives.
    pub unsafe fn from_host(ptr: *mut u8, len: u64) -> Option<Arc<Memory>> {
        let aligned = (ptr as u64) % PAGE == 0 && len % PAGE == 0 && len > 0 && !ptr.is_null();
        aligned.then(|| Arc::new(Memory { map: Backing::Host { ptr, len } }))
    }

    pub fn size(&self) -> u64 {
        match &self.map {
            Backing::Anon(m) => m.len() as u64,
            Backing::Host { len, .. } => *len,
        }
    }

    /// Host address of the first byte; valid for `size` bytes while the Memory lives.
    pub fn host_ptr(&self) -> *mut u8 {
        match &self.map {
            Backing::Anon(m) => m.as_ptr() as *mut u8,
            Backing::Host { ptr, .. } => *ptr,
        }
    }

    /// Whether it is memory of its owner's ([`Self::from_host`]).
    pub fn is_host(&self) -> bool {
        matches!(self.map, Backing::Host { .. })
    }
}

/// A buffer object: host memory that is mapped at a GPU virtual address. The memory is an
/// anonymous mapping: page aligned, and zeroed lazily by the kernel, so allocating a large
/// BO costs nothing until it is touched.
pub struct Bo {
    va: u64,
    size: u64,
    ptr: *mut u8,
    /// Where GPU writes go: `ptr`, except in a PRT mapping ([`AddressSpace::map_prt`]),
    /// whose writes land in memory nothing reads.
    wptr: *mut u8,
    _mem: Arc<Memory>,
    _sink: Option<Arc<Memory>>,
}

// SAFETY: the mapping is held by the Bo and only unmapped when it drops; access through
// the raw pointer is synchronised by the GPU programming model (see the module docs).
unsafe impl Send for Bo {}
// SAFETY: as above.
unsafe impl Sync for Bo {}

impl Bo {
    /// A mapping of `size` bytes at `va` over `mem`'s bytes from `ptr`.
    fn new(va: u64, size: u64, ptr: *mut u8, mem: Arc<Memory>) -> Bo {
        Bo { va, size, ptr, wptr: ptr, _mem: mem, _sink: None }
    }

    /// `[from, to)` of this mapping (inside it) as a mapping of its own.
    fn cut(&self, from: u64, to: u64) -> Bo {
        let k = (from - self.va) as usize;
        // SAFETY: from lies inside the mapping, so k < size and both pointers stay inside
        // their memory.
        let (ptr, wptr) = unsafe { (self.ptr.add(k), self.wptr.add(k)) };
        Bo { va: from, size: to - from, ptr, wptr, _mem: self._mem.clone(), _sink: self._sink.clone() }
    }

    pub fn va(&self) -> u64 {
        self.va
    }

    pub fn size(&self) -> u64 {
        self.size
    }

    /// Host address of the BO's first byte; valid for `size` bytes while the Bo lives.
    pub fn host_ptr(&self) -> *mut u8 {
        self.ptr
    }

    fn contains(&self, va: u64, len: u64) -> bool {
        va >= self.va && va.checked_add(len).is_some_and(|end| end <= self.va + self.size)
    }
}

/// Why an access failed translation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VmFault {
    pub addr: u64,
    pub len: u64,
    pub write: bool,
}

/// Why [`AddressSpace::map_at`] refused a mapping.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum MapError {
    #[error("cannot map {size:#x} bytes at {va:#x}: not page aligned, outside the memory, or outside the mappable high half of the address space")]
    Invalid { va: u64, size: u64 },
    #[error("cannot map {size:#x} bytes at {va:#x}: the range overlaps a mapping")]
    Busy { va: u64, size: u64 },
    #[error("cannot map {size:#x} bytes at {va:#x}: out of host memory")]
    NoMemory { va: u64, size: u64 },
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum AllocError {
    #[error("out of GPU memory: {requested} bytes requested, {available} available")]
    OutOfMemory { requested: u64, available: u64 },
    #[error("GPU virtual address space exhausted")]
    OutOfAddressSpace,
}

struct Inner {
    /// Mapped BOs by start address.
    bos: BTreeMap<u64, Arc<Bo>>,
    /// Free address ranges (start → size), coalesced.
    free: BTreeMap<u64, u64>,
    allocated: u64,
}

/// The GPU virtual address space of one device.
pub struct AddressSpace {
    inner: RwLock<Inner>,
    capacity: u64,
    /// Bumped by every [`AddressSpace::free`]: a [`Tlb`] that filled its entries under an
    /// older value drops them, so that it never reaches a freed BO through an address a
    /// new BO took over.
    generation: AtomicU64,
}

impl AddressSpace {
    /// An empty address space that can hold `capacity` bytes of BOs.
    pub fn new(capacity: u64) -> Self {
        let mut free = BTreeMap::new();
        free.insert(VA_START, VA_END - VA_START);
        AddressSpace {
            inner: RwLock::new(Inner { bos: BTreeMap::new(), free, allocated: 0 }),
            capacity,
            generation: AtomicU64::new(0),
        }
    }

    /// Allocates a zeroed BO of at least `size` bytes, aligned to `align` (a power of two,
    /// at least a page).
    pub fn alloc(&self, size: u64, align: u64) -> Result<Arc<Bo>, AllocError> {
        self.place(size, align, None)
    }

    /// Maps all of `mem` (memory of its owner's, [`Memory::from_host`]: Vulkan's imported
    /// host allocations) at an address [`Self::alloc`] would hand out, counted as an
    /// allocation.
    pub fn import(&self, mem: Arc<Memory>, align: u64) -> Result<Arc<Bo>, AllocError> {
        self.place(mem.size(), align, Some(mem))
    }

    /// A BO of `size` bytes at a free address aligned to `align`, over `mem`, or over new
    /// zeroed memory.
    fn place(&self, size: u64, align: u64, mem: Option<Arc<Memory>>) -> Result<Arc<Bo>, AllocError> {
        let size = size.max(1).div_ceil(PAGE) * PAGE;
        let align = align.max(PAGE).next_power_of_two();
        let mut g = self.inner.write();
        if g.allocated + size > self.capacity {
            return Err(AllocError::OutOfMemory { requested: size, available: self.capacity - g.allocated });
        }
        // First fit, leaving a guard page after the BO.
        let need = size + PAGE;
        let (start, hole) = g
            .free
            .iter()
            .find_map(|(&s, &len)| {
                let a = s.div_ceil(align) * align;
                (a + need <= s + len).then_some((a, (s, len)))
            })
            .ok_or(AllocError::OutOfAddressSpace)?;
        g.free.remove(&hole.0);
        if start > hole.0 {
            g.free.insert(hole.0, start - hole.0);
        }
        let tail = start + need;
        if tail < hole.0 + hole.1 {
            g.free.insert(tail, hole.0 + hole.1 - tail);
        }
        let mem = match mem.map_or_else(|| Memory::new(size), Ok) {
            Ok(m) => m,
            Err(_) => {
                // Give the address range back before failing.
                drop(g);
                self.release_range(start, size);
                return Err(AllocError::OutOfMemory { requested: size, available: 0 });
            }
        };
        let bo = Arc::new(Bo::new(start, size, mem.host_ptr(), mem));
        g.bos.insert(start, bo.clone());
        g.allocated += size;
        Ok(bo)
    }

    /// Maps `size` bytes of `mem` from `offset` at `va` (its low 48 bits), as a kernel
    /// driver maps a buffer object at the address user space chose. The range must be
    /// page aligned, inside `mem`, and free: not mapped, not reserved for [`Self::alloc`].
    /// The memory is not counted against the capacity: its creator accounts for it.
    pub fn map_at(&self, va: u64, mem: &Arc<Memory>, offset: u64, size: u64) -> Result<Arc<Bo>, MapError> {
        let va = va & VA_MASK;
        if offset % PAGE != 0 || offset.checked_add(size).is_none_or(|e| e > mem.size()) {
            return Err(MapError::Invalid { va, size });
        }
        // SAFETY: offset + size <= mem.size(), checked above.
        let ptr = unsafe { mem.host_ptr().add(offset as usize) };
        self.insert(Bo::new(va, size, ptr, mem.clone()))
    }

    /// Maps `size` bytes at `va` as the unbound pages of a partially resident resource
    /// (amdgpu's PRT pages, what a sparse resource's unbound parts are): reads give 0 and
    /// writes are dropped, as Vulkan's residencyNonResidentStrict says. The range must be
    /// free, as for [`Self::map_at`].
    pub fn map_prt(&self, va: u64, size: u64) -> Result<Arc<Bo>, MapError> {
        let va = va & VA_MASK;
        let memory = || Memory::new(size).map_err(|_| MapError::NoMemory { va, size });
        let (zero, sink) = (memory()?, memory()?);
        let mut bo = Bo::new(va, size, zero.host_ptr(), zero);
        bo.wptr = sink.host_ptr();
        bo._sink = Some(sink);
        self.insert(bo)
    }

    /// Inserts mapping `bo`, whose range must be page aligned, in the high half and free.
    fn insert(&self, bo: Bo) -> Result<Arc<Bo>, MapError> {
        let (va, size) = (bo.va, bo.size);
        if va % PAGE != 0 || size % PAGE != 0 || size == 0 || va < VA_END || va + size > VA_MASK + 1 {
            return Err(MapError::Invalid { va, size });
        }
        let mut g = self.inner.write();
        let clash = g.bos.range(..va + size).next_back().is_some_and(|(_, b)| b.va + b.size > va);
        if clash {
            return Err(MapError::Busy { va, size });
        }
        let bo = Arc::new(bo);
        g.bos.insert(va, bo.clone());
        Ok(bo)
    }

    /// Removes the mapping [`Self::map_at`] made at `va`; GPU accesses to it fault from now on.
    pub fn unmap_at(&self, va: u64) -> bool {
        let va = va & VA_MASK;
        if va < VA_END {
            return false;
        }
        let mut g = self.inner.write();
        let gone = g.bos.remove(&va).is_some();
        if gone {
            self.generation.fetch_add(1, Ordering::Release);
        }
        gone
    }

    /// Removes every mapping [`Self::map_at`] made in `[va, va + size)`, cutting the ones
    /// that cross its ends (what amdgpu's GEM_VA CLEAR and REPLACE do first: sparse
    /// resources bind and unbind pages inside one reservation). `false` when nothing was
    /// mapped there.
    pub fn clear_range(&self, va: u64, size: u64) -> Result<bool, MapError> {
        let va = va & VA_MASK;
        if va % PAGE != 0 || size % PAGE != 0 || va < VA_END || va.checked_add(size).is_none_or(|e| e > VA_MASK + 1) {
            return Err(MapError::Invalid { va, size });
        }
        let end = va + size;
        let mut g = self.inner.write();
        // Mappings do not overlap, so their ends grow with their starts.
        let hit: Vec<Arc<Bo>> =
            g.bos.range(..end).rev().take_while(|(_, b)| b.va + b.size > va).map(|(_, b)| b.clone()).collect();
        for b in &hit {
            g.bos.remove(&b.va);
            if b.va < va {
                g.bos.insert(b.va, Arc::new(b.cut(b.va, va)));
            }
            let b_end = b.va + b.size;
            if b_end > end {
                g.bos.insert(end, Arc::new(b.cut(end, b_end)));
            }
        }
        if !hit.is_empty() {
            self.generation.fetch_add(1, Ordering::Release);
        }
        Ok(!hit.is_empty())
    }

    /// Removes every mapping [`Self::map_at`] made of `mem`, wherever it is (a buffer
    /// object's mappings go with its last handle, sparse bindings included); how many.
    pub fn unmap_memory(&self, mem: &Arc<Memory>) -> usize {
        let mut g = self.inner.write();
        let of: Vec<u64> = g.bos.range(VA_END..).filter(|(_, b)| Arc::ptr_eq(&b._mem, mem)).map(|(&v, _)| v).collect();
        for v in &of {
            g.bos.remove(v);
        }
        if !of.is_empty() {
            self.generation.fetch_add(1, Ordering::Release);
        }
        of.len()
    }

    /// Unmaps the BO at `va`. Its memory is freed once no wave or queue still holds it.
    pub fn free(&self, va: u64) -> bool {
        let mut g = self.inner.write();
        let Some(bo) = g.bos.remove(&va) else { return false };
        g.allocated -= bo.size;
        self.generation.fetch_add(1, Ordering::Release);
        drop(g);
        self.release_range(bo.va, bo.size);
        true
    }

    /// Returns `[start, start + size)` and its guard page to the free list, merging
    /// neighbours.
    fn release_range(&self, start: u64, size: u64) {
        let mut g = self.inner.write();
        let (mut start, mut len) = (start, size + PAGE);
        if let Some((&ps, &pl)) = g.free.range(..start).next_back() {
            if ps + pl == start {
                g.free.remove(&ps);
                start = ps;
                len += pl;
            }
        }
        if let Some(&nl) = g.free.get(&(start + len)) {
            g.free.remove(&(start + len));
            len += nl;
        }
        g.free.insert(start, len);
    }

    /// The BO containing `[va, va + len)`, if one does.
    pub fn lookup(&self, va: u64, len: u64) -> Option<Arc<Bo>> {
        let va = va & VA_MASK;
        let g = self.inner.read();
        let (_, bo) = g.bos.range(..=va).next_back()?;
        bo.contains(va, len).then(|| bo.clone())
    }

    /// The bytes from `va` to the end of the mapping holding it (accesses longer than that
    /// continue in the next mapping, if any), or `None` where nothing is mapped.
    pub fn room(&self, va: u64) -> Option<u64> {
        let bo = self.lookup(va, 1)?;
        Some(bo.va + bo.size - (va & VA_MASK))
    }

    /// Whether `va` lies in PRT pages ([`Self::map_prt`]): a sparse resource's unbound
    /// part, where fetches with TFE report the texel not resident.
    pub fn is_prt(&self, va: u64) -> bool {
        self.lookup(va, 1).is_some_and(|b| b._sink.is_some())
    }

    /// Bytes allocated in BOs.
    pub fn allocated(&self) -> u64 {
        self.inner.read().allocated
    }

    pub fn capacity(&self) -> u64 {
        self.capacity
    }

    /// Copies `out.len()` bytes from GPU address `va`.
    pub fn read(&self, va: u64, out: &mut [u8]) -> Result<(), VmFault> {
        Tlb::default().read(self, va, out)
    }

    /// Copies `data` to GPU address `va`.
    pub fn write(&self, va: u64, data: &[u8]) -> Result<(), VmFault> {
        Tlb::default().write(self, va, data)
    }
}

/// Entries of a [`Tlb`]: enough for the few BOs one wave's instructions alternate between
/// (saxpy's x and y, a kernel's arguments and its buffers).
const TLB_ENTRIES: usize = 4;

/// One cached translation: the BO's range and host address.
#[derive(Clone, Copy)]
struct TlbEntry {
    va: u64,
    end: u64,
    ptr: *mut u8,
    wptr: *mut u8,
}

impl TlbEntry {
    /// An entry that contains nothing.
    const EMPTY: TlbEntry = TlbEntry { va: u64::MAX, end: 0, ptr: std::ptr::null_mut(), wptr: std::ptr::null_mut() };

    #[inline(always)]
    fn contains(&self, va: u64, len: u64) -> bool {
        va >= self.va && va.checked_add(len).is_some_and(|end| end <= self.end)
    }
}

/// A small translation cache over an [`AddressSpace`]: each WGP worker and each command
/// processor keep one, so that accesses to the few BOs a kernel uses skip the map lookup
/// (and its lock). It holds the BOs it caches alive, and drops them all when a BO of the
/// space was freed since it filled them (the space's generation).
pub struct Tlb {
    entries: [TlbEntry; TLB_ENTRIES],
    bos: [Option<Arc<Bo>>; TLB_ENTRIES],
    /// The entry the next miss replaces (round robin).
    next: usize,
    generation: u64,
}

// SAFETY: the entries' pointers point into the mappings of the BOs in `bos`, which the
// Tlb owns references to; moving the Tlb to another thread moves those references too.
unsafe impl Send for Tlb {}

impl Default for Tlb {
    fn default() -> Tlb {
        Tlb { entries: [TlbEntry::EMPTY; TLB_ENTRIES], bos: Default::default(), next: 0, generation: 0 }
    }
}

impl Tlb {
    /// Host pointer for `[va, va + len)`, which must lie in one BO.
    #[inline]
    pub fn translate(&mut self, space: &AddressSpace, va: u64, len: u64, write: bool) -> Result<*mut u8, VmFault> {
        let va = va & VA_MASK;
        if space.generation.load(Ordering::Acquire) == self.generation {
            for e in &self.entries {
                if e.contains(va, len) {
                    let base = if write { e.wptr } else { e.ptr };
                    // SAFETY: contains() checked that the range lies in the BO's mapping,
                    // which the entry's BO keeps alive.
                    return Ok(unsafe { base.add((va - e.va) as usize) });
                }
            }
        }
        self.fill(space, va, len, write)
    }

    /// The miss path: looks the BO up and caches it.
    #[inline(never)]
    fn fill(&mut self, space: &AddressSpace, va: u64, len: u64, write: bool) -> Result<*mut u8, VmFault> {
        let generation = space.generation.load(Ordering::Acquire);
        if generation != self.generation {
            *self = Tlb { generation, ..Tlb::default() };
        }
        let bo = space.lookup(va, len).ok_or(VmFault { addr: va, len, write })?;
        // SAFETY: lookup() checked that the range lies in the allocation.
        let p = unsafe { if write { bo.wptr } else { bo.ptr }.add((va - bo.va) as usize) };
        let i = self.next;
        self.next = (i + 1) % TLB_ENTRIES;
        self.entries[i] = TlbEntry { va: bo.va, end: bo.va + bo.size, ptr: bo.ptr, wptr: bo.wptr };
        self.bos[i] = Some(bo);
        Ok(p)
    }

    pub fn read(&mut self, space: &AddressSpace, va: u64, out: &mut [u8]) -> Result<(), VmFault> {
        let p = self.translate(space, va, out.len() as u64, false)?;
        // SAFETY: translate() returned a pointer valid for out.len() bytes.
        unsafe { std::ptr::copy_nonoverlapping(p, out.as_mut_ptr(), out.len()) };
        Ok(())
    }

    pub fn write(&mut self, space: &AddressSpace, va: u64, data: &[u8]) -> Result<(), VmFault> {
        let p = self.translate(space, va, data.len() as u64, true)?;
        // SAFETY: translate() returned a pointer valid for data.len() bytes.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), p, data.len()) };
        Ok(())
    }

    #[inline]
    pub fn read_u32(&mut self, space: &AddressSpace, va: u64) -> Result<u32, VmFault> {
        let p = self.translate(space, va, 4, false)?;
        // SAFETY: translate() returned a pointer valid for 4 bytes.
        Ok(unsafe { (p as *const u32).read_unaligned() })
    }

    #[inline]
    pub fn write_u32(&mut self, space: &AddressSpace, va: u64, v: u32) -> Result<(), VmFault> {
        let p = self.translate(space, va, 4, true)?;
        // SAFETY: translate() returned a pointer valid for 4 bytes.
        unsafe { (p as *mut u32).write_unaligned(v) };
        Ok(())
    }

    pub fn read_u64(&mut self, space: &AddressSpace, va: u64) -> Result<u64, VmFault> {
        let mut b = [0u8; 8];
        self.read(space, va, &mut b)?;
        Ok(u64::from_le_bytes(b))
    }

    pub fn write_u64(&mut self, space: &AddressSpace, va: u64, v: u64) -> Result<(), VmFault> {
        self.write(space, va, &v.to_le_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn alloc_translate_fault_and_free() {
        let s = AddressSpace::new(1 << 30);
        let a = s.alloc(100, 0).unwrap();
        let b = s.alloc(8192, 65536).unwrap();
        assert_eq!(a.size(), PAGE);
        assert_eq!(b.va() % 65536, 0);
        assert!(b.va() >= a.va() + a.size() + PAGE, "guard page between BOs");
        s.write(a.va() + 8, &[1, 2, 3, 4]).unwrap();
        let mut out = [0u8; 4];
        s.read(a.va() + 8, &mut out).unwrap();
        assert_eq!(out, [1, 2, 3, 4]);
        // Running off the end of a BO or touching unmapped memory faults.
        assert_eq!(s.read(a.va() + PAGE - 2, &mut out), Err(VmFault { addr: a.va() + PAGE - 2, len: 4, write: false }));
        assert!(s.write(0x1000, &[0]).is_err());
        let va = a.va();
        assert!(s.free(va));
        assert!(s.read(va, &mut out).is_err());
        assert!(!s.free(va));
        // The freed range is reused.
        let c = s.alloc(100, 0).unwrap();
        assert_eq!(c.va(), va);
    }

    /// A TLB keeps several BOs, and never reaches a freed BO through an address that a
    /// new BO took over.
    #[test]
    fn tlb_holds_several_bos_and_forgets_freed_ones() {
        let s = AddressSpace::new(1 << 30);
        let bos: Vec<_> = (0..6).map(|_| s.alloc(PAGE, 0).unwrap()).collect();
        let mut tlb = Tlb::default();
        for (i, bo) in bos.iter().enumerate() {
            tlb.write_u32(&s, bo.va() + 4, i as u32).unwrap();
        }
        for (i, bo) in bos.iter().enumerate().rev() {
            assert_eq!(tlb.read_u32(&s, bo.va() + 4), Ok(i as u32));
            assert_eq!(tlb.translate(&s, bo.va(), PAGE, false).unwrap(), bo.host_ptr());
            // Ranges that run off the BO fault, whatever is cached.
            let f = VmFault { addr: bo.va() + PAGE - 2, len: 4, write: true };
            assert_eq!(tlb.write_u32(&s, bo.va() + PAGE - 2, 0), Err(f));
        }
        let va = bos[5].va();
        tlb.read_u32(&s, va).unwrap();
        assert!(s.free(va));
        drop(bos);
        assert!(tlb.read_u32(&s, va).is_err(), "a freed BO is not reachable through the TLB");
        let c = s.alloc(PAGE, 0).unwrap();
        assert_eq!(c.va(), va);
        tlb.write_u32(&s, va + 8, 77).unwrap();
        assert_eq!(unsafe { (c.host_ptr().add(8) as *const u32).read() }, 77);
    }

    /// Memory mapped at an address user space chose (sign-extended high half), reached
    /// through either spelling of the address; overlaps refused; unmapped ranges fault.
    #[test]
    fn map_at_a_chosen_high_address() {
        let s = AddressSpace::new(1 << 30);
        let mem = Memory::new(3 * PAGE).unwrap();
        let va = 0xffff_8000_0001_0000;
        let bo = s.map_at(va, &mem, PAGE, 2 * PAGE).unwrap();
        assert_eq!(bo.va(), 0x8000_0001_0000);
        s.write(va + 4, &[9, 8]).unwrap();
        let mut out = [0u8; 2];
        s.read(0x8000_0001_0004, &mut out).unwrap();
        assert_eq!(out, [9, 8]);
        assert_eq!(unsafe { *mem.host_ptr().add(PAGE as usize + 4) }, 9, "the mapping starts at the offset");
        assert_eq!(s.map_at(va + PAGE, &mem, 0, PAGE).err(), Some(MapError::Busy { va: 0x8000_0001_1000, size: PAGE }));
        assert!(matches!(s.map_at(0x1_0000_0000, &mem, 0, PAGE), Err(MapError::Invalid { .. })), "low half is alloc's");
        assert!(matches!(s.map_at(va + 2 * PAGE, &mem, 2 * PAGE, 2 * PAGE), Err(MapError::Invalid { .. })));
        let mut tlb = Tlb::default();
        tlb.read_u32(&s, va).unwrap();
        assert!(s.unmap_at(va));
        assert!(tlb.read_u32(&s, va).is_err(), "unmapped: faults, even through a TLB that had it");
        assert!(!s.unmap_at(va));
    }

    /// Sparse binding as amdgpu's GEM_VA REPLACE does it: a reservation's middle pages
    /// cleared (the mappings crossing the range cut, their outer parts still reaching the
    /// same bytes) and another memory mapped there; a memory's mappings all removed with it.
    #[test]
    fn clear_range_cuts_mappings_and_unmap_memory_removes_them_all() {
        let s = AddressSpace::new(1 << 30);
        let va = 0x8000_0002_0000;
        let (reserve, page) = (Memory::new(4 * PAGE).unwrap(), Memory::new(PAGE).unwrap());
        s.map_at(va, &reserve, 0, 4 * PAGE).unwrap();
        let mut tlb = Tlb::default();
        tlb.write_u32(&s, va + PAGE + 8, 5).unwrap();
        assert!(s.clear_range(va + PAGE, 2 * PAGE).unwrap());
        assert!(tlb.read_u32(&s, va + PAGE + 8).is_err(), "cleared: faults, even through a TLB that had it");
        s.map_at(va + 2 * PAGE, &page, 0, PAGE).unwrap();
        tlb.write_u32(&s, va + 2 * PAGE, 7).unwrap();
        tlb.write_u32(&s, va + 3 * PAGE + 4, 9).unwrap();
        assert_eq!(unsafe { (page.host_ptr() as *const u32).read() }, 7);
        assert_eq!(
            unsafe { (reserve.host_ptr().add(3 * PAGE as usize + 4) as *const u32).read() },
            9,
            "the tail keeps its bytes"
        );
        assert!(tlb.read_u32(&s, va).is_ok() && tlb.read_u32(&s, va + PAGE).is_err());
        assert!(!s.clear_range(va + PAGE, PAGE).unwrap(), "nothing mapped there");
        assert!(matches!(s.clear_range(va + 1, PAGE), Err(MapError::Invalid { .. })));
        assert_eq!(s.unmap_memory(&reserve), 2, "the head and the tail");
        assert!(tlb.read_u32(&s, va).is_err() && tlb.read_u32(&s, va + 2 * PAGE).is_ok());
        assert_eq!(s.unmap_memory(&page), 1);
    }

    /// PRT pages (a sparse resource's unbound parts): reads give 0 and writes are dropped,
    /// also through a TLB that cached the mapping and in the parts a clear leaves.
    #[test]
    fn prt_pages_read_zero_and_drop_writes() {
        let s = AddressSpace::new(1 << 30);
        let va = 0x8000_0004_0000;
        s.map_prt(va, 3 * PAGE).unwrap();
        assert!(s.is_prt(va + PAGE) && !s.is_prt(va + 3 * PAGE));
        let mut tlb = Tlb::default();
        tlb.write_u32(&s, va + 16, 5).unwrap();
        assert_eq!(tlb.read_u32(&s, va + 16).unwrap(), 0);
        assert_eq!(s.read(va + 16, &mut [0u8; 4]).map(|_| ()), Ok(()));
        s.clear_range(va + PAGE, PAGE).unwrap();
        tlb.write_u32(&s, va + 2 * PAGE, 6).unwrap();
        assert_eq!(tlb.read_u32(&s, va + 2 * PAGE).unwrap(), 0, "the tail is still PRT");
        assert!(tlb.read_u32(&s, va + PAGE).is_err());
        assert!(matches!(s.map_prt(va, PAGE), Err(MapError::Busy { .. })));
    }

    #[test]
    fn capacity_is_enforced() {
        let s = AddressSpace::new(2 * PAGE);
        let _a = s.alloc(PAGE, 0).unwrap();
        assert!(matches!(s.alloc(2 * PAGE, 0), Err(AllocError::OutOfMemory { .. })));
    }
}
