//! SPIR-V → AMDHSA gfx1100 code objects through LLVM 19, and the code object loader.
//!
//! This crate knows nothing about the GPU model or Vulkan objects: it turns Vulkan compute
//! SPIR-V into a code object ([`compile`]) and parses code objects ([`elf::CodeObject`]).
//! The kernarg and descriptor layouts shared with the ICD are in [`abi`].

pub mod abi;
pub mod elf;
mod error;
pub mod hsa;
pub mod llvm;
pub mod spirv;

pub use error::CompileError;
pub use llvm::CodegenOptions;
pub use spirv::features::{ShaderFeatures, SHADER_FEATURES};
pub use spirv::{lower, lower_with, validate_module, Lowered, ShaderInput, SpecConstant};

/// A compiled compute pipeline shader.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledShader {
    /// The AMDHSA code object (ET_DYN), ready for [`elf::CodeObject::parse`].
    pub elf: Vec<u8>,
    pub kernel_name: String,
    pub workgroup_size: [u32; 3],
    /// The LLVM IR it was compiled from (for debugging and dumps).
    pub llvm_ir: String,
}

/// Compiles a Vulkan compute shader (wave32): SPIR-V → LLVM IR → code object, and checks
/// that the result loads and has the expected kernel.
pub fn compile(input: &ShaderInput) -> Result<CompiledShader, CompileError> {
    compile_with(input, &CodegenOptions::default())
}

/// [`compile`] with explicit code generation options (e.g. wave64).
pub fn compile_with(input: &ShaderInput, opts: &CodegenOptions) -> Result<CompiledShader, CompileError> {
    let start = std::time::Instant::now();
    let lowered = spirv::lower_with(input, opts)?;
    let lowered_at = start.elapsed();
    let elf = llvm::compile_ir(&lowered.ir, opts)?;
    tracing::debug!(
        entry_point = input.entry_point,
        workgroup_size = ?lowered.workgroup_size,
        ir_bytes = lowered.ir.len(),
        elf_bytes = elf.len(),
        lower_us = lowered_at.as_micros() as u64,
        total_us = start.elapsed().as_micros() as u64,
        "compiled SPIR-V compute shader"
    );
    let co = elf::CodeObject::parse(&elf)?;
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
    Ok(CompiledShader {
        elf,
        kernel_name: lowered.kernel_name,
        workgroup_size: lowered.workgroup_size,
        llvm_ir: lowered.ir,
    })
}
