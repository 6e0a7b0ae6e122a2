//! Compiles the probe's GLSL shaders with glslangValidator into OUT_DIR.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")); // ok: build script
    let tool = std::env::var("GLSLANG_VALIDATOR").unwrap_or_else(|_| "glslangValidator".into());
    for name in ["atomic", "spin", "copy", "ids", "subgroup"] {
        let src = format!("shaders/{name}.comp");
        println!("cargo:rerun-if-changed={src}");
        let dst = out.join(format!("{name}.spv"));
        let status = Command::new(&tool).args(["-V", "--target-env", "vulkan1.1", &src, "-o"]).arg(&dst).output();
        match status {
            Ok(o) if o.status.success() => {}
            Ok(o) => panic!("{tool} failed on {src}:\n{}", String::from_utf8_lossy(&o.stdout)), // ok: build script
            Err(e) => panic!("cannot run {tool} ({e}); install glslang-tools (scripts/setup)"), // ok: build script
        }
    }
}
