//! The error type of compilation.

use crate::elf::ElfError;

/// Why a shader could not be compiled. `Invalid` and `Layout` are the application's
/// fault (invalid usage); `Unsupported` is ours (a feature not implemented yet).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CompileError {
    /// Malformed or invalid SPIR-V.
    #[error("invalid SPIR-V: {0}")]
    Invalid(String),
    /// Valid SPIR-V using an instruction, capability or feature we do not lower yet.
    #[error("unsupported SPIR-V: {what}")]
    Unsupported { what: String },
    /// The shader uses a resource the pipeline layout does not declare.
    #[error("shader does not match the pipeline layout: {0}")]
    Layout(String),
    /// LLVM (or a tool around it) failed; `log` is its diagnostic output.
    #[error("{tool} failed: {log}")]
    Llvm { tool: String, log: String },
    /// The LLVM tools could not be run at all.
    #[error("cannot run the LLVM tools: {0}")]
    Tool(String),
    /// LLVM produced a code object we cannot load (a bug on our side).
    #[error("generated code object is unusable: {0}")]
    CodeObject(#[from] ElfError),
}

impl CompileError {
    /// An `Unsupported` error, logged as a warning so unsupported features are visible
    /// even when the caller folds the error into a Vulkan result code.
    pub fn unsupported(what: impl Into<String>) -> Self {
        let what = what.into();
        tracing::warn!(what = %what, "unsupported SPIR-V feature");
        CompileError::Unsupported { what }
    }

    pub fn invalid(what: impl Into<String>) -> Self {
        CompileError::Invalid(what.into())
    }
}
