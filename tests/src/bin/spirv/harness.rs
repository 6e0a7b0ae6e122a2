//! One corpus case: a shader of `tests/spirv/`, its inputs, and a check of its outputs
//! against a CPU reference; and how a case runs through Vulkan.

use ash::vk;
use softnavi_examples::{Context, Error, ShaderFeatures};
use softnavi_tests::check::{compare, Tol, Val};
use softnavi_tests::dispatch::{self, Binding, Dispatch, Kind};
use softnavi_tests::image::{ImageBinding, ImageDesc};

/// A device capability a case needs; cases whose needs the device lacks are skipped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Need {
    Float64,
    Int64,
    Int16,
    Int8,
    Float16,
    StorageBuffer16,
    Uniform16,
    PushConstant16,
    StorageBuffer8,
    Uniform8,
    PushConstant8,
    BufferInt64Atomics,
    SharedInt64Atomics,
    BufferFloat32AtomicAdd,
    SharedFloat32AtomicAdd,
    BufferFloat64AtomicAdd,
    SharedFloat64AtomicAdd,
    BufferFloat32Atomics,
    SharedFloat32Atomics,
    BufferDeviceAddress,
    VariablePointers,
    VariablePointersStorageBuffer,
    IntegerDotProduct,
    VulkanMemoryModel,
    ZeroInitializeWorkgroupMemory,
    SubgroupExtendedTypes,
    /// All of these subgroup operation categories, in compute shaders.
    Subgroup(vk::SubgroupFeatureFlags),
    /// A device feature of `VkPhysicalDeviceFeatures` or `VkPhysicalDeviceVulkan12Features`
    /// (see [`crate::images::device_feature`]).
    Device(Feature),
    /// A format feature of an image format (optimal tiling).
    Format(vk::Format, vk::FormatFeatureFlags2),
    /// `shaderDenormFlushToZeroFloat{16,32,64}`: the `DenormFlushToZero` mode for this width.
    DenormFlushToZero(u32),
}

/// Device features image cases need (all supported ones are enabled by the context).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Feature {
    ImageCubeArray,
    StorageImageReadWithoutFormat,
    StorageImageWriteWithoutFormat,
    StorageImageExtendedFormats,
    ImageGatherExtended,
    ResourceMinLod,
    SampledImageArrayDynamicIndexing,
    StorageImageArrayDynamicIndexing,
    SampledImageArrayNonUniformIndexing,
    SamplerMirrorClampToEdge,
}

impl Need {
    pub fn met(self, f: &ShaderFeatures) -> bool {
        match self {
            Need::Float64 => f.float64,
            Need::Int64 => f.int64,
            Need::Int16 => f.int16,
            Need::Int8 => f.int8,
            Need::Float16 => f.float16,
            Need::StorageBuffer16 => f.storage_buffer16,
            Need::Uniform16 => f.uniform16,
            Need::PushConstant16 => f.storage_push_constant16,
            Need::StorageBuffer8 => f.storage_buffer8,
            Need::Uniform8 => f.uniform8,
            Need::PushConstant8 => f.storage_push_constant8,
            Need::BufferInt64Atomics => f.buffer_int64_atomics,
            Need::SharedInt64Atomics => f.shared_int64_atomics,
            Need::BufferFloat32AtomicAdd => f.buffer_float32_atomic_add,
            Need::SharedFloat32AtomicAdd => f.shared_float32_atomic_add,
            Need::BufferFloat64AtomicAdd => f.buffer_float64_atomic_add,
            Need::SharedFloat64AtomicAdd => f.shared_float64_atomic_add,
            Need::BufferFloat32Atomics => f.buffer_float32_atomics,
            Need::SharedFloat32Atomics => f.shared_float32_atomics,
            Need::BufferDeviceAddress => f.buffer_device_address,
            Need::VariablePointers => f.variable_pointers,
            Need::VariablePointersStorageBuffer => f.variable_pointers_storage_buffer,
            Need::IntegerDotProduct => f.integer_dot_product,
            Need::VulkanMemoryModel => f.vulkan_memory_model,
            Need::ZeroInitializeWorkgroupMemory => f.zero_initialize_workgroup_memory,
            Need::SubgroupExtendedTypes => f.subgroup_extended_types,
            Need::Subgroup(ops) => f.subgroup_operations.contains(ops),
            Need::DenormFlushToZero(width) => match width {
                16 => f.denorm_flush_to_zero[0],
                32 => f.denorm_flush_to_zero[1],
                _ => f.denorm_flush_to_zero[2],
            },
            // Checked through the Vulkan API by `skip_reason`.
            Need::Device(_) | Need::Format(..) => true,
        }
    }
}

/// What a check sees: every binding's contents after the dispatch, in binding order, and
/// the subgroup size the pipeline ran with.
pub struct Output {
    pub buffers: Vec<Vec<u8>>,
    /// Every image's texels afterwards, in binding then array order (storage images read
    /// back, the others as uploaded).
    pub images: Vec<Vec<u8>>,
    pub subgroup_size: u32,
    /// `deviceName` of the driver that ran the case (for known driver bugs).
    pub device: String,
}

impl Output {
    /// Whether Mesa's lavapipe ran the case (its device is named "llvmpipe ...").
    pub fn lavapipe(&self) -> bool {
        self.device.starts_with("llvmpipe")
    }

    /// Binding `at` as values of `T`.
    pub fn get<T: Val>(&self, at: usize) -> Vec<T> {
        softnavi_tests::check::values(&self.buffers[at])
    }

    /// Compares the first `want.len()` values of binding `at` with `want`.
    pub fn expect<T: Val>(&self, at: usize, want: &[T], tol: Tol) -> Result<(), String> {
        let got = &self.buffers[at];
        if got.len() < want.len() * T::SIZE {
            return Err(format!("binding {at}: {} bytes, want {} values", got.len(), want.len()));
        }
        compare(got, want, tol, |i| format!("element {i} of binding {at}"))
    }
}

pub type Check = Box<dyn Fn(&Output) -> Result<(), String>>;

/// One dispatch of one corpus shader.
pub struct Case {
    /// Unique name: the shader's corpus name, or that plus a suffix ([`Case::named`]).
    pub name: String,
    /// Corpus name: `family/file` (file without its extension).
    pub shader: &'static str,
    pub entry: &'static str,
    pub bindings: Vec<Binding>,
    pub push: Vec<u8>,
    /// Specialisation constants: (constant id, value bytes).
    pub spec: Vec<(u32, Vec<u8>)>,
    pub groups: [u32; 3],
    /// A required subgroup size (VK_EXT_subgroup_size_control); skipped where not allowed.
    pub subgroup_size: Option<u32>,
    pub needs: Vec<Need>,
    /// Image and sampler bindings (at their own binding numbers).
    pub images: Vec<ImageBinding>,
    /// Why the validation layer cannot look at this case (it crashes on a valid module):
    /// skipped when the layer is on.
    pub layer_crashes: Option<&'static str>,
    pub check: Check,
}

impl Case {
    /// A case of `shader` (`family/file`) dispatching `groups` workgroups.
    pub fn new(shader: &'static str, groups: [u32; 3]) -> Case {
        Case {
            name: shader.to_string(),
            shader,
            entry: "main",
            bindings: Vec::new(),
            push: Vec::new(),
            spec: Vec::new(),
            groups,
            subgroup_size: None,
            needs: Vec::new(),
            images: Vec::new(),
            layer_crashes: None,
            check: Box::new(|_| Err("no check".into())),
        }
    }
    /// Skips the case under the validation layer, which crashes on its module (`why`).
    pub fn layer_crashes(mut self, why: &'static str) -> Case {
        self.layer_crashes = Some(why);
        self
    }
    /// Names the case `shader:suffix` (for several cases of one shader).
    pub fn named(mut self, suffix: &str) -> Case {
        self.name = format!("{}:{suffix}", self.shader);
        self
    }
    pub fn entry(mut self, entry: &'static str) -> Case {
        self.entry = entry;
        self
    }
    /// Adds a storage buffer (next binding) with these bytes.
    pub fn storage(mut self, data: Vec<u8>) -> Case {
        self.bindings.push(Binding { kind: Kind::Storage, data });
        self
    }
    /// Adds a storage buffer (next binding) with these values.
    pub fn storage_of<T: Val>(self, values: &[T]) -> Case {
        self.storage(softnavi_tests::check::bytes(values))
    }
    /// Adds a zeroed storage buffer (next binding) of `len` bytes.
    pub fn output(self, len: usize) -> Case {
        self.storage(vec![0; len])
    }
    pub fn uniform(mut self, data: Vec<u8>) -> Case {
        self.bindings.push(Binding { kind: Kind::Uniform, data });
        self
    }
    /// Adds a buffer passed by device address (see [`Kind::Address`]).
    pub fn address(mut self, data: Vec<u8>) -> Case {
        self.bindings.push(Binding { kind: Kind::Address, data });
        if !self.needs.contains(&Need::BufferDeviceAddress) {
            self.needs.push(Need::BufferDeviceAddress);
        }
        self
    }
    pub fn push(mut self, data: Vec<u8>) -> Case {
        self.push = data;
        self
    }
    pub fn spec(mut self, id: u32, data: Vec<u8>) -> Case {
        self.spec.push((id, data));
        self
    }
    pub fn subgroup_size(mut self, size: u32) -> Case {
        self.subgroup_size = Some(size);
        self
    }
    pub fn needs(mut self, needs: &[Need]) -> Case {
        self.needs.extend_from_slice(needs);
        self
    }
    /// Adds a binding of images or samplers (`images` and `samplers` one per array element).
    pub fn images(
        mut self,
        binding: u32,
        ty: vk::DescriptorType,
        images: Vec<ImageDesc>,
        samplers: Vec<vk::SamplerCreateInfo<'static>>,
    ) -> Case {
        self.images.push(ImageBinding { binding, ty, images, samplers, immutable: false });
        self
    }
    /// A storage image at `binding`.
    pub fn storage_image(self, binding: u32, image: ImageDesc) -> Case {
        self.images(binding, vk::DescriptorType::STORAGE_IMAGE, vec![image], Vec::new())
    }
    /// A combined image sampler at `binding`.
    pub fn combined(self, binding: u32, image: ImageDesc, sampler: vk::SamplerCreateInfo<'static>) -> Case {
        self.images(binding, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, vec![image], vec![sampler])
    }
    pub fn check(mut self, f: impl Fn(&Output) -> Result<(), String> + 'static) -> Case {
        self.check = Box::new(f);
        self
    }
    /// Checks binding `at` against `want` with tolerance `tol`.
    pub fn expect<T: Val>(self, at: usize, want: Vec<T>, tol: Tol) -> Case {
        self.check(move |o| o.expect(at, &want, tol))
    }
}

/// Why a case was not run on this device, if it was not.
pub fn skip_reason(ctx: &Context, case: &Case) -> Option<String> {
    // The layer comes from the environment (tests/validation.rs) or the runner's own
    // request (SOFTNAVI_SPIRV_VALIDATE, src/bin/spirv.rs).
    let layer = std::env::var("VK_INSTANCE_LAYERS").is_ok_and(|l| l.contains("VK_LAYER_KHRONOS_validation"))
        || std::env::var_os("SOFTNAVI_SPIRV_VALIDATE").is_some();
    if let Some(why) = case.layer_crashes.filter(|_| layer) {
        return Some(format!("the validation layer crashes on it: {why}"));
    }
    let f = ctx.shader_features();
    if let Some(n) = case.needs.iter().find(|n| !n.met(f)) {
        return Some(format!("device lacks {n:?}"));
    }
    if let Some(why) = crate::images::skip_reason(ctx, case) {
        return Some(why);
    }
    if let Some(s) = case.subgroup_size {
        if s != f.subgroup_size
            && !(f.subgroup_size_control && (f.min_subgroup_size..=f.max_subgroup_size).contains(&s))
        {
            return Some(format!("subgroup size {s} not available"));
        }
    }
    None
}

/// Runs `case` with SPIR-V `words`; returns what its check sees.
pub fn run(ctx: &Context, words: &[u32], case: &Case) -> Result<Output, Error> {
    let dispatch::Results { buffers, images } = dispatch::run_with_images(
        ctx,
        &Dispatch {
            code: words,
            entry: case.entry,
            bindings: &case.bindings,
            push: &case.push,
            spec: &case.spec,
            groups: case.groups,
            subgroup_size: case.subgroup_size,
            images: &case.images,
        },
    )?;
    let subgroup_size = case.subgroup_size.unwrap_or(ctx.shader_features().subgroup_size);
    Ok(Output { buffers, images, subgroup_size, device: ctx.device_name().to_string() })
}
