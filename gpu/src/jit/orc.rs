//! LLVM 19 for the translation tier, through the C API of the libLLVM that `softnavi-llvm`
//! loads: the host target, IR text to a host object file ([`Orc::compile`], which is
//! `llvm::host::compile`; the ICD may send it to the compile server instead), and ORC's
//! LLJIT to link objects into the process ([`Orc::load`]). The only unsafe code of the
//! translation tier besides the calls into translated code.
//!
//! Compiling and linking are separate so that compiles run concurrently (each with its
//! own context and target machine; LLJIT's own compile step shares one target machine),
//! so that they can run in another process, and so that an object can come from a cache.
//! Linked code stays for the life of the process.

use std::ffi::{c_char, CStr, CString};

use llvm::host::HostTarget;
use llvm::{Library, Ptr};
use parking_lot::Mutex;

/// `LLVMOrcExecutorAddress`.
type Addr = u64;
/// `LLVMErrorRef` (null: success).
type Error = Ptr;

/// The C API functions the JIT calls (llvm-c/Orc.h, LLJIT.h, Core.h, TargetMachine.h),
/// resolved once.
struct Api {
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
    create_buffer_copy: unsafe extern "C" fn(*const c_char, usize, *const c_char) -> Ptr,
    host_cpu_name: unsafe extern "C" fn() -> *mut c_char,
    host_cpu_features: unsafe extern "C" fn() -> *mut c_char,
}

/// The host target and the process's LLJIT.
pub struct Orc {
    api: Api,
    lib: &'static Library,
    /// The LLJIT and its main dylib, used under the lock.
    jit: Mutex<(Ptr, Ptr)>,
    host: HostTarget,
}

// SAFETY: the LLJIT is used only under its mutex; compiles create and dispose their own
// context, module and target machine.
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
            create_buffer_copy: sym!(b"LLVMCreateMemoryBufferWithMemoryRangeCopy\0"),
            host_cpu_name: sym!(b"LLVMGetHostCPUName\0"),
            host_cpu_features: sym!(b"LLVMGetHostCPUFeatures\0"),
        };
        // SAFETY: LLVM-allocated strings are copied and disposed once.
        let host = unsafe {
            let take = |s: *mut c_char| lib.take_message(s);
            HostTarget {
                triple: take((api.default_triple)()),
                cpu: take((api.host_cpu_name)()),
                features: vector_width_256(&take((api.host_cpu_features)())),
                layout: String::new(),
            }
        };
        let mut orc = Orc { api, lib, jit: Mutex::new((std::ptr::null_mut(), std::ptr::null_mut())), host };
        orc.create_jit()?;
        Ok(orc)
    }

    /// What the compiled code depends on besides its IR: the host triple, CPU and
    /// features (for cache keys).
    pub fn identity(&self) -> String {
        let h = &self.host;
        format!("{} {} {} LLVM {:?}", h.triple, h.cpu, h.features, self.lib.version)
    }

    /// The target every translation is compiled for, the LLJIT's data layout included.
    pub fn host(&self) -> &HostTarget {
        &self.host
    }

    fn create_jit(&mut self) -> Result<(), String> {
        let api = &self.api;
        let tm = llvm::host::target_machine(&self.host)?;
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
            llvm::host::global_libm()?;
            let mut gen = std::ptr::null_mut();
            let prefix = (api.global_prefix)(jit);
            let err = (api.process_symbols)(&mut gen, prefix, std::ptr::null_mut(), std::ptr::null_mut());
            self.check(err, "process symbol generator")?;
            (api.add_generator)(dylib, gen);
            self.host.layout = CStr::from_ptr((api.data_layout)(jit)).to_string_lossy().into_owned();
            *self.jit.lock() = (jit, dylib);
        }
        Ok(())
    }

    /// The message of an `LLVMErrorRef` (consumed), or `Ok` for success.
    ///
    /// # Safety
    /// `err` is null or an unconsumed error LLVM returned.
    unsafe fn check(&self, err: Error, what: &str) -> Result<(), String> {
        // SAFETY: per the contract.
        unsafe { self.lib.take_error(err) }.map_err(|e| format!("{what}: {e}"))
    }

    /// Compiles `ir` with `passes` for the host in this process ([`llvm::host::compile`]).
    pub fn compile(&self, ir: &str, passes: &str) -> Result<Vec<u8>, String> {
        llvm::host::compile(ir, passes, &self.host)
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
