//! The exported libc functions. Each one answers for the render node (and its sysfs
//! files) and hands everything else to the next library unchanged. None lets a panic out:
//! a panic is logged and the call fails with EIO.

// These are libc's functions, called by C with libc's contracts on their pointers (the
// same contracts the real functions they forward to have), so they are not `unsafe fn`.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::{c_void, CStr};

use libc::{c_char, c_int, c_ulong, mode_t, off_t, size_t, ssize_t, DIR, FILE};

use crate::fs::{self, Target};
use crate::{node, real, set_errno};

thread_local!(static INSIDE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) });

/// Runs `f` as the shim's own work: the libc calls it makes pass straight through the
/// hooks (the shim's files are built with std's file functions, which are these hooks
/// when the shim is linked into a program).
pub fn as_shim<R>(f: impl FnOnce() -> R) -> R {
    let was = INSIDE.with(|i| i.replace(true));
    let r = f();
    INSIDE.with(|i| i.set(was));
    r
}

/// Runs a hook's own work, unless this thread is already inside one (the shim's own file
/// accesses), where `pass` runs instead. A panic becomes `fail` with errno EIO.
fn hook<R>(pass: impl FnOnce() -> R, fail: R, body: impl FnOnce() -> R) -> R {
    if INSIDE.with(|i| i.replace(true)) {
        return pass();
    }
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        crate::init_logging();
        body()
    }));
    INSIDE.with(|i| i.set(false));
    r.unwrap_or_else(|e| {
        let what = e.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| e.downcast_ref::<String>().cloned());
        tracing::error!(
            "softnavi amdgpu shim: internal error (panic: {}); the call fails with EIO",
            what.unwrap_or_default()
        );
        set_errno(libc::EIO);
        fail
    })
}

/// Where an absolute path goes; relative paths and NULL are not the shim's.
fn target(path: *const c_char) -> Target {
    if path.is_null() {
        return Target::Pass;
    }
    // SAFETY: a non-NULL path argument of a libc call is a NUL-terminated string.
    fs::resolve(unsafe { CStr::from_ptr(path) })
}

fn with_path<R>(path: *const c_char, node: impl FnOnce() -> R, other: impl FnOnce(*const c_char) -> R) -> R {
    match target(path) {
        Target::Node => node(),
        Target::Redirect(p) => other(p.as_ptr()),
        Target::Pass => other(path),
    }
}

fn open_node(flags: c_int) -> c_int {
    node::open(flags & libc::O_CLOEXEC != 0).unwrap_or_else(|e| {
        set_errno(e);
        -1
    })
}

#[no_mangle]
pub extern "C" fn open(path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    hook(|| real::open(path, flags, mode), -1, || with_path(path, || open_node(flags), |p| real::open(p, flags, mode)))
}

#[no_mangle]
pub extern "C" fn open64(path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    hook(
        || real::open64(path, flags, mode),
        -1,
        || with_path(path, || open_node(flags), |p| real::open64(p, flags, mode)),
    )
}

#[no_mangle]
pub extern "C" fn openat(dirfd: c_int, path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    hook(
        || real::openat(dirfd, path, flags, mode),
        -1,
        || with_path(path, || open_node(flags), |p| real::openat(dirfd, p, flags, mode)),
    )
}

#[no_mangle]
pub extern "C" fn openat64(dirfd: c_int, path: *const c_char, flags: c_int, mode: mode_t) -> c_int {
    hook(
        || real::openat64(dirfd, path, flags, mode),
        -1,
        || with_path(path, || open_node(flags), |p| real::openat64(dirfd, p, flags, mode)),
    )
}

fn fopen_node() -> *mut FILE {
    // A stdio stream on a DRM node is never what libdrm or RADV do.
    set_errno(libc::EACCES);
    std::ptr::null_mut()
}

#[no_mangle]
pub extern "C" fn fopen(path: *const c_char, mode: *const c_char) -> *mut FILE {
    hook(|| real::fopen(path, mode), std::ptr::null_mut(), || with_path(path, fopen_node, |p| real::fopen(p, mode)))
}

#[no_mangle]
pub extern "C" fn fopen64(path: *const c_char, mode: *const c_char) -> *mut FILE {
    hook(|| real::fopen64(path, mode), std::ptr::null_mut(), || with_path(path, fopen_node, |p| real::fopen64(p, mode)))
}

fn put_stat(buf: *mut libc::stat) -> c_int {
    if buf.is_null() {
        set_errno(libc::EFAULT);
        return -1;
    }
    // SAFETY: the caller's buffer holds a struct stat.
    unsafe { buf.write(fs::node_stat()) };
    0
}

fn stat_path(path: *const c_char, buf: *mut libc::stat, f: fn(*const c_char, *mut libc::stat) -> c_int) -> c_int {
    hook(|| f(path, buf), -1, || with_path(path, || put_stat(buf), |p| f(p, buf)))
}

#[no_mangle]
pub extern "C" fn stat(path: *const c_char, buf: *mut libc::stat) -> c_int {
    stat_path(path, buf, real::stat)
}

#[no_mangle]
pub extern "C" fn stat64(path: *const c_char, buf: *mut libc::stat) -> c_int {
    stat_path(path, buf, real::stat)
}

#[no_mangle]
pub extern "C" fn lstat(path: *const c_char, buf: *mut libc::stat) -> c_int {
    stat_path(path, buf, real::lstat)
}

#[no_mangle]
pub extern "C" fn lstat64(path: *const c_char, buf: *mut libc::stat) -> c_int {
    stat_path(path, buf, real::lstat)
}

fn fstat_fd(fd: c_int, buf: *mut libc::stat) -> c_int {
    hook(|| real::fstat(fd, buf), -1, || if node::is_node(fd) { put_stat(buf) } else { real::fstat(fd, buf) })
}

#[no_mangle]
pub extern "C" fn fstat(fd: c_int, buf: *mut libc::stat) -> c_int {
    fstat_fd(fd, buf)
}

#[no_mangle]
pub extern "C" fn fstat64(fd: c_int, buf: *mut libc::stat) -> c_int {
    fstat_fd(fd, buf)
}

fn fstatat_any(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int {
    hook(
        || real::fstatat(dirfd, path, buf, flags),
        -1,
        || {
            // SAFETY: a non-NULL path is a C string.
            let empty = !path.is_null() && unsafe { *path } == 0;
            if empty && flags & libc::AT_EMPTY_PATH != 0 && node::is_node(dirfd) {
                return put_stat(buf);
            }
            with_path(path, || put_stat(buf), |p| real::fstatat(dirfd, p, buf, flags))
        },
    )
}

#[no_mangle]
pub extern "C" fn fstatat(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int {
    fstatat_any(dirfd, path, buf, flags)
}

#[no_mangle]
pub extern "C" fn fstatat64(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int {
    fstatat_any(dirfd, path, buf, flags)
}

// The pre-2.33 glibc entry points (`__xstat` and friends; `ver` is 1 on x86-64), for
// libraries built against an older glibc.
#[no_mangle]
pub extern "C" fn __xstat(_ver: c_int, path: *const c_char, buf: *mut libc::stat) -> c_int {
    stat(path, buf)
}

#[no_mangle]
pub extern "C" fn __xstat64(_ver: c_int, path: *const c_char, buf: *mut libc::stat) -> c_int {
    stat(path, buf)
}

#[no_mangle]
pub extern "C" fn __lxstat(_ver: c_int, path: *const c_char, buf: *mut libc::stat) -> c_int {
    lstat(path, buf)
}

#[no_mangle]
pub extern "C" fn __lxstat64(_ver: c_int, path: *const c_char, buf: *mut libc::stat) -> c_int {
    lstat(path, buf)
}

#[no_mangle]
pub extern "C" fn __fxstat(_ver: c_int, fd: c_int, buf: *mut libc::stat) -> c_int {
    fstat(fd, buf)
}

#[no_mangle]
pub extern "C" fn __fxstat64(_ver: c_int, fd: c_int, buf: *mut libc::stat) -> c_int {
    fstat(fd, buf)
}

#[no_mangle]
pub extern "C" fn __fxstatat(
    _ver: c_int,
    dirfd: c_int,
    path: *const c_char,
    buf: *mut libc::stat,
    flags: c_int,
) -> c_int {
    fstatat(dirfd, path, buf, flags)
}

#[no_mangle]
pub extern "C" fn __fxstatat64(
    _ver: c_int,
    dirfd: c_int,
    path: *const c_char,
    buf: *mut libc::stat,
    flags: c_int,
) -> c_int {
    fstatat(dirfd, path, buf, flags)
}

#[no_mangle]
pub extern "C" fn statx(dirfd: c_int, path: *const c_char, flags: c_int, mask: u32, buf: *mut libc::statx) -> c_int {
    let put = || {
        if buf.is_null() {
            set_errno(libc::EFAULT);
            return -1;
        }
        // SAFETY: the caller's buffer holds a struct statx.
        unsafe { buf.write(fs::node_statx()) };
        0
    };
    hook(
        || real::statx(dirfd, path, flags, mask, buf),
        -1,
        || {
            // SAFETY: a non-NULL path is a C string.
            let empty = !path.is_null() && unsafe { *path } == 0;
            if empty && flags & libc::AT_EMPTY_PATH != 0 && node::is_node(dirfd) {
                return put();
            }
            with_path(path, put, |p| real::statx(dirfd, p, flags, mask, buf))
        },
    )
}

#[no_mangle]
pub extern "C" fn access(path: *const c_char, mode: c_int) -> c_int {
    hook(|| real::access(path, mode), -1, || with_path(path, || 0, |p| real::access(p, mode)))
}

#[no_mangle]
pub extern "C" fn faccessat(dirfd: c_int, path: *const c_char, mode: c_int, flags: c_int) -> c_int {
    hook(
        || real::faccessat(dirfd, path, mode, flags),
        -1,
        || with_path(path, || 0, |p| real::faccessat(dirfd, p, mode, flags)),
    )
}

fn not_a_link() -> ssize_t {
    set_errno(libc::EINVAL);
    -1
}

#[no_mangle]
pub extern "C" fn readlink(path: *const c_char, buf: *mut c_char, size: size_t) -> ssize_t {
    hook(|| real::readlink(path, buf, size), -1, || with_path(path, not_a_link, |p| real::readlink(p, buf, size)))
}

#[no_mangle]
pub extern "C" fn readlinkat(dirfd: c_int, path: *const c_char, buf: *mut c_char, size: size_t) -> ssize_t {
    hook(
        || real::readlinkat(dirfd, path, buf, size),
        -1,
        || with_path(path, not_a_link, |p| real::readlinkat(dirfd, p, buf, size)),
    )
}

#[no_mangle]
pub extern "C" fn opendir(path: *const c_char) -> *mut DIR {
    let not_dir = || {
        set_errno(libc::ENOTDIR);
        std::ptr::null_mut()
    };
    hook(|| real::opendir(path), std::ptr::null_mut(), || with_path(path, not_dir, real::opendir))
}

fn realpath_node(resolved: *mut c_char) -> *mut c_char {
    let src = fs::NODE_PATH.as_bytes();
    // SAFETY: malloc'ed as realpath does when `resolved` is NULL; else the caller's buffer
    // holds PATH_MAX bytes.
    unsafe {
        let out = if resolved.is_null() { libc::malloc(src.len() + 1).cast::<c_char>() } else { resolved };
        if out.is_null() {
            set_errno(libc::ENOMEM);
            return out;
        }
        std::ptr::copy_nonoverlapping(src.as_ptr().cast(), out, src.len());
        *out.add(src.len()) = 0;
        out
    }
}

#[no_mangle]
pub extern "C" fn realpath(path: *const c_char, resolved: *mut c_char) -> *mut c_char {
    hook(
        || real::realpath(path, resolved),
        std::ptr::null_mut(),
        || with_path(path, || realpath_node(resolved), |p| real::realpath(p, resolved)),
    )
}

/// The fortified realpath (`_FORTIFY_SOURCE`), which libdrm calls.
#[no_mangle]
pub extern "C" fn __realpath_chk(path: *const c_char, resolved: *mut c_char, resolved_len: size_t) -> *mut c_char {
    if !resolved.is_null() && resolved_len < libc::PATH_MAX as size_t {
        // glibc's own check: a buffer shorter than PATH_MAX is a fatal error.
        // SAFETY: abort has no preconditions.
        unsafe { libc::abort() };
    }
    realpath(path, resolved)
}

#[no_mangle]
pub extern "C" fn ioctl(fd: c_int, req: c_ulong, arg: *mut c_void) -> c_int {
    hook(
        || real::ioctl(fd, req, arg),
        -1,
        || match node::file(fd) {
            Some(f) => match crate::drm::ioctl(&f, req, arg) {
                Ok(r) => r,
                Err(e) => {
                    set_errno(e);
                    -1
                }
            },
            None => real::ioctl(fd, req, arg),
        },
    )
}

#[no_mangle]
pub extern "C" fn mmap(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    off: off_t,
) -> *mut c_void {
    hook(
        || real::mmap(addr, len, prot, flags, fd, off),
        libc::MAP_FAILED,
        || match (flags & libc::MAP_ANONYMOUS == 0).then(|| node::file(fd)).flatten() {
            Some(f) => crate::drm::mmap(&f, addr, len, prot, flags, off).unwrap_or_else(|e| {
                set_errno(e);
                libc::MAP_FAILED
            }),
            None => real::mmap(addr, len, prot, flags, fd, off),
        },
    )
}

#[no_mangle]
pub extern "C" fn mmap64(
    addr: *mut c_void,
    len: size_t,
    prot: c_int,
    flags: c_int,
    fd: c_int,
    off: off_t,
) -> *mut c_void {
    mmap(addr, len, prot, flags, fd, off)
}

#[no_mangle]
pub extern "C" fn munmap(addr: *mut c_void, len: size_t) -> c_int {
    hook(|| real::munmap(addr, len), -1, || if crate::drm::munmap(addr, len) { 0 } else { real::munmap(addr, len) })
}
