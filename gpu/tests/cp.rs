//! The command processor's packets with the exact words RADV emits on gfx11 (timestamps,
//! events, indirect dispatch through LOAD_SH_REG_INDEX, the perf-counter lock with
//! ATOMIC_MEM) and every packet option a compute queue meets: WAIT_REG_MEM functions on
//! memory and registers, COPY_DATA sources and destinations, ATOMIC_MEM operations,
//! DMA_DATA without address increment and at its byte-count limit, RELEASE_MEM data and
//! interrupt selects, COND_EXEC. All hand-built PM4 through the winsys, checked on the host.

mod common;

use std::time::Duration;

use common::{addr, read_u64, read_words, write_words, Dispatch, Gpu, W32};
use gpu::pm4::{self, atomic_mem, reg, sel, wait, Builder};

fn lo(va: u64) -> u32 {
    va as u32
}
fn hi(va: u64) -> u32 {
    (va >> 32) as u32
}

/// RADV's `radv_write_timestamp` on gfx11: top of pipe is COPY_DATA from the GPU clock
/// (`0xC0044000, 0x00110509`), any later stage a RELEASE_MEM BOTTOM_OF_PIPE_TS with
/// DATA_SEL timestamp (`0x528, 0x63000000`). Both write 64-bit counter values that do not
/// decrease across a dispatch and are not ahead of the host's reading of the counter.
#[test]
fn radv_timestamp_words() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(common::TID3_KERNEL);
    let out = gpu.alloc(64 * 64 * 4);
    let ts = gpu.alloc(64);
    write_words(&ts, 0, &[0xffff_ffff; 16]);
    let (t0, t1) = (ts.va(), ts.va() + 8);
    let mut ib = vec![0xC004_4000, 0x0011_0509, 0, 0, lo(t0), hi(t0)];
    Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]).emit(
        &mut Builder(&mut ib),
        [64, 1, 1],
        W32,
    );
    ib.extend([0xC006_4900, 0x0000_0528, 0x6300_0000, lo(t1), hi(t1), 0, 0, 0]);
    let before = gpu.dev.timestamp();
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let after = gpu.dev.timestamp();
    let (a, b) = (read_u64(&ts, 0), read_u64(&ts, 8));
    assert!(before <= a && a <= b && b <= after, "{before} <= {a} <= {b} <= {after}");
    assert_eq!(read_words(&ts, 16, 2), [0xffff_ffff; 2], "8 bytes each");
}

/// RADV's events on gfx11: vkCmdSetEvent at top of pipe is WRITE_DATA (`0xC0033700,
/// 0x40100500`, ENGINE_SEL PFP even on compute), after compute a RELEASE_MEM CS_DONE
/// (`0x62F, 0x23000000`, 32-bit data); vkCmdWaitEvents is WAIT_REG_MEM
/// (`0xC0053C00, 0x13, va, 1, 0xFFFFFFFF, 4`). The waiting queue's dispatch must only run
/// after the other queue sets the event; it reads what the other queue's dispatch wrote.
#[test]
fn radv_event_words_order_two_queues() {
    let mut gpu = Gpu::new();
    let q2 = gpu.dev.create_queue().unwrap();
    let producer = gpu.kernel(common::TID3_KERNEL);
    // Adds 0x1000 to each word the producer wrote.
    let consumer = gpu.kernel(
        "v_and_b32 v1, 0x3ff, v0
         s_lshl_b32 s3, s2, 6
         v_add_nc_u32 v1, s3, v1
         v_lshlrev_b32 v1, 2, v1
         global_load_b32 v2, v1, s[0:1]
         s_waitcnt vmcnt(0)
         v_add_nc_u32 v2, 0x1000, v2
         global_store_b32 v1, v2, s[0:1]
         s_endpgm",
    );
    let data = gpu.alloc(64 * 64 * 4);
    let events = gpu.alloc(64);
    let (e0, e1) = (events.va(), events.va() + 4);
    // Queue 2: wait for event 0 (set at top of pipe by queue 1), dispatch the consumer.
    let mut waiter = vec![0xC005_3C00, 0x13, lo(e1), hi(e1), 1, 0xFFFF_FFFF, 4];
    Dispatch::new(&consumer, &addr(data.va()), [true, false, false], [64, 1, 1]).emit(
        &mut Builder(&mut waiter),
        [64, 1, 1],
        W32,
    );
    let wib = gpu.ib(&waiter);
    let seq2 = q2.submit(&[wib]).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    assert!(!q2.wait(seq2, Duration::ZERO).unwrap(), "the waiter must not pass an unset event");
    // Queue 1: set event 0 at top of pipe, run the producer, set event 1 after it.
    let mut setter = vec![0xC003_3700, 0x4010_0500, lo(e0), hi(e0), 1];
    Dispatch::new(&producer, &addr(data.va()), [true, false, false], [64, 1, 1]).emit(
        &mut Builder(&mut setter),
        [64, 1, 1],
        W32,
    );
    setter.extend([0xC006_4900, 0x0000_062F, 0x2300_0000, lo(e1), hi(e1), 1, 0, 0]);
    gpu.run(&setter).unwrap_or_else(|r| panic!("{r}"));
    assert!(q2.wait(seq2, Duration::from_secs(30)).unwrap_or_else(|r| panic!("{r}")));
    assert_eq!(read_words(&events, 0, 2), [1, 1]);
    let got = read_words(&data, 0, 64 * 64);
    for g in 0..64u32 {
        for t in 0..64u32 {
            assert_eq!(got[(g * 64 + t) as usize], t * 3 + g + 0x1000, "group {g} item {t}");
        }
    }
}

/// RADV's indirect dispatch on gfx11 with the grid size in user SGPRs: LOAD_SH_REG_INDEX
/// (`0xC0036300, va, (COMPUTE_USER_DATA_2 - 0xB000) >> 2, 3`) copies the three group
/// counts from the indirect buffer into user SGPRs s2..s4, then DISPATCH_INDIRECT reads
/// the same buffer. Every group stores the SGPRs it was given and its TGID.
#[test]
fn radv_indirect_dispatch_loads_grid_size_into_user_sgprs() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "s_mul_i32 s9, s6, 3
         s_mul_i32 s10, s7, 12
         s_add_u32 s9, s9, s10
         s_add_u32 s9, s9, s5
         s_lshl_b32 s9, s9, 4             // (x + 3 * y + 12 * z) * 16, TGID in s5..s7
         v_mov_b32 v0, s9
         v_mov_b32 v1, s2
         v_mov_b32 v2, s3
         v_mov_b32 v3, s4
         v_mov_b32 v4, s5
         global_store_b128 v0, v[1:4], s[0:1]
         s_endpgm",
    );
    let args = gpu.buffer(&[3, 4, 2]);
    let out = gpu.alloc(24 * 16);
    let va = args.va();
    let mut d = Dispatch::new(&code, &[addr(out.va()).to_vec(), vec![0; 3]].concat(), [true, true, true], [1, 1, 1]);
    d.rsrc2 = common::rsrc2(5, [true, true, true], 0);
    let mut ib = Vec::new();
    d.emit_regs(&mut Builder(&mut ib));
    let user2 = (reg::COMPUTE_USER_DATA_0 + 8 - pm4::SH_REG_BASE) >> 2;
    ib.extend([0xC003_6300, lo(va), hi(va), user2, 3]);
    ib.extend([0xC002_1602, lo(va), hi(va), W32]);
    // The shared builder emits the same LOAD_SH_REG_INDEX words.
    let mut built = Vec::new();
    Builder(&mut built).load_sh_regs(reg::COMPUTE_USER_DATA_0 + 8, va, 3);
    assert_eq!(&ib[ib.len() - 9..ib.len() - 4], &built[..]);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 24 * 4);
    for z in 0..2u32 {
        for y in 0..4u32 {
            for x in 0..3u32 {
                let at = ((x + 3 * y + 12 * z) * 4) as usize;
                assert_eq!(&got[at..at + 4], &[3, 4, 2, x], "group ({x}, {y}, {z})");
            }
        }
    }
}

/// RADV's perf-counter lock (`radv_queue.c`): ATOMIC_MEM `0xC0071E00, 0x148` is a
/// CMPSWAP_32 with LOOP_UNTIL_COMPARE_SATISFIED, swapping 0 → 1. While another queue
/// holds the lock (the word is 1) the CP keeps trying; once that queue writes 0 the CP
/// takes it, and COPY_DATA's atomic-return source then gives the value it saw (0).
#[test]
fn radv_atomic_mem_lock_waits_for_release() {
    let mut gpu = Gpu::new();
    let q2 = gpu.dev.create_queue().unwrap();
    let lock = gpu.buffer(&[1, 0, 0xdead, 0xdead]);
    let l = lock.va();
    let mut ib = vec![0xC007_1E00, 0x148, lo(l), hi(l), 1, 0, 0, 0, 10];
    // Then record the returned value and a marker.
    ib.extend([0xC004_4000, sel::ATOMIC_RETURN | sel::MEM << 8 | sel::WR_CONFIRM, 0, 0, lo(l + 8), hi(l + 8)]);
    Builder(&mut ib).write_data(l + 12, &[0x600d]);
    let seq = q2.submit(&[gpu.ib(&ib)]).unwrap();
    std::thread::sleep(Duration::from_millis(50));
    assert!(!q2.wait(seq, Duration::ZERO).unwrap(), "the lock is held");
    assert_eq!(read_words(&lock, 8, 2), [0xdead, 0xdead]);
    // Release it from queue 1.
    let mut rel = Vec::new();
    Builder(&mut rel).write_data(l, &[0]);
    gpu.run(&rel).unwrap();
    assert!(q2.wait(seq, Duration::from_secs(10)).unwrap_or_else(|r| panic!("{r}")));
    assert_eq!(read_words(&lock, 0, 4), [1, 0, 0, 0x600d]);
}

/// WAIT_REG_MEM: every compare function against values below, equal to and above the
/// reference, on memory (masked) and on a register (a UCONFIG register set by
/// SET_UCONFIG_REG, and an SH register set by WRITE_DATA to its dword offset). A
/// satisfied wait lets the following WRITE_DATA run; the functions that are not
/// satisfied are checked to hang (reported after the timeout) on a separate device.
#[test]
fn wait_reg_mem_compare_functions_on_memory_and_registers() {
    type Case = (u32, fn(u32, u32) -> bool);
    let cases: [Case; 7] = [
        (wait::ALWAYS, |_, _| true),
        (wait::LT, |v, r| v < r),
        (wait::LE, |v, r| v <= r),
        (wait::EQ, |v, r| v == r),
        (wait::NE, |v, r| v != r),
        (wait::GE, |v, r| v >= r),
        (wait::GT, |v, r| v > r),
    ];
    let mut checked = 0;
    for (func, holds) in cases {
        for value in [4u32, 5, 6] {
            let reference = 5;
            let satisfied = holds(value, reference);
            let mut gpu = Gpu::with_timeout(Duration::from_millis(if satisfied { 5000 } else { 100 }));
            let m = gpu.buffer(&[value | 0xab00, 0]);
            let mut ib = Vec::new();
            let mut b = Builder(&mut ib);
            b.wait_mem(m.va(), func, reference, 0xff);
            // Register space: a UCONFIG register (0x30000 + 0x100) and COMPUTE_USER_DATA_15.
            b.0.extend([pm4::header(pm4::op::SET_UCONFIG_REG, 2, false), 0x40, value]);
            b.wait_reg(0x30100, func, reference, 0xffff_ffff);
            b.0.extend([pm4::header(pm4::op::WRITE_DATA, 4, false), 0, reg::COMPUTE_USER_DATA_15 >> 2, 0, value]);
            b.wait_reg(reg::COMPUTE_USER_DATA_15, func, reference, 0xffff_ffff);
            b.write_data(m.va() + 4, &[1]);
            match gpu.run(&ib) {
                Ok(()) => assert!(satisfied, "function {func} value {value}: should have waited"),
                Err(r) => {
                    assert!(!satisfied, "function {func} value {value}: {r}");
                    assert_eq!(r.kind, gpu::ReportKind::Hang, "{r}");
                    assert!(r.to_string().contains("WAIT_REG_MEM"), "{r}");
                }
            }
            if satisfied {
                assert_eq!(read_words(&m, 4, 1), [1]);
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 21);
}

/// COPY_DATA: an immediate (32 and 64 bits), memory to memory (32 and 64 bits, the
/// address's low bits ignored as the hardware does), memory to an SH register (which the
/// next dispatch then receives as a user SGPR), a register to memory, and the timestamp.
#[test]
fn copy_data_sources_and_destinations() {
    let mut gpu = Gpu::new();
    let m = gpu.buffer(&[0x1111_1111, 0x2222_2222, 0x3333_3333, 0x4444_4444, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
    let v = m.va();
    let copy = |src_sel: u32, dst_sel: u32, wide: bool, src: u64, dst: u64| {
        let ctl = src_sel | dst_sel << sel::DST_SEL_SHIFT | if wide { sel::COUNT_SEL } else { 0 } | sel::WR_CONFIRM;
        vec![pm4::header(pm4::op::COPY_DATA, 5, false), ctl, lo(src), hi(src), lo(dst), hi(dst)]
    };
    let code = gpu.kernel(
        "v_mov_b32 v0, 0
         v_mov_b32 v1, s2
         global_store_b32 v0, v1, s[0:1] offset:52
         s_endpgm",
    );
    let mut ib = Vec::new();
    ib.extend(copy(sel::IMM, sel::MEM, false, 0xaaaa_bbbb, v + 16));
    ib.extend(copy(sel::IMM, sel::MEM, true, 0x0123_4567_89ab_cdef, v + 24 + 3));
    ib.extend(copy(sel::TC_L2, sel::MEM, false, v + 4 + 2, v + 32));
    ib.extend(copy(sel::SRC_MEM, sel::TC_L2, true, v + 8, v + 40));
    // Memory → COMPUTE_USER_DATA_2 (dword offset), dispatched as s2.
    let d = Dispatch::new(&code, &[addr(v).to_vec(), vec![0]].concat(), [false; 3], [1, 1, 1]);
    d.emit_regs(&mut Builder(&mut ib));
    ib.extend(copy(sel::TC_L2, sel::REG, false, v + 12, (reg::COMPUTE_USER_DATA_0 as u64 + 8) >> 2));
    Builder(&mut ib).dispatch_direct([1, 1, 1], W32);
    // The register back to memory.
    ib.extend(copy(sel::REG, sel::MEM, false, (reg::COMPUTE_USER_DATA_0 as u64 + 8) >> 2, v + 48));
    ib.extend(copy(sel::TIMESTAMP, sel::MEM, true, 0, v + 56));
    let before = gpu.dev.timestamp();
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&m, 0, 16);
    assert_eq!(got[4], 0xaaaa_bbbb);
    assert_eq!(&got[6..8], &[0x89ab_cdef, 0x0123_4567]);
    assert_eq!(got[8], 0x2222_2222);
    assert_eq!(&got[10..12], &[0x3333_3333, 0x4444_4444]);
    assert_eq!(got[13], 0x4444_4444, "the dispatch saw the copied user SGPR");
    assert_eq!(got[12], 0x4444_4444);
    let t = got[14] as u64 | (got[15] as u64) << 32;
    assert!(t >= before && t <= gpu.dev.timestamp(), "timestamp {t}");
}

/// ATOMIC_MEM: every TC_OP operation in 32 and 64 bits, with and without return, against
/// the formulas of the operations (swap, compare-swap hit and miss, add, sub, signed and
/// unsigned min/max, and, or, xor, inc and dec with wrap). The returned value is read
/// back through COPY_DATA's atomic-return source.
#[test]
fn atomic_mem_operations() {
    type Op = (u32, &'static str, fn(u64, u64, u64, u64) -> u64);
    let ops: [Op; 13] = [
        (atomic_mem::SWAP, "swap", |_, s, _, _| s),
        (atomic_mem::CMPSWAP, "cmpswap", |t, s, c, _| if t == c { s } else { t }),
        (atomic_mem::ADD, "add", |t, s, _, m| t.wrapping_add(s) & m),
        (atomic_mem::SUB, "sub", |t, s, _, m| t.wrapping_sub(s) & m),
        (atomic_mem::SMIN, "smin", |t, s, _, m| if sext(t, m) < sext(s, m) { t } else { s }),
        (atomic_mem::UMIN, "umin", |t, s, _, _| t.min(s)),
        (atomic_mem::SMAX, "smax", |t, s, _, m| if sext(t, m) > sext(s, m) { t } else { s }),
        (atomic_mem::UMAX, "umax", |t, s, _, _| t.max(s)),
        (atomic_mem::AND, "and", |t, s, _, _| t & s),
        (atomic_mem::OR, "or", |t, s, _, _| t | s),
        (atomic_mem::XOR, "xor", |t, s, _, _| t ^ s),
        (atomic_mem::INC, "inc", |t, s, _, _| if t >= s { 0 } else { t + 1 }),
        (atomic_mem::DEC, "dec", |t, s, _, _| if t == 0 || t > s { s } else { t - 1 }),
    ];
    fn sext(v: u64, mask: u64) -> i64 {
        if mask == u32::MAX as u64 {
            v as u32 as i32 as i64
        } else {
            v as i64
        }
    }
    let mut gpu = Gpu::new();
    let pairs: [(u64, u64); 6] = [
        (5, 3),
        (3, 5),
        (0, 0),
        (0xffff_ffff_ffff_fff0, 7),
        (0x8000_0000, 0x7fff_ffff),
        (0x7fff_ffff_ffff_ffff, 0x8000_0000_0000_0000),
    ];
    let mut compared = 0;
    for (tc, name, f) in ops {
        for wide in [false, true] {
            for ret in [true, false] {
                let mask = if wide { u64::MAX } else { u32::MAX as u64 };
                let code =
                    tc | if wide { atomic_mem::OP_64 } else { 0 } | if ret { 0 } else { atomic_mem::OP_NO_RETURN };
                let m = gpu.alloc(16 * pairs.len() as u64);
                let mut ib = Vec::new();
                for (k, &(t, s)) in pairs.iter().enumerate() {
                    let (t, s) = (t & mask, s & mask);
                    let at = m.va() + 16 * k as u64;
                    write_words(&m, 16 * k as u64, &[t as u32, (t >> 32) as u32, 0, 0]);
                    let cmp = if k % 2 == 0 { t } else { t ^ 1 };
                    Builder(&mut ib).atomic_mem(code, atomic_mem::SINGLE_PASS, at, s, cmp);
                    let ctl = sel::ATOMIC_RETURN | sel::MEM << sel::DST_SEL_SHIFT | sel::COUNT_SEL;
                    ib.extend([pm4::header(pm4::op::COPY_DATA, 5, false), ctl, 0, 0, lo(at + 8), hi(at + 8)]);
                }
                gpu.run(&ib).unwrap_or_else(|r| panic!("{name}: {r}"));
                for (k, &(t, s)) in pairs.iter().enumerate() {
                    let (t, s) = (t & mask, s & mask);
                    let cmp = if k % 2 == 0 { t } else { t ^ 1 };
                    let after = read_u64(&m, 16 * k as u64) & mask;
                    assert_eq!(after, f(t, s, cmp, mask), "{name} wide={wide} mem {t:#x} src {s:#x}");
                    assert_eq!(read_u64(&m, 16 * k as u64 + 8), t, "{name} wide={wide}: returned value");
                    compared += 1;
                }
            }
        }
    }
    assert_eq!(compared, 13 * 2 * 2 * 6);
}

/// DMA_DATA at the edges of its COMMAND dword: the largest byte count the 26-bit field
/// holds (2^26 - 1 bytes, copied exactly, the byte after untouched), RADV's per-packet
/// maximum of 32736 bytes for fills, SAIC (one source dword repeated) and DAIC (every
/// dword to one destination: the last one stays), and a zero-byte CP_SYNC packet.
#[test]
fn dma_data_byte_count_limits_and_fixed_addresses() {
    let mut gpu = Gpu::new();
    let max = pm4::dma::BYTE_COUNT_MASK;
    let src = gpu.alloc(max as u64 + 1);
    let dst = gpu.alloc(max as u64 + 1);
    // A recognisable pattern at the start, the middle and the end of the source.
    for at in [0u64, 1 << 25, max as u64 - 7] {
        write_words(&src, at & !3, &[0x0403_0201, 0x0807_0605]);
    }
    write_words(&dst, max as u64 - 3, &[0xeeee_eeee]);
    let mut ib = Vec::new();
    Builder(&mut ib).dma_copy(dst.va(), src.va(), max);
    let small = gpu.alloc(64 * 1024);
    Builder(&mut ib).dma_fill(small.va(), 0x5a5a_5a5a, pm4::dma::MAX_BYTES);
    let f = gpu.buffer(&[7, 8, 9, 10, 0, 0, 0, 0, 0xff, 0xff]);
    let fv = f.va();
    use pm4::dma::*;
    let hdr = pm4::header(pm4::op::DMA_DATA, 6, false);
    ib.extend([hdr, SRC_ADDR_TC_L2 | DST_ADDR_TC_L2, lo(fv), hi(fv), lo(fv + 16), hi(fv + 16), 16 | SAIC]);
    ib.extend([hdr, SRC_ADDR_TC_L2 | DST_ADDR_TC_L2, lo(fv), hi(fv), lo(fv + 32), hi(fv + 32), 16 | DAIC]);
    ib.extend([hdr, CP_SYNC | SRC_ADDR_TC_L2 | DST_ADDR_TC_L2, 0, 0, 0, 0, 0]);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let bytes = |bo: &gpu::mem::Bo, at: u64, n: usize| -> Vec<u8> {
        let first = at & !3;
        let words = ((at + n as u64).div_ceil(4) * 4 - first) / 4;
        let w = read_words(bo, first, words as usize);
        w.iter().flat_map(|w| w.to_le_bytes()).skip((at - first) as usize).take(n).collect()
    };
    for at in [0u64, 1 << 25, max as u64 - 7] {
        assert_eq!(bytes(&dst, at, 7), bytes(&src, at, 7), "copy at {at:#x}");
    }
    assert_eq!(bytes(&dst, max as u64, 1), [0xee], "the byte after the count is untouched");
    assert_eq!(read_words(&small, MAX_BYTES as u64 - 4, 2), [0x5a5a_5a5a, 0], "fill of exactly MAX_BYTES");
    assert_eq!(read_words(&f, 16, 6), [7, 7, 7, 7, 10, 0xff], "SAIC repeats the source dword, DAIC keeps the last");
}

/// DMA_DATA copies and fills over a range that runs through several mappings, as a sparse
/// buffer's pages bound to different memory do (GEM_VA REPLACE): each byte reaches the
/// memory its page is bound to; an unmapped page in the range faults at its address.
#[test]
fn dma_data_runs_over_several_mappings() {
    use gpu::mem::{Memory, PAGE};
    let mut gpu = Gpu::new();
    let va = 0x8000_0010_0000u64;
    let (a, b, c) = (Memory::new(PAGE).unwrap(), Memory::new(PAGE).unwrap(), Memory::new(2 * PAGE).unwrap());
    gpu.dev.address_space().map_at(va, &a, 0, PAGE).unwrap();
    gpu.dev.address_space().map_at(va + PAGE, &b, 0, PAGE).unwrap();
    gpu.dev.address_space().map_at(va + 2 * PAGE, &c, PAGE, PAGE).unwrap();
    let src = gpu.alloc(3 * PAGE);
    let pattern: Vec<u32> = (0..3 * PAGE as u32 / 4).map(|i| i * 7 + 1).collect();
    write_words(&src, 0, &pattern);
    let mut ib = Vec::new();
    // The source's bytes 8.. to the three pages from va + 8, then a fill over the first
    // two pages' boundary.
    Builder(&mut ib).dma_copy(va + 8, src.va() + 8, 3 * PAGE as u32 - 16);
    Builder(&mut ib).dma_fill(va + PAGE - 8, 0x5a5a_5a5a, 16);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let word = |m: &Memory, at: u64| unsafe { (m.host_ptr().add(at as usize) as *const u32).read() };
    assert_eq!([word(&a, 8), word(&a, PAGE - 12)], [pattern[2], pattern[PAGE as usize / 4 - 3]]);
    assert_eq!(
        [word(&a, PAGE - 8), word(&b, 4), word(&b, 8)],
        [0x5a5a_5a5a, 0x5a5a_5a5a, pattern[PAGE as usize / 4 + 2]]
    );
    assert_eq!(word(&c, PAGE), pattern[2 * PAGE as usize / 4], "the third mapping starts at its offset");
    assert_eq!(word(&c, 2 * PAGE - 12), pattern[3 * PAGE as usize / 4 - 3]);
    // A hole in the middle: the copy faults at the hole's first byte.
    assert!(gpu.dev.address_space().clear_range(va + PAGE, PAGE).unwrap());
    let mut ib = Vec::new();
    Builder(&mut ib).dma_copy(va + 8, src.va() + 8, 3 * PAGE as u32 - 16);
    let r = gpu.run(&ib).expect_err("a copy into an unmapped page faults");
    assert!(r.to_string().contains(&format!("{:#x}", va + PAGE)), "{r}");
}

/// RELEASE_MEM: 32-bit data (low bits of the address ignored, as the address field starts
/// at bit 2), 64-bit data, the GPU and system clock selects, no data with an interrupt,
/// and DST_SEL of a queue register refused with the decoded packet. COND_EXEC skips its
/// packets when the word it reads is zero.
#[test]
fn release_mem_selects_and_cond_exec() {
    use pm4::release::*;
    let mut gpu = Gpu::new();
    let m = gpu.alloc(64);
    let v = m.va();
    let cond = gpu.buffer(&[0, 1]);
    let mut ib = Vec::new();
    let mut b = Builder(&mut ib);
    b.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, DATA_32, INT_SEND_DATA, v + 2, 0x1234_5678_9abc_def0);
    b.release_mem(pm4::event::CS_DONE, DATA_64, INT_NONE, v + 8, 0x0102_0304_0506_0708);
    b.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, DATA_TIMESTAMP, INT_NONE, v + 16, 0);
    b.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, DATA_SYSTEM_CLOCK, INT_NONE, v + 24, 0);
    b.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, DATA_NONE, INT_AFTER_WRITE, v + 40, 0);
    // COND_EXEC on a zero word skips the next WRITE_DATA (5 dwords); on a non-zero one not.
    b.cond_exec(cond.va(), 5);
    b.write_data(v + 32, &[0xbad]);
    b.cond_exec(cond.va() + 4, 5);
    b.write_data(v + 36, &[0x600d]);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&m, 0, 12);
    assert_eq!(got[0], 0x9abc_def0);
    assert_eq!(&got[2..4], &[0x0506_0708, 0x0102_0304]);
    let (t1, t2) = (read_u64(&m, 16), read_u64(&m, 24));
    assert!(t1 > 0 && t1 <= t2 && t2 <= gpu.dev.timestamp());
    assert_eq!(&got[8..11], &[0, 0x600d, 0]);
    // DST_SEL 2 (a queue write pointer) is not something a compute IB may do.
    let mut bad = Vec::new();
    Builder(&mut bad).release_mem(pm4::event::BOTTOM_OF_PIPE_TS, DATA_32, INT_NONE, v, 1);
    bad[2] |= 2 << DST_SEL_SHIFT;
    let r = gpu.run(&bad).expect_err("RELEASE_MEM to a queue register");
    assert_eq!(r.kind, gpu::ReportKind::CpError);
    assert!(r.to_string().contains("RELEASE_MEM") && r.to_string().contains("DST_SEL 2"), "{r}");
}

/// RADV's gfx11 queue preamble, as RADV 22.3 put it in an IB2 on the graphics ring (the
/// first words of each packet; the register values are RADV's): CONTEXT_CONTROL,
/// CLEAR_STATE, SET_CONTEXT_REG, SET_UCONFIG_REG, SET_SH_REG_INDEX and SET_SH_REG.
const RADV_PREAMBLE: &[u32] = &[
    0xc001_2800,
    0x8000_0000,
    0x8000_0000, // CONTEXT_CONTROL
    0xc000_1200,
    0x0000_0000, // CLEAR_STATE
    0xc001_6900,
    0x0000_0286,
    0x4280_0000, // SET_CONTEXT_REG
    0xc001_7900,
    0x0000_0259,
    0xffff_ffff, // SET_UCONFIG_REG
    0xc001_9b00,
    0x3000_0107,
    0xffff_003f, // SET_SH_REG_INDEX
    0xc004_7600,
    0x0000_0032,
    0,
    0,
    0,
    0, // SET_SH_REG
    0xc001_6900,
    0x0000_02d4,
    0xd8ff_ffff, // SET_CONTEXT_REG
    0xc001_7900,
    0x0000_0444,
    0x1235_5123, // SET_UCONFIG_REG
];

/// What RADV put after the IB2 before its first dispatch: a RELEASE_MEM and an ACQUIRE_MEM
/// with gfx11's pixel-wait-sync bits, a cache invalidation and PIPELINESTAT_START.
const RADV_AFTER_PREAMBLE: &[u32] = &[
    0xc006_4900,
    0x8000_0528,
    0,
    0,
    0,
    0,
    0,
    0, // RELEASE_MEM BOTTOM_OF_PIPE_TS, PWS
    0xc006_5800,
    0x0002_2800,
    0xffff_ffff,
    0x01ff_ffff,
    0,
    0,
    0x8000_0000,
    0, // ACQUIRE_MEM, PWS
    0xc006_5800,
    0,
    0xffff_ffff,
    0x00ff_ffff,
    0,
    0,
    0x0a,
    0xc3b1, // ACQUIRE_MEM GCR_CNTL
    0xc000_4600,
    0x0000_0019, // EVENT_WRITE PIPELINESTAT_START
    0xc000_4200,
    0, // PFP_SYNC_ME
    0xc000_4600,
    0x0000_0410, // EVENT_WRITE PS_PARTIAL_FLUSH
];

/// RADV's IB1 on the graphics ring: the preamble IB2 called without the VALID bit
/// (`c0023f00 … 000000a8`: RADV never sets it on IB2s, and amdgpu's graphics ring puts
/// none on its IB1s), then a dispatch.
fn radv_gfx_ib(gpu: &mut Gpu, out: u64) -> Vec<u32> {
    let preamble = gpu.ib(RADV_PREAMBLE);
    let code = gpu.kernel(common::TID3_KERNEL);
    let mut ib = vec![0xc002_3f00, lo(preamble.va), hi(preamble.va), preamble.dwords];
    ib.extend(RADV_AFTER_PREAMBLE);
    Dispatch::new(&code, &addr(out), [true, false, false], [64, 1, 1]).emit(&mut Builder(&mut ib), [64, 1, 1], W32);
    ib.extend([0xc000_4600, 0x0000_0407]); // CS_PARTIAL_FLUSH
    ib
}

/// On the graphics ring RADV's preamble is taken and the dispatch after it runs; a
/// compute queue refuses the same IB at the IB2 without VALID, as the MEC does.
#[test]
fn radv_graphics_ring_preamble_then_dispatch() {
    let mut gpu = Gpu::new();
    gpu.queue = gpu.dev.create_queue_of(gpu::QueueKind::Gfx).unwrap();
    let out = gpu.alloc(64 * 64 * 4);
    let ib = radv_gfx_ib(&mut gpu, out.va());
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 64 * 64);
    for g in 0..64u32 {
        for t in 0..64u32 {
            assert_eq!(got[(g * 64 + t) as usize], t * 3 + g, "group {g} item {t}");
        }
    }

    let mut compute = Gpu::new();
    let out = compute.alloc(64 * 64 * 4);
    let ib = radv_gfx_ib(&mut compute, out.va());
    let report = compute.run(&ib).expect_err("a compute queue takes no IB without VALID");
    assert!(report.summary.contains("INDIRECT_BUFFER without the VALID bit"), "{report}");
    assert_eq!(read_words(&out, 0, 1), [0], "nothing ran");
}

/// Pipeline statistics as RADV uses them on both rings: EVENT_WRITE PIPELINESTAT_START /
/// _STOP, and SAMPLE_PIPELINESTAT (EVENT_INDEX 2, the address after it) writing the 11
/// 64-bit counters in the hardware's order (`pm4::pipelinestat`): CS_INVOCATIONS counts the
/// work-items launched while the counters are on — partial groups as launched — and the
/// graphics counters are 0.
#[test]
fn pipeline_statistics_count_compute_invocations_on_both_rings() {
    for kind in [gpu::QueueKind::Compute, gpu::QueueKind::Gfx] {
        let mut gpu = Gpu::new();
        gpu.queue = gpu.dev.create_queue_of(kind).unwrap();
        let out = gpu.alloc(64 * 64 * 4);
        let stats = gpu.alloc(3 * 88);
        write_words(&stats, 0, &[0xdead_beef; 3 * 22]);
        let code = gpu.kernel(common::TID3_KERNEL);
        let sample = |ib: &mut Vec<u32>, at: u64| ib.extend([0xc002_4600, 0x21e, lo(at), hi(at)]);
        let d = Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]);
        let mut ib = vec![0xc000_4600, 0x0000_0019]; // EVENT_WRITE PIPELINESTAT_START
        sample(&mut ib, stats.va());
        d.emit(&mut Builder(&mut ib), [5, 1, 1], W32);
        sample(&mut ib, stats.va() + 88);
        ib.extend([0xc000_4600, 0x0000_001a]); // EVENT_WRITE PIPELINESTAT_STOP
        d.emit(&mut Builder(&mut ib), [7, 1, 1], W32);
        sample(&mut ib, stats.va() + 176);
        gpu.run(&ib).unwrap_or_else(|r| panic!("{kind:?}: {r}"));
        assert_eq!(read_words(&out, 0, 2), [0, 3], "the dispatch ran (item t of group g writes t * 3 + g)");
        let got = read_words(&stats, 0, 3 * 22);
        for (k, want) in [(0, 0u64), (1, 5 * 64), (2, 5 * 64)] {
            let block: Vec<u64> =
                (0..11).map(|c| got[22 * k + 2 * c] as u64 | (got[22 * k + 2 * c + 1] as u64) << 32).collect();
            assert_eq!(block[..10], [0; 10], "{kind:?} sample {k}: graphics counters");
            assert_eq!(block[10], want, "{kind:?} sample {k}: CS_INVOCATIONS (counted only while on)");
        }
    }
}

/// A draw on the graphics ring is a CP error naming it, with the decoded packet; the
/// device is lost, the host process carries on, and a later submission is refused.
#[test]
fn draw_on_graphics_ring_is_named_error() {
    let mut gpu = Gpu::new();
    gpu.queue = gpu.dev.create_queue_of(gpu::QueueKind::Gfx).unwrap();
    let mut ib = RADV_PREAMBLE.to_vec();
    // RADV's vkCmdDraw(3 vertices): DRAW_INDEX_AUTO with DI_SRC_SEL_AUTO_INDEX.
    ib.extend([0xc001_2d00, 3, 2]);
    let report = gpu.run(&ib).expect_err("a draw");
    assert_eq!(report.kind, gpu::ReportKind::CpError);
    assert!(report.summary.contains("graphics is not modelled"), "{report}");
    assert!(report.details.contains("DRAW_INDEX_AUTO (2 dw) vertices=3 draw_initiator=0x2"), "{report}");
    assert!(report.details.contains("words: c0012d00 00000003 00000002"), "{report}");
    assert!(report.details.contains("CONTEXT_CONTROL 0x80000000 0x80000000, 2 context registers set"), "{report}");
    let again = gpu.queue.submit(&[]);
    assert!(matches!(again, Err(gpu::SubmitError::Lost(_))), "{again:?}");
}

/// The graphics ring's packets stay refused on a compute queue (the MEC has no
/// CONTEXT_CONTROL), and the occlusion counters (ZPASS_DONE) are a named error on the
/// graphics ring.
#[test]
fn graphics_packets_need_the_graphics_ring() {
    let mut compute = Gpu::new();
    let report = compute.run(&RADV_PREAMBLE[..3]).expect_err("CONTEXT_CONTROL on a compute queue");
    assert!(report.summary.contains("CONTEXT_CONTROL is not supported on a compute queue"), "{report}");

    let mut gfx = Gpu::new();
    gfx.queue = gfx.dev.create_queue_of(gpu::QueueKind::Gfx).unwrap();
    // RADV's occlusion query: ZPASS_DONE (EVENT_INDEX 1, with the result address).
    let report = gfx.run(&[0xc002_4600, 0x115, 0x1000, 0]).expect_err("counters are not modelled");
    assert!(report.summary.contains("ZPASS_DONE: occlusion and streamout counters are not modelled"), "{report}");
}

/// RADV's indirect dispatch on the graphics ring: SET_BASE of the indirect base (index 1),
/// then the two-dword DISPATCH_INDIRECT with an offset from it (`c0021102 00000001 va`,
/// `c0011602 0 initiator`, from a trace of RADV 22.3).
#[test]
fn radv_graphics_ring_indirect_dispatch_through_set_base() {
    let mut gpu = Gpu::new();
    gpu.queue = gpu.dev.create_queue_of(gpu::QueueKind::Gfx).unwrap();
    let code = gpu.kernel(common::TID3_KERNEL);
    let out = gpu.alloc(64 * 64 * 4);
    let args = gpu.buffer(&[0, 0, 0, 0, 5, 1, 1]);
    let mut ib = Vec::new();
    Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]).emit_regs(&mut Builder(&mut ib));
    ib.extend([0xc002_1102, 1, lo(args.va()), hi(args.va())]);
    ib.extend([0xc001_1602, 16, W32]);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 64 * 64);
    for g in 0..64u32 {
        for t in 0..64u32 {
            let want = if g < 5 { t * 3 + g } else { 0 };
            assert_eq!(got[(g * 64 + t) as usize], want, "group {g} item {t}");
        }
    }
    // RADV's form: SET_BASE at the arguments themselves, 4 mod 8 (Vulkan's offsets are
    // multiples of 4: the CTS's 52), and an offset of 0. Arguments (3, 1, 1) at word 3.
    write_words(&out, 0, &[0; 64 * 64]);
    let args = gpu.buffer(&[0, 0, 0, 3, 1, 1]);
    let mut ib = Vec::new();
    Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]).emit_regs(&mut Builder(&mut ib));
    ib.extend([0xc002_1102, 1, lo(args.va() + 12), hi(args.va() + 12)]);
    ib.extend([0xc001_1602, 0, W32]);
    gpu.run(&ib).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 64 * 64);
    assert!((0..64u32).all(|g| got[(g * 64 + 1) as usize] == if g < 3 { 3 + g } else { 0 }), "3 groups ran");
    // The compute engines' form (an address) is not the graphics ring's.
    let report = gpu.run(&[0xc002_1602, lo(args.va()), hi(args.va()), W32]).expect_err("the address form");
    assert!(report.summary.contains("takes 2 dwords (an offset from SET_BASE)"), "{report}");
}
