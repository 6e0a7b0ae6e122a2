//! VK_KHR_pipeline_executable_properties: a compute pipeline has one executable, its
//! kernel. Statistics come from the kernel descriptor and the code object metadata; the
//! internal representations are softnavi's own disassembly of the uploaded code (gpu::isa,
//! the decoder the GPU model executes, in llvm-objdump syntax) and the LLVM IR the lowering
//! produced.

use std::ffi::c_char;

use ash::vk;
use gpu::isa::program::Program;

use crate::handle::{guard, Object};
use crate::pipeline::Pipeline;

fn copy_str(dst: &mut [c_char], s: &str) {
    let n = s.len().min(dst.len() - 1);
    for (d, b) in dst.iter_mut().zip(s.bytes().take(n).chain(std::iter::once(0))) {
        *d = b as c_char;
    }
}

/// The pipeline and executable index 0 a query names, or why not.
///
/// # Safety
/// `pipeline` must be a live pipeline handle or null.
unsafe fn executable<'a>(call: &str, pipeline: vk::Pipeline, index: u32) -> Option<&'a Pipeline> {
    // SAFETY: by the caller's contract.
    let p = unsafe { Pipeline::from_handle(pipeline) }.map(|p| &*p);
    if p.is_none() || index != 0 {
        tracing::warn!(
            "{call}: executable {index} of pipeline {pipeline:?} does not exist (a compute pipeline has one)"
        );
        return None;
    }
    p
}

/// The kernel's instructions, decoded from the pipeline's GPU memory as the GPU model
/// decodes them: one line each, up to `s_code_end` or the next kernel of the code object.
/// Returns the listing, the instruction count and the code size in bytes (without
/// `s_code_end`).
pub fn disassemble(p: &Pipeline) -> (String, usize, u64) {
    let e = &p.executable;
    let words: Vec<u32> = {
        let bytes = p.code_bytes();
        bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
    };
    let mut text = format!("; {} (wave{}), softnavi gfx1100 disassembly\n{}:\n", e.kernel, e.wave_size, e.kernel);
    if words.is_empty() {
        return (text, 0, 0);
    }
    let program = Program::decode(p.pgm, &words, e.wave_size == 64);
    let count = program.insts().len();
    let mut code_bytes = program.addr(count).saturating_sub(p.pgm);
    let mut instructions = count;
    for idx in 0..count {
        let line = program.describe(idx);
        if line.trim_start().starts_with("s_code_end") {
            code_bytes = program.addr(idx).saturating_sub(p.pgm);
            instructions = idx;
            break;
        }
        text.push('\t');
        text.push_str(&line);
        text.push('\n');
    }
    (text, instructions, code_bytes)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_pipeline_executable_properties(
    _d: vk::Device,
    info: *const vk::PipelineInfoKHR<'_>,
    count: *mut u32,
    out: *mut vk::PipelineExecutablePropertiesKHR<'_>,
) -> vk::Result {
    guard("vkGetPipelineExecutablePropertiesKHR", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let Some(p) = (unsafe { executable("vkGetPipelineExecutablePropertiesKHR", (*info).pipeline, 0) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        // SAFETY: count/out as the specification requires; only the output members are written.
        unsafe {
            if out.is_null() {
                *count = 1;
                return vk::Result::SUCCESS;
            }
            if *count == 0 {
                return vk::Result::INCOMPLETE;
            }
            let o = &mut *out;
            o.stages = vk::ShaderStageFlags::COMPUTE;
            copy_str(&mut o.name, &format!("Compute shader {}", p.executable.kernel));
            copy_str(
                &mut o.description,
                &format!(
                    "AMDHSA gfx1100 kernel `{}`, wave{}, from {}",
                    p.executable.kernel,
                    p.executable.wave_size,
                    if p.executable.spirv { "SPIR-V compiled by LLVM 19" } else { "an application's code object" }
                ),
            );
            o.subgroup_size = p.executable.wave_size;
            *count = 1;
        }
        vk::Result::SUCCESS
    })
}

/// (name, description, value) of each statistic.
fn statistics(p: &Pipeline) -> Vec<(&'static str, &'static str, u64)> {
    let e = &p.executable;
    let (_, instructions, code_bytes) = disassemble(p);
    vec![
        ("Wave size", "Lanes per wave (the subgroup size)", e.wave_size as u64),
        (
            "VGPRs allocated",
            "Vector registers allocated per lane (COMPUTE_PGM_RSRC1 granules)",
            e.vgprs_allocated as u64,
        ),
        ("VGPRs", "Vector registers used per lane (code object metadata .vgpr_count)", e.vgprs as u64),
        ("SGPRs", "Scalar registers used per wave (code object metadata .sgpr_count)", e.sgprs as u64),
        ("LDS bytes", "Local data share per workgroup, static and dynamic (group segment)", p.lds_bytes as u64),
        ("Scratch bytes per lane", "Private segment bytes per work-item", p.private_bytes as u64),
        ("Code size", "Bytes of machine code from the entry point to s_code_end or the next kernel", code_bytes),
        (
            "Instructions",
            "Machine instructions from the entry point to s_code_end or the next kernel",
            instructions as u64,
        ),
        (
            "From pipeline cache",
            "1 when the code object came from the application's pipeline cache (no compilation)",
            e.from_cache as u64,
        ),
        (
            "From compiler disk cache",
            "1 when the compiler took the code object from its disk cache (SOFTNAVI_CACHE_DIR)",
            e.compiler_cache as u64,
        ),
    ]
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_pipeline_executable_statistics(
    _d: vk::Device,
    info: *const vk::PipelineExecutableInfoKHR<'_>,
    count: *mut u32,
    out: *mut vk::PipelineExecutableStatisticKHR<'_>,
) -> vk::Result {
    guard("vkGetPipelineExecutableStatisticsKHR", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let call = "vkGetPipelineExecutableStatisticsKHR";
        // SAFETY: valid per the specification.
        let Some(p) = (unsafe { executable(call, (*info).pipeline, (*info).executable_index) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        let stats = if p.executable.capture_statistics {
            statistics(p)
        } else {
            tracing::warn!("{call}: the pipeline was not created with VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR");
            Vec::new()
        };
        // SAFETY: count/out as the specification requires; only the output members are written.
        unsafe {
            if out.is_null() {
                *count = stats.len() as u32;
                return vk::Result::SUCCESS;
            }
            let n = (*count as usize).min(stats.len());
            for (k, (name, description, value)) in stats.iter().take(n).enumerate() {
                let o = &mut *out.add(k);
                copy_str(&mut o.name, name);
                copy_str(&mut o.description, description);
                o.format = vk::PipelineExecutableStatisticFormatKHR::UINT64;
                o.value = vk::PipelineExecutableStatisticValueKHR { u64: *value };
            }
            *count = n as u32;
            if n < stats.len() {
                vk::Result::INCOMPLETE
            } else {
                vk::Result::SUCCESS
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_pipeline_executable_internal_representations(
    _d: vk::Device,
    info: *const vk::PipelineExecutableInfoKHR<'_>,
    count: *mut u32,
    out: *mut vk::PipelineExecutableInternalRepresentationKHR<'_>,
) -> vk::Result {
    guard("vkGetPipelineExecutableInternalRepresentationsKHR", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let call = "vkGetPipelineExecutableInternalRepresentationsKHR";
        // SAFETY: valid per the specification.
        let Some(p) = (unsafe { executable(call, (*info).pipeline, (*info).executable_index) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        let mut reps: Vec<(&str, &str, String)> = Vec::new();
        if p.executable.capture_internal {
            reps.push((
                "GFX11 disassembly",
                "The kernel's machine code, as softnavi's decoder reads it",
                disassemble(p).0,
            ));
            if let Some(ir) = &p.executable.llvm_ir {
                reps.push(("LLVM IR", "What the SPIR-V lowering gave LLVM 19 to compile", ir.clone()));
            }
        } else {
            tracing::warn!(
                "{call}: the pipeline was not created with VK_PIPELINE_CREATE_CAPTURE_INTERNAL_REPRESENTATIONS_BIT_KHR"
            );
        }
        // SAFETY: count/out and each pData/dataSize as the specification requires; only the
        // output members are written.
        unsafe {
            if out.is_null() {
                *count = reps.len() as u32;
                return vk::Result::SUCCESS;
            }
            let n = (*count as usize).min(reps.len());
            let mut result = if n < reps.len() { vk::Result::INCOMPLETE } else { vk::Result::SUCCESS };
            for (k, (name, description, text)) in reps.iter().take(n).enumerate() {
                let o = &mut *out.add(k);
                copy_str(&mut o.name, name);
                copy_str(&mut o.description, description);
                o.is_text = vk::TRUE;
                let full = text.len() + 1;
                if o.p_data.is_null() {
                    o.data_size = full;
                    continue;
                }
                // The text, NUL-terminated; truncated (still NUL-terminated) if it does not fit.
                let room = o.data_size;
                if room == 0 {
                    result = vk::Result::INCOMPLETE;
                    continue;
                }
                let copy = text.len().min(room - 1);
                std::ptr::copy_nonoverlapping(text.as_ptr(), o.p_data as *mut u8, copy);
                (o.p_data as *mut u8).add(copy).write(0);
                o.data_size = copy + 1;
                if copy + 1 < full {
                    result = vk::Result::INCOMPLETE;
                }
            }
            *count = n as u32;
            result
        }
    })
}
