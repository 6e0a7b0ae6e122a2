//! VOP3P execution: v_pk_* integer and f16 math, dot products, fma_mix and WMMA, in wave32
//! and wave64. Expected values come from host IEEE arithmetic (Rust f32/f64, the `half`
//! crate) or from formulas written here from the RDNA3 ISA's definitions.

mod common;

use common::run_wave;
use half::{bf16, f16};

/// xorshift64*: deterministic test data.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 32) as u32
    }
}

fn lanes(wave64: bool) -> usize {
    if wave64 {
        64
    } else {
        32
    }
}

/// Integer edge values for 16-bit halves.
const EDGE16: [u16; 8] = [0, 1, 0x7fff, 0x8000, 0xffff, 0x0010, 0x000f, 0x1234];

/// One lane per case: edge halves first, then random words.
fn int_inputs(wave64: bool, seed: u64) -> Vec<[u32; 4]> {
    let mut r = Rng(seed);
    (0..lanes(wave64))
        .map(|l| {
            if l < 16 {
                let h = |i: usize| EDGE16[(l + i) % 8] as u32;
                [h(0) | h(3) << 16, h(1) | h(5) << 16, h(2) | h(7) << 16, 0]
            } else {
                [r.next(), r.next(), r.next(), r.next()]
            }
        })
        .collect()
}

/// Applies `f` to the halves the VOP3P op_sel / op_sel_hi bits select (RDNA3 ISA, VOP3P:
/// op_sel[k] picks source k's half for the low result, op_sel_hi[k] for the high).
fn pk(src: [u32; 3], op_sel: u32, op_sel_hi: u32, f: impl Fn(u16, u16, u16) -> u16) -> u32 {
    let half = |k: usize, hi: bool| {
        let sel = if hi { op_sel_hi } else { op_sel } >> k & 1;
        (src[k] >> (16 * sel)) as u16
    };
    let lo = f(half(0, false), half(1, false), half(2, false));
    let hi = f(half(0, true), half(1, true), half(2, true));
    lo as u32 | (hi as u32) << 16
}

fn check(out: &common::WaveOut, inputs: &[[u32; 4]], expect: &[&dyn Fn([u32; 4]) -> u32], what: &str) {
    for (l, i) in inputs.iter().enumerate() {
        for (j, e) in expect.iter().enumerate() {
            assert_eq!(out.v[l][j], e(*i), "{what}: lane {l} v{} inputs {:08x?}", j + 4, i);
        }
    }
}

fn s16(x: u16) -> i32 {
    x as i16 as i32
}

#[test]
fn pk_integer_ops_match_their_definitions() {
    let body = "
        v_pk_add_u16 v4, v0, v1
        v_pk_sub_u16 v5, v0, v1
        v_pk_add_i16 v6, v0, v1 clamp
        v_pk_sub_i16 v7, v0, v1 clamp
        v_pk_mad_u16 v8, v0, v1, v2
        v_pk_mad_i16 v9, v0, v1, v2 clamp
        v_pk_mul_lo_u16 v10, v0, v1
        v_pk_lshlrev_b16 v11, v0, v1
    ";
    let sat_i = |v: i32| v.clamp(-32768, 32767) as u16;
    for wave64 in [false, true] {
        let inputs = int_inputs(wave64, 1 + wave64 as u64);
        let out = run_wave(body, &inputs, wave64);
        let d = |i: [u32; 4]| [i[0], i[1], i[2]];
        check(
            &out,
            &inputs,
            &[
                &|i| pk(d(i), 0, 7, |a, b, _| a.wrapping_add(b)),
                &|i| pk(d(i), 0, 7, |a, b, _| a.wrapping_sub(b)),
                &|i| pk(d(i), 0, 7, |a, b, _| sat_i(s16(a) + s16(b))),
                &|i| pk(d(i), 0, 7, |a, b, _| sat_i(s16(a) - s16(b))),
                &|i| pk(d(i), 0, 7, |a, b, c| a.wrapping_mul(b).wrapping_add(c)),
                &|i| pk(d(i), 0, 7, |a, b, c| sat_i(s16(a) * s16(b) + s16(c))),
                &|i| pk(d(i), 0, 7, |a, b, _| a.wrapping_mul(b)),
                // Shift counts use the low 4 bits: 0x10 shifts by 0, 0xffff by 15.
                &|i| pk(d(i), 0, 7, |a, b, _| b << (a & 15)),
            ],
            "pk int",
        );
    }
}

#[test]
fn pk_integer_shifts_min_max_and_saturation() {
    let body = "
        v_pk_lshrrev_b16 v4, v0, v1
        v_pk_ashrrev_i16 v5, v0, v1
        v_pk_max_i16 v6, v0, v1
        v_pk_min_i16 v7, v0, v1
        v_pk_max_u16 v8, v0, v1
        v_pk_min_u16 v9, v0, v1
        v_pk_add_u16 v10, v0, v1 clamp
        v_pk_sub_u16 v11, v0, v1 clamp
    ";
    for wave64 in [false, true] {
        let inputs = int_inputs(wave64, 7 + wave64 as u64);
        let out = run_wave(body, &inputs, wave64);
        let d = |i: [u32; 4]| [i[0], i[1], i[2]];
        check(
            &out,
            &inputs,
            &[
                &|i| pk(d(i), 0, 7, |a, b, _| b >> (a & 15)),
                &|i| pk(d(i), 0, 7, |a, b, _| ((b as i16) >> (a & 15)) as u16),
                &|i| pk(d(i), 0, 7, |a, b, _| s16(a).max(s16(b)) as u16),
                &|i| pk(d(i), 0, 7, |a, b, _| s16(a).min(s16(b)) as u16),
                &|i| pk(d(i), 0, 7, |a, b, _| a.max(b)),
                &|i| pk(d(i), 0, 7, |a, b, _| a.min(b)),
                &|i| pk(d(i), 0, 7, |a, b, _| a.saturating_add(b)),
                &|i| pk(d(i), 0, 7, |a, b, _| a.saturating_sub(b)),
            ],
            "pk int 2",
        );
    }
}

/// op_sel / op_sel_hi select halves; a 32-bit inline constant keeps its 32-bit value, so
/// `1` and `1.0` (f16 0x3c00 for v2f16 sources, f32 0x3f800000 for the v2i16 ones) sit in
/// the low half with zero above, `-1` fills both halves (LLVM's getInlineEncodingV216).
#[test]
fn pk_op_sel_and_inline_constants() {
    let body = "
        v_pk_add_u16 v4, v0, v1 op_sel:[1,0] op_sel_hi:[0,1]
        v_pk_mad_u16 v5, v0, v1, v2 op_sel:[0,1,1] op_sel_hi:[1,0,0] clamp
        v_pk_mul_lo_u16 v6, v0, v1 clamp
        v_pk_add_u16 v7, v0, 1
        v_pk_add_u16 v8, v0, -1
        v_pk_add_u16 v9, v0, 1 op_sel_hi:[1,0]
        v_pk_add_u16 v10, v0, 0.5
        v_pk_add_u16 v11, v0, 0x12345678
    ";
    let inputs = int_inputs(false, 3);
    let out = run_wave(body, &inputs, false);
    let d = |i: [u32; 4]| [i[0], i[1], i[2]];
    let k = |i: [u32; 4], c: u32| [i[0], c, 0];
    check(
        &out,
        &inputs,
        &[
            &|i| pk(d(i), 0b01, 0b10, |a, b, _| a.wrapping_add(b)),
            &|i| pk(d(i), 0b110, 0b001, |a, b, c| (a as u32 * b as u32 + c as u32).min(0xffff) as u16),
            &|i| pk(d(i), 0, 7, |a, b, _| (a as u32 * b as u32).min(0xffff) as u16),
            &|i| pk(k(i, 1), 0, 3, |a, b, _| a.wrapping_add(b)),
            &|i| pk(k(i, 0xffff_ffff), 0, 3, |a, b, _| a.wrapping_add(b)),
            &|i| pk(k(i, 1), 0, 1, |a, b, _| a.wrapping_add(b)),
            &|i| pk(k(i, 0x3f00_0000), 0, 3, |a, b, _| a.wrapping_add(b)),
            &|i| pk(k(i, 0x1234_5678), 0, 3, |a, b, _| a.wrapping_add(b)),
        ],
        "op_sel",
    );
}

/// f16 edge values: ±0, ±1, ±inf, quiet and signalling NaN, denormals, max, 2^-12.
const EDGE_F16: [u16; 16] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x7c00, 0xfc00, 0x7e01, 0x7c01, 0x0001, 0x83ff, 0x7bff, 0xfbff, 0x0c00, 0x3555,
    0x4900, 0x1400,
];

fn f16_inputs(wave64: bool, seed: u64) -> Vec<[u32; 4]> {
    let mut r = Rng(seed);
    (0..lanes(wave64))
        .map(|l| {
            let e = |i: usize| EDGE_F16[(l * 3 + i * 5) % 16] as u32;
            let rnd = |r: &mut Rng| {
                let v = r.next();
                // Keep random halves finite.
                v & 0xbfff_bfff
            };
            if l < 20 {
                [e(0) | e(1) << 16, e(2) | e(3) << 16, e(4) | e(6) << 16, 0]
            } else {
                [rnd(&mut r), rnd(&mut r), rnd(&mut r), 0]
            }
        })
        .collect()
}

fn h(x: u16) -> f64 {
    f16::from_bits(x).to_f64()
}

fn is_nan16(x: u16) -> bool {
    x & 0x7fff > 0x7c00
}

/// The expected f16 result of an operation whose exact value is `exact` (computed in f64,
/// where it is exact for add and mul of f16 values), with NaN inputs giving the first NaN
/// input quieted, and an invalid operation the default NaN 0x7e00.
fn f16_result(ins: &[u16], exact: f64) -> u16 {
    if let Some(&n) = ins.iter().find(|&&x| is_nan16(x)) {
        return n | 0x200;
    }
    if exact.is_nan() {
        return 0x7e00;
    }
    f16::from_f64(exact).to_bits()
}

/// IEEE-mode minNum/maxNum on f16 (MODE.IEEE is set at kernel start): a signalling NaN
/// is returned quieted, a quiet NaN loses to a number, -0 < +0.
fn f16_minmax(a: u16, b: u16, max: bool) -> u16 {
    let snan = |x: u16| is_nan16(x) && x & 0x200 == 0;
    if snan(a) {
        return a | 0x200;
    }
    if snan(b) {
        return b | 0x200;
    }
    match (is_nan16(a), is_nan16(b)) {
        (true, true) => a | 0x200,
        (true, false) => b,
        (false, true) => a,
        _ => {
            let (x, y) = (h(a), h(b));
            if x == y {
                if max {
                    a & b
                } else {
                    a | b
                }
            } else if (x > y) == max {
                a
            } else {
                b
            }
        }
    }
}

fn clamp01_f16(x: u16) -> u16 {
    // DX10_CLAMP is set at kernel start: NaN clamps to 0.
    if is_nan16(x) || x & 0x8000 != 0 {
        0
    } else {
        x.min(0x3c00)
    }
}

#[test]
fn pk_f16_arithmetic_edges() {
    let body = "
        v_pk_add_f16 v4, v0, v1
        v_pk_mul_f16 v5, v0, v1
        v_pk_min_f16 v6, v0, v1
        v_pk_max_f16 v7, v0, v1
        v_pk_add_f16 v8, v0, v1 neg_lo:[1,0] neg_hi:[0,1]
        v_pk_mul_f16 v9, v0, v1 op_sel:[1,1] op_sel_hi:[0,0] clamp
        v_pk_add_f16 v10, v0, 1.0
        v_pk_max_f16 v11, v0, v2 op_sel:[0,1] op_sel_hi:[1,0]
    ";
    for wave64 in [false, true] {
        let inputs = f16_inputs(wave64, 11 + wave64 as u64);
        let out = run_wave(body, &inputs, wave64);
        let d = |i: [u32; 4]| [i[0], i[1], i[2]];
        let add = |a: u16, b: u16, _: u16| f16_result(&[a, b], h(a) + h(b));
        let mul = |a: u16, b: u16, _: u16| f16_result(&[a, b], h(a) * h(b));
        check(
            &out,
            &inputs,
            &[
                &|i| pk(d(i), 0, 7, add),
                &|i| pk(d(i), 0, 7, mul),
                &|i| pk(d(i), 0, 7, |a, b, _| f16_minmax(a, b, false)),
                &|i| pk(d(i), 0, 7, |a, b, _| f16_minmax(a, b, true)),
                &|i| {
                    let lo = add(i[0] as u16 ^ 0x8000, i[1] as u16, 0);
                    let hi = add((i[0] >> 16) as u16, (i[1] >> 16) as u16 ^ 0x8000, 0);
                    lo as u32 | (hi as u32) << 16
                },
                &|i| pk(d(i), 3, 0, |a, b, c| clamp01_f16(mul(a, b, c))),
                &|i| pk([i[0], 0x3c00, 0], 0, 3, add),
                &|i| pk([i[0], i[2], 0], 2, 1, |a, b, _| f16_minmax(a, b, true)),
            ],
            "pk f16",
        );
    }
}

#[test]
fn pk_fma_f16_rounds_once() {
    // Lane cases (a, b, c) as f16 bits. 1 + 2^-11 is a tie between 1 and 1 + 2^-10: a
    // product adding 2^-11 plus a tiny c breaks the tie upwards only when fused.
    let cases: [(u16, u16, u16); 8] = [
        (0x3c01, 0x3c01, 0xbc00), // (1+2^-10)^2 - 1 = 2^-9 + 2^-20
        (0x1400, 0x3c00, 0x3c00), // 1 + 2^-10 exactly
        (0x3c00, 0x3c00, 0x0001), // 1 + 2^-24: rounds to 1
        (0x7bff, 0x4000, 0xfbff), // 2*max - max = max, no intermediate overflow
        (0x7c00, 0x0000, 0x3c00), // inf * 0: default NaN
        (0x7c00, 0x3c00, 0xfc00), // inf - inf: default NaN
        (0x7c01, 0x7e00, 0x3c00), // first NaN, quieted
        (0x8000, 0x3c00, 0x0000), // -0 + +0 = +0
    ];
    let mut inputs = Vec::new();
    for &(a, b, c) in &cases {
        inputs.push([a as u32 | (c as u32) << 16, b as u32 | (a as u32) << 16, c as u32 | (b as u32) << 16, 0]);
    }
    // Tie-breaking case: a*b = 2^-11 * (1 + 2^-10), c = 1: exact 1 + 2^-11 + 2^-21 > tie.
    inputs.push([0x1001, 0x3c00, 0x3c00, 0]);
    let body = "
        v_pk_fma_f16 v4, v0, v1, v2
        v_pk_fmac_f16 v2, v0, v1
        v_mov_b32 v5, v2
    ";
    for wave64 in [false, true] {
        let out = run_wave(body, &inputs, wave64);
        for (l, i) in inputs.iter().enumerate() {
            let f = |a: u16, b: u16, c: u16| {
                let exact = h(a) * h(b) + h(c); // exact for these cases
                f16_result(&[a, b, c], exact)
            };
            let exp = pk([i[0], i[1], i[2]], 0, 7, f);
            assert_eq!(out.v[l][0], exp, "fma lane {l}");
            assert_eq!(out.v[l][1], exp, "fmac lane {l}");
        }
        assert_eq!(out.v[8][0] & 0xffff, 0x3c01, "1 + 2^-11 + 2^-21 rounds up");
    }
}

/// v_dot2_f32_f16: the ISA's pseudocode adds in f32 in order (S2 plus S0[0]*S1[0], then
/// plus S0[1]*S1[1]), each product exact: 1 + 2^-24 + 2^-24 gives 1 (a fused sum would give
/// 1 + 2^-23). LLVM (SIISelLowering, performFMACombine) states that the instruction
/// flushes f32 denormal operands and results.
#[test]
fn dot2_f32_f16_adds_in_order() {
    let hh = |a: f32, b: f32| f16::from_f32(a).to_bits() as u32 | (f16::from_f32(b).to_bits() as u32) << 16;
    let cases: Vec<[u32; 4]> = vec![
        [hh(2f32.powi(-12), 2f32.powi(-12)), hh(2f32.powi(-12), 2f32.powi(-12)), 1f32.to_bits(), 0],
        [hh(1.5, -2.0), hh(3.0, 0.25), 0.125f32.to_bits(), 0],
        [hh(0.0, 0.0), hh(0.0, 0.0), 1e-40f32.to_bits(), 0],
        [hh(65504.0, 65504.0), hh(65504.0, 65504.0), 0f32.to_bits(), 0],
        [hh(2f32.powi(-14), 1.0), hh(2f32.powi(-14), 0.0), 0f32.to_bits(), 0],
        [0x7e00_3c00, hh(1.0, 1.0), 1f32.to_bits(), 0],
        [hh(1.0, 1.0), hh(1.0, 1.0), 0x7fa0_0000, 0],
        [hh(f32::INFINITY, 1.0), hh(1.0, 1.0), f32::NEG_INFINITY.to_bits(), 0],
    ];
    let body = "
        v_dot2_f32_f16 v4, v0, v1, v2
        v_dot2_f32_f16 v5, v0, v1, v2 neg_lo:[1,0,0] neg_hi:[0,1,0]
        v_dot2_f32_f16 v6, v0, v1, v2 op_sel:[1,0,0] op_sel_hi:[0,1,1] clamp
    ";
    let ftz = |x: f32| if x.is_subnormal() { 0f32.copysign(x) } else { x };
    let dot = |a: [u16; 2], b: [u16; 2], c: u32| -> u32 {
        if f32::from_bits(c).is_nan() {
            return c | 0x0040_0000;
        }
        for x in [a[0], b[0], a[1], b[1]] {
            if is_nan16(x) {
                return f16::from_bits(x | 0x200).to_f32().to_bits();
            }
        }
        let p = |x: u16, y: u16| f16::from_bits(x).to_f32() * f16::from_bits(y).to_f32();
        let t = ftz(ftz(f32::from_bits(c)) + p(a[0], b[0]));
        let r = ftz(t + p(a[1], b[1]));
        if r.is_nan() {
            0x7fc0_0000
        } else {
            r.to_bits()
        }
    };
    let halves = |x: u32| [x as u16, (x >> 16) as u16];
    for wave64 in [false, true] {
        let out = run_wave(body, &cases, wave64);
        for (l, i) in cases.iter().enumerate() {
            let (a, b) = (halves(i[0]), halves(i[1]));
            assert_eq!(out.v[l][0], dot(a, b, i[2]), "lane {l}");
            assert_eq!(out.v[l][1], dot([a[0] ^ 0x8000, a[1]], [b[0], b[1] ^ 0x8000], i[2]), "neg lane {l}");
            let r = f32::from_bits(dot([a[1], a[0]], b, i[2]));
            let cl = if r.is_nan() { 0.0 } else { r.clamp(0.0, 1.0) };
            assert_eq!(out.v[l][2], cl.to_bits(), "op_sel clamp lane {l}");
        }
        assert_eq!(out.v[0][0], 1f32.to_bits(), "two roundings, not one");
    }
}

#[test]
fn dot2_f32_bf16_adds_in_order() {
    let bb = |a: f32, b: f32| bf16::from_f32(a).to_bits() as u32 | (bf16::from_f32(b).to_bits() as u32) << 16;
    let mut r = Rng(99);
    let mut cases: Vec<[u32; 4]> = vec![
        [bb(2f32.powi(-12), 2f32.powi(-12)), bb(2f32.powi(-12), 2f32.powi(-12)), 1f32.to_bits(), 0],
        [bb(3.0, -1.5), bb(0.375, 2.0), (-0.5f32).to_bits(), 0],
        [bb(1.0, 0.0), bb(-1.0, 0.0), 1f32.to_bits(), 0],
    ];
    while cases.len() < 32 {
        let small = |r: &mut Rng| bf16::from_f32((r.next() % 4001) as f32 / 64.0 - 31.25).to_bits() as u32;
        let (a, b, c, d) = (small(&mut r), small(&mut r), small(&mut r), small(&mut r));
        cases.push([a | b << 16, c | d << 16, ((r.next() % 1000) as f32 / 8.0).to_bits(), 0]);
    }
    let body = "v_dot2_f32_bf16 v4, v0, v1, v2";
    for wave64 in [false, true] {
        let out = run_wave(body, &cases, wave64);
        for (l, i) in cases.iter().enumerate() {
            let g = |x: u32, hi: bool| bf16::from_bits((x >> (16 * hi as u32)) as u16).to_f32();
            let t = f32::from_bits(i[2]) + g(i[0], false) * g(i[1], false);
            let e = t + g(i[0], true) * g(i[1], true);
            assert_eq!(out.v[l][0], e.to_bits(), "lane {l}");
        }
        assert_eq!(out.v[0][0], 1f32.to_bits());
    }
}

/// v_dot4_i32_iu8 / v_dot8_i32_iu4: neg_lo[0] / neg_lo[1] mark A / B signed (LLVM
/// VOP3PInstructions.td, the iu forms); clamp saturates the exact sum.
#[test]
fn integer_dot_products() {
    let body = "
        v_dot4_u32_u8 v4, v0, v1, v2
        v_dot4_i32_iu8 v5, v0, v1, v2
        v_dot4_i32_iu8 v6, v0, v1, v2 neg_lo:[1,1,0]
        v_dot4_i32_iu8 v7, v0, v1, v2 neg_lo:[1,0,0] clamp
        v_dot8_u32_u4 v8, v0, v1, v2 clamp
        v_dot8_i32_iu4 v9, v0, v1, v2 neg_lo:[0,1,0]
        v_dot8_i32_iu4 v10, v0, v1, v2 neg_lo:[1,1,0] clamp
        v_dot4_u32_u8 v11, v0, v1, v2 clamp
    ";
    let mut inputs = int_inputs(true, 5);
    inputs[0] = [0x8080_8080, 0x8080_8080, 0x7fff_ff00, 0];
    inputs[1] = [0xffff_ffff, 0xffff_ffff, 0xffff_ff00, 0];
    inputs[2] = [0x8888_8888, 0x7777_7777, 0x8000_0010, 0];
    let field = |x: u32, i: u32, bits: u32, signed: bool| -> i64 {
        let v = (x >> (i * bits)) & ((1 << bits) - 1);
        if signed {
            ((v << (32 - bits)) as i32 >> (32 - bits)) as i64
        } else {
            v as i64
        }
    };
    let dot = |i: [u32; 4], bits: u32, sa: bool, sb: bool, c_signed: bool| -> i64 {
        let mut s = if c_signed { i[2] as i32 as i64 } else { i[2] as i64 };
        for k in 0..32 / bits {
            s += field(i[0], k, bits, sa) * field(i[1], k, bits, sb);
        }
        s
    };
    let sat_i = |v: i64| v.clamp(i32::MIN as i64, i32::MAX as i64) as u32;
    let sat_u = |v: i64| v.clamp(0, u32::MAX as i64) as u32;
    for wave64 in [false, true] {
        let inputs = &inputs[..lanes(wave64)];
        let out = run_wave(body, inputs, wave64);
        check(
            &out,
            inputs,
            &[
                &|i| dot(i, 8, false, false, false) as u32,
                &|i| dot(i, 8, false, false, true) as u32,
                &|i| dot(i, 8, true, true, true) as u32,
                &|i| sat_i(dot(i, 8, true, false, true)),
                &|i| sat_u(dot(i, 4, false, false, false)),
                &|i| dot(i, 4, false, true, true) as u32,
                &|i| sat_i(dot(i, 4, true, true, true)),
                &|i| sat_u(dot(i, 8, false, false, false)),
            ],
            "int dot",
        );
    }
}

/// v_fma_mix_*: op_sel_hi[k] set = source k is f16 (op_sel[k] picks the half), clear =
/// f32; neg_lo negates, neg_hi is abs; one rounding to f32 (mix_f32) or to f16 (mixlo
/// writes the low half and keeps the high one, mixhi the reverse).
#[test]
fn fma_mix_forms() {
    let mut r = Rng(21);
    let mut inputs: Vec<[u32; 4]> = vec![
        // (1 + 2^-23)^2 - 1 = 2^-22 + 2^-46 when fused; 2^-22 if the product were rounded.
        [(1.0f32 + 2f32.powi(-23)).to_bits(), (1.0f32 + 2f32.powi(-23)).to_bits(), (-1f32).to_bits(), 0x1234_5678],
        [f32::NAN.to_bits(), 0x3c00_3c00, 0x7e01_0000, 0xabcd_ef01],
        [0x7c01_3c00, 0x3c00_3c00, 1f32.to_bits(), 0],
        [f32::INFINITY.to_bits(), 0, 1f32.to_bits(), 0],
    ];
    while inputs.len() < 32 {
        let f = |r: &mut Rng| (((r.next() % 2001) as f32 - 1000.0) / 16.0).to_bits();
        let hh = |r: &mut Rng| {
            let a = f16::from_f32(((r.next() % 2001) as f32 - 1000.0) / 64.0).to_bits() as u32;
            let b = f16::from_f32(((r.next() % 2001) as f32 - 1000.0) / 64.0).to_bits() as u32;
            a | b << 16
        };
        inputs.push([f(&mut r), hh(&mut r), f(&mut r), r.next()]);
    }
    let body = "
        v_fma_mix_f32 v4, v0, v1, v2 op_sel_hi:[0,0,0]
        v_fma_mix_f32 v5, v1, v1, v2 op_sel:[0,1,0] op_sel_hi:[1,1,0]
        v_fma_mix_f32 v6, -v0, |v1|, v1 op_sel:[0,0,1] op_sel_hi:[0,1,1]
        v_mov_b32 v7, v3
        v_fma_mixlo_f16 v7, v0, v1, v2 op_sel_hi:[0,1,0]
        v_mov_b32 v8, v3
        v_fma_mixhi_f16 v8, v1, v1, v1 op_sel:[1,0,1] op_sel_hi:[1,1,1] clamp
        v_fma_mix_f32 v9, v1, 1.0, 0.5 op_sel_hi:[1,1,1]
        v_fma_mix_f32 v10, v1, 1.0, 0.5 op_sel_hi:[1,0,0]
    ";
    // A source as f64 (exact), or its NaN as quiet f32 bits.
    enum Src {
        V(f64),
        Nan(u32),
    }
    let s32 = |x: u32| {
        if f32::from_bits(x).is_nan() {
            Src::Nan(x | 0x0040_0000)
        } else {
            Src::V(f32::from_bits(x) as f64)
        }
    };
    let s16 = |x: u32, hi: bool| {
        let b = (x >> (16 * hi as u32)) as u16;
        if is_nan16(b) {
            Src::Nan(f16::from_bits(b | 0x200).to_f32().to_bits())
        } else {
            Src::V(h(b))
        }
    };
    // The modifiers act on the sign bit, NaNs included.
    let neg = |s: Src| match s {
        Src::V(v) => Src::V(-v),
        Src::Nan(n) => Src::Nan(n ^ 0x8000_0000),
    };
    let abs = |s: Src| match s {
        Src::V(v) => Src::V(v.abs()),
        Src::Nan(n) => Src::Nan(n & 0x7fff_ffff),
    };
    // Fused: the f64 product is exact; for these inputs the f64 sum is too, or the value
    // is far from a tie (checked by the first lane's dedicated expectation).
    let fma32 = |a: Src, b: Src, c: Src| -> u32 {
        match (a, b, c) {
            (Src::Nan(n), _, _) | (_, Src::Nan(n), _) | (_, _, Src::Nan(n)) => n,
            (Src::V(a), Src::V(b), Src::V(c)) => {
                let v = (a as f32).mul_add(b as f32, c as f32);
                if v.is_nan() {
                    0x7fc0_0000
                } else {
                    v.to_bits()
                }
            }
        }
    };
    let fma16 = |a: Src, b: Src, c: Src| -> u16 {
        match (a, b, c) {
            (Src::Nan(n), _, _) | (_, Src::Nan(n), _) | (_, _, Src::Nan(n)) => {
                f16::from_f32(f32::from_bits(n)).to_bits() | 0x200
            }
            (Src::V(a), Src::V(b), Src::V(c)) => f16_result(&[], a.mul_add(b, c)),
        }
    };
    for wave64 in [false, true] {
        let inputs: Vec<[u32; 4]> = inputs.iter().cycle().take(lanes(wave64)).copied().collect();
        let out = run_wave(body, &inputs, wave64);
        check(
            &out,
            &inputs,
            &[
                &|i| fma32(s32(i[0]), s32(i[1]), s32(i[2])),
                &|i| fma32(s16(i[1], false), s16(i[1], true), s32(i[2])),
                &|i| fma32(neg(s32(i[0])), abs(s16(i[1], false)), s16(i[1], true)),
                &|i| i[3] & 0xffff_0000 | fma16(s32(i[0]), s16(i[1], false), s32(i[2])) as u32,
                &|i| {
                    let v = fma16(s16(i[1], true), s16(i[1], false), s16(i[1], true));
                    i[3] & 0xffff | (clamp01_f16(v) as u32) << 16
                },
                &|i| fma32(s16(i[1], false), Src::V(1.0), Src::V(0.5)),
                &|i| fma32(s16(i[1], false), Src::V(1.0), Src::V(0.5)),
            ],
            "fma_mix",
        );
        assert_eq!(out.v[0][0], (2f32.powi(-22) + 2f32.powi(-46)).to_bits(), "fused: one rounding");
    }
}

/// The gfx11 WMMA layouts (RDNA3 ISA guide, "Wave Matrix Multiply Accumulate"; GPUOpen's
/// "How to accelerate AI applications on RDNA 3 using WMMA"; Mesa's
/// radv_nir_lower_cooperative_matrix.c): A and B are replicated in each group of 16 lanes;
/// lane i holds row i of A and column i of B, element k at half k % 2 of VGPR k / 2 (16-bit
/// types), byte k % 4 of VGPR k / 4 (iu8), nibble k % 8 of VGPR k / 8 (iu4). C/D: VGPR v of
/// lane l holds row l / 16 + 2v (wave32, 8 VGPRs) or l / 16 + 4v (wave64, 4 VGPRs), column
/// l % 16.
///
/// The body loads A for lane l from input dwords [8 (l % 16), +8) and B from dwords
/// [8 (15 - l % 16), +8) with the two quads swapped, so A[m][k] and B[k][n] are known here.
fn wmma_body(inst: &str, c_setup: &str) -> String {
    format!(
        "
        v_and_b32 v20, 15, v250
        v_lshlrev_b32 v21, 5, v20
        v_sub_nc_u32 v22, 15, v20
        v_lshlrev_b32 v22, 5, v22
        global_load_b128 v[24:27], v21, s[90:91]
        global_load_b128 v[28:31], v21, s[90:91] offset:16
        global_load_b128 v[32:35], v22, s[90:91] offset:16
        global_load_b128 v[36:39], v22, s[90:91]
        s_waitcnt vmcnt(0)
        {c_setup}
        {inst}
        "
    )
}

/// The dword `j` (0..8) of lane `lane`'s A and B registers.
fn a_word(flat: &[u32], lane: usize, j: usize) -> u32 {
    flat[8 * (lane % 16) + j]
}
fn b_word(flat: &[u32], lane: usize, j: usize) -> u32 {
    flat[8 * (15 - lane % 16) + (j + 4) % 8]
}

/// 16-bit element k of row/column `i`.
fn elem16(word: impl Fn(usize) -> u32, k: usize) -> u16 {
    (word(k / 2) >> (16 * (k % 2))) as u16
}

fn row_of(lane: usize, v: usize, wave64: bool) -> (usize, usize) {
    (lane / 16 + if wave64 { 4 } else { 2 } * v, lane % 16)
}

/// C set up as f32: lane l, VGPR v holds (8 l + v - 100) as f32, from v_cvt_f32_i32.
fn c_f32_setup(nv: usize) -> String {
    (0..nv)
        .map(|v| format!("v_mad_u32_u24 v40, v250, 8, {}\n v_cvt_f32_i32 v{}, v40\n", v as i32 - 100, 12 + v))
        .collect()
}

fn c_f32(lane: usize, v: usize) -> f64 {
    (8 * lane as i64 + v as i64 - 100) as f64
}

/// C set up from the lane's own input dwords.
fn c_raw_setup(nv: usize) -> String {
    (0..nv).map(|v| format!("v_mov_b32 v{}, v{}\n", 12 + v, [0, 1, 2, 3, 3, 2, 1, 0][v])).collect()
}

fn c_raw(i: [u32; 4], v: usize) -> u32 {
    i[[0, 1, 2, 3, 3, 2, 1, 0][v]]
}

/// Random 16-bit float data: multiples of 2^-6 in [-1, 1], so every sum of products is
/// exact in f64 and the only rounding is the final one.
fn wmma_float_inputs(wave64: bool, seed: u64, bf: bool) -> Vec<[u32; 4]> {
    let mut r = Rng(seed);
    let mut one = || {
        let v = ((r.next() % 129) as f32 - 64.0) / 64.0;
        (if bf { bf16::from_f32(v).to_bits() } else { f16::from_f32(v).to_bits() }) as u32
    };
    (0..lanes(wave64)).map(|_| std::array::from_fn(|_| one() | one() << 16)).collect()
}

#[test]
fn wmma_float_forms_match_a_host_matrix_multiply() {
    for wave64 in [false, true] {
        let nv = if wave64 { 4 } else { 8 };
        let dst = format!("v[4:{}]", 3 + nv);
        let c = format!("v[12:{}]", 11 + nv);
        for (name, bf, out16, op_sel) in [
            ("v_wmma_f32_16x16x16_f16", false, false, ""),
            ("v_wmma_f32_16x16x16_bf16", true, false, ""),
            ("v_wmma_f16_16x16x16_f16", false, true, ""),
            ("v_wmma_f16_16x16x16_f16", false, true, "op_sel:[0,0,1]"),
            ("v_wmma_bf16_16x16x16_bf16", true, true, ""),
            ("v_wmma_bf16_16x16x16_bf16", true, true, "op_sel:[0,0,1]"),
        ] {
            let inputs = wmma_float_inputs(wave64, 40 + bf as u64 * 2 + out16 as u64, bf);
            let flat: Vec<u32> = inputs.iter().flatten().copied().collect();
            let inst = format!("{name} {dst}, v[24:31], v[32:39], {c} {op_sel}");
            let setup = if out16 { c_raw_setup(nv) } else { c_f32_setup(nv) };
            let out = run_wave(&wmma_body(&inst, &setup), &inputs, wave64);
            let val = |x: u16| if bf { bf16::from_bits(x).to_f64() } else { f16::from_bits(x).to_f64() };
            let hi = !op_sel.is_empty();
            for (l, input) in inputs.iter().enumerate() {
                for v in 0..nv {
                    let (row, col) = row_of(l, v, wave64);
                    let cw = c_raw(*input, v);
                    let mut s = if out16 { val((cw >> (16 * hi as u32)) as u16) } else { c_f32(l, v) };
                    for k in 0..16 {
                        s += val(elem16(|j| a_word(&flat, row, j), k)) * val(elem16(|j| b_word(&flat, col, j), k));
                    }
                    let exp = if !out16 {
                        (s as f32).to_bits()
                    } else {
                        let r = if bf { bf16::from_f64(s).to_bits() } else { f16::from_f64(s).to_bits() } as u32;
                        if hi {
                            cw & 0xffff | r << 16
                        } else {
                            cw & 0xffff_0000 | r
                        }
                    };
                    assert_eq!(out.v[l][v], exp, "{inst} wave64={wave64} lane {l} v{v} (row {row} col {col})");
                }
            }
        }
    }
}

#[test]
fn wmma_integer_forms_match_a_host_matrix_multiply() {
    for wave64 in [false, true] {
        let nv = if wave64 { 4 } else { 8 };
        let dst = format!("v[4:{}]", 3 + nv);
        let c = format!("v[12:{}]", 11 + nv);
        for (iu8, neg, clamp) in
            [(true, "", ""), (true, "neg_lo:[1,1,0]", ""), (true, "neg_lo:[1,0,0]", "clamp"), (false, "", "clamp")]
                .into_iter()
                .chain([(false, "neg_lo:[0,1,0]", ""), (false, "neg_lo:[1,1,0]", "clamp")])
        {
            let mut r = Rng(77 + iu8 as u64);
            let mut inputs: Vec<[u32; 4]> = (0..lanes(wave64)).map(|_| std::array::from_fn(|_| r.next())).collect();
            // Saturating C values in lane 0 (rows 0, 2/4, ...).
            inputs[0] = [0x7fff_fff0, 0x8000_0010, 0xffff_ffff, 0];
            let flat: Vec<u32> = inputs.iter().flatten().copied().collect();
            let (name, a, b) = if iu8 {
                ("v_wmma_i32_16x16x16_iu8", "v[24:27]", "v[32:35]")
            } else {
                ("v_wmma_i32_16x16x16_iu4", "v[24:25]", "v[32:33]")
            };
            let inst = format!("{name} {dst}, {a}, {b}, {c} {neg} {clamp}");
            let out = run_wave(&wmma_body(&inst, &c_raw_setup(nv)), &inputs, wave64);
            let (sa, sb) = (neg.contains("[1"), neg.contains(",1,"));
            let (bits, per) = if iu8 { (8, 4) } else { (4, 8) };
            let el = |w: u32, k: usize, signed: bool| -> i64 {
                let v = (w >> ((k % per) as u32 * bits)) & ((1 << bits) - 1);
                if signed {
                    ((v << (32 - bits)) as i32 >> (32 - bits)) as i64
                } else {
                    v as i64
                }
            };
            for (l, input) in inputs.iter().enumerate() {
                for v in 0..nv {
                    let (row, col) = row_of(l, v, wave64);
                    let mut s = c_raw(*input, v) as i32 as i64;
                    for k in 0..16 {
                        s += el(a_word(&flat, row, k / per), k, sa) * el(b_word(&flat, col, k / per), k, sb);
                    }
                    let exp =
                        if clamp.is_empty() { s as u32 } else { s.clamp(i32::MIN as i64, i32::MAX as i64) as u32 };
                    assert_eq!(out.v[l][v], exp, "{inst} wave64={wave64} lane {l} v{v}");
                }
            }
        }
    }
}

/// Modifier combinations whose meaning the ISA leaves unclear are not guessed: the wave
/// raises the illegal-instruction exception naming the instruction (RDNA3-NOTES,
/// "Exceptions": not maskable).
#[test]
fn unclear_modifiers_trap_by_name() {
    for (body, name) in [
        ("v_pk_add_u16 v4, v0, v1 neg_lo:[1,0]", "v_pk_add_u16"),
        ("v_dot4_u32_u8 v4, v0, v1, v2 neg_lo:[1,0,0]", "v_dot4_u32_u8"),
        ("v_dot2_f32_f16 v4, v0, v1, v2 neg_hi:[0,0,1]", "v_dot2_f32_f16"),
        ("v_wmma_f32_16x16x16_f16 v[4:11], v[24:31], v[32:39], v[12:19] neg_lo:[1,0,0]", "v_wmma_f32_16x16x16_f16"),
    ] {
        let err = common::try_run_wave(body, &[[0; 4]], false).err().unwrap_or_else(|| panic!("{body} ran"));
        let text = err.to_string();
        assert!(text.contains("illegal instruction") && text.contains(name), "{body}: {text}");
    }
}

/// v_dot2_f16_f16 / v_dot2_bf16_bf16 against the ISA's pseudocode computed on the host:
/// `tmp = S2; tmp += S0.lo * S1.lo; tmp += S0.hi * S1.hi` with each product exact and each
/// addition rounded to nearest even in the 16-bit format (`half`'s conversions from f64);
/// op_sel[3] writes the high half and keeps the low one.
#[test]
fn dot2_half_accumulates_in_the_half_format() {
    let mut seed = 0x2545_f491u32;
    let mut next = || {
        seed = seed.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
        seed
    };
    for wave64 in [false, true] {
        for bf16 in [false, true] {
            let lanes = if wave64 { 64 } else { 32 };
            // Values with exponents in [-6, 6] keep every exact sum inside f64's precision.
            let val = |r: u32| -> (u16, f64) {
                let sign = if r & 1 != 0 { -1.0 } else { 1.0 };
                let x = sign * (1.0 + (r >> 8 & 0x3ff) as f64 / 1024.0) * 2f64.powi((r >> 20 & 0xf) as i32 % 13 - 6);
                if bf16 {
                    let h = half::bf16::from_f64(x);
                    (h.to_bits(), h.to_f64())
                } else {
                    let h = half::f16::from_f64(x);
                    (h.to_bits(), h.to_f64())
                }
            };
            let round = |x: f64| -> (u16, f64) {
                if bf16 {
                    let h = half::bf16::from_f64(x);
                    (h.to_bits(), h.to_f64())
                } else {
                    let h = half::f16::from_f64(x);
                    (h.to_bits(), h.to_f64())
                }
            };
            let mut inputs = Vec::new();
            let mut want = Vec::new();
            for _ in 0..lanes {
                let (a0, a1, b0, b1, c) = (val(next()), val(next()), val(next()), val(next()), val(next()));
                inputs.push([
                    a0.0 as u32 | (a1.0 as u32) << 16,
                    b0.0 as u32 | (b1.0 as u32) << 16,
                    c.0 as u32 | 0xabcd_0000,
                    0,
                ]);
                let t = round(c.1 + a0.1 * b0.1).1;
                want.push(round(t + a1.1 * b1.1).0 as u32);
            }
            let op = if bf16 { "v_dot2_bf16_bf16" } else { "v_dot2_f16_f16" };
            let out = run_wave(
                &format!(
                    "
                    v_mov_b32 v4, 0x5555aaaa
                    v_mov_b32 v5, 0x5555aaaa
                    {op} v4, v0, v1, v2
                    {op} v5, v0, v1, v2 op_sel:[0,0,0,1]
                    "
                ),
                &inputs,
                wave64,
            );
            for l in 0..lanes {
                let v = out.v[l];
                assert_eq!(v[0], 0x5555_0000 | want[l], "{op} lane {l} (wave64 {wave64}): {:x?}", inputs[l]);
                assert_eq!(v[1], 0xaaaa | want[l] << 16, "{op} op_sel:[0,0,0,1] lane {l}");
            }
        }
    }
}
