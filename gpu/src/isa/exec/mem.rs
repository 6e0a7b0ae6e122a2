//! Memory instructions: scalar loads, LDS, buffer (MUBUF) and global accesses.
//!
//! Every access goes through the address space's translation, so a bad address is a VM
//! fault report, never a host crash. Memory operations complete at once in this model;
//! `s_waitcnt` therefore has nothing to wait for.

use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::{mflag, Inst, Operand};
use crate::isa::table::Op::{self, *};
use crate::isa::table::{Encoding, Ty, F};
use crate::mem::atomic::{self, AtomicError, AtomicOp};
use crate::rsrc::{BufferResource, OobSelect};

/// Bytes an access moves per lane, and whether a narrow load sign-extends.
fn access(op: Op) -> (u32, bool) {
    match op {
        BUFFER_LOAD_U8 | GLOBAL_LOAD_U8 | SCRATCH_LOAD_U8 | BUFFER_STORE_B8 | GLOBAL_STORE_B8 | SCRATCH_STORE_B8
        | DS_STORE_B8 | DS_LOAD_U8 => (1, false),
        BUFFER_LOAD_I8 | GLOBAL_LOAD_I8 | SCRATCH_LOAD_I8 => (1, true),
        BUFFER_LOAD_U16 | GLOBAL_LOAD_U16 | SCRATCH_LOAD_U16 | BUFFER_STORE_B16 | GLOBAL_STORE_B16
        | SCRATCH_STORE_B16 | DS_STORE_B16 | DS_LOAD_U16 => (2, false),
        BUFFER_LOAD_I16 | GLOBAL_LOAD_I16 | SCRATCH_LOAD_I16 => (2, true),
        _ => (4 * data_dwords(op), false),
    }
}

/// Dwords of data per lane and element: DS rows list vdst, addr, data0 and data1 (a
/// 2addr load returns two elements), the other encodings the data width first.
fn data_dwords(op: Op) -> u32 {
    let info = op.info();
    match info.enc {
        Encoding::Ds if info.ty[2] != Ty::N => info.ty[2].dwords(false),
        Encoding::Ds if info.name.contains("2addr") => info.ty[0].dwords(false) / 2,
        _ => info.ty[0].dwords(false),
    }
}

fn is_store(op: Op) -> bool {
    op.name().contains("_store_")
}

fn narrow(bytes: [u8; 4], size: u32, signed: bool) -> u32 {
    match (size, signed) {
        (1, false) => bytes[0] as u32,
        (1, true) => bytes[0] as i8 as i32 as u32,
        (2, false) => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        (2, true) => i16::from_le_bytes([bytes[0], bytes[1]]) as i32 as u32,
        _ => u32::from_le_bytes(bytes),
    }
}

impl Wave {
    /// The V# in the four SGPRs starting at `op` (4-aligned: the low bits are ignored).
    fn vsharp(&self, op: &Operand) -> BufferResource {
        let Operand::Sgpr(i) = *op else { return BufferResource::decode([0; 4]) };
        let i = (i & !3) as usize;
        BufferResource::decode([self.sget(i), self.sget(i + 1), self.sget(i + 2), self.sget(i + 3)])
    }

    pub(super) fn smem(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        if inst.op.info().ty[0] == Ty::N {
            // s_dcache_inv, s_gl1_inv: caches are coherent in this model.
            return Ok(());
        }
        let n = inst.op.info().ty[0].dwords(false) as usize;
        let soffset = match inst.src[1] {
            Operand::Sgpr(_) => self.s32(&inst.src[1]),
            _ => 0,
        };
        let offset = (inst.imm as i64 + soffset as i64) as u64;
        let mut data = [0u32; 16];
        let buffer = matches!(
            inst.op,
            S_BUFFER_LOAD_B32 | S_BUFFER_LOAD_B64 | S_BUFFER_LOAD_B128 | S_BUFFER_LOAD_B256 | S_BUFFER_LOAD_B512
        );
        if buffer {
            // s_buffer_load: per dword, out of range if offset >= stride_or_1 * num_records
            // (seed 002, "scalar memory"); out-of-range dwords read zero.
            let v = self.vsharp(&inst.src[0]);
            let limit = v.num_records as u64 * (v.stride.max(1) as u64);
            let base = offset & !3;
            for (k, d) in data.iter_mut().enumerate().take(n) {
                let off = base + 4 * k as u64;
                if off < limit {
                    *d = ctx.tlb.read_u32(ctx.vm, v.base.wrapping_add(off))?;
                }
            }
        } else {
            let base = self.s64(&inst.src[0]) & 0xffff_ffff_ffff;
            // Scalar loads are dword aligned: the low two address bits are ignored.
            let addr = base.wrapping_add(offset) & !3;
            let mut bytes = [0u8; 64];
            ctx.tlb.read(ctx.vm, addr, &mut bytes[..4 * n])?;
            for (k, d) in data.iter_mut().enumerate().take(n) {
                *d = u32::from_le_bytes([bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]]);
            }
        }
        if let Operand::Sgpr(d) = inst.dst {
            for (k, v) in data.iter().enumerate().take(n) {
                self.sset(d as usize + k, *v);
            }
        }
        Ok(())
    }

    pub(super) fn ds(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        let exec = self.exec();
        let lds_size = ctx.lds.len() as u64;
        let addr_v = self.vsrc(&inst.src[0]);
        let two = matches!(
            op,
            DS_STORE_2ADDR_B32
                | DS_STORE_2ADDR_STRIDE64_B32
                | DS_LOAD_2ADDR_B32
                | DS_LOAD_2ADDR_STRIDE64_B32
                | DS_STORE_2ADDR_B64
                | DS_LOAD_2ADDR_B64
        );
        let (size, _) = access(op);
        let dwords = (size / 4).max(1) as usize;
        // Byte addresses of the (up to) two elements a lane touches.
        let addrs = |l: usize| -> [u64; 2] {
            let a = addr_v[l] as u64;
            if two {
                let scale = size as u64
                    * if matches!(op, DS_STORE_2ADDR_STRIDE64_B32 | DS_LOAD_2ADDR_STRIDE64_B32) { 64 } else { 1 };
                [a + inst.imm as u64 * scale, a + inst.imm1 as u64 * scale]
            } else {
                [a + (inst.imm as u64 | (inst.imm1 as u64) << 8), 0]
            }
        };
        // LDS out of range: writes are dropped, reads return zero, all-or-nothing per
        // element (seed 000, "LDS/GDS alignment and out of range").
        let in_range = |a: u64, len: u64| a + len <= lds_size;
        let lds = &mut *ctx.lds;
        let rd = |lds: &[u8], a: u64, len: u64| -> [u8; 16] {
            let mut b = [0u8; 16];
            if in_range(a, len) {
                b[..len as usize].copy_from_slice(&lds[a as usize..(a + len) as usize]);
            }
            b
        };
        match op {
            DS_STORE_B32
            | DS_STORE_B8
            | DS_STORE_B16
            | DS_STORE_B64
            | DS_STORE_B128
            | DS_STORE_2ADDR_B32
            | DS_STORE_2ADDR_STRIDE64_B32
            | DS_STORE_2ADDR_B64 => {
                let data = self.vsrc_n(&inst.src[1], dwords);
                let data1 = if two { self.vsrc_n(&inst.src[2], dwords) } else { [[0; 64]; 4] };
                for l in 0..self.lanes {
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    let a = addrs(l);
                    for (e, src) in [&data, &data1].iter().enumerate().take(if two { 2 } else { 1 }) {
                        let mut bytes = [0u8; 16];
                        for k in 0..dwords {
                            bytes[4 * k..4 * k + 4].copy_from_slice(&src[k][l].to_le_bytes());
                        }
                        let len = size as u64;
                        if in_range(a[e], len) {
                            lds[a[e] as usize..(a[e] + len) as usize].copy_from_slice(&bytes[..len as usize]);
                        }
                    }
                }
            }
            DS_LOAD_B32
            | DS_LOAD_U8
            | DS_LOAD_U16
            | DS_LOAD_B64
            | DS_LOAD_B128
            | DS_LOAD_2ADDR_B32
            | DS_LOAD_2ADDR_STRIDE64_B32
            | DS_LOAD_2ADDR_B64 => {
                let elems = if two { 2 } else { 1 };
                let mut out = [[0u32; 64]; 4];
                for l in 0..self.lanes {
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    let a = addrs(l);
                    for e in 0..elems {
                        let b = rd(lds, a[e], size as u64);
                        for k in 0..dwords {
                            let w = [b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]];
                            out[e * dwords + k][l] = narrow(w, size, false);
                        }
                    }
                }
                for (k, vals) in out.iter().enumerate().take(dwords * elems) {
                    let d = self.reg_plus(&inst.dst, k);
                    self.vdst(&d, vals, exec);
                }
            }
            DS_ADD_U32 | DS_SUB_U32 | DS_MIN_I32 | DS_MAX_I32 | DS_MIN_U32 | DS_MAX_U32 | DS_AND_B32 | DS_OR_B32
            | DS_XOR_B32 | DS_ADD_RTN_U32 => {
                let data = self.vsrc(&inst.src[1]);
                let mut ret = [0u32; 64];
                // Lanes apply in order: LDS atomics within a wave are serialised.
                for l in 0..self.lanes {
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    let a = addrs(l)[0];
                    if !in_range(a, 4) {
                        continue;
                    }
                    let cell = &mut lds[a as usize..a as usize + 4];
                    let old = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]);
                    let x = data[l];
                    let new = match op {
                        DS_ADD_U32 | DS_ADD_RTN_U32 => old.wrapping_add(x),
                        DS_SUB_U32 => old.wrapping_sub(x),
                        DS_MIN_I32 => (old as i32).min(x as i32) as u32,
                        DS_MAX_I32 => (old as i32).max(x as i32) as u32,
                        DS_MIN_U32 => old.min(x),
                        DS_MAX_U32 => old.max(x),
                        DS_AND_B32 => old & x,
                        DS_OR_B32 => old | x,
                        _ => old ^ x,
                    };
                    cell.copy_from_slice(&new.to_le_bytes());
                    ret[l] = old;
                }
                if op == DS_ADD_RTN_U32 {
                    self.vdst(&inst.dst, &ret, exec);
                }
            }
            _ => return Err(illegal(format!("{} is not an LDS instruction", op.name()))),
        }
        Ok(())
    }

    /// Per-lane values of `n` (at most 4) consecutive data registers starting at `op`.
    fn vsrc_n(&self, op: &Operand, n: usize) -> [[u32; 64]; 4] {
        let mut out = [[0u32; 64]; 4];
        for (k, o) in out.iter_mut().enumerate().take(n.min(4)) {
            *o = self.vsrc(&self.reg_plus(op, k));
        }
        out
    }

    /// The `k`-th register after `op` (for multi-dword data operands).
    fn reg_plus(&self, op: &Operand, k: usize) -> Operand {
        match *op {
            Operand::Vgpr(r) => Operand::Vgpr(r.wrapping_add(k as u16)),
            o => o,
        }
    }

    pub(super) fn mubuf(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        if op.info().ty[0] == Ty::N {
            // buffer_gl0_inv, buffer_gl1_inv: caches are coherent in this model.
            return Ok(());
        }
        let exec = self.exec();
        let v = self.vsharp(&inst.src[2]);
        let soffset = self.s32(&inst.src[3]) as u64;
        let (size, signed) = access(op);
        let dwords = (size / 4).max(1) as usize;
        if v.swizzle_enable != 0 && v.stride != 0 {
            return Err(illegal("swizzled buffer addressing is not supported yet"));
        }
        let (idxen, offen) = (inst.flags & mflag::IDXEN != 0, inst.flags & mflag::OFFEN != 0);
        let vaddr = match inst.src[0] {
            Operand::Vgpr(r) => r,
            _ => 0,
        };
        let index_v = if idxen { self.vsrc(&Operand::Vgpr(vaddr)) } else { [0; 64] };
        let offset_v = if offen { self.vsrc(&Operand::Vgpr(vaddr.wrapping_add(idxen as u16))) } else { [0; 64] };
        // A V# whose type is not "buffer" does not match the instruction: loads return
        // nothing, stores do not write (seed 002, "resource-instruction mismatch").
        let active = if v.kind != 0 { 0 } else { exec };
        let mut addr = [0u64; 64];
        let mut ok = [0u8; 64];
        let chunk = size.min(4) as u64;
        for l in 0..self.lanes {
            if active >> l & 1 == 0 {
                continue;
            }
            let index = index_v[l] as u64 + if v.add_tid_enable { l as u64 } else { 0 };
            let offset = offset_v[l] as u64 + inst.imm as u64;
            // Linear addressing (seed 002, "buffer addressing"): the SGPR offset is part
            // of the base, not of the range-checked offset.
            let buffer_offset = v.stride as u64 * index + offset;
            addr[l] = v.base.wrapping_add(soffset).wrapping_add(buffer_offset);
            // Range check per dword for non-format accesses (seed 002, "range checking").
            for k in 0..dwords as u64 {
                let in_range = match v.oob_select {
                    OobSelect::StructuredWithOffset => {
                        index < v.num_records as u64 && offset + k * 4 + chunk <= v.stride as u64
                    }
                    OobSelect::Structured => index < v.num_records as u64,
                    OobSelect::Disabled => v.num_records != 0,
                    OobSelect::Raw => buffer_offset + k * 4 + chunk <= v.num_records as u64,
                };
                ok[l] |= (in_range as u8) << k;
            }
        }
        self.transfer(inst, ctx, &addr, &ok, size, signed)
    }

    /// Moves the data of a vector memory instruction once its addresses are known: lane
    /// `l` accesses dword `k` at `addr[l] + 4k` when bit `k` of `ok[l]` is set (loads of
    /// the others return zero). When all accesses fall in one buffer object it is
    /// translated once; otherwise each access is translated on its own, so that a fault
    /// reports the exact address.
    fn transfer(
        &mut self,
        inst: &Inst,
        ctx: &mut Ctx,
        addr: &[u64; 64],
        ok: &[u8; 64],
        size: u32,
        signed: bool,
    ) -> Result<(), FaultKind> {
        let store = is_store(inst.op);
        let dwords = (size / 4).max(1) as usize;
        let chunk = size.min(4) as u64;
        let data = if store { self.vsrc_n(&inst.src[1], dwords) } else { [[0; 64]; 4] };
        let mut out = [[0u32; 64]; 4];
        let (mut lo, mut hi) = (u64::MAX, 0u64);
        for l in 0..self.lanes {
            if ok[l] != 0 {
                lo = lo.min(addr[l]);
                hi = hi.max(addr[l].saturating_add(4 * (dwords as u64 - 1) + chunk));
            }
        }
        if lo < hi {
            if let Ok(base) = ctx.tlb.translate(ctx.vm, lo, hi - lo, store) {
                for l in 0..self.lanes {
                    for k in 0..dwords {
                        if ok[l] >> k & 1 == 0 {
                            continue;
                        }
                        // SAFETY: translate() checked that [lo, hi) lies in one BO, and this
                        // access is inside [lo, hi).
                        unsafe {
                            let p = base.add((addr[l] + 4 * k as u64 - lo) as usize);
                            if store {
                                let v = data[k][l];
                                match chunk {
                                    4 => (p as *mut u32).write_unaligned(v),
                                    2 => (p as *mut u16).write_unaligned(v as u16),
                                    _ => *p = v as u8,
                                }
                            } else {
                                let v = match chunk {
                                    4 => (p as *const u32).read_unaligned(),
                                    2 => (p as *const u16).read_unaligned() as u32,
                                    _ => *p as u32,
                                };
                                out[k][l] = narrow(v.to_le_bytes(), size, signed);
                            }
                        }
                    }
                }
            } else {
                for l in 0..self.lanes {
                    for k in 0..dwords {
                        if ok[l] >> k & 1 == 0 {
                            continue;
                        }
                        let a = addr[l] + 4 * k as u64;
                        if store {
                            ctx.tlb.write(ctx.vm, a, &data[k][l].to_le_bytes()[..chunk as usize])?;
                        } else {
                            let mut b = [0u8; 4];
                            ctx.tlb.read(ctx.vm, a, &mut b[..chunk as usize])?;
                            out[k][l] = narrow(b, size, signed);
                        }
                    }
                }
            }
        }
        if !store {
            let exec = self.exec();
            for (k, vals) in out.iter().enumerate().take(dwords) {
                let d = self.reg_plus(&inst.dst, k);
                self.vdst(&d, vals, exec);
            }
        }
        Ok(())
    }

    pub(super) fn global(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let (size, signed) = access(inst.op);
        let dwords = (size / 4).max(1);
        // saddr form: 64-bit SGPR base + 32-bit VGPR offset; otherwise a 64-bit VGPR address.
        let saddr = match inst.src[2] {
            Operand::Sgpr(_) => Some(self.s64(&inst.src[2])),
            _ => None,
        };
        let (lo, hi) = match inst.src[0] {
            Operand::Vgpr(r) => (self.vsrc(&Operand::Vgpr(r)), self.vsrc(&Operand::Vgpr(r.wrapping_add(1)))),
            _ => ([0; 64], [0; 64]),
        };
        let mut addr = [0u64; 64];
        let mut ok = [0u8; 64];
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let base = match saddr {
                Some(s) => s.wrapping_add(lo[l] as u64),
                None => lo[l] as u64 | (hi[l] as u64) << 32,
            };
            addr[l] = base.wrapping_add(inst.imm as i64 as u64);
            ok[l] = ((1u32 << dwords) - 1) as u8;
        }
        if inst.op.info().flags & F::ATOMIC != 0 {
            return self.atomic(inst, ctx, &addr, exec);
        }
        self.transfer(inst, ctx, &addr, &ok, size, signed)
    }

    /// A global atomic: each active lane, in lane order, does one indivisible
    /// read-modify-write of memory with the host's atomics, so atomics from waves on other
    /// worker threads (and the CP) never interleave inside one. With GLC the value memory
    /// held before is returned to VDST. Seed 000, "内存对齐和超出范围行为" (memory alignment and
    /// out-of-range behaviour): an atomic not aligned to its data size is a MEMVIOL.
    fn atomic(&mut self, inst: &Inst, ctx: &mut Ctx, addr: &[u64; 64], exec: u64) -> Result<(), FaultKind> {
        let info = inst.op.info();
        let wide = info.ty[0].dwords(false) == 2;
        let op = atomic_op(inst.op).ok_or_else(|| illegal(format!("{} is not an atomic", info.name)))?;
        let data = self.vsrc_n(&inst.src[1], info.ty[1].dwords(false) as usize);
        let mut old = [0u64; 64];
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let (src, cmp) = if wide {
                (data[0][l] as u64 | (data[1][l] as u64) << 32, data[2][l] as u64 | (data[3][l] as u64) << 32)
            } else {
                (data[0][l] as u64, data[1][l] as u64)
            };
            old[l] = atomic::at(ctx.tlb, ctx.vm, addr[l], wide, op, src, cmp).map_err(|e| match e {
                AtomicError::Misaligned => FaultKind::MemoryViolation(format!(
                    "{}-byte atomic at {:#x} is not aligned to its size",
                    if wide { 8 } else { 4 },
                    addr[l]
                )),
                AtomicError::Fault(f) => FaultKind::Vm(f),
                AtomicError::NoSuchWidth => illegal(format!("{} has no {}-bit form", info.name, 32 << wide as u32)),
            })?;
        }
        if inst.flags & mflag::GLC != 0 {
            if wide {
                self.vdst64(&inst.dst, &old, exec);
            } else {
                self.vdst(&inst.dst, &old.map(|v| v as u32), exec);
            }
        }
        Ok(())
    }

    /// Scratch (private) memory through FLAT_SCRATCH. Each lane has its own private
    /// address space; the wave's memory interleaves lanes per dword (address `a` of lane
    /// `l` is at `FLAT_SCRATCH + (a / 4) * lanes * 4 + l * 4 + a % 4`), the swizzle the
    /// hardware applies so that a wave's accesses to one private address are contiguous.
    pub(super) fn scratch(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let exec = self.exec();
        let (size, signed) = access(inst.op);
        let dwords = (size / 4).max(1) as usize;
        let store = is_store(inst.op);
        let vaddr = if matches!(inst.src[0], Operand::Vgpr(_)) { self.vsrc(&inst.src[0]) } else { [0; 64] };
        let saddr = match inst.src[2] {
            Operand::Sgpr(_) => self.s32(&inst.src[2]),
            _ => 0,
        };
        let data = if store { self.vsrc_n(&inst.src[1], dwords) } else { [[0; 64]; 4] };
        let mut out = [[0u32; 64]; 4];
        let lanes = self.lanes as u64;
        for l in 0..self.lanes {
            if exec >> l & 1 == 0 {
                continue;
            }
            let off = vaddr[l].wrapping_add(saddr).wrapping_add(inst.imm as u32) as u64;
            let mut bytes = [0u8; 16];
            if store {
                for k in 0..dwords {
                    bytes[4 * k..4 * k + 4].copy_from_slice(&data[k][l].to_le_bytes());
                }
            }
            // Byte by byte unless dword aligned, since the swizzle is per dword.
            let step = if off % 4 == 0 && size >= 4 { 4 } else { 1 };
            let mut b = 0u64;
            while b < size as u64 {
                let a = off + b;
                let phys = self.flat_scratch.wrapping_add((a / 4) * lanes * 4 + l as u64 * 4 + a % 4);
                let chunk = &mut bytes[b as usize..(b + step) as usize];
                if store {
                    ctx.tlb.write(ctx.vm, phys, chunk)?;
                } else {
                    ctx.tlb.read(ctx.vm, phys, chunk)?;
                }
                b += step;
            }
            if !store {
                for k in 0..dwords {
                    let w = [bytes[4 * k], bytes[4 * k + 1], bytes[4 * k + 2], bytes[4 * k + 3]];
                    out[k][l] = narrow(w, size, signed);
                }
            }
        }
        if !store {
            for (k, vals) in out.iter().enumerate().take(dwords) {
                let d = self.reg_plus(&inst.dst, k);
                self.vdst(&d, vals, exec);
            }
        }
        Ok(())
    }
}

/// The memory operation of an atomic instruction.
fn atomic_op(op: Op) -> Option<AtomicOp> {
    use AtomicOp as A;
    Some(match op {
        GLOBAL_ATOMIC_SWAP_B32 | GLOBAL_ATOMIC_SWAP_B64 => A::Swap,
        GLOBAL_ATOMIC_CMPSWAP_B32 | GLOBAL_ATOMIC_CMPSWAP_B64 => A::CmpSwap,
        GLOBAL_ATOMIC_ADD_U32 | GLOBAL_ATOMIC_ADD_U64 => A::Add,
        GLOBAL_ATOMIC_SUB_U32 | GLOBAL_ATOMIC_SUB_U64 => A::Sub,
        GLOBAL_ATOMIC_CSUB_U32 => A::CSub,
        GLOBAL_ATOMIC_MIN_I32 | GLOBAL_ATOMIC_MIN_I64 => A::SMin,
        GLOBAL_ATOMIC_MIN_U32 | GLOBAL_ATOMIC_MIN_U64 => A::UMin,
        GLOBAL_ATOMIC_MAX_I32 | GLOBAL_ATOMIC_MAX_I64 => A::SMax,
        GLOBAL_ATOMIC_MAX_U32 | GLOBAL_ATOMIC_MAX_U64 => A::UMax,
        GLOBAL_ATOMIC_AND_B32 | GLOBAL_ATOMIC_AND_B64 => A::And,
        GLOBAL_ATOMIC_OR_B32 | GLOBAL_ATOMIC_OR_B64 => A::Or,
        GLOBAL_ATOMIC_XOR_B32 | GLOBAL_ATOMIC_XOR_B64 => A::Xor,
        GLOBAL_ATOMIC_INC_U32 | GLOBAL_ATOMIC_INC_U64 => A::Inc,
        GLOBAL_ATOMIC_DEC_U32 | GLOBAL_ATOMIC_DEC_U64 => A::Dec,
        GLOBAL_ATOMIC_CMPSWAP_F32 => A::FCmpSwap,
        GLOBAL_ATOMIC_MIN_F32 => A::FMin,
        GLOBAL_ATOMIC_MAX_F32 => A::FMax,
        GLOBAL_ATOMIC_ADD_F32 => A::FAdd,
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::table::OPS;

    /// Every executed opcode the table marks ATOMIC has its memory operation, in its width.
    #[test]
    fn every_atomic_opcode_has_an_operation() {
        for info in OPS.iter().filter(|i| i.flags & F::ATOMIC != 0 && i.flags & F::X != 0) {
            let op = atomic_op(info.op);
            assert!(op.is_some(), "{} has no operation", info.name);
            if let Some(op) = op.filter(|_| info.ty[0].dwords(false) == 2) {
                let m = std::sync::atomic::AtomicU64::new(0);
                assert!(atomic::apply64(op, &m, 1, 0).is_some(), "{}", info.name);
            }
        }
    }
}
