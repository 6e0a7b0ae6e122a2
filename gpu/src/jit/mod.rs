//! The translation tier: RDNA3 programs translated once to host machine code (LLVM 19's
//! ORC JIT, through the libLLVM the shader compiler already loads), whose lane loops are
//! vector instructions under EXEC.
//!
//! The translated code works on the interpreter's wave state ([`crate::isa::exec::Wave`]),
//! so a wave moves between the tiers at any entry point: what the translator does not
//! lower inline runs in the interpreter through a call-out, and the checking loop
//! (`SOFTNAVI_CHECK`, traps on float exceptions, released VGPRs) and waves whose MODE
//! rounds or flushes f32 stay in the interpreter. See docs/ARCHITECTURE.md ("Execution
//! tiers") and [`emit`] for the contract.
//!
//! `SOFTNAVI_JIT` picks the mode ([`JitMode`]): `auto` (the default) compiles on a
//! background thread while the first waves are interpreted; `on` compiles before the
//! dispatch's first wave runs; `off` interprets everything.
//!
//! IR is compiled to a host object in this process unless a [`HostCompiler`] is set
//! ([`set_host_compiler`]: the ICD's sends compiles to its compile server, where an LLVM
//! crash cannot end the application); the object is linked here either way.

pub mod emit;
pub(crate) mod image;
mod ir;
mod mem;
mod orc;
mod salu;
mod valu;

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::{Duration, Instant};

use crossbeam::channel::{unbounded, Sender};
use parking_lot::Mutex;

pub(crate) use ir::Layout;
pub use llvm::host::HostTarget;

use crate::isa::exec::tier::{self, JitFn};
use crate::isa::program::Program;

/// How programs are run (`SOFTNAVI_JIT`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum JitMode {
    /// Interpreter only.
    Off,
    /// Translate in the background; interpret until the code is ready.
    #[default]
    Auto,
    /// Translate before the first wave of a program runs.
    On,
}

impl JitMode {
    /// `auto`, `on` or `off`; anything else is `None`.
    pub fn parse(s: &str) -> Option<JitMode> {
        match s.trim() {
            "auto" | "" => Some(JitMode::Auto),
            "on" | "1" => Some(JitMode::On),
            "off" | "0" => Some(JitMode::Off),
            _ => None,
        }
    }
}

/// A program's host code.
pub struct Translated {
    pub(crate) func: JitFn,
    /// Which instruction indices the function can start at.
    pub(crate) entries: Box<[bool]>,
    /// Instructions lowered inline, of all.
    pub inline: usize,
    pub total: usize,
    pub compile_time: Duration,
}

impl Translated {
    #[inline]
    pub(crate) fn is_entry(&self, pc: usize) -> bool {
        self.entries.get(pc).copied().unwrap_or(false)
    }
}

/// What the translation tier did for one device.
#[derive(Clone, Debug, Default)]
pub struct JitStats {
    /// Programs translated (or found already translated by content).
    pub programs: u64,
    /// Programs the translator could not compile (they run in the interpreter).
    pub failures: u64,
    /// Time spent translating and compiling.
    pub compile_time: Duration,
    /// Why the last failed translation failed.
    pub last_error: Option<String>,
}

/// Compiles IR (the text, the pass pipeline) into a host object for the target given, in
/// place of [`orc::Orc::compile`]; `Err` is LLVM's message or why the compile ended.
pub type HostCompiler = Box<dyn Fn(&str, &str, &HostTarget) -> Result<Vec<u8>, String> + Send + Sync>;

/// The compiler set by [`set_host_compiler`], and its name for the log.
static HOST_COMPILER: OnceLock<(&'static str, HostCompiler)> = OnceLock::new();

/// Makes every later translation compile with `compiler` instead of in this process
/// (`name` completes "compiled ..." in the log, e.g. "by softnavi-llvmd"). The first
/// compiler set stays (`false` when one was set before); set it before the first
/// translation, which also compiles the warm-up program.
pub fn set_host_compiler(name: &'static str, compiler: HostCompiler) -> bool {
    HOST_COMPILER.set((name, compiler)).is_ok()
}

/// Which compiler [`compile`] uses, for the log ("compiled ...").
fn compiler_name() -> &'static str {
    HOST_COMPILER.get().map_or("in-process", |(name, _)| name)
}

/// `ir` compiled to a host object by the [`HostCompiler`], or in this process.
fn compile(orc: &orc::Orc, ir: &str) -> Result<Vec<u8>, String> {
    match HOST_COMPILER.get() {
        Some((_, compiler)) => compiler(ir, PASSES, orc.host()),
        None => orc.compile(ir, PASSES),
    }
}

/// Translations by program content (the words and the wave size): pipelines destroyed
/// and re-created, or the same kernel at another address, reuse the code.
/// A program's content: its words and whether it was decoded for wave64.
type Content = (Vec<u32>, bool);

struct Translator {
    orc: Result<orc::Orc, String>,
    done: Mutex<HashMap<Content, Arc<Translated>>>,
    next_name: std::sync::atomic::AtomicU64,
}

/// Held while a translation is compiled (here or by the [`HostCompiler`]) and linked. At
/// process exit it is taken and never given back (`stop_compiling`), so that LLVM's
/// static destructors never run under a compile: a process that exited while the
/// background thread compiled crashed inside LLVM (the hang-then-recover probe, 1 run in
/// 16).
static COMPILING: Mutex<()> = parking_lot::const_mutex(());
static STOPPED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

extern "C" {
    /// libc's: `f` runs at `exit`, before the handlers registered earlier.
    fn atexit(f: extern "C" fn()) -> std::ffi::c_int;
}

/// Waits for a compile in flight and keeps any other from starting (once).
extern "C" fn stop_compiling() {
    if !STOPPED.swap(true, std::sync::atomic::Ordering::SeqCst) {
        std::mem::forget(COMPILING.lock());
    }
}

/// Devices alive. Background compiles run only while one is: the last device's end waits
/// for the compile in flight (see [`Liveness`]), so that an application that destroys its
/// device and exits never exits under a compile.
static LIVE: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);

/// Held by every device: counts it in [`LIVE`].
pub struct Liveness(());

impl Liveness {
    pub fn new() -> Liveness {
        LIVE.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        Liveness(())
    }
}

impl Default for Liveness {
    fn default() -> Liveness {
        Liveness::new()
    }
}

impl Drop for Liveness {
    fn drop(&mut self) {
        let last = LIVE.fetch_sub(1, std::sync::atomic::Ordering::SeqCst) == 1;
        // After `stop_compiling` the lock is never free again (and no compile runs).
        if last && !STOPPED.load(std::sync::atomic::Ordering::SeqCst) {
            // A background compile checks LIVE under the lock: once this has the lock,
            // none runs and none starts.
            drop(COMPILING.lock());
        }
    }
}

/// Registers `stop_compiling` (again): exit handlers run in reverse order, and LLVM
/// registers the destructors of some statics when code first uses them, during a
/// compile; a registration after each of the first compiles runs before those. Bounded.
fn register_exit_handler() {
    static COUNT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    if COUNT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) < 32 {
        // SAFETY: `stop_compiling` is a plain function that stays valid until exit.
        if unsafe { atexit(stop_compiling) } != 0 {
            tracing::warn!("translation tier: cannot register its exit handler");
        }
    }
}

/// A small program translated and linked once when the translator starts (v_add_f32 v1,
/// v1, v2; v_cmp_gt_f32 vcc, v1, v2; s_cbranch_vccnz back; global_store_b32; s_endpgm),
/// so that LLVM's lazily registered statics, the linker's among them, exist before the
/// exit handler is registered.
const WARM_UP: [u32; 7] = [0x0602_0501, 0x7c28_0501, 0xbfa4_fffd, 0xdc6a_0000, 0x007c_0100, 0xbfb0_0000, 0];

fn translator() -> &'static Translator {
    static T: OnceLock<Translator> = OnceLock::new();
    T.get_or_init(|| {
        let orc = orc::Orc::create();
        if let Ok(Err(e)) = orc.as_ref().map(warm_up) {
            tracing::warn!("translation tier: the warm-up translation failed: {e}");
        }
        // After libLLVM is loaded and has compiled (or received) and linked the warm-up,
        // so that it runs before LLVM's static destructors.
        register_exit_handler();
        match &orc {
            Ok(o) => {
                tracing::info!("translation tier: LLVM ORC JIT for {}, compiled {}", o.identity(), compiler_name())
            }
            Err(e) => tracing::warn!("translation tier unavailable (programs are interpreted): {e}"),
        }
        Translator { orc, done: Mutex::new(HashMap::new()), next_name: Default::default() }
    })
}

/// Translates and links [`WARM_UP`].
fn warm_up(orc: &orc::Orc) -> Result<(), String> {
    const NAME: &str = "softnavi_warm_up";
    let module = emit::translate(&Program::decode(0, &WARM_UP, false), 32, tier::layout(), NAME);
    orc.load(&compile(orc, &module.ir)?, NAME).map(drop)
}

type Request = (Arc<Program>, Arc<Mutex<JitStats>>);

/// The background compile thread's queue.
fn queue() -> &'static Sender<Request> {
    static Q: OnceLock<Sender<Request>> = OnceLock::new();
    Q.get_or_init(|| {
        let (tx, rx) = unbounded::<Request>();
        let spawned = std::thread::Builder::new().name("softnavi-jit".into()).spawn(move || {
            for (prog, stats) in rx {
                translate_now(&prog, &stats, false);
            }
        });
        if let Err(e) = spawned {
            tracing::warn!("translation tier: cannot start its thread ({e}); programs are interpreted");
        }
        tx
    })
}

/// Makes sure `prog`, about to launch `waves` more waves, gets translated under `mode`: at
/// once (`On`), in the background once it has launched `hot_waves` waves in all (`Auto`:
/// a compile costs LLVM a large fraction of a second, which a program run for a few waves,
/// as most of a conformance suite's are, never wins back), or not at all (`Off`). Cheap
/// when it was asked before.
pub fn prepare(prog: &Arc<Program>, mode: JitMode, waves: (u64, u64), stats: &Arc<Mutex<JitStats>>) {
    if !due(prog, mode, waves) || !prog.request_translation() {
        return;
    }
    match mode {
        JitMode::On => translate_now(prog, stats, true),
        _ => {
            // LLVM is loaded, warmed up and the exit handler registered here, before the
            // background thread compiles: a process that exited while that thread was
            // still loading LLVM had no handler yet to wait for it, and crashed in LLVM's
            // static destructors (RADV apps under the amdgpu shim, whose device lives
            // until exit).
            translator();
            let _ = queue().send((prog.clone(), stats.clone()));
        }
    }
}

/// Whether `prog`, about to launch `waves` more waves, is due for translation under `mode`
/// with the threshold `hot_waves` (see [`prepare`]); counts the waves.
fn due(prog: &Program, mode: JitMode, (waves, hot_waves): (u64, u64)) -> bool {
    match mode {
        JitMode::Off => false,
        JitMode::On => true,
        JitMode::Auto => prog.count_waves(waves) >= hot_waves,
    }
}

/// Translates `prog` and installs the code. A failure leaves the program to the
/// interpreter; `required` (SOFTNAVI_JIT=on) logs it as an error.
fn translate_now(prog: &Program, stats: &Mutex<JitStats>, required: bool) {
    let start = Instant::now();
    let result = {
        let _compiling = COMPILING.lock();
        if !required && LIVE.load(std::sync::atomic::Ordering::SeqCst) == 0 {
            // Its device is gone (and the process may be exiting).
            return;
        }
        translate(prog)
    };
    register_exit_handler();
    let spent = start.elapsed();
    let mut s = stats.lock();
    s.compile_time += spent;
    match result {
        Ok(t) => {
            s.programs += 1;
            tracing::debug!(
                "translated the program at {:#x}: {} of {} instructions inline, {:?}, compiled {}",
                prog.base(),
                t.inline,
                t.total,
                t.compile_time,
                compiler_name()
            );
            prog.set_translation(t);
        }
        Err(e) => {
            s.failures += 1;
            s.last_error = Some(format!("the program at {:#x}: {e}", prog.base()));
            if required {
                tracing::error!("translation failed, the program at {:#x} stays interpreted: {e}", prog.base());
            } else {
                tracing::warn!("translation failed, the program at {:#x} stays interpreted: {e}", prog.base());
            }
        }
    }
}

/// The host code of `prog`, from the cache or compiled now (compiles run in parallel; a
/// program compiled twice at once keeps the first result).
fn translate(prog: &Program) -> Result<Arc<Translated>, String> {
    let t = translator();
    let key = (prog.words_all().to_vec(), prog.wave64());
    if let Some(done) = t.done.lock().get(&key) {
        return Ok(done.clone());
    }
    let orc = t.orc.as_ref().map_err(|e| e.clone())?;
    let start = Instant::now();
    let name = format!("softnavi_program_{}", t.next_name.fetch_add(1, std::sync::atomic::Ordering::Relaxed));
    let lanes = if prog.wave64() { 64 } else { 32 };
    let module = emit::translate(prog, lanes, tier::layout(), &name);
    if let Some(dir) = std::env::var_os("SOFTNAVI_JIT_DUMP") {
        dump(std::path::Path::new(&dir), &name, prog, &module.ir);
    }
    let object = compile(orc, &module.ir)?;
    let addr = orc.load(&object, &name)?;
    if addr == 0 {
        return Err("the JIT returned no address".into());
    }
    // SAFETY: `addr` is the entry of the function `emit::translate` wrote, whose
    // signature is `JitFn`'s.
    let func = unsafe { std::mem::transmute::<usize, JitFn>(addr as usize) };
    let done = Arc::new(Translated {
        func,
        entries: module.entries.into_boxed_slice(),
        inline: module.inline,
        total: module.total,
        compile_time: start.elapsed(),
    });
    Ok(t.done.lock().entry(key).or_insert(done).clone())
}

/// The optimisation pipeline run on each translated module before code generation.
const PASSES: &str = "default<O2>";

/// `SOFTNAVI_JIT_DUMP`: the IR of a translation (for debugging the translator) and the
/// program's disassembly beside it (what the translated code was made from).
fn dump(dir: &std::path::Path, name: &str, prog: &Program, ir: &str) {
    let listing: String = (0..prog.insts().len()).map(|i| prog.describe(i) + "\n").collect();
    for (ext, text) in [("ll", ir), ("s", listing.as_str())] {
        let path = dir.join(format!("{name}.{ext}"));
        if let Err(e) = std::fs::write(&path, text) {
            tracing::warn!("SOFTNAVI_JIT_DUMP: cannot write {}: {e}", path.display());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `auto` translates a program once it has launched the threshold's waves over all its
    /// dispatches (a large dispatch at once); `on` always, `off` never.
    #[test]
    fn auto_translates_hot_programs_only() {
        let p = Program::decode(0, &WARM_UP, false);
        for _ in 0..63 {
            assert!(!due(&p, JitMode::Auto, (1, 64)));
        }
        assert!(due(&p, JitMode::Auto, (1, 64)));
        let big = Program::decode(0, &WARM_UP, false);
        assert!(due(&big, JitMode::Auto, (64, 64)));
        assert!(due(&Program::decode(0, &WARM_UP, false), JitMode::On, (1, 64)));
        assert!(!due(&Program::decode(0, &WARM_UP, false), JitMode::Off, (1000, 64)));
    }
}
