//! What the vector memory instructions (MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH) and LDS
//! share: narrow loads, the alignment modes, the VGPR range rules, the V#, multi-register
//! data operands, and the atomic operation of each opcode.
//!
//! Every access goes through the address space's translation, so a bad address is a VM
//! fault report, never a host crash. Memory operations complete at once in this model.

use super::{FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::Op;
use crate::mem::atomic::AtomicOp;
use crate::rsrc::BufferResource;
use crate::spi::AlignMode;

pub(super) fn narrow(bytes: [u8; 4], size: u32, signed: bool) -> u32 {
    match (size, signed) {
        (1, false) => bytes[0] as u32,
        (1, true) => bytes[0] as i8 as i32 as u32,
        (2, false) => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        (2, true) => i16::from_le_bytes([bytes[0], bytes[1]]) as i32 as u32,
        _ => u32::from_le_bytes(bytes),
    }
}

/// Seed 002, "对齐" and seed 000, "内存对齐和超出范围行为": where an access of `size`
/// bytes (a non-format access's whole size, a format access's component) at `addr` goes
/// under SH_MEM_CONFIG.ALIGNMENT_MODE, or `None` if it is misaligned under a strict mode
/// (the lane's load returns zero, its store is dropped, and the instruction raises
/// MEMVIOL). DWORD mode aligns down to the smaller of the size and a dword.
pub(super) fn aligned(mode: AlignMode, addr: u64, size: u32) -> Option<u64> {
    let dword_unit = size.clamp(1, 4) as u64;
    match mode {
        AlignMode::Unaligned => Some(addr),
        AlignMode::Dword => Some(addr & !(dword_unit - 1)),
        AlignMode::DwordStrict => (addr % dword_unit == 0).then_some(addr),
        AlignMode::Strict => {
            // Data size, for sizes that are not a power of two (b96) its largest power of
            // two factor.
            let unit = 1u64 << (size.max(1)).trailing_zeros();
            (addr % unit == 0).then_some(addr)
        }
    }
}

/// The MEMVIOL an instruction raises after it completed with some lanes misaligned.
pub(super) fn misaligned(inst: &Inst, mode: AlignMode, lane: usize, addr: u64) -> FaultKind {
    FaultKind::MemoryViolation(format!(
        "{} of lane {lane} at {addr:#x} is misaligned under SH_MEM_CONFIG.ALIGNMENT_MODE {mode:?}",
        inst.op.name()
    ))
}

impl Wave {
    /// Whether VGPRs `first .. first + n` are all allocated to the wave (seed 000, "VGPR
    /// 超出范围行为"). A memory instruction whose returned registers are not is issued as
    /// if EXEC were zero; one whose source registers are not reads v0 for them.
    pub(super) fn vgprs_in_range(&self, first: u16, n: u32) -> bool {
        first as u32 + n <= self.vgprs
    }

    /// A memory instruction's source VGPR `op`, or v0's value if it is not allocated.
    pub(super) fn vmem_src(&self, op: &Operand) -> [u32; 64] {
        match *op {
            Operand::Vgpr(r) if !self.vgprs_in_range(r, 1) => self.vsrc(&Operand::Vgpr(0)),
            _ => self.vsrc(op),
        }
    }

    /// The V# in the four SGPRs starting at `op` (4-aligned: the low bits are ignored).
    pub(super) fn vsharp(&self, op: &Operand) -> BufferResource {
        let Operand::Sgpr(i) = *op else { return BufferResource::decode([0; 4]) };
        let i = (i & !3) as usize;
        BufferResource::decode([self.sget(i), self.sget(i + 1), self.sget(i + 2), self.sget(i + 3)])
    }

    /// The `k`-th register after `op` (for multi-dword data operands).
    pub(super) fn reg_plus(&self, op: &Operand, k: usize) -> Operand {
        match *op {
            Operand::Vgpr(r) => Operand::Vgpr(r.wrapping_add(k as u16)),
            o => o,
        }
    }
}

/// The memory operation of a buffer, global or flat atomic, from its name: the part
/// after `_atomic_` is the same in every encoding (`add_u32`, `cmpswap_b64`, `max_f32`).
pub(super) fn atomic_op(op: Op) -> Option<AtomicOp> {
    use AtomicOp as A;
    let (_, what) = op.name().split_once("_atomic_")?;
    let (stem, ty) = what.rsplit_once('_')?;
    Some(match (stem, ty.as_bytes()[0]) {
        ("swap", _) => A::Swap,
        ("cmpswap", b'f') => A::FCmpSwap,
        ("cmpswap", _) => A::CmpSwap,
        ("add", b'f') => A::FAdd,
        ("add", _) => A::Add,
        ("sub", _) => A::Sub,
        ("csub", _) => A::CSub,
        ("min", b'i') => A::SMin,
        ("min", b'u') => A::UMin,
        ("min", b'f') => A::FMin,
        ("max", b'i') => A::SMax,
        ("max", b'u') => A::UMax,
        ("max", b'f') => A::FMax,
        ("and", _) => A::And,
        ("or", _) => A::Or,
        ("xor", _) => A::Xor,
        ("inc", _) => A::Inc,
        ("dec", _) => A::Dec,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::table::{F, OPS};

    /// Every buffer, global and flat atomic has its memory operation, in its width.
    #[test]
    fn every_atomic_opcode_has_an_operation() {
        let vmem = |n: &str| ["buffer_", "global_", "flat_"].iter().any(|p| n.starts_with(p));
        for info in OPS.iter().filter(|i| i.flags & F::ATOMIC != 0 && vmem(i.name)) {
            let op = atomic_op(info.op);
            assert!(op.is_some(), "{} has no operation", info.name);
            if let Some(op) = op.filter(|_| info.ty[0].dwords(false) == 2) {
                let m = std::sync::atomic::AtomicU64::new(0);
                assert!(crate::mem::atomic::apply64(op, &m, 1, 0).is_some(), "{}", info.name);
            }
        }
    }
}
