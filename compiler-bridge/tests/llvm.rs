//! The LLVM backends (in-process libLLVM 19 and the clang/lld processes), the disk cache
//! and layout reflection.

mod common;

use std::path::{Path, PathBuf};

use common::{glsl_to_spirv, TempDir};
use compiler_bridge::abi::{Binding, DescriptorKind, PipelineLayout, SetLayout};
use compiler_bridge::elf::CodeObject;
use compiler_bridge::llvm::{compile_ir_with, disassemble};
use compiler_bridge::{
    compile_using, reflect_layout, Backend, CodegenOptions, CompileError, CompiledShader, Compiler, DiskCache,
    ShaderInput, SpecConstant,
};

const WAVE32: CodegenOptions = CodegenOptions { wave64: false };
const WAVE64: CodegenOptions = CodegenOptions { wave64: true };

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/shaders").join(name)
}

fn test_shader(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/shaders").join(name)
}

fn storage_set(bindings: &[u32]) -> SetLayout {
    SetLayout::new(
        bindings.iter().map(|&b| Binding { binding: b, kind: DescriptorKind::StorageBuffer, count: 1 }).collect(),
    )
}

/// (SPIR-V, layout) of saxpy and reduce, with the layouts the examples create.
fn examples() -> Vec<(&'static str, Vec<u32>, PipelineLayout)> {
    vec![
        (
            "saxpy",
            glsl_to_spirv(&example("saxpy.comp"), Some("vulkan1.1")),
            PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 8 },
        ),
        (
            "reduce",
            glsl_to_spirv(&example("reduce.comp"), Some("vulkan1.1")),
            PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 4 },
        ),
    ]
}

fn compile(words: &[u32], layout: &PipelineLayout, opts: &CodegenOptions, compiler: &Compiler) -> CompiledShader {
    compile_with_spec(words, layout, &[], opts, compiler)
}

fn compile_with_spec(
    words: &[u32],
    layout: &PipelineLayout,
    spec: &[SpecConstant],
    opts: &CodegenOptions,
    compiler: &Compiler,
) -> CompiledShader {
    let input = ShaderInput { spirv: words, entry_point: "main", layout, specialization: spec };
    compile_using(&input, opts, compiler).unwrap_or_else(|e| panic!("compile failed: {e}"))
}

fn uncached(backend: Backend) -> Compiler<'static> {
    Compiler { backend, cache: None }
}

/// The instructions of a disassembly without addresses and encodings, which differ between
/// an ET_REL and a linked ET_DYN object.
fn instructions(elf: &[u8]) -> Vec<String> {
    disassemble(elf)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with('\t') || l.starts_with("  "))
        .map(|l| l.split("//").next().unwrap_or("").split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect()
}

#[test]
fn in_process_backend_is_available() {
    assert!(Backend::InProcess.is_available(), "libLLVM 19 should load on this machine");
    let id = Backend::InProcess.identity().unwrap();
    assert!(id.starts_with("libLLVM 19."), "{id}");
    // The server runs the same code on the same library: the two share cache entries.
    assert_eq!(Backend::Server.identity().unwrap(), id);
}

#[test]
fn backends_agree_on_kernel_descriptor_metadata_and_code() {
    for (name, words, layout) in examples() {
        for opts in [WAVE32, WAVE64] {
            let inproc = compile(&words, &layout, &opts, &uncached(Backend::InProcess));
            let process = compile(&words, &layout, &opts, &uncached(Backend::Process));
            assert_eq!(inproc.backend, Backend::InProcess);
            assert_eq!(process.backend, Backend::Process);
            // e_type: the in-process object is relocatable, the linked one shared.
            assert_eq!(u16::from_le_bytes([inproc.elf[16], inproc.elf[17]]), 1, "{name}: ET_REL");
            assert_eq!(u16::from_le_bytes([process.elf[16], process.elf[17]]), 3, "{name}: ET_DYN");

            let (a, b) = (CodeObject::parse(&inproc.elf).unwrap(), CodeObject::parse(&process.elf).unwrap());
            assert_eq!(a.code_object_version(), b.code_object_version(), "{name}");
            assert_eq!(a.code_object_version(), 5, "{name}: clang-19's default, code object v5");
            assert_eq!(a.target_name(), b.target_name());
            let (ka, kb) = (a.kernel("main").unwrap(), b.kernel("main").unwrap());
            assert_eq!(ka.metadata, kb.metadata, "{name} wave64={}", opts.wave64);
            assert_eq!(ka.symbol, kb.symbol);
            // Everything but where the code is relative to the descriptor.
            let strip = |d: compiler_bridge::elf::KernelDescriptor| compiler_bridge::elf::KernelDescriptor {
                kernel_code_entry_byte_offset: 0,
                ..d
            };
            assert_eq!(strip(ka.descriptor), strip(kb.descriptor), "{name} wave64={}", opts.wave64);
            assert_eq!(ka.descriptor.wave32(), !opts.wave64);
            assert_eq!(ka.metadata.wavefront_size, if opts.wave64 { 64 } else { 32 });
            // Same optimisation pipeline, same code.
            let (ia, ib) = (instructions(&inproc.elf), instructions(&process.elf));
            assert!(ia.iter().any(|i| i.starts_with("s_endpgm")), "{ia:?}");
            assert_eq!(ia, ib, "{name} wave64={}", opts.wave64);
        }
    }
}

#[test]
fn invalid_ir_is_an_error_from_both_backends() {
    let unparsable = "define amdgpu_kernel void @main( {\n";
    // Parses, but %x does not dominate its use: only the verifier catches it.
    let unverifiable = "target triple = \"amdgcn-amd-amdhsa\"\n\
        define amdgpu_kernel void @main(ptr addrspace(1) %p) {\n\
        entry:\n  %x = add i32 %y, 1\n  %y = add i32 %x, 1\n  store i32 %y, ptr addrspace(1) %p\n  ret void\n}\n";
    for backend in [Backend::InProcess, Backend::Process] {
        for ir in [unparsable, unverifiable] {
            match compile_ir_with(ir, &WAVE32, backend) {
                Err(CompileError::Llvm { log, .. }) => assert!(!log.is_empty(), "{backend}: empty diagnostics"),
                other => panic!("{backend}: expected an LLVM error, got {other:?}"),
            }
        }
    }
    let Err(CompileError::Llvm { log, .. }) = compile_ir_with(unverifiable, &WAVE32, Backend::InProcess) else {
        unreachable!()
    };
    assert!(log.contains("dominate"), "{log}");
}

#[test]
fn concurrent_in_process_compiles_agree() {
    let (_, words, layout) = examples().swap_remove(1);
    let reference = [WAVE32, WAVE64].map(|opts| compile(&words, &layout, &opts, &uncached(Backend::InProcess)).elf);
    std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let (words, layout) = (&words, &layout);
                s.spawn(move || {
                    let opts = if i % 2 == 0 { WAVE32 } else { WAVE64 };
                    (i % 2, compile(words, layout, &opts, &uncached(Backend::InProcess)).elf)
                })
            })
            .collect();
        for h in handles {
            let (wave, elf) = h.join().unwrap();
            assert_eq!(elf, reference[wave]);
        }
    });
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .map(|r| r.map(|e| e.unwrap().path()).filter(|p| p.extension().is_some_and(|e| e == "co")).collect())
        .unwrap_or_default();
    v.sort();
    v
}

#[test]
fn cache_hits_on_the_second_compile() {
    let dir = TempDir::new("cache-hit");
    let cache = DiskCache::new(dir.path("cache"));
    for backend in [Backend::InProcess, Backend::Process] {
        let compiler = Compiler { backend, cache: Some(&cache) };
        let (_, words, layout) = examples().swap_remove(0);
        let first = compile(&words, &layout, &WAVE32, &compiler);
        assert!(!first.from_cache);
        let second = compile(&words, &layout, &WAVE32, &compiler);
        assert!(second.from_cache, "{backend}");
        assert_eq!(second.backend, backend);
        assert_eq!(first.elf, second.elf);
        assert_eq!(first.llvm_ir, second.llvm_ir);
    }
    // One entry per backend: the backend is part of the key.
    assert_eq!(entries(cache.dir()).len(), 2);
}

#[test]
fn cache_keys_differ_by_spec_constants_wave_size_and_ir() {
    let dir = TempDir::new("cache-keys");
    let cache = DiskCache::new(dir.path("cache"));
    let compiler = Compiler { backend: Backend::InProcess, cache: Some(&cache) };
    let words = glsl_to_spirv(&test_shader("spec_constants.comp"), Some("vulkan1.1"));
    let layout = PipelineLayout { sets: vec![storage_set(&[0])], push_constant_size: 0 };
    let scale = |v: u32| vec![SpecConstant { id: 1, data: v.to_le_bytes().to_vec() }];

    let a = compile_with_spec(&words, &layout, &scale(5), &WAVE32, &compiler);
    let b = compile_with_spec(&words, &layout, &scale(6), &WAVE32, &compiler);
    let c = compile_with_spec(&words, &layout, &scale(5), &WAVE64, &compiler);
    let other = glsl_to_spirv(&example("saxpy.comp"), Some("vulkan1.1"));
    let saxpy_layout = PipelineLayout { sets: vec![storage_set(&[0, 1])], push_constant_size: 8 };
    let d = compile(&other, &saxpy_layout, &WAVE32, &compiler);
    assert!(![&a, &b, &c, &d].iter().any(|s| s.from_cache));
    assert_eq!(entries(cache.dir()).len(), 4);
    assert_ne!(a.elf, b.elf);
    assert_ne!(a.elf, c.elf);
    let again = compile_with_spec(&words, &layout, &scale(6), &WAVE32, &compiler);
    assert!(again.from_cache);
    assert_eq!(again.elf, b.elf);
}

#[test]
fn corrupt_cache_entries_are_recompiled() {
    let dir = TempDir::new("cache-corrupt");
    let cache = DiskCache::new(dir.path("cache"));
    let compiler = Compiler { backend: Backend::InProcess, cache: Some(&cache) };
    let (_, words, layout) = examples().swap_remove(1);
    let good = compile(&words, &layout, &WAVE32, &compiler).elf;
    let [entry] = &entries(cache.dir())[..] else { panic!("expected one entry") };
    let bytes = std::fs::read(entry).unwrap();

    let mut flipped = bytes.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x40;
    for damaged in [bytes[..bytes.len() / 2].to_vec(), flipped, Vec::new(), b"garbage".to_vec()] {
        std::fs::write(entry, &damaged).unwrap();
        let s = compile(&words, &layout, &WAVE32, &compiler);
        assert!(!s.from_cache);
        assert_eq!(s.elf, good);
        assert_eq!(std::fs::read(entry).unwrap(), bytes, "the entry is rewritten");
        assert!(compile(&words, &layout, &WAVE32, &compiler).from_cache);
    }
}

#[test]
fn unwritable_cache_directory_still_compiles() {
    let dir = TempDir::new("cache-unwritable");
    // A directory below a regular file cannot be created, even by root.
    std::fs::write(dir.path("file"), b"").unwrap();
    let cache = DiskCache::new(dir.path("file").join("cache"));
    let compiler = Compiler { backend: Backend::InProcess, cache: Some(&cache) };
    let (_, words, layout) = examples().swap_remove(0);
    for _ in 0..2 {
        let s = compile(&words, &layout, &WAVE32, &compiler);
        assert!(!s.from_cache);
        CodeObject::parse(&s.elf).unwrap();
    }
}

#[test]
fn no_cache_never_hits() {
    let (_, words, layout) = examples().swap_remove(0);
    for _ in 0..2 {
        assert!(!compile(&words, &layout, &WAVE32, &uncached(Backend::InProcess)).from_cache);
    }
}

#[test]
fn reflected_layouts_match_the_examples() {
    for (name, words, layout) in examples() {
        assert_eq!(reflect_layout(&words, "main").unwrap(), layout, "{name}");
    }
    // SPIR-V 1.0's BufferBlock storage buffers are storage buffers too.
    let words = glsl_to_spirv(&example("saxpy.comp"), None);
    assert_eq!(reflect_layout(&words, "main").unwrap(), examples()[0].2);
}

#[test]
fn reflection_finds_uniform_buffers_arrays_and_sparse_sets() {
    let dir = TempDir::new("reflect");
    let src = dir.path("r.comp");
    std::fs::write(
        &src,
        "#version 450\nlayout(local_size_x = 1) in;\n\
         layout(set = 0, binding = 2) uniform U { vec4 u; };\n\
         layout(set = 2, binding = 1, std430) buffer B { float b[]; } bufs[3];\n\
         layout(push_constant) uniform P { uint a; vec3 v; } pc;\n\
         void main() { bufs[1].b[0] = u.x + pc.v.y; }\n",
    )
    .unwrap();
    let words = glsl_to_spirv(&src, Some("vulkan1.1"));
    let layout = reflect_layout(&words, "main").unwrap();
    let set = |b: &[(u32, DescriptorKind, u32)]| {
        SetLayout::new(b.iter().map(|&(binding, kind, count)| Binding { binding, kind, count }).collect())
    };
    assert_eq!(
        layout,
        PipelineLayout {
            sets: vec![
                set(&[(2, DescriptorKind::UniformBuffer, 1)]),
                set(&[]),
                set(&[(1, DescriptorKind::StorageBuffer, 3)]),
            ],
            push_constant_size: 28, // the vec3 at offset 16 ends at 28
        }
    );
}

#[test]
fn reflection_rejects_malformed_spirv() {
    assert!(matches!(reflect_layout(&[1, 2, 3], "main"), Err(CompileError::Invalid(_))));
}
