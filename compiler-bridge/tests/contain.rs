//! Containment of LLVM (issue 22, item 1): IR on which LLVM 19 itself fails with a fatal
//! error is an error naming LLVM's message from the compile server and from the clang/lld
//! processes, IR that crashes LLVM is an error naming the signal, the process that asked
//! lives on, and the next compile works; a compile over the timeout kills its server and
//! the next one starts afresh. The same for the translation tier's host (x86-64) compiles
//! (`compile_host`).
//!
//! Without a test harness: this binary is also the compile server its tests start
//! (`contain --serve` runs `compiler_bridge::llvm::serve`, as `softnavi-llvmd --serve`
//! does), so the tests need no other build's binary.

use std::time::{Duration, Instant};

use compiler_bridge::elf::CodeObject;
use compiler_bridge::llvm::server::{Failure, Pool};
use compiler_bridge::llvm::{compile_host, compile_ir_with, serve};
use compiler_bridge::{Backend, CodegenOptions, CompileError};
use llvm::host::HostTarget;

/// A buffer fat pointer load and store of `<6 x i8>`: LLVM 19's AMDGPU type legalisation
/// has no rule for it and calls `report_fatal_error` ("Do not know how to widen the result
/// of this operator!"); `llc-19 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx1100` aborts on it
/// (SIGABRT), and so does `clang-19 -x ir`. The lowering never emits it
/// (`split_vector_access`, `llvm::slp_safe`), but it is what SLP makes of 8-bit buffer
/// accesses when left on.
const FATAL_IR: &str = r#"
define amdgpu_kernel void @main(ptr addrspace(8) %rsrc) {
  %fat = addrspacecast ptr addrspace(8) %rsrc to ptr addrspace(7)
  %v = load <6 x i8>, ptr addrspace(7) %fat, align 1
  %p = getelementptr i8, ptr addrspace(7) %fat, i32 64
  store <6 x i8> %v, ptr addrspace(7) %p, align 1
  ret void
}
"#;

/// LLVM's message for [`FATAL_IR`].
const FATAL_MESSAGE: &str = "Do not know how to widen the result of this operator";

/// A valid kernel.
const GOOD_IR: &str = r#"
define amdgpu_kernel void @good(ptr addrspace(1) %out, i32 %x) {
  %id = call i32 @llvm.amdgcn.workitem.id.x()
  %v = mul i32 %id, %x
  %p = getelementptr i32, ptr addrspace(1) %out, i32 %id
  store i32 %v, ptr addrspace(1) %p, align 4
  ret void
}
declare i32 @llvm.amdgcn.workitem.id.x()
"#;

const WAVE32: CodegenOptions = CodegenOptions { wave64: false };

fn assert_good(elf: &[u8]) {
    let co = CodeObject::parse(elf).expect("a loadable code object");
    assert!(co.kernel("good").is_some(), "the kernel is in the code object");
}

fn llvm_log(r: Result<Vec<u8>, CompileError>) -> String {
    match r {
        Err(CompileError::Llvm { tool, log }) => format!("{tool}: {log}"),
        other => panic!("expected an LLVM error, got {other:?}"),
    }
}

/// The server reports LLVM's fatal error, the next compile starts a new server and works,
/// and the server's object is the in-process one byte for byte (so the two share cache
/// entries).
fn server_contains_a_fatal_error() {
    let good = compile_ir_with(GOOD_IR, &WAVE32, Backend::Server).expect("a valid module compiles");
    assert_good(&good);
    for round in 0..2 {
        let log = llvm_log(compile_ir_with(FATAL_IR, &WAVE32, Backend::Server));
        println!("  {log}");
        assert!(log.contains(FATAL_MESSAGE), "round {round}: LLVM's message is reported: {log}");
        assert!(log.contains("fatal error"), "round {round}: {log}");
        let after = compile_ir_with(GOOD_IR, &WAVE32, Backend::Server).expect("the next compile works");
        assert_eq!(after, good, "round {round}: a restarted server compiles the same object");
    }
    let inproc = compile_ir_with(GOOD_IR, &WAVE32, Backend::InProcess).expect("in-process compile");
    assert_eq!(inproc, good, "the server runs the in-process backend's code");
}

/// A module whose constant is 200,000 nested `getelementptr`s: LLVM's IR parser recurses
/// once per level and overflows its stack (`llc-19` dies of SIGSEGV on it). The server
/// dies of a signal; the error says which, and the next compile works.
fn server_contains_a_crash() {
    let depth = 200_000;
    let mut ir = String::from("@g = addrspace(1) global [4 x i32] zeroinitializer\n");
    ir.push_str("define amdgpu_kernel void @deep(ptr addrspace(1) %out) {\n  store ptr addrspace(1) ");
    ir.push_str(&"getelementptr (i8, ptr addrspace(1) ".repeat(depth));
    ir.push_str("@g");
    ir.push_str(&", i64 1)".repeat(depth));
    ir.push_str(", ptr addrspace(1) %out\n  ret void\n}\n");
    let log = llvm_log(compile_ir_with(&ir, &WAVE32, Backend::Server));
    println!("  {}", log.lines().next().unwrap_or_default());
    assert!(log.contains("killed by SIG"), "the signal is named: {log}");
    assert_good(&compile_ir_with(GOOD_IR, &WAVE32, Backend::Server).expect("the next compile works"));
}

/// The clang/lld processes (the fallback) contain it too.
fn processes_contain_a_fatal_error() {
    let log = llvm_log(compile_ir_with(FATAL_IR, &WAVE32, Backend::Process));
    assert!(log.contains(FATAL_MESSAGE), "clang's message is reported: {log}");
    assert!(!log.contains("PLEASE submit"), "the crash report is cut: {log}");
    assert_good(&compile_ir_with(GOOD_IR, &WAVE32, Backend::Process).expect("the next compile works"));
}

/// A compile over the timeout kills its server and is an error; the pool then starts a new
/// server for the next compile.
fn timeout_kills_the_server() {
    let exe = std::env::current_exe().expect("own path");
    let id = Backend::Server.identity().expect("libLLVM 19 loads");
    let pool = Pool::new(exe.clone(), id.clone(), Some(Duration::from_millis(1)));
    // A module the server takes well over a millisecond for: many independent stores.
    let mut big = String::from("define amdgpu_kernel void @big(ptr addrspace(1) %out, float %x) {\n");
    for i in 0..500 {
        big.push_str(&format!(
            "  %a{i} = fmul float %x, {i}.0\n  %p{i} = getelementptr float, ptr addrspace(1) %out, i32 {i}\n  store float %a{i}, ptr addrspace(1) %p{i}, align 4\n"
        ));
    }
    big.push_str("  ret void\n}\n");
    let start = Instant::now();
    match pool.compile(&big, &WAVE32) {
        Err(Failure::Compile(CompileError::Llvm { log, .. })) => {
            println!("  {log}");
            assert!(log.contains("no answer after 1 ms"), "{log}");
        }
        Err(Failure::Start(why)) => panic!("the server should start: {why}"),
        other => panic!("expected a timeout, got {:?}", other.map(|e| e.len())),
    }
    assert!(start.elapsed() < Duration::from_secs(30), "the timeout ended the wait");
    let patient = Pool::new(exe, id, None);
    assert!(patient.compile(&big, &WAVE32).is_ok(), "without the limit it compiles");
}

/// LLVM's diagnostics for an invalid module are an ordinary error; the server lives on.
fn invalid_ir_keeps_the_server() {
    let log = llvm_log(compile_ir_with("define void @f( {", &WAVE32, Backend::Server));
    assert!(log.contains("parse"), "{log}");
    assert_good(&compile_ir_with(GOOD_IR, &WAVE32, Backend::Server).expect("the next compile works"));
}

/// A host target as the translation tier's `Orc` describes one (the data layout is
/// LLJIT's for x86-64 Linux).
fn host_target() -> HostTarget {
    HostTarget {
        triple: "x86_64-pc-linux-gnu".into(),
        cpu: "x86-64-v3".into(),
        features: "+avx2,+fma,-avx512f".into(),
        layout: "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128".into(),
    }
}

/// A valid host function: lanes under a mask, as translated VALU code looks.
const GOOD_HOST_IR: &str = r#"
define void @blend(ptr %v, <8 x i32> %m) {
  %a = load <8 x i32>, ptr %v, align 4
  %b = mul <8 x i32> %a, %m
  %c = icmp ne <8 x i32> %m, zeroinitializer
  %d = select <8 x i1> %c, <8 x i32> %b, <8 x i32> %a
  store <8 x i32> %d, ptr %v, align 4
  ret void
}
"#;

/// An AVX-512 intrinsic for a CPU without AVX-512: x86 type legalisation calls
/// `report_fatal_error` ("Do not know how to split the result of this operator!";
/// `llc-19 -mcpu=x86-64-v3` aborts on it).
const FATAL_HOST_IR: &str = r#"
define <16 x float> @f(<16 x float> %a) {
  %r = call <16 x float> @llvm.x86.avx512.rsqrt14.ps.512(<16 x float> %a, <16 x float> %a, i16 -1)
  ret <16 x float> %r
}
declare <16 x float> @llvm.x86.avx512.rsqrt14.ps.512(<16 x float>, <16 x float>, i16)
"#;

/// An x86-64 relocatable ELF object that defines `symbol`.
fn assert_host_object(elf: &[u8], symbol: &str) {
    use object::{Object, ObjectSymbol};
    let file = object::File::parse(elf).expect("an object file");
    assert_eq!(file.format(), object::BinaryFormat::Elf);
    assert_eq!(file.kind(), object::ObjectKind::Relocatable);
    assert_eq!(file.architecture(), object::Architecture::X86_64);
    assert!(file.symbols().any(|s| s.is_definition() && s.name() == Ok(symbol)), "{symbol} is defined");
}

/// Host compiles in the server: a valid module gives the in-process object byte for byte;
/// a fatal error and a crash in LLVM's x86 backend or parser are errors naming LLVM's
/// message or the signal, and the next compile works.
fn server_contains_host_compile_failures() {
    let t = host_target();
    let good = compile_host(GOOD_HOST_IR, "default<O2>", &t).expect("a valid module compiles");
    assert_host_object(&good, "blend");
    let inproc = llvm::host::compile(GOOD_HOST_IR, "default<O2>", &t).expect("in-process compile");
    assert_eq!(good, inproc, "the server compiles with the client's target, as in-process");
    let fatal = compile_host(FATAL_HOST_IR, "default<O2>", &t).expect_err("LLVM fails");
    println!("  {fatal}");
    assert!(fatal.contains("fatal error") && fatal.contains("Do not know how to split"), "{fatal}");
    assert_eq!(compile_host(GOOD_HOST_IR, "default<O2>", &t).as_deref(), Ok(&good[..]), "the next compile works");
    let depth = 200_000;
    let mut deep = String::from("@g = global [4 x i32] zeroinitializer\ndefine void @deep(ptr %out) {\n  store ptr ");
    deep.push_str(&"getelementptr (i8, ptr ".repeat(depth));
    deep.push_str("@g");
    deep.push_str(&", i64 1)".repeat(depth));
    deep.push_str(", ptr %out\n  ret void\n}\n");
    let crash = compile_host(&deep, "default<O2>", &t).expect_err("the parser overflows its stack");
    println!("  {}", crash.lines().next().unwrap_or_default());
    assert!(crash.contains("killed by SIG"), "the signal is named: {crash}");
    let invalid = compile_host("define void @f( {", "default<O2>", &t).expect_err("invalid IR");
    assert!(invalid.contains("parse"), "{invalid}");
    assert_host_object(&compile_host(GOOD_HOST_IR, "default<O2>", &t).expect("the next compile works"), "blend");
}

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--serve") {
        std::process::exit(serve());
    }
    // Before any other thread exists: the server the pool starts is this binary.
    std::env::set_var("SOFTNAVI_LLVMD", std::env::current_exe().expect("own path"));
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let tests: [(&str, fn()); 6] = [
        ("server_contains_a_fatal_error", server_contains_a_fatal_error),
        ("server_contains_a_crash", server_contains_a_crash),
        ("processes_contain_a_fatal_error", processes_contain_a_fatal_error),
        ("timeout_kills_the_server", timeout_kills_the_server),
        ("invalid_ir_keeps_the_server", invalid_ir_keeps_the_server),
        ("server_contains_host_compile_failures", server_contains_host_compile_failures),
    ];
    for (name, test) in tests {
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        let start = Instant::now();
        test();
        println!("test {name} ... ok ({:.2} s)", start.elapsed().as_secs_f64());
    }
}
