//! The per-opcode harness itself (`common::run_wave`): inputs reach v0..v3 of every lane,
//! results come back from v4..v11, s10..s25, VCC, EXEC and SCC, in wave32 and wave64.

mod common;

use common::run_wave;

#[test]
fn harness_round_trips_registers() {
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let inputs: Vec<[u32; 4]> = (0..lanes as u32).map(|l| [l, l * 3, !l, 0x1234_5678]).collect();
        let vcc = if wave64 { "vcc" } else { "vcc_lo" };
        let out = run_wave(
            &format!(
                "
            v_add_nc_u32 v4, v0, v1
            v_mov_b32 v11, v3
            v_xor_b32 v5, v2, -1
            s_mov_b32 s10, 42
            s_mov_b32 s25, -7
            v_cmp_gt_u32 {vcc}, 5, v0
            v_cmpx_lt_u32 v0, 3
            s_cmp_eq_u32 1, 1
            "
            ),
            &inputs,
            wave64,
        );
        for l in 0..lanes as u32 {
            let v = out.v[l as usize];
            assert_eq!([v[0], v[1], v[7]], [4 * l, l, 0x1234_5678], "lane {l}");
        }
        assert_eq!((out.s[0], out.s[15]), (42, -7i32 as u32));
        assert_eq!((out.vcc, out.exec, out.scc), (0b11111, 0b111, true));
    }
}
