//! Wave state and program flow: the memory counters and s_waitcnt*, the debug checker
//! (`SOFTNAVI_CHECK`: results used before their wait, S_CLAUSE and S_DELAY_ALU rules),
//! s_sendmsg / s_sendmsg_rtn, the hardware registers s_getreg reads, s_barrier and the
//! PC-relative instructions. Expected values come from RDNA3-NOTES and the
//! gfx11 register layouts named in each test, never from the executor.

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{addr, read_words, try_run_wave_env, write_words, Dispatch, Gpu, WaveEnv, WaveOut, W32, W64};
use gpu::{Config, Report, ReportKind};

/// A data buffer of 64 dwords (value = index) in s[4:5], 1 KiB of LDS, and the checker.
fn env(check: bool) -> WaveEnv {
    WaveEnv { mem: (0..64).collect(), lds: 1024, check, ..WaveEnv::default() }
}

fn run_on(body: &str, check: bool, wave64: bool) -> Result<WaveOut, Arc<Report>> {
    try_run_wave_env(body, &[], wave64, &env(check)).map(|(out, _)| out)
}

fn run(body: &str, check: bool) -> Result<WaveOut, Arc<Report>> {
    run_on(body, check, false)
}

/// The wave sizes a body runs in: both, unless it writes EXEC_LO alone or uses VOPD.
fn sizes(body: &str) -> &'static [bool] {
    if body.contains("exec_lo") || body.contains("v_dual") {
        &[false]
    } else {
        &[false, true]
    }
}

/// The checker accepts `body` (in wave32 and wave64); returns the wave32 result.
fn passes(body: &str) -> WaveOut {
    let mut out = None;
    for &wave64 in sizes(body) {
        let o = run_on(body, true, wave64)
            .unwrap_or_else(|r| panic!("the checker rejected (wave64 {wave64})\n{body}\n{r}"));
        out.get_or_insert(o);
    }
    out.unwrap()
}

/// The checker reports `body` as breaking a rule whose text contains `rule` and `why`
/// (in wave32 and wave64); without the checker the same program runs.
fn breaks(body: &str, rule: &str, why: &str) {
    for &wave64 in sizes(body) {
        let r = run_on(body, true, wave64).expect_err(body);
        assert_eq!(r.kind, ReportKind::Check, "{body}\n{r}");
        let text = format!("{}\n{}", r.summary, r.details);
        assert!(text.contains(rule) && text.contains(why), "{body}\nwanted {rule:?} / {why:?} in\n{r}");
        run_on(body, false, wave64).unwrap_or_else(|r| panic!("without the checker\n{body}\n{r}"));
    }
}

/// IB_STS fields (gfx10/11 `SQ_WAVE_IB_STS`): VM_CNT 3:0 + 23:22, EXP_CNT 6:4, LGKM_CNT
/// 11:8, VS_CNT 31:26. Returns [vm, vs, lgkm, exp].
fn ib_sts(x: u32) -> [u32; 4] {
    [(x & 0xf) | (x >> 22 & 3) << 4, x >> 26, x >> 8 & 0xf, x >> 4 & 7]
}

const DEP: &str = "Memory counters and s_waitcnt";
const CLAUSE: &str = "Instruction clauses";

/// RDNA3-NOTES, "Memory counters and s_waitcnt": VMcnt counts loads and atomics
/// with return, VScnt stores and atomics without return, LGKMcnt LDS, SMEM and messages
/// (s_sendmsg_rtn twice), and each s_waitcnt form lowers its counter to its value
/// (gfx11 s_waitcnt: vmcnt 15:10, lgkmcnt 9:4, expcnt 2:0). Read through IB_STS.
#[test]
fn seed001_counters_count_each_group_and_waits_retire_them() {
    let body = "
        v_mov_b32 v20, 0
        global_load_b32 v21, v20, s[4:5]
        global_load_b32 v22, v20, s[4:5] offset:4
        s_getreg_b32 s10, hwreg(HW_REG_IB_STS)
        global_store_b32 v20, v20, s[4:5] offset:8
        s_getreg_b32 s11, hwreg(HW_REG_IB_STS)
        ds_load_b32 v23, v20
        s_load_b32 s30, s[4:5], 0x0
        s_sendmsg_rtn_b32 s31, sendmsg(MSG_RTN_GET_REALTIME)
        s_getreg_b32 s12, hwreg(HW_REG_IB_STS)
        s_waitcnt vmcnt(1)
        s_getreg_b32 s13, hwreg(HW_REG_IB_STS)
        s_waitcnt_vscnt null, 0
        s_getreg_b32 s14, hwreg(HW_REG_IB_STS)
        s_waitcnt lgkmcnt(1)
        s_getreg_b32 s15, hwreg(HW_REG_IB_STS)
        global_atomic_add_u32 v24, v20, v20, s[4:5] glc
        global_atomic_add_u32 v20, v20, s[4:5]
        s_sendmsg sendmsg(MSG_INTERRUPT)
        s_getreg_b32 s16, hwreg(HW_REG_IB_STS)
        s_waitcnt_vmcnt null, 0
        s_waitcnt_lgkmcnt null, 0
        s_getreg_b32 s17, hwreg(HW_REG_IB_STS)
        s_wait_idle
        s_getreg_b32 s18, hwreg(HW_REG_IB_STS)
        s_waitcnt_depctr 0xfffe
        s_getreg_b32 s19, hwreg(HW_REG_IB_STS)
        s_waitcnt 0
    ";
    for check in [false, true] {
        let out = run(body, check).unwrap_or_else(|r| panic!("{r}"));
        let s = |r: usize| ib_sts(out.s[r - 10]);
        assert_eq!(s(10), [2, 0, 0, 0], "two global loads");
        assert_eq!(s(11), [2, 1, 0, 0], "a store");
        assert_eq!(s(12), [2, 1, 4, 0], "ds_load + s_load + s_sendmsg_rtn (2)");
        assert_eq!(s(13), [1, 1, 4, 0], "vmcnt(1)");
        assert_eq!(s(14), [1, 0, 4, 0], "s_waitcnt_vscnt null, 0");
        assert_eq!(s(15), [1, 0, 1, 0], "lgkmcnt(1)");
        assert_eq!(s(16), [2, 1, 2, 0], "atomic with return (VM), without (VS), s_sendmsg (LGKM)");
        assert_eq!(s(17), [0, 1, 0, 0], "s_waitcnt_vmcnt / lgkmcnt");
        assert_eq!(s(18), [0, 0, 0, 0], "s_wait_idle");
        assert_eq!(s(19), [0, 0, 0, 0], "depctr");
    }
}

/// RDNA3-NOTES, "Memory counters and s_waitcnt": the counters have gfx11's widths (VMcnt 6
/// bits): 70 loads leave 63 outstanding, the issue of the others waited for the oldest.
#[test]
fn seed001_counters_saturate_at_their_width() {
    let loads: String = (0..70).map(|_| " global_load_b32 v21, v20, s[4:5]\n").collect();
    let body = format!(" v_mov_b32 v20, 0\n{loads} s_getreg_b32 s10, hwreg(HW_REG_IB_STS)\n s_waitcnt vmcnt(0)\n");
    let out = passes(&body);
    assert_eq!(ib_sts(out.s[0]), [63, 0, 0, 0]);
}

/// RDNA3-NOTES, "Memory counters and s_waitcnt": the checker reports a load's destination
/// read, or overwritten, before an s_waitcnt retired the load; the example of RDNA3-NOTES,
/// "Memory counters and s_waitcnt" (two loads, vmcnt(1), use of the first) passes, and so
/// do the values.
#[test]
fn seed001_checker_reports_results_used_before_their_wait() {
    // The notes' example.
    let out = passes(
        "
        v_mov_b32 v20, 0
        global_load_b32 v21, v20, s[4:5] offset:8
        global_load_b32 v22, v20, s[4:5] offset:12
        s_waitcnt vmcnt(1)
        v_mov_b32 v4, v21
        s_waitcnt vmcnt(0)
        v_mov_b32 v5, v22
    ",
    );
    assert_eq!((out.v[0][0], out.v[0][1]), (2, 3));
    breaks(
        "v_mov_b32 v20, 0\n global_load_b32 v21, v20, s[4:5]\n global_load_b32 v22, v20, s[4:5]\n s_waitcnt vmcnt(1)\n v_mov_b32 v4, v22\n s_waitcnt vmcnt(0)",
        DEP,
        "v22 is read",
    );
    breaks(
        "v_mov_b32 v20, 0\n global_load_b32 v21, v20, s[4:5]\n v_mov_b32 v21, 1\n s_waitcnt vmcnt(0)",
        DEP,
        "v21 is overwritten",
    );
    // A 64-bit load: both halves are pending; a VALU on the fast path reads the high one.
    breaks(
        "v_mov_b32 v20, 0\n global_load_b64 v[22:23], v20, s[4:5]\n v_add_nc_u32 v4, v23, v20\n s_waitcnt vmcnt(0)",
        DEP,
        "v23 is read",
    );
    // A write to lanes the load does not write (an if/else's other arm) does not race.
    passes("v_mov_b32 v20, 0\n s_mov_b32 s8, exec_lo\n s_mov_b32 exec_lo, 0xffff\n global_load_b32 v21, v20, s[4:5]\n s_not_b32 exec_lo, exec_lo\n v_mov_b32 v21, 1\n s_mov_b32 exec_lo, s8\n s_waitcnt vmcnt(0)");
    breaks(
        "v_mov_b32 v20, 0\n s_mov_b32 s8, exec_lo\n s_mov_b32 exec_lo, 0xffff\n global_load_b32 v21, v20, s[4:5]\n s_mov_b32 exec_lo, 0x1ffff\n v_mov_b32 v21, 1\n s_mov_b32 exec_lo, s8\n s_waitcnt vmcnt(0)",
        DEP,
        "v21 is overwritten",
    );
    // A load issued with EXEC = 0 writes no VGPR: its destination is free at once.
    passes("v_mov_b32 v20, 0\n s_mov_b32 s8, exec_lo\n s_mov_b32 exec_lo, 0\n global_load_b32 v21, v20, s[4:5]\n s_mov_b32 exec_lo, s8\n v_mov_b32 v21, 1\n s_waitcnt vmcnt(0)");
    // Loads on the same in-order counter may overwrite each other's destination.
    passes("v_mov_b32 v20, 0\n global_load_b32 v21, v20, s[4:5]\n global_load_b32 v21, v20, s[4:5] offset:4\n s_waitcnt vmcnt(0)\n v_mov_b32 v4, v21");
    // VOPD: both halves' operands are checked.
    breaks(
        "v_mov_b32 v20, 0\n global_load_b32 v21, v20, s[4:5]\n v_dual_mov_b32 v4, 1 :: v_dual_mov_b32 v5, v21\n s_waitcnt vmcnt(0)",
        DEP,
        "v21 is read",
    );
    // Stores read their data at issue: no wait before reusing it.
    passes("v_mov_b32 v20, 0\n global_store_b32 v20, v20, s[4:5]\n v_mov_b32 v20, 1\n s_waitcnt_vscnt null, 0");
}

/// RDNA3-NOTES, "Memory counters and s_waitcnt": SMEM loads return out of order, so only
/// lgkmcnt(0) surely retires one; LDS accesses return in order; s_sendmsg_rtn's result
/// needs its wait too.
#[test]
fn seed001_checker_lgkm_order_smem_lds_and_messages() {
    breaks(
        "s_load_b32 s30, s[4:5], 0x0\n s_load_b32 s31, s[4:5], 0x4\n s_waitcnt lgkmcnt(1)\n s_mov_b32 s10, s30\n s_waitcnt lgkmcnt(0)",
        DEP,
        "s30 is read",
    );
    let out = passes("s_load_b32 s30, s[4:5], 0x8\n s_load_b32 s31, s[4:5], 0x4\n s_waitcnt lgkmcnt(0)\n s_mov_b32 s10, s30\n s_mov_b32 s11, s31");
    assert_eq!((out.s[0], out.s[1]), (2, 1));
    // LDS in order: lgkmcnt(1) retires the older of two loads.
    passes("v_mov_b32 v20, 0\n ds_load_b32 v21, v20\n ds_load_b32 v22, v20\n s_waitcnt lgkmcnt(1)\n v_mov_b32 v4, v21\n s_waitcnt lgkmcnt(0)");
    breaks(
        "v_mov_b32 v20, 0\n ds_load_b32 v21, v20\n ds_load_b32 v22, v20\n s_waitcnt lgkmcnt(1)\n v_mov_b32 v4, v22\n s_waitcnt lgkmcnt(0)",
        DEP,
        "v22 is read",
    );
    // With an SMEM load younger than an LDS load, lgkmcnt(1) may leave the LDS load.
    breaks(
        "v_mov_b32 v20, 0\n ds_load_b32 v21, v20\n s_load_b32 s30, s[4:5], 0x0\n s_waitcnt lgkmcnt(1)\n v_mov_b32 v4, v21\n s_waitcnt lgkmcnt(0)",
        DEP,
        "v21 is read",
    );
    breaks(
        "s_sendmsg_rtn_b64 s[30:31], sendmsg(MSG_RTN_GET_REALTIME)\n s_mov_b32 s10, s31\n s_waitcnt lgkmcnt(0)",
        DEP,
        "s31 is read",
    );
}

/// RDNA3-NOTES, "Instruction clauses": clauses that follow the rules pass (one type, s_nop
/// inside but not first, groups of two or more with breaks from SIMM16[11:8]).
#[test]
fn seed001_clauses_that_follow_the_rules_pass() {
    for body in [
        "v_mov_b32 v20, 0\n s_clause 0x1\n global_load_b32 v21, v20, s[4:5]\n global_load_b32 v22, v20, s[4:5]\n s_waitcnt vmcnt(0)",
        "v_mov_b32 v20, 0\n s_clause 0x2\n global_load_b32 v21, v20, s[4:5]\n s_nop 0\n global_load_b32 v22, v20, s[4:5]\n s_waitcnt vmcnt(0)",
        "s_clause 0x203\n s_load_b32 s30, s[4:5], 0x0\n s_load_b32 s31, s[4:5], 0x0\n s_load_b32 s32, s[4:5], 0x0\n s_load_b32 s33, s[4:5], 0x0\n s_waitcnt lgkmcnt(0)",
        "s_delay_alu instid0(VALU_DEP_1)\n s_clause 0x1\n v_mov_b32 v4, 1\n v_mov_b32 v5, 2",
        "v_mov_b32 v20, 0\n s_clause 0x1\n ds_store_b32 v20, v20\n ds_load_b32 v21, v20\n s_waitcnt lgkmcnt(0)",
        // RDNA3-NOTES, "Instruction clauses": a VALU clause whose first instruction is
        // skipped (EXEC==0) does not start: what follows executes singly, so the SALU after
        // it is allowed.
        "s_mov_b32 exec_lo, 0\n s_clause 0x1\n v_mov_b32 v4, 1\n s_mov_b32 exec_lo, -1\n v_mov_b32 v5, 2",
    ] {
        passes(body);
    }
}

/// RDNA3-NOTES, "Instruction clauses": each rule a clause can break is reported with the
/// rule named.
#[test]
fn seed001_clauses_that_break_the_rules_are_reported() {
    let l = "global_load_b32 v21, v20, s[4:5]";
    for (body, why) in [
        (format!("s_clause 0x1\n {l}\n global_store_b32 v20, v20, s[4:5]"), "one type"),
        (format!("s_clause 0x1\n {l}\n v_mov_b32 v4, 0"), "one type"),
        (format!("s_clause 0x2\n {l}\n s_mov_b32 s0, 0\n {l}"), "s_mov_b32 is not allowed inside"),
        (format!("s_clause 0x2\n {l}\n s_waitcnt vmcnt(0)\n {l}"), "s_waitcnt is not allowed inside"),
        (format!("s_clause 0x2\n {l}\n s_sendmsg sendmsg(MSG_INTERRUPT)\n {l}"), "s_sendmsg is not allowed inside"),
        (format!("s_clause 0x2\n {l}\n s_clause 0x1\n {l}"), "s_clause is not allowed inside"),
        (format!("s_clause 0x2\n {l}\n s_branch 0\n {l}"), "s_branch is not allowed inside"),
        (format!("s_clause 0x1\n s_nop 0\n {l}\n {l}"), "s_nop may be inside a clause but not first"),
        (format!("s_clause 0x1\n s_delay_alu instid0(VALU_DEP_1)\n {l}\n {l}"), "immediately after s_clause"),
        (
            "s_clause 0x2\n v_mov_b32 v4, 0\n s_delay_alu instid0(VALU_DEP_1)\n v_mov_b32 v5, 0".into(),
            "s_delay_alu inside a VALU clause",
        ),
        // Length 5 with a break every 2: the last group has one instruction.
        (format!("s_clause 0x204\n {l}\n {l}\n {l}\n {l}\n {l}"), "at least two"),
        // A group of two whose second instruction is an s_nop.
        (format!("s_clause 0x203\n {l}\n s_nop 0\n {l}\n {l}"), "at least two"),
        (format!("s_clause 0x0\n {l}"), "a clause of one instruction"),
    ] {
        let body = format!(" v_mov_b32 v20, 0\n{body}\n s_waitcnt vmcnt(0)");
        breaks(&body, CLAUSE, why);
    }
}

/// RDNA3-NOTES, "ALU delay hints": InstID0 [3:0], Skip [6:4], InstID1 [10:7];
/// IDs above 11, skips above 5 and bits 15:11 are not defined. LLVM's forms pass.
#[test]
fn seed001_delay_alu_encoding_is_checked() {
    passes(
        "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_3)\n\
         s_delay_alu instid0(TRANS32_DEP_3) | instskip(SKIP_4) | instid1(VALU_DEP_4)\n\
         s_delay_alu instid0(FMA_ACCUM_CYCLE_1)",
    );
    for (word, why) in [
        (0xbf87_000cu32, "instid0 12 is reserved"),
        (0xbf87_0060, "instskip 6 is reserved"),
        (0xbf87_0600, "instid1 12 is reserved"),
        (0xbf87_0800, "bits 15:11"),
    ] {
        breaks(&format!(".long {word:#x}"), "ALU delay hints", why);
    }
}

/// Compiles an OpenCL kernel `k` with `clang-19 -O2` for gfx1100 and returns its code (the
/// instructions between its label and its end) and its user SGPR count (the kernarg
/// pointer in s[0:1], TGID_X after the user SGPRs).
fn llvm_kernel(cl: &str) -> (String, u32) {
    let dir = common::scratch_dir("cl");
    std::fs::write(dir.join("k.cl"), cl).unwrap();
    common::run_tool(
        std::process::Command::new("clang-19")
            .args([
                "-x",
                "cl",
                "-cl-std=CL2.0",
                "-nogpulib",
                "-target",
                "amdgcn-amd-amdhsa",
                "-mcpu=gfx1100",
                "-O2",
                "-S",
            ])
            .arg("-o")
            .arg(dir.join("k.s"))
            .arg(dir.join("k.cl")),
    );
    let asm = std::fs::read_to_string(dir.join("k.s")).unwrap();
    let code: String = asm
        .lines()
        .skip_while(|l| !l.starts_with("k:"))
        .skip(1)
        .take_while(|l| !l.contains(".Lfunc_end") && !l.trim_start().starts_with(".section"))
        // Instructions and branch labels; no directives or comments.
        .map(|l| l.split(';').next().unwrap_or("").trim())
        .filter(|t| !t.is_empty() && (!t.starts_with('.') || t.starts_with(".LBB")))
        .map(|t| format!("{t}\n"))
        .collect();
    let user_sgprs = asm
        .lines()
        .find_map(|l| l.trim().strip_prefix(".amdhsa_user_sgpr_count "))
        .and_then(|v| v.trim().parse().ok())
        .expect("user SGPR count");
    (code, user_sgprs)
}

/// Runs LLVM-compiled `code` on `gpu` (a device with the debug checker on): `groups` groups of 64 work-items
/// (wave32: two waves each), `kernarg` dwords in memory, `lds` bytes.
fn run_llvm_checked(gpu: &mut Gpu, code: &str, user_sgprs: u32, kernarg: &[u32], groups: u32, lds: u32) {
    let ka = gpu.buffer(kernarg);
    let mut user = vec![0u32; user_sgprs as usize];
    user[..2].copy_from_slice(&addr(ka.va()));
    let kernel = gpu.kernel(code);
    let d = Dispatch::new(&kernel, &user, [true, false, false], [64, 1, 1]).lds(lds);
    gpu.run(&d.ib([groups, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}\n{code}"));
}

/// LLVM 19's own code (`clang-19 -O2` of OpenCL kernels) runs under the checker and
/// computes what the host computes: global loads, LDS, a barrier, s_delay_alu and
/// MSG_DEALLOC_VGPRS before s_endpgm in one; an SMEM s_clause, a loop with vmcnt(2) /
/// vmcnt(1) waits and branches in the other.
#[test]
fn llvm_compiled_kernels_pass_the_checker() {
    let (code, user) = llvm_kernel(
        "
        __kernel void k(__global const int *in, __global int *out) {
            __local int tmp[64];
            int l = __builtin_amdgcn_workitem_id_x();
            int g = __builtin_amdgcn_workgroup_id_x();
            int i = g * 64 + l;
            int a = in[i];
            tmp[l] = a * 3;
            __builtin_amdgcn_fence(__ATOMIC_RELEASE, \"workgroup\");
            __builtin_amdgcn_s_barrier();
            __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, \"workgroup\");
            out[i] = tmp[l ^ 33] + in[i ^ 1] + a;
        }",
    );
    assert!(code.contains("s_delay_alu") && code.contains("s_barrier"), "{code}");
    let mut gpu = Gpu::with_config(Config {
        threads: 2,
        hang_timeout: Duration::from_secs(5),
        memory_size: 256 << 20,
        check: true,
        ..Config::default()
    });
    let n = 256usize;
    let input: Vec<u32> = (0..n as u32).map(|i| i * 7 + 1).collect();
    let inb = gpu.buffer(&input);
    let out = gpu.alloc(4 * n as u64);
    run_llvm_checked(&mut gpu, &code, user, &[addr(inb.va()), addr(out.va())].concat(), 4, 256);
    let got = read_words(&out, 0, n);
    for i in 0..n {
        let (g, l) = (i / 64, i % 64);
        let want = input[g * 64 + (l ^ 33)].wrapping_mul(3).wrapping_add(input[i ^ 1]).wrapping_add(input[i]);
        assert_eq!(got[i], want, "item {i}");
    }

    let (code, user) = llvm_kernel(
        "
        __kernel void k(__global const int *a, __global const int *b, __global const int *c,
                        __global int *out, int n) {
            int i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
            int s = 0;
            for (int j = 0; j < n; j++)
                s += a[i] * j + b[(i + j) & 255] + c[i ^ j];
            out[i] = s;
        }",
    );
    assert!(code.contains("s_clause") && code.contains("vmcnt(1)"), "{code}");
    let (a, b, c): (Vec<u32>, Vec<u32>, Vec<u32>) =
        (0..n as u32).map(|i| (i + 3, i * 5 + 1, i ^ 0x55)).fold((vec![], vec![], vec![]), |mut v, (x, y, z)| {
            v.0.push(x);
            v.1.push(y);
            v.2.push(z);
            v
        });
    let (ab, bb, cb) = (gpu.buffer(&a), gpu.buffer(&b), gpu.buffer(&c));
    let out = gpu.alloc(4 * n as u64);
    let iters = 5u32;
    let kernarg = [addr(ab.va()), addr(bb.va()), addr(cb.va()), addr(out.va()), [iters, 0]].concat();
    run_llvm_checked(&mut gpu, &code, user, &kernarg, 4, 0);
    let got = read_words(&out, 0, n);
    for i in 0..n {
        let want = (0..iters as usize).fold(0u32, |s, j| {
            s.wrapping_add(a[i].wrapping_mul(j as u32)).wrapping_add(b[(i + j) & 255]).wrapping_add(c[i ^ j])
        });
        assert_eq!(got[i], want, "item {i}");
    }
}

/// RDNA3-NOTES, "Messages": after MSG_DEALLOC_VGPRS the wave may only end;
/// a later VGPR use (VALU, or memory with VGPR operands) is an illegal instruction with that
/// reason, while SALU and s_endpgm are fine.
#[test]
fn seed001_dealloc_vgprs_then_only_the_end() {
    for check in [false, true] {
        for body in ["v_mov_b32 v4, 1", "v_add_f32 v4, v4, v4", "v_mov_b32 v20, 0\n global_load_b32 v21, v20, s[4:5]"] {
            let body = format!("s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n s_mov_b32 s10, 1\n {body}");
            let r = run(&body, check).expect_err(&body);
            assert_eq!(r.kind, ReportKind::IllegalInstruction, "{r}");
            assert!(r.summary.contains("MSG_DEALLOC_VGPRS"), "{r}");
        }
    }
    // Through a dispatch: DEALLOC_VGPRS, SALU, s_endpgm.
    let mut gpu = Gpu::new();
    let code = gpu.kernel("s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)\n s_mov_b32 s0, 1\n s_endpgm");
    let d = Dispatch::new(&code, &addr(0), [false; 3], [64, 1, 1]);
    gpu.run(&d.ib([2, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
}

/// RDNA3-NOTES, "Messages": every gfx11 message id (LLVM's names for gfx1100), the
/// S_SENDMSG_RTN results (TMA and TBA from the VMID's trap registers; REALTIME a 64-bit
/// 100 MHz clock; doorbell and DDID 0 here), graphics-only and context-save messages
/// rejected by name, and reserved ids an illegal instruction.
#[test]
fn seed001_messages() {
    let mut e = env(false);
    e.vmid.tba = 0x1234_5678_9a00;
    e.vmid.tma = 0x0000_7654_3210_0100;
    let body = "
        s_sendmsg_rtn_b64 s[10:11], sendmsg(MSG_RTN_GET_TMA)
        s_sendmsg_rtn_b64 s[12:13], sendmsg(MSG_RTN_GET_TBA)
        s_sendmsg_rtn_b32 s14, sendmsg(MSG_RTN_GET_TMA)
        s_sendmsg_rtn_b32 s15, sendmsg(MSG_RTN_GET_DOORBELL)
        s_sendmsg_rtn_b32 s16, sendmsg(MSG_RTN_GET_DDID)
        s_sendmsg_rtn_b64 s[18:19], sendmsg(MSG_RTN_GET_REALTIME)
        s_sleep 2
        s_sendmsg_rtn_b64 s[20:21], sendmsg(MSG_RTN_GET_REALTIME)
        s_mov_b32 m0, 0x55
        s_sendmsg sendmsg(MSG_INTERRUPT)
        s_waitcnt lgkmcnt(0)
    ";
    let (out, _) = try_run_wave_env(body, &[], false, &e).unwrap_or_else(|r| panic!("{r}"));
    let s64 = |r: usize| out.s[r - 10] as u64 | (out.s[r - 9] as u64) << 32;
    // TMA and TBA come back shifted right by 8 (what ROCm's gfx11 trap handler expects).
    assert_eq!(s64(10), e.vmid.tma >> 8);
    assert_eq!(s64(12), e.vmid.tba >> 8);
    assert_eq!(out.s[4], (e.vmid.tma >> 8) as u32);
    assert_eq!((out.s[5], out.s[6]), (0, 0));
    assert!(s64(20) >= s64(18) && s64(20) - s64(18) < 100_000_000, "REALTIME {} then {}", s64(18), s64(20));
    for (asm, why) in [
        ("s_sendmsg sendmsg(MSG_HS_TESSFACTOR)", "graphics-pipeline message"),
        ("s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)", "graphics-pipeline message"),
        ("s_sendmsg sendmsg(MSG_STALL_WAVE_GEN)", "MSG_STALL_WAVE_GEN"),
        ("s_sendmsg sendmsg(MSG_HALT_WAVES)", "MSG_HALT_WAVES"),
        ("s_sendmsg sendmsg(0, 0, 0)", "message id 0, which gfx11 reserves"),
        ("s_sendmsg sendmsg(4, 0, 0)", "message id 4, which gfx11 reserves"),
        ("s_sendmsg sendmsg(131, 0, 0)", "message id 131, which gfx11 reserves"),
        ("s_sendmsg_rtn_b32 s10, sendmsg(MSG_RTN_SAVE_WAVE)", "MSG_RTN_SAVE_WAVE"),
        ("s_sendmsg_rtn_b32 s10, sendmsg(MSG_RTN_GET_TBA_TO_PC)", "MSG_RTN_GET_TBA_TO_PC"),
        ("s_sendmsg_rtn_b32 s10, sendmsg(135, 0, 0)", "message id 135, which gfx11 reserves"),
        ("s_sendmsg_rtn_b32 s10, sendmsg(MSG_INTERRUPT)", "message id 1, which gfx11 reserves"),
    ] {
        let r = run(asm, false).expect_err(asm);
        assert_eq!(r.kind, ReportKind::IllegalInstruction, "{asm}: {r}");
        assert!(r.summary.contains(why), "{asm}: {r}");
    }
}

/// RDNA3-NOTES, "Hardware internal registers" and "Time counters": HW_ID1
/// (gfx11 WAVE_ID 4:0, SIMD_ID 9:8, WGP_ID 13:10, SA_ID 16, SE_ID 20:18) differs between
/// the waves of a group and stays in its fields; HW_ID2 names micro engine 1; GPR_ALLOC's
/// VGPR_SIZE (17:12) is the allocation in 4-VGPR units minus one; LDS_ALLOC's LDS_SIZE
/// (20:12) the group's LDS in 1 KiB granules; SH_MEM_BASES the VMID's register;
/// SHADER_CYCLES a 20-bit counter that advances; writes to them are ignored.
#[test]
fn seed000_hardware_registers_read_by_s_getreg() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        s_getreg_b32 s4, hwreg(HW_REG_HW_ID1)
        s_getreg_b32 s5, hwreg(HW_REG_HW_ID2)
        s_getreg_b32 s6, hwreg(HW_REG_GPR_ALLOC)
        s_getreg_b32 s7, hwreg(HW_REG_LDS_ALLOC)
        s_getreg_b32 s8, hwreg(HW_REG_SH_MEM_BASES)
        s_getreg_b32 s9, hwreg(HW_REG_SHADER_CYCLES)
        s_nop 0
        s_getreg_b32 s10, hwreg(HW_REG_SHADER_CYCLES)
        s_setreg_imm32_b32 hwreg(HW_REG_HW_ID1), 0
        s_setreg_imm32_b32 hwreg(HW_REG_GPR_ALLOC), 0
        s_setreg_imm32_b32 hwreg(HW_REG_LDS_ALLOC), 0
        s_setreg_imm32_b32 hwreg(HW_REG_SH_MEM_BASES), 0
        s_getreg_b32 s11, hwreg(HW_REG_HW_ID1)
        s_getreg_b32 s12, hwreg(HW_REG_GPR_ALLOC)
        s_getreg_b32 s13, hwreg(HW_REG_LDS_ALLOC)
        s_getreg_b32 s14, hwreg(HW_REG_SH_MEM_BASES)
        s_getreg_b32 s15, hwreg(HW_REG_PERF_SNAPSHOT_DATA)
        v_and_b32 v1, 0x3ff, v0
        v_lshrrev_b32 v1, 5, v1            // wave index in the group
        v_lshlrev_b32 v1, 6, v1            // 16 dwords per wave
        v_mov_b32 v2, s4
        v_mov_b32 v3, s5
        v_mov_b32 v4, s6
        v_mov_b32 v5, s7
        v_mov_b32 v6, s8
        v_mov_b32 v7, s9
        v_mov_b32 v8, s10
        v_mov_b32 v9, s11
        v_mov_b32 v10, s12
        v_mov_b32 v11, s13
        v_mov_b32 v12, s14
        v_mov_b32 v13, s15
        global_store_b128 v1, v[2:5], s[0:1]
        global_store_b128 v1, v[6:9], s[0:1] offset:16
        global_store_b128 v1, v[10:13], s[0:1] offset:32
        s_endpgm
    ",
    );
    let out = gpu.alloc(4 * 16 * 4);
    // 4 waves of 32; RSRC1.VGPRS 4 → 5 × 8 = 40 VGPRs, allocated in 24s: 48; 3 KiB of LDS.
    let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [128, 1, 1]).lds(3 * 1024);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 4 * 16);
    let mut ids = Vec::new();
    for w in 0..4 {
        let r = &got[w * 16..w * 16 + 16];
        let id1 = r[0];
        assert_eq!(id1 & !(0x1f | 3 << 8 | 0xf << 10 | 1 << 16 | 7 << 18), 0, "HW_ID1 {id1:#x} has only its fields");
        assert!(id1 >> 18 & 7 < 6, "six SEs");
        ids.push(id1 & (0x1f | 3 << 8));
        assert_eq!(r[1] >> 8 & 3, 1, "HW_ID2.ME_ID");
        assert_eq!(r[2] >> 12 & 0x3f, 48 / 4 - 1, "GPR_ALLOC.VGPR_SIZE {:#x}", r[2]);
        assert_eq!(r[3] >> 12 & 0x1ff, 3, "LDS_ALLOC.LDS_SIZE {:#x}", r[3]);
        assert_eq!(r[4], gpu::spi::VmidRegs::default().sh_mem_bases);
        assert_eq!(r[5] >> 20, 0, "20-bit counter");
        assert_eq!(r[6].wrapping_sub(r[5]) & 0xf_ffff, 2, "SHADER_CYCLES advances");
        assert_eq!((r[7], r[8], r[9], r[10]), (id1, r[2], r[3], r[4]), "read-only registers ignore writes");
        assert_eq!(r[11], 0, "no performance snapshot taken");
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 4, "each wave has its own SIMD / wave slot: {ids:x?}");
}

/// RDNA3-NOTES, "Workgroups and barriers": a single-wave workgroup treats
/// s_barrier as s_nop; in a multi-wave group a wave that ends early satisfies the barrier
/// the others reach (checked here under the debug checker, 4 waves of wave32 and wave64
/// where the odd waves end at once).
#[test]
fn seed001_barriers_single_wave_and_early_end() {
    let mut gpu = Gpu::with_config(Config {
        threads: 2,
        hang_timeout: Duration::from_secs(3),
        memory_size: 256 << 20,
        check: true,
        ..Config::default()
    });
    for (lanes, initiator) in [(32u32, W32), (64, W64)] {
        let src = format!(
            "
            v_and_b32 v1, 0x3ff, v0
            v_readfirstlane_b32 s4, v1
            s_lshr_b32 s4, s4, {shift}       // wave index
            s_bitcmp1_b32 s4, 0
            s_cbranch_scc1 done
            s_barrier
            s_barrier
            v_lshlrev_b32 v2, 2, v1
            v_mov_b32 v3, 1
            global_store_b32 v2, v3, s[0:1]
        done:
            s_endpgm
            ",
            shift = lanes.trailing_zeros()
        );
        let code = gpu.kernel(&src);
        for waves in [1u32, 4] {
            let n = waves * lanes;
            let out = gpu.alloc(4 * n as u64);
            write_words(&out, 0, &vec![0; n as usize]);
            let d = Dispatch::new(&code, &addr(out.va()), [false; 3], [n, 1, 1]);
            gpu.run(&d.ib([2, 1, 1], initiator)).unwrap_or_else(|r| panic!("wave{lanes} x{waves}: {r}"));
            let got = read_words(&out, 0, n as usize);
            for t in 0..n {
                assert_eq!(got[t as usize], (t / lanes % 2 == 0) as u32, "wave{lanes} x{waves} item {t}");
            }
        }
    }
}

/// RDNA3-NOTES, "Program counter and branches": s_setpc_b64 jumps to an absolute byte
/// address; s_swappc_b64 saves the address of the instruction after it and jumps; both
/// take the address from an even-aligned SGPR pair.
#[test]
fn seed000_setpc_and_swappc() {
    let body = "
        s_getpc_b64 s[30:31]                 // address of the next instruction (+4)
        s_add_u32 s30, s30, 20               // → target, 20 bytes after s_getpc's result
        s_addc_u32 s31, s31, 0
        s_swappc_b64 s[12:13], s[30:31]
        s_mov_b32 s10, 1                     // skipped
        s_mov_b32 s11, 2                     // skipped
    target:
        s_getpc_b64 s[14:15]
        s_add_u32 s16, s14, 16               // the s_mov s19 below
        s_addc_u32 s17, s15, 0
        s_setpc_b64 s[16:17]
        s_mov_b32 s18, 3                     // skipped
        s_mov_b32 s19, 4
    ";
    let out = passes(body);
    let s64 = |r: usize| out.s[r - 10] as u64 | (out.s[r - 9] as u64) << 32;
    assert_eq!((out.s[0], out.s[1]), (0, 0), "s_swappc jumped over them");
    // s_swappc's return address is the s_mov after it: the target minus 8; the target's
    // s_getpc returns target + 4.
    assert_eq!(s64(12) + 8 + 4, s64(14));
    assert_eq!((out.s[8], out.s[9]), (0, 4), "s_setpc skipped one");
}

/// RDNA3-NOTES, "Memory counters and s_waitcnt": a load does not read its (unused) data
/// field and a store does not write its (unused) vdst field, so neither is
/// "a use before the wait" of v0 while a load into v0 is outstanding. LLVM encodes v0 in
/// both (`global_load_u8 v1, v[4:5], off`, `scratch_store_b16 off, v6, off`).
#[test]
fn seed001_loads_do_not_read_their_data_field() {
    let body = "
        v_mov_b32 v20, 0
        global_load_b32 v0, v20, s[4:5]
        global_load_b32 v1, v20, s[4:5] offset:4
        buffer_load_b32 v2, v20, s[8:11], 0 offen
        v_mov_b32 v21, 33
        global_store_b32 v20, v21, s[4:5] offset:8
        buffer_store_b32 v21, v20, s[8:11], 0 offen offset:12
        s_waitcnt vmcnt(0)
        v_mov_b32 v4, v0
        v_mov_b32 v5, v1
    ";
    let mut e = env(true);
    e.mem = vec![11, 22];
    let (out, _) = try_run_wave_env(
        &format!("s_mov_b64 s[8:9], s[4:5]\ns_mov_b32 s10, 8\ns_mov_b32 s11, 0x30016fac\n{body}"),
        &[],
        false,
        &e,
    )
    .unwrap_or_else(|r| panic!("{r}"));
    assert_eq!((out.v[0][0], out.v[0][1]), (11, 22));
}

/// The opcode table's `nop` and `wait` rows (`isa/table.rs`, `Kind::Nop`, `Kind::Wait`),
/// which the interpreter and the translation tier both read, leave the wave as it was
/// (with no memory outstanding a wait has nothing to wait for): a program with one of
/// them between ALU instructions ends as the program without it. With
/// `SOFTNAVI_JIT=on` the translated code runs them too.
#[test]
fn table_nops_and_waits_leave_the_wave_as_it_was() {
    use gpu::isa::table::{Kind, Ty, F, OPS};
    let around = |op: &str| {
        format!(
            "v_add_nc_u32 v4, v0, 3\ns_mov_b32 s10, 5\ns_cmp_eq_u32 s10, 5\n{op}\n\
             v_mul_lo_u32 v5, v4, v1\ns_cselect_b32 s11, s10, 9\nv_cmp_gt_u32 vcc_lo, v0, 7\n\
             v_cndmask_b32 v6, v4, v5, vcc_lo"
        )
    };
    let inputs: Vec<[u32; 4]> = (0..32).map(|l| [l, 3 * l + 1, 0, 0]).collect();
    let want = common::run_wave(&around(""), &inputs, false);
    let mut seen = 0;
    for info in OPS.iter().filter(|i| matches!(i.kind, Kind::Nop | Kind::Wait) && i.flags & F::X != 0) {
        let text = match info.ty {
            _ if info.flags & F::BRANCH != 0 => format!("{} l\nl:", info.name),
            [Ty::N, Ty::Imm16, ..] => format!("{} 0", info.name),
            [Ty::B32, Ty::Imm16, ..] => format!("{} null, 0", info.name),
            _ => info.name.to_string(),
        };
        let got = common::run_wave(&around(&text), &inputs, false);
        assert_eq!(
            (got.v, got.s, got.vcc, got.exec, got.scc),
            (want.v.clone(), want.s, want.vcc, want.exec, want.scc),
            "{text}"
        );
        seen += 1;
    }
    assert!(seen >= 25, "only {seen} nop and wait rows");
}
