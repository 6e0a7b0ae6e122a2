//! Scalar and vector ALU semantics (RDNA3 ISA reference, chapters "Scalar ALU
//! operations" and "Vector ALU operations"). SCC rules follow RDNA3-NOTES, "SCC":
//! compares set it to the result, arithmetic to the carry, logic to "result != 0",
//! moves leave it alone.

use super::fp::{self, FloatMode};
use super::{illegal, unsupported, FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::program::NO_TARGET;
use crate::isa::table::{
    ds_ops, global_ops, mubuf_ops, scratch_ops, smem_ops, sopp_ops, vopd_ops,
    Op::{self, *},
};

fn bfe32(v: u32, off: u32, width: u32) -> u32 {
    let (off, width) = (off & 31, width & 31);
    if width == 0 {
        0
    } else {
        (v >> off) & ((1u32 << width) - 1)
    }
}

fn sbfe32(v: u32, off: u32, width: u32) -> u32 {
    let (off, width) = (off & 31, width & 31);
    if width == 0 {
        return 0;
    }
    let f = (v >> off) & ((1u32 << width) - 1);
    (((f << (32 - width)) as i32) >> (32 - width)) as u32
}

fn scalar_bfe64(v: u64, off: u32, width: u32, signed: bool) -> u64 {
    let (off, width) = (off & 63, width.min(64));
    if width == 0 {
        return 0;
    }
    let mask = if width == 64 { u64::MAX } else { (1u64 << width) - 1 };
    let f = (v >> off) & mask;
    if signed && width < 64 {
        (((f << (64 - width)) as i64) >> (64 - width)) as u64
    } else {
        f
    }
}

const QNAN_BIT: u32 = 0x0040_0000;

fn is_snan(x: f32) -> bool {
    x.is_nan() && x.to_bits() & QNAN_BIT == 0
}

fn quiet(x: f32) -> f32 {
    f32::from_bits(x.to_bits() | QNAN_BIT)
}

/// IEEE-mode minNum / maxNum: a signalling NaN input gives a quiet NaN, a quiet NaN loses
/// to a number, and -0 < +0.
fn ieee_min_max(a: f32, b: f32, min: bool) -> f32 {
    if is_snan(a) {
        return quiet(a);
    }
    if is_snan(b) {
        return quiet(b);
    }
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (_, true) => a,
        // Equal values differ only in the sign of zero: min prefers -0, max +0.
        _ if a == b && min => f32::from_bits(a.to_bits() | b.to_bits()),
        _ if a == b => f32::from_bits(a.to_bits() & b.to_bits()),
        _ if min => a.min(b),
        _ => a.max(b),
    }
}

fn fmin(a: f32, b: f32) -> f32 {
    ieee_min_max(a, b, true)
}

fn fmax(a: f32, b: f32) -> f32 {
    ieee_min_max(a, b, false)
}

/// `x * 2^n` with one rounding (exact in f64 before the final conversion).
fn ldexp(x: f32, n: i32) -> f32 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    // Past ±400 every finite f32 has overflowed or underflowed; within it, x * 2^n is a
    // normal f64 (|x| is 2^-149 .. 2^128), so the product is exact and `as f32` is the one
    // rounding.
    (x as f64 * pow2(n.clamp(-400, 400))) as f32
}

/// 2^k as an f64, built from its exponent bits (for a normal power: -1022 <= k <= 1023).
/// `2f64.powi(k)` gives the same value through a libm call (`__powidf2`), which showed
/// at 6 % of an n-body run.
#[inline(always)]
pub(super) fn pow2(k: i32) -> f64 {
    debug_assert!((-1022..=1023).contains(&k));
    f64::from_bits(((k + 1023) as u64) << 52)
}

/// v_fract_f32: x - floor(x), never 1.0 (hardware clamps to the largest float below 1).
fn fract(x: f32) -> f32 {
    if x.is_infinite() {
        return f32::NAN;
    }
    (x - x.floor()).min(f32::from_bits(0x3f7f_ffff))
}

/// Float compares, in terms of the IEEE ordering (unordered when either input is NaN): the
/// `n*` forms are true for unordered inputs, the others false.
fn fcmp(op: Op, a: f32, b: f32) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let o = a.partial_cmp(&b);
    match op {
        V_CMP_LT_F32 | V_CMPX_LT_F32 => o == Some(Less),
        V_CMP_EQ_F32 | V_CMPX_EQ_F32 => o == Some(Equal),
        V_CMP_LE_F32 | V_CMPX_LE_F32 => matches!(o, Some(Less | Equal)),
        V_CMP_GT_F32 | V_CMPX_GT_F32 => o == Some(Greater),
        V_CMP_LG_F32 | V_CMPX_LG_F32 => matches!(o, Some(Less | Greater)),
        V_CMP_GE_F32 | V_CMPX_GE_F32 => matches!(o, Some(Greater | Equal)),
        V_CMP_O_F32 | V_CMPX_O_F32 => o.is_some(),
        V_CMP_U_F32 | V_CMPX_U_F32 => o.is_none(),
        V_CMP_NGE_F32 | V_CMPX_NGE_F32 => !matches!(o, Some(Greater | Equal)),
        V_CMP_NLG_F32 | V_CMPX_NLG_F32 => !matches!(o, Some(Less | Greater)),
        V_CMP_NGT_F32 | V_CMPX_NGT_F32 => o != Some(Greater),
        V_CMP_NLE_F32 | V_CMPX_NLE_F32 => !matches!(o, Some(Less | Equal)),
        V_CMP_NEQ_F32 | V_CMPX_NEQ_F32 => o != Some(Equal),
        _ => o != Some(Less), // V_CMP_NLT_F32 | V_CMPX_NLT_F32
    }
}

fn med3<T: Ord + Copy>(a: T, b: T, c: T) -> T {
    a.max(b).min(a.min(b).max(c))
}

fn byte_perm(data: u64, sel: u32) -> u32 {
    let sel = sel & 0xff;
    let byte = |i: u32| (data >> (8 * i)) as u8;
    let sign = |i: u32| if byte(i) & 0x80 != 0 { 0xffu8 } else { 0 };
    (match sel {
        0..=7 => byte(sel),
        8 => sign(1),
        9 => sign(3),
        10 => sign(5),
        11 => sign(7),
        12 => 0,
        _ => 0xff,
    }) as u32
}

impl Wave {
    fn vop3_float_mods(&self, inst: &Inst, k: usize, x: u32) -> u32 {
        let mut x = x;
        if inst.abs >> k & 1 != 0 {
            x &= 0x7fff_ffff;
        }
        if inst.neg >> k & 1 != 0 {
            x ^= 0x8000_0000;
        }
        x
    }

    /// Float source `k` with VOP3 input modifiers applied, and input denormals flushed
    /// when MODE says so.
    #[inline(always)]
    fn fsrc(&self, inst: &Inst, k: usize) -> [f32; 64] {
        let mut raw = self.vsrc(&inst.src[k]);
        let n = self.lanes.min(64);
        if (inst.abs | inst.neg) >> k & 1 != 0 {
            let and = if inst.abs >> k & 1 != 0 { 0x7fff_ffff } else { u32::MAX };
            let xor = if inst.neg >> k & 1 != 0 { 0x8000_0000 } else { 0 };
            for x in &mut raw[..n] {
                *x = *x & and ^ xor;
            }
        }
        let out = fp::as_f32(raw);
        if fp::f32_host_mode(self.mode) || FloatMode::f32(self.mode).keep_in {
            out
        } else {
            out.map(fp::flush)
        }
    }

    /// Writes a float result with the output modifiers (omod, then clamp to [0, 1]) and
    /// output denormals flushed when MODE says so.
    #[inline(always)]
    fn fdst(&mut self, inst: &Inst, vals: &[f32; 64]) {
        let exec = self.exec();
        if inst.omod == 0 && !inst.clamp && fp::f32_host_mode(self.mode) {
            self.vdst(&inst.dst, &fp::as_bits(*vals), exec);
            return;
        }
        let mut out = [0u32; 64];
        let scale = match inst.omod {
            1 => 2.0,
            2 => 4.0,
            3 => 0.5,
            _ => 1.0,
        };
        let mode = FloatMode::f32(self.mode);
        let dx10 = self.mode >> crate::spi::mode::DX10_CLAMP & 1 != 0;
        for l in 0..self.lanes {
            let mut v = vals[l];
            if scale != 1.0 {
                v *= scale;
            }
            if inst.clamp {
                // Clamp to [0, 1]; a NaN becomes 0 under MODE.DX10_CLAMP and stays NaN
                // otherwise (as in the f16 and f64 paths).
                v = match v.is_nan() {
                    true if dx10 => 0.0,
                    true => v,
                    false => v.clamp(0.0, 1.0),
                };
            }
            out[l] = mode.write(v).to_bits();
        }
        self.vdst(&inst.dst, &out, exec);
    }

    fn no_int_mods(&self, inst: &Inst) -> Result<(), FaultKind> {
        if inst.omod != 0 || inst.neg != 0 || inst.abs != 0 || (inst.clamp && !int_clamp_supported(inst.op)) {
            return Err(unsupported(format!("{} with VOP3 modifiers is not supported", inst.op.name())));
        }
        Ok(())
    }

    /// The hottest VALU operations, run straight from the wave's loop when they have no
    /// modifiers, no DPP and MODE computes f32 as the host does; `false` sends the
    /// instruction down the general path (`step`, `alu`), which computes the same.
    #[inline(always)]
    pub(super) fn fast(&mut self, inst: &Inst) -> bool {
        if !plain(inst) || inst.form.is_dpp() {
            return false;
        }
        match inst.op {
            V_FMAC_F32 | V_FMAMK_F32 | V_FMAAK_F32 | V_FMA_F32 if fp::f32_host_mode(self.mode) => {
                let [s0, s1, s2, _] = &inst.src;
                let srcs = match inst.op {
                    // fmac accumulates into its destination; fmamk is src0 * K + src1 (K in src2).
                    V_FMAC_F32 => [s0, s1, &inst.dst],
                    V_FMAMK_F32 => [s0, s2, s1],
                    _ => [s0, s1, s2],
                };
                self.fma3(inst, srcs);
            }
            V_ADD_F32 if fp::f32_host_mode(self.mode) => self.map2_f32(inst, |x, y| x + y),
            V_SUB_F32 if fp::f32_host_mode(self.mode) => self.map2_f32(inst, |x, y| x - y),
            V_MUL_F32 if fp::f32_host_mode(self.mode) => self.map2_f32(inst, |x, y| x * y),
            V_ADD_NC_U32 => self.map2(inst, |x, y| x.wrapping_add(y)),
            V_SUB_NC_U32 => self.map2(inst, |x, y| x.wrapping_sub(y)),
            V_AND_B32 => self.map2(inst, |x, y| x & y),
            V_OR_B32 => self.map2(inst, |x, y| x | y),
            V_XOR_B32 => self.map2(inst, |x, y| x ^ y),
            V_LSHLREV_B32 => self.map2(inst, |x, y| y << (x & 31)),
            V_LSHRREV_B32 => self.map2(inst, |x, y| y >> (x & 31)),
            V_CMP_GT_U32 | V_CMP_LT_U32 | V_CMP_EQ_U32 | V_CMP_NE_U32 | V_CMP_GT_I32 | V_CMP_LT_I32 => {
                let i = |x: u32| x as i32;
                let m = match inst.op {
                    V_CMP_GT_U32 => self.cmp_mask(inst, |x, y| x > y),
                    V_CMP_LT_U32 => self.cmp_mask(inst, |x, y| x < y),
                    V_CMP_EQ_U32 => self.cmp_mask(inst, |x, y| x == y),
                    V_CMP_NE_U32 => self.cmp_mask(inst, |x, y| x != y),
                    V_CMP_GT_I32 => self.cmp_mask(inst, |x, y| i(x) > i(y)),
                    _ => self.cmp_mask(inst, |x, y| i(x) < i(y)),
                };
                self.mask_dst(&inst.sdst, m & self.exec());
            }
            // Branches with a target inside the program (the others fault in step()).
            S_CBRANCH_SCC0 | S_CBRANCH_SCC1 | S_CBRANCH_VCCZ | S_CBRANCH_VCCNZ | S_CBRANCH_EXECZ | S_CBRANCH_EXECNZ
                if inst.imm1 != NO_TARGET =>
            {
                if self.branch_taken(inst.op) {
                    self.pc = inst.imm1 as usize;
                }
            }
            _ => return false,
        }
        true
    }

    /// A VALU instruction run outside the wave's loop (a VOPD half, the plain form of a
    /// DPP instruction): the fast path when it applies, else the general one.
    pub(super) fn valu(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        if self.fast(inst) {
            Ok(())
        } else {
            self.alu(inst)
        }
    }

    /// Scalar ALU and vector ALU instructions.
    pub(super) fn alu(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        let op = inst.op;
        match op {
            // ---------------- SOP2 ----------------
            S_ADD_U32 | S_SUB_U32 | S_ADD_I32 | S_SUB_I32 | S_ADDC_U32 | S_SUBB_U32 | S_ABSDIFF_I32 | S_LSHL_B32
            | S_LSHR_B32 | S_ASHR_I32 | S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32
            | S_MIN_I32 | S_MIN_U32 | S_MAX_I32 | S_MAX_U32 | S_AND_B32 | S_OR_B32 | S_XOR_B32 | S_NAND_B32
            | S_NOR_B32 | S_XNOR_B32 | S_AND_NOT1_B32 | S_OR_NOT1_B32 | S_BFE_U32 | S_BFE_I32 | S_BFM_B32
            | S_MUL_I32 | S_MUL_HI_U32 | S_MUL_HI_I32 | S_CSELECT_B32 | S_PACK_LL_B32_B16 | S_PACK_LH_B32_B16
            | S_PACK_HH_B32_B16 | S_PACK_HL_B32_B16 => {
                let (a, b) = (self.s32(&inst.src[0]), self.s32(&inst.src[1]));
                let c = self.scc;
                // (result, new SCC or None to keep it)
                let (d, scc) = match op {
                    S_ADD_U32 => {
                        let (r, o) = a.overflowing_add(b);
                        (r, Some(o))
                    }
                    S_SUB_U32 => {
                        let (r, o) = a.overflowing_sub(b);
                        (r, Some(o))
                    }
                    S_ADD_I32 => {
                        let (r, o) = (a as i32).overflowing_add(b as i32);
                        (r as u32, Some(o))
                    }
                    S_SUB_I32 => {
                        let (r, o) = (a as i32).overflowing_sub(b as i32);
                        (r as u32, Some(o))
                    }
                    S_ADDC_U32 => {
                        let r = a as u64 + b as u64 + c as u64;
                        (r as u32, Some(r >> 32 != 0))
                    }
                    S_SUBB_U32 => {
                        let r = (a as u64).wrapping_sub(b as u64).wrapping_sub(c as u64);
                        (r as u32, Some((b as u64 + c as u64) > a as u64))
                    }
                    S_ABSDIFF_I32 => {
                        let r = (a as i32).wrapping_sub(b as i32).wrapping_abs() as u32;
                        (r, Some(r != 0))
                    }
                    S_LSHL_B32 => {
                        let r = a << (b & 31);
                        (r, Some(r != 0))
                    }
                    S_LSHR_B32 => {
                        let r = a >> (b & 31);
                        (r, Some(r != 0))
                    }
                    S_ASHR_I32 => {
                        let r = ((a as i32) >> (b & 31)) as u32;
                        (r, Some(r != 0))
                    }
                    S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32 => {
                        let n = match op {
                            S_LSHL1_ADD_U32 => 1,
                            S_LSHL2_ADD_U32 => 2,
                            S_LSHL3_ADD_U32 => 3,
                            _ => 4,
                        };
                        let r = ((a as u64) << n) + b as u64;
                        (r as u32, Some(r >> 32 != 0))
                    }
                    S_MIN_I32 => {
                        let lt = (a as i32) < (b as i32);
                        (if lt { a } else { b }, Some(lt))
                    }
                    S_MIN_U32 => {
                        let lt = a < b;
                        (if lt { a } else { b }, Some(lt))
                    }
                    // SCC = S0 >= S1 (RDNA3 ISA pseudocode), unlike min's S0 < S1.
                    S_MAX_I32 => {
                        let ge = (a as i32) >= (b as i32);
                        (if ge { a } else { b }, Some(ge))
                    }
                    S_MAX_U32 => {
                        let ge = a >= b;
                        (if ge { a } else { b }, Some(ge))
                    }
                    S_AND_B32 | S_OR_B32 | S_XOR_B32 | S_NAND_B32 | S_NOR_B32 | S_XNOR_B32 | S_AND_NOT1_B32
                    | S_OR_NOT1_B32 => {
                        let r = match op {
                            S_AND_B32 => a & b,
                            S_OR_B32 => a | b,
                            S_XOR_B32 => a ^ b,
                            S_NAND_B32 => !(a & b),
                            S_NOR_B32 => !(a | b),
                            S_XNOR_B32 => !(a ^ b),
                            S_AND_NOT1_B32 => a & !b,
                            _ => a | !b,
                        };
                        (r, Some(r != 0))
                    }
                    S_BFE_U32 => {
                        let r = bfe32(a, b, (b >> 16) & 0x7f);
                        let w = (b >> 16) & 0x7f;
                        let r = if w >= 32 { a >> (b & 31) } else { r };
                        (r, Some(r != 0))
                    }
                    S_BFE_I32 => {
                        let w = (b >> 16) & 0x7f;
                        let r = if w >= 32 { ((a as i32) >> (b & 31)) as u32 } else { sbfe32(a, b, w) };
                        (r, Some(r != 0))
                    }
                    S_BFM_B32 => ((((1u64 << (a & 31)) - 1) as u32) << (b & 31), None),
                    S_MUL_I32 => (a.wrapping_mul(b), None),
                    S_MUL_HI_U32 => (((a as u64 * b as u64) >> 32) as u32, None),
                    S_MUL_HI_I32 => ((((a as i32 as i64) * (b as i32 as i64)) >> 32) as u32, None),
                    S_CSELECT_B32 => (if c { a } else { b }, None),
                    S_PACK_LL_B32_B16 => ((a & 0xffff) | b << 16, None),
                    S_PACK_LH_B32_B16 => ((a & 0xffff) | (b & 0xffff_0000), None),
                    S_PACK_HH_B32_B16 => ((a >> 16) | (b & 0xffff_0000), None),
                    _ => ((a >> 16) | (b << 16), None), // S_PACK_HL_B32_B16
                };
                self.sdst32(&inst.dst, d);
                if let Some(s) = scc {
                    self.set_scc_for(&inst.dst, s);
                }
            }
            S_LSHL_B64 | S_LSHR_B64 | S_ASHR_I64 | S_AND_B64 | S_OR_B64 | S_XOR_B64 | S_NAND_B64 | S_NOR_B64
            | S_XNOR_B64 | S_AND_NOT1_B64 | S_OR_NOT1_B64 | S_BFE_U64 | S_BFE_I64 | S_CSELECT_B64 => {
                let a = self.s64(&inst.src[0]);
                // The shift amount and the bit-field operand are 32 bits (table.rs: B32): any
                // SGPR, odd ones included, not the even pair around it.
                let (b64, b) = match op {
                    S_LSHL_B64 | S_LSHR_B64 | S_ASHR_I64 | S_BFE_U64 | S_BFE_I64 => (0, self.s32(&inst.src[1])),
                    _ => {
                        let v = self.s64(&inst.src[1]);
                        (v, v as u32)
                    }
                };
                let (d, scc) = match op {
                    S_LSHL_B64 => (a << (b & 63), true),
                    S_LSHR_B64 => (a >> (b & 63), true),
                    S_ASHR_I64 => (((a as i64) >> (b & 63)) as u64, true),
                    S_AND_B64 => (a & b64, true),
                    S_OR_B64 => (a | b64, true),
                    S_XOR_B64 => (a ^ b64, true),
                    S_NAND_B64 => (!(a & b64), true),
                    S_NOR_B64 => (!(a | b64), true),
                    S_XNOR_B64 => (!(a ^ b64), true),
                    S_AND_NOT1_B64 => (a & !b64, true),
                    S_OR_NOT1_B64 => (a | !b64, true),
                    S_BFE_U64 => (scalar_bfe64(a, b, (b >> 16) & 0x7f, false), true),
                    S_BFE_I64 => (scalar_bfe64(a, b, (b >> 16) & 0x7f, true), true),
                    _ => (if self.scc { a } else { b64 }, false), // S_CSELECT_B64
                };
                self.sdst64(&inst.dst, d);
                if scc {
                    self.set_scc_for(&inst.dst, d != 0);
                }
            }
            S_BFM_B64 => {
                let (a, b) = (self.s32(&inst.src[0]), self.s32(&inst.src[1]));
                let m = if a & 63 == 0 { 0 } else { u64::MAX >> (64 - (a & 63)) };
                self.sdst64(&inst.dst, m << (b & 63));
            }

            // ---------------- SOPK ----------------
            S_MOVK_I32 => self.sdst32(&inst.dst, inst.imm as u32),
            S_CMOVK_I32 => {
                if self.scc {
                    self.sdst32(&inst.dst, inst.imm as u32);
                }
            }
            S_CMPK_EQ_I32 | S_CMPK_LG_I32 | S_CMPK_GT_I32 | S_CMPK_GE_I32 | S_CMPK_LT_I32 | S_CMPK_LE_I32
            | S_CMPK_EQ_U32 | S_CMPK_LG_U32 | S_CMPK_GT_U32 | S_CMPK_GE_U32 | S_CMPK_LT_U32 | S_CMPK_LE_U32 => {
                // The register named by SDST is the first operand.
                let a = self.s32(&inst.dst);
                let k = inst.imm as u32;
                self.scc = match op {
                    S_CMPK_EQ_I32 | S_CMPK_EQ_U32 => a == k,
                    S_CMPK_LG_I32 | S_CMPK_LG_U32 => a != k,
                    S_CMPK_GT_I32 => (a as i32) > (k as i32),
                    S_CMPK_GE_I32 => (a as i32) >= (k as i32),
                    S_CMPK_LT_I32 => (a as i32) < (k as i32),
                    S_CMPK_LE_I32 => (a as i32) <= (k as i32),
                    S_CMPK_GT_U32 => a > k,
                    S_CMPK_GE_U32 => a >= k,
                    S_CMPK_LT_U32 => a < k,
                    _ => a <= k,
                };
            }
            S_ADDK_I32 => {
                let a = self.s32(&inst.dst) as i32;
                let (r, o) = a.overflowing_add(inst.imm);
                self.sdst32(&inst.dst, r as u32);
                self.set_scc_for(&inst.dst, o);
            }
            S_MULK_I32 => {
                let a = self.s32(&inst.dst);
                self.sdst32(&inst.dst, a.wrapping_mul(inst.imm as u32));
            }

            // ---------------- SOP1 ----------------
            S_MOV_B32 => {
                let v = self.s32(&inst.src[0]);
                self.sdst32(&inst.dst, v);
            }
            S_MOV_B64 => {
                let v = self.s64(&inst.src[0]);
                self.sdst64(&inst.dst, v);
            }
            S_CMOV_B32 => {
                let v = self.s32(&inst.src[0]);
                if self.scc {
                    self.sdst32(&inst.dst, v);
                }
            }
            S_CMOV_B64 => {
                let v = self.s64(&inst.src[0]);
                if self.scc {
                    self.sdst64(&inst.dst, v);
                }
            }
            S_BREV_B32 => {
                let v = self.s32(&inst.src[0]).reverse_bits();
                self.sdst32(&inst.dst, v);
            }
            S_BREV_B64 => {
                let v = self.s64(&inst.src[0]).reverse_bits();
                self.sdst64(&inst.dst, v);
            }
            S_CTZ_I32_B32 | S_CTZ_I32_B64 | S_CLZ_I32_U32 | S_CLZ_I32_U64 => {
                let r = match op {
                    S_CTZ_I32_B32 => Some(self.s32(&inst.src[0])).filter(|v| *v != 0).map(|v| v.trailing_zeros()),
                    S_CTZ_I32_B64 => Some(self.s64(&inst.src[0])).filter(|v| *v != 0).map(|v| v.trailing_zeros()),
                    S_CLZ_I32_U32 => Some(self.s32(&inst.src[0])).filter(|v| *v != 0).map(|v| v.leading_zeros()),
                    _ => Some(self.s64(&inst.src[0])).filter(|v| *v != 0).map(|v| v.leading_zeros()),
                };
                self.sdst32(&inst.dst, r.unwrap_or(u32::MAX));
            }
            S_SEXT_I32_I8 => {
                let v = self.s32(&inst.src[0]) as u8 as i8 as i32 as u32;
                self.sdst32(&inst.dst, v);
            }
            S_SEXT_I32_I16 => {
                let v = self.s32(&inst.src[0]) as u16 as i16 as i32 as u32;
                self.sdst32(&inst.dst, v);
            }
            S_BITSET0_B32 | S_BITSET1_B32 => {
                let bit = self.s32(&inst.src[0]) & 31;
                let d = self.s32(&inst.dst);
                let v = if op == S_BITSET1_B32 { d | 1 << bit } else { d & !(1 << bit) };
                self.sdst32(&inst.dst, v);
            }
            S_BITSET0_B64 | S_BITSET1_B64 => {
                let bit = self.s32(&inst.src[0]) & 63;
                let d = self.s64(&inst.dst);
                let v = if op == S_BITSET1_B64 { d | 1 << bit } else { d & !(1 << bit) };
                self.sdst64(&inst.dst, v);
            }
            S_ABS_I32 => {
                let v = (self.s32(&inst.src[0]) as i32).wrapping_abs() as u32;
                self.sdst32(&inst.dst, v);
                self.set_scc_for(&inst.dst, v != 0);
            }
            S_BCNT0_I32_B32 | S_BCNT1_I32_B32 | S_BCNT0_I32_B64 | S_BCNT1_I32_B64 => {
                let v = match op {
                    S_BCNT0_I32_B32 => self.s32(&inst.src[0]).count_zeros(),
                    S_BCNT1_I32_B32 => self.s32(&inst.src[0]).count_ones(),
                    S_BCNT0_I32_B64 => self.s64(&inst.src[0]).count_zeros(),
                    _ => self.s64(&inst.src[0]).count_ones(),
                };
                self.sdst32(&inst.dst, v);
                self.set_scc_for(&inst.dst, v != 0);
            }
            S_NOT_B32 => {
                let v = !self.s32(&inst.src[0]);
                self.sdst32(&inst.dst, v);
                self.set_scc_for(&inst.dst, v != 0);
            }
            S_NOT_B64 => {
                let v = !self.s64(&inst.src[0]);
                self.sdst64(&inst.dst, v);
                self.set_scc_for(&inst.dst, v != 0);
            }
            S_AND_SAVEEXEC_B32
            | S_AND_SAVEEXEC_B64
            | S_OR_SAVEEXEC_B32
            | S_OR_SAVEEXEC_B64
            | S_XOR_SAVEEXEC_B32
            | S_XOR_SAVEEXEC_B64
            | S_AND_NOT0_SAVEEXEC_B32
            | S_AND_NOT0_SAVEEXEC_B64
            | S_OR_NOT0_SAVEEXEC_B32
            | S_OR_NOT0_SAVEEXEC_B64
            | S_AND_NOT1_SAVEEXEC_B32
            | S_AND_NOT1_SAVEEXEC_B64
            | S_OR_NOT1_SAVEEXEC_B32
            | S_OR_NOT1_SAVEEXEC_B64 => {
                let b64 = matches!(
                    op,
                    S_AND_SAVEEXEC_B64
                        | S_OR_SAVEEXEC_B64
                        | S_XOR_SAVEEXEC_B64
                        | S_AND_NOT0_SAVEEXEC_B64
                        | S_OR_NOT0_SAVEEXEC_B64
                        | S_AND_NOT1_SAVEEXEC_B64
                        | S_OR_NOT1_SAVEEXEC_B64
                );
                // Read the source before writing the saved EXEC: they may be the same SGPR.
                let s = if b64 { self.s64(&inst.src[0]) } else { self.s32(&inst.src[0]) as u64 };
                let width = if b64 { u64::MAX } else { u32::MAX as u64 };
                let old = self.exec_raw(b64);
                let new = match op {
                    S_AND_SAVEEXEC_B32 | S_AND_SAVEEXEC_B64 => s & old,
                    S_OR_SAVEEXEC_B32 | S_OR_SAVEEXEC_B64 => s | old,
                    S_XOR_SAVEEXEC_B32 | S_XOR_SAVEEXEC_B64 => s ^ old,
                    S_AND_NOT0_SAVEEXEC_B32 | S_AND_NOT0_SAVEEXEC_B64 => !s & old,
                    S_OR_NOT0_SAVEEXEC_B32 | S_OR_NOT0_SAVEEXEC_B64 => !s | old,
                    S_AND_NOT1_SAVEEXEC_B32 | S_AND_NOT1_SAVEEXEC_B64 => s & !old,
                    _ => s | !old,
                } & width;
                if b64 {
                    self.sdst64(&inst.dst, old);
                } else {
                    self.sdst32(&inst.dst, old as u32);
                }
                // EXEC is written even when SDST is out of range (RDNA3-NOTES,
                // "SGPR out-of-range behaviour").
                self.set_exec_raw(b64, new);
                self.set_scc_for(&inst.dst, new != 0);
            }

            // ---------------- SOPC ----------------
            S_CMP_EQ_I32 | S_CMP_LG_I32 | S_CMP_GT_I32 | S_CMP_GE_I32 | S_CMP_LT_I32 | S_CMP_LE_I32 | S_CMP_EQ_U32
            | S_CMP_LG_U32 | S_CMP_GT_U32 | S_CMP_GE_U32 | S_CMP_LT_U32 | S_CMP_LE_U32 | S_BITCMP0_B32
            | S_BITCMP1_B32 => {
                let (a, b) = (self.s32(&inst.src[0]), self.s32(&inst.src[1]));
                let (sa, sb) = (a as i32, b as i32);
                self.scc = match op {
                    S_CMP_EQ_I32 | S_CMP_EQ_U32 => a == b,
                    S_CMP_LG_I32 | S_CMP_LG_U32 => a != b,
                    S_CMP_GT_I32 => sa > sb,
                    S_CMP_GE_I32 => sa >= sb,
                    S_CMP_LT_I32 => sa < sb,
                    S_CMP_LE_I32 => sa <= sb,
                    S_CMP_GT_U32 => a > b,
                    S_CMP_GE_U32 => a >= b,
                    S_CMP_LT_U32 => a < b,
                    S_CMP_LE_U32 => a <= b,
                    S_BITCMP0_B32 => a >> (b & 31) & 1 == 0,
                    _ => a >> (b & 31) & 1 == 1,
                };
            }
            S_BITCMP0_B64 | S_BITCMP1_B64 => {
                let (a, b) = (self.s64(&inst.src[0]), self.s32(&inst.src[1]));
                let bit = a >> (b & 63) & 1;
                self.scc = if op == S_BITCMP0_B64 { bit == 0 } else { bit == 1 };
            }
            S_CMP_EQ_U64 | S_CMP_LG_U64 => {
                let (a, b) = (self.s64(&inst.src[0]), self.s64(&inst.src[1]));
                self.scc = if op == S_CMP_EQ_U64 { a == b } else { a != b };
            }

            // ---------------- VALU: 32-bit integer, two sources ----------------
            V_MUL_I32_I24 | V_MUL_HI_I32_I24 | V_MUL_U32_U24 | V_MUL_HI_U32_U24 | V_MIN_I32 | V_MAX_I32 | V_MIN_U32
            | V_MAX_U32 | V_LSHLREV_B32 | V_LSHRREV_B32 | V_ASHRREV_I32 | V_AND_B32 | V_OR_B32 | V_XOR_B32
            | V_XNOR_B32 | V_ADD_NC_U32 | V_SUB_NC_U32 | V_SUBREV_NC_U32 | V_BFM_B32 | V_BCNT_U32_B32
            | V_MUL_LO_U32 | V_MUL_HI_U32 | V_MUL_HI_I32 => {
                self.no_int_mods(inst)?;
                let i24 = |v: u32| ((v << 8) as i32 >> 8) as i64;
                match op {
                    V_MUL_I32_I24 => self.map2(inst, |x, y| (i24(x) * i24(y)) as u32),
                    V_MUL_HI_I32_I24 => self.map2(inst, |x, y| ((i24(x) * i24(y)) >> 32) as u32),
                    V_MUL_U32_U24 => self.map2(inst, |x, y| (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff)),
                    V_MUL_HI_U32_U24 => {
                        self.map2(inst, |x, y| (((x & 0xff_ffff) as u64 * (y & 0xff_ffff) as u64) >> 32) as u32)
                    }
                    V_MIN_I32 => self.map2(inst, |x, y| (x as i32).min(y as i32) as u32),
                    V_MAX_I32 => self.map2(inst, |x, y| (x as i32).max(y as i32) as u32),
                    V_MIN_U32 => self.map2(inst, |x, y| x.min(y)),
                    V_MAX_U32 => self.map2(inst, |x, y| x.max(y)),
                    V_LSHLREV_B32 => self.map2(inst, |x, y| y << (x & 31)),
                    V_LSHRREV_B32 => self.map2(inst, |x, y| y >> (x & 31)),
                    V_ASHRREV_I32 => self.map2(inst, |x, y| ((y as i32) >> (x & 31)) as u32),
                    V_AND_B32 => self.map2(inst, |x, y| x & y),
                    V_OR_B32 => self.map2(inst, |x, y| x | y),
                    V_XOR_B32 => self.map2(inst, |x, y| x ^ y),
                    V_XNOR_B32 => self.map2(inst, |x, y| !(x ^ y)),
                    // The clamp bit saturates the unsigned result.
                    V_ADD_NC_U32 if inst.clamp => self.map2(inst, |x, y| x.saturating_add(y)),
                    V_ADD_NC_U32 => self.map2(inst, |x, y| x.wrapping_add(y)),
                    V_SUB_NC_U32 if inst.clamp => self.map2(inst, |x, y| x.saturating_sub(y)),
                    V_SUB_NC_U32 => self.map2(inst, |x, y| x.wrapping_sub(y)),
                    V_SUBREV_NC_U32 if inst.clamp => self.map2(inst, |x, y| y.saturating_sub(x)),
                    V_SUBREV_NC_U32 => self.map2(inst, |x, y| y.wrapping_sub(x)),
                    V_BFM_B32 => self.map2(inst, |x, y| (((1u64 << (x & 31)) - 1) as u32) << (y & 31)),
                    V_BCNT_U32_B32 => self.map2(inst, |x, y| x.count_ones().wrapping_add(y)),
                    V_MUL_LO_U32 => self.map2(inst, |x, y| x.wrapping_mul(y)),
                    V_MUL_HI_U32 => self.map2(inst, |x, y| ((x as u64 * y as u64) >> 32) as u32),
                    _ => self.map2(inst, |x, y| (((x as i32 as i64) * (y as i32 as i64)) >> 32) as u32), // V_MUL_HI_I32
                }
            }
            // ---------------- VALU: 32-bit integer, three sources ----------------
            V_MAD_I32_I24 | V_MAD_U32_U24 | V_BFE_U32 | V_BFE_I32 | V_BFI_B32 | V_ALIGNBIT_B32 | V_ALIGNBYTE_B32
            | V_MIN3_I32 | V_MIN3_U32 | V_MAX3_I32 | V_MAX3_U32 | V_MED3_I32 | V_MED3_U32 | V_XOR3_B32 | V_PERM_B32
            | V_XAD_U32 | V_LSHL_ADD_U32 | V_ADD_LSHL_U32 | V_ADD3_U32 | V_LSHL_OR_B32 | V_AND_OR_B32 | V_OR3_B32 => {
                self.no_int_mods(inst)?;
                let (a, b, c) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]), self.vsrc(&inst.src[2]));
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let (x, y, z) = (a[l], b[l], c[l]);
                    let i24 = |v: u32| (v << 8) as i32 >> 8;
                    d[l] = match op {
                        V_MAD_I32_I24 => i24(x).wrapping_mul(i24(y)).wrapping_add(z as i32) as u32,
                        V_MAD_U32_U24 => (x & 0xff_ffff).wrapping_mul(y & 0xff_ffff).wrapping_add(z),
                        V_BFE_U32 => bfe32(x, y, z),
                        V_BFE_I32 => sbfe32(x, y, z),
                        V_BFI_B32 => (x & y) | (!x & z),
                        V_ALIGNBIT_B32 => ((((x as u64) << 32) | y as u64) >> (z & 31)) as u32,
                        V_ALIGNBYTE_B32 => ((((x as u64) << 32) | y as u64) >> (8 * (z & 3))) as u32,
                        V_MIN3_I32 => (x as i32).min(y as i32).min(z as i32) as u32,
                        V_MIN3_U32 => x.min(y).min(z),
                        V_MAX3_I32 => (x as i32).max(y as i32).max(z as i32) as u32,
                        V_MAX3_U32 => x.max(y).max(z),
                        V_MED3_I32 => med3(x as i32, y as i32, z as i32) as u32,
                        V_MED3_U32 => med3(x, y, z),
                        V_XOR3_B32 => x ^ y ^ z,
                        V_PERM_B32 => {
                            let data = (x as u64) << 32 | y as u64;
                            (0..4).fold(0, |acc, k| acc | byte_perm(data, z >> (8 * k)) << (8 * k))
                        }
                        V_XAD_U32 => (x ^ y).wrapping_add(z),
                        V_LSHL_ADD_U32 => (x << (y & 31)).wrapping_add(z),
                        V_ADD_LSHL_U32 => x.wrapping_add(y) << (z & 31),
                        V_ADD3_U32 => x.wrapping_add(y).wrapping_add(z),
                        V_LSHL_OR_B32 => (x << (y & 31)) | z,
                        V_AND_OR_B32 => (x & y) | z,
                        _ => x | y | z, // V_OR3_B32
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            // ---------------- VALU: 64-bit shifts ----------------
            V_LSHLREV_B64 | V_LSHRREV_B64 | V_ASHRREV_I64 => {
                self.no_int_mods(inst)?;
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc64(&inst.src[1]));
                let mut d = [0u64; 64];
                for l in 0..self.lanes {
                    let s = a[l] & 63;
                    d[l] = match op {
                        V_LSHLREV_B64 => b[l] << s,
                        V_LSHRREV_B64 => b[l] >> s,
                        _ => ((b[l] as i64) >> s) as u64,
                    };
                }
                self.vdst64(&inst.dst, &d, self.exec());
            }
            // ---------------- VALU: carry in/out ----------------
            V_ADD_CO_U32 | V_SUB_CO_U32 | V_SUBREV_CO_U32 | V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32 | V_SUBREV_CO_CI_U32 => {
                if inst.omod != 0 || inst.neg != 0 {
                    return Err(unsupported(format!("{} with modifiers is not supported", op.name())));
                }
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]));
                let cin = if matches!(op, V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32 | V_SUBREV_CO_CI_U32) {
                    self.mask_src(&inst.src[2])
                } else {
                    0
                };
                let exec = self.exec();
                let mut d = [0u32; 64];
                let mut cout = 0u64;
                for l in 0..self.lanes {
                    let c = cin >> l & 1;
                    let (x, y) = (a[l] as u64, b[l] as u64);
                    let (r, carry) = match op {
                        V_ADD_CO_U32 | V_ADD_CO_CI_U32 => {
                            let r = x + y + c;
                            (r as u32, r >> 32 != 0)
                        }
                        V_SUB_CO_U32 | V_SUB_CO_CI_U32 => (x.wrapping_sub(y).wrapping_sub(c) as u32, y + c > x),
                        _ => (y.wrapping_sub(x).wrapping_sub(c) as u32, x + c > y),
                    };
                    d[l] = if inst.clamp && carry {
                        if matches!(op, V_ADD_CO_U32 | V_ADD_CO_CI_U32) {
                            u32::MAX
                        } else {
                            0
                        }
                    } else {
                        r
                    };
                    if carry && exec >> l & 1 != 0 {
                        cout |= 1 << l;
                    }
                }
                self.vdst(&inst.dst, &d, exec);
                self.mask_dst(&inst.sdst, cout);
            }
            V_MAD_U64_U32 | V_MAD_I64_I32 => {
                let (a, b, c) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]), self.vsrc64(&inst.src[2]));
                let exec = self.exec();
                let mut d = [0u64; 64];
                let mut cout = 0u64;
                for l in 0..self.lanes {
                    let (r, carry) = if op == V_MAD_U64_U32 {
                        let p = a[l] as u128 * b[l] as u128 + c[l] as u128;
                        (p as u64, p >> 64 != 0)
                    } else {
                        let p = (a[l] as i32 as i128) * (b[l] as i32 as i128) + (c[l] as i64 as i128);
                        (p as u64, p != p as i64 as i128)
                    };
                    d[l] = r;
                    if carry && exec >> l & 1 != 0 {
                        cout |= 1 << l;
                    }
                }
                self.vdst64(&inst.dst, &d, exec);
                self.mask_dst(&inst.sdst, cout);
            }
            V_CNDMASK_B32 => {
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]));
                let m = self.mask_src(&inst.src[2]);
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let (x, y) = (self.vop3_float_mods(inst, 0, a[l]), self.vop3_float_mods(inst, 1, b[l]));
                    d[l] = if m >> l & 1 != 0 { y } else { x };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }

            // ---------------- VALU: one-source integer ----------------
            V_MOV_B32 | V_NOT_B32 | V_BFREV_B32 | V_CLZ_I32_U32 | V_CTZ_I32_B32 => {
                // v_mov_b32_e64 may carry abs/neg: applied bitwise, as the hardware does.
                let a = self.vsrc(&inst.src[0]);
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let x = a[l];
                    d[l] = match op {
                        V_MOV_B32 => self.vop3_float_mods(inst, 0, x),
                        V_NOT_B32 => !x,
                        V_BFREV_B32 => x.reverse_bits(),
                        V_CLZ_I32_U32 => {
                            if x == 0 {
                                u32::MAX
                            } else {
                                x.leading_zeros()
                            }
                        }
                        _ => {
                            if x == 0 {
                                u32::MAX
                            } else {
                                x.trailing_zeros()
                            }
                        }
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_READFIRSTLANE_B32 => {
                let exec = self.exec();
                let lane = if exec == 0 { 0 } else { exec.trailing_zeros() as usize };
                let v = match inst.src[0] {
                    Operand::Vgpr(r) => self.v(r as usize)[lane],
                    ref o => self.s32(o),
                };
                self.sdst32(&inst.dst, v);
            }
            V_READLANE_B32 => {
                let lane = (self.s32(&inst.src[1]) as usize) & (self.lanes - 1);
                let v = match inst.src[0] {
                    Operand::Vgpr(r) => self.v(r as usize)[lane],
                    ref o => self.s32(o),
                };
                self.sdst32(&inst.dst, v);
            }
            V_WRITELANE_B32 => {
                let v = self.s32(&inst.src[0]);
                let lane = (self.s32(&inst.src[1]) as usize) & (self.lanes - 1);
                if let Operand::Vgpr(r) = inst.dst {
                    self.v_mut(r as usize)[lane] = v;
                }
            }
            V_MBCNT_LO_U32_B32 | V_MBCNT_HI_U32_B32 => {
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]));
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    // Bits of src0 belonging to lanes below this one, in the low or high half.
                    let below = if op == V_MBCNT_LO_U32_B32 { l.min(32) } else { l.saturating_sub(32) };
                    let mask = if below == 0 { 0 } else { u32::MAX >> (32 - below) };
                    d[l] = (a[l] & mask).count_ones().wrapping_add(b[l]);
                }
                self.vdst(&inst.dst, &d, self.exec());
            }

            // ---------------- VALU: f32 ----------------
            V_ADD_F32 | V_SUB_F32 | V_SUBREV_F32 | V_MUL_F32 | V_MUL_DX9_ZERO_F32 | V_MIN_F32 | V_MAX_F32 => {
                let a = self.fsrc(inst, 0);
                let b = self.fsrc(inst, 1);
                let mut d = [0f32; 64];
                let n = self.lanes.min(64);
                let m = FloatMode::f32(self.mode);
                let host = fp::f32_host_mode(self.mode);
                // One loop per operation (the match hoisted out of it) so that each vectorises.
                macro_rules! each {
                    (|$x:ident, $y:ident| $e:expr) => {
                        for l in 0..n {
                            let ($x, $y) = (a[l], b[l]);
                            d[l] = $e;
                        }
                    };
                }
                match op {
                    V_ADD_F32 if host => each!(|x, y| fp::add(x, y)),
                    V_SUB_F32 if host => each!(|x, y| fp::nan2(x, y, x - y)),
                    V_SUBREV_F32 if host => each!(|x, y| fp::nan2(x, y, y - x)),
                    V_MUL_F32 if host => each!(|x, y| fp::nan2(x, y, x * y)),
                    V_ADD_F32 => each!(|x, y| m.add(x, y)),
                    V_SUB_F32 => each!(|x, y| m.add(x, -y)),
                    V_SUBREV_F32 => each!(|x, y| m.add(y, -x)),
                    V_MUL_F32 => each!(|x, y| m.mul(x, y)),
                    // Legacy multiply: 0 times anything (even inf or NaN) is +0.
                    V_MUL_DX9_ZERO_F32 => each!(|x, y| if x == 0.0 || y == 0.0 { 0.0 } else { m.mul(x, y) }),
                    V_MIN_F32 => each!(|x, y| fmin(x, y)),
                    _ => each!(|x, y| fmax(x, y)), // V_MAX_F32
                }
                self.fdst(inst, &d);
            }
            V_LDEXP_F32 => {
                // src1 is an integer exponent, so it takes no float modifiers.
                let (a, n) = (self.fsrc(inst, 0), self.vsrc(&inst.src[1]));
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    d[l] = ldexp(a[l], n[l] as i32);
                }
                self.fdst(inst, &d);
            }
            V_FMAC_F32 | V_FMAMK_F32 | V_FMAAK_F32 | V_FMA_F32 | V_MIN3_F32 | V_MAX3_F32 => {
                let a = self.fsrc(inst, 0);
                let mut b = self.fsrc(inst, 1);
                let mut c = match op {
                    // fmac accumulates into its destination.
                    V_FMAC_F32 => fp::as_f32(self.vsrc(&inst.dst)),
                    _ => self.fsrc(inst, 2),
                };
                // fmamk: src0 * K + src1, with the literal K in src2.
                if op == V_FMAMK_F32 {
                    std::mem::swap(&mut b, &mut c);
                }
                let mut d = [0f32; 64];
                let n = self.lanes.min(64);
                match op {
                    V_MIN3_F32 => {
                        for l in 0..n {
                            d[l] = fmin(fmin(a[l], b[l]), c[l]);
                        }
                    }
                    V_MAX3_F32 => {
                        for l in 0..n {
                            d[l] = fmax(fmax(a[l], b[l]), c[l]);
                        }
                    }
                    _ if fp::f32_host_mode(self.mode) => {
                        for l in 0..n {
                            d[l] = fp::nan3(a[l], b[l], c[l], a[l].mul_add(b[l], c[l]));
                        }
                    }
                    _ => {
                        let m = FloatMode::f32(self.mode);
                        for l in 0..n {
                            d[l] = m.fma(a[l], b[l], c[l]);
                        }
                    }
                }
                self.fdst(inst, &d);
            }
            V_CVT_F32_I32 | V_CVT_F32_U32 => {
                let a = self.vsrc(&inst.src[0]);
                let mut d = [0f32; 64];
                let m = FloatMode::f32(self.mode);
                for l in 0..self.lanes {
                    d[l] = m.round_int(if op == V_CVT_F32_I32 { a[l] as i32 as f64 } else { a[l] as f64 });
                }
                self.fdst(inst, &d);
            }
            V_CVT_U32_F32 | V_CVT_I32_F32 => {
                let a = self.fsrc(inst, 0);
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    // Saturating, NaN → 0: what `as` does and what the hardware does.
                    d[l] = if op == V_CVT_U32_F32 { a[l] as u32 } else { a[l] as i32 as u32 };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_FRACT_F32 | V_TRUNC_F32 | V_CEIL_F32 | V_RNDNE_F32 | V_FLOOR_F32 | V_EXP_F32 | V_LOG_F32 | V_RCP_F32
            | V_RCP_IFLAG_F32 | V_RSQ_F32 | V_SQRT_F32 => {
                let a = self.fsrc(inst, 0);
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    let x = a[l];
                    d[l] = match op {
                        V_FRACT_F32 => fract(x),
                        V_TRUNC_F32 => x.trunc(),
                        V_CEIL_F32 => x.ceil(),
                        V_RNDNE_F32 => x.round_ties_even(),
                        V_FLOOR_F32 => x.floor(),
                        V_EXP_F32 => x.exp2(),
                        V_LOG_F32 => x.log2(),
                        V_RCP_F32 | V_RCP_IFLAG_F32 => 1.0 / x,
                        V_RSQ_F32 => 1.0 / x.sqrt(),
                        _ => x.sqrt(),
                    };
                }
                self.fdst(inst, &d);
            }

            // ---------------- VOPC ----------------
            V_CMP_LT_F32 | V_CMP_EQ_F32 | V_CMP_LE_F32 | V_CMP_GT_F32 | V_CMP_LG_F32 | V_CMP_GE_F32 | V_CMP_O_F32
            | V_CMP_U_F32 | V_CMP_NGE_F32 | V_CMP_NLG_F32 | V_CMP_NGT_F32 | V_CMP_NLE_F32 | V_CMP_NEQ_F32
            | V_CMP_NLT_F32 | V_CMPX_LT_F32 | V_CMPX_EQ_F32 | V_CMPX_LE_F32 | V_CMPX_GT_F32 | V_CMPX_LG_F32
            | V_CMPX_GE_F32 | V_CMPX_O_F32 | V_CMPX_U_F32 | V_CMPX_NGE_F32 | V_CMPX_NLG_F32 | V_CMPX_NGT_F32
            | V_CMPX_NLE_F32 | V_CMPX_NEQ_F32 | V_CMPX_NLT_F32 => {
                let (a, b) = (self.fsrc(inst, 0), self.fsrc(inst, 1));
                let exec = self.exec();
                let mut m = 0u64;
                for l in 0..self.lanes {
                    if fcmp(op, a[l], b[l]) {
                        m |= 1 << l;
                    }
                }
                self.mask_dst(&inst.sdst, m & exec);
            }
            V_CMP_LT_I32 | V_CMP_EQ_I32 | V_CMP_LE_I32 | V_CMP_GT_I32 | V_CMP_NE_I32 | V_CMP_GE_I32 | V_CMP_LT_U32
            | V_CMP_EQ_U32 | V_CMP_LE_U32 | V_CMP_GT_U32 | V_CMP_NE_U32 | V_CMP_GE_U32 | V_CMPX_LT_I32
            | V_CMPX_EQ_I32 | V_CMPX_LE_I32 | V_CMPX_GT_I32 | V_CMPX_NE_I32 | V_CMPX_GE_I32 | V_CMPX_LT_U32
            | V_CMPX_EQ_U32 | V_CMPX_LE_U32 | V_CMPX_GT_U32 | V_CMPX_NE_U32 | V_CMPX_GE_U32 => {
                let i = |x: u32| x as i32;
                let m = match op {
                    V_CMP_LT_I32 | V_CMPX_LT_I32 => self.cmp_mask(inst, |x, y| i(x) < i(y)),
                    V_CMP_EQ_I32 | V_CMPX_EQ_I32 | V_CMP_EQ_U32 | V_CMPX_EQ_U32 => self.cmp_mask(inst, |x, y| x == y),
                    V_CMP_LE_I32 | V_CMPX_LE_I32 => self.cmp_mask(inst, |x, y| i(x) <= i(y)),
                    V_CMP_GT_I32 | V_CMPX_GT_I32 => self.cmp_mask(inst, |x, y| i(x) > i(y)),
                    V_CMP_NE_I32 | V_CMPX_NE_I32 | V_CMP_NE_U32 | V_CMPX_NE_U32 => self.cmp_mask(inst, |x, y| x != y),
                    V_CMP_GE_I32 | V_CMPX_GE_I32 => self.cmp_mask(inst, |x, y| i(x) >= i(y)),
                    V_CMP_LT_U32 | V_CMPX_LT_U32 => self.cmp_mask(inst, |x, y| x < y),
                    V_CMP_LE_U32 | V_CMPX_LE_U32 => self.cmp_mask(inst, |x, y| x <= y),
                    V_CMP_GT_U32 | V_CMPX_GT_U32 => self.cmp_mask(inst, |x, y| x > y),
                    _ => self.cmp_mask(inst, |x, y| x >= y), // V_CMP_GE_U32 | V_CMPX_GE_U32
                };
                // v_cmpx's destination is EXEC (the decoder put it in sdst).
                self.mask_dst(&inst.sdst, m & self.exec());
            }

            // Not ALU instructions: the executor's step() handles them before the ALU.
            sopp_ops!()
            | smem_ops!()
            | ds_ops!()
            | mubuf_ops!()
            | global_ops!()
            | scratch_ops!()
            | vopd_ops!()
            | S_WAITCNT_VSCNT
            | S_WAITCNT_VMCNT
            | S_WAITCNT_EXPCNT
            | S_WAITCNT_LGKMCNT
            | S_VERSION
            | S_GETPC_B64
            | S_SETPC_B64
            | S_SWAPPC_B64
            | V_NOP => return Err(illegal(format!("{} reached the ALU but is not an ALU instruction", op.name()))),
            // Decoded opcodes without an implementation never get here (the program
            // builder turns them into traps), but say so if one does.
            _ => return self.salu_more(inst),
        }
        Ok(())
    }

    fn exec_raw(&self, b64: bool) -> u64 {
        let lo = self.sgpr[crate::isa::decode::SGPR_EXEC_LO as usize] as u64;
        if b64 {
            lo | (self.sgpr[crate::isa::decode::SGPR_EXEC_LO as usize + 1] as u64) << 32
        } else {
            lo
        }
    }

    fn set_exec_raw(&mut self, b64: bool, v: u64) {
        self.sgpr[crate::isa::decode::SGPR_EXEC_LO as usize] = v as u32;
        if b64 {
            self.sgpr[crate::isa::decode::SGPR_EXEC_LO as usize + 1] = (v >> 32) as u32;
        }
    }
}

/// Whether a VALU instruction has no input or output modifiers (the fast path).
fn plain(inst: &Inst) -> bool {
    inst.abs | inst.neg | inst.omod == 0 && !inst.clamp
}

/// Integer ops whose VOP3 clamp bit (saturation) the executor implements. Not an opcode
/// fact of the table's: it says how far this executor's general path goes, and changes
/// with the `if inst.clamp` arms of `alu()` that implement it.
fn int_clamp_supported(op: Op) -> bool {
    matches!(op, V_ADD_NC_U32 | V_SUB_NC_U32 | V_SUBREV_NC_U32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ieee_min_max_follow_the_isa() {
        let snan = f32::from_bits(0x7f80_0001);
        assert!(fmin(snan, 1.0).is_nan());
        assert_eq!(fmin(f32::NAN, 1.0), 1.0);
        assert_eq!(fmax(2.0, f32::NAN), 2.0);
        assert_eq!(fmin(0.0, -0.0).to_bits(), (-0.0f32).to_bits());
        assert_eq!(fmax(-0.0, 0.0).to_bits(), 0);
    }

    #[test]
    fn bitfield_helpers_match_the_isa_definition() {
        assert_eq!(bfe32(0xabcd_1234, 8, 8), 0x12);
        assert_eq!(bfe32(0xabcd_1234, 8, 0), 0);
        assert_eq!(sbfe32(0x0000_8000, 12, 4), 0xffff_fff8);
        assert_eq!(scalar_bfe64(0xff00, 8, 8, true), u64::MAX);
        assert_eq!(med3(3, 1, 2), 2);
        assert_eq!(byte_perm(0x0706050403020100, 5), 5);
        assert_eq!(byte_perm(0x0000_0000_0000_8000, 8), 0xff);
        assert_eq!(ldexp(1.5, 3), 12.0);
        assert_eq!(ldexp(1.0, -149), f32::from_bits(1));
        assert_eq!(fract(-0.25), 0.75);
    }

    /// pow2 is 2^k for every normal power: the oracle doubles and halves from 1.
    #[test]
    fn pow2_is_every_normal_power_of_two() {
        let mut p = 1f64;
        for k in 0..=1023 {
            assert_eq!(pow2(k), p, "2^{k}");
            p *= 2.0;
        }
        let mut p = 1f64;
        for k in 0..=1022 {
            assert_eq!(pow2(-k), p, "2^-{k}");
            p *= 0.5;
        }
    }

    /// v_ldexp_f32 is `x * 2^n` rounded once to f32 (round to nearest even), infinities,
    /// NaNs and zeros unchanged. Oracle: the product in f64 with 2^n made by repeated
    /// doubling or halving (exact), then one conversion; past the f32 range a finite x
    /// overflows to ±inf or underflows to ±0.
    #[test]
    fn ldexp_is_one_rounding_of_x_times_2_to_the_n() {
        let oracle = |x: f32, n: i32| -> f32 {
            if !x.is_finite() || x == 0.0 {
                return x;
            }
            if n > 300 {
                return f32::INFINITY.copysign(x);
            }
            if n < -300 {
                return 0f32.copysign(x);
            }
            let mut p = 1f64;
            for _ in 0..n.unsigned_abs() {
                p = if n > 0 { p * 2.0 } else { p * 0.5 };
            }
            (x as f64 * p) as f32
        };
        let mut bits = 0x1234_5678u32;
        let mut xs: Vec<f32> = vec![1.0, -1.5, f32::MIN_POSITIVE, f32::from_bits(1), f32::MAX, -0.0, f32::INFINITY];
        xs.extend([f32::NAN, f32::from_bits(0x7fa0_0000), f32::from_bits(0x0040_0001)]);
        for _ in 0..400 {
            bits ^= bits << 13;
            bits ^= bits >> 17;
            bits ^= bits << 5;
            xs.push(f32::from_bits(bits));
        }
        let mut ns: Vec<i32> = (-330..=330).collect();
        ns.extend([i32::MIN, i32::MIN + 1, -100_000, -401, -400, 400, 401, 100_000, i32::MAX]);
        for &x in &xs {
            for &n in &ns {
                let (got, want) = (ldexp(x, n), oracle(x, n));
                assert!(
                    got.to_bits() == want.to_bits() || (got.is_nan() && want.to_bits() == x.to_bits()),
                    "ldexp({x:e} = {:#x}, {n}) = {got:e}, want {want:e}",
                    x.to_bits()
                );
            }
        }
        // Halfway cases round to even: 1.5 x 2^-149 is 1.5 ulps of the smallest denormal.
        assert_eq!(ldexp(1.5, -149).to_bits(), 2);
        assert_eq!(ldexp(2.5, -149).to_bits(), 2);
        assert_eq!(ldexp(1.0, 128), f32::INFINITY);
        assert_eq!(ldexp(-1.0, -150).to_bits(), 0x8000_0000);
    }
}
