//! The MODE register as f32 arithmetic sees it (RDNA3 ISA, "MODE": FP_ROUND[1:0] is the
//! f32 round mode, FP_DENORM[5:4] the f32 denormal mode), set by `s_round_mode`,
//! `s_denorm_mode` and `s_setreg_b32`, checked against host IEEE arithmetic on values
//! whose exact results are known.

mod common;

use common::run_wave;

const ONE_PLUS_ULP: u32 = 0x3f80_0001;

/// 1 + 2^-30 lies strictly between 1 and the next f32: each round mode picks its side, in
/// v_add_f32 and v_fma_f32 (a MODE other than the default sends them down the general
/// path, not the fast one).
#[test]
fn f32_round_modes_pick_the_side_of_an_inexact_result() {
    for wave64 in [false, true] {
        let inputs = [[1f32.to_bits(), 2f32.powi(-30).to_bits(), (-1f32).to_bits(), (-(2f32.powi(-30))).to_bits()]];
        // round mode: 0 nearest even, 1 toward +inf, 2 toward -inf, 3 toward zero.
        let mut body = String::new();
        for (k, mode) in [0, 1, 2, 3].iter().enumerate() {
            body += &format!(
                "
                s_round_mode {mode}
                v_add_f32 v{a}, v0, v1
                v_fma_f32 v{b}, v2, 1.0, v3
                ",
                a = 4 + 2 * k,
                b = 5 + 2 * k
            );
        }
        body += "s_round_mode 0\n";
        let out = run_wave(&body, &inputs, wave64);
        let v = out.v[0];
        let (one, neg_one) = (1f32.to_bits(), (-1f32).to_bits());
        // nearest: 1, -1; up: 1+ulp, -1; down: 1, -(1+ulp); zero: 1, -1.
        assert_eq!(
            v,
            [one, neg_one, ONE_PLUS_ULP, neg_one, one, ONE_PLUS_ULP | 1 << 31, one, neg_one],
            "wave64 {wave64}"
        );
    }
}

/// A product below the smallest normal is kept with FP_DENORM = 3 (LLVM's default), and
/// flushed to a zero of the same sign when output denormals are off; an input denormal is
/// read as zero when input denormals are off.
#[test]
fn f32_denormal_modes_flush_inputs_and_outputs() {
    let tiny = f32::MIN_POSITIVE; // 2^-126
    let denorm = f32::from_bits(0x0000_0400);
    let inputs = [[tiny.to_bits(), 0.5f32.to_bits(), denorm.to_bits(), (-0.5f32).to_bits()]];
    let out = run_wave(
        "
        v_mul_f32 v4, v0, v1           // 2^-127: a denormal result
        v_add_f32 v5, v2, 0            // a denormal input
        s_denorm_mode 1                // f32: keep input denormals, flush outputs
        v_mul_f32 v6, v0, v1
        v_mul_f32 v7, v0, v3           // -2^-127 flushes to -0
        s_denorm_mode 2                // f32: flush inputs, keep outputs
        v_add_f32 v8, v2, 0
        v_mul_f32 v9, v2, 2.0
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 4, 2), 3
        v_mul_f32 v10, v0, v1          // back to keeping both
        ",
        &inputs,
        false,
    );
    let v = out.v[0];
    let half_tiny = (tiny as f64 * 0.5) as f32;
    assert!(half_tiny.is_subnormal());
    assert_eq!(v[0], half_tiny.to_bits());
    assert_eq!(v[1], denorm.to_bits());
    assert_eq!(v[2], 0);
    assert_eq!(v[3], 0x8000_0000);
    assert_eq!(v[4], 0);
    assert_eq!(v[5], 0);
    assert_eq!(v[6], half_tiny.to_bits());
}

/// The clamp bit on an f32 result: [0, 1], and a NaN becomes 0 only while MODE.DX10_CLAMP
/// is set (LLVM's kernels set it); without it the quiet NaN passes through.
#[test]
fn f32_clamp_follows_dx10_clamp() {
    let nan = 0x7fc0_0000u32;
    let inputs = [[nan, 1f32.to_bits(), 2f32.to_bits(), (-3f32).to_bits()]];
    let out = run_wave(
        "
        v_add_f32 v4, v0, v1 clamp
        v_add_f32 v5, v2, v1 clamp
        v_add_f32 v6, v3, v1 clamp
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 1), 0
        v_add_f32 v7, v0, v1 clamp
        v_fma_f32 v8, v0, v1, v2 clamp
        v_fma_f32 v9, v2, v1, v1 clamp
        ",
        &inputs,
        false,
    );
    let v = out.v[0];
    assert_eq!(&v[..6], &[0, 1f32.to_bits(), 0, nan, nan, 1f32.to_bits()]);
}
