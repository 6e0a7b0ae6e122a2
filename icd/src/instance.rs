//! VkInstance and VkPhysicalDevice: what softnavi says about itself.

use std::ffi::{c_char, CStr};

use ash::vk;

use crate::features;
use crate::handle::{chain_mut, destroy, enumerate, guard, object, Object};

/// The Vulkan version softnavi implements (core 1.1 compute; images are not supported yet).
pub const API_VERSION: u32 = vk::make_api_version(0, 1, 1, vk::HEADER_VERSION);
/// Subgroup size: RDNA3 wave32 (wave64 when a pipeline requires it, VK_EXT_subgroup_size_control).
pub const SUBGROUP_SIZE: u32 = 32;
/// `maxComputeWorkGroupInvocations`.
pub const MAX_WORKGROUP_INVOCATIONS: u32 = 1024;

pub struct Instance {
    physical: vk::PhysicalDevice,
}
object!(Instance, vk::Instance, dispatchable);

pub struct PhysicalDevice {
    pub config: gpu::Config,
    pub info: gpu::ChipInfo,
}
object!(PhysicalDevice, vk::PhysicalDevice, dispatchable);

impl Drop for Instance {
    fn drop(&mut self) {
        // SAFETY: the physical device handle was created by this instance and dies with it.
        unsafe { PhysicalDevice::destroy(self.physical) };
    }
}

fn init_logging() {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("SOFTNAVI_LOG").unwrap_or_else(|_| EnvFilter::new("warn"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_env_filter(filter)
        .with_target(false)
        .with_ansi(ansi)
        .try_init();
}

/// # Safety
/// Vulkan entry point: pointers as the specification requires.
pub unsafe extern "system" fn create_instance(
    info: *const vk::InstanceCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Instance,
) -> vk::Result {
    guard("vkCreateInstance", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        init_logging();
        // SAFETY: the loader passes a valid create info.
        let info = unsafe { &*info };
        // SAFETY: as above.
        let exts = unsafe { crate::handle::slice(info.pp_enabled_extension_names, info.enabled_extension_count) };
        for &e in exts {
            // SAFETY: extension names are NUL-terminated strings.
            let name = unsafe { CStr::from_ptr(e) };
            if !INSTANCE_EXTENSIONS.iter().any(|x| x.0 == name) {
                tracing::warn!("vkCreateInstance: instance extension {name:?} is not supported");
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            }
        }
        let config = gpu::Config::from_env();
        let info = config.chip_info();
        let physical = PhysicalDevice { config, info }.into_handle();
        // SAFETY: out is valid per the specification.
        unsafe { *out = Instance { physical }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_instance(instance: vk::Instance, _alloc: *const vk::AllocationCallbacks<'_>) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Instance>("vkDestroyInstance", instance) }
}

/// Instance extensions softnavi implements itself (the loader adds its own).
/// VK_KHR_get_physical_device_properties2 is core 1.1 under its extension name: tools such
/// as vulkaninfo walk the features2/properties2 chains only when it is there.
const INSTANCE_EXTENSIONS: &[(&CStr, u32)] =
    &[(vk::KHR_GET_PHYSICAL_DEVICE_PROPERTIES2_NAME, vk::KHR_GET_PHYSICAL_DEVICE_PROPERTIES2_SPEC_VERSION)];

fn ext_props(list: &[(&CStr, u32)]) -> Vec<vk::ExtensionProperties> {
    list.iter()
        .map(|(name, version)| {
            let mut p = vk::ExtensionProperties { spec_version: *version, ..Default::default() };
            for (d, s) in p.extension_name.iter_mut().zip(name.to_bytes()) {
                *d = *s as c_char;
            }
            p
        })
        .collect()
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn enumerate_instance_extension_properties(
    layer: *const c_char,
    count: *mut u32,
    out: *mut vk::ExtensionProperties,
) -> vk::Result {
    guard("vkEnumerateInstanceExtensionProperties", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        if !layer.is_null() {
            return vk::Result::ERROR_LAYER_NOT_PRESENT;
        }
        // SAFETY: pointers as the specification requires.
        unsafe { enumerate(count, out, &ext_props(INSTANCE_EXTENSIONS)) }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn enumerate_instance_version(v: *mut u32) -> vk::Result {
    // SAFETY: v is valid per the specification.
    unsafe { *v = API_VERSION };
    vk::Result::SUCCESS
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn enumerate_physical_devices(
    instance: vk::Instance,
    count: *mut u32,
    out: *mut vk::PhysicalDevice,
) -> vk::Result {
    guard("vkEnumeratePhysicalDevices", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: a live instance handle.
        let Some(i) = (unsafe { Instance::from_handle(instance) }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: pointers as the specification requires.
        unsafe { enumerate(count, out, &[i.physical]) }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn enumerate_physical_device_groups(
    instance: vk::Instance,
    count: *mut u32,
    out: *mut vk::PhysicalDeviceGroupProperties<'_>,
) -> vk::Result {
    guard("vkEnumeratePhysicalDeviceGroups", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        // SAFETY: a live instance handle.
        let Some(i) = (unsafe { Instance::from_handle(instance) }) else {
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        // SAFETY: count is valid per the specification.
        unsafe {
            if out.is_null() {
                *count = 1;
                return vk::Result::SUCCESS;
            }
            if *count == 0 {
                return vk::Result::INCOMPLETE;
            }
            let g = &mut *out;
            g.physical_device_count = 1;
            g.physical_devices[0] = i.physical;
            g.subset_allocation = vk::FALSE;
            *count = 1;
        }
        vk::Result::SUCCESS
    })
}

fn pd<'a>(h: vk::PhysicalDevice) -> &'a PhysicalDevice {
    // SAFETY: entry points receive live physical device handles.
    let p = unsafe { PhysicalDevice::from_handle(h) };
    p.map(|p| &*p).unwrap_or_else(|| panic!("null VkPhysicalDevice")) // ok: caught by guard()
}

fn copy_str(dst: &mut [c_char], s: &str) {
    for (d, b) in dst.iter_mut().zip(s.bytes().chain(std::iter::once(0))) {
        *d = b as c_char;
    }
}

/// A stable UUID for pipeline caches: changes with every build of softnavi.
pub(crate) fn cache_uuid() -> [u8; 16] {
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    for b in concat!(env!("CARGO_PKG_VERSION"), "gfx1100").bytes() {
        h = (h ^ b as u64).wrapping_mul(0x100_0000_01b3);
    }
    let mut u = [0u8; 16];
    u[..8].copy_from_slice(&h.to_le_bytes());
    u[8..].copy_from_slice(b"softnavi");
    u
}

impl PhysicalDevice {
    pub fn properties(&self) -> vk::PhysicalDeviceProperties {
        let info = &self.info;
        let mut p = vk::PhysicalDeviceProperties {
            api_version: API_VERSION,
            driver_version: vk::make_api_version(0, 0, 1, 0),
            vendor_id: info.vendor_id,
            device_id: info.device_id,
            device_type: vk::PhysicalDeviceType::DISCRETE_GPU,
            pipeline_cache_uuid: cache_uuid(),
            limits: self.limits(),
            sparse_properties: vk::PhysicalDeviceSparseProperties::default(),
            ..Default::default()
        };
        copy_str(&mut p.device_name, info.name);
        p
    }

    /// Limits of a gfx1100 as RADV reports them, restricted to what softnavi does.
    fn limits(&self) -> vk::PhysicalDeviceLimits {
        let big = u32::MAX / 2;
        vk::PhysicalDeviceLimits {
            max_image_dimension1_d: 0,
            max_uniform_buffer_range: u32::MAX,
            max_storage_buffer_range: u32::MAX,
            max_push_constants_size: 256,
            max_memory_allocation_count: u32::MAX,
            max_sampler_allocation_count: 0,
            buffer_image_granularity: 1,
            sparse_address_space_size: 0,
            max_bound_descriptor_sets: 32,
            max_per_stage_descriptor_uniform_buffers: big,
            max_per_stage_descriptor_storage_buffers: big,
            max_per_stage_resources: big,
            max_descriptor_set_uniform_buffers: big,
            max_descriptor_set_uniform_buffers_dynamic: 16,
            max_descriptor_set_storage_buffers: big,
            max_descriptor_set_storage_buffers_dynamic: 8,
            max_compute_shared_memory_size: 65536,
            max_compute_work_group_count: [u32::MAX, 65535, 65535],
            max_compute_work_group_invocations: MAX_WORKGROUP_INVOCATIONS,
            max_compute_work_group_size: [1024, 1024, 1024],
            sub_pixel_precision_bits: 0,
            max_sampler_lod_bias: 0.0,
            max_sampler_anisotropy: 1.0,
            min_memory_map_alignment: 4096,
            min_texel_buffer_offset_alignment: 4,
            min_uniform_buffer_offset_alignment: 4,
            min_storage_buffer_offset_alignment: 4,
            timestamp_compute_and_graphics: vk::TRUE,
            timestamp_period: 1e9 / self.info.timestamp_hz as f32,
            discrete_queue_priorities: 2,
            optimal_buffer_copy_offset_alignment: 1,
            optimal_buffer_copy_row_pitch_alignment: 1,
            non_coherent_atom_size: 64,
            max_viewports: 1,
            max_framebuffer_layers: 0,
            max_color_attachments: 0,
            ..Default::default()
        }
    }

    /// The core 1.0 features that work.
    pub fn features(&self) -> vk::PhysicalDeviceFeatures {
        features::core_features(&features::SHADER)
    }

    pub fn memory_properties(&self) -> vk::PhysicalDeviceMemoryProperties {
        crate::memory::memory_properties(&self.info)
    }

    pub fn queue_family(&self) -> vk::QueueFamilyProperties {
        vk::QueueFamilyProperties {
            queue_flags: vk::QueueFlags::COMPUTE | vk::QueueFlags::TRANSFER,
            queue_count: 1,
            timestamp_valid_bits: 64,
            min_image_transfer_granularity: vk::Extent3D { width: 1, height: 1, depth: 1 },
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_properties(
    p: vk::PhysicalDevice,
    out: *mut vk::PhysicalDeviceProperties,
) {
    guard("vkGetPhysicalDeviceProperties", (), || {
        // SAFETY: out is valid per the specification.
        unsafe { *out = pd(p).properties() };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_properties2(
    p: vk::PhysicalDevice,
    out: *mut vk::PhysicalDeviceProperties2<'_>,
) {
    guard("vkGetPhysicalDeviceProperties2", (), || {
        let dev = pd(p);
        // SAFETY: out and its chain are valid per the specification.
        unsafe {
            (*out).properties = dev.properties();
            for s in chain_mut((*out).p_next) {
                fill_properties_ext(dev, s);
            }
        }
    })
}

/// Fills one extension structure of a properties chain; unknown ones are left alone.
///
/// # Safety
/// `s` must point to a valid structure of the type its `s_type` says.
unsafe fn fill_properties_ext(dev: &PhysicalDevice, s: *mut vk::BaseOutStructure<'static>) {
    // SAFETY: by the caller's contract, each cast matches s_type.
    unsafe {
        match (*s).s_type {
            vk::StructureType::PHYSICAL_DEVICE_ID_PROPERTIES => {
                let p = &mut *(s as *mut vk::PhysicalDeviceIDProperties<'static>);
                p.device_uuid = cache_uuid();
                p.driver_uuid = cache_uuid();
                p.device_luid_valid = vk::FALSE;
            }
            vk::StructureType::PHYSICAL_DEVICE_SUBGROUP_PROPERTIES => {
                features::subgroup_properties(
                    &features::SHADER,
                    &mut *(s as *mut vk::PhysicalDeviceSubgroupProperties<'static>),
                );
            }
            vk::StructureType::PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES => {
                features::subgroup_size_control_properties(
                    &features::SHADER,
                    &mut *(s as *mut vk::PhysicalDeviceSubgroupSizeControlProperties<'static>),
                );
            }
            vk::StructureType::PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES => {
                // No dot product form is faster than the instructions it is made of.
                let p = &mut *(s as *mut vk::PhysicalDeviceShaderIntegerDotProductProperties<'static>);
                *p = vk::PhysicalDeviceShaderIntegerDotProductProperties { p_next: p.p_next, ..Default::default() };
            }
            vk::StructureType::PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES => {
                let p = &mut *(s as *mut vk::PhysicalDevicePointClippingProperties<'static>);
                p.point_clipping_behavior = vk::PointClippingBehavior::ALL_CLIP_PLANES;
            }
            vk::StructureType::PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES => {
                let p = &mut *(s as *mut vk::PhysicalDeviceMultiviewProperties<'static>);
                p.max_multiview_view_count = 0;
                p.max_multiview_instance_index = 0;
            }
            vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES => {
                let p = &mut *(s as *mut vk::PhysicalDeviceProtectedMemoryProperties<'static>);
                p.protected_no_fault = vk::FALSE;
            }
            vk::StructureType::PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES => {
                let p = &mut *(s as *mut vk::PhysicalDeviceMaintenance3Properties<'static>);
                p.max_per_set_descriptors = 1 << 20;
                p.max_memory_allocation_size = dev.info.memory_size;
            }
            _ => crate::descriptor::fill_properties(s),
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_features(
    p: vk::PhysicalDevice,
    out: *mut vk::PhysicalDeviceFeatures,
) {
    guard("vkGetPhysicalDeviceFeatures", (), || {
        // SAFETY: out is valid per the specification.
        unsafe { *out = pd(p).features() };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_features2(
    p: vk::PhysicalDevice,
    out: *mut vk::PhysicalDeviceFeatures2<'_>,
) {
    guard("vkGetPhysicalDeviceFeatures2", (), || {
        let dev = pd(p);
        // SAFETY: out and its chain are valid per the specification.
        unsafe {
            (*out).features = dev.features();
            for s in chain_mut((*out).p_next) {
                features::fill_feature_struct(&features::SHADER, s);
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_memory_properties(
    p: vk::PhysicalDevice,
    out: *mut vk::PhysicalDeviceMemoryProperties,
) {
    guard("vkGetPhysicalDeviceMemoryProperties", (), || {
        // SAFETY: out is valid per the specification.
        unsafe { *out = pd(p).memory_properties() };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_memory_properties2(
    p: vk::PhysicalDevice,
    out: *mut vk::PhysicalDeviceMemoryProperties2<'_>,
) {
    guard("vkGetPhysicalDeviceMemoryProperties2", (), || {
        // SAFETY: out is valid per the specification.
        unsafe { (*out).memory_properties = pd(p).memory_properties() };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_queue_family_properties(
    p: vk::PhysicalDevice,
    count: *mut u32,
    out: *mut vk::QueueFamilyProperties,
) {
    guard("vkGetPhysicalDeviceQueueFamilyProperties", (), || {
        // SAFETY: pointers as the specification requires.
        let _ = unsafe { enumerate(count, out, &[pd(p).queue_family()]) };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_queue_family_properties2(
    p: vk::PhysicalDevice,
    count: *mut u32,
    out: *mut vk::QueueFamilyProperties2<'_>,
) {
    guard("vkGetPhysicalDeviceQueueFamilyProperties2", (), || {
        // SAFETY: pointers as the specification requires; only the core member is written.
        unsafe {
            if out.is_null() {
                *count = 1;
            } else if *count > 0 {
                (*out).queue_family_properties = pd(p).queue_family();
                *count = 1;
            }
        }
    })
}

/// Buffer-only formats: no format has texel-buffer or image features yet.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_format_properties(
    _p: vk::PhysicalDevice,
    _f: vk::Format,
    out: *mut vk::FormatProperties,
) {
    // SAFETY: out is valid per the specification.
    unsafe { *out = vk::FormatProperties::default() };
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_format_properties2(
    _p: vk::PhysicalDevice,
    _f: vk::Format,
    out: *mut vk::FormatProperties2<'_>,
) {
    // SAFETY: out is valid per the specification.
    unsafe { (*out).format_properties = vk::FormatProperties::default() };
}

/// Images are not supported: every image format query says so.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_image_format_properties(
    _p: vk::PhysicalDevice,
    _f: vk::Format,
    _t: vk::ImageType,
    _tiling: vk::ImageTiling,
    _u: vk::ImageUsageFlags,
    _fl: vk::ImageCreateFlags,
    _out: *mut vk::ImageFormatProperties,
) -> vk::Result {
    vk::Result::ERROR_FORMAT_NOT_SUPPORTED
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_image_format_properties2(
    _p: vk::PhysicalDevice,
    _i: *const vk::PhysicalDeviceImageFormatInfo2<'_>,
    _out: *mut vk::ImageFormatProperties2<'_>,
) -> vk::Result {
    vk::Result::ERROR_FORMAT_NOT_SUPPORTED
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_sparse_image_format_properties(
    _p: vk::PhysicalDevice,
    _f: vk::Format,
    _t: vk::ImageType,
    _s: vk::SampleCountFlags,
    _u: vk::ImageUsageFlags,
    _tiling: vk::ImageTiling,
    count: *mut u32,
    _out: *mut vk::SparseImageFormatProperties,
) {
    // SAFETY: count is valid per the specification.
    unsafe { *count = 0 };
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_sparse_image_format_properties2(
    _p: vk::PhysicalDevice,
    _i: *const vk::PhysicalDeviceSparseImageFormatInfo2<'_>,
    count: *mut u32,
    _out: *mut vk::SparseImageFormatProperties2<'_>,
) {
    // SAFETY: count is valid per the specification.
    unsafe { *count = 0 };
}

/// No external memory, fence or semaphore handle types are supported.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_external_buffer_properties(
    _p: vk::PhysicalDevice,
    _i: *const vk::PhysicalDeviceExternalBufferInfo<'_>,
    out: *mut vk::ExternalBufferProperties<'_>,
) {
    // SAFETY: out is valid per the specification.
    unsafe { (*out).external_memory_properties = vk::ExternalMemoryProperties::default() };
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_external_fence_properties(
    _p: vk::PhysicalDevice,
    _i: *const vk::PhysicalDeviceExternalFenceInfo<'_>,
    out: *mut vk::ExternalFenceProperties<'_>,
) {
    // SAFETY: out is valid per the specification.
    unsafe {
        (*out).export_from_imported_handle_types = vk::ExternalFenceHandleTypeFlags::empty();
        (*out).compatible_handle_types = vk::ExternalFenceHandleTypeFlags::empty();
        (*out).external_fence_features = vk::ExternalFenceFeatureFlags::empty();
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_external_semaphore_properties(
    _p: vk::PhysicalDevice,
    _i: *const vk::PhysicalDeviceExternalSemaphoreInfo<'_>,
    out: *mut vk::ExternalSemaphoreProperties<'_>,
) {
    // SAFETY: out is valid per the specification.
    unsafe {
        (*out).export_from_imported_handle_types = vk::ExternalSemaphoreHandleTypeFlags::empty();
        (*out).compatible_handle_types = vk::ExternalSemaphoreHandleTypeFlags::empty();
        (*out).external_semaphore_features = vk::ExternalSemaphoreFeatureFlags::empty();
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn enumerate_device_extension_properties(
    _p: vk::PhysicalDevice,
    layer: *const c_char,
    count: *mut u32,
    out: *mut vk::ExtensionProperties,
) -> vk::Result {
    guard("vkEnumerateDeviceExtensionProperties", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        if !layer.is_null() {
            return vk::Result::ERROR_LAYER_NOT_PRESENT;
        }
        // SAFETY: pointers as the specification requires.
        unsafe { enumerate(count, out, &ext_props(&features::device_extensions(&features::SHADER))) }
    })
}
