//! gfx11 buffer formats: the unified format numbering a V# and an MTBUF instruction hold,
//! and the conversions between memory and VGPRs the texture unit applies (RDNA3-NOTES,
//! "Buffer data formats" and "D16 buffer instructions").
//!
//! The numbering is LLVM's `UfmtGFX11` (`BUF_FMT_*`, the same values as Mesa's
//! `GFX11_FORMAT`); formats 64 and above do not exist. Components lie in memory from the
//! least significant bit up, and the names list them from the most significant down (as
//! Mesa maps `R11G11B10_FLOAT` to `10_11_11` and `R10G10B10A2` to `2_10_10_10`): so
//! `11_11_10` has a 10-bit X and `10_10_10_2` a 2-bit X.

pub mod bc;

/// A numeric format: how a component's bits become a VGPR value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Float,
    /// UNORM whose X, Y and Z are sRGB-encoded (image formats only): loads decode them
    /// with the sRGB EOTF (Vulkan spec, "sRGB EOTF"); W stays linear.
    Srgb,
    /// 5_9_9_9_FLOAT (E5B9G9R9, image formats only): three 9-bit mantissas sharing a 5-bit
    /// exponent (Vulkan spec, "Shared Exponent to RGB").
    SharedExp,
}

/// One valid gfx11 buffer format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufFormat {
    /// Components in memory (1..4).
    pub comps: u8,
    /// Bits of each component, X first.
    pub bits: [u8; 4],
    /// Bytes of one element.
    pub bytes: u8,
    pub num: Num,
}

/// A component's value before it is rounded to its destination.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Val {
    F(f64),
    U(u32),
    I(i32),
}

impl BufFormat {
    /// The format with unified number `n`, `None` for `BUF_FMT_INVALID` (0) and numbers
    /// past the table (64..127).
    pub fn from_unified(n: u32) -> Option<BufFormat> {
        use Num::*;
        // (first number, component bits, numeric formats in order)
        const NORM6: &[Num] = &[Unorm, Snorm, Uscaled, Sscaled, Uint, Sint];
        const NORM7: &[Num] = &[Unorm, Snorm, Uscaled, Sscaled, Uint, Sint, Float];
        const INT3: &[Num] = &[Uint, Sint, Float];
        const GROUPS: &[(u32, &[u8], &[Num])] = &[
            (1, &[8], NORM6),
            (7, &[16], NORM7),
            (14, &[8, 8], NORM6),
            (20, &[32], INT3),
            (23, &[16, 16], NORM7),
            (30, &[11, 11, 10], &[Float]),
            (31, &[10, 11, 11], &[Float]),
            (32, &[2, 10, 10, 10], &[Unorm, Snorm, Uint, Sint]),
            (36, &[10, 10, 10, 2], NORM6),
            (42, &[8, 8, 8, 8], NORM6),
            (48, &[32, 32], INT3),
            (51, &[16, 16, 16, 16], NORM7),
            (58, &[32, 32, 32], INT3),
            (61, &[32, 32, 32, 32], INT3),
        ];
        let &(first, bits, nums) = GROUPS.iter().rev().find(|g| g.0 <= n)?;
        let num = *nums.get((n - first) as usize)?;
        let mut b = [0u8; 4];
        b[..bits.len()].copy_from_slice(bits);
        let total: u32 = bits.iter().map(|&x| x as u32).sum();
        Some(BufFormat { comps: bits.len() as u8, bits: b, bytes: (total / 8) as u8, num })
    }

    /// The format with gfx11 image format number `n`: the buffer formats
    /// ([`Self::from_unified`]) and the image-only formats softnavi converts, numbered as
    /// AMD's gfx11 `CFMT_*` (ROCR-Runtime `src/image/resource_gfx11.h`, the numbers of
    /// Mesa's gfx11 format table): 64 `8_SRGB`, 65 `8_8_SRGB`, 66 `8_8_8_8_SRGB`, 67
    /// `5_9_9_9_FLOAT`, and the 16-bit packed 68 `5_6_5_UNORM`, 69 `1_5_5_5_UNORM`, 70
    /// `5_5_5_1_UNORM`, 71 `4_4_4_4_UNORM` (names list components from the most
    /// significant, as for `10_11_11`: X is the last, in the low bits). (Depth formats read
    /// as the buffer formats of their size: D16 as `16_UNORM`, D32 as `32_FLOAT`.) Image
    /// stores to the sRGB formats are not executed.
    pub fn from_image(n: u32) -> Option<BufFormat> {
        let f = |comps: u8, bits: [u8; 4], bytes: u8, num: Num| Some(BufFormat { comps, bits, bytes, num });
        match n {
            64 => f(1, [8, 0, 0, 0], 1, Num::Srgb),
            65 => f(2, [8, 8, 0, 0], 2, Num::Srgb),
            66 => f(4, [8, 8, 8, 8], 4, Num::Srgb),
            67 => f(3, [9, 9, 9, 5], 4, Num::SharedExp),
            68 => f(3, [5, 6, 5, 0], 2, Num::Unorm),
            69 => f(4, [5, 5, 5, 1], 2, Num::Unorm),
            70 => f(4, [1, 5, 5, 5], 2, Num::Unorm),
            71 => f(4, [4, 4, 4, 4], 2, Num::Unorm),
            _ => BufFormat::from_unified(n),
        }
    }

    /// Bytes a format access must be aligned to (RDNA3-NOTES, "Memory alignment modes"): 1
    /// for 8-bit components, 2 for 16-bit ones, 4 for everything else.
    pub fn align(&self) -> u32 {
        match (self.bits[0], self.bits[1]) {
            (8, 0 | 8) => 1,
            (16, 0 | 16) => 2,
            _ if self.bytes == 2 => 2, // the 16-bit packed image formats
            _ => 4,
        }
    }

    /// Whether the numeric format yields floats in VGPRs.
    pub fn is_float(&self) -> bool {
        !matches!(self.num, Num::Uint | Num::Sint)
    }

    /// The raw bits of each component of one element (`bytes` little-endian).
    /// (5_9_9_9_FLOAT: the f32 bits of X, Y and Z, the exponent applied.)
    pub fn unpack(&self, bytes: &[u8; 16]) -> [u32; 4] {
        let v = u128::from_le_bytes(*bytes);
        if self.num == Num::SharedExp {
            return shared_exp(v as u32);
        }
        let mut out = [0u32; 4];
        let mut pos = 0;
        for (k, o) in out.iter_mut().enumerate().take(self.comps as usize) {
            let n = self.bits[k] as u32;
            *o = (v >> pos) as u32 & mask(n);
            pos += n;
        }
        out
    }

    /// The element bytes holding the raw component bits `raw`.
    /// (5_9_9_9_FLOAT: `raw` holds the f32 bits of X, Y and Z, encoded together.)
    pub fn pack(&self, raw: [u32; 4]) -> [u8; 16] {
        if self.num == Num::SharedExp {
            return (rgb_to_shared_exp([raw[0], raw[1], raw[2]].map(f32::from_bits)) as u128).to_le_bytes();
        }
        let mut v = 0u128;
        let mut pos = 0;
        for (k, &r) in raw.iter().enumerate().take(self.comps as usize) {
            let n = self.bits[k] as u32;
            v |= ((r & mask(n)) as u128) << pos;
            pos += n;
        }
        v.to_le_bytes()
    }

    fn value(&self, k: usize, raw: u32) -> Val {
        let n = self.bits[k] as u32;
        let sext = || ((raw << (32 - n)) as i32) >> (32 - n);
        match self.num {
            Num::Unorm => Val::F(raw as f64 / mask(n) as f64),
            Num::Snorm => Val::F((sext() as f64 / mask(n - 1) as f64).max(-1.0)),
            Num::Uscaled => Val::F(raw as f64),
            Num::Sscaled => Val::F(sext() as f64),
            Num::Uint => Val::U(raw),
            Num::Sint => Val::I(sext()),
            Num::Srgb if k < 3 => Val::F(srgb_to_linear(raw as f64 / 255.0)),
            Num::Srgb => Val::F(raw as f64 / 255.0),
            Num::SharedExp => Val::F(f32::from_bits(raw) as f64),
            Num::Float => Val::F(match n {
                32 => f32::from_bits(raw) as f64,
                16 => small_float(raw, 5, 10),
                11 => small_float(raw, 5, 6),
                _ => small_float(raw, 5, 5),
            }),
        }
    }

    /// Component `k`'s raw bits as a 32-bit VGPR value: f32 for the float-valued numeric
    /// formats, zero- or sign-extended integers for UINT and SINT.
    pub fn load32(&self, k: usize, raw: u32) -> u32 {
        match self.value(k, raw) {
            Val::F(_) if self.num == Num::Float && self.bits[k] == 32 => raw,
            Val::F(x) => (x as f32).to_bits(),
            Val::U(u) => u,
            Val::I(i) => i as u32,
        }
    }

    /// Component `k`'s raw bits as a 16-bit VGPR half (D16): f16 for the float-valued
    /// formats, the low 16 bits of the integer for UINT and SINT. RDNA3-NOTES,
    /// "D16 buffer instructions": float32 data becomes f16 by truncation, every other
    /// format rounds to nearest even.
    pub fn load16(&self, k: usize, raw: u32) -> u16 {
        match self.value(k, raw) {
            Val::F(_) if self.num == Num::Float && self.bits[k] == 32 => f32_to_f16_rtz(f32::from_bits(raw)),
            Val::F(x) => f64_to_f16(x, false),
            Val::U(u) => u as u16,
            Val::I(i) => i as u16,
        }
    }

    /// A 32-bit VGPR value (f32 for the float-valued formats, an integer for UINT and SINT)
    /// as component `k`'s raw bits: norm formats clamp to their range and round to
    /// nearest even (NaN becomes 0), scaled formats round to nearest even and saturate,
    /// integer formats saturate, f32 becomes f16 by truncation and the 11- and 10-bit
    /// floats round to nearest even (negative values become 0).
    pub fn store32(&self, k: usize, v: u32) -> u32 {
        let n = self.bits[k] as u32;
        let f = f32::from_bits(v) as f64;
        let f = if f.is_nan() { 0.0 } else { f };
        let signed = |x: f64| (x as i64 as u32) & mask(n);
        match self.num {
            Num::Unorm => (f.clamp(0.0, 1.0) * mask(n) as f64).round_ties_even() as u32,
            Num::Srgb => {
                let c = f.clamp(0.0, 1.0);
                let e = if k < 3 { linear_to_srgb(c) } else { c };
                (e * 255.0).round_ties_even() as u32
            }
            // The f32 itself: `pack` encodes the three components together.
            Num::SharedExp => v,
            Num::Snorm => signed((f.clamp(-1.0, 1.0) * mask(n - 1) as f64).round_ties_even()),
            Num::Uscaled => f.round_ties_even().clamp(0.0, mask(n) as f64) as u32,
            Num::Sscaled => {
                let half = (1u64 << (n - 1)) as f64;
                signed(f.round_ties_even().clamp(-half, half - 1.0))
            }
            Num::Uint => v.min(mask(n)),
            Num::Sint => {
                let half = 1i64 << (n - 1);
                ((v as i32 as i64).clamp(-half, half - 1) as u32) & mask(n)
            }
            Num::Float => match n {
                32 => v,
                16 => f32_to_f16_rtz(f32::from_bits(v)) as u32,
                _ => to_ufloat(f32::from_bits(v), n - 5),
            },
        }
    }

    /// A 16-bit VGPR half (D16: f16 for the float-valued formats, a 16-bit integer for UINT
    /// and SINT) as component `k`'s raw bits: widened exactly, then as [`Self::store32`].
    pub fn store16(&self, k: usize, v: u16) -> u32 {
        let wide = match self.num {
            Num::Uint => v as u32,
            Num::Sint => v as i16 as i32 as u32,
            _ => (small_float(v as u32, 5, 10) as f32).to_bits(),
        };
        self.store32(k, wide)
    }

    /// The value `SQ_SEL_1` gives a component: 1.0 for the float-valued formats, 1 for
    /// UINT and SINT, as a 32-bit VGPR value or (`d16`) a 16-bit half.
    pub fn one(&self, d16: bool) -> u32 {
        match (self.is_float(), d16) {
            (true, false) => 0x3f80_0000,
            (true, true) => 0x3c00,
            (false, _) => 1,
        }
    }
}

/// The sRGB EOTF (Vulkan spec, "sRGB EOTF"): an encoded value in [0, 1] to linear.
fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// The inverse of [`srgb_to_linear`] (the sRGB OETF).
fn linear_to_srgb(l: f64) -> f64 {
    if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// RGB as E5B9G9R9 (Vulkan spec, "RGB to Shared Exponent Conversion"): each component
/// clamped to [0, sharedexp_max] (NaN to 0), the exponent from the largest (one more where
/// its mantissa rounds to 512), mantissas rounded to nearest; `floor(log2(max))` is read
/// from the f32's exponent bits, exactly.
pub fn rgb_to_shared_exp(rgb: [f32; 3]) -> u32 {
    const N: i32 = 9;
    const B: i32 = 15;
    const EMAX: i32 = 31;
    let max_value = ((1 << N) - 1) as f32 / (1 << N) as f32 * 2f32.powi(EMAX - B);
    let c = rgb.map(|v| if v.is_nan() { 0.0 } else { v.clamp(0.0, max_value) });
    let maxc = c[0].max(c[1]).max(c[2]);
    // floor(log2(maxc)) for normal maxc; 0 and subnormals fall below -B - 1 either way.
    let log2 = if maxc >= f32::MIN_POSITIVE { (maxc.to_bits() >> 23) as i32 - 127 } else { -B - 1 };
    let exp_p = log2.max(-B - 1) + 1 + B;
    let max_s = (maxc as f64 / 2f64.powi(exp_p - B - N)).round() as i32;
    let exp_s = if max_s < (1 << N) { exp_p } else { exp_p + 1 };
    let m = c.map(|v| (v as f64 / 2f64.powi(exp_s - B - N)).round() as u32);
    m[0] | m[1] << 9 | m[2] << 18 | (exp_s as u32) << 27
}

/// E5B9G9R9 (X in bits 8:0, Y 17:9, Z 26:18, the exponent 31:27) to f32 bits:
/// `mantissa * 2^(exponent - 15 - 9)` (Vulkan spec, "Shared Exponent to RGB"; exact in
/// f32).
fn shared_exp(v: u32) -> [u32; 4] {
    let scale = 2f32.powi((v >> 27) as i32 - 24);
    let m = |k: u32| ((v >> (9 * k) & 0x1ff) as f32 * scale).to_bits();
    [m(0), m(1), m(2), 0]
}

fn mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

/// The value of a small float (sign bit above `e + m` bits for f16; none for the
/// unsigned 11- and 10-bit floats, which pass their bits without one).
fn small_float(bits: u32, e: u32, m: u32) -> f64 {
    let sign = if e + m == 15 && bits >> 15 & 1 != 0 { -1.0 } else { 1.0 };
    let exp = bits >> m & mask(e);
    let man = bits & mask(m);
    let bias = mask(e - 1) as i32;
    sign * if exp == mask(e) {
        if man == 0 {
            f64::INFINITY
        } else {
            f64::NAN
        }
    } else if exp == 0 {
        man as f64 * 2f64.powi(1 - bias - m as i32)
    } else {
        (man + (1 << m)) as f64 * 2f64.powi(exp as i32 - bias - m as i32)
    }
}

/// The magnitude bits of `x` (finite, >= 0) as a float with `e` exponent and `m`
/// mantissa bits (IEEE layout, bias `2^(e-1) - 1`), rounded to nearest even or toward
/// zero; too large a value becomes infinity, or the largest finite value when truncating.
fn encode_mag(x: f64, e: u32, m: u32, rtz: bool) -> u32 {
    if x == 0.0 {
        return 0;
    }
    let bias = mask(e - 1) as i32;
    let emin = 1 - bias;
    let ex = ((x.to_bits() >> 52) & 0x7ff) as i32 - 1023; // x is a normal f64 here
    let scale = if ex < emin { emin - m as i32 } else { ex - m as i32 };
    let q = x * 2f64.powi(-scale);
    let q = if rtz { q.trunc() } else { q.round_ties_even() } as u64;
    let bits = if ex < emin { q } else { (((ex + bias) as u64) << m) + q - (1 << m) };
    let inf = (mask(e) as u64) << m;
    if bits >= inf {
        return if rtz { inf as u32 - 1 } else { inf as u32 };
    }
    bits as u32
}

/// f64 to f16 bits, rounding to nearest even (or toward zero).
fn f64_to_f16(x: f64, rtz: bool) -> u16 {
    let sign = if x.is_sign_negative() { 0x8000 } else { 0 };
    let mag = if x.is_nan() {
        0x7e00
    } else if x.is_infinite() {
        0x7c00
    } else {
        encode_mag(x.abs(), 5, 10, rtz) as u16
    };
    sign | mag
}

/// An f16 (its bits) as f32, exactly.
pub fn f16_to_f32(h: u16) -> f32 {
    small_float(h as u32, 5, 10) as f32
}

/// f32 to f16 bits, rounding to nearest even.
pub fn f32_to_f16(x: f32) -> u16 {
    f64_to_f16(x as f64, false)
}

/// f32 to f16 by truncation (RDNA3-NOTES, "D16 buffer instructions"): NaN stays a quiet
/// NaN, infinity stays infinity, finite values too large become the largest finite f16.
pub fn f32_to_f16_rtz(x: f32) -> u16 {
    f64_to_f16(x as f64, true)
}

/// f32 to an unsigned 5-bit-exponent float with `m` mantissa bits (11-bit: 6, 10-bit:
/// 5), rounding to nearest even: negative values and -0 become 0, NaN a NaN, too large
/// values infinity.
fn to_ufloat(x: f32, m: u32) -> u32 {
    if x.is_nan() {
        return mask(5 + m);
    }
    if x <= 0.0 {
        return 0;
    }
    if x.is_infinite() {
        return mask(5) << m;
    }
    encode_mag(x as f64, 5, m, false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use half::f16;

    #[test]
    fn unified_numbers_follow_llvm() {
        let f = |n| BufFormat::from_unified(n).unwrap();
        assert_eq!(BufFormat::from_unified(0), None);
        assert_eq!(BufFormat::from_unified(64), None);
        assert_eq!(f(1), BufFormat { comps: 1, bits: [8, 0, 0, 0], bytes: 1, num: Num::Unorm });
        assert_eq!(f(13).num, Num::Float);
        assert_eq!((f(22).bytes, f(22).num), (4, Num::Float));
        assert_eq!((f(30).bits, f(31).bits), ([11, 11, 10, 0], [10, 11, 11, 0]));
        assert_eq!((f(35).num, f(36).num, f(36).bits), (Num::Sint, Num::Unorm, [10, 10, 10, 2]));
        assert_eq!((f(57).bytes, f(57).num), (8, Num::Float));
        assert_eq!((f(63).comps, f(63).bytes, f(63).num), (4, 16, Num::Float));
        assert_eq!((1..64).filter(|&n| BufFormat::from_unified(n).is_some()).count(), 63);
    }

    #[test]
    fn f16_conversions_match_half() {
        for bits in (0..=u32::MAX).step_by(4099) {
            let x = f32::from_bits(bits);
            let rne = f16::from_f32(x);
            if !x.is_nan() {
                assert_eq!(f64_to_f16(x as f64, false), rne.to_bits(), "{x:e}");
            }
            // Truncation: never larger in magnitude than x, and at most one step from RNE.
            let t = f32_to_f16_rtz(x);
            if x.is_nan() {
                assert!(f16::from_bits(t).is_nan());
                continue;
            }
            let tv = f16::from_bits(t).to_f32();
            assert!(tv.abs() <= x.abs(), "{x:e} -> {tv:e}");
            assert!(t & 0x7fff == rne.to_bits() & 0x7fff || t & 0x7fff == (rne.to_bits() & 0x7fff) - 1, "{x:e}");
        }
        for h in 0..=u16::MAX {
            let x = f16::from_bits(h);
            if !x.is_nan() {
                assert_eq!(small_float(h as u32, 5, 10), x.to_f64(), "{h:#x}");
            }
        }
    }

    #[test]
    fn small_floats_round_trip() {
        for m in [5, 6] {
            for b in 0..(31u32 << m) {
                let x = small_float(b, 5, m) as f32;
                assert_eq!(to_ufloat(x, m), b, "m {m} bits {b:#x}");
            }
        }
        assert_eq!(to_ufloat(-1.0, 6), 0);
        assert_eq!(to_ufloat(1e10, 6), 31 << 6);
    }

    /// The image-only formats (gfx11 `CFMT_*` 64..67): sRGB decoding of X, Y, Z (not W)
    /// and the shared exponent of 5_9_9_9.
    #[test]
    fn image_only_formats_load() {
        let f = |n| BufFormat::from_image(n).unwrap();
        assert_eq!((BufFormat::from_unified(66), BufFormat::from_image(72)), (None, None));
        let s = f(66);
        let raw = s.unpack(&[0xff, 0x00, 188, 188, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        let v: Vec<f32> = (0..4).map(|k| f32::from_bits(s.load32(k, raw[k]))).collect();
        assert_eq!((v[0], v[1], v[3]), (1.0, 0.0, 188.0 / 255.0));
        assert!((v[2] - 0.5029).abs() < 1e-4, "{}", v[2]);
        let e = f(67);
        let w: u32 = 15 << 27 | 3 << 18 | 1 << 9 | 256;
        let raw = e.unpack(&(w as u128).to_le_bytes());
        let v: Vec<f32> = (0..3).map(|k| f32::from_bits(e.load32(k, raw[k]))).collect();
        assert_eq!(v, [0.5, 2f32.powi(-9), 3.0 * 2f32.powi(-9)]);
        assert_eq!(f(64).store32(0, 0.5f32.to_bits()), 188);
        // 5_6_5: X in bits 4:0, Y in 10:5, Z in 15:11.
        let p = f(68);
        let raw = p.unpack(&(31u128 << 11 | 31 << 5).to_le_bytes()); // Z = 31, Y = 31, X = 0
        assert_eq!(raw[..3], [0, 31, 31]);
        assert_eq!((f(69).bits, f(70).bits, f(71).bytes), ([5, 5, 5, 1], [1, 5, 5, 5], 2));
    }
}
