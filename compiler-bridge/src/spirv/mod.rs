//! Vulkan compute SPIR-V → LLVM IR text for `amdgcn-amd-amdhsa` (see `docs/ABI.md`).
//!
//! The pipeline: [`module::Module`] indexes the SPIR-V (types, decorations, constants with
//! specialisation applied, global variables, the entry point); [`func`] lowers each function
//! reachable from the entry point into an internal `alwaysinline` LLVM function; the kernel
//! `@main` is a thin wrapper that materialises the per-invocation variables (built-in inputs,
//! `Private` variables) and calls the entry function.
//!
//! One pointer model serves every storage class: a SPIR-V pointer is an opaque LLVM pointer
//! in the address space of its storage class, and access chains are byte offsets computed
//! from the explicit layout (`Offset`/`ArrayStride`) or, for storage classes without one, a
//! natural scalar-aligned layout ([`types`]).
//!
//! Nothing here may panic on any input: malformed SPIR-V is [`CompileError::Invalid`], and
//! anything valid but not lowered yet is [`CompileError::Unsupported`] naming the opcode,
//! capability or feature.

mod arith;
mod atomic;
mod consts;
pub mod features;
mod func;
mod glsl;
mod image;
mod matrix;
mod memory;
mod mimg;
mod module;
pub mod reflect;
mod specop;
mod subgroup;
mod types;

use rspirv::dr;

use crate::abi::PipelineLayout;
use crate::{CodegenOptions, CompileError};

pub(crate) type Id = spirv::Word;

/// A specialisation constant value, as in `VkSpecializationMapEntry` + data.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct SpecConstant {
    pub id: u32,
    pub data: Vec<u8>,
}

/// Everything that determines the compiled code of one compute pipeline.
#[derive(Clone, Copy, Debug)]
pub struct ShaderInput<'a> {
    pub spirv: &'a [u32],
    pub entry_point: &'a str,
    pub layout: &'a PipelineLayout,
    pub specialization: &'a [SpecConstant],
}

/// The result of lowering: LLVM IR and what the driver needs to know without compiling.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    pub ir: String,
    pub workgroup_size: [u32; 3],
    /// The kernel symbol in the IR: always "main" (see `docs/ABI.md`).
    pub kernel_name: String,
    pub uses_workgroup_memory: bool,
}

/// Name of the kernel every SPIR-V pipeline compiles to.
pub const KERNEL_NAME: &str = "main";

/// Largest SPIR-V version we parse (1.6).
const MAX_VERSION: u32 = 0x0001_0600;

/// Cheap check for `vkCreateShaderModule`: magic number, version ≤ 1.6, and the module
/// parses. Semantic problems are found later, by [`lower`].
pub fn validate_module(words: &[u32]) -> Result<(), CompileError> {
    parse(words).map(|_| ())
}

/// Lowers the entry point of `input` to LLVM IR for the default code generation options
/// (wave32).
pub fn lower(input: &ShaderInput) -> Result<Lowered, CompileError> {
    lower_with(input, &CodegenOptions::default())
}

/// [`lower`] for the given code generation options: the IR must be compiled with the same
/// ones, because the subgroup built-ins depend on the wave size (`SubgroupSize` is 32, or
/// 64 with [`CodegenOptions::wave64`]).
pub fn lower_with(input: &ShaderInput, opts: &CodegenOptions) -> Result<Lowered, CompileError> {
    let module = parse(input.spirv)?;
    let m = module::Module::new(&module, input.entry_point, input.specialization)?;
    func::lower_module(&m, input.layout, if opts.wave64 { 64 } else { 32 })
}

/// Parses SPIR-V words into rspirv's data representation.
pub(crate) fn parse(words: &[u32]) -> Result<dr::Module, CompileError> {
    let header = words.get(..5).ok_or_else(|| CompileError::invalid("shorter than the 5-word SPIR-V header"))?;
    if header[0] != spirv::MAGIC_NUMBER {
        return Err(CompileError::invalid(format!("bad magic number {:#010x}", header[0])));
    }
    let version = header[1];
    if version & 0xff00_00ff != 0 || !(0x0001_0000..=MAX_VERSION).contains(&version) {
        return Err(CompileError::unsupported(format!(
            "SPIR-V version {}.{}",
            (version >> 16) & 0xff,
            (version >> 8) & 0xff
        )));
    }
    let words = prepare(words)?;
    // rspirv is third-party code fed hostile input and asserts on a few malformed encodings:
    // `prepare` rules out the ones we know of, and any other panic is contained here.
    let result = std::panic::catch_unwind(|| rspirv::dr::load_words(&words));
    match result {
        Ok(Ok(m)) => Ok(m),
        Ok(Err(e)) => Err(CompileError::invalid(format!("parse error: {e}"))),
        Err(_) => Err(CompileError::invalid("parse error: malformed instruction stream")),
    }
}

/// Opcodes `prepare` looks at.
mod opcode {
    pub const NAME: u32 = 5;
    pub const MEMBER_NAME: u32 = 6;
    pub const EXT_INST_IMPORT: u32 = 11;
    pub const EXT_INST: u32 = 12;
    pub const EXECUTION_MODE: u32 = 16;
    pub const LABEL: u32 = 248;
    /// OpBranch ..= OpUnreachable: the block terminators.
    pub const TERMINATORS: std::ops::RangeInclusive<u32> = 249..=255;
    pub const TERMINATE_INVOCATION: u32 = 4416;
    pub const EXECUTION_MODE_ID: u32 = 331;
    pub const SPEC_CONSTANT_OP: u32 = 52;
}

/// Checks the instruction framing (every word count non-zero and within the module, which
/// rspirv's decoder assumes) and works around two gaps of rspirv 0.13's loader:
/// - `OpExecutionModeId` is rewritten into `OpExecutionMode` (same operand layout; rspirv
///   decodes the `*Id` modes' operands as ids anyway);
/// - `NonSemantic.*` extended instructions outside blocks (debug info at module scope) are
///   dropped: they have no semantics by definition;
/// - `OpName` / `OpMemberName` whose name is not UTF-8 (rspirv refuses the whole module;
///   the CTS's opname tests use such names) are dropped: names are debug information.
///
/// - `OpSpecConstantOp` `CompositeExtract` / `CompositeInsert` of several indices become
///   chains of one index each (`specop.rs`: rspirv refuses their operands).
///
/// It also refuses an `OpSpecConstantOp` whose operation has an operand rspirv's decoder
/// panics on (see [`spec_constant_operation_parses`]).
fn prepare(words: &[u32]) -> Result<Vec<u32>, CompileError> {
    let mut out = Vec::with_capacity(words.len());
    out.extend_from_slice(words.get(..5).unwrap_or(words));
    let mut split = specop::Splitter::new(words.get(3).copied().unwrap_or(0));
    let mut non_semantic = Vec::new();
    let mut in_block = false;
    let mut i = 5;
    while i < words.len() {
        let count = (words[i] >> 16) as usize;
        if count == 0 {
            return Err(CompileError::invalid(format!("instruction at word {i} has a word count of 0")));
        }
        let inst = words
            .get(i..i + count)
            .ok_or_else(|| CompileError::invalid(format!("instruction at word {i} runs past the end of the module")))?;
        i += count;
        split.note(inst);
        match inst[0] & 0xffff {
            opcode::EXT_INST_IMPORT if count >= 3 => {
                let name: Vec<u8> = inst[2..].iter().flat_map(|w| w.to_le_bytes()).take_while(|b| *b != 0).collect();
                if name.starts_with(b"NonSemantic.") {
                    non_semantic.push(inst[1]);
                }
            }
            opcode::EXT_INST if count >= 4 && !in_block && non_semantic.contains(&inst[3]) => continue,
            op @ (opcode::NAME | opcode::MEMBER_NAME)
                if !utf8_name(&inst[if op == opcode::NAME { 2 } else { 3 }.min(count)..]) =>
            {
                continue
            }
            opcode::SPEC_CONSTANT_OP if count >= 4 && !spec_constant_operation_parses(inst[3]) => {
                return Err(CompileError::invalid(format!(
                    "OpSpecConstantOp at word {} has operation {}, which is not a specialisation constant operation",
                    i - count,
                    inst[3]
                )));
            }
            opcode::SPEC_CONSTANT_OP if count >= 4 && split.split(inst, &mut out)? => continue,
            opcode::EXECUTION_MODE_ID => {
                out.push((inst[0] & 0xffff_0000) | opcode::EXECUTION_MODE);
                out.extend_from_slice(&inst[1..]);
                continue;
            }
            opcode::LABEL => in_block = true,
            op if opcode::TERMINATORS.contains(&op) || op == opcode::TERMINATE_INVOCATION => in_block = false,
            _ => {}
        }
        out.extend_from_slice(inst);
    }
    if let Some(b) = out.get_mut(3) {
        *b = split.bound;
    }
    Ok(out)
}

/// Whether rspirv 0.13 can decode an `OpSpecConstantOp` of operation `op`: it panics on
/// operations with context-dependent literals (OpConstant, OpSwitch, ...) or a nested
/// OpSpecConstantOp, none of which the specification allows there. Unknown operations
/// are its own decoding error.
fn spec_constant_operation_parses(op: u32) -> bool {
    use rspirv::grammar::OperandKind as K;
    rspirv::grammar::INSTRUCTION_TABLE.lookup_opcode(op).is_none_or(|g| {
        !g.operands.iter().any(|o| {
            matches!(
                o.kind,
                K::LiteralContextDependentNumber | K::LiteralSpecConstantOpInteger | K::PairLiteralIntegerIdRef
            )
        })
    })
}

/// Whether the literal string in `words` (NUL-terminated, or running to the end) is UTF-8.
fn utf8_name(words: &[u32]) -> bool {
    let bytes: Vec<u8> = words.iter().flat_map(|w| w.to_le_bytes()).take_while(|b| *b != 0).collect();
    std::str::from_utf8(&bytes).is_ok()
}

/// Checked operand access on rspirv instructions: every operand of an input instruction may
/// be missing or of the wrong kind.
pub(crate) trait InstExt {
    fn name(&self) -> String;
    fn id(&self, i: usize) -> Result<Id, CompileError>;
    fn lit(&self, i: usize) -> Result<u32, CompileError>;
    fn string(&self, i: usize) -> Result<&str, CompileError>;
    fn ids_from(&self, i: usize) -> Result<Vec<Id>, CompileError>;
    fn lits_from(&self, i: usize) -> Result<Vec<u32>, CompileError>;
    fn result(&self) -> Result<Id, CompileError>;
    fn rtype(&self) -> Result<Id, CompileError>;
    fn bad(&self, what: &str) -> CompileError;
}

impl InstExt for dr::Instruction {
    fn name(&self) -> String {
        format!("Op{}", self.class.opname)
    }

    fn bad(&self, what: &str) -> CompileError {
        CompileError::invalid(format!(
            "{}{}: {what}",
            self.name(),
            self.result_id.map_or(String::new(), |r| format!(" %{r}"))
        ))
    }

    fn id(&self, i: usize) -> Result<Id, CompileError> {
        match self.operands.get(i) {
            Some(dr::Operand::IdRef(id) | dr::Operand::IdScope(id) | dr::Operand::IdMemorySemantics(id)) => Ok(*id),
            _ => Err(self.bad(&format!("operand {i} is not an id"))),
        }
    }

    fn lit(&self, i: usize) -> Result<u32, CompileError> {
        match self.operands.get(i) {
            Some(dr::Operand::LiteralBit32(v) | dr::Operand::LiteralExtInstInteger(v)) => Ok(*v),
            _ => Err(self.bad(&format!("operand {i} is not a 32-bit literal"))),
        }
    }

    fn string(&self, i: usize) -> Result<&str, CompileError> {
        match self.operands.get(i) {
            Some(dr::Operand::LiteralString(s)) => Ok(s),
            _ => Err(self.bad(&format!("operand {i} is not a string"))),
        }
    }

    fn ids_from(&self, i: usize) -> Result<Vec<Id>, CompileError> {
        (i..self.operands.len()).map(|j| self.id(j)).collect()
    }

    fn lits_from(&self, i: usize) -> Result<Vec<u32>, CompileError> {
        (i..self.operands.len()).map(|j| self.lit(j)).collect()
    }

    fn result(&self) -> Result<Id, CompileError> {
        self.result_id.ok_or_else(|| self.bad("no result id"))
    }

    fn rtype(&self) -> Result<Id, CompileError> {
        self.result_type.ok_or_else(|| self.bad("no result type"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Vec<u32> {
        vec![spirv::MAGIC_NUMBER, 0x0001_0600, 0, 100, 0]
    }

    #[test]
    fn prepare_rewrites_execution_mode_id() {
        let mut w = header();
        w.extend([(6 << 16) | opcode::EXECUTION_MODE_ID, 1, spirv::ExecutionMode::LocalSizeId as u32, 2, 3, 4]);
        let out = prepare(&w).unwrap();
        assert_eq!(out[5], (6 << 16) | opcode::EXECUTION_MODE);
        assert_eq!(out[6..], w[6..]);
    }

    #[test]
    fn prepare_drops_module_scope_non_semantic_instructions() {
        let mut w = header();
        // %1 = OpExtInstImport "NonSemantic.X" (13 bytes + NUL = 4 words)
        let name = b"NonSemantic.X\0\0\0";
        w.push((6 << 16) | opcode::EXT_INST_IMPORT);
        w.push(1);
        w.extend(name.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])));
        // %3 = OpExtInst %void %1 7
        w.extend([(5 << 16) | opcode::EXT_INST, 2, 3, 1, 7]);
        let out = prepare(&w).unwrap();
        assert_eq!(out.len(), w.len() - 5);
    }

    /// Names that are not UTF-8 go (rspirv would refuse the module); UTF-8 ones stay.
    #[test]
    fn prepare_drops_names_that_are_not_utf8() {
        let mut w = header();
        w.extend([(3 << 16) | opcode::NAME, 1, u32::from_le_bytes([b'o', b'k', 0, 0])]);
        w.extend([(3 << 16) | opcode::NAME, 2, u32::from_le_bytes([0xff, 0xfe, 0, 0])]);
        w.extend([(4 << 16) | opcode::MEMBER_NAME, 3, 0, u32::from_le_bytes([b'a', 0xc3, 0, 0])]);
        let out = prepare(&w).unwrap();
        assert_eq!(out[5..], w[5..8]);
    }

    /// Fuzz finding (spirv, docs/FUZZING.md): `OpSpecConstantOp` whose operation is
    /// OpConstant made rspirv's decoder panic (contained by `parse`, but a panic); it is
    /// refused by name before rspirv sees it. Allowed operations still pass.
    #[test]
    fn prepare_refuses_spec_constant_operations_rspirv_cannot_decode() {
        for (op, ok) in [(43, false), (52, false), (251, false), (128, true), (0xffff, true)] {
            let mut w = header();
            w.extend([(6 << 16) | opcode::SPEC_CONSTANT_OP, 1, 2, op, 3, 4]); // %2 = OpSpecConstantOp %1 op %3 %4
            assert_eq!(prepare(&w).is_ok(), ok, "operation {op}");
        }
    }

    #[test]
    fn prepare_rejects_bad_framing() {
        let mut w = header();
        w.push(opcode::LABEL); // word count 0
        assert!(prepare(&w).is_err());
        let mut w = header();
        w.extend([(4 << 16) | opcode::LABEL, 1]); // claims 4 words, has 2
        assert!(prepare(&w).is_err());
    }

    #[test]
    fn unknown_version_is_unsupported() {
        let mut w = header();
        w[1] = 0x0001_0700;
        assert!(matches!(parse(&w), Err(CompileError::Unsupported { .. })));
        w[1] = 0x0002_0000;
        assert!(parse(&w).is_err());
    }
}
