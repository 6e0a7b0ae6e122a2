//! Multisampled images end to end: `softnavi-msaa` (tests/src/bin/msaa.rs) on softnavi and
//! on lavapipe (the oracle for "valid Vulkan with these results"), with the validation
//! layer. softnavi must pass (it reports shaderStorageImageMultisample and 4-sample R32_UINT
//! storage images); lavapipe passes or skips through the API.

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

fn run(icd: &std::path::Path) -> String {
    let mut cmd = vk_command(&target_dir().join("softnavi-msaa"), icd);
    cmd.arg("--validate");
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-msaa on {} failed ({}):\n{out}\n{err}", icd.display(), o.status);
    assert!(out.contains("validation: 0 error/warning messages"), "{out}\n{err}");
    out
}

#[test]
fn msaa_on_softnavi() {
    let out = run(&softnavi_manifest());
    assert!(out.contains("PASS msaa_storage_r32ui_4x"), "{out}");
}

#[test]
fn msaa_on_lavapipe() {
    let out = run(&lavapipe_manifest());
    assert!(out.contains("PASS msaa_storage_r32ui_4x") || out.contains("SKIP msaa_storage_r32ui_4x"), "{out}");
}
