//! What softnavi reports about its shaders: the one mapping from
//! `compiler_bridge::SHADER_FEATURES` (what the lowering handles) to Vulkan feature
//! structures, device extensions and subgroup properties. Reporting, device creation and the
//! tests all go through here, so a field flipped in the table shows up everywhere at once.

use std::ffi::CStr;

use ash::vk;
use compiler_bridge::ShaderFeatures;

/// The table in effect.
pub const SHADER: ShaderFeatures = compiler_bridge::SHADER_FEATURES;

/// What the ICD itself implements of the Vulkan 1.2 / 1.3 API (the shader side is
/// [`SHADER`]). Each flag names the module that makes it true; a feature or extension is
/// reported only when its flag is set.
pub mod api {
    /// Timeline semaphores: host wait / signal / query, queue wait / signal (queue.rs).
    pub const TIMELINE_SEMAPHORE: bool = true;
    /// vkQueueSubmit2, vkCmdPipelineBarrier2, the *2 event and timestamp commands (queue.rs, cmd.rs).
    pub const SYNCHRONIZATION2: bool = true;
    /// vkResetQueryPool from the host (query.rs).
    pub const HOST_QUERY_RESET: bool = true;
    /// Descriptor indexing on the API side: update-after-bind pools and layouts, partially
    /// bound bindings, variable descriptor counts (descriptor.rs). The shader side is
    /// `SHADER.descriptor_indexing`.
    pub const DESCRIPTOR_INDEXING: bool = true;
    /// VK_KHR_push_descriptor (descriptor.rs, cmd.rs).
    pub const PUSH_DESCRIPTOR: bool = true;
    /// Buffer views for uniform and storage texel buffers (descriptor.rs, memory.rs); the
    /// shader side is `SHADER.texel_buffers`.
    pub const BUFFER_VIEWS: bool = true;
    /// Samplers in descriptors (SAMPLER, COMBINED_IMAGE_SAMPLER, SAMPLED_IMAGE): sampling
    /// and gathers on the GPU model (gpu exec/sample.rs) through S#s (image.rs).
    pub const SAMPLERS: bool = true;
    /// Atomics on storage images (STORAGE_IMAGE_ATOMIC): `image_atomic_*` on 32-bit integer
    /// formats (gpu image.rs).
    pub const IMAGE_ATOMICS: bool = true;
    /// Pipeline caches with serialised code objects and VK_PIPELINE_CREATE_FAIL_ON_PIPELINE_COMPILE_REQUIRED
    /// (pipeline.rs).
    pub const PIPELINE_CREATION_CACHE_CONTROL: bool = true;
    /// vkCreatePrivateDataSlot and friends (private_data.rs).
    pub const PRIVATE_DATA: bool = true;
    /// vkGetDeviceBufferMemoryRequirements, LocalSizeId, maxBufferSize (memory.rs).
    pub const MAINTENANCE4: bool = true;
}

/// `VkPhysicalDeviceFeatures` member names, in declaration order.
const CORE_MEMBERS: &[&str] = &[
    "robustBufferAccess",
    "fullDrawIndexUint32",
    "imageCubeArray",
    "independentBlend",
    "geometryShader",
    "tessellationShader",
    "sampleRateShading",
    "dualSrcBlend",
    "logicOp",
    "multiDrawIndirect",
    "drawIndirectFirstInstance",
    "depthClamp",
    "depthBiasClamp",
    "fillModeNonSolid",
    "depthBounds",
    "wideLines",
    "largePoints",
    "alphaToOne",
    "multiViewport",
    "samplerAnisotropy",
    "textureCompressionETC2",
    "textureCompressionASTC_LDR",
    "textureCompressionBC",
    "occlusionQueryPrecise",
    "pipelineStatisticsQuery",
    "vertexPipelineStoresAndAtomics",
    "fragmentStoresAndAtomics",
    "shaderTessellationAndGeometryPointSize",
    "shaderImageGatherExtended",
    "shaderStorageImageExtendedFormats",
    "shaderStorageImageMultisample",
    "shaderStorageImageReadWithoutFormat",
    "shaderStorageImageWriteWithoutFormat",
    "shaderUniformBufferArrayDynamicIndexing",
    "shaderSampledImageArrayDynamicIndexing",
    "shaderStorageBufferArrayDynamicIndexing",
    "shaderStorageImageArrayDynamicIndexing",
    "shaderClipDistance",
    "shaderCullDistance",
    "shaderFloat64",
    "shaderInt64",
    "shaderInt16",
    "shaderResourceResidency",
    "shaderResourceMinLod",
    "sparseBinding",
    "sparseResidencyBuffer",
    "sparseResidencyImage2D",
    "sparseResidencyImage3D",
    "sparseResidency2Samples",
    "sparseResidency4Samples",
    "sparseResidency8Samples",
    "sparseResidency16Samples",
    "sparseResidencyAliased",
    "variableMultisampleRate",
    "inheritedQueries",
];

/// A feature structure that is a plain list of VkBool32 after sType/pNext.
pub struct FeatureStruct {
    pub s_type: vk::StructureType,
    pub name: &'static str,
    /// Member names in declaration order.
    pub members: &'static [&'static str],
}

/// Every extension feature structure softnavi knows (Vulkan 1.1 core and the extensions
/// of [`device_extensions`]). Anything else in a chain is left alone.
pub const FEATURE_STRUCTS: &[FeatureStruct] = &[
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_16BIT_STORAGE_FEATURES,
        name: "VkPhysicalDevice16BitStorageFeatures",
        members: &[
            "storageBuffer16BitAccess",
            "uniformAndStorageBuffer16BitAccess",
            "storagePushConstant16",
            "storageInputOutput16",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_MULTIVIEW_FEATURES,
        name: "VkPhysicalDeviceMultiviewFeatures",
        members: &["multiview", "multiviewGeometryShader", "multiviewTessellationShader"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_VARIABLE_POINTERS_FEATURES,
        name: "VkPhysicalDeviceVariablePointersFeatures",
        members: &["variablePointersStorageBuffer", "variablePointers"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_PROTECTED_MEMORY_FEATURES,
        name: "VkPhysicalDeviceProtectedMemoryFeatures",
        members: &["protectedMemory"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SAMPLER_YCBCR_CONVERSION_FEATURES,
        name: "VkPhysicalDeviceSamplerYcbcrConversionFeatures",
        members: &["samplerYcbcrConversion"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_DRAW_PARAMETERS_FEATURES,
        name: "VkPhysicalDeviceShaderDrawParametersFeatures",
        members: &["shaderDrawParameters"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_FLOAT16_INT8_FEATURES,
        name: "VkPhysicalDeviceShaderFloat16Int8Features",
        members: &["shaderFloat16", "shaderInt8"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_8BIT_STORAGE_FEATURES,
        name: "VkPhysicalDevice8BitStorageFeatures",
        members: &["storageBuffer8BitAccess", "uniformAndStorageBuffer8BitAccess", "storagePushConstant8"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_ATOMIC_INT64_FEATURES,
        name: "VkPhysicalDeviceShaderAtomicInt64Features",
        members: &["shaderBufferInt64Atomics", "shaderSharedInt64Atomics"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT,
        name: "VkPhysicalDeviceShaderAtomicFloatFeaturesEXT",
        members: &[
            "shaderBufferFloat32Atomics",
            "shaderBufferFloat32AtomicAdd",
            "shaderBufferFloat64Atomics",
            "shaderBufferFloat64AtomicAdd",
            "shaderSharedFloat32Atomics",
            "shaderSharedFloat32AtomicAdd",
            "shaderSharedFloat64Atomics",
            "shaderSharedFloat64AtomicAdd",
            "shaderImageFloat32Atomics",
            "shaderImageFloat32AtomicAdd",
            "sparseImageFloat32Atomics",
            "sparseImageFloat32AtomicAdd",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_2_FEATURES_EXT,
        name: "VkPhysicalDeviceShaderAtomicFloat2FeaturesEXT",
        members: &[
            "shaderBufferFloat16Atomics",
            "shaderBufferFloat16AtomicAdd",
            "shaderBufferFloat16AtomicMinMax",
            "shaderBufferFloat32AtomicMinMax",
            "shaderBufferFloat64AtomicMinMax",
            "shaderSharedFloat16Atomics",
            "shaderSharedFloat16AtomicAdd",
            "shaderSharedFloat16AtomicMinMax",
            "shaderSharedFloat32AtomicMinMax",
            "shaderSharedFloat64AtomicMinMax",
            "shaderImageFloat32AtomicMinMax",
            "sparseImageFloat32AtomicMinMax",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_INTEGER_DOT_PRODUCT_FEATURES,
        name: "VkPhysicalDeviceShaderIntegerDotProductFeatures",
        members: &["shaderIntegerDotProduct"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_BUFFER_DEVICE_ADDRESS_FEATURES,
        name: "VkPhysicalDeviceBufferDeviceAddressFeatures",
        members: &["bufferDeviceAddress", "bufferDeviceAddressCaptureReplay", "bufferDeviceAddressMultiDevice"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES,
        name: "VkPhysicalDeviceSubgroupSizeControlFeatures",
        members: &["subgroupSizeControl", "computeFullSubgroups"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR,
        name: "VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR",
        members: &["pipelineExecutableInfo"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_1_FEATURES,
        name: "VkPhysicalDeviceVulkan11Features",
        members: &[
            "storageBuffer16BitAccess",
            "uniformAndStorageBuffer16BitAccess",
            "storagePushConstant16",
            "storageInputOutput16",
            "multiview",
            "multiviewGeometryShader",
            "multiviewTessellationShader",
            "variablePointersStorageBuffer",
            "variablePointers",
            "protectedMemory",
            "samplerYcbcrConversion",
            "shaderDrawParameters",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_2_FEATURES,
        name: "VkPhysicalDeviceVulkan12Features",
        members: &[
            "samplerMirrorClampToEdge",
            "drawIndirectCount",
            "storageBuffer8BitAccess",
            "uniformAndStorageBuffer8BitAccess",
            "storagePushConstant8",
            "shaderBufferInt64Atomics",
            "shaderSharedInt64Atomics",
            "shaderFloat16",
            "shaderInt8",
            "descriptorIndexing",
            "shaderInputAttachmentArrayDynamicIndexing",
            "shaderUniformTexelBufferArrayDynamicIndexing",
            "shaderStorageTexelBufferArrayDynamicIndexing",
            "shaderUniformBufferArrayNonUniformIndexing",
            "shaderSampledImageArrayNonUniformIndexing",
            "shaderStorageBufferArrayNonUniformIndexing",
            "shaderStorageImageArrayNonUniformIndexing",
            "shaderInputAttachmentArrayNonUniformIndexing",
            "shaderUniformTexelBufferArrayNonUniformIndexing",
            "shaderStorageTexelBufferArrayNonUniformIndexing",
            "descriptorBindingUniformBufferUpdateAfterBind",
            "descriptorBindingSampledImageUpdateAfterBind",
            "descriptorBindingStorageImageUpdateAfterBind",
            "descriptorBindingStorageBufferUpdateAfterBind",
            "descriptorBindingUniformTexelBufferUpdateAfterBind",
            "descriptorBindingStorageTexelBufferUpdateAfterBind",
            "descriptorBindingUpdateUnusedWhilePending",
            "descriptorBindingPartiallyBound",
            "descriptorBindingVariableDescriptorCount",
            "runtimeDescriptorArray",
            "samplerFilterMinmax",
            "scalarBlockLayout",
            "imagelessFramebuffer",
            "uniformBufferStandardLayout",
            "shaderSubgroupExtendedTypes",
            "separateDepthStencilLayouts",
            "hostQueryReset",
            "timelineSemaphore",
            "bufferDeviceAddress",
            "bufferDeviceAddressCaptureReplay",
            "bufferDeviceAddressMultiDevice",
            "vulkanMemoryModel",
            "vulkanMemoryModelDeviceScope",
            "vulkanMemoryModelAvailabilityVisibilityChains",
            "shaderOutputViewportIndex",
            "shaderOutputLayer",
            "subgroupBroadcastDynamicId",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_VULKAN_1_3_FEATURES,
        name: "VkPhysicalDeviceVulkan13Features",
        members: &[
            "robustImageAccess",
            "inlineUniformBlock",
            "descriptorBindingInlineUniformBlockUpdateAfterBind",
            "pipelineCreationCacheControl",
            "privateData",
            "shaderDemoteToHelperInvocation",
            "shaderTerminateInvocation",
            "subgroupSizeControl",
            "computeFullSubgroups",
            "synchronization2",
            "textureCompressionASTC_HDR",
            "shaderZeroInitializeWorkgroupMemory",
            "dynamicRendering",
            "shaderIntegerDotProduct",
            "maintenance4",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_TIMELINE_SEMAPHORE_FEATURES,
        name: "VkPhysicalDeviceTimelineSemaphoreFeatures",
        members: &["timelineSemaphore"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SYNCHRONIZATION_2_FEATURES,
        name: "VkPhysicalDeviceSynchronization2Features",
        members: &["synchronization2"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_HOST_QUERY_RESET_FEATURES,
        name: "VkPhysicalDeviceHostQueryResetFeatures",
        members: &["hostQueryReset"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_DESCRIPTOR_INDEXING_FEATURES,
        name: "VkPhysicalDeviceDescriptorIndexingFeatures",
        members: &[
            "shaderInputAttachmentArrayDynamicIndexing",
            "shaderUniformTexelBufferArrayDynamicIndexing",
            "shaderStorageTexelBufferArrayDynamicIndexing",
            "shaderUniformBufferArrayNonUniformIndexing",
            "shaderSampledImageArrayNonUniformIndexing",
            "shaderStorageBufferArrayNonUniformIndexing",
            "shaderStorageImageArrayNonUniformIndexing",
            "shaderInputAttachmentArrayNonUniformIndexing",
            "shaderUniformTexelBufferArrayNonUniformIndexing",
            "shaderStorageTexelBufferArrayNonUniformIndexing",
            "descriptorBindingUniformBufferUpdateAfterBind",
            "descriptorBindingSampledImageUpdateAfterBind",
            "descriptorBindingStorageImageUpdateAfterBind",
            "descriptorBindingStorageBufferUpdateAfterBind",
            "descriptorBindingUniformTexelBufferUpdateAfterBind",
            "descriptorBindingStorageTexelBufferUpdateAfterBind",
            "descriptorBindingUpdateUnusedWhilePending",
            "descriptorBindingPartiallyBound",
            "descriptorBindingVariableDescriptorCount",
            "runtimeDescriptorArray",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SCALAR_BLOCK_LAYOUT_FEATURES,
        name: "VkPhysicalDeviceScalarBlockLayoutFeatures",
        members: &["scalarBlockLayout"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_UNIFORM_BUFFER_STANDARD_LAYOUT_FEATURES,
        name: "VkPhysicalDeviceUniformBufferStandardLayoutFeatures",
        members: &["uniformBufferStandardLayout"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_VULKAN_MEMORY_MODEL_FEATURES,
        name: "VkPhysicalDeviceVulkanMemoryModelFeatures",
        members: &[
            "vulkanMemoryModel",
            "vulkanMemoryModelDeviceScope",
            "vulkanMemoryModelAvailabilityVisibilityChains",
        ],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_SUBGROUP_EXTENDED_TYPES_FEATURES,
        name: "VkPhysicalDeviceShaderSubgroupExtendedTypesFeatures",
        members: &["shaderSubgroupExtendedTypes"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_ZERO_INITIALIZE_WORKGROUP_MEMORY_FEATURES,
        name: "VkPhysicalDeviceZeroInitializeWorkgroupMemoryFeatures",
        members: &["shaderZeroInitializeWorkgroupMemory"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_PIPELINE_CREATION_CACHE_CONTROL_FEATURES,
        name: "VkPhysicalDevicePipelineCreationCacheControlFeatures",
        members: &["pipelineCreationCacheControl"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_PRIVATE_DATA_FEATURES,
        name: "VkPhysicalDevicePrivateDataFeatures",
        members: &["privateData"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_MAINTENANCE_4_FEATURES,
        name: "VkPhysicalDeviceMaintenance4Features",
        members: &["maintenance4"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_IMAGELESS_FRAMEBUFFER_FEATURES,
        name: "VkPhysicalDeviceImagelessFramebufferFeatures",
        members: &["imagelessFramebuffer"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SEPARATE_DEPTH_STENCIL_LAYOUTS_FEATURES,
        name: "VkPhysicalDeviceSeparateDepthStencilLayoutsFeatures",
        members: &["separateDepthStencilLayouts"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_TERMINATE_INVOCATION_FEATURES,
        name: "VkPhysicalDeviceShaderTerminateInvocationFeatures",
        members: &["shaderTerminateInvocation"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_SHADER_DEMOTE_TO_HELPER_INVOCATION_FEATURES,
        name: "VkPhysicalDeviceShaderDemoteToHelperInvocationFeatures",
        members: &["shaderDemoteToHelperInvocation"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_INLINE_UNIFORM_BLOCK_FEATURES,
        name: "VkPhysicalDeviceInlineUniformBlockFeatures",
        members: &["inlineUniformBlock", "descriptorBindingInlineUniformBlockUpdateAfterBind"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_DYNAMIC_RENDERING_FEATURES,
        name: "VkPhysicalDeviceDynamicRenderingFeatures",
        members: &["dynamicRendering"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_IMAGE_ROBUSTNESS_FEATURES,
        name: "VkPhysicalDeviceImageRobustnessFeatures",
        members: &["robustImageAccess"],
    },
    FeatureStruct {
        s_type: vk::StructureType::PHYSICAL_DEVICE_TEXTURE_COMPRESSION_ASTC_HDR_FEATURES,
        name: "VkPhysicalDeviceTextureCompressionASTCHDRFeatures",
        members: &["textureCompressionASTC_HDR"],
    },
];

/// Whether the feature called `member` (its Vulkan member name) works, given what the
/// lowering handles. Everything not named here is unsupported.
pub fn supported(sf: &ShaderFeatures, member: &str) -> bool {
    match member {
        // The V# range check makes out-of-bounds buffer accesses safe (ABI.md).
        "robustBufferAccess" => true,
        "shaderFloat64" => sf.float64,
        "shaderInt64" => sf.int64,
        "shaderInt16" => sf.int16,
        "shaderFloat16" => sf.float16,
        "shaderInt8" => sf.int8,
        "storageBuffer16BitAccess" | "uniformAndStorageBuffer16BitAccess" | "storagePushConstant16" => sf.storage16,
        "storageBuffer8BitAccess" | "uniformAndStorageBuffer8BitAccess" | "storagePushConstant8" => sf.storage8,
        "variablePointersStorageBuffer" | "variablePointers" => sf.variable_pointers,
        "shaderBufferInt64Atomics" | "shaderSharedInt64Atomics" => sf.int64_atomics,
        "shaderBufferFloat32Atomics"
        | "shaderBufferFloat32AtomicAdd"
        | "shaderSharedFloat32Atomics"
        | "shaderSharedFloat32AtomicAdd" => sf.float32_atomic_add,
        "shaderBufferFloat64Atomics"
        | "shaderBufferFloat64AtomicAdd"
        | "shaderSharedFloat64Atomics"
        | "shaderSharedFloat64AtomicAdd" => sf.float64_atomic_add,
        "shaderBufferFloat32AtomicMinMax" | "shaderSharedFloat32AtomicMinMax" => sf.float_atomic_min_max,
        // 64-bit float min/max needs 64-bit floats in the first place.
        "shaderBufferFloat64AtomicMinMax" | "shaderSharedFloat64AtomicMinMax" => sf.float_atomic_min_max && sf.float64,
        "shaderIntegerDotProduct" => sf.integer_dot_product,
        // Capture/replay would need buffers at application-chosen addresses: not done.
        "bufferDeviceAddress" => sf.buffer_device_address,
        // wave32 and wave64 code generation, and the ICD's own executable queries.
        "subgroupSizeControl" | "computeFullSubgroups" | "pipelineExecutableInfo" => true,
        "scalarBlockLayout" | "uniformBufferStandardLayout" => sf.explicit_layouts,
        "vulkanMemoryModel" | "vulkanMemoryModelDeviceScope" | "vulkanMemoryModelAvailabilityVisibilityChains" => {
            sf.vulkan_memory_model
        }
        "shaderZeroInitializeWorkgroupMemory" => sf.zero_initialize_workgroup_memory,
        "shaderSubgroupExtendedTypes" => sf.subgroup_extended_types,
        "subgroupBroadcastDynamicId" => sf.subgroup_broadcast_dynamic_id,
        "timelineSemaphore" => api::TIMELINE_SEMAPHORE,
        "synchronization2" => api::SYNCHRONIZATION2,
        "hostQueryReset" => api::HOST_QUERY_RESET,
        "pipelineCreationCacheControl" => api::PIPELINE_CREATION_CACHE_CONTROL,
        "privateData" => api::PRIVATE_DATA,
        "maintenance4" => api::MAINTENANCE4,
        // Descriptor indexing of buffers: the API side (descriptor.rs) and the lowering.
        "descriptorIndexing" => api::DESCRIPTOR_INDEXING && sf.descriptor_indexing,
        "runtimeDescriptorArray"
        | "shaderUniformBufferArrayNonUniformIndexing"
        | "shaderStorageBufferArrayNonUniformIndexing"
        | "descriptorBindingPartiallyBound"
        | "descriptorBindingVariableDescriptorCount"
        | "descriptorBindingUpdateUnusedWhilePending"
        | "descriptorBindingUniformBufferUpdateAfterBind"
        | "descriptorBindingStorageBufferUpdateAfterBind" => api::DESCRIPTOR_INDEXING && sf.descriptor_indexing,
        "shaderUniformTexelBufferArrayDynamicIndexing"
        | "shaderStorageTexelBufferArrayDynamicIndexing"
        | "shaderUniformTexelBufferArrayNonUniformIndexing"
        | "shaderStorageTexelBufferArrayNonUniformIndexing"
        | "descriptorBindingUniformTexelBufferUpdateAfterBind"
        | "descriptorBindingStorageTexelBufferUpdateAfterBind" => {
            api::DESCRIPTOR_INDEXING && sf.descriptor_indexing && api::BUFFER_VIEWS && sf.texel_buffers
        }
        // Storage texel buffers and images read and written without a format in the
        // shader: the V# or T# holds the view's format.
        "shaderStorageImageReadWithoutFormat" | "shaderStorageImageWriteWithoutFormat" => {
            (api::BUFFER_VIEWS && sf.texel_buffers) || sf.storage_images
        }
        // Storage images (image.rs views, descriptor.rs, compiler-bridge mimg.rs); out of
        // range texels read 0 and are not written (gpu image.rs), as robustImageAccess asks.
        "shaderStorageImageExtendedFormats" | "shaderStorageImageArrayDynamicIndexing" | "robustImageAccess" => {
            sf.storage_images
        }
        "shaderStorageImageArrayNonUniformIndexing" | "descriptorBindingStorageImageUpdateAfterBind" => {
            api::DESCRIPTOR_INDEXING && sf.descriptor_indexing && sf.storage_images
        }
        // Sampled images and samplers.
        "shaderSampledImageArrayDynamicIndexing" | "shaderImageGatherExtended" | "shaderResourceMinLod" => {
            api::SAMPLERS && sf.sampled_images
        }
        "imageCubeArray" => api::SAMPLERS && sf.sampled_images && sf.storage_images,
        // MIRROR_CLAMP_TO_EDGE is the S#'s MIRROR_ONCE_LAST_TEXEL (image.rs, gpu
        // exec/sample.rs); tests/spirv/images checks it against the spec's wrap.
        "samplerMirrorClampToEdge" => api::SAMPLERS && sf.sampled_images,
        // BC1-BC7 images: the texture unit decodes their blocks (gpu format/bc.rs), copies
        // move blocks (transfer.rs).
        "textureCompressionBC" => api::SAMPLERS && sf.sampled_images,
        // Multisampled storage images: 2/4/8-sample images (image.rs), their MSAA T#s and
        // the gfx11 MSAA layout (gpu addr.rs, exec/image.rs), and the Sample operand (mimg.rs).
        "shaderStorageImageMultisample" => sf.storage_images && sf.storage_image_multisample,
        "shaderSampledImageArrayNonUniformIndexing" | "descriptorBindingSampledImageUpdateAfterBind" => {
            api::DESCRIPTOR_INDEXING && sf.descriptor_indexing && api::SAMPLERS && sf.sampled_images
        }
        // Depth-only and stencil-only layouts: layouts change nothing in memory here, and
        // D32S8 images keep their aspects in planes of their own (image.rs).
        "separateDepthStencilLayouts" => true,
        // Render pass instances without draws are carried out (graphics.rs): dynamic ones
        // and imageless framebuffers' too; draws are refused by name in either.
        "dynamicRendering" | "imagelessFramebuffer" => true,
        // Graphics and fragment-only instructions do not exist here.
        _ => false,
    }
}

fn b32(b: bool) -> vk::Bool32 {
    if b {
        vk::TRUE
    } else {
        vk::FALSE
    }
}

/// The core features that work.
pub fn core_features(sf: &ShaderFeatures) -> vk::PhysicalDeviceFeatures {
    let mut f = vk::PhysicalDeviceFeatures::default();
    // SAFETY: PhysicalDeviceFeatures is a repr(C) struct of exactly CORE_MEMBERS.len() Bool32
    // (checked by a test).
    let bools = unsafe { std::slice::from_raw_parts_mut(&mut f as *mut _ as *mut vk::Bool32, CORE_MEMBERS.len()) };
    for (b, m) in bools.iter_mut().zip(CORE_MEMBERS) {
        *b = b32(supported(sf, m));
    }
    f
}

/// The known feature structure of type `t`.
pub fn feature_struct(t: vk::StructureType) -> Option<&'static FeatureStruct> {
    FEATURE_STRUCTS.iter().find(|s| s.s_type == t)
}

/// The members of a known feature structure.
///
/// # Safety
/// `s` must point to a valid structure of type `fs`.
unsafe fn members_mut<'a>(s: *mut vk::BaseOutStructure<'static>, fs: &FeatureStruct) -> &'a mut [vk::Bool32] {
    // SAFETY: by the caller's contract the Bool32 members follow the header.
    unsafe {
        let first = s.cast::<u8>().add(std::mem::size_of::<vk::BaseOutStructure<'static>>()).cast::<vk::Bool32>();
        std::slice::from_raw_parts_mut(first, fs.members.len())
    }
}

/// Fills one structure of a `vkGetPhysicalDeviceFeatures2` chain; unknown ones are left alone.
///
/// # Safety
/// `s` must point to a valid structure of the type its `s_type` says.
pub unsafe fn fill_feature_struct(sf: &ShaderFeatures, s: *mut vk::BaseOutStructure<'static>) {
    // SAFETY: s is valid per the caller's contract.
    let Some(fs) = feature_struct(unsafe { (*s).s_type }) else { return };
    // SAFETY: s is a structure of type fs.
    for (b, m) in unsafe { members_mut(s, fs) }.iter_mut().zip(fs.members) {
        *b = b32(supported(sf, m));
    }
}

/// The features a `VkDeviceCreateInfo` asks for that are not reported, as
/// `Struct.member` names (`pEnabledFeatures`, `VkPhysicalDeviceFeatures2` and every known
/// feature structure of the chain).
///
/// # Safety
/// `info` must be a valid VkDeviceCreateInfo.
pub unsafe fn unsupported_features(sf: &ShaderFeatures, info: &vk::DeviceCreateInfo<'_>) -> Vec<String> {
    let mut missing = Vec::new();
    let check_core = |want: &vk::PhysicalDeviceFeatures, missing: &mut Vec<String>| {
        // SAFETY: a repr(C) struct of CORE_MEMBERS.len() Bool32.
        let w = unsafe { std::slice::from_raw_parts(want as *const _ as *const vk::Bool32, CORE_MEMBERS.len()) };
        for (b, m) in w.iter().zip(CORE_MEMBERS) {
            if *b != vk::FALSE && !supported(sf, m) {
                missing.push(format!("VkPhysicalDeviceFeatures.{m}"));
            }
        }
    };
    if !info.p_enabled_features.is_null() {
        // SAFETY: valid per the specification.
        check_core(unsafe { &*info.p_enabled_features }, &mut missing);
    }
    // SAFETY: the chain is valid per the specification.
    for s in unsafe { crate::handle::chain(info.p_next) } {
        // SAFETY: s_type says what the structure is; the walk only reads.
        let t = unsafe { (*s).s_type };
        if t == vk::StructureType::PHYSICAL_DEVICE_FEATURES_2 {
            // SAFETY: as above.
            check_core(unsafe { &(*(s as *const vk::PhysicalDeviceFeatures2<'static>)).features }, &mut missing);
        } else if let Some(fs) = feature_struct(t) {
            // SAFETY: as above; read only.
            for (b, m) in unsafe { members_mut(s as *mut _, fs) }.iter().zip(fs.members) {
                if *b != vk::FALSE && !supported(sf, m) {
                    missing.push(format!("{}.{m}", fs.name));
                }
            }
        }
    }
    missing
}

/// Device extensions softnavi implements, given what the lowering handles: an extension is
/// listed only when it works.
pub fn device_extensions(sf: &ShaderFeatures) -> Vec<(&'static CStr, u32)> {
    let mut list = vec![
        (vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME, vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_SPEC_VERSION),
        (vk::EXT_SUBGROUP_SIZE_CONTROL_NAME, vk::EXT_SUBGROUP_SIZE_CONTROL_SPEC_VERSION),
        // The lowering ignores NonSemantic.* instruction sets and handles StorageBuffer.
        (vk::KHR_SHADER_NON_SEMANTIC_INFO_NAME, vk::KHR_SHADER_NON_SEMANTIC_INFO_SPEC_VERSION),
        (vk::KHR_STORAGE_BUFFER_STORAGE_CLASS_NAME, vk::KHR_STORAGE_BUFFER_STORAGE_CLASS_SPEC_VERSION),
        // Promotions to core of what works: the core commands under their old names.
        (vk::KHR_MAINTENANCE1_NAME, vk::KHR_MAINTENANCE1_SPEC_VERSION),
        (vk::KHR_MAINTENANCE2_NAME, vk::KHR_MAINTENANCE2_SPEC_VERSION),
        (vk::KHR_MAINTENANCE3_NAME, vk::KHR_MAINTENANCE3_SPEC_VERSION),
        (vk::KHR_DEDICATED_ALLOCATION_NAME, vk::KHR_DEDICATED_ALLOCATION_SPEC_VERSION),
        (vk::KHR_GET_MEMORY_REQUIREMENTS2_NAME, vk::KHR_GET_MEMORY_REQUIREMENTS2_SPEC_VERSION),
        (vk::KHR_BIND_MEMORY2_NAME, vk::KHR_BIND_MEMORY2_SPEC_VERSION),
        (vk::KHR_DRIVER_PROPERTIES_NAME, vk::KHR_DRIVER_PROPERTIES_SPEC_VERSION),
        (vk::KHR_DESCRIPTOR_UPDATE_TEMPLATE_NAME, vk::KHR_DESCRIPTOR_UPDATE_TEMPLATE_SPEC_VERSION),
        (vk::EXT_MEMORY_BUDGET_NAME, vk::EXT_MEMORY_BUDGET_SPEC_VERSION),
        (vk::KHR_FORMAT_FEATURE_FLAGS2_NAME, vk::KHR_FORMAT_FEATURE_FLAGS2_SPEC_VERSION),
        (vk::EXT_TOOLING_INFO_NAME, vk::EXT_TOOLING_INFO_SPEC_VERSION),
        // VkPipelineCreationFeedbackCreateInfo is filled (pipeline.rs).
        (vk::EXT_PIPELINE_CREATION_FEEDBACK_NAME, vk::EXT_PIPELINE_CREATION_FEEDBACK_SPEC_VERSION),
        // Host allocations imported in place (memory.rs).
        (vk::EXT_EXTERNAL_MEMORY_HOST_NAME, vk::EXT_EXTERNAL_MEMORY_HOST_SPEC_VERSION),
        // Markers written by the CP at the end of the pipe (query.rs), as RADV does.
        (vk::AMD_BUFFER_MARKER_NAME, vk::AMD_BUFFER_MARKER_SPEC_VERSION),
    ];
    let conditional = [
        (sf.float16 || sf.int8, vk::KHR_SHADER_FLOAT16_INT8_NAME, vk::KHR_SHADER_FLOAT16_INT8_SPEC_VERSION),
        (sf.storage16, vk::KHR_16BIT_STORAGE_NAME, vk::KHR_16BIT_STORAGE_SPEC_VERSION),
        (sf.storage8, vk::KHR_8BIT_STORAGE_NAME, vk::KHR_8BIT_STORAGE_SPEC_VERSION),
        (sf.int64_atomics, vk::KHR_SHADER_ATOMIC_INT64_NAME, vk::KHR_SHADER_ATOMIC_INT64_SPEC_VERSION),
        (
            sf.float32_atomic_add || sf.float64_atomic_add,
            vk::EXT_SHADER_ATOMIC_FLOAT_NAME,
            vk::EXT_SHADER_ATOMIC_FLOAT_SPEC_VERSION,
        ),
        // VK_EXT_shader_atomic_float2 requires VK_EXT_shader_atomic_float.
        (
            sf.float_atomic_min_max && (sf.float32_atomic_add || sf.float64_atomic_add),
            vk::EXT_SHADER_ATOMIC_FLOAT2_NAME,
            vk::EXT_SHADER_ATOMIC_FLOAT2_SPEC_VERSION,
        ),
        (
            sf.integer_dot_product,
            vk::KHR_SHADER_INTEGER_DOT_PRODUCT_NAME,
            vk::KHR_SHADER_INTEGER_DOT_PRODUCT_SPEC_VERSION,
        ),
        (sf.buffer_device_address, vk::KHR_BUFFER_DEVICE_ADDRESS_NAME, vk::KHR_BUFFER_DEVICE_ADDRESS_SPEC_VERSION),
        (sf.variable_pointers, vk::KHR_VARIABLE_POINTERS_NAME, vk::KHR_VARIABLE_POINTERS_SPEC_VERSION),
        // The Lod operand of OpImageRead/OpImageWrite: image_load_mip / image_store_mip.
        (sf.storage_images, vk::AMD_SHADER_IMAGE_LOAD_STORE_LOD_NAME, vk::AMD_SHADER_IMAGE_LOAD_STORE_LOD_SPEC_VERSION),
        // The SubgroupBallotKHR / SubgroupVoteKHR capabilities (no feature structures).
        (
            sf.subgroup_operations & compiler_bridge::spirv::features::subgroup::BALLOT != 0,
            vk::EXT_SHADER_SUBGROUP_BALLOT_NAME,
            vk::EXT_SHADER_SUBGROUP_BALLOT_SPEC_VERSION,
        ),
        (
            sf.subgroup_operations & compiler_bridge::spirv::features::subgroup::VOTE != 0,
            vk::EXT_SHADER_SUBGROUP_VOTE_NAME,
            vk::EXT_SHADER_SUBGROUP_VOTE_SPEC_VERSION,
        ),
        (
            sf.explicit_layouts,
            vk::KHR_UNIFORM_BUFFER_STANDARD_LAYOUT_NAME,
            vk::KHR_UNIFORM_BUFFER_STANDARD_LAYOUT_SPEC_VERSION,
        ),
        (sf.explicit_layouts, vk::EXT_SCALAR_BLOCK_LAYOUT_NAME, vk::EXT_SCALAR_BLOCK_LAYOUT_SPEC_VERSION),
        (
            sf.subgroup_extended_types,
            vk::KHR_SHADER_SUBGROUP_EXTENDED_TYPES_NAME,
            vk::KHR_SHADER_SUBGROUP_EXTENDED_TYPES_SPEC_VERSION,
        ),
        (sf.vulkan_memory_model, vk::KHR_VULKAN_MEMORY_MODEL_NAME, vk::KHR_VULKAN_MEMORY_MODEL_SPEC_VERSION),
        (
            sf.zero_initialize_workgroup_memory,
            vk::KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_NAME,
            vk::KHR_ZERO_INITIALIZE_WORKGROUP_MEMORY_SPEC_VERSION,
        ),
        (api::TIMELINE_SEMAPHORE, vk::KHR_TIMELINE_SEMAPHORE_NAME, vk::KHR_TIMELINE_SEMAPHORE_SPEC_VERSION),
        (api::SYNCHRONIZATION2, vk::KHR_SYNCHRONIZATION2_NAME, vk::KHR_SYNCHRONIZATION2_SPEC_VERSION),
        (api::HOST_QUERY_RESET, vk::EXT_HOST_QUERY_RESET_NAME, vk::EXT_HOST_QUERY_RESET_SPEC_VERSION),
        (
            api::DESCRIPTOR_INDEXING && sf.descriptor_indexing,
            vk::EXT_DESCRIPTOR_INDEXING_NAME,
            vk::EXT_DESCRIPTOR_INDEXING_SPEC_VERSION,
        ),
        (api::PUSH_DESCRIPTOR, vk::KHR_PUSH_DESCRIPTOR_NAME, vk::KHR_PUSH_DESCRIPTOR_SPEC_VERSION),
        (
            api::PIPELINE_CREATION_CACHE_CONTROL,
            vk::EXT_PIPELINE_CREATION_CACHE_CONTROL_NAME,
            vk::EXT_PIPELINE_CREATION_CACHE_CONTROL_SPEC_VERSION,
        ),
        (api::PRIVATE_DATA, vk::EXT_PRIVATE_DATA_NAME, vk::EXT_PRIVATE_DATA_SPEC_VERSION),
        (api::MAINTENANCE4, vk::KHR_MAINTENANCE4_NAME, vk::KHR_MAINTENANCE4_SPEC_VERSION),
    ];
    list.extend(conditional.into_iter().filter(|c| c.0).map(|(_, n, v)| (n, v)));
    list
}

/// Extensions reported whatever the shader table says (see [`device_extensions`]).
pub const ALWAYS_REPORTED: usize = 18;

/// Device commands that belong to an extension, and which. Core commands under an
/// extension's name (the KHR/EXT aliases of promoted commands) are here too: they are
/// returned only when their extension is supported (vkGetInstanceProcAddr) or enabled
/// (vkGetDeviceProcAddr). A name listed without a table entry in lib.rs is simply absent.
pub const EXTENSION_COMMANDS: &[(&str, &CStr)] = &[
    ("vkGetPipelineExecutablePropertiesKHR", vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME),
    ("vkGetMemoryHostPointerPropertiesEXT", vk::EXT_EXTERNAL_MEMORY_HOST_NAME),
    ("vkCmdWriteBufferMarkerAMD", vk::AMD_BUFFER_MARKER_NAME),
    ("vkCmdWriteBufferMarker2AMD", vk::AMD_BUFFER_MARKER_NAME),
    ("vkGetPipelineExecutableStatisticsKHR", vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME),
    ("vkGetPipelineExecutableInternalRepresentationsKHR", vk::KHR_PIPELINE_EXECUTABLE_PROPERTIES_NAME),
    ("vkGetBufferDeviceAddressKHR", vk::KHR_BUFFER_DEVICE_ADDRESS_NAME),
    ("vkGetBufferOpaqueCaptureAddressKHR", vk::KHR_BUFFER_DEVICE_ADDRESS_NAME),
    ("vkGetDeviceMemoryOpaqueCaptureAddressKHR", vk::KHR_BUFFER_DEVICE_ADDRESS_NAME),
    ("vkTrimCommandPoolKHR", vk::KHR_MAINTENANCE1_NAME),
    ("vkGetDescriptorSetLayoutSupportKHR", vk::KHR_MAINTENANCE3_NAME),
    ("vkGetBufferMemoryRequirements2KHR", vk::KHR_GET_MEMORY_REQUIREMENTS2_NAME),
    ("vkBindBufferMemory2KHR", vk::KHR_BIND_MEMORY2_NAME),
    ("vkCreateDescriptorUpdateTemplateKHR", vk::KHR_DESCRIPTOR_UPDATE_TEMPLATE_NAME),
    ("vkDestroyDescriptorUpdateTemplateKHR", vk::KHR_DESCRIPTOR_UPDATE_TEMPLATE_NAME),
    ("vkUpdateDescriptorSetWithTemplateKHR", vk::KHR_DESCRIPTOR_UPDATE_TEMPLATE_NAME),
    ("vkGetPhysicalDeviceToolPropertiesEXT", vk::EXT_TOOLING_INFO_NAME),
    ("vkCreatePrivateDataSlotEXT", vk::EXT_PRIVATE_DATA_NAME),
    ("vkDestroyPrivateDataSlotEXT", vk::EXT_PRIVATE_DATA_NAME),
    ("vkSetPrivateDataEXT", vk::EXT_PRIVATE_DATA_NAME),
    ("vkGetPrivateDataEXT", vk::EXT_PRIVATE_DATA_NAME),
    ("vkGetDeviceBufferMemoryRequirementsKHR", vk::KHR_MAINTENANCE4_NAME),
    ("vkGetSemaphoreCounterValueKHR", vk::KHR_TIMELINE_SEMAPHORE_NAME),
    ("vkWaitSemaphoresKHR", vk::KHR_TIMELINE_SEMAPHORE_NAME),
    ("vkSignalSemaphoreKHR", vk::KHR_TIMELINE_SEMAPHORE_NAME),
    ("vkCmdSetEvent2KHR", vk::KHR_SYNCHRONIZATION2_NAME),
    ("vkCmdResetEvent2KHR", vk::KHR_SYNCHRONIZATION2_NAME),
    ("vkCmdWaitEvents2KHR", vk::KHR_SYNCHRONIZATION2_NAME),
    ("vkCmdPipelineBarrier2KHR", vk::KHR_SYNCHRONIZATION2_NAME),
    ("vkCmdWriteTimestamp2KHR", vk::KHR_SYNCHRONIZATION2_NAME),
    ("vkQueueSubmit2KHR", vk::KHR_SYNCHRONIZATION2_NAME),
    ("vkResetQueryPoolEXT", vk::EXT_HOST_QUERY_RESET_NAME),
    ("vkCmdPushDescriptorSetKHR", vk::KHR_PUSH_DESCRIPTOR_NAME),
    ("vkCmdPushDescriptorSetWithTemplateKHR", vk::KHR_PUSH_DESCRIPTOR_NAME),
    ("vkGetImageMemoryRequirements2KHR", vk::KHR_GET_MEMORY_REQUIREMENTS2_NAME),
    ("vkGetImageSparseMemoryRequirements2KHR", vk::KHR_GET_MEMORY_REQUIREMENTS2_NAME),
    ("vkGetDeviceImageMemoryRequirementsKHR", vk::KHR_MAINTENANCE4_NAME),
    ("vkGetDeviceImageSparseMemoryRequirementsKHR", vk::KHR_MAINTENANCE4_NAME),
    ("vkBindImageMemory2KHR", vk::KHR_BIND_MEMORY2_NAME),
    ("vkCreateRenderPass2KHR", vk::KHR_CREATE_RENDERPASS2_NAME),
    // An instance extension's device-level commands.
    ("vkSetDebugUtilsObjectNameEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkSetDebugUtilsObjectTagEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkCmdBeginDebugUtilsLabelEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkCmdEndDebugUtilsLabelEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkCmdInsertDebugUtilsLabelEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkQueueBeginDebugUtilsLabelEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkQueueEndDebugUtilsLabelEXT", vk::EXT_DEBUG_UTILS_NAME),
    ("vkQueueInsertDebugUtilsLabelEXT", vk::EXT_DEBUG_UTILS_NAME),
];

/// The extension command `name` belongs to (None for core commands).
pub fn command_extension(name: &str) -> Option<&'static CStr> {
    EXTENSION_COMMANDS.iter().find(|(n, _)| *n == name).map(|(_, e)| *e)
}

/// Subgroup properties: wave32 by default; the operations the lowering handles.
pub fn subgroup_properties(sf: &ShaderFeatures, p: &mut vk::PhysicalDeviceSubgroupProperties<'_>) {
    p.subgroup_size = crate::instance::SUBGROUP_SIZE;
    p.supported_stages = vk::ShaderStageFlags::COMPUTE;
    p.supported_operations = vk::SubgroupFeatureFlags::from_raw(sf.subgroup_operations);
    p.quad_operations_in_all_stages = vk::FALSE;
}

/// VK_EXT_subgroup_size_control properties: every size the lowering compiles for.
pub fn subgroup_size_control_properties(
    sf: &ShaderFeatures,
    p: &mut vk::PhysicalDeviceSubgroupSizeControlProperties<'_>,
) {
    let min = sf.subgroup_sizes.iter().copied().min().unwrap_or(crate::instance::SUBGROUP_SIZE);
    p.min_subgroup_size = min;
    p.max_subgroup_size = sf.subgroup_sizes.iter().copied().max().unwrap_or(crate::instance::SUBGROUP_SIZE);
    p.max_compute_workgroup_subgroups = crate::instance::MAX_WORKGROUP_INVOCATIONS / min;
    p.required_subgroup_size_stages = vk::ShaderStageFlags::COMPUTE;
}

/// Whether `size` is a subgroup size a pipeline can require.
pub fn subgroup_size_supported(sf: &ShaderFeatures, size: u32) -> bool {
    sf.subgroup_sizes.contains(&size)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn member_lists_match_the_vulkan_structures() {
        assert_eq!(CORE_MEMBERS.len() * 4, std::mem::size_of::<vk::PhysicalDeviceFeatures>());
        let at = |m: &str| CORE_MEMBERS.iter().position(|x| *x == m).unwrap() * 4;
        assert_eq!(at("shaderFloat64"), std::mem::offset_of!(vk::PhysicalDeviceFeatures, shader_float64));
        assert_eq!(at("shaderInt16"), std::mem::offset_of!(vk::PhysicalDeviceFeatures, shader_int16));
        assert_eq!(at("inheritedQueries"), std::mem::offset_of!(vk::PhysicalDeviceFeatures, inherited_queries));
        let header = std::mem::size_of::<vk::BaseOutStructure<'static>>();
        let sizes = [
            std::mem::size_of::<vk::PhysicalDevice16BitStorageFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceMultiviewFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceVariablePointersFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceProtectedMemoryFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceSamplerYcbcrConversionFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderDrawParametersFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderFloat16Int8Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDevice8BitStorageFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderAtomicInt64Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderIntegerDotProductFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceBufferDeviceAddressFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceSubgroupSizeControlFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDevicePipelineExecutablePropertiesFeaturesKHR<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceVulkan11Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceVulkan12Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceVulkan13Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceTimelineSemaphoreFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceSynchronization2Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceHostQueryResetFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceDescriptorIndexingFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceScalarBlockLayoutFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceUniformBufferStandardLayoutFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceVulkanMemoryModelFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDevicePipelineCreationCacheControlFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDevicePrivateDataFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceMaintenance4Features<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceImagelessFramebufferFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceSeparateDepthStencilLayoutsFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderTerminateInvocationFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceShaderDemoteToHelperInvocationFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceInlineUniformBlockFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceDynamicRenderingFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceImageRobustnessFeatures<'static>>(),
            std::mem::size_of::<vk::PhysicalDeviceTextureCompressionASTCHDRFeatures<'static>>(),
        ];
        assert_eq!(sizes.len(), FEATURE_STRUCTS.len());
        for (fs, size) in FEATURE_STRUCTS.iter().zip(sizes) {
            // Bool32 members, padded to the 8-byte alignment of the pNext pointer.
            assert_eq!((header + 4 * fs.members.len()).div_ceil(8) * 8, size, "{}", fs.name);
        }
        let v12 = FEATURE_STRUCTS.iter().find(|f| f.name == "VkPhysicalDeviceVulkan12Features").unwrap();
        let at12 = |m: &str| header + 4 * v12.members.iter().position(|x| *x == m).unwrap();
        assert_eq!(
            at12("timelineSemaphore"),
            std::mem::offset_of!(vk::PhysicalDeviceVulkan12Features<'static>, timeline_semaphore)
        );
        assert_eq!(
            at12("subgroupBroadcastDynamicId"),
            std::mem::offset_of!(vk::PhysicalDeviceVulkan12Features<'static>, subgroup_broadcast_dynamic_id)
        );
        let v13 = FEATURE_STRUCTS.iter().find(|f| f.name == "VkPhysicalDeviceVulkan13Features").unwrap();
        let at13 = |m: &str| header + 4 * v13.members.iter().position(|x| *x == m).unwrap();
        assert_eq!(
            at13("synchronization2"),
            std::mem::offset_of!(vk::PhysicalDeviceVulkan13Features<'static>, synchronization2)
        );
        assert_eq!(
            at13("maintenance4"),
            std::mem::offset_of!(vk::PhysicalDeviceVulkan13Features<'static>, maintenance4)
        );
        assert_eq!(
            std::mem::offset_of!(
                vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT<'static>,
                shader_shared_float64_atomic_add
            ),
            header + 4 * 7
        );
        assert_eq!(
            std::mem::offset_of!(
                vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT<'static>,
                shader_shared_float32_atomic_min_max
            ),
            header + 4 * 8
        );
    }

    /// A name means one feature: it appears once outside the VkPhysicalDeviceVulkanNNFeatures
    /// structures, which repeat the promoted structures' members under the same names.
    #[test]
    fn every_member_name_is_known_once() {
        let mut all: Vec<&str> = CORE_MEMBERS.to_vec();
        for fs in FEATURE_STRUCTS.iter().filter(|f| !f.name.starts_with("VkPhysicalDeviceVulkan1")) {
            all.extend(fs.members);
        }
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n, "a member name appears twice: supported() could not tell them apart");
    }

    /// Every table field set: every dependent feature and extension appears.
    #[test]
    fn a_full_table_enables_every_dependent_feature_and_extension() {
        let all = ShaderFeatures {
            float64: true,
            int64: true,
            int16: true,
            float16: true,
            int8: true,
            storage16: true,
            storage8: true,
            int64_atomics: true,
            float32_atomic_add: true,
            float64_atomic_add: true,
            float_atomic_min_max: true,
            integer_dot_product: true,
            buffer_device_address: true,
            variable_pointers: true,
            explicit_layouts: true,
            descriptor_indexing: true,
            texel_buffers: true,
            storage_images: true,
            sampled_images: true,
            storage_image_multisample: true,
            vulkan_memory_model: true,
            zero_initialize_workgroup_memory: true,
            subgroup_extended_types: true,
            subgroup_broadcast_dynamic_id: true,
            subgroup_operations: 0xff,
            subgroup_sizes: [32, 64],
        };
        let core = core_features(&all);
        assert_eq!((core.shader_float64, core.shader_int64, core.shader_int16), (1, 1, 1));
        assert_eq!(core.robust_buffer_access, 1);
        assert_eq!(core.geometry_shader, 0);
        let gated = [
            api::TIMELINE_SEMAPHORE,
            api::SYNCHRONIZATION2,
            api::HOST_QUERY_RESET,
            api::DESCRIPTOR_INDEXING,
            api::PUSH_DESCRIPTOR,
            api::PIPELINE_CREATION_CACHE_CONTROL,
            api::PRIVATE_DATA,
            api::MAINTENANCE4,
        ];
        let api_on = gated.iter().filter(|&&b| b).count();
        // 9 extensions of the older fields, 2 for explicit layouts, 2 for the KHR ballot / vote
        // capabilities, 3 for the new shader fields, 1 for storage images (AMD load/store lod).
        assert_eq!(device_extensions(&all).len(), ALWAYS_REPORTED + 9 + 2 + 2 + 3 + 1 + api_on);
        let none = ShaderFeatures {
            float64: false,
            int64: false,
            int16: false,
            float16: false,
            int8: false,
            storage16: false,
            storage8: false,
            int64_atomics: false,
            float32_atomic_add: false,
            float64_atomic_add: false,
            float_atomic_min_max: false,
            integer_dot_product: false,
            buffer_device_address: false,
            variable_pointers: false,
            ..all
        };
        let none = ShaderFeatures {
            explicit_layouts: false,
            descriptor_indexing: false,
            vulkan_memory_model: false,
            zero_initialize_workgroup_memory: false,
            subgroup_extended_types: false,
            subgroup_operations: 0,
            storage_images: false,
            ..none
        };
        let di = usize::from(api::DESCRIPTOR_INDEXING);
        assert_eq!(device_extensions(&none).len(), ALWAYS_REPORTED + api_on - di);
        let mut bda = vk::PhysicalDeviceBufferDeviceAddressFeatures::default();
        // SAFETY: a valid structure of its s_type.
        unsafe { fill_feature_struct(&all, &mut bda as *mut _ as *mut _) };
        assert_eq!((bda.buffer_device_address, bda.buffer_device_address_capture_replay), (1, 0));
        // SAFETY: as above.
        unsafe { fill_feature_struct(&none, &mut bda as *mut _ as *mut _) };
        assert_eq!(bda.buffer_device_address, 0);
    }

    #[test]
    fn device_creation_names_each_unsupported_feature() {
        let sf = ShaderFeatures { float64: false, ..SHADER };
        let core = vk::PhysicalDeviceFeatures {
            shader_float64: vk::TRUE,
            robust_buffer_access: vk::TRUE,
            ..Default::default()
        };
        let mut ms = vk::PhysicalDeviceMultiviewFeatures { multiview: vk::TRUE, ..Default::default() };
        let mut f2 = vk::PhysicalDeviceFeatures2 { features: core, ..Default::default() };
        let info = vk::DeviceCreateInfo::default().enabled_features(&core).push_next(&mut ms).push_next(&mut f2);
        // SAFETY: a valid create info.
        let missing = unsafe { unsupported_features(&sf, &info) };
        assert_eq!(
            missing,
            [
                "VkPhysicalDeviceFeatures.shaderFloat64",
                "VkPhysicalDeviceFeatures.shaderFloat64",
                "VkPhysicalDeviceMultiviewFeatures.multiview"
            ]
        );
    }
}
