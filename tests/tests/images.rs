//! Images end to end: `softnavi-images` (tests/src/bin/images.rs) on softnavi and on
//! lavapipe (the oracle for "valid Vulkan with these results"), with the validation layer.
//! Every case must pass on softnavi: its format table reports the storage and sampled image
//! features every case needs. The depth compare case needs a GRAPHICS queue (copies to a
//! depth aspect are invalid on a compute queue): softnavi skips it by default and runs it
//! with `SOFTNAVI_GRAPHICS_QUEUE_FLAG=1`.

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

/// The storage cases, then the sampling ones.
const CASES: usize = 16;

fn run(icd: &std::path::Path, graphics_flag: bool) -> String {
    let mut cmd = vk_command(&target_dir().join("softnavi-images"), icd);
    cmd.arg("--validate");
    if graphics_flag {
        cmd.env("SOFTNAVI_GRAPHICS_QUEUE_FLAG", "1");
    }
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-images on {} failed ({}):\n{out}\n{err}", icd.display(), o.status);
    assert!(out.contains("validation: 0 error/warning messages"), "{out}\n{err}");
    out
}

#[test]
fn images_on_softnavi() {
    let count = |out: &str, p: &str| out.lines().filter(|l| l.starts_with(p)).count();
    let out = run(&softnavi_manifest(), false);
    assert_eq!(count(&out, "PASS "), CASES - 1, "{out}");
    assert!(out.contains("SKIP sample_shadow_d32_pcf: no GRAPHICS queue"), "{out}");
    let out = run(&softnavi_manifest(), true);
    assert_eq!(count(&out, "PASS "), CASES, "{out}");
}

#[test]
fn images_on_lavapipe() {
    let out = run(&lavapipe_manifest(), false);
    assert!(!out.lines().any(|l| l.starts_with("FAIL ")), "{out}");
}
