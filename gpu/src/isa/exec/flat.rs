//! FLAT, GLOBAL and SCRATCH instructions: 64-bit addresses, and per-lane private memory
//! through FLAT_SCRATCH.

use super::vmem::{access, is_store, narrow};
use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::F;

impl Wave {
    pub(super) fn global(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let (size, signed) = access(inst.op);
        let dwords = (size / 4).max(1);
        // saddr form: 64-bit SGPR base + 32-bit VGPR offset; otherwise a 64-bit VGPR address.
        let saddr = match inst.src[2] {
            Operand::Sgpr(_) => Some(self.s64(&inst.src[2])),
            _ => None,
        };
        let (lo, hi) = match inst.src[0] {
            Operand::Vgpr(r) => (self.vsrc(&Operand::Vgpr(r)), self.vsrc(&Operand::Vgpr(r.wrapping_add(1)))),
            _ => ([0; 64], [0; 64]),
        };
        let mut addr = [0u64; 64];
        let mut ok = [0u8; 64];
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let base = match saddr {
                Some(s) => s.wrapping_add(lo[l] as u64),
                None => lo[l] as u64 | (hi[l] as u64) << 32,
            };
            addr[l] = base.wrapping_add(inst.imm as i64 as u64);
            ok[l] = ((1u32 << dwords) - 1) as u8;
        }
        if inst.op.info().flags & F::ATOMIC != 0 {
            return self.atomic(inst, ctx, &addr, exec);
        }
        self.transfer(inst, ctx, &addr, &ok, size, signed)
    }

    /// Scratch (private) memory through FLAT_SCRATCH. Each lane has its own private
    /// address space; the wave's memory interleaves lanes per dword (address `a` of lane
    /// `l` is at `FLAT_SCRATCH + (a / 4) * lanes * 4 + l * 4 + a % 4`), the swizzle the
    /// hardware applies so that a wave's accesses to one private address are contiguous.
    pub(super) fn scratch(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let (size, signed) = access(inst.op);
        let dwords = (size / 4).max(1) as usize;
        let store = is_store(inst.op);
        let vaddr = if matches!(inst.src[0], Operand::Vgpr(_)) { self.vsrc(&inst.src[0]) } else { [0; 64] };
        let saddr = match inst.src[2] {
            Operand::Sgpr(_) => self.s32(&inst.src[2]),
            _ => 0,
        };
        let data = if store { self.vsrc_n(&inst.src[1], dwords) } else { [[0; 64]; 4] };
        let mut out = [[0u32; 64]; 4];
        let lanes = self.lanes as u64;
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let off = vaddr[l].wrapping_add(saddr).wrapping_add(inst.imm as u32) as u64;
            let mut bytes = [0u8; 16];
            if store {
                for k in 0..dwords {
                    bytes[4 * k..4 * k + 4].copy_from_slice(&data[k][l].to_le_bytes());
                }
            }
            // Byte by byte unless dword aligned, since the swizzle is per dword.
            let step = if off % 4 == 0 && size >= 4 { 4 } else { 1 };
            let mut b = 0u64;
            while b < size as u64 {
                let a = off + b;
                let phys = self.flat_scratch.wrapping_add((a / 4) * lanes * 4 + l as u64 * 4 + a % 4);
                let chunk = &mut bytes[b as usize..(b + step) as usize];
                if store {
                    ctx.tlb.write(ctx.vm, phys, chunk)?;
                } else {
                    ctx.tlb.read(ctx.vm, phys, chunk)?;
                }
                b += step;
            }
            if !store {
                for k in 0..dwords {
                    let w = [bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]];
                    out[k][l] = narrow(w, size, signed);
                }
            }
        }
        if !store {
            for (k, vals) in out.iter().enumerate().take(dwords) {
                let d = self.reg_plus(&inst.dst, k);
                self.vdst(&d, vals, exec);
            }
        }
        Ok(())
    }

    pub(super) fn flat(&mut self, inst: &Inst, _ctx: &mut Ctx) -> Result<(), FaultKind> {
        Err(illegal(format!("{} is not executed by softnavi", inst.op.name())))
    }
}
