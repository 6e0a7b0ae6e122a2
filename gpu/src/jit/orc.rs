//! LLVM 19 for the translation tier, through the C API of the libLLVM that `softnavi-llvm`
//! loads: IR text to a host object file ([`Orc::compile`], on any thread, in parallel),
//! and ORC's LLJIT to link objects into the process ([`Orc::load`]). The only unsafe code
//! of the translation tier besides the calls into translated code.
//!
//! Compiling and linking are separate so that compiles run concurrently (each with its
//! own context and target machine; LLJIT's own compile step shares one target machine)
//! and so that an object can come from a cache. Linked code stays for the life of the
//! process.

use std::ffi::{c_char, CStr, CString};
use std::sync::OnceLock;

use llvm::{Bool, Guard, Library, Ptr};
use parking_lot::Mutex;

/// `LLVMOrcExecutorAddress`.
type Addr = u64;
/// `LLVMErrorRef` (null: success).
type Error = Ptr;

/// The C API functions the JIT calls (llvm-c/Orc.h, LLJIT.h, Core.h, IRReader.h,
/// Transforms/PassBuilder.h, TargetMachine.h), resolved once.
struct Api {
    init_target_info: unsafe extern "C" fn(),
    init_target: unsafe extern "C" fn(),
    init_target_mc: unsafe extern "C" fn(),
    init_asm_printer: unsafe extern "C" fn(),
    create_builder: unsafe extern "C" fn() -> Ptr,
    jtmb_from_tm: unsafe extern "C" fn(Ptr) -> Ptr,
    builder_set_jtmb: unsafe extern "C" fn(Ptr, Ptr),
    default_triple: unsafe extern "C" fn() -> *mut c_char,
    create_lljit: unsafe extern "C" fn(*mut Ptr, Ptr) -> Error,
    main_dylib: unsafe extern "C" fn(Ptr) -> Ptr,
    global_prefix: unsafe extern "C" fn(Ptr) -> c_char,
    data_layout: unsafe extern "C" fn(Ptr) -> *const c_char,
    process_symbols: unsafe extern "C" fn(*mut Ptr, c_char, Ptr, Ptr) -> Error,
    add_generator: unsafe extern "C" fn(Ptr, Ptr),
    add_object: unsafe extern "C" fn(Ptr, Ptr, Ptr) -> Error,
    lookup: unsafe extern "C" fn(Ptr, *mut Addr, *const c_char) -> Error,
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
    host_cpu_name: unsafe extern "C" fn() -> *mut c_char,
    host_cpu_features: unsafe extern "C" fn() -> *mut c_char,
    create_target_machine: unsafe extern "C" fn(Ptr, *const c_char, *const c_char, *const c_char, i32, i32, i32) -> Ptr,
    dispose_target_machine: unsafe extern "C" fn(Ptr),
    create_pass_options: unsafe extern "C" fn() -> Ptr,
    dispose_pass_options: unsafe extern "C" fn(Ptr),
    run_passes: unsafe extern "C" fn(Ptr, *const c_char, Ptr, Ptr) -> Error,
    emit_to_memory: unsafe extern "C" fn(Ptr, Ptr, i32, *mut *mut c_char, *mut Ptr) -> Bool,
    error_message: unsafe extern "C" fn(Error) -> *mut c_char,
    dispose_error_message: unsafe extern "C" fn(*mut c_char),
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

/// The host target and the process's LLJIT.
pub struct Orc {
    api: Api,
    lib: &'static Library,
    /// The LLJIT and its main dylib, used under the lock.
    jit: Mutex<(Ptr, Ptr)>,
    /// The host target (LLVM's immutable registry entry), triple, CPU and features.
    target: Ptr,
    triple: CString,
    cpu: CString,
    features: CString,
    layout: CString,
}

// SAFETY: the LLJIT is used only under its mutex; `target` is immutable; compiles create
// and dispose their own context, module and target machine.
unsafe impl Send for Orc {}
// SAFETY: as for `Send`.
unsafe impl Sync for Orc {}

impl Orc {
    /// The host target and an LLJIT; `Err` says why they cannot be had.
    pub fn create() -> Result<Orc, String> {
        let lib = Library::get()?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the field's type is the C prototype of this LLVM 19 function.
                unsafe { lib.sym($name) }?
            };
        }
        let api = Api {
            init_target_info: sym!(b"LLVMInitializeX86TargetInfo\0"),
            init_target: sym!(b"LLVMInitializeX86Target\0"),
            init_target_mc: sym!(b"LLVMInitializeX86TargetMC\0"),
            init_asm_printer: sym!(b"LLVMInitializeX86AsmPrinter\0"),
            create_builder: sym!(b"LLVMOrcCreateLLJITBuilder\0"),
            jtmb_from_tm: sym!(b"LLVMOrcJITTargetMachineBuilderCreateFromTargetMachine\0"),
            builder_set_jtmb: sym!(b"LLVMOrcLLJITBuilderSetJITTargetMachineBuilder\0"),
            default_triple: sym!(b"LLVMGetDefaultTargetTriple\0"),
            create_lljit: sym!(b"LLVMOrcCreateLLJIT\0"),
            main_dylib: sym!(b"LLVMOrcLLJITGetMainJITDylib\0"),
            global_prefix: sym!(b"LLVMOrcLLJITGetGlobalPrefix\0"),
            data_layout: sym!(b"LLVMOrcLLJITGetDataLayoutStr\0"),
            process_symbols: sym!(b"LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess\0"),
            add_generator: sym!(b"LLVMOrcJITDylibAddGenerator\0"),
            add_object: sym!(b"LLVMOrcLLJITAddObjectFile\0"),
            lookup: sym!(b"LLVMOrcLLJITLookup\0"),
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
            host_cpu_name: sym!(b"LLVMGetHostCPUName\0"),
            host_cpu_features: sym!(b"LLVMGetHostCPUFeatures\0"),
            create_target_machine: sym!(b"LLVMCreateTargetMachine\0"),
            dispose_target_machine: sym!(b"LLVMDisposeTargetMachine\0"),
            create_pass_options: sym!(b"LLVMCreatePassBuilderOptions\0"),
            dispose_pass_options: sym!(b"LLVMDisposePassBuilderOptions\0"),
            run_passes: sym!(b"LLVMRunPasses\0"),
            emit_to_memory: sym!(b"LLVMTargetMachineEmitToMemoryBuffer\0"),
            error_message: sym!(b"LLVMGetErrorMessage\0"),
            dispose_error_message: sym!(b"LLVMDisposeErrorMessage\0"),
        };
        // The X86 target is registered once per process (the initialisers are idempotent,
        // but LLVM's registry is not safe to initialise from two threads at once).
        static TARGETS: OnceLock<()> = OnceLock::new();
        TARGETS.get_or_init(|| {
            // SAFETY: plain initialisers, run once.
            unsafe {
                (api.init_target_info)();
                (api.init_target)();
                (api.init_target_mc)();
                (api.init_asm_printer)();
            }
        });
        // SAFETY: LLVM-allocated strings are copied and disposed once; `target` is the
        // registry's entry for the triple.
        let (triple, target, cpu, features) = unsafe {
            let t = (api.default_triple)();
            let triple = CStr::from_ptr(t).to_owned();
            lib.take_message(t);
            let mut target = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            if (api.target_from_triple)(triple.as_ptr(), &mut target, &mut msg) != 0 {
                return Err(format!("no host target: {}", lib.take_message(msg)));
            }
            let c = (api.host_cpu_name)();
            let cpu = CStr::from_ptr(c).to_owned();
            lib.take_message(c);
            let f = (api.host_cpu_features)();
            let features = vector_width_256(&CStr::from_ptr(f).to_string_lossy());
            lib.take_message(f);
            (triple, target, cpu, CString::new(features).map_err(|e| e.to_string())?)
        };
        let mut orc = Orc {
            api,
            lib,
            jit: Mutex::new((std::ptr::null_mut(), std::ptr::null_mut())),
            target,
            triple,
            cpu,
            features,
            layout: CString::default(),
        };
        orc.create_jit()?;
        Ok(orc)
    }

    /// What the compiled code depends on besides its IR: the host triple, CPU and
    /// features (for cache keys).
    pub fn identity(&self) -> String {
        format!(
            "{} {} {} LLVM {:?}",
            self.triple.to_string_lossy(),
            self.cpu.to_string_lossy(),
            self.features.to_string_lossy(),
            self.lib.version
        )
    }

    /// A target machine for the host (null if LLVM refuses).
    fn target_machine(&self) -> Ptr {
        // SAFETY: every argument is a live, NUL-terminated string or the target entry.
        unsafe {
            (self.api.create_target_machine)(
                self.target,
                self.triple.as_ptr(),
                self.cpu.as_ptr(),
                self.features.as_ptr(),
                CODEGEN_DEFAULT,
                RELOC_PIC,
                CODE_MODEL_JIT_DEFAULT,
            )
        }
    }

    fn create_jit(&mut self) -> Result<(), String> {
        let api = &self.api;
        let tm = self.target_machine();
        if tm.is_null() {
            return Err("LLVMCreateTargetMachine returned null for the host".into());
        }
        // SAFETY: the target machine passes to the JIT target machine builder, that one
        // to the LLJIT builder, and the builder to the LLJIT; the generator passes to the
        // dylib.
        unsafe {
            let builder = (api.create_builder)();
            (api.builder_set_jtmb)(builder, (api.jtmb_from_tm)(tm));
            let mut jit = std::ptr::null_mut();
            self.check((api.create_lljit)(&mut jit, builder), "create LLJIT")?;
            let dylib = (api.main_dylib)(jit);
            // libc for what codegen may call (memcpy, memset, the libm functions).
            let mut gen = std::ptr::null_mut();
            let prefix = (api.global_prefix)(jit);
            let err = (api.process_symbols)(&mut gen, prefix, std::ptr::null_mut(), std::ptr::null_mut());
            self.check(err, "process symbol generator")?;
            (api.add_generator)(dylib, gen);
            self.layout = CStr::from_ptr((api.data_layout)(jit)).to_owned();
            *self.jit.lock() = (jit, dylib);
        }
        Ok(())
    }

    /// The message of an `LLVMErrorRef` (consumed), or `Ok` for success.
    ///
    /// # Safety
    /// `err` is null or an unconsumed error LLVM returned.
    unsafe fn check(&self, err: Error, what: &str) -> Result<(), String> {
        if err.is_null() {
            return Ok(());
        }
        // SAFETY: `error_message` consumes the error; the message is disposed once.
        unsafe {
            let m = (self.api.error_message)(err);
            let text = if m.is_null() { String::new() } else { CStr::from_ptr(m).to_string_lossy().into_owned() };
            if !m.is_null() {
                (self.api.dispose_error_message)(m);
            }
            Err(format!("{what}: {text}"))
        }
    }

    /// Parses `ir`, verifies it, optimises it with `passes` (new pass manager syntax) and
    /// compiles it for the host into an object file. Safe to call from several threads.
    pub fn compile(&self, ir: &str, passes: &str) -> Result<Vec<u8>, String> {
        let api = &self.api;
        let passes = CString::new(passes).map_err(|e| e.to_string())?;
        // SAFETY: every object is created here and disposed once by its guard, in reverse
        // order of creation, after its last use; the IR buffer passes to the parser.
        unsafe {
            let ctx = Guard((api.context_create)(), api.context_dispose);
            let buf = (api.create_buffer_copy)(ir.as_ptr().cast(), ir.len(), c"softnavi-jit.ll".as_ptr());
            if buf.is_null() {
                return Err("cannot copy the IR into a memory buffer".into());
            }
            let mut module = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            // LLVMParseIRInContext takes the buffer on every path.
            if (api.parse_ir)(ctx.0, buf, &mut module, &mut msg) != 0 || module.is_null() {
                return Err(format!("parse: {}", self.lib.take_message(msg)));
            }
            self.lib.take_message(msg);
            let module = Guard(module, api.dispose_module);
            let mut msg = std::ptr::null_mut();
            let invalid = (api.verify_module)(module.0, RETURN_STATUS_ACTION, &mut msg) != 0;
            let log = self.lib.take_message(msg);
            if invalid {
                return Err(format!("verify: {log}"));
            }
            (api.set_data_layout)(module.0, self.layout.as_ptr());
            (api.set_target)(module.0, self.triple.as_ptr());
            let tm = Guard(self.target_machine(), api.dispose_target_machine);
            if tm.0.is_null() {
                return Err("LLVMCreateTargetMachine returned null for the host".into());
            }
            let opts = Guard((api.create_pass_options)(), api.dispose_pass_options);
            self.check((api.run_passes)(module.0, passes.as_ptr(), tm.0, opts.0), "optimise")?;
            let mut msg = std::ptr::null_mut();
            let mut out = std::ptr::null_mut();
            if (api.emit_to_memory)(tm.0, module.0, OBJECT_FILE, &mut msg, &mut out) != 0 || out.is_null() {
                return Err(format!("codegen: {}", self.lib.take_message(msg)));
            }
            self.lib.take_message(msg);
            let out = Guard(out, api.dispose_buffer);
            let (start, size) = ((api.buffer_start)(out.0), (api.buffer_size)(out.0));
            if start.is_null() {
                return Err("codegen produced no object".into());
            }
            Ok(std::slice::from_raw_parts(start.cast::<u8>(), size).to_vec())
        }
    }

    /// Links `object` into the process and returns the address of `symbol` in it.
    pub fn load(&self, object: &[u8], symbol: &str) -> Result<u64, String> {
        let api = &self.api;
        let name = CString::new(symbol).map_err(|e| e.to_string())?;
        let jit = self.jit.lock();
        // SAFETY: the buffer passes to the LLJIT (which disposes it); the LLJIT and dylib
        // are used under their lock.
        unsafe {
            let buf = (api.create_buffer_copy)(object.as_ptr().cast(), object.len(), c"softnavi-jit.o".as_ptr());
            if buf.is_null() {
                return Err("cannot copy the object into a memory buffer".into());
            }
            self.check((api.add_object)(jit.0, jit.1, buf), "link")?;
            let mut addr = 0;
            self.check((api.lookup)(jit.0, &mut addr, name.as_ptr()), "look up")?;
            Ok(addr)
        }
    }
}

/// The host's features without AVX-512 (and AVX10): translated code uses 256-bit vectors,
/// as the rest of softnavi is built for (x86-64-v3). LLVM 19's AVX-512 lowering
/// miscompiles a masked bit-select (`vpternlogd` with a merge mask got the wrong
/// immediate for `select(exec, (a & m) | (b & ~m), a)`), which the translation of every
/// VALU instruction under EXEC produces.
fn vector_width_256(host: &str) -> String {
    host.split(',')
        .filter(|f| !f.is_empty())
        .map(|f| {
            let name = &f[1..];
            if f.starts_with('+') && ["avx512", "evex512", "avx10", "amx"].iter().any(|p| name.starts_with(p)) {
                format!("-{name}")
            } else {
                f.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join(",")
}
