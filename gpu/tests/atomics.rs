//! Global atomics: every gfx11 `global_atomic_*` opcode against a reference written from
//! the RDNA3 ISA guide's definition, with edge operands; same-address lanes in lane
//! order; the alignment rule of RDNA3-NOTES, "Memory alignment modes"; and atomics from
//! many workgroups on several WGP worker threads at once, which must neither lose nor
//! duplicate an update.

mod common;

use std::time::Duration;

use common::{addr, read_words, Dispatch, Gpu, W32, W64};
use gpu::ReportKind;

/// Edge operands: zero, one, integer extremes, float specials (±0, ±inf, NaN, denormal).
const EDGE32: [u32; 16] = [
    0,
    1,
    2,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffff,
    0xffff_fffe,
    0x3f80_0000, // 1.0
    0xbf80_0000, // -1.0
    0x8000_0000, // -0.0
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // quiet NaN
    0x0000_0001, // smallest denormal
    0x4049_0fdb, // pi
    0x1234_5678,
];

fn rotate<T: Copy>(v: &[T], k: usize) -> Vec<T> {
    (0..v.len()).map(|i| v[(i + k) % v.len()]).collect()
}

/// One wave32 of `lanes` lanes: lane l applies the atomic to memory word l (s[0:1]) with
/// data from s[2:3] (+128 bytes: the compare value) and stores the returned value to
/// s[4:5]. Every pairing of the edge values appears across the 16 rotations.
#[test]
fn every_32bit_global_atomic_matches_the_isa_definition() {
    let mut gpu = Gpu::new();
    let mut compared = 0;
    for op in common::ATOMIC_OPS32 {
        let cmpswap = op.starts_with("cmpswap");
        let data = if cmpswap { "v[2:3]" } else { "v2" };
        let code = gpu.kernel(&format!(
            "v_lshlrev_b32 v1, 2, v0
             global_load_b32 v2, v1, s[2:3]
             global_load_b32 v3, v1, s[2:3] offset:128
             s_waitcnt vmcnt(0)
             global_atomic_{op} v4, v1, {data}, s[0:1] glc
             s_waitcnt vmcnt(0)
             global_store_b32 v1, v4, s[4:5]
             s_endpgm"
        ));
        for k in 0..EDGE32.len() {
            let mem0: Vec<u32> = EDGE32.iter().chain(EDGE32.iter()).copied().collect();
            let v: Vec<u32> = rotate(&mem0, k);
            // The compare value: equal to memory in even lanes (also -0 vs +0 for the float
            // compare), different in odd ones.
            let cmp: Vec<u32> = (0..32).map(|l| if l % 2 == 0 { mem0[l] } else { mem0[l] ^ 0x10 }).collect();
            let cmp: Vec<u32> = cmp
                .iter()
                .enumerate()
                .map(|(l, &c)| if l == 8 && op == "cmpswap_f32" { 0x8000_0000 } else { c })
                .collect();
            let mem = gpu.buffer(&mem0);
            let operands = gpu.buffer(&[v.clone(), cmp.clone()].concat());
            let out = gpu.alloc(128);
            let user = [addr(mem.va()), addr(operands.va()), addr(out.va())].concat();
            let d = Dispatch::new(&code, &user, [false; 3], [32, 1, 1]);
            gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{op}: {r}"));
            let (after, returned) = (read_words(&mem, 0, 32), read_words(&out, 0, 32));
            for l in 0..32 {
                let want = common::atomic_ref32(op, mem0[l], v[l], cmp[l]);
                assert_eq!(
                    after[l], want,
                    "global_atomic_{op} lane {l}: mem {:#x} data {:#x} cmp {:#x}",
                    mem0[l], v[l], cmp[l]
                );
                assert_eq!(returned[l], mem0[l], "global_atomic_{op} lane {l} returns the old value");
                compared += 1;
            }
        }
    }
    println!("{compared} 32-bit atomic results compared");
}

/// The 64-bit atomics in wave64: lane l works on qword l with 64-bit operands built from
/// pairs of edge values.
#[test]
fn every_64bit_global_atomic_matches_the_isa_definition() {
    let mut gpu = Gpu::new();
    let mut compared = 0;
    let edge64: Vec<u64> =
        EDGE32.iter().flat_map(|&a| [a as u64 | (a as u64) << 32, (a as u64) << 32, a as u64]).collect();
    for op in common::ATOMIC_OPS64 {
        let data = if op == "cmpswap_b64" { "v[2:5]" } else { "v[2:3]" };
        let code = gpu.kernel(&format!(
            "v_lshlrev_b32 v1, 3, v0
             global_load_b64 v[2:3], v1, s[2:3]
             global_load_b64 v[4:5], v1, s[2:3] offset:512
             s_waitcnt vmcnt(0)
             global_atomic_{op} v[6:7], v1, {data}, s[0:1] glc
             s_waitcnt vmcnt(0)
             global_store_b64 v1, v[6:7], s[4:5]
             s_endpgm"
        ));
        for k in [0, 1, 5, 17, 30] {
            let mem0: Vec<u64> = (0..64).map(|l| edge64[l % edge64.len()]).collect();
            let v = rotate(&mem0, k);
            let cmp: Vec<u64> = (0..64).map(|l| if l % 3 == 0 { mem0[l] } else { mem0[l] ^ 1 << 40 }).collect();
            let words = |q: &[u64]| q.iter().flat_map(|&x| [x as u32, (x >> 32) as u32]).collect::<Vec<u32>>();
            let mem = gpu.buffer(&words(&mem0));
            let operands = gpu.buffer(&[words(&v), words(&cmp)].concat());
            let out = gpu.alloc(512);
            let user = [addr(mem.va()), addr(operands.va()), addr(out.va())].concat();
            let d = Dispatch::new(&code, &user, [false; 3], [64, 1, 1]);
            gpu.run(&d.ib([1, 1, 1], W64)).unwrap_or_else(|r| panic!("{op}: {r}"));
            let (after, returned) = (read_words(&mem, 0, 128), read_words(&out, 0, 128));
            for l in 0..64 {
                let q = |w: &[u32]| w[2 * l] as u64 | (w[2 * l + 1] as u64) << 32;
                let want = common::atomic_ref64(op, mem0[l], v[l], cmp[l]);
                assert_eq!(q(&after), want, "global_atomic_{op} lane {l}: mem {:#x} data {:#x}", mem0[l], v[l]);
                assert_eq!(q(&returned), mem0[l], "global_atomic_{op} lane {l} returns the old value");
                compared += 1;
            }
        }
    }
    println!("{compared} 64-bit atomic results compared");
}

/// Lanes of one wave hitting one address are serialised in lane order: `add` returns
/// the prefix sums, and without GLC nothing is written back to the VGPRs.
#[test]
fn same_address_lanes_apply_in_lane_order_and_glc_selects_the_return() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "v_add_nc_u32 v2, 1, v0
         v_mov_b32 v1, 0
         v_mov_b32 v4, 0x5555
         v_mov_b32 v5, 0x7777
         global_atomic_add_u32 v4, v1, v2, s[0:1] glc
         global_atomic_add_u32 v1, v2, s[0:1] offset:4
         v_mov_b32 v5, v5
         v_lshlrev_b32 v3, 3, v0
         s_waitcnt vmcnt(0)
         global_store_b64 v3, v[4:5], s[2:3]
         s_endpgm",
    );
    let mem = gpu.buffer(&[100, 7]);
    let out = gpu.alloc(64 * 8);
    let d = Dispatch::new(&code, &[addr(mem.va()), addr(out.va())].concat(), [false; 3], [64, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W64)).unwrap();
    let sum: u32 = (1..=64).sum();
    assert_eq!(read_words(&mem, 0, 2), vec![100 + sum, 7 + sum]);
    let got = read_words(&out, 0, 128);
    let mut prefix = 100;
    for l in 0..64u32 {
        assert_eq!(got[2 * l as usize], prefix, "lane {l}");
        assert_eq!(got[2 * l as usize + 1], 0x7777, "lane {l}: no return without glc");
        prefix += l + 1;
    }
}

/// RDNA3-NOTES, "Memory alignment modes": an atomic not
/// aligned to its data size raises MEMVIOL, which is not maskable: the device is lost
/// with a report naming the instruction and the address.
#[test]
fn misaligned_atomic_is_a_memory_violation() {
    for (op, offset, data) in [("add_u32", 2, "v2"), ("add_u64", 4, "v[2:3]")] {
        let mut gpu = Gpu::new();
        let code = gpu.kernel(&format!(
            "v_mov_b32 v1, {offset}
             v_mov_b32 v2, 1
             v_mov_b32 v3, 0
             global_atomic_{op} v1, {data}, s[0:1]
             s_endpgm"
        ));
        let mem = gpu.alloc(64);
        let d = Dispatch::new(&code, &addr(mem.va()), [false; 3], [32, 1, 1]);
        let r = gpu.run(&d.ib([1, 1, 1], W32)).expect_err("a misaligned atomic must fault");
        assert_eq!(r.kind, ReportKind::MemoryViolation, "{r}");
        let text = r.to_string();
        assert!(text.contains(&format!("global_atomic_{op} v1, {data}, s[0:1]")), "{text}");
        assert!(text.contains(&format!("{:#x}", mem.va() + offset)), "{text}");
        assert_eq!(read_words(&mem, 0, 4), vec![0; 4], "nothing was written");
    }
}

/// Atomics from 256 workgroups of 256 work-items (8 wave32 each) running on four WGP
/// worker threads at once: a 32-bit counter with return (the returned tickets must be
/// exactly 0..65535, each once), a 64-bit sum of values above 2^32, and a u32 max.
#[test]
fn global_atomics_are_exact_across_worker_threads() {
    let mut gpu = Gpu::with_threads(4, Duration::from_secs(30));
    let code = gpu.kernel(
        "v_and_b32 v1, 0x3ff, v0          // tid
         s_lshl_b32 s8, s6, 8
         v_add_nc_u32 v1, s8, v1           // global id
         v_mov_b32 v2, 1
         v_mov_b32 v3, 0
         global_atomic_add_u32 v4, v3, v2, s[0:1] glc
         v_mov_b32 v5, 1
         v_add_nc_u32 v6, 0x100, v1        // 2^32 + 256 + id
         global_atomic_add_u64 v3, v[5:6], s[0:1] offset:8
         v_mul_lo_u32 v7, v1, 0x9e3779b1
         global_atomic_max_u32 v3, v7, s[0:1] offset:16
         v_lshlrev_b32 v8, 2, v1
         s_waitcnt vmcnt(0)
         global_store_b32 v8, v4, s[2:3]
         s_endpgm",
    );
    let n = 256 * 256u32;
    let mem = gpu.alloc(64);
    let out = gpu.alloc(4 * n as u64);
    let user = [addr(mem.va()), addr(out.va()), [0, 0]].concat();
    let d = Dispatch::new(&code, &user, [true, false, false], [256, 1, 1]);
    gpu.run(&d.ib([256, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let m = read_words(&mem, 0, 5);
    assert_eq!(m[0], n, "every increment landed once");
    let want_sum: u64 = (0..n as u64).map(|i| 1 | (0x100 + i) << 32).fold(0u64, |a, b| a.wrapping_add(b));
    assert_eq!(m[2] as u64 | (m[3] as u64) << 32, want_sum);
    assert_eq!(m[4], (0..n).map(|i| i.wrapping_mul(0x9e37_79b1)).max().unwrap());
    let mut tickets = read_words(&out, 0, n as usize);
    tickets.sort_unstable();
    assert!(tickets.iter().enumerate().all(|(i, &t)| t == i as u32), "tickets are a permutation of 0..{n}");
}
