//! DPP16 / DPP8 and the cross-lane VALU ops. Expected values come from the definitions in
//! the RDNA3 ISA reference and LLVM's AMDGPUModifierSyntax (dpp16_ctrl, row_mask,
//! bank_mask, bound_ctrl, fi, dpp8, dpp_op_sel), written out here lane by lane.

// Lane loops index per-lane inputs and outputs by lane number.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{run_wave, try_run_wave};

/// v0 of lane l: distinct and non-zero.
fn data(l: usize) -> u32 {
    0x1000 + 0x11 * l as u32
}

/// Float results compare by bits, except that any NaN matches any NaN.
fn fbits(got: u32, want: f32) -> bool {
    got == want.to_bits() || (want.is_nan() && f32::from_bits(got).is_nan())
}

/// v1 of lane l: the "not written" marker destinations start with.
fn marker(l: usize) -> u32 {
    0xdead_0000 | l as u32
}

fn inputs(lanes: usize, v2: impl Fn(usize) -> u32, v3: impl Fn(usize) -> u32) -> Vec<[u32; 4]> {
    (0..lanes).map(|l| [data(l), marker(l), v2(l), v3(l)]).collect()
}

/// Sets EXEC to `exec` (the lanes of the wave).
fn set_exec(exec: u64, wave64: bool) -> String {
    if wave64 {
        format!("s_mov_b32 exec_lo, {:#x}\ns_mov_b32 exec_hi, {:#x}\n", exec as u32, (exec >> 32) as u32)
    } else {
        format!("s_mov_b32 exec_lo, {:#x}\n", exec as u32)
    }
}

#[derive(Clone, Copy, Debug)]
enum Ctrl {
    Quad([usize; 4]),
    Shl(usize),
    Shr(usize),
    Ror(usize),
    Mirror,
    HalfMirror,
    Share(usize),
    Xmask(usize),
}

impl Ctrl {
    fn asm(self) -> String {
        match self {
            Ctrl::Quad(q) => format!("quad_perm:[{},{},{},{}]", q[0], q[1], q[2], q[3]),
            Ctrl::Shl(k) => format!("row_shl:{k}"),
            Ctrl::Shr(k) => format!("row_shr:{k}"),
            Ctrl::Ror(k) => format!("row_ror:{k}"),
            Ctrl::Mirror => "row_mirror".into(),
            Ctrl::HalfMirror => "row_half_mirror".into(),
            Ctrl::Share(k) => format!("row_share:{k}"),
            Ctrl::Xmask(k) => format!("row_xmask:{k}"),
        }
    }

    /// The lane lane `l` reads, from the ISA's definition of each control; `None` when it
    /// is outside l's row of 16.
    fn source(self, l: usize) -> Option<usize> {
        let (row, i) = (l / 16 * 16, (l % 16) as isize);
        let in_row = |j: isize| (0..16).contains(&j).then(|| row + j as usize);
        match self {
            Ctrl::Quad(q) => Some(l / 4 * 4 + q[l % 4]),
            Ctrl::Shl(k) => in_row(i + k as isize),
            Ctrl::Shr(k) => in_row(i - k as isize),
            Ctrl::Ror(k) => in_row((i - k as isize).rem_euclid(16)),
            Ctrl::Mirror => in_row(15 - i),
            Ctrl::HalfMirror => Some(l / 8 * 8 + 7 - l % 8),
            Ctrl::Share(k) => in_row(k as isize),
            Ctrl::Xmask(k) => in_row(i ^ k as isize),
        }
    }
}

/// One DPP16 v_mov_b32 case.
#[derive(Clone, Copy, Debug)]
struct Mov {
    ctrl: Ctrl,
    row_mask: u32,
    bank_mask: u32,
    bound_ctrl: bool,
    fi: bool,
}

fn mov(ctrl: Ctrl) -> Mov {
    Mov { ctrl, row_mask: 0xf, bank_mask: 0xf, bound_ctrl: false, fi: false }
}

impl Mov {
    fn asm(&self, dst: usize) -> String {
        format!(
            "v_mov_b32_dpp v{dst}, v0 {} row_mask:{:#x} bank_mask:{:#x}{}{}\n",
            self.ctrl.asm(),
            self.row_mask,
            self.bank_mask,
            if self.bound_ctrl { " bound_ctrl:1" } else { "" },
            if self.fi { " fi:1" } else { "" }
        )
    }

    /// The source value lane `l` gets, or `None` when DPP leaves the lane unwritten.
    fn value(&self, l: usize, exec: u64) -> Option<u32> {
        let enabled = self.row_mask >> (l / 16) & 1 != 0 && self.bank_mask >> (l / 4 % 4) & 1 != 0;
        if exec >> l & 1 == 0 || !enabled {
            return None;
        }
        match self.ctrl.source(l) {
            Some(s) if self.fi || exec >> s & 1 != 0 => Some(data(s)),
            _ if self.bound_ctrl => Some(0),
            _ => None,
        }
    }
}

/// Runs up to 8 cases (results in v4..v11) under `exec` and checks every lane.
fn check_movs(cases: &[Mov], exec: u64, wave64: bool) {
    assert!(cases.len() <= 8);
    let lanes = if wave64 { 64 } else { 32 };
    let mut body: String = (4..12).map(|r| format!("v_mov_b32 v{r}, v1\n")).collect();
    body += &set_exec(exec, wave64);
    for (k, c) in cases.iter().enumerate() {
        body += &c.asm(4 + k);
    }
    let out = run_wave(&body, &inputs(lanes, |_| 0, |_| 0), wave64);
    for (k, c) in cases.iter().enumerate() {
        for l in 0..lanes {
            let want = c.value(l, exec).unwrap_or(marker(l));
            assert_eq!(out.v[l][k], want, "{} (exec {exec:#x}, wave{lanes}) lane {l}", c.asm(4 + k).trim());
        }
    }
}

fn all_controls() -> Vec<Ctrl> {
    let mut v =
        vec![Ctrl::Quad([0, 1, 2, 3]), Ctrl::Quad([3, 2, 1, 0]), Ctrl::Quad([1, 1, 0, 2]), Ctrl::Quad([2, 3, 3, 0])];
    for k in [1, 4, 15] {
        v.extend([Ctrl::Shl(k), Ctrl::Shr(k), Ctrl::Ror(k)]);
    }
    v.extend([Ctrl::Ror(8), Ctrl::Mirror, Ctrl::HalfMirror]);
    for k in [0, 5, 15] {
        v.extend([Ctrl::Share(k), Ctrl::Xmask(k)]);
    }
    v
}

/// Every dpp_ctrl family, full EXEC, with and without bound_ctrl (out-of-row sources give
/// 0 or leave the lane unwritten), in wave32 and wave64.
#[test]
fn dpp16_controls_permute_within_rows() {
    for wave64 in [false, true] {
        let exec = if wave64 { u64::MAX } else { u32::MAX as u64 };
        for bound_ctrl in [false, true] {
            let cases: Vec<Mov> = all_controls().into_iter().map(|c| Mov { bound_ctrl, ..mov(c) }).collect();
            for chunk in cases.chunks(8) {
                check_movs(chunk, exec, wave64);
            }
        }
    }
}

/// row_mask and bank_mask: lanes of a disabled row or bank are not written, and they do
/// not stop other lanes from reading them.
#[test]
fn dpp16_row_and_bank_masks_disable_writes() {
    for wave64 in [false, true] {
        let exec = if wave64 { u64::MAX } else { u32::MAX as u64 };
        let cases = [
            Mov { row_mask: 0x5, ..mov(Ctrl::Quad([1, 0, 3, 2])) },
            Mov { row_mask: 0xa, bank_mask: 0x3, ..mov(Ctrl::Mirror) },
            Mov { bank_mask: 0x6, bound_ctrl: true, ..mov(Ctrl::Shl(3)) },
            Mov { row_mask: 0x0, ..mov(Ctrl::Shr(1)) },
            Mov { bank_mask: 0x8, ..mov(Ctrl::Share(2)) },
            Mov { row_mask: 0x2, bank_mask: 0x9, ..mov(Ctrl::Xmask(6)) },
        ];
        check_movs(&cases, exec, wave64);
    }
}

/// EXEC holes: an inactive source lane is invalid unless fi:1 (then its value is read);
/// invalid sources give 0 with bound_ctrl:1 and leave the lane unwritten without it.
/// Inactive lanes are never written.
#[test]
fn dpp16_inactive_sources_follow_fi_and_bound_ctrl() {
    for (wave64, exec) in [(false, 0x5a5a_f00fu64), (false, 0xffff_7ffe), (true, 0x0ff0_a5a5_ffff_1234u64)] {
        let mut cases = Vec::new();
        for (bound_ctrl, fi) in [(false, false), (true, false), (false, true), (true, true)] {
            cases.push(Mov { bound_ctrl, fi, ..mov(Ctrl::Shr(1)) });
            cases.push(Mov { bound_ctrl, fi, ..mov(Ctrl::Quad([3, 3, 0, 1])) });
        }
        check_movs(&cases, exec, wave64);
    }
}

/// DPP8: lane l reads lane sel[l % 8] of its group of 8; an inactive source reads 0
/// unless fi:1 (AMDGPUModifierSyntax, "fi" for dpp8); no row or bank masks.
#[test]
fn dpp8_selects_within_groups_of_eight() {
    let sels = [[7, 6, 5, 4, 3, 2, 1, 0], [1, 1, 1, 1, 0, 0, 0, 0], [3, 0, 7, 2, 6, 1, 4, 5]];
    for (wave64, exec) in [(false, u32::MAX as u64), (false, 0x9696_0ff0), (true, 0xf00f_ffff_0000_5555u64)] {
        let lanes = if wave64 { 64 } else { 32 };
        let mut body: String = (4..12).map(|r| format!("v_mov_b32 v{r}, v1\n")).collect();
        body += &set_exec(exec, wave64);
        let mut cases = Vec::new();
        for sel in sels {
            for fi in [false, true] {
                let list: Vec<String> = sel.iter().map(|s| s.to_string()).collect();
                body += &format!(
                    "v_mov_b32_dpp v{}, v0 dpp8:[{}]{}\n",
                    4 + cases.len(),
                    list.join(","),
                    if fi { " fi:1" } else { "" }
                );
                cases.push((sel, fi));
            }
        }
        let out = run_wave(&body, &inputs(lanes, |_| 0, |_| 0), wave64);
        for (k, (sel, fi)) in cases.iter().enumerate() {
            for l in 0..lanes {
                let s = l / 8 * 8 + sel[l % 8];
                let want = match () {
                    _ if exec >> l & 1 == 0 => marker(l),
                    _ if *fi || exec >> s & 1 != 0 => data(s),
                    _ => 0,
                };
                assert_eq!(out.v[l][k], want, "dpp8 {sel:?} fi {fi} exec {exec:#x} lane {l}");
            }
        }
    }
}

/// A VOP2 DPP16 with its src0/src1 neg and abs bits, src1 and the destination naming the
/// same register as src0 (the permutation reads the state before the instruction), and
/// VOP3 DPP forms (three sources, DPP8).
#[test]
fn dpp_runs_the_instruction_with_the_permuted_source() {
    let f = [1.5f32, -2.25, 0.0, -0.0, f32::INFINITY, 3.0e38, -7.0, 1.0e-40];
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let fv = |l: usize| f[l % 8] * (1 + l / 8) as f32;
        let ins: Vec<[u32; 4]> =
            (0..lanes).map(|l| [fv(l).to_bits(), fv(l + 3).to_bits(), fv(l + 5).to_bits(), data(l)]).collect();
        let body = "
            v_add_f32_dpp v4, -v0, |v1| row_ror:3 row_mask:0xf bank_mask:0xf
            v_mov_b32 v5, v3
            v_add_nc_u32_dpp v5, v5, v5 row_shr:1 row_mask:0xf bank_mask:0xf bound_ctrl:1
            v_fma_f32_e64_dpp v6, v0, v1, v2 row_mirror row_mask:0xf bank_mask:0xf
            v_mul_f32_e64_dpp v7, v1, -v2 dpp8:[1,0,3,2,5,4,7,6]
            v_sub_f32_e64_dpp v8, |v0|, v1 quad_perm:[2,2,1,0] row_mask:0xf bank_mask:0xf
        ";
        let out = run_wave(body, &ins, wave64);
        let x = |l: usize, k: usize| f32::from_bits(ins[l][k]);
        for l in 0..lanes {
            let row = l / 16 * 16;
            let ror = row + (l % 16 + 13) % 16;
            assert!(fbits(out.v[l][0], -x(ror, 0) + x(l, 1).abs()), "v_add_f32_dpp lane {l}");
            let prev = if l % 16 == 0 { 0 } else { data(l - 1) };
            assert_eq!(out.v[l][1], prev.wrapping_add(data(l)), "v_add_nc_u32_dpp lane {l}");
            let m = row + 15 - l % 16;
            assert!(fbits(out.v[l][2], x(m, 0).mul_add(x(l, 1), x(l, 2))), "v_fma_f32_e64_dpp lane {l}");
            assert!(fbits(out.v[l][3], x(l ^ 1, 1) * -x(l, 2)), "v_mul_f32_e64_dpp lane {l}");
            let q = l / 4 * 4 + [2, 2, 1, 0][l % 4];
            assert!(fbits(out.v[l][4], x(q, 0).abs() - x(l, 1)), "v_sub_f32_e64_dpp lane {l}");
        }
    }
}

/// The mask-writing DPP forms: lanes DPP disables (row/bank mask, an out-of-row source
/// without bound_ctrl) are treated as inactive lanes: v_cmp and VOP3 v_cmp write 0 for
/// them, the carry-out of v_add_co_ci_u32 is 0 for them and their VGPR is not written;
/// v_cndmask_b32 with DPP selects between the permuted src0 and src1.
#[test]
fn dpp_mask_writers_treat_disabled_lanes_as_inactive() {
    for (wave64, exec) in [(false, 0xffff_fff7u64), (true, 0xffff_0fff_ffff_fffbu64)] {
        let lanes = if wave64 { 64 } else { 32 };
        let vcc = if wave64 { "vcc" } else { "vcc_lo" };
        let sdst = if wave64 { "s[10:11]" } else { "s10" };
        // v2: a threshold that makes about half of the compares true.
        let thr = |l: usize| data((l * 7) % lanes);
        let ins = inputs(lanes, thr, |l| if l % 3 == 0 { u32::MAX - 0x800 } else { 5 });
        let body = format!(
            "
            v_mov_b32 v4, v1
            v_mov_b32 v5, v1
            {exec}
            v_cmp_gt_u32_dpp {vcc}, v0, v2 row_shl:2 row_mask:0xf bank_mask:0xd
            v_cmp_lt_u32_e64_dpp {sdst}, v0, v2 row_shr:1 row_mask:0x5 bank_mask:0xf bound_ctrl:1
            v_cndmask_b32_dpp v5, v0, v3, {vcc} row_xmask:5 row_mask:0xf bank_mask:0xf
            v_add_co_ci_u32_dpp v4, {vcc}, v0, v3, {vcc} row_shl:1 row_mask:0xf bank_mask:0xf
            ",
            exec = set_exec(exec, wave64)
        );
        let out = run_wave(&body, &ins, wave64);
        let active = |l: usize| exec >> l & 1 != 0;
        // v_cmp_gt_u32_dpp: row_shl:2 without bound_ctrl, banks 0, 2, 3.
        let mut cmp1 = 0u64;
        for l in 0..lanes {
            let s = l + 2;
            let ok = active(l) && l / 4 % 4 != 1 && l % 16 < 14 && active(s);
            if ok && data(s) > thr(l) {
                cmp1 |= 1 << l;
            }
        }
        // VOP3 v_cmp_lt_u32_e64_dpp: row_shr:1, bound_ctrl (row starts read 0), rows 0 and 2.
        let mut cmp2 = 0u64;
        for l in 0..lanes {
            let src = if l % 16 == 0 || !active(l - 1) { 0 } else { data(l - 1) };
            if active(l) && (l / 16) % 2 == 0 && src < thr(l) {
                cmp2 |= 1 << l;
            }
        }
        let s10 = out.s[0] as u64 | if wave64 { (out.s[1] as u64) << 32 } else { 0 };
        assert_eq!(s10, cmp2, "v_cmp_lt_u32_e64_dpp mask");
        let mut carry = 0u64;
        for l in 0..lanes {
            let v3 = ins[l][3];
            // v_cndmask_b32_dpp reads VCC = cmp1.
            let x = l / 16 * 16 + ((l % 16) ^ 5);
            // Without bound_ctrl, an inactive source lane leaves the lane unwritten.
            let cnd = if !active(l) || !active(x) {
                marker(l)
            } else if cmp1 >> l & 1 != 0 {
                v3
            } else {
                data(x)
            };
            assert_eq!(out.v[l][1], cnd, "v_cndmask_b32_dpp lane {l}");
            // v_add_co_ci_u32_dpp: row_shl:1 without bound_ctrl; carry-in VCC = cmp1.
            let written = active(l) && l % 16 < 15 && active(l + 1);
            if written {
                let sum = data(l + 1) as u64 + v3 as u64 + (cmp1 >> l & 1);
                assert_eq!(out.v[l][0], sum as u32, "v_add_co_ci_u32_dpp lane {l}");
                if sum >> 32 != 0 {
                    carry |= 1 << l;
                }
            } else {
                assert_eq!(out.v[l][0], marker(l), "v_add_co_ci_u32_dpp lane {l} is not written");
            }
        }
        assert_eq!(out.vcc, carry, "carry-out mask (wave{lanes})");
        assert_eq!(out.exec, exec);
    }
}

/// v_cmpx with DPP: EXEC becomes the compare result of the lanes DPP enables, 0 for the
/// others (inactive before, or disabled by the row mask).
#[test]
fn dpp_cmpx_writes_exec_for_enabled_lanes() {
    for (wave64, exec) in [(false, 0xf7ff_ffffu64), (true, 0xffff_ffff_ff7f_ffffu64)] {
        let lanes = if wave64 { 64 } else { 32 };
        let ins = inputs(lanes, |l| data(l ^ 3), |_| 0);
        let body = format!(
            "{}v_cmpx_ge_u32_dpp v0, v2 quad_perm:[1,0,3,2] row_mask:0xb bank_mask:0xf fi:1\n",
            set_exec(exec, wave64)
        );
        let out = run_wave(&body, &ins, wave64);
        let mut want = 0u64;
        for l in 0..lanes {
            let s = l ^ 1;
            if exec >> l & 1 != 0 && (0xb >> (l / 16)) & 1 != 0 && data(s) >= data(l ^ 3) {
                want |= 1 << l;
            }
        }
        assert_eq!(out.exec, want, "wave{lanes}");
    }
}

/// DPP forms softnavi does not execute trap by name: a dpp_ctrl gfx11 dropped (wave_shl,
/// encoded by hand) and the M0-relative moves.
#[test]
fn unexecuted_dpp_forms_trap() {
    // v_mov_b32_dpp v1, v2 with dpp_ctrl 0x130 (GFX9 wave_shl:1).
    let r = try_run_wave(".long 0x7e0202fa, 0xff013002\n", &[[0; 4]; 32], false).unwrap_err();
    assert!(format!("{r}").contains("dpp_ctrl gfx11 does not have"), "{r}");
    let r =
        try_run_wave("v_movrels_b32_dpp v4, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf\n", &[[0; 4]; 32], false)
            .unwrap_err();
    assert!(format!("{r}").contains("v_movrels_b32 with DPP"), "{r}");
}

/// v_permlane16 / v_permlanex16: 4-bit lane selects from src1 (lanes 0-7 of a row) and
/// src2 (lanes 8-15); x16 reads the other row of each pair. op_sel[0] is fi, op_sel[1]
/// bound_ctrl (AMDGPUModifierSyntax, "dpp_op_sel"): an inactive source is read with fi,
/// gives 0 with bound_ctrl, and otherwise leaves the lane unwritten.
#[test]
fn permlane16_and_x16_select_lanes_by_sgpr_nibbles() {
    let (s1, s2) = (0x3f2a_5b10u32, 0x0c1d_e6f7u32);
    let sel = |l: usize| ((((s2 as u64) << 32 | s1 as u64) >> (4 * (l % 16))) & 15) as usize;
    for (wave64, exec) in [(false, u32::MAX as u64), (false, 0xfefe_7f7fu64), (true, 0x7fff_ffff_fffe_f0ffu64)] {
        let lanes = if wave64 { 64 } else { 32 };
        let mut body: String = (4..12).map(|r| format!("v_mov_b32 v{r}, v1\n")).collect();
        body += &format!("s_mov_b32 s30, {s1:#x}\ns_mov_b32 s31, {s2:#x}\n");
        body += &set_exec(exec, wave64);
        let opsels = [(false, false), (true, false), (false, true), (true, true)];
        for (k, (fi, bc)) in opsels.iter().enumerate() {
            let os = format!(" op_sel:[{},{}]", *fi as u32, *bc as u32);
            body += &format!("v_permlane16_b32 v{}, v0, s30, s31{os}\n", 4 + k);
            body += &format!("v_permlanex16_b32 v{}, v0, s30, s31{os}\n", 8 + k);
        }
        let out = run_wave(&body, &inputs(lanes, |_| 0, |_| 0), wave64);
        for (k, &(fi, bc)) in opsels.iter().enumerate() {
            for (x, reg) in [(false, 4 + k), (true, 8 + k)] {
                for l in 0..lanes {
                    let row = if x { ((l / 16) ^ 1) * 16 } else { l / 16 * 16 };
                    let s = row + sel(l);
                    let want = match () {
                        _ if exec >> l & 1 == 0 => marker(l),
                        _ if fi || exec >> s & 1 != 0 => data(s),
                        _ if bc => 0,
                        _ => marker(l),
                    };
                    assert_eq!(out.v[l][reg - 4], want, "permlane x16={x} fi={fi} bc={bc} exec {exec:#x} lane {l}");
                }
            }
        }
    }
}

/// v_permlane64_b32 swaps the halves of a wave64, reading inactive lanes too; in wave32 it
/// does nothing (RDNA3 ISA, V_PERMLANE64_B32).
#[test]
fn permlane64_swaps_wave64_halves() {
    for (wave64, exec) in [(true, 0xffff_ffff_ffff_ffffu64), (true, 0x00ff_f00f_0f0f_ff00), (false, 0xffff_ffff)] {
        let lanes = if wave64 { 64 } else { 32 };
        let body = format!("v_mov_b32 v4, v1\n{}v_permlane64_b32 v4, v0\n", set_exec(exec, wave64));
        let out = run_wave(&body, &inputs(lanes, |_| 0, |_| 0), wave64);
        for l in 0..lanes {
            let want = if wave64 && exec >> l & 1 != 0 { data(l ^ 32) } else { marker(l) };
            assert_eq!(out.v[l][0], want, "wave{lanes} lane {l}");
        }
    }
}

/// v_swap_b32 and v_swaprel_b32 (src0 + M0[9:0], vdst + M0[25:16]) in the active lanes;
/// a v_swaprel operand out of range drops the instruction (RDNA3-NOTES,
/// "VGPR out-of-range behaviour": V_SWAP and V_SWAPREL).
#[test]
fn swap_and_swaprel_exchange_active_lanes() {
    for (wave64, exec) in [(false, 0xf0f0_ff0fu64), (true, 0xffff_0000_1234_ffffu64)] {
        let lanes = if wave64 { 64 } else { 32 };
        let body = format!(
            "
            v_mov_b32 v4, v0
            v_mov_b32 v5, v1
            v_mov_b32 v6, v2
            v_mov_b32 v7, v3
            v_mov_b32 v8, v0
            v_mov_b32 v9, v1
            {}
            v_swap_b32 v4, v5
            s_mov_b32 m0, 0x10003
            v_swaprel_b32 v5, v4
            s_mov_b32 m0, 0x103fb
            v_swaprel_b32 v9, v8
            s_mov_b32 m0, 0x00f70003
            v_swaprel_b32 v9, v8
            ",
            set_exec(exec, wave64)
        );
        let ins = inputs(lanes, |l| 0x2000 + l as u32, |l| 0x3000 + l as u32);
        let out = run_wave(&body, &ins, wave64);
        for l in 0..lanes {
            let [a, b, c, d] = ins[l];
            let on = exec >> l & 1 != 0;
            // v_swap: v4 <-> v5; then v_swaprel: src v4 + 3 = v7, dst v5 + 1 = v6.
            let (v4, v5, v6, v7) = if on { (b, a, d, c) } else { (a, b, c, d) };
            assert_eq!([out.v[l][0], out.v[l][1], out.v[l][2], out.v[l][3]], [v4, v5, v6, v7], "lane {l}");
            // v8 + 0x3fb and v9 + 0xf7 (=v256) are out of range: both dropped.
            assert_eq!([out.v[l][4], out.v[l][5]], [a, b], "out-of-range swaprel, lane {l}");
        }
    }
}

/// v_movrels / v_movreld / v_movrelsd / v_movrelsd_2 with M0 at the edges of the VGPR file:
/// a source index past v255 reads v0, a destination past v255 makes the instruction a
/// NOP (RDNA3-NOTES, "VGPR out-of-range behaviour": V_MOVREL index out of
/// range when the index + M0 >= VGPR_SIZE, 256 here).
#[test]
fn movrel_indexes_vgprs_by_m0() {
    for (wave64, exec) in [(false, 0xbfff_fffdu64), (true, 0xffff_fffe_7fff_ffffu64)] {
        let lanes = if wave64 { 64 } else { 32 };
        // v255 is outside the harness's registers (it never reads v253..v255).
        let body = format!(
            "
            v_mov_b32 v255, v3
            {}
            s_mov_b32 m0, 2
            v_movrels_b32 v4, v0
            s_mov_b32 m0, 255
            v_movrels_b32 v5, v0
            s_mov_b32 m0, 256
            v_movrels_b32 v6, v0
            s_mov_b32 m0, -1
            v_movrels_b32 v7, v1
            s_mov_b32 m0, 4
            v_movreld_b32 v4, v3
            s_mov_b32 m0, 252
            v_movreld_b32 v4, v2
            s_mov_b32 m0, 1
            v_movrelsd_b32 v9, v1
            s_mov_b32 m0, 0x30002
            v_movrelsd_2_b32 v7, v1
            ",
            set_exec(exec, wave64)
        );
        let ins = inputs(lanes, |l| 0x2000 + l as u32, |l| 0x3000 + l as u32);
        let out = run_wave(&body, &ins, wave64);
        for l in 0..lanes {
            let [a, _, c, d] = ins[l];
            let on = exec >> l & 1 != 0;
            let pick = |x: u32| if on { x } else { 0 };
            let v4 = pick(c); // v[0 + 2]
            let v5 = pick(d); // v[0 + 255] = v255 = v3
            let v6 = pick(a); // v[256] → v0
            let v7 = pick(a); // v[1 + 2^32 - 1] → v0
            let v8 = pick(d); // movreld: v[4 + 4] = v3 (v[4 + 252] is out of range: NOP)
                              // movrelsd: v[9 + 1] = v[1 + 1] (v10 = v2); movrelsd_2: v[7 + 3] = v[1 + 2] (v10 = v3).
            let v10 = pick(d);
            let got = out.v[l];
            assert_eq!([got[0], got[1], got[2], got[3], got[4], got[6]], [v4, v5, v6, v7, v8, v10], "lane {l}");
            assert_eq!(got[5], 0, "v9 untouched, lane {l}");
        }
    }
}

/// v_pipeflush does nothing observable.
#[test]
fn pipeflush_is_a_no_op() {
    let out = run_wave("v_pipeflush\nv_mov_b32 v4, v0\n", &inputs(32, |_| 0, |_| 0), false);
    assert!((0..32).all(|l| out.v[l][0] == data(l)));
}
