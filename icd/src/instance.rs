//! VkInstance and VkPhysicalDevice: what softnavi says about itself.

use std::ffi::{c_char, CStr};

use ash::vk;

use crate::features;
use crate::handle::{chain, chain_mut, destroy, enumerate, guard, object, Object};

/// The Vulkan version softnavi implements: 1.3 compute. Not conformant: inlineUniformBlock,
/// which 1.3 requires, is reported false, and there are no draws (docs/VULKAN.md).
pub const API_VERSION: u32 = vk::make_api_version(0, 1, 3, vk::HEADER_VERSION);
/// `driverVersion`: softnavi's crate version, Vulkan-encoded.
pub const DRIVER_VERSION: u32 = vk::make_api_version(
    0,
    parse_u32(env!("CARGO_PKG_VERSION_MAJOR")),
    parse_u32(env!("CARGO_PKG_VERSION_MINOR")),
    parse_u32(env!("CARGO_PKG_VERSION_PATCH")),
);
/// Descriptors of one type a stage or a set may use, and `maxPerSetDescriptors`. RADV
/// derives its figure from a 2 GiB descriptor-set upload; softnavi's sets live in host
/// memory, so this is a round figure above the 500000 that descriptor indexing requires.
/// Sampler and image types count here too but are rejected at layout creation (no images).
pub const MAX_DESCRIPTORS: u32 = 1 << 20;
/// `maxPushDescriptors` (VK_KHR_push_descriptor; RADV's figure).
pub const MAX_PUSH_DESCRIPTORS: u32 = 32;

const fn parse_u32(s: &str) -> u32 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut v = 0;
    while i < b.len() {
        v = v * 10 + (b[i] - b'0') as u32;
        i += 1;
    }
    v
}
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
    /// The instance extensions its instance enabled (their device-level commands are
    /// returned by vkGetDeviceProcAddr only then).
    pub instance_extensions: Vec<std::ffi::CString>,
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
        let mut instance_extensions = Vec::new();
        for &e in exts {
            // SAFETY: extension names are NUL-terminated strings.
            let name = unsafe { CStr::from_ptr(e) };
            if !INSTANCE_EXTENSIONS.iter().any(|x| x.0 == name) {
                tracing::warn!("vkCreateInstance: instance extension {name:?} is not supported");
                return vk::Result::ERROR_EXTENSION_NOT_PRESENT;
            }
            instance_extensions.push(name.to_owned());
        }
        let config = gpu::Config::from_env();
        let info = config.chip_info();
        let physical = PhysicalDevice { config, info, instance_extensions }.into_handle();
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
pub const INSTANCE_EXTENSIONS: &[(&CStr, u32)] = &[
    (vk::KHR_GET_PHYSICAL_DEVICE_PROPERTIES2_NAME, vk::KHR_GET_PHYSICAL_DEVICE_PROPERTIES2_SPEC_VERSION),
    // Object names and labels (debug.rs); the loader implements the messengers.
    (vk::EXT_DEBUG_UTILS_NAME, vk::EXT_DEBUG_UTILS_SPEC_VERSION),
];

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

/// `deviceUUID`: the same for every instance and process on the same modelled chip.
fn device_uuid(info: &gpu::ChipInfo) -> [u8; 16] {
    let mut u = [0u8; 16];
    u[..4].copy_from_slice(&info.vendor_id.to_le_bytes());
    u[4..8].copy_from_slice(&info.device_id.to_le_bytes());
    for (d, s) in u[8..].iter_mut().zip(info.gfx_target.bytes()) {
        *d = s;
    }
    u
}

/// Writes `value` over the structure `s` points to, keeping its `pNext`.
///
/// # Safety
/// `s` must point to a valid `T` whose first two members are `sType` and `pNext`.
unsafe fn put<T>(s: *mut vk::BaseOutStructure<'static>, value: T) {
    // SAFETY: by the caller's contract.
    unsafe {
        let next = (*s).p_next;
        *(s as *mut T) = value;
        (*s).p_next = next;
    }
}

/// VkPhysicalDeviceFloatControlsProperties: what the lowering guarantees about denormals,
/// signed zeros and rounding modes, from its one table (`compiler_bridge::FLOAT_CONTROLS`).
pub fn float_controls_properties() -> vk::PhysicalDeviceFloatControlsProperties<'static> {
    let fc = compiler_bridge::FLOAT_CONTROLS;
    let b = |v: bool| if v { vk::TRUE } else { vk::FALSE };
    vk::PhysicalDeviceFloatControlsProperties {
        denorm_behavior_independence: vk::ShaderFloatControlsIndependence::from_raw(
            fc.denorm_behavior_independence as i32,
        ),
        rounding_mode_independence: vk::ShaderFloatControlsIndependence::from_raw(fc.rounding_mode_independence as i32),
        shader_signed_zero_inf_nan_preserve_float16: b(fc.signed_zero_inf_nan_preserve[0]),
        shader_signed_zero_inf_nan_preserve_float32: b(fc.signed_zero_inf_nan_preserve[1]),
        shader_signed_zero_inf_nan_preserve_float64: b(fc.signed_zero_inf_nan_preserve[2]),
        shader_denorm_preserve_float16: b(fc.denorm_preserve[0]),
        shader_denorm_preserve_float32: b(fc.denorm_preserve[1]),
        shader_denorm_preserve_float64: b(fc.denorm_preserve[2]),
        shader_denorm_flush_to_zero_float16: b(fc.denorm_flush_to_zero[0]),
        shader_denorm_flush_to_zero_float32: b(fc.denorm_flush_to_zero[1]),
        shader_denorm_flush_to_zero_float64: b(fc.denorm_flush_to_zero[2]),
        shader_rounding_mode_rte_float16: b(fc.rounding_mode_rte[0]),
        shader_rounding_mode_rte_float32: b(fc.rounding_mode_rte[1]),
        shader_rounding_mode_rte_float64: b(fc.rounding_mode_rte[2]),
        shader_rounding_mode_rtz_float16: b(fc.rounding_mode_rtz[0]),
        shader_rounding_mode_rtz_float32: b(fc.rounding_mode_rtz[1]),
        shader_rounding_mode_rtz_float64: b(fc.rounding_mode_rtz[2]),
        ..Default::default()
    }
}

/// VkPhysicalDeviceDriverProperties. driverID: softnavi has no ID in the Khronos registry
/// (`VkDriverId`), and claiming another driver's (RADV, AMDVLK, llvmpipe) would make
/// applications apply that driver's workarounds to code it did not produce; the value is
/// therefore one outside the registered range (tools print it as unknown).
pub fn driver_properties() -> vk::PhysicalDeviceDriverProperties<'static> {
    let mut p = vk::PhysicalDeviceDriverProperties {
        driver_id: DRIVER_ID,
        // Not conformant: no conformance test suite version has been passed.
        conformance_version: vk::ConformanceVersion { major: 0, minor: 0, subminor: 0, patch: 0 },
        ..Default::default()
    };
    copy_str(&mut p.driver_name, "softnavi");
    copy_str(
        &mut p.driver_info,
        concat!("softnavi ", env!("CARGO_PKG_VERSION"), " (software RDNA3 gfx1100; compute only; not conformant)"),
    );
    p
}

/// The `VkDriverId` reported: unregistered (see [`driver_properties`]).
pub const DRIVER_ID: vk::DriverId = vk::DriverId::from_raw(0x534e_0001);

/// VkPhysicalDeviceDescriptorIndexingProperties: the update-after-bind limits equal the
/// ordinary ones (descriptor.rs keeps no separate budget for them).
pub fn descriptor_indexing_properties() -> vk::PhysicalDeviceDescriptorIndexingProperties<'static> {
    let n = MAX_DESCRIPTORS;
    vk::PhysicalDeviceDescriptorIndexingProperties {
        max_update_after_bind_descriptors_in_all_pools: n,
        // Non-uniform indices are handled by a loop over the distinct values (the
        // V# must be uniform in SGPRs): not native.
        shader_uniform_buffer_array_non_uniform_indexing_native: vk::FALSE,
        shader_sampled_image_array_non_uniform_indexing_native: vk::FALSE,
        shader_storage_buffer_array_non_uniform_indexing_native: vk::FALSE,
        shader_storage_image_array_non_uniform_indexing_native: vk::FALSE,
        shader_input_attachment_array_non_uniform_indexing_native: vk::FALSE,
        // The V# range check works the same for descriptors updated after binding.
        robust_buffer_access_update_after_bind: vk::TRUE,
        quad_divergent_implicit_lod: vk::FALSE,
        max_per_stage_descriptor_update_after_bind_samplers: n,
        max_per_stage_descriptor_update_after_bind_uniform_buffers: n,
        max_per_stage_descriptor_update_after_bind_storage_buffers: n,
        max_per_stage_descriptor_update_after_bind_sampled_images: n,
        max_per_stage_descriptor_update_after_bind_storage_images: n,
        max_per_stage_descriptor_update_after_bind_input_attachments: n,
        max_per_stage_update_after_bind_resources: n,
        max_descriptor_set_update_after_bind_samplers: n,
        max_descriptor_set_update_after_bind_uniform_buffers: n,
        max_descriptor_set_update_after_bind_uniform_buffers_dynamic: MAX_DYNAMIC_UNIFORM_BUFFERS,
        max_descriptor_set_update_after_bind_storage_buffers: n,
        max_descriptor_set_update_after_bind_storage_buffers_dynamic: MAX_DYNAMIC_STORAGE_BUFFERS,
        max_descriptor_set_update_after_bind_sampled_images: n,
        max_descriptor_set_update_after_bind_storage_images: n,
        max_descriptor_set_update_after_bind_input_attachments: n,
        ..Default::default()
    }
}

/// Dynamic buffer descriptors of a pipeline layout (RADV's MAX_DYNAMIC_*_BUFFERS).
pub const MAX_DYNAMIC_UNIFORM_BUFFERS: u32 = 16;
pub const MAX_DYNAMIC_STORAGE_BUFFERS: u32 = 8;

/// `maxTimelineSemaphoreValueDifference` (sync.rs).
pub use crate::sync::MAX_TIMELINE_SEMAPHORE_VALUE_DIFFERENCE;

impl PhysicalDevice {
    pub fn properties(&self) -> vk::PhysicalDeviceProperties {
        let info = &self.info;
        let mut p = vk::PhysicalDeviceProperties {
            api_version: API_VERSION,
            driver_version: DRIVER_VERSION,
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

    /// Limits of a gfx1100 as RADV reports them, restricted to what softnavi does. Image,
    /// sampler and graphics limits are the minimums the specification's Required Limits
    /// table asks of every implementation (there are no images or graphics to use them);
    /// those it asks only with a feature are 0. docs/VULKAN.md gives the reasons per field.
    fn limits(&self) -> vk::PhysicalDeviceLimits {
        let n = MAX_DESCRIPTORS;
        let one_four = vk::SampleCountFlags::TYPE_1 | vk::SampleCountFlags::TYPE_4;
        vk::PhysicalDeviceLimits {
            // Images: the required minimums.
            max_image_dimension1_d: 4096,
            max_image_dimension2_d: 4096,
            max_image_dimension3_d: 256,
            max_image_dimension_cube: 4096,
            max_image_array_layers: 256,
            // RADV's figure (512 Mi); a typed MUBUF's num_records counts elements in 32 bits.
            // A raw buffer V#'s num_records is a 32-bit byte count (ABI.md).
            max_uniform_buffer_range: u32::MAX,
            max_storage_buffer_range: u32::MAX,
            max_push_constants_size: 256,
            max_memory_allocation_count: u32::MAX,
            max_sampler_allocation_count: 4000,
            buffer_image_granularity: 1,
            sparse_address_space_size: 0,
            max_bound_descriptor_sets: 32,
            max_per_stage_descriptor_samplers: n,
            max_per_stage_descriptor_uniform_buffers: n,
            max_per_stage_descriptor_storage_buffers: n,
            max_per_stage_descriptor_sampled_images: n,
            max_per_stage_descriptor_storage_images: n,
            max_per_stage_descriptor_input_attachments: n,
            max_per_stage_resources: n,
            max_descriptor_set_samplers: n,
            max_descriptor_set_uniform_buffers: n,
            max_descriptor_set_uniform_buffers_dynamic: MAX_DYNAMIC_UNIFORM_BUFFERS,
            max_descriptor_set_storage_buffers: n,
            max_descriptor_set_storage_buffers_dynamic: MAX_DYNAMIC_STORAGE_BUFFERS,
            max_descriptor_set_sampled_images: n,
            max_descriptor_set_storage_images: n,
            max_descriptor_set_input_attachments: n,
            // Vertex and fragment stages: the required minimums.
            max_vertex_input_attributes: 16,
            max_vertex_input_bindings: 16,
            max_vertex_input_attribute_offset: 2047,
            max_vertex_input_binding_stride: 2048,
            max_vertex_output_components: 64,
            max_fragment_input_components: 64,
            max_fragment_output_attachments: 4,
            max_fragment_dual_src_attachments: 0,
            max_fragment_combined_output_resources: 4,
            // LDS per workgroup (ChipInfo: 64 KiB on gfx11).
            max_compute_shared_memory_size: self.info.lds_per_workgroup,
            // The CP takes 32-bit counts in every dimension; these are RADV's.
            max_compute_work_group_count: [u32::MAX, 65535, 65535],
            max_compute_work_group_invocations: MAX_WORKGROUP_INVOCATIONS,
            max_compute_work_group_size: [MAX_WORKGROUP_INVOCATIONS; 3],
            sub_pixel_precision_bits: 4,
            sub_texel_precision_bits: 4,
            mipmap_precision_bits: 4,
            max_draw_indexed_index_value: (1 << 24) - 1,
            max_draw_indirect_count: 1,
            max_sampler_lod_bias: 2.0,
            max_sampler_anisotropy: 1.0,
            max_viewports: 1,
            max_viewport_dimensions: [4096, 4096],
            viewport_bounds_range: [-8192.0, 8191.0],
            viewport_sub_pixel_bits: 0,
            // BOs are page-aligned host allocations.
            min_memory_map_alignment: 4096,
            min_texel_buffer_offset_alignment: crate::view::TEXEL_BUFFER_OFFSET_ALIGNMENT,
            max_texel_buffer_elements: crate::view::MAX_TEXEL_BUFFER_ELEMENTS,
            min_uniform_buffer_offset_alignment: 4,
            min_storage_buffer_offset_alignment: 4,
            min_texel_offset: -8,
            max_texel_offset: 7,
            // shaderImageGatherExtended: a gather's offset VGPR holds 6-bit signed texel
            // offsets (gpu exec/sample.rs), as RADV reports them.
            min_texel_gather_offset: -32,
            max_texel_gather_offset: 31,
            max_framebuffer_width: 4096,
            max_framebuffer_height: 4096,
            max_framebuffer_layers: 256,
            framebuffer_color_sample_counts: one_four,
            framebuffer_depth_sample_counts: one_four,
            framebuffer_stencil_sample_counts: one_four,
            framebuffer_no_attachments_sample_counts: one_four,
            max_color_attachments: 4,
            // Multisampled colour images work in compute (image.rs MSAA_COUNTS: fetches, storage
            // loads, stores and atomics); depth ones cannot be created (Z-order MSAA layouts
            // are not modelled), but the Required Limits table asks 1 | 4 of these anyway.
            sampled_image_color_sample_counts: crate::image::MSAA_COUNTS,
            sampled_image_integer_sample_counts: crate::image::MSAA_COUNTS,
            sampled_image_depth_sample_counts: one_four,
            sampled_image_stencil_sample_counts: one_four,
            storage_image_sample_counts: crate::image::MSAA_COUNTS,
            max_sample_mask_words: 1,
            // Every queue (there are only compute and transfer ones) writes timestamps.
            timestamp_compute_and_graphics: vk::TRUE,
            timestamp_period: (1e9 / self.info.timestamp_hz as f64) as f32,
            discrete_queue_priorities: 2,
            point_size_range: [1.0, 1.0],
            line_width_range: [1.0, 1.0],
            optimal_buffer_copy_offset_alignment: 1,
            optimal_buffer_copy_row_pitch_alignment: 1,
            // RADV's figure; flushes are no-ops here (memory.rs) so any atom would do.
            non_coherent_atom_size: 64,
            ..Default::default()
        }
    }

    /// VkPhysicalDeviceVulkan11Properties: the one source of the ID, subgroup, point
    /// clipping, multiview, protected memory and maintenance3 properties.
    pub fn vulkan11_properties(&self) -> vk::PhysicalDeviceVulkan11Properties<'static> {
        let mut sg = vk::PhysicalDeviceSubgroupProperties::default();
        features::subgroup_properties(&features::SHADER, &mut sg);
        vk::PhysicalDeviceVulkan11Properties {
            device_uuid: device_uuid(&self.info),
            driver_uuid: cache_uuid(),
            device_luid_valid: vk::FALSE,
            subgroup_size: sg.subgroup_size,
            subgroup_supported_stages: sg.supported_stages,
            subgroup_supported_operations: sg.supported_operations,
            subgroup_quad_operations_in_all_stages: sg.quad_operations_in_all_stages,
            point_clipping_behavior: vk::PointClippingBehavior::ALL_CLIP_PLANES,
            // No multiview (a graphics feature, not reported) and no protected memory; the
            // multiview limits are the required minimums all the same (the Required Limits
            // table asks for them on every 1.1 device; the CTS checks them).
            max_multiview_view_count: 6,
            max_multiview_instance_index: (1 << 27) - 1,
            protected_no_fault: vk::FALSE,
            max_per_set_descriptors: MAX_DESCRIPTORS,
            max_memory_allocation_size: self.info.memory_size,
            ..Default::default()
        }
    }

    /// VkPhysicalDeviceVulkan12Properties, assembled from the driver, float controls and
    /// descriptor indexing sources.
    pub fn vulkan12_properties(&self) -> vk::PhysicalDeviceVulkan12Properties<'static> {
        let d = driver_properties();
        let f = float_controls_properties();
        let i = descriptor_indexing_properties();
        vk::PhysicalDeviceVulkan12Properties {
            driver_id: d.driver_id,
            driver_name: d.driver_name,
            driver_info: d.driver_info,
            conformance_version: d.conformance_version,
            denorm_behavior_independence: f.denorm_behavior_independence,
            rounding_mode_independence: f.rounding_mode_independence,
            shader_signed_zero_inf_nan_preserve_float16: f.shader_signed_zero_inf_nan_preserve_float16,
            shader_signed_zero_inf_nan_preserve_float32: f.shader_signed_zero_inf_nan_preserve_float32,
            shader_signed_zero_inf_nan_preserve_float64: f.shader_signed_zero_inf_nan_preserve_float64,
            shader_denorm_preserve_float16: f.shader_denorm_preserve_float16,
            shader_denorm_preserve_float32: f.shader_denorm_preserve_float32,
            shader_denorm_preserve_float64: f.shader_denorm_preserve_float64,
            shader_denorm_flush_to_zero_float16: f.shader_denorm_flush_to_zero_float16,
            shader_denorm_flush_to_zero_float32: f.shader_denorm_flush_to_zero_float32,
            shader_denorm_flush_to_zero_float64: f.shader_denorm_flush_to_zero_float64,
            shader_rounding_mode_rte_float16: f.shader_rounding_mode_rte_float16,
            shader_rounding_mode_rte_float32: f.shader_rounding_mode_rte_float32,
            shader_rounding_mode_rte_float64: f.shader_rounding_mode_rte_float64,
            shader_rounding_mode_rtz_float16: f.shader_rounding_mode_rtz_float16,
            shader_rounding_mode_rtz_float32: f.shader_rounding_mode_rtz_float32,
            shader_rounding_mode_rtz_float64: f.shader_rounding_mode_rtz_float64,
            max_update_after_bind_descriptors_in_all_pools: i.max_update_after_bind_descriptors_in_all_pools,
            shader_uniform_buffer_array_non_uniform_indexing_native: i
                .shader_uniform_buffer_array_non_uniform_indexing_native,
            shader_sampled_image_array_non_uniform_indexing_native: i
                .shader_sampled_image_array_non_uniform_indexing_native,
            shader_storage_buffer_array_non_uniform_indexing_native: i
                .shader_storage_buffer_array_non_uniform_indexing_native,
            shader_storage_image_array_non_uniform_indexing_native: i
                .shader_storage_image_array_non_uniform_indexing_native,
            shader_input_attachment_array_non_uniform_indexing_native: i
                .shader_input_attachment_array_non_uniform_indexing_native,
            robust_buffer_access_update_after_bind: i.robust_buffer_access_update_after_bind,
            quad_divergent_implicit_lod: i.quad_divergent_implicit_lod,
            max_per_stage_descriptor_update_after_bind_samplers: i.max_per_stage_descriptor_update_after_bind_samplers,
            max_per_stage_descriptor_update_after_bind_uniform_buffers: i
                .max_per_stage_descriptor_update_after_bind_uniform_buffers,
            max_per_stage_descriptor_update_after_bind_storage_buffers: i
                .max_per_stage_descriptor_update_after_bind_storage_buffers,
            max_per_stage_descriptor_update_after_bind_sampled_images: i
                .max_per_stage_descriptor_update_after_bind_sampled_images,
            max_per_stage_descriptor_update_after_bind_storage_images: i
                .max_per_stage_descriptor_update_after_bind_storage_images,
            max_per_stage_descriptor_update_after_bind_input_attachments: i
                .max_per_stage_descriptor_update_after_bind_input_attachments,
            max_per_stage_update_after_bind_resources: i.max_per_stage_update_after_bind_resources,
            max_descriptor_set_update_after_bind_samplers: i.max_descriptor_set_update_after_bind_samplers,
            max_descriptor_set_update_after_bind_uniform_buffers: i
                .max_descriptor_set_update_after_bind_uniform_buffers,
            max_descriptor_set_update_after_bind_uniform_buffers_dynamic: i
                .max_descriptor_set_update_after_bind_uniform_buffers_dynamic,
            max_descriptor_set_update_after_bind_storage_buffers: i
                .max_descriptor_set_update_after_bind_storage_buffers,
            max_descriptor_set_update_after_bind_storage_buffers_dynamic: i
                .max_descriptor_set_update_after_bind_storage_buffers_dynamic,
            max_descriptor_set_update_after_bind_sampled_images: i.max_descriptor_set_update_after_bind_sampled_images,
            max_descriptor_set_update_after_bind_storage_images: i.max_descriptor_set_update_after_bind_storage_images,
            max_descriptor_set_update_after_bind_input_attachments: i
                .max_descriptor_set_update_after_bind_input_attachments,
            // Depth/stencil resolves copy sample 0 of each aspect (graphics.rs, resolve.rs),
            // either aspect alone; no sampler reduction modes to filter with.
            supported_depth_resolve_modes: vk::ResolveModeFlags::SAMPLE_ZERO,
            supported_stencil_resolve_modes: vk::ResolveModeFlags::SAMPLE_ZERO,
            independent_resolve_none: vk::TRUE,
            independent_resolve: vk::FALSE,
            filter_minmax_single_component_formats: vk::FALSE,
            filter_minmax_image_component_mapping: vk::FALSE,
            max_timeline_semaphore_value_difference: MAX_TIMELINE_SEMAPHORE_VALUE_DIFFERENCE,
            framebuffer_integer_color_sample_counts: vk::SampleCountFlags::TYPE_1,
            ..Default::default()
        }
    }

    /// VkPhysicalDeviceVulkan13Properties: subgroup size control, inline uniform blocks
    /// (unsupported: 0), integer dot product (no form faster than its instructions),
    /// texel buffer alignment and maintenance4.
    pub fn vulkan13_properties(&self) -> vk::PhysicalDeviceVulkan13Properties<'static> {
        let mut sc = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
        features::subgroup_size_control_properties(&features::SHADER, &mut sc);
        vk::PhysicalDeviceVulkan13Properties {
            min_subgroup_size: sc.min_subgroup_size,
            max_subgroup_size: sc.max_subgroup_size,
            max_compute_workgroup_subgroups: sc.max_compute_workgroup_subgroups,
            required_subgroup_size_stages: sc.required_subgroup_size_stages,
            // Typed buffer descriptors take any dword-aligned base; one texel's alignment
            // suffices for smaller formats (RADV: 4 and true).
            storage_texel_buffer_offset_alignment_bytes: 4,
            storage_texel_buffer_offset_single_texel_alignment: vk::TRUE,
            uniform_texel_buffer_offset_alignment_bytes: 4,
            uniform_texel_buffer_offset_single_texel_alignment: vk::TRUE,
            max_buffer_size: self.info.memory_size,
            // Inline uniform blocks are not reported; the one limit the Required Limits
            // table asks of every 1.3 device regardless is its minimum.
            max_inline_uniform_total_size: 256,
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

    /// The queue families (queue.rs says which and why).
    pub fn queue_families(&self) -> [vk::QueueFamilyProperties; 2] {
        crate::queue::families()
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

/// Fills one extension structure of a properties chain from the Vulkan11/12/13 sources;
/// unknown ones are left alone.
///
/// # Safety
/// `s` must point to a valid structure of the type its `s_type` says.
unsafe fn fill_properties_ext(dev: &PhysicalDevice, s: *mut vk::BaseOutStructure<'static>) {
    use vk::StructureType as T;
    // SAFETY: by the caller's contract, each cast matches s_type.
    unsafe {
        match (*s).s_type {
            T::PHYSICAL_DEVICE_VULKAN_1_1_PROPERTIES => put(s, dev.vulkan11_properties()),
            T::PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES => put(s, dev.vulkan12_properties()),
            T::PHYSICAL_DEVICE_VULKAN_1_3_PROPERTIES => put(s, dev.vulkan13_properties()),
            T::PHYSICAL_DEVICE_ID_PROPERTIES => {
                let v = dev.vulkan11_properties();
                put(
                    s,
                    vk::PhysicalDeviceIDProperties {
                        device_uuid: v.device_uuid,
                        driver_uuid: v.driver_uuid,
                        device_luid: v.device_luid,
                        device_node_mask: v.device_node_mask,
                        device_luid_valid: v.device_luid_valid,
                        ..Default::default()
                    },
                );
            }
            T::PHYSICAL_DEVICE_SUBGROUP_PROPERTIES => {
                let v = dev.vulkan11_properties();
                put(
                    s,
                    vk::PhysicalDeviceSubgroupProperties {
                        subgroup_size: v.subgroup_size,
                        supported_stages: v.subgroup_supported_stages,
                        supported_operations: v.subgroup_supported_operations,
                        quad_operations_in_all_stages: v.subgroup_quad_operations_in_all_stages,
                        ..Default::default()
                    },
                );
            }
            T::PHYSICAL_DEVICE_POINT_CLIPPING_PROPERTIES => {
                let v = dev.vulkan11_properties();
                let p = vk::PhysicalDevicePointClippingProperties {
                    point_clipping_behavior: v.point_clipping_behavior,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_MULTIVIEW_PROPERTIES => {
                let v = dev.vulkan11_properties();
                let p = vk::PhysicalDeviceMultiviewProperties {
                    max_multiview_view_count: v.max_multiview_view_count,
                    max_multiview_instance_index: v.max_multiview_instance_index,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_PROTECTED_MEMORY_PROPERTIES => {
                let v = dev.vulkan11_properties();
                let p = vk::PhysicalDeviceProtectedMemoryProperties {
                    protected_no_fault: v.protected_no_fault,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES => {
                let v = dev.vulkan11_properties();
                let p = vk::PhysicalDeviceMaintenance3Properties {
                    max_per_set_descriptors: v.max_per_set_descriptors,
                    max_memory_allocation_size: v.max_memory_allocation_size,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_DRIVER_PROPERTIES => put(s, driver_properties()),
            T::PHYSICAL_DEVICE_EXTERNAL_MEMORY_HOST_PROPERTIES_EXT => put(
                s,
                vk::PhysicalDeviceExternalMemoryHostPropertiesEXT {
                    min_imported_host_pointer_alignment: crate::memory::HOST_POINTER_ALIGNMENT,
                    ..Default::default()
                },
            ),
            T::PHYSICAL_DEVICE_FLOAT_CONTROLS_PROPERTIES => put(s, float_controls_properties()),
            T::PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_PROPERTIES => put(s, descriptor_indexing_properties()),
            T::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_PROPERTIES => {
                let v = dev.vulkan12_properties();
                let p = vk::PhysicalDeviceTimelineSemaphoreProperties {
                    max_timeline_semaphore_value_difference: v.max_timeline_semaphore_value_difference,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_DEPTH_STENCIL_RESOLVE_PROPERTIES => {
                let v = dev.vulkan12_properties();
                let p = vk::PhysicalDeviceDepthStencilResolveProperties {
                    supported_depth_resolve_modes: v.supported_depth_resolve_modes,
                    supported_stencil_resolve_modes: v.supported_stencil_resolve_modes,
                    independent_resolve_none: v.independent_resolve_none,
                    independent_resolve: v.independent_resolve,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_SAMPLER_FILTER_MINMAX_PROPERTIES => {
                let v = dev.vulkan12_properties();
                let p = vk::PhysicalDeviceSamplerFilterMinmaxProperties {
                    filter_minmax_single_component_formats: v.filter_minmax_single_component_formats,
                    filter_minmax_image_component_mapping: v.filter_minmax_image_component_mapping,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES => {
                let v = dev.vulkan13_properties();
                let p = vk::PhysicalDeviceSubgroupSizeControlProperties {
                    min_subgroup_size: v.min_subgroup_size,
                    max_subgroup_size: v.max_subgroup_size,
                    max_compute_workgroup_subgroups: v.max_compute_workgroup_subgroups,
                    required_subgroup_size_stages: v.required_subgroup_size_stages,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_PROPERTIES => {
                // Inline uniform blocks are not supported: every limit is 0.
                put(s, vk::PhysicalDeviceInlineUniformBlockProperties::default());
            }
            T::PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_PROPERTIES => {
                // No dot product form is faster than the instructions it is made of.
                put(s, vk::PhysicalDeviceShaderIntegerDotProductProperties::default());
            }
            T::PHYSICAL_DEVICE_TEXEL_BUFFER_ALIGNMENT_PROPERTIES => {
                let v = dev.vulkan13_properties();
                let p = vk::PhysicalDeviceTexelBufferAlignmentProperties {
                    storage_texel_buffer_offset_alignment_bytes: v.storage_texel_buffer_offset_alignment_bytes,
                    storage_texel_buffer_offset_single_texel_alignment: v
                        .storage_texel_buffer_offset_single_texel_alignment,
                    uniform_texel_buffer_offset_alignment_bytes: v.uniform_texel_buffer_offset_alignment_bytes,
                    uniform_texel_buffer_offset_single_texel_alignment: v
                        .uniform_texel_buffer_offset_single_texel_alignment,
                    ..Default::default()
                };
                put(s, p);
            }
            T::PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES => {
                let v = dev.vulkan13_properties();
                put(
                    s,
                    vk::PhysicalDeviceMaintenance4Properties {
                        max_buffer_size: v.max_buffer_size,
                        ..Default::default()
                    },
                );
            }
            T::PHYSICAL_DEVICE_PUSH_DESCRIPTOR_PROPERTIES_KHR => {
                let p = vk::PhysicalDevicePushDescriptorPropertiesKHR {
                    max_push_descriptors: MAX_PUSH_DESCRIPTORS,
                    ..Default::default()
                };
                put(s, p);
            }
            _ => {}
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
        let dev = pd(p);
        // SAFETY: out and its chain are valid per the specification.
        unsafe {
            (*out).memory_properties = dev.memory_properties();
            for s in chain_mut((*out).p_next) {
                if (*s).s_type == vk::StructureType::PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT {
                    let b = &mut *(s as *mut vk::PhysicalDeviceMemoryBudgetPropertiesEXT<'static>);
                    let (budget, usage) = crate::memory::memory_budget(&dev.info);
                    // Entries past memoryHeapCount must be zero.
                    b.heap_budget = [0; vk::MAX_MEMORY_HEAPS];
                    b.heap_usage = [0; vk::MAX_MEMORY_HEAPS];
                    b.heap_budget[..2].copy_from_slice(&budget);
                    b.heap_usage[..2].copy_from_slice(&usage);
                }
            }
        }
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
        let _ = unsafe { enumerate(count, out, &pd(p).queue_families()) };
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
        let families = pd(p).queue_families();
        // SAFETY: pointers as the specification requires; only the core member is written
        // (no extension structure of the chain is supported).
        unsafe {
            if out.is_null() {
                *count = families.len() as u32;
            } else {
                let n = (*count as usize).min(families.len());
                for (i, f) in families.iter().take(n).enumerate() {
                    (*out.add(i)).queue_family_properties = *f;
                }
                *count = n as u32;
            }
        }
    })
}

/// Buffer features of `format`: the texel-buffer formats of `format.rs`; no format has
/// vertex-buffer features (there is no graphics).
pub fn buffer_format_features(format: vk::Format) -> vk::FormatFeatureFlags2 {
    crate::format::buffer_features(format)
}

fn format_properties(f: vk::Format) -> vk::FormatProperties {
    // The 1.0 flags are the low 31 bits of the *2 flags (bit 31 and up exist only there:
    // STORAGE_READ_WITHOUT_FORMAT and later).
    let v1 = |f: vk::FormatFeatureFlags2| vk::FormatFeatureFlags::from_raw((f.as_raw() & 0x7fff_ffff) as u32);
    let buffer = v1(buffer_format_features(f));
    let tiled = |t| v1(crate::image::tiling_features(f, t));
    vk::FormatProperties {
        buffer_features: buffer,
        linear_tiling_features: tiled(vk::ImageTiling::LINEAR),
        optimal_tiling_features: tiled(vk::ImageTiling::OPTIMAL),
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_format_properties(
    _p: vk::PhysicalDevice,
    f: vk::Format,
    out: *mut vk::FormatProperties,
) {
    guard("vkGetPhysicalDeviceFormatProperties", (), || {
        // SAFETY: out is valid per the specification.
        unsafe { *out = format_properties(f) };
    })
}

/// With `VkFormatProperties3` (Vulkan 1.3, VK_KHR_format_feature_flags2) in the chain.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_format_properties2(
    _p: vk::PhysicalDevice,
    f: vk::Format,
    out: *mut vk::FormatProperties2<'_>,
) {
    guard("vkGetPhysicalDeviceFormatProperties2", (), || {
        // SAFETY: out and its chain are valid per the specification.
        unsafe {
            (*out).format_properties = format_properties(f);
            for s in chain_mut((*out).p_next) {
                if (*s).s_type == vk::StructureType::FORMAT_PROPERTIES_3 {
                    let tiled = |t| crate::image::tiling_features(f, t);
                    let p = vk::FormatProperties3 {
                        buffer_features: buffer_format_features(f),
                        linear_tiling_features: tiled(vk::ImageTiling::LINEAR),
                        optimal_tiling_features: tiled(vk::ImageTiling::OPTIMAL),
                        ..Default::default()
                    };
                    put(s, p);
                }
            }
        }
    })
}

/// vkGetPhysicalDeviceToolProperties (Vulkan 1.3, VK_EXT_tooling_info): softnavi is the
/// driver, not a tool, and has no tools built in (its PM4 trace and debug checker are
/// GPU-model switches, not Vulkan tools): none. Layers add their own entries.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_tool_properties(
    _p: vk::PhysicalDevice,
    count: *mut u32,
    out: *mut vk::PhysicalDeviceToolProperties<'_>,
) -> vk::Result {
    guard("vkGetPhysicalDeviceToolProperties", vk::Result::ERROR_INITIALIZATION_FAILED, || {
        let none: [vk::PhysicalDeviceToolProperties<'static>; 0] = [];
        // SAFETY: pointers as the specification requires.
        unsafe { enumerate(count, out, &none) }
    })
}

/// Images of the formats and usages `image::format_properties` allows; FORMAT_NOT_SUPPORTED
/// (and zeroed properties) for the rest.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_image_format_properties(
    _p: vk::PhysicalDevice,
    f: vk::Format,
    t: vk::ImageType,
    tiling: vk::ImageTiling,
    u: vk::ImageUsageFlags,
    fl: vk::ImageCreateFlags,
    out: *mut vk::ImageFormatProperties,
) -> vk::Result {
    guard("vkGetPhysicalDeviceImageFormatProperties", vk::Result::ERROR_FORMAT_NOT_SUPPORTED, || {
        match crate::image::format_properties(f, t, tiling, u, fl) {
            Some(p) => {
                // SAFETY: out is valid per the specification.
                unsafe { *out = p };
                vk::Result::SUCCESS
            }
            None => {
                // SAFETY: out is valid per the specification; unsupported means all zero.
                unsafe { *out = vk::ImageFormatProperties::default() };
                vk::Result::ERROR_FORMAT_NOT_SUPPORTED
            }
        }
    })
}

/// As the 1.0 query, for a chain without external-memory or other requests softnavi would
/// have to answer (those make it FORMAT_NOT_SUPPORTED).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_image_format_properties2(
    _p: vk::PhysicalDevice,
    info: *const vk::PhysicalDeviceImageFormatInfo2<'_>,
    out: *mut vk::ImageFormatProperties2<'_>,
) -> vk::Result {
    guard("vkGetPhysicalDeviceImageFormatProperties2", vk::Result::ERROR_FORMAT_NOT_SUPPORTED, || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        let plain =
            [vk::StructureType::IMAGE_STENCIL_USAGE_CREATE_INFO, vk::StructureType::IMAGE_FORMAT_LIST_CREATE_INFO];
        // SAFETY: as above.
        if unsafe { chain(i.p_next) }.any(|s| !plain.contains(unsafe { &(*s).s_type })) {
            // SAFETY: out is valid per the specification; unsupported means all zero.
            unsafe { (*out).image_format_properties = vk::ImageFormatProperties::default() };
            return vk::Result::ERROR_FORMAT_NOT_SUPPORTED;
        }
        match crate::image::format_properties(i.format, i.ty, i.tiling, i.usage, i.flags) {
            Some(p) => {
                // SAFETY: out is valid per the specification.
                unsafe { (*out).image_format_properties = p };
                vk::Result::SUCCESS
            }
            None => {
                // SAFETY: out is valid per the specification; unsupported means all zero.
                unsafe { (*out).image_format_properties = vk::ImageFormatProperties::default() };
                vk::Result::ERROR_FORMAT_NOT_SUPPORTED
            }
        }
    })
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

/// External memory: host allocations can be imported under any buffer
/// (VK_EXT_external_memory_host); no other memory, fence or semaphore handle type.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_physical_device_external_buffer_properties(
    _p: vk::PhysicalDevice,
    i: *const vk::PhysicalDeviceExternalBufferInfo<'_>,
    out: *mut vk::ExternalBufferProperties<'_>,
) {
    let host = vk::ExternalMemoryHandleTypeFlags::HOST_ALLOCATION_EXT;
    // SAFETY: valid per the specification.
    let props = if unsafe { (*i).handle_type } == host {
        vk::ExternalMemoryProperties {
            external_memory_features: vk::ExternalMemoryFeatureFlags::IMPORTABLE,
            export_from_imported_handle_types: vk::ExternalMemoryHandleTypeFlags::empty(),
            compatible_handle_types: host,
        }
    } else {
        vk::ExternalMemoryProperties::default()
    };
    // SAFETY: out is valid per the specification.
    unsafe { (*out).external_memory_properties = props };
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
