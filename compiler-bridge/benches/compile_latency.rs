//! Pipeline creation latency per shader over the GLSL corpus (`tests/spirv/**/*.comp`,
//! `tests/shaders/*.comp`, `examples/shaders/*.comp`, `compiler-bridge/tests/shaders/*.comp`),
//! each shader's figure the median of `ROUNDS` rounds (this machine is shared):
//! - cold, in-process libLLVM (empty cache);
//! - cold, the compile server `softnavi-llvmd` (empty cache; the server already running,
//!   as after a process's first compile);
//! - cold, clang/lld processes (empty cache);
//! - cached: what a new process sees on its first pipeline creation (a fresh `DiskCache`
//!   over the warm directory: lower + hash + read + check), and the same again warm;
//! - the lowering alone, the floor of the cached path;
//! - once per process: loading libLLVM 19, the first in-process compile, and the first
//!   compile through the server (starting it: process, libLLVM load, LLVM's set-up).
//!
//! `cargo build --release -p softnavi-icd && cargo bench -p softnavi-compiler-bridge --bench
//! compile_latency [-- FILTER]`: FILTER keeps the shaders whose path contains it; the
//! server is `target/release/softnavi-llvmd` (or `$SOFTNAVI_LLVMD`), built with the ICD.
//! Shaders that do not compile are listed, not fatal.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// Rounds over the corpus; each shader's figure is its median.
const ROUNDS: usize = 3;

use compiler_bridge::{
    compile_using, lower_with, reflect_layout, Backend, CodegenOptions, Compiler, DiskCache, ShaderInput,
};

/// A temporary directory removed on drop.
struct TempDir(PathBuf);

impl TempDir {
    fn new(tag: &str) -> TempDir {
        let p = std::env::temp_dir().join(format!("softnavi-bench-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).expect("create a temporary directory");
        TempDir(p)
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn corpus(root: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        let Ok(entries) = std::fs::read_dir(dir) else { return };
        for e in entries.flatten() {
            let p = e.path();
            if p.is_dir() {
                walk(&p, out);
            } else if p.extension().is_some_and(|e| e == "comp") {
                out.push(p);
            }
        }
    }
    let mut files = Vec::new();
    walk(&root.join("tests/spirv"), &mut files);
    for dir in ["tests/shaders", "examples/shaders", "compiler-bridge/tests/shaders"] {
        let mut flat: Vec<_> = std::fs::read_dir(root.join(dir))
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "comp"))
            .collect();
        flat.sort();
        files.extend(flat);
    }
    files.sort();
    files
}

/// SPIR-V words from glslangValidator, for the target environment a first line
/// `// target-env: X` names (default vulkan1.1).
fn glsl_to_spirv(path: &Path, tmp: &Path) -> Result<Vec<u32>, String> {
    let src = std::fs::read_to_string(path).map_err(|e| e.to_string())?;
    let env = src
        .lines()
        .next()
        .and_then(|l| l.trim().strip_prefix("// target-env:"))
        .map_or("vulkan1.1", str::trim)
        .to_owned();
    let out = tmp.join("shader.spv");
    let result = Command::new("glslangValidator")
        .args(["-V", "--target-env", &env, "-o"])
        .arg(&out)
        .arg(path)
        .output()
        .map_err(|e| format!("glslangValidator: {e}"))?;
    if !result.status.success() {
        return Err(String::from_utf8_lossy(&result.stdout).lines().take(3).collect::<Vec<_>>().join(" "));
    }
    let bytes = std::fs::read(&out).map_err(|e| e.to_string())?;
    Ok(bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
}

struct Stats {
    name: &'static str,
    samples: Vec<(Duration, String)>,
    /// This round's figure per shader, folded into `samples` by `end_round`.
    rounds: std::collections::BTreeMap<String, Vec<Duration>>,
}

impl Stats {
    fn new(name: &'static str) -> Stats {
        Stats { name, samples: Vec::new(), rounds: Default::default() }
    }

    fn record(&mut self, d: Duration, shader: &str) {
        self.rounds.entry(shader.to_owned()).or_default().push(d);
    }

    /// Each shader's median over the rounds.
    fn finish(&mut self) {
        for (shader, mut ds) in std::mem::take(&mut self.rounds) {
            ds.sort();
            self.samples.push((ds[ds.len() / 2], shader));
        }
    }

    fn print(&mut self) {
        if self.samples.is_empty() {
            println!("{:<26} (no samples)", self.name);
            return;
        }
        self.samples.sort_by_key(|s| s.0);
        let n = self.samples.len();
        let at = |q: f64| self.samples[((n as f64 * q).ceil() as usize).clamp(1, n) - 1].0;
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        println!(
            "{:<26} n={n:<4} median {:>8.3} ms   p95 {:>8.3} ms   max {:>8.3} ms",
            self.name,
            ms(at(0.5)),
            ms(at(0.95)),
            ms(self.samples[n - 1].0)
        );
    }

    fn slowest(&self, k: usize) -> Vec<String> {
        self.samples.iter().rev().take(k).map(|(d, s)| format!("{s} ({:.1} ms)", d.as_secs_f64() * 1e3)).collect()
    }
}

/// The server's fixed cost per compile (the request and reply, two context switches):
/// the smallest kernel, and a module the parser rejects at once (a round trip with next
/// to no LLVM work), compiled alternately in-process and by the server, 100 times each;
/// medians.
fn fixed_cost() {
    const KERNEL: &str =
        "define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n";
    let opts = CodegenOptions::default();
    for (what, ir, valid) in [("smallest kernel", KERNEL, true), ("invalid one-word module", "x", false)] {
        let (mut inproc, mut server, mut inproc_cpu) = (Vec::new(), Vec::new(), Vec::new());
        for _ in 0..100 {
            for (backend, times) in [(Backend::InProcess, &mut inproc), (Backend::Server, &mut server)] {
                let (t, cpu) = (Instant::now(), thread_cpu_time());
                if compiler_bridge::llvm::compile_ir_with(ir, &opts, backend).is_ok() == valid {
                    times.push(t.elapsed());
                    if backend == Backend::InProcess {
                        inproc_cpu.push(thread_cpu_time() - cpu);
                    }
                }
            }
        }
        let median = |v: &mut Vec<Duration>| {
            v.sort();
            v.get(v.len() / 2).map_or(f64::NAN, |d| d.as_secs_f64() * 1e3)
        };
        println!(
            "{what}, 100 compiles each: in-process median {:.3} ms (CPU {:.3} ms), server median {:.3} ms",
            median(&mut inproc),
            median(&mut inproc_cpu),
            median(&mut server)
        );
        if valid {
            if let Some(cpu) = server_cpu_per_compile(ir) {
                println!("{what}: the server's CPU time per compile {:.3} ms", cpu.as_secs_f64() * 1e3);
            }
        }
    }
}

/// The server's CPU time per compile of `ir`: two private servers, one doing one compile
/// and one doing 101, reaped; the difference of their CPU times over 100 (their start
/// cancels out).
fn server_cpu_per_compile(ir: &str) -> Option<Duration> {
    use compiler_bridge::llvm::server::{locate, Pool};
    let (program, id) = (locate().ok()?, Backend::Server.identity().ok()?);
    let mut cpu = [Duration::ZERO; 2];
    for (i, n) in [1, 101].into_iter().enumerate() {
        let before = children_cpu_time();
        let pool = Pool::new(program.clone(), id.clone(), None);
        for _ in 0..n {
            pool.compile(ir, &CodegenOptions::default()).ok()?;
        }
        drop(pool); // kills and reaps the server, adding its CPU time to the children's
        cpu[i] = children_cpu_time() - before;
    }
    Some(cpu[1].saturating_sub(cpu[0]) / 100)
}

/// The CPU time of this process's reaped children.
fn children_cpu_time() -> Duration {
    // SAFETY: a zeroed rusage is a valid out-value.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: a valid `who` and out-pointer.
    unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut u) };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// This thread's CPU time: what a compile costs without the machine's other load.
fn thread_cpu_time() -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: a valid clock id and out-pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32)
}

/// The median and 95th percentile over the shaders both measured of `a`'s figure minus
/// `b`'s, in ms: the cost of one way over the other with each shader's own size factored
/// out.
fn paired_difference(a: &Stats, b: &Stats) -> Option<(f64, f64)> {
    let b: std::collections::HashMap<&str, Duration> = b.samples.iter().map(|(d, s)| (s.as_str(), *d)).collect();
    let mut diffs: Vec<f64> = a
        .samples
        .iter()
        .filter_map(|(d, s)| b.get(s.as_str()).map(|e| (d.as_secs_f64() - e.as_secs_f64()) * 1e3))
        .collect();
    if diffs.is_empty() {
        return None;
    }
    diffs.sort_by(f64::total_cmp);
    let n = diffs.len();
    Some((diffs[n / 2], diffs[((n as f64 * 0.95).ceil() as usize).clamp(1, n) - 1]))
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let filter = std::env::args().skip(1).find(|a| !a.starts_with('-'));
    let tmp = TempDir::new("spv");
    let opts = CodegenOptions::default();

    let mut shaders = Vec::new();
    let mut failed = Vec::new();
    for path in corpus(&root) {
        let name = path.strip_prefix(&root).unwrap_or(&path).display().to_string();
        if filter.as_ref().is_some_and(|f| !name.contains(f.as_str())) {
            continue;
        }
        match glsl_to_spirv(&path, &tmp.0).and_then(|w| {
            let layout = reflect_layout(&w, "main").map_err(|e| format!("reflect: {e}"))?;
            Ok((w, layout))
        }) {
            Ok((words, layout)) => shaders.push((name, words, layout)),
            Err(e) => failed.push(format!("{name}: {e}")),
        }
    }
    println!("compile latency over {} shaders (wave32), {} not built", shaders.len(), failed.len());

    let mut lower = Stats::new("lower only");
    let mut cold_inproc = Stats::new("cold, in-process LLVM");
    let mut cold_server = Stats::new("cold, compile server");
    let mut cold_process = Stats::new("cold, clang/lld processes");
    let mut cached_first = Stats::new("cached, new process");
    let mut cached_warm = Stats::new("cached, warm");
    let mut cached_process = Stats::new("cached, process backend");
    let mut cached_server = Stats::new("cached, server, new process");

    // Once per process, not per shader: loading libLLVM, and LLVM's own lazy set-up in the
    // first compile.
    let t = Instant::now();
    let available = Backend::InProcess.is_available();
    let load = t.elapsed();
    let _ = Backend::Process.identity();
    if available {
        if let Some((name, words, layout)) = shaders.first() {
            let input = ShaderInput { spirv: words, entry_point: "main", layout, specialization: &[] };
            let t = Instant::now();
            let r = compile_using(&input, &opts, &Compiler { backend: Backend::InProcess, cache: None });
            println!(
                "once per process: libLLVM load + AMDGPU init {:.1} ms, first compile ({name}) {:.1} ms{}",
                load.as_secs_f64() * 1e3,
                t.elapsed().as_secs_f64() * 1e3,
                if r.is_ok() { "" } else { " (failed)" }
            );
        }
    } else {
        println!("libLLVM 19 cannot be loaded: in-process figures are missing");
    }
    let server = Backend::Server.is_available();
    if let (true, Some((name, words, layout))) = (server, shaders.first()) {
        let input = ShaderInput { spirv: words, entry_point: "main", layout, specialization: &[] };
        let t = Instant::now();
        let r = compile_using(&input, &opts, &Compiler { backend: Backend::Server, cache: None });
        println!(
            "once per process: the first compile through the server ({name}: start, libLLVM load, LLVM set-up) {:.1} ms{}",
            t.elapsed().as_secs_f64() * 1e3,
            if r.is_ok() { "" } else { " (failed)" }
        );
    } else if !server {
        println!("softnavi-llvmd not found (cargo build --release -p softnavi-icd): server figures are missing");
    }

    if available && server {
        fixed_cost();
    }

    for round in 0..ROUNDS {
        let inproc_dir = TempDir::new(&format!("cache-inproc-{round}"));
        let server_dir = TempDir::new(&format!("cache-server-{round}"));
        let server_cache = DiskCache::new(&server_dir.0);
        let process_dir = TempDir::new(&format!("cache-process-{round}"));
        let inproc_cache = DiskCache::new(&inproc_dir.0);
        let process_cache = DiskCache::new(&process_dir.0);
        let inproc = Compiler { backend: Backend::InProcess, cache: Some(&inproc_cache) };
        let process = Compiler { backend: Backend::Process, cache: Some(&process_cache) };
        for (name, words, layout) in &shaders {
            let input = ShaderInput { spirv: words, entry_point: "main", layout, specialization: &[] };
            let t = Instant::now();
            if let Err(e) = lower_with(&input, &opts) {
                failed.push(format!("{name}: {e}"));
                continue;
            }
            lower.record(t.elapsed(), name);

            let mut timed = |stats: &mut Stats, compiler: &Compiler, expect_cached: bool| {
                let t = Instant::now();
                let r = compile_using(&input, &opts, compiler);
                let d = t.elapsed();
                match r {
                    Ok(s) if s.from_cache == expect_cached => stats.record(d, name),
                    Ok(s) => failed.push(format!("{name}: {}: from_cache = {}", stats.name, s.from_cache)),
                    Err(e) => failed.push(format!("{name}: {}: {e}", stats.name)),
                }
            };
            if Backend::InProcess.is_available() {
                timed(&mut cold_inproc, &inproc, false);
                // A new process: a cache object that has seen nothing, over the same directory.
                let fresh = DiskCache::new(&inproc_dir.0);
                timed(&mut cached_first, &Compiler { backend: Backend::InProcess, cache: Some(&fresh) }, true);
                timed(&mut cached_warm, &inproc, true);
            }
            if server {
                timed(&mut cold_server, &Compiler { backend: Backend::Server, cache: Some(&server_cache) }, false);
                let fresh = DiskCache::new(&server_dir.0);
                timed(&mut cached_server, &Compiler { backend: Backend::Server, cache: Some(&fresh) }, true);
            }
            timed(&mut cold_process, &process, false);
            timed(&mut cached_process, &process, true);
        }
    }
    for s in [
        &mut lower,
        &mut cold_inproc,
        &mut cold_server,
        &mut cold_process,
        &mut cached_first,
        &mut cached_warm,
        &mut cached_server,
        &mut cached_process,
    ] {
        s.finish();
        s.print();
    }
    if let Some((median, p95)) = paired_difference(&cold_server, &cold_inproc) {
        println!("server minus in-process, per shader: median {median:+.3} ms, p95 {p95:+.3} ms");
    }
    println!("slowest cold in-process: {}", cold_inproc.slowest(5).join(", "));
    println!("slowest cold server: {}", cold_server.slowest(5).join(", "));
    println!("slowest cached: {}", cached_first.slowest(3).join(", "));
    // Every round fails the same way.
    failed.sort();
    failed.dedup();
    if !failed.is_empty() {
        println!("{} failures:", failed.len());
        for f in &failed {
            println!("  {f}");
        }
    }
}
