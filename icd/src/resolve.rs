//! `vkCmdResolveImage` and `vkCmdResolveImage2`: multisampled colour images resolved into
//! single-sampled ones, recorded as dispatches of the driver's own compute shader
//! (`meta/resolve.comp`, meta.rs), one per region: each invocation fetches its source
//! texel's samples (the source viewed as a 2D_MSAA_ARRAY T#, addrlib's MSAA layout) and
//! stores their mean, or sample 0 for integer formats (Vulkan's "Resolving Multisample
//! Images": the combination is implementation-dependent for floating-point and normalised
//! formats, a single sample's value for integer ones), converting on the store as blits do.
//!
//! Resolves need a graphics queue in Vulkan; softnavi records them on its compute family,
//! as blits. What Vulkan forbids (a single-sampled source, a multisampled destination,
//! different formats, depth or stencil aspects) fails the command buffer by name.

use ash::vk;

use crate::handle::{guard, slice};
use crate::image::{image, sampler_ssharp, view_tsharp, Image};
use crate::meta::{self, class, store, Class, Dispatch, Shader, GROUP};

fn layers(img: &Image, s: &vk::ImageSubresourceLayers) -> u32 {
    if s.layer_count == vk::REMAINING_ARRAY_LAYERS {
        img.array_layers.saturating_sub(s.base_array_layer)
    } else {
        s.layer_count
    }
}

/// A 2D array view create info of `img`'s level `level`, every layer, in format `f`.
fn view_info(img: &Image, f: vk::Format, level: u32) -> vk::ImageViewCreateInfo<'static> {
    vk::ImageViewCreateInfo::default().view_type(vk::ImageViewType::TYPE_2D_ARRAY).format(f).subresource_range(
        vk::ImageSubresourceRange {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            base_mip_level: level,
            level_count: 1,
            base_array_layer: 0,
            layer_count: img.array_layers,
        },
    )
}

/// The format a resolve of `f` reads and writes through: `f`, or for an integer format the
/// meta shaders cannot store (A2R10G10B10_SINT) the UINT format of its texel size: sample
/// 0 is copied bit for bit.
fn through(f: vk::Format) -> vk::Format {
    if class(f) == Class::Float || store(f).is_some() {
        return f;
    }
    uint_of_size(f)
}

/// The UINT format of `f`'s texel size (a sample copied bit for bit).
fn uint_of_size(f: vk::Format) -> vk::Format {
    match crate::image::texel_size(f) {
        Some(1) => vk::Format::R8_UINT,
        Some(2) => vk::Format::R16_UINT,
        Some(4) => vk::Format::R32_UINT,
        Some(8) => vk::Format::R32G32_UINT,
        _ => vk::Format::R32G32B32A32_UINT,
    }
}

/// The source's T#: its MSAA view as the array type whatever its layers (the shader's
/// dim is 2D_MSAA_ARRAY), every layer.
fn source_tsharp(src: &Image, va: u64, f: vk::Format) -> Result<[u32; 8], String> {
    let mut t = gpu::rsrc::ImageResource::decode(view_tsharp(src, va, &view_info(src, f, 0))?);
    t.kind = gpu::rsrc::img_type::IMG_2D_MSAA_ARRAY;
    (t.base_array, t.depth) = (0, src.array_layers - 1);
    Ok(t.encode())
}

/// The dispatch of colour region `r`, or why Vulkan forbids it; `None` for an empty region.
fn region(src: &Image, dst: &Image, r: &vk::ImageResolve) -> Result<Option<Dispatch>, String> {
    let color = vk::ImageAspectFlags::COLOR;
    if r.src_subresource.aspect_mask != color || r.dst_subresource.aspect_mask != color {
        return Err("resolves are of colour aspects".into());
    }
    region_as(src, dst, r, through(dst.format))
}

/// The dispatch of region `r` of one plane, both images viewed as format `f` (the shader
/// class follows it: the mean for float formats, sample 0 for integer ones).
fn region_as(src: &Image, dst: &Image, r: &vk::ImageResolve, f: vk::Format) -> Result<Option<Dispatch>, String> {
    let n = layers(src, &r.src_subresource);
    if n != layers(dst, &r.dst_subresource) {
        return Err("the source and destination layer counts differ".into());
    }
    let e = r.extent;
    if e.width == 0 || e.height == 0 || n == 0 {
        return Ok(None);
    }
    let st = store(f).ok_or_else(|| format!("resolves cannot write format {:?}", dst.format))?;
    let shader = match (class(f), st) {
        (Class::Float, meta::Store::Packed(_)) => Class::Packed,
        (c, _) => c,
    };
    let (Some((_, src_va)), Some((_, dst_va))) = (&src.bound, &dst.bound) else {
        return Err("an image is not bound to memory".into());
    };
    let dv = view_info(dst, st.view_format(f), r.dst_subresource.mip_level);
    let sampler = sampler_ssharp(&vk::SamplerCreateInfo::default())?;
    let set = meta::set_memory(&source_tsharp(src, *src_va, f)?, &sampler, &view_tsharp(dst, *dst_va, &dv)?);
    let (so, dof) = (r.src_offset, r.dst_offset);
    let (srgb, pack) = st.push();
    let words = [
        [so.x as u32, so.y as u32, r.src_subresource.base_array_layer, src.samples.as_raw()],
        [dof.x as u32, dof.y as u32, r.dst_subresource.base_array_layer, 0],
        [e.width, e.height, n, srgb],
        pack,
    ];
    let counts = [e.width.div_ceil(GROUP), e.height.div_ceil(GROUP), n];
    Ok(Some(Dispatch { shader: Shader::Resolve(shader), set, push: meta::push_bytes(words.as_flattened()), counts }))
}

/// Records the resolve of `regions` (or fails the command buffer, naming why).
pub(crate) fn resolve(c: vk::CommandBuffer, what: &str, src: vk::Image, dst: vk::Image, regions: &[vk::ImageResolve]) {
    let fail = |m: String| crate::cmd::fail(c, what, vk::Result::ERROR_FEATURE_NOT_PRESENT, m);
    // SAFETY: live image handles per the specification.
    let (Some(s), Some(d)) = (unsafe { image(src) }, unsafe { image(dst) }) else {
        return fail("null image".into());
    };
    if !s.is_msaa() || d.is_msaa() {
        return fail("a resolve goes from a multisampled image to a single-sampled one".into());
    }
    if s.format != d.format {
        return fail(format!("{:?} cannot be resolved into {:?} (the formats must match)", s.format, d.format));
    }
    meta::record_regions(c, what, regions, |r| region(s, d, r));
}

/// A depth or stencil resolve of region `r` (`aspect`: DEPTH or STENCIL) of a render pass
/// or dynamic rendering instance, in the one mode softnavi offers, SAMPLE_ZERO: sample 0 of
/// each texel of the aspect's plane, copied bit for bit (through the UINT format of the
/// plane's texel size, the integer resolve).
pub(crate) fn resolve_sample_zero(
    c: vk::CommandBuffer,
    what: &str,
    (src, dst): (vk::Image, vk::Image),
    aspect: vk::ImageAspectFlags,
    r: &vk::ImageResolve,
) {
    let fail = |m: String| crate::cmd::fail(c, what, vk::Result::ERROR_FEATURE_NOT_PRESENT, m);
    // SAFETY: live image handles per the specification.
    let (Some(s), Some(d)) = (unsafe { image(src) }, unsafe { image(dst) }) else {
        return fail("null image".into());
    };
    let planes = s.plane(aspect).and_then(|(sp, _)| d.plane(aspect).map(|(dp, _)| (sp, dp)));
    let (sp, dp) = match planes {
        Ok(p) => p,
        Err(e) => return fail(e),
    };
    if !sp.is_msaa() || dp.is_msaa() {
        return fail("a resolve goes from a multisampled image to a single-sampled one".into());
    }
    let f = uint_of_size(sp.format);
    meta::record_regions(c, what, std::slice::from_ref(r), |r| region_as(&sp, &dp, r, f));
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_resolve_image(
    c: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    n: u32,
    regions: *const vk::ImageResolve,
) {
    guard("vkCmdResolveImage", (), || {
        // SAFETY: valid per the specification.
        let regions = unsafe { slice(regions, n) };
        resolve(c, "vkCmdResolveImage", src, dst, regions)
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_resolve_image2(c: vk::CommandBuffer, info: *const vk::ResolveImageInfo2<'_>) {
    guard("vkCmdResolveImage2", (), || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: valid per the specification.
        let regions: Vec<vk::ImageResolve> = unsafe { slice(i.p_regions, i.region_count) }
            .iter()
            .map(|r| vk::ImageResolve {
                src_subresource: r.src_subresource,
                src_offset: r.src_offset,
                dst_subresource: r.dst_subresource,
                dst_offset: r.dst_offset,
                extent: r.extent,
            })
            .collect();
        resolve(c, "vkCmdResolveImage2", i.src_image, i.dst_image, &regions)
    })
}

const _: vk::PFN_vkCmdResolveImage = cmd_resolve_image;
const _: vk::PFN_vkCmdResolveImage2 = cmd_resolve_image2;
