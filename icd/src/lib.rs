//! softnavi: a Vulkan compute ICD over a software AMD RDNA3 (gfx1100).
//!
//! The Khronos loader finds this library through `softnavi_icd.json` and talks to it
//! through the three exported loader-interface functions below. Every Vulkan entry point
//! is reached through `vk_icdGetInstanceProcAddr` / `vkGetDeviceProcAddr`; only the ones
//! listed in [`entry_points`] exist: every core command of Vulkan 1.0–1.3 (those that
//! need a graphics queue or image support softnavi lacks fail with a log line, see
//! `graphics.rs`) and those of the supported extensions; presentation is absent. Command buffers become PM4 in GPU memory and reach the software GPU through
//! the `gpu` crate's winsys only.

use std::ffi::{c_char, CStr};

use ash::vk;
use handle::Object;

pub mod blit;
pub mod cmd;
pub mod debug;
pub mod descriptor;
pub mod device;
pub mod executable;
pub mod features;
pub mod format;
pub mod graphics;
pub mod handle;
pub mod image;
pub mod instance;
pub mod memory;
pub mod meta;
pub mod pcache;
pub mod pipeline;
pub mod private_data;
pub mod query;
pub mod queue;
pub mod resolve;
pub mod sync;
pub mod texel;
pub mod transfer;
pub mod view;

/// Where an entry point belongs, which decides which GetProcAddr returns it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// Callable without an instance (`vkCreateInstance`, ...).
    Global,
    Instance,
    /// Dispatched on a VkPhysicalDevice.
    Physical,
    /// Dispatched on a VkDevice, VkQueue or VkCommandBuffer.
    Device,
}

type Pfn = unsafe extern "system" fn();

macro_rules! entry_points {
    ($( $level:ident $name:literal => $f:path, )*) => {
        /// Every Vulkan command softnavi implements: name, level, function address.
        pub fn entry_points() -> &'static [(&'static str, Level, usize)] {
            static TABLE: std::sync::OnceLock<Vec<(&'static str, Level, usize)>> = std::sync::OnceLock::new();
            TABLE.get_or_init(|| vec![ $( ($name, Level::$level, $f as *const () as usize), )* ])
        }
    };
}

entry_points! {
    Global "vkCreateInstance" => instance::create_instance,
    Global "vkEnumerateInstanceExtensionProperties" => instance::enumerate_instance_extension_properties,
    Global "vkEnumerateInstanceVersion" => instance::enumerate_instance_version,
    Instance "vkDestroyInstance" => instance::destroy_instance,
    Instance "vkEnumeratePhysicalDevices" => instance::enumerate_physical_devices,
    Instance "vkEnumeratePhysicalDeviceGroups" => instance::enumerate_physical_device_groups,
    Instance "vkGetInstanceProcAddr" => get_instance_proc_addr,
    Physical "vkGetPhysicalDeviceProperties" => instance::get_physical_device_properties,
    Physical "vkGetPhysicalDeviceProperties2" => instance::get_physical_device_properties2,
    Physical "vkGetPhysicalDeviceFeatures" => instance::get_physical_device_features,
    Physical "vkGetPhysicalDeviceFeatures2" => instance::get_physical_device_features2,
    Physical "vkGetPhysicalDeviceMemoryProperties" => instance::get_physical_device_memory_properties,
    Physical "vkGetPhysicalDeviceMemoryProperties2" => instance::get_physical_device_memory_properties2,
    Physical "vkGetPhysicalDeviceQueueFamilyProperties" => instance::get_physical_device_queue_family_properties,
    Physical "vkGetPhysicalDeviceQueueFamilyProperties2" => instance::get_physical_device_queue_family_properties2,
    Physical "vkGetPhysicalDeviceFormatProperties" => instance::get_physical_device_format_properties,
    Physical "vkGetPhysicalDeviceFormatProperties2" => instance::get_physical_device_format_properties2,
    Physical "vkGetPhysicalDeviceImageFormatProperties" => instance::get_physical_device_image_format_properties,
    Physical "vkGetPhysicalDeviceImageFormatProperties2" => instance::get_physical_device_image_format_properties2,
    Physical "vkGetPhysicalDeviceSparseImageFormatProperties" => instance::get_physical_device_sparse_image_format_properties,
    Physical "vkGetPhysicalDeviceSparseImageFormatProperties2" => instance::get_physical_device_sparse_image_format_properties2,
    Physical "vkGetPhysicalDeviceExternalBufferProperties" => instance::get_physical_device_external_buffer_properties,
    Physical "vkGetPhysicalDeviceExternalFenceProperties" => instance::get_physical_device_external_fence_properties,
    Physical "vkGetPhysicalDeviceExternalSemaphoreProperties" => instance::get_physical_device_external_semaphore_properties,
    Physical "vkGetPhysicalDeviceProperties2KHR" => instance::get_physical_device_properties2,
    Physical "vkGetPhysicalDeviceFeatures2KHR" => instance::get_physical_device_features2,
    Physical "vkGetPhysicalDeviceMemoryProperties2KHR" => instance::get_physical_device_memory_properties2,
    Physical "vkGetPhysicalDeviceQueueFamilyProperties2KHR" => instance::get_physical_device_queue_family_properties2,
    Physical "vkGetPhysicalDeviceFormatProperties2KHR" => instance::get_physical_device_format_properties2,
    Physical "vkGetPhysicalDeviceImageFormatProperties2KHR" => instance::get_physical_device_image_format_properties2,
    Physical "vkGetPhysicalDeviceSparseImageFormatProperties2KHR" => instance::get_physical_device_sparse_image_format_properties2,
    Physical "vkEnumerateDeviceExtensionProperties" => instance::enumerate_device_extension_properties,
    Physical "vkGetPhysicalDeviceToolProperties" => instance::get_physical_device_tool_properties,
    Physical "vkGetPhysicalDeviceToolPropertiesEXT" => instance::get_physical_device_tool_properties,
    Physical "vkCreateDevice" => device::create_device,
    Device "vkGetDeviceProcAddr" => get_device_proc_addr,
    Device "vkDestroyDevice" => device::destroy_device,
    Device "vkGetDeviceQueue" => device::get_device_queue,
    Device "vkGetDeviceQueue2" => device::get_device_queue2,
    Device "vkDeviceWaitIdle" => device::device_wait_idle,
    Device "vkQueueWaitIdle" => queue::queue_wait_idle,
    Device "vkQueueSubmit" => queue::queue_submit,
    Device "vkQueueSubmit2" => queue::queue_submit2,
    Device "vkQueueSubmit2KHR" => queue::queue_submit2,
    Device "vkCreateFence" => sync::create_fence,
    Device "vkDestroyFence" => sync::destroy_fence,
    Device "vkResetFences" => sync::reset_fences,
    Device "vkGetFenceStatus" => sync::get_fence_status,
    Device "vkWaitForFences" => sync::wait_for_fences,
    Device "vkCreateSemaphore" => sync::create_semaphore,
    Device "vkDestroySemaphore" => sync::destroy_semaphore,
    Device "vkGetSemaphoreCounterValue" => sync::get_semaphore_counter_value,
    Device "vkWaitSemaphores" => sync::wait_semaphores,
    Device "vkSignalSemaphore" => sync::signal_semaphore,
    Device "vkGetSemaphoreCounterValueKHR" => sync::get_semaphore_counter_value,
    Device "vkWaitSemaphoresKHR" => sync::wait_semaphores,
    Device "vkSignalSemaphoreKHR" => sync::signal_semaphore,
    Device "vkCreateEvent" => device::create_event,
    Device "vkDestroyEvent" => device::destroy_event,
    Device "vkGetEventStatus" => device::get_event_status,
    Device "vkSetEvent" => device::set_event,
    Device "vkResetEvent" => device::reset_event,
    Device "vkGetDeviceGroupPeerMemoryFeatures" => device::get_device_group_peer_memory_features,
    Device "vkAllocateMemory" => memory::allocate_memory,
    Device "vkFreeMemory" => memory::free_memory,
    Device "vkMapMemory" => memory::map_memory,
    Device "vkUnmapMemory" => memory::unmap_memory,
    Device "vkFlushMappedMemoryRanges" => memory::flush_mapped_memory_ranges,
    Device "vkInvalidateMappedMemoryRanges" => memory::invalidate_mapped_memory_ranges,
    Device "vkGetDeviceMemoryCommitment" => memory::get_device_memory_commitment,
    Device "vkCreateBuffer" => memory::create_buffer,
    Device "vkDestroyBuffer" => memory::destroy_buffer,
    Device "vkCreateBufferView" => view::create_buffer_view,
    Device "vkDestroyBufferView" => view::destroy_buffer_view,
    Device "vkGetBufferMemoryRequirements" => memory::get_buffer_memory_requirements,
    Device "vkGetBufferMemoryRequirements2" => memory::get_buffer_memory_requirements2,
    Device "vkBindBufferMemory" => memory::bind_buffer_memory,
    Device "vkBindBufferMemory2" => memory::bind_buffer_memory2,
    Device "vkGetBufferMemoryRequirements2KHR" => memory::get_buffer_memory_requirements2,
    Device "vkBindBufferMemory2KHR" => memory::bind_buffer_memory2,
    Device "vkGetDeviceBufferMemoryRequirements" => memory::get_device_buffer_memory_requirements,
    Device "vkGetDeviceBufferMemoryRequirementsKHR" => memory::get_device_buffer_memory_requirements,
    Device "vkCreatePrivateDataSlot" => private_data::create_private_data_slot,
    Device "vkDestroyPrivateDataSlot" => private_data::destroy_private_data_slot,
    Device "vkSetPrivateData" => private_data::set_private_data,
    Device "vkGetPrivateData" => private_data::get_private_data,
    Device "vkCreatePrivateDataSlotEXT" => private_data::create_private_data_slot,
    Device "vkDestroyPrivateDataSlotEXT" => private_data::destroy_private_data_slot,
    Device "vkSetPrivateDataEXT" => private_data::set_private_data,
    Device "vkGetPrivateDataEXT" => private_data::get_private_data,
    Device "vkGetDescriptorSetLayoutSupportKHR" => descriptor::get_descriptor_set_layout_support,
    Device "vkCreateDescriptorUpdateTemplateKHR" => descriptor::create_descriptor_update_template,
    Device "vkDestroyDescriptorUpdateTemplateKHR" => descriptor::destroy_descriptor_update_template,
    Device "vkUpdateDescriptorSetWithTemplateKHR" => descriptor::update_descriptor_set_with_template,
    Device "vkTrimCommandPoolKHR" => cmd::trim_command_pool,
    Device "vkCreateDescriptorSetLayout" => descriptor::create_descriptor_set_layout,
    Device "vkDestroyDescriptorSetLayout" => descriptor::destroy_descriptor_set_layout,
    Device "vkGetDescriptorSetLayoutSupport" => descriptor::get_descriptor_set_layout_support,
    Device "vkCreateDescriptorPool" => descriptor::create_descriptor_pool,
    Device "vkDestroyDescriptorPool" => descriptor::destroy_descriptor_pool,
    Device "vkResetDescriptorPool" => descriptor::reset_descriptor_pool,
    Device "vkAllocateDescriptorSets" => descriptor::allocate_descriptor_sets,
    Device "vkFreeDescriptorSets" => descriptor::free_descriptor_sets,
    Device "vkUpdateDescriptorSets" => descriptor::update_descriptor_sets,
    Device "vkCreateDescriptorUpdateTemplate" => descriptor::create_descriptor_update_template,
    Device "vkDestroyDescriptorUpdateTemplate" => descriptor::destroy_descriptor_update_template,
    Device "vkUpdateDescriptorSetWithTemplate" => descriptor::update_descriptor_set_with_template,
    Device "vkCreateShaderModule" => pipeline::create_shader_module,
    Device "vkDestroyShaderModule" => pipeline::destroy_shader_module,
    Device "vkCreatePipelineLayout" => pipeline::create_pipeline_layout,
    Device "vkDestroyPipelineLayout" => pipeline::destroy_pipeline_layout,
    Device "vkCreatePipelineCache" => pipeline::create_pipeline_cache,
    Device "vkDestroyPipelineCache" => pipeline::destroy_pipeline_cache,
    Device "vkGetPipelineCacheData" => pipeline::get_pipeline_cache_data,
    Device "vkMergePipelineCaches" => pipeline::merge_pipeline_caches,
    Device "vkCreateComputePipelines" => pipeline::create_compute_pipelines,
    Device "vkDestroyPipeline" => pipeline::destroy_pipeline,
    Device "vkCreateQueryPool" => query::create_query_pool,
    Device "vkDestroyQueryPool" => query::destroy_query_pool,
    Device "vkGetQueryPoolResults" => query::get_query_pool_results,
    Device "vkResetQueryPool" => query::reset_query_pool,
    Device "vkResetQueryPoolEXT" => query::reset_query_pool,
    Device "vkCreateCommandPool" => cmd::create_command_pool,
    Device "vkDestroyCommandPool" => cmd::destroy_command_pool,
    Device "vkResetCommandPool" => cmd::reset_command_pool,
    Device "vkTrimCommandPool" => cmd::trim_command_pool,
    Device "vkAllocateCommandBuffers" => cmd::allocate_command_buffers,
    Device "vkFreeCommandBuffers" => cmd::free_command_buffers,
    Device "vkBeginCommandBuffer" => cmd::begin_command_buffer,
    Device "vkEndCommandBuffer" => cmd::end_command_buffer,
    Device "vkResetCommandBuffer" => cmd::reset_command_buffer,
    Device "vkCmdBindPipeline" => cmd::cmd_bind_pipeline,
    Device "vkCmdBindDescriptorSets" => cmd::cmd_bind_descriptor_sets,
    Device "vkCmdPushDescriptorSetKHR" => cmd::cmd_push_descriptor_set,
    Device "vkCmdPushDescriptorSetWithTemplateKHR" => cmd::cmd_push_descriptor_set_with_template,
    Device "vkCmdPushConstants" => cmd::cmd_push_constants,
    Device "vkCmdDispatch" => cmd::cmd_dispatch,
    Device "vkCmdDispatchBase" => cmd::cmd_dispatch_base,
    Device "vkCmdDispatchIndirect" => cmd::cmd_dispatch_indirect,
    Device "vkCmdSetDeviceMask" => cmd::cmd_set_device_mask,
    Device "vkCmdPipelineBarrier" => cmd::cmd_pipeline_barrier,
    Device "vkCmdCopyBuffer" => cmd::cmd_copy_buffer,
    Device "vkCmdCopyBuffer2" => cmd::cmd_copy_buffer2,
    Device "vkCmdFillBuffer" => cmd::cmd_fill_buffer,
    Device "vkCmdUpdateBuffer" => cmd::cmd_update_buffer,
    Device "vkCmdExecuteCommands" => cmd::cmd_execute_commands,
    Device "vkCmdSetEvent" => cmd::cmd_set_event,
    Device "vkCmdResetEvent" => cmd::cmd_reset_event,
    Device "vkCmdWaitEvents" => cmd::cmd_wait_events,
    Device "vkCmdPipelineBarrier2" => cmd::cmd_pipeline_barrier2,
    Device "vkCmdSetEvent2" => cmd::cmd_set_event2,
    Device "vkCmdResetEvent2" => cmd::cmd_reset_event2,
    Device "vkCmdWaitEvents2" => cmd::cmd_wait_events2,
    Device "vkCmdWriteTimestamp2" => query::cmd_write_timestamp2,
    Device "vkCmdWriteBufferMarkerAMD" => query::cmd_write_buffer_marker,
    Device "vkCmdWriteBufferMarker2AMD" => query::cmd_write_buffer_marker2,
    Device "vkCmdPipelineBarrier2KHR" => cmd::cmd_pipeline_barrier2,
    Device "vkCmdSetEvent2KHR" => cmd::cmd_set_event2,
    Device "vkCmdResetEvent2KHR" => cmd::cmd_reset_event2,
    Device "vkCmdWaitEvents2KHR" => cmd::cmd_wait_events2,
    Device "vkCmdWriteTimestamp2KHR" => query::cmd_write_timestamp2,
    Device "vkCmdResetQueryPool" => query::cmd_reset_query_pool,
    Device "vkCmdWriteTimestamp" => query::cmd_write_timestamp,
    Device "vkCmdCopyQueryPoolResults" => query::cmd_copy_query_pool_results,
    Device "vkCreateImage" => image::create_image,
    Device "vkDestroyImage" => image::destroy_image,
    Device "vkGetImageMemoryRequirements" => image::get_image_memory_requirements,
    Device "vkGetImageMemoryRequirements2" => image::get_image_memory_requirements2,
    Device "vkGetImageMemoryRequirements2KHR" => image::get_image_memory_requirements2,
    Device "vkGetDeviceImageMemoryRequirements" => image::get_device_image_memory_requirements,
    Device "vkGetDeviceImageMemoryRequirementsKHR" => image::get_device_image_memory_requirements,
    Device "vkGetImageSparseMemoryRequirements" => image::get_image_sparse_memory_requirements,
    Device "vkGetImageSparseMemoryRequirements2" => image::get_image_sparse_memory_requirements2,
    Device "vkGetImageSparseMemoryRequirements2KHR" => image::get_image_sparse_memory_requirements2,
    Device "vkGetDeviceImageSparseMemoryRequirements" => image::get_device_image_sparse_memory_requirements,
    Device "vkGetDeviceImageSparseMemoryRequirementsKHR" => image::get_device_image_sparse_memory_requirements,
    Device "vkBindImageMemory" => image::bind_image_memory,
    Device "vkBindImageMemory2" => image::bind_image_memory2,
    Device "vkBindImageMemory2KHR" => image::bind_image_memory2,
    Device "vkGetImageSubresourceLayout" => image::get_image_subresource_layout,
    Device "vkCreateImageView" => image::create_image_view,
    Device "vkDestroyImageView" => image::destroy_image_view,
    Device "vkCreateSampler" => image::create_sampler,
    Device "vkDestroySampler" => image::destroy_sampler,
    Device "vkCreateSamplerYcbcrConversion" => image::create_sampler_ycbcr_conversion,
    Device "vkDestroySamplerYcbcrConversion" => image::destroy_sampler_ycbcr_conversion,
    Device "vkCreateRenderPass" => graphics::create_render_pass,
    Device "vkCreateRenderPass2" => graphics::create_render_pass2,
    Device "vkCreateRenderPass2KHR" => graphics::create_render_pass2,
    Device "vkDestroyRenderPass" => graphics::destroy_render_pass,
    Device "vkGetRenderAreaGranularity" => graphics::get_render_area_granularity,
    Device "vkCreateFramebuffer" => graphics::create_framebuffer,
    Device "vkDestroyFramebuffer" => graphics::destroy_framebuffer,
    Device "vkCreateGraphicsPipelines" => graphics::create_graphics_pipelines,
    Device "vkQueueBindSparse" => graphics::queue_bind_sparse,
    Device "vkCmdSetViewport" => graphics::cmd_set_viewport,
    Device "vkCmdSetScissor" => graphics::cmd_set_scissor,
    Device "vkCmdSetLineWidth" => graphics::cmd_set_line_width,
    Device "vkCmdSetDepthBias" => graphics::cmd_set_depth_bias,
    Device "vkCmdSetBlendConstants" => graphics::cmd_set_blend_constants,
    Device "vkCmdSetDepthBounds" => graphics::cmd_set_depth_bounds,
    Device "vkCmdSetStencilCompareMask" => graphics::cmd_set_stencil_compare_mask,
    Device "vkCmdSetStencilWriteMask" => graphics::cmd_set_stencil_write_mask,
    Device "vkCmdSetStencilReference" => graphics::cmd_set_stencil_reference,
    Device "vkCmdBindIndexBuffer" => graphics::cmd_bind_index_buffer,
    Device "vkCmdBindVertexBuffers" => graphics::cmd_bind_vertex_buffers,
    Device "vkCmdDraw" => graphics::cmd_draw,
    Device "vkCmdDrawIndexed" => graphics::cmd_draw_indexed,
    Device "vkCmdDrawIndirect" => graphics::cmd_draw_indirect,
    Device "vkCmdDrawIndexedIndirect" => graphics::cmd_draw_indexed_indirect,
    Device "vkCmdDrawIndirectCount" => graphics::cmd_draw_indirect_count,
    Device "vkCmdDrawIndexedIndirectCount" => graphics::cmd_draw_indexed_indirect_count,
    Device "vkCmdClearAttachments" => graphics::cmd_clear_attachments,
    Device "vkCmdBeginRenderPass" => graphics::cmd_begin_render_pass,
    Device "vkCmdNextSubpass" => graphics::cmd_next_subpass,
    Device "vkCmdEndRenderPass" => graphics::cmd_end_render_pass,
    Device "vkCmdBeginRenderPass2" => graphics::cmd_begin_render_pass2,
    Device "vkCmdNextSubpass2" => graphics::cmd_next_subpass2,
    Device "vkCmdEndRenderPass2" => graphics::cmd_end_render_pass2,
    Device "vkCmdBeginRendering" => graphics::cmd_begin_rendering,
    Device "vkCmdEndRendering" => graphics::cmd_end_rendering,
    Device "vkCmdSetCullMode" => graphics::cmd_set_cull_mode,
    Device "vkCmdSetFrontFace" => graphics::cmd_set_front_face,
    Device "vkCmdSetPrimitiveTopology" => graphics::cmd_set_primitive_topology,
    Device "vkCmdSetViewportWithCount" => graphics::cmd_set_viewport_with_count,
    Device "vkCmdSetScissorWithCount" => graphics::cmd_set_scissor_with_count,
    Device "vkCmdBindVertexBuffers2" => graphics::cmd_bind_vertex_buffers2,
    Device "vkCmdSetDepthTestEnable" => graphics::cmd_set_depth_test_enable,
    Device "vkCmdSetDepthWriteEnable" => graphics::cmd_set_depth_write_enable,
    Device "vkCmdSetDepthCompareOp" => graphics::cmd_set_depth_compare_op,
    Device "vkCmdSetDepthBoundsTestEnable" => graphics::cmd_set_depth_bounds_test_enable,
    Device "vkCmdSetStencilTestEnable" => graphics::cmd_set_stencil_test_enable,
    Device "vkCmdSetStencilOp" => graphics::cmd_set_stencil_op,
    Device "vkCmdSetRasterizerDiscardEnable" => graphics::cmd_set_rasterizer_discard_enable,
    Device "vkCmdSetDepthBiasEnable" => graphics::cmd_set_depth_bias_enable,
    Device "vkCmdSetPrimitiveRestartEnable" => graphics::cmd_set_primitive_restart_enable,
    Device "vkCmdCopyImage" => transfer::cmd_copy_image,
    Device "vkCmdBlitImage" => blit::cmd_blit_image,
    Device "vkCmdCopyBufferToImage" => transfer::cmd_copy_buffer_to_image,
    Device "vkCmdCopyImageToBuffer" => transfer::cmd_copy_image_to_buffer,
    Device "vkCmdClearColorImage" => transfer::cmd_clear_color_image,
    Device "vkCmdClearDepthStencilImage" => transfer::cmd_clear_depth_stencil_image,
    Device "vkCmdResolveImage" => resolve::cmd_resolve_image,
    Device "vkCmdCopyImage2" => transfer::cmd_copy_image2,
    Device "vkCmdBlitImage2" => blit::cmd_blit_image2,
    Device "vkCmdCopyBufferToImage2" => transfer::cmd_copy_buffer_to_image2,
    Device "vkCmdCopyImageToBuffer2" => transfer::cmd_copy_image_to_buffer2,
    Device "vkCmdResolveImage2" => resolve::cmd_resolve_image2,
    Device "vkCmdBeginQuery" => graphics::cmd_begin_query,
    Device "vkCmdEndQuery" => graphics::cmd_end_query,
    Device "vkSetDebugUtilsObjectNameEXT" => debug::set_debug_utils_object_name,
    Device "vkSetDebugUtilsObjectTagEXT" => debug::set_debug_utils_object_tag,
    Device "vkCmdBeginDebugUtilsLabelEXT" => debug::cmd_begin_label,
    Device "vkCmdEndDebugUtilsLabelEXT" => debug::cmd_end_label,
    Device "vkCmdInsertDebugUtilsLabelEXT" => debug::cmd_insert_label,
    Device "vkQueueBeginDebugUtilsLabelEXT" => debug::queue_begin_label,
    Device "vkQueueEndDebugUtilsLabelEXT" => debug::queue_end_label,
    Device "vkQueueInsertDebugUtilsLabelEXT" => debug::queue_insert_label,
    Device "vkGetPipelineExecutablePropertiesKHR" => executable::get_pipeline_executable_properties,
    Device "vkGetPipelineExecutableStatisticsKHR" => executable::get_pipeline_executable_statistics,
    Device "vkGetPipelineExecutableInternalRepresentationsKHR" => executable::get_pipeline_executable_internal_representations,
    Device "vkGetMemoryHostPointerPropertiesEXT" => memory::get_memory_host_pointer_properties,
    Device "vkGetBufferDeviceAddress" => memory::get_buffer_device_address,
    Device "vkGetBufferOpaqueCaptureAddress" => memory::get_buffer_opaque_capture_address,
    Device "vkGetDeviceMemoryOpaqueCaptureAddress" => memory::get_device_memory_opaque_capture_address,
    Device "vkGetBufferDeviceAddressKHR" => memory::get_buffer_device_address,
    Device "vkGetBufferOpaqueCaptureAddressKHR" => memory::get_buffer_opaque_capture_address,
    Device "vkGetDeviceMemoryOpaqueCaptureAddressKHR" => memory::get_device_memory_opaque_capture_address,
}

/// The command `name` at one of the `allowed` levels, if it is core or `extension_ok`
/// accepts its extension.
fn lookup_if(name: *const c_char, allowed: &[Level], extension_ok: impl Fn(&CStr) -> bool) -> vk::PFN_vkVoidFunction {
    if name.is_null() {
        return None;
    }
    // SAFETY: the loader passes a NUL-terminated name.
    let name = unsafe { CStr::from_ptr(name) }.to_str().ok()?;
    if features::command_extension(name).is_some_and(|e| !extension_ok(e)) {
        return None;
    }
    let (_, _, f) = entry_points().iter().find(|(n, l, _)| *n == name && allowed.contains(l))?;
    // SAFETY: every table entry is an `unsafe extern "system" fn`; the caller casts it
    // back to the command's real signature, as GetProcAddr's contract says.
    Some(unsafe { std::mem::transmute::<usize, Pfn>(*f) })
}

/// Any command softnavi has, of a supported (device or instance) extension or core.
fn lookup(name: *const c_char, allowed: &[Level]) -> vk::PFN_vkVoidFunction {
    lookup_if(name, allowed, |e| {
        features::device_extensions(&features::SHADER).iter().any(|(n, _)| *n == e)
            || instance::INSTANCE_EXTENSIONS.iter().any(|(n, _)| *n == e)
    })
}

/// `vkGetInstanceProcAddr`: global commands without an instance, every command with one
/// (device commands of every supported extension: the loader builds its trampolines from
/// them before any device exists).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_instance_proc_addr(
    instance: vk::Instance,
    name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    handle::guard("vkGetInstanceProcAddr", None, || {
        if instance == vk::Instance::null() {
            lookup(name, &[Level::Global])
        } else {
            lookup(name, &[Level::Global, Level::Instance, Level::Physical, Level::Device])
        }
    })
}

/// `vkGetDeviceProcAddr`: core device-level commands, and those of the extensions enabled
/// on `device` (NULL for any other, as the specification's table says).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_proc_addr(device: vk::Device, name: *const c_char) -> vk::PFN_vkVoidFunction {
    handle::guard("vkGetDeviceProcAddr", None, || {
        // SAFETY: a live device handle per the specification (null is tolerated).
        let enabled = unsafe { device::Device::from_handle(device) }.map(|d| d.extensions.clone()).unwrap_or_default();
        lookup_if(name, &[Level::Device], |e| enabled.iter().any(|x| x.as_c_str() == e))
    })
}

/// Loader interface: the highest version softnavi speaks is 5.
///
/// # Safety
/// Called by the Khronos loader with a valid pointer.
#[no_mangle]
pub unsafe extern "system" fn vk_icdNegotiateLoaderICDInterfaceVersion(version: *mut u32) -> vk::Result {
    if version.is_null() {
        return vk::Result::ERROR_INCOMPATIBLE_DRIVER;
    }
    // SAFETY: checked non-null above.
    unsafe {
        if *version < 2 {
            return vk::Result::ERROR_INCOMPATIBLE_DRIVER;
        }
        *version = (*version).min(5);
    }
    vk::Result::SUCCESS
}

/// # Safety
/// Called by the Khronos loader.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetInstanceProcAddr(
    instance: vk::Instance,
    name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    // SAFETY: same contract.
    unsafe { get_instance_proc_addr(instance, name) }
}

/// Physical-device-level commands, including ones the loader does not know.
///
/// # Safety
/// Called by the Khronos loader.
#[no_mangle]
pub unsafe extern "system" fn vk_icdGetPhysicalDeviceProcAddr(
    _instance: vk::Instance,
    name: *const c_char,
) -> vk::PFN_vkVoidFunction {
    handle::guard("vk_icdGetPhysicalDeviceProcAddr", None, || lookup(name, &[Level::Physical]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entry_point_names_are_unique_and_vulkan_shaped() {
        let mut names: Vec<&str> = entry_points().iter().map(|e| e.0).collect();
        names.sort_unstable();
        let n = names.len();
        names.dedup();
        assert_eq!(names.len(), n, "duplicate entry point");
        assert!(names.iter().all(|n| n.starts_with("vk")));
    }

    #[test]
    fn presentation_entry_points_are_absent() {
        for name in [c"vkCreateSwapchainKHR", c"vkQueuePresentKHR", c"vkDestroySurfaceKHR"] {
            assert!(lookup(name.as_ptr(), &[Level::Global, Level::Instance, Level::Physical, Level::Device]).is_none());
        }
        assert!(lookup(c"vkCmdDispatch".as_ptr(), &[Level::Device]).is_some());
        assert!(lookup(c"vkCreateInstance".as_ptr(), &[Level::Device]).is_none());
    }

    /// Every core command of Vulkan 1.0-1.3, as ash's tables (generated from the Khronos
    /// registry) list them, is returned by GetProcAddr at its level. Layer enumeration is
    /// the loader's, not a driver's.
    #[test]
    fn every_core_command_is_returned() {
        let mut missing = Vec::new();
        let mut check = |name: &CStr, levels: &[Level]| {
            let loader_owned = [c"vkEnumerateInstanceLayerProperties", c"vkEnumerateDeviceLayerProperties"];
            if !loader_owned.contains(&name) && lookup(name.as_ptr(), levels).is_none() {
                missing.push(name.to_string_lossy().into_owned());
            }
            std::ptr::null()
        };
        let global = [Level::Global];
        // What vkGetInstanceProcAddr with an instance answers (vkGetDeviceProcAddr is in
        // the instance table).
        let instance = [Level::Global, Level::Instance, Level::Physical, Level::Device];
        let device = [Level::Device];
        ash::EntryFnV1_0::load(|n| check(n, &global));
        ash::EntryFnV1_1::load(|n| check(n, &global));
        ash::InstanceFnV1_0::load(|n| check(n, &instance));
        ash::InstanceFnV1_1::load(|n| check(n, &instance));
        ash::InstanceFnV1_3::load(|n| check(n, &instance));
        ash::DeviceFnV1_0::load(|n| check(n, &device));
        ash::DeviceFnV1_1::load(|n| check(n, &device));
        ash::DeviceFnV1_2::load(|n| check(n, &device));
        ash::DeviceFnV1_3::load(|n| check(n, &device));
        assert!(missing.is_empty(), "core commands GetProcAddr does not return: {missing:?}");
    }

    /// vkGetDeviceProcAddr returns an extension's commands only on a device that enabled it;
    /// vkGetInstanceProcAddr those of every supported extension and no other.
    #[test]
    fn extension_commands_follow_the_enabled_extensions() {
        // SAFETY: valid create infos and live handles, as Vulkan requires.
        unsafe {
            let mut instance = vk::Instance::null();
            let ii = vk::InstanceCreateInfo::default();
            assert_eq!(instance::create_instance(&ii, std::ptr::null(), &mut instance), vk::Result::SUCCESS);
            let mut pd = vk::PhysicalDevice::null();
            let mut n = 1;
            assert_eq!(instance::enumerate_physical_devices(instance, &mut n, &mut pd), vk::Result::SUCCESS);
            let prio = [1.0];
            let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(0).queue_priorities(&prio)];
            let device = |exts: &[*const c_char]| {
                let di = vk::DeviceCreateInfo::default().queue_create_infos(&queues).enabled_extension_names(exts);
                let mut d = vk::Device::null();
                assert_eq!(device::create_device(pd, &di, std::ptr::null(), &mut d), vk::Result::SUCCESS);
                d
            };
            let plain = device(&[]);
            let with = device(&[vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME.as_ptr()]);
            let name = c"vkGetPipelineExecutableStatisticsKHR".as_ptr();
            assert!(get_device_proc_addr(plain, name).is_none());
            assert!(get_device_proc_addr(with, name).is_some());
            assert!(get_device_proc_addr(plain, c"vkCmdDispatch".as_ptr()).is_some());
            assert!(get_instance_proc_addr(instance, name).is_some());
            let bda = c"vkGetBufferDeviceAddressKHR".as_ptr();
            assert_eq!(get_instance_proc_addr(instance, bda).is_some(), features::SHADER.buffer_device_address);
            // Aliases of core commands under an extension's name need that extension.
            assert!(get_device_proc_addr(plain, c"vkBindImageMemory2KHR".as_ptr()).is_none());
            assert!(get_device_proc_addr(plain, c"vkBindImageMemory2".as_ptr()).is_some());
            // The debug-utils commands follow the instance's extensions.
            let label = c"vkCmdBeginDebugUtilsLabelEXT".as_ptr();
            assert!(get_device_proc_addr(plain, label).is_none());
            assert!(get_instance_proc_addr(instance, label).is_some());
            let exts = [vk::EXT_DEBUG_UTILS_NAME.as_ptr()];
            let mut debug = vk::Instance::null();
            let di = vk::InstanceCreateInfo::default().enabled_extension_names(&exts);
            assert_eq!(instance::create_instance(&di, std::ptr::null(), &mut debug), vk::Result::SUCCESS);
            let mut dpd = vk::PhysicalDevice::null();
            assert_eq!(instance::enumerate_physical_devices(debug, &mut n, &mut dpd), vk::Result::SUCCESS);
            let di = vk::DeviceCreateInfo::default().queue_create_infos(&queues);
            let mut dd = vk::Device::null();
            assert_eq!(device::create_device(dpd, &di, std::ptr::null(), &mut dd), vk::Result::SUCCESS);
            assert!(get_device_proc_addr(dd, label).is_some());
            device::destroy_device(dd, std::ptr::null());
            instance::destroy_instance(debug, std::ptr::null());
            device::destroy_device(plain, std::ptr::null());
            device::destroy_device(with, std::ptr::null());
            instance::destroy_instance(instance, std::ptr::null());
        }
    }

    /// An entry point named with an extension's suffix is listed with its extension, so
    /// that vkGetDeviceProcAddr returns it only where that extension is enabled
    /// (CTS api.get_device_proc_addr.non_enabled).
    #[test]
    fn extension_named_commands_name_their_extension() {
        let unlisted: Vec<&str> = entry_points()
            .iter()
            .filter(|(n, l, _)| *l == Level::Device && ["KHR", "EXT", "AMD"].iter().any(|s| n.ends_with(s)))
            .filter(|(n, _, _)| features::command_extension(n).is_none())
            .map(|(n, _, _)| *n)
            .collect();
        assert!(unlisted.is_empty(), "extension commands without their extension: {unlisted:?}");
    }
}
