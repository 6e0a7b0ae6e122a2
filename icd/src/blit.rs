//! `vkCmdBlitImage` and `vkCmdBlitImage2`: scaled, filtered, format-converting copies,
//! recorded as dispatches of the driver's own compute shader (`meta/blit.comp`), one per
//! region, the way RADV carries out its compute-queue copies. Each invocation takes one
//! destination texel, maps its centre into the source by the specification's transform
//! ("Image Blits": `u_src = srcOffset0 + (u + 0.5 - dstOffset0) * scale`, per axis, with
//! mirroring when the offsets run backwards), samples there with the blit's filter,
//! CLAMP_TO_EDGE and LOD 0 of a view of the source level, and stores through a view of
//! the destination level.
//!
//! The texture unit converts the source (sRGB decoded before filtering); the store
//! converts to the destination format, except where image stores have no conversion:
//! sRGB destinations are written through their UNORM view with the sRGB OETF applied by
//! the shader, and the packed 16-bit UNORM formats through an R16_UINT view, packed by
//! the shader. Shared-exponent destinations are stored directly (the model encodes the
//! shared exponent on image stores, as RDNA3 does for RADV).
//!
//! Blits need a graphics queue in Vulkan; softnavi has none, and records them on its
//! compute family (not on the transfer-only one) so that the required format features
//! are true. Invalid blits the specification forbids (multisampled images, integer to
//! float, LINEAR on integer or depth formats, CUBIC) fail the command buffer by name.

use ash::vk;

use crate::handle::{guard, slice};
use crate::image::{image, sampler_ssharp, view_tsharp, Image};
use crate::meta::{self, class, store, Class, Dispatch, Shader, Store, GROUP};

/// The blit features of a format with the shader features `base` (image.rs): BLIT_SRC
/// where it can be sampled, BLIT_DST where, besides, [`store`] can write it.
pub fn features(f: vk::Format, base: vk::FormatFeatureFlags2) -> vk::FormatFeatureFlags2 {
    type F = vk::FormatFeatureFlags2;
    let shader = compiler_bridge::SHADER_FEATURES;
    if !(base.contains(F::SAMPLED_IMAGE) && shader.storage_images) {
        return F::empty();
    }
    if store(f).is_some() {
        F::BLIT_SRC | F::BLIT_DST
    } else {
        F::BLIT_SRC
    }
}

fn is_depth(f: vk::Format) -> bool {
    matches!(f, vk::Format::D16_UNORM | vk::Format::D32_SFLOAT)
}

/// The extent of `level` of `img`.
fn level_extent(img: &Image, level: u32) -> [u32; 3] {
    let e = img.extent;
    [e.width, e.height, e.depth].map(|v| (v >> level).max(1))
}

fn layer_count(img: &Image, s: &vk::ImageSubresourceLayers) -> u32 {
    if s.layer_count == vk::REMAINING_ARRAY_LAYERS {
        img.array_layers.saturating_sub(s.base_array_layer)
    } else {
        s.layer_count
    }
}

/// The push constants of one region, and its workgroup counts; `None` for an empty region.
#[derive(Debug, PartialEq)]
struct Plan {
    origin: [f32; 3],
    step: [f32; 3],
    base: [i32; 3],
    size: [u32; 3],
}

/// Maps a destination axis `[d0, d1)` onto source `[s0, s1)` of a level `extent` texels
/// long: (normalised origin, normalised step, first destination texel, texels).
fn axis(s: [i32; 2], d: [i32; 2], extent: u32) -> (f32, f32, i32, u32) {
    let scale = (s[1] - s[0]) as f64 / (d[1] - d[0]) as f64;
    let first = d[0].min(d[1]);
    let origin = s[0] as f64 + (first - d[0]) as f64 * scale;
    let e = extent as f64;
    ((origin / e) as f32, (scale / e) as f32, first, d[0].abs_diff(d[1]))
}

/// The plan of region `r` from `src` to `dst`.
fn plan(src: &Image, dst: &Image, r: &vk::ImageBlit) -> Result<Option<Plan>, String> {
    let (se, de) = (level_extent(src, r.src_subresource.mip_level), level_extent(dst, r.dst_subresource.mip_level));
    let (so, dof) = (r.src_offsets, r.dst_offsets);
    let pick = |o: [vk::Offset3D; 2], a: usize| [o[0], o[1]].map(|o| [o.x, o.y, o.z][a]);
    let (ox, sx, bx, nx) = axis(pick(so, 0), pick(dof, 0), se[0]);
    let (oy, sy, by, ny) = axis(pick(so, 1), pick(dof, 1), se[1]);
    let (src_3d, dst_3d) = (src.image_type == vk::ImageType::TYPE_3D, dst.image_type == vk::ImageType::TYPE_3D);
    let (sl, dl) = (layer_count(src, &r.src_subresource), layer_count(dst, &r.dst_subresource));
    let (s_base, d_base) = (r.src_subresource.base_array_layer as i32, r.dst_subresource.base_array_layer as i32);
    if !src_3d && !dst_3d && sl != dl {
        return Err(format!("the region copies {sl} source layers to {dl} destination layers"));
    }
    // Third axis: depth slices of a 3D image, else layers (coordinates, not normalised).
    let (oz, sz, bz, nz) = match (src_3d, dst_3d) {
        (true, _) => {
            let (o, s, b, n) = axis(pick(so, 2), pick(dof, 2), se[2]);
            if dst_3d {
                (o, s, b, n)
            } else {
                (o, s, d_base, n.min(dl))
            }
        }
        (false, true) => {
            let (_, _, b, n) = axis([0, 1], pick(dof, 2), 1);
            (s_base as f32, 0.0, b, n)
        }
        (false, false) => (s_base as f32 - 0.5, 1.0, d_base, dl),
    };
    if nx == 0 || ny == 0 || nz == 0 {
        return Ok(None);
    }
    let inside = |b: i32, n: u32, max: u32| b >= 0 && b as u64 + n as u64 <= max as u64;
    let dz_max = if dst_3d { de[2] } else { dst.array_layers };
    if !(inside(bx, nx, de[0]) && inside(by, ny, de[1]) && inside(bz, nz, dz_max)) {
        return Err(format!("destination region {dof:?} is outside level {} ({de:?})", r.dst_subresource.mip_level));
    }
    Ok(Some(Plan { origin: [ox, oy, oz], step: [sx, sy, sz], base: [bx, by, bz], size: [nx, ny, nz] }))
}

/// A view create info for `img`'s `level`, all its layers, as a 2D array or 3D view.
fn view_info(
    img: &Image,
    format: vk::Format,
    level: u32,
    aspect: vk::ImageAspectFlags,
) -> vk::ImageViewCreateInfo<'static> {
    let three_d = img.image_type == vk::ImageType::TYPE_3D;
    vk::ImageViewCreateInfo::default()
        .view_type(if three_d { vk::ImageViewType::TYPE_3D } else { vk::ImageViewType::TYPE_2D_ARRAY })
        .format(format)
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: level,
            level_count: 1,
            base_array_layer: 0,
            layer_count: if three_d { 1 } else { img.array_layers },
        })
}

/// The shader class a blit from `src` to `dst` (stored as `st`) takes with `filter`, or why
/// Vulkan forbids it.
fn blit_class(src: vk::Format, dst: vk::Format, st: Store, filter: vk::Filter) -> Result<Class, String> {
    let (sc, dc) = (class(src), class(dst));
    let c = match (sc, st) {
        (Class::Float, Store::Packed(_)) => Class::Packed,
        (Class::Float, _) if dc == Class::Float => Class::Float,
        (Class::Sint | Class::Uint, _) if sc == dc => sc,
        _ => {
            return Err(format!(
                "{src:?} cannot be blitted to {dst:?} (integer formats go to integer formats of their signedness)"
            ))
        }
    };
    if filter != vk::Filter::NEAREST && (sc != Class::Float || is_depth(src)) {
        return Err(format!("filter {filter:?} on {src:?}: integer and depth formats are blitted with NEAREST"));
    }
    Ok(c)
}

/// Set 0's memory for region `r`: the source level's view and the blit's sampler, the
/// destination level's view (in the format `st` stores through).
fn descriptors(src: &Image, dst: &Image, r: &vk::ImageBlit, filter: vk::Filter, st: Store) -> Result<Vec<u8>, String> {
    let (src_va, dst_va) = match (&src.bound, &dst.bound) {
        (Some((_, s)), Some((_, d))) => (*s, *d),
        _ => return Err("an image is not bound to memory".into()),
    };
    let sv = view_info(src, src.format, r.src_subresource.mip_level, r.src_subresource.aspect_mask);
    let dv = view_info(dst, st.view_format(dst.format), r.dst_subresource.mip_level, r.dst_subresource.aspect_mask);
    let clamp = vk::SamplerAddressMode::CLAMP_TO_EDGE;
    let sampler = vk::SamplerCreateInfo::default()
        .mag_filter(filter)
        .min_filter(filter)
        .mipmap_mode(vk::SamplerMipmapMode::NEAREST)
        .address_mode_u(clamp)
        .address_mode_v(clamp)
        .address_mode_w(clamp);
    let (t_src, t_dst, s) = (view_tsharp(src, src_va, &sv)?, view_tsharp(dst, dst_va, &dv)?, sampler_ssharp(&sampler)?);
    Ok(meta::set_memory(&t_src, &s, &t_dst))
}

/// `blit.comp`'s push constants for plan `p` stored as `st`: origin, step, base, size
/// (w: sRGB), packing.
fn push_constants(p: &Plan, st: Store) -> Vec<u8> {
    let (srgb, pack) = st.push();
    let f = |v: [f32; 3]| [v[0].to_bits(), v[1].to_bits(), v[2].to_bits(), 0];
    let b = p.base.map(|x| x as u32);
    let words = [f(p.origin), f(p.step), [b[0], b[1], b[2], 0], [p.size[0], p.size[1], p.size[2], srgb], pack];
    meta::push_bytes(words.as_flattened())
}

/// The variant, set memory and push constants of region `r`'s dispatch.
fn region(src: &Image, dst: &Image, r: &vk::ImageBlit, filter: vk::Filter) -> Result<Option<Dispatch>, String> {
    let Some(p) = plan(src, dst, r)? else { return Ok(None) };
    let st = store(dst.format).ok_or_else(|| format!("blits cannot write format {:?}", dst.format))?;
    let class = blit_class(src.format, dst.format, st, filter)?;
    let three_d = |i: &Image| (i.image_type == vk::ImageType::TYPE_3D) as usize;
    Ok(Some(Dispatch {
        shader: Shader::Blit(class as usize * 4 + 2 * three_d(src) + three_d(dst)),
        set: descriptors(src, dst, r, filter, st)?,
        push: push_constants(&p, st),
        counts: [p.size[0].div_ceil(GROUP), p.size[1].div_ceil(GROUP), p.size[2]],
    }))
}

/// Records the blit of `regions` (or fails the command buffer, naming why).
fn blit(
    c: vk::CommandBuffer,
    what: &str,
    src: vk::Image,
    dst: vk::Image,
    regions: &[vk::ImageBlit],
    filter: vk::Filter,
) {
    let fail = |m: String| crate::cmd::fail(c, what, vk::Result::ERROR_FEATURE_NOT_PRESENT, m);
    // SAFETY: live image handles per the specification.
    let (Some(s), Some(d)) = (unsafe { image(src) }, unsafe { image(dst) }) else {
        return fail("null image".into());
    };
    if s.is_msaa() || d.is_msaa() {
        return fail("multisampled images cannot be blitted (resolve them)".into());
    }
    if filter != vk::Filter::NEAREST && filter != vk::Filter::LINEAR {
        return fail(format!("filter {filter:?} is not supported"));
    }
    if let Some(f) = [s.format, d.format].into_iter().find(|&f| f == vk::Format::S8_UINT || f == crate::image::D32S8) {
        return fail(format!("{f:?} has a stencil aspect, which softnavi does not blit (no BLIT features)"));
    }
    meta::record_regions(c, what, regions, |r| region(s, d, r, filter));
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_blit_image(
    c: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    n: u32,
    regions: *const vk::ImageBlit,
    filter: vk::Filter,
) {
    guard("vkCmdBlitImage", (), || {
        // SAFETY: valid per the specification.
        let regions = unsafe { slice(regions, n) };
        blit(c, "vkCmdBlitImage", src, dst, regions, filter)
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_blit_image2(c: vk::CommandBuffer, info: *const vk::BlitImageInfo2<'_>) {
    guard("vkCmdBlitImage2", (), || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: valid per the specification.
        let regions: Vec<vk::ImageBlit> = unsafe { slice(i.p_regions, i.region_count) }
            .iter()
            .map(|r| vk::ImageBlit {
                src_subresource: r.src_subresource,
                src_offsets: r.src_offsets,
                dst_subresource: r.dst_subresource,
                dst_offsets: r.dst_offsets,
            })
            .collect();
        blit(c, "vkCmdBlitImage2", i.src_image, i.dst_image, &regions, i.filter)
    })
}

const _: vk::PFN_vkCmdBlitImage = cmd_blit_image;
const _: vk::PFN_vkCmdBlitImage2 = cmd_blit_image2;

#[cfg(test)]
mod tests {
    use super::*;

    /// Vulkan spec, "Image Blits": a 2:1 reduction samples at the centre of each source
    /// pair (u_src = (u + 0.5) * 2), and reversed destination offsets mirror.
    #[test]
    fn image_blits_coordinate_transform() {
        let (o, s, b, n) = axis([0, 8], [0, 4], 8);
        assert_eq!((b, n), (0, 4));
        assert_eq!([0, 3].map(|u| (o + (u as f32 + 0.5) * s) * 8.0), [1.0, 7.0]);
        let (o, s, b, n) = axis([0, 4], [4, 0], 4);
        assert_eq!((b, n), (0, 4));
        // Destination texel 0 is the last of the mirrored range: it takes source texel 3.
        assert_eq!([0, 3].map(|u| (o + (u as f32 + 0.5) * s) * 4.0), [3.5, 0.5]);
    }
}
