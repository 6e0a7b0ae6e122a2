//! `softnavi-clkernels BUILD [KERNEL...]`: runs the OpenCL C kernels of `tests/opencl/`
//! (compiled by build.rs with clang-19 for BUILD: w32v5, w64v5, w32v4 or w64v6rel) through
//! the Vulkan loader as code-object shader modules, and compares every result with a CPU
//! reference computed here (host IEEE arithmetic or a formula from the OpenCL C
//! specification; math built-ins with the specification's ulp tolerances).
//!
//! Prints `KERNEL <name> PASS` or `KERNEL <name> FAIL <why>` per kernel on stdout, and
//! `=== kernel <name>` on stderr before each, so that the driver's log (a GPU fault report
//! names the instruction) can be attributed to a kernel. A lost device is replaced and the
//! run goes on. Exits 0 when every kernel could be attempted.

use std::fmt::Debug;
use std::process::ExitCode;

use ash::vk;
use half::f16;
use softnavi_examples::{Context, ContextOptions, Error};
use softnavi_tests::check::*;
use softnavi_tests::dispatch::{self, Binding, Dispatch, Kind};

#[path = "clkernels/memory.rs"]
mod memory;

macro_rules! build {
    ($dir:literal) => {
        [
            include_bytes!(concat!(env!("OUT_DIR"), "/", $dir, "/scalar.elf")).as_slice(),
            include_bytes!(concat!(env!("OUT_DIR"), "/", $dir, "/vector.elf")).as_slice(),
            include_bytes!(concat!(env!("OUT_DIR"), "/", $dir, "/group.elf")).as_slice(),
            include_bytes!(concat!(env!("OUT_DIR"), "/", $dir, "/memory.elf")).as_slice(),
            include_bytes!(concat!(env!("OUT_DIR"), "/", $dir, "/buffer.elf")).as_slice(),
        ]
    };
}

const BUILDS: [(&str, [&[u8]; 5]); 4] = [
    ("w32v5", build!("w32v5")),
    ("w64v5", build!("w64v5")),
    ("w32v4", build!("w32v4")),
    ("w64v6rel", build!("w64v6rel")),
];

const SCALAR: usize = 0;
const VECTOR: usize = 1;
const GROUP: usize = 2;
const MEMORY: usize = 3;
/// buffer.ll: LLVM IR kernels (buffer atomics, structured and typed buffers).
const BUFFER: usize = 4;

// ---- cases ------------------------------------------------------------------------------------

type Check = Box<dyn Fn(&[Vec<u8>]) -> Result<(), String>>;

struct Case {
    file: usize,
    kernel: &'static str,
    groups: [u32; 3],
    spec: Vec<(u32, u32)>,
    /// Set 0's buffers, bindings 0, 1, ...: initial contents.
    buffers: Vec<Vec<u8>>,
    push: Vec<u8>,
    check: Check,
}

/// `R[i] = f(A[i], B[i])` over N work-items (groups of 64).
fn binop<A: Val, B: Val, R: Val>(
    kernel: &'static str,
    a: Vec<A>,
    b: Vec<B>,
    tol: Tol,
    f: impl Fn(A, B) -> R + 'static,
) -> Case {
    let want: Vec<R> = a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect();
    let bufs = vec![bytes(&a), bytes(&b), vec![0; N * R::SIZE]];
    Case {
        file: SCALAR,
        kernel,
        groups: [(N / 64) as u32, 1, 1],
        spec: Vec::new(),
        buffers: bufs,
        push: Vec::new(),
        check: Box::new(move |out| compare(&out[2], &want, tol, |i| format!("{:?}, {:?}", a[i], b[i]))),
    }
}

fn f32_ref(f: impl Fn(f64) -> f64) -> impl Fn(f32, f32) -> f32 {
    move |a, _| f(a as f64) as f32
}

fn frexp_ref(x: f32) -> (f32, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let (mut m, mut e) = (x as f64, 0);
    while m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m as f32, e)
}

fn hadd_i(a: i64, b: i64) -> i64 {
    (a + b) >> 1
}

#[allow(clippy::too_many_lines)]
fn cases() -> Vec<Case> {
    let s = |k: u64| 0x5eed_0000 + k;
    let mut c = vec![
        binop("add_i32", i32s(s(1)), i32s(s(2)), Tol::Exact, |a: i32, b: i32| a.wrapping_add(b)),
        binop("sub_i32", i32s(s(3)), i32s(s(4)), Tol::Exact, |a: i32, b: i32| a.wrapping_sub(b)),
        binop("mul_i32", i32s(s(5)), i32s(s(6)), Tol::Exact, |a: i32, b: i32| a.wrapping_mul(b)),
        binop("div_i32", i32s(s(7)), i32s(s(8)), Tol::Exact, |a: i32, b: i32| a.checked_div(b).unwrap_or(0)),
        binop("rem_i32", i32s(s(9)), i32s(s(10)), Tol::Exact, |a: i32, b: i32| a.checked_rem(b).unwrap_or(0)),
        binop("div_u32", u32s(s(11)), u32s(s(12)), Tol::Exact, |a: u32, b: u32| a.checked_div(b).unwrap_or(0)),
        binop("rem_u32", u32s(s(13)), u32s(s(14)), Tol::Exact, |a: u32, b: u32| a.checked_rem(b).unwrap_or(0)),
        binop("min_i32", i32s(s(15)), i32s(s(16)), Tol::Exact, |a: i32, b: i32| a.min(b)),
        binop("max_u32", u32s(s(17)), u32s(s(18)), Tol::Exact, |a: u32, b: u32| a.max(b)),
        binop("abs_i32", i32s(s(19)), i32s(s(20)), Tol::Exact, |a: i32, _| a.unsigned_abs()),
        binop("clamp_i32", i32s(s(21)), i32s(s(22)), Tol::Exact, |a: i32, b: i32| a.max(-1000).min(b.max(-1000))),
        binop("select_i32", i32s(s(23)), i32s(s(24)), Tol::Exact, |a: i32, b: i32| if a < b { b } else { a }),
        // OpenCL C 6.3.j: shift counts are taken modulo the width.
        binop("shl_i32", i32s(s(25)), u32s(s(26)), Tol::Exact, |a: i32, b: u32| a.wrapping_shl(b)),
        binop("ashr_i32", i32s(s(27)), u32s(s(28)), Tol::Exact, |a: i32, b: u32| a.wrapping_shr(b)),
        binop("lshr_u32", u32s(s(29)), u32s(s(30)), Tol::Exact, |a: u32, b: u32| a.wrapping_shr(b)),
        binop("rotate_u32", u32s(s(31)), u32s(s(32)), Tol::Exact, |a: u32, b: u32| a.rotate_left(b % 32)),
        binop("popcount_u32", u32s(s(33)), u32s(s(34)), Tol::Exact, |a: u32, _| a.count_ones()),
        binop("clz_u32", u32s(s(35)), u32s(s(36)), Tol::Exact, |a: u32, _| a.leading_zeros()),
        binop("ctz_u32", u32s(s(37)), u32s(s(38)), Tol::Exact, |a: u32, _| a.trailing_zeros()),
        binop("mad24_i32", i32s(s(39)), i32s(s(40)), Tol::Exact, |a: i32, b: i32| {
            ((a << 8) >> 8).wrapping_mul((b << 8) >> 8).wrapping_add(a)
        }),
        binop("mul24_u32", u32s(s(41)), u32s(s(42)), Tol::Exact, |a: u32, b: u32| {
            (a & 0xff_ffff).wrapping_mul(b & 0xff_ffff)
        }),
        binop("mul_hi_i32", i32s(s(43)), i32s(s(44)), Tol::Exact, |a: i32, b: i32| {
            ((a as i64 * b as i64) >> 32) as i32
        }),
        binop("mul_hi_u32", u32s(s(45)), u32s(s(46)), Tol::Exact, |a: u32, b: u32| {
            ((a as u64 * b as u64) >> 32) as u32
        }),
        binop("add_sat_i32", i32s(s(47)), i32s(s(48)), Tol::Exact, |a: i32, b: i32| a.saturating_add(b)),
        binop("sub_sat_u32", u32s(s(49)), u32s(s(50)), Tol::Exact, |a: u32, b: u32| a.saturating_sub(b)),
        binop("hadd_i32", i32s(s(51)), i32s(s(52)), Tol::Exact, |a: i32, b: i32| hadd_i(a as i64, b as i64) as i32),
        binop("rhadd_u32", u32s(s(53)), u32s(s(54)), Tol::Exact, |a: u32, b: u32| {
            ((a as u64 + b as u64 + 1) >> 1) as u32
        }),
        binop("bitops_u32", u32s(s(55)), u32s(s(56)), Tol::Exact, |a: u32, b: u32| (a & b) ^ (!a | (b >> 3))),
        binop("cmp_i32", i32s(s(57)), i32s(s(58)), Tol::Exact, |a: i32, b: i32| {
            (a < b) as i32 | ((a == b) as i32) << 1 | (((a as u32) > (b as u32)) as i32) << 2
        }),
        binop(
            "add_u8",
            u32s(s(59)).iter().map(|&v| v as u8).collect(),
            u32s(s(60)).iter().map(|&v| (v >> 7) as u8).collect(),
            Tol::Exact,
            |a: u8, b: u8| a.wrapping_add(b),
        ),
        binop(
            "mul_i16",
            i32s(s(61)).iter().map(|&v| v as i16).collect(),
            i32s(s(62)).iter().map(|&v| (v >> 5) as i16).collect(),
            Tol::Exact,
            |a: i16, b: i16| a.wrapping_mul(b),
        ),
        binop("sat_narrow", i32s(s(63)), i32s(s(64)), Tol::Exact, |a: i32, b: i32| {
            a.clamp(0, 255) as u32 | (a.clamp(-128, 127) as u8 as u32) << 8 | (b.clamp(0, 65535) as u32) << 16
        }),
        binop("sat_short", i32s(s(65)), i32s(s(66)), Tol::Exact, |a: i32, b: i32| {
            ((a >> 1) + (b >> 1)).clamp(-32768, 32767) as i16
        }),
        binop(
            "hadd_u16",
            u32s(s(67)).iter().map(|&v| v as u16).collect(),
            u32s(s(68)).iter().map(|&v| (v >> 3) as u16).collect(),
            Tol::Exact,
            |a: u16, b: u16| ((a as u32 + b as u32) >> 1) as u16,
        ),
        binop("mul_i64", i64s(s(69)), i64s(s(70)), Tol::Exact, |a: i64, b: i64| a.wrapping_mul(b)),
        binop("div_i64", i64s(s(71)), i64s(s(72)), Tol::Exact, |a: i64, b: i64| a.checked_div(b).unwrap_or(0)),
        binop("rem_u64", u64s(s(73)), u64s(s(74)), Tol::Exact, |a: u64, b: u64| a.checked_rem(b).unwrap_or(0)),
        binop("shl_i64", i64s(s(75)), u64s(s(76)), Tol::Exact, |a: i64, b: u64| a.wrapping_shl(b as u32)),
        binop("ashr_i64", i64s(s(77)), u64s(s(78)), Tol::Exact, |a: i64, b: u64| a.wrapping_shr(b as u32)),
        binop("mul_hi_u64", u64s(s(79)), u64s(s(80)), Tol::Exact, |a: u64, b: u64| {
            ((a as u128 * b as u128) >> 64) as u64
        }),
        binop("rotate_u64", u64s(s(81)), u64s(s(82)), Tol::Exact, |a: u64, b: u64| a.rotate_left((b % 64) as u32)),
        binop("minmax_i64", i64s(s(83)), i64s(s(84)), Tol::Exact, |a: i64, b: i64| a.min(b) ^ a.max(b).wrapping_shl(1)),
        // f32: correctly rounded operations are exact; OpenCL C 7.4 gives the others' ulps.
        binop("add_f32", f32s(s(85)), f32s(s(86)), Tol::Exact, |a: f32, b: f32| a + b),
        binop("mul_f32", f32s(s(87)), f32s(s(88)), Tol::Exact, |a: f32, b: f32| a * b),
        binop("div_f32", f32s(s(89)), f32s(s(90)), Tol::Ulp(3), |a: f32, b: f32| a / b),
        binop("fma_f32", f32s(s(91)), f32s(s(92)), Tol::Exact, |a: f32, b: f32| a.mul_add(b, a)),
        binop("fmin_f32", f32s(s(93)), f32s(s(94)), Tol::Ulp(0), |a: f32, b: f32| a.min(b)),
        binop("fmax_f32", f32s(s(95)), f32s(s(96)), Tol::Ulp(0), |a: f32, b: f32| a.max(b)),
        binop("copysign_f32", f32s(s(97)), f32s(s(98)), Tol::Exact, |a: f32, b: f32| a.abs().copysign(b)),
        binop("sqrt_f32", f32s(s(99)), f32s(s(100)), Tol::Ulp(3), f32_ref(f64::sqrt)),
        binop("rsqrt_f32", f32s_in(s(101), 1e-30, 1e30), f32s(s(102)), Tol::Ulp(2), f32_ref(|x| 1.0 / x.sqrt())),
        binop("recip_f32", f32s_in(s(103), -1e30, 1e30), f32s(s(104)), Tol::Ulp(1), f32_ref(|x| 1.0 / x)),
        binop("exp_f32", f32s_in(s(105), -80.0, 80.0), f32s(s(106)), Tol::Ulp(4), f32_ref(f64::exp)),
        binop("exp2_f32", f32s_in(s(107), -120.0, 120.0), f32s(s(108)), Tol::Ulp(3), f32_ref(f64::exp2)),
        binop("log_f32", f32s_in(s(109), 1e-30, 1e30), f32s(s(110)), Tol::Ulp(3), f32_ref(f64::ln)),
        binop("log2_f32", f32s_in(s(111), 1e-30, 1e30), f32s(s(112)), Tol::Ulp(3), f32_ref(f64::log2)),
        // native_*: implementation-defined precision (OpenCL C 7.4); the hardware's.
        binop(
            "sincos_f32",
            f32s_in(s(113), -std::f32::consts::PI, std::f32::consts::PI),
            f32s(s(114)),
            Tol::Abs(1e-5),
            |a: f32, _| [(a as f64).sin() as f32, (a as f64).cos() as f32],
        ),
        binop(
            "powr_f32",
            f32s_in(s(115), 0.01, 100.0),
            f32s_in(s(116), -4.0, 4.0),
            Tol::Rel(1e-5),
            |a: f32, b: f32| (a as f64).powf(b as f64) as f32,
        ),
        binop(
            "fmod_f32",
            f32s_in(s(117), -100.0, 100.0),
            fill(s(118), &[0.0, f32::INFINITY], |r| [1.5f32, 2.25, 3.0, 7.0, -0.75, 0.125][(r.next() % 6) as usize]),
            Tol::Exact,
            // What the code computes: LLVM 19 lowers frem to fma(-trunc(a / b), b, a) (a
            // correctly rounded division), not C's fmod: it gives NaN for b = inf and +0 for
            // fmod(-0, b), where C gives a and -0.
            |a: f32, b: f32| (-(a / b).trunc()).mul_add(b, a),
        ),
        binop("rounding_f32", f32s(s(119)), f32s(s(120)), Tol::Exact, |a: f32, _| {
            [a.floor(), a.ceil(), a.round(), a.trunc()]
        }),
        binop("rint_f32", f32s(s(121)), f32s(s(122)), Tol::Exact, |a: f32, _| a.round_ties_even()),
        binop(
            "ldexp_f32",
            f32s(s(123)),
            i32s(s(124)).iter().map(|v| v % 300).collect(),
            Tol::Exact,
            |a: f32, b: i32| (a as f64 * 2f64.powi(b)) as f32,
        ),
        binop("cmp_f32", f32s(s(125)), f32s(s(126)), Tol::Exact, |a: f32, b: f32| {
            (a < b) as i32 | ((a == b) as i32) << 1 | ((a.is_nan() || b.is_nan()) as i32) << 2
        }),
        binop("f32_to_i32", f32s_in(s(127), -2e9, 2e9), f32s(s(128)), Tol::Exact, |a: f32, _| {
            [a as i32, a.round_ties_even() as i32, a.ceil() as i32, a.floor() as i32]
        }),
        binop("i32_to_f32", i32s(s(129)), u32s(s(130)), Tol::Exact, |a: i32, b: u32| [a as f32, b as f32]),
        // OpenCL C 6.4.3.3: _sat conversions clamp, NaN gives 0 (as Rust's `as`).
        binop("f32_to_i32_sat", f32s(s(131)), f32s(s(132)), Tol::Exact, |a: f32, _| [a as i32 as u32, a as u32]),
        binop("f32_to_u8", f32s_in(s(133), 0.0, 255.9), f32s(s(134)), Tol::Exact, |a: f32, _| a as u8),
        binop("add_f16", f16s(s(135)), f16s(s(136)), Tol::Exact, |a: f16, b: f16| {
            f16::from_f64(a.to_f64() + b.to_f64())
        }),
        binop("mul_f16", f16s(s(137)), f16s(s(138)), Tol::Exact, |a: f16, b: f16| {
            f16::from_f64(a.to_f64() * b.to_f64())
        }),
        // The f64 reference rounds twice (to f64, then to f16): one ulp of slack.
        binop("fma_f16", f16s(s(139)), f16s(s(140)), Tol::Ulp(1), |a: f16, b: f16| {
            f16::from_f64(a.to_f64().mul_add(b.to_f64(), b.to_f64()))
        }),
        binop("f16_to_f32", f16s(s(141)), f32s(s(142)), Tol::Exact, |a: f16, b: f32| {
            [a.to_f32(), f16::from_f32(b).to_f32()]
        }),
        binop("add_f64", f64s(s(143)), f64s(s(144)), Tol::Exact, |a: f64, b: f64| a + b),
        binop("mul_f64", f64s(s(145)), f64s(s(146)), Tol::Exact, |a: f64, b: f64| a * b),
        binop("div_f64", f64s(s(147)), f64s(s(148)), Tol::Exact, |a: f64, b: f64| a / b),
        binop("sqrt_f64", f64s(s(149)), f64s(s(150)), Tol::Exact, |a: f64, _| a.sqrt()),
        binop("fma_f64", f64s(s(151)), f64s(s(152)), Tol::Exact, |a: f64, b: f64| a.mul_add(b, a)),
        binop("f64_conv", f64s(s(153)), i64s(s(154)), Tol::Exact, |a: f64, b: i64| [a as f32 as f64, b as f64]),
        binop(
            "f64_to_i64",
            f64s(s(155))
                .iter()
                .map(|v| if v.abs() < 9e18 { *v } else { v.signum() * 12345.5 })
                .map(|v| if v.is_nan() { 1.0 } else { v })
                .collect(),
            f64s(s(156)),
            Tol::Exact,
            |a: f64, _| a as i64,
        ),
    ];
    // frexp: two outputs.
    {
        let a = f32s_in(s(157), -1e30, 1e30);
        let want: Vec<(f32, i32)> = a.iter().map(|&x| frexp_ref(x)).collect();
        c.push(Case {
            file: SCALAR,
            kernel: "frexp_f32",
            groups: [(N / 64) as u32, 1, 1],
            spec: Vec::new(),
            buffers: vec![bytes(&a), vec![0; 4 * N], vec![0; 4 * N]],
            push: Vec::new(),
            check: Box::new(move |out| {
                let m: Vec<f32> = want.iter().map(|w| w.0).collect();
                let e: Vec<i32> = want.iter().map(|w| w.1).collect();
                compare(&out[2], &m, Tol::Exact, |i| format!("{:?}", a[i]))?;
                compare(&out[1], &e, Tol::Exact, |i| format!("{:?}", a[i]))
            }),
        });
    }
    c.extend(vector_cases());
    c.extend(group_cases());
    c
}

fn vector_cases() -> Vec<Case> {
    let mut out = Vec::new();
    let n4 = |seed| -> Vec<[f32; 4]> {
        f32s(seed)
            .chunks(1)
            .map(|_| ())
            .zip(0..)
            .map(|(_, i)| {
                let v = f32s(seed + i as u64);
                [v[i % N], v[(i + 7) % N], v[(i + 13) % N], v[(i + 29) % N]]
            })
            .collect()
    };
    {
        let (a, b) = (n4(0xa000), n4(0xb000));
        let k = [0.5f32, -1.0, 1e-3, 3.0];
        let want: Vec<[f32; 4]> =
            a.iter().zip(&b).map(|(x, y)| std::array::from_fn(|c| x[c].mul_add(y[c], k[c]))).collect();
        out.push(Case {
            file: VECTOR,
            kernel: "float4_mad",
            groups: [2, 1, 1],
            spec: Vec::new(),
            buffers: vec![bytes(&a), bytes(&b), vec![0; 16 * N]],
            push: bytes(&k),
            check: Box::new(move |o| compare(&o[2], &want, Tol::Exact, |i| format!("{:?} {:?}", a[i], b[i]))),
        });
    }
    let pairs = |seed: u64| -> Vec<[i32; 2]> {
        let (x, y) = (i32s(seed), i32s(seed + 1));
        x.into_iter().zip(y).map(|(a, b)| [a, b]).collect()
    };
    {
        let (a, b) = (pairs(0xc000), pairs(0xc100));
        let want: Vec<[i32; 2]> = a
            .iter()
            .zip(&b)
            .map(|(x, y)| [x[0].min(y[0]).wrapping_add(x[1].max(y[1])), x[1].min(y[1]).wrapping_add(x[0].max(y[0]))])
            .collect();
        out.push(Case {
            file: VECTOR,
            kernel: "int2_minmax",
            groups: [2, 1, 1],
            spec: Vec::new(),
            buffers: vec![bytes(&a), bytes(&b), vec![0; 8 * N]],
            push: Vec::new(),
            check: Box::new(move |o| compare(&o[2], &want, Tol::Exact, |i| format!("{:?} {:?}", a[i], b[i]))),
        });
    }
    {
        let a: Vec<[u8; 4]> = u32s(0xd000).iter().map(|v| v.to_le_bytes()).collect();
        let b: Vec<[u8; 4]> = u32s(0xd100).iter().map(|v| v.to_le_bytes()).collect();
        let want: Vec<[u8; 4]> =
            a.iter().zip(&b).map(|(x, y)| std::array::from_fn(|c| x[c].saturating_add(y[c]))).collect();
        out.push(Case {
            file: VECTOR,
            kernel: "uchar4_add_sat",
            groups: [2, 1, 1],
            spec: Vec::new(),
            buffers: vec![bytes(&a), bytes(&b), vec![0; 4 * N]],
            push: Vec::new(),
            check: Box::new(move |o| compare(&o[2], &want, Tol::Exact, |i| format!("{:?} {:?}", a[i], b[i]))),
        });
    }
    {
        let a: Vec<[i32; 4]> = pairs(0xe000).iter().zip(pairs(0xe100)).map(|(x, y)| [x[0], x[1], y[0], y[1]]).collect();
        let want: Vec<[i32; 4]> = a
            .iter()
            .map(|v| {
                std::array::from_fn(|k| {
                    let sel = if v[k] > 0 { v[2] } else { v[k] };
                    v[3 - k].wrapping_add(v[k ^ 1].wrapping_mul(3)).wrapping_add(sel)
                })
            })
            .collect();
        out.push(Case {
            file: VECTOR,
            kernel: "swizzle",
            groups: [2, 1, 1],
            spec: Vec::new(),
            buffers: vec![bytes(&a), vec![0; 16 * N]],
            push: Vec::new(),
            check: Box::new(move |o| compare(&o[1], &want, Tol::Exact, |i| format!("{:?}", a[i]))),
        });
    }
    {
        // item_t { int id; float weight; long total; }, params_t { int bias; float scale; }, long extra.
        let ids = i32s(0xf000);
        let w = f32s(0xf100);
        let t = i64s(0xf200);
        let mut items = Vec::new();
        let mut want = Vec::new();
        let (bias, scale, extra) = (-77i32, 1.25f32, 1i64 << 40);
        for i in 0..N {
            ids[i].put(&mut items);
            w[i].put(&mut items);
            t[i].put(&mut items);
            want.push((ids[i].wrapping_add(bias), w[i] * scale, t[i].wrapping_mul(3).wrapping_add(extra)));
        }
        let mut push = Vec::new();
        bias.put(&mut push);
        scale.put(&mut push);
        extra.put(&mut push);
        out.push(Case {
            file: VECTOR,
            kernel: "structs",
            groups: [2, 1, 1],
            spec: Vec::new(),
            buffers: vec![items, vec![0; 16 * N]],
            push,
            check: Box::new(move |o| {
                let got: Vec<(i32, f32, i64)> =
                    o[1].chunks_exact(16).map(|c| (i32::get(c), f32::get(&c[4..]), i64::get(&c[8..]))).collect();
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    if g.0 != w.0 || !g.1.close(w.1, Tol::Exact) || g.2 != w.2 {
                        return Err(format!("item {i}: got {g:?}, want {w:?}"));
                    }
                }
                Ok(())
            }),
        });
    }
    out
}

fn group_case(kernel: &'static str, groups: [u32; 3], buffers: Vec<Vec<u8>>, push: Vec<u8>, check: Check) -> Case {
    Case { file: GROUP, kernel, groups, spec: Vec::new(), buffers, push, check }
}

fn expect<T: Val>(at: usize, want: Vec<T>, tol: Tol) -> Check {
    Box::new(move |o| compare(&o[at], &want, tol, |i| format!("element {i}")))
}

#[allow(clippy::too_many_lines)]
fn group_cases() -> Vec<Case> {
    let mut out = Vec::new();
    let n = 256usize;
    let a: Vec<i32> =
        (0..n).map(|i| ((i as i32 * 7919) % 2001 - 1000).wrapping_add(if i == 5 { i32::MAX } else { 0 })).collect();
    let sums: Vec<i32> = a.chunks(64).map(|c| c.iter().fold(0i32, |s, &v| s.wrapping_add(v))).collect();
    out.push(group_case("reduce_sum", [4, 1, 1], vec![bytes(&a), vec![0; 16]], vec![], expect(1, sums, Tol::Exact)));
    let scan: Vec<i32> = a
        .chunks(128)
        .flat_map(|c| {
            c.iter()
                .scan(0i32, |s, &v| {
                    *s = s.wrapping_add(v);
                    Some(*s)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.push(group_case("prefix_sum", [2, 1, 1], vec![bytes(&a), vec![0; 4 * n]], vec![], expect(1, scan, Tol::Exact)));
    {
        let m = 32usize;
        let src: Vec<f32> = (0..m * m).map(|i| i as f32 * 0.5 - 3.0).collect();
        let want: Vec<f32> = (0..m * m).map(|i| src[(i % m) * m + i / m]).collect();
        let push = bytes(&[m as u32]);
        out.push(group_case(
            "transpose",
            [2, 2, 1],
            vec![bytes(&src), vec![0; 4 * m * m]],
            push,
            expect(1, want, Tol::Exact),
        ));
    }
    {
        let v = u32s(0x4157);
        let v: Vec<u32> = v.iter().chain(u32s(0x4158).iter()).copied().collect();
        let mut h = vec![0u32; 16];
        for x in &v {
            for k in 0..4 {
                h[((x >> (8 * k)) & 15) as usize] += 1;
            }
        }
        out.push(group_case("histogram", [4, 1, 1], vec![bytes(&v), vec![0; 64]], vec![], expect(1, h, Tol::Exact)));
    }
    {
        let v = i32s(0xa70);
        let init = [0, i32::MAX, i32::MIN, 0, 0, 0, -5, -5];
        let sum = v.iter().fold(0i32, |s, &x| s.wrapping_add(x));
        let xor = v.iter().fold(0i32, |s, &x| s ^ x);
        let (mn, mx) = (*v.iter().min().unwrap(), *v.iter().max().unwrap());
        let vv = v.clone();
        out.push(group_case(
            "atomics",
            [2, 1, 1],
            vec![bytes(&v), bytes(&init)],
            vec![],
            Box::new(move |o| {
                let c: Vec<i32> = values(&o[1]);
                // atomic_inc32 with limit 9 wraps to 0 after 9: 128 increments from 0 leave 128 % 10.
                let want = [sum, mn, mx, N as i32, xor, (N % 10) as i32];
                if c[..6] != want {
                    return Err(format!("counters {:?}, want {want:?}", &c[..6]));
                }
                let even = vv.iter().step_by(2).any(|&x| x == c[6]);
                let odd = vv.iter().skip(1).step_by(2).any(|&x| x == c[7]);
                if !even || !odd {
                    return Err(format!("xchg left {} and {}, not values of the even/odd items", c[6], c[7]));
                }
                Ok(())
            }),
        ));
    }
    {
        let v = i32s(0x10c);
        let want: Vec<i32> = v
            .chunks(64)
            .flat_map(|c| {
                [c.iter().fold(0i32, |s, &x| s.wrapping_add(x)), *c.iter().min().unwrap(), *c.iter().max().unwrap()]
            })
            .collect();
        out.push(group_case(
            "local_atomics",
            [2, 1, 1],
            vec![bytes(&v), vec![0; 24]],
            vec![],
            expect(1, want, Tol::Exact),
        ));
    }
    {
        let v = i32s(0xd1);
        let want: Vec<i32> = (0..N).map(|i| v[i / 64 * 64 + 63 - i % 64].wrapping_mul(2)).collect();
        let mut c =
            group_case("dynamic_lds", [2, 1, 1], vec![bytes(&v), vec![0; 4 * N]], vec![], expect(1, want, Tol::Exact));
        c.spec = vec![(3, 64 * 4)];
        out.push(c);
    }
    {
        let v: Vec<u32> = (0..N as u32).map(|i| i * 37 + 1).collect();
        let want: Vec<u32> = v
            .iter()
            .map(|&x| {
                let (mut x, mut s) = (x, 0);
                while x > 1 && s < 1000 {
                    x = if x & 1 != 0 { x.wrapping_mul(3).wrapping_add(1) } else { x / 2 };
                    s += 1;
                }
                s
            })
            .collect();
        out.push(group_case(
            "collatz",
            [2, 1, 1],
            vec![bytes(&v), vec![0; 4 * N]],
            vec![],
            expect(1, want, Tol::Exact),
        ));
    }
    {
        let v = i32s(0x5c);
        let want: Vec<i32> = v
            .iter()
            .map(|&a| match a & 7 {
                0 => a.wrapping_mul(2),
                1 => a.wrapping_sub(100),
                2 | 3 => a ^ 0x55,
                5 => a.wrapping_neg(),
                _ => a / 3,
            })
            .collect();
        out.push(group_case(
            "switch_case",
            [2, 1, 1],
            vec![bytes(&v), vec![0; 4 * N]],
            vec![],
            expect(1, want, Tol::Exact),
        ));
    }
    {
        let v: Vec<i32> = i32s(0xb4).iter().map(|x| x % 200).collect();
        let want: Vec<i32> = v
            .iter()
            .map(|&a| {
                if a > 0 {
                    match a % 3 {
                        0 => 1,
                        1 => 2,
                        _ => (0..(a & 15)).sum(),
                    }
                } else if a < -50 {
                    -1
                } else {
                    0
                }
            })
            .collect();
        out.push(group_case(
            "branches",
            [2, 1, 1],
            vec![bytes(&v), vec![0; 4 * N]],
            vec![],
            expect(1, want, Tol::Exact),
        ));
    }
    {
        let a: Vec<u32> = (0..N * 16).map(|i| (i as u32).wrapping_mul(2654435761) >> 7).collect();
        let want: Vec<u32> = (0..N)
            .map(|i| {
                let mut v: Vec<u32> = (0..16).map(|k| a[(i * 16 + k * 7) % (N * 16)]).collect();
                v.sort_unstable();
                v[(a[i] & 15) as usize] ^ v[0] << 1
            })
            .collect();
        out.push(group_case(
            "private_sort",
            [2, 1, 1],
            vec![bytes(&a), vec![0; 4 * N]],
            vec![],
            expect(1, want, Tol::Exact),
        ));
    }
    {
        let m = 16usize;
        let am: Vec<f32> = (0..m * m).map(|i| ((i * 37) % 23) as f32 * 0.25 - 2.0).collect();
        let bm: Vec<f32> = (0..m * m).map(|i| ((i * 11) % 17) as f32 * 0.5 - 4.0).collect();
        let want: Vec<f32> = (0..m * m)
            .map(|i| (0..m).fold(0.0f32, |acc, k| am[(i / m) * m + k].mul_add(bm[k * m + i % m], acc)))
            .collect();
        let push = bytes(&[m as u32]);
        out.push(group_case(
            "matmul",
            [2, 2, 1],
            vec![bytes(&am), bytes(&bm), vec![0; 4 * m * m]],
            push,
            expect(2, want, Tol::Exact),
        ));
    }
    {
        let v = f32s_in(0x57e, -1000.0, 1000.0);
        let want: Vec<f32> = (0..N)
            .map(|i| {
                let (l, c, r) = (v[i.saturating_sub(1)], v[i], v[(i + 1).min(N - 1)]);
                0.25 * l + 0.5 * c + 0.25 * r
            })
            .collect();
        out.push(group_case(
            "stencil",
            [2, 1, 1],
            vec![bytes(&v), vec![0; 4 * N]],
            vec![],
            expect(1, want, Tol::Exact),
        ));
    }
    {
        // Workgroup size from specialisation constants 0, 1, 2 (no reqd_work_group_size).
        let (ls, gs) = ([4u32, 2, 2], [2u32, 2, 2]);
        let size = [0, 1, 2].map(|d| ls[d] * gs[d]);
        let mut want = vec![0u32; 4 * (size[0] * size[1] * size[2]) as usize];
        for z in 0..size[2] {
            for y in 0..size[1] {
                for x in 0..size[0] {
                    let i = 4 * ((z * size[1] + y) * size[0] + x) as usize;
                    want[i] = x | y << 8 | z << 16 | 3 << 24;
                    want[i + 1] = (x % ls[0]) | ((y % ls[1]) << 8) | ((z % ls[2]) << 16);
                    want[i + 2] = (x / ls[0]) | ((y / ls[1]) << 8) | ((z / ls[2]) << 16);
                    want[i + 3] = gs[0] | gs[1] << 8 | gs[2] << 16 | ls[0] << 24;
                }
            }
        }
        let len = want.len();
        let mut c = group_case("ids_3d", gs, vec![vec![0; 4 * len]], vec![], expect(0, want, Tol::Exact));
        c.spec = vec![(0, ls[0]), (1, ls[1]), (2, ls[2])];
        out.push(c);
    }
    out
}

/// The sub-group case depends on the wave size.
fn subgroup_case(wave: usize) -> Case {
    let v = i32s(0x5b);
    let mut want = Vec::new();
    for i in 0..N {
        let w = i / wave * wave;
        let sum = v[w..w + wave].iter().fold(0i32, |s, &x| s.wrapping_add(x));
        want.extend_from_slice(&[wave as i32, (i % wave) as i32, v[w + 1], sum]);
    }
    group_case("subgroups", [2, 1, 1], vec![bytes(&v), vec![0; 16 * N]], vec![], expect(1, want, Tol::Exact))
}

// ---- running --------------------------------------------------------------------------------

/// Shader module code is u32 words: the ELF copied into aligned storage, zero-padded.
fn code_words(elf: &[u8]) -> Vec<u32> {
    elf.chunks(4)
        .map(|c| {
            let mut b = [0u8; 4];
            b[..c.len()].copy_from_slice(c);
            u32::from_le_bytes(b)
        })
        .collect()
}

/// Runs one case; returns the buffers' contents afterwards.
fn run(ctx: &Context, elf: &[u8], case: &Case) -> Result<Vec<Vec<u8>>, Error> {
    let code = code_words(elf);
    let bindings: Vec<Binding> =
        case.buffers.iter().map(|data| Binding { kind: Kind::Storage, data: data.clone() }).collect();
    let spec: Vec<(u32, Vec<u8>)> = case.spec.iter().map(|&(id, v)| (id, v.to_le_bytes().to_vec())).collect();
    dispatch::run(
        ctx,
        &Dispatch {
            code: &code,
            entry: case.kernel,
            bindings: &bindings,
            push: &case.push,
            spec: &spec,
            groups: case.groups,
            subgroup_size: None,
            images: &[],
        },
    )
}

fn context() -> Result<Context, Error> {
    Context::new(&ContextOptions {
        compute_only_queue: false,
        app_name: "softnavi-clkernels",
        device_filter: None,
        validate: false,
        shader_features: false,
    })
}

/// Bad code objects: module creation or pipeline creation must fail with an error code
/// (the ICD logs why), never crash. Prints one `MALFORMED <what> <result>` line each.
fn malformed() -> Result<(), Error> {
    let ctx = context()?;
    let good = BUILDS[0].1[SCALAR];
    let mut wrong_machine = good.to_vec();
    wrong_machine[18] = 62; // EM_X86_64
    let mut bad_version = good.to_vec();
    bad_version[8] = 9; // EI_ABIVERSION
    let mut bad_shoff = good.to_vec();
    bad_shoff[40..48].copy_from_slice(&u64::MAX.to_le_bytes());
    let mut bad_note = good.to_vec();
    // Scribble over the metadata note (msgpack map keys).
    if let Some(at) = good.windows(14).position(|w| w == b"amdhsa.kernels") {
        bad_note[at..at + 14].copy_from_slice(b"xxxxxxxxxxxxxx");
    }
    for (what, elf) in [
        ("truncated", &good[..100]),
        ("wrong-machine", &wrong_machine[..]),
        ("bad-version", &bad_version[..]),
        ("bad-section-offset", &bad_shoff[..]),
        ("bad-metadata", &bad_note[..]),
    ] {
        let words = code_words(elf);
        // SAFETY: valid device and create info.
        match unsafe { ctx.device().create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None) } {
            Ok(m) => {
                println!("MALFORMED {what} module created");
                // SAFETY: just created, unused.
                unsafe { ctx.device().destroy_shader_module(m, None) };
            }
            Err(e) => println!("MALFORMED {what} {e:?}"),
        }
    }
    let missing = Case {
        file: SCALAR,
        kernel: "no_such_kernel",
        groups: [1, 1, 1],
        spec: Vec::new(),
        buffers: vec![vec![0; 4]],
        push: Vec::new(),
        check: Box::new(|_| Ok(())),
    };
    match run(&ctx, good, &missing) {
        Ok(_) => println!("MALFORMED missing-kernel pipeline created"),
        Err(e) => println!("MALFORMED missing-kernel {e:?}"),
    }
    let mut few = binop("add_i32", vec![0i32; N], vec![0i32; N], Tol::Exact, |a: i32, b: i32| a + b);
    few.buffers.truncate(2);
    match run(&ctx, good, &few) {
        Ok(_) => println!("MALFORMED too-few-buffers pipeline created"),
        Err(e) => println!("MALFORMED too-few-buffers {e:?}"),
    }
    let mut no_lds = group_cases().into_iter().find(|c| c.kernel == "dynamic_lds").expect("the case exists");
    no_lds.spec.clear();
    match run(&ctx, BUILDS[0].1[GROUP], &no_lds) {
        Ok(_) => println!("MALFORMED dynamic-lds-without-size pipeline created"),
        Err(e) => println!("MALFORMED dynamic-lds-without-size {e:?}"),
    }
    Ok(())
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.first().map(String::as_str) == Some("malformed") {
        return match malformed() {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e:?}");
                ExitCode::from(1)
            }
        };
    }
    let Some((build, elfs)) = args.first().and_then(|b| BUILDS.iter().find(|(n, _)| n == b)) else {
        eprintln!("usage: softnavi-clkernels {{w32v5|w64v5|w32v4|w64v6rel}} [KERNEL...]");
        return ExitCode::from(2);
    };
    let wave = if build.starts_with("w64") { 64 } else { 32 };
    let filter = &args[1..];
    let mut all = cases();
    all.push(subgroup_case(wave));
    all.extend(memory::cases(wave));
    let mut ctx = match context() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("no Vulkan device: {e:?}");
            return ExitCode::from(1);
        }
    };
    for case in all.iter().filter(|c| filter.is_empty() || filter.iter().any(|f| f == c.kernel)) {
        eprintln!("=== kernel {}", case.kernel);
        let verdict = match run(&ctx, elfs[case.file], case) {
            Ok(out) => match (case.check)(&out) {
                Ok(()) => "PASS".to_string(),
                Err(e) => format!("FAIL wrong results: {e}"),
            },
            Err(e) => {
                let lost = matches!(e, Error::Vulkan { result: vk::Result::ERROR_DEVICE_LOST, .. });
                if lost {
                    match context() {
                        Ok(c) => ctx = c,
                        Err(e2) => {
                            println!("KERNEL {} FAIL {e:?}; no new device: {e2:?}", case.kernel);
                            return ExitCode::from(1);
                        }
                    }
                }
                format!("FAIL {e:?}")
            }
        };
        println!("KERNEL {} {verdict}", case.kernel);
    }
    eprintln!("=== end");
    ExitCode::SUCCESS
}
