//! `OpAtomic*`: LLVM `atomicrmw` / `cmpxchg` / atomic `load` and `store` on a pointer in
//! any address space (buffer fat pointers, LDS, global), so that every storage class the
//! pointer model handles gets atomics without code of its own. LLVM expands what the target
//! lacks (64-bit float add, float min/max on buffers) into compare-and-swap loops.

use rspirv::dr;
use spirv::Op;

use super::func::{sync_scope, FnCx};
use super::types::Type;
use super::InstExt;
use crate::CompileError;

/// Memory-semantics ordering bits (Acquire, Release, AcquireRelease, SequentiallyConsistent).
const ACQUIRE: u64 = 0x2;
const RELEASE: u64 = 0x4;
const ACQ_REL: u64 = 0x8;
const SEQ_CST: u64 = 0x10;
/// Vulkan memory model `Volatile` semantics: the access may not be elided or merged.
const VOLATILE: u64 = 0x8000;

/// What an atomic instruction may do with the ordering of its semantics.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Access {
    Load,
    Store,
    ReadModifyWrite,
}

/// LLVM ordering of SPIR-V memory semantics for an access of kind `access`: Relaxed is
/// `monotonic`; an ordering an access cannot have (release on a load, acquire on a store) is
/// dropped, which is what SPIR-V means by it.
fn ordering(sem: u64, access: Access) -> &'static str {
    let (acquire, release) =
        if sem & (SEQ_CST | ACQ_REL) != 0 { (true, true) } else { (sem & ACQUIRE != 0, sem & RELEASE != 0) };
    match (access, acquire, release) {
        (Access::Load, true, _) | (Access::ReadModifyWrite, true, false) => "acquire",
        (Access::Store, _, true) | (Access::ReadModifyWrite, false, true) => "release",
        (Access::ReadModifyWrite, true, true) if sem & SEQ_CST != 0 => "seq_cst",
        (Access::ReadModifyWrite, true, true) => "acq_rel",
        _ => "monotonic",
    }
}

/// ` syncscope("...")` of a SPIR-V scope: Invocation is `singlethread`, CrossDevice the
/// system scope (no syncscope).
fn scope_text(scope: u64) -> Result<String, CompileError> {
    Ok(match sync_scope(scope)? {
        None => " syncscope(\"singlethread\")".into(),
        Some("") => String::new(),
        Some(s) => format!(" syncscope(\"{s}\")"),
    })
}

/// The `atomicrmw` operation of a read-modify-write opcode.
fn rmw_op(op: Op) -> Option<&'static str> {
    Some(match op {
        Op::AtomicIIncrement | Op::AtomicIAdd => "add",
        Op::AtomicIDecrement | Op::AtomicISub => "sub",
        Op::AtomicSMin => "min",
        Op::AtomicUMin => "umin",
        Op::AtomicSMax => "max",
        Op::AtomicUMax => "umax",
        Op::AtomicAnd => "and",
        Op::AtomicOr => "or",
        Op::AtomicXor => "xor",
        Op::AtomicFAddEXT => "fadd",
        Op::AtomicFMinEXT => "fmin",
        Op::AtomicFMaxEXT => "fmax",
        _ => return None,
    })
}

impl FnCx<'_, '_> {
    /// Lowers one `OpAtomic*` instruction.
    pub(super) fn atomic(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        if let Some(tp) = self.texel_ptrs.get(&inst.id(0)?).cloned() {
            return self.texel_atomic(inst, tp);
        }
        let ptr = self.val(inst.id(0)?)?;
        let (asp, _, pointee) = self.pointer_info(&ptr)?;
        let scope = scope_text(self.m.const_u64(inst.id(1)?)?)?;
        let sem = self.m.const_u64(inst.id(2)?)?;
        let vol = if sem & VOLATILE != 0 { " volatile" } else { "" };
        let float = match self.m.ty(pointee)? {
            Type::Int { width: 32 | 64, .. } => false,
            Type::Float { width: 32 | 64 } => true,
            Type::Int { width, .. } | Type::Float { width } => {
                return Err(CompileError::unsupported(format!("{} on a {width}-bit value", inst.name())))
            }
            _ => return Err(inst.bad("the pointer is not to an integer or float scalar")),
        };
        let float_op = matches!(op, Op::AtomicFAddEXT | Op::AtomicFMinEXT | Op::AtomicFMaxEXT);
        let any_type = matches!(op, Op::AtomicLoad | Op::AtomicStore | Op::AtomicExchange);
        if float != float_op && !any_type {
            return Err(inst.bad("operand type does not suit the operation"));
        }
        let t = self.m.llty(pointee)?;
        let align = self.m.scalar_size(pointee)?;
        let pt = format!("{} {}", super::types::ptr_ty(asp), ptr.text);
        // Loads, stores and exchanges move bits: they are done on integers, because LLVM 19
        // cannot select a 64-bit float exchange on a buffer fat pointer.
        let it = format!("i{}", 8 * align);
        match op {
            Op::AtomicLoad => {
                let order = ordering(sem, Access::Load);
                let r = self.def(format!("load atomic{vol} {it}, {pt}{scope} {order}, align {align}"));
                self.define(inst, format!("bitcast {it} {r} to {t}"))
            }
            Op::AtomicStore => {
                let v = self.val(inst.id(3)?)?;
                let bits = self.def(format!("bitcast {t} {} to {it}", v.text));
                let order = ordering(sem, Access::Store);
                self.emit(format!("store atomic{vol} {it} {bits}, {pt}{scope} {order}, align {align}"));
                Ok(())
            }
            Op::AtomicExchange => {
                let v = self.val(inst.id(3)?)?;
                let bits = self.def(format!("bitcast {t} {} to {it}", v.text));
                let order = ordering(sem, Access::ReadModifyWrite);
                let r = self.def(format!("atomicrmw{vol} xchg {pt}, {it} {bits}{scope} {order}, align {align}"));
                self.define(inst, format!("bitcast {it} {r} to {t}"))
            }
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => {
                if float {
                    return Err(inst.bad("compare-exchange of a float"));
                }
                let unequal = self.m.const_u64(inst.id(3)?)?;
                let (v, cmp) = (self.val(inst.id(4)?)?, self.val(inst.id(5)?)?);
                // The failure ordering is that of a load; LLVM wants success at least as strong.
                let fail = ordering(unequal, Access::Load);
                let mut success = ordering(sem, Access::ReadModifyWrite);
                if fail == "acquire" && success == "monotonic" {
                    success = "acquire";
                } else if fail == "acquire" && success == "release" {
                    success = "acq_rel";
                }
                // A weak compare-exchange may fail spuriously: the strong one is a valid one.
                let pair = self.def(format!(
                    "cmpxchg{vol} {pt}, {t} {}, {t} {}{scope} {success} {fail}, align {align}",
                    cmp.text, v.text
                ));
                self.define(inst, format!("extractvalue {{ {t}, i1 }} {pair}, 0"))
            }
            _ => {
                let llop = rmw_op(op).ok_or_else(|| CompileError::unsupported(inst.name()))?;
                let v = match op {
                    Op::AtomicIIncrement | Op::AtomicIDecrement => "1".to_string(),
                    _ => self.val(inst.id(3)?)?.text,
                };
                let order = ordering(sem, Access::ReadModifyWrite);
                self.define(inst, format!("atomicrmw{vol} {llop} {pt}, {t} {v}{scope} {order}, align {align}"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn semantics_map_to_orderings() {
        assert_eq!(ordering(0, Access::ReadModifyWrite), "monotonic");
        assert_eq!(ordering(0x48, Access::ReadModifyWrite), "acq_rel");
        assert_eq!(ordering(0x50, Access::ReadModifyWrite), "seq_cst");
        assert_eq!(ordering(0x42, Access::ReadModifyWrite), "acquire");
        assert_eq!(ordering(0x44, Access::Load), "monotonic");
        assert_eq!(ordering(0x48, Access::Load), "acquire");
        assert_eq!(ordering(0x42, Access::Store), "monotonic");
        assert_eq!(ordering(0x10, Access::Store), "release");
        assert_eq!(scope_text(4).unwrap(), " syncscope(\"singlethread\")");
        assert_eq!(scope_text(1).unwrap(), " syncscope(\"agent\")");
        assert_eq!(scope_text(5).unwrap(), " syncscope(\"agent\")");
        assert_eq!(scope_text(3).unwrap(), " syncscope(\"wavefront\")");
        assert_eq!(scope_text(2).unwrap(), " syncscope(\"workgroup\")");
        assert_eq!(scope_text(0).unwrap(), "");
    }
}
