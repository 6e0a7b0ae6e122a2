//! Cases of `tests/spirv/glsl450/`: every GLSL.std.450 instruction valid in compute, against
//! host math (f64) with the error bounds of the Vulkan specification's "Precision and
//! Operation of SPIR-V Instructions" table.

use half::f16;
use softnavi_tests::check::{f32s_in, i32s, i64s, u32s, Tol, N};

use crate::harness::{Case, Need, Output};

/// One result array of a shader: its reference and the absolute error allowed per element.
struct Want {
    what: &'static str,
    want: Vec<f64>,
    tol: Vec<f64>,
}

impl Want {
    fn new(what: &'static str, want: Vec<f64>, tol: impl Fn(usize, f64) -> f64) -> Want {
        let tol = want.iter().enumerate().map(|(i, w)| tol(i, *w)).collect();
        Want { what, want, tol }
    }
    fn exact(what: &'static str, want: Vec<f64>) -> Want {
        Want::new(what, want, |_, _| 0.0)
    }
}

/// The spacing of f32 values at `w` (the smallest normal spacing near 0).
fn ulp32(w: f64) -> f64 {
    let f = (w.abs() as f32).max(f32::MIN_POSITIVE);
    if !f.is_finite() {
        return 0.0;
    }
    f64::from(f32::from_bits(f.to_bits() + 1) - f)
}

fn ulp64(w: f64) -> f64 {
    let f = w.abs().max(f64::MIN_POSITIVE);
    if !f.is_finite() {
        return 0.0;
    }
    f64::from_bits(f.to_bits() + 1) - f
}

fn ulp16(w: f64) -> f64 {
    let f = f16::from_f64(w.abs()).max(f16::MIN_POSITIVE);
    if !f.is_finite() {
        return 0.0;
    }
    (f16::from_bits(f.to_bits() + 1) - f).to_f64()
}

/// Compares results laid out as consecutive arrays of `block` values with `wants`.
fn within(got: &[f64], wants: &[Want], block: usize) -> Result<(), String> {
    for (k, w) in wants.iter().enumerate() {
        for (i, (&want, &tol)) in w.want.iter().zip(&w.tol).enumerate() {
            let g = *got.get(k * block + i).ok_or_else(|| format!("{}: no result {i}", w.what))?;
            // An infinite bound marks a result the specification leaves undefined.
            let ok = if tol.is_infinite() {
                true
            } else if want.is_nan() {
                g.is_nan()
            } else if want.is_infinite() {
                g == want
            } else {
                (g - want).abs() <= tol
            };
            if !ok {
                return Err(format!("{} [{i}]: got {g:e}, want {want:e} (+-{tol:e})", w.what));
            }
        }
    }
    Ok(())
}

fn check32(binding: usize, block: usize, wants: Vec<Want>) -> impl Fn(&Output) -> Result<(), String> {
    move |o| within(&o.get::<f32>(binding).iter().map(|&v| f64::from(v)).collect::<Vec<_>>(), &wants, block)
}

/// Finite floats in [lo, hi) without denormals (which an implementation may flush).
fn floats(seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    f32s_in(seed, lo, hi).into_iter().map(|v| if v != 0.0 && v.abs() < 1e-30 { 0.25 } else { v }).collect()
}

fn f64s_of(v: &[f32]) -> Vec<f64> {
    v.iter().map(|&x| f64::from(x)).collect()
}

fn map(v: &[f32], f: impl Fn(f64) -> f64) -> Vec<f64> {
    v.iter().map(|&x| f(f64::from(x))).collect()
}

pub fn cases() -> Vec<Case> {
    let mut out = vec![rounding(), trig(), atan(), hyperbolic(), exp_log(), minmax(), nminmax(), mix_step()];
    out.extend([
        frexp_ldexp(),
        frexp_half3(),
        modf(),
        forms(),
        pack(),
        unpack(),
        geometry(),
        find_bits(),
        double(),
        half(),
    ]);
    out.push(int64());
    out
}

fn rounding() -> Case {
    let mut a = floats(1, -100.0, 100.0);
    for (i, v) in [-3.5f32, -0.5, 0.5, 4.5, 7.5, -12.5].iter().enumerate() {
        a[40 + i] = *v;
    }
    let f = |g: fn(f32) -> f32| a.iter().map(|&x| f64::from(g(x))).collect::<Vec<_>>();
    let sign = |x: f32| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            x
        }
    };
    let round = f(f32::round);
    // round() of a tie may go either way.
    let ties: Vec<bool> = a.iter().map(|x| x.fract().abs() == 0.5).collect();
    let wants = vec![
        Want::exact("roundEven", f(f32::round_ties_even)),
        Want::exact("trunc", f(f32::trunc)),
        Want::exact("floor", f(f32::floor)),
        Want::exact("ceil", f(f32::ceil)),
        Want::exact("fract", f(|x| x - x.floor())),
        Want::exact("abs", f(f32::abs)),
        Want::exact("sign", f(sign)),
        Want::new("round", round, |i, _| if ties[i] { 1.0 } else { 0.0 }),
    ];
    Case::new("glsl450/rounding", [2, 1, 1]).storage_of(&a).output(4 * 8 * N).check(check32(1, N, wants))
}

fn trig() -> Case {
    let pi = std::f32::consts::PI;
    let a = floats(2, -pi, pi);
    // Vulkan: sin, cos absolute 2^-11 inside [-pi, pi]; tan inherits sin / cos.
    let e = 2f64.powi(-11);
    let tan_in: Vec<f64> = a.iter().map(|&x| f64::from(x * 0.35)).collect();
    let tan = tan_in.iter().map(|x| x.tan()).collect();
    let tan_tol: Vec<f64> =
        tan_in.iter().map(|x| (e + x.tan().abs() * e) / x.cos().abs() + 3.0 * ulp32(x.tan())).collect();
    let rad: Vec<f64> = a.iter().map(|&x| f64::from(x * 50.0).to_radians()).collect();
    let wants = vec![
        Want::new("sin", map(&a, f64::sin), |_, _| e),
        Want::new("cos", map(&a, f64::cos), |_, _| e),
        Want::new("tan", tan, |i, _| tan_tol[i]),
        Want::new("radians", rad, |_, w| 2.0 * ulp32(w)),
        Want::new("degrees", map(&a, f64::to_degrees), |_, w| 2.0 * ulp32(w)),
    ];
    Case::new("glsl450/trig", [2, 1, 1]).storage_of(&a).output(4 * 5 * N).check(check32(1, N, wants))
}

fn atan() -> Case {
    let (a, b) = (floats(3, -50.0, 50.0), floats(4, -10.0, 10.0));
    // atan, atan2: 4096 ulp; asin, acos inherit atan2(x, sqrt(1 - x^2)).
    let atan2: Vec<f64> = a.iter().zip(&b).map(|(&y, &x)| f64::from(y).atan2(f64::from(x))).collect();
    let both0: Vec<bool> = a.iter().zip(&b).map(|(y, x)| *y == 0.0 && *x == 0.0).collect();
    let s: Vec<f32> = b.iter().map(|y| y / 10.0).collect();
    let wants = vec![
        Want::new("atan", map(&a, f64::atan), |_, w| 4096.0 * ulp32(w)),
        Want::new("atan2", atan2, |i, w| if both0[i] { f64::INFINITY } else { 4096.0 * ulp32(w) }),
        Want::new("asin", map(&s, f64::asin), |_, w| 4096.0 * ulp32(w) + 2e-5),
        Want::new("acos", map(&s, f64::acos), |_, w| 4096.0 * ulp32(w) + 2e-5),
    ];
    Case::new("glsl450/atan", [2, 1, 1]).storage_of(&a).storage_of(&b).output(4 * 4 * N).check(check32(2, N, wants))
}

fn hyperbolic() -> Case {
    let a = floats(5, -5.0, 5.0);
    // All inherit their defining expressions in exp / log; bounds relative to the size of
    // the exponentials involved, absolute where the defining expression cancels.
    let scaled = |k: f32, c: f32| a.iter().map(|&x| f64::from(x.abs() * k + c)).collect::<Vec<_>>();
    let acosh_in = scaled(10.0, 1.0);
    let wants = vec![
        Want::new("sinh", map(&a, f64::sinh), |i, _| 1e-5 * f64::from(a[i]).cosh()),
        Want::new("cosh", map(&a, f64::cosh), |_, w| 1e-5 * w),
        Want::new("tanh", a.iter().map(|&x| f64::from(x * 4.0).tanh()).collect(), |_, _| 1e-5),
        Want::new("asinh", a.iter().map(|&x| f64::from(x * 10.0).asinh()).collect(), |_, w| 2e-6 + 1e-5 * w.abs()),
        Want::new("acosh", acosh_in.iter().map(|x| x.acosh()).collect(), |_, w| 1e-4 + 1e-5 * w),
        Want::new("atanh", a.iter().map(|&x| f64::from(x * 0.19).atanh()).collect(), |_, w| 2e-6 + 1e-5 * w.abs()),
    ];
    Case::new("glsl450/hyperbolic", [2, 1, 1]).storage_of(&a).output(4 * 6 * N).check(check32(1, N, wants))
}

/// Vulkan's log / log2 bound: absolute 2^-21 inside [0.5, 2], 3 ulp outside.
fn log_tol(x: f64, w: f64) -> f64 {
    if (0.5..=2.0).contains(&x) {
        2f64.powi(-21)
    } else {
        3.0 * ulp32(w)
    }
}

fn exp_log() -> Case {
    let (a, b) = (floats(6, -10.0, 10.0), floats(7, 0.01, 100.0));
    let b = b.into_iter().map(|v| if v <= 0.0 { 0.75 } else { v }).collect::<Vec<_>>();
    let x15: Vec<f32> = a.iter().map(|x| x * 1.5).collect();
    let x03: Vec<f32> = a.iter().map(|x| x * 0.3).collect();
    // exp, exp2: (3 + 2|x|) ulp; pow inherits exp2(y * log2(x)).
    let pow: Vec<f64> = b.iter().zip(&x03).map(|(&y, &e)| f64::from(y).powf(f64::from(e))).collect();
    let pow_tol: Vec<f64> = b
        .iter()
        .zip(&x03)
        .zip(&pow)
        .map(|((&y, &e), &w)| {
            let (y, e) = (f64::from(y), f64::from(e));
            let l = y.log2();
            let p = e * l;
            w * (e.abs() * log_tol(y, l) * 2f64.ln() + (4.0 + 2.0 * p.abs()) * 2f64.powi(-23))
        })
        .collect();
    let wants = vec![
        Want::new("exp", map(&a, f64::exp), |i, w| (3.0 + 2.0 * f64::from(a[i]).abs()) * ulp32(w)),
        Want::new("exp2", map(&x15, f64::exp2), |i, w| (3.0 + 2.0 * f64::from(x15[i]).abs()) * ulp32(w)),
        Want::new("log", map(&b, f64::ln), |i, w| log_tol(f64::from(b[i]), w)),
        Want::new("log2", map(&b, f64::log2), |i, w| log_tol(f64::from(b[i]), w)),
        Want::new("pow", pow, |i, _| pow_tol[i]),
        // sqrt inherits 1 / inversesqrt: 2 ulp and a 2.5 ulp division.
        Want::new("sqrt", map(&b, f64::sqrt), |_, w| 5.0 * ulp32(w)),
        Want::new("inversesqrt", map(&b, |x| 1.0 / x.sqrt()), |_, w| 2.0 * ulp32(w)),
    ];
    Case::new("glsl450/exp_log", [2, 1, 1]).storage_of(&a).storage_of(&b).output(4 * 7 * N).check(check32(2, N, wants))
}

fn minmax() -> Case {
    let (a, b) = (i32s(8), i32s(9));
    // No zeros: min / max / clamp of +0 and -0 may give either.
    let f: Vec<f32> = floats(10, -1000.0, 1000.0).into_iter().map(|v| if v == 0.0 { 0.5 } else { v }).collect();
    let m = N / 4; // ivec4 / vec4 elements
    let mut want: Vec<i32> = Vec::new();
    let per = |g: &dyn Fn(i32, i32) -> i32| a.iter().zip(&b).map(|(&x, &y)| g(x, y)).collect::<Vec<i32>>();
    want.extend(per(&|x, y| x.min(y)));
    want.extend(per(&|x, y| x.max(y)));
    want.extend(per(&|x, y| {
        let (lo, hi) = (y.min(y.wrapping_neg()), y.max(y.wrapping_neg()));
        x.max(lo).min(hi)
    }));
    want.extend(per(&|x, y| (x as u32).min(y as u32) as i32));
    want.extend(per(&|x, y| (x as u32).max(y as u32) as i32));
    want.extend(per(&|x, y| {
        let (ux, uy) = (x as u32, y as u32);
        ux.max(uy.min(uy >> 1)).min(uy.max(uy >> 1)) as i32
    }));
    want.extend(per(&|x, _| x.wrapping_abs()));
    want.extend(per(&|x, _| x.signum()));
    let mut fwant = Vec::new();
    let w = |i: usize| f[(((i / 4) + 7) % m) * 4 + i % 4];
    fwant.extend((0..N).map(|i| f[i].min(w(i))));
    fwant.extend((0..N).map(|i| f[i].max(w(i))));
    fwant.extend((0..N).map(|i| f[i].max(-w(i).abs()).min(w(i).abs())));
    Case::new("glsl450/minmax", [1, 1, 1])
        .storage_of(&a)
        .storage_of(&b)
        .storage_of(&f)
        .output(4 * 8 * N)
        .output(4 * 3 * N)
        .expect(3, want, Tol::Exact)
        .expect(4, fwant, Tol::Exact)
}

fn nminmax() -> Case {
    let (mut a, mut b) = (floats(11, -4.0, 4.0), floats(12, -4.0, 4.0));
    for i in (20..N).step_by(7) {
        a[i] = f32::NAN;
    }
    for i in (23..N).step_by(11) {
        b[i] = f32::NAN;
    }
    // NMin / NMax: a NaN operand gives the other (f32::min / max do the same); NClamp is
    // NMin(NMax(x, lo), hi).
    let mut want: Vec<f32> = a.iter().zip(&b).map(|(x, y)| x.min(*y)).collect();
    want.extend(a.iter().zip(&b).map(|(x, y)| x.max(*y)));
    want.extend(a.iter().zip(&b).map(|(x, y)| x.max(-1.0).min(*y)));
    let clamp_defined: Vec<bool> = a.iter().zip(&b).map(|(_, y)| y.is_nan() || *y >= -1.0).collect();
    Case::new("glsl450/nminmax", [2, 1, 1]).storage_of(&a).storage_of(&b).output(4 * 3 * N).check(move |o| {
        let got = o.get::<f32>(2);
        for (i, (g, w)) in got.iter().zip(&want).enumerate() {
            let defined = i < 2 * N || clamp_defined[i - 2 * N];
            if defined && !(g == w || g.is_nan() && w.is_nan()) {
                return Err(format!("element {i}: got {g}, want {w}"));
            }
        }
        Ok(())
    })
}

fn mix_step() -> Case {
    let (a, b, c) = (floats(13, -10.0, 10.0), floats(14, -10.0, 10.0), floats(15, 0.0, 1.0));
    let f = |i: usize| (f64::from(a[i]), f64::from(b[i]), f64::from(c[i]));
    let mix: Vec<f64> = (0..N)
        .map(|i| {
            let (x, y, t) = f(i);
            x * (1.0 - t) + y * t
        })
        .collect();
    let step: Vec<f64> = (0..N).map(|i| if a[i] < b[i] { 0.0 } else { 1.0 }).collect();
    let smooth: Vec<f64> = (0..N)
        .map(|i| {
            let (x, y, _) = f(i);
            let t = ((x - y) / 3.0).clamp(0.0, 1.0);
            t * t * (3.0 - 2.0 * t)
        })
        .collect();
    let fma: Vec<f64> = (0..N).map(|i| f64::from(a[i].mul_add(b[i], c[i]))).collect();
    let sel: Vec<f64> = (0..N).map(|i| f64::from(if c[i] > 0.5 { b[i] } else { a[i] })).collect();
    let wants = vec![
        Want::new("mix", mix, |i, _| 4.0 * ulp32(f64::from(a[i].abs() + b[i].abs()))),
        Want::exact("step", step),
        // The quotient is a 2.5-ulp division; its error grows by at most 1.5x through t^2 (3 - 2t).
        Want::new("smoothstep", smooth, |_, _| 1e-5),
        // fma may be fused or a rounded multiply then add.
        Want::new("fma", fma, |i, w| ulp32(w) + ulp32(f64::from(a[i] * b[i]))),
        Want::exact("mix(bool)", sel),
    ];
    Case::new("glsl450/mix_step", [2, 1, 1])
        .storage_of(&a)
        .storage_of(&b)
        .storage_of(&c)
        .output(4 * 5 * N)
        .check(check32(3, N, wants))
}

/// frexp as GLSL defines it: x = m * 2^e, 0.5 <= |m| < 1; (0, 0) for zero.
fn frexp(x: f64) -> (f64, i32) {
    if x == 0.0 || !x.is_finite() {
        return (x, 0);
    }
    let e = x.abs().log2().floor() as i32 + 1;
    let m = x / 2f64.powi(e);
    // log2 may be off by one at powers of two.
    if m.abs() >= 1.0 {
        (m / 2.0, e + 1)
    } else if m.abs() < 0.5 {
        (m * 2.0, e - 1)
    } else {
        (m, e)
    }
}

fn frexp_ldexp() -> Case {
    let mut a = floats(16, -1e3, 1e3);
    // Keep |x| >= 1e-3 so that x * 2^e below stays normal or overflows.
    for v in a.iter_mut() {
        if *v != 0.0 && v.abs() < 1e-3 {
            *v = 0.125;
        }
    }
    let e: Vec<i32> = (0..N as i32).map(|i| (i * 37) % 240 - 100).collect();
    let (m, ex): (Vec<f64>, Vec<i32>) = a.iter().map(|&x| frexp(f64::from(x))).unzip();
    let ld: Vec<f64> = a.iter().zip(&e).map(|(&x, &k)| f64::from((f64::from(x) * 2f64.powi(k)) as f32)).collect();
    let wants = vec![Want::exact("frexp", m), Want::exact("ldexp", ld)];
    Case::new("glsl450/frexp_ldexp", [2, 1, 1])
        .storage_of(&a)
        .storage_of(&e)
        .output(4 * 2 * N)
        .output(4 * N)
        .check(check32(2, N, wants))
        .expect(3, ex, Tol::Exact)
}

fn modf() -> Case {
    let a = floats(17, -1e4, 1e4);
    // Both parts have the sign of x; Ulp(0) also takes the other zero (lavapipe gives a
    // whole part of +0 for -0).
    let mut want: Vec<f32> = a.iter().map(|x| (x - x.trunc()).copysign(*x)).collect();
    want.extend(a.iter().map(|x| x.trunc()));
    Case::new("glsl450/modf", [1, 1, 1]).storage_of(&a).output(4 * 2 * N).expect(1, want, Tol::Ulp(0))
}

fn forms() -> Case {
    let a = floats(18, -1e4, 1e4);
    let want: Vec<f32> = a
        .iter()
        .flat_map(|&x| {
            let (m, e) = frexp(f64::from(x));
            [(x - x.trunc()).copysign(x), x.trunc(), m as f32, e as f32]
        })
        .collect();
    Case::new("glsl450/forms", [2, 1, 1]).storage_of(&a).output(4 * 4 * N).expect(1, want, Tol::Ulp(0))
}

fn pack() -> Case {
    let mut a = floats(19, -1.5, 1.5);
    // packHalf2x16 reads components y and z: values exact in half keep rounding out of it.
    for (i, v) in a.iter_mut().enumerate() {
        if i % 4 == 1 || i % 4 == 2 {
            *v = f16::from_f32(*v).to_f32();
        }
    }
    let m = N / 4;
    let c = |i: usize, k: usize| a[4 * i + k];
    let snorm = |v: f32, s: f32| (v.clamp(-1.0, 1.0) * s).round_ties_even() as i32 as u32;
    let unorm = |v: f32, s: f32| (v.clamp(0.0, 1.0) * s).round_ties_even() as u32;
    let mut want: Vec<u32> = Vec::new();
    want.extend((0..m).map(|i| (0..4).fold(0, |acc, k| acc | (snorm(c(i, k), 127.0) & 0xff) << (8 * k))));
    want.extend((0..m).map(|i| (0..4).fold(0, |acc, k| acc | (unorm(c(i, k), 255.0) & 0xff) << (8 * k))));
    want.extend((0..m).map(|i| snorm(c(i, 0), 32767.0) & 0xffff | (snorm(c(i, 1), 32767.0) & 0xffff) << 16));
    want.extend((0..m).map(|i| unorm(c(i, 2), 65535.0) | unorm(c(i, 3), 65535.0) << 16));
    want.extend(
        (0..m).map(|i| u32::from(f16::from_f32(c(i, 1)).to_bits()) | u32::from(f16::from_f32(c(i, 2)).to_bits()) << 16),
    );
    Case::new("glsl450/pack", [1, 1, 1]).storage_of(&a).output(4 * 5 * m).expect(1, want, Tol::Exact)
}

fn unpack() -> Case {
    let a = u32s(20);
    let byte = |u: u32, k: u32| (u >> (8 * k)) & 0xff;
    let half = |u: u32, k: u32| (u >> (16 * k)) & 0xffff;
    let mut want: Vec<f64> = Vec::new();
    want.extend(a.iter().flat_map(|&u| (0..4).map(move |k| (f64::from(byte(u, k) as u8 as i8) / 127.0).max(-1.0))));
    want.extend(a.iter().flat_map(|&u| (0..4).map(move |k| f64::from(byte(u, k)) / 255.0)));
    want.extend(a.iter().flat_map(|&u| {
        let s = |k| (f64::from(half(u, k) as u16 as i16) / 32767.0).max(-1.0);
        let n = |k| f64::from(half(u, k)) / 65535.0;
        [s(0), s(1), n(0), n(1)]
    }));
    want.extend(a.iter().flat_map(|&u| {
        let h = |k| f16::from_bits(half(u, k) as u16).to_f64();
        [h(0), h(1), 0.0, 1.0]
    }));
    let n = 4 * N;
    let wants = vec![
        // The divisions: 2.5 ulp, as float division in Vulkan.
        Want::new("unpack", want[..3 * n].to_vec(), |_, w| 3.0 * ulp32(w)),
        // A NaN half may become any NaN; infinities and finite values convert exactly.
        Want::exact("unpackHalf2x16", want[3 * n..].to_vec()),
    ];
    Case::new("glsl450/unpack", [2, 1, 1]).storage_of(&a).output(4 * 4 * n).check(check32(1, 3 * n, wants))
}

fn geometry() -> Case {
    let (a, b) = (floats(21, -10.0, 10.0), floats(22, -10.0, 10.0));
    let v = |s: &[f32], i: usize| [0, 1, 2].map(|k| f64::from(s[(i + k) % N]));
    let dot = |x: [f64; 3], y: [f64; 3]| x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
    let len = |x: [f64; 3]| dot(x, x).sqrt();
    let norm = |x: [f64; 3]| x.map(|c| c / len(x));
    let mut want = Vec::new();
    let mut tol = Vec::new();
    for i in 0..N {
        let (x, y) = (v(&a, i), v(&b, i));
        let d = [x[0] - y[0], x[1] - y[1], x[2] - y[2]];
        let n = norm(x);
        let c = [x[1] * y[2] - x[2] * y[1], x[2] * y[0] - x[0] * y[2], x[0] * y[1] - x[1] * y[0]];
        let nref = [1.0, -2.0, 0.5];
        let f = if dot(nref, y) < 0.0 { x } else { x.map(|c| -c) };
        let m = norm(y);
        let r: Vec<f64> = (0..3).map(|k| x[k] - 2.0 * dot(m, x) * m[k]).collect();
        let (eta, dn) = (0.75, dot(m, n));
        let k = 1.0 - eta * eta * (1.0 - dn * dn);
        let t: Vec<f64> =
            (0..3).map(|j| if k < 0.0 { 0.0 } else { eta * n[j] - (eta * dn + k.sqrt()) * m[j] }).collect();
        let row = [
            vec![len(x), len(d), x[0].abs()],
            n.to_vec(),
            c.to_vec(),
            f.to_vec(),
            r,
            t,
            vec![(f64::from(a[i]) - f64::from(b[i])).abs(), dot(x, y)],
        ]
        .concat();
        want.extend_from_slice(&row);
        // Each is a handful of correctly rounded or 2.5-ulp steps on values up to ~300.
        tol.extend(row.iter().enumerate().map(|(j, _)| match j {
            3..=5 | 15..=17 => 2e-6,
            _ => 1e-4,
        }));
    }
    let wants = vec![Want { what: "geometry", want, tol }];
    Case::new("glsl450/geometry", [2, 1, 1]).storage_of(&a).storage_of(&b).output(4 * 20 * N).check(check32(
        2,
        20 * N,
        wants,
    ))
}

fn find_bits() -> Case {
    let a = i32s(23);
    let lsb = |x: i32| if x == 0 { -1 } else { x.trailing_zeros() as i32 };
    let umsb = |x: u32| if x == 0 { -1 } else { 31 - x.leading_zeros() as i32 };
    let smsb = |x: i32| umsb((x ^ (x >> 31)) as u32);
    let mut want: Vec<i32> = a.iter().map(|&x| lsb(x)).collect();
    want.extend(a.iter().map(|&x| smsb(x)));
    want.extend(a.iter().map(|&x| umsb(x as u32)));
    want.extend(a.iter().map(|&x| smsb(x) + 100 * smsb(!x)));
    Case::new("glsl450/find_bits", [2, 1, 1]).storage_of(&a).output(4 * 4 * N).expect(1, want, Tol::Exact)
}

fn int64() -> Case {
    let (a, b) = (i64s(27), i64s(28));
    let per = |f: &dyn Fn(i64, i64) -> i64| a.iter().zip(&b).map(|(&x, &y)| f(x, y)).collect::<Vec<i64>>();
    let mut want = Vec::new();
    want.extend(per(&|x, _| x.wrapping_abs()));
    want.extend(per(&|x, _| x.signum()));
    want.extend(per(&|x, y| x.min(y)));
    want.extend(per(&|x, y| x.max(y)));
    want.extend(per(&|x, y| x.max(y.min(!y)).min(y.max(!y))));
    want.extend(per(&|x, y| (x as u64).min(y as u64) as i64));
    want.extend(per(&|x, y| (x as u64).max(y as u64) as i64));
    // clamp(u, v >> 1, v).x: lo <= hi always holds here.
    want.extend(per(&|x, y| (x as u64).max(y as u64 >> 1).min(y as u64) as i64));
    Case::new("glsl450/int64", [2, 1, 1]).needs(&[Need::Int64]).storage_of(&a).storage_of(&b).output(8 * 8 * N).expect(
        2,
        want,
        Tol::Exact,
    )
}

fn double() -> Case {
    let a: Vec<f64> = floats(24, -100.0, 100.0).iter().map(|&x| f64::from(x) * 1.000_000_1).collect();
    let b: Vec<f64> = floats(25, -100.0, 100.0).iter().map(|&x| f64::from(x) / 3.0).collect();
    let frexps: Vec<(f64, i32)> = a.iter().map(|&x| frexp(x)).collect();
    let mut want: Vec<Vec<f64>> = Vec::new();
    let per = |f: &dyn Fn(f64, f64, usize) -> f64| (0..N).map(|i| f(a[i], b[i], i)).collect::<Vec<f64>>();
    let sign = |x: f64| {
        if x > 0.0 {
            1.0
        } else if x < 0.0 {
            -1.0
        } else {
            0.0
        }
    };
    want.push(per(&|_, w, _| (w.abs() + 1.0).sqrt()));
    want.push(per(&|_, w, _| 1.0 / (w.abs() + 1.0).sqrt()));
    want.push(per(&|v, _, _| v.floor() + 1000.0 * (v - v.floor())));
    want.push(per(&|v, w, _| v.round_ties_even() + 1000.0 * w.trunc()));
    want.push(per(&|v, w, _| v.ceil() - sign(w) + v.abs()));
    want.push(per(&|v, w, _| v.min(w) + 3.0 * v.max(w)));
    want.push(per(&|v, w, _| v.clamp(-w.abs(), w.abs())));
    want.push(per(&|v, w, _| v * 0.75 + w * 0.25 + if w < v { 0.0 } else { 1.0 }));
    want.push(per(&|v, w, _| v.mul_add(w, 0.5)));
    want.push(per(&|v, w, _| v.hypot(w) + (v - 1.0).hypot(w - 2.0)));
    want.push(per(&|v, w, _| v / (v * v + w * w + 1.0).sqrt()));
    want.push(frexps.iter().map(|f| f.0).collect());
    want.push(per(&|v, _, i| v * 2f64.powi(i as i32 - 64)));
    want.push(per(&|v, _, _| (v - v.trunc()) + v.trunc() * 4.0));
    want.push(per(&|v, _, _| -v));
    want.push(per(&|v, _, _| {
        let t = (v / 8.0).clamp(0.0, 1.0);
        t * t * (3.0 - 2.0 * t)
    }));
    want.push(per(&|v, w, _| w - v * v));
    // GLSL's 0.6 and 0.8 are float literals, widened.
    let (c6, c8) = (f64::from(0.6f32), f64::from(0.8f32));
    want.push(per(&|v, w, _| v - 2.0 * (c6 * v + c8 * w) * c6));
    want.push(per(&|v, w, _| if w < 0.0 { v } else { -v }));
    let wants: Vec<Want> = want
        .into_iter()
        .enumerate()
        .map(|(k, w)| {
            // Exact operations are exact; the rest a few ulps of the largest term.
            let ulps = match k {
                11 | 12 | 14 | 18 => 0.0,
                _ => 16.0,
            };
            Want::new("f64", w, move |_, w| ulps * ulp64(w.abs().max(400.0)))
        })
        .collect();
    let exps: Vec<i32> = frexps.iter().map(|f| f.1).collect();
    Case::new("glsl450/double", [2, 1, 1])
        .needs(&[Need::Float64])
        .storage_of(&a)
        .storage_of(&b)
        .output(8 * 19 * N)
        .output(4 * N)
        .check(move |o| within(&o.get::<f64>(2), &wants, N))
        .expect(3, exps, Tol::Exact)
}

/// frexp of f16vec3: exact on half inputs (zero, powers of two, the smallest normal and
/// the largest value, negatives; no subnormals, which an implementation may flush in f16
/// arithmetic without a DenormPreserve execution mode).
fn frexp_half3() -> Case {
    let mut a: Vec<f32> = vec![0.0, 1.0, -0.75, 8.0, 6.103_515_6e-5, -65504.0, 0.5, 3.0, -2.0];
    a.extend(floats(27, -100.0, 100.0).iter().take(3 * N - a.len()));
    let a: Vec<f32> = a.iter().map(|&x| f16::from_f32(x).to_f32()).collect();
    let (m, e): (Vec<f32>, Vec<i32>) = a.iter().map(|&x| frexp(x as f64)).map(|(m, e)| (m as f32, e)).unzip();
    Case::new("glsl450/frexp_half3", [2, 1, 1])
        .needs(&[Need::Float16])
        .storage_of(&a)
        .output(4 * 3 * N)
        .output(4 * 3 * N)
        .check(move |o| {
            o.expect(1, &m, Tol::Exact)?;
            o.expect(2, &e, Tol::Exact)
        })
}

fn half() -> Case {
    let a: Vec<f32> = floats(26, -3.0, 3.0).iter().map(|&x| f16::from_f32(x).to_f32()).collect();
    let h = |x: f64| f16::from_f64(x).to_f64();
    let x: Vec<f64> = f64s_of(&a);
    let y: Vec<f64> = x.iter().map(|v| h(v.abs() + 0.5)).collect();
    let at = |f: &dyn Fn(usize) -> f64| (0..N).map(f).collect::<Vec<f64>>();
    // Vulkan's 16-bit bounds: sin/cos absolute 2^-7, exp2 (1 + 2|x|) ulp, log2 3 ulp or
    // absolute 2^-7 in [0.5, 2], and a result rounding of the f16 computations in between.
    let e7 = 2f64.powi(-7);
    let wants = vec![
        Want::new("sin", at(&|i| x[i].sin()), |_, _| e7),
        Want::new("cos", at(&|i| x[i].cos()), |_, _| e7),
        Want::new("exp2", at(&|i| x[i].exp2()), |i, w| (1.0 + 2.0 * x[i].abs()) * ulp16(w)),
        Want::new("log2", at(&|i| y[i].log2()), |i, w| if (0.5..=2.0).contains(&y[i]) { e7 } else { 3.0 * ulp16(w) }),
        Want::new("sqrt", at(&|i| y[i].sqrt()), |_, w| 3.0 * ulp16(w)),
        Want::new("floor+fract", at(&|i| x[i].floor() + (x[i] - x[i].floor()) * 8.0), |_, w| ulp16(w)),
        Want::new("atan", at(&|i| x[i].atan()), |_, w| 8.0 * ulp16(w) + 1e-3),
        Want::new("tanh", at(&|i| x[i].tanh()), |_, _| 4e-3),
        Want::exact("clamp", at(&|i| x[i].clamp(-1.0, 2.0))),
        Want::new("length", at(&|i| x[i].hypot(y[i])), |_, w| 4.0 * ulp16(w)),
        Want::new("radians", at(&|i| x[i].to_radians()), |_, w| 2.0 * ulp16(w)),
        Want::new("pow", at(&|i| y[i].powf(1.5)), |_, w| 1e-2 * w),
    ];
    Case::new("glsl450/half", [2, 1, 1])
        .needs(&[Need::Float16])
        .storage_of(&a)
        .output(4 * 12 * N)
        .check(check32(1, N, wants))
}

#[cfg(test)]
mod tests {
    use super::frexp;

    #[test]
    fn frexp_reference() {
        assert_eq!(frexp(8.0), (0.5, 4));
        assert_eq!(frexp(-0.75), (-0.75, 0));
        assert_eq!(frexp(0.0), (0.0, 0));
    }
}
