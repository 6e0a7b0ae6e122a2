//! Image instructions (MIMG) on linear and swizzled images: `image_load`, `image_load_mip`,
//! `image_store`, `image_store_mip`, `image_get_resinfo` and the `image_atomic_*`
//! instructions, addressed through a T# ([`ImageResource`]).
//!
//! Per lane: the address components (x, then y, then z / the array slice / the cube face,
//! then the mip level of the `_mip` forms; in consecutive VGPRs or listed one by one with
//! NSA; two per VGPR with A16), the level (BASE_LEVEL plus the mip operand), the range check
//! against that level's size and the view's layers, the texel's address under the gfx11
//! layout of the T#'s SW_MODE ([`ImageResource::texel_offset`]: the linear layout, or
//! addrlib's swizzled one, [`crate::addr`]), then the same memory movement and
//! format conversion as the MUBUF format instructions (`crate::format::BufFormat`,
//! `buffer.rs`), or the same memory atomics as buffer and global atomics (`flat.rs`).
//!
//! Facts: the T# from AMD's gfx11 definitions and Mesa (see [`ImageResource`]); the
//! address operands from LLVM's AMDGPU MIMG definitions (`mimg_addr_dwords` in the
//! decoder); the atomics' operations from the RDNA3 ISA guide (MIMG instructions), their
//! widths from LLVM's `lowerImage` ([`mimg::atomic_wide`]). Decisions where those sources
//! are silent (each has a test in `tests/exec_image.rs` or `tests/exec_image_atomic.rs`):
//! - Out of range (a coordinate at or past the level's size, an array slice past the
//!   view's last layer DEPTH, a level past LAST_LEVEL or MAX_MIP): loads return 0 in every
//!   dmask'd component (also where DST_SEL is `SQ_SEL_1`), stores do nothing, atomics
//!   change nothing and return 0 with GLC. Coordinates are unsigned: a negative one is out
//!   of range.
//! - The array slice operand counts from the view's first layer (BASE_ARRAY); DEPTH is
//!   the view's last layer (absolute), as Mesa writes it ("Depth is the last accessible
//!   layer on gfx9+"). A cube is a 2D array of six layers per cube: the face operand is the
//!   layer; CUBE and 2D_ARRAY instructions and T#s are interchangeable.
//! - The instruction's DIM must name the T#'s TYPE (CUBE and 2D_ARRAY aside, and the 2D
//!   DIM on a 1D T#, a row one texel high, on a 1D_ARRAY T#, (x, layer) as its own DIM,
//!   or on a 2D array T#, its layer BASE_ARRAY, which RADV's compute copies use): another
//!   pairing is an Unsupported fault naming both. So is a T# whose TYPE is not an image
//!   type (0..7), a swizzle mode `crate::addr` does not address for the
//!   T#'s type and texel size (named: reserved numbers, modes gfx11 addrlib has no colour
//!   surface in, a base address not aligned to the block, which would hold a pipe/bank
//!   XOR), a format past 71 (the
//!   formats softnavi converts are the 63 it shares with buffers and the image-only
//!   8_SRGB, 8_8_SRGB, 8_8_8_8_SRGB, 5_9_9_9_FLOAT and the 16-bit packed UNORM formats
//!   5_6_5, 1_5_5_5, 5_5_5_1 and 4_4_4_4, `BufFormat::from_image`; stores to
//!   the sRGB ones are refused too) or INVALID, and a texel
//!   size the linear rule does not cover (a 12-byte texel in a swizzled mode neither). The all-zero T# is a null image (RADV writes it
//!   for a null descriptor): loads and `image_get_resinfo` return 0, stores and atomics do
//!   nothing (atomics return 0 with GLC).
//! - Loads: the format's components (those it lacks read as 0), DST_SEL applied as for
//!   MUBUF format loads (`SQ_SEL_1`: 1.0, or 1 for UINT/SINT), then the components dmask
//!   names go to consecutive VGPRs, X first. Stores: the VGPRs hold the dmask'd components
//!   in order (the others are 0), data component `i` goes to memory component
//!   `DST_SEL[i]` (`buffer::store_sel`, the inverse of the load's select), and the
//!   format's components are written (converted as MUBUF format stores
//!   convert). D16 packs two components per VGPR, low half first; a load of an odd count
//!   keeps the high half of its last VGPR.
//! - Atomics act on the raw texel, DST_SEL and the numeric format aside: 32-bit (dmask
//!   0x1, cmpswap 0x3) on 32_UINT, 32_SINT and 32_FLOAT T#s, 64-bit (dmask 0x3, cmpswap
//!   0xf) on 32_32_UINT and 32_32_SINT ones (a 64-bit texel is two 32-bit components;
//!   gfx11 has no 64-bit-component format); another format is an Unsupported fault naming
//!   it. VDATA holds the data, then (cmpswap) the compare value; with GLC the value memory
//!   held before returns to VDATA's first one (64-bit: two) registers. Lanes go in lane
//!   order, each read-modify-write indivisible against other waves (the host's atomics).
//! - A16: each address component is the unsigned 16-bit half of its VGPR (component `k`
//!   in VGPR `k / 2`, low half first), also for the mip level and `image_get_resinfo`'s.
//! - TFE and LWE on loads and `image_get_resinfo`: one status VGPR follows the data.
//!   LLVM (D48826, `SIAddIMGInit`) and ACO (`emit_tfe_init`) zero it (and the data) before
//!   the instruction because the hardware writes it only when a fetch fails (a texel not
//!   resident, an LOD warning). softnavi's fetches fail where the texel lies in PRT pages
//!   (a sparse image's unbound part, `AddressSpace::map_prt`): the status takes 1 there
//!   (`Wave::tfe_status`; Vulkan's residency code); elsewhere, and for block-compressed
//!   and MSAA loads, it is left as it was (0, as compiled code initialises it), and the
//!   data is written as without TFE. It counts among the returned registers.
//!   TFE and LWE on stores and atomics are not executed (no source says what they do).
//! - `image_get_resinfo` (the mip operand counts from BASE_LEVEL; D3D's `resinfo`
//!   semantics, which the ISA guide's "width, height, depth, mip levels" follows): x the
//!   level's width; y its height (1D: 0; 1D array: the view's layers); z the level's depth
//!   (3D), the view's layers (2D array, cube: in 2D layers, as ACO divides by 6 for cube
//!   arrays) or 0; w the view's levels (LAST_LEVEL − BASE_LEVEL + 1). Past LAST_LEVEL x, y
//!   (but a 1D array's layers) and z are 0. Integers, dmask'd, no DST_SEL.
//! - UNORM and the cache bits have no effect on loads, stores and atomics (but GLC's
//!   return).
//! - MSAA (dims 2D_MSAA and 2D_MSAA_ARRAY, on T#s of those types): the sample index is the
//!   last address component (after the layer), as LLVM's `AMDGPUDim2DMsaa` /
//!   `AMDGPUDim2DArrayMsaa` name them (`fragid`); the sample count is 2^LAST_LEVEL (Mesa's
//!   gfx11 T#: LAST_LEVEL and MAX_MIP hold log2(samples), BASE_LEVEL 0). The texel lies where
//!   addrlib's MSAA patterns put it ([`crate::addr`]). The 2D_MSAA dim also reads a
//!   2D_MSAA_ARRAY T#, at layer BASE_ARRAY: RADV types a view by its image's layers
//!   (`radv_tex_dim`: a 2D view of a layered MSAA image is an array T# with BASE_ARRAY at the
//!   layer) and ACO takes the dim from the shader. A sample index at or past the count
//!   is out of range like any other coordinate (loads 0, stores and atomics dropped): AMD
//!   documents nothing about it, and this is what Vulkan's robust image access asks of an
//!   invalid sample (RADV, which reports `robustImageAccess` on gfx11, adds no check of its
//!   own). `image_get_resinfo` on an MSAA T#: x, y the size, z the view's layers (array) or
//!   0; lanes whose mip operand is not 0 get 0 (there is one level); the level count (dmask
//!   bit 3) is not executed, as LAST_LEVEL holds log2(samples) there and no source says
//!   what the hardware returns (ACO and RADV read the T# instead, `ac_nir_lower_resinfo`).
//! - `image_msaa_load` (RDNA3 ISA guide: "Load up to 4 samples of 1 component from an MSAA
//!   resource with a user-specified fragment ID"): dmask names one component; its four
//!   returned registers (two with D16) hold that component of samples FRAGID + 0..3, as
//!   LLVM's `AMDGPUImageIntrinsicOptimizer` uses it (it makes one of four `image_load`s of
//!   samples 4k..4k+3 and takes register i for sample 4k + i). Samples past the count read
//!   0. Not executed, by name: a dmask of more or fewer than one component, a FRAGID that
//!   is not a multiple of 4 (which samples come back then is not written down), and a T#
//!   whose DST_SEL for the component is not that component itself: gfx11.0 MSAA loads do
//!   not honour DST_SEL (LLVM's `FeatureMSAALoadDstSelBug`, which keeps LLVM from emitting
//!   `image_msaa_load` for gfx1100), and how they fail is not written down.
//! - Not executed (the decoded-but-not-executed exception, `program.rs`): R128 (a 128-bit
//!   T#; what the missing dwords 4..7 mean is not written down), the MSAA dims on the `_mip`
//!   forms (LLVM has none), dmask 0, an atomic dmask other than LLVM's,
//!   and the packed loads and stores (`image_load_pck`, `_pck_sgn`, `_mip_pck`,
//!   `_mip_pck_sgn`, `image_store_pck`, `_mip_pck`): the ISA guide says only "without
//!   format conversion; 8- and 16-bit elements are (not) sign-extended", which does not say
//!   whether an element is a component or the texel, nor how elements lie in the VGPRs, and
//!   no compiler emits them.

use super::buffer::pick;
use super::flat::AtomicArgs;
use super::imgfast::{remember, Accepted};
use super::vmem::atomic_op;
use super::{unsupported, Ctx, FaultKind, Wave};
use crate::format::bc::Block;
use crate::format::BufFormat;
use crate::isa::decode::{mflag, mimg, Inst, Operand};
use crate::isa::table::Op;
use crate::mem::atomic::AtomicOp;
use crate::rsrc::{img_type, ImageResource};

/// Coordinate VGPRs per DIM (1D, 2D, 3D, CUBE, 1D_ARRAY, 2D_ARRAY, 2D_MSAA,
/// 2D_MSAA_ARRAY): the MSAA ones end with the sample index.
pub(crate) const COORDS: [usize; 8] = [1, 2, 3, 3, 2, 3, 3, 4];

/// The T# type a DIM addresses; CUBE and 2D_ARRAY share one.
fn dim_type(dim: u32) -> u32 {
    match dim {
        3 => img_type::IMG_2D_ARRAY,
        d => img_type::IMG_1D + d,
    }
}

/// The T# type its own DIM addresses (a CUBE T# is a 2D array).
fn own_dim(t: &ImageResource) -> u32 {
    if t.kind == img_type::CUBE {
        img_type::IMG_2D_ARRAY
    } else {
        t.kind
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
    let kind = own_dim(t);
    if !(img_type::IMG_1D..=img_type::IMG_2D_MSAA_ARRAY).contains(&t.kind) {
        return Some(format!(
            "{name}: the T# has TYPE {} ({}); image instructions take the types 1D .. 2D_MSAA_ARRAY (8..15)",
            t.kind,
            type_name(t.kind)
        ));
    }
    // RADV gives a 2D view of a layered MSAA image the array type with BASE_ARRAY at the
    // layer (`radv_tex_dim` types views by the image's layers) while ACO takes the dim from
    // the shader: the 2D_MSAA dim on a 2D_MSAA_ARRAY T# reads layer BASE_ARRAY.
    let msaa_2d_on_array = dim == 6 && t.kind == img_type::IMG_2D_MSAA_ARRAY;
    // gfx9+ lays 1D images out as 2D ones of one row, and RADV's compute copies
    // (radv_meta_buffer_to_image_cs and back) use the 2D dim on 1D images (y must then be
    // 0), on 1D arrays (the second coordinate is the layer, as with the 1D_ARRAY dim) and
    // on 2D arrays (RADV's view of one layer: the layer is BASE_ARRAY).
    let two_d_on_1d = dim == 1 && matches!(kind, img_type::IMG_1D | img_type::IMG_1D_ARRAY | img_type::IMG_2D_ARRAY);
    if kind != dim_type(dim) && !msaa_2d_on_array && !two_d_on_1d {
        return Some(format!(
            "{name}: dim:SQ_RSRC_IMG_{} on a T# of TYPE {} ({}) is not executed by softnavi",
            mimg::DIMS[dim as usize],
            t.kind,
            type_name(t.kind)
        ));
    }
    if resinfo {
        let dmask = (inst.imm & mimg::DMASK) as u32;
        return (t.is_msaa() && dmask & 8 != 0).then(|| {
            format!("{name}: the level count (dmask bit 3) of an MSAA T# is not executed: its LAST_LEVEL holds log2(samples), and no source says what the hardware returns")
        });
    }
    if inst.op == Op::IMAGE_MSAA_LOAD {
        if let Some(why) = refuse_msaa_load(inst, t) {
            return Some(why);
        }
    }
    let block = Block::from_image(t.format);
    let Some(f) = BufFormat::from_image(t.format).or(block.map(|b| b.decoded())) else {
        return Some(format!(
            "{name}: the T# has image format {}; softnavi converts the formats 1..63 (those buffers share), 64..71 (8_SRGB, 8_8_SRGB, 8_8_8_8_SRGB, 5_9_9_9_FLOAT, 5_6_5, 1_5_5_5, 5_5_5_1, 4_4_4_4 UNORM) and 109..122 (BC1..BC7)",
            t.format
        ));
    };
    let read = matches!(inst.op, Op::IMAGE_LOAD | Op::IMAGE_LOAD_MIP) || super::sample::executes(inst.op);
    if block.is_some() && !read {
        return Some(format!(
            "{name}: the T# has the block-compressed format {}, which only loads and samplers read",
            t.format
        ));
    }
    // The shared-exponent and 16-bit packed UNORM formats (67..71) are stored as RDNA3
    // stores them (RADV offers them as storage images); the sRGB ones are not.
    if (64..=66).contains(&t.format) && matches!(inst.op, Op::IMAGE_STORE | Op::IMAGE_STORE_MIP) {
        return Some(format!("{name}: softnavi does not store to the sRGB image format {}", t.format));
    }
    if let Some(why) = t.layout_unsupported(f.bytes as u32) {
        return Some(format!("{name}: {why}"));
    }
    None
}

/// Why `image_msaa_load` is not executed on T# `t`, if it is not (see the module's notes).
fn refuse_msaa_load(inst: &Inst, t: &ImageResource) -> Option<String> {
    let dmask = (inst.imm & mimg::DMASK) as u32;
    if dmask.count_ones() != 1 {
        return Some(format!("image_msaa_load with dmask {dmask:#x}: it returns one component of four samples; softnavi executes a dmask of one component"));
    }
    let c = dmask.trailing_zeros() as usize;
    // SQ_SEL_X + c: the component itself.
    (t.dst_sel[c] != 4 + c as u32).then(|| {
        format!(
            "image_msaa_load of component {c} on a T# whose DST_SEL for it is {}: gfx11.0 MSAA loads do not honour DST_SEL (LLVM's FeatureMSAALoadDstSelBug) and how they fail is not written down",
            t.dst_sel[c]
        )
    })
}

/// The T# words `raw` accepted for image load or store `inst` as [`Wave::mimg`] accepts
/// them: not null, not refused, a format it converts, not MSAA (the fast path addresses one
/// sample per texel).
pub(super) fn accept(inst: &Inst, raw: [u32; 8]) -> Option<Accepted> {
    let t = ImageResource::decode(raw);
    let dim = (inst.imm >> mimg::DIM_SHIFT & 7) as u32;
    if t.is_null() || t.is_msaa() || refuse(inst, &t, dim, false).is_some() {
        return None;
    }
    // The fast paths address by the T#'s type: the 2D dim on a 1D or array T# (see
    // `refuse`) takes the general one.
    if own_dim(&t) != dim_type(dim) {
        return None;
    }
    Some(Accepted::new(&t, BufFormat::from_image(t.format)?))
}

/// What a MIMG opcode softnavi executes does.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Load,
    /// `image_msaa_load`: one component of four samples.
    MsaaLoad,
    Store,
    Resinfo,
    /// 64-bit (`wide`) or 32-bit, from dmask.
    Atomic {
        wide: bool,
    },
}

fn kind(inst: &Inst) -> Kind {
    let dmask = (inst.imm & mimg::DMASK) as u32;
    match inst.op {
        Op::IMAGE_LOAD | Op::IMAGE_LOAD_MIP => Kind::Load,
        Op::IMAGE_MSAA_LOAD => Kind::MsaaLoad,
        Op::IMAGE_STORE | Op::IMAGE_STORE_MIP => Kind::Store,
        Op::IMAGE_GET_RESINFO => Kind::Resinfo,
        // program.rs keeps the other dmasks from executing.
        op => Kind::Atomic { wide: mimg::atomic_wide(op == Op::IMAGE_ATOMIC_CMPSWAP, dmask).unwrap_or(false) },
    }
}

/// Why an atomic of this width cannot use T# format `format`, if it cannot: 32-bit image
/// atomics act on 32_UINT, 32_SINT or 32_FLOAT texels (RADV's atomic formats R32_UINT,
/// R32_SINT, R32_SFLOAT), 64-bit ones on 32_32_UINT or 32_32_SINT (gfx11 has no
/// 64-bit-component format; LLVM gives 64-bit atomics two components, dmask 0x3).
fn atomic_format(name: &str, wide: bool, format: u32) -> Option<String> {
    let (ok, want) = if wide {
        (matches!(format, 48 | 49), "32_32_UINT or 32_32_SINT (48, 49)")
    } else {
        (matches!(format, 20..=22), "32_UINT, 32_SINT or 32_FLOAT (20..22)")
    };
    (!ok).then(|| {
        format!(
            "{name}: {}-bit image atomics act on T#s of format {want}; this T# has format {format}",
            if wide { 64 } else { 32 }
        )
    })
}

/// The byte offset from the T#'s base of the texel at coordinates `c` (x, then y or the
/// 1D array's slice, then z or the slice, then the sample of MSAA T#s) of level
/// BASE_LEVEL + `mip`, `None` when that is out of range (see the module's notes).
fn texel_offset(t: &ImageResource, elem: u32, c: [u32; 4], mip: u32, dim: u32) -> Option<u64> {
    let level = t.base_level as u64 + mip as u64;
    if level > t.last_level.min(t.max_mip) as u64 {
        return None;
    }
    let level = level as u32;
    let [w, h, d] = t.level_extent(level);
    let layer = |k: usize| t.base_array as u64 + c[k] as u64;
    if t.is_msaa() {
        // The 2D_MSAA dim on an array T#: layer BASE_ARRAY (see `refuse`).
        let (slice, sample) = match (t.kind == img_type::IMG_2D_MSAA_ARRAY, dim == 7) {
            (true, true) => (layer(2), c[3]),
            (true, false) => (t.base_array as u64, c[2]),
            (false, _) => (0, c[2]),
        };
        let array = t.kind == img_type::IMG_2D_MSAA_ARRAY;
        let inside = c[0] < w && c[1] < h && sample < 1 << t.samples_log2() && (!array || slice <= t.depth as u64);
        return inside.then(|| t.sample_offset(elem, c[0], c[1], slice as u32, level, sample)).flatten();
    }
    let (x, y, slice, inside) = match t.kind {
        // The 2D dim on a 1D T# (see `refuse`): one row.
        img_type::IMG_1D => (c[0], 0, 0, c[0] < w && (dim != 1 || c[1] == 0)),
        img_type::IMG_2D => (c[0], c[1], 0, c[0] < w && c[1] < h),
        img_type::IMG_3D => (c[0], c[1], c[2] as u64, c[0] < w && c[1] < h && c[2] < d),
        // The 2D dim's second coordinate is the layer too (see `refuse`).
        img_type::IMG_1D_ARRAY => (c[0], 0, layer(1), c[0] < w && layer(1) <= t.depth as u64),
        _ if dim == 1 => (c[0], c[1], t.base_array as u64, c[0] < w && c[1] < h),
        _ => (c[0], c[1], layer(2), c[0] < w && c[1] < h && layer(2) <= t.depth as u64),
    };
    // refuse() checked that the layout covers this T# (it does for every level when it
    // does for one).
    inside.then(|| t.texel_offset(elem, x, y, slice as u32, level)).flatten()
}

/// The VGPR of address operand `k` (see [`Wave::mimg_addr`]), `None` without a VGPR VADDR.
/// gfx11 has one NSA dword: its four bytes are addresses 1 to 4, and the last of them
/// starts a run of consecutive VGPRs holding the rest (partial NSA: `image_sample_d` on 2D
/// has six addresses, `[v10, v20, v30, v40, v[50:51]]`).
pub(crate) fn mimg_addr_reg(inst: &Inst, k: usize) -> Option<u16> {
    let Operand::Vgpr(v) = inst.src[0] else { return None };
    Some(match (inst.imm & mimg::NSA != 0, k) {
        (false, _) => v.wrapping_add(k as u16),
        (true, 0) => v,
        (true, _) => {
            let byte = (k - 1).min(3);
            ((inst.ext >> (8 * byte) & 0xff) as u16).wrapping_add((k - 1 - byte) as u16)
        }
    })
}

impl Wave {
    /// The T# in the eight SGPRs starting at `op` (4-aligned: the low bits are ignored).
    pub(super) fn tsharp(&self, op: &Operand) -> ImageResource {
        self.tsharp_raw(op).map_or_else(ImageResource::default, ImageResource::decode)
    }

    /// The words of [`Self::tsharp`], `None` when `op` is not an SGPR.
    pub(super) fn tsharp_raw(&self, op: &Operand) -> Option<[u32; 8]> {
        let Operand::Sgpr(i) = *op else { return None };
        let i = (i & !3) as usize;
        Some(std::array::from_fn(|k| self.sget(i + k)))
    }

    /// The VGPR of address operand `k`: consecutive from VADDR, or with NSA VADDR and then
    /// the NSA dword's bytes.
    pub(super) fn mimg_addr(&self, inst: &Inst, k: usize) -> [u32; 64] {
        match mimg_addr_reg(inst, k) {
            Some(r) => self.vmem_src(&Operand::Vgpr(r)),
            None => [0; 64],
        }
    }

    /// Address component `k` (x, y, slice, mip in order). With A16 two components share an
    /// address VGPR, the first in bits 15:0 (RDNA3 ISA guide, "A16"); they are unsigned.
    pub(super) fn mimg_coord(&self, inst: &Inst, k: usize) -> [u32; 64] {
        if inst.imm & mimg::A16 == 0 {
            return self.mimg_addr(inst, k);
        }
        self.mimg_addr(inst, k / 2).map(|x| x >> (16 * (k % 2)) & 0xffff)
    }

    pub(super) fn mimg(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let kind = kind(inst);
        if matches!(kind, Kind::Load | Kind::Store) && self.image_fast_recalled(inst, ctx, kind == Kind::Store) {
            return Ok(());
        }
        let dmask = (inst.imm & mimg::DMASK) as u32;
        let dim = (inst.imm >> mimg::DIM_SHIFT & 7) as u32;
        let d16 = inst.imm & mimg::D16 != 0;
        let n = if kind == Kind::MsaaLoad { 4 } else { dmask.count_ones() as usize };
        let regs = if d16 { n.div_ceil(2) } else { n };
        let vdata = match inst.dst {
            Operand::Vgpr(r) => r,
            _ => 0,
        };
        let t = self.tsharp(&inst.src[1]);
        let null = t.is_null();
        if !null {
            if let Some(why) = refuse(inst, &t, dim, kind == Kind::Resinfo) {
                return Err(unsupported(why));
            }
            if let Kind::Atomic { wide } = kind {
                if let Some(why) = atomic_format(inst.op.name(), wide, t.format) {
                    return Err(unsupported(why));
                }
            }
        }
        // RDNA3-NOTES, "VGPR out-of-range behaviour": returned registers outside the
        // allocation (the TFE status register counted) issue the instruction with EXEC = 0.
        let tfe = (inst.flags & mflag::TFE != 0) as u32;
        if matches!(kind, Kind::Load | Kind::MsaaLoad | Kind::Resinfo) && !self.vgprs_in_range(vdata, regs as u32 + tfe)
        {
            return Ok(());
        }
        let exec = self.exec();
        if kind == Kind::Resinfo {
            let mip_v = self.mimg_coord(inst, 0);
            return self.resinfo(&t, null, &mip_v, dmask, vdata, exec);
        }
        if let (false, Some(b)) = (null, Block::from_image(t.format)) {
            // `refuse` let only loads through.
            return self.image_load_block(inst, ctx, &t, b, dim, exec);
        }
        let fmt = if null { None } else { BufFormat::from_image(t.format) };
        if kind == Kind::MsaaLoad {
            return self.msaa_load(inst, ctx, &t, fmt, dim, exec);
        }
        // The fast paths address by the T#'s type: another DIM (`refuse`'s exceptions)
        // takes the general path.
        let fast = !t.is_msaa() && own_dim(&t) == dim_type(dim) && tfe == 0;
        if let (Some(f), Kind::Load | Kind::Store, Some(raw), true) = (fmt, kind, self.tsharp_raw(&inst.src[1]), fast) {
            // Accepted: the checks above passed for this T#, opcode and DIM.
            let a = Accepted::new(&t, f);
            remember(inst, raw, a);
            if self.image_fast(inst, ctx, &a, kind == Kind::Store) {
                return Ok(());
            }
        }
        let (addr, ok) = self.texel_addrs(inst, &t, fmt, dim, 0);
        let elem = fmt.map_or(4, |f| f.bytes as u32);
        let npieces = elem.div_ceil(4) as usize;
        let mut bytes = [[0u8; 16]; 64];
        match kind {
            Kind::Atomic { wide } => self.image_atomic(inst, ctx, wide, &addr, &ok, exec),
            Kind::Store => {
                let Some(f) = fmt else { return Ok(()) };
                self.image_store_bytes(inst, &t, f, &ok, &mut bytes);
                self.buffer_move(ctx, &addr, &ok, &mut bytes, npieces, elem, true)
            }
            _ => {
                self.buffer_move(ctx, &addr, &ok, &mut bytes, npieces, elem, false)?;
                self.image_load_writeback(inst, &t, fmt, &ok, &bytes, exec);
                if tfe != 0 {
                    self.tfe_status(ctx, vdata.wrapping_add(regs as u16), |l| (ok[l] != 0).then_some(addr[l][0]));
                }
                Ok(())
            }
        }
    }

    /// `image_load(_mip)` of a BCn T#: each lane's block, read as the layout's element, then
    /// the lane's texel of it decoded (`crate::format::bc`), converted as a 32_32_32_32_FLOAT
    /// texel is (DST_SEL, dmask, D16).
    fn image_load_block(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        t: &ImageResource,
        b: Block,
        dim: u32,
        exec: u64,
    ) -> Result<(), FaultKind> {
        let (addr, ok) = self.texel_addrs(inst, t, Some(b.decoded()), dim, 0);
        let mut bytes = [[0u8; 16]; 64];
        self.buffer_move(ctx, &addr, &ok, &mut bytes, b.bytes().div_ceil(4) as usize, b.bytes(), false)?;
        let (xs, ys) = (self.mimg_coord(inst, 0), self.mimg_coord(inst, 1));
        let one_row = matches!(t.kind, img_type::IMG_1D | img_type::IMG_1D_ARRAY);
        for l in (0..self.lanes).filter(|&l| ok[l] != 0) {
            let y = if one_row { 0 } else { ys[l] };
            let v = b.texel(&bytes[l], (xs[l] % 4) as usize, (y % 4) as usize);
            for (k, c) in v.iter().enumerate() {
                bytes[l][4 * k..4 * k + 4].copy_from_slice(&c.to_le_bytes());
            }
        }
        self.image_load_writeback(inst, t, Some(Block::texel_format()), &ok, &bytes, exec);
        Ok(())
    }

    /// Per lane: the level (BASE_LEVEL plus the mip operand), the range check against that
    /// level's size and the view's layers, and the texel's address (its dwords, `ok` bits
    /// set for lanes in range). Lanes of a null T# (`fmt` None) are out of range. `plus` is
    /// added to the last address component (`image_msaa_load`'s sample after FRAGID).
    fn texel_addrs(
        &self,
        inst: &Inst,
        t: &ImageResource,
        fmt: Option<BufFormat>,
        dim: u32,
        plus: u32,
    ) -> ([[u64; 4]; 64], [u8; 64]) {
        let has_mip = matches!(inst.op, Op::IMAGE_LOAD_MIP | Op::IMAGE_STORE_MIP);
        let ncoords = COORDS.get(dim as usize).copied().unwrap_or(0);
        let mut addr_v = [[0u32; 64]; 4];
        for (k, a) in addr_v.iter_mut().enumerate().take(ncoords) {
            *a = self.mimg_coord(inst, k);
        }
        if let Some(last) = ncoords.checked_sub(1) {
            addr_v[last] = addr_v[last].map(|c| c.wrapping_add(plus));
        }
        let mip_v = if has_mip { self.mimg_coord(inst, ncoords) } else { [0; 64] };
        let elem = fmt.map_or(4, |f| f.bytes as u32);
        let npieces = elem.div_ceil(4) as usize;
        let mut addr = [[0u64; 4]; 64];
        let mut ok = [0u8; 64];
        let active = if fmt.is_some() { self.exec() } else { 0 };
        for l in (0..self.lanes).filter(|&l| active >> l & 1 != 0) {
            let c = [addr_v[0][l], addr_v[1][l], addr_v[2][l], addr_v[3][l]];
            let Some(off) = texel_offset(t, elem, c, mip_v[l], dim) else { continue };
            let a = t.base.wrapping_add(off);
            for (k, p) in addr[l].iter_mut().enumerate().take(npieces) {
                *p = a.wrapping_add(4 * k as u64);
            }
            ok[l] = (1u8 << npieces) - 1;
        }
        (addr, ok)
    }

    /// A store's bytes per lane in range: the VGPRs hold the dmask'd components in order
    /// (the others are 0), data component `i` goes to memory component `DST_SEL[i]`,
    /// converted as MUBUF format stores convert.
    fn image_store_bytes(
        &self,
        inst: &Inst,
        t: &ImageResource,
        f: BufFormat,
        ok: &[u8; 64],
        bytes: &mut [[u8; 16]; 64],
    ) {
        let dmask = (inst.imm & mimg::DMASK) as u32;
        let d16 = inst.imm & mimg::D16 != 0;
        let n = dmask.count_ones() as usize;
        let regs = if d16 { n.div_ceil(2) } else { n };
        let mut data = [[0u32; 64]; 4];
        for (k, d) in data.iter_mut().enumerate().take(regs) {
            *d = self.vmem_src(&self.reg_plus(&inst.dst, k));
        }
        let one = f.one(d16);
        let sel = super::buffer::store_sel(t.dst_sel);
        for l in (0..self.lanes).filter(|&l| ok[l] != 0) {
            let mut src = [0u32; 4];
            for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
                src[i] = if d16 { data[j / 2][l] >> (16 * (j % 2)) & 0xffff } else { data[j][l] };
            }
            let mut raw = [0u32; 4];
            for (i, r) in raw.iter_mut().enumerate().take(f.comps as usize) {
                let x = pick(sel[i], &src, one);
                *r = if d16 { f.store16(i, x as u16) } else { f.store32(i, x) };
            }
            bytes[l] = f.pack(raw);
        }
    }

    /// A load's results: convert, swizzle, dmask, D16 packing (lanes out of range get 0).
    /// The TFE/LWE status register is not written (see the module's notes).
    fn image_load_writeback(
        &mut self,
        inst: &Inst,
        t: &ImageResource,
        fmt: Option<BufFormat>,
        ok: &[u8; 64],
        bytes: &[[u8; 16]; 64],
        exec: u64,
    ) {
        let dmask = (inst.imm & mimg::DMASK) as u32;
        let d16 = inst.imm & mimg::D16 != 0;
        let n = dmask.count_ones() as usize;
        let regs = if d16 { n.div_ceil(2) } else { n };
        let mut out = [[0u32; 64]; 4];
        let keep = (d16 && n % 2 == 1).then(|| self.vsrc(&self.reg_plus(&inst.dst, regs - 1)));
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
            self.vdst(&self.reg_plus(&inst.dst, k), vals, exec);
        }
    }

    /// An image atomic: the lanes in range do their read-modify-write in lane order with the
    /// memory atomics buffer and global atomics use (`flat.rs`, `Wave::vmem_atomic_with`),
    /// VDATA holding the data (cmpswap: then the compare value); with GLC the pre-op value
    /// returns to VDATA's first register(s), and lanes out of range get 0.
    #[allow(clippy::too_many_arguments)] // the instruction, its width, the lanes' texels
    fn image_atomic(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        wide: bool,
        addr: &[[u64; 4]; 64],
        ok: &[u8; 64],
        exec: u64,
    ) -> Result<(), FaultKind> {
        let n = 1 + wide as usize;
        let glc = inst.flags & mflag::GLC != 0;
        let Operand::Vgpr(vdata) = inst.dst else { return Ok(()) };
        if glc && !self.vgprs_in_range(vdata, n as u32) {
            return Ok(());
        }
        let mut a = [0u64; 64];
        let mut inside = 0u64;
        for l in 0..self.lanes {
            a[l] = addr[l][0];
            inside |= ((ok[l] != 0) as u64) << l;
        }
        if glc {
            for k in 0..n {
                self.vdst(&self.reg_plus(&inst.dst, k), &[0; 64], exec & !inside);
            }
        }
        let op = atomic_op(inst.op).ok_or_else(|| unsupported(format!("{} is not an atomic", inst.op.name())))?;
        let ndata = n * (1 + (op == AtomicOp::CmpSwap) as usize);
        let args = AtomicArgs { op, wide, data: inst.dst, ndata };
        self.vmem_atomic_with(inst, ctx, &a, None, inside, &args)
    }

    /// `image_msaa_load`: one component (dmask's) of samples FRAGID + 0..3 to four
    /// registers (two with D16), converted as loads convert; see the module's notes.
    fn msaa_load(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        t: &ImageResource,
        fmt: Option<BufFormat>,
        dim: u32,
        exec: u64,
    ) -> Result<(), FaultKind> {
        let ncoords = COORDS.get(dim as usize).copied().unwrap_or(0);
        let frag = self.mimg_coord(inst, ncoords.saturating_sub(1));
        if let Some(l) = (0..self.lanes).find(|&l| exec >> l & 1 != 0 && frag[l] % 4 != 0) {
            return Err(unsupported(format!(
                "image_msaa_load with FRAGID {} (lane {l}), not a multiple of 4: which samples it returns is not written down",
                frag[l]
            )));
        }
        let c = (inst.imm & mimg::DMASK).trailing_zeros() as usize;
        let d16 = inst.imm & mimg::D16 != 0;
        let elem = fmt.map_or(4, |f| f.bytes as u32);
        let npieces = elem.div_ceil(4) as usize;
        let mut out = [[0u32; 64]; 4];
        for i in 0..4u32 {
            let (addr, ok) = self.texel_addrs(inst, t, fmt, dim, i);
            let mut bytes = [[0u8; 16]; 64];
            self.buffer_move(ctx, &addr, &ok, &mut bytes, npieces, elem, false)?;
            let Some(f) = fmt else { continue };
            for l in (0..self.lanes).filter(|&l| ok[l] != 0 && c < f.comps as usize) {
                let raw = f.unpack(&bytes[l])[c];
                let v = if d16 { f.load16(c, raw) as u32 } else { f.load32(c, raw) };
                if d16 {
                    out[i as usize / 2][l] |= (v & 0xffff) << (16 * (i % 2));
                } else {
                    out[i as usize][l] = v;
                }
            }
        }
        let regs = if d16 { 2 } else { 4 };
        for (k, vals) in out.iter().enumerate().take(regs) {
            self.vdst(&self.reg_plus(&inst.dst, k), vals, exec);
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
            if t.is_msaa() {
                // One level; the sample count is not among the results.
                let [w, h, _] = t.level_extent(0);
                let z = if t.kind == img_type::IMG_2D_MSAA_ARRAY { layers } else { 0 };
                let vals = if mip_v[l] == 0 { [w, h, z, 0] } else { [0; 4] };
                for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
                    out[j][l] = vals[i];
                }
                continue;
            }
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

#[cfg(test)]
mod tests {
    /// `image_sample_d v[0:3], [v10, v20, v30, v40, v[50:51]], s[0:7], s[8:11] dmask:0xf
    /// dim:SQ_RSRC_IMG_2D`, encoded by llvm-mc-19: six addresses in one NSA dword, the
    /// last two a VGPR pair (gfx11's partial NSA).
    #[test]
    fn partial_nsa_addresses_run_on_from_the_last_byte() {
        let bytes = [0x05u8, 0x0f, 0x70, 0xf0, 0x0a, 0x00, 0x00, 0x08, 0x14, 0x1e, 0x28, 0x32];
        let words: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        let inst = crate::isa::decode::decode(&words, false).expect("llvm-mc's encoding decodes");
        let regs: Vec<_> = (0..6).map(|k| super::mimg_addr_reg(&inst, k)).collect();
        assert_eq!(regs, [10, 20, 30, 40, 50, 51].map(Some));
    }
}
