//! f32 arithmetic as the MODE register asks for it (RDNA3 ISA, "MODE": FP_ROUND[1:0] and
//! FP_DENORM[5:4] for f32), and the lane loops of the hot f32 operations.
//!
//! The host computes in round-to-nearest-even with denormals kept, which is what LLVM's
//! kernels run with (FLOAT_MODE 0xf0), so that path is host arithmetic. For the directed
//! rounding modes the exact result is known as an unevaluated sum `s + e` of two f64 (the
//! product of two f32 is exact in f64; TwoSum gives the exact error of an addition), and
//! the nearest-even f32 is moved one step in the asked direction when the exact value lies
//! on the other side of it.

use crate::spi::mode;

/// MODE bits that decide f32 arithmetic: the f32 round mode and denormal mode.
const F32_MODE_MASK: u32 = 0b11 << mode::FP_ROUND | 0b11 << mode::FP_DENORM;
/// Round to nearest even, input and output denormals kept.
const F32_MODE_DEFAULT: u32 = 0b11 << mode::FP_DENORM;

/// Round modes, as MODE.FP_ROUND encodes them (per field).
pub(super) const RNE: u32 = 0;
pub(super) const RUP: u32 = 1;
pub(super) const RDN: u32 = 2;
pub(super) const RTZ: u32 = 3;

/// The MODE fields that arithmetic of one float width reads, decoded once per instruction:
/// f32 has FP_ROUND[1:0] and FP_DENORM[1:0] (MODE[5:4]), f64 and f16 share the upper
/// halves (FP_ROUND[3:2], FP_DENORM[3:2]); FP16_OVFL, IEEE and DX10_CLAMP are common.
/// The one decoder of MODE for every VALU module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct FloatMode {
    /// [`RNE`], [`RUP`], [`RDN`] or [`RTZ`].
    pub round: u32,
    /// FP_DENORM bit 0: input denormals are kept (otherwise read as ±0).
    pub keep_in: bool,
    /// FP_DENORM bit 1: output denormals are kept (otherwise written as ±0).
    pub keep_out: bool,
    /// FP16_OVFL: an f16 result that overflows becomes ±65504, not ±inf (f16 only).
    pub fp16_ovfl: bool,
    pub ieee: bool,
    pub dx10: bool,
}

impl FloatMode {
    const fn decode(m: u32, shift: u32, fp16_ovfl: bool) -> FloatMode {
        FloatMode {
            round: m >> (mode::FP_ROUND + shift) & 3,
            keep_in: m >> (mode::FP_DENORM + shift) & 1 != 0,
            keep_out: m >> (mode::FP_DENORM + shift + 1) & 1 != 0,
            fp16_ovfl,
            ieee: m >> mode::IEEE & 1 != 0,
            dx10: m >> mode::DX10_CLAMP & 1 != 0,
        }
    }

    /// The f32 fields of MODE value `m`.
    pub const fn f32(m: u32) -> FloatMode {
        FloatMode::decode(m, 0, false)
    }

    /// The fields f64 and f16 share.
    pub const fn f64_f16(m: u32) -> FloatMode {
        FloatMode::decode(m, 2, m >> mode::FP16_OVFL & 1 != 0)
    }

    pub fn flush_in(self) -> bool {
        !self.keep_in
    }

    pub fn flush_out(self) -> bool {
        !self.keep_out
    }

    /// Rounding toward -inf (an exact zero sum of opposite signs is -0 then).
    pub fn down(self) -> bool {
        self.round == RDN
    }
}

/// How the host's float unit must be set for translated code to compute what MODE asks:
/// IEEE (denormals kept), or f32 denormals flushed on input and output (x86's DAZ, which
/// applies to f32 and f64 alike, and translated code's own flush of its f32 results).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum HostFloat {
    Ieee,
    Flush,
}

/// The [`HostFloat`] for MODE value `m` and a program using f16 and/or f64 (`wide`), or
/// `None` when the host cannot compute it: a directed rounding mode, denormals flushed
/// on one side only, f64 denormals handled unlike f32's (one MXCSR for both), f64
/// denormals flushed (translated code flushes only its f32 results), or f16 denormals
/// flushed (translated code computes f16 in f32, where they are normal).
pub(crate) fn host_float(m: u32, wide: crate::isa::program::WideFloats) -> Option<HostFloat> {
    let (narrow, w) = (FloatMode::f32(m), FloatMode::f64_f16(m));
    let plain = |f: FloatMode| f.round == RNE && f.keep_in == f.keep_out;
    if !plain(narrow) || (wide.f16 || wide.f64) && !plain(w) {
        return None;
    }
    if wide.f16 && !w.keep_in || wide.f64 && (w.keep_in != narrow.keep_in || !w.keep_in) {
        return None;
    }
    Some(if narrow.keep_in { HostFloat::Ieee } else { HostFloat::Flush })
}

/// Whether MODE leaves f32 arithmetic as the host does it.
#[inline(always)]
pub(super) fn f32_host_mode(mode_reg: u32) -> bool {
    mode_reg & F32_MODE_MASK == F32_MODE_DEFAULT
}

/// The NaN of an operation with NaN inputs: the first NaN operand in source order,
/// quieted, as the hardware propagates it (which NaN the host returns depends on the order
/// the compiler put the operands in). A NaN the operation makes itself (inf - inf) is the
/// default NaN 0xffc00000, the host's and RDNA3's alike.
#[inline(always)]
pub(crate) fn nan2(x: f32, y: f32, r: f32) -> f32 {
    nan3(x, y, y, r)
}

/// [`nan2`] for three operands. Selects rather than branches, so that a pass over lanes
/// vectorises.
#[inline(always)]
pub(crate) fn nan3(x: f32, y: f32, z: f32, r: f32) -> f32 {
    let first = if x.is_nan() {
        x
    } else if y.is_nan() {
        y
    } else if z.is_nan() {
        z
    } else {
        r
    };
    if r.is_nan() {
        quiet(first)
    } else {
        r
    }
}

#[inline(always)]
fn quiet(x: f32) -> f32 {
    f32::from_bits(x.to_bits() | 0x0040_0000)
}

/// f32 addition with the hardware's NaN propagation.
#[inline(always)]
pub(crate) fn add(x: f32, y: f32) -> f32 {
    nan2(x, y, x + y)
}

/// A denormal becomes zero of the same sign.
pub(super) fn flush(x: f32) -> f32 {
    if x.is_subnormal() {
        f32::from_bits(x.to_bits() & 0x8000_0000)
    } else {
        x
    }
}

/// `(s, e)` with `s = fl(a + b)` and `s + e = a + b` exactly (Knuth's TwoSum).
pub(super) fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    let e = (a - (s - bb)) + (b - bb);
    (s, e)
}

pub(super) fn next_up(x: f32) -> f32 {
    if x.is_nan() || x == f32::INFINITY {
        x
    } else if x == 0.0 {
        f32::from_bits(1)
    } else if x > 0.0 {
        f32::from_bits(x.to_bits() + 1)
    } else {
        f32::from_bits(x.to_bits() - 1)
    }
}

pub(super) fn next_down(x: f32) -> f32 {
    -next_up(-x)
}

/// Rounds the exact value `s + e` (|e| at most half an ulp of `s`) to f32.
fn round_f32(s: f64, e: f64, round: u32) -> f32 {
    let r = s as f32;
    if round == RNE || !s.is_finite() {
        // Ties of `s as f32` are ties of the exact value only when e == 0; when e != 0 the
        // f64 `s` already lies strictly on one side, so nearest-even is right either way.
        return r;
    }
    // The sign of (exact - r): s - r is exact (it is the part of s below f32 precision).
    let d = s - r as f64;
    let above = if d != 0.0 { d > 0.0 } else { e > 0.0 };
    let below = if d != 0.0 { d < 0.0 } else { e < 0.0 };
    let r = match round {
        RUP if above => next_up(r),
        RDN if below => next_down(r),
        RTZ if (above && r < 0.0) || (below && r > 0.0) => {
            if r > 0.0 {
                next_down(r)
            } else {
                next_up(r)
            }
        }
        _ => r,
    };
    // A result that rounded away from zero to zero keeps the sign of the exact value.
    if r == 0.0 && (s < 0.0 || (s == 0.0 && e < 0.0)) {
        -0.0
    } else {
        r
    }
}

/// f32 arithmetic under these fields (for `FloatMode::f32`).
impl FloatMode {
    fn input(&self, x: f32) -> f32 {
        if self.keep_in {
            x
        } else {
            flush(x)
        }
    }

    fn output(&self, x: f32) -> f32 {
        if self.keep_out {
            x
        } else {
            flush(x)
        }
    }

    /// Flushes output denormals when MODE asks for it.
    pub fn write(&self, x: f32) -> f32 {
        self.output(x)
    }

    pub fn add(&self, a: f32, b: f32) -> f32 {
        let (a, b) = (self.input(a), self.input(b));
        if self.round == RNE || !(a.is_finite() && b.is_finite()) {
            return self.output(add(a, b));
        }
        let (s, e) = two_sum(a as f64, b as f64);
        // An exact zero from operands of opposite signs is +0 in every mode but toward -inf.
        if s == 0.0 && e == 0.0 {
            return if self.round == RDN && a.is_sign_negative() != b.is_sign_negative() { -0.0 } else { a + b };
        }
        self.output(round_f32(s, e, self.round))
    }

    pub fn mul(&self, a: f32, b: f32) -> f32 {
        let (a, b) = (self.input(a), self.input(b));
        if self.round == RNE || !(a.is_finite() && b.is_finite()) {
            return self.output(nan2(a, b, a * b));
        }
        // 24 × 24 bits: exact in f64, including products of denormals.
        self.output(round_f32(a as f64 * b as f64, 0.0, self.round))
    }

    pub fn fma(&self, a: f32, b: f32, c: f32) -> f32 {
        let (a, b, c) = (self.input(a), self.input(b), self.input(c));
        if self.round == RNE || !(a.is_finite() && b.is_finite() && c.is_finite()) {
            return self.output(nan3(a, b, c, a.mul_add(b, c)));
        }
        let (s, e) = two_sum(a as f64 * b as f64, c as f64);
        if s == 0.0 && e == 0.0 {
            let opposite = (a.is_sign_negative() != b.is_sign_negative()) != c.is_sign_negative();
            return if self.round == RDN && opposite { -0.0 } else { a.mul_add(b, c) };
        }
        self.output(round_f32(s, e, self.round))
    }

    /// An integer converted to f32 (exact in f64).
    pub fn round_int(&self, v: f64) -> f32 {
        self.output(round_f32(v, 0.0, self.round))
    }
}

/// Lane values as floats (a bit cast; `array::map` copies through memory instead).
#[inline(always)]
pub(super) fn as_f32(x: [u32; 64]) -> [f32; 64] {
    // SAFETY: f32 and u32 have the same size and every bit pattern is valid in both.
    unsafe { std::mem::transmute::<[u32; 64], [f32; 64]>(x) }
}

/// Lane floats as their bits.
#[inline(always)]
pub(super) fn as_bits(x: [f32; 64]) -> [u32; 64] {
    // SAFETY: as in `as_f32`.
    unsafe { std::mem::transmute::<[f32; 64], [u32; 64]>(x) }
}

/// `d[l] = a[l] * b[l] + c[l]` with one rounding, on f32 bit patterns (NaN results as the
/// host makes them: the caller applies [`nan3`]). The host's FMA
/// instruction when it has one (a libm call per lane costs more than the rest of the
/// instruction). Built for x86-64-v3 (.cargo/config.toml) the check is made at compile time.
#[inline(always)]
pub(super) fn fma_lanes<const N: usize>(a: &[u32; N], b: &[u32; N], c: &[u32; N]) -> ([u32; N], bool) {
    #[cfg(all(target_arch = "x86_64", not(target_feature = "fma")))]
    {
        if std::is_x86_feature_detected!("fma") {
            // SAFETY: the CPU supports FMA (checked just above).
            return unsafe { fma_lanes_x86_fma(a, b, c) };
        }
    }
    fma_lanes_portable(a, b, c)
}

/// The lanes and whether any is NaN (accumulated in the same loop: a separate pass over
/// the stored results costs more than the FMAs).
#[inline(always)]
fn fma_lanes_portable<const N: usize>(a: &[u32; N], b: &[u32; N], c: &[u32; N]) -> ([u32; N], bool) {
    let f = f32::from_bits;
    let mut d = [0u32; N];
    let mut nan = 0u32;
    for l in 0..N {
        let r = f(a[l]).mul_add(f(b[l]), f(c[l]));
        nan |= r.is_nan() as u32;
        d[l] = r.to_bits();
    }
    (d, nan != 0)
}

#[cfg(all(target_arch = "x86_64", not(target_feature = "fma")))]
#[target_feature(enable = "avx2,fma")]
unsafe fn fma_lanes_x86_fma<const N: usize>(a: &[u32; N], b: &[u32; N], c: &[u32; N]) -> ([u32; N], bool) {
    fma_lanes_portable(a, b, c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn m(round: u32) -> FloatMode {
        FloatMode { round, ..FloatMode::f32(0xf0) }
    }

    /// Directed rounding checked against exact rational reasoning on values whose exact
    /// result is known: 1 + 2^-30 lies strictly between 1 and the next f32.
    #[test]
    fn directed_rounding_of_add_mul_fma() {
        let tiny = 2f32.powi(-30);
        let up = f32::from_bits(1f32.to_bits() + 1);
        assert_eq!(m(RNE).add(1.0, tiny), 1.0);
        assert_eq!(m(RUP).add(1.0, tiny), up);
        assert_eq!(m(RDN).add(1.0, tiny), 1.0);
        assert_eq!(m(RTZ).add(-1.0, -tiny), -1.0);
        assert_eq!(m(RDN).add(-1.0, -tiny), -up);
        // x - x is -0 only when rounding toward -inf.
        assert!(m(RDN).add(1.0, -1.0).is_sign_negative());
        assert!(m(RUP).add(1.0, -1.0).is_sign_positive());
        // (1 + 2^-23)(1 + 2^-23) = 1 + 2^-22 + 2^-46.
        let x = up;
        assert_eq!(m(RNE).mul(x, x), f32::from_bits(1f32.to_bits() + 2));
        assert_eq!(m(RUP).mul(x, x), f32::from_bits(1f32.to_bits() + 3));
        assert_eq!(m(RTZ).mul(x, -x), -f32::from_bits(1f32.to_bits() + 2));
        // fma(x, x, -1) = 2^-22 + 2^-46, half an ulp above 2^-22: up gives 2^-22 + 2^-45,
        // nearest even 2^-22 (a tie), toward zero 2^-22.
        assert_eq!(m(RUP).fma(x, x, -1.0), 2f32.powi(-22) + 2f32.powi(-45));
        assert_eq!(m(RNE).fma(x, x, -1.0), 2f32.powi(-22));
        assert_eq!(m(RTZ).fma(x, x, -1.0), 2f32.powi(-22));
        assert_eq!(m(RUP).fma(1.0, 1.0, tiny), up);
        // Overflow: toward zero stays at the largest finite value.
        assert_eq!(m(RTZ).mul(f32::MAX, 2.0), f32::MAX);
        assert_eq!(m(RUP).mul(f32::MAX, 2.0), f32::INFINITY);
        assert_eq!(m(RDN).mul(f32::MAX, -2.0), f32::NEG_INFINITY);
        assert_eq!(m(RUP).mul(f32::MAX, -2.0), f32::MIN);
        // Underflow: the smallest denormal rounds up from a tiny positive product.
        assert_eq!(m(RUP).mul(f32::from_bits(1), 0.5), f32::from_bits(1));
        assert_eq!(m(RDN).mul(f32::from_bits(1), 0.5), 0.0);
        assert_eq!(m(RDN).mul(-f32::from_bits(1), 0.5), -f32::from_bits(1));
    }

    #[test]
    fn denormal_flushing_follows_fp_denorm() {
        let d = f32::from_bits(0x0000_0100);
        let flush_all = FloatMode::f32(0);
        assert_eq!(flush_all.add(d, 0.0), 0.0);
        assert_eq!(flush_all.mul(-d, 1.0).to_bits(), 0x8000_0000);
        let keep_in = FloatMode::f32(1 << mode::FP_DENORM);
        // Kept on input, flushed on output.
        assert_eq!(keep_in.mul(d, 2.0), 0.0);
        assert_eq!(keep_in.mul(d, 2f32.powi(30)), d * 2f32.powi(30));
        assert!(f32_host_mode(0xf0) && !f32_host_mode(0xf1) && !f32_host_mode(0xe0));
    }

    /// Which MODE values translated code runs under, and how (RDNA3 ISA "MODE": FP_ROUND
    /// [3:0], FP_DENORM [7:4], f32 in the low halves).
    #[test]
    fn host_float_classes() {
        use crate::isa::program::WideFloats;
        let (none, f16, f64) =
            (WideFloats::default(), WideFloats { f16: true, f64: false }, WideFloats { f16: false, f64: true });
        assert_eq!(host_float(0xf0, none), Some(HostFloat::Ieee));
        assert_eq!(host_float(0xf0, f16), Some(HostFloat::Ieee));
        // RADV's FLOAT_MODE 0xc0: f32 denormals flushed, f16/f64 kept.
        assert_eq!(host_float(0xc0, none), Some(HostFloat::Flush));
        assert_eq!(host_float(0xc0, f16), Some(HostFloat::Flush), "f16 is computed in f32, where it is normal");
        assert_eq!(host_float(0xc0, f64), None, "one MXCSR for f32 and f64");
        assert_eq!(host_float(0x00, f64), None, "f64 results are not flushed by translated code");
        assert_eq!(host_float(0x00, none), Some(HostFloat::Flush));
        assert_eq!(host_float(0x00, f16), None, "f16 denormals flushed");
        assert_eq!(host_float(0xf1, none), None, "f32 round up");
        assert_eq!(host_float(0xd0, none), None, "f32 input denormals kept, output flushed");
        assert_eq!(host_float(0xf4, f64), None, "f64 round up");
    }
}
