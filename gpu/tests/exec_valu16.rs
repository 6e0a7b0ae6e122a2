//! 16-bit VALU execution (VOP1, VOP2, VOP3, VOPC): f16 arithmetic, conversions,
//! transcendentals, 16-bit integer ops, compares, and the true16 / op_sel half rules.
//! Expected values come from host IEEE arithmetic (f64 computations rounded once to f16
//! by the `half` crate) or from formulas written here from the RDNA3 ISA reference's
//! pseudocode, never from the executor.

mod common;

use common::{run_wave, WaveOut};
use half::f16;

/// f16 bits of an f64, rounded to nearest even.
fn h(x: f64) -> u16 {
    f16::from_f64(x).to_bits()
}

/// The value of f16 bits.
fn v(b: u16) -> f64 {
    f16::from_bits(b).to_f64()
}

fn is_nan(b: u16) -> bool {
    b & 0x7c00 == 0x7c00 && b & 0x3ff != 0
}

/// A result matches: equal bits, or both NaN with the result quiet (NaN payloads are not
/// specified by the ISA for arithmetic).
fn same(got: u16, want: u16) -> bool {
    if is_nan(want) {
        got == want || (is_nan(got) && got & 0x0200 != 0)
    } else {
        got == want
    }
}

/// Edge f16 inputs: zeros, ones, denormals, extremes, infinities, NaNs (quiet and
/// signalling), and ordinary values.
const EDGE: [u16; 32] = [
    0x0000, 0x8000, 0x3c00, 0xbc00, 0x3800, 0x0001, 0x03ff, 0x0400, // 0 -0 1 -1 .5 denorms min-normal
    0x7bff, 0xfbff, 0x7c00, 0xfc00, 0x7e00, 0x7d00, 0xfe01, 0x4200, // max -max inf -inf qnan snan -qnan 3
    0x3555, 0x63d0, 0xc100, 0x3c01, 0x8001, 0x83ff, 0x5640, 0x2e66, // 1/3 1000 -2.5 1+ulp -denorms 100 0.1
    0x4900, 0xc900, 0x0200, 0x7800, 0xf800, 0x1400, 0x3e00, 0xb400, // 10 -10 denorm 32768 -32768 2^-10 1.5 -.25
];

/// Lane inputs: v0 = a | a' << 16, v1 = b | b' << 16, v2 = c | c' << 16 (the primed values
/// feed the op_sel high-half forms), `n` lanes.
fn cases3(n: usize) -> Vec<[u32; 4]> {
    (0..n)
        .map(|l| {
            let e = |k: usize| EDGE[k % 32] as u32;
            [e(l) | e(l * 7 + 3) << 16, e(l * 5 + 1) | e(l * 3 + 11) << 16, e(l * 11 + 2) | e(l + 17) << 16, 0]
        })
        .collect()
}

fn lanes(wave64: bool) -> usize {
    if wave64 {
        64
    } else {
        32
    }
}

fn lo(x: u32) -> u16 {
    x as u16
}

fn hi(x: u32) -> u16 {
    (x >> 16) as u16
}

/// A named f64 reference function.
type NamedF64 = (&'static str, fn(f64) -> f64);
/// A named 16-bit integer predicate.
type NamedCmp = (&'static str, fn(u16, u16) -> bool);

/// Checks a 16-bit result half of register v(4 + reg) in every lane.
fn check16(out: &WaveOut, cases: &[[u32; 4]], reg: usize, high: bool, what: &str, want: impl Fn(&[u32; 4]) -> u16) {
    for (l, c) in cases.iter().enumerate() {
        let r = out.v[l][reg];
        let got = if high { hi(r) } else { lo(r) };
        let w = want(c);
        assert!(same(got, w), "{what}: lane {l} inputs {c:08x?}: got {got:#06x}, want {w:#06x}");
    }
}

/// Checks a whole 32-bit register in every lane.
fn check32(out: &WaveOut, cases: &[[u32; 4]], reg: usize, what: &str, want: impl Fn(&[u32; 4]) -> u32) {
    for (l, c) in cases.iter().enumerate() {
        let (got, w) = (out.v[l][reg], want(c));
        assert_eq!(got, w, "{what}: lane {l} inputs {c:08x?}: got {got:#010x}, want {w:#010x}");
    }
}

/// A hand-encoded VOP3 instruction (`.long` words): LLVM 19's gfx1100 assembler has no
/// op_sel syntax for some 16-bit opcodes that the hardware reads op_sel for.
/// `srcs` are source fields (256 + n for vN), `opsel` bits: src0, src1, src2, dst.
fn vop3(op: u32, vdst: u32, srcs: [u32; 3], opsel: u32, abs: u32, neg: u32) -> String {
    let w0 = 0xd400_0000 | op << 16 | opsel << 11 | abs << 8 | vdst;
    let w1 = neg << 29 | srcs[2] << 18 | srcs[1] << 9 | srcs[0];
    format!(".long {w0:#010x}, {w1:#010x}")
}

/// Host reference for an f16 arithmetic result (f64 exact for +, -, *; one rounding).
fn arith(x: f64) -> u16 {
    h(x)
}

/// f16 add, sub, subrev and mul in the 32-bit encoding (low halves, the destination's
/// high half kept) and in VOP3 with op_sel selecting high halves of both sources and the
/// destination (its low half kept), in wave32 and wave64.
#[test]
fn f16_add_sub_mul_with_halves() {
    for wave64 in [false, true] {
        let cases = cases3(lanes(wave64));
        let out = run_wave(
            &format!(
                "
            v_mov_b32 v4, 0xbeef0000
            v_add_f16 v4, v0, v1
            v_mov_b32 v5, 0x0000cafe
            {vop3_0}
            v_mov_b32 v6, 0xbeef0000
            v_sub_f16 v6, v0, v1
            {vop3_1}
            v_mul_f16 v8, v0, v1
            {vop3_2}
            v_add_f16_e64 v10, -v0, |v1|
            ",
                vop3_0 = vop3(0x132, 5, [256, 257, 0], 0b1011, 0, 0),
                vop3_1 = vop3(0x134, 7, [256, 257, 0], 0b0001, 0, 0),
                vop3_2 = vop3(0x135, 9, [256, 257, 0], 0b1010, 0, 0)
            ),
            &cases,
            wave64,
        );
        check16(&out, &cases, 0, false, "v_add_f16", |c| arith(v(lo(c[0])) + v(lo(c[1]))));
        check16(&out, &cases, 0, true, "v_add_f16 keeps the high half", |_| 0xbeef);
        check16(&out, &cases, 1, true, "v_add_f16 op_sel", |c| arith(v(hi(c[0])) + v(hi(c[1]))));
        check16(&out, &cases, 1, false, "v_add_f16 op_sel keeps the low half", |_| 0xcafe);
        check16(&out, &cases, 2, false, "v_sub_f16", |c| arith(v(lo(c[0])) - v(lo(c[1]))));
        check16(&out, &cases, 3, false, "v_subrev_f16 op_sel", |c| arith(v(lo(c[1])) - v(hi(c[0]))));
        check16(&out, &cases, 4, false, "v_mul_f16", |c| arith(v(lo(c[0])) * v(lo(c[1]))));
        check16(&out, &cases, 5, true, "v_mul_f16 op_sel", |c| arith(v(lo(c[0])) * v(hi(c[1]))));
        check16(&out, &cases, 6, false, "v_add_f16 neg abs", |c| arith(-v(lo(c[0])) + v(lo(c[1])).abs()));
    }
}

/// Signed zeros and NaNs of f16 addition (IEEE 754: x + -x = +0 in round-to-nearest,
/// -0 + -0 = -0; inf - inf and 0 * inf are NaN; a signalling NaN input gives a quiet NaN).
#[test]
fn f16_special_values() {
    let pairs: [(u16, u16); 8] = [
        (0x3c00, 0xbc00),
        (0x8000, 0x8000),
        (0x8000, 0x0000),
        (0x7c00, 0xfc00),
        (0x0000, 0x7c00),
        (0x7d00, 0x3c00),
        (0x3c00, 0xfd00),
        (0x7bff, 0x7bff),
    ];
    let cases: Vec<[u32; 4]> = pairs.iter().map(|&(a, b)| [a as u32, b as u32, 0, 0]).collect();
    let out = run_wave("v_add_f16 v4, v0, v1\n v_mul_f16 v5, v0, v1", &cases, false);
    let add = [0x0000, 0x8000, 0x0000, 0x7e00, 0x7c00, 0x7e00, 0x7e00, 0x7c00];
    let mul = [0xbc00, 0x0000, 0x8000, 0xfc00, 0x7e00, 0x7e00, 0x7e00, 0x7c00];
    for l in 0..pairs.len() {
        assert!(same(lo(out.v[l][0]), add[l]), "add lane {l}: {:#x}", out.v[l][0]);
        assert!(same(lo(out.v[l][1]), mul[l]), "mul lane {l}: {:#x}", out.v[l][1]);
    }
}

/// The fused multiply-adds: v_fma_f16, v_fmac_f16 (accumulating into the destination
/// half), v_fmamk_f16 (s0 * K + s1) and v_fmaak_f16 (s0 * s1 + K); one rounding.
#[test]
fn f16_fma_family() {
    for wave64 in [false, true] {
        let cases = cases3(lanes(wave64));
        let out = run_wave(
            "
            v_fma_f16 v4, v0, v1, v2
            v_fma_f16 v5, v0, v1, v2 op_sel:[1,1,1,1]
            v_mov_b32 v6, v2
            v_fmac_f16 v6, v0, v1
            v_fmamk_f16 v7, v0, 0x3e00, v1
            v_fmaak_f16 v8, v0, v1, 0xc100
            v_fma_f16 v9, -v0, v1, -v2
            ",
            &cases,
            wave64,
        );
        let fma = |a: u16, b: u16, c: u16| h(v(a).mul_add(v(b), v(c)));
        check16(&out, &cases, 0, false, "v_fma_f16", |c| fma(lo(c[0]), lo(c[1]), lo(c[2])));
        check16(&out, &cases, 1, true, "v_fma_f16 op_sel", |c| fma(hi(c[0]), hi(c[1]), hi(c[2])));
        check16(&out, &cases, 2, false, "v_fmac_f16", |c| fma(lo(c[0]), lo(c[1]), lo(c[2])));
        check16(&out, &cases, 2, true, "v_fmac_f16 keeps the high half", |c| hi(c[2]));
        check16(&out, &cases, 3, false, "v_fmamk_f16", |c| fma(lo(c[0]), 0x3e00, lo(c[1])));
        check16(&out, &cases, 4, false, "v_fmaak_f16", |c| fma(lo(c[0]), lo(c[1]), 0xc100));
        check16(&out, &cases, 5, false, "v_fma_f16 neg", |c| fma(lo(c[0]) ^ 0x8000, lo(c[1]), lo(c[2]) ^ 0x8000));
    }
    // Fused: (1 + 2^-10)^2 - (1 + 2^-9) = 2^-20 exactly (0 if the product were rounded).
    let out = run_wave("v_fma_f16 v4, v0, v0, v1", &[[0x3c01, 0xbc02, 0, 0]], false);
    assert_eq!(lo(out.v[0][0]), h(2f64.powi(-20)));
}

/// v_min_f16 / v_max_f16 as the ISA pseudocode defines them in IEEE mode (LLVM's kernels
/// run with MODE.IEEE set): a signalling NaN input gives it quieted, a quiet NaN loses to a
/// number, -0 < +0.
fn isa_min(a: u16, b: u16) -> u16 {
    let snan = |x: u16| is_nan(x) && x & 0x200 == 0;
    if snan(a) {
        return a | 0x200;
    }
    if snan(b) {
        return b | 0x200;
    }
    if is_nan(b) {
        return a;
    }
    if is_nan(a) {
        return b;
    }
    let lt = v(a) < v(b) || (v(a) == 0.0 && v(b) == 0.0 && a & 0x8000 != 0 && b & 0x8000 == 0);
    if lt {
        a
    } else {
        b
    }
}

fn isa_max(a: u16, b: u16) -> u16 {
    let snan = |x: u16| is_nan(x) && x & 0x200 == 0;
    if snan(a) {
        return a | 0x200;
    }
    if snan(b) {
        return b | 0x200;
    }
    if is_nan(b) {
        return a;
    }
    if is_nan(a) {
        return b;
    }
    let gt = v(a) > v(b) || (v(a) == 0.0 && v(b) == 0.0 && a & 0x8000 == 0 && b & 0x8000 != 0);
    if gt {
        a
    } else {
        b
    }
}

/// Min, max and their three-operand forms (RDNA3 ISA pseudocode of V_MIN_F16, V_MAX_F16,
/// V_MIN3/MAX3/MED3_F16, V_MAXMIN/MINMAX_F16), exact bits (NaN payloads included).
#[test]
fn f16_min_max_med3() {
    for wave64 in [false, true] {
        let cases = cases3(lanes(wave64));
        let out = run_wave(
            &format!(
                "
            v_min_f16 v4, v0, v1
            {vop3_3}
            v_min3_f16 v6, v0, v1, v2
            v_max3_f16 v7, v0, v1, v2
            v_med3_f16 v8, v0, v1, v2
            v_maxmin_f16 v9, v0, v1, v2
            v_minmax_f16 v10, v0, v1, v2
            ",
                vop3_3 = vop3(0x139, 5, [256, 257, 0], 0b0011, 0, 0)
            ),
            &cases,
            wave64,
        );
        let med3 = |a: u16, b: u16, c: u16| {
            if is_nan(a) || is_nan(b) || is_nan(c) {
                return isa_min(isa_min(a, b), c);
            }
            let mx = v(isa_max(isa_max(a, b), c));
            if mx == v(a) {
                isa_max(b, c)
            } else if mx == v(b) {
                isa_max(a, c)
            } else {
                isa_max(a, b)
            }
        };
        let exact = |out: &WaveOut, reg: usize, what: &str, f: &dyn Fn(&[u32; 4]) -> u16| {
            for (l, c) in cases.iter().enumerate() {
                assert_eq!(lo(out.v[l][reg]), f(c), "{what} lane {l} {c:08x?}");
            }
        };
        exact(&out, 0, "min", &|c| isa_min(lo(c[0]), lo(c[1])));
        exact(&out, 1, "max op_sel", &|c| isa_max(hi(c[0]), hi(c[1])));
        exact(&out, 2, "min3", &|c| isa_min(isa_min(lo(c[0]), lo(c[1])), lo(c[2])));
        exact(&out, 3, "max3", &|c| isa_max(isa_max(lo(c[0]), lo(c[1])), lo(c[2])));
        exact(&out, 4, "med3", &|c| med3(lo(c[0]), lo(c[1]), lo(c[2])));
        exact(&out, 5, "maxmin", &|c| isa_min(isa_max(lo(c[0]), lo(c[1])), lo(c[2])));
        exact(&out, 6, "minmax", &|c| isa_max(isa_min(lo(c[0]), lo(c[1])), lo(c[2])));
    }
}

/// v_ldexp_f16 (S0 * 2^S1.i16) with exponents past the f16 range, and the clamp and omod
/// output modifiers of v_mul_f16 (omod scales before the one rounding; clamp to [0, 1]).
#[test]
fn f16_ldexp_clamp_omod() {
    let exps: [i16; 8] = [0, 1, -1, 15, -24, -25, 40, -40];
    let cases: Vec<[u32; 4]> =
        (0..32).map(|l| [EDGE[l] as u32, exps[l % 8] as u16 as u32, EDGE[(l * 3 + 5) % 32] as u32, 0]).collect();
    let out = run_wave(
        "
        v_ldexp_f16 v4, v0, v1
        v_mul_f16_e64 v5, v0, v2 clamp
        v_mul_f16_e64 v6, v0, v2 mul:2
        v_add_f16_e64 v7, v0, v2 div:2
        ",
        &cases,
        false,
    );
    check16(&out, &cases, 0, false, "v_ldexp_f16", |c| h(v(lo(c[0])) * 2f64.powi(c[1] as u16 as i16 as i32)));
    check16(&out, &cases, 1, false, "v_mul_f16 clamp", |c| {
        let x = v(lo(c[0])) * v(lo(c[2]));
        // DX10_CLAMP (set by LLVM's kernels): NaN clamps to 0.
        if x.is_nan() {
            0
        } else {
            h(x.clamp(0.0, 1.0)) & 0x7fff
        }
    });
    check16(&out, &cases, 2, false, "v_mul_f16 mul:2", |c| h(v(lo(c[0])) * v(lo(c[2])) * 2.0));
    check16(&out, &cases, 3, false, "v_add_f16 div:2", |c| h((v(lo(c[0])) + v(lo(c[2]))) * 0.5));
}

/// |got - want| in f16 units in the last place (same sign and finite).
fn ulps(got: u16, want: u16) -> u32 {
    (got as i32 - want as i32).unsigned_abs()
}

/// v_rcp/sqrt/rsq/log/exp_f16: the ISA's functional examples exactly, and other inputs
/// within the ISA's stated 0.51 ULP (at most one ULP from the correctly rounded value).
#[test]
fn f16_transcendentals() {
    let xs: Vec<u16> = EDGE.to_vec();
    for wave64 in [false, true] {
        let cases: Vec<[u32; 4]> = (0..lanes(wave64)).map(|l| [xs[l % 32] as u32, 0, 0, 0]).collect();
        let out = run_wave(
            "
            v_rcp_f16 v4, v0
            v_sqrt_f16 v5, v0
            v_rsq_f16 v6, v0
            v_log_f16 v7, v0
            v_exp_f16 v8, v0
            ",
            &cases,
            wave64,
        );
        let fs: [NamedF64; 5] = [
            ("rcp", |x| 1.0 / x),
            ("sqrt", f64::sqrt),
            ("rsq", |x| 1.0 / x.sqrt()),
            ("log", f64::log2),
            ("exp", f64::exp2),
        ];
        for (k, (name, f)) in fs.iter().enumerate() {
            for (l, c) in cases.iter().enumerate() {
                let got = lo(out.v[l][k]);
                let want = h(f(v(c[0] as u16)));
                let close = same(got, want) || (!is_nan(want) && ulps(got, want) <= 1);
                assert!(close, "v_{name}_f16({:#06x}) = {got:#06x}, want {want:#06x}", c[0]);
            }
        }
    }
    // ISA functional examples (RDNA3 ISA, V_RCP_F16 .. V_EXP_F16).
    let ex: [(&str, u16, u16); 20] = [
        ("v_rcp_f16", 0xfc00, 0x8000),
        ("v_rcp_f16", 0xc000, 0xb800),
        ("v_rcp_f16", 0x8000, 0xfc00),
        ("v_rcp_f16", 0x0000, 0x7c00),
        ("v_rcp_f16", 0x7c00, 0x0000),
        ("v_sqrt_f16", 0xfc00, 0xfe00),
        ("v_sqrt_f16", 0x8000, 0x8000),
        ("v_sqrt_f16", 0x4400, 0x4000),
        ("v_sqrt_f16", 0x7c00, 0x7c00),
        ("v_rsq_f16", 0x8000, 0xfc00),
        ("v_rsq_f16", 0x0000, 0x7c00),
        ("v_rsq_f16", 0x4400, 0x3800),
        ("v_rsq_f16", 0x7c00, 0x0000),
        ("v_log_f16", 0xbc00, 0xfe00),
        ("v_log_f16", 0x8000, 0xfc00),
        ("v_log_f16", 0x3c00, 0x0000),
        ("v_log_f16", 0x7c00, 0x7c00),
        ("v_exp_f16", 0xfc00, 0x0000),
        ("v_exp_f16", 0x8000, 0x3c00),
        ("v_exp_f16", 0x7c00, 0x7c00),
    ];
    // One lane per example, each op on its own register.
    let ops = ["v_rcp_f16", "v_sqrt_f16", "v_rsq_f16", "v_log_f16", "v_exp_f16"];
    let body: String = ops.iter().enumerate().map(|(k, op)| format!("{op} v{}, v0\n", 4 + k)).collect();
    let cases: Vec<[u32; 4]> = ex.iter().map(|e| [e.1 as u32, 0, 0, 0]).collect();
    let out = run_wave(&body, &cases, false);
    for (l, (op, x, want)) in ex.iter().enumerate() {
        let k = ops.iter().position(|o| o == op).unwrap();
        assert_eq!(lo(out.v[l][k]), *want, "{op}({x:#06x})");
    }
}

/// v_floor/ceil/trunc/rndne/fract_f16 (exact), v_frexp_mant_f16 / v_frexp_exp_i16_f16
/// (C frexp: x = mant * 2^exp, mant in [0.5, 1)), and v_sin/cos_f16 in revolutions.
#[test]
fn f16_rounding_frexp_sincos() {
    for wave64 in [false, true] {
        let cases: Vec<[u32; 4]> = (0..lanes(wave64)).map(|l| [EDGE[l % 32] as u32, 0, 0, 0]).collect();
        let out = run_wave(
            "
            v_floor_f16 v4, v0
            v_ceil_f16 v5, v0
            v_trunc_f16 v6, v0
            v_rndne_f16 v7, v0
            v_fract_f16 v8, v0
            v_frexp_mant_f16 v9, v0
            v_frexp_exp_i16_f16 v10, v0
            ",
            &cases,
            wave64,
        );
        let x = |c: &[u32; 4]| v(c[0] as u16);
        check16(&out, &cases, 0, false, "floor", |c| h(x(c).floor()));
        check16(&out, &cases, 1, false, "ceil", |c| h(x(c).ceil()));
        check16(&out, &cases, 2, false, "trunc", |c| h(x(c).trunc()));
        check16(&out, &cases, 3, false, "rndne", |c| h(x(c).round_ties_even()));
        check16(&out, &cases, 4, false, "fract", |c| {
            let x = x(c);
            if !x.is_finite() {
                0x7e00
            } else {
                // x - floor(x), kept below 1.0 (largest f16 below 1 is 0x3bff).
                h(x - x.floor()).min(0x3bff)
            }
        });
        let frexp = |x: f64| -> (f64, i32) {
            if x == 0.0 || !x.is_finite() {
                return (x, 0);
            }
            let e = x.abs().log2().floor() as i32 + 1;
            (x / 2f64.powi(e), e)
        };
        check16(&out, &cases, 5, false, "frexp_mant", |c| {
            // Infinity and NaN pass through unchanged (ISA: "D0.f16 = S0.f16").
            if x(c).is_finite() {
                h(frexp(x(c)).0)
            } else {
                c[0] as u16
            }
        });
        check16(&out, &cases, 6, false, "frexp_exp", |c| frexp(x(c)).1 as i16 as u16);
    }
    // v_sin_f16 / v_cos_f16: the ISA's functional examples, then sin(2 pi x) within 1 ULP.
    let ex: [(u16, u16, u16); 6] = [
        (0xfc00, 0xfe00, 0xfe00),
        (0xfbff, 0x0000, 0x3c00),
        (0x8000, 0x8000, 0x3c00),
        (0x3400, 0x3c00, 0x0000),
        (0x7bff, 0x0000, 0x3c00),
        (0x7c00, 0xfe00, 0xfe00),
    ];
    let mut cases: Vec<[u32; 4]> = ex.iter().map(|e| [e.0 as u32, 0, 0, 0]).collect();
    let more = [0x2e66u16, 0x3555, 0x3e66, 0x3b00, 0x4a48, 0x1400, 0xc233];
    cases.extend(more.iter().map(|&x| [x as u32, 0, 0, 0]));
    let out = run_wave("v_sin_f16 v4, v0\n v_cos_f16 v5, v0", &cases, false);
    for (l, e) in ex.iter().enumerate() {
        assert!(same(lo(out.v[l][0]), e.1), "sin({:#06x}) = {:#x}", e.0, out.v[l][0]);
        assert!(same(lo(out.v[l][1]), e.2), "cos({:#06x}) = {:#x}", e.0, out.v[l][1]);
    }
    for (k, &x) in more.iter().enumerate() {
        let l = ex.len() + k;
        let a = v(x) * std::f64::consts::TAU;
        assert!(ulps(lo(out.v[l][0]), h(a.sin())) <= 1, "sin({x:#06x}) = {:#x}", out.v[l][0]);
        assert!(ulps(lo(out.v[l][1]), h(a.cos())) <= 1, "cos({x:#06x}) = {:#x}", out.v[l][1]);
    }
}

/// f32 inputs for the conversions: zeros, denormals, the f16 rounding boundaries and
/// overflow thresholds, infinities, NaN, integers past the 16-bit ranges.
const F32S: [f32; 32] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1.0e-40,
    65504.0,
    65519.0,
    65520.0,
    -65536.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    1.000_244_1,
    1.000_732_4,
    3.0e-8,
    2.9e-8,
    6.0e-8,
    0.333_333_34,
    -2.5,
    1.5,
    2.5,
    -0.5,
    70000.0,
    -40000.0,
    32767.6,
    -32768.9,
    1.0e-5,
    123.456,
    -0.999_9,
    0.000_015_258_79,
    1.0e10,
];

/// f32 ↔ f16 conversions (host IEEE `half::f16::from_f32`, round to nearest even), the
/// round-toward-zero pack, and f16 ↔ 16-bit integer conversions (truncating, saturating,
/// NaN → 0, per the ISA notes).
#[test]
fn f16_conversions() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let cases: Vec<[u32; 4]> = (0..n)
            .map(|l| {
                [
                    F32S[l % 32].to_bits(),
                    F32S[(l * 7 + 1) % 32].to_bits(),
                    EDGE[l % 32] as u32,
                    (l as u32 * 2731) ^ 0x8001,
                ]
            })
            .collect();
        let out = run_wave(
            &format!(
                "
            v_mov_b32 v4, 0x55550000
            v_cvt_f16_f32 v4, v0
            v_cvt_f32_f16 v5, v2
            v_cvt_pk_rtz_f16_f32 v6, v0, v1
            v_cvt_f16_u16 v7, v3
            v_cvt_f16_i16 v8, v3
            v_cvt_u16_f16 v9, v2
            v_cvt_i16_f16 v10, v2
            {vop3_4}
            ",
                vop3_4 = vop3(0x18b, 11, [258, 0, 0], 0b0001, 0, 0)
            ),
            &cases,
            wave64,
        );
        let f = |x: u32| f32::from_bits(x);
        check16(&out, &cases, 0, false, "v_cvt_f16_f32", |c| f16::from_f32(f(c[0])).to_bits());
        check16(&out, &cases, 0, true, "v_cvt_f16_f32 keeps the high half", |_| 0x5555);
        for (l, c) in cases.iter().enumerate() {
            let want = f16::from_bits(c[2] as u16).to_f32();
            let got = f32::from_bits(out.v[l][1]);
            assert!(
                got == want && got.is_sign_negative() == want.is_sign_negative() || (got.is_nan() && want.is_nan()),
                "v_cvt_f32_f16 lane {l}: {got} {want}"
            );
            let want = f16::from_bits(hi(c[2])).to_f32();
            let got = f32::from_bits(out.v[l][7]);
            assert!(
                got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
                "op_sel lane {l}: {got} {want}"
            );
        }
        // Round toward zero, from the definition: the f16 nearest to x that is not larger
        // in magnitude (overflow gives the largest finite value).
        let rtz = |x: f32| -> u16 {
            if x.is_nan() || x.is_infinite() {
                return f16::from_f32(x).to_bits();
            }
            let r = f16::from_f32(x);
            let b = r.to_bits();
            if (r.to_f32().abs() > x.abs()) || r.is_infinite() {
                b - 1
            } else {
                b
            }
        };
        check16(&out, &cases, 2, false, "v_cvt_pk_rtz lo", |c| rtz(f(c[0])));
        check16(&out, &cases, 2, true, "v_cvt_pk_rtz hi", |c| rtz(f(c[1])));
        check16(&out, &cases, 3, false, "v_cvt_f16_u16", |c| h(c[3] as u16 as f64));
        check16(&out, &cases, 4, false, "v_cvt_f16_i16", |c| h(c[3] as u16 as i16 as f64));
        let x = |c: &[u32; 4]| v(c[2] as u16);
        check16(&out, &cases, 5, false, "v_cvt_u16_f16", |c| {
            if x(c).is_nan() {
                0
            } else {
                x(c).trunc().clamp(0.0, 65535.0) as u16
            }
        });
        check16(&out, &cases, 6, false, "v_cvt_i16_f16", |c| {
            if x(c).is_nan() {
                0
            } else {
                x(c).trunc().clamp(-32768.0, 32767.0) as i16 as u16
            }
        });
    }
}

/// snorm / unorm: clamp, scale by 32767 / 65535, round to nearest even (NaN → 0).
fn snorm(x: f64) -> u16 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(-1.0, 1.0) * 32767.0).round_ties_even() as i16 as u16
    }
}

fn unorm(x: f64) -> u16 {
    if x.is_nan() {
        0
    } else {
        (x.clamp(0.0, 1.0) * 65535.0).round_ties_even() as u16
    }
}

/// The packing conversions (RDNA3 ISA: V_CVT_PK_NORM_*, V_CVT_PK_I16/U16_F32,
/// V_CVT_PK_U16_U32, V_CVT_PK_I16_I32, V_PACK_B32_F16, V_SAT_PK_U8_I16, V_CVT_NORM_*,
/// V_CVT_I32_I16, V_CVT_U32_U16).
#[test]
fn packing_conversions() {
    let ints: [u32; 8] = [0, 1, 0xffff, 0x10000, 0x7fff_ffff, 0x8000_0000, 0xffff_8000, 0xffff_7fff];
    let cases: Vec<[u32; 4]> = (0..32)
        .map(|l| {
            [
                F32S[l].to_bits(),
                F32S[(l * 5 + 3) % 32].to_bits(),
                EDGE[l] as u32 | (EDGE[(l + 9) % 32] as u32) << 16,
                ints[l % 8] ^ (l as u32 * 0x0101_0101),
            ]
        })
        .collect();
    let out = run_wave(
        "
        v_cvt_pk_norm_i16_f32 v4, v0, v1
        v_cvt_pk_norm_u16_f32 v5, v0, v1
        v_cvt_pk_i16_f32 v6, v0, v1
        v_cvt_pk_u16_f32 v7, v0, v1
        v_cvt_pk_u16_u32 v8, v3, v0
        v_cvt_pk_i16_i32 v9, v3, v0
        v_pack_b32_f16 v10, v2, v2 op_sel:[0,1]
        v_cvt_pk_norm_i16_f16 v11, v2, v2 op_sel:[1,0]
        ",
        &cases,
        false,
    );
    let f = |x: u32| f32::from_bits(x) as f64;
    let pk = |a: u16, b: u16| a as u32 | (b as u32) << 16;
    let i16f = |x: f64| if x.is_nan() { 0 } else { x.trunc().clamp(-32768.0, 32767.0) as i16 as u16 };
    let u16f = |x: f64| if x.is_nan() { 0 } else { x.trunc().clamp(0.0, 65535.0) as u16 };
    check32(&out, &cases, 0, "pk_norm_i16_f32", |c| pk(snorm(f(c[0])), snorm(f(c[1]))));
    check32(&out, &cases, 1, "pk_norm_u16_f32", |c| pk(unorm(f(c[0])), unorm(f(c[1]))));
    check32(&out, &cases, 2, "pk_i16_f32", |c| pk(i16f(f(c[0])), i16f(f(c[1]))));
    check32(&out, &cases, 3, "pk_u16_f32", |c| pk(u16f(f(c[0])), u16f(f(c[1]))));
    check32(&out, &cases, 4, "pk_u16_u32", |c| pk(c[3].min(0xffff) as u16, c[0].min(0xffff) as u16));
    let si = |x: u32| (x as i32).clamp(-32768, 32767) as i16 as u16;
    check32(&out, &cases, 5, "pk_i16_i32", |c| pk(si(c[3]), si(c[0])));
    check32(&out, &cases, 6, "pack_b32_f16", |c| pk(lo(c[2]), hi(c[2])));
    check32(&out, &cases, 7, "pk_norm_i16_f16", |c| pk(snorm(v(hi(c[2]))), snorm(v(lo(c[2])))));

    let out = run_wave(
        "
        v_sat_pk_u8_i16 v4, v3
        v_cvt_norm_i16_f16 v5, v2
        v_cvt_norm_u16_f16 v6, v2
        v_cvt_i32_i16 v7, v3
        v_cvt_u32_u16 v8, v3
        v_cvt_pk_norm_u16_f16 v9, v2, v2 op_sel:[1,1]
        ",
        &cases,
        false,
    );
    let sat8 = |x: u16| (x as i16).clamp(0, 255) as u16;
    check16(&out, &cases, 0, false, "sat_pk_u8_i16", |c| sat8(lo(c[3])) | sat8(hi(c[3])) << 8);
    check16(&out, &cases, 1, false, "cvt_norm_i16_f16", |c| snorm(v(lo(c[2]))));
    check16(&out, &cases, 2, false, "cvt_norm_u16_f16", |c| unorm(v(lo(c[2]))));
    check32(&out, &cases, 3, "cvt_i32_i16", |c| c[3] as u16 as i16 as i32 as u32);
    check32(&out, &cases, 4, "cvt_u32_u16", |c| c[3] & 0xffff);
    check32(&out, &cases, 5, "pk_norm_u16_f16 op_sel", |c| pk(unorm(v(hi(c[2]))), unorm(v(hi(c[2])))));
}

/// 16-bit integer arithmetic, shifts (count = S0[3:0], so 16 and past it wrap) and logic,
/// with the VOP3 clamp bit saturating add/sub/mul (ISA: "Supports saturation").
#[test]
fn int16_ops() {
    let vals: [u16; 16] =
        [0, 1, 2, 15, 16, 17, 31, 0x7fff, 0x8000, 0x8001, 0xffff, 0xfffe, 0x1234, 0xabcd, 100, 0x00ff];
    for wave64 in [false, true] {
        let cases: Vec<[u32; 4]> = (0..lanes(wave64))
            .map(|l| {
                let a = vals[l % 16] as u32 | (vals[(l * 3 + 1) % 16] as u32) << 16;
                let b = vals[(l / 16 + l * 5) % 16] as u32 | (vals[(l + 7) % 16] as u32) << 16;
                [a, b, vals[(l * 7 + 2) % 16] as u32, 0]
            })
            .collect();
        let out = run_wave(
            &format!(
                "
            v_add_nc_u16 v4, v0, v1
            v_add_nc_u16 v4, v0, v1 op_sel:[1,1,1] clamp
            v_sub_nc_i16 v5, v0, v1 clamp
            v_sub_nc_u16 v5, v0, v1 op_sel:[0,0,1]
            v_mul_lo_u16 v6, v0, v1
            v_add_nc_i16 v6, v0, v1 op_sel:[0,1,1] clamp
            v_lshlrev_b16 v7, v0, v1
            {vop3_5}
            v_ashrrev_i16 v8, v0, v1
            {vop3_6}
            v_min_u16 v9, v0, v1
            {vop3_7}
            v_and_b16 v10, v0, v1
            {vop3_9}
            v_not_b16 v11, v1
            {vop3_8}
            ",
                vop3_5 = vop3(0x339, 7, [256, 257, 0], 0b1000, 0, 0),
                vop3_6 = vop3(0x30a, 8, [256, 257, 0], 0b1011, 0, 0),
                vop3_7 = vop3(0x364, 9, [256, 257, 0], 0b1001, 0, 0),
                vop3_8 = vop3(0x309, 11, [256, 257, 0], 0b1001, 0, 0),
                vop3_9 = vop3(0x363, 10, [256, 257, 0], 0b1010, 0, 0)
            ),
            &cases,
            wave64,
        );
        let (a, b) = (|c: &[u32; 4]| lo(c[0]), |c: &[u32; 4]| lo(c[1]));
        let (ah, bh) = (|c: &[u32; 4]| hi(c[0]), |c: &[u32; 4]| hi(c[1]));
        let ss = |x: i32| x.clamp(-32768, 32767) as i16 as u16;
        check16(&out, &cases, 0, false, "add_nc_u16", |c| a(c).wrapping_add(b(c)));
        check16(&out, &cases, 0, true, "add_nc_u16 clamp", |c| (ah(c) as u32 + bh(c) as u32).min(0xffff) as u16);
        check16(&out, &cases, 1, false, "sub_nc_i16 clamp", |c| ss(a(c) as i16 as i32 - b(c) as i16 as i32));
        check16(&out, &cases, 1, true, "sub_nc_u16", |c| a(c).wrapping_sub(b(c)));
        check16(&out, &cases, 2, false, "mul_lo_u16", |c| a(c).wrapping_mul(b(c)));
        check16(&out, &cases, 2, true, "add_nc_i16 clamp", |c| ss(a(c) as i16 as i32 + bh(c) as i16 as i32));
        check16(&out, &cases, 3, false, "lshlrev_b16", |c| ((b(c) as u32) << (a(c) % 16)) as u16);
        check16(&out, &cases, 3, true, "lshrrev_b16", |c| b(c) >> (a(c) % 16));
        check16(&out, &cases, 4, false, "ashrrev_i16", |c| ((b(c) as i16) >> (a(c) % 16)) as u16);
        check16(&out, &cases, 4, true, "max_i16", |c| (ah(c) as i16).max(bh(c) as i16) as u16);
        check16(&out, &cases, 5, false, "min_u16", |c| a(c).min(b(c)));
        check16(&out, &cases, 5, true, "xor_b16", |c| ah(c) ^ b(c));
        check16(&out, &cases, 6, false, "and_b16", |c| a(c) & b(c));
        check16(&out, &cases, 6, true, "or_b16", |c| a(c) | bh(c));
        check16(&out, &cases, 7, false, "not_b16", |c| !b(c));
        check16(&out, &cases, 7, true, "max_u16", |c| ah(c).max(b(c)));

        let out = run_wave(
            "
            v_mad_u16 v4, v0, v1, v2
            v_mad_i16 v4, v0, v1, v2 op_sel:[1,1,0,1] clamp
            v_mad_u16 v5, v0, v1, v2 clamp
            v_min3_i16 v5, v0, v1, v2 op_sel:[0,0,0,1]
            v_max3_u16 v6, v0, v1, v2
            v_med3_i16 v6, v0, v1, v2 op_sel:[0,0,0,1]
            v_med3_u16 v7, v0, v1, v2
            v_min3_u16 v7, v0, v1, v2 op_sel:[1,1,0,1]
            v_max3_i16 v8, v0, v1, v2
            v_mad_u32_u16 v9, v0, v1, v2 op_sel:[1,1,0,0]
            v_mad_i32_i16 v10, v0, v1, v1
            ",
            &cases,
            wave64,
        );
        let c3 = |c: &[u32; 4]| lo(c[2]);
        let i = |x: u16| x as i16 as i32;
        let med = |x: i32, y: i32, z: i32| x.max(y).min(x.min(y).max(z));
        check16(&out, &cases, 0, false, "mad_u16", |c| a(c).wrapping_mul(b(c)).wrapping_add(c3(c)));
        check16(&out, &cases, 0, true, "mad_i16 clamp", |c| ss(i(ah(c)) * i(bh(c)) + i(c3(c))));
        check16(&out, &cases, 1, false, "mad_u16 clamp", |c| {
            (a(c) as u32 * b(c) as u32 + c3(c) as u32).min(0xffff) as u16
        });
        check16(&out, &cases, 1, true, "min3_i16", |c| i(a(c)).min(i(b(c))).min(i(c3(c))) as u16);
        check16(&out, &cases, 2, false, "max3_u16", |c| a(c).max(b(c)).max(c3(c)));
        check16(&out, &cases, 2, true, "med3_i16", |c| med(i(a(c)), i(b(c)), i(c3(c))) as u16);
        check16(&out, &cases, 3, false, "med3_u16", |c| med(a(c) as i32, b(c) as i32, c3(c) as i32) as u16);
        check16(&out, &cases, 3, true, "min3_u16", |c| ah(c).min(bh(c)).min(c3(c)));
        check16(&out, &cases, 4, false, "max3_i16", |c| i(a(c)).max(i(b(c))).max(i(c3(c))) as u16);
        check32(&out, &cases, 5, "mad_u32_u16", |c| ah(c) as u32 * bh(c) as u32 + c[2]);
        check32(&out, &cases, 6, "mad_i32_i16", |c| (i(a(c)) * i(b(c))).wrapping_add(c[1] as i32) as u32);
    }
}

/// v_mov_b16 with true16 halves (`v4.h`: bit 7 of the 32-bit encoding's VGPR field), and a
/// hand-encoded v_add_f16_e32 whose src0 field names v0.h (field 256 + 128): the 32-bit
/// encodings select register halves with that bit (gfx11 true16 encoding).
#[test]
fn true16_register_halves() {
    let cases: Vec<[u32; 4]> =
        (0..32u32).map(|l| [(l * 0x0101) | ((0x3c00 + l) << 16), 0x4000 | (l << 16), 0, 0]).collect();
    // VOP2 v_add_f16 (opcode 0x32): vdst 6, vsrc1 v1 (1), src0 v0.h (256 + 128).
    let add_hi = (0x32u32 << 25) | (6 << 17) | (1 << 9) | (256 + 128);
    let out = run_wave(
        &format!(
            "
            v_mov_b32 v4, 0x11112222
            v_mov_b16 v4.h, v0.l
            v_mov_b32 v5, 0x11112222
            v_mov_b16 v5.l, v0.h
            v_mov_b32 v6, 0x77770000
            .long {add_hi:#x}
            "
        ),
        &cases,
        false,
    );
    check32(&out, &cases, 0, "v_mov_b16 v4.h, v0.l", |c| (c[0] & 0xffff) << 16 | 0x2222);
    check32(&out, &cases, 1, "v_mov_b16 v5.l, v0.h", |c| 0x1111_0000 | c[0] >> 16);
    check16(&out, &cases, 2, false, "v_add_f16 v6, v0.h, v1", |c| h(v(hi(c[0])) + v(lo(c[1]))));
    check16(&out, &cases, 2, true, "v_add_f16 keeps v6.h", |_| 0x7777);
}

/// v_cndmask_b16 (VOP3: the mask in an SGPR), with abs/neg on 16-bit float sources and
/// op_sel halves, in wave32 and wave64 (RDNA3-NOTES, "Wave32 and wave64": a 64-bit lane
/// mask).
#[test]
fn cndmask_b16() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let cases: Vec<[u32; 4]> = (0..n as u32).map(|l| [0xc000_3c00 ^ l, 0x4400_b800 ^ (l << 3), 0, 0]).collect();
        let (mask, set) = if wave64 {
            ("s[20:21]", "s_mov_b32 s20, 0x5a5a0ff0\n s_mov_b32 s21, 0x0f0fa5a5")
        } else {
            ("s20", "s_mov_b32 s20, 0x5a5a0ff0")
        };
        let out = run_wave(
            &format!(
                "
                {set}
                v_cndmask_b16 v4, v0, v1, {mask}
                {c2}
                ",
                c2 = vop3(0x25d, 5, [256, 257, 20], 0b1011, 0b010, 0b001)
            ),
            &cases,
            wave64,
        );
        let m: u64 = 0x0f0f_a5a5_5a5a_0ff0;
        for (l, c) in cases.iter().enumerate() {
            let sel = m >> l & 1 != 0;
            let want0 = if sel { lo(c[1]) } else { lo(c[0]) };
            let want1 = if sel { hi(c[1]) & 0x7fff } else { hi(c[0]) ^ 0x8000 };
            assert_eq!(lo(out.v[l][0]), want0, "lane {l}");
            assert_eq!(hi(out.v[l][1]), want1, "lane {l} op_sel");
        }
    }
}

/// Every v_cmp_*_f16 predicate over pairs that include NaN, ±0, ±inf and denormals (IEEE
/// ordered / unordered comparison), as VOPC (VCC) and VOP3 (an SGPR); v_cmpx writing EXEC
/// (RDNA3 ISA VOPC; RDNA3-NOTES, "EXEC mask"), wave32 and wave64.
#[test]
fn f16_compares() {
    let preds = ["f", "lt", "eq", "le", "gt", "lg", "ge", "o", "u", "nge", "nlg", "ngt", "nle", "neq", "nlt", "t"];
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let cases: Vec<[u32; 4]> =
            (0..n).map(|l| [EDGE[l % 32] as u32, EDGE[(l * 13 + l / 32 * 3) % 32] as u32, 0, 0]).collect();
        let vcc = if wave64 { "vcc" } else { "vcc_lo" };
        let sd = |k: usize| if wave64 { format!("s[{}:{}]", 10 + 2 * k, 11 + 2 * k) } else { format!("s{}", 10 + k) };
        for chunk in preds.chunks(8) {
            let mut body = String::new();
            for (k, p) in chunk.iter().enumerate() {
                body += &format!("v_cmp_{p}_f16_e64 {}, v0, v1\n", sd(k));
            }
            body += &format!("v_cmp_{}_f16 {vcc}, v0, v1\n", chunk[1]);
            let out = run_wave(&body, &cases, wave64);
            for (k, p) in chunk.iter().enumerate() {
                let got = if wave64 { out.s[2 * k] as u64 | (out.s[2 * k + 1] as u64) << 32 } else { out.s[k] as u64 };
                let mut want = 0u64;
                for (l, c) in cases.iter().enumerate() {
                    use std::cmp::Ordering::{Equal, Greater, Less};
                    // IEEE comparison: None when either input is NaN (unordered).
                    let o = v(c[0] as u16).partial_cmp(&v(c[1] as u16));
                    let (lt, eq, gt) = (o == Some(Less), o == Some(Equal), o == Some(Greater));
                    let r = match *p {
                        "f" => false,
                        "lt" => lt,
                        "eq" => eq,
                        "le" => lt || eq,
                        "gt" => gt,
                        "lg" => lt || gt,
                        "ge" => gt || eq,
                        "o" => o.is_some(),
                        "u" => o.is_none(),
                        "nge" => !(gt || eq),
                        "nlg" => !(lt || gt),
                        "ngt" => !gt,
                        "nle" => !(lt || eq),
                        "neq" => !eq,
                        "nlt" => !lt,
                        _ => true,
                    };
                    want |= (r as u64) << l;
                }
                assert_eq!(got, want, "v_cmp_{p}_f16 wave64={wave64}");
                if k == 1 {
                    assert_eq!(out.vcc, want, "v_cmp_{p}_f16 e32 wave64={wave64}");
                }
            }
        }
        // v_cmpx_lt_f16 writes EXEC (only lanes that were active).
        let out = run_wave("v_cmpx_lt_f16 v0, v1", &cases, wave64);
        let want = cases.iter().enumerate().fold(0u64, |m, (l, c)| m | ((v(c[0] as u16) < v(c[1] as u16)) as u64) << l);
        assert_eq!(out.exec, want, "v_cmpx_lt_f16 wave64={wave64}");
    }
}

/// v_cmp_*_i16 / _u16 and v_cmpx of them, and v_cmp_class_f16 / v_cmpx_class_f16 (class
/// bits: 0 sNaN, 1 qNaN, 2 -inf, 3 -normal, 4 -denormal, 5 -0, 6 +0, 7 +denormal,
/// 8 +normal, 9 +inf; RDNA3 ISA V_CMP_CLASS_F16).
#[test]
fn int16_compares_and_class() {
    let vals: [u16; 8] = [0, 1, 0x7fff, 0x8000, 0xffff, 0x1234, 0x8001, 2];
    let cases: Vec<[u32; 4]> = (0..32)
        .map(|l| {
            [
                vals[l % 8] as u32 | 0xdead_0000,
                vals[l / 4] as u32,
                EDGE[l] as u32,
                1u32 << (l % 10) | 1 << ((l * 3) % 10),
            ]
        })
        .collect();
    let ops: [NamedCmp; 12] = [
        ("lt_i16", |a, b| (a as i16) < b as i16),
        ("eq_i16", |a, b| a == b),
        ("le_i16", |a, b| a as i16 <= b as i16),
        ("gt_i16", |a, b| a as i16 > b as i16),
        ("ne_i16", |a, b| a != b),
        ("ge_i16", |a, b| a as i16 >= b as i16),
        ("lt_u16", |a, b| a < b),
        ("eq_u16", |a, b| a == b),
        ("le_u16", |a, b| a <= b),
        ("gt_u16", |a, b| a > b),
        ("ne_u16", |a, b| a != b),
        ("ge_u16", |a, b| a >= b),
    ];
    let body: String =
        ops.iter().enumerate().map(|(k, (p, _))| format!("v_cmp_{p}_e64 s{}, v0, v1\n", 10 + k)).collect();
    let body = body + "v_cmp_class_f16_e64 s22, v2, v3\n v_cmp_class_f16 vcc_lo, v2, v3\n v_cmpx_ge_u16 v0, v1\n";
    let out = run_wave(&body, &cases, false);
    for (k, (p, f)) in ops.iter().enumerate() {
        let want = cases.iter().enumerate().fold(0u32, |m, (l, c)| m | (f(lo(c[0]), lo(c[1])) as u32) << l);
        assert_eq!(out.s[k], want, "v_cmp_{p}");
    }
    let class = |x: u16| -> u32 {
        let neg = x & 0x8000 != 0;
        let bit = if is_nan(x) {
            if x & 0x200 == 0 {
                0
            } else {
                1
            }
        } else if x & 0x7fff == 0x7c00 {
            if neg {
                2
            } else {
                9
            }
        } else if x & 0x7fff == 0 {
            if neg {
                5
            } else {
                6
            }
        } else if x & 0x7c00 == 0 {
            if neg {
                4
            } else {
                7
            }
        } else if neg {
            3
        } else {
            8
        };
        1 << bit
    };
    let want = cases.iter().enumerate().fold(0u32, |m, (l, c)| m | ((class(lo(c[2])) & c[3] != 0) as u32) << l);
    assert_eq!(out.s[12], want, "v_cmp_class_f16_e64");
    assert_eq!(out.vcc, want as u64, "v_cmp_class_f16_e32");
    let want = cases.iter().enumerate().fold(0u64, |m, (l, c)| m | ((lo(c[0]) >= lo(c[1])) as u64) << l);
    assert_eq!(out.exec, want, "v_cmpx_ge_u16");
    let out = run_wave("v_cmpx_class_f16 v2, v3", &cases, true);
    let want = cases.iter().enumerate().fold(0u64, |m, (l, c)| m | ((class(lo(c[2])) & c[3] != 0) as u64) << l);
    assert_eq!(out.exec, want, "v_cmpx_class_f16 wave64");
}

/// v_div_fixup_f16, from the ISA pseudocode: NaN inputs quieted, 0/0 and inf/inf give
/// 0xfe00, x/0 and inf/y infinity, x/inf and 0/y zero, else the quotient with the sign of
/// numerator times denominator.
#[test]
fn div_fixup_f16() {
    let cases = cases3(32);
    let out = run_wave("v_div_fixup_f16 v4, v0, v1, v2", &cases, false);
    check16(&out, &cases, 0, false, "v_div_fixup_f16", |c| {
        let (q, d, n) = (lo(c[0]), lo(c[1]), lo(c[2]));
        let sign = (d ^ n) & 0x8000;
        let inf = |x: u16| x & 0x7fff == 0x7c00;
        let zero = |x: u16| x & 0x7fff == 0;
        if is_nan(n) {
            n | 0x200
        } else if is_nan(d) {
            d | 0x200
        } else if (zero(d) && zero(n)) || (inf(d) && inf(n)) {
            0xfe00
        } else if zero(d) || inf(n) {
            sign | 0x7c00
        } else if inf(d) || zero(n) {
            sign
        } else {
            sign | (q & 0x7fff)
        }
    });
    for (l, c) in cases.iter().enumerate() {
        if is_nan(lo(c[2])) {
            assert_eq!(lo(out.v[l][0]), lo(c[2]) | 0x200, "NaN numerator passes quieted, lane {l}");
        }
    }
}

/// v_dot2acc_f32_f16: D += a.lo * b.lo, then += a.hi * b.hi, in f32 (the ISA pseudocode's
/// sequence; f16 products are exact in f32).
#[test]
fn dot2acc_f32_f16() {
    let cases: Vec<[u32; 4]> = (0..32)
        .map(|l| {
            let e = |k: usize| EDGE[k % 32] as u32;
            [e(l + 2) | e(l * 3 + 16) << 16, e(l * 5 + 4) | e(l + 19) << 16, (l as f32 * 0.37 - 3.0).to_bits(), 0]
        })
        .collect();
    let out = run_wave("v_mov_b32 v4, v2\n v_dot2acc_f32_f16 v4, v0, v1", &cases, false);
    for (l, c) in cases.iter().enumerate() {
        let f = |x: u16| f16::from_bits(x).to_f32();
        let mut t = f32::from_bits(c[2]);
        t += f(lo(c[0])) * f(lo(c[1]));
        t += f(hi(c[0])) * f(hi(c[1]));
        let got = f32::from_bits(out.v[l][0]);
        assert!(got.to_bits() == t.to_bits() || (got.is_nan() && t.is_nan()), "lane {l}: {got} vs {t}");
    }
}

/// EXEC masks the 16-bit writes: inactive lanes keep both halves (RDNA3-NOTES,
/// "EXEC mask").
#[test]
fn exec_masks_half_writes() {
    let cases: Vec<[u32; 4]> = (0..64u32).map(|l| [0x3c00 | l << 16, 0x4000, 0, 0]).collect();
    let out = run_wave(
        &format!(
            "
            v_mov_b32 v4, 0x12345678
            s_mov_b32 exec_lo, 0xffff0000
            s_mov_b32 exec_hi, 0
            v_add_f16 v4, v0, v1
            {}
            ",
            vop3(0x132, 4, [256, 257, 0], 0b1000, 0, 0)
        ),
        &cases,
        true,
    );
    for l in 0..64 {
        let want = if (16..32).contains(&l) { 0x4200_4200 } else { 0x1234_5678 };
        assert_eq!(out.v[l][0], want, "lane {l}");
    }
}
