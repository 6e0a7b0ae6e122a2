//! The SPIR-V corpus (`tests/spirv/`: GLSL compute shaders and SPIR-V assembly) run end to
//! end through the Khronos loader by `softnavi-spirv`, on softnavi and on Mesa's lavapipe
//! (the reference driver), each case compared with a CPU reference.
//!
//! On softnavi every case must pass; a case is skipped only when the device does not
//! report a feature it needs (what `compiler_bridge::SHADER_FEATURES` says the lowering
//! handles). On lavapipe every case that runs must pass too: a case lavapipe fails is a
//! wrong reference or a wrong test, not a softnavi bug.

use std::path::Path;

use softnavi_tests::env::{lavapipe_manifest, softnavi_manifest, vk_command};

/// The corpus run with the driver of `manifest`.
struct Run {
    pass: Vec<String>,
    skip: Vec<String>,
    fail: Vec<String>,
}

fn run(manifest: &Path) -> Run {
    run_with(manifest, &[], &[])
}

/// The corpus (or the cases matching `filter`) with extra environment variables.
fn run_with(manifest: &Path, filter: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = vk_command(Path::new(env!("CARGO_BIN_EXE_softnavi-spirv")), manifest);
    cmd.args(filter).envs(env.iter().copied());
    let o = cmd.output().expect("the runner starts");
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success() && err.contains("=== end"), "runner failed:\n{out}\n{err}");
    softnavi_tests::env::assert_translated(&err);
    let mut r = Run { pass: Vec::new(), skip: Vec::new(), fail: Vec::new() };
    for line in out.lines().filter_map(|l| l.strip_prefix("CASE ")) {
        let (name, verdict) = line.split_once(' ').expect("CASE name verdict");
        match verdict.split_once(' ').map_or(verdict, |(v, _)| v) {
            "PASS" => r.pass.push(name.to_string()),
            "SKIP" => r.skip.push(line.to_string()),
            _ => {
                // The driver's log for this case (its last lines), for the failure message.
                let log = err.split(&format!("=== case {name}\n")).nth(1).unwrap_or("");
                let log = log.split("=== ").next().unwrap_or("");
                let lines: Vec<&str> = log.lines().collect();
                let tail = lines[lines.len().saturating_sub(12)..].join("\n    ");
                r.fail.push(format!("{line}\n    {tail}"));
            }
        }
    }
    r
}

#[test]
fn corpus_matches_cpu_references_on_softnavi() {
    let r = run(&softnavi_manifest());
    eprintln!("softnavi: {} passed, {} skipped:\n  {}", r.pass.len(), r.skip.len(), r.skip.join("\n  "));
    assert!(
        r.fail.is_empty(),
        "{} of {} cases failed on softnavi:\n{}",
        r.fail.len(),
        r.pass.len() + r.fail.len(),
        r.fail.join("\n")
    );
    assert!(!r.pass.is_empty());
}

#[test]
fn corpus_matches_cpu_references_on_lavapipe() {
    let r = run(&lavapipe_manifest());
    eprintln!("lavapipe: {} passed, {} skipped:\n  {}", r.pass.len(), r.skip.len(), r.skip.join("\n  "));
    assert!(r.fail.is_empty(), "{} cases failed on lavapipe:\n{}", r.fail.len(), r.fail.join("\n"));
    assert!(!r.pass.is_empty());
}

#[test]
fn image_cases_are_validation_clean_on_softnavi_with_a_graphics_queue() {
    let env = [("SOFTNAVI_SPIRV_VALIDATE", "1"), ("SOFTNAVI_GRAPHICS_QUEUE_FLAG", "1")];
    let r = run_with(&softnavi_manifest(), &["images/"], &env);
    eprintln!("softnavi: {} passed, {} skipped:\n  {}", r.pass.len(), r.skip.len(), r.skip.join("\n  "));
    assert!(r.fail.is_empty(), "{} image cases failed on softnavi:\n{}", r.fail.len(), r.fail.join("\n"));
    for shadow in ["images/shadow:linear_less", "images/shadow_array"] {
        assert!(r.pass.iter().any(|p| p == shadow), "{shadow} did not run: {:?}", r.skip);
    }
}

#[test]
fn image_cases_are_validation_clean_on_lavapipe() {
    let r = run_with(&lavapipe_manifest(), &["images/"], &[("SOFTNAVI_SPIRV_VALIDATE", "1")]);
    eprintln!("lavapipe: {} passed, {} skipped:\n  {}", r.pass.len(), r.skip.len(), r.skip.join("\n  "));
    assert!(r.fail.is_empty(), "{} image cases failed on lavapipe:\n{}", r.fail.len(), r.fail.join("\n"));
    assert!(!r.pass.is_empty());
}
