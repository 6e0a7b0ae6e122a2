//! The compile server's side: what `softnavi-llvmd --serve` runs. It loads libLLVM 19
//! with [`super::ffi`], greets its client with the library's identity, then compiles one
//! request at a time from stdin and answers on stdout ([`super::wire`]): shaders for
//! gfx1100, and the translation tier's host code (`llvm::host::compile`). It holds no state
//! between requests, so a client may kill and restart it at any point. LLVM's fatal errors
//! reach the client as an `F` frame before the process exits; a crash is seen by the
//! client as the socket's end and the exit signal.

use std::io::Write;

use super::{ffi, wire};
use crate::CompileError;

/// Runs the server until its client closes the connection; returns the exit status (0 at
/// a clean end, 1 when libLLVM cannot be used or the client went away mid-frame, 2 for a
/// malformed request).
pub fn serve() -> i32 {
    llvm::on_fatal_error(send_fatal);
    let mut input = std::io::stdin().lock();
    let llvm = match ffi::Llvm::get() {
        Ok(l) => l,
        Err(e) => {
            let _ = wire::write_frame(&mut std::io::stdout().lock(), wire::NO_LLVM, &[e.as_bytes()]);
            return 1;
        }
    };
    let hello = super::library_identity(llvm.lib);
    if wire::write_frame(&mut std::io::stdout().lock(), wire::HELLO, &[hello.as_bytes()]).is_err() {
        return 1;
    }
    loop {
        let request = match wire::read_frame(&mut input) {
            Ok(None) => return 0,
            Ok(Some(r)) => r,
            Err(e) => {
                eprintln!("softnavi-llvmd: reading a request: {e}");
                return 1;
            }
        };
        let reply = match request {
            (wire::COMPILE, payload) if !payload.is_empty() => compile(llvm, payload[0], &payload[1..]),
            (wire::HOST_COMPILE, payload) => host_compile(&payload),
            (tag, _) => {
                eprintln!("softnavi-llvmd: unexpected request {tag:#04x}");
                return 2;
            }
        };
        if std::io::stdout().lock().write_all(&reply).and_then(|()| std::io::stdout().flush()).is_err() {
            return 1;
        }
    }
}

/// The reply frame to a compile request.
fn compile(llvm: &ffi::Llvm, flags: u8, ir: &[u8]) -> Vec<u8> {
    let result = std::str::from_utf8(ir)
        .map_err(|e| CompileError::Tool(format!("the IR is not UTF-8: {e}")))
        .and_then(|ir| llvm.compile(ir, flags & wire::WAVE64 != 0));
    match result {
        Ok(elf) => wire::frame(wire::OBJECT, &[&elf]),
        Err(CompileError::Llvm { tool, log }) => {
            wire::frame(wire::LLVM_ERROR, &[tool.as_bytes(), b"\0", log.as_bytes()])
        }
        Err(e) => wire::frame(wire::LLVM_ERROR, &[b"softnavi-llvmd\0", e.to_string().as_bytes()]),
    }
}

/// The reply frame to a host compile request (the translation tier's).
fn host_compile(payload: &[u8]) -> Vec<u8> {
    let result = wire::parse_host_compile(payload).and_then(|(ir, passes, t)| llvm::host::compile(ir, passes, &t));
    match result {
        Ok(object) => wire::frame(wire::OBJECT, &[&object]),
        Err(log) => wire::frame(wire::LLVM_ERROR, &[b"libLLVM (host)\0", log.as_bytes()]),
    }
}

/// LLVM's fatal-error hook: the reason goes to the client; LLVM exits the process next.
fn send_fatal(reason: &str) {
    let _ = wire::write_frame(&mut std::io::stdout().lock(), wire::FATAL, &[reason.trim_end().as_bytes()]);
}
