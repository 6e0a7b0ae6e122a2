//! Cases of `tests/spirv/memory/`: 8/16/64-bit types, conversions and bitcasts, matrices
//! and their layouts, explicit struct layouts, buffer references and specialisation.

// References index several arrays by the same loop variable, like the shaders they mirror.
#![allow(clippy::needless_range_loop)]

use half::f16;
use softnavi_tests::check::{bytes, f32s_in, i32s, i64s, u32s, Tol, N};

use crate::harness::{Case, Need};

/// Column-major 4x4 product `a * b` (arrays of 16, `[col * 4 + row]`).
fn mul4(a: &[f32], b: &[f32]) -> Vec<f32> {
    let mut o = vec![0f32; 16];
    for c in 0..4 {
        for r in 0..4 {
            o[c * 4 + r] = (0..4).map(|k| a[k * 4 + r] * b[c * 4 + k]).sum();
        }
    }
    o
}

fn small_ints(seed: u64, n: usize, lo: i32, hi: i32) -> Vec<f32> {
    u32s(seed).iter().cycle().take(n).map(|v| (lo + (*v % (hi - lo + 1) as u32) as i32) as f32).collect()
}

/// Determinant of the n x n matrix `a` (`a[r][c]`), in f64.
fn det(a: &[Vec<f64>]) -> f64 {
    let n = a.len();
    if n == 1 {
        return a[0][0];
    }
    (0..n)
        .map(|c| {
            let minor: Vec<Vec<f64>> = a[1..]
                .iter()
                .map(|row| row.iter().enumerate().filter(|(j, _)| *j != c).map(|(_, v)| *v).collect())
                .collect();
            let s = if c % 2 == 0 { 1.0 } else { -1.0 };
            s * a[0][c] * det(&minor)
        })
        .sum()
}

/// Inverse of `a` (`a[r][c]`), in f64.
fn inverse(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let d = det(a);
    let mut out = vec![vec![0.0; n]; n];
    for r in 0..n {
        for c in 0..n {
            let minor: Vec<Vec<f64>> =
                (0..n).filter(|&i| i != c).map(|i| (0..n).filter(|&j| j != r).map(|j| a[i][j]).collect()).collect();
            let s = if (r + c) % 2 == 0 { 1.0 } else { -1.0 };
            out[r][c] = s * det(&minor) / d;
        }
    }
    out
}

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    scalar_cases(&mut out);
    matrix_cases(&mut out);
    layout_cases(&mut out);
    more_layout_cases(&mut out);
    pointer_cases(&mut out);
    spec_cases(&mut out);
    out
}

fn scalar_cases(out: &mut Vec<Case>) {
    let (a, b) = (i64s(1), i64s(2));
    let mut want = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], b[i]);
        let s = (y as u32) & 63;
        want.push(x.wrapping_add(y.wrapping_mul(3)));
        want.push((x << s) ^ (x >> (s / 2)));
        want.push((((x as u64) >> s) as i64) | (x & y));
        want.push(if x < y { x.wrapping_sub(y) } else { (x as u64).wrapping_mul(y as u64) as i64 });
    }
    out.push(
        Case::new("memory/int64_arith", [2, 1, 1])
            .needs(&[Need::Int64])
            .storage_of(&a)
            .storage_of(&b)
            .output(8 * 4 * N)
            .expect(2, want, Tol::Exact),
    );

    let a: Vec<f64> = f32s_in(3, -1000.0, 1000.0).iter().map(|v| f64::from(*v) / 3.0).collect();
    let b: Vec<f64> = f32s_in(4, 1.0, 50.0).iter().map(|v| f64::from(*v) / 7.0).collect();
    let mut want = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], b[i]);
        want.extend_from_slice(&[x + y, x * y, x / y, if x > y { -x } else { i as f64 * 0.5 }]);
    }
    out.push(
        Case::new("memory/f64_arith", [2, 1, 1])
            .needs(&[Need::Float64])
            .storage_of(&a)
            .storage_of(&b)
            .output(8 * 4 * N)
            .expect(2, want, Tol::Ulp(1)),
    );

    let a = i32s(5);
    let mut want = Vec::new();
    for &v in &a {
        let x = v as i16;
        let u = (v >> 3) as u16;
        want.push(i32::from(x.wrapping_mul(7).wrapping_add(1000)));
        want.push(i32::from((u / 3).wrapping_add(u >> 2)));
        want.push(i32::from(x >> 3) + i32::from(x < 0));
    }
    out.push(Case::new("memory/int16_arith", [2, 1, 1]).needs(&[Need::Int16]).storage_of(&a).output(4 * 3 * N).expect(
        1,
        want,
        Tol::Exact,
    ));

    let a = i32s(6);
    let mut want = Vec::new();
    for &v in &a {
        let x = v as i8;
        let u = (v >> 8) as u8;
        want.push(i32::from(x.wrapping_mul(5).wrapping_sub(3)));
        want.push(i32::from(u.wrapping_mul(3).wrapping_add(200)));
        want.push(i32::from((x >> 2) ^ (u as i8)));
    }
    out.push(Case::new("memory/int8_arith", [2, 1, 1]).needs(&[Need::Int8]).storage_of(&a).output(4 * 3 * N).expect(
        1,
        want,
        Tol::Exact,
    ));

    // Every value and result is exact in f16: x = k / 8 with |k| <= 32.
    let a: Vec<f32> = (0..N).map(|i| ((i % 65) as f32 - 32.0) / 8.0).collect();
    let want: Vec<f32> = a.iter().flat_map(|&x| [x * x + 1.0, x * x / 4.0 - 2.0, -x - 0.25]).collect();
    out.push(Case::new("memory/f16_arith", [2, 1, 1]).needs(&[Need::Float16]).storage_of(&a).output(4 * 3 * N).expect(
        1,
        want,
        Tol::Exact,
    ));

    let a: Vec<u16> = u32s(7).iter().map(|v| *v as u16).collect();
    let b: Vec<u16> = f32s_in(8, -100.0, 100.0).iter().map(|v| f16::from_f32(*v).to_bits()).collect();
    let want_o: Vec<u16> = a.iter().enumerate().map(|(i, v)| v.wrapping_add(i as u16)).collect();
    let mut b2 = b.clone();
    b2.extend_from_slice(&b);
    let want_p2: Vec<u16> = b2.chunks(2).take(N).flat_map(|c| [c[1], c[0]]).collect();
    out.push(
        Case::new("memory/storage16", [2, 1, 1])
            .needs(&[Need::StorageBuffer16, Need::Int16, Need::Float16])
            .storage_of(&a)
            .storage_of(&b2)
            .output(2 * N)
            .output(4 * N)
            .check(move |o| {
                o.expect(2, &want_o, Tol::Exact)?;
                o.expect(3, &want_p2, Tol::Exact)
            }),
    );

    let a: Vec<i8> = u32s(9).iter().flat_map(|v| v.to_le_bytes()).map(|b| b as i8).collect();
    let want_o: Vec<i8> = a.chunks(4).take(N).map(|v| v[0].wrapping_add(v[1]).wrapping_sub(v[2])).collect();
    let want_p: Vec<u8> = a.chunks(4).take(N).flat_map(|v| [v[3] as u8, v[2] as u8]).collect();
    out.push(
        Case::new("memory/storage8", [2, 1, 1])
            .needs(&[Need::StorageBuffer8, Need::Int8])
            .storage_of(&a)
            .output(N)
            .output(2 * N)
            .check(move |o| {
                o.expect(1, &want_o, Tol::Exact)?;
                o.expect(2, &want_p, Tol::Exact)
            }),
    );

    // std430 struct { i8vec2 a @0; i8vec3 b @4; i8vec4 c @8; i16vec3 d @16 }, stride 24.
    let a: Vec<i32> = u32s(10).iter().take(4 * N).map(|&v| (v >> 16) as i32 - 32768).collect();
    let mut want_s = vec![0u8; 24 * N];
    let mut want_r = Vec::with_capacity(4 * N);
    for (i, v) in a.chunks(4).enumerate() {
        let s = &mut want_s[24 * i..24 * (i + 1)];
        let b8 = |x: i32| x as i8;
        let b16 = |x: i32| x as i16;
        s[0..2].copy_from_slice(&[b8(v[0]) as u8, b8(v[1]) as u8]);
        s[4..7].copy_from_slice(&[b8(v[1]) as u8, b8(v[2]) as u8, b8(v[3]) as u8]);
        s[8..12].copy_from_slice(&[b8(v[0]) as u8, b8(v[1]) as u8, b8(v[2]) as u8, b8(v[3]) as u8]);
        for (k, x) in [v[0], v[2], v[3]].into_iter().enumerate() {
            s[16 + 2 * k..18 + 2 * k].copy_from_slice(&b16(x).to_le_bytes());
        }
        let c = [b8(v[0]), b8(v[1]), b8(v[2]), b8(v[3])].map(i32::from);
        let b = [b8(v[1]), b8(v[2]), b8(v[3])].map(i32::from);
        let d = [b16(v[0]), b16(v[2]), b16(v[3])].map(i32::from);
        let ab = [b8(v[0]), b8(v[1])].map(i32::from);
        want_r.extend([c[0] + b[0] + d[0] + ab[0], c[1] + b[1] + d[1] + ab[1], c[2] + b[2] + d[2], c[3] + 1]);
    }
    out.push(
        Case::new("memory/storage8_struct", [2, 1, 1])
            .needs(&[Need::StorageBuffer8, Need::Int8, Need::StorageBuffer16, Need::Int16])
            .storage_of(&a)
            .output(24 * N)
            .output(16 * N)
            .check(move |o| {
                o.expect(1, &want_s, Tol::Exact)?;
                o.expect(2, &want_r, Tol::Exact)
            }),
    );

    // RTZ f32 -> f16: values between half's neighbours, past its largest finite value, in
    // its subnormal range, negative, exact, infinite and NaN; then random ones. The
    // expected halves are the truncation of the f32's exact value (checked on lavapipe).
    let mut a: Vec<f32> =
        vec![1.000_9, 65_519.0, 70_000.0, -70_000.0, 1.0e-6, -3.0e-7, 0.1, -0.1, 2.0, f32::INFINITY, -0.0];
    a.extend(u32s(11).iter().map(|&u| f32::from_bits(u & 0x8fff_ffff)).take(2 * N - a.len()));
    let rtz = |x: f32| -> u16 {
        let h = f16::from_f32(x);
        if x.is_nan() || h.to_f32().abs() <= x.abs() {
            h.to_bits()
        } else {
            h.to_bits() - 1
        }
    };
    let want_o: Vec<u16> = a.iter().map(|&x| rtz(x)).collect();
    let want_p: Vec<u16> = a.chunks(2).map(|v| rtz(v[0])).collect();
    assert_eq!(&want_o[..4], &[0x3c00, 0x7bff, 0x7bff, 0xfbff], "the reference's own edge cases");
    out.push(
        Case::new("memory/fconvert_rtz", [2, 1, 1])
            .needs(&[Need::StorageBuffer16])
            .storage_of(&a)
            .output(4 * N)
            .output(2 * N)
            .check(move |o| {
                o.expect(1, &want_o, Tol::Exact)?;
                o.expect(2, &want_p, Tol::Exact)
            }),
    );

    let mut push = vec![(-7i8) as u8, 200];
    push.extend_from_slice(&(-1234i16).to_le_bytes());
    push.extend_from_slice(&50000u16.to_le_bytes());
    push.extend_from_slice(&f16::from_f32(2.75).to_bits().to_le_bytes());
    push.extend_from_slice(&[(-3i8) as u8, 9]);
    let vals = [-7, 200, -1234, 50000, 11, -2991];
    let want: Vec<i32> = (0..N as i32).map(|i| vals[i as usize % 6] + i).collect();
    out.push(
        Case::new("memory/push_small", [2, 1, 1])
            .needs(&[Need::PushConstant8, Need::PushConstant16, Need::Int8, Need::Int16, Need::Float16])
            .push(push)
            .output(4 * N)
            .expect(0, want, Tol::Exact),
    );

    let mut ubo = vec![7u8, 0];
    ubo.extend_from_slice(&(-300i16).to_le_bytes());
    ubo.extend_from_slice(&f16::from_f32(1.5).to_bits().to_le_bytes());
    ubo.extend_from_slice(&f16::from_f32(-0.25).to_bits().to_le_bytes());
    ubo.extend_from_slice(&[1, (-2i8) as u8, 3, (-4i8) as u8]);
    ubo.resize(16, 0);
    let d = [1.0f32, -2.0, 3.0, -4.0];
    let want: Vec<f32> = (0..N).map(|i| (7.0 - 600.0 + 1.5 + 0.25 + d[i % 4]) * i as f32).collect();
    out.push(
        Case::new("memory/uniform_small", [2, 1, 1])
            .needs(&[Need::Uniform8, Need::Uniform16, Need::Int8, Need::Int16, Need::Float16])
            .uniform(ubo)
            .output(4 * N)
            .expect(1, want, Tol::Exact),
    );

    let a = i32s(10);
    let (mut want_o, mut want_f) = (Vec::new(), Vec::new());
    for &x in &a {
        let (b, h, l) = (x as i8, x as i16, i64::from(x));
        want_o.extend_from_slice(&[
            i64::from(b),
            i64::from(b as u8),
            i64::from(h),
            i64::from(h as u16),
            i64::from(x as u32),
            i64::from(i16::from(b)) + i64::from(h as u8),
            i64::from(l.wrapping_mul(3) as i8),
            (f64::from(x) * 0.25) as i64,
        ]);
        let small = f64::from((x >> 24) as i8);
        want_f.extend_from_slice(&[
            small,
            f64::from(f32::from(h)) + l as f64,
            0.0,
            f64::from((f32::from(h) * 0.5) as i16),
        ]);
    }
    out.push(
        Case::new("memory/convert", [2, 1, 1])
            .needs(&[Need::Int8, Need::Int16, Need::Int64, Need::Float16, Need::Float64])
            .storage_of(&a)
            .output(8 * 8 * N)
            .output(8 * 4 * N)
            .check(move |o| {
                o.expect(1, &want_o, Tol::Exact)?;
                o.expect(2, &want_f, Tol::Exact)
            }),
    );

    // Bit 14 of each half clear: no f16 infinity or NaN patterns.
    let a: Vec<u32> = u32s(11).iter().map(|v| v & !0x4000_4000).collect();
    let (mut want_o, mut want_p) = (Vec::new(), Vec::new());
    for v in a.chunks(2) {
        let (x, y) = (v[0], v[1]);
        want_o.push((u64::from(x) | (u64::from(y) << 32)).wrapping_add(1));
        let s = [(y as i16).wrapping_add(1) as u16, ((y >> 16) as i16).wrapping_add(1) as u16];
        want_p.extend_from_slice(&[y, x, x.rotate_left(16), u32::from(s[0]) | (u32::from(s[1]) << 16)]);
    }
    out.push(
        Case::new("memory/bitcast", [1, 1, 1])
            .needs(&[Need::Int64, Need::Int16, Need::Float16, Need::Float64])
            .storage_of(&a)
            .output(8 * 64)
            .output(16 * 64)
            .check(move |o| {
                o.expect(1, &want_o, Tol::Exact)?;
                o.expect(2, &want_p, Tol::Exact)
            }),
    );

    // std430: f16vec3 and i16vec3 at an 8-byte stride, i64vec3 and dvec3 at 32.
    let (hs, ls) = (u32s(13), i64s(14));
    let fl = f32s_in(15, -100.0, 100.0);
    let mut input = vec![0u8; 5120];
    let mut want = vec![0u8; 5120];
    for k in 0..64 {
        for c in 0..3 {
            let n = 3 * k + c;
            let h = f16::from_f32(fl[n % N]).to_bits();
            input[8 * k + 2 * c..8 * k + 2 * c + 2].copy_from_slice(&h.to_le_bytes());
            input[512 + 8 * k + 2 * c..514 + 8 * k + 2 * c].copy_from_slice(&(hs[n % N] as u16).to_le_bytes());
            input[1024 + 32 * k + 8 * c..1032 + 32 * k + 8 * c].copy_from_slice(&ls[n % N].to_le_bytes());
            let d = f64::from(fl[(n + 7) % N]) / 3.0;
            input[3072 + 32 * k + 8 * c..3080 + 32 * k + 8 * c].copy_from_slice(&d.to_le_bytes());
        }
    }
    for i in 0..64 {
        let j = 63 - i;
        for c in 0..3 {
            let (from_h, from_d) = ([2, 0, 1][c], [1, 2, 0][c]);
            want[8 * i + 2 * c..8 * i + 2 * c + 2].copy_from_slice(&input[8 * j + 2 * from_h..8 * j + 2 * from_h + 2]);
            let s = i16::from_le_bytes([input[512 + 8 * j + 2 * c], input[513 + 8 * j + 2 * c]]).wrapping_add(1);
            want[512 + 8 * i + 2 * c..514 + 8 * i + 2 * c].copy_from_slice(&s.to_le_bytes());
            let at = 1024 + 32 * j + 8 * c;
            let l = i64::from_le_bytes(input[at..at + 8].try_into().unwrap_or([0; 8])).wrapping_mul(3);
            want[1024 + 32 * i + 8 * c..1032 + 32 * i + 8 * c].copy_from_slice(&l.to_le_bytes());
            let at = 3072 + 32 * j + 8 * from_d;
            want[3072 + 32 * i + 8 * c..3080 + 32 * i + 8 * c].copy_from_slice(&input[at..at + 8]);
        }
    }
    out.push(
        Case::new("memory/wide_vectors", [1, 1, 1])
            .needs(&[Need::StorageBuffer16, Need::Float16, Need::Int16, Need::Int64, Need::Float64])
            .storage(input)
            .output(5120)
            .expect(1, want, Tol::Exact),
    );

    // c[0..4] match the shader's constants, c[4..8] differ in one component.
    let c: [u32; 16] = [0, 3, 8, 3, 7, 5, 4, 2, 0, 3, 8, 3, 7, 6, 4, 2];
    let want: Vec<u32> = (0..64u32).map(|i| if i & 1 == 0 { i } else { !i }).collect();
    out.push(Case::new("memory/wide_reduction", [1, 1, 1]).storage_of(&c).output(256).expect(1, want, Tol::Exact));

    // uvec3 elements of 16 bytes (std430), a half in each low 16 bits, junk above.
    let halves: Vec<f16> =
        f32s_in(13, -8.0, 8.0).iter().cycle().skip(7).take(3 * 64).map(|&x| f16::from_f32(x)).collect();
    let words: Vec<u32> = (0..64)
        .flat_map(|i| {
            let w = |k: usize| u32::from(halves[3 * i + k].to_bits()) | (0xbeef_u32.wrapping_mul(i as u32 + 1) << 16);
            [w(0), w(1), w(2), 0]
        })
        .collect();
    let want: Vec<f32> = (0..64)
        .flat_map(|i| {
            let (h, g) = (&halves[3 * i..3 * i + 3], &halves[3 * (i ^ 1)..3 * (i ^ 1) + 3]);
            let sum = |k: usize| f32::from(f16::from_f64(f64::from(h[k]) + f64::from(g[k])));
            let lt = [h[0] < g[0], h[1] >= g[1] || h[1].is_nan() || g[1].is_nan(), h[2] < g[2]].iter().all(|&b| b);
            [sum(0), sum(1), sum(2), f32::from(u8::from(lt))]
        })
        .collect();
    out.push(
        Case::new("memory/unpack_half_vec3", [1, 1, 1])
            .storage_of(&words)
            .output(16 * 64)
            .needs(&[Need::Float16])
            .expect(1, want, Tol::Exact),
    );

    let mut a = f32s_in(12, -1000.0, 1000.0);
    a[5] = 1e-6; // too small for a normal f16: flushed to zero
    a[6] = 70000.0; // too large: infinity
    let q = |x: f32| {
        let h = f16::from_f32(x);
        if h.is_normal() || !h.is_finite() || f32::from(h) == 0.0 {
            f32::from(h)
        } else {
            0f32.copysign(x)
        }
    };
    let want: Vec<f32> = a.iter().flat_map(|&x| [q(x) + q(x * 3.0), q(x)]).collect();
    out.push(Case::new("memory/quantize", [2, 1, 1]).storage_of(&a).output(8 * N).expect(1, want, Tol::Exact));
}

fn matrix_cases(out: &mut Vec<Case>) {
    let m = f32s_in(20, -4.0, 4.0);
    let m: Vec<f32> = m.iter().cycle().take(16 * 64).copied().collect();
    let v: Vec<f32> = f32s_in(21, -4.0, 4.0).iter().cycle().take(4 * 64).copied().collect();
    let (mut want_o, mut want_w) = (Vec::new(), Vec::new());
    for i in 0..64 {
        let a = &m[16 * i..16 * i + 16];
        let b = &m[16 * ((i + 1) % 64)..16 * ((i + 1) % 64) + 16];
        let x = &v[4 * i..4 * i + 4];
        let y = &v[4 * ((i + 3) % 64)..4 * ((i + 3) % 64) + 4];
        want_w.extend((0..4).map(|r| (0..4).map(|c| a[c * 4 + r] * x[c]).sum::<f32>()));
        want_w.extend((0..4).map(|c| (0..4).map(|r| a[c * 4 + r] * x[r]).sum::<f32>()));
        want_o.extend(mul4(a, b));
        want_o.extend(a.iter().map(|e| e * 0.5));
        want_o.extend((0..16).map(|k| a[(k % 4) * 4 + k / 4]));
        want_o.extend((0..16).map(|k| x[k % 4] * y[k / 4] + a[k]));
    }
    out.push(
        Case::new("memory/mat_ops", [2, 1, 1]).storage_of(&m).storage_of(&v).output(4 * 64 * 64).output(32 * 64).check(
            move |o| {
                o.expect(2, &want_o, Tol::Abs(1e-4))?;
                o.expect(3, &want_w, Tol::Abs(1e-4))
            },
        ),
    );

    // Row-major std140 mat3x4 (rows of 3 at a 16-byte stride) and mat2; std430 row-major output.
    let mm: Vec<Vec<f32>> = (0..3).map(|c| (0..4).map(|r| (c * 4 + r) as f32 + 1.0).collect()).collect();
    let nn: Vec<Vec<f32>> = (0..2).map(|c| (0..2).map(|r| -((c * 2 + r) as f32) - 0.5).collect()).collect();
    let mut ubo = vec![0f32; 24];
    for (c, col) in mm.iter().enumerate() {
        for (r, e) in col.iter().enumerate() {
            ubo[r * 4 + c] = *e;
        }
    }
    for (c, col) in nn.iter().enumerate() {
        for (r, e) in col.iter().enumerate() {
            ubo[16 + r * 4 + c] = *e;
        }
    }
    let mut want = vec![0f32; 84];
    for c in 0..4 {
        for r in 0..3 {
            want[r * 4 + c] = mm[r][c];
        }
    }
    want[12..16].copy_from_slice(&mm[1]);
    want[16] = mm[2][3] + nn[1][0];
    for i in 0..16 {
        let (m, n) = (&mm[i % 3], &nn[i % 2]);
        want[20 + 4 * i..23 + 4 * i].copy_from_slice(&[m[0] + n[0], m[1] + n[1], m[2] + 1.0]);
    }
    out.push(Case::new("memory/mat_rowmajor", [1, 1, 1]).uniform(bytes(&ubo)).output(4 * 84).expect(
        1,
        want,
        Tol::Exact,
    ));

    let a = f32s_in(22, -4.0, 4.0);
    let a: Vec<f32> = a.iter().cycle().take(8 * 64).copied().collect();
    let (mut want_o, mut want_p) = (Vec::new(), Vec::new());
    for i in 0..64 {
        let k = &a[8 * i..8 * i + 8];
        let m = [[k[0], k[1], k[2]], [k[3], k[4], k[5]]];
        let n = [[k[6], k[7]], [k[1], k[1]], [k[0], 2.0]];
        for col in &n {
            want_o.extend((0..3).map(|r| m[0][r] * col[0] + m[1][r] * col[1]));
            want_o.push(0.0);
        }
        let r: Vec<f32> = (0..2).map(|row| n[0][row] - n[2][row] + n[1][row] * k[2]).collect();
        let s: Vec<f32> = n.iter().map(|col| k[3] * col[0] + 0.5 * col[1]).collect();
        want_p.extend_from_slice(&[r[0], r[1], s[0] + s[1], s[2] + k[5]]);
    }
    out.push(Case::new("memory/mat_nonsquare", [1, 1, 1]).storage_of(&a).output(48 * 64).output(16 * 64).check(
        move |o| {
            let got: Vec<f32> = o.get(1);
            // Padding lanes of the mat3 columns are not written.
            let got: Vec<f32> = got.iter().enumerate().map(|(j, v)| if j % 4 == 3 { 0.0 } else { *v }).collect();
            softnavi_tests::check::compare(&bytes(&got), &want_o, Tol::Abs(1e-4), |j| format!("element {j}"))?;
            o.expect(2, &want_p, Tol::Abs(1e-4))
        },
    ));

    // dmat3 in std430: columns 32 bytes apart. Quarter-integer entries keep results exact.
    let e: Vec<f64> = small_ints(23, 9 * 64, -8, 8).iter().map(|v| f64::from(*v) / 4.0).collect();
    let mut m = vec![0f64; 12 * 64];
    let (mut want_o, mut want_p) = (vec![0f64; 12 * 64], Vec::new());
    for i in 0..64 {
        let a = |c: usize, r: usize| e[9 * i + 3 * c + r];
        for c in 0..3 {
            for r in 0..3 {
                m[12 * i + 4 * c + r] = a(c, r);
                want_o[12 * i + 4 * c + r] = (0..3).map(|k| a(k, r) * a(k, c)).sum();
            }
        }
        let v: Vec<f64> = (0..3).map(|r| a(0, r) - 2.0 * a(1, r) + 0.5 * a(2, r)).collect();
        let rows: Vec<Vec<f64>> = (0..3).map(|r| (0..3).map(|c| a(c, r)).collect()).collect();
        want_p.extend_from_slice(&[v[0], v[1], v[2], det(&rows)]);
    }
    out.push(
        Case::new("memory/mat_f64", [1, 1, 1])
            .needs(&[Need::Float64])
            .storage_of(&m)
            .output(96 * 64)
            .output(32 * 64)
            .check(move |o| {
                let got: Vec<f64> = o.get(1);
                let got: Vec<f64> = got.iter().enumerate().map(|(j, v)| if j % 4 == 3 { 0.0 } else { *v }).collect();
                softnavi_tests::check::compare(&bytes(&got), &want_o, Tol::Exact, |j| format!("element {j}"))?;
                o.expect(2, &want_p, Tol::Exact)
            }),
    );

    // Well-conditioned matrices: 4 * identity plus entries in [-1, 1].
    let mut m = f32s_in(24, -1.0, 1.0);
    m = m.iter().cycle().take(16 * 64).copied().collect();
    for i in 0..64 {
        for d in 0..4 {
            m[16 * i + 5 * d] += 4.0;
        }
    }
    let (mut want_o, mut want_d) = (Vec::new(), Vec::new());
    for i in 0..64 {
        let rows = |n: usize| -> Vec<Vec<f64>> {
            (0..n).map(|r| (0..n).map(|c| f64::from(m[16 * i + 4 * c + r])).collect()).collect()
        };
        want_d.extend_from_slice(&[det(&rows(4)) as f32, det(&rows(3)) as f32, det(&rows(2)) as f32, 0.0]);
        for n in [4, 3, 2] {
            let inv = inverse(&rows(n));
            for c in 0..4 {
                for r in 0..4 {
                    want_o.push(if r < n && c < n {
                        inv[r][c] as f32
                    } else if r == c {
                        1.0
                    } else {
                        0.0
                    });
                }
            }
        }
    }
    out.push(Case::new("memory/mat_det_inverse", [1, 1, 1]).storage_of(&m).output(3 * 64 * 64).output(16 * 64).check(
        move |o| {
            o.expect(1, &want_o, Tol::Abs(1e-5))?;
            o.expect(2, &want_d, Tol::Rel(1e-5))
        },
    ));

    let a = small_ints(25, 4 * 64, -8, 8);
    let f = |j: usize| -> Vec<f32> {
        let mut f: Vec<f32> = (0..4).flat_map(|c| a[4 * ((j + c) % 64)..4 * ((j + c) % 64) + 4].to_vec()).collect();
        f[(j % 4) * 4 + (j / 4) % 4] = j as f32;
        f
    };
    let mut want = Vec::new();
    for i in 0..64 {
        let fi = f(i);
        let g = f(63 - i);
        let mut pm: Vec<f32> = (0..3).flat_map(|c| fi[4 * c..4 * c + 3].to_vec()).collect();
        for r in 0..3 {
            pm[3 * (i % 3) + r] *= 2.0;
        }
        let c = (i + 1) % 3;
        let gc = &g[4 * (i % 4)..4 * (i % 4) + 4];
        want.extend_from_slice(&[
            gc[0] + pm[3 * c],
            gc[1] + pm[3 * c + 1],
            gc[2] + pm[3 * c + 2],
            gc[3] + pm[6 + i % 3],
        ]);
        want.extend((0..4).map(|r| (0..4).map(|k| g[4 * k + r] * fi[k]).sum::<f32>()));
    }
    out.push(Case::new("memory/mat_local", [1, 1, 1]).storage_of(&a).output(32 * 64).expect(1, want, Tol::Exact));
}

fn layout_cases(out: &mut Vec<Case>) {
    // std140: k[4] at a 16-byte stride, v at 64, n at 76, Inner at 80 (p, w, q at 16).
    let mut ubo = vec![0u32; 28];
    let k = [1.0f32, -2.0, 3.0, 0.5];
    for (j, v) in k.iter().enumerate() {
        ubo[4 * j] = v.to_bits();
    }
    let (v, n, one_p, one_q) = ([2.0f32, -1.0, 0.5], 7i32, [1.0f32, 2.0, 3.0], [5i32, -2]);
    for j in 0..3 {
        ubo[16 + j] = v[j].to_bits();
        ubo[20 + j] = one_p[j].to_bits();
    }
    ubo[19] = n as u32;
    ubo[23] = 9f32.to_bits();
    ubo[24] = one_q[0] as u32;
    ubo[25] = one_q[1] as u32;
    // std430 Outer: s at 0, in2[2] at 16 (Inner: p, w at 12, q at 16; stride 32), tail at 80; 96 bytes.
    let vals = small_ints(30, 24 * 32, -8, 8);
    let mut items = vec![0u32; 24 * 32];
    let mut want = Vec::new();
    let mut want_items = Vec::new();
    for i in 0..32 {
        let it = &mut items[24 * i..24 * i + 24];
        let x = &vals[24 * i..24 * i + 24];
        for (j, w) in it.iter_mut().enumerate() {
            *w = if matches!(j, 8 | 9 | 16 | 17) { (x[j] as i32) as u32 } else { x[j].to_bits() };
        }
        let f = |j: usize| f32::from_bits(it[j]);
        let q = |inner: usize| it[4 + 8 * inner + 4] as i32;
        let a = f(0) * k[i % 4] + (f(12) * v[0] + f(13) * v[1] + f(14) * v[2]) + f(7);
        let t = [f(21) + one_p[1] * one_q[1] as f32, f(22) + one_p[2] * one_q[1] as f32];
        want.extend_from_slice(&[a + (q(i % 2) + n) as f32, t[0], t[1], 32.0]);
        let mut after = it.to_vec();
        after[8] = i as u32;
        after[9] = n as u32;
        want_items.extend(after);
    }
    out.push(
        Case::new("memory/layout_structs", [1, 1, 1]).uniform(bytes(&ubo)).storage_of(&items).output(16 * 32).check(
            move |o| {
                o.expect(2, &want, Tol::Abs(1e-4))?;
                o.expect(1, &want_items, Tol::Exact)
            },
        ),
    );

    // In: float at 0, vec2 at 8, int at 20; stride 36. Out: int, float, vec2; stride 16.
    let x = small_ints(31, 4 * N, -100, 100);
    let mut input = vec![0u32; 9 * N];
    let mut want = Vec::new();
    for i in 0..N {
        let (vi, vf, v0, v1) = (x[4 * i] as i32, x[4 * i + 1], x[4 * i + 2], x[4 * i + 3]);
        input[9 * i] = vf.to_bits();
        input[9 * i + 2] = v0.to_bits();
        input[9 * i + 3] = v1.to_bits();
        input[9 * i + 5] = vi as u32;
        want.extend_from_slice(&[(vi + 1) as u32, (vf * 2.0).to_bits(), v1.to_bits(), v0.to_bits()]);
    }
    out.push(Case::new("memory/layout_odd", [2, 1, 1]).storage_of(&input).output(16 * N).expect(1, want, Tol::Exact));
}

fn more_layout_cases(out: &mut Vec<Case>) {
    // Scalar layout: S { float a; vec3 v; mat3 m; } is 13 floats; P { vec3 k; mat2x3 n; }.
    let x = small_ints(32, 13 * 64, -4, 4);
    let (k, n) = ([1.0f32, -2.0, 0.5], [[3.0f32, 0.0, -1.0], [0.25, 2.0, 4.0]]);
    let mut push = k.to_vec();
    push.extend(n.iter().flatten());
    let (mut want_o, mut want_s) = (Vec::new(), x.clone());
    for i in 0..64 {
        let e = &x[13 * i..13 * i + 13];
        let m = |c: usize, r: usize| e[4 + 3 * c + r];
        for r in 0..3 {
            want_o.push((0..3).map(|c| m(c, r) * e[1 + c]).sum::<f32>() + e[0] * k[r] + n[1][r]);
        }
        for r in 0..3 {
            want_s[13 * i + 1 + r] = m(i % 3, r);
        }
    }
    out.push(Case::new("memory/scalar_layout", [1, 1, 1]).storage_of(&x).output(12 * 64).push(bytes(&push)).check(
        move |o| {
            o.expect(1, &want_o, Tol::Exact)?;
            o.expect(0, &want_s, Tol::Exact)
        },
    ));

    // std140: mat3 ms[4] (columns 16 bytes apart), row-major mat2x3 r (rows 16 bytes apart);
    // push constants: mat2 c (columns 8 apart), row-major mat2 rm.
    let ms: Vec<Vec<Vec<f32>>> =
        (0..4).map(|k| (0..3).map(|c| (0..3).map(|r| (k * 9 + c * 3 + r) as f32 - 10.0).collect()).collect()).collect();
    let rl = [[1.0f32, 2.0, 3.0], [-4.0, 5.0, -6.0]];
    let (cl, rml) = ([[2.0f32, -1.0], [0.5, 3.0]], [[1.0f32, 4.0], [-2.0, 0.25]]);
    let mut ubo = vec![0f32; 60];
    for (k, m) in ms.iter().enumerate() {
        for c in 0..3 {
            for r in 0..3 {
                ubo[k * 12 + c * 4 + r] = m[c][r];
            }
        }
    }
    for c in 0..2 {
        for r in 0..3 {
            ubo[48 + r * 4 + c] = rl[c][r];
        }
    }
    let mut push = vec![cl[0][0], cl[0][1], cl[1][0], cl[1][1], 0.0, 0.0, 0.0, 0.0];
    for c in 0..2 {
        for r in 0..2 {
            push[4 + r * 2 + c] = rml[c][r];
        }
    }
    let mut want = Vec::new();
    for i in 0..32 {
        let m = &ms[i % 4];
        let x = [1.0, 2.0, i as f32];
        let a: Vec<f32> = (0..3).map(|r| (0..3).map(|c| m[c][r] * x[c]).sum::<f32>() + rl[i % 2][r]).collect();
        let y = [i as f32, 1.0];
        let b: Vec<f32> = (0..2).map(|r| cl[0][r] * y[0] + cl[1][r] * y[1] + rml[1][r] + ms[3][i % 3][r]).collect();
        let rc: Vec<f32> = (0..2).map(|r| rml[0][r] * cl[0][0] + rml[1][r] * cl[0][1]).collect();
        want.extend_from_slice(&[a[0], a[1], a[2], b[0], b[1], rc[0], rc[1], 0.0]);
    }
    out.push(
        Case::new("memory/mat_uniform_push", [1, 1, 1]).uniform(bytes(&ubo)).push(bytes(&push)).output(32 * 32).expect(
            1,
            want,
            Tol::Exact,
        ),
    );

    // std140 T { vec3 v; float f[2]; mat2 m; }: v 0, f 16 (stride 16), m 48 (stride 16); 80 bytes.
    // std430: v 0, f 12 (stride 4), m 24 (stride 8); 48 bytes.
    let t: Vec<Vec<f32>> = (0..2).map(|k| (0..9).map(|j| (k * 9 + j) as f32 + 0.5).collect()).collect();
    let mut ubo = vec![0f32; 40];
    for (k, e) in t.iter().enumerate() {
        let b = 20 * k;
        ubo[b..b + 3].copy_from_slice(&e[0..3]);
        ubo[b + 4] = e[3];
        ubo[b + 8] = e[4];
        ubo[b + 12..b + 14].copy_from_slice(&e[5..7]);
        ubo[b + 16..b + 18].copy_from_slice(&e[7..9]);
    }
    let mut want = vec![0f32; 12 * 17];
    let mut put = |slot: usize, e: &[f32]| {
        let b = 12 * slot;
        want[b..b + 5].copy_from_slice(&e[0..5]);
        want[b + 6..b + 10].copy_from_slice(&e[5..9]);
    };
    for i in 0..16 {
        let mut e = t[i % 2].clone();
        e[4] += i as f32;
        e[7] *= i as f32;
        e[8] *= i as f32;
        put(i, &e);
    }
    put(16, &t[1]);
    out.push(Case::new("memory/copy_logical", [1, 1, 1]).uniform(bytes(&ubo)).output(48 * 17).expect(
        1,
        want,
        Tol::Exact,
    ));
}

/// `f32s_in` without subnormals: these cases multiply, and an implementation may flush a
/// subnormal without DenormPreserve (RADV does, and softnavi follows it).
fn normal_f32s_in(seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    f32s_in(seed, lo, hi).into_iter().map(|x| if x.is_subnormal() { 0.0 } else { x }).collect()
}

fn pointer_cases(out: &mut Vec<Case>) {
    let v = normal_f32s_in(40, -100.0, 100.0);
    let v: Vec<f32> = v.iter().cycle().take(4 * N).copied().collect();
    let mut data = vec![1.5f32, 0.0, 0.0, 0.0];
    data.extend_from_slice(&v);
    let n = 100u32;
    let want: Vec<f32> = (0..4 * N).map(|j| if j / 4 < n as usize { v[j] * 1.5 } else { -1.0 }).collect();
    out.push(
        Case::new("memory/psb_basic", [2, 1, 1])
            .address(bytes(&data))
            .address(vec![0; 16 * N])
            .push(n.to_le_bytes().to_vec())
            .expect(1, want, Tol::Exact),
    );

    // Node { Node next; int value; int visits; }: 16 bytes.
    let values: Vec<i32> = (0..128).map(|i| (i * 13 % 29) - 14).collect();
    let mut nodes = vec![0i32; 4 * 128];
    for (i, v) in values.iter().enumerate() {
        nodes[4 * i + 2] = *v;
    }
    let want: Vec<i32> = (0..128usize)
        .map(|i| {
            let (mut j, mut sum) = (i, 0i32);
            for _ in 0..5 {
                sum = sum * 3 + values[j];
                j = (j * 7 + 3) % 128;
            }
            sum
        })
        .collect();
    out.push(Case::new("memory/psb_linked", [1, 1, 1]).address(bytes(&nodes)).output(4 * 128).expect(
        1,
        want,
        Tol::Exact,
    ));

    let x = normal_f32s_in(42, -100.0, 100.0);
    let mut buf = x[..64].to_vec();
    buf.resize(192, 0.0);
    let mut want = buf.clone();
    for i in 0..64 {
        want[64 + i] = x[i] * 2.0;
        want[128 + i] = 4.0 * i as f32;
    }
    out.push(Case::new("memory/psb_asm", [1, 1, 1]).needs(&[Need::Int64]).address(bytes(&buf)).expect(
        0,
        want,
        Tol::Exact,
    ));

    let (va, vb) = (u32s(43), u32s(44));
    let (va, vb): (Vec<u32>, Vec<u32>) =
        (va[..64].iter().map(|v| v >> 8).collect(), vb[..64].iter().map(|v| v >> 8).collect());
    let (mut want_a, mut want_b, mut want_o) = (va.clone(), vb.clone(), Vec::new());
    for i in 0..64 {
        let even = i % 2 == 0;
        want_o.push((if even { va[i] } else { vb[i] }).wrapping_mul(10) + u32::from(even));
        if i & 2 != 0 {
            want_a[i] += 1000;
        } else {
            want_b[i] += 1000;
        }
    }
    out.push(
        Case::new("memory/variable_pointers", [1, 1, 1])
            .needs(&[Need::VariablePointers, Need::VariablePointersStorageBuffer])
            .storage_of(&va)
            .storage_of(&vb)
            .output(4 * 64)
            .check(move |o| {
                o.expect(0, &want_a, Tol::Exact)?;
                o.expect(1, &want_b, Tol::Exact)?;
                o.expect(2, &want_o, Tol::Exact)
            }),
    );

    // Pointers kept in Function, Private and Workgroup-pointer variables (see the shader).
    let want: Vec<u32> = (0..64)
        .flat_map(|i| {
            let odd = i % 2 == 1;
            let k = (i >> 1) & 1;
            [
                if odd { va[i] } else { vb[i] },
                if odd { vb[i] } else { va[i] },
                if k == 0 { va[i] } else { vb[i] },
                1,
                ((i as u32 + 1) % 64) * 3,
            ]
        })
        .collect();
    out.push(
        Case::new("memory/variable_pointers_stored", [1, 1, 1])
            .needs(&[Need::VariablePointers, Need::VariablePointersStorageBuffer])
            .storage_of(&va)
            .storage_of(&vb)
            .output(4 * 5 * 64)
            .expect(2, want, Tol::Exact),
    );

    let src: Vec<i32> = i32s(41).iter().map(|v| v >> 4).collect();
    let want: Vec<i32> = (0..64).map(|i| src[(i + 1) % 64] + 1000 + src[(i + 1) % 64 + 1]).collect();
    out.push(
        Case::new("memory/psb_stored", [1, 1, 1])
            .needs(&[Need::Int64])
            .address(bytes(&src))
            .output(1024)
            .output(4 * 64)
            .expect(2, want, Tol::Exact),
    );
}

fn spec_cases(out: &mut Vec<Case>) {
    for (wg, a, b, f, u) in [(16u32, 9i32, -4i32, true, 13u32), (32, 5, -3, false, 7)] {
        let vals = [
            a + b,
            a - b,
            a * b,
            a / b,
            // `%` is OpSMod: the result takes the divisor's sign.
            if a % b != 0 && (a % b < 0) != (b < 0) { a % b + b } else { a % b },
            a << 3,
            b >> 1,
            (a & b) | (a ^ 12),
            (u >> 1) as i32,
            (u / 2) as i32,
            (u % 3) as i32,
            !u as i32,
            i32::from((a < b) != (u >= 7 && !f)),
            i32::from(a == b),
            i32::from((a != b) != f),
            if f { a } else { b },
            a + b,
            -a,
            b * 2,
            wg as i32,
        ];
        let mut want = Vec::new();
        for _g in 0..2 {
            for i in 0..wg as usize {
                want.push(vals[i % 20] + ((i + 1) % wg as usize) as i32 * 100);
            }
            want.extend((0..wg as i32).map(|i| -i));
        }
        out.push(
            Case::new("memory/spec_ops", [2, 1, 1])
                .named(&format!("wg{wg}"))
                .spec(0, wg.to_le_bytes().to_vec())
                .spec(1, a.to_le_bytes().to_vec())
                .spec(2, b.to_le_bytes().to_vec())
                .spec(3, u32::from(f).to_le_bytes().to_vec())
                .spec(4, u.to_le_bytes().to_vec())
                .output(4 * 4 * wg as usize)
                .expect(0, want, Tol::Exact),
        );
    }

    let (i8v, u16v, i64v, d, h) = (100i8, 60000u16, (1i64 << 40) + 5, -2.25f64, 0.75f32);
    let mut want: Vec<u8> = Vec::new();
    for v in [
        i64::from(i8v),
        i64::from(u16v),
        i64v,
        i64::from(i8v) + i64::from(u16v) + i64v,
        i64::from(i64v as i16),
        (u64::from(u16v) << 40) as i64,
        3,
        3,
    ] {
        want.extend_from_slice(&v.to_le_bytes());
    }
    want.extend_from_slice(&(d * 2.0).to_le_bytes());
    want.extend_from_slice(&f64::from(h).to_le_bytes());
    out.push(
        Case::new("memory/spec_widths", [1, 1, 1])
            .needs(&[Need::Int8, Need::Int16, Need::Int64, Need::Float64, Need::Float16])
            .spec(0, vec![i8v as u8])
            .spec(1, u16v.to_le_bytes().to_vec())
            .spec(2, i64v.to_le_bytes().to_vec())
            .spec(3, d.to_le_bytes().to_vec())
            .spec(4, f16::from_f32(h).to_bits().to_le_bytes().to_vec())
            .output(80)
            .expect(0, want, Tol::Exact),
    );
}
