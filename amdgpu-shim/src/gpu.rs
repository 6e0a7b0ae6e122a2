//! The one GPU behind the node: a `gpu::Device`, made when first needed (so that
//! enumerating devices starts no GPU threads), shared by every DRM file of the process.

use std::sync::OnceLock;
use std::time::Duration;

use gpu::{ChipInfo, Device};
use parking_lot::{Condvar, Mutex};

/// The chip's parameters (from the `SOFTNAVI_*` configuration), without a device.
pub fn chip() -> &'static ChipInfo {
    static CHIP: OnceLock<ChipInfo> = OnceLock::new();
    CHIP.get_or_init(|| gpu::Config::from_env().chip_info())
}

/// The device; `Err` (an errno) when its threads cannot start.
pub fn device() -> Result<&'static Device, i32> {
    static DEV: OnceLock<Option<Device>> = OnceLock::new();
    DEV.get_or_init(|| match Device::new(config()) {
        Ok(d) => {
            d.set_interrupt_hook(Some(std::sync::Arc::new(notify)));
            Some(d)
        }
        Err(e) => {
            tracing::error!("softnavi: cannot start the GPU model: {e}");
            None
        }
    })
    .as_ref()
    .ok_or(libc::ENODEV)
}

/// The device's configuration: the `SOFTNAVI_*` variables. Programs are translated as
/// under softnavi's own ICD (`SOFTNAVI_JIT=auto`: in the background once hot); the device
/// lives until the process exits, and the translation tier's exit handler waits for a
/// compile in flight before LLVM's static destructors run (`gpu::jit`). (Translating every
/// program before its first dispatch, as this did before, made RADV's CTS runs 50 times
/// slower than interpreting them: an in-process LLVM compile per shader of each case.)
fn config() -> gpu::Config {
    gpu::Config::from_env()
}

/// The GPU timestamp counter now.
pub fn timestamp() -> u64 {
    device().map(|d| d.timestamp()).unwrap_or(0)
}

/// Signalled whenever a fence may have signalled or a syncobj changed: waiters re-check.
static EVENTS: (Mutex<u64>, Condvar) = (Mutex::new(0), Condvar::new());

/// Wakes every waiter (after writing the user fences that completed).
pub fn notify() {
    crate::cs::write_user_fences();
    let mut g = EVENTS.0.lock();
    *g = g.wrapping_add(1);
    EVENTS.1.notify_all();
}

/// Waits until `done()` holds or the deadline passes (`None`: forever); `done` is checked
/// after every event, and at least every 10 ms.
pub fn wait_until(deadline: Option<std::time::Instant>, mut done: impl FnMut() -> bool) -> bool {
    loop {
        let mut g = EVENTS.0.lock();
        if done() {
            return true;
        }
        let left = match deadline {
            Some(d) => match d.checked_duration_since(std::time::Instant::now()) {
                Some(l) if !l.is_zero() => l,
                _ => return false,
            },
            None => Duration::from_millis(10),
        };
        EVENTS.1.wait_for(&mut g, left.min(Duration::from_millis(10)));
    }
}
