//! Copies to and from the application's memory that fail with EFAULT, as the kernel's
//! `copy_from_user`/`copy_to_user` do, instead of crashing on a bad pointer: they go
//! through `process_vm_readv`/`process_vm_writev` on the process itself.

use crate::uapi::Pod;

fn iov(p: *const u8, len: usize) -> libc::iovec {
    libc::iovec { iov_base: p as *mut libc::c_void, iov_len: len }
}

/// Copies `out.len()` bytes from user address `addr`.
pub fn read_bytes(addr: u64, out: &mut [u8]) -> Result<(), i32> {
    if out.is_empty() {
        return Ok(());
    }
    let local = iov(out.as_mut_ptr(), out.len());
    let remote = iov(addr as *const u8, out.len());
    // SAFETY: `local` is our buffer; the kernel checks `remote`.
    let n = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    if n == out.len() as isize {
        Ok(())
    } else {
        Err(libc::EFAULT)
    }
}

/// Copies `data` to user address `addr`.
pub fn write_bytes(addr: u64, data: &[u8]) -> Result<(), i32> {
    if data.is_empty() {
        return Ok(());
    }
    let local = iov(data.as_ptr(), data.len());
    let remote = iov(addr as *const u8, data.len());
    // SAFETY: `local` is our buffer; the kernel checks `remote`.
    let n = unsafe { libc::process_vm_writev(libc::getpid(), &local, 1, &remote, 1, 0) };
    if n == data.len() as isize {
        Ok(())
    } else {
        Err(libc::EFAULT)
    }
}

pub fn bytes_of<T: Pod>(v: &T) -> &[u8] {
    // SAFETY: a Pod value is plain bytes.
    unsafe { std::slice::from_raw_parts((v as *const T).cast(), std::mem::size_of::<T>()) }
}

pub fn bytes_of_mut<T: Pod>(v: &mut T) -> &mut [u8] {
    // SAFETY: a Pod value is plain bytes, and any bytes are a valid value.
    unsafe { std::slice::from_raw_parts_mut((v as *mut T).cast(), std::mem::size_of::<T>()) }
}

/// Reads a `T` from `addr`, of which the caller passed `size` bytes: like the kernel, a
/// shorter structure (an older ABI) is zero-extended and a longer one truncated.
pub fn read<T: Pod>(addr: u64, size: usize) -> Result<T, i32> {
    let mut v = T::zeroed();
    let b = bytes_of_mut(&mut v);
    let n = size.min(b.len());
    read_bytes(addr, &mut b[..n])?;
    Ok(v)
}

/// Writes at most `size` bytes of `v` to `addr`.
pub fn write<T: Pod>(addr: u64, size: usize, v: &T) -> Result<(), i32> {
    let b = bytes_of(v);
    write_bytes(addr, &b[..size.min(b.len())])
}

/// Reads `count` values of `T` from an array at `addr`.
pub fn read_array<T: Pod>(addr: u64, count: usize) -> Result<Vec<T>, i32> {
    let mut v = vec![T::zeroed(); count];
    // SAFETY: a Vec of Pod values is plain bytes.
    let b = unsafe { std::slice::from_raw_parts_mut(v.as_mut_ptr().cast::<u8>(), count * std::mem::size_of::<T>()) };
    read_bytes(addr, b)?;
    Ok(v)
}

/// Writes the values of `v` to an array at `addr`.
pub fn write_array<T: Pod>(addr: u64, v: &[T]) -> Result<(), i32> {
    // SAFETY: a slice of Pod values is plain bytes.
    let b = unsafe { std::slice::from_raw_parts(v.as_ptr().cast::<u8>(), std::mem::size_of_val(v)) };
    write_bytes(addr, b)
}
