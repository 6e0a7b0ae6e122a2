//! Python `wgpu` (wgpu-py over wgpu-native, the venv of `tests/python/setup-venv`) runs the
//! WGSL compute passes of `tests/python/compute.py`: on lavapipe (which proves the script and
//! the venv) and on softnavi.
//!
//! wgpu-hal (every version up to the 29.0.3 that wgpu-native 29.0.1.1 is built on,
//! `src/vulkan/adapter.rs:2212` in `expose_adapter`) hides any Vulkan device whose first
//! queue family lacks GRAPHICS. softnavi is compute only and does not claim a graphics queue
//! by default: the first test checks that wgpu refuses it for exactly that reason, the
//! second runs the passes of [`PASSES`] (named on its command line) with the compatibility
//! switch `SOFTNAVI_GRAPHICS_QUEUE_FLAG=1` (family 0 claims GRAPHICS; wgpu only computes) and
//! requires all of them to pass. lavapipe runs, and must pass, every pass of the script.
//!
//! `texture-zero-init`: wgpu zero-initialises a texture of a renderable format that has no
//! COPY_DST usage with a render pass (a clearing load op, viewport and scissor, no draws)
//! before its first use; softnavi carries out such render passes (icd/src/graphics.rs).
//! The other texture passes give their textures COPY_DST, with which wgpu clears by buffer
//! copies.
//!
//! The last test runs the buffer passes with wgpu's defaults on Mesa's RADV over the GPU
//! model (issue 21).
//!
//! Skips (passes, saying why) only when the venv cannot be created, e.g. without network.

use std::path::{Path, PathBuf};
use std::process::Command;

use softnavi_tests::env::{lavapipe_manifest, output, radv_command, softnavi_manifest, vk_command};

const PASSES: [&str; 9] = [
    "saxpy",
    "workgroup-reduce",
    "atomic-histogram",
    "uniform-params",
    "one-submission",
    "storage-texture",
    "sampled-texture",
    "texture-copy",
    "texture-zero-init",
];
/// wgpu-hal's reason for hiding a device without a graphics queue (adapter.rs:2213).
const NO_GRAPHICS_QUEUE: &str = "The first queue only exposes COMPUTE | TRANSFER";

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().expect("tests/ is in the repository").to_path_buf()
}

/// The venv's python, creating the venv if needed; `None` (with the reason printed) when it
/// cannot be created.
fn venv_python() -> Option<PathBuf> {
    // Both tests need it: set it up once (two pip runs into one venv would race).
    static PYTHON: std::sync::OnceLock<Option<PathBuf>> = std::sync::OnceLock::new();
    PYTHON.get_or_init(make_venv).clone()
}

fn make_venv() -> Option<PathBuf> {
    let venv = std::env::var_os("SOFTNAVI_VENV")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").expect("HOME is set")).join(".cache/softnavi-venv"));
    let setup = repo().join("tests/python/setup-venv");
    let o = Command::new(&setup).output().unwrap_or_else(|e| panic!("cannot run {}: {e}", setup.display()));
    let python = venv.join("bin/python");
    if !o.status.success() || !python.exists() {
        eprintln!(
            "SKIPPED: the wgpu venv could not be created ({} failed: {})",
            setup.display(),
            String::from_utf8_lossy(&o.stderr).trim()
        );
        return None;
    }
    Some(python)
}

/// The passes that need no texture: on RADV, which claims a graphics queue, so wgpu takes
/// it with its defaults; RADV 22.3 clears and copies textures with draws on that queue,
/// which the model does not carry out (a named CP error, see `tests/radv.rs`).
const BUFFER_PASSES: [&str; 5] = ["saxpy", "workgroup-reduce", "atomic-histogram", "uniform-params", "one-submission"];

/// Runs `passes` of compute.py (every pass when empty).
fn run(python: &Path, icd: &Path, env: &[(&str, &str)], passes: &[&str]) -> (Option<i32>, String) {
    run_cmd(vk_command(python, icd), env, passes)
}

fn run_cmd(mut cmd: Command, env: &[(&str, &str)], passes: &[&str]) -> (Option<i32>, String) {
    cmd.envs(env.iter().copied());
    cmd.arg(repo().join("tests/python/compute.py")).arg("--verbose").env("SOFTNAVI_THREADS", "2");
    cmd.args(passes);
    let (o, out, err) = output(cmd);
    (o.status.code(), format!("{out}\n--- stderr ---\n{err}"))
}

fn assert_all_pass(what: &str, code: Option<i32>, log: &str) {
    assert_passes(what, &PASSES, code, log);
}

fn assert_passes(what: &str, passes: &[&str], code: Option<i32>, log: &str) {
    for pass in passes {
        assert!(log.lines().any(|l| l == format!("PASS {pass}")), "{what}: no `PASS {pass}` line:\n{log}");
    }
    assert_eq!(code, Some(0), "{what}: exit status:\n{log}");
}

#[test]
fn wgpu_compute_on_lavapipe() {
    let Some(python) = venv_python() else { return };
    let (code, log) = run(&python, &lavapipe_manifest(), &[], &[]);
    assert_all_pass("lavapipe", code, &log);
}

#[test]
fn wgpu_refuses_softnavi_without_a_graphics_queue() {
    let Some(python) = venv_python() else { return };
    let (code, log) = run(&python, &softnavi_manifest(), &[], &[]);
    assert!(
        code == Some(2) && log.contains("NO ADAPTER") && log.contains(NO_GRAPHICS_QUEUE),
        "wgpu should hide softnavi for its compute-only first family ({code:?}):\n{log}"
    );
}

#[test]
fn wgpu_compute_on_softnavi() {
    let Some(python) = venv_python() else { return };
    let (code, log) = run(&python, &softnavi_manifest(), &[("SOFTNAVI_GRAPHICS_QUEUE_FLAG", "1")], &PASSES);
    assert_all_pass("softnavi", code, &log);
}

/// wgpu with its defaults on Mesa's RADV over the GPU model (`scripts/radv`): RADV's
/// GFX1100 device, ACO's code for wgpu's SPIR-V, RADV's PM4.
#[test]
fn wgpu_compute_on_radv() {
    let Some(python) = venv_python() else { return };
    let Some(cmd) = radv_command(&python) else { return };
    let (code, log) = run_cmd(cmd, &[], &BUFFER_PASSES);
    assert!(log.contains("(RADV GFX1100)"), "wgpu ran on another adapter:\n{log}");
    assert_passes("RADV", &BUFFER_PASSES, code, &log);
}
