//! The translation tier's compiles go to the host compiler the embedder sets
//! (`gpu::jit::set_host_compiler`: the ICD's sends them to its compile server), the
//! warm-up translation included; a compile that fails there (LLVM's fatal error, a dead
//! server) fails only that program's translation: it is logged and counted with the
//! program's address and the message, and the program runs in the interpreter.

mod common;

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

use common::{addr, check_tid3_dispatch, read_words, write_words, Dispatch, Gpu, TID3_KERNEL, W32, W64};
use gpu::jit::HostTarget;

static CALLS: AtomicUsize = AtomicUsize::new(0);
static FAIL: AtomicBool = AtomicBool::new(false);

/// What the test's failing compiles answer.
const REFUSAL: &str = "LLVM fatal error: refused by the test";

fn compiler(ir: &str, passes: &str, target: &HostTarget) -> Result<Vec<u8>, String> {
    CALLS.fetch_add(1, Ordering::SeqCst);
    if FAIL.load(Ordering::SeqCst) {
        return Err(REFUSAL.into());
    }
    llvm::host::compile(ir, passes, target)
}

#[test]
fn translations_use_the_host_compiler_and_survive_its_failures() {
    // Before the first device: the one test of this binary, every program translated.
    std::env::set_var("SOFTNAVI_JIT", "on");
    assert!(gpu::jit::set_host_compiler("by the test", Box::new(compiler)));
    assert!(!gpu::jit::set_host_compiler("twice", Box::new(compiler)), "the first compiler stays");
    if let Err(e) = llvm::Library::get() {
        eprintln!("SKIPPED: no translation tier without libLLVM 19 ({e})");
        return;
    }
    let mut gpu = Gpu::new();
    check_tid3_dispatch(&mut gpu, W32);
    assert!(CALLS.load(Ordering::SeqCst) >= 2, "the warm-up and the program went to the compiler");

    // The same kernel for wave64 is another translation, which the compiler refuses.
    FAIL.store(true, Ordering::SeqCst);
    let code = gpu.kernel(TID3_KERNEL);
    let out = gpu.alloc(64 * 64 * 4);
    write_words(&out, 0, &[0; 64 * 64]);
    let ib = gpu.ib(&Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]).ib([64, 1, 1], W64));
    let seq = gpu.queue.submit(&[ib]).expect("submit");
    assert_eq!(gpu.queue.wait(seq, Duration::from_secs(30)).ok(), Some(true), "the dispatch ends");
    let got = read_words(&out, 0, 64 * 64);
    assert!((0..64 * 64).all(|i| got[i as usize] == i % 64 * 3 + i / 64), "the interpreter ran it");
    let jit = gpu.dev.stats().jit;
    assert_eq!(jit.failures, 1);
    let error = jit.last_error.unwrap_or_default();
    assert!(error.contains(&format!("the program at {:#x}", code.va())) && error.contains(REFUSAL), "{error}");
}
