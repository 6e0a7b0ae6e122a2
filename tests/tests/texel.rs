//! Texel buffers end to end: `softnavi-texel` (tests/src/bin/texel.rs) on softnavi and on
//! lavapipe (the oracle for "valid Vulkan with these results"), with the validation layer.
//! Every case must pass on softnavi; none may be skipped there (its format table reports
//! uniform and storage texel buffer support for every format the app uses, and atomics on
//! R32_UINT).

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

/// Cases the app runs: 13 formats fetched, 13 stored, 1 atomic case.
const CASES: usize = 27;

fn run(icd: &std::path::Path) -> String {
    let mut cmd = vk_command(&target_dir().join("softnavi-texel"), icd);
    cmd.arg("--validate");
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-texel on {} failed ({}):\n{out}\n{err}", icd.display(), o.status);
    assert!(out.contains("validation: 0 error/warning messages"), "{out}\n{err}");
    out
}

#[test]
fn texel_buffers_on_softnavi() {
    let out = run(&softnavi_manifest());
    assert_eq!(out.lines().filter(|l| l.starts_with("PASS ")).count(), CASES, "{out}");
    assert!(!out.lines().any(|l| l.starts_with("SKIP ")), "{out}");
}

#[test]
fn texel_buffers_on_lavapipe() {
    let out = run(&lavapipe_manifest());
    assert!(out.lines().filter(|l| l.starts_with("PASS ")).count() > 0, "{out}");
}
