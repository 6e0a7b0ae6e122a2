//! Queues, families, fences, binary and timeline semaphores, vkQueueSubmit2 and the sync2
//! commands: `softnavi-queues` (src/bin/queues.rs) through the Khronos loader, on softnavi
//! with and without VK_LAYER_KHRONOS_validation, and on lavapipe as the oracle (one family
//! with one queue there: the app adapts its queue counts).

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

fn run(args: &[&str], icd: &std::path::Path) -> String {
    let mut cmd = vk_command(&target_dir().join("softnavi-queues"), icd);
    cmd.args(args);
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-queues {args:?} failed ({}):\n{out}\n{err}", o.status);
    assert!(out.contains("ALL PASS"), "{out}\n{err}");
    format!("{out}\n{err}")
}

#[test]
fn softnavi_all_scenarios() {
    let all = ["families", "chain", "wbs", "binary", "held", "rejects", "lost"];
    let out = run(&all, &softnavi_manifest());
    for s in all {
        assert!(out.contains(&format!("PASS {s}")), "{s} did not pass:\n{out}");
    }
    // The fault report names the faulting access.
    assert!(out.contains("VM fault"), "no fault report:\n{out}");
    assert!(out.contains("not allowed in a command buffer of the transfer-only queue family"), "{out}");
}

/// A dispatch that never ends (a spin of ALU instructions and a branch): the model's hang
/// report after SOFTNAVI_HANG_TIMEOUT_MS, VK_ERROR_DEVICE_LOST, and a new device that works.
#[test]
fn softnavi_hang() {
    let mut cmd = vk_command(&target_dir().join("softnavi-queues"), &softnavi_manifest());
    cmd.env("SOFTNAVI_HANG_TIMEOUT_MS", "1000").arg("hang");
    let (o, out, err) = output(cmd);
    assert!(o.status.success() && out.contains("PASS hang"), "softnavi-queues hang:\n{out}\n{err}");
    assert!(err.contains("GPU hang on queue") && err.contains("did not finish within 1000 ms"), "{err}");
}

#[test]
fn softnavi_under_the_validation_layer() {
    let out = run(&["--validate", "families", "chain", "wbs", "binary", "held"], &softnavi_manifest());
    assert!(!out.contains("validation ["), "{out}");
}

#[test]
fn lavapipe_oracle() {
    run(&["families", "chain", "wbs", "binary", "held"], &lavapipe_manifest());
}

#[test]
fn lavapipe_oracle_under_the_validation_layer() {
    let out = run(&["--validate", "families", "chain", "wbs", "binary", "held"], &lavapipe_manifest());
    assert!(!out.contains("validation ["), "{out}");
}
