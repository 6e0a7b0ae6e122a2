//! libLLVM 19's C API for the AMDGPU target: the only unsafe code of the in-process
//! backend. The library itself is found and loaded by the `softnavi-llvm` crate.
//!
//! [`Llvm::get`] resolves every function once; [`Llvm::compile`]
//! turns IR text into an ET_REL code object. LLVM is thread-safe as long as each thread
//! has its own context, module and target machine, which each compile creates and
//! disposes: compiles from several threads run concurrently.

use std::ffi::{c_char, c_int, CStr};
use std::sync::OnceLock;

use crate::CompileError;

use llvm::{Bool as LLVMBool, Guard, Library, Ptr};

const TRIPLE: &CStr = c"amdgcn-amd-amdhsa";
const CPU: &CStr = c"gfx1100";
/// `LLVMCodeGenLevelDefault`: what `clang -O2` uses for code generation.
const CODEGEN_LEVEL_DEFAULT: c_int = 2;
/// `LLVMRelocPIC`.
const RELOC_PIC: c_int = 2;
/// `LLVMCodeModelDefault`.
const CODE_MODEL_DEFAULT: c_int = 0;
/// `LLVMReturnStatusAction`: the verifier reports instead of aborting.
const RETURN_STATUS_ACTION: c_int = 2;
/// `LLVMObjectFile`.
const OBJECT_FILE: c_int = 1;

/// The C API functions we call, resolved once.
struct Api {
    init_target_info: unsafe extern "C" fn(),
    init_target: unsafe extern "C" fn(),
    init_target_mc: unsafe extern "C" fn(),
    init_asm_printer: unsafe extern "C" fn(),
    context_create: unsafe extern "C" fn() -> Ptr,
    context_dispose: unsafe extern "C" fn(Ptr),
    create_buffer_copy: unsafe extern "C" fn(*const c_char, usize, *const c_char) -> Ptr,
    buffer_start: unsafe extern "C" fn(Ptr) -> *const c_char,
    buffer_size: unsafe extern "C" fn(Ptr) -> usize,
    dispose_buffer: unsafe extern "C" fn(Ptr),
    parse_ir: unsafe extern "C" fn(Ptr, Ptr, *mut Ptr, *mut *mut c_char) -> LLVMBool,
    verify_module: unsafe extern "C" fn(Ptr, c_int, *mut *mut c_char) -> LLVMBool,
    dispose_module: unsafe extern "C" fn(Ptr),
    target_from_triple: unsafe extern "C" fn(*const c_char, *mut Ptr, *mut *mut c_char) -> LLVMBool,
    create_target_machine:
        unsafe extern "C" fn(Ptr, *const c_char, *const c_char, *const c_char, c_int, c_int, c_int) -> Ptr,
    dispose_target_machine: unsafe extern "C" fn(Ptr),
    create_data_layout: unsafe extern "C" fn(Ptr) -> Ptr,
    set_data_layout: unsafe extern "C" fn(Ptr, Ptr),
    dispose_data_layout: unsafe extern "C" fn(Ptr),
    create_pass_options: unsafe extern "C" fn() -> Ptr,
    dispose_pass_options: unsafe extern "C" fn(Ptr),
    set_loop_interleaving: unsafe extern "C" fn(Ptr, LLVMBool),
    set_loop_vectorization: unsafe extern "C" fn(Ptr, LLVMBool),
    set_slp_vectorization: unsafe extern "C" fn(Ptr, LLVMBool),
    set_loop_unrolling: unsafe extern "C" fn(Ptr, LLVMBool),
    run_passes: unsafe extern "C" fn(Ptr, *const c_char, Ptr, Ptr) -> Ptr,
    get_error_message: unsafe extern "C" fn(Ptr) -> *mut c_char,
    dispose_error_message: unsafe extern "C" fn(*mut c_char),
    emit_to_memory: unsafe extern "C" fn(Ptr, Ptr, c_int, *mut *mut c_char, *mut Ptr) -> LLVMBool,
}

/// libLLVM 19 with the AMDGPU target initialised.
pub(crate) struct Llvm {
    api: Api,
    pub lib: &'static Library,
    target: Ptr,
}

// SAFETY: `target` is LLVM's immutable, process-global `Target` registry entry, and the C
// API functions are plain thread-safe entry points; every mutable LLVM object is created
// and disposed within one `compile` call.
unsafe impl Send for Llvm {}
// SAFETY: as for `Send`.
unsafe impl Sync for Llvm {}

impl Llvm {
    /// The process's libLLVM 19, loaded and initialised on first use; `Err` says why it
    /// cannot be used (every name tried).
    pub fn get() -> Result<&'static Llvm, &'static str> {
        static LLVM: OnceLock<Result<Llvm, String>> = OnceLock::new();
        LLVM.get_or_init(Llvm::load).as_ref().map_err(String::as_str)
    }

    fn load() -> Result<Llvm, String> {
        let lib = Library::get()?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the field's type is the C prototype of this LLVM 19 function
                // (llvm-c/*.h).
                unsafe { lib.sym($name) }?
            };
        }
        let api = Api {
            init_target_info: sym!(b"LLVMInitializeAMDGPUTargetInfo\0"),
            init_target: sym!(b"LLVMInitializeAMDGPUTarget\0"),
            init_target_mc: sym!(b"LLVMInitializeAMDGPUTargetMC\0"),
            init_asm_printer: sym!(b"LLVMInitializeAMDGPUAsmPrinter\0"),
            context_create: sym!(b"LLVMContextCreate\0"),
            context_dispose: sym!(b"LLVMContextDispose\0"),
            create_buffer_copy: sym!(b"LLVMCreateMemoryBufferWithMemoryRangeCopy\0"),
            buffer_start: sym!(b"LLVMGetBufferStart\0"),
            buffer_size: sym!(b"LLVMGetBufferSize\0"),
            dispose_buffer: sym!(b"LLVMDisposeMemoryBuffer\0"),
            parse_ir: sym!(b"LLVMParseIRInContext\0"),
            verify_module: sym!(b"LLVMVerifyModule\0"),
            dispose_module: sym!(b"LLVMDisposeModule\0"),
            target_from_triple: sym!(b"LLVMGetTargetFromTriple\0"),
            create_target_machine: sym!(b"LLVMCreateTargetMachine\0"),
            dispose_target_machine: sym!(b"LLVMDisposeTargetMachine\0"),
            create_data_layout: sym!(b"LLVMCreateTargetDataLayout\0"),
            set_data_layout: sym!(b"LLVMSetModuleDataLayout\0"),
            dispose_data_layout: sym!(b"LLVMDisposeTargetData\0"),
            create_pass_options: sym!(b"LLVMCreatePassBuilderOptions\0"),
            dispose_pass_options: sym!(b"LLVMDisposePassBuilderOptions\0"),
            set_loop_interleaving: sym!(b"LLVMPassBuilderOptionsSetLoopInterleaving\0"),
            set_loop_vectorization: sym!(b"LLVMPassBuilderOptionsSetLoopVectorization\0"),
            set_slp_vectorization: sym!(b"LLVMPassBuilderOptionsSetSLPVectorization\0"),
            set_loop_unrolling: sym!(b"LLVMPassBuilderOptionsSetLoopUnrolling\0"),
            run_passes: sym!(b"LLVMRunPasses\0"),
            get_error_message: sym!(b"LLVMGetErrorMessage\0"),
            dispose_error_message: sym!(b"LLVMDisposeErrorMessage\0"),
            emit_to_memory: sym!(b"LLVMTargetMachineEmitToMemoryBuffer\0"),
        };
        // SAFETY: the initialisers are idempotent and run once here (under the OnceLock),
        // before any compile.
        let target = unsafe {
            (api.init_target_info)();
            (api.init_target)();
            (api.init_target_mc)();
            (api.init_asm_printer)();
            let mut target = std::ptr::null_mut();
            let mut err = std::ptr::null_mut();
            if (api.target_from_triple)(TRIPLE.as_ptr(), &mut target, &mut err) != 0 {
                return Err(format!("no AMDGPU target: {}", lib.take_message(err)));
            }
            target
        };
        Ok(Llvm { api, lib, target })
    }

    /// Compiles IR text for gfx1100 as `clang -O2 -c` does (new pass manager `default<O2>`,
    /// codegen level Default, PIC) and returns the ET_REL object. LLVM's diagnostics are
    /// the error.
    pub fn compile(&self, ir: &str, wave64: bool) -> Result<Vec<u8>, CompileError> {
        let features = if wave64 { c"+wavefrontsize64" } else { c"+wavefrontsize32" };
        let api = &self.api;
        let fail = |what: &str, log: String| CompileError::Llvm { tool: format!("libLLVM ({what})"), log };
        // SAFETY: every pointer passed to LLVM below is either one it returned in this call
        // (checked non-null where LLVM may fail) or a live Rust buffer / NUL-terminated
        // constant; each object is disposed exactly once by its guard, in reverse order of
        // creation, after its last use. The memory buffer's ownership passes to
        // LLVMParseIRInContext, which frees it on every path.
        unsafe {
            let ctx = Guard((api.context_create)(), api.context_dispose);
            if ctx.0.is_null() {
                return Err(fail("context", "LLVMContextCreate returned null".into()));
            }
            let buf = (api.create_buffer_copy)(ir.as_ptr().cast(), ir.len(), c"shader.ll".as_ptr());
            if buf.is_null() {
                return Err(fail("parse", "cannot copy the IR into a memory buffer".into()));
            }
            let mut module = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            if (api.parse_ir)(ctx.0, buf, &mut module, &mut msg) != 0 || module.is_null() {
                return Err(fail("parse", self.lib.take_message(msg)));
            }
            self.lib.take_message(msg);
            let module = Guard(module, api.dispose_module);

            let mut msg = std::ptr::null_mut();
            let invalid = (api.verify_module)(module.0, RETURN_STATUS_ACTION, &mut msg) != 0;
            let log = self.lib.take_message(msg);
            if invalid {
                return Err(fail("verify", log));
            }

            let tm = Guard(
                (api.create_target_machine)(
                    self.target,
                    TRIPLE.as_ptr(),
                    CPU.as_ptr(),
                    features.as_ptr(),
                    CODEGEN_LEVEL_DEFAULT,
                    RELOC_PIC,
                    CODE_MODEL_DEFAULT,
                ),
                api.dispose_target_machine,
            );
            if tm.0.is_null() {
                return Err(fail("target machine", "LLVMCreateTargetMachine returned null".into()));
            }
            let layout = Guard((api.create_data_layout)(tm.0), api.dispose_data_layout);
            (api.set_data_layout)(module.0, layout.0);

            // clang -O2's pipeline tuning: loop and SLP vectorisation and unrolling on.
            let opts = Guard((api.create_pass_options)(), api.dispose_pass_options);
            (api.set_loop_interleaving)(opts.0, 1);
            (api.set_loop_vectorization)(opts.0, 1);
            (api.set_slp_vectorization)(opts.0, 1);
            (api.set_loop_unrolling)(opts.0, 1);
            let err = (api.run_passes)(module.0, c"default<O2>".as_ptr(), tm.0, opts.0);
            if !err.is_null() {
                let m = (api.get_error_message)(err); // consumes `err`
                let log = if m.is_null() { String::new() } else { CStr::from_ptr(m).to_string_lossy().into_owned() };
                if !m.is_null() {
                    (api.dispose_error_message)(m);
                }
                return Err(fail("optimise", log));
            }

            let mut msg = std::ptr::null_mut();
            let mut out = std::ptr::null_mut();
            if (api.emit_to_memory)(tm.0, module.0, OBJECT_FILE, &mut msg, &mut out) != 0 || out.is_null() {
                return Err(fail("codegen", self.lib.take_message(msg)));
            }
            self.lib.take_message(msg);
            let out = Guard(out, api.dispose_buffer);
            let (start, size) = ((api.buffer_start)(out.0), (api.buffer_size)(out.0));
            if start.is_null() {
                return Ok(Vec::new());
            }
            Ok(std::slice::from_raw_parts(start.cast::<u8>(), size).to_vec())
        }
    }
}
