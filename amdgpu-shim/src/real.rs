//! The libc functions the hooks stand in front of, found with `dlsym(RTLD_NEXT, ...)`.

// Forwarders to libc functions, with libc's contracts on their pointer arguments.
#![allow(clippy::not_unsafe_ptr_arg_deref)]

use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A lazily found libc function.
pub struct Real {
    name: &'static [u8],
    addr: AtomicUsize,
}

impl Real {
    /// `name` ends in a NUL.
    pub const fn new(name: &'static [u8]) -> Real {
        Real { name, addr: AtomicUsize::new(0) }
    }

    /// The function's address; `None` when no library after this one defines it.
    pub fn get(&self) -> Option<*mut c_void> {
        let a = self.addr.load(Ordering::Relaxed);
        if a != 0 {
            return Some(a as *mut c_void);
        }
        // SAFETY: `name` is NUL-terminated (checked by the constructor's callers: every
        // use is a literal through `real!`).
        let p = unsafe { libc::dlsym(libc::RTLD_NEXT, self.name.as_ptr().cast()) };
        if p.is_null() {
            return None;
        }
        self.addr.store(p as usize, Ordering::Relaxed);
        Some(p)
    }
}

/// Declares a function `$name` that calls the next library's `$sym` with the given C
/// signature, or fails with ENOSYS when there is none.
#[macro_export]
macro_rules! real {
    ($name:ident = $sym:literal: fn($($arg:ident: $t:ty),*) -> $ret:ty, $fail:expr) => {
        pub fn $name($($arg: $t),*) -> $ret {
            static R: $crate::real::Real = $crate::real::Real::new(concat!($sym, "\0").as_bytes());
            match R.get() {
                Some(p) => {
                    // SAFETY: the symbol is libc's function of this signature.
                    let f: unsafe extern "C" fn($($t),*) -> $ret = unsafe { std::mem::transmute(p) };
                    // SAFETY: the caller passes what the C function expects (the hook's
                    // own arguments).
                    unsafe { f($($arg),*) }
                }
                None => {
                    $crate::set_errno(libc::ENOSYS);
                    $fail
                }
            }
        }
    };
}

use libc::{c_char, c_int, c_ulong, mode_t, off_t, size_t, ssize_t, DIR, FILE};

real!(open = "open": fn(path: *const c_char, flags: c_int, mode: mode_t) -> c_int, -1);
real!(open64 = "open64": fn(path: *const c_char, flags: c_int, mode: mode_t) -> c_int, -1);
real!(openat = "openat": fn(dirfd: c_int, path: *const c_char, flags: c_int, mode: mode_t) -> c_int, -1);
real!(openat64 = "openat64": fn(dirfd: c_int, path: *const c_char, flags: c_int, mode: mode_t) -> c_int, -1);
real!(fopen = "fopen": fn(path: *const c_char, mode: *const c_char) -> *mut FILE, std::ptr::null_mut());
real!(fopen64 = "fopen64": fn(path: *const c_char, mode: *const c_char) -> *mut FILE, std::ptr::null_mut());
real!(stat = "stat": fn(path: *const c_char, buf: *mut libc::stat) -> c_int, -1);
real!(lstat = "lstat": fn(path: *const c_char, buf: *mut libc::stat) -> c_int, -1);
real!(fstat = "fstat": fn(fd: c_int, buf: *mut libc::stat) -> c_int, -1);
real!(fstatat = "fstatat": fn(dirfd: c_int, path: *const c_char, buf: *mut libc::stat, flags: c_int) -> c_int, -1);
real!(statx = "statx": fn(dirfd: c_int, path: *const c_char, flags: c_int, mask: u32, buf: *mut libc::statx) -> c_int, -1);
real!(access = "access": fn(path: *const c_char, mode: c_int) -> c_int, -1);
real!(faccessat = "faccessat": fn(dirfd: c_int, path: *const c_char, mode: c_int, flags: c_int) -> c_int, -1);
real!(readlink = "readlink": fn(path: *const c_char, buf: *mut c_char, size: size_t) -> ssize_t, -1);
real!(readlinkat = "readlinkat": fn(dirfd: c_int, path: *const c_char, buf: *mut c_char, size: size_t) -> ssize_t, -1);
real!(opendir = "opendir": fn(path: *const c_char) -> *mut DIR, std::ptr::null_mut());
real!(realpath = "realpath": fn(path: *const c_char, resolved: *mut c_char) -> *mut c_char, std::ptr::null_mut());
real!(ioctl = "ioctl": fn(fd: c_int, req: c_ulong, arg: *mut c_void) -> c_int, -1);
real!(mmap = "mmap": fn(addr: *mut c_void, len: size_t, prot: c_int, flags: c_int, fd: c_int, off: off_t) -> *mut c_void, libc::MAP_FAILED);
real!(munmap = "munmap": fn(addr: *mut c_void, len: size_t) -> c_int, -1);
