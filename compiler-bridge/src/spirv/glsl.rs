//! GLSL.std.450 extended instructions.

use rspirv::dr;

use super::consts::float_literal;
use super::func::{bool_ty, FnCx, MD_FPMATH};
use super::types::intrinsic_suffix;
use super::InstExt;
use crate::CompileError;

/// GLSL.std.450 instruction numbers we lower (the specification's numbering).
mod n {
    pub const ROUND: u32 = 1;
    pub const ROUND_EVEN: u32 = 2;
    pub const TRUNC: u32 = 3;
    pub const FABS: u32 = 4;
    pub const SABS: u32 = 5;
    pub const FSIGN: u32 = 6;
    pub const FLOOR: u32 = 8;
    pub const CEIL: u32 = 9;
    pub const FRACT: u32 = 10;
    pub const RADIANS: u32 = 11;
    pub const DEGREES: u32 = 12;
    pub const SIN: u32 = 13;
    pub const COS: u32 = 14;
    pub const POW: u32 = 26;
    pub const EXP: u32 = 27;
    pub const LOG: u32 = 28;
    pub const EXP2: u32 = 29;
    pub const LOG2: u32 = 30;
    pub const SQRT: u32 = 31;
    pub const INVERSE_SQRT: u32 = 32;
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
    pub const FMA: u32 = 50;
    pub const LENGTH: u32 = 66;
    pub const DISTANCE: u32 = 67;
    pub const NORMALIZE: u32 = 69;
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

impl FnCx<'_, '_> {
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
        let t = self.m.llty(x.ty)?;
        let sfx = intrinsic_suffix(&t);
        let (width, _, _) = self.m.scalar_kind(x.ty)?;
        let fconst = |this: &Self, v: f64| -> Result<String, CompileError> {
            let bits = match width {
                64 => v.to_bits(),
                // Conversions of these few literals are exact or rounded once, as intended.
                _ => u64::from((v as f32).to_bits()),
            };
            this.splat_const(x.ty, &float_literal(width, bits))
        };
        // One-operand intrinsic with the operand's type.
        let unary = |this: &mut Self, intr: &str, v: &str| -> Result<String, CompileError> {
            Ok(this.call_intrinsic(&t, &format!("llvm.{intr}.{sfx}"), &[format!("{t} {v}")]))
        };
        let binary = |this: &mut Self, intr: &str, a: &str, b: &str| -> Result<String, CompileError> {
            Ok(this.call_intrinsic(&t, &format!("llvm.{intr}.{sfx}"), &[format!("{t} {a}"), format!("{t} {b}")]))
        };
        let second = |this: &Self| -> Result<String, CompileError> { Ok(this.val(arg(1)?)?.text) };
        let third = |this: &Self| -> Result<String, CompileError> { Ok(this.val(arg(2)?)?.text) };
        let dot_self = |this: &mut Self, v: &str| -> Result<String, CompileError> {
            if !t.starts_with('<') {
                return Ok(this.def(format!("fmul contract {t} {v}, {v}")));
            }
            let sq = this.def(format!("fmul contract {t} {v}, {v}"));
            let et = t.rsplit_once(" x ").map_or("float", |(_, e)| e.trim_end_matches('>')).to_string();
            Ok(this.call_intrinsic(
                &et,
                &format!("llvm.vector.reduce.fadd.{sfx}"),
                &[format!("{et} -0.0"), format!("{t} {sq}")],
            ))
        };

        let r = match number {
            n::ROUND => unary(self, "round", &x.text)?,
            n::ROUND_EVEN => unary(self, "roundeven", &x.text)?,
            n::TRUNC => unary(self, "trunc", &x.text)?,
            n::FABS => unary(self, "fabs", &x.text)?,
            n::FLOOR => unary(self, "floor", &x.text)?,
            n::CEIL => unary(self, "ceil", &x.text)?,
            n::SQRT => unary(self, "sqrt", &x.text)?,
            n::EXP2 => unary(self, "exp2", &x.text)?,
            n::LOG2 => unary(self, "log2", &x.text)?,
            n::SIN => unary(self, "sin", &x.text)?,
            n::COS => unary(self, "cos", &x.text)?,
            n::SABS => {
                self.call_intrinsic(&t, &format!("llvm.abs.{sfx}"), &[format!("{t} {}", x.text), "i1 false".into()])
            }
            n::FSIGN => {
                let (zero, one, m1) = (fconst(self, 0.0)?, fconst(self, 1.0)?, fconst(self, -1.0)?);
                let bt = bool_ty(&t);
                let pos = self.def(format!("fcmp ogt {t} {}, {zero}", x.text));
                let neg = self.def(format!("fcmp olt {t} {}, {zero}", x.text));
                let s = self.def(format!("select {bt} {neg}, {t} {m1}, {t} {}", x.text));
                self.def(format!("select {bt} {pos}, {t} {one}, {t} {s}"))
            }
            n::FRACT => {
                let fl = unary(self, "floor", &x.text)?;
                self.def(format!("fsub {t} {}, {fl}", x.text))
            }
            n::RADIANS | n::DEGREES => {
                let k = if number == n::RADIANS { std::f64::consts::PI / 180.0 } else { 180.0 / std::f64::consts::PI };
                let k = fconst(self, k)?;
                self.def(format!("fmul {t} {}, {k}", x.text))
            }
            n::POW => {
                // Vulkan defines pow's precision as that of exp2(y * log2(x)).
                let y = second(self)?;
                let l = unary(self, "log2", &x.text)?;
                let p = self.def(format!("fmul {t} {y}, {l}"));
                unary(self, "exp2", &p)?
            }
            n::EXP => {
                let k = fconst(self, std::f64::consts::LOG2_E)?;
                let p = self.def(format!("fmul {t} {}, {k}", x.text));
                unary(self, "exp2", &p)?
            }
            n::LOG => {
                let l = unary(self, "log2", &x.text)?;
                let k = fconst(self, std::f64::consts::LN_2)?;
                self.def(format!("fmul {t} {l}, {k}"))
            }
            n::INVERSE_SQRT => {
                let s = unary(self, "sqrt", &x.text)?;
                let one = fconst(self, 1.0)?;
                self.def(format!("fdiv {t} {one}, {s}, !fpmath {MD_FPMATH}"))
            }
            n::FMIN | n::NMIN => binary(self, "minnum", &x.text, &second(self)?)?,
            n::FMAX | n::NMAX => binary(self, "maxnum", &x.text, &second(self)?)?,
            n::UMIN => binary(self, "umin", &x.text, &second(self)?)?,
            n::UMAX => binary(self, "umax", &x.text, &second(self)?)?,
            n::SMIN => binary(self, "smin", &x.text, &second(self)?)?,
            n::SMAX => binary(self, "smax", &x.text, &second(self)?)?,
            n::FCLAMP | n::NCLAMP | n::UCLAMP | n::SCLAMP => {
                let (lo, hi) = (second(self)?, third(self)?);
                let (max, min) = match number {
                    n::UCLAMP => ("umax", "umin"),
                    n::SCLAMP => ("smax", "smin"),
                    _ => ("maxnum", "minnum"),
                };
                let m = binary(self, max, &x.text, &lo)?;
                binary(self, min, &m, &hi)?
            }
            n::FMIX => {
                // x * (1 - a) + y * a
                let (y, a) = (second(self)?, third(self)?);
                let one = fconst(self, 1.0)?;
                let ia = self.def(format!("fsub {t} {one}, {a}"));
                let xa = self.def(format!("fmul contract {t} {}, {ia}", x.text));
                let ya = self.def(format!("fmul contract {t} {y}, {a}"));
                self.def(format!("fadd contract {t} {xa}, {ya}"))
            }
            n::STEP => {
                // step(edge, x) = x < edge ? 0 : 1
                let v = second(self)?;
                let (zero, one) = (fconst(self, 0.0)?, fconst(self, 1.0)?);
                let lt = self.def(format!("fcmp olt {t} {v}, {}", x.text));
                self.def(format!("select {} {lt}, {t} {zero}, {t} {one}", bool_ty(&t)))
            }
            n::FMA => {
                let (b, c) = (second(self)?, third(self)?);
                self.call_intrinsic(
                    &t,
                    &format!("llvm.fma.{sfx}"),
                    &[format!("{t} {}", x.text), format!("{t} {b}"), format!("{t} {c}")],
                )
            }
            n::LENGTH | n::DISTANCE => {
                let v = if number == n::DISTANCE {
                    let y = second(self)?;
                    self.def(format!("fsub {t} {}, {y}", x.text))
                } else {
                    x.text.clone()
                };
                let d = dot_self(self, &v)?;
                let rt = self.m.llty(inst.rtype()?)?;
                self.call_intrinsic(&rt, &format!("llvm.sqrt.{}", intrinsic_suffix(&rt)), &[format!("{rt} {d}")])
            }
            n::NORMALIZE => {
                let d = dot_self(self, &x.text)?;
                let et = t.rsplit_once(" x ").map_or(t.clone(), |(_, e)| e.trim_end_matches('>').to_string());
                let s =
                    self.call_intrinsic(&et, &format!("llvm.sqrt.{}", intrinsic_suffix(&et)), &[format!("{et} {d}")]);
                let one = float_literal(width, if width == 64 { 1f64.to_bits() } else { u64::from(1f32.to_bits()) });
                let inv = self.def(format!("fdiv {et} {one}, {s}, !fpmath {MD_FPMATH}"));
                let splat = self
                    .splat(x.ty, &super::func::Val { ty: self.m.element_type(x.ty, 0).unwrap_or(x.ty), text: inv })?;
                self.def(format!("fmul {t} {}, {splat}", x.text))
            }
            n::FIND_ILSB => {
                // -1 for 0: cttz gives the width there, so select.
                let z = self.call_intrinsic(
                    &t,
                    &format!("llvm.cttz.{sfx}"),
                    &[format!("{t} {}", x.text), "i1 false".into()],
                );
                let zero = self.splat_const(x.ty, "0")?;
                let m1 = self.splat_const(x.ty, "-1")?;
                let is0 = self.def(format!("icmp eq {t} {}, {zero}", x.text));
                self.def(format!("select {} {is0}, {t} {m1}, {t} {z}", bool_ty(&t)))
            }
            n::FIND_UMSB | n::FIND_SMSB => {
                // width-1 - ctlz(v), which is -1 for v = 0; for signed, v = x ^ (x >> width-1)
                // finds the most significant bit that differs from the sign.
                let v = if number == n::FIND_SMSB {
                    let sh = self.splat_const(x.ty, &(width - 1).to_string())?;
                    let s = self.def(format!("ashr {t} {}, {sh}", x.text));
                    self.def(format!("xor {t} {}, {s}", x.text))
                } else {
                    x.text.clone()
                };
                let lz = self.call_intrinsic(&t, &format!("llvm.ctlz.{sfx}"), &[format!("{t} {v}"), "i1 false".into()]);
                let top = self.splat_const(x.ty, &(width - 1).to_string())?;
                self.def(format!("sub {t} {top}, {lz}"))
            }
            other => return Err(CompileError::unsupported(name(other))),
        };
        self.alias(inst, r)
    }
}
