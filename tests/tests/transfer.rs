//! Image copies and clears (`softnavi-transfer`, tests/src/bin/transfer.rs) against a CPU
//! model, on softnavi and on lavapipe, with the validation layer; and invalid resolves
//! refused cleanly on softnavi: their command buffer fails with
//! VK_ERROR_FEATURE_NOT_PRESENT, a log line names the command and why, and the device goes
//! on working. (Valid resolves: tests/msaa.rs.)

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

/// Texel sizes (5) times image shapes (3).
const CASES: usize = 15;

fn run(icd: &std::path::Path, args: &[&str]) -> (String, String) {
    let mut cmd = vk_command(&target_dir().join("softnavi-transfer"), icd);
    cmd.args(args);
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-transfer {args:?} on {} failed ({}):\n{out}\n{err}", icd.display(), o.status);
    (out, err)
}

fn passed(out: &str) -> usize {
    out.lines().filter(|l| l.starts_with("PASS ")).count()
}

#[test]
fn copies_and_clears_on_softnavi() {
    let (out, _) = run(&softnavi_manifest(), &["--validate"]);
    assert_eq!(passed(&out), CASES, "{out}");
    assert!(out.contains("validation: 0 error/warning messages"), "{out}");
}

#[test]
fn copies_and_clears_on_lavapipe() {
    let (out, _) = run(&lavapipe_manifest(), &["--validate"]);
    assert_eq!(passed(&out), CASES, "{out}");
    assert!(out.contains("validation: 0 error/warning messages"), "{out}");
}

/// Invalid resolves (of a single-sampled image) fail their command buffer by name, and the
/// device goes on working.
#[test]
fn invalid_resolves_are_refused_on_softnavi() {
    let (out, err) = run(&softnavi_manifest(), &["--refused"]);
    let commands = ["vkCmdResolveImage", "vkCmdResolveImage2"];
    for c in commands {
        assert!(out.contains(&format!("PASS refused {c}\n")), "{out}");
        assert!(err.contains(&format!("{c}: a resolve goes from a multisampled image")), "{err}");
    }
}
