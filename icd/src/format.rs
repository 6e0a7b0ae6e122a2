//! Vulkan formats ↔ gfx11 buffer and image formats: the one table from which buffer views
//! take their V# format and swizzle, and `vkGetPhysicalDeviceFormatProperties*` its buffer
//! features; image views start from it too ([`image_format`], which adds the formats only
//! images have), and image.rs derives the image features.
//!
//! The gfx11 numbers are the unified buffer formats of `gpu::format` (LLVM's `UfmtGFX11`,
//! Mesa's `GFX11_FORMAT`). Components a format lacks read as 0, alpha as 1 (the DST_SEL
//! the view's V# gets), as Vulkan's texel input conversion requires.

use ash::vk;
use gpu::rsrc::sel;

/// How a Vulkan format is held in a buffer: the gfx11 format and the DST_SEL swizzle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferFormat {
    /// gfx11 unified buffer format (V# dword 3, FORMAT).
    pub hw: u32,
    /// DST_SEL X/Y/Z/W: which memory component (or 0/1) each shader component gets.
    pub dst_sel: [u32; 4],
    /// Bytes of one texel.
    pub texel_size: u32,
    /// Whether storage texel buffers of this format work (else only uniform ones).
    pub storage: bool,
    /// Whether 32-bit integer atomics work on it (R32_UINT / R32_SINT).
    pub atomic: bool,
}

/// Identity select for `n` components, the missing ones 0 and alpha 1.
const fn ident(n: u32) -> [u32; 4] {
    [
        sel::X,
        if n > 1 { sel::Y } else { sel::ZERO },
        if n > 2 { sel::Z } else { sel::ZERO },
        if n > 3 { sel::W } else { sel::ONE },
    ]
}

/// BGRA in memory: red is the third component.
const BGRA: [u32; 4] = [sel::Z, sel::Y, sel::X, sel::W];

/// (format, gfx11 number, components, texel bytes, storage, atomic).
type Row = (vk::Format, u32, u32, u32, bool, bool);

#[rustfmt::skip]
const TABLE: &[Row] = &[
    (vk::Format::R8_UNORM, 1, 1, 1, true, false),
    (vk::Format::R8_SNORM, 2, 1, 1, true, false),
    (vk::Format::R8_UINT, 5, 1, 1, true, false),
    (vk::Format::R8_SINT, 6, 1, 1, true, false),
    (vk::Format::R16_UNORM, 7, 1, 2, true, false),
    (vk::Format::R16_SNORM, 8, 1, 2, true, false),
    (vk::Format::R16_UINT, 11, 1, 2, true, false),
    (vk::Format::R16_SINT, 12, 1, 2, true, false),
    (vk::Format::R16_SFLOAT, 13, 1, 2, true, false),
    (vk::Format::R8G8_UNORM, 14, 2, 2, true, false),
    (vk::Format::R8G8_SNORM, 15, 2, 2, true, false),
    (vk::Format::R8G8_UINT, 18, 2, 2, true, false),
    (vk::Format::R8G8_SINT, 19, 2, 2, true, false),
    (vk::Format::R32_UINT, 20, 1, 4, true, true),
    (vk::Format::R32_SINT, 21, 1, 4, true, true),
    (vk::Format::R32_SFLOAT, 22, 1, 4, true, false),
    (vk::Format::R16G16_UNORM, 23, 2, 4, true, false),
    (vk::Format::R16G16_SNORM, 24, 2, 4, true, false),
    (vk::Format::R16G16_UINT, 27, 2, 4, true, false),
    (vk::Format::R16G16_SINT, 28, 2, 4, true, false),
    (vk::Format::R16G16_SFLOAT, 29, 2, 4, true, false),
    // 10_11_11: an 11-bit X in the low bits, like Vulkan's R.
    (vk::Format::B10G11R11_UFLOAT_PACK32, 30, 3, 4, true, false),
    // 2_10_10_10: a 10-bit X in the low bits, a 2-bit W on top.
    (vk::Format::A2B10G10R10_UNORM_PACK32, 36, 4, 4, true, false),
    (vk::Format::A2B10G10R10_SNORM_PACK32, 37, 4, 4, true, false),
    (vk::Format::A2B10G10R10_UINT_PACK32, 40, 4, 4, true, false),
    // Not stored, as RADV offers no unformatted stores to it (SPIR-V has no format for it,
    // and the model's 2_10_10_10 SINT stores saturate where the CTS expects the 2-bit
    // alpha to wrap).
    (vk::Format::A2B10G10R10_SINT_PACK32, 41, 4, 4, false, false),
    (vk::Format::R8G8B8A8_UNORM, 42, 4, 4, true, false),
    (vk::Format::R8G8B8A8_SNORM, 43, 4, 4, true, false),
    (vk::Format::R8G8B8A8_UINT, 46, 4, 4, true, false),
    (vk::Format::R8G8B8A8_SINT, 47, 4, 4, true, false),
    (vk::Format::A8B8G8R8_UNORM_PACK32, 42, 4, 4, true, false),
    (vk::Format::A8B8G8R8_SNORM_PACK32, 43, 4, 4, true, false),
    (vk::Format::A8B8G8R8_UINT_PACK32, 46, 4, 4, true, false),
    (vk::Format::A8B8G8R8_SINT_PACK32, 47, 4, 4, true, false),
    // BGRA byte order and A2R10G10B10: the same formats, red and blue swapped by DST_SEL.
    (vk::Format::B8G8R8A8_UNORM, 42, 4, 4, true, false),
    (vk::Format::B8G8R8A8_SNORM, 43, 4, 4, true, false),
    (vk::Format::B8G8R8A8_UINT, 46, 4, 4, true, false),
    (vk::Format::B8G8R8A8_SINT, 47, 4, 4, true, false),
    (vk::Format::A2R10G10B10_UNORM_PACK32, 36, 4, 4, true, false),
    (vk::Format::A2R10G10B10_SNORM_PACK32, 37, 4, 4, true, false),
    (vk::Format::A2R10G10B10_UINT_PACK32, 40, 4, 4, true, false),
    // Not stored, as its A2B10G10R10 twin.
    (vk::Format::A2R10G10B10_SINT_PACK32, 41, 4, 4, false, false),
    (vk::Format::R32G32_UINT, 48, 2, 8, true, false),
    (vk::Format::R32G32_SINT, 49, 2, 8, true, false),
    (vk::Format::R32G32_SFLOAT, 50, 2, 8, true, false),
    (vk::Format::R16G16B16A16_UNORM, 51, 4, 8, true, false),
    (vk::Format::R16G16B16A16_SNORM, 52, 4, 8, true, false),
    (vk::Format::R16G16B16A16_UINT, 55, 4, 8, true, false),
    (vk::Format::R16G16B16A16_SINT, 56, 4, 8, true, false),
    (vk::Format::R16G16B16A16_SFLOAT, 57, 4, 8, true, false),
    // Three 32-bit components: uniform texel buffers only (as RADV).
    (vk::Format::R32G32B32_UINT, 58, 3, 12, false, false),
    (vk::Format::R32G32B32_SINT, 59, 3, 12, false, false),
    (vk::Format::R32G32B32_SFLOAT, 60, 3, 12, false, false),
    (vk::Format::R32G32B32A32_UINT, 61, 4, 16, true, false),
    (vk::Format::R32G32B32A32_SINT, 62, 4, 16, true, false),
    (vk::Format::R32G32B32A32_SFLOAT, 63, 4, 16, true, false),
];

/// The buffer format of `f`, or `None` when `f` cannot be a texel buffer's format.
pub fn buffer_format(f: vk::Format) -> Option<BufferFormat> {
    let &(_, hw, comps, texel_size, storage, atomic) = TABLE.iter().find(|r| r.0 == f)?;
    let name = format!("{f:?}");
    let bgra = name.starts_with("B8G8R8A8") || name.starts_with("A2R10G10B10");
    let dst_sel = if bgra { BGRA } else { ident(comps) };
    Some(BufferFormat { hw, dst_sel, texel_size, storage, atomic })
}

/// The gfx11 image format of `f` (the T# FORMAT and DST_SEL image views start from): the
/// buffer formats (the unified numbers are shared) and the depth and stencil formats read
/// as their one colour component.
pub fn image_format(f: vk::Format) -> Option<BufferFormat> {
    // The image-only formats (gpu `BufFormat::from_image`): sampled; the shared-exponent
    // and most 16-bit packed ones stored too, as RADV offers them (no sRGB, no A4R4G4B4 or
    // A4B4G4R4 storage).
    let only = |hw, texel_size, dst_sel| BufferFormat { hw, dst_sel, texel_size, storage: false, atomic: false };
    let stored = |hw, texel_size, dst_sel| BufferFormat { storage: true, ..only(hw, texel_size, dst_sel) };
    Some(match f {
        vk::Format::R8_SRGB => only(64, 1, ident(1)),
        vk::Format::R8G8_SRGB => only(65, 2, ident(2)),
        vk::Format::R8G8B8A8_SRGB | vk::Format::A8B8G8R8_SRGB_PACK32 => only(66, 4, ident(4)),
        vk::Format::B8G8R8A8_SRGB => only(66, 4, BGRA),
        vk::Format::E5B9G9R9_UFLOAT_PACK32 => stored(67, 4, ident(3)),
        // 16-bit packed: the hardware's X is the low bits, Vulkan names from the top.
        vk::Format::R5G6B5_UNORM_PACK16 => stored(68, 2, [sel::Z, sel::Y, sel::X, sel::ONE]),
        vk::Format::B5G6R5_UNORM_PACK16 => stored(68, 2, ident(3)),
        vk::Format::A1R5G5B5_UNORM_PACK16 => stored(69, 2, [sel::Z, sel::Y, sel::X, sel::W]),
        vk::Format::R5G5B5A1_UNORM_PACK16 => stored(70, 2, [sel::W, sel::Z, sel::Y, sel::X]),
        vk::Format::B5G5R5A1_UNORM_PACK16 => stored(70, 2, [sel::Y, sel::Z, sel::W, sel::X]),
        vk::Format::B4G4R4A4_UNORM_PACK16 => stored(71, 2, [sel::Y, sel::Z, sel::W, sel::X]),
        vk::Format::R4G4B4A4_UNORM_PACK16 => stored(71, 2, [sel::W, sel::Z, sel::Y, sel::X]),
        vk::Format::A4R4G4B4_UNORM_PACK16 => only(71, 2, [sel::Z, sel::Y, sel::X, sel::W]),
        vk::Format::A4B4G4R4_UNORM_PACK16 => only(71, 2, ident(4)),
        f if bc(f).is_some() => {
            let (hw, comps, bytes) = bc(f)?;
            // BC1 without alpha reads alpha 1 whatever the block's punch-through says.
            let rgb = matches!(f, vk::Format::BC1_RGB_UNORM_BLOCK | vk::Format::BC1_RGB_SRGB_BLOCK);
            let dst_sel = if rgb { [sel::X, sel::Y, sel::Z, sel::ONE] } else { ident(comps) };
            only(hw, bytes, dst_sel)
        }
        vk::Format::D16_UNORM => buffer_format(vk::Format::R16_UNORM)?,
        vk::Format::D32_SFLOAT => buffer_format(vk::Format::R32_SFLOAT)?,
        vk::Format::S8_UINT => buffer_format(vk::Format::R8_UINT)?,
        _ => buffer_format(f)?,
    })
}

/// A BCn format: its gfx11 image format (Mesa's gfx11 table: `BC1_UNORM` 109 ...
/// `BC7_SRGB` 122), decoded components and block bytes.
pub fn bc(f: vk::Format) -> Option<(u32, u32, u32)> {
    let k = (f.as_raw() as u32).checked_sub(vk::Format::BC1_RGB_UNORM_BLOCK.as_raw() as u32).filter(|&k| k < 16)?;
    // BC1 has two Vulkan formats (RGB, RGBA) per gfx11 one; the rest one each.
    let hw = if k < 4 { 109 + k % 2 } else { 107 + k };
    let (comps, bytes) = match hw {
        109 | 110 => (4, 8),
        115 | 116 => (1, 8),
        117 | 118 => (2, 16),
        119 | 120 => (3, 16),
        _ => (4, 16),
    };
    Some((hw, comps, bytes))
}

/// The buffer features of `f` (`VkFormatProperties3::bufferFeatures`): uniform texel
/// buffers for every format of the table, storage ones (read and written with or without a
/// format in the shader: the V# converts) where `storage`, atomics on R32 integers.
pub fn buffer_features(f: vk::Format) -> vk::FormatFeatureFlags2 {
    if !(crate::features::api::BUFFER_VIEWS && compiler_bridge::SHADER_FEATURES.texel_buffers) {
        return vk::FormatFeatureFlags2::empty();
    }
    let Some(b) = buffer_format(f) else { return vk::FormatFeatureFlags2::empty() };
    // VERTEX_BUFFER as the required format tables ask: only a graphics pipeline, which
    // softnavi has no queue for, could fetch vertices (the MTBUF formats it would use are
    // these, executed).
    let mut out = vk::FormatFeatureFlags2::UNIFORM_TEXEL_BUFFER | vk::FormatFeatureFlags2::VERTEX_BUFFER;
    if b.storage {
        out |= vk::FormatFeatureFlags2::STORAGE_TEXEL_BUFFER
            | vk::FormatFeatureFlags2::STORAGE_READ_WITHOUT_FORMAT
            | vk::FormatFeatureFlags2::STORAGE_WRITE_WITHOUT_FORMAT;
    }
    if b.atomic {
        out |= vk::FormatFeatureFlags2::STORAGE_TEXEL_BUFFER_ATOMIC;
    }
    out
}

/// [`buffer_features`] in the 32-bit flags of `VkFormatProperties` (the bits they share).
pub fn buffer_features1(f: vk::Format) -> vk::FormatFeatureFlags {
    vk::FormatFeatureFlags::from_raw((buffer_features(f).as_raw() & 0xffff_ffff) as u32)
        & (vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER
            | vk::FormatFeatureFlags::VERTEX_BUFFER
            | vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER
            | vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gpu::format::{BufFormat, Num};

    /// Every row's gfx11 number is a format of the texel's size and numeric kind
    /// (RDNA3-NOTES, "Buffer data formats": the table of data and numeric formats).
    #[test]
    fn table_agrees_with_the_gpu_formats() {
        for &(f, hw, comps, size, _, _) in TABLE {
            let b = BufFormat::from_unified(hw);
            let b = b.unwrap_or_else(|| panic!("{f:?}: {hw} is not a format")); // ok: a unit test
            assert_eq!(b.bytes as u32, size, "{f:?}");
            assert_eq!(b.comps as u32, comps, "{f:?}");
            let name = format!("{f:?}");
            let num = if name.contains("UNORM") {
                Num::Unorm
            } else if name.contains("SNORM") {
                Num::Snorm
            } else if name.contains("UINT") {
                Num::Uint
            } else if name.contains("SINT") {
                Num::Sint
            } else {
                Num::Float
            };
            assert_eq!(b.num, num, "{f:?}");
        }
    }

    #[test]
    fn swizzles_and_features() {
        let r32f = buffer_format(vk::Format::R32_SFLOAT).unwrap();
        assert_eq!(r32f.dst_sel, [sel::X, sel::ZERO, sel::ZERO, sel::ONE]);
        assert_eq!(buffer_format(vk::Format::B8G8R8A8_UNORM).unwrap().dst_sel, BGRA);
        assert!(buffer_format(vk::Format::D32_SFLOAT).is_none());
        assert!(buffer_format(vk::Format::R8G8B8_UNORM).is_none());
        assert!(buffer_format(vk::Format::R32_UINT).unwrap().atomic);
        assert!(!buffer_format(vk::Format::R32G32B32_SFLOAT).unwrap().storage);
    }
}
