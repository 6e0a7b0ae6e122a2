//! Descriptor scenarios (`softnavi-descriptors`, see src/bin/descriptors.rs) on softnavi and
//! on lavapipe (the oracle: the app is valid Vulkan and gets these results), each under
//! VK_LAYER_KHRONOS_validation, which must report nothing.

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command_validated};

const SCENARIOS: &[&str] = &["indexing", "push", "dynamic", "copies", "pools"];

/// Runs `softnavi-descriptors --validate SCENARIO` on `icd`; returns its stdout.
fn run(icd: &std::path::Path, scenario: &str) -> String {
    let mut cmd = vk_command_validated(&target_dir().join("softnavi-descriptors"), icd);
    cmd.args(["--validate", scenario]);
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "{scenario} on {}: {:?}\n{out}\n{err}", icd.display(), o.status);
    assert!(out.contains("validation: 0 error/warning message(s)"), "{scenario}: {out}\n{err}");
    out
}

#[test]
fn softnavi_runs_every_scenario_clean() {
    let icd = softnavi_manifest();
    for s in SCENARIOS {
        let out = run(&icd, s);
        assert!(!out.contains("SKIPPED"), "{s}: softnavi skipped a scenario:\n{out}");
    }
    // Descriptor indexing in both wave sizes, the unwritten (partially bound) element read as 0.
    let out = run(&icd, "indexing");
    for wave in [32, 64] {
        assert!(out.contains(&format!("wave Some({wave}), unwritten element read true: 256 values ok")), "{out}");
    }
    assert!(run(&icd, "dynamic").contains("robust accesses true: ok"));
}

#[test]
fn lavapipe_agrees() {
    let icd = lavapipe_manifest();
    for s in SCENARIOS {
        run(&icd, s);
    }
}
