//! Shader modules, pipeline layouts, pipeline caches and compute pipelines. A compute
//! pipeline is an AMDHSA kernel compiled by compiler-bridge (SPIR-V → LLVM 19), uploaded to
//! GPU memory, with the register values a dispatch needs taken from its kernel descriptor.

use std::sync::Arc;

use ash::vk;
use compiler_bridge::abi;
use compiler_bridge::elf::{CodeObject, UserSgpr};

use crate::descriptor::DescriptorSetLayout;
use crate::device::{dev, DeviceShared};
use crate::handle::{destroy, guard, object, slice, Object};

/// Bytes of `s_code_end` padding after a shader: the instruction prefetcher may read up
/// to 256 bytes past the end (seed 004, "shader padding requirements").
const CODE_PADDING: u64 = 256;

pub struct ShaderModule {
    words: Vec<u32>,
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
        let words = unsafe { std::slice::from_raw_parts(info.p_code, info.code_size / 4) }.to_vec();
        if let Err(e) = compiler_bridge::validate_module(&words) {
            tracing::warn!("vkCreateShaderModule: {e}");
            return vk::Result::ERROR_INVALID_SHADER_NV;
        }
        // SAFETY: out is valid per the specification.
        unsafe { *out = ShaderModule { words }.into_handle() };
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
        let mut sets = Vec::new();
        // SAFETY: valid per the specification.
        for &l in unsafe { slice(info.p_set_layouts, info.set_layout_count) } {
            // SAFETY: live layout handles (null is allowed for unused sets).
            let set = unsafe { DescriptorSetLayout::from_handle(l) }
                .map_or_else(|| abi::SetLayout::new(Vec::new()), |l| (*l.abi).clone());
            sets.push(set);
        }
        // SAFETY: valid per the specification.
        let push_constant_size = unsafe { slice(info.p_push_constant_ranges, info.push_constant_range_count) }
            .iter()
            .map(|r| r.offset + r.size)
            .max()
            .unwrap_or(0);
        // SAFETY: out is valid per the specification.
        unsafe { *out = PipelineLayout { abi: abi::PipelineLayout { sets, push_constant_size } }.into_handle() };
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

/// A pipeline cache that stores nothing: its data is a valid header only, which the
/// specification allows (serialised code objects come with a later issue).
pub struct PipelineCache;
object!(PipelineCache, vk::PipelineCache);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_pipeline_cache(
    _d: vk::Device,
    _info: *const vk::PipelineCacheCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::PipelineCache,
) -> vk::Result {
    // SAFETY: out is valid per the specification.
    unsafe { *out = PipelineCache.into_handle() };
    vk::Result::SUCCESS
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
    device: vk::Device,
    _c: vk::PipelineCache,
    size: *mut usize,
    data: *mut std::ffi::c_void,
) -> vk::Result {
    guard("vkGetPipelineCacheData", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let info = &dev(device).shared.info;
        // VkPipelineCacheHeaderVersionOne.
        let mut h = Vec::with_capacity(32);
        h.extend_from_slice(&32u32.to_le_bytes());
        h.extend_from_slice(&1u32.to_le_bytes());
        h.extend_from_slice(&info.vendor_id.to_le_bytes());
        h.extend_from_slice(&info.device_id.to_le_bytes());
        h.extend_from_slice(&crate::instance::cache_uuid());
        // SAFETY: size/data as the specification requires.
        unsafe {
            if data.is_null() {
                *size = h.len();
                return vk::Result::SUCCESS;
            }
            if *size < h.len() {
                *size = 0;
                return vk::Result::INCOMPLETE;
            }
            std::ptr::copy_nonoverlapping(h.as_ptr(), data as *mut u8, h.len());
            *size = h.len();
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn merge_pipeline_caches(
    _d: vk::Device,
    _dst: vk::PipelineCache,
    _n: u32,
    _src: *const vk::PipelineCache,
) -> vk::Result {
    vk::Result::SUCCESS
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
    /// User SGPR receiving the kernarg segment address.
    pub kernarg_sgpr: u32,
    pub layout: abi::PipelineLayout,
    pub kernarg: abi::KernargLayout,
    /// Scratch ring address and bytes per wave, when the kernel uses scratch.
    pub scratch: Option<(u64, u64)>,
    pub tmpring_waves: u32,
    dev: Arc<DeviceShared>,
}
object!(Pipeline, vk::Pipeline);

impl Drop for Pipeline {
    fn drop(&mut self) {
        self.dev.gpu.free(&self.bo);
    }
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

fn build(
    shared: &Arc<DeviceShared>,
    info: &vk::ComputePipelineCreateInfo<'_>,
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
    let input = compiler_bridge::ShaderInput {
        spirv: &module.words,
        entry_point: &entry,
        layout: &layout.abi,
        specialization: &spec,
    };
    let compiled = match compiler_bridge::compile(&input) {
        Ok(c) => c,
        Err(e @ compiler_bridge::CompileError::Unsupported { .. }) => {
            return fail(vk::Result::ERROR_FEATURE_NOT_PRESENT, e.to_string())
        }
        Err(e) => return fail(vk::Result::ERROR_UNKNOWN, e.to_string()),
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
    let bo = shared
        .gpu
        .alloc(co.image_size() + CODE_PADDING, 256)
        .map_err(|e| (vk::Result::ERROR_OUT_OF_DEVICE_MEMORY, e.to_string()))?;
    let image = co.image_at(bo.va());
    // SAFETY: the BO holds image_size + padding bytes; nothing else uses it yet.
    unsafe {
        std::ptr::copy_nonoverlapping(image.as_ptr(), bo.host_ptr(), image.len());
        // Pad with s_code_end, as the ISA asks.
        let pad = bo.host_ptr().add(image.len()) as *mut u32;
        for k in 0..(CODE_PADDING / 4) as usize {
            pad.add(k).write_unaligned(0xbf9f_0000);
        }
    }
    let pgm = bo.va() + kernel.entry_offset();
    if pgm % 256 != 0 {
        shared.gpu.free(&bo);
        return fail(vk::Result::ERROR_UNKNOWN, format!("kernel entry {pgm:#x} is not 256-byte aligned"));
    }
    // The descriptor leaves LDS_SIZE to the driver (AMDGPUUsage: "CP uses the packet value").
    let lds = kd.group_segment_fixed_size.div_ceil(512);
    let rsrc2 = (kd.compute_pgm_rsrc2 & !(0x1ff << 15)) | (lds & 0x1ff) << 15;
    let wave32 = kd.wave32();
    let lanes = if wave32 { 32 } else { 64 };
    let scratch = if kd.private_segment_fixed_size > 0 || kd.uses_dynamic_stack() {
        if kd.uses_dynamic_stack() {
            shared.gpu.free(&bo);
            return fail(
                vk::Result::ERROR_FEATURE_NOT_PRESENT,
                "kernels with a dynamic stack are not supported".into(),
            );
        }
        let per_wave = kd.private_segment_fixed_size as u64 * lanes;
        Some(shared.scratch_ring(per_wave).map_err(|e| (e, "no memory for the scratch ring".into()))?)
    } else {
        None
    };
    Ok(Pipeline {
        bo,
        pgm,
        rsrc1: kd.compute_pgm_rsrc1,
        rsrc2,
        rsrc3: kd.compute_pgm_rsrc3,
        wave32,
        workgroup_size: compiled.workgroup_size,
        kernarg_sgpr,
        kernarg: layout.abi.kernarg(),
        layout: layout.abi.clone(),
        scratch,
        tmpring_waves: shared.info.scratch_wave_slots,
        dev: shared.clone(),
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_compute_pipelines(
    device: vk::Device,
    _cache: vk::PipelineCache,
    n: u32,
    infos: *const vk::ComputePipelineCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateComputePipelines", vk::Result::ERROR_UNKNOWN, || {
        let shared = dev(device).shared.clone();
        let mut result = vk::Result::SUCCESS;
        // SAFETY: valid per the specification.
        for (i, info) in unsafe { slice(infos, n) }.iter().enumerate() {
            let handle = match build(&shared, info) {
                Ok(p) => p.into_handle(),
                Err((code, what)) => {
                    tracing::warn!("vkCreateComputePipelines: pipeline {i}: {what}");
                    result = code;
                    vk::Pipeline::null()
                }
            };
            // SAFETY: out has room for n handles.
            unsafe { *out.add(i) = handle };
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
