//! Private data (Vulkan 1.3, VK_EXT_private_data): a slot is a map from (object type,
//! handle) to one u64 the application stores. Any object type and handle is accepted
//! (softnavi never looks inside them), and slots are thread-safe: the specification lets
//! several threads set and get data of the same slot at once, so the map is behind a lock.
//! `VkDevicePrivateDataCreateInfo` (slots reserved at device creation) needs nothing: a
//! slot's storage grows on demand.

use std::collections::HashMap;
use std::sync::Mutex;

use ash::vk;

use crate::handle::{destroy, guard, object, Object};

#[derive(Default)]
pub struct PrivateDataSlot {
    data: Mutex<HashMap<(vk::ObjectType, u64), u64>>,
}
object!(PrivateDataSlot, vk::PrivateDataSlot);

fn slot<'a>(h: vk::PrivateDataSlot) -> Option<&'a PrivateDataSlot> {
    // SAFETY: entry points receive live slot handles; only shared access is taken.
    unsafe { PrivateDataSlot::from_handle(h) }.map(|s| &*s)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_private_data_slot(
    _d: vk::Device,
    _info: *const vk::PrivateDataSlotCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::PrivateDataSlot,
) -> vk::Result {
    guard("vkCreatePrivateDataSlot", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: out is valid per the specification.
        unsafe { *out = PrivateDataSlot::default().into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_private_data_slot(
    _d: vk::Device,
    s: vk::PrivateDataSlot,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<PrivateDataSlot>("vkDestroyPrivateDataSlot", s) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn set_private_data(
    _d: vk::Device,
    object_type: vk::ObjectType,
    object: u64,
    s: vk::PrivateDataSlot,
    data: u64,
) -> vk::Result {
    guard("vkSetPrivateData", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let Some(s) = slot(s) else {
            tracing::warn!("vkSetPrivateData: null VkPrivateDataSlot");
            return vk::Result::ERROR_OUT_OF_HOST_MEMORY;
        };
        let mut map = s.data.lock().unwrap_or_else(|p| p.into_inner());
        map.insert((object_type, object), data);
        vk::Result::SUCCESS
    })
}

/// Data never set reads as 0, as the specification says.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_private_data(
    _d: vk::Device,
    object_type: vk::ObjectType,
    object: u64,
    s: vk::PrivateDataSlot,
    out: *mut u64,
) {
    guard("vkGetPrivateData", (), || {
        let value = slot(s).map_or(0, |s| {
            let map = s.data.lock().unwrap_or_else(|p| p.into_inner());
            map.get(&(object_type, object)).copied().unwrap_or(0)
        });
        // SAFETY: out is valid per the specification.
        unsafe { *out = value };
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slots_keep_one_value_per_object_and_are_shared_between_threads() {
        // SAFETY: valid pointers; the slot lives until destroyed at the end.
        unsafe {
            let d = vk::Device::null();
            let mut s = vk::PrivateDataSlot::null();
            let info = vk::PrivateDataSlotCreateInfo::default();
            assert_eq!(create_private_data_slot(d, &info, std::ptr::null(), &mut s), vk::Result::SUCCESS);
            let mut v = 1;
            get_private_data(d, vk::ObjectType::BUFFER, 42, s, &mut v);
            assert_eq!(v, 0);
            std::thread::scope(|t| {
                for k in 0..4u64 {
                    t.spawn(move || {
                        for i in 0..100u64 {
                            assert_eq!(
                                set_private_data(d, vk::ObjectType::BUFFER, k * 1000 + i, s, i * k),
                                vk::Result::SUCCESS
                            );
                        }
                    });
                }
            });
            get_private_data(d, vk::ObjectType::BUFFER, 3099, s, &mut v);
            assert_eq!(v, 99 * 3);
            // The object type is part of the key.
            get_private_data(d, vk::ObjectType::FENCE, 3099, s, &mut v);
            assert_eq!(v, 0);
            destroy_private_data_slot(d, s, std::ptr::null());
        }
    }
}
