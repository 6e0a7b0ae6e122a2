//! Buffer instructions (MUBUF, MTBUF) addressed through a V# (seed 002).

use super::vmem::access;
use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::{mflag, Inst, Operand};
use crate::isa::table::Ty;
use crate::rsrc::OobSelect;

impl Wave {
    pub(super) fn mubuf(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        if op.info().ty[0] == Ty::N {
            // buffer_gl0_inv, buffer_gl1_inv: caches are coherent in this model.
            return Ok(());
        }
        let exec = self.exec();
        let v = self.vsharp(&inst.src[2]);
        let soffset = self.s32(&inst.src[3]) as u64;
        let (size, signed) = access(op);
        let dwords = (size / 4).max(1) as usize;
        if v.swizzle_enable != 0 && v.stride != 0 {
            return Err(illegal("swizzled buffer addressing is not supported yet"));
        }
        let (idxen, offen) = (inst.flags & mflag::IDXEN != 0, inst.flags & mflag::OFFEN != 0);
        let vaddr = match inst.src[0] {
            Operand::Vgpr(r) => r,
            _ => 0,
        };
        let index_v = if idxen { self.vsrc(&Operand::Vgpr(vaddr)) } else { [0; 64] };
        let offset_v = if offen { self.vsrc(&Operand::Vgpr(vaddr.wrapping_add(idxen as u16))) } else { [0; 64] };
        // A V# whose type is not "buffer" does not match the instruction: loads return
        // nothing, stores do not write (seed 002, "resource-instruction mismatch").
        let active = if v.kind != 0 { 0 } else { exec };
        let mut addr = [0u64; 64];
        let mut ok = [0u8; 64];
        let chunk = size.min(4) as u64;
        for l in 0..self.lanes {
            if active >> l & 1 == 0 {
                continue;
            }
            let index = index_v[l] as u64 + if v.add_tid_enable { l as u64 } else { 0 };
            let offset = offset_v[l] as u64 + inst.imm as u64;
            // Linear addressing (seed 002, "buffer addressing"): the SGPR offset is part
            // of the base, not of the range-checked offset.
            let buffer_offset = v.stride as u64 * index + offset;
            addr[l] = v.base.wrapping_add(soffset).wrapping_add(buffer_offset);
            // Range check per dword for non-format accesses (seed 002, "range checking").
            for k in 0..dwords as u64 {
                let in_range = match v.oob_select {
                    OobSelect::StructuredWithOffset => {
                        index < v.num_records as u64 && offset + k * 4 + chunk <= v.stride as u64
                    }
                    OobSelect::Structured => index < v.num_records as u64,
                    OobSelect::Disabled => v.num_records != 0,
                    OobSelect::Raw => buffer_offset + k * 4 + chunk <= v.num_records as u64,
                };
                ok[l] |= (in_range as u8) << k;
            }
        }
        self.transfer(inst, ctx, &addr, &ok, size, signed)
    }

    pub(super) fn mtbuf(&mut self, inst: &Inst, _ctx: &mut Ctx) -> Result<(), FaultKind> {
        Err(illegal(format!("{} is not executed by softnavi", inst.op.name())))
    }
}
