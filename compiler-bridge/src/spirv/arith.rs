//! Integer arithmetic beyond single LLVM instructions: extended results (carry, borrow,
//! double-width products), bit fields, bit counts and the integer dot products of
//! SPV_KHR_integer_dot_product. Everything is width-generic over scalars and vectors.

use rspirv::dr;
use spirv::Op;

use super::func::{bool_ty, FnCx, Val};
use super::types::{intrinsic_suffix, Type};
use super::InstExt;
use crate::CompileError;

/// `<N x iW>` or `iW`: `w`-bit integers, `shape` of them or a scalar.
fn int_ty_like(shape: Option<u32>, w: u32) -> String {
    match shape {
        Some(n) => format!("<{n} x i{w}>"),
        None => format!("i{w}"),
    }
}

/// The constant `value` in every component of [`int_ty_like`]`(shape, w)`.
fn int_const_like(shape: Option<u32>, w: u32, value: u32) -> String {
    match shape {
        Some(n) => format!("<{}>", vec![format!("i{w} {value}"); n as usize].join(", ")),
        None => value.to_string(),
    }
}

impl FnCx<'_, '_> {
    /// Vector component count of SPIR-V type `ty` (`None` for a scalar).
    fn lanes(&self, ty: u32) -> Result<Option<u32>, CompileError> {
        Ok(match self.m.ty(ty)? {
            Type::Vector { count, .. } => Some(*count),
            _ => None,
        })
    }

    /// An integer scalar `v` converted (zero-extended or truncated) to the component width
    /// of `ty`, and broadcast to its shape.
    fn scalar_operand_like(&mut self, ty: u32, v: &Val) -> Result<String, CompileError> {
        let (w, _, _) = self.m.scalar_kind(ty)?;
        let (vw, _, _) = self.m.scalar_kind(v.ty)?;
        let mut s = v.text.clone();
        if vw != w {
            let conv = if vw > w { "trunc" } else { "zext" };
            s = self.def(format!("{conv} i{vw} {s} to i{w}"));
        }
        match self.lanes(ty)? {
            Some(n) => {
                let vt = format!("<{n} x i{w}>");
                let one = self.def(format!("insertelement {vt} poison, i{w} {s}, i32 0"));
                Ok(self.def(format!("shufflevector {vt} {one}, {vt} poison, <{n} x i32> zeroinitializer")))
            }
            None => Ok(s),
        }
    }

    /// OpIAddCarry, OpISubBorrow, OpUMulExtended, OpSMulExtended: a struct of two members
    /// of the operand type (low result, then carry / borrow / high half).
    pub(super) fn extended_arith(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let t = self.m.llty(a.ty)?;
        let rt = self.m.llty(inst.rtype()?)?;
        let (lo, hi) = match op {
            Op::IAddCarry | Op::ISubBorrow => {
                let name = if op == Op::IAddCarry { "uadd" } else { "usub" };
                let pair_ty = format!("{{ {t}, {} }}", bool_ty(&t));
                let pair = self.call_intrinsic(
                    &pair_ty,
                    &format!("llvm.{name}.with.overflow.{}", intrinsic_suffix(&t)),
                    &[self.typed(&a)?, self.typed(&b)?],
                );
                let lo = self.def(format!("extractvalue {pair_ty} {pair}, 0"));
                let flag = self.def(format!("extractvalue {pair_ty} {pair}, 1"));
                let hi = self.def(format!("zext {} {flag} to {t}", bool_ty(&t)));
                (lo, hi)
            }
            _ => {
                let (w, _, _) = self.m.scalar_kind(a.ty)?;
                let wide = int_ty_like(self.lanes(a.ty)?, 2 * w);
                let ext = if op == Op::SMulExtended { "sext" } else { "zext" };
                let xa = self.def(format!("{ext} {t} {} to {wide}", a.text));
                let xb = self.def(format!("{ext} {t} {} to {wide}", b.text));
                let p = self.def(format!("mul {wide} {xa}, {xb}"));
                let lo = self.def(format!("trunc {wide} {p} to {t}"));
                let shift = int_const_like(self.lanes(a.ty)?, 2 * w, w);
                let ph = self.def(format!("lshr {wide} {p}, {shift}"));
                let hi = self.def(format!("trunc {wide} {ph} to {t}"));
                (lo, hi)
            }
        };
        let s = self.def(format!("insertvalue {rt} poison, {t} {lo}, 0"));
        self.define(inst, format!("insertvalue {rt} {s}, {t} {hi}, 1"))
    }

    /// A mask of `count` low one bits in each component (all ones for `count` ≥ width,
    /// where LLVM's shift would be poison).
    fn low_mask(&mut self, ty: u32, count: &str) -> Result<String, CompileError> {
        let t = self.m.llty(ty)?;
        let (w, _, _) = self.m.scalar_kind(ty)?;
        let bt = bool_ty(&t);
        let (one, ones) = (self.splat_const(ty, "1")?, self.splat_const(ty, "-1")?);
        let wm1 = self.splat_const(ty, &(w - 1).to_string())?;
        let wc = self.splat_const(ty, &w.to_string())?;
        let c = self.def(format!("and {t} {count}, {wm1}"));
        let p = self.def(format!("shl {t} {one}, {c}"));
        let m = self.def(format!("sub {t} {p}, {one}"));
        let full = self.def(format!("icmp uge {t} {count}, {wc}"));
        Ok(self.def(format!("select {bt} {full}, {t} {ones}, {t} {m}")))
    }

    /// OpBitFieldInsert, OpBitFieldSExtract, OpBitFieldUExtract. Offset and Count are
    /// scalars of any integer width; out-of-range fields are undefined in SPIR-V, so shift
    /// amounts are masked to stay clear of LLVM poison.
    pub(super) fn bit_field(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        let base = self.val(inst.id(0)?)?;
        let ty = base.ty;
        let t = self.m.llty(ty)?;
        let (w, _, _) = self.m.scalar_kind(ty)?;
        let wm1 = self.splat_const(ty, &(w - 1).to_string())?;
        let first = if op == Op::BitFieldInsert { 2 } else { 1 };
        let offset = self.val(inst.id(first)?)?;
        let count = self.val(inst.id(first + 1)?)?;
        let off = self.scalar_operand_like(ty, &offset)?;
        let cnt = self.scalar_operand_like(ty, &count)?;
        let off = self.def(format!("and {t} {off}, {wm1}"));
        match op {
            Op::BitFieldInsert => {
                let insert = self.val(inst.id(1)?)?;
                let low = self.low_mask(ty, &cnt)?;
                let mask = self.def(format!("shl {t} {low}, {off}"));
                let ones = self.splat_const(ty, "-1")?;
                let keep = self.def(format!("xor {t} {mask}, {ones}"));
                let kept = self.def(format!("and {t} {}, {keep}", base.text));
                let moved = self.def(format!("shl {t} {}, {off}", insert.text));
                let field = self.def(format!("and {t} {moved}, {mask}"));
                self.define(inst, format!("or {t} {kept}, {field}"))
            }
            Op::BitFieldUExtract => {
                let low = self.low_mask(ty, &cnt)?;
                let shifted = self.def(format!("lshr {t} {}, {off}", base.text));
                self.define(inst, format!("and {t} {shifted}, {low}"))
            }
            _ => {
                // Move the field to the top, then shift it down arithmetically.
                let wc = self.splat_const(ty, &w.to_string())?;
                let zero = self.splat_const(ty, "0")?;
                let top = self.def(format!("sub {t} {wc}, {off}"));
                let up = self.def(format!("sub {t} {top}, {cnt}"));
                let up = self.def(format!("and {t} {up}, {wm1}"));
                let down = self.def(format!("sub {t} {wc}, {cnt}"));
                let down = self.def(format!("and {t} {down}, {wm1}"));
                let s = self.def(format!("shl {t} {}, {up}", base.text));
                let r = self.def(format!("ashr {t} {s}, {down}"));
                let empty = self.def(format!("icmp eq {t} {cnt}, {zero}"));
                self.define(inst, format!("select {} {empty}, {t} {zero}, {t} {r}", bool_ty(&t)))
            }
        }
    }

    /// OpBitCount and OpBitReverse; the count's result components may be wider or narrower
    /// than the operand's.
    pub(super) fn bit_count_reverse(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let a = self.val(inst.id(0)?)?;
        let t = self.m.llty(a.ty)?;
        let rt = self.m.llty(inst.rtype()?)?;
        let name = if inst.class.opcode == Op::BitCount { "ctpop" } else { "bitreverse" };
        let r = self.call_intrinsic(&t, &format!("llvm.{name}.{}", intrinsic_suffix(&t)), &[self.typed(&a)?]);
        if rt == t {
            return self.alias(inst, r);
        }
        if inst.class.opcode == Op::BitReverse {
            return Err(inst.bad("result type differs from the operand's"));
        }
        let (w, _, _) = self.m.scalar_kind(a.ty)?;
        let (rw, _, _) = self.m.scalar_kind(inst.rtype()?)?;
        let conv = if rw > w { "zext" } else { "trunc" };
        self.define(inst, format!("{conv} {t} {r} to {rt}"))
    }

    /// OpSDot, OpUDot, OpSUDot and their saturating accumulating forms, on vectors or on
    /// 32-bit scalars packed as four 8-bit components (PackedVectorFormat4x8Bit).
    pub(super) fn integer_dot(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        let (sat, n_ops) = match op {
            Op::SDot | Op::UDot | Op::SUDot => (false, 2),
            _ => (true, 3),
        };
        let (a_signed, b_signed) = match op {
            Op::SDot | Op::SDotAccSat => (true, true),
            Op::UDot | Op::UDotAccSat => (false, false),
            _ => (true, false),
        };
        let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let packed = match inst.operands.get(n_ops) {
            Some(dr::Operand::PackedVectorFormat(_)) => true,
            None => false,
            Some(_) => return Err(inst.bad("unexpected operand after the vectors")),
        };
        let rty = inst.rtype()?;
        let (rw, _, _) = self.m.scalar_kind(rty)?;
        if !matches!(self.m.ty(rty)?, Type::Int { .. }) {
            return Err(inst.bad("result type is not an integer scalar"));
        }
        // Components as (vector text, component count, component width).
        let split = |this: &mut Self, v: &Val| -> Result<(String, u32, u32), CompileError> {
            if packed {
                if this.m.llty(v.ty)? != "i32" {
                    return Err(CompileError::invalid("packed dot product operand is not a 32-bit integer"));
                }
                Ok((this.def(format!("bitcast i32 {} to <4 x i8>", v.text)), 4, 8))
            } else {
                let (w, _, _) = this.m.scalar_kind(v.ty)?;
                match this.m.ty(v.ty)? {
                    Type::Vector { count, .. } => Ok((v.text.clone(), *count, w)),
                    _ => Err(CompileError::invalid("dot product operand is not a vector")),
                }
            }
        };
        let (av, n, cw) = split(self, &a)?;
        let (bv, nb, cwb) = split(self, &b)?;
        if n != nb || cw != cwb || rw < cw {
            return Err(inst.bad("operand shapes or widths do not match the result"));
        }
        // Wrapping dots are exact in their low `rw` bits; saturating ones need the exact sum.
        // (2 * cw + log2(n) + 1 bits hold the exact dot; one more bit, and more than rw, its
        // sum with the accumulator.)
        let ew = if sat { (2 * cw + 32 - n.leading_zeros() + 2).max(rw + 2).next_power_of_two() } else { rw };
        let et = format!("<{n} x i{ew}>");
        let src = format!("<{n} x i{cw}>");
        let ext = |s: bool| if s { "sext" } else { "zext" };
        let xa = if ew == cw { av } else { self.def(format!("{} {src} {av} to {et}", ext(a_signed))) };
        let xb = if ew == cw { bv } else { self.def(format!("{} {src} {bv} to {et}", ext(b_signed))) };
        let prod = self.def(format!("mul {et} {xa}, {xb}"));
        let dot = self.call_intrinsic(
            &format!("i{ew}"),
            &format!("llvm.vector.reduce.add.v{n}i{ew}"),
            &[format!("{et} {prod}")],
        );
        if !sat {
            return self.alias(inst, dot);
        }
        let acc = self.val(inst.id(2)?)?;
        if acc.ty != rty && self.m.llty(acc.ty)? != format!("i{rw}") {
            return Err(inst.bad("accumulator type differs from the result"));
        }
        let signed = op != Op::UDotAccSat;
        let xacc = self.def(format!("{} i{rw} {} to i{ew}", ext(signed), acc.text));
        let sum = self.def(format!("add i{ew} {dot}, {xacc}"));
        let (lo, hi) = if signed {
            (format!("{}", i128::MIN >> (128 - rw)), format!("{}", i128::MAX >> (128 - rw)))
        } else {
            ("0".to_string(), format!("{}", u128::MAX >> (128 - rw)))
        };
        // The exact sum is a signed value of the wide type in both cases: clamp it signed.
        let c1 = self.call_intrinsic(
            &format!("i{ew}"),
            &format!("llvm.smax.i{ew}"),
            &[format!("i{ew} {sum}"), format!("i{ew} {lo}")],
        );
        let c2 = self.call_intrinsic(
            &format!("i{ew}"),
            &format!("llvm.smin.i{ew}"),
            &[format!("i{ew} {c1}"), format!("i{ew} {hi}")],
        );
        self.define(inst, format!("trunc i{ew} {c2} to i{rw}"))
    }
}
