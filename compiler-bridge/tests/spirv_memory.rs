//! Types and memory: the `tests/spirv/memory` corpus through LLVM, specialisation of the
//! workgroup size with LocalSizeId, specialisation-constant folding of conversions, and
//! the named errors for what is not handled.

mod common;

use std::path::{Path, PathBuf};

use common::{glsl_to_spirv, spirv_as};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::{compile, llvm, lower, CompileError, ShaderInput, SpecConstant};

fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/spirv/memory")
}

/// Bindings 0..4 of set 0 and 32 bytes of push constants: enough for every corpus shader.
fn layout() -> PipelineLayout {
    let bindings = (0..4).map(|b| Binding { binding: b, kind: DescriptorKind::StorageBuffer, count: 1 }).collect();
    PipelineLayout { sets: vec![SetLayout::new(bindings)], push_constant_size: 32 }
}

/// The SPIR-V of corpus file `name`, built for the target env on its first line.
fn corpus_spirv(name: &str) -> Vec<u32> {
    let path = corpus_dir().join(name);
    let text = std::fs::read_to_string(&path).unwrap();
    let env = text
        .lines()
        .next()
        .and_then(|l| l.trim_start_matches(['/', ';', ' ']).strip_prefix("target-env:"))
        .map_or("vulkan1.1", str::trim)
        .to_string();
    if name.ends_with(".spvasm") {
        spirv_as(&text, &env)
    } else {
        glsl_to_spirv(&path, Some(&env))
    }
}

fn input<'a>(words: &'a [u32], layout: &'a PipelineLayout, spec: &'a [SpecConstant]) -> ShaderInput<'a> {
    ShaderInput { spirv: words, entry_point: "main", layout, specialization: spec }
}

#[test]
fn memory_corpus_compiles_to_code_objects() {
    let layout = layout();
    let mut names: Vec<String> = std::fs::read_dir(corpus_dir())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".comp") || n.ends_with(".spvasm"))
        .collect();
    names.sort();
    assert!(names.len() >= 25, "{names:?}");
    for name in &names {
        let words = corpus_spirv(name);
        let shader = compile(&input(&words, &layout, &[])).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!shader.elf.is_empty(), "{name}");
    }
}

#[test]
fn buffer_references_are_flat_global_accesses() {
    let layout = layout();
    for name in ["psb_basic.comp", "psb_linked.comp", "psb_stored.comp", "psb_asm.spvasm"] {
        let words = corpus_spirv(name);
        let lowered = lower(&input(&words, &layout, &[])).unwrap();
        assert!(lowered.ir.contains("ptr addrspace(1)"), "{name}");
        let shader = compile(&input(&words, &layout, &[])).unwrap();
        let disasm = llvm::disassemble(&shader.elf).unwrap();
        assert!(disasm.contains("global_load"), "{name}: no global_load in\n{disasm}");
    }
    // The linked list's next pointers are stored through a buffer reference.
    let words = corpus_spirv("psb_linked.comp");
    let disasm = llvm::disassemble(&compile(&input(&words, &layout, &[])).unwrap().elf).unwrap();
    assert!(disasm.contains("global_store_b64"), "{disasm}");
}

#[test]
fn local_size_id_is_specialised() {
    let layout = layout();
    // glslang emits LocalSizeId for local_size_x_id when targeting SPIR-V 1.6.
    let path = corpus_dir().join("spec_ops.comp");
    let words = glsl_to_spirv(&path, Some("vulkan1.3"));
    // OpExecutionModeId (331) %main LocalSizeId (38).
    assert!(words.windows(3).any(|w| w[0] & 0xffff == 331 && w[2] == 38));
    // glslang gives the LocalSizeId operand its own SpecId 0 constant, of default 1.
    assert_eq!(lower(&input(&words, &layout, &[])).unwrap().workgroup_size, [1, 1, 1]);
    let spec = [SpecConstant { id: 0, data: 48u32.to_le_bytes().to_vec() }];
    let lowered = lower(&input(&words, &layout, &spec)).unwrap();
    assert_eq!(lowered.workgroup_size, [48, 1, 1]);
    // The shared array is sized by the same constant: WG * 2 ints.
    assert!(lowered.ir.contains("[384 x i8]"), "{}", lowered.ir);
}

const FOLD: &str = r#"
               OpCapability Shader
               OpCapability Float64
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %x SpecId 0
               OpDecorate %arr ArrayStride 8
               OpMemberDecorate %Block 0 Offset 0
               OpDecorate %Block Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
        %arr = OpTypeRuntimeArray %double
      %Block = OpTypeStruct %arr
    %p_block = OpTypePointer StorageBuffer %Block
   %p_double = OpTypePointer StorageBuffer %double
        %buf = OpVariable %p_block StorageBuffer
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
          %x = OpSpecConstant %float 1.1
          %q = OpSpecConstantOp %float QuantizeToF16 %x
          %w = OpSpecConstantOp %double FConvert %q
          %d = OpSpecConstantOp %double FConvert %x
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
         %p0 = OpAccessChain %p_double %buf %int_0 %int_0
               OpStore %p0 %w
         %p1 = OpAccessChain %p_double %buf %int_0 %int_1
               OpStore %p1 %d
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn conversions_fold_in_spec_constant_ops() {
    let layout = layout();
    let words = spirv_as(FOLD, "vulkan1.1");
    let hex = |v: f64| format!("0x{:016X}", v.to_bits());
    let ir = lower(&input(&words, &layout, &[])).unwrap().ir;
    // 1.1 rounded to f16 is 1.099609375; FConvert widens exactly.
    assert!(ir.contains(&hex(1.099_609_375)), "{ir}");
    assert!(ir.contains(&hex(f64::from(1.1f32))), "{ir}");
    let spec = [SpecConstant { id: 0, data: 70000f32.to_le_bytes().to_vec() }];
    let ir = lower(&input(&words, &layout, &spec)).unwrap().ir;
    assert!(ir.contains(&hex(f64::INFINITY)), "{ir}");
    assert!(ir.contains(&hex(70000.0)), "{ir}");
}

const MATRIX_SELECT: &str = r#"
               OpCapability Shader
               OpCapability VariablePointersStorageBuffer
               OpExtension "SPV_KHR_variable_pointers"
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %Block 0 Offset 0
               OpMemberDecorate %Block 0 RowMajor
               OpMemberDecorate %Block 0 MatrixStride 8
               OpMemberDecorate %Block 1 Offset 16
               OpMemberDecorate %Block 1 RowMajor
               OpMemberDecorate %Block 1 MatrixStride 8
               OpDecorate %Block Block
               OpDecorate %buf DescriptorSet 0
               OpDecorate %buf Binding 0
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
       %bool = OpTypeBool
        %int = OpTypeInt 32 1
      %float = OpTypeFloat 32
       %vec2 = OpTypeVector %float 2
       %mat2 = OpTypeMatrix %vec2 2
      %Block = OpTypeStruct %mat2 %mat2
    %p_block = OpTypePointer StorageBuffer %Block
     %p_mat2 = OpTypePointer StorageBuffer %mat2
        %buf = OpVariable %p_block StorageBuffer
      %int_0 = OpConstant %int 0
      %int_1 = OpConstant %int 1
       %true = OpConstantTrue %bool
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
         %p0 = OpAccessChain %p_mat2 %buf %int_0
         %p1 = OpAccessChain %p_mat2 %buf %int_1
          %p = OpSelect %p_mat2 %true %p0 %p1
          %m = OpLoad %mat2 %p
               OpStore %p1 %m
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn selected_matrix_pointers_are_named_unsupported() {
    let words = spirv_as(MATRIX_SELECT, "vulkan1.1");
    let layout = layout();
    match lower(&input(&words, &layout, &[])) {
        Err(CompileError::Unsupported { what }) => assert!(what.contains("explicitly laid out matrix"), "{what}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
    // Nor may such a pointer go through memory (a Function variable holding it).
    let stored = MATRIX_SELECT
        .replace(
            "%true = OpConstantTrue %bool",
            "%true = OpConstantTrue %bool\n%f_pmat = OpTypePointer Function %p_mat2",
        )
        .replace("%entry = OpLabel", "%entry = OpLabel\n%fv = OpVariable %f_pmat Function")
        .replace("%p = OpSelect %p_mat2 %true %p0 %p1", "OpStore %fv %p0\n%p = OpLoad %p_mat2 %fv");
    match lower(&input(&spirv_as(&stored, "vulkan1.1"), &layout, &[])) {
        Err(CompileError::Unsupported { what }) => assert!(what.contains("stored"), "{what}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
    // Without the selection the same module lowers.
    let direct = MATRIX_SELECT.replace("%p = OpSelect %p_mat2 %true %p0 %p1", "%p = OpCopyObject %p_mat2 %p0");
    lower(&input(&spirv_as(&direct, "vulkan1.1"), &layout, &[])).unwrap();
}

const UNDEF: &str = r#"
               OpCapability Shader
               OpCapability Int8
               OpCapability Float16
               OpCapability Float64
               OpCapability PhysicalStorageBufferAddresses
               OpExtension "SPV_KHR_physical_storage_buffer"
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpMemberDecorate %Node 0 Offset 0
               OpMemberDecorate %Node 1 Offset 8
               OpDecorate %Node Block
       %void = OpTypeVoid
     %fnvoid = OpTypeFunction %void
       %bool = OpTypeBool
      %bvec3 = OpTypeVector %bool 3
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
       %half = OpTypeFloat 16
     %double = OpTypeFloat 64
      %dvec4 = OpTypeVector %double 4
      %dmat4 = OpTypeMatrix %dvec4 4
     %uint_3 = OpConstant %uint 3
      %arr3h = OpTypeArray %half %uint_3
               OpTypeForwardPointer %pnode PhysicalStorageBuffer
       %Node = OpTypeStruct %pnode %uchar
      %pnode = OpTypePointer PhysicalStorageBuffer %Node
          %S = OpTypeStruct %dmat4 %arr3h %bvec3 %pnode
        %p_S = OpTypePointer Function %S
         %u1 = OpUndef %S
         %u2 = OpUndef %dmat4
       %main = OpFunction %void None %fnvoid
      %entry = OpLabel
          %v = OpVariable %p_S Function
         %u3 = OpUndef %S
               OpStore %v %u1
               OpStore %v %u3
         %s2 = OpCompositeInsert %S %u2 %u3 0
               OpStore %v %s2
               OpReturn
               OpFunctionEnd
"#;

#[test]
fn undef_of_every_kind_of_type_lowers() {
    let words = spirv_as(UNDEF, "vulkan1.2");
    let layout = layout();
    compile(&input(&words, &layout, &[])).unwrap();
}
