//! Dispatches and command-processor packets driven through the winsys with hand-built
//! PM4 and hand-written gfx11 kernels (assembled by llvm-mc-19), checked on the host.

mod common;

use common::{addr, check_tid3_dispatch, read_u64, read_words, write_words, Dispatch, Gpu, W32, W64};
use gpu::pm4::{event, reg, sel, Builder};
use gpu::rsrc::BufferResource;
use gpu::Ib;

/// 64 workgroups of 64 work-items write `tid * 3 + tgid` to a buffer whose address comes
/// in s[0:1] (TGID_X in s2, right after the two user SGPRs): every dword is checked, in
/// wave32 (two waves per group, CS_W32_EN) and in wave64 (one wave, no CS_W32_EN).
#[test]
fn global_store_of_tid_and_tgid_wave32_and_wave64() {
    let mut gpu = Gpu::new();
    check_tid3_dispatch(&mut gpu, W32);
    check_tid3_dispatch(&mut gpu, W64);
}

/// Each wave of a workgroup writes its lanes' values to LDS, all meet at `s_barrier`, then
/// every lane reads the value of the same lane in the next wave (wrapping) and stores it
/// out. 8 waves per group (256 items in wave32, 512 in wave64), 6 groups on 2 workers:
/// the values include the group id, so LDS left over from another group would show.
#[test]
fn lds_exchange_across_eight_waves_with_barrier() {
    let mut gpu = Gpu::new();
    for (lanes, initiator) in [(32u32, W32), (64, W64)] {
        let n = 8 * lanes; // items per group
        let src = format!(
            "
            v_and_b32 v1, 0x3ff, v0
            v_mul_u32_u24 v2, v1, 7
            s_mul_i32 s3, s2, 1000
            v_add_nc_u32 v2, s3, v2          // value = tid * 7 + tgid * 1000
            v_lshlrev_b32 v3, 2, v1
            ds_store_b32 v3, v2
            s_waitcnt lgkmcnt(0)
            s_barrier
            v_add_nc_u32 v4, {lanes}, v1     // same lane of the next wave
            v_and_b32 v4, {mask}, v4
            v_lshlrev_b32 v4, 2, v4
            ds_load_b32 v5, v4
            s_waitcnt lgkmcnt(0)
            s_lshl_b32 s4, s2, {log}
            v_add_nc_u32 v6, s4, v1
            v_lshlrev_b32 v6, 2, v6
            global_store_b32 v6, v5, s[0:1]
            s_endpgm
            ",
            mask = n - 1,
            log = n.trailing_zeros()
        );
        let code = gpu.kernel(&src);
        let groups = 6u32;
        let out = gpu.alloc((groups * n * 4) as u64);
        let d = Dispatch::new(&code, &addr(out.va()), [true, false, false], [n, 1, 1]).lds(n * 4);
        gpu.run(&d.ib([groups, 1, 1], initiator)).unwrap_or_else(|r| panic!("{r}"));
        let got = read_words(&out, 0, (groups * n) as usize);
        for g in 0..groups {
            for t in 0..n {
                let want = ((t + lanes) % n) * 7 + g * 1000;
                assert_eq!(got[(g * n + t) as usize], want, "wave{lanes}: group {g} item {t}");
            }
        }
    }
}

/// RDNA3-NOTES, "Buffer addressing" and "Buffer range checking" with a raw V#
/// (`BufferResource::raw`, OOB_SELECT = 3): out-of-range loads return zero, out-of-range
/// stores write nothing, B64 accesses are checked per dword, and the SGPR offset belongs to
/// the base, not to the range-checked offset. The V#s come from memory through
/// `s_load_b512`.
#[test]
fn buffer_load_store_through_vsharp_with_range_checking() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        s_load_b512 s[4:19], s[0:1], 0x0      // V# in, V# out1, V# out2, s16 = soffset
        s_waitcnt lgkmcnt(0)
        v_lshlrev_b32 v1, 2, v0               // v1 = tid * 4
        buffer_load_b32 v2, v1, s[4:7], 0 offen
        s_waitcnt vmcnt(0)
        v_add_nc_u32 v2, 1, v2
        buffer_store_b32 v2, v1, s[8:11], 0 offen
        v_lshlrev_b32 v3, 3, v0               // v3 = tid * 8
        buffer_load_b64 v[4:5], v3, s[4:7], 0 offen offset:4
        s_waitcnt vmcnt(0)
        buffer_store_b64 v[4:5], v3, s[12:15], 0 offen
        buffer_load_b32 v6, v1, s[4:7], s16 offen
        s_waitcnt vmcnt(0)
        global_store_b32 v1, v6, s[2:3]
        s_endpgm
        ",
    );
    const SENTINEL: u32 = 0xdead_beef;
    let input: Vec<u32> = (0..1024).map(|i| 0x100 + i).collect();
    let inp = gpu.buffer(&input);
    let (out1, out2, out3) = (gpu.alloc(4096), gpu.alloc(4096), gpu.alloc(4096));
    for o in [&out1, &out2, &out3] {
        write_words(o, 0, &[SENTINEL; 1024]);
    }
    // The BOs are 4 KiB; the V#s cover only the first few bytes of each.
    let (in_bytes, out1_bytes, out2_bytes, soffset) = (40u32, 100u32, 84u32, 8u32);
    let mut table = Vec::new();
    table.extend(BufferResource::raw(inp.va(), in_bytes).encode());
    table.extend(BufferResource::raw(out1.va(), out1_bytes).encode());
    table.extend(BufferResource::raw(out2.va(), out2_bytes).encode());
    table.extend([soffset, 0, 0, 0]);
    let table = gpu.buffer(&table);
    let user = [addr(table.va()), addr(out3.va())].concat();
    let d = Dispatch::new(&code, &user, [false; 3], [32, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));

    // A raw buffer's range check is exact: [offset, offset + 4) must lie in num_records.
    let load = |off: u32, extra: u32| if off + 4 <= in_bytes { input[((off + extra) / 4) as usize] } else { 0 };
    let (o1, o2, o3) = (read_words(&out1, 0, 64), read_words(&out2, 0, 128), read_words(&out3, 0, 64));
    for t in 0..32u32 {
        // b32: in range for t < 10; stored where t * 4 + 4 <= 100, i.e. t < 25.
        let want = if t * 4 + 4 <= out1_bytes { load(t * 4, 0) + 1 } else { SENTINEL };
        assert_eq!(o1[t as usize], want, "buffer_load/store_b32 lane {t}");
        // b64 at byte 8t + 4: each dword is checked on its own, on load and on store.
        for k in 0..2 {
            let (load_off, store_off) = (8 * t + 4 + 4 * k, 8 * t + 4 * k);
            let want = if store_off + 4 <= out2_bytes { load(load_off, 0) } else { SENTINEL };
            assert_eq!(o2[(2 * t + k) as usize], want, "buffer_load/store_b64 lane {t} dword {k}");
        }
        // soffset moves the base: lanes 8 and 9 read past num_records from the base.
        assert_eq!(o3[t as usize], load(t * 4, soffset), "soffset lane {t}");
    }
    assert_eq!(o1[32..], [SENTINEL; 32]);
    assert_eq!(o2[64..], [SENTINEL; 64]);
    // Spot checks of the rules, spelled out.
    assert_eq!(o1[9], 0x100 + 9 + 1);
    assert_eq!(o1[10], 1, "out-of-range load returned 0");
    assert_eq!(o1[25], SENTINEL, "out-of-range store dropped");
    assert_eq!([o2[6], o2[7]], [0x100 + 7, 0x100 + 8], "lane 3, both dwords in range");
    assert_eq!([o2[8], o2[9]], [0x100 + 9, 0], "lane 4, second dword out of range");
    assert_eq!([o2[20], o2[21]], [0, SENTINEL], "lane 10, second dword not stored");
    assert_eq!([o3[7], o3[9], o3[10]], [0x100 + 9, 0x100 + 11, 0]);
}

/// RDNA3-NOTES, "Workgroups and barriers": any wave
/// may end with `s_endpgm` early, and the barrier is satisfied when the remaining waves
/// reach it. Every wave writes its LDS slots; the waves selected by a mask in s2 then end,
/// the others pass two barriers and copy the next wave's values out (those of ended waves
/// included). Masks: alternate waves, all but the last, all but the first, none, all.
#[test]
fn early_endpgm_does_not_deadlock_the_barrier() {
    // A deadlock would be reported as a hang after 3 s instead of hanging the test.
    let mut gpu = Gpu::with_timeout(std::time::Duration::from_secs(3));
    const SENTINEL: u32 = 0xdead_beef;
    for (lanes, initiator) in [(32u32, W32), (64, W64)] {
        let n = 4 * lanes;
        let src = format!(
            "
            v_and_b32 v1, 0x3ff, v0
            v_mul_u32_u24 v2, v1, 7
            s_mul_i32 s6, s3, 1000
            v_add_nc_u32 v2, s6, v2           // value = tid * 7 + tgid * 1000
            v_lshlrev_b32 v3, 2, v1
            ds_store_b32 v3, v2
            s_waitcnt lgkmcnt(0)
            v_readfirstlane_b32 s4, v1
            s_lshr_b32 s4, s4, {shift}        // wave id
            s_lshr_b32 s5, s2, s4
            s_bitcmp1_b32 s5, 0
            s_cbranch_scc1 early
            s_barrier
            v_add_nc_u32 v4, {lanes}, v1
            v_and_b32 v4, {mask}, v4
            v_lshlrev_b32 v4, 2, v4
            ds_load_b32 v5, v4
            s_waitcnt lgkmcnt(0)
            s_barrier
            s_lshl_b32 s7, s3, {log}
            v_add_nc_u32 v6, s7, v1
            v_lshlrev_b32 v6, 2, v6
            global_store_b32 v6, v5, s[0:1]
            s_endpgm
        early:
            s_endpgm
            ",
            shift = lanes.trailing_zeros(),
            mask = n - 1,
            log = n.trailing_zeros()
        );
        let code = gpu.kernel(&src);
        let groups = 3u32;
        // User SGPRs s[0:1] = output, s2 = mask of the waves that end early; TGID_X in s3.
        let masks = [0b1010u32, 0b0111, 0b1110, 0b0000, 0b1111];
        let outs: Vec<_> = masks.iter().map(|_| gpu.alloc((groups * n * 4) as u64)).collect();
        let mut ib = Vec::new();
        for (m, out) in masks.iter().zip(&outs) {
            write_words(out, 0, &vec![SENTINEL; (groups * n) as usize]);
            let user = [out.va() as u32, (out.va() >> 32) as u32, *m];
            Dispatch::new(&code, &user, [true, false, false], [n, 1, 1]).lds(n * 4).emit(
                &mut Builder(&mut ib),
                [groups, 1, 1],
                initiator,
            );
        }
        gpu.run(&ib).unwrap_or_else(|r| panic!("wave{lanes}: {r}"));
        for (m, out) in masks.iter().zip(&outs) {
            let got = read_words(out, 0, (groups * n) as usize);
            for g in 0..groups {
                for t in 0..n {
                    let ended = m >> (t / lanes) & 1 != 0;
                    let want = if ended { SENTINEL } else { ((t + lanes) % n) * 7 + g * 1000 };
                    assert_eq!(got[(g * n + t) as usize], want, "wave{lanes} mask {m:#06b} group {g} item {t}");
                }
            }
        }
    }
}

/// DISPATCH_INDIRECT takes the group counts from memory when the CP executes it: a
/// 5x3x2 grid of one-item groups records its TGID x/y/z (s2..s4), then a WRITE_DATA in the
/// same IB rewrites the arguments to 2x2x1 for a second dispatch, then to 0x7x7, which
/// launches nothing.
#[test]
fn dispatch_indirect_reads_dims_from_memory() {
    let mut gpu = Gpu::new();
    // out[(z * 3 + y) * 5 + x] = x | y << 8 | z << 16 (the 5x3 layout of the first grid).
    let code = gpu.kernel(
        "
        s_mul_i32 s5, s4, 3
        s_add_u32 s5, s5, s3
        s_mul_i32 s5, s5, 5
        s_add_u32 s5, s5, s2
        s_lshl_b32 s5, s5, 2
        s_lshl_b32 s6, s3, 8
        s_or_b32 s6, s6, s2
        s_lshl_b32 s7, s4, 16
        s_or_b32 s6, s6, s7
        v_mov_b32 v1, s5
        v_mov_b32 v2, s6
        global_store_b32 v1, v2, s[0:1]
        s_endpgm
        ",
    );
    const SENTINEL: u32 = 0xdead_beef;
    let args = gpu.buffer(&[5, 3, 2, 0]);
    let outs = [gpu.alloc(256), gpu.alloc(256), gpu.alloc(256)];
    let mut ib = Vec::new();
    let mut b = Builder(&mut ib);
    for (k, out) in outs.iter().enumerate() {
        write_words(out, 0, &[SENTINEL; 64]);
        match k {
            1 => b.write_data(args.va(), &[2, 2, 1]),
            2 => b.write_data(args.va(), &[0, 7, 7]),
            _ => {}
        }
        Dispatch::new(&code, &addr(out.va()), [true; 3], [1, 1, 1]).emit_regs(&mut b);
        b.dispatch_indirect(args.va(), W32);
    }
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    for (k, (out, dims)) in outs.iter().zip([[5u32, 3, 2], [2, 2, 1], [0, 7, 7]]).enumerate() {
        let got = read_words(out, 0, 64);
        let mut want = vec![SENTINEL; 64];
        for z in 0..dims[2] {
            for y in 0..dims[1] {
                for x in 0..dims[0] {
                    want[((z * 3 + y) * 5 + x) as usize] = x | y << 8 | z << 16;
                }
            }
        }
        assert_eq!(got, want, "indirect dispatch {k} with dims {dims:?}");
    }
}

/// The PM4 that RADV emits for two dependent compute dispatches on gfx11, word for word:
/// SET_SH_REG of COMPUTE_PGM_LO/HI, RSRC1/2, RSRC3, TMPRING_SIZE, RESOURCE_LIMITS,
/// USER_DATA and NUM_THREAD_X/Y/Z, DISPATCH_DIRECT with initiator 0xA045 (wave32, ORDER_MODE,
/// TUNNEL_ENABLE), the compute barrier EVENT_WRITE CS_PARTIAL_FLUSH + ACQUIRE_MEM, a second
/// dispatch that only changes the program (the other registers persist), and RELEASE_MEM
/// writing a 64-bit value at end of pipe.
#[test]
fn radv_compute_dispatch_sequence() {
    let mut gpu = Gpu::new();
    let first = gpu.kernel(common::TID3_KERNEL);
    let second = gpu.kernel(
        "
        v_and_b32 v1, 0x3ff, v0
        s_lshl_b32 s3, s2, 6
        v_add_nc_u32 v1, s3, v1
        v_lshlrev_b32 v1, 2, v1
        global_load_b32 v2, v1, s[0:1]
        s_waitcnt vmcnt(0)
        v_add_nc_u32 v2, 0x12345, v2
        global_store_b32 v1, v2, s[0:1]
        s_endpgm
        ",
    );
    let out = gpu.alloc(64 * 64 * 4);
    let fence = gpu.alloc(64);
    let rsrc2 = common::rsrc2(2, [true, false, false], 0);
    let (a, f) = (first.va(), fence.va());
    #[rustfmt::skip]
    let ib = vec![
        0xC002_7600, 0x20C, (a >> 8) as u32, (a >> 40) as u32,      // COMPUTE_PGM_LO/HI
        0xC002_7600, 0x212, common::RSRC1, rsrc2,                   // COMPUTE_PGM_RSRC1/2
        0xC001_7600, 0x228, 0,                                      // COMPUTE_PGM_RSRC3
        0xC001_7600, 0x218, 0,                                      // COMPUTE_TMPRING_SIZE
        0xC001_7600, 0x215, 0,                                      // COMPUTE_RESOURCE_LIMITS
        0xC002_7600, 0x240, out.va() as u32, (out.va() >> 32) as u32, // COMPUTE_USER_DATA_0/1
        0xC003_7600, 0x207, 64, 1, 1,                               // COMPUTE_NUM_THREAD_X/Y/Z
        0xC003_1502, 64, 1, 1, 0xA045,                              // DISPATCH_DIRECT
        0xC000_4600, 0x407,                                         // EVENT_WRITE CS_PARTIAL_FLUSH
        0xC006_5800, 0, 0xFFFF_FFFF, 0x00FF_FFFF, 0, 0, 0xA, 0xC3B0, // ACQUIRE_MEM
        0xC002_7600, 0x20C, (second.va() >> 8) as u32, (second.va() >> 40) as u32,
        0xC003_1502, 64, 1, 1, 0xA045,                              // DISPATCH_DIRECT
        0xC000_4600, 0x407,
        0xC006_5800, 0, 0xFFFF_FFFF, 0x00FF_FFFF, 0, 0, 0xA, 0xC3B0,
        0xC006_4900, 0x528, 2 << 29, f as u32, (f >> 32) as u32,    // RELEASE_MEM BOTTOM_OF_PIPE_TS, DATA_SEL 64-bit
            0x89AB_CDEF, 0x0123_4567, 0,
    ];
    // The same words the shared builder produces (one definition for ICD and CP).
    let mut built = Vec::new();
    Builder(&mut built).cs_partial_flush_and_invalidate(0xC3B0);
    let at = ib.iter().position(|&w| w == 0xC000_4600).unwrap();
    assert_eq!(&ib[at..at + built.len()], &built[..]);
    assert_eq!(gpu::pm4::header(gpu::pm4::op::SET_SH_REG, 3, false), 0xC002_7600);
    assert_eq!((reg::COMPUTE_PGM_LO - gpu::pm4::SH_REG_BASE) >> 2, 0x20C);
    assert_eq!((reg::COMPUTE_NUM_THREAD_X - gpu::pm4::SH_REG_BASE) >> 2, 0x207);

    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 64 * 64);
    for g in 0..64u32 {
        for t in 0..64u32 {
            assert_eq!(got[(g * 64 + t) as usize], t * 3 + g + 0x12345, "group {g} item {t}");
        }
    }
    assert_eq!(read_u64(&fence, 0), 0x0123_4567_89AB_CDEF);
    assert_eq!(read_words(&fence, 8, 2), [0, 0], "RELEASE_MEM wrote 8 bytes only");
}

/// CP packets other than dispatches, in one submission of two IBs:
/// - IB A calls IB2 (INDIRECT_BUFFER without CHAIN), which chains to another IB2 and then
///   returns to A; A then chains to IB B, and the packet after A's CHAIN never runs;
/// - WRITE_DATA; DMA_DATA fill (exact length) and copy (memory to memory, and of the
///   filled bytes, so it runs after the fill); COPY_DATA of a dword between memory
///   locations and of the timestamp counter (non-decreasing around a dispatch, and not
///   ahead of the host's view of it); WAIT_REG_MEM satisfied by an earlier WRITE_DATA;
/// - the second IB waits (WAIT_REG_MEM) on the last value written by the first.
#[test]
fn chained_and_nested_ibs_and_cp_data_packets() {
    let mut gpu = Gpu::new();
    let mem = gpu.alloc(4096);
    let m = mem.va();
    let pattern: Vec<u32> = (0..16).map(|i| 0x5000_0000 | (i * 0x1111)).collect();
    let src = gpu.buffer(&pattern);
    let code = gpu.kernel(common::TID3_KERNEL);
    let out = gpu.alloc(64 * 64 * 4);

    let mut ib2b = Vec::new();
    Builder(&mut ib2b).write_data(m + 0x1c, &[0x66]);
    let ib2b = gpu.ib(&ib2b);

    let mut ib2 = Vec::new();
    let mut b = Builder(&mut ib2);
    b.write_data(m + 0x04, &[0x22]);
    b.dma_fill(m + 0x100, 0xabcd_abcd, 64);
    b.indirect_buffer(ib2b.va, ib2b.dwords, true);
    let ib2 = gpu.ib(&ib2);

    let mut ibb = Vec::new();
    let mut b = Builder(&mut ibb);
    b.dma_copy(m + 0x200, src.va(), 64);
    b.dma_copy(m + 0x240, m + 0x100, 64);
    b.write_data(m + 0x400, &[7]);
    b.wait_mem(m + 0x400, 3, 7, 0xffff_ffff);
    b.copy_data(sel::TC_L2, m + 0x08, m + 0x10, false);
    Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]).emit(&mut b, [64, 1, 1], W32);
    b.event_write(event::CS_PARTIAL_FLUSH, 4);
    b.copy_data(sel::TIMESTAMP, 0, m + 0x308, true);
    b.write_data(m + 0x14, &[0x44]);
    let ibb = gpu.ib(&ibb);

    let mut iba = Vec::new();
    let mut b = Builder(&mut iba);
    b.write_data(m, &[0x11]);
    b.copy_data(sel::TIMESTAMP, 0, m + 0x300, true);
    b.indirect_buffer(ib2.va, ib2.dwords, false);
    b.write_data(m + 0x08, &[0x33]);
    b.indirect_buffer(ibb.va, ibb.dwords, true);
    b.write_data(m + 0x0c, &[0xbad]); // after the CHAIN: never executed
    let iba = gpu.ib(&iba);

    let mut ibd = Vec::new();
    let mut b = Builder(&mut ibd);
    b.wait_mem(m + 0x14, 3, 0x44, 0xff);
    b.write_data(m + 0x18, &[0x55]);
    let ibd = gpu.ib(&ibd);

    gpu.run_ibs(&[iba, ibd]).unwrap_or_else(|r| panic!("{r}"));
    let host_now = gpu.dev.timestamp();

    assert_eq!(read_words(&mem, 0, 8), [0x11, 0x22, 0x33, 0, 0x33, 0x44, 0x55, 0x66]);
    assert_eq!(read_words(&mem, 0x100, 17), [vec![0xabcd_abcd; 16], vec![0]].concat(), "fill of exactly 64 bytes");
    assert_eq!(read_words(&mem, 0x200, 16), pattern, "DMA copy");
    assert_eq!(read_words(&mem, 0x240, 16), vec![0xabcd_abcd; 16], "DMA copy of the filled bytes");
    assert_eq!(read_words(&mem, 0x400, 1), [7]);
    let (t0, t1) = (read_u64(&mem, 0x300), read_u64(&mem, 0x308));
    assert!(t0 <= t1 && t1 <= host_now, "timestamps {t0} {t1} host {host_now}");
    assert_eq!(read_words(&out, 0, 2), [0, 3], "the dispatch in the chained IB ran");
    assert_eq!(read_words(&out, 4 * 64, 1), [1]);
}

/// Several submissions in a row: each fence value signals in order, and `Queue::wait` on an
/// older value returns at once. The ring position advances past the IB packets.
#[test]
fn fences_signal_in_submission_order() {
    let mut gpu = Gpu::new();
    let mem = gpu.alloc(4096);
    let mut seqs = Vec::new();
    for k in 0..20u32 {
        let mut ib = Vec::new();
        Builder(&mut ib).write_data(mem.va() + 4 * k as u64, &[k + 1]);
        let ib = gpu.ib(&ib);
        seqs.push(gpu.queue.submit(&[ib, Ib { va: ib.va, dwords: 0 }]).unwrap());
    }
    assert!(seqs.windows(2).all(|w| w[1] == w[0] + 1), "{seqs:?}");
    assert!(gpu.queue.wait(*seqs.last().unwrap(), std::time::Duration::from_secs(10)).unwrap());
    assert!(gpu.queue.completed() >= *seqs.last().unwrap());
    assert!(gpu.queue.wait(seqs[0], std::time::Duration::ZERO).unwrap());
    assert_eq!(read_words(&mem, 0, 20), (1..=20).collect::<Vec<u32>>());
}

/// Private memory through architected flat scratch (RSRC2.SCRATCH_EN, COMPUTE_TMPRING_SIZE,
/// COMPUTE_DISPATCH_SCRATCH_BASE): every lane stores two values at private addresses 16
/// (immediate offset) and 32 (VGPR address) and reads them back; lanes, waves and groups
/// running at the same time must not see each other's values.
#[test]
fn scratch_is_private_per_lane_wave_and_group() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        v_and_b32 v1, 0x3ff, v0
        v_mul_u32_u24 v2, v1, 5
        v_add_nc_u32 v2, s2, v2              // a = tid * 5 + tgid
        v_xor_b32 v4, 0xffff, v2             // b = a ^ 0xffff
        v_mov_b32 v3, 32
        scratch_store_b32 off, v2, off offset:16
        scratch_store_b32 v3, v4, off
        s_waitcnt_vscnt null, 0x0
        scratch_load_b32 v5, off, off offset:16
        scratch_load_b32 v6, v3, off
        s_waitcnt vmcnt(0)
        v_lshlrev_b32 v6, 16, v6
        v_or_b32 v5, v5, v6                  // a | b << 16
        s_lshl_b32 s3, s2, 7
        v_add_nc_u32 v7, s3, v1
        v_lshlrev_b32 v7, 2, v7
        global_store_b32 v7, v5, s[0:1]
        s_endpgm
        ",
    );
    let (groups, items) = (8u32, 128u32); // 4 waves per group
    let out = gpu.alloc((groups * items * 4) as u64);
    // 40 private bytes per lane, 32 lanes: 1280 bytes = 5 units of 256 per wave.
    let slots = gpu.dev.info().scratch_wave_slots;
    let wavesize = 5u32;
    let scratch = gpu.alloc(slots as u64 * wavesize as u64 * 256);
    let mut d = Dispatch::new(&code, &addr(out.va()), [true, false, false], [items, 1, 1]);
    d.rsrc2 |= 1; // SCRATCH_EN
    let mut ib = Vec::new();
    let mut b = Builder(&mut ib);
    b.set_sh_reg(reg::COMPUTE_TMPRING_SIZE, slots | wavesize << 12);
    b.set_sh_regs(reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO, &[(scratch.va() >> 8) as u32, (scratch.va() >> 40) as u32]);
    d.emit(&mut b, [groups, 1, 1], W32);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, (groups * items) as usize);
    for g in 0..groups {
        for t in 0..items {
            let a = t * 5 + g;
            assert_eq!(got[(g * items + t) as usize], a | (a ^ 0xffff) << 16, "group {g} item {t}");
        }
    }
}

/// Two queues of one device (two CP threads sharing the WGP pool) run dispatches at the
/// same time, each into its own buffer, with several submissions in flight.
#[test]
fn two_queues_dispatch_concurrently() {
    let gpu = Gpu::new();
    let q2 = gpu.dev.create_queue().unwrap();
    let code = gpu.kernel(common::TID3_KERNEL);
    let mut pending = Vec::new();
    let mut keep = Vec::new();
    for k in 0..6 {
        let out = gpu.alloc(64 * 64 * 4);
        let ib = Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]).ib([64, 1, 1], W32);
        let ib_bo = gpu.buffer(&ib);
        let q = if k % 2 == 0 { &gpu.queue } else { &q2 };
        let seq = q.submit(&[Ib { va: ib_bo.va(), dwords: ib.len() as u32 }]).unwrap();
        pending.push((k, seq, out));
        keep.push(ib_bo);
    }
    for (k, seq, out) in &pending {
        let q = if k % 2 == 0 { &gpu.queue } else { &q2 };
        assert!(q.wait(*seq, std::time::Duration::from_secs(30)).unwrap_or_else(|r| panic!("{r}")));
        let got = read_words(out, 0, 64 * 64);
        for g in 0..64u32 {
            for t in 0..64u32 {
                assert_eq!(got[(g * 64 + t) as usize], t * 3 + g, "submission {k} group {g} item {t}");
            }
        }
    }
}

/// Thousands of small submissions wrap the 16K-dword ring several times (the submitter
/// pads the ring's end with a NOP and waits for space); every fence signals in order and
/// every WRITE_DATA lands.
#[test]
fn ring_wraps_around() {
    let mut gpu = Gpu::new();
    let mem = gpu.alloc(4 * 4096);
    let n = 4000u32;
    let mut ibs = Vec::new();
    for k in 0..n {
        let mut ib = Vec::new();
        Builder(&mut ib).write_data(mem.va() + 4 * k as u64, &[k ^ 0x5a5a]);
        ibs.push(gpu.ib(&ib));
    }
    let mut last = 0;
    for (k, ib) in ibs.iter().enumerate() {
        // One or two IB packets per submission, so that the ring's end falls at different
        // places in the stream.
        let seq = if k % 3 == 0 { gpu.queue.submit(&[*ib, *ib]) } else { gpu.queue.submit(&[*ib]) }.unwrap();
        assert_eq!(seq, last + 1);
        last = seq;
    }
    assert!(gpu.queue.wait(last, std::time::Duration::from_secs(30)).unwrap());
    assert_eq!(read_words(&mem, 0, n as usize), (0..n).map(|k| k ^ 0x5a5a).collect::<Vec<_>>());
}

/// RDNA3-NOTES, "Buffer range checking", "Buffer addressing" and "Scalar buffer loads":
/// with a stride of 16 and num_records = 5 records, OOB_SELECT 0 checks the index and
/// `offset + 4 <= stride`, OOB_SELECT 1 only the index; `s_buffer_load` is out of range
/// when `offset >= stride * num_records`, per dword. Out-of-range loads return zero.
#[test]
fn structured_and_scalar_buffer_range_checks() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        s_load_b256 s[4:11], s[0:1], 0x0      // V# mode 0 in s[4:7], V# mode 1 in s[8:11]
        s_waitcnt lgkmcnt(0)
        v_and_b32 v0, 0x3ff, v0
        v_mul_hi_u32 v1, v0, 0x33333334       // index = tid / 5
        v_mul_u32_u24 v3, v1, 5
        v_sub_nc_u32 v2, v0, v3               // offset = (tid % 5) * 4
        v_lshlrev_b32 v2, 2, v2
        buffer_load_b32 v4, v[1:2], s[4:7], 0 idxen offen
        buffer_load_b32 v5, v[1:2], s[8:11], 0 idxen offen
        s_buffer_load_b32 s12, s[4:7], 0x4c
        s_buffer_load_b32 s13, s[4:7], 0x50
        s_buffer_load_b64 s[14:15], s[4:7], 0x4c
        s_waitcnt vmcnt(0) lgkmcnt(0)
        v_lshlrev_b32 v6, 3, v0
        global_store_b64 v6, v[4:5], s[2:3]
        v_mov_b32 v7, 0
        v_mov_b32 v8, s12
        v_mov_b32 v9, s13
        v_mov_b32 v10, s14
        v_mov_b32 v11, s15
        global_store_b128 v7, v[8:11], s[2:3] offset:512
        s_endpgm
        ",
    );
    let data: Vec<u32> = (0..256).map(|i| 0x1000 + i).collect();
    let buf = gpu.buffer(&data);
    let mut v0 = BufferResource::raw(buf.va(), 5);
    v0.stride = 16;
    v0.oob_select = gpu::rsrc::OobSelect::StructuredWithOffset;
    let mut v1 = v0;
    v1.oob_select = gpu::rsrc::OobSelect::Structured;
    let table = gpu.buffer(&[v0.encode(), v1.encode()].concat());
    let out = gpu.alloc(4096);
    let user = [addr(table.va()), addr(out.va())].concat();
    gpu.run(&Dispatch::new(&code, &user, [false; 3], [32, 1, 1]).ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 64);
    for l in 0..32u32 {
        let (index, offset) = (l / 5, (l % 5) * 4);
        let word = data[((index * 16 + offset) / 4) as usize];
        let mode0 = if index < 5 && offset + 4 <= 16 { word } else { 0 };
        let mode1 = if index < 5 { word } else { 0 };
        assert_eq!(
            [got[2 * l as usize], got[2 * l as usize + 1]],
            [mode0, mode1],
            "lane {l}: index {index} offset {offset}"
        );
    }
    // s_buffer_load: 0x4c < 80 reads, 0x50 does not; the b64 at 0x4c splits.
    assert_eq!(read_words(&out, 512, 4), [0x1000 + 19, 0, 0x1000 + 19, 0]);
}
