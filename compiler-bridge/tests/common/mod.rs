//! Helpers shared by the integration tests: temp dirs and the LLVM/glslang tools.
#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use compiler_bridge::llvm::{tool_path, Tool};

/// A temporary directory removed on drop.
pub struct TempDir(pub PathBuf);

impl TempDir {
    pub fn new(tag: &str) -> TempDir {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let p = std::env::temp_dir().join(format!("softnavi-bridge-test-{tag}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }

    pub fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

pub fn run(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("{cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Compiles OpenCL C for gfx1100: returns (ET_REL from `clang -c`, ET_DYN from `ld.lld -shared`).
pub fn compile_cl(src: &str, extra: &[&str]) -> (Vec<u8>, Vec<u8>) {
    let dir = TempDir::new("cl");
    let cl = dir.path("k.cl");
    std::fs::write(&cl, src).unwrap();
    let (o, so) = (dir.path("k.o"), dir.path("k.so"));
    run(Command::new(tool_path(Tool::Clang))
        .args(["-x", "cl", "-cl-std=CL2.0", "-target", "amdgcn-amd-amdhsa", "-nogpulib", "-O2", "-c"])
        .args(if extra.iter().any(|a| a.starts_with("-mcpu")) { &[][..] } else { &["-mcpu=gfx1100"][..] })
        .args(extra)
        .arg(&cl)
        .arg("-o")
        .arg(&o));
    run(Command::new(tool_path(Tool::Lld)).arg("-shared").arg(&o).arg("-o").arg(&so));
    (std::fs::read(&o).unwrap(), std::fs::read(&so).unwrap())
}

/// `llvm-readelf-19 --notes` of `bytes`.
pub fn readelf_notes(bytes: &[u8]) -> String {
    let dir = TempDir::new("readelf");
    let f = dir.path("obj");
    std::fs::write(&f, bytes).unwrap();
    let readelf = llvm_tool("llvm-readelf");
    String::from_utf8(run(Command::new(readelf).arg("--notes").arg(&f))).unwrap()
}

/// An LLVM 19 tool: `NAME-19` in PATH, else Debian's `/usr/lib/llvm-19/bin/NAME`.
pub fn llvm_tool(name: &str) -> PathBuf {
    let versioned = format!("{name}-19");
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(&versioned)).find(|p| p.is_file()))
        .unwrap_or_else(|| Path::new("/usr/lib/llvm-19/bin").join(name))
}

/// Compiles a GLSL compute shader to SPIR-V words with glslangValidator.
pub fn glsl_to_spirv(path: &Path, target_env: Option<&str>) -> Vec<u32> {
    glsl_to_spirv_with(path, target_env, &[])
}

/// [`glsl_to_spirv`] with extra glslangValidator flags (e.g. `-g` for debug info).
pub fn glsl_to_spirv_with(path: &Path, target_env: Option<&str>, extra: &[&str]) -> Vec<u32> {
    let dir = TempDir::new("glsl");
    let out = dir.path("shader.spv");
    let mut cmd = Command::new("glslangValidator");
    cmd.arg("-V").arg("-S").arg("comp").args(extra);
    if let Some(env) = target_env {
        cmd.args(["--target-env", env]);
    }
    run(cmd.arg("-o").arg(&out).arg(path));
    words(&std::fs::read(&out).unwrap())
}

/// Assembles SPIR-V assembly text with spirv-as.
pub fn spirv_as(text: &str, target_env: &str) -> Vec<u32> {
    let dir = TempDir::new("spvas");
    let (src, out) = (dir.path("m.spvasm"), dir.path("m.spv"));
    std::fs::write(&src, text).unwrap();
    run(Command::new("spirv-as").args(["--target-env", target_env]).arg(&src).arg("-o").arg(&out));
    words(&std::fs::read(&out).unwrap())
}

pub fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// A small deterministic PRNG (xorshift64*), so failures reproduce.
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}
