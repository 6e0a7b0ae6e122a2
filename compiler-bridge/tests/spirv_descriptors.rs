//! Descriptor indexing in the lowering: runtime arrays of storage buffers and arrays of
//! uniform buffers indexed with `nonuniformEXT`. A divergent index gives a V# in VGPRs; the
//! AMDGPU backend turns each buffer access into a waterfall loop (`v_readfirstlane_b32`
//! of the V#, compare, `s_and_saveexec`, loop while lanes remain), in wave32 and wave64.
//! Execution with divergent indices is checked by `softnavi-descriptors indexing`.

mod common;

use std::path::Path;

use common::glsl_to_spirv;
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::{compile_with, llvm, CodegenOptions, ShaderInput};

fn layout() -> PipelineLayout {
    let bindings = vec![
        Binding { binding: 0, kind: DescriptorKind::StorageBuffer, count: 1 },
        Binding { binding: 1, kind: DescriptorKind::UniformBuffer, count: 4 },
        Binding { binding: 2, kind: DescriptorKind::StorageBuffer, count: 64 },
    ];
    PipelineLayout { sets: vec![SetLayout::new(bindings)], push_constant_size: 12 }
}

#[test]
fn non_uniform_descriptor_indices_make_waterfall_loops() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders/nonuniform.comp");
    let words = glsl_to_spirv(&path, Some("vulkan1.1"));
    let layout = layout();
    let input = ShaderInput { spirv: &words, entry_point: "main", layout: &layout, specialization: &[] };
    for wave64 in [false, true] {
        let shader = compile_with(&input, &CodegenOptions { wave64 }).unwrap();
        let disasm = llvm::disassemble(&shader.elf).unwrap();
        // One waterfall per non-uniform V#: the storage array's and the uniform array's.
        let readfirstlane = disasm.matches("v_readfirstlane_b32").count();
        assert!(readfirstlane >= 8, "wave64 {wave64}: {readfirstlane} v_readfirstlane_b32 in\n{disasm}");
        let saveexec = if wave64 { "s_and_saveexec_b64" } else { "s_and_saveexec_b32" };
        assert!(disasm.contains(saveexec), "wave64 {wave64}: no {saveexec} in\n{disasm}");
        assert!(disasm.contains("s_cbranch_execnz"), "wave64 {wave64}: no loop back in\n{disasm}");
        assert!(disasm.contains("buffer_load_b32"), "wave64 {wave64}: no MUBUF load in\n{disasm}");
    }
}
