//! Mesa code objects (`.AMDGPU.config`) built by llc-19 from LLVM IR run through the
//! Khronos loader as shader modules (docs/ABI.md, "Mesa code objects"), by the
//! `softnavi-mesa` binary: a grid of several workgroups reading its workgroup ids from the
//! system SGPRs and its work-item ids from v0, the segment and push constants; Mesa3D and
//! no-OS objects, wave32 and wave64, relocatable and linked, push constants in user SGPRs;
//! LDS, scratch and a call; each function's own FLOAT_MODE. Results are compared with CPU
//! references. Bad objects fail module or pipeline creation with a log line, never a crash.

use std::path::Path;

use softnavi_tests::env::{output, softnavi_manifest, vk_command};

fn run(args: &[&str]) -> (String, String) {
    let mut cmd = vk_command(Path::new(env!("CARGO_BIN_EXE_softnavi-mesa")), &softnavi_manifest());
    cmd.args(args);
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "softnavi-mesa {args:?} failed:\n{out}\n{err}");
    (out, err)
}

#[test]
fn mesa_code_objects_match_cpu_references() {
    let (out, err) = run(&[]);
    assert!(err.contains("=== end"), "{out}\n{err}");
    softnavi_tests::env::assert_translated(&err);
    let cases = [
        "scale-mesa3d",
        "scale-mesa3d-wave64",
        "scale-mesa3d-linked",
        "scale-no-os",
        "scale-user-sgprs",
        "busy",
        "busy-wave64",
        "keep",
        "flush",
    ];
    let failed: Vec<&str> = out.lines().filter(|l| l.starts_with("CASE ") && !l.ends_with(" PASS")).collect();
    assert!(failed.is_empty(), "{}\n{err}", failed.join("\n"));
    for case in cases {
        assert!(out.contains(&format!("CASE {case} PASS")), "{case} did not run:\n{out}\n{err}");
    }
}

#[test]
fn bad_mesa_code_objects_are_rejected_with_a_reason() {
    let (out, err) = run(&["malformed"]);
    for what in ["truncated", "odd-config", "scratch-rsrc"] {
        let line = format!("MALFORMED {what} vkCreateShaderModule ERROR_INVALID_SHADER_NV");
        assert!(out.contains(&line), "{what}:\n{out}\n{err}");
    }
    for what in ["missing-rsrc1", "no-such-function", "pixel-shader"] {
        let line = format!("MALFORMED {what} vkCreateComputePipelines ERROR_UNKNOWN");
        assert!(out.contains(&line), "{what}:\n{out}\n{err}");
    }
    for needle in [
        "not whole (register, value) pairs",
        "`SCRATCH_RSRC_DWORD0`, where radeonsi patches in its scratch buffer descriptor",
        "its config has no COMPUTE_PGM_RSRC1",
        "no such function in the code object (it has: scale)",
        "SPI_SHADER_PGM_RSRC1_PS (0xb028), a graphics stage's register",
    ] {
        assert!(err.contains(needle), "no {needle:?} in the log:\n{err}");
    }
}
