//! The `elf` target: bytes into the code object loader and everything done with a loaded
//! object: the image with relocations applied, the kernarg plan and its filling, and, for
//! ELF files, a shader module, a pipeline of each of its first kernels, the executable's
//! statistics (a disassembly of the uploaded code) and one dispatch.

use std::ffi::CString;

use ash::vk as ash_vk;
use compiler_bridge::elf::CodeObject;
use compiler_bridge::hsa::{self, DispatchValues, KernargPlan};

use crate::vk::{self, DispatchError};

/// Pipelines made per input (a code object may name many kernels).
const MAX_PIPELINES: usize = 2;

/// Loads `data` as the loader's users do; returns the names of its kernels.
pub fn load(data: &[u8]) -> Vec<CString> {
    let Ok(co) = CodeObject::parse(data) else { return Vec::new() };
    for base in [0x1_0000, 0x7fff_ffff_ff00] {
        std::hint::black_box(co.image_at(base));
    }
    std::hint::black_box((co.code_object_version(), co.target_name()));
    let mut names = Vec::new();
    for k in &co.kernels {
        let d = &k.descriptor;
        std::hint::black_box((d.user_sgpr_layout(), d.vgpr_alloc(), d.workitem_id_dims(), d.uses_dynamic_stack()));
        if let Ok(plan) = KernargPlan::new(k, &[256, 256]) {
            // What the ICD does at each dispatch.
            let mut kernarg = vec![0u8; plan.size as usize];
            let push = [0u8; vk::PUSH_BYTES as usize];
            let v = DispatchValues {
                counts: [3, 2, 1],
                workgroup_size: [64, 1, 1],
                buffers: &[0x1000, 0x2000],
                push: &push,
            };
            plan.fill(&v, &mut kernarg);
            std::hint::black_box((plan.block_count_offsets(), plan.needs_dispatch_packet()));
            std::hint::black_box(hsa::dispatch_packet([3, 2, 1], [64, 1, 1], 0, plan.lds_bytes, 0x1000, 0x2000));
        }
        names.extend(CString::new(k.name.clone()).ok());
    }
    names
}

/// The ICD's path for a code object given as a shader module.
pub fn through_icd(data: &[u8], kernels: &[CString]) {
    if !data.starts_with(b"\x7fELF") {
        return;
    }
    let lost = vk::with(|vk| {
        let Ok(module) = vk.shader_module(data) else { return false };
        let mut lost = false;
        for name in kernels.iter().take(MAX_PIPELINES) {
            if let Ok(p) =
                vk.pipeline(module, name, ash_vk::PipelineCache::null(), ash_vk::PipelineCreateFlags::empty())
            {
                vk.inspect(p);
                lost = vk.dispatch(p, [2, 1, 1]) == Err(DispatchError::Lost);
                // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
                unsafe { vk.device.destroy_pipeline(p, None) };
            }
            if lost {
                break;
            }
        }
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe { vk.device.destroy_shader_module(module, None) };
        lost
    });
    if lost {
        vk::reset();
    }
}
