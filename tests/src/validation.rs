//! VK_LAYER_KHRONOS_validation in the test apps: an instance with the layer and a debug
//! messenger that counts the layer's errors and warnings (each is printed to stderr), so an
//! app can fail a `--validate` run that drew any.

use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};

use ash::vk;

static MESSAGES: AtomicUsize = AtomicUsize::new(0);

/// Errors and warnings the layer reported so far in this process.
pub fn messages() -> usize {
    MESSAGES.load(Ordering::SeqCst)
}

unsafe extern "system" fn on_message(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    _types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    _user: *mut c_void,
) -> vk::Bool32 {
    if severity
        .intersects(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
    {
        MESSAGES.fetch_add(1, Ordering::SeqCst);
        // SAFETY: the layer passes valid callback data for the duration of the call.
        let msg = unsafe { data.as_ref().and_then(|d| d.message_as_c_str()) };
        eprintln!("validation [{severity:?}]: {}", msg.map(|m| m.to_string_lossy()).unwrap_or_default());
    }
    vk::FALSE
}

/// The layer's messenger on an instance.
pub struct Validation {
    du: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
}

impl Validation {
    /// Destroys the messenger.
    ///
    /// # Safety
    /// Before its instance is destroyed.
    pub unsafe fn destroy(&self) {
        // SAFETY: by the caller's contract.
        unsafe { self.du.destroy_debug_utils_messenger(self.messenger, None) };
    }
}

/// Creates an instance for `app` with `extensions`; with `validate`, also with the layer,
/// VK_EXT_debug_utils and the counting messenger. Errors name the failing call.
pub fn create_instance(
    entry: &ash::Entry,
    app: &vk::ApplicationInfo<'_>,
    extensions: &[*const c_char],
    validate: bool,
) -> Result<(ash::Instance, Option<Validation>), (&'static str, vk::Result)> {
    let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
    let mut exts = extensions.to_vec();
    // SAFETY: callers pass NUL-terminated extension names.
    let has_debug = exts.iter().any(|&e| unsafe { std::ffi::CStr::from_ptr(e) } == ash::ext::debug_utils::NAME);
    if validate && !has_debug {
        exts.push(ash::ext::debug_utils::NAME.as_ptr());
    }
    let mut info = vk::InstanceCreateInfo::default().application_info(app).enabled_extension_names(&exts);
    if validate {
        info = info.enabled_layer_names(&layers);
    }
    // SAFETY: valid create info.
    let instance = unsafe { entry.create_instance(&info, None) }.map_err(|e| ("vkCreateInstance", e))?;
    if !validate {
        return Ok((instance, None));
    }
    let du = ash::ext::debug_utils::Instance::new(entry, &instance);
    let mi = vk::DebugUtilsMessengerCreateInfoEXT::default()
        .message_severity(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        .message_type(
            vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
                | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
                | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE,
        )
        .pfn_user_callback(Some(on_message));
    // SAFETY: valid create info on an instance with VK_EXT_debug_utils.
    match unsafe { du.create_debug_utils_messenger(&mi, None) } {
        Ok(messenger) => Ok((instance, Some(Validation { du, messenger }))),
        Err(e) => {
            // SAFETY: nothing else was created from it.
            unsafe { instance.destroy_instance(None) };
            Err(("vkCreateDebugUtilsMessengerEXT", e))
        }
    }
}
