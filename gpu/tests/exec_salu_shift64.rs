//! The 64-bit scalar shifts and bit-field extracts take their second operand as 32 bits:
//! from any SGPR, odd ones included (table.rs: `[B64 B64 B32]`). LLVM's atomic optimizer
//! emits `s_lshl_b64 s[4:5], 1, s3` in wave64 to clear the lane it has just handled; reading
//! s[2:3] there instead of s3 left the loop running forever (found by the OpenCL kernels of
//! tests/opencl/memory.cl in wave64). Expected values: the ISA guide's formulas on the host.

mod common;

use common::run_wave;

#[test]
fn shift_and_bfe_amounts_come_from_odd_sgprs() {
    let v: u64 = 0x8820_8208_4e91_918e;
    let body = format!(
        "s_mov_b32 s0, {lo:#x}\n s_mov_b32 s1, {hi:#x}\n s_mov_b32 s2, 0\n s_mov_b32 s3, 35\n s_mov_b32 s7, 0x1c0005\n\
         s_lshl_b64 s[10:11], 1, s3\n s_lshl_b64 s[12:13], s[0:1], s3\n s_lshr_b64 s[14:15], s[0:1], s3\n\
         s_ashr_i64 s[16:17], s[0:1], s3\n s_bfe_u64 s[18:19], s[0:1], s7\n s_bfe_i64 s[20:21], s[0:1], s7\n",
        lo = v as u32,
        hi = (v >> 32) as u32
    );
    // s_bfe: offset = src1[5:0] = 5, width = src1[22:16] = 28.
    let bfe = (v >> 5) & ((1 << 28) - 1);
    let want: [u64; 6] = [1 << 35, v << 35, v >> 35, ((v as i64) >> 35) as u64, bfe, ((bfe << 36) as i64 >> 36) as u64];
    for wave64 in [false, true] {
        let o = run_wave(&body, &[[0; 4]], wave64);
        let got: Vec<u64> = (0..6).map(|k| o.s[2 * k] as u64 | (o.s[2 * k + 1] as u64) << 32).collect();
        assert_eq!(got, want, "wave64 {wave64}");
    }
}
