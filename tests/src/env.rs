//! Where the test apps, the ICD manifest and lavapipe are, and how to run an app through
//! the Khronos loader with one driver selected. For the integration tests in `tests/tests`.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// `target/<profile>`: where cargo put the test apps, the examples and the ICD. Integration
/// tests run from `target/<profile>/deps`.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test knows its own path");
    let dir = exe.parent().expect("the test binary has a directory");
    if dir.ends_with("deps") {
        dir.parent().expect("deps has a parent").to_path_buf()
    } else {
        dir.to_path_buf()
    }
}

/// softnavi's ICD manifest, written by the icd crate's build.
pub fn softnavi_manifest() -> PathBuf {
    let m = target_dir().join("softnavi_icd.json");
    assert!(m.exists(), "{} is missing: run `cargo build --workspace` first", m.display());
    m
}

/// Mesa's lavapipe ICD manifest (mesa-vulkan-drivers).
pub fn lavapipe_manifest() -> PathBuf {
    let dir = Path::new("/usr/share/vulkan/icd.d");
    std::fs::read_dir(dir)
        .ok()
        .into_iter()
        .flatten()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .find(|p| p.file_name().is_some_and(|n| n.to_string_lossy().starts_with("lvp_icd")))
        .unwrap_or_else(|| panic!("lavapipe is not installed (mesa-vulkan-drivers); run scripts/setup"))
}

/// A command for `program` with the loader pointed at the ICD manifest `icd` only.
pub fn vk_command(program: &Path, icd: &Path) -> Command {
    assert!(program.exists(), "{} is missing: run `cargo build --workspace` first", program.display());
    let xdg = std::env::temp_dir().join("softnavi-xdg");
    let _ = std::fs::create_dir_all(&xdg);
    let mut cmd = Command::new(program);
    cmd.env("VK_ICD_FILENAMES", icd)
        .env_remove("VK_DRIVER_FILES")
        .env("XDG_RUNTIME_DIR", &xdg)
        // Keep the device-select layer from reordering devices.
        .env("NODEVICE_SELECT", "1");
    cmd
}

/// The same with `VK_LAYER_KHRONOS_validation` enabled (every message goes to stdout).
pub fn vk_command_validated(program: &Path, icd: &Path) -> Command {
    let mut cmd = vk_command(program, icd);
    cmd.env("VK_INSTANCE_LAYERS", "VK_LAYER_KHRONOS_validation");
    cmd
}

/// Runs a command and returns (success, stdout, stderr).
pub fn output(mut cmd: Command) -> (Output, String, String) {
    let o = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    let out = String::from_utf8_lossy(&o.stdout).into_owned();
    let err = String::from_utf8_lossy(&o.stderr).into_owned();
    (o, out, err)
}

/// Under `SOFTNAVI_JIT=on` every program must translate: a driver log `log` that reports a
/// failed translation fails the test (the program would have run in the interpreter and
/// hidden the translator's failure).
pub fn assert_translated(log: &str) {
    if std::env::var("SOFTNAVI_JIT").is_ok_and(|v| v.trim() == "on") {
        let failed: Vec<&str> = log.lines().filter(|l| l.contains("translation failed")).collect();
        assert!(failed.is_empty(), "the translation tier failed:\n{}", failed.join("\n"));
    }
}

/// Debian's RADV manifest (mesa-vulkan-drivers): Mesa's AMD driver, run over the GPU model
/// through softnavi's amdgpu shim.
pub const RADV_MANIFEST: &str = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json";

/// A command for `program` on RADV over the model (what `scripts/radv` sets up), or `None`,
/// saying so, where RADV is not installed.
pub fn radv_command(program: &Path) -> Option<Command> {
    if !Path::new(RADV_MANIFEST).exists() {
        eprintln!("SKIPPED: RADV ({RADV_MANIFEST}) is not installed (apt install mesa-vulkan-drivers)");
        return None;
    }
    let shim = target_dir().join("libsoftnavi_amdgpu_shim.so");
    assert!(shim.exists(), "{} is missing: run `cargo build --workspace` first", shim.display());
    let mut cmd = vk_command(program, Path::new(RADV_MANIFEST));
    cmd.env("LD_PRELOAD", shim);
    Some(cmd)
}
