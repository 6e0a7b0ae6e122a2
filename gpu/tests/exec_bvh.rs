//! The ray intersection instructions as a wave runs them (RDNA3-NOTES, "Ray intersection"):
//! kernels assembled by llvm-mc-19 in each address form LLVM gives gfx1100 — BVH64 with
//! consecutive VGPRs, BVH (32-bit node pointers) with NSA, BVH64 with NSA and A16 (direction
//! and inverse direction as halves, one VGPR per axis) — against a box node and a triangle
//! node whose answers are worked out by hand. The node tests' rules themselves are
//! `isa::exec::bvh`'s unit tests; RADV's ray queries over the model are tests/tests/radv.rs.

mod common;

use common::{addr, read_words, write_words, Dispatch, Gpu, W32};
use gpu::mem::Bo;
use gpu::{Config, ReportKind};
use std::sync::Arc;

const INVALID: u32 = 0xffff_ffff;

/// A box node (at node index 0) of four unit-ish boxes along z, and a triangle node (index 2)
/// A = (0,0,0), B = (1,0,0), C = (0,1,0) with RADV's barycentric byte 9.
fn nodes() -> Vec<u32> {
    let f = f32::to_bits;
    let mut m = vec![0u32; 48];
    m[..4].copy_from_slice(&[100, 101, 102, 103]);
    let boxes: [[f32; 6]; 4] = [
        [0.0, 0.0, 0.0, 1.0, 1.0, 1.0],   // entered at t = 3
        [0.0, 0.0, 2.0, 1.0, 1.0, 3.0],   // t = 1
        [5.0, 0.0, 0.0, 6.0, 1.0, 1.0],   // beside the ray
        [0.0, 0.0, -3.0, 1.0, 1.0, -2.0], // t = 6
    ];
    for (i, b) in boxes.iter().enumerate() {
        for (k, v) in b.iter().enumerate() {
            m[4 + 6 * i + k] = f(*v);
        }
    }
    let tri = [0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 1.0, 0.0];
    for (k, v) in tri.iter().enumerate() {
        m[32 + k] = f(*v);
    }
    m[32 + 15] = 9;
    m
}

/// The setup both tests share: node memory, the T# (RADV's fields, this memory's base) and
/// the ray in v10..v21 (v30..v32 as halves), even lanes at the box node.
const SETUP: &str = "v_and_b32 v1, 1, v0
         v_cmp_eq_u32 vcc_lo, 0, v1
         v_cndmask_b32 v10, 16, 5, vcc_lo
         v_mov_b32 v11, 0
         v_mov_b32 v12, 10.0
         v_mov_b32 v13, 0.25
         v_mov_b32 v14, 0.5
         v_mov_b32 v15, 4.0
         v_mov_b32 v16, 0
         v_mov_b32 v17, 0
         v_mov_b32 v18, -1.0
         v_mov_b32 v19, 0x7f800000
         v_mov_b32 v20, 0x7f800000
         v_mov_b32 v21, -1.0
         v_mov_b32 v30, 0x7c000000
         v_mov_b32 v31, 0x7c000000
         v_mov_b32 v32, 0xbc00bc00
         v_lshlrev_b32 v40, 4, v0
";

/// The nodes' memory and the user SGPRs: s[0:1] `out`, s[4:7] the T#.
fn user_data(gpu: &Gpu, out: &Bo) -> (Arc<Bo>, Vec<u32>) {
    let bvh = gpu.alloc(4096);
    write_words(&bvh, 0, &nodes());
    assert_eq!(bvh.va() & 0xff, 0, "the T# holds the base >> 8");
    let t = [(bvh.va() >> 8) as u32, 0x8000_0000 | (bvh.va() >> 40) as u32, 0xffff_ffff, 0x8100_03ff];
    (bvh, [addr(out.va()).to_vec(), vec![0, 0], t.to_vec()].concat())
}

/// RDNA3-NOTES, "Memory counters and s_waitcnt": the results count on VMcnt; the debug
/// checker reports one read before the s_waitcnt that retires the intersection.
#[test]
fn results_wait_on_vmcnt() {
    let mut gpu = Gpu::with_config(Config { threads: 2, memory_size: 256 << 20, check: true, ..Config::default() });
    let out = gpu.alloc(512);
    let code = gpu.kernel(&format!(
        "{SETUP}
         image_bvh64_intersect_ray v[0:3], v[10:21], s[4:7]
         global_store_b128 v40, v[0:3], s[0:1]
         s_endpgm"
    ));
    let (_nodes, user) = user_data(&gpu, &out);
    let d = Dispatch::new(&code, &user, [false; 3], [32, 1, 1]);
    let r = gpu.run(&d.ib([1, 1, 1], W32)).expect_err("a result read before its wait");
    assert_eq!(r.kind, ReportKind::Check, "{r}");
    assert!(r.summary.contains("v0 is read while the load"), "{}", r.summary);
}

/// Even lanes intersect the box node, odd lanes the triangle node, with the ray from
/// (0.25, 0.5, 4) along -z, extent 10; three forms, each lane's four dwords stored.
#[test]
fn every_address_form_intersects_box_and_triangle_nodes() {
    let mut gpu = Gpu::new();
    let out = gpu.alloc(3 * 512);
    let code = gpu.kernel(&format!(
        "{SETUP}
         image_bvh64_intersect_ray v[0:3], v[10:21], s[4:7]
         s_waitcnt vmcnt(0)
         global_store_b128 v40, v[0:3], s[0:1]
         image_bvh_intersect_ray v[0:3], [v10, v12, v[13:15], v[16:18], v[19:21]], s[4:7]
         s_waitcnt vmcnt(0)
         global_store_b128 v40, v[0:3], s[0:1] offset:512
         image_bvh64_intersect_ray v[0:3], [v[10:11], v12, v[13:15], v[30:32]], s[4:7] a16
         s_waitcnt vmcnt(0)
         global_store_b128 v40, v[0:3], s[0:1] offset:1024
         s_endpgm"
    ));
    let (_nodes, user) = user_data(&gpu, &out);
    let d = Dispatch::new(&code, &user, [false; 3], [32, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 3 * 128);
    for (form, name) in ["bvh64", "bvh with NSA", "bvh64 with NSA and a16"].iter().enumerate() {
        for l in 0..32 {
            let r = &got[form * 128 + 4 * l..][..4];
            if l % 2 == 0 {
                // Nearest entry first; the box beside the ray is missed.
                assert_eq!(r, [101, 100, 103, INVALID], "{name}, lane {l}: box node");
            } else {
                let [t_num, t_denom, i, j] = [r[0], r[1], r[2], r[3]].map(f32::from_bits);
                assert!(t_denom > 0.0, "{name}, lane {l}: seen counter-clockwise, t_denom {t_denom}");
                let got = (t_num / t_denom, i / t_denom, j / t_denom);
                assert_eq!(got, (4.0, 0.25, 0.5), "{name}, lane {l}: distance and barycentrics");
            }
        }
    }
}
