//! Buffer instructions (MUBUF, MTBUF) addressed through a V# (RDNA3-NOTES,
//! "Buffer instructions").
//!
//! One path serves every buffer load and store: per lane, the element's index and offset
//! (IDXEN / OFFEN VGPRs, the instruction offset, ADD_TID_ENABLE), its address (linear or
//! swizzled), the range check (OOB_SELECT) and the alignment check, then the memory moves
//! in pieces of at most a dword (piece `k` holds the element's bytes `4k .. 4k + 4`), and
//! the data is converted between memory and VGPRs (opcode-derived sizes, or a format from
//! the V# or the instruction; D16 halves).
//!
//! Decisions where the notes (RDNA3-NOTES, "Buffer instructions" and the sections after it)
//! are silent (each has a test in `tests/exec_buffer.rs`):
//! - A V# whose FORMAT is INVALID (0) is a null resource for every MUBUF instruction, as
//!   the all-zero V# is (RDNA3-NOTES, "Null buffer resource", ties the two): loads return
//!   zero, stores and atomics do nothing. An MTBUF instruction with format INVALID or a
//!   number past the table (64..127) is the same.
//! - Components a format does not have read as 0 (the identity select of RDNA3-NOTES,
//!   "Buffer data formats", is X000, XY00, XYZ0); `SQ_SEL_1` gives 1.0 for float-valued
//!   formats, 1 for UINT/SINT (1.0 with a null format); the reserved selects 2 and 3
//!   give 0. Stores apply the inverse select ([`store_sel`]): the data component `i` goes to
//!   the memory component `dst_sel[i]` names, so a T# that rotates components on loads
//!   (RADV's B4G4R4A4: Y, Z, W, X) stores them back in place; a memory component no
//!   select names, and the components the instruction does not supply, are 0.
//! - The out-of-range value 1 for `SQ_SEL_1` components applies where DST_SEL applies
//!   (MUBUF format loads); MTBUF and non-format loads use the identity select.
//! - Range checks use the linear offset `stride * index + offset` also for swizzled V#s.
//!   An out-of-range lane is not checked for alignment.
//! - Format accesses must be aligned to their component size (1, 2 or 4 bytes) in every
//!   alignment mode: a misaligned one returns zero or stores nothing and raises MEMVIOL.
//! - An out-of-range atomic with GLC returns 0.
//! - D16 loads keep the VGPR half they do not write (d16_format_xyz keeps the high half of
//!   its second register).
//! - TFE on loads: the status VGPR after the data takes 1 in the lanes whose element lies
//!   in PRT pages (a sparse resource's unbound part: not resident) and is left as it was
//!   elsewhere ([`Wave::tfe_status`]). TFE on stores is not executed (illegal
//!   instruction): no source says what it does.
//! - Conversions (`crate::format`): integer formats saturate on stores; D16 loads of
//!   integer formats keep the low 16 bits; `11_11_10` has a 10-bit X and `10_10_10_2` a
//!   2-bit X (names list components from the most significant); SWIZZLE_ENABLE 2 means
//!   8-byte elements.
//! - The loads into LDS (`buffer_load_lds_*`) are not executed: the notes do not describe
//!   them (they stay decoded only).

use super::vmem::{align_rule, aligned, lane_bounds, misaligned, move_dwords};
use super::{illegal, Ctx, FaultKind, Wave};
use crate::format::BufFormat;
use crate::isa::decode::{mflag, Inst, Operand};
use crate::isa::table::{Access, Op, Ty, D16};
use crate::rsrc::{sel, BufferResource, OobSelect};

/// What a buffer opcode moves (from its row's memory facts).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// Data format derived from the opcode: `size` bytes, sign-extended if `signed`.
    Plain {
        size: u32,
        signed: bool,
        d16: D16,
    },
    /// A format conversion of `n` components.
    Format {
        n: usize,
        d16: D16,
    },
    Atomic,
}

/// The kind of a MUBUF or MTBUF opcode and whether it stores, from its row
/// ([`Op::mem`]): a plain load or store, a format conversion, or an atomic.
#[inline]
fn kind(op: Op) -> (Kind, bool) {
    let Some(m) = op.mem() else { return (Kind::Atomic, false) };
    let k = match m.access {
        Access::Load | Access::Store if m.comps > 0 => Kind::Format { n: m.comps as usize, d16: m.d16 },
        Access::Load | Access::Store => Kind::Plain { size: m.size as u32, signed: m.signed, d16: m.d16 },
        _ => Kind::Atomic,
    };
    (k, m.access == Access::Store)
}

/// RDNA3-NOTES, "Buffer addressing": the byte offset of (`index`, `offset`) from
/// the base: `stride * index + offset` for linear buffers; for swizzled ones the
/// equation ("Swizzled buffer addressing").
#[inline]
fn buffer_offset(v: &BufferResource, index: u64, offset: u64) -> u64 {
    match v.element_size() {
        None => v.stride as u64 * index + offset,
        Some(es) => {
            let (es, is) = (es as u64, v.index_stride_records() as u64);
            (index / is * v.stride as u64 + offset / es * es) * is + index % is * es + offset % es
        }
    }
}

/// RDNA3-NOTES, "Buffer range checking": whether `size` bytes at (`index`, `offset`) are in
/// range under the V#'s OOB_SELECT.
#[inline]
fn in_range(v: &BufferResource, index: u64, offset: u64, size: u64) -> bool {
    let nr = v.num_records as u64;
    match v.oob_select {
        OobSelect::StructuredWithOffset => index < nr && offset + size <= v.stride as u64,
        OobSelect::Structured => index < nr,
        OobSelect::Disabled => nr != 0,
        OobSelect::Raw => v.stride as u64 * index + offset + size <= nr,
    }
}

/// The value select `s` gives from `vals` (`one` for `SQ_SEL_1`).
#[inline]
pub(super) fn pick(s: u32, vals: &[u32; 4], one: u32) -> u32 {
    match s {
        sel::ONE => one,
        sel::X..=sel::W => vals[(s - sel::X) as usize],
        _ => 0,
    }
}

const IDENTITY: [u32; 4] = [sel::X, sel::Y, sel::Z, sel::W];

/// The selects a store applies to its data, for [`pick`]: memory component `c` takes the
/// data component `i` whose DST_SEL names `c` (the lowest such `i`), and 0 where none
/// does. A load reads memory component `dst_sel[i]` into `i`; a store writes it back there.
pub(crate) fn store_sel(dst_sel: [u32; 4]) -> [u32; 4] {
    std::array::from_fn(|c| (0..4).find(|&i| dst_sel[i] == sel::X + c as u32).map_or(sel::ZERO, |i| sel::X + i as u32))
}

impl Wave {
    pub(super) fn mubuf(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        if inst.op.info().ty[0] == Ty::N {
            // buffer_gl0_inv, buffer_gl1_inv: caches are coherent in this model.
            return Ok(());
        }
        self.buffer(inst, ctx, None)
    }

    pub(super) fn mtbuf(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        self.buffer(inst, ctx, Some(inst.imm1 as u32))
    }

    /// A MUBUF (`tformat` None) or MTBUF (`tformat` = the instruction's format) load,
    /// store or atomic.
    fn buffer(&mut self, inst: &Inst, ctx: &mut Ctx, tformat: Option<u32>) -> Result<(), FaultKind> {
        let (kind, store) = kind(inst.op);
        let tfe = inst.flags & mflag::TFE != 0;
        if tfe && (store || kind == Kind::Atomic) {
            return Err(illegal(format!(
                "{} with tfe (texture-fail status) on a store is not executed by softnavi",
                inst.op.name()
            )));
        }
        let v = self.vsharp(&inst.src[2]);
        // RDNA3-NOTES, "Resource type mismatch": a V# whose type is
        // not "buffer" makes the instruction do nothing at all.
        if v.kind != 0 {
            return Ok(());
        }
        let info = inst.op.info();
        let glc = inst.flags & mflag::GLC != 0;
        let vdata = match inst.src[1] {
            Operand::Vgpr(r) => r,
            _ => 0,
        };
        let (fmt, elem, pieces_checked) = match kind {
            Kind::Plain { size, .. } => (None, size, size > 4),
            Kind::Format { .. } => {
                let f = BufFormat::from_unified(tformat.unwrap_or(v.format));
                (f, f.map_or(4, |f| f.bytes as u32), false)
            }
            Kind::Atomic => (None, 4 * info.ty[0].dwords(false), false),
        };
        // Registers the instruction returns data to.
        let ret = match kind {
            Kind::Plain { size, d16, .. } => {
                if d16 == D16::No {
                    (size / 4).max(1)
                } else {
                    1
                }
            }
            Kind::Format { n, d16: D16::No } => n as u32,
            Kind::Format { n, .. } => (n as u32).div_ceil(2),
            Kind::Atomic => info.ty[0].dwords(false) * glc as u32,
        };
        let writes = !store && ret > 0;
        // RDNA3-NOTES, "VGPR out-of-range behaviour": returned registers outside the
        // allocation issue the instruction with EXEC = 0.
        if writes && !self.vgprs_in_range(vdata, ret + tfe as u32) {
            return Ok(());
        }
        let exec = self.exec();
        // Null resources (RDNA3-NOTES, "Null buffer resource"): the all-zero V#, and the
        // decision that a V# or MTBUF format INVALID is one.
        let null = match kind {
            Kind::Format { .. } => fmt.is_none() || (tformat.is_none() && v.format == 0),
            _ => v.format == 0,
        };
        let active = if null { 0 } else { exec };
        let vaddr = match inst.src[0] {
            Operand::Vgpr(r) => r,
            _ => 0,
        };

        // ---- The fast path: whole dwords, every lane in range and in one BO ----
        let fast = match kind {
            Kind::Plain { size, d16: D16::No, .. } if size >= 4 => Some((size, false)),
            Kind::Atomic => Some((elem, true)),
            _ => None,
        };
        if let (Some((size, atomic)), false) = (fast, null || tfe || v.element_size().is_some()) {
            let done = if self.lanes == 32 {
                self.buffer_fast::<32>(inst, ctx, &v, size, store, atomic, vaddr, vdata)
            } else {
                self.buffer_fast::<64>(inst, ctx, &v, size, store, atomic, vaddr, vdata)
            };
            if let Some(r) = done {
                return r;
            }
        }

        // ---- Addresses, range and alignment checks ----
        let (idxen, offen) = (inst.flags & mflag::IDXEN != 0, inst.flags & mflag::OFFEN != 0);
        let index_v = if idxen { self.vmem_src(&Operand::Vgpr(vaddr)) } else { [0; 64] };
        let offset_v = if offen { self.vmem_src(&Operand::Vgpr(vaddr.wrapping_add(idxen as u16))) } else { [0; 64] };
        // The SGPR offset is part of the base, not of the range-checked offset.
        let base = v.base.wrapping_add(self.s32(&inst.src[3]) as u64);
        let npieces = elem.div_ceil(4) as usize;
        let chunk = |k: usize| (elem - 4 * k as u32).min(4) as u64;
        let mode = ctx.vmid.alignment();
        let mut addr = [[0u64; 4]; 64];
        let mut ok = [0u8; 64];
        let mut bad: Option<(usize, u64)> = None;
        for l in 0..self.lanes {
            if active >> l & 1 == 0 {
                continue;
            }
            let index = index_v[l] as u64 + if v.add_tid_enable { (l & 63) as u64 } else { 0 };
            // The offset is a 32-bit sum that wraps (RDNA3-NOTES, "Buffer addressing").
            let offset = offset_v[l].wrapping_add(inst.imm as u32) as u64;
            let mut bits = 0u8;
            for k in 0..npieces {
                let off = offset + 4 * k as u64;
                addr[l][k] = base.wrapping_add(buffer_offset(&v, index, off));
                let inside = if pieces_checked {
                    in_range(&v, index, off, chunk(k))
                } else {
                    in_range(&v, index, offset, elem as u64)
                };
                bits |= (inside as u8) << k;
            }
            if bits == 0 {
                continue;
            }
            // RDNA3-NOTES, "Memory alignment modes".
            let a0 = addr[l][0];
            let fixed = match (kind, fmt) {
                (Kind::Plain { size, .. }, _) => aligned(mode, a0, size),
                (Kind::Format { .. }, Some(f)) => (a0 % f.align() as u64 == 0).then_some(a0),
                _ => Some(a0),
            };
            match fixed {
                Some(a) => {
                    for p in addr[l].iter_mut().take(npieces) {
                        *p = p.wrapping_sub(a0).wrapping_add(a);
                    }
                    ok[l] = bits;
                }
                None => {
                    bad.get_or_insert((l, a0));
                }
            }
        }

        if kind == Kind::Atomic {
            return self.buffer_atomic(inst, ctx, &addr, &ok, exec, glc);
        }

        // ---- Data: VGPRs to bytes (stores), memory, bytes to VGPRs (loads) ----
        let mut bytes = [[0u8; 16]; 64];
        if store {
            let n = match kind {
                Kind::Plain { size, .. } => (size / 4).max(1) as usize,
                Kind::Format { n, d16: D16::No } => n,
                Kind::Format { n, .. } => n.div_ceil(2),
                Kind::Atomic => 0,
            };
            let mut data = [[0u32; 64]; 4];
            for (k, d) in data.iter_mut().enumerate().take(n) {
                *d = self.vmem_src(&Operand::Vgpr(vdata.wrapping_add(k as u16)));
            }
            let sel = if tformat.is_some() { IDENTITY } else { store_sel(v.dst_sel) };
            for l in 0..self.lanes {
                if ok[l] == 0 {
                    continue;
                }
                let b = &mut bytes[l];
                match (kind, fmt) {
                    (Kind::Plain { size, d16, .. }, _) if size <= 4 => {
                        let x = if d16 == D16::Hi { data[0][l] >> 16 } else { data[0][l] };
                        b[..4].copy_from_slice(&x.to_le_bytes());
                    }
                    (Kind::Plain { .. }, _) => {
                        for k in 0..n {
                            b[4 * k..4 * k + 4].copy_from_slice(&data[k][l].to_le_bytes());
                        }
                    }
                    (Kind::Format { n, d16 }, Some(f)) => {
                        let mut src = [0u32; 4];
                        for (i, s) in src.iter_mut().enumerate().take(n) {
                            *s = match d16 {
                                D16::No => data[i][l],
                                D16::Lo => data[i / 2][l] >> (16 * (i % 2)) & 0xffff,
                                D16::Hi => data[0][l] >> 16,
                            };
                        }
                        let one = f.one(d16 != D16::No);
                        let mut raw = [0u32; 4];
                        for (i, r) in raw.iter_mut().enumerate().take(f.comps as usize) {
                            let x = pick(sel[i], &src, one);
                            *r = if d16 == D16::No { f.store32(i, x) } else { f.store16(i, x as u16) };
                        }
                        *b = f.pack(raw);
                    }
                    _ => {}
                }
            }
        }
        self.buffer_move(ctx, &addr, &ok, &mut bytes, npieces, elem, store)?;
        if writes {
            self.buffer_writeback(vdata, kind, fmt, &v, tformat.is_some(), &ok, &bytes, exec);
        }
        if tfe && writes {
            self.tfe_status(ctx, vdata.wrapping_add(ret as u16), |l| (ok[l] != 0).then_some(addr[l][0]));
        }
        match bad {
            None => Ok(()),
            Some((l, a)) => Err(match kind {
                Kind::Format { .. } => FaultKind::MemoryViolation(format!(
                    "{} of lane {l} at {a:#x} is not aligned to its format's component size",
                    inst.op.name()
                )),
                _ => misaligned(inst, mode, l, a),
            }),
        }
    }

    /// TFE's status VGPR `status`: 1 in the lanes whose fetch failed, those whose texel
    /// (at the address `at` gives, for lanes that fetched) lies in PRT pages, a sparse
    /// resource's unbound part (Vulkan's residency code: not resident). The other lanes'
    /// status is left as it was: the hardware writes it only when a fetch fails, and
    /// compilers zero it first (RDNA3-NOTES, "Buffer instructions").
    pub(super) fn tfe_status(&mut self, ctx: &Ctx, status: u16, at: impl Fn(usize) -> Option<u64>) {
        let exec = self.exec();
        let lanes = self.lanes;
        let regs = self.v_mut(status as usize);
        for (l, r) in regs.iter_mut().enumerate().take(lanes) {
            if exec >> l & 1 != 0 && at(l).is_some_and(|a| ctx.vm.is_prt(a)) {
                *r = 1;
            }
        }
    }

    /// The fast path of a MUBUF load or store of whole dwords (4 to 16 bytes, no D16) or
    /// an atomic, on a non-null, linear (unswizzled) V#. It is taken only where it cannot
    /// differ from the general path: every dword of every active lane in range
    /// (RDNA3-NOTES, "Buffer range checking", per OOB_SELECT, judged from the lanes'
    /// highest index and offset), every lane aligned under a strict mode (RDNA3-NOTES,
    /// "Memory alignment modes"; DWORD mode aligns down), and, for loads and stores, the
    /// lanes' whole span in one BO, translated once. Then each active lane moves its dwords
    /// in lane order, as the general path does. `None` leaves the instruction to the
    /// general path, which nothing here has touched; so do a lane out of range, a
    /// misaligned lane and a span across BOs (a fault), which it reports.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn buffer_fast<const N: usize>(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        v: &BufferResource,
        size: u32,
        store: bool,
        atomic: bool,
        vaddr: u16,
        vdata: u16,
    ) -> Option<Result<(), FaultKind>> {
        let exec = self.exec_n::<N>();
        if exec == 0 || inst.imm < 0 {
            return None;
        }
        let (idxen, offen) = (inst.flags & mflag::IDXEN != 0, inst.flags & mflag::OFFEN != 0);
        let idx: [u32; N] = if idxen { self.vmem_row::<N>(vaddr) } else { [0; N] };
        let off: [u32; N] = if offen { self.vmem_row::<N>(vaddr.wrapping_add(idxen as u16)) } else { [0; N] };
        let (stride, imm, tid) = (v.stride as u64, inst.imm as u64, v.add_tid_enable);
        let (nr, size64) = (v.num_records as u64, size as u64);
        // The highest index (the lane id counted in with ADD_TID_ENABLE) and offset.
        let (_, imax, _) = lane_bounds(&idx, exec);
        let (_, omax, _) = lane_bounds(&off, exec);
        let index_hi = imax as u64 + if tid { 63 - exec.leading_zeros() as u64 } else { 0 };
        let off_hi = omax as u64 + imm;
        let inside = match v.oob_select {
            OobSelect::Raw => stride * index_hi + off_hi + size64 <= nr,
            OobSelect::Structured => index_hi < nr,
            OobSelect::StructuredWithOffset => index_hi < nr && off_hi + size64 <= stride,
            OobSelect::Disabled => nr != 0,
        };
        // Every active lane's linear offset `stride * index + offset` (RDNA3-NOTES,
        // "Buffer addressing") and its end fit 32 bits (always, for a raw buffer in range):
        // then they are computed exactly in 32-bit lanes.
        if !inside || stride * index_hi + off_hi + size64 > u32::MAX as u64 {
            return None;
        }
        let mut lin = [0u32; N];
        for l in 0..N {
            let index = idx[l].wrapping_add(if tid { l as u32 } else { 0 });
            lin[l] = (stride as u32).wrapping_mul(index).wrapping_add(off[l]).wrapping_add(imm as u32);
        }
        // The SGPR offset is part of the base, not of the range-checked offset.
        let base = v.base.wrapping_add(self.s32(&inst.src[3]) as u64);
        if atomic {
            // Atomics are not aligned by the mode; vmem_atomic checks their alignment to
            // their size and translates lane by lane.
            let mut a = [0u64; 64];
            for l in 0..N {
                a[l] = base.wrapping_add(lin[l] as u64);
            }
            return Some(self.vmem_atomic(inst, ctx, &a, None, exec));
        }
        let (lmin, lmax, low) = lane_bounds(&lin, exec);
        let (mask, unit) = align_rule(ctx.vmid.alignment(), size);
        if (base | low as u64) & (unit - 1) != 0 {
            return None;
        }
        // Aligning down is monotonic: the lowest and highest lanes stay so.
        let lo = base.checked_add(lmin as u64)? & mask;
        let hi = (base.checked_add(lmax as u64)? & mask).checked_add(size64)?;
        let p0 = ctx.tlb.translate(ctx.vm, lo, hi - lo, store).ok()?;
        // Each lane's place in [lo, hi): below 2^32, so 32-bit wrapping arithmetic gives it.
        let (b32, m32, lo32) = (base as u32, mask as u32, lo as u32);
        let mut at = [0usize; N];
        for l in 0..N {
            at[l] = (b32.wrapping_add(lin[l]) & m32).wrapping_sub(lo32) as usize;
        }
        let dwords = (size / 4) as usize;
        let mut rows = [0usize; 4];
        for (k, r) in rows.iter_mut().enumerate().take(dwords) {
            // Loads return to allocated registers (checked before); stores read v0 for
            // data registers that are not.
            let reg = vdata.wrapping_add(k as u16);
            *r = if store { self.vmem_reg(reg) } else { reg as usize } * N;
        }
        // SAFETY: translate() checked that [lo, hi) lies in one BO, and every active
        // lane's dwords lie in [lo, hi) (lo <= its aligned address, which plus size is at
        // most hi); the BO's memory is not the register file.
        unsafe { move_dwords::<N>(&mut self.vgpr, p0, &at, exec, &rows, dwords, store) };
        Some(Ok(()))
    }

    /// Moves the pieces whose `ok` bit is set between memory and `bytes`. When they all
    /// fall in one buffer object it is translated once; otherwise each piece is translated
    /// on its own, so that a fault reports the exact address.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn buffer_move(
        &self,
        ctx: &mut Ctx,
        addr: &[[u64; 4]; 64],
        ok: &[u8; 64],
        bytes: &mut [[u8; 16]; 64],
        npieces: usize,
        elem: u32,
        store: bool,
    ) -> Result<(), FaultKind> {
        let chunk = |k: usize| (elem - 4 * k as u32).min(4) as usize;
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for l in 0..self.lanes {
            for k in 0..npieces {
                if ok[l] >> k & 1 != 0 {
                    lo = lo.min(addr[l][k]);
                    hi = hi.max(addr[l][k].saturating_add(chunk(k) as u64));
                }
            }
        }
        if lo >= hi {
            return Ok(());
        }
        if let Ok(p0) = ctx.tlb.translate(ctx.vm, lo, hi - lo, store) {
            for l in 0..self.lanes {
                for k in 0..npieces {
                    if ok[l] >> k & 1 == 0 {
                        continue;
                    }
                    let c = chunk(k);
                    let b = &mut bytes[l][4 * k..4 * k + c];
                    // SAFETY: translate() checked that [lo, hi) lies in one BO, and this
                    // piece is inside [lo, hi).
                    unsafe {
                        let p = p0.add((addr[l][k] - lo) as usize);
                        if store {
                            std::ptr::copy_nonoverlapping(b.as_ptr(), p, c);
                        } else {
                            std::ptr::copy_nonoverlapping(p as *const u8, b.as_mut_ptr(), c);
                        }
                    }
                }
            }
            return Ok(());
        }
        for l in 0..self.lanes {
            for k in 0..npieces {
                if ok[l] >> k & 1 == 0 {
                    continue;
                }
                let b = &mut bytes[l][4 * k..4 * k + chunk(k)];
                if store {
                    ctx.tlb.write(ctx.vm, addr[l][k], b)?;
                } else {
                    ctx.tlb.read(ctx.vm, addr[l][k], b)?;
                }
            }
        }
        Ok(())
    }

    /// Converts loaded bytes to VGPR values and writes the lanes in `exec` (pieces not
    /// loaded read as zero; format loads out of range give 0, or 1 where DST_SEL is
    /// `SQ_SEL_1`).
    #[allow(clippy::too_many_arguments)]
    fn buffer_writeback(
        &mut self,
        vdata: u16,
        kind: Kind,
        fmt: Option<BufFormat>,
        v: &BufferResource,
        mtbuf: bool,
        ok: &[u8; 64],
        bytes: &[[u8; 16]; 64],
        exec: u64,
    ) {
        let reg = |k: usize| Operand::Vgpr(vdata.wrapping_add(k as u16));
        let mut out = [[0u32; 64]; 4];
        let n = match kind {
            Kind::Plain { size, signed, d16 } => {
                let old = if d16 != D16::No { self.vsrc(&reg(0)) } else { [0; 64] };
                let n = (size / 4).max(1) as usize;
                for l in 0..self.lanes {
                    let b = &bytes[l];
                    if size <= 4 {
                        let x = super::vmem::narrow([b[0], b[1], b[2], b[3]], size, signed);
                        out[0][l] = match d16 {
                            D16::No => x,
                            D16::Lo => old[l] & 0xffff_0000 | x & 0xffff,
                            D16::Hi => old[l] & 0xffff | x << 16,
                        };
                    } else {
                        for (k, o) in out.iter_mut().enumerate().take(n) {
                            o[l] = u32::from_le_bytes([b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]]);
                        }
                    }
                }
                n
            }
            Kind::Format { n, d16 } => {
                let sel = if mtbuf { IDENTITY } else { v.dst_sel };
                let regs = if d16 == D16::No { n } else { n.div_ceil(2) };
                // The halves a D16 load keeps.
                let keep = match (d16, n % 2) {
                    (D16::No, _) | (D16::Lo, 0) => None,
                    (D16::Lo, _) => Some((regs - 1, 0xffff_0000u32)),
                    (D16::Hi, _) => Some((0, 0xffff)),
                };
                let old = keep.map(|(r, _)| self.vsrc(&reg(r)));
                let one = fmt.map_or(if d16 == D16::No { 0x3f80_0000 } else { 0x3c00 }, |f| f.one(d16 != D16::No));
                for l in 0..self.lanes {
                    let mut vals = [0u32; 4];
                    match fmt {
                        Some(f) if ok[l] != 0 => {
                            let raw = f.unpack(&bytes[l]);
                            let mut comp = [0u32; 4];
                            for (i, c) in comp.iter_mut().enumerate().take(f.comps as usize) {
                                *c = if d16 == D16::No { f.load32(i, raw[i]) } else { f.load16(i, raw[i]) as u32 };
                            }
                            for (i, x) in vals.iter_mut().enumerate().take(n) {
                                *x = pick(sel[i], &comp, one);
                            }
                        }
                        _ => {
                            for (i, x) in vals.iter_mut().enumerate().take(n) {
                                *x = if !mtbuf && sel[i] == sel::ONE { one } else { 0 };
                            }
                        }
                    }
                    match d16 {
                        D16::No => {
                            for (i, o) in out.iter_mut().enumerate().take(n) {
                                o[l] = vals[i];
                            }
                        }
                        D16::Lo => {
                            for (r, o) in out.iter_mut().enumerate().take(regs) {
                                o[l] =
                                    vals[2 * r] & 0xffff | (vals.get(2 * r + 1).copied().unwrap_or(0) & 0xffff) << 16;
                            }
                        }
                        D16::Hi => out[0][l] = vals[0] << 16,
                    }
                    if let (Some((r, m)), Some(old)) = (keep, &old) {
                        out[r][l] = out[r][l] & !m | old[l] & m;
                    }
                }
                regs
            }
            Kind::Atomic => 0,
        };
        for (k, vals) in out.iter().enumerate().take(n) {
            self.vdst(&reg(k), vals, exec);
        }
    }

    /// A buffer atomic: the lanes in range and aligned do their read-modify-write (in lane
    /// order, with the host's atomics); with GLC the pre-op value returns to VDATA, and
    /// out-of-range lanes get 0. RDNA3-NOTES, "Memory alignment modes": an atomic not
    /// aligned to its data size raises MEMVIOL.
    fn buffer_atomic(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[[u64; 4]; 64],
        ok: &[u8; 64],
        exec: u64,
        glc: bool,
    ) -> Result<(), FaultKind> {
        let mut a = [0u64; 64];
        let mut inside = 0u64;
        for l in 0..self.lanes {
            a[l] = addr[l][0];
            inside |= ((ok[l] != 0) as u64) << l;
        }
        if glc {
            let zero = [0u32; 64];
            for k in 0..inst.op.info().ty[0].dwords(false) as usize {
                let r = self.reg_plus(&inst.dst, k);
                self.vdst(&r, &zero, exec & !inside);
            }
        }
        self.vmem_atomic(inst, ctx, &a, None, inside)
    }
}

/// The MUBUF fast path at its boundaries, against the rules of RDNA3-NOTES, "Buffer range checking", written out here:
/// each dword of a lane's b32..b128 access is range checked on its own (raw: offset + 4
/// <= num_records; structured: index < num_records), alignment follows the mode (DWORD
/// aligns down; DWORD_STRICT and STRICT drop a misaligned lane and raise MEMVIOL, naming
/// the first), lanes go in order, and an access outside every BO is a VM fault at the
/// first piece (lane order) that is. Every case runs in wave32 and wave64, with all, some
/// and one lane active, so that both the fast path and the general one it falls back to
/// are held to the same results.
#[cfg(test)]
mod tests {
    use super::super::vmem::rig::*;
    use super::super::{FaultKind, Wave};
    use crate::mem::VmFault;
    use crate::rsrc::{BufferResource, OobSelect};
    use crate::spi::AlignMode;

    const LOADS: [[u8; 8]; 4] = [
        [0x00, 0x00, 0x50, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_load_b32 v4, v1, s[8:11], 0 offen
        [0x00, 0x00, 0x54, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_load_b64 v[4:5], ...
        [0x00, 0x00, 0x58, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_load_b96 v[4:6], ...
        [0x00, 0x00, 0x5c, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_load_b128 v[4:7], ...
    ];
    const STORES: [[u8; 8]; 4] = [
        [0x00, 0x00, 0x68, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_store_b32 v4, v1, s[8:11], 0 offen
        [0x00, 0x00, 0x6c, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_store_b64 v[4:5], ...
        [0x00, 0x00, 0x70, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_store_b96 v[4:6], ...
        [0x00, 0x00, 0x74, 0xe0, 0x01, 0x04, 0x42, 0x80], // buffer_store_b128 v[4:7], ...
    ];
    /// buffer_load_b32 v4, v[2:3], s[8:11], s12 idxen offen offset:8
    const LOAD_IDX: [u8; 8] = [0x08, 0x00, 0x50, 0xe0, 0x02, 0x04, 0xc2, 0x0c];
    /// buffer_atomic_add_u32 v4, v1, s[8:11], 0 offen glc
    const ATOMIC_ADD: [u8; 8] = [0x00, 0x40, 0xd4, 0xe0, 0x01, 0x04, 0x42, 0x80];

    fn set_vsharp(w: &mut Wave, v: &BufferResource) {
        w.sgpr[8..12].copy_from_slice(&v.encode());
    }

    /// Loads and stores of every width on a raw V#, with num_records at the furthest
    /// lane's end (all in range), one byte short of it (that lane's last dword out of
    /// range) and at half of it.
    #[test]
    fn raw_loads_and_stores_at_their_boundaries() {
        for lanes in [32, 64] {
            for (d, (load, store)) in LOADS.iter().zip(&STORES).enumerate() {
                let size = 4 * (d + 1);
                for mode in MODES {
                    for case in 0..6 {
                        let offs = offsets(case, lanes, size);
                        let end = offs.iter().max().unwrap() + size as u64;
                        for nr in [end, end - 1, end / 2] {
                            for exec in execs(lanes) {
                                for imm in [0, 12] {
                                    check_raw(lanes, load, store, size, mode, &offs, nr, exec, imm);
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_raw(
        lanes: usize,
        load: &[u8],
        store: &[u8],
        size: usize,
        mode: AlignMode,
        offs: &[u64],
        nr: u64,
        exec: u64,
        imm: i32,
    ) {
        let what = format!("wave{lanes} b{} {mode:?} nr {nr} exec {exec:#x} offsets {offs:?}", 8 * size);
        let mut rig = Rig::new(4096, 0, mode);
        let base = rig.bo.va() + 8;
        let v = BufferResource::raw(base, nr as u32);
        let mem0 = rig.mem();
        // The model: per lane, its dwords' range bits and its placed address.
        let mut want_v = vec![[0u32; 4]; lanes];
        let mut want_mem = mem0.clone();
        let mut viol = None;
        for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
            let inside: Vec<bool> = (0..size / 4).map(|k| offs[l] + 4 * k as u64 + 4 <= nr).collect();
            if !inside.contains(&true) {
                continue; // out of range: zero, nothing stored, no alignment check
            }
            let Some(a) = placed(mode, base + offs[l], size as u64) else {
                viol.get_or_insert((l, base + offs[l]));
                continue;
            };
            for (k, _) in inside.iter().enumerate().filter(|(_, &i)| i) {
                let at = (a - rig.bo.va()) as usize + 4 * k;
                want_v[l][k] = dword(&mem0, at);
                want_mem[at..at + 4].copy_from_slice(&(0x5100_0000 | (k as u32) << 8 | l as u32).to_le_bytes());
            }
        }
        let check_result = |r: Result<(), FaultKind>| match (r, viol) {
            (Ok(()), None) => {}
            (Err(FaultKind::MemoryViolation(m)), Some((l, a))) => {
                assert!(m.contains(&format!("lane {l} at {a:#x}")), "{what}: {m}")
            }
            (r, _) => panic!("{what}: {r:?}, want MEMVIOL {viol:?}"), // ok: a unit test
        };
        // Load.
        let mut w = wave(lanes);
        w.set_exec(exec);
        set_vsharp(&mut w, &v);
        set_v(&mut w, 1, |l| (offs[l] - imm as u64) as u32);
        let mut i = inst(load, lanes == 64);
        i.imm = imm;
        check_result(w.mubuf(&i, &mut rig.ctx()));
        for l in 0..lanes {
            for k in 0..size / 4 {
                let want = if exec >> l & 1 != 0 { want_v[l][k] } else { 0xdead_0000 | (4 + k as u32) << 8 | l as u32 };
                assert_eq!(w.v(4 + k)[l], want, "{what}: load lane {l} dword {k}");
            }
        }
        // Store.
        let mut w = wave(lanes);
        w.set_exec(exec);
        set_vsharp(&mut w, &v);
        set_v(&mut w, 1, |l| (offs[l] - imm as u64) as u32);
        for k in 0..4 {
            set_v(&mut w, 4 + k, |l| 0x5100_0000 | (k as u32) << 8 | l as u32);
        }
        let mut i = inst(store, lanes == 64);
        i.imm = imm;
        check_result(w.mubuf(&i, &mut rig.ctx()));
        assert!(rig.mem() == want_mem, "{what}: stored bytes differ");
    }

    /// A V# whose range runs past the end of its BO: the lanes beyond it are a VM fault at
    /// the first dword (lane order) outside every mapping; a load writes no register, a
    /// store has written what came before the fault.
    #[test]
    fn lanes_past_the_end_of_the_bo_fault_at_the_first_such_dword() {
        for lanes in [32, 64] {
            for (d, (load, store)) in LOADS.iter().zip(&STORES).enumerate() {
                let size = 4 * (d + 1);
                for case in [0, 1, 2] {
                    let mut rig = Rig::new(4096, 0, AlignMode::Unaligned);
                    let end = rig.bo.va() + 4096;
                    let offs = offsets(case, lanes, size);
                    // Half of the lanes' elements lie past the BO's end (+ 2: one straddles).
                    let base = end + 2 - 16 - (size * lanes / 2) as u64;
                    let v = BufferResource::raw(base, u32::MAX);
                    let mut first = None;
                    let mut want_mem = rig.mem();
                    'lanes: for l in 0..lanes {
                        for k in 0..size / 4 {
                            let a = base + offs[l] + 4 * k as u64;
                            if a + 4 > end {
                                first = Some(a);
                                break 'lanes;
                            }
                            let at = (a - rig.bo.va()) as usize;
                            want_mem[at..at + 4]
                                .copy_from_slice(&(0x5100_0000 | (k as u32) << 8 | l as u32).to_le_bytes());
                        }
                    }
                    let addr = first.unwrap();
                    let what = format!("wave{lanes} b{} case {case}", 8 * size);
                    let mut w = wave(lanes);
                    set_vsharp(&mut w, &v);
                    set_v(&mut w, 1, |l| offs[l] as u32);
                    let before = w.vgpr.clone();
                    let r = w.mubuf(&inst(load, lanes == 64), &mut rig.ctx());
                    assert_eq!(r, Err(FaultKind::Vm(VmFault { addr, len: 4, write: false })), "{what}");
                    assert!(w.vgpr == before, "{what}: a faulting load writes no register");
                    for k in 0..4 {
                        set_v(&mut w, 4 + k, |l| 0x5100_0000 | (k as u32) << 8 | l as u32);
                    }
                    let r = w.mubuf(&inst(store, lanes == 64), &mut rig.ctx());
                    assert_eq!(r, Err(FaultKind::Vm(VmFault { addr, len: 4, write: true })), "{what}");
                    assert!(rig.mem() == want_mem, "{what}: the stores before the fault are done");
                }
            }
        }
    }

    /// Structured V#s (IDXEN and OFFEN, an SGPR offset outside the range check): OOB_SELECT
    /// 0 checks the index and offset + 4 <= stride, 1 the index only; with every index in
    /// range and with the last active lane's index at num_records.
    #[test]
    fn structured_indices_at_num_records() {
        for lanes in [32, 64] {
            for oob in [OobSelect::StructuredWithOffset, OobSelect::Structured] {
                for exec in execs(lanes) {
                    let last = 63 - exec.leading_zeros() as usize;
                    for nr in [last as u32 + 1, last as u32] {
                        let mut rig = Rig::new(4096, 0, AlignMode::Unaligned);
                        let mem0 = rig.mem();
                        let (stride, soff) = (24u32, 4u32);
                        let mut v = BufferResource::raw(rig.bo.va(), nr);
                        (v.stride, v.oob_select) = (stride, oob);
                        let mut w = wave(lanes);
                        w.set_exec(exec);
                        set_vsharp(&mut w, &v);
                        w.sgpr[12] = soff;
                        set_v(&mut w, 2, |l| l as u32); // index
                        set_v(&mut w, 3, |l| [0, 8, 14][l % 3]); // offset (+ 8 in the instruction)
                        w.mubuf(&inst(&LOAD_IDX, lanes == 64), &mut rig.ctx()).unwrap();
                        for l in 0..lanes {
                            let off = [0, 8, 14][l % 3] + 8;
                            let inside = (l as u32) < nr && (oob == OobSelect::Structured || off + 4 <= stride);
                            let want = match (exec >> l & 1 != 0, inside) {
                                (false, _) => 0xdead_0400 | l as u32,
                                (true, false) => 0,
                                (true, true) => dword(&mem0, (soff + stride * l as u32 + off) as usize),
                            };
                            assert_eq!(w.v(4)[l], want, "wave{lanes} {oob:?} nr {nr} exec {exec:#x} lane {l}");
                        }
                    }
                }
            }
        }
    }

    /// RDNA3-NOTES, "Buffer range checking": atomics are range checked all or nothing and must be aligned to their
    /// size in every mode; with GLC each lane gets the value before its own operation,
    /// lanes in order (here several lanes add to one dword), 0 when out of range or
    /// misaligned.
    #[test]
    fn atomics_in_lane_order_out_of_range_and_misaligned() {
        for lanes in [32, 64] {
            for exec in execs(lanes) {
                for case in 0..3 {
                    let mut rig = Rig::new(4096, 0, AlignMode::Unaligned);
                    let base = rig.bo.va() + 64;
                    let offs: Vec<u64> =
                        (0..lanes).map(|l| 4 * (l / 3) as u64 + 2 * (case == 2 && l == 5) as u64).collect();
                    let nr = if case == 1 { offs[lanes - 1] as u32 } else { 4096 };
                    let mut mem = rig.mem();
                    let mut want = vec![0u32; lanes];
                    let mut viol = None;
                    for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
                        if offs[l] + 4 > nr as u64 {
                            continue;
                        }
                        if offs[l] % 4 != 0 {
                            viol.get_or_insert(l);
                            continue;
                        }
                        let at = 64 + offs[l] as usize;
                        want[l] = dword(&mem, at);
                        mem[at..at + 4].copy_from_slice(&want[l].wrapping_add(l as u32 + 1).to_le_bytes());
                    }
                    let mut w = wave(lanes);
                    w.set_exec(exec);
                    set_vsharp(&mut w, &BufferResource::raw(base, nr));
                    set_v(&mut w, 1, |l| offs[l] as u32);
                    set_v(&mut w, 4, |l| l as u32 + 1);
                    let r = w.mubuf(&inst(&ATOMIC_ADD, lanes == 64), &mut rig.ctx());
                    let what = format!("wave{lanes} exec {exec:#x} case {case}");
                    match (r, viol) {
                        (Ok(()), None) => {}
                        (Err(FaultKind::MemoryViolation(m)), Some(l)) => {
                            assert!(m.contains(&format!("lane {l} ")), "{m}")
                        }
                        (r, _) => panic!("{what}: {r:?}"), // ok: a unit test
                    }
                    for l in 0..lanes {
                        let w_ = if exec >> l & 1 != 0 { want[l] } else { l as u32 + 1 };
                        assert_eq!(w.v(4)[l], w_, "{what}: lane {l}");
                    }
                    assert!(rig.mem() == mem, "{what}: memory");
                }
            }
        }
    }
}
