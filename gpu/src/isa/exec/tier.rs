//! Where the interpreter meets the translation tier (crate::jit): entering translated
//! code from the run loop, and the call-out through which translated code runs one
//! instruction in the interpreter. Both sides use the one [`Wave`] layout, so a wave
//! moves between them at any entry point with nothing to convert.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;

use super::fp::HostFloat;
use super::{trap, Ctx, Leave, Wave};
use crate::isa::program::Program;
use crate::jit::emit::{RET_INTERP, RET_LEAVE, RET_RESUME};
use crate::jit::image::JitImage;
use crate::jit::Translated;

/// A translated program's entry: `(wave, VGPR file, environment, instruction index)`.
pub(crate) type JitFn = unsafe extern "C" fn(*mut Wave, *mut u32, *mut Env, u32) -> u32;

/// Loop iterations (back edges) translated code runs before the run loop checks for an
/// abort or a host trap (the interpreter checks every 4096 instructions).
const BUDGET: u32 = 1024;

/// What translated code and its call-outs share. `budget` must stay the first field: the
/// generated code decrements it at offset 0; it reads `unaligned`, `lds` and `lds_len`
/// at their `offset_of!`.
#[repr(C)]
pub(crate) struct Env<'p, 'c, 'x> {
    budget: u32,
    /// 1 when SH_MEM_CONFIG.ALIGNMENT_MODE is UNALIGNED (the inline memory paths' case).
    unaligned: u32,
    /// 1.0, which translated code multiplies results by to flush denormals under DAZ
    /// (jit/valu.rs, `host_flush`).
    one: f32,
    /// The workgroup's LDS.
    lds: *mut u8,
    lds_len: u64,
    prog: &'p Program,
    ctx: &'x mut Ctx<'c>,
    /// How the host's float unit is set while the translated code runs.
    float: HostFloat,
    /// Why a call-out left the run loop.
    leave: Option<Leave>,
    /// A panic caught in a call-out, resumed once the translated frames are gone.
    panic: Option<Box<dyn Any + Send>>,
}

/// What the run loop does after translated code returns.
pub(super) enum Entered {
    /// Return this from the run loop.
    Leave(Leave),
    /// `Wave::pc` is set: check for an abort, then go on (re-entering if it is an entry).
    Resume,
    /// Run the instruction at `Wave::pc` in the interpreter.
    Interp,
}

/// Byte offsets of the wave fields translated code uses.
pub(crate) fn layout() -> crate::jit::Layout {
    crate::jit::Layout {
        sgpr: std::mem::offset_of!(Wave, sgpr),
        scc: std::mem::offset_of!(Wave, scc),
        pc: std::mem::offset_of!(Wave, pc),
        executed: std::mem::offset_of!(Wave, executed),
        translated: std::mem::offset_of!(Wave, translated),
        cnt: std::mem::offset_of!(Wave, track.cnt),
        vgprs: std::mem::offset_of!(Wave, vgprs),
        env_unaligned: std::mem::offset_of!(Env, unaligned),
        env_one: std::mem::offset_of!(Env, one),
        env_lds: std::mem::offset_of!(Env, lds),
        env_lds_len: std::mem::offset_of!(Env, lds_len),
        callout: callout as *const () as usize as u64,
        translate: translate as *const () as usize as u64,
        access: access as *const () as usize as u64,
        image: image as *const () as usize as u64,
    }
}

/// How translated code computes floats for a wave in `mode` running `prog`, or `None`
/// when it cannot compute what the interpreter would (its float lowering is host
/// arithmetic in round-to-nearest-even; denormals are kept or flushed by the host's
/// float unit, [`HostFp`]).
#[inline]
pub(super) fn host_float(mode: u32, prog: &Program) -> Option<HostFloat> {
    if mode & trap::MODE_CHECKED != 0 {
        return None;
    }
    super::fp::host_float(mode, prog.wide_floats())
}

/// The host's float control (x86-64's MXCSR) set for translated code while it lives: DAZ
/// (denormal inputs read as zero) for [`HostFloat::Flush`], as RDNA3's FP_DENORM flush
/// mode reads them; the previous value comes back on drop, also when a call-out's panic
/// unwinds. Not FTZ: x86 flushes a result that is tiny before rounding, so a product just
/// below the smallest normal that rounds up to it would be 0 where the interpreter (which
/// flushes the rounded result) keeps it; translated code flushes its f32 results itself
/// (jit/valu.rs, `host_flush`: a multiplication by a run-time 1.0, which DAZ makes ±0 for
/// a denormal).
struct HostFp(Option<u32>);

impl HostFp {
    fn set(f: HostFloat) -> HostFp {
        match f {
            HostFloat::Ieee => HostFp(None),
            HostFloat::Flush => {
                let old = mxcsr::get();
                mxcsr::set(old | mxcsr::DAZ);
                HostFp(Some(old))
            }
        }
    }
}

impl Drop for HostFp {
    fn drop(&mut self) {
        if let Some(old) = self.0 {
            mxcsr::set(old);
        }
    }
}

mod mxcsr {
    pub const DAZ: u32 = 1 << 6;

    pub fn get() -> u32 {
        let mut v = 0u32;
        // SAFETY: stmxcsr stores the 32-bit control word at the address given.
        unsafe { std::arch::asm!("stmxcsr [{}]", in(reg) &mut v, options(nostack, preserves_flags)) };
        v
    }

    pub fn set(v: u32) {
        // SAFETY: ldmxcsr loads a control word read by `get` with DAZ changed: valid.
        unsafe { std::arch::asm!("ldmxcsr [{}]", in(reg) &v, options(nostack, readonly, preserves_flags)) };
    }
}

impl Wave {
    /// Runs `t` from `self.pc` (an entry point) until it returns, with the host's float
    /// unit set for `float` (the wave's MODE, [`host_float`]).
    pub(super) fn enter(&mut self, t: &Translated, prog: &Program, ctx: &mut Ctx, float: HostFloat) -> Entered {
        let unaligned = (ctx.vmid.alignment() == crate::spi::AlignMode::Unaligned) as u32;
        let (lds, lds_len) = (ctx.lds.as_mut_ptr(), ctx.lds.len() as u64);
        let mut env =
            Env { budget: BUDGET, unaligned, one: 1.0, lds, lds_len, prog, ctx, float, leave: None, panic: None };
        let v = self.vgpr.as_mut_ptr();
        let host = HostFp::set(float);
        // SAFETY: `t.func` was compiled from `prog` for this wave size (the translation
        // belongs to the program); it reads and writes the wave through these pointers
        // only at the offsets of `layout()` and within the VGPR file (register indices
        // are below VGPR_ALLOC), and calls `callout` with them. No Rust reference to the
        // wave is used while it runs.
        let r = unsafe { (t.func)(self, v, &mut env, self.pc as u32) };
        drop(host);
        if let Some(p) = env.panic.take() {
            std::panic::resume_unwind(p);
        }
        match r {
            RET_LEAVE => Entered::Leave(env.leave.take().unwrap_or(Leave::Switch)),
            RET_RESUME => Entered::Resume,
            _ => {
                debug_assert_eq!(r, RET_INTERP);
                Entered::Interp
            }
        }
    }
}

/// Runs instruction `idx` of the environment's program in the interpreter, exactly as the
/// lean run loop does, for translated code. Returns 0 to go on with the next instruction,
/// `RET_LEAVE` (the reason in the environment) or `RET_RESUME` (the instruction jumped).
extern "C" fn callout(w: *mut Wave, _v: *mut u32, env: *mut Env, idx: u32) -> u32 {
    // SAFETY: translated code passes the pointers `Wave::enter` gave it, and holds no
    // other access to them during the call.
    let (wave, env) = unsafe { (&mut *w, &mut *env) };
    match catch_unwind(AssertUnwindSafe(|| step(wave, env, idx as usize))) {
        Ok(r) => r,
        Err(p) => {
            env.panic = Some(p);
            RET_LEAVE
        }
    }
}

/// The host address of the GPU range `[va, va + len)` when it lies in one BO (through the
/// wave's TLB), else null: the inline memory paths then leave the instruction to the
/// interpreter, which reports the fault.
extern "C" fn translate(env: *mut Env, va: u64, len: u64, write: u32) -> *mut u8 {
    // SAFETY: translated code passes the environment `Wave::enter` gave it.
    let env = unsafe { &mut *env };
    let ctx = &mut *env.ctx;
    ctx.tlb.translate(ctx.vm, va, len, write != 0).unwrap_or(std::ptr::null_mut())
}

/// Translated code's image helper (jit/image.rs): describes the T# of image load or
/// store `idx` in `out` and returns its codec, or 0 when the inline path does not take
/// it (the interpreter then runs the instruction).
///
/// # Safety
/// `w` and `env` are the pointers `Wave::enter` gave translated code; `out` is valid for
/// a `JitImage`.
unsafe extern "C" fn image(w: *mut Wave, env: *mut Env, idx: u32, out: *mut JitImage) -> u32 {
    // SAFETY: per the contract; translated code holds no other access during the call.
    let (wave, env) = unsafe { (&*w, &*env) };
    let Some(inst) = env.prog.insts().get(idx as usize) else { return 0 };
    let Some(raw) = wave.tsharp_raw(&inst.src[1]) else { return 0 };
    // A panic here declines; the interpreter then meets (and reports) it itself.
    match catch_unwind(AssertUnwindSafe(|| super::imgfast::jit_image(inst, raw))) {
        Ok(Some(j)) => {
            // SAFETY: per the contract.
            unsafe { out.write(j) };
            j.codec
        }
        _ => 0,
    }
}

/// The lane-by-lane path of translated code's memory instructions (jit/mem.rs): element
/// `e < elems` of lane `l < n` is `dwords` dwords at offset `at[e * n + l]` of the target
/// (`kind` bit 1: the LDS; else the GPU address `base + offset`), for the lanes set in
/// `mask`. The active elements' span must end at or below `limit` (NUM_RECORDS, the LDS
/// length, or `u64::MAX`) and lie in one BO (one translation through the wave's TLB) or
/// the LDS allocation; then loads fill `data[(e * dwords + k) * n + l]` (the caller writes
/// the VGPRs under EXEC) and stores (`kind` bit 0) take their dwords from there, in lane
/// order, a lane's elements in order (the interpreter's order, which decides overlapping
/// lanes). Returns 1 when done, 0 when a check failed and nothing was moved (the
/// interpreter then runs the instruction and reports what it finds).
///
/// # Safety
/// `env` is the environment `Wave::enter` gave translated code; `at` holds `elems * n`
/// offsets and `data` `elems * dwords * n` dwords; `mask` is not 0.
#[allow(clippy::too_many_arguments)]
unsafe extern "C" fn access(
    env: *mut Env,
    kind: u32,
    base: u64,
    at: *const u64,
    mask: u64,
    n: u32,
    dwords: u32,
    elems: u32,
    data: *mut u32,
    limit: u64,
) -> u32 {
    let (n, d, e, store) = (n as usize, dwords as usize, elems as usize, kind & 1 != 0);
    // SAFETY: per the contract; no other reference to these exists during the call.
    let (env, at, data) =
        unsafe { (&mut *env, std::slice::from_raw_parts(at, e * n), std::slice::from_raw_parts_mut(data, e * d * n)) };
    let (mut lo, mut hi) = (u64::MAX, 0);
    for el in 0..e {
        let (l, h) = span(&at[el * n..(el + 1) * n], mask);
        (lo, hi) = (lo.min(l), hi.max(h));
    }
    let Some(end) = hi.checked_add(4 * d as u64).filter(|&end| end <= limit) else { return 0 };
    let host = if kind & 2 != 0 {
        // The limit is the LDS length.
        // SAFETY: `lo < end <= lds_len`.
        unsafe { env.lds.add(lo as usize) }
    } else {
        let ctx = &mut *env.ctx;
        match ctx.tlb.translate(ctx.vm, base.wrapping_add(lo), end - lo, store) {
            Ok(p) => p,
            Err(_) => return 0,
        }
    };
    // SAFETY: every active element lies in [lo, end), which `host` maps.
    unsafe { copy_lanes(host, lo, at, mask, n, d, e, data, store) };
    1
}

/// The smallest and largest of `at`'s lanes set in `mask` (`u64::MAX`, 0 when none),
/// without branches (the loop vectorises).
fn span(at: &[u64], mask: u64) -> (u64, u64) {
    let (mut lo, mut hi) = (u64::MAX, 0);
    for (l, &a) in at.iter().enumerate() {
        let on = mask >> l & 1 != 0;
        lo = lo.min(if on { a } else { u64::MAX });
        hi = hi.max(if on { a } else { 0 });
    }
    (lo, hi)
}

/// [`access`]'s data movement, once the span at `lo` is located at `lo_host`.
///
/// # Safety
/// Every active element lies in the located span.
#[allow(clippy::too_many_arguments)]
unsafe fn copy_lanes(
    lo_host: *mut u8,
    lo: u64,
    at: &[u64],
    mask: u64,
    n: usize,
    d: usize,
    e: usize,
    data: &mut [u32],
    store: bool,
) {
    if !store {
        for el in 0..e {
            let at = &at[el * n..(el + 1) * n];
            for c in (0..n).step_by(8) {
                // SAFETY: per the contract.
                unsafe { load_chunk(lo_host, lo, &at[c..c + 8], (mask >> c) as u8, d, &mut data[el * d * n..], n, c) };
            }
        }
        return;
    }
    if d == 1 && e == 1 {
        // Stores of one dword per lane: eight consecutive active lanes move as one block.
        for c in (0..n).step_by(8) {
            let cm = mask >> c & 0xff;
            let a0 = at[c];
            if cm == 0xff && (1..8).all(|i| at[c + i] == a0.wrapping_add(4 * i as u64)) {
                // SAFETY: the eight dwords are active lanes' elements (the contract).
                unsafe { move_dwords(lo_host.add((a0 - lo) as usize), data[c..c + 8].as_mut_ptr(), 8, store) };
            } else {
                for l in (c..c + 8).filter(|l| cm >> (l - c) & 1 != 0) {
                    // SAFETY: as above, one dword.
                    unsafe { move_dwords(lo_host.add((at[l] - lo) as usize), &mut data[l], 1, store) };
                }
            }
        }
        return;
    }
    let mut m = mask;
    while m != 0 {
        let l = m.trailing_zeros() as usize;
        m &= m - 1;
        for el in 0..e {
            // SAFETY: as above; unaligned accesses are what UNALIGNED mode allows.
            let p = unsafe { lo_host.add((at[el * n + l] - lo) as usize) };
            for k in 0..d {
                let i = (el * d + k) * n + l;
                // SAFETY: as above.
                unsafe { move_dwords(p.add(4 * k), &mut data[i], 1, store) };
            }
        }
    }
}

/// Loads lanes `c..c + 8` (offsets `at`, active in `m`) of one element of `d` dwords into
/// `data[k * n + c..]`: one read for eight lanes at one address (a row of a tile, a
/// uniform value), one block for eight consecutive dwords, else lane by lane without
/// branches (an inactive lane reads the span's first dword; it is never written to a
/// register).
///
/// # Safety
/// Every active lane's element lies in the span located at `lo_host` (offset `lo`).
#[allow(clippy::too_many_arguments)]
#[inline(always)]
unsafe fn load_chunk(lo_host: *mut u8, lo: u64, at: &[u64], m: u8, d: usize, data: &mut [u32], n: usize, c: usize) {
    let read = |off: u64| {
        // SAFETY: per the contract, `off` is inside the span.
        unsafe { lo_host.add(off as usize).cast::<u32>().read_unaligned() }
    };
    if m == 0xff && at.iter().all(|&a| a == at[0]) {
        for k in 0..d {
            data[k * n + c..k * n + c + 8].fill(read(at[0] - lo + 4 * k as u64));
        }
    } else if m == 0xff && d == 1 && (1..8).all(|i| at[i] == at[0].wrapping_add(4 * i as u64)) {
        // SAFETY: eight active lanes' dwords, in one block.
        unsafe { move_dwords(lo_host.add((at[0] - lo) as usize), data[c..c + 8].as_mut_ptr(), 8, false) };
    } else {
        for (i, &a) in at.iter().enumerate() {
            let off = if m >> i & 1 != 0 { a - lo } else { 0 };
            for k in 0..d {
                data[k * n + c + i] = read(off + 4 * k as u64);
            }
        }
    }
}

/// Copies `n` dwords from `mem` to `reg` (loads) or back (stores), unaligned in memory.
///
/// # Safety
/// `mem` is valid for `4 * n` bytes and `reg` for `n` dwords.
#[inline(always)]
unsafe fn move_dwords(mem: *mut u8, reg: *mut u32, n: usize, store: bool) {
    // SAFETY: per the contract; the two never overlap (memory vs. the caller's array).
    unsafe {
        if store {
            std::ptr::copy_nonoverlapping(reg as *const u8, mem, 4 * n);
        } else {
            std::ptr::copy_nonoverlapping(mem as *const u8, reg as *mut u8, 4 * n);
        }
    }
}

fn step(wave: &mut Wave, env: &mut Env, idx: usize) -> u32 {
    let prog = env.prog;
    let Some(inst) = prog.insts().get(idx) else { return RET_LEAVE };
    wave.pc = idx + 1;
    if wave.fast(inst) {
        return if wave.pc == idx + 1 { 0 } else { RET_RESUME };
    }
    if let Some(leave) = wave.step_flow(inst, idx, prog, env.ctx) {
        env.leave = Some(leave);
        return RET_LEAVE;
    }
    // The run loop's own check after an instruction of the step path, and the
    // translation's assumption about MODE (which s_setreg or s_denorm_mode may change).
    if host_float(wave.mode, prog) != Some(env.float) || wave.track.slow {
        env.leave = Some(Leave::Switch);
        return RET_LEAVE;
    }
    if wave.pc != idx + 1 {
        return RET_RESUME;
    }
    // An abort is checked here too, since call-outs can run long (memory, messages).
    if env.ctx.abort.load(Ordering::Relaxed) {
        env.leave = Some(Leave::Stop(super::Stop::Aborted));
        return RET_LEAVE;
    }
    0
}
