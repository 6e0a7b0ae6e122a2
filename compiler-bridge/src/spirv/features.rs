//! What the lowering handles, in the terms the ICD reports to applications: one source of
//! truth for `VkPhysicalDeviceFeatures*`, the subgroup operations and the device extensions
//! that depend on the shader compiler. A field becomes `true` only together with the
//! lowering (and a test) that makes it work; the ICD reports exactly these.

/// Shader features the lowering supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShaderFeatures {
    /// `shaderFloat64`: 64-bit float types and arithmetic.
    pub float64: bool,
    /// `shaderInt64`: 64-bit integer types and arithmetic.
    pub int64: bool,
    /// `shaderInt16`: 16-bit integer types and arithmetic.
    pub int16: bool,
    /// `shaderFloat16` (VK_KHR_shader_float16_int8): 16-bit float arithmetic.
    pub float16: bool,
    /// `shaderInt8` (VK_KHR_shader_float16_int8): 8-bit integer arithmetic.
    pub int8: bool,
    /// VK_KHR_16bit_storage: `storageBuffer16BitAccess`, `uniformAndStorageBuffer16BitAccess`,
    /// `storagePushConstant16` (all three together).
    pub storage16: bool,
    /// VK_KHR_8bit_storage: `storageBuffer8BitAccess`, `uniformAndStorageBuffer8BitAccess`,
    /// `storagePushConstant8` (all three together).
    pub storage8: bool,
    /// `shaderBufferInt64Atomics` / `shaderSharedInt64Atomics`.
    pub int64_atomics: bool,
    /// VK_EXT_shader_atomic_float: `shaderBufferFloat32AtomicAdd`, `shaderSharedFloat32AtomicAdd`,
    /// and the exchange forms (`shader*Float32Atomics`).
    pub float32_atomic_add: bool,
    /// VK_EXT_shader_atomic_float: `shaderBufferFloat64AtomicAdd`, `shaderSharedFloat64AtomicAdd`
    /// and `shader*Float64Atomics`.
    pub float64_atomic_add: bool,
    /// VK_EXT_shader_atomic_float2: float min/max (32- and 64-bit).
    pub float_atomic_min_max: bool,
    /// VK_KHR_shader_integer_dot_product: `shaderIntegerDotProduct`.
    pub integer_dot_product: bool,
    /// VK_KHR_buffer_device_address: `PhysicalStorageBuffer` pointers.
    pub buffer_device_address: bool,
    /// VK_KHR_variable_pointers: `variablePointersStorageBuffer` and `variablePointers`.
    pub variable_pointers: bool,
    /// `scalarBlockLayout` / `uniformBufferStandardLayout`: the lowering takes every offset
    /// and stride from the module's decorations, so any valid explicit layout works.
    pub explicit_layouts: bool,
    /// Descriptor indexing: runtime descriptor arrays (`runtimeDescriptorArray`) and
    /// non-uniform indexing of buffer (and, with `texel_buffers`, texel buffer) arrays.
    pub descriptor_indexing: bool,
    /// Uniform and storage texel buffers: `OpTypeImage` with `Dim Buffer`, executed with
    /// MUBUF format instructions (`SampledBuffer` / `ImageBuffer` capabilities).
    pub texel_buffers: bool,
    /// Storage images of every dimensionality but MSAA (`mimg.rs`): read, written (with or
    /// without a format: the T# converts), queried, 32-bit integer atomics.
    pub storage_images: bool,
    /// Sampled images and samplers: explicit-LOD sampling, depth compares, gathers (any
    /// offsets), `MinLod`, fetches and queries.
    pub sampled_images: bool,
    /// `shaderStorageImageMultisample`: multisampled storage images (and sampled ones,
    /// fetched) read, written, queried (`OpImageQuerySamples`, `OpImageQuerySize`) and
    /// used by atomics with the `Sample` operand (`mimg.rs`; the `StorageImageMultisample`
    /// and `ImageMSArray` capabilities).
    pub storage_image_multisample: bool,
    /// `vulkanMemoryModel` / `vulkanMemoryModelDeviceScope` /
    /// `vulkanMemoryModelAvailabilityVisibilityChains` (the `VulkanMemoryModel` capability).
    pub vulkan_memory_model: bool,
    /// `shaderZeroInitializeWorkgroupMemory`: `Workgroup` variables with an `OpConstantNull`
    /// initializer.
    pub zero_initialize_workgroup_memory: bool,
    /// `shaderSubgroupExtendedTypes`: subgroup operations on 8/16/64-bit types.
    pub subgroup_extended_types: bool,
    /// `subgroupBroadcastDynamicId`: OpGroupNonUniformBroadcast with a dynamically uniform id.
    pub subgroup_broadcast_dynamic_id: bool,
    /// Subgroup operation categories (`VkSubgroupFeatureFlagBits` bit values).
    pub subgroup_operations: u32,
    /// Subgroup sizes the lowering can compile for (VK_EXT_subgroup_size_control): wave32
    /// always, wave64 through [`crate::CodegenOptions::wave64`].
    pub subgroup_sizes: [u32; 2],
}

/// `VkSubgroupFeatureFlagBits` values, so that this crate needs no Vulkan dependency.
pub mod subgroup {
    pub const BASIC: u32 = 0x1;
    pub const VOTE: u32 = 0x2;
    pub const ARITHMETIC: u32 = 0x4;
    pub const BALLOT: u32 = 0x8;
    pub const SHUFFLE: u32 = 0x10;
    pub const SHUFFLE_RELATIVE: u32 = 0x20;
    pub const CLUSTERED: u32 = 0x40;
    pub const QUAD: u32 = 0x80;
}

/// What this lowering handles today.
pub const SHADER_FEATURES: ShaderFeatures = ShaderFeatures {
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
    subgroup_operations: subgroup::BASIC
        | subgroup::VOTE
        | subgroup::ARITHMETIC
        | subgroup::BALLOT
        | subgroup::SHUFFLE
        | subgroup::SHUFFLE_RELATIVE
        | subgroup::CLUSTERED
        | subgroup::QUAD,
    subgroup_sizes: [32, 64],
};

/// `VkPhysicalDeviceFloatControlsProperties` (Vulkan 1.2 core, VK_KHR_shader_float_controls)
/// as the lowering honours them; fields follow the Vulkan names, `[f16, f32, f64]` per width.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FloatControls {
    /// `VkShaderFloatControlsIndependence` value (see [`independence`]).
    pub denorm_behavior_independence: u32,
    pub rounding_mode_independence: u32,
    pub signed_zero_inf_nan_preserve: [bool; 3],
    pub denorm_preserve: [bool; 3],
    pub denorm_flush_to_zero: [bool; 3],
    pub rounding_mode_rte: [bool; 3],
    pub rounding_mode_rtz: [bool; 3],
}

/// `VkShaderFloatControlsIndependence` values.
pub mod independence {
    pub const BIT32_ONLY: u32 = 0;
    pub const ALL: u32 = 1;
    pub const NONE: u32 = 2;
}

/// What the float controls execution modes do here (module.rs `FloatModes`):
/// - denormals: the kernel descriptor's FLOAT_DENORM_MODE_32 and FLOAT_DENORM_MODE_16_64
///   fields (set by LLVM from the `denormal-fp-math[-f32]` attributes, loaded into the
///   wave's MODE register at launch): by default f32 denormals are flushed and f16/f64
///   ones kept, as RADV does (docs/VULKAN.md); `DenormPreserve` / `DenormFlushToZero`
///   override that; f16 and f64 share one field, hence 32-bit-only independence;
/// - rounding: LLVM's code and constant folding assume round-to-nearest-even, the mode
///   every kernel runs with; `RoundingModeRTZ` is rejected by name;
/// - no fast-math flags but `contract` are used, so signed zeros, infinities and NaNs are
///   preserved at every width.
pub const FLOAT_CONTROLS: FloatControls = FloatControls {
    denorm_behavior_independence: independence::BIT32_ONLY,
    rounding_mode_independence: independence::BIT32_ONLY,
    signed_zero_inf_nan_preserve: [true; 3],
    denorm_preserve: [true; 3],
    denorm_flush_to_zero: [true; 3],
    rounding_mode_rte: [true; 3],
    rounding_mode_rtz: [false; 3],
};
