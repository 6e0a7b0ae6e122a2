//! Cases of `tests/spirv/control/`: structured control flow (loops, switches, phis),
//! function calls and hand-written SPIR-V forms, against the same programs in Rust.

use softnavi_tests::check::{f32s_in, i32s, u32s, Tol, N};

use crate::harness::{Case, Need};

pub fn cases() -> Vec<Case> {
    vec![
        nested_loops(),
        switch(),
        calls(),
        early_exit(),
        loop_controls(),
        barriers(),
        phi_web(),
        switch_fallthrough(),
        loop_forms(),
        forms(),
        pointer_params(false),
        pointer_params(true),
        switch_wide(),
        switch_narrow(),
        two_entries(false, None),
        two_entries(true, None),
        two_entries(true, Some(16)),
        debuginfo(),
        undef_opaque(),
    ]
}

fn nested_loops() -> Case {
    let a = u32s(30);
    let want: Vec<u32> = a
        .iter()
        .flat_map(|&x0| {
            let mut acc = 0u32;
            for j in 0..12 {
                if (x0 >> j) & 1 == 1 {
                    continue;
                }
                let mut k = j;
                while k < 20 {
                    if k != 14 {
                        acc = acc.wrapping_mul(3).wrapping_add(k);
                        if (acc ^ x0) & 31 == 7 {
                            break;
                        }
                    }
                    k += 3;
                }
                if acc > 0x4000_0000 {
                    break;
                }
            }
            let (mut x, mut n) = (x0, 0u32);
            loop {
                x = if x & 1 == 1 { x.wrapping_mul(3).wrapping_add(1) } else { x >> 1 };
                n += 1;
                if x == 1 || n >= 50 {
                    break;
                }
            }
            [acc, n]
        })
        .collect();
    Case::new("control/nested_loops", [2, 1, 1]).storage_of(&a).output(8 * N).expect(1, want, Tol::Exact)
}

fn switch() -> Case {
    let a = i32s(31);
    let want: Vec<i32> = a
        .iter()
        .map(|&x| {
            let mut r = 0i32;
            // The GLSL switch, its fall-throughs unrolled.
            let sel = (x & 0x7fff_ffff) % 24 - 3;
            match sel {
                0 => r += 11,
                1 => r += 10,
                2 | 3 | -3 => r = 7,
                4 => r = (x & 0x7fff_ffff).wrapping_add(1100),
                5 => r += 1000,
                6 => r = -6,
                7 => r = 154,
                8 => r *= 2,
                9..=15 | -1 | -2 => r = sel,
                _ => r += 1100,
            }
            match (x as u32) >> 29 {
                7 => r = r.wrapping_add(7),
                6 => r = r.wrapping_add(6),
                5 => r = r.wrapping_add(4),
                _ => {}
            }
            r
        })
        .collect();
    Case::new("control/switch", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}

fn calls() -> Case {
    let a = i32s(32);
    let find = |v: i32| {
        for j in 1..10 {
            for k in 1..10 {
                if j * k == (v & 0xffff) % 37 {
                    return j * 100 + k;
                }
            }
        }
        -1
    };
    let d1 = |v: i32| v + 1;
    let d2 = |v: i32| d1(v) * 2;
    let d3 = |v: i32| d2(v) - 3;
    let d4 = |v: i32| d3(v) ^ 4;
    let d5 = |v: i32| d4(v) + d1(v);
    let d6 = |v: i32| d5(v) * d2(1);
    let want: Vec<i32> = a
        .iter()
        .flat_map(|&x| {
            let digit = |k: i32| (x >> (4 * k)) & 15;
            let v = digit(1) + digit(3);
            [x & 0xffff, x >> 16, 5 + v, v & 7, find(x), d6(x & 0xfff)]
        })
        .collect();
    Case::new("control/calls", [2, 1, 1]).storage_of(&a).output(4 * 6 * N).expect(1, want, Tol::Exact)
}

fn early_exit() -> Case {
    let a = u32s(33);
    let scan = |x: u32| {
        for k in 0..32 {
            match (x >> k) & 3 {
                3 => return k,
                2 if k > 20 => return 100 + k,
                _ => {}
            }
        }
        999
    };
    let want: Vec<u32> = a
        .iter()
        .flat_map(|&x| {
            let mut n = 0u32;
            loop {
                n += 1;
                if n * n > (x & 1023) {
                    break;
                }
            }
            let (mut m, mut c) = (0u32, 0u32);
            loop {
                c += 1;
                if c & 1 == 1 {
                    m += c;
                }
                if c >= (x & 15) {
                    break;
                }
            }
            let t = x >> 8 & 63;
            let j = if t < 64 { t / 8 } else { 9 };
            [scan(x), n * 10000 + m * 10 + j]
        })
        .collect();
    Case::new("control/early_exit", [2, 1, 1]).storage_of(&a).output(8 * N).expect(1, want, Tol::Exact)
}

fn loop_controls() -> Case {
    let a = u32s(34);
    let want: Vec<u32> = a
        .iter()
        .map(|&x| {
            let mut s = 0u32;
            for k in 0..8 {
                s = s.wrapping_add(x >> k);
            }
            for _ in 0..5 {
                s ^= s << 3;
            }
            for k in 0..(x & 15) {
                s = s.wrapping_add(k);
            }
            for k in 0..4 {
                s = s.wrapping_mul(5).wrapping_add(k);
            }
            for _ in 0..(x & 7) + 2 {
                s = s.wrapping_add(11);
            }
            for k in 0..6 {
                s = s.wrapping_add(k * k);
            }
            for k in 0..3 {
                s ^= k;
            }
            s = s.wrapping_add(4);
            s = if x & 1 == 1 { s.wrapping_add(100) } else { s.wrapping_sub(100) };
            if x & 2 == 2 {
                s = s.wrapping_mul(3);
            }
            s.wrapping_add(if x & 3 == 0 { 1 } else { 2 })
        })
        .collect();
    Case::new("control/loop_controls", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}

fn barriers() -> Case {
    let a: Vec<u32> = u32s(35).iter().map(|x| x >> 8).collect();
    let v: Vec<u32> = a
        .iter()
        .map(|&x| {
            if x & 1 == 0 {
                // The trip count reads v, which the loop changes.
                let (mut v, mut k) = (x, 0);
                while k < (v & 7) {
                    v = v.wrapping_add(k);
                    k += 1;
                }
                v
            } else {
                x.wrapping_mul(3)
            }
        })
        .collect();
    let want: Vec<u32> = (0..N)
        .map(|i| {
            let group = v[i / 64 * 64..i / 64 * 64 + 64].iter().fold(0u32, |s, x| s.wrapping_add(*x));
            v[i].wrapping_add(if i % 64 == 0 { group } else { 0 })
        })
        .collect();
    Case::new("control/barriers", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}

fn phi_web() -> Case {
    let a = u32s(36);
    let want: Vec<u32> = a
        .iter()
        .flat_map(|&x| {
            let (mut p0, mut b, mut p, mut q, mut u) = (x, 1u32, x, 7u32, 0u32);
            for _ in 0..5 {
                let sum = p0.wrapping_add(b);
                u = sum.wrapping_mul(3);
                (p0, b) = (b, sum);
                (p, q) = (q, p);
            }
            let t = if x & 1 == 1 { x.wrapping_mul(2) } else { 0 };
            [p0, b, p, q, u.wrapping_add(t)]
        })
        .collect();
    Case::new("control/phi_web", [2, 1, 1]).storage_of(&a).output(4 * 5 * N).expect(1, want, Tol::Exact)
}

fn switch_fallthrough() -> Case {
    let a = i32s(37);
    let want: Vec<i32> = a
        .iter()
        .map(|&x| match x.rem_euclid(8) - 2 {
            // OpSMod takes the sign of the divisor.
            0 => x.wrapping_add(10).wrapping_mul(2),
            1 | 4 => 200,
            -2 | -1 => 1000,
            _ => -1,
        })
        .collect();
    Case::new("control/switch_fallthrough", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}

fn loop_forms() -> Case {
    let a = u32s(38);
    let want: Vec<u32> = a
        .iter()
        .flat_map(|&x| {
            let (mut s, mut n) = (if x & 1 == 1 { 5u32 } else { 1 }, 0u32);
            loop {
                if n >= 40 {
                    break [s, n];
                }
                let n1 = n + 1;
                let s1 = s + n1;
                if s1 > 500 {
                    break [s1, n1];
                }
                s = if s1 & 1 == 1 { s1 + 3 } else { s1 + (s1 >> 4) };
                n = n1;
            }
        })
        .collect();
    Case::new("control/loop_forms", [2, 1, 1]).storage_of(&a).output(8 * N).expect(1, want, Tol::Exact)
}

fn forms() -> Case {
    let a: Vec<u32> = u32s(39).iter().enumerate().map(|(i, x)| if i % 3 == 0 { x % 200 } else { *x }).collect();
    let classify = |v: u32| {
        if v > 100 {
            v & 7
        } else if v & 1 == 0 {
            v * 10
        } else {
            3
        }
    };
    let want: Vec<u32> = a.iter().map(|&x| classify(x).wrapping_add((x & 3) * 1000)).collect();
    Case::new("control/forms", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}

fn pointer_params(sb: bool) -> Case {
    let a = u32s(40);
    let want: Vec<u32> = (0..N)
        .flat_map(|i| {
            let x = a[i];
            let f = x.wrapping_add(1);
            let neighbour = a[i / 64 * 64 + (i + 1) % 64] ^ 255;
            [f.wrapping_mul(2), f, x.wrapping_add(15), neighbour]
        })
        .collect();
    let case = if sb {
        Case::new("control/pointer_params_sb", [2, 1, 1]).needs(&[Need::VariablePointersStorageBuffer])
    } else {
        Case::new("control/pointer_params", [2, 1, 1])
    };
    case.storage_of(&a).output(4 * 4 * N).expect(1, want, Tol::Exact)
}

fn switch_wide() -> Case {
    let a = i32s(41);
    let want: Vec<i32> = a
        .iter()
        .enumerate()
        .map(|(i, &x)| {
            let s = i64::from(x).wrapping_mul(0x1_0000_0001) >> (i % 3 * 16);
            match s {
                4_294_967_297 => 1,
                -4_294_967_297 => 2,
                7 => 3,
                30_064_771_079 => 4,
                -1 => x,
                65537 => i as i32,
                _ => 0,
            }
        })
        .collect();
    Case::new("control/switch_wide", [2, 1, 1]).needs(&[Need::Int64]).storage_of(&a).output(4 * N).expect(
        1,
        want,
        Tol::Exact,
    )
}

fn switch_narrow() -> Case {
    let mut a = i32s(42);
    a[40] = 1000;
    a[41] = 125 << 3;
    let want: Vec<i32> = a
        .iter()
        .map(|&x| {
            let v16 = match x as i16 {
                0 => 1,
                -1 | 32767 => 2,
                -32768 | 1000 => 3,
                _ => 0,
            };
            let v8 = match (x >> 3) as i8 {
                -128 | 127 => 1,
                -1 => 2,
                0 | 125 => 3,
                _ => 0,
            };
            v16 * 10 + v8
        })
        .collect();
    Case::new("control/switch_narrow", [2, 1, 1]).needs(&[Need::Int16, Need::Int8]).storage_of(&a).output(4 * N).expect(
        1,
        want,
        Tol::Exact,
    )
}

/// `main`, or `other` with workgroup width `spec` (LocalSizeId of spec constant 5; None: its
/// default, 32).
fn two_entries(other: bool, spec: Option<u32>) -> Case {
    let a = u32s(43);
    if !other {
        let want: Vec<u32> = a.iter().map(|x| x.wrapping_add(1)).collect();
        return Case::new("control/two_entries", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact);
    }
    let width = spec.unwrap_or(32);
    let want: Vec<u32> = a.iter().map(|x| x.wrapping_mul(3).wrapping_add(width)).collect();
    let case = Case::new("control/two_entries", [N as u32 / width, 1, 1])
        .named(&format!("other{width}"))
        .entry("other")
        .storage_of(&a)
        .output(4 * N)
        .expect(1, want, Tol::Exact);
    match spec {
        Some(w) => case.spec(5, w.to_le_bytes().to_vec()),
        None => case,
    }
}

fn debuginfo() -> Case {
    let a = u32s(44);
    let want: Vec<u32> = a.iter().map(|&x| (x & 3).wrapping_mul(x.wrapping_mul(2).wrapping_add(1))).collect();
    Case::new("control/debuginfo", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}

fn undef_opaque() -> Case {
    let a = f32s_in(45, -10.0, 10.0);
    let want: Vec<f32> = a.iter().map(|x| -x).collect();
    Case::new("control/undef_opaque", [2, 1, 1]).storage_of(&a).output(4 * N).expect(1, want, Tol::Exact)
}
