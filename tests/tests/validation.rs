//! The validation sweep: every example and test app runs on softnavi under
//! `VK_LAYER_KHRONOS_validation`, and must get no error, warning or performance warning.
//!
//! Apps come in two kinds ([`Mode`]): those with their own `--validate` (a debug messenger
//! that counts messages; exit status 3 when there were any), and the others, run with the
//! layer enabled by the loader (`VK_INSTANCE_LAYERS`), whose messages the layer prints to
//! stdout (every one has a `msgNum:`). A new app is one line in [`APPS`]. Scenarios that
//! misuse Vulkan on purpose (garbage SPIR-V, shaders that fault or hang) are not listed.
//!
//! Needs `cargo build --workspace` (the examples and the ICD) first.

use std::path::PathBuf;

use softnavi_tests::env::{output, softnavi_manifest, target_dir, vk_command, vk_command_validated};

#[derive(Clone, Copy, Debug)]
enum Mode {
    /// The app takes `--validate` (given in its arguments) and exits 3 on any message.
    Flag,
    /// The loader enables the layer; its messages are counted on stdout.
    Layer,
}

/// (binary in target/<profile>, arguments, mode).
const APPS: &[(&str, &[&str], Mode)] = &[
    ("saxpy", &["--validate"], Mode::Flag),
    ("reduce", &["--validate"], Mode::Flag),
    ("softnavi-lifecycle", &["2", "--validate"], Mode::Flag),
    ("softnavi-features", &["report", "--validate"], Mode::Flag),
    ("softnavi-features", &["subgroup-sizes"], Mode::Layer),
    ("softnavi-probe", &["copy"], Mode::Layer),
    ("softnavi-probe", &["transfer"], Mode::Layer),
    ("softnavi-probe", &["dispatch-variants"], Mode::Layer),
    ("softnavi-probe", &["many-dispatches"], Mode::Layer),
    ("softnavi-probe", &["timestamps"], Mode::Layer),
    ("softnavi-probe", &["events"], Mode::Layer),
    ("softnavi-probe", &["subgroup"], Mode::Layer),
    ("softnavi-spirv", &[], Mode::Layer),
    ("softnavi-clkernels", &["w32v5"], Mode::Layer),
];

/// Runs one app; returns the validation messages it got (empty: clean), or why it failed.
fn sweep(program: &str, args: &[&str], mode: Mode) -> Result<Vec<String>, String> {
    let path: PathBuf = target_dir().join(program);
    let icd = softnavi_manifest();
    let mut cmd = match mode {
        Mode::Flag => vk_command(&path, &icd),
        Mode::Layer => vk_command_validated(&path, &icd),
    };
    cmd.args(args).env("SOFTNAVI_THREADS", "2");
    let (o, out, err) = output(cmd);
    let messages: Vec<String> = out
        .lines()
        .chain(err.lines())
        .filter(|l| l.contains("msgNum:") || l.starts_with("validation [") || l.contains("lifecycle: validation:"))
        .map(str::to_owned)
        .collect();
    let validation_exit = matches!(mode, Mode::Flag) && o.status.code() == Some(3);
    if !o.status.success() && !validation_exit {
        return Err(format!("exit status {:?}\n--- stdout ---\n{out}\n--- stderr ---\n{err}", o.status.code()));
    }
    if validation_exit && messages.is_empty() {
        return Err(format!("exit status 3 but no message found\n--- stdout ---\n{out}\n--- stderr ---\n{err}"));
    }
    Ok(messages)
}

#[test]
fn every_app_is_clean_under_validation() {
    let mut dirty = Vec::new();
    for &(program, args, mode) in APPS {
        let what = format!("{program} {}", args.join(" "));
        match sweep(program, args, mode) {
            Ok(m) if m.is_empty() => eprintln!("clean: {what}"),
            Ok(m) => {
                eprintln!("{} messages: {what}", m.len());
                for line in &m {
                    eprintln!("    {line}");
                }
                dirty.push(what);
            }
            Err(e) => {
                eprintln!("failed: {what}: {e}");
                dirty.push(what);
            }
        }
    }
    assert!(dirty.is_empty(), "not clean under VK_LAYER_KHRONOS_validation: {dirty:?}");
}
