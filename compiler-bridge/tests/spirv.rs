//! SPIR-V → code object tests: GLSL compute shaders compiled with glslangValidator, lowered,
//! compiled by LLVM 19, loaded, and checked through the disassembly.

mod common;

use std::path::{Path, PathBuf};

use common::{glsl_to_spirv, glsl_to_spirv_with, spirv_as, Rng};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::elf::CodeObject;
use compiler_bridge::{
    compile, compile_with, llvm, lower, validate_module, CodegenOptions, CompileError, CompiledShader, ShaderInput,
    SpecConstant,
};

fn examples_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/shaders")
}

fn shaders_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders")
}

fn storage_set(bindings: &[u32]) -> SetLayout {
    SetLayout::new(
        bindings.iter().map(|&b| Binding { binding: b, kind: DescriptorKind::StorageBuffer, count: 1 }).collect(),
    )
}

fn set(bindings: &[(u32, DescriptorKind, u32)]) -> SetLayout {
    SetLayout::new(bindings.iter().map(|&(binding, kind, count)| Binding { binding, kind, count }).collect())
}

/// Every SPIR-V flavour glslang produces: 1.0 (Uniform + BufferBlock) and the StorageBuffer
/// storage class of 1.3+ (whose 1.4+ entry points list every global).
const TARGET_ENVS: [Option<&str>; 4] = [None, Some("vulkan1.1"), Some("vulkan1.2"), Some("vulkan1.3")];

struct Built {
    shader: CompiledShader,
    co: CodeObject,
    disasm: String,
}

fn build(words: &[u32], layout: &PipelineLayout, spec: &[SpecConstant]) -> Built {
    let input = ShaderInput { spirv: words, entry_point: "main", layout, specialization: spec };
    let shader = compile(&input).unwrap_or_else(|e| panic!("compile failed: {e}"));
    let co = CodeObject::parse(&shader.elf).unwrap();
    let disasm = llvm::disassemble(&shader.elf).unwrap();
    Built { shader, co, disasm }
}

/// The checks every compiled SPIR-V shader must pass.
fn check_kernel(b: &Built, layout: &PipelineLayout, size: [u32; 3]) {
    assert_eq!(b.shader.kernel_name, "main");
    assert_eq!(b.shader.workgroup_size, size);
    let k = b.co.kernel("main").expect("kernel main");
    assert_eq!(k.symbol, "main.kd");
    assert!(k.descriptor.wave32());
    assert_eq!(k.metadata.wavefront_size, 32);
    assert_eq!(k.metadata.kernarg_segment_size, layout.kernarg().size);
    assert_eq!(k.descriptor.kernarg_size, layout.kernarg().size);
    assert_eq!(k.metadata.reqd_workgroup_size, Some(size));
    assert_eq!(k.metadata.max_flat_workgroup_size, size.iter().product::<u32>());
    // The ABI's only user SGPR is the kernarg pointer.
    let sgprs: Vec<_> = k.descriptor.user_sgpr_layout().into_iter().map(|(s, _, _)| s).collect();
    assert_eq!(sgprs, [compiler_bridge::elf::UserSgpr::KernargSegmentPtr], "{}", b.shader.llvm_ir);
}

fn assert_has(disasm: &str, needles: &[&str]) {
    for n in needles {
        assert!(disasm.contains(n), "expected `{n}` in:\n{disasm}");
    }
}

#[test]
fn saxpy() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 8 };
    for env in TARGET_ENVS {
        let words = glsl_to_spirv(&examples_dir().join("saxpy.comp"), env);
        let b = build(&words, &layout, &[]);
        check_kernel(&b, &layout, [64, 1, 1]);
        assert_has(&b.disasm, &["s_load_b256", "buffer_load_b32", "buffer_store_b32", "offen", "s_endpgm"]);
        assert_eq!(b.co.kernel("main").unwrap().descriptor.group_segment_fixed_size, 0);
    }
}

#[test]
fn reduce() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 4 };
    for env in TARGET_ENVS {
        let words = glsl_to_spirv(&examples_dir().join("reduce.comp"), env);
        let b = build(&words, &layout, &[]);
        check_kernel(&b, &layout, [256, 1, 1]);
        assert_eq!(b.co.kernel("main").unwrap().descriptor.group_segment_fixed_size, 1024);
        assert_has(&b.disasm, &["buffer_load_b32", "buffer_store_b32", "ds_store_b32", "s_barrier"]);
        assert!(b.shader.llvm_ir.contains("fence syncscope(\"workgroup\") release"));
    }
}

#[test]
fn wave64_option() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 8 };
    let words = glsl_to_spirv(&examples_dir().join("saxpy.comp"), None);
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    let shader = compile_with(&input, &CodegenOptions { wave64: true }).unwrap();
    let co = CodeObject::parse(&shader.elf).unwrap();
    let k = co.kernel("main").unwrap();
    assert!(!k.descriptor.wave32());
    assert_eq!(k.metadata.wavefront_size, 64);
}

/// Compiles `tests/shaders/NAME` for every target environment and runs the common checks.
fn build_test_shader(name: &str, layout: &PipelineLayout, spec: &[SpecConstant], size: [u32; 3]) -> Vec<Built> {
    TARGET_ENVS
        .iter()
        .map(|env| {
            let words = glsl_to_spirv(&shaders_dir().join(name), *env);
            let b = build(&words, layout, spec);
            check_kernel(&b, layout, size);
            b
        })
        .collect()
}

#[test]
fn control_flow() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 12 };
    for b in build_test_shader("control_flow.comp", &layout, &[], [32, 1, 1]) {
        assert_has(
            &b.disasm,
            &["buffer_load_b32", "buffer_store_b32", "v_cvt_f32_i32", "v_cvt_f32_u32", "v_cvt_i32_f32", "s_cbranch"],
        );
        // Division by a possibly-zero divisor is guarded, not UB.
        assert!(b.shader.llvm_ir.contains("select i1"));
    }
}

#[test]
fn vectors_and_structs() {
    let layout = PipelineLayout {
        sets: vec![set(&[(0, DescriptorKind::StorageBuffer, 1), (1, DescriptorKind::UniformBuffer, 1)])],
        push_constant_size: 0,
    };
    for b in build_test_shader("vectors_structs.comp", &layout, &[], [16, 4, 1]) {
        assert_has(&b.disasm, &["buffer_load_b128", "buffer_store_b128", "buffer_load_b32", "buffer_store_b32"]);
        // std430 Particle: 80-byte array stride, `ids` at offset 64 (from the decorations).
        let ir = &b.shader.llvm_ir;
        assert!(ir.contains(", 80\n") && ir.contains("i32 64\n"), "{ir}");
    }
}

#[test]
fn shared_memory() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 0 };
    for b in build_test_shader("shared_memory.comp", &layout, &[], [8, 8, 1]) {
        let k = b.co.kernel("main").unwrap();
        // tile: 8 * 9 cells of 20 bytes, counter: 4, partial: 256.
        assert!(k.descriptor.group_segment_fixed_size >= 8 * 9 * 20 + 256);
        assert!(b.shader.llvm_ir.contains("syncscope(\"agent\")"), "memoryBarrier is device scope");
        assert_has(&b.disasm, &["ds_store_b32", "ds_load_b32", "s_barrier", "buffer_load_b128", "buffer_store_b128"]);
        assert_eq!(k.descriptor.workitem_id_dims(), 1, "x and y work-item ids");
    }
}

#[test]
fn descriptors() {
    let layout = PipelineLayout {
        sets: vec![
            set(&[(0, DescriptorKind::StorageBuffer, 1), (2, DescriptorKind::StorageBuffer, 4)]),
            set(&[(0, DescriptorKind::UniformBufferDynamic, 1)]),
            set(&[(1, DescriptorKind::UniformBuffer, 1), (3, DescriptorKind::StorageBufferDynamic, 1)]),
        ],
        push_constant_size: 12,
    };
    for b in build_test_shader("descriptors.comp", &layout, &[], [64, 1, 1]) {
        assert_has(&b.disasm, &["buffer_load_b32", "buffer_store_b32", "s_load_b128"]);
        let ir = &b.shader.llvm_ir;
        // Dynamic descriptors come from the kernarg segment: set 1's at 0x30, set 2's at 0x40.
        assert!(ir.contains("%kernarg, i32 48"), "{ir}");
        assert!(ir.contains("%kernarg, i32 64"), "{ir}");
        // length() reads num_records from the V#.
        assert!(ir.contains("llvm.usub.sat.i32"));
        // The dynamically indexed descriptor array is clamped to its 4 descriptors.
        assert!(ir.contains("@llvm.umin.i32(i32 %"));
    }
}

#[test]
fn specialization_constants() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0])], push_constant_size: 0 };
    let spec = [
        SpecConstant { id: 0, data: 128u32.to_le_bytes().to_vec() },
        SpecConstant { id: 1, data: 5u32.to_le_bytes().to_vec() },
        SpecConstant { id: 2, data: 1u32.to_le_bytes().to_vec() },
        SpecConstant { id: 3, data: (-7i32).to_le_bytes().to_vec() },
    ];
    for b in build_test_shader("spec_constants.comp", &layout, &spec, [128, 1, 1]) {
        // DOUBLE_SCALE = 5 * 2 + 1, folded at compile time.
        let ir = &b.shader.llvm_ir;
        assert!(ir.contains(", 11\n"), "{ir}");
        assert!(ir.contains(", -7\n"), "{ir}");
        // NEGATE was specialised to true.
        assert!(ir.contains("sub i32 zeroinitializer"), "{ir}");
    }
    // Defaults apply without specialisation: local_size_x_id defaults to 1.
    build_test_shader("spec_constants.comp", &layout, &[], [1, 1, 1]);
}

#[test]
fn int64_and_double() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 0 };
    for b in build_test_shader("int64_double.comp", &layout, &[], [32, 1, 1]) {
        assert_has(&b.disasm, &["buffer_load_b64", "buffer_store_b64", "v_mul_f64", "v_rsq_f64"]);
    }
}

#[test]
fn handwritten_spirv() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0])], push_constant_size: 0 };
    let text = std::fs::read_to_string(shaders_dir().join("handwritten.spvasm")).unwrap();
    let words = spirv_as(&text, "spv1.3");
    let spec = [SpecConstant { id: 7, data: 5u32.to_le_bytes().to_vec() }];
    let b = build(&words, &layout, &spec);
    check_kernel(&b, &layout, [32, 1, 1]);
    let ir = &b.shader.llvm_ir;
    // Case 1's block branches to the merge block twice: the phi lists that edge twice.
    assert!(ir.contains("phi i32 ["), "{ir}");
    let phi = ir.lines().find(|l| l.contains("phi i32")).unwrap();
    assert_eq!(phi.matches("[ ").count(), 3, "{phi}");
    // Spec constant (5 + 1) << 2 folded to 24.
    assert!(ir.contains(", 24\n"), "{ir}");
    assert!(ir.contains("fence syncscope(\"agent\") acq_rel"), "{ir}");
    assert_has(&b.disasm, &["buffer_load_b128", "buffer_store_b128"]);
}

#[test]
fn debug_info_is_ignored() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 4 };
    for flags in [&["-g"][..], &["-gV"][..]] {
        for env in [None, Some("vulkan1.3")] {
            let words = glsl_to_spirv_with(&examples_dir().join("reduce.comp"), env, flags);
            let b = build(&words, &layout, &[]);
            check_kernel(&b, &layout, [256, 1, 1]);
        }
    }
}

const ATOMIC_ASM: &str = r#"
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 64 1 1
               OpDecorate %Buf Block
               OpMemberDecorate %Buf 0 Offset 0
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %uint = OpTypeInt 32 0
        %Buf = OpTypeStruct %uint
    %ptr_Buf = OpTypePointer StorageBuffer %Buf
   %ptr_uint = OpTypePointer StorageBuffer %uint
        %buf = OpVariable %ptr_Buf StorageBuffer
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %p = OpAccessChain %ptr_uint %buf %uint_0
        %old = OpAtomicIAdd %uint %p %uint_1 %uint_0 %uint_1
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn unsupported_instruction_is_named() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0])], push_constant_size: 0 };
    let words = spirv_as(ATOMIC_ASM, "spv1.3");
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    // Once this test's unsupported instruction, OpAtomicIAdd is lowered now (atomics are
    // tested in spirv_arith.rs); images below still are not.
    assert!(lower(&input).unwrap().ir.contains("atomicrmw add ptr addrspace(7)"));

    // Sparse residency: softnavi offers none, so the lowering names it.
    let dir = common::TempDir::new("image");
    let path = dir.path("image.comp");
    std::fs::write(
        &path,
        "#version 450\n#extension GL_ARB_sparse_texture2 : require\nlayout(local_size_x = 1) in;\n\
         layout(set = 0, binding = 1) uniform sampler2D t;\n\
         layout(set = 0, binding = 0) buffer B { vec4 o; };\n\
         void main() { vec4 v; sparseTexelFetchARB(t, ivec2(0), 0, v); o = v; }\n",
    )
    .unwrap();
    let words = glsl_to_spirv(&path, None);
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    match lower(&input) {
        Err(CompileError::Unsupported { what }) => {
            assert!(what.contains("Sparse"), "{what}")
        }
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

#[test]
fn wrong_entry_point_and_layout_mismatch() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 8 };
    let words = glsl_to_spirv(&examples_dir().join("saxpy.comp"), None);
    let input = ShaderInput { spirv: &words, entry_point: "nope", layout: &layout, specialization: &[] };
    assert!(matches!(lower(&input), Err(CompileError::Invalid(_))));
    let small = PipelineLayout { sets: vec![storage_set(&[0])], push_constant_size: 8 };
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &small, specialization: &[] };
    assert!(matches!(lower(&input), Err(CompileError::Layout(_))));
    let no_push = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 0 };
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &no_push, specialization: &[] };
    assert!(matches!(lower(&input), Err(CompileError::Layout(_))));
}

#[test]
fn validate_module_checks_the_header() {
    let words = glsl_to_spirv(&examples_dir().join("saxpy.comp"), Some("vulkan1.3"));
    validate_module(&words).unwrap();
    assert!(validate_module(&[]).is_err());
    assert!(validate_module(&words[..3]).is_err());
    let mut bad = words.clone();
    bad[0] = 0xdead_beef;
    assert!(matches!(validate_module(&bad), Err(CompileError::Invalid(_))));
    bad = words.clone();
    bad[1] = 0x0001_0700; // SPIR-V 1.7
    assert!(matches!(validate_module(&bad), Err(CompileError::Unsupported { .. })));
    bad = words.clone();
    bad.truncate(words.len() - 1);
    assert!(validate_module(&bad).is_err());
}

#[test]
fn garbage_and_truncated_words_never_panic() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 8 };
    let modules: Vec<Vec<u32>> = [
        examples_dir().join("saxpy.comp"),
        examples_dir().join("reduce.comp"),
        shaders_dir().join("vectors_structs.comp"),
        shaders_dir().join("control_flow.comp"),
    ]
    .iter()
    .map(|p| glsl_to_spirv(p, Some("vulkan1.2")))
    .collect();
    let lower_words = |w: &[u32]| {
        let input = ShaderInput { spirv: w, entry_point: "main", layout: &layout, specialization: &[] };
        let _ = validate_module(w);
        lower(&input)
    };
    for w in &modules {
        for len in 0..w.len() {
            assert!(lower_words(&w[..len]).is_err(), "truncated to {len} words");
        }
    }
    let mut rng = Rng(0xfeed_5eed);
    for _ in 0..300 {
        let garbage: Vec<u32> = (0..rng.below(64)).map(|_| rng.next() as u32).collect();
        assert!(lower_words(&garbage).is_err());
    }
    let mut lowered = 0;
    for i in 0..4000 {
        let mut w = modules[i % modules.len()].clone();
        for _ in 0..=rng.below(3) {
            let at = 5 + rng.below(w.len() - 5);
            w[at] = match rng.below(4) {
                0 => rng.next() as u32,
                1 => w[at] ^ (1 << rng.below(32)),
                2 => w[at].wrapping_add(1),
                _ => w[rng.below(w.len())],
            };
        }
        if lower_words(&w).is_ok() {
            lowered += 1;
        }
    }
    assert!(lowered > 0);
}

/// Mnemonics of a disassembly (`llvm-objdump -d` lines are "\tMNEMONIC operands // ...").
fn mnemonics(disasm: &str) -> Vec<String> {
    disasm
        .lines()
        .filter_map(|l| l.strip_prefix('\t'))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|m| !m.starts_with("//"))
        .map(str::to_string)
        .collect()
}

/// The disassembly without the trailing `s_code_end` padding.
fn trim_padding(disasm: &str) -> String {
    let kept: Vec<&str> = disasm.lines().filter(|l| !l.trim_start().starts_with("s_code_end")).collect();
    let padding = disasm.lines().count() - kept.len();
    format!("{}\n\t; ... {padding} x s_code_end (padding after the kernel)\n", kept.join("\n"))
}

/// Everything the test shaders compile to: checks the memory instructions the GPU model will
/// meet, and with `SOFTNAVI_DISASM_OUT=path` writes the example kernels' disassembly and the
/// instruction list there.
#[test]
fn instruction_inventory() {
    let storage2 = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 12 };
    let mixed = PipelineLayout {
        sets: vec![set(&[(0, DescriptorKind::StorageBuffer, 1), (1, DescriptorKind::UniformBuffer, 1)])],
        push_constant_size: 0,
    };
    let descriptors = PipelineLayout {
        sets: vec![
            set(&[(0, DescriptorKind::StorageBuffer, 1), (2, DescriptorKind::StorageBuffer, 4)]),
            set(&[(0, DescriptorKind::UniformBufferDynamic, 1)]),
            set(&[(3, DescriptorKind::StorageBufferDynamic, 1)]),
        ],
        push_constant_size: 12,
    };
    let shaders: Vec<(&str, PathBuf, &PipelineLayout)> = vec![
        ("saxpy.comp", examples_dir().join("saxpy.comp"), &storage2),
        ("reduce.comp", examples_dir().join("reduce.comp"), &storage2),
        ("control_flow.comp", shaders_dir().join("control_flow.comp"), &storage2),
        ("vectors_structs.comp", shaders_dir().join("vectors_structs.comp"), &mixed),
        ("shared_memory.comp", shaders_dir().join("shared_memory.comp"), &storage2),
        ("descriptors.comp", shaders_dir().join("descriptors.comp"), &descriptors),
        ("spec_constants.comp", shaders_dir().join("spec_constants.comp"), &storage2),
        ("int64_double.comp", shaders_dir().join("int64_double.comp"), &storage2),
    ];
    let mut used: std::collections::BTreeMap<String, Vec<&str>> = Default::default();
    let mut listing = String::new();
    for (name, path, layout) in &shaders {
        let b = build(&glsl_to_spirv(path, None), layout, &[]);
        for m in mnemonics(&b.disasm) {
            let users = used.entry(m).or_default();
            if !users.contains(name) {
                users.push(name);
            }
        }
        if name.starts_with("saxpy") || name.starts_with("reduce") {
            let k = b.co.kernel("main").unwrap();
            listing.push_str(&format!(
                "==== {name} (examples/shaders, glslangValidator -V) ====\n\
                 kernel descriptor: {:?}\n\
                 user SGPRs: {:?}, USER_SGPR_COUNT (system SGPRs start at) s{}, workgroup id x/y/z enabled: {:?}, \
                 work-item id VGPR dims: {}, VGPRs: {}, LDS bytes: {}, kernarg bytes: {}\n",
                k.descriptor,
                k.descriptor.user_sgpr_layout(),
                k.descriptor.user_sgpr_count(),
                k.descriptor.workgroup_id_enabled(),
                k.descriptor.workitem_id_dims(),
                k.descriptor.vgpr_alloc(),
                k.descriptor.group_segment_fixed_size,
                k.descriptor.kernarg_size,
            ));
            listing.push_str(&trim_padding(&b.disasm));
            listing.push('\n');
        }
    }
    for needed in [
        "s_load_b64",
        "s_load_b128",
        "buffer_load_b32",
        "buffer_store_b32",
        "buffer_load_b128",
        "ds_store_b32",
        "s_barrier",
        "buffer_gl0_inv",
    ] {
        assert!(used.contains_key(needed), "{needed} missing from {:?}", used.keys());
    }
    if let Some(out) = std::env::var_os("SOFTNAVI_DISASM_OUT") {
        let mut text = String::from(
            "softnavi compiler-bridge: gfx1100 code for the example shaders\n\
             (SPIR-V -> LLVM IR -> clang-19 -O2 -> ld.lld-19 -shared; wave32; llvm-objdump-19 -d --mcpu=gfx1100)\n\n",
        );
        text.push_str(&listing);
        text.push_str(&format!(
            "==== every instruction in the code of the {} test shaders ({} distinct) ====\n",
            shaders.len(),
            used.len()
        ));
        for (m, users) in &used {
            text.push_str(&format!("{m:<32} {}\n", users.join(", ")));
        }
        std::fs::write(out, text).unwrap();
    }
}

/// The Vulkan 1.1 subgroup "basic" category (what the ICD's
/// VkPhysicalDeviceSubgroupProperties::supportedOperations claims): a subgroup is a wave.
#[test]
fn subgroup_basic() {
    let layout = PipelineLayout { sets: vec![storage_set(&[0])], push_constant_size: 0 };
    // GL_KHR_shader_subgroup_basic needs SPIR-V 1.3 (Vulkan 1.1).
    for env in ["vulkan1.1", "vulkan1.2", "vulkan1.3"] {
        let words = glsl_to_spirv(&shaders_dir().join("subgroup_basic.comp"), Some(env));
        let b = build(&words, &layout, &[]);
        check_kernel(&b, &layout, [10, 9, 1]);
        let ir = &b.shader.llvm_ir;
        // SubgroupSize and NumSubgroups (ceil(90 / 32)) are constants.
        assert!(ir.contains("store i32 32, ptr addrspace(5)"), "{ir}");
        assert!(ir.contains("store i32 3, ptr addrspace(5)"), "{ir}");
        // SubgroupLocalInvocationId: the lane, counted by mbcnt; SubgroupId: the wave's index,
        // LocalInvocationIndex / 32, uniform.
        assert!(ir.contains("call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)"), "{ir}");
        assert!(!ir.contains("mbcnt.hi"), "{ir}");
        assert!(ir.contains(", 5\n") && ir.contains("lshr i32"), "{ir}");
        // subgroupElect: readfirstlane of the lane id is the lowest active lane.
        assert!(ir.contains("call i32 @llvm.amdgcn.readfirstlane.i32("), "{ir}");
        // Subgroup barriers: wavefront-scope fences, no workgroup barrier.
        assert!(ir.contains("fence syncscope(\"wavefront\") acq_rel"), "{ir}");
        assert!(ir.contains("fence syncscope(\"wavefront\") release"), "{ir}");
        assert!(ir.contains("call void @llvm.amdgcn.wave.barrier()"), "{ir}");
        assert!(!ir.contains("s.barrier") && !ir.contains("syncscope(\"workgroup\")"), "{ir}");
        // Functions that may hold subgroup operations are convergent until inlined.
        // (with the default float mode, f32 denormals flushed, which the kernel carries too).
        let attrs = "attributes #1 = { \"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\" alwaysinline convergent nounwind }";
        assert!(ir.contains(attrs), "{ir}");
        assert_has(&b.disasm, &["v_mbcnt_lo_u32_b32", "v_readfirstlane_b32", "ds_store_b32", "ds_load_b32"]);
        assert!(!b.disasm.contains("s_barrier"), "{}", b.disasm);
    }

    // wave64: 64-lane subgroups, the lane counted over both halves of the mask.
    let words = glsl_to_spirv(&shaders_dir().join("subgroup_basic.comp"), Some("vulkan1.1"));
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    let lowered = compiler_bridge::lower_with(&input, &CodegenOptions { wave64: true }).unwrap();
    let ir = &lowered.ir;
    assert!(ir.contains("store i32 64, ptr addrspace(5)"), "{ir}");
    assert!(ir.contains("store i32 2, ptr addrspace(5)"), "{ir}");
    assert!(ir.contains("call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %t"), "{ir}");
    assert!(ir.contains(", 6\n") && ir.contains("lshr i32"), "{ir}");
    assert_eq!(lower(&input).unwrap().ir, compiler_bridge::lower_with(&input, &CodegenOptions::default()).unwrap().ir);
    let shader = compile_with(&input, &CodegenOptions { wave64: true }).unwrap();
    assert_eq!(shader.llvm_ir, *ir);
    let co = CodeObject::parse(&shader.elf).unwrap();
    assert_eq!(co.kernel("main").unwrap().metadata.wavefront_size, 64);
    assert_has(&llvm::disassemble(&shader.elf).unwrap(), &["v_mbcnt_lo_u32_b32", "v_mbcnt_hi_u32_b32"]);
}

/// OpGroupNonUniformElect with a scope other than Subgroup (which Vulkan forbids) is refused.
const ELECT_WORKGROUP_ASM: &str = r#"
               OpCapability Shader
               OpCapability GroupNonUniform
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 32 1 1
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_2 = OpConstant %uint 2
       %main = OpFunction %void None %fn
      %entry = OpLabel
          %e = OpGroupNonUniformElect %bool %uint_2
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn elect_needs_subgroup_scope() {
    let layout = PipelineLayout { sets: vec![], push_constant_size: 0 };
    let words = spirv_as(ELECT_WORKGROUP_ASM, "spv1.3");
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    assert_eq!(
        lower(&input).unwrap_err(),
        CompileError::Unsupported { what: "OpGroupNonUniformElect with execution scope 2".into() }
    );
    let subgroup = ELECT_WORKGROUP_ASM.replace("%uint_2 = OpConstant %uint 2", "%uint_2 = OpConstant %uint 3");
    let words = spirv_as(&subgroup, "spv1.3");
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    compile(&input).unwrap();
}
