//! CPU references for the image cases, written from the Vulkan specification: format
//! encodings ("Numeric Formats", "Fixed-Point Data Conversions", the packed formats),
//! "Texel Input Operations" (coordinate transforms, "Wrapping Operation", "Texel
//! Replacement", "Depth Compare Operation", "sRGB to Linear Conversion", "Texel Filtering",
//! "Texel Gathering", "Cube Map Face Selection") and "Level-of-Detail Operation".

use ash::vk;
use half::f16;
use softnavi_tests::image::{texel_size, ImageDesc};

/// How a format's components are stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Num {
    Unorm,
    Snorm,
    Uint,
    Sint,
    Float,
    /// Unsigned 10- and 11-bit floats (B10G11R11).
    UFloat,
    Srgb,
}

/// A format: its components as (RGBA channel, bit offset, bits) in the little-endian texel,
/// and their numeric type.
pub struct Fmt {
    pub comps: Vec<(usize, u32, u32)>,
    pub num: Num,
}

pub fn fmt(f: vk::Format) -> Fmt {
    use vk::Format as F;
    use Num::*;
    let seq = |n: usize, bits: u32, num| Fmt { comps: (0..n).map(|c| (c, c as u32 * bits, bits)).collect(), num };
    match f {
        F::R8_UNORM | F::R8G8_UNORM | F::R8G8B8A8_UNORM => seq(texel_size(f).unwrap_or(1), 8, Unorm),
        F::R8_SNORM | F::R8G8B8A8_SNORM => seq(texel_size(f).unwrap_or(1), 8, Snorm),
        F::R8_UINT | F::R8G8B8A8_UINT => seq(texel_size(f).unwrap_or(1), 8, Uint),
        F::R8_SINT | F::R8G8B8A8_SINT => seq(texel_size(f).unwrap_or(1), 8, Sint),
        F::R8G8B8A8_SRGB => seq(4, 8, Srgb),
        F::B8G8R8A8_UNORM => Fmt { comps: vec![(2, 0, 8), (1, 8, 8), (0, 16, 8), (3, 24, 8)], num: Unorm },
        F::R16_UNORM | F::R16G16_UNORM | F::R16G16B16A16_UNORM | F::D16_UNORM => {
            seq(texel_size(f).unwrap_or(2) / 2, 16, Unorm)
        }
        F::R16_SNORM | F::R16G16_SNORM => seq(texel_size(f).unwrap_or(2) / 2, 16, Snorm),
        F::R16_UINT | F::R16G16_UINT => seq(texel_size(f).unwrap_or(2) / 2, 16, Uint),
        F::R16_SINT | F::R16G16_SINT | F::R16G16B16A16_SINT => seq(texel_size(f).unwrap_or(2) / 2, 16, Sint),
        F::R16_SFLOAT | F::R16G16_SFLOAT | F::R16G16B16A16_SFLOAT => seq(texel_size(f).unwrap_or(2) / 2, 16, Float),
        F::R32_UINT | F::R32G32_UINT | F::R32G32B32A32_UINT => seq(texel_size(f).unwrap_or(4) / 4, 32, Uint),
        F::R32_SINT | F::R32G32_SINT | F::R32G32B32A32_SINT => seq(texel_size(f).unwrap_or(4) / 4, 32, Sint),
        F::R32_SFLOAT | F::R32G32_SFLOAT | F::R32G32B32A32_SFLOAT | F::D32_SFLOAT => {
            seq(texel_size(f).unwrap_or(4) / 4, 32, Float)
        }
        F::A2B10G10R10_UNORM_PACK32 => {
            Fmt { comps: vec![(0, 0, 10), (1, 10, 10), (2, 20, 10), (3, 30, 2)], num: Unorm }
        }
        F::A2B10G10R10_UINT_PACK32 => Fmt { comps: vec![(0, 0, 10), (1, 10, 10), (2, 20, 10), (3, 30, 2)], num: Uint },
        F::B10G11R11_UFLOAT_PACK32 => Fmt { comps: vec![(0, 0, 11), (1, 11, 11), (2, 22, 10)], num: UFloat },
        _ => Fmt { comps: Vec::new(), num: Unorm },
    }
}

fn read_bits(t: u128, off: u32, bits: u32) -> u64 {
    ((t >> off) & ((1u128 << bits) - 1)) as u64
}

/// Unsigned float of `bits` (5 exponent bits, the rest mantissa).
fn ufloat(v: u64, bits: u32) -> f64 {
    let m = bits - 5;
    let (e, f) = ((v >> m) as i32, (v & ((1 << m) - 1)) as f64);
    match e {
        0 => f / f64::from(1 << m) * 2f64.powi(-14),
        31 => f64::NAN,
        _ => (1.0 + f / f64::from(1 << m)) * 2f64.powi(e - 15),
    }
}

/// sRGB EOTF ("sRGB to Linear Conversion").
pub fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn component(num: Num, v: u64, bits: u32) -> f64 {
    let signed = || ((v << (64 - bits)) as i64 >> (64 - bits)) as f64;
    match num {
        Num::Unorm | Num::Srgb => v as f64 / ((1u64 << bits) - 1) as f64,
        Num::Snorm => (signed() / ((1u64 << (bits - 1)) - 1) as f64).max(-1.0),
        Num::Uint => v as f64,
        Num::Sint => signed(),
        Num::Float if bits == 16 => f16::from_bits(v as u16).to_f64(),
        Num::Float => f64::from(f32::from_bits(v as u32)),
        Num::UFloat => ufloat(v, bits),
    }
}

/// A texel's RGBA (integers exact in f64; missing components 0, 0, 0 and 1).
pub fn decode(f: vk::Format, bytes: &[u8]) -> [f64; 4] {
    let mut t = [0u8; 16];
    t[..bytes.len().min(16)].copy_from_slice(&bytes[..bytes.len().min(16)]);
    let t = u128::from_le_bytes(t);
    let d = fmt(f);
    let mut out = [0.0, 0.0, 0.0, 1.0];
    for &(c, off, bits) in &d.comps {
        let mut v = component(d.num, read_bits(t, off, bits), bits);
        if d.num == Num::Srgb && c < 3 {
            v = srgb_to_linear(v);
        }
        out[c] = v;
    }
    out
}

/// The bits of one component from a 32-bit hash: any code for normalized and integer
/// components; for floats, values exactly representable (so that filtering them is the
/// only rounding): f16/f32 multiples of 1/64 in [-4, 4), unsigned small floats k/8.
fn component_bits(num: Num, bits: u32, h: u32) -> u64 {
    match num {
        Num::Float => {
            let v = f32::from((h % 512) as u16) / 64.0 - 4.0;
            if bits == 16 {
                u64::from(f16::from_f32(v).to_bits())
            } else {
                u64::from(v.to_bits())
            }
        }
        Num::UFloat => {
            let v = f64::from(h % 64) / 8.0;
            encode_ufloat(v, bits)
        }
        _ => u64::from(h) & ((1u64 << bits) - 1).min(u64::from(u32::MAX)),
    }
}

fn encode_ufloat(v: f64, bits: u32) -> u64 {
    if v == 0.0 {
        return 0;
    }
    let m = bits - 5;
    let e = v.log2().floor() as i32;
    let f = ((v / 2f64.powi(e) - 1.0) * f64::from(1 << m)).round() as u64;
    (((e + 15) as u64) << m) | f
}

pub fn hash(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9e37_79b1) ^ (x >> 15);
    x = x.wrapping_mul(0x85eb_ca6b) ^ (x >> 13);
    x ^ (x >> 16)
}

/// Texels for every level and layer of `desc` from `seed` ([`component_bits`]); depth
/// formats hold k/64 + 1/128 (never equal to a reference k/64).
pub fn texels(desc: &ImageDesc, seed: u32) -> Vec<u8> {
    let size = texel_size(desc.format).unwrap_or(0);
    let n = desc.bytes() / size.max(1);
    let d = fmt(desc.format);
    let mut out = Vec::with_capacity(desc.bytes());
    for i in 0..n as u32 {
        let mut t = 0u128;
        for (k, &(_, off, bits)) in d.comps.iter().enumerate() {
            let h = hash(seed.wrapping_mul(7919).wrapping_add(i * 4 + k as u32));
            let v = if desc.format == vk::Format::D32_SFLOAT {
                u64::from(((h % 64) as f32 / 64.0 + 1.0 / 128.0).to_bits())
            } else {
                component_bits(d.num, bits, h)
            };
            t |= u128::from(v) << off;
        }
        out.extend_from_slice(&t.to_le_bytes()[..size]);
    }
    out
}

/// RGBA of texel (x, y, z) of `layer` at `level`.
pub fn texel(desc: &ImageDesc, level: u32, layer: u32, at: [u32; 3]) -> [f64; 4] {
    let o = desc.offset(level, layer, at);
    decode(desc.format, &desc.data[o..o + texel_size(desc.format).unwrap_or(0)])
}

// ---- sampling ----------------------------------------------------------------------------

/// Spatial coordinates of a view type (a cube's are its face's two).
pub fn spatial(view: vk::ImageViewType) -> usize {
    use vk::ImageViewType as V;
    match view {
        V::TYPE_1D | V::TYPE_1D_ARRAY => 1,
        V::TYPE_3D => 3,
        _ => 2,
    }
}

/// Wrapping Operation: the texel index `i` of a level `size` wide, `None` for a border texel.
pub fn wrap(i: i32, size: i32, mode: vk::SamplerAddressMode) -> Option<i32> {
    use vk::SamplerAddressMode as A;
    let mirror = |a: i32| if a >= 0 { a } else { -(1 + a) };
    match mode {
        A::REPEAT => Some(i.rem_euclid(size)),
        A::MIRRORED_REPEAT => Some(size - 1 - mirror(i.rem_euclid(2 * size) - size)),
        A::CLAMP_TO_EDGE => Some(i.clamp(0, size - 1)),
        A::MIRROR_CLAMP_TO_EDGE => Some(mirror(i).min(size - 1)),
        _ => (0..size).contains(&i).then_some(i),
    }
}

/// The border colour as RGBA.
fn border(c: vk::BorderColor) -> [f64; 4] {
    use vk::BorderColor as B;
    match c {
        B::FLOAT_OPAQUE_BLACK | B::INT_OPAQUE_BLACK => [0.0, 0.0, 0.0, 1.0],
        B::FLOAT_OPAQUE_WHITE | B::INT_OPAQUE_WHITE => [1.0; 4],
        _ => [0.0; 4],
    }
}

/// What a sampling instruction asks for (beyond the image and the sampler).
#[derive(Clone, Copy, Debug, Default)]
pub struct Query {
    /// Spatial coordinates (normalized unless the sampler says otherwise); for cubes the
    /// direction.
    pub coord: [f64; 3],
    /// Array layer coordinate (arrays only).
    pub layer: f64,
    pub lod: f64,
    /// ConstOffset / Offset, in texels.
    pub offset: [i32; 3],
    /// Depth reference (compare samplers).
    pub dref: Option<f64>,
}

/// A sampled image: the texels and the sampler.
pub struct Sampled<'a> {
    pub desc: &'a ImageDesc,
    pub s: &'a vk::SamplerCreateInfo<'static>,
}

/// Cube Map Face Selection: (face, s, t) of a direction with a unique major axis.
pub fn cube_face([x, y, z]: [f64; 3]) -> (u32, f64, f64) {
    let (ax, ay, az) = (x.abs(), y.abs(), z.abs());
    let (face, sc, tc, ma) = if ax >= ay && ax >= az {
        if x > 0.0 {
            (0, -z, -y, ax)
        } else {
            (1, z, -y, ax)
        }
    } else if ay >= az {
        if y > 0.0 {
            (2, x, z, ay)
        } else {
            (3, x, -z, ay)
        }
    } else if z > 0.0 {
        (4, x, -y, az)
    } else {
        (5, -x, -y, az)
    };
    (face, 0.5 * (sc / ma + 1.0), 0.5 * (tc / ma + 1.0))
}

/// A direction onto cube face `face` at face coordinates (s, t), scaled by `k`: Cube Map
/// Face Selection backwards.
pub fn direction(face: u32, s: f64, t: f64, k: f64) -> [f64; 3] {
    let (sc, tc) = (2.0 * s - 1.0, 2.0 * t - 1.0);
    let d = match face {
        0 => [1.0, -tc, -sc],
        1 => [-1.0, -tc, sc],
        2 => [sc, 1.0, tc],
        3 => [sc, -1.0, -tc],
        4 => [sc, -tc, 1.0],
        _ => [-sc, -tc, -1.0],
    };
    d.map(|x| x * k)
}

/// Cube Map Edge Handling for a texel `i` one past an edge of `face` (one axis only): the
/// face its centre's direction selects, and the texel there.
fn across_edge(face: u32, size: i32, i: [i32; 2]) -> (u32, [i32; 2]) {
    let n = f64::from(size);
    let d = direction(face, (f64::from(i[0]) + 0.5) / n, (f64::from(i[1]) + 0.5) / n, 1.0);
    let (f, s, t) = cube_face(d);
    (f, [s, t].map(|x| ((x * n).floor() as i32).clamp(0, size - 1)))
}

impl Sampled<'_> {
    fn cube(&self) -> bool {
        matches!(self.desc.view, vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY)
    }

    fn arrayed(&self) -> bool {
        use vk::ImageViewType as V;
        matches!(self.desc.view, V::TYPE_1D_ARRAY | V::TYPE_2D_ARRAY | V::CUBE_ARRAY)
    }

    /// The layer (face) and the face-or-image coordinates of `q`.
    fn place(&self, q: &Query) -> (u32, [f64; 3]) {
        let layers = if self.cube() { self.desc.layers / 6 } else { self.desc.layers };
        let layer = if self.arrayed() { q.layer.round_ties_even().clamp(0.0, f64::from(layers - 1)) as u32 } else { 0 };
        if self.cube() {
            let (face, s, t) = cube_face(q.coord);
            return (layer * 6 + face, [s, t, 0.0]);
        }
        (layer, q.coord)
    }

    fn address(&self, k: usize) -> vk::SamplerAddressMode {
        if self.cube() {
            // Cube maps ignore the address modes: NEAREST clamps to the face, LINEAR and
            // gathers cross edges (`seamless_tap`).
            return vk::SamplerAddressMode::CLAMP_TO_EDGE;
        }
        [self.s.address_mode_u, self.s.address_mode_v, self.s.address_mode_w][k]
    }

    /// One tap: the texel at integer coordinates `i` (or the border), compared with `dref`.
    fn tap(&self, level: u32, layer: u32, i: [i32; 3], dref: Option<f64>) -> [f64; 4] {
        let n = spatial(self.desc.view).min(if self.cube() { 2 } else { 3 });
        let size = self.desc.level_extent(level);
        let mut at = [0u32; 3];
        for k in 0..n {
            match wrap(i[k], size[k] as i32, self.address(k)) {
                Some(x) => at[k] = x as u32,
                None => return self.replaced(dref),
            }
        }
        let v = texel(self.desc, level, layer, at);
        match dref {
            Some(r) => [f64::from(u8::from(compare(self.s.compare_op, r, v[0]))); 4],
            None => v,
        }
    }

    /// A LINEAR or gather tap: on cubes across the faces' edges (Cube Map Edge Handling), a
    /// tap past two edges being the mean of the three texels around the corner (the
    /// spec's recommended value).
    fn seamless_tap(&self, level: u32, layer: u32, i: [i32; 3], dref: Option<f64>) -> [f64; 4] {
        if !self.cube() {
            return self.tap(level, layer, i, dref);
        }
        let size = self.desc.level_extent(level)[0] as i32;
        let (face, first) = (layer % 6, layer - layer % 6);
        let out = |x: i32| !(0..size).contains(&x);
        let inside = |x: i32| x.clamp(0, size - 1);
        let at = |f: u32, c: [i32; 2]| self.tap(level, first + f, [c[0], c[1], 0], dref);
        match (out(i[0]), out(i[1])) {
            (false, false) => at(face, [i[0], i[1]]),
            (true, true) => {
                let (fa, a) = across_edge(face, size, [i[0], inside(i[1])]);
                let (fb, b) = across_edge(face, size, [inside(i[0]), i[1]]);
                let three = [at(face, [inside(i[0]), inside(i[1])]), at(fa, a), at(fb, b)];
                std::array::from_fn(|k| three.iter().map(|v| v[k]).sum::<f64>() / 3.0)
            }
            _ => {
                let (f, c) = across_edge(face, size, [i[0], i[1]]);
                at(f, c)
            }
        }
    }

    /// Texel Replacement with the border colour: the format's components only, the others
    /// from the conversion to RGBA (0, 0, 1).
    fn replaced(&self, dref: Option<f64>) -> [f64; 4] {
        let b = border(self.s.border_color);
        if let Some(r) = dref {
            return [f64::from(u8::from(compare(self.s.compare_op, r, b[0]))); 4];
        }
        let mut out = [0.0, 0.0, 0.0, 1.0];
        for &(c, _, _) in &fmt(self.desc.format).comps {
            out[c] = b[c];
        }
        out
    }

    /// Unnormalized texel-space coordinates at `level`.
    fn texel_space(&self, level: u32, c: [f64; 3]) -> [f64; 3] {
        if self.s.unnormalized_coordinates == vk::TRUE {
            return c;
        }
        let size = self.desc.level_extent(level);
        std::array::from_fn(|k| c[k] * f64::from(size[k]))
    }

    /// Texel Filtering at one level.
    fn filter_level(&self, level: u32, layer: u32, c: [f64; 3], q: &Query) -> [f64; 4] {
        let n = spatial(self.desc.view).min(if self.cube() { 2 } else { 3 });
        let u = self.texel_space(level, c);
        if self.s.min_filter == vk::Filter::NEAREST {
            let i = std::array::from_fn(|k| if k < n { u[k].floor() as i32 + q.offset[k] } else { 0 });
            return self.tap(level, layer, i, q.dref);
        }
        let i0: [i32; 3] = std::array::from_fn(|k| if k < n { (u[k] - 0.5).floor() as i32 + q.offset[k] } else { 0 });
        let w: [f64; 3] = std::array::from_fn(|k| if k < n { (u[k] - 0.5) - (u[k] - 0.5).floor() } else { 0.0 });
        let mut out = [0.0; 4];
        for corner in 0..1 << n {
            let mut weight = 1.0;
            let mut i = i0;
            for k in 0..n {
                let hi = corner >> k & 1 == 1;
                i[k] += i32::from(hi);
                weight *= if hi { w[k] } else { 1.0 - w[k] };
            }
            let t = self.seamless_tap(level, layer, i, q.dref);
            for (o, v) in out.iter_mut().zip(t) {
                *o += weight * v;
            }
        }
        out
    }

    /// `OpImageSampleExplicitLod` (with `Lod`, or the lod of `Grad` given as `q.lod`).
    pub fn sample(&self, q: &Query) -> [f64; 4] {
        let (layer, c) = self.place(q);
        let s = self.s;
        let q_max = f64::from(self.desc.levels - 1);
        let lambda = (q.lod + f64::from(s.mip_lod_bias)).clamp(f64::from(s.min_lod), f64::from(s.max_lod));
        let d = lambda.clamp(0.0, q_max);
        let at = |m: u32| self.filter_level(m, layer, c, q);
        if s.mipmap_mode == vk::SamplerMipmapMode::NEAREST {
            return at(((d + 0.5).ceil() - 1.0).max(0.0) as u32);
        }
        let lo = d.floor();
        let f = d - lo;
        let (a, b) = (at(lo as u32), at((lo as u32 + 1).min(self.desc.levels - 1)));
        std::array::from_fn(|k| a[k] * (1.0 - f) + b[k] * f)
    }

    /// `OpImageGather` / `OpImageDrefGather` of `comp` at level 0, with `q.offset`.
    pub fn gather(&self, q: &Query, comp: usize) -> [f64; 4] {
        let (layer, c) = self.place(q);
        let u = self.texel_space(0, c);
        let i0 = (u[0] - 0.5).floor() as i32 + q.offset[0];
        let j0 = (u[1] - 0.5).floor() as i32 + q.offset[1];
        let g = |di: i32, dj: i32| {
            let t = self.seamless_tap(0, layer, [i0 + di, j0 + dj, 0], q.dref);
            if q.dref.is_some() {
                t[0]
            } else {
                t[comp]
            }
        };
        [g(0, 1), g(1, 1), g(1, 0), g(0, 0)]
    }
}

/// Depth Compare Operation: `reference OP texel`.
pub fn compare(op: vk::CompareOp, r: f64, t: f64) -> bool {
    use vk::CompareOp as C;
    match op {
        C::LESS => r < t,
        C::LESS_OR_EQUAL => r <= t,
        C::GREATER => r > t,
        C::GREATER_OR_EQUAL => r >= t,
        C::EQUAL => r == t,
        C::NOT_EQUAL => r != t,
        C::ALWAYS => true,
        _ => false,
    }
}

/// A sampler of `filter` for both magnification and minification, `mip` mode, `address` in
/// u, v and w, every lod allowed, opaque white border.
pub fn sampler(
    filter: vk::Filter,
    mip: vk::SamplerMipmapMode,
    address: vk::SamplerAddressMode,
) -> vk::SamplerCreateInfo<'static> {
    vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(mip)
        .address_mode_u(address)
        .address_mode_v(address)
        .address_mode_w(address)
        .min_lod(0.0)
        .max_lod(vk::LOD_CLAMP_NONE)
        .border_color(vk::BorderColor::FLOAT_OPAQUE_WHITE)
}
