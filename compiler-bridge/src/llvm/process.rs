//! The process backend: `clang-19 -O2 -c` then `ld.lld-19 -shared`, through temporary
//! files. Slower than the in-process one (two process starts and file I/O per shader), but
//! it needs nothing beyond the LLVM tools.

use std::process::{Command, Stdio};

use super::{tool_path, CodegenOptions, TempDir, Tool, TARGET_ARGS};
use crate::CompileError;

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
        // A fatal error's crash report (stack dump, bug report plea) adds nothing for us.
        if let Some(end) = log.find("PLEASE submit a bug report") {
            log.truncate(end);
        }
        Err(CompileError::Llvm { tool: path.display().to_string(), log })
    }
}

/// Compiles LLVM IR for `amdgcn-amd-amdhsa` gfx1100 at -O2 and links it into a shared
/// code object (ET_DYN), with SLP vectorisation when `slp` and [`super::slp_allowed`].
/// Errors carry the tool's diagnostics.
pub(super) fn compile(ir: &str, opts: &CodegenOptions, slp: bool) -> Result<Vec<u8>, CompileError> {
    let dir = TempDir::new()?;
    let ll = dir.0.join("shader.ll");
    let obj = dir.0.join("shader.o");
    let so = dir.0.join("shader.so");
    std::fs::write(&ll, ir).map_err(|e| CompileError::Tool(format!("write {}: {e}", ll.display())))?;

    let mut args: Vec<&std::ffi::OsStr> = vec!["-x".as_ref(), "ir".as_ref(), ll.as_os_str()];
    args.extend(TARGET_ARGS.iter().map(std::ffi::OsStr::new));
    // clang release builds skip the IR verifier, and broken IR can then make the optimiser
    // loop forever: verify first, as the in-process backend does.
    args.extend(["-O2", "-fverify-intermediate-code", "-c", "-o"].map(std::ffi::OsStr::new));
    args.push(obj.as_os_str());
    if opts.wave64 {
        args.push("-mwavefrontsize64".as_ref());
    }
    if !slp || !super::slp_allowed(ir) {
        args.push("-fno-slp-vectorize".as_ref());
    }
    run(Tool::Clang, &args)?;
    run(Tool::Lld, &["-shared".as_ref(), obj.as_os_str(), "-o".as_ref(), so.as_os_str()])?;
    std::fs::read(&so).map_err(|e| CompileError::Tool(format!("read {}: {e}", so.display())))
}
