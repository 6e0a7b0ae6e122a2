//! Image instructions (MIMG) on linear images: `image_load`, `image_load_mip`,
//! `image_store`, `image_store_mip` and `image_get_resinfo`, addressed through a T#
//! ([`ImageResource`]).
//!
//! Per lane: the address VGPRs (x, then y, then z / the array slice / the cube face, then
//! the mip level of the `_mip` forms; listed one by one with NSA), the level (BASE_LEVEL
//! plus the mip operand), the range check against that level's size and the view's layers,
//! the texel's address under the gfx11 linear layout ([`ImageResource::texel_offset`]),
//! then the same memory movement and format conversion as the MUBUF format instructions
//! (`crate::format::BufFormat`, `buffer.rs`).
//!
//! Facts: the T# from AMD's gfx11 definitions and Mesa (see [`ImageResource`]); the
//! address operands from LLVM's AMDGPU MIMG definitions (`mimg_addr_dwords` in the
//! decoder). Decisions where those sources are silent (each has a test in
//! `tests/exec_image.rs`):
//! - Out of range (a coordinate at or past the level's size, an array slice past the
//!   view's last layer DEPTH, a level past LAST_LEVEL or MAX_MIP): loads return 0 in every
//!   dmask'd component (also where DST_SEL is `SQ_SEL_1`), stores do nothing. Coordinates
//!   are unsigned: a negative one is out of range.
//! - The array slice operand counts from the view's first layer (BASE_ARRAY); DEPTH is
//!   the view's last layer (absolute), as Mesa writes it ("Depth is the last accessible
//!   layer on gfx9+"). A cube is a 2D array of six layers per cube: the face operand is the
//!   layer; CUBE and 2D_ARRAY instructions and T#s are interchangeable.
//! - The instruction's DIM must name the T#'s TYPE (CUBE and 2D_ARRAY aside): another
//!   pairing is an Unsupported fault naming both. So is a T# whose TYPE is not an image
//!   type (0..7), an MSAA type, a swizzle mode other than linear, a format past 67 (the
//!   formats softnavi converts are the 63 it shares with buffers and the image-only
//!   8_SRGB, 8_8_SRGB, 8_8_8_8_SRGB and 5_9_9_9_FLOAT, `BufFormat::from_image`; stores to
//!   the image-only ones are refused too) or INVALID, and a texel
//!   size the linear rule does not cover. The all-zero T# is a null image (RADV writes it
//!   for a null descriptor): loads and `image_get_resinfo` return 0, stores do nothing.
//! - Loads: the format's components (those it lacks read as 0), DST_SEL applied as for
//!   MUBUF format loads (`SQ_SEL_1`: 1.0, or 1 for UINT/SINT), then the components dmask
//!   names go to consecutive VGPRs, X first. Stores: the VGPRs hold the dmask'd components
//!   in order (the others are 0), memory component `i` takes the component `DST_SEL[i]`
//!   names, and the format's components are written (converted as MUBUF format stores
//!   convert). D16 packs two components per VGPR, low half first; a load of an odd count
//!   keeps the high half of its last VGPR.
//! - `image_get_resinfo` (the mip operand counts from BASE_LEVEL; D3D's `resinfo`
//!   semantics, which the ISA guide's "width, height, depth, mip levels" follows): x the
//!   level's width; y its height (1D: 0; 1D array: the view's layers); z the level's depth
//!   (3D), the view's layers (2D array, cube: in 2D layers, as ACO divides by 6 for cube
//!   arrays) or 0; w the view's levels (LAST_LEVEL − BASE_LEVEL + 1). Past LAST_LEVEL x, y
//!   (but a 1D array's layers) and z are 0. Integers, dmask'd, no DST_SEL.
//! - UNORM and the cache bits have no effect on loads and stores. A16, TFE, LWE, R128,
//!   the MSAA dims and dmask 0 are not executed (the decoded-but-not-executed exception,
//!   `program.rs`).

use super::buffer::pick;
use super::{unsupported, Ctx, FaultKind, Wave};
use crate::format::BufFormat;
use crate::isa::decode::{mimg, Inst, Operand};
use crate::isa::table::Op;
use crate::rsrc::{img_type, ImageResource, SW_LINEAR};

/// Coordinate VGPRs per DIM (1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY).
pub(super) const COORDS: [usize; 6] = [1, 2, 3, 3, 2, 3];

/// The T# type a DIM addresses; CUBE and 2D_ARRAY share one.
fn dim_type(dim: u32) -> u32 {
    match dim {
        3 => img_type::IMG_2D_ARRAY,
        d => img_type::IMG_1D + d,
    }
}

fn type_name(t: u32) -> &'static str {
    ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"]
        .get(t.wrapping_sub(8) as usize)
        .copied()
        .unwrap_or("not an image type")
}

/// Why softnavi does not execute `inst` on T# `t` (not null), if it does not.
pub(super) fn refuse(inst: &Inst, t: &ImageResource, dim: u32, resinfo: bool) -> Option<String> {
    let name = inst.op.name();
    let kind = if t.kind == img_type::CUBE { img_type::IMG_2D_ARRAY } else { t.kind };
    if !(img_type::IMG_1D..=img_type::IMG_2D_ARRAY).contains(&t.kind) {
        return Some(format!(
            "{name}: the T# has TYPE {} ({}); softnavi executes image instructions on the types 1D, 2D, 3D, CUBE, 1D_ARRAY and 2D_ARRAY",
            t.kind,
            type_name(t.kind)
        ));
    }
    if kind != dim_type(dim) {
        return Some(format!(
            "{name}: dim:SQ_RSRC_IMG_{} on a T# of TYPE {} ({}) is not executed by softnavi",
            mimg::DIMS[dim as usize],
            t.kind,
            type_name(t.kind)
        ));
    }
    if resinfo {
        return None;
    }
    if t.sw_mode != SW_LINEAR {
        return Some(format!(
            "{name}: the T# has SW_MODE {}; softnavi executes linear images (SW_MODE 0) only",
            t.sw_mode
        ));
    }
    let Some(f) = BufFormat::from_image(t.format) else {
        return Some(format!(
            "{name}: the T# has image format {}; softnavi converts the formats 1..63 (those buffers share) and 64..67 (8_SRGB, 8_8_SRGB, 8_8_8_8_SRGB, 5_9_9_9_FLOAT)",
            t.format
        ));
    };
    if t.format >= 64 && matches!(inst.op, Op::IMAGE_STORE | Op::IMAGE_STORE_MIP) {
        return Some(format!(
            "{name}: softnavi does not store to the image-only format {} (sRGB, shared exponent)",
            t.format
        ));
    }
    if t.linear_level(f.bytes as u32, t.base_level).is_none() {
        return Some(format!(
            "{name}: the gfx11 linear layout of this T# is not pinned down (texels of {} bytes, or a custom pitch {} with {} levels)",
            f.bytes,
            t.pitch_field() + 1,
            t.max_mip + 1
        ));
    }
    None
}

impl Wave {
    /// The T# in the eight SGPRs starting at `op` (4-aligned: the low bits are ignored).
    pub(super) fn tsharp(&self, op: &Operand) -> ImageResource {
        let Operand::Sgpr(i) = *op else { return ImageResource::default() };
        let i = (i & !3) as usize;
        ImageResource::decode(std::array::from_fn(|k| self.sget(i + k)))
    }

    /// The VGPR of address operand `k`: consecutive from VADDR, or with NSA VADDR and then
    /// the NSA dword's bytes.
    pub(super) fn mimg_addr(&self, inst: &Inst, k: usize) -> [u32; 64] {
        let Operand::Vgpr(v) = inst.src[0] else { return [0; 64] };
        let r = match (inst.imm & mimg::NSA != 0, k) {
            (false, _) => v.wrapping_add(k as u16),
            (true, 0) => v,
            (true, _) => (inst.ext >> (8 * (k - 1)) & 0xff) as u16,
        };
        self.vmem_src(&Operand::Vgpr(r))
    }

    pub(super) fn mimg(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        let resinfo = op == Op::IMAGE_GET_RESINFO;
        let store = matches!(op, Op::IMAGE_STORE | Op::IMAGE_STORE_MIP);
        let has_mip = matches!(op, Op::IMAGE_LOAD_MIP | Op::IMAGE_STORE_MIP);
        let dmask = (inst.imm & mimg::DMASK) as u32;
        let dim = (inst.imm >> mimg::DIM_SHIFT & 7) as u32;
        let d16 = inst.imm & mimg::D16 != 0;
        let n = dmask.count_ones() as usize;
        let regs = if d16 { n.div_ceil(2) } else { n };
        let vdata = match inst.dst {
            Operand::Vgpr(r) => r,
            _ => 0,
        };
        let t = self.tsharp(&inst.src[1]);
        let null = t.is_null();
        if !null {
            if let Some(why) = refuse(inst, &t, dim, resinfo) {
                return Err(unsupported(why));
            }
        }
        // RDNA3-NOTES, "VGPR out-of-range behaviour": returned registers outside the
        // allocation issue the instruction with EXEC = 0.
        if !store && !self.vgprs_in_range(vdata, regs as u32) {
            return Ok(());
        }
        let exec = self.exec();
        let ncoords = if resinfo || null { 0 } else { COORDS[dim as usize] };
        let mut addr_v = [[0u32; 64]; 4];
        for (k, a) in addr_v.iter_mut().enumerate().take(ncoords) {
            *a = self.mimg_addr(inst, k);
        }
        let mip_v = if has_mip || resinfo { self.mimg_addr(inst, ncoords) } else { [0; 64] };

        if resinfo {
            return self.resinfo(&t, null, &mip_v, dmask, vdata, exec);
        }

        // ---- Per lane: level, range check, texel address ----
        let fmt = if null { None } else { BufFormat::from_image(t.format) };
        let elem = fmt.map_or(4, |f| f.bytes as u32);
        let npieces = elem.div_ceil(4) as usize;
        let mut addr = [[0u64; 4]; 64];
        let mut ok = [0u8; 64];
        let active = if fmt.is_some() { exec } else { 0 };
        for l in (0..self.lanes).filter(|&l| active >> l & 1 != 0) {
            let level = t.base_level as u64 + mip_v[l] as u64;
            if level > t.last_level.min(t.max_mip) as u64 {
                continue;
            }
            let level = level as u32;
            let [w, h, d] = t.level_extent(level);
            let c = |k: usize| addr_v[k][l];
            let layer = |k: usize| t.base_array as u64 + c(k) as u64;
            let (x, y, slice, inside) = match t.kind {
                img_type::IMG_1D => (c(0), 0, 0, c(0) < w),
                img_type::IMG_2D => (c(0), c(1), 0, c(0) < w && c(1) < h),
                img_type::IMG_3D => (c(0), c(1), c(2) as u64, c(0) < w && c(1) < h && c(2) < d),
                img_type::IMG_1D_ARRAY => (c(0), 0, layer(1), c(0) < w && layer(1) <= t.depth as u64),
                _ => (c(0), c(1), layer(2), c(0) < w && c(1) < h && layer(2) <= t.depth as u64),
            };
            if !inside {
                continue;
            }
            // refuse() checked that the layout covers this T# (it does for every level when
            // it does for one).
            let Some(off) = t.texel_offset(elem, x, y, slice as u32, level) else { continue };
            let a = t.base.wrapping_add(off);
            for (k, p) in addr[l].iter_mut().enumerate().take(npieces) {
                *p = a.wrapping_add(4 * k as u64);
            }
            ok[l] = (1u8 << npieces) - 1;
        }

        let mut bytes = [[0u8; 16]; 64];
        if store {
            let Some(f) = fmt else { return Ok(()) };
            let data: Vec<[u32; 64]> =
                (0..regs).map(|k| self.vmem_src(&Operand::Vgpr(vdata.wrapping_add(k as u16)))).collect();
            let one = f.one(d16);
            for l in (0..self.lanes).filter(|&l| ok[l] != 0) {
                let mut src = [0u32; 4];
                for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
                    src[i] = if d16 { data[j / 2][l] >> (16 * (j % 2)) & 0xffff } else { data[j][l] };
                }
                let mut raw = [0u32; 4];
                for (i, r) in raw.iter_mut().enumerate().take(f.comps as usize) {
                    let x = pick(t.dst_sel[i], &src, one);
                    *r = if d16 { f.store16(i, x as u16) } else { f.store32(i, x) };
                }
                bytes[l] = f.pack(raw);
            }
            return self.buffer_move(ctx, &addr, &ok, &mut bytes, npieces, elem, true);
        }
        self.buffer_move(ctx, &addr, &ok, &mut bytes, npieces, elem, false)?;

        // ---- Loads: convert, swizzle, dmask, D16 packing ----
        let mut out = [[0u32; 64]; 4];
        let keep = (d16 && n % 2 == 1).then(|| self.vsrc(&Operand::Vgpr(vdata.wrapping_add(regs as u16 - 1))));
        for l in 0..self.lanes {
            let mut vals = [0u32; 4];
            if let (Some(f), true) = (fmt, ok[l] != 0) {
                let raw = f.unpack(&bytes[l]);
                let mut comp = [0u32; 4];
                for (i, c) in comp.iter_mut().enumerate().take(f.comps as usize) {
                    *c = if d16 { f.load16(i, raw[i]) as u32 } else { f.load32(i, raw[i]) };
                }
                for (i, v) in vals.iter_mut().enumerate() {
                    *v = pick(t.dst_sel[i], &comp, f.one(d16));
                }
            }
            for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
                if d16 {
                    out[j / 2][l] |= (vals[i] & 0xffff) << (16 * (j % 2));
                } else {
                    out[j][l] = vals[i];
                }
            }
            if let Some(old) = &keep {
                out[regs - 1][l] |= old[l] & 0xffff_0000;
            }
        }
        for (k, vals) in out.iter().enumerate().take(regs) {
            self.vdst(&Operand::Vgpr(vdata.wrapping_add(k as u16)), vals, exec);
        }
        Ok(())
    }

    /// `image_get_resinfo`: see the module's notes.
    fn resinfo(
        &mut self,
        t: &ImageResource,
        null: bool,
        mip_v: &[u32; 64],
        dmask: u32,
        vdata: u16,
        exec: u64,
    ) -> Result<(), FaultKind> {
        let levels = (t.last_level + 1).saturating_sub(t.base_level);
        let layers = (t.depth + 1).saturating_sub(t.base_array);
        let mut out = [[0u32; 64]; 4];
        for l in (0..self.lanes).filter(|_| !null) {
            let level = t.base_level as u64 + mip_v[l] as u64;
            let [w, h, d] = if level <= t.last_level as u64 { t.level_extent(level as u32) } else { [0; 3] };
            let vals = match t.kind {
                img_type::IMG_1D => [w, 0, 0, levels],
                img_type::IMG_1D_ARRAY => [w, layers, 0, levels],
                img_type::IMG_2D => [w, h, 0, levels],
                img_type::IMG_3D => [w, h, d, levels],
                _ => [w, h, if level <= t.last_level as u64 { layers } else { 0 }, levels],
            };
            for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
                out[j][l] = vals[i];
            }
        }
        for (k, vals) in out.iter().enumerate().take(dmask.count_ones() as usize) {
            self.vdst(&Operand::Vgpr(vdata.wrapping_add(k as u16)), vals, exec);
        }
        Ok(())
    }
}
