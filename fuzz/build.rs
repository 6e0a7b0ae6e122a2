//! Compiles the SPIR-V shader the `pcache` target caches (tests/spirv/basic/saxpy.comp)
//! with glslangValidator, as tests/build.rs does for the corpus.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")); // ok: build script
    let tool = std::env::var("GLSLANG_VALIDATOR").unwrap_or_else(|_| "glslangValidator".into());
    let src = "../tests/spirv/basic/saxpy.comp";
    println!("cargo:rerun-if-changed={src}");
    let o =
        Command::new(&tool).args(["-V", "--target-env", "vulkan1.1", src, "-o"]).arg(out.join("saxpy.spv")).output();
    match o {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!("{tool} failed on {src}:\n{}", String::from_utf8_lossy(&o.stdout)), // ok: build script
        Err(e) => panic!("cannot run {tool} ({e}); install glslang-tools (scripts/setup)"), // ok: build script
    }
}
