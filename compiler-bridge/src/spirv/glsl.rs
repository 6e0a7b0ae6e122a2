//! GLSL.std.450 extended instructions.

use rspirv::dr;

use super::consts::float_literal;
use super::func::{bool_ty, FnCx, Val, MD_FPMATH};
use super::types::intrinsic_suffix;
use super::{Id, InstExt};
use crate::CompileError;

/// GLSL.std.450 instruction numbers we lower (the specification's numbering).
mod n {
    pub const ROUND: u32 = 1;
    pub const ROUND_EVEN: u32 = 2;
    pub const TRUNC: u32 = 3;
    pub const FABS: u32 = 4;
    pub const SABS: u32 = 5;
    pub const FSIGN: u32 = 6;
    pub const SSIGN: u32 = 7;
    pub const FLOOR: u32 = 8;
    pub const CEIL: u32 = 9;
    pub const FRACT: u32 = 10;
    pub const RADIANS: u32 = 11;
    pub const DEGREES: u32 = 12;
    pub const SIN: u32 = 13;
    pub const COS: u32 = 14;
    pub const TAN: u32 = 15;
    pub const ASIN: u32 = 16;
    pub const ACOS: u32 = 17;
    pub const ATAN: u32 = 18;
    pub const SINH: u32 = 19;
    pub const COSH: u32 = 20;
    pub const TANH: u32 = 21;
    pub const ASINH: u32 = 22;
    pub const ACOSH: u32 = 23;
    pub const ATANH: u32 = 24;
    pub const ATAN2: u32 = 25;
    pub const POW: u32 = 26;
    pub const EXP: u32 = 27;
    pub const LOG: u32 = 28;
    pub const EXP2: u32 = 29;
    pub const LOG2: u32 = 30;
    pub const SQRT: u32 = 31;
    pub const INVERSE_SQRT: u32 = 32;
    pub const MODF: u32 = 35;
    pub const MODF_STRUCT: u32 = 36;
    pub const FMIN: u32 = 37;
    pub const UMIN: u32 = 38;
    pub const SMIN: u32 = 39;
    pub const FMAX: u32 = 40;
    pub const UMAX: u32 = 41;
    pub const SMAX: u32 = 42;
    pub const FCLAMP: u32 = 43;
    pub const UCLAMP: u32 = 44;
    pub const SCLAMP: u32 = 45;
    pub const FMIX: u32 = 46;
    pub const STEP: u32 = 48;
    pub const SMOOTH_STEP: u32 = 49;
    pub const FMA: u32 = 50;
    pub const FREXP: u32 = 51;
    pub const FREXP_STRUCT: u32 = 52;
    pub const LDEXP: u32 = 53;
    pub const PACK_SNORM4X8: u32 = 54;
    pub const PACK_UNORM4X8: u32 = 55;
    pub const PACK_SNORM2X16: u32 = 56;
    pub const PACK_UNORM2X16: u32 = 57;
    pub const PACK_HALF2X16: u32 = 58;
    pub const PACK_DOUBLE2X32: u32 = 59;
    pub const UNPACK_SNORM2X16: u32 = 60;
    pub const UNPACK_UNORM2X16: u32 = 61;
    pub const UNPACK_HALF2X16: u32 = 62;
    pub const UNPACK_SNORM4X8: u32 = 63;
    pub const UNPACK_UNORM4X8: u32 = 64;
    pub const UNPACK_DOUBLE2X32: u32 = 65;
    pub const LENGTH: u32 = 66;
    pub const DISTANCE: u32 = 67;
    pub const CROSS: u32 = 68;
    pub const NORMALIZE: u32 = 69;
    pub const FACE_FORWARD: u32 = 70;
    pub const REFLECT: u32 = 71;
    pub const REFRACT: u32 = 72;
    pub const FIND_ILSB: u32 = 73;
    pub const FIND_SMSB: u32 = 74;
    pub const FIND_UMSB: u32 = 75;
    pub const NMIN: u32 = 79;
    pub const NMAX: u32 = 80;
    pub const NCLAMP: u32 = 81;
}

/// The specification's names, for error messages.
fn name(number: u32) -> String {
    const NAMES: &[&str] = &[
        "Bad",
        "Round",
        "RoundEven",
        "Trunc",
        "FAbs",
        "SAbs",
        "FSign",
        "SSign",
        "Floor",
        "Ceil",
        "Fract",
        "Radians",
        "Degrees",
        "Sin",
        "Cos",
        "Tan",
        "Asin",
        "Acos",
        "Atan",
        "Sinh",
        "Cosh",
        "Tanh",
        "Asinh",
        "Acosh",
        "Atanh",
        "Atan2",
        "Pow",
        "Exp",
        "Log",
        "Exp2",
        "Log2",
        "Sqrt",
        "InverseSqrt",
        "Determinant",
        "MatrixInverse",
        "Modf",
        "ModfStruct",
        "FMin",
        "UMin",
        "SMin",
        "FMax",
        "UMax",
        "SMax",
        "FClamp",
        "UClamp",
        "SClamp",
        "FMix",
        "IMix",
        "Step",
        "SmoothStep",
        "Fma",
        "Frexp",
        "FrexpStruct",
        "Ldexp",
        "PackSnorm4x8",
        "PackUnorm4x8",
        "PackSnorm2x16",
        "PackUnorm2x16",
        "PackHalf2x16",
        "PackDouble2x32",
        "UnpackSnorm2x16",
        "UnpackUnorm2x16",
        "UnpackHalf2x16",
        "UnpackSnorm4x8",
        "UnpackUnorm4x8",
        "UnpackDouble2x32",
        "Length",
        "Distance",
        "Cross",
        "Normalize",
        "FaceForward",
        "Reflect",
        "Refract",
        "FindILsb",
        "FindSMsb",
        "FindUMsb",
        "InterpolateAtCentroid",
        "InterpolateAtSample",
        "InterpolateAtOffset",
        "NMin",
        "NMax",
        "NClamp",
    ];
    NAMES
        .get(number as usize)
        .map_or_else(|| format!("GLSL.std.450 instruction {number}"), |n| format!("GLSL.std.450 {n}"))
}

/// The bits of `v` as an IEEE half, rounded to nearest even (for the normal-range literals
/// this file uses; out-of-range values become infinity, tiny ones zero).
fn half_bits(v: f64) -> u64 {
    let b = (v as f32).to_bits();
    let sign = u64::from(b >> 31) << 15;
    let exp = ((b >> 23) & 0xff) as i32 - 127 + 15;
    if exp >= 31 {
        return sign | 0x7c00;
    }
    if exp <= 0 {
        return sign;
    }
    let mant = b & 0x7f_ffff;
    let (keep, rest) = (mant >> 13, mant & 0x1fff);
    let mut h = (u64::from(exp as u32) << 10) | u64::from(keep);
    if rest > 0x1000 || (rest == 0x1000 && keep & 1 == 1) {
        h += 1; // a carry into the exponent is the correct rounding
    }
    sign | h
}

/// Coefficients of atan(r)/r = 1 + c1 r^2 + ... + c8 r^16 on [0, 1], |error| <= 2e-8
/// (Abramowitz & Stegun 4.4.49); Vulkan asks for 4096 ulp.
const ATAN_POLY: [f64; 8] = [
    -0.333_331_452_8,
    0.199_935_508_5,
    -0.142_088_994_4,
    0.106_562_639_3,
    -0.075_289_640_0,
    0.042_909_613_8,
    -0.016_165_736_7,
    0.002_866_225_7,
];

impl FnCx<'_, '_> {
    /// `llvm.frexp` of `x` (type `t`, exponents `ity`): (mantissa, exponent). Vectors of
    /// half go component by component: LLVM 19 cannot widen a `<3 x half>` frexp ("Do not
    /// know how to widen the result of this operator", a fatal error).
    fn frexp(&mut self, t: &str, ity: &str, x: &str) -> (String, String) {
        let one = |this: &mut Self, t: &str, ity: &str, x: &str| {
            let pair = this.call_intrinsic(
                &format!("{{ {t}, {ity} }}"),
                &format!("llvm.frexp.{}.{}", intrinsic_suffix(t), intrinsic_suffix(ity)),
                &[format!("{t} {x}")],
            );
            let m = this.def(format!("extractvalue {{ {t}, {ity} }} {pair}, 0"));
            (m, this.def(format!("extractvalue {{ {t}, {ity} }} {pair}, 1")))
        };
        let Some(n) = t.strip_prefix('<').and_then(|s| s.strip_suffix(" x half>")).and_then(|n| n.parse::<u32>().ok())
        else {
            return one(self, t, ity, x);
        };
        let (mut m, mut e) = ("poison".to_string(), "poison".to_string());
        for k in 0..n {
            let xk = self.def(format!("extractelement {t} {x}, i32 {k}"));
            let (mk, ek) = one(self, "half", "i32", &xk);
            m = self.def(format!("insertelement {t} {m}, half {mk}, i32 {k}"));
            e = self.def(format!("insertelement {ity} {e}, i32 {ek}, i32 {k}"));
        }
        (m, e)
    }

    /// Float constant `v` of (scalar or vector) type `ty`.
    fn fk(&self, ty: Id, v: f64) -> Result<String, CompileError> {
        let (width, _, _) = self.m.scalar_kind(ty)?;
        let bits = match width {
            64 => v.to_bits(),
            16 => half_bits(v),
            // Conversions of these few literals are exact or rounded once, as intended.
            _ => u64::from((v as f32).to_bits()),
        };
        self.splat_const(ty, &float_literal(width, bits))
    }

    fn intr(&mut self, t: &str, name: &str, args: &[&str]) -> String {
        let args: Vec<String> = args.iter().map(|a| format!("{t} {a}")).collect();
        self.call_intrinsic(t, &format!("llvm.{name}.{}", intrinsic_suffix(t)), &args)
    }

    fn fop(&mut self, op: &str, t: &str, a: &str, b: &str) -> String {
        self.def(format!("{op} {t} {a}, {b}"))
    }

    /// Dot product of two values of type `ty` (LLVM type `t`), a scalar of the component type.
    /// `contract` is the fast-math flag of the products ("" under NoContraction).
    fn dot_text(&mut self, t: &str, a: &str, b: &str, contract: &str) -> String {
        let p = self.def(format!("fmul{contract} {t} {a}, {b}"));
        match t.strip_prefix('<').and_then(|s| s.strip_suffix('>')).and_then(|s| s.split_once(" x ")) {
            None => p,
            Some((_, et)) => {
                let et = et.to_string();
                self.call_intrinsic(
                    &et,
                    &format!("llvm.vector.reduce.fadd.{}", intrinsic_suffix(t)),
                    &[format!("{et} -0.0"), format!("{t} {p}")],
                )
            }
        }
    }

    /// atan2(y, x) of type `ty`: an odd polynomial on min/max of the magnitudes, then the
    /// octant and quadrant corrections; the sign of y is the sign of the result.
    fn atan2(&mut self, ty: Id, t: &str, y: &str, x: &str) -> Result<String, CompileError> {
        let bt = bool_ty(t);
        let ay = self.intr(t, "fabs", &[y]);
        let ax = self.intr(t, "fabs", &[x]);
        let hi = self.intr(t, "maxnum", &[&ax, &ay]);
        let lo = self.intr(t, "minnum", &[&ax, &ay]);
        let r = self.def(format!("fdiv {t} {lo}, {hi}, !fpmath {MD_FPMATH}"));
        // atan2(0, 0) is undefined in GLSL; give C's answer (+-0 or +-pi), not NaN.
        let zero = self.fk(ty, 0.0)?;
        let both0 = self.def(format!("fcmp oeq {t} {hi}, {zero}"));
        let r = self.def(format!("select {bt} {both0}, {t} {zero}, {t} {r}"));
        let s = self.fop("fmul", t, &r, &r);
        let mut p = self.fk(ty, ATAN_POLY[7])?;
        for c in ATAN_POLY[..7].iter().rev().chain([1.0].iter()) {
            let c = self.fk(ty, *c)?;
            let m = self.fop("fmul", t, &p, &s);
            p = self.fop("fadd", t, &m, &c);
        }
        let p = self.fop("fmul", t, &p, &r);
        let half_pi = self.fk(ty, std::f64::consts::FRAC_PI_2)?;
        let pi = self.fk(ty, std::f64::consts::PI)?;
        let steep = self.def(format!("fcmp ogt {t} {ay}, {ax}"));
        let q = self.fop("fsub", t, &half_pi, &p);
        let p = self.def(format!("select {bt} {steep}, {t} {q}, {t} {p}"));
        let left = self.def(format!("fcmp olt {t} {x}, {zero}"));
        let q = self.fop("fsub", t, &pi, &p);
        let p = self.def(format!("select {bt} {left}, {t} {q}, {t} {p}"));
        Ok(self.intr(t, "copysign", &[&p, y]))
    }

    fn exp(&mut self, ty: Id, t: &str, x: &str) -> Result<String, CompileError> {
        let k = self.fk(ty, std::f64::consts::LOG2_E)?;
        let p = self.fop("fmul", t, x, &k);
        Ok(self.intr(t, "exp2", &[&p]))
    }

    fn log(&mut self, ty: Id, t: &str, x: &str) -> Result<String, CompileError> {
        let l = self.intr(t, "log2", &[x]);
        let k = self.fk(ty, std::f64::consts::LN_2)?;
        Ok(self.fop("fmul", t, &l, &k))
    }

    /// Converts integer `v` of LLVM type `from` to `to` (sign-extending or truncating);
    /// a 64-bit exponent is first clamped so that truncation keeps its meaning.
    fn int_resize(&mut self, v: &str, from: &str, to: &str) -> String {
        let width = |t: &str| -> u32 {
            let e = t.rsplit_once(" x ").map_or(t, |(_, e)| e.trim_end_matches('>'));
            e.trim_start_matches('i').parse().unwrap_or(32)
        };
        let (wf, wt) = (width(from), width(to));
        if wf == wt {
            return v.to_string();
        }
        if wf > wt {
            let count = from.strip_prefix('<').and_then(|s| s.split_once(" x ")).map(|(n, _)| n.to_string());
            let k = |x: i64| match &count {
                Some(n) => format!("<{}>", vec![format!("i{wf} {x}"); n.parse().unwrap_or(1)].join(", ")),
                None => x.to_string(),
            };
            let lim = (1i64 << (wt - 1)) - 1;
            let a = self.intr(from, "smax", &[v, &k(-lim)]);
            let b = self.intr(from, "smin", &[&a, &k(lim)]);
            self.def(format!("trunc {from} {b} to {to}"))
        } else {
            self.def(format!("sext {from} {v} to {to}"))
        }
    }

    /// `OpExtInst` of GLSL.std.450: operands are [set, number, args...].
    pub(super) fn glsl(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let number = inst.lit(1)?;
        if matches!(number, super::matrix::GLSL_DETERMINANT | super::matrix::GLSL_MATRIX_INVERSE) {
            return self.glsl_matrix(inst, number);
        }
        let args = inst.ids_from(2)?;
        let arg =
            |i: usize| args.get(i).copied().ok_or_else(|| inst.bad(&format!("{} needs operand {i}", name(number))));
        let x = self.val(arg(0)?)?;
        let ty = x.ty;
        let t = self.m.llty(ty)?;
        let sfx = intrinsic_suffix(&t);
        // Matrices (Determinant) and pointers (InterpolateAt*) have no scalar kind: width 0
        // until an arm that handles them looks at their types itself.
        let (width, _, _) = self.m.scalar_kind(ty).unwrap_or((0, false, false));
        let xs = x.text.clone();
        // `precise` (NoContraction) results keep their multiplies and adds apart.
        let contract = if self.m.deco_no_contraction(inst.result_id) { "" } else { " contract" };
        let second = |this: &Self| -> Result<String, CompileError> { Ok(this.val(arg(1)?)?.text) };
        let third = |this: &Self| -> Result<String, CompileError> { Ok(this.val(arg(2)?)?.text) };
        // The element type of a vector (the type itself for a scalar).
        let elem = self.m.element_type(ty, 0).unwrap_or(ty);
        let et = self.m.llty(elem)?;

        let r = match number {
            n::ROUND => self.intr(&t, "round", &[&xs]),
            n::ROUND_EVEN => self.intr(&t, "roundeven", &[&xs]),
            n::TRUNC => self.intr(&t, "trunc", &[&xs]),
            n::FABS => self.intr(&t, "fabs", &[&xs]),
            n::FLOOR => self.intr(&t, "floor", &[&xs]),
            n::CEIL => self.intr(&t, "ceil", &[&xs]),
            n::SQRT => self.intr(&t, "sqrt", &[&xs]),
            n::EXP2 => self.intr(&t, "exp2", &[&xs]),
            n::LOG2 => self.intr(&t, "log2", &[&xs]),
            n::SIN => self.intr(&t, "sin", &[&xs]),
            n::COS => self.intr(&t, "cos", &[&xs]),
            n::SABS => self.call_intrinsic(&t, &format!("llvm.abs.{sfx}"), &[format!("{t} {xs}"), "i1 false".into()]),
            n::SSIGN => {
                let (one, m1) = (self.splat_const(ty, "1")?, self.splat_const(ty, "-1")?);
                let a = self.intr(&t, "smin", &[&xs, &one]);
                self.intr(&t, "smax", &[&a, &m1])
            }
            n::FSIGN => {
                let (zero, one, m1) = (self.fk(ty, 0.0)?, self.fk(ty, 1.0)?, self.fk(ty, -1.0)?);
                let bt = bool_ty(&t);
                let pos = self.def(format!("fcmp ogt {t} {xs}, {zero}"));
                let neg = self.def(format!("fcmp olt {t} {xs}, {zero}"));
                let s = self.def(format!("select {bt} {neg}, {t} {m1}, {t} {xs}"));
                self.def(format!("select {bt} {pos}, {t} {one}, {t} {s}"))
            }
            n::FRACT => {
                let fl = self.intr(&t, "floor", &[&xs]);
                self.fop("fsub", &t, &xs, &fl)
            }
            n::RADIANS | n::DEGREES => {
                let k = if number == n::RADIANS { std::f64::consts::PI / 180.0 } else { 180.0 / std::f64::consts::PI };
                let k = self.fk(ty, k)?;
                self.fop("fmul", &t, &xs, &k)
            }
            n::TAN => {
                // Vulkan derives tan's precision from sin(x) / cos(x).
                let s = self.intr(&t, "sin", &[&xs]);
                let c = self.intr(&t, "cos", &[&xs]);
                self.def(format!("fdiv {t} {s}, {c}, !fpmath {MD_FPMATH}"))
            }
            n::ASIN | n::ACOS => {
                // atan2(x, sqrt(1 - x^2)) and atan2(sqrt(1 - x^2), x), as Vulkan derives them.
                let one = self.fk(ty, 1.0)?;
                let sq = self.fop("fmul", &t, &xs, &xs);
                let d = self.fop("fsub", &t, &one, &sq);
                let c = self.intr(&t, "sqrt", &[&d]);
                if number == n::ASIN {
                    self.atan2(ty, &t, &xs, &c)?
                } else {
                    self.atan2(ty, &t, &c, &xs)?
                }
            }
            n::ATAN => {
                let one = self.fk(ty, 1.0)?;
                self.atan2(ty, &t, &xs, &one)?
            }
            n::ATAN2 => {
                let xx = second(self)?;
                self.atan2(ty, &t, &xs, &xx)?
            }
            n::SINH | n::COSH => {
                // (e^x -+ e^-x) / 2
                let e = self.exp(ty, &t, &xs)?;
                let nx = self.def(format!("fneg {t} {xs}"));
                let en = self.exp(ty, &t, &nx)?;
                let d = self.fop(if number == n::SINH { "fsub" } else { "fadd" }, &t, &e, &en);
                let half = self.fk(ty, 0.5)?;
                self.fop("fmul", &t, &d, &half)
            }
            n::TANH => {
                // (e^2x - 1) / (e^2x + 1) on x clamped to where tanh rounds to +-1 anyway,
                // so that e^2x stays finite.
                let lim = match width {
                    16 => 5.0,
                    32 => 10.0,
                    _ => 20.0,
                };
                let (lo, hi) = (self.fk(ty, -lim)?, self.fk(ty, lim)?);
                let a = self.intr(&t, "maxnum", &[&xs, &lo]);
                let c = self.intr(&t, "minnum", &[&a, &hi]);
                let two = self.fk(ty, 2.0)?;
                let c2 = self.fop("fmul", &t, &c, &two);
                let e = self.exp(ty, &t, &c2)?;
                let one = self.fk(ty, 1.0)?;
                let num = self.fop("fsub", &t, &e, &one);
                let den = self.fop("fadd", &t, &e, &one);
                self.def(format!("fdiv {t} {num}, {den}, !fpmath {MD_FPMATH}"))
            }
            n::ASINH => {
                // sign(x) * log(|x| + sqrt(x^2 + 1)): the odd symmetry avoids cancellation.
                let a = self.intr(&t, "fabs", &[&xs]);
                let sq = self.fop("fmul", &t, &a, &a);
                let one = self.fk(ty, 1.0)?;
                let s = self.fop("fadd", &t, &sq, &one);
                let r = self.intr(&t, "sqrt", &[&s]);
                let sum = self.fop("fadd", &t, &a, &r);
                let l = self.log(ty, &t, &sum)?;
                self.intr(&t, "copysign", &[&l, &xs])
            }
            n::ACOSH => {
                let sq = self.fop("fmul", &t, &xs, &xs);
                let one = self.fk(ty, 1.0)?;
                let s = self.fop("fsub", &t, &sq, &one);
                let r = self.intr(&t, "sqrt", &[&s]);
                let sum = self.fop("fadd", &t, &xs, &r);
                self.log(ty, &t, &sum)?
            }
            n::ATANH => {
                // log((1 + x) / (1 - x)) / 2
                let one = self.fk(ty, 1.0)?;
                let a = self.fop("fadd", &t, &one, &xs);
                let b = self.fop("fsub", &t, &one, &xs);
                let q = self.def(format!("fdiv {t} {a}, {b}, !fpmath {MD_FPMATH}"));
                let l = self.log(ty, &t, &q)?;
                let half = self.fk(ty, 0.5)?;
                self.fop("fmul", &t, &l, &half)
            }
            n::POW => {
                // Vulkan defines pow's precision as that of exp2(y * log2(x)).
                let y = second(self)?;
                let l = self.intr(&t, "log2", &[&xs]);
                let p = self.fop("fmul", &t, &y, &l);
                self.intr(&t, "exp2", &[&p])
            }
            n::EXP => self.exp(ty, &t, &xs)?,
            n::LOG => self.log(ty, &t, &xs)?,
            n::INVERSE_SQRT => {
                let s = self.intr(&t, "sqrt", &[&xs]);
                let one = self.fk(ty, 1.0)?;
                self.def(format!("fdiv {t} {one}, {s}, !fpmath {MD_FPMATH}"))
            }
            n::MODF | n::MODF_STRUCT => {
                // Both parts have the sign of x (so -1 gives -0 as fraction); an infinite x
                // has whole part x and fraction 0 (x - x would be NaN).
                let whole = self.intr(&t, "trunc", &[&xs]);
                let frac = self.fop("fsub", &t, &xs, &whole);
                let a = self.intr(&t, "fabs", &[&xs]);
                let inf = self.fk(ty, f64::INFINITY)?;
                let is_inf = self.def(format!("fcmp oeq {t} {a}, {inf}"));
                let zero = self.fk(ty, 0.0)?;
                let frac = self.def(format!("select {} {is_inf}, {t} {zero}, {t} {frac}", bool_ty(&t)));
                let frac = self.intr(&t, "copysign", &[&frac, &xs]);
                if number == n::MODF {
                    let p = self.val(arg(1)?)?;
                    let (asp, rule, pointee) = self.pointer_info(&p)?;
                    self.store_typed(&p.text, asp, rule, pointee, &whole, false)?;
                    frac
                } else {
                    let st = self.m.llty(inst.rtype()?)?;
                    let a = self.def(format!("insertvalue {st} poison, {t} {frac}, 0"));
                    self.def(format!("insertvalue {st} {a}, {t} {whole}, 1"))
                }
            }
            n::FMIN | n::NMIN => self.intr(&t, "minnum", &[&xs, &second(self)?]),
            n::FMAX | n::NMAX => self.intr(&t, "maxnum", &[&xs, &second(self)?]),
            n::UMIN => self.intr(&t, "umin", &[&xs, &second(self)?]),
            n::UMAX => self.intr(&t, "umax", &[&xs, &second(self)?]),
            n::SMIN => self.intr(&t, "smin", &[&xs, &second(self)?]),
            n::SMAX => self.intr(&t, "smax", &[&xs, &second(self)?]),
            n::FCLAMP | n::NCLAMP | n::UCLAMP | n::SCLAMP => {
                let (lo, hi) = (second(self)?, third(self)?);
                let (max, min) = match number {
                    n::UCLAMP => ("umax", "umin"),
                    n::SCLAMP => ("smax", "smin"),
                    _ => ("maxnum", "minnum"),
                };
                let m = self.intr(&t, max, &[&xs, &lo]);
                self.intr(&t, min, &[&m, &hi])
            }
            n::FMIX => {
                // x * (1 - a) + y * a
                let (y, a) = (second(self)?, third(self)?);
                let one = self.fk(ty, 1.0)?;
                let ia = self.fop("fsub", &t, &one, &a);
                let xa = self.fop(&format!("fmul{contract}"), &t, &xs, &ia);
                let ya = self.fop(&format!("fmul{contract}"), &t, &y, &a);
                self.fop(&format!("fadd{contract}"), &t, &xa, &ya)
            }
            n::STEP => {
                // step(edge, x) = x < edge ? 0 : 1
                let v = second(self)?;
                let (zero, one) = (self.fk(ty, 0.0)?, self.fk(ty, 1.0)?);
                let lt = self.def(format!("fcmp olt {t} {v}, {xs}"));
                self.def(format!("select {} {lt}, {t} {zero}, {t} {one}", bool_ty(&t)))
            }
            n::SMOOTH_STEP => {
                // t = clamp((x - edge0) / (edge1 - edge0), 0, 1); t * t * (3 - 2 t)
                let (e1, v) = (second(self)?, third(self)?);
                let a = self.fop("fsub", &t, &v, &xs);
                let b = self.fop("fsub", &t, &e1, &xs);
                let q = self.def(format!("fdiv {t} {a}, {b}, !fpmath {MD_FPMATH}"));
                let (zero, one) = (self.fk(ty, 0.0)?, self.fk(ty, 1.0)?);
                let c = self.intr(&t, "maxnum", &[&q, &zero]);
                let c = self.intr(&t, "minnum", &[&c, &one]);
                let (two, three) = (self.fk(ty, 2.0)?, self.fk(ty, 3.0)?);
                let c2 = self.fop("fmul", &t, &c, &two);
                let d = self.fop("fsub", &t, &three, &c2);
                let cc = self.fop("fmul", &t, &c, &c);
                self.fop("fmul", &t, &cc, &d)
            }
            n::FMA => {
                let (b, c) = (second(self)?, third(self)?);
                self.intr(&t, "fma", &[&xs, &b, &c])
            }
            n::FREXP | n::FREXP_STRUCT => {
                let ity = match t.strip_prefix('<').and_then(|s| s.split_once(" x ")) {
                    Some((count, _)) => format!("<{count} x i32>"),
                    None => "i32".to_string(),
                };
                let (mant, e) = self.frexp(&t, &ity, &xs);
                if number == n::FREXP {
                    let p = self.val(arg(1)?)?;
                    let (asp, rule, pointee) = self.pointer_info(&p)?;
                    let pt = self.m.llty(pointee)?;
                    let e = self.int_resize(&e, &ity, &pt);
                    self.store_typed(&p.text, asp, rule, pointee, &e, false)?;
                    mant
                } else {
                    let rty = inst.rtype()?;
                    let st = self.m.llty(rty)?;
                    let pt = self.m.llty(self.m.element_type(rty, 1)?)?;
                    let e = self.int_resize(&e, &ity, &pt);
                    let a = self.def(format!("insertvalue {st} poison, {t} {mant}, 0"));
                    self.def(format!("insertvalue {st} {a}, {pt} {e}, 1"))
                }
            }
            n::LDEXP => {
                let e = self.val(arg(1)?)?;
                let et_in = self.m.llty(e.ty)?;
                let ity = match t.strip_prefix('<').and_then(|s| s.split_once(" x ")) {
                    Some((count, _)) => format!("<{count} x i32>"),
                    None => "i32".to_string(),
                };
                let e = self.int_resize(&e.text, &et_in, &ity);
                self.call_intrinsic(
                    &t,
                    &format!("llvm.ldexp.{sfx}.{}", intrinsic_suffix(&ity)),
                    &[format!("{t} {xs}"), format!("{ity} {e}")],
                )
            }
            n::PACK_SNORM4X8 | n::PACK_UNORM4X8 | n::PACK_SNORM2X16 | n::PACK_UNORM2X16 => {
                // round(clamp(c, lo, 1) * scale), component 0 in the low bits. Ties round to
                // even (GLSL leaves the direction of round() open).
                let (signed, bits) = match number {
                    n::PACK_SNORM4X8 => (true, 8),
                    n::PACK_UNORM4X8 => (false, 8),
                    n::PACK_SNORM2X16 => (true, 16),
                    _ => (false, 16),
                };
                let count = 32 / bits;
                let scale = f64::from((1u32 << (bits - u32::from(signed))) - 1);
                let lo = self.fk(ty, if signed { -1.0 } else { 0.0 })?;
                let one = self.fk(ty, 1.0)?;
                let k = self.fk(ty, scale)?;
                let a = self.intr(&t, "maxnum", &[&xs, &lo]);
                let c = self.intr(&t, "minnum", &[&a, &one]);
                let s = self.fop("fmul", &t, &c, &k);
                let r = self.intr(&t, "roundeven", &[&s]);
                // Packed with scalar masks and shifts: after instcombine, a vector fptosi to
                // <4 x i8> is more than the AMDGPU backend can split.
                let conv = if signed { "fptosi" } else { "fptoui" };
                let w = self.def(format!("{conv} {t} {r} to <{count} x i32>"));
                let mask = (1u32 << bits) - 1;
                let mut acc = "0".to_string();
                for k in 0..count {
                    let e = self.def(format!("extractelement <{count} x i32> {w}, i32 {k}"));
                    let m = self.def(format!("and i32 {e}, {mask}"));
                    let sh = self.def(format!("shl i32 {m}, {}", bits * k));
                    acc = self.def(format!("or i32 {acc}, {sh}"));
                }
                acc
            }
            n::PACK_HALF2X16 => {
                // The halves are 16-bit floats: their width's denormal mode applies.
                let h = self.def(format!("fptrunc {t} {xs} to <2 x half>"));
                let h = self.flush_denormals_of("<2 x half>", 16, h);
                self.def(format!("bitcast <2 x half> {h} to i32"))
            }
            n::PACK_DOUBLE2X32 => self.def(format!("bitcast {t} {xs} to double")),
            n::UNPACK_SNORM2X16 | n::UNPACK_UNORM2X16 | n::UNPACK_SNORM4X8 | n::UNPACK_UNORM4X8 => {
                let (signed, bits) = match number {
                    n::UNPACK_SNORM4X8 => (true, 8),
                    n::UNPACK_UNORM4X8 => (false, 8),
                    n::UNPACK_SNORM2X16 => (true, 16),
                    _ => (false, 16),
                };
                let rty = inst.rtype()?;
                let rt = self.m.llty(rty)?;
                let count = 32 / bits;
                let v = self.def(format!("bitcast {t} {xs} to <{count} x i{bits}>"));
                let conv = if signed { "sitofp" } else { "uitofp" };
                let f = self.def(format!("{conv} <{count} x i{bits}> {v} to {rt}"));
                let k = self.fk(rty, f64::from((1u32 << (bits - u32::from(signed))) - 1))?;
                let q = self.fop("fdiv", &rt, &f, &k);
                if signed {
                    // -2^(bits-1) / (2^(bits-1) - 1) is below -1: clamp.
                    let m1 = self.fk(rty, -1.0)?;
                    self.intr(&rt, "maxnum", &[&q, &m1])
                } else {
                    q
                }
            }
            n::UNPACK_HALF2X16 => {
                let rt = self.m.llty(inst.rtype()?)?;
                let h = self.def(format!("bitcast {t} {xs} to <2 x half>"));
                let h = self.flush_denormals_of("<2 x half>", 16, h);
                self.def(format!("fpext <2 x half> {h} to {rt}"))
            }
            n::UNPACK_DOUBLE2X32 => {
                let rt = self.m.llty(inst.rtype()?)?;
                self.def(format!("bitcast {t} {xs} to {rt}"))
            }
            n::LENGTH | n::DISTANCE => {
                let v = if number == n::DISTANCE {
                    let y = second(self)?;
                    self.fop("fsub", &t, &xs, &y)
                } else {
                    xs.clone()
                };
                if t.starts_with('<') {
                    let d = self.dot_text(&t, &v, &v, contract);
                    self.intr(&et, "sqrt", &[&d])
                } else {
                    self.intr(&t, "fabs", &[&v])
                }
            }
            n::NORMALIZE => {
                let d = self.dot_text(&t, &xs, &xs, contract);
                let s = self.intr(&et, "sqrt", &[&d]);
                let one = self.fk(elem, 1.0)?;
                let inv = self.def(format!("fdiv {et} {one}, {s}, !fpmath {MD_FPMATH}"));
                let splat = self.splat(ty, &Val { ty: elem, text: inv })?;
                self.fop("fmul", &t, &xs, &splat)
            }
            n::CROSS => {
                // x.yzx * y.zxy - x.zxy * y.yzx
                let y = second(self)?;
                let yzx = "<3 x i32> <i32 1, i32 2, i32 0>";
                let zxy = "<3 x i32> <i32 2, i32 0, i32 1>";
                let a1 = self.def(format!("shufflevector {t} {xs}, {t} poison, {yzx}"));
                let b1 = self.def(format!("shufflevector {t} {y}, {t} poison, {zxy}"));
                let a2 = self.def(format!("shufflevector {t} {xs}, {t} poison, {zxy}"));
                let b2 = self.def(format!("shufflevector {t} {y}, {t} poison, {yzx}"));
                let p = self.fop("fmul", &t, &a1, &b1);
                let q = self.fop("fmul", &t, &a2, &b2);
                self.fop("fsub", &t, &p, &q)
            }
            n::FACE_FORWARD => {
                // dot(Nref, I) < 0 ? N : -N
                let (i, nref) = (second(self)?, third(self)?);
                let d = self.dot_text(&t, &nref, &i, contract);
                let zero = self.fk(elem, 0.0)?;
                let neg = self.def(format!("fcmp olt {et} {d}, {zero}"));
                let nn = self.def(format!("fneg {t} {xs}"));
                self.def(format!("select i1 {neg}, {t} {xs}, {t} {nn}"))
            }
            n::REFLECT => {
                // I - 2 dot(N, I) N
                let nv = second(self)?;
                let d = self.dot_text(&t, &nv, &xs, contract);
                let two = self.fk(elem, 2.0)?;
                let d2 = self.fop("fmul", &et, &d, &two);
                let s = self.splat(ty, &Val { ty: elem, text: d2 })?;
                let p = self.fop("fmul", &t, &s, &nv);
                self.fop("fsub", &t, &xs, &p)
            }
            n::REFRACT => {
                // k = 1 - eta^2 (1 - dot(N, I)^2); k < 0 ? 0 : eta I - (eta dot(N, I) + sqrt(k)) N
                let nv = second(self)?;
                let eta = self.val(arg(2)?)?;
                let (ew, _, _) = self.m.scalar_kind(eta.ty)?;
                let eta_t = self.m.llty(eta.ty)?;
                let eta = match ew.cmp(&width) {
                    std::cmp::Ordering::Equal => eta.text,
                    std::cmp::Ordering::Less => self.def(format!("fpext {eta_t} {} to {et}", eta.text)),
                    std::cmp::Ordering::Greater => self.def(format!("fptrunc {eta_t} {} to {et}", eta.text)),
                };
                let d = self.dot_text(&t, &nv, &xs, contract);
                let one = self.fk(elem, 1.0)?;
                let dd = self.fop("fmul", &et, &d, &d);
                let a = self.fop("fsub", &et, &one, &dd);
                let ee = self.fop("fmul", &et, &eta, &eta);
                let b = self.fop("fmul", &et, &ee, &a);
                let k = self.fop("fsub", &et, &one, &b);
                let sk = self.intr(&et, "sqrt", &[&k]);
                let ed = self.fop("fmul", &et, &eta, &d);
                let c = self.fop("fadd", &et, &ed, &sk);
                let es = self.splat(ty, &Val { ty: elem, text: eta })?;
                let cs = self.splat(ty, &Val { ty: elem, text: c })?;
                let ei = self.fop("fmul", &t, &es, &xs);
                let cn = self.fop("fmul", &t, &cs, &nv);
                let r = self.fop("fsub", &t, &ei, &cn);
                let zero = self.fk(elem, 0.0)?;
                let tir = self.def(format!("fcmp olt {et} {k}, {zero}"));
                let zv = self.fk(ty, 0.0)?;
                self.def(format!("select i1 {tir}, {t} {zv}, {t} {r}"))
            }
            n::FIND_ILSB => {
                // -1 for 0: cttz gives the width there, so select.
                let z = self.call_intrinsic(&t, &format!("llvm.cttz.{sfx}"), &[format!("{t} {xs}"), "i1 false".into()]);
                let zero = self.splat_const(ty, "0")?;
                let m1 = self.splat_const(ty, "-1")?;
                let is0 = self.def(format!("icmp eq {t} {xs}, {zero}"));
                self.def(format!("select {} {is0}, {t} {m1}, {t} {z}", bool_ty(&t)))
            }
            n::FIND_UMSB | n::FIND_SMSB => {
                // width-1 - ctlz(v), which is -1 for v = 0; for signed, v = x ^ (x >> width-1)
                // finds the most significant bit that differs from the sign.
                let v = if number == n::FIND_SMSB {
                    let sh = self.splat_const(ty, &(width - 1).to_string())?;
                    let s = self.def(format!("ashr {t} {xs}, {sh}"));
                    self.def(format!("xor {t} {xs}, {s}"))
                } else {
                    xs.clone()
                };
                let lz = self.call_intrinsic(&t, &format!("llvm.ctlz.{sfx}"), &[format!("{t} {v}"), "i1 false".into()]);
                let top = self.splat_const(ty, &(width - 1).to_string())?;
                self.def(format!("sub {t} {top}, {lz}"))
            }
            // IMix (not a valid instruction), Determinant/MatrixInverse (matrices) and the
            // fragment-only InterpolateAt* end here, by name.
            other => return Err(CompileError::unsupported(name(other))),
        };
        // GLSL.std.450 float results must not be denormal under DenormFlushToZero; FAbs,
        // FSign, Length of a scalar and FaceForward would otherwise keep a denormal input.
        let r = self.flush_denormals(inst.rtype()?, r)?;
        self.alias(inst, r)
    }
}
