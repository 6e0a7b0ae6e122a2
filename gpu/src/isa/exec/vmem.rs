//! What the vector memory instructions (MUBUF, MTBUF, FLAT, GLOBAL, SCRATCH) and LDS
//! share: narrow loads, the alignment modes, the VGPR range rules, the V#, multi-register
//! data operands, and the host atomic of each atomic operation.
//!
//! Every access goes through the address space's translation, so a bad address is a VM
//! fault report, never a host crash. Memory operations complete at once in this model.

use super::{FaultKind, Wave};
use crate::isa::decode::{Inst, Operand};
use crate::isa::table::{Op, Rmw};
use crate::mem::atomic::AtomicOp;
use crate::rsrc::BufferResource;
use crate::spi::AlignMode;

pub(super) fn narrow(bytes: [u8; 4], size: u32, signed: bool) -> u32 {
    match (size, signed) {
        (1, false) => bytes[0] as u32,
        (1, true) => bytes[0] as i8 as i32 as u32,
        (2, false) => u16::from_le_bytes([bytes[0], bytes[1]]) as u32,
        (2, true) => i16::from_le_bytes([bytes[0], bytes[1]]) as i32 as u32,
        _ => u32::from_le_bytes(bytes),
    }
}

/// RDNA3-NOTES, "Memory alignment modes": where an access of `size`
/// bytes (a non-format access's whole size, a format access's component) at `addr` goes
/// under SH_MEM_CONFIG.ALIGNMENT_MODE, or `None` if it is misaligned under a strict mode
/// (the lane's load returns zero, its store is dropped, and the instruction raises
/// MEMVIOL). DWORD mode aligns down to the smaller of the size and a dword.
pub(super) fn aligned(mode: AlignMode, addr: u64, size: u32) -> Option<u64> {
    let dword_unit = size.clamp(1, 4) as u64;
    match mode {
        AlignMode::Unaligned => Some(addr),
        AlignMode::Dword => Some(addr & !(dword_unit - 1)),
        AlignMode::DwordStrict => (addr % dword_unit == 0).then_some(addr),
        AlignMode::Strict => {
            // Data size, for sizes that are not a power of two (b96) its largest power of
            // two factor.
            let unit = 1u64 << (size.max(1)).trailing_zeros();
            (addr % unit == 0).then_some(addr)
        }
    }
}

/// [`aligned`] for the fast paths of accesses of `size` >= 4 bytes, as a mask and a unit:
/// an address `a` with `a % unit == 0` goes to `a & mask`; one that is not is misaligned
/// under a strict mode (the fast paths leave such an instruction to the general path).
pub(super) fn align_rule(mode: AlignMode, size: u32) -> (u64, u64) {
    let dword_unit = size.clamp(1, 4) as u64;
    match mode {
        AlignMode::Unaligned => (u64::MAX, 1),
        AlignMode::Dword => (!(dword_unit - 1), 1),
        AlignMode::DwordStrict => (u64::MAX, dword_unit),
        AlignMode::Strict => (u64::MAX, 1u64 << size.max(1).trailing_zeros()),
    }
}

/// The minimum, maximum and OR of `v` over the lanes in `exec` (`(u32::MAX, 0, 0)` for
/// none). With every lane active (the common case) the loop has no masking, so that it
/// compiles to a few vector operations.
#[inline(always)]
pub(super) fn lane_bounds<const N: usize>(v: &[u32; N], exec: u64) -> (u32, u32, u32) {
    let (mut min, mut max, mut or) = (u32::MAX, 0u32, 0u32);
    if exec == u64::MAX >> (64 - N) {
        for &x in v {
            min = min.min(x);
            max = max.max(x);
            or |= x;
        }
    } else {
        for (l, &x) in v.iter().enumerate() {
            let on = exec >> l & 1 != 0;
            min = min.min(if on { x } else { u32::MAX });
            max = max.max(if on { x } else { 0 });
            or |= if on { x } else { 0 };
        }
    }
    (min, max, or)
}

/// The fast paths' data movement: `dwords` dwords of each active lane (bit `l` of `exec`)
/// between host memory at `mem + off[l]` and the VGPRs, register `k` of the data being
/// the `N` lanes at `vgpr[rows[k]..]`. Lanes go in ascending order, so that where stores
/// overlap the highest lane's data stays, as in the general paths. When every lane is
/// active and each one's dwords follow the previous lane's (a wave reading or writing
/// one block), the block moves at once (a copy per register for single dwords).
///
/// # Safety
/// Every active lane's `4 * dwords` bytes at `mem + off[l]` must be valid to read (loads)
/// or write (stores), and not overlap `vgpr`.
#[inline(always)]
pub(super) unsafe fn move_dwords<const N: usize>(
    vgpr: &mut [u32],
    mem: *mut u8,
    off: &[usize; N],
    exec: u64,
    rows: &[usize; 4],
    dwords: usize,
    store: bool,
) {
    let full = u64::MAX >> (64 - N);
    let step = 4 * dwords;
    let mut gaps = 0usize;
    for l in 0..N {
        gaps |= off[l] ^ off[0].wrapping_add(step * l);
    }
    if exec == full && gaps == 0 {
        let p = mem.add(off[0]);
        if dwords == 1 {
            let row = &mut vgpr[rows[0]..rows[0] + N];
            if store {
                std::ptr::copy_nonoverlapping(row.as_ptr() as *const u8, p, 4 * N);
            } else {
                std::ptr::copy_nonoverlapping(p as *const u8, row.as_mut_ptr() as *mut u8, 4 * N);
            }
            return;
        }
        for (k, &r) in rows.iter().enumerate().take(dwords) {
            let row = &mut vgpr[r..r + N];
            let p = p.add(4 * k);
            for (l, v) in row.iter_mut().enumerate() {
                let q = p.add(step * l) as *mut u32;
                if store {
                    q.write_unaligned(*v);
                } else {
                    *v = q.read_unaligned();
                }
            }
        }
        return;
    }
    for l in 0..N {
        if exec >> l & 1 == 0 {
            continue;
        }
        let p = mem.add(off[l]);
        for (k, &r) in rows.iter().enumerate().take(dwords) {
            let q = p.add(4 * k) as *mut u32;
            if store {
                q.write_unaligned(vgpr[r + l]);
            } else {
                vgpr[r + l] = q.read_unaligned();
            }
        }
    }
}

/// The MEMVIOL an instruction raises after it completed with some lanes misaligned.
pub(super) fn misaligned(inst: &Inst, mode: AlignMode, lane: usize, addr: u64) -> FaultKind {
    FaultKind::MemoryViolation(format!(
        "{} of lane {lane} at {addr:#x} is misaligned under SH_MEM_CONFIG.ALIGNMENT_MODE {mode:?}",
        inst.op.name()
    ))
}

impl Wave {
    /// Whether VGPRs `first .. first + n` are all allocated to the wave (RDNA3-NOTES,
    /// "VGPR out-of-range behaviour"). A memory instruction whose returned registers are
    /// not is issued as if EXEC were zero; one whose source registers are not reads v0 for
    /// them.
    pub(super) fn vgprs_in_range(&self, first: u16, n: u32) -> bool {
        first as u32 + n <= self.vgprs
    }

    /// A memory instruction's source VGPR `op`, or v0's value if it is not allocated.
    pub(super) fn vmem_src(&self, op: &Operand) -> [u32; 64] {
        match *op {
            Operand::Vgpr(r) if !self.vgprs_in_range(r, 1) => self.vsrc(&Operand::Vgpr(0)),
            _ => self.vsrc(op),
        }
    }

    /// [`Wave::vmem_src`] for a wave of `N` lanes: VGPR `r`'s lanes, or v0's when `r` is
    /// not allocated.
    #[inline(always)]
    pub(super) fn vmem_row<const N: usize>(&self, r: u16) -> [u32; N] {
        let r = if self.vgprs_in_range(r, 1) { r as usize } else { 0 };
        let mut out = [0u32; N];
        out.copy_from_slice(&self.vgpr[r * N..r * N + N]);
        out
    }

    /// The register whose lanes [`Wave::vmem_src`] reads for VGPR `r`.
    #[inline(always)]
    pub(super) fn vmem_reg(&self, r: u16) -> usize {
        if self.vgprs_in_range(r, 1) {
            r as usize
        } else {
            0
        }
    }

    /// The V# in the four SGPRs starting at `op` (4-aligned: the low bits are ignored).
    pub(super) fn vsharp(&self, op: &Operand) -> BufferResource {
        let Operand::Sgpr(i) = *op else { return BufferResource::decode([0; 4]) };
        let i = (i & !3) as usize;
        BufferResource::decode([self.sget(i), self.sget(i + 1), self.sget(i + 2), self.sget(i + 3)])
    }

    /// The `k`-th register after `op` (for multi-dword data operands).
    pub(super) fn reg_plus(&self, op: &Operand, k: usize) -> Operand {
        match *op {
            Operand::Vgpr(r) => Operand::Vgpr(r.wrapping_add(k as u16)),
            o => o,
        }
    }
}

/// The host atomic of a buffer, global or flat atomic: its row's operation ([`crate::isa::table::Mem::rmw`]).
/// `None` for other opcodes, and for the LDS-only operations.
#[inline]
pub(super) fn atomic_op(op: Op) -> Option<AtomicOp> {
    use AtomicOp as A;
    Some(match op.mem()?.rmw? {
        Rmw::Swap => A::Swap,
        Rmw::CmpSwap => A::CmpSwap,
        Rmw::FCmpSwap => A::FCmpSwap,
        Rmw::Add => A::Add,
        Rmw::Sub => A::Sub,
        Rmw::CSub => A::CSub,
        Rmw::SMin => A::SMin,
        Rmw::UMin => A::UMin,
        Rmw::FMin => A::FMin,
        Rmw::SMax => A::SMax,
        Rmw::UMax => A::UMax,
        Rmw::FMax => A::FMax,
        Rmw::FAdd => A::FAdd,
        Rmw::And => A::And,
        Rmw::Or => A::Or,
        Rmw::Xor => A::Xor,
        Rmw::Inc => A::Inc,
        Rmw::Dec => A::Dec,
        Rmw::Rsub | Rmw::Mskor | Rmw::Wrap | Rmw::CondXchg32 => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The fast paths' mask-and-unit form of the alignment rule places every address as
    /// [`aligned`] (RDNA3-NOTES, "Memory alignment modes") does, for every mode and
    /// non-format size.
    #[test]
    fn align_rule_is_aligned() {
        use AlignMode::*;
        for mode in [Dword, DwordStrict, Strict, Unaligned] {
            for size in [4, 8, 12, 16] {
                let (mask, unit) = align_rule(mode, size);
                for a in (0x1000u64..0x1040).chain([u64::MAX - 3, u64::MAX]) {
                    let fast = (a % unit == 0).then_some(a & mask);
                    assert_eq!(fast, aligned(mode, a, size), "{mode:?} size {size} address {a:#x}");
                }
            }
        }
    }
    use crate::isa::table::{F, OPS};

    /// Every buffer, global and flat atomic has its memory operation, in its width.
    #[test]
    fn every_atomic_opcode_has_an_operation() {
        let vmem = |n: &str| ["buffer_", "global_", "flat_"].iter().any(|p| n.starts_with(p));
        for info in OPS.iter().filter(|i| i.flags & F::ATOMIC != 0 && vmem(i.name)) {
            let op = atomic_op(info.op);
            assert!(op.is_some(), "{} has no operation", info.name);
            if let Some(op) = op.filter(|_| info.ty[0].dwords(false) == 2) {
                let m = std::sync::atomic::AtomicU64::new(0);
                assert!(crate::mem::atomic::apply64(op, &m, 1, 0).is_some(), "{}", info.name);
            }
        }
    }
}

/// What the memory fast paths' unit tests share: a wave and the memory it reaches (one
/// BO, LDS, the VMID's alignment mode), and instructions from their encodings.
#[cfg(test)]
pub(super) mod rig {
    use std::sync::atomic::{AtomicBool, AtomicU64};
    use std::sync::Arc;

    use super::super::{Ctx, Wave};
    use crate::isa::decode::{decode, Inst};
    use crate::mem::{AddressSpace, Bo, Tlb};
    use crate::spi::{AlignMode, VmidRegs};

    pub struct Rig {
        pub vm: AddressSpace,
        /// The BO: `size` bytes, byte `i` initially `pattern(i)`.
        pub bo: Arc<Bo>,
        pub tlb: Tlb,
        pub lds: Vec<u8>,
        pub vmid: VmidRegs,
        abort: AtomicBool,
        host_trap: AtomicU64,
    }

    /// The initial contents of byte `i` of the BO and of the LDS.
    pub fn pattern(i: usize) -> u8 {
        (i * 7 + 3) as u8
    }

    impl Rig {
        /// A BO of `size` bytes (a whole number of pages, so that it ends where the guard
        /// page begins) and `lds` bytes of LDS, both filled with [`pattern`].
        pub fn new(size: u64, lds: usize, mode: AlignMode) -> Rig {
            assert_eq!(size % crate::mem::PAGE, 0);
            let vm = AddressSpace::new(1 << 24);
            let bo = vm.alloc(size, 0).unwrap();
            let r = Rig {
                vm,
                bo,
                tlb: Tlb::default(),
                lds: (0..lds).map(pattern).collect(),
                vmid: VmidRegs::default().with_alignment(mode),
                abort: AtomicBool::new(false),
                host_trap: AtomicU64::new(0),
            };
            r.set_mem(&(0..size as usize).map(pattern).collect::<Vec<u8>>());
            r
        }

        pub fn ctx(&mut self) -> Ctx<'_> {
            Ctx {
                vm: &self.vm,
                tlb: &mut self.tlb,
                lds: &mut self.lds,
                abort: &self.abort,
                vmid: &self.vmid,
                handler: None,
                host_trap: &self.host_trap,
            }
        }

        pub fn mem(&self) -> Vec<u8> {
            let mut out = vec![0u8; self.bo.size() as usize];
            self.vm.read(self.bo.va(), &mut out).unwrap();
            out
        }

        pub fn set_mem(&self, bytes: &[u8]) {
            self.vm.write(self.bo.va(), bytes).unwrap();
        }
    }

    /// An instruction from its encoding bytes (llvm-mc-19 -show-encoding).
    pub fn inst(bytes: &[u8], wave64: bool) -> Inst {
        let words: Vec<u32> = bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        decode(&words, wave64).unwrap()
    }

    /// A wave of `lanes` lanes with every lane active, every VGPR allocated and the
    /// VGPRs v4..v15 holding 0xdead_0000 | register << 8 | lane (what a load must not
    /// touch in lanes it does not write).
    pub fn wave(lanes: usize) -> Wave {
        let mut w = Wave::new(lanes);
        w.set_exec(u64::MAX);
        for r in 4..16 {
            for l in 0..lanes {
                w.vgpr[r * lanes + l] = 0xdead_0000 | (r as u32) << 8 | l as u32;
            }
        }
        w
    }

    /// Sets VGPR `r` of every lane.
    pub fn set_v(w: &mut Wave, r: usize, f: impl Fn(usize) -> u32) {
        let n = w.lanes;
        for l in 0..n {
            w.vgpr[r * n + l] = f(l);
        }
    }

    /// The little-endian dword at byte `at` of `bytes`.
    pub fn dword(bytes: &[u8], at: usize) -> u32 {
        u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
    }

    /// Lane masks the tests run with: all lanes, every third lane off, one lane.
    pub fn execs(lanes: usize) -> [u64; 3] {
        let all = u64::MAX >> (64 - lanes);
        [all, all & !0x9249_2492_4924_9249, 1 << (lanes - 3)]
    }

    /// RDNA3-NOTES, "Memory alignment modes": the address an access of `size` bytes at `a`
    /// uses, or `None` when it is misaligned under a strict mode. STRICT wants the data
    /// size, b96 its largest power-of-two factor (4; softnavi's reading, vmem.rs).
    pub fn placed(mode: AlignMode, a: u64, size: u64) -> Option<u64> {
        let dword = size.min(4);
        let data = if size == 12 { 4 } else { size };
        match mode {
            AlignMode::Unaligned => Some(a),
            AlignMode::Dword => Some(a - a % dword),
            AlignMode::DwordStrict => (a % dword == 0).then_some(a),
            AlignMode::Strict => (a % data == 0).then_some(a),
        }
    }

    /// Lane byte offsets (VGPR offset plus instruction offset) of the scenarios.
    pub fn offsets(case: usize, lanes: usize, size: usize) -> Vec<u64> {
        (0..lanes)
            .map(|l| {
                (16 + match case {
                    0 => size * l,                                 // one block, lane after lane
                    1 => size * (lanes - 1 - l),                   // the block backwards
                    2 => size * (l * 37 % lanes),                  // scattered
                    3 => size * l + 2 * (l == lanes / 2) as usize, // one lane off by 2
                    4 => size * l + 1,                             // every lane off by 1
                    _ => size * (l / 4),                           // four lanes per element
                }) as u64
            })
            .collect()
    }

    /// The alignment modes (SH_MEM_CONFIG.ALIGNMENT_MODE).
    pub const MODES: [AlignMode; 4] =
        [AlignMode::Unaligned, AlignMode::Dword, AlignMode::DwordStrict, AlignMode::Strict];
}
