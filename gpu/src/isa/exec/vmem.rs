//! What the vector memory instructions (MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH) and LDS
//! share: access sizes, multi-register data operands, moving a wave's data once its
//! addresses are known, and the atomic read-modify-write of one lane.
//!
//! Every access goes through the address space's translation, so a bad address is a VM
//! fault report, never a host crash. Memory operations complete at once in this model.

use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::{mflag, Inst, Operand};
use crate::isa::table::Op::{self, *};
use crate::isa::table::{Encoding, Ty};
use crate::mem::atomic::{self, AtomicError, AtomicOp};
use crate::rsrc::BufferResource;
use crate::spi::AlignMode;

/// Bytes an access moves per lane, and whether a narrow load sign-extends.
pub(super) fn access(op: Op) -> (u32, bool) {
    match op {
        BUFFER_LOAD_U8 | GLOBAL_LOAD_U8 | SCRATCH_LOAD_U8 | BUFFER_STORE_B8 | GLOBAL_STORE_B8 | SCRATCH_STORE_B8
        | DS_STORE_B8 | DS_LOAD_U8 => (1, false),
        BUFFER_LOAD_I8 | GLOBAL_LOAD_I8 | SCRATCH_LOAD_I8 => (1, true),
        BUFFER_LOAD_U16 | GLOBAL_LOAD_U16 | SCRATCH_LOAD_U16 | BUFFER_STORE_B16 | GLOBAL_STORE_B16
        | SCRATCH_STORE_B16 | DS_STORE_B16 | DS_LOAD_U16 => (2, false),
        BUFFER_LOAD_I16 | GLOBAL_LOAD_I16 | SCRATCH_LOAD_I16 => (2, true),
        _ => (4 * data_dwords(op), false),
    }
}

/// Dwords of data per lane and element: DS rows list vdst, addr, data0 and data1 (a
/// 2addr load returns two elements), the other encodings the data width first.
pub(super) fn data_dwords(op: Op) -> u32 {
    let info = op.info();
    match info.enc {
        Encoding::Ds if info.ty[2] != Ty::N => info.ty[2].dwords(false),
        Encoding::Ds if info.name.contains("2addr") => info.ty[0].dwords(false) / 2,
        _ => info.ty[0].dwords(false),
    }
}

pub(super) fn is_store(op: Op) -> bool {
    op.name().contains("_store_")
}

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
#[allow(dead_code)] // until the memory encodings apply the alignment modes
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
#[allow(dead_code)]
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

    /// Per-lane values of `n` (at most 4) consecutive data registers starting at `op`.
    pub(super) fn vsrc_n(&self, op: &Operand, n: usize) -> [[u32; 64]; 4] {
        let mut out = [[0u32; 64]; 4];
        for (k, o) in out.iter_mut().enumerate().take(n.min(4)) {
            *o = self.vsrc(&self.reg_plus(op, k));
        }
        out
    }

    /// The `k`-th register after `op` (for multi-dword data operands).
    pub(super) fn reg_plus(&self, op: &Operand, k: usize) -> Operand {
        match *op {
            Operand::Vgpr(r) => Operand::Vgpr(r.wrapping_add(k as u16)),
            o => o,
        }
    }

    /// Moves the data of a vector memory instruction once its addresses are known: lane
    /// `l` accesses dword `k` at `addr[l] + 4k` when bit `k` of `ok[l]` is set (loads of
    /// the others return zero). When all accesses fall in one buffer object it is
    /// translated once; otherwise each access is translated on its own, so that a fault
    /// reports the exact address.
    pub(super) fn transfer(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[u64; 64],
        ok: &[u8; 64],
        size: u32,
        signed: bool,
    ) -> Result<(), FaultKind> {
        let store = is_store(inst.op);
        let dwords = (size / 4).max(1) as usize;
        let chunk = size.min(4) as u64;
        let data = if store { self.vsrc_n(&inst.src[1], dwords) } else { [[0; 64]; 4] };
        let mut out = [[0u32; 64]; 4];
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for l in 0..self.lanes {
            if ok[l] != 0 {
                lo = lo.min(addr[l]);
                hi = hi.max(addr[l].saturating_add(4 * (dwords as u64 - 1) + chunk));
            }
        }
        if lo < hi {
            if let Ok(base) = ctx.tlb.translate(ctx.vm, lo, hi - lo, store) {
                for l in 0..self.lanes {
                    for k in 0..dwords {
                        if ok[l] >> k & 1 == 0 {
                            continue;
                        }
                        // SAFETY: translate() checked that [lo, hi) lies in one BO, and this
                        // access is inside [lo, hi).
                        unsafe {
                            let p = base.add((addr[l] + 4 * k as u64 - lo) as usize);
                            if store {
                                let v = data[k][l];
                                match chunk {
                                    4 => (p as *mut u32).write_unaligned(v),
                                    2 => (p as *mut u16).write_unaligned(v as u16),
                                    _ => *p = v as u8,
                                }
                            } else {
                                let v = match chunk {
                                    4 => (p as *const u32).read_unaligned(),
                                    2 => (p as *const u16).read_unaligned() as u32,
                                    _ => *p as u32,
                                };
                                out[k][l] = narrow(v.to_le_bytes(), size, signed);
                            }
                        }
                    }
                }
            } else {
                for l in 0..self.lanes {
                    for k in 0..dwords {
                        if ok[l] >> k & 1 == 0 {
                            continue;
                        }
                        let a = addr[l] + 4 * k as u64;
                        if store {
                            ctx.tlb.write(ctx.vm, a, &data[k][l].to_le_bytes()[..chunk as usize])?;
                        } else {
                            let mut b = [0u8; 4];
                            ctx.tlb.read(ctx.vm, a, &mut b[..chunk as usize])?;
                            out[k][l] = narrow(b, size, signed);
                        }
                    }
                }
            }
        }
        if !store {
            let exec = self.exec();
            for (k, vals) in out.iter().enumerate().take(dwords) {
                let d = self.reg_plus(&inst.dst, k);
                self.vdst(&d, vals, exec);
            }
        }
        Ok(())
    }

    /// A global atomic: each active lane, in lane order, does one indivisible
    /// read-modify-write of memory with the host's atomics, so atomics from waves on other
    /// worker threads (and the CP) never interleave inside one. With GLC the value memory
    /// held before is returned to VDST. Seed 000, "内存对齐和超出范围行为" (memory alignment and
    /// out-of-range behaviour): an atomic not aligned to its data size is a MEMVIOL.
    pub(super) fn atomic(&mut self, inst: &Inst, ctx: &mut Ctx, addr: &[u64; 64], exec: u64) -> Result<(), FaultKind> {
        let info = inst.op.info();
        let wide = info.ty[0].dwords(false) == 2;
        let op = atomic_op(inst.op).ok_or_else(|| illegal(format!("{} is not an atomic", info.name)))?;
        let data = self.vsrc_n(&inst.src[1], info.ty[1].dwords(false) as usize);
        let mut old = [0u64; 64];
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let (src, cmp) = if wide {
                (data[0][l] as u64 | (data[1][l] as u64) << 32, data[2][l] as u64 | (data[3][l] as u64) << 32)
            } else {
                (data[0][l] as u64, data[1][l] as u64)
            };
            old[l] = atomic::at(ctx.tlb, ctx.vm, addr[l], wide, op, src, cmp).map_err(|e| match e {
                AtomicError::Misaligned => FaultKind::MemoryViolation(format!(
                    "{}-byte atomic at {:#x} is not aligned to its size",
                    if wide { 8 } else { 4 },
                    addr[l]
                )),
                AtomicError::Fault(f) => FaultKind::Vm(f),
                AtomicError::NoSuchWidth => illegal(format!("{} has no {}-bit form", info.name, 32 << wide as u32)),
            })?;
        }
        if inst.flags & mflag::GLC != 0 {
            if wide {
                self.vdst64(&inst.dst, &old, exec);
            } else {
                self.vdst(&inst.dst, &old.map(|v| v as u32), exec);
            }
        }
        Ok(())
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
                assert!(atomic::apply64(op, &m, 1, 0).is_some(), "{}", info.name);
            }
        }
    }
}
