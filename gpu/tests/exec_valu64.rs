//! f64 and 64-bit integer VALU, the division sequence, class / 64-bit / F / T compares, and
//! the rest of the 32-bit VALU (valu64.rs). Expected values come from host IEEE arithmetic
//! or from formulas written here from the ISA's definitions, never from the executor.

mod common;

use common::{run_wave, WaveOut};

const SNAN64: u64 = 0x7ff0_0000_0000_0001;
const QNAN64: u64 = 0x7ff8_0000_0000_0000;

/// Edge f64 values: zeros, ±1, extremes, denormals, infinities, NaNs, inexact values.
fn edges64() -> Vec<f64> {
    let b = f64::from_bits;
    vec![
        0.0,
        -0.0,
        1.0,
        -1.0,
        1.5,
        -2.5,
        f64::MAX,
        -f64::MAX,
        f64::MIN_POSITIVE,
        b(1),
        -b(1),
        b(0x000f_ffff_ffff_ffff),
        f64::INFINITY,
        f64::NEG_INFINITY,
        b(QNAN64),
        b(SNAN64),
        0.1,
        3.0,
        std::f64::consts::PI,
        1e300,
        -1e-300,
        9007199254740993.0,
        0.5,
        -0.75,
        1e-310,
        123456.789,
        -7.0,
        2.0,
        1.0 / 3.0,
        -1e10,
        4.5,
        1e-5,
    ]
}

/// Lane inputs for two f64 operands a, b (in v[0:1] and v[2:3]).
fn pairs64(lanes: usize) -> Vec<(f64, f64)> {
    let e = edges64();
    (0..lanes).map(|l| (e[l % e.len()], e[(l * 7 + 3) % e.len()])).collect()
}

fn inputs64(p: &[(f64, f64)]) -> Vec<[u32; 4]> {
    p.iter()
        .map(|(a, b)| {
            let (a, b) = (a.to_bits(), b.to_bits());
            [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]
        })
        .collect()
}

fn out64(o: &WaveOut, lane: usize, k: usize) -> f64 {
    let v = o.v[lane];
    f64::from_bits(v[2 * k] as u64 | (v[2 * k + 1] as u64) << 32)
}

/// Bitwise equality, any NaN matching any quiet NaN.
fn same64(got: f64, want: f64) -> bool {
    if want.is_nan() {
        got.is_nan() && got.to_bits() & (1 << 51) != 0
    } else {
        got.to_bits() == want.to_bits()
    }
}

fn same32(got: f32, want: f32) -> bool {
    if want.is_nan() {
        got.is_nan() && got.to_bits() & (1 << 22) != 0
    } else {
        got.to_bits() == want.to_bits()
    }
}

/// IEEE-mode min/max of the ISA: a signalling NaN input gives a quiet NaN, a quiet NaN
/// loses to a number, -0 < +0.
fn ieee_min64(a: f64, b: f64, min: bool) -> f64 {
    let snan = |x: f64| x.is_nan() && x.to_bits() & (1 << 51) == 0;
    if snan(a) || snan(b) {
        return f64::NAN;
    }
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        let neg = if min {
            a.is_sign_negative() || b.is_sign_negative()
        } else {
            a.is_sign_negative() && b.is_sign_negative()
        };
        return if neg { -a.abs() } else { a.abs() };
    }
    if (a < b) == min {
        a
    } else {
        b
    }
}

/// v_add/mul/min/max_f64 and v_fma_f64 against host IEEE arithmetic, wave32 and wave64.
#[test]
fn f64_arithmetic_matches_host_ieee() {
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let p = pairs64(lanes);
        let o = run_wave(
            "v_add_f64 v[4:5], v[0:1], v[2:3]
             v_mul_f64 v[6:7], v[0:1], v[2:3]
             v_min_f64 v[8:9], v[0:1], v[2:3]
             v_max_f64 v[10:11], v[0:1], v[2:3]",
            &inputs64(&p),
            wave64,
        );
        for (l, &(a, b)) in p.iter().enumerate() {
            for (k, want) in [a + b, a * b, ieee_min64(a, b, true), ieee_min64(a, b, false)].into_iter().enumerate() {
                let got = out64(&o, l, k);
                assert!(same64(got, want), "lane {l} op {k}: {a:e} {b:e} -> {got:e}, want {want:e}");
            }
        }
        let o = run_wave(
            "v_fma_f64 v[4:5], v[0:1], v[2:3], 1.0
             v_fma_f64 v[6:7], v[0:1], v[0:1], -v[2:3]
             v_add_f64 v[8:9], -v[0:1], |v[2:3]|
             v_fma_f64 v[10:11], v[0:1], v[2:3], v[0:1] clamp",
            &inputs64(&p),
            wave64,
        );
        for (l, &(a, b)) in p.iter().enumerate() {
            let clamp = |x: f64| if x.is_nan() { 0.0 } else { x.clamp(0.0, 1.0) };
            let want = [a.mul_add(b, 1.0), a.mul_add(a, -b), -a + b.abs(), clamp(a.mul_add(b, a))];
            for (k, want) in want.into_iter().enumerate() {
                let got = out64(&o, l, k);
                assert!(same64(got, want), "lane {l} fma {k}: {a:e} {b:e} -> {got:e}, want {want:e}");
            }
        }
    }
}

/// Every f64 compare kind (IEEE unordered semantics), f32/i32/u32 F and T, into SGPRs.
#[test]
fn f64_compares_follow_ieee_ordering() {
    use std::cmp::Ordering::*;
    let kinds = ["f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"];
    let p = pairs64(32);
    let body: String =
        kinds.iter().enumerate().map(|(i, k)| format!("v_cmp_{k}_f64_e64 s{}, v[0:1], v[2:3]\n", 10 + i)).collect();
    let o = run_wave(&body, &inputs64(&p), false);
    for (i, k) in kinds.iter().enumerate() {
        let mut want = 0u32;
        for (l, &(a, b)) in p.iter().enumerate() {
            let c = a.partial_cmp(&b);
            let hit = match *k {
                "f" => false,
                "lt" => c == Some(Less),
                "eq" => c == Some(Equal),
                "le" => matches!(c, Some(Less | Equal)),
                "gt" => c == Some(Greater),
                "lg" => matches!(c, Some(Less | Greater)),
                "ge" => matches!(c, Some(Greater | Equal)),
                "o" => c.is_some(),
                "u" => c.is_none(),
                "nge" => !matches!(c, Some(Greater | Equal)),
                "nlg" => !matches!(c, Some(Less | Greater)),
                "ngt" => c != Some(Greater),
                "nle" => !matches!(c, Some(Less | Equal)),
                "neq" => c != Some(Equal),
                "nlt" => c != Some(Less),
                _ => true,
            };
            want |= (hit as u32) << l;
        }
        assert_eq!(o.s[i], want, "v_cmp_{k}_f64");
    }
    let o = run_wave(
        "v_cmp_f_f32_e64 s10, v0, v1
         v_cmp_t_f32_e64 s11, v0, v1
         v_cmp_f_i32_e64 s12, v0, v1
         v_cmp_t_i32_e64 s13, v0, v1
         v_cmp_f_u32_e64 s14, v0, v1
         v_cmp_t_u32_e64 s15, v0, v1
         v_cmp_t_u64_e64 s16, v[0:1], v[2:3]
         v_cmp_f_i64_e64 s17, v[0:1], v[2:3]",
        &inputs64(&p),
        false,
    );
    assert_eq!(&o.s[..8], &[0, u32::MAX, 0, u32::MAX, 0, u32::MAX, u32::MAX, 0]);
}

/// 64-bit integer compares: VGPR pairs, a 64-bit inline constant and an SGPR pair.
#[test]
fn i64_u64_compares() {
    let vals: [u64; 8] = [0, 1, u64::MAX, i64::MAX as u64, i64::MIN as u64, 0x1_0000_0000, 0xffff_ffff, 42];
    let p: Vec<(u64, u64)> = (0..32).map(|l| (vals[l % 8], vals[(l / 8 + l) % 8])).collect();
    let inputs: Vec<[u32; 4]> =
        p.iter().map(|&(a, b)| [a as u32, (a >> 32) as u32, b as u32, (b >> 32) as u32]).collect();
    let kinds = ["lt", "eq", "le", "gt", "ne", "ge"];
    let mut body = String::new();
    for (i, k) in kinds.iter().enumerate() {
        body += &format!("v_cmp_{k}_i64_e64 s{}, v[0:1], v[2:3]\n", 10 + i);
        body += &format!("v_cmp_{k}_u64_e64 s{}, v[0:1], v[2:3]\n", 16 + i);
    }
    body += "s_mov_b32 s30, 0\n s_mov_b32 s31, 1\n v_cmp_lt_u64_e64 s22, v[0:1], s[30:31]\n v_cmp_gt_i64_e64 s23, v[0:1], -1\n";
    let o = run_wave(&body, &inputs, false);
    let mask =
        |f: &dyn Fn(u64, u64) -> bool| p.iter().enumerate().fold(0u32, |m, (l, &(a, b))| m | (f(a, b) as u32) << l);
    let s = |x: u64| x as i64;
    let want: [Box<dyn Fn(u64, u64) -> bool>; 6] = [
        Box::new(|a, b| a < b),
        Box::new(|a, b| a == b),
        Box::new(|a, b| a <= b),
        Box::new(|a, b| a > b),
        Box::new(|a, b| a != b),
        Box::new(|a, b| a >= b),
    ];
    for (i, f) in want.iter().enumerate() {
        assert_eq!(o.s[i], mask(&|a, b| f(s(a) as u64 ^ 1 << 63, s(b) as u64 ^ 1 << 63)), "i64 {}", kinds[i]);
        assert_eq!(o.s[6 + i], mask(&|a, b| f(a, b)), "u64 {}", kinds[i]);
    }
    assert_eq!(o.s[12], mask(&|a, _| a < 0x1_0000_0000));
    assert_eq!(o.s[13], mask(&|a, _| s(a) > -1));
}

/// RDNA3-NOTES, "Wave32 and wave64": in wave64 v_cmpx writes both halves of EXEC and
/// v_cmp writes an SGPR pair; inactive lanes read 0.
#[test]
fn wave64_cmpx_writes_both_exec_halves() {
    let p = pairs64(64);
    let o = run_wave(
        "s_mov_b64 exec, 0x7fffffff
         s_mov_b32 exec_hi, 0xfffffff0
         v_cmp_lt_f64_e64 s[10:11], v[0:1], v[2:3]
         v_cmpx_ge_u64 v[0:1], v[2:3]",
        &inputs64(&p),
        true,
    );
    let exec0 = 0xffff_fff0_7fff_ffffu64;
    let (mut lt, mut ge) = (0u64, 0u64);
    for (l, &(a, b)) in p.iter().enumerate() {
        lt |= ((a < b) as u64) << l;
        ge |= ((a.to_bits() >= b.to_bits()) as u64) << l;
    }
    assert_eq!(o.s[0] as u64 | (o.s[1] as u64) << 32, lt & exec0);
    assert_eq!(o.exec, ge & exec0);
}

/// v_cmp_class: bit 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0,
/// 7 +denormal, 8 +normal, 9 +inf (ISA, V_CMP_CLASS).
#[test]
fn class_compares_classify_every_kind() {
    fn class(bits: u64, f64: bool) -> u32 {
        let (x, quiet) = if f64 {
            let x = f64::from_bits(bits);
            (x, bits & 1 << 51 != 0)
        } else {
            let x = f32::from_bits(bits as u32);
            (x as f64, bits & 1 << 22 != 0)
        };
        let neg = bits >> (if f64 { 63 } else { 31 }) & 1 != 0;
        let denorm = if f64 { f64::from_bits(bits).is_subnormal() } else { f32::from_bits(bits as u32).is_subnormal() };
        if x.is_nan() {
            return if quiet { 1 } else { 0 };
        }
        match (x.is_infinite(), x == 0.0 && !denorm, denorm, neg) {
            (true, _, _, true) => 2,
            (true, _, _, false) => 9,
            (_, true, _, true) => 5,
            (_, true, _, false) => 6,
            (_, _, true, true) => 4,
            (_, _, true, false) => 7,
            (_, _, _, true) => 3,
            _ => 8,
        }
    }
    let e = edges64();
    let in64: Vec<[u32; 4]> = (0..32).map(|l| e[l].to_bits()).map(|b| [b as u32, (b >> 32) as u32, 0, 0]).collect();
    let f32s: Vec<u32> = e.iter().map(|&x| (x as f32).to_bits()).chain([1, 0x8000_0001, 0x7f80_0001]).collect();
    let in32: Vec<[u32; 4]> = (0..32).map(|l| [f32s[l + 3], 0, 0, 0]).collect();
    let body64: String = (0..10).map(|i| format!("v_cmp_class_f64_e64 s{}, v[0:1], {}\n", 10 + i, 1 << i)).collect();
    let body32: String = (0..10).map(|i| format!("v_cmp_class_f32_e64 s{}, v0, {}\n", 10 + i, 1 << i)).collect();
    for (body, inputs, is64) in [(body64, in64, true), (body32, in32, false)] {
        let o = run_wave(&body, &inputs, false);
        for bit in 0..10 {
            let want = inputs
                .iter()
                .enumerate()
                .fold(0u32, |m, (l, i)| m | ((class(i[0] as u64 | (i[1] as u64) << 32, is64) == bit) as u32) << l);
            assert_eq!(o.s[bit as usize], want, "class bit {bit} (f64: {is64})");
        }
    }
    // v_cmpx_class writes EXEC; the all-classes mask keeps every lane.
    let o = run_wave("v_cmpx_class_f64 v[0:1], 0x3ff", &(0..32).map(|l| [l, 0, 0, 0]).collect::<Vec<_>>(), false);
    assert_eq!(o.exec, 0xffff_ffff);
}

/// Conversions and one-source f64 ops against host arithmetic.
#[test]
fn f64_conversions_and_rounding() {
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let e = edges64();
        let xs: Vec<f64> = (0..lanes).map(|l| e[l % e.len()] * if l >= 32 { -3.25 } else { 1.0 }).collect();
        let inputs: Vec<[u32; 4]> =
            xs.iter().map(|x| x.to_bits()).map(|b| [b as u32, (b >> 32) as u32, b as u32, 0x8000_0001]).collect();
        let o = run_wave(
            "v_cvt_i32_f64 v4, v[0:1]
             v_cvt_u32_f64 v5, v[0:1]
             v_cvt_f32_f64 v6, v[0:1]
             v_frexp_exp_i32_f64 v7, v[0:1]
             v_cvt_f64_i32 v[8:9], v3
             v_cvt_f64_u32 v[10:11], v3",
            &inputs,
            wave64,
        );
        for (l, &x) in xs.iter().enumerate() {
            let v = o.v[l];
            assert_eq!(v[0], x as i32 as u32, "cvt_i32 {x:e}");
            assert_eq!(v[1], x as u32, "cvt_u32 {x:e}");
            assert!(same32(f32::from_bits(v[2]), x as f32), "cvt_f32 {x:e}");
            let fe = if x.is_finite() && x != 0.0 { libm_frexp(x).1 } else { 0 };
            assert_eq!(v[3] as i32, fe, "frexp_exp {x:e}");
            assert_eq!(out64(&o, l, 2), 0x8000_0001u32 as i32 as f64);
            assert_eq!(out64(&o, l, 3), 0x8000_0001u32 as f64);
        }
        let o = run_wave(
            "v_trunc_f64 v[4:5], v[0:1]
             v_ceil_f64 v[6:7], v[0:1]
             v_rndne_f64 v[8:9], v[0:1]
             v_floor_f64 v[10:11], v[0:1]",
            &inputs,
            wave64,
        );
        for (l, &x) in xs.iter().enumerate() {
            for (k, want) in [x.trunc(), x.ceil(), x.round_ties_even(), x.floor()].into_iter().enumerate() {
                assert!(same64(out64(&o, l, k), want), "round {k} of {x:e}: {:e}", out64(&o, l, k));
            }
        }
        let o = run_wave(
            "v_fract_f64 v[4:5], v[0:1]
             v_frexp_mant_f64 v[6:7], v[0:1]
             v_cvt_f64_f32 v[8:9], v2
             v_ldexp_f64 v[10:11], v[0:1], -1074",
            &inputs,
            wave64,
        );
        for (l, &x) in xs.iter().enumerate() {
            let fract =
                if !x.is_finite() { f64::NAN } else { (x - x.floor()).min(f64::from_bits(0x3fef_ffff_ffff_ffff)) };
            let mant = if x.is_finite() && x != 0.0 { libm_frexp(x).0 } else { x };
            let lo32 = f32::from_bits(x.to_bits() as u32) as f64;
            // x · 2^-1074 rounded once: exact rational arithmetic on the bits.
            let ld = ldexp_ref(x, -1074);
            for (k, want) in [fract, mant, lo32, ld].into_iter().enumerate() {
                assert!(same64(out64(&o, l, k), want), "op {k} of {x:e}: {:e}, want {want:e}", out64(&o, l, k));
            }
        }
    }
}

/// frexp from the bit layout (normalising denormals).
fn libm_frexp(x: f64) -> (f64, i32) {
    let mut e = 0;
    let mut m = x;
    while m.abs() >= 1.0 {
        m /= 2.0;
        e += 1;
    }
    while m.abs() < 0.5 {
        m *= 2.0;
        e -= 1;
    }
    (m, e)
}

/// `x · 2^n` rounded to nearest even, from the integer significand.
fn ldexp_ref(x: f64, n: i32) -> f64 {
    if !x.is_finite() || x == 0.0 {
        return x;
    }
    let (m, e) = libm_frexp(x.abs());
    let sig = (m * 2f64.powi(53)) as u64; // x = sig · 2^(e-53)
    let exp = e - 53 + n; // result = sig · 2^exp
    let r = if exp >= -1074 {
        // Exact: a multiple of 2^-1074 with at most 53 significant bits.
        if exp >= -1000 {
            sig as f64 * 2f64.powi(exp)
        } else {
            sig as f64 * 2f64.powi(exp + 100) * 2f64.powi(-100)
        }
    } else {
        let sh = (-1074 - exp) as u32;
        let q = if sh >= 64 { 0 } else { sig >> sh };
        let rem = if sh >= 64 { sig as u128 } else { (sig & ((1u64 << sh) - 1)) as u128 };
        let half = if sh >= 128 { u128::MAX } else { 1u128 << (sh - 1) };
        let up = rem > half || (rem == half && q & 1 == 1);
        f64::from_bits(q + up as u64)
    };
    if x < 0.0 {
        -r
    } else {
        r
    }
}

/// Runs LLVM 19's own f32/f64 division expansion (clang -O2, gfx1100) and its f64 sqrt
/// expansion over edge inputs and compares with correctly rounded host results.
#[test]
fn llvm_division_and_sqrt_expansions_are_correctly_rounded() {
    const FDIV32: &str = "
        v_div_scale_f32 v2, null, v1, v1, v0
        v_rcp_f32_e32 v3, v2
        v_fma_f32 v4, -v2, v3, 1.0
        v_fmac_f32_e32 v3, v4, v3
        v_div_scale_f32 v4, VCC, v0, v1, v0
        v_mul_f32_e32 v5, v4, v3
        v_fma_f32 v6, -v2, v5, v4
        v_fmac_f32_e32 v5, v6, v3
        v_fma_f32 v2, -v2, v5, v4
        v_div_fmas_f32 v2, v2, v3, v5
        v_div_fixup_f32 v4, v2, v1, v0";
    const FDIV64: &str = "
        v_div_scale_f64 v[4:5], null, v[2:3], v[2:3], v[0:1]
        v_div_scale_f64 v[10:11], VCC, v[0:1], v[2:3], v[0:1]
        v_rcp_f64_e32 v[6:7], v[4:5]
        v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
        v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
        v_fma_f64 v[8:9], -v[4:5], v[6:7], 1.0
        v_fma_f64 v[6:7], v[6:7], v[8:9], v[6:7]
        v_mul_f64 v[8:9], v[10:11], v[6:7]
        v_fma_f64 v[4:5], -v[4:5], v[8:9], v[10:11]
        v_div_fmas_f64 v[4:5], v[4:5], v[6:7], v[8:9]
        v_div_fixup_f64 v[4:5], v[4:5], v[2:3], v[0:1]";
    const SQRT64: &str = "
        v_cmp_gt_f64_e32 VCC, 0x10000000, v[0:1]
        v_cndmask_b32_e64 v2, 0, 1, VCC
        v_lshlrev_b32_e32 v2, 8, v2
        v_ldexp_f64 v[0:1], v[0:1], v2
        v_rsq_f64_e32 v[2:3], v[0:1]
        v_mul_f64 v[4:5], v[0:1], v[2:3]
        v_mul_f64 v[2:3], v[2:3], 0.5
        v_fma_f64 v[6:7], -v[2:3], v[4:5], 0.5
        v_fma_f64 v[4:5], v[4:5], v[6:7], v[4:5]
        v_fma_f64 v[2:3], v[2:3], v[6:7], v[2:3]
        v_fma_f64 v[6:7], -v[4:5], v[4:5], v[0:1]
        v_fma_f64 v[4:5], v[6:7], v[2:3], v[4:5]
        v_fma_f64 v[6:7], -v[4:5], v[4:5], v[0:1]
        v_fma_f64 v[2:3], v[6:7], v[2:3], v[4:5]
        v_cndmask_b32_e64 v4, 0, 0xffffff80, VCC
        v_cmp_class_f64_e64 VCC, v[0:1], 0x260
        v_ldexp_f64 v[2:3], v[2:3], v4
        v_cndmask_b32_e32 v5, v3, v1, VCC
        v_cndmask_b32_e32 v4, v2, v0, VCC";
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let vcc = if wave64 { "vcc" } else { "vcc_lo" };
        // f64: edge pairs plus quotients near overflow, underflow and the denormal range.
        let mut p = pairs64(lanes);
        let extra = [
            (1.0, 1.5e308),
            (1e-300, 1e10),
            (1e308, 1e-10),
            (3.0, 7.0),
            (f64::from_bits(5), 3.0),
            (1e-310, 1e-5),
            (2.2e-308, 3.0),
            (1.0, 3e-320),
        ];
        for (i, e) in extra.iter().enumerate() {
            p[i * 3 + 1] = *e;
        }
        let o = run_wave(&FDIV64.replace("VCC", vcc), &inputs64(&p), wave64);
        for (l, &(a, b)) in p.iter().enumerate() {
            let got = out64(&o, l, 0);
            assert!(same64(got, a / b), "{a:e} / {b:e} = {got:e}, want {:e} (wave64 {wave64})", a / b);
        }
        let xs: Vec<f64> = p.iter().map(|&(a, _)| a.abs()).collect();
        let sin: Vec<[u32; 4]> = xs.iter().map(|x| x.to_bits()).map(|b| [b as u32, (b >> 32) as u32, 0, 0]).collect();
        let o = run_wave(&SQRT64.replace("VCC", vcc), &sin, wave64);
        for (l, &x) in xs.iter().enumerate() {
            let got = out64(&o, l, 0);
            assert!(same64(got, x.sqrt()), "sqrt {x:e} = {got:e}, want {:e}", x.sqrt());
        }
        // f32.
        let e32: Vec<f32> = edges64().iter().map(|&x| x as f32).chain([f32::from_bits(1), 3e-39, 1e38, 7.0]).collect();
        let p32: Vec<(f32, f32)> = (0..lanes).map(|l| (e32[l % e32.len()], e32[(l * 5 + 1) % e32.len()])).collect();
        let in32: Vec<[u32; 4]> = p32.iter().map(|&(a, b)| [a.to_bits(), b.to_bits(), 0, 0]).collect();
        let o = run_wave(&FDIV32.replace("VCC", vcc), &in32, wave64);
        for (l, &(a, b)) in p32.iter().enumerate() {
            let got = f32::from_bits(o.v[l][0]);
            assert!(same32(got, a / b), "{a:e} / {b:e} = {got:e}, want {:e}", a / b);
        }
    }
}

/// v_rcp/rsq/sqrt_f64 special values (ISA: IEEE rules; accuracy 2^29 ulp, checked at
/// 2^-40 relative here).
#[test]
fn f64_transcendentals() {
    let e = edges64();
    let inputs: Vec<[u32; 4]> = e.iter().map(|x| x.to_bits()).map(|b| [b as u32, (b >> 32) as u32, 0, 0]).collect();
    let o = run_wave(
        "v_rcp_f64 v[4:5], v[0:1]
         v_rsq_f64 v[6:7], v[0:1]
         v_sqrt_f64 v[8:9], v[0:1]",
        &inputs,
        false,
    );
    for (l, &x) in e.iter().enumerate() {
        for (k, want) in [1.0 / x, 1.0 / x.sqrt(), x.sqrt()].into_iter().enumerate() {
            let got = out64(&o, l, k);
            let ok = if !want.is_finite() || want == 0.0 || want.is_subnormal() {
                same64(got, want) || (want.is_subnormal() && (got - want).abs() <= want.abs() * 2f64.powi(-20))
            } else {
                ((got - want) / want).abs() <= 2f64.powi(-40)
            };
            assert!(ok, "op {k} of {x:e}: {got:e}, want {want:e}");
        }
    }
}

/// v_trig_preop_f64: segments of 2/π (ISA pseudocode), exact for the first segments.
#[test]
fn trig_preop_gives_segments_of_two_over_pi() {
    // 2/π = 0.a2f9836e4e441529fc2757d1f534ddc0... (hex).
    let bits: u128 = 0xa2f9836e4e441529fc2757d1f534ddc0;
    let seg = |k: u32| ((bits << (53 * k)) >> (128 - 53)) as u64 as f64 * 2f64.powi(-53 * (k as i32 + 1));
    let inputs: Vec<[u32; 4]> = (0..32).map(|_| [0, 0x3ff0_0000, 0, 0]).collect();
    let o = run_wave(
        "v_trig_preop_f64 v[4:5], v[0:1], 0
         v_trig_preop_f64 v[6:7], v[0:1], 1
         v_trig_preop_f64 v[8:9], 0x7ff80000, 0
         v_trig_preop_f64 v[10:11], v[0:1], 30",
        &inputs,
        false,
    );
    assert_eq!(out64(&o, 0, 0), seg(0));
    assert_eq!(out64(&o, 0, 1), seg(1));
    assert!(out64(&o, 0, 2).is_nan());
    assert_eq!(out64(&o, 0, 3), 0.0);
}

/// f32 operations of this family: sin/cos in revolutions, frexp, conversions, cube,
/// fma_dx9, mullit, med3, maxmin.
#[test]
fn f32_family() {
    let xs: Vec<f32> = vec![
        0.0,
        -0.0,
        0.25,
        0.5,
        -0.25,
        1.0,
        -f32::MAX,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        0.125,
        1e-40,
        2.5,
        -2.5,
        3.5,
        -0.5,
        1e9,
        -1.75,
        f32::from_bits(0x3eff_ffff), // 0.5 - 2^-25
        2147483648.0,
        -2147483904.0,
        7.25,
        f32::from_bits(1),
        100.0,
        0.75,
        -3.0,
        1.5,
        33.3,
        -0.1,
        6.0,
        0.3,
        -7.5,
    ];
    let inputs: Vec<[u32; 4]> = xs.iter().map(|x| [x.to_bits(), 0xf1_f2_f3_f4, 0xfedc_ba98, 0]).collect();
    let o = run_wave(
        "v_sin_f32 v4, v0
         v_cos_f32 v5, v0
         v_frexp_mant_f32 v6, v0
         v_frexp_exp_i32_f32 v7, v0
         v_cvt_nearest_i32_f32 v8, v0
         v_cvt_floor_i32_f32 v9, v0
         v_cvt_f32_ubyte2 v10, v1
         v_cvt_off_f32_i4 v11, v2",
        &inputs,
        false,
    );
    for (l, &x) in xs.iter().enumerate() {
        let v = o.v[l];
        let (s, c) = (f32::from_bits(v[0]), f32::from_bits(v[1]));
        if !x.is_finite() {
            assert!(s.is_nan() && c.is_nan());
        } else if (x * 4.0).fract() == 0.0 {
            // Exact quarter turns: ±1 or 0 (zero results are +0 except sin(-0) = -0).
            let q = ((x as f64 * 4.0).rem_euclid(4.0)) as i32;
            let ws: f32 = [0.0, 1.0, 0.0, -1.0][q as usize];
            let wc: f32 = [1.0, 0.0, -1.0, 0.0][q as usize];
            let ws = if x == 0.0 { x } else { ws };
            assert_eq!((s.to_bits(), c.to_bits()), (ws.to_bits(), wc.to_bits()), "sin/cos {x}");
        } else {
            // Full-precision reference on the reduced argument: within 2 ulp.
            let red = (x as f64 - (x as f64).floor()) * std::f64::consts::TAU;
            let (ws, wc) = (red.sin() as f32, red.cos() as f32);
            assert!((s - ws).abs() <= 2.0 * f32::EPSILON * ws.abs().max(1e-30), "sin {x}: {s} vs {ws}");
            assert!((c - wc).abs() <= 2.0 * f32::EPSILON * wc.abs().max(1e-30), "cos {x}: {c} vs {wc}");
        }
        let (m, e) = if x.is_finite() && x != 0.0 { libm_frexp(x as f64) } else { (x as f64, 0) };
        assert!(same32(f32::from_bits(v[2]), m as f32), "frexp_mant {x}");
        assert_eq!(v[3] as i32, e, "frexp_exp {x}");
        let near = (x + 0.5).floor();
        let sat = |f: f32| if f.is_nan() { 0 } else { f as i32 };
        assert_eq!(v[4] as i32, sat(near), "cvt_nearest {x}");
        assert_eq!(v[5] as i32, sat(x.floor()), "cvt_floor {x}");
        assert_eq!(f32::from_bits(v[6]), 0xf2 as f32);
        assert_eq!(f32::from_bits(v[7]), -0.5); // 0x8 as i4 = -8 → -8/16
    }

    // Cube map: major axis selection and sc/tc/ma per the ISA table.
    let dirs: Vec<[f32; 3]> = vec![
        [1.0, 0.5, 0.25],
        [-2.0, 1.0, 0.5],
        [0.1, 3.0, -1.0],
        [0.1, -3.0, 1.0],
        [0.2, 0.3, 4.0],
        [0.2, 0.3, -4.0],
        [1.0, 1.0, 1.0],
        [-1.0, 1.0, 0.0],
    ];
    let inputs: Vec<[u32; 4]> = dirs.iter().map(|d| [d[0].to_bits(), d[1].to_bits(), d[2].to_bits(), 0]).collect();
    let o = run_wave(
        "v_cubeid_f32 v4, v0, v1, v2
         v_cubesc_f32 v5, v0, v1, v2
         v_cubetc_f32 v6, v0, v1, v2
         v_cubema_f32 v7, v0, v1, v2
         v_fma_dx9_zero_f32 v8, v0, 0, v2
         v_med3_f32 v9, v0, v1, v2
         v_maxmin_f32 v10, v0, v1, v2
         v_minmax_f32 v11, v0, v1, v2",
        &inputs,
        false,
    );
    for (l, &[x, y, z]) in dirs.iter().enumerate() {
        let v = o.v[l];
        let (id, sc, tc, ma) = if z.abs() >= x.abs() && z.abs() >= y.abs() {
            (if z < 0.0 { 5.0 } else { 4.0 }, if z < 0.0 { -x } else { x }, -y, 2.0 * z)
        } else if y.abs() >= x.abs() {
            (if y < 0.0 { 3.0 } else { 2.0 }, x, if y < 0.0 { -z } else { z }, 2.0 * y)
        } else {
            (if x < 0.0 { 1.0 } else { 0.0 }, if x < 0.0 { z } else { -z }, -y, 2.0 * x)
        };
        let f = |k: usize| f32::from_bits(v[k]);
        assert_eq!([f(0), f(1), f(2), f(3)], [id, sc, tc, ma], "cube {x} {y} {z}");
        assert_eq!(f(4).to_bits(), z.to_bits(), "fma_dx9 with a zero factor is S2");
        let mut s = [x, y, z];
        s.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(f(5), s[1], "med3");
        assert_eq!(f(6), x.max(y).min(z), "maxmin");
        assert_eq!(f(7), x.min(y).max(z), "minmax");
    }

    // DX9 zero rules with inf and NaN; mullit's guard on S1 and S2.
    let o = run_wave(
        "v_mov_b32 v1, 0x7f800000
         v_mov_b32 v2, 0x7fc00000
         v_fma_dx9_zero_f32 v4, 0, v1, 1.0
         v_fma_dx9_zero_f32 v5, v2, 0, -2.0
         v_mov_b32 v6, 0.5
         v_fmac_dx9_zero_f32 v6, v1, 0
         v_mullit_f32 v7, 2.0, 4.0, 1.0
         v_mullit_f32 v8, 2.0, 4.0, 0
         v_mullit_f32 v9, 2.0, v2, 1.0
         v_mullit_f32 v10, 0, v1, 1.0
         v_fma_dx9_zero_f32 v11, 2.0, 3.0, 1.0",
        &[[0; 4]; 32],
        false,
    );
    let f = |k: usize| f32::from_bits(o.v[0][k]);
    assert_eq!([f(0), f(1), f(2), f(3), f(4), f(5), f(6), f(7)], [1.0, -2.0, 0.5, 8.0, -f32::MAX, -f32::MAX, 0.0, 7.0]);
}

/// Integer members: v_cls, add/sub_nc_i32 with clamp (signed saturation), lerp, the sad
/// family and the packed qsad/mqsad forms.
#[test]
fn integer_family() {
    let vals: [u32; 8] = [0, 1, u32::MAX, 0x8000_0000, 0x7fff_ffff, 0x4000_0000, 0xffff_0000, 0x0fff_ffff];
    let inputs: Vec<[u32; 4]> = (0..32)
        .map(|l| {
            let a = vals[l % 8];
            let b = vals[(l / 8 + 3 * l) % 8];
            [a, b, 0x1234_5678u32.rotate_left(l as u32), 0x0102_0304u32.wrapping_mul(l as u32 + 1)]
        })
        .collect();
    let o = run_wave(
        "v_cls_i32 v4, v0
         v_add_nc_i32 v5, v0, v1 clamp
         v_sub_nc_i32 v6, v0, v1 clamp
         v_add_nc_i32 v7, v0, v1
         v_lerp_u8 v8, v2, v3, v1
         v_sad_u8 v9, v2, v3, v0
         v_sad_hi_u8 v10, v2, v3, v0
         v_msad_u8 v11, v2, v3, v1",
        &inputs,
        false,
    );
    let byte = |x: u32, i: u32| x >> (8 * i) & 0xff;
    let sad = |a: u32, b: u32, c: u32| (0..4).fold(c, |t, i| t.wrapping_add(byte(a, i).abs_diff(byte(b, i))));
    let msad = |a: u32, b: u32, c: u32| {
        (0..4).fold(c, |t, i| if byte(b, i) == 0 { t } else { t.wrapping_add(byte(a, i).abs_diff(byte(b, i))) })
    };
    for (l, i) in inputs.iter().enumerate() {
        let [a, b, c, d] = *i;
        let v = o.v[l];
        let cls = if a == 0 || a == u32::MAX {
            u32::MAX
        } else if (a as i32) < 0 {
            a.leading_ones()
        } else {
            a.leading_zeros()
        };
        assert_eq!(v[0], cls, "cls {a:#x}");
        assert_eq!(v[1], (a as i32 as i64 + b as i32 as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32);
        assert_eq!(v[2], (a as i32 as i64 - b as i32 as i64).clamp(i32::MIN as i64, i32::MAX as i64) as i32 as u32);
        assert_eq!(v[3], a.wrapping_add(b));
        let lerp = (0..4).fold(0, |t, k| t | ((byte(c, k) + byte(d, k) + (b >> (8 * k) & 1)) >> 1) << (8 * k));
        assert_eq!(v[4], lerp, "lerp");
        assert_eq!(v[5], sad(c, d, a));
        assert_eq!(v[6], (sad(c, d, 0) << 16).wrapping_add(a));
        assert_eq!(v[7], msad(c, d, b));
    }
    let o = run_wave(
        "v_sad_u16 v4, v2, v3, v0
         v_sad_u32 v5, v2, v3, v0
         v_maxmin_u32 v6, v0, v1, v2
         v_minmax_i32 v7, v0, v1, v2
         v_qsad_pk_u16_u8 v[8:9], v[2:3], v1, v[0:1]
         v_mqsad_pk_u16_u8 v[10:11], v[2:3], v1, v[0:1]",
        &inputs,
        false,
    );
    for (l, i) in inputs.iter().enumerate() {
        let [a, b, c, d] = *i;
        let v = o.v[l];
        let h = |x: u32, k: u32| x >> (16 * k) & 0xffff;
        assert_eq!(v[0], a.wrapping_add(h(c, 0).abs_diff(h(d, 0))).wrapping_add(h(c, 1).abs_diff(h(d, 1))));
        assert_eq!(v[1], c.abs_diff(d).wrapping_add(a));
        assert_eq!(v[2], a.max(b).min(c));
        assert_eq!(v[3], (a as i32).min(b as i32).max(c as i32) as u32);
        let src = c as u64 | (d as u64) << 32;
        let acc = a as u64 | (b as u64) << 32;
        let pk = |f: &dyn Fn(u32, u32, u32) -> u32| {
            (0..4).fold(0u64, |t, k| {
                t | ((f((src >> (8 * k)) as u32, b, (acc >> (16 * k)) as u32 & 0xffff) & 0xffff) as u64) << (16 * k)
            })
        };
        assert_eq!(v[4] as u64 | (v[5] as u64) << 32, pk(&sad), "qsad");
        assert_eq!(v[6] as u64 | (v[7] as u64) << 32, pk(&msad), "mqsad_pk");
    }
    let o = run_wave(
        "v_mov_b32 v4, v0
         v_mov_b32 v5, v1
         v_mov_b32 v6, v2
         v_mov_b32 v7, v3
         v_mqsad_u32_u8 v[4:7], v[2:3], v1, v[4:7]
         v_cvt_pk_u8_f32 v8, 0x437f8000, 1, v0
         v_cvt_pk_u8_f32 v9, -1.0, 3, v0
         v_cvt_pk_u8_f32 v10, 2.5, 0, 0",
        &inputs,
        false,
    );
    for (l, i) in inputs.iter().enumerate() {
        let [a, b, c, d] = *i;
        let v = o.v[l];
        let src = c as u64 | (d as u64) << 32;
        for (k, acc) in [a, b, c, d].into_iter().enumerate() {
            assert_eq!(v[k], msad((src >> (8 * k)) as u32, b, acc), "mqsad_u32 {k}");
        }
        assert_eq!(v[4], a & !0xff00 | 0xff << 8); // 255.5 → 255 (saturated)
        assert_eq!(v[5], a & 0x00ff_ffff); // -1 → 0
        assert_eq!(v[6], 2); // 2.5 → 2 (round to nearest even)
    }
}

/// v_div_scale writes its lane mask to SDST (VCC here) and v_div_fixup handles the
/// special cases, in wave64 (RDNA3-NOTES, "Wave32 and wave64": div_scale's mask covers both
/// halves).
#[test]
fn div_scale_sets_vcc_per_lane_in_wave64() {
    let p: Vec<(f64, f64)> = (0..64).map(|l| if l % 3 == 0 { (1e-310, 3.0) } else { (1.0, 3.0) }).collect();
    let o = run_wave("v_div_scale_f64 v[4:5], vcc, v[0:1], v[2:3], v[0:1]", &inputs64(&p), true);
    let want = (0..64).fold(0u64, |m, l| m | ((l % 3 == 0) as u64) << l);
    assert_eq!(o.vcc, want);
    for (l, &(a, _)) in p.iter().enumerate() {
        // A denormal quotient scales the numerator by 2^128; otherwise it passes through.
        let w = if l % 3 == 0 { a * 2f64.powi(128) } else { a };
        assert_eq!(out64(&o, l, 0), w);
    }
}

/// A 32-bit literal in a signed 64-bit integer source (v_ashrrev_i64's shifted value,
/// v_mad_i64_i32's addend, v_cmp_*_i64, s_ashr_i64) is sign-extended to 64 bits; in the
/// other 64-bit integer sources (v_lshrrev_b64, s_lshr_b64) zero-extended. LLVM's operand
/// types say so (OPERAND_REG_IMM_I64 / _U64, llvm-project #186575: "encoded as its low 32
/// bits and then sign extended ... by HW" for signed operands), and ACO relies on it: RADV
/// builds an i16vec4 constant as `v_ashrrev_i64 v[0:1], 0, 0xfff8ffff` (CTS
/// ssbo.layout.*.scalar.i16vec4 through RADV).
#[test]
fn literals_sign_extend_in_signed_64_bit_sources_only() {
    for wave64 in [false, true] {
        // A lane mask is an SGPR pair in wave64, one SGPR in wave32.
        let (carry, mask) = if wave64 { ("s[20:21]", "s[14:15]") } else { ("s20", "s14") };
        let body = format!(
            "v_ashrrev_i64 v[4:5], 0, 0xfff8ffff
             v_lshrrev_b64 v[6:7], 0, 0xfff8ffff
             v_mad_i64_i32 v[8:9], {carry}, 0, 0, 0x80000000
             s_ashr_i64 s[10:11], 0x80000001, 0
             s_lshr_b64 s[12:13], 0x80000001, 0
             v_cmp_lt_i64_e64 {mask}, 0x80000000, 0"
        );
        let o = run_wave(&body, &[], wave64);
        let v = o.v[0];
        assert_eq!([v[0], v[1]], [0xfff8_ffff, 0xffff_ffff], "v_ashrrev_i64 (wave64 {wave64})");
        assert_eq!([v[2], v[3]], [0xfff8_ffff, 0], "v_lshrrev_b64 (wave64 {wave64})");
        assert_eq!([v[4], v[5]], [0x8000_0000, 0xffff_ffff], "v_mad_i64_i32 (wave64 {wave64})");
        assert_eq!([o.s[0], o.s[1]], [0x8000_0001, 0xffff_ffff], "s_ashr_i64 (wave64 {wave64})");
        assert_eq!([o.s[2], o.s[3]], [0x8000_0001, 0], "s_lshr_b64 (wave64 {wave64})");
        let lanes = if wave64 { u64::MAX } else { u32::MAX as u64 };
        assert_eq!(o.s[4] as u64 | (o.s[5] as u64) << 32, lanes, "v_cmp_lt_i64 (wave64 {wave64})");
    }
}
