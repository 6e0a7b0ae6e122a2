//! Shader modules, pipeline layouts, pipeline caches and compute pipelines. A compute
//! pipeline is an AMDHSA kernel compiled by compiler-bridge (SPIR-V → LLVM 19), uploaded to
//! GPU memory, with the register values a dispatch needs taken from its kernel descriptor.
//! A shader module may also hold an AMDHSA code object itself (ELF magic instead of the
//! SPIR-V one): `pName` then names one of its kernels, whose arguments are filled as
//! `compiler_bridge::hsa` plans (ARCHITECTURE.md, docs/ABI.md); or a Mesa code object, whose
//! `pName` function gets the SPIR-V kernarg segment (`compiler_bridge::mesa`; docs/ABI.md,
//! "Mesa code objects").

use std::sync::Arc;

use ash::vk;
use compiler_bridge::abi;
use compiler_bridge::elf::{AnyObject, CodeObject, Image, Kernel, UserSgpr};
use compiler_bridge::hsa::{KernargPlan, UserValue};
use compiler_bridge::mesa::ConfigObject;

use crate::descriptor::DescriptorSetLayout;
use crate::device::{dev, DeviceShared};
use crate::handle::{destroy, guard, object, slice, Object};
use crate::pcache;

/// Bytes of `s_code_end` padding after a shader: the instruction prefetcher may read up
/// to 256 bytes past the end (RDNA3-NOTES, "Shader end padding").
const CODE_PADDING: u64 = 256;

/// What a shader module holds.
enum ModuleCode {
    Spirv(Vec<u32>),
    /// An AMDHSA code object, checked to parse when the module was created, and its bytes.
    CodeObject(Box<CodeObject>, Vec<u8>),
    /// A Mesa code object (`.AMDGPU.config`), checked to parse.
    Mesa(Box<ConfigObject>),
}

pub struct ShaderModule {
    code: ModuleCode,
}
object!(ShaderModule, vk::ShaderModule);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_shader_module(
    _d: vk::Device,
    info: *const vk::ShaderModuleCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::ShaderModule,
) -> vk::Result {
    guard("vkCreateShaderModule", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        if info.code_size % 4 != 0 || info.p_code.is_null() {
            tracing::warn!("vkCreateShaderModule: code size {} is not a multiple of 4", info.code_size);
            return vk::Result::ERROR_INVALID_SHADER_NV;
        }
        // SAFETY: p_code points to code_size bytes.
        let bytes = unsafe { std::slice::from_raw_parts(info.p_code as *const u8, info.code_size) };
        let code = if bytes.starts_with(b"\x7fELF") {
            match AnyObject::parse(bytes) {
                Ok(AnyObject::Hsa(co)) => ModuleCode::CodeObject(Box::new(co), bytes.to_vec()),
                Ok(AnyObject::Mesa(o)) => ModuleCode::Mesa(Box::new(o)),
                Err(e) => {
                    tracing::warn!("vkCreateShaderModule: the module is an ELF file but not a usable code object: {e}");
                    return vk::Result::ERROR_INVALID_SHADER_NV;
                }
            }
        } else {
            // SAFETY: p_code points to code_size bytes, 4-byte aligned.
            let words = unsafe { std::slice::from_raw_parts(info.p_code, info.code_size / 4) }.to_vec();
            if let Err(e) = compiler_bridge::validate_module(&words) {
                tracing::warn!("vkCreateShaderModule: {e}");
                return vk::Result::ERROR_INVALID_SHADER_NV;
            }
            ModuleCode::Spirv(words)
        };
        // SAFETY: out is valid per the specification.
        unsafe { *out = ShaderModule { code }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_shader_module(
    _d: vk::Device,
    m: vk::ShaderModule,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<ShaderModule>("vkDestroyShaderModule", m) }
}

pub struct PipelineLayout {
    pub abi: abi::PipelineLayout,
    /// Per set: the immutable samplers of its layout (push descriptor images get them).
    pub immutable: Vec<std::sync::Arc<crate::descriptor::Immutable>>,
}
object!(PipelineLayout, vk::PipelineLayout);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_pipeline_layout(
    _d: vk::Device,
    info: *const vk::PipelineLayoutCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::PipelineLayout,
) -> vk::Result {
    guard("vkCreatePipelineLayout", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let (mut sets, mut immutable) = (Vec::new(), Vec::new());
        // SAFETY: valid per the specification.
        for &l in unsafe { slice(info.p_set_layouts, info.set_layout_count) } {
            // SAFETY: live layout handles (null is allowed for unused sets).
            let l = unsafe { DescriptorSetLayout::from_handle(l) };
            sets.push(l.as_ref().map_or_else(|| abi::SetLayout::new(Vec::new()), |l| (*l.abi).clone()));
            immutable.push(l.map(|l| l.immutable.clone()).unwrap_or_default());
        }
        // SAFETY: valid per the specification.
        let push_constant_size = unsafe { slice(info.p_push_constant_ranges, info.push_constant_range_count) }
            .iter()
            .map(|r| r.offset + r.size)
            .max()
            .unwrap_or(0);
        // SAFETY: out is valid per the specification.
        unsafe {
            *out = PipelineLayout { abi: abi::PipelineLayout { sets, push_constant_size }, immutable }.into_handle()
        };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_pipeline_layout(
    _d: vk::Device,
    l: vk::PipelineLayout,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<PipelineLayout>("vkDestroyPipelineLayout", l) }
}

/// A pipeline cache: compiled SPIR-V pipeline shaders (`pcache`), shared by the pipelines
/// created with it. Locked internally, so EXTERNALLY_SYNCHRONIZED needs nothing more.
pub struct PipelineCache {
    entries: parking_lot::Mutex<pcache::Entries>,
    id: pcache::Identity,
}
object!(PipelineCache, vk::PipelineCache);

impl PipelineCache {
    fn get(&self, key: &pcache::Key) -> Option<Arc<pcache::Entry>> {
        self.entries.lock().0.get(key).cloned()
    }

    fn insert(&self, key: pcache::Key, entry: Arc<pcache::Entry>) {
        self.entries.lock().0.insert(key, entry);
    }
}

/// The pipeline cache identity of a device.
fn identity(shared: &DeviceShared) -> pcache::Identity {
    pcache::Identity {
        vendor_id: shared.info.vendor_id,
        device_id: shared.info.device_id,
        uuid: crate::instance::cache_uuid(),
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_pipeline_cache(
    device: vk::Device,
    info: *const vk::PipelineCacheCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::PipelineCache,
) -> vk::Result {
    guard("vkCreatePipelineCache", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let known = vk::PipelineCacheCreateFlags::EXTERNALLY_SYNCHRONIZED;
        if !(info.flags & !known).is_empty() {
            tracing::warn!("vkCreatePipelineCache: flags {:?} are not supported", info.flags & !known);
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        let id = identity(&dev(device).shared);
        let data = if info.p_initial_data.is_null() {
            &[][..]
        } else {
            // SAFETY: p_initial_data points to initial_data_size bytes.
            unsafe { std::slice::from_raw_parts(info.p_initial_data as *const u8, info.initial_data_size) }
        };
        let entries = pcache::Entries::parse(data, &id).unwrap_or_else(|why| {
            tracing::warn!("vkCreatePipelineCache: ignoring the initial data ({} bytes): {why}", data.len());
            pcache::Entries::default()
        });
        tracing::debug!("vkCreatePipelineCache: {} entries from {} bytes of initial data", entries.0.len(), data.len());
        // SAFETY: out is valid per the specification.
        unsafe { *out = PipelineCache { entries: parking_lot::Mutex::new(entries), id }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_pipeline_cache(
    _d: vk::Device,
    c: vk::PipelineCache,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<PipelineCache>("vkDestroyPipelineCache", c) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_pipeline_cache_data(
    _device: vk::Device,
    c: vk::PipelineCache,
    size: *mut usize,
    data: *mut std::ffi::c_void,
) -> vk::Result {
    guard("vkGetPipelineCacheData", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a live cache handle.
        let Some(cache) = (unsafe { PipelineCache::from_handle(c) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        let entries = cache.entries.lock();
        // SAFETY: size/data as the specification requires.
        unsafe {
            if data.is_null() {
                *size = entries.size(&cache.id);
                return vk::Result::SUCCESS;
            }
            let (bytes, all) = entries.serialise(&cache.id, *size);
            std::ptr::copy_nonoverlapping(bytes.as_ptr(), data as *mut u8, bytes.len());
            *size = bytes.len();
            if all {
                vk::Result::SUCCESS
            } else {
                vk::Result::INCOMPLETE
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn merge_pipeline_caches(
    _d: vk::Device,
    dst: vk::PipelineCache,
    n: u32,
    src: *const vk::PipelineCache,
) -> vk::Result {
    guard("vkMergePipelineCaches", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a live cache handle.
        let Some(dst) = (unsafe { PipelineCache::from_handle(dst) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        let dst: &PipelineCache = dst;
        // SAFETY: valid per the specification.
        for &s in unsafe { slice(src, n) } {
            // SAFETY: live cache handles, none of them dst (per the specification).
            let Some(s) = (unsafe { PipelineCache::from_handle(s) }) else { continue };
            if std::ptr::eq(&*s, dst) {
                continue;
            }
            let from: Vec<_> = s.entries.lock().0.iter().map(|(k, v)| (*k, v.clone())).collect();
            dst.entries.lock().0.extend(from);
        }
        vk::Result::SUCCESS
    })
}

/// A compute pipeline: the uploaded kernel and what a dispatch programs.
pub struct Pipeline {
    bo: Arc<gpu::mem::Bo>,
    pub pgm: u64,
    pub rsrc1: u32,
    pub rsrc2: u32,
    pub rsrc3: u32,
    pub wave32: bool,
    pub workgroup_size: [u32; 3],
    /// User SGPRs to program: (first SGPR, value, SGPR count).
    pub user_sgprs: Vec<(u32, UserValue, u32)>,
    pub layout: abi::PipelineLayout,
    pub kernarg: Kernarg,
    /// Private (scratch) bytes per work-item.
    pub private_bytes: u32,
    /// LDS bytes per workgroup.
    pub lds_bytes: u32,
    /// GPU address of the kernel descriptor (the dispatch packet's kernel object).
    pub kernel_object: u64,
    /// Scratch ring address and bytes per wave, when the kernel uses scratch.
    pub scratch: Option<(u64, u64)>,
    pub tmpring_waves: u32,
    /// What VK_KHR_pipeline_executable_properties reports.
    pub executable: Executable,
    dev: Arc<DeviceShared>,
}
object!(Pipeline, vk::Pipeline);

/// The one executable of a compute pipeline, for VK_KHR_pipeline_executable_properties.
pub struct Executable {
    /// The kernel's name in its code object.
    pub kernel: String,
    pub wave_size: u32,
    /// VGPRs per lane the descriptor allocates (COMPUTE_PGM_RSRC1 granules).
    pub vgprs_allocated: u32,
    /// `.vgpr_count` / `.sgpr_count` of the code object metadata.
    pub vgprs: u32,
    pub sgprs: u32,
    /// Where the kernel's code is in the pipeline's buffer, and how many bytes follow it in
    /// the code object image (the disassembly stops at `s_code_end`).
    pub code_offset: u64,
    pub code_bytes: u64,
    /// Statistics and internal representations were asked for at creation (the
    /// specification allows querying them only then).
    pub capture_statistics: bool,
    pub capture_internal: bool,
    /// The LLVM IR the lowering produced: SPIR-V pipelines created with
    /// CAPTURE_INTERNAL_REPRESENTATIONS only.
    pub llvm_ir: Option<String>,
    /// Compiled from SPIR-V (not an application's code object).
    pub spirv: bool,
    /// The code object came from the application's pipeline cache (no compilation).
    pub from_cache: bool,
    /// The compiler took the code object from its disk cache (SOFTNAVI_CACHE_DIR).
    pub compiler_cache: bool,
}

impl Pipeline {
    /// The code object image from the kernel's first instruction on.
    pub fn code_bytes(&self) -> &[u8] {
        let e = &self.executable;
        // SAFETY: the BO holds the whole image, which nothing writes after upload, and lives
        // as long as the pipeline; code_offset + code_bytes is inside the image.
        unsafe { std::slice::from_raw_parts(self.bo.host_ptr().add(e.code_offset as usize), e.code_bytes as usize) }
    }
}

impl Drop for Pipeline {
    fn drop(&mut self) {
        crate::debug::forget_code(self.bo.va());
        self.dev.gpu.free(&self.bo);
    }
}

/// How a pipeline's kernarg segment is made.
pub enum Kernarg {
    /// A SPIR-V pipeline: docs/ABI.md's layout.
    Spirv(abi::KernargLayout),
    /// An external code object: its arguments per the metadata.
    CodeObject(KernargPlan),
}

/// Why a pipeline could not be created, and the Vulkan code for it.
fn fail(code: vk::Result, what: String) -> Result<Pipeline, (vk::Result, String)> {
    Err((code, what))
}

fn specialization(info: *const vk::SpecializationInfo<'_>) -> Vec<compiler_bridge::SpecConstant> {
    if info.is_null() {
        return Vec::new();
    }
    // SAFETY: valid per the specification.
    let info = unsafe { &*info };
    // SAFETY: as above.
    let data = unsafe { slice(info.p_data as *const u8, info.data_size as u32) };
    // SAFETY: as above.
    unsafe { slice(info.p_map_entries, info.map_entry_count) }
        .iter()
        .map(|e| {
            let bytes = data.get(e.offset as usize..e.offset as usize + e.size).unwrap_or(&[]).to_vec();
            compiler_bridge::SpecConstant { id: e.constant_id, data: bytes }
        })
        .collect()
}

/// The pipeline cache key of a SPIR-V shader: everything its code object depends on (the
/// module, entry point, specialisation, the layout's descriptor and push-constant
/// placement, the wave size, and the compiler). `None` (logged) when the compiler cannot
/// name itself, and then nothing is cached.
fn cache_key(
    words: &[u32],
    entry: &str,
    spec: &[compiler_bridge::SpecConstant],
    layout: &abi::PipelineLayout,
    wave_size: u32,
) -> Option<pcache::Key> {
    let compiler = compiler_bridge::Compiler::from_env().and_then(|c| c.backend.identity());
    let compiler = match compiler {
        Ok(id) => id,
        Err(e) => {
            tracing::warn!("pipeline cache: the compiler cannot name itself ({e}); not caching");
            return None;
        }
    };
    let spirv: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).collect();
    let mut spec_bytes = Vec::new();
    for c in spec {
        spec_bytes.extend_from_slice(&c.id.to_le_bytes());
        spec_bytes.extend_from_slice(&(c.data.len() as u32).to_le_bytes());
        spec_bytes.extend_from_slice(&c.data);
    }
    let layout = format!("{layout:?}");
    let features = format!("{:?}", compiler_bridge::SHADER_FEATURES);
    Some(pcache::key(&[
        &spirv,
        entry.as_bytes(),
        &spec_bytes,
        layout.as_bytes(),
        &wave_size.to_le_bytes(),
        compiler.as_bytes(),
        env!("CARGO_PKG_VERSION").as_bytes(),
        features.as_bytes(),
    ]))
}

fn build(
    shared: &Arc<DeviceShared>,
    info: &vk::ComputePipelineCreateInfo<'_>,
    cache: Option<&PipelineCache>,
) -> Result<Pipeline, (vk::Result, String)> {
    let stage = &info.stage;
    // SAFETY: live handles per the specification.
    let (Some(module), Some(layout)) =
        (unsafe { ShaderModule::from_handle(stage.module) }, unsafe { PipelineLayout::from_handle(info.layout) })
    else {
        return fail(vk::Result::ERROR_UNKNOWN, "missing shader module or pipeline layout".into());
    };
    // SAFETY: p_name is a NUL-terminated string.
    let entry = unsafe { std::ffi::CStr::from_ptr(stage.p_name) }.to_string_lossy().into_owned();
    let spec = specialization(stage.p_specialization_info);
    let subgroups = SubgroupRequest::of(stage).map_err(|what| (vk::Result::ERROR_UNKNOWN, what))?;
    let capture = Capture {
        statistics: info.flags.contains(vk::PipelineCreateFlags::CAPTURE_STATISTICS_KHR),
        internal: info.flags.contains(vk::PipelineCreateFlags::CAPTURE_INTERNAL_REPRESENTATIONS_KHR),
        spirv: matches!(module.code, ModuleCode::Spirv(_)),
    };
    let words = match &module.code {
        ModuleCode::Spirv(words) => words,
        ModuleCode::CodeObject(co, elf) => {
            let code = CodeRange { elf, capture };
            return build_code_object(shared, co, &entry, &spec, &layout.abi, subgroups, code);
        }
        ModuleCode::Mesa(o) => return build_mesa(shared, o, &entry, &spec, &layout.abi, subgroups, capture),
    };
    let wave_size = subgroups.wave_size();
    let key = cache.and_then(|_| cache_key(words, &entry, &spec, &layout.abi, wave_size));
    // Internal representations need the LLVM IR, which only a compilation has.
    let hit = match (cache, &key) {
        (Some(c), Some(k)) if !capture.internal => c.get(k),
        _ => None,
    };
    let from_cache = hit.is_some();
    let (compiled, ir, compiler_cache) = match hit {
        Some(e) => (e, None, false),
        None => {
            if info.flags.contains(vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED) {
                return fail(
                    vk::Result::PIPELINE_COMPILE_REQUIRED,
                    "the shader is not in the pipeline cache and FAIL_ON_PIPELINE_COMPILE_REQUIRED is set".into(),
                );
            }
            let input = compiler_bridge::ShaderInput {
                spirv: words,
                entry_point: &entry,
                layout: &layout.abi,
                specialization: &spec,
            };
            let opts = compiler_bridge::CodegenOptions { wave64: wave_size == 64 };
            let c = match compiler_bridge::compile_with(&input, &opts) {
                Ok(c) => c,
                Err(e) => {
                    let code = match e {
                        compiler_bridge::CompileError::Unsupported { .. } => vk::Result::ERROR_FEATURE_NOT_PRESENT,
                        _ => vk::Result::ERROR_UNKNOWN,
                    };
                    return fail(code, format!("{}: {e}", shader_name(stage.module, words, &entry)));
                }
            };
            let e =
                Arc::new(pcache::Entry { kernel_name: c.kernel_name, workgroup_size: c.workgroup_size, elf: c.elf });
            if let (Some(cache), Some(k)) = (cache, key) {
                cache.insert(k, e.clone());
            }
            (e, capture.internal.then_some(c.llvm_ir), c.from_cache)
        }
    };
    let co = CodeObject::parse(&compiled.elf).map_err(|e| (vk::Result::ERROR_UNKNOWN, e.to_string()))?;
    let Some(kernel) = co.kernel(&compiled.kernel_name) else {
        return fail(
            vk::Result::ERROR_UNKNOWN,
            format!("kernel {} missing from its code object", compiled.kernel_name),
        );
    };
    let kd = &kernel.descriptor;
    let Some(kernarg_sgpr) =
        kd.user_sgpr_layout().iter().find(|(k, _, _)| *k == UserSgpr::KernargSegmentPtr).map(|&(_, first, _)| first)
    else {
        return fail(vk::Result::ERROR_UNKNOWN, "the kernel does not take a kernarg segment pointer".into());
    };
    if kd.wave32() != (subgroups.wave_size() == 32) {
        return fail(
            vk::Result::ERROR_UNKNOWN,
            format!("asked LLVM for wave{} and got the other", subgroups.wave_size()),
        );
    }
    // A cache entry's size is application data like the rest of it.
    check_workgroup_size(compiled.workgroup_size, 1024).map_err(|what| (vk::Result::ERROR_UNKNOWN, what))?;
    subgroups.check_workgroup(compiled.workgroup_size).map_err(|what| (vk::Result::ERROR_UNKNOWN, what))?;
    let launch = Launch {
        workgroup_size: compiled.workgroup_size,
        user_sgprs: vec![(kernarg_sgpr, UserValue::Kernarg, 2)],
        kernarg: Kernarg::Spirv(layout.abi.kernarg()),
        lds_bytes: kd.group_segment_fixed_size,
    };
    let program = hsa_program(&co, kernel, &compiled.elf)?;
    let mut p = upload(shared, program, launch, &layout.abi, capture, ir)?;
    p.executable.from_cache = from_cache;
    p.executable.compiler_cache = compiler_cache;
    Ok(p)
}

/// How a log line names a SPIR-V shader: the module's handle and debug-utils name, a
/// SHA-256 prefix of its SPIR-V (the same in every run, to find the module again), and the
/// entry point.
fn shader_name(module: vk::ShaderModule, words: &[u32], entry: &str) -> String {
    use ash::vk::Handle as _;
    use sha2::Digest as _;
    let mut h = sha2::Sha256::new();
    for w in words {
        h.update(w.to_le_bytes());
    }
    let hash: String = h.finalize()[..8].iter().map(|b| format!("{b:02x}")).collect();
    let name = crate::debug::name_of(module.as_raw()).map_or(String::new(), |n| format!(" \"{n}\""));
    format!("shader module {:#x}{name} (SPIR-V SHA-256 {hash}...), entry point \"{entry}\"", module.as_raw())
}

/// What a pipeline's executable is made from: the code object's bytes (for the kernel's
/// symbol size) and what to capture.
#[derive(Clone, Copy)]
struct CodeRange<'a> {
    elf: &'a [u8],
    capture: Capture,
}

/// What VK_KHR_pipeline_executable_properties data a pipeline keeps.
#[derive(Clone, Copy)]
struct Capture {
    statistics: bool,
    internal: bool,
    spirv: bool,
}

/// A stage's subgroup size requirements (VK_EXT_subgroup_size_control).
#[derive(Clone, Copy, Debug)]
struct SubgroupRequest {
    /// `VkPipelineShaderStageRequiredSubgroupSizeCreateInfo::requiredSubgroupSize`.
    required: Option<u32>,
    /// `VK_PIPELINE_SHADER_STAGE_CREATE_ALLOW_VARYING_SUBGROUP_SIZE_BIT`.
    varying: bool,
    /// `VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT`.
    full: bool,
}

impl SubgroupRequest {
    fn of(stage: &vk::PipelineShaderStageCreateInfo<'_>) -> Result<SubgroupRequest, String> {
        let known = vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE
            | vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS;
        if !(stage.flags & !known).is_empty() {
            return Err(format!("shader stage flags {:?} are not supported", stage.flags & !known));
        }
        if stage.stage != vk::ShaderStageFlags::COMPUTE {
            return Err(format!("stage {:?} is not a compute stage", stage.stage));
        }
        let mut required = None;
        // SAFETY: the chain is valid per the specification.
        for s in unsafe { crate::handle::chain(stage.p_next) } {
            // SAFETY: s_type says what the structure is.
            match unsafe { (*s).s_type } {
                vk::StructureType::PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO => {
                    // SAFETY: as above.
                    let r = unsafe { &*(s as *const vk::PipelineShaderStageRequiredSubgroupSizeCreateInfo<'static>) };
                    required = Some(r.required_subgroup_size);
                }
                t => tracing::debug!("vkCreateComputePipelines: ignoring {t:?} in the stage's pNext"),
            }
        }
        let req = SubgroupRequest {
            required,
            varying: stage.flags.contains(vk::PipelineShaderStageCreateFlags::ALLOW_VARYING_SUBGROUP_SIZE),
            full: stage.flags.contains(vk::PipelineShaderStageCreateFlags::REQUIRE_FULL_SUBGROUPS),
        };
        if let Some(size) = required {
            if !crate::features::subgroup_size_supported(&crate::features::SHADER, size) {
                return Err(format!(
                    "required subgroup size {size} is not one of the supported sizes {:?}",
                    crate::features::SHADER.subgroup_sizes
                ));
            }
            if req.varying {
                return Err("ALLOW_VARYING_SUBGROUP_SIZE together with a required subgroup size".into());
            }
        }
        Ok(req)
    }

    /// The wave size to compile for: the required one, else wave32 (the reported
    /// `subgroupSize`, also chosen when the size may vary).
    fn wave_size(&self) -> u32 {
        self.required.unwrap_or(crate::instance::SUBGROUP_SIZE)
    }

    /// REQUIRE_FULL_SUBGROUPS: the X size must be a multiple of the subgroup size the
    /// shader may get (maxSubgroupSize when it may vary), and a required size bounds the
    /// workgroup to maxComputeWorkgroupSubgroups subgroups.
    fn check_workgroup(&self, size: [u32; 3]) -> Result<(), String> {
        let max_size = crate::features::SHADER.subgroup_sizes.iter().copied().max().unwrap_or(64);
        let multiple = match (self.required, self.varying) {
            (Some(r), _) => r,
            (None, true) => max_size,
            (None, false) => crate::instance::SUBGROUP_SIZE,
        };
        if self.full && size[0] % multiple != 0 {
            return Err(format!(
                "REQUIRE_FULL_SUBGROUPS: the workgroup's X size {} is not a multiple of the subgroup size {multiple}",
                size[0]
            ));
        }
        let invocations = invocations(size);
        let min = crate::features::SHADER.subgroup_sizes.iter().copied().min().unwrap_or(32);
        if let Some(r) = self.required {
            let limit = r as u64 * (crate::instance::MAX_WORKGROUP_INVOCATIONS / min) as u64;
            if invocations > limit {
                return Err(format!(
                    "a workgroup of {invocations} invocations exceeds requiredSubgroupSize × maxComputeWorkgroupSubgroups = {limit}"
                ));
            }
        }
        Ok(())
    }
}

/// Work-items of a workgroup of `size` (saturating: the dimensions may come from a
/// pipeline cache or a code object, up to 2^96 in all).
fn invocations(size: [u32; 3]) -> u64 {
    size.iter().fold(1u64, |n, &d| n.saturating_mul(d as u64))
}

/// A workgroup size must have work-items, and at most `max` of them (the kernel's, at most
/// maxComputeWorkGroupInvocations) in all and in each dimension (maxComputeWorkGroupSize).
fn check_workgroup_size(size: [u32; 3], max: u32) -> Result<(), String> {
    let max = max.min(crate::instance::MAX_WORKGROUP_INVOCATIONS);
    if size.contains(&0) || invocations(size) > max as u64 || size.iter().any(|&d| d > max) {
        return Err(format!("workgroup size {size:?} is empty or exceeds the kernel's maximum of {max}"));
    }
    Ok(())
}

/// A specialisation constant's value as a u32 (little-endian, up to 4 bytes).
fn spec_u32(spec: &[compiler_bridge::SpecConstant], id: u32) -> Option<u32> {
    let c = spec.iter().find(|c| c.id == id)?;
    let mut b = [0u8; 4];
    let n = c.data.len().min(4);
    b[..n].copy_from_slice(&c.data[..n]);
    Some(u32::from_le_bytes(b))
}

/// A pipeline from an external code object's kernel `entry` (ARCHITECTURE.md, "External
/// code objects can be used as shader modules").
fn build_code_object(
    shared: &Arc<DeviceShared>,
    co: &CodeObject,
    entry: &str,
    spec: &[compiler_bridge::SpecConstant],
    layout: &abi::PipelineLayout,
    subgroups: SubgroupRequest,
    code: CodeRange<'_>,
) -> Result<Pipeline, (vk::Result, String)> {
    let err = |what: String| (vk::Result::ERROR_UNKNOWN, format!("code object kernel `{entry}`: {what}"));
    let kernel = co
        .kernel(entry)
        .or_else(|| co.kernels.iter().find(|k| k.symbol == entry || k.symbol.strip_suffix(".kd") == Some(entry)))
        .ok_or_else(|| {
            let names: Vec<&str> = co.kernels.iter().map(|k| k.name.as_str()).collect();
            err(format!("no such kernel in the code object (it has: {})", names.join(", ")))
        })?;
    let meta = &kernel.metadata;
    let workgroup_size = match meta.reqd_workgroup_size {
        Some(s) => s,
        None => [(0, 64), (1, 1), (2, 1)].map(|(id, default)| spec_u32(spec, id).unwrap_or(default)),
    };
    let max = if meta.max_flat_workgroup_size > 0 { meta.max_flat_workgroup_size } else { 1024 };
    check_workgroup_size(workgroup_size, max).map_err(err)?;
    let kd = &kernel.descriptor;
    let dynamic = meta.args.iter().filter(|a| a.value_kind == "dynamic_shared_pointer").count() as u32;
    let dynamic_lds: Vec<u32> = (0..dynamic).map_while(|i| spec_u32(spec, 3 + i)).collect();
    let plan = KernargPlan::new(kernel, &dynamic_lds).map_err(err)?;
    // Every descriptor type a set layout can hold here is a buffer.
    let buffers: u32 = layout.sets.first().map_or(0, |s| s.bindings().iter().map(|b| b.count).sum());
    if plan.buffers > buffers {
        return Err(err(format!(
            "the kernel takes {} global buffers but set 0 of the pipeline layout has {buffers} buffer descriptors",
            plan.buffers
        )));
    }
    if plan.push_bytes > layout.push_constant_size {
        return Err(err(format!(
            "its by-value arguments take {} bytes of push constants; the pipeline layout has {}",
            plan.push_bytes, layout.push_constant_size
        )));
    }
    if meta.wavefront_size != 0 && meta.wavefront_size != if kd.wave32() { 32 } else { 64 } {
        return Err(err(format!("metadata wavefront size {} disagrees with the descriptor", meta.wavefront_size)));
    }
    let wave_size = if kd.wave32() { 32 } else { 64 };
    if subgroups.required.is_some_and(|r| r != wave_size) {
        return Err(err(format!(
            "the pipeline requires subgroup size {}, the code object is compiled for wave{wave_size}",
            subgroups.wave_size()
        )));
    }
    // The size may vary or is the code object's own: full subgroups are of that size.
    SubgroupRequest { required: Some(wave_size), ..subgroups }.check_workgroup(workgroup_size).map_err(err)?;
    let program = hsa_program(co, kernel, code.elf)?;
    let (user_sgprs, lds_bytes) = (plan.user_sgprs.clone(), plan.lds_bytes);
    let launch = Launch { workgroup_size, user_sgprs, kernarg: Kernarg::CodeObject(plan), lds_bytes };
    upload(shared, program, launch, layout, code.capture, None)
}

/// A pipeline from function `entry` of a Mesa code object (docs/ABI.md, "Mesa code
/// objects"): the SPIR-V kernarg segment's address in s[0:1], RSRC2 as
/// `ComputeConfig::dispatch_rsrc2` makes it.
fn build_mesa(
    shared: &Arc<DeviceShared>,
    object: &ConfigObject,
    entry: &str,
    spec: &[compiler_bridge::SpecConstant],
    layout: &abi::PipelineLayout,
    subgroups: SubgroupRequest,
    capture: Capture,
) -> Result<Pipeline, (vk::Result, String)> {
    let err = |what: String| (vk::Result::ERROR_UNKNOWN, format!("Mesa code object function `{entry}`: {what}"));
    let f = object.function(entry).ok_or_else(|| {
        let names: Vec<&str> = object.functions.iter().map(|f| f.name.as_str()).collect();
        err(format!("no such function in the code object (it has: {})", names.join(", ")))
    })?;
    let config = f.compute().map_err(|e| (vk::Result::ERROR_UNKNOWN, format!("Mesa code object {e}")))?;
    let workgroup_size = [(0, 64), (1, 1), (2, 1)].map(|(id, default)| spec_u32(spec, id).unwrap_or(default));
    check_workgroup_size(workgroup_size, 1024).map_err(err)?;
    // The object does not say which wave size it was compiled for: the stage's required
    // subgroup size says, else wave32.
    let wave_size = subgroups.wave_size();
    SubgroupRequest { required: Some(wave_size), ..subgroups }.check_workgroup(workgroup_size).map_err(err)?;
    let wave32 = wave_size == 32;
    let scratch = config.scratch_bytes_per_wave();
    let program = Program {
        image: object.image(),
        name: f.name.clone(),
        entry: f.offset,
        kernel_object: f.offset,
        rsrc: [config.rsrc1, config.dispatch_rsrc2(), config.rsrc3],
        wave32,
        private_bytes: (scratch / wave_size as u64) as u32,
        scratch_per_wave: scratch,
        registers: (config.vgprs(wave32), config.vgprs(wave32), 0),
        code_bytes: f.size.min(object.image_size() - f.offset),
    };
    let launch = Launch {
        workgroup_size,
        user_sgprs: config.user_sgpr_values(),
        kernarg: Kernarg::Spirv(layout.kernarg()),
        lds_bytes: config.lds_bytes(),
    };
    tracing::debug!(
        "Mesa code object function `{entry}`: wave{wave_size}, workgroup {workgroup_size:?}, {} user SGPRs, \
         {} LDS bytes, {scratch} scratch bytes per wave, {} SGPRs and {} VGPRs spilled",
        config.user_sgprs(),
        config.lds_bytes(),
        config.spilled_sgprs,
        config.spilled_vgprs
    );
    upload(shared, program, launch, layout, capture, None)
}

/// What a pipeline runs, from either flavour of code object.
struct Program<'a> {
    image: &'a Image,
    /// The kernel or function name.
    name: String,
    /// Image offset of the first instruction.
    entry: u64,
    /// Image offset of what an HSA dispatch packet names as the kernel object.
    kernel_object: u64,
    /// COMPUTE_PGM_RSRC1, RSRC2 (LDS_SIZE is the launch's), RSRC3.
    rsrc: [u32; 3],
    wave32: bool,
    /// Scratch bytes per work-item, and per wave (0: no scratch).
    private_bytes: u32,
    scratch_per_wave: u64,
    /// (VGPRs allocated, VGPRs used, SGPRs used) for the executable statistics.
    registers: (u32, u32, u32),
    /// Bytes of code from `entry` (the disassembly's extent).
    code_bytes: u64,
}

/// How a pipeline's dispatches start its program.
struct Launch {
    workgroup_size: [u32; 3],
    /// User SGPRs to program: (first SGPR, value, SGPR count).
    user_sgprs: Vec<(u32, UserValue, u32)>,
    kernarg: Kernarg,
    lds_bytes: u32,
}

/// The program of an AMDHSA kernel, from its descriptor and metadata.
fn hsa_program<'a>(co: &'a CodeObject, kernel: &Kernel, elf: &[u8]) -> Result<Program<'a>, (vk::Result, String)> {
    let kd = &kernel.descriptor;
    if kd.uses_dynamic_stack() {
        return fail_with(vk::Result::ERROR_FEATURE_NOT_PRESENT, "kernels with a dynamic stack are not supported");
    }
    let lanes = if kd.wave32() { 32 } else { 64 };
    Ok(Program {
        image: co.image(),
        name: kernel.name.clone(),
        entry: kernel.entry_offset(),
        kernel_object: kernel.descriptor_offset,
        rsrc: [kd.compute_pgm_rsrc1, kd.compute_pgm_rsrc2, kd.compute_pgm_rsrc3],
        wave32: kd.wave32(),
        private_bytes: kd.private_segment_fixed_size,
        scratch_per_wave: kd.private_segment_fixed_size as u64 * lanes,
        registers: (kd.vgpr_alloc(), kernel.metadata.vgpr_count, kernel.metadata.sgpr_count),
        code_bytes: code_bytes(co, kernel, elf),
    })
}

fn fail_with<T>(code: vk::Result, what: &str) -> Result<T, (vk::Result, String)> {
    Err((code, what.to_string()))
}

/// The bytes of a kernel's code: its function symbol's size in the ELF symbol table, else
/// up to the next kernel's entry point or the end of the image.
fn code_bytes(co: &CodeObject, kernel: &Kernel, elf: &[u8]) -> u64 {
    use object::{Object as _, ObjectSymbol as _};
    let entry = kernel.entry_offset().min(co.image_size());
    let end =
        co.kernels.iter().map(Kernel::entry_offset).filter(|&e| e > entry).fold(co.image_size().max(entry), u64::min);
    let symbol = object::File::parse(elf).ok().and_then(|f| {
        f.symbols()
            .find(|s| s.kind() == object::SymbolKind::Text && s.name() == Ok(kernel.name.as_str()))
            .map(|s| s.size())
    });
    symbol.filter(|&size| size > 0).map_or(end - entry, |size| size.min(end - entry))
}

/// Uploads a program's code object and makes its pipeline.
fn upload(
    shared: &Arc<DeviceShared>,
    program: Program<'_>,
    launch: Launch,
    layout: &abi::PipelineLayout,
    capture: Capture,
    llvm_ir: Option<String>,
) -> Result<Pipeline, (vk::Result, String)> {
    let image_size = program.image.size();
    let bo = shared
        .gpu
        .alloc(image_size + CODE_PADDING, 256)
        .map_err(|e| (vk::Result::ERROR_OUT_OF_DEVICE_MEMORY, e.to_string()))?;
    let image = program.image.at(bo.va());
    // SAFETY: the BO holds image_size + padding bytes; nothing else uses it yet.
    unsafe {
        std::ptr::copy_nonoverlapping(image.as_ptr(), bo.host_ptr(), image.len());
        // Pad with s_code_end, as the ISA asks.
        let pad = bo.host_ptr().add(image.len()) as *mut u32;
        for k in 0..(CODE_PADDING / 4) as usize {
            pad.add(k).write_unaligned(0xbf9f_0000);
        }
    }
    let pgm = bo.va() + program.entry;
    if pgm % 256 != 0 {
        shared.gpu.free(&bo);
        return fail(vk::Result::ERROR_UNKNOWN, format!("kernel entry {pgm:#x} is not 256-byte aligned"));
    }
    // The descriptor leaves LDS_SIZE to the driver (AMDGPUUsage: "CP uses the packet value").
    let lds = launch.lds_bytes.div_ceil(512);
    let [rsrc1, rsrc2, rsrc3] = program.rsrc;
    let rsrc2 = (rsrc2 & !(0x1ff << 15)) | (lds & 0x1ff) << 15;
    let scratch = if program.scratch_per_wave > 0 {
        match shared.scratch_ring(program.scratch_per_wave) {
            Ok(s) => Some(s),
            Err(e) => {
                shared.gpu.free(&bo);
                return Err((e, "no memory for the scratch ring".into()));
            }
        }
    } else {
        None
    };
    let (vgprs_allocated, vgprs, sgprs) = program.registers;
    let kernel_object = bo.va() + program.kernel_object;
    let executable = Executable {
        kernel: program.name,
        wave_size: if program.wave32 { 32 } else { 64 },
        vgprs_allocated,
        vgprs,
        sgprs,
        // An entry point outside the image (rejected by the loader) would have no code.
        code_offset: program.entry.min(image_size),
        code_bytes: program.code_bytes,
        capture_statistics: capture.statistics,
        capture_internal: capture.internal,
        llvm_ir,
        spirv: capture.spirv,
        from_cache: false,
        compiler_cache: false,
    };
    Ok(Pipeline {
        executable,
        bo,
        pgm,
        rsrc1,
        rsrc2,
        rsrc3,
        wave32: program.wave32,
        workgroup_size: launch.workgroup_size,
        user_sgprs: launch.user_sgprs,
        kernarg: launch.kernarg,
        private_bytes: program.private_bytes,
        lds_bytes: launch.lds_bytes,
        kernel_object,
        layout: layout.clone(),
        scratch,
        tmpring_waves: shared.info.scratch_wave_slots,
        dev: shared.clone(),
    })
}

/// Fills VkPipelineCreationFeedbackCreateInfo, when the application chained one.
fn feedback(info: &vk::ComputePipelineCreateInfo<'_>, hit: bool, took: std::time::Duration) {
    let mut flags = vk::PipelineCreationFeedbackFlags::VALID;
    if hit {
        flags |= vk::PipelineCreationFeedbackFlags::APPLICATION_PIPELINE_CACHE_HIT;
    }
    let fb = vk::PipelineCreationFeedback { flags, duration: took.as_nanos().min(u64::MAX as u128) as u64 };
    // SAFETY: the chain is valid per the specification.
    for s in unsafe { crate::handle::chain(info.p_next) } {
        // SAFETY: s_type says what the structure is.
        if unsafe { (*s).s_type } != vk::StructureType::PIPELINE_CREATION_FEEDBACK_CREATE_INFO {
            continue;
        }
        // SAFETY: as above.
        let f = unsafe { &*(s as *const vk::PipelineCreationFeedbackCreateInfo<'static>) };
        // SAFETY: the pointers are valid for writes per the specification; a compute
        // pipeline has one stage.
        unsafe {
            if !f.p_pipeline_creation_feedback.is_null() {
                *f.p_pipeline_creation_feedback = fb;
            }
            if f.pipeline_stage_creation_feedback_count > 0 && !f.p_pipeline_stage_creation_feedbacks.is_null() {
                *f.p_pipeline_stage_creation_feedbacks = fb;
            }
        }
    }
}

/// A pipeline of the driver's own (`blit.rs`): SPIR-V `words` with entry `main` over
/// `layout`, built as an application's would be, without a cache. Its handle is the
/// device's until vkDestroyDevice (`DeviceShared::meta`).
pub(crate) fn internal(
    shared: &Arc<DeviceShared>,
    words: &[u32],
    layout: abi::PipelineLayout,
) -> Result<vk::Pipeline, (vk::Result, String)> {
    let module = ShaderModule { code: ModuleCode::Spirv(words.to_vec()) }.into_handle();
    let layout = PipelineLayout { immutable: vec![Default::default(); layout.sets.len()], abi: layout }.into_handle();
    let info = vk::ComputePipelineCreateInfo::default().layout(layout).stage(
        vk::PipelineShaderStageCreateInfo::default().stage(vk::ShaderStageFlags::COMPUTE).module(module).name(c"main"),
    );
    let built = build(shared, &info, None);
    // SAFETY: the two objects were made above and nothing else holds them.
    unsafe {
        destroy::<ShaderModule>("internal pipeline", module);
        destroy::<PipelineLayout>("internal pipeline", layout);
    }
    built.map(|p| p.into_handle())
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_compute_pipelines(
    device: vk::Device,
    cache: vk::PipelineCache,
    n: u32,
    infos: *const vk::ComputePipelineCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateComputePipelines", vk::Result::ERROR_UNKNOWN, || {
        let shared = dev(device).shared.clone();
        // SAFETY: a live cache handle or null.
        let cache = unsafe { PipelineCache::from_handle(cache) }.map(|c| &*c);
        let mut result = vk::Result::SUCCESS;
        // SAFETY: valid per the specification.
        let infos = unsafe { slice(infos, n) };
        // SAFETY: out has room for n handles.
        let outs = unsafe { std::slice::from_raw_parts_mut(out, n as usize) };
        outs.fill(vk::Pipeline::null());
        for (i, info) in infos.iter().enumerate() {
            let start = std::time::Instant::now();
            match build(&shared, info, cache) {
                Ok(p) => {
                    feedback(info, p.executable.from_cache, start.elapsed());
                    let (code, kernel) = ((p.bo.va(), p.bo.va() + p.bo.size()), p.executable.kernel.clone());
                    outs[i] = p.into_handle();
                    use ash::vk::Handle as _;
                    crate::debug::register_code(code.0, code.1, outs[i].as_raw(), info.stage.module.as_raw(), &kernel);
                }
                Err((code, what)) => {
                    if code == vk::Result::PIPELINE_COMPILE_REQUIRED {
                        tracing::debug!("vkCreateComputePipelines: pipeline {i}: {what}");
                    } else {
                        tracing::warn!("vkCreateComputePipelines: pipeline {i}: {what}");
                    }
                    result = code;
                    if info.flags.contains(vk::PipelineCreateFlags::EARLY_RETURN_ON_FAILURE) {
                        break;
                    }
                }
            }
        }
        result
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_pipeline(
    _d: vk::Device,
    p: vk::Pipeline,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Pipeline>("vkDestroyPipeline", p) }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fuzz finding (pcache, docs/FUZZING.md): a pipeline cache entry with workgroup size
    /// [0xffffffc0, 0x030000ff, 0xfc000001] made the invocation count overflow (a panic in
    /// vkCreateComputePipelines); such a size is now refused by name.
    #[test]
    fn workgroup_sizes_from_a_cache_entry_are_checked_without_overflow() {
        let huge = [0xffff_ffc0, 0x0300_00ff, 0xfc00_0001];
        assert_eq!(invocations(huge), u64::MAX);
        assert!(check_workgroup_size(huge, 1024).unwrap_err().contains("exceeds"));
        assert!(check_workgroup_size([64, 0, 1], 1024).is_err());
        assert!(check_workgroup_size([2048, 1, 1], 4096).is_err());
        assert!(check_workgroup_size([64, 16, 1], 1024).is_ok());
        let full = SubgroupRequest { required: Some(32), varying: false, full: true };
        assert!(full.check_workgroup(huge).is_err());
    }
}
