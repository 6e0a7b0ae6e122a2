//! IR text to a host (x86-64) object file: the code generation of the GPU model's
//! translation tier. It lives here, not in the gpu crate, so that the compile server
//! (`softnavi-llvmd`) runs the same code on the same parameters as an in-process compile:
//! the translation tier sends its compiles there when the ICD installs the server as its
//! host compiler, and calls [`compile`] itself otherwise.

use std::ffi::{c_char, CString};
use std::sync::OnceLock;

use crate::{Bool, Guard, Library, Ptr};

/// What host code is compiled for; the client of a compile server sends it with each
/// request, so that the server's code is the code an in-process compile would give.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct HostTarget {
    pub triple: String,
    pub cpu: String,
    /// LLVM's feature string (`+avx2,-avx512f,...`).
    pub features: String,
    /// The data layout the linker expects (LLJIT's).
    pub layout: String,
}

/// The C API functions a compile calls (llvm-c/Core.h, IRReader.h, Analysis.h,
/// TargetMachine.h, Transforms/PassBuilder.h), resolved once.
struct Api {
    lib: &'static Library,
    context_create: unsafe extern "C" fn() -> Ptr,
    context_dispose: unsafe extern "C" fn(Ptr),
    create_buffer_copy: unsafe extern "C" fn(*const c_char, usize, *const c_char) -> Ptr,
    buffer_start: unsafe extern "C" fn(Ptr) -> *const c_char,
    buffer_size: unsafe extern "C" fn(Ptr) -> usize,
    dispose_buffer: unsafe extern "C" fn(Ptr),
    parse_ir: unsafe extern "C" fn(Ptr, Ptr, *mut Ptr, *mut *mut c_char) -> Bool,
    verify_module: unsafe extern "C" fn(Ptr, i32, *mut *mut c_char) -> Bool,
    dispose_module: unsafe extern "C" fn(Ptr),
    set_data_layout: unsafe extern "C" fn(Ptr, *const c_char),
    set_target: unsafe extern "C" fn(Ptr, *const c_char),
    target_from_triple: unsafe extern "C" fn(*const c_char, *mut Ptr, *mut *mut c_char) -> Bool,
    create_target_machine: unsafe extern "C" fn(Ptr, *const c_char, *const c_char, *const c_char, i32, i32, i32) -> Ptr,
    dispose_target_machine: unsafe extern "C" fn(Ptr),
    create_pass_options: unsafe extern "C" fn() -> Ptr,
    dispose_pass_options: unsafe extern "C" fn(Ptr),
    run_passes: unsafe extern "C" fn(Ptr, *const c_char, Ptr, Ptr) -> Ptr,
    emit_to_memory: unsafe extern "C" fn(Ptr, Ptr, i32, *mut *mut c_char, *mut Ptr) -> Bool,
}

/// `LLVMReturnStatusAction`: the verifier reports instead of aborting.
const RETURN_STATUS_ACTION: i32 = 2;
/// `LLVMCodeGenLevelDefault`, `LLVMRelocPIC` (jump tables relative, wherever JITLink
/// places the code), `LLVMCodeModelJITDefault`.
const CODEGEN_DEFAULT: i32 = 2;
const RELOC_PIC: i32 = 2;
const CODE_MODEL_JIT_DEFAULT: i32 = 1;
/// `LLVMObjectFile`.
const OBJECT_FILE: i32 = 1;

/// The functions, with the X86 target registered (once per process: LLVM's registry is
/// not safe to initialise from two threads at once).
fn api() -> Result<&'static Api, String> {
    static API: OnceLock<Result<Api, String>> = OnceLock::new();
    API.get_or_init(load).as_ref().map_err(Clone::clone)
}

fn load() -> Result<Api, String> {
    let lib = Library::get()?;
    macro_rules! sym {
        ($name:literal) => {
            // SAFETY: the field's type is the C prototype of this LLVM 19 function.
            unsafe { lib.sym($name) }?
        };
    }
    let inits: [unsafe extern "C" fn(); 4] = [
        sym!(b"LLVMInitializeX86TargetInfo\0"),
        sym!(b"LLVMInitializeX86Target\0"),
        sym!(b"LLVMInitializeX86TargetMC\0"),
        sym!(b"LLVMInitializeX86AsmPrinter\0"),
    ];
    for init in inits {
        // SAFETY: plain initialisers, run once (under the OnceLock).
        unsafe { init() };
    }
    Ok(Api {
        lib,
        context_create: sym!(b"LLVMContextCreate\0"),
        context_dispose: sym!(b"LLVMContextDispose\0"),
        create_buffer_copy: sym!(b"LLVMCreateMemoryBufferWithMemoryRangeCopy\0"),
        buffer_start: sym!(b"LLVMGetBufferStart\0"),
        buffer_size: sym!(b"LLVMGetBufferSize\0"),
        dispose_buffer: sym!(b"LLVMDisposeMemoryBuffer\0"),
        parse_ir: sym!(b"LLVMParseIRInContext\0"),
        verify_module: sym!(b"LLVMVerifyModule\0"),
        dispose_module: sym!(b"LLVMDisposeModule\0"),
        set_data_layout: sym!(b"LLVMSetDataLayout\0"),
        set_target: sym!(b"LLVMSetTarget\0"),
        target_from_triple: sym!(b"LLVMGetTargetFromTriple\0"),
        create_target_machine: sym!(b"LLVMCreateTargetMachine\0"),
        dispose_target_machine: sym!(b"LLVMDisposeTargetMachine\0"),
        create_pass_options: sym!(b"LLVMCreatePassBuilderOptions\0"),
        dispose_pass_options: sym!(b"LLVMDisposePassBuilderOptions\0"),
        run_passes: sym!(b"LLVMRunPasses\0"),
        emit_to_memory: sym!(b"LLVMTargetMachineEmitToMemoryBuffer\0"),
    })
}

fn c_string(what: &str, s: &str) -> Result<CString, String> {
    CString::new(s).map_err(|e| format!("{what}: {e}"))
}

/// A target machine for `t` (its layout aside), owned by the caller: disposed with
/// `LLVMDisposeTargetMachine`, or handed to LLJIT.
pub fn target_machine(t: &HostTarget) -> Result<Ptr, String> {
    let api = api()?;
    let (triple, cpu, features) =
        (c_string("triple", &t.triple)?, c_string("cpu", &t.cpu)?, c_string("features", &t.features)?);
    // SAFETY: live NUL-terminated strings; the registry entry LLVM returns is immutable;
    // an error message is disposed once.
    unsafe {
        let mut target = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        if (api.target_from_triple)(triple.as_ptr(), &mut target, &mut msg) != 0 {
            return Err(format!("no target for {}: {}", t.triple, api.lib.take_message(msg)));
        }
        let tm = (api.create_target_machine)(
            target,
            triple.as_ptr(),
            cpu.as_ptr(),
            features.as_ptr(),
            CODEGEN_DEFAULT,
            RELOC_PIC,
            CODE_MODEL_JIT_DEFAULT,
        );
        if tm.is_null() {
            return Err(format!("LLVMCreateTargetMachine returned null for {}", t.triple));
        }
        Ok(tm)
    }
}

/// Parses `ir`, verifies it, optimises it with `passes` (new pass manager syntax) and
/// compiles it for `t` into an object file. Safe to call from several threads: each call
/// has its own context, module and target machine.
pub fn compile(ir: &str, passes: &str, t: &HostTarget) -> Result<Vec<u8>, String> {
    let api = api()?;
    let (passes, layout, triple) =
        (c_string("passes", passes)?, c_string("layout", &t.layout)?, c_string("triple", &t.triple)?);
    // SAFETY: every object is created here and disposed once by its guard, in reverse
    // order of creation, after its last use; the IR buffer passes to the parser.
    unsafe {
        let ctx = Guard((api.context_create)(), api.context_dispose);
        let module = Guard(parse(api, ctx.0, ir)?, api.dispose_module);
        let mut msg = std::ptr::null_mut();
        let invalid = (api.verify_module)(module.0, RETURN_STATUS_ACTION, &mut msg) != 0;
        let log = api.lib.take_message(msg);
        if invalid {
            return Err(format!("verify: {log}"));
        }
        (api.set_data_layout)(module.0, layout.as_ptr());
        (api.set_target)(module.0, triple.as_ptr());
        let tm = Guard(target_machine(t)?, api.dispose_target_machine);
        let opts = Guard((api.create_pass_options)(), api.dispose_pass_options);
        api.lib
            .take_error((api.run_passes)(module.0, passes.as_ptr(), tm.0, opts.0))
            .map_err(|e| format!("optimise: {e}"))?;
        emit(api, tm.0, module.0)
    }
}

/// The module parsed from `ir` in `ctx`, owned by the caller.
///
/// # Safety
/// `ctx` is a live context.
unsafe fn parse(api: &Api, ctx: Ptr, ir: &str) -> Result<Ptr, String> {
    // SAFETY: a live buffer of `ir.len()` bytes; LLVMParseIRInContext takes the memory
    // buffer on every path; the message is disposed once.
    unsafe {
        let buf = (api.create_buffer_copy)(ir.as_ptr().cast(), ir.len(), c"softnavi-jit.ll".as_ptr());
        if buf.is_null() {
            return Err("cannot copy the IR into a memory buffer".into());
        }
        let mut module = std::ptr::null_mut();
        let mut msg = std::ptr::null_mut();
        if (api.parse_ir)(ctx, buf, &mut module, &mut msg) != 0 || module.is_null() {
            return Err(format!("parse: {}", api.lib.take_message(msg)));
        }
        api.lib.take_message(msg);
        Ok(module)
    }
}

/// The object file of `module` compiled by `tm`.
///
/// # Safety
/// `tm` and `module` are live.
unsafe fn emit(api: &Api, tm: Ptr, module: Ptr) -> Result<Vec<u8>, String> {
    // SAFETY: per the contract; the output buffer is disposed by its guard after the copy.
    unsafe {
        let mut msg = std::ptr::null_mut();
        let mut out = std::ptr::null_mut();
        if (api.emit_to_memory)(tm, module, OBJECT_FILE, &mut msg, &mut out) != 0 || out.is_null() {
            return Err(format!("codegen: {}", api.lib.take_message(msg)));
        }
        api.lib.take_message(msg);
        let out = Guard(out, api.dispose_buffer);
        let (start, size) = ((api.buffer_start)(out.0), (api.buffer_size)(out.0));
        if start.is_null() {
            return Err("codegen produced no object".into());
        }
        Ok(std::slice::from_raw_parts(start.cast::<u8>(), size).to_vec())
    }
}

/// Makes the C math library's symbols visible to a lookup in the process's global scope,
/// where ORC's process symbol generator resolves what translated code calls (`exp2f`,
/// `log2f`). An application that does not link libm itself has it only as the ICD's
/// dependency, loaded by the Vulkan loader with RTLD_LOCAL and invisible there: the
/// translation would fail to link. Loading it again RTLD_GLOBAL promotes it (once; the
/// handle is kept for the life of the process).
pub fn global_libm() -> Result<(), String> {
    static LIBM: OnceLock<Result<(), String>> = OnceLock::new();
    LIBM.get_or_init(|| {
        let flags = libc::RTLD_NOW | libc::RTLD_GLOBAL;
        // SAFETY: libm's initialisers are the C library's own; loading it has no other effect.
        match unsafe { libloading::os::unix::Library::open(Some("libm.so.6"), flags) } {
            Ok(lib) => {
                std::mem::forget(lib);
                Ok(())
            }
            Err(e) => Err(format!("libm.so.6: {e}")),
        }
    })
    .clone()
}
