//! Cases of `tests/spirv/images/`: storage images (loads and stores in many formats, every
//! dimensionality, formats left out of the shader, atomics) and sampled images (explicit
//! lod with every filter, mip mode and address mode, offsets, gradients, MinLod, fetches,
//! queries, depth compares, gathers, cubes, arrays, 3D, separate, immutable and arrays of
//! samplers, sRGB, unnormalized coordinates), against the CPU references of [`texref`].
//!
//! Tolerances. The spec lets an implementation quantise the filter weights to
//! `subTexelPrecisionBits` and the lod fraction to `mipmapPrecisionBits` (both at least 4),
//! so every coordinate is chosen such that `frac(u * size - 0.5)` at each level used is a
//! multiple of 1/16 and every lod (or log2 of a gradient) a multiple of 1/16: all weights
//! are then exact. What is left is the filter's arithmetic: [`FILTERED_8`] (1/128) for
//! 8-bit and 10-bit normalized texels (a few ulps of 8 bits: implementations may filter
//! them in fixed point; lavapipe does), [`FILTERED_F`] for float texels (at most 16
//! products of exact values below 8 in fp32: under 2^-17 each). NEAREST coordinates keep
//! `frac(u * size)` in [1/8, 7/8] at every level and NEAREST mip lods away from x.5, so
//! that no rounding picks another texel. Unfiltered results (fetches, gathers, NEAREST)
//! are exact but for the unorm-to-float division (1e-6) and sRGB decoding ([`SRGB`]).
//! Stores of normalized values may be off by one code: the spec's float-to-unorm/snorm
//! conversion returns "one of the two closest" codes (rounding to nearest is a "should").

use ash::vk;
use softnavi_examples::Context;
use softnavi_tests::check::bytes;
use softnavi_tests::image::{is_depth, ImageDesc};
use vk::{Filter as Fl, Format as F, ImageViewType as V, SamplerAddressMode as A, SamplerMipmapMode as M};

use crate::harness::{Case, Feature, Need, Output};
use crate::texref::{self, cube_face, direction, hash, sampler, Query, Sampled};

/// Invocations of the sampling cases (one workgroup).
const N: usize = 64;
/// Filtered 8- and 10-bit normalized texels (see the module doc).
const FILTERED_8: f64 = 1.0 / 128.0;
/// Filtered float texels.
const FILTERED_F: f64 = 1e-5;
/// Unfiltered normalized texels (the unorm-to-float division).
const EXACT: f64 = 1e-6;
/// Unfiltered sRGB texels: the least power of two lavapipe passes with (its 8-bit sRGB
/// decode is off by up to 0.0012).
const SRGB: f64 = 1.0 / 512.0;

const TYPES: [vk::DescriptorType; 4] = [
    vk::DescriptorType::STORAGE_IMAGE,
    vk::DescriptorType::SAMPLED_IMAGE,
    vk::DescriptorType::COMBINED_IMAGE_SAMPLER,
    vk::DescriptorType::SAMPLER,
];

// ---- skipping -------------------------------------------------------------------------------

/// Why the device cannot run `case`'s images, found through the Vulkan API: a device
/// feature, a format feature, an image the device cannot create, or a depth image on a
/// queue without GRAPHICS (nothing valid fills one there: copies to a depth aspect need
/// GRAPHICS, VUID-vkCmdCopyBufferToImage-commandBuffer-07739).
pub fn skip_reason(ctx: &Context, case: &Case) -> Option<String> {
    let mut needs = case.needs.clone();
    for b in &case.images {
        needs.extend(implied_needs(b.ty, &b.images, &b.samplers));
    }
    for n in &needs {
        let missing = match *n {
            Need::Device(f) => !device_feature(ctx, f),
            Need::Format(format, f) => !format_features(ctx, format).contains(f),
            _ => false,
        };
        if missing {
            return Some(format!("device lacks {n:?}"));
        }
    }
    for desc in case.images.iter().flat_map(|b| b.images.iter().map(move |d| (b.ty, d))) {
        if let Some(why) = image_unsupported(ctx, desc.0, desc.1) {
            return Some(why);
        }
    }
    None
}

/// What an image binding needs of the device by itself.
fn implied_needs(ty: vk::DescriptorType, images: &[ImageDesc], samplers: &[vk::SamplerCreateInfo<'_>]) -> Vec<Need> {
    use vk::FormatFeatureFlags2 as FF;
    let mut out = Vec::new();
    for (k, d) in images.iter().enumerate() {
        let s = samplers.get(k);
        out.push(Need::Format(d.format, if ty == TYPES[0] { FF::STORAGE_IMAGE } else { FF::SAMPLED_IMAGE }));
        let linear = s.is_some_and(|s| s.min_filter == Fl::LINEAR || s.mipmap_mode == M::LINEAR);
        if s.is_some_and(|s| s.compare_enable == vk::TRUE) {
            out.push(Need::Format(d.format, FF::SAMPLED_IMAGE_DEPTH_COMPARISON));
        } else if linear {
            out.push(Need::Format(d.format, FF::SAMPLED_IMAGE_FILTER_LINEAR));
        }
        if d.view == V::CUBE_ARRAY {
            out.push(Need::Device(Feature::ImageCubeArray));
        }
    }
    for s in samplers {
        if [s.address_mode_u, s.address_mode_v, s.address_mode_w].contains(&A::MIRROR_CLAMP_TO_EDGE) {
            out.push(Need::Device(Feature::SamplerMirrorClampToEdge));
        }
    }
    out
}

/// Whether a device feature is supported (the context enables every supported one).
pub fn device_feature(ctx: &Context, f: Feature) -> bool {
    let mut v12 = vk::PhysicalDeviceVulkan12Features::default();
    let core12 = ctx.api_version() >= vk::API_VERSION_1_2 && ctx.properties().api_version >= vk::API_VERSION_1_2;
    let mut f2 = vk::PhysicalDeviceFeatures2::default();
    if core12 {
        f2 = f2.push_next(&mut v12);
    }
    // SAFETY: a plain query; the chain holds a Vulkan 1.2 structure only on 1.2.
    unsafe { ctx.instance().get_physical_device_features2(ctx.physical_device(), &mut f2) };
    let c = f2.features;
    let on = |b: vk::Bool32| b == vk::TRUE;
    match f {
        Feature::ImageCubeArray => on(c.image_cube_array),
        Feature::StorageImageReadWithoutFormat => on(c.shader_storage_image_read_without_format),
        Feature::StorageImageWriteWithoutFormat => on(c.shader_storage_image_write_without_format),
        Feature::StorageImageExtendedFormats => on(c.shader_storage_image_extended_formats),
        Feature::ImageGatherExtended => on(c.shader_image_gather_extended),
        Feature::ResourceMinLod => on(c.shader_resource_min_lod),
        Feature::SampledImageArrayDynamicIndexing => on(c.shader_sampled_image_array_dynamic_indexing),
        Feature::StorageImageArrayDynamicIndexing => on(c.shader_storage_image_array_dynamic_indexing),
        Feature::SampledImageArrayNonUniformIndexing => {
            core12 && on(v12.shader_sampled_image_array_non_uniform_indexing)
        }
        Feature::SamplerMirrorClampToEdge => core12 && on(v12.sampler_mirror_clamp_to_edge),
    }
}

/// Optimal-tiling features of `format` (VkFormatProperties3 on Vulkan 1.3).
fn format_features(ctx: &Context, format: vk::Format) -> vk::FormatFeatureFlags2 {
    let mut p3 = vk::FormatProperties3::default();
    let mut p2 = vk::FormatProperties2::default().push_next(&mut p3);
    // SAFETY: a plain query (FormatProperties3 is ignored before 1.3).
    unsafe { ctx.instance().get_physical_device_format_properties2(ctx.physical_device(), format, &mut p2) };
    let legacy = vk::FormatFeatureFlags2::from_raw(u64::from(p2.format_properties.optimal_tiling_features.as_raw()));
    if ctx.api_version() >= vk::API_VERSION_1_3 {
        p3.optimal_tiling_features
    } else {
        legacy
    }
}

/// Why the device cannot make this image for this descriptor, if it cannot.
fn image_unsupported(ctx: &Context, ty: vk::DescriptorType, d: &ImageDesc) -> Option<String> {
    let usage = vk::ImageUsageFlags::TRANSFER_SRC
        | vk::ImageUsageFlags::TRANSFER_DST
        | if ty == TYPES[0] { vk::ImageUsageFlags::STORAGE } else { vk::ImageUsageFlags::SAMPLED };
    // SAFETY: a plain query.
    let p = unsafe {
        ctx.instance().get_physical_device_image_format_properties(
            ctx.physical_device(),
            d.format,
            d.image_type(),
            vk::ImageTiling::OPTIMAL,
            usage,
            d.flags(),
        )
    };
    let p = match p {
        Ok(p) => p,
        Err(e) => return Some(format!("{:?} {:?} images: {e:?}", d.format, d.image_type())),
    };
    let e = p.max_extent;
    if d.extent[0] > e.width || d.extent[1] > e.height || d.extent[2] > e.depth {
        return Some(format!("{:?} images of {:?} exceed {e:?}", d.format, d.extent));
    }
    if d.levels > p.max_mip_levels || d.layers > p.max_array_layers {
        return Some(format!("{:?} images of {} levels, {} layers exceed the limits", d.format, d.levels, d.layers));
    }
    // SAFETY: a plain query.
    let families = unsafe { ctx.instance().get_physical_device_queue_family_properties(ctx.physical_device()) };
    let graphics = families[ctx.queue_family_index() as usize].queue_flags.contains(vk::QueueFlags::GRAPHICS);
    (is_depth(d.format) && !graphics).then(|| "no GRAPHICS queue to copy depths into the image with".into())
}

// ---- helpers --------------------------------------------------------------------------------

/// An image with texels from `seed`.
fn img(
    format: vk::Format,
    view: vk::ImageViewType,
    extent: [u32; 3],
    levels: u32,
    layers: u32,
    seed: u32,
) -> ImageDesc {
    let d = ImageDesc::new(format, view, extent, levels, layers);
    let data = texref::texels(&d, seed);
    d.with(data)
}

/// Invocation `i`'s hash number `k`.
fn h(i: usize, k: u32) -> u32 {
    hash(i as u32 * 16 + k + 7)
}

/// A normalized coordinate in [-1.25, 2.25] on the grid of 1/16 texel at `min_size` texels
/// (the smallest level used); NEAREST: `frac(u * s)` in [1/8, 7/8] for each size `s`.
fn coord(mut x: u32, min_size: u32, nearest: &[u32]) -> f64 {
    let grid = f64::from(16 * min_size);
    loop {
        let u = (f64::from(x % (3.5 * grid) as u32) - 1.25 * grid) / grid;
        if nearest.iter().all(|&s| (0.125..=0.875).contains(&(u * f64::from(s)).rem_euclid(1.0))) {
            return u;
        }
        x = hash(x);
    }
}

/// A lod in [-0.5, `max` + 0.5], a multiple of 1/16; for NEAREST mips not within 1/16 of
/// x.5.
fn lod(mut x: u32, max: u32, nearest: bool) -> f64 {
    loop {
        let l = f64::from(x % (16 * max + 17)) / 16.0 - 0.5;
        if !nearest || (l.rem_euclid(1.0) - 0.5).abs() > 1.0 / 16.0 {
            return l;
        }
        x = hash(x);
    }
}

/// Level sizes from `size` for `levels` levels.
fn sizes(size: u32, levels: u32) -> Vec<u32> {
    (0..levels).map(|m| (size >> m).max(1)).collect()
}

/// Whether `got` is further than `tol` from `want` (or NaN).
fn off(got: f64, want: f64, tol: f64) -> bool {
    got.is_nan() || (got - want).abs() > tol
}

/// Compares `got` (vec4s, `stride` per invocation, slot `k`) with `want`, each within `tol`.
fn near(got: &[f32], stride: usize, k: usize, want: &[[f64; 4]], tol: f64, what: &str) -> Result<(), String> {
    for (i, w) in want.iter().enumerate() {
        let at = 4 * (stride * i + k);
        let g = got.get(at..at + 4).ok_or("output too short")?;
        if (0..4).any(|c| off(f64::from(g[c]), w[c], tol)) {
            return Err(format!("{what}, invocation {i}: got {g:?}, expected {w:?} (±{tol})"));
        }
    }
    Ok(())
}

/// The filtered results' tolerance of a format.
fn filtered(format: vk::Format) -> f64 {
    match texref::fmt(format).num {
        texref::Num::Float | texref::Num::UFloat => FILTERED_F,
        _ => FILTERED_8,
    }
}

/// The unfiltered results' tolerance of a format.
fn unfiltered(format: vk::Format) -> f64 {
    if format == F::R8G8B8A8_SRGB {
        SRGB
    } else {
        EXACT
    }
}

fn flat(v: &[[f32; 4]]) -> Vec<u8> {
    bytes(v.as_flattened())
}

pub fn cases() -> Vec<Case> {
    let mut out = storage_cases();
    out.extend(atomic_cases());
    out.extend(lod_cases());
    out.extend(sampling_cases());
    out.extend(gather_cases());
    out.extend(depth_cases());
    out.extend(descriptor_cases());
    out
}

// ---- storage images ---------------------------------------------------------------------

const LOAD_FLOAT: [vk::Format; 8] = [
    F::R8G8B8A8_UNORM,
    F::R8G8B8A8_SNORM,
    F::R16G16_UNORM,
    F::R16_SNORM,
    F::A2B10G10R10_UNORM_PACK32,
    F::B10G11R11_UFLOAT_PACK32,
    F::R16G16B16A16_SFLOAT,
    F::R32G32_SFLOAT,
];
const LOAD_INT: [vk::Format; 6] =
    [F::R8G8B8A8_UINT, F::R16G16_SINT, F::R32_UINT, F::R32G32B32A32_SINT, F::A2B10G10R10_UINT_PACK32, F::R8_SINT];
const STORE_FLOAT: [vk::Format; 8] = [
    F::R8G8B8A8_UNORM,
    F::R8G8B8A8_SNORM,
    F::R16G16_UNORM,
    F::R16_SNORM,
    F::A2B10G10R10_UNORM_PACK32,
    F::B10G11R11_UFLOAT_PACK32,
    F::R16G16B16A16_SFLOAT,
    F::R32_SFLOAT,
];
const STORE_INT: [vk::Format; 6] =
    [F::R8G8B8A8_UINT, F::R16G16_SINT, F::R32_SINT, F::R32G32B32A32_UINT, F::A2B10G10R10_UINT_PACK32, F::R8_SINT];

/// 8x8 2D images of `formats` at bindings 2.., texels from their index.
fn storage_images(mut case: Case, formats: &[vk::Format], with_data: bool) -> Case {
    for (k, &f) in formats.iter().enumerate() {
        let d = if with_data {
            img(f, V::TYPE_2D, [8, 8, 1], 1, 1, 100 + k as u32)
        } else {
            ImageDesc::new(f, V::TYPE_2D, [8, 8, 1], 1, 1)
        };
        case = case.storage_image(2 + k as u32, d);
    }
    case.needs(&[Need::Device(Feature::StorageImageExtendedFormats)])
}

/// Texel (x, y) = i of a 2D level-0 image, decoded.
fn texel_i(d: &ImageDesc, i: usize) -> [f64; 4] {
    texref::texel(d, 0, 0, [i as u32 % d.extent[0], i as u32 / d.extent[0], 0])
}

fn storage_cases() -> Vec<Case> {
    let mut out = Vec::new();
    let c = storage_images(Case::new("images/load_float", [1, 1, 1]).output(N * 8 * 16), &LOAD_FLOAT, true);
    let descs: Vec<ImageDesc> = c.images.iter().map(|b| b.images[0].clone()).collect();
    out.push(c.check(move |o| {
        let got = o.get::<f32>(0);
        for (k, d) in descs.iter().enumerate() {
            let want: Vec<[f64; 4]> = (0..N).map(|i| texel_i(d, i)).collect();
            near(&got, 8, k, &want, EXACT, &format!("imageLoad of {:?}", d.format))?;
        }
        Ok(())
    }));

    let c = storage_images(Case::new("images/load_int", [1, 1, 1]).output(N * 6 * 16), &LOAD_INT, true);
    let descs: Vec<ImageDesc> = c.images.iter().map(|b| b.images[0].clone()).collect();
    out.push(c.check(move |o| {
        let got = o.get::<u32>(0);
        for (k, d) in descs.iter().enumerate() {
            for i in 0..N {
                let want = texel_i(d, i).map(|v| v as i64 as u32);
                let g = &got[4 * (6 * i + k)..4 * (6 * i + k) + 4];
                if g != want {
                    return Err(format!("imageLoad of {:?}, invocation {i}: got {g:?}, expected {want:?}", d.format));
                }
            }
        }
        Ok(())
    }));
    out.push(store_float_case());
    out.push(store_int_case());
    out.extend(rw_unformatted_cases());
    out.push(dims_case());
    out.push(load_extend_case());
    out.push(view_sub_case());
    out
}

/// Views of part of an image (view_sub.comp): storage level 1, layer 1 of a 2D array;
/// sampled levels 1 and 2 of a 2D image.
fn view_sub_case() -> Case {
    let mut store = img(F::R8G8B8A8_UINT, V::TYPE_2D, [8, 6, 1], 2, 3, 450);
    // Below 255, so that + 1 stays in range.
    store.data.iter_mut().for_each(|b| *b %= 255);
    store.subrange = Some([1, 1, 1, 1]);
    let mut sampled = img(F::R8G8B8A8_UNORM, V::TYPE_2D, [16, 16, 1], 3, 1, 451);
    sampled.subrange = Some([1, 2, 0, 1]);
    let (before, t) = (store.clone(), sampled.clone());
    Case::new("images/view_sub", [1, 1, 1])
        .output(16 + N * 2 * 16)
        .storage_image(2, store)
        .combined(3, sampled, sampler(Fl::NEAREST, M::NEAREST, A::REPEAT))
        .check(move |o| {
            o.expect(0, &[4u32, 3, 8, 4], softnavi_tests::check::Tol::Exact)?;
            let got = o.get::<f32>(0);
            let want: Vec<[[f64; 4]; 2]> = (0..N as u32)
                .map(|i| {
                    let (x, y) = (i % 8, i / 8);
                    [texref::texel(&t, 1, 0, [x % 4, y % 4, 0]), texref::texel(&t, 2, 0, [x % 2, y % 2, 0])]
                })
                .collect();
            check_slots(&got[4..], &want, EXACT, "texelFetch through the view")?;
            let n = before.bytes();
            for (k, (&b, &a)) in before.data.iter().zip(&o.images[0][..n]).enumerate() {
                let inside = (before.offset(1, 1, [0; 3])..before.offset(1, 2, [0; 3])).contains(&k);
                if a != if inside { b + 1 } else { b } {
                    return Err(format!("storage image byte {k} (in the view: {inside}): {a}, was {b}"));
                }
            }
            Ok(())
        })
}

/// What the shader stores: `a` (unsigned formats) and `b` (signed ones).
fn store_inputs() -> (Vec<[f32; 4]>, Vec<[f32; 4]>) {
    let a = (0..N).map(|i| std::array::from_fn(|c| (h(i, c as u32) % 11) as f32 / 8.0)).collect();
    let b = (0..N).map(|i| std::array::from_fn(|c| (h(i, 4 + c as u32) % 41) as f32 / 16.0 - 1.25)).collect();
    (a, b)
}

/// Whether a stored component `got` (decoded) is what storing `v` gives in `format`.
fn stored_ok(format: vk::Format, bits: u32, v: f64, got: f64) -> bool {
    match texref::fmt(format).num {
        texref::Num::Unorm => (got - v.clamp(0.0, 1.0)).abs() <= 1.0 / f64::from((1u32 << bits) - 1) + 1e-9,
        texref::Num::Snorm => (got - v.clamp(-1.0, 1.0)).abs() <= 1.0 / f64::from((1u32 << (bits - 1)) - 1) + 1e-9,
        _ => got == v,
    }
}

fn store_float_case() -> Case {
    let (a, b) = store_inputs();
    let c = Case::new("images/store_float", [1, 1, 1]).storage(flat(&a)).storage(flat(&b));
    storage_images(c, &STORE_FLOAT, false).check(move |o| {
        for (k, &f) in STORE_FLOAT.iter().enumerate() {
            let input = if [1, 3, 6, 7].contains(&k) { &b } else { &a };
            let d = ImageDesc::new(f, V::TYPE_2D, [8, 8, 1], 1, 1).with(o.images[k].clone());
            for (i, v) in input.iter().enumerate() {
                let got = texel_i(&d, i);
                for &(ch, _, bits) in &texref::fmt(f).comps {
                    if !stored_ok(f, bits, f64::from(v[ch]), got[ch]) {
                        return Err(format!("imageStore of {v:?} to {f:?}, texel {i}: reads back {got:?}"));
                    }
                }
            }
        }
        Ok(())
    })
}

fn store_int_case() -> Case {
    let v: Vec<[i32; 4]> = (0..N).map(|i| std::array::from_fn(|c| (h(i, c as u32) % 256) as i32 - 128)).collect();
    let c = Case::new("images/store_int", [1, 1, 1]).storage_of(&v);
    storage_images(c, &STORE_INT, false).check(move |o| {
        for (k, &f) in STORE_INT.iter().enumerate() {
            let d = ImageDesc::new(f, V::TYPE_2D, [8, 8, 1], 1, 1).with(o.images[k].clone());
            for (i, x) in v.iter().enumerate() {
                let want: [i64; 4] = std::array::from_fn(|c| match k {
                    0 => i64::from(x[c] & 255),
                    3 => i64::from(x[c] as u32),
                    4 => i64::from(x[c] & if c == 3 { 3 } else { 1023 }),
                    _ => i64::from(x[c]),
                });
                let got = texel_i(&d, i);
                for &(ch, _, _) in &texref::fmt(f).comps {
                    if got[ch] as i64 != want[ch] {
                        return Err(format!("imageStore of {x:?} to {f:?}, texel {i}: reads back {got:?}"));
                    }
                }
            }
        }
        Ok(())
    })
}

fn rw_unformatted_cases() -> Vec<Case> {
    let formats = [
        F::R8G8B8A8_UNORM,
        F::R16G16_SFLOAT,
        F::R32G32B32A32_SFLOAT,
        F::A2B10G10R10_UNORM_PACK32,
        F::B10G11R11_UFLOAT_PACK32,
    ];
    formats
        .iter()
        .enumerate()
        .map(|(k, &f)| {
            let src = img(f, V::TYPE_3D, [5, 3, 4], 1, 1, 200 + k as u32);
            let dst = ImageDesc::new(f, V::TYPE_3D, [5, 3, 4], 1, 1);
            let s2 = src.clone();
            Case::new("images/rw_unformatted", [2, 1, 1])
                .named(&format!("{f:?}").to_lowercase())
                .output(16)
                .storage_image(2, src)
                .storage_image(3, dst)
                .needs(&[
                    Need::Device(Feature::StorageImageReadWithoutFormat),
                    Need::Device(Feature::StorageImageWriteWithoutFormat),
                    Need::Device(Feature::StorageImageExtendedFormats),
                ])
                .check(move |o| {
                    o.expect(0, &[5i32, 3, 4, 5], softnavi_tests::check::Tol::Exact)?;
                    let dst = ImageDesc { data: o.images[1].clone(), ..s2.clone() };
                    for (x, y, z) in (0..5).flat_map(|x| (0..3).flat_map(move |y| (0..4).map(move |z| (x, y, z)))) {
                        let (want, got) =
                            (texref::texel(&s2, 0, 0, [x, y, z]), texref::texel(&dst, 0, 0, [4 - x, y, z]));
                        let ok =
                            texref::fmt(f).comps.iter().all(|&(ch, _, bits)| stored_ok(f, bits, want[ch], got[ch]));
                        if !ok {
                            return Err(format!("texel ({x}, {y}, {z}) {want:?} arrived as {got:?}"));
                        }
                    }
                    Ok(())
                })
        })
        .collect()
}

/// dims.comp: (view, extent, layers, imageSize as written).
const DIMS: [(vk::ImageViewType, [u32; 3], u32, [i32; 4]); 6] = [
    (V::TYPE_1D, [7, 1, 1], 1, [7, 0, 0, 0]),
    (V::TYPE_1D_ARRAY, [6, 1, 1], 3, [6, 3, 0, 0]),
    (V::TYPE_2D_ARRAY, [5, 4, 1], 3, [5, 4, 3, 0]),
    (V::CUBE, [4, 4, 1], 6, [4, 4, 0, 0]),
    (V::CUBE_ARRAY, [3, 3, 1], 12, [3, 3, 2, 0]),
    (V::TYPE_3D, [4, 3, 5], 1, [4, 3, 5, 0]),
];

fn dims_case() -> Case {
    let mut c = Case::new("images/dims", [2, 2, 3]).output(6 * 16);
    let mut descs = Vec::new();
    for (k, &(view, extent, layers, _)) in DIMS.iter().enumerate() {
        let d = img(F::R32_UINT, view, extent, 1, layers, 300 + k as u32);
        descs.push(d.clone());
        c = c.storage_image(2 + k as u32, d);
    }
    c.check(move |o| {
        let sizes: Vec<i32> = DIMS.iter().flat_map(|d| d.3).collect();
        o.expect(0, &sizes, softnavi_tests::check::Tol::Exact)?;
        for (k, d) in descs.iter().enumerate() {
            let after = ImageDesc { data: o.images[k].clone(), ..d.clone() };
            let (w, hh) = (d.extent[0], d.extent[1]);
            // The shader's (x, y, z): the layer is the last coordinate.
            let depth = if d.view == V::TYPE_3D { d.extent[2] } else { d.layers };
            let rows = if d.view == V::TYPE_1D_ARRAY { d.layers } else { hh };
            for (x, y, z) in (0..w).flat_map(|x| (0..rows).flat_map(move |y| (0..depth).map(move |z| (x, y, z)))) {
                if d.view == V::TYPE_1D_ARRAY && z > 0 {
                    continue;
                }
                let (layer, at) = match d.view {
                    V::TYPE_1D_ARRAY => (y, [x, 0, 0]),
                    V::TYPE_3D => (0, [x, y, z]),
                    _ => (z, [x, y, 0]),
                };
                let add = 1000 * (k as u32 + 1) + x + 10 * y + 100 * z;
                let want = (texref::texel(d, 0, layer, at)[0] as u32).wrapping_add(add);
                let got = texref::texel(&after, 0, layer, at)[0] as u32;
                if got != want {
                    return Err(format!("{:?} texel ({x}, {y}, {z}): {got}, expected {want}", d.view));
                }
            }
        }
        Ok(())
    })
}

fn load_extend_case() -> Case {
    let i0 = img(F::R8G8B8A8_UINT, V::TYPE_2D, [8, 8, 1], 1, 1, 400);
    let i1 = img(F::R8_SINT, V::TYPE_2D, [8, 8, 1], 1, 1, 401);
    let nearest = sampler(Fl::NEAREST, M::NEAREST, A::CLAMP_TO_EDGE);
    let descs = [i0.clone(), i1.clone(), i0.clone(), i1.clone()];
    Case::new("images/load_extend", [1, 1, 1])
        .output(N * 4 * 16)
        .storage_image(2, i0.clone())
        .storage_image(3, i1.clone())
        .combined(4, i0, nearest)
        .combined(5, i1, nearest)
        .needs(&[Need::Device(Feature::StorageImageExtendedFormats)])
        .check(move |o| {
            let got = o.get::<u32>(0);
            for (k, d) in descs.iter().enumerate() {
                for i in 0..N {
                    let want = texel_i(d, i).map(|v| v as i64 as u32);
                    let g = &got[4 * (4 * i + k)..4 * (4 * i + k) + 4];
                    if g != want {
                        return Err(format!("read {k} of {:?}, invocation {i}: {g:?}, expected {want:?}", d.format));
                    }
                }
            }
            Ok(())
        })
}

// ---- atomics --------------------------------------------------------------------------------

/// Checks that the values returned by atomics on one texel chain: every invocation saw a
/// state and left `op(state, its value)`; so the states seen plus the final one are the
/// states left plus the initial one (as multisets).
fn chain(init: u32, fin: u32, ret: &[u32], vals: &[u32], op: impl Fn(u32, u32, usize) -> u32) -> bool {
    let mut seen: Vec<u32> = ret.to_vec();
    seen.push(fin);
    let mut left: Vec<u32> = ret.iter().zip(vals).enumerate().map(|(i, (&r, &v))| op(r, v, i)).collect();
    left.push(init);
    seen.sort_unstable();
    left.sort_unstable();
    seen == left
}

type Op = fn(u32, u32, usize) -> u32;

fn atomic_cases() -> Vec<Case> {
    let a: Vec<i32> = (0..N).map(|i| h(i, 0) as i32 >> (h(i, 1) % 24)).collect();
    let init_u = [0u32, u32::MAX, 0, u32::MAX, 0, 0x5a5a_5a5a, 777, 0];
    let init_s = [0i32, i32::MAX, i32::MIN, -1, 0, 0x5a5a_5a5a, 777, 0];
    let tex = |v: Vec<u8>, f| ImageDesc::new(f, V::TYPE_2D, [4, 2, 1], 1, 1).with(v);
    let ops_u: [Op; 8] = [
        |s, v, _| s.wrapping_add(v),
        |s, v, _| s.min(v),
        |s, v, _| s.max(v),
        |s, v, _| s & v,
        |s, v, _| s | v,
        |s, v, _| s ^ v,
        |_, v, _| v,
        |s, _, i| if s == 0 { i as u32 + 1 } else { s },
    ];
    let ops_s: [Op; 8] = [
        ops_u[0],
        |s, v, _| (s as i32).min(v as i32) as u32,
        |s, v, _| (s as i32).max(v as i32) as u32,
        ops_u[3],
        ops_u[4],
        ops_u[5],
        ops_u[6],
        ops_u[7],
    ];
    let vals: Vec<u32> = a.iter().map(|&x| x as u32).collect();
    let case = Case::new("images/atomics", [1, 1, 1])
        .storage_of(&a)
        .output(N * 16 * 4)
        .storage_image(2, tex(bytes(&init_u), F::R32_UINT))
        .storage_image(3, tex(bytes(&init_s), F::R32_SINT))
        .needs(&[
            Need::Format(F::R32_UINT, vk::FormatFeatureFlags2::STORAGE_IMAGE_ATOMIC),
            Need::Format(F::R32_SINT, vk::FormatFeatureFlags2::STORAGE_IMAGE_ATOMIC),
        ]);
    let check = move |o: &Output| -> Result<(), String> {
        let ret = o.get::<u32>(1);
        for (img, (init, ops)) in [(bytes(&init_u), ops_u), (bytes(&init_s), ops_s)].into_iter().enumerate() {
            let fin: Vec<u32> = softnavi_tests::check::values(&o.images[img]);
            let init: Vec<u32> = softnavi_tests::check::values(&init);
            for t in 0..8 {
                let r: Vec<u32> = (0..N).map(|i| ret[16 * i + 8 * img + t]).collect();
                if !chain(init[t], fin[t], &r, &vals, ops[t]) {
                    return Err(format!("image {img} texel {t}: final {:#x}, returned {r:x?}", fin[t]));
                }
            }
        }
        Ok(())
    };
    let incdec = incdec_case(&a);
    vec![case.check(check), incdec]
}

fn incdec_case(a: &[i32]) -> Case {
    let a: Vec<u32> = a.iter().map(|&x| x as u32).collect();
    let mut init = vec![0u32; 80];
    init[..3].copy_from_slice(&[5, 100, 1 << 31]);
    for (x, v) in init[8..16].iter_mut().enumerate() {
        *v = h(x, 9);
    }
    let image = ImageDesc::new(F::R32_UINT, V::TYPE_2D, [8, 10, 1], 1, 1).with(bytes(&init));
    Case::new("images/atomic_incdec", [1, 1, 1])
        .storage_of(&a)
        .output(N * 16)
        .storage_image(2, image)
        .needs(&[Need::Format(F::R32_UINT, vk::FormatFeatureFlags2::STORAGE_IMAGE_ATOMIC)])
        .check(move |o| {
            let ret = o.get::<u32>(1);
            let fin: Vec<u32> = softnavi_tests::check::values(&o.images[0]);
            let col = |k: usize| -> Vec<u32> { (0..N).map(|i| ret[4 * i + k]).collect() };
            let ops: [Op; 3] = [|s, _, _| s.wrapping_add(1), |s, _, _| s.wrapping_sub(1), |s, v, _| s.wrapping_sub(v)];
            for (t, op) in ops.into_iter().enumerate() {
                if !chain(init[t], fin[t], &col(t), &a, op) {
                    return Err(format!("texel {t}: final {:#x}, returned {:x?}", fin[t], col(t)));
                }
            }
            for i in 0..N {
                if col(3)[i] != init[8 + i % 8] {
                    return Err(format!("OpAtomicLoad {i}: {:#x}, expected {:#x}", col(3)[i], init[8 + i % 8]));
                }
                if fin[16 + i] != a[i].wrapping_mul(3) {
                    return Err(format!("OpAtomicStore {i}: {:#x}, expected {:#x}", fin[16 + i], a[i].wrapping_mul(3)));
                }
            }
            Ok(())
        })
}

// ---- textureLod on 2D images --------------------------------------------------------------

/// A textureLod case: an 8x8 image of `format` with 2 levels, sampled with `s`.
fn lod_case(name: &str, format: vk::Format, s: vk::SamplerCreateInfo<'static>) -> Case {
    let desc = img(format, V::TYPE_2D, [8, 8, 1], 2, 1, 500 + format.as_raw() as u32);
    let nearest = if s.min_filter == Fl::NEAREST { sizes(8, 2) } else { Vec::new() };
    let qs: Vec<[f32; 4]> = (0..N)
        .map(|i| {
            let (u, v) = (coord(h(i, 0), 4, &nearest), coord(h(i, 1), 4, &nearest));
            [u as f32, v as f32, lod(h(i, 2), 1, s.mipmap_mode == M::NEAREST) as f32, 0.0]
        })
        .collect();
    let r = Sampled { desc: &desc, s: &s };
    let want: Vec<[f64; 4]> = qs
        .iter()
        .map(|q| {
            r.sample(&Query {
                coord: [f64::from(q[0]), f64::from(q[1]), 0.0],
                lod: f64::from(q[2]),
                ..Default::default()
            })
        })
        .collect();
    let linear = s.min_filter == Fl::LINEAR || s.mipmap_mode == M::LINEAR;
    let tol = if linear { filtered(format) } else { unfiltered(format) };
    Case::new("images/lod", [1, 1, 1])
        .named(name)
        .storage(flat(&qs))
        .output(N * 16)
        .combined(2, desc, s)
        .check(move |o| near(&o.get::<f32>(1), 1, 0, &want, tol, "textureLod"))
}

fn lod_cases() -> Vec<Case> {
    let s = sampler;
    let border = |c: vk::BorderColor| s(Fl::LINEAR, M::NEAREST, A::CLAMP_TO_BORDER).border_color(c);
    vec![
        lod_case("rgba8_linear_repeat", F::R8G8B8A8_UNORM, s(Fl::LINEAR, M::NEAREST, A::REPEAT)),
        lod_case("rgba8_nearest_mirrored", F::R8G8B8A8_UNORM, s(Fl::NEAREST, M::NEAREST, A::MIRRORED_REPEAT)),
        lod_case("rgba8_trilinear_edge", F::R8G8B8A8_UNORM, s(Fl::LINEAR, M::LINEAR, A::CLAMP_TO_EDGE)),
        lod_case(
            "rgba8_nearest_repeat_edge",
            F::R8G8B8A8_UNORM,
            s(Fl::NEAREST, M::LINEAR, A::REPEAT).address_mode_v(A::CLAMP_TO_EDGE),
        ),
        lod_case("rgba8_border_transparent", F::R8G8B8A8_UNORM, border(vk::BorderColor::FLOAT_TRANSPARENT_BLACK)),
        lod_case("rgba8_border_black", F::R8G8B8A8_UNORM, border(vk::BorderColor::FLOAT_OPAQUE_BLACK)),
        lod_case("rgba8_border_white", F::R8G8B8A8_UNORM, border(vk::BorderColor::FLOAT_OPAQUE_WHITE)),
        lod_case("r32f_trilinear_border", F::R32_SFLOAT, s(Fl::LINEAR, M::LINEAR, A::CLAMP_TO_BORDER)),
        lod_case("rgba8_mirror_clamp", F::R8G8B8A8_UNORM, s(Fl::LINEAR, M::NEAREST, A::MIRROR_CLAMP_TO_EDGE)),
        lod_case("rgba16f_trilinear_mirrored", F::R16G16B16A16_SFLOAT, s(Fl::LINEAR, M::LINEAR, A::MIRRORED_REPEAT)),
        lod_case("bgra8_linear_repeat", F::B8G8R8A8_UNORM, s(Fl::LINEAR, M::NEAREST, A::REPEAT)),
        lod_case("rgb10a2_linear_edge", F::A2B10G10R10_UNORM_PACK32, s(Fl::LINEAR, M::LINEAR, A::CLAMP_TO_EDGE)),
        lod_case("b10g11r11_linear_repeat", F::B10G11R11_UFLOAT_PACK32, s(Fl::LINEAR, M::LINEAR, A::REPEAT)),
        lod_case("srgb_linear_repeat", F::R8G8B8A8_SRGB, s(Fl::LINEAR, M::LINEAR, A::REPEAT)),
        lod_case("srgb_nearest_edge", F::R8G8B8A8_SRGB, s(Fl::NEAREST, M::NEAREST, A::CLAMP_TO_EDGE)),
        // The sampler's lod clamp and bias: lods in [-0.25, 1.75] clamp to [0.5, 1.0].
        lod_case(
            "rgba8_lod_clamp_bias",
            F::R8G8B8A8_UNORM,
            s(Fl::LINEAR, M::LINEAR, A::REPEAT).min_lod(0.5).max_lod(1.0).mip_lod_bias(0.25),
        ),
    ]
}

// ---- other sampling -------------------------------------------------------------------------

fn sampling_cases() -> Vec<Case> {
    vec![
        lod_offset_case(),
        grad_case(false),
        grad_case(true),
        fetch_case(),
        queries_case(),
        cube_case(),
        cube_seams_case(),
        cube_grad_case(),
        arrays_case(),
        separate_case(false),
        separate_case(true),
        unnormalized_case(Fl::LINEAR, A::CLAMP_TO_EDGE),
        unnormalized_case(Fl::NEAREST, A::CLAMP_TO_BORDER),
    ]
}

/// A coordinate that is also an array layer: on the 1/64 grid, in [-0.5, 3.5), not
/// within 1/16 of a rounding tie.
fn layer_coord(mut x: u32) -> f64 {
    loop {
        let z = f64::from(x % 256) / 64.0 - 0.5;
        if (z.rem_euclid(1.0) - 0.5).abs() > 1.0 / 16.0 {
            return z;
        }
        x = hash(x);
    }
}

fn lod_offset_case() -> Case {
    let s = sampler(Fl::LINEAR, M::NEAREST, A::REPEAT);
    let t2 = img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 2, 1, 600);
    let t3 = img(F::R8G8B8A8_UNORM, V::TYPE_3D, [8, 8, 8], 2, 1, 601);
    let ta = img(F::R8G8B8A8_UNORM, V::TYPE_2D_ARRAY, [8, 8, 1], 2, 3, 602);
    let qs: Vec<[f32; 4]> = (0..N)
        .map(|i| {
            let c = [coord(h(i, 0), 4, &[]), coord(h(i, 1), 4, &[]), layer_coord(h(i, 2)), lod(h(i, 3), 1, true)];
            c.map(|x| x as f32)
        })
        .collect();
    let q = |c: &[f32; 4], offset| Query {
        coord: [c[0], c[1], c[2]].map(f64::from),
        layer: f64::from(c[2]),
        lod: f64::from(c[3]),
        offset,
        dref: None,
    };
    let want: Vec<[[f64; 4]; 4]> = qs
        .iter()
        .map(|c| {
            [
                Sampled { desc: &t2, s: &s }.sample(&q(c, [-2, 3, 0])),
                Sampled { desc: &t2, s: &s }.sample(&q(c, [1, -1, 0])),
                Sampled { desc: &t3, s: &s }.sample(&q(c, [1, -2, 1])),
                Sampled { desc: &ta, s: &s }.sample(&q(c, [-1, 2, 0])),
            ]
        })
        .collect();
    Case::new("images/lod_offset", [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 4 * 16)
        .combined(2, t2, s)
        .combined(3, t3, s)
        .combined(4, ta, s)
        .check(move |o| check_slots(&o.get::<f32>(1), &want, FILTERED_8, "textureLodOffset"))
}

/// Compares `K` vec4 slots per invocation.
fn check_slots<const K: usize>(got: &[f32], want: &[[[f64; 4]; K]], tol: f64, what: &str) -> Result<(), String> {
    for k in 0..K {
        let w: Vec<[f64; 4]> = want.iter().map(|w| w[k]).collect();
        near(got, K, k, &w, tol, &format!("{what} (result {k})"))?;
    }
    Ok(())
}

/// textureGrad (or textureGradClampARB with `clamp`): gradients along the axes, each
/// texel-space length a power of two from 1/2 to 8, so `log2(rho)` is an integer.
fn grad_case(clamp: bool) -> Case {
    let s = sampler(Fl::LINEAR, M::LINEAR, A::CLAMP_TO_EDGE);
    let t = img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 3, 1, 700 + u32::from(clamp));
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut want = Vec::new();
    for i in 0..N {
        let (u, v) = (coord(h(i, 0), 2, &[]), coord(h(i, 1), 2, &[]));
        let (ex, ey) = ((h(i, 2) % 5) as i32 - 1, (h(i, 3) % 5) as i32 - 1);
        let (gx, gy) = (2f64.powi(ex) / 8.0, 2f64.powi(ey) / 8.0);
        let min_lod = if clamp { f64::from(h(i, 4) % 5) / 2.0 } else { 0.0 };
        let l = f64::from(ex.max(ey)).max(min_lod);
        qs.push([u as f32, v as f32, min_lod as f32, 0.0]);
        qs.push([gx as f32, gy as f32, 0.0, 0.0]);
        want.push(Sampled { desc: &t, s: &s }.sample(&Query { coord: [u, v, 0.0], lod: l, ..Default::default() }));
    }
    let (shader, needs) = if clamp {
        ("images/grad_clamp", vec![Need::Device(Feature::ResourceMinLod)])
    } else {
        ("images/grad", Vec::new())
    };
    Case::new(shader, [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 16)
        .combined(2, t, s)
        .needs(&needs)
        .check(move |o| near(&o.get::<f32>(1), 1, 0, &want, FILTERED_8, "textureGrad"))
}

/// textureGrad on a cube (cube_grad.comp): the LOD from the derivatives of the face
/// coordinates (Vulkan's "Scale Factor Operation" on the face), taken here by central
/// differences of Cube Map Face Selection along each `Grad` vector rather than by formula.
fn cube_grad_case() -> Case {
    let s = sampler(Fl::LINEAR, M::LINEAR, A::CLAMP_TO_EDGE);
    let t = img(F::R8G8B8A8_UNORM, V::CUBE, [8, 8, 1], 3, 6, 710);
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut want = Vec::new();
    for i in 0..N {
        let (fs, ft) = (0.25 + f64::from(h(i, 0) % 33) / 64.0, 0.25 + f64::from(h(i, 1) % 33) / 64.0);
        let dir = direction(i as u32 % 6, fs, ft, [0.5, 1.0, 2.0][h(i, 2) as usize % 3]);
        let grad = |k: u32| -> [f64; 3] {
            let scale = 2f64.powi((h(i, k) % 5) as i32 - 1) / 8.0;
            std::array::from_fn(|a| (f64::from(h(i, k + 1 + a as u32) % 17) / 8.0 - 1.0) * scale)
        };
        let (gx, gy) = (grad(3), grad(7));
        // (du, dv) along each vector, at the direction's own face, in texels.
        let duv = |g: [f64; 3]| {
            let e = 1e-6;
            let at = |k: f64| {
                let (_, s, t) = cube_face(std::array::from_fn(|a| dir[a] + k * e * g[a]));
                [s, t]
            };
            let (p, m) = (at(1.0), at(-1.0));
            [0, 1].map(|a| (8.0 * (p[a] - m[a]) / (2.0 * e)).abs())
        };
        let (dx, dy) = (duv(gx), duv(gy));
        let lod = dx[0].hypot(dx[1]).max(dy[0].hypot(dy[1])).log2();
        let r = Sampled { desc: &t, s: &s };
        let at = |lod: f64| r.sample(&Query { coord: dir, lod, ..Default::default() });
        // Any LOD: the results are boxed by those at the levels.
        let all = [at(0.0), at(1.0), at(2.0)];
        let bound = |f: fn(f64, f64) -> f64| -> [f64; 4] {
            std::array::from_fn(|c| all.iter().map(|v| v[c]).reduce(f).unwrap_or(0.0))
        };
        for v in [dir, gx, gy] {
            qs.push([v[0] as f32, v[1] as f32, v[2] as f32, 0.0]);
        }
        want.push((at(lod), bound(f64::min), bound(f64::max)));
    }
    Case::new("images/cube_grad", [1, 1, 1]).storage(flat(&qs)).output(N * 16).combined(2, t, s).check(move |o| {
        let got = o.get::<f32>(1);
        let exact: Vec<[f64; 4]> = want.iter().map(|w| w.0).collect();
        if !o.lavapipe() {
            return near(&got, 1, 0, &exact, FILTERED_8, "cube textureGrad");
        }
        // lavapipe's LOD for cube gradients is outside even the spec's bounds for rho
        // (between the larger of |du|, |dv| and their sum) for some invocations (20):
        // there the result need only be a filtered value at some LOD.
        for (i, (_, lo, hi)) in want.iter().enumerate() {
            let g = &got[4 * i..4 * i + 4];
            if (0..4).any(|c| f64::from(g[c]) < lo[c] - FILTERED_8 || f64::from(g[c]) > hi[c] + FILTERED_8) {
                return Err(format!("cube textureGrad, invocation {i}: got {g:?}, outside {lo:?}..{hi:?}"));
            }
        }
        Ok(())
    })
}

fn fetch_case() -> Case {
    let s = sampler(Fl::NEAREST, M::NEAREST, A::CLAMP_TO_EDGE);
    let t2 = img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 2, 1, 800);
    let t3 = img(F::R16G16B16A16_SFLOAT, V::TYPE_3D, [4, 4, 4], 2, 1, 801);
    let ta = img(F::R32_SFLOAT, V::TYPE_2D_ARRAY, [8, 8, 1], 2, 3, 802);
    let t1a = img(F::R8G8B8A8_UNORM, V::TYPE_1D_ARRAY, [8, 1, 1], 2, 3, 803);
    let tu = img(F::R32G32B32A32_UINT, V::TYPE_2D, [8, 8, 1], 2, 1, 804);
    let mut ps: Vec<[i32; 4]> = Vec::new();
    let mut want: Vec<[[f64; 4]; 6]> = Vec::new();
    for i in 0..N {
        let l = (i % 2) as u32;
        let (s2, s3) = (8 >> l, 4 >> l);
        // In range for every image with every offset: x, y in [1, min(s3 - 1, s2 - 2)].
        let hi = (s3 - 1).min(s2 - 2);
        let x = 1 + h(i, 0) % hi;
        let y = 1 + h(i, 1) % hi;
        let z = h(i, 2) % s3.min(3);
        ps.push([x as i32, y as i32, z as i32, l as i32]);
        // The uint texel's bits (exact in f64), compared as bits.
        let bits = texref::texel(&tu, l, 0, [x, y, 0]);
        want.push([
            texref::texel(&t2, l, 0, [x, y, 0]),
            texref::texel(&t2, l, 0, [x + 1, y - 1, 0]),
            texref::texel(&t3, l, 0, [x, y, z]),
            texref::texel(&ta, l, z, [x - 1, y + 1, 0]),
            texref::texel(&t1a, l, z, [x, 0, 0]),
            bits,
        ]);
    }
    Case::new("images/fetch", [1, 1, 1])
        .storage_of(&ps)
        .output(N * 6 * 16)
        .combined(2, t2, s)
        .combined(3, t3, s)
        .combined(4, ta, s)
        .combined(5, t1a, s)
        .combined(6, tu, s)
        .check(move |o| {
            let got = o.get::<f32>(1);
            let bits = o.get::<u32>(1);
            for (i, w) in want.iter().enumerate() {
                let wb = w[5].map(|v| v as u32);
                if bits[4 * (6 * i + 5)..4 * (6 * i + 5) + 4] != wb {
                    return Err(format!("texelFetch of the uint image, invocation {i}: expected {wb:x?}"));
                }
            }
            let w5: Vec<[[f64; 4]; 6]> = want.iter().map(|w| [w[0], w[1], w[2], w[3], w[4], [0.0; 4]]).collect();
            for k in 0..5 {
                let w: Vec<[f64; 4]> = w5.iter().map(|w| w[k]).collect();
                near(&got, 6, k, &w, EXACT, &format!("texelFetch {k}"))?;
            }
            Ok(())
        })
}

/// queries.comp: (view, extent, layers) of each sampled image, 4 levels each.
const QUERIED: [(vk::ImageViewType, [u32; 3], u32); 7] = [
    (V::TYPE_1D, [16, 1, 1], 1),
    (V::TYPE_1D_ARRAY, [8, 1, 1], 3),
    (V::TYPE_2D, [16, 8, 1], 1),
    (V::TYPE_2D_ARRAY, [8, 8, 1], 5),
    (V::TYPE_3D, [8, 16, 8], 1),
    (V::CUBE, [8, 8, 1], 6),
    (V::CUBE_ARRAY, [8, 8, 1], 12),
];

fn queries_case() -> Case {
    let lods: Vec<i32> = (0..N as i32).map(|i| i % 4).collect();
    let mut c = Case::new("images/queries", [1, 1, 1]).storage_of(&lods).output(N * 8 * 16);
    let s = sampler(Fl::NEAREST, M::NEAREST, A::REPEAT);
    for (k, &(view, extent, layers)) in QUERIED.iter().enumerate() {
        c = c.combined(2 + k as u32, ImageDesc::new(F::R8G8B8A8_UNORM, view, extent, 4, layers), s);
    }
    c = c.storage_image(9, ImageDesc::new(F::R8G8B8A8_UNORM, V::TYPE_2D_ARRAY, [6, 5, 1], 1, 3));
    let mut want: Vec<i32> = Vec::new();
    for l in lods {
        let e = |x: u32| (x >> l).max(1) as i32;
        for &(view, ex, layers) in &QUERIED {
            want.extend(match view {
                V::TYPE_1D => [e(ex[0]), 0, 0, 4],
                V::TYPE_1D_ARRAY => [e(ex[0]), layers as i32, 0, 4],
                V::TYPE_2D | V::CUBE => [e(ex[0]), e(ex[1]), 0, 4],
                V::TYPE_2D_ARRAY => [e(ex[0]), e(ex[1]), layers as i32, 4],
                V::CUBE_ARRAY => [e(ex[0]), e(ex[1]), layers as i32 / 6, 4],
                _ => [e(ex[0]), e(ex[1]), e(ex[2]), 4],
            });
        }
        want.extend([6, 5, 3, 0]);
    }
    c.check(move |o| {
        let got = o.get::<i32>(1);
        // Lavapipe (Mesa 22.3) answers every lane's textureSize with the lod of the first
        // lane of its SIMD vector (lod 0 here): that answer is accepted from it alone.
        let lavapipe = |i: usize| o.lavapipe() && got[32 * i..32 * i + 32] == want[..32];
        let bad = |i: usize| got[32 * i..32 * i + 32] != want[32 * i..32 * i + 32] && !lavapipe(i);
        match (0..N).find(|&i| bad(i)) {
            Some(i) => Err(format!(
                "invocation {i} (lod {}): got {:?}, expected {:?} (per image: size, levels)",
                i % 4,
                &got[32 * i..32 * i + 32],
                &want[32 * i..32 * i + 32]
            )),
            None => Ok(()),
        }
    })
}

/// Cube and cube array sampling: face coordinates in [1/8, 7/8] on the 1/64 grid, so that
/// the LINEAR footprint at both levels stays on the face (no seams to filter across).
fn cube_case() -> Case {
    let s = sampler(Fl::LINEAR, M::LINEAR, A::CLAMP_TO_EDGE);
    let tc = img(F::R8G8B8A8_UNORM, V::CUBE, [8, 8, 1], 2, 6, 900);
    let ta = img(F::R8G8B8A8_UNORM, V::CUBE_ARRAY, [8, 8, 1], 2, 12, 901);
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut layers: Vec<f32> = Vec::new();
    let mut want: Vec<[[f64; 4]; 2]> = Vec::new();
    for i in 0..N {
        let (fs, ft) = (f64::from(8 + h(i, 0) % 49) / 64.0, f64::from(8 + h(i, 1) % 49) / 64.0);
        let dir = direction(i as u32 % 6, fs, ft, [0.5, 1.0, 2.0][h(i, 2) as usize % 3]);
        let l = lod(h(i, 3), 1, false);
        let layer = f64::from(h(i, 4) % 2) + f64::from(h(i, 5) % 7) * 0.1 - 0.3;
        qs.push([dir[0] as f32, dir[1] as f32, dir[2] as f32, l as f32]);
        layers.push(layer as f32);
        let q = Query { coord: dir, layer, lod: l, ..Default::default() };
        want.push([Sampled { desc: &tc, s: &s }.sample(&q), Sampled { desc: &ta, s: &s }.sample(&q)]);
    }
    Case::new("images/cube", [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 2 * 16)
        .storage_of(&layers)
        .combined(3, tc, s)
        .combined(4, ta, s)
        .check(move |o| check_slots(&o.get::<f32>(1), &want, FILTERED_8, "cube textureLod"))
}

/// Seamless cube sampling (cube_seams.comp): LINEAR at level 0 and gathers on an 8×8 cube
/// at face coordinates on the 1/64 grid within a texel of the edges, so that footprints
/// cross edges and corners (Cube Map Edge Handling); the wrap modes (REPEAT) are not used.
fn cube_seams_case() -> Case {
    let s = sampler(Fl::LINEAR, M::NEAREST, A::REPEAT);
    let tc = img(F::R8G8B8A8_UNORM, V::CUBE, [8, 8, 1], 1, 6, 902);
    let tf = img(F::R32_SFLOAT, V::CUBE, [8, 8, 1], 1, 6, 903);
    let near_edge = |x: u32| f64::from(if x % 2 == 0 { 1 + x / 2 % 8 } else { 63 - x / 2 % 8 }) / 64.0;
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut want: Vec<[[f64; 4]; 3]> = Vec::new();
    for i in 0..N {
        let (fs, ft) = (near_edge(h(i, 0)), if i % 3 == 0 { 0.5 } else { near_edge(h(i, 1)) });
        let dir = direction(i as u32 % 6, fs, ft, [0.5, 1.0, 2.0][h(i, 2) as usize % 3]);
        qs.push([dir[0] as f32, dir[1] as f32, dir[2] as f32, 0.0]);
        let q = Query { coord: dir, ..Default::default() };
        let (c, f) = (Sampled { desc: &tc, s: &s }, Sampled { desc: &tf, s: &s });
        want.push([c.sample(&q), c.gather(&q, 1), f.gather(&q, 0)]);
    }
    Case::new("images/cube_seams", [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 3 * 16)
        .combined(3, tc, s)
        .combined(4, tf, s)
        .check(move |o| check_slots(&o.get::<f32>(1), &want, FILTERED_8, "cube seams"))
}

fn arrays_case() -> Case {
    let s = sampler(Fl::LINEAR, M::LINEAR, A::REPEAT);
    let s3 = s.address_mode_w(A::MIRRORED_REPEAT);
    let t1 = img(F::R8G8B8A8_UNORM, V::TYPE_1D, [8, 1, 1], 2, 1, 1000);
    let t1a = img(F::R8G8B8A8_UNORM, V::TYPE_1D_ARRAY, [8, 1, 1], 2, 3, 1001);
    let t2a = img(F::R8G8B8A8_UNORM, V::TYPE_2D_ARRAY, [8, 8, 1], 2, 3, 1002);
    let t3 = img(F::R8G8B8A8_UNORM, V::TYPE_3D, [8, 8, 8], 2, 1, 1003);
    let qs: Vec<[f32; 4]> = (0..N)
        .map(|i| {
            [coord(h(i, 0), 4, &[]), coord(h(i, 1), 4, &[]), layer_coord(h(i, 2)), lod(h(i, 3), 1, false)]
                .map(|x| x as f32)
        })
        .collect();
    let want: Vec<[[f64; 4]; 4]> = qs
        .iter()
        .map(|c| {
            let c = c.map(f64::from);
            let q = Query { coord: [c[0], c[1], c[2]], layer: c[2], lod: c[3], ..Default::default() };
            let q1a = Query { coord: [c[0], 0.0, 0.0], layer: c[2], ..q };
            [
                Sampled { desc: &t1, s: &s }.sample(&q),
                Sampled { desc: &t1a, s: &s }.sample(&q1a),
                Sampled { desc: &t2a, s: &s }.sample(&q),
                Sampled { desc: &t3, s: &s3 }.sample(&q),
            ]
        })
        .collect();
    Case::new("images/arrays", [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 4 * 16)
        .combined(2, t1, s)
        .combined(3, t1a, s)
        .combined(4, t2a, s)
        .combined(5, t3, s3)
        .check(move |o| check_slots(&o.get::<f32>(1), &want, FILTERED_8, "textureLod"))
}

/// A SAMPLED_IMAGE and a SAMPLER (immutable with `immutable`).
fn separate_case(immutable: bool) -> Case {
    let s = sampler(Fl::LINEAR, M::LINEAR, A::MIRRORED_REPEAT);
    let t = img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 2, 1, 1100);
    let qs: Vec<[f32; 4]> = (0..N)
        .map(|i| [coord(h(i, 0), 4, &[]), coord(h(i, 1), 4, &[]), lod(h(i, 2), 1, false), 0.0].map(|x| x as f32))
        .collect();
    let want: Vec<[[f64; 4]; 2]> = qs
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let q =
                Query { coord: [f64::from(c[0]), f64::from(c[1]), 0.0], lod: f64::from(c[2]), ..Default::default() };
            [Sampled { desc: &t, s: &s }.sample(&q), texel_i(&t, i)]
        })
        .collect();
    let mut c = Case::new("images/separate", [1, 1, 1])
        .named(if immutable { "immutable" } else { "written" })
        .storage(flat(&qs))
        .output(N * 2 * 16)
        .images(2, vk::DescriptorType::SAMPLED_IMAGE, vec![t], Vec::new())
        .images(3, vk::DescriptorType::SAMPLER, Vec::new(), vec![s]);
    if let Some(b) = c.images.last_mut() {
        b.immutable = immutable;
    }
    c.check(move |o| check_slots(&o.get::<f32>(1), &want, FILTERED_8, "separate sampler"))
}

/// Unnormalized coordinates: texel-space coordinates in [-1.5, 9.5] on the 1/16 grid
/// (NEAREST: not within 1/8 of a texel edge); the sampler's lod range is [0, 0].
fn unnormalized_case(filter: vk::Filter, address: vk::SamplerAddressMode) -> Case {
    let s = sampler(filter, M::NEAREST, address).unnormalized_coordinates(true).max_lod(0.0);
    let t = img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 1, 1, 1200);
    let pick = |mut x: u32| loop {
        let u = f64::from(x % 177) / 16.0 - 1.5;
        if filter == Fl::LINEAR || (0.125..=0.875).contains(&u.rem_euclid(1.0)) {
            return u;
        }
        x = hash(x);
    };
    let qs: Vec<[f32; 4]> = (0..N).map(|i| [pick(h(i, 0)) as f32, pick(h(i, 1)) as f32, 0.0, 0.0]).collect();
    let want: Vec<[f64; 4]> = qs
        .iter()
        .map(|c| {
            Sampled { desc: &t, s: &s }
                .sample(&Query { coord: [f64::from(c[0]), f64::from(c[1]), 0.0], ..Default::default() })
        })
        .collect();
    let tol = if filter == Fl::LINEAR { FILTERED_8 } else { EXACT };
    Case::new("images/unnormalized", [1, 1, 1])
        .named(&format!("{filter:?}").to_lowercase())
        .storage(flat(&qs))
        .output(N * 16)
        .combined(2, t, s)
        .check(move |o| near(&o.get::<f32>(1), 1, 0, &want, tol, "unnormalized textureLod"))
}

// ---- gathers and depth ----------------------------------------------------------------------

fn gather_cases() -> Vec<Case> {
    [(F::R8G8B8A8_UNORM, A::REPEAT), (F::R32G32_SFLOAT, A::CLAMP_TO_BORDER), (F::R8_UNORM, A::MIRRORED_REPEAT)]
        .into_iter()
        .map(|(f, a)| gather_case(f, a))
        .collect()
}

/// Gathers (gather.comp): coordinates on the 1/128 grid (1/16 texel of level 0).
fn gather_case(format: vk::Format, address: vk::SamplerAddressMode) -> Case {
    let s = sampler(Fl::LINEAR, M::NEAREST, address);
    let t = img(format, V::TYPE_2D, [8, 8, 1], 1, 1, 1300 + format.as_raw() as u32);
    let ta = img(F::R16G16B16A16_SFLOAT, V::TYPE_2D_ARRAY, [8, 8, 1], 1, 3, 1310);
    let offs = [[0, 0], [1, -1], [-2, 3], [7, -8]];
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut ds: Vec<[i32; 2]> = Vec::new();
    let mut want: Vec<[[f64; 4]; 8]> = Vec::new();
    for i in 0..N {
        let c = [coord(h(i, 0), 8, &[]), coord(h(i, 1), 8, &[]), layer_coord(h(i, 2))];
        // Dynamic offsets in -8..=7, the range every device with shaderImageGatherExtended
        // allows (minTexelGatherOffset, maxTexelGatherOffset).
        let d = [(h(i, 3) % 16) as i32 - 8, (h(i, 4) % 16) as i32 - 8];
        qs.push([c[0] as f32, c[1] as f32, c[2] as f32, 0.0]);
        ds.push(d);
        let r = Sampled { desc: &t, s: &s };
        let q = |o: [i32; 2]| Query { coord: c, layer: c[2], offset: [o[0], o[1], 0], ..Default::default() };
        let offsets: [f64; 4] = std::array::from_fn(|k| r.gather(&q(offs[k]), 0)[3]);
        want.push([
            r.gather(&q([0, 0]), 0),
            r.gather(&q([0, 0]), 1),
            r.gather(&q([0, 0]), 2),
            r.gather(&q([0, 0]), 3),
            r.gather(&q([-3, 2]), 1),
            offsets,
            r.gather(&q(d), 3),
            Sampled { desc: &ta, s: &s }.gather(&q([0, 0]), 2),
        ]);
    }
    let tol = unfiltered(format);
    Case::new("images/gather", [1, 1, 1])
        .named(&format!("{format:?}_{address:?}").to_lowercase())
        .storage(flat(&qs))
        .output(N * 8 * 16)
        .storage_of(&ds)
        .combined(3, t, s)
        .combined(4, ta, s)
        .needs(&[Need::Device(Feature::ImageGatherExtended)])
        .check(move |o| check_slots(&o.get::<f32>(1), &want, tol, "gather"))
}

fn depth_cases() -> Vec<Case> {
    vec![
        shadow_case(Fl::LINEAR, vk::CompareOp::LESS),
        shadow_case(Fl::NEAREST, vk::CompareOp::GREATER_OR_EQUAL),
        shadow_array_case(),
    ]
}

/// A compare sampler over D32_SFLOAT: depths k/64 + 1/128, references k/64 (never equal).
fn shadow_sampler(filter: vk::Filter, op: vk::CompareOp) -> vk::SamplerCreateInfo<'static> {
    sampler(filter, M::NEAREST, A::CLAMP_TO_EDGE).compare_enable(true).compare_op(op)
}

/// sampler2DShadow: textureLod (compare then filter: the spec's "should", PCF) and gathers
/// of the comparisons.
fn shadow_case(filter: vk::Filter, op: vk::CompareOp) -> Case {
    let s = shadow_sampler(filter, op);
    let t = img(F::D32_SFLOAT, V::TYPE_2D, [8, 8, 1], 1, 1, 1400);
    let nearest = if filter == Fl::NEAREST { vec![8] } else { Vec::new() };
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut want: Vec<[[f64; 4]; 3]> = Vec::new();
    for i in 0..N {
        let c = [coord(h(i, 0), 8, &nearest), coord(h(i, 1), 8, &nearest), 0.0];
        let r = f64::from(h(i, 2) % 65) / 64.0;
        qs.push([c[0] as f32, c[1] as f32, 0.0, r as f32]);
        let smp = Sampled { desc: &t, s: &s };
        let q = |o: [i32; 3]| Query { coord: c, dref: Some(r), offset: o, ..Default::default() };
        want.push([smp.sample(&q([0; 3])), smp.gather(&q([0; 3]), 0), smp.gather(&q([1, -2, 0]), 0)]);
    }
    Case::new("images/shadow", [1, 1, 1])
        .named(&format!("{filter:?}_{op:?}").to_lowercase())
        .storage(flat(&qs))
        .output(N * 3 * 16)
        .combined(2, t, s)
        .check(move |o| {
            let got = o.get::<f32>(1);
            let w0: Vec<[f64; 4]> = want.iter().map(|w| w[0]).collect();
            near(&got, 3, 0, &w0, FILTERED_8, "textureLod with a reference")?;
            for k in 1..3 {
                let w: Vec<[f64; 4]> = want.iter().map(|w| w[k]).collect();
                near(&got, 3, k, &w, 0.0, &format!("gather of comparisons {k}"))?;
            }
            Ok(())
        })
}

fn shadow_array_case() -> Case {
    let s = shadow_sampler(Fl::LINEAR, vk::CompareOp::LESS_OR_EQUAL);
    let t = img(F::D32_SFLOAT, V::TYPE_2D_ARRAY, [8, 8, 1], 2, 3, 1500);
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut lods: Vec<f32> = Vec::new();
    let mut want: Vec<f64> = Vec::new();
    for i in 0..N {
        let c = [coord(h(i, 0), 4, &[]), coord(h(i, 1), 4, &[]), 0.0];
        let (layer, r, l) = (layer_coord(h(i, 2)), f64::from(h(i, 3) % 65) / 64.0, lod(h(i, 4), 1, true));
        qs.push([c[0] as f32, c[1] as f32, layer as f32, r as f32]);
        lods.push(l as f32);
        let q = Query { coord: c, layer, lod: l, dref: Some(r), ..Default::default() };
        want.push(Sampled { desc: &t, s: &s }.sample(&q)[0]);
    }
    Case::new("images/shadow_array", [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 4)
        .storage_of(&lods)
        .combined(3, t, s)
        .check(move |o| {
            let got = o.get::<f32>(1);
            match (0..N).find(|&i| off(f64::from(got[i]), want[i], FILTERED_8)) {
                Some(i) => Err(format!("invocation {i}: {}, expected {}", got[i], want[i])),
                None => Ok(()),
            }
        })
}

// ---- descriptors ----------------------------------------------------------------------------

fn descriptor_cases() -> Vec<Case> {
    vec![index_uniform_case(1), index_uniform_case(3), index_nonuniform_case()]
}

/// index_uniform.comp with push constant `k`.
fn index_uniform_case(k: usize) -> Case {
    let ts: Vec<ImageDesc> = (0..4).map(|j| img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 1, 1, 1600 + j)).collect();
    let imgs: Vec<ImageDesc> = (0..3).map(|_| ImageDesc::new(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 1, 1)).collect();
    let src = ts[k].clone();
    Case::new("images/index_uniform", [1, 1, 1])
        .named(&format!("k{k}"))
        .output(4)
        .output(N * 16)
        .images(2, vk::DescriptorType::SAMPLED_IMAGE, ts, Vec::new())
        .images(3, vk::DescriptorType::SAMPLER, Vec::new(), vec![sampler(Fl::NEAREST, M::NEAREST, A::REPEAT)])
        .images(4, vk::DescriptorType::STORAGE_IMAGE, imgs, Vec::new())
        .push((k as i32).to_le_bytes().to_vec())
        .needs(&[
            Need::Device(Feature::SampledImageArrayDynamicIndexing),
            Need::Device(Feature::StorageImageArrayDynamicIndexing),
        ])
        .check(move |o| {
            let want: Vec<[f64; 4]> = (0..N).map(|i| texel_i(&src, i)).collect();
            near(&o.get::<f32>(1), 1, 0, &want, EXACT, "texelFetch of ts[k]")?;
            for j in 0..3 {
                let d = ImageDesc::new(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 1, 1).with(o.images[4 + j].clone());
                for (i, w) in want.iter().enumerate() {
                    let got = texel_i(&d, i);
                    let w = if j == k % 3 { *w } else { [0.0; 4] };
                    if (0..4).any(|c| !stored_ok(F::R8G8B8A8_UNORM, 8, w[c], got[c])) {
                        return Err(format!("imgs[{j}] texel {i}: {got:?}, expected {w:?}"));
                    }
                }
            }
            Ok(())
        })
}

fn index_nonuniform_case() -> Case {
    let ts: Vec<ImageDesc> = (0..4).map(|j| img(F::R8G8B8A8_UNORM, V::TYPE_2D, [8, 8, 1], 2, 1, 1700 + j)).collect();
    let ss = vec![
        sampler(Fl::LINEAR, M::NEAREST, A::REPEAT),
        sampler(Fl::NEAREST, M::NEAREST, A::CLAMP_TO_EDGE),
        sampler(Fl::LINEAR, M::LINEAR, A::MIRRORED_REPEAT),
        sampler(Fl::LINEAR, M::NEAREST, A::CLAMP_TO_BORDER),
    ];
    let mut qs: Vec<[f32; 4]> = Vec::new();
    let mut want: Vec<[[f64; 4]; 2]> = Vec::new();
    for i in 0..N {
        let j = i % 4;
        let nearest = if ss[j].min_filter == Fl::NEAREST { sizes(8, 2) } else { Vec::new() };
        let c = [coord(h(i, 0), 4, &nearest), coord(h(i, 1), 4, &nearest), 0.0];
        let l = lod(h(i, 2), 1, ss[j].mipmap_mode == M::NEAREST);
        qs.push([c[0] as f32, c[1] as f32, l as f32, 0.0]);
        let q = Query { coord: c, lod: l, ..Default::default() };
        want.push([Sampled { desc: &ts[j], s: &ss[j] }.sample(&q), texel_i(&ts[(i / 4) % 4], i)]);
    }
    Case::new("images/index_nonuniform", [1, 1, 1])
        .storage(flat(&qs))
        .output(N * 2 * 16)
        .images(2, vk::DescriptorType::COMBINED_IMAGE_SAMPLER, ts, ss)
        .needs(&[
            Need::Device(Feature::SampledImageArrayDynamicIndexing),
            Need::Device(Feature::SampledImageArrayNonUniformIndexing),
        ])
        .check(move |o| check_slots(&o.get::<f32>(1), &want, FILTERED_8, "nonuniform sampling"))
}
