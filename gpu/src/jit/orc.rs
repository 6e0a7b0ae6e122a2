//! LLVM 19's ORC JIT (LLJIT) through the C API of the libLLVM that `softnavi-llvm` loads:
//! IR text in, the address of a host function out. The only unsafe code of the
//! translation tier besides the calls into translated code.
//!
//! One [`Orc`] per process, used from one thread at a time (the translator's compile
//! thread holds it behind a mutex). Each module gets its own thread-safe context, which ORC
//! disposes with the module once it is compiled; the machine code stays for the life of
//! the process.

use std::ffi::{c_char, CStr, CString};
use std::sync::OnceLock;

use llvm::{Bool, Guard, Library, Ptr};

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
    add_module: unsafe extern "C" fn(Ptr, Ptr, Ptr) -> Error,
    lookup: unsafe extern "C" fn(Ptr, *mut Addr, *const c_char) -> Error,
    new_ts_context: unsafe extern "C" fn() -> Ptr,
    ts_context_get: unsafe extern "C" fn(Ptr) -> Ptr,
    dispose_ts_context: unsafe extern "C" fn(Ptr),
    new_ts_module: unsafe extern "C" fn(Ptr, Ptr) -> Ptr,
    create_buffer_copy: unsafe extern "C" fn(*const c_char, usize, *const c_char) -> Ptr,
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
    error_message: unsafe extern "C" fn(Error) -> *mut c_char,
    dispose_error_message: unsafe extern "C" fn(*mut c_char),
}

/// `LLVMReturnStatusAction`: the verifier reports instead of aborting.
const RETURN_STATUS_ACTION: i32 = 2;
/// `LLVMCodeGenLevelDefault`, `LLVMRelocDefault`, `LLVMCodeModelJITDefault`.
const CODEGEN_DEFAULT: i32 = 2;
const RELOC_DEFAULT: i32 = 0;
const CODE_MODEL_JIT_DEFAULT: i32 = 1;

/// The process's LLJIT for the host.
pub struct Orc {
    api: Api,
    lib: &'static Library,
    jit: Ptr,
    dylib: Ptr,
    /// A target machine for the host, for the optimisation pipeline's cost models.
    tm: Ptr,
    triple: CString,
    layout: CString,
}

// SAFETY: the LLJIT and the target machine are only used through `&mut Orc` (one thread
// at a time, see the module docs); ORC itself is thread-safe for the code it returns.
unsafe impl Send for Orc {}

impl Orc {
    /// The LLJIT for this host, created on first use; `Err` says why it cannot be had.
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
            add_module: sym!(b"LLVMOrcLLJITAddLLVMIRModule\0"),
            lookup: sym!(b"LLVMOrcLLJITLookup\0"),
            new_ts_context: sym!(b"LLVMOrcCreateNewThreadSafeContext\0"),
            ts_context_get: sym!(b"LLVMOrcThreadSafeContextGetContext\0"),
            dispose_ts_context: sym!(b"LLVMOrcDisposeThreadSafeContext\0"),
            new_ts_module: sym!(b"LLVMOrcCreateNewThreadSafeModule\0"),
            create_buffer_copy: sym!(b"LLVMCreateMemoryBufferWithMemoryRangeCopy\0"),
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
            error_message: sym!(b"LLVMGetErrorMessage\0"),
            dispose_error_message: sym!(b"LLVMDisposeErrorMessage\0"),
        };
        let mut orc = Orc {
            api,
            lib,
            jit: std::ptr::null_mut(),
            dylib: std::ptr::null_mut(),
            tm: std::ptr::null_mut(),
            triple: CString::default(),
            layout: CString::default(),
        };
        orc.init()?;
        Ok(orc)
    }

    fn init(&mut self) -> Result<(), String> {
        // The X86 target is registered once per process (the initialisers are idempotent,
        // but LLVM's registry is not safe to initialise from two threads at once).
        static TARGETS: OnceLock<()> = OnceLock::new();
        let api = &self.api;
        TARGETS.get_or_init(|| {
            // SAFETY: plain initialisers, run once.
            unsafe {
                (api.init_target_info)();
                (api.init_target)();
                (api.init_target_mc)();
                (api.init_asm_printer)();
            }
        });
        // SAFETY: every pointer passed to LLVM is one it returned here (checked) or a
        // NUL-terminated constant; the JIT's target machine passes to its builder and the
        // builder to the LLJIT; the generator passes to the dylib.
        unsafe {
            let triple = (api.default_triple)();
            self.triple = CStr::from_ptr(triple).to_owned();
            self.lib.take_message(triple);
            let mut target = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            if (api.target_from_triple)(self.triple.as_ptr(), &mut target, &mut msg) != 0 {
                return Err(format!("no host target: {}", self.lib.take_message(msg)));
            }
            let cpu = (api.host_cpu_name)();
            let host_features = (api.host_cpu_features)();
            let features = CString::new(vector_width_256(&CStr::from_ptr(host_features).to_string_lossy()))
                .map_err(|e| e.to_string())?;
            self.lib.take_message(host_features);
            let tm = |tm_api: &Api| {
                (tm_api.create_target_machine)(
                    target,
                    self.triple.as_ptr(),
                    cpu,
                    features.as_ptr(),
                    CODEGEN_DEFAULT,
                    RELOC_DEFAULT,
                    CODE_MODEL_JIT_DEFAULT,
                )
            };
            self.tm = tm(api);
            let jit_tm = tm(api);
            self.lib.take_message(cpu);
            if self.tm.is_null() || jit_tm.is_null() {
                return Err("LLVMCreateTargetMachine returned null for the host".into());
            }
            let builder = (api.create_builder)();
            (api.builder_set_jtmb)(builder, (api.jtmb_from_tm)(jit_tm));
            let mut jit = std::ptr::null_mut();
            self.check((api.create_lljit)(&mut jit, builder), "create LLJIT")?;
            self.jit = jit;
            self.dylib = (api.main_dylib)(jit);
            // libc for what codegen may call (memcpy, memset, the libm functions).
            let mut gen = std::ptr::null_mut();
            let prefix = (api.global_prefix)(jit);
            let err = (api.process_symbols)(&mut gen, prefix, std::ptr::null_mut(), std::ptr::null_mut());
            self.check(err, "process symbol generator")?;
            (api.add_generator)(self.dylib, gen);
            self.layout = CStr::from_ptr((api.data_layout)(jit)).to_owned();
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
    /// compiles it; returns the address of each of `symbols`.
    pub fn compile(&mut self, ir: &str, passes: &str, symbols: &[&str]) -> Result<Vec<u64>, String> {
        let api = &self.api;
        let passes = CString::new(passes).map_err(|e| e.to_string())?;
        // SAFETY: as in `init`; the module's ownership passes to the thread-safe module,
        // and that one's to the JIT (which disposes both); on the error paths before that
        // the guards dispose what was created.
        unsafe {
            let tsc = Guard((api.new_ts_context)(), api.dispose_ts_context);
            let ctx = (api.ts_context_get)(tsc.0);
            let buf = (api.create_buffer_copy)(ir.as_ptr().cast(), ir.len(), c"softnavi-jit.ll".as_ptr());
            if buf.is_null() {
                return Err("cannot copy the IR into a memory buffer".into());
            }
            let mut module = std::ptr::null_mut();
            let mut msg = std::ptr::null_mut();
            // LLVMParseIRInContext takes the buffer on every path.
            if (api.parse_ir)(ctx, buf, &mut module, &mut msg) != 0 || module.is_null() {
                return Err(format!("parse: {}", self.lib.take_message(msg)));
            }
            self.lib.take_message(msg);
            let mut module = Guard(module, api.dispose_module);
            let mut msg = std::ptr::null_mut();
            let invalid = (api.verify_module)(module.0, RETURN_STATUS_ACTION, &mut msg) != 0;
            let log = self.lib.take_message(msg);
            if invalid {
                return Err(format!("verify: {log}"));
            }
            (api.set_data_layout)(module.0, self.layout.as_ptr());
            (api.set_target)(module.0, self.triple.as_ptr());
            let opts = Guard((api.create_pass_options)(), api.dispose_pass_options);
            self.check((api.run_passes)(module.0, passes.as_ptr(), self.tm, opts.0), "optimise")?;
            let tsm = (api.new_ts_module)(module.0, tsc.0);
            module.0 = std::ptr::null_mut();
            self.check((api.add_module)(self.jit, self.dylib, tsm), "add module")?;
            let mut out = Vec::with_capacity(symbols.len());
            for s in symbols {
                let name = CString::new(*s).map_err(|e| e.to_string())?;
                let mut addr = 0;
                self.check((api.lookup)(self.jit, &mut addr, name.as_ptr()), "compile")?;
                out.push(addr);
            }
            Ok(out)
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

impl Drop for Orc {
    fn drop(&mut self) {
        // The LLJIT is never disposed: translated code may still run on other threads
        // until the process ends. The target machine is ours alone.
        if !self.tm.is_null() {
            // SAFETY: created in `init`, used only by `compile`.
            unsafe { (self.api.dispose_target_machine)(self.tm) }
        }
    }
}
