//! Image blits (`softnavi-blit`, tests/src/bin/blit.rs) against a CPU reference written from
//! the specification, on softnavi (its compute family: softnavi has no graphics queue) and
//! on lavapipe with the validation layer (on its graphics queue, where blits are valid).

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

/// Cases, each through vkCmdBlitImage and vkCmdBlitImage2, the BC1 case, the depth clears
/// and the D32S8 planes.
const CASES: usize = 2 * 13 + 3;

/// Lavapipe 22.3 writes one destination slice of a 2D source blitted to several slices of a
/// 3D image (the specification scales the source's one slice over the destination range).
const LAVAPIPE_BUGS: [&str; 2] = ["FAIL 2d_to_3d_slices_nearest:", "FAIL 2d_to_3d_slices_nearest (vkCmdBlitImage2):"];

fn run(icd: &std::path::Path, args: &[&str]) -> (std::process::ExitStatus, String) {
    let mut cmd = vk_command(&target_dir().join("softnavi-blit"), icd);
    cmd.args(args);
    let (o, out, err) = output(cmd);
    (o.status, format!("{out}\n{err}"))
}

fn passed(out: &str) -> usize {
    out.lines().filter(|l| l.starts_with("PASS ")).count()
}

#[test]
fn blits_on_softnavi() {
    let (status, out) = run(&softnavi_manifest(), &[]);
    assert!(status.success(), "{out}");
    assert_eq!(passed(&out), CASES, "{out}");
}

#[test]
fn blits_on_lavapipe() {
    let (_, out) = run(&lavapipe_manifest(), &["--validate"]);
    let fails: Vec<&str> = out.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert!(fails.iter().all(|f| LAVAPIPE_BUGS.iter().any(|b| f.starts_with(b))), "{out}");
    assert_eq!(passed(&out), CASES - LAVAPIPE_BUGS.len(), "{out}");
    assert!(out.contains("validation: 0 error/warning messages"), "{out}");
}
