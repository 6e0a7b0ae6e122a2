//! Subgroup operations: every shader of the `subgroup` corpus family lowered and compiled
//! for wave32 and wave64 (LLVM must accept the IR, the code object must be a kernel of that
//! wave size), with the lane instructions each operation lowers to checked in the
//! disassembly. The results are checked end to end by `softnavi-spirv` (tests/spirv).

mod common;

use std::path::{Path, PathBuf};

use common::{glsl_to_spirv, spirv_as};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::elf::CodeObject;
use compiler_bridge::{compile, compile_with, llvm, lower, CodegenOptions, CompileError, ShaderInput};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv/subgroup")
}

/// Storage buffers at bindings 0..8 (more than any shader of the family uses).
fn layout() -> PipelineLayout {
    let bindings = (0..8).map(|b| Binding { binding: b, kind: DescriptorKind::StorageBuffer, count: 1 }).collect();
    PipelineLayout { sets: vec![SetLayout::new(bindings)], push_constant_size: 16 }
}

/// The SPIR-V of corpus shader `name` (`.comp` or `.spvasm`), with its target environment.
fn corpus_words(name: &str) -> Vec<u32> {
    for ext in ["comp", "spvasm"] {
        let path = corpus_dir().join(format!("{name}.{ext}"));
        let Ok(text) = std::fs::read_to_string(&path) else { continue };
        let env = text
            .lines()
            .next()
            .unwrap_or("")
            .trim_start_matches(['/', ';', ' '])
            .strip_prefix("target-env:")
            .map_or("vulkan1.1", str::trim)
            .to_string();
        return if ext == "comp" { glsl_to_spirv(&path, Some(&env)) } else { spirv_as(&text, &env) };
    }
    panic!("no corpus shader {name}");
}

/// Compiles `name` for both wave sizes; returns the two disassemblies (wave32, wave64).
fn compile_both(name: &str) -> [String; 2] {
    let words = corpus_words(name);
    let layout = layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    [false, true].map(|wave64| {
        let shader = compile_with(&input, &CodegenOptions { wave64 })
            .unwrap_or_else(|e| panic!("{name} (wave64 {wave64}): {e}"));
        let co = CodeObject::parse(&shader.elf).unwrap();
        let k = co.kernel("main").expect("kernel main");
        assert_eq!(k.metadata.wavefront_size, if wave64 { 64 } else { 32 }, "{name}");
        assert_eq!(k.descriptor.wave32(), !wave64, "{name}");
        llvm::disassemble(&shader.elf).unwrap()
    })
}

fn corpus_names() -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .filter_map(|e| {
            let p = e.ok()?.path();
            matches!(p.extension()?.to_str()?, "comp" | "spvasm").then(|| p.file_stem()?.to_str().map(String::from))?
        })
        .collect();
    names.sort();
    names
}

#[test]
fn every_subgroup_shader_compiles_for_wave32_and_wave64() {
    let names = corpus_names();
    assert!(names.len() >= 20, "{names:?}");
    for name in names {
        compile_both(&name);
    }
}

fn assert_has(disasm: &str, what: &[&str]) {
    for w in what {
        assert!(disasm.contains(w), "no {w} in:\n{disasm}");
    }
}

fn lower_corpus(name: &str, wave64: bool) -> String {
    let words = corpus_words(name);
    let layout = layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    compiler_bridge::lower_with(&input, &CodegenOptions { wave64 }).unwrap().ir
}

/// What each category lowers to: reductions are a scalar loop over the active lanes
/// (`s_ctz` of the EXEC ballot, `v_readlane`), shuffles `ds_bpermute`, votes and ballots
/// compares of ballots; wave64 uses 64-bit masks throughout.
#[test]
fn lane_instructions_per_category() {
    let [w32, w64] = compile_both("arith_int");
    assert_has(&w32, &["s_ctz_i32_b32", "v_readlane_b32", "v_min_i32", "v_max_i32", "v_mul_lo_u32"]);
    assert_has(&w64, &["s_ctz_i32_b64", "v_readlane_b32", "s_and_b64"]);
    for d in compile_both("shuffle").iter().chain(&compile_both("quad")).chain(&compile_both("shuffle_relative")) {
        assert_has(d, &["ds_bpermute_b32"]);
    }
    let [b32, b64] = compile_both("ballot");
    assert_has(&b32, &["v_bcnt_u32_b32", "v_readfirstlane_b32"]);
    assert_has(&b64, &["s_bcnt1_i32_b64", "v_mbcnt_hi_u32_b32", "v_readfirstlane_b32"]);

    let ir = lower_corpus("ballot", true);
    assert!(ir.contains("@llvm.amdgcn.ballot.i64(i1 true)"), "{ir}");
    assert!(ir.contains("bitcast i64") && ir.contains("to <2 x i32>"), "{ir}");
    let ir = lower_corpus("ballot", false);
    assert!(ir.contains("@llvm.amdgcn.ballot.i32(i1 true)") && !ir.contains("ballot.i64"), "{ir}");
    // Each helper is defined once per (operation, group operation, wave size, type).
    let ir = lower_corpus("clustered", true);
    for size in [2, 4, 8, 16, 32] {
        assert_eq!(
            ir.matches(&format!("define internal i32 @subgroup.iadd.cluster{size}.w64.i32(")).count(),
            1,
            "{ir}"
        );
    }
    // A cluster of 1 or of the whole subgroup is a reduction.
    assert!(ir.contains("@subgroup.iadd.cluster1.w64.i32(") && !ir.contains("cluster64"), "{ir}");
    let ir = lower_corpus("clustered64", true);
    assert!(ir.contains("@subgroup.iadd.reduce.w64.i32(") && ir.contains("@subgroup.umax.cluster32.w64.i32("), "{ir}");
}

/// AllEqual compares floats as floats: NaN equals nothing, -0.0 equals 0.0.
#[test]
fn all_equal_compares_floats_ordered() {
    let ir = lower_corpus("vote", false);
    assert!(ir.contains("fcmp oeq float"), "{ir}");
    assert!(ir.contains("icmp eq <2 x i32>") && ir.contains("@llvm.vector.reduce.and.v2i1"), "{ir}");
}

/// The mask built-ins: exactly the subgroup's bits, the upper words zero (wave32) or the
/// second word holding lanes 32..63 (wave64).
#[test]
fn mask_builtins() {
    for (wave64, w) in [(false, "i32"), (true, "i64")] {
        let ir = lower_corpus("masks", wave64);
        assert!(ir.contains(&format!("shl {w} 1, ")) && ir.contains(&format!("shl {w} 2, ")), "{ir}");
        assert!(ir.contains(&format!("xor {w} ")), "{ir}");
    }
}

/// Logical and bitwise forms of one operation on the same carrier type get their own
/// helpers (their identities differ).
#[test]
fn logical_and_bitwise_helpers_are_distinct() {
    let dir = common::TempDir::new("subgroup_logical");
    let path = dir.path("s.comp");
    std::fs::write(
        &path,
        "#version 450\n#extension GL_KHR_shader_subgroup_arithmetic : require\nlayout(local_size_x = 64) in;\n\
         layout(set = 0, binding = 0, std430) buffer B { uint d[]; };\n\
         void main() { uint x = d[gl_LocalInvocationIndex];\n\
         d[gl_LocalInvocationIndex] = subgroupAnd(x) + uint(subgroupAnd(x != 0u)); }\n",
    )
    .unwrap();
    let words = glsl_to_spirv(&path, Some("vulkan1.1"));
    let layout = layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    for wave64 in [false, true] {
        let shader = compile_with(&input, &CodegenOptions { wave64 }).unwrap();
        let w = if wave64 { 64 } else { 32 };
        assert!(shader.llvm_ir.contains(&format!("@subgroup.and.reduce.w{w}.i32(i32 %x)")), "{}", shader.llvm_ir);
        assert!(
            shader.llvm_ir.contains(&format!("@subgroup.logicaland.reduce.w{w}.i32(i32 %x)")),
            "{}",
            shader.llvm_ir
        );
    }
}

const HEADER: &str = r#"
               OpCapability Shader
               OpCapability GroupNonUniformArithmetic
               OpCapability GroupNonUniformClustered
               OpCapability GroupNonUniformBallot
               OpCapability GroupNonUniformQuad
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 64 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %v4uint = OpTypeVector %uint 4
       %bool = OpTypeBool
         %c0 = OpConstant %uint 0
         %c3 = OpConstant %uint 3
         %c5 = OpConstant %uint 5
  %workgroup = OpConstant %uint 2
   %subgroup = OpConstant %uint 3
       %ball = OpConstantComposite %v4uint %c3 %c3 %c3 %c3
       %main = OpFunction %void None %fn
      %entry = OpLabel
"#;

/// Forms the lowering refuses, each with a named error (never a panic or a silent skip);
/// for `Invalid`, `want` is the end of the message.
#[test]
fn refused_forms_are_named_errors() {
    let layout = PipelineLayout { sets: vec![], push_constant_size: 0 };
    let cases = [
        (
            "%r = OpGroupNonUniformIAdd %uint %workgroup Reduce %c3",
            CompileError::Unsupported { what: "OpGroupNonUniformIAdd with execution scope 2".into() },
        ),
        (
            "%r = OpGroupNonUniformBallotBitCount %uint %subgroup ClusteredReduce %ball",
            CompileError::Unsupported {
                what: "OpGroupNonUniformBallotBitCount with group operation ClusteredReduce".into(),
            },
        ),
        (
            "%r = OpGroupNonUniformIAdd %uint %subgroup ClusteredReduce %c3 %c5",
            CompileError::Invalid("cluster size 5 is not a power of two".into()),
        ),
        (
            "%r = OpGroupNonUniformQuadSwap %uint %subgroup %c3 %c5",
            CompileError::Invalid("quad swap direction 5".into()),
        ),
        (
            "%r = OpGroupNonUniformFAdd %uint %subgroup Reduce %c3",
            CompileError::Invalid("operand type does not match the operation".into()),
        ),
    ];
    for (body, want) in cases {
        let text = format!("{HEADER}{body}\n               OpReturn\n               OpFunctionEnd\n");
        let words = spirv_as(&text, "spv1.3");
        let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
        for got in [lower(&input).map(|_| ()), compile(&input).map(|_| ())] {
            match (got.unwrap_err(), &want) {
                // Invalid messages start with the instruction and its (renumbered) result id.
                (CompileError::Invalid(m), CompileError::Invalid(w)) => assert!(m.ends_with(w.as_str()), "{body}: {m}"),
                (e, w) => assert_eq!(&e, w, "{body}"),
            }
        }
    }
}
