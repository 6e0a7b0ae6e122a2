//! The shader side of Vulkan 1.2/1.3: the `tests/spirv/vk13` corpus through LLVM (wave32
//! and wave64), the LLVM orderings and syncscopes of the Vulkan memory model, workgroup
//! memory zeroing, the float controls modes in the kernel descriptor, and the named errors
//! for the modes that are not honoured.

mod common;

use std::path::{Path, PathBuf};

use common::{glsl_to_spirv, spirv_as};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::elf::CodeObject;
use compiler_bridge::{compile_with, lower, CodegenOptions, CompileError, ShaderInput, FLOAT_CONTROLS};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv/vk13")
}

/// Bindings 0..7 of set 0 (binding 1 a uniform buffer, for broadcast_dynamic_id) and 32
/// bytes of push constants.
fn layout(uniform1: bool) -> PipelineLayout {
    let bindings = (0..7)
        .map(|b| {
            let kind = if b == 1 && uniform1 { DescriptorKind::UniformBuffer } else { DescriptorKind::StorageBuffer };
            Binding { binding: b, kind, count: 1 }
        })
        .collect();
    PipelineLayout { sets: vec![SetLayout::new(bindings)], push_constant_size: 32 }
}

fn source(name: &str) -> (String, String) {
    let text = std::fs::read_to_string(corpus_dir().join(name)).unwrap();
    let env = text
        .lines()
        .next()
        .and_then(|l| l.trim_start_matches(['/', ';', ' ']).strip_prefix("target-env:"))
        .map_or("vulkan1.1", str::trim)
        .to_string();
    (text, env)
}

fn corpus_spirv(name: &str) -> Vec<u32> {
    let (text, env) = source(name);
    if name.ends_with(".spvasm") {
        spirv_as(&text, &env)
    } else {
        glsl_to_spirv(&corpus_dir().join(name), Some(&env))
    }
}

fn input<'a>(words: &'a [u32], layout: &'a PipelineLayout) -> ShaderInput<'a> {
    ShaderInput { spirv: words, entry_point: "main", layout, specialization: &[] }
}

fn ir(name: &str) -> String {
    let words = corpus_spirv(name);
    let layout = layout(false);
    lower(&input(&words, &layout)).unwrap_or_else(|e| panic!("{name}: {e}")).ir
}

#[test]
fn vk13_corpus_compiles_for_wave32_and_wave64() {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".comp") || n.ends_with(".spvasm"))
        .collect();
    names.sort();
    assert!(names.len() >= 12, "{names:?}");
    for name in &names {
        let words = corpus_spirv(name);
        let layout = layout(name.starts_with("broadcast_dynamic_id"));
        for wave64 in [false, true] {
            let shader = compile_with(&input(&words, &layout), &CodegenOptions { wave64 })
                .unwrap_or_else(|e| panic!("{name} (wave64 {wave64}): {e}"));
            assert!(!shader.elf.is_empty(), "{name}");
        }
    }
}

#[test]
fn vulkan_memory_model_maps_to_llvm_orderings() {
    let ir = ir("mm_message.comp");
    // atomicStore(..., gl_ScopeDevice, ..., Release | MakeAvailable): a device-scope release.
    assert!(ir.contains("syncscope(\"agent\") release"), "{ir}");
    // atomicLoad(..., gl_ScopeDevice, ..., Acquire | MakeVisible): a device-scope acquire.
    assert!(ir.contains("syncscope(\"agent\") acquire"), "{ir}");
    // controlBarrier(Workgroup, Workgroup, Buffer, AcquireRelease | MakeAvailable | MakeVisible).
    assert!(ir.contains("fence syncscope(\"workgroup\") release"), "{ir}");
    assert!(ir.contains("fence syncscope(\"workgroup\") acquire"), "{ir}");
    assert!(ir.contains("@llvm.amdgcn.s.barrier"), "{ir}");

    let ir = self::ir("mm_atomics.comp");
    // QueueFamily scope is the agent; Volatile semantics make a volatile atomic.
    assert!(ir.contains("atomicrmw add") && ir.contains("syncscope(\"agent\") monotonic"), "{ir}");
    assert!(ir.contains("atomicrmw umax") && ir.contains("syncscope(\"agent\") release"), "{ir}");
    assert!(ir.contains("atomicrmw volatile xchg") && ir.contains("syncscope(\"agent\") acq_rel"), "{ir}");
    assert!(ir.contains("syncscope(\"workgroup\") monotonic"), "{ir}");
    // The volatile buffer's plain accesses stay volatile.
    assert!(ir.contains("load volatile") || ir.contains("volatile"), "{ir}");
}

#[test]
fn null_initialised_workgroup_memory_is_zeroed_before_the_entry_function() {
    let ir = ir("zero_init.comp");
    let kernel = ir.split("define amdgpu_kernel").nth(1).unwrap();
    let kernel = kernel.split("\n}\n").next().unwrap();
    // Four initialised variables, each zeroed by every invocation's slice; `plain` is not.
    assert_eq!(kernel.matches("call void @llvm.memset.p3.i32").count(), 4, "{kernel}");
    let barrier = kernel.find("@llvm.amdgcn.s.barrier").unwrap();
    // The last call of the kernel is the entry function's.
    let entry_call = kernel.rfind("call void @").unwrap();
    assert!(barrier > kernel.rfind("@llvm.memset").unwrap(), "{kernel}");
    assert!(barrier < entry_call, "{kernel}");
}

#[test]
fn float_controls_set_the_kernel_descriptor_denorm_modes() {
    // COMPUTE_PGM_RSRC1: FLOAT_DENORM_MODE_32 [17:16], FLOAT_DENORM_MODE_16_64 [19:18]
    // (3: keep input and output denormals, 0: flush both); FLOAT_ROUND_MODE_* [15:12] 0 (RNE).
    let layout = layout(false);
    // denorm_mixed: the two fields independently (32-bit kept, 64-bit flushed).
    for (name, mode32, mode16_64) in [
        ("denorm_flush.spvasm", 0u32, 0u32),
        ("denorm_preserve.spvasm", 3, 3),
        ("denorm_mixed.spvasm", 3, 0),
        ("denorm_flush_ops.spvasm", 0, 0),
    ] {
        let words = corpus_spirv(name);
        let shader = compile_with(&input(&words, &layout), &CodegenOptions::default()).unwrap();
        let co = CodeObject::parse(&shader.elf).unwrap();
        let rsrc1 = co.kernels[0].descriptor.compute_pgm_rsrc1;
        assert_eq!(rsrc1 >> 16 & 3, mode32, "{name}: FLOAT_DENORM_MODE_32 of {rsrc1:#x}");
        assert_eq!(rsrc1 >> 18 & 3, mode16_64, "{name}: FLOAT_DENORM_MODE_16_64 of {rsrc1:#x}");
        assert_eq!(rsrc1 >> 12 & 0xf, 0, "{name}: FLOAT_ROUND_MODE of {rsrc1:#x}");
    }
    // Without a mode, RADV's default: f32 denormals flushed, f16/f64 kept (RADV 22.3 on
    // gfx1100 programs COMPUTE_PGM_RSRC1 FLOAT_MODE 0xc0 for such a shader).
    let shader = compile_with(&input(&corpus_spirv("localsize_id.comp"), &layout), &CodegenOptions::default()).unwrap();
    let rsrc1 = CodeObject::parse(&shader.elf).unwrap().kernels[0].descriptor.compute_pgm_rsrc1;
    assert_eq!(rsrc1 >> 12 & 0xff, 0xc0, "FLOAT_MODE of {rsrc1:#x}");
    // The reported properties say the same.
    assert_eq!(FLOAT_CONTROLS.denorm_flush_to_zero, [true; 3]);
    assert_eq!(FLOAT_CONTROLS.denorm_preserve, [true; 3]);
    assert_eq!(FLOAT_CONTROLS.rounding_mode_rtz, [false; 3]);
}

fn unsupported(text: &str) -> String {
    let words = spirv_as(text, "vulkan1.2");
    let layout = layout(false);
    match lower(&input(&words, &layout)) {
        Err(CompileError::Unsupported { what, .. }) => what,
        other => panic!("expected Unsupported, got {:?}", other.map(|l| l.ir.len())),
    }
}

#[test]
fn unhonoured_float_modes_are_named_errors() {
    let (text, _) = source("denorm_preserve.spvasm");
    let rtz = text.replace("RoundingModeRTE", "RoundingModeRTZ");
    assert!(unsupported(&rtz).contains("RoundingModeRTZ"));
    // f16 and f64 share one MODE field: different modes for them cannot be honoured.
    let (text, _) = source("denorm_flush.spvasm");
    let mixed = text
        .replace(
            "OpCapability DenormFlushToZero",
            "OpCapability DenormFlushToZero\nOpCapability DenormPreserve\nOpCapability Float16",
        )
        .replace(
            "OpExecutionMode %main DenormFlushToZero 32",
            "OpExecutionMode %main DenormFlushToZero 32\nOpExecutionMode %main DenormPreserve 16",
        );
    assert!(unsupported(&mixed).contains("16- and 64-bit"));
}
