//! `softnavi-pipes` (src/bin/pipes.rs) through the Khronos loader: every scenario on
//! softnavi (with and without VK_LAYER_KHRONOS_validation) and on lavapipe, the oracle,
//! with validation; and the device-lost report of a faulting dispatch naming the objects
//! the application named with VK_EXT_debug_utils.

use std::path::Path;

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, vk_command};

const SCENARIOS: &[&str] = &["cache", "cmdbufs", "copies", "events", "timestamps", "markers"];

fn app() -> &'static Path {
    Path::new(env!("CARGO_BIN_EXE_softnavi-pipes"))
}

/// Runs a scenario; returns its RESULT line, panicking with its output otherwise.
fn run(icd: &Path, scenario: &str, validate: bool) -> String {
    let mut cmd = vk_command(app(), icd);
    // A miss must really compile: no compiler disk cache.
    cmd.env("SOFTNAVI_CACHE_DIR", "off").arg(scenario);
    if validate {
        cmd.arg("--validate");
    }
    let (o, out, err) = output(cmd);
    let result = out.lines().find_map(|l| l.strip_prefix("RESULT: ")).map(str::to_string);
    match result {
        Some(r) if o.status.success() && r.starts_with("verified") => r,
        _ => panic!("softnavi-pipes {scenario} (validate {validate}) on {}:\n{out}\n{err}", icd.display()),
    }
}

#[test]
fn every_scenario_passes_on_softnavi() {
    for s in SCENARIOS {
        eprintln!("{s}: {}", run(&softnavi_manifest(), s, false));
    }
}

#[test]
fn every_scenario_is_valid_on_softnavi() {
    for s in SCENARIOS {
        eprintln!("{s}: {}", run(&softnavi_manifest(), s, true));
    }
}

/// Lavapipe has no VK_AMD_buffer_marker: the markers scenario is softnavi's and RADV's.
#[test]
fn every_scenario_is_valid_and_passes_on_lavapipe() {
    for s in SCENARIOS.iter().filter(|s| **s != "markers") {
        eprintln!("{s}: {}", run(&lavapipe_manifest(), s, true));
    }
}

#[test]
fn a_cache_hit_skips_compilation() {
    let r = run(&softnavi_manifest(), "cache", false);
    assert!(r.contains("FAIL_ON_PIPELINE_COMPILE_REQUIRED honoured") && r.contains("statistics say from cache"), "{r}");
}

#[test]
fn a_fault_report_names_the_debug_named_objects() {
    let (o, out, err) = output({
        let mut c = vk_command(app(), &softnavi_manifest());
        c.env("SOFTNAVI_CACHE_DIR", "off").arg("fault");
        c
    });
    assert!(o.status.success() && out.contains("RESULT: device lost"), "{out}\n{err}");
    for name in [
        "pipeline 'faulty-copy'",
        "shader module 'copy.comp'",
        "command buffer 'fault-cb' (VkCommandBuffer",
        "inside label 'copy step'",
        "queue 'compute-queue'",
        "inside label 'frame 1'",
    ] {
        assert!(err.contains(name), "the report does not name {name}:\n{err}");
    }
}
