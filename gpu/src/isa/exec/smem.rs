//! Scalar memory (SMEM): s_load, s_buffer_load and the scalar cache controls.

use super::{Ctx, FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::Op::*;
use crate::isa::table::Ty;

impl Wave {
    pub(super) fn smem(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        if inst.op.info().ty[0] == Ty::N {
            // s_dcache_inv, s_gl1_inv: caches are coherent in this model. s_atc_probe and
            // s_atc_probe_buffer only warm the address translation cache: no
            // architectural effect, and no fault even for an unmapped address.
            return Ok(());
        }
        let n = inst.op.info().ty[0].dwords(false) as usize;
        let soffset = match inst.src[1] {
            Operand::Sgpr(_) => self.s32(&inst.src[1]),
            _ => 0,
        };
        let offset = (inst.imm as i64 + soffset as i64) as u64;
        let mut data = [0u32; 16];
        let buffer = matches!(
            inst.op,
            S_BUFFER_LOAD_B32 | S_BUFFER_LOAD_B64 | S_BUFFER_LOAD_B128 | S_BUFFER_LOAD_B256 | S_BUFFER_LOAD_B512
        );
        if buffer {
            // s_buffer_load: per dword, out of range if offset >= stride_or_1 * num_records
            // (RDNA3-NOTES, "Scalar buffer loads"); out-of-range dwords read zero.
            let v = self.vsharp(&inst.src[0]);
            let limit = v.num_records as u64 * (v.stride.max(1) as u64);
            let base = offset & !3;
            for (k, d) in data.iter_mut().enumerate().take(n) {
                let off = base + 4 * k as u64;
                if off < limit {
                    *d = ctx.tlb.read_u32(ctx.vm, v.base.wrapping_add(off))?;
                }
            }
        } else {
            let base = self.s64(&inst.src[0]) & 0xffff_ffff_ffff;
            // Scalar loads are dword aligned: the low two address bits are ignored.
            let addr = base.wrapping_add(offset) & !3;
            let mut bytes = [0u8; 64];
            ctx.tlb.read(ctx.vm, addr, &mut bytes[..4 * n])?;
            for (k, d) in data.iter_mut().enumerate().take(n) {
                *d = u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]);
            }
        }
        if let Operand::Sgpr(d) = inst.dst {
            for (k, v) in data.iter().enumerate().take(n) {
                self.sset(d as usize + k, *v);
            }
        }
        Ok(())
    }
}
