//! VALU instructions as lane-vector IR: what `exec/alu.rs` computes for the same opcodes
//! in the host f32 mode the translated code runs in (round to nearest even, denormals
//! kept), bit for bit. An instruction with a form or modifier not listed here returns
//! [`NotInline`] and runs in the interpreter.
//!
//! A lowering computes its results first and returns them as [`Effect`]s; the caller
//! writes them. VOPD uses that to let both halves read the state from before the
//! instruction.

use super::ir::{Ir, Lower, NotInline};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::Op::{self, *};

/// A write an instruction makes, applied after all its reads.
pub enum Effect {
    /// A VGPR under EXEC.
    V(u16, String),
    /// A lane mask to a scalar destination (`mask_dst`).
    Mask(Operand, String),
    /// A 32-bit scalar destination.
    S32(Operand, String),
    /// One lane of a VGPR, whatever EXEC is (v_writelane).
    Lane(u16, String, String),
}

/// Writes `effects` in order (EXEC for the VGPR writes is read first).
pub fn apply(ir: &mut Ir, effects: Vec<Effect>) -> Lower {
    let needs_exec = effects.iter().any(|e| matches!(e, Effect::V(..)));
    let exec = if needs_exec { ir.exec()? } else { String::new() };
    for e in effects {
        match e {
            Effect::V(r, v) => ir.vstore(r, &v, &exec),
            Effect::Mask(op, m) => ir.mask_dst(&op, &m)?,
            Effect::S32(op, v) => ir.sdst32(&op, &v)?,
            Effect::Lane(r, lane, v) => {
                let vi = ir.vi();
                let old = ir.vload(r);
                let new = ir.val(&format!("insertelement {vi} {old}, i32 {v}, i32 {lane}"));
                ir.vstore_all(r, &new);
            }
        }
    }
    Ok(())
}

/// Whether `inst` has no VOP3 modifiers at all (`plain` and no op_sel) and no DPP.
fn no_mods(inst: &Inst) -> bool {
    inst.abs | inst.neg | inst.omod | inst.opsel | inst.opsel_hi | inst.neg_hi == 0
        && !inst.clamp
        && !inst.form.is_dpp()
}

/// Float input modifiers only (abs/neg), no output modifiers, no op_sel, no DPP.
fn float_in_mods_only(inst: &Inst) -> bool {
    inst.omod | inst.opsel | inst.opsel_hi | inst.neg_hi == 0 && !inst.clamp && !inst.form.is_dpp()
}

fn vdst(inst: &Inst) -> Lower<u16> {
    match inst.dst {
        Operand::Vgpr(r) => Ok(r),
        _ => Err(NotInline),
    }
}

/// The effects of VALU instruction `inst`, or [`NotInline`]. An f32 result is flushed
/// where MODE flushes f32 denormals ([`host_flush`]; the host runs with DAZ only,
/// exec/tier.rs), as the interpreter flushes the rounded result.
pub fn valu(ir: &mut Ir, inst: &Inst) -> Lower<Vec<Effect>> {
    let mut effects = valu_effects(ir, inst)?;
    if inst.op.info().ty[0] == crate::isa::table::Ty::F32 {
        for e in &mut effects {
            if let Effect::V(_, v) = e {
                *v = host_flush(ir, v);
            }
        }
    }
    Ok(effects)
}

fn valu_effects(ir: &mut Ir, inst: &Inst) -> Lower<Vec<Effect>> {
    let op = inst.op;
    if let Some(r) = int2(ir, inst)? {
        return Ok(vec![Effect::V(vdst(inst)?, r)]);
    }
    if let Some(r) = int3(ir, inst)? {
        return Ok(vec![Effect::V(vdst(inst)?, r)]);
    }
    if let Some(r) = f32_op(ir, inst)? {
        return Ok(vec![Effect::V(vdst(inst)?, r)]);
    }
    if let Some(m) = compare(ir, inst)? {
        let exec = ir.exec()?;
        let m = ir.val(&format!("and {} {m}, {exec}", ir.mi()));
        return Ok(vec![Effect::Mask(inst.sdst, m)]);
    }
    match op {
        V_MOV_B32 | V_NOT_B32 | V_BFREV_B32 | V_CLZ_I32_U32 | V_CTZ_I32_B32 => one_source(ir, inst),
        V_CNDMASK_B32 if float_in_mods_only(inst) => {
            let (a, b) = (fsrc(ir, inst, 0)?, fsrc(ir, inst, 1)?);
            let m = ir.mask_src(&inst.src[2])?;
            let m = ir.lanes_of(&m);
            let vi = ir.vi();
            let r = ir.val(&format!("select {} {m}, {vi} {b}, {vi} {a}", ir.vb()));
            Ok(vec![Effect::V(vdst(inst)?, r)])
        }
        V_ADD_CO_U32 | V_SUB_CO_U32 | V_SUBREV_CO_U32 | V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32 | V_SUBREV_CO_CI_U32
            if no_mods(inst) =>
        {
            carry(ir, inst)
        }
        V_MAD_U64_U32 | V_MAD_I64_I32 if no_mods(inst) => mad64(ir, inst),
        V_READFIRSTLANE_B32 => {
            let exec = ir.exec()?;
            let mi = ir.mi();
            let z = ir.val(&format!("icmp eq {mi} {exec}, 0"));
            let tz = ir.call(mi, &format!("llvm.cttz.{mi}"), &[mi, "i1"], &[&exec, "false"]);
            let lane = ir.val(&format!("select i1 {z}, {mi} 0, {mi} {tz}"));
            let v = lane_read(ir, &inst.src[0], mi, &lane)?;
            Ok(vec![Effect::S32(inst.dst, v)])
        }
        V_READLANE_B32 => {
            let s = ir.s32(&inst.src[1])?;
            let lane = ir.val(&format!("and i32 {s}, {}", ir.n - 1));
            let v = lane_read(ir, &inst.src[0], "i32", &lane)?;
            Ok(vec![Effect::S32(inst.dst, v)])
        }
        V_WRITELANE_B32 => {
            let v = ir.s32(&inst.src[0])?;
            let s = ir.s32(&inst.src[1])?;
            let lane = ir.val(&format!("and i32 {s}, {}", ir.n - 1));
            Ok(vec![Effect::Lane(vdst(inst)?, lane, v)])
        }
        V_FREXP_MANT_F32 | V_FREXP_EXP_I32_F32 if float_in_mods_only(inst) => {
            // A denormal input is ±0 where MODE flushes (DAZ does not touch the bit
            // operations below).
            let a = fsrc(ir, inst, 0)?;
            let a = host_flush(ir, &a);
            let (mant, exp) = frexp(ir, &a);
            let r = if op == V_FREXP_MANT_F32 { mant } else { exp };
            Ok(vec![Effect::V(vdst(inst)?, r)])
        }
        V_LDEXP_F32 if float_in_mods_only(inst) => {
            let a = fsrc(ir, inst, 0)?;
            let n = ir.vsrc(&inst.src[1])?;
            Ok(vec![Effect::V(vdst(inst)?, ldexp(ir, &a, &n))])
        }
        V_CMP_CLASS_F32 | V_CMPX_CLASS_F32 if float_in_mods_only(inst) => {
            let a = fsrc(ir, inst, 0)?;
            let mask = ir.vsrc(&inst.src[1])?;
            let c = class_bits(ir, &a);
            let hit = ir.ibin("and", &c, &mask);
            let zero = ir.ci(0);
            let b = ir.val(&format!("icmp ne {} {hit}, {zero}", ir.vi()));
            let m = ir.mask_of(&b);
            let exec = ir.exec()?;
            let m = ir.val(&format!("and {} {m}, {exec}", ir.mi()));
            Ok(vec![Effect::Mask(inst.sdst, m)])
        }
        V_MBCNT_LO_U32_B32 | V_MBCNT_HI_U32_B32 if no_mods(inst) => {
            let (a, b) = (ir.vsrc(&inst.src[0])?, ir.vsrc(&inst.src[1])?);
            // Per lane: the bits of src0 that belong to lanes below it, in one half.
            let masks: Vec<String> = (0..ir.n)
                .map(|l| {
                    let below = if op == V_MBCNT_LO_U32_B32 { l.min(32) } else { l.saturating_sub(32) };
                    let m = if below == 0 { 0 } else { u32::MAX >> (32 - below) };
                    format!("i32 {}", m as i32)
                })
                .collect();
            let m = ir.ibin("and", &a, &format!("<{}>", masks.join(", ")));
            let vi = ir.vi();
            let c = ir.vcall("ctpop", &vi, &[&m]);
            Ok(vec![Effect::V(vdst(inst)?, ir.ibin("add", &c, &b))])
        }
        _ => Err(NotInline),
    }
}

/// Lane `lane` (of integer type `ty`) of a vector source (a VGPR's lane, or the scalar
/// itself).
fn lane_read(ir: &mut Ir, src: &Operand, ty: &str, lane: &str) -> Lower<String> {
    match *src {
        Operand::Vgpr(r) => {
            let v = ir.vload(r);
            let vi = ir.vi();
            Ok(ir.val(&format!("extractelement {vi} {v}, {ty} {lane}")))
        }
        ref o => ir.s32(o),
    }
}

/// Float source `k` with VOP3 abs/neg applied (bit operations on the lanes).
fn fsrc(ir: &mut Ir, inst: &Inst, k: usize) -> Lower<String> {
    let mut v = ir.vsrc(&inst.src[k])?;
    if inst.abs >> k & 1 != 0 {
        let c = ir.ci(0x7fff_ffff);
        v = ir.ibin("and", &v, &c);
    }
    if inst.neg >> k & 1 != 0 {
        let c = ir.ci(0x8000_0000u32 as i32 as i64);
        v = ir.ibin("xor", &v, &c);
    }
    Ok(v)
}

/// Two-source 32-bit integer operations (`map2`).
fn int2(ir: &mut Ir, inst: &Inst) -> Lower<Option<String>> {
    let op = inst.op;
    let binop = match op {
        V_ADD_NC_U32 => "add",
        V_SUB_NC_U32 | V_SUBREV_NC_U32 => "sub",
        V_AND_B32 => "and",
        V_OR_B32 => "or",
        V_XOR_B32 | V_XNOR_B32 => "xor",
        V_LSHLREV_B32 => "shl",
        V_LSHRREV_B32 => "lshr",
        V_ASHRREV_I32 => "ashr",
        V_MUL_LO_U32 => "mul",
        V_MIN_I32 | V_MAX_I32 | V_MIN_U32 | V_MAX_U32 | V_MUL_HI_U32 | V_MUL_HI_I32 | V_MUL_U32_U24 | V_MUL_I32_I24
        | V_MUL_HI_U32_U24 | V_MUL_HI_I32_I24 | V_BCNT_U32_B32 | V_BFM_B32 => "",
        _ => return Ok(None),
    };
    if !no_mods(inst) {
        return Err(NotInline);
    }
    let (a, b) = (ir.vsrc(&inst.src[0])?, ir.vsrc(&inst.src[1])?);
    let vi = ir.vi();
    let r = match op {
        V_SUBREV_NC_U32 => ir.ibin("sub", &b, &a),
        V_LSHLREV_B32 | V_LSHRREV_B32 | V_ASHRREV_I32 => {
            let c = ir.ci(31);
            let s = ir.ibin("and", &a, &c);
            ir.ibin(binop, &b, &s)
        }
        V_XNOR_B32 => {
            let x = ir.ibin("xor", &a, &b);
            let c = ir.ci(-1);
            ir.ibin("xor", &x, &c)
        }
        V_MIN_I32 => ir.vcall("smin", &vi, &[&a, &b]),
        V_MAX_I32 => ir.vcall("smax", &vi, &[&a, &b]),
        V_MIN_U32 => ir.vcall("umin", &vi, &[&a, &b]),
        V_MAX_U32 => ir.vcall("umax", &vi, &[&a, &b]),
        V_MUL_HI_U32 | V_MUL_HI_I32 => {
            let ext = if op == V_MUL_HI_U32 { "zext" } else { "sext" };
            mul_hi(ir, ext, &a, &b)
        }
        V_MUL_U32_U24 | V_MUL_HI_U32_U24 => {
            let m = ir.ci(0xff_ffff);
            let (x, y) = (ir.ibin("and", &a, &m), ir.ibin("and", &b, &m));
            if op == V_MUL_U32_U24 {
                ir.ibin("mul", &x, &y)
            } else {
                mul_hi(ir, "zext", &x, &y)
            }
        }
        V_MUL_I32_I24 | V_MUL_HI_I32_I24 => {
            let (x, y) = (sext24(ir, &a), sext24(ir, &b));
            if op == V_MUL_I32_I24 {
                ir.ibin("mul", &x, &y)
            } else {
                mul_hi(ir, "sext", &x, &y)
            }
        }
        V_BCNT_U32_B32 => {
            let c = ir.vcall("ctpop", &vi, &[&a]);
            ir.ibin("add", &c, &b)
        }
        V_BFM_B32 => {
            // ((1 << (x & 31)) - 1) << (y & 31)
            let c31 = ir.ci(31);
            let (x, y) = (ir.ibin("and", &a, &c31), ir.ibin("and", &b, &c31));
            let one = ir.ci(1);
            let p = ir.ibin("shl", &one, &x);
            let m = ir.ibin("sub", &p, &one);
            ir.ibin("shl", &m, &y)
        }
        _ => ir.ibin(binop, &a, &b),
    };
    Ok(Some(r))
}

/// The low 24 bits, sign-extended.
fn sext24(ir: &mut Ir, v: &str) -> String {
    let c8 = ir.ci(8);
    let s = ir.ibin("shl", v, &c8);
    ir.ibin("ashr", &s, &c8)
}

/// The high 32 bits of the 64-bit product of `a` and `b`, each extended by `ext`.
fn mul_hi(ir: &mut Ir, ext: &str, a: &str, b: &str) -> String {
    let (vi, vi64) = (ir.vi(), ir.vi64());
    let x = ir.val(&format!("{ext} {vi} {a} to {vi64}"));
    let y = ir.val(&format!("{ext} {vi} {b} to {vi64}"));
    let p = ir.val(&format!("mul {vi64} {x}, {y}"));
    let c32 = ir.splat_const("i64", "32");
    let h = ir.val(&format!("lshr {vi64} {p}, {c32}"));
    ir.val(&format!("trunc {vi64} {h} to {vi}"))
}

/// Three-source 32-bit integer operations.
fn int3(ir: &mut Ir, inst: &Inst) -> Lower<Option<String>> {
    let op = inst.op;
    if !matches!(
        op,
        V_MAD_I32_I24
            | V_MAD_U32_U24
            | V_BFE_U32
            | V_BFE_I32
            | V_BFI_B32
            | V_ALIGNBIT_B32
            | V_ALIGNBYTE_B32
            | V_MIN3_I32
            | V_MIN3_U32
            | V_MAX3_I32
            | V_MAX3_U32
            | V_MED3_I32
            | V_MED3_U32
            | V_XOR3_B32
            | V_XAD_U32
            | V_LSHL_ADD_U32
            | V_ADD_LSHL_U32
            | V_ADD3_U32
            | V_LSHL_OR_B32
            | V_AND_OR_B32
            | V_OR3_B32
    ) {
        return Ok(None);
    }
    if !no_mods(inst) {
        return Err(NotInline);
    }
    let (x, y, z) = (ir.vsrc(&inst.src[0])?, ir.vsrc(&inst.src[1])?, ir.vsrc(&inst.src[2])?);
    let vi = ir.vi();
    let c31 = ir.ci(31);
    let r = match op {
        V_MAD_U32_U24 => {
            let m = ir.ci(0xff_ffff);
            let (a, b) = (ir.ibin("and", &x, &m), ir.ibin("and", &y, &m));
            let p = ir.ibin("mul", &a, &b);
            ir.ibin("add", &p, &z)
        }
        V_MAD_I32_I24 => {
            let (a, b) = (sext24(ir, &x), sext24(ir, &y));
            let p = ir.ibin("mul", &a, &b);
            ir.ibin("add", &p, &z)
        }
        V_BFE_U32 | V_BFE_I32 => bfe(ir, &x, &y, &z, op == V_BFE_I32),
        V_BFI_B32 => {
            let a = ir.ibin("and", &x, &y);
            let c = ir.ci(-1);
            let nx = ir.ibin("xor", &x, &c);
            let b = ir.ibin("and", &nx, &z);
            ir.ibin("or", &a, &b)
        }
        V_ALIGNBIT_B32 => {
            let s = ir.ibin("and", &z, &c31);
            ir.vcall("fshr", &vi, &[&x, &y, &s])
        }
        V_ALIGNBYTE_B32 => {
            let c3 = ir.ci(3);
            let s = ir.ibin("and", &z, &c3);
            let c8 = ir.ci(8);
            let s = ir.ibin("mul", &s, &c8);
            ir.vcall("fshr", &vi, &[&x, &y, &s])
        }
        V_MIN3_I32 | V_MIN3_U32 | V_MAX3_I32 | V_MAX3_U32 => {
            let f = match op {
                V_MIN3_I32 => "smin",
                V_MIN3_U32 => "umin",
                V_MAX3_I32 => "smax",
                _ => "umax",
            };
            let t = ir.vcall(f, &vi, &[&x, &y]);
            ir.vcall(f, &vi, &[&t, &z])
        }
        V_MED3_I32 | V_MED3_U32 => {
            // a.max(b).min(a.min(b).max(c))
            let (mx, mn) = if op == V_MED3_I32 { ("smax", "smin") } else { ("umax", "umin") };
            let hi = ir.vcall(mx, &vi, &[&x, &y]);
            let lo = ir.vcall(mn, &vi, &[&x, &y]);
            let lo = ir.vcall(mx, &vi, &[&lo, &z]);
            ir.vcall(mn, &vi, &[&hi, &lo])
        }
        V_XOR3_B32 => {
            let t = ir.ibin("xor", &x, &y);
            ir.ibin("xor", &t, &z)
        }
        V_XAD_U32 => {
            let t = ir.ibin("xor", &x, &y);
            ir.ibin("add", &t, &z)
        }
        V_LSHL_ADD_U32 => {
            let s = ir.ibin("and", &y, &c31);
            let t = ir.ibin("shl", &x, &s);
            ir.ibin("add", &t, &z)
        }
        V_ADD_LSHL_U32 => {
            let t = ir.ibin("add", &x, &y);
            let s = ir.ibin("and", &z, &c31);
            ir.ibin("shl", &t, &s)
        }
        V_ADD3_U32 => {
            let t = ir.ibin("add", &x, &y);
            ir.ibin("add", &t, &z)
        }
        V_LSHL_OR_B32 => {
            let s = ir.ibin("and", &y, &c31);
            let t = ir.ibin("shl", &x, &s);
            ir.ibin("or", &t, &z)
        }
        V_AND_OR_B32 => {
            let t = ir.ibin("and", &x, &y);
            ir.ibin("or", &t, &z)
        }
        _ => {
            let t = ir.ibin("or", &x, &y);
            ir.ibin("or", &t, &z)
        }
    };
    Ok(Some(r))
}

/// `bfe32` / `sbfe32`: bits `off & 31 ..` of `v`, `width & 31` of them (0 for width 0).
fn bfe(ir: &mut Ir, v: &str, off: &str, width: &str, signed: bool) -> String {
    let c31 = ir.ci(31);
    let o = ir.ibin("and", off, &c31);
    let w = ir.ibin("and", width, &c31);
    let one = ir.ci(1);
    let p = ir.ibin("shl", &one, &w);
    let mask = ir.ibin("sub", &p, &one);
    let sh = ir.ibin("lshr", v, &o);
    let f = ir.ibin("and", &sh, &mask);
    if !signed {
        return f;
    }
    // Sign-extend from `w` bits; width 0 gives 0 (and would shift by 32).
    let c32 = ir.ci(32);
    let k = ir.ibin("sub", &c32, &w);
    let zero = ir.ci(0);
    let w0 = ir.val(&format!("icmp eq {} {w}, {zero}", ir.vi()));
    let k = ir.val(&format!("select {} {w0}, {} {zero}, {} {k}", ir.vb(), ir.vi(), ir.vi()));
    let up = ir.ibin("shl", &f, &k);
    let s = ir.ibin("ashr", &up, &k);
    let vi = ir.vi();
    ir.val(&format!("select {} {w0}, {vi} {zero}, {vi} {s}", ir.vb()))
}

fn one_source(ir: &mut Ir, inst: &Inst) -> Lower<Vec<Effect>> {
    let op = inst.op;
    // v_mov_b32_e64 may carry abs/neg (bitwise); the others take no modifiers.
    let ok = if op == V_MOV_B32 { float_in_mods_only(inst) } else { no_mods(inst) };
    if !ok {
        return Err(NotInline);
    }
    let a = fsrc(ir, inst, 0)?;
    let vi = ir.vi();
    let r = match op {
        V_MOV_B32 => a,
        V_NOT_B32 => {
            let c = ir.ci(-1);
            ir.ibin("xor", &a, &c)
        }
        V_BFREV_B32 => ir.vcall("bitreverse", &vi, &[&a]),
        _ => {
            let f = if op == V_CLZ_I32_U32 { "ctlz" } else { "cttz" };
            // Zero gives -1 (the `true` flag would make it poison).
            let name = format!("llvm.{f}.v{}i32", ir.n);
            let c = ir.call(&vi, &name, &[&vi, "i1"], &[&a, "false"]);
            let zero = ir.ci(0);
            let z = ir.val(&format!("icmp eq {vi} {a}, {zero}"));
            let m1 = ir.ci(-1);
            ir.val(&format!("select {} {z}, {vi} {m1}, {vi} {c}", ir.vb()))
        }
    };
    Ok(vec![Effect::V(vdst(inst)?, r)])
}

/// v_add_co_u32 and friends: the result under EXEC and the carry mask (`& EXEC`) to SDST,
/// in 32-bit lanes (the carry of a + b + c is the carry of either addition).
fn carry(ir: &mut Ir, inst: &Inst) -> Lower<Vec<Effect>> {
    let op = inst.op;
    let (a, b) = (ir.vsrc(&inst.src[0])?, ir.vsrc(&inst.src[1])?);
    let (vi, vb) = (ir.vi(), ir.vb());
    let cin = if matches!(op, V_ADD_CO_CI_U32 | V_SUB_CO_CI_U32 | V_SUBREV_CO_CI_U32) {
        let m = ir.mask_src(&inst.src[2])?;
        let l = ir.lanes_of(&m);
        Some(ir.val(&format!("zext {vb} {l} to {vi}")))
    } else {
        None
    };
    let (r, c) = if matches!(op, V_ADD_CO_U32 | V_ADD_CO_CI_U32) {
        let s1 = ir.ibin("add", &a, &b);
        let c1 = ir.val(&format!("icmp ult {vi} {s1}, {a}"));
        match cin {
            Some(cin) => {
                let s2 = ir.ibin("add", &s1, &cin);
                let c2 = ir.val(&format!("icmp ult {vi} {s2}, {s1}"));
                (s2, ir.val(&format!("or {vb} {c1}, {c2}")))
            }
            None => (s1, c1),
        }
    } else {
        // sub: x - y - c, borrowing when y + c > x (subrev swaps x and y).
        let (x, y) = if matches!(op, V_SUB_CO_U32 | V_SUB_CO_CI_U32) { (&a, &b) } else { (&b, &a) };
        let d1 = ir.ibin("sub", x, y);
        let b1 = ir.val(&format!("icmp ult {vi} {x}, {y}"));
        match cin {
            Some(cin) => {
                let d2 = ir.ibin("sub", &d1, &cin);
                let b2 = ir.val(&format!("icmp ult {vi} {d1}, {cin}"));
                (d2, ir.val(&format!("or {vb} {b1}, {b2}")))
            }
            None => (d1, b1),
        }
    };
    let m = ir.mask_of(&c);
    let exec = ir.exec()?;
    let m = ir.val(&format!("and {} {m}, {exec}", ir.mi()));
    Ok(vec![Effect::V(vdst(inst)?, r), Effect::Mask(inst.sdst, m)])
}

/// v_mad_u64_u32 / v_mad_i64_i32: a 64-bit result in a VGPR pair, the overflow mask to SDST.
fn mad64(ir: &mut Ir, inst: &Inst) -> Lower<Vec<Effect>> {
    let signed = inst.op == V_MAD_I64_I32;
    let (a, b) = (ir.vsrc(&inst.src[0])?, ir.vsrc(&inst.src[1])?);
    let c = ir.vsrc64(&inst.src[2])?;
    let (vi, vi64) = (ir.vi(), ir.vi64());
    let ext = if signed { "sext" } else { "zext" };
    let x = ir.val(&format!("{ext} {vi} {a} to {vi64}"));
    let y = ir.val(&format!("{ext} {vi} {b} to {vi64}"));
    // The 32 x 32 product is exact in 64 bits; only the addition can overflow.
    let p = ir.val(&format!("mul {vi64} {x}, {y}"));
    let s = ir.val(&format!("add {vi64} {p}, {c}"));
    let over = if signed {
        // Signed overflow: p and c have the same sign and s the other.
        let t1 = ir.val(&format!("xor {vi64} {p}, {s}"));
        let t2 = ir.val(&format!("xor {vi64} {c}, {s}"));
        let t = ir.val(&format!("and {vi64} {t1}, {t2}"));
        ir.val(&format!("icmp slt {vi64} {t}, zeroinitializer"))
    } else {
        ir.val(&format!("icmp ult {vi64} {s}, {p}"))
    };
    let (lo, hi) = ir.split64(&s);
    let m = ir.mask_of(&over);
    let exec = ir.exec()?;
    let m = ir.val(&format!("and {} {m}, {exec}", ir.mi()));
    let d = vdst(inst)?;
    Ok(vec![Effect::V(d, lo), Effect::V(d.wrapping_add(1), hi), Effect::Mask(inst.sdst, m)])
}

/// The f32 operations, as integer lane vectors of their result bits.
fn f32_op(ir: &mut Ir, inst: &Inst) -> Lower<Option<String>> {
    let op = inst.op;
    let kind = match op {
        V_ADD_F32 | V_SUB_F32 | V_SUBREV_F32 | V_MUL_F32 | V_MIN_F32 | V_MAX_F32 => 2,
        V_FMAC_F32 | V_FMAMK_F32 | V_FMAAK_F32 | V_FMA_F32 | V_MIN3_F32 | V_MAX3_F32 => 3,
        V_TRUNC_F32 | V_CEIL_F32 | V_RNDNE_F32 | V_FLOOR_F32 | V_EXP_F32 | V_LOG_F32 | V_RCP_F32 | V_RCP_IFLAG_F32
        | V_RSQ_F32 | V_SQRT_F32 => 1,
        V_CVT_F32_I32 | V_CVT_F32_U32 | V_CVT_U32_F32 | V_CVT_I32_F32 => 4,
        _ => return Ok(None),
    };
    if !float_in_mods_only(inst) {
        return Err(NotInline);
    }
    let r = match kind {
        2 => f32_two(ir, inst)?,
        3 => f32_three(ir, inst)?,
        1 => f32_one(ir, inst)?,
        _ => convert(ir, inst)?,
    };
    Ok(Some(r))
}

fn f32_two(ir: &mut Ir, inst: &Inst) -> Lower<String> {
    let (a, b) = (fsrc(ir, inst, 0)?, fsrc(ir, inst, 1)?);
    let op = inst.op;
    if matches!(op, V_MIN_F32 | V_MAX_F32) {
        return Ok(min_max(ir, &a, &b, op == V_MIN_F32));
    }
    let (fa, fb) = (ir.as_f(&a), ir.as_f(&b));
    let vf = ir.vf();
    let r = match op {
        V_ADD_F32 => ir.val(&format!("fadd {vf} {fa}, {fb}")),
        V_SUB_F32 => ir.val(&format!("fsub {vf} {fa}, {fb}")),
        V_SUBREV_F32 => ir.val(&format!("fsub {vf} {fb}, {fa}")),
        _ => ir.val(&format!("fmul {vf} {fa}, {fb}")),
    };
    let r = ir.as_i(&r);
    // Folds of a constant source (`x * -1.0` to a sign flip) skip DAZ: `valu` flushes.
    Ok(nan_fix(ir, &[&a, &b], &r))
}

fn f32_three(ir: &mut Ir, inst: &Inst) -> Lower<String> {
    let op = inst.op;
    let a = fsrc(ir, inst, 0)?;
    let mut b = fsrc(ir, inst, 1)?;
    let mut c = match op {
        // fmac accumulates into its destination (no modifiers apply to it).
        V_FMAC_F32 => ir.vsrc(&inst.dst)?,
        _ => fsrc(ir, inst, 2)?,
    };
    // fmamk: src0 * K + src1, with the literal K in src2.
    if op == V_FMAMK_F32 {
        std::mem::swap(&mut b, &mut c);
    }
    match op {
        V_MIN3_F32 | V_MAX3_F32 => {
            let min = op == V_MIN3_F32;
            let t = min_max(ir, &a, &b, min);
            Ok(min_max(ir, &t, &c, min))
        }
        _ => {
            let (fa, fb, fc) = (ir.as_f(&a), ir.as_f(&b), ir.as_f(&c));
            let vf = ir.vf();
            let r = ir.vcall("fma", &vf, &[&fa, &fb, &fc]);
            let r = ir.as_i(&r);
            Ok(nan_fix(ir, &[&a, &b, &c], &r))
        }
    }
}

fn f32_one(ir: &mut Ir, inst: &Inst) -> Lower<String> {
    let a = fsrc(ir, inst, 0)?;
    let fa = ir.as_f(&a);
    let vf = ir.vf();
    let one = ir.splat_const("float", "1.0");
    let r = match inst.op {
        // f32::exp2 / log2: the C library's exp2f / log2f, lane by lane, as the
        // interpreter calls them (their NaNs are the library's).
        V_EXP_F32 | V_LOG_F32 => {
            let r = libm(ir, if inst.op == V_EXP_F32 { "exp2f" } else { "log2f" }, &fa);
            return Ok(ir.as_i(&r));
        }
        V_TRUNC_F32 => ir.vcall("trunc", &vf, &[&fa]),
        V_CEIL_F32 => ir.vcall("ceil", &vf, &[&fa]),
        V_RNDNE_F32 => ir.vcall("roundeven", &vf, &[&fa]),
        V_FLOOR_F32 => ir.vcall("floor", &vf, &[&fa]),
        V_RCP_F32 | V_RCP_IFLAG_F32 => ir.val(&format!("fdiv {vf} {one}, {fa}")),
        V_RSQ_F32 => {
            let s = ir.vcall("sqrt", &vf, &[&fa]);
            ir.val(&format!("fdiv {vf} {one}, {s}"))
        }
        _ => ir.vcall("sqrt", &vf, &[&fa]),
    };
    // NaN results as the host's instructions make them (LLVM may rewrite 1 / -x as -1 / x,
    // which changes a NaN's sign).
    let r = ir.as_i(&r);
    Ok(nan_fix(ir, &[&a], &r))
}

/// A C library function applied to every lane (scalar calls, as the interpreter makes).
fn libm(ir: &mut Ir, name: &str, fa: &str) -> String {
    let vf = ir.vf();
    let mut acc = "poison".to_string();
    for l in 0..ir.n {
        let x = ir.val(&format!("extractelement {vf} {fa}, i32 {l}"));
        let y = ir.call("float", name, &["float"], &[&x]);
        acc = ir.val(&format!("insertelement {vf} {acc}, float {y}, i32 {l}"));
    }
    acc
}

fn convert(ir: &mut Ir, inst: &Inst) -> Lower<String> {
    let (vi, vf) = (ir.vi(), ir.vf());
    match inst.op {
        V_CVT_F32_I32 | V_CVT_F32_U32 => {
            if inst.abs | inst.neg != 0 {
                return Err(NotInline);
            }
            let a = ir.vsrc(&inst.src[0])?;
            let cv = if inst.op == V_CVT_F32_I32 { "sitofp" } else { "uitofp" };
            let f = ir.val(&format!("{cv} {vi} {a} to {vf}"));
            Ok(ir.as_i(&f))
        }
        _ => {
            // Saturating, NaN → 0 (Rust's `as`, and the hardware's rule).
            let a = fsrc(ir, inst, 0)?;
            let fa = ir.as_f(&a);
            let name = if inst.op == V_CVT_U32_F32 { "fptoui" } else { "fptosi" };
            let full = format!("llvm.{name}.sat.v{}i32.v{}f32", ir.n, ir.n);
            Ok(ir.call(&vi, &full, &[&vf], &[&fa]))
        }
    }
}

/// Lanes that are NaN, infinite or zero (where frexp and ldexp return their input).
fn special(ir: &mut Ir, a: &str) -> String {
    let (vi, vb) = (ir.vi(), ir.vb());
    let c = ir.ci(0x7fff_ffff);
    let m = ir.ibin("and", a, &c);
    let inf = ir.ci(0x7f80_0000);
    let nonfinite = ir.val(&format!("icmp uge {vi} {m}, {inf}"));
    let zero = ir.ci(0);
    let z = ir.val(&format!("icmp eq {vi} {m}, {zero}"));
    ir.val(&format!("or {vb} {nonfinite}, {z}"))
}

/// `frexp32`: the mantissa in [0.5, 1) with the sign, and the exponent, computed from the
/// value widened to f64 (exact; f32 denormals are normal there); NaN, inf and zero give
/// the input and 0.
fn frexp(ir: &mut Ir, a: &str) -> (String, String) {
    let (vi, vi64, vb) = (ir.vi(), ir.vi64(), ir.vb());
    let n = ir.n;
    let fa = ir.as_f(a);
    let d = ir.val(&format!("fpext {} {fa} to <{n} x double>", ir.vf()));
    let bits = ir.val(&format!("bitcast <{n} x double> {d} to {vi64}"));
    let c52 = ir.splat_const("i64", "52");
    let e = ir.val(&format!("lshr {vi64} {bits}, {c52}"));
    let c7ff = ir.splat_const("i64", "2047");
    let e = ir.val(&format!("and {vi64} {e}, {c7ff}"));
    let e = ir.val(&format!("trunc {vi64} {e} to {vi}"));
    let c1022 = ir.ci(1022);
    let e = ir.ibin("sub", &e, &c1022);
    let keep = ir.splat_const("i64", &(0x800f_ffff_ffff_ffffu64 as i64).to_string());
    let mb = ir.val(&format!("and {vi64} {bits}, {keep}"));
    let half = ir.splat_const("i64", &(1022i64 << 52).to_string());
    let mb = ir.val(&format!("or {vi64} {mb}, {half}"));
    let md = ir.val(&format!("bitcast {vi64} {mb} to <{n} x double>"));
    let m = ir.val(&format!("fptrunc <{n} x double> {md} to {}", ir.vf()));
    let m = ir.as_i(&m);
    let sp = special(ir, a);
    let zero = ir.ci(0);
    let mant = ir.val(&format!("select {vb} {sp}, {vi} {a}, {vi} {m}"));
    let exp = ir.val(&format!("select {vb} {sp}, {vi} {zero}, {vi} {e}"));
    (mant, exp)
}

/// `ldexp`: `x * 2^n` with `n` clamped to ±400, scaled in f64 in two exact steps and
/// rounded once; NaN, inf and zero give the input.
fn ldexp(ir: &mut Ir, a: &str, n: &str) -> String {
    let (vi, vi64, vb) = (ir.vi(), ir.vi64(), ir.vb());
    let lanes = ir.n;
    let vd = format!("<{lanes} x double>");
    let (hi, lo) = (ir.ci(400), ir.ci(-400));
    let k = ir.vcall("smin", &vi, &[n, &hi]);
    let k = ir.vcall("smax", &vi, &[&k, &lo]);
    let two = ir.ci(2);
    let h1 = ir.ibin("sdiv", &k, &two);
    let h2 = ir.ibin("sub", &k, &h1);
    let mut v = {
        let fa = ir.as_f(a);
        ir.val(&format!("fpext {} {fa} to {vd}", ir.vf()))
    };
    for h in [h1, h2] {
        let bias = ir.ci(1023);
        let b = ir.ibin("add", &h, &bias);
        let b = ir.val(&format!("zext {vi} {b} to {vi64}"));
        let c52 = ir.splat_const("i64", "52");
        let b = ir.val(&format!("shl {vi64} {b}, {c52}"));
        let p = ir.val(&format!("bitcast {vi64} {b} to {vd}"));
        v = ir.val(&format!("fmul {vd} {v}, {p}"));
    }
    let r = ir.val(&format!("fptrunc {vd} {v} to {}", ir.vf()));
    let r = ir.as_i(&r);
    let sp = special(ir, a);
    ir.val(&format!("select {vb} {sp}, {vi} {a}, {vi} {r}"))
}

/// `class32`: one bit per lane for v_cmp_class (0 sNaN, 1 qNaN, 2 -inf, 3 -normal,
/// 4 -denormal, 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
fn class_bits(ir: &mut Ir, a: &str) -> String {
    let (vi, vb) = (ir.vi(), ir.vb());
    let c = ir.ci(0x7fff_ffff);
    let m = ir.ibin("and", a, &c);
    let zero = ir.ci(0);
    let neg = ir.val(&format!("icmp slt {vi} {a}, {zero}"));
    let sel = |ir: &mut Ir, cond: &str, neg_bit: u32, pos_bit: u32| -> String {
        let (n, p) = (ir.ci(1 << neg_bit), ir.ci(1 << pos_bit));
        ir.val(&format!("select {vb} {cond}, {vi} {n}, {vi} {p}"))
    };
    let sign = neg.clone();
    let normal = sel(ir, &sign, 3, 8);
    let denorm = sel(ir, &sign, 4, 7);
    let zbits = sel(ir, &sign, 5, 6);
    let inf = sel(ir, &sign, 2, 9);
    let (inf_c, min_normal) = (ir.ci(0x7f80_0000), ir.ci(0x0080_0000));
    let is_zero = ir.val(&format!("icmp eq {vi} {m}, {zero}"));
    let is_den = ir.val(&format!("icmp ult {vi} {m}, {min_normal}"));
    let is_inf = ir.val(&format!("icmp eq {vi} {m}, {inf_c}"));
    let is_nan = ir.val(&format!("icmp ugt {vi} {m}, {inf_c}"));
    let q = ir.ci(0x0040_0000);
    let qb = ir.ibin("and", a, &q);
    let quiet = ir.val(&format!("icmp ne {vi} {qb}, {zero}"));
    let (one, two) = (ir.ci(1), ir.ci(2));
    let nan = ir.val(&format!("select {vb} {quiet}, {vi} {two}, {vi} {one}"));
    let r = ir.val(&format!("select {vb} {is_den}, {vi} {denorm}, {vi} {normal}"));
    let r = ir.val(&format!("select {vb} {is_zero}, {vi} {zbits}, {vi} {r}"));
    let r = ir.val(&format!("select {vb} {is_inf}, {vi} {inf}, {vi} {r}"));
    ir.val(&format!("select {vb} {is_nan}, {vi} {nan}, {vi} {r}"))
}

/// The hardware's NaN rule for a result `r` of sources `srcs` (all integer lane vectors of
/// float bits): a NaN result becomes the first NaN source, quieted, or the default NaN
/// 0xffc00000 when no source is NaN (`fp::nan3`). Taken only when some lane is NaN.
fn nan_fix(ir: &mut Ir, srcs: &[&str], r: &str) -> String {
    let (vi, vf, vb, mi) = (ir.vi(), ir.vf(), ir.vb(), ir.mi());
    let rf = ir.as_f(r);
    let rn = ir.val(&format!("fcmp uno {vf} {rf}, {rf}"));
    let m = ir.val(&format!("bitcast {vb} {rn} to {mi}"));
    let any = ir.val(&format!("icmp ne {mi} {m}, 0"));
    let (fix, join) = (ir.label("nan"), ir.label("nanj"));
    let from = ir.block.clone();
    ir.line(&format!("br i1 {any}, label %{fix}, label %{join}, !prof !0"));
    ir.start(&fix);
    let mut chain = ir.ci(0xffc0_0000u32 as i32 as i64);
    let q = ir.ci(0x0040_0000);
    for s in srcs.iter().rev() {
        let sf = ir.as_f(s);
        let sn = ir.val(&format!("fcmp uno {vf} {sf}, {sf}"));
        let qs = ir.ibin("or", s, &q);
        chain = ir.val(&format!("select {vb} {sn}, {vi} {qs}, {vi} {chain}"));
    }
    let fixed = ir.val(&format!("select {vb} {rn}, {vi} {chain}, {vi} {r}"));
    ir.line(&format!("br label %{join}"));
    ir.start(&join);
    ir.val(&format!("phi {vi} [ {r}, %{from} ], [ {fixed}, %{fix} ]"))
}

/// IEEE-mode minNum / maxNum (`ieee_min_max`): a signalling NaN gives itself quieted
/// (src0 first), a quiet NaN loses to a number, equal values (±0) combine their bits.
fn min_max(ir: &mut Ir, a: &str, b: &str, min: bool) -> String {
    let (vi, vf, vb) = (ir.vi(), ir.vf(), ir.vb());
    let (fa, fb) = (ir.as_f(a), ir.as_f(b));
    let an = ir.val(&format!("fcmp uno {vf} {fa}, {fa}"));
    let bn = ir.val(&format!("fcmp uno {vf} {fb}, {fb}"));
    let q = ir.ci(0x0040_0000);
    let zero = ir.ci(0);
    let qa = ir.ibin("and", a, &q);
    let qb = ir.ibin("and", b, &q);
    let a_quiet_bit = ir.val(&format!("icmp ne {vi} {qa}, {zero}"));
    let b_quiet_bit = ir.val(&format!("icmp ne {vi} {qb}, {zero}"));
    let a_snan = ir.val(&format!("xor {vb} {a_quiet_bit}, {}", ir.splat_const("i1", "true")));
    let a_snan = ir.val(&format!("and {vb} {an}, {a_snan}"));
    let b_snan = ir.val(&format!("xor {vb} {b_quiet_bit}, {}", ir.splat_const("i1", "true")));
    let b_snan = ir.val(&format!("and {vb} {bn}, {b_snan}"));
    // Ordered results.
    let eq = ir.val(&format!("fcmp oeq {vf} {fa}, {fb}"));
    let comb = ir.ibin(if min { "or" } else { "and" }, a, b);
    let pred = if min { "olt" } else { "ogt" };
    let pick_a = ir.val(&format!("fcmp {pred} {vf} {fa}, {fb}"));
    let ord = ir.val(&format!("select {vb} {pick_a}, {vi} {a}, {vi} {b}"));
    let ord = ir.val(&format!("select {vb} {eq}, {vi} {comb}, {vi} {ord}"));
    // Quiet NaNs lose.
    let r = ir.val(&format!("select {vb} {bn}, {vi} {a}, {vi} {ord}"));
    let r = ir.val(&format!("select {vb} {an}, {vi} {b}, {vi} {r}"));
    // Signalling NaNs win, quieted (src0 first).
    let qbv = ir.ibin("or", b, &q);
    let r = ir.val(&format!("select {vb} {b_snan}, {vi} {qbv}, {vi} {r}"));
    let qav = ir.ibin("or", a, &q);
    let r = ir.val(&format!("select {vb} {a_snan}, {vi} {qav}, {vi} {r}"));
    // The result is one of the inputs' bits: a denormal one is flushed by `valu`.
    r
}

/// `r` (f32 bits) times a 1.0 that LLVM cannot see (`Env::one`, loaded at run time): a
/// denormal becomes ±0 under the host's DAZ (exec/tier.rs), every other value stays; NaNs
/// keep their bits (the multiplication would quiet a signalling one that an operation
/// such as frexp passes through). LLVM 19 cannot select a vector `canonicalize` on x86,
/// and folds a visible `x * 1.0` away.
fn host_flush(ir: &mut Ir, r: &str) -> String {
    let p = ir.field("%env", ir.lay.env_one);
    let one = ir.val(&format!("load float, ptr {p}, align 4"));
    let ones = ir.splat("float", &one);
    let (vf, vi, vb) = (ir.vf(), ir.vi(), ir.vb());
    let fr = ir.as_f(r);
    let m = ir.val(&format!("fmul {vf} {fr}, {ones}"));
    let m = ir.as_i(&m);
    let nan = ir.val(&format!("fcmp uno {vf} {fr}, {fr}"));
    ir.val(&format!("select {vb} {nan}, {vi} {r}, {vi} {m}"))
}

/// VOPC: the lanes where the comparison holds, as a mask integer (before `& EXEC`).
fn compare(ir: &mut Ir, inst: &Inst) -> Lower<Option<String>> {
    let Some((float, pred)) = compare_pred(inst.op) else { return Ok(None) };
    if !(if float { float_in_mods_only(inst) } else { no_mods(inst) }) {
        return Err(NotInline);
    }
    let (a, b) =
        if float { (fsrc(ir, inst, 0)?, fsrc(ir, inst, 1)?) } else { (ir.vsrc(&inst.src[0])?, ir.vsrc(&inst.src[1])?) };
    let c = if float {
        let (fa, fb) = (ir.as_f(&a), ir.as_f(&b));
        ir.val(&format!("fcmp {pred} {} {fa}, {fb}", ir.vf()))
    } else {
        ir.val(&format!("icmp {pred} {} {a}, {b}", ir.vi()))
    };
    Ok(Some(ir.mask_of(&c)))
}

/// The LLVM predicate of a 32-bit VOPC opcode (float or integer).
fn compare_pred(op: Op) -> Option<(bool, &'static str)> {
    Some(match op {
        V_CMP_LT_F32 | V_CMPX_LT_F32 => (true, "olt"),
        V_CMP_EQ_F32 | V_CMPX_EQ_F32 => (true, "oeq"),
        V_CMP_LE_F32 | V_CMPX_LE_F32 => (true, "ole"),
        V_CMP_GT_F32 | V_CMPX_GT_F32 => (true, "ogt"),
        V_CMP_LG_F32 | V_CMPX_LG_F32 => (true, "one"),
        V_CMP_GE_F32 | V_CMPX_GE_F32 => (true, "oge"),
        V_CMP_O_F32 | V_CMPX_O_F32 => (true, "ord"),
        V_CMP_U_F32 | V_CMPX_U_F32 => (true, "uno"),
        V_CMP_NGE_F32 | V_CMPX_NGE_F32 => (true, "ult"),
        V_CMP_NLG_F32 | V_CMPX_NLG_F32 => (true, "ueq"),
        V_CMP_NGT_F32 | V_CMPX_NGT_F32 => (true, "ule"),
        V_CMP_NLE_F32 | V_CMPX_NLE_F32 => (true, "ugt"),
        V_CMP_NEQ_F32 | V_CMPX_NEQ_F32 => (true, "une"),
        V_CMP_NLT_F32 | V_CMPX_NLT_F32 => (true, "uge"),
        V_CMP_LT_I32 | V_CMPX_LT_I32 => (false, "slt"),
        V_CMP_EQ_I32 | V_CMPX_EQ_I32 | V_CMP_EQ_U32 | V_CMPX_EQ_U32 => (false, "eq"),
        V_CMP_LE_I32 | V_CMPX_LE_I32 => (false, "sle"),
        V_CMP_GT_I32 | V_CMPX_GT_I32 => (false, "sgt"),
        V_CMP_NE_I32 | V_CMPX_NE_I32 | V_CMP_NE_U32 | V_CMPX_NE_U32 => (false, "ne"),
        V_CMP_GE_I32 | V_CMPX_GE_I32 => (false, "sge"),
        V_CMP_LT_U32 | V_CMPX_LT_U32 => (false, "ult"),
        V_CMP_LE_U32 | V_CMPX_LE_U32 => (false, "ule"),
        V_CMP_GT_U32 | V_CMPX_GT_U32 => (false, "ugt"),
        V_CMP_GE_U32 | V_CMPX_GE_U32 => (false, "uge"),
        _ => return None,
    })
}
