//! The SPIR-V targets: the compiler-bridge entry points pipeline creation uses.

use compiler_bridge::abi::PipelineLayout;
use compiler_bridge::{Backend, CodegenOptions, ShaderInput, SpecConstant};

/// Little-endian words; a trailing partial word is dropped (vkCreateShaderModule refuses
/// sizes that are not a multiple of 4).
pub fn words(data: &[u8]) -> Vec<u32> {
    data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// Specialisation constants 0..3 with values taken from the module's last words, so that
/// mutations reach the specialised paths (workgroup size, array lengths, constants).
fn spec_constants(words: &[u32]) -> Vec<SpecConstant> {
    let tail = &words[words.len().saturating_sub(3)..];
    tail.iter().enumerate().map(|(i, w)| SpecConstant { id: i as u32, data: w.to_le_bytes().to_vec() }).collect()
}

/// The front end as the ICD drives it: the module check, then (as tools and a layout-less
/// pipeline would) reflection, then lowering for both wave sizes with the reflected layout,
/// without a layout, and specialised. Returns the IR of every lowering that succeeded.
pub fn front_end(words: &[u32]) -> Vec<(String, CodegenOptions)> {
    if compiler_bridge::validate_module(words).is_err() {
        return Vec::new();
    }
    let reflected = compiler_bridge::reflect_layout(words, "main").ok();
    let empty = PipelineLayout::default();
    let spec = spec_constants(words);
    let mut out = Vec::new();
    for wave64 in [false, true] {
        let opts = CodegenOptions { wave64 };
        for (layout, specialization) in [
            (reflected.as_ref().unwrap_or(&empty), &[][..]),
            (&empty, &[][..]),
            (reflected.as_ref().unwrap_or(&empty), &spec[..]),
        ] {
            let input = ShaderInput { spirv: words, entry_point: "main", layout, specialization };
            if let Ok(l) = compiler_bridge::lower_with(&input, &opts) {
                std::hint::black_box(&l.workgroup_size);
                out.push((l.ir, opts.clone()));
            }
        }
    }
    out
}

/// [`front_end`], then LLVM (in-process) on the first lowering of each wave size, and the
/// code object loader on what LLVM produced.
pub fn compile(words: &[u32]) {
    let mut done = [false; 2];
    for (ir, opts) in front_end(words) {
        if std::mem::replace(&mut done[opts.wave64 as usize], true) {
            continue;
        }
        if let Ok(elf) = compiler_bridge::llvm::compile_ir_with(&ir, &opts, Backend::InProcess) {
            let _ = std::hint::black_box(compiler_bridge::elf::CodeObject::parse(&elf));
        }
    }
}
