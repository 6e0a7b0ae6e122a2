//! Texel buffers (`spirv/image.rs`): a GLSL shader with every texel buffer form lowers
//! to the `llvm.amdgcn.struct.buffer.*` format intrinsics and compiles for gfx1100 to
//! MUBUF format instructions with IDXEN; images (`spirv/mimg.rs`) lower to
//! `llvm.amdgcn.image.*`, multisampled ones to the MSAA dims with the sample last. (Results
//! are checked end to end by `tests/tests/texel.rs`, the image group of `tests/spirv/`
//! (`tests/tests/spirv.rs`) and `tests/tests/msaa.rs`.)

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

/// A multisampled storage image array: read and written with a Sample operand, queried
/// for its samples and size.
const MSAA_ASM: &str = r#"OpCapability Shader
OpCapability StorageImageMultisample
OpCapability ImageMSArray
OpCapability ImageQuery
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
%v3i = OpTypeVector %i32 3
%c0 = OpConstant %i32 0
%c3 = OpConstant %i32 3
%coord = OpConstantComposite %v3i %c0 %c0 %c0
%Img = OpTypeImage %f32 DIM 0 1 1 2 Rgba32f
%pImg = OpTypePointer UniformConstant %Img
%img = OpVariable %pImg UniformConstant
%main = OpFunction %void None %fn
%entry = OpLabel
%l = OpLoad %Img %img
%n = OpImageQuerySamples %i32 %l
%size = OpImageQuerySize %v3i %l
%t = OpImageRead %v4 %l %coord Sample %n
OpImageWrite %l %coord %t Sample %c3
OpReturn
OpFunctionEnd
"#;

fn msaa_input_layout() -> PipelineLayout {
    PipelineLayout {
        sets: vec![SetLayout::new(vec![Binding { binding: 0, kind: DescriptorKind::StorageImage, count: 1 }])],
        push_constant_size: 0,
    }
}

#[test]
fn multisampled_images_lower_to_msaa_dims() {
    let words = spirv_as(&MSAA_ASM.replace("DIM", "2D"), "vulkan1.1");
    let layout = msaa_input_layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    let ir = lower(&input).expect("lowers").ir;
    for want in [
        "llvm.amdgcn.image.load.2darraymsaa",
        "llvm.amdgcn.image.store.2darraymsaa",
        // The size, not the level count (LAST_LEVEL holds log2(samples)).
        "llvm.amdgcn.image.getresinfo.2darraymsaa.v4f32.i32(i32 7",
        // OpImageQuerySamples reads LAST_LEVEL: dword 3 bits 19:16.
        "lshr i32",
    ] {
        assert!(ir.contains(want), "{want} missing from\n{ir}");
    }
    let code = compile(&input).expect("compiles");
    let asm = compiler_bridge::llvm::disassemble(&code.elf).expect("llvm-objdump-19 disassembles");
    for want in ["image_load", "image_store", "dim:SQ_RSRC_IMG_2D_MSAA_ARRAY"] {
        assert!(asm.contains(want), "{want} missing from\n{asm}");
    }
}

/// Multisampled images of another Dim (Vulkan has 2D ones only) are refused by name.
#[test]
fn multisampled_3d_images_are_unsupported_by_name() {
    let words = spirv_as(&MSAA_ASM.replace("DIM", "3D").replace("OpCapability ImageMSArray\n", ""), "spv1.0");
    let layout = msaa_input_layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    match lower(&input) {
        Err(CompileError::Unsupported { what }) => assert!(what.contains("multisampled images of Dim"), "{what}"),
        other => panic!("expected Unsupported, got {other:?}"),
    }
}

/// Every sampling form of a cube array (a direction and a layer: four coordinates) and of
/// the other dimensionalities, and a gather with ConstOffsets (an array of four offsets),
/// lowers and compiles to MIMG sampling instructions (`mimg.rs`;
/// results are checked end to end by `tests/spirv/images/` and the CTS).
#[test]
fn sampling_every_dimensionality_compiles() {
    let dir = common::TempDir::new("sample-dims");
    let path = dir.path("dims.comp");
    std::fs::write(
        &path,
        "#version 450\nlayout(local_size_x = 1) in;\n\
         layout(set = 0, binding = 0) uniform samplerCubeArray ca;\n\
         layout(set = 0, binding = 1) uniform sampler2DArray a2;\n\
         layout(set = 0, binding = 2) uniform sampler3D t3;\n\
         layout(set = 0, binding = 3) uniform sampler1DArray a1;\n\
         layout(set = 0, binding = 4) buffer B { vec4 o[]; };\n\
         void main() {\n\
           o[0] = textureLod(ca, vec4(0.3, -1.0, 0.2, 1.0), 0.5);\n\
           o[1] = textureGather(ca, vec4(1.0, 0.1, 0.2, 0.0), 2);\n\
           o[2] = textureLod(a2, vec3(0.25, 0.75, 1.0), 1.0) + textureGrad(a2, vec3(0.5), vec2(0.1), vec2(0.2));\n\
           o[3] = textureLodOffset(t3, vec3(0.5), 0.0, ivec3(1, -1, 2)) + textureLod(a1, vec2(0.5, 1.0), 0.0);\n\
           o[4] = vec4(textureSize(ca, 0), textureQueryLevels(ca));\n\
           o[5] = textureGatherOffsets(a2, vec3(0.5), ivec2[4](ivec2(0), ivec2(1, -1), ivec2(-2, 3), ivec2(7, -8)));\n\
         }\n",
    )
    .unwrap();
    let words = glsl_to_spirv(&path, None);
    let b = |binding, kind| Binding { binding, kind, count: 1 };
    let layout = PipelineLayout {
        sets: vec![SetLayout::new(vec![
            b(0, DescriptorKind::CombinedImageSampler),
            b(1, DescriptorKind::CombinedImageSampler),
            b(2, DescriptorKind::CombinedImageSampler),
            b(3, DescriptorKind::CombinedImageSampler),
            b(4, DescriptorKind::StorageBuffer),
        ])],
        push_constant_size: 0,
    };
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    let ir = lower(&input).unwrap_or_else(|e| panic!("{e}")).ir;
    let names = ["image.sample.l.cube", "image.gather4.lz.cube", "image.sample.d.2darray", "image.sample.l.o.3d"];
    for name in names.into_iter().chain(["image.gather4.lz.o.2darray"]) {
        assert!(ir.contains(name), "{name} missing:\n{ir}");
    }
    compile(&input).unwrap_or_else(|e| panic!("{e}"));
}
