//! `softnavi-lifecycle 3` (every object created, used and destroyed, three times, instance
//! included) under valgrind's memcheck on softnavi: no memory error and no definite or
//! indirect leak. "Possibly lost" and "still reachable" blocks are not errors: the loader,
//! glibc's thread stacks and Rust's runtime keep one-time allocations until exit, and three
//! rounds of a leaking object would show as definite or indirect.
//!
//! `tests/valgrind.supp` suppresses one glibc dynamic-loader false positive (see there).
//! At the time of writing, reachable memory at exit is the same for 3 and 6 rounds (about
//! 310 KB: loader and runtime), so nothing accumulates in global tables either.
//!
//! The shader is compiled once before the valgrind run (same cache directory), so that the
//! run under valgrind reads the code object from the disk cache instead of running LLVM;
//! `SOFTNAVI_LLVM=process` keeps libLLVM out of the process anyway, and `SOFTNAVI_JIT=off`
//! keeps the translation tier (which loads libLLVM and keeps its translations for the
//! process's life, by design) out of it too.
//!
//! Needs valgrind (scripts/setup) and `cargo build --workspace` first.

use std::process::Command;

use softnavi_tests::env::{output, softnavi_manifest, target_dir, vk_command};

#[test]
fn lifecycle_has_no_leak_under_valgrind() {
    if Command::new("valgrind").arg("--version").output().is_err() {
        panic!("valgrind is not installed: run scripts/setup");
    }
    let lifecycle = target_dir().join("softnavi-lifecycle");
    let icd = softnavi_manifest();
    let cache = target_dir().join("valgrind-shader-cache");
    let env = [
        ("SOFTNAVI_THREADS", "1"),
        ("SOFTNAVI_LLVM", "process"),
        ("SOFTNAVI_JIT", "off"),
        ("SOFTNAVI_HANG_TIMEOUT_MS", "120000"),
    ];

    // Warm the shader cache (and check the app itself) without valgrind.
    let mut warm = vk_command(&lifecycle, &icd);
    warm.arg("1").envs(env).env("SOFTNAVI_CACHE_DIR", &cache);
    let (o, out, err) = output(warm);
    assert!(o.status.success(), "softnavi-lifecycle 1 failed:\n{out}\n{err}");

    let mut cmd = vk_command(std::path::Path::new("/usr/bin/valgrind"), &icd);
    let supp = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("valgrind.supp");
    cmd.arg(format!("--suppressions={}", supp.display()));
    cmd.args([
        "--leak-check=full",
        "--show-leak-kinds=definite,indirect",
        "--errors-for-leak-kinds=definite,indirect",
        "--error-exitcode=3",
        "--num-callers=30",
    ])
    .arg(&lifecycle)
    .arg("3")
    .envs(env)
    .env("SOFTNAVI_CACHE_DIR", &cache);
    let started = std::time::Instant::now();
    let (o, out, err) = output(cmd);
    eprintln!("valgrind run: {:.1} s", started.elapsed().as_secs_f64());
    let summary: Vec<&str> = err.lines().filter(|l| l.contains("lost:") || l.contains("ERROR SUMMARY")).collect();
    eprintln!("{}", summary.join("\n"));
    assert!(
        o.status.success(),
        "valgrind exit status {:?} (3: memory errors or leaks)\n--- stdout ---\n{out}\n--- stderr ---\n{err}",
        o.status.code()
    );
    assert!(out.contains("lifecycle: 3 rounds clean"), "{out}\n{err}");
    let definite = err.lines().find(|l| l.contains("definitely lost:"));
    assert!(definite.is_none_or(|l| l.contains("definitely lost: 0 bytes")), "{}", definite.unwrap_or_default());
    assert!(err.contains("ERROR SUMMARY: 0 errors"), "{err}");
}
