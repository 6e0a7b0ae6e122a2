//! SALU instructions as scalar IR: what `exec/alu.rs` and `exec/salu.rs` compute for the
//! same opcodes, with SCC by RDNA3-NOTES, "SCC" (compares: the result; arithmetic: the
//! carry; logic: result != 0; moves leave it). TTMP operands are not inline (their access
//! depends on STATUS.PRIV); the register file rules for NULL and out-of-range
//! destinations are `Ir::sget` / `Ir::sset`'s.

use super::ir::{Ir, Lower, NotInline};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::Op::*;

/// Lowers SALU instruction `inst`, or returns [`NotInline`].
pub fn salu(ir: &mut Ir, inst: &Inst) -> Lower {
    if sop2_32(ir, inst)? || sop2_64(ir, inst)? || sopk(ir, inst)? || sop1(ir, inst)? || saveexec(ir, inst)? {
        return Ok(());
    }
    sopc(ir, inst)
}

/// Writes the 32-bit result `d` and, if given, SCC.
fn finish32(ir: &mut Ir, inst: &Inst, d: &str, scc: Option<&str>) -> Lower {
    ir.sdst32(&inst.dst, d)?;
    if let Some(c) = scc {
        ir.set_scc(c);
    }
    Ok(())
}

fn nonzero32(ir: &mut Ir, v: &str) -> String {
    ir.val(&format!("icmp ne i32 {v}, 0"))
}

/// The two-source 32-bit SOP2 operations.
fn sop2_32(ir: &mut Ir, inst: &Inst) -> Lower<bool> {
    let op = inst.op;
    let logic = match op {
        S_AND_B32 => Some(("and", false)),
        S_OR_B32 => Some(("or", false)),
        S_XOR_B32 => Some(("xor", false)),
        S_NAND_B32 => Some(("and", true)),
        S_NOR_B32 => Some(("or", true)),
        S_XNOR_B32 => Some(("xor", true)),
        _ => None,
    };
    if !matches!(
        op,
        S_ADD_U32
            | S_SUB_U32
            | S_ADD_I32
            | S_SUB_I32
            | S_ADDC_U32
            | S_SUBB_U32
            | S_LSHL_B32
            | S_LSHR_B32
            | S_ASHR_I32
            | S_LSHL1_ADD_U32
            | S_LSHL2_ADD_U32
            | S_LSHL3_ADD_U32
            | S_LSHL4_ADD_U32
            | S_MIN_I32
            | S_MIN_U32
            | S_MAX_I32
            | S_MAX_U32
            | S_AND_NOT1_B32
            | S_OR_NOT1_B32
            | S_BFM_B32
            | S_MUL_I32
            | S_MUL_HI_U32
            | S_MUL_HI_I32
            | S_CSELECT_B32
            | S_PACK_LL_B32_B16
            | S_PACK_LH_B32_B16
            | S_PACK_HH_B32_B16
            | S_PACK_HL_B32_B16
    ) && logic.is_none()
    {
        return Ok(false);
    }
    let (a, b) = (ir.s32(&inst.src[0])?, ir.s32(&inst.src[1])?);
    if let Some((f, invert)) = logic {
        let mut r = ir.val(&format!("{f} i32 {a}, {b}"));
        if invert {
            r = ir.val(&format!("xor i32 {r}, -1"));
        }
        let c = nonzero32(ir, &r);
        finish32(ir, inst, &r, Some(&c))?;
        return Ok(true);
    }
    match op {
        S_ADD_U32 | S_SUB_U32 | S_ADD_I32 | S_SUB_I32 => {
            let f = match op {
                S_ADD_U32 => "uadd",
                S_SUB_U32 => "usub",
                S_ADD_I32 => "sadd",
                _ => "ssub",
            };
            let name = format!("llvm.{f}.with.overflow.i32");
            let s = ir.call("{i32, i1}", &name, &["i32", "i32"], &[&a, &b]);
            let r = ir.val(&format!("extractvalue {{i32, i1}} {s}, 0"));
            let o = ir.val(&format!("extractvalue {{i32, i1}} {s}, 1"));
            finish32(ir, inst, &r, Some(&o))?;
        }
        S_ADDC_U32 | S_SUBB_U32 => {
            let c = ir.scc()?;
            let c = ir.val(&format!("zext i1 {c} to i64"));
            let x = ir.val(&format!("zext i32 {a} to i64"));
            let y = ir.val(&format!("zext i32 {b} to i64"));
            let (r, o) = if op == S_ADDC_U32 {
                let s = ir.val(&format!("add i64 {x}, {y}"));
                let s = ir.val(&format!("add i64 {s}, {c}"));
                let h = ir.val(&format!("lshr i64 {s}, 32"));
                (s, ir.val(&format!("icmp ne i64 {h}, 0")))
            } else {
                let d = ir.val(&format!("sub i64 {x}, {y}"));
                let d = ir.val(&format!("sub i64 {d}, {c}"));
                let yc = ir.val(&format!("add i64 {y}, {c}"));
                (d, ir.val(&format!("icmp ugt i64 {yc}, {x}")))
            };
            let r = ir.val(&format!("trunc i64 {r} to i32"));
            finish32(ir, inst, &r, Some(&o))?;
        }
        S_LSHL_B32 | S_LSHR_B32 | S_ASHR_I32 => {
            let s = ir.val(&format!("and i32 {b}, 31"));
            let f = match op {
                S_LSHL_B32 => "shl",
                S_LSHR_B32 => "lshr",
                _ => "ashr",
            };
            let r = ir.val(&format!("{f} i32 {a}, {s}"));
            let c = nonzero32(ir, &r);
            finish32(ir, inst, &r, Some(&c))?;
        }
        S_LSHL1_ADD_U32 | S_LSHL2_ADD_U32 | S_LSHL3_ADD_U32 | S_LSHL4_ADD_U32 => {
            let n = match op {
                S_LSHL1_ADD_U32 => 1,
                S_LSHL2_ADD_U32 => 2,
                S_LSHL3_ADD_U32 => 3,
                _ => 4,
            };
            let x = ir.val(&format!("zext i32 {a} to i64"));
            let y = ir.val(&format!("zext i32 {b} to i64"));
            let x = ir.val(&format!("shl i64 {x}, {n}"));
            let s = ir.val(&format!("add i64 {x}, {y}"));
            let h = ir.val(&format!("lshr i64 {s}, 32"));
            let o = ir.val(&format!("icmp ne i64 {h}, 0"));
            let r = ir.val(&format!("trunc i64 {s} to i32"));
            finish32(ir, inst, &r, Some(&o))?;
        }
        S_MIN_I32 | S_MIN_U32 | S_MAX_I32 | S_MAX_U32 => {
            // SCC = S0 < S1 for min, S0 >= S1 for max (RDNA3 pseudocode).
            let pred = match op {
                S_MIN_I32 => "slt",
                S_MIN_U32 => "ult",
                S_MAX_I32 => "sge",
                _ => "uge",
            };
            let c = ir.val(&format!("icmp {pred} i32 {a}, {b}"));
            let r = ir.val(&format!("select i1 {c}, i32 {a}, i32 {b}"));
            finish32(ir, inst, &r, Some(&c))?;
        }
        S_AND_NOT1_B32 | S_OR_NOT1_B32 => {
            let nb = ir.val(&format!("xor i32 {b}, -1"));
            let f = if op == S_AND_NOT1_B32 { "and" } else { "or" };
            let r = ir.val(&format!("{f} i32 {a}, {nb}"));
            let c = nonzero32(ir, &r);
            finish32(ir, inst, &r, Some(&c))?;
        }
        S_BFM_B32 => {
            let x = ir.val(&format!("and i32 {a}, 31"));
            let y = ir.val(&format!("and i32 {b}, 31"));
            let p = ir.val(&format!("shl i32 1, {x}"));
            let m = ir.val(&format!("sub i32 {p}, 1"));
            let r = ir.val(&format!("shl i32 {m}, {y}"));
            finish32(ir, inst, &r, None)?;
        }
        S_MUL_I32 => {
            let r = ir.val(&format!("mul i32 {a}, {b}"));
            finish32(ir, inst, &r, None)?;
        }
        S_MUL_HI_U32 | S_MUL_HI_I32 => {
            let ext = if op == S_MUL_HI_U32 { "zext" } else { "sext" };
            let x = ir.val(&format!("{ext} i32 {a} to i64"));
            let y = ir.val(&format!("{ext} i32 {b} to i64"));
            let p = ir.val(&format!("mul i64 {x}, {y}"));
            let h = ir.val(&format!("lshr i64 {p}, 32"));
            let r = ir.val(&format!("trunc i64 {h} to i32"));
            finish32(ir, inst, &r, None)?;
        }
        S_CSELECT_B32 => {
            let c = ir.scc()?;
            let r = ir.val(&format!("select i1 {c}, i32 {a}, i32 {b}"));
            finish32(ir, inst, &r, None)?;
        }
        _ => {
            let r = pack(ir, inst, &a, &b);
            finish32(ir, inst, &r, None)?;
        }
    }
    Ok(true)
}

/// s_pack_{ll,lh,hh,hl}_b32_b16.
fn pack(ir: &mut Ir, inst: &Inst, a: &str, b: &str) -> String {
    let (lo, hi) = match inst.op {
        S_PACK_LL_B32_B16 => (ir.val(&format!("and i32 {a}, 65535")), ir.val(&format!("shl i32 {b}, 16"))),
        S_PACK_LH_B32_B16 => (ir.val(&format!("and i32 {a}, 65535")), ir.val(&format!("and i32 {b}, -65536"))),
        S_PACK_HH_B32_B16 => (ir.val(&format!("lshr i32 {a}, 16")), ir.val(&format!("and i32 {b}, -65536"))),
        _ => (ir.val(&format!("lshr i32 {a}, 16")), ir.val(&format!("shl i32 {b}, 16"))),
    };
    ir.val(&format!("or i32 {lo}, {hi}"))
}

/// The 64-bit SOP2 operations without bit fields.
fn sop2_64(ir: &mut Ir, inst: &Inst) -> Lower<bool> {
    let op = inst.op;
    let f = match op {
        S_LSHL_B64 => "shl",
        S_LSHR_B64 => "lshr",
        S_ASHR_I64 => "ashr",
        S_AND_B64 | S_NAND_B64 | S_AND_NOT1_B64 => "and",
        S_OR_B64 | S_NOR_B64 | S_OR_NOT1_B64 => "or",
        S_XOR_B64 | S_XNOR_B64 => "xor",
        S_CSELECT_B64 => "select",
        _ => return Ok(false),
    };
    let a = ir.s64(&inst.src[0])?;
    let shift = matches!(op, S_LSHL_B64 | S_LSHR_B64 | S_ASHR_I64);
    // The shift amount is a 32-bit operand (any SGPR, odd ones too).
    let b = if shift {
        let s = ir.s32(&inst.src[1])?;
        let s = ir.val(&format!("and i32 {s}, 63"));
        ir.val(&format!("zext i32 {s} to i64"))
    } else {
        ir.s64(&inst.src[1])?
    };
    let r = if op == S_CSELECT_B64 {
        let c = ir.scc()?;
        ir.val(&format!("select i1 {c}, i64 {a}, i64 {b}"))
    } else {
        let b = if matches!(op, S_AND_NOT1_B64 | S_OR_NOT1_B64) { ir.val(&format!("xor i64 {b}, -1")) } else { b };
        let r = ir.val(&format!("{f} i64 {a}, {b}"));
        if matches!(op, S_NAND_B64 | S_NOR_B64 | S_XNOR_B64) {
            ir.val(&format!("xor i64 {r}, -1"))
        } else {
            r
        }
    };
    ir.sdst64(&inst.dst, &r)?;
    if op != S_CSELECT_B64 {
        let c = ir.val(&format!("icmp ne i64 {r}, 0"));
        ir.set_scc(&c);
    }
    Ok(true)
}

/// SOPK: the immediate with the register named by SDST.
fn sopk(ir: &mut Ir, inst: &Inst) -> Lower<bool> {
    let op = inst.op;
    let k = inst.imm;
    match op {
        S_MOVK_I32 => ir.sdst32(&inst.dst, &k.to_string())?,
        S_CMOVK_I32 => {
            let Operand::Sgpr(i) = inst.dst else { return Ok(true) };
            let c = ir.scc()?;
            let old = ir.sget(i)?;
            let v = ir.val(&format!("select i1 {c}, i32 {k}, i32 {old}"));
            ir.sset(i, &v)?;
        }
        S_CMPK_EQ_I32 | S_CMPK_LG_I32 | S_CMPK_GT_I32 | S_CMPK_GE_I32 | S_CMPK_LT_I32 | S_CMPK_LE_I32
        | S_CMPK_EQ_U32 | S_CMPK_LG_U32 | S_CMPK_GT_U32 | S_CMPK_GE_U32 | S_CMPK_LT_U32 | S_CMPK_LE_U32 => {
            let pred = match op {
                S_CMPK_EQ_I32 | S_CMPK_EQ_U32 => "eq",
                S_CMPK_LG_I32 | S_CMPK_LG_U32 => "ne",
                S_CMPK_GT_I32 => "sgt",
                S_CMPK_GE_I32 => "sge",
                S_CMPK_LT_I32 => "slt",
                S_CMPK_LE_I32 => "sle",
                S_CMPK_GT_U32 => "ugt",
                S_CMPK_GE_U32 => "uge",
                S_CMPK_LT_U32 => "ult",
                _ => "ule",
            };
            let a = ir.s32(&inst.dst)?;
            let c = ir.val(&format!("icmp {pred} i32 {a}, {k}"));
            ir.set_scc(&c);
        }
        S_ADDK_I32 => {
            let a = ir.s32(&inst.dst)?;
            let s = ir.call("{i32, i1}", "llvm.sadd.with.overflow.i32", &["i32", "i32"], &[&a, &k.to_string()]);
            let r = ir.val(&format!("extractvalue {{i32, i1}} {s}, 0"));
            let o = ir.val(&format!("extractvalue {{i32, i1}} {s}, 1"));
            finish32(ir, inst, &r, Some(&o))?;
        }
        S_MULK_I32 => {
            let a = ir.s32(&inst.dst)?;
            let r = ir.val(&format!("mul i32 {a}, {k}"));
            finish32(ir, inst, &r, None)?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// SOP1 moves and bit operations.
fn sop1(ir: &mut Ir, inst: &Inst) -> Lower<bool> {
    let op = inst.op;
    match op {
        S_MOV_B32 => {
            let v = ir.s32(&inst.src[0])?;
            ir.sdst32(&inst.dst, &v)?;
        }
        S_MOV_B64 => {
            let v = ir.s64(&inst.src[0])?;
            ir.sdst64(&inst.dst, &v)?;
        }
        S_CMOV_B32 | S_CMOV_B64 => {
            let c = ir.scc()?;
            if op == S_CMOV_B32 {
                let v = ir.s32(&inst.src[0])?;
                let old = ir.s32(&inst.dst)?;
                let r = ir.val(&format!("select i1 {c}, i32 {v}, i32 {old}"));
                ir.sdst32(&inst.dst, &r)?;
            } else {
                let v = ir.s64(&inst.src[0])?;
                let old = ir.s64(&inst.dst)?;
                let r = ir.val(&format!("select i1 {c}, i64 {v}, i64 {old}"));
                ir.sdst64(&inst.dst, &r)?;
            }
        }
        S_NOT_B32 => {
            let v = ir.s32(&inst.src[0])?;
            let r = ir.val(&format!("xor i32 {v}, -1"));
            let c = nonzero32(ir, &r);
            finish32(ir, inst, &r, Some(&c))?;
        }
        S_NOT_B64 => {
            let v = ir.s64(&inst.src[0])?;
            let r = ir.val(&format!("xor i64 {v}, -1"));
            ir.sdst64(&inst.dst, &r)?;
            let c = ir.val(&format!("icmp ne i64 {r}, 0"));
            ir.set_scc(&c);
        }
        S_BREV_B32 => {
            let v = ir.s32(&inst.src[0])?;
            let r = ir.call("i32", "llvm.bitreverse.i32", &["i32"], &[&v]);
            ir.sdst32(&inst.dst, &r)?;
        }
        S_CTZ_I32_B32 | S_CLZ_I32_U32 | S_CTZ_I32_B64 | S_CLZ_I32_U64 => {
            let wide = matches!(op, S_CTZ_I32_B64 | S_CLZ_I32_U64);
            let t = if wide { "i64" } else { "i32" };
            let v = if wide { ir.s64(&inst.src[0])? } else { ir.s32(&inst.src[0])? };
            let f = if matches!(op, S_CTZ_I32_B32 | S_CTZ_I32_B64) { "cttz" } else { "ctlz" };
            let c = ir.call(t, &format!("llvm.{f}.{t}"), &[t, "i1"], &[&v, "false"]);
            let c = if wide { ir.val(&format!("trunc i64 {c} to i32")) } else { c };
            let z = ir.val(&format!("icmp eq {t} {v}, 0"));
            let r = ir.val(&format!("select i1 {z}, i32 -1, i32 {c}"));
            ir.sdst32(&inst.dst, &r)?;
        }
        S_SEXT_I32_I8 | S_SEXT_I32_I16 => {
            let v = ir.s32(&inst.src[0])?;
            let t = if op == S_SEXT_I32_I8 { "i8" } else { "i16" };
            let n = ir.val(&format!("trunc i32 {v} to {t}"));
            let r = ir.val(&format!("sext {t} {n} to i32"));
            ir.sdst32(&inst.dst, &r)?;
        }
        S_ABS_I32 => {
            let v = ir.s32(&inst.src[0])?;
            let r = ir.call("i32", "llvm.abs.i32", &["i32", "i1"], &[&v, "false"]);
            let c = nonzero32(ir, &r);
            finish32(ir, inst, &r, Some(&c))?;
        }
        S_BCNT0_I32_B32 | S_BCNT1_I32_B32 | S_BCNT0_I32_B64 | S_BCNT1_I32_B64 => {
            let wide = matches!(op, S_BCNT0_I32_B64 | S_BCNT1_I32_B64);
            let t = if wide { "i64" } else { "i32" };
            let v = if wide { ir.s64(&inst.src[0])? } else { ir.s32(&inst.src[0])? };
            let v =
                if matches!(op, S_BCNT0_I32_B32 | S_BCNT0_I32_B64) { ir.val(&format!("xor {t} {v}, -1")) } else { v };
            let c = ir.call(t, &format!("llvm.ctpop.{t}"), &[t], &[&v]);
            let r = if wide { ir.val(&format!("trunc i64 {c} to i32")) } else { c };
            let z = nonzero32(ir, &r);
            finish32(ir, inst, &r, Some(&z))?;
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// The saveexec family: SDST = old EXEC, EXEC = f(S0, old EXEC), SCC = EXEC != 0.
fn saveexec(ir: &mut Ir, inst: &Inst) -> Lower<bool> {
    let op = inst.op;
    let (b64, f) = match op {
        S_AND_SAVEEXEC_B32 => (false, 0),
        S_AND_SAVEEXEC_B64 => (true, 0),
        S_OR_SAVEEXEC_B32 => (false, 1),
        S_OR_SAVEEXEC_B64 => (true, 1),
        S_XOR_SAVEEXEC_B32 => (false, 2),
        S_XOR_SAVEEXEC_B64 => (true, 2),
        S_AND_NOT0_SAVEEXEC_B32 => (false, 3),
        S_AND_NOT0_SAVEEXEC_B64 => (true, 3),
        S_OR_NOT0_SAVEEXEC_B32 => (false, 4),
        S_OR_NOT0_SAVEEXEC_B64 => (true, 4),
        S_AND_NOT1_SAVEEXEC_B32 => (false, 5),
        S_AND_NOT1_SAVEEXEC_B64 => (true, 5),
        S_OR_NOT1_SAVEEXEC_B32 => (false, 6),
        S_OR_NOT1_SAVEEXEC_B64 => (true, 6),
        _ => return Ok(false),
    };
    let t = if b64 { "i64" } else { "i32" };
    // Read the source before writing anything: it may be EXEC or SDST itself.
    let s = if b64 { ir.s64(&inst.src[0])? } else { ir.s32(&inst.src[0])? };
    let exec = crate::isa::decode::SGPR_EXEC_LO;
    let old = if b64 { ir.s64(&Operand::Sgpr(exec))? } else { ir.sget(exec)? };
    let ns = ir.val(&format!("xor {t} {s}, -1"));
    let nold = ir.val(&format!("xor {t} {old}, -1"));
    let new = match f {
        0 => ir.val(&format!("and {t} {s}, {old}")),
        1 => ir.val(&format!("or {t} {s}, {old}")),
        2 => ir.val(&format!("xor {t} {s}, {old}")),
        3 => ir.val(&format!("and {t} {ns}, {old}")),
        4 => ir.val(&format!("or {t} {ns}, {old}")),
        5 => ir.val(&format!("and {t} {s}, {nold}")),
        _ => ir.val(&format!("or {t} {s}, {nold}")),
    };
    if b64 {
        ir.sdst64(&inst.dst, &old)?;
        ir.sdst64(&Operand::Sgpr(exec), &new)?;
    } else {
        ir.sdst32(&inst.dst, &old)?;
        ir.sset(exec, &new)?;
    }
    let c = ir.val(&format!("icmp ne {t} {new}, 0"));
    ir.set_scc(&c);
    Ok(true)
}

/// SOPC compares.
fn sopc(ir: &mut Ir, inst: &Inst) -> Lower {
    let op = inst.op;
    let pred = match op {
        S_CMP_EQ_I32 | S_CMP_EQ_U32 | S_CMP_EQ_U64 => "eq",
        S_CMP_LG_I32 | S_CMP_LG_U32 | S_CMP_LG_U64 => "ne",
        S_CMP_GT_I32 => "sgt",
        S_CMP_GE_I32 => "sge",
        S_CMP_LT_I32 => "slt",
        S_CMP_LE_I32 => "sle",
        S_CMP_GT_U32 => "ugt",
        S_CMP_GE_U32 => "uge",
        S_CMP_LT_U32 => "ult",
        S_CMP_LE_U32 => "ule",
        S_BITCMP0_B32 | S_BITCMP1_B32 => "bit",
        _ => return Err(NotInline),
    };
    let c = if matches!(op, S_CMP_EQ_U64 | S_CMP_LG_U64) {
        let (a, b) = (ir.s64(&inst.src[0])?, ir.s64(&inst.src[1])?);
        ir.val(&format!("icmp {pred} i64 {a}, {b}"))
    } else {
        let (a, b) = (ir.s32(&inst.src[0])?, ir.s32(&inst.src[1])?);
        if pred == "bit" {
            let s = ir.val(&format!("and i32 {b}, 31"));
            let x = ir.val(&format!("lshr i32 {a}, {s}"));
            let x = ir.val(&format!("and i32 {x}, 1"));
            let want = if op == S_BITCMP1_B32 { 1 } else { 0 };
            ir.val(&format!("icmp eq i32 {x}, {want}"))
        } else {
            ir.val(&format!("icmp {pred} i32 {a}, {b}"))
        }
    };
    ir.set_scc(&c);
    Ok(())
}
