//! Compiles the GLSL compute shaders in `shaders/` (and `shaders/bench/`) to SPIR-V with `glslangValidator -V`.
//!
//! The resulting `<name>.spv` files land in `OUT_DIR` and are embedded by `src/lib.rs` with
//! `include_bytes!`. Set `GLSLANG_VALIDATOR` to override the compiler binary.

use std::env;
use std::path::PathBuf;
use std::process::Command;

/// Shaders by path under `shaders/` without `.comp`; the output is the path with `/`
/// replaced by `_` (`bench/sgemm` → `bench_sgemm.spv`).
const SHADERS: &[&str] = &[
    "saxpy",
    "reduce",
    "bench/sgemm",
    "bench/saxpy",
    "bench/nbody",
    "bench/histogram",
    "bench/collatz",
    "bench/reduce",
    "bench/transpose",
    "bench/image_copy",
    "bench/buffer_copy",
    "bench/bilinear",
];

fn fail(msg: &str) -> ! {
    eprintln!("error: {msg}");
    std::process::exit(1);
}

fn main() {
    let manifest_dir = match env::var_os("CARGO_MANIFEST_DIR") {
        Some(d) => PathBuf::from(d),
        None => fail("CARGO_MANIFEST_DIR is not set (build.rs must be run by cargo)"),
    };
    let out_dir = match env::var_os("OUT_DIR") {
        Some(d) => PathBuf::from(d),
        None => fail("OUT_DIR is not set (build.rs must be run by cargo)"),
    };
    let glslang = env::var_os("GLSLANG_VALIDATOR").unwrap_or_else(|| "glslangValidator".into());
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-env-changed=GLSLANG_VALIDATOR");

    for name in SHADERS {
        let src = manifest_dir.join("shaders").join(format!("{name}.comp"));
        let dst = out_dir.join(format!("{}.spv", name.replace('/', "_")));
        println!("cargo:rerun-if-changed={}", src.display());

        let output = match Command::new(&glslang).arg("-V").arg("-o").arg(&dst).arg(&src).output() {
            Ok(output) => output,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => fail(&format!(
                "`{}` was not found; it is required to compile the example shaders to SPIR-V. \
                 Install glslang (e.g. `apt-get install glslang-tools`) or set \
                 GLSLANG_VALIDATOR=/path/to/glslangValidator",
                glslang.to_string_lossy()
            )),
            Err(e) => fail(&format!("failed to run `{}`: {e}", glslang.to_string_lossy())),
        };
        if !output.status.success() {
            fail(&format!(
                "`{} -V` failed to compile {} ({}):\n{}{}",
                glslang.to_string_lossy(),
                src.display(),
                output.status,
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr),
            ));
        }
    }
}
