//! DS (LDS) instructions: every load and store width, the atomics, the wave-wide
//! exchanges (swizzle, permute, bpermute), append/consume, and the rules of RDNA3-NOTES,
//! "LDS alignment and out-of-range behaviour", for LDS alignment, range and VGPR range.
//! Expected values come from a CPU model written from the RDNA3 ISA guide's formulas,
//! applied lane by lane in lane order.

// Lane loops index per-lane inputs and outputs by lane number.
#![allow(clippy::needless_range_loop)]

mod common;

use common::{addr, read_words, try_run_wave_env, write_words, Dispatch, Gpu, Rng, WaveEnv, WaveOut, W32};
use gpu::spi::{AlignMode, VmidRegs};
use gpu::ReportKind;

/// Copies `dwords` dwords between the data buffer (s[4:5]) and LDS, all lanes on, with
/// v200..v203 (the bodies below keep out of them).
fn copy(lanes: usize, dwords: usize, to_lds: bool) -> String {
    let mut s = String::from(if lanes == 64 { "s_mov_b64 exec, -1\n" } else { "s_mov_b32 exec_lo, -1\n" });
    s += "v_mbcnt_lo_u32_b32 v200, -1, 0\nv_mbcnt_hi_u32_b32 v200, -1, v200\nv_lshlrev_b32 v201, 2, v200\n";
    for pass in 0..dwords.div_ceil(lanes) {
        s += &format!("v_add_nc_u32 v203, {}, v201\n", pass * lanes * 4);
        if to_lds {
            s += "global_load_b32 v202, v203, s[4:5]\ns_waitcnt vmcnt(0)\nds_store_b32 v203, v202\n";
        } else {
            s += "ds_load_b32 v202, v203\ns_waitcnt lgkmcnt(0)\nglobal_store_b32 v203, v202, s[4:5]\n";
        }
    }
    s + "s_waitcnt vmcnt(0) lgkmcnt(0)\n"
}

/// Runs `body` with LDS of `init.len() * 4` bytes holding `init`; returns the wave's
/// results and the LDS contents after the body.
fn try_lds(
    body: &str,
    inputs: &[[u32; 4]],
    wave64: bool,
    init: &[u32],
    mode: AlignMode,
) -> Result<(WaveOut, Vec<u32>), std::sync::Arc<gpu::Report>> {
    let lanes = if wave64 { 64 } else { 32 };
    let n = init.len();
    // Each DS instruction is followed by a wait, as a program reading its result right
    // after must (RDNA3-NOTES, "Memory counters and s_waitcnt"; SOFTNAVI_CHECK=1 insists).
    let body: String = body
        .lines()
        .flat_map(|l| {
            let wait = l.trim_start().starts_with("ds_").then_some("s_waitcnt lgkmcnt(0)");
            std::iter::once(l).chain(wait)
        })
        .map(|l| format!("{l}\n"))
        .collect();
    let src = format!("{}{body}\ns_waitcnt lgkmcnt(0)\n{}", copy(lanes, n, true), copy(lanes, n, false));
    let env = WaveEnv {
        mem: init.to_vec(),
        lds: 4 * n as u32,
        vmid: VmidRegs::default().with_alignment(mode),
        ..WaveEnv::default()
    };
    try_run_wave_env(&src, inputs, wave64, &env)
}

fn lds(body: &str, inputs: &[[u32; 4]], wave64: bool, init: &[u32], mode: AlignMode) -> (WaveOut, Vec<u32>) {
    try_lds(body, inputs, wave64, init, mode).unwrap_or_else(|r| panic!("the wave faulted:\n{r}\nbody:\n{body}"))
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn dword(b: &[u8], a: usize) -> u32 {
    u32::from_le_bytes([b[a], b[a + 1], b[a + 2], b[a + 3]])
}

fn random_words(n: usize, seed: u64) -> Vec<u32> {
    let mut r = Rng(seed);
    (0..n).map(|_| r.next()).collect()
}

/// A lane's expected v4..v11.
type Model = Box<dyn Fn(usize) -> Vec<u32>>;

/// Every load width at per-lane addresses: b32, b64, b96, b128, u8/i8, u16/i16 (sign
/// extension), the D16 forms (low or high half written, the other kept), 2addr and
/// 2addr_stride64 for b32 and b64, and ds_load_addtid_b32 (M0[15:0] + offset + 4 × lane).
#[test]
fn loads_of_every_width_match_the_model() {
    let init = random_words(1024, 1); // 4 KiB
    let m = bytes(&init);
    // v0 = 32 × lane (16-aligned), v1 = 32 × lane + lane % 4, v2 = 32 × lane + 2 × (lane % 2),
    // v3 = the D16 "old" value.
    let inputs: Vec<[u32; 4]> =
        (0..32u32).map(|l| [32 * l, 32 * l + l % 4, 32 * l + 2 * (l % 2), 0xa5a5_0000 | l << 4 | l]).collect();
    let sx8 = |v: u8| v as i8 as i32 as u32;
    let sx16 = |v: u16| v as i16 as i32 as u32;
    let h = |b: &[u8], a: usize| u16::from_le_bytes([b[a], b[a + 1]]);
    let runs: [(&str, Model); 4] = [
        (
            "ds_load_b32 v4, v0 offset:4
             ds_load_b64 v[5:6], v0 offset:8
             ds_load_b96 v[7:9], v0 offset:16
             ds_load_u8 v10, v1 offset:1
             ds_load_i8 v11, v1 offset:2",
            Box::new(move |l| {
                let (a, b) = (32 * l, 32 * l + l % 4);
                vec![
                    dword(&m, a + 4),
                    dword(&m, a + 8),
                    dword(&m, a + 12),
                    dword(&m, a + 16),
                    dword(&m, a + 20),
                    dword(&m, a + 24),
                    m[b + 1] as u32,
                    sx8(m[b + 2]),
                ]
            }),
        ),
        (
            "ds_load_b128 v[4:7], v0 offset:1024
             ds_load_u16 v8, v2 offset:2
             ds_load_i16 v9, v2 offset:6
             ds_load_2addr_b32 v[10:11], v0 offset0:3 offset1:255",
            Box::new({
                let m = bytes(&init);
                move |l| {
                    let (a, c) = (32 * l, 32 * l + 2 * (l % 2));
                    vec![
                        dword(&m, a + 1024),
                        dword(&m, a + 1028),
                        dword(&m, a + 1032),
                        dword(&m, a + 1036),
                        h(&m, c + 2) as u32,
                        sx16(h(&m, c + 6)),
                        dword(&m, a + 12),
                        dword(&m, a + 1020),
                    ]
                }
            }),
        ),
        (
            "ds_load_2addr_b64 v[4:7], v0 offset0:1 offset1:3
             ds_load_2addr_stride64_b32 v[8:9], v0 offset0:1 offset1:3
             v_mov_b32 v10, v3
             ds_load_u8_d16 v10, v1 offset:3
             v_mov_b32 v11, v3
             ds_load_i8_d16_hi v11, v1 offset:5",
            Box::new({
                let m = bytes(&init);
                move |l| {
                    let (a, b, old) = (32 * l, 32 * l + l % 4, 0xa5a5_0000 | (l as u32) << 4 | l as u32);
                    vec![
                        dword(&m, a + 8),
                        dword(&m, a + 12),
                        dword(&m, a + 24),
                        dword(&m, a + 28),
                        dword(&m, a + 256),
                        dword(&m, a + 768),
                        old & 0xffff_0000 | m[b + 3] as u32,
                        old & 0xffff | (sx8(m[b + 5]) & 0xffff) << 16,
                    ]
                }
            }),
        ),
        (
            "ds_load_2addr_stride64_b64 v[4:7], v0 offset0:1 offset1:2
             v_mov_b32 v8, v3
             ds_load_i8_d16 v8, v1 offset:7
             v_mov_b32 v9, v3
             ds_load_u16_d16 v9, v2 offset:10
             v_mov_b32 v10, v3
             ds_load_u16_d16_hi v10, v2 offset:12
             s_mov_b32 m0, 0x10040
             ds_load_addtid_b32 v11 offset:8",
            Box::new({
                let m = bytes(&init);
                move |l| {
                    let (a, b, c) = (32 * l, 32 * l + l % 4, 32 * l + 2 * (l % 2));
                    let old = 0xa5a5_0000 | (l as u32) << 4 | l as u32;
                    vec![
                        dword(&m, a + 512),
                        dword(&m, a + 516),
                        dword(&m, a + 1024),
                        dword(&m, a + 1028),
                        old & 0xffff_0000 | sx8(m[b + 7]) & 0xffff,
                        old & 0xffff_0000 | h(&m, c + 10) as u32,
                        old & 0xffff | (h(&m, c + 12) as u32) << 16,
                        // M0[15:0] = 0x40: bits 31:16 of M0 are not part of the address.
                        dword(&m, 0x40 + 8 + 4 * l),
                    ]
                }
            }),
        ),
    ];
    for (body, want) in runs.iter() {
        let (out, after) = lds(body, &inputs, false, &init, AlignMode::Unaligned);
        assert_eq!(after, init, "loads leave LDS alone");
        for l in 0..32 {
            assert_eq!(out.v[l].to_vec(), want(l), "lane {l} of\n{body}");
        }
    }
}

/// Every store width: b8, b16, b32, b64, b96, b128, the D16_HI forms (the data's high
/// half), 2addr b32/b64 at per-lane addresses; 2addr_stride64 and ds_store_addtid_b32
/// in a second run.
#[test]
fn stores_of_every_width_match_the_model() {
    let init = random_words(1024, 2);
    let inputs: Vec<[u32; 4]> = (0..32u32)
        .map(|l| [128 * l, 0x1111_1111u32.wrapping_mul(l + 1), 0x8765_4321 ^ l << 8, 0x0f0f_0f0f + l])
        .collect();
    let body = "
        v_mov_b32 v20, v1
        v_mov_b32 v21, v2
        v_mov_b32 v22, v3
        v_xor_b32 v23, v1, v3
        ds_store_b8 v0, v1 offset:1
        ds_store_b16 v0, v2 offset:2
        ds_store_b32 v0, v3 offset:4
        ds_store_b64 v0, v[20:21] offset:8
        ds_store_b96 v0, v[20:22] offset:16
        ds_store_b128 v0, v[20:23] offset:32
        ds_store_b8_d16_hi v0, v1 offset:48
        ds_store_b16_d16_hi v0, v2 offset:50
        ds_store_2addr_b32 v0, v1, v2 offset0:13 offset1:15
        ds_store_2addr_b64 v0, v[20:21], v[22:23] offset0:8 offset1:10
    ";
    let mut want = bytes(&init);
    for l in 0..32usize {
        let [a, d1, d2, d3] = inputs[l].map(|v| v as usize);
        let d23 = d1 ^ d3;
        let mut put =
            |at: usize, v: usize, n: usize| want[a + at..a + at + n].copy_from_slice(&(v as u32).to_le_bytes()[..n]);
        put(1, d1, 1);
        put(2, d2, 2);
        put(4, d3, 4);
        put(8, d1, 4);
        put(12, d2, 4);
        for (k, v) in [d1, d2, d3].into_iter().enumerate() {
            put(16 + 4 * k, v, 4);
        }
        for (k, v) in [d1, d2, d3, d23].into_iter().enumerate() {
            put(32 + 4 * k, v, 4);
        }
        put(48, d1 >> 16, 1);
        put(50, d2 >> 16, 2);
        put(52, d1, 4);
        put(60, d2, 4);
        put(64, d1, 4);
        put(68, d2, 4);
        put(80, d3, 4);
        put(84, d23, 4);
    }
    let (_, after) = lds(body, &inputs, false, &init, AlignMode::Unaligned);
    assert_eq!(after, words(&want));

    // stride64 (one lane, as its elements reach other lanes' areas) and addtid.
    let body = "
        s_mov_b32 exec_lo, 8
        v_mov_b32 v20, v1
        v_mov_b32 v21, v2
        v_mov_b32 v22, v3
        v_mov_b32 v23, v0
        ds_store_2addr_stride64_b32 v0, v1, v2 offset0:1 offset1:3
        ds_store_2addr_stride64_b64 v0, v[20:21], v[22:23] offset0:2 offset1:5
        s_mov_b32 exec_lo, 0x0000ffff
        s_mov_b32 m0, 0xffff0800
        ds_store_addtid_b32 v3 offset:4
    ";
    let mut want = bytes(&init);
    let [a, d1, d2, d3] = inputs[3].map(|v| v as usize);
    let mut put = |at: usize, v: usize| want[at..at + 4].copy_from_slice(&(v as u32).to_le_bytes());
    put(a + 256, d1);
    put(a + 768, d2);
    put(a + 1024, d1);
    put(a + 1028, d2);
    put(a + 2560, d3);
    put(a + 2564, a);
    for l in 0..16 {
        put(0x800 + 4 + 4 * l, inputs[l][3] as usize);
    }
    let (_, after) = lds(body, &inputs, false, &init, AlignMode::Unaligned);
    assert_eq!(after, words(&want));
}

/// The LDS atomics the tests below check, with the registers they take: data0 and data1.
#[derive(Clone, Copy, Debug)]
struct AtomicCase {
    name: &'static str,
    wide: bool,
    d0: &'static str,
    d1: Option<&'static str>,
    /// How the region the atomic works on starts (see `region`).
    init: Init,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Init {
    Random,
    Small,
    F32,
    F64,
}

const fn case(name: &'static str, wide: bool, d0: &'static str, d1: Option<&'static str>, init: Init) -> AtomicCase {
    AtomicCase { name, wide, d0, d1, init }
}

/// Per lane: v1, v2 random; v3 small (0..6); v[20:21] = (v1, v2); v[22:23] = (v3, 0); v24 =
/// f32(v3 - 3); v25 = -v24 (so -0.0 for lane 3 mod 7); v[26:27] = f64(v3 - 3); v[28:29] = -v[26:27];
/// v[30:31] = (v2, v1).
const PROLOGUE: &str = "
    v_mov_b32 v20, v1
    v_mov_b32 v21, v2
    v_mov_b32 v22, v3
    v_mov_b32 v23, 0
    v_subrev_nc_u32 v32, 3, v3
    v_cvt_f32_i32 v24, v32
    v_mul_f32 v25, -1.0, v24
    v_cvt_f64_i32 v[26:27], v32
    v_mul_f64 v[28:29], -1.0, v[26:27]
    v_mov_b32 v30, v2
    v_mov_b32 v31, v1
";

const ATOMICS: &[AtomicCase] = &[
    case("add_u32", false, "v1", None, Init::Random),
    case("sub_u32", false, "v1", None, Init::Random),
    case("rsub_u32", false, "v1", None, Init::Random),
    case("inc_u32", false, "v3", None, Init::Small),
    case("dec_u32", false, "v3", None, Init::Small),
    case("min_i32", false, "v1", None, Init::Random),
    case("max_i32", false, "v1", None, Init::Random),
    case("min_u32", false, "v1", None, Init::Random),
    case("max_u32", false, "v1", None, Init::Random),
    case("and_b32", false, "v1", None, Init::Random),
    case("or_b32", false, "v1", None, Init::Random),
    case("xor_b32", false, "v1", None, Init::Random),
    case("mskor_b32", false, "v1", Some("v2"), Init::Random),
    case("storexchg_rtn_b32", false, "v1", None, Init::Random),
    case("cmpstore_b32", false, "v1", Some("v3"), Init::Small),
    case("cmpstore_f32", false, "v24", Some("v25"), Init::F32),
    case("min_f32", false, "v24", None, Init::F32),
    case("max_f32", false, "v25", None, Init::F32),
    case("add_f32", false, "v24", None, Init::F32),
    case("wrap_rtn_b32", false, "v3", Some("v1"), Init::Small),
    case("add_u64", true, "v[20:21]", None, Init::Random),
    case("sub_u64", true, "v[20:21]", None, Init::Random),
    case("rsub_u64", true, "v[20:21]", None, Init::Random),
    case("inc_u64", true, "v[22:23]", None, Init::Small),
    case("dec_u64", true, "v[22:23]", None, Init::Small),
    case("min_i64", true, "v[20:21]", None, Init::Random),
    case("max_i64", true, "v[20:21]", None, Init::Random),
    case("min_u64", true, "v[20:21]", None, Init::Random),
    case("max_u64", true, "v[30:31]", None, Init::Random),
    case("and_b64", true, "v[20:21]", None, Init::Random),
    case("or_b64", true, "v[20:21]", None, Init::Random),
    case("xor_b64", true, "v[20:21]", None, Init::Random),
    case("mskor_b64", true, "v[20:21]", Some("v[30:31]"), Init::Random),
    case("storexchg_rtn_b64", true, "v[20:21]", None, Init::Random),
    case("cmpstore_b64", true, "v[20:21]", Some("v[22:23]"), Init::Small),
    case("cmpstore_f64", true, "v[26:27]", Some("v[28:29]"), Init::F64),
    case("min_f64", true, "v[26:27]", None, Init::F64),
    case("max_f64", true, "v[28:29]", None, Init::F64),
    case("condxchg32_rtn_b64", true, "v[20:21]", None, Init::Random),
];

/// Inputs of the atomic tests: lane l works on slot l % 4 of each region (so lanes
/// 0, 4, 8, ... meet on one address and must apply in lane order).
fn atomic_inputs(lanes: usize) -> Vec<[u32; 4]> {
    let mut r = Rng(77);
    (0..lanes as u32).map(|l| [l % 4, r.next(), r.next(), l % 7]).collect()
}

/// The value a lane's register holds for an operand name of the prologue.
fn operand(input: [u32; 4], reg: &str) -> u64 {
    let [_, v1, v2, v3] = input;
    let f = (v3 as i32 - 3) as f32;
    let d = (v3 as i32 - 3) as f64;
    match reg {
        "v1" => v1 as u64,
        "v2" => v2 as u64,
        "v3" => v3 as u64,
        "v24" => f.to_bits() as u64,
        "v25" => (-f).to_bits() as u64,
        "v[20:21]" => v1 as u64 | (v2 as u64) << 32,
        "v[22:23]" => v3 as u64,
        "v[26:27]" => d.to_bits(),
        "v[28:29]" => (-d).to_bits(),
        "v[30:31]" => v2 as u64 | (v1 as u64) << 32,
        _ => panic!("{reg}"),
    }
}

/// The model: an atomic's new memory value (RDNA3 ISA guide formulas).
fn model(name: &str, wide: bool, old: u64, d0: u64, d1: u64) -> u64 {
    let m = if wide { u64::MAX } else { u32::MAX as u64 };
    let s = |v: u64| if wide { v as i64 } else { v as u32 as i32 as i64 };
    let f = |v: u64| if wide { f64::from_bits(v) } else { f32::from_bits(v as u32) as f64 };
    let op = name.split('_').next().unwrap();
    match op {
        "add" if name.ends_with("f32") => (f32::from_bits(old as u32) + f32::from_bits(d0 as u32)).to_bits() as u64,
        "add" => old.wrapping_add(d0) & m,
        "sub" => old.wrapping_sub(d0) & m,
        "rsub" => d0.wrapping_sub(old) & m,
        "inc" => {
            if old >= d0 {
                0
            } else {
                old + 1
            }
        }
        "dec" => {
            if old == 0 || old > d0 {
                d0
            } else {
                old - 1
            }
        }
        "min" | "max" if name.contains("_f") => {
            let (o, x) = (f(old), f(d0));
            // A NaN operand is ignored; -0 is less than +0.
            let neg = |v: f64| v.is_sign_negative();
            let less = x < o || (x == 0.0 && o == 0.0 && neg(x) && !neg(o));
            let greater = x > o || (x == 0.0 && o == 0.0 && !neg(x) && neg(o));
            let take = if x.is_nan() {
                false
            } else if o.is_nan() {
                true
            } else if op == "min" {
                less
            } else {
                greater
            };
            if take {
                d0
            } else {
                old
            }
        }
        "min" if name.contains("_i") => (s(old).min(s(d0)) as u64) & m,
        "max" if name.contains("_i") => (s(old).max(s(d0)) as u64) & m,
        "min" => old.min(d0),
        "max" => old.max(d0),
        "and" => old & d0,
        "or" => old | d0,
        "xor" => old ^ d0,
        "mskor" => (old & !d0) | d1,
        "storexchg" => d0,
        "cmpstore" if name.contains("_f") => {
            if f(old) == f(d1) {
                d0
            } else {
                old
            }
        }
        "cmpstore" => {
            if old == d1 {
                d0
            } else {
                old
            }
        }
        "wrap" => {
            if old >= d0 {
                old - d0
            } else {
                old.wrapping_add(d1) & m
            }
        }
        "condxchg32" => {
            let lo = if d0 & 1 << 31 != 0 { d0 & 0x7fff_ffff } else { old & 0xffff_ffff };
            let hi = if d0 & 1 << 63 != 0 { d0 >> 32 & 0x7fff_ffff } else { old >> 32 };
            lo | hi << 32
        }
        _ => panic!("{name}"),
    }
}

/// Region `k` of the atomic tests: 4 slots of 8 bytes at 32 × k.
fn region(init: Init, wide: bool, r: &mut Rng) -> [u64; 4] {
    let f32s = [1.0f32, -0.0, f32::NAN, 2.0];
    let f64s = [1.0f64, -0.0, f64::NAN, -2.0];
    std::array::from_fn(|k| match init {
        Init::Random if wide => r.next() as u64 | (r.next() as u64) << 32,
        Init::Random => r.next() as u64,
        Init::Small => (k as u64 * 3) % 5,
        Init::F32 => f32s[k].to_bits() as u64,
        Init::F64 => f64s[k].to_bits(),
    })
}

/// Runs `cases`, rtn forms (or the forms without return, `rtn: false`, whose LDS must
/// come out the same), in a wave of `lanes`, and checks returns and LDS against the model.
fn check_atomics(cases: &[AtomicCase], rtn: bool, wave64: bool) {
    let lanes = if wave64 { 64 } else { 32 };
    let inputs = atomic_inputs(lanes);
    let results = 32 * cases.len(); // returned values start here: 8 bytes per lane and case
    let lds_bytes = results + 8 * lanes * cases.len();
    let mut r = Rng(5);
    let mut mem = vec![0u8; lds_bytes];
    let mut body = String::from(PROLOGUE);
    body += "v_lshlrev_b32 v0, 3, v0\nv_mbcnt_lo_u32_b32 v33, -1, 0\nv_mbcnt_hi_u32_b32 v33, -1, v33\nv_lshlrev_b32 v33, 3, v33\n";
    for (k, c) in cases.iter().enumerate() {
        let reg = region(c.init, c.wide, &mut r);
        for s in 0..4 {
            mem[32 * k + 8 * s..32 * k + 8 * s + 8].copy_from_slice(&reg[s].to_le_bytes());
        }
        let name = match (rtn, c.name.contains("_rtn_")) {
            (true, false) => {
                let (stem, ty) = c.name.rsplit_once('_').unwrap();
                format!("{stem}_rtn_{ty}")
            }
            _ => c.name.to_string(),
        };
        let data = match c.d1 {
            Some(d1) => format!("{}, {d1}", c.d0),
            None => c.d0.to_string(),
        };
        let ret = if c.wide { "v[34:35]" } else { "v34" };
        if rtn || c.name.contains("_rtn_") {
            body += &format!(
                "v_mov_b32 v34, 0xdead\nv_mov_b32 v35, 0xbeef\nds_{name} {ret}, v0, {data} offset:{}\nds_store_b64 v33, v[34:35] offset:{}\n",
                32 * k,
                results + 8 * lanes * k
            );
        } else {
            body += &format!("ds_{name} v0, {data} offset:{}\n", 32 * k);
        }
    }
    let init = words(&mem);
    let (_, after) = lds(&body, &inputs, wave64, &init, AlignMode::Unaligned);
    // The model.
    let mut want = mem.clone();
    for (k, c) in cases.iter().enumerate() {
        let n = if c.wide { 8 } else { 4 };
        for l in 0..lanes {
            let a = 32 * k + 8 * (l % 4);
            let mut b = [0u8; 8];
            b[..n].copy_from_slice(&want[a..a + n]);
            let old = u64::from_le_bytes(b);
            let d0 = operand(inputs[l], c.d0);
            let d1 = c.d1.map_or(0, |d| operand(inputs[l], d));
            let new = model(c.name, c.wide, old, d0, d1);
            want[a..a + n].copy_from_slice(&new.to_le_bytes()[..n]);
            let ra = results + 8 * lanes * k + 8 * l;
            if rtn || c.name.contains("_rtn_") {
                let ret = if c.wide { old } else { old | 0xbeef << 32 };
                want[ra..ra + 8].copy_from_slice(&ret.to_le_bytes());
            }
        }
    }
    let got = bytes(&after);
    for (k, c) in cases.iter().enumerate() {
        assert_eq!(
            got[32 * k..32 * k + 32],
            want[32 * k..32 * k + 32],
            "LDS after ds_{} (rtn {rtn}, wave64 {wave64})",
            c.name
        );
        let ra = results + 8 * lanes * k;
        for l in 0..lanes {
            assert_eq!(
                got[ra + 8 * l..ra + 8 * l + 8],
                want[ra + 8 * l..ra + 8 * l + 8],
                "returned value of lane {l} of ds_{} (wave64 {wave64})",
                c.name
            );
        }
    }
}

/// Every LDS atomic with return, 32 and 64 bits, lanes meeting on shared addresses
/// (applied in lane order), against the model; wave32.
#[test]
fn atomics_with_return_match_the_model() {
    check_atomics(ATOMICS, true, false);
}

/// The same atomics without return change LDS the same way; wave64 (both halves).
#[test]
fn atomics_without_return_match_the_model_wave64() {
    check_atomics(ATOMICS, false, true);
}

/// ds_storexchg_2addr(_stride64)_rtn_b32/b64: data0 to the first address, data1 to the
/// second; both old values returned.
#[test]
fn two_address_exchanges_return_both_old_values() {
    let init = random_words(1024, 9);
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [16 * l, 0x100 + l, 0x200 + l, 0x300 + l]).collect();
    let body = "
        v_mov_b32 v20, v1
        v_mov_b32 v21, v2
        v_mov_b32 v22, v3
        v_mov_b32 v23, v0
        ds_storexchg_2addr_rtn_b32 v[4:5], v0, v1, v2 offset0:1 offset1:2
        ds_storexchg_2addr_rtn_b64 v[6:9], v0, v[20:21], v[22:23] offset0:64 offset1:65
    ";
    let m = bytes(&init);
    let (out, after) = lds(body, &inputs, false, &init, AlignMode::Unaligned);
    let mut want = m.clone();
    for l in 0..32usize {
        let [a, d1, d2, d3] = inputs[l].map(|v| v as usize);
        let put = |w: &mut Vec<u8>, at: usize, v: u32| w[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(&mut want, a + 4, d1 as u32);
        put(&mut want, a + 8, d2 as u32);
        put(&mut want, a + 512, d1 as u32);
        put(&mut want, a + 516, d2 as u32);
        put(&mut want, a + 520, d3 as u32);
        put(&mut want, a + 524, a as u32);
        let old = [a + 4, a + 8, a + 512, a + 516, a + 520, a + 524].map(|x| dword(&m, x));
        assert_eq!(out.v[l][..6], old, "lane {l}");
    }
    assert_eq!(after, words(&want));
    // stride64: lane 1 only.
    let body = "
        s_mov_b32 exec_lo, 2
        v_mov_b32 v20, v1
        v_mov_b32 v21, v2
        v_mov_b32 v22, v3
        v_mov_b32 v23, v0
        ds_storexchg_2addr_stride64_rtn_b32 v[4:5], v0, v1, v2 offset0:1 offset1:2
        ds_storexchg_2addr_stride64_rtn_b64 v[6:9], v0, v[20:21], v[22:23] offset0:2 offset1:3
    ";
    let (out, after) = lds(body, &inputs, false, &init, AlignMode::Unaligned);
    let mut want = m.clone();
    let put = |w: &mut Vec<u8>, at: usize, v: u32| w[at..at + 4].copy_from_slice(&v.to_le_bytes());
    put(&mut want, 16 + 256, 0x101);
    put(&mut want, 16 + 512, 0x201);
    put(&mut want, 16 + 1024, 0x101);
    put(&mut want, 16 + 1028, 0x201);
    put(&mut want, 16 + 1536, 0x301);
    put(&mut want, 16 + 1540, 16);
    assert_eq!(out.v[1][..6], [16 + 256, 16 + 512, 16 + 1024, 16 + 1028, 16 + 1536, 16 + 1540].map(|x| dword(&m, x)));
    assert_eq!(after, words(&want));
}

/// ds_swizzle_b32 in each offset mode (RDNA3 ISA guide pseudocode): bit mode (and/or/xor
/// within 32 lanes), quad permute, and the FFT and rotate modes, in wave32 and wave64
/// with some lanes off (a lane that reads an inactive lane gets zero).
#[test]
fn swizzle_modes_wave32_and_wave64() {
    let offsets: [u32; 8] = [
        0x147f, // bit mode: and 31, or 3, xor 5
        0x041f, // swizzle(SWAP,1): xor 1
        0x00f8, // bit mode: and 0x18, or 7
        0x801b, // swizzle(QUAD_PERM,3,2,1,0)
        0x804e, // swizzle(QUAD_PERM,2,3,0,1)
        0xe005, // FFT, mask 5
        0xc060, // rotate by 3
        0xc4a3, // rotate back by 5, mask 3
    ];
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let exec: u64 = 0xfff7_ffff_7fff_fffe & if wave64 { u64::MAX } else { u32::MAX as u64 };
        let inputs: Vec<[u32; 4]> = (0..lanes as u32).map(|l| [0x1000 + l, 0, 0, 0]).collect();
        let set_exec = if wave64 {
            format!("s_mov_b32 exec_lo, {:#x}\ns_mov_b32 exec_hi, {:#x}\n", exec as u32, (exec >> 32) as u32)
        } else {
            format!("s_mov_b32 exec_lo, {:#x}\n", exec as u32)
        };
        let mut body = set_exec;
        for (k, o) in offsets.iter().enumerate() {
            body += &format!("ds_swizzle_b32 v{}, v0 offset:{o}\n", 4 + k);
        }
        let (out, _) = lds(&body, &inputs, wave64, &[0; 64], AlignMode::Unaligned);
        for (k, &o) in offsets.iter().enumerate() {
            for i in 0..lanes {
                let j = if o >= 0xe000 {
                    let mask = o & 0x1f;
                    let mut r = 0;
                    for b in 0..5 {
                        r |= (i as u32 >> b & 1) << (4 - b);
                    }
                    ((r >> mask.count_ones()) | (i as u32 & mask)) as usize & 0x1f | (i & 0x20)
                } else if o >= 0xc000 {
                    let mask = o & 0x1f;
                    let rot = (o >> 5 & 0x1f) as i32 * if o & 0x400 != 0 { -1 } else { 1 };
                    let x = i as i32 + rot;
                    ((i as u32 & mask) | (x as u32 & !mask)) as usize & 0x1f | (i & 0x20)
                } else if o & 0x8000 != 0 {
                    (i & !3) | (o >> (2 * (i & 3)) & 3) as usize
                } else {
                    ((((i as u32 & 0x1f) & (o & 0x1f)) | (o >> 5 & 0x1f)) ^ (o >> 10 & 0x1f)) as usize | (i & 0x20)
                };
                // Inactive lanes are not written (the harness zeroed v4..v11); a lane reading an
                // inactive lane gets zero.
                let want = if exec >> i & 1 == 0 || exec >> j & 1 == 0 { 0 } else { 0x1000 + j as u32 };
                assert_eq!(out.v[i][k], want, "offset {o:#06x} lane {i} (from {j}), wave64 {wave64}");
            }
        }
    }
}

/// ds_permute_b32 and ds_bpermute_b32: byte addresses (lane × 4) plus the offset, modulo
/// the wave size (all 64 lanes in wave64); bpermute reads zero from an inactive lane,
/// permute writes only from active lanes (the highest writer wins), and only active lanes
/// receive.
#[test]
fn permute_and_bpermute_wave32_and_wave64() {
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let exec: u64 = 0xefff_ffff_ffff_fffb & if wave64 { u64::MAX } else { u32::MAX as u64 };
        let mut r = Rng(11);
        // Target lanes: random, scaled to bytes, with junk in bits past the lane.
        let inputs: Vec<[u32; 4]> =
            (0..lanes as u32).map(|l| [4 * (r.next() % 128) + (r.next() & 3), 0x5000 + l, 0, 0]).collect();
        let body = format!(
            "{}ds_permute_b32 v4, v0, v1\nds_bpermute_b32 v5, v0, v1\nds_bpermute_b32 v6, v0, v1 offset:8\n",
            if wave64 {
                format!("s_mov_b32 exec_lo, {:#x}\ns_mov_b32 exec_hi, {:#x}\n", exec as u32, (exec >> 32) as u32)
            } else {
                format!("s_mov_b32 exec_lo, {:#x}\n", exec as u32)
            }
        );
        let (out, _) = lds(&body, &inputs, wave64, &[0; 64], AlignMode::Unaligned);
        let lane = |l: usize, off: u32| ((inputs[l][0] + off) / 4) as usize % lanes;
        let mut perm = vec![0u32; lanes];
        for i in 0..lanes {
            if exec >> i & 1 != 0 {
                perm[lane(i, 0)] = inputs[i][1];
            }
        }
        for i in 0..lanes {
            let on = exec >> i & 1 != 0;
            let bp = |off| {
                let j = lane(i, off);
                if exec >> j & 1 != 0 {
                    inputs[j][1]
                } else {
                    0
                }
            };
            assert_eq!(out.v[i][0], if on { perm[i] } else { 0 }, "permute lane {i} wave64 {wave64}");
            assert_eq!(out.v[i][1], if on { bp(0) } else { 0 }, "bpermute lane {i} wave64 {wave64}");
            assert_eq!(out.v[i][2], if on { bp(8) } else { 0 }, "bpermute offset lane {i} wave64 {wave64}");
        }
    }
}

/// ds_append / ds_consume: the counter at M0[15:0] + offset goes up (down) by the number
/// of active lanes, every active lane gets the value before; wave32 and wave64.
#[test]
fn append_and_consume_count_active_lanes() {
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        let exec: u64 = 0x8000_0f00_0f0f_00f1 & if wave64 { u64::MAX } else { u32::MAX as u64 };
        let set_exec = if wave64 {
            format!("s_mov_b32 exec_lo, {:#x}\ns_mov_b32 exec_hi, {:#x}\n", exec as u32, (exec >> 32) as u32)
        } else {
            format!("s_mov_b32 exec_lo, {:#x}\n", exec as u32)
        };
        let body = format!(
            "s_mov_b32 m0, 0x30010\n{set_exec}ds_append v4 offset:4\nds_append v5 offset:4\nds_consume v6 offset:8\n\
             s_mov_b32 m0, 0\nds_consume v7 offset:0x14\n"
        );
        let mut init = vec![0u32; 64];
        init[5] = 100; // 0x14
        init[6] = 3; // 0x18
        let (out, after) = lds(&body, &[[0; 4]], wave64, &init, AlignMode::Unaligned);
        let n = exec.count_ones();
        let mut want = init.clone();
        want[5] = 100 + 2 * n - n;
        want[6] = 3u32.wrapping_sub(n);
        assert_eq!(after, want, "wave64 {wave64}");
        for l in 0..lanes {
            let w = if exec >> l & 1 != 0 { [100, 100 + n, 3, 100 + 2 * n] } else { [0; 4] };
            assert_eq!(out.v[l][..4], w, "lane {l} wave64 {wave64}");
        }
    }
}

/// RDNA3-NOTES, "LDS alignment and out-of-range behaviour": UNALIGNED uses the address as
/// is; DWORD clears the low bits per the "local" alignment (B16 2, B32 4, B64 8, B96/B128
/// 16 bytes: `B32 & 0xfffc, B64 & 0xfff8, B96/B128 & 0xfff0`).
#[test]
fn seed000_lds_alignment_masking_per_mode() {
    let init = random_words(256, 3);
    let m = bytes(&init);
    let body = "
        ds_load_u16 v4, v0 offset:0x21
        ds_load_b32 v5, v0 offset:0x43
        ds_load_b64 v[6:7], v0 offset:0x66
        ds_load_b128 v[8:11], v0 offset:0x8c
        v_mov_b32 v20, 0x11223344
        v_mov_b32 v21, 0x55667788
        ds_store_b64 v0, v[20:21] offset:0xc5
        ds_store_b16 v0, v20 offset:0xe3
    ";
    for mode in [AlignMode::Unaligned, AlignMode::Dword] {
        let un = mode == AlignMode::Unaligned;
        let a = |addr: usize, unit: usize| if un { addr } else { addr & !(unit - 1) };
        let (out, after) = lds(body, &[[0; 4]], false, &init, mode);
        let v = out.v[0];
        assert_eq!(v[0], u16::from_le_bytes([m[a(0x21, 2)], m[a(0x21, 2) + 1]]) as u32, "{mode:?}");
        assert_eq!(v[1], dword(&m, a(0x43, 4)), "{mode:?}");
        assert_eq!(v[2..4], [dword(&m, a(0x66, 8)), dword(&m, a(0x66, 8) + 4)], "{mode:?}");
        let q = a(0x8c, 16);
        assert_eq!(v[4..8], [0, 4, 8, 12].map(|k| dword(&m, q + k)), "{mode:?}");
        let mut want = m.clone();
        want[a(0xc5, 8)..a(0xc5, 8) + 8].copy_from_slice(&0x5566_7788_1122_3344u64.to_le_bytes());
        want[a(0xe3, 2)..a(0xe3, 2) + 2].copy_from_slice(&0x3344u16.to_le_bytes());
        assert_eq!(after, words(&want), "{mode:?}");
    }
}

/// RDNA3-NOTES, "LDS alignment and out-of-range behaviour": a misaligned LDS access under
/// STRICT or DWORD_STRICT is a MEMVIOL (the "local" alignment: a b64 at 4 is misaligned, a
/// b32 at 4 is not); and a misaligned atomic is a MEMVIOL in every mode, UNALIGNED
/// included.
#[test]
fn seed000_lds_misaligned_is_memviol_in_strict_modes_and_for_atomics() {
    for mode in [AlignMode::Strict, AlignMode::DwordStrict] {
        // Aligned accesses run.
        let ok =
            "v_mov_b32 v1, 8\nds_load_b32 v4, v1 offset:4\nds_load_b64 v[5:6], v1\nds_load_b128 v[8:11], v1 offset:8\n\
                  ds_store_b16 v1, v1 offset:2\nds_load_u8 v7, v1 offset:3";
        lds(ok, &[[0; 4]], false, &[0; 64], mode);
        for bad in [
            "ds_load_b64 v[4:5], v1 offset:4",
            "ds_store_b32 v1, v1 offset:2",
            "ds_load_b128 v[4:7], v1 offset:8",
            "ds_load_u16 v4, v1 offset:1",
            "ds_store_b96 v1, v[4:6] offset:4",
        ] {
            let body = format!("v_mov_b32 v1, 0\n{bad}");
            let r = try_lds(&body, &[[0; 4]], false, &[0; 64], mode).expect_err(bad);
            assert_eq!(r.kind, ReportKind::MemoryViolation, "{mode:?} {bad}: {r}");
            assert!(r.to_string().contains(bad), "{r}");
        }
    }
    for mode in [AlignMode::Unaligned, AlignMode::Dword] {
        for bad in ["ds_add_u32 v1, v2 offset:2", "ds_add_rtn_u64 v[4:5], v1, v[2:3] offset:4", "ds_append v4 offset:2"]
        {
            let body = format!("v_mov_b32 v1, 0\ns_mov_b32 m0, 0\n{bad}");
            let r = try_lds(&body, &[[0; 4]], false, &[0; 64], mode).expect_err(bad);
            assert_eq!(r.kind, ReportKind::MemoryViolation, "{mode:?} {bad}: {r}");
        }
    }
}

/// RDNA3-NOTES, "LDS alignment and out-of-range behaviour": out-of-range writes are
/// dropped, reads return zero, a multi-dword read partly out of range returns zero for the
/// whole lane (b128, a 2addr pair with one element out); an atomic out of range does
/// nothing and returns zero. The address is `addr + offset` in 32 bits (wrapping): bits
/// 31:16 are kept, so 0x10000 + x is out of range rather than aliasing x.
#[test]
fn seed000_lds_out_of_range() {
    let init = random_words(256, 4); // 1 KiB
    let m = bytes(&init);
    let body = "
        v_mov_b32 v1, 0x3f0
        v_mov_b32 v2, 0x12345678
        ds_load_b128 v[4:7], v1 offset:8
        ds_load_2addr_b32 v[8:9], v1 offset0:3 offset1:4
        ds_load_b32 v10, v1 offset:12
        v_mov_b32 v3, 0x10000
        ds_load_b32 v11, v3 offset:4
        ds_store_b32 v1, v2 offset:16
        ds_store_b64 v1, v[1:2] offset:12
        ds_store_b32 v3, v2 offset:0
        ds_add_rtn_u32 v12, v1, v2 offset:16
        v_mov_b32 v13, -4
        ds_load_b32 v14, v13 offset:8
        ds_store_b32 v13, v2 offset:12
        v_mov_b32 v6, v12
        v_mov_b32 v7, v14
    ";
    let (out, after) = lds(body, &[[0; 4]], false, &init, AlignMode::Unaligned);
    let v = out.v[0];
    assert_eq!(v[0..2], [0, 0], "b128 at 0x3f8: half out of range, all zero");
    assert_eq!(v[2], 0, "the atomic out of range returns zero");
    assert_eq!(v[3], dword(&m, 4), "0xfffffffc + 8 wraps to 4 in 32 bits");
    assert_eq!(v[4..6], [0, 0], "2addr at 0x3fc and 0x400: one out, both zero");
    assert_eq!(v[6], dword(&m, 0x3fc));
    assert_eq!(v[7], 0, "0x10004 does not alias 4");
    let mut want = m.clone();
    want[8..12].copy_from_slice(&0x1234_5678u32.to_le_bytes()); // -4 + 12
    assert_eq!(after, words(&want), "the out-of-range stores and atomic were dropped");
}

/// RDNA3-NOTES, "LDS alignment and out-of-range behaviour" and
/// "VGPR out-of-range behaviour": a source VGPR past the wave's allocation reads v0; an
/// instruction returning data to a VGPR past it is issued with EXEC = 0 (an atomic with
/// return changes nothing), while one without return is not checked.
#[test]
fn seed000_lds_vgpr_out_of_range() {
    let mut gpu = Gpu::new();
    // 24 VGPRs (RSRC1.VGPRS = 2: 3 × 8 in wave32): v24 and up are out of range.
    let code = gpu.kernel(
        "
        v_mov_b32 v0, 0x40
        v_mov_b32 v1, 0x10
        v_mov_b32 v2, 7
        ds_store_b32 v1, v30                 // data v30 reads v0: 0x40 at 0x10
        ds_store_b32 v30, v2                 // address v30 reads v0: 7 at 0x40
        ds_store_b64 v1, v[23:24] offset:8   // v24 reads v0: (v23, 0x40) at 0x18
        ds_add_rtn_u32 v30, v1, v2           // returns past the allocation: no effect
        ds_add_rtn_u64 v[23:24], v1, v[2:3] offset:8  // v24 past it: no effect
        ds_add_u32 v1, v2 offset:4           // no return, not checked: 7 at 0x14
        s_waitcnt lgkmcnt(0)
        v_mov_b32 v3, 0
        ds_load_b32 v4, v3 offset:0x10
        ds_load_b32 v5, v3 offset:0x14
        ds_load_b64 v[6:7], v3 offset:0x18
        ds_load_b32 v8, v3 offset:0x40
        s_waitcnt lgkmcnt(0)
        global_store_b32 v3, v4, s[0:1]
        global_store_b32 v3, v5, s[0:1] offset:4
        global_store_b64 v3, v[6:7], s[0:1] offset:8
        global_store_b32 v3, v8, s[0:1] offset:16
        s_endpgm
        ",
    );
    let out = gpu.alloc(32);
    write_words(&out, 0, &[0xdead_beef; 8]);
    let mut d = Dispatch::new(&code, &addr(out.va()), [false; 3], [1, 1, 1]).lds(1024);
    d.rsrc1 = d.rsrc1 & !0x3f | 2;
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 5);
    assert_eq!(got[0], 0x40);
    assert_eq!(got[1], 7);
    assert_eq!(got[3], 0x40, "the high dword of the b64 store came from v0");
    assert_eq!(got[4], 7);
}

/// GDS and GWS: compute queues get no GDS allocation here, so the GWS instructions,
/// ds_ordered_count, ds_add/sub_gs_reg_rtn and any DS instruction with `gds` raise the
/// illegal-instruction exception (named); so does ds_bvh_stack_rtn_b32. ds_nop does nothing.
#[test]
fn gds_forms_are_illegal_and_ds_nop_is_nothing() {
    for body in [
        "ds_add_u32 v1, v2 gds",
        "ds_gws_init v1 offset:16 gds",
        "ds_gws_barrier v1 gds",
        "ds_ordered_count v1, v2 offset:4 gds",
        "ds_add_gs_reg_rtn v[2:3], v1 offset:8 gds",
        "ds_bvh_stack_rtn_b32 v1, v2, v3, v[4:7] offset:4",
    ] {
        let r = try_lds(body, &[[0; 4]], false, &[0; 32], AlignMode::Unaligned).expect_err(body);
        assert_eq!(r.kind, ReportKind::IllegalInstruction, "{body}: {r}");
        assert!(r.to_string().contains(body.split(' ').next().unwrap()), "{r}");
    }
    let init = random_words(32, 8);
    let (_, after) = lds("ds_nop\nds_nop", &[[0; 4]], false, &init, AlignMode::Unaligned);
    assert_eq!(after, init);
}

/// RDNA3-NOTES, "LDS layout and allocation" (the
/// waves of a workgroup share up to 64 KiB of LDS), in CU mode and in WGP mode
/// (RSRC1.WGP_MODE): two waves of one workgroup with a 64 KiB allocation exchange data at
/// its top (0xff00..0xffff) across a barrier; an address past it (0x10000) is out of range
/// (RDNA3-NOTES, "LDS alignment and out-of-range behaviour": reads zero) in both modes.
#[test]
fn seed004_workgroup_shares_64k_lds_in_cu_and_wgp_mode() {
    for wgp_mode in [false, true] {
        let mut gpu = Gpu::new();
        let code = gpu.kernel(
            "
            v_and_b32 v1, 0x3ff, v0
            v_lshlrev_b32 v2, 2, v1
            v_add_nc_u32 v3, 0xff00, v2
            v_add_nc_u32 v4, 0x1000, v1
            ds_store_b32 v3, v4
            s_waitcnt lgkmcnt(0)
            s_barrier
            v_xor_b32 v5, 0x80, v3
            ds_load_b32 v6, v5
            v_mov_b32 v8, 0x10000
            ds_load_b32 v7, v8 offset:4
            s_waitcnt lgkmcnt(0)
            v_lshlrev_b32 v9, 3, v1
            global_store_b64 v9, v[6:7], s[0:1]
            s_endpgm
            ",
        );
        let out = gpu.alloc(64 * 8);
        write_words(&out, 0, &[0xdead_beef; 128]);
        let mut d = Dispatch::new(&code, &addr(out.va()), [false; 3], [64, 1, 1]).lds(64 * 1024);
        d.rsrc1 = d.rsrc1 & !(1 << 29) | (wgp_mode as u32) << 29;
        gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
        let got = read_words(&out, 0, 128);
        for t in 0..64 {
            assert_eq!(got[2 * t..2 * t + 2], [0x1000 + (t as u32 ^ 32), 0], "item {t}, WGP mode {wgp_mode}");
        }
    }
}
