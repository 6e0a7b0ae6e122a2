//! Decoder benchmark (a bench binary: `cargo bench -p softnavi-gpu --bench decode`).
//!
//! Builds 1 MiB of gfx1100 machine code from OpenCL C kernels compiled by clang-19 (ALU,
//! loops, LDS with barriers, atomics, 64-bit integer and double math; one file in wave64),
//! their `.text` repeated up to exactly 1 MiB, and times
//!
//! 1. `Program::decode` over the whole MiB (target: a median of at most 50 ms on one core);
//! 2. disassembling every decoded instruction (`Program::describe`), separately.
//!
//! `--rounds N` (default 20) timed rounds after one of warm-up. With
//! `SOFTNAVI_ASM_CACHE=DIR` the compiled code is kept in DIR, so that the built bench can
//! run on a machine without LLVM (as the dispatch bench's assembled kernels).

#[path = "../tests/common/mod.rs"]
mod common;

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::PathBuf;
use std::process::Command;
use std::time::{Duration, Instant};

use common::{run_tool, scratch_dir, S_CODE_END};
use gpu::isa::program::Program;
use object::{Object, ObjectSection};

/// Size of the code object decoded.
const CODE_BYTES: usize = 1 << 20;

/// Where the code is placed (any 256-byte aligned address).
const BASE: u64 = 0x1_0000_0000;

/// Put before each source. Without the device libraries (`-nogpulib`) OpenCL's built-in
/// functions would be calls to undefined symbols, so the kernels use clang's builtins.
const PRELUDE: &str = r#"
#define LID __builtin_amdgcn_workitem_id_x()
#define GID (__builtin_amdgcn_workgroup_id_x() * 256 + LID)
#define BARRIER() (__builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup"), __builtin_amdgcn_s_barrier(), \
                   __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup"))
#define ATOMIC(op, p, v) __scoped_atomic_fetch_##op(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define LDS_ATOMIC(op, p, v) __scoped_atomic_fetch_##op(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP)
#define CAS(p, e, v) __scoped_atomic_compare_exchange_n(p, e, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED, \
                                                        __MEMORY_SCOPE_DEVICE)
"#;

/// Kernels chosen to look like compute code: elementwise ALU with divisions and
/// transcendentals, uniform and divergent loops, LDS tiles with barriers.
const ALU_LOOPS: &str = r#"
__kernel void saxpy(__global float *y, __global const float *x, float a, uint n) {
  uint i = GID;
  if (i < n) y[i] = a * x[i] + y[i];
}
__kernel void intmath(__global uint *o, __global const uint *a, uint d, int s) {
  uint i = GID;
  uint v = a[i];
  int w = (int)a[i + 1];
  o[4 * i] = v / d + v % (d + 3);
  o[4 * i + 1] = (uint)(w / s) ^ (uint)(w % 7);
  o[4 * i + 2] = __builtin_popcount(v) + __builtin_clz(v | 1) + __builtin_ctz(v | 0x100) + (v << (d & 31))
               + (uint)(w >> 3);
  o[4 * i + 3] = __builtin_amdgcn_ubfe(v, 3, 9) + (uint)__builtin_amdgcn_sbfe(w, 2, 5)
               + __builtin_amdgcn_perm(v, d, 0x05040100) + __builtin_amdgcn_alignbit(v, d, 7)
               + (uint)(((ulong)v * d) >> 32) + (v > ~d ? ~0u : v + d);
}
__kernel void floatmath(__global float *o, __global const float *a, float k) {
  uint i = GID;
  float x = a[i], y = a[i + 64];
  o[8 * i] = __builtin_sqrtf(x) + __builtin_amdgcn_rsqf(y) + __builtin_amdgcn_rcpf(x + y);
  o[8 * i + 1] = __builtin_floorf(x) - __builtin_ceilf(y) * __builtin_truncf(k) + __builtin_rintf(x * y);
  o[8 * i + 2] = __builtin_fminf(x, y) + __builtin_fmaxf(x, k) + __builtin_fabsf(y - x) * -k;
  o[8 * i + 3] = __builtin_fmaf(x, y, k) + __builtin_amdgcn_fractf(x) + __builtin_amdgcn_ldexpf(y, (int)k);
  o[8 * i + 4] = (float)(int)x + (float)(uint)y + (float)i + x / y;
  o[8 * i + 5] = x < y ? k : (x == k ? 1.5f : -0.25f);
  o[8 * i + 6] = __builtin_exp2f(x) + __builtin_log2f(y) + x * 3.0f;
  o[8 * i + 7] = __builtin_fmaf(x, 1234.5f, y) + __builtin_fmaf(x, y, 0.0625f) + __builtin_amdgcn_fmed3f(x, y, k);
}
__kernel void matmul(__global float *c, __global const float *a, __global const float *b, uint n) {
  __local float ta[16][17], tb[16][17];
  uint tx = LID % 16, ty = LID / 16;
  uint row = __builtin_amdgcn_workgroup_id_y() * 16 + ty, col = __builtin_amdgcn_workgroup_id_x() * 16 + tx;
  float acc = 0.0f;
  for (uint t = 0; t < n; t += 16) {
    ta[ty][tx] = a[row * n + t + tx];
    tb[ty][tx] = b[(t + ty) * n + col];
    BARRIER();
    #pragma unroll 4
    for (uint k = 0; k < 16; k++) acc = __builtin_fmaf(ta[ty][k], tb[k][tx], acc);
    BARRIER();
  }
  c[row * n + col] = acc;
}
__kernel void stencil(__global float *o, __global const float *in, uint w, uint h, uint iters) {
  uint x = GID % w, y = GID / w;
  float v = in[GID];
  for (uint it = 0; it < iters; it++) {
    float l = x > 0 ? in[GID - 1] : v, r = x + 1 < w ? in[GID + 1] : v;
    float u = y > 0 ? in[GID - w] : v, d = y + 1 < h ? in[GID + w] : v;
    v = 0.5f * v + 0.125f * (l + r + u + d);
    if (v > 1000.0f) break;
  }
  o[GID] = v;
}
__kernel void mandel(__global uint *o, float x0, float y0, float step, uint w, uint maxit) {
  float cx = x0 + step * (GID % w), cy = y0 + step * (GID / w);
  float zx = 0.0f, zy = 0.0f;
  uint it = 0;
  while (it < maxit && zx * zx + zy * zy < 4.0f) {
    float t = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = t;
    it++;
  }
  o[GID] = it;
}
__kernel void transpose(__global float4 *o, __global const float4 *in) {
  __local float4 tile[64];
  tile[LID % 64] = in[GID];
  BARRIER();
  o[GID ^ 63] = tile[63 - LID % 64].wzyx;
}
"#;

/// LDS and global atomics, compare-and-swap loops, scans.
const ATOMICS: &str = r#"
__kernel void histogram(__global uint *hist, __global const uchar *data, uint n) {
  __local uint bins[256];
  bins[LID] = 0;
  BARRIER();
  for (uint i = GID; i < n; i += 256 * 64) LDS_ATOMIC(add, &bins[data[i]], 1u);
  BARRIER();
  ATOMIC(add, &hist[LID], bins[LID]);
}
__kernel void minmax(__global int *lo, __global int *hi, __global uint *cnt, __global const int *in) {
  int v = in[GID];
  ATOMIC(min, lo, v);
  ATOMIC(max, hi, v);
  ATOMIC(or, cnt + 1, 1u << (v & 31));
  ATOMIC(and, cnt + 2, ~(1u << (v & 31)));
  ATOMIC(xor, cnt + 3, (uint)v);
  if (ATOMIC(add, cnt, 1u) == 1000) __scoped_atomic_exchange_n(cnt + 4, (uint)v, __ATOMIC_RELAXED,
                                                               __MEMORY_SCOPE_DEVICE);
}
__kernel void float_add(__global uint *acc, __global const float *in) {
  float v = in[GID];
  uint old = *(volatile __global uint *)acc;
  while (!CAS(acc, &old, __builtin_bit_cast(uint, __builtin_bit_cast(float, old) + v))) {}
}
__kernel void scan(__global uint *out, __global const uint *in, __global uint *sums) {
  __local uint s[512];
  uint l = LID;
  s[l] = in[GID];
  s[l + 256] = 0;
  for (uint off = 1; off < 256; off <<= 1) {
    BARRIER();
    uint t = l >= off ? s[l - off] : 0;
    BARRIER();
    s[l] += t;
  }
  out[GID] = s[l];
  if (l == 255) ATOMIC(add, &sums[__builtin_amdgcn_workgroup_id_x()], s[l]);
}
__kernel void queue_push(__global uint *items, __global uint *tail, __global const uint *in, uint cap) {
  uint v = in[GID];
  if (v & 1) {
    uint slot = ATOMIC(add, tail, 1u);
    if (slot < cap) items[slot] = v;
    else ATOMIC(sub, tail, 1u);
  }
}
__kernel void lds_minmax(__global int *o, __global const int *in) {
  __local int m[4];
  if (LID < 4) m[LID] = LID & 1 ? -2147483647 - 1 : 2147483647;
  BARRIER();
  int v = in[GID];
  LDS_ATOMIC(min, &m[0], v);
  LDS_ATOMIC(max, &m[1], v);
  LDS_ATOMIC(xor, &m[2], v);
  LDS_ATOMIC(or, &m[3], v);
  BARRIER();
  if (LID < 4) o[__builtin_amdgcn_workgroup_id_x() * 4 + LID] = m[LID];
}
"#;

/// 64-bit integer and double-precision arithmetic.
const WIDE: &str = r#"
__kernel void hash64(__global ulong *o, __global const ulong *in, ulong seed, uint rounds) {
  ulong z = in[GID] + seed;
  for (uint r = 0; r < rounds; r++) {
    z += 0x9e3779b97f4a7c15UL;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9UL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebUL;
    z ^= z >> 31;
  }
  o[GID] = z;
}
__kernel void div64(__global ulong *q, __global long *r, __global const ulong *a, __global const ulong *b) {
  ulong x = a[GID], y = b[GID] | 1;
  q[GID] = x / y + (x << (y & 63)) + __builtin_clzl(x | 1) + __builtin_popcountl(y);
  r[GID] = (long)x % (long)(y + 2) + ((long)x >> 17) + (long)((x << 13) | (x >> 51));
}
__kernel void dmath(__global double *o, __global const double *a, double k, uint n) {
  double acc = 0.0;
  for (uint i = GID; i < n; i += 4096) {
    double x = a[i];
    acc = __builtin_fma(x, k, acc) + __builtin_sqrt(__builtin_fabs(x)) / (x + 3.0) + __builtin_floor(x * 0.5)
        - (double)(long)x;
    acc = __builtin_fmin(acc, 1e300) + (x < k ? 1.0 : -2.5);
  }
  o[GID] = acc + (double)GID * 1e-9;
}
__kernel void convert(__global double *d, __global float *f, __global long *l, __global const uint *in) {
  uint v = in[GID];
  double x = (double)v * 1.000001;
  d[GID] = x + (double)(long)(int)v;
  f[GID] = (float)x + (float)(ulong)v;
  l[GID] = (long)x + (long)(f[GID] * 3.0f) + (long)(int)v * -7;
}
__kernel void addr64(__global ulong *o, __global const ulong *idx, ulong stride, uint n) {
  ulong s = 0;
  for (uint i = 0; i < n; i++) s += idx[(idx[GID] * stride + i) & 0xffff];
  o[GID] = s;
}
__kernel void atomics64(__global ulong *o, __global const ulong *in) {
  ulong v = in[GID];
  ATOMIC(add, o, v);
  ATOMIC(max, o + 1, v);
  ATOMIC(xor, o + 2, v);
  ulong e = 0;
  CAS(o + 3, &e, v);
}
"#;

/// Compiled in wave64: reductions with LDS, sub-group style loops, wave-wide control flow.
const WAVE64: &str = r#"
__kernel void reduce(__global uint *out, __global const uint *in, uint n) {
  __local uint s[256];
  uint acc = 0;
  for (uint i = GID; i < n; i += 256 * 128) acc += in[i];
  s[LID] = acc;
  for (uint w = 128; w > 0; w >>= 1) {
    BARRIER();
    if (LID < w) s[LID] += s[LID + w];
  }
  if (LID == 0) ATOMIC(add, out, s[0]);
}
__kernel void compact(__global uint *out, __global uint *count, __global const uint *in) {
  uint v = in[GID];
  if (v % 3 == 0) out[ATOMIC(add, count, 1u)] = v;
}
__kernel void sort8(__global int *data) {
  int v[8];
  for (int i = 0; i < 8; i++) v[i] = data[GID * 8 + i];
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 7 - i; j++)
      if (v[j] > v[j + 1]) { int t = v[j]; v[j] = v[j + 1]; v[j + 1] = t; }
  for (int i = 0; i < 8; i++) data[GID * 8 + i] = v[i];
}
__kernel void blur(__global float *o, __global const float *in, uint w) {
  float s = 0.0f;
  for (int dy = -2; dy <= 2; dy++)
    for (int dx = -2; dx <= 2; dx++) s += in[GID + dy * (int)w + dx] * (1.0f / 25.0f);
  o[GID] = s;
}
__kernel void mandel64(__global uint *o, float x0, float y0, float step, uint w, uint maxit) {
  float cx = x0 + step * (GID % w), cy = y0 + step * (GID / w);
  float zx = 0.0f, zy = 0.0f;
  uint it = 0;
  while (it < maxit && zx * zx + zy * zy < 4.0f) {
    float t = zx * zx - zy * zy + cx;
    zy = 2.0f * zx * zy + cy;
    zx = t;
    it++;
  }
  o[GID] = it;
}
"#;

/// The OpenCL C sources, and whether each is compiled in wave64.
const SOURCES: [(&str, &str, bool); 4] =
    [("alu+loops", ALU_LOOPS, false), ("atomics", ATOMICS, false), ("64-bit", WIDE, false), ("wave64", WAVE64, true)];

/// The `.text` of the kernels in `src` (OpenCL C) compiled for gfx1100 by clang-19, without
/// the `s_code_end` padding LLVM puts at its end (`Program::decode` would stop there). With
/// `SOFTNAVI_ASM_CACHE=DIR` the words are kept in DIR by a hash of the source and flags.
fn compile(src: &str, wave64: bool) -> Vec<u32> {
    let mut args = vec!["-x", "cl", "-Xclang", "-finclude-default-header", "-target", "amdgcn-amd-amdhsa"];
    args.extend(["-mcpu=gfx1100", "-nogpulib", "-O3", "-c"]);
    if wave64 {
        args.push("-mwavefrontsize64");
    }
    let cached = std::env::var_os("SOFTNAVI_ASM_CACHE").map(|dir| {
        // FNV-1a, as common::assemble: stable across builds.
        let key = format!("clang-19 {}\n{PRELUDE}{src}", args.join(" "));
        let h = key.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        PathBuf::from(dir).join(format!("{h:016x}.text"))
    });
    let bytes = match cached.as_ref().and_then(|p| std::fs::read(p).ok()) {
        Some(bytes) => bytes,
        None => compile_uncached(src, &args),
    };
    if let Some(p) = &cached {
        let _ = std::fs::create_dir_all(p.parent().unwrap());
        let _ = std::fs::write(p, &bytes);
    }
    assert_eq!(bytes.len() % 4, 0);
    let mut words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    while words.last() == Some(&S_CODE_END) {
        words.pop();
    }
    words
}

fn compile_uncached(src: &str, args: &[&str]) -> Vec<u8> {
    let dir = scratch_dir("decode-bench");
    let (cl, o) = (dir.join("k.cl"), dir.join("k.o"));
    std::fs::write(&cl, format!("{PRELUDE}{src}")).unwrap();
    run_tool(Command::new("clang-19").args(args).arg(&cl).arg("-o").arg(&o));
    let elf = std::fs::read(&o).unwrap();
    let file = object::File::parse(&*elf).unwrap_or_else(|e| panic!("{}: {e}", o.display()));
    let text = file.section_by_name(".text").unwrap_or_else(|| panic!("{}: no .text", o.display()));
    text.data().unwrap().to_vec()
}

/// The kernels' code repeated (in source order) up to exactly `CODE_BYTES`.
fn code_object() -> Vec<u32> {
    let mut all = Vec::new();
    for (name, src, wave64) in SOURCES {
        let words = compile(src, wave64);
        println!("  {name:<10} {:6} bytes of code{}", 4 * words.len(), if wave64 { " (wave64)" } else { "" });
        all.extend(words);
    }
    all.iter().copied().cycle().take(CODE_BYTES / 4).collect()
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

/// Runs `f` once to warm up, then `rounds` times; returns the sorted times.
fn time(rounds: usize, mut f: impl FnMut()) -> Vec<Duration> {
    f();
    let mut times: Vec<Duration> = (0..rounds)
        .map(|_| {
            let t = Instant::now();
            f();
            t.elapsed()
        })
        .collect();
    times.sort();
    times
}

fn report(what: &str, times: &[Duration], bytes: usize, insts: usize) -> Duration {
    let median = times[times.len() / 2];
    println!(
        "{what:<10} min {:8.2} ms  median {:8.2} ms  max {:8.2} ms  {:7.1} MB/s  {:6.1} M instructions/s  ({} rounds)",
        millis(times[0]),
        millis(median),
        millis(times[times.len() - 1]),
        bytes as f64 / median.as_secs_f64() / 1e6,
        insts as f64 / median.as_secs_f64() / 1e6,
        times.len()
    );
    median
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rounds: usize =
        args.iter().position(|a| a == "--rounds").and_then(|i| args.get(i + 1)?.parse().ok()).unwrap_or(20).max(1);
    println!("softnavi decoder benchmark (one thread)");
    let words = code_object();
    let bytes = 4 * words.len();

    let program = Program::decode(BASE, &words, false);
    let insts = program.insts().len();
    // Words that did not decode, and opcodes that decode but softnavi does not execute.
    let bad = (0..insts).filter(|&i| program.decode_error(i).is_some()).count();
    let decoded = (program.addr(insts) - BASE) as usize;
    println!(
        "code object: {bytes} bytes ({} dwords), {insts} instructions over {decoded} bytes, {bad} of them trap \
         (not decodable or not executed):",
        words.len()
    );
    assert_eq!(decoded, bytes, "Program::decode stopped before the end of the code");
    let mut reasons: BTreeMap<String, usize> = BTreeMap::new();
    for e in (0..insts).filter_map(|i| program.decode_error(i)) {
        *reasons.entry(e.to_string()).or_default() += 1;
    }
    let mut reasons: Vec<(String, usize)> = reasons.into_iter().collect();
    reasons.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    for (reason, n) in reasons.iter().take(8) {
        println!("  {n:6}  {reason}");
    }
    if reasons.len() > 8 {
        println!("  ... and {} other reasons", reasons.len() - 8);
    }

    let decode = time(rounds, || drop(black_box(Program::decode(BASE, black_box(&words), false))));
    let median = report("decode", &decode, bytes, insts);

    // Disassembly: every instruction in wave32, as traces and fault reports print it.
    let mut text_bytes = 0;
    let describe = time(rounds, || {
        text_bytes = (0..insts).map(|i| black_box(program.describe(i)).len()).sum();
    });
    report("describe", &describe, bytes, insts);
    println!("           ({text_bytes} bytes of text per round)");

    let target = Duration::from_millis(50);
    println!(
        "target: decode 1 MiB in at most {} ms (median): {} ({:.2} ms)",
        target.as_millis(),
        if median <= target { "met" } else { "NOT met" },
        millis(median)
    );
}
