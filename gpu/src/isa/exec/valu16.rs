//! 16-bit vector ALU: f16, i16, u16 and b16 operations (VOP1, VOP2, VOP3, VOPC), true16
//! halves selected by op_sel, and the conversions between f16 and other types.
//!
//! Semantics are the RDNA3 ISA reference's pseudocode (chapter 16, "VOP1", "VOP2", "VOP3"
//! and "VOPC" instructions). Facts this file relies on:
//! - A 16-bit result is written to one half of its VGPR and the other half is kept
//!   (LLVM `GCNSubtarget::zeroesHigh16BitsOfDest`: "On gfx10, all 16-bit instructions
//!   preserve the high bits"; gfx11 is the same). In VOP3 the half is op_sel bit 3; in the
//!   32-bit encodings (VOP1/VOP2/VOPC) bit 7 of a 16-bit operand's VGPR field selects the
//!   high half of v0..v127 (true16: `v5.h` is field 133), as `true16_name` prints it.
//! - In VOP3, op_sel bits 0..2 pick the half of sources 0..2 (VGPRs and SGPRs alike).
//! - f16 arithmetic is computed exactly (f16 values are integer multiples of 2^-24, so
//!   sums, products and fused multiply-adds fit in an i128) and rounded once, with the
//!   f16/f64 round mode MODE[3:2], denormal controls MODE[7:6] (bit 6: keep input
//!   denormals, bit 7: keep output denormals) and MODE.FP16_OVFL (overflow gives the
//!   largest finite value instead of infinity). min/max select an input and are not
//!   rounded; their output is not flushed (ISA: "outputs as a denorm regardless of output
//!   denorm mode").
//! - A generated NaN is 0xfe00 (the ISA's functional examples: `V_SQRT_F16(0xfc00) =>
//!   0xfe00`); a NaN input is returned quieted.

use super::fp::FloatMode;
use super::{illegal, unsupported, FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::{
    Encoding,
    Op::{self, *},
};
use crate::spi::mode;

const SIGN: u16 = 0x8000;
const INF: u16 = 0x7c00;
const QUIET: u16 = 0x0200;
/// The NaN the hardware generates (0/0, inf-inf, sqrt(-1)).
const DEFAULT_NAN: u16 = 0xfe00;
const MAX_FINITE: u16 = 0x7bff;

fn is_nan(h: u16) -> bool {
    h & INF == INF && h & 0x3ff != 0
}

fn is_inf(h: u16) -> bool {
    h & 0x7fff == INF
}

fn is_snan(h: u16) -> bool {
    is_nan(h) && h & QUIET == 0
}

fn quiet(h: u16) -> u16 {
    h | QUIET
}

fn neg_of(h: u16) -> bool {
    h & SIGN != 0
}

fn is_denorm(h: u16) -> bool {
    h & INF == 0 && h & 0x3ff != 0
}

/// A finite f16 as an integer multiple of 2^-24 (exact: |K| < 2^40).
fn k24(h: u16) -> i64 {
    let e = (h >> 10) & 0x1f;
    let m = (h & 0x3ff) as i64 | if e > 0 { 0x400 } else { 0 };
    let k = m << (e.max(1) - 1);
    if neg_of(h) {
        -k
    } else {
        k
    }
}

/// The exact value of an f16 as an f64.
fn to_f64(h: u16) -> f64 {
    if is_nan(h) {
        return f64::NAN;
    }
    if is_inf(h) {
        return if neg_of(h) { f64::NEG_INFINITY } else { f64::INFINITY };
    }
    // From the magnitude, so that -0 stays negative.
    let m = k24(h & 0x7fff) as f64 * (1.0 / 16_777_216.0);
    if neg_of(h) {
        -m
    } else {
        m
    }
}

/// A result before the output stage: final bits, or an exact value `(-1)^neg * mag * 2^exp`
/// still to be rounded.
#[derive(Clone, Copy, Debug)]
enum R16 {
    Bits(u16),
    Exact { neg: bool, mag: u128, exp: i32 },
}

/// Rounds `(-1)^neg * mag * 2^exp` to f16 with the mode's rounding, overflow and output
/// denormal rules.
fn round_f16(neg: bool, mag: u128, exp: i32, m: FloatMode) -> u16 {
    let s = if neg { SIGN } else { 0 };
    if mag == 0 {
        return s;
    }
    let msb = 127 - mag.leading_zeros() as i32;
    let e = msb + exp;
    let overflow = |s: u16| -> u16 {
        let to_max = m.fp16_ovfl
            || match m.round {
                0 => false,
                1 => neg,
                2 => !neg,
                _ => true,
            };
        s | if to_max { MAX_FINITE } else { INF }
    };
    if e > 15 {
        return overflow(s);
    }
    // The exponent of the result's last place: normals 2^(e-10), denormals 2^-24.
    let q = e.max(-14) - 10;
    let shift = q - exp;
    let (mut sig, up) = if shift <= 0 {
        // The leading bit lands at or below bit 10: exact.
        (mag << (-shift) as u32, false)
    } else {
        let (sig, rem, half) = if shift >= 129 {
            (0, mag, None)
        } else if shift == 128 {
            (0, mag, Some(1u128 << 127))
        } else {
            (mag >> shift, mag & ((1u128 << shift) - 1), Some(1u128 << (shift - 1)))
        };
        let up = rem != 0
            && match m.round {
                0 => half.is_some_and(|h| rem > h || (rem == h && sig & 1 != 0)),
                1 => !neg,
                2 => neg,
                _ => false,
            };
        (sig, up)
    };
    sig += up as u128;
    // Normal: ((q + 25) << 10) + sig - 1024; at q = -24 the same formula gives the
    // denormal encoding (and a carry into the smallest normal).
    let bits = (((q + 25) as u32) << 10) + sig as u32 - 1024;
    if bits >= INF as u32 {
        return overflow(s);
    }
    let bits = bits as u16;
    if !m.keep_out && is_denorm(bits) {
        return s;
    }
    s | bits
}

/// An f64 result (of a transcendental, computed in f64) as an R16.
fn from_f64(x: f64) -> R16 {
    if x.is_nan() {
        return R16::Bits(DEFAULT_NAN);
    }
    let neg = x.is_sign_negative();
    if x.is_infinite() {
        return R16::Bits(if neg { SIGN | INF } else { INF });
    }
    let b = x.to_bits();
    let e = ((b >> 52) & 0x7ff) as i32;
    let f = b & ((1u64 << 52) - 1);
    let (mag, exp) = if e == 0 { (f, -1074) } else { (f | 1u64 << 52, e - 1075) };
    R16::Exact { neg, mag: mag as u128, exp }
}

/// An f32 (bits) as an R16: NaNs keep their sign and top payload bits, quieted.
fn from_f32(x: u32) -> R16 {
    let neg = x >> 31 != 0;
    let s = if neg { SIGN } else { 0 };
    let e = ((x >> 23) & 0xff) as i32;
    let f = x & 0x7f_ffff;
    if e == 0xff {
        return R16::Bits(if f == 0 { s | INF } else { s | INF | QUIET | (f >> 13) as u16 });
    }
    let (mag, exp) = if e == 0 { (f, -149) } else { (f | 1 << 23, e - 150) };
    R16::Exact { neg, mag: mag as u128, exp }
}

/// An exact integer multiple of 2^exp as an R16 (zero keeps the sign given).
fn exact(v: i128, exp: i32, zero_neg: bool) -> R16 {
    if v == 0 {
        return R16::Bits(if zero_neg { SIGN } else { 0 });
    }
    R16::Exact { neg: v < 0, mag: v.unsigned_abs(), exp }
}

/// The first NaN among the inputs, quieted.
fn nan_in(xs: &[u16]) -> Option<u16> {
    xs.iter().copied().find(|&x| is_nan(x)).map(quiet)
}

/// IEEE sign of an exact zero sum whose addends had signs `a` and `b`: -0 only when both
/// are -0, or in round-toward-negative mode.
fn zero_sum_sign(a_zero_neg: Option<(bool, bool)>, m: FloatMode) -> bool {
    match a_zero_neg {
        Some((a, b)) => (a && b) || (m.down() && (a || b)),
        None => m.down(),
    }
}

fn add16(a: u16, b: u16, m: FloatMode) -> R16 {
    if let Some(n) = nan_in(&[a, b]) {
        return R16::Bits(n);
    }
    if is_inf(a) || is_inf(b) {
        return from_f64(to_f64(a) + to_f64(b));
    }
    let (ka, kb) = (k24(a), k24(b));
    let sum = ka as i128 + kb as i128;
    let both_zero = (ka == 0 && kb == 0).then_some((neg_of(a), neg_of(b)));
    exact(sum, -24, sum == 0 && zero_sum_sign(both_zero, m))
}

fn sub16(a: u16, b: u16, m: FloatMode) -> R16 {
    if let Some(n) = nan_in(&[a, b]) {
        return R16::Bits(n);
    }
    add16(a, b ^ SIGN, m)
}

fn subrev16(a: u16, b: u16, m: FloatMode) -> R16 {
    sub16(b, a, m)
}

fn mul16(a: u16, b: u16, _m: FloatMode) -> R16 {
    if let Some(n) = nan_in(&[a, b]) {
        return R16::Bits(n);
    }
    if is_inf(a) || is_inf(b) {
        return from_f64(to_f64(a) * to_f64(b));
    }
    exact(k24(a) as i128 * k24(b) as i128, -48, neg_of(a) ^ neg_of(b))
}

fn fma16(a: u16, b: u16, c: u16, m: FloatMode) -> R16 {
    if let Some(n) = nan_in(&[a, b, c]) {
        return R16::Bits(n);
    }
    if is_inf(a) || is_inf(b) || is_inf(c) {
        return from_f64(to_f64(a).mul_add(to_f64(b), to_f64(c)));
    }
    let p = k24(a) as i128 * k24(b) as i128;
    let kc = k24(c) as i128;
    let sum = p + (kc << 24);
    let pn = neg_of(a) ^ neg_of(b);
    let both_zero = (p == 0 && kc == 0).then_some((pn, neg_of(c)));
    exact(sum, -48, sum == 0 && zero_sum_sign(both_zero, m))
}

fn ldexp16(a: u16, n: i16, _m: FloatMode) -> R16 {
    if is_nan(a) {
        return R16::Bits(quiet(a));
    }
    let k = k24(a);
    if is_inf(a) || k == 0 {
        return R16::Bits(a);
    }
    R16::Exact { neg: k < 0, mag: k.unsigned_abs() as u128, exp: (n as i32).clamp(-100, 100) - 24 }
}

/// v_min_f16 / v_max_f16 per the ISA pseudocode (IEEE mode quiets signalling NaNs; -0 < +0).
fn minmax16(a: u16, b: u16, max: bool, ieee: bool) -> u16 {
    if ieee {
        if is_snan(a) {
            return quiet(a);
        }
        if is_snan(b) {
            return quiet(b);
        }
    }
    if is_nan(b) {
        return a;
    }
    if is_nan(a) {
        return b;
    }
    let (x, y) = (to_f64(a), to_f64(b));
    let pick_a = if max {
        x > y || (x == 0.0 && y == 0.0 && !neg_of(a) && neg_of(b))
    } else {
        x < y || (x == 0.0 && y == 0.0 && neg_of(a) && !neg_of(b))
    };
    if pick_a {
        a
    } else {
        b
    }
}

fn min16(a: u16, b: u16, ieee: bool) -> u16 {
    minmax16(a, b, false, ieee)
}

fn max16(a: u16, b: u16, ieee: bool) -> u16 {
    minmax16(a, b, true, ieee)
}

/// v_med3_f16, literally as the ISA's pseudocode writes it.
fn med3_16(a: u16, b: u16, c: u16, ieee: bool) -> u16 {
    if is_nan(a) || is_nan(b) || is_nan(c) {
        return min16(min16(a, b, ieee), c, ieee);
    }
    let mx = to_f64(max16(max16(a, b, ieee), c, ieee));
    if mx == to_f64(a) {
        max16(b, c, ieee)
    } else if mx == to_f64(b) {
        max16(a, c, ieee)
    } else {
        max16(a, b, ieee)
    }
}

/// v_div_fixup_f16: S0 quotient, S1 denominator, S2 numerator.
fn div_fixup16(q: u16, d: u16, n: u16) -> u16 {
    let sign = (d ^ n) & SIGN;
    let (dz, nz) = (d & 0x7fff == 0, n & 0x7fff == 0);
    if is_nan(n) {
        quiet(n)
    } else if is_nan(d) {
        quiet(d)
    } else if (dz && nz) || (is_inf(d) && is_inf(n)) {
        DEFAULT_NAN
    } else if dz || is_inf(n) {
        sign | INF
    } else if is_inf(d) || nz {
        sign
    } else {
        sign | (q & 0x7fff)
    }
}

/// sin or cos of `x` revolutions. The argument is reduced exactly (x - round(x)), and
/// multiples of a quarter revolution give exact results.
fn sincos_rev(x: f64, cos: bool) -> f64 {
    if !x.is_finite() {
        return f64::NAN;
    }
    if x == 0.0 && !cos {
        return x;
    }
    let r = x - x.round();
    let q = r * 4.0;
    if q == q.trunc() {
        // r in {-0.5, -0.25, 0, 0.25, 0.5}.
        let v: [f64; 5] = if cos { [-1.0, 0.0, 1.0, 0.0, -1.0] } else { [0.0, -1.0, 0.0, 1.0, 0.0] };
        // A whole number of revolutions gives +0 (ISA: V_SIN_F16(0xfbff) => 0x0000).
        return v[(q as i32 + 2).clamp(0, 4) as usize];
    }
    let a = r * std::f64::consts::TAU;
    if cos {
        a.cos()
    } else {
        a.sin()
    }
}

/// One-source f16 → f16 operations.
fn unary16(op: Op, a: u16, m: FloatMode) -> R16 {
    match op {
        V_FREXP_MANT_F16 => {
            if is_nan(a) || is_inf(a) {
                return R16::Bits(a);
            }
            let k = k24(a);
            if k == 0 {
                return R16::Bits(a);
            }
            // |x| = mag * 2^-24 with the leading bit at `msb`: mantissa in [0.5, 1).
            let mag = k.unsigned_abs() as u128;
            let msb = 127 - mag.leading_zeros() as i32;
            return R16::Exact { neg: k < 0, mag, exp: -(msb + 1) };
        }
        V_FRACT_F16 if is_inf(a) => return R16::Bits(DEFAULT_NAN),
        _ => {}
    }
    if is_nan(a) {
        return R16::Bits(quiet(a));
    }
    let x = to_f64(a);
    let r = match op {
        V_RCP_F16 => 1.0 / x,
        V_SQRT_F16 => x.sqrt(),
        V_RSQ_F16 => 1.0 / x.sqrt(),
        V_LOG_F16 => x.log2(),
        V_EXP_F16 => x.exp2(),
        V_FLOOR_F16 => x.floor(),
        V_CEIL_F16 => x.ceil(),
        V_TRUNC_F16 => x.trunc(),
        V_RNDNE_F16 => x.round_ties_even(),
        V_SIN_F16 => sincos_rev(x, false),
        V_COS_F16 => sincos_rev(x, true),
        _ => {
            // V_FRACT_F16: exact in f64; rounded per mode, then kept below 1.0 like
            // v_fract_f32 ("result clamped to 0x3f7fffff").
            let f = x - x.floor();
            let h = match from_f64(f) {
                R16::Exact { neg, mag, exp } => round_f16(neg, mag, exp, m),
                R16::Bits(b) => b,
            };
            return R16::Bits(if h >= 0x3c00 && !neg_of(h) { 0x3bff } else { h });
        }
    };
    from_f64(r)
}

/// f16 → 16-bit integer conversions and v_frexp_exp_i16_f16 (bits of the integer).
fn to_int16(op: Op, a: u16) -> u16 {
    let x = to_f64(a);
    match op {
        V_CVT_U16_F16 => {
            if x.is_nan() {
                0
            } else {
                x.trunc().clamp(0.0, 65535.0) as u16
            }
        }
        V_CVT_I16_F16 => {
            if x.is_nan() {
                0
            } else {
                x.trunc().clamp(-32768.0, 32767.0) as i16 as u16
            }
        }
        V_CVT_NORM_I16_F16 => snorm(x),
        V_CVT_NORM_U16_F16 => unorm(x),
        _ => {
            // V_FREXP_EXP_I16_F16: C frexp's exponent; 0 for zero, inf and NaN.
            let k = if is_nan(a) || is_inf(a) { 0 } else { k24(a) };
            if k == 0 {
                0
            } else {
                let msb = 63 - k.unsigned_abs().leading_zeros() as i32;
                (msb + 1 - 24) as i16 as u16
            }
        }
    }
}

/// Float to signed normalised 16-bit: clamp to [-1, 1], scale by 32767, round to nearest
/// even; NaN gives 0.
fn snorm(x: f64) -> u16 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
}

/// Float to unsigned normalised 16-bit: clamp to [0, 1], scale by 65535, round to nearest
/// even; NaN gives 0.
fn unorm(x: f64) -> u16 {
    if x.is_nan() {
        return 0;
    }
    (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
}

/// f32 bits as an f64, flushing a denormal input when the f32 denorm mode says so.
fn f32_in(x: u32, mode_reg: u32) -> f64 {
    let keep = mode_reg >> mode::FP_DENORM & 1 != 0;
    if !keep && x & 0x7f80_0000 == 0 {
        return if x >> 31 != 0 { -0.0 } else { 0.0 };
    }
    f32::from_bits(x) as f64
}

fn cmp_f16(op: Op, a: f64, b: f64) -> bool {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let o = a.partial_cmp(&b);
    match op {
        V_CMP_F_F16 | V_CMPX_F_F16 => false,
        V_CMP_LT_F16 | V_CMPX_LT_F16 => o == Some(Less),
        V_CMP_EQ_F16 | V_CMPX_EQ_F16 => o == Some(Equal),
        V_CMP_LE_F16 | V_CMPX_LE_F16 => matches!(o, Some(Less | Equal)),
        V_CMP_GT_F16 | V_CMPX_GT_F16 => o == Some(Greater),
        V_CMP_LG_F16 | V_CMPX_LG_F16 => matches!(o, Some(Less | Greater)),
        V_CMP_GE_F16 | V_CMPX_GE_F16 => matches!(o, Some(Greater | Equal)),
        V_CMP_O_F16 | V_CMPX_O_F16 => o.is_some(),
        V_CMP_U_F16 | V_CMPX_U_F16 => o.is_none(),
        V_CMP_NGE_F16 | V_CMPX_NGE_F16 => !matches!(o, Some(Greater | Equal)),
        V_CMP_NLG_F16 | V_CMPX_NLG_F16 => !matches!(o, Some(Less | Greater)),
        V_CMP_NGT_F16 | V_CMPX_NGT_F16 => o != Some(Greater),
        V_CMP_NLE_F16 | V_CMPX_NLE_F16 => !matches!(o, Some(Less | Equal)),
        V_CMP_NEQ_F16 | V_CMPX_NEQ_F16 => o != Some(Equal),
        V_CMP_NLT_F16 | V_CMPX_NLT_F16 => o != Some(Less),
        _ => true, // V_CMP_T_F16 | V_CMPX_T_F16
    }
}

fn cmp_i16(op: Op, a: u16, b: u16) -> bool {
    let (sa, sb) = (a as i16, b as i16);
    match op {
        V_CMP_LT_I16 | V_CMPX_LT_I16 => sa < sb,
        V_CMP_EQ_I16 | V_CMPX_EQ_I16 | V_CMP_EQ_U16 | V_CMPX_EQ_U16 => a == b,
        V_CMP_LE_I16 | V_CMPX_LE_I16 => sa <= sb,
        V_CMP_GT_I16 | V_CMPX_GT_I16 => sa > sb,
        V_CMP_NE_I16 | V_CMPX_NE_I16 | V_CMP_NE_U16 | V_CMPX_NE_U16 => a != b,
        V_CMP_GE_I16 | V_CMPX_GE_I16 => sa >= sb,
        V_CMP_LT_U16 | V_CMPX_LT_U16 => a < b,
        V_CMP_LE_U16 | V_CMPX_LE_U16 => a <= b,
        V_CMP_GT_U16 | V_CMPX_GT_U16 => a > b,
        _ => a >= b, // V_CMP_GE_U16 | V_CMPX_GE_U16
    }
}

/// v_cmp_class_f16: the class bit of `h` (0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal,
/// 5 -0, 6 +0, 7 +denormal, 8 +normal, 9 +inf).
fn class16(h: u16) -> u32 {
    let n = neg_of(h);
    let bit = if is_snan(h) {
        0
    } else if is_nan(h) {
        1
    } else if is_inf(h) {
        if n {
            2
        } else {
            9
        }
    } else if h & 0x7fff == 0 {
        if n {
            5
        } else {
            6
        }
    } else if is_denorm(h) {
        if n {
            4
        } else {
            7
        }
    } else if n {
        3
    } else {
        8
    };
    1 << bit
}

/// Saturates an integer into the i16 range (as bits).
fn sat_i16(v: i64) -> u16 {
    v.clamp(i16::MIN as i64, i16::MAX as i64) as i16 as u16
}

fn sat_u16(v: i64) -> u16 {
    v.clamp(0, u16::MAX as i64) as u16
}

impl Wave {
    /// Whether `inst` uses the VOP3 encoding (op_sel halves) rather than a 32-bit one
    /// (true16 register fields).
    fn vop3_16(inst: &Inst) -> bool {
        inst.form.is_vop3() || inst.op.encoding() == Encoding::Vop3
    }

    /// The raw 16-bit values of source `k` (a 16-bit operand): the op_sel half in VOP3, the
    /// field's bit-7 half in the 32-bit encodings, the low half of scalars and constants.
    fn src16(&self, inst: &Inst, k: usize) -> Result<[u16; 64], FaultKind> {
        let vop3 = Self::vop3_16(inst);
        let hi_sel = vop3 && inst.opsel >> k & 1 != 0;
        let mut out = [0u16; 64];
        match inst.src[k] {
            Operand::Vgpr(r) => {
                let (reg, hi) = if vop3 { (r, hi_sel) } else { (r & 127, r & 128 != 0) };
                let v = self.v(reg as usize);
                let sh = if hi { 16 } else { 0 };
                for l in 0..self.lanes {
                    out[l] = (v[l] >> sh) as u16;
                }
            }
            Operand::Const { .. } if hi_sel => {
                return Err(unsupported(format!(
                    "{} with op_sel selecting the high half of a constant is not supported",
                    inst.op.name()
                )))
            }
            ref o => out[..self.lanes].fill((self.s32(o) >> if hi_sel { 16 } else { 0 }) as u16),
        }
        Ok(out)
    }

    /// Source `k` as f16 bits with the VOP3 abs/neg modifiers and input denormal flushing.
    fn fsrc16(&self, inst: &Inst, k: usize, m: FloatMode) -> Result<[u16; 64], FaultKind> {
        let mut v = self.src16(inst, k)?;
        let abs = if inst.abs >> k & 1 != 0 { 0x7fff } else { 0xffff };
        let neg = if inst.neg >> k & 1 != 0 { SIGN } else { 0 };
        for l in 0..self.lanes {
            let mut x = (v[l] & abs) ^ neg;
            if !m.keep_in && is_denorm(x) {
                x &= SIGN;
            }
            v[l] = x;
        }
        Ok(v)
    }

    /// Source `k` as f32 bits with the VOP3 abs/neg modifiers (32-bit operands).
    fn fsrc32(&self, inst: &Inst, k: usize) -> [u32; 64] {
        let mut v = self.vsrc(&inst.src[k]);
        let abs = if inst.abs >> k & 1 != 0 { 0x7fff_ffff } else { u32::MAX };
        let neg = if inst.neg >> k & 1 != 0 { 0x8000_0000 } else { 0 };
        for x in v[..self.lanes].iter_mut() {
            *x = (*x & abs) ^ neg;
        }
        v
    }

    /// The register and half a 16-bit destination names.
    fn dst16(inst: &Inst) -> Option<(usize, bool)> {
        let Operand::Vgpr(r) = inst.dst else { return None };
        Some(if Self::vop3_16(inst) { (r as usize, inst.opsel & 8 != 0) } else { ((r & 127) as usize, r & 128 != 0) })
    }

    /// The current 16-bit contents of the destination half (v_fmac_f16's accumulator).
    fn old_dst16(&self, inst: &Inst) -> [u16; 64] {
        let mut out = [0u16; 64];
        if let Some((reg, hi)) = Self::dst16(inst) {
            let v = self.v(reg);
            for l in 0..self.lanes {
                out[l] = (v[l] >> if hi { 16 } else { 0 }) as u16;
            }
        }
        out
    }

    /// Writes a 16-bit result to the destination half of the active lanes, keeping the
    /// other half.
    fn write16(&mut self, inst: &Inst, vals: &[u16; 64]) {
        let Some((reg, hi)) = Self::dst16(inst) else { return };
        let exec = self.exec();
        let n = self.lanes;
        let (sh, keep) = if hi { (16, 0x0000_ffff) } else { (0, 0xffff_0000) };
        let d = self.v_mut(reg);
        for l in 0..n {
            if exec >> l & 1 != 0 {
                d[l] = (d[l] & keep) | (vals[l] as u32) << sh;
            }
        }
    }

    /// The output stage of an f16 result: omod (exact scaling before the one rounding),
    /// rounding, then clamp to [0, 1] (NaN → 0 under DX10_CLAMP).
    fn finish16(inst: &Inst, r: R16, m: FloatMode) -> u16 {
        let scale = match inst.omod {
            1 => 1,
            2 => 2,
            3 => -1,
            _ => 0,
        };
        let r = match r {
            R16::Exact { neg, mag, exp } => R16::Exact { neg, mag, exp: exp + scale },
            R16::Bits(b) if scale != 0 && !is_nan(b) && !is_inf(b) && b & 0x7fff != 0 => {
                let k = k24(b);
                R16::Exact { neg: k < 0, mag: k.unsigned_abs() as u128, exp: -24 + scale }
            }
            r => r,
        };
        let bits = match r {
            R16::Bits(b) => b,
            R16::Exact { neg, mag, exp } => round_f16(neg, mag, exp, m),
        };
        if !inst.clamp {
            return bits;
        }
        if is_nan(bits) {
            if m.dx10 {
                0
            } else {
                bits
            }
        } else if neg_of(bits) {
            0
        } else if to_f64(bits) > 1.0 {
            0x3c00
        } else {
            bits
        }
    }

    /// Integer 16-bit ops take no float modifiers; clamp only where `clamp_ok`.
    fn int16_mods(inst: &Inst, clamp_ok: bool) -> Result<(), FaultKind> {
        if inst.omod != 0 || inst.neg != 0 || inst.abs != 0 || (inst.clamp && !clamp_ok) {
            return Err(unsupported(format!("{} with these VOP3 modifiers is not supported", inst.op.name())));
        }
        Ok(())
    }

    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn valu16(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        let op = inst.op;
        let m = FloatMode::f64_f16(self.mode);
        let n = self.lanes;
        match op {
            // ---------------- f16 arithmetic, two sources ----------------
            V_ADD_F16 | V_SUB_F16 | V_SUBREV_F16 | V_MUL_F16 => {
                let f: fn(u16, u16, FloatMode) -> R16 = match op {
                    V_ADD_F16 => add16,
                    V_SUB_F16 => sub16,
                    V_SUBREV_F16 => subrev16,
                    _ => mul16,
                };
                let (a, b) = (self.fsrc16(inst, 0, m)?, self.fsrc16(inst, 1, m)?);
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = Self::finish16(inst, f(a[l], b[l], m), m);
                }
                self.write16(inst, &d);
            }
            V_MIN_F16 | V_MAX_F16 => {
                let (a, b) = (self.fsrc16(inst, 0, m)?, self.fsrc16(inst, 1, m)?);
                let max = op == V_MAX_F16;
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = Self::finish16(inst, R16::Bits(minmax16(a[l], b[l], max, m.ieee)), m);
                }
                self.write16(inst, &d);
            }
            V_LDEXP_F16 => {
                // src1 is a signed 16-bit exponent: no float modifiers.
                if (inst.neg | inst.abs) & 2 != 0 {
                    return Err(illegal("v_ldexp_f16 with a float modifier on its integer source"));
                }
                let (a, e) = (self.fsrc16(inst, 0, m)?, self.src16(inst, 1)?);
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = Self::finish16(inst, ldexp16(a[l], e[l] as i16, m), m);
                }
                self.write16(inst, &d);
            }

            // ---------------- f16, three sources ----------------
            V_FMA_F16 | V_FMAC_F16 | V_FMAMK_F16 | V_FMAAK_F16 => {
                let a = self.fsrc16(inst, 0, m)?;
                let b = self.fsrc16(inst, 1, m)?;
                let c = match op {
                    V_FMAC_F16 => {
                        // The accumulator is the destination (op_sel[3] half in VOP3);
                        // it takes src2's modifiers in VOP3.
                        let mut acc = self.old_dst16(inst);
                        let neg = if inst.neg & 4 != 0 { SIGN } else { 0 };
                        let abs = if inst.abs & 4 != 0 { 0x7fff } else { 0xffff };
                        for x in acc[..n].iter_mut() {
                            *x = (*x & abs) ^ neg;
                            if !m.keep_in && is_denorm(*x) {
                                *x &= SIGN;
                            }
                        }
                        acc
                    }
                    _ => self.fsrc16(inst, 2, m)?,
                };
                let mut d = [0u16; 64];
                for l in 0..n {
                    let r = match op {
                        // fmamk: s0 * K + s1 (K is src[2]).
                        V_FMAMK_F16 => fma16(a[l], c[l], b[l], m),
                        _ => fma16(a[l], b[l], c[l], m),
                    };
                    d[l] = Self::finish16(inst, r, m);
                }
                self.write16(inst, &d);
            }
            V_MIN3_F16 | V_MAX3_F16 | V_MED3_F16 | V_MAXMIN_F16 | V_MINMAX_F16 => {
                let (a, b, c) = (self.fsrc16(inst, 0, m)?, self.fsrc16(inst, 1, m)?, self.fsrc16(inst, 2, m)?);
                let ieee = m.ieee;
                let f: fn(u16, u16, u16, bool) -> u16 = match op {
                    V_MIN3_F16 => |a, b, c, i| min16(min16(a, b, i), c, i),
                    V_MAX3_F16 => |a, b, c, i| max16(max16(a, b, i), c, i),
                    V_MED3_F16 => med3_16,
                    V_MAXMIN_F16 => |a, b, c, i| min16(max16(a, b, i), c, i),
                    _ => |a, b, c, i| max16(min16(a, b, i), c, i),
                };
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = Self::finish16(inst, R16::Bits(f(a[l], b[l], c[l], ieee)), m);
                }
                self.write16(inst, &d);
            }
            V_DIV_FIXUP_F16 => {
                let (a, b, c) = (self.fsrc16(inst, 0, m)?, self.fsrc16(inst, 1, m)?, self.fsrc16(inst, 2, m)?);
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = Self::finish16(inst, R16::Bits(div_fixup16(a[l], b[l], c[l])), m);
                }
                self.write16(inst, &d);
            }

            // ---------------- f16, one source ----------------
            V_RCP_F16 | V_SQRT_F16 | V_RSQ_F16 | V_LOG_F16 | V_EXP_F16 | V_FREXP_MANT_F16 | V_FLOOR_F16
            | V_CEIL_F16 | V_TRUNC_F16 | V_RNDNE_F16 | V_FRACT_F16 | V_SIN_F16 | V_COS_F16 => {
                let a = self.fsrc16(inst, 0, m)?;
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = Self::finish16(inst, unary16(op, a[l], m), m);
                }
                self.write16(inst, &d);
            }
            V_CVT_U16_F16 | V_CVT_I16_F16 | V_CVT_NORM_I16_F16 | V_CVT_NORM_U16_F16 | V_FREXP_EXP_I16_F16 => {
                if inst.omod != 0 || inst.clamp {
                    return Err(unsupported(format!("{} with clamp or omod is not supported", op.name())));
                }
                let a = self.fsrc16(inst, 0, m)?;
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = to_int16(op, a[l]);
                }
                self.write16(inst, &d);
            }
            V_CVT_F16_U16 | V_CVT_F16_I16 => {
                if inst.neg != 0 || inst.abs != 0 {
                    return Err(unsupported(format!("{} with input modifiers is not supported", op.name())));
                }
                let a = self.src16(inst, 0)?;
                let mut d = [0u16; 64];
                for l in 0..n {
                    let v = if op == V_CVT_F16_I16 { a[l] as i16 as i128 } else { a[l] as i128 };
                    d[l] = Self::finish16(inst, exact(v, 0, false), m);
                }
                self.write16(inst, &d);
            }
            V_CVT_F16_F32 => {
                let a = self.fsrc32(inst, 0);
                let keep32 = self.mode >> mode::FP_DENORM & 1 != 0;
                let mut d = [0u16; 64];
                for l in 0..n {
                    let mut x = a[l];
                    if !keep32 && x & 0x7f80_0000 == 0 {
                        x &= 0x8000_0000;
                    }
                    d[l] = Self::finish16(inst, from_f32(x), m);
                }
                self.write16(inst, &d);
            }
            V_CVT_F32_F16 => {
                let a = self.fsrc16(inst, 0, m)?;
                let exec = self.exec();
                let scale = match inst.omod {
                    1 => 2.0,
                    2 => 4.0,
                    3 => 0.5,
                    _ => 1.0,
                };
                let mut d = [0u32; 64];
                for l in 0..n {
                    let h = a[l];
                    d[l] = if is_nan(h) {
                        // Quieted, sign and payload kept.
                        (h as u32 & SIGN as u32) << 16 | 0x7fc0_0000 | ((h & 0x1ff) as u32) << 13
                    } else {
                        let mut v = (to_f64(h) * scale) as f32;
                        if inst.clamp {
                            v = if v <= 0.0 { 0.0 } else { v.min(1.0) };
                        }
                        v.to_bits()
                    };
                    if inst.clamp && is_nan(h) && m.dx10 {
                        d[l] = 0;
                    }
                }
                self.vdst(&inst.dst, &d, exec);
            }
            V_CVT_PK_RTZ_F16_F32 => {
                if inst.omod != 0 || inst.clamp {
                    return Err(unsupported("v_cvt_pk_rtz_f16_f32 with clamp or omod is not supported"));
                }
                let (a, b) = (self.fsrc32(inst, 0), self.fsrc32(inst, 1));
                let keep32 = self.mode >> mode::FP_DENORM & 1 != 0;
                let rtz = FloatMode { round: 3, ..m };
                let cvt = |x: u32| -> u16 {
                    let x = if !keep32 && x & 0x7f80_0000 == 0 { x & 0x8000_0000 } else { x };
                    match from_f32(x) {
                        R16::Bits(b) => b,
                        R16::Exact { neg, mag, exp } => round_f16(neg, mag, exp, rtz),
                    }
                };
                let mut d = [0u32; 64];
                for l in 0..n {
                    d[l] = cvt(a[l]) as u32 | (cvt(b[l]) as u32) << 16;
                }
                self.vdst(&inst.dst, &d, self.exec());
            }

            // ---------------- 32-bit results from 16-bit sources ----------------
            V_PACK_B32_F16 | V_CVT_PK_NORM_I16_F16 | V_CVT_PK_NORM_U16_F16 => {
                if inst.omod != 0 || inst.clamp {
                    return Err(unsupported(format!("{} with clamp or omod is not supported", op.name())));
                }
                let (a, b) = (self.fsrc16(inst, 0, m)?, self.fsrc16(inst, 1, m)?);
                let f: fn(u16) -> u16 = match op {
                    V_PACK_B32_F16 => |h| h,
                    V_CVT_PK_NORM_I16_F16 => |h| snorm(to_f64(h)),
                    _ => |h| unorm(to_f64(h)),
                };
                let mut d = [0u32; 64];
                for l in 0..n {
                    d[l] = f(a[l]) as u32 | (f(b[l]) as u32) << 16;
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_CVT_I32_I16 | V_CVT_U32_U16 => {
                Self::int16_mods(inst, false)?;
                let a = self.src16(inst, 0)?;
                let mut d = [0u32; 64];
                for l in 0..n {
                    d[l] = if op == V_CVT_I32_I16 { a[l] as i16 as i32 as u32 } else { a[l] as u32 };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_MAD_U32_U16 | V_MAD_I32_I16 => {
                Self::int16_mods(inst, false)?;
                let (a, b, c) = (self.src16(inst, 0)?, self.src16(inst, 1)?, self.vsrc(&inst.src[2]));
                let mut d = [0u32; 64];
                for l in 0..n {
                    d[l] = if op == V_MAD_U32_U16 {
                        (a[l] as u32 * b[l] as u32).wrapping_add(c[l])
                    } else {
                        (a[l] as i16 as i32 * b[l] as i16 as i32).wrapping_add(c[l] as i32) as u32
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }

            // ---------------- from 32-bit sources ----------------
            V_CVT_PK_NORM_I16_F32 | V_CVT_PK_NORM_U16_F32 | V_CVT_PK_I16_F32 | V_CVT_PK_U16_F32 => {
                if inst.omod != 0 || inst.clamp {
                    return Err(unsupported(format!("{} with clamp or omod is not supported", op.name())));
                }
                let (a, b) = (self.fsrc32(inst, 0), self.fsrc32(inst, 1));
                let md = self.mode;
                let f: fn(f64) -> u16 = match op {
                    V_CVT_PK_NORM_I16_F32 => snorm,
                    V_CVT_PK_NORM_U16_F32 => unorm,
                    // f32 → 16-bit integer: truncate, saturate, NaN → 0.
                    V_CVT_PK_I16_F32 => {
                        |x| if x.is_nan() { 0 } else { x.trunc().clamp(-32768.0, 32767.0) as i16 as u16 }
                    }
                    _ => |x| if x.is_nan() { 0 } else { x.trunc().clamp(0.0, 65535.0) as u16 },
                };
                let mut d = [0u32; 64];
                for l in 0..n {
                    d[l] = f(f32_in(a[l], md)) as u32 | (f(f32_in(b[l], md)) as u32) << 16;
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_CVT_PK_U16_U32 | V_CVT_PK_I16_I32 => {
                Self::int16_mods(inst, false)?;
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]));
                let mut d = [0u32; 64];
                for l in 0..n {
                    // Saturating conversions (u32_to_u16 / i32_to_i16).
                    d[l] = if op == V_CVT_PK_U16_U32 {
                        a[l].min(0xffff) | b[l].min(0xffff) << 16
                    } else {
                        sat_i16(a[l] as i32 as i64) as u32 | (sat_i16(b[l] as i32 as i64) as u32) << 16
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_SAT_PK_U8_I16 => {
                Self::int16_mods(inst, false)?;
                let a = self.vsrc(&inst.src[0]);
                let sat8 = |v: u32| (v as u16 as i16).clamp(0, 255) as u16;
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = sat8(a[l]) | sat8(a[l] >> 16) << 8;
                }
                self.write16(inst, &d);
            }

            // ---------------- 16-bit integer ----------------
            V_MOV_B16 | V_NOT_B16 => {
                Self::int16_mods(inst, false)?;
                let a = self.src16(inst, 0)?;
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = if op == V_NOT_B16 { !a[l] } else { a[l] };
                }
                self.write16(inst, &d);
            }
            V_ADD_NC_U16 | V_SUB_NC_U16 | V_MUL_LO_U16 | V_ADD_NC_I16 | V_SUB_NC_I16 | V_MAX_U16 | V_MAX_I16
            | V_MIN_U16 | V_MIN_I16 | V_LSHLREV_B16 | V_LSHRREV_B16 | V_ASHRREV_I16 | V_AND_B16 | V_OR_B16
            | V_XOR_B16 => {
                let sat_ok = matches!(op, V_ADD_NC_U16 | V_SUB_NC_U16 | V_MUL_LO_U16 | V_ADD_NC_I16 | V_SUB_NC_I16);
                Self::int16_mods(inst, sat_ok)?;
                let (a, b) = (self.src16(inst, 0)?, self.src16(inst, 1)?);
                let sat = inst.clamp;
                let f: fn(u16, u16, bool) -> u16 = match op {
                    V_ADD_NC_U16 => |x, y, s| if s { sat_u16(x as i64 + y as i64) } else { x.wrapping_add(y) },
                    V_SUB_NC_U16 => |x, y, s| if s { sat_u16(x as i64 - y as i64) } else { x.wrapping_sub(y) },
                    V_MUL_LO_U16 => |x, y, s| if s { sat_u16(x as i64 * y as i64) } else { x.wrapping_mul(y) },
                    V_ADD_NC_I16 => |x, y, s| {
                        let v = x as i16 as i64 + y as i16 as i64;
                        if s {
                            sat_i16(v)
                        } else {
                            v as u16
                        }
                    },
                    V_SUB_NC_I16 => |x, y, s| {
                        let v = x as i16 as i64 - y as i16 as i64;
                        if s {
                            sat_i16(v)
                        } else {
                            v as u16
                        }
                    },
                    V_MAX_U16 => |x, y, _| x.max(y),
                    V_MAX_I16 => |x, y, _| (x as i16).max(y as i16) as u16,
                    V_MIN_U16 => |x, y, _| x.min(y),
                    V_MIN_I16 => |x, y, _| (x as i16).min(y as i16) as u16,
                    // Shift count in src0, low 4 bits.
                    V_LSHLREV_B16 => |x, y, _| y << (x & 15),
                    V_LSHRREV_B16 => |x, y, _| y >> (x & 15),
                    V_ASHRREV_I16 => |x, y, _| ((y as i16) >> (x & 15)) as u16,
                    V_AND_B16 => |x, y, _| x & y,
                    V_OR_B16 => |x, y, _| x | y,
                    _ => |x, y, _| x ^ y, // V_XOR_B16
                };
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = f(a[l], b[l], sat);
                }
                self.write16(inst, &d);
            }
            V_MAD_U16 | V_MAD_I16 | V_MIN3_I16 | V_MIN3_U16 | V_MAX3_I16 | V_MAX3_U16 | V_MED3_I16 | V_MED3_U16 => {
                Self::int16_mods(inst, matches!(op, V_MAD_U16 | V_MAD_I16))?;
                let (a, b, c) = (self.src16(inst, 0)?, self.src16(inst, 1)?, self.src16(inst, 2)?);
                let sat = inst.clamp;
                let f: fn(u16, u16, u16, bool) -> u16 = match op {
                    V_MAD_U16 => |x, y, z, s| {
                        let v = x as i64 * y as i64 + z as i64;
                        if s {
                            sat_u16(v)
                        } else {
                            v as u16
                        }
                    },
                    V_MAD_I16 => |x, y, z, s| {
                        let v = x as i16 as i64 * y as i16 as i64 + z as i16 as i64;
                        if s {
                            sat_i16(v)
                        } else {
                            v as u16
                        }
                    },
                    V_MIN3_I16 => |x, y, z, _| (x as i16).min(y as i16).min(z as i16) as u16,
                    V_MIN3_U16 => |x, y, z, _| x.min(y).min(z),
                    V_MAX3_I16 => |x, y, z, _| (x as i16).max(y as i16).max(z as i16) as u16,
                    V_MAX3_U16 => |x, y, z, _| x.max(y).max(z),
                    V_MED3_I16 => |x, y, z, _| {
                        let (x, y, z) = (x as i16, y as i16, z as i16);
                        x.max(y).min(x.min(y).max(z)) as u16
                    },
                    _ => |x, y, z, _| x.max(y).min(x.min(y).max(z)), // V_MED3_U16
                };
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = f(a[l], b[l], c[l], sat);
                }
                self.write16(inst, &d);
            }
            V_CNDMASK_B16 => {
                if inst.omod != 0 || inst.clamp {
                    return Err(unsupported("v_cndmask_b16 with clamp or omod is not supported"));
                }
                // Float modifiers are bitwise (abs clears, neg flips the sign bit); no flushing.
                let keep = FloatMode { keep_in: true, ..m };
                let (a, b) = (self.fsrc16(inst, 0, keep)?, self.fsrc16(inst, 1, keep)?);
                let mask = self.mask_src(&inst.src[2]);
                let mut d = [0u16; 64];
                for l in 0..n {
                    d[l] = if mask >> l & 1 != 0 { b[l] } else { a[l] };
                }
                self.write16(inst, &d);
            }
            V_DOT2ACC_F32_F16 => {
                // The ISA pseudocode accumulates in f32, one rounding per step:
                // tmp = D; tmp += a.lo * b.lo; tmp += a.hi * b.hi (f16 products are exact in
                // f32). Host f32 arithmetic is that only under round-to-nearest-even with
                // f32 denormals kept, LLVM's default.
                let f32_mode = self.mode >> mode::FP_ROUND & 3 | (self.mode >> mode::FP_DENORM & 3) << 2;
                if f32_mode != 0b1100 {
                    return Err(unsupported("v_dot2acc_f32_f16 under a MODE other than round-to-nearest-even with f32 denormals is not supported"));
                }
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]));
                let acc = self.vsrc(&inst.dst);
                let h = |x: u32| -> f32 {
                    let x = x as u16;
                    let x = if !m.keep_in && is_denorm(x) { x & SIGN } else { x };
                    to_f64(x) as f32
                };
                let mut d = [0u32; 64];
                for l in 0..n {
                    let mut t = f32::from_bits(acc[l]);
                    t += h(a[l]) * h(b[l]);
                    t += h(a[l] >> 16) * h(b[l] >> 16);
                    d[l] = t.to_bits();
                }
                self.vdst(&inst.dst, &d, self.exec());
            }

            // ---------------- VOPC ----------------
            V_CMP_F_F16 | V_CMP_LT_F16 | V_CMP_EQ_F16 | V_CMP_LE_F16 | V_CMP_GT_F16 | V_CMP_LG_F16 | V_CMP_GE_F16
            | V_CMP_O_F16 | V_CMP_U_F16 | V_CMP_NGE_F16 | V_CMP_NLG_F16 | V_CMP_NGT_F16 | V_CMP_NLE_F16
            | V_CMP_NEQ_F16 | V_CMP_NLT_F16 | V_CMP_T_F16 | V_CMPX_F_F16 | V_CMPX_LT_F16 | V_CMPX_EQ_F16
            | V_CMPX_LE_F16 | V_CMPX_GT_F16 | V_CMPX_LG_F16 | V_CMPX_GE_F16 | V_CMPX_O_F16 | V_CMPX_U_F16
            | V_CMPX_NGE_F16 | V_CMPX_NLG_F16 | V_CMPX_NGT_F16 | V_CMPX_NLE_F16 | V_CMPX_NEQ_F16 | V_CMPX_NLT_F16
            | V_CMPX_T_F16 => {
                let (a, b) = (self.fsrc16(inst, 0, m)?, self.fsrc16(inst, 1, m)?);
                let mut r = 0u64;
                for l in 0..n {
                    r |= (cmp_f16(op, to_f64(a[l]), to_f64(b[l])) as u64) << l;
                }
                self.mask_dst(&inst.sdst, r & self.exec());
            }
            V_CMP_LT_I16 | V_CMP_EQ_I16 | V_CMP_LE_I16 | V_CMP_GT_I16 | V_CMP_NE_I16 | V_CMP_GE_I16 | V_CMP_LT_U16
            | V_CMP_EQ_U16 | V_CMP_LE_U16 | V_CMP_GT_U16 | V_CMP_NE_U16 | V_CMP_GE_U16 | V_CMPX_LT_I16
            | V_CMPX_EQ_I16 | V_CMPX_LE_I16 | V_CMPX_GT_I16 | V_CMPX_NE_I16 | V_CMPX_GE_I16 | V_CMPX_LT_U16
            | V_CMPX_EQ_U16 | V_CMPX_LE_U16 | V_CMPX_GT_U16 | V_CMPX_NE_U16 | V_CMPX_GE_U16 => {
                Self::int16_mods(inst, true)?;
                let (a, b) = (self.src16(inst, 0)?, self.src16(inst, 1)?);
                let mut r = 0u64;
                for l in 0..n {
                    r |= (cmp_i16(op, a[l], b[l]) as u64) << l;
                }
                self.mask_dst(&inst.sdst, r & self.exec());
            }
            V_CMP_CLASS_F16 | V_CMPX_CLASS_F16 => {
                // The class of the raw value (after abs/neg), without denormal flushing;
                // the class mask is a 32-bit operand.
                let keep = FloatMode { keep_in: true, ..m };
                let a = self.fsrc16(inst, 0, keep)?;
                let mask = self.vsrc(&inst.src[1]);
                let mut r = 0u64;
                for l in 0..n {
                    r |= ((class16(a[l]) & mask[l] != 0) as u64) << l;
                }
                self.mask_dst(&inst.sdst, r & self.exec());
            }
            _ => return self.valu64(inst),
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    fn md(round: u32, keep_in: bool, keep_out: bool, ovfl: bool) -> FloatMode {
        FloatMode { round, keep_in, keep_out, fp16_ovfl: ovfl, ieee: true, dx10: true }
    }

    fn r(x: R16, m: FloatMode) -> u16 {
        match x {
            R16::Bits(b) => b,
            R16::Exact { neg, mag, exp } => round_f16(neg, mag, exp, m),
        }
    }

    /// The one rounding agrees with the `half` crate's (round-to-nearest-even) conversion
    /// of f64 values across the f16 range, denormals and overflow included.
    #[test]
    fn nearest_even_matches_half() {
        let m = md(0, true, true, false);
        let mut x = 1.0e-9f64;
        while x < 1.0e6 {
            for v in [x, -x, x * 1.000_244_140_625, x * (1.0 + 1.0 / 2048.0)] {
                assert_eq!(r(from_f64(v), m), f16::from_f64(v).to_bits(), "{v:e}");
            }
            x *= 1.0371;
        }
        // Ties: 1 + 2^-11 rounds to 1 (even), 1 + 3 * 2^-11 to 1 + 2^-9.
        assert_eq!(r(from_f64(1.0 + 1.0 / 2048.0), m), 0x3c00);
        assert_eq!(r(from_f64(1.0 + 3.0 / 2048.0), m), 0x3c02);
        assert_eq!(r(from_f64(65520.0), m), INF);
        assert_eq!(r(from_f64(65519.0), m), MAX_FINITE);
    }

    /// Directed rounding and FP16_OVFL, from the definitions (RDNA3 ISA, MODE.FP_ROUND and
    /// FP16_OVFL).
    #[test]
    fn directed_rounding_and_overflow() {
        let v = 1.0 + 1.0 / 4096.0; // between 1 and 1 + 2^-10
        assert_eq!(r(from_f64(v), md(1, true, true, false)), 0x3c01);
        assert_eq!(r(from_f64(v), md(2, true, true, false)), 0x3c00);
        assert_eq!(r(from_f64(-v), md(2, true, true, false)), 0xbc01);
        assert_eq!(r(from_f64(-v), md(3, true, true, false)), 0xbc00);
        assert_eq!(r(from_f64(1.0e6), md(3, true, true, false)), MAX_FINITE);
        assert_eq!(r(from_f64(-1.0e6), md(1, true, true, false)), SIGN | MAX_FINITE);
        assert_eq!(r(from_f64(-1.0e6), md(2, true, true, false)), SIGN | INF);
        assert_eq!(r(from_f64(1.0e6), md(0, true, true, true)), MAX_FINITE);
        // A tiny positive value rounds up to the smallest denormal toward +inf.
        assert_eq!(r(from_f64(1.0e-30), md(1, true, true, false)), 1);
        // Output denormals flushed to a signed zero.
        assert_eq!(r(from_f64(-3.0e-6), md(0, true, false, false)), SIGN);
        // x - x is -0 toward -inf.
        assert_eq!(r(add16(0x3c00, 0xbc00, md(2, true, true, false)), md(2, true, true, false)), SIGN);
        assert_eq!(r(add16(0x3c00, 0xbc00, md(0, true, true, false)), md(0, true, true, false)), 0);
    }

    #[test]
    fn fma_is_fused() {
        // (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20: lost if the product were rounded first.
        let m = md(0, true, true, false);
        let a = 0x3c01;
        assert_eq!(r(fma16(a, a, 0xbc02, m), m), f16::from_f64(2f64.powi(-20)).to_bits());
    }
}
