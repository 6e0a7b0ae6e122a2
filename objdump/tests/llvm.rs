//! `softnavi-objdump` against LLVM 19: OpenCL C kernels compiled by clang-19 for gfx1100
//! (wave32 and wave64, linked and relocatable) must list every instruction line that
//! `llvm-objdump-19 -d --mcpu=gfx1100` prints with the same text, address and words; the
//! kernel descriptors must agree with the metadata `llvm-readelf-19 --notes` shows; bad
//! input is a clear error with exit status 1.
//!
//! clang-19, ld.lld-19 and llvm-objdump-19 are required (`scripts/setup` installs them):
//! without them these tests fail.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicU64, Ordering};

use compiler_bridge::llvm::{tool_path, Tool};

/// `global_id(0)` without the ROCm device library (`-nogpulib`): the default header
/// declares `get_global_id`, but nothing would define it.
const PRELUDE: &str = "#define GID (__builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x())\n";

const SAXPY: &str = r#"
kernel void saxpy(global float *y, global const float *x, float a, uint n) {
  uint i = GID;
  if (i < n) y[i] = a * x[i] + y[i];
}
"#;

/// LDS, barriers and a uniform loop; `group_segment_fixed_size` is 1024.
const REDUCE: &str = r#"
kernel void reduce(global uint *out, global const uint *in) {
  local uint tmp[256];
  uint l = __builtin_amdgcn_workitem_id_x();
  tmp[l] = in[GID];
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  for (uint s = 128; s > 0; s >>= 1) {
    if (l < s) tmp[l] += tmp[l + s];
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  }
  if (l == 0) out[__builtin_amdgcn_workgroup_id_x()] = tmp[0];
}
"#;

/// Integer division, bit counting, float math, conversions and literals.
const MATH: &str = r#"
kernel void math(global uint *o, global const float *a, uint d, int s, float k) {
  uint i = GID;
  float x = a[i], y = a[i + 64];
  uint v = as_uint(x);
  o[4 * i] = v / d + v % (d + 3);
  o[4 * i + 1] = (uint)((int)v / s) ^ (__builtin_popcount(v) + __builtin_clz(v | 1));
  o[4 * i + 2] = as_uint(__builtin_sqrtf(x) + __builtin_fmaf(x, y, k) + __builtin_floorf(y) * 0.5f);
  o[4 * i + 3] = (uint)(int)(x * y) + (x < y ? 7u : 1234567u);
}
"#;

/// A call to a non-kernel function, and a private array indexed at run time (scratch).
const CALLS: &str = r#"
__attribute__((noinline)) uint helper(global const uint *p, uint i) { return p[i] * p[i + 1] + 3; }
kernel void calls(global uint *o, global const uint *in, uint n) {
  volatile uint priv[32];
  uint i = GID;
  for (uint j = 0; j < 32; j++) priv[j] = in[i + j] * j;
  o[i] = helper(in, i) + priv[n & 31];
}
"#;

/// A private scratch directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(what: &str) -> Scratch {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("softnavi-objdump-{what}-{}-{n}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("create {}: {e}", dir.display()));
        Scratch(dir)
    }

    fn path(&self, name: &str) -> PathBuf {
        self.0.join(name)
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Runs an LLVM tool; a missing tool fails the test with a message saying what to install.
fn run_llvm<S: AsRef<std::ffi::OsStr>>(tool: Tool, args: &[S]) -> Vec<u8> {
    let path = tool_path(tool);
    let args: Vec<&std::ffi::OsStr> = args.iter().map(AsRef::as_ref).collect();
    let out = Command::new(&path).args(&args).output().unwrap_or_else(|e| {
        panic!(
            "cannot run {} ({e}): these tests need LLVM 19 (Debian: apt-get install clang-19 lld-19 llvm-19; \
             scripts/setup installs them)",
            path.display()
        )
    });
    assert!(out.status.success(), "{} {args:?} failed:\n{}", path.display(), String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// A compiled source: the relocatable object (`clang -c`) and the linked one (`ld.lld -shared`).
struct Compiled {
    _dir: Scratch,
    rel: PathBuf,
    linked: PathBuf,
}

/// Compiles OpenCL C for `mcpu` with clang-19 -O2 (wave64 with `-mwavefrontsize64`).
fn compile(src: &str, mcpu: &str, wave64: bool) -> Compiled {
    let dir = Scratch::new("cl");
    let (cl, rel, linked) = (dir.path("k.cl"), dir.path("k.o"), dir.path("k.so"));
    std::fs::write(&cl, format!("{PRELUDE}{src}")).unwrap();
    let mcpu = format!("-mcpu={mcpu}");
    let mut args: Vec<std::ffi::OsString> = ["-x", "cl", "-Xclang", "-finclude-default-header", "-cl-std=CL2.0"]
        .into_iter()
        .chain(["-target", "amdgcn-amd-amdhsa", &mcpu, "-nogpulib", "-O2", "-c"])
        .map(Into::into)
        .collect();
    if wave64 {
        args.push("-mwavefrontsize64".into());
    }
    args.extend([cl.into_os_string(), "-o".into(), rel.clone().into_os_string()]);
    run_llvm(Tool::Clang, &args);
    run_llvm(Tool::Lld, &["-shared".as_ref(), rel.as_os_str(), "-o".as_ref(), linked.as_os_str()]);
    Compiled { _dir: dir, rel, linked }
}

/// One instruction line: text (trimmed), address, words.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Line {
    text: String,
    addr: u64,
    words: Vec<u32>,
}

impl std::fmt::Display for Line {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let words: Vec<String> = self.words.iter().map(|w| format!("{w:08X}")).collect();
        write!(f, "{}  // {:012X}: {}", self.text, self.addr, words.join(" "))
    }
}

/// The `<text> // <12 hex digits>: <8-hex-digit words>[ <sym+off>]` lines of a listing.
fn instruction_lines(listing: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    for l in listing.lines() {
        let Some((text, rest)) = l.rsplit_once("// ") else { continue };
        let text = text.trim();
        let Some((addr, words)) = rest.split_once(':') else { continue };
        let addr = addr.trim();
        if text.is_empty() || addr.len() != 12 {
            continue;
        }
        let Ok(addr) = u64::from_str_radix(addr, 16) else { continue };
        let words: Option<Vec<u32>> = words
            .split_whitespace()
            .take_while(|w| !w.starts_with('<'))
            .map(|w| (w.len() == 8).then(|| u32::from_str_radix(w, 16).ok()).flatten())
            .collect();
        match words {
            Some(words) if !words.is_empty() => lines.push(Line { text: text.to_string(), addr, words }),
            _ => {}
        }
    }
    lines
}

fn llvm_objdump(obj: &Path, wave64: bool) -> String {
    let mut args: Vec<&std::ffi::OsStr> = vec!["-d".as_ref(), "--mcpu=gfx1100".as_ref()];
    if wave64 {
        args.push("--mattr=+wavefrontsize64".as_ref());
    }
    args.push(obj.as_os_str());
    String::from_utf8(run_llvm(Tool::Objdump, &args)).unwrap()
}

fn ours(args: &[&std::ffi::OsStr]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_softnavi-objdump")).args(args).output().expect("run softnavi-objdump")
}

/// Our listing of `obj`, which must succeed.
fn our_listing(obj: &Path) -> String {
    let out = ours(&[obj.as_os_str()]);
    assert!(
        out.status.success(),
        "softnavi-objdump {} failed ({}):\n{}",
        obj.display(),
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// Compares the instruction lines of `obj`: every line LLVM prints must be ours too (same
/// text, address and words), and we must print no instruction LLVM does not. Returns the
/// number of lines compared; mismatches are appended to `bad`.
fn compare(what: &str, obj: &Path, wave64: bool, bad: &mut Vec<String>) -> usize {
    let llvm = instruction_lines(&llvm_objdump(obj, wave64));
    assert!(!llvm.is_empty(), "{what}: llvm-objdump printed no instructions");
    let ours = instruction_lines(&our_listing(obj));
    let mut by_addr: HashMap<u64, &Line> = HashMap::new();
    for l in &ours {
        if by_addr.insert(l.addr, l).is_some() {
            bad.push(format!("{what}: we print address {:#x} twice", l.addr));
        }
    }
    for l in &llvm {
        match by_addr.remove(&l.addr) {
            None => bad.push(format!("{what}: missing\n  llvm: {l}")),
            Some(o) if o != l => bad.push(format!("{what}:\n  llvm: {l}\n  ours: {o}")),
            Some(_) => {}
        }
    }
    let mut extra: Vec<&Line> = by_addr.into_values().collect();
    extra.sort_by_key(|l| l.addr);
    bad.extend(extra.iter().map(|l| format!("{what}: not in llvm-objdump's listing\n  ours: {l}")));
    println!("{what}: {} instruction lines compared", llvm.len());
    llvm.len()
}

#[test]
fn instructions_match_llvm_objdump() {
    let mut bad = Vec::new();
    let mut compared = 0;
    let wave32 = compile(&[SAXPY, REDUCE, MATH, CALLS].concat(), "gfx1100", false);
    compared += compare("wave32, linked", &wave32.linked, false, &mut bad);
    compared += compare("wave32, relocatable", &wave32.rel, false, &mut bad);
    let wave64 = compile(&[REDUCE, MATH, CALLS].concat(), "gfx1100", true);
    compared += compare("wave64, linked", &wave64.linked, true, &mut bad);
    println!("{compared} instruction lines compared in all, {} mismatches", bad.len());
    for b in &bad {
        println!("MISMATCH {b}");
    }
    assert!(compared > 300, "only {compared} lines compared");
    assert!(bad.is_empty(), "{} mismatches with llvm-objdump-19:\n{}", bad.len(), bad.join("\n"));
}

/// The `.key: value` pairs of each kernel in `llvm-readelf --notes` (by `.name`).
fn readelf_kernels(obj: &Path) -> HashMap<String, HashMap<String, String>> {
    let notes = String::from_utf8(run_llvm_readelf(obj)).unwrap();
    let mut kernels = HashMap::new();
    let mut current: Option<HashMap<String, String>> = None;
    let mut finish = |k: Option<HashMap<String, String>>| {
        if let Some(k) = k {
            if let Some(name) = k.get(".name").cloned() {
                kernels.insert(name, k);
            }
        }
    };
    for l in notes.lines() {
        if l.starts_with("  - ") {
            finish(current.take());
            current = Some(HashMap::new());
        } else if let (Some(k), Some(rest)) = (current.as_mut(), l.strip_prefix("    .")) {
            if let Some((key, value)) = rest.split_once(':') {
                k.insert(format!(".{key}"), value.trim().to_string());
            }
        } else if l.starts_with("amdhsa.target") || l.starts_with("amdhsa.version") {
            finish(current.take());
        }
    }
    finish(current);
    kernels
}

fn run_llvm_readelf(obj: &Path) -> Vec<u8> {
    // llvm-readelf-19 sits next to llvm-objdump-19.
    let objdump = tool_path(Tool::Objdump);
    let name = if objdump.file_name().is_some_and(|n| n.to_string_lossy().ends_with("-19")) {
        "llvm-readelf-19"
    } else {
        "llvm-readelf"
    };
    let readelf = objdump.with_file_name(name);
    let out = Command::new(&readelf)
        .arg("--notes")
        .arg(obj)
        .output()
        .unwrap_or_else(|e| panic!("cannot run {} ({e}): install llvm-19 (scripts/setup does)", readelf.display()));
    assert!(out.status.success(), "{} failed:\n{}", readelf.display(), String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// The descriptor lines of kernel `name` in our listing, as (field, value) pairs.
fn descriptor_fields(listing: &str, name: &str) -> HashMap<String, String> {
    let header = format!("kernel {name} (");
    let mut lines = listing.lines().skip_while(|l| !l.starts_with(&header));
    assert!(lines.next().is_some(), "no `{header}` line in\n{listing}");
    let mut fields = HashMap::new();
    for l in lines.take_while(|l| !l.trim().is_empty()) {
        let l = l.split("//").next().unwrap_or_default().trim();
        if let Some((key, value)) = l.split_once(char::is_whitespace) {
            fields.insert(key.to_string(), value.trim().to_string());
        }
        // "user SGPRs", "wavefront size", "uses dynamic stack": two-word names.
        for long in ["user SGPRs", "wavefront size", "uses dynamic stack"] {
            if let Some(value) = l.strip_prefix(long) {
                fields.insert(long.to_string(), value.trim().to_string());
            }
        }
    }
    fields
}

#[test]
fn descriptors_agree_with_the_metadata() {
    for wave64 in [false, true] {
        let obj = compile(&[SAXPY, REDUCE, CALLS].concat(), "gfx1100", wave64);
        let listing = our_listing(&obj.linked);
        let notes = readelf_kernels(&obj.linked);
        for name in ["saxpy", "reduce", "calls"] {
            let f = descriptor_fields(&listing, name);
            let meta = &notes[name];
            let field = |key: &str| f.get(key).unwrap_or_else(|| panic!("{name}: no {key} in\n{listing}")).as_str();
            let what = format!("{name} (wave64 {wave64})");
            assert_eq!(field("group_segment_fixed_size"), meta[".group_segment_fixed_size"], "{what}");
            assert_eq!(field("private_segment_fixed_size"), meta[".private_segment_fixed_size"], "{what}");
            assert_eq!(field("kernarg_size"), meta[".kernarg_segment_size"], "{what}");
            assert_eq!(field("wavefront size"), meta[".wavefront_size"], "{what}");
            assert_eq!(field("ENABLE_WAVEFRONT_SIZE32"), if wave64 { "0" } else { "1" }, "{what}");
            assert_eq!(field("ENABLE_SGPR_KERNARG_SEGMENT_PTR"), "1", "{what}");
            assert_eq!(field("ENABLE_SGPR_WORKGROUP_ID_X"), "1", "{what}");
            assert_eq!(field("ENABLE_VGPR_WORKITEM_ID"), "0", "{what}");
            assert!(field("user SGPRs").contains("kernarg segment ptr"), "{what}: {}", field("user SGPRs"));
            assert_eq!(field("kernarg_preload"), "none", "{what}");
            for key in ["COMPUTE_PGM_RSRC1", "COMPUTE_PGM_RSRC2", "COMPUTE_PGM_RSRC3", "USER_SGPR_COUNT", "WGP_MODE"] {
                assert!(f.contains_key(key), "{what}: no {key}");
            }
        }
        // The LDS kernel: 256 uints.
        assert_eq!(descriptor_fields(&listing, "reduce")["group_segment_fixed_size"], "1024");
        assert_eq!(descriptor_fields(&listing, "saxpy")["group_segment_fixed_size"], "0");
        // The kernel with a private array uses scratch.
        let calls = descriptor_fields(&listing, "calls");
        assert_ne!(calls["private_segment_fixed_size"], "0", "calls: no scratch?\n{listing}");
        assert_eq!(calls["ENABLE_PRIVATE_SEGMENT"], "1");
        // The non-kernel function is listed, without a descriptor.
        assert!(listing.contains("function helper (no kernel descriptor)"), "{listing}");
    }
}

/// Runs our binary expecting failure: returns stderr.
fn expect_error(args: &[&std::ffi::OsStr]) -> String {
    let out = ours(args);
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(1), "{args:?}: status {}, stderr:\n{stderr}", out.status);
    assert!(!stderr.contains("panicked"), "{args:?} panicked:\n{stderr}");
    assert!(stderr.starts_with("softnavi-objdump: error: "), "{args:?}:\n{stderr}");
    assert!(out.stdout.is_empty(), "{args:?} printed to stdout");
    stderr
}

#[test]
fn non_gfx11_objects_are_rejected() {
    let obj = compile(SAXPY, "gfx1030", false);
    for file in [&obj.linked, &obj.rel] {
        let err = expect_error(&[file.as_os_str()]);
        assert!(err.contains("gfx1030") && err.contains("not gfx11"), "{err}");
    }
}

#[test]
fn non_gfx11_mcpu_is_rejected() {
    let obj = compile(SAXPY, "gfx1100", false);
    for cpu in ["gfx1030", "gfx90a", "gfx1200", "gfx11", "x86-64"] {
        let err = expect_error(&["--mcpu".as_ref(), cpu.as_ref(), obj.linked.as_os_str()]);
        assert!(err.contains(cpu) && err.contains("not a gfx11 processor"), "{err}");
    }
    for cpu in ["gfx1100", "gfx1101", "gfx1102", "gfx1103", "gfx1150", "gfx1151"] {
        let out = ours(&[format!("--mcpu={cpu}").as_ref(), obj.linked.as_os_str()]);
        assert!(out.status.success(), "--mcpu={cpu}: {}", String::from_utf8_lossy(&out.stderr));
    }
}

#[test]
fn wave_size_can_be_overridden() {
    let obj = compile(MATH, "gfx1100", false);
    let text = |args: &[&str]| {
        let mut a: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        a.push(obj.linked.as_os_str());
        let out = ours(&a);
        assert!(out.status.success(), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        String::from_utf8(out.stdout).unwrap()
    };
    let default = text(&[]);
    assert!(default.contains("vcc_lo") && default.contains("wave32):"), "{default}");
    let as64 = text(&["--wave64"]);
    assert!(!as64.contains("vcc_lo") && as64.contains("wave64):"), "{as64}");
    assert_eq!(text(&["--wave32"]), default);
}

#[test]
fn malformed_files_are_errors() {
    let obj = compile(SAXPY, "gfx1100", false);
    let good = std::fs::read(&obj.linked).unwrap();
    let dir = Scratch::new("bad");
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("empty", Vec::new()),
        ("text", b"kernel void f() {}\n".to_vec()),
        ("elf-magic-only", b"\x7fELF".to_vec()),
        ("truncated-header", good[..40].to_vec()),
        ("truncated", good[..good.len() / 3].to_vec()),
        ("garbage", (0..4096u32).map(|i| (i.wrapping_mul(2654435761) >> 13) as u8).collect()),
    ];
    for (name, bytes) in cases {
        let path = dir.path(name);
        std::fs::write(&path, bytes).unwrap();
        let err = expect_error(&[path.as_os_str()]);
        assert!(err.contains(name), "{name}: the error names the file: {err}");
    }
    // Not an AMDGPU object at all: our own binary.
    let err = expect_error(&[env!("CARGO_BIN_EXE_softnavi-objdump").as_ref()]);
    assert!(err.contains("not an AMDGPU code object"), "{err}");
    let err = expect_error(&[dir.path("does-not-exist").as_os_str()]);
    assert!(err.contains("does-not-exist"), "{err}");
}

/// Corrupted copies of a real object (bytes overwritten at random places, headers
/// included) are listed or rejected, never a crash.
#[test]
fn corrupted_objects_never_panic() {
    let obj = compile(&[SAXPY, CALLS].concat(), "gfx1100", false);
    let dir = Scratch::new("corrupt");
    let mut results = [0usize; 2];
    for (n, original) in [std::fs::read(&obj.linked).unwrap(), std::fs::read(&obj.rel).unwrap()].iter().enumerate() {
        let mut state = 0x2545_f491_4f6c_dd1du64 ^ n as u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for i in 0..150 {
            let mut bytes = original.clone();
            // Half of the cases hit the first 4 KiB (ELF, program and most section headers).
            let span = if i % 2 == 0 { bytes.len().min(4096) } else { bytes.len() };
            for _ in 0..1 + next() % 8 {
                let at = (next() % span as u64) as usize;
                bytes[at] = next() as u8;
            }
            let path = dir.path(&format!("corrupt-{n}-{i}"));
            std::fs::write(&path, &bytes).unwrap();
            let out = ours(&[path.as_os_str()]);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(!stderr.contains("panicked"), "{}: {stderr}", path.display());
            match out.status.code() {
                Some(0) => results[0] += 1,
                Some(1) => {
                    assert!(stderr.starts_with("softnavi-objdump: error: "), "{stderr}");
                    results[1] += 1
                }
                other => panic!("{}: exit status {other:?}: {stderr}", path.display()),
            }
        }
    }
    println!("corrupted objects: {} listed, {} rejected", results[0], results[1]);
}

/// Mesa code objects (`llc-19 -mtriple=amdgcn-mesa-mesa3d`, here through clang-19): two
/// compute functions and a local helper.
const MESA_IR: &str = r#"
@lds = internal addrspace(3) global [64 x i32] poison, align 4

define amdgpu_cs void @first(ptr addrspace(1) inreg %p, i32 inreg %k, i32 %tid) {
  %x = and i32 %tid, 63
  %s = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %x
  store i32 %k, ptr addrspace(3) %s
  %r = sub i32 63, %x
  %t = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %r
  %v = load i32, ptr addrspace(3) %t
  %m = call i32 @helper(i32 %v)
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %x
  store i32 %m, ptr addrspace(1) %a
  ret void
}

define amdgpu_cs void @second(ptr addrspace(1) inreg %p, i32 %tid) #0 {
  %arr = alloca [32 x i32], align 4, addrspace(5)
  %e = getelementptr [32 x i32], ptr addrspace(5) %arr, i32 0, i32 %tid
  store volatile i32 %tid, ptr addrspace(5) %e
  %v = load volatile i32, ptr addrspace(5) %arr
  %f = bitcast i32 %v to float
  %g = fmul float %f, 3.0
  store float %g, ptr addrspace(1) %p
  ret void
}

define internal i32 @helper(i32 %x) noinline {
  %y = mul i32 %x, 7
  ret i32 %y
}

attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
"#;

/// The `.long` pairs of each function's `.AMDGPU.config` in clang's assembly, by name.
fn asm_configs(asm: &str) -> Vec<(String, Vec<(u32, u32)>)> {
    let (mut out, mut longs, mut in_config) = (Vec::new(), Vec::<u32>::new(), false);
    for line in asm.lines() {
        let t = line.trim();
        if t.starts_with(".section") || t == ".text" {
            in_config = t.contains(".AMDGPU.config");
        } else if let Some(v) = t.strip_prefix(".long").filter(|_| in_config) {
            longs.push(v.trim().parse().unwrap());
        } else if !line.starts_with(char::is_whitespace) && !t.starts_with(['.', ';']) && t.contains(':') {
            let name = t.split(':').next().unwrap().to_string();
            out.push((name, longs.chunks(2).map(|p| (p[0], p[1])).collect()));
            longs.clear();
        }
    }
    out
}

/// The `  NAME (0xREG)  0xVALUE` lines of each `function` block of our listing.
fn listed_configs(listing: &str) -> Vec<(String, Vec<(u32, u32)>)> {
    let mut out: Vec<(String, Vec<(u32, u32)>)> = Vec::new();
    for line in listing.lines() {
        if let Some(rest) = line.strip_prefix("function ") {
            out.push((rest.split(' ').next().unwrap().to_string(), Vec::new()));
        } else if let Some((reg, value)) = line.strip_prefix("  ").and_then(|l| l.split_once(") ")) {
            let (Some(reg), Some(value)) = (reg.rsplit_once("(0x"), value.trim().strip_prefix("0x")) else { continue };
            let pair = (u32::from_str_radix(reg.1, 16).unwrap(), u32::from_str_radix(value, 16).unwrap());
            out.last_mut().expect("a register line inside a function block").1.push(pair);
        }
    }
    out
}

#[test]
fn mesa_objects_list_their_config_and_code() {
    let dir = Scratch::new("mesa");
    let (ll, obj, asm) = (dir.path("m.ll"), dir.path("m.o"), dir.path("m.s"));
    std::fs::write(&ll, MESA_IR).unwrap();
    for (flag, out) in [("-c", &obj), ("-S", &asm)] {
        let args = ["-target", "amdgcn-mesa-mesa3d", "-mcpu=gfx1100", "-O1", "-x", "ir", flag];
        let mut a: Vec<&std::ffi::OsStr> = args.iter().map(std::ffi::OsStr::new).collect();
        a.extend([ll.as_os_str(), "-o".as_ref(), out.as_os_str()]);
        run_llvm(Tool::Clang, &a);
    }
    let mut bad = Vec::new();
    assert!(compare("mesa3d, relocatable", &obj, false, &mut bad) > 10);
    assert!(bad.is_empty(), "{} mismatches with llvm-objdump-19:\n{}", bad.len(), bad.join("\n"));
    let listing = our_listing(&obj);
    let expected = asm_configs(&std::fs::read_to_string(&asm).unwrap());
    assert_eq!(listed_configs(&listing), expected, "{listing}");
    assert!(listing.contains("Mesa code object (.AMDGPU.config), EI_OSABI MESA3D (66), gfx1100"), "{listing}");
    // The first function's LDS, the second's scratch and flushed f32 denormals, decoded.
    for needle in [
        "LDS_SIZE                               1      // 512 bytes",
        "FLOAT_MODE                             192    // f32: round to nearest even, flush source and destination denorms",
        "dispatch: COMPUTE_PGM_RSRC2 0x",
        "not loadable as a compute shader: function `helper`: its code at image offset",
    ] {
        assert!(listing.contains(needle), "no {needle:?} in\n{listing}");
    }
    let second = &listing[listing.find("function second").unwrap()..];
    let wavesize = second.lines().find(|l| l.trim_start().starts_with("WAVESIZE")).unwrap();
    assert!(!wavesize.contains(" 0      //"), "the scratch function has scratch: {wavesize}");
}
