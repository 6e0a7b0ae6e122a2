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

/// vkCmdResolveImage (`--resolve`): on softnavi without the validation layer (a resolve
/// needs a graphics queue in Vulkan, and softnavi records it on its compute family), on
/// lavapipe with it (its queue has graphics).
#[test]
fn resolve_on_softnavi_and_lavapipe() {
    let mut cmd = vk_command(&target_dir().join("softnavi-msaa"), &softnavi_manifest());
    cmd.arg("--resolve");
    let (o, out, err) = output(cmd);
    assert!(o.status.success() && out.contains("PASS msaa_storage_r32ui_4x"), "softnavi:\n{out}\n{err}");
    let mut cmd = vk_command(&target_dir().join("softnavi-msaa"), &lavapipe_manifest());
    cmd.args(["--resolve", "--validate"]);
    let (o, out, err) = output(cmd);
    assert!(o.status.success() && out.contains("validation: 0 error/warning messages"), "lavapipe:\n{out}\n{err}");
}
