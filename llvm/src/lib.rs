//! libLLVM 19's C API, loaded at run time with `libloading`, shared by the shader compiler
//! (compiler-bridge: SPIR-V → AMDGPU code objects) and the GPU model's translation tier
//! (gpu: RDNA3 programs → host code through ORC). Both resolve the functions they call
//! from the one [`Library`] loaded here, so the process loads libLLVM once and installs
//! one fatal-error handler.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::OnceLock;

pub mod host;

/// An opaque LLVM object (`LLVMContextRef`, `LLVMModuleRef`, ...).
pub type Ptr = *mut c_void;
/// `LLVMBool`.
pub type Bool = c_int;

/// Where libLLVM 19 may be, in the order tried: the dynamic loader's search path under the
/// names Debian and upstream give it, then Debian's LLVM 19 prefix.
const LIBRARY_NAMES: &[&str] = &[
    "libLLVM.so.19.1",
    "libLLVM-19.so.1",
    "libLLVM-19.so",
    "/usr/lib/llvm-19/lib/libLLVM.so.1",
    "/usr/lib/llvm-19/lib/libLLVM.so",
];

/// Loads libLLVM 19 with its own symbols first (RTLD_DEEPBIND): a process may already
/// hold another libLLVM (Mesa's RADV links LLVM 15), and LLVM 19 must not bind to its
/// symbols.
///
/// # Safety
/// As `dlopen`: the library's constructors run.
unsafe fn open(name: &str) -> Result<libloading::Library, libloading::Error> {
    use libloading::os::unix::{Library, RTLD_LAZY, RTLD_LOCAL};
    // SAFETY: per the caller.
    unsafe { Library::open(Some(name), RTLD_LAZY | RTLD_LOCAL | libc::RTLD_DEEPBIND) }.map(Into::into)
}

/// The process's libLLVM 19.
pub struct Library {
    lib: libloading::Library,
    /// The name it was loaded by.
    pub path: &'static str,
    pub version: (u32, u32, u32),
    dispose_message: unsafe extern "C" fn(*mut c_char),
    error_message: unsafe extern "C" fn(Ptr) -> *mut c_char,
    dispose_error_message: unsafe extern "C" fn(*mut c_char),
}

/// What [`fatal_error`] calls besides logging, set by [`on_fatal_error`].
static FATAL_HOOK: OnceLock<fn(&str)> = OnceLock::new();

/// Makes LLVM's fatal-error handler call `hook` with LLVM's reason before the process
/// exits (the compile server, `softnavi-llvmd`, sends it to its client). The first hook
/// set stays; set it before [`Library::get`] so that it covers every use.
pub fn on_fatal_error(hook: fn(&str)) {
    let _ = FATAL_HOOK.set(hook);
}

/// LLVM calls this instead of `abort` on a fatal error (then exits): at least say why.
extern "C" fn fatal_error(reason: *const c_char) {
    let reason = if reason.is_null() {
        "(no reason)".into()
    } else {
        // SAFETY: LLVM passes a NUL-terminated string that lives for this call.
        unsafe { CStr::from_ptr(reason) }.to_string_lossy()
    };
    tracing::error!(%reason, "LLVM fatal error");
    if let Some(hook) = FATAL_HOOK.get() {
        hook(&reason);
    }
}

impl Library {
    /// libLLVM 19, loaded on first use; `Err` says why it cannot be used (every name tried).
    pub fn get() -> Result<&'static Library, &'static str> {
        static LLVM: OnceLock<Result<Library, String>> = OnceLock::new();
        LLVM.get_or_init(Library::load).as_ref().map_err(String::as_str)
    }

    fn load() -> Result<Library, String> {
        let mut tried = Vec::new();
        for &name in LIBRARY_NAMES {
            // SAFETY: loading libLLVM runs its static constructors, which only register
            // targets and options; no other code of ours runs in between.
            match unsafe { open(name) } {
                Ok(lib) => match Library::init(lib, name) {
                    Ok(l) => return Ok(l),
                    Err(e) => tried.push(format!("{name}: {e}")),
                },
                Err(e) => tried.push(format!("{name}: {e}")),
            }
        }
        Err(tried.join("; "))
    }

    fn init(lib: libloading::Library, path: &'static str) -> Result<Library, String> {
        // SAFETY: the types are the C prototypes of these LLVM 19 functions (llvm-c/Core.h,
        // llvm-c/ErrorHandling.h).
        let (get_version, install, dispose_message, error_message, dispose_error_message) = unsafe {
            let v: unsafe extern "C" fn(*mut c_uint, *mut c_uint, *mut c_uint) =
                *lib.get(b"LLVMGetVersion\0").map_err(|e| e.to_string())?;
            let i: unsafe extern "C" fn(extern "C" fn(*const c_char)) =
                *lib.get(b"LLVMInstallFatalErrorHandler\0").map_err(|e| e.to_string())?;
            let d: unsafe extern "C" fn(*mut c_char) = *lib.get(b"LLVMDisposeMessage\0").map_err(|e| e.to_string())?;
            let e: unsafe extern "C" fn(Ptr) -> *mut c_char =
                *lib.get(b"LLVMGetErrorMessage\0").map_err(|e| e.to_string())?;
            let de: unsafe extern "C" fn(*mut c_char) =
                *lib.get(b"LLVMDisposeErrorMessage\0").map_err(|e| e.to_string())?;
            (v, i, d, e, de)
        };
        let (mut major, mut minor, mut patch) = (0, 0, 0);
        // SAFETY: three valid out-pointers.
        unsafe { get_version(&mut major, &mut minor, &mut patch) };
        if major != 19 {
            return Err(format!("is LLVM {major}.{minor}.{patch}, not 19"));
        }
        // SAFETY: runs once (under the OnceLock) before any other use of the library; the
        // handler is a plain `extern "C"` function.
        unsafe { install(fatal_error) };
        Ok(Library { lib, path, version: (major, minor, patch), dispose_message, error_message, dispose_error_message })
    }

    /// The function `name` (NUL-terminated).
    ///
    /// # Safety
    /// `T` must be the `extern "C"` function pointer type of that LLVM 19 function.
    pub unsafe fn sym<T: Copy>(&self, name: &[u8]) -> Result<T, String> {
        // SAFETY: the caller vouches for the type; the library stays loaded for the
        // process's lifetime (it lives in a static).
        unsafe { self.lib.get::<T>(name) }.map(|s| *s).map_err(|e| e.to_string())
    }

    /// The text of an LLVM-allocated message (empty for null), disposed.
    ///
    /// # Safety
    /// `msg` is null or a message LLVM allocated for `LLVMDisposeMessage`, not used
    /// afterwards.
    pub unsafe fn take_message(&self, msg: *mut c_char) -> String {
        if msg.is_null() {
            return String::new();
        }
        // SAFETY: per the contract, a live NUL-terminated LLVM message.
        let text = unsafe { CStr::from_ptr(msg) }.to_string_lossy().trim_end().to_owned();
        // SAFETY: disposed exactly once, here.
        unsafe { (self.dispose_message)(msg) };
        text
    }

    /// `Ok` for a null `LLVMErrorRef`, else its message (the error consumed).
    ///
    /// # Safety
    /// `err` is null or an unconsumed error LLVM returned, not used afterwards.
    pub unsafe fn take_error(&self, err: Ptr) -> Result<(), String> {
        if err.is_null() {
            return Ok(());
        }
        // SAFETY: `LLVMGetErrorMessage` consumes the error; its message is disposed once.
        unsafe {
            let m = (self.error_message)(err);
            if m.is_null() {
                return Err(String::new());
            }
            let text = CStr::from_ptr(m).to_string_lossy().into_owned();
            (self.dispose_error_message)(m);
            Err(text)
        }
    }
}

/// Calls its dispose function on drop.
pub struct Guard(pub Ptr, pub unsafe extern "C" fn(Ptr));

impl Drop for Guard {
    fn drop(&mut self) {
        if !self.0.is_null() {
            // SAFETY: `self.0` was created by the LLVM function paired with this disposer
            // and is not used after the guard.
            unsafe { (self.1)(self.0) }
        }
    }
}
