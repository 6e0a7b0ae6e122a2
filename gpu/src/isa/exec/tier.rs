//! Where the interpreter meets the translation tier (crate::jit): entering translated
//! code from the run loop, and the call-out through which translated code runs one
//! instruction in the interpreter. Both sides use the one [`Wave`] layout, so a wave
//! moves between them at any entry point with nothing to convert.

use std::any::Any;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::Ordering;

use super::{trap, Ctx, Leave, Wave};
use crate::isa::program::Program;
use crate::jit::emit::{RET_INTERP, RET_LEAVE, RET_RESUME};
use crate::jit::Translated;

/// A translated program's entry: `(wave, VGPR file, environment, instruction index)`.
pub(crate) type JitFn = unsafe extern "C" fn(*mut Wave, *mut u32, *mut Env, u32) -> u32;

/// Loop iterations (back edges) translated code runs before the run loop checks for an
/// abort or a host trap (the interpreter checks every 4096 instructions).
const BUDGET: u32 = 1024;

/// What translated code and its call-outs share. `budget` must stay the first field: the
/// generated code decrements it at offset 0.
#[repr(C)]
pub(crate) struct Env<'p, 'c, 'x> {
    budget: u32,
    prog: &'p Program,
    ctx: &'x mut Ctx<'c>,
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
    }
}

/// The address of [`callout`], for the generated code.
pub(crate) fn callout_address() -> u64 {
    callout as *const () as usize as u64
}

/// Whether translated code computes what the interpreter would for a wave in `mode`: its
/// float lowering assumes f32 round-to-nearest-even with denormals kept.
#[inline]
pub(super) fn mode_ok(mode: u32) -> bool {
    super::fp::f32_host_mode(mode) && mode & trap::MODE_CHECKED == 0
}

impl Wave {
    /// Runs `t` from `self.pc` (an entry point) until it returns.
    pub(super) fn enter(&mut self, t: &Translated, prog: &Program, ctx: &mut Ctx) -> Entered {
        let mut env = Env { budget: BUDGET, prog, ctx, leave: None, panic: None };
        let v = self.vgpr.as_mut_ptr();
        // SAFETY: `t.func` was compiled from `prog` for this wave size (the translation
        // belongs to the program); it reads and writes the wave through these pointers
        // only at the offsets of `layout()` and within the VGPR file (register indices
        // are below VGPR_ALLOC), and calls `callout` with them. No Rust reference to the
        // wave is used while it runs.
        let r = unsafe { (t.func)(self, v, &mut env, self.pc as u32) };
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
    // translation's assumption about MODE.
    if !mode_ok(wave.mode) || wave.track.slow {
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
