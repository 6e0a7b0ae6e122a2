//! SPIR-V → AMDHSA gfx1100 code objects through LLVM 19, and the code object loader.
//!
//! This crate knows nothing about the GPU model or Vulkan objects: it turns Vulkan compute
//! SPIR-V into a code object ([`compile`]) and parses code objects ([`elf::CodeObject`];
//! Mesa's flavour, [`mesa::ConfigObject`], whose register values it reads with the register
//! definitions of `gpu::pm4`, the one thing of the `gpu` crate it uses). The kernarg and
//! descriptor layouts shared with the ICD are in [`abi`].

pub mod abi;
pub mod cache;
pub mod elf;
mod error;
pub mod hsa;
pub mod llvm;
pub mod mesa;
pub mod spirv;

pub use cache::DiskCache;
pub use error::CompileError;
pub use llvm::{Backend, CodegenOptions};
pub use spirv::features::{FloatControls, ShaderFeatures, FLOAT_CONTROLS, SHADER_FEATURES};
pub use spirv::reflect::reflect_layout;
pub use spirv::{lower, lower_with, validate_module, Lowered, ShaderInput, SpecConstant};

/// A compiled compute pipeline shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledShader {
    /// The AMDHSA code object (ET_DYN from the process backend, ET_REL from libLLVM),
    /// ready for [`elf::CodeObject::parse`].
    pub elf: Vec<u8>,
    pub kernel_name: String,
    pub workgroup_size: [u32; 3],
    /// The LLVM IR it was compiled from (for debugging and dumps).
    pub llvm_ir: String,
    /// The backend that built `elf` (possibly in an earlier process, when `from_cache`;
    /// `Process` when no compile server could be started).
    pub backend: Backend,
    /// Whether `elf` came from the disk cache.
    pub from_cache: bool,
}

/// How [`compile_using`] compiles: which LLVM, and which cache (if any).
#[derive(Clone, Copy, Debug)]
pub struct Compiler<'a> {
    pub backend: Backend,
    pub cache: Option<&'a DiskCache>,
}

impl Compiler<'static> {
    /// The environment's choice: `SOFTNAVI_LLVM` ([`llvm::default_backend`]) and
    /// `SOFTNAVI_CACHE_DIR` ([`DiskCache::from_env`]).
    pub fn from_env() -> Result<Self, CompileError> {
        Ok(Compiler { backend: llvm::default_backend()?, cache: DiskCache::from_env() })
    }
}

/// Compiles a Vulkan compute shader (wave32): SPIR-V → LLVM IR → code object, and checks
/// that the result loads and has the expected kernel.
pub fn compile(input: &ShaderInput) -> Result<CompiledShader, CompileError> {
    compile_with(input, &CodegenOptions::default())
}

/// [`compile`] with explicit code generation options (e.g. wave64).
pub fn compile_with(input: &ShaderInput, opts: &CodegenOptions) -> Result<CompiledShader, CompileError> {
    compile_using(input, opts, &Compiler::from_env()?)
}

/// [`compile_with`] by the given compiler: a valid cache entry is used as is; otherwise
/// LLVM compiles the IR and the object is stored in the cache.
pub fn compile_using(
    input: &ShaderInput,
    opts: &CodegenOptions,
    compiler: &Compiler,
) -> Result<CompiledShader, CompileError> {
    let start = std::time::Instant::now();
    let lowered = spirv::lower_with(input, opts)?;
    let lowered_at = start.elapsed();
    let cached = compiler.cache.and_then(|c| Some((c, cache::key_for(&lowered.ir, opts, compiler.backend)?)));

    let mut from_cache = false;
    let mut backend = compiler.backend;
    let mut elf = None;
    if let Some((cache, key)) = &cached {
        if let Some(object) = cache.get(key) {
            match check(&object, &lowered, input) {
                Ok(()) => {
                    from_cache = true;
                    elf = Some(object);
                }
                Err(e) => tracing::warn!(error = %e, "ignoring an unusable shader cache entry"),
            }
        }
    }
    let elf = match elf {
        Some(elf) => elf,
        None => {
            let (elf, fell_back) = llvm::compile_ir_by(&lowered.ir, opts, compiler.backend)?;
            check(&elf, &lowered, input)?;
            if fell_back {
                backend = Backend::Process;
            } else if let Some((cache, key)) = &cached {
                cache.put(key, &elf);
            }
            elf
        }
    };
    tracing::debug!(
        entry_point = input.entry_point,
        workgroup_size = ?lowered.workgroup_size,
        backend = backend.name(),
        from_cache,
        ir_bytes = lowered.ir.len(),
        elf_bytes = elf.len(),
        lower_us = lowered_at.as_micros() as u64,
        total_us = start.elapsed().as_micros() as u64,
        "compiled SPIR-V compute shader"
    );
    Ok(CompiledShader {
        elf,
        kernel_name: lowered.kernel_name,
        workgroup_size: lowered.workgroup_size,
        llvm_ir: lowered.ir,
        backend,
        from_cache,
    })
}

/// Checks that `elf` loads and has the kernel `lowered` promises with the ABI's kernarg
/// size.
fn check(elf: &[u8], lowered: &Lowered, input: &ShaderInput) -> Result<(), CompileError> {
    let co = elf::CodeObject::parse(elf)?;
    let kernel = co.kernel(&lowered.kernel_name).ok_or_else(|| {
        CompileError::CodeObject(elf::ElfError::Kernel {
            kernel: lowered.kernel_name.clone(),
            what: "missing from the compiled code object".into(),
        })
    })?;
    if kernel.metadata.kernarg_segment_size != input.layout.kernarg().size.max(16) {
        return Err(CompileError::CodeObject(elf::ElfError::Kernel {
            kernel: lowered.kernel_name.clone(),
            what: format!(
                "kernarg size {} differs from the ABI's {}",
                kernel.metadata.kernarg_segment_size,
                input.layout.kernarg().size
            ),
        }));
    }
    Ok(())
}
