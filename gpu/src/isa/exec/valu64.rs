//! f64 and 64-bit integer vector ALU, the 64-bit and class compares, the division
//! sequence (div_scale / div_fmas / div_fixup), and the remaining 32-bit VALU operations
//! (conversions, sin/cos, frexp, cube, sad family, min/max combinations).
//!
//! Semantics follow the pseudocode of AMD's ISA references (RDNA3, and the CDNA texts
//! where the RDNA3 one is the same operation). MODE (RDNA3-NOTES, "MODE register"):
//! FP_ROUND[1:0] and FP_DENORM[1:0] govern f32, FP_ROUND[3:2] and FP_DENORM[3:2] f64; per
//! denormal field bit 0 keeps input denormals, bit 1 output denormals. The default (round
//! to nearest even, denormals kept) runs on host IEEE arithmetic directly; the directed
//! round modes are derived exactly from error terms (TwoSum, the product residual, an exact
//! expansion for fma), never by re-rounding a rounded result.

use super::alu::pow2;
use super::fp::{self, two_sum, FloatMode, RDN, RNE, RTZ, RUP};
use super::{unsupported, FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::Op::{self, *};
use crate::spi::mode;

const SIGN32: u32 = 0x8000_0000;
const SIGN64: u64 = 1 << 63;
const QNAN32: u32 = 0x0040_0000;
const QNAN64: u64 = 1 << 51;

// ---------------------------------------------------------------- float helpers

fn flush64(x: f64) -> f64 {
    if x.is_subnormal() {
        f64::from_bits(x.to_bits() & SIGN64)
    } else {
        x
    }
}

fn next_up64(x: f64) -> f64 {
    if x.is_nan() || x == f64::INFINITY {
        return x;
    }
    let b = x.to_bits();
    f64::from_bits(match b {
        0 | SIGN64 => 1,
        _ if b & SIGN64 == 0 => b + 1,
        _ => b - 1,
    })
}

fn next_down64(x: f64) -> f64 {
    -next_up64(-x)
}

/// Moves `r`, the round-to-nearest-even result of an operation, to the result of round
/// mode `rm`, given the sign `dir` of (exact result − r).
fn directed64(r: f64, dir: i32, rm: u32) -> f64 {
    if dir == 0 || rm == RNE || r.is_nan() {
        return r;
    }
    let exact_positive = if r == 0.0 { dir > 0 } else { r > 0.0 };
    match (rm, dir > 0) {
        (RUP, true) => next_up64(r),
        (RDN, false) => next_down64(r),
        (RTZ, true) if !exact_positive => next_up64(r),
        (RTZ, false) if exact_positive => next_down64(r),
        _ => r,
    }
}

fn directed32(r: f32, dir: i32, rm: u32) -> f32 {
    if dir == 0 || rm == RNE || r.is_nan() {
        return r;
    }
    let exact_positive = if r == 0.0 { dir > 0 } else { r > 0.0 };
    match (rm, dir > 0) {
        (RUP, true) => fp::next_up(r),
        (RDN, false) => fp::next_down(r),
        (RTZ, true) if !exact_positive => fp::next_up(r),
        (RTZ, false) if exact_positive => fp::next_down(r),
        _ => r,
    }
}

fn sign_of(x: f64) -> i32 {
    if x > 0.0 {
        1
    } else if x < 0.0 {
        -1
    } else {
        0
    }
}

/// The sign of `a*b + c - r` for finite values, from an exact expansion (Shewchuk's
/// grow-expansion over TwoSum terms). Inputs are pre-scaled so that the product's error
/// term does not underflow.
fn fma_residual_sign(a: f64, b: f64, c: f64, r: f64) -> i32 {
    let (mut a, mut c, mut r) = (a, c, r);
    let (ea, eb) = (exp_of(a), exp_of(b));
    if a == 0.0 || b == 0.0 {
        let (s, e) = two_sum(c, -r);
        return if s != 0.0 { sign_of(s) } else { sign_of(e) };
    }
    // Scale the whole equation by 2^k when the product is tiny: exact while c and r
    // stay finite, which holds because they are small whenever scaling is needed.
    if ea + eb < -900 {
        let k = (-900 - (ea + eb)).min(1900);
        if c.abs() < 2f64.powi(-200) && r.abs() < 2f64.powi(-200) {
            a = scale2(a, k);
            c = scale2(c, k);
            r = scale2(r, k);
        } else {
            // The addend dominates: a*b is far below half an ulp of c and r.
            let (s, e) = two_sum(c, -r);
            let d = if s != 0.0 { sign_of(s) } else { sign_of(e) };
            return if d != 0 { d } else { sign_of(a) * sign_of(b) };
        }
    }
    let p = a * b;
    if !p.is_finite() {
        // The product overflows only when r overflowed too (handled by the caller).
        return 0;
    }
    let pe = a.mul_add(b, -p);
    let mut h = [0f64; 4];
    for (n, x) in [p, pe, c, -r].into_iter().enumerate() {
        let mut q = x;
        for hi in h.iter_mut().take(n) {
            let (s, e) = two_sum(q, *hi);
            *hi = e;
            q = s;
        }
        h[n] = q;
    }
    h.iter().rev().map(|&x| sign_of(x)).find(|&s| s != 0).unwrap_or(0)
}

/// The unbiased exponent of a finite nonzero value (normalised for denormals).
fn exp_of(x: f64) -> i32 {
    if x == 0.0 || !x.is_finite() {
        return 0;
    }
    let e = (x.to_bits() >> 52 & 0x7ff) as i32;
    if e == 0 {
        -1023 - (x.to_bits() << 12).leading_zeros() as i32
    } else {
        e - 1023
    }
}

/// `x * 2^k`, exact whenever the result is normal or zero is not reached.
fn scale2(x: f64, k: i32) -> f64 {
    let mut v = x;
    let mut k = k;
    while k > 1000 {
        v *= pow2(1000);
        k -= 1000;
    }
    while k < -1000 {
        v *= pow2(-1000);
        k += 1000;
    }
    // |k| <= 1000: a normal power of two, built from its bits (v_frexp_* come here; powi
    // was a __powidf2 call per lane).
    v * pow2(k)
}

/// `a*b + c` rounded once in mode `rm`.
fn fma64(a: f64, b: f64, c: f64, rm: u32) -> f64 {
    let r = a.mul_add(b, c);
    if rm == RNE || !a.is_finite() || !b.is_finite() || !c.is_finite() {
        return r;
    }
    if r.is_infinite() {
        return directed64(r, -sign_of(r), rm);
    }
    let d = fma_residual_sign(a, b, c, r);
    if r == 0.0 && d == 0 && rm == RDN && (a * b != 0.0 || (a * b).is_sign_positive() != c.is_sign_positive()) {
        return -0.0;
    }
    directed64(r, d, rm)
}

fn add64(a: f64, b: f64, rm: u32) -> f64 {
    let r = a + b;
    if rm == RNE || !a.is_finite() || !b.is_finite() {
        return r;
    }
    if r.is_infinite() {
        return directed64(r, -sign_of(r), rm);
    }
    let (_, e) = two_sum(a, b);
    if r == 0.0 && e == 0.0 && rm == RDN && !(a.to_bits() == 0 && b.to_bits() == 0) {
        return -0.0;
    }
    directed64(r, sign_of(e), rm)
}

fn mul64(a: f64, b: f64, rm: u32) -> f64 {
    let r = a * b;
    if rm == RNE || !a.is_finite() || !b.is_finite() {
        return r;
    }
    if r.is_infinite() {
        return directed64(r, -sign_of(r), rm);
    }
    directed64(r, fma_residual_sign(a, b, 0.0, r), rm)
}

/// `x * 2^n` with one rounding in mode `rm`.
fn ldexp64(x: f64, n: i32, rm: u32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let e = exp_of(x);
    let n = n.clamp(-2200, 2200);
    let t = e + n;
    if t > 1023 {
        return directed64(f64::INFINITY.copysign(x), -sign_of(x), rm);
    }
    if t >= -1022 {
        return scale2(x, n); // exact: the result is normal
    }
    // Bring x to exponent -1000 exactly, then one rounding multiplication.
    let y = scale2(x, -1000 - e);
    let k = (t + 1000).max(-200);
    let r = y * 2f64.powi(k);
    if rm == RNE {
        return r;
    }
    // Scaling r back up is exact; compare with y to find the rounding direction.
    let back = r * 2f64.powi(-k);
    directed64(r, sign_of(y - back), rm)
}

/// Rounds an f64 that is exact or rounded to odd (with at least two bits more than f32)
/// to f32 in mode `rm`.
fn to_f32(x: f64, rm: u32) -> f32 {
    let r = x as f32;
    if rm == RNE || x.is_nan() {
        return r;
    }
    if r.is_infinite() && x.is_finite() {
        return directed32(r, -(sign_of(x)), rm);
    }
    let d = sign_of(x - r as f64);
    directed32(r, d, rm)
}

/// Rounds `s + e` (an exact unevaluated sum, |e| at most half an ulp of s) to odd: the
/// result keeps the information a later rounding to fewer bits needs.
fn round_odd(s: f64, e: f64) -> f64 {
    if e == 0.0 || !s.is_finite() || s.to_bits() & 1 == 1 {
        return s;
    }
    if e > 0.0 {
        next_up64(s)
    } else {
        next_down64(s)
    }
}

/// f32 `a*b + c` scaled by 2^k, rounded once in mode `rm` (the product and the scaling
/// are exact in f64; the sum is carried exactly by TwoSum and rounded to odd).
fn fma32_scaled(a: f32, b: f32, c: f32, k: i32, rm: u32) -> f32 {
    let p = a as f64 * b as f64;
    let (s, e) = two_sum(p, c as f64);
    if !s.is_finite() || !e.is_finite() {
        return (a.mul_add(b, c) as f64 * 2f64.powi(k)) as f32;
    }
    let scale = 2f64.powi(k);
    let v = round_odd(s * scale, e * scale);
    let r = to_f32(v, rm);
    if r == 0.0 && s == 0.0 && e == 0.0 {
        // Exact zero: its sign follows IEEE (−0 only from −0 + −0, or in round-down).
        let both_neg = p.is_sign_negative() && c.is_sign_negative();
        return if both_neg || (rm == RDN && !(p.to_bits() == 0 && c.to_bits() == 0)) { -0.0 } else { 0.0 };
    }
    r
}

fn is_snan32(x: f32) -> bool {
    x.is_nan() && x.to_bits() & QNAN32 == 0
}

fn is_snan64(x: f64) -> bool {
    x.is_nan() && x.to_bits() & QNAN64 == 0
}

/// v_min/v_max: with MODE.IEEE a signalling NaN input gives a quiet NaN and a quiet NaN
/// loses to a number; without it any NaN loses. -0 < +0.
fn minmax32(a: f32, b: f32, min: bool, ieee: bool) -> f32 {
    if ieee && is_snan32(a) {
        return f32::from_bits(a.to_bits() | QNAN32);
    }
    if ieee && is_snan32(b) {
        return f32::from_bits(b.to_bits() | QNAN32);
    }
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (_, true) => a,
        _ if a == b && min => f32::from_bits(a.to_bits() | b.to_bits()),
        _ if a == b => f32::from_bits(a.to_bits() & b.to_bits()),
        _ if (a < b) == min => a,
        _ => b,
    }
}

fn minmax64(a: f64, b: f64, min: bool, ieee: bool) -> f64 {
    if ieee && is_snan64(a) {
        return f64::from_bits(a.to_bits() | QNAN64);
    }
    if ieee && is_snan64(b) {
        return f64::from_bits(b.to_bits() | QNAN64);
    }
    match (a.is_nan(), b.is_nan()) {
        (true, _) => b,
        (_, true) => a,
        _ if a == b && min => f64::from_bits(a.to_bits() | b.to_bits()),
        _ if a == b => f64::from_bits(a.to_bits() & b.to_bits()),
        _ if (a < b) == min => a,
        _ => b,
    }
}

/// The class bit of v_cmp_class: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0,
/// 6 +0, 7 +denormal, 8 +normal, 9 +inf.
fn class64(x: f64) -> u32 {
    let neg = x.is_sign_negative();
    let bit = if x.is_nan() {
        if is_snan64(x) {
            0
        } else {
            1
        }
    } else if x.is_infinite() {
        if neg {
            2
        } else {
            9
        }
    } else if x == 0.0 {
        if neg {
            5
        } else {
            6
        }
    } else if x.is_subnormal() {
        if neg {
            4
        } else {
            7
        }
    } else if neg {
        3
    } else {
        8
    };
    1 << bit
}

fn class32(x: f32) -> u32 {
    // Widening keeps every class except sNaN-ness (quieted by the conversion) and denormals.
    if x.is_nan() {
        return if is_snan32(x) { 1 } else { 2 };
    }
    if x.is_subnormal() {
        return if x < 0.0 { 1 << 4 } else { 1 << 7 };
    }
    class64(x as f64)
}

/// The biased exponent field.
fn expf32(x: f32) -> i32 {
    (x.to_bits() >> 23 & 0xff) as i32
}

fn expf64(x: f64) -> i32 {
    (x.to_bits() >> 52 & 0x7ff) as i32
}

/// frexp: mantissa in [0.5, 1) with the sign of x, and the exponent; inf/NaN give
/// (x, 0).
fn frexp64(x: f64) -> (f64, i32) {
    if !x.is_finite() || x == 0.0 {
        return (x, 0);
    }
    let e = exp_of(x) + 1;
    (scale2(x, -e), e)
}

fn frexp32(x: f32) -> (f32, i32) {
    let (m, e) = frexp64(x as f64);
    (if x.is_nan() { x } else { m as f32 }, e)
}

fn fract64(x: f64) -> f64 {
    if x.is_nan() {
        return f64::from_bits(x.to_bits() | QNAN64);
    }
    if x.is_infinite() {
        return f64::NAN;
    }
    (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff))
}

/// sin/cos of 2π·x (x in revolutions): the argument is reduced exactly to a quadrant and
/// an eighth of a turn, then evaluated in f64.
fn sincos_rev(x: f32, cos: bool) -> f32 {
    if !x.is_finite() {
        return f32::NAN;
    }
    if x == 0.0 && !cos {
        return x;
    }
    let x = x as f64;
    let r = x - x.floor(); // [0, 1), exact
    let q = (r * 4.0).round(); // 0..=4
    let t = (r - q * 0.25) * std::f64::consts::TAU; // |t| <= π/4
    let (s, c) = (t.sin(), t.cos());
    let v = match (q as i32 + cos as i32) & 3 {
        0 => s,
        1 => c,
        2 => -s,
        _ => -c,
    };
    let v = v as f32;
    // Exact zeros of the function (multiples of a half turn) come out as +0.
    if v == 0.0 {
        0.0
    } else {
        v
    }
}

/// 2/π after the binary point, most significant bits first, in 37 dwords (the table LLVM
/// 19 folds v_trig_preop with, AMDGPUInstCombineIntrinsic.cpp; checked against mpmath).
const TWO_OVER_PI: [u32; 37] = [
    0xa2f9836e, 0x4e441529, 0xfc2757d1, 0xf534ddc0, 0xdb629599, 0x3c439041, 0xfe5163ab, 0xdebbc561, 0xb7246e3a,
    0x424dd2e0, 0x06492eea, 0x09d1921c, 0xfe1deb1c, 0xb129a73e, 0xe88235f5, 0x2ebb4484, 0xe99c7026, 0xb45f7e41,
    0x3991d639, 0x835339f4, 0x9c845f8b, 0xbdf9283b, 0x1ff897ff, 0xde05980f, 0xef2f118b, 0x5a0a6d1f, 0x6d367ecf,
    0x27cb09b7, 0x4f463f66, 0x9e5fea2d, 0x7527bac7, 0xebe5f17b, 0x3d0739f7, 0x8a5292ea, 0x6bfb5fb1, 0x1f8d5d08,
    0x56033046,
];

/// v_trig_preop_f64 (RDNA3 ISA pseudocode, as LLVM folds it): the 53 bits of 2/π that
/// start `S1[4:0]·53` bits after the point (plus exponent(S0) − 1077 for large S0),
/// scaled by 2^(−53−shift) (2^128 more when exponent(S0) ≥ 1968). A segment past the
/// table gives 0; a NaN input gives it quieted.
fn trig_preop(x: f64, seg: u32) -> f64 {
    if x.is_nan() {
        return f64::from_bits(x.to_bits() | QNAN64);
    }
    let e = expf64(x);
    let mut shift = (seg & 31) * 53;
    if e > 1077 {
        shift += (e - 1077) as u32;
    }
    let idx = (shift >> 5) as usize;
    if idx + 2 >= TWO_OVER_PI.len() {
        return 0.0;
    }
    let w = |i: usize| TWO_OVER_PI[i] as u64;
    let b = shift & 31;
    let hi = w(idx) << 32 | w(idx + 1);
    let lo = w(idx + 2) << 32;
    let bits = if b == 0 { hi } else { hi << b | lo >> (64 - b) } >> 11;
    let mut scale = -53 - shift as i32;
    if e >= 1968 {
        scale += 128;
    }
    ldexp64(bits as f64, scale, RNE)
}

fn absdiff(a: u32, b: u32) -> u32 {
    a.abs_diff(b)
}

fn sad_u8(a: u32, b: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |t, i| t.wrapping_add(absdiff(a >> (8 * i) & 0xff, b >> (8 * i) & 0xff)))
}

fn msad_u8(a: u32, b: u32, acc: u32) -> u32 {
    (0..4).fold(acc, |t, i| {
        let (x, y) = (a >> (8 * i) & 0xff, b >> (8 * i) & 0xff);
        if y == 0 {
            t
        } else {
            t.wrapping_add(absdiff(x, y))
        }
    })
}

/// Float-to-integer with rounding mode `rm`, saturating to [lo, hi], NaN → 0.
fn f32_to_int(x: f32, rm: u32, lo: f64, hi: f64) -> i64 {
    if x.is_nan() {
        return 0;
    }
    let v = x as f64;
    let r = match rm {
        RNE => v.round_ties_even(),
        RUP => v.ceil(),
        RDN => v.floor(),
        _ => v.trunc(),
    };
    r.clamp(lo, hi) as i64
}

/// VOPC comparison kind (the low bits of the opcode): bit 0 less, bit 1 equal, bit 2
/// greater, bit 3 unordered — F is 0, T all four.
fn cmp_mask(op: Op) -> u32 {
    op.info().code as u32 & 0xf
}

fn fcmp_hit(kind: u32, o: Option<std::cmp::Ordering>) -> bool {
    use std::cmp::Ordering::*;
    let bit = match o {
        Some(Less) => 1,
        Some(Equal) => 2,
        Some(Greater) => 4,
        None => 8,
    };
    kind & bit != 0
}

impl Wave {
    fn fp32(&self) -> FloatMode {
        FloatMode::f32(self.mode)
    }

    fn fp64(&self) -> FloatMode {
        FloatMode::f64_f16(self.mode)
    }

    fn ieee(&self) -> bool {
        self.mode >> mode::IEEE & 1 != 0
    }

    /// f32 source `k` with VOP3 abs/neg and input denormal flushing.
    fn src_f32(&self, inst: &Inst, k: usize, fp: FloatMode) -> [f32; 64] {
        let raw = self.vsrc(&inst.src[k]);
        let (abs, neg) = (inst.abs >> k & 1 != 0, inst.neg >> k & 1 != 0);
        let mut out = [0f32; 64];
        for l in 0..self.lanes {
            let mut b = raw[l];
            if abs {
                b &= !SIGN32;
            }
            if neg {
                b ^= SIGN32;
            }
            let x = f32::from_bits(b);
            out[l] = if fp.flush_in() { fp::flush(x) } else { x };
        }
        out
    }

    /// f64 source `k` (VGPR pair, SGPR pair or 64-bit constant) with abs/neg and input
    /// denormal flushing.
    fn src_f64(&self, inst: &Inst, k: usize, fp: FloatMode) -> [f64; 64] {
        let raw = self.vsrc64(&inst.src[k]);
        let (abs, neg) = (inst.abs >> k & 1 != 0, inst.neg >> k & 1 != 0);
        let mut out = [0f64; 64];
        for l in 0..self.lanes {
            let mut b = raw[l];
            if abs {
                b &= !SIGN64;
            }
            if neg {
                b ^= SIGN64;
            }
            let x = f64::from_bits(b);
            out[l] = if fp.flush_in() { flush64(x) } else { x };
        }
        out
    }

    fn omod(inst: &Inst) -> f64 {
        match inst.omod {
            1 => 2.0,
            2 => 4.0,
            3 => 0.5,
            _ => 1.0,
        }
    }

    /// Writes f32 results: output modifier, output denormal flushing, clamp to [0, 1]
    /// (NaN → 0 under MODE.DX10_CLAMP).
    fn dst_f32(&mut self, inst: &Inst, vals: &[f32; 64], fp: FloatMode) {
        let exec = self.exec();
        let scale = Self::omod(inst) as f32;
        let dx10 = self.mode >> mode::DX10_CLAMP & 1 != 0;
        let mut out = [0u32; 64];
        for l in 0..self.lanes {
            let mut v = vals[l];
            if scale != 1.0 {
                v *= scale;
            }
            if fp.flush_out() {
                v = fp::flush(v);
            }
            if inst.clamp {
                v = if v.is_nan() {
                    if dx10 {
                        0.0
                    } else {
                        v
                    }
                } else {
                    v.clamp(0.0, 1.0)
                };
            }
            out[l] = v.to_bits();
        }
        self.vdst(&inst.dst, &out, exec);
    }

    fn dst_f64(&mut self, inst: &Inst, vals: &[f64; 64], fp: FloatMode) {
        let exec = self.exec();
        let scale = Self::omod(inst);
        let dx10 = self.mode >> mode::DX10_CLAMP & 1 != 0;
        let mut out = [0u64; 64];
        for l in 0..self.lanes {
            let mut v = vals[l];
            if scale != 1.0 {
                v *= scale;
            }
            if fp.flush_out() {
                v = flush64(v);
            }
            if inst.clamp {
                v = if v.is_nan() {
                    if dx10 {
                        0.0
                    } else {
                        v
                    }
                } else {
                    v.clamp(0.0, 1.0)
                };
            }
            out[l] = v.to_bits();
        }
        self.vdst64(&inst.dst, &out, exec);
    }

    /// A VOPC result: inactive lanes read 0; v_cmpx's destination is EXEC.
    fn cmp_dst(&mut self, inst: &Inst, m: u64) {
        let exec = self.exec();
        self.mask_dst(&inst.sdst, m & exec);
    }

    fn int_mods_ok(&self, inst: &Inst, clamp_ok: bool) -> Result<(), FaultKind> {
        if inst.omod != 0 || inst.neg != 0 || inst.abs != 0 || (inst.clamp && !clamp_ok) {
            return Err(unsupported(format!("{} with VOP3 modifiers is not supported", inst.op.name())));
        }
        Ok(())
    }

    /// A 128-bit vector source (four consecutive VGPRs).
    fn vsrc128(&self, op: &Operand) -> Option<[[u32; 64]; 4]> {
        let Operand::Vgpr(r) = *op else { return None };
        Some(std::array::from_fn(|k| self.vsrc(&Operand::Vgpr(r.wrapping_add(k as u16)))))
    }

    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn valu64(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        let op = inst.op;
        match op {
            // ---------------- VOPC: f64 ----------------
            V_CMP_F_F64 | V_CMP_LT_F64 | V_CMP_EQ_F64 | V_CMP_LE_F64 | V_CMP_GT_F64 | V_CMP_LG_F64 | V_CMP_GE_F64
            | V_CMP_O_F64 | V_CMP_U_F64 | V_CMP_NGE_F64 | V_CMP_NLG_F64 | V_CMP_NGT_F64 | V_CMP_NLE_F64
            | V_CMP_NEQ_F64 | V_CMP_NLT_F64 | V_CMP_T_F64 | V_CMPX_F_F64 | V_CMPX_LT_F64 | V_CMPX_EQ_F64
            | V_CMPX_LE_F64 | V_CMPX_GT_F64 | V_CMPX_LG_F64 | V_CMPX_GE_F64 | V_CMPX_O_F64 | V_CMPX_U_F64
            | V_CMPX_NGE_F64 | V_CMPX_NLG_F64 | V_CMPX_NGT_F64 | V_CMPX_NLE_F64 | V_CMPX_NEQ_F64 | V_CMPX_NLT_F64
            | V_CMPX_T_F64 => {
                let fp = self.fp64();
                let (a, b) = (self.src_f64(inst, 0, fp), self.src_f64(inst, 1, fp));
                let kind = cmp_mask(op);
                let mut m = 0u64;
                for l in 0..self.lanes {
                    if fcmp_hit(kind, a[l].partial_cmp(&b[l])) {
                        m |= 1 << l;
                    }
                }
                self.cmp_dst(inst, m);
            }
            // ---------------- VOPC: f32 false / true ----------------
            V_CMP_F_F32 | V_CMP_T_F32 | V_CMPX_F_F32 | V_CMPX_T_F32 | V_CMP_F_I32 | V_CMP_T_I32 | V_CMP_F_U32
            | V_CMP_T_U32 | V_CMPX_F_I32 | V_CMPX_T_I32 | V_CMPX_F_U32 | V_CMPX_T_U32 => {
                let t =
                    matches!(op, V_CMP_T_F32 | V_CMPX_T_F32 | V_CMP_T_I32 | V_CMP_T_U32 | V_CMPX_T_I32 | V_CMPX_T_U32);
                self.cmp_dst(inst, if t { u64::MAX } else { 0 });
            }
            // ---------------- VOPC: 64-bit integer ----------------
            V_CMP_F_I64 | V_CMP_LT_I64 | V_CMP_EQ_I64 | V_CMP_LE_I64 | V_CMP_GT_I64 | V_CMP_NE_I64 | V_CMP_GE_I64
            | V_CMP_T_I64 | V_CMP_F_U64 | V_CMP_LT_U64 | V_CMP_EQ_U64 | V_CMP_LE_U64 | V_CMP_GT_U64 | V_CMP_NE_U64
            | V_CMP_GE_U64 | V_CMP_T_U64 | V_CMPX_F_I64 | V_CMPX_LT_I64 | V_CMPX_EQ_I64 | V_CMPX_LE_I64
            | V_CMPX_GT_I64 | V_CMPX_NE_I64 | V_CMPX_GE_I64 | V_CMPX_T_I64 | V_CMPX_F_U64 | V_CMPX_LT_U64
            | V_CMPX_EQ_U64 | V_CMPX_LE_U64 | V_CMPX_GT_U64 | V_CMPX_NE_U64 | V_CMPX_GE_U64 | V_CMPX_T_U64 => {
                let (a, b) = (self.vsrc64(&inst.src[0]), self.vsrc64(&inst.src[1]));
                let code = op.info().code as u32;
                let (kind, signed) = (code & 7, code & 8 == 0);
                let mut m = 0u64;
                for l in 0..self.lanes {
                    let o = if signed { (a[l] as i64).cmp(&(b[l] as i64)) } else { a[l].cmp(&b[l]) };
                    if fcmp_hit(kind, Some(o)) {
                        m |= 1 << l;
                    }
                }
                self.cmp_dst(inst, m);
            }
            // ---------------- VOPC: class ----------------
            V_CMP_CLASS_F32 | V_CMPX_CLASS_F32 | V_CMP_CLASS_F64 | V_CMPX_CLASS_F64 => {
                // The class test reads the value's bits: no denormal flushing.
                let keep = FloatMode { round: RNE, keep_in: true, keep_out: true, ..FloatMode::f32(0) };
                let mask = self.vsrc(&inst.src[1]);
                let mut m = 0u64;
                if matches!(op, V_CMP_CLASS_F64 | V_CMPX_CLASS_F64) {
                    let a = self.src_f64(inst, 0, keep);
                    for l in 0..self.lanes {
                        if class64(a[l]) & mask[l] != 0 {
                            m |= 1 << l;
                        }
                    }
                } else {
                    let a = self.src_f32(inst, 0, keep);
                    for l in 0..self.lanes {
                        if class32(a[l]) & mask[l] != 0 {
                            m |= 1 << l;
                        }
                    }
                }
                self.cmp_dst(inst, m);
            }

            // ---------------- f64 → f64, one source ----------------
            V_TRUNC_F64 | V_CEIL_F64 | V_RNDNE_F64 | V_FLOOR_F64 | V_FRACT_F64 | V_RCP_F64 | V_RSQ_F64 | V_SQRT_F64
            | V_FREXP_MANT_F64 => {
                let fp = self.fp64();
                let a = self.src_f64(inst, 0, fp);
                let mut d = [0f64; 64];
                for l in 0..self.lanes {
                    let x = a[l];
                    d[l] = match op {
                        V_TRUNC_F64 => x.trunc(),
                        V_CEIL_F64 => x.ceil(),
                        V_RNDNE_F64 => x.round_ties_even(),
                        V_FLOOR_F64 => x.floor(),
                        V_FRACT_F64 => fract64(x),
                        // Hardware approximations (2^29 ulp per the ISA): computed here
                        // correctly rounded, which is within that bound.
                        V_RCP_F64 => 1.0 / x,
                        V_RSQ_F64 => 1.0 / x.sqrt(),
                        V_SQRT_F64 => x.sqrt(),
                        _ => frexp64(x).0,
                    };
                }
                self.dst_f64(inst, &d, fp);
            }
            V_FREXP_EXP_I32_F64 | V_CVT_I32_F64 | V_CVT_U32_F64 => {
                let fp = self.fp64();
                let a = self.src_f64(inst, 0, fp);
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let x = a[l];
                    d[l] = match op {
                        V_FREXP_EXP_I32_F64 => frexp64(x).1 as u32,
                        // Truncating, saturating, NaN → 0 (what `as` does).
                        V_CVT_I32_F64 => x as i32 as u32,
                        _ => x as u32,
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_CVT_F32_F64 => {
                let (fp, fp32) = (self.fp64(), self.fp32());
                let a = self.src_f64(inst, 0, fp);
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    d[l] = to_f32(a[l], fp32.round);
                }
                self.dst_f32(inst, &d, fp32);
            }
            V_CVT_F64_F32 | V_CVT_F64_I32 | V_CVT_F64_U32 => {
                let fp = self.fp64();
                let mut d = [0f64; 64];
                if op == V_CVT_F64_F32 {
                    let a = self.src_f32(inst, 0, self.fp32());
                    for l in 0..self.lanes {
                        d[l] = a[l] as f64;
                    }
                } else {
                    let a = self.vsrc(&inst.src[0]);
                    for l in 0..self.lanes {
                        d[l] = if op == V_CVT_F64_I32 { a[l] as i32 as f64 } else { a[l] as f64 };
                    }
                }
                self.dst_f64(inst, &d, fp);
            }

            // ---------------- f64 arithmetic ----------------
            V_ADD_F64 | V_MUL_F64 | V_MIN_F64 | V_MAX_F64 => {
                let fp = self.fp64();
                let (a, b) = (self.src_f64(inst, 0, fp), self.src_f64(inst, 1, fp));
                let (rm, ieee) = (fp.round, self.ieee());
                let mut d = [0f64; 64];
                match op {
                    V_ADD_F64 if rm == RNE => (0..self.lanes).for_each(|l| d[l] = a[l] + b[l]),
                    V_ADD_F64 => (0..self.lanes).for_each(|l| d[l] = add64(a[l], b[l], rm)),
                    V_MUL_F64 if rm == RNE => (0..self.lanes).for_each(|l| d[l] = a[l] * b[l]),
                    V_MUL_F64 => (0..self.lanes).for_each(|l| d[l] = mul64(a[l], b[l], rm)),
                    V_MIN_F64 => (0..self.lanes).for_each(|l| d[l] = minmax64(a[l], b[l], true, ieee)),
                    _ => (0..self.lanes).for_each(|l| d[l] = minmax64(a[l], b[l], false, ieee)),
                }
                self.dst_f64(inst, &d, fp);
            }
            V_FMA_F64 => {
                let fp = self.fp64();
                let (a, b, c) = (self.src_f64(inst, 0, fp), self.src_f64(inst, 1, fp), self.src_f64(inst, 2, fp));
                let mut d = [0f64; 64];
                for l in 0..self.lanes {
                    d[l] = fma64(a[l], b[l], c[l], fp.round);
                }
                self.dst_f64(inst, &d, fp);
            }
            V_LDEXP_F64 | V_TRIG_PREOP_F64 => {
                let fp = self.fp64();
                let (a, n) = (self.src_f64(inst, 0, fp), self.vsrc(&inst.src[1]));
                let mut d = [0f64; 64];
                for l in 0..self.lanes {
                    d[l] =
                        if op == V_LDEXP_F64 { ldexp64(a[l], n[l] as i32, fp.round) } else { trig_preop(a[l], n[l]) };
                }
                self.dst_f64(inst, &d, fp);
            }

            // ---------------- the division sequence ----------------
            V_DIV_SCALE_F64 => {
                let fp = self.fp64();
                let (s0, s1, s2) = (self.src_f64(inst, 0, fp), self.src_f64(inst, 1, fp), self.src_f64(inst, 2, fp));
                let exec = self.exec();
                let mut d = [0f64; 64];
                let mut vcc = 0u64;
                for l in 0..self.lanes {
                    let (r, v) = div_scale64(s0[l], s1[l], s2[l], fp.round);
                    d[l] = r;
                    vcc |= (v as u64) << l;
                }
                self.dst_f64(inst, &d, fp);
                self.mask_dst(&inst.sdst, vcc & exec);
            }
            V_DIV_SCALE_F32 => {
                let fp = self.fp32();
                let (s0, s1, s2) = (self.src_f32(inst, 0, fp), self.src_f32(inst, 1, fp), self.src_f32(inst, 2, fp));
                let exec = self.exec();
                let mut d = [0f32; 64];
                let mut vcc = 0u64;
                for l in 0..self.lanes {
                    let (r, v) = div_scale32(s0[l], s1[l], s2[l], fp.round);
                    d[l] = r;
                    vcc |= (v as u64) << l;
                }
                self.dst_f32(inst, &d, fp);
                self.mask_dst(&inst.sdst, vcc & exec);
            }
            V_DIV_FMAS_F64 => {
                // Input denormals are not flushed (ISA note); output flushing applies.
                let fp = self.fp64();
                let keep = FloatMode { keep_in: true, keep_out: true, ..fp };
                let (a, b, c) = (self.src_f64(inst, 0, keep), self.src_f64(inst, 1, keep), self.src_f64(inst, 2, keep));
                let vcc = self.vcc();
                let mut d = [0f64; 64];
                for l in 0..self.lanes {
                    d[l] = if vcc >> l & 1 != 0 {
                        let k = if expf64(c[l]) > 1023 { 128 } else { -128 };
                        fma64_scaled(a[l], b[l], c[l], k, fp.round)
                    } else {
                        fma64(a[l], b[l], c[l], fp.round)
                    };
                }
                self.dst_f64(inst, &d, fp);
            }
            V_DIV_FMAS_F32 => {
                let fp = self.fp32();
                let keep = FloatMode { keep_in: true, keep_out: true, ..fp };
                let (a, b, c) = (self.src_f32(inst, 0, keep), self.src_f32(inst, 1, keep), self.src_f32(inst, 2, keep));
                let vcc = self.vcc();
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    let k = match vcc >> l & 1 {
                        0 => 0,
                        _ if expf32(c[l]) > 127 => 64,
                        _ => -64,
                    };
                    d[l] = if k == 0 && fp.round == RNE {
                        a[l].mul_add(b[l], c[l])
                    } else {
                        fma32_scaled(a[l], b[l], c[l], k, fp.round)
                    };
                }
                self.dst_f32(inst, &d, fp);
            }
            V_DIV_FIXUP_F64 => {
                let fp = self.fp64();
                let (q, den, num) = (self.src_f64(inst, 0, fp), self.src_f64(inst, 1, fp), self.src_f64(inst, 2, fp));
                let mut d = [0f64; 64];
                for l in 0..self.lanes {
                    d[l] = div_fixup64(q[l], den[l], num[l]);
                }
                self.dst_f64(inst, &d, fp);
            }
            V_DIV_FIXUP_F32 => {
                let fp = self.fp32();
                let (q, den, num) = (self.src_f32(inst, 0, fp), self.src_f32(inst, 1, fp), self.src_f32(inst, 2, fp));
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    d[l] = div_fixup32(q[l], den[l], num[l]);
                }
                self.dst_f32(inst, &d, fp);
            }

            // ---------------- f32, one source ----------------
            V_FREXP_MANT_F32 | V_SIN_F32 | V_COS_F32 => {
                let fp = self.fp32();
                let a = self.src_f32(inst, 0, fp);
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    d[l] = match op {
                        V_FREXP_MANT_F32 => frexp32(a[l]).0,
                        V_SIN_F32 => sincos_rev(a[l], false),
                        _ => sincos_rev(a[l], true),
                    };
                }
                self.dst_f32(inst, &d, fp);
            }
            V_FREXP_EXP_I32_F32 | V_CVT_NEAREST_I32_F32 | V_CVT_FLOOR_I32_F32 => {
                let fp = self.fp32();
                let a = self.src_f32(inst, 0, fp);
                let (lo, hi) = (i32::MIN as f64, i32::MAX as f64);
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    d[l] = match op {
                        V_FREXP_EXP_I32_F32 => frexp32(a[l]).1 as u32,
                        // floor(S0 + 0.5) in f32 arithmetic, whatever the round mode.
                        V_CVT_NEAREST_I32_F32 => f32_to_int((a[l] + 0.5).floor(), RTZ, lo, hi) as u32,
                        _ => f32_to_int(a[l].floor(), RTZ, lo, hi) as u32,
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_CVT_OFF_F32_I4 | V_CVT_F32_UBYTE0 | V_CVT_F32_UBYTE1 | V_CVT_F32_UBYTE2 | V_CVT_F32_UBYTE3 => {
                let fp = self.fp32();
                let a = self.vsrc(&inst.src[0]);
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    d[l] = match op {
                        V_CVT_OFF_F32_I4 => ((a[l] << 28) as i32 >> 28) as f32 * 0.0625,
                        V_CVT_F32_UBYTE0 => (a[l] & 0xff) as f32,
                        V_CVT_F32_UBYTE1 => (a[l] >> 8 & 0xff) as f32,
                        V_CVT_F32_UBYTE2 => (a[l] >> 16 & 0xff) as f32,
                        _ => (a[l] >> 24) as f32,
                    };
                }
                self.dst_f32(inst, &d, fp);
            }

            // ---------------- f32, two and three sources ----------------
            V_FMA_DX9_ZERO_F32 | V_FMAC_DX9_ZERO_F32 | V_MULLIT_F32 => {
                let fp = self.fp32();
                let (a, b) = (self.src_f32(inst, 0, fp), self.src_f32(inst, 1, fp));
                let c = if op == V_FMAC_DX9_ZERO_F32 {
                    let mut acc = [0f32; 64];
                    let raw = self.vsrc(&inst.dst);
                    for l in 0..self.lanes {
                        let x = f32::from_bits(raw[l]);
                        acc[l] = if fp.flush_in() { fp::flush(x) } else { x };
                    }
                    acc
                } else {
                    self.src_f32(inst, 2, fp)
                };
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    let (x, y, z) = (a[l], b[l], c[l]);
                    d[l] = if op == V_MULLIT_F32 {
                        // Lighting multiply: −MAX_FLOAT unless S1 and S2 are usable; 0 · x = 0.
                        if y == -f32::MAX || y == f32::NEG_INFINITY || y.is_nan() || z <= 0.0 || z.is_nan() {
                            -f32::MAX
                        } else if x == 0.0 || y == 0.0 {
                            0.0
                        } else {
                            fma32_scaled(x, y, 0.0, 0, fp.round)
                        }
                    } else if x == 0.0 || y == 0.0 {
                        // DX9 rule: 0 · anything (inf and NaN included) is 0, so D = S2.
                        z
                    } else if fp.round == RNE {
                        x.mul_add(y, z)
                    } else {
                        fma32_scaled(x, y, z, 0, fp.round)
                    };
                }
                self.dst_f32(inst, &d, fp);
            }
            V_CUBEID_F32 | V_CUBESC_F32 | V_CUBETC_F32 | V_CUBEMA_F32 | V_MED3_F32 | V_MAXMIN_F32 | V_MINMAX_F32 => {
                let fp = self.fp32();
                let (a, b, c) = (self.src_f32(inst, 0, fp), self.src_f32(inst, 1, fp), self.src_f32(inst, 2, fp));
                let ieee = self.ieee();
                let mut d = [0f32; 64];
                for l in 0..self.lanes {
                    let (x, y, z) = (a[l], b[l], c[l]);
                    let zmajor = z.abs() >= x.abs() && z.abs() >= y.abs();
                    let ymajor = y.abs() >= x.abs();
                    let min = |p, q| minmax32(p, q, true, ieee);
                    let max = |p, q| minmax32(p, q, false, ieee);
                    d[l] = match op {
                        V_CUBEID_F32 if zmajor => {
                            if z < 0.0 {
                                5.0
                            } else {
                                4.0
                            }
                        }
                        V_CUBEID_F32 if ymajor => {
                            if y < 0.0 {
                                3.0
                            } else {
                                2.0
                            }
                        }
                        V_CUBEID_F32 => {
                            if x < 0.0 {
                                1.0
                            } else {
                                0.0
                            }
                        }
                        V_CUBESC_F32 if zmajor => {
                            if z < 0.0 {
                                -x
                            } else {
                                x
                            }
                        }
                        V_CUBESC_F32 if ymajor => x,
                        V_CUBESC_F32 => {
                            if x < 0.0 {
                                z
                            } else {
                                -z
                            }
                        }
                        V_CUBETC_F32 if zmajor => -y,
                        V_CUBETC_F32 if ymajor => {
                            if y < 0.0 {
                                -z
                            } else {
                                z
                            }
                        }
                        V_CUBETC_F32 => -y,
                        V_CUBEMA_F32 => to_f32(
                            2.0 * if zmajor {
                                z
                            } else if ymajor {
                                y
                            } else {
                                x
                            } as f64,
                            fp.round,
                        ),
                        V_MED3_F32 => {
                            let max3 = max(max(x, y), z);
                            if x.is_nan() || y.is_nan() || z.is_nan() {
                                min(min(x, y), z)
                            } else if max3 == x {
                                max(y, z)
                            } else if max3 == y {
                                max(x, z)
                            } else {
                                max(x, y)
                            }
                        }
                        V_MAXMIN_F32 => min(max(x, y), z),
                        _ => max(min(x, y), z), // V_MINMAX_F32
                    };
                }
                self.dst_f32(inst, &d, fp);
            }
            V_CVT_PK_U8_F32 => {
                self.int_mods_ok(&Inst { neg: 0, abs: inst.abs & !1, ..*inst }, false)?;
                let fp = self.fp32();
                let a = self.src_f32(inst, 0, fp);
                let (sel, acc) = (self.vsrc(&inst.src[1]), self.vsrc(&inst.src[2]));
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let shift = (sel[l] & 3) * 8;
                    let byte = f32_to_int(a[l], fp.round, 0.0, 255.0) as u32;
                    d[l] = acc[l] & !(0xff << shift) | byte << shift;
                }
                self.vdst(&inst.dst, &d, self.exec());
            }

            // ---------------- 32-bit integer ----------------
            V_CLS_I32 => {
                self.int_mods_ok(inst, false)?;
                let a = self.vsrc(&inst.src[0]);
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let x = a[l];
                    d[l] = match x {
                        0 | u32::MAX => u32::MAX,
                        _ if x as i32 >= 0 => x.leading_zeros(),
                        _ => x.leading_ones(),
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_ADD_NC_I32 | V_SUB_NC_I32 => {
                self.int_mods_ok(inst, true)?;
                let (a, b) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]));
                let sat = inst.clamp;
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let (x, y) = (a[l] as i32, b[l] as i32);
                    d[l] = match (op, sat) {
                        (V_ADD_NC_I32, true) => x.saturating_add(y),
                        (V_ADD_NC_I32, false) => x.wrapping_add(y),
                        (_, true) => x.saturating_sub(y),
                        _ => x.wrapping_sub(y),
                    } as u32;
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_LERP_U8 | V_SAD_U8 | V_SAD_HI_U8 | V_SAD_U16 | V_SAD_U32 | V_MSAD_U8 | V_MAXMIN_U32 | V_MINMAX_U32
            | V_MAXMIN_I32 | V_MINMAX_I32 => {
                self.int_mods_ok(inst, false)?;
                let (a, b, c) = (self.vsrc(&inst.src[0]), self.vsrc(&inst.src[1]), self.vsrc(&inst.src[2]));
                let mut d = [0u32; 64];
                for l in 0..self.lanes {
                    let (x, y, z) = (a[l], b[l], c[l]);
                    d[l] = match op {
                        V_LERP_U8 => (0..4).fold(0, |t, i| {
                            let s = 8 * i;
                            t | ((x >> s & 0xff) + (y >> s & 0xff) + (z >> s & 1)) >> 1 << s
                        }),
                        V_SAD_U8 => sad_u8(x, y, z),
                        V_SAD_HI_U8 => (sad_u8(x, y, 0) << 16).wrapping_add(z),
                        V_SAD_U16 => {
                            z.wrapping_add(absdiff(x & 0xffff, y & 0xffff)).wrapping_add(absdiff(x >> 16, y >> 16))
                        }
                        V_SAD_U32 => absdiff(x, y).wrapping_add(z),
                        V_MSAD_U8 => msad_u8(x, y, z),
                        V_MAXMIN_U32 => x.max(y).min(z),
                        V_MINMAX_U32 => x.min(y).max(z),
                        V_MAXMIN_I32 => (x as i32).max(y as i32).min(z as i32) as u32,
                        _ => (x as i32).min(y as i32).max(z as i32) as u32, // V_MINMAX_I32
                    };
                }
                self.vdst(&inst.dst, &d, self.exec());
            }
            V_QSAD_PK_U16_U8 | V_MQSAD_PK_U16_U8 => {
                self.int_mods_ok(inst, false)?;
                let (a, b, c) = (self.vsrc64(&inst.src[0]), self.vsrc(&inst.src[1]), self.vsrc64(&inst.src[2]));
                let mut d = [0u64; 64];
                for l in 0..self.lanes {
                    d[l] = (0..4).fold(0u64, |t, i| {
                        let window = (a[l] >> (8 * i)) as u32;
                        let acc = (c[l] >> (16 * i)) as u32 & 0xffff;
                        let s =
                            if op == V_QSAD_PK_U16_U8 { sad_u8(window, b[l], acc) } else { msad_u8(window, b[l], acc) };
                        t | ((s & 0xffff) as u64) << (16 * i)
                    });
                }
                self.vdst64(&inst.dst, &d, self.exec());
            }
            V_MQSAD_U32_U8 => {
                self.int_mods_ok(inst, false)?;
                let (Some(c), Operand::Vgpr(dr)) = (self.vsrc128(&inst.src[2]), inst.dst) else {
                    return Err(unsupported("v_mqsad_u32_u8 with a non-VGPR accumulator is not supported"));
                };
                let (a, b) = (self.vsrc64(&inst.src[0]), self.vsrc(&inst.src[1]));
                let exec = self.exec();
                let mut d = [[0u32; 64]; 4];
                for l in 0..self.lanes {
                    for (i, out) in d.iter_mut().enumerate() {
                        out[l] = msad_u8((a[l] >> (8 * i)) as u32, b[l], c[i][l]);
                    }
                }
                for (i, out) in d.iter().enumerate() {
                    self.vdst(&Operand::Vgpr(dr.wrapping_add(i as u16)), out, exec);
                }
            }

            _ => return self.packed(inst),
        }
        Ok(())
    }
}

/// f64 `a*b + c` scaled by 2^k with a single rounding (the product is rounded once in
/// mode `rm`, then the scaling is exact unless the result is denormal, where the residual
/// of the fma decides ties and the direction).
fn fma64_scaled(a: f64, b: f64, c: f64, k: i32, rm: u32) -> f64 {
    if k > 0 {
        // Scaling the inputs up is exact (when they stay finite): one rounding.
        let (sa, sc) = (scale2(a, k), scale2(c, k));
        if sa.is_finite() && sc.is_finite() {
            return fma64(sa, b, sc, rm);
        }
        return scale2(fma64(a, b, c, rm), k);
    }
    let r = a.mul_add(b, c);
    if !r.is_finite() || r == 0.0 {
        return scale2(r, k);
    }
    let y = ldexp64(r, k, RNE);
    let dir = fma_residual_sign(a, b, c, r);
    let back = scale2(y, -k);
    if back == r {
        // The scaled value was exact: only the fma's own rounding can matter.
        return directed64(y, dir, rm);
    }
    // Rounded on the denormal grid: y is correct unless r sat exactly half-way, where the
    // residual breaks the tie.
    let other = if back < r { next_up64(y) } else { next_down64(y) };
    let half = (scale2(other, -k) - back) / 2.0;
    let ties = r - back == half;
    let rne = if ties && dir != 0 {
        if (dir > 0) == (other > y) {
            other
        } else {
            y
        }
    } else {
        y
    };
    if rm == RNE {
        return rne;
    }
    // The exact value lies strictly between y and other; pick by mode.
    let (lo, hi) = if y < other { (y, other) } else { (other, y) };
    match rm {
        RUP => hi,
        RDN => lo,
        _ if r > 0.0 => lo,
        _ => hi,
    }
}

/// v_div_scale_f64 (ISA pseudocode). The branch for a denominator whose reciprocal is
/// denormal and a denormal quotient scales the denominator by 2^-128: the text's 2^+128
/// there would push the quotient further into the denormal range, which the macro's
/// v_div_fmas (scaling by 2^-128 for a small quotient) could not undo.
fn div_scale64(s0: f64, s1: f64, s2: f64, rm: u32) -> (f64, bool) {
    if s2 == 0.0 || s1 == 0.0 {
        return (f64::NAN, false);
    }
    let quotient_denorm = quotient_is_denormal(s2, s1, 1022);
    let rcp_denorm = s1.abs() > 2f64.powi(1022);
    if expf64(s2) - expf64(s1) >= 768 {
        (if s0 == s1 { ldexp64(s0, 128, rm) } else { s0 }, true)
    } else if s1.is_subnormal() {
        (ldexp64(s0, 128, rm), false)
    } else if rcp_denorm && quotient_denorm {
        (if s0 == s1 { ldexp64(s0, -128, rm) } else { s0 }, true)
    } else if rcp_denorm {
        (ldexp64(s0, -128, rm), false)
    } else if quotient_denorm {
        (if s0 == s2 { ldexp64(s0, 128, rm) } else { s0 }, true)
    } else if expf64(s2) <= 53 {
        (ldexp64(s0, 128, rm), false)
    } else {
        (s0, false)
    }
}

fn div_scale32(s0: f32, s1: f32, s2: f32, rm: u32) -> (f32, bool) {
    if s2 == 0.0 || s1 == 0.0 {
        return (f32::NAN, false);
    }
    let scale = |x: f32, k: i32| to_f32(x as f64 * 2f64.powi(k), rm);
    if expf32(s2) - expf32(s1) >= 96 {
        (if s0 == s1 { scale(s0, 64) } else { s0 }, true)
    } else if s1.is_subnormal() {
        (scale(s0, 64), false)
    } else if quotient_is_denormal(s2 as f64, s1 as f64, 126) {
        // (1.0 / S1 is never an f64 denormal for an f32 S1.)
        (if s0 == s2 { scale(s0, 64) } else { s0 }, true)
    } else if expf32(s2) <= 23 {
        (scale(s0, 64), false)
    } else {
        (s0, false)
    }
}

/// Whether the exact quotient n/d (finite, nonzero) lies below 2^-emin in magnitude.
fn quotient_is_denormal(n: f64, d: f64, emin: i32) -> bool {
    if !n.is_finite() || !d.is_finite() {
        return false;
    }
    let (mn, en) = frexp64(n.abs());
    let (md, ed) = frexp64(d.abs());
    let e = en - ed; // n/d = (mn/md) · 2^e, mn/md in (0.5, 2)
    e < -emin || (e == -emin && mn < md)
}

fn quiet64(x: f64) -> f64 {
    f64::from_bits(x.to_bits() | QNAN64)
}

/// v_div_fixup_f64 (ISA pseudocode): S0 quotient, S1 denominator, S2 numerator. The
/// text's OVERFLOW test reads "exponent(S1) == 2047", which the earlier NaN and infinity
/// cases make unreachable; it is applied to the quotient S0 here (an infinite or NaN
/// quotient of finite, nonzero operands is an overflow), which LLVM's expansion needs for
/// quotients past MAX.
fn div_fixup64(q: f64, d: f64, n: f64) -> f64 {
    let neg = d.is_sign_negative() != n.is_sign_negative();
    let sgn = |x: f64| if neg { -x } else { x };
    if n.is_nan() {
        quiet64(n)
    } else if d.is_nan() {
        quiet64(d)
    } else if (d == 0.0 && n == 0.0) || (d.is_infinite() && n.is_infinite()) {
        f64::from_bits(0xfff8_0000_0000_0000)
    } else if d == 0.0 || n.is_infinite() {
        sgn(f64::INFINITY)
    } else if d.is_infinite() || n == 0.0 || expf64(n) - expf64(d) < -1075 {
        // x/inf, 0/y, and quotients below half the smallest denormal (UNDERFLOW).
        sgn(0.0)
    } else if expf64(q) == 0x7ff {
        // OVERFLOW: a quotient that came out infinite or NaN (the scaled macro overflowed).
        sgn(f64::INFINITY)
    } else {
        sgn(q.abs())
    }
}

fn div_fixup32(q: f32, d: f32, n: f32) -> f32 {
    let neg = d.is_sign_negative() != n.is_sign_negative();
    let sgn = |x: f32| if neg { -x } else { x };
    if n.is_nan() {
        f32::from_bits(n.to_bits() | QNAN32)
    } else if d.is_nan() {
        f32::from_bits(d.to_bits() | QNAN32)
    } else if (d == 0.0 && n == 0.0) || (d.is_infinite() && n.is_infinite()) {
        f32::from_bits(0xffc0_0000)
    } else if d == 0.0 || n.is_infinite() {
        sgn(f32::INFINITY)
    } else if d.is_infinite() || n == 0.0 || expf32(n) - expf32(d) < -150 {
        sgn(0.0)
    } else if expf32(q) == 0xff {
        sgn(f32::INFINITY)
    } else {
        sgn(q.abs())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn directed_rounding_of_sums_and_products() {
        // 1 + 2^-60 is not representable: RU goes up one ulp, RD and RTZ stay.
        let t = 2f64.powi(-60);
        assert_eq!(add64(1.0, t, RUP), next_up64(1.0));
        assert_eq!(add64(1.0, t, RDN), 1.0);
        assert_eq!(add64(-1.0, -t, RTZ), -1.0);
        assert_eq!(add64(-1.0, -t, RDN), next_down64(-1.0));
        assert_eq!(add64(1.0, -1.0, RDN).to_bits(), (-0.0f64).to_bits());
        assert_eq!(add64(f64::MAX, f64::MAX, RTZ), f64::MAX);
        // (1 + 2^-52)^2 = 1 + 2^-51 + 2^-104.
        let a = next_up64(1.0);
        assert_eq!(mul64(a, a, RUP), next_up64(a * a));
        assert_eq!(mul64(a, a, RDN), a * a);
        // A product below the smallest denormal.
        let tiny = f64::from_bits(1);
        assert_eq!(mul64(tiny, 0.25, RUP), tiny);
        assert_eq!(mul64(tiny, 0.25, RNE), 0.0);
        assert_eq!(mul64(-tiny, 0.25, RDN), -tiny);
        assert_eq!(fma64(a, a, -1.0, RNE), a * a - 1.0 + 2f64.powi(-104));
        assert_eq!(fma64(1.0, 1.0, t, RUP), next_up64(1.0));
        assert_eq!(fma64(1.0, -1.0, 1.0, RDN).to_bits(), (-0.0f64).to_bits());
        assert_eq!(ldexp64(3.0, -1075, RNE), 2.0 * tiny); // 1.5 ulp: ties to even
        assert_eq!(ldexp64(3.0, -1076, RNE), tiny);
        assert_eq!(ldexp64(1.0, -1075, RNE), 0.0);
        assert_eq!(ldexp64(1.0, -1075, RUP), tiny);
        assert_eq!(ldexp64(-1.0, -1075, RDN), -tiny);
        assert_eq!(ldexp64(1.0, 1024, RTZ), f64::MAX);
        assert_eq!(to_f32(1.0 + 2f64.powi(-30), RUP), fp::next_up(1.0));
        assert_eq!(fma32_scaled(1.0, 1.0, 2f32.powi(-30), 0, RUP), fp::next_up(1.0));
        assert_eq!(fma32_scaled(1.0, 1.0, 2f32.powi(-30), 0, RNE), 1.0);
    }

    #[test]
    fn scaled_fma_rounds_once_on_the_denormal_grid() {
        // 1.5·2^-1074 ties to even (2·2^-1074) when exact, and goes down when the fma
        // residual is negative.
        let r = 1.5 * 2f64.powi(-1074 + 128);
        assert_eq!(fma64_scaled(r, 1.0, 0.0, -128, RNE), 2.0 * f64::from_bits(1));
        let below = fma64_scaled(1.5, 2f64.powi(-1074 + 128), -2f64.powi(-1010), -128, RNE);
        assert_eq!(below, f64::from_bits(1));
    }

    /// Runs one VALU instruction (machine words from llvm-mc-19) in a wave32 with `mode`.
    fn run_one(words: &[u32], mode: u32, regs: &[(usize, u32)]) -> Wave {
        let inst = crate::isa::decode::decode(words, false).expect("the test encoding decodes");
        let mut w = Wave::new(32);
        w.set_exec(u32::MAX as u64);
        w.mode = mode;
        for &(r, v) in regs {
            w.v_mut(r).fill(v);
        }
        w.valu64(&inst).expect("executes");
        w
    }

    /// RDNA3-NOTES, "MODE register" (S_GETREG/S_SETREG): FP_ROUND[3:2] and FP_DENORM[3:2]
    /// govern f64, FP_ROUND[1:0] and FP_DENORM[1:0] f32.
    #[test]
    fn mode_round_and_denormal_fields_apply() {
        // v_add_f64 v[4:5], v[0:1], v[2:3] with 1 + 2^-60.
        let add = [0xd727_0004, 0x0002_0500];
        let one = 1f64.to_bits();
        let t = 2f64.powi(-60).to_bits();
        let regs = [(0, one as u32), (1, (one >> 32) as u32), (2, t as u32), (3, (t >> 32) as u32)];
        let res = |w: &Wave| w.v(4)[0] as u64 | (w.v(5)[0] as u64) << 32;
        assert_eq!(res(&run_one(&add, 0xf0, &regs)), one);
        assert_eq!(res(&run_one(&add, 0xf0 | RUP << 2, &regs)), one + 1);
        // The f32 round field leaves f64 alone.
        assert_eq!(res(&run_one(&add, 0xf0 | RUP, &regs)), one);
        // f64 input denormals flushed: 2^-1074 + 0 = 0 (FP_DENORM[3:2] = 0b10 keeps outputs).
        let regs = [(0, 1), (1, 0), (2, 0), (3, 0)];
        assert_eq!(res(&run_one(&add, 0xf0, &regs)), 1);
        assert_eq!(res(&run_one(&add, 0xb0, &regs)), 0);
        // v_div_fmas_f32 v4, v0, v1, v2 with VCC clear is an fma: 1·1 + 2^-30 rounds up
        // only in round-up mode.
        let regs = [(0, 1f32.to_bits()), (1, 1f32.to_bits()), (2, 2f32.powi(-30).to_bits())];
        let fmas = [0xd637_0004, 0x040a_0300];
        assert_eq!(run_one(&fmas, 0xf0, &regs).v(4)[0], 1f32.to_bits());
        assert_eq!(run_one(&fmas, 0xf0 | RUP, &regs).v(4)[0], 1f32.to_bits() + 1);
        assert_eq!(run_one(&fmas, 0xf0 | RTZ, &regs).v(4)[0], 1f32.to_bits());
    }

    #[test]
    fn trig_preop_segments_are_two_over_pi() {
        let s0 = trig_preop(1.0, 0);
        let s1 = trig_preop(1.0, 1);
        assert_eq!(s0.to_bits(), 0x3fe4_5f30_6dc9_c882);
        assert!(s1 > 0.0 && s1 < 2f64.powi(-53));
        // The first segment is 2/π truncated; the correctly rounded value is above it.
        assert!(s0 <= std::f64::consts::FRAC_2_PI && std::f64::consts::FRAC_2_PI - s0 <= 2f64.powi(-53));
        assert_eq!(trig_preop(1.0, 22), 0.0);
        assert!(trig_preop(1.0, 20) > 0.0);
    }
}
