//! FLAT, GLOBAL and SCRATCH instructions: every load and store shape (narrow, wide, D16
//! and D16_HI), the address forms (saddr, 64-bit vaddr, addtid, scratch SVE / saddr / ST
//! mode, signed offsets), atomics, FLAT's routing by aperture to global memory, LDS and
//! scratch, the scratch swizzle, the alignment modes and the VGPR out-of-range rules.
//! Expected values come from CPU models written out in each test (byte arrays, the
//! swizzle formula, the RDNA3 ISA guide's atomic formulas), never from the executor.

// Lane loops index the inputs, the outputs and the CPU model by lane number.
#![allow(clippy::needless_range_loop)]

mod common;

use std::sync::Arc;
use std::time::Duration;

use common::{addr, read_words, run_wave_env, try_run_wave_env, Dispatch, Gpu, WaveEnv, W32, W64};
use gpu::spi::{AlignMode, VmidRegs};
use gpu::{Config, Report, ReportKind};

/// A fixed pseudo-random sequence.
fn rng(seed: u64) -> impl FnMut() -> u32 {
    let mut x = seed | 1;
    move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        (x >> 16) as u32
    }
}

fn to_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn to_words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

/// `n` (at most 4) bytes at `at`, little endian, zero extended.
fn le(b: &[u8], at: usize, n: usize) -> u32 {
    let mut w = [0u8; 4];
    w[..n].copy_from_slice(&b[at..at + n]);
    u32::from_le_bytes(w)
}

fn put(b: &mut [u8], at: usize, v: u32, n: usize) {
    b[at..at + n].copy_from_slice(&v.to_le_bytes()[..n]);
}

fn lanes(wave64: bool) -> usize {
    if wave64 {
        64
    } else {
        32
    }
}

fn vcc(wave64: bool) -> &'static str {
    if wave64 {
        "vcc"
    } else {
        "vcc_lo"
    }
}

/// `v[12:13]` = s[4:5] + v20 (the data buffer's address plus a per-lane byte offset).
fn vaddr_of_v20(wave64: bool) -> String {
    let vcc = vcc(wave64);
    format!(" v_mov_b32 v14, s5\n v_add_co_u32 v12, {vcc}, s4, v20\n v_add_co_ci_u32_e32 v13, {vcc}, 0, v14, {vcc}\n")
}

fn env(mem: Vec<u32>) -> WaveEnv {
    WaveEnv { mem, ..WaveEnv::default() }
}

/// GLOBAL loads of every width, saddr and 64-bit vaddr forms, signed offsets, unaligned
/// addresses (SH_MEM_CONFIG's default here is UNALIGNED).
#[test]
fn global_loads_every_width_and_address_form() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(7);
        let mem: Vec<u32> = (0..160).map(|_| r()).collect();
        let b = to_bytes(&mem);
        let off = |l: usize| 16 + 5 * l;
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [off(l) as u32, 0, 0, 0]).collect();
        let body = format!(
            " v_mov_b32 v20, v0\n{}\
             global_load_u8 v4, v0, s[4:5]\n\
             global_load_i8 v5, v0, s[4:5] offset:1\n\
             global_load_u16 v6, v0, s[4:5] offset:-3\n\
             global_load_i16 v7, v[12:13], off offset:3\n\
             global_load_b32 v8, v[12:13], off offset:-16\n\
             global_load_b96 v[9:11], v0, s[4:5] offset:6\n\
             s_waitcnt vmcnt(0)\n",
            vaddr_of_v20(wave64)
        );
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        for l in 0..n {
            let o = off(l);
            let want = [
                b[o] as u32,
                b[o + 1] as i8 as i32 as u32,
                le(&b, o - 3, 2),
                le(&b, o + 3, 2) as u16 as i16 as i32 as u32,
                le(&b, o - 16, 4),
                le(&b, o + 6, 4),
                le(&b, o + 10, 4),
                le(&b, o + 14, 4),
            ];
            assert_eq!(out.v[l], want, "wave64={wave64} lane {l}");
        }
        // b64 and b128 through both forms.
        let body = format!(
            " v_mov_b32 v20, v0\n{}\
             global_load_b64 v[4:5], v0, s[4:5] offset:4095\n\
             global_load_b128 v[6:9], v[12:13], off offset:-4096\n\
             global_load_b64 v[10:11], v[12:13], off\n\
             s_waitcnt vmcnt(0)\n",
            vaddr_of_v20(wave64)
        );
        let mem: Vec<u32> = (0..2200).map(|_| r()).collect();
        let b = to_bytes(&mem);
        let off = |l: usize| 4100 + 3 * l;
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [off(l) as u32, 0, 0, 0]).collect();
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem));
        for l in 0..n {
            let o = off(l);
            let want = [
                le(&b, o + 4095, 4),
                le(&b, o + 4099, 4),
                le(&b, o - 4096, 4),
                le(&b, o - 4092, 4),
                le(&b, o - 4088, 4),
                le(&b, o - 4084, 4),
                le(&b, o, 4),
                le(&b, o + 4, 4),
            ];
            assert_eq!(out.v[l], want, "wave64={wave64} lane {l}");
        }
    }
}

/// The D16 loads write one half of the register and keep the other: d16_* the low half
/// (u8 zero-extended, i8 sign-extended to 16 bits), d16_hi_* the high half.
#[test]
fn global_d16_loads_keep_the_other_half() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(11);
        let mem: Vec<u32> = (0..64).map(|_| r() | 0x8080_8080).collect();
        let b = to_bytes(&mem);
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [3 * l as u32, 0x1234_5678 ^ l as u32, 0, 0]).collect();
        let body = format!(
            " v_mov_b32 v20, v0\n{}\
             v_mov_b32 v4, v1\n v_mov_b32 v5, v1\n v_mov_b32 v6, v1\n\
             v_mov_b32 v7, v1\n v_mov_b32 v8, v1\n v_mov_b32 v9, v1\n\
             global_load_d16_u8 v4, v0, s[4:5]\n\
             global_load_d16_i8 v5, v0, s[4:5] offset:1\n\
             global_load_d16_b16 v6, v[12:13], off offset:2\n\
             global_load_d16_hi_u8 v7, v0, s[4:5] offset:3\n\
             global_load_d16_hi_i8 v8, v[12:13], off offset:4\n\
             global_load_d16_hi_b16 v9, v0, s[4:5] offset:5\n\
             s_waitcnt vmcnt(0)\n",
            vaddr_of_v20(wave64)
        );
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem));
        for l in 0..n {
            let (o, old) = (3 * l, inputs[l][1]);
            let lo = |v: u32| old & 0xffff_0000 | v & 0xffff;
            let hi = |v: u32| old & 0xffff | v << 16;
            let want = [
                lo(b[o] as u32),
                lo(b[o + 1] as i8 as i32 as u32),
                lo(le(&b, o + 2, 2)),
                hi(b[o + 3] as u32),
                hi(b[o + 4] as i8 as u16 as u32),
                hi(le(&b, o + 5, 2)),
            ];
            assert_eq!(&out.v[l][..6], &want, "wave64={wave64} lane {l}");
        }
    }
}

/// GLOBAL stores of every width, including the D16_HI ones (bits 23:16 / 31:16), at
/// unaligned addresses; lanes outside EXEC store nothing.
#[test]
fn global_stores_every_width() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(13);
        let mem: Vec<u32> = (0..16 * n).map(|_| r()).collect();
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [64 * l as u32 + 4, r(), r(), r()]).collect();
        let exec: u64 = 0xf7ff_ffff_ffef_fffd & if wave64 { u64::MAX } else { u32::MAX as u64 };
        let set_exec = if wave64 {
            format!("s_mov_b32 exec_lo, {:#x}\n s_mov_b32 exec_hi, {:#x}", exec as u32, exec >> 32)
        } else {
            format!("s_mov_b32 exec_lo, {exec:#x}")
        };
        let body = format!(
            " v_mov_b32 v20, v0\n{}\
             v_xor_b32 v21, v1, v3\n\
             v_mov_b32 v22, v1\n v_mov_b32 v23, v2\n v_mov_b32 v24, v3\n v_mov_b32 v25, v21\n\
             {set_exec}\n\
             global_store_b8 v0, v1, s[4:5]\n\
             global_store_b16 v[12:13], v2, off offset:1\n\
             global_store_d16_hi_b8 v0, v3, s[4:5] offset:3\n\
             global_store_d16_hi_b16 v[12:13], v21, off offset:5\n\
             global_store_b32 v0, v2, s[4:5] offset:7\n\
             global_store_b64 v[12:13], v[22:23], off offset:11\n\
             global_store_b96 v0, v[22:24], s[4:5] offset:19\n\
             global_store_b128 v[12:13], v[22:25], off offset:31\n\
             global_store_b8 v0, v24, s[4:5] offset:-1\n",
            vaddr_of_v20(wave64)
        );
        let (_, got) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        let mut b = to_bytes(&mem);
        for l in 0..n {
            if exec >> l & 1 == 0 {
                continue;
            }
            let [o, v1, v2, v3] = inputs[l];
            let (o, v21) = (o as usize, v1 ^ v3);
            put(&mut b, o, v1, 1);
            put(&mut b, o + 1, v2, 2);
            put(&mut b, o + 3, v3 >> 16, 1);
            put(&mut b, o + 5, v21 >> 16, 2);
            put(&mut b, o + 7, v2, 4);
            for (k, v) in [v1, v2].iter().enumerate() {
                put(&mut b, o + 11 + 4 * k, *v, 4);
            }
            for (k, v) in [v1, v2, v3].iter().enumerate() {
                put(&mut b, o + 19 + 4 * k, *v, 4);
            }
            for (k, v) in [v1, v2, v3, v21].iter().enumerate() {
                put(&mut b, o + 31 + 4 * k, *v, 4);
            }
            put(&mut b, o - 1, v3, 1);
        }
        assert_eq!(got, to_words(&b), "wave64={wave64}");
    }
}

/// global_load_addtid_b32 / global_store_addtid_b32: the address is saddr + offset +
/// lane id * 4 (AMDGPUUsage's gfx11 `saddr` operand: "Address = [saddr] + offset13s +
/// ThreadID * 4"); no VGPR address.
#[test]
fn global_addtid_addresses_by_lane() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(17);
        let mem: Vec<u32> = (0..3 * n).map(|_| r()).collect();
        let inputs: Vec<[u32; 4]> = (0..n).map(|_| [r(), 0, 0, 0]).collect();
        let body = format!(
            " global_load_addtid_b32 v4, s[4:5] offset:8\n\
             s_add_u32 s20, s4, {}\n s_addc_u32 s21, s5, 0\n\
             s_waitcnt vmcnt(0)\n\
             global_store_addtid_b32 v0, s[20:21] offset:-4\n",
            4 * n + 4
        );
        let (out, got) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        let mut want = mem.clone();
        for l in 0..n {
            assert_eq!(out.v[l][0], mem[2 + l], "wave64={wave64} lane {l}");
            want[n + l] = inputs[l][0];
        }
        assert_eq!(got, want);
    }
}

const FLOATS: [f32; 8] = [1.5, -3.25, 0.0, -0.0, 1e30, -7.0, 0.375, 100.0];

/// Every GLOBAL (or FLAT, to global memory) atomic, 32 and 64 bits, with and without
/// GLC: lane `l` of atomic `k` works on its own 8 bytes of region `k`; with GLC the old
/// value goes to the memory after the region. Half the cmpswap lanes match.
fn check_atomics(seg: &str, wave64: bool) {
    let n = lanes(wave64);
    let ops: Vec<(&str, bool)> = common::ATOMIC_OPS32
        .iter()
        .map(|o| (*o, false))
        .chain(common::ATOMIC_OPS64.iter().map(|o| (*o, true)))
        .collect();
    // FLAT has no csub.
    let ops: Vec<(&str, bool)> = ops.into_iter().filter(|(o, _)| seg == "global" || *o != "csub_u32").collect();
    let region = 16 * n; // bytes: n lanes × 8 bytes of targets, then n × 8 bytes returned
    let mut r = rng(19);
    // v0 = lane * 8 (the byte offset in a region), v1..v3 data; the float data are
    // FLOATS[v1 % 8] (src) and FLOATS[v3 % 8] (compare).
    let inputs: Vec<[u32; 4]> = (0..n).map(|l| [8 * l as u32, r() % 40, r(), r() % 40]).collect();
    let fsrc = |l: usize| FLOATS[inputs[l][1] as usize % 8].to_bits();
    let fcmp = |l: usize| FLOATS[inputs[l][3] as usize % 8].to_bits();
    let mut mem = vec![0u32; ops.len() * region / 4];
    for (k, (op, _)) in ops.iter().enumerate() {
        for l in 0..n {
            let w = (k * region + 8 * l) / 4;
            let [_, a, b, c] = inputs[l];
            mem[w] = match *op {
                "cmpswap_b32" if l % 2 == 0 => b,
                "cmpswap_b64" if l % 2 == 0 => c,
                "cmpswap_f32" if l % 2 == 0 => fcmp(l),
                o if o.ends_with("f32") => FLOATS[(inputs[l][3] as usize + 1) % 8].to_bits(),
                o if o.starts_with("inc") || o.starts_with("dec") => r() % 48,
                _ => r(),
            };
            mem[w + 1] = if *op == "cmpswap_b64" && l % 2 == 0 { b } else { r() };
            let _ = a;
        }
    }
    let table = mem.len();
    mem.extend(FLOATS.iter().map(|f| f.to_bits()));
    let mut body = format!(
        " s_mov_b32 s22, {t}\n\
         v_mov_b32 v30, v1\n v_mov_b32 v31, v2\n v_mov_b32 v32, v3\n v_mov_b32 v33, v2\n\
         v_and_b32 v34, 7, v1\n v_lshl_add_u32 v34, v34, 2, s22\n global_load_b32 v35, v34, s[4:5]\n\
         v_and_b32 v37, 7, v3\n v_lshl_add_u32 v37, v37, 2, s22\n global_load_b32 v36, v37, s[4:5]\n\
         s_waitcnt vmcnt(0)\n",
        t = 4 * table
    );
    for (k, (op, wide)) in ops.iter().enumerate() {
        let glc = k % 3 != 2;
        let data = match (*op, *wide) {
            ("cmpswap_b32", _) => "v[30:31]",
            ("cmpswap_b64", _) => "v[30:33]",
            ("cmpswap_f32", _) => "v[35:36]",
            (o, false) if o.ends_with("f32") => "v35",
            (_, false) => "v30",
            (_, true) => "v[30:31]",
        };
        let dst = if *wide { "v[40:41]" } else { "v40" };
        let (ret, g) = if glc { (format!("{dst}, "), " glc") } else { (String::new(), "") };
        body += &format!(" v_add_nc_u32 v20, {}, v0\n", k * region);
        if seg == "flat" {
            body += &vaddr_of_v20(wave64);
            body += &format!(" flat_atomic_{op} {ret}v[12:13], {data}{g}\n");
        } else {
            body += &format!(" global_atomic_{op} {ret}v20, {data}, s[4:5]{g}\n");
        }
        if glc {
            let st = if *wide { "global_store_b64" } else { "global_store_b32" };
            body += &format!(" s_waitcnt vmcnt(0)\n {st} v20, {dst}, s[4:5] offset:{}\n", 8 * n);
        }
    }
    let (_, got) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
    let mut want = mem.clone();
    for (k, (op, wide)) in ops.iter().enumerate() {
        let glc = k % 3 != 2;
        for l in 0..n {
            let w = (k * region + 8 * l) / 4;
            let [_, a, b, c] = inputs[l];
            let old = mem[w] as u64 | (mem[w + 1] as u64) << 32;
            let (new, ret) = if *wide {
                (common::atomic_ref64(op, old, a as u64 | (b as u64) << 32, c as u64 | (b as u64) << 32), old)
            } else {
                let (src, cmp) = if op.ends_with("f32") { (fsrc(l), fcmp(l)) } else { (a, b) };
                let new = common::atomic_ref32(op, mem[w], src, cmp);
                (new as u64 | old & !0xffff_ffff, old & 0xffff_ffff)
            };
            want[w] = new as u32;
            want[w + 1] = (new >> 32) as u32;
            if glc {
                let rw = (k * region + 8 * n + 8 * l) / 4;
                want[rw] = ret as u32;
                if *wide {
                    want[rw + 1] = (ret >> 32) as u32;
                }
            }
        }
    }
    for (i, (g, w)) in got.iter().zip(&want).enumerate() {
        let (k, lane) = (i * 4 / region, i * 4 % region % (8 * n) / 8);
        let what = ops.get(k).map_or("table", |o| o.0);
        assert_eq!(g, w, "{seg} wave64={wave64} {what} lane {lane} word {i}: got {g:#x} want {w:#x}");
    }
}

/// RDNA3-NOTES, "Memory alignment modes":
/// atomics, aligned to their size, of every operation.
#[test]
fn global_atomics_every_operation() {
    check_atomics("global", false);
    check_atomics("global", true);
}

#[test]
fn flat_atomics_to_global_memory_every_operation() {
    check_atomics("flat", false);
    check_atomics("flat", true);
}

/// Atomics of all lanes on one address happen one after the other in lane order (each
/// returns the sum of the lanes before it); lanes outside EXEC take no part.
#[test]
fn global_atomics_on_one_address_in_lane_order() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(23);
        let inputs: Vec<[u32; 4]> = (0..n).map(|_| [r(), r(), 0, 0]).collect();
        let exec: u64 = 0xdfff_7fff_fff7_fffe & if wave64 { u64::MAX } else { u32::MAX as u64 };
        let set_exec = if wave64 {
            format!("s_mov_b32 exec_lo, {:#x}\n s_mov_b32 exec_hi, {:#x}", exec as u32, exec >> 32)
        } else {
            format!("s_mov_b32 exec_lo, {exec:#x}")
        };
        let body = format!(
            " v_mov_b32 v4, 0x77\n v_mov_b32 v20, 4\n {set_exec}\n\
             global_atomic_add_u32 v4, v20, v0, s[4:5] glc\n\
             global_atomic_sub_u64 v20, v[0:1], s[4:5] offset:4\n\
             s_waitcnt vmcnt(0)\n"
        );
        let mem = vec![5, 1000, 0, 0];
        let (out, got) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        let mut acc = 1000u32;
        let mut acc64 = 0u64;
        for l in 0..n {
            if exec >> l & 1 == 0 {
                assert_eq!(out.v[l][0], 0x77, "lane {l}");
                continue;
            }
            assert_eq!(out.v[l][0], acc, "wave64={wave64} lane {l}");
            acc = acc.wrapping_add(inputs[l][0]);
            acc64 = acc64.wrapping_sub(inputs[l][0] as u64 | (inputs[l][1] as u64) << 32);
        }
        // The 64-bit atomic at offset 8 (v20 = 4, offset 4).
        assert_eq!(got, vec![5, acc, acc64 as u32, (acc64 >> 32) as u32], "wave64={wave64}");
    }
}

/// Lane `lane`'s bytes of private memory from a copy of the wave's scratch, undoing the
/// swizzle: private byte `a` of lane `l` is at `(a / 4) * lanes * 4 + l * 4 + a % 4`.
fn unswizzle(phys: &[u8], n: usize, lane: usize, len: usize) -> Vec<u8> {
    (0..len).map(|a| phys[(a / 4) * n * 4 + lane * 4 + a % 4]).collect()
}

/// SCRATCH loads and stores in every address form LLVM emits (ST mode `off, off`, SGPR
/// only, SVE VGPR only, both), negative offsets, unaligned multi-dword and D16 forms,
/// through the swizzle. RDNA3-NOTES, "Scratch addressing": swizzled scratch, the
/// lane's dwords interleaved with the other lanes' (element size 4, index stride the
/// wave's lanes, TID / 64 folded into the base): a copy of the wave's scratch memory
/// matches that layout. RDNA3-NOTES, "FLAT_SCRATCH": a wave with scratch has a non-zero,
/// 256-byte aligned FLAT_SCRATCH (read with s_getreg).
#[test]
fn scratch_every_form_through_the_swizzle() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(29);
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [32 * l as u32, r(), r(), r()]).collect();
        let body = "
 s_getreg_b32 s10, hwreg(HW_REG_FLAT_SCR_LO)
 s_getreg_b32 s11, hwreg(HW_REG_FLAT_SCR_HI)
 v_mov_b32 v50, 0
 v_mov_b32 v51, 0
 v_mov_b32 v52, 0
 v_mov_b32 v53, 0
 scratch_store_b128 off, v[50:53], off
 scratch_store_b128 off, v[50:53], off offset:16
 v_mov_b32 v22, 16
 s_mov_b32 s20, 1
 s_mov_b32 s21, 10
 scratch_store_b32 off, v1, off offset:4
 scratch_store_b64 v22, v[1:2], off offset:2
 scratch_store_b8 off, v3, s20 offset:-1
 scratch_store_d16_hi_b16 v22, v2, s21
 scratch_store_b16 off, v3, off offset:29
 scratch_store_d16_hi_b8 off, v1, off offset:31
 v_xor_b32 v9, v1, v2
 v_xor_b32 v10, v2, v3
 scratch_load_b32 v4, off, off offset:4
 scratch_load_b64 v[5:6], v22, off offset:2
 scratch_load_u8 v7, off, off
 scratch_load_i16 v8, off, off offset:29
 scratch_load_d16_hi_b16 v9, v22, off offset:10
 scratch_load_d16_i8 v10, off, off offset:31
 scratch_load_u16 v11, off, s21 offset:16
 s_waitcnt vmcnt(0)
 global_load_b128 v[40:43], v0, s[10:11]
 global_load_b128 v[44:47], v0, s[10:11] offset:16
 s_waitcnt vmcnt(0)
 global_store_b128 v0, v[40:43], s[4:5]
 global_store_b128 v0, v[44:47], s[4:5] offset:16
";
        let e = WaveEnv { mem: vec![0; 8 * n], scratch_per_lane: 64, ..WaveEnv::default() };
        let (out, got) = run_wave_env(body, &inputs, wave64, &e);
        let fs = out.s[0] as u64 | (out.s[1] as u64) << 32;
        assert!(fs != 0 && fs % 256 == 0, "FLAT_SCRATCH {fs:#x}");
        let phys = to_bytes(&got);
        for l in 0..n {
            let [_, v1, v2, v3] = inputs[l];
            let mut p = vec![0u8; 32];
            put(&mut p, 4, v1, 4);
            put(&mut p, 18, v1, 4);
            put(&mut p, 22, v2, 4);
            put(&mut p, 0, v3, 1);
            put(&mut p, 26, v2 >> 16, 2);
            put(&mut p, 29, v3, 2);
            put(&mut p, 31, v1 >> 16, 1);
            assert_eq!(unswizzle(&phys, n, l, 32), p, "wave64={wave64} lane {l}: private memory");
            let want = [
                le(&p, 4, 4),
                le(&p, 18, 4),
                le(&p, 22, 4),
                p[0] as u32,
                le(&p, 29, 2) as u16 as i16 as i32 as u32,
                (v1 ^ v2) & 0xffff | le(&p, 26, 2) << 16,
                (v2 ^ v3) & 0xffff_0000 | p[31] as i8 as u16 as u32,
                le(&p, 26, 2),
            ];
            assert_eq!(out.v[l], want, "wave64={wave64} lane {l}");
        }
    }
}

/// RDNA3-NOTES, "FLAT_SCRATCH": a wave without scratch reads FLAT_SCRATCH as zero, so a
/// scratch access goes to the bottom of the address space: a VM fault here.
#[test]
fn flat_scratch_is_zero_without_scratch() {
    for wave64 in [false, true] {
        let body = " s_getreg_b32 s10, hwreg(HW_REG_FLAT_SCR_LO)\n s_getreg_b32 s11, hwreg(HW_REG_FLAT_SCR_HI)\n";
        let (out, _) = run_wave_env(body, &[], wave64, &WaveEnv::default());
        assert_eq!((out.s[0], out.s[1]), (0, 0));
        let r = try_run_wave_env(" scratch_store_b32 off, v1, off offset:8\n", &[], wave64, &WaveEnv::default())
            .expect_err("a scratch store without scratch");
        assert_eq!(r.kind, ReportKind::VmFault, "{r}");
    }
}

/// The shared aperture's bits 63:32 with amdgpu's SH_MEM_BASES (0x2000 << 48), and the
/// private one's (0x1000 << 48).
const SHARED_HI: u32 = 0x2000_0000;
const PRIVATE_HI: u32 = 0x1000_0000;

/// FLAT routes each address by aperture: global memory; the shared aperture to LDS
/// (ds_load sees a flat store; a flat atomic works on LDS; past the allocation a store is
/// dropped and a load reads zero, RDNA3-NOTES, "LDS alignment and out-of-range behaviour");
/// the private aperture to the lane's scratch (scratch_load sees a flat store; LLVM's
/// `flat_load_i8 ... offset:2` form).
#[test]
fn flat_routes_by_aperture() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(31);
        let mem: Vec<u32> = (0..3 * 64).map(|_| r()).collect();
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [4 * l as u32, r(), r(), r()]).collect();
        let body = format!(
            " v_mov_b32 v20, v0\n{}\
             flat_load_b32 v4, v[12:13]\n\
             flat_store_b32 v[12:13], v1 offset:256\n\
             v_mov_b32 v14, v0\n v_mov_b32 v15, {SHARED_HI:#x}\n\
             flat_store_b32 v[14:15], v2 offset:16\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             ds_load_b32 v5, v0 offset:16\n\
             flat_load_b32 v6, v[14:15] offset:16\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_atomic_add_u32 v7, v[14:15], v3 offset:16 glc\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_load_b32 v8, v[14:15] offset:16\n\
             v_mov_b32 v16, 0x10000\n v_mov_b32 v17, {SHARED_HI:#x}\n v_mov_b32 v9, 7\n\
             flat_store_b32 v[16:17], v1\n\
             flat_load_b32 v9, v[16:17]\n\
             v_mov_b32 v18, 8\n v_mov_b32 v19, {PRIVATE_HI:#x}\n\
             flat_store_b32 v[18:19], v3\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             scratch_load_b32 v10, off, off offset:8\n\
             flat_load_i8 v11, v[18:19] offset:2\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n",
            vaddr_of_v20(wave64)
        );
        let e = WaveEnv { mem: mem.clone(), lds: 4096, scratch_per_lane: 64, ..WaveEnv::default() };
        let (out, got) = run_wave_env(&body, &inputs, wave64, &e);
        let mut want = mem.clone();
        for l in 0..n {
            let [_, v1, v2, v3] = inputs[l];
            want[64 + l] = v1;
            let w = [mem[l], v2, v2, v2, v2.wrapping_add(v3), 0, v3, (v3 >> 16) as u8 as i8 as i32 as u32];
            assert_eq!(out.v[l], w, "wave64={wave64} lane {l}");
        }
        assert_eq!(got, want);
    }
}

/// One FLAT instruction whose lanes go to different places (as LLVM's code for a generic
/// pointer that is global in some lanes and LDS in others): lane % 3 == 0 global, 1 LDS,
/// 2 private; loads, stores, 32- and 64-bit atomics.
#[test]
fn flat_lanes_mix_global_lds_and_scratch() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(37);
        let mem: Vec<u32> = (0..4 * n).map(|_| r()).collect();
        let inputs: Vec<[u32; 4]> = (0..n)
            .map(|l| {
                let (lo, hi) = match l % 3 {
                    0 => (16 * l as u32, 0),
                    1 => (16 * l as u32, SHARED_HI),
                    _ => (16, PRIVATE_HI),
                };
                [(l % 3) as u32, lo, hi, r()]
            })
            .collect();
        let vcc = vcc(wave64);
        let body = format!(
            " v_mov_b32 v20, v1\n{}\
             v_cmp_eq_u32 {vcc}, 0, v0\n\
             v_cndmask_b32 v24, v1, v12, {vcc}\n v_cndmask_b32 v25, v2, v13, {vcc}\n\
             v_mov_b32 v30, v3\n v_not_b32 v31, v3\n v_mov_b32 v32, 0x80000000\n v_mov_b32 v33, v3\n\
             flat_store_b32 v[24:25], v3\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_atomic_add_u32 v4, v[24:25], v3 glc\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_load_b32 v5, v[24:25]\n\
             flat_store_b64 v[24:25], v[30:31] offset:8\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_load_b64 v[6:7], v[24:25] offset:8\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_atomic_max_u64 v[8:9], v[24:25], v[32:33] offset:8 glc\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_load_b64 v[10:11], v[24:25] offset:8\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n",
            vaddr_of_v20(wave64)
        );
        let e = WaveEnv { mem: mem.clone(), lds: 4096, scratch_per_lane: 64, ..WaveEnv::default() };
        let (out, got) = run_wave_env(&body, &inputs, wave64, &e);
        let mut want = mem.clone();
        for l in 0..n {
            let v3 = inputs[l][3];
            let old = v3 as u64 | (!v3 as u64) << 32;
            let max = old.max(0x8000_0000 | (v3 as u64) << 32);
            let w = [v3, v3.wrapping_mul(2), v3, !v3, old as u32, (old >> 32) as u32, max as u32, (max >> 32) as u32];
            assert_eq!(out.v[l], w, "wave64={wave64} lane {l}");
            if l % 3 == 0 {
                want[4 * l] = v3.wrapping_mul(2);
                want[4 * l + 2] = max as u32;
                want[4 * l + 3] = (max >> 32) as u32;
            }
        }
        assert_eq!(got, want);
    }
}

/// The apertures come from SH_MEM_BASES: with SHARED_BASE 0x3000 and PRIVATE_BASE
/// 0x4000 the LDS and scratch windows move, and amdgpu's default shared window is plain
/// global memory (unmapped here: a VM fault).
#[test]
fn flat_apertures_follow_sh_mem_bases() {
    for wave64 in [false, true] {
        let vmid = VmidRegs { sh_mem_bases: 0x3000_4000, ..VmidRegs::default() };
        let body = " v_mov_b32 v20, 12\n v_mov_b32 v21, 0x30000000\n\
             v_mov_b32 v22, 12\n v_mov_b32 v23, 0x40000000\n\
             flat_store_b32 v[20:21], v1\n flat_store_b32 v[22:23], v2\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             v_mov_b32 v24, 0\n ds_load_b32 v4, v24 offset:12\n scratch_load_b32 v5, off, off offset:12\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n";
        let inputs: Vec<[u32; 4]> = (0..lanes(wave64)).map(|l| [0, 100 + l as u32, 200 + l as u32, 0]).collect();
        let e = WaveEnv { lds: 1024, scratch_per_lane: 64, vmid, ..WaveEnv::default() };
        let (out, _) = run_wave_env(body, &inputs, wave64, &e);
        let last = lanes(wave64) as u32 - 1;
        for (l, v) in out.v.iter().enumerate() {
            // All lanes stored to LDS address 12: the last lane's store is the one left.
            assert_eq!([v[0], v[1]], [100 + last, 200 + l as u32], "lane {l}");
        }
        let old = format!(" v_mov_b32 v20, 12\n v_mov_b32 v21, {SHARED_HI:#x}\n flat_store_b32 v[20:21], v1\n");
        let r = try_run_wave_env(&old, &inputs, wave64, &e).expect_err("old shared window is global memory");
        assert_eq!(r.kind, ReportKind::VmFault, "{r}");
    }
}

/// RDNA3-NOTES, "Memory alignment modes": under DWORD alignment mode an
/// access is aligned down to the smaller of its size and a dword, for GLOBAL, SCRATCH
/// and FLAT (to global memory and to LDS).
#[test]
fn dword_mode_aligns_down() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(41);
        let mem: Vec<u32> = (0..16 * n).map(|_| r()).collect();
        let b = to_bytes(&mem);
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [64 * l as u32 + 8, r(), r(), 0]).collect();
        let body = format!(
            " v_mov_b32 v20, v0\n{}\
             global_load_b32 v4, v0, s[4:5] offset:2\n\
             global_load_u16 v5, v0, s[4:5] offset:5\n\
             global_load_b64 v[6:7], v[12:13], off offset:-2\n\
             global_load_u8 v8, v0, s[4:5] offset:3\n\
             s_waitcnt vmcnt(0)\n\
             global_store_b32 v0, v1, s[4:5] offset:34\n\
             scratch_store_b32 off, v2, off offset:6\n\
             scratch_load_b32 v9, off, off offset:4\n\
             v_mov_b32 v14, 0\n v_mov_b32 v15, {SHARED_HI:#x}\n\
             flat_store_b32 v[14:15], v1 offset:2\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             ds_load_b32 v10, v14\n\
             flat_load_u16 v11, v[12:13] offset:3\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n",
            vaddr_of_v20(wave64)
        );
        let vmid = VmidRegs::default().with_alignment(AlignMode::Dword);
        let e = WaveEnv { mem: mem.clone(), lds: 1024, scratch_per_lane: 64, vmid, ..WaveEnv::default() };
        let (out, got) = run_wave_env(&body, &inputs, wave64, &e);
        let mut want = mem.clone();
        for l in 0..n {
            let [o, v1, v2, _] = inputs[l];
            let o = o as usize;
            let w = [
                le(&b, o, 4),
                le(&b, o + 4, 2),
                le(&b, o - 4, 4),
                le(&b, o, 4),
                b[o + 3] as u32,
                v2,
                // Every lane stored v1 to LDS 0: the last lane's is there.
                inputs[n - 1][1],
                le(&b, o + 2, 2),
            ];
            assert_eq!(out.v[l], w, "wave64={wave64} lane {l}");
            want[(o + 32) / 4] = v1;
        }
        assert_eq!(got, want);
    }
}

/// Runs a whole kernel in one wave (s[0:1] = the data buffer) with `rsrc1` and the VMID's
/// registers; returns the dispatch's result and the buffer afterwards (also after a
/// fault, to see what the faulting instruction did).
fn run_kernel(src: &str, wave64: bool, rsrc1: u32, vmid: VmidRegs, mem: &[u32]) -> (Result<(), Arc<Report>>, Vec<u32>) {
    let mut gpu = Gpu::with_config(Config {
        threads: 2,
        hang_timeout: Duration::from_secs(5),
        memory_size: 64 << 20,
        vmid,
        ..Config::default()
    });
    let code = gpu.kernel_for(src, wave64);
    let data = gpu.buffer(mem);
    let mut d = Dispatch::new(&code, &addr(data.va()), [false; 3], [lanes(wave64) as u32, 1, 1]);
    d.rsrc1 = rsrc1;
    let res = gpu.run(&d.ib([1, 1, 1], if wave64 { W64 } else { W32 }));
    (res, read_words(&data, 0, mem.len()))
}

/// RDNA3-NOTES, "Memory alignment modes": under STRICT and DWORD_STRICT a
/// misaligned lane stores nothing, the other lanes complete, then the instruction raises
/// MEMVIOL. DWORD_STRICT asks for min(size, 4) alignment, STRICT for the size's (b96:
/// 4 bytes).
#[test]
fn strict_modes_drop_misaligned_lanes_and_raise_memviol() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        // Even lanes at lane * 8 + 2 (misaligned), odd lanes at lane * 8.
        let store = |op: &str, data: &str| {
            format!(
                " v_lshlrev_b32 v1, 3, v0\n v_and_b32 v2, 1, v0\n v_lshlrev_b32 v2, 1, v2\n\
                 v_xor_b32 v2, 2, v2\n v_add_nc_u32 v1, v1, v2\n v_add_nc_u32 v3, 0x100, v0\n\
                 v_mov_b32 v4, v3\n v_mov_b32 v5, v3\n\
                 {op} v1, {data}, s[0:1]\n s_endpgm\n"
            )
        };
        for mode in [AlignMode::Strict, AlignMode::DwordStrict] {
            let vmid = VmidRegs::default().with_alignment(mode);
            let (res, got) =
                run_kernel(&store("global_store_b32", "v3"), wave64, common::RSRC1, vmid, &vec![0; 2 * n + 2]);
            let r = res.expect_err("misaligned store");
            assert_eq!(r.kind, ReportKind::MemoryViolation, "{r}");
            for l in 0..n {
                let want = if l % 2 == 1 { 0x100 + l as u32 } else { 0 };
                assert_eq!(got[2 * l], want, "{mode:?} wave64={wave64} lane {l}");
            }
            // A 2-byte store at +2 is aligned in both.
            let (res, got) =
                run_kernel(&store("global_store_b16", "v3"), wave64, common::RSRC1, vmid, &vec![0; 2 * n + 2]);
            res.unwrap_or_else(|r| panic!("{r}"));
            assert_eq!(got[0], 0x100 << 16);
        }
        // b64 at a multiple of 4: DWORD_STRICT accepts it, STRICT does not; b96 at 4
        // passes STRICT (its largest power-of-two factor is 4).
        let at4 = |op: &str, data: &str| {
            format!(" v_lshlrev_b32 v1, 4, v0\n v_add_nc_u32 v1, 4, v1\n v_mov_b32 v4, 1\n v_mov_b32 v5, 2\n v_mov_b32 v6, 3\n {op} v1, {data}, s[0:1]\n s_endpgm\n")
        };
        let vm = |m| VmidRegs::default().with_alignment(m);
        let mem = vec![0; 4 * n + 4];
        let (res, got) =
            run_kernel(&at4("global_store_b64", "v[4:5]"), wave64, common::RSRC1, vm(AlignMode::DwordStrict), &mem);
        res.unwrap_or_else(|r| panic!("{r}"));
        assert_eq!(&got[1..3], &[1, 2]);
        let (res, _) =
            run_kernel(&at4("global_store_b64", "v[4:5]"), wave64, common::RSRC1, vm(AlignMode::Strict), &mem);
        assert_eq!(res.expect_err("b64 at 4 under STRICT").kind, ReportKind::MemoryViolation);
        let (res, got) =
            run_kernel(&at4("global_store_b96", "v[4:6]"), wave64, common::RSRC1, vm(AlignMode::Strict), &mem);
        res.unwrap_or_else(|r| panic!("{r}"));
        assert_eq!(&got[1..4], &[1, 2, 3]);
        // SCRATCH and FLAT (to LDS) loads obey the mode too.
        for load in [
            "scratch_load_b32 v1, off, off offset:2",
            "v_mov_b32 v2, 0\n v_mov_b32 v3, 0x20000000\n flat_load_b32 v1, v[2:3] offset:2",
        ] {
            let src = format!(" {load}\n s_waitcnt vmcnt(0) lgkmcnt(0)\n s_endpgm\n");
            let e = WaveEnv { lds: 1024, scratch_per_lane: 64, vmid: vm(AlignMode::DwordStrict), ..WaveEnv::default() };
            let r = try_run_wave_env(&src.replace("s_endpgm", ""), &[], wave64, &e).expect_err(load);
            assert_eq!(r.kind, ReportKind::MemoryViolation, "{load}: {r}");
        }
    }
}

/// RDNA3-NOTES, "Memory alignment modes": atomics must be aligned to their data size, else
/// MEMVIOL, even in UNALIGNED mode, for global, LDS and private atomics; the aligned lanes
/// still do theirs.
#[test]
fn misaligned_atomics_raise_memviol() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        // Lane 1 misaligned, the others aligned to 8.
        let src = |atomic: &str| {
            format!(
                " v_lshlrev_b32 v1, 3, v0\n v_cmp_eq_u32 {vcc}, 1, v0\n v_cndmask_b32 v2, 0, 4, {vcc}\n\
                 v_add_nc_u32 v1, v1, v2\n v_mov_b32 v4, 1\n v_mov_b32 v5, 0\n {atomic}\n s_endpgm\n",
                vcc = vcc(wave64)
            )
        };
        let (res, got) = run_kernel(
            &src("global_atomic_add_u64 v1, v[4:5], s[0:1]"),
            wave64,
            common::RSRC1,
            VmidRegs::default(),
            &vec![0; 2 * n + 2],
        );
        assert_eq!(res.expect_err("b64 atomic at 4").kind, ReportKind::MemoryViolation);
        for l in 0..n {
            assert_eq!(got[2 * l], (l != 1) as u32, "lane {l}");
            assert_eq!(got[2 * l + 1], 0, "lane {l}");
        }
        let (res, _) = run_kernel(
            &src("v_add_nc_u32 v1, 2, v1\n global_atomic_add_u32 v1, v4, s[0:1]"),
            wave64,
            common::RSRC1,
            VmidRegs::default(),
            &vec![0; 2 * n + 2],
        );
        assert_eq!(res.expect_err("b32 atomic at 2").kind, ReportKind::MemoryViolation);
        for (seg, hi) in [("LDS", SHARED_HI), ("private", PRIVATE_HI)] {
            let body = format!(" v_mov_b32 v20, 2\n v_mov_b32 v21, {hi:#x}\n flat_atomic_add_u32 v[20:21], v1\n");
            let e = WaveEnv { lds: 1024, scratch_per_lane: 64, ..WaveEnv::default() };
            let r = try_run_wave_env(&body, &[], wave64, &e).expect_err(seg);
            assert_eq!(r.kind, ReportKind::MemoryViolation, "{seg}: {r}");
        }
    }
}

/// RDNA3-NOTES, "VGPR out-of-range behaviour": a load (or returning atomic)
/// whose returned VGPRs are not all allocated is issued with EXEC = 0: no register and no
/// memory changes; a source VGPR (data or address) out of range reads v0. The wave has
/// the smallest allocation (RSRC1.VGPRS = 0: 24 VGPRs in wave32, 12 in wave64).
#[test]
fn vgpr_out_of_range_rules() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let a = if wave64 { 12 } else { 24 };
        let src = format!(
            " v_lshlrev_b32 v0, 2, v0\n v_mov_b32 v1, 0x1111\n\
             v_mov_b32 v{a2}, 0x5555\n v_mov_b32 v{a1}, 0x6666\n\
             global_load_b64 v[{a1}:{a}], v0, s[0:1]\n\
             global_load_b32 v{a2}, v0, s[0:1]\n\
             s_waitcnt vmcnt(0)\n\
             global_store_b32 v0, v{a1}, s[0:1] offset:256\n\
             global_store_b32 v0, v{a2}, s[0:1] offset:512\n\
             global_store_b32 v0, v{a3}, s[0:1] offset:768\n\
             global_store_b32 v{a3}, v1, s[0:1] offset:1024\n\
             global_atomic_add_u32 v{a}, v0, v1, s[0:1] offset:1280 glc\n\
             global_atomic_add_u32 v0, v1, s[0:1] offset:1536\n\
             s_endpgm\n",
            a1 = a - 1,
            a2 = a - 2,
            a3 = a + 3,
        );
        let mem: Vec<u32> = (0..7 * 64).map(|i| 0x1000 + i).collect();
        let rsrc1 = common::RSRC1 & !0x3f;
        let (res, got) = run_kernel(&src, wave64, rsrc1, VmidRegs::default(), &mem);
        res.unwrap_or_else(|r| panic!("{r}"));
        let mut want = mem.clone();
        for l in 0..n {
            want[64 + l] = 0x6666;
            want[128 + l] = mem[l];
            want[192 + l] = 4 * l as u32;
            want[256 + l] = 0x1111;
            want[384 + l] = mem[384 + l] + 0x1111;
        }
        assert_eq!(got, want, "wave64={wave64}");
    }
}

/// The aperture sources LLVM reads to make a flat pointer of an LDS or private one
/// (`s_mov_b64 s[2:3], src_shared_base`, then the high half): 64-bit reads give the
/// window's base (or last byte, for the limits) from SH_MEM_BASES, 32-bit reads the low
/// half; a flat pointer built that way reaches LDS and scratch.
#[test]
fn aperture_sources_give_the_flat_windows() {
    for wave64 in [false, true] {
        for bases in [VmidRegs::default().sh_mem_bases, 0x3000_4000] {
            let vmid = VmidRegs { sh_mem_bases: bases, ..VmidRegs::default() };
            let body = "
 s_mov_b64 s[10:11], src_shared_base
 s_mov_b64 s[12:13], src_shared_limit
 s_mov_b64 s[14:15], src_private_base
 s_mov_b64 s[16:17], src_private_limit
 s_mov_b32 s18, src_shared_base
 s_mov_b32 s19, src_private_limit
 v_mov_b32 v20, 8
 v_mov_b32 v21, s11
 v_mov_b32 v22, 4
 v_mov_b32 v23, s15
 flat_store_b32 v[20:21], v1
 flat_store_b32 v[22:23], v2
 s_waitcnt vmcnt(0) lgkmcnt(0)
 v_mov_b32 v24, 0
 ds_load_b32 v4, v24 offset:8
 scratch_load_b32 v5, off, off offset:4
 s_waitcnt vmcnt(0) lgkmcnt(0)
";
            let inputs: Vec<[u32; 4]> = (0..lanes(wave64)).map(|l| [0, 7, 300 + l as u32, 0]).collect();
            let e = WaveEnv { lds: 1024, scratch_per_lane: 64, vmid, ..WaveEnv::default() };
            let (out, _) = run_wave_env(body, &inputs, wave64, &e);
            let (shared, private) = (bases >> 16 << 16, bases << 16);
            assert_eq!(out.s[..10], [0, shared, !0, shared, 0, private, !0, private, 0, !0], "{bases:#x}");
            for (l, v) in out.v.iter().enumerate() {
                assert_eq!([v[0], v[1]], [7, 300 + l as u32], "lane {l}");
            }
        }
    }
}

/// FLAT multi-dword and D16 accesses to LDS and scratch: a b128 store and b96 load at an
/// unaligned LDS offset; a multi-dword LDS load reaching past the allocation reads zero as
/// a whole and such a store writes nothing (RDNA3-NOTES,
/// "LDS alignment and out-of-range behaviour"); D16 forms to both.
#[test]
fn flat_wide_and_d16_accesses_to_lds_and_scratch() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let mut r = rng(43);
        let inputs: Vec<[u32; 4]> = (0..n).map(|_| [r(), r(), r(), r()]).collect();
        let body = format!(
            " v_mov_b32 v20, 0\n v_mov_b32 v21, {SHARED_HI:#x}\n\
             v_mov_b32 v22, 1016\n v_mov_b32 v23, {SHARED_HI:#x}\n\
             v_mov_b32 v24, 6\n v_mov_b32 v25, {PRIVATE_HI:#x}\n\
             v_mov_b32 v26, 0\n\
             v_mov_b32 v30, v0\n v_mov_b32 v31, v1\n v_mov_b32 v32, v2\n v_mov_b32 v33, v3\n\
             ds_store_b32 v26, v26 offset:1012\n ds_store_b32 v26, v26 offset:1016\n ds_store_b32 v26, v26 offset:1020\n\
             s_waitcnt lgkmcnt(0)\n\
             flat_store_b128 v[20:21], v[30:33] offset:6\n\
             flat_store_b64 v[22:23], v[30:31] offset:4\n\
             flat_store_d16_hi_b16 v[24:25], v1\n\
             flat_store_b64 v[24:25], v[30:31] offset:3\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             flat_load_b96 v[4:6], v[20:21] offset:6\n\
             v_mov_b32 v7, -1\n v_mov_b32 v8, -1\n\
             flat_load_b64 v[7:8], v[22:23] offset:4\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n\
             ds_load_b32 v8, v26 offset:1020\n\
             v_mov_b32 v9, v3\n v_mov_b32 v10, v3\n\
             flat_load_d16_hi_u8 v9, v[20:21] offset:7\n\
             flat_load_d16_b16 v10, v[24:25]\n\
             flat_load_b32 v11, v[24:25] offset:3\n\
             s_waitcnt vmcnt(0) lgkmcnt(0)\n",
        );
        let e = WaveEnv { lds: 1024, scratch_per_lane: 64, ..WaveEnv::default() };
        let (out, _) = run_wave_env(&body, &inputs, wave64, &e);
        let last = inputs[n - 1];
        for l in 0..n {
            let [v0, v1, _, v3] = inputs[l];
            // LDS: all lanes stored to the same place; the last lane's values are there.
            let mut lds = vec![0u8; 32];
            for (k, v) in last.iter().enumerate() {
                put(&mut lds, 6 + 4 * k, *v, 4);
            }
            // Private (per lane): d16_hi_b16 of v1 at 6, then b64 (v0, v1) at 9.
            let mut p = vec![0u8; 32];
            put(&mut p, 6, v1 >> 16, 2);
            put(&mut p, 9, v0, 4);
            put(&mut p, 13, v1, 4);
            let want = [
                le(&lds, 6, 4),
                le(&lds, 10, 4),
                le(&lds, 14, 4),
                0,
                0,
                v3 & 0xffff | (lds[7] as u32) << 16,
                v3 & 0xffff_0000 | le(&p, 6, 2),
                le(&p, 9, 4),
            ];
            assert_eq!(out.v[l], want, "wave64={wave64} lane {l}");
        }
    }
}

/// A scratch access whose SADDR field is 0x7F (`exec_hi`, outside scratch's SADDR class)
/// has no SGPR offset: Mesa 22.3's ACO encodes "off" so on gfx11 (RADV's wave64
/// `subgroups.ballot_broadcast` shaders), and adding EXEC_HI's all-ones would put the
/// access 4 GiB past the wave's scratch. LLVM writes the word only as raw data.
#[test]
fn scratch_saddr_exec_hi_is_no_offset() {
    for wave64 in [false, true] {
        let n = lanes(wave64);
        let inputs: Vec<[u32; 4]> = (0..n).map(|l| [4 * l as u32, 0x1000 + l as u32, 0, 0]).collect();
        // scratch_store_b32 off, v1, exec_hi offset:8 (words from Mesa 22.3's ACO, offset 8).
        let body = "
 .long 0xdc690008, 0x007f0180
 s_waitcnt vmcnt(0)
 scratch_load_b32 v4, off, off offset:8
 s_waitcnt vmcnt(0)
";
        let e = WaveEnv { scratch_per_lane: 16, ..WaveEnv::default() };
        let (out, _) = run_wave_env(body, &inputs, wave64, &e);
        for l in 0..n {
            assert_eq!(out.v[l][0], 0x1000 + l as u32, "wave64={wave64} lane {l}");
        }
    }
}
