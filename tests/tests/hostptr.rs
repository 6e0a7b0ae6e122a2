//! VK_EXT_external_memory_host (`softnavi-hostptr`, tests/src/bin/hostptr.rs): host memory
//! imported as device memory, which the GPU reads and writes in place, on softnavi and on
//! lavapipe, under the validation layer. (On RADV over the model: tests/radv.rs.)

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

fn run(icd: &std::path::Path) {
    let mut cmd = vk_command(&target_dir().join("softnavi-hostptr"), icd);
    cmd.arg("--validate");
    let (o, out, err) = output(cmd);
    assert!(o.status.success() && out.contains("PASS hostptr"), "on {}:\n{out}\n{err}", icd.display());
    assert!(out.contains("validation: 0 error/warning messages"), "{out}\n{err}");
}

#[test]
fn host_pointer_import_on_softnavi() {
    run(&softnavi_manifest());
}

#[test]
fn host_pointer_import_on_lavapipe() {
    run(&lavapipe_manifest());
}
