//! Compiles the probe's GLSL shaders with glslangValidator, and the OpenCL C kernels of
//! `opencl/` with clang-19 (+ ld.lld-19) into code objects, and the SPIR-V corpus of
//! `spirv/`, into OUT_DIR.

use std::path::PathBuf;
use std::process::Command;

fn main() {
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")); // ok: build script
    let tool = std::env::var("GLSLANG_VALIDATOR").unwrap_or_else(|_| "glslangValidator".into());
    for name in [
        "atomic",
        "spin",
        "copy",
        "ids",
        "subgroup",
        "subgroup_size",
        "inc",
        "bda_store",
        "bda_spin",
        "desc_index",
        "desc_push",
        "desc_dynamic",
        "desc_copy",
        "msaa_write",
        "msaa_write_f",
        "msaa_read",
    ] {
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
    // Texel buffer shaders (softnavi-texel): one source per operation, one build per
    // sampled type; and the ray query shader (softnavi-rayquery), which needs SPIR-V 1.4.
    for (name, src, env, defs) in [
        ("texel_fetch_f", "texel_fetch", "vulkan1.1", &["-DTEX=textureBuffer", "-DVEC=vec4"][..]),
        ("texel_fetch_u", "texel_fetch", "vulkan1.1", &["-DTEX=utextureBuffer", "-DVEC=uvec4"]),
        ("texel_fetch_i", "texel_fetch", "vulkan1.1", &["-DTEX=itextureBuffer", "-DVEC=ivec4"]),
        ("texel_store_f", "texel_store", "vulkan1.1", &["-DIMG=imageBuffer", "-DVEC=vec4"]),
        ("texel_store_u", "texel_store", "vulkan1.1", &["-DIMG=uimageBuffer", "-DVEC=uvec4"]),
        ("texel_store_i", "texel_store", "vulkan1.1", &["-DIMG=iimageBuffer", "-DVEC=ivec4"]),
        ("texel_atomic", "texel_atomic", "vulkan1.1", &[]),
        ("rayquery", "rayquery", "vulkan1.2", &[]),
    ] {
        let src = format!("shaders/{src}.comp");
        println!("cargo:rerun-if-changed={src}");
        let dst = out.join(format!("{name}.spv"));
        let status =
            Command::new(&tool).args(["-V", "--target-env", env]).args(defs).arg(&src).arg("-o").arg(&dst).output();
        match status {
            Ok(o) if o.status.success() => {}
            Ok(o) => panic!("{tool} failed on {src}:\n{}", String::from_utf8_lossy(&o.stdout)), // ok: build script
            Err(e) => panic!("cannot run {tool} ({e}); install glslang-tools (scripts/setup)"), // ok: build script
        }
    }
    opencl(&out);
    spirv_corpus(&out);
}

/// The SPIR-V test corpus run by `softnavi-spirv`: every `spirv/<family>/<name>.comp`
/// (GLSL, compiled by glslangValidator) and `spirv/<family>/<name>.spvasm` (SPIR-V
/// assembly, assembled by spirv-as and checked by spirv-val). A first line
/// `// target-env: X` (GLSL) or `; target-env: X` (assembly) picks the target environment
/// (default vulkan1.1). Writes `spirv_corpus.rs`: `CORPUS`, (`family/name`, words) pairs.
fn spirv_corpus(out: &std::path::Path) {
    let glslang = std::env::var("GLSLANG_VALIDATOR").unwrap_or_else(|_| "glslangValidator".into());
    println!("cargo:rerun-if-changed=spirv");
    let mut entries = Vec::new();
    let mut families: Vec<_> = std::fs::read_dir("spirv")
        .expect("tests/spirv exists") // ok: build script
        .filter_map(|e| e.ok())
        .filter(|e| e.path().is_dir())
        .collect();
    families.sort_by_key(|e| e.file_name());
    for family in families {
        let fname = family.file_name().to_string_lossy().into_owned();
        let dir = out.join("spirv").join(&fname);
        std::fs::create_dir_all(&dir).expect("OUT_DIR is writable"); // ok: build script
        let mut files: Vec<_> = std::fs::read_dir(family.path())
            .expect("readable directory") // ok: build script
            .filter_map(|e| e.ok().map(|e| e.path()))
            .collect();
        files.sort();
        for src in files {
            let (Some(stem), Some(ext)) = (src.file_stem(), src.extension()) else { continue };
            let stem = stem.to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&src).unwrap_or_default();
            let first = text.lines().next().unwrap_or("");
            let env = first
                .trim_start_matches(['/', ';', ' '])
                .strip_prefix("target-env:")
                .map_or("vulkan1.1", str::trim)
                .to_string();
            let spv = dir.join(format!("{stem}.spv"));
            match ext.to_str() {
                Some("comp") => {
                    let mut cmd = Command::new(&glslang);
                    cmd.args(["-V", "--target-env", &env]).arg(&src).arg("-o").arg(&spv);
                    run(cmd, &format!("{glslang} on {}", src.display()));
                }
                Some("spvasm") => {
                    let mut cmd = Command::new("spirv-as");
                    cmd.args(["--target-env", &env]).arg(&src).arg("-o").arg(&spv);
                    run(cmd, &format!("spirv-as on {}", src.display()));
                    let mut val = Command::new("spirv-val");
                    val.args(["--target-env", &env]).arg(&spv);
                    run(val, &format!("spirv-val on {}", src.display()));
                }
                _ => continue,
            }
            entries.push(format!("    (\"{fname}/{stem}\", include_bytes!({:?})),\n", spv.display().to_string()));
        }
    }
    let code = format!("pub const CORPUS: &[(&str, &[u8])] = &[\n{}];\n", entries.concat());
    std::fs::write(out.join("spirv_corpus.rs"), code).expect("OUT_DIR is writable");
    // ok: build script
}

/// The OpenCL builds: (directory, code object version, wave64, linked with ld.lld).
/// Every kernel runs in each, so each runs in wave32 and wave64, and v4, v5 and v6 code
/// objects, ET_DYN and ET_REL, are all loaded.
const OPENCL_BUILDS: [(&str, u32, bool, bool); 4] =
    [("w32v5", 5, false, true), ("w64v5", 5, true, true), ("w32v4", 4, false, true), ("w64v6rel", 6, true, false)];

fn opencl(out: &std::path::Path) {
    let clang = std::env::var("CLANG").unwrap_or_else(|_| "clang-19".into());
    let lld = std::env::var("LD_LLD").unwrap_or_else(|_| "ld.lld-19".into());
    println!("cargo:rerun-if-changed=opencl/prelude.h");
    // OpenCL C files, and LLVM IR files for what OpenCL C cannot reach (buffer atomics,
    // structured and typed buffers): those leave the wave size and code object version to
    // the command line (no target-features attribute, no code object version module flag).
    for (file, ir) in [("scalar", false), ("vector", false), ("group", false), ("memory", false), ("buffer", true)] {
        let src = format!("opencl/{file}.{}", if ir { "ll" } else { "cl" });
        println!("cargo:rerun-if-changed={src}");
        for (dir, cov, wave64, linked) in OPENCL_BUILDS {
            let dir = out.join(dir);
            std::fs::create_dir_all(&dir).expect("OUT_DIR is writable"); // ok: build script
            let obj = dir.join(format!("{file}.o"));
            let mut cmd = Command::new(&clang);
            if ir {
                cmd.args(["-x", "ir", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib", "-O2"]);
            } else {
                cmd.args(["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib"])
                    .args(["-O2", "-Xclang", "-finclude-default-header", "-include", "opencl/prelude.h"])
                    .arg(format!("-DCOV={cov}"));
            }
            cmd.arg(format!("-mcode-object-version={cov}"))
                .args(if wave64 { &["-mwavefrontsize64"][..] } else { &[] })
                .args(["-c", &src, "-o"])
                .arg(&obj);
            run(cmd, &format!("{clang} on {src}"));
            // Linking also proves that the prelude defines every built-in used.
            let so = dir.join(format!("{file}.so"));
            let mut link = Command::new(&lld);
            link.arg("-shared").arg("--no-undefined").arg(&obj).arg("-o").arg(&so);
            run(link, &format!("{lld} on {src}"));
            // What the test loads: the ET_DYN object, or the ET_REL one itself.
            let elf = dir.join(format!("{file}.elf"));
            if let Err(e) = std::fs::copy(if linked { &so } else { &obj }, &elf) {
                panic!("cannot write {}: {e}", elf.display()); // ok: build script
            }
        }
    }
}

fn run(mut cmd: Command, what: &str) {
    match cmd.output() {
        Ok(o) if o.status.success() => {}
        Ok(o) => panic!("{what} failed:\n{}{}", String::from_utf8_lossy(&o.stderr), String::from_utf8_lossy(&o.stdout)), // ok: build script
        Err(e) => panic!("cannot run {what} ({e}); install clang-19 and lld-19 (scripts/setup)"), // ok: build script
    }
}
