//! Rules of docs/RDNA3-NOTES.md (the digest of the seed notes, the specification of record)
//! that the executor implements, one test per rule, each naming its section. The
//! kernels are hand-written (llvm-mc-19) because compilers never emit most of these forms.

mod common;

use common::{addr, read_words, write_words, Dispatch, Gpu, W32, W64};

/// Runs a one-lane wave32 kernel: `body` leaves its results in s10.., which are stored to
/// a buffer and returned (`n` of them). s[0:1] holds the buffer address.
fn scalar_results(body: &str, n: usize) -> Vec<u32> {
    let mut src = String::from(body);
    for k in 0..n {
        src += &format!("\n v_mov_b32 v1, s{}\n v_mov_b32 v2, {}\n global_store_b32 v2, v1, s[0:1]", 10 + k, 4 * k);
    }
    src += "\n s_endpgm\n";
    let mut gpu = Gpu::new();
    let code = gpu.kernel(&src);
    let out = gpu.alloc(4 * n as u64);
    write_words(&out, 0, &vec![0xdead_beef; n]);
    let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [1, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    read_words(&out, 0, n)
}

/// RDNA3-NOTES, "NULL": reading NULL returns zero, writing it discards
/// the data, and an SALU instruction with NULL as destination still updates SCC.
#[test]
fn null_reads_zero_discards_writes_and_still_sets_scc() {
    let r = scalar_results(
        "
        s_mov_b32 s10, 77
        s_mov_b32 null, 5
        s_mov_b32 s10, null
        s_add_u32 null, -1, 1          // carry out: SCC = 1
        s_cselect_b32 s11, 1, 2
        s_and_b32 null, 0xf0, 0x0f     // result 0: SCC = 0
        s_cselect_b32 s12, 1, 2
        ",
        3,
    );
    assert_eq!(r, [0, 1, 2]);
}

/// RDNA3-NOTES, "SGPR out-of-range behaviour": outside the trap handler
/// TTMPs read as zero, writes to them are ignored, and an SALU instruction whose TTMP write
/// fails does not update SCC either.
#[test]
fn ttmp_registers_are_privileged() {
    let r = scalar_results(
        "
        s_mov_b32 ttmp0, 7
        s_mov_b32 s10, ttmp0
        s_cmp_eq_u32 0, 0              // SCC = 1
        s_and_b32 ttmp1, 0, 0          // would set SCC = 0, but the write fails
        s_cselect_b32 s11, 1, 2
        s_cmp_eq_u32 0, 1              // SCC = 0
        s_or_b32 ttmp2, 1, 1           // would set SCC = 1
        s_cselect_b32 s12, 1, 2
        ",
        3,
    );
    assert_eq!(r, [0, 1, 2]);
}

/// RDNA3-NOTES, "SGPR alignment": the hardware enforces the alignment
/// of 64-bit SGPR operands by ignoring the LSB of the register number.
#[test]
fn misaligned_sgpr_pairs_ignore_the_low_bit() {
    // s_mov_b64 with SDST = 11 and SSRC0 = 13 (both odd; llvm-mc refuses to assemble it).
    let mov_b64_s11_s13 = 0xbe80_0000u32 | 11 << 16 | 0x01 << 8 | 13;
    let r = scalar_results(
        &format!(
            "
            s_mov_b32 s10, 0
            s_mov_b32 s11, 0
            s_mov_b32 s12, 0x1111
            s_mov_b32 s13, 0x2222
            .long {mov_b64_s11_s13:#x}    // = s_mov_b64 s[10:11], s[12:13]
            "
        ),
        4,
    );
    assert_eq!(r, [0x1111, 0x2222, 0x1111, 0x2222]);
}

/// RDNA3-NOTES, "SCC": compares set it to the result, arithmetic to the
/// carry (or borrow), logical operations to "result != 0", moves leave it alone.
#[test]
fn scc_follows_the_instruction_class() {
    let r = scalar_results(
        "
        s_cmp_lt_u32 1, 2
        s_cselect_b32 s10, 1, 0        // compare true
        s_add_u32 s20, -1, 1
        s_cselect_b32 s11, 1, 0        // carry
        s_sub_u32 s20, 0, 1
        s_cselect_b32 s12, 1, 0        // borrow
        s_add_u32 s20, 1, 1
        s_cselect_b32 s13, 1, 0        // no carry
        s_and_b32 s20, 0xf0, 0x0f
        s_cselect_b32 s14, 1, 0        // logical result 0
        s_cmp_eq_u32 0, 0              // SCC = 1
        s_mov_b32 s20, 0
        s_cselect_b32 s15, 1, 0        // a move leaves SCC = 1
        ",
        6,
    );
    assert_eq!(r, [1, 1, 1, 0, 0, 1]);
}

/// RDNA3-NOTES, "VCC and VCCZ" and "EXEC mask": VCCZ and EXECZ summarise
/// the masks of the current wave size, so a wave32 ignores VCC_HI and EXEC_HI.
#[test]
fn vccz_and_execz_use_the_low_half_in_wave32() {
    let r = scalar_results(
        "
        s_mov_b32 s10, 0
        s_mov_b32 s11, 0
        s_mov_b32 vcc_lo, 0
        s_mov_b32 vcc_hi, 1
        s_cbranch_vccz 1
        s_mov_b32 s10, 2               // skipped when VCCZ is set
        s_mov_b32 s12, exec_lo
        s_mov_b32 exec_hi, -1
        s_mov_b32 exec_lo, 0
        s_cbranch_execz 1
        s_mov_b32 s11, 2               // skipped when EXECZ is set
        s_mov_b32 exec_lo, s12
        ",
        2,
    );
    assert_eq!(r, [0, 0]);
}

/// RDNA3-NOTES, "Program counter and branches": a branch goes to the instruction
/// after it plus SIMM16 dwords, and s_getpc_b64 returns the address of the next
/// instruction.
#[test]
fn branches_and_getpc_are_relative_to_the_next_instruction() {
    let mut gpu = Gpu::new();
    // s_getpc_b64 is the first instruction (4 bytes): it returns entry + 4.
    let code = gpu.kernel(
        "
        s_getpc_b64 s[10:11]
        s_branch 1
        s_mov_b32 s10, 0               // skipped
        v_mov_b32 v1, s10
        v_mov_b32 v2, 0
        global_store_b32 v2, v1, s[0:1]
        s_endpgm
        ",
    );
    let out = gpu.alloc(4);
    let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [1, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    assert_eq!(read_words(&out, 0, 1)[0], (code.va() + 4) as u32);
}

/// RDNA3-NOTES, "LDS alignment and out-of-range behaviour": an out-of-range
/// LDS write is dropped, a read returns zero, and a multi-dword read that is partly out of
/// range returns zero for the whole instruction.
#[test]
fn lds_out_of_range_reads_zero_and_drops_writes() {
    let mut gpu = Gpu::new();
    // 1024 bytes of LDS. Write 0x11 at 1020 and 0x22 at 1024 (out of range), then read
    // both back, and read 8 bytes at 1020 (half out of range).
    let code = gpu.kernel(
        "
        v_mov_b32 v1, 1020
        v_mov_b32 v2, 0x11
        v_mov_b32 v3, 0x22
        ds_store_b32 v1, v2
        ds_store_b32 v1, v3 offset:4
        s_waitcnt lgkmcnt(0)
        ds_load_b32 v4, v1
        ds_load_b32 v5, v1 offset:4
        v_mov_b32 v6, 0x33
        v_mov_b32 v7, 0x44
        ds_load_b64 v[6:7], v1
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v8, 0
        global_store_b32 v8, v4, s[0:1]
        global_store_b32 v8, v5, s[0:1] offset:4
        global_store_b64 v8, v[6:7], s[0:1] offset:8
        s_endpgm
        ",
    );
    let out = gpu.alloc(16);
    write_words(&out, 0, &[0xdead_beef; 4]);
    let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [1, 1, 1]).lds(1024);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    assert_eq!(read_words(&out, 0, 4), [0x11, 0, 0, 0]);
}

/// RDNA3-NOTES, "Wave32 and wave64": both passes of a wave64 instruction
/// read the state from before it, and the high half uses the next SGPR (VCC_HI) for its
/// carry in and out. v_add_co_ci_u32 with VCC as carry in and carry out: each lane's carry
/// out must equal its own carry in (0xffffffff + 0 + c carries exactly when c = 1).
#[test]
fn wave64_halves_read_the_pre_instruction_state() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        s_mov_b32 vcc_lo, 0x55555555
        s_mov_b32 vcc_hi, 0xaaaaaaaa
        v_mov_b32 v1, -1
        v_mov_b32 v2, 0
        // The VOP2 encoding is the same in both wave sizes; llvm-mc assembles in wave32
        // syntax, and the wave64 dispatch makes the operand the whole VCC.
        v_add_co_ci_u32 v1, vcc_lo, v1, v2, vcc_lo
        v_lshlrev_b32 v3, 2, v0
        global_store_b32 v3, v1, s[0:1]
        v_mov_b32 v4, 0
        v_mov_b32 v5, vcc_lo
        v_mov_b32 v6, vcc_hi
        global_store_b32 v4, v5, s[0:1] offset:256
        global_store_b32 v4, v6, s[0:1] offset:260
        s_endpgm
        ",
    );
    let out = gpu.alloc(264);
    let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [64, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W64)).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 66);
    let vcc_in = 0xaaaa_aaaa_5555_5555u64;
    for (l, &v) in got[..64].iter().enumerate() {
        let carry = vcc_in >> l & 1 == 1;
        assert_eq!(v, if carry { 0 } else { u32::MAX }, "lane {l}");
    }
    assert_eq!(got[64..66], [0x5555_5555, 0xaaaa_aaaa], "carry out = carry in, both halves");
}

/// RDNA3-NOTES, "Instruction skipping when EXEC is zero": a V_CMP that writes an
/// SGPR executes even when EXEC is zero, and writes zeros for the inactive lanes.
#[test]
fn v_cmp_writes_its_mask_even_with_exec_zero() {
    let r = scalar_results(
        "
        s_mov_b32 vcc_lo, -1
        s_mov_b32 s20, exec_lo
        s_mov_b32 exec_lo, 0
        v_cmp_eq_u32 vcc_lo, v0, v0
        s_mov_b32 exec_lo, s20
        s_mov_b32 s10, vcc_lo
        ",
        1,
    );
    assert_eq!(r, [0]);
}

/// RDNA3-NOTES, "Workgroups and barriers": a workgroup of a single wave treats
/// s_barrier as s_nop (it has no barrier resources); RDNA3-NOTES, "Wave launch state",
/// gives EXEC the lanes of work-items that exist.
#[test]
fn single_wave_groups_pass_barriers_and_exec_covers_existing_lanes() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        s_barrier
        s_barrier
        v_mov_b32 v1, exec_lo
        v_mov_b32 v2, 0
        global_store_b32 v2, v1, s[0:1]
        s_endpgm
        ",
    );
    let out = gpu.alloc(4);
    let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [20, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    assert_eq!(read_words(&out, 0, 1)[0], 0x000f_ffff, "20 work-items: EXEC = lanes 0..19");
}
