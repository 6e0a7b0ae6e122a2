//! MUBUF and MTBUF: every buffer load, store and atomic against a CPU model written from
//! RDNA3-NOTES (its buffer sections): the V#, the address equations (linear,
//! structured, swizzled, ADD_TID_ENABLE), range checking per OOB_SELECT, format
//! conversions with host arithmetic (`half` for f16), D16 packing, DST_SEL, alignment
//! modes, null and mismatched V#s, and VGPR out-of-range rules.
//!
//! The harness's data buffer (address in s[4:5]) holds the buffers; V#s are built with
//! `s_mov` from that address. Results come back through v4..v11 or the data buffer.

// Lane loops index per-lane inputs and outputs by lane number.
#![allow(clippy::needless_range_loop)]

mod common;

use common::WaveEnv;
use gpu::rsrc::{sel, BufferResource, OobSelect};
use gpu::spi::{AlignMode, VmidRegs};
use gpu::ReportKind;
use half::f16;

/// The bodies here read what a load (or returning atomic) wrote right after it; a real
/// program waits first (RDNA3-NOTES, "Memory counters and s_waitcnt"), and
/// `SOFTNAVI_CHECK=1` insists: each buffer load and GLC atomic is followed by `s_waitcnt
/// vmcnt(0)`.
fn with_waits(body: &str) -> String {
    let mut out = String::new();
    for line in body.lines() {
        out.push_str(line);
        out.push('\n');
        let t = line.trim_start();
        let is_buf = t.starts_with("buffer_") || t.starts_with("tbuffer_");
        if is_buf && (t.contains("_load_") || (t.contains("_atomic_") && t.contains(" glc"))) {
            out.push_str("        s_waitcnt vmcnt(0)\n");
        }
    }
    out
}

fn run_wave_env(body: &str, inputs: &[[u32; 4]], wave64: bool, env: &WaveEnv) -> (common::WaveOut, Vec<u32>) {
    common::run_wave_env(&with_waits(body), inputs, wave64, env)
}

fn try_run_wave_env(
    body: &str,
    inputs: &[[u32; 4]],
    wave64: bool,
    env: &WaveEnv,
) -> Result<(common::WaveOut, Vec<u32>), std::sync::Arc<gpu::Report>> {
    common::try_run_wave_env(&with_waits(body), inputs, wave64, env)
}

const SENTINEL: u32 = 0xdead_beef;

/// A V# over the data buffer, `off` bytes into it, with `words` bytes of records.
fn vs(off: u32, num_records: u32) -> BufferResource {
    BufferResource::raw(off as u64, num_records)
}

/// Assembly that puts `v` (its base relative to the data buffer) in s[reg..reg+3].
fn vsharp(reg: u32, v: &BufferResource) -> String {
    let w = v.encode();
    format!(
        "s_add_u32 s{r0}, s4, {lo:#x}
         s_addc_u32 s{r1}, s5, {hi:#x}
         s_and_b32 s{r1}, s{r1}, 0xffff
         s_or_b32 s{r1}, s{r1}, {w1:#x}
         s_mov_b32 s{r2}, {w2:#x}
         s_mov_b32 s{r3}, {w3:#x}
        ",
        r0 = reg,
        r1 = reg + 1,
        r2 = reg + 2,
        r3 = reg + 3,
        lo = w[0],
        hi = w[1] & 0xffff,
        w1 = w[1] & 0xffff_0000,
        w2 = w[2],
        w3 = w[3],
    )
}

fn env(mem: Vec<u32>) -> WaveEnv {
    WaveEnv { mem, ..WaveEnv::default() }
}

fn bytes_of(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn word_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// A small deterministic generator.
fn rng(seed: u64) -> impl FnMut() -> u32 {
    let mut s = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        (s >> 16) as u32
    }
}

// ---------------------------------------------------------------------------------------
// The CPU model of addressing and range checking (RDNA3-NOTES, "Buffer addressing").

/// The byte offset of (index, offset) from the V# base, as RDNA3-NOTES, "Buffer addressing"
/// and "Swizzled buffer addressing" write it.
fn model_offset(v: &BufferResource, index: u64, offset: u64) -> u64 {
    if v.swizzle_enable == 0 {
        return v.stride as u64 * index + offset;
    }
    let element = [0, 4, 8, 16][v.swizzle_enable as usize];
    let index_stride = [8, 16, 32, 64][v.index_stride as usize];
    let (index_msb, index_lsb) = (index / index_stride, index % index_stride);
    let (offset_msb, offset_lsb) = (offset / element, offset % element);
    (index_msb * v.stride as u64 + offset_msb * element) * index_stride + index_lsb * element + offset_lsb
}

fn model_in_range(v: &BufferResource, index: u64, offset: u64, size: u64) -> bool {
    let nr = v.num_records as u64;
    match v.oob_select {
        OobSelect::StructuredWithOffset => index < nr && offset + size <= v.stride as u64,
        OobSelect::Structured => index < nr,
        OobSelect::Disabled => nr != 0,
        OobSelect::Raw => v.stride as u64 * index + offset + size <= nr,
    }
}

// ---------------------------------------------------------------------------------------
// Plain (opcode-derived) loads and stores.

/// RDNA3-NOTES, "Buffer instructions" and "Buffer range checking": every
/// opcode-derived load width (u8, i8, u16, i16, b32..b128) at byte offsets with OFFEN, the
/// instruction offset and an SGPR offset, in wave32 and wave64; B64/B96/B128 are range
/// checked per dword (OOB_SELECT 3, raw), narrower loads as a whole.
#[test]
fn plain_loads_every_width_range_checked_per_dword() {
    let mut r = rng(1);
    let mem: Vec<u32> = (0..64).map(|_| r()).collect();
    let bytes = bytes_of(&mem);
    let (soff, inst_off, nr) = (8u32, 4u32, 150u32);
    let loads = [
        ("buffer_load_u8 v4", 1, 1, Some(false)),
        ("buffer_load_i8 v5", 1, 1, Some(true)),
        ("buffer_load_u16 v6", 2, 1, Some(false)),
        ("buffer_load_i16 v7", 2, 1, Some(true)),
        ("buffer_load_b32 v8", 4, 1, None),
        ("buffer_load_b96 v[9:11]", 12, 3, None),
    ];
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        // v0 = byte offset of the lane: 5 * lane (unaligned: UNALIGNED is the default mode).
        let inputs: Vec<[u32; 4]> = (0..lanes as u32).map(|l| [5 * l, 0, 0, 0]).collect();
        let mut body = vsharp(8, &vs(0, nr));
        for (op, ..) in loads {
            body += &format!("{op}, v0, s[8:11], {soff} offen offset:{inst_off}\n");
        }
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        for l in 0..lanes {
            let offset = 5 * l as u32 + inst_off;
            let mut k = 0;
            for (op, size, dwords, narrow) in loads {
                for d in 0..dwords {
                    let o = offset + 4 * d;
                    let chunk = size.min(4);
                    let want = if o + chunk <= nr {
                        let at = (soff + o) as usize;
                        let w = word_at(&bytes, at);
                        match (size, narrow) {
                            (1, Some(false)) => w & 0xff,
                            (1, Some(true)) => w as u8 as i8 as i32 as u32,
                            (2, Some(false)) => w & 0xffff,
                            (2, Some(true)) => w as u16 as i16 as i32 as u32,
                            _ => w,
                        }
                    } else {
                        0
                    };
                    assert_eq!(out.v[l][k], want, "{op} lane {l} dword {d} wave64 {wave64}");
                    k += 1;
                }
            }
        }
    }
}

/// RDNA3-NOTES, "Buffer range checking": B64 and B128 loads are checked per dword, and
/// stores of every width write only their in-range part (b8, b16, b32, b64, b96, b128).
#[test]
fn plain_stores_every_width_range_checked_per_dword() {
    let stores = [("buffer_store_b8", 1u32, 1u32), ("buffer_store_b16", 2, 1), ("buffer_store_b32", 4, 1)];
    let wide = [("buffer_store_b64", 2u32), ("buffer_store_b96", 3), ("buffer_store_b128", 4)];
    for wave64 in [false, true] {
        let lanes = if wave64 { 64u32 } else { 32 };
        let inputs: Vec<[u32; 4]> = (0..lanes)
            .map(|l| [0x1111_1111 * (l % 15 + 1), 0xa0a0_0000 | l, 0xb0b0_0000 | l, 0xc0c0_0000 | l])
            .collect();
        // Region per instruction: lanes * 16 bytes; num_records cuts each region at 70%.
        let region = lanes * 16;
        let nr = region * 7 / 10 + 2;
        let mut body = "v_mov_b32 v12, v0\nv_mov_b32 v13, v1\nv_mov_b32 v14, v2\nv_mov_b32 v15, v3\n".to_string();
        body += "v_and_b32 v20, 0x3ff, v250\nv_lshlrev_b32 v20, 4, v20\n"; // v250 = lane (harness)
        let mut all: Vec<(String, u32, u32)> = Vec::new();
        for (i, (op, size, _)) in stores.iter().enumerate() {
            all.push((op.to_string(), *size, i as u32));
        }
        for (i, (op, n)) in wide.iter().enumerate() {
            all.push((op.to_string(), 4 * n, (stores.len() + i) as u32));
        }
        for (op, size, i) in &all {
            let data = match size {
                1..=4 => "v12".to_string(),
                s => format!("v[12:{}]", 12 + s / 4 - 1),
            };
            body += &vsharp(8, &vs(i * region, nr));
            body += &format!("{op} {data}, v20, s[8:11], 0 offen\n");
        }
        let mem = vec![SENTINEL; (all.len() as u32 * region / 4) as usize];
        let (_, got) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        let mut want = bytes_of(&mem);
        for (op, size, i) in &all {
            for l in 0..lanes {
                let data = bytes_of(&inputs[l as usize]);
                let off = 16 * l;
                for d in 0..size.div_ceil(4) {
                    let chunk = (size - 4 * d).min(4);
                    if off + 4 * d + chunk <= nr {
                        let at = (i * region + off + 4 * d) as usize;
                        want[at..at + chunk as usize].copy_from_slice(&data[4 * d as usize..(4 * d + chunk) as usize]);
                    }
                }
            }
            let _ = op;
        }
        assert_eq!(bytes_of(&got), want, "wave64 {wave64}");
    }
}

/// RDNA3-NOTES, "D16 buffer instructions": d16 loads write the low half (d16_hi the high
/// half) of the VGPR and keep the other; u8/i8 become 16-bit integers (zero/sign extended);
/// d16_hi stores take the high half.
#[test]
fn d16_loads_and_stores_use_one_half() {
    let mem: Vec<u32> = vec![0x8081_f2e3, 0x1234_5678, 0, 0];
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [0xaaaa_bbbb ^ l, l % 4, 0, 0]).collect();
    let body = format!(
        "{}
        v_mov_b32 v4, v0
        v_mov_b32 v5, v0
        v_mov_b32 v6, v0
        v_mov_b32 v7, v0
        v_mov_b32 v8, v0
        v_mov_b32 v9, v0
        buffer_load_d16_u8 v4, v1, s[8:11], 0 offen
        buffer_load_d16_i8 v5, v1, s[8:11], 0 offen
        buffer_load_d16_b16 v6, v1, s[8:11], 0 offen offset:4
        buffer_load_d16_hi_u8 v7, v1, s[8:11], 0 offen
        buffer_load_d16_hi_i8 v8, v1, s[8:11], 0 offen
        buffer_load_d16_hi_b16 v9, v1, s[8:11], 0 offen offset:4
        v_mov_b32 v10, 0x11223344
        v_mov_b32 v11, 8
        buffer_store_d16_hi_b8 v10, v11, s[8:11], 0 offen
        buffer_store_d16_hi_b16 v10, v11, s[8:11], 0 offen offset:2
        buffer_store_d16_hi_b16 v10, v11, s[8:11], 0 offen offset:6 ; out of range
        ",
        vsharp(8, &vs(0, 14))
    );
    let (out, got) = run_wave_env(&body, &inputs, false, &env(mem.clone()));
    let b = bytes_of(&mem);
    for l in 0..32 {
        let old = inputs[l][0];
        let o = l % 4;
        let (u8v, i8v) = (b[o] as u32, b[o] as i8 as i16 as u16 as u32);
        let b16 = u16::from_le_bytes([b[4 + o], b[5 + o]]) as u32;
        let want = [
            old & 0xffff_0000 | u8v,
            old & 0xffff_0000 | i8v,
            old & 0xffff_0000 | b16,
            old & 0xffff | u8v << 16,
            old & 0xffff | i8v << 16,
            old & 0xffff | b16 << 16,
        ];
        assert_eq!(out.v[l][..6], want, "lane {l}");
    }
    // Bytes 8 (0x22 from the high half), 10..11 (0x1122); byte 14 is past num_records 14.
    assert_eq!(got[2], 0x1122_0022);
    assert_eq!(got[3], 0);
}

// ---------------------------------------------------------------------------------------
// Addressing.

/// RDNA3-NOTES, "Buffer addressing": with IDXEN and OFFEN the
/// address is `base + soffset + stride * index + offset + inst_offset`, in wave32 and
/// wave64; OOB_SELECT 0 checks the index and `offset + size <= stride`, 1 only the index, 2
/// nothing but an empty buffer, 3 the byte range `stride * index + offset + size`.
#[test]
fn structured_addressing_and_every_oob_select() {
    let mut r = rng(2);
    let mem: Vec<u32> = (0..512).map(|_| r()).collect();
    let bytes = bytes_of(&mem);
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let inputs: Vec<[u32; 4]> = (0..lanes as u32).map(|l| [l % 13, (l * 7) % 6 * 4, 0, 0]).collect();
        let mut body = String::new();
        let mut vsharps = Vec::new();
        for (k, oob) in [OobSelect::StructuredWithOffset, OobSelect::Structured, OobSelect::Disabled, OobSelect::Raw]
            .into_iter()
            .enumerate()
        {
            let mut v = vs(16, 10);
            v.stride = 20;
            v.oob_select = oob;
            if oob == OobSelect::Raw {
                v.num_records = 200;
            }
            body += &vsharp(8, &v);
            body += &format!("buffer_load_b32 v{}, v[0:1], s[8:11], 12 idxen offen offset:4\n", 4 + k);
            vsharps.push(v);
        }
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        for l in 0..lanes {
            let (index, offset) = (inputs[l][0] as u64, inputs[l][1] as u64 + 4);
            for (k, v) in vsharps.iter().enumerate() {
                let at = (16 + 12 + model_offset(v, index, offset)) as usize;
                let want = if model_in_range(v, index, offset, 4) { word_at(&bytes, at) } else { 0 };
                assert_eq!(out.v[l][k], want, "lane {l} oob {:?} wave64 {wave64}", v.oob_select);
            }
        }
    }
}

/// RDNA3-NOTES, "Swizzled buffer addressing": every index stride (8, 16, 32, 64)
/// with element sizes 4 and 16 (SWIZZLE_ENABLE 1 and 3), ADD_TID_ENABLE adding TID[5:0] to
/// the index, loads of b32 and b128 and stores of b32, in wave32 and wave64.
#[test]
fn swizzled_addressing_every_index_stride() {
    let mut r = rng(3);
    let mem: Vec<u32> = (0..4096).map(|_| r()).collect();
    let bytes = bytes_of(&mem);
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        for swz in [1u32, 3] {
            for istride in 0..4u32 {
                for add_tid in [false, true] {
                    let mut v = vs(0, 1000);
                    v.stride = 32;
                    v.swizzle_enable = swz;
                    v.index_stride = istride;
                    v.add_tid_enable = add_tid;
                    v.oob_select = OobSelect::Structured;
                    let inputs: Vec<[u32; 4]> =
                        (0..lanes as u32).map(|l| [(l * 5) % 9, (l % 8) * 4, 0x5000_0000 | l, 0]).collect();
                    let mut w = v;
                    w.base = 8192;
                    let body = format!(
                        "{}{}
                        buffer_load_b32 v4, v[0:1], s[8:11], 4 idxen offen
                        buffer_load_b128 v[5:8], v[0:1], s[8:11], 4 idxen offen offset:4
                        buffer_store_b32 v2, v[0:1], s[12:15], 4 idxen offen
                        ",
                        vsharp(8, &v),
                        vsharp(12, &w)
                    );
                    let (out, got) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
                    let mut want_mem = bytes.clone();
                    for l in 0..lanes {
                        let index = inputs[l][0] as u64 + if add_tid { l as u64 } else { 0 };
                        let off = inputs[l][1] as u64;
                        let at = |o: u64| (4 + model_offset(&v, index, o)) as usize;
                        let ctx = format!("lane {l} swz {swz} istride {istride} tid {add_tid} w64 {wave64}");
                        assert_eq!(out.v[l][0], word_at(&bytes, at(off)), "b32 {ctx}");
                        for d in 0..4 {
                            assert_eq!(out.v[l][1 + d], word_at(&bytes, at(off + 4 + 4 * d as u64)), "b128 {d} {ctx}");
                        }
                        let s = 8192 + at(off);
                        want_mem[s..s + 4].copy_from_slice(&inputs[l][2].to_le_bytes());
                    }
                    assert!(
                        bytes_of(&got) == want_mem,
                        "stores swz {swz} istride {istride} tid {add_tid} w64 {wave64}"
                    );
                }
            }
        }
    }
}

/// RDNA3-NOTES, "Swizzled buffer addressing": `Index = vgpr_index + thread_id[5:0]` with
/// ADD_TID_ENABLE on a linear (unswizzled) V#, and soffset is part of the base: not range
/// checked.
#[test]
fn add_tid_enable_and_soffset_outside_the_range_check() {
    let mem: Vec<u32> = (0..256).map(|i| 0x100 + i).collect();
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let mut v = vs(0, 40);
        v.stride = 4;
        v.add_tid_enable = true;
        v.oob_select = OobSelect::Structured;
        let inputs: Vec<[u32; 4]> = (0..lanes as u32).map(|_| [2, 0, 0, 0]).collect();
        let body = format!(
            "{}
            buffer_load_b32 v4, v0, s[8:11], 0 idxen
            s_movk_i32 s12, 0x100
            buffer_load_b32 v5, v0, s[8:11], s12 idxen
            ",
            vsharp(8, &v)
        );
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        for l in 0..lanes {
            let index = 2 + l as u32;
            let want = |base: u32| if index < 40 { mem[(base / 4 + index) as usize] } else { 0 };
            assert_eq!(out.v[l][0], want(0), "lane {l}");
            assert_eq!(out.v[l][1], want(0x100), "soffset lane {l}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Formats.

/// The gfx11 unified format names (LLVM's `BUF_FMT_*`, which the disassembler prints and
/// `llvm_isa.rs` checks against llvm-objdump-19), in number order from 1: the model below
/// derives each format's components and numeric format from its name.
const FORMATS: &[&str] = gpu::isa::disasm::BUF_FMT.split_at(1).1;

/// A format from its name: component bits from the least significant up (the name lists
/// them from the most significant down) and the numeric format.
struct Fmt {
    bits: Vec<u32>,
    num: &'static str,
}

fn fmt(n: usize) -> Fmt {
    let name = FORMATS[n - 1];
    let (sizes, num) = name.rsplit_once('_').unwrap();
    let mut bits: Vec<u32> = sizes.split('_').map(|s| s.parse().unwrap()).collect();
    bits.reverse();
    Fmt { bits, num }
}

impl Fmt {
    fn bytes(&self) -> usize {
        self.bits.iter().sum::<u32>() as usize / 8
    }
    fn float_valued(&self) -> bool {
        !matches!(self.num, "UINT" | "SINT")
    }
    fn raw(&self, elem: &[u8]) -> Vec<u32> {
        let mut e = [0u8; 16];
        e[..elem.len()].copy_from_slice(elem);
        let v = u128::from_le_bytes(e);
        let mut pos = 0;
        self.bits
            .iter()
            .map(|&n| {
                let r = (v >> pos) as u32 & mask(n);
                pos += n;
                r
            })
            .collect()
    }
    fn pack(&self, raw: &[u32]) -> Vec<u8> {
        let mut v = 0u128;
        let mut pos = 0;
        for (k, &n) in self.bits.iter().enumerate() {
            v |= ((raw[k] & mask(n)) as u128) << pos;
            pos += n;
        }
        v.to_le_bytes()[..self.bytes()].to_vec()
    }
    /// The exact value of a component (float-valued formats) or its integer.
    fn value(&self, k: usize, raw: u32) -> f64 {
        let n = self.bits[k];
        let s = ((raw << (32 - n)) as i32 >> (32 - n)) as f64;
        match self.num {
            "UNORM" => raw as f64 / mask(n) as f64,
            "SNORM" => (s / mask(n - 1) as f64).max(-1.0),
            "USCALED" | "UINT" => raw as f64,
            "SSCALED" | "SINT" => s,
            _ => match n {
                32 => f32::from_bits(raw) as f64,
                16 => f16::from_bits(raw as u16).to_f64(),
                m => {
                    // Unsigned 5-bit-exponent floats with 6 (11-bit) or 5 (10-bit) mantissa bits.
                    let mb = m - 5;
                    let (e, f) = ((raw >> mb) as i32, (raw & mask(mb)) as f64 / (1u32 << mb) as f64);
                    match e {
                        0 => f * 2f64.powi(-14),
                        31 if f == 0.0 => f64::INFINITY,
                        31 => f64::NAN,
                        _ => (1.0 + f) * 2f64.powi(e - 15),
                    }
                }
            },
        }
    }
    fn load32(&self, k: usize, raw: u32) -> u32 {
        match self.num {
            "UINT" => raw,
            "SINT" => self.value(k, raw) as i32 as u32,
            "FLOAT" if self.bits[k] == 32 => raw,
            _ => (self.value(k, raw) as f32).to_bits(),
        }
    }
    fn load16(&self, k: usize, raw: u32) -> u32 {
        match self.num {
            "UINT" => raw & 0xffff,
            "SINT" => self.value(k, raw) as i32 as u32 & 0xffff,
            // RDNA3-NOTES, "D16 buffer instructions": float32 to float16 truncates.
            "FLOAT" if self.bits[k] == 32 => f16_trunc(f32::from_bits(raw)) as u32,
            _ => f16::from_f64(self.value(k, raw)).to_bits() as u32,
        }
    }
    /// A 32-bit VGPR value stored into component k.
    fn store32(&self, k: usize, v: u32) -> u32 {
        let n = self.bits[k];
        let x = f32::from_bits(v) as f64;
        let x = if x.is_nan() { 0.0 } else { x };
        let smax = mask(n - 1) as f64;
        match self.num {
            "UNORM" => (x.clamp(0.0, 1.0) * mask(n) as f64).round_ties_even() as u32,
            "SNORM" => (x.clamp(-1.0, 1.0) * smax).round_ties_even() as i32 as u32 & mask(n),
            "USCALED" => x.round_ties_even().clamp(0.0, mask(n) as f64) as u32,
            "SSCALED" => x.round_ties_even().clamp(-smax - 1.0, smax) as i32 as u32 & mask(n),
            "UINT" => v.min(mask(n)),
            "SINT" => (v as i32 as i64).clamp(-(smax as i64) - 1, smax as i64) as u32 & mask(n),
            _ => match n {
                32 => v,
                16 => f16_trunc(f32::from_bits(v)) as u32,
                m => ufloat(f32::from_bits(v), m - 5),
            },
        }
    }
    fn store16(&self, k: usize, h: u32) -> u32 {
        let wide = match self.num {
            "UINT" => h,
            "SINT" => h as u16 as i16 as i32 as u32,
            _ => f16::from_bits(h as u16).to_f32().to_bits(),
        };
        self.store32(k, wide)
    }
}

fn mask(n: u32) -> u32 {
    if n >= 32 {
        u32::MAX
    } else {
        (1 << n) - 1
    }
}

/// f32 to f16 rounding toward zero.
fn f16_trunc(x: f32) -> u16 {
    let h = f16::from_f32(x);
    if x.is_nan() {
        return h.to_bits();
    }
    if h.to_f32().abs() > x.abs() {
        h.to_bits() - 1
    } else {
        h.to_bits()
    }
}

/// f32 to an unsigned float with 5 exponent and `m` mantissa bits, nearest even: through
/// f16 with its low mantissa bits rounded off (f16 has the same exponent range).
fn ufloat(x: f32, m: u32) -> u32 {
    if x.is_nan() {
        return mask(5 + m);
    }
    if x <= 0.0 {
        return 0;
    }
    // Round directly at the target precision: scale so the mantissa is an integer.
    if x.is_infinite() {
        return 31 << m;
    }
    let e = ((((x as f64).to_bits() >> 52) & 0x7ff) as i32 - 1023).max(-14);
    let q = ((x as f64) * 2f64.powi(m as i32 - e)).round_ties_even() as u64;
    let bits = if e == -14 && q < 1 << m { q } else { (((e + 15) as u64) << m) + q - (1 << m) };
    bits.min((31 << m) as u64) as u32
}

fn fbits_eq(got: u32, want: u32, d16: bool) -> bool {
    let nan = |b: u32| if d16 { f16::from_bits(b as u16).is_nan() } else { f32::from_bits(b).is_nan() };
    got == want || (nan(got) && nan(want))
}

/// RDNA3-NOTES, "Buffer data formats" and "D16 buffer instructions": every gfx11 buffer
/// format (all 63 data/numeric combinations) loaded with tbuffer_load_format_xyzw (format
/// from the instruction), buffer_load_format_xyzw (format from the V#) and their d16 forms
/// (components to f16 or 16-bit integers; f32 truncated to f16), against host
/// conversions. Components the format does not have read as 0.
#[test]
fn format_loads_every_format() {
    let mut r = rng(4);
    let src: Vec<u32> = (0..128).map(|_| r()).collect();
    let src_bytes = bytes_of(&src);
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [16 * l, 0, 0, 0]).collect();
    // Results: per format, 32 lanes x (16 + 16 + 8 + 8) bytes, after the 512 source bytes.
    let per = 32 * 48;
    let mut body = String::from("v_and_b32 v30, 0x3ff, v250\nv_lshlrev_b32 v30, 4, v30\nv_lshlrev_b32 v31, 3, v250\n");
    body += &vsharp(8, &vs(0, 512));
    body += "s_add_u32 s16, s4, 512\ns_addc_u32 s17, s5, 0\n";
    for n in 1..=63usize {
        let name = FORMATS[n - 1];
        body += &format!(
            "s_and_b32 s11, s11, 0xfff80fff
             s_or_b32 s11, s11, {vf:#x}
             tbuffer_load_format_xyzw v[20:23], v0, s[8:11], 0 format:[BUF_FMT_{name}] offen
             buffer_load_format_xyzw v[24:27], v0, s[8:11], 0 offen
             tbuffer_load_d16_format_xyzw v[28:29], v0, s[8:11], 0 format:[BUF_FMT_{name}] offen
             buffer_load_d16_format_xyzw v[32:33], v0, s[8:11], 0 offen
             s_waitcnt vmcnt(0)
             global_store_b128 v30, v[20:23], s[16:17]
             global_store_b128 v30, v[24:27], s[16:17] offset:512
             global_store_b64 v31, v[28:29], s[16:17] offset:1024
             global_store_b64 v31, v[32:33], s[16:17] offset:1280
             s_add_u32 s16, s16, {per}
             s_addc_u32 s17, s17, 0
            ",
            vf = (n as u32) << 12,
        );
    }
    let mut mem = src.clone();
    mem.resize(128 + 63 * per / 4, SENTINEL);
    let (_, got) = run_wave_env(&body, &inputs, false, &env(mem));
    for n in 1..=63usize {
        let f = fmt(n);
        let base = 128 + (n - 1) * per / 4;
        for l in 0..32 {
            let elem = &src_bytes[16 * l..16 * l + f.bytes()];
            let raw = f.raw(elem);
            let mut w32 = [0u32; 4];
            let mut w16 = [0u32; 4];
            for k in 0..raw.len() {
                w32[k] = f.load32(k, raw[k]);
                w16[k] = f.load16(k, raw[k]);
            }
            for (what, at) in [("tbuffer", base + 4 * l), ("buffer", base + 128 + 4 * l)] {
                for k in 0..4 {
                    assert!(
                        fbits_eq(got[at + k], w32[k], false),
                        "{what}_load_format_xyzw {} lane {l} comp {k}: {:#x} want {:#x}",
                        FORMATS[n - 1],
                        got[at + k],
                        w32[k]
                    );
                }
            }
            for (what, at) in [("tbuffer", base + 256 + 2 * l), ("buffer", base + 320 + 2 * l)] {
                for k in 0..4 {
                    let h = got[at + k / 2] >> (16 * (k % 2)) & 0xffff;
                    assert!(
                        fbits_eq(h, w16[k], true),
                        "{what}_load_d16_format_xyzw {} lane {l} comp {k}: {h:#x} want {:#x}",
                        FORMATS[n - 1],
                        w16[k]
                    );
                }
            }
        }
    }
}

/// RDNA3-NOTES, "Buffer data formats" and "D16 buffer instructions": every gfx11 buffer
/// format stored with tbuffer_store_format_xyzw, buffer_store_format_xyzw and the d16
/// forms: norm formats clamp and round to nearest even, scaled formats round and saturate,
/// integer formats saturate, f32 to f16 truncates, the 11/10-bit floats round to nearest
/// even.
#[test]
fn format_stores_every_format() {
    let floats = [
        0.5f32,
        -0.3,
        1.7,
        -1.2,
        2.5,
        3.5,
        -2.5,
        0.1234,
        1e6,
        -1e6,
        f32::NAN,
        65504.9,
        7e4,
        1.0 / 3.0,
        -0.0,
        255.5,
        0.0001,
        1e-7,
        6.1e-5,
        100.25,
        -7.5,
        0.99999,
        0.5 / 255.0,
        1.5 / 255.0,
        f32::INFINITY,
        4.0,
        1023.5,
        511.5,
        -511.5,
        0.75,
        12.0,
        9.9e3,
    ];
    let ints: [u32; 16] = [
        0,
        1,
        2,
        300,
        70000,
        u32::MAX,
        0x7fff_ffff,
        0x8000_0000,
        -5i32 as u32,
        -129i32 as u32,
        127,
        128,
        1023,
        512,
        65535,
        3,
    ];
    let halves: [u16; 16] = [
        0x3800, 0xbc00, 0x3e00, 0x4100, 0x7bff, 0xfc00, 0x7e00, 0x0001, 0x2e66, 0xc500, 0x5bf8, 0x3c00, 0x0000, 0x8000,
        0x6400, 0x1234,
    ];
    let lanes = 32;
    let fin = |l: usize, k: usize| floats[(l * 3 + k * 7) % 32].to_bits();
    let iin = |l: usize, k: usize| ints[(l * 5 + k * 3) % 16];
    let hin = |l: usize, k: usize, float: bool| {
        if float {
            halves[(l * 3 + k * 5) % 16] as u32
        } else {
            ints[(l * 7 + k) % 16] & 0xffff
        }
    };
    // Memory: per lane int inputs (16 bytes) and halves (float 8 bytes, int 8 bytes).
    let mut mem = Vec::new();
    for l in 0..lanes {
        mem.extend((0..4).map(|k| iin(l, k)));
    }
    for l in 0..lanes {
        mem.extend((0..2).map(|k| hin(l, 2 * k, true) | hin(l, 2 * k + 1, true) << 16));
        mem.extend((0..2).map(|k| hin(l, 2 * k, false) | hin(l, 2 * k + 1, false) << 16));
    }
    let head = mem.len();
    let per = lanes * 64; // 16 bytes per lane for each of the four instructions
    mem.resize(head + 63 * per / 4, 0);
    let inputs: Vec<[u32; 4]> = (0..lanes).map(|l| std::array::from_fn(|k| fin(l, k))).collect();
    let mut body = String::from(
        "v_and_b32 v30, 0x3ff, v250
         v_lshlrev_b32 v31, 3, v30
         v_lshlrev_b32 v30, 4, v30
         global_load_b128 v[12:15], v30, s[4:5]
         global_load_b128 v[16:19], v30, s[4:5] offset:512
         s_waitcnt vmcnt(0)
        ",
    );
    for n in 1..=63usize {
        let f = fmt(n);
        let name = FORMATS[n - 1];
        let (data, d16) = if f.float_valued() { ("v[0:3]", "v[16:17]") } else { ("v[12:15]", "v[18:19]") };
        let off = head * 4 + (n - 1) * per;
        body += &format!(
            "{vs}
             tbuffer_store_format_xyzw {data}, v30, s[8:11], 0 format:[BUF_FMT_{name}] offen
             buffer_store_format_xyzw {data}, v30, s[8:11], 0 offen offset:512
             tbuffer_store_d16_format_xyzw {d16}, v30, s[8:11], 0 format:[BUF_FMT_{name}] offen offset:1024
             buffer_store_d16_format_xyzw {d16}, v30, s[8:11], 0 offen offset:1536
            ",
            vs = vsharp(8, &{
                let mut v = vs(off as u32, per as u32);
                v.format = n as u32;
                v
            }),
        );
    }
    let (_, got) = run_wave_env(&body, &inputs, false, &env(mem.clone()));
    let got = bytes_of(&got);
    for n in 1..=63usize {
        let f = fmt(n);
        let off = head * 4 + (n - 1) * per;
        for l in 0..lanes {
            let b = f.bytes();
            let vals: Vec<u32> = (0..4).map(|k| if f.float_valued() { fin(l, k) } else { iin(l, k) }).collect();
            let raw: Vec<u32> = (0..f.bits.len()).map(|k| f.store32(k, vals[k])).collect();
            let want = f.pack(&raw);
            let hraw: Vec<u32> = (0..f.bits.len()).map(|k| f.store16(k, hin(l, k, f.float_valued()))).collect();
            let want16 = f.pack(&hraw);
            for (what, at, w) in [
                ("tbuffer_store_format_xyzw", off + 16 * l, &want),
                ("buffer_store_format_xyzw", off + 512 + 16 * l, &want),
                ("tbuffer_store_d16_format_xyzw", off + 1024 + 16 * l, &want16),
                ("buffer_store_d16_format_xyzw", off + 1536 + 16 * l, &want16),
            ] {
                assert_eq!(&got[at..at + b], &w[..], "{what} {} lane {l} inputs {vals:x?}", FORMATS[n - 1]);
            }
        }
    }
}

/// RDNA3-NOTES, "Format element-count mismatch" and "Buffer data formats" (DST_SEL from the
/// V# for MUBUF format instructions, identity for MTBUF): load_format_x with 32_32_32_32
/// returns X; store_format_x with 32_32_32_32 stores four dwords, its X where DST_SEL puts
/// it (stores select the other way round from loads) and 0 elsewhere; load_format_xyzw
/// with 32 returns four per DST_SEL; store_format_xyzw with 32 stores X only (the lowest
/// component that DST_SEL sends there). DST_SEL SEL_0/SEL_1 give 0 and 1.0 (1 for integer
/// formats) on loads.
#[test]
fn format_element_count_mismatch_and_dst_sel() {
    let mem: Vec<u32> =
        vec![0x3f80_0000, 0x4000_0000, 0x4040_0000, 0x4080_0000, 7, 8, 9, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|_| [11, 22, 33, 44]).collect();
    let mut x4 = vs(0, 80);
    x4.format = 63; // 32_32_32_32_FLOAT
    x4.dst_sel = [sel::W, sel::ONE, sel::X, sel::ZERO];
    let mut x1 = vs(0, 80);
    x1.format = 20; // 32_UINT
    x1.dst_sel = [sel::X, sel::ONE, sel::ZERO, sel::X];
    let body = format!(
        "{}{}
        v_mov_b32 v20, 0
        buffer_load_format_x v4, v20, s[8:11], 0 offen
        buffer_load_format_xyzw v[5:8], v20, s[12:15], 0 offen offset:16
        tbuffer_load_format_xyz v[9:11], v20, s[8:11], 0 format:[BUF_FMT_32_UINT] offen offset:16
        buffer_store_format_x v0, v20, s[8:11], 0 offen offset:32
        buffer_store_format_xyzw v[0:3], v20, s[12:15], 0 offen offset:48
        ",
        vsharp(8, &x4),
        vsharp(12, &x1)
    );
    let (out, got) = run_wave_env(&body, &inputs, false, &env(mem));
    // load_format_x, dst_sel X = W: 4.0.
    assert_eq!(out.v[0][0], 0x4080_0000);
    // load_format_xyzw of 32_UINT with dst_sel (X, 1, 0, X): 7, 1, 0, 7.
    assert_eq!(out.v[0][1..5], [7, 1, 0, 7]);
    // tbuffer (identity select): X, 0, 0.
    assert_eq!(out.v[0][5..8], [7, 0, 0]);
    // store_format_x with 32_32_32_32 and dst_sel (W, 1, X, 0): data X (11) goes to memory
    // W, data Z (not supplied: 0) to memory X, nothing names Y or Z: memory = (0, 0, 0, 11).
    assert_eq!(got[8..12], [0, 0, 0, 11]);
    // store_format_xyzw with 32_UINT: X only (dst_sel X = X).
    assert_eq!(got[12..16], [11, 0, 0, 0]);
}

/// RDNA3-NOTES, "Buffer range checking": format instructions are all or nothing over the
/// whole element (MTBUF: any component out makes the thread out), and out-of-range format
/// loads return 0 except components whose DST_SEL is SEL_1, which return 1. D16 packing of
/// 3 components keeps the high half of the second register.
#[test]
fn format_range_checks_are_all_or_nothing() {
    let mem: Vec<u32> = (0..16).map(|i| 100 + i).collect();
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [4 * l, 0, 0, 0]).collect();
    let mut v = vs(0, 24);
    v.format = 61; // 32_32_32_32_UINT
    v.dst_sel = [sel::X, sel::Y, sel::ONE, sel::W];
    let body = format!(
        "{}
        v_mov_b32 v11, 0xabcd0000
        buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 offen
        tbuffer_load_format_xy v[8:9], v0, s[8:11], 0 format:[BUF_FMT_32_32_UINT] offen
        tbuffer_load_d16_format_xyz v[10:11], v0, s[8:11], 0 format:[BUF_FMT_16_16_16_16_UINT] offen
        ",
        vsharp(8, &v)
    );
    let (out, _) = run_wave_env(&body, &inputs, false, &env(mem.clone()));
    for l in 0..32usize {
        let o = 4 * l;
        let w = |k: usize| mem.get(l + k).copied().unwrap_or(0);
        let want4 = if o + 16 <= 24 { [w(0), w(1), 1, w(3)] } else { [0, 0, 1, 0] };
        assert_eq!(out.v[l][..4], want4, "lane {l}");
        let want2 = if o + 8 <= 24 { [w(0), w(1)] } else { [0, 0] };
        assert_eq!(out.v[l][4..6], want2, "lane {l}");
        let h = if o + 8 <= 24 { [w(0) & 0xffff, w(0) >> 16, w(1) & 0xffff] } else { [0; 3] };
        assert_eq!(out.v[l][6..8], [h[0] | h[1] << 16, 0xabcd_0000 | h[2]], "lane {l}");
    }
}

/// RDNA3-NOTES, "D16 buffer instructions": d16 format loads and stores use the low half
/// (d16_hi_format_x the high half), keeping the other half; packed pairs go first to the
/// low half.
#[test]
fn d16_format_halves() {
    let mem: Vec<u32> = vec![0x4000_3c00, 0x4400_4200, 0, 0, 0, 0];
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|_| [0x1111_2222, 0x4500_3800, 0, 0]).collect();
    let mut v = vs(0, 24);
    v.format = 57; // 16_16_16_16_FLOAT
    let body = format!(
        "{}
        v_mov_b32 v4, v0
        v_mov_b32 v5, v0
        v_mov_b32 v20, 0
        buffer_load_d16_format_x v4, v20, s[8:11], 0 offen
        buffer_load_d16_hi_format_x v5, v20, s[8:11], 0 offen
        buffer_load_d16_format_xy v6, v20, s[8:11], 0 offen
        buffer_store_d16_hi_format_x v1, v20, s[8:11], 0 offen offset:8
        buffer_store_d16_format_xy v1, v20, s[8:11], 0 offen offset:16
        ",
        vsharp(8, &v)
    );
    let (out, got) = run_wave_env(&body, &inputs, false, &env(mem));
    assert_eq!(out.v[0][..3], [0x1111_3c00, 0x3c00_2222, 0x4000_3c00]);
    assert_eq!(got[2..6], [0x4500, 0, 0x4500_3800, 0]);
}

// ---------------------------------------------------------------------------------------
// Null, mismatched and invalid resources.

/// RDNA3-NOTES, "Null buffer resource" and "Resource type mismatch": the all-zero V# makes
/// loads return zero and drops stores; a V# whose type is not a buffer (TYPE != 0) makes
/// the instruction do nothing (the destination keeps its value, memory is unchanged).
/// Decision: a V# with format INVALID is null as well, and so is an MTBUF format INVALID.
#[test]
fn null_and_mismatched_resources() {
    let mem: Vec<u32> = (0..8).map(|i| 0x500 + i).collect();
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|_| [0x77, 0, 0, 0]).collect();
    let zero = BufferResource::decode([0; 4]);
    let mut image = vs(0, 32);
    image.kind = 2;
    let mut invalid = vs(0, 32);
    invalid.format = 0;
    let body = format!(
        "{}{}{}{}
        v_mov_b32 v20, 0
        v_mov_b32 v4, 1
        v_mov_b32 v5, 1
        v_mov_b32 v6, 1
        v_mov_b32 v7, 1
        v_mov_b32 v8, 1
        buffer_load_b32 v4, v20, s[8:11], 0 offen
        buffer_load_format_x v5, v20, s[8:11], 0 offen
        buffer_load_b32 v6, v20, s[12:15], 0 offen
        buffer_load_b32 v7, v20, s[16:19], 0 offen
        tbuffer_load_format_x v8, v20, s[20:23], 0 format:0 offen
        v_mov_b32 v10, 1
        tbuffer_load_format_x v10, v20, s[20:23], 0 format:100 offen
        buffer_atomic_add_u32 v9, v20, s[8:11], 0 offen glc
        buffer_store_b32 v0, v20, s[8:11], 0 offen
        buffer_store_b32 v0, v20, s[12:15], 0 offen offset:4
        buffer_store_b32 v0, v20, s[16:19], 0 offen offset:8
        tbuffer_store_format_x v0, v20, s[20:23], 0 format:0 offen offset:12
        ",
        vsharp(8, &zero),
        vsharp(12, &image),
        vsharp(16, &invalid),
        vsharp(20, &vs(0, 32))
    );
    let (out, got) = run_wave_env(&body, &inputs, false, &env(mem.clone()));
    assert_eq!(out.v[0][..7], [0, 0, 1, 0, 0, 0, 0]);
    assert_eq!(got, mem);
}

/// RDNA3-NOTES, "Buffer instructions": a buffer load with TFE returns its data, and its status VGPR is
/// written only where the fetch failed (PRT pages, `tests/sparse.rs`): in ordinary memory
/// it keeps its value.
#[test]
fn tfe_loads_leave_the_status_outside_prt_pages() {
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [4 * (l % 4), 0, 0, 0]).collect();
    let body = format!(
        "{}v_mov_b32 v5, 0x5a
         buffer_load_b32 v[4:5], v0, s[8:11], 0 offen tfe
         s_waitcnt vmcnt(0)",
        vsharp(8, &vs(0, 16))
    );
    let (out, _) = run_wave_env(&body, &inputs, false, &env(vec![11, 22, 33, 44]));
    for l in 0..32 {
        assert_eq!(out.v[l][..2], [[11, 22, 33, 44][l % 4], 0x5a], "lane {l}: data, status kept");
    }
}

// ---------------------------------------------------------------------------------------
// Alignment.

/// RDNA3-NOTES, "Memory alignment modes": in DWORD mode dword and larger non-format
/// accesses ignore the two address LSBs (u16 the LSB); UNALIGNED allows any; DWORD_STRICT
/// and STRICT raise MEMVIOL for misaligned accesses (STRICT also for a b64 on a dword
/// boundary); format accesses need their component alignment in every mode; atomics need
/// their data size.
#[test]
fn alignment_modes() {
    let mem: Vec<u32> = (0..16).map(|i| 0x0101_0101 * (i + 1)).collect();
    let b = bytes_of(&mem);
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|_| [6, 0, 0, 0]).collect();
    let with =
        |mode| WaveEnv { mem: mem.clone(), vmid: VmidRegs::default().with_alignment(mode), ..WaveEnv::default() };
    let body = format!(
        "{}
        buffer_load_b32 v4, v0, s[8:11], 0 offen offset:1
        buffer_load_u16 v5, v0, s[8:11], 0 offen offset:1
        buffer_load_b64 v[6:7], v0, s[8:11], 0 offen offset:1
        buffer_store_b32 v0, v0, s[8:11], 0 offen offset:13
        ",
        vsharp(8, &vs(0, 64))
    );
    let (out, got) = run_wave_env(&body, &inputs, false, &with(AlignMode::Dword));
    assert_eq!(out.v[0][..4], [word_at(&b, 4), word_at(&b, 6) & 0xffff, word_at(&b, 4), word_at(&b, 8)]);
    assert_eq!(got[4], 6);
    let (out, _) = run_wave_env(&body, &inputs, false, &with(AlignMode::Unaligned));
    assert_eq!(out.v[0][..4], [word_at(&b, 7), word_at(&b, 7) & 0xffff, word_at(&b, 7), word_at(&b, 11)]);

    let memviol = |body: &str, mode| {
        let r = try_run_wave_env(body, &inputs, false, &with(mode))
            .expect_err(&format!("must raise MEMVIOL in {mode:?}: {body}"));
        assert_eq!(r.kind, ReportKind::MemoryViolation, "{r}");
    };
    let fine = |body: &str, mode| {
        run_wave_env(body, &inputs, false, &with(mode));
    };
    let v = vsharp(8, &vs(0, 64));
    for mode in [AlignMode::DwordStrict, AlignMode::Strict] {
        memviol(&format!("{v}buffer_load_b32 v4, v0, s[8:11], 0 offen offset:1"), mode);
        memviol(&format!("{v}buffer_store_b16 v4, v0, s[8:11], 0 offen offset:1"), mode);
        fine(&format!("{v}buffer_load_u8 v4, v0, s[8:11], 0 offen offset:1"), mode);
    }
    fine(&format!("{v}buffer_load_b64 v[4:5], v0, s[8:11], 0 offen offset:6"), AlignMode::DwordStrict);
    memviol(&format!("{v}buffer_load_b64 v[4:5], v0, s[8:11], 0 offen offset:6"), AlignMode::Strict);
    let mut f = vs(0, 64);
    f.format = 22; // 32_FLOAT: 4-byte alignment
    let fv = vsharp(8, &f);
    memviol(&format!("{fv}buffer_load_format_x v4, v0, s[8:11], 0 offen offset:0"), AlignMode::Unaligned);
    memviol(
        &format!("{v}tbuffer_load_format_x v4, v0, s[8:11], 0 format:[BUF_FMT_16_UNORM] offen offset:1"),
        AlignMode::Unaligned,
    );
    fine(
        &format!("{v}tbuffer_load_format_x v4, v0, s[8:11], 0 format:[BUF_FMT_8_8_8_8_UNORM] offen offset:1"),
        AlignMode::Unaligned,
    );
    memviol(&format!("{v}buffer_atomic_add_u32 v4, v0, s[8:11], 0 offen offset:0"), AlignMode::Unaligned);
    memviol(&format!("{v}buffer_atomic_add_u64 v[4:5], v0, s[8:11], 0 offen offset:6"), AlignMode::Unaligned);
}

// ---------------------------------------------------------------------------------------
// Atomics.

/// A 32-bit atomic's new memory value from the old one and the data.
type Op32 = fn(u32, u32) -> u32;
/// A 64-bit atomic's new memory value from the old one and the data.
type Op64 = fn(u64, u64) -> u64;

/// RDNA3-NOTES, "Buffer instructions" (atomics: with GLC the pre-op value returns to VDATA)
/// and "Buffer range checking" (atomics are all or nothing; out of range they do nothing):
/// every 32- and 64-bit buffer atomic gfx11 has, with and without return, against host
/// arithmetic; lanes past num_records return 0 and leave memory alone.
#[test]
fn atomics_every_operation() {
    let ops32: [(&str, Op32); 16] = [
        ("swap_b32", |_, s| s),
        ("add_u32", |m, s| m.wrapping_add(s)),
        ("sub_u32", |m, s| m.wrapping_sub(s)),
        ("csub_u32", |m, s| m.saturating_sub(s)),
        ("min_i32", |m, s| (m as i32).min(s as i32) as u32),
        ("min_u32", |m, s| m.min(s)),
        ("max_i32", |m, s| (m as i32).max(s as i32) as u32),
        ("max_u32", |m, s| m.max(s)),
        ("and_b32", |m, s| m & s),
        ("or_b32", |m, s| m | s),
        ("xor_b32", |m, s| m ^ s),
        ("inc_u32", |m, s| if m >= s { 0 } else { m + 1 }),
        ("dec_u32", |m, s| if m == 0 || m > s { s } else { m - 1 }),
        ("min_f32", |m, s| f32::from_bits(m).min(f32::from_bits(s)).to_bits()),
        ("max_f32", |m, s| f32::from_bits(m).max(f32::from_bits(s)).to_bits()),
        ("add_f32", |m, s| (f32::from_bits(m) + f32::from_bits(s)).to_bits()),
    ];
    let lanes = 32usize;
    let nr = 4 * 28; // lanes 28..31 out of range
    let m0 = |l: usize| if l % 3 == 0 { (l as f32 * 1.5).to_bits() } else { (l as u32).wrapping_mul(0x9e37_79b9) };
    let s0 = |l: usize| {
        if l % 3 == 0 {
            (2.25f32 - l as f32).to_bits()
        } else {
            (l as u32 * 7 + 3) ^ (0x8000_0010 * (l as u32 & 1))
        }
    };
    let mut mem = Vec::new();
    for _ in 0..(ops32.len() + 2) {
        mem.extend((0..lanes).map(m0));
    }
    let inputs: Vec<[u32; 4]> = (0..lanes).map(|l| [4 * l as u32, s0(l), m0(l) ^ (l as u32 & 1), 0]).collect();
    let mut body = String::new();
    for (i, (op, _)) in ops32.iter().enumerate() {
        body += &vsharp(8, &vs((i * lanes * 4) as u32, nr as u32));
        let glc = if i % 2 == 0 { " glc" } else { "" };
        body += &format!("v_mov_b32 v20, v1\nbuffer_atomic_{op} v20, v0, s[8:11], 0 offen{glc}\n");
        if i < 7 {
            body += &format!("v_mov_b32 v{}, v20\n", 4 + i);
        }
    }
    // cmpswap (new value, compare value) with return.
    body += &vsharp(8, &vs((ops32.len() * lanes * 4) as u32, nr as u32));
    body += "v_mov_b32 v20, v1\nv_mov_b32 v21, v2\nbuffer_atomic_cmpswap_b32 v[20:21], v0, s[8:11], 0 offen glc\nv_mov_b32 v11, v20\n";
    let (out, got) = run_wave_env(&body, &inputs, false, &env(mem.clone()));
    for (i, (op, f)) in ops32.iter().enumerate() {
        for l in 0..lanes {
            let inside = 4 * l + 4 <= nr;
            let m = m0(l);
            let want_mem = if inside { f(m, s0(l)) } else { m };
            let g = got[i * lanes + l];
            let fl = op.ends_with("f32");
            assert!(
                g == want_mem || (fl && f32::from_bits(g).is_nan() && f32::from_bits(want_mem).is_nan()),
                "{op} lane {l}: {g:#x} want {want_mem:#x}"
            );
            if i < 7 {
                let want_ret = if i % 2 == 0 {
                    if inside {
                        m
                    } else {
                        0
                    }
                } else {
                    s0(l)
                };
                assert_eq!(out.v[l][i], want_ret, "{op} return lane {l}");
            }
        }
    }
    for l in 0..lanes {
        let inside = 4 * l + 4 <= nr;
        let m = m0(l);
        let cmp = m ^ (l as u32 & 1);
        let want = if inside && cmp == m { s0(l) } else { m };
        assert_eq!(got[ops32.len() * lanes + l], want, "cmpswap lane {l}");
        assert_eq!(out.v[l][7], if inside { m } else { 0 }, "cmpswap return lane {l}");
    }
}

/// RDNA3-NOTES, "Buffer instructions": the 64-bit buffer atomics (swap, cmpswap, add, sub,
/// min/max signed and unsigned, and, or, xor, inc, dec) with and without return, and the
/// f32 cmpswap.
#[test]
fn atomics_64_bit_and_float_cmpswap() {
    let ops: [(&str, Op64); 12] = [
        ("swap_b64", |_, s| s),
        ("add_u64", |m, s| m.wrapping_add(s)),
        ("sub_u64", |m, s| m.wrapping_sub(s)),
        ("min_i64", |m, s| (m as i64).min(s as i64) as u64),
        ("min_u64", |m, s| m.min(s)),
        ("max_i64", |m, s| (m as i64).max(s as i64) as u64),
        ("max_u64", |m, s| m.max(s)),
        ("and_b64", |m, s| m & s),
        ("or_b64", |m, s| m | s),
        ("xor_b64", |m, s| m ^ s),
        ("inc_u64", |m, s| if m >= s { 0 } else { m + 1 }),
        ("dec_u64", |m, s| if m == 0 || m > s { s } else { m - 1 }),
    ];
    let lanes = 32usize;
    let m0 = |l: usize| (l as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> (l % 5 * 8);
    let s0 = |l: usize| (l as u64 * 0x1_0000_0003) ^ ((l as u64 & 1) << 63);
    let mut mem = Vec::new();
    for _ in 0..ops.len() + 1 {
        for l in 0..lanes {
            mem.extend([m0(l) as u32, (m0(l) >> 32) as u32]);
        }
    }
    let inputs: Vec<[u32; 4]> =
        (0..lanes).map(|l| [8 * l as u32, s0(l) as u32, (s0(l) >> 32) as u32, m0(l) as u32 ^ (l as u32 & 1)]).collect();
    let mut body = String::new();
    // f32 cmpswap at the start of the buffer: lane 0 compares 1.0 with the memory value.
    body += &vsharp(12, &vs(0, 4));
    body += "v_mov_b32 v20, 0x40400000\nv_mov_b32 v21, 0x3f800000\nbuffer_atomic_cmpswap_f32 v[20:21], off, s[12:15], 0 glc\nv_mov_b32 v8, v20\n";
    for (i, (op, _)) in ops.iter().enumerate() {
        body += &vsharp(8, &vs((i * lanes * 8) as u32, 4096));
        let glc = if i == 3 { " glc" } else { "" };
        body +=
            &format!("v_mov_b32 v20, v1\nv_mov_b32 v21, v2\nbuffer_atomic_{op} v[20:21], v0, s[8:11], 0 offen{glc}\n");
        if i == 3 {
            body += "v_mov_b32 v4, v20\nv_mov_b32 v5, v21\n";
        }
    }
    body += &vsharp(8, &vs((ops.len() * lanes * 8) as u32, 4096));
    body += "v_mov_b32 v20, v1\nv_mov_b32 v21, v2\nv_mov_b32 v22, v3\nv_mov_b32 v23, v2\nbuffer_atomic_cmpswap_b64 v[20:23], v0, s[8:11], 0 offen glc\nv_mov_b32 v6, v20\nv_mov_b32 v7, v21\n";
    let mut mem2 = mem.clone();
    mem2[0] = 0x3f80_0000;
    let (out, got) = run_wave_env(&body, &inputs, false, &env(mem2));
    for (i, (op, f)) in ops.iter().enumerate() {
        for l in 0..lanes {
            let at = 2 * (i * lanes + l);
            let mut m = m0(l);
            if i == 0 && l == 0 {
                m = 0x4040_0000 | m & !0xffff_ffff; // after the f32 cmpswap
            }
            let g = got[at] as u64 | (got[at + 1] as u64) << 32;
            assert_eq!(g, f(m, s0(l)), "{op} lane {l}");
            if i == 3 {
                assert_eq!(out.v[l][0] as u64 | (out.v[l][1] as u64) << 32, m, "{op} return lane {l}");
            }
        }
    }
    for l in 0..lanes {
        let at = 2 * (ops.len() * lanes + l);
        let m = m0(l);
        let cmp = (m0(l) as u32 ^ (l as u32 & 1)) as u64 | (s0(l) >> 32) << 32;
        let want = if cmp == m { s0(l) } else { m };
        assert_eq!(got[at] as u64 | (got[at + 1] as u64) << 32, want, "cmpswap_b64 lane {l}");
        assert_eq!(out.v[l][2] as u64 | (out.v[l][3] as u64) << 32, m, "cmpswap_b64 return lane {l}");
    }
    // All 32 lanes hit dword 0 in lane order: lane 0 swaps 1.0 for 3.0, the others fail.
    assert_eq!(out.v[0][4], 0x3f80_0000);
    assert_eq!(out.v[1][4], 0x4040_0000);
}

// ---------------------------------------------------------------------------------------
// VGPR out of range.

/// RDNA3-NOTES, "VGPR out-of-range behaviour", as the buffer instructions apply it:
/// a load whose data VGPRs are not allocated is issued with EXEC = 0 (nothing written,
/// memory not read), a store or atomic whose data or address VGPR is not allocated reads
/// v0 for it.
#[test]
fn vgpr_out_of_range_rules() {
    let mem: Vec<u32> = (0..16).map(|i| 0x900 + i).collect();
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|_| [8, 0, 0, 0]).collect();
    // RSRC1.VGPRS = 0: 24 VGPRs in wave32. The harness's own registers are above them, so
    // the body ends the wave itself after storing what it checks from in-range registers
    // (the VALU reaches every register; only memory instructions check the allocation).
    let e = WaveEnv { mem: mem.clone(), rsrc1: common::RSRC1 & !0x3f, ..WaveEnv::default() };
    let body = format!(
        "{}
        v_mov_b32 v0, 8 // the harness loads inputs through v251, out of range here
        v_mov_b32 v30, 0x1234
        buffer_load_b32 v30, v0, s[8:11], 0 offen
        v_mov_b32 v4, v30
        v_mov_b32 v31, 4
        buffer_store_b32 v31, v0, s[8:11], 0 offen offset:8
        buffer_store_b32 v0, v31, s[8:11], 0 offen offset:20
        buffer_atomic_add_u32 v31, v0, s[8:11], 0 offen offset:24
        v_mov_b32 v5, v4
        buffer_store_b32 v5, off, s[8:11], 0 offset:48
        s_waitcnt_vscnt null, 0
        s_endpgm
        ",
        vsharp(8, &vs(0, 64))
    );
    let (_, got) = run_wave_env(&body, &inputs, false, &e);
    assert_eq!(got[12], 0x1234, "load with out-of-range vdata not issued");
    assert_eq!(got[4], 8, "store data from v0");
    assert_eq!(got[7], 8, "store address from v0: offset 8 + 20");
    assert_eq!(got[8], 0x908 + 32 * 8, "atomic data from v0, once per lane");
}

/// The V# of a Vulkan buffer view (icd/src/view.rs): stride = texel size, num_records =
/// texels, OOB_SELECT structured, DST_SEL (X, 0, 0, 1) for a one-component format.
/// RDNA3-NOTES, "Buffer addressing" (`stride * index` with IDXEN), "Buffer range checking"
/// (range checking: structured, out of range when index >= num_records) and
/// "Buffer data formats" (DST_SEL): in-range texels load (x, 0, 0, 1.0); out-of-range ones
/// (0, 0, 0, 1.0); out-of-range stores and atomics change nothing.
#[test]
fn texel_view_format_access_by_index() {
    let texels = 10u32;
    let mem: Vec<u32> = (0..64).map(|i| (i as f32 * 1.5).to_bits()).collect();
    let mut v = vs(16, texels);
    v.stride = 4;
    v.format = 22; // 32_FLOAT
    v.oob_select = OobSelect::Structured;
    v.dst_sel = [sel::X, sel::ZERO, sel::ZERO, sel::ONE];
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [l, 0, 0, 0]).collect();
    let body = format!(
        "{}
        buffer_load_format_xyzw v[4:7], v0, s[8:11], 0 idxen
        v_mov_b32 v8, 0x40400000
        buffer_store_format_x v8, v0, s[8:11], 0 idxen offset:0
        v_mov_b32 v9, 1
        buffer_atomic_add_u32 v9, v0, s[8:11], 0 idxen
        ",
        vsharp(8, &v)
    );
    let (out, after) = run_wave_env(&body, &inputs, false, &env(mem.clone()));
    let one = 1.0f32.to_bits();
    for l in 0..32 {
        let want = if (l as u32) < texels { [mem[4 + l], 0, 0, one] } else { [0, 0, 0, one] };
        assert_eq!(out.v[l][..4], want, "lane {l}");
    }
    for (i, w) in after.iter().enumerate().take(64) {
        // Texels 0..10 (words 4..14) were stored 3.0 then had 1 added to their bits.
        let want = if (4..4 + texels as usize).contains(&i) { 3.0f32.to_bits() + 1 } else { mem[i] };
        assert_eq!(*w, want, "word {i}");
    }
}

/// The offset `vgpr_offset + inst_offset` is a 32-bit sum that wraps: ACO (RADV's
/// compiler) puts `a[63 - i]` as `buffer_load_b64 v[4:5], v2, s[4:7], 0 offen offset:504`
/// with v2 = `-8 * i`, relying on it. Lane i reads element 63 - i, every lane in range.
#[test]
fn offen_offset_wraps_at_32_bits_as_aco_relies_on() {
    let mem: Vec<u32> = (0..128).map(|i| 0x500 + i).collect();
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let inputs: Vec<[u32; 4]> = (0..lanes as u32).map(|i| [(8 * i).wrapping_neg(), 0, 0, 0]).collect();
        let body = format!("{}\n buffer_load_b64 v[4:5], v0, s[8:11], 0 offen offset:504\n", vsharp(8, &vs(0, 512)));
        let (out, _) = run_wave_env(&body, &inputs, wave64, &env(mem.clone()));
        for l in 0..lanes {
            let e = 63 - l;
            assert_eq!([out.v[l][0], out.v[l][1]], [mem[2 * e], mem[2 * e + 1]], "lane {l}");
        }
    }
}
