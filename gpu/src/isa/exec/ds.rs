//! The local data share (DS): LDS loads, stores and atomics, the wave-wide exchanges
//! that go through the LDS crossbar (ds_swizzle_b32, ds_permute_b32, ds_bpermute_b32)
//! and the M0-addressed counters (ds_append, ds_consume) and lane-indexed accesses
//! (ds_load_addtid_b32, ds_store_addtid_b32).
//!
//! Addressing (RDNA3-NOTES, "LDS alignment and out-of-range behaviour" and
//! "Memory alignment modes"):
//! - an element's address is `addr VGPR + offset` in 32-bit arithmetic (wrapping). The
//!   notes' masks (`0xfffc`, ...) read as 16-bit only because LDS is at most 64 KiB; we
//!   keep all 32 bits so that an address at or past the allocation is out of range (the
//!   notes' `addr >= LDS_size` rule) rather than folding back into it. Decision, as no
//!   source says what happens to bits 31:16.
//! - each element has its "local" alignment: B8 1, B16/D16 2, B32 4, B64 8, B96 and B128
//!   16 bytes (a narrow D16 load or store, u8_d16, is a byte access: 1). UNALIGNED
//!   mode uses the address as is; DWORD clears the low bits; STRICT and DWORD_STRICT
//!   raise MEMVIOL for a misaligned element (the other lanes complete; the misaligned
//!   lane's load returns zero, its store is dropped).
//! - atomics must be aligned to their data size (4 or 8) in every mode, else MEMVIOL.
//! - an element whose bytes are not all inside the workgroup's allocation is out of
//!   range: its store is dropped (the whole element: decision), a load returns zero for
//!   the whole lane (multi-dword and two-address loads are all-or-nothing), an atomic
//!   does nothing and returns zero.
//! - a source VGPR past the wave's allocation reads v0; an instruction that returns data
//!   to a VGPR past it is issued as if EXEC were zero (nothing happens at all).
//!
//! Atomics within a wave apply in lane order (the workgroup's LDS belongs to one host
//! thread, so a read-modify-write of a lane is indivisible).

use super::vmem::{lane_bounds, move_dwords};
use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::{mflag, Inst, Operand, SGPR_M0};
use crate::isa::table::Op::{self, *};
use crate::isa::table::{Access, Mem, Rmw, Ty, D16, F};
use crate::spi::AlignMode;

/// Where one element of an LDS access goes.
enum At {
    In(usize),
    Out,
    Misaligned,
}

/// Local alignment of an element of `size` bytes (RDNA3-NOTES,
/// "LDS alignment and out-of-range behaviour").
fn local_align(size: u32) -> u32 {
    match size {
        1 => 1,
        2 => 2,
        4 => 4,
        8 => 8,
        _ => 16,
    }
}

/// Places an element of `size` bytes at `addr` (see the module documentation).
#[inline(always)]
fn place(mode: AlignMode, addr: u32, size: u32, atomic: bool, lds_len: usize) -> At {
    let unit = if atomic { size } else { local_align(size) };
    let a = if addr & (unit - 1) != 0 {
        if atomic || matches!(mode, AlignMode::Strict | AlignMode::DwordStrict) {
            return At::Misaligned;
        }
        if mode == AlignMode::Unaligned {
            addr
        } else {
            addr & !(unit - 1)
        }
    } else {
        addr
    };
    if a as usize + size as usize <= lds_len {
        At::In(a as usize)
    } else {
        At::Out
    }
}

fn rd(lds: &[u8], a: usize, n: usize) -> u64 {
    let mut b = [0u8; 8];
    b[..n].copy_from_slice(&lds[a..a + n]);
    u64::from_le_bytes(b)
}

fn wr(lds: &mut [u8], a: usize, n: usize, v: u64) {
    lds[a..a + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

/// The memory facts of a DS opcode (every DS row states them).
#[inline(always)]
fn mem(op: Op) -> Mem {
    op.mem().copied().unwrap_or(Mem {
        access: Access::None,
        size: 0,
        signed: false,
        d16: D16::No,
        comps: 0,
        rmw: None,
        stride: 0,
        tid: false,
    })
}

/// Float min/max of LDS atomics (decision: the ISA guide says only that they "handle
/// NaN"): a NaN operand is ignored (the other is the result; two NaNs leave the old
/// value), and -0 is less than +0.
fn fminmax(old: f64, x: f64, max: bool) -> Option<bool> {
    // Some(true): take x; Some(false): keep old.
    if x.is_nan() {
        return Some(false);
    }
    if old.is_nan() {
        return Some(true);
    }
    let (o, n) = (old, x);
    let less = n < o || (n == 0.0 && o == 0.0 && n.is_sign_negative() && !o.is_sign_negative());
    let greater = n > o || (n == 0.0 && o == 0.0 && !n.is_sign_negative() && o.is_sign_negative());
    Some(if max { greater } else { less })
}

/// The new memory value of an atomic on `old` with data `d0`, `d1` (`wide`: 64-bit).
/// RDNA3 ISA guide formulas; cmpstore takes the new value in data0 and the compare value
/// in data1 (gfx11 swapped GCN's cmpst order; LLVM 19 emits
/// `ds_cmpstore_rtn_b32 vdst, addr, new, cmp`).
fn apply(rmw: Rmw, wide: bool, old: u64, d0: u64, d1: u64) -> u64 {
    let m = if wide { u64::MAX } else { u32::MAX as u64 };
    let sx = |v: u64| if wide { v as i64 } else { v as u32 as i32 as i64 };
    let f = |v: u64| if wide { f64::from_bits(v) } else { f32::from_bits(v as u32) as f64 };
    match rmw {
        Rmw::Add => old.wrapping_add(d0) & m,
        Rmw::Sub => old.wrapping_sub(d0) & m,
        // No DS opcode has it (buffer and global csub do).
        Rmw::CSub => old.saturating_sub(d0),
        Rmw::Rsub => d0.wrapping_sub(old) & m,
        Rmw::Inc => {
            if old >= d0 {
                0
            } else {
                old + 1
            }
        }
        Rmw::Dec => {
            if old == 0 || old > d0 {
                d0
            } else {
                old - 1
            }
        }
        Rmw::SMin => (sx(old).min(sx(d0)) as u64) & m,
        Rmw::SMax => (sx(old).max(sx(d0)) as u64) & m,
        Rmw::UMin => old.min(d0),
        Rmw::UMax => old.max(d0),
        Rmw::And => old & d0,
        Rmw::Or => old | d0,
        Rmw::Xor => old ^ d0,
        Rmw::Mskor => (old & !d0 | d1) & m,
        Rmw::Swap => d0,
        Rmw::CmpSwap => {
            if old == d1 {
                d0
            } else {
                old
            }
        }
        // IEEE equality: +0 equals -0, a NaN equals nothing (decision).
        Rmw::FCmpSwap => {
            if f(old) == f(d1) {
                d0
            } else {
                old
            }
        }
        Rmw::FMin | Rmw::FMax => {
            if fminmax(f(old), f(d0), rmw == Rmw::FMax) == Some(true) {
                d0
            } else {
                old
            }
        }
        // Round to nearest even, denormals kept (the host's f32 add).
        Rmw::FAdd => (f32::from_bits(old as u32) + f32::from_bits(d0 as u32)).to_bits() as u64,
        Rmw::Wrap => {
            if old >= d0 {
                old - d0
            } else {
                old.wrapping_add(d1) & m
            }
        }
        // Each dword whose data bit 31 is set is replaced by the data's bits 30:0.
        Rmw::CondXchg32 => {
            let mut v = old;
            for h in 0..2 {
                let d = d0 >> (32 * h) as u32 & 0xffff_ffff;
                if d & 0x8000_0000 != 0 {
                    v = v & !(0xffff_ffffu64 << (32 * h)) | (d & 0x7fff_ffff) << (32 * h);
                }
            }
            v
        }
    }
}

impl Wave {
    pub(super) fn ds(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        if inst.flags & mflag::GDS != 0 || op.has_flag(F::GDS) {
            return Err(illegal(format!(
                "{}{}: GDS and GWS need a GDS allocation, which compute queues do not get here",
                op.name(),
                if op.has_flag(F::GDS) { "" } else { " with gds" }
            )));
        }
        match op {
            DS_NOP => Ok(()),
            DS_BVH_STACK_RTN_B32 => Err(illegal(
                "ds_bvh_stack_rtn_b32: the ray-tracing stack operation is not executed (its exact \
                 stack-pointer encoding is not pinned down by the sources softnavi follows)",
            )),
            DS_SWIZZLE_B32 => {
                self.ds_swizzle(inst);
                Ok(())
            }
            DS_PERMUTE_B32 | DS_BPERMUTE_B32 => {
                self.ds_permute(inst);
                Ok(())
            }
            DS_APPEND | DS_CONSUME => self.ds_append(inst, ctx),
            _ => match mem(op).access {
                Access::Load => self.ds_load(inst, ctx),
                Access::Store => self.ds_store(inst, ctx),
                _ => self.ds_atomic(inst, ctx),
            },
        }
    }

    /// A DS source VGPR, v0 for one past the allocation (RDNA3-NOTES,
    /// "LDS alignment and out-of-range behaviour").
    fn ds_src(&self, op: &Operand, k: usize) -> [u32; 64] {
        self.vmem_src(&self.reg_plus(op, k))
    }

    /// Whether `n` returned VGPRs from `dst` are allocated; if not, the instruction is
    /// issued as if EXEC were zero.
    fn ds_dst_ok(&self, dst: &Operand, n: u32) -> bool {
        match *dst {
            Operand::Vgpr(r) => self.vgprs_in_range(r, n),
            _ => true,
        }
    }

    /// Per-lane base address of the first element: the address VGPR plus the 16-bit
    /// offset, or for the addtid forms M0[15:0] plus the offset plus 4 × lane (RDNA3 ISA
    /// guide: `{OFFSET1, OFFSET0} + M0[15:0] + laneID * 4`).
    fn ds_addr(&self, inst: &Inst) -> [u32; 64] {
        let off = (inst.imm as u32) | (inst.imm1 as u32) << 8;
        if mem(inst.op).tid {
            let m0 = self.sgpr[SGPR_M0 as usize] & 0xffff;
            return std::array::from_fn(|l| m0.wrapping_add(off).wrapping_add(4 * l as u32));
        }
        let mut a = self.ds_src(&inst.src[0], 0);
        if !is_two(inst.op) {
            for v in a.iter_mut().take(self.lanes) {
                *v = v.wrapping_add(off);
            }
        }
        a
    }

    fn ds_load(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        let m = mem(op);
        if m.access != Access::Load {
            return Err(illegal(format!("{} is not an LDS load", op.name())));
        }
        let (size, signed, d16) = (m.size as u32, m.signed, m.d16);
        let elems = if is_two(op) { 2 } else { 1 };
        let dwords = (size as usize).div_ceil(4) * elems;
        if !self.ds_dst_ok(&inst.dst, dwords as u32) {
            return Ok(());
        }
        if size >= 4 && !m.tid {
            let done = if self.lanes == 32 {
                self.ds_move_fast::<32>(inst, ctx, size, false)
            } else {
                self.ds_move_fast::<64>(inst, ctx, size, false)
            };
            if let Some(r) = done {
                return r;
            }
        }
        let exec = self.exec();
        let mode = ctx.vmid.alignment();
        let lds = &*ctx.lds;
        let addr = self.ds_addr(inst);
        let eoff = elem_offsets(inst, size);
        let mut out = [[0u32; 64]; 4];
        let mut bad = None;
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let mut buf = [0u8; 16];
            let mut ok = true;
            for e in 0..elems {
                let a = addr[l].wrapping_add(eoff[e]);
                match place(mode, a, size, false, lds.len()) {
                    At::In(p) => {
                        buf[e * size as usize..(e + 1) * size as usize].copy_from_slice(&lds[p..p + size as usize])
                    }
                    At::Out => ok = false,
                    At::Misaligned => {
                        ok = false;
                        bad.get_or_insert((l, a));
                    }
                }
            }
            if !ok {
                continue; // the whole lane reads zero
            }
            if size < 4 {
                let v = if size == 1 { buf[0] as u32 } else { u16::from_le_bytes([buf[0], buf[1]]) as u32 };
                out[0][l] = match (size, signed) {
                    (1, true) => v as u8 as i8 as i32 as u32,
                    (2, true) => v as u16 as i16 as i32 as u32,
                    _ => v,
                };
            } else {
                for k in 0..dwords {
                    out[k][l] = u32::from_le_bytes([buf[4 * k], buf[4 * k + 1], buf[4 * k + 2], buf[4 * k + 3]]);
                }
            }
        }
        if d16 != D16::No {
            // D16: the loaded 16 bits go to one half of VDST, the other half is kept.
            let old = self.vsrc(&inst.dst);
            for l in 0..self.lanes {
                let v = out[0][l] & 0xffff;
                out[0][l] = if d16 == D16::Lo { old[l] & 0xffff_0000 | v } else { old[l] & 0xffff | v << 16 };
            }
        }
        for (k, vals) in out.iter().enumerate().take(dwords) {
            let d = self.reg_plus(&inst.dst, k);
            self.vdst(&d, vals, exec);
        }
        match bad {
            Some((l, a)) => Err(misaligned(inst, mode, l, a)),
            None => Ok(()),
        }
    }

    fn ds_store(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        let m = mem(op);
        if m.access != Access::Store {
            return Err(illegal(format!("{} is not an LDS store", op.name())));
        }
        // D16_HI stores the high half.
        let (size, shift) = (m.size as u32, if m.d16 == D16::Hi { 16 } else { 0 });
        if size >= 4 && shift == 0 && !m.tid {
            let done = if self.lanes == 32 {
                self.ds_move_fast::<32>(inst, ctx, size, true)
            } else {
                self.ds_move_fast::<64>(inst, ctx, size, true)
            };
            if let Some(r) = done {
                return r;
            }
        }
        let elems = if is_two(op) { 2 } else { 1 };
        let dpe = (size as usize).div_ceil(4);
        let exec = self.exec();
        let mode = ctx.vmid.alignment();
        let addr = self.ds_addr(inst);
        let eoff = elem_offsets(inst, size);
        let mut data = [[0u32; 64]; 8];
        for k in 0..dpe {
            data[k] = self.ds_src(&inst.src[1], k);
            if elems == 2 {
                data[dpe + k] = self.ds_src(&inst.src[2], k);
            }
        }
        let lds = &mut *ctx.lds;
        let mut bad = None;
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            for e in 0..elems {
                let a = addr[l].wrapping_add(eoff[e]);
                match place(mode, a, size, false, lds.len()) {
                    At::In(p) => {
                        let mut buf = [0u8; 16];
                        for k in 0..dpe {
                            buf[4 * k..4 * k + 4].copy_from_slice(&(data[e * dpe + k][l] >> shift).to_le_bytes());
                        }
                        lds[p..p + size as usize].copy_from_slice(&buf[..size as usize]);
                    }
                    At::Out => {}
                    At::Misaligned => {
                        bad.get_or_insert((l, a));
                    }
                }
            }
        }
        match bad {
            Some((l, a)) => Err(misaligned(inst, mode, l, a)),
            None => Ok(()),
        }
    }

    fn ds_atomic(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        let m = mem(op);
        let Some(rmw) = m.rmw else { return Err(illegal(format!("{} is not an LDS atomic", op.name()))) };
        let info = op.info();
        let wide = m.size == 8;
        let size = if wide { 8 } else { 4 };
        let rtn = info.ty[0] != Ty::N;
        let elems = if is_two(op) { 2 } else { 1 };
        let w = wide as usize + 1;
        if rtn && !self.ds_dst_ok(&inst.dst, (w * elems) as u32) {
            return Ok(());
        }
        let has_d1 = info.ty[3] != Ty::N;
        if elems == 1 {
            let done = if self.lanes == 32 {
                self.ds_atomic_fast::<32>(inst, ctx, rmw, wide, rtn, has_d1)
            } else {
                self.ds_atomic_fast::<64>(inst, ctx, rmw, wide, rtn, has_d1)
            };
            if let Some(r) = done {
                return r;
            }
        }
        let mut d = [[0u32; 64]; 4];
        for k in 0..w {
            d[k] = self.ds_src(&inst.src[1], k);
            if has_d1 {
                d[w + k] = self.ds_src(&inst.src[2], k);
            }
        }
        let exec = self.exec();
        let mode = ctx.vmid.alignment();
        let addr = self.ds_addr(inst);
        let eoff = elem_offsets(inst, size);
        let lds = &mut *ctx.lds;
        let mut ret = [[0u32; 64]; 4];
        let mut bad = None;
        let get = |base: usize, l: usize| {
            if wide {
                d[base][l] as u64 | (d[base + 1][l] as u64) << 32
            } else {
                d[base][l] as u64
            }
        };
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let (d0, d1) = (get(0, l), get(w, l));
            for e in 0..elems {
                let a = addr[l].wrapping_add(eoff[e]);
                let old = match place(mode, a, size, true, lds.len()) {
                    At::In(p) => {
                        let old = rd(lds, p, size as usize);
                        // A two-address exchange writes data0 at the first address and
                        // data1 at the second.
                        let (x0, x1) = if e == 1 { (d1, 0) } else { (d0, d1) };
                        wr(lds, p, size as usize, apply(rmw, wide, old, x0, x1));
                        old
                    }
                    At::Out => 0,
                    At::Misaligned => {
                        bad.get_or_insert((l, a));
                        0
                    }
                };
                ret[e * w][l] = old as u32;
                if wide {
                    ret[e * w + 1][l] = (old >> 32) as u32;
                }
            }
        }
        if rtn {
            for (k, vals) in ret.iter().enumerate().take(w * elems) {
                let dst = self.reg_plus(&inst.dst, k);
                self.vdst(&dst, vals, exec);
            }
        }
        match bad {
            Some((l, a)) => Err(FaultKind::MemoryViolation(format!(
                "{} of lane {l} at LDS address {a:#x} is not aligned to its {size}-byte data",
                op.name()
            ))),
            None => Ok(()),
        }
    }

    /// The fast path of an LDS load or store of whole dwords (b32, b64, b96, b128 and the
    /// two-address forms): taken only where it cannot differ from the general path, when
    /// every element of every active lane is placed inside the allocation (aligned under
    /// a strict mode, aligned down under DWORD; RDNA3-NOTES,
    /// "LDS alignment and out-of-range behaviour"). Then the lanes move their elements in
    /// lane order. `None` leaves the instruction to the general path (a lane out of range
    /// or misaligned), which nothing here has touched.
    #[inline(always)]
    fn ds_move_fast<const N: usize>(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        size: u32,
        store: bool,
    ) -> Option<Result<(), FaultKind>> {
        let exec = self.exec_n::<N>();
        let Operand::Vgpr(a) = inst.src[0] else { return None };
        if exec == 0 {
            return None;
        }
        let two = is_two(inst.op);
        let elems = if two { 2 } else { 1 };
        // What each element adds to the address VGPR (ds_addr, elem_offsets).
        let adds = if two { elem_offsets(inst, size) } else { [(inst.imm as u32) | (inst.imm1 as u32) << 8, 0] };
        let row = self.vmem_row::<N>(a);
        let mask = ds_fast_span(&row, exec, &adds[..elems], size, false, ctx.vmid.alignment(), ctx.lds.len())?;
        let dpe = (size / 4) as usize;
        let lds = &mut *ctx.lds;
        if store && elems == 2 {
            // Lane by lane, data0 at the first address then data1 at the second, so that
            // overlapping elements end as in the general path.
            let mut rows = [[0usize; 4]; 2];
            for (e, rows) in rows.iter_mut().enumerate() {
                let Operand::Vgpr(d) = inst.src[1 + e] else { return None };
                for (k, r) in rows.iter_mut().enumerate().take(dpe) {
                    *r = self.vmem_reg(d.wrapping_add(k as u16)) * N;
                }
            }
            for l in 0..N {
                if exec >> l & 1 == 0 {
                    continue;
                }
                for (e, rows) in rows.iter().enumerate() {
                    let p = (row[l].wrapping_add(adds[e]) & mask) as usize;
                    for (k, &r) in rows.iter().enumerate().take(dpe) {
                        lds[p + 4 * k..p + 4 * k + 4].copy_from_slice(&self.vgpr[r + l].to_le_bytes());
                    }
                }
            }
            return Some(Ok(()));
        }
        for (e, &add) in adds.iter().enumerate().take(elems) {
            let mut at = [0usize; N];
            for l in 0..N {
                at[l] = (row[l].wrapping_add(add) & mask) as usize;
            }
            let mut rows = [0usize; 4];
            if store {
                // Data registers that are not allocated read v0.
                let Operand::Vgpr(d) = inst.src[1] else { return None };
                for (k, r) in rows.iter_mut().enumerate().take(dpe) {
                    *r = self.vmem_reg(d.wrapping_add(k as u16)) * N;
                }
            } else {
                // The returned registers are allocated (checked before); element e's
                // dwords follow element 0's.
                let Operand::Vgpr(d) = inst.dst else { return None };
                for (k, r) in rows.iter_mut().enumerate().take(dpe) {
                    *r = (d as usize + e * dpe + k) * N;
                }
            }
            // SAFETY: ds_fast_span checked that every active lane's element lies inside
            // the LDS allocation; the LDS is not the register file.
            unsafe { move_dwords::<N>(&mut self.vgpr, lds.as_mut_ptr(), &at, exec, &rows, dpe, store) };
        }
        Some(Ok(()))
    }

    /// The fast path of a single-address LDS atomic (32 or 64 bits, with or without
    /// return), taken when every active lane's element is aligned to its size and inside
    /// the allocation; the lanes then do their read-modify-write in lane order, as the
    /// general path does. `None` leaves the instruction to the general path.
    #[inline(always)]
    fn ds_atomic_fast<const N: usize>(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        rmw: Rmw,
        wide: bool,
        rtn: bool,
        has_d1: bool,
    ) -> Option<Result<(), FaultKind>> {
        let exec = self.exec_n::<N>();
        let (Operand::Vgpr(a), Operand::Vgpr(d0)) = (inst.src[0], inst.src[1]) else { return None };
        if exec == 0 {
            return None;
        }
        let size = if wide { 8 } else { 4 };
        let off = (inst.imm as u32) | (inst.imm1 as u32) << 8;
        let row = self.vmem_row::<N>(a);
        let mask = ds_fast_span(&row, exec, &[off], size, true, ctx.vmid.alignment(), ctx.lds.len())?;
        // The data as the general path reads it: data0 from src1, data1 from src2 (zero
        // without one), both 64-bit for the wide forms.
        let pair = |w: &Wave, r: u16| -> [u64; N] {
            let lo = w.vmem_row::<N>(r);
            let hi = if wide { w.vmem_row::<N>(r.wrapping_add(1)) } else { [0; N] };
            std::array::from_fn(|l| lo[l] as u64 | (hi[l] as u64) << 32)
        };
        let x0 = pair(self, d0);
        let x1 = match (has_d1, inst.src[2]) {
            (false, _) => [0; N],
            (true, Operand::Vgpr(d1)) => pair(self, d1),
            _ => return None,
        };
        let dst = match (rtn, inst.dst) {
            (false, _) => 0,
            (true, Operand::Vgpr(d)) => d as usize * N,
            _ => return None,
        };
        let at: [usize; N] = std::array::from_fn(|l| (row[l].wrapping_add(off) & mask) as usize);
        let vgpr = &mut self.vgpr;
        // The returned registers are allocated (checked before).
        let mut ret = |l: usize, old: u64| {
            if rtn {
                vgpr[dst + l] = old as u32;
                if wide {
                    vgpr[dst + N + l] = (old >> 32) as u32;
                }
            }
        };
        match (wide, rmw) {
            // ds_add_u32, the commonest (histograms): its operation without apply's match.
            (false, Rmw::Add) => lds_rmw::<N, 4>(ctx.lds, &at, exec, |l, old| {
                ret(l, old);
                old.wrapping_add(x0[l]) & u32::MAX as u64
            }),
            (false, _) => lds_rmw::<N, 4>(ctx.lds, &at, exec, |l, old| {
                ret(l, old);
                apply(rmw, false, old, x0[l], x1[l])
            }),
            (true, _) => lds_rmw::<N, 8>(ctx.lds, &at, exec, |l, old| {
                ret(l, old);
                apply(rmw, true, old, x0[l], x1[l])
            }),
        }
        Some(Ok(()))
    }

    /// ds_append / ds_consume: one atomic on the dword at M0[15:0] + offset, adding
    /// (subtracting) the number of active lanes; every active lane gets the value before.
    fn ds_append(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        if !self.ds_dst_ok(&inst.dst, 1) {
            return Ok(());
        }
        let exec = self.exec();
        let off = (inst.imm as u32) | (inst.imm1 as u32) << 8;
        let a = (self.sgpr[SGPR_M0 as usize] & 0xffff).wrapping_add(off);
        let n = exec.count_ones();
        let old = match place(ctx.vmid.alignment(), a, 4, true, ctx.lds.len()) {
            At::In(p) => {
                let old = rd(ctx.lds, p, 4) as u32;
                let new = if inst.op == DS_APPEND { old.wrapping_add(n) } else { old.wrapping_sub(n) };
                wr(ctx.lds, p, 4, new as u64);
                old
            }
            At::Out => 0,
            At::Misaligned => {
                return Err(FaultKind::MemoryViolation(format!(
                    "{} at LDS address {a:#x} (M0 + offset) is not dword aligned",
                    inst.op.name()
                )))
            }
        };
        self.vdst(&inst.dst, &[old; 64], exec);
        Ok(())
    }

    /// ds_swizzle_b32 (RDNA3 ISA guide pseudocode; the modes by the 16-bit offset, as
    /// LLVM's swizzle() syntax encodes them): 0xe000.. FFT, 0xc000.. rotate, bit 15
    /// quad permute, else the AND/OR/XOR bit mode within each 32 lanes. A lane reading an
    /// inactive lane gets zero. Wave64: the rotate, FFT and bit modes work within each
    /// half (bit 5 of the lane id is kept).
    fn ds_swizzle(&mut self, inst: &Inst) {
        if !self.ds_dst_ok(&inst.dst, 1) {
            return;
        }
        let exec = self.exec();
        let src = self.ds_src(&inst.src[0], 0);
        let off = (inst.imm as u32) | (inst.imm1 as u32) << 8;
        let mut out = [0u32; 64];
        for i in 0..self.lanes {
            let j = if off >= 0xe000 {
                let mask = off & 0x1f;
                let r = ((i as u32 & 0x1f).reverse_bits() >> 27) >> mask.count_ones();
                ((r | (i as u32 & mask)) & 0x1f) as usize | (i & 0x20)
            } else if off >= 0xc000 {
                let mask = off & 0x1f;
                let mut rot = off >> 5 & 0x1f;
                if off & 1 << 10 != 0 {
                    rot = rot.wrapping_neg();
                }
                let i32_ = i as u32;
                (((i32_ & mask) | (i32_.wrapping_add(rot) & !mask)) & 0x1f) as usize | (i & 0x20)
            } else if off & 0x8000 != 0 {
                (i & !3) | (off >> ((i & 3) * 2) & 3) as usize
            } else {
                let (and, or, xor) = (off & 0x1f, off >> 5 & 0x1f, off >> 10 & 0x1f);
                ((((i as u32 & 0x1f) & and) | or) ^ xor) as usize | (i & 0x20)
            };
            if exec >> j & 1 != 0 {
                out[i] = src[j];
            }
        }
        self.vdst(&inst.dst, &out, exec);
    }

    /// ds_permute_b32 (forward: active lane i writes data0 to lane (addr + offset) / 4)
    /// and ds_bpermute_b32 (backward: active lane i reads data0 of lane (addr + offset) / 4,
    /// zero if that lane is inactive); lane numbers modulo the wave size, so wave64
    /// permutes across all 64 lanes. Several writers of one lane: the highest wins.
    fn ds_permute(&mut self, inst: &Inst) {
        if !self.ds_dst_ok(&inst.dst, 1) {
            return;
        }
        let exec = self.exec();
        let off = (inst.imm as u32) | (inst.imm1 as u32) << 8;
        let addr = self.ds_src(&inst.src[0], 0);
        let data = self.ds_src(&inst.src[1], 0);
        let n = self.lanes;
        let lane = |l: usize| (addr[l].wrapping_add(off) / 4) as usize % n;
        let mut out = [0u32; 64];
        for i in 0..n {
            if exec >> i & 1 == 0 {
                continue;
            }
            if inst.op == DS_PERMUTE_B32 {
                out[lane(i)] = data[i];
            } else {
                let j = lane(i);
                if exec >> j & 1 != 0 {
                    out[i] = data[j];
                }
            }
        }
        self.vdst(&inst.dst, &out, exec);
    }
}

/// Two-address forms: two elements at `addr + offset0 × size` and `addr + offset1 ×
/// size` (× 64 for stride64): their row's [`Mem::stride`].
#[inline(always)]
fn is_two(op: Op) -> bool {
    mem(op).stride != 0
}

/// What to add to a lane's base address (see `ds_addr`) for each element: the
/// two-address forms scale offset0 and offset1 by the element size (× 64 for stride64).
fn elem_offsets(inst: &Inst, size: u32) -> [u32; 2] {
    let stride = mem(inst.op).stride as u32;
    [inst.imm as u32 * size * stride, inst.imm1 as u32 * size * stride]
}

/// The read-modify-write of an LDS atomic's active lanes, in lane order: the `B`-byte
/// little-endian word at `at[l]` becomes `f(l, old)`. The caller checked that every
/// active lane's word lies inside `lds` (a lane whose word did not would be skipped).
#[inline(always)]
fn lds_rmw<const N: usize, const B: usize>(
    lds: &mut [u8],
    at: &[usize; N],
    exec: u64,
    mut f: impl FnMut(usize, u64) -> u64,
) {
    for l in 0..N {
        if exec >> l & 1 == 0 {
            continue;
        }
        let Some(m) = lds.get_mut(at[l]..at[l] + B) else { continue };
        let mut b = [0u8; 8];
        b[..B].copy_from_slice(m);
        let new = f(l, u64::from_le_bytes(b));
        m.copy_from_slice(&new.to_le_bytes()[..B]);
    }
}

/// Whether every element of every active lane of an LDS access is placed inside the
/// allocation by [`place`]: element `e` of lane `l` at `row[l] + adds[e]` (32-bit
/// wrapping), `size` bytes each, an atomic's or a plain access's alignment rule. Returns
/// the mask that places an address (aligning it down under DWORD mode), or `None` when a
/// lane is misaligned under a strict rule or out of range (the general path's business).
#[inline(always)]
fn ds_fast_span<const N: usize>(
    row: &[u32; N],
    exec: u64,
    adds: &[u32],
    size: u32,
    atomic: bool,
    mode: AlignMode,
    lds_len: usize,
) -> Option<u32> {
    let unit = if atomic { size } else { local_align(size) };
    let strict = atomic || matches!(mode, AlignMode::Strict | AlignMode::DwordStrict);
    let mask = if strict || mode == AlignMode::Unaligned { u32::MAX } else { !(unit - 1) };
    for &add in adds {
        let (_, max, low) = lane_bounds(&row.map(|a| a.wrapping_add(add)), exec);
        // Aligning down is monotonic, so the highest address placed is max's.
        if (strict && low & (unit - 1) != 0) || (max & mask) as usize + size as usize > lds_len {
            return None;
        }
    }
    Some(mask)
}

fn misaligned(inst: &Inst, mode: AlignMode, lane: usize, addr: u32) -> FaultKind {
    FaultKind::MemoryViolation(format!(
        "{} of lane {lane} at LDS address {addr:#x} is misaligned under SH_MEM_CONFIG.ALIGNMENT_MODE {mode:?}",
        inst.op.name()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::decode::decode;
    use crate::mem::{AddressSpace, Tlb};
    use crate::spi::VmidRegs;
    use std::sync::atomic::AtomicBool;

    use super::super::vmem::rig::{self, dword, execs, offsets, set_v, Rig, MODES};

    const LOADS: [[u8; 8]; 4] = [
        [0x00, 0x00, 0xd8, 0xd8, 0x01, 0x00, 0x00, 0x04], // ds_load_b32 v4, v1
        [0x00, 0x00, 0xd8, 0xd9, 0x01, 0x00, 0x00, 0x04], // ds_load_b64 v[4:5], v1
        [0x00, 0x00, 0xf8, 0xdb, 0x01, 0x00, 0x00, 0x04], // ds_load_b96 v[4:6], v1
        [0x00, 0x00, 0xfc, 0xdb, 0x01, 0x00, 0x00, 0x04], // ds_load_b128 v[4:7], v1
    ];
    const STORES: [[u8; 8]; 4] = [
        [0x00, 0x00, 0x34, 0xd8, 0x01, 0x04, 0x00, 0x00], // ds_store_b32 v1, v4
        [0x00, 0x00, 0x34, 0xd9, 0x01, 0x04, 0x00, 0x00], // ds_store_b64 v1, v[4:5]
        [0x00, 0x00, 0x78, 0xdb, 0x01, 0x04, 0x00, 0x00], // ds_store_b96 v1, v[4:6]
        [0x00, 0x00, 0x7c, 0xdb, 0x01, 0x04, 0x00, 0x00], // ds_store_b128 v1, v[4:7]
    ];
    /// ds_load_2addr_b32 v[4:5], v1 offset1:3
    const LOAD_2ADDR: [u8; 8] = [0x00, 0x03, 0xdc, 0xd8, 0x01, 0x00, 0x00, 0x04];
    /// ds_store_2addr_b32 v1, v4, v5 offset1:1
    const STORE_2ADDR: [u8; 8] = [0x00, 0x01, 0x38, 0xd8, 0x01, 0x04, 0x05, 0x00];
    /// ds_add_u32 v1, v4; ds_add_rtn_u32 v6, v1, v4; ds_max_rtn_u64 v[6:7], v1, v[4:5]
    const ADD: [u8; 8] = [0x00, 0x00, 0x00, 0xd8, 0x01, 0x04, 0x00, 0x00];
    const ADD_RTN: [u8; 8] = [0x00, 0x00, 0x80, 0xd8, 0x01, 0x04, 0x00, 0x06];
    const MAX_RTN_U64: [u8; 8] = [0x00, 0x00, 0xa0, 0xd9, 0x01, 0x04, 0x00, 0x06];

    fn data(k: usize, l: usize) -> u32 {
        0x5100_0000 | (k as u32) << 8 | l as u32
    }

    fn untouched(r: usize, l: usize) -> u32 {
        0xdead_0000 | (r as u32) << 8 | l as u32
    }

    /// RDNA3-NOTES, "LDS alignment and out-of-range behaviour": where an element of `size`
    /// bytes at LDS address `a` goes: its local alignment (b96 and b128: 16) aligns it down
    /// unless the mode is UNALIGNED, or makes it misaligned (`Err`) under STRICT and
    /// DWORD_STRICT; `Ok(None)` when it is not all inside the `len` bytes of the
    /// allocation.
    fn lds_place(mode: AlignMode, a: u32, size: u32, len: usize) -> Result<Option<usize>, ()> {
        let unit = match size {
            12 | 16 => 16,
            s => s,
        };
        let a = match mode {
            AlignMode::Unaligned => a,
            AlignMode::Dword => a & !(unit - 1),
            _ if a % unit != 0 => return Err(()),
            _ => a,
        };
        Ok((a as usize + size as usize <= len).then_some(a as usize))
    }

    /// DS loads and stores of every width, and the two-address forms, at the fast path's
    /// boundaries: an allocation ending at the furthest lane's end (all inside) or one
    /// byte short of it (that lane out of range: it reads zero, its store is dropped),
    /// every alignment mode, all, some and one lane active, wave32 and wave64.
    #[test]
    fn lds_loads_and_stores_at_their_boundaries() {
        for lanes in [32, 64] {
            for (d, (load, store)) in LOADS.iter().zip(&STORES).enumerate() {
                let size = 4 * (d + 1);
                for mode in MODES {
                    for case in 0..6 {
                        let offs = offsets(case, lanes, size);
                        let end = (offs.iter().max().unwrap() + size as u64) as usize;
                        for len in [end, end - 1] {
                            for exec in execs(lanes) {
                                let what =
                                    format!("wave{lanes} b{} {mode:?} case {case} len {len} exec {exec:#x}", 8 * size);
                                check_lds(lanes, load, store, size, mode, &offs, len, exec, &what);
                            }
                        }
                    }
                }
            }
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn check_lds(
        lanes: usize,
        load: &[u8],
        store: &[u8],
        size: usize,
        mode: AlignMode,
        offs: &[u64],
        len: usize,
        exec: u64,
        what: &str,
    ) {
        let mut r = Rig::new(4096, len, mode);
        let lds0 = r.lds.clone();
        let (mut want_v, mut want_lds, mut viol) = (vec![[0u32; 4]; lanes], lds0.clone(), None);
        for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
            match lds_place(mode, offs[l] as u32, size as u32, len) {
                Err(()) => {
                    viol.get_or_insert((l, offs[l]));
                }
                Ok(None) => {}
                Ok(Some(p)) => {
                    for k in 0..size / 4 {
                        want_v[l][k] = dword(&lds0, p + 4 * k);
                        want_lds[p + 4 * k..p + 4 * k + 4].copy_from_slice(&data(k, l).to_le_bytes());
                    }
                }
            }
        }
        let check = |res: Result<(), FaultKind>| match (res, viol) {
            (Ok(()), None) => {}
            (Err(FaultKind::MemoryViolation(m)), Some((l, a))) => {
                assert!(m.contains(&format!("lane {l} at LDS address {a:#x}")), "{what}: {m}")
            }
            (res, _) => panic!("{what}: {res:?}, want MEMVIOL {viol:?}"), // ok: a unit test
        };
        let mut w = rig::wave(lanes);
        w.set_exec(exec);
        set_v(&mut w, 1, |l| offs[l] as u32);
        check(w.ds(&rig::inst(load, lanes == 64), &mut r.ctx()));
        for l in 0..lanes {
            for k in 0..size / 4 {
                let want = if exec >> l & 1 != 0 { want_v[l][k] } else { untouched(4 + k, l) };
                assert_eq!(w.v(4 + k)[l], want, "{what}: load lane {l} dword {k}");
            }
        }
        for k in 0..4 {
            set_v(&mut w, 4 + k, |l| data(k, l));
        }
        check(w.ds(&rig::inst(store, lanes == 64), &mut r.ctx()));
        assert!(r.lds == want_lds, "{what}: stored bytes differ");
    }

    /// The two-address forms: elements at `addr + offset0 * 4` and `addr + offset1 * 4`;
    /// a load returns zero for the whole lane if either is out of range; stores go lane by
    /// lane, data0 then data1, so where a lane's second element is the next lane's first,
    /// the next lane's data0 stays.
    #[test]
    fn lds_two_address_forms() {
        for lanes in [32, 64] {
            for exec in execs(lanes) {
                for mode in MODES {
                    // Lane l at 4 l + 8 (+ 1 for one lane under the DWORD modes' tests).
                    for odd in [false, true] {
                        let len = 4 * lanes + 12;
                        let a = |l: usize| (4 * l + 8 + (odd && l == 7) as usize) as u32;
                        let mut r = Rig::new(4096, len, mode);
                        let lds0 = r.lds.clone();
                        let (mut want_v, mut want_lds, mut viol) = (vec![[0u32; 2]; lanes], lds0.clone(), None);
                        for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
                            // Load: elements at a and a + 12; store: at a and a + 4.
                            let e = [a(l), a(l) + 12].map(|x| lds_place(mode, x, 4, len));
                            if e.iter().any(|p| p.is_err()) {
                                viol.get_or_insert(l);
                            } else if let [Ok(Some(p0)), Ok(Some(p1))] = e {
                                want_v[l] = [dword(&lds0, p0), dword(&lds0, p1)];
                            }
                            for (k, x) in [a(l), a(l) + 4].into_iter().enumerate() {
                                if let Ok(Some(p)) = lds_place(mode, x, 4, len) {
                                    want_lds[p..p + 4].copy_from_slice(&data(k, l).to_le_bytes());
                                }
                            }
                        }
                        let what = format!("wave{lanes} exec {exec:#x} {mode:?} odd {odd}");
                        let check = |res: Result<(), FaultKind>| match (res, viol) {
                            (Ok(()), None) => {}
                            (Err(FaultKind::MemoryViolation(m)), Some(l)) => {
                                assert!(m.contains(&format!("lane {l} ")), "{what}: {m}")
                            }
                            (res, _) => panic!("{what}: {res:?}, want MEMVIOL in lane {viol:?}"), // ok: a unit test
                        };
                        let mut w = rig::wave(lanes);
                        w.set_exec(exec);
                        set_v(&mut w, 1, a);
                        check(w.ds(&rig::inst(&LOAD_2ADDR, lanes == 64), &mut r.ctx()));
                        for l in 0..lanes {
                            let got = [w.v(4)[l], w.v(5)[l]];
                            let want = if exec >> l & 1 != 0 { want_v[l] } else { [untouched(4, l), untouched(5, l)] };
                            assert_eq!(got, want, "{what}: lane {l}");
                        }
                        for k in 0..2 {
                            set_v(&mut w, 4 + k, |l| data(k, l));
                        }
                        check(w.ds(&rig::inst(&STORE_2ADDR, lanes == 64), &mut r.ctx()));
                        assert!(r.lds == want_lds, "{what}: stored bytes differ");
                    }
                }
            }
        }
    }

    /// LDS atomics: lanes in order (three lanes per dword), the returning forms giving the
    /// value before each lane's own operation; a lane out of range does nothing and
    /// returns zero; a misaligned one (any mode: atomics must be aligned to their size)
    /// too, and the instruction raises MEMVIOL.
    #[test]
    fn lds_atomics_in_lane_order() {
        for lanes in [32, 64] {
            for exec in execs(lanes) {
                for (op, wide, rtn) in [(&ADD, false, false), (&ADD_RTN, false, true), (&MAX_RTN_U64, true, true)] {
                    let size = if wide { 8 } else { 4 };
                    for case in 0..3 {
                        let len = 256;
                        let a = |l: usize| -> u32 {
                            match (case, l) {
                                (1, 5) => 4096,                        // out of range
                                (2, 5) => (size * (l / 3) + 2) as u32, // misaligned
                                _ => (size * (l / 3)) as u32 % 240,
                            }
                        };
                        let x = |l: usize| -> u64 { (l as u64 * 0x1_0000_0001 + 7) ^ (l as u64) << 40 };
                        let mut r = Rig::new(4096, len, AlignMode::Unaligned);
                        let mut want_lds = r.lds.clone();
                        let mut want_v: Vec<u64> =
                            (0..lanes).map(|l| untouched(6, l) as u64 | (untouched(7, l) as u64) << 32).collect();
                        let mut viol = None;
                        for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
                            let p = a(l) as usize;
                            if p % size != 0 {
                                viol.get_or_insert(l);
                                want_v[l] = 0;
                            } else if p + size > len {
                                want_v[l] = 0;
                            } else {
                                let mut b = [0u8; 8];
                                b[..size].copy_from_slice(&want_lds[p..p + size]);
                                let old = u64::from_le_bytes(b);
                                let new =
                                    if wide { old.max(x(l)) } else { (old as u32).wrapping_add(x(l) as u32) as u64 };
                                want_lds[p..p + size].copy_from_slice(&new.to_le_bytes()[..size]);
                                want_v[l] = old;
                            }
                        }
                        let mut w = rig::wave(lanes);
                        w.set_exec(exec);
                        set_v(&mut w, 1, a);
                        set_v(&mut w, 4, |l| x(l) as u32);
                        set_v(&mut w, 5, |l| (x(l) >> 32) as u32);
                        let res = w.ds(&rig::inst(op, lanes == 64), &mut r.ctx());
                        let what = format!("wave{lanes} exec {exec:#x} wide {wide} rtn {rtn} case {case}");
                        match (res, viol) {
                            (Ok(()), None) => {}
                            (Err(FaultKind::MemoryViolation(m)), Some(l)) => {
                                assert!(m.contains(&format!("lane {l} ")), "{what}: {m}")
                            }
                            (res, _) => panic!("{what}: {res:?}"), // ok: a unit test
                        }
                        assert!(r.lds == want_lds, "{what}: LDS");
                        for l in 0..lanes {
                            let got = w.v(6)[l] as u64 | if wide { (w.v(7)[l] as u64) << 32 } else { 0 };
                            let want = match (rtn && exec >> l & 1 != 0, wide) {
                                (false, _) => {
                                    untouched(6, l) as u64 | if wide { (untouched(7, l) as u64) << 32 } else { 0 }
                                }
                                (true, true) => want_v[l],
                                (true, false) => want_v[l] & 0xffff_ffff,
                            };
                            assert_eq!(got, want, "{what}: lane {l}");
                        }
                    }
                }
            }
        }
    }

    /// Runs one DS instruction (machine words) in a wave32 whose v1 = `addr[l]`, v2 =
    /// 0x100 + l, v4/v5 = 0xffff_ffff, over 256 bytes of LDS holding 0..255.
    fn run(words: &[u32], mode: AlignMode, addr: impl Fn(usize) -> u32) -> (Wave, Vec<u8>, Result<(), FaultKind>) {
        let inst = decode(words, false).unwrap();
        let mut w = Wave::new(32);
        w.set_exec(u32::MAX as u64);
        for l in 0..32 {
            w.vgpr[32 + l] = addr(l);
            w.vgpr[2 * 32 + l] = 0x100 + l as u32;
            w.vgpr[4 * 32 + l] = u32::MAX;
            w.vgpr[5 * 32 + l] = u32::MAX;
        }
        let mut lds: Vec<u8> = (0..=255).collect();
        let vm = AddressSpace::new(1 << 20);
        let mut tlb = Tlb::default();
        let abort = AtomicBool::new(false);
        let vmid = VmidRegs::default().with_alignment(mode);
        let host_trap = std::sync::atomic::AtomicU64::new(0);
        let mut ctx = Ctx {
            vm: &vm,
            tlb: &mut tlb,
            lds: &mut lds,
            abort: &abort,
            vmid: &vmid,
            handler: None,
            host_trap: &host_trap,
        };
        let r = w.ds(&inst, &mut ctx);
        (w, lds, r)
    }

    /// RDNA3-NOTES, "LDS alignment and out-of-range behaviour": under STRICT
    /// and DWORD_STRICT a misaligned LDS access is a MEMVIOL, after the instruction
    /// completed for the other lanes: a misaligned lane's load returns zero and its store
    /// is dropped.
    #[test]
    fn seed000_misaligned_lanes_complete_as_zero_or_dropped_then_memviol() {
        for mode in [AlignMode::Strict, AlignMode::DwordStrict] {
            // Lanes 0..7 at 8 × lane (aligned), lane 3 at 4 (misaligned for b64, fine for b32),
            // lane 5 at 2 (misaligned for both); other lanes out of range (at 0x1000).
            let addr = |l: usize| match l {
                3 => 4,
                5 => 2,
                0..=7 => 8 * l as u32,
                _ => 0x1000,
            };
            let (w, _, r) = run(&[0xd9d8_0000, 0x0400_0001], mode, addr);
            assert!(matches!(r, Err(FaultKind::MemoryViolation(_))), "{mode:?}: {r:?}");
            for l in 0..32 {
                let a = addr(l) as usize;
                let want = match l {
                    3 | 5 | 8.. => [0, 0],
                    _ => [0, 4].map(|k| u32::from_le_bytes(std::array::from_fn(|i| (a + k + i) as u8))),
                };
                assert_eq!([w.v(4)[l], w.v(5)[l]], want, "{mode:?} lane {l}");
            }
            let (_, lds, r) = run(&[0xd834_0000, 0x0000_0201], mode, addr);
            assert!(matches!(r, Err(FaultKind::MemoryViolation(_))), "{mode:?}: {r:?}");
            let mut want: Vec<u8> = (0..=255).collect();
            for l in [0, 1, 2, 3, 4, 6, 7] {
                let a = addr(l) as usize;
                want[a..a + 4].copy_from_slice(&(0x100 + l as u32).to_le_bytes());
            }
            assert_eq!(lds, want, "{mode:?}: lane 5's store is dropped, the others are done");
        }
    }
}
