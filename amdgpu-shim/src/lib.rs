//! softnavi's amdgpu shim: an `LD_PRELOAD` library that makes the GPU model look like an
//! amdgpu render node, so that Mesa's RADV (through libdrm_amdgpu) runs unmodified on it.
//!
//! It presents exactly one node, `/dev/dri/renderD128`, for a Navi 31 (gfx1100): the
//! device file and the sysfs facts libdrm reads ([`fs`]), and the DRM and amdgpu ioctls
//! on it ([`drm`], [`info`], [`syncobj`]), answered from the `gpu` crate. Every other file,
//! descriptor and ioctl goes to libc untouched ([`hooks`]).

pub mod cs;
pub mod drm;
pub mod fs;
pub mod gem;
pub mod gpu;
pub mod hooks;
pub mod info;
pub mod node;
pub mod real;
pub mod syncobj;
pub mod uapi;
pub mod user;

/// Sets the calling thread's errno.
pub fn set_errno(e: i32) {
    // SAFETY: __errno_location returns the calling thread's errno.
    unsafe { *libc::__errno_location() = e };
}

/// The calling thread's errno.
pub fn errno() -> i32 {
    // SAFETY: as above.
    unsafe { *libc::__errno_location() }
}

/// Logging to stderr with the `SOFTNAVI_LOG` filter, as the ICD does; set up by the
/// first hook that runs.
pub fn init_logging() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let filter = tracing_subscriber::EnvFilter::try_from_env("SOFTNAVI_LOG")
            .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new("warn"));
        let _ = tracing_subscriber::fmt().with_env_filter(filter).with_writer(std::io::stderr).try_init();
    });
}
