//! `image_load` and `image_store` inline, for linear images in the common formats: what
//! the interpreter's per-instruction path (exec/imgfast.rs) does, as IR.
//!
//! The T# is a run-time value, so its checks stay in Rust: one helper call
//! (`exec/tier.rs` `image`) recalls or accepts the T# for this instruction exactly as the
//! interpreter does and describes its BASE_LEVEL as a [`JitImage`], or declines (a
//! swizzled layout, another format, a DST_SEL this lowering does not take). The IR then
//! range-checks the coordinates as vectors, computes every lane's offset and moves the
//! texels through the memory access helper (jit/mem.rs), converting 8_8_8_8 UNORM inline
//! (loads `x / 255` in f32, which equals `BufFormat::load32`'s f64 division rounded to
//! f32 for all 256 values; stores clamp in f64 and round to nearest even, as
//! `BufFormat::store32`) and moving 32-bit components as they are. Anything else — a lane
//! out of range, a span across buffer objects, a declined T# — runs the instruction in the
//! interpreter (a call-out) before anything was written, and that reports faults.

use super::ir::{Ir, Lower, NotInline};
use super::mem::{self, Access, Target};
use crate::isa::decode::{mflag, mimg, Inst, Operand};
use crate::isa::exec::image::{mimg_addr_reg, COORDS};
use crate::isa::table::Op;

/// An accepted T#'s BASE_LEVEL as translated code addresses it: the texel at in-range
/// coordinates `c` (`c[k] < lim[k]` for each of the DIM's coordinates) lies at GPU address
/// `base + Σ c[k] * mult[k]`; every `mult[k]` fits in 32 bits. Written by the helper into
/// the function's `%scratch_img`.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct JitImage {
    pub base: u64,
    pub mult: [u64; 3],
    pub lim: [u32; 3],
    /// [`CODEC_RGBA8`], or the number of 32-bit components (1, 2 or 4) moved as they are.
    pub codec: u32,
}

/// 8_8_8_8 UNORM with the identity DST_SEL.
pub(crate) const CODEC_RGBA8: u32 = 8;

/// Lowers `image_load` / `image_store` (`idx`) with its interpreter fallback, or
/// [`NotInline`] for the forms the helper never takes (A16, D16, TFE/LWE, R128, the mip
/// forms, whose lanes may address different levels).
pub fn image(ir: &mut Ir, inst: &Inst, idx: usize) -> Lower {
    let store = match inst.op {
        Op::IMAGE_LOAD => false,
        Op::IMAGE_STORE => true,
        _ => return Err(NotInline),
    };
    let static_flags = mimg::A16 | mimg::D16 | mimg::R128 | mimg::LWE;
    if inst.imm & static_flags != 0 || inst.flags & mflag::TFE != 0 {
        return Err(NotInline);
    }
    let dmask = (inst.imm & mimg::DMASK) as u32;
    let dim = (inst.imm >> mimg::DIM_SHIFT & 7) as usize;
    // The MSAA dims (6, 7) take a sample index: not this lowering.
    if dim >= 6 {
        return Err(NotInline);
    }
    let ncoords = COORDS[dim];
    let vdata = mem::vreg(&inst.dst)?;
    let addr: Vec<u16> = (0..ncoords).map(|k| mimg_addr_reg(inst, k).ok_or(NotInline)).collect::<Lower<_>>()?;
    if dmask == 0 || !matches!(inst.src[1], Operand::Sgpr(_)) {
        return Err(NotInline);
    }
    let mut regs: Vec<(u16, u32)> = addr.iter().map(|&r| (r, 1)).collect();
    regs.push((vdata, if store { 4 } else { dmask.count_ones() }));
    let (slow, join) = (ir.label("islow"), ir.label("ijoin"));
    let any = mem::any_active(ir)?;
    let al = mem::allocated(ir, &regs);
    let ok = mem::and1(ir, &any, &al);
    let go = ir.label("itry");
    ir.line(&format!("br i1 {ok}, label %{go}, label %{slow}, !prof !1"));
    ir.start(&go);
    let codec = prep(ir, idx, &slow);
    let (at, base) = offsets(ir, &addr, &slow)?;
    let t = Target { kind: if store { Access::Store } else { Access::Load }, base: &base, limit: "-1" };
    if store {
        stores(ir, &t, &at, vdata, dmask, &codec, &slow)?;
    } else {
        loads(ir, &t, &at, vdata, dmask, &codec, &slow)?;
    }
    ir.count(if store { mem::VS } else { mem::VM });
    ir.line(&format!("br label %{join}"));
    ir.start(&slow);
    ir.callout(idx);
    ir.line(&format!("br label %{join}"));
    ir.start(&join);
    Ok(())
}

/// Calls the helper; returns the codec (goes to `slow` when it declined).
fn prep(ir: &mut Ir, idx: usize, slow: &str) -> String {
    let f = ir.lay.image;
    let codec = ir.val(&format!("call i32 inttoptr (i64 {f} to ptr)(ptr %w, ptr %env, i32 {idx}, ptr %scratch_img)"));
    let ok = ir.val(&format!("icmp ne i32 {codec}, 0"));
    let next = ir.label("iok");
    ir.line(&format!("br i1 {ok}, label %{next}, label %{slow}, !prof !1"));
    ir.start(&next);
    codec
}

/// Reads field `T` at byte `off` of the helper's [`JitImage`].
fn field(ir: &mut Ir, ty: &str, off: usize) -> String {
    let p = ir.field("%scratch_img", off);
    ir.val(&format!("load {ty}, ptr {p}, align 4"))
}

/// Every lane's texel offset from the returned base (`<N x i64>`) and that base; goes to
/// `slow` unless every active lane's coordinates are in range.
fn offsets(ir: &mut Ir, addr: &[u16], slow: &str) -> Lower<(String, String)> {
    let (vi, vi64) = (ir.vi(), ir.vi64());
    let base = field(ir, "i64", std::mem::offset_of!(JitImage, base));
    let mut inside: Option<String> = None;
    let mut at = ir.splat_const("i64", "0");
    for (k, &r) in addr.iter().enumerate() {
        let lim = field(ir, "i32", std::mem::offset_of!(JitImage, lim) + 4 * k);
        let mult = field(ir, "i64", std::mem::offset_of!(JitImage, mult) + 8 * k);
        let c = ir.vload(r);
        let l = ir.splat("i32", &lim);
        let inr = ir.val(&format!("icmp ult {vi} {c}, {l}"));
        inside = Some(match inside {
            None => inr,
            Some(prev) => ir.val(&format!("and {} {prev}, {inr}", ir.vb())),
        });
        // Both factors below 2^32: a 32 x 32 -> 64-bit multiply.
        let c64 = ir.val(&format!("zext {vi} {c} to {vi64}"));
        let m = ir.splat("i64", &mult);
        let p = ir.val(&format!("mul nuw {vi64} {c64}, {m}"));
        at = ir.val(&format!("add {vi64} {at}, {p}"));
    }
    let inside = inside.ok_or(NotInline)?;
    let exec = ir.exec()?;
    let m = ir.mask_of(&inside);
    let act = ir.val(&format!("and {} {m}, {exec}", ir.mi()));
    let all = ir.val(&format!("icmp eq {} {act}, {exec}", ir.mi()));
    let next = ir.label("iin");
    ir.line(&format!("br i1 {all}, label %{next}, label %{slow}, !prof !1"));
    ir.start(&next);
    Ok((at, base))
}

/// Loads: 8_8_8_8 UNORM (one dword per lane, converted) or 32-bit components up to
/// dmask's highest (the helper checked the format has them); the dmask'd components go
/// to consecutive VGPRs from `vdata` once both are known.
fn loads(ir: &mut Ir, t: &Target, at: &str, vdata: u16, dmask: u32, codec: &str, slow: &str) -> Lower {
    let (vi, vf) = (ir.vi(), ir.vf());
    let exec = ir.exec()?;
    let full = ir.val(&format!("icmp eq {} {exec}, -1", ir.mi()));
    let comps: Vec<u32> = (0..4).filter(|i| dmask >> i & 1 != 0).collect();
    let (rgba, raw, done) = (ir.label("irgba"), ir.label("iraw"), ir.label("ildone"));
    let is8 = ir.val(&format!("icmp eq i32 {codec}, {CODEC_RGBA8}"));
    ir.line(&format!("br i1 {is8}, label %{rgba}, label %{raw}"));
    ir.start(&rgba);
    let w = mem::load_lanes(ir, t, at, 1, &full, &exec, slow)?.remove(0);
    let mut from8 = Vec::new();
    for &i in &comps {
        let b = ir.val(&format!("lshr {vi} {w}, {}", ir.splat_const("i32", &(8 * i).to_string())));
        let b = ir.val(&format!("and {vi} {b}, {}", ir.ci(255)));
        let f = ir.val(&format!("uitofp {vi} {b} to {vf}"));
        let f = ir.val(&format!("fdiv {vf} {f}, {}", ir.splat_const("float", "255.0")));
        from8.push(ir.as_i(&f));
    }
    let rgba_end = ir.block.clone();
    ir.line(&format!("br label %{done}"));
    ir.start(&raw);
    let n = 32 - dmask.leading_zeros();
    let dw = mem::load_lanes(ir, t, at, n, &full, &exec, slow)?;
    let raw_end = ir.block.clone();
    ir.line(&format!("br label %{done}"));
    ir.start(&done);
    let merged: Vec<String> = comps
        .iter()
        .enumerate()
        .map(|(j, &i)| ir.val(&format!("phi {vi} [ {}, %{rgba_end} ], [ {}, %{raw_end} ]", from8[j], dw[i as usize])))
        .collect();
    for (j, v) in merged.iter().enumerate() {
        ir.vstore(vdata + j as u16, v, &exec);
    }
    Ok(())
}

/// Stores (dmask 0xf: VGPRs `vdata..vdata+3` are the components; the helper checked
/// that the format's are among them): 8_8_8_8 UNORM packed to one dword per lane, or
/// the format's 1, 2 or 4 32-bit components as they are.
fn stores(ir: &mut Ir, t: &Target, at: &str, vdata: u16, dmask: u32, codec: &str, slow: &str) -> Lower {
    if dmask != 0xf {
        return Err(NotInline);
    }
    let exec = ir.exec()?;
    let full = ir.val(&format!("icmp eq {} {exec}, -1", ir.mi()));
    let vals: Vec<String> = (0..4).map(|k| ir.vload(vdata + k)).collect();
    let done = ir.label("isdone");
    let cases: Vec<(u32, String)> = [1, 2, 4, CODEC_RGBA8].iter().map(|&c| (c, ir.label("iscase"))).collect();
    let arms: Vec<String> = cases.iter().map(|(c, l)| format!("i32 {c}, label %{l}")).collect();
    ir.line(&format!("switch i32 {codec}, label %{slow} [ {} ]", arms.join(" ")));
    for (c, label) in &cases {
        ir.start(label);
        let data = if *c == CODEC_RGBA8 { vec![pack_unorm8(ir, &vals)] } else { vals[..*c as usize].to_vec() };
        mem::store_lanes(ir, t, &[at.to_string()], &[data], &full, &exec, slow)?;
        ir.line(&format!("br label %{done}"));
    }
    ir.start(&done);
    Ok(())
}

/// Four f32 lane vectors as 8_8_8_8 UNORM dwords: each clamped to [0, 1] in f64 (NaN
/// becomes 0: `maxnum` takes the non-NaN operand), times 255 (exact in f64), rounded to
/// nearest even.
fn pack_unorm8(ir: &mut Ir, vals: &[String]) -> String {
    let (vi, n) = (ir.vi(), ir.n);
    let vd = format!("<{n} x double>");
    let zero = ir.splat_const("double", "0.0");
    let one = ir.splat_const("double", "1.0");
    let k255 = ir.splat_const("double", "255.0");
    let mut acc = ir.ci(0);
    for (i, v) in vals.iter().enumerate() {
        let f = ir.as_f(v);
        let d = ir.val(&format!("fpext {} {f} to {vd}", ir.vf()));
        let name = |op: &str| format!("llvm.{op}.v{n}f64");
        let d = ir.call(&vd, &name("maxnum"), &[&vd, &vd], &[&d, &zero]);
        let d = ir.call(&vd, &name("minnum"), &[&vd, &vd], &[&d, &one]);
        let d = ir.val(&format!("fmul {vd} {d}, {k255}"));
        let d = ir.call(&vd, &name("roundeven"), &[&vd], &[&d]);
        let b = ir.val(&format!("fptoui {vd} {d} to {vi}"));
        let b = ir.val(&format!("shl {vi} {b}, {}", ir.splat_const("i32", &(8 * i).to_string())));
        acc = ir.val(&format!("or {vi} {acc}, {b}"));
    }
    acc
}
