//! `softnavi-blit [--validate] [--compute-queue]`: vkCmdBlitImage and vkCmdBlitImage2
//! against a CPU reference written from the specification ("Image Blits": the
//! destination texel centre mapped into the source region, NEAREST or LINEAR filtering
//! with CLAMP_TO_EDGE, format conversion on both sides, sRGB decoded before filtering).
//!
//! Cases: a mip chain made level by level from its top (LINEAR, 2D array), mirrored and
//! scaled regions, non-integer reductions with NEAREST, conversions to and from sRGB, to
//! a packed 16-bit format, between integer formats of different widths, 1D arrays, 3D
//! images (trilinear), a 3D slice range into a 2D image and a 2D image into 3D slices,
//! and a BC1 image (uploaded, read back, copied to a size-compatible format, blitted);
//! and vkCmdClearDepthStencilImage on D32_SFLOAT and D16_UNORM levels and layers.
//! Every texel of every image is read back and compared, within the filtering precision
//! Vulkan allows (LINEAR weights may be fixed point).
//!
//! Blits need a graphics queue in Vulkan: with `--validate` the app must run on one (it
//! asks for a compute-only family only with `--compute-queue`, as softnavi has nothing
//! else). Prints one `PASS`/`FAIL` line per case; exit status 0 when every case passes,
//! 1 on a mismatch, 2 on a Vulkan error, 3 on validation messages.

use std::process::ExitCode;

use ash::vk;
use half::f16;
use softnavi_examples::{Context, Error};
use softnavi_tests::app::{self, Report};
use softnavi_tests::image::{
    aspect_barrier, create_image, host_buffer, level_barrier, texel_size, transfer_barrier, ImageDesc,
};

type Res<T> = Result<T, Error>;

/// One blit: source and destination image (indices into the case's images), region, filter.
struct Step {
    src: usize,
    dst: usize,
    region: vk::ImageBlit,
    filter: vk::Filter,
}

struct Case {
    name: &'static str,
    images: Vec<ImageDesc>,
    steps: Vec<Step>,
}

fn hash(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9e37_79b1) ^ (x >> 15);
    x = x.wrapping_mul(0x85eb_ca6b) ^ (x >> 13);
    x ^ (x >> 16)
}

/// Texel values the reference decodes to: floats, or integers held exactly.
type Texel = [f64; 4];

/// Decodes one texel of `f` (missing components 0, alpha 1).
fn decode(f: vk::Format, b: &[u8]) -> Texel {
    use vk::Format as F;
    let u8s = |n: usize| -> Vec<f64> { b[..n].iter().map(|&v| v as f64 / 255.0).collect() };
    let fill =
        |v: Vec<f64>, one: f64| std::array::from_fn(|i| v.get(i).copied().unwrap_or(if i == 3 { one } else { 0.0 }));
    match f {
        F::R8_UNORM => fill(u8s(1), 1.0),
        F::R8G8B8A8_UNORM => fill(u8s(4), 1.0),
        F::B8G8R8A8_UNORM => {
            let v = u8s(4);
            [v[2], v[1], v[0], v[3]]
        }
        F::R8G8B8A8_SRGB => {
            let v = u8s(4);
            [srgb_to_linear(v[0]), srgb_to_linear(v[1]), srgb_to_linear(v[2]), v[3]]
        }
        F::R5G6B5_UNORM_PACK16 => {
            let p = u16::from_le_bytes([b[0], b[1]]) as u32;
            [(p >> 11) as f64 / 31.0, (p >> 5 & 63) as f64 / 63.0, (p & 31) as f64 / 31.0, 1.0]
        }
        F::R32_SFLOAT => fill(vec![f32::from_le_bytes([b[0], b[1], b[2], b[3]]) as f64], 1.0),
        F::R16G16B16A16_SFLOAT => {
            fill((0..4).map(|i| f16::from_le_bytes([b[2 * i], b[2 * i + 1]]).to_f64()).collect(), 1.0)
        }
        F::R32G32B32A32_SFLOAT => fill((0..4).map(|i| f32::from_le_bytes(word(b, i)) as f64).collect(), 1.0),
        F::R32G32B32A32_UINT => fill((0..4).map(|i| u32::from_le_bytes(word(b, i)) as f64).collect(), 1.0),
        F::R8G8B8A8_UINT => fill(b[..4].iter().map(|&v| v as f64).collect(), 1.0),
        F::R16_SINT => fill(vec![i16::from_le_bytes([b[0], b[1]]) as f64], 1.0),
        F::R32_SINT => fill(vec![i32::from_le_bytes(word(b, 0)) as f64], 1.0),
        F::B8G8R8A8_UINT => [b[2], b[1], b[0], b[3]].map(|v| v as f64),
        // Packed: components from the top bit down, as the format's name lists them.
        F::B8G8R8A8_SNORM => [b[2], b[1], b[0], b[3]].map(|v| (v as i8 as f64 / 127.0).max(-1.0)),
        F::A2R10G10B10_UINT_PACK32 => {
            let p = u32::from_le_bytes(word(b, 0));
            [p >> 20 & 1023, p >> 10 & 1023, p & 1023, p >> 30].map(|v| v as f64)
        }
        F::A4R4G4B4_UNORM_PACK16 => {
            let p = u16::from_le_bytes([b[0], b[1]]) as u32;
            let c = |shift: u32| (p >> shift & 15) as f64 / 15.0;
            [c(8), c(4), c(0), c(12)]
        }
        _ => unreachable!("{f:?} is not a format of the cases"), // ok: the case table is fixed
    }
}

fn word(b: &[u8], i: usize) -> [u8; 4] {
    [b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]]
}

/// Encodes a texel into `f` (Vulkan's conversions: round to nearest, clamp for UNORM).
fn encode(f: vk::Format, t: Texel) -> Vec<u8> {
    use vk::Format as F;
    let unorm = |v: f64, max: f64| (v.clamp(0.0, 1.0) * max).round() as u32;
    match f {
        F::R8_UNORM => vec![unorm(t[0], 255.0) as u8],
        F::R8G8B8A8_UNORM => t.iter().map(|&v| unorm(v, 255.0) as u8).collect(),
        F::B8G8R8A8_UNORM => [t[2], t[1], t[0], t[3]].iter().map(|&v| unorm(v, 255.0) as u8).collect(),
        F::R8G8B8A8_SRGB => {
            let e = [linear_to_srgb(t[0]), linear_to_srgb(t[1]), linear_to_srgb(t[2]), t[3]];
            e.iter().map(|&v| unorm(v, 255.0) as u8).collect()
        }
        F::R5G6B5_UNORM_PACK16 => {
            let p = unorm(t[0], 31.0) << 11 | unorm(t[1], 63.0) << 5 | unorm(t[2], 31.0);
            (p as u16).to_le_bytes().to_vec()
        }
        F::R32_SFLOAT => (t[0] as f32).to_le_bytes().to_vec(),
        F::R16G16B16A16_SFLOAT => t.iter().flat_map(|&v| f16::from_f64(v).to_le_bytes()).collect(),
        F::R32G32B32A32_SFLOAT => t.iter().flat_map(|&v| (v as f32).to_le_bytes()).collect(),
        F::R32G32B32A32_UINT => t.iter().flat_map(|&v| (v as u32).to_le_bytes()).collect(),
        F::R8G8B8A8_UINT => t.iter().map(|&v| v as u8).collect(),
        F::R16_SINT => (t[0] as i16).to_le_bytes().to_vec(),
        F::R32_SINT => (t[0] as i32).to_le_bytes().to_vec(),
        F::B8G8R8A8_UINT => [t[2], t[1], t[0], t[3]].iter().map(|&v| v as u8).collect(),
        F::B8G8R8A8_SNORM => {
            [t[2], t[1], t[0], t[3]].iter().map(|&v| (v.clamp(-1.0, 1.0) * 127.0).round() as i8 as u8).collect()
        }
        F::A2R10G10B10_UINT_PACK32 => {
            let c = |v: f64, max: f64| v.clamp(0.0, max) as u32;
            let p = c(t[3], 3.0) << 30 | c(t[0], 1023.0) << 20 | c(t[1], 1023.0) << 10 | c(t[2], 1023.0);
            p.to_le_bytes().to_vec()
        }
        F::A4R4G4B4_UNORM_PACK16 => {
            let p = unorm(t[3], 15.0) << 12 | unorm(t[0], 15.0) << 8 | unorm(t[1], 15.0) << 4 | unorm(t[2], 15.0);
            (p as u16).to_le_bytes().to_vec()
        }
        _ => unreachable!("{f:?} is not a format of the cases"), // ok: the case table is fixed
    }
}

/// Vulkan spec, "sRGB EOTF".
fn srgb_to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn linear_to_srgb(l: f64) -> f64 {
    let l = l.clamp(0.0, 1.0);
    if l <= 0.0031308 {
        l * 12.92
    } else {
        1.055 * l.powf(1.0 / 2.4) - 0.055
    }
}

/// Values every case's images start with: UNORM-range floats, small integers (those the
/// narrowest format of an integer case holds).
fn initial(d: &ImageDesc, seed: u32) -> Vec<u8> {
    let t = texel_size(d.format).unwrap_or(0);
    use vk::Format as F;
    let int =
        matches!(d.format, F::R32G32B32A32_UINT | F::R8G8B8A8_UINT | F::B8G8R8A8_UINT | F::A2R10G10B10_UINT_PACK32);
    let sint = matches!(d.format, F::R16_SINT | F::R32_SINT);
    let snorm = d.format == F::B8G8R8A8_SNORM;
    (0..d.bytes() / t)
        .flat_map(|i| {
            let v: Texel = std::array::from_fn(|c| {
                let h = hash(seed.wrapping_mul(7919).wrapping_add(i as u32 * 4 + c as u32));
                if int {
                    (h % 256) as f64
                } else if sint {
                    (h % 2001) as f64 - 1000.0
                } else if snorm {
                    (h % 2001) as f64 / 1000.0 - 1.0
                } else {
                    (h % 1001) as f64 / 1000.0
                }
            });
            encode(d.format, v)
        })
        .collect()
}

/// The reference: the image contents as texels, per image.
struct Model {
    desc: ImageDesc,
    texels: Vec<Texel>,
}

impl Model {
    fn new(desc: ImageDesc) -> Model {
        let t = texel_size(desc.format).unwrap_or(1);
        let texels = desc.data.chunks_exact(t).map(|b| decode(desc.format, b)).collect();
        Model { desc, texels }
    }
    fn index(&self, level: u32, layer: u32, c: [u32; 3]) -> usize {
        self.desc.offset(level, layer, c) / texel_size(self.desc.format).unwrap_or(1)
    }
    /// Texel at integer coordinates clamped to the level (CLAMP_TO_EDGE).
    fn fetch(&self, level: u32, layer: u32, c: [i64; 3]) -> Texel {
        let e = self.desc.level_extent(level);
        let c = std::array::from_fn(|a| c[a].clamp(0, e[a] as i64 - 1) as u32);
        self.texels[self.index(level, layer, c)]
    }
}

fn three_d(d: &ImageDesc) -> bool {
    d.view == vk::ImageViewType::TYPE_3D
}

/// Samples `m` at texel-space coordinate `u` (x, y, and z for 3D) of `layer`.
fn sample(m: &Model, level: u32, layer: u32, u: [f64; 3], filter: vk::Filter) -> Texel {
    let axes = if three_d(&m.desc) { 3 } else { 2 };
    if filter == vk::Filter::NEAREST {
        let c = std::array::from_fn(|a| if a < axes { u[a].floor() as i64 } else { 0 });
        return m.fetch(level, layer, c);
    }
    let base: [f64; 3] = std::array::from_fn(|a| if a < axes { (u[a] - 0.5).floor() } else { 0.0 });
    let frac: [f64; 3] = std::array::from_fn(|a| if a < axes { u[a] - 0.5 - base[a] } else { 0.0 });
    let mut out = [0.0; 4];
    for corner in 0..(1 << axes) {
        let mut w = 1.0;
        let c: [i64; 3] = std::array::from_fn(|a| {
            let hi = a < axes && corner >> a & 1 == 1;
            if a < axes {
                w *= if hi { frac[a] } else { 1.0 - frac[a] };
            }
            base[a] as i64 + hi as i64
        });
        let t = m.fetch(level, layer, c);
        for k in 0..4 {
            out[k] += w * t[k];
        }
    }
    out
}

/// Applies one blit to the reference (the specification's coordinate transform).
fn reference_blit(models: &mut [Model], s: &Step) {
    let r = &s.region;
    let (so, dof) = (r.src_offsets, r.dst_offsets);
    let at = |o: vk::Offset3D| [o.x as f64, o.y as f64, o.z as f64];
    let (s0, s1, d0, d1) = (at(so[0]), at(so[1]), at(dof[0]), at(dof[1]));
    let (src_3d, dst_3d) = (three_d(&models[s.src].desc), three_d(&models[s.dst].desc));
    let layers = if src_3d || dst_3d { 1 } else { r.dst_subresource.layer_count };
    let lo: [i64; 3] = std::array::from_fn(|a| d0[a].min(d1[a]) as i64);
    let hi: [i64; 3] = std::array::from_fn(|a| d0[a].max(d1[a]) as i64);
    let mut writes = Vec::new();
    for l in 0..layers {
        for z in lo[2]..hi[2] {
            for y in lo[1]..hi[1] {
                for x in lo[0]..hi[0] {
                    let d = [x as f64, y as f64, z as f64];
                    let u: [f64; 3] =
                        std::array::from_fn(|a| s0[a] + (d[a] + 0.5 - d0[a]) * (s1[a] - s0[a]) / (d1[a] - d0[a]));
                    let src_layer = r.src_subresource.base_array_layer + l;
                    let v = sample(&models[s.src], r.src_subresource.mip_level, src_layer, u, s.filter);
                    let dst = &models[s.dst];
                    let v = decode(dst.desc.format, &encode(dst.desc.format, v));
                    let (dl, c) = if dst_3d {
                        (0, [x as u32, y as u32, z as u32])
                    } else {
                        (r.dst_subresource.base_array_layer + l, [x as u32, y as u32, 0])
                    };
                    writes.push((dst.index(r.dst_subresource.mip_level, dl, c), v));
                }
            }
        }
    }
    for (i, v) in writes {
        models[s.dst].texels[i] = v;
    }
}

/// How far a result may be from the reference: a filtered value's fixed-point weights (8
/// fraction bits: 1/256 of the neighbours' spread) plus rounding of the destination.
fn tolerance(f: vk::Format, filter: vk::Filter, reference: f64) -> f64 {
    use vk::Format as F;
    let filtering = if filter == vk::Filter::LINEAR { 1.0 / 256.0 } else { 0.0 };
    let rounding = match f {
        F::R8_UNORM | F::R8G8B8A8_UNORM | F::B8G8R8A8_UNORM | F::R8G8B8A8_SRGB => 1.01 / 255.0,
        F::R5G6B5_UNORM_PACK16 => 1.01 / 31.0,
        F::A4R4G4B4_UNORM_PACK16 => 1.01 / 15.0,
        F::R16G16B16A16_SFLOAT => reference.abs() / 1024.0 + 1e-4,
        F::R32_SFLOAT | F::R32G32B32A32_SFLOAT => reference.abs() * 1e-6 + 1e-6,
        _ => 0.0,
    };
    filtering + rounding
}

fn sub(level: u32, layer: u32, layers: u32) -> vk::ImageSubresourceLayers {
    vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: level,
        base_array_layer: layer,
        layer_count: layers,
    }
}

fn o(x: i32, y: i32, z: i32) -> vk::Offset3D {
    vk::Offset3D { x, y, z }
}

fn step(
    src: usize,
    dst: usize,
    s: (vk::ImageSubresourceLayers, [vk::Offset3D; 2]),
    d: (vk::ImageSubresourceLayers, [vk::Offset3D; 2]),
    filter: vk::Filter,
) -> Step {
    Step {
        src,
        dst,
        region: vk::ImageBlit { src_subresource: s.0, src_offsets: s.1, dst_subresource: d.0, dst_offsets: d.1 },
        filter,
    }
}

fn cases() -> Vec<Case> {
    use vk::{Filter as Fl, Format as F, ImageViewType as V};
    let img = |f, v, e, levels, layers| ImageDesc::new(f, v, e, levels, layers);
    let (lin, near) = (Fl::LINEAR, Fl::NEAREST);
    let mips = img(F::R8G8B8A8_UNORM, V::TYPE_2D_ARRAY, [17, 12, 1], 4, 2);
    let mip_steps = (1..4)
        .map(|m| {
            let [w, h, _] = mips.level_extent(m - 1);
            let [dw, dh, _] = mips.level_extent(m);
            step(
                0,
                0,
                (sub(m - 1, 0, 2), [o(0, 0, 0), o(w as i32, h as i32, 1)]),
                (sub(m, 0, 2), [o(0, 0, 0), o(dw as i32, dh as i32, 1)]),
                lin,
            )
        })
        .collect();
    vec![
        Case { name: "mip_chain_linear", images: vec![mips], steps: mip_steps },
        Case {
            name: "mirrored_scaled_linear",
            images: vec![
                img(F::R32_SFLOAT, V::TYPE_2D, [6, 5, 1], 1, 1),
                img(F::R32_SFLOAT, V::TYPE_2D, [9, 8, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(6, 5, 1)]),
                (sub(0, 0, 1), [o(8, 7, 0), o(1, 0, 1)]),
                lin,
            )],
        },
        Case {
            name: "reduction_by_three_nearest",
            images: vec![
                img(F::R16G16B16A16_SFLOAT, V::TYPE_2D, [9, 6, 1], 1, 1),
                img(F::R16G16B16A16_SFLOAT, V::TYPE_2D, [5, 4, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(9, 0, 0), o(0, 6, 1)]),
                (sub(0, 0, 1), [o(1, 1, 0), o(4, 3, 1)]),
                near,
            )],
        },
        Case {
            name: "unorm_to_srgb_linear",
            images: vec![
                img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 1, 1),
                img(F::R8G8B8A8_SRGB, V::TYPE_2D, [4, 4, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(8, 8, 1)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 4, 1)]),
                lin,
            )],
        },
        Case {
            name: "srgb_to_float_upscale_linear",
            images: vec![
                img(F::R8G8B8A8_SRGB, V::TYPE_2D, [4, 4, 1], 1, 1),
                img(F::R32G32B32A32_SFLOAT, V::TYPE_2D, [7, 6, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 4, 1)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(7, 6, 1)]),
                lin,
            )],
        },
        Case {
            name: "bgra_to_r5g6b5_linear",
            images: vec![
                img(F::B8G8R8A8_UNORM, V::TYPE_2D, [6, 6, 1], 1, 1),
                img(F::R5G6B5_UNORM_PACK16, V::TYPE_2D, [3, 3, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(6, 6, 1)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(3, 3, 1)]),
                lin,
            )],
        },
        Case {
            name: "bgra_snorm_to_a4r4g4b4_linear",
            images: vec![
                img(F::B8G8R8A8_SNORM, V::TYPE_2D, [7, 5, 1], 1, 1),
                img(F::A4R4G4B4_UNORM_PACK16, V::TYPE_2D, [4, 3, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(7, 5, 1)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 3, 1)]),
                lin,
            )],
        },
        Case {
            name: "a2r10g10b10_uint_to_bgra_uint_mirrored_nearest",
            images: vec![
                img(F::A2R10G10B10_UINT_PACK32, V::TYPE_2D, [5, 4, 1], 1, 1),
                img(F::B8G8R8A8_UINT, V::TYPE_2D, [5, 4, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(5, 4, 1)]),
                (sub(0, 0, 1), [o(5, 4, 0), o(0, 0, 1)]),
                near,
            )],
        },
        Case {
            name: "uint_narrowing_mirrored_nearest",
            images: vec![
                img(F::R32G32B32A32_UINT, V::TYPE_2D, [6, 3, 1], 1, 1),
                img(F::R8G8B8A8_UINT, V::TYPE_2D, [4, 2, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(6, 3, 1)]),
                (sub(0, 0, 1), [o(3, 0, 0), o(1, 1, 1)]),
                near,
            )],
        },
        Case {
            name: "sint_1d_array_layers_nearest",
            images: vec![
                img(F::R16_SINT, V::TYPE_1D_ARRAY, [12, 1, 1], 1, 4),
                img(F::R32_SINT, V::TYPE_1D_ARRAY, [5, 1, 1], 1, 3),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 1, 3), [o(0, 0, 0), o(12, 1, 1)]),
                (sub(0, 0, 3), [o(1, 0, 0), o(5, 1, 1)]),
                near,
            )],
        },
        Case {
            name: "3d_trilinear",
            images: vec![img(F::R8_UNORM, V::TYPE_3D, [8, 8, 4], 1, 1), img(F::R8_UNORM, V::TYPE_3D, [4, 4, 2], 1, 1)],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(8, 8, 4)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 4, 2)]),
                lin,
            )],
        },
        Case {
            name: "3d_slices_to_2d_linear",
            images: vec![
                img(F::R32_SFLOAT, V::TYPE_3D, [4, 4, 4], 1, 1),
                img(F::R32_SFLOAT, V::TYPE_2D, [4, 4, 1], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 1), o(4, 4, 3)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 4, 1)]),
                lin,
            )],
        },
        // Slices 0 and 1 of 3 (lavapipe 22.3 writes slice 0 only: tests/tests/blit.rs).
        Case {
            name: "2d_to_3d_slices_nearest",
            images: vec![
                img(F::R8G8B8A8_UNORM, V::TYPE_2D, [4, 4, 1], 1, 1),
                img(F::R8G8B8A8_UNORM, V::TYPE_3D, [4, 4, 3], 1, 1),
            ],
            steps: vec![step(
                0,
                1,
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 4, 1)]),
                (sub(0, 0, 1), [o(0, 0, 0), o(4, 4, 2)]),
                near,
            )],
        },
    ]
}

/// Runs one case: uploads, blits (a barrier after each), reads every image back and
/// compares each texel with the reference. `Ok(Err(why))` on a mismatch.
fn run_case(ctx: &Context, case: &Case, blit2: bool) -> Res<Result<(), String>> {
    let descs: Vec<ImageDesc> =
        case.images.iter().enumerate().map(|(i, d)| d.clone().with(initial(d, 11 + i as u32))).collect();
    let mut models: Vec<Model> = descs.iter().cloned().map(Model::new).collect();
    for s in &case.steps {
        reference_blit(&mut models, s);
    }
    let images = descs.iter().map(|d| create_image(ctx, d)).collect::<Res<Vec<_>>>()?;
    let uploads = descs.iter().map(|d| host_buffer(ctx, "upload", &d.data)).collect::<Res<Vec<_>>>()?;
    let downloads = descs.iter().map(|d| host_buffer(ctx, "download", &vec![0; d.bytes()])).collect::<Res<Vec<_>>>()?;
    let dev = ctx.device();
    let (src_l, dst_l) = (vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
    ctx.submit_and_wait(|cmd| {
        let all = |old, new| images.iter().map(|i| (i.image, old, new)).collect::<Vec<_>>();
        transfer_barrier(ctx, cmd, &all(vk::ImageLayout::UNDEFINED, dst_l));
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            for ((img, buf), d) in images.iter().zip(&uploads).zip(&descs) {
                dev.cmd_copy_buffer_to_image(cmd, buf.handle(), img.image, dst_l, &d.regions());
            }
            transfer_barrier(ctx, cmd, &all(dst_l, dst_l));
            for s in &case.steps {
                let (src, dst) = (images[s.src].image, images[s.dst].image);
                // The source level alone goes to TRANSFER_SRC (a mip chain reads one level of
                // the image it writes).
                level_barrier(ctx, cmd, src, s.region.src_subresource.mip_level, (dst_l, src_l));
                record_blit(dev, cmd, (src, dst), s, blit2);
                level_barrier(ctx, cmd, src, s.region.src_subresource.mip_level, (src_l, dst_l));
            }
            transfer_barrier(ctx, cmd, &all(dst_l, src_l));
            for ((img, buf), d) in images.iter().zip(&downloads).zip(&descs) {
                dev.cmd_copy_image_to_buffer(cmd, img.image, src_l, buf.handle(), &d.regions());
            }
            transfer_barrier(ctx, cmd, &[]);
        }
        Ok(())
    })?;
    for (i, (m, buf)) in models.iter().zip(&downloads).enumerate() {
        let got = buf.read::<u8>(m.desc.bytes())?;
        if let Some(why) = compare(m, &got, case) {
            return Ok(Err(format!("image {i}: {why}")));
        }
    }
    Ok(Ok(()))
}

/// Records step `s` as vkCmdBlitImage or vkCmdBlitImage2.
///
/// # Safety
/// Recording into `cmd`; both images live until the submission completes.
unsafe fn record_blit(
    dev: &ash::Device,
    cmd: vk::CommandBuffer,
    (src, dst): (vk::Image, vk::Image),
    s: &Step,
    blit2: bool,
) {
    let (src_l, dst_l) = (vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
    let r = s.region;
    if !blit2 {
        // SAFETY: by the caller's contract.
        return unsafe { dev.cmd_blit_image(cmd, src, src_l, dst, dst_l, &[r], s.filter) };
    }
    let regions = [vk::ImageBlit2::default()
        .src_subresource(r.src_subresource)
        .src_offsets(r.src_offsets)
        .dst_subresource(r.dst_subresource)
        .dst_offsets(r.dst_offsets)];
    let info = vk::BlitImageInfo2::default()
        .src_image(src)
        .src_image_layout(src_l)
        .dst_image(dst)
        .dst_image_layout(dst_l)
        .regions(&regions)
        .filter(s.filter);
    // SAFETY: by the caller's contract.
    unsafe { dev.cmd_blit_image2(cmd, &info) };
}

/// The first texel of `got` (image `m`'s read-back) out of tolerance, described.
fn compare(m: &Model, got: &[u8], case: &Case) -> Option<String> {
    let f = m.desc.format;
    let filter = if case.steps.iter().any(|s| s.filter == vk::Filter::LINEAR) {
        vk::Filter::LINEAR
    } else {
        vk::Filter::NEAREST
    };
    let t = texel_size(f).unwrap_or(1);
    for (k, (b, want)) in got.chunks_exact(t).zip(&m.texels).enumerate() {
        let have = decode(f, b);
        let bad = (0..4).find(|&c| (have[c] - want[c]).abs() > tolerance(f, filter, want[c]));
        if let Some(c) = bad {
            return Some(format!("texel {k} component {c}: {} (reference {})", have[c], want[c]));
        }
    }
    None
}

/// The BC1 blocks of [`bc1_case`]: (c0, c1, index bits) of blocks (0, 0), (1, 0), (0, 1),
/// (1, 1) of an 8×8 image: four-colour blocks (c0 > c1) and a three-colour one with
/// transparent black (c0 ≤ c1).
const BC1_BLOCKS: [(u16, u16, u32); 4] = [
    (0xf800, 0x001f, 0xe4e4_e4e4),
    (0x07e0, 0x0000, 0x1b1b_1b1b),
    (0x001f, 0xffe0, 0xe4e4_e4e4),
    (0x8410, 0x0010, 0x3210_0123),
];

/// Microsoft's BC1 decoding (Vulkan's "BC1 RGBA"), in exact fractions: RGB565 endpoints,
/// with c0 > c1 the colours c0, c1, (2·c0 + c1)/3, (c0 + 2·c1)/3, else c0, c1, (c0 + c1)/2
/// and transparent black.
fn bc1_texel(x: u32, y: u32) -> Texel {
    let (c0, c1, bits) = BC1_BLOCKS[(x / 4 + 2 * (y / 4)) as usize];
    let rgb = |c: u16| [(c >> 11) as f64 / 31.0, (c >> 5 & 63) as f64 / 63.0, (c & 31) as f64 / 31.0];
    let (a, b) = (rgb(c0), rgb(c1));
    let index = bits >> (2 * ((y % 4) * 4 + x % 4)) & 3;
    let mix = |wa: f64, wb: f64| [0, 1, 2].map(|k| wa * a[k] + wb * b[k]);
    let c = match (c0 > c1, index) {
        (_, 0) => a,
        (_, 1) => b,
        (true, 2) => mix(2.0 / 3.0, 1.0 / 3.0),
        (true, _) => mix(1.0 / 3.0, 2.0 / 3.0),
        (false, 2) => mix(0.5, 0.5),
        (false, _) => return [0.0; 4],
    };
    [c[0], c[1], c[2], 1.0]
}

/// A block-compressed source: BC1 blocks uploaded to an 8×8 BC1_RGBA_UNORM image, read
/// back whole (the blocks unchanged), copied to a 2×2 R32G32_UINT image (a block per texel,
/// Vulkan's size-compatible copy) and blitted 1:1 (NEAREST) to R8G8B8A8_UNORM, which the
/// spec's BC1 decoding predicts.
fn bc1_case(ctx: &Context) -> Res<Result<(), String>> {
    use vk::{Format as F, ImageViewType as V};
    let blocks: Vec<u8> = BC1_BLOCKS
        .iter()
        .flat_map(|&(c0, c1, bits)| [c0.to_le_bytes(), c1.to_le_bytes()].concat().into_iter().chain(bits.to_le_bytes()))
        .collect();
    let bc = ImageDesc::new(F::BC1_RGBA_UNORM_BLOCK, V::TYPE_2D, [8, 8, 1], 1, 1);
    let raw = ImageDesc::new(F::R32G32_UINT, V::TYPE_2D, [2, 2, 1], 1, 1);
    let rgba = ImageDesc::new(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 1, 1);
    let images = [&bc, &raw, &rgba].map(|d| create_image(ctx, d));
    let [bc_img, raw_img, rgba_img] = images;
    let (bc_img, raw_img, rgba_img) = (bc_img?, raw_img?, rgba_img?);
    let upload = host_buffer(ctx, "blocks", &blocks)?;
    let outs = [32, 32, 256].map(|n| host_buffer(ctx, "download", &vec![0; n]));
    let [out_bc, out_raw, out_rgba] = outs;
    let (out_bc, out_raw, out_rgba) = (out_bc?, out_raw?, out_rgba?);
    let region = |w: u32, h: u32| {
        vk::BufferImageCopy::default().image_subresource(sub(0, 0, 1)).image_extent(vk::Extent3D {
            width: w,
            height: h,
            depth: 1,
        })
    };
    let (src_l, dst_l) = (vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
    let dev = ctx.device();
    let (bi, ri, gi) = (bc_img.image, raw_img.image, rgba_img.image);
    ctx.submit_and_wait(|cmd| {
        let undef = vk::ImageLayout::UNDEFINED;
        transfer_barrier(ctx, cmd, &[(bi, undef, dst_l), (ri, undef, dst_l), (gi, undef, dst_l)]);
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            dev.cmd_copy_buffer_to_image(cmd, upload.handle(), bi, dst_l, &[region(8, 8)]);
            transfer_barrier(ctx, cmd, &[(bi, dst_l, src_l)]);
            let copy = vk::ImageCopy::default()
                .src_subresource(sub(0, 0, 1))
                .dst_subresource(sub(0, 0, 1))
                .extent(vk::Extent3D { width: 8, height: 8, depth: 1 });
            dev.cmd_copy_image(cmd, bi, src_l, ri, dst_l, &[copy]);
            let whole = [o(0, 0, 0), o(8, 8, 1)];
            let blit = vk::ImageBlit {
                src_subresource: sub(0, 0, 1),
                src_offsets: whole,
                dst_subresource: sub(0, 0, 1),
                dst_offsets: whole,
            };
            dev.cmd_blit_image(cmd, bi, src_l, gi, dst_l, &[blit], vk::Filter::NEAREST);
            transfer_barrier(ctx, cmd, &[(ri, dst_l, src_l), (gi, dst_l, src_l)]);
            dev.cmd_copy_image_to_buffer(cmd, bi, src_l, out_bc.handle(), &[region(8, 8)]);
            dev.cmd_copy_image_to_buffer(cmd, ri, src_l, out_raw.handle(), &[region(2, 2)]);
            dev.cmd_copy_image_to_buffer(cmd, gi, src_l, out_rgba.handle(), &[region(8, 8)]);
            transfer_barrier(ctx, cmd, &[]);
        }
        Ok(())
    })?;
    if out_bc.read::<u8>(32)? != blocks {
        return Ok(Err("the BC1 image read back differs from the uploaded blocks".into()));
    }
    if out_raw.read::<u8>(32)? != blocks {
        return Ok(Err("the R32G32_UINT copy of the BC1 image differs from its blocks".into()));
    }
    let got = out_rgba.read::<u8>(256)?;
    for (k, texel) in got.chunks_exact(4).enumerate() {
        let (x, y) = (k as u32 % 8, k as u32 / 8);
        let (have, want) = (decode(F::R8G8B8A8_UNORM, texel), bc1_texel(x, y));
        if let Some(c) = (0..4).find(|&c| (have[c] - want[c]).abs() > 2.01 / 255.0) {
            return Ok(Err(format!("texel ({x}, {y}) component {c}: {} (BC1 decodes to {})", have[c], want[c])));
        }
    }
    Ok(Ok(()))
}

/// vkCmdClearDepthStencilImage (a graphics-queue transfer command, like blits): a D32_SFLOAT
/// 2D array with two levels gets level 1 of layer 1 cleared to 0.375, a D16_UNORM image all
/// of it to 0.6 (UNORM: round(0.6 × 65535)); everything is read back and compared with the
/// initial texels and the clears.
fn depth_clear_case(ctx: &Context) -> Res<Result<(), String>> {
    use vk::{Format as F, ImageViewType as V};
    let d32 = ImageDesc::new(F::D32_SFLOAT, V::TYPE_2D_ARRAY, [5, 3, 1], 2, 2);
    let d16 = ImageDesc::new(F::D16_UNORM, V::TYPE_2D, [7, 2, 1], 1, 1);
    let descs: Vec<ImageDesc> = [d32, d16]
        .into_iter()
        .enumerate()
        .map(|(k, d)| {
            let n = d.bytes() / texel_size(d.format).unwrap_or(1);
            let texels: Vec<u8> = (0..n as u32)
                .flat_map(|i| {
                    let v = (hash(i * 3 + k as u32) % 1000) as f32 / 1000.0;
                    if d.format == F::D32_SFLOAT {
                        v.to_le_bytes().to_vec()
                    } else {
                        ((v * 65535.0) as u16).to_le_bytes().to_vec()
                    }
                })
                .collect();
            d.with(texels)
        })
        .collect();
    let mut want: Vec<Vec<u8>> = descs.iter().map(|d| d.data.clone()).collect();
    let [w, h, _] = descs[0].level_extent(1);
    for y in 0..h {
        for x in 0..w {
            let o = descs[0].offset(1, 1, [x, y, 0]);
            want[0][o..o + 4].copy_from_slice(&0.375f32.to_le_bytes());
        }
    }
    let d16 = ((0.6f64 * 65535.0).round() as u16).to_le_bytes();
    want[1].chunks_exact_mut(2).for_each(|t| t.copy_from_slice(&d16));
    let images = descs.iter().map(|d| create_image(ctx, d)).collect::<Res<Vec<_>>>()?;
    let uploads = descs.iter().map(|d| host_buffer(ctx, "upload", &d.data)).collect::<Res<Vec<_>>>()?;
    let downloads = descs.iter().map(|d| host_buffer(ctx, "download", &vec![0; d.bytes()])).collect::<Res<Vec<_>>>()?;
    let (dev, dst_l, src_l) =
        (ctx.device(), vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
    const DEPTH: vk::ImageAspectFlags = vk::ImageAspectFlags::DEPTH;
    let range = |level, layer| vk::ImageSubresourceRange {
        aspect_mask: DEPTH,
        base_mip_level: level,
        level_count: 1,
        base_array_layer: layer,
        layer_count: 1,
    };
    ctx.submit_and_wait(|cmd| {
        let all = |old, new| images.iter().map(|i| (i.image, old, new)).collect::<Vec<_>>();
        aspect_barrier(ctx, cmd, &all(vk::ImageLayout::UNDEFINED, dst_l), DEPTH);
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            for ((img, buf), d) in images.iter().zip(&uploads).zip(&descs) {
                dev.cmd_copy_buffer_to_image(cmd, buf.handle(), img.image, dst_l, &d.regions());
            }
            aspect_barrier(ctx, cmd, &all(dst_l, dst_l), DEPTH);
            let (a, b) = (
                vk::ClearDepthStencilValue { depth: 0.375, stencil: 0 },
                vk::ClearDepthStencilValue { depth: 0.6, stencil: 0 },
            );
            dev.cmd_clear_depth_stencil_image(cmd, images[0].image, dst_l, &a, &[range(1, 1)]);
            dev.cmd_clear_depth_stencil_image(cmd, images[1].image, dst_l, &b, &[range(0, 0)]);
            aspect_barrier(ctx, cmd, &all(dst_l, src_l), DEPTH);
            for ((img, buf), d) in images.iter().zip(&downloads).zip(&descs) {
                dev.cmd_copy_image_to_buffer(cmd, img.image, src_l, buf.handle(), &d.regions());
            }
            aspect_barrier(ctx, cmd, &[], DEPTH);
        }
        Ok(())
    })?;
    for (k, (buf, want)) in downloads.iter().zip(&want).enumerate() {
        let got = buf.read::<u8>(want.len())?;
        if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
            return Ok(Err(format!(
                "image {k} ({:?}) byte {i}: {:#x}, expected {:#x}",
                descs[k].format, got[i], want[i]
            )));
        }
    }
    Ok(Ok(()))
}

/// A D32_SFLOAT_S8_UINT image (Vulkan's required depth/stencil attachment format on
/// softnavi, as on RDNA3): depth and stencil uploaded from buffers in their aspects' own
/// layouts (4-byte floats, 1-byte stencil: the spec's "Depth/stencil formats" copy rule),
/// the depth of one level and layer and the stencil of another cleared by
/// vkCmdClearDepthStencilImage, both aspects copied into a second image by one region,
/// and each aspect read back from it: each holds its own values, untouched by the other
/// aspect's clear.
fn d32s8_case(ctx: &Context) -> Res<Result<(), String>> {
    use vk::{Format as F, ImageAspectFlags as A, ImageViewType as V};
    let shape = |f| ImageDesc::new(f, V::TYPE_2D_ARRAY, [6, 3, 1], 2, 2);
    let (dd, sd) = (shape(F::D32_SFLOAT), shape(F::S8_UINT));
    let depth: Vec<u8> =
        (0..dd.bytes() as u32 / 4).flat_map(|i| ((hash(i) % 1000) as f32 / 1000.0).to_le_bytes()).collect();
    let stencil: Vec<u8> = (0..sd.bytes() as u32).map(|i| hash(i + 77) as u8).collect();
    let (mut want_d, mut want_s) = (depth.clone(), stencil.clone());
    for (desc, want, level, layer, texel) in
        [(&dd, &mut want_d, 1, 1, 0.625f32.to_le_bytes().to_vec()), (&sd, &mut want_s, 0, 0, vec![0xa5])]
    {
        let [w, h, _] = desc.level_extent(level);
        for (x, y) in (0..h).flat_map(|y| (0..w).map(move |x| (x, y))) {
            let o = desc.offset(level, layer, [x, y, 0]);
            want[o..o + texel.len()].copy_from_slice(&texel);
        }
    }
    let aspect = |regions: Vec<vk::BufferImageCopy>, aspect_mask| -> Vec<vk::BufferImageCopy> {
        regions
            .into_iter()
            .map(|r| vk::BufferImageCopy {
                image_subresource: vk::ImageSubresourceLayers { aspect_mask, ..r.image_subresource },
                ..r
            })
            .collect()
    };
    let (rd, rs) = (aspect(dd.regions(), A::DEPTH), aspect(sd.regions(), A::STENCIL));
    let ds = shape(F::D32_SFLOAT_S8_UINT);
    let (a, b) = (create_image(ctx, &ds)?, create_image(ctx, &ds)?);
    let (up_d, up_s) = (host_buffer(ctx, "depth", &depth)?, host_buffer(ctx, "stencil", &stencil)?);
    let (down_d, down_s) = (
        host_buffer(ctx, "depth out", &vec![0; depth.len()])?,
        host_buffer(ctx, "stencil out", &vec![0; stencil.len()])?,
    );
    let (dev, dst_l, src_l) =
        (ctx.device(), vk::ImageLayout::TRANSFER_DST_OPTIMAL, vk::ImageLayout::TRANSFER_SRC_OPTIMAL);
    let both = A::DEPTH | A::STENCIL;
    let range = |aspect_mask, base_mip_level, base_array_layer| vk::ImageSubresourceRange {
        aspect_mask,
        base_mip_level,
        level_count: 1,
        base_array_layer,
        layer_count: 1,
    };
    let layers =
        |mip_level| vk::ImageSubresourceLayers { aspect_mask: both, mip_level, base_array_layer: 0, layer_count: 2 };
    let copies: Vec<vk::ImageCopy> = (0..2)
        .map(|m| {
            let [width, height, depth] = ds.level_extent(m);
            vk::ImageCopy::default().src_subresource(layers(m)).dst_subresource(layers(m)).extent(vk::Extent3D {
                width,
                height,
                depth,
            })
        })
        .collect();
    ctx.submit_and_wait(|cmd| {
        let undefined = vk::ImageLayout::UNDEFINED;
        aspect_barrier(ctx, cmd, &[(a.image, undefined, dst_l), (b.image, undefined, dst_l)], both);
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            dev.cmd_copy_buffer_to_image(cmd, up_d.handle(), a.image, dst_l, &rd);
            dev.cmd_copy_buffer_to_image(cmd, up_s.handle(), a.image, dst_l, &rs);
            aspect_barrier(ctx, cmd, &[(a.image, dst_l, dst_l)], both);
            let v = vk::ClearDepthStencilValue { depth: 0.625, stencil: 0xa5 };
            dev.cmd_clear_depth_stencil_image(
                cmd,
                a.image,
                dst_l,
                &v,
                &[range(A::DEPTH, 1, 1), range(A::STENCIL, 0, 0)],
            );
            aspect_barrier(ctx, cmd, &[(a.image, dst_l, src_l)], both);
            dev.cmd_copy_image(cmd, a.image, src_l, b.image, dst_l, &copies);
            aspect_barrier(ctx, cmd, &[(b.image, dst_l, src_l)], both);
            dev.cmd_copy_image_to_buffer(cmd, b.image, src_l, down_d.handle(), &rd);
            dev.cmd_copy_image_to_buffer(cmd, b.image, src_l, down_s.handle(), &rs);
            aspect_barrier(ctx, cmd, &[], both);
        }
        Ok(())
    })?;
    for (name, buf, want) in [("depth", &down_d, &want_d), ("stencil", &down_s, &want_s)] {
        let got = buf.read::<u8>(want.len())?;
        if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
            return Ok(Err(format!("{name} byte {i}: {:#x}, expected {:#x}", got[i], want[i])));
        }
    }
    Ok(Ok(()))
}

fn main() -> ExitCode {
    let ctx = match app::context("softnavi-blit", std::env::args().any(|a| a == "--compute-queue")) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut report = Report::default();
    for case in cases() {
        for blit2 in [false, true] {
            let name = format!("{}{}", case.name, if blit2 { " (vkCmdBlitImage2)" } else { "" });
            report.case(&name, run_case(&ctx, &case, blit2));
        }
    }
    report.case("bc1_copies_and_blit", bc1_case(&ctx));
    report.case("depth_clears", depth_clear_case(&ctx));
    report.case("d32s8_planes", d32s8_case(&ctx));
    report.finish(&ctx)
}
