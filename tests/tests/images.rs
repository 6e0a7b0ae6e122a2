//! Images end to end: `softnavi-images` (tests/src/bin/images.rs) on softnavi and on
//! lavapipe (the oracle for "valid Vulkan with these results"), with the validation layer.
//! Every case must pass on softnavi, none skipped: its format table reports the storage
//! (and sampled) image features every case needs.

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

fn run(icd: &std::path::Path) -> String {
    let mut cmd = vk_command(&target_dir().join("softnavi-images"), icd);
    cmd.arg("--validate");
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-images on {} failed ({}):\n{out}\n{err}", icd.display(), o.status);
    assert!(out.contains("validation: 0 error/warning messages"), "{out}\n{err}");
    out
}

#[test]
fn images_on_softnavi() {
    let out = run(&softnavi_manifest());
    assert!(out.lines().filter(|l| l.starts_with("PASS ")).count() >= 8, "{out}");
    assert!(!out.lines().any(|l| l.starts_with("SKIP ")), "{out}");
}

#[test]
fn images_on_lavapipe() {
    let out = run(&lavapipe_manifest());
    assert!(!out.lines().any(|l| l.starts_with("FAIL ")), "{out}");
}
