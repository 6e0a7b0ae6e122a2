//! Memory instructions inline: the interpreter's fast paths (exec/buffer.rs
//! `buffer_fast`, exec/flat.rs, exec/ds.rs, exec/smem.rs) as IR, for the common shapes:
//! whole-dword loads and stores of MUBUF (raw V#, OFFEN or none), GLOBAL, LDS (one and two
//! addresses), and s_load.
//!
//! Each lowering checks inline what makes the fast path exact: SH_MEM_CONFIG's UNALIGNED
//! mode, the operands' VGPRs allocated, a V# that is a plain raw buffer; it computes every
//! lane's offset as a vector and hands them to the access helper (`exec/tier.rs`), which
//! checks that every active lane is in range and that their whole span lies inside one BO
//! (one translation through the wave's TLB) or the LDS allocation, and moves the dwords
//! (stores in lane order, a lane's dwords together). Then the memory counters count and
//! the instruction is done. Otherwise the instruction runs in the interpreter (a
//! call-out), which handles the rest of the rules and reports faults: nothing was written
//! before the check. (Gathers and scatters written as IR made a large kernel's code
//! generation take minutes; the helper keeps a memory instruction to a few IR lines.)

use super::ir::{Ir, Lower, NotInline};
use crate::isa::decode::{mflag, Inst, Operand};
use crate::isa::table::{Encoding, Op::*, F};

/// Memory counters (`Track::cnt` indices).
pub(super) const VM: usize = 0;
pub(super) const VS: usize = 1;
const LGKM: usize = 2;

/// Lowers memory instruction `inst` (at `idx`) with its interpreter fallback, or
/// [`NotInline`] when its form has no inline path (then the caller makes a call-out).
/// `Wave::executed` must be up to date.
pub fn memory(ir: &mut Ir, inst: &Inst, idx: usize) -> Lower {
    match inst.op.encoding() {
        Encoding::Smem => smem(ir, inst, idx),
        Encoding::Mubuf => mubuf(ir, inst, idx),
        Encoding::Global => global(ir, inst, idx),
        Encoding::Ds => ds(ir, inst, idx),
        Encoding::Mimg => super::image::image(ir, inst, idx),
        _ => Err(NotInline),
    }
}

/// Branches on `ok`: the fast path goes on in a new block; the other runs the
/// instruction in the interpreter and joins it at `join` (returned).
fn split(ir: &mut Ir, ok: &str, idx: usize) -> String {
    let (fast, slow, join) = (ir.label("fast"), ir.label("slow"), ir.label("join"));
    ir.line(&format!("br i1 {ok}, label %{fast}, label %{slow}, !prof !1"));
    ir.start(&slow);
    ir.callout(idx);
    ir.line(&format!("br label %{join}"));
    ir.start(&fast);
    join
}

pub(super) fn and1(ir: &mut Ir, a: &str, b: &str) -> String {
    ir.val(&format!("and i1 {a}, {b}"))
}

/// What the access helper does (its `kind` argument): bit 0 stores, bit 1 the LDS
/// (else memory at `base + offset` in a BO, `base` a GPU address).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Access {
    Load = 0,
    Store = 1,
    LdsLoad = 2,
    LdsStore = 3,
}

impl Access {
    fn store(self) -> bool {
        matches!(self, Access::Store | Access::LdsStore)
    }

    fn lds(self) -> bool {
        matches!(self, Access::LdsLoad | Access::LdsStore)
    }
}

/// Where an access goes: its kind, the GPU base address of a BO access (`"0"` for
/// absolute addresses), and the end every element must stay at or below (NUM_RECORDS,
/// the LDS allocation's length, or `-1`).
pub(super) struct Target<'a> {
    pub kind: Access,
    pub base: &'a str,
    pub limit: &'a str,
}

/// The fast path's data movement: element `e` of lane `l` at offset `ats[e]`
/// (`<N x i64>`) from the target, `n` dwords per element, VGPRs from `data` (stores; one
/// register list per element) or to `data[0]..` (loads; the elements' dwords in order).
/// A full wave whose lanes are consecutive moves whole vectors (one translation of its
/// span); anything else goes through the access helper (`exec/tier.rs`), one call that
/// checks the lanes' span, locates it and moves them (a uniform load reads once). Inline
/// span reductions and a third, uniform path made code generation take about a second per
/// hundred instructions; the helper keeps compile time low. (AVX2 gathers are several times slower than scalar loads on this project's
/// AMD machines, and LLVM expands `llvm.masked.gather` into a branch per lane, code a
/// large kernel cannot afford.) When `ok` is false or a check fails, the interpreter runs
/// instruction `idx` (nothing was written); else the instruction counts on `counter`.
#[allow(clippy::too_many_arguments)]
fn access(
    ir: &mut Ir,
    idx: usize,
    t: &Target,
    ats: &[String],
    ok: &str,
    data: &[u16],
    n: u32,
    counter: usize,
) -> Lower {
    let (slow, done, join) = (ir.label("slow"), ir.label("done"), ir.label("join"));
    let go = ir.label("try");
    ir.line(&format!("br i1 {ok}, label %{go}, label %{slow}, !prof !1"));
    ir.start(&go);
    let exec = ir.exec()?;
    let full = ir.val(&format!("icmp eq {} {exec}, -1", ir.mi()));
    if t.kind.store() {
        let vals: Vec<Vec<String>> = data.iter().map(|&d| (0..n).map(|k| ir.vload(d + k as u16)).collect()).collect();
        store_lanes(ir, t, ats, &vals, &full, &exec, &slow)?;
        ir.line(&format!("br label %{done}"));
    } else {
        let mut all_vals = Vec::new();
        for at in ats {
            all_vals.extend(load_lanes(ir, t, at, n, &full, &exec, &slow)?);
        }
        // Written only once every element is loaded: a failed check must leave the
        // registers (the address among them) to the interpreter untouched.
        for (k, v) in all_vals.iter().enumerate() {
            ir.vstore(data[0] + k as u16, v, &exec);
        }
        ir.line(&format!("br label %{done}"));
    }
    ir.start(&slow);
    ir.callout(idx);
    ir.line(&format!("br label %{join}"));
    ir.start(&done);
    ir.count(counter);
    ir.line(&format!("br label %{join}"));
    ir.start(&join);
    Ok(())
}

/// `<N x i64>` of `lane * step`.
fn lane_steps(ir: &Ir, step: u32) -> String {
    let v: Vec<String> = (0..ir.n).map(|l| format!("i64 {}", l as u32 * step)).collect();
    format!("<{}>", v.join(", "))
}

/// Whether every lane of the `<N x i1>` `b` is set.
fn all(ir: &mut Ir, b: &str) -> String {
    let m = ir.mask_of(b);
    ir.val(&format!("icmp eq {} {m}, -1", ir.mi()))
}

/// Whether `at` (`<N x i64>`) steps by `step` from lane to lane; and its first lane.
fn consecutive(ir: &mut Ir, at: &str, step: u32) -> (String, String) {
    let vi64 = ir.vi64();
    let first = ir.val(&format!("extractelement {vi64} {at}, i32 0"));
    let f = ir.splat("i64", &first);
    let steps = lane_steps(ir, step);
    let expect = ir.val(&format!("add {vi64} {f}, {steps}"));
    let c = ir.val(&format!("icmp eq {vi64} {at}, {expect}"));
    (all(ir, &c), first)
}

/// The host address of the span of `len` bytes at offset `off` of the target, or null:
/// the span must end at or below the limit (without wrapping) and lie in one BO (the
/// translation helper) or the LDS allocation.
fn locate(ir: &mut Ir, t: &Target, off: &str, len: &str, write: bool) -> String {
    let end = ir.val(&format!("add i64 {off}, {len}"));
    let nowrap = ir.val(&format!("icmp ugt i64 {end}, {off}"));
    let inr = ir.val(&format!("icmp ule i64 {end}, {}", t.limit));
    let inr = ir.val(&format!("and i1 {nowrap}, {inr}"));
    let (yes, no) = (ir.label("loc"), ir.label("locd"));
    let from = ir.block.clone();
    ir.line(&format!("br i1 {inr}, label %{yes}, label %{no}"));
    ir.start(&yes);
    let p = if t.kind.lds() {
        let lp = ir.field("%env", ir.lay.env_lds);
        let lds = ir.val(&format!("load ptr, ptr {lp}, align 8"));
        ir.val(&format!("getelementptr i8, ptr {lds}, i64 {off}"))
    } else {
        let va = ir.val(&format!("add i64 {}, {off}", t.base));
        let f = ir.lay.translate;
        ir.val(&format!("call ptr inttoptr (i64 {f} to ptr)(ptr %env, i64 {va}, i64 {len}, i32 {})", write as u32))
    };
    let from_yes = ir.block.clone();
    ir.line(&format!("br label %{no}"));
    ir.start(&no);
    ir.val(&format!("phi ptr [ null, %{from} ], [ {p}, %{from_yes} ]"))
}

/// Goes on when `p` is not null, else to `slow`.
fn or_slow(ir: &mut Ir, p: &str, slow: &str) {
    let ok = ir.val(&format!("icmp ne ptr {p}, null"));
    let next = ir.label("ok");
    ir.line(&format!("br i1 {ok}, label %{next}, label %{slow}, !prof !1"));
    ir.start(&next);
}

/// The lane-by-lane path: the offsets go to the scratch array and the access helper
/// (`exec/tier.rs`) checks the active lanes' span, locates it once and moves each lane's
/// dwords between there and the scratch array (where a store's values already are); goes
/// on when it did, else to `slow`.
fn helper(ir: &mut Ir, t: &Target, ats: &[String], n: u32, exec: &str, slow: &str) {
    let (lanes, vi64) = (ir.n, ir.vi64());
    for (e, o) in ats.iter().enumerate() {
        let q = ir.val(&format!("getelementptr i64, ptr %scratch_at, i64 {}", e * lanes));
        ir.line(&format!("store {vi64} {o}, ptr {q}, align 32"));
    }
    let mask = if lanes == 32 { ir.val(&format!("zext i32 {exec} to i64")) } else { exec.to_string() };
    let f = ir.lay.access;
    let r = ir.val(&format!(
        "call i32 inttoptr (i64 {f} to ptr)(ptr %env, i32 {}, i64 {}, ptr %scratch_at, i64 {mask}, i32 {lanes}, \
         i32 {n}, i32 {}, ptr %scratch_data, i64 {})",
        t.kind as u32,
        t.base,
        ats.len(),
        t.limit
    ));
    let ok = ir.val(&format!("icmp ne i32 {r}, 0"));
    let next = ir.label("ok");
    ir.line(&format!("br i1 {ok}, label %{next}, label %{slow}, !prof !1"));
    ir.start(&next);
}

/// The most dwords per lane the whole-vector paths move: de-interleaving or interleaving
/// three or four dwords per lane costs LLVM's instruction selection about 40 ms per wave64
/// instruction (n = 2: 6 ms), more than the helper loses at run time.
const VECTOR_DWORDS: u32 = 2;

/// The helper's loads: its `n` result vectors from the scratch array.
fn helper_loads(ir: &mut Ir, t: &Target, at: &str, n: u32, exec: &str, slow: &str) -> Vec<String> {
    helper(ir, t, &[at.to_string()], n, exec, slow);
    let (vi, w) = (ir.vi(), ir.n);
    (0..n as usize)
        .map(|k| {
            let q = ir.val(&format!("getelementptr i32, ptr %scratch_data, i64 {}", k * w));
            ir.val(&format!("load {vi}, ptr {q}, align 32"))
        })
        .collect()
}

/// Loads `n` dwords per active lane at offsets `at` of the target: whole vectors for a
/// full wave of consecutive lanes (up to [`VECTOR_DWORDS`]), else the helper. Returns the `n` vectors (inactive
/// lanes: anything); a failed check goes to `slow`.
pub(super) fn load_lanes(
    ir: &mut Ir,
    t: &Target,
    at: &str,
    n: u32,
    full: &str,
    exec: &str,
    slow: &str,
) -> Lower<Vec<String>> {
    if n > VECTOR_DWORDS {
        return Ok(helper_loads(ir, t, at, n, exec, slow));
    }
    let (vi, w) = (ir.vi(), ir.n);
    let (contig, first) = consecutive(ir, at, 4 * n);
    let vec_ok = ir.val(&format!("and i1 {full}, {contig}"));
    let (lv, ls, lj) = (ir.label("lvec"), ir.label("lhelp"), ir.label("ljoin"));
    ir.line(&format!("br i1 {vec_ok}, label %{lv}, label %{ls}"));
    // Consecutive lanes: n * N dwords from the first lane's place, de-interleaved.
    ir.start(&lv);
    let total = w * n as usize;
    let p = locate(ir, t, &first, &(4 * total).to_string(), false);
    or_slow(ir, &p, slow);
    let whole = ir.val(&format!("load <{total} x i32>, ptr {p}, align 1"));
    let vecs: Vec<String> = (0..n as usize)
        .map(|k| {
            if n == 1 {
                return whole.clone();
            }
            let idx: Vec<String> = (0..w).map(|l| format!("i32 {}", l * n as usize + k)).collect();
            ir.val(&format!(
                "shufflevector <{total} x i32> {whole}, <{total} x i32> poison, <{w} x i32> <{}>",
                idx.join(", ")
            ))
        })
        .collect();
    let from_v = ir.block.clone();
    ir.line(&format!("br label %{lj}"));
    // Anything else: the helper, through the scratch array.
    ir.start(&ls);
    let helps = helper_loads(ir, t, at, n, exec, slow);
    let from_s = ir.block.clone();
    ir.line(&format!("br label %{lj}"));
    ir.start(&lj);
    Ok((0..n as usize)
        .map(|k| ir.val(&format!("phi {vi} [ {}, %{from_v} ], [ {}, %{from_s} ]", vecs[k], helps[k])))
        .collect())
}

/// Stores `vals[e][k]` (element `e`'s dword `k` of each lane) at offsets `ats[e]` of the
/// target: one vector store for a full wave of consecutive lanes writing one element (of
/// up to [`VECTOR_DWORDS`]), else the helper, which writes lane by lane in the interpreter's
/// order. A failed check goes to `slow`.
pub(super) fn store_lanes(
    ir: &mut Ir,
    t: &Target,
    ats: &[String],
    vals: &[Vec<String>],
    full: &str,
    exec: &str,
    slow: &str,
) -> Lower {
    let (vi, w) = (ir.vi(), ir.n);
    let n = vals[0].len();
    let (lv, ls, lj) = (ir.label("svec"), ir.label("shelp"), ir.label("sjoin"));
    if ats.len() == 1 && n as u32 <= VECTOR_DWORDS {
        let (contig, first) = consecutive(ir, &ats[0], 4 * n as u32);
        let ok = ir.val(&format!("and i1 {full}, {contig}"));
        ir.line(&format!("br i1 {ok}, label %{lv}, label %{ls}"));
        ir.start(&lv);
        let total = w * n;
        let p = locate(ir, t, &first, &(4 * total).to_string(), true);
        or_slow(ir, &p, slow);
        let cat = interleave(ir, &vals[0]);
        ir.line(&format!("store <{total} x i32> {cat}, ptr {p}, align 1"));
        ir.line(&format!("br label %{lj}"));
    } else {
        ir.line(&format!("br label %{ls}"));
    }
    ir.start(&ls);
    for (e, v) in vals.iter().enumerate() {
        for (k, x) in v.iter().enumerate() {
            let q = ir.val(&format!("getelementptr i32, ptr %scratch_data, i64 {}", (e * n + k) * w));
            ir.line(&format!("store {vi} {x}, ptr {q}, align 32"));
        }
    }
    helper(ir, t, ats, n as u32, exec, slow);
    ir.line(&format!("br label %{lj}"));
    ir.start(&lj);
    Ok(())
}

/// One vector of `vals.len()` (1, 2 or 4) lane vectors' elements, lane by lane: element
/// `l * n + k` is lane `l` of `vals[k]`.
fn interleave(ir: &mut Ir, vals: &[String]) -> String {
    let (w, n) = (ir.n, vals.len());
    if n == 1 {
        return vals[0].clone();
    }
    let mut parts = vals.to_vec();
    while parts.len() > 1 {
        let width = w * (n / parts.len());
        let idx: Vec<String> = (0..2 * width).map(|i| format!("i32 {i}")).collect();
        parts = parts
            .chunks(2)
            .map(|p| {
                ir.val(&format!(
                    "shufflevector <{width} x i32> {}, <{width} x i32> {}, <{} x i32> <{}>",
                    p[0],
                    p[1],
                    2 * width,
                    idx.join(", ")
                ))
            })
            .collect();
    }
    let total = w * n;
    let pick: Vec<String> = (0..total).map(|i| format!("i32 {}", (i % n) * w + i / n)).collect();
    ir.val(&format!(
        "shufflevector <{total} x i32> {}, <{total} x i32> poison, <{total} x i32> <{}>",
        parts[0],
        pick.join(", ")
    ))
}

/// Whether VGPRs `regs` (first, count) are all allocated to the wave.
pub(super) fn allocated(ir: &mut Ir, regs: &[(u16, u32)]) -> String {
    let hi = regs.iter().map(|&(r, n)| r as u32 + n).max().unwrap_or(0);
    let p = ir.field("%w", ir.lay.vgprs);
    let v = ir.val(&format!("load i32, ptr {p}, align 4"));
    ir.val(&format!("icmp ule i32 {hi}, {v}"))
}

fn unaligned_mode(ir: &mut Ir) -> String {
    let p = ir.field("%env", ir.lay.env_unaligned);
    let v = ir.val(&format!("load i32, ptr {p}, align 4"));
    ir.val(&format!("icmp ne i32 {v}, 0"))
}

/// EXEC != 0.
pub(super) fn any_active(ir: &mut Ir) -> Lower<String> {
    let exec = ir.exec()?;
    Ok(ir.val(&format!("icmp ne {} {exec}, 0", ir.mi())))
}

/// The VGPR number of an operand.
pub(super) fn vreg(o: &Operand) -> Lower<u16> {
    match *o {
        Operand::Vgpr(r) => Ok(r),
        _ => Err(NotInline),
    }
}

/// s_load_b32 .. s_load_b512: `n` dwords at `(SBASE & 2^48 - 1) + offset + SOFFSET`,
/// dword aligned, into SDATA.. (exec/smem.rs).
fn smem(ir: &mut Ir, inst: &Inst, idx: usize) -> Lower {
    let n = match inst.op {
        S_LOAD_B32 => 1,
        S_LOAD_B64 => 2,
        S_LOAD_B128 => 4,
        S_LOAD_B256 => 8,
        S_LOAD_B512 => 16,
        _ => return Err(NotInline),
    };
    let Operand::Sgpr(d) = inst.dst else { return Err(NotInline) };
    // Destinations the register rules make special (TTMPs, NULL, M0, EXEC) stay in the
    // interpreter.
    if d as usize + n > 106 {
        return Err(NotInline);
    }
    let base = ir.s64(&inst.src[0])?;
    let soff = match inst.src[1] {
        Operand::Sgpr(_) => ir.s32(&inst.src[1])?,
        _ => "0".into(),
    };
    let soff = ir.val(&format!("zext i32 {soff} to i64"));
    let off = ir.val(&format!("add i64 {soff}, {}", inst.imm as i64));
    let base = ir.val(&format!("and i64 {base}, 281474976710655"));
    let addr = ir.val(&format!("add i64 {base}, {off}"));
    let addr = ir.val(&format!("and i64 {addr}, -4"));
    let f = ir.lay.translate;
    let p = ir.val(&format!("call ptr inttoptr (i64 {f} to ptr)(ptr %env, i64 {addr}, i64 {}, i32 0)", 4 * n));
    let ok = ir.val(&format!("icmp ne ptr {p}, null"));
    let join = split(ir, &ok, idx);
    // Counted (out of order) before it reads, as `track_inst` does.
    ir.count(LGKM);
    for k in 0..n {
        let q = ir.val(&format!("getelementptr i8, ptr {p}, i64 {}", 4 * k));
        let v = ir.val(&format!("load i32, ptr {q}, align 1"));
        ir.sset(d + k as u8, &v)?;
    }
    ir.line(&format!("br label %{join}"));
    ir.start(&join);
    Ok(())
}

/// Dwords moved by a whole-dword load or store opcode, and whether it stores.
fn dwords(inst: &Inst) -> Option<(u32, bool)> {
    Some(match inst.op {
        BUFFER_LOAD_B32 | GLOBAL_LOAD_B32 => (1, false),
        BUFFER_LOAD_B64 | GLOBAL_LOAD_B64 => (2, false),
        BUFFER_LOAD_B96 | GLOBAL_LOAD_B96 => (3, false),
        BUFFER_LOAD_B128 | GLOBAL_LOAD_B128 => (4, false),
        BUFFER_STORE_B32 | GLOBAL_STORE_B32 => (1, true),
        BUFFER_STORE_B64 | GLOBAL_STORE_B64 => (2, true),
        BUFFER_STORE_B96 | GLOBAL_STORE_B96 => (3, true),
        BUFFER_STORE_B128 | GLOBAL_STORE_B128 => (4, true),
        _ => return None,
    })
}

/// MUBUF whole-dword loads and stores on a raw, unswizzled V# without IDXEN or TFE
/// (`buffer_fast`): every active lane's `offset + imm + size <= NUM_RECORDS`, at
/// `base + SOFFSET + offset + imm`.
fn mubuf(ir: &mut Ir, inst: &Inst, idx: usize) -> Lower {
    let Some((n, store)) = dwords(inst) else { return Err(NotInline) };
    if inst.flags & (mflag::IDXEN | mflag::TFE) != 0 || inst.op.has_flag(F::LDS) {
        return Err(NotInline);
    }
    let (vaddr, vdata) = (vreg(&inst.src[0])?, vreg(&inst.src[1])?);
    let Operand::Sgpr(rs) = inst.src[2] else { return Err(NotInline) };
    let rs = rs & !3;
    let offen = inst.flags & mflag::OFFEN != 0;
    let w: Vec<String> = (0..4).map(|k| ir.sget(rs + k)).collect::<Lower<_>>()?;
    let soff = ir.s32(&inst.src[3])?;
    let any = any_active(ir)?;
    // The V#: base 47:0; SWIZZLE_ENABLE 0; FORMAT not INVALID; ADD_TID 0, OOB_SELECT 3
    // (raw) and TYPE 0 (buffer): bits 31:23 are exactly 0b0011_0000_0.
    let lo = ir.val(&format!("zext i32 {} to i64", w[0]));
    let hi = ir.val(&format!("and i32 {}, 65535", w[1]));
    let hi = ir.val(&format!("zext i32 {hi} to i64"));
    let hi = ir.val(&format!("shl i64 {hi}, 32"));
    let vbase = ir.val(&format!("or i64 {lo}, {hi}"));
    let swz = ir.val(&format!("lshr i32 {}, 30", w[1]));
    let fmt = ir.val(&format!("and i32 {}, {}", w[3], 0x3f << 12));
    let ctl = ir.val(&format!("and i32 {}, {}", w[3], (1u32 << 23 | 0xfu32 << 28) as i32));
    let c1 = ir.val(&format!("icmp eq i32 {swz}, 0"));
    let c2 = ir.val(&format!("icmp ne i32 {fmt}, 0"));
    let c3 = ir.val(&format!("icmp eq i32 {ctl}, {}", 3 << 28));
    let um = unaligned_mode(ir);
    let al = allocated(ir, &[(vaddr, offen as u32), (vdata, n)]);
    let mut ok = any;
    for c in [c1, c2, c3, um, al] {
        ok = and1(ir, &ok, &c);
    }
    let soff = ir.val(&format!("zext i32 {soff} to i64"));
    let base = ir.val(&format!("add i64 {vbase}, {soff}"));
    // Each lane's range-checked offset, exact in 64 bits.
    let vi64 = ir.vi64();
    let imm = ir.splat_const("i64", &(inst.imm as u32).to_string());
    let at = if offen {
        let o = ir.vload(vaddr);
        let o = ir.val(&format!("zext {} {o} to {vi64}", ir.vi()));
        ir.val(&format!("add {vi64} {o}, {imm}"))
    } else {
        imm
    };
    let nr = ir.val(&format!("zext i32 {} to i64", w[2]));
    let kind = if store { Access::Store } else { Access::Load };
    let t = Target { kind, base: &base, limit: &nr };
    access(ir, idx, &t, &[at], &ok, &[vdata], n, if store { VS } else { VM })
}

/// GLOBAL whole-dword loads and stores: `SADDR + zext(VADDR) + offset` or the 64-bit
/// VADDR plus offset, every active lane inside one BO.
fn global(ir: &mut Ir, inst: &Inst, idx: usize) -> Lower {
    let Some((n, store)) = dwords(inst) else { return Err(NotInline) };
    let vaddr = vreg(&inst.src[0])?;
    let vdata = if store { vreg(&inst.src[1])? } else { vreg(&inst.dst)? };
    let (vi, vi64) = (ir.vi(), ir.vi64());
    let off = inst.imm as i64;
    let (at, width) = match inst.src[2] {
        Operand::Sgpr(_) => {
            let s = ir.s64(&inst.src[2])?;
            let lo = ir.vload(vaddr);
            let lo = ir.val(&format!("zext {vi} {lo} to {vi64}"));
            let b = ir.val(&format!("add i64 {s}, {off}"));
            let b = ir.splat("i64", &b);
            (ir.val(&format!("add {vi64} {lo}, {b}")), 1)
        }
        _ => {
            let (lo, hi) = (ir.vload(vaddr), ir.vload(vaddr + 1));
            let a = ir.join_lanes64(&lo, &hi);
            let c = ir.splat_const("i64", &off.to_string());
            (ir.val(&format!("add {vi64} {a}, {c}")), 2)
        }
    };
    let any = any_active(ir)?;
    let um = unaligned_mode(ir);
    let al = allocated(ir, &[(vaddr, width), (vdata, n)]);
    let ok = and1(ir, &any, &um);
    let ok = and1(ir, &ok, &al);
    let kind = if store { Access::Store } else { Access::Load };
    // Absolute addresses: base 0, no range limit.
    let t = Target { kind, base: "0", limit: "-1" };
    access(ir, idx, &t, &[at], &ok, &[vdata], n, if store { VS } else { VM })
}

/// LDS whole-dword loads and stores, one or two addresses (exec/ds.rs): every active
/// lane's elements inside the allocation (UNALIGNED mode uses the addresses as they are).
fn ds(ir: &mut Ir, inst: &Inst, idx: usize) -> Lower {
    let (size, two, stride, store) = match inst.op {
        DS_LOAD_B32 => (4, false, 1, false),
        DS_LOAD_B64 => (8, false, 1, false),
        DS_LOAD_B128 => (16, false, 1, false),
        DS_LOAD_2ADDR_B32 => (4, true, 1, false),
        DS_LOAD_2ADDR_STRIDE64_B32 => (4, true, 64, false),
        DS_LOAD_2ADDR_B64 => (8, true, 1, false),
        DS_LOAD_2ADDR_STRIDE64_B64 => (8, true, 64, false),
        DS_STORE_B32 => (4, false, 1, true),
        DS_STORE_B64 => (8, false, 1, true),
        DS_STORE_B128 => (16, false, 1, true),
        DS_STORE_2ADDR_B32 => (4, true, 1, true),
        DS_STORE_2ADDR_STRIDE64_B32 => (4, true, 64, true),
        DS_STORE_2ADDR_B64 => (8, true, 1, true),
        DS_STORE_2ADDR_STRIDE64_B64 => (8, true, 64, true),
        _ => return Err(NotInline),
    };
    if inst.flags & mflag::GDS != 0 {
        return Err(NotInline);
    }
    let dpe = size / 4;
    let addr_reg = vreg(&inst.src[0])?;
    // Element offsets: one address adds {offset1, offset0}; two addresses scale each
    // 8-bit offset by the element size (x 64 for stride64).
    let eoff: Vec<u32> = if two {
        vec![inst.imm as u32 * size * stride, inst.imm1 as u32 * size * stride]
    } else {
        vec![(inst.imm as u32) | (inst.imm1 as u32) << 8]
    };
    let mut regs = vec![(addr_reg, 1)];
    let data: Vec<u16> = if store {
        let mut d = vec![vreg(&inst.src[1])?];
        if two {
            d.push(vreg(&inst.src[2])?);
        }
        d
    } else {
        vec![vreg(&inst.dst)?]
    };
    if store {
        regs.extend(data.iter().map(|&d| (d, dpe)));
    } else {
        regs.push((data[0], dpe * eoff.len() as u32));
    }
    let (vi, vi64) = (ir.vi(), ir.vi64());
    let base = ir.vload(addr_reg);
    let any = any_active(ir)?;
    let um = unaligned_mode(ir);
    let al = allocated(ir, &regs);
    let ok = and1(ir, &any, &um);
    let ok = and1(ir, &ok, &al);
    // 32-bit wrapping addresses, checked against the allocation's length by the helper.
    let ats: Vec<String> = eoff
        .iter()
        .map(|&e| {
            let c = ir.ci(e as i64);
            let a = ir.ibin("add", &base, &c);
            ir.val(&format!("zext {vi} {a} to {vi64}"))
        })
        .collect();
    let lq = ir.field("%env", ir.lay.env_lds_len);
    let lds_len = ir.val(&format!("load i64, ptr {lq}, align 8"));
    let kind = if store { Access::LdsStore } else { Access::LdsLoad };
    let t = Target { kind, base: "0", limit: &lds_len };
    access(ir, idx, &t, &ats, &ok, &data, dpe, LGKM)
}
