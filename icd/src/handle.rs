//! Vulkan handles: dispatchable objects start with the loader's magic word, which the
//! Khronos loader overwrites with its dispatch table; non-dispatchable handles are boxed
//! objects whose address is the 64-bit handle.

use std::panic::{catch_unwind, AssertUnwindSafe};

use ash::vk::{self, Handle};

/// `ICD_LOADER_MAGIC` from vk_icd.h: the first word of every dispatchable object.
pub const ICD_LOADER_MAGIC: usize = 0x01CD_C0DE;

/// A dispatchable object: the loader's word, then ours.
#[repr(C)]
pub struct Dispatchable<T> {
    loader_data: usize,
    pub obj: T,
}

impl<T> Dispatchable<T> {
    /// Boxes `obj` as a dispatchable object and returns the raw pointer (the handle).
    pub fn into_raw(obj: T) -> *mut Dispatchable<T> {
        Box::into_raw(Box::new(Dispatchable { loader_data: ICD_LOADER_MAGIC, obj }))
    }

    /// # Safety
    /// `h` must come from [`Dispatchable::into_raw`] with the same `T` and still be alive.
    pub unsafe fn from_handle<'a>(h: u64) -> Option<&'a mut T> {
        let p = h as usize as *mut Dispatchable<T>;
        // SAFETY: by the caller's contract.
        unsafe { p.as_mut().map(|d| &mut d.obj) }
    }

    /// # Safety
    /// As for [`Dispatchable::from_handle`]; the handle is dead afterwards.
    pub unsafe fn destroy(h: u64) -> Option<T> {
        let p = h as usize as *mut Dispatchable<T>;
        if p.is_null() {
            return None;
        }
        // SAFETY: by the caller's contract.
        Some(unsafe { Box::from_raw(p) }.obj)
    }
}

/// Converts between Vulkan handles and the Rust objects behind them.
pub trait Object: Sized {
    type Handle: Handle;
    const DISPATCHABLE: bool;

    fn into_handle(self) -> Self::Handle {
        let raw = if Self::DISPATCHABLE {
            Dispatchable::into_raw(self) as usize as u64
        } else {
            Box::into_raw(Box::new(self)) as usize as u64
        };
        Self::Handle::from_raw(raw)
    }

    /// # Safety
    /// `h` must be a live handle created by `into_handle` for this type (or null), and the
    /// caller must respect Vulkan's external synchronisation rules for it.
    unsafe fn from_handle<'a>(h: Self::Handle) -> Option<&'a mut Self> {
        let raw = h.as_raw();
        if raw == 0 {
            return None;
        }
        if Self::DISPATCHABLE {
            // SAFETY: by the caller's contract.
            unsafe { Dispatchable::<Self>::from_handle(raw) }
        } else {
            // SAFETY: by the caller's contract.
            unsafe { (raw as usize as *mut Self).as_mut() }
        }
    }

    /// # Safety
    /// As for [`Object::from_handle`]; the handle is dead afterwards.
    unsafe fn destroy(h: Self::Handle) -> Option<Self> {
        let raw = h.as_raw();
        if raw == 0 {
            return None;
        }
        if Self::DISPATCHABLE {
            // SAFETY: by the caller's contract.
            unsafe { Dispatchable::<Self>::destroy(raw) }
        } else {
            // SAFETY: by the caller's contract.
            Some(*unsafe { Box::from_raw(raw as usize as *mut Self) })
        }
    }
}

macro_rules! object {
    ($ty:ty, $handle:ty, dispatchable) => {
        impl $crate::handle::Object for $ty {
            type Handle = $handle;
            const DISPATCHABLE: bool = true;
        }
    };
    ($ty:ty, $handle:ty) => {
        impl $crate::handle::Object for $ty {
            type Handle = $handle;
            const DISPATCHABLE: bool = false;
        }
    };
}
pub(crate) use object;

/// Runs an entry point's body, turning a panic (a bug in softnavi) into `on_panic` and a
/// log line: no panic crosses the FFI boundary.
pub fn guard<R>(name: &str, on_panic: R, f: impl FnOnce() -> R) -> R {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(r) => r,
        Err(p) => {
            let msg = p.downcast_ref::<&str>().map(|s| s.to_string()).or_else(|| p.downcast_ref::<String>().cloned());
            tracing::error!("internal error in {name}: {}", msg.unwrap_or_else(|| "panic".into()));
            on_panic
        }
    }
}

/// Turns `Result<(), vk::Result>` into a Vulkan return code.
pub fn code(r: Result<(), vk::Result>) -> vk::Result {
    match r {
        Ok(()) => vk::Result::SUCCESS,
        Err(e) => e,
    }
}

/// A slice from a Vulkan (pointer, count) pair; empty for null or zero.
///
/// # Safety
/// `p` must point to `n` valid elements when it is non-null and `n > 0`.
pub unsafe fn slice<'a, T>(p: *const T, n: u32) -> &'a [T] {
    if p.is_null() || n == 0 {
        &[]
    } else {
        // SAFETY: by the caller's contract.
        unsafe { std::slice::from_raw_parts(p, n as usize) }
    }
}

/// Writes `items` with Vulkan's two-call idiom (`count` in/out, optional `out` array).
///
/// # Safety
/// `count` must be valid; `out`, if non-null, must have room for `*count` elements.
pub unsafe fn enumerate<T: Clone>(count: *mut u32, out: *mut T, items: &[T]) -> vk::Result {
    if count.is_null() {
        return vk::Result::ERROR_INITIALIZATION_FAILED;
    }
    // SAFETY: by the caller's contract.
    unsafe {
        if out.is_null() {
            *count = items.len() as u32;
            return vk::Result::SUCCESS;
        }
        let n = (*count as usize).min(items.len());
        for (i, it) in items.iter().take(n).enumerate() {
            out.add(i).write(it.clone());
        }
        *count = n as u32;
        if n < items.len() {
            vk::Result::INCOMPLETE
        } else {
            vk::Result::SUCCESS
        }
    }
}

/// Iterates a `pNext` chain of output structures.
///
/// # Safety
/// `p` must be null or a valid chain of Vulkan structures.
pub unsafe fn chain_mut(p: *mut std::ffi::c_void) -> impl Iterator<Item = *mut vk::BaseOutStructure<'static>> {
    let mut cur = p as *mut vk::BaseOutStructure<'static>;
    std::iter::from_fn(move || {
        if cur.is_null() {
            return None;
        }
        let this = cur;
        // SAFETY: by the caller's contract.
        cur = unsafe { (*cur).p_next };
        Some(this)
    })
}

/// Iterates a `pNext` chain of input structures.
///
/// # Safety
/// `p` must be null or a valid chain of Vulkan structures.
pub unsafe fn chain(p: *const std::ffi::c_void) -> impl Iterator<Item = *const vk::BaseInStructure<'static>> {
    // The in and out base structures are both {sType, pNext}; the walk only reads.
    // SAFETY: by the caller's contract.
    unsafe { chain_mut(p as *mut std::ffi::c_void) }.map(|s| s as *const vk::BaseInStructure<'static>)
}

/// The body of every `vkDestroy*` / `vkFree*` of a single object: drops the object
/// behind `h` (a null handle is a no-op), inside the FFI guard.
///
/// # Safety
/// `h` must be null or a live handle of `T` that the application no longer uses.
pub unsafe fn destroy<T: Object>(name: &str, h: T::Handle) {
    // SAFETY: by the caller's contract.
    guard(name, (), || {
        let raw = h.as_raw();
        crate::debug::forget(raw);
        drop(unsafe { T::destroy(T::Handle::from_raw(raw)) })
    })
}
