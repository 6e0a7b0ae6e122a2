//! Images, image views and samplers as objects: created, sized, bound to memory and
//! described (`vkGetImageSubresourceLayout`) for real, so that allocators such as VMA and
//! applications that create images before they use them work.
//!
//! Copies and clears run through the command processor (transfer.rs), and the formats
//! they handle report TRANSFER_SRC/DST ([`features`]). Not there yet: shader access to
//! images (MIMG execution and the image descriptor types), so no format reports a sampled
//! or storage feature.
//!
//! Layout: gfx11's linear layout (SW_MODE 0), as the GPU model's T# defines it
//! (`gpu::rsrc::ImageResource::linear_level`, after AMD's addrlib): each array layer (or
//! depth slice of a 3D image) holds the whole mip chain, smallest level first, rows padded
//! to 256 bytes; the slices follow one another. LINEAR tiling exposes it through
//! `vkGetImageSubresourceLayout`; OPTIMAL tiling uses it too for now (its layout is opaque
//! to applications; gfx11's swizzled modes are not modelled). The rule is defined for
//! texels of a power-of-two size only, so 3-, 6-, 12- and 24-byte formats have no images.
//!
//! Multisampled images (2, 4 or 8 samples: 2D, OPTIMAL, one level, colour formats with a T#
//! format and texels of at most 16 bytes, D16_UNORM, D32_SFLOAT, S8_UINT and
//! D32_SFLOAT_S8_UINT) are never linear on gfx11: they take the swizzle mode RADV has
//! addrlib choose (`gpu::addr::msaa_layout`: SW_64KB_R_X or SW_256KB_R_X; for depth
//! `msaa_depth_layout`: SW_64KB_Z_X or SW_256KB_Z_X), whose block is their alignment, each
//! layer a whole number of blocks; their views' T#s are 2D_MSAA(_ARRAY) with log2(samples)
//! in LAST_LEVEL and MAX_MIP (Mesa's gfx11 T#).
//!
//! D32_SFLOAT_S8_UINT images (OPTIMAL only) are two planes, as gfx11's depth buffers are: a
//! D32_SFLOAT image and an S8_UINT image of the same shape after it ([`Image::plane`]);
//! copies, clears and views of one aspect address its plane.

use std::borrow::Cow;
use std::sync::Arc;

use ash::vk;

use crate::handle::{destroy, guard, object, slice, Object};
use crate::memory::{fill_requirements2, DeviceMemory};

/// Alignment of an image's memory: 64 KiB, the block of gfx11's largest standard swizzle
/// modes (`SW_64KB_*`), so that a later swizzled layout needs no other alignment.
pub const IMAGE_ALIGN: u64 = 65536;

/// Bytes of one texel (of one block for a packed or BCn format) of every uncompressed core
/// format and the BCn ones, in Vulkan's order of `VkFormat` values; `None` for UNDEFINED,
/// the other block-compressed formats and anything else.
pub fn texel_size(f: vk::Format) -> Option<u64> {
    let v = f.as_raw();
    Some(match v {
        1 | 9..=15 | 127 => 1,
        2..=8 | 16..=22 | 70..=76 | 124 => 2,
        23..=36 | 128 => 3,
        37..=69 | 77..=83 | 98..=100 | 122 | 123 | 125 | 126 | 129 => 4,
        84..=90 => 6,
        91..=97 | 101..=103 | 110..=112 | 130 => 8,
        104..=106 => 12,
        107..=109 | 113..=115 => 16,
        116..=118 => 24,
        119..=121 => 32,
        // BCn: bytes of one 4×4 block (`block_dim`).
        131..=134 | 139 | 140 => 8,
        135..=138 | 141..=146 => 16,
        // VK_EXT_4444_formats' A4R4G4B4 and A4B4G4R4, core (and optional) in Vulkan 1.3.
        1_000_340_000 | 1_000_340_001 => 2,
        _ => return None,
    })
}

/// Texels per side of `f`'s blocks: 4 for the BCn formats, 1 for the others. Images of
/// them are laid out, copied and addressed in blocks of [`texel_size`] bytes.
pub fn block_dim(f: vk::Format) -> u32 {
    if crate::format::bc(f).is_some() {
        4
    } else {
        1
    }
}

/// One mip level's place in the image: the offset of its first layer (or depth slice),
/// the row pitch, and the distances between depth slices and between layers (both the
/// slice pitch of the gfx11 linear layout, or 0 where the image has no such dimension).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Level {
    pub offset: u64,
    pub row_pitch: u64,
    pub depth_pitch: u64,
    pub layer_pitch: u64,
    /// Bytes of one layer (or depth slice) of this level: its rows.
    pub size: u64,
}

/// Combined depth/stencil formats. softnavi has images of D32_SFLOAT_S8_UINT only (what
/// RDNA3 offers: its depth buffers have no 16- or 24-bit depth beside stencil), as two
/// planes ([`Image::plane`]); the other two have none.
pub const COMBINED_DEPTH_STENCIL: [vk::Format; 3] =
    [vk::Format::D16_UNORM_S8_UINT, vk::Format::D24_UNORM_S8_UINT, vk::Format::D32_SFLOAT_S8_UINT];

/// The combined depth/stencil format softnavi has images of.
pub const D32S8: vk::Format = vk::Format::D32_SFLOAT_S8_UINT;

/// The formats of depth and stencil aspects with images: D16, D32, S8 and [`D32S8`].
pub fn is_depth_stencil(f: vk::Format) -> bool {
    matches!(f, vk::Format::D16_UNORM | vk::Format::D32_SFLOAT | vk::Format::S8_UINT | D32S8)
}

/// The aspects of format `f`: DEPTH and/or STENCIL for the depth/stencil formats, COLOR
/// for the others.
pub fn aspects(f: vk::Format) -> vk::ImageAspectFlags {
    use vk::ImageAspectFlags as A;
    match f {
        vk::Format::S8_UINT => A::STENCIL,
        _ if COMBINED_DEPTH_STENCIL.contains(&f) => A::DEPTH | A::STENCIL,
        vk::Format::D16_UNORM | vk::Format::D32_SFLOAT | vk::Format::X8_D24_UNORM_PACK32 => A::DEPTH,
        _ => A::COLOR,
    }
}

/// A subresource range's count `n` of levels or layers from `base` out of `all`, with
/// `VK_REMAINING_*` (both `!0`) resolved.
fn remaining(n: u32, all: u32, base: u32) -> u32 {
    if n == vk::REMAINING_MIP_LEVELS {
        all.saturating_sub(base)
    } else {
        n
    }
}

/// The image features of `f` in either tiling: copies (and, for colour formats, clears)
/// through the command processor's DMA for every format transfer.rs can copy; storage
/// images (read and written with or without a format: the T# converts) for the colour
/// formats with a T# format; sampling where samplers are on, linear filtering for the
/// formats that are not integers, depth compares for depth formats.
///
/// The attachment features ([`graphics_features`]) are reported too, as Vulkan's required
/// format tables demand of every implementation (and Amber, the CTS's script runner, asks
/// of compute tests): images with those usages are created for real, and every command
/// that would render to them needs a graphics pipeline, which softnavi refuses by name.
/// BLIT_SRC/DST, which the same tables ask for, are true: blits are compute dispatches
/// (blit.rs), recorded on the compute family.
pub fn features(f: vk::Format) -> vk::FormatFeatureFlags2 {
    let base = shader_features(f);
    if matches!(f, vk::Format::S8_UINT | D32S8) && base.contains(vk::FormatFeatureFlags2::SAMPLED_IMAGE) {
        // Stencil is not blitted here (blit.rs takes one-aspect formats).
        return base | graphics_features(f);
    }
    if crate::format::bc(f).is_some() {
        // BCn images are sampled and copied (textureCompressionBC's required features).
        return base | crate::blit::features(f, base);
    }
    if base.contains(vk::FormatFeatureFlags2::SAMPLED_IMAGE) {
        base | graphics_features(f) | crate::blit::features(f, base)
    } else {
        base
    }
}

/// The features of `f` in `tiling`: [`features`], but none for linear [`D32S8`] (its
/// planes have no one row pitch to report, as on RDNA3, which has no linear depth/stencil).
pub fn tiling_features(f: vk::Format, tiling: vk::ImageTiling) -> vk::FormatFeatureFlags2 {
    if f == D32S8 && tiling == vk::ImageTiling::LINEAR {
        return vk::FormatFeatureFlags2::empty();
    }
    features(f)
}

/// The features only a graphics pipeline could exercise: colour attachments (blending for
/// formats that are not integers) or depth/stencil attachments.
fn graphics_features(f: vk::Format) -> vk::FormatFeatureFlags2 {
    type F = vk::FormatFeatureFlags2;
    let name = format!("{f:?}");
    if is_depth_stencil(f) {
        return F::DEPTH_STENCIL_ATTACHMENT;
    }
    if f == vk::Format::E5B9G9R9_UFLOAT_PACK32 {
        return F::empty();
    }
    let blend = if name.contains("INT") { F::empty() } else { F::COLOR_ATTACHMENT_BLEND };
    F::COLOR_ATTACHMENT | blend
}

/// What shaders and transfers do with images of `f`. [`D32S8`]'s are its depth plane's
/// (its stencil plane's, S8_UINT's, are those less filtering and compares, which Vulkan's
/// feature bits speak of for the depth aspect).
fn shader_features(f: vk::Format) -> vk::FormatFeatureFlags2 {
    type F = vk::FormatFeatureFlags2;
    if f == D32S8 {
        return shader_features(vk::Format::D32_SFLOAT);
    }
    if !texel_size(f).is_some_and(u64::is_power_of_two) || COMBINED_DEPTH_STENCIL.contains(&f) || !clearable(f) {
        return F::empty();
    }
    let mut out = F::TRANSFER_SRC | F::TRANSFER_DST;
    let Some(hw) = crate::format::image_format(f) else { return out };
    let depth = is_depth_stencil(f);
    let shader = compiler_bridge::SHADER_FEATURES;
    if hw.storage && !depth && shader.storage_images {
        out |= F::STORAGE_IMAGE | F::STORAGE_READ_WITHOUT_FORMAT | F::STORAGE_WRITE_WITHOUT_FORMAT;
        if hw.atomic && crate::features::api::IMAGE_ATOMICS {
            out |= F::STORAGE_IMAGE_ATOMIC;
        }
    }
    if crate::features::api::SAMPLERS && shader.sampled_images {
        out |= F::SAMPLED_IMAGE;
        let name = format!("{f:?}");
        if !name.contains("INT") {
            out |= F::SAMPLED_IMAGE_FILTER_LINEAR;
        }
        if depth && f != vk::Format::S8_UINT {
            out |= F::SAMPLED_IMAGE_DEPTH_COMPARISON;
        }
    }
    out
}

/// Whether images of `f` can be everything TRANSFER_DST promises, clears included: not the
/// USCALED/SSCALED formats (which neither RDNA3 nor lavapipe has images of, and whose float
/// clear values convert by no rule the CTS and the specification agree on) nor the 64-bit
/// integer ones (whose 32-bit clear values give no 64-bit component).
fn clearable(f: vk::Format) -> bool {
    let name = format!("{f:?}");
    !(name.contains("SCALED") || name.starts_with("R64") && name.contains("INT"))
}

/// The sample counts of multisampled images (`msaa_ok`): every count gfx11 addrlib has
/// MSAA colour patterns for. They are also the device's `sampledImageColorSampleCounts`,
/// `sampledImageIntegerSampleCounts` and `storageImageSampleCounts` (instance.rs).
pub const MSAA_COUNTS: vk::SampleCountFlags = vk::SampleCountFlags::from_raw(0b1111);

/// Whether images of `f` may have several samples (in 2D, OPTIMAL tiling, one level, not
/// cube compatible): formats with an attachment feature (Vulkan gives the others one
/// sample) and a T# format: colour formats of texels of a power of two up to 16 bytes (the
/// R_X MSAA patterns), the depth formats D16_UNORM and D32_SFLOAT (Z_X, addrlib's depth
/// MSAA patterns: [`msaa_depth`]), S8_UINT (R_X: addrlib's tables here have no 8-bit Z_X
/// pattern, and the layout of an OPTIMAL image is the driver's to choose) and [`D32S8`]
/// (both planes).
pub fn msaa_format(f: vk::Format) -> bool {
    if f == D32S8 {
        return msaa_format(vk::Format::D32_SFLOAT) && msaa_format(vk::Format::S8_UINT);
    }
    let small = texel_size(f).is_some_and(|t| t.is_power_of_two() && t <= 16);
    let attachment = if is_depth_stencil(f) {
        vk::FormatFeatureFlags2::DEPTH_STENCIL_ATTACHMENT
    } else {
        vk::FormatFeatureFlags2::COLOR_ATTACHMENT
    };
    small && crate::format::image_format(f).is_some() && features(f).contains(attachment)
}

/// A depth format whose multisampled images are laid out as depth surfaces (Z order).
fn msaa_depth(f: vk::Format) -> bool {
    matches!(f, vk::Format::D16_UNORM | vk::Format::D32_SFLOAT)
}

/// Whether a BCn image may have type `ty`: 2D (arrays, cubes) and 3D (4×4 blocks per
/// slice), as RDNA3 samples them; not 1D.
fn bc_image_ok(ty: vk::ImageType) -> bool {
    matches!(ty, vk::ImageType::TYPE_2D | vk::ImageType::TYPE_3D)
}

/// Whether a BCn image of `ty` and `flags` is laid out level by level ([`lay_out_levels`]):
/// a 3D one that is BLOCK_TEXEL_VIEW_COMPATIBLE. An uncompressed view is a one-level image
/// of its level's blocks (`block_view_tsharp`), and in the linear layout a 3D level's
/// slices lie a whole mip chain apart, which a one-level 3D T# cannot say.
fn bc_per_level(ty: vk::ImageType, flags: vk::ImageCreateFlags) -> bool {
    ty == vk::ImageType::TYPE_3D && flags.contains(vk::ImageCreateFlags::BLOCK_TEXEL_VIEW_COMPATIBLE)
}

/// The usages images of `f` may have, from its features.
fn usages(f: vk::Format) -> vk::ImageUsageFlags {
    type F = vk::FormatFeatureFlags2;
    type U = vk::ImageUsageFlags;
    let feats = features(f);
    let mut usable = U::TRANSFER_SRC | U::TRANSFER_DST;
    if feats.contains(F::STORAGE_IMAGE) {
        usable |= U::STORAGE;
    }
    if feats.contains(F::SAMPLED_IMAGE) {
        usable |= U::SAMPLED;
    }
    if feats.contains(F::COLOR_ATTACHMENT) {
        usable |= U::COLOR_ATTACHMENT | U::INPUT_ATTACHMENT | U::TRANSIENT_ATTACHMENT;
    }
    if feats.contains(F::DEPTH_STENCIL_ATTACHMENT) {
        usable |= U::DEPTH_STENCIL_ATTACHMENT | U::INPUT_ATTACHMENT | U::TRANSIENT_ATTACHMENT;
    }
    if feats.is_empty() {
        U::empty()
    } else {
        usable
    }
}

/// Whether a view of an image of `f` (MUTABLE_FORMAT) may have format `v`: Vulkan's format
/// compatibility classes, as far as softnavi has images: uncompressed colour formats of one
/// texel size, a BCn format and its sRGB/UNORM twin (BC1 RGB and RGBA apart), a depth
/// format only itself; with `block_texel` (BLOCK_TEXEL_VIEW_COMPATIBLE) a BCn image also
/// takes the uncompressed formats of its block's size.
fn view_compatible(f: vk::Format, v: vk::Format, block_texel: bool) -> bool {
    let depth = |x: vk::Format| is_depth_stencil(x) || COMBINED_DEPTH_STENCIL.contains(&x);
    let (Some(tf), Some(tv)) = (texel_size(f), texel_size(v)) else { return false };
    if f == v {
        return true;
    }
    if depth(f) || depth(v) {
        return false;
    }
    let class = |x: vk::Format| (x.as_raw() - vk::Format::BC1_RGB_UNORM_BLOCK.as_raw()) / 2;
    match (block_dim(f) > 1, block_dim(v) > 1) {
        (false, false) => tf == tv,
        (true, true) => class(f) == class(v),
        (true, false) => block_texel && tf == tv,
        (false, true) => false,
    }
}

/// `vkGetPhysicalDeviceImageFormatProperties` for an image of `f` with `features(f)`:
/// usages those features allow, the device's image limits, and several samples where
/// [`msaa_format`] allows them (2D, OPTIMAL, not cube compatible).
pub fn format_properties(
    f: vk::Format,
    ty: vk::ImageType,
    tiling: vk::ImageTiling,
    usage: vk::ImageUsageFlags,
    flags: vk::ImageCreateFlags,
) -> Option<vk::ImageFormatProperties> {
    let feats = tiling_features(f, tiling);
    let mut usable = usages(f);
    let bc = block_dim(f) > 1;
    if flags.contains(vk::ImageCreateFlags::EXTENDED_USAGE | vk::ImageCreateFlags::MUTABLE_FORMAT) {
        // Vulkan's EXTENDED_USAGE: the usages of any format its views may have.
        let block_texel = flags.contains(vk::ImageCreateFlags::BLOCK_TEXEL_VIEW_COMPATIBLE);
        for v in (1..=vk::Format::ASTC_12X12_SRGB_BLOCK.as_raw()).map(vk::Format::from_raw) {
            if view_compatible(f, v, block_texel) {
                usable |= usages(v);
            }
        }
    }
    let mut creatable = vk::ImageCreateFlags::MUTABLE_FORMAT
        | vk::ImageCreateFlags::CUBE_COMPATIBLE
        | vk::ImageCreateFlags::TYPE_2D_ARRAY_COMPATIBLE
        | vk::ImageCreateFlags::EXTENDED_USAGE
        | vk::ImageCreateFlags::ALIAS;
    if bc {
        creatable |= vk::ImageCreateFlags::BLOCK_TEXEL_VIEW_COMPATIBLE;
    }
    let tiling_ok = matches!(tiling, vk::ImageTiling::LINEAR | vk::ImageTiling::OPTIMAL);
    if feats.is_empty() || !usable.contains(usage) || !creatable.contains(flags) || !tiling_ok {
        return None;
    }
    // The limits instance.rs reports: maxImageDimension1D/2D 4096, 3D 256, 256 layers.
    if block_dim(f) > 1 && !bc_image_ok(ty) {
        return None;
    }
    let (extent, layers) = match ty {
        vk::ImageType::TYPE_1D => (vk::Extent3D { width: 4096, height: 1, depth: 1 }, 256),
        vk::ImageType::TYPE_2D => (vk::Extent3D { width: 4096, height: 4096, depth: 1 }, 256),
        vk::ImageType::TYPE_3D => (vk::Extent3D { width: 256, height: 256, depth: 256 }, 1),
        _ => return None,
    };
    let largest = extent.width.max(extent.height).max(extent.depth);
    let msaa = ty == vk::ImageType::TYPE_2D
        && tiling == vk::ImageTiling::OPTIMAL
        && !flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE)
        && msaa_format(f);
    Some(vk::ImageFormatProperties {
        max_extent: extent,
        max_mip_levels: 32 - largest.leading_zeros(),
        max_array_layers: layers,
        sample_counts: if msaa { MSAA_COUNTS } else { vk::SampleCountFlags::TYPE_1 },
        max_resource_size: 1 << 32,
    })
}

#[derive(Clone)]
pub struct Image {
    pub image_type: vk::ImageType,
    pub format: vk::Format,
    pub extent: vk::Extent3D,
    pub mip_levels: u32,
    pub array_layers: u32,
    pub samples: vk::SampleCountFlags,
    pub tiling: vk::ImageTiling,
    pub usage: vk::ImageUsageFlags,
    pub levels: Vec<Level>,
    pub size: u64,
    /// SW_MODE of its layout: 0 (linear), or an MSAA image's (`gpu::addr::msaa_layout`).
    pub sw_mode: u32,
    /// Alignment of its memory: [`IMAGE_ALIGN`], or an MSAA layout's block.
    pub align: u64,
    /// The memory it is bound to (kept alive by the binding) and the GPU address.
    pub bound: Option<(Arc<gpu::mem::Bo>, u64)>,
    /// A [`D32S8`] image's stencil plane and its offset ([`Image::plane`]); the fields
    /// above but `format`, `size` and `align` describe its depth plane.
    pub stencil: Option<(Box<Image>, u64)>,
    /// Laid out level after level ([`lay_out_levels`]): its views are of one level.
    pub per_level: bool,
}
object!(Image, vk::Image);

/// Why an image cannot be created, for the log line.
fn check(info: &vk::ImageCreateInfo<'_>) -> Result<u64, String> {
    let unsupported = vk::ImageCreateFlags::SPARSE_BINDING
        | vk::ImageCreateFlags::SPARSE_RESIDENCY
        | vk::ImageCreateFlags::SPARSE_ALIASED
        | vk::ImageCreateFlags::PROTECTED
        | vk::ImageCreateFlags::DISJOINT;
    if info.flags.intersects(unsupported) {
        return Err(format!("sparse, protected and disjoint images are not supported ({:?})", info.flags));
    }
    let texel = texel_size(info.format)
        .filter(|t| t.is_power_of_two() && !tiling_features(info.format, info.tiling).is_empty())
        .ok_or_else(|| format!("format {:?} is not supported for {:?} images", info.format, info.tiling))?;
    if block_dim(info.format) > 1 && !bc_image_ok(info.image_type) {
        return Err(format!("block-compressed images ({:?}) are 2D or 3D ({:?})", info.format, info.image_type));
    }
    if info.samples != vk::SampleCountFlags::TYPE_1 {
        let ok = MSAA_COUNTS.contains(info.samples)
            && info.samples.as_raw().is_power_of_two()
            && info.image_type == vk::ImageType::TYPE_2D
            && info.tiling == vk::ImageTiling::OPTIMAL
            && info.mip_levels == 1
            && !info.flags.contains(vk::ImageCreateFlags::CUBE_COMPATIBLE)
            && msaa_format(info.format);
        if !ok {
            return Err(format!(
                "multisampled images ({:?}) are 2D, OPTIMAL, of one level, not cube compatible, in a colour format, D16, D32, S8 or D32S8 with 2, 4 or 8 samples ({:?}, {:?}, {:?}, {} levels)",
                info.samples, info.format, info.image_type, info.tiling, info.mip_levels
            ));
        }
    }
    let e = info.extent;
    if e.width == 0 || e.height == 0 || e.depth == 0 || info.mip_levels == 0 || info.array_layers == 0 {
        return Err(format!("empty image: extent {e:?}, {} levels, {} layers", info.mip_levels, info.array_layers));
    }
    if info.mip_levels > 32 - e.width.max(e.height).max(e.depth).leading_zeros() {
        return Err(format!("{} mip levels for an extent of {e:?}", info.mip_levels));
    }
    Ok(texel)
}

/// The T# fields that decide the layout of an image (`gpu::rsrc`'s rule reads them), or
/// `None` when the extent does not fit them.
fn resource(info: &vk::ImageCreateInfo<'_>) -> Option<gpu::rsrc::ImageResource> {
    use gpu::rsrc::img_type::*;
    let e = info.extent;
    let (kind, depth) = match info.image_type {
        vk::ImageType::TYPE_1D if info.array_layers > 1 => (IMG_1D_ARRAY, info.array_layers - 1),
        vk::ImageType::TYPE_1D => (IMG_1D, 0),
        vk::ImageType::TYPE_3D => (IMG_3D, e.depth - 1),
        _ if info.array_layers > 1 => (IMG_2D_ARRAY, info.array_layers - 1),
        _ => (IMG_2D, 0),
    };
    // The T#'s field widths: 14-bit width and height, 13-bit depth, 4-bit MAX_MIP.
    let fits = e.width <= 1 << 14 && e.height <= 1 << 14 && depth < 1 << 13 && info.mip_levels <= 16;
    // The format only for its block size: BCn levels are laid out in blocks.
    let format = crate::format::image_format(info.format).map_or(0, |f| f.hw);
    fits.then(|| gpu::rsrc::ImageResource {
        format,
        kind,
        width: e.width - 1,
        height: e.height - 1,
        depth,
        max_mip: info.mip_levels - 1,
        last_level: info.mip_levels - 1,
        ..Default::default()
    })
}

/// The levels of an image of `texel`-byte texels, in gfx11's linear layout, and its size.
fn lay_out(info: &vk::ImageCreateInfo<'_>, texel: u64) -> Option<(Vec<Level>, u64)> {
    let r = resource(info)?;
    let three_d = info.image_type == vk::ImageType::TYPE_3D;
    let mut levels = Vec::with_capacity(info.mip_levels as usize);
    let mut slice = 0;
    for m in 0..info.mip_levels {
        let l = r.linear_level(texel as u32, m)?;
        let h = r.level_extent(m)[1].div_ceil(block_dim(info.format));
        slice = l.slice_pitch;
        levels.push(Level {
            offset: l.offset,
            row_pitch: l.row_pitch,
            depth_pitch: if three_d { l.slice_pitch } else { 0 },
            layer_pitch: if three_d { 0 } else { l.slice_pitch },
            size: l.row_pitch * h as u64,
        });
    }
    let slices = if three_d { info.extent.depth } else { info.array_layers } as u64;
    Some((levels, slice.checked_mul(slices)?))
}

/// The layout of a 3D BCn image whose views may be uncompressed ([`bc_per_level`]): level
/// after level, each laid out as a one-level 3D image of its extent (its slices together),
/// so that a view of one level, compressed or of its blocks, is a one-level 3D T# at the
/// level's offset. A view of several levels has no T# ([`level_view_tsharp`]).
fn lay_out_levels(info: &vk::ImageCreateInfo<'_>, texel: u64) -> Option<(Vec<Level>, u64)> {
    let mut levels = Vec::with_capacity(info.mip_levels as usize);
    let mut at = 0u64;
    for m in 0..info.mip_levels {
        let e = info.extent;
        let dim = |v: u32| (v >> m).max(1);
        let extent = vk::Extent3D { width: dim(e.width), height: dim(e.height), depth: dim(e.depth) };
        let (one, size) = lay_out(&vk::ImageCreateInfo { extent, mip_levels: 1, ..*info }, texel)?;
        levels.push(Level { offset: at, ..one[0] });
        at = at.checked_add(size)?.next_multiple_of(256);
    }
    Some((levels, at))
}

/// The layout of a multisampled image: its one level (every layer a whole number of
/// blocks), size, swizzle mode and alignment (the mode's block).
fn lay_out_msaa(info: &vk::ImageCreateInfo<'_>, texel: u64) -> Option<(Vec<Level>, u64, u32, u64)> {
    let e = info.extent;
    let samples = info.samples.as_raw();
    let layout = if msaa_depth(info.format) { gpu::addr::msaa_depth_layout } else { gpu::addr::msaa_layout };
    let (mode, size) = layout(texel.trailing_zeros(), samples, e.width, e.height, info.array_layers)?;
    let fits = e.width <= 1 << 14 && e.height <= 1 << 14 && info.array_layers <= 1 << 13;
    let layer = size / info.array_layers as u64;
    let level = Level { offset: 0, row_pitch: 0, depth_pitch: 0, layer_pitch: layer, size: layer };
    let block =
        1u64 << gpu::addr::pattern(mode, false, texel.trailing_zeros(), samples.trailing_zeros())?.block_bytes_log2();
    fits.then(|| (vec![level], size, mode, block.max(IMAGE_ALIGN)))
}

impl Image {
    fn new(info: &vk::ImageCreateInfo<'_>) -> Result<Image, String> {
        if info.format == D32S8 {
            return Image::new_planes(info);
        }
        let texel = check(info)?;
        let too_large =
            || format!("an image of extent {:?} and {} layers is too large", info.extent, info.array_layers);
        let per_level = block_dim(info.format) > 1 && bc_per_level(info.image_type, info.flags);
        let (levels, size, sw_mode, align) = if info.samples == vk::SampleCountFlags::TYPE_1 {
            let (levels, size) =
                if per_level { lay_out_levels(info, texel) } else { lay_out(info, texel) }.ok_or_else(too_large)?;
            (levels, size, gpu::rsrc::SW_LINEAR, IMAGE_ALIGN)
        } else {
            lay_out_msaa(info, texel).ok_or_else(too_large)?
        };
        Ok(Image {
            image_type: info.image_type,
            format: info.format,
            extent: info.extent,
            mip_levels: info.mip_levels,
            array_layers: info.array_layers,
            samples: info.samples,
            tiling: info.tiling,
            usage: info.usage,
            levels,
            size,
            sw_mode,
            align,
            bound: None,
            stencil: None,
            per_level,
        })
    }

    /// A [`D32S8`] image: its depth plane laid out as a D32_SFLOAT image of its shape, its
    /// stencil plane as an S8_UINT one after it, at that plane's alignment. gfx11 keeps the
    /// two apart too (DB_Z_INFO and DB_STENCIL_INFO each have an address and a format).
    fn new_planes(info: &vk::ImageCreateInfo<'_>) -> Result<Image, String> {
        check(info)?;
        let depth = Image::new(&vk::ImageCreateInfo { format: vk::Format::D32_SFLOAT, ..*info })?;
        let stencil = Image::new(&vk::ImageCreateInfo { format: vk::Format::S8_UINT, ..*info })?;
        let offset = depth.size.next_multiple_of(stencil.align);
        Ok(Image {
            format: D32S8,
            size: offset + stencil.size,
            align: depth.align.max(stencil.align),
            stencil: Some((Box::new(stencil), offset)),
            ..depth
        })
    }

    /// The plane of `aspect` (one aspect bit) as an image of its own, and its offset in
    /// this image: a [`D32S8`] image's depth plane (D32_SFLOAT) or stencil plane (S8_UINT,
    /// bound at its place); any other image is its own one plane. What copies, clears and
    /// views of one aspect address.
    pub fn plane(&self, aspect: vk::ImageAspectFlags) -> Result<(Cow<'_, Image>, u64), String> {
        let Some((stencil, offset)) = &self.stencil else { return Ok((Cow::Borrowed(self), 0)) };
        match aspect {
            vk::ImageAspectFlags::DEPTH => {
                let depth = Image { format: vk::Format::D32_SFLOAT, size: *offset, stencil: None, ..self.clone() };
                Ok((Cow::Owned(depth), 0))
            }
            vk::ImageAspectFlags::STENCIL => {
                let bound = self.bound.as_ref().map(|(bo, va)| (bo.clone(), va + offset));
                Ok((Cow::Owned(Image { bound, ..(**stencil).clone() }), *offset))
            }
            a => Err(format!("aspects {a:?} of a {:?} image, whose planes are DEPTH and STENCIL", self.format)),
        }
    }

    fn requirements(&self) -> vk::MemoryRequirements {
        vk::MemoryRequirements {
            size: self.size.next_multiple_of(self.align),
            alignment: self.align,
            memory_type_bits: crate::memory::ALL_TYPES,
        }
    }

    /// Several samples per texel.
    pub fn is_msaa(&self) -> bool {
        self.samples != vk::SampleCountFlags::TYPE_1
    }

    /// The T# fields that place the samples of a multisampled image bound at `va` (all its
    /// layers; `gpu::rsrc::ImageResource::sample_offset` addresses them): what its views
    /// and its copies use.
    pub fn msaa_resource(&self, va: u64) -> gpu::rsrc::ImageResource {
        let log2 = self.samples.as_raw().trailing_zeros();
        gpu::rsrc::ImageResource {
            base: va,
            width: self.extent.width - 1,
            height: self.extent.height - 1,
            depth: self.array_layers - 1,
            max_mip: log2,
            last_level: log2,
            sw_mode: self.sw_mode,
            kind: gpu::rsrc::img_type::IMG_2D_MSAA_ARRAY,
            ..Default::default()
        }
    }

    /// `vkGetImageSubresourceLayout` for one aspect, level and layer.
    pub fn subresource_layout(&self, level: u32, layer: u32) -> vk::SubresourceLayout {
        let Some(l) = self.levels.get(level as usize) else { return vk::SubresourceLayout::default() };
        let depth = (self.extent.depth >> level).max(1) as u64;
        vk::SubresourceLayout {
            offset: l.offset + l.layer_pitch * layer as u64,
            size: l.depth_pitch * (depth - 1) + l.size,
            row_pitch: l.row_pitch,
            array_pitch: l.layer_pitch,
            depth_pitch: l.depth_pitch,
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_image(
    _d: vk::Device,
    info: *const vk::ImageCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Image,
) -> vk::Result {
    guard("vkCreateImage", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        match Image::new(unsafe { &*info }) {
            Ok(image) => {
                // SAFETY: out is valid per the specification.
                unsafe { *out = image.into_handle() };
                vk::Result::SUCCESS
            }
            Err(why) => {
                tracing::warn!("vkCreateImage: {why}");
                vk::Result::ERROR_FEATURE_NOT_PRESENT
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_image(_d: vk::Device, i: vk::Image, _alloc: *const vk::AllocationCallbacks<'_>) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Image>("vkDestroyImage", i) }
}

/// # Safety
/// `h` must be a live image handle (or null).
pub unsafe fn image<'a>(h: vk::Image) -> Option<&'a mut Image> {
    // SAFETY: by the caller's contract.
    unsafe { Image::from_handle(h) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_image_memory_requirements(
    _d: vk::Device,
    i: vk::Image,
    out: *mut vk::MemoryRequirements,
) {
    guard("vkGetImageMemoryRequirements", (), || {
        // SAFETY: a live handle and a valid out pointer.
        unsafe {
            if let Some(i) = image(i) {
                *out = i.requirements();
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_image_memory_requirements2(
    _d: vk::Device,
    info: *const vk::ImageMemoryRequirementsInfo2<'_>,
    out: *mut vk::MemoryRequirements2<'_>,
) {
    guard("vkGetImageMemoryRequirements2", (), || {
        // SAFETY: valid per the specification.
        unsafe {
            if let Some(i) = image((*info).image) {
                fill_requirements2(i.requirements(), out);
            }
        }
    })
}

/// Vulkan 1.3: the requirements of an image not created yet.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_image_memory_requirements(
    _d: vk::Device,
    info: *const vk::DeviceImageMemoryRequirements<'_>,
    out: *mut vk::MemoryRequirements2<'_>,
) {
    guard("vkGetDeviceImageMemoryRequirements", (), || {
        // SAFETY: valid per the specification.
        unsafe {
            let ci = (*info).p_create_info;
            if ci.is_null() {
                return;
            }
            match Image::new(&*ci) {
                Ok(i) => fill_requirements2(i.requirements(), out),
                Err(why) => tracing::warn!("vkGetDeviceImageMemoryRequirements: {why}"),
            }
        }
    })
}

/// No image is sparse: no requirements.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_image_sparse_memory_requirements(
    _d: vk::Device,
    _i: vk::Image,
    count: *mut u32,
    _out: *mut vk::SparseImageMemoryRequirements,
) {
    // SAFETY: count is valid per the specification.
    guard("vkGetImageSparseMemoryRequirements", (), || unsafe { *count = 0 })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_image_sparse_memory_requirements2(
    _d: vk::Device,
    _info: *const vk::ImageSparseMemoryRequirementsInfo2<'_>,
    count: *mut u32,
    _out: *mut vk::SparseImageMemoryRequirements2<'_>,
) {
    // SAFETY: count is valid per the specification.
    guard("vkGetImageSparseMemoryRequirements2", (), || unsafe { *count = 0 })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_device_image_sparse_memory_requirements(
    _d: vk::Device,
    _info: *const vk::DeviceImageMemoryRequirements<'_>,
    count: *mut u32,
    _out: *mut vk::SparseImageMemoryRequirements2<'_>,
) {
    // SAFETY: count is valid per the specification.
    guard("vkGetDeviceImageSparseMemoryRequirements", (), || unsafe { *count = 0 })
}

fn bind(img: vk::Image, mem: vk::DeviceMemory, offset: u64) -> Result<(), vk::Result> {
    // SAFETY: live handles, externally synchronised per the specification.
    let (i, m) = unsafe { (image(img), DeviceMemory::from_handle(mem)) };
    let (Some(i), Some(m)) = (i, m) else { return Err(vk::Result::ERROR_UNKNOWN) };
    if offset.checked_add(i.size).is_none_or(|end| end > m.size) {
        tracing::warn!(
            "vkBindImageMemory: image of {} bytes at offset {offset} overruns {} bytes of memory",
            i.size,
            m.size
        );
    }
    i.bound = Some((m.bo.clone(), m.bo.va() + offset));
    Ok(())
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn bind_image_memory(
    _d: vk::Device,
    i: vk::Image,
    m: vk::DeviceMemory,
    offset: u64,
) -> vk::Result {
    guard("vkBindImageMemory", vk::Result::ERROR_UNKNOWN, || crate::handle::code(bind(i, m, offset)))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn bind_image_memory2(
    _d: vk::Device,
    n: u32,
    infos: *const vk::BindImageMemoryInfo<'_>,
) -> vk::Result {
    guard("vkBindImageMemory2", vk::Result::ERROR_UNKNOWN, || {
        // SAFETY: valid per the specification.
        for i in unsafe { slice(infos, n) } {
            if let Err(e) = bind(i.image, i.memory, i.memory_offset) {
                return e;
            }
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_image_subresource_layout(
    _d: vk::Device,
    i: vk::Image,
    sub: *const vk::ImageSubresource,
    out: *mut vk::SubresourceLayout,
) {
    guard("vkGetImageSubresourceLayout", (), || {
        // SAFETY: a live handle and valid pointers per the specification.
        unsafe {
            if let Some(i) = image(i) {
                let s = &*sub;
                *out = match i.plane(s.aspect_mask) {
                    Ok((p, offset)) => {
                        let l = p.subresource_layout(s.mip_level, s.array_layer);
                        vk::SubresourceLayout { offset: l.offset + offset, ..l }
                    }
                    Err(why) => {
                        tracing::warn!("vkGetImageSubresourceLayout: {why}");
                        vk::SubresourceLayout::default()
                    }
                };
            }
        }
    })
}

pub struct ImageView {
    pub image: vk::Image,
    pub view_type: vk::ImageViewType,
    pub format: vk::Format,
    pub components: vk::ComponentMapping,
    pub range: vk::ImageSubresourceRange,
    /// The view's T# (what its image descriptors hold), or why it has none.
    pub tsharp: Result<[u32; 8], String>,
}
object!(ImageView, vk::ImageView);

/// The DST_SEL one component of a view's mapping gives, over the format's own select.
fn component_sel(s: vk::ComponentSwizzle, own: u32, fmt: &[u32; 4]) -> u32 {
    use gpu::rsrc::sel;
    match s {
        vk::ComponentSwizzle::ZERO => sel::ZERO,
        vk::ComponentSwizzle::ONE => sel::ONE,
        vk::ComponentSwizzle::R => fmt[0],
        vk::ComponentSwizzle::G => fmt[1],
        vk::ComponentSwizzle::B => fmt[2],
        vk::ComponentSwizzle::A => fmt[3],
        _ => own, // IDENTITY
    }
}

/// The T# of a view of `img` (bound at `va`). The resource type follows the view type; a
/// view of one layer (or depth slice) that is not an array view starts at that slice,
/// which the linear layout keeps whole and 256-byte aligned (RADV instead writes an array
/// type with BASE_ARRAY and relies on a 2D instruction reading slice 0 of it).
pub(crate) fn view_tsharp(img: &Image, va: u64, i: &vk::ImageViewCreateInfo<'_>) -> Result<[u32; 8], String> {
    use gpu::rsrc::img_type::*;
    if img.stencil.is_some() {
        // A shader reads one plane; a view of both aspects is an attachment only.
        let (plane, offset) = img.plane(i.subresource_range.aspect_mask)?;
        return view_tsharp(&plane, va + offset, &vk::ImageViewCreateInfo { format: plane.format, ..*i });
    }
    let hw = crate::format::image_format(i.format)
        .ok_or_else(|| format!("format {:?} has no image descriptor", i.format))?;
    let c = i.components;
    let dst_sel = [c.r, c.g, c.b, c.a]
        .iter()
        .enumerate()
        .map(|(k, &s)| component_sel(s, hw.dst_sel[k], &hw.dst_sel))
        .collect::<Vec<_>>();
    let r = i.subresource_range;
    if block_dim(img.format) > block_dim(i.format) {
        return block_view_tsharp(img, va, i, (hw.hw, [dst_sel[0], dst_sel[1], dst_sel[2], dst_sel[3]]));
    }
    if img.per_level {
        return level_view_tsharp(img, va, i, (hw.hw, [dst_sel[0], dst_sel[1], dst_sel[2], dst_sel[3]]));
    }
    let levels = remaining(r.level_count, img.mip_levels, r.base_mip_level);
    let three_d = img.image_type == vk::ImageType::TYPE_3D;
    let slices = if three_d { img.extent.depth } else { img.array_layers };
    let layers = remaining(r.layer_count, slices, r.base_array_layer);
    let slice_pitch = img.levels.first().map_or(0, |l| l.layer_pitch.max(l.depth_pitch));
    let (kind, base, base_array, depth) = match i.view_type {
        vk::ImageViewType::TYPE_1D => (IMG_1D, va + slice_pitch * r.base_array_layer as u64, 0, 0),
        vk::ImageViewType::TYPE_2D => (IMG_2D, va + slice_pitch * r.base_array_layer as u64, 0, 0),
        vk::ImageViewType::TYPE_3D => (IMG_3D, va, 0, img.extent.depth - 1),
        vk::ImageViewType::TYPE_1D_ARRAY => (IMG_1D_ARRAY, va, r.base_array_layer, r.base_array_layer + layers - 1),
        vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY => {
            (CUBE, va, r.base_array_layer, r.base_array_layer + layers - 1)
        }
        _ => (IMG_2D_ARRAY, va, r.base_array_layer, r.base_array_layer + layers - 1),
    };
    if img.is_msaa() {
        // As RADV's radv_tex_dim: the type follows the image's layers, and a 2D view of a
        // layered image is the array type with BASE_ARRAY at its layer (a layer's samples
        // are swizzled with its index, so the base cannot move to it); BASE_LEVEL 0.
        let (kind, base_array, depth) = match (img.array_layers > 1, kind) {
            (false, _) => (IMG_2D_MSAA, 0, 0),
            (true, IMG_2D) => (IMG_2D_MSAA_ARRAY, r.base_array_layer, r.base_array_layer),
            (true, _) => (IMG_2D_MSAA_ARRAY, base_array, depth),
        };
        let base = va;
        let t = gpu::rsrc::ImageResource {
            format: hw.hw,
            dst_sel: [dst_sel[0], dst_sel[1], dst_sel[2], dst_sel[3]],
            kind,
            base,
            base_array,
            depth,
            ..img.msaa_resource(va)
        };
        return Ok(t.encode());
    }
    let t = gpu::rsrc::ImageResource {
        base,
        format: hw.hw,
        width: img.extent.width - 1,
        height: if img.image_type == vk::ImageType::TYPE_1D { 0 } else { img.extent.height - 1 },
        dst_sel: [dst_sel[0], dst_sel[1], dst_sel[2], dst_sel[3]],
        max_mip: img.mip_levels - 1,
        base_level: r.base_mip_level,
        last_level: r.base_mip_level + levels - 1,
        kind,
        depth,
        base_array,
        ..Default::default()
    };
    Ok(t.encode())
}

/// The T# of a view of one level of an image laid out level by level ([`lay_out_levels`]):
/// a one-level 3D image of the level's extent at its offset. Views of several levels have
/// none (the linear rule a T# follows keeps a level's slices a mip chain apart).
fn level_view_tsharp(
    img: &Image,
    va: u64,
    i: &vk::ImageViewCreateInfo<'_>,
    (format, dst_sel): (u32, [u32; 4]),
) -> Result<[u32; 8], String> {
    let r = i.subresource_range;
    let levels = remaining(r.level_count, img.mip_levels, r.base_mip_level);
    if levels != 1 || i.view_type != vk::ImageViewType::TYPE_3D {
        return Err(format!(
            "a {:?} view of {levels} levels of a 3D block-compressed image with uncompressed views: such images have 3D views of one level",
            i.view_type
        ));
    }
    let level = img.levels.get(r.base_mip_level as usize).ok_or("the view's level is outside the image")?;
    let dim = |v: u32| (v >> r.base_mip_level).max(1) - 1;
    let e = img.extent;
    let t = gpu::rsrc::ImageResource {
        base: va + level.offset,
        format,
        width: dim(e.width),
        height: dim(e.height),
        depth: dim(e.depth),
        dst_sel,
        kind: gpu::rsrc::img_type::IMG_3D,
        ..Default::default()
    };
    Ok(t.encode())
}

/// The T# of an uncompressed view of a BCn image (BLOCK_TEXEL_VIEW_COMPATIBLE: one level,
/// one layer, a texel per block): that level of that layer as a one-level image of its
/// blocks, which the linear layout lays out alike (rows of the level's blocks, 256-byte
/// aligned; the level's offset is a whole number of rows).
fn block_view_tsharp(
    img: &Image,
    va: u64,
    i: &vk::ImageViewCreateInfo<'_>,
    (format, dst_sel): (u32, [u32; 4]),
) -> Result<[u32; 8], String> {
    use gpu::rsrc::img_type::*;
    let r = i.subresource_range;
    let (levels, layers) = (
        remaining(r.level_count, img.mip_levels, r.base_mip_level),
        remaining(r.layer_count, img.array_layers, r.base_array_layer),
    );
    if (levels, layers) != (1, 1) {
        return Err(format!(
            "a {:?} view of a {:?} image has {levels} levels and {layers} layers; views of a block-compressed image in an uncompressed format have one of each",
            i.format, img.format
        ));
    }
    let level = img.levels.get(r.base_mip_level as usize).ok_or("the view's level is outside the image")?;
    let b = block_dim(img.format);
    let [w, h] = [img.extent.width, img.extent.height].map(|e| (e >> r.base_mip_level).max(1).div_ceil(b));
    // A 3D image's view covers the level's slices (a one-level image: `bc_one_level`).
    let (kind, depth) = match i.view_type {
        vk::ImageViewType::TYPE_2D_ARRAY => (IMG_2D_ARRAY, 0),
        vk::ImageViewType::TYPE_3D => (IMG_3D, (img.extent.depth >> r.base_mip_level).max(1) - 1),
        _ => (IMG_2D, 0),
    };
    let t = gpu::rsrc::ImageResource {
        base: va + level.layer_pitch * r.base_array_layer as u64 + level.offset,
        format,
        width: w - 1,
        height: h - 1,
        depth,
        dst_sel,
        kind,
        ..Default::default()
    };
    Ok(t.encode())
}

/// The T# image descriptors of view `v` hold: null for a null handle (nullDescriptor), and
/// null (with a log line) for a view that has none.
///
/// # Safety
/// `v` is a live image view handle or null.
pub unsafe fn view_descriptor(v: vk::ImageView) -> [u32; 8] {
    // SAFETY: by the caller's contract.
    match unsafe { ImageView::from_handle(v) }.map(|v| &v.tsharp) {
        Some(Ok(t)) => *t,
        Some(Err(e)) => {
            tracing::warn!("image descriptor of a view without one: {e}");
            [0; 8]
        }
        None => [0; 8],
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_image_view(
    _d: vk::Device,
    info: *const vk::ImageViewCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::ImageView,
) -> vk::Result {
    guard("vkCreateImageView", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: a live image handle, bound to memory (VUID-VkImageViewCreateInfo-image-01020).
        let tsharp = match unsafe { image(i.image) } {
            Some(img) => match img.bound.as_ref().map(|b| b.1) {
                Some(va) => view_tsharp(img, va, i),
                None => Err("the image is not bound to memory".into()),
            },
            None => Err("null image".into()),
        };
        let view = ImageView {
            image: i.image,
            view_type: i.view_type,
            format: i.format,
            components: i.components,
            range: i.subresource_range,
            tsharp,
        };
        // SAFETY: out is valid per the specification.
        unsafe { *out = view.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_image_view(
    _d: vk::Device,
    v: vk::ImageView,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<ImageView>("vkDestroyImageView", v) }
}

/// A sampler: its S#.
pub struct Sampler {
    pub ssharp: [u32; 4],
}
object!(Sampler, vk::Sampler);

/// The S# of `i`, as RADV's `radv_init_sampler` fills it for gfx11 (facts, not code), or
/// why softnavi has none: anisotropy, reduction modes and custom border colours are not
/// offered.
pub(crate) fn sampler_ssharp(i: &vk::SamplerCreateInfo<'_>) -> Result<[u32; 4], String> {
    use gpu::rsrc::{border_color, lod_bias_to_s6_8, lod_to_u4_8, mip_filter, tex_clamp, tex_filter};
    if i.anisotropy_enable != 0 {
        return Err("anisotropic filtering is not offered (samplerAnisotropy)".into());
    }
    let refused = [
        vk::StructureType::SAMPLER_REDUCTION_MODE_CREATE_INFO,
        vk::StructureType::SAMPLER_CUSTOM_BORDER_COLOR_CREATE_INFO_EXT,
        vk::StructureType::SAMPLER_YCBCR_CONVERSION_INFO,
    ];
    // SAFETY: a valid pNext chain per the specification.
    for s in unsafe { crate::handle::chain(i.p_next) } {
        // SAFETY: s is a valid structure of the chain.
        let t = unsafe { (*s).s_type };
        if refused.contains(&t) {
            return Err(format!("{t:?} is not supported"));
        }
    }
    let clamp = |m: vk::SamplerAddressMode| match m {
        vk::SamplerAddressMode::MIRRORED_REPEAT => tex_clamp::MIRROR,
        vk::SamplerAddressMode::CLAMP_TO_EDGE => tex_clamp::CLAMP_LAST_TEXEL,
        vk::SamplerAddressMode::CLAMP_TO_BORDER => tex_clamp::CLAMP_BORDER,
        vk::SamplerAddressMode::MIRROR_CLAMP_TO_EDGE => tex_clamp::MIRROR_ONCE_LAST_TEXEL,
        _ => tex_clamp::WRAP,
    };
    let filter = |f: vk::Filter| if f == vk::Filter::LINEAR { tex_filter::BILINEAR } else { tex_filter::POINT };
    let border = match i.border_color {
        vk::BorderColor::FLOAT_TRANSPARENT_BLACK | vk::BorderColor::INT_TRANSPARENT_BLACK => border_color::TRANS_BLACK,
        vk::BorderColor::FLOAT_OPAQUE_BLACK | vk::BorderColor::INT_OPAQUE_BLACK => border_color::OPAQUE_BLACK,
        vk::BorderColor::FLOAT_OPAQUE_WHITE | vk::BorderColor::INT_OPAQUE_WHITE => border_color::OPAQUE_WHITE,
        b => return Err(format!("border colour {b:?} is not supported")),
    };
    let s = gpu::rsrc::SamplerResource {
        clamp: [clamp(i.address_mode_u), clamp(i.address_mode_v), clamp(i.address_mode_w)],
        depth_compare_func: if i.compare_enable != 0 { i.compare_op.as_raw() as u32 & 7 } else { 0 },
        force_unnormalized: i.unnormalized_coordinates != 0,
        min_lod: lod_to_u4_8(i.min_lod),
        max_lod: lod_to_u4_8(i.max_lod),
        lod_bias: lod_bias_to_s6_8(i.mip_lod_bias),
        xy_mag_filter: filter(i.mag_filter),
        xy_min_filter: filter(i.min_filter),
        mip_filter: if i.mipmap_mode == vk::SamplerMipmapMode::LINEAR { mip_filter::LINEAR } else { mip_filter::POINT },
        border_color_type: border,
        ..Default::default()
    };
    Ok(s.encode())
}

/// The S# sampler descriptors of `s` hold (null for a null handle).
///
/// # Safety
/// `s` is a live sampler handle or null.
pub unsafe fn sampler_descriptor(s: vk::Sampler) -> [u32; 4] {
    // SAFETY: by the caller's contract.
    unsafe { Sampler::from_handle(s) }.map_or([0; 4], |s| s.ssharp)
}

/// # Safety
/// Vulkan entry point.
///
/// Errors: `VK_ERROR_FEATURE_NOT_PRESENT` for what softnavi does not offer (anisotropy,
/// reduction modes, custom border colours, Y′CbCr conversion), with a log line.
pub unsafe extern "system" fn create_sampler(
    _d: vk::Device,
    info: *const vk::SamplerCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Sampler,
) -> vk::Result {
    guard("vkCreateSampler", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        match sampler_ssharp(unsafe { &*info }) {
            Ok(ssharp) => {
                // SAFETY: out is valid per the specification.
                unsafe { *out = Sampler { ssharp }.into_handle() };
                vk::Result::SUCCESS
            }
            Err(e) => {
                tracing::warn!("vkCreateSampler: {e}");
                vk::Result::ERROR_FEATURE_NOT_PRESENT
            }
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_sampler(
    _d: vk::Device,
    s: vk::Sampler,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Sampler>("vkDestroySampler", s) }
}

/// `samplerYcbcrConversion` is not reported: no conversion can be created.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_sampler_ycbcr_conversion(
    _d: vk::Device,
    _info: *const vk::SamplerYcbcrConversionCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    _out: *mut vk::SamplerYcbcrConversion,
) -> vk::Result {
    tracing::warn!("vkCreateSamplerYcbcrConversion: samplerYcbcrConversion is not supported");
    vk::Result::ERROR_FEATURE_NOT_PRESENT
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_sampler_ycbcr_conversion(
    _d: vk::Device,
    _c: vk::SamplerYcbcrConversion,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // None is ever created; destroying VK_NULL_HANDLE is a no-op.
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(format: vk::Format, extent: vk::Extent3D, mips: u32, layers: u32) -> vk::ImageCreateInfo<'static> {
        vk::ImageCreateInfo::default()
            .image_type(if extent.depth > 1 { vk::ImageType::TYPE_3D } else { vk::ImageType::TYPE_2D })
            .format(format)
            .extent(extent)
            .mip_levels(mips)
            .array_layers(layers)
            .samples(vk::SampleCountFlags::TYPE_1)
            .tiling(vk::ImageTiling::LINEAR)
    }

    #[test]
    fn texel_sizes_of_representative_formats() {
        let cases = [
            (vk::Format::R8_UNORM, 1),
            (vk::Format::R5G6B5_UNORM_PACK16, 2),
            (vk::Format::R8G8B8_SRGB, 3),
            (vk::Format::B8G8R8A8_SRGB, 4),
            (vk::Format::A2B10G10R10_UINT_PACK32, 4),
            (vk::Format::R16G16B16_SFLOAT, 6),
            (vk::Format::R32G32_SFLOAT, 8),
            (vk::Format::R32G32B32_UINT, 12),
            (vk::Format::R32G32B32A32_SFLOAT, 16),
            (vk::Format::R64G64B64A64_SFLOAT, 32),
            (vk::Format::E5B9G9R9_UFLOAT_PACK32, 4),
            (vk::Format::D16_UNORM, 2),
            (vk::Format::D32_SFLOAT, 4),
            (vk::Format::S8_UINT, 1),
            (vk::Format::D32_SFLOAT_S8_UINT, 8),
        ];
        for (f, n) in cases {
            assert_eq!(texel_size(f), Some(n), "{f:?}");
        }
        assert_eq!(texel_size(vk::Format::UNDEFINED), None);
        // BCn: a 4x4 block's bytes (8 for BC1 and BC4, 16 for the rest).
        assert_eq!(texel_size(vk::Format::BC1_RGB_UNORM_BLOCK), Some(8));
        assert_eq!(texel_size(vk::Format::BC4_SNORM_BLOCK), Some(8));
        assert_eq!(texel_size(vk::Format::BC7_SRGB_BLOCK), Some(16));
        assert_eq!(texel_size(vk::Format::ASTC_4X4_UNORM_BLOCK), None);
    }

    /// A 100x60 RGBA8 image with 3 levels and 2 layers in gfx11's linear layout (addrlib's
    /// rule, written out): rows padded to 256 bytes; each layer holds the mip chain,
    /// smallest level first; the layers follow one another.
    #[test]
    fn linear_layout_is_gfx11s_mip_chain_per_layer() {
        let e = vk::Extent3D { width: 100, height: 60, depth: 1 };
        let i = Image::new(&info(vk::Format::R8G8B8A8_UNORM, e, 3, 2)).unwrap();
        // Level 0: 400 bytes a row -> 512, 60 rows; level 1: 50x30, 200 -> 256; level 2:
        // 25x15, 100 -> 256.
        let sizes = [512 * 60, 256 * 30, 256 * 15];
        let slice: u64 = sizes.iter().sum();
        let offsets = [sizes[2] + sizes[1], sizes[2], 0];
        for m in 0..3 {
            let l = i.levels[m];
            assert_eq!((l.offset, l.size, l.layer_pitch, l.depth_pitch), (offsets[m], sizes[m], slice, 0), "level {m}");
        }
        assert_eq!((i.levels[0].row_pitch, i.levels[1].row_pitch, i.levels[2].row_pitch), (512, 256, 256));
        assert_eq!(i.size, 2 * slice);
        let l = i.subresource_layout(1, 1);
        assert_eq!((l.offset, l.row_pitch, l.size, l.array_pitch), (slice + sizes[2], 256, sizes[1], slice));
        let r = i.requirements();
        assert_eq!((r.alignment, r.size % IMAGE_ALIGN), (IMAGE_ALIGN, 0));
        assert!(r.size >= i.size);
    }

    /// A 3D image: each depth slice of level 0 holds a whole mip chain.
    #[test]
    fn a_3d_image_is_slices_of_mip_chains() {
        let e = vk::Extent3D { width: 8, height: 4, depth: 4 };
        let i = Image::new(&info(vk::Format::R32_SFLOAT, e, 3, 1)).unwrap();
        // 8x4 -> 256 x 4 rows; 4x2 -> 256 x 2; 2x1 -> 256.
        let slice = 1024 + 512 + 256;
        assert_eq!(i.levels[0], Level { offset: 768, row_pitch: 256, depth_pitch: slice, layer_pitch: 0, size: 1024 });
        assert_eq!(i.levels[1].offset, 256);
        assert_eq!(i.levels[2].offset, 0);
        assert_eq!(i.size, 4 * slice);
        // Level 0 spans its four depth slices.
        assert_eq!(i.subresource_layout(0, 0).size, 3 * slice + 1024);
    }

    /// A BC1 image is laid out as addrlib lays out a compressed surface's elements: a
    /// 100x60 level is 25x15 blocks of 8 bytes, rows padded to 256 bytes (32 blocks); level
    /// 1 (50x30) is 13x8 blocks.
    #[test]
    fn bc_images_are_laid_out_in_blocks() {
        let e = vk::Extent3D { width: 100, height: 60, depth: 1 };
        let i = Image::new(&info(vk::Format::BC1_RGBA_UNORM_BLOCK, e, 2, 1)).expect("a BC1 image"); // ok: test
        assert_eq!((i.levels[0].row_pitch, i.levels[0].size), (256, 256 * 15));
        assert_eq!((i.levels[1].row_pitch, i.levels[1].size, i.levels[0].offset), (256, 256 * 8, 256 * 8));
        let three_d = vk::Extent3D { depth: 4, ..e };
        let i3 = info(vk::Format::BC1_RGBA_UNORM_BLOCK, three_d, 1, 1).image_type(vk::ImageType::TYPE_3D);
        assert!(Image::new(&i3).is_ok());
        let bt = i3.flags(vk::ImageCreateFlags::BLOCK_TEXEL_VIEW_COMPATIBLE | vk::ImageCreateFlags::MUTABLE_FORMAT);
        assert!(Image::new(&bt).is_ok_and(|i| i.per_level));
        let one_d = info(vk::Format::BC1_RGBA_UNORM_BLOCK, vk::Extent3D { height: 1, ..e }, 1, 1);
        assert!(err(&one_d.image_type(vk::ImageType::TYPE_1D)).contains("2D or 3D"));
    }

    /// A BLOCK_TEXEL_VIEW_COMPATIBLE view in an uncompressed format of the block's size
    /// (Vulkan's "Compatible Formats": a texel per block) is one level of one layer: a
    /// one-level T# of that level's blocks, based where the level lies in the layer; more
    /// levels or layers are refused.
    #[test]
    fn uncompressed_views_of_bc_images_address_one_level_of_blocks() {
        let e = vk::Extent3D { width: 22, height: 22, depth: 1 };
        let mut i = Image::new(&info(vk::Format::BC1_RGBA_UNORM_BLOCK, e, 3, 3)).expect("a BC1 image"); // ok: test
        i.bound = None;
        let view = |level: u32, layer: u32, levels: u32| {
            vk::ImageViewCreateInfo::default()
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(vk::Format::R32G32_UINT)
                .subresource_range(vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: level,
                    level_count: levels,
                    base_array_layer: layer,
                    layer_count: 1,
                })
        };
        let t = gpu::rsrc::ImageResource::decode(view_tsharp(&i, 0x10000, &view(1, 2, 1)).expect("a T#")); // ok: test
        let l1 = i.levels[1];
        assert_eq!(t.base, 0x10000 + 2 * l1.layer_pitch + l1.offset);
        // Level 1 is 11x11 texels: 3x3 blocks.
        assert_eq!((t.width + 1, t.height + 1, t.max_mip, t.format), (3, 3, 0, 48));
        assert_eq!(t.linear_level(8, 0).map(|l| l.row_pitch), Some(l1.row_pitch));
        assert!(view_tsharp(&i, 0x10000, &view(0, 0, 2)).is_err());
    }

    /// A 3D BC image whose views may be uncompressed is laid out level after level: a view of
    /// one level (of its blocks, or compressed) is a one-level 3D T# at the level's offset
    /// whose own slice pitch is the level's; views of several levels have none.
    #[test]
    fn block_texel_3d_bc_images_are_laid_out_level_by_level() {
        let e = vk::Extent3D { width: 20, height: 12, depth: 5 };
        let ci = info(vk::Format::BC1_RGBA_UNORM_BLOCK, e, 3, 1)
            .image_type(vk::ImageType::TYPE_3D)
            .flags(vk::ImageCreateFlags::BLOCK_TEXEL_VIEW_COMPATIBLE | vk::ImageCreateFlags::MUTABLE_FORMAT);
        let i = Image::new(&ci).expect("a 3D BC1 image"); // ok: test
        assert!(i.per_level);
        let view = |format, level: u32, levels: u32| {
            vk::ImageViewCreateInfo::default().view_type(vk::ImageViewType::TYPE_3D).format(format).subresource_range(
                vk::ImageSubresourceRange {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    base_mip_level: level,
                    level_count: levels,
                    base_array_layer: 0,
                    layer_count: 1,
                },
            )
        };
        for level in 0..3u32 {
            let l = i.levels[level as usize];
            let blocks = view(vk::Format::R32G32_UINT, level, 1);
            let t = gpu::rsrc::ImageResource::decode(view_tsharp(&i, 0x10000, &blocks).expect("a T#")); // ok: test
            let d = (5 >> level).max(1);
            assert_eq!((t.base, t.depth + 1), (0x10000 + l.offset, d), "level {level}");
            assert_eq!(t.linear_level(8, 0).map(|x| (x.row_pitch, x.slice_pitch)), Some((l.row_pitch, l.depth_pitch)));
            let bc = view(vk::Format::BC1_RGBA_UNORM_BLOCK, level, 1);
            let t = gpu::rsrc::ImageResource::decode(view_tsharp(&i, 0x10000, &bc).expect("a T#")); // ok: test
            assert_eq!((t.base, t.width + 1, t.max_mip), (0x10000 + l.offset, (20 >> level).max(1), 0));
        }
        let last = i.levels[2];
        // Level 2 has one slice (5 >> 2).
        assert_eq!(i.size, (last.offset + last.depth_pitch).next_multiple_of(256));
        assert!(view_tsharp(&i, 0x10000, &view(vk::Format::BC1_RGBA_UNORM_BLOCK, 0, 3)).is_err());
    }

    fn err(i: &vk::ImageCreateInfo<'_>) -> String {
        Image::new(i).err().expect("refused")
    }

    #[test]
    fn multisampled_images_take_addrlibs_layout() {
        let e = vk::Extent3D { width: 100, height: 60, depth: 1 };
        let i = info(vk::Format::R8G8B8A8_UNORM, e, 1, 3)
            .samples(vk::SampleCountFlags::TYPE_4)
            .tiling(vk::ImageTiling::OPTIMAL);
        let img = Image::new(&i).unwrap();
        let (mode, size) = gpu::addr::msaa_layout(2, 4, 100, 60, 3).unwrap();
        assert_eq!((img.sw_mode, img.size), (mode, size));
        assert_eq!(img.levels[0].layer_pitch * 3, size);
        assert_eq!(img.requirements().alignment % (1 << 16), 0);
        let t = img.msaa_resource(0x10_0000);
        assert_eq!((t.samples_log2(), t.layout_unsupported(4)), (2, None));
    }

    /// Multisampled depth images exist (the Required Limits' framebufferDepthSampleCounts
    /// and sampledImageDepthSampleCounts include 4) and take addrlib's depth layout, Z order.
    #[test]
    fn multisampled_depth_images_take_addrlibs_depth_layout() {
        let e = vk::Extent3D { width: 33, height: 17, depth: 1 };
        for (f, elem_log2) in [(vk::Format::D16_UNORM, 1), (vk::Format::D32_SFLOAT, 2)] {
            let i = info(f, e, 1, 2).samples(vk::SampleCountFlags::TYPE_4).tiling(vk::ImageTiling::OPTIMAL);
            let img = Image::new(&i).unwrap();
            let (mode, size) = gpu::addr::msaa_depth_layout(elem_log2, 4, 33, 17, 2).unwrap();
            assert!(matches!(mode, 24 | 28));
            assert_eq!((img.sw_mode, img.size), (mode, size));
            let t = img.msaa_resource(0x10_0000);
            assert_eq!((t.samples_log2(), t.layout_unsupported(1 << elem_log2)), (2, None));
            let p = format_properties(
                f,
                vk::ImageType::TYPE_2D,
                vk::ImageTiling::OPTIMAL,
                vk::ImageUsageFlags::SAMPLED,
                vk::ImageCreateFlags::empty(),
            )
            .unwrap();
            assert!(p.sample_counts.contains(vk::SampleCountFlags::TYPE_4), "{f:?}");
        }
    }

    /// Vulkan's required formats: D24_UNORM_S8_UINT or D32_SFLOAT_S8_UINT is a depth/stencil
    /// attachment format (softnavi: D32S8, as RDNA3), and the Required Limits' depth and
    /// stencil sample counts (1 and 4) hold for it; OPTIMAL only.
    #[test]
    fn d32s8_is_a_multisampled_depth_stencil_format() {
        type F = vk::FormatFeatureFlags2;
        let opt = tiling_features(D32S8, vk::ImageTiling::OPTIMAL);
        assert!(opt.contains(F::DEPTH_STENCIL_ATTACHMENT | F::SAMPLED_IMAGE | F::TRANSFER_SRC | F::TRANSFER_DST));
        assert!(!opt.intersects(F::STORAGE_IMAGE | F::BLIT_SRC | F::COLOR_ATTACHMENT));
        assert!(tiling_features(D32S8, vk::ImageTiling::LINEAR).is_empty());
        let s8 = features(vk::Format::S8_UINT);
        assert!(s8.contains(F::DEPTH_STENCIL_ATTACHMENT | F::SAMPLED_IMAGE));
        assert!(!s8.intersects(F::SAMPLED_IMAGE_FILTER_LINEAR | F::SAMPLED_IMAGE_DEPTH_COMPARISON | F::STORAGE_IMAGE));
        for f in [D32S8, vk::Format::S8_UINT] {
            let usage = vk::ImageUsageFlags::DEPTH_STENCIL_ATTACHMENT | vk::ImageUsageFlags::SAMPLED;
            let p = format_properties(f, vk::ImageType::TYPE_2D, vk::ImageTiling::OPTIMAL, usage, Default::default());
            assert!(p.unwrap().sample_counts.contains(vk::SampleCountFlags::TYPE_1 | vk::SampleCountFlags::TYPE_4));
        }
        for f in [vk::Format::D24_UNORM_S8_UINT, vk::Format::D16_UNORM_S8_UINT] {
            assert!(features(f).is_empty(), "{f:?}");
        }
    }

    /// A D32S8 image is a D32_SFLOAT image and an S8_UINT one after it (each in its own
    /// layout, MSAA included); copies, clears and views address one plane.
    #[test]
    fn d32s8_images_are_a_depth_plane_and_a_stencil_plane() {
        let e = vk::Extent3D { width: 37, height: 9, depth: 1 };
        for (samples, levels) in [(vk::SampleCountFlags::TYPE_1, 3), (vk::SampleCountFlags::TYPE_4, 1)] {
            let i = info(D32S8, e, levels, 2).samples(samples).tiling(vk::ImageTiling::OPTIMAL);
            let img = Image::new(&i).unwrap();
            let d = Image::new(&i.format(vk::Format::D32_SFLOAT)).unwrap();
            let s = Image::new(&i.format(vk::Format::S8_UINT)).unwrap();
            let offset = d.size.next_multiple_of(s.align);
            assert_eq!((img.size, img.levels.clone(), img.sw_mode), (offset + s.size, d.levels.clone(), d.sw_mode));
            let mut img = img;
            let bo = gpu::mem::AddressSpace::new(1 << 24).alloc(img.size, img.align).unwrap();
            img.bound = Some((bo, 0x40_0000));
            let (sp, at) = img.plane(vk::ImageAspectFlags::STENCIL).unwrap();
            assert_eq!(
                (sp.format, at, sp.levels.clone(), sp.sw_mode),
                (vk::Format::S8_UINT, offset, s.levels, s.sw_mode)
            );
            assert_eq!(sp.bound.as_ref().map(|b| b.1), Some(0x40_0000 + offset));
            let (dp, at) = img.plane(vk::ImageAspectFlags::DEPTH).unwrap();
            assert_eq!((dp.format, at), (vk::Format::D32_SFLOAT, 0));
            assert!(img.plane(vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL).is_err());
            // A stencil view reads the stencil plane as R8_UINT.
            let range = vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::STENCIL,
                level_count: 1,
                layer_count: 1,
                ..Default::default()
            };
            let v = vk::ImageViewCreateInfo::default()
                .view_type(vk::ImageViewType::TYPE_2D)
                .format(D32S8)
                .subresource_range(range);
            let t = gpu::rsrc::ImageResource::decode(view_tsharp(&img, 0x40_0000, &v).unwrap());
            let r8 = crate::format::image_format(vk::Format::R8_UINT).unwrap().hw;
            assert_eq!((t.base, t.format), (0x40_0000 + offset, r8));
        }
    }

    #[test]
    fn impossible_images_are_refused_with_a_reason() {
        let e = vk::Extent3D { width: 4, height: 4, depth: 1 };
        assert!(err(&info(vk::Format::ASTC_4X4_UNORM_BLOCK, e, 1, 1)).contains("not supported"));
        assert!(err(&info(vk::Format::R8_UNORM, e, 4, 1)).contains("mip levels"));
        assert!(Image::new(&info(vk::Format::R8_UNORM, vk::Extent3D { width: 0, height: 4, depth: 1 }, 1, 1)).is_err());
        let huge = vk::Extent3D { width: u32::MAX, height: u32::MAX, depth: u32::MAX };
        assert!(err(&info(vk::Format::R64G64B64A64_SFLOAT, huge, 1, u32::MAX)).contains("too large"));
        // gfx11's linear rule is for power-of-two texel sizes.
        assert!(err(&info(vk::Format::R8G8B8_UNORM, e, 1, 1)).contains("not supported"));
        let msaa = info(vk::Format::R8_UNORM, e, 2, 1).samples(vk::SampleCountFlags::TYPE_4);
        assert!(err(&msaa).contains("multisampled"));
        let msaa = info(vk::Format::D32_SFLOAT, e, 1, 1).samples(vk::SampleCountFlags::TYPE_4);
        assert!(err(&msaa).contains("multisampled"));
        let msaa = info(vk::Format::R8_UNORM, e, 1, 1).samples(vk::SampleCountFlags::TYPE_16);
        assert!(err(&msaa).contains("multisampled"));
        let sparse = info(vk::Format::R8_UNORM, e, 1, 1).flags(vk::ImageCreateFlags::SPARSE_BINDING);
        assert!(err(&sparse).contains("sparse"));
    }
}
