//! Atomic read-modify-write operations on GPU memory, shared by the shader memory
//! instructions and the command processor's ATOMIC_MEM. Each is one indivisible host
//! atomic, so updates from waves on different worker threads and from the CP never
//! interleave. Formulas from the RDNA3 ISA guide.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::SeqCst};

/// The operations, for 32- and 64-bit data (the float ones exist in 32 bits only).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicOp {
    Swap,
    /// `mem == cmp ? src : mem`.
    CmpSwap,
    Add,
    Sub,
    /// Subtract, clamped at zero.
    CSub,
    SMin,
    UMin,
    SMax,
    UMax,
    And,
    Or,
    Xor,
    /// `mem >= src ? 0 : mem + 1`.
    Inc,
    /// `mem == 0 || mem > src ? src : mem - 1`.
    Dec,
    /// Compared as floats: +0 equals -0, a NaN equals nothing.
    FCmpSwap,
    /// minNum / maxNum: a NaN operand yields the other one.
    FMin,
    FMax,
    FAdd,
}

// The integer operations, written once for both widths.
macro_rules! integer_atomic {
    ($(#[$doc:meta])* $name:ident, $atomic:ty, $u:ty, $i:ty) => {
        $(#[$doc])*
        fn $name(op: AtomicOp, m: &$atomic, src: $u, cmp: $u) -> Option<$u> {
            use AtomicOp::*;
            let update = |f: &dyn Fn($u) -> $u| m.fetch_update(SeqCst, SeqCst, |t| Some(f(t))).unwrap_or_else(|t| t);
            Some(match op {
                Swap => m.swap(src, SeqCst),
                CmpSwap => m.compare_exchange(cmp, src, SeqCst, SeqCst).unwrap_or_else(|t| t),
                Add => m.fetch_add(src, SeqCst),
                Sub => m.fetch_sub(src, SeqCst),
                CSub => update(&|t| t.saturating_sub(src)),
                SMin => update(&|t| (t as $i).min(src as $i) as $u),
                SMax => update(&|t| (t as $i).max(src as $i) as $u),
                UMin => m.fetch_min(src, SeqCst),
                UMax => m.fetch_max(src, SeqCst),
                And => m.fetch_and(src, SeqCst),
                Or => m.fetch_or(src, SeqCst),
                Xor => m.fetch_xor(src, SeqCst),
                Inc => update(&|t| if t >= src { 0 } else { t + 1 }),
                Dec => update(&|t| if t == 0 || t > src { src } else { t - 1 }),
                FCmpSwap | FMin | FMax | FAdd => return None,
            })
        }
    };
}

integer_atomic!(
    /// A 32-bit integer operation; `None` for the float ones.
    integer32, AtomicU32, u32, i32
);
integer_atomic!(
    /// A 64-bit integer operation; `None` for the float ones (they have no 64-bit form).
    integer64, AtomicU64, u64, i64
);

/// Applies `op` to the 32-bit word `m`; returns its value before.
pub fn apply32(op: AtomicOp, m: &AtomicU32, src: u32, cmp: u32) -> u32 {
    use AtomicOp::*;
    let update = |f: &dyn Fn(u32) -> u32| m.fetch_update(SeqCst, SeqCst, |t| Some(f(t))).unwrap_or_else(|t| t);
    let f = f32::from_bits;
    match op {
        FCmpSwap => update(&|t| if f(t) == f(cmp) { src } else { t }),
        FMin => update(&|t| f(t).min(f(src)).to_bits()),
        FMax => update(&|t| f(t).max(f(src)).to_bits()),
        FAdd => update(&|t| crate::isa::exec::fp::add(f(t), f(src)).to_bits()),
        // Every other operation is an integer one.
        _ => integer32(op, m, src, cmp).unwrap_or_else(|| m.load(SeqCst)),
    }
}

/// Applies `op` to the 64-bit word `m`; returns its value before, or `None` for an
/// operation that has no 64-bit form.
pub fn apply64(op: AtomicOp, m: &AtomicU64, src: u64, cmp: u64) -> Option<u64> {
    integer64(op, m, src, cmp)
}

/// Why an atomic could not be done.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AtomicError {
    /// Not aligned to its size (MEMVIOL on the hardware).
    Misaligned,
    Fault(super::VmFault),
    /// The operation has no form of this width.
    NoSuchWidth,
}

/// One atomic of `op` at `va` (8 bytes with `wide`), through the caller's TLB; returns
/// the old value.
pub fn at(
    tlb: &mut super::Tlb,
    vm: &super::AddressSpace,
    va: u64,
    wide: bool,
    op: AtomicOp,
    src: u64,
    cmp: u64,
) -> Result<u64, AtomicError> {
    let size = if wide { 8 } else { 4 };
    if va % size != 0 {
        return Err(AtomicError::Misaligned);
    }
    let p = tlb.translate(vm, va, size, true).map_err(AtomicError::Fault)?;
    if wide {
        // SAFETY: translate() checked that the 8 bytes lie in one mapping; the address is
        // 8-aligned and mappings are page aligned, so the host pointer is 8-aligned too.
        let m = unsafe { &*(p as *const AtomicU64) };
        apply64(op, m, src, cmp).ok_or(AtomicError::NoSuchWidth)
    } else {
        // SAFETY: as above, 4 bytes at a 4-aligned address.
        let m = unsafe { &*(p as *const AtomicU32) };
        Ok(apply32(op, m, src as u32, cmp as u32) as u64)
    }
}
