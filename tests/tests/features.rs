//! What softnavi reports (extensions, features, subgroup properties) against the lowering's
//! own table, `compiler_bridge::SHADER_FEATURES`; subgroup size control; and
//! VK_KHR_pipeline_executable_properties against LLVM's tools. Each scenario runs
//! `softnavi-features` through the Khronos loader (see `src/bin/features.rs`).

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use compiler_bridge::SHADER_FEATURES as SF;

fn target_dir() -> PathBuf {
    Path::new(env!("CARGO_BIN_EXE_softnavi-features")).parent().expect("binary has a directory").to_path_buf()
}

fn softnavi_manifest() -> PathBuf {
    let m = target_dir().join("softnavi_icd.json");
    assert!(m.exists(), "{} is missing: run `cargo build --workspace` first", m.display());
    m
}

fn lavapipe_manifest() -> PathBuf {
    std::fs::read_dir("/usr/share/vulkan/icd.d")
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("lvp_icd")))
        .unwrap_or_else(|| panic!("lavapipe is not installed (mesa-vulkan-drivers); run scripts/setup"))
}

fn command(program: &Path, icd: &Path) -> Command {
    let xdg = std::env::temp_dir().join("softnavi-xdg");
    let _ = std::fs::create_dir_all(&xdg);
    let mut cmd = Command::new(program);
    cmd.env("VK_ICD_FILENAMES", icd)
        .env_remove("VK_DRIVER_FILES")
        .env("XDG_RUNTIME_DIR", &xdg)
        .env("NODEVICE_SELECT", "1");
    cmd
}

/// Runs a scenario; returns (stdout, stderr) after checking it exited 0.
fn features(args: &[&str], icd: &Path) -> (String, String) {
    let o: Output = command(Path::new(env!("CARGO_BIN_EXE_softnavi-features")), icd)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("cannot run softnavi-features: {e}"));
    let (out, err) = (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned());
    assert!(o.status.success(), "softnavi-features {args:?} failed ({}):\n{out}\n{err}", o.status);
    (out, err)
}

/// The value of `KEY name value` lines.
fn value<'a>(out: &'a str, key: &str, name: &str) -> &'a str {
    let prefix = format!("{key} {name} ");
    out.lines()
        .find_map(|l| l.strip_prefix(prefix.as_str()))
        .unwrap_or_else(|| panic!("no `{prefix}` line in:\n{out}"))
        .trim()
}

/// The validation layer's error/warning count a scenario printed.
fn validation(out: &str) -> &str {
    out.lines().find_map(|l| l.strip_prefix("VALIDATION ")).unwrap_or_else(|| panic!("no VALIDATION line in:\n{out}"))
}

/// The extensions the table implies (issue 7's list, derived independently of the ICD).
fn expected_extensions() -> Vec<&'static str> {
    let mut e = vec![
        "VK_KHR_pipeline_executable_properties",
        "VK_EXT_subgroup_size_control",
        "VK_KHR_shader_non_semantic_info",
        "VK_KHR_storage_buffer_storage_class",
    ];
    let atomic_float = SF.float32_atomic_add || SF.float64_atomic_add;
    for (on, name) in [
        (SF.float16 || SF.int8, "VK_KHR_shader_float16_int8"),
        (SF.storage16, "VK_KHR_16bit_storage"),
        (SF.storage8, "VK_KHR_8bit_storage"),
        (SF.int64_atomics, "VK_KHR_shader_atomic_int64"),
        (atomic_float, "VK_EXT_shader_atomic_float"),
        (SF.float_atomic_min_max && atomic_float, "VK_EXT_shader_atomic_float2"),
        (SF.integer_dot_product, "VK_KHR_shader_integer_dot_product"),
        (SF.buffer_device_address, "VK_KHR_buffer_device_address"),
        (SF.variable_pointers, "VK_KHR_variable_pointers"),
        (SF.vulkan_memory_model, "VK_KHR_vulkan_memory_model"),
        (SF.zero_initialize_workgroup_memory, "VK_KHR_zero_initialize_workgroup_memory"),
        (SF.subgroup_extended_types, "VK_KHR_shader_subgroup_extended_types"),
    ] {
        if on {
            e.push(name);
        }
    }
    e.sort_unstable();
    e
}

#[test]
fn reported_extensions_features_and_subgroup_properties_are_the_lowering_table() {
    let (out, err) = features(&["report", "--validate"], &softnavi_manifest());
    let mut exts: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("EXT ")).collect();
    exts.sort_unstable();
    assert_eq!(exts, expected_extensions(), "{out}");
    let f = |name: &str| value(&out, "FEATURE", name) == "1";
    let expect = [
        ("robustBufferAccess", true),
        ("shaderFloat64", SF.float64),
        ("shaderInt64", SF.int64),
        ("shaderInt16", SF.int16),
        ("geometryShader", false),
        ("storageBuffer16BitAccess", SF.storage16),
        ("uniformAndStorageBuffer16BitAccess", SF.storage16),
        ("storagePushConstant16", SF.storage16),
        ("storageInputOutput16", false),
        ("variablePointersStorageBuffer", SF.variable_pointers),
        ("variablePointers", SF.variable_pointers),
        ("shaderDrawParameters", false),
        ("shaderFloat16", SF.float16),
        ("shaderInt8", SF.int8),
        ("storageBuffer8BitAccess", SF.storage8),
        ("uniformAndStorageBuffer8BitAccess", SF.storage8),
        ("storagePushConstant8", SF.storage8),
        ("shaderBufferFloat32AtomicAdd", SF.float32_atomic_add),
        ("shaderSharedFloat32AtomicAdd", SF.float32_atomic_add),
        ("shaderBufferFloat64AtomicAdd", SF.float64_atomic_add),
        ("shaderImageFloat32Atomics", false),
        ("shaderBufferFloat32AtomicMinMax", SF.float_atomic_min_max),
        ("shaderSharedFloat32AtomicMinMax", SF.float_atomic_min_max),
        ("shaderIntegerDotProduct", SF.integer_dot_product),
        ("bufferDeviceAddress", SF.buffer_device_address),
        ("bufferDeviceAddressCaptureReplay", false),
        ("subgroupSizeControl", true),
        ("computeFullSubgroups", true),
        ("pipelineExecutableInfo", true),
    ];
    for (name, want) in expect {
        assert_eq!(f(name), want, "{name}:\n{out}");
    }
    assert!(out.contains("RESULT features2 core == features: true"), "{out}");
    assert_eq!(value(&out, "PROP", "subgroupSize"), "32");
    assert_eq!(value(&out, "PROP", "supportedOperations"), SF.subgroup_operations.to_string());
    assert_eq!(value(&out, "PROP", "supportedStages"), "32", "COMPUTE");
    let (min, max) = (SF.subgroup_sizes.iter().min().unwrap(), SF.subgroup_sizes.iter().max().unwrap());
    assert_eq!(value(&out, "PROP", "minSubgroupSize"), min.to_string());
    assert_eq!(value(&out, "PROP", "maxSubgroupSize"), max.to_string());
    assert_eq!(value(&out, "PROP", "maxComputeWorkgroupSubgroups"), (1024 / min).to_string());
    assert_eq!(value(&out, "PROP", "requiredSubgroupSizeStages"), "32");
    assert_eq!(validation(&out), "0", "{err}");
    assert!(out.contains("RESULT: device with every extension and reported feature: SUCCESS"), "{out}\n{err}");
}

/// The same scenario is valid usage on another driver: the validation layer stays quiet and
/// a device with everything lavapipe reports is created.
#[test]
fn the_report_scenario_is_clean_on_lavapipe() {
    let (out, err) = features(&["report", "--validate"], &lavapipe_manifest());
    assert_eq!(validation(&out), "0", "{err}");
    assert!(out.contains("RESULT: device with every extension and reported feature: SUCCESS"), "{out}\n{err}");
}

#[test]
fn unsupported_extensions_and_features_fail_device_creation_with_a_log_line() {
    let (out, err) = features(&["bad-devices"], &softnavi_manifest());
    assert!(
        out.contains(
            "RESULT: unknown extension: ERROR_EXTENSION_NOT_PRESENT; geometryShader: ERROR_FEATURE_NOT_PRESENT; \
             shaderDrawParameters: ERROR_FEATURE_NOT_PRESENT; features2 geometryShader: ERROR_FEATURE_NOT_PRESENT"
        ),
        "{out}\n{err}"
    );
    assert!(err.contains("unsupported features requested: VkPhysicalDeviceFeatures.geometryShader"), "{err}");
    assert!(err.contains("VkPhysicalDeviceShaderDrawParametersFeatures.shaderDrawParameters"), "{err}");
}

#[test]
fn required_subgroup_size_selects_wave32_or_wave64() {
    let (out, err) = features(&["subgroup-sizes"], &softnavi_manifest());
    assert_eq!(validation(&out), "0", "{err}");
    for r in [
        "none: verified size 32",
        "required=32: verified size 32",
        "required=64: verified size 64",
        "required=64+full: verified size 64",
        "varying+full: verified size 32",
        "required=16: ERROR_",
        "80 wide+required=64+full: ERROR_",
        "80 wide+full: ERROR_",
    ] {
        assert!(out.contains(r), "{r}:\n{out}\n{err}");
    }
    assert!(err.contains("required subgroup size 16 is not one of the supported sizes"), "{err}");
    assert!(err.contains("X size 80 is not a multiple of the subgroup size 64"), "{err}");
    assert!(err.contains("X size 80 is not a multiple of the subgroup size 32"), "{err}");
}

fn run_tool(cmd: &mut Command) -> String {
    let o = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(o.status.success(), "{cmd:?} failed:\n{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `(instruction text, encoding words)` of each line of a listing up to `s_code_end`.
fn instructions(listing: &str) -> Vec<(String, String)> {
    listing
        .lines()
        .filter_map(|l| {
            let (text, comment) = l.split_once("//")?;
            // The encoding words; llvm-objdump may add a branch target (`<kernel+0xc0>`).
            let words: Vec<&str> = comment
                .split_once(':')?
                .1
                .split_whitespace()
                .take_while(|w| w.len() == 8 && w.chars().all(|c| c.is_ascii_hexdigit()))
                .collect();
            let words = words.join(" ");
            Some((text.split_whitespace().collect::<Vec<_>>().join(" "), words))
        })
        .take_while(|(t, _)| t != "s_code_end")
        .collect()
}

/// The executable's statistics and disassembly against what LLVM's own tools say about the
/// LLVM IR the ICD reports: `clang-19` compiles it again, `llvm-readelf-19 --notes` gives
/// the register counts, `llvm-objdump-19` the instructions.
fn executable_matches_llvm(wave: u32) {
    let dir = std::env::temp_dir().join(format!("softnavi-executables-{wave}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, err) = features(&["executables", dir.to_str().unwrap(), &wave.to_string()], &softnavi_manifest());
    assert_eq!(value(&out, "PROP", "executables"), "1");
    assert_eq!(value(&out, "PROP", "stages"), "32", "COMPUTE");
    assert_eq!(value(&out, "PROP", "executableSubgroupSize"), wave.to_string());
    let stat = |name: &str| -> u64 {
        let prefix = format!("STAT {name}=");
        out.lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .unwrap_or_else(|| panic!("{name}:\n{out}"))
            .parse()
            .unwrap()
    };
    assert!(out.contains("RESULT statistics with room for 2: INCOMPLETE, count 2"), "{out}");
    assert!(out.contains("RESULT representation sizes: SUCCESS") && out.contains("RESULT representations: SUCCESS"));
    assert!(
        out.contains("RESULT truncated: INCOMPLETE, count 1, dataSize 16, last byte 0, text \"; main (wave"),
        "{out}"
    );
    assert_eq!(validation(&out), "0", "{err}");
    assert!(out.contains("RESULT: dispatch verified"), "{out}");

    let ir = dir.join("LLVM_IR.txt");
    let obj = dir.join("k.o");
    let mut clang = Command::new("clang-19");
    clang.args(["-x", "ir"]).arg(&ir).args(["-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", "-O2"]);
    if wave == 64 {
        clang.arg("-mwavefrontsize64");
    }
    run_tool(clang.arg("-c").arg("-o").arg(&obj));
    let notes = run_tool(Command::new("llvm-readelf-19").arg("--notes").arg(&obj));
    let note = |key: &str| -> u64 {
        notes
            .lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .unwrap_or_else(|| panic!("{key} in:\n{notes}"))
            .trim()
            .parse()
            .unwrap()
    };
    assert_eq!(stat("Wave size"), note(".wavefront_size:"));
    assert_eq!(stat("VGPRs"), note(".vgpr_count:"), "{out}\n{notes}");
    assert_eq!(stat("SGPRs"), note(".sgpr_count:"), "{out}\n{notes}");
    assert_eq!(stat("LDS bytes"), note(".group_segment_fixed_size:"));
    assert_eq!(stat("Scratch bytes per lane"), note(".private_segment_fixed_size:"));
    // Allocation granules: 8 VGPRs in wave32, 4 in wave64 (gfx11).
    let granule = if wave == 32 { 8 } else { 4 };
    assert_eq!(stat("VGPRs allocated"), note(".vgpr_count:").max(1).div_ceil(granule) * granule);

    let mattr = if wave == 64 { "--mattr=+wavefrontsize64" } else { "--mattr=+wavefrontsize32" };
    let llvm = run_tool(Command::new("llvm-objdump-19").args(["-d", "--mcpu=gfx1100", mattr]).arg(&obj));
    let ours = std::fs::read_to_string(dir.join("GFX11_disassembly.txt")).unwrap();
    let (want, got) = (instructions(&llvm), instructions(&ours));
    assert!(got.iter().any(|(t, _)| t == "s_endpgm"), "{ours}");
    assert_eq!(got, want, "softnavi's disassembly:\n{ours}\nllvm-objdump-19:\n{llvm}");
    assert_eq!(stat("Instructions"), want.len() as u64);
    let bytes: u64 = want.iter().map(|(_, w)| 4 * w.split_whitespace().count() as u64).sum();
    assert_eq!(stat("Code size"), bytes);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn pipeline_executable_properties_wave32_match_llvm() {
    executable_matches_llvm(32);
}

#[test]
fn pipeline_executable_properties_wave64_match_llvm() {
    executable_matches_llvm(64);
}

/// A pipeline made from an application's code object (an OpenCL kernel, wave64) reports its
/// disassembly only, equal to `llvm-objdump-19`'s listing of that kernel's symbol, and the
/// register counts of the code object's metadata.
#[test]
fn code_object_pipeline_reports_its_disassembly_only() {
    let dir = std::env::temp_dir().join(format!("softnavi-code-object-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (out, err) = features(&["code-object", dir.to_str().unwrap()], &softnavi_manifest());
    assert!(out.contains("RESULT: 1 representation(s); required size 32: ERROR_"), "{out}\n{err}");
    assert!(out.contains("IR GFX11 disassembly") && !out.contains("IR LLVM IR"), "{out}");
    assert!(err.contains("the pipeline requires subgroup size 32, the code object is compiled for wave64"), "{err}");
    let stat = |name: &str| -> u64 {
        let prefix = format!("STAT {name}=");
        out.lines()
            .find_map(|l| l.strip_prefix(prefix.as_str()))
            .unwrap_or_else(|| panic!("{name}:\n{out}"))
            .parse()
            .unwrap()
    };
    let elf = concat!(env!("OUT_DIR"), "/w64v5/group.elf");
    let notes = run_tool(Command::new("llvm-readelf-19").arg("--notes").arg(elf));
    // The metadata lists each kernel's keys in order: `.name` comes before its counts.
    let kernel = notes.split(".name:").find(|k| k.trim_start().starts_with("collatz\n")).expect("collatz metadata");
    let note = |key: &str| -> u64 {
        kernel
            .lines()
            .find_map(|l| l.trim().strip_prefix(key))
            .unwrap_or_else(|| panic!("{key}"))
            .trim()
            .parse()
            .unwrap()
    };
    assert_eq!(stat("Wave size"), 64);
    assert_eq!(stat("VGPRs"), note(".vgpr_count:"), "{out}");
    assert_eq!(stat("SGPRs"), note(".sgpr_count:"), "{out}");
    // The kernel's size from the symbol table; llvm-objdump also lists the alignment
    // padding after it.
    let symbols = run_tool(Command::new("llvm-readelf-19").arg("-s").arg(elf));
    let size: u64 = symbols
        .lines()
        .find_map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f.len() == 8 && f[7] == "collatz" && f[3] == "FUNC").then(|| f[2].parse().unwrap())
        })
        .expect("collatz symbol");
    assert_eq!(stat("Code size"), size);
    let llvm = run_tool(
        Command::new("llvm-objdump-19")
            .args(["-d", "--mcpu=gfx1100", "--mattr=+wavefrontsize64", "--disassemble-symbols=collatz"])
            .arg(elf),
    );
    let ours = std::fs::read_to_string(dir.join("GFX11_disassembly.txt")).unwrap();
    let mut bytes = 0;
    let want: Vec<_> = instructions(&llvm)
        .into_iter()
        .take_while(|(_, w)| {
            bytes += 4 * w.split_whitespace().count() as u64;
            bytes <= size
        })
        .collect();
    let got = instructions(&ours);
    assert!(got.last().is_some_and(|(t, _)| t == "s_endpgm"), "{ours}");
    assert_eq!(got, want, "softnavi's disassembly:\n{ours}\nllvm-objdump-19:\n{llvm}");
    assert_eq!(stat("Instructions"), want.len() as u64);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `vulkaninfo` (its full output: every property and feature structure softnavi reports)
/// succeeds and reports no error.
#[test]
fn vulkaninfo_full_output_has_no_errors() {
    let o = command(Path::new("vulkaninfo"), &softnavi_manifest())
        .output()
        .unwrap_or_else(|e| panic!("cannot run vulkaninfo (install vulkan-tools): {e}"));
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "vulkaninfo failed ({}):\n{out}\n{err}", o.status);
    let errors: Vec<&str> = out.lines().chain(err.lines()).filter(|l| l.contains("ERROR")).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    assert!(out.contains("VK_KHR_pipeline_executable_properties") && out.contains("softnavi"), "{out}");
    assert!(out.contains("subgroupSizeControl") && out.contains("maxSubgroupSize"), "{out}");
    // The same with the validation layer: softnavi's answers break none of its rules.
    let o = command(Path::new("vulkaninfo"), &softnavi_manifest())
        .env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation")
        .output()
        .unwrap_or_else(|e| panic!("cannot run vulkaninfo: {e}"));
    let (out, err) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    assert!(o.status.success(), "vulkaninfo with validation failed ({}):\n{out}\n{err}", o.status);
    let complaints: Vec<&str> = out
        .lines()
        .chain(err.lines())
        .filter(|l| l.contains("ERROR") || l.contains("Validation Error") || l.contains("VUID-"))
        .collect();
    assert!(complaints.is_empty(), "{complaints:#?}");
}
