//! LLVM 19 invocation: LLVM IR text → AMDHSA gfx1100 code object.
//!
//! Two backends behind [`compile_ir`]: libLLVM 19 driven in-process through its C API
//! ([`Backend::InProcess`], an ET_REL object) and the `clang-19` / `ld.lld-19` processes
//! ([`Backend::Process`], an ET_DYN object); the loader accepts both. `SOFTNAVI_LLVM`
//! chooses: `inproc`, `process`, or `auto` (the default: in-process when libLLVM 19 loads).

mod ffi;
mod process;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

use crate::CompileError;

/// Code generation choices that are not in the IR.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CodegenOptions {
    /// Compile for wave64 instead of the default wave32.
    pub wave64: bool,
}

/// Which LLVM compiles the IR.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// libLLVM 19 loaded into this process.
    InProcess,
    /// `clang-19` and `ld.lld-19` run as processes.
    Process,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::InProcess => "inproc",
            Backend::Process => "process",
        }
    }

    /// Whether this backend can be used here (libLLVM 19 loads / the tools exist).
    pub fn is_available(self) -> bool {
        match self {
            Backend::InProcess => ffi::Llvm::get().is_ok(),
            Backend::Process => tool_path(Tool::Clang).is_file() && tool_path(Tool::Lld).is_file(),
        }
    }

    /// What identifies the compiler behind this backend, for cache keys: the library or
    /// tools, their LLVM version, and the files' sizes and modification times (so that
    /// an upgrade in place misses the cache).
    pub fn identity(self) -> Result<String, CompileError> {
        match self {
            Backend::InProcess => {
                let llvm = ffi::Llvm::get().map_err(|e| CompileError::Tool(format!("libLLVM 19: {e}")))?;
                let (major, minor, patch) = llvm.lib.version;
                Ok(format!("inproc libLLVM {major}.{minor}.{patch} {}", file_stamp(Path::new(llvm.path))))
            }
            Backend::Process => {
                static TOOLS: OnceLock<String> = OnceLock::new();
                Ok(TOOLS
                    .get_or_init(|| {
                        let (clang, lld) = (tool_path(Tool::Clang), tool_path(Tool::Lld));
                        format!(
                            "process {} {} {} {}",
                            clang.display(),
                            file_stamp(&clang),
                            lld.display(),
                            file_stamp(&lld)
                        )
                    })
                    .clone())
            }
        }
    }
}

impl std::fmt::Display for Backend {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// `size:mtime` of the file `path` names (following links, and searching the dynamic
/// loader's usual directories for a bare library name), or `?` when it cannot be found.
fn file_stamp(path: &Path) -> String {
    let candidates = if path.is_absolute() {
        vec![path.to_path_buf()]
    } else {
        ["/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib", "/usr/local/lib"]
            .iter()
            .map(|d| Path::new(d).join(path))
            .collect()
    };
    candidates.iter().find_map(|p| std::fs::metadata(p).ok()).map_or_else(
        || "?".into(),
        |m| {
            let mtime =
                m.modified().ok().and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok()).map_or(0, |d| d.as_secs());
            format!("{}:{mtime}", m.len())
        },
    )
}

/// The backend `SOFTNAVI_LLVM` selects (read once; the choice and its reason are logged
/// once): `inproc` (an error when libLLVM 19 cannot be loaded), `process`, or `auto` /
/// unset (in-process when possible, else the processes).
pub fn default_backend() -> Result<Backend, CompileError> {
    static CHOICE: OnceLock<Result<Backend, String>> = OnceLock::new();
    CHOICE
        .get_or_init(|| {
            let var = std::env::var("SOFTNAVI_LLVM").unwrap_or_default();
            let choice = select(&var, ffi::Llvm::get().map(|l| l.path));
            match &choice {
                Ok((backend, why)) => tracing::info!(backend = backend.name(), "LLVM backend: {why}"),
                Err(why) => tracing::error!("no LLVM backend: {why}"),
            }
            choice.map(|(b, _)| b)
        })
        .clone()
        .map_err(CompileError::Tool)
}

/// The backend for `SOFTNAVI_LLVM=var` given whether libLLVM loaded (its path, or why
/// not), with the reason.
fn select(var: &str, llvm: Result<&str, &str>) -> Result<(Backend, String), String> {
    match (var.trim(), llvm) {
        ("inproc", Ok(path)) => Ok((Backend::InProcess, format!("in-process {path} (SOFTNAVI_LLVM=inproc)"))),
        ("inproc", Err(e)) => Err(format!("SOFTNAVI_LLVM=inproc but libLLVM 19 cannot be loaded: {e}")),
        ("process", _) => Ok((Backend::Process, "clang-19 / ld.lld-19 processes (SOFTNAVI_LLVM=process)".into())),
        ("" | "auto", Ok(path)) => Ok((Backend::InProcess, format!("in-process {path}"))),
        ("" | "auto", Err(e)) => {
            Ok((Backend::Process, format!("clang-19 / ld.lld-19 processes: libLLVM 19 cannot be loaded: {e}")))
        }
        (other, _) => Err(format!("SOFTNAVI_LLVM={other}: expected auto, inproc or process")),
    }
}

/// Compiles LLVM IR for `amdgcn-amd-amdhsa` gfx1100 at -O2 with the [`default_backend`].
/// Errors carry LLVM's diagnostics.
pub fn compile_ir(ir: &str, opts: &CodegenOptions) -> Result<Vec<u8>, CompileError> {
    compile_ir_with(ir, opts, default_backend()?)
}

/// [`compile_ir`] with the given backend: an ET_REL object in-process, an ET_DYN one from
/// the processes. Invalid IR is an error from both, never an abort.
pub fn compile_ir_with(ir: &str, opts: &CodegenOptions, backend: Backend) -> Result<Vec<u8>, CompileError> {
    match backend {
        // The SLP vectoriser of the in-process pipeline cannot be turned off (its
        // PassBuilderOptions setting has no effect there): such modules go to clang.
        Backend::InProcess if !slp_safe(ir) => {
            tracing::debug!("8- or 16-bit buffer accesses: compiled by clang-19 without SLP vectorisation");
            process::compile(ir, opts)
        }
        Backend::InProcess => {
            let llvm = ffi::Llvm::get().map_err(|e| CompileError::Tool(format!("libLLVM 19: {e}")))?;
            llvm.compile(ir, opts.wave64)
        }
        Backend::Process => process::compile(ir, opts),
    }
}

/// Whether the SLP vectoriser may run on `ir`. LLVM 19's AMDGPU instruction selection
/// cannot legalise buffer fat pointer (`addrspace(7)`) loads and stores of i8 vectors
/// (any width) or `<3 x i16>` / `<3 x half>` loads: "Do not know how to split / widen this
/// operator" is a fatal error that ends the process. The lowering already splits such
/// accesses into scalar ones (`split_vector_access`), but SLP merges the scalars back, so
/// a module that has 8- or 16-bit scalar buffer accesses is compiled without it: by the
/// clang process with `-fno-slp-vectorize`, whichever backend was chosen.
pub(crate) fn slp_safe(ir: &str) -> bool {
    !ir.lines().any(|l| {
        let narrow =
            |op: &str, ty: &str| l.contains(&format!("{op} {ty}")) || l.contains(&format!("{op} volatile {ty}"));
        l.contains("ptr addrspace(7)")
            && ["i8", "i16", "half"]
                .iter()
                .any(|t| narrow("load", &format!("{t},")) || narrow("store", &format!("{t} ")))
    })
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backend_selection_follows_softnavi_llvm() {
        let loaded: Result<&str, &str> = Ok("libLLVM.so.19.1");
        let missing: Result<&str, &str> = Err("not found");
        let pick = |var, llvm| select(var, llvm).map(|(b, _)| b);
        assert_eq!(pick("", loaded), Ok(Backend::InProcess));
        assert_eq!(pick("auto", loaded), Ok(Backend::InProcess));
        assert_eq!(pick("", missing), Ok(Backend::Process));
        assert_eq!(pick("process", loaded), Ok(Backend::Process));
        assert_eq!(pick("inproc", loaded), Ok(Backend::InProcess));
        assert!(pick("inproc", missing).unwrap_err().contains("not found"));
        assert!(pick("llvm", loaded).is_err());
        assert!(select("", missing).unwrap().1.contains("not found"), "the log says why");
    }
}

#[cfg(test)]
mod slp_tests {
    #[test]
    fn narrow_buffer_accesses_turn_slp_off() {
        assert!(!super::slp_safe("  store i8 %t40, ptr addrspace(7) %v70, align 1"));
        assert!(!super::slp_safe("  %a = load i16, ptr addrspace(7) %p, align 2"));
        assert!(super::slp_safe("  store i8 %t40, ptr addrspace(1) %v70, align 1"));
        assert!(super::slp_safe("  %t21 = load <4 x i32>, ptr addrspace(7) %v27, align 4"));
    }
}
