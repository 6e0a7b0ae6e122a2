//! Texel buffers (`spirv/image.rs`): a GLSL shader with every texel buffer form lowers
//! to the `llvm.amdgcn.struct.buffer.*` format intrinsics and compiles for gfx1100 to
//! MUBUF format instructions with IDXEN; other image dimensions fail by name. (Results are
//! checked end to end by `tests/tests/texel.rs`.)

mod common;

use std::path::Path;

use common::{glsl_to_spirv, spirv_as};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::{compile, lower, reflect_layout, CompileError, ShaderInput};

fn layout() -> PipelineLayout {
    let b = |binding, kind, count| Binding { binding, kind, count };
    PipelineLayout {
        sets: vec![SetLayout::new(vec![
            b(0, DescriptorKind::UniformTexelBuffer, 1),
            b(1, DescriptorKind::StorageTexelBuffer, 1),
            b(2, DescriptorKind::StorageTexelBuffer, 1),
            b(3, DescriptorKind::UniformTexelBuffer, 1),
            b(4, DescriptorKind::StorageTexelBuffer, 2),
        ])],
        push_constant_size: 0,
    }
}

fn shader() -> Vec<u32> {
    glsl_to_spirv(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders/texel_buffers.comp"), None)
}

#[test]
fn texel_buffers_lower_to_format_intrinsics() {
    let words = shader();
    let layout = layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    let ir = lower(&input).expect("lowers").ir;
    for want in [
        "llvm.amdgcn.struct.buffer.load.format.v4f32",
        "llvm.amdgcn.struct.buffer.load.format.v4i32",
        "llvm.amdgcn.struct.buffer.store.format.v4f32",
        "llvm.amdgcn.struct.buffer.atomic.add.i32",
    ] {
        assert!(ir.contains(want), "{want} missing from\n{ir}");
    }
    let code = compile(&input).expect("compiles");
    let asm = compiler_bridge::llvm::disassemble(&code.elf).expect("llvm-objdump-19 disassembles");
    // Texels by index (idxen), converted by the V#'s format.
    for want in ["buffer_load_format_xyzw", "buffer_store_format_xyzw", "buffer_atomic_add_u32", " idxen"] {
        assert!(asm.contains(want), "{want} missing from\n{asm}");
    }
}

#[test]
fn reflection_finds_texel_buffers() {
    let l = reflect_layout(&shader(), "main").expect("reflects");
    let kinds: Vec<_> = l.sets[0].bindings().iter().map(|b| (b.binding, b.kind, b.count)).collect();
    assert_eq!(
        kinds,
        vec![
            (0, DescriptorKind::UniformTexelBuffer, 1),
            (1, DescriptorKind::StorageTexelBuffer, 1),
            (2, DescriptorKind::StorageTexelBuffer, 1),
            (3, DescriptorKind::UniformTexelBuffer, 1),
            (4, DescriptorKind::StorageTexelBuffer, 2),
        ]
    );
}

#[test]
fn multisampled_images_are_unsupported_by_name() {
    let text = r#"OpCapability Shader
OpCapability StorageImageMultisample
OpMemoryModel Logical GLSL450
OpEntryPoint GLCompute %main "main"
OpExecutionMode %main LocalSize 1 1 1
OpDecorate %img DescriptorSet 0
OpDecorate %img Binding 0
%void = OpTypeVoid
%fn = OpTypeFunction %void
%f32 = OpTypeFloat 32
%i32 = OpTypeInt 32 1
%v4 = OpTypeVector %f32 4
%v2i = OpTypeVector %i32 2
%c0 = OpConstant %i32 0
%coord = OpConstantComposite %v2i %c0 %c0
%Img = OpTypeImage %f32 2D 0 0 1 2 Rgba32f
%pImg = OpTypePointer UniformConstant %Img
%img = OpVariable %pImg UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%l = OpLoad %Img %img
%t = OpImageRead %v4 %l %coord Sample %c0
OpReturn
OpFunctionEnd
"#;
    let words = spirv_as(text, "vulkan1.1");
    let layout = PipelineLayout {
        sets: vec![SetLayout::new(vec![Binding { binding: 0, kind: DescriptorKind::StorageTexelBuffer, count: 1 }])],
        push_constant_size: 0,
    };
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    match lower(&input) {
        Err(CompileError::Unsupported { what }) => assert!(what.to_lowercase().contains("multisample"), "{what}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}
