//! Cross-lane operations: DPP16 and DPP8 source permutation for every VALU opcode that
//! has a DPP form, v_permlane16 / v_permlanex16 / v_permlane64, v_movrel*, v_swap*.
//!
//! DPP (RDNA3 ISA reference, "Data Parallel Processing"; LLVM's AMDGPUModifierSyntax,
//! `dpp16_ctrl`, `row_mask`, `bank_mask`, `bound_ctrl`, `fi`): src0 of lane `l` is read from
//! another lane of the same row (16 lanes; DPP8: group of 8). A source lane is *invalid*
//! when the control points outside the row (row_shl / row_shr), or when it is inactive
//! (EXEC bit clear) and FI is clear. DPP16: an invalid source gives 0 with BOUND_CTRL set;
//! with BOUND_CTRL clear the lane is not written. DPP8 has no out-of-row sources, and an
//! inactive source gives 0 unless FI is set. ROW_MASK / BANK_MASK disable lanes (rows of
//! 16, banks of 4 lanes within each row). A disabled lane is treated as an EXEC-disabled
//! lane for the whole instruction: its VGPR is not written, and a mask it writes (v_cmp,
//! carry-out, v_cmpx's EXEC) gets 0 for it, as an inactive lane does.

use super::{illegal, FaultKind, Wave, DPP_TEMP};
use crate::isa::decode::{mflag, Form, Inst, Operand, SGPR_EXEC_HI, SGPR_EXEC_LO, SGPR_M0, SRC_LITERAL};
use crate::isa::table::{Encoding, Op::*, Ty};

/// Source-lane marker for "outside the row".
const OUTSIDE: u8 = 0xff;

/// VGPRs a wave can address (RDNA3-NOTES, "VGPR out-of-range behaviour": VGPR_SIZE). Waves
/// here always own all 256.
const VGPR_SIZE: u64 = 256;

fn is16(t: Ty) -> bool {
    matches!(t, Ty::B16 | Ty::F16)
}

/// Whether `ctrl` is a DPP16 control gfx11 has: quad_perm, row_shl/shr/ror 1..15,
/// row_mirror, row_half_mirror, row_share, row_xmask. The GFX9 wave shifts and row
/// broadcasts are gone (LLVM: "not supported starting from GFX10").
fn dpp16_ctrl_valid(ctrl: u32) -> bool {
    matches!(ctrl, 0x000..=0x0ff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x140 | 0x141 | 0x150..=0x16f)
}

/// Fills `sel` with the source lane of each of `n` lanes for DPP16 control `ctrl`
/// ([`OUTSIDE`] where the source is outside the row).
fn dpp16_sources(ctrl: u32, n: usize, sel: &mut [u8; 64]) {
    let k = (ctrl & 0xf) as usize;
    match ctrl {
        0x000..=0x0ff => {
            for l in 0..n {
                sel[l] = ((l & !3) | (ctrl as usize >> (2 * (l & 3)) & 3)) as u8;
            }
        }
        // row_shl: lane l reads l + k.
        0x101..=0x10f => {
            for l in 0..n {
                sel[l] = if (l & 15) + k < 16 { (l + k) as u8 } else { OUTSIDE };
            }
        }
        // row_shr: lane l reads l - k.
        0x111..=0x11f => {
            for l in 0..n {
                sel[l] = if l & 15 >= k { (l - k) as u8 } else { OUTSIDE };
            }
        }
        // row_ror: rotate right within the row.
        0x121..=0x12f => {
            for l in 0..n {
                sel[l] = ((l & !15) | ((l + 16 - k) & 15)) as u8;
            }
        }
        0x140 => {
            for l in 0..n {
                sel[l] = ((l & !15) | (15 - (l & 15))) as u8;
            }
        }
        0x141 => {
            for l in 0..n {
                sel[l] = ((l & !7) | (7 - (l & 7))) as u8;
            }
        }
        // row_share: every lane reads lane k of its row.
        0x150..=0x15f => {
            for l in 0..n {
                sel[l] = ((l & !15) | k) as u8;
            }
        }
        // row_xmask: lane l reads l ^ k within the row.
        _ => {
            for l in 0..n {
                sel[l] = ((l & !15) | ((l & 15) ^ k)) as u8;
            }
        }
    }
}

/// The lanes ROW_MASK and BANK_MASK leave enabled.
fn row_bank_enable(row_mask: u32, bank_mask: u32) -> u64 {
    let mut m = 0u64;
    for quad in 0..16 {
        let (row, bank) = (quad / 4, quad % 4);
        if row_mask >> row & 1 != 0 && bank_mask >> bank & 1 != 0 {
            m |= 0xf << (4 * quad);
        }
    }
    m
}

/// The e32 DPP instruction `i` with its 16-bit VGPR halves (bit 7 of an e32 VGPR field
/// selects the high half of a 16-bit operand, RDNA3 "true16") turned into the VOP3 form
/// of the same instruction: register numbers below 128 and op_sel bits. A VGPR above
/// v255 (the DPP temporary) then names a whole register, whatever the operand width.
fn e32_halves_to_vop3(i: &mut Inst) {
    let t = i.op.info().ty;
    if let Operand::Vgpr(v) = i.dst {
        if is16(t[0]) && v >= 128 {
            i.dst = Operand::Vgpr(v - 128);
            i.opsel |= 8;
        }
    }
    for k in 0..2 {
        if let Operand::Vgpr(v) = i.src[k] {
            if is16(t[k + 1]) && v >= 128 {
                i.src[k] = Operand::Vgpr(v - 128);
                i.opsel |= 1 << k;
            }
        }
    }
    i.form = Form::Vop3;
}

impl Wave {
    /// The last stop of the ALU chain: cross-lane VALU, or "not executed".
    pub(super) fn lanes(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        let op = inst.op;
        let n = self.lanes;
        match op {
            V_PIPEFLUSH => {}
            V_PERMLANE16_B32 | V_PERMLANEX16_B32 => {
                // Lane selects: 4 bits per lane of the row, lanes 0-7 from src1, 8-15 from
                // src2. op_sel[0] is FI, op_sel[1] BOUND_CTRL (LLVM, "dpp_op_sel").
                let sel = self.s32(&inst.src[1]) as u64 | (self.s32(&inst.src[2]) as u64) << 32;
                let src = self.vsrc(&inst.src[0]);
                let exec = self.exec();
                let (fi, bound) = (inst.opsel & 1 != 0, inst.opsel & 2 != 0);
                // permlanex16 reads the other row of each pair of rows.
                let flip = if op == V_PERMLANEX16_B32 { 16 } else { 0 };
                let mut d = [0u32; 64];
                let mut write = exec;
                for l in 0..n {
                    let s = ((l & !15) ^ flip) | (sel >> (4 * (l & 15)) & 15) as usize;
                    if fi || exec >> s & 1 != 0 {
                        d[l] = src[s];
                    } else if !bound {
                        write &= !(1 << l);
                    }
                }
                self.vdst(&inst.dst, &d, write);
            }
            V_PERMLANE64_B32 => {
                // Swaps the halves of a wave64, reading inactive lanes too; a NOP in wave32
                // (RDNA3 ISA, V_PERMLANE64_B32).
                if self.wave64() {
                    let src = self.vsrc(&inst.src[0]);
                    let mut d = [0u32; 64];
                    for l in 0..64 {
                        d[l] = src[l ^ 32];
                    }
                    self.vdst(&inst.dst, &d, self.exec());
                }
            }
            V_SWAP_B32 => {
                let (Operand::Vgpr(a), Operand::Vgpr(b)) = (inst.dst, inst.src[0]) else {
                    return Err(illegal("v_swap_b32 with an operand that is not a VGPR"));
                };
                self.swap_vgprs(a as usize, b as usize);
            }
            V_SWAPREL_B32 => {
                let (Operand::Vgpr(d), Operand::Vgpr(s)) = (inst.dst, inst.src[0]) else {
                    return Err(illegal("v_swaprel_b32 with an operand that is not a VGPR"));
                };
                let m0 = self.sget(SGPR_M0 as usize);
                let (s, d) = (s as u64 + (m0 & 0x3ff) as u64, d as u64 + (m0 >> 16 & 0x3ff) as u64);
                // Both are destinations: out of range, the instruction is dropped
                // (RDNA3-NOTES, "VGPR out-of-range behaviour").
                if s < VGPR_SIZE && d < VGPR_SIZE {
                    self.swap_vgprs(d as usize, s as usize);
                }
            }
            V_MOVRELD_B32 | V_MOVRELS_B32 | V_MOVRELSD_B32 | V_MOVRELSD_2_B32 => {
                let m0 = self.sget(SGPR_M0 as usize);
                // (source offset, destination offset); M0[9:0] and M0[25:16] for _2.
                let (so, dof) = match op {
                    V_MOVRELD_B32 => (None, m0 as u64),
                    V_MOVRELS_B32 => (Some(m0 as u64), 0),
                    V_MOVRELSD_B32 => (Some(m0 as u64), m0 as u64),
                    _ => (Some((m0 & 0x3ff) as u64), (m0 >> 16 & 0x3ff) as u64),
                };
                let Operand::Vgpr(d) = inst.dst else {
                    return Err(illegal(format!("{} without a VGPR destination", op.name())));
                };
                let vals = match so {
                    None => self.vsrc(&inst.src[0]),
                    Some(off) => {
                        let Operand::Vgpr(s) = inst.src[0] else {
                            return Err(illegal(format!("{} with a source that is not a VGPR", op.name())));
                        };
                        // A source out of range reads v0 (RDNA3-NOTES,
                        // "VGPR out-of-range behaviour").
                        let s = s as u64 + off;
                        self.vsrc(&Operand::Vgpr(if s < VGPR_SIZE { s as u16 } else { 0 }))
                    }
                };
                // A destination out of range makes the instruction a NOP (RDNA3-NOTES,
                // "VGPR out-of-range behaviour").
                let d = d as u64 + dof;
                if d < VGPR_SIZE {
                    self.vdst(&Operand::Vgpr(d as u16), &vals, self.exec());
                }
            }
            op => return Err(illegal(format!("{} is not executed by softnavi", op.name()))),
        }
        Ok(())
    }

    /// Swaps two VGPRs in the active lanes.
    fn swap_vgprs(&mut self, a: usize, b: usize) {
        if a == b {
            return;
        }
        let (va, vb) = (self.vsrc(&Operand::Vgpr(a as u16)), self.vsrc(&Operand::Vgpr(b as u16)));
        let exec = self.exec();
        self.vdst(&Operand::Vgpr(a as u16), &vb, exec);
        self.vdst(&Operand::Vgpr(b as u16), &va, exec);
    }

    /// A VALU instruction in a DPP16 or DPP8 form: src0 is permuted across lanes into a
    /// private register above v255, then the instruction runs in its plain form with src0
    /// replaced and EXEC narrowed to the lanes DPP lets it write.
    pub(super) fn dpp(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        let Operand::Vgpr(field) = inst.src[0] else {
            return Err(illegal(format!("{} with DPP and no VGPR src0", inst.op.name())));
        };
        let n = self.lanes;
        let exec = self.exec();
        let fi = inst.flags & mflag::FI != 0;
        let w = inst.ext;
        let t = inst.op.info().ty;
        let e32 = matches!(inst.form, Form::Dpp16 | Form::Dpp8);
        let halves16 = e32 && t[..3].iter().any(|&t| is16(t));
        // In an e32 16-bit src0, bit 7 of the field picks the half, not the register.
        let reg = if halves16 && is16(t[1]) { field & 0x7f } else { field } as usize;

        let mut sel = [0u8; 64];
        let mut write = exec;
        let (bound, dpp8) = (w >> 19 & 1 != 0, inst.form.is_dpp8());
        if dpp8 {
            // Lane l of each group of 8 reads lane sel[l % 8] of the group.
            for l in 0..n {
                sel[l] = ((l & !7) | (w >> (8 + 3 * (l & 7)) & 7) as usize) as u8;
            }
        } else {
            let ctrl = w >> 8 & 0x1ff;
            if !dpp16_ctrl_valid(ctrl) {
                return Err(illegal(format!("{} with dpp_ctrl {ctrl:#x}, which gfx11 does not have", inst.op.name())));
            }
            dpp16_sources(ctrl, n, &mut sel);
            write &= row_bank_enable(w >> 28, w >> 24 & 0xf);
        }
        let src = self.v(reg);
        let mut vals = [0u32; 64];
        for l in 0..n {
            let s = sel[l];
            if s != OUTSIDE && (fi || exec >> s & 1 != 0) {
                vals[l] = src[s as usize];
            } else if !dpp8 && !bound {
                // DPP16 without BOUND_CTRL: the lane is not written.
                write &= !(1 << l);
            }
            // Otherwise (BOUND_CTRL, or DPP8 with FI clear) the source is 0.
        }
        self.vdst(&Operand::Vgpr(DPP_TEMP), &vals, u64::MAX);

        let mut i = *inst;
        i.src[0] = Operand::Vgpr(field);
        if halves16 {
            e32_halves_to_vop3(&mut i);
        } else {
            i.form = match (inst.form, inst.op.encoding()) {
                (Form::Dpp16 | Form::Dpp8, _) => Form::Native,
                (_, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc) => Form::Vop3,
                _ => Form::Native,
            };
        }
        i.src[0] = Operand::Vgpr(DPP_TEMP);
        i.ext = 0;
        i.flags &= !mflag::FI;
        if write == exec {
            return self.valu(&i);
        }
        // Sources that read EXEC see the wave's EXEC, not the narrowed one.
        let exec_lo = self.sget(SGPR_EXEC_LO as usize);
        let exec_hi = self.sget(SGPR_EXEC_HI as usize);
        for s in &mut i.src[1..] {
            *s = match *s {
                Operand::Sgpr(SGPR_EXEC_LO) => Operand::Const { code: SRC_LITERAL as u16, value: exec_lo as u64 },
                Operand::Sgpr(SGPR_EXEC_HI) => Operand::Const { code: SRC_LITERAL as u16, value: exec_hi as u64 },
                Operand::Execz => Operand::Const { code: SRC_LITERAL as u16, value: (exec == 0) as u64 },
                o => o,
            };
        }
        self.set_exec(write);
        let r = self.valu(&i);
        let is_exec = |o: &Operand| matches!(o, Operand::Sgpr(SGPR_EXEC_LO | SGPR_EXEC_HI));
        if !(is_exec(&i.dst) || is_exec(&i.sdst)) {
            self.sgpr[SGPR_EXEC_LO as usize] = exec_lo;
            self.sgpr[SGPR_EXEC_HI as usize] = exec_hi;
        }
        r
    }
}
