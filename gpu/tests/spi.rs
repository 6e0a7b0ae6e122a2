//! Wave launch (SPI) and the WGP pool, driven through the CP with hand-built PM4: the
//! COMPUTE_PGM_RSRC1/2/3 and DISPATCH_INITIATOR fields that change what waves get,
//! scratch slots from COMPUTE_TMPRING_SIZE, occupancy statistics from the modelled
//! resources, the largest barrier groups, and dispatches the SPI refuses.

mod common;

use std::time::Duration;

use common::{addr, read_words, write_words, Dispatch, Gpu, W32, W64};
use gpu::pm4::{initiator, reg, Builder};
use gpu::spi::Limiter;
use gpu::ReportKind;

/// ARCHITECTURE.md, "wave launch state" (AMDGPUUsage, RDNA3-NOTES, "Wave launch state"):
/// exactly RSRC2.USER_SGPR user SGPRs from COMPUTE_USER_DATA_*, then the enabled system
/// SGPRs at that index: TGID X, Y, Z (each only when enabled) and the workgroup info
/// (first-wave flag, waves in the group). For user counts 0, 1, 5 and 16 and several TGID
/// enables, every group of a 2x3x2 grid stores s0..s19.
#[test]
fn user_sgpr_count_and_system_sgprs_are_honoured_exactly() {
    let mut gpu = Gpu::new();
    for (user, tgid, tg_size) in [
        (0u32, [true, true, true], true),
        (1, [true, false, true], false),
        (5, [false, true, false], true),
        (16, [true, true, true], true),
    ] {
        let out = gpu.alloc(12 * 20 * 4);
        // The group's linear index from whatever TGID SGPRs exist (missing ones are 0).
        let mut s = user;
        let mut idx = String::from("s_mov_b32 s100, 0\n");
        for (d, scale) in [(0, 1), (1, 2), (2, 6)] {
            if tgid[d] {
                idx += &format!("s_mul_i32 s101, s{s}, {scale}\n s_add_u32 s100, s100, s101\n");
                s += 1;
            }
        }
        let mut src = idx + "s_mul_i32 s100, s100, 80\n v_mov_b32 v22, s100\n";
        for r in 0..20 {
            src += &format!("v_mov_b32 v1, s{r}\n v_add_nc_u32 v23, v22, {}\n", 4 * r);
            src += &format!(
                "v_add_co_u32 v20, vcc_lo, {:#x}, v23\n v_add_co_ci_u32_e64 v21, null, {:#x}, 0, vcc_lo\n global_store_b32 v[20:21], v1, off\n",
                out.va() as u32,
                (out.va() >> 32) as u32
            );
        }
        src += "s_endpgm";
        let code = gpu.kernel(&src);
        let user_data: Vec<u32> = (0..user).map(|k| 0x1000 + k).collect();
        let mut d = Dispatch::new(&code, &user_data, tgid, [64, 1, 1]);
        d.rsrc2 = common::rsrc2(user, tgid, 0) | (tg_size as u32) << 10;
        let grid = [if tgid[0] { 2 } else { 1 }, if tgid[1] { 3 } else { 1 }, if tgid[2] { 2 } else { 1 }];
        gpu.run(&d.ib(grid, W32)).unwrap_or_else(|r| panic!("{r}"));
        let got = read_words(&out, 0, 12 * 20);
        for z in 0..grid[2] {
            for y in 0..grid[1] {
                for x in 0..grid[0] {
                    let g = (x + 2 * y + 6 * z) as usize;
                    let regs = &got[g * 20..g * 20 + 20];
                    for (k, &r) in regs.iter().enumerate().take(user as usize) {
                        assert_eq!(r, 0x1000 + k as u32, "user {user}: s{k}");
                    }
                    let mut s = user as usize;
                    for (d, id) in [x, y, z].into_iter().enumerate() {
                        if tgid[d] {
                            assert_eq!(regs[s], id, "user {user}: TGID {d} in s{s}");
                            s += 1;
                        }
                    }
                    if tg_size {
                        // 64 work-items in wave32: two waves; wave 0 stored last... both
                        // store the same registers except the first-wave flag; lane 0 of
                        // wave 0 and wave 1 write the same address, so accept either.
                        assert_eq!(regs[s] & 0x3f, 2, "user {user}: waves in the group in s{s}");
                    }
                }
            }
        }
    }
}

/// TIDIG_COMP_CNT selects how many work-item id components v0 carries (x | y << 10 |
/// z << 20): with 0 only x, with 1 x and y, with 2 all three. A 4x3x2 group stores v0 per
/// work-item.
#[test]
fn tidig_comp_cnt_selects_the_work_item_id_components() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "v_mbcnt_lo_u32_b32 v1, -1, 0
         v_lshlrev_b32 v1, 2, v1
         global_store_b32 v1, v0, s[0:1]
         s_endpgm",
    );
    for cnt in 0..3u32 {
        let out = gpu.alloc(24 * 4);
        let mut d = Dispatch::new(&code, &addr(out.va()), [false; 3], [4, 3, 2]);
        d.rsrc2 |= cnt << 11;
        gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
        let got = read_words(&out, 0, 24);
        for t in 0..24u32 {
            let (x, y, z) = (t % 4, (t / 4) % 3, t / 12);
            let want = x | if cnt >= 1 { y << 10 } else { 0 } | if cnt >= 2 { z << 20 } else { 0 };
            assert_eq!(got[t as usize], want, "TIDIG_COMP_CNT {cnt} item {t}");
        }
    }
}

/// The grid's shape from DISPATCH_INITIATOR and the registers: COMPUTE_START_* without
/// FORCE_START_AT_000 (DISPATCH_DIRECT's dimensions are then end values, as RADV's
/// vkCmdDispatchBase emits them), PARTIAL_TG_EN with NUM_THREAD_PARTIAL for the last group
/// of each dimension, and USE_THREAD_DIMENSIONS (dimensions in work-items, the last group
/// gets the remainder). Every work-item that runs adds one to its own counter, so missing,
/// extra and duplicated work-items all show.
#[test]
fn grid_start_partial_groups_and_thread_dimensions() {
    let mut gpu = Gpu::new();
    // counter[(tgid.x * 8 + tid.x) + 64 * (tgid.y * 4 + tid.y)] += 1; TGID in s2, s3.
    let code = gpu.kernel(
        "v_and_b32 v1, 0x3ff, v0
         v_bfe_u32 v2, v0, 10, 10
         s_lshl_b32 s4, s2, 3
         v_add_nc_u32 v1, s4, v1
         s_lshl_b32 s5, s3, 2
         v_add_nc_u32 v2, s5, v2
         v_lshl_add_u32 v1, v2, 6, v1
         v_lshlrev_b32 v1, 2, v1
         v_mov_b32 v3, 1
         global_atomic_add_u32 v1, v3, s[0:1]
         s_endpgm",
    );
    // name, COMPUTE_START_*, COMPUTE_NUM_THREAD_X, mode (0 plain, 1 PARTIAL_TG_EN,
    // 2 USE_THREAD_DIMENSIONS).
    let cases: [(&str, [u32; 3], u32, u32); 4] = [
        ("start", [2, 1, 0], 8 | 4 << 16, 0),
        ("partial", [0; 3], 8 | 3 << 16, 1),
        ("start+partial", [1, 2, 0], 8 | 5 << 16, 1),
        ("thread dims", [0; 3], 8, 2),
    ];
    for (name, start, ntx, mode) in cases {
        let counters = gpu.alloc(64 * 64 * 4);
        let mut d = Dispatch::new(&code, &addr(counters.va()), [true, true, false], [8, 4, 1]);
        d.threads = [ntx, 4 | 1 << 16, 1];
        d.rsrc2 |= 1 << 11; // TIDIG_COMP_CNT = 1: x and y
        let mut ib = Vec::new();
        let mut b = Builder(&mut ib);
        b.set_sh_regs(reg::COMPUTE_START_X, &start);
        d.emit_regs(&mut b);
        let (init, dims) = match mode {
            0 => (initiator::COMPUTE_SHADER_EN | initiator::CS_W32_EN, [5, 3, 1]),
            1 => (initiator::COMPUTE_SHADER_EN | initiator::CS_W32_EN | initiator::PARTIAL_TG_EN, [5, 3, 1]),
            _ => (
                initiator::COMPUTE_SHADER_EN
                    | initiator::CS_W32_EN
                    | initiator::USE_THREAD_DIMENSIONS
                    | initiator::FORCE_START_AT_000,
                [37, 10, 1],
            ),
        };
        b.dispatch_direct(dims, init);
        gpu.run(&ib).unwrap_or_else(|r| panic!("{name}: {r}"));
        let got = read_words(&counters, 0, 64 * 64);
        // The expected set of (x, y) work-items, from the rules written out directly.
        let full = [8u32, 4];
        let partial = [ntx >> 16, 1];
        let mut want = vec![0u32; 64 * 64];
        let thread_dims = mode == 2;
        let groups_of = |d: usize| -> (u32, u32) {
            if thread_dims {
                (0, dims[d].div_ceil(full[d]))
            } else {
                (start[d], dims[d])
            }
        };
        let (gx0, gx1) = groups_of(0);
        let (gy0, gy1) = groups_of(1);
        for gy in gy0..gy1 {
            for gx in gx0..gx1 {
                let size = |d: usize, g: u32, last: u32| -> u32 {
                    if thread_dims {
                        if g + 1 == last && dims[d] % full[d] != 0 {
                            dims[d] % full[d]
                        } else {
                            full[d]
                        }
                    } else if mode == 1 && g + 1 == last && partial[d] != 0 {
                        partial[d]
                    } else {
                        full[d]
                    }
                };
                for ty in 0..size(1, gy, gy1) {
                    for tx in 0..size(0, gx, gx1) {
                        want[((gx * 8 + tx) + 64 * (gy * 4 + ty)) as usize] += 1;
                    }
                }
            }
        }
        let ran: u32 = got.iter().sum();
        let wrong: Vec<String> = (0..got.len())
            .filter(|&i| got[i] != want[i])
            .take(8)
            .map(|i| format!("item ({}, {}) ran {} times, want {}", i % 64, i / 64, got[i], want[i]))
            .collect();
        assert!(wrong.is_empty(), "{name}: {ran} work-items ran; {}", wrong.join("; "));
        assert!(ran > 0);
    }
}

/// RDNA3-NOTES, "SGPR out-of-range behaviour" (TTMP privilege) with the
/// launch state: RSRC1.PRIV starts the wave with STATUS.PRIV, so it may write and read
/// TTMP registers; without it TTMP writes are dropped and reads give zero.
#[test]
fn rsrc1_priv_grants_ttmp_access() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "s_mov_b32 ttmp0, 0x1234
         v_mov_b32 v1, ttmp0
         v_mov_b32 v0, 0
         global_store_b32 v0, v1, s[0:1]
         s_endpgm",
    );
    for (privileged, want) in [(false, 0), (true, 0x1234)] {
        let out = gpu.buffer(&[0xdead]);
        let mut d = Dispatch::new(&code, &addr(out.va()), [false; 3], [1, 1, 1]);
        d.rsrc1 |= (privileged as u32) << 20;
        gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
        assert_eq!(read_words(&out, 0, 1), [want], "PRIV={privileged}");
    }
}

/// The largest workgroups (1024 work-items: 32 wave32 or 16 wave64 waves) meet at two
/// barriers: each wave writes its lanes to LDS, then reads the lane of the wave 7 waves
/// ahead, then (after the second barrier) overwrites and reads again. Also with a single
/// wave64 group of 64 (a barrier is then a no-op, RDNA3-NOTES, "Workgroups and barriers").
#[test]
fn barriers_with_the_largest_workgroups() {
    let mut gpu = Gpu::new();
    for (lanes, init, n) in [(32u32, W32, 1024u32), (64, W64, 1024), (64, W64, 64)] {
        let src = format!(
            "v_and_b32 v1, 0x3ff, v0
             v_mad_u32_u24 v2, v1, 3, s2          // value = tid * 3 + tgid
             v_lshlrev_b32 v3, 2, v1
             ds_store_b32 v3, v2
             s_waitcnt lgkmcnt(0)
             s_barrier
             v_add_nc_u32 v4, {ahead}, v1
             v_and_b32 v4, {mask}, v4
             v_lshlrev_b32 v4, 2, v4
             ds_load_b32 v5, v4
             s_waitcnt lgkmcnt(0)
             s_barrier
             v_add_nc_u32 v6, 0x100000, v2
             ds_store_b32 v3, v6
             s_waitcnt lgkmcnt(0)
             s_barrier
             ds_load_b32 v7, v4
             s_waitcnt lgkmcnt(0)
             v_add_nc_u32 v5, v5, v7
             s_lshl_b32 s4, s2, 10
             v_add_nc_u32 v8, s4, v1
             v_lshlrev_b32 v8, 2, v8
             global_store_b32 v8, v5, s[0:1]
             s_endpgm",
            ahead = (7 * lanes) % n,
            mask = n - 1
        );
        let code = gpu.kernel(&src);
        let groups = 4u32;
        let out = gpu.alloc((groups * 1024 * 4) as u64);
        let d = Dispatch::new(&code, &addr(out.va()), [true, false, false], [n, 1, 1]).lds(n * 4);
        gpu.run(&d.ib([groups, 1, 1], init)).unwrap_or_else(|r| panic!("{r}"));
        let got = read_words(&out, 0, (groups * 1024) as usize);
        for g in 0..groups {
            for t in 0..n {
                let o = (t + 7 * lanes) % n;
                let want = (o * 3 + g) * 2 + 0x100000;
                assert_eq!(got[(g * 1024 + t) as usize], want, "wave{lanes} n={n} group {g} item {t}");
            }
        }
    }
}

/// Occupancy statistics (`Device::stats`) from the modelled gfx1100 resources, checked
/// against figures worked out from RDNA3-NOTES, "VGPR allocation" (1536 VGPRs per SIMD,
/// allocated in blocks of 24 in wave32 and 12 in wave64), RDNA3-NOTES,
/// "LDS layout and allocation" (2 × 64 KiB per WGP, 1 KiB granules) and RDNA3-NOTES,
/// "Workgroups and barriers" (4 SIMD32 per WGP, 32 workgroups per WGP, single-wave groups
/// not counted): each case is one dispatch whose record is inspected.
#[test]
fn occupancy_statistics_follow_the_modelled_resources() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel("s_endpgm");
    // (wave64, RSRC1.VGPRS, WGP_MODE, LDS bytes, items) -> (VGPRs allocated, LDS
    // allocated, groups per WGP, waves per SIMD, limiter)
    type Case = ((bool, u32, bool, u32, u32), (u32, u32, u32, u32, Limiter));
    let cases: [Case; 6] = [
        // 48 VGPRs (6 blocks of 8) -> 48: 32 waves fit, the 16 wave slots bind; 8 waves
        // per group: 64 slots / 8 = 8 groups.
        ((false, 5, true, 0, 256), (48, 0, 8, 16, Limiter::WaveSlots)),
        // 128 VGPRs -> 144 (6 blocks of 24): 1536 / 144 = 10 waves per SIMD, 40 per WGP,
        // 5 groups of 8 waves.
        ((false, 15, true, 0, 256), (144, 0, 5, 10, Limiter::Vgprs)),
        // 40 KiB of LDS (in 512-byte units it is 80; 40 granules of 1 KiB): 128 / 40 = 3.
        ((false, 1, true, 40 * 1024, 256), (24, 40 * 1024, 3, 6, Limiter::Lds)),
        // CU mode: one 64 KiB half per group: 64 / 40 = 1 per CU, 2 per WGP.
        ((false, 1, false, 40 * 1024, 256), (24, 40 * 1024, 2, 4, Limiter::Lds)),
        // Three-wave groups (65 items) of small waves: 64 wave slots / 3 = 21 groups, 63
        // waves, 15 per SIMD.
        ((false, 1, true, 0, 65), (24, 0, 21, 15, Limiter::WaveSlots)),
        // wave64 with 100 VGPRs (25 blocks of 4) -> 108 (9 blocks of 12): 768 / 108 = 7.
        ((true, 24, true, 0, 256), (108, 0, 7, 7, Limiter::Vgprs)),
    ];
    for ((wave64, vgprs, wgp_mode, lds, items), (want_vgprs, want_lds, groups, waves, limiter)) in cases {
        let mut d = Dispatch::new(&code, &[], [false; 3], [items, 1, 1]).lds(lds);
        d.rsrc1 = d.rsrc1 & !0x3f & !(1 << 29) | vgprs | (wgp_mode as u32) << 29;
        let before = gpu.dev.stats();
        gpu.run(&d.ib([3, 1, 1], if wave64 { W64 } else { W32 })).unwrap_or_else(|r| panic!("{r}"));
        let stats = gpu.dev.stats();
        let r = stats.recent.back().unwrap();
        let o = r.occupancy;
        let case = format!("wave64={wave64} VGPRS={vgprs} WGP_MODE={wgp_mode} LDS={lds} items={items}: {o}");
        assert_eq!(
            (o.vgprs_per_wave, o.lds_per_group, o.groups_per_wgp, o.waves_per_simd, o.limiter),
            (want_vgprs, want_lds, groups, waves, limiter),
            "{case}"
        );
        let wpg = items.div_ceil(if wave64 { 64 } else { 32 }) as u64;
        assert_eq!((r.workgroups, r.waves, r.wave64), (3, 3 * wpg, wave64), "{case}");
        assert_eq!(r.wave_instructions, 3 * wpg, "one s_endpgm per wave: {case}");
        assert_eq!(stats.dispatches, before.dispatches + 1);
        assert_eq!(stats.waves, before.waves + 3 * wpg);
    }
}

/// What the SPI refuses to launch is a CP error naming the reason (and the device is
/// lost), never a hang or a silent partial launch: a wave32 group of 1024 work-items with
/// 256 VGPRs in CU mode (32 waves on two SIMDs need 4 × 1536 VGPRs) and a scratch ring
/// with fewer slots (TMPRING_SIZE.WAVES) than a group has waves. (RSRC3.TRAP_ON_START/END
/// and RSRC2.EXCP_EN launch: exec_trap.rs.)
#[test]
fn dispatches_the_spi_cannot_launch_are_cp_errors() {
    /// Changes the dispatch and returns extra register writes.
    type Setup = fn(&mut Dispatch) -> Vec<u32>;
    let cases: [(&str, Setup, &str); 2] = [
        (
            "VGPRs",
            |d| {
                d.threads = [1024, 1, 1];
                d.rsrc1 = d.rsrc1 & !0x3f & !(1 << 29) | 31;
                Vec::new()
            },
            "does not fit on a WGP",
        ),
        (
            "scratch slots",
            |d| {
                d.threads = [256, 1, 1];
                d.rsrc2 |= 1;
                let mut ib = Vec::new();
                let mut b = Builder(&mut ib);
                b.set_sh_reg(reg::COMPUTE_TMPRING_SIZE, 7 | 1 << 12); // 7 slots, 8 waves
                b.set_sh_regs(reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO, &[0x100, 0]);
                ib
            },
            "scratch slots",
        ),
    ];
    for (name, setup, needle) in cases {
        let mut gpu = Gpu::new();
        let code = gpu.kernel("s_endpgm");
        let mut d = Dispatch::new(&code, &[], [false; 3], [64, 1, 1]);
        let extra = setup(&mut d);
        let mut ib = Vec::new();
        d.emit_regs(&mut Builder(&mut ib));
        ib.extend(extra);
        Builder(&mut ib).dispatch_direct([1, 1, 1], W32);
        let r = gpu.run(&ib).expect_err(name);
        assert_eq!(r.kind, ReportKind::CpError, "{name}: {r}");
        assert!(r.to_string().contains(needle), "{name}: {r}");
        assert!(r.to_string().contains("DISPATCH_DIRECT"), "{name}: the packet is named: {r}");
    }
}

/// Scratch slots come from COMPUTE_TMPRING_SIZE.WAVES: with exactly one group's worth
/// (4 waves), 16 groups on three threads still all run (one at a time), every lane's
/// private values stay its own, and nothing beyond the 4 slots of the ring is touched.
#[test]
fn scratch_ring_slots_bound_the_waves_in_flight() {
    let mut gpu = Gpu::with_threads(3, Duration::from_secs(30));
    let code = gpu.kernel(
        "v_and_b32 v1, 0x3ff, v0
         v_mad_u32_u24 v2, v1, 5, s2
         scratch_store_b32 off, v2, off offset:4
         s_waitcnt_vscnt null, 0x0
         scratch_load_b32 v3, off, off offset:4
         s_waitcnt vmcnt(0)
         s_lshl_b32 s3, s2, 7
         v_add_nc_u32 v4, s3, v1
         v_lshlrev_b32 v4, 2, v4
         global_store_b32 v4, v3, s[0:1]
         s_endpgm",
    );
    let (groups, items, waves, wavesize) = (16u32, 128u32, 4u32, 1u32); // 8 private bytes per lane
    let out = gpu.alloc((groups * items * 4) as u64);
    let ring_bytes = (waves * wavesize * 256) as u64;
    let scratch = gpu.alloc(ring_bytes * 4);
    write_words(&scratch, 0, &vec![0x5e5e_5e5e; (ring_bytes * 4 / 4) as usize]);
    let mut d = Dispatch::new(&code, &addr(out.va()), [true, false, false], [items, 1, 1]);
    d.rsrc2 |= 1;
    let mut ib = Vec::new();
    let mut b = Builder(&mut ib);
    b.set_sh_reg(reg::COMPUTE_TMPRING_SIZE, waves | wavesize << 12);
    b.set_sh_regs(reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO, &[(scratch.va() >> 8) as u32, (scratch.va() >> 40) as u32]);
    d.emit(&mut b, [groups, 1, 1], W32);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, (groups * items) as usize);
    for g in 0..groups {
        for t in 0..items {
            assert_eq!(got[(g * items + t) as usize], t * 5 + g, "group {g} item {t}");
        }
    }
    let beyond = read_words(&scratch, ring_bytes, (ring_bytes * 3 / 4) as usize);
    assert!(beyond.iter().all(|&w| w == 0x5e5e_5e5e), "scratch beyond TMPRING_SIZE.WAVES slots was written");
    let inside = read_words(&scratch, 0, (ring_bytes / 4) as usize);
    assert!(inside.iter().any(|&w| w != 0x5e5e_5e5e), "the slots were used");
}
