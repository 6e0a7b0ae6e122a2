//! Cases of `tests/spirv/arith/`: atomics (results of contended operations checked as sums
//! and sets, which any order of execution must give), integer dot products, and the
//! arithmetic, bit, relational and composite instructions, against references computed
//! here from the inputs.

use softnavi_tests::check::{bytes, f32s_in, fill, i32s, i64s, u32s, u64s, Tol, N};

use crate::harness::{Case, Need};

/// `got` is a permutation of `want`.
fn same_set<T: Ord + Copy + std::fmt::Debug>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    let (mut g, mut w) = (got.to_vec(), want.to_vec());
    g.sort();
    w.sort();
    if g == w {
        Ok(())
    } else {
        let diff: Vec<_> = g.iter().zip(&w).filter(|(a, b)| a != b).take(4).collect();
        Err(format!("{what}: not the expected set of values; first differences (got, want) {diff:?}"))
    }
}

fn equal<T: PartialEq + std::fmt::Debug>(what: &str, got: T, want: T) -> Result<(), String> {
    if got == want {
        Ok(())
    } else {
        Err(format!("{what}: got {got:?}, want {want:?}"))
    }
}

/// `n` uvec4s from four generators, interleaved.
fn uvec4s(seed: u64) -> Vec<[u32; 4]> {
    let parts: Vec<Vec<u32>> = (0..4).map(|k| u32s(seed + k)).collect();
    (0..N).map(|i| [parts[0][i], parts[1][i], parts[2][i], parts[3][i]]).collect()
}

/// Floats that are multiples of 1/8 in [-64, 64): sums of up to 128 of them are exact.
fn eighths(seed: u64) -> Vec<f32> {
    fill(seed, &[0.0, 0.125, -64.0, 63.875], |r| ((r.next() % 1024) as i32 - 512) as f32 / 8.0)
}

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    atomics(&mut out);
    atomics_wide(&mut out);
    integer(&mut out);
    relational(&mut out);
    composite(&mut out);
    dot(&mut out);
    out
}

fn atomics(out: &mut Vec<Case>) {
    let v = u32s(10);
    let (sum, low) =
        (v.iter().fold(0u32, |s, x| s.wrapping_add(*x)), v.iter().map(|x| -((x & 0xff) as i32)).sum::<i32>());
    out.push(Case::new("arith/atomic_counter", [2, 1, 1]).storage_of(&[0u32; 3]).storage_of(&v).output(4 * N).check(
        move |o| {
            let c = o.get::<u32>(0);
            equal("count", c[0], N as u32)?;
            equal("sum", c[1], sum)?;
            equal("signed sum", c[2] as i32, low)?;
            same_set("tickets", &o.get::<u32>(2)[..N], &(0..N as u32).collect::<Vec<_>>())
        },
    ));

    let v = i32s(11);
    let init = [i32::MAX, i32::MIN, -1, 0];
    let want = [
        *v.iter().min().unwrap_or(&0),
        *v.iter().max().unwrap_or(&0),
        v.iter().map(|x| *x as u32).min().unwrap_or(0) as i32,
        v.iter().map(|x| *x as u32).max().unwrap_or(0) as i32,
    ];
    let olds: Vec<i32> = v.iter().copied().chain([i32::MAX]).collect();
    out.push(Case::new("arith/atomic_minmax", [2, 1, 1]).storage_of(&init).storage_of(&v).output(4 * N).check(
        move |o| {
            o.expect(0, &want, Tol::Exact)?;
            // Each atomicMin returns the minimum so far: the initial value or an input, never
            // below the final minimum.
            for (i, old) in o.get::<i32>(2)[..N].iter().enumerate() {
                if !olds.contains(old) || *old < want[0] {
                    return Err(format!("atomicMin of invocation {i} returned {old}"));
                }
            }
            Ok(())
        },
    ));

    let v = u32s(12);
    let mut want = vec![u32::MAX, 0, 0, u32::MAX, u32::MAX, u32::MAX, u32::MAX];
    for x in &v {
        want[0] &= x | 0x8100_0000;
        want[1] |= x & 0x0f0f_0f0f;
        want[2] ^= x;
    }
    let mut init = [0u32; 7];
    init[0] = u32::MAX;
    out.push(Case::new("arith/atomic_bitwise", [2, 1, 1]).storage_of(&init).storage_of(&v).expect(0, want, Tol::Exact));

    out.push(Case::new("arith/atomic_exchange", [2, 1, 1]).storage_of(&[0xdeadu32]).output(4 * N).check(|o| {
        let mut got = o.get::<u32>(1)[..N].to_vec();
        got.push(o.get::<u32>(0)[0]);
        let want: Vec<u32> = std::iter::once(0xdead).chain(1..=N as u32).collect();
        same_set("exchanged values", &got, &want)
    }));

    let v = u32s(13);
    let want = [
        v.iter().fold(0u32, |s, x| s.wrapping_add(*x)),
        v.iter().map(|x| (x % 64) as f32 * 0.25).sum::<f32>().to_bits(),
        N as u32,
    ];
    out.push(Case::new("arith/atomic_cas", [2, 1, 1]).storage_of(&[0u32; 3]).storage_of(&v).expect(
        0,
        want.to_vec(),
        Tol::Exact,
    ));

    let v = i32s(14);
    out.push(Case::new("arith/atomic_shared", [2, 1, 1]).storage_of(&v).output(4 * N).output(4 * 14).check(move |o| {
        let tickets = o.get::<u32>(1);
        let rows = o.get::<u32>(2);
        for g in 0..2 {
            let part = &v[64 * g..64 * g + 64];
            same_set("tickets", &tickets[64 * g..64 * g + 64], &(0..64).collect::<Vec<_>>())?;
            let r = &rows[7 * g..7 * g + 7];
            let x = part.iter().fold(0u32, |s, x| s ^ *x as u32);
            let want = [64, *part.iter().min().unwrap_or(&0) as u32, *part.iter().max().unwrap_or(&0) as u32];
            equal("count, min, max", [r[0], r[1], r[2]], want)?;
            equal("bitmap", [r[3], r[4]], [u32::MAX, u32::MAX])?;
            equal("xor", r[6], x)?;
            if r[5] >= 64 {
                return Err(format!("exchanged slot holds {}, not an invocation index", r[5]));
            }
        }
        Ok(())
    }));

    out.push(
        Case::new("arith/atomic_scoped", [2, 1, 1])
            .storage({
                let mut s = vec![0u32; 2 + 3 * N];
                s[0] = 5;
                bytes(&s)
            })
            .check(move |o| {
                let s = o.get::<u32>(0);
                equal("count", s[1], N as u32)?;
                for i in 0..N {
                    let got = [s[2 + i], s[2 + N + i], s[2 + 2 * N + i]];
                    equal(&format!("invocation {i}"), got, [64 + 5, 3 * i as u32, i as u32])?;
                }
                Ok(())
            }),
    );

    let start = [0u32, 1000, 1_000_000];
    out.push(Case::new("arith/atomic_incdec", [2, 1, 1]).storage_of(&start).output(4 * 4 * N).check(|o| {
        let s = o.get::<u32>(0);
        let sub: u32 = (1..=N as u32).sum();
        equal("final state", [s[0], s[1], s[2]], [N as u32, 1000 - N as u32, 1_000_000 - sub])?;
        let r = o.get::<u32>(1);
        same_set("increments", &r[..N], &(0..N as u32).collect::<Vec<_>>())?;
        same_set("decrements", &r[N..2 * N], &(1001 - N as u32..=1000).collect::<Vec<_>>())?;
        let mut olds = Vec::new();
        for i in 0..N {
            let (stored, loaded) = (r[2 * N + i], r[3 * N + i]);
            equal("atomic load of an atomic store", loaded, stored)?;
            if stored % 3 != 0 || stored / 3 <= s[2] || stored / 3 > 1_000_000 {
                return Err(format!("OpAtomicISub of invocation {i} returned {}", stored / 3));
            }
            olds.push(stored / 3);
        }
        olds.sort();
        olds.dedup();
        equal("distinct OpAtomicISub results", olds.len(), N)
    }));

    let v = eighths(16);
    let mut want = [v.iter().sum::<f32>(), 0.0, 0.0, 0.0, 0.0];
    for (i, x) in v.iter().enumerate() {
        want[1 + i % 4] -= x;
    }
    out.push(
        Case::new("arith/atomic_float", [2, 1, 1])
            .storage_of(&[0.0f32; 5])
            .storage_of(&v)
            .needs(&[Need::BufferFloat32AtomicAdd])
            .expect(0, want.to_vec(), Tol::Abs(0.0)),
    );

    let v = eighths(17);
    let want: Vec<f32> = v.chunks(64).map(|c| 0.5 + c.iter().sum::<f32>()).collect();
    out.push(
        Case::new("arith/atomic_float_shared", [2, 1, 1])
            .storage_of(&v)
            .output(8)
            .needs(&[Need::SharedFloat32AtomicAdd])
            .expect(1, want, Tol::Abs(0.0)),
    );

    out.push(
        Case::new("arith/atomic_float_exchange", [2, 1, 1])
            .storage_of(&[7.25f32])
            .output(4 * N)
            .needs(&[Need::BufferFloat32Atomics])
            .check(|o| {
                let mut got: Vec<u32> = o.get::<f32>(1)[..N].iter().map(|f| f.to_bits()).collect();
                got.push(o.get::<f32>(0)[0].to_bits());
                let want: Vec<u32> =
                    std::iter::once(7.25f32).chain((0..N).map(|i| i as f32 * -0.5)).map(f32::to_bits).collect();
                same_set("exchanged values", &got, &want)
            }),
    );
}

fn atomics_wide(out: &mut Vec<Case>) {
    // No `Need` names shaderBufferFloat32AtomicMinMax / shaderSharedFloat32AtomicMinMax
    // (VK_EXT_shader_atomic_float2): the float32 atomics features stand in for them.
    let v = f32s_in(70, -1000.0, 1000.0);
    let min = |c: &[f32]| c.iter().copied().fold(f32::MAX, f32::min);
    let max = |c: &[f32]| c.iter().copied().fold(-f32::MAX, f32::max);
    let want = vec![min(&v), max(&v), min(&v[..64]), max(&v[..64]), min(&v[64..]), max(&v[64..])];
    out.push(
        Case::new("arith/atomic_float_minmax", [2, 1, 1])
            .storage_of(&[f32::MAX, -f32::MAX, 0.0, 0.0, 0.0, 0.0])
            .storage_of(&v)
            .needs(&[Need::BufferFloat32Atomics, Need::SharedFloat32Atomics])
            .expect(0, want, Tol::Exact),
    );

    let v: Vec<f64> = eighths(71).iter().map(|x| f64::from(*x) * 1024.0).collect();
    let (lo, hi) = (v.iter().copied().fold(f64::MAX, f64::min), v.iter().copied().fold(-f64::MAX, f64::max));
    let sum = v.iter().sum::<f64>();
    let groups: Vec<f64> = v.chunks(64).map(|c| 0.25 - c.iter().sum::<f64>()).collect();
    out.push(
        Case::new("arith/atomic_float64", [2, 1, 1])
            .storage_of(&[0.0, f64::MAX, -f64::MAX, 3.5, 0.0, 0.0])
            .storage_of(&v)
            .output(8 * N)
            .needs(&[Need::Float64, Need::BufferFloat64AtomicAdd, Need::SharedFloat64AtomicAdd])
            .check(move |o| {
                let s = o.get::<f64>(0);
                equal("sum, min, max", [s[0], s[1], s[2]], [sum, lo, hi])?;
                equal("workgroup sums", [s[4], s[5]], [groups[0], groups[1]])?;
                let mut got: Vec<u64> = o.get::<f64>(2)[..N].iter().map(|f| f.to_bits()).collect();
                got.push(s[3].to_bits());
                let want: Vec<u64> =
                    std::iter::once(3.5f64).chain((0..N).map(|i| i as f64 * 1.5)).map(f64::to_bits).collect();
                same_set("exchanged values", &got, &want)
            }),
    );

    let v = i64s(20);
    let mut init = [0u64; 11];
    (init[2], init[3], init[4], init[6], init[9]) = (i64::MAX as u64, i64::MIN as u64, u64::MAX, u64::MAX, 0xdead);
    let mut want = init;
    for x in &v {
        let u = *x as u64;
        want[0] += 1 << 32;
        want[1] = want[1].wrapping_add(u);
        want[2] = (want[2] as i64).min(*x) as u64;
        want[3] = (want[3] as i64).max(*x) as u64;
        want[4] = want[4].min(u);
        want[5] = want[5].max(u);
        want[6] &= u | 0x8000_0001_0000_0000;
        want[7] |= u & 0x00ff_00ff_00ff_00ff;
        want[8] ^= u;
        want[10] = want[10].wrapping_add(u);
    }
    out.push(
        Case::new("arith/atomic_int64", [2, 1, 1])
            .storage_of(&init)
            .storage_of(&v)
            .output(8 * 2 * N)
            .needs(&[Need::Int64, Need::BufferInt64Atomics])
            .check(move |o| {
                let s = o.get::<u64>(0);
                for (k, (g, w)) in s.iter().zip(&want).enumerate() {
                    if k != 9 {
                        equal(&format!("state member {k}"), *g, *w)?;
                    }
                }
                let r = o.get::<u64>(2);
                same_set("tickets", &r[..N], &(0..N as u64).map(|k| k << 32).collect::<Vec<_>>())?;
                let mut got = r[N..2 * N].to_vec();
                got.push(s[9]);
                let exchanged: Vec<u64> = std::iter::once(0xdead).chain((0..N as u64).map(|i| i << 33)).collect();
                same_set("exchanged values", &got, &exchanged)
            }),
    );

    let v = i64s(21);
    let mut want = Vec::new();
    for c in v.chunks(64) {
        let sum = c.iter().fold(0u64, |s, x| s.wrapping_add(*x as u64));
        let lo = *c.iter().min().unwrap_or(&0) as u64;
        let hi = c.iter().map(|x| *x as u64).max().unwrap_or(0);
        want.extend([sum, lo, hi, c.iter().fold(0u64, |s, x| s ^ *x as u64)]);
    }
    out.push(
        Case::new("arith/atomic_int64_shared", [2, 1, 1])
            .storage_of(&v)
            .output(8 * 8)
            .needs(&[Need::Int64, Need::SharedInt64Atomics])
            .expect(1, want, Tol::Exact),
    );
}

fn integer(out: &mut Vec<Case>) {
    // Division and remainder: divisors non-zero, no INT_MIN / ±1.
    let a = i32s(30);
    let b: Vec<i32> = i32s(31)
        .iter()
        .enumerate()
        .map(|(i, &b)| match b {
            -1..=1 if a[i] == i32::MIN => 7,
            0 => -3,
            _ => b,
        })
        .collect();
    // Small divisors too, so that quotients and remainders are not mostly 0 and a.
    let b: Vec<i32> = b
        .iter()
        .enumerate()
        .map(|(i, &b)| if i % 3 == 2 && b != i32::MIN { b % 13 + 14 * b.signum() } else { b })
        .collect();
    let smod = |a: i32, b: i32| {
        let r = a.wrapping_rem(b);
        if r != 0 && (r ^ b) < 0 {
            r.wrapping_add(b)
        } else {
            r
        }
    };
    let mut input = Vec::new();
    let mut want = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], b[i]);
        input.extend([x, y]);
        let (ux, uy) = (x as u32, y as u32);
        want.extend([x.wrapping_div(y), x.wrapping_rem(y), smod(x, y), (ux / uy) as i32]);
        want.extend([(ux % uy) as i32, smod(x, y), smod(x, y.wrapping_neg()), x.wrapping_rem(y.wrapping_neg())]);
    }
    // Lavapipe (the only implementation here with 8-lane subgroups) computes OpSMod as
    // OpSRem, against the SPIR-V specification; there, SMod results whose operands differ in
    // sign are not compared. softnavi must get every one right.
    let mixed: Vec<bool> = (0..N)
        .flat_map(|i| {
            let (x, y) = (a[i], b[i]);
            let m = |d: i32| x.wrapping_rem(d) != 0 && (x < 0) != (d < 0);
            [false, false, m(y), false, false, m(y), m(y.wrapping_neg()), false]
        })
        .collect();
    out.push(Case::new("arith/srem_smod", [2, 1, 1]).storage_of(&input).output(32 * N).check(move |o| {
        let got = o.get::<i32>(1);
        for (k, w) in want.iter().enumerate() {
            if got[k] != *w && !(o.lavapipe() && mixed[k]) {
                return Err(format!("component {} of invocation {}: got {}, want {w}", k % 8, k / 8, got[k]));
            }
        }
        Ok(())
    }));

    let x = uvec4s(32);
    let mut add_sub = Vec::new();
    let mut mul = Vec::new();
    for v in &x {
        let (a, b) = (v[0], v[1]);
        let (s, c) = a.overflowing_add(b);
        let (d, br) = a.overflowing_sub(b);
        add_sub.push([s, c as u32, d, br as u32]);
        let (p0, p1) = (u64::from(a) * u64::from(b), u64::from(b) * u64::from(a.wrapping_add(7)));
        mul.push([p0 as u32, (p0 >> 32) as u32, p1 as u32, (p1 >> 32) as u32]);
        let (q0, q1) = (i64::from(a as i32) * i64::from(b as i32), i64::from(b as i32) * i64::from(b as i32));
        mul.push([q0 as u32, (q0 >> 32) as u32, q1 as u32, (q1 >> 32) as u32]);
    }
    let input: Vec<[u32; 2]> = x.iter().map(|v| [v[0], v[1]]).collect();
    out.push(Case::new("arith/extended", [2, 1, 1]).storage_of(&input).output(16 * N).output(32 * N).check(move |o| {
        o.expect(1, &add_sub, Tol::Exact)?;
        o.expect(2, &mul, Tol::Exact)
    }));

    let mut want = Vec::new();
    for v in &input {
        let (a, b) = (v[0], v[1]);
        let (s, c) = a.overflowing_add(b);
        let (d, br) = a.overflowing_sub(b);
        let q = i64::from(a as i32) * i64::from(b as i32);
        let p = u64::from(a) * u64::from(a);
        let ph = u64::from(b) * u64::from(b);
        want.extend([[s, c as u32], [d, br as u32], [q as u32, (q >> 32) as u32], [p as u32, (ph >> 32) as u32]]);
    }
    out.push(Case::new("arith/carry_struct", [2, 1, 1]).storage_of(&input).output(32 * N).expect(1, want, Tol::Exact));

    let mut x = uvec4s(33);
    for (i, (off, count)) in [(0, 0), (0, 32), (32, 0), (5, 27), (31, 1), (12, 0), (1, 31), (16, 16)].iter().enumerate()
    {
        (x[i][2], x[i][3]) = (*off, *count);
    }
    let mut want = Vec::new();
    for v in &x {
        let off = v[2] % 33;
        let count = (v[3] % 33).min(32 - off);
        let low = ((1u64 << count) - 1) as u32;
        let mask = (u64::from(low) << off) as u32;
        let ins = (v[0] & !mask) | ((u64::from(v[1]) << off) as u32 & mask);
        let ue = ((u64::from(v[0]) >> off) as u32) & low;
        let sext = |y: u32, off: u32, count: u32| {
            if count == 0 {
                0
            } else {
                ((y << (32 - off - count)) as i32 >> (32 - count)) as u32
            }
        };
        want.push([ins, ue, sext(v[1], off, count), count]);
        let ins2 = |base: u32, ins: u32| (base & 0x0fff_ffff) | (ins << 28);
        want.push([sext(v[0], 4, 8), sext(v[1], 4, 8), ins2(v[0], v[1]), ins2(v[1], v[0])]);
    }
    out.push(Case::new("arith/bitfield", [2, 1, 1]).storage_of(&x).output(32 * N).expect(1, want, Tol::Exact));

    // 64-bit division operands: divisors non-zero, no INT64_MIN / -1; small divisors in
    // every third pair.
    let a = u64s(36);
    let b: Vec<u64> = u64s(37)
        .iter()
        .enumerate()
        .map(|(i, &b)| {
            let b = match b {
                0 => 5,
                _ if i % 3 == 2 && b >> 63 == 1 => (b % 29 + 1).wrapping_neg(),
                _ if i % 3 == 2 => b % 29 + 1,
                _ => b,
            };
            if b == u64::MAX && a[i] == 1 << 63 {
                9
            } else {
                b
            }
        })
        .collect();
    let mut want = Vec::new();
    let mut mixed = Vec::new();
    for i in 0..N {
        let (x, y) = (a[i], b[i]);
        let (sx, sy) = (x as i64, y as i64);
        let (s, c) = x.overflowing_add(y);
        let (d, br) = x.overflowing_sub(y);
        let um = u128::from(x) * u128::from(y);
        let sm = i128::from(sx) * i128::from(sy);
        let off = (i as u64 * 7) % 64;
        let count = match i % 3 {
            0 => 64 - off,
            1 => 0,
            _ => (64 - off) / 2,
        };
        let r = sx.wrapping_rem(sy);
        let smod = if r != 0 && (r ^ sy) < 0 { r.wrapping_add(sy) } else { r };
        want.extend([s, c as u64, d, br as u64, um as u64, (um >> 64) as u64, sm as u64, (sm >> 64) as u64, count]);
        want.extend([sx.wrapping_div(sy) as u64, r as u64, smod as u64, x / y, x % y]);
        mixed.extend([false; 11]);
        mixed.extend([r != 0 && (sx < 0) != (sy < 0), false, false]);
    }
    let input: Vec<[u64; 2]> = a.iter().zip(&b).map(|(x, y)| [*x, *y]).collect();
    out.push(Case::new("arith/wide64", [2, 1, 1]).storage_of(&input).output(8 * 14 * N).needs(&[Need::Int64]).check(
        move |o| {
            let got = o.get::<u64>(1);
            for (k, w) in want.iter().enumerate() {
                // Lavapipe's OpSMod is OpSRem: see srem_smod.
                if got[k] != *w && !(o.lavapipe() && mixed[k]) {
                    return Err(format!("value {} of invocation {}: got {:#x}, want {w:#x}", k % 14, k / 14, got[k]));
                }
            }
            Ok(())
        },
    ));

    let x = uvec4s(34);
    let mut want = Vec::new();
    for v in &x {
        let pc = v.map(u32::count_ones);
        let r = v.map(u32::reverse_bits);
        want.extend([pc, pc, [r[3] ^ r[1], r[2] ^ r[0], r[1] ^ r[3], r[0] ^ r[2]]]);
    }
    out.push(Case::new("arith/bits", [4, 1, 1]).storage_of(&x).output(48 * N).expect(1, want, Tol::Exact));

    let x = u64s(35);
    let mut want = Vec::new();
    for (i, &v) in x.iter().enumerate() {
        let s = i as u32 % 64;
        let s64 = ((v >> 7) % 64) as u32;
        let pc = u64::from(v.count_ones());
        let pc_hi = u64::from((v >> 32).count_ones());
        let lo = u64::from((v as u32) >> (s64 % 32));
        let hi = u64::from(((v as u32 as i32) >> (s % 32)) as u32) << 32;
        want.extend([
            pc | pc_hi << 32,
            v.wrapping_mul(0x9e37_79b9_7f4a_7c15),
            v << s,
            ((v as i64) >> s64) as u64,
            v >> s64,
            lo | hi,
        ]);
    }
    out.push(Case::new("arith/int64_bits", [2, 1, 1]).storage_of(&x).output(48 * N).needs(&[Need::Int64]).expect(
        1,
        want,
        Tol::Exact,
    ));
}

/// Pairs of floats for comparisons: NaN, infinities, signed zeros, equal values, random
/// normal values (no denormals, which an implementation may flush).
fn float_pairs(seed: u64) -> Vec<[f32; 2]> {
    let (nan, inf) = (f32::NAN, f32::INFINITY);
    let edges = [
        [nan, 1.0],
        [1.0, nan],
        [nan, nan],
        [inf, inf],
        [-inf, inf],
        [inf, 1.0],
        [0.0, -0.0],
        [-0.0, 0.0],
        [2.5, 2.5],
        [-1.0, 1.0],
        [1.0, -1.0],
        [nan, -inf],
        [-inf, -inf],
        [3.0, inf],
    ];
    fill(seed, &edges, |r| {
        let a = r.f32_in(-10.0, 10.0);
        match r.next() % 3 {
            0 => [a, a],
            _ => [a, r.f32_in(-10.0, 10.0)],
        }
    })
}

fn relational(out: &mut Vec<Case>) {
    let pairs = float_pairs(40);
    let want: Vec<u32> = pairs
        .iter()
        .map(|&[a, b]| {
            let ord = !a.is_nan() && !b.is_nan();
            let preds = [
                a == b,
                !ord || a == b,
                ord && a != b,
                a != b,
                a < b,
                !ord || a < b,
                a > b,
                !ord || a > b,
                a <= b,
                !ord || a <= b,
                a >= b,
                !ord || a >= b,
                a.is_nan(),
                a.is_infinite(),
                b.is_nan(),
                b.is_infinite(),
                a < b,
                b < a,
                !ord || a >= b,
                !ord || b >= a,
            ];
            preds.iter().enumerate().map(|(k, p)| (*p as u32) << k).sum()
        })
        .collect();
    out.push(Case::new("arith/fcompare", [2, 1, 1]).storage_of(&pairs).output(4 * N).expect(1, want, Tol::Exact));

    // Eighths, with divisors in [1/8, 10] of either sign: every FRem / FMod result is exact.
    let pairs: Vec<[f32; 2]> = fill(41, &[[0.0, 1.0], [-3.0, 1.5], [3.0, -1.5], [-2.5, 0.75], [7.0, 7.0]], |r| {
        let a = ((r.next() % 16000) as i32 - 8000) as f32 / 8.0;
        let b = ((r.next() % 80) + 1) as f32 / 8.0;
        [a, if r.next() % 2 == 0 { b } else { -b }]
    });
    let fmod = |a: f32, b: f32| {
        let r = a % b;
        if r != 0.0 && (r < 0.0) != (b < 0.0) {
            r + b
        } else {
            r
        }
    };
    let want: Vec<[f32; 4]> = pairs.iter().map(|&[a, b]| [a % b, fmod(a, b), fmod(a, -b), a % -b]).collect();
    // Abs(0): values exact, the sign of a zero result not compared.
    out.push(Case::new("arith/frem_fmod", [2, 1, 1]).storage_of(&pairs).output(16 * N).expect(1, want, Tol::Abs(0.0)));

    let a: Vec<[i32; 4]> = uvec4s(42).iter().map(|v| v.map(|x| x as i32)).collect();
    let b: Vec<[i32; 4]> = uvec4s(46)
        .iter()
        .zip(&a)
        .enumerate()
        .map(|(i, (v, x))| {
            let mut y = v.map(|x| x as i32);
            y[i % 4] = x[i % 4]; // some equal components
            if i % 5 == 0 {
                y[(i + 1) % 4] = x[(i + 1) % 4].wrapping_add(4);
            }
            y
        })
        .collect();
    let bits = |v: [bool; 4]| v.iter().enumerate().map(|(k, b)| (*b as u32) << k).sum::<u32>();
    let mut want = Vec::new();
    let mut sel = Vec::new();
    for (x, y) in a.iter().zip(&b) {
        let f = |p: &dyn Fn(usize) -> bool| -> [bool; 4] { std::array::from_fn(p) };
        let slt = f(&|k| x[k] < y[k]);
        let sge = f(&|k| x[k] >= y[k]);
        let ult = f(&|k| (x[k] as u32) < y[k] as u32);
        let ugt = f(&|k| (x[k] as u32) > y[k] as u32);
        let eq = f(&|k| x[k] == y[k]);
        let ne = f(&|k| x[k] & 3 != y[k] & 3);
        let nsle = f(&|k| x[k] > y[k]);
        let mixed = [slt[0] && ult[1], slt[1] || ugt[2], slt[2] == ult[3], slt[3] != eq[0]];
        want.push(
            bits(slt)
                | bits(sge) << 4
                | bits(ult) << 8
                | bits(ugt) << 12
                | bits(eq) << 16
                | bits(ne) << 20
                | bits(nsle) << 24
                | bits(mixed) << 28,
        );
        let any = |v: [bool; 4]| v.iter().any(|b| *b);
        let all = |v: [bool; 4]| v.iter().all(|b| *b);
        want.push(any(slt) as u32 | (all(ult) as u32) << 1 | (any(eq) as u32) << 2 | (!any(eq) as u32) << 3);
        sel.push(std::array::from_fn::<i32, 4, _>(|k| if ult[k] { y[k] } else { x[k] }));
    }
    out.push(Case::new("arith/logical", [2, 1, 1]).storage_of(&a).storage_of(&b).output(8 * N).output(16 * N).check(
        move |o| {
            o.expect(2, &want, Tol::Exact)?;
            o.expect(3, &sel, Tol::Exact)
        },
    ));
}

fn composite(out: &mut Vec<Case>) {
    let x: Vec<[i32; 4]> = uvec4s(50).iter().map(|v| v.map(|x| x as i32)).collect();
    let mut want = Vec::new();
    let mut fwant = Vec::new();
    for v in &x {
        let k = (v[3] & 3) as usize;
        let mut y = [v[3], v[2], v[1], v[0]];
        y[k] = v[(k + 1) & 3];
        want.extend([y, [v[0].wrapping_neg(), v[1].wrapping_neg(), !v[2], !v[3]], [v[1], v[1], v[0], v[k]]]);
        let a = v.map(|c| (c & 255) as f32 * 0.25);
        let b = v.map(|c| ((c >> 8) & 15) as f32 - 4.0);
        let dot = |n: usize, p: &[f32], q: &[f32]| (0..n).map(|i| p[i] * q[i]).sum::<f32>();
        fwant.push(a.map(|c| -c * 2.5));
        fwant.push([dot(4, &a, &b), dot(2, &a[..2], &b[2..]), -dot(3, &a, &b), -dot(4, &a, &a)]);
    }
    out.push(Case::new("arith/vector", [2, 1, 1]).storage_of(&x).output(48 * N).output(32 * N).check(move |o| {
        o.expect(1, &want, Tol::Exact)?;
        o.expect(2, &fwant, Tol::Abs(0.0))
    }));

    // x2 and x3 convert to float and back exactly.
    let x: Vec<[i32; 4]> = uvec4s(51)
        .iter()
        .map(|v| {
            [v[0] as i32, v[1] as i32, (v[2] % 2_000_000) as i32 - 1_000_000, (v[3] % 2_000_000) as i32 - 1_000_000]
        })
        .collect();
    let mut want = Vec::new();
    for v in &x {
        let c = v[0] < v[1];
        let y = [v[3], v[2], v[1], v[0]];
        want.push([if c { v[0] } else { v[1] }, if c { v[2] } else { v[3] }, if c { v[1] } else { v[3] }, v[0]]);
        want.push(if c { *v } else { y });
        want.push(std::array::from_fn(|k| v[k].max(y[k])));
    }
    out.push(Case::new("arith/select", [2, 1, 1]).storage_of(&x).output(48 * N).expect(1, want, Tol::Exact));

    let x: Vec<[i32; 4]> = uvec4s(52).iter().map(|v| v.map(|x| x as i32)).collect();
    let xs = x.clone();
    out.push(Case::new("arith/shuffle", [2, 1, 1]).storage_of(&x).output(48 * N).check(move |o| {
        let r = o.get::<[i32; 4]>(1);
        for (i, v) in xs.iter().enumerate() {
            let k = i & 3;
            let mut ins = *v;
            ins[k] = v[3];
            equal(&format!("insert {i}"), r[3 * i], ins)?;
            // Component 0 of the shuffle is undefined: not compared.
            equal(&format!("shuffle {i}"), &r[3 * i + 1][1..], &[v[3], v[3], v[0]][..])?;
            equal(&format!("extracts {i}"), r[3 * i + 2], [v[0], v[2], v[k], v[3]])?;
        }
        Ok(())
    }));
}

fn dot(out: &mut Vec<Case>) {
    let sat_i32 = |v: i64| v.clamp(i64::from(i32::MIN), i64::from(i32::MAX)) as i32 as u32;
    let sat_u32 = |v: i64| v.clamp(0, i64::from(u32::MAX)) as u32;

    let mut x = uvec4s(60);
    let edges = [
        [0x8080_8080, 0x8080_8080, i32::MAX as u32],
        [0x8080_8080, 0x7f7f_7f7f, i32::MIN as u32],
        [0xffff_ffff, 0xffff_ffff, u32::MAX - 5],
        [0x0102_0304, 0xfffe_fdfc, 17],
        [0x7f7f_7f7f, 0x8080_8080, 0x8000_0010],
    ];
    for (i, e) in edges.iter().enumerate() {
        x[i][..3].copy_from_slice(e);
    }
    let mut want = Vec::new();
    for v in &x {
        let (a, b, acc) = (v[0].to_le_bytes(), v[1].to_le_bytes(), v[2]);
        let sd: i64 = (0..4).map(|k| i64::from(a[k] as i8) * i64::from(b[k] as i8)).sum();
        let ud: i64 = (0..4).map(|k| i64::from(a[k]) * i64::from(b[k])).sum();
        let sud: i64 = (0..4).map(|k| i64::from(a[k] as i8) * i64::from(b[k])).sum();
        let acci = i64::from(acc as i32);
        want.push([sd as u32, ud as u32, sud as u32, sat_i32(sd + acci)]);
        want.push([sat_u32(ud + i64::from(acc)), sat_i32(sud + acci), v[0], v[1]]);
    }
    out.push(
        Case::new("arith/dot_packed", [2, 1, 1])
            .storage_of(&x)
            .output(32 * N)
            .needs(&[Need::IntegerDotProduct])
            .expect(1, want, Tol::Exact),
    );

    // The saturating forms are undefined when the dot product itself overflows the result
    // type (only the accumulation saturates): those components are not compared. Invocation
    // i % 4 == 0 has large components (wrapping dots), 1 and 2 components in ±23170 (signed
    // dots fit in 32 bits), 3 components in [0, 23170) (every dot fits); accumulators are
    // random, so the accumulation saturates often.
    let shape = |v: [u32; 4], i: usize| match i % 4 {
        0 => v,
        1 | 2 => v.map(|c| (c as i32 % 23170) as u32),
        _ => v.map(|c| c % 23170),
    };
    let a: Vec<[u32; 4]> = uvec4s(61).into_iter().enumerate().map(|(i, v)| shape(v, i)).collect();
    let b: Vec<[u32; 4]> = uvec4s(65).into_iter().enumerate().map(|(i, v)| shape(v, i)).collect();
    let acc: Vec<u32> = u32s(69).iter().enumerate().map(|(i, &c)| if i % 8 == 1 { c % 1000 } else { c }).collect();
    let mut want: Vec<Option<u32>> = Vec::new();
    for i in 0..N {
        let (x, y, c) = (a[i], b[i], acc[i]);
        let sd: i128 = (0..4).map(|k| i128::from(x[k] as i32) * i128::from(y[k] as i32)).sum();
        let ud: i128 = (0..4).map(|k| i128::from(x[k]) * i128::from(y[k])).sum();
        let sud: i128 = (0..4).map(|k| i128::from(x[k] as i32) * i128::from(y[k])).sum();
        let ud3 = (0..3).fold(0u32, |s, k| s.wrapping_add(x[k].wrapping_mul(y[k + 1])));
        let (imin, imax) = (i128::from(i32::MIN), i128::from(i32::MAX));
        let signed_sat =
            |d: i128| (imin..=imax).contains(&d).then(|| (d + i128::from(c as i32)).clamp(imin, imax) as i32 as u32);
        let unsigned_sat =
            (0..=i128::from(u32::MAX)).contains(&ud).then(|| (ud + i128::from(c)).min(u32::MAX.into()) as u32);
        want.extend([Some(sd as u32), Some(ud as u32), Some(sud as u32), signed_sat(sd)]);
        want.extend([unsigned_sat, signed_sat(sud), Some(ud3), Some(c)]);
    }
    let compared = want.iter().filter(|w| w.is_some()).count();
    assert!(compared > 6 * N, "dot_vector compares too few components ({compared})");
    out.push(
        Case::new("arith/dot_vector", [2, 1, 1])
            .storage_of(&a)
            .storage_of(&b)
            .storage_of(&acc)
            .output(32 * N)
            .needs(&[Need::IntegerDotProduct])
            .check(move |o| {
                let got = o.get::<u32>(3);
                for (k, w) in want.iter().enumerate() {
                    if let Some(w) = w {
                        equal(&format!("component {} of invocation {}", k % 8, k / 8), got[k], *w)?;
                    }
                }
                Ok(())
            }),
    );
}
