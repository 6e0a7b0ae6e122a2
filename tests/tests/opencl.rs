//! OpenCL C kernels compiled by clang-19 for gfx1100 (tests/opencl/, built by build.rs),
//! run through the Khronos loader as code-object shader modules (ARCHITECTURE.md, "External
//! code objects can be used as shader modules") and compared with CPU references, by the
//! `softnavi-clkernels` binary: one subprocess per build (wave32/wave64; code object v4,
//! v5 and v6; linked ET_DYN and relocatable ET_REL objects).
//!
//! A kernel that fails only because the GPU reports an instruction as not executed by
//! softnavi (work in progress elsewhere) is listed, not failed; any other failure (wrong
//! results, pipeline errors, faults) fails the test.

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;

use softnavi_tests::env::{softnavi_manifest, vk_command};

fn run(args: &[&str]) -> Output {
    vk_command(Path::new(env!("CARGO_BIN_EXE_softnavi-clkernels")), &softnavi_manifest())
        .args(args)
        .output()
        .expect("the runner starts")
}

/// The instruction named by a "not executed by softnavi" report in `log`, if that is the
/// only reason given.
fn not_executed(log: &str) -> Option<String> {
    let line = log.lines().find(|l| l.contains("GPU device lost: illegal instruction: "))?;
    let what = line.split("illegal instruction: ").nth(1)?;
    let (name, _) = what.split_once(" is ")?;
    what.contains("not executed by softnavi").then(|| name.to_string())
}

#[test]
fn opencl_kernels_match_cpu_references_in_every_build() {
    let mut passed: BTreeMap<String, Vec<&str>> = BTreeMap::new();
    let mut pending: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut failures = Vec::new();
    for build in ["w32v5", "w64v5", "w32v4", "w64v6rel"] {
        let o = run(&[build]);
        let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
        assert!(o.status.success() && err.contains("=== end"), "runner failed on {build}:\n{out}\n{err}");
        softnavi_tests::env::assert_translated(&err);
        // The driver's log, per kernel.
        let mut logs: BTreeMap<&str, &str> = BTreeMap::new();
        for seg in err.split("=== kernel ").skip(1) {
            let (name, rest) = seg.split_once('\n').unwrap_or((seg, ""));
            logs.insert(name.trim(), rest);
        }
        for line in out.lines().filter_map(|l| l.strip_prefix("KERNEL ")) {
            let (name, verdict) = line.split_once(' ').expect("KERNEL name verdict");
            if verdict == "PASS" {
                passed.entry(name.to_string()).or_default().push(build);
            } else if let Some(op) = verdict.contains("DEVICE_LOST").then(|| not_executed(logs[name])).flatten() {
                pending.entry(name.to_string()).or_default().push(format!("{build}: {op}"));
            } else {
                failures.push(format!("{name} ({build}): {verdict}\n{}", logs.get(name).copied().unwrap_or("")));
            }
        }
    }
    let kernels: std::collections::BTreeSet<&String> = passed.keys().chain(pending.keys()).collect();
    eprintln!("{} kernels; passed in every build: {}", kernels.len(), passed.values().filter(|b| b.len() == 4).count());
    for (k, why) in &pending {
        eprintln!("not executed yet: {k}: {}", why.join(", "));
    }
    assert!(failures.is_empty(), "{} kernel runs failed:\n{}", failures.len(), failures.join("\n"));
    assert!(kernels.len() >= 60, "only {} kernels ran", kernels.len());
    assert!(passed.values().filter(|b| b.len() == 4).count() >= 60, "fewer than 60 kernels pass in all four builds");
}

/// Malformed code objects fail vkCreateShaderModule, and kernels the layout cannot feed
/// fail vkCreateComputePipelines, with a log line saying why; nothing crashes.
#[test]
fn malformed_code_objects_are_rejected_with_a_reason() {
    let o = run(&["malformed"]);
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "{out}\n{err}");
    for what in ["truncated", "wrong-machine", "bad-version", "bad-section-offset", "bad-metadata"] {
        assert!(out.contains(&format!("MALFORMED {what} ERROR_INVALID_SHADER_NV")), "{what}:\n{out}\n{err}");
    }
    for what in ["missing-kernel", "too-few-buffers", "dynamic-lds-without-size"] {
        assert!(
            out.contains(&format!("MALFORMED {what} Vulkan {{ call: \"vkCreateComputePipelines\"")),
            "{what}:\n{out}"
        );
    }
    for needle in [
        "e_machine is 62, expected EM_AMDGPU",
        "no such kernel in the code object",
        "takes 3 global buffers but set 0 of the pipeline layout has 2",
        "give its byte size in specialisation constant 3",
    ] {
        assert!(err.contains(needle), "no {needle:?} in the log:\n{err}");
    }
}
