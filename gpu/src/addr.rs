//! gfx11 swizzled surface addressing: where sample `s` of texel (x, y, slice) of mip level
//! `m` of an image in a non-linear swizzle mode lies, for colour images (the T#'s 1D, 2D,
//! 3D, CUBE and array types, of one sample, and 2D_MSAA and 2D_MSAA_ARRAY, of 2, 4 or 8).
//!
//! The rules are AMD's addrlib for gfx11 (`Gfx11Lib`, `src/amd/addrlib/src/gfx11/gfx11addrlib.cpp`
//! in Mesa and PAL), written again here:
//! - **Patterns.** Inside a block (256 bytes, 4 KiB, 64 KiB or 256 KiB by mode) each byte
//!   address bit is the XOR of some bits of the element coordinates x, y and z (z the
//!   slice: the depth slice of a 3D image, the array layer otherwise). Those are addrlib's
//!   swizzle patterns (`gfx11SwizzlePattern.h`, `GFX11_SW_*_PATINFO`, chosen by
//!   `Gfx11Lib::GetSwizzlePatternInfo`); the `_X` ones depend on the chip's pipe and packer
//!   counts. [`patterns`] holds them for softnavi's chip (gfx1100, GB_ADDR_CONFIG 0x505:
//!   32 pipes, 256-byte pipe interleave, 32 packers, Mesa's `gfx11_32pipe` test
//!   configuration), read back from addrlib by `scripts/addrlib-oracle`.
//! - **Samples.** gfx11 has no FMASK: a multisampled colour surface keeps every sample of
//!   every texel, and the sample index is one more coordinate of the pattern (addrlib's
//!   `_2xaa`, `_4xaa`, `_8xaa` patterns); a block holds fewer texels, each `samples` times.
//!   addrlib accepts only the Z_X and R_X modes for MSAA (`Gfx11MsaaSwModeMask`) and no Z
//!   order for colour surfaces (`ValidateSwModeParams`), nor mip levels with MSAA: colour
//!   MSAA surfaces are `SW_64KB_R_X` or `SW_256KB_R_X`, one level; depth MSAA surfaces (2-
//!   and 4-byte depth) `SW_64KB_Z_X` or `SW_256KB_Z_X`, with addrlib's depth patterns (the
//!   table's Z_X entries with samples). The T# of an MSAA image
//!   holds log2(samples) in LAST_LEVEL (and MAX_MIP), BASE_LEVEL 0 (Mesa's
//!   `ac_build_gfx10_texture_descriptor`); [`ImageResource::samples_log2`] reads it.
//! - **Blocks.** `ComputeThinBlockDimension` / `ComputeThickBlockDimension` (addrlib2.cpp):
//!   1D, 2D and the Z/R modes of 3D images are thin (one slice per block); the S and D modes
//!   of 3D images are thick (blocks of several slices). Blocks follow one another in rows of
//!   the level's width rounded up to the block width.
//! - **Mip levels.** Each level's size rounded up (`GetMipSize`). `ComputeSurfaceInfoMacroTiled` / `ComputeSurfaceInfoMicroTiled` and
//!   `ComputeSurfaceAddrFromCoordMacroTiled` / `MicroTiled`: each slice (a block's worth of
//!   slices when thick) holds the whole mip chain, the mip tail (the small levels sharing
//!   one block, `GetMipTailDim`, `GetMaxNumMipsInTail`, `IsInMipTail`) first, then the
//!   levels from the smallest to level 0; inside the tail each level sits at its own
//!   offset (`mipTailOffset`), at the coordinates that offset decodes to. 256-byte modes
//!   have no tail.
//! - **Pipe/bank XOR.** addrlib XORs `pipeBankXor << 8` into the block offset of the `_X`
//!   and `_T` modes; the T# carries it in the base address bits below the block size. On
//!   gfx11 addrlib's `HwlComputePipeBankXor` always answers 0 (so RADV's and PAL's images
//!   have none), and Mesa notes that gfx11 hardware shifts it by 10 bits, not addrlib's 8:
//!   softnavi does not execute a T# whose base is not aligned to its block.
//!
//! Tested against addrlib itself: `tests/swizzle.rs` and `tests/data/swizzle_vectors.txt`.

#[rustfmt::skip]
mod patterns;

use crate::rsrc::{img_type, ImageResource, SW_LINEAR};

/// One swizzle pattern: a mode, resource class, element size and sample count.
pub struct Pattern {
    /// The SW_MODE (`AddrSwizzleMode`) number.
    pub mode: u8,
    /// For 3D images (else 1D, 2D, cube and arrays).
    pub dim3: bool,
    /// log2 of the element's bytes.
    pub elem_log2: u8,
    /// log2 of the samples per texel (0: single-sample).
    pub samples_log2: u8,
    /// log2 of the block's width, height and depth in elements.
    pub block_log2: [u8; 3],
    /// Per byte address bit inside the block, lowest first: the x, y, z and sample bits
    /// XORed.
    pub bits: &'static [[u16; 4]],
}

/// The names of the gfx11 swizzle modes (`AddrSwizzleMode`), for messages.
pub fn mode_name(mode: u32) -> &'static str {
    match mode {
        0 => "SW_LINEAR",
        2 => "SW_256B_D",
        5 => "SW_4KB_S",
        6 => "SW_4KB_D",
        9 => "SW_64KB_S",
        10 => "SW_64KB_D",
        17 => "SW_64KB_S_T",
        18 => "SW_64KB_D_T",
        21 => "SW_4KB_S_X",
        22 => "SW_4KB_D_X",
        24 => "SW_64KB_Z_X",
        25 => "SW_64KB_S_X",
        26 => "SW_64KB_D_X",
        27 => "SW_64KB_R_X",
        28 => "SW_256KB_Z_X",
        29 => "SW_256KB_S_X",
        30 => "SW_256KB_D_X",
        31 => "SW_256KB_R_X",
        _ => "reserved",
    }
}

/// The pattern of `mode` for a 3D image (`dim3`) or another one, elements of `2^elem_log2`
/// bytes and `2^samples_log2` samples, if softnavi has it.
pub fn pattern(mode: u32, dim3: bool, elem_log2: u32, samples_log2: u32) -> Option<&'static Pattern> {
    patterns::PATTERNS.iter().find(|p| {
        p.mode as u32 == mode
            && p.dim3 == dim3
            && p.elem_log2 as u32 == elem_log2
            && p.samples_log2 as u32 == samples_log2
    })
}

impl Pattern {
    pub fn block_bytes_log2(&self) -> u32 {
        self.bits.len() as u32
    }

    fn block(&self) -> [u32; 3] {
        self.block_log2.map(|b| 1u32 << b)
    }

    fn thick(&self) -> bool {
        self.block_log2[2] > 0
    }

    /// The byte offset inside a block of sample `s` of element (x, y, z): each address bit
    /// is the parity of the coordinate bits its pattern names.
    pub fn offset(&self, x: u32, y: u32, z: u32, s: u32) -> u64 {
        self.bits.iter().enumerate().fold(0, |acc, (i, &[mx, my, mz, ms])| {
            let v = (x & mx as u32).count_ones()
                ^ (y & my as u32).count_ones()
                ^ (z & mz as u32).count_ones()
                ^ (s & ms as u32).count_ones();
            acc | ((v & 1) as u64) << i
        })
    }
}

/// addrlib's `Block256_2d` and `Block256_3d`: the 256-byte micro block per element size.
const BLOCK256_2D: [[u32; 2]; 5] = [[16, 16], [16, 8], [8, 8], [8, 4], [4, 4]];
const BLOCK256_3D: [[u32; 3]; 5] = [[8, 4, 8], [4, 4, 8], [4, 4, 4], [4, 2, 4], [2, 2, 4]];

/// Where level `m` of a swizzled surface lies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SwizzledLevel {
    /// Bytes from one slice to the next (thin), or from one block's worth of slices to the
    /// next (thick).
    pub slice_pitch: u64,
    /// Offset of the level inside a slice's mip chain (`macroBlockOffset`).
    pub offset: u64,
    /// Row pitch in blocks.
    pub pitch_blocks: u64,
    /// In the mip tail: the coordinates the level starts at inside the tail block.
    pub tail: Option<[u32; 2]>,
}

/// A swizzled surface: its pattern and level 0's size (depth: 3D only, 1 otherwise).
pub struct Surface {
    pub pat: &'static Pattern,
    pub extent: [u32; 3],
    pub levels: u32,
}

fn align(v: u32, a: u32) -> u64 {
    (v as u64).next_multiple_of(a as u64)
}

impl Surface {
    /// Level `m`'s size for the layout: addrlib's `GetMipSize` rounds up (`ShiftCeil`), where
    /// the level's texels (Vulkan's, [`ImageResource::level_extent`]) round down; it only
    /// pads.
    fn mip_extent(&self, m: u32) -> [u32; 3] {
        self.extent.map(|e| ((e as u64 + (1u64 << m) - 1) >> m).max(1) as u32)
    }

    /// The layout of level `level` (< `levels`).
    pub fn level(&self, level: u32) -> SwizzledLevel {
        let p = self.pat;
        let [bw, bh, bd] = p.block();
        let e = p.elem_log2 as usize;
        let bpe = 1u64 << e;
        let blog2 = p.block_bytes_log2();
        let block = 1u64 << blog2;
        let samples = 1u64 << p.samples_log2;
        let size2d = |m: u32| {
            let [w, h, _] = self.mip_extent(m);
            align(w, bw) * align(h, bh) * bpe * samples
        };
        let pitch_blocks = |m: u32| align(self.mip_extent(m)[0], bw) / bw as u64;
        if blog2 == 8 {
            // ComputeSurfaceInfoMicroTiled: the levels from the smallest, no tail.
            let offset = (level + 1..self.levels).map(size2d).sum();
            let slice_pitch = (0..self.levels).map(size2d).sum();
            return SwizzledLevel { slice_pitch, offset, pitch_blocks: pitch_blocks(level), tail: None };
        }
        if self.levels == 1 {
            return SwizzledLevel { slice_pitch: size2d(0), offset: 0, pitch_blocks: pitch_blocks(0), tail: None };
        }
        // ComputeSurfaceInfoMacroTiled.
        let thick = p.thick();
        let mut tail_dim = [bw, bh];
        if thick {
            // GetMipTailDim halves the height, width or depth by the block size's log2 mod 3;
            // only the width and height take part in IsInMipTail.
            match blog2 % 3 {
                0 => tail_dim[1] >>= 1,
                1 => tail_dim[0] >>= 1,
                _ => {}
            }
        } else {
            tail_dim[0] >>= 1;
        }
        let eff = if thick { blog2 - (blog2 - 8) / 3 } else { blog2 };
        let max_in_tail = if eff <= 11 { 1 + (1 << (eff - 9)) } else { eff - 4 };
        // Z order: 1- and 2-byte elements enter the tail when 4-byte ones would (for HTILE).
        if matches!(p.mode, 24 | 28) && e <= 1 {
            tail_dim[0] /= BLOCK256_2D[e][0] / BLOCK256_2D[2][0];
            tail_dim[1] /= BLOCK256_2D[e][1] / BLOCK256_2D[2][1];
        }
        let first_tail = (0..self.levels)
            .find(|&m| {
                let [w, h, _] = self.mip_extent(m);
                w <= tail_dim[0] && h <= tail_dim[1] && self.levels - m <= max_in_tail
            })
            .unwrap_or(self.levels);
        // Each level's share of a slice; thick levels take a block's depth of slices.
        let slice_pitch =
            (0..first_tail).map(size2d).sum::<u64>() + if first_tail < self.levels { block / bd as u64 } else { 0 };
        if level < first_tail {
            let offset = if first_tail < self.levels { block } else { 0 }
                + (level + 1..first_tail).map(|m| size2d(m) * bd as u64).sum::<u64>();
            return SwizzledLevel { slice_pitch, offset, pitch_blocks: pitch_blocks(level), tail: None };
        }
        let m = max_in_tail - 1 - (level - first_tail);
        let tail_offset = if m > 6 { 16u32 << m } else { m << 8 };
        let gather = |lo: u32| (0..6).fold(0, |acc, k| acc | (tail_offset >> (lo + 2 * k) & 1) << k);
        let (mut mx, mut my) = (gather(9), gather(8));
        if blog2 & 1 != 0 {
            std::mem::swap(&mut mx, &mut my);
            if e & 1 != 0 {
                my = my << 1 | mx & 1;
                mx >>= 1;
            }
        }
        let micro = if thick { [BLOCK256_3D[e][0], BLOCK256_3D[e][1]] } else { BLOCK256_2D[e] };
        // A tail offset of 0 (the last level a tail can hold) is not "in the tail" to addrlib:
        // it decodes to (0, 0) anyway.
        SwizzledLevel { slice_pitch, offset: 0, pitch_blocks: 0, tail: Some([mx * micro[0], my * micro[1]]) }
    }

    /// The byte offset of sample `s` of element (x, y, z) of level `level` from the
    /// surface's base (z the slice; the coordinates inside the level).
    pub fn offset(&self, x: u32, y: u32, z: u32, level: u32, s: u32) -> u64 {
        let p = self.pat;
        let [bw, bh, bd] = p.block();
        let l = self.level(level);
        let blog2 = p.block_bytes_log2();
        let (slice_bytes, slice_id) = if p.thick() { (l.slice_pitch * bd as u64, z / bd) } else { (l.slice_pitch, z) };
        let [tx, ty] = l.tail.unwrap_or([0, 0]);
        let block_index = (y / bh) as u64 * l.pitch_blocks + (x / bw) as u64;
        // 256-byte modes take no z in the equation (ComputeSurfaceAddrFromCoordMicroTiled).
        let ez = if blog2 == 8 { 0 } else { z };
        slice_bytes * slice_id as u64 + l.offset + (block_index << blog2) + p.offset(x + tx, y + ty, ez, s)
    }
}

/// The swizzled surface a T# describes for elements of `bpe` bytes, or why softnavi does not
/// address it. The T# must not be linear.
pub fn surface(t: &ImageResource, bpe: u32) -> Result<Surface, String> {
    debug_assert_ne!(t.sw_mode, SW_LINEAR);
    let mode = t.sw_mode;
    let name = mode_name(mode);
    let dim3 = t.kind == img_type::IMG_3D;
    if !bpe.is_power_of_two() || bpe > 16 {
        return Err(format!(
            "the T# has SW_MODE {mode} ({name}) with texels of {bpe} bytes; gfx11 swizzles elements of 1, 2, 4, 8 or 16 bytes"
        ));
    }
    let one_d = matches!(t.kind, img_type::IMG_1D | img_type::IMG_1D_ARRAY);
    let slog2 = t.samples_log2();
    // addrlib's Gfx11Rsrc1dSwModeMask: 1D images are linear, 64KB_Z_X or 64KB_R_X.
    let Some(pat) = pattern(mode, dim3, bpe.trailing_zeros(), slog2).filter(|_| !one_d || matches!(mode, 24 | 27))
    else {
        let kind = if dim3 {
            "3D".to_string()
        } else if one_d {
            "1D".to_string()
        } else if slog2 > 0 {
            format!("2D {}-sample", 1u32 << slog2)
        } else {
            "2D".to_string()
        };
        return Err(format!(
            "the T# has SW_MODE {mode} ({name}); softnavi does not address that mode for {kind} images of {bpe}-byte texels (gfx11 addrlib has no such colour surface)"
        ));
    };
    let block = 1u64 << pat.block_bytes_log2();
    if t.base % block != 0 {
        return Err(format!(
            "the T# has SW_MODE {mode} ({name}) and base address {:#x}, not aligned to its {block}-byte block (a pipe/bank XOR in the base address is not executed)",
            t.base
        ));
    }
    // An MSAA T#'s MAX_MIP holds log2(samples): its surface has one level.
    let levels = if slog2 > 0 { 1 } else { t.max_mip + 1 };
    Ok(Surface { pat, extent: t.level_extent(0), levels })
}

/// The swizzle mode and bytes of an MSAA colour image of `2^elem_log2`-byte texels,
/// `samples` (2, 4 or 8) samples, `w` x `h` and `layers` layers, as RADV has addrlib choose
/// it (`Addr2GetPreferredSurfaceSetting` with `opt4space`, on a dGPU): of the two modes
/// addrlib allows MSAA colour, SW_256KB_R_X when its surface is at most 3/2 the size of
/// SW_64KB_R_X's (`Addr2BlockTypeWithinMemoryBudget` with opt4space's ratio 3:2), else
/// SW_64KB_R_X. `None` for a texel size or sample count without a pattern. Checked against
/// addrlib: `tests/swizzle.rs`, `tests/data/msaa_preferred.txt`.
pub fn msaa_layout(elem_log2: u32, samples: u32, w: u32, h: u32, layers: u32) -> Option<(u32, u64)> {
    budget_layout((27, 31), elem_log2, samples, [w, h, layers])
}

/// [`msaa_layout`] for an MSAA depth image (D16, D32): the same choice between the Z order
/// modes, SW_64KB_Z_X and SW_256KB_Z_X, whose depth patterns addrlib has for 2- and 4-byte
/// elements. Checked against addrlib: `tests/data/msaa_depth_preferred.txt`.
pub fn msaa_depth_layout(elem_log2: u32, samples: u32, w: u32, h: u32, layers: u32) -> Option<(u32, u64)> {
    budget_layout((24, 28), elem_log2, samples, [w, h, layers])
}

/// The 256 KiB mode of `modes` when its surface is at most 3/2 the 64 KiB mode's, else
/// the 64 KiB mode (`Addr2BlockTypeWithinMemoryBudget`, opt4space).
fn budget_layout(modes: (u32, u32), elem_log2: u32, samples: u32, [w, h, layers]: [u32; 3]) -> Option<(u32, u64)> {
    let size = |mode: u32| -> Option<u64> {
        let p = pattern(mode, false, elem_log2, samples.trailing_zeros()).filter(|_| samples.is_power_of_two())?;
        let [bw, bh, _] = p.block();
        Some((align(w, bw) * align(h, bh) * samples as u64) << elem_log2)
    };
    let (s64, s256) = (size(modes.0)? * layers as u64, size(modes.1)? * layers as u64);
    Some(if 2 * s256 <= 3 * s64 { (modes.1, s256) } else { (modes.0, s64) })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every pattern's block holds its block size: width x height x depth x element bytes.
    #[test]
    fn blocks_fill_their_bytes() {
        for p in patterns::PATTERNS {
            let [w, h, d] = p.block_log2.map(|b| b as u32);
            let bits = w + h + d + p.elem_log2 as u32 + p.samples_log2 as u32;
            assert_eq!(bits, p.block_bytes_log2(), "mode {} dim3 {} samples_log2 {}", p.mode, p.dim3, p.samples_log2);
        }
    }
}
