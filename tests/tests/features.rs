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
        "VK_KHR_maintenance1",
        "VK_KHR_maintenance2",
        "VK_KHR_maintenance3",
        "VK_KHR_dedicated_allocation",
        "VK_KHR_get_memory_requirements2",
        "VK_KHR_bind_memory2",
        "VK_KHR_driver_properties",
        "VK_KHR_descriptor_update_template",
        "VK_EXT_memory_budget",
        "VK_KHR_format_feature_flags2",
        "VK_EXT_tooling_info",
        "VK_EXT_pipeline_creation_feedback",
        // Host allocations imported in place (tests/hostptr.rs).
        "VK_EXT_external_memory_host",
        // vkCmdWriteBufferMarker(2)AMD (CTS api.buffer_marker.*).
        "VK_AMD_buffer_marker",
    ];
    // The ICD's own API flags (each engineer's part flips its flag when it works).
    use softnavi_icd::features::api;
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
        (SF.storage_images, "VK_AMD_shader_image_load_store_lod"),
        (
            SF.subgroup_operations & compiler_bridge::spirv::features::subgroup::BALLOT != 0,
            "VK_EXT_shader_subgroup_ballot",
        ),
        (SF.subgroup_operations & compiler_bridge::spirv::features::subgroup::VOTE != 0, "VK_EXT_shader_subgroup_vote"),
        (SF.explicit_layouts, "VK_KHR_uniform_buffer_standard_layout"),
        (SF.explicit_layouts, "VK_EXT_scalar_block_layout"),
        (SF.subgroup_extended_types, "VK_KHR_shader_subgroup_extended_types"),
        (SF.vulkan_memory_model, "VK_KHR_vulkan_memory_model"),
        (SF.zero_initialize_workgroup_memory, "VK_KHR_zero_initialize_workgroup_memory"),
        (api::TIMELINE_SEMAPHORE, "VK_KHR_timeline_semaphore"),
        (api::SYNCHRONIZATION2, "VK_KHR_synchronization2"),
        (api::HOST_QUERY_RESET, "VK_EXT_host_query_reset"),
        (api::DESCRIPTOR_INDEXING && SF.descriptor_indexing, "VK_EXT_descriptor_indexing"),
        (api::PUSH_DESCRIPTOR, "VK_KHR_push_descriptor"),
        (api::PIPELINE_CREATION_CACHE_CONTROL, "VK_EXT_pipeline_creation_cache_control"),
        (api::PRIVATE_DATA, "VK_EXT_private_data"),
        (api::MAINTENANCE4, "VK_KHR_maintenance4"),
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

/// Vulkan 1.3 properties through pNext chains: each promoted structure equals the
/// Vulkan11/12/13 structure's members; truthful gfx1100 limits; the memory types of an
/// RDNA3 dGPU; the budget follows allocations; private data; maintenance4.
#[test]
fn vulkan13_properties_limits_and_memory_are_truthful() {
    let (out, err) = features(&["properties", "--validate"], &softnavi_manifest());
    assert_eq!(validation(&out), "0", "{err}");
    let p = |name: &str| value(&out, "PROP", name);
    assert_eq!(p("apiVersion"), "1.3");
    assert_eq!(p("deviceType"), "DISCRETE_GPU");
    assert_eq!(p("driverName"), "softnavi");
    assert!(p("driverInfo").starts_with(concat!("softnavi ", env!("CARGO_PKG_VERSION"))), "{out}");
    assert_eq!(p("conformanceVersion"), "0.0.0.0", "not conformant");
    assert_eq!(p("driverID"), softnavi_icd::instance::DRIVER_ID.as_raw().to_string());
    for (name, want) in [
        ("maxComputeSharedMemorySize", "65536"),
        ("maxComputeWorkGroupInvocations", "1024"),
        ("maxComputeWorkGroupCountX", "4294967295"),
        ("maxComputeWorkGroupCountY", "65535"),
        ("maxStorageBufferRange", "4294967295"),
        ("maxUniformBufferRange", "4294967295"),
        ("maxPushConstantsSize", "256"),
        ("maxBoundDescriptorSets", "32"),
        ("minStorageBufferOffsetAlignment", "4"),
        ("minUniformBufferOffsetAlignment", "4"),
        ("nonCoherentAtomSize", "64"),
        // Required minimums where the specification asks them without a feature.
        ("maxImageDimension1D", "4096"),
        ("maxFramebufferLayers", "256"),
        ("maxPerSetDescriptors", "1048576"),
        ("maxMultiviewViewCount", "6"),
        ("maxTimelineSemaphoreValueDifference", &u64::MAX.to_string()),
        ("maxUpdateAfterBindDescriptorsInAllPools", "1048576"),
        ("maxPerStageDescriptorUpdateAfterBindStorageBuffers", "1048576"),
        ("maxInlineUniformBlockSize", "0"),
        ("storageTexelBufferOffsetAlignmentBytes", "4"),
        // Float controls: the lowering's table (compiler_bridge::FLOAT_CONTROLS): f16 and f64
        // share one denorm mode field (32_BIT_ONLY = 0); denormals can be kept or flushed.
        ("denormBehaviorIndependence", "0"),
        ("shaderDenormPreserveFloat32", "1"),
    ] {
        assert_eq!(p(name), want, "{name}:\n{out}");
    }
    // The GPU model's memory (SOFTNAVI_MEMORY_MB, default 4 GiB).
    let memory = gpu::Config::from_env().memory_size;
    assert_eq!(p("maxMemoryAllocationSize"), memory.to_string());
    assert_eq!(p("maxBufferSize"), memory.to_string());
    // The GPU model's timestamp counter (gpu::ChipInfo::timestamp_hz).
    let period: f64 = p("timestampPeriod").parse().unwrap();
    let hz = gpu_timestamp_hz();
    assert!((period - 1e9 / hz as f64).abs() < 1e-3, "{period} vs {hz} Hz");
    let structs = [
        "ID",
        "Subgroup",
        "Maintenance3",
        "Multiview",
        "Driver",
        "FloatControls",
        "DescriptorIndexing",
        "TimelineSemaphore",
        "SubgroupSizeControl",
        "Maintenance4",
        "TexelBufferAlignment",
        "InlineUniformBlock",
        "DeviceBufferMemoryRequirements",
    ];
    for s in structs {
        assert_eq!(value(&out, "SAME", s), "1", "{s}:\n{out}");
    }
    for (f, want) in [
        ("dynamicRendering", "1"),
        ("robustImageAccess", "1"),
        ("inlineUniformBlock", "0"),
        ("imagelessFramebuffer", "1"),
        ("separateDepthStencilLayouts", "1"),
        ("privateData", "1"),
        ("maintenance4", "1"),
    ] {
        assert_eq!(value(&out, "FEATURE13", f), want, "{f}");
    }
    // Types: DL; HV|HC (GTT); DL|HV|HC (BAR); HV|CACHED; HV|HC|CACHED. Heaps: VRAM, GTT.
    let types: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("MEMTYPE ")).collect();
    assert_eq!(types, ["0 1 0", "1 6 1", "2 7 0", "3 10 1", "4 14 1"], "{out}");
    let heaps: Vec<&str> = out.lines().filter_map(|l| l.strip_prefix("MEMHEAP ")).collect();
    let size = memory.to_string();
    assert_eq!(heaps, [format!("0 {size} 1"), format!("1 {size} 0")], "{out}");
    assert_eq!(value(&out, "REQ", "memoryTypeBits"), "31", "buffers may live in every type");
    assert_eq!(value(&out, "BUDGET", "usageGrowth"), (3u64 << 20).to_string());
    assert_eq!(value(&out, "BUDGET", "withinHeap"), "1");
    assert_eq!(out.lines().find_map(|l| l.strip_prefix("PRIVATE ")), Some("0x0 0x5eedf00d1234 7"), "{out}");
}

fn gpu_timestamp_hz() -> u64 {
    gpu::Config::from_env().chip_info().timestamp_hz
}

/// The same scenario is valid Vulkan 1.3 on lavapipe.
#[test]
fn the_properties_scenario_is_clean_on_lavapipe() {
    let (out, err) = features(&["properties", "--validate"], &lavapipe_manifest());
    assert_eq!(validation(&out), "0", "{err}");
    assert_eq!(value(&out, "PROP", "apiVersion"), "1.3");
    assert_eq!(value(&out, "SAME", "Driver"), "1");
    assert_eq!(out.lines().find_map(|l| l.strip_prefix("PRIVATE ")), Some("0x0 0x5eedf00d1234 7"), "{out}");
}

#[test]
fn mapping_device_local_only_memory_fails_with_a_log_line() {
    let (out, err) = features(&["memory"], &softnavi_manifest());
    assert!(out.contains("RESULT: map of device-local type 0: ERROR_MEMORY_MAP_FAILED"), "{out}\n{err}");
    assert!(err.contains("vkMapMemory: memory type 0 is not HOST_VISIBLE"), "{err}");
}

/// Vulkan 1.3 requires inlineUniformBlock, which softnavi lacks: asking for it fails device
/// creation by name; dynamicRendering (rendering instances without draws, graphics.rs) works.
#[test]
fn missing_features_of_vulkan13_are_not_present() {
    let (out, err) = features(&["bad-devices-13"], &softnavi_manifest());
    assert!(
        out.contains("RESULT: dynamicRendering: SUCCESS; inlineUniformBlock: ERROR_FEATURE_NOT_PRESENT"),
        "{out}\n{err}"
    );
    assert!(err.contains("VkPhysicalDeviceVulkan13Features.inlineUniformBlock"), "{err}");
}
