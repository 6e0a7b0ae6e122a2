//! FLAT, GLOBAL and SCRATCH instructions: 64-bit addresses, and per-lane private memory
//! through FLAT_SCRATCH.
//!
//! The three segments share their opcodes (same codes, same data shapes) and differ in
//! where a lane's address comes from and where it lands:
//! - GLOBAL: `saddr` (SGPR pair) + 32-bit VGPR offset, or a 64-bit VGPR address, plus a
//!   signed 13-bit offset; `global_*_addtid_b32` use `saddr + offset + lane * 4`
//!   (AMDGPUUsage's gfx11 operand notes: "Address = [saddr] + offset13s + ThreadID * 4").
//! - SCRATCH: a 32-bit private address per lane, the sum of `vaddr` (with SVE), `saddr`
//!   (an SGPR) and the signed offset, neither (ST mode) giving just the offset; it goes
//!   through the per-lane swizzle into the wave's memory at FLAT_SCRATCH.
//! - FLAT: a 64-bit VGPR address plus an unsigned 12-bit offset, routed by aperture: the
//!   shared (LDS) and private (scratch) apertures are 4 GiB windows whose bits 63:48 are
//!   SH_MEM_BASES.SHARED_BASE / PRIVATE_BASE (AMDGPUUsage, "Address Spaces": "in 64-bit
//!   address mode the aperture sizes are 2^32 bytes and the base is aligned to 2^32"); the
//!   low 32 bits are the LDS offset or the private address. Everything else is global.
//!
//! RDNA3-NOTES, "Memory alignment modes": every access obeys SH_MEM_CONFIG.ALIGNMENT_MODE
//! ([`aligned`]); a lane misaligned under a strict mode loads zero and stores nothing,
//! and the instruction raises MEMVIOL once all lanes are done. Atomics must be aligned to
//! their size in every mode. RDNA3-NOTES, "VGPR out-of-range behaviour": returned registers
//! not all allocated make the instruction a no-op (issued with EXEC = 0); an unallocated
//! source register reads v0.

use std::sync::atomic::{AtomicU32, AtomicU64};

use super::vmem::{align_rule, aligned, atomic_op, misaligned, move_dwords, narrow};
use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::{mflag, Inst, Operand, SGPR_EXEC_HI};
use crate::isa::table::{Access, Op, D16, F};
use crate::mem::atomic::{self, AtomicError, AtomicOp};

/// Where a lane's access lands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Seg {
    Global,
    /// The workgroup's LDS (an offset into it).
    Lds,
    /// The lane's private (scratch) memory (a private address, before the swizzle).
    Private,
}

/// The data shape of a load or store: its row's memory facts ([`Op::mem`]).
#[derive(Clone, Copy, Debug)]
struct Shape {
    /// Bytes per lane.
    size: u32,
    signed: bool,
    store: bool,
    half: D16,
}

#[inline]
fn shape(op: Op) -> Option<Shape> {
    let m = op.mem()?;
    let store = match m.access {
        Access::Load => false,
        Access::Store => true,
        _ => return None,
    };
    Some(Shape { size: m.size as u32, signed: m.signed, store, half: m.d16 })
}

impl Wave {
    pub(super) fn global(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let info = inst.op.info();
        let off = inst.imm as i64 as u64;
        let saddr = match inst.src[2] {
            Operand::Sgpr(_) => self.s64(&inst.src[2]),
            _ => 0,
        };
        let mut addr = [0u64; 64];
        if info.op.mem().is_some_and(|m| m.tid) {
            for l in 0..self.lanes {
                addr[l] = saddr.wrapping_add(off).wrapping_add(4 * l as u64);
            }
        } else if matches!(inst.src[2], Operand::Sgpr(_)) {
            let lo = self.vmem_src(&inst.src[0]);
            for l in 0..self.lanes {
                addr[l] = saddr.wrapping_add(lo[l] as u64).wrapping_add(off);
            }
        } else {
            let lo = self.vmem_src(&inst.src[0]);
            let hi = self.vmem_src(&self.reg_plus(&inst.src[0], 1));
            for l in 0..self.lanes {
                addr[l] = (lo[l] as u64 | (hi[l] as u64) << 32).wrapping_add(off);
            }
        }
        self.segment_access(inst, ctx, &addr, None, exec)
    }

    /// Scratch (private) memory: the lane's 32-bit private address from SVE's VGPR, the
    /// SGPR `saddr` and the signed offset.
    pub(super) fn scratch(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let vaddr = if inst.flags & mflag::SVE != 0 { self.vmem_src(&inst.src[0]) } else { [0; 64] };
        // SADDR 0x7F (exec_hi) is no register of scratch's SADDR class (LLVM's
        // SReg_32_XEXEC_HI): it disables SADDR, as on gfx10; Mesa 22.3's ACO encodes its
        // "off" so on gfx11, and RADV's wave64 scratch would otherwise add EXEC_HI.
        let saddr = match inst.src[2] {
            Operand::Sgpr(s) if s != SGPR_EXEC_HI => self.s32(&inst.src[2]),
            _ => 0,
        };
        let base = saddr.wrapping_add(inst.imm as u32);
        let mut addr = [0u64; 64];
        for l in 0..self.lanes {
            addr[l] = vaddr[l].wrapping_add(base) as u64;
        }
        let seg = [Seg::Private; 64];
        self.segment_access(inst, ctx, &addr, Some(&seg), exec)
    }

    /// FLAT: a 64-bit address per lane, routed to LDS, scratch or global memory by the
    /// apertures of SH_MEM_BASES.
    pub(super) fn flat(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let lo = self.vmem_src(&inst.src[0]);
        let hi = self.vmem_src(&self.reg_plus(&inst.src[0], 1));
        let shared = ctx.vmid.shared_aperture() >> 32;
        let private = ctx.vmid.private_aperture() >> 32;
        let mut addr = [0u64; 64];
        let mut seg = [Seg::Global; 64];
        let mut mixed = false;
        for l in 0..self.lanes {
            let a = (lo[l] as u64 | (hi[l] as u64) << 32).wrapping_add(inst.imm as u32 as u64);
            if exec >> l & 1 == 0 {
                continue;
            }
            (addr[l], seg[l]) = match a >> 32 {
                h if h == shared => (a & 0xffff_ffff, Seg::Lds),
                h if h == private => (a & 0xffff_ffff, Seg::Private),
                _ => (a, Seg::Global),
            };
            mixed |= seg[l] != Seg::Global;
        }
        self.segment_access(inst, ctx, &addr, mixed.then_some(&seg), exec)
    }

    /// One FLAT-family instruction once each lane's address is known: `seg` says where
    /// each lane goes (`None`: all global).
    fn segment_access(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[u64; 64],
        seg: Option<&[Seg; 64]>,
        exec: u64,
    ) -> Result<(), FaultKind> {
        let info = inst.op.info();
        if info.flags & F::ATOMIC != 0 {
            return self.vmem_atomic(inst, ctx, addr, seg, exec);
        }
        let sh = shape(info.op).ok_or_else(|| illegal(format!("{} is not a load or store", info.name)))?;
        let dwords = sh.size.div_ceil(4) as usize;
        // RDNA3-NOTES, "VGPR out-of-range behaviour": a load whose returned VGPRs are not
        // all allocated is issued with EXEC = 0.
        if !sh.store {
            if let Operand::Vgpr(r) = inst.dst {
                if !self.vgprs_in_range(r, dwords as u32) {
                    return Ok(());
                }
            }
        }
        if seg.is_none() && sh.size >= 4 && sh.half == D16::No {
            let done = if self.lanes == 32 {
                self.global_fast::<32>(inst, ctx, addr, sh, exec)
            } else {
                self.global_fast::<64>(inst, ctx, addr, sh, exec)
            };
            if let Some(r) = done {
                return r;
            }
        }
        // Alignment (RDNA3-NOTES, "Memory alignment modes"): DWORD mode aligns down, the
        // strict modes drop the lane and raise MEMVIOL after the instruction.
        let mode = ctx.vmid.alignment();
        let mut addr = *addr;
        let mut active = exec;
        let mut viol = None;
        if mode != crate::spi::AlignMode::Unaligned {
            for l in 0..self.lanes {
                if active >> l & 1 == 0 {
                    continue;
                }
                match aligned(mode, addr[l], sh.size) {
                    Some(a) => addr[l] = a,
                    None => {
                        active &= !(1 << l);
                        viol.get_or_insert((l, addr[l]));
                    }
                }
            }
        }
        let mut data = [[0u32; 64]; 4];
        if sh.store {
            for (k, d) in data.iter_mut().enumerate().take(dwords) {
                *d = self.vmem_src(&self.reg_plus(&inst.src[1], k));
            }
            if sh.half == D16::Hi {
                for v in data[0].iter_mut() {
                    *v >>= 16;
                }
            }
        }
        let mut out = [[0u32; 64]; 4];
        let global = match seg {
            None => active,
            Some(seg) => {
                let mut g = 0u64;
                for l in 0..self.lanes {
                    if active >> l & 1 == 0 {
                        continue;
                    }
                    match seg[l] {
                        Seg::Global => g |= 1 << l,
                        Seg::Lds => self.lds_lane(ctx, l, addr[l], sh, &data, &mut out),
                        Seg::Private => self.private_lane(ctx, l, addr[l], sh, &data, &mut out)?,
                    }
                }
                g
            }
        };
        if global != 0 {
            global_move(ctx, self.lanes, &addr, global, sh, &data, &mut out)?;
        }
        if !sh.store {
            for k in 0..dwords {
                let d = self.reg_plus(&inst.dst, k);
                let old = if sh.half == D16::No { [0; 64] } else { self.vsrc(&d) };
                let mut vals = [0u32; 64];
                for l in 0..self.lanes {
                    let v = out[k][l];
                    vals[l] = match sh.half {
                        D16::No => narrow(v.to_le_bytes(), sh.size, sh.signed),
                        D16::Lo => old[l] & 0xffff_0000 | narrow(v.to_le_bytes(), sh.size, sh.signed) & 0xffff,
                        D16::Hi => old[l] & 0xffff | narrow(v.to_le_bytes(), sh.size, sh.signed) << 16,
                    };
                }
                self.vdst(&d, &vals, exec);
            }
        }
        match viol {
            Some((l, a)) => Err(misaligned(inst, mode, l, a)),
            None => Ok(()),
        }
    }

    /// The fast path of a global load or store of whole dwords (4 to 16 bytes, no D16),
    /// taken only where it cannot differ from the general path: every active lane aligned
    /// under a strict mode (DWORD mode aligns down; RDNA3-NOTES, "Memory alignment modes"), and the lanes'
    /// whole span in one BO, translated once; then each active lane moves its dwords in
    /// lane order. `None` leaves the instruction to the general path, which nothing here
    /// has touched and which reports a misaligned lane or a fault at its exact address.
    #[inline(always)]
    fn global_fast<const N: usize>(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[u64; 64],
        sh: Shape,
        exec: u64,
    ) -> Option<Result<(), FaultKind>> {
        if exec == 0 {
            return None;
        }
        let (mask, unit) = align_rule(ctx.vmid.alignment(), sh.size);
        let (mut lo, mut hi, mut low) = (u64::MAX, 0u64, 0u64);
        if exec == u64::MAX >> (64 - N) {
            for &a in &addr[..N] {
                low |= a;
                lo = lo.min(a);
                hi = hi.max(a);
            }
        } else {
            for l in 0..N {
                let on = exec >> l & 1 != 0;
                let a = addr[l];
                low |= if on { a } else { 0 };
                lo = lo.min(if on { a } else { u64::MAX });
                hi = hi.max(if on { a } else { 0 });
            }
        }
        if low & (unit - 1) != 0 {
            return None;
        }
        let size = sh.size as u64;
        // Aligning down is monotonic: the lowest and highest lanes stay so.
        let (lo, hi) = (lo & mask, (hi & mask).checked_add(size)?);
        let p0 = ctx.tlb.translate(ctx.vm, lo, hi - lo, sh.store).ok()?;
        let mut at = [0usize; N];
        for l in 0..N {
            at[l] = ((addr[l] & mask).wrapping_sub(lo)) as usize;
        }
        let dwords = (sh.size / 4) as usize;
        let mut rows = [0usize; 4];
        if sh.store {
            // Data registers that are not allocated read v0.
            let Operand::Vgpr(data) = inst.src[1] else { return None };
            for (k, r) in rows.iter_mut().enumerate().take(dwords) {
                *r = self.vmem_reg(data.wrapping_add(k as u16)) * N;
            }
        } else {
            // The returned registers are allocated (checked before).
            let Operand::Vgpr(dst) = inst.dst else { return None };
            for (k, r) in rows.iter_mut().enumerate().take(dwords) {
                *r = (dst as usize + k) * N;
            }
        }
        // SAFETY: translate() checked that [lo, hi) lies in one BO, and every active
        // lane's dwords lie in [lo, hi) (lo <= its aligned address, which plus size is at
        // most hi); the BO's memory is not the register file.
        unsafe { move_dwords::<N>(&mut self.vgpr, p0, &at, exec, &rows, dwords, sh.store) };
        Some(Ok(()))
    }

    /// For an atomic whose lanes are all global: the host address of the lowest active
    /// lane's address and that address, when every active lane is aligned to `size` and
    /// all of them lie in one BO; `None` otherwise (the lane-by-lane path decides).
    fn atomic_span(&self, ctx: &mut Ctx, addr: &[u64; 64], exec: u64, size: u64) -> Option<(*mut u8, u64)> {
        if exec == 0 {
            return None;
        }
        let (mut lo, mut hi, mut low) = (u64::MAX, 0u64, 0u64);
        for l in 0..self.lanes {
            if exec >> l & 1 != 0 {
                lo = lo.min(addr[l]);
                hi = hi.max(addr[l]);
                low |= addr[l];
            }
        }
        if low % size != 0 {
            return None;
        }
        let p0 = ctx.tlb.translate(ctx.vm, lo, hi.checked_add(size)? - lo, true).ok()?;
        Some((p0, lo))
    }

    /// The address of byte `a` of lane `l`'s private memory. RDNA3-NOTES,
    /// "Scratch addressing": scratch is a swizzled buffer with a 4-byte element and an
    /// index stride of the wave's lanes, the lane id as the index (its part above the wave,
    /// TID / 64, is folded into the wave's base, FLAT_SCRATCH): private dword `a / 4` of
    /// all lanes are contiguous, so a wave's accesses to one private address are.
    fn private_addr(&self, l: usize, a: u64) -> u64 {
        self.flat_scratch.wrapping_add((a / 4) * self.lanes as u64 * 4 + l as u64 * 4 + a % 4)
    }

    /// A load or store of one lane's private memory (`addr` its 32-bit private address).
    /// Scratch has no range check (RDNA3-NOTES, "Scratch addressing": OOB mode 2); an
    /// address outside every mapping is a VM fault.
    fn private_lane(
        &self,
        ctx: &mut Ctx,
        l: usize,
        addr: u64,
        sh: Shape,
        data: &[[u32; 64]; 4],
        out: &mut [[u32; 64]; 4],
    ) -> Result<(), FaultKind> {
        let mut bytes = [0u8; 16];
        let n = sh.size as usize;
        if sh.store {
            for k in 0..n.div_ceil(4) {
                bytes[4 * k..4 * k + 4].copy_from_slice(&data[k][l].to_le_bytes());
            }
        }
        // Dword by dword when aligned, else byte by byte, since the swizzle is per dword.
        let step = if addr % 4 == 0 && n >= 4 { 4 } else { 1 };
        for b in (0..n).step_by(step) {
            // The private address wraps at 32 bits.
            let phys = self.private_addr(l, (addr + b as u64) & 0xffff_ffff);
            let chunk = &mut bytes[b..b + step];
            if sh.store {
                ctx.tlb.write(ctx.vm, phys, chunk)?;
            } else {
                ctx.tlb.read(ctx.vm, phys, chunk)?;
            }
        }
        if !sh.store {
            for k in 0..n.div_ceil(4) {
                out[k][l] = u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]);
            }
        }
        Ok(())
    }

    /// A FLAT load or store of one lane that lands in LDS. RDNA3-NOTES,
    /// "LDS alignment and out-of-range behaviour": an access past the allocation reads zero
    /// (all of it, for a multi-dword one) and writes nothing.
    fn lds_lane(&self, ctx: &mut Ctx, l: usize, addr: u64, sh: Shape, data: &[[u32; 64]; 4], out: &mut [[u32; 64]; 4]) {
        let n = sh.size as usize;
        let a = addr as usize;
        let Some(mem) = ctx.lds.get_mut(a..a + n) else { return };
        for k in 0..n.div_ceil(4) {
            let len = (n - 4 * k).min(4);
            let m = &mut mem[4 * k..4 * k + len];
            if sh.store {
                m.copy_from_slice(&data[k][l].to_le_bytes()[..len]);
            } else {
                let mut w = [0u8; 4];
                w[..len].copy_from_slice(m);
                out[k][l] = u32::from_le_bytes(w);
            }
        }
    }

    /// A FLAT, GLOBAL or buffer atomic: each active lane, in lane order, does one indivisible
    /// read-modify-write; global memory with the host's atomics (so atomics from other
    /// waves never interleave inside one), LDS and private memory (which no other thread
    /// touches during the instruction) by the same operation on a copy. With GLC the value
    /// memory held before is returned to VDST. RDNA3-NOTES, "Memory alignment modes": an
    /// atomic not aligned to its data size is a MEMVIOL (after the other lanes are done;
    /// the lane changes nothing and returns zero); a returning atomic whose VDST registers
    /// are not all allocated is issued with EXEC = 0.
    pub(super) fn vmem_atomic(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[u64; 64],
        seg: Option<&[Seg; 64]>,
        exec: u64,
    ) -> Result<(), FaultKind> {
        let info = inst.op.info();
        let op = atomic_op(inst.op).ok_or_else(|| illegal(format!("{} is not an atomic", info.name)))?;
        let args = AtomicArgs {
            op,
            wide: info.ty[0].dwords(false) == 2,
            data: inst.src[1],
            ndata: info.ty[1].dwords(false) as usize,
        };
        self.vmem_atomic_with(inst, ctx, addr, seg, exec, &args)
    }

    /// [`Self::vmem_atomic`] with the operation, width and data registers given (image
    /// atomics take them from dmask and VDATA, not from their row).
    pub(super) fn vmem_atomic_with(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[u64; 64],
        seg: Option<&[Seg; 64]>,
        exec: u64,
        args: &AtomicArgs,
    ) -> Result<(), FaultKind> {
        let info = inst.op.info();
        let (op, wide) = (args.op, args.wide);
        let size = if wide { 8 } else { 4 };
        let glc = inst.flags & mflag::GLC != 0;
        if glc {
            if let Operand::Vgpr(r) = inst.dst {
                if !self.vgprs_in_range(r, size / 4) {
                    return Ok(());
                }
            }
        }
        let mut data = [[0u32; 64]; 4];
        for (k, d) in data.iter_mut().enumerate().take(args.ndata) {
            *d = self.vmem_src(&self.reg_plus(&args.data, k));
        }
        let mut old = [0u64; 64];
        let mut viol = None;
        let operands = |l: usize| {
            if wide {
                (data[0][l] as u64 | (data[1][l] as u64) << 32, data[2][l] as u64 | (data[3][l] as u64) << 32)
            } else {
                (data[0][l] as u64, data[1][l] as u64)
            }
        };
        // All lanes global, aligned and in one BO (translated once): no lane can fault or
        // break a rule, so they do their atomics at once, in lane order, as below.
        let float64 = wide && matches!(op, AtomicOp::FCmpSwap | AtomicOp::FMin | AtomicOp::FMax | AtomicOp::FAdd);
        let span = if seg.is_none() && !float64 { self.atomic_span(ctx, addr, exec, size as u64) } else { None };
        if let Some((p0, lo)) = span {
            for l in 0..self.lanes {
                if exec >> l & 1 == 0 {
                    continue;
                }
                let (src, cmp) = operands(l);
                // SAFETY: atomic_span checked that every active lane's `size` bytes lie in
                // the BO mapping that holds address lo at p0, aligned to size (mappings are
                // page aligned, so the host address is too).
                let p = unsafe { p0.add((addr[l] - lo) as usize) };
                old[l] = if wide {
                    // SAFETY: as above, 8 bytes at an 8-aligned host address.
                    let m = unsafe { &*(p as *const AtomicU64) };
                    atomic::apply64(op, m, src, cmp).unwrap_or(0)
                } else {
                    // SAFETY: as above, 4 bytes at a 4-aligned host address.
                    let m = unsafe { &*(p as *const AtomicU32) };
                    atomic::apply32(op, m, src as u32, cmp as u32) as u64
                };
            }
        }
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 || span.is_some() {
                continue;
            }
            let (src, cmp) = operands(l);
            let a = addr[l];
            if a % size as u64 != 0 {
                viol.get_or_insert((l, a));
                continue;
            }
            let s = seg.map_or(Seg::Global, |s| s[l]);
            old[l] = match s {
                Seg::Global => atomic::at(ctx.tlb, ctx.vm, a, wide, op, src, cmp).map_err(|e| match e {
                    AtomicError::Misaligned => FaultKind::MemoryViolation(format!(
                        "{size}-byte atomic of lane {l} at {a:#x} is not aligned to its size"
                    )),
                    AtomicError::Fault(f) => FaultKind::Vm(f),
                    AtomicError::NoSuchWidth => illegal(format!("{} has no {}-bit form", info.name, 8 * size)),
                })?,
                Seg::Lds => {
                    let r = a as usize..a as usize + size as usize;
                    match ctx.lds.get_mut(r) {
                        Some(m) => rmw(m, wide, op, src, cmp).ok_or_else(|| illegal(info.name))?,
                        // Out of range: the write is dropped and the lane reads zero.
                        None => 0,
                    }
                }
                Seg::Private => {
                    // Dword by dword: the swizzle puts the other lanes' between them.
                    let mut m = [0u8; 8];
                    let m = &mut m[..size as usize];
                    for (k, d) in m.chunks_mut(4).enumerate() {
                        ctx.tlb.read(ctx.vm, self.private_addr(l, a + 4 * k as u64), d)?;
                    }
                    let v = rmw(m, wide, op, src, cmp).ok_or_else(|| illegal(info.name))?;
                    for (k, d) in m.chunks(4).enumerate() {
                        ctx.tlb.write(ctx.vm, self.private_addr(l, a + 4 * k as u64), d)?;
                    }
                    v
                }
            };
        }
        if glc {
            if wide {
                self.vdst64(&inst.dst, &old, exec);
            } else {
                self.vdst(&inst.dst, &old.map(|v| v as u32), exec);
            }
        }
        match viol {
            Some((l, a)) => Err(FaultKind::MemoryViolation(format!(
                "{} of lane {l} at {a:#x} is not aligned to its {size}-byte size",
                info.name
            ))),
            None => Ok(()),
        }
    }
}

/// What an atomic does: its operation, whether it is 64-bit, and its data registers
/// (the source, then the compare value of a cmpswap).
pub(super) struct AtomicArgs {
    pub op: AtomicOp,
    pub wide: bool,
    pub data: Operand,
    pub ndata: usize,
}

/// The atomic `op` on the little-endian word `m` (4 or 8 bytes) that nothing else can
/// touch meanwhile: the host atomic's operation on a copy. Returns the old value, or
/// `None` for an operation without this width.
fn rmw(m: &mut [u8], wide: bool, op: atomic::AtomicOp, src: u64, cmp: u64) -> Option<u64> {
    if wide {
        let old = u64::from_le_bytes(m.try_into().ok()?);
        let cell = AtomicU64::new(old);
        atomic::apply64(op, &cell, src, cmp)?;
        m.copy_from_slice(&cell.into_inner().to_le_bytes());
        Some(old)
    } else {
        let old = u32::from_le_bytes(m.try_into().ok()?);
        let cell = AtomicU32::new(old);
        atomic::apply32(op, &cell, src as u32, cmp as u32);
        m.copy_from_slice(&cell.into_inner().to_le_bytes());
        Some(old as u64)
    }
}

/// Moves the global part of a load or store: lane `l` (bit `l` of `mask`) accesses
/// `sh.size` bytes at `addr[l]`, as dwords (the last one shorter) at `addr[l] + 4k`.
/// When all accesses fall in one buffer object it is translated once; otherwise each is
/// translated on its own, so that a fault reports the exact address.
fn global_move(
    ctx: &mut Ctx,
    lanes: usize,
    addr: &[u64; 64],
    mask: u64,
    sh: Shape,
    data: &[[u32; 64]; 4],
    out: &mut [[u32; 64]; 4],
) -> Result<(), FaultKind> {
    let size = sh.size as u64;
    let dwords = size.div_ceil(4) as usize;
    let (mut lo, mut hi) = (u64::MAX, 0u64);
    for l in 0..lanes {
        if mask >> l & 1 != 0 {
            lo = lo.min(addr[l]);
            hi = hi.max(addr[l].saturating_add(size));
        }
    }
    let len = |k: usize| (size - 4 * k as u64).min(4) as usize;
    if let Ok(base) = ctx.tlb.translate(ctx.vm, lo, hi - lo, sh.store) {
        for l in 0..lanes {
            if mask >> l & 1 == 0 {
                continue;
            }
            for k in 0..dwords {
                // SAFETY: translate() checked that [lo, hi) lies in one mapping, and this
                // access is inside [lo, hi).
                unsafe {
                    let p = base.add((addr[l] + 4 * k as u64 - lo) as usize);
                    match (len(k), sh.store) {
                        (4, true) => (p as *mut u32).write_unaligned(data[k][l]),
                        (4, false) => out[k][l] = (p as *const u32).read_unaligned(),
                        (2, true) => (p as *mut u16).write_unaligned(data[k][l] as u16),
                        (2, false) => out[k][l] = (p as *const u16).read_unaligned() as u32,
                        (_, true) => *p = data[k][l] as u8,
                        (_, false) => out[k][l] = *p as u32,
                    }
                }
            }
        }
        return Ok(());
    }
    for l in 0..lanes {
        if mask >> l & 1 == 0 {
            continue;
        }
        for k in 0..dwords {
            let a = addr[l].wrapping_add(4 * k as u64);
            let n = len(k);
            if sh.store {
                ctx.tlb.write(ctx.vm, a, &data[k][l].to_le_bytes()[..n])?;
            } else {
                let mut b = [0u8; 4];
                ctx.tlb.read(ctx.vm, a, &mut b[..n])?;
                out[k][l] = u32::from_le_bytes(b);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::vmem::rig::*;
    use super::*;
    use crate::isa::table::{Encoding, OPS};
    use crate::mem::VmFault;
    use crate::spi::AlignMode;

    const LOADS: [[u8; 8]; 4] = [
        [0x00, 0x00, 0x52, 0xdc, 0x01, 0x00, 0x08, 0x04], // global_load_b32 v4, v1, s[8:9]
        [0x00, 0x00, 0x56, 0xdc, 0x01, 0x00, 0x08, 0x04], // global_load_b64 v[4:5], v1, s[8:9]
        [0x00, 0x00, 0x5a, 0xdc, 0x01, 0x00, 0x08, 0x04], // global_load_b96 v[4:6], v1, s[8:9]
        [0x00, 0x00, 0x5e, 0xdc, 0x01, 0x00, 0x08, 0x04], // global_load_b128 v[4:7], v1, s[8:9]
    ];
    const STORES: [[u8; 8]; 4] = [
        [0x00, 0x00, 0x6a, 0xdc, 0x01, 0x04, 0x08, 0x00], // global_store_b32 v1, v4, s[8:9]
        [0x00, 0x00, 0x6e, 0xdc, 0x01, 0x04, 0x08, 0x00], // global_store_b64 v1, v[4:5], s[8:9]
        [0x00, 0x00, 0x72, 0xdc, 0x01, 0x04, 0x08, 0x00], // global_store_b96 v1, v[4:6], s[8:9]
        [0x00, 0x00, 0x76, 0xdc, 0x01, 0x04, 0x08, 0x00], // global_store_b128 v1, v[4:7], s[8:9]
    ];
    /// global_load_b64 v[4:5], v[2:3], off offset:-8 (a 64-bit VGPR address)
    const LOAD_VADDR: [u8; 8] = [0xf8, 0x1f, 0x56, 0xdc, 0x02, 0x00, 0x7c, 0x04];
    /// flat_load_b128 v[4:7], v[2:3]
    const FLAT_LOAD: [u8; 8] = [0x00, 0x00, 0x5c, 0xdc, 0x02, 0x00, 0x7c, 0x04];
    /// global_atomic_add_u32 v4, v1, v5, s[8:9] glc
    const ATOMIC_ADD: [u8; 8] = [0x00, 0x40, 0xd6, 0xdc, 0x01, 0x05, 0x08, 0x04];

    /// Data a store's lane `l` writes as dword `k` (v4 + k).
    fn data(k: usize, l: usize) -> u32 {
        0x5100_0000 | (k as u32) << 8 | l as u32
    }

    fn set_data(w: &mut Wave) {
        for k in 0..4 {
            set_v(w, 4 + k, |l| data(k, l));
        }
    }

    /// What a wave's v4.. hold in lane `l`, dword `k`, before a load.
    fn untouched(k: usize, l: usize) -> u32 {
        0xdead_0000 | (4 + k as u32) << 8 | l as u32
    }

    /// Global loads and stores of every width at the fast path's boundaries, against seed
    /// 000's rules: no range check, the alignment mode per lane (DWORD aligns down; the
    /// strict modes drop a misaligned lane and raise MEMVIOL naming the first), lanes in
    /// order (four lanes per element: the highest lane's store stays).
    #[test]
    fn global_loads_and_stores_at_their_boundaries() {
        for lanes in [32, 64] {
            for (d, (load, store)) in LOADS.iter().zip(&STORES).enumerate() {
                let size = 4 * (d + 1);
                for mode in MODES {
                    for case in 0..6 {
                        for exec in execs(lanes) {
                            let what = format!("wave{lanes} b{} {mode:?} case {case} exec {exec:#x}", 8 * size);
                            let mut rig = Rig::new(4096, 0, mode);
                            let saddr = rig.bo.va() + 8;
                            let offs = offsets(case, lanes, size);
                            let mem0 = rig.mem();
                            let (mut want_v, mut want_mem, mut viol) = (vec![[0u32; 4]; lanes], mem0.clone(), None);
                            for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
                                let Some(a) = placed(mode, saddr + offs[l], size as u64) else {
                                    viol.get_or_insert((l, saddr + offs[l]));
                                    continue;
                                };
                                for k in 0..size / 4 {
                                    let at = (a - rig.bo.va()) as usize + 4 * k;
                                    want_v[l][k] = dword(&mem0, at);
                                    want_mem[at..at + 4].copy_from_slice(&data(k, l).to_le_bytes());
                                }
                            }
                            let check = |r: Result<(), FaultKind>| match (r, viol) {
                                (Ok(()), None) => {}
                                (Err(FaultKind::MemoryViolation(m)), Some((l, a))) => {
                                    assert!(m.contains(&format!("lane {l} at {a:#x}")), "{what}: {m}")
                                }
                                (r, _) => panic!("{what}: {r:?}, want MEMVIOL {viol:?}"), // ok: a unit test
                            };
                            let mut w = wave(lanes);
                            w.set_exec(exec);
                            w.sgpr[8..10].copy_from_slice(&[saddr as u32, (saddr >> 32) as u32]);
                            set_v(&mut w, 1, |l| offs[l] as u32);
                            check(w.global(&inst(load, lanes == 64), &mut rig.ctx()));
                            for l in 0..lanes {
                                for k in 0..size / 4 {
                                    let want = if exec >> l & 1 != 0 { want_v[l][k] } else { untouched(k, l) };
                                    assert_eq!(w.v(4 + k)[l], want, "{what}: load lane {l} dword {k}");
                                }
                            }
                            set_data(&mut w);
                            check(w.global(&inst(store, lanes == 64), &mut rig.ctx()));
                            assert!(rig.mem() == want_mem, "{what}: stored bytes differ");
                        }
                    }
                }
            }
        }
    }

    /// Lanes past the end of the BO: a VM fault at the first dword, in lane order, outside
    /// every mapping; the load writes no register, the stores before the fault are done.
    /// Also through a 64-bit VGPR address with a negative offset.
    #[test]
    fn global_lanes_past_the_end_fault_at_the_first_such_dword() {
        for lanes in [32, 64] {
            for (d, (load, store)) in LOADS.iter().zip(&STORES).enumerate() {
                let size = 4 * (d + 1);
                for case in [0, 1, 2] {
                    let mut rig = Rig::new(4096, 0, AlignMode::Unaligned);
                    let end = rig.bo.va() + 4096;
                    let offs = offsets(case, lanes, size);
                    let saddr = end + 2 - 16 - (size * lanes / 2) as u64;
                    let (mut first, mut want_mem) = (None, rig.mem());
                    'lanes: for l in 0..lanes {
                        for k in 0..size / 4 {
                            let a = saddr + offs[l] + 4 * k as u64;
                            if a + 4 > end {
                                first = Some(a);
                                break 'lanes;
                            }
                            let at = (a - rig.bo.va()) as usize;
                            want_mem[at..at + 4].copy_from_slice(&data(k, l).to_le_bytes());
                        }
                    }
                    let (addr, what) = (first.unwrap(), format!("wave{lanes} b{} case {case}", 8 * size));
                    let mut w = wave(lanes);
                    w.sgpr[8..10].copy_from_slice(&[saddr as u32, (saddr >> 32) as u32]);
                    set_v(&mut w, 1, |l| offs[l] as u32);
                    let before = w.vgpr.clone();
                    let r = w.global(&inst(load, lanes == 64), &mut rig.ctx());
                    assert_eq!(r, Err(FaultKind::Vm(VmFault { addr, len: 4, write: false })), "{what}");
                    assert!(w.vgpr == before, "{what}: a faulting load writes no register");
                    set_data(&mut w);
                    let r = w.global(&inst(store, lanes == 64), &mut rig.ctx());
                    assert_eq!(r, Err(FaultKind::Vm(VmFault { addr, len: 4, write: true })), "{what}");
                    assert!(rig.mem() == want_mem, "{what}: the stores before the fault are done");
                }
                // global_load_b64 v[4:5], v[2:3], off offset:-8: the lane whose dword 1 is
                // the first past the end.
                let mut rig = Rig::new(4096, 0, AlignMode::Unaligned);
                let end = rig.bo.va() + 4096;
                let mut w = wave(lanes);
                let a = |l: usize| end - 8 * (lanes - l) as u64 + 4 + 8; // lane l's address + 8
                set_v(&mut w, 2, |l| a(l) as u32);
                set_v(&mut w, 3, |l| (a(l) >> 32) as u32);
                let r = w.global(&inst(&LOAD_VADDR, lanes == 64), &mut rig.ctx());
                assert_eq!(r, Err(FaultKind::Vm(VmFault { addr: end, len: 4, write: false })), "wave{lanes}");
                w.set_exec((1 << (lanes - 1)) - 1); // without the last lane, all inside
                let mem = rig.mem();
                w.global(&inst(&LOAD_VADDR, lanes == 64), &mut rig.ctx()).unwrap();
                for l in 0..lanes - 1 {
                    let at = (a(l) - 8 - rig.bo.va()) as usize;
                    assert_eq!([w.v(4)[l], w.v(5)[l]], [dword(&mem, at), dword(&mem, at + 4)], "wave{lanes} lane {l}");
                }
            }
        }
    }

    /// FLAT with every lane global takes the global path; a lane in the shared aperture
    /// reads the LDS (RDNA3-NOTES, "LDS alignment and out-of-range behaviour": out of range reads
    /// zero, the whole access).
    #[test]
    fn flat_lanes_global_and_in_lds() {
        for lanes in [32, 64] {
            for lds_lane in [None, Some(3), Some(5)] {
                let mut rig = Rig::new(4096, 256, AlignMode::Unaligned);
                let mem = rig.mem();
                let lds = rig.lds.clone();
                let shared = rig.vmid.shared_aperture();
                let mut w = wave(lanes);
                let addr = |l: usize| match lds_lane {
                    // In range at 240 for lane 3, one byte past the end for lane 5.
                    Some(k) if k == l => shared | [0, 0, 0, 240, 0, 241][k],
                    _ => rig.bo.va() + 4 + 16 * l as u64,
                };
                set_v(&mut w, 2, |l| addr(l) as u32);
                set_v(&mut w, 3, |l| (addr(l) >> 32) as u32);
                w.flat(&inst(&FLAT_LOAD, lanes == 64), &mut rig.ctx()).unwrap();
                for l in 0..lanes {
                    let want: [u32; 4] = std::array::from_fn(|k| match lds_lane {
                        Some(3) if l == 3 => dword(&lds, 240 + 4 * k),
                        Some(5) if l == 5 => 0,
                        _ => dword(&mem, 4 + 16 * l + 4 * k),
                    });
                    let got: [u32; 4] = std::array::from_fn(|k| w.v(4 + k)[l]);
                    assert_eq!(got, want, "wave{lanes} lds lane {lds_lane:?} lane {l}");
                }
            }
        }
    }

    /// Global atomics: each lane in order (several lanes add to one dword), GLC returning
    /// the value before; a misaligned lane changes nothing, returns zero and raises MEMVIOL
    /// after the others; a lane outside every mapping faults after the lanes before it.
    #[test]
    fn global_atomics_in_lane_order_misaligned_and_faulting() {
        for lanes in [32, 64] {
            for exec in execs(lanes) {
                for case in 0..3 {
                    let mut rig = Rig::new(4096, 0, AlignMode::Unaligned);
                    let saddr = rig.bo.va() + 64;
                    let last = 63 - exec.leading_zeros() as usize;
                    let offs: Vec<u64> = (0..lanes)
                        .map(|l| match (case, l) {
                            (1, 5) => 4 * (l / 3) as u64 + 2,
                            (2, _) if l == last => 4096,
                            _ => 4 * (l / 3) as u64,
                        })
                        .collect();
                    let mut mem = rig.mem();
                    let mut want: Vec<u32> = (0..lanes).map(|l| 0xdead_0400 | l as u32).collect();
                    let (mut viol, mut fault) = (None, None);
                    for l in (0..lanes).filter(|&l| exec >> l & 1 != 0) {
                        if offs[l] % 4 != 0 {
                            viol.get_or_insert(l);
                            want[l] = 0;
                            continue;
                        }
                        if offs[l] + 64 >= 4096 {
                            fault = Some(saddr + offs[l]);
                            break;
                        }
                        let at = 64 + offs[l] as usize;
                        want[l] = dword(&mem, at);
                        mem[at..at + 4].copy_from_slice(&want[l].wrapping_add(l as u32 + 1).to_le_bytes());
                    }
                    let mut w = wave(lanes);
                    w.set_exec(exec);
                    w.sgpr[8..10].copy_from_slice(&[saddr as u32, (saddr >> 32) as u32]);
                    set_v(&mut w, 1, |l| offs[l] as u32);
                    set_v(&mut w, 5, |l| l as u32 + 1);
                    let r = w.global(&inst(&ATOMIC_ADD, lanes == 64), &mut rig.ctx());
                    let what = format!("wave{lanes} exec {exec:#x} case {case}");
                    match (r, viol, fault) {
                        (Ok(()), None, None) => {}
                        (Err(FaultKind::MemoryViolation(m)), Some(l), None) => {
                            assert!(m.contains(&format!("lane {l} ")), "{what}: {m}")
                        }
                        (Err(FaultKind::Vm(f)), _, Some(addr)) => {
                            assert_eq!(f, VmFault { addr, len: 4, write: true }, "{what}");
                            // The fault leaves the returned registers as they were.
                            want = (0..lanes).map(|l| 0xdead_0400 | l as u32).collect();
                        }
                        (r, ..) => panic!("{what}: {r:?}"), // ok: a unit test
                    }
                    for l in 0..lanes {
                        let w_ = if exec >> l & 1 != 0 { want[l] } else { 0xdead_0400 | l as u32 };
                        assert_eq!(w.v(4)[l], w_, "{what}: lane {l}");
                    }
                    assert!(rig.mem() == mem, "{what}: memory");
                }
            }
        }
    }

    /// Every FLAT, GLOBAL and SCRATCH opcode is a load or store of a known shape or an
    /// atomic with an operation.
    #[test]
    fn every_flat_opcode_has_a_shape() {
        for info in OPS.iter().filter(|i| matches!(i.enc, Encoding::Flat | Encoding::Global | Encoding::Scratch)) {
            if info.flags & F::ATOMIC != 0 {
                assert!(atomic_op(info.op).is_some(), "{}", info.name);
                continue;
            }
            let sh = shape(info.op).unwrap_or_else(|| panic!("{} has no shape", info.name)); // ok: a unit test's failure message
            assert_eq!(sh.store, info.name.contains("_store_"), "{}", info.name);
            let width = info.name.rsplit_once('_').unwrap().1;
            let bits: u32 = width[1..].parse().unwrap();
            assert_eq!(sh.size * 8, bits, "{}", info.name);
            assert_eq!(sh.signed, width.starts_with('i'), "{}", info.name);
            let half = if info.name.contains("_d16_hi_") {
                D16::Hi
            } else if info.name.contains("_d16_") {
                D16::Lo
            } else {
                D16::No
            };
            assert_eq!(sh.half, half, "{}", info.name);
        }
    }
}
