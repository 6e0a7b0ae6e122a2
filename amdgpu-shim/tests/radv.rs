//! RADV itself (Debian's mesa-vulkan-drivers, unmodified) over the shim: the oracle is
//! Mesa's own device enumeration and device creation. Skips, saying so, where RADV or
//! vulkaninfo is not installed.

use std::path::PathBuf;
use std::process::Command;

const RADV_ICD: &str = "/usr/share/vulkan/icd.d/radeon_icd.x86_64.json";

/// The shim's cdylib, built next to this test's directory by `cargo test`.
fn shim() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().parent().unwrap().join("libsoftnavi_amdgpu_shim.so")
}

fn radv_present() -> bool {
    let ok = std::path::Path::new(RADV_ICD).exists() && Command::new("vulkaninfo").arg("--help").output().is_ok();
    if !ok {
        eprintln!(
            "SKIPPED: RADV ({RADV_ICD}) or vulkaninfo is not installed (apt install mesa-vulkan-drivers vulkan-tools)"
        );
    }
    ok
}

#[test]
fn vulkaninfo_shows_radv_gfx1100() {
    if !radv_present() {
        return;
    }
    let lib = shim();
    assert!(lib.exists(), "{} not built", lib.display());
    let out = Command::new("vulkaninfo")
        .arg("--summary")
        .env("VK_ICD_FILENAMES", RADV_ICD)
        .env("LD_PRELOAD", &lib)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "vulkaninfo failed: {}\n{}", text, String::from_utf8_lossy(&out.stderr));
    let chip = gpu::Config::default().chip_info();
    assert!(text.contains(&format!("deviceName         = {} (RADV GFX1100)", chip.marketing_name)), "{text}");
    assert!(text.contains(&format!("deviceID           = {:#x}", chip.device_id)), "{text}");
    assert!(text.contains("driverID           = DRIVER_ID_MESA_RADV"), "{text}");
    assert_eq!(text.matches("deviceName").count(), 1, "exactly one device: {text}");
}
