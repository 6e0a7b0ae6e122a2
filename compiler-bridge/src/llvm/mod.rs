//! LLVM 19 invocation: LLVM IR text → AMDHSA gfx1100 code object.
//!
//! Three backends behind [`compile_ir`]: libLLVM 19 driven through its C API in the
//! compile server `softnavi-llvmd` ([`Backend::Server`], an ET_REL object; [`server`] is
//! the client, [`serve`] the server), the same in this process ([`Backend::InProcess`]),
//! and the `clang-19` / `ld.lld-19` processes ([`Backend::Process`], an ET_DYN object);
//! the loader accepts both kinds. Only the in-process one lets an LLVM crash end the
//! application. `SOFTNAVI_LLVM` chooses: `server`, `inproc`, `process`, or `auto` (the
//! default: the server when it is found and libLLVM 19 loads, else the processes).

mod ffi;
mod process;
mod serve;
pub mod server;
mod wire;

pub use serve::serve;

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
    /// libLLVM 19 in `softnavi-llvmd` processes: contained.
    Server,
    /// libLLVM 19 loaded into this process: an LLVM crash ends the process.
    InProcess,
    /// `clang-19` and `ld.lld-19` run as processes.
    Process,
}

impl Backend {
    pub fn name(self) -> &'static str {
        match self {
            Backend::Server => "server",
            Backend::InProcess => "inproc",
            Backend::Process => "process",
        }
    }

    /// Whether this backend can be used here (the server is found and libLLVM 19 loads /
    /// libLLVM 19 loads / the tools exist).
    pub fn is_available(self) -> bool {
        match self {
            Backend::Server => server::Pool::global().is_ok(),
            Backend::InProcess => ffi::Llvm::get().is_ok(),
            Backend::Process => tool_path(Tool::Clang).is_file() && tool_path(Tool::Lld).is_file(),
        }
    }

    /// What identifies the compiler behind this backend, for cache keys: the library or
    /// tools, their LLVM version, and the files' sizes and modification times (so that
    /// an upgrade in place misses the cache). The server and the in-process backend run
    /// the same code on the same library ([`library_identity`]), so they share entries.
    pub fn identity(self) -> Result<String, CompileError> {
        match self {
            Backend::Server | Backend::InProcess => {
                let lib = llvm::Library::get().map_err(|e| CompileError::Tool(format!("libLLVM 19: {e}")))?;
                Ok(library_identity(lib))
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

/// The libLLVM `lib` is, for cache keys and the server's greeting: version, name and
/// file stamp.
fn library_identity(lib: &llvm::Library) -> String {
    let (major, minor, patch) = lib.version;
    format!("libLLVM {major}.{minor}.{patch} {} {}", lib.path, file_stamp(Path::new(lib.path)))
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
/// once): `server` or `inproc` (an error when the server cannot be found or libLLVM 19
/// cannot be loaded), `process`, or `auto` / unset (the server when possible, else the
/// processes).
pub fn default_backend() -> Result<Backend, CompileError> {
    static CHOICE: OnceLock<Result<Backend, String>> = OnceLock::new();
    CHOICE
        .get_or_init(|| {
            let var = std::env::var("SOFTNAVI_LLVM").unwrap_or_default();
            let lib = llvm::Library::get().map(|l| l.path);
            let server = server::locate();
            let choice = select(&var, lib, server.as_deref().map_err(String::as_str));
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
/// not) and where the server is (or why it was not found), with the reason.
fn select(var: &str, llvm: Result<&str, &str>, server: Result<&Path, &str>) -> Result<(Backend, String), String> {
    const PROCESSES: &str = "clang-19 / ld.lld-19 processes (contained, slower)";
    match (var.trim(), llvm, server) {
        ("inproc", Ok(path), _) => Ok((
            Backend::InProcess,
            format!("in-process {path} (SOFTNAVI_LLVM=inproc: an LLVM crash ends the application)"),
        )),
        ("inproc" | "server", Err(e), _) => Err(format!("SOFTNAVI_LLVM={var} but libLLVM 19 cannot be loaded: {e}")),
        ("server", Ok(_), Err(e)) => Err(format!("SOFTNAVI_LLVM=server but {e}")),
        ("server" | "" | "auto", Ok(path), Ok(server)) => {
            Ok((Backend::Server, format!("compile server {} with {path}", server.display())))
        }
        ("process", ..) => Ok((Backend::Process, format!("{PROCESSES} (SOFTNAVI_LLVM=process)"))),
        ("" | "auto", Err(e), _) => Ok((Backend::Process, format!("{PROCESSES}: libLLVM 19 cannot be loaded: {e}"))),
        ("" | "auto", Ok(_), Err(e)) => Ok((Backend::Process, format!("{PROCESSES}: {e}"))),
        (other, ..) => Err(format!("SOFTNAVI_LLVM={other}: expected auto, server, inproc or process")),
    }
}

/// Compiles LLVM IR for `amdgcn-amd-amdhsa` gfx1100 at -O2 with the [`default_backend`].
/// Errors carry LLVM's diagnostics.
pub fn compile_ir(ir: &str, opts: &CodegenOptions) -> Result<Vec<u8>, CompileError> {
    compile_ir_with(ir, opts, default_backend()?)
}

/// [`compile_ir`] with the given backend: an ET_REL object from libLLVM, an ET_DYN one
/// from the processes. Invalid IR is an error from all three, never an abort; a fatal
/// error or crash inside LLVM is an error from the server and the processes.
pub fn compile_ir_with(ir: &str, opts: &CodegenOptions, backend: Backend) -> Result<Vec<u8>, CompileError> {
    compile_ir_by(ir, opts, backend).map(|(elf, _)| elf)
}

/// [`compile_ir_with`], and whether it fell back to the processes because no server could
/// be started (then the object is not the backend's, and must not be cached as its).
pub(crate) fn compile_ir_by(
    ir: &str,
    opts: &CodegenOptions,
    backend: Backend,
) -> Result<(Vec<u8>, bool), CompileError> {
    let first = match backend {
        // The SLP vectoriser of libLLVM's pipeline cannot be turned off (its
        // PassBuilderOptions setting has no effect there): such modules go to clang.
        Backend::Server | Backend::InProcess if !slp_allowed(ir) => {
            tracing::debug!("8- or 16-bit buffer accesses: compiled by clang-19 without SLP vectorisation");
            return process::compile(ir, opts, false).map(|elf| (elf, false));
        }
        Backend::Server => {
            let pool = server::Pool::global().map_err(|e| CompileError::Tool(format!("compile server: {e}")))?;
            match pool.compile(ir, opts) {
                Ok(elf) => Ok((elf, false)),
                Err(server::Failure::Compile(e)) => Err(e),
                Err(server::Failure::Start(why)) => {
                    tracing::debug!("{why}: compiled by the clang-19 / ld.lld-19 processes");
                    process::compile(ir, opts, true).map(|elf| (elf, true))
                }
            }
        }
        Backend::InProcess => {
            let llvm = ffi::Llvm::get().map_err(|e| CompileError::Tool(format!("libLLVM 19: {e}")))?;
            return llvm.compile(ir, opts.wave64).map(|elf| (elf, false));
        }
        Backend::Process => process::compile(ir, opts, true).map(|elf| (elf, false)),
    };
    match first {
        // SOFTNAVI_LLVM_SLP=on turns the workaround off here too: LLVM's failure stands.
        Err(e) if !slp_forced() && slp_failure(ir, &e) => {
            tracing::debug!("{e}: compiled again by clang-19 without SLP vectorisation");
            // Deterministic, like the 8- and 16-bit route above: cached as the backend's.
            process::compile(ir, opts, false).map(|elf| (elf, false))
        }
        other => other,
    }
}

/// The translation tier's compiles (`gpu::jit::set_host_compiler`) in the compile server:
/// `llvm::host::compile` there, so that an LLVM failure fails only that translation.
/// Without a server (none found, or none starts) the compile runs in this process, logged
/// at debug level. `Err` is LLVM's message or how the server died.
pub fn compile_host(ir: &str, passes: &str, target: &llvm::host::HostTarget) -> Result<Vec<u8>, String> {
    let result = match server::Pool::global() {
        Ok(pool) => pool.compile_host(ir, passes, target),
        Err(why) => Err(server::Failure::Start(why)),
    };
    match result {
        Ok(object) => Ok(object),
        Err(server::Failure::Compile(e)) => Err(e.to_string()),
        Err(server::Failure::Start(why)) => {
            tracing::debug!("{why}: the translation is compiled in this process");
            llvm::host::compile(ir, passes, target)
        }
    }
}

/// Whether `e` is LLVM 19's instruction selection failing on a buffer fat pointer
/// (`addrspace(7)`) access the SLP vectoriser widened: it merges scalar loads of
/// consecutive 64-bit values (a reduction over `uvec2` compares, for example) into
/// `<4 x i64>` and wider buffer loads, which the AMDGPU backend cannot select ("Cannot
/// select: v4i64 = BUFFER_LOAD"). No flag bounds what SLP builds for reductions, and a
/// module's IR before optimisation does not show it, so such a module is compiled again
/// without SLP (the CTS's `ssbo.layout.random.*` found it).
fn slp_failure(ir: &str, e: &CompileError) -> bool {
    let CompileError::Llvm { log, .. } = e else { return false };
    ir.contains("ptr addrspace(7)")
        && ["Cannot select", "Do not know how to split", "Do not know how to widen", "Do not know how to scalarize"]
            .iter()
            .any(|m| log.contains(m))
}

/// Whether `ir` may be compiled with SLP vectorisation: when [`slp_safe`], or when
/// `SOFTNAVI_LLVM_SLP=on` turns the workarounds off (every module then goes to the chosen
/// backend with SLP on, and is not compiled again without it when LLVM fails: to see whether a newer LLVM still needs the workaround, and for
/// the tests that LLVM's failures are contained). Read once.
pub(crate) fn slp_allowed(ir: &str) -> bool {
    slp_forced() || slp_safe(ir)
}

/// `SOFTNAVI_LLVM_SLP=on` (read once).
fn slp_forced() -> bool {
    static FORCED: OnceLock<bool> = OnceLock::new();
    *FORCED.get_or_init(|| {
        let on = std::env::var("SOFTNAVI_LLVM_SLP").is_ok_and(|v| v.trim() == "on");
        if on {
            tracing::warn!("SOFTNAVI_LLVM_SLP=on: SLP vectorisation for every shader; LLVM 19 fails on some");
        }
        on
    })
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
        let found: Result<&Path, &str> = Ok(Path::new("/x/softnavi-llvmd"));
        let absent: Result<&Path, &str> = Err("softnavi-llvmd not found (looked for /x/softnavi-llvmd)");
        let pick = |var, llvm, server| select(var, llvm, server).map(|(b, _)| b);
        assert_eq!(pick("", loaded, found), Ok(Backend::Server));
        assert_eq!(pick("auto", loaded, found), Ok(Backend::Server));
        assert_eq!(pick("server", loaded, found), Ok(Backend::Server));
        assert_eq!(pick("", missing, found), Ok(Backend::Process));
        assert_eq!(pick("", loaded, absent), Ok(Backend::Process));
        assert_eq!(pick("process", loaded, found), Ok(Backend::Process));
        assert_eq!(pick("inproc", loaded, absent), Ok(Backend::InProcess));
        assert!(pick("inproc", missing, found).unwrap_err().contains("not found"));
        assert!(pick("server", loaded, absent).unwrap_err().contains("looked for"));
        assert!(pick("server", missing, found).is_err());
        assert!(pick("llvm", loaded, found).is_err());
        assert!(select("", missing, found).unwrap().1.contains("not found"), "the log says why");
        assert!(select("", loaded, absent).unwrap().1.contains("looked for"), "the log says why");
        assert!(select("inproc", loaded, found).unwrap().1.contains("crash ends the application"));
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

    #[test]
    fn selection_failures_on_buffer_accesses_are_compiled_again_without_slp() {
        let e = |log: &str| crate::CompileError::Llvm { tool: "softnavi-llvmd".into(), log: log.into() };
        let ir = "  %t13 = load <2 x i32>, ptr addrspace(7) %v21, align 4";
        let sel = e("LLVM fatal error: Cannot select: v4i64,ch = BUFFER_LOAD<(load (s256))>");
        assert!(super::slp_failure(ir, &sel));
        assert!(!super::slp_failure("  %t13 = load <2 x i32>, ptr addrspace(1) %v21, align 4", &sel));
        assert!(!super::slp_failure(ir, &e("error: use of undefined value '%t9'")));
        assert!(!super::slp_failure(ir, &crate::CompileError::Tool("Cannot select".into())));
    }
}
