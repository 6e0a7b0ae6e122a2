//! The rest of the scalar ALU and program control (SOP1, SOPK, SOPP): bit and mask
//! operations, the saveexec/wrexec family, s_movrel*, the hardware registers (s_getreg,
//! s_setreg, s_round_mode, s_denorm_mode), s_sendmsg_rtn, s_call_b64, s_rfe_b64, s_trap and
//! the SOPP opcodes without an effect here. Expected values come from the RDNA3 ISA guide's
//! pseudo-code, written out as loops in each test, never from the executor.

mod common;

use std::time::Duration;

use common::{addr, run_wave, run_wave_env, try_run_wave, Dispatch, Gpu, WaveEnv, WaveOut, W32};
use gpu::ReportKind;

/// Runs `per_case` once per input: before it s[30:31] = (v0, v1) of lane k, s[32:33] = 0 and
/// SCC = `scc_in`; after it s[32:33] goes to v4/v5 of lane k and SCC to v6.
fn per_case(per_case: &str, inputs: &[[u32; 4]], scc_in: bool, wave64: bool) -> WaveOut {
    let set_scc = if scc_in { "s_cmp_eq_u32 0, 0" } else { "s_cmp_eq_u32 0, 1" };
    let mut body = String::new();
    for k in 0..inputs.len() {
        body += &format!(
            " v_readlane_b32 s30, v0, {k}\n v_readlane_b32 s31, v1, {k}\n s_mov_b64 s[32:33], 0\n {set_scc}\n\
             {per_case}\n s_cselect_b32 s34, 1, 0\n v_writelane_b32 v4, s32, {k}\n v_writelane_b32 v5, s33, {k}\n\
             v_writelane_b32 v6, s34, {k}\n"
        );
    }
    run_wave(&body, inputs, wave64)
}

/// Edge inputs for 32/64-bit scalar ops: zero, all ones, single bits, sign boundaries,
/// alternating patterns, then a fixed pseudo-random sequence.
fn edge_inputs(n: usize) -> Vec<[u32; 4]> {
    let fixed: [[u32; 2]; 16] = [
        [0, 0],
        [u32::MAX, u32::MAX],
        [1, 0],
        [0x8000_0000, 0],
        [0, 0x8000_0000],
        [0x7fff_ffff, 0x7fff_ffff],
        [0x4000_0000, 0],
        [0xffff_0000, 0xffff_ffff],
        [0x0000_ffff, 0],
        [0x5555_5555, 0xaaaa_aaaa],
        [0x0f00_0010, 0x1000_0001],
        [0xbfff_ffff, 0xffff_ffff],
        [0xffff_fffe, 0xffff_ffff],
        [0x0000_0001, 0x0000_0000],
        [0x8000_0000, 0xffff_ffff],
        [0x0001_0000, 0x4000_0000],
    ];
    let mut x = 0x2545_f491_4f6c_dd1du64;
    (0..n)
        .map(|i| {
            let [a, b] = fixed.get(i).copied().unwrap_or_else(|| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                [x as u32, (x >> 32) as u32]
            });
            [a, b, 0, 0]
        })
        .collect()
}

fn u64_of(i: &[u32; 4]) -> u64 {
    i[0] as u64 | (i[1] as u64) << 32
}

/// S_CLS_I32 pseudo-code: the first i in 1..bits-1 whose bit (top - i) differs from the
/// top bit, or -1.
fn cls_ref(v: u64, bits: u32) -> u32 {
    let top = v >> (bits - 1) & 1;
    (1..bits).find(|i| (v >> (bits - 1 - i)) & 1 != top).unwrap_or(u32::MAX)
}

/// s_cls_i32 / s_cls_i32_i64 on edge inputs: the count of leading sign bits, -1 for 0 and -1;
/// SCC is left alone (set before, still set after).
#[test]
fn cls_counts_leading_sign_bits() {
    let inputs = edge_inputs(32);
    let out = per_case("s_cls_i32 s32, s30\n s_cls_i32_i64 s33, s[30:31]", &inputs, true, false);
    for (l, i) in inputs.iter().enumerate() {
        let v = out.v[l];
        assert_eq!(v[0], cls_ref(i[0] as u64, 32), "s_cls_i32 {:#x}", i[0]);
        assert_eq!(v[1], cls_ref(u64_of(i), 64), "s_cls_i32_i64 {:#x}", u64_of(i));
        assert_eq!(v[2], 1, "SCC kept");
    }
}

/// s_bitreplicate_b64_b32: D[2i] = D[2i+1] = S[i]; no SCC change.
#[test]
fn bitreplicate_doubles_every_bit() {
    let inputs = edge_inputs(32);
    let out = per_case("s_bitreplicate_b64_b32 s[32:33], s30", &inputs, false, false);
    for (l, i) in inputs.iter().enumerate() {
        let mut want = 0u64;
        for b in 0..32 {
            let bit = (i[0] >> b & 1) as u64;
            want |= bit << (2 * b) | bit << (2 * b + 1);
        }
        let got = out.v[l][0] as u64 | (out.v[l][1] as u64) << 32;
        assert_eq!(got, want, "input {:#x}", i[0]);
        assert_eq!(out.v[l][2], 0, "SCC kept");
    }
}

/// s_quadmask_b32/b64: bit i = (nibble i != 0); s_wqm_b32/b64: each non-zero nibble becomes
/// 0xf. SCC = result != 0 (RDNA3-NOTES, "SCC": logical operations). Wave64 and wave32.
#[test]
fn quadmask_and_wqm() {
    for wave64 in [false, true] {
        let n = if wave64 { 64 } else { 32 };
        let inputs = edge_inputs(n);
        let quad = |v: u64, nibbles: u32| (0..nibbles).fold(0u64, |m, i| m | ((v >> (4 * i) & 0xf != 0) as u64) << i);
        let wqm = |v: u64, bits: u32| (0..bits).fold(0u64, |m, i| m | ((v >> (i & !3) & 0xf != 0) as u64) << i);
        for (asm, f) in [
            ("s_quadmask_b32 s32, s30", 0),
            ("s_quadmask_b64 s[32:33], s[30:31]", 1),
            ("s_wqm_b32 s32, s30", 2),
            ("s_wqm_b64 s[32:33], s[30:31]", 3),
        ] {
            let out = per_case(asm, &inputs, f % 2 == 0, wave64);
            for (l, i) in inputs.iter().enumerate() {
                let want = match f {
                    0 => quad(i[0] as u64, 8),
                    1 => quad(u64_of(i), 16),
                    2 => wqm(i[0] as u64, 32),
                    _ => wqm(u64_of(i), 64),
                };
                let got = out.v[l][0] as u64 | (out.v[l][1] as u64) << 32;
                assert_eq!(got, want, "{asm} of {:#x}", u64_of(i));
                assert_eq!(out.v[l][2], (want != 0) as u32, "{asm} SCC of {:#x}", u64_of(i));
            }
        }
    }
}

/// The saveexec family not in alu.rs (nand, nor, xnor) and the wrexec family: saveexec
/// writes the old EXEC to SDST, wrexec the new one; SCC = new EXEC != 0. Both wave sizes,
/// with the _b32 forms in wave32 and the _b64 forms in wave64.
#[test]
fn saveexec_and_wrexec() {
    type F = fn(u64, u64) -> u64;
    let ops: [(&str, F, bool); 5] = [
        ("s_nand_saveexec", |s, e| !(s & e), false),
        ("s_nor_saveexec", |s, e| !(s | e), false),
        ("s_xnor_saveexec", |s, e| !(s ^ e), false),
        ("s_and_not0_wrexec", |s, e| !s & e, true),
        ("s_and_not1_wrexec", |s, e| s & !e, true),
    ];
    let cases: [(u64, u64); 4] = [
        (0xffff_0000_0f0f_1234, 0x0000_ffff_ff00_ff00),
        (u64::MAX, u64::MAX),
        (0, 0),
        (0x8000_0000_0000_0001, u64::MAX),
    ];
    for wave64 in [false, true] {
        let width = if wave64 { u64::MAX } else { u32::MAX as u64 };
        let (suffix, pair) = if wave64 { ("b64", "s[30:31]") } else { ("b32", "s30") };
        let (sd, sdhi) = if wave64 { ("s[32:33]", "s33") } else { ("s32", "s40") };
        let mut body = String::new();
        let mut k = 0;
        for (name, _, _) in &ops {
            for (s, e) in cases {
                let (slo, shi, elo, ehi) = (s as u32, (s >> 32) as u32, e as u32, (e >> 32) as u32);
                body += &format!(
                    " s_mov_b32 s30, {slo:#x}\n s_mov_b32 s31, {shi:#x}\n s_mov_b32 exec_lo, {elo:#x}\n\
                     s_mov_b32 exec_hi, {ehi:#x}\n s_mov_b32 s40, 0\n s_mov_b64 s[32:33], 0\n\
                     {name}_{suffix} {sd}, {pair}\n s_cselect_b32 s34, 1, 0\n s_mov_b32 s36, exec_lo\n\
                     s_mov_b32 s37, exec_hi\n s_mov_b32 exec_lo, -1\n s_mov_b32 exec_hi, -1\n\
                     v_writelane_b32 v4, s32, {k}\n v_writelane_b32 v5, {sdhi}, {k}\n\
                     v_writelane_b32 v6, s36, {k}\n v_writelane_b32 v7, s37, {k}\n v_writelane_b32 v8, s34, {k}\n"
                );
                k += 1;
            }
        }
        let out = run_wave(&body, &[], wave64);
        let mut k = 0;
        for (name, f, wr) in &ops {
            for (s, e) in cases {
                let (s, e) = (s & width, e & width);
                let new = f(s, e) & width;
                let v = out.v[k];
                let sdst = v[0] as u64 | (v[1] as u64) << 32;
                // Wave32 instructions leave EXEC_HI alone: compare the wave's width.
                let exec_after = (v[2] as u64 | (v[3] as u64) << 32) & width;
                assert_eq!(sdst, if *wr { new } else { e }, "{name} sdst, s={s:#x} exec={e:#x} wave64={wave64}");
                assert_eq!(exec_after, new, "{name} exec, s={s:#x} exec={e:#x} wave64={wave64}");
                assert_eq!(v[4], (new != 0) as u32, "{name} SCC, s={s:#x} exec={e:#x} wave64={wave64}");
                k += 1;
            }
        }
    }
}

/// RDNA3-NOTES, "SGPR out-of-range behaviour": WREXEC and SAVEEXEC write
/// EXEC even when SDST is out of range (a TTMP outside the trap handler), and an SALU
/// instruction whose TTMP write fails leaves SCC alone.
#[test]
fn wrexec_and_saveexec_write_exec_when_sdst_is_a_ttmp() {
    let out = run_wave(
        "
        s_mov_b32 s30, 0xff
        s_mov_b32 exec_lo, 0x0f0f
        s_cmp_eq_u32 0, 1
        s_and_not0_wrexec_b32 ttmp2, s30
        s_mov_b32 s10, exec_lo
        s_cselect_b32 s11, 1, 0
        s_mov_b32 s12, ttmp2
        s_mov_b32 exec_lo, 0x00f0
        s_xnor_saveexec_b32 ttmp3, s30
        s_mov_b32 s13, exec_lo
        s_cselect_b32 s14, 1, 0
        s_mov_b32 s15, ttmp3
        ",
        &[],
        false,
    );
    assert_eq!(out.s[0], 0x0f00, "EXEC = ~0xff & 0x0f0f");
    assert_eq!(out.s[1], 0, "SCC not updated");
    assert_eq!(out.s[2], 0, "TTMP reads zero, not written");
    assert_eq!(out.s[3], !(0xffu32 ^ 0xf0), "EXEC = ~(0xff ^ 0xf0)");
    assert_eq!((out.s[4], out.s[5]), (0, 0));
}

/// s_movrels / s_movreld / s_movrelsd_2 index SGPRs with M0. RDNA3-NOTES,
/// "SGPR out-of-range behaviour" (S_MOVREL): indexing stays inside the base's region
/// (s0..vcc_hi, or the TTMPs); an out-of-range source reads s0, an out-of-range destination
/// is not written; "SGPR alignment": the _B64 forms ignore the LSB of the index.
#[test]
fn movrel_indexes_with_m0_inside_the_base_region() {
    let out = run_wave(
        "
        s_mov_b32 s0, 0x5050
        s_mov_b32 s1, 0x5151
        s_mov_b32 s40, 40
        s_mov_b32 s41, 41
        s_mov_b32 s42, 42
        s_mov_b32 s43, 43
        s_mov_b32 s105, 105
        s_mov_b32 vcc_hi, 107
        s_mov_b32 m0, 2
        s_movrels_b32 s10, s40              // s42
        s_movrels_b64 s[12:13], s[40:41]    // s[42:43]
        s_mov_b32 m0, 3
        s_movrels_b64 s[14:15], s[40:41]    // index LSB ignored: s[42:43]
        s_mov_b32 m0, 67
        s_movrels_b32 s11, s40              // s107 = vcc_hi, the last of the region
        s_mov_b32 m0, 68
        s_movrels_b32 s16, s40              // s108 is a TTMP: out of range, reads s0
        s_mov_b32 m0, 66
        s_movrels_b64 s[18:19], s[40:41]    // s[106:107] = vcc
        s_mov_b32 m0, 68
        s_movrels_b64 s[20:21], s[40:41]    // out of range: s[0:1]
        s_mov_b32 m0, 1
        s_movreld_b32 s42, 0x77             // s43 = 0x77
        s_movreld_b64 s[22:23], s[40:41]    // LSB of the index ignored: s[22:23]
        s_mov_b32 m0, 70
        s_movreld_b32 s40, 0x99             // s110: out of range, nothing written
        s_mov_b32 s17, s43
        s_mov_b32 m0, 0x00040001            // source index 1, destination index 4
        s_movrelsd_2_b32 s20, s40           // s24 = s41
        s_mov_b32 m0, 0
        s_movrels_b32 s25, ttmp0            // a TTMP outside the trap handler reads zero
        ",
        &[],
        false,
    );
    let s = |r: usize| out.s[r - 10];
    assert_eq!((s(10), s(12), s(13)), (42, 42, 43));
    assert_eq!((s(14), s(15)), (42, 43));
    assert_eq!(s(11), 107);
    assert_eq!(s(16), 0x5050);
    assert_eq!((s(18), s(19)), (out.vcc as u32, 107));
    assert_eq!(s(17), 0x77);
    assert_eq!((s(20), s(21)), (0x5050, 0x5151));
    assert_eq!((s(22), s(23)), (40, 41));
    assert_eq!((s(24), s(25)), (41, 0));
}

/// Reads hwreg `what` (an llvm-mc hwreg operand) into s`dst`.
fn getreg(dst: u32, what: &str) -> String {
    format!("s_getreg_b32 s{dst}, hwreg({what})\n")
}

/// s_getreg / s_setreg on MODE: the hwreg offset and size select a field; reserved bits are
/// protected (read as zero whatever is written); s_round_mode and s_denorm_mode write
/// MODE[3:0] and MODE[7:4]. The harness's kernels start with MODE = FLOAT_MODE 0xf0 |
/// DX10_CLAMP | IEEE = 0x3f0 (RDNA3-NOTES, "Wave launch state").
#[test]
fn mode_fields_through_getreg_and_setreg() {
    let body = [
        getreg(10, "HW_REG_MODE"),
        getreg(11, "HW_REG_MODE, 4, 4"),
        "s_mov_b32 s30, 0x6\n s_setreg_b32 hwreg(HW_REG_MODE, 2, 2), s30\n".into(),
        getreg(12, "HW_REG_MODE"),
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0xffffffff\n".into(),
        getreg(13, "HW_REG_MODE"),
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), 0\n".into(),
        getreg(14, "HW_REG_MODE, 0, 16"),
        "s_round_mode 0x9\n s_denorm_mode 0x3\n".into(),
        getreg(15, "HW_REG_MODE, 0, 8"),
        getreg(16, "HW_REG_MODE, 31, 1"),
        getreg(17, "HW_REG_MODE, 23, 1"),
        "s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x3f0\n".into(),
        getreg(18, "HW_REG_MODE"),
    ]
    .concat();
    let out = run_wave(&body, &[], false);
    let s = |r: usize| out.s[r - 10];
    assert_eq!(s(10), 0x3f0);
    assert_eq!(s(11), 0xf, "FP_DENORM");
    // Bits 3:2 (f64/f16 round mode) = 0b10 (toward -inf) from the low bits of s30.
    assert_eq!(s(12), 0x3f0 | 0x8);
    // Writable: 21:0, 23 and 27.
    assert_eq!(s(13), 0x003f_ffff | 1 << 23 | 1 << 27);
    assert_eq!(s(14), 0xfcff);
    assert_eq!(s(15), 0x39);
    assert_eq!((s(16), s(17)), (0, 1));
    assert_eq!(s(18), 0x3f0);
}

/// STATUS reads SCC, EXECZ and VCCZ of the wave and cannot be written by a user shader;
/// TRAPSTS is writable in its defined fields; IB_STS has no outstanding counters;
/// FLAT_SCRATCH reads zero without scratch and ignores writes; HW_ID2 names a compute
/// micro engine; SHADER_CYCLES is a 20-bit counter that advances (RDNA3-NOTES,
/// "STATUS register", "Traps", "Hardware internal registers", "FLAT_SCRATCH" and
/// "Time counters").
#[test]
fn status_trapsts_and_the_read_only_registers() {
    for wave64 in [false, true] {
        let (mov, exec, vcc) = if wave64 { ("s_mov_b64", "exec", "vcc") } else { ("s_mov_b32", "exec_lo", "vcc_lo") };
        let body = [
            format!("{mov} {vcc}, 0\n s_cmp_eq_u32 0, 0\n"),
            getreg(10, "HW_REG_STATUS, 0, 1"),
            getreg(11, "HW_REG_STATUS, 9, 2"),
            format!("{mov} {vcc}, 1\n {mov} {exec}, 0\n s_cmp_eq_u32 0, 1\n"),
            getreg(12, "HW_REG_STATUS, 0, 1"),
            getreg(13, "HW_REG_STATUS, 9, 2"),
            format!("{mov} {exec}, -1\n"),
            getreg(14, "HW_REG_STATUS"),
            "s_setreg_imm32_b32 hwreg(HW_REG_STATUS), 0xffffffff\n".into(),
            getreg(15, "HW_REG_STATUS"),
            "s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0xffffffff\n".into(),
            getreg(16, "HW_REG_TRAPSTS"),
            getreg(17, "HW_REG_IB_STS"),
            "s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO), 0x1234\n".into(),
            getreg(18, "HW_REG_FLAT_SCR_LO"),
            getreg(19, "HW_REG_FLAT_SCR_HI"),
            getreg(20, "HW_REG_HW_ID2, 8, 2"),
            getreg(21, "HW_REG_SHADER_CYCLES"),
            "s_nop 0\n s_nop 0\n".into(),
            getreg(22, "HW_REG_SHADER_CYCLES"),
            "s_setreg_imm32_b32 hwreg(HW_REG_SHADER_CYCLES), 0\n s_setreg_imm32_b32 hwreg(HW_REG_HW_ID1), 0xffff\n"
                .into(),
            getreg(23, "HW_REG_SHADER_CYCLES"),
        ]
        .concat();
        let out = run_wave(&body, &[], wave64);
        let s = |r: usize| out.s[r - 10];
        assert_eq!(s(10), 1, "STATUS.SCC set");
        assert_eq!(s(11), 0b10, "EXECZ 0, VCCZ 1");
        assert_eq!(s(12), 0, "STATUS.SCC clear");
        assert_eq!(s(13), 0b01, "EXECZ 1, VCCZ 0");
        // A one-wave group: VALID (16) only, plus SCC (0, clear here) and VCCZ (10, clear).
        assert_eq!(s(14) & !1, 1 << 16, "STATUS {:#x}", s(14));
        assert_eq!(s(15), s(14), "STATUS is read-only");
        assert_eq!(s(16), 0x1ff | 0x1f_fc00 | 1 << 28, "TRAPSTS fields");
        assert_eq!(s(17), 0);
        assert_eq!((s(18), s(19)), (0, 0));
        assert_eq!(s(20), 1);
        // s_getreg, s_nop, s_nop, s_getreg: three instructions later.
        assert_eq!(s(22).wrapping_sub(s(21)) & 0xf_ffff, 3);
        assert!(s(21) < 1 << 20 && s(22) < 1 << 20);
        assert_eq!(s(23).wrapping_sub(s(22)) & 0xf_ffff, 3, "SHADER_CYCLES is read-only");
    }
}

/// hwreg ids gfx11 does not define, and registers this model does not provide, raise the
/// illegal-instruction exception naming them instead of returning an invented value.
#[test]
fn unknown_hardware_registers_trap_by_name() {
    for (asm, msg) in [
        ("s_getreg_b32 s10, hwreg(9)", "hwreg 9 (not a gfx11 hardware register)"),
        ("s_setreg_b32 hwreg(40), s1", "s_setreg of hwreg 40"),
        ("s_getreg_b32 s10, hwreg(40)", "hwreg 40 (not a gfx11 hardware register)"),
        ("s_sendmsg_rtn_b32 s10, sendmsg(MSG_RTN_SAVE_WAVE)", "MSG_RTN_SAVE_WAVE"),
    ] {
        let r = try_run_wave(asm, &[], false).expect_err(asm);
        assert_eq!(r.kind, ReportKind::IllegalInstruction, "{asm}: {r}");
        assert!(r.summary.contains(msg) || r.details.contains(msg), "{asm}: {r}");
    }
}

/// s_sendmsg_rtn_b64 REALTIME (RDNA3-NOTES, "Time counters" and "Messages"): a 64-bit
/// free-running clock that does not go back; the _b32 form returns its low half.
#[test]
fn sendmsg_rtn_realtime_advances() {
    let out = run_wave(
        "
        s_sendmsg_rtn_b64 s[10:11], sendmsg(MSG_RTN_GET_REALTIME)
        s_waitcnt lgkmcnt(0)
        s_sendmsg_rtn_b64 s[12:13], sendmsg(MSG_RTN_GET_REALTIME)
        s_sendmsg_rtn_b32 s14, sendmsg(MSG_RTN_GET_REALTIME)
        s_waitcnt lgkmcnt(0)
        ",
        &[],
        false,
    );
    let t0 = out.s[0] as u64 | (out.s[1] as u64) << 32;
    let t1 = out.s[2] as u64 | (out.s[3] as u64) << 32;
    assert!(t1 >= t0, "{t0} then {t1}");
    assert!(out.s[4].wrapping_sub(t1 as u32) < 100_000_000, "low half of a later reading");
}

/// s_call_b64 saves the address of the next instruction and jumps like a branch
/// (RDNA3-NOTES, "Program counter and branches": relative to the next instruction);
/// s_rfe_b64 outside a trap handler jumps to the address in its source like s_setpc_b64
/// (RDNA3 pseudo-code: PRIV = 0, PC = S0).
#[test]
fn call_and_rfe_transfer_control() {
    let out = run_wave(
        "
        s_getpc_b64 s[30:31]
        s_call_b64 s[10:11], func
        s_mov_b32 s14, 1
        s_branch after
    func:
        s_mov_b32 s15, 2
        s_add_u32 s16, s10, 0
        s_setpc_b64 s[10:11]
    after:
        s_getpc_b64 s[20:21]
        s_add_u32 s20, s20, 16              // to 'target': s_add (4 bytes), s_rfe (4), s_mov (8)
        s_rfe_b64 s[20:21]
        s_mov_b32 s17, 0xbad
    target:
        s_mov_b32 s18, 3
        ",
        &[],
        false,
    );
    let s = |r: usize| out.s[r - 10];
    // The return address s_call_b64 saved in s[10:11], seen again inside the callee.
    let call_ret = out.s[0] as u64 | (out.s[1] as u64) << 32;
    assert_eq!(s(14), 1);
    assert_eq!(s(15), 2);
    assert_eq!(s(16), call_ret as u32);
    assert_eq!((s(17), s(18)), (0, 3));
    let out2 = run_wave("s_getpc_b64 s[10:11]\n s_call_b64 s[12:13], next\n next:\n", &[], false);
    let pc = out2.s[0] as u64 | (out2.s[1] as u64) << 32;
    let ret = out2.s[2] as u64 | (out2.s[3] as u64) << 32;
    assert_eq!(ret, pc + 4);
}

/// The SOPP opcodes without an effect in this model run as NOPs: s_trap without a trap
/// handler (RDNA3-NOTES, "Traps": trap_en == 0 turns s_trap into a NOP), the debug
/// branches (debug mode is never on), s_setkill 0, s_sethalt 0, s_wait_event, s_wakeup,
/// s_incperflevel / s_decperflevel and s_ttracedata(_imm).
#[test]
fn sopp_ops_without_an_effect_here() {
    let out = run_wave(
        "
        s_mov_b32 s10, 1
        s_trap 2
        s_cbranch_cdbgsys skip
        s_cbranch_cdbguser skip
        s_cbranch_cdbgsys_or_user skip
        s_cbranch_cdbgsys_and_user skip
        s_setkill 0
        s_sethalt 0
        s_wait_event 0
        s_wakeup
        s_incperflevel 1
        s_decperflevel 1
        s_ttracedata
        s_ttracedata_imm 5
        s_mov_b32 s11, 2
    skip:
        s_mov_b32 s12, 3
        ",
        &[],
        false,
    );
    assert_eq!(&out.s[..3], &[1, 2, 3]);
}

/// s_setkill 1 and s_endpgm_saved end the wave where they are: nothing after them runs
/// (the harness's stores never happen), and the dispatch completes without a fault.
#[test]
fn setkill_and_endpgm_saved_end_the_wave() {
    for stop in ["s_setkill 1", "s_endpgm_saved"] {
        let out = run_wave(&format!("s_mov_b32 s10, 1\n {stop}\n s_mov_b32 s11, 2"), &[], false);
        assert_eq!(out.v[0][0], 0xdead_beef, "{stop}: the wave ended before the stores");
    }
}

/// s_sethalt 1 (and s_sendmsghalt, after its message) halts the wave and nothing resumes
/// it: the dispatch hangs and the hang timeout reports it with the wave at that instruction.
#[test]
fn sethalt_halts_the_wave_until_the_hang_timeout() {
    for (asm, name) in [("s_sethalt 1", "s_sethalt"), ("s_sendmsghalt sendmsg(MSG_DEALLOC_VGPRS)", "s_sendmsghalt")] {
        let mut gpu = Gpu::with_timeout(Duration::from_millis(200));
        let code = gpu.kernel(&format!("{asm}\n s_endpgm"));
        let d = Dispatch::new(&code, &addr(0), [false; 3], [32, 1, 1]);
        let r = gpu.run(&d.ib([1, 1, 1], W32)).expect_err("a halted wave never ends");
        assert_eq!(r.kind, ReportKind::Hang, "{r}");
        assert!(r.details.contains(name), "{r}");
    }
}

/// RDNA3-NOTES, "Traps": with TRAP_EN set
/// (COMPUTE_PGM_RSRC2.TRAP_PRESENT) but no trap handler installed (TBA = 0), s_trap raises
/// a named illegal-instruction error rather than jumping anywhere (trap handlers
/// themselves: exec_trap.rs).
#[test]
fn s_trap_with_trap_en_but_no_handler_is_reported() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel("s_trap 1\n s_endpgm");
    let mut d = Dispatch::new(&code, &addr(0), [false; 3], [32, 1, 1]);
    d.rsrc2 |= 1 << 6;
    let r = gpu.run(&d.ib([1, 1, 1], W32)).expect_err("s_trap with TRAP_EN");
    assert_eq!(r.kind, ReportKind::IllegalInstruction, "{r}");
    assert!(r.to_string().contains("no trap handler installed (TBA = 0)"), "{r}");
}

/// RDNA3-NOTES, "M0" and "SGPR out-of-range behaviour": M0 is written
/// and read by SALU instructions; EXEC_LO and EXEC_HI are separate halves in wave64, and a
/// wave32 ignores EXEC_HI for execution.
#[test]
fn m0_and_exec_halves() {
    let out = run_wave(
        "
        s_mov_b32 m0, 0x1234
        s_add_u32 s10, m0, 1
        s_mov_b32 exec_hi, 0
        s_mov_b64 s[12:13], exec
        s_mov_b32 exec_lo, 0
        v_mov_b32 v4, 7                      // no lane runs
        s_mov_b32 exec_lo, -1
        s_mov_b32 s14, exec_hi
        ",
        &[],
        true,
    );
    assert_eq!(out.s[0], 0x1235);
    assert_eq!((out.s[2], out.s[3], out.s[4]), (u32::MAX, 0, 0));
    assert!(out.v.iter().all(|v| v[0] == 0));
    let out = run_wave(
        "
        s_mov_b32 exec_hi, 0
        v_mov_b32 v4, 7                      // wave32: EXEC_HI plays no part
        s_mov_b32 s10, exec_hi
        ",
        &[],
        false,
    );
    assert!(out.v.iter().all(|v| v[0] == 7));
    assert_eq!(out.s[0], 0);
}

/// RDNA3-NOTES, "SCC": s_max sets SCC to S0 >= S1 (so equal inputs set
/// it), s_min to S0 < S1 (the RDNA3 ISA's pseudocode for both).
#[test]
fn max_and_min_set_scc_as_the_isa_compares() {
    let out = run_wave(
        "
        s_max_u32 s10, 5, 5
        s_cselect_b32 s11, 1, 0
        s_max_i32 s12, -3, -3
        s_cselect_b32 s13, 1, 0
        s_max_u32 s14, 4, 5
        s_cselect_b32 s15, 1, 0
        s_min_u32 s16, 5, 5
        s_cselect_b32 s17, 1, 0
        s_min_i32 s18, -4, -3
        s_cselect_b32 s19, 1, 0
        ",
        &[],
        false,
    );
    assert_eq!(&out.s[..10], &[5, 1, -3i32 as u32, 1, 5, 0, 5, 0, -4i32 as u32, 1]);
}

/// A scalar tuple may run into VCC: SGPRs are read and written by number, s106 and s107
/// being VCC. Mesa 22.3's ACO puts a V# in s[104:107] (RADV's wave64
/// `subgroups.ballot_broadcast` shaders, and s[100:107] for 256 bits); LLVM has no such
/// register class, so the words are raw: `s_load_b128 s[104:107], s[4:5], 0x0` and
/// `s_load_b256 s[100:107], s[4:5], 0x0`.
#[test]
fn scalar_tuples_run_into_vcc() {
    for wave64 in [false, true] {
        let body = "
 .long 0xf4081a02, 0xf8000000
 s_waitcnt lgkmcnt(0)
 s_mov_b64 s[10:11], s[104:105]
 s_mov_b64 s[12:13], vcc
 .long 0xf40c1902, 0xf8000000
 s_waitcnt lgkmcnt(0)
 s_mov_b64 s[14:15], s[100:101]
 s_mov_b64 s[16:17], s[102:103]
 s_mov_b64 s[18:19], s[104:105]
 s_mov_b64 s[20:21], vcc
";
        let mem: Vec<u32> = (1..=8).map(|k| 0x1111 * k).collect();
        let e = WaveEnv { mem: mem.clone(), ..WaveEnv::default() };
        let (out, _) = run_wave_env(body, &[], wave64, &e);
        assert_eq!(out.s[..4], mem[..4], "s_load_b128 s[104:107] (wave64={wave64})");
        assert_eq!(out.s[4..12], mem[..], "s_load_b256 s[100:107] (wave64={wave64})");
    }
}
