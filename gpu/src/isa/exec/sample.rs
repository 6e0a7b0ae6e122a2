//! Sampling instructions (MIMG with an S#) on linear and swizzled images (texels addressed
//! as `image.rs` addresses them, [`ImageResource::texel_offset`]): the `image_sample` family
//! (`_l`, `_b`, `_lz`, `_c`, `_d`, `_cl` and their `_o` forms, in the combinations gfx11
//! has), the `image_gather4` family and `image_get_lod`, addressed through a T#
//! ([`ImageResource`], checked as `image.rs` checks it) and an S# ([`SamplerResource`], the
//! SSAMP operand's four SGPRs).
//!
//! Address operands (LLVM's AMDGPU image intrinsics, `AMDGPUSampleVariant`), one VGPR each,
//! consecutive from VADDR or listed with NSA: the offset (`_o`), the bias (`_b`), the depth
//! reference (`_c`), the derivatives (`_d`: every x-direction one, then every y-direction
//! one, `ds/dh, dt/dh, (dr/dh), ds/dv, ...`), the coordinates, then the LOD (`_l`) or the
//! clamp (`_cl`). With A16 the coordinates and the LOD or clamp are f16, two per VGPR
//! (low half first), the bias an f16 in its own VGPR, offset and reference unchanged
//! (LLVM's `packImage16bitOpsToDwords`).
//!
//! Per lane, the Vulkan spec's "Texel Filtering" and "Texel Coordinate Systems" rules, in
//! f32:
//! - Coordinates are normalized unless FORCE_UNNORMALIZED or the instruction's UNORM bit is
//!   set (then they are texels, the LOD is 0 and the view's base level is sampled). The
//!   offset VGPR holds 6-bit signed texel offsets, x in bits 5:0, y in 13:8, z in 21:16.
//! - LOD: implicit forms (`image_sample`, `_b`, `_c`, `_c_b`, `_cl`, gather4 without `_l`
//!   or `_lz`, `image_get_lod`) take derivatives across each quad of lanes 4k..4k+3, laid
//!   out as RDNA3 lays out pixel quads: lane 4k top-left, 4k+1 top-right, 4k+2 bottom-left,
//!   4k+3 bottom-right; d/dx = c(4k+1) − c(4k), d/dy = c(4k+2) − c(4k), one pair per quad
//!   (coarse), whatever EXEC holds for the other lanes. `_d` reads them from VGPRs. Then
//!   λ = log2(max(ρx, ρy)) with ρ the derivative's length in texels of the base level,
//!   plus LOD_BIAS and the `_b` operand; `_l` gives λ (plus LOD_BIAS), `_lz` 0 (plus
//!   LOD_BIAS: softnavi reads `_lz` as `_l` with LOD 0); λ is clamped to
//!   [max(MIN_LOD, cl), MAX_LOD], then to the view's levels 0..LAST_LEVEL − BASE_LEVEL.
//!   λ ≤ 0 selects XY_MAG_FILTER, else XY_MIN_FILTER; MIP_FILTER NONE samples the base
//!   level, POINT the nearest level (`ceil(λ + 0.5) − 1`), LINEAR the two around λ.
//!   Z_FILTER NONE filters depth (3D) as the XY filter does.
//! - Wrap modes per axis on integer texel coordinates (the spec's table): WRAP, MIRROR,
//!   CLAMP_LAST_TEXEL, MIRROR_ONCE_LAST_TEXEL, CLAMP_BORDER and MIRROR_ONCE_BORDER (mirror
//!   once, then border past the edge). A border texel is the BORDER_COLOR_TYPE colour
//!   (0 / 1 for integer formats) taken as a texel of the format: the components the format
//!   has, then DST_SEL, so an R32_FLOAT image's opaque white is (1, 0, 0, 1), as Vulkan's
//!   "Texel Replacement" and lavapipe have it (BC_SWIZZLE is not read).
//! - Texels convert as `image_load` converts them (`BufFormat`), sRGB formats decoded per
//!   texel before filtering (SKIP_DEGAMMA keeps them encoded), then DST_SEL; LINEAR blends
//!   the 2, 4 or 8 taps with f32 weights.
//! - `_c`: the reference (clamped to [0, 1] for UNORM formats) is compared with each tap's
//!   first memory component (`reference OP texel`, DEPTH_COMPARE_FUNC), giving 1.0 or 0.0
//!   per tap before filtering; the result goes to every component.
//! - Arrays: layer = round-to-nearest-even of the coordinate, clamped to the view's layers.
//!   Cubes: the shader has already selected the face (LLVM and ACO lower cube sampling
//!   with `v_cubeid`, `v_cubesc`, `v_cubetc`, `v_cubema`): the VGPRs hold s and t as
//!   `sc / |ma| + 1.5` in [1, 2] and the face as `layer * 8 + face`; softnavi samples
//!   `(s − 1, t − 1)` on that face. Sampling is seamless (Vulkan's "Cube Map Edge
//!   Handling", `samplecube.rs`) unless the S# sets DISABLE_CUBE_WRAP: the wrap modes are
//!   not used; NEAREST clamps to the face's edge; a LINEAR or gather tap past one edge reads
//!   the neighbouring face's texel, and one past two edges (a corner) the mean of the three
//!   texels around the corner (the spec's recommended value, and dEQP's reference), or, for
//!   integer formats, which cannot be averaged, the corner's own-face texel (the spec allows
//!   any value that is right when the three are equal). With DISABLE_CUBE_WRAP the wrap
//!   modes apply on the face.
//! - Gather4: the level as POINT mip filtering picks it, the 2×2 bilinear footprint, the
//!   component dmask's lowest bit names (after DST_SEL), returned in the spec's order
//!   i0j1, i1j1, i1j0, i0j0 (four VGPRs, two with D16).
//! - `image_get_lod`: x the clamped λ (relative to BASE_LEVEL), y λ before clamping.
//! - D16 returns f16 (rounded to nearest even) or the low 16 bits of integers, packed as
//!   loads pack them. A null T# returns 0.
//!
//! Refused as named Unsupported faults: anisotropic filtering (MAX_ANISO_RATIO > 0), the
//! min/max reduction modes, the HALF_BORDER wrap modes, REGISTER border colours where a
//! border mode is used, FORCE_DEGAMMA, LOD_BIAS_SEC, a T# with MIN_LOD, linear filtering or
//! depth compare of an integer format, and the `gather4h` forms and TFE/LWE (not marked
//! executed or refused by `program.rs`). The `_g16` forms take their derivatives as f16,
//! two per VGPR, each direction packed on its own (`mimg::grad_dwords`). TRUNC_COORD, the
//! PERF and aniso-bias fields are precision and performance hints with no effect here.

#[path = "samplecube.rs"]
mod cube;
#[path = "samplefast.rs"]
mod fast;

use super::buffer::pick;
use super::image::{refuse, COORDS};
use super::{unsupported, Ctx, FaultKind, Wave};
use crate::format::bc::Block;
use crate::format::{f32_to_f16, BufFormat, Num};
use crate::isa::decode::{mimg, Inst, Operand};
use crate::isa::table::Op;
use crate::rsrc::{
    border_color, depth_compare, filter_mode, img_type, mip_filter, s6_8_to_lod_bias, tex_clamp, tex_filter,
    u4_8_to_lod, ImageResource, LinearLevel, SamplerResource,
};

/// What an opcode's name says about its operands.
#[derive(Clone, Copy, Default)]
struct Form {
    offset: bool,
    bias: bool,
    compare: bool,
    grad: bool,
    lod: bool,
    lz: bool,
    clamp: bool,
    gather: bool,
    get_lod: bool,
    /// 16-bit derivatives (`_g16`).
    g16: bool,
}

fn form(op: Op) -> Form {
    let base = op.name().strip_prefix("image_").unwrap_or("");
    let mut f = Form { gather: base.starts_with("gather4"), get_lod: base == "get_lod", ..Form::default() };
    for p in base.split('_').skip(1) {
        match p {
            "o" => f.offset = true,
            "b" => f.bias = true,
            "c" => f.compare = true,
            "d" => f.grad = true,
            "l" => f.lod = true,
            "lz" => f.lz = true,
            "cl" => f.clamp = true,
            "g16" => f.g16 = true,
            _ => {}
        }
    }
    f
}

/// Whether `op` is one of the sampling instructions this file executes.
pub(super) fn executes(op: Op) -> bool {
    let n = op.name();
    n.starts_with("image_sample") || n.starts_with("image_gather4_") || n == "image_gather4" || n == "image_get_lod"
}

/// The VGPRs a form's derivatives take on `dim` (`mimg::grad_dwords`: with `_g16` two f16
/// per VGPR, low half first, each direction on its own).
fn grad_vgprs(fm: Form, dim: usize) -> usize {
    if fm.grad {
        mimg::grad_dwords(dim, fm.g16) as usize
    } else {
        0
    }
}

/// The address VGPRs `op` reads on `dim`, for the register checker (with `a16`, the
/// coordinates and LOD or clamp take half a VGPR each: see `sample_operands`).
pub(super) fn addr_count(op: Op, dim: usize, a16: bool) -> usize {
    let f = form(op);
    let extra = [f.offset, f.bias, f.compare].iter().filter(|&&b| b).count();
    let coords = COORDS.get(dim).copied().unwrap_or(0) + (f.lod || f.clamp) as usize;
    extra + grad_vgprs(f, dim) + if a16 { coords.div_ceil(2) } else { coords }
}

/// An f16's bits as the f32 bits of the same value.
fn f16_bits_to_f32_bits(h: u32) -> u32 {
    crate::format::f16_to_f32(h as u16).to_bits()
}

/// The filtered axes of a T# type: 1D 1, 3D 3, the others 2.
fn axes(kind: u32) -> usize {
    match kind {
        img_type::IMG_1D | img_type::IMG_1D_ARRAY => 1,
        img_type::IMG_3D => 3,
        _ => 2,
    }
}

/// Everything one lane's sampling needs that is the same for every lane.
struct Env {
    t: ImageResource,
    s: SamplerResource,
    f: BufFormat,
    unnorm: bool,
    /// The view's levels − 1.
    q: u32,
    border: [u32; 4],
    cmp: bool,
    /// Each level's layout and extent, computed once per instruction rather than per tap
    /// (`None` where the linear layout does not cover the level).
    levels: [Option<(LinearLevel, [u32; 3])>; 16],
    /// A BCn format: texels are decoded from their blocks (`f` is the decoded texel's).
    block: Option<Block>,
}

/// Why softnavi does not execute this S# with this format and form, if it does not.
fn refuse_sampler(name: &str, s: &SamplerResource, t: &ImageResource, f: &BufFormat, form: Form) -> Option<String> {
    let int = !f.is_float();
    let linear =
        s.xy_mag_filter & 1 != 0 || s.xy_min_filter & 1 != 0 || s.mip_filter == mip_filter::LINEAR || s.z_filter == 2;
    let uses_border = s.clamp.iter().any(|&c| matches!(c, tex_clamp::CLAMP_BORDER | tex_clamp::MIRROR_ONCE_BORDER));
    let why = match () {
        _ if s.max_aniso_ratio != 0 => "anisotropic filtering (MAX_ANISO_RATIO > 0)",
        _ if s.filter_mode != filter_mode::BLEND => "a min/max reduction FILTER_MODE",
        _ if s.clamp.iter().any(|c| matches!(c, 4 | 5)) => "a HALF_BORDER wrap mode",
        _ if uses_border && s.border_color_type == border_color::REGISTER => {
            "a REGISTER (custom) border colour: softnavi has no border colour table"
        }
        _ if s.force_degamma => "FORCE_DEGAMMA",
        _ if s.lod_bias_sec != 0 => "LOD_BIAS_SEC",
        _ if s.mip_filter == 3 || s.z_filter == 3 => "MIP_FILTER or Z_FILTER 3",
        _ if t.min_lod != 0 => "a T# MIN_LOD",
        _ if int && linear => "linear filtering of an integer format",
        _ if int && form.compare => "depth compare on an integer format",
        _ if t.base_level > t.last_level.min(t.max_mip) => {
            "a view without levels (BASE_LEVEL past LAST_LEVEL or MAX_MIP)"
        }
        _ => return None,
    };
    Some(format!("{name}: the S# or T# asks for {why}, which softnavi does not execute"))
}

/// The integer texel coordinate `i` on an axis of `size` texels under wrap mode `mode`:
/// `None` for a border texel (the spec's table, "Wrapping Operations").
fn wrap(mode: u32, i: i64, size: i64) -> Option<i64> {
    let mirror = |a: i64| if a >= 0 { a } else { -(1 + a) };
    match mode {
        tex_clamp::WRAP => Some(i.rem_euclid(size)),
        tex_clamp::MIRROR => Some((size - 1) - mirror(i.rem_euclid(2 * size) - size)),
        tex_clamp::CLAMP_LAST_TEXEL => Some(i.clamp(0, size - 1)),
        tex_clamp::MIRROR_ONCE_LAST_TEXEL => Some(mirror(i).clamp(0, size - 1)),
        tex_clamp::MIRROR_ONCE_BORDER => Some(mirror(i)).filter(|&m| m < size),
        _ => Some(i).filter(|&i| (0..size).contains(&i)),
    }
}

/// [`Env::filter`] for two LINEAR axes at texel-space position `p`, written out: the
/// same taps in the same order (i0j0, i1j0, i0j1, i1j1), the same f32 weights
/// `(1 · wx) · wy`, taps of weight 0 not read. `tap` reads the texel at integer
/// coordinates (wrapping them itself).
fn bilinear<E>(p: [f32; 2], mut tap: impl FnMut(i64, i64) -> Result<[f32; 4], E>) -> Result<[f32; 4], E> {
    let axis = |a: usize| {
        let u = p[a] - 0.5;
        let i0 = u.floor();
        (i0 as i64, u - i0)
    };
    let ((x0, ax), (y0, ay)) = (axis(0), axis(1));
    let wx = [1.0 - ax, ax];
    let wy = [1.0 - ay, ay];
    let mut acc = [0f32; 4];
    for corner in 0..4 {
        let (hx, hy) = (corner & 1, corner >> 1);
        let w = wx[hx] * wy[hy];
        if w == 0.0 {
            continue;
        }
        let v = tap(x0 + hx as i64, y0 + hy as i64)?;
        for k in 0..4 {
            acc[k] += w * v[k];
        }
    }
    Ok(acc)
}

/// `reference OP texel` for DEPTH_COMPARE_FUNC `func`.
fn compare(func: u32, r: f32, d: f32) -> bool {
    match func {
        depth_compare::NEVER => false,
        depth_compare::LESS => r < d,
        depth_compare::EQUAL => r == d,
        depth_compare::LESS_EQUAL => r <= d,
        depth_compare::GREATER => r > d,
        depth_compare::NOT_EQUAL => r != d,
        depth_compare::GREATER_EQUAL => r >= d,
        _ => true,
    }
}

/// One lane's operands, read from its VGPRs.
#[derive(Clone, Copy, Default)]
struct Lane {
    offset: [i64; 3],
    bias: f32,
    reference: f32,
    coords: [f32; 3],
    /// The layer (arrays) or slice of the cube face (cubes), before clamping.
    layer: f32,
    lod: f32,
    clamp: f32,
}

impl Env {
    /// The texel at integer coordinates `c` of `level` and `slice` (absolute), or the border
    /// colour: converted, sRGB decoded, then DST_SEL.
    fn texel(&self, ctx: &mut Ctx, level: u32, c: [i64; 3], slice: u32) -> Result<[u32; 4], FaultKind> {
        let layout = self.levels.get(level as usize).copied().flatten();
        let ext = layout.map_or_else(|| self.t.level_extent(level), |(_, ext)| ext);
        let mut xyz = [0u32; 3];
        for a in 0..axes(self.t.kind) {
            let mode = if self.seamless() { tex_clamp::CLAMP_LAST_TEXEL } else { self.s.clamp[a] };
            match wrap(mode, c[a], ext[a] as i64) {
                Some(v) => xyz[a] = v as u32,
                None => return Ok(self.swizzle(self.border)),
            }
        }
        let slice = if self.t.kind == img_type::IMG_3D { xyz[2] } else { slice };
        if let Some(b) = self.block {
            return self.block_texel(ctx, b, level, xyz, slice);
        }
        let bpe = self.f.bytes as u32;
        let off = match layout {
            Some((l, _)) => {
                Some(slice as u64 * l.slice_pitch + l.offset + xyz[1] as u64 * l.row_pitch + xyz[0] as u64 * bpe as u64)
            }
            None => self.t.texel_offset(bpe, xyz[0], xyz[1], slice, level),
        };
        let Some(off) = off else { return Ok([0; 4]) };
        let mut buf = [0u8; 16];
        let p = ctx.tlb.translate(ctx.vm, self.t.base.wrapping_add(off), bpe as u64, false)?;
        // SAFETY: `translate` maps `bpe` (at most 16) bytes at `p`; a 4-byte texel is read
        // as one word (a variable-length copy is a call).
        unsafe {
            if bpe == 4 {
                buf[..4].copy_from_slice(&p.cast::<[u8; 4]>().read_unaligned());
            } else {
                std::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), bpe as usize);
            }
        }
        Ok(self.swizzle(super::imgfast::load_texel(&self.f, &buf)))
    }

    /// Texel `xyz` of a BCn image: its block (the layout's element) read and decoded.
    fn block_texel(
        &self,
        ctx: &mut Ctx,
        b: Block,
        level: u32,
        xyz: [u32; 3],
        slice: u32,
    ) -> Result<[u32; 4], FaultKind> {
        let Some(off) = self.t.texel_offset(b.bytes(), xyz[0], xyz[1], slice, level) else { return Ok([0; 4]) };
        let mut block = [0u8; 16];
        let p = ctx.tlb.translate(ctx.vm, self.t.base.wrapping_add(off), b.bytes() as u64, false)?;
        // SAFETY: `translate` maps the block's bytes (8 or 16) at `p`.
        unsafe { std::ptr::copy_nonoverlapping(p, block.as_mut_ptr(), b.bytes() as usize) };
        let v = b.texel(&block, (xyz[0] % 4) as usize, (xyz[1] % 4) as usize);
        Ok(self.swizzle(v.map(f32::to_bits)))
    }

    /// A texel's converted components (or the border colour's) as the shader sees them:
    /// the format's components only, then DST_SEL (the depth component for compares).
    fn swizzle(&self, mut comp: [u32; 4]) -> [u32; 4] {
        comp.iter_mut().skip(self.f.comps as usize).for_each(|c| *c = 0);
        if self.cmp {
            return [comp[0]; 4];
        }
        std::array::from_fn(|i| pick(self.t.dst_sel[i], &comp, self.f.one(false)))
    }

    /// The view's slice a lane's layer coordinate names (arrays and cubes; 0 otherwise).
    fn slice(&self, layer: f32) -> u32 {
        let layers = (self.t.depth + 1).saturating_sub(self.t.base_array).max(1);
        let clamp = |x: f32| (x.round_ties_even().max(0.0) as u32).min(layers - 1);
        let rel = match self.t.kind {
            img_type::IMG_1D_ARRAY | img_type::IMG_2D_ARRAY => clamp(layer),
            // `layer * 8 + face`; faces past 5 read as 5.
            img_type::CUBE => {
                let id = layer.round_ties_even().max(0.0) as u32;
                ((id / 8) * 6 + (id % 8).min(5)).min(layers - 1)
            }
            _ => return 0,
        };
        self.t.base_array + rel
    }

    /// The texel-space position of a lane's coordinates on `level` (offsets added).
    fn position(&self, l: &Lane, level: u32) -> [f32; 3] {
        let ext = self.t.level_extent(level);
        std::array::from_fn(|a| {
            let c = if self.t.kind == img_type::CUBE { l.coords[a] - 1.0 } else { l.coords[a] };
            let u = if self.unnorm { c } else { c * ext[a] as f32 };
            u + l.offset[a] as f32
        })
    }

    /// The filtered value of `level` (NEAREST, or LINEAR over 2, 4 or 8 taps).
    fn filter(&self, ctx: &mut Ctx, l: &Lane, level: u32, linear: bool) -> Result<[f32; 4], FaultKind> {
        let slice = self.slice(l.layer);
        let p = self.position(l, level);
        let n = axes(self.t.kind);
        let z_linear = if self.s.z_filter == mip_filter::NONE { linear } else { self.s.z_filter == mip_filter::LINEAR };
        let lin = |a: usize| if a == 2 { z_linear } else { linear };
        if n == 2 && linear {
            return bilinear([p[0], p[1]], |x, y| self.tap(ctx, l, level, [x, y, 0], slice));
        }
        let mut acc = [0f32; 4];
        for corner in 0..(1usize << n) {
            let mut c = [0i64; 3];
            let mut w = 1f32;
            for a in 0..n {
                if lin(a) {
                    let u = p[a] - 0.5;
                    let (i0, alpha) = (u.floor(), u - u.floor());
                    let hi = corner >> a & 1 != 0;
                    c[a] = i0 as i64 + hi as i64;
                    w *= if hi { alpha } else { 1.0 - alpha };
                } else if corner >> a & 1 != 0 {
                    w = 0.0;
                } else {
                    c[a] = p[a].floor() as i64;
                }
            }
            if w == 0.0 {
                continue;
            }
            // Not `tap`: a cube gets here only for NEAREST (its LINEAR taps went to
            // `bilinear`), which clamps to the face (`texel`), never a neighbour's texel.
            let v = self.tap_at(ctx, l, level, c, slice)?;
            for k in 0..4 {
                acc[k] += w * v[k];
            }
        }
        Ok(acc)
    }

    /// Whether cube taps cross faces (see the module's notes).
    fn seamless(&self) -> bool {
        self.t.kind == img_type::CUBE && !self.s.disable_cube_wrap
    }

    /// Where a LINEAR or gather tap at `c` of `slice` reads on a seamless cube.
    fn cube_tap(&self, level: u32, c: [i64; 3], slice: u32) -> cube::CubeTap {
        let face = (slice - self.t.base_array) % 6;
        let first = slice - face;
        let n = self.t.level_extent(level)[0] as i64;
        match cube::cube_tap(face, n, c[0], c[1]) {
            cube::CubeTap::Texel(f, i, j) => cube::CubeTap::Texel(first + f, i, j),
            cube::CubeTap::Corner(t) => cube::CubeTap::Corner(t.map(|(f, i, j)| (first + f, i, j))),
        }
    }

    /// One LINEAR tap as f32 values: the texel, or its depth comparison (1.0 or 0.0); on a
    /// seamless cube across the faces' edges, a corner the mean of its three taps.
    fn tap(&self, ctx: &mut Ctx, l: &Lane, level: u32, c: [i64; 3], slice: u32) -> Result<[f32; 4], FaultKind> {
        if !self.seamless() {
            return self.tap_at(ctx, l, level, c, slice);
        }
        match self.cube_tap(level, c, slice) {
            cube::CubeTap::Texel(s, i, j) => self.tap_at(ctx, l, level, [i, j, 0], s),
            cube::CubeTap::Corner(three) => self.corner_mean(ctx, l, level, three),
        }
    }

    /// A cube corner's value: the mean of its three taps.
    fn corner_mean(
        &self,
        ctx: &mut Ctx,
        l: &Lane,
        level: u32,
        three: [(u32, i64, i64); 3],
    ) -> Result<[f32; 4], FaultKind> {
        let mut acc = [0f32; 4];
        for (s, i, j) in three {
            let v = self.tap_at(ctx, l, level, [i, j, 0], s)?;
            acc.iter_mut().zip(v).for_each(|(a, v)| *a += v);
        }
        Ok(acc.map(|a| a / 3.0))
    }

    /// A gather tap's texel (the components as the shader sees them), seamless on cubes as
    /// [`Env::tap`] is; an integer corner is its own face's texel.
    fn gather_texel(
        &self,
        ctx: &mut Ctx,
        l: &Lane,
        level: u32,
        c: [i64; 3],
        slice: u32,
    ) -> Result<[u32; 4], FaultKind> {
        if !self.seamless() {
            return self.texel(ctx, level, c, slice);
        }
        match self.cube_tap(level, c, slice) {
            cube::CubeTap::Texel(s, i, j) => self.texel(ctx, level, [i, j, 0], s),
            cube::CubeTap::Corner([(s, i, j), ..]) if !self.f.is_float() => self.texel(ctx, level, [i, j, 0], s),
            cube::CubeTap::Corner(three) => Ok(self.corner_mean(ctx, l, level, three)?.map(f32::to_bits)),
        }
    }

    /// [`Env::tap`] of one texel, no cube edges crossed.
    fn tap_at(&self, ctx: &mut Ctx, l: &Lane, level: u32, c: [i64; 3], slice: u32) -> Result<[f32; 4], FaultKind> {
        let v = self.texel(ctx, level, c, slice)?.map(f32::from_bits);
        if !self.cmp {
            return Ok(v);
        }
        let r = if self.f.num == Num::Unorm { l.reference.clamp(0.0, 1.0) } else { l.reference };
        Ok([compare(self.s.depth_compare_func, r, v[0]) as u32 as f32; 4])
    }
}

impl Wave {
    /// The S# in the four SGPRs at `op` (4-aligned).
    fn ssharp(&self, op: &Operand) -> SamplerResource {
        let Operand::Sgpr(i) = *op else { return SamplerResource::default() };
        let i = (i & !3) as usize;
        SamplerResource::decode(std::array::from_fn(|k| self.sget(i + k)))
    }

    pub(super) fn sample(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let fm = form(inst.op);
        let name = inst.op.name();
        let dmask = (inst.imm & mimg::DMASK) as u32;
        let dim = (inst.imm >> mimg::DIM_SHIFT & 7) as usize;
        let d16 = inst.imm & mimg::D16 != 0;
        let n = if fm.gather { 4 } else { dmask.count_ones() as usize };
        let regs = if d16 { n.div_ceil(2) } else { n };
        let Operand::Vgpr(vdata) = inst.dst else { return Ok(()) };
        let t = self.tsharp(&inst.src[1]);
        let s = self.ssharp(&inst.src[2]);
        let exec = self.exec();
        if !self.vgprs_in_range(vdata, regs as u32) {
            return Ok(());
        }
        if t.is_null() {
            return self.write_result(&[[0; 4]; 64], dmask, (fm.gather, false), d16, vdata, exec);
        }
        if let Some(why) = refuse(inst, &t, dim as u32, false) {
            return Err(unsupported(why));
        }
        let block = Block::from_image(t.format);
        let Some(f) = BufFormat::from_image(t.format).or(block.map(|_| Block::texel_format())) else {
            return Err(unsupported(format!("{name}: bad format")));
        };
        if let Some(why) = refuse_sampler(name, &s, &t, &f, fm) {
            return Err(unsupported(why));
        }
        let f = if f.num == Num::Srgb && s.skip_degamma { BufFormat { num: Num::Unorm, ..f } } else { f };
        let one = if f.is_float() { 1f32.to_bits() } else { 1 };
        let border = match s.border_color_type {
            border_color::TRANS_BLACK => [0; 4],
            border_color::OPAQUE_BLACK => [0, 0, 0, one],
            _ => [one; 4],
        };
        let env = Env {
            t,
            s,
            f,
            unnorm: s.force_unnormalized || inst.imm & mimg::UNORM != 0,
            q: t.last_level.min(t.max_mip) - t.base_level,
            border,
            cmp: fm.compare,
            block,
            levels: std::array::from_fn(|m| {
                let m = m as u32;
                // Linear images only: swizzled ones go through `texel_offset` per texel.
                let linear = t.sw_mode == crate::rsrc::SW_LINEAR;
                let bpe = block.map_or(f.bytes as u32, |b| b.bytes());
                (m <= t.max_mip && linear).then(|| Some((t.linear_level(bpe, m)?, t.level_extent(m)))).flatten()
            }),
        };
        let lanes = self.sample_operands(inst, fm, dim);
        let mut out = [[0u32; 4]; 64];
        let fast = fast::Level::new(&env, fm, ctx);
        // The per-instruction path samples one level: it needs no derivatives.
        let grads = if fast.is_some() { Vec::new() } else { self.gradients(inst, fm, dim, &lanes) };
        for l in (0..self.lanes).filter(|&l| exec >> l & 1 != 0) {
            if let Some(fast) = &fast {
                out[l] = fast.sample(&env, &lanes[l]);
                continue;
            }
            let lambda = env.lambda(&lanes[l], fm, grads[l]);
            out[l] = if fm.get_lod {
                let clamped = (lambda.1.max(0.0)).min(env.q as f32);
                [clamped.to_bits(), lambda.0.to_bits(), 0, 0]
            } else if fm.gather {
                env.gather(ctx, &lanes[l], lambda.1, dmask)?
            } else {
                env.sample(ctx, &lanes[l], lambda.1)?
            };
        }
        let int = !f.is_float() && !fm.compare && !fm.get_lod;
        self.write_result(&out, dmask, (fm.gather, int), d16, vdata, exec)
    }

    /// Every lane's operands, in LLVM's order. With A16 the coordinates and the LOD or
    /// clamp are f16, two per VGPR, low half first (LLVM's `packImage16bitOpsToDwords`);
    /// the offset, bias (f16 in the low half) and reference keep a VGPR each, and so do
    /// 32-bit gradients.
    fn sample_operands(&self, inst: &Inst, fm: Form, dim: usize) -> Vec<Lane> {
        let a16 = inst.imm & mimg::A16 != 0;
        let mut k = 0;
        let mut next = |on: bool| -> Option<[u32; 64]> {
            on.then(|| {
                k += 1;
                self.mimg_addr(inst, k - 1)
            })
        };
        let offset = next(fm.offset);
        let bias = next(fm.bias).map(|v| if a16 { v.map(f16_bits_to_f32_bits) } else { v });
        let reference = next(fm.compare);
        for _ in 0..grad_vgprs(fm, dim) {
            next(true);
        }
        let n = COORDS[dim] + (fm.lod || fm.clamp) as usize;
        let packed: Vec<[u32; 64]> = if a16 {
            let dwords: Vec<[u32; 64]> = (0..n.div_ceil(2)).filter_map(|_| next(true)).collect();
            (0..n).map(|j| dwords[j / 2].map(|x| f16_bits_to_f32_bits(x >> (16 * (j % 2)) & 0xffff))).collect()
        } else {
            (0..n).filter_map(|_| next(true)).collect()
        };
        let coords = &packed[..COORDS[dim]];
        let last = packed.get(COORDS[dim]).copied();
        let layer_at = match dim {
            4 => Some(1),
            3 | 5 => Some(2),
            _ => None,
        };
        let f = |v: &[u32; 64], l: usize| f32::from_bits(v[l]);
        (0..self.lanes)
            .map(|l| {
                let o = offset.map_or(0, |v| v[l]);
                let sext = |b: u32| ((o >> b & 0x3f) as i8) << 2 >> 2;
                let mut c = [0f32; 3];
                for (a, v) in coords.iter().enumerate().filter(|(a, _)| Some(*a) != layer_at) {
                    c[a] = f(v, l);
                }
                let lastv = last.map_or(0.0, |v| f(&v, l));
                Lane {
                    offset: [sext(0) as i64, sext(8) as i64, sext(16) as i64],
                    bias: bias.map_or(0.0, |v| f(&v, l)),
                    reference: reference.map_or(0.0, |v| f(&v, l)),
                    coords: c,
                    layer: layer_at.map_or(0.0, |a| f(&coords[a], l)),
                    lod: if fm.lod { lastv } else { 0.0 },
                    clamp: if fm.clamp { lastv } else { f32::NEG_INFINITY },
                }
            })
            .collect()
    }

    /// Each lane's (d/dx, d/dy) of its coordinates: from the `_d` operands, or across its
    /// quad (see the module's notes).
    fn gradients(&self, inst: &Inst, fm: Form, dim: usize, lanes: &[Lane]) -> Vec<[[f32; 3]; 2]> {
        if fm.grad {
            let first = [fm.offset, fm.bias, fm.compare].iter().filter(|&&b| b).count();
            let half = mimg::GRADS[dim] as usize / 2;
            let per_dir = grad_vgprs(fm, dim) / 2;
            let g: Vec<[u32; 64]> = (0..2 * per_dir).map(|k| self.mimg_addr(inst, first + k)).collect();
            // Derivative `a` of direction `d` in lane `l`.
            let value = |d: usize, a: usize, l: usize| {
                if fm.g16 {
                    f32::from_bits(f16_bits_to_f32_bits(g[d * per_dir + a / 2][l] >> (16 * (a % 2)) & 0xffff))
                } else {
                    f32::from_bits(g[d * per_dir + a][l])
                }
            };
            return (0..self.lanes)
                .map(|l| std::array::from_fn(|d| std::array::from_fn(|a| if a < half { value(d, a, l) } else { 0.0 })))
                .collect();
        }
        (0..self.lanes)
            .map(|l| {
                let q = l & !3;
                let diff = |o: usize| std::array::from_fn(|a| lanes[q + o].coords[a] - lanes[q].coords[a]);
                [diff(1), diff(2)]
            })
            .collect()
    }
}

impl Env {
    /// (λ', λ): the LOD before and after the sampler's and `cl`'s clamps (not yet the
    /// view's levels).
    fn lambda(&self, l: &Lane, fm: Form, g: [[f32; 3]; 2]) -> (f32, f32) {
        if self.unnorm {
            return (0.0, 0.0);
        }
        let base = if fm.lod {
            l.lod
        } else if fm.lz {
            0.0
        } else {
            let ext = self.t.level_extent(self.t.base_level);
            let rho = |d: [f32; 3]| (0..3).map(|a| (d[a] * ext[a] as f32).powi(2)).sum::<f32>().sqrt();
            rho(g[0]).max(rho(g[1])).log2()
        };
        let raw = base + s6_8_to_lod_bias(self.s.lod_bias) + l.bias;
        let lo = u4_8_to_lod(self.s.min_lod).max(l.clamp);
        (raw, raw.max(lo).min(u4_8_to_lod(self.s.max_lod)))
    }

    fn sample(&self, ctx: &mut Ctx, l: &Lane, lambda: f32) -> Result<[u32; 4], FaultKind> {
        let xy = if lambda <= 0.0 { self.s.xy_mag_filter } else { self.s.xy_min_filter };
        let linear = xy == tex_filter::BILINEAR || xy == tex_filter::ANISO_BILINEAR;
        let d = lambda.max(0.0).min(self.q as f32);
        let base = self.t.base_level;
        let (lo, hi, delta) = match self.s.mip_filter {
            _ if self.unnorm => (base, base, 0.0),
            mip_filter::NONE => (base, base, 0.0),
            mip_filter::POINT => {
                let m = base + ((d + 0.5).ceil() - 1.0).max(0.0) as u32;
                (m, m, 0.0)
            }
            _ => (base + d.floor() as u32, (base + d.floor() as u32 + 1).min(base + self.q), d - d.floor()),
        };
        if !self.f.is_float() {
            // Integer formats sample one NEAREST texel (refuse_sampler saw to that).
            let p = self.position(l, lo);
            let c = p.map(|x| x.floor() as i64);
            return self.texel(ctx, lo, c, self.slice(l.layer));
        }
        let a = self.filter(ctx, l, lo, linear)?;
        let v = if delta > 0.0 {
            let b = self.filter(ctx, l, hi, linear)?;
            std::array::from_fn(|k| a[k] * (1.0 - delta) + b[k] * delta)
        } else {
            a
        };
        Ok(v.map(f32::to_bits))
    }

    fn gather(&self, ctx: &mut Ctx, l: &Lane, lambda: f32, dmask: u32) -> Result<[u32; 4], FaultKind> {
        let d = lambda.max(0.0).min(self.q as f32);
        let level = match self.s.mip_filter {
            mip_filter::NONE => self.t.base_level,
            _ if self.unnorm => self.t.base_level,
            _ => self.t.base_level + ((d + 0.5).ceil() - 1.0).max(0.0) as u32,
        };
        let p = self.position(l, level);
        let (i0, j0) = ((p[0] - 0.5).floor() as i64, (p[1] - 0.5).floor() as i64);
        let comp = dmask.trailing_zeros().min(3) as usize;
        let slice = self.slice(l.layer);
        let mut out = [0u32; 4];
        for (k, (di, dj)) in [(0, 1), (1, 1), (1, 0), (0, 0)].into_iter().enumerate() {
            let c = [i0 + di, j0 + dj, 0];
            out[k] = if self.cmp {
                self.tap(ctx, l, level, c, slice)?[0].to_bits()
            } else {
                self.gather_texel(ctx, l, level, c, slice)?[comp]
            };
        }
        Ok(out)
    }
}

impl Wave {
    /// The dmask'd components (gather4: all four) to consecutive VGPRs, D16 packed (as f16,
    /// or the low 16 bits of integer results).
    fn write_result(
        &mut self,
        out: &[[u32; 4]; 64],
        dmask: u32,
        (gather, int): (bool, bool),
        d16: bool,
        vdata: u16,
        exec: u64,
    ) -> Result<(), FaultKind> {
        let sel: Vec<usize> = if gather { (0..4).collect() } else { (0..4).filter(|i| dmask >> i & 1 != 0).collect() };
        let regs = if d16 { sel.len().div_ceil(2) } else { sel.len() };
        let odd = d16 && sel.len() % 2 == 1;
        let keep = odd.then(|| self.vsrc(&Operand::Vgpr(vdata.wrapping_add(regs as u16 - 1))));
        let mut v = [[0u32; 64]; 4];
        for l in 0..self.lanes {
            for (j, &i) in sel.iter().enumerate() {
                if d16 {
                    let h = if int { out[l][i] & 0xffff } else { f32_to_f16(f32::from_bits(out[l][i])) as u32 };
                    v[j / 2][l] |= h << (16 * (j % 2));
                } else {
                    v[j][l] = out[l][i];
                }
            }
            if let Some(old) = &keep {
                v[regs - 1][l] |= old[l] & 0xffff_0000;
            }
        }
        for (k, vals) in v.iter().enumerate().take(regs) {
            self.vdst(&Operand::Vgpr(vdata.wrapping_add(k as u16)), vals, exec);
        }
        Ok(())
    }
}
