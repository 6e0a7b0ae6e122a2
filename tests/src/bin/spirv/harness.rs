//! One corpus case: a shader of `tests/spirv/`, its inputs, and a check of its outputs
//! against a CPU reference; and how a case runs through Vulkan.

use std::ffi::CString;

use ash::vk;
use softnavi_examples::{Context, Error, MemoryLocation, ShaderFeatures};
use softnavi_tests::check::{compare, Tol, Val};

/// How a buffer reaches the shader.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A storage buffer descriptor (set 0, binding = its position among the bindings).
    Storage,
    /// A uniform buffer descriptor (set 0, binding = its position).
    Uniform,
    /// No descriptor: the buffer's device address (8 bytes) is put at the start of the push
    /// constants, in binding order, before [`Case::push`]'s bytes. Needs buffer device address.
    Address,
}

pub struct Binding {
    pub kind: Kind,
    pub data: Vec<u8>,
}

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
    /// All of these subgroup operation categories, in compute shaders.
    Subgroup(vk::SubgroupFeatureFlags),
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
            Need::Subgroup(ops) => f.subgroup_operations.contains(ops),
        }
    }
}

/// What a check sees: every binding's contents after the dispatch, in binding order, and
/// the subgroup size the pipeline ran with.
pub struct Output {
    pub buffers: Vec<Vec<u8>>,
    pub subgroup_size: u32,
}

impl Output {
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
            check: Box::new(|_| Err("no check".into())),
        }
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
    pub fn check(mut self, f: impl Fn(&Output) -> Result<(), String> + 'static) -> Case {
        self.check = Box::new(f);
        self
    }
    /// Checks binding `at` against `want` with tolerance `tol`.
    pub fn expect<T: Val>(self, at: usize, want: Vec<T>, tol: Tol) -> Case {
        self.check(move |o| o.expect(at, &want, tol))
    }
}

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// Why a case was not run on this device, if it was not.
pub fn skip_reason(ctx: &Context, case: &Case) -> Option<String> {
    let f = ctx.shader_features();
    if let Some(n) = case.needs.iter().find(|n| !n.met(f)) {
        return Some(format!("device lacks {n:?}"));
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
    let d = ctx.device();
    let bda = case.bindings.iter().any(|b| b.kind == Kind::Address);
    let mut bufs = Vec::new();
    for (i, b) in case.bindings.iter().enumerate() {
        let mut usage = match b.kind {
            Kind::Uniform => vk::BufferUsageFlags::UNIFORM_BUFFER,
            Kind::Storage | Kind::Address => vk::BufferUsageFlags::STORAGE_BUFFER,
        };
        if b.kind == Kind::Address {
            usage |= vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        }
        let size = b.data.len().div_ceil(4).max(1) * 4;
        let mut padded = b.data.clone();
        padded.resize(size, 0);
        let words: Vec<u32> = padded.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let mut buf = ctx.create_buffer(&format!("b{i}"), size as u64, usage, MemoryLocation::CpuToGpu)?;
        buf.write(&words)?;
        bufs.push(buf);
    }
    let described: Vec<(u32, vk::DescriptorType)> = case
        .bindings
        .iter()
        .enumerate()
        .filter_map(|(i, b)| match b.kind {
            Kind::Storage => Some((i as u32, vk::DescriptorType::STORAGE_BUFFER)),
            Kind::Uniform => Some((i as u32, vk::DescriptorType::UNIFORM_BUFFER)),
            Kind::Address => None,
        })
        .collect();
    let layout_bindings: Vec<_> = described
        .iter()
        .map(|&(b, ty)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(b)
                .descriptor_type(ty)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    let mut push = Vec::new();
    if bda {
        // The KHR entry point: the instance asks for Vulkan 1.1, where the core one is absent.
        let bda_fn = ash::khr::buffer_device_address::Device::new(ctx.instance(), d);
        for (b, buf) in case.bindings.iter().zip(&bufs) {
            if b.kind == Kind::Address {
                let info = vk::BufferDeviceAddressInfo::default().buffer(buf.handle());
                // SAFETY: the buffer was created with SHADER_DEVICE_ADDRESS usage on a device
                // with bufferDeviceAddress enabled (skip_reason checked the need).
                let addr = unsafe { bda_fn.get_buffer_device_address(&info) };
                push.extend_from_slice(&addr.to_le_bytes());
            }
        }
    }
    push.extend_from_slice(&case.push);
    push.resize(push.len().div_ceil(4) * 4, 0);

    let mut set_layout = vk::DescriptorSetLayout::null();
    let mut layout = vk::PipelineLayout::null();
    let mut module = vk::ShaderModule::null();
    let mut pipeline = vk::Pipeline::null();
    let mut pool = vk::DescriptorPool::null();
    let result = (|| {
        // SAFETY: valid device and create infos throughout; objects are used after creation only.
        unsafe {
            set_layout = d
                .create_descriptor_set_layout(
                    &vk::DescriptorSetLayoutCreateInfo::default().bindings(&layout_bindings),
                    None,
                )
                .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
            let sets = [set_layout];
            let ranges =
                [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(push.len() as u32)];
            let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&sets);
            if !push.is_empty() {
                layout_info = layout_info.push_constant_ranges(&ranges);
            }
            layout = d.create_pipeline_layout(&layout_info, None).map_err(vkerr("vkCreatePipelineLayout"))?;
            module = d
                .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(words), None)
                .map_err(vkerr("vkCreateShaderModule"))?;
            let mut entries = Vec::new();
            let mut data = Vec::new();
            for (id, bytes) in &case.spec {
                entries.push(
                    vk::SpecializationMapEntry::default().constant_id(*id).offset(data.len() as u32).size(bytes.len()),
                );
                data.extend_from_slice(bytes);
            }
            let spec = vk::SpecializationInfo::default().map_entries(&entries).data(&data);
            let name = CString::new(case.entry).map_err(|_| Error::Unsupported("entry point has a NUL".into()))?;
            let mut required = vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo::default();
            let mut stage = vk::PipelineShaderStageCreateInfo::default()
                .stage(vk::ShaderStageFlags::COMPUTE)
                .module(module)
                .name(&name)
                .specialization_info(&spec);
            let f = ctx.shader_features();
            if let Some(size) = case.subgroup_size.filter(|&s| f.subgroup_size_control && s != f.subgroup_size) {
                required.required_subgroup_size = size;
                stage = stage.push_next(&mut required);
            }
            pipeline = d
                .create_compute_pipelines(
                    vk::PipelineCache::null(),
                    &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)],
                    None,
                )
                .map_err(|(_, r)| Error::Vulkan { call: "vkCreateComputePipelines", result: r })?[0];
            let mut set = vk::DescriptorSet::null();
            if !described.is_empty() {
                let sizes: Vec<_> = described
                    .iter()
                    .map(|&(_, ty)| vk::DescriptorPoolSize::default().ty(ty).descriptor_count(1))
                    .collect();
                pool = d
                    .create_descriptor_pool(
                        &vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes),
                        None,
                    )
                    .map_err(vkerr("vkCreateDescriptorPool"))?;
                set = d
                    .allocate_descriptor_sets(
                        &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&sets),
                    )
                    .map_err(vkerr("vkAllocateDescriptorSets"))?[0];
                let infos: Vec<[vk::DescriptorBufferInfo; 1]> = described
                    .iter()
                    .map(|&(b, _)| {
                        [vk::DescriptorBufferInfo::default().buffer(bufs[b as usize].handle()).range(vk::WHOLE_SIZE)]
                    })
                    .collect();
                let writes: Vec<_> = described
                    .iter()
                    .zip(&infos)
                    .map(|(&(b, ty), info)| {
                        vk::WriteDescriptorSet::default()
                            .dst_set(set)
                            .dst_binding(b)
                            .descriptor_type(ty)
                            .buffer_info(info)
                    })
                    .collect();
                d.update_descriptor_sets(&writes, &[]);
            }
            ctx.submit_and_wait(|cmd| {
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipeline);
                if set != vk::DescriptorSet::null() {
                    d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, layout, 0, &[set], &[]);
                }
                if !push.is_empty() {
                    d.cmd_push_constants(cmd, layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
                }
                d.cmd_dispatch(cmd, case.groups[0], case.groups[1], case.groups[2]);
                ctx.cmd_compute_to_host_barrier(cmd);
                Ok(())
            })?;
        }
        let mut buffers = Vec::new();
        for (b, init) in bufs.iter().zip(&case.bindings) {
            let words: Vec<u32> = b.read(init.data.len().div_ceil(4))?;
            let mut bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
            bytes.truncate(init.data.len());
            buffers.push(bytes);
        }
        let subgroup_size = case.subgroup_size.unwrap_or(ctx.shader_features().subgroup_size);
        Ok(Output { buffers, subgroup_size })
    })();
    // SAFETY: the device is idle (submit_and_wait waited) or lost; null handles are ignored.
    unsafe {
        d.destroy_pipeline(pipeline, None);
        d.destroy_shader_module(module, None);
        d.destroy_descriptor_pool(pool, None);
        d.destroy_pipeline_layout(layout, None);
        d.destroy_descriptor_set_layout(set_layout, None);
    }
    result
}
