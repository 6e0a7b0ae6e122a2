//! Sampled images: `image_sample.comp` (per invocation `textureLod`, `texelFetch`,
//! `textureGather` of component 1 or the depth reference, and `textureSize` at level 1 with
//! `textureQueryLevels`) on 8x8 images, checked against a CPU reference written from the
//! Vulkan spec's "Texel Filtering", "Wrapping Operation", "Texel Gathering" and "Depth
//! Compare Operation". The cases cover LINEAR and NEAREST filters, NEAREST and LINEAR mip
//! modes (fractional lods), every address mode but mirror-clamp (border: opaque white),
//! combined, separate (texture + sampler) and immutable-sampler descriptors, a 2D array with
//! non-integer layers, unnormalized coordinates, depth compare (PCF and dref gathers), and
//! sRGB decoding.
//!
//! Tolerance: the spec lets an implementation quantise the filter weights to
//! `subTexelPrecisionBits` and the lod fraction to `mipmapPrecisionBits`, both at least 4.
//! The coordinates are therefore chosen so that `frac(u * size - 0.5)` at every level and
//! the lod fraction are multiples of 1/16: every quantisation with 4 or more bits gives the
//! exact weights. What is left is the filter's arithmetic (an implementation may filter
//! 8-bit texels in fixed point, and decode sRGB with its own table): 1/128 absolute on
//! filtered results, enough for those few ulps of 8 bits. Fetches, gathers (no filter),
//! sizes and level counts are exact (1e-6), except sRGB fetches and gathers: 1/512, the
//! least power of two lavapipe passes with (its decode is off by up to 0.0012). NEAREST
//! coordinates keep `frac(u * size)` in [0.15, 0.85] at both levels, and NEAREST mip lods
//! away from x.5. Depth compare with LINEAR is checked as compare-then-filter (PCF),
//! which the spec recommends ("should") rather than requires.
//!
//! The unnormalized case's view must have one level: its level-1 fetches and
//! `textureSize(_, 1)` are undefined and unchecked. The depth case skips on a queue without
//! GRAPHICS (softnavi's default): no valid command fills a depth image there.

use ash::vk;
use softnavi_examples::{Context, MemoryLocation};

use super::{barrier_on, create_image, pipe_with, report, vkerr, ImageSpec, Res};

/// Invocations per case (two workgroups of 64, the second partly idle).
const N: usize = 96;
/// Each image level 0 is `SIZE` x `SIZE`.
const SIZE: u32 = 8;
/// Filtered results' tolerance (see the module doc).
const FILTERED: f32 = 1.0 / 128.0;
/// Unfiltered values' tolerance.
const EXACT: f32 = 1e-6;
/// Unfiltered sRGB values' tolerance: the least power of two lavapipe passes with (its
/// 8-bit sRGB decode is off by up to 0.0012).
const SRGB: f32 = 1.0 / 512.0;

/// How texels are stored, and decoded by the sampler.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Texels {
    Unorm8,
    Srgb8,
    /// R32_SFLOAT, values in [0, 1].
    R32f,
    /// D32_SFLOAT depths.
    Depth,
}

/// How the shader reaches the image and the sampler.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Desc {
    Combined,
    /// Binding 0 a SAMPLED_IMAGE, binding 3 a SAMPLER.
    Separate,
    /// A combined image sampler binding with an immutable sampler.
    Immutable,
}

struct Case {
    name: &'static str,
    spirv: &'static [u8],
    format: vk::Format,
    texels: Texels,
    layers: u32,
    levels: u32,
    desc: Desc,
    filter: vk::Filter,
    mip: vk::SamplerMipmapMode,
    address: [vk::SamplerAddressMode; 2],
    unnormalized: bool,
}

macro_rules! spv {
    ($n:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/image_sample_", $n, ".spv"))
    };
}

fn cases() -> Vec<Case> {
    use vk::{Filter as Fl, Format as F, SamplerAddressMode as A, SamplerMipmapMode as M};
    let base = Case {
        name: "sample_rgba8_linear_repeat",
        spirv: spv!("2d"),
        format: F::R8G8B8A8_UNORM,
        texels: Texels::Unorm8,
        layers: 1,
        levels: 2,
        desc: Desc::Combined,
        filter: Fl::LINEAR,
        mip: M::NEAREST,
        address: [A::REPEAT; 2],
        unnormalized: false,
    };
    let nearest = Case { name: "sample_rgba8_nearest_clamp_mirror", filter: Fl::NEAREST, ..base };
    let nearest = Case { address: [A::CLAMP_TO_EDGE, A::MIRRORED_REPEAT], ..nearest };
    let border = Case { name: "sample_r32f_trilinear_border", format: F::R32_SFLOAT, texels: Texels::R32f, ..base };
    let border = Case { mip: M::LINEAR, address: [A::CLAMP_TO_BORDER; 2], ..border };
    let array = Case { name: "sample_2darray_separate", spirv: spv!("array_separate"), layers: 3, ..base };
    let array = Case { desc: Desc::Separate, address: [A::CLAMP_TO_EDGE; 2], ..array };
    let unnorm = Case { name: "sample_unnormalized", spirv: spv!("2d_nogather"), levels: 1, ..base };
    let unnorm = Case { unnormalized: true, address: [A::CLAMP_TO_EDGE; 2], ..unnorm };
    let shadow = Case { name: "sample_shadow_d32_pcf", spirv: spv!("shadow"), format: F::D32_SFLOAT, ..base };
    let shadow = Case { texels: Texels::Depth, levels: 1, address: [A::CLAMP_TO_EDGE; 2], ..shadow };
    let immutable = Case { name: "sample_immutable_sampler", desc: Desc::Immutable, ..base };
    let srgb = Case { name: "sample_srgb_nearest", format: F::R8G8B8A8_SRGB, texels: Texels::Srgb8, ..base };
    let srgb = Case { filter: Fl::NEAREST, address: [A::REPEAT, A::CLAMP_TO_EDGE], ..srgb };
    vec![base, nearest, border, array, unnorm, shadow, immutable, srgb]
}

/// Runs every sampling case, printing its `PASS`/`FAIL`/`SKIP` line.
pub(super) fn run_all(ctx: &Context, code: &mut u8) {
    for c in cases() {
        match skip_reason(ctx, &c) {
            Some(why) => println!("SKIP {}: {why}", c.name),
            None => report(c.name, run_case(ctx, &c), code),
        }
    }
}

/// Why the device cannot run the case: a format feature it lacks, or (depth) a queue
/// without GRAPHICS, where copies to a depth aspect are invalid
/// (VUID-vkCmdCopyBufferToImage-commandBuffer-07739) and nothing else can fill one.
fn skip_reason(ctx: &Context, c: &Case) -> Option<String> {
    if let Some(f) = missing_feature(ctx, c) {
        return Some(format!("{:?} has no {f} feature", c.format));
    }
    // SAFETY: a plain query.
    let families = unsafe { ctx.instance().get_physical_device_queue_family_properties(ctx.physical_device()) };
    let graphics = families[ctx.queue_family_index() as usize].queue_flags.contains(vk::QueueFlags::GRAPHICS);
    (c.texels == Texels::Depth && !graphics).then(|| "no GRAPHICS queue to copy depths into the image with".into())
}

/// The format feature the case needs that the device lacks, if any.
fn missing_feature(ctx: &Context, c: &Case) -> Option<&'static str> {
    use vk::FormatFeatureFlags2 as F;
    let mut p3 = vk::FormatProperties3::default();
    let mut p2 = vk::FormatProperties2::default().push_next(&mut p3);
    // SAFETY: a plain query (Vulkan 1.1, and FormatProperties3 is ignored before 1.3).
    unsafe { ctx.instance().get_physical_device_format_properties2(ctx.physical_device(), c.format, &mut p2) };
    let legacy = F::from_raw(u64::from(p2.format_properties.optimal_tiling_features.as_raw()));
    let have = if ctx.api_version() >= vk::API_VERSION_1_3 { p3.optimal_tiling_features } else { legacy };
    let mut need = vec![(F::SAMPLED_IMAGE, "sampled image")];
    // Depth compare needs the depth comparison feature, not the linear filter one.
    let linear = c.filter == vk::Filter::LINEAR || c.mip == vk::SamplerMipmapMode::LINEAR;
    if linear && c.texels != Texels::Depth {
        need.push((F::SAMPLED_IMAGE_FILTER_LINEAR, "linear filter"));
    }
    if c.texels == Texels::Depth && ctx.api_version() >= vk::API_VERSION_1_3 {
        need.push((F::SAMPLED_IMAGE_DEPTH_COMPARISON, "depth comparison"));
    }
    need.into_iter().find(|(f, _)| !have.contains(*f)).map(|(_, why)| why)
}

// ---------------------------------------------------------------------------------------
// Texels
// ---------------------------------------------------------------------------------------

/// The image's contents: decoded RGBA per level and layer (`texels[level][layer][y][x]`),
/// and the bytes uploaded (levels one after another, each all layers).
struct Tex {
    texels: Vec<Vec<Vec<[f32; 4]>>>,
    bytes: Vec<u8>,
}

/// sRGB EOTF (Vulkan spec, "sRGB transfer functions").
fn srgb_to_linear(c: f32) -> f32 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

fn hash(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9e37_79b1) ^ (x >> 15);
    x = x.wrapping_mul(0x85eb_ca6b) ^ (x >> 13);
    x ^ (x >> 16)
}

/// One texel's stored bytes and decoded value, from seed `s`.
fn texel(t: Texels, s: u32) -> (Vec<u8>, [f32; 4]) {
    let b: [u8; 4] = std::array::from_fn(|c| (hash(s * 4 + c as u32) >> 8) as u8);
    let n = b.map(|x| f32::from(x) / 255.0);
    match t {
        Texels::Unorm8 => (b.to_vec(), n),
        Texels::Srgb8 => (b.to_vec(), [srgb_to_linear(n[0]), srgb_to_linear(n[1]), srgb_to_linear(n[2]), n[3]]),
        Texels::R32f => (n[0].to_le_bytes().to_vec(), [n[0], 0.0, 0.0, 1.0]),
        // Depths k/64 + 1/128: never equal to a reference k/64.
        Texels::Depth => {
            let d = f32::from(b[0] % 64) / 64.0 + 1.0 / 128.0;
            (d.to_le_bytes().to_vec(), [d, 0.0, 0.0, 1.0])
        }
    }
}

fn level_size(level: u32) -> u32 {
    (SIZE >> level).max(1)
}

fn make_tex(c: &Case) -> Tex {
    let mut bytes = Vec::new();
    let texels = (0..c.levels)
        .map(|m| {
            let n = level_size(m);
            (0..c.layers)
                .map(|l| {
                    (0..n * n)
                        .map(|i| {
                            let (b, v) = texel(c.texels, ((m * 7 + l) << 8) + i + c.format.as_raw() as u32);
                            bytes.extend(b);
                            v
                        })
                        .collect()
                })
                .collect()
        })
        .collect();
    Tex { texels, bytes }
}

// ---------------------------------------------------------------------------------------
// Inputs
// ---------------------------------------------------------------------------------------

/// Invocation `i`'s (u, v, lod, layer or depth reference).
fn query(c: &Case, i: usize) -> [f32; 4] {
    let h = |k: u32| hash(i as u32 * 8 + k + 1000);
    let coord = |k: u32| coordinate(c, h(k));
    let lod = if c.unnormalized { 0.0 } else { lod(c, h(2)) };
    let w = match c.texels {
        // References k/64 in [0, 1].
        Texels::Depth => (h(3) % 65) as f32 / 64.0,
        // Layers -1..=3 plus -0.3..=0.3: rounding is never a tie.
        _ => (h(3) % 5) as f32 - 1.0 + ((h(3) / 5) % 7) as f32 * 0.1 - 0.3,
    };
    [coord(0), coord(1), lod, w]
}

/// A coordinate in [-1.25, 2.25], a multiple of 1/64 (1/16 texel at level 1, see the
/// module doc); for NEAREST, `frac(u * 8)` and `frac(u * 4)` in [0.15, 0.85]. In texels
/// (multiples of 1/16, in [-1.5, 9.5]) for unnormalized coordinates.
fn coordinate(c: &Case, h: u32) -> f32 {
    if c.unnormalized {
        return (h % 177) as f32 / 16.0 - 1.5;
    }
    if c.filter == vk::Filter::NEAREST {
        const OK: [i32; 8] = [3, 4, 5, 6, 10, 11, 12, 13];
        let k = (h % 14) as i32 * 16 - 80 + OK[(h / 14 % 8) as usize];
        return k as f32 / 64.0;
    }
    ((h % 225) as i32 - 80) as f32 / 64.0
}

/// A lod in [-0.5, 1.5], a multiple of 1/16; for NEAREST mips not within 1/16 of x.5.
fn lod(c: &Case, h: u32) -> f32 {
    let mut m = (h % 33) as i32 - 8;
    if c.mip == vk::SamplerMipmapMode::NEAREST && matches!(m.rem_euclid(16), 7..=9) {
        m -= 3;
    }
    m as f32 / 16.0
}

// ---------------------------------------------------------------------------------------
// CPU reference
// ---------------------------------------------------------------------------------------

/// Wrapping Operation: the texel index `i` of a level `size` wide, `None` for a border texel.
fn wrap(i: i32, size: i32, mode: vk::SamplerAddressMode) -> Option<i32> {
    use vk::SamplerAddressMode as A;
    match mode {
        A::REPEAT => Some(i.rem_euclid(size)),
        A::MIRRORED_REPEAT => {
            let t = i.rem_euclid(2 * size) - size;
            let mirror = if t >= 0 { t } else { -(1 + t) };
            Some(size - 1 - mirror)
        }
        A::CLAMP_TO_EDGE => Some(i.clamp(0, size - 1)),
        _ => (0..size).contains(&i).then_some(i),
    }
}

/// One tap: the texel (or opaque white border) at (i, j), or its depth comparison.
fn tap(c: &Case, tex: &Tex, (level, layer): (u32, usize), (i, j): (i32, i32), dref: Option<f32>) -> [f32; 4] {
    let n = level_size(level) as i32;
    let v = match (wrap(i, n, c.address[0]), wrap(j, n, c.address[1])) {
        (Some(x), Some(y)) => tex.texels[level as usize][layer][(y * n + x) as usize],
        // Texel Replacement: the border color replaces the format's components only; the
        // others come from the conversion to RGBA (0, 0, 1).
        _ if matches!(c.texels, Texels::R32f | Texels::Depth) => [1.0, 0.0, 0.0, 1.0],
        _ => [1.0; 4],
    };
    // Depth Compare Operation, LESS: the reference < the texel's depth.
    dref.map_or(v, |r| [f32::from(u8::from(r < v[0])); 4])
}

/// The LINEAR footprint of (u, v) at `level`: (i0, j0) and the weights (alpha, beta).
fn footprint(c: &Case, level: u32, u: f32, v: f32) -> ((i32, i32), (f32, f32)) {
    let n = if c.unnormalized { 1.0 } else { level_size(level) as f32 };
    let (s, t) = (u * n - 0.5, v * n - 0.5);
    ((s.floor() as i32, t.floor() as i32), (s - s.floor(), t - t.floor()))
}

/// Texel Filtering at one level: NEAREST or LINEAR (taps compared before filtering).
fn filter_level(c: &Case, tex: &Tex, at: (u32, usize), u: f32, v: f32, dref: Option<f32>) -> [f32; 4] {
    if c.filter == vk::Filter::NEAREST {
        let n = if c.unnormalized { 1.0 } else { level_size(at.0) as f32 };
        return tap(c, tex, at, ((u * n).floor() as i32, (v * n).floor() as i32), dref);
    }
    let ((i0, j0), (a, b)) = footprint(c, at.0, u, v);
    let t = |di, dj| tap(c, tex, at, (i0 + di, j0 + dj), dref);
    let (t00, t10, t01, t11) = (t(0, 0), t(1, 0), t(0, 1), t(1, 1));
    std::array::from_fn(|k| {
        (1.0 - a) * (1.0 - b) * t00[k] + a * (1.0 - b) * t10[k] + (1.0 - a) * b * t01[k] + a * b * t11[k]
    })
}

/// The array layer of coordinate `w`: round to nearest even, clamp to the layers.
fn layer_of(c: &Case, w: f32) -> usize {
    if c.layers == 1 {
        return 0;
    }
    w.round_ties_even().clamp(0.0, (c.layers - 1) as f32) as usize
}

/// `textureLod`: the lod clamped to [0, levels - 1], then the mip mode's level(s).
fn texture_lod(c: &Case, tex: &Tex, q: [f32; 4]) -> [f32; 4] {
    let d = q[2].clamp(0.0, (c.levels - 1) as f32);
    let layer = layer_of(c, q[3]);
    let dref = (c.texels == Texels::Depth).then_some(q[3]);
    let at = |m: u32| filter_level(c, tex, (m, layer), q[0], q[1], dref);
    if c.mip == vk::SamplerMipmapMode::NEAREST {
        return at(((d + 0.5).ceil() - 1.0) as u32);
    }
    let lo = d.floor();
    let f = d - lo;
    let (a, b) = (at(lo as u32), at((lo as u32 + 1).min(c.levels - 1)));
    std::array::from_fn(|k| a[k] * (1.0 - f) + b[k] * f)
}

/// `textureGather`: (i0j1, i1j1, i1j0, i0j0) at level 0, component 1 or the comparison.
fn gather(c: &Case, tex: &Tex, q: [f32; 4]) -> [f32; 4] {
    let at = (0, layer_of(c, q[3]));
    let dref = (c.texels == Texels::Depth).then_some(q[3]);
    let ((i0, j0), _) = footprint(c, 0, q[0], q[1]);
    let g = |di, dj| tap(c, tex, at, (i0 + di, j0 + dj), dref)[if dref.is_some() { 0 } else { 1 }];
    [g(0, 1), g(1, 1), g(1, 0), g(0, 0)]
}

/// What invocation `i` writes: 16 floats, each with its tolerance (`None`: undefined,
/// unchecked).
fn expected(c: &Case, tex: &Tex, i: usize, q: [f32; 4]) -> [Option<(f32, f32)>; 16] {
    let mut out = [None; 16];
    let mut put = |k: usize, v: [f32; 4], tol: f32| {
        for (o, x) in out[4 * k..4 * k + 4].iter_mut().zip(v) {
            *o = Some((x, tol));
        }
    };
    put(0, texture_lod(c, tex, q), FILTERED);
    let shadow = c.texels == Texels::Depth;
    let level = (i & 1) as u32;
    let exact = if c.texels == Texels::Srgb8 { SRGB } else { EXACT };
    if shadow {
        put(1, [0.0; 4], EXACT);
    } else if level < c.levels {
        let (x, y, layer) = (i % 4, i / 4 % 4, if c.layers > 1 { i % 3 } else { 0 });
        put(1, tex.texels[level as usize][layer][y * level_size(level) as usize + x], exact);
    }
    put(2, if c.unnormalized { [0.0; 4] } else { gather(c, tex, q) }, exact);
    let (levels, s1) = (c.levels as f32, level_size(1) as f32);
    match (shadow, c.layers > 1) {
        (true, _) => put(3, [SIZE as f32, SIZE as f32, levels, 0.0], EXACT),
        (false, true) => put(3, [s1, s1, c.layers as f32, levels], EXACT),
        // A one-level view: textureSize at level 1 is undefined.
        _ if c.levels == 1 => out[14..].copy_from_slice(&[Some((1.0, EXACT)), Some((0.0, EXACT))]),
        _ => put(3, [s1, s1, levels, 0.0], EXACT),
    }
    out
}

/// The first output that is off, as a message.
fn compare(c: &Case, tex: &Tex, qs: &[[f32; 4]], got: &[f32]) -> Result<(), String> {
    const WHAT: [&str; 4] = ["textureLod", "texelFetch", "textureGather", "size/levels"];
    for (i, &q) in qs.iter().enumerate() {
        let want = expected(c, tex, i, q);
        let g = &got[16 * i..16 * i + 16];
        let bad = |k: usize| want[k].is_some_and(|(w, tol)| (g[k] - w).abs() > tol || g[k].is_nan());
        if let Some(k) = (0..16).find(|&k| bad(k)) {
            let w: Vec<_> =
                want[k & !3..(k & !3) + 4].iter().map(|o| o.map_or("-".into(), |(w, _)| w.to_string())).collect();
            return Err(format!(
                "invocation {i} {} (u, v, lod, w) = {q:?}: got {:?}, expected [{}]",
                WHAT[k / 4],
                &g[k & !3..(k & !3) + 4],
                w.join(", ")
            ));
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------
// Vulkan
// ---------------------------------------------------------------------------------------

/// A sampler, destroyed on drop.
struct Sampler<'c> {
    ctx: &'c Context,
    sampler: vk::Sampler,
}

impl Drop for Sampler<'_> {
    fn drop(&mut self) {
        // SAFETY: the device is idle; a null handle is ignored.
        unsafe { self.ctx.device().destroy_sampler(self.sampler, None) };
    }
}

fn sampler<'c>(ctx: &'c Context, c: &Case) -> Res<Sampler<'c>> {
    let info = vk::SamplerCreateInfo::default()
        .mag_filter(c.filter)
        .min_filter(c.filter)
        .mipmap_mode(c.mip)
        .address_mode_u(c.address[0])
        .address_mode_v(c.address[1])
        .address_mode_w(vk::SamplerAddressMode::CLAMP_TO_EDGE)
        .min_lod(0.0)
        .max_lod(if c.unnormalized { 0.0 } else { vk::LOD_CLAMP_NONE })
        .border_color(vk::BorderColor::FLOAT_OPAQUE_WHITE)
        .unnormalized_coordinates(c.unnormalized)
        .compare_enable(c.texels == Texels::Depth)
        .compare_op(vk::CompareOp::LESS);
    // SAFETY: a valid create info.
    let sampler = unsafe { ctx.device().create_sampler(&info, None) }.map_err(vkerr("vkCreateSampler"))?;
    Ok(Sampler { ctx, sampler })
}

fn aspect(c: &Case) -> vk::ImageAspectFlags {
    if c.texels == Texels::Depth {
        vk::ImageAspectFlags::DEPTH
    } else {
        vk::ImageAspectFlags::COLOR
    }
}

fn image_spec(c: &Case) -> ImageSpec {
    let view = if c.layers > 1 { vk::ImageViewType::TYPE_2D_ARRAY } else { vk::ImageViewType::TYPE_2D };
    ImageSpec {
        flags: vk::ImageCreateFlags::empty(),
        ty: vk::ImageType::TYPE_2D,
        format: c.format,
        extent: [SIZE, SIZE, 1],
        levels: c.levels,
        layers: c.layers,
        usage: vk::ImageUsageFlags::SAMPLED | vk::ImageUsageFlags::TRANSFER_DST,
        view,
        aspect: aspect(c),
        range: (0, c.levels, 0, c.layers),
    }
}

/// Copy regions for every level, all layers, tightly packed one after another.
fn regions(c: &Case, tex: &Tex) -> Vec<vk::BufferImageCopy> {
    let texel = tex.bytes.len() / tex.texels.iter().flatten().map(Vec::len).sum::<usize>();
    let mut off = 0;
    (0..c.levels)
        .map(|m| {
            let n = level_size(m);
            let r = vk::BufferImageCopy::default()
                .buffer_offset(off as u64)
                .image_subresource(vk::ImageSubresourceLayers {
                    aspect_mask: aspect(c),
                    mip_level: m,
                    base_array_layer: 0,
                    layer_count: c.layers,
                })
                .image_extent(vk::Extent3D { width: n, height: n, depth: 1 });
            off += (n * n * c.layers) as usize * texel;
            r
        })
        .collect()
}

/// Set 0: the image (and sampler) in binding 0 (and 3), the inputs and outputs in 1 and 2.
fn bindings<'a>(c: &Case, immutable: &'a [vk::Sampler; 1]) -> Vec<vk::DescriptorSetLayoutBinding<'a>> {
    use vk::DescriptorType as D;
    let b = |i, ty| {
        vk::DescriptorSetLayoutBinding::default()
            .binding(i)
            .descriptor_type(ty)
            .descriptor_count(1)
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
    };
    let mut v = vec![b(1, D::STORAGE_BUFFER), b(2, D::STORAGE_BUFFER)];
    match c.desc {
        Desc::Combined => v.push(b(0, D::COMBINED_IMAGE_SAMPLER)),
        Desc::Immutable => v.push(b(0, D::COMBINED_IMAGE_SAMPLER).immutable_samplers(immutable)),
        Desc::Separate => v.extend([b(0, D::SAMPLED_IMAGE), b(3, D::SAMPLER)]),
    }
    v
}

/// Writes the set: the view (with the sampler unless immutable), the buffers.
fn write_set(
    ctx: &Context,
    c: &Case,
    set: vk::DescriptorSet,
    view: vk::ImageView,
    s: vk::Sampler,
    bufs: [vk::Buffer; 2],
) {
    use vk::DescriptorType as D;
    let layout = vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL;
    let combined_sampler = if c.desc == Desc::Combined { s } else { vk::Sampler::null() };
    let img = [vk::DescriptorImageInfo::default().image_view(view).image_layout(layout).sampler(combined_sampler)];
    let smp = [vk::DescriptorImageInfo::default().sampler(s)];
    let buf = bufs.map(|b| [vk::DescriptorBufferInfo::default().buffer(b).range(vk::WHOLE_SIZE)]);
    let w = |binding, ty| vk::WriteDescriptorSet::default().dst_set(set).dst_binding(binding).descriptor_type(ty);
    let img_ty = if c.desc == Desc::Separate { D::SAMPLED_IMAGE } else { D::COMBINED_IMAGE_SAMPLER };
    let mut writes = vec![
        w(0, img_ty).image_info(&img),
        w(1, D::STORAGE_BUFFER).buffer_info(&buf[0]),
        w(2, D::STORAGE_BUFFER).buffer_info(&buf[1]),
    ];
    if c.desc == Desc::Separate {
        writes.push(w(3, D::SAMPLER).image_info(&smp));
    }
    // SAFETY: live set, view, sampler and buffers; the set is not in use.
    unsafe { ctx.device().update_descriptor_sets(&writes, &[]) };
}

/// Runs one case: `Ok(Err(why))` on a mismatch.
fn run_case(ctx: &Context, c: &Case) -> Res<Result<(), String>> {
    let tex = make_tex(c);
    let qs: Vec<[f32; 4]> = (0..N).map(|i| query(c, i)).collect();
    let storage = vk::BufferUsageFlags::STORAGE_BUFFER;
    let mut staging = ctx.create_buffer(
        "staging",
        tex.bytes.len() as u64,
        vk::BufferUsageFlags::TRANSFER_SRC,
        MemoryLocation::CpuToGpu,
    )?;
    staging.write(&tex.bytes)?;
    let mut input = ctx.create_buffer("q", (N * 16) as u64, storage, MemoryLocation::CpuToGpu)?;
    input.write(qs.as_flattened())?;
    let mut output = ctx.create_buffer("o", (N * 64) as u64, storage, MemoryLocation::CpuToGpu)?;
    output.write(&vec![0x5a5a_5a5au32; N * 16])?;
    let img = create_image(ctx, &image_spec(c))?;
    let s = sampler(ctx, c)?;
    let immutable = [s.sampler];
    let p = pipe_with(ctx, c.spirv, &bindings(c, &immutable), 4)?;
    write_set(ctx, c, p.set, img.view, s.sampler, [input.handle(), output.handle()]);
    let regions = regions(c, &tex);
    let d = ctx.device();
    use vk::{AccessFlags2 as A, ImageLayout as L, PipelineStageFlags2 as S};
    ctx.submit_and_wait(|cmd| {
        let to_dst = barrier_on(
            img.image,
            aspect(c),
            (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL),
            (A::NONE, A::TRANSFER_WRITE),
            (S::NONE, S::COPY),
        );
        let to_read = barrier_on(
            img.image,
            aspect(c),
            (L::TRANSFER_DST_OPTIMAL, L::SHADER_READ_ONLY_OPTIMAL),
            (A::TRANSFER_WRITE, A::SHADER_SAMPLED_READ),
            (S::COPY, S::COMPUTE_SHADER),
        );
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&[to_dst]));
            d.cmd_copy_buffer_to_image(cmd, staging.handle(), img.image, L::TRANSFER_DST_OPTIMAL, &regions);
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&[to_read]));
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, p.pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, p.layout, 0, &[p.set], &[]);
            let n = (N as u32).to_le_bytes();
            d.cmd_push_constants(cmd, p.layout, vk::ShaderStageFlags::COMPUTE, 0, &n);
            d.cmd_dispatch(cmd, N.div_ceil(64) as u32, 1, 1);
        }
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    let got: Vec<f32> = output.read::<f32>(N * 16)?;
    Ok(compare(c, &tex, &qs, &got))
}
