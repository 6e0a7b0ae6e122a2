//! Atomics, integer dot products and arithmetic (`spirv/atomic.rs`, `spirv/arith.rs`): the
//! `tests/spirv/arith` corpus lowered and compiled by LLVM for both wave sizes, the atomic
//! instructions LLVM selects for each form, and the scopes and orderings in the IR. (The
//! corpus runner checks the results on the GPU model against CPU references.)

mod common;

use std::path::{Path, PathBuf};

use common::{glsl_to_spirv, words};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::{compile_with, llvm, lower, CodegenOptions, ShaderInput};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv/arith")
}

/// Four storage buffers in set 0: as many as any arith shader uses.
fn layout() -> PipelineLayout {
    let bindings = (0..4).map(|binding| Binding { binding, kind: DescriptorKind::StorageBuffer, count: 1 }).collect();
    PipelineLayout { sets: vec![SetLayout::new(bindings)], push_constant_size: 0 }
}

/// A corpus shader as SPIR-V, built for the target environment its first line names.
fn corpus_spirv(name: &str) -> Vec<u32> {
    let path = corpus_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let env = text.lines().next().and_then(|l| l.split("target-env:").nth(1)).map(str::trim);
    if name.ends_with(".comp") {
        return glsl_to_spirv(&path, Some(env.unwrap_or("vulkan1.1")));
    }
    let env = env.unwrap_or("vulkan1.1");
    let dir = std::env::temp_dir().join(format!("softnavi-arith-{}-{name}", std::process::id()));
    let out = dir.with_extension("spv");
    common::run(std::process::Command::new("spirv-as").args(["--target-env", env]).arg(&path).arg("-o").arg(&out));
    let w = words(&std::fs::read(&out).unwrap());
    let _ = std::fs::remove_file(&out);
    w
}

fn disassemble(name: &str, wave64: bool) -> String {
    let spirv = corpus_spirv(name);
    let layout = layout();
    let input = ShaderInput { spirv: &spirv, entry_point: "main", layout: &layout, specialization: &[] };
    let shader =
        compile_with(&input, &CodegenOptions { wave64 }).unwrap_or_else(|e| panic!("{name} (wave64 {wave64}): {e}"));
    llvm::disassemble(&shader.elf).unwrap()
}

fn lowered_ir(name: &str) -> String {
    let spirv = corpus_spirv(name);
    let layout = layout();
    let input = ShaderInput { spirv: &spirv, entry_point: "main", layout: &layout, specialization: &[] };
    lower(&input).unwrap_or_else(|e| panic!("{name}: {e}")).ir
}

#[test]
fn every_arith_corpus_shader_compiles_for_both_wave_sizes() {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|n| n.ends_with(".comp") || n.ends_with(".spvasm"))
        .collect();
    names.sort();
    assert!(names.len() >= 25, "only {} arith shaders", names.len());
    for name in &names {
        for wave64 in [false, true] {
            let d = disassemble(name, wave64);
            assert!(d.contains("s_endpgm"), "{name}: no s_endpgm in\n{d}");
        }
    }
}

#[test]
fn atomics_select_the_hardware_atomic_instructions() {
    let cases: &[(&str, &[&str])] = &[
        ("atomic_counter.comp", &["buffer_atomic_add_u32"]),
        ("atomic_minmax.comp", &["buffer_atomic_min_i32", "buffer_atomic_max_i32", "buffer_atomic_min_u32"]),
        ("atomic_bitwise.comp", &["buffer_atomic_and_b32", "buffer_atomic_or_b32", "buffer_atomic_xor_b32"]),
        ("atomic_exchange.comp", &["buffer_atomic_swap_b32"]),
        ("atomic_cas.comp", &["buffer_atomic_cmpswap_b32"]),
        ("atomic_incdec.spvasm", &["buffer_atomic_add_u32", "buffer_atomic_sub_u32"]),
        (
            "atomic_shared.comp",
            &["ds_add_rtn_u32", "ds_min_i32", "ds_max_i32", "ds_or_b32", "ds_xor_b32", "ds_storexchg_rtn_b32"],
        ),
        (
            "atomic_int64.comp",
            &[
                "buffer_atomic_add_u64",
                "buffer_atomic_min_i64",
                "buffer_atomic_max_u64",
                "buffer_atomic_and_b64",
                "buffer_atomic_swap_b64",
                "buffer_atomic_cmpswap_b64",
            ],
        ),
        ("atomic_int64_shared.comp", &["ds_add_u64", "ds_min_i64", "ds_max_u64", "ds_xor_b64"]),
        ("atomic_float_shared.comp", &["ds_add_f32"]),
        // No 64-bit float add on gfx11 and no float atomics on buffers without knowing the
        // memory is not fine-grained: compare-and-swap loops.
        ("atomic_float64.comp", &["buffer_atomic_cmpswap_b64", "ds_cmpstore_rtn_b64", "buffer_atomic_swap_b64"]),
        ("atomic_float.comp", &["buffer_atomic_cmpswap_b32"]),
        ("atomic_float_minmax.comp", &["buffer_atomic_cmpswap_b32", "ds_min_f32", "ds_max_f32"]),
    ];
    for (name, want) in cases {
        let d = disassemble(name, false);
        for w in *want {
            assert!(d.contains(w), "{name}: no {w} in\n{d}");
        }
    }
}

#[test]
fn atomic_scopes_and_semantics_become_llvm_syncscopes_and_orderings() {
    let ir = lowered_ir("atomic_scoped.comp");
    for want in [
        "store atomic i32 %t", // workgroup release store of 0
        "syncscope(\"workgroup\") release, align 4",
        "atomicrmw add ptr addrspace(3) @w",
        "syncscope(\"workgroup\") acq_rel, align 4",
        "syncscope(\"wavefront\") monotonic, align 4",
        "syncscope(\"agent\") acq_rel, align 4",
        "syncscope(\"workgroup\") acquire, align 4",
        "syncscope(\"agent\") acquire, align 4",
        "syncscope(\"agent\") release, align 4",
    ] {
        assert!(ir.contains(want), "no `{want}` in\n{ir}");
    }
    let ir = lowered_ir("atomic_incdec.spvasm");
    for want in [
        "atomicrmw add ptr addrspace(7)",
        "i32 1 syncscope(\"agent\") monotonic",
        "atomicrmw sub ptr addrspace(7)",
        "i32 1 syncscope(\"agent\") acq_rel",
        "syncscope(\"singlethread\") monotonic",
    ] {
        assert!(ir.contains(want), "no `{want}` in\n{ir}");
    }
    let ir = lowered_ir("atomic_cas.comp");
    assert!(ir.contains("cmpxchg ptr addrspace(7)"), "{ir}");
}

#[test]
fn saturating_dot_products_sum_exactly_before_saturating() {
    // 32-bit components: products and their sum in 128 bits, clamped to the result type.
    let ir = lowered_ir("dot_vector.spvasm");
    for want in ["sext <4 x i32>", "zext <4 x i32>", "llvm.vector.reduce.add.v4i128", "llvm.smin.i128"] {
        assert!(ir.contains(want), "no `{want}` in\n{ir}");
    }
    // Packed 4x8: the wrapping forms in 32 bits, the saturating ones in 64.
    let ir = lowered_ir("dot_packed.spvasm");
    for want in ["bitcast i32", "to <4 x i8>", "llvm.vector.reduce.add.v4i32", "llvm.smax.i64"] {
        assert!(ir.contains(want), "no `{want}` in\n{ir}");
    }
}
