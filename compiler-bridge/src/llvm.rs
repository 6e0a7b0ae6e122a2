//! LLVM 19 invocation: LLVM IR text → AMDHSA gfx1100 code object.
//!
//! This backend runs `clang-19` and `ld.lld-19` as processes. An in-process libLLVM backend
//! can replace it behind the same [`compile_ir`] signature (the loader accepts its ET_REL
//! output as well).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::CompileError;

/// Code generation choices that are not in the IR.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CodegenOptions {
    /// Compile for wave64 instead of the default wave32.
    pub wave64: bool,
}

/// Target flags shared by every invocation.
const TARGET_ARGS: &[&str] = &["-target", "amdgcn-amd-amdhsa", "-mcpu=gfx1100", "-nogpulib"];

/// An LLVM tool, located by [`tool_path`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tool {
    Clang,
    Lld,
    Objdump,
}

impl Tool {
    fn names(self) -> (&'static str, &'static str) {
        // (environment override, versioned binary name)
        match self {
            Tool::Clang => ("SOFTNAVI_CLANG", "clang-19"),
            Tool::Lld => ("SOFTNAVI_LLD", "ld.lld-19"),
            Tool::Objdump => ("SOFTNAVI_OBJDUMP", "llvm-objdump-19"),
        }
    }
}

/// Where `tool` is: `$SOFTNAVI_CLANG` / `$SOFTNAVI_LLD` / `$SOFTNAVI_OBJDUMP`, else the
/// versioned name in `PATH`, else Debian's `/usr/lib/llvm-19/bin/`.
pub fn tool_path(tool: Tool) -> PathBuf {
    let (var, name) = tool.names();
    if let Some(p) = std::env::var_os(var).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    if let Some(paths) = std::env::var_os("PATH") {
        for dir in std::env::split_paths(&paths) {
            let candidate = dir.join(name);
            if candidate.is_file() {
                return candidate;
            }
        }
    }
    let unversioned = match tool {
        Tool::Clang => "clang",
        Tool::Lld => "ld.lld",
        Tool::Objdump => "llvm-objdump",
    };
    Path::new("/usr/lib/llvm-19/bin").join(unversioned)
}

/// A private temporary directory, removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> Result<Self, CompileError> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        let path = std::env::temp_dir().join(format!("softnavi-llvm-{}-{n}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).map_err(|e| CompileError::Tool(format!("create {}: {e}", path.display())))?;
        Ok(TempDir(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn run(tool: Tool, args: &[&std::ffi::OsStr]) -> Result<(), CompileError> {
    let path = tool_path(tool);
    let out = Command::new(&path)
        .args(args)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| CompileError::Tool(format!("{}: {e}", path.display())))?;
    if out.status.success() {
        Ok(())
    } else {
        let mut log = String::from_utf8_lossy(&out.stderr).into_owned();
        log.push_str(&String::from_utf8_lossy(&out.stdout));
        Err(CompileError::Llvm { tool: path.display().to_string(), log })
    }
}

/// Compiles LLVM IR for `amdgcn-amd-amdhsa` gfx1100 at -O2 and links it into a shared
/// code object (ET_DYN). Errors carry the tool's diagnostics.
pub fn compile_ir(ir: &str, opts: &CodegenOptions) -> Result<Vec<u8>, CompileError> {
    let dir = TempDir::new()?;
    let ll = dir.0.join("shader.ll");
    let obj = dir.0.join("shader.o");
    let so = dir.0.join("shader.so");
    std::fs::write(&ll, ir).map_err(|e| CompileError::Tool(format!("write {}: {e}", ll.display())))?;

    let mut args: Vec<&std::ffi::OsStr> = vec!["-x".as_ref(), "ir".as_ref(), ll.as_os_str()];
    args.extend(TARGET_ARGS.iter().map(std::ffi::OsStr::new));
    args.extend(["-O2".as_ref(), "-c".as_ref(), "-o".as_ref(), obj.as_os_str()]);
    if opts.wave64 {
        args.push("-mwavefrontsize64".as_ref());
    }
    run(Tool::Clang, &args)?;
    run(Tool::Lld, &["-shared".as_ref(), obj.as_os_str(), "-o".as_ref(), so.as_os_str()])?;
    std::fs::read(&so).map_err(|e| CompileError::Tool(format!("read {}: {e}", so.display())))
}

/// Disassembles a code object with `llvm-objdump-19 -d --mcpu=gfx1100` (a developer aid;
/// the GPU model has its own disassembler).
pub fn disassemble(elf: &[u8]) -> Result<String, CompileError> {
    let dir = TempDir::new()?;
    let so = dir.0.join("object.so");
    std::fs::write(&so, elf).map_err(|e| CompileError::Tool(format!("write {}: {e}", so.display())))?;
    let path = tool_path(Tool::Objdump);
    let out = Command::new(&path)
        .args(["-d", "--mcpu=gfx1100"])
        .arg(&so)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| CompileError::Tool(format!("{}: {e}", path.display())))?;
    if !out.status.success() {
        return Err(CompileError::Llvm {
            tool: path.display().to_string(),
            log: String::from_utf8_lossy(&out.stderr).into_owned(),
        });
    }
    Ok(String::from_utf8_lossy(&out.stdout).into_owned())
}
