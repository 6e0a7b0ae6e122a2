//! The common case of `image_load(_mip)` and `image_store(_mip)`, done per instruction
//! rather than per lane: the level's layout is computed once, the lanes' texels are
//! located through one translation of their span, and the common formats convert through
//! tables or as raw bits. It computes what `image.rs`'s general path computes (see its
//! notes); where its preconditions fail (D16, a span not in one buffer object, no lane in
//! range) it declines before touching the wave or memory, and the general path runs,
//! which also reports faults at their exact address.

use std::cell::RefCell;
use std::sync::OnceLock;

use super::{Ctx, Wave};
use crate::format::{BufFormat, Num};
use crate::isa::decode::{mflag, mimg, Inst, Operand};
use crate::isa::table::Op;
use crate::jit::image::{JitImage, CODEC_RGBA8};
use crate::rsrc::{img_type, sel, ImageResource};

/// One level's extent and layout (`ImageResource::linear_level`).
#[derive(Clone, Copy)]
struct Level {
    ext: [u32; 3],
    offset: u64,
    row: u64,
    slice: u64,
}

/// The levels an instruction addresses, each computed at its first use (a mip operand may
/// name a different level per lane; without one every lane uses BASE_LEVEL).
struct Levels<'t> {
    t: &'t ImageResource,
    elem: u32,
    cache: [Option<Option<Level>>; 16],
}

impl Levels<'_> {
    /// Level `level` (absolute), `None` past LAST_LEVEL or MAX_MIP.
    fn get(&mut self, level: u64) -> Option<Level> {
        if level > self.t.last_level.min(self.t.max_mip) as u64 {
            return None;
        }
        let (t, elem) = (self.t, self.elem);
        *self.cache[level as usize].get_or_insert_with(|| {
            let l = t.linear_level(elem, level as u32)?;
            Some(Level { ext: t.level_extent(level as u32), offset: l.offset, row: l.row_pitch, slice: l.slice_pitch })
        })
    }
}

/// A T# that `image.rs`'s checks accepted for a load or store of one opcode and DIM, with
/// what the fast path needs of it.
#[derive(Clone, Copy)]
pub(super) struct Accepted {
    t: ImageResource,
    f: BufFormat,
    /// BASE_LEVEL's layout.
    base: Option<Level>,
}

/// What the checks of a T# depend on: its words, the opcode and the DIM.
#[derive(Clone, Copy, PartialEq, Eq)]
struct Key {
    raw: [u32; 8],
    op: Op,
    dim: u32,
}

/// T#s accepted lately on this thread: decoding a T#, its checks and its level's layout
/// cost more than a wave32 image load's data movement, and a program's image
/// instructions use few T#s. The entries are pure functions of their keys, so they
/// stay valid across waves and dispatches.
struct Recent {
    entries: [Option<(Key, Accepted)>; 4],
    next: usize,
}

thread_local! {
    static RECENT: RefCell<Recent> = const { RefCell::new(Recent { entries: [None; 4], next: 0 }) };
}

impl Accepted {
    pub(super) fn new(t: &ImageResource, f: BufFormat) -> Accepted {
        let mut levels = Levels { t, elem: f.bytes as u32, cache: [None; 16] };
        // Swizzled T#s have no linear level: translated code (`describe`) must not address
        // them linearly (RADV's images are swizzled: its image cases came back wrong in
        // translated code only).
        let linear = t.sw_mode == crate::rsrc::SW_LINEAR;
        Accepted { t: *t, f, base: if linear { levels.get(t.base_level as u64) } else { None } }
    }
}

fn key(inst: &Inst, raw: [u32; 8]) -> Key {
    Key { raw, op: inst.op, dim: (inst.imm >> mimg::DIM_SHIFT & 7) as u32 }
}

/// Notes that `a` was accepted for `inst` with T# words `raw`.
pub(super) fn remember(inst: &Inst, raw: [u32; 8], a: Accepted) {
    RECENT.with_borrow_mut(|r| {
        let k = r.next;
        r.entries[k] = Some((key(inst, raw), a));
        r.next = (k + 1) % r.entries.len();
    });
}

/// What translated code's inline image_load / image_store needs of T# words `raw`
/// (jit/image.rs), recalled or accepted here as the interpreter would (and remembered):
/// `None` where the interpreter's fast path would not run (a null, refused or swizzled T#,
/// BASE_LEVEL past LAST_LEVEL) or the lowering does not take the format: 8_8_8_8 UNORM
/// or 32-bit components, each dmask'd one (loads) or each of the format's (stores, whose
/// dmask is 0xf) named by its own DST_SEL, pitches below 2^32.
pub(crate) fn jit_image(inst: &Inst, raw: [u32; 8]) -> Option<JitImage> {
    let k = (key(inst, raw), inst.imm & mimg::DMASK);
    if let Some(j) = JIT_RECENT.with_borrow(|r| r.entries.iter().flatten().find(|e| e.0 == k).map(|e| e.1)) {
        return j;
    }
    let j = describe(inst, raw);
    JIT_RECENT.with_borrow_mut(|r| {
        let n = r.next;
        r.entries[n] = Some((k, j));
        r.next = (n + 1) % r.entries.len();
    });
    j
}

/// A [`jit_image`] answer and what it was for: the T# key and the dmask.
type JitEntry = ((Key, i32), Option<JitImage>);

/// [`jit_image`]'s answers lately given on this thread, by T# words, opcode, DIM and dmask
/// (what the answer is a pure function of): most waves of a dispatch ask about the same
/// few T#s.
struct JitRecent {
    entries: [Option<JitEntry>; 4],
    next: usize,
}

thread_local! {
    static JIT_RECENT: RefCell<JitRecent> = const { RefCell::new(JitRecent { entries: [None; 4], next: 0 }) };
}

fn describe(inst: &Inst, raw: [u32; 8]) -> Option<JitImage> {
    let a = recall(inst, raw).or_else(|| {
        let a = super::image::accept(inst, raw)?;
        remember(inst, raw, a);
        Some(a)
    })?;
    let (t, lv) = (&a.t, a.base?);
    let codec = match codec(&a.f) {
        Codec::Rgba8Unorm => CODEC_RGBA8,
        Codec::Raw32 if a.f.comps != 3 => a.f.comps as u32,
        _ => return None,
    };
    let swz = swizzle(t);
    let dmask = (inst.imm & mimg::DMASK) as u32;
    let store = inst.op == Op::IMAGE_STORE;
    let used: Vec<usize> =
        if store { (0..a.f.comps as usize).collect() } else { (0..4).filter(|i| dmask >> i & 1 != 0).collect() };
    if (store && dmask != 0xf) || used.iter().any(|&i| i >= a.f.comps as usize || swz[i] != i) {
        return None;
    }
    let elem = a.f.bytes as u64;
    let [w, h, d] = lv.ext;
    // Layers of an array from BASE_ARRAY to DEPTH (the last), folded into the base.
    let layers = (t.depth + 1).saturating_sub(t.base_array);
    let first = (t.base_array as u64).wrapping_mul(lv.slice);
    let (lim, mult, off) = match t.kind {
        img_type::IMG_1D => ([w, 0, 0], [elem, 0, 0], 0),
        img_type::IMG_2D => ([w, h, 0], [elem, lv.row, 0], 0),
        img_type::IMG_3D => ([w, h, d], [elem, lv.row, lv.slice], 0),
        img_type::IMG_1D_ARRAY => ([w, layers, 0], [elem, lv.slice, 0], first),
        _ => ([w, h, layers], [elem, lv.row, lv.slice], first),
    };
    if mult.iter().any(|&m| m > u32::MAX as u64) {
        return None;
    }
    Some(JitImage { base: t.base.wrapping_add(lv.offset).wrapping_add(off), mult, lim, codec })
}

fn recall(inst: &Inst, raw: [u32; 8]) -> Option<Accepted> {
    let k = key(inst, raw);
    RECENT.with_borrow(|r| r.entries.iter().flatten().find(|e| e.0 == k).map(|e| e.1))
}

/// How a texel's components convert, chosen once per instruction.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Codec {
    /// 8_8_8_8_UNORM: loads through a table, stores with `BufFormat::store32`'s rounding.
    Rgba8Unorm,
    /// 32-bit FLOAT, UINT or SINT components: loads and stores move the bits unchanged
    /// (`load32` and `store32` are the identity on them).
    Raw32,
    /// 16_16_16_16_FLOAT: loads through a table of every half.
    Rgba16Float,
    /// Any other format: `BufFormat`'s per-component conversions.
    General,
}

fn codec(f: &BufFormat) -> Codec {
    match (f.num, f.bits) {
        (Num::Unorm, [8, 8, 8, 8]) => Codec::Rgba8Unorm,
        (Num::Float | Num::Uint | Num::Sint, [32, b, _, _]) if b == 0 || b == 32 => Codec::Raw32,
        (Num::Float, [16, 16, 16, 16]) => Codec::Rgba16Float,
        _ => Codec::General,
    }
}

/// `load32` of every 8-bit UNORM value, built by the conversion itself so that the two
/// agree bit for bit.
pub(super) fn unorm8_table() -> &'static [u32; 256] {
    static T: OnceLock<[u32; 256]> = OnceLock::new();
    T.get_or_init(|| {
        let f =
            BufFormat::from_unified(1).unwrap_or(BufFormat { comps: 1, bits: [8, 0, 0, 0], bytes: 1, num: Num::Unorm });
        std::array::from_fn(|x| f.load32(0, x as u32))
    })
}

/// `load32` of every 16-bit float, as [`unorm8_table`].
fn f16_table() -> &'static [u32] {
    static T: OnceLock<Vec<u32>> = OnceLock::new();
    T.get_or_init(|| {
        let f = BufFormat::from_unified(13).unwrap_or(BufFormat {
            comps: 1,
            bits: [16, 0, 0, 0],
            bytes: 2,
            num: Num::Float,
        });
        (0..=u16::MAX as u32).map(|h| f.load32(0, h)).collect()
    })
}

/// One texel's components as `BufFormat::load32` gives them (0 past the format's), through
/// the same tables as image loads: for sampling's taps.
pub(super) fn load_texel(f: &BufFormat, b: &[u8; 16]) -> [u32; 4] {
    let word = |k: usize| u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
    let comps = f.comps as usize;
    match codec(f) {
        Codec::Rgba8Unorm => [0, 8, 16, 24].map(|s| unorm8_table()[(word(0) >> s & 0xff) as usize]),
        Codec::Raw32 => std::array::from_fn(|k| if k < comps { word(k) } else { 0 }),
        Codec::Rgba16Float => [0, 16, 32, 48].map(|s| f16_table()[((word(s / 32) >> (s % 32)) & 0xffff) as usize]),
        Codec::General => {
            let raw = f.unpack(b);
            std::array::from_fn(|k| if k < comps { f.load32(k, raw[k]) } else { 0 })
        }
    }
}

/// Texel data per lane as columns: `w[k][l]` is dword `k` of lane `l`'s texel (the bytes
/// past the texel's size are 0). Columns let the conversions run across the lanes, and
/// the lane count `N` is the wave's, so that wave32 moves no unused lanes.
type Words<const N: usize> = [[u32; N]; 4];

/// The texels' components as 32-bit VGPR values (before DST_SEL), `c[i][l]` for component
/// `i` of lane `l`.
fn decode<const N: usize>(codec: Codec, f: &BufFormat, w: &Words<N>, c: &mut Words<N>) {
    match codec {
        Codec::Rgba8Unorm => {
            let t = unorm8_table();
            for (i, col) in c.iter_mut().enumerate() {
                for l in 0..N {
                    col[l] = t[(w[0][l] >> (8 * i) & 0xff) as usize];
                }
            }
        }
        Codec::Raw32 => c[..f.comps as usize].copy_from_slice(&w[..f.comps as usize]),
        Codec::Rgba16Float => {
            let t = f16_table();
            for (i, col) in c.iter_mut().enumerate() {
                for l in 0..N {
                    col[l] = t[(w[i / 2][l] >> (16 * (i % 2)) & 0xffff) as usize];
                }
            }
        }
        Codec::General => {
            for l in 0..N {
                let b = (w[0][l] as u128 | (w[1][l] as u128) << 32 | (w[2][l] as u128) << 64 | (w[3][l] as u128) << 96)
                    .to_le_bytes();
                let raw = f.unpack(&b);
                for i in 0..f.comps as usize {
                    c[i][l] = f.load32(i, raw[i]);
                }
            }
        }
    }
}

/// `store32` for 8-bit UNORM, without the dispatch on the format (the same arithmetic).
#[inline(always)]
#[allow(clippy::manual_clamp)] // `clamp` keeps NaN; `max` is what turns it into 0
fn unorm8(v: u32) -> u32 {
    // `max` takes the non-NaN operand: NaN becomes 0 as in `store32`, and the clamp is
    // the same for every other value. The product is exact in f64 (24 + 8 bits), and
    // adding 2^52 rounds it to an integer, ties to even, in the low mantissa bits: the
    // same as `round_ties_even`, without a conversion that does not vectorise (checked
    // for every u32).
    let x = (f32::from_bits(v) as f64).max(0.0).min(1.0) * 255.0;
    ((x + (1u64 << 52) as f64).to_bits() & 0xff) as u32
}

/// The texels' dwords for memory components `c` (after DST_SEL).
fn encode<const N: usize>(codec: Codec, f: &BufFormat, c: [&[u32; N]; 4], w: &mut Words<N>) {
    match codec {
        Codec::Rgba8Unorm => {
            // A column at a time: each loop vectorises without shuffles between lanes.
            for (i, col) in c.iter().enumerate() {
                for l in 0..N {
                    w[0][l] |= unorm8(col[l]) << (8 * i);
                }
            }
        }
        Codec::Raw32 => (0..f.comps as usize).for_each(|k| w[k] = *c[k]),
        Codec::Rgba16Float | Codec::General => {
            for l in 0..N {
                let raw = std::array::from_fn(|k| if k < f.comps as usize { f.store32(k, c[k][l]) } else { 0 });
                let b = u128::from_le_bytes(f.pack(raw));
                for (k, col) in w.iter_mut().enumerate() {
                    col[l] = (b >> (32 * k)) as u32;
                }
            }
        }
    }
}

/// The lanes' texel offsets from the T#'s base and the mask of lanes in range.
struct Lanes<const N: usize> {
    off: [u64; N],
    inside: u64,
}

impl Wave {
    /// Executes an image load or store (`store`) on the non-null, accepted T# `t` of format
    /// `f` if the common case applies; `false` when it declined, having changed nothing.
    pub(super) fn image_fast(&mut self, inst: &Inst, ctx: &mut Ctx, a: &Accepted, store: bool) -> bool {
        // Linear images only: swizzled ones address texels through `crate::addr`.
        let linear = a.t.sw_mode == crate::rsrc::SW_LINEAR;
        if !linear || inst.imm & mimg::D16 != 0 || !matches!(inst.dst, Operand::Vgpr(_)) {
            return false;
        }
        if self.lanes == 32 {
            self.image_fast_n::<32>(inst, ctx, a, store)
        } else {
            self.image_fast_n::<64>(inst, ctx, a, store)
        }
    }

    /// [`Self::image_fast`] for a T# accepted before (see [`Recent`]), `false` when its
    /// words are not among those or the fast path declines. A load whose registers lie
    /// past the allocation is left to the general path, which drops it.
    pub(super) fn image_fast_recalled(&mut self, inst: &Inst, ctx: &mut Ctx, store: bool) -> bool {
        let Some(raw) = self.tsharp_raw(&inst.src[1]) else { return false };
        let Some(a) = recall(inst, raw) else { return false };
        let Operand::Vgpr(vdata) = inst.dst else { return false };
        let regs = (inst.imm & mimg::DMASK).count_ones() + (inst.flags & mflag::TFE != 0) as u32;
        if !store && !self.vgprs_in_range(vdata, regs) {
            return false;
        }
        self.image_fast(inst, ctx, &a, store)
    }

    fn image_fast_n<const N: usize>(&mut self, inst: &Inst, ctx: &mut Ctx, a: &Accepted, store: bool) -> bool {
        let (t, f) = (&a.t, a.f);
        let exec = self.exec();
        let lanes = self.texel_lanes::<N>(inst, a, exec);
        if lanes.inside == 0 {
            return false;
        }
        let (lo, hi) = span(&lanes);
        let Some(len) = (hi - lo).checked_add(f.bytes as u64) else { return false };
        let Ok(host) = ctx.tlb.translate(ctx.vm, t.base.wrapping_add(lo), len, store) else { return false };
        // SAFETY (both): every lane in `inside` has its texel in [lo, hi + bytes), which
        // `host` maps (one BO).
        if store {
            unsafe { self.fast_store(inst, t, &f, &lanes, host, lo) };
        } else {
            unsafe { self.fast_load(inst, t, &f, &lanes, host, lo, exec) };
        }
        true
    }

    /// Address component `k` of the first `N` lanes, as [`Wave::mimg_coord`] reads it but
    /// without copying a whole 64-lane register.
    fn coord_n<const N: usize>(&self, inst: &Inst, k: usize) -> [u32; N] {
        let a16 = inst.imm & mimg::A16 != 0;
        let Some(r) = super::image::mimg_addr_reg(inst, if a16 { k / 2 } else { k }) else { return [0; N] };
        let mut out = self.vgpr_n::<N>(r);
        if a16 {
            let shift = 16 * (k % 2);
            for x in &mut out {
                *x = *x >> shift & 0xffff;
            }
        }
        out
    }

    /// VGPR `r`'s first `N` lanes, v0's when `r` is past the allocation (as
    /// [`Wave::vmem_src`]).
    fn vgpr_n<const N: usize>(&self, r: u16) -> [u32; N] {
        let r = if self.vgprs_in_range(r, 1) { r } else { 0 };
        let mut out = [0; N];
        // (Loops and copies rather than `array::from_fn`, which is not inlined here.)
        out.copy_from_slice(&self.v(r as usize)[..N]);
        out
    }

    /// Per active lane: the level, the range check and the texel's offset (as
    /// `image.rs`'s `texel_offset`), with each level's layout computed once.
    fn texel_lanes<const N: usize>(&self, inst: &Inst, a: &Accepted, exec: u64) -> Lanes<N> {
        let (t, elem) = (&a.t, a.f.bytes as u32);
        let dim = (inst.imm >> mimg::DIM_SHIFT & 7) as usize;
        let ncoords = super::image::COORDS.get(dim).copied().unwrap_or(0);
        let coord = |k: usize| if k < ncoords { self.coord_n::<N>(inst, k) } else { [0; N] };
        let c = [coord(0), coord(1), coord(2)];
        let mut levels = Levels { t, elem, cache: [None; 16] };
        let mut out = Lanes { off: [0; N], inside: 0 };
        if !matches!(inst.op, Op::IMAGE_LOAD_MIP | Op::IMAGE_STORE_MIP) {
            // Every lane addresses BASE_LEVEL: one layout, and loops without branches.
            if let Some(lv) = a.base {
                locate_all(t, &lv, elem, &c, &mut out);
                out.inside &= exec;
            }
            return out;
        }
        let mip = self.coord_n::<N>(inst, ncoords);
        for l in (0..N).filter(|&l| exec >> l & 1 != 0) {
            let Some(lv) = levels.get(t.base_level as u64 + mip[l] as u64) else { continue };
            let (off, inside) = locate(t, &lv, elem, at(&c, l));
            out.off[l] = off;
            out.inside |= (inside as u64) << l;
        }
        out
    }

    /// Loads the lanes in range and writes the dmask'd components (after DST_SEL) to the
    /// lanes in `exec`; lanes out of range get 0.
    ///
    /// # Safety
    /// `host` maps every inside lane's texel at `off - lo`.
    #[allow(clippy::too_many_arguments)] // the instruction, its texels and their mapping
    unsafe fn fast_load<const N: usize>(
        &mut self,
        inst: &Inst,
        t: &ImageResource,
        f: &BufFormat,
        lanes: &Lanes<N>,
        host: *mut u8,
        lo: u64,
        exec: u64,
    ) {
        let mut w = [[0u32; N]; 4];
        // SAFETY: per the contract.
        unsafe { gather(f.bytes as usize, lanes, host, lo, &mut w) };
        let mut c = [[0u32; N]; 4];
        decode(codec(f), f, &w, &mut c);
        let dmask = (inst.imm & mimg::DMASK) as u32;
        let (swz, one) = (swizzle(t), f.one(false));
        let ones = [one; N];
        let zeros = [0; N];
        for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
            let col = match swz[i] {
                k @ 0..=3 => &c[k],
                4 => &ones,
                _ => &zeros,
            };
            let mut vals = [0u32; N];
            for l in 0..N {
                vals[l] = if lanes.inside >> l & 1 != 0 { col[l] } else { 0 };
            }
            self.write_lanes(&self.reg_plus(&inst.dst, j), &vals, exec);
        }
    }

    /// `Wave::vdst` for `N` lanes: the lanes in `exec` of VGPR `op` take `vals`.
    fn write_lanes<const N: usize>(&mut self, op: &Operand, vals: &[u32; N], exec: u64) {
        let Operand::Vgpr(r) = *op else { return };
        let d = &mut self.v_mut(r as usize)[..N];
        for l in 0..N {
            // A select rather than a branch: the loop becomes blends.
            d[l] = if exec >> l & 1 != 0 { vals[l] } else { d[l] };
        }
    }

    /// Stores the lanes in range, in lane order: memory component `i` takes the dmask'd VGPR
    /// data's component [`store_sel`](super::buffer::store_sel) names (the inverse of DST_SEL).
    ///
    /// # Safety
    /// As [`Self::fast_load`].
    unsafe fn fast_store<const N: usize>(
        &self,
        inst: &Inst,
        t: &ImageResource,
        f: &BufFormat,
        lanes: &Lanes<N>,
        host: *mut u8,
        lo: u64,
    ) {
        let dmask = (inst.imm & mimg::DMASK) as u32;
        // The data's components X, Y, Z, W, then 1 and 0, as columns.
        let mut src = [[0u32; N]; 6];
        let Operand::Vgpr(vdata) = inst.dst else { return };
        for (j, i) in (0..4).filter(|i| dmask >> i & 1 != 0).enumerate() {
            src[i] = self.vgpr_n::<N>(vdata.wrapping_add(j as u16));
        }
        src[4] = [f.one(false); N];
        let swz = sel_index(super::buffer::store_sel(t.dst_sel));
        let mut w = [[0u32; N]; 4];
        encode(codec(f), f, swz.map(|k| &src[k]), &mut w);
        // SAFETY: per the contract.
        unsafe { scatter(f.bytes as usize, lanes, host, lo, &w) };
    }
}

/// Reads the inside lanes' texels of `bytes` bytes into `w` (the others stay 0).
///
/// # Safety
/// `host` maps every inside lane's texel at `off - lo`.
unsafe fn gather<const N: usize>(bytes: usize, lanes: &Lanes<N>, host: *mut u8, lo: u64, w: &mut Words<N>) {
    let mut m = lanes.inside;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        // SAFETY: per the contract.
        let p = unsafe { host.add((lanes.off[l] - lo) as usize) };
        if bytes == 4 {
            // SAFETY: as above.
            w[0][l] = unsafe { p.cast::<u32>().read_unaligned() };
            continue;
        }
        for (k, col) in w.iter_mut().enumerate().take(bytes.div_ceil(4)) {
            let mut d = [0u8; 4];
            let len = (bytes - 4 * k).min(4);
            // SAFETY: as above; `len` bytes of the texel.
            unsafe { std::ptr::copy_nonoverlapping(p.add(4 * k), d.as_mut_ptr(), len) };
            col[l] = u32::from_le_bytes(d);
        }
    }
}

/// Writes the inside lanes' texels of `bytes` bytes from `w`, in lane order (the order
/// decides between lanes writing one texel).
///
/// # Safety
/// As [`gather`].
unsafe fn scatter<const N: usize>(bytes: usize, lanes: &Lanes<N>, host: *mut u8, lo: u64, w: &Words<N>) {
    let mut m = lanes.inside;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        // SAFETY: per the contract.
        let p = unsafe { host.add((lanes.off[l] - lo) as usize) };
        if bytes == 4 {
            // SAFETY: as above.
            unsafe { p.cast::<u32>().write_unaligned(w[0][l]) };
            continue;
        }
        for (k, col) in w.iter().enumerate().take(bytes.div_ceil(4)) {
            let d = col[l].to_le_bytes();
            // SAFETY: as above; `len` bytes of the texel.
            unsafe { std::ptr::copy_nonoverlapping(d.as_ptr(), p.add(4 * k), (bytes - 4 * k).min(4)) };
        }
    }
}

/// DST_SEL as indices into a texel's four components followed by 1 and 0 (what
/// `buffer::pick` selects).
pub(super) fn swizzle(t: &ImageResource) -> [usize; 4] {
    sel_index(t.dst_sel)
}

/// Selects as indices into four components followed by 1 and 0.
fn sel_index(sel: [u32; 4]) -> [usize; 4] {
    sel.map(|s| match s {
        sel::ONE => 4,
        sel::X..=sel::W => (s - sel::X) as usize,
        _ => 5,
    })
}

/// The offset of the texel at coordinates `c` (x, then y or the 1D array's slice, then z
/// or the slice) in level `lv`, and whether it is in range (see `image.rs`'s notes).
#[inline(always)]
fn locate(t: &ImageResource, lv: &Level, elem: u32, c: [u32; 3]) -> (u64, bool) {
    match t.kind {
        img_type::IMG_1D => locate_kind::<{ img_type::IMG_1D }>(t, lv, elem, c),
        img_type::IMG_2D => locate_kind::<{ img_type::IMG_2D }>(t, lv, elem, c),
        img_type::IMG_3D => locate_kind::<{ img_type::IMG_3D }>(t, lv, elem, c),
        img_type::IMG_1D_ARRAY => locate_kind::<{ img_type::IMG_1D_ARRAY }>(t, lv, elem, c),
        _ => locate_kind::<{ img_type::IMG_2D_ARRAY }>(t, lv, elem, c),
    }
}

/// [`locate`] for a T# of TYPE `K` (CUBE as 2D_ARRAY).
#[inline(always)]
fn locate_kind<const K: u32>(t: &ImageResource, lv: &Level, elem: u32, c: [u32; 3]) -> (u64, bool) {
    locate_in::<K, false>(t, lv, elem, c)
}

/// [`locate_kind`]; `NARROW` when the row and slice pitches are below 2^32, which lets the
/// multiplications be 32 × 32 → 64 bits (one vector instruction, not a 64-bit emulation).
#[inline(always)]
fn locate_in<const K: u32, const NARROW: bool>(t: &ImageResource, lv: &Level, elem: u32, c: [u32; 3]) -> (u64, bool) {
    let [w, h, d] = lv.ext;
    let [x, y, z] = c;
    let base = t.base_array as u64;
    let (y, slice, inside) = match K {
        img_type::IMG_1D => (0, 0, x < w),
        img_type::IMG_2D => (y, 0, x < w && y < h),
        img_type::IMG_3D => (y, z as u64, x < w && y < h && z < d),
        img_type::IMG_1D_ARRAY => (0, base + y as u64, x < w && base + y as u64 <= t.depth as u64),
        _ => (y, base + z as u64, x < w && y < h && base + z as u64 <= t.depth as u64),
    };
    let (row, pitch) = if NARROW { (lv.row as u32 as u64, lv.slice as u32 as u64) } else { (lv.row, lv.slice) };
    let slice = if NARROW { slice as u32 as u64 } else { slice };
    // Lanes out of range compute an offset too (the loops have no branches): wrapping, as
    // their coordinates are arbitrary; an inside lane's offset does not wrap.
    let off = slice.wrapping_mul(pitch).wrapping_add(lv.offset).wrapping_add((y as u64).wrapping_mul(row));
    (off.wrapping_add(x as u64 * elem as u64), inside)
}

/// [`locate`] for every lane at one level, a loop per TYPE (each vectorises).
fn locate_all<const N: usize>(t: &ImageResource, lv: &Level, elem: u32, c: &[[u32; N]; 3], out: &mut Lanes<N>) {
    let mut ok = [false; N];
    match t.kind {
        img_type::IMG_1D => locate_loop::<N, { img_type::IMG_1D }>(t, lv, elem, c, out, &mut ok),
        img_type::IMG_2D => locate_loop::<N, { img_type::IMG_2D }>(t, lv, elem, c, out, &mut ok),
        img_type::IMG_3D => locate_loop::<N, { img_type::IMG_3D }>(t, lv, elem, c, out, &mut ok),
        img_type::IMG_1D_ARRAY => locate_loop::<N, { img_type::IMG_1D_ARRAY }>(t, lv, elem, c, out, &mut ok),
        _ => locate_loop::<N, { img_type::IMG_2D_ARRAY }>(t, lv, elem, c, out, &mut ok),
    }
    for (l, &k) in ok.iter().enumerate() {
        out.inside |= (k as u64) << l;
    }
}

/// [`locate_all`] for TYPE `K`: narrow arithmetic where the pitches allow it (a slice
/// index is below 2^13, so `slice * pitch` fits as well).
#[inline(always)]
fn locate_loop<const N: usize, const K: u32>(
    t: &ImageResource,
    lv: &Level,
    elem: u32,
    c: &[[u32; N]; 3],
    out: &mut Lanes<N>,
    ok: &mut [bool; N],
) {
    if lv.row <= u32::MAX as u64 && lv.slice <= u32::MAX as u64 {
        fill(out, ok, |l| locate_in::<K, true>(t, lv, elem, at(c, l)));
    } else {
        fill(out, ok, |l| locate_in::<K, false>(t, lv, elem, at(c, l)));
    }
}

/// Lane `l`'s coordinates.
#[inline(always)]
fn at<const N: usize>(c: &[[u32; N]; 3], l: usize) -> [u32; 3] {
    [c[0][l], c[1][l], c[2][l]]
}

/// Fills every lane's offset and range bit from `f`.
#[inline(always)]
fn fill<const N: usize>(out: &mut Lanes<N>, ok: &mut [bool; N], f: impl Fn(usize) -> (u64, bool)) {
    for l in 0..N {
        (out.off[l], ok[l]) = f(l);
    }
}

/// The smallest and largest offset of the lanes in range (at least one).
fn span<const N: usize>(lanes: &Lanes<N>) -> (u64, u64) {
    let (mut lo, mut hi) = (u64::MAX, 0);
    for (l, &a) in lanes.off.iter().enumerate() {
        let on = lanes.inside >> l & 1 != 0;
        lo = lo.min(if on { a } else { u64::MAX });
        hi = hi.max(if on { a } else { 0 });
    }
    (lo, hi)
}
