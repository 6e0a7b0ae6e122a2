//! The validation sweep: every example and test app runs on softnavi under
//! `VK_LAYER_KHRONOS_validation`, and must get no error, warning or performance warning.
//!
//! Apps come in two kinds ([`Mode`]): those with their own `--validate` (a debug messenger
//! that counts messages; exit status 3 when there were any), and the others, run with the
//! layer enabled by the loader (`VK_INSTANCE_LAYERS`), whose messages the layer prints to
//! stdout (every one has a `msgNum:`). A new app is one line in [`APPS`]. Scenarios that
//! misuse Vulkan on purpose (garbage SPIR-V, shaders that fault or hang) are not listed;
//! the messages an app gets on purpose are listed with it, by id, with the reason.
//!
//! Needs `cargo build --workspace` (the examples and the ICD) first.

use std::path::PathBuf;

use softnavi_tests::env::{output, softnavi_manifest, target_dir, vk_command, vk_command_validated};

#[derive(Clone, Copy, Debug)]
enum Mode {
    /// The app takes `--validate` (given in its arguments) and exits 3 on any message.
    Flag,
    /// The loader enables the layer; its messages are counted on stdout.
    Layer,
}

/// Messages an app gets on purpose, by its VUID or message-id name.
type Allowed = &'static [&'static str];

/// `softnavi-clkernels` feeds AMDHSA code objects to vkCreateShaderModule (softnavi's
/// extension, docs/ABI.md): they are not SPIR-V, and the layer says so for every module
/// (also with `VK_VALIDATION_FEATURE_DISABLE_SHADERS_EXT`). Everything else it does is
/// validated.
const CODE_OBJECTS: Allowed =
    &["UNASSIGNED-CoreValidation-Shader-InconsistentSpirv", "VUID-VkPipelineShaderStageCreateInfo-module-parameter"];
/// `softnavi-features subgroup-sizes` also checks that the driver rejects invalid subgroup
/// size requests (required size 16, an 80-wide workgroup with required size 64 and full
/// subgroups, an 80-wide one with full subgroups): those three are invalid on purpose.
const BAD_SUBGROUP_SIZES: Allowed = &[
    "VUID-VkPipelineShaderStageRequiredSubgroupSizeCreateInfo-requiredSubgroupSize-02761",
    "VUID-VkPipelineShaderStageCreateInfo-pNext-02757",
    "VUID-VkPipelineShaderStageCreateInfo-flags-02759",
];

/// (binary in target/<profile>, arguments, mode, messages it gets on purpose).
const APPS: &[(&str, &[&str], Mode, Allowed)] = &[
    ("saxpy", &["--validate"], Mode::Flag, &[]),
    ("reduce", &["--validate"], Mode::Flag, &[]),
    ("softnavi-lifecycle", &["2", "--validate"], Mode::Flag, &[]),
    ("softnavi-features", &["report", "--validate"], Mode::Flag, &[]),
    ("softnavi-features", &["subgroup-sizes"], Mode::Layer, BAD_SUBGROUP_SIZES),
    ("softnavi-transfer", &["--validate"], Mode::Flag, &[]),
    ("softnavi-probe", &["copy"], Mode::Layer, &[]),
    ("softnavi-probe", &["transfer"], Mode::Layer, &[]),
    ("softnavi-probe", &["dispatch-variants"], Mode::Layer, &[]),
    ("softnavi-probe", &["many-dispatches"], Mode::Layer, &[]),
    ("softnavi-probe", &["timestamps"], Mode::Layer, &[]),
    ("softnavi-probe", &["events"], Mode::Layer, &[]),
    ("softnavi-probe", &["subgroup"], Mode::Layer, &[]),
    ("softnavi-clkernels", &["w32v5"], Mode::Layer, CODE_OBJECTS),
];

/// Runs one app; returns the validation messages it got (empty: clean), or why it failed.
fn sweep(program: &str, args: &[&str], mode: Mode) -> Result<Vec<String>, String> {
    let path: PathBuf = target_dir().join(program);
    let icd = softnavi_manifest();
    let mut cmd = match mode {
        Mode::Flag => vk_command(&path, &icd),
        Mode::Layer => vk_command_validated(&path, &icd),
    };
    // The layer caches the hashes of shader modules it once found valid in
    // $XDG_CACHE_HOME/shader_validation_cache-*.bin (also across API versions), which hides
    // messages: give it a cache directory that does not exist. softnavi's own shader cache
    // stays where it was.
    let softnavi_cache = std::env::var_os("SOFTNAVI_CACHE_DIR").map(PathBuf::from).unwrap_or_else(|| {
        std::env::var_os("XDG_CACHE_HOME")
            .map(PathBuf::from)
            .unwrap_or_else(|| PathBuf::from(std::env::var_os("HOME").unwrap_or_default()).join(".cache"))
            .join("softnavi")
    });
    cmd.args(args)
        .env("SOFTNAVI_THREADS", "2")
        .env("SOFTNAVI_CACHE_DIR", softnavi_cache)
        .env("XDG_CACHE_HOME", target_dir().join("no-validation-cache"));
    let (o, out, err) = output(cmd);
    let messages: Vec<String> = out
        .lines()
        .chain(err.lines())
        .filter(|l| l.contains("msgNum:") || l.starts_with("validation [") || l.contains("lifecycle: validation:"))
        .map(str::to_owned)
        .collect();
    let validation_exit = matches!(mode, Mode::Flag) && o.status.code() == Some(3);
    if !o.status.success() && !validation_exit {
        return Err(format!("exit status {:?}\n--- stdout ---\n{out}\n--- stderr ---\n{err}", o.status.code()));
    }
    if validation_exit && messages.is_empty() {
        return Err(format!("exit status 3 but no message found\n--- stdout ---\n{out}\n--- stderr ---\n{err}"));
    }
    Ok(messages)
}

/// Messages grouped by their VUID (or message-id name): count and the first message.
fn by_id(messages: &[String]) -> std::collections::BTreeMap<String, (usize, String)> {
    let mut ids = std::collections::BTreeMap::new();
    for m in messages {
        let id = m
            .split_once("[ ")
            .and_then(|(_, rest)| rest.split_once(" ]"))
            .map_or_else(|| m.split('(').next().unwrap_or_default().to_owned(), |(id, _)| id.to_owned());
        let body = m.rsplit_once(" | ").map_or(m.as_str(), |(_, b)| b);
        ids.entry(id).or_insert((0, body.chars().take(300).collect())).0 += 1;
    }
    ids
}

/// The SPIR-V corpus (`softnavi-spirv`, every case): apart from [`APPS`] because its
/// shaders need the Vulkan 1.2/1.3 features (SPIR-V 1.4-1.6, maintenance4, subgroup extended
/// types, ...) that the device must report and the runner's context enable.
const SPIRV: &[(&str, &[&str], Mode, Allowed)] = &[("softnavi-spirv", &[], Mode::Layer, DENORM_16_64)];

/// `vk13/denorm_mixed` declares DenormFlushToZero for 16- and 64-bit floats alike (and
/// DenormPreserve for 32-bit), which denormBehaviorIndependence 32_BIT_ONLY allows; Debian
/// 12's layer (1.3.239) still reports VUID-06289 for each of the two modes.
const DENORM_16_64: Allowed = &["VUID-RuntimeSpirv-denormBehaviorIndependence-06289"];

#[test]
fn every_app_is_clean_under_validation() {
    check(APPS);
}

#[test]
fn spirv_corpus_is_clean_under_validation() {
    check(SPIRV);
}

fn check(apps: &[(&str, &[&str], Mode, Allowed)]) {
    let mut dirty = Vec::new();
    for &(program, args, mode, allowed) in apps {
        let what = format!("{program} {}", args.join(" "));
        match sweep(program, args, mode) {
            Ok(m) => {
                let ids = by_id(&m);
                let unexpected: Vec<_> = ids.iter().filter(|(id, _)| !allowed.contains(&id.as_str())).collect();
                if unexpected.is_empty() {
                    eprintln!("clean: {what} ({} messages on purpose)", m.len());
                    continue;
                }
                eprintln!("{} messages: {what}", m.len());
                for (id, (count, first)) in unexpected {
                    eprintln!("    {count} x {id}: {first}");
                }
                dirty.push(what);
            }
            Err(e) => {
                eprintln!("failed: {what}: {e}");
                dirty.push(what);
            }
        }
    }
    assert!(dirty.is_empty(), "not clean under VK_LAYER_KHRONOS_validation: {dirty:?}");
}
