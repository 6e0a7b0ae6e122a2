//! The RDNA3 shader ISA: the opcode [`table`], the [`decode`]r, the [`disasm`]bler (LLVM
//! syntax), predecoded [`program`]s and the wave [`exec`]utor.

pub mod decode;
pub mod disasm;
pub mod exec;
pub mod program;
pub mod rules;
pub mod table;
