//! Helpers shared by the end-to-end test binaries.

pub mod app;
pub mod check;
pub mod dispatch;
pub mod env;
pub mod image;
pub mod pipeline;
pub mod validation;

/// A Vulkan result as the apps that report errors as strings want it: `call: VK_ERROR_…`.
pub fn vkr<T>(call: &str, r: Result<T, ash::vk::Result>) -> Result<T, String> {
    r.map_err(|e| format!("{call}: {e:?}"))
}
