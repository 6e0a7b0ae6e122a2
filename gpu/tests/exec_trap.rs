//! Trap handlers: installation (TBA/TMA through `Device::set_trap_handler`), trap entry for
//! s_trap, exceptions (MEMVIOL, illegal instruction, MODE.EXCP_EN float exceptions), host
//! traps, trap on wave start / end and trap after instruction; s_rfe_b64; TTMP privilege;
//! privileged s_setreg. Expected values come from RDNA3-NOTES and the RDNA3 ISA guide's
//! layouts (TTMP0/1, TRAPSTS, STATUS), never from the executor.

mod common;

use std::time::{Duration, Instant};

use common::{addr, read_words, run_wave_env, try_run_wave_env, write_words, Dispatch, Gpu, WaveEnv, W32, W64};
use gpu::spi::{AlignMode, VmidRegs};
use gpu::ReportKind;

/// STATUS bits (gfx11 SQ_WAVE_STATUS).
const PRIV: u32 = 1 << 5;
const TRAP_EN: u32 = 1 << 6;
/// TRAPSTS bits (gfx11 SQ_WAVE_TRAPSTS).
const EXCP_INVALID: u32 = 1 << 0;
const EXCP_DENORM: u32 = 1 << 1;
const EXCP_DIV0: u32 = 1 << 2;
const EXCP_OVERFLOW: u32 = 1 << 3;
const EXCP_UNDERFLOW: u32 = 1 << 4;
const EXCP_INEXACT: u32 = 1 << 5;
const EXCP_MEMVIOL: u32 = 1 << 8;
const ILLEGAL_INST: u32 = 1 << 11;
const HOST_TRAP: u32 = 1 << 16;
const WAVESTART: u32 = 1 << 17;
const WAVE_END: u32 = 1 << 18;
const TRAP_AFTER_INST: u32 = 1 << 20;

/// The data buffer's layout for [`RECORDER`]: dword 0 counts the traps, dword 1 is how
/// many bytes to skip past an exception's PC; record `n` (8 dwords) starts at dword
/// `8 + 8 * n`: TTMP0, TTMP1, TRAPSTS, STATUS, TTMP12 on entry, MODE.
const REC: usize = 8;

/// A trap handler that records each trap through the TMA pointer (the data buffer) and
/// returns: after s_trap (trap id != 0) to the next instruction (PC + 4, as ROCm's handler
/// does), after an exception (trap id 0, HT 0) `mem[1]` bytes further, after a host trap
/// to the same PC. It keeps SCC (restored through s_setreg of STATUS.SCC, a privileged
/// write) and EXEC, uses only v245..v249 of the VGPRs and sets TTMP12 = 0xabc (TTMPs
/// survive between traps; the kernel cannot see or change them).
const RECORDER: &str = "
    s_getreg_b32 ttmp5, hwreg(HW_REG_STATUS)
    s_mov_b32 ttmp10, exec_lo
    s_mov_b32 ttmp11, exec_hi
    s_mov_b32 exec_lo, 1
    s_mov_b32 exec_hi, 0
    s_sendmsg_rtn_b64 ttmp[2:3], sendmsg(MSG_RTN_GET_TMA)
    s_waitcnt lgkmcnt(0)
    s_lshl_b64 ttmp[2:3], ttmp[2:3], 8
    s_load_b64 ttmp[6:7], ttmp[2:3], 0x0
    s_getreg_b32 ttmp4, hwreg(HW_REG_TRAPSTS)
    s_getreg_b32 ttmp9, hwreg(HW_REG_MODE)
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v245, ttmp6
    v_lshlrev_b32 v245, 5, v245
    v_add_nc_u32 v245, 32, v245
    v_mov_b32 v246, ttmp0
    v_mov_b32 v247, ttmp1
    v_mov_b32 v248, ttmp4
    v_mov_b32 v249, ttmp5
    global_store_b128 v245, v[246:249], ttmp[2:3]
    v_mov_b32 v246, ttmp12
    v_mov_b32 v247, ttmp9
    global_store_b64 v245, v[246:247], ttmp[2:3] offset:16
    v_add_nc_u32 v246, ttmp6, 1
    v_mov_b32 v245, 0
    global_store_b32 v245, v246, ttmp[2:3]
    s_mov_b32 ttmp12, 0xabc
    s_bfe_u32 ttmp8, ttmp1, 0x90010
    s_cmp_eq_u32 ttmp8, 0
    s_cselect_b32 ttmp9, ttmp7, 0
    s_bfe_u32 ttmp8, ttmp1, 0x80010
    s_cmp_eq_u32 ttmp8, 0
    s_cselect_b32 ttmp8, 0, 4
    s_add_u32 ttmp9, ttmp9, ttmp8
    s_and_b32 ttmp1, ttmp1, 0xffff
    s_add_u32 ttmp0, ttmp0, ttmp9
    s_addc_u32 ttmp1, ttmp1, 0
    s_mov_b32 exec_lo, ttmp10
    s_mov_b32 exec_hi, ttmp11
    s_setreg_b32 hwreg(HW_REG_STATUS, 0, 1), ttmp5
    s_rfe_b64 ttmp[0:1]
";

/// A recorded trap.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Rec {
    pc: u64,
    id: u32,
    ht: u32,
    trapsts: u32,
    status: u32,
    ttmp12: u32,
    mode: u32,
}

fn records(mem: &[u32]) -> Vec<Rec> {
    (0..mem[0] as usize)
        .map(|n| {
            let r = &mem[REC + REC * n..];
            Rec {
                pc: r[0] as u64 | ((r[1] & 0xffff) as u64) << 32,
                id: r[1] >> 16 & 0xff,
                ht: r[1] >> 24 & 1,
                trapsts: r[2],
                status: r[3],
                ttmp12: r[4],
                mode: r[5],
            }
        })
        .collect()
}

/// An environment with [`RECORDER`] installed, room for 8 records, and `skip` bytes past
/// an exception.
fn recorder_env(skip: u32) -> WaveEnv {
    let mut mem = vec![0u32; REC + 8 * REC + 16];
    mem[1] = skip;
    WaveEnv { mem, trap_handler: Some(RECORDER.into()), ..Default::default() }
}

/// RDNA3-NOTES, "Traps" and "Program counter and branches" (PC: s_trap saves its own PC):
/// s_trap with a handler installed (RDNA3-NOTES, "TBA and TMA") enters it with {TTMP1,
/// TTMP0} = {7'h0, HT = 0, trapID = simm16[7:0], PC[47:0]} and STATUS.PRIV set; s_rfe_b64
/// returns with PRIV clear and the kernel continues after the s_trap. Wave32 and wave64.
#[test]
fn s_trap_enters_the_handler_with_ttmp0_1_and_returns() {
    for wave64 in [false, true] {
        let (out, mem) = run_wave_env(
            "
            s_mov_b32 s10, 1
            s_getpc_b64 s[12:13]         // the address of the s_trap
            s_trap 0x1a5                 // trap id 0xa5 (simm16[7:0])
            s_mov_b32 s11, 2
            s_getreg_b32 s14, hwreg(HW_REG_STATUS)
            s_mov_b32 s15, ttmp0         // zero again outside the handler
            s_mov_b32 s16, ttmp12
            ",
            &[],
            wave64,
            &recorder_env(0),
        );
        let recs = records(&mem);
        assert_eq!(recs.len(), 1, "wave64={wave64}: {recs:?}");
        let r = recs[0];
        assert_eq!(r.pc, out.s[2] as u64 | (out.s[3] as u64) << 32, "TTMP0/1 PC = the s_trap's own");
        assert_eq!((r.id, r.ht), (0xa5, 0));
        assert_eq!(r.status & (PRIV | TRAP_EN), PRIV | TRAP_EN, "STATUS in the handler: {:#x}", r.status);
        assert_eq!(r.trapsts, 0, "s_trap sets no TRAPSTS bit");
        assert_eq!(r.ttmp12, 0);
        assert_eq!((out.s[0], out.s[1]), (1, 2), "the kernel continued after s_trap");
        assert_eq!(out.s[4] & (PRIV | TRAP_EN), TRAP_EN, "PRIV clear after s_rfe_b64");
        assert_eq!((out.s[5], out.s[6]), (0, 0), "TTMPs read zero in the kernel");
    }
}

/// RDNA3-NOTES, "SGPR out-of-range behaviour" (TTMP rules): in the handler (PRIV = 1) TTMPs
/// are written and read, and keep their values between traps; in the kernel a write is
/// ignored (the second trap still sees the handler's 0xabc), reads give zero, and an SALU
/// write to a TTMP leaves SCC alone. The handler keeps the kernel's SCC by a privileged
/// s_setreg of STATUS.SCC.
#[test]
fn ttmps_belong_to_the_trap_handler() {
    let (out, mem) = run_wave_env(
        "
        s_trap 1
        s_mov_b32 ttmp12, 0x555      // ignored
        s_cmp_eq_u32 0, 0            // SCC = 1
        s_and_b32 ttmp12, 0, 0       // would clear SCC; the write fails, SCC stays
        s_cselect_b32 s10, 1, 2
        s_mov_b32 s11, ttmp12
        s_cmp_eq_u32 0, 0            // SCC = 1 across the trap
        s_trap 2
        s_cselect_b32 s12, 1, 2
        s_cmp_eq_u32 0, 1            // SCC = 0 across the trap
        s_trap 3
        s_cselect_b32 s13, 1, 2
        ",
        &[],
        false,
        &recorder_env(0),
    );
    let recs = records(&mem);
    assert_eq!(recs.iter().map(|r| (r.id, r.ttmp12)).collect::<Vec<_>>(), [(1, 0), (2, 0xabc), (3, 0xabc)]);
    assert_eq!(&out.s[..4], &[1, 0, 1, 2]);
}

/// RDNA3-NOTES, "Exceptions": MEMVIOL cannot be masked: with a handler, a misaligned
/// global atomic (RDNA3-NOTES, "Memory alignment modes") enters it with TRAPSTS.EXCP[8]
/// (MEMVIOL), trap id 0 and the PC of the atomic; the handler skips the 8-byte instruction.
/// Without a handler it stays a device-lost MEMVIOL report.
#[test]
fn memviol_enters_the_handler() {
    let body = "
        v_mov_b32 v20, 2
        v_mov_b32 v21, 1
        s_getpc_b64 s[12:13]
        global_atomic_add_u32 v20, v21, s[4:5] offset:0x100
        s_mov_b32 s10, 7
        ";
    for wave64 in [false, true] {
        let mut env = recorder_env(8);
        env.vmid = VmidRegs::default().with_alignment(AlignMode::Strict);
        let (out, mem) = run_wave_env(body, &[], wave64, &env);
        let recs = records(&mem);
        assert_eq!(recs.len(), 1, "{recs:?}");
        assert_eq!(recs[0].pc, out.s[2] as u64 | (out.s[3] as u64) << 32);
        assert_eq!((recs[0].id, recs[0].ht), (0, 0));
        assert_eq!(recs[0].trapsts & 0x1ff, EXCP_MEMVIOL);
        assert_eq!(out.s[0], 7, "the handler skipped the atomic");
    }
    let env = WaveEnv { mem: vec![0; 128], ..Default::default() };
    let r = try_run_wave_env(body, &[], false, &env).expect_err("MEMVIOL without a handler");
    assert_eq!(r.kind, ReportKind::MemoryViolation, "{r}");
}

/// RDNA3-NOTES, "Exceptions": an illegal instruction cannot be masked: v_illegal
/// enters the handler with TRAPSTS.ILLEGAL_INST (bit 11) and its PC. An instruction
/// softnavi does not support stays a device-lost report even with a handler.
#[test]
fn illegal_instructions_enter_the_handler() {
    for wave64 in [false, true] {
        let (out, mem) = run_wave_env(
            "
            s_getpc_b64 s[12:13]
            v_illegal
            s_mov_b32 s10, 9
            ",
            &[],
            wave64,
            &recorder_env(4),
        );
        let recs = records(&mem);
        assert_eq!(recs.len(), 1, "{recs:?}");
        assert_eq!(recs[0].pc, out.s[2] as u64 | (out.s[3] as u64) << 32);
        assert_eq!(recs[0].trapsts & ILLEGAL_INST, ILLEGAL_INST);
        assert_eq!(out.s[0], 9);
    }
    let r = try_run_wave_env("s_sendmsg_rtn_b32 s10, sendmsg(MSG_RTN_SAVE_WAVE)", &[], false, &recorder_env(4))
        .expect_err("an unsupported message is a softnavi limit");
    assert!(r.to_string().contains("not supported"), "{r}");
}

/// RDNA3-NOTES, "Traps": with TRAP_PRESENT clear every trap is ignored, s_trap is
/// a NOP even with a handler installed, and v_illegal stays a fault report.
#[test]
fn without_trap_en_traps_are_ignored() {
    let mut env = recorder_env(0);
    env.trap_handler = None;
    let (out, mem) = run_wave_env("s_trap 3\n s_mov_b32 s10, 5", &[], false, &env);
    assert_eq!((mem[0], out.s[0]), (0, 5));
}

/// Decision (RDNA3-NOTES, "Traps" is silent on it): TRAP_EN = 1 (RSRC2.TRAP_PRESENT)
/// with no trap handler installed (TBA = 0): a trap is a fault report naming that.
#[test]
fn trap_en_without_a_handler_is_reported() {
    let env = WaveEnv { rsrc2_or: 1 << 6, ..Default::default() };
    let r = try_run_wave_env("s_trap 1", &[], false, &env).expect_err("no handler");
    assert_eq!(r.kind, ReportKind::IllegalInstruction, "{r}");
    assert!(r.to_string().contains("no trap handler installed (TBA = 0)"), "{r}");
}

/// `Device::set_trap_handler` (KFD's AMDKFD_IOC_SET_TRAP_HANDLER) refuses TBA / TMA that
/// are not 256-byte aligned (RDNA3-NOTES, "TBA and TMA": the SPI registers hold address
/// bits 47:8).
#[test]
fn trap_handler_addresses_are_256_byte_aligned() {
    let gpu = Gpu::new();
    assert!(gpu.dev.set_trap_handler(0x1_0040, 0).is_err());
    assert!(gpu.dev.set_trap_handler(0x1_0000, 0x1_0004).is_err());
    assert!(gpu.dev.set_trap_handler(0x1_0000, 0x2_0000).is_ok());
}

/// RDNA3-NOTES, "TBA and TMA" (MSG_RTN_GET_TBA): TBA and TMA are read-only and read with
/// s_sendmsg_rtn as the address shifted right by 8.
#[test]
fn tba_and_tma_read_with_sendmsg_rtn() {
    let env = recorder_env(0);
    let (out, mem) = run_wave_env(
        "
        s_sendmsg_rtn_b64 s[10:11], sendmsg(MSG_RTN_GET_TMA)
        s_sendmsg_rtn_b32 s12, sendmsg(MSG_RTN_GET_TBA)
        s_waitcnt lgkmcnt(0)
        s_lshl_b64 s[10:11], s[10:11], 8
        s_mov_b64 s[14:15], s[4:5]
        ",
        &[],
        false,
        &env,
    );
    assert_eq!((out.s[0], out.s[1]), (out.s[4], out.s[5]), "TMA = the data buffer");
    assert_ne!(out.s[2], 0);
    assert_eq!(mem[0], 0);
}

/// RDNA3-NOTES, "Exceptions": float exceptions accumulate in
/// TRAPSTS.EXCP (sticky) and an enabled one enters the handler, after the instruction
/// (its result is written; the PC saved is the next instruction's).
#[test]
fn float_exceptions_with_excp_en() {
    // EXCP_EN = divide by zero only (MODE bit 14): the invalid and inexact ones before do
    // not trap but stick in TRAPSTS.
    for wave64 in [false, true] {
        let (out, mem) = run_wave_env(
            "
            s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0
            v_mov_b32 v20, 0
            v_mov_b32 v21, 0x7f800000
            v_mul_f32 v4, v20, v21         // 0 * inf: invalid (NaN from non-NaN)
            v_mov_b32 v22, 3.0
            v_rcp_f32 v5, v22              // inexact: not detected for rcp (documented)
            v_add_f32 v6, 1.0, 0x33800000  // 1 + 2^-24: inexact
            s_getreg_b32 s10, hwreg(HW_REG_TRAPSTS)
            s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 9), 4
            s_getpc_b64 s[12:13]
            v_rcp_f32 v7, v20              // 1 / 0: divide by zero, traps
            s_mov_b32 s11, 1
            s_getreg_b32 s14, hwreg(HW_REG_TRAPSTS)
            ",
            &[],
            wave64,
            &recorder_env(0),
        );
        assert_eq!(out.s[0] & 0x3f, EXCP_INVALID | EXCP_INEXACT, "sticky bits before the trap");
        let recs = records(&mem);
        assert_eq!(recs.len(), 1, "{recs:?}");
        let pc = out.s[2] as u64 | (out.s[3] as u64) << 32;
        assert_eq!(recs[0].pc, pc + 4, "the instruction after the v_rcp_f32");
        assert_eq!(recs[0].trapsts & 0x3f, EXCP_INVALID | EXCP_INEXACT | EXCP_DIV0);
        assert_eq!(recs[0].mode >> 12 & 0x1ff, 4);
        assert_eq!(out.v[0][3], 0x7f80_0000, "the result was written");
        assert_eq!(out.s[1], 1);
    }
}

/// RDNA3-NOTES, "Exceptions" (EXCP bits, sticky): what the detection reports for each float
/// exception, read by a program that reads TRAPSTS (no EXCP_EN, no handler).
#[test]
fn float_exception_detection() {
    let cases: [(&str, u32); 16] = [
        ("v_add_f32 v4, 1.0, 2.0", 0),
        ("v_mul_f32 v4, 0x7f800000, 0", EXCP_INVALID),
        ("v_mov_b32 v20, 0xff800000\n v_add_f32 v4, 0x7f800000, v20", EXCP_INVALID),
        ("v_add_f32 v4, 0x7f800000, 1.0", 0),
        ("v_mul_f32 v4, 0x7f000000, 4.0", EXCP_OVERFLOW | EXCP_INEXACT),
        ("v_rcp_f32 v4, 0", EXCP_DIV0),
        ("v_log_f32 v4, 0", EXCP_DIV0),
        ("v_mul_f32 v4, 0x00800000, 0.5", EXCP_UNDERFLOW),
        ("v_add_f32 v4, 0x00000001, 0", EXCP_DENORM | EXCP_UNDERFLOW),
        ("v_fma_f32 v4, 0x3f800001, 0x3f800001, 0", EXCP_INEXACT),
        // An integer source (the bits of a denormal) is no float input.
        ("v_cvt_f32_ubyte0 v4, 5", 0),
        ("v_cvt_f32_u32 v4, 0x1000001", EXCP_INEXACT),
        // f64: 1 + 2^-53 rounds; 2^1023 * 4 overflows; 1 / 0; a denormal source.
        ("v_add_f64 v[4:5], 1.0, 0x3ca00000", EXCP_INEXACT),
        ("v_mul_f64 v[4:5], 0x7fe00000, 4.0", EXCP_OVERFLOW | EXCP_INEXACT),
        ("v_rcp_f64 v[4:5], 0", EXCP_DIV0),
        ("v_mov_b32 v20, 1\n v_mov_b32 v21, 0\n v_add_f64 v[4:5], v[20:21], 0", EXCP_DENORM | EXCP_UNDERFLOW),
    ];
    for (inst, want) in cases {
        let body =
            format!("s_setreg_imm32_b32 hwreg(HW_REG_TRAPSTS), 0\n {inst}\n s_getreg_b32 s10, hwreg(HW_REG_TRAPSTS)");
        let (out, _) = run_wave_env(&body, &[], false, &WaveEnv::default());
        assert_eq!(out.s[0] & 0x1ff, want, "{inst}");
    }
}

/// RDNA3-NOTES, "Wave launch state": RSRC2.EXCP_EN (bits 30:24) sets MODE.EXCP_EN at
/// launch: an enabled overflow traps from the first instruction on.
#[test]
fn rsrc2_excp_en_enables_float_traps_at_launch() {
    let mut env = recorder_env(0);
    env.rsrc2_or = 1 << (24 + 3); // overflow
    let (_, mem) = run_wave_env("v_mul_f32 v4, 0x7f000000, 4.0\n v_add_f32 v5, 1.0, 0x33800000", &[], false, &env);
    let recs = records(&mem);
    assert_eq!(recs.len(), 1, "{recs:?}");
    assert_eq!(recs[0].trapsts & 0x3f, EXCP_OVERFLOW | EXCP_INEXACT);
}

/// MODE.TRAP_AFTER_INST_EN (single step): with it set by s_setreg, every instruction that
/// starts with it set is followed by a trap with TRAPSTS.TRAP_AFTER_INST and the next instruction's PC; the
/// handler's own instructions are not (PRIV = 1), and clearing the bit stops it.
#[test]
fn trap_after_instruction() {
    let (_, mem) = run_wave_env(
        "
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 11, 1), 1
        s_nop 0
        s_nop 0
        s_setreg_imm32_b32 hwreg(HW_REG_MODE, 11, 1), 0
        s_nop 0
        ",
        &[],
        false,
        &recorder_env(0),
    );
    let recs = records(&mem);
    // The instructions that start with the bit set: both s_nops and the s_setreg that
    // clears it (not the one that sets it).
    assert_eq!(recs.len(), 3, "{recs:?}");
    assert!(recs.iter().all(|r| r.trapsts & TRAP_AFTER_INST != 0));
    assert_eq!(recs[1].pc, recs[0].pc + 4);
    assert_eq!(recs[2].pc, recs[1].pc + 8, "after the 8-byte s_setreg_imm32_b32");
}

/// RSRC3.TRAP_ON_START / TRAP_ON_END: the wave enters its handler before its first
/// instruction (TRAPSTS.WAVESTART, the entry PC) and at s_endpgm (TRAPSTS.WAVE_END, the
/// s_endpgm's PC); returning to the s_endpgm ends the wave. Ignored without TRAP_PRESENT.
#[test]
fn trap_on_wave_start_and_end() {
    let mut env = recorder_env(0);
    env.rsrc3 = 3 << 10;
    let (out, mem) = run_wave_env("s_mov_b32 s10, 3", &[], true, &env);
    let recs = records(&mem);
    assert_eq!(recs.len(), 2, "{recs:?}");
    assert_eq!(recs[0].trapsts & (WAVESTART | WAVE_END), WAVESTART);
    assert_eq!(recs[1].trapsts & (WAVESTART | WAVE_END), WAVESTART | WAVE_END);
    assert_eq!(recs[0].pc & 0xff, 0, "the kernel's entry (256-byte aligned)");
    assert_eq!(out.s[0], 3);
    env.trap_handler = None;
    let (out, mem) = run_wave_env("s_mov_b32 s10, 3", &[], false, &env);
    assert_eq!((mem[0], out.s[0]), (0, 3));
}

/// RDNA3-NOTES, "Traps": a host-initiated trap (`Device::host_trap`) makes running
/// waves enter the handler with HT = 1, trap id 0 and TRAPSTS.HOST_TRAP; here the handler
/// releases the wave, which spins until a flag in memory is set. Wave32 and wave64.
#[test]
fn host_trap_enters_the_handler_with_ht() {
    // The handler sets mem[2] = 1 (the flag the kernel waits for), then records as RECORDER.
    // A host trap can arrive while the kernel's load is outstanding: the handler waits for
    // it before using VGPRs, as real handlers do (and as SOFTNAVI_CHECK=1 insists).
    let handler = format!(
        "
        s_waitcnt vmcnt(0) lgkmcnt(0)
        s_sendmsg_rtn_b64 ttmp[2:3], sendmsg(MSG_RTN_GET_TMA)
        s_waitcnt lgkmcnt(0)
        s_lshl_b64 ttmp[2:3], ttmp[2:3], 8
        s_mov_b32 ttmp10, exec_lo
        s_mov_b32 exec_lo, 1
        v_mov_b32 v245, 8
        v_mov_b32 v246, 1
        global_store_b32 v245, v246, ttmp[2:3]
        s_mov_b32 exec_lo, ttmp10
        {RECORDER}"
    );
    for (wave64, init) in [(false, W32), (true, W64)] {
        let mut gpu = Gpu::new();
        let code = gpu.kernel_for(
            "
            v_mov_b32 v0, 0
            v_mov_b32 v1, 1
            s_mov_b32 exec_lo, 1
            s_mov_b32 exec_hi, 0
            global_store_b32 v0, v1, s[0:1] offset:12   // started
        wait:
            global_load_b32 v2, v0, s[0:1] offset:8 glc
            s_waitcnt vmcnt(0)
            v_readfirstlane_b32 s4, v2
            s_cmp_eq_u32 s4, 0
            s_cbranch_scc1 wait
            s_endpgm
            ",
            wave64,
        );
        let h = gpu.kernel_for(&handler, wave64);
        let mem = gpu.buffer(&[0; 64]);
        gpu.dev.set_trap_handler(h.va(), mem.va()).unwrap();
        let mut d = Dispatch::new(&code, &addr(mem.va()), [false; 3], [64, 1, 1]);
        d.rsrc2 |= 1 << 6;
        // The handler stores through v245/v246: allocate every VGPR (memory instructions
        // read v0 for an unallocated source VGPR).
        d.rsrc1 = common::RSRC1_ALL_VGPRS;
        let ib = gpu.ib(&d.ib([1, 1, 1], init));
        let seq = gpu.queue.submit(&[ib]).unwrap();
        // Once the wave has started, ask for a host trap.
        let start = Instant::now();
        while read_words(&mem, 12, 1)[0] != 1 {
            assert!(start.elapsed() < Duration::from_secs(10), "the wave did not start");
            std::thread::sleep(Duration::from_millis(1));
        }
        gpu.dev.host_trap();
        assert!(gpu.queue.wait(seq, Duration::from_secs(30)).unwrap_or_else(|r| panic!("{r}")));
        let words = read_words(&mem, 0, 64);
        let recs = records(&words);
        assert_eq!(recs.len(), 1, "wave64={wave64}: {recs:?}");
        assert_eq!((recs[0].id, recs[0].ht), (0, 1));
        assert_eq!(recs[0].trapsts & HOST_TRAP, HOST_TRAP);
        write_words(&mem, 0, &[0; 4]);
    }
}

/// Privileged s_setreg (RDNA3-NOTES, "STATUS register" and "FLAT_SCRATCH"): in the handler
/// FLAT_SCRATCH is writable, and writing STATUS.PRIV = 0 drops the privilege (TTMP writes
/// are then ignored). In the kernel both writes are ignored.
#[test]
fn privileged_setreg_in_the_handler() {
    let handler = "
        s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO), 0x12345600
        s_getreg_b32 ttmp4, hwreg(HW_REG_FLAT_SCR_LO)
        s_mov_b32 s20, ttmp4
        s_add_u32 ttmp0, ttmp0, 4
        s_addc_u32 ttmp1, ttmp1, 0
        s_and_b32 ttmp1, ttmp1, 0xffff
        s_mov_b64 s[22:23], ttmp[0:1]
        s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 5, 1), 0
        s_mov_b32 ttmp0, 0                // no longer privileged: ignored
        s_setpc_b64 s[22:23]              // back with ttmp0 untouched
    ";
    let env = WaveEnv { trap_handler: Some(handler.into()), ..Default::default() };
    let (out, _) = run_wave_env(
        "
        s_setreg_imm32_b32 hwreg(HW_REG_FLAT_SCR_LO), 0x777700
        s_getreg_b32 s10, hwreg(HW_REG_FLAT_SCR_LO)
        s_trap 1
        s_getreg_b32 s11, hwreg(HW_REG_FLAT_SCR_LO)
        s_getreg_b32 s12, hwreg(HW_REG_STATUS)
        ",
        &[],
        false,
        &env,
    );
    assert_eq!(out.s[0], 0, "FLAT_SCRATCH is read-only in the kernel");
    assert_eq!(out.s[10], 0x1234_5600, "written in the handler");
    assert_eq!(out.s[1], 0x1234_5600);
    assert_eq!(out.s[2] & PRIV, 0);
}

/// A fault inside the trap handler (PRIV = 1) cannot enter it again: a device-lost report.
#[test]
fn faults_in_the_handler_are_reported() {
    let env = WaveEnv { trap_handler: Some("v_illegal".into()), ..Default::default() };
    let r = try_run_wave_env("s_trap 1", &[], false, &env).expect_err("nested");
    assert_eq!(r.kind, ReportKind::IllegalInstruction, "{r}");
    assert!(r.to_string().contains("v_illegal"), "{r}");
}

/// RDNA3-NOTES, "Traps": without TRAP_EN a host trap
/// is ignored like every trap (the handler is installed but the dispatch has no
/// TRAP_PRESENT); the wave goes on until the host releases it.
#[test]
fn host_trap_without_trap_en_is_ignored() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        v_mov_b32 v0, 0
        v_mov_b32 v1, 1
        s_mov_b32 exec_lo, 1
        global_store_b32 v0, v1, s[0:1] offset:12
    wait:
        global_load_b32 v2, v0, s[0:1] offset:8 glc
        s_waitcnt vmcnt(0)
        v_readfirstlane_b32 s4, v2
        s_cmp_eq_u32 s4, 0
        s_cbranch_scc1 wait
        s_endpgm
        ",
    );
    let h = gpu.kernel(RECORDER);
    let mem = gpu.buffer(&[0; 64]);
    gpu.dev.set_trap_handler(h.va(), mem.va()).unwrap();
    let d = Dispatch::new(&code, &addr(mem.va()), [false; 3], [32, 1, 1]);
    let ib = gpu.ib(&d.ib([1, 1, 1], W32));
    let seq = gpu.queue.submit(&[ib]).unwrap();
    let start = Instant::now();
    while read_words(&mem, 12, 1)[0] != 1 {
        assert!(start.elapsed() < Duration::from_secs(10), "the wave did not start");
        std::thread::sleep(Duration::from_millis(1));
    }
    gpu.dev.host_trap();
    std::thread::sleep(Duration::from_millis(50));
    write_words(&mem, 8, &[1]);
    assert!(gpu.queue.wait(seq, Duration::from_secs(30)).unwrap_or_else(|r| panic!("{r}")));
    assert_eq!(read_words(&mem, 0, 1), [0], "no trap was taken");
}

/// RDNA3-NOTES, "STATUS register" (STATUS: some fields writable in the
/// trap handler): a handler that sets STATUS.HALT and returns leaves the wave halted (what
/// ROCm's handler does after an exception); nothing resumes it, so the dispatch hangs until
/// the hang timeout, like s_sethalt.
#[test]
fn a_handler_can_halt_the_wave() {
    let mut gpu = Gpu::with_timeout(Duration::from_millis(300));
    let code = gpu.kernel("s_trap 1\n s_endpgm");
    let h = gpu.kernel(
        "
        s_setreg_imm32_b32 hwreg(HW_REG_STATUS, 13, 1), 1
        s_and_b32 ttmp1, ttmp1, 0xffff
        s_rfe_b64 ttmp[0:1]
        ",
    );
    gpu.dev.set_trap_handler(h.va(), 0).unwrap();
    let mut d = Dispatch::new(&code, &[], [false; 3], [32, 1, 1]);
    d.rsrc2 |= 1 << 6;
    let r = gpu.run(&d.ib([1, 1, 1], W32)).expect_err("a halted wave never ends");
    assert_eq!(r.kind, ReportKind::Hang, "{r}");
}
