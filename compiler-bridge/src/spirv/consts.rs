//! Constants: evaluation (specialisation and `OpSpecConstantOp` folding happen here, at
//! compile time) and their LLVM spelling.

use rspirv::dr;
use spirv::Op;

use super::module::Module;
use super::types::Type;
use super::{Id, InstExt, SpecConstant};
use crate::CompileError;

/// Most elements we expand when materialising a null/zero aggregate.
const MAX_CONST_ELEMENTS: u32 = 1 << 16;

/// A constant's value: scalars as raw bits (bools 0/1, integers zero-extended, floats as
/// their IEEE bits), composites element-wise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Value {
    Scalar(u64),
    Composite(Vec<Value>),
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Const {
    pub ty: Id,
    pub value: Value,
}

fn mask(width: u32) -> u64 {
    if width >= 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    }
}

fn sext(v: u64, width: u32) -> i64 {
    if width >= 64 {
        v as i64
    } else {
        let shift = 64 - width;
        ((v << shift) as i64) >> shift
    }
}

/// The LLVM spelling of a float constant of `width` bits with raw bits `bits`: LLVM wants
/// `float` constants written as the equivalent `double`, and `half` as `0xH`.
pub(crate) fn float_literal(width: u32, bits: u64) -> String {
    match width {
        16 => format!("0xH{:04X}", bits & 0xffff),
        32 => {
            let b = bits as u32;
            let f = f32::from_bits(b);
            let d = if f.is_nan() {
                // Widen by hand: a conversion may quiet a signalling NaN.
                (u64::from(b >> 31) << 63) | (0x7ffu64 << 52) | (u64::from(b & 0x7f_ffff) << 29)
            } else {
                f64::from(f).to_bits()
            };
            format!("0x{d:016X}")
        }
        _ => format!("0x{bits:016X}"),
    }
}

impl Module<'_> {
    /// (bit width, is bool, is float) of a scalar type or a vector's components.
    pub(crate) fn scalar_kind(&self, ty: Id) -> Result<(u32, bool, bool), CompileError> {
        match self.ty(ty)? {
            Type::Bool => Ok((1, true, false)),
            Type::Int { width, .. } => Ok((*width, false, false)),
            Type::Float { width } => Ok((*width, false, true)),
            Type::Vector { elem, .. } => self.scalar_kind(*elem),
            _ => Err(CompileError::invalid(format!("%{ty} is not a scalar or vector type"))),
        }
    }

    /// The all-zero value of `ty`.
    pub(crate) fn zero(&self, ty: Id) -> Result<Value, CompileError> {
        let n = self.scalar_count(ty)?;
        if n > u64::from(MAX_CONST_ELEMENTS) {
            return Err(CompileError::unsupported(format!("null constant of {n} scalars")));
        }
        self.zero_inner(ty)
    }

    /// The value OpUndef of `ty` gets: zero (a defined value keeps results reproducible;
    /// any value is allowed), an all-zero descriptor for images and samplers, and none for
    /// a runtime array, which has no value form (any use of it is then an error).
    pub(crate) fn undef(&self, ty: Id) -> Result<Option<Value>, CompileError> {
        match self.ty(ty)? {
            Type::Image { .. } | Type::Sampler | Type::SampledImage { .. } => Ok(Some(Value::Scalar(0))),
            Type::RuntimeArray { .. } => Ok(None),
            _ => self.zero(ty).map(Some),
        }
    }

    fn zero_inner(&self, ty: Id) -> Result<Value, CompileError> {
        Ok(match self.ty(ty)? {
            Type::Bool | Type::Int { .. } | Type::Float { .. } | Type::Pointer { .. } => Value::Scalar(0),
            Type::Vector { elem, count } | Type::Array { elem, len: count } | Type::Matrix { col: elem, count } => {
                let z = self.zero_inner(*elem)?;
                Value::Composite(vec![z; *count as usize])
            }
            Type::Struct { members } => {
                Value::Composite(members.iter().map(|m| self.zero_inner(*m)).collect::<Result<_, _>>()?)
            }
            _ => return Err(CompileError::invalid(format!("type %{ty} has no null value"))),
        })
    }

    fn constant(&self, id: Id) -> Result<&Const, CompileError> {
        self.consts
            .get(&id)
            .ok_or_else(|| CompileError::invalid(format!("%{id} is not a constant defined before its use")))
    }

    /// Evaluates a constant instruction; `spec` overrides a specialisation constant's default.
    pub(crate) fn eval_constant(
        &self,
        inst: &dr::Instruction,
        spec: Option<&SpecConstant>,
    ) -> Result<Const, CompileError> {
        let ty = inst.rtype()?;
        let (width, is_bool) = match self.ty(ty)? {
            Type::Bool => (1, true),
            Type::Int { width, .. } | Type::Float { width } => (*width, false),
            _ => (0, false),
        };
        let spec_bits = |bytes: usize| -> Result<Option<u64>, CompileError> {
            let Some(s) = spec else { return Ok(None) };
            let data = s.data.get(..bytes).ok_or_else(|| {
                CompileError::invalid(format!(
                    "specialisation constant {} needs {bytes} bytes, got {}",
                    s.id,
                    s.data.len()
                ))
            })?;
            let mut b = [0u8; 8];
            b[..bytes].copy_from_slice(data);
            Ok(Some(u64::from_le_bytes(b)))
        };
        let value = match inst.class.opcode {
            Op::ConstantTrue | Op::ConstantFalse | Op::SpecConstantTrue | Op::SpecConstantFalse => {
                if !is_bool {
                    return Err(inst.bad("result type is not bool"));
                }
                let default = matches!(inst.class.opcode, Op::ConstantTrue | Op::SpecConstantTrue);
                // A VkBool32 specialisation value is 4 bytes.
                let v = spec_bits(4)?.map_or(default, |b| b != 0);
                Value::Scalar(u64::from(v))
            }
            Op::Constant | Op::SpecConstant => {
                if width == 0 {
                    return Err(inst.bad(&format!("result type %{ty} is not a scalar")));
                }
                let literal = match inst.operands.first() {
                    Some(dr::Operand::LiteralBit32(v)) => u64::from(*v),
                    Some(dr::Operand::LiteralBit64(v)) => *v,
                    _ => return Err(inst.bad("operand 0 is not a literal number")),
                };
                let v = spec_bits(width.div_ceil(8).max(1) as usize)?.unwrap_or(literal);
                Value::Scalar(v & mask(width))
            }
            Op::ConstantComposite | Op::SpecConstantComposite => {
                let parts = inst.ids_from(0)?;
                let expected = match self.ty(ty)? {
                    Type::Vector { count, .. } | Type::Array { len: count, .. } | Type::Matrix { count, .. } => {
                        *count as usize
                    }
                    Type::Struct { members } => members.len(),
                    _ => return Err(inst.bad("result type is not a composite")),
                };
                if parts.len() != expected {
                    return Err(inst.bad(&format!("{} constituents for a type with {expected}", parts.len())));
                }
                Value::Composite(
                    parts.iter().map(|p| Ok(self.constant(*p)?.value.clone())).collect::<Result<_, CompileError>>()?,
                )
            }
            Op::ConstantNull => self.zero(ty)?,
            Op::SpecConstantOp => self.fold(inst, ty)?,
            _ => return Err(CompileError::unsupported(inst.name())),
        };
        Ok(Const { ty, value })
    }

    /// Folds an `OpSpecConstantOp` (the Shader-capability set of operations).
    fn fold(&self, inst: &dr::Instruction, ty: Id) -> Result<Value, CompileError> {
        let op = match inst.operands.first() {
            Some(dr::Operand::LiteralSpecConstantOpInteger(op)) => *op,
            _ => return Err(inst.bad("operand 0 is not an opcode")),
        };
        let arg = |i: usize| -> Result<&Const, CompileError> { self.constant(inst.id(i)?) };
        match op {
            Op::CompositeExtract => {
                let mut v = &arg(1)?.value;
                for idx in inst.lits_from(2)? {
                    v = match v {
                        Value::Composite(parts) => {
                            parts.get(idx as usize).ok_or_else(|| inst.bad("index out of range"))?
                        }
                        Value::Scalar(_) => return Err(inst.bad("index into a scalar")),
                    };
                }
                Ok(v.clone())
            }
            Op::CompositeInsert => {
                let object = arg(1)?.value.clone();
                let mut out = arg(2)?.value.clone();
                let mut slot = &mut out;
                for idx in inst.lits_from(3)? {
                    slot = match slot {
                        Value::Composite(parts) => {
                            parts.get_mut(idx as usize).ok_or_else(|| inst.bad("index out of range"))?
                        }
                        Value::Scalar(_) => return Err(inst.bad("index into a scalar")),
                    };
                }
                *slot = object;
                Ok(out)
            }
            Op::VectorShuffle => {
                let (a, b) = (arg(1)?, arg(2)?);
                let parts = |c: &Const| match &c.value {
                    Value::Composite(p) => Ok(p.clone()),
                    Value::Scalar(_) => Err(inst.bad("shuffle of a scalar")),
                };
                let all: Vec<Value> = parts(a)?.into_iter().chain(parts(b)?).collect();
                let zero = Value::Scalar(0);
                let out =
                    inst.lits_from(3)?.into_iter().map(|i| all.get(i as usize).unwrap_or(&zero).clone()).collect();
                Ok(Value::Composite(out))
            }
            Op::Select => {
                let (c, a, b) = (arg(1)?, arg(2)?, arg(3)?);
                match (&c.value, &a.value, &b.value) {
                    (Value::Scalar(c), a, b) => Ok(if *c != 0 { a.clone() } else { b.clone() }),
                    (Value::Composite(c), Value::Composite(a), Value::Composite(b))
                        if c.len() == a.len() && a.len() == b.len() =>
                    {
                        Ok(Value::Composite(
                            c.iter()
                                .zip(a.iter().zip(b))
                                .map(|(c, (a, b))| if *c != Value::Scalar(0) { a.clone() } else { b.clone() })
                                .collect(),
                        ))
                    }
                    _ => Err(inst.bad("mismatched operands")),
                }
            }
            Op::FConvert | Op::QuantizeToF16 => {
                let a = arg(1)?;
                let (from, _, _) = self.scalar_kind(a.ty)?;
                let (to, _, _) = self.scalar_kind(ty)?;
                let f = |x: u64| -> u64 {
                    let v = float_value(x, from);
                    if op == Op::QuantizeToF16 {
                        float_bits(f64::from(quantize_f16(v as f32)), to)
                    } else {
                        float_bits(v, to)
                    }
                };
                map1(&a.value, &f).ok_or_else(|| inst.bad("malformed operand"))
            }
            Op::SConvert | Op::UConvert | Op::SNegate | Op::Not | Op::LogicalNot => {
                let a = arg(1)?;
                let (from, _, _) = self.scalar_kind(a.ty)?;
                let (to, _, _) = self.scalar_kind(ty)?;
                let f = |x: u64| -> u64 {
                    match op {
                        Op::SConvert => sext(x, from) as u64 & mask(to),
                        Op::UConvert => x & mask(to),
                        Op::SNegate => x.wrapping_neg() & mask(to),
                        Op::Not => !x & mask(to),
                        _ => u64::from(x == 0),
                    }
                };
                map1(&a.value, &f).ok_or_else(|| inst.bad("malformed operand"))
            }
            _ => {
                let (a, b) = (arg(1)?, arg(2)?);
                let (w, _, is_float) = self.scalar_kind(a.ty)?;
                if is_float {
                    return Err(CompileError::unsupported(format!("OpSpecConstantOp {op:?} on floats")));
                }
                let (rw, _, _) = self.scalar_kind(ty)?;
                let (bw, _, _) = self.scalar_kind(b.ty)?;
                let f = binary_fold(op, w, bw)
                    .ok_or_else(|| CompileError::unsupported(format!("OpSpecConstantOp Op{op:?}")))?;
                let g = |x: u64, y: u64| f(x, y) & mask(rw);
                map2(&a.value, &b.value, &g).ok_or_else(|| inst.bad("mismatched operands"))
            }
        }
    }

    /// The LLVM constant for `value` of SPIR-V type `ty` (without the type prefix).
    pub(crate) fn render(&self, ty: Id, value: &Value) -> Result<String, CompileError> {
        let all_zero = |v: &Value| fn_all_zero(v);
        match (self.ty(ty)?, value) {
            (Type::Bool, Value::Scalar(v)) => Ok(if *v != 0 { "true" } else { "false" }.into()),
            (Type::Int { width, .. }, Value::Scalar(v)) => Ok(sext(*v, *width).to_string()),
            (Type::Float { width }, Value::Scalar(v)) => Ok(float_literal(*width, *v)),
            (Type::Pointer { .. }, Value::Scalar(0)) => Ok("null".into()),
            (Type::Image { .. } | Type::Sampler | Type::SampledImage { .. }, Value::Scalar(0)) => {
                Ok("zeroinitializer".into())
            }
            (
                Type::Vector { elem, .. } | Type::Array { elem, .. } | Type::Matrix { col: elem, .. },
                Value::Composite(parts),
            ) => {
                if all_zero(value) {
                    return Ok("zeroinitializer".into());
                }
                let t = self.llty(*elem)?;
                let items: Result<Vec<_>, _> =
                    parts.iter().map(|p| Ok::<_, CompileError>(format!("{t} {}", self.render(*elem, p)?))).collect();
                let (open, close) = if matches!(self.ty(ty)?, Type::Vector { .. }) { ('<', '>') } else { ('[', ']') };
                Ok(format!("{open}{}{close}", items?.join(", ")))
            }
            (Type::Struct { members }, Value::Composite(parts)) if members.len() == parts.len() => {
                if all_zero(value) {
                    return Ok("zeroinitializer".into());
                }
                let items: Result<Vec<_>, CompileError> = members
                    .iter()
                    .zip(parts)
                    .map(|(m, p)| Ok(format!("{} {}", self.llty(*m)?, self.render(*m, p)?)))
                    .collect();
                Ok(format!("{{ {} }}", items?.join(", ")))
            }
            _ => Err(CompileError::invalid(format!("constant does not match its type %{ty}"))),
        }
    }
}

/// The value of float bits `x` of `width` bits.
fn float_value(x: u64, width: u32) -> f64 {
    match width {
        16 => f64::from(half::f16::from_bits(x as u16)),
        32 => f64::from(f32::from_bits(x as u32)),
        _ => f64::from_bits(x),
    }
}

/// The bits of `v` rounded (to nearest even) to a float of `width` bits.
fn float_bits(v: f64, width: u32) -> u64 {
    match width {
        16 => u64::from(f64_to_f16_bits(v)),
        32 => u64::from((v as f32).to_bits()),
        _ => v.to_bits(),
    }
}

/// `v` rounded to the nearest f16, ties to even, in one step. (`half`'s `from_f64` goes
/// through f32 where the CPU has F16C, rounding twice, and its fallback ignores the low 32
/// bits of the significand: both can be one unit off.)
pub(crate) fn f64_to_f16_bits(v: f64) -> u16 {
    let bits = v.to_bits();
    let sign = ((bits >> 48) & 0x8000) as u16;
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1 << 52) - 1);
    if exp == 0x7ff {
        // Infinity, or a quiet NaN keeping the top of the payload.
        return sign | 0x7c00 | if frac == 0 { 0 } else { 0x200 | (frac >> 42) as u16 };
    }
    if exp == 0 {
        return sign; // f64 denormals are far below f16's smallest denormal
    }
    let sig = frac | (1 << 52);
    // Bits of `sig` below the f16 result's last place: 42 for normal results, more for
    // denormal ones (whose last place is 2^-24).
    let shift = 42 + (-14 - (exp - 1023)).max(0);
    if shift > 53 {
        return sign; // below half the smallest denormal
    }
    let kept = sig >> shift;
    let rest = sig & ((1 << shift) - 1);
    let half_way = 1 << (shift - 1);
    let rounded = kept + u64::from(rest > half_way || (rest == half_way && kept & 1 == 1));
    // A normal result's implicit bit moves into the exponent field, carries included.
    let biased = if shift == 42 { rounded + (((exp - 1023 + 15 - 1) as u64) << 10) } else { rounded };
    sign | biased.min(0x7c00) as u16
}

/// OpQuantizeToF16: `v` rounded to f16 precision and range; values too small for a normal
/// f16 become zero of their sign (the spec allows either zero, we keep the sign).
pub(crate) fn quantize_f16(v: f32) -> f32 {
    let h = half::f16::from_f32(v);
    if h != half::f16::ZERO && h != half::f16::NEG_ZERO && !h.is_normal() && h.is_finite() {
        return if v.is_sign_negative() { -0.0 } else { 0.0 };
    }
    f32::from(h)
}

fn fn_all_zero(v: &Value) -> bool {
    match v {
        Value::Scalar(s) => *s == 0,
        Value::Composite(p) => p.iter().all(fn_all_zero),
    }
}

fn map1(a: &Value, f: &dyn Fn(u64) -> u64) -> Option<Value> {
    match a {
        Value::Scalar(x) => Some(Value::Scalar(f(*x))),
        Value::Composite(p) => Some(Value::Composite(p.iter().map(|x| map1(x, f)).collect::<Option<_>>()?)),
    }
}

fn map2(a: &Value, b: &Value, f: &dyn Fn(u64, u64) -> u64) -> Option<Value> {
    match (a, b) {
        (Value::Scalar(x), Value::Scalar(y)) => Some(Value::Scalar(f(*x, *y))),
        (Value::Composite(p), Value::Composite(q)) if p.len() == q.len() => {
            Some(Value::Composite(p.iter().zip(q).map(|(x, y)| map2(x, y, f)).collect::<Option<_>>()?))
        }
        _ => None,
    }
}

/// Integer/logical binary operation on raw bits; `w` and `bw` are the operand widths.
fn binary_fold(op: Op, w: u32, bw: u32) -> Option<Box<dyn Fn(u64, u64) -> u64>> {
    let s = move |x: u64| sext(x, w);
    let shift = move |y: u64| (y & mask(bw)) as u32 % w.max(1);
    let b = |v: bool| u64::from(v);
    Some(match op {
        Op::IAdd => Box::new(|x: u64, y: u64| x.wrapping_add(y)),
        Op::ISub => Box::new(|x: u64, y: u64| x.wrapping_sub(y)),
        Op::IMul => Box::new(|x: u64, y: u64| x.wrapping_mul(y)),
        Op::UDiv => Box::new(|x: u64, y: u64| x.checked_div(y).unwrap_or(0)),
        Op::UMod => Box::new(|x: u64, y: u64| x.checked_rem(y).unwrap_or(0)),
        Op::SDiv => Box::new(move |x, y| s(x).checked_div(s(y)).unwrap_or(0) as u64),
        Op::SRem => Box::new(move |x, y| s(x).checked_rem(s(y)).unwrap_or(0) as u64),
        Op::SMod => Box::new(move |x, y| {
            let r = s(x).checked_rem(s(y)).unwrap_or(0);
            (if r != 0 && (r < 0) != (s(y) < 0) { r.wrapping_add(s(y)) } else { r }) as u64
        }),
        Op::ShiftLeftLogical => Box::new(move |x, y| x << shift(y)),
        Op::ShiftRightLogical => Box::new(move |x, y| (x & mask(w)) >> shift(y)),
        Op::ShiftRightArithmetic => Box::new(move |x, y| (s(x) >> shift(y)) as u64),
        Op::BitwiseOr | Op::LogicalOr => Box::new(|x, y| x | y),
        Op::BitwiseAnd | Op::LogicalAnd => Box::new(|x, y| x & y),
        Op::BitwiseXor => Box::new(|x, y| x ^ y),
        Op::LogicalEqual | Op::IEqual => Box::new(move |x, y| b(x == y)),
        Op::LogicalNotEqual | Op::INotEqual => Box::new(move |x, y| b(x != y)),
        Op::ULessThan => Box::new(move |x, y| b(x < y)),
        Op::UGreaterThan => Box::new(move |x, y| b(x > y)),
        Op::ULessThanEqual => Box::new(move |x, y| b(x <= y)),
        Op::UGreaterThanEqual => Box::new(move |x, y| b(x >= y)),
        Op::SLessThan => Box::new(move |x, y| b(s(x) < s(y))),
        Op::SGreaterThan => Box::new(move |x, y| b(s(x) > s(y))),
        Op::SLessThanEqual => Box::new(move |x, y| b(s(x) <= s(y))),
        Op::SGreaterThanEqual => Box::new(move |x, y| b(s(x) >= s(y))),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn float_literals_are_exact() {
        assert_eq!(float_literal(32, 1.0f32.to_bits() as u64), "0x3FF0000000000000");
        assert_eq!(float_literal(32, 0.1f32.to_bits() as u64), "0x3FB99999A0000000");
        // Signalling NaN keeps its payload.
        assert_eq!(float_literal(32, 0x7f80_0001), "0x7FF0000020000000");
        assert_eq!(float_literal(16, 0x3c00), "0xH3C00");
    }

    #[test]
    fn folding_follows_spirv_semantics() {
        let f = binary_fold(Op::SMod, 32, 32).unwrap();
        assert_eq!(f((-7i32) as u32 as u64, 3) & mask(32), 2);
        let f = binary_fold(Op::ShiftRightArithmetic, 32, 32).unwrap();
        assert_eq!(f(0x8000_0000, 4) & mask(32), 0xf800_0000);
        let f = binary_fold(Op::UDiv, 32, 32).unwrap();
        assert_eq!(f(7, 0), 0);
    }

    fn f16_value(h: u16) -> f64 {
        f64::from(half::f16::from_bits(h))
    }

    /// Whether `h` is the f16 nearest to positive finite `v`, ties to even: `v` lies between
    /// the midpoints to its neighbours (exact in f64), on one only if `h` is even. Infinity
    /// stands for 2^16 (where rounding overflows).
    fn is_nearest_f16(v: f64, h: u16) -> bool {
        let value = |h: u16| if h == 0x7c00 { 65536.0 } else { f16_value(h) };
        let lo = if h == 0 { 0.0 } else { (value(h - 1) + value(h)) / 2.0 };
        let hi = if h == 0x7c00 { f64::INFINITY } else { (value(h) + value(h + 1)) / 2.0 };
        let even = h & 1 == 0;
        (lo < v || (lo == v && even) || h == 0) && (v < hi || (v == hi && even))
    }

    /// f64 -> f16 in one rounding: against the CPU's own f32 -> f16 (F16C where present)
    /// on values exact in f32, and the nearest-value property elsewhere, including just
    /// above and below every kind of tie (what rounding through f32 gets wrong).
    #[test]
    fn f64_to_f16_rounds_once_to_nearest_even() {
        // The CTS's float_controls rounding_rte_sconst_conv_from_fp64_up value: above the
        // midpoint of 0x7b9a and 0x7b9b by less than f32 can tell.
        let mid = (f16_value(0x7b9a) + f16_value(0x7b9b)) / 2.0;
        assert_eq!(f64_to_f16_bits(mid + mid * 2f64.powi(-40)), 0x7b9b);
        assert_eq!(f64_to_f16_bits(mid), 0x7b9a);
        assert_eq!(f64_to_f16_bits(-(mid + mid * 2f64.powi(-40))), 0xfb9b);
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for i in 0..200_000u32 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            // Exponents from far below f16's denormals to beyond its range.
            let e = 1023 - 30 + (x >> 52) % 48;
            let mut v = f64::from_bits((e << 52) | (x & ((1 << 52) - 1)));
            if i % 4 == 0 {
                // A tie between two f16s, nudged by one f64 unit or not at all.
                let h = (x >> 20) as u16 % 0x7c00;
                let tie = (f16_value(h) + f16_value(h + 1).min(65536.0)) / 2.0;
                v = f64::from_bits([tie.to_bits(), tie.to_bits() + 1, tie.to_bits() - 1][(x % 3) as usize]);
            }
            let h = f64_to_f16_bits(v);
            assert!(is_nearest_f16(v, h), "{v:e} ({:#x}) -> {h:#06x}", v.to_bits());
            assert_eq!(f64_to_f16_bits(-v), h | 0x8000);
            if f64::from(v as f32) == v {
                assert_eq!(h, half::f16::from_f32(v as f32).to_bits(), "{v:e}");
            }
        }
        assert_eq!(f64_to_f16_bits(f64::INFINITY), 0x7c00);
        assert_eq!(f64_to_f16_bits(f64::NAN) & 0x7e00, 0x7e00);
        assert_eq!(f64_to_f16_bits(f64::from_bits(1)), 0);
        assert_eq!(f64_to_f16_bits(65520.0), 0x7c00);
        assert_eq!(f64_to_f16_bits(65519.99), 0x7bff);
    }
}
