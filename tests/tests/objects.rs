//! Every core Vulkan 1.0-1.3 command is returned through the loader, and the objects that
//! exist without a graphics queue (images, views, samplers, render passes, framebuffers)
//! are real (image copies and clears: tests/transfer.rs): `softnavi-objects` on
//! softnavi and, as the oracle for its checks, on lavapipe.
//! A draw recorded on softnavi's compute queue fails its command buffer with a log line.

use std::path::Path;

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, vk_command};

fn objects(icd: &Path, args: &[&str]) -> (String, String) {
    let mut cmd = vk_command(Path::new(env!("CARGO_BIN_EXE_softnavi-objects")), icd);
    cmd.args(args);
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-objects {args:?} failed:\n{out}\n{err}");
    (out, err)
}

#[test]
fn core_commands_and_objects_on_softnavi() {
    let (out, err) = objects(&softnavi_manifest(), &["--refused"]);
    assert!(out.contains("every core command is returned"), "{out}");
    assert!(out.contains("vkEndCommandBuffer after vkCmdDraw: Err(ERROR_FEATURE_NOT_PRESENT)"), "{out}");
    assert!(err.contains("vkCmdDraw: needs a graphics-capable queue"), "{err}");
}

#[test]
fn the_same_checks_hold_on_lavapipe() {
    let (out, _) = objects(&lavapipe_manifest(), &[]);
    assert!(out.contains("objects: ok"), "{out}");
}
