//! MIMG atomics, A16 and TFE/LWE on linear images, against CPU references written here
//! from the RDNA3 ISA guide's definitions (the atomics' pseudo-code is that of the global
//! atomics: `common::atomic_ref32` / `atomic_ref64`) and the gfx11 linear layout (rows
//! padded to 256 bytes).
//!
//! The harness's data buffer (address in s[4:5]) holds an 8 x 4 2D image 256 bytes in
//! (one 256-byte row per image row, for 4- and 8-byte texels) and each lane's atomic
//! operands (16 bytes a lane) at `DATA_OFF`; the T# is built in s[12:19].

#![allow(clippy::needless_range_loop)]

mod common;

use std::time::Duration;

use common::{addr, read_words, Dispatch, Gpu, WaveEnv, W32};
use gpu::rsrc::{img_type, sel, ImageResource};

const IMG_OFF: u32 = 256;
const DATA_OFF: u32 = 2048;
const W: u32 = 8;
const H: u32 = 4;

/// A 2D, one-level T# of format `format` at `base`.
fn t_2d(format: u32, base: u64) -> ImageResource {
    ImageResource {
        base,
        format,
        width: W - 1,
        height: H - 1,
        kind: img_type::IMG_2D,
        dst_sel: [sel::X, sel::Y, sel::Z, sel::W],
        ..Default::default()
    }
}

/// Assembly that puts `t` (its base relative to the data buffer) in s[12:19].
fn tsharp(t: &ImageResource) -> String {
    let w = t.encode();
    let mut s = format!(
        "s_add_u32 s12, s4, {:#x}
         s_addc_u32 s13, s5, 0
         s_lshr_b64 s[12:13], s[12:13], 8
         s_and_b32 s13, s13, 0xff
         s_or_b32 s13, s13, {:#x}
        ",
        t.base,
        w[1] & !0xff
    );
    for k in 2..8 {
        s.push_str(&format!(" s_mov_b32 s{}, {:#x}\n", 12 + k, w[k]));
    }
    s
}

/// Word index in the data buffer of texel (x, y) with `bpe`-byte texels.
fn texel(x: u32, y: u32, bpe: u32) -> usize {
    ((IMG_OFF + 256 * y + bpe * x) / 4) as usize
}

/// Lane `l`'s texel: lanes 0..27 each their own, lanes 28..31 past the width or height.
fn lane_xy(l: u32) -> (u32, u32) {
    match l {
        28 => (W, 0),
        29 => (0, H),
        30 => (W + 100, 1),
        31 => (3, 0xffff_fff0),
        _ => (l % W, l / W),
    }
}

const EDGE: [u32; 12] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fffe,
    0x3f80_0000,
    0xbf80_0000,
    0x7fc0_0000,
    5,
    0x1234_5678,
];

/// (image op, global-atomic reference name) of the 32-bit and 64-bit atomics.
const OPS: [(&str, &str, &str); 13] = [
    ("swap", "swap_b32", "swap_b64"),
    ("cmpswap", "cmpswap_b32", "cmpswap_b64"),
    ("add", "add_u32", "add_u64"),
    ("sub", "sub_u32", "sub_u64"),
    ("smin", "min_i32", "min_i64"),
    ("umin", "min_u32", "min_u64"),
    ("smax", "max_i32", "max_i64"),
    ("umax", "max_u32", "max_u64"),
    ("and", "and_b32", "and_b64"),
    ("or", "or_b32", "or_b64"),
    ("xor", "xor_b32", "xor_b64"),
    ("inc", "inc_u32", "inc_u64"),
    ("dec", "dec_u32", "dec_u64"),
];

/// Lane `l`'s operands: data, then the compare value (equal to memory on every third lane).
fn operands(l: usize, mem: u64, wide: bool) -> (u64, u64) {
    let e = |k: usize| EDGE[k % EDGE.len()] as u64;
    let v = if wide { e(l * 7 + 3) | e(l * 5 + 1) << 32 } else { e(l * 7 + 3) };
    let cmp = if l % 3 == 0 { mem } else { v ^ 1 };
    (v, cmp)
}

/// Runs `image_atomic_{op}` (with and without GLC) on a 32-bit (R32_UINT, R32_SINT or
/// R32_FLOAT) or 64-bit (R32G32_UINT) image; checks memory and the returned values.
fn check_op(op: &str, refname: &str, wide: bool, format: u32, glc: bool) {
    let (bpe, cmpswap) = (if wide { 8 } else { 4 }, op == "cmpswap");
    let nd = (1 + wide as usize) * (1 + cmpswap as usize);
    let dmask = (1u32 << nd) - 1;
    let mut mem = vec![0u32; (DATA_OFF / 4) as usize + 64 * 4];
    let mut want = Vec::new();
    let mut inputs = Vec::new();
    for l in 0..32usize {
        let (x, y) = lane_xy(l as u32);
        inputs.push([x, y, 0, 0]);
        let e = |k: usize| EDGE[k % EDGE.len()];
        let inside = x < W && y < H;
        let old = if wide { e(l) as u64 | (e(l + 4) as u64) << 32 } else { e(l) as u64 };
        let (v, cmp) = operands(l, old, wide);
        let d = (DATA_OFF / 4) as usize + 4 * l;
        let words: [u32; 4] = if wide {
            [v as u32, (v >> 32) as u32, cmp as u32, (cmp >> 32) as u32]
        } else {
            [v as u32, cmp as u32, 0, 0]
        };
        mem[d..d + 4].copy_from_slice(&words);
        if inside {
            let t = texel(x, y, bpe);
            mem[t] = old as u32;
            if wide {
                mem[t + 1] = (old >> 32) as u32;
            }
        }
        want.push((inside, old, v, cmp));
    }
    let mut want_mem = mem.clone();
    for (l, &(inside, old, v, cmp)) in want.iter().enumerate() {
        let (x, y) = lane_xy(l as u32);
        if inside {
            let t = texel(x, y, bpe);
            if wide {
                let new = common::atomic_ref64(refname, old, v, cmp);
                want_mem[t..t + 2].copy_from_slice(&[new as u32, (new >> 32) as u32]);
            } else {
                want_mem[t] = common::atomic_ref32(refname, old as u32, v as u32, cmp as u32);
            }
        }
    }
    let vdata = format!("v[12:{}]", 11 + nd.max(2));
    let vdata = if nd == 1 { "v12".to_string() } else { vdata };
    let body = format!(
        "v_mbcnt_lo_u32_b32 v20, -1, 0
         v_lshlrev_b32 v20, 4, v20
         global_load_b128 v[12:15], v20, s[4:5] offset:{DATA_OFF}
         s_waitcnt vmcnt(0)
         {}
         image_atomic_{op} {vdata}, v[0:1], s[12:19] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D{}
         s_waitcnt vmcnt(0)
         s_waitcnt_vscnt null, 0
         v_mov_b32 v4, v12
         v_mov_b32 v5, v13",
        tsharp(&t_2d(format, IMG_OFF as u64)),
        if glc { " glc" } else { "" }
    );
    let env = WaveEnv { mem, ..WaveEnv::default() };
    let (out, got_mem) = common::run_wave_env(&body, &inputs, false, &env);
    let what = format!("image_atomic_{op} {}-bit format {format} glc {glc}", if wide { 64 } else { 32 });
    assert!(got_mem == want_mem, "{what}: memory differs");
    for (l, &(inside, old, v, _)) in want.iter().enumerate() {
        let got = out.v[l][0] as u64 | if wide { (out.v[l][1] as u64) << 32 } else { 0 };
        let ret = match (glc, inside) {
            (false, _) => v,
            (true, true) => old,
            (true, false) => 0,
        };
        let ret = if wide { ret } else { ret & 0xffff_ffff };
        assert_eq!(got, ret, "{what}: lane {l} returned value (VDATA without GLC)");
    }
}

/// Every 32-bit image atomic, GLC and not, on R32_UINT; swap and cmpswap also on R32_SINT
/// and R32_FLOAT (raw bits).
#[test]
fn every_32bit_image_atomic_matches_the_isa_definition() {
    for (op, r32, _) in OPS {
        for glc in [true, false] {
            check_op(op, r32, false, 20, glc);
        }
    }
    for format in [21, 22] {
        check_op("swap", "swap_b32", false, format, true);
        check_op("cmpswap", "cmpswap_b32", false, format, true);
    }
}

/// Every 64-bit image atomic (dmask 0x3, cmpswap 0xf) on R32G32_UINT and R32G32_SINT.
#[test]
fn every_64bit_image_atomic_matches_the_isa_definition() {
    for (op, _, r64) in OPS {
        check_op(op, r64, true, 48, true);
    }
    check_op("add", "add_u64", true, 49, false);
    check_op("smax", "max_i64", true, 49, true);
}

/// The null T#: no memory changes, GLC returns 0.
#[test]
fn image_atomic_on_the_null_tsharp_returns_zero() {
    let body = "v_mov_b32 v12, 7
         s_mov_b64 s[12:13], 0
         s_mov_b64 s[14:15], 0
         s_mov_b64 s[16:17], 0
         s_mov_b64 s[18:19], 0
         image_atomic_add v12, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D glc
         s_waitcnt vmcnt(0)
         v_mov_b32 v4, v12";
    let env = WaveEnv { mem: vec![0x55; 512], ..WaveEnv::default() };
    let (out, mem) = common::run_wave_env(body, &[[0; 4]; 32], false, &env);
    assert!(out.v.iter().all(|v| v[0] == 0));
    assert!(mem.iter().all(|&w| w == 0x55));
}

/// Lanes of one wave (wave64, every lane the same texel) go in lane order: lane l's
/// image_atomic_add returns the sum of the lanes before it.
#[test]
fn same_texel_lanes_go_in_lane_order() {
    let body = format!(
        "{}
         v_mbcnt_lo_u32_b32 v12, -1, 0
         v_mbcnt_hi_u32_b32 v12, -1, v12
         v_add_nc_u32 v12, 1, v12
         image_atomic_add v12, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D glc
         s_waitcnt vmcnt(0)
         v_mov_b32 v4, v12",
        tsharp(&t_2d(20, IMG_OFF as u64))
    );
    let env = WaveEnv { mem: vec![0; 1024], ..WaveEnv::default() };
    let (out, mem) = common::run_wave_env(&body, &[[5, 2, 0, 0]; 64], true, &env);
    for l in 0..64u32 {
        assert_eq!(out.v[l as usize][0], l * (l + 1) / 2, "lane {l}");
    }
    assert_eq!(mem[texel(5, 2, 4)], 64 * 65 / 2);
}

/// Many waves on several worker threads add 1 to one texel (GLC) and 2^32 + 1 to a
/// 64-bit texel of the same memory: no update is lost or doubled, and the returned
/// tickets are a permutation.
#[test]
fn image_atomics_from_many_waves_are_indivisible() {
    let mut gpu = Gpu::with_threads(4, Duration::from_secs(60));
    // s[0:1]: ticket buffer; s[4:11]: the R32_UINT T#, copied to s[16:23] as R32G32_UINT;
    // s12: the group id.
    let code = gpu.kernel(
        "s_mov_b64 s[16:17], s[4:5]
         s_mov_b64 s[18:19], s[6:7]
         s_mov_b64 s[20:21], s[8:9]
         s_mov_b64 s[22:23], s[10:11]
         s_and_b32 s17, s17, 0xf00fffff
         s_or_b32 s17, s17, 0x3000000
         v_and_b32 v1, 0x3ff, v0
         s_lshl_b32 s14, s12, 6
         v_add_nc_u32 v1, s14, v1
         v_mov_b32 v2, 1
         v_mov_b32 v3, 3
         v_mov_b32 v4, 1
         image_atomic_add v4, v[2:3], s[4:11] dmask:0x1 dim:SQ_RSRC_IMG_2D glc
         v_mov_b32 v3, 2
         v_mov_b32 v5, 1
         v_mov_b32 v6, 1
         image_atomic_add v[5:6], v[2:3], s[16:23] dmask:0x3 dim:SQ_RSRC_IMG_2D
         v_lshlrev_b32 v7, 2, v1
         s_waitcnt vmcnt(0)
         global_store_b32 v7, v4, s[0:1]
         s_endpgm",
    );
    let groups = 512u32;
    let n = groups * 64;
    let img = gpu.alloc(4096);
    let out = gpu.alloc(4 * n as u64);
    let t32 = t_2d(20, img.va()).encode();
    let user = [&addr(out.va())[..], &[0, 0], &t32[..]].concat();
    let d = Dispatch::new(&code, &user, [true, false, false], [64, 1, 1]);
    gpu.run(&d.ib([groups, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let m = read_words(&img, 0, 1024);
    let at = |x, y, bpe| texel(x, y, bpe) - IMG_OFF as usize / 4;
    assert_eq!(m[at(1, 3, 4)], n, "every increment landed once");
    assert_eq!([m[at(1, 2, 8)], m[at(1, 2, 8) + 1]], [n, n], "every 64-bit add landed once");
    let mut tickets = read_words(&out, 0, n as usize);
    tickets.sort_unstable();
    assert!(tickets.iter().enumerate().all(|(i, &t)| t == i as u32), "tickets are a permutation of 0..{n}");
}
