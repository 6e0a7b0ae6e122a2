//! Open render-node files. Opening the node makes a memfd (a real descriptor the
//! application owns, which `dup`, `fcntl(F_DUPFD)`, `close` and `fork` treat as they
//! would any file) that stands for one DRM file: GEM handles, contexts and syncobjs belong
//! to it, as they belong to a `drm_file` in the kernel, and every descriptor duplicated
//! from it reaches the same one. A descriptor is recognised by its inode (and a size no
//! other memfd of ours has), so nothing needs to watch `dup` or `close`.

use std::collections::HashMap;
use std::sync::Arc;

use parking_lot::Mutex;

use crate::drm::DrmFile;

/// The size given to a node memfd: odd enough that a foreign memfd which took over the
/// inode number of a closed node is not mistaken for one.
const NODE_SIZE: i64 = 0x5_0F7A_D6B0;

/// Open DRM files by the inode of their memfd.
static FILES: Mutex<Option<HashMap<u64, Arc<DrmFile>>>> = Mutex::new(None);

/// `(st_dev, st_ino, st_size)` of a descriptor, from the kernel (no libc hook involved).
pub fn identity(fd: libc::c_int) -> Option<(u64, u64, i64)> {
    if fd < 0 {
        return None;
    }
    // SAFETY: fstat writes a struct stat into `st`.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: as above; a bad descriptor makes the syscall fail, nothing else.
    let r = unsafe { libc::syscall(libc::SYS_fstat, fd, &mut st as *mut libc::stat) };
    (r == 0).then_some((st.st_dev, st.st_ino, st.st_size))
}

/// The DRM file `fd` refers to, if it is a render node descriptor.
pub fn file(fd: libc::c_int) -> Option<Arc<DrmFile>> {
    let (_, ino, size) = identity(fd)?;
    if size != NODE_SIZE {
        return None;
    }
    FILES.lock().as_ref()?.get(&ino).cloned()
}

pub fn is_node(fd: libc::c_int) -> bool {
    file(fd).is_some()
}

/// Opens the render node: a new DRM file. Errors are errno values.
pub fn open(cloexec: bool) -> Result<libc::c_int, i32> {
    let flags = if cloexec { libc::MFD_CLOEXEC } else { 0 };
    // SAFETY: the name is a NUL-terminated literal.
    let fd = unsafe { libc::memfd_create(c"softnavi-renderD128".as_ptr(), flags) };
    if fd < 0 {
        return Err(crate::errno());
    }
    // SAFETY: fd is the memfd just made.
    if unsafe { libc::ftruncate(fd, NODE_SIZE) } != 0 {
        let e = crate::errno();
        // SAFETY: as above.
        unsafe { libc::close(fd) };
        return Err(e);
    }
    let Some((_, ino, _)) = identity(fd) else {
        // SAFETY: as above.
        unsafe { libc::close(fd) };
        return Err(libc::EIO);
    };
    FILES.lock().get_or_insert_with(HashMap::new).insert(ino, Arc::new(DrmFile::new()));
    tracing::debug!("opened the render node as fd {fd}");
    Ok(fd)
}
