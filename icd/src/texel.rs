//! A clear colour packed into one texel of an uncompressed colour format, as
//! `vkCmdClearColorImage` writes it. The layout comes from the format's name, which in
//! Vulkan is its definition: components in memory (byte) order, or for `_PACKnn` formats
//! from the most to the least significant bit, with their bit counts, then the numeric
//! format. The conversions are the specification's "Conversion from floating-point to
//! normalized fixed-point", sRGB encoding and the shared-exponent rule for E5B9G9R9.

use ash::vk;

/// How a component's value is stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Unorm,
    Snorm,
    Uscaled,
    Sscaled,
    Uint,
    Sint,
    Ufloat,
    Sfloat,
    Srgb,
}

/// A format's components: (channel index R=0 G=1 B=2 A=3, bits), in memory order or, for
/// packed formats, from the top bit down; the numeric kind; whether packed.
struct Layout {
    comps: Vec<(usize, u32)>,
    kind: Kind,
    packed: bool,
}

fn layout(f: vk::Format) -> Option<Layout> {
    let name = format!("{f:?}");
    let mut parts = name.split('_');
    let (chans, kind) = (parts.next()?, parts.next()?);
    let packed = parts.next().is_some_and(|p| p.starts_with("PACK"));
    let kind = match kind {
        "UNORM" => Kind::Unorm,
        "SNORM" => Kind::Snorm,
        "USCALED" => Kind::Uscaled,
        "SSCALED" => Kind::Sscaled,
        "UINT" => Kind::Uint,
        "SINT" => Kind::Sint,
        "UFLOAT" => Kind::Ufloat,
        "SFLOAT" => Kind::Sfloat,
        "SRGB" => Kind::Srgb,
        _ => return None,
    };
    let mut comps = Vec::new();
    let mut rest = chans;
    while let Some(c) = rest.chars().next() {
        let ch = "RGBA".find(c)?;
        let digits: String = rest[1..].chars().take_while(char::is_ascii_digit).collect();
        comps.push((ch, digits.parse().ok()?));
        rest = &rest[1 + digits.len()..];
    }
    (!comps.is_empty()).then_some(Layout { comps, kind, packed })
}

/// The sRGB encoding of a linear value in [0, 1].
fn srgb(c: f32) -> f32 {
    let c = c.clamp(0.0, 1.0);
    if c <= 0.003_130_8 {
        12.92 * c
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// An unsigned float of `bits` (5-bit exponent, `bits - 5` mantissa bits) from an f32:
/// the f16's exponent and its top mantissa bits, rounded to nearest even; negatives and
/// NaN's sign dropped (negative values become 0).
fn ufloat(x: f32, bits: u32) -> u64 {
    if x.is_nan() {
        return (0x1f << (bits - 5)) | 1;
    }
    let h = half::f16::from_f32(x.max(0.0)).to_bits() as u64 & 0x7fff;
    let drop = 10 - (bits - 5);
    if h >= 0x7c00 {
        return 0x1f << (bits - 5);
    }
    let (q, r, half) = (h >> drop, h & ((1 << drop) - 1), 1 << (drop - 1));
    q + (r > half || (r == half && q & 1 == 1)) as u64
}

/// Component `ch` of `bits` bits of the clear value, as stored.
fn component(v: &vk::ClearColorValue, ch: usize, bits: u32, kind: Kind) -> u64 {
    let mask = if bits == 64 { u64::MAX } else { (1u64 << bits) - 1 };
    // SAFETY: every member of the union is four 32-bit values; which one is meant follows
    // from the format, as the specification says.
    let (f, i, u) = unsafe { (v.float32[ch], v.int32[ch], v.uint32[ch]) };
    let scale = |x: f32| ((1u64 << bits) - 1) as f32 * x;
    match kind {
        Kind::Unorm => scale(f.clamp(0.0, 1.0)).round() as u64,
        Kind::Srgb if ch == 3 => scale(f.clamp(0.0, 1.0)).round() as u64,
        Kind::Srgb => scale(srgb(f)).round() as u64,
        Kind::Snorm => ((((1u64 << (bits - 1)) - 1) as f32 * f.clamp(-1.0, 1.0)).round() as i64 as u64) & mask,
        Kind::Uscaled => f.round().max(0.0) as u64 & mask,
        Kind::Sscaled => f.round() as i64 as u64 & mask,
        Kind::Uint => u as u64 & mask,
        Kind::Sint => i as i64 as u64 & mask,
        Kind::Ufloat => ufloat(f, bits),
        Kind::Sfloat => match bits {
            16 => half::f16::from_f32(f).to_bits() as u64,
            32 => f.to_bits() as u64,
            _ => (f as f64).to_bits(),
        },
    }
}

/// The bytes of one texel of `f` holding `v`, or `None` for formats this cannot pack
/// (depth/stencil, block-compressed, multi-planar).
pub fn pack(f: vk::Format, v: &vk::ClearColorValue) -> Option<Vec<u8>> {
    if f == vk::Format::E5B9G9R9_UFLOAT_PACK32 {
        // SAFETY: a float format's clear value is float32.
        let c = unsafe { v.float32 };
        return Some(gpu::format::rgb_to_shared_exp([c[0], c[1], c[2]]).to_le_bytes().to_vec());
    }
    let l = layout(f)?;
    let total: u32 = l.comps.iter().map(|c| c.1).sum();
    if l.packed {
        let mut word = 0u64;
        let mut shift = total;
        for &(ch, bits) in &l.comps {
            shift -= bits;
            word |= component(v, ch, bits, l.kind) << shift;
        }
        return Some(word.to_le_bytes()[..total as usize / 8].to_vec());
    }
    if l.comps.iter().any(|c| c.1 % 8 != 0) {
        return None;
    }
    let mut out = Vec::with_capacity(total as usize / 8);
    for &(ch, bits) in &l.comps {
        out.extend_from_slice(&component(v, ch, bits, l.kind).to_le_bytes()[..bits as usize / 8]);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn f(c: [f32; 4]) -> vk::ClearColorValue {
        vk::ClearColorValue { float32: c }
    }

    #[test]
    fn byte_formats_in_memory_order() {
        let v = f([1.0, 0.5, 0.0, 0.25]);
        assert_eq!(pack(vk::Format::R8G8B8A8_UNORM, &v).unwrap(), [255, 128, 0, 64]);
        assert_eq!(pack(vk::Format::B8G8R8A8_UNORM, &v).unwrap(), [0, 128, 255, 64]);
        assert_eq!(pack(vk::Format::R8_SNORM, &f([-1.0, 0.0, 0.0, 0.0])).unwrap(), [0x81]);
        let u = vk::ClearColorValue { uint32: [0x1234_5678, 7, 0, 0] };
        assert_eq!(pack(vk::Format::R16G16_UINT, &u).unwrap(), [0x78, 0x56, 7, 0]);
        let i = vk::ClearColorValue { int32: [-2, 0, 0, 0] };
        assert_eq!(pack(vk::Format::R32_SINT, &i).unwrap(), (-2i32).to_le_bytes());
        assert_eq!(pack(vk::Format::R16_SFLOAT, &f([1.0, 0.0, 0.0, 0.0])).unwrap(), 0x3c00u16.to_le_bytes());
        assert_eq!(pack(vk::Format::R64_SFLOAT, &f([0.5, 0.0, 0.0, 0.0])).unwrap(), 0.5f64.to_le_bytes());
    }

    /// sRGB: 0.5 linear is 0.7354 encoded (188 of 255); alpha stays linear.
    #[test]
    fn srgb_encodes_colour_not_alpha() {
        assert_eq!(pack(vk::Format::R8G8B8A8_SRGB, &f([0.5, 0.0, 1.0, 0.5])).unwrap(), [188, 0, 255, 128]);
    }

    /// PACK formats list components from the top bit down.
    #[test]
    fn packed_formats_from_the_top_bit() {
        let v = f([1.0, 0.0, 1.0, 1.0]);
        // A2B10G10R10: A in 31:30, B 29:20, G 19:10, R 9:0.
        let w = u32::from_le_bytes(pack(vk::Format::A2B10G10R10_UNORM_PACK32, &v).unwrap().try_into().unwrap());
        assert_eq!(w, 3 << 30 | 0x3ff << 20 | 0x3ff);
        // R5G6B5: R 15:11.
        let w = u16::from_le_bytes(pack(vk::Format::R5G6B5_UNORM_PACK16, &v).unwrap().try_into().unwrap());
        assert_eq!(w, 0x1f << 11 | 0x1f);
        // B10G11R11: B in 31:22 (5-bit mantissa), R in 10:0 (6-bit); 1.0 is exponent 15,
        // mantissa 0.
        let w = u32::from_le_bytes(pack(vk::Format::B10G11R11_UFLOAT_PACK32, &v).unwrap().try_into().unwrap());
        assert_eq!(w, (15 << 5) << 22 | 15 << 6);
    }

    /// The specification's shared-exponent example values: 1.0 is mantissa 256 with
    /// exponent 16 (1.0 = 256 / 2^9 * 2^(16 - 15)).
    #[test]
    fn shared_exponent_follows_the_specification() {
        let w = u32::from_le_bytes(
            pack(vk::Format::E5B9G9R9_UFLOAT_PACK32, &f([1.0, 0.5, 0.0, 0.0])).unwrap().try_into().unwrap(),
        );
        assert_eq!((w & 0x1ff, w >> 9 & 0x1ff, w >> 18 & 0x1ff, w >> 27), (256, 128, 0, 16));
    }

    #[test]
    fn unpackable_formats_are_none() {
        let v = f([0.0; 4]);
        assert!(pack(vk::Format::D32_SFLOAT, &v).is_none());
        assert!(pack(vk::Format::BC1_RGB_UNORM_BLOCK, &v).is_none());
        assert!(pack(vk::Format::G8_B8R8_2PLANE_420_UNORM, &v).is_none());
    }
}
