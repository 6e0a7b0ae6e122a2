//! The random program generator of `tiers.rs`: gfx1100 assembly text for one wave, built
//! as a tree of items (instructions, memory groups, branches over blocks, uniform and
//! divergent loops, EXEC scopes, calls) so that a failing program can be shrunk item by
//! item and stay valid.
//!
//! Registers (the layout the prologue and epilogue of `tiers.rs` rely on):
//! - s0..s15: user data (addresses, the data buffer's size, two V#s), never written;
//! - s16..s63: random data, written by random instructions;
//! - s64..s67: uniform loop counters (by nesting depth); s68..s75: saved EXEC (by depth,
//!   pairs); s76..s77: the return address of calls, s78..s79: computed jump targets;
//!   s80..s87: the break masks of divergent loops (by depth, pairs); s88..s95: the
//!   prologue's and epilogue's; s96: MODE saved by mode items;
//! - v0..v55: random data, written by random instructions; v56..v59: memory addresses;
//!   v60..v63: the per-lane trip counts of divergent loops (by depth); v64 and up: the
//!   prologue's and epilogue's.
//!
//! Every operand and modifier choice follows what `llvm-mc-19 -mcpu=gfx1100` accepts; the
//! few opcodes and forms it rejects (or that would break the harness) are listed below.

use gpu::isa::table::{Encoding, OpInfo, Ty, F, OPS};

/// A small deterministic generator (xorshift64*), seeded through splitmix64.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        let mut z = seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        Rng((z ^ (z >> 31)) | 1)
    }

    pub fn u64(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    pub fn u32(&mut self) -> u32 {
        (self.u64() >> 32) as u32
    }

    /// Uniform in `0..n` (`n > 0`).
    pub fn below(&mut self, n: u32) -> u32 {
        ((self.u32() as u64 * n as u64) >> 32) as u32
    }

    /// Uniform in `lo..=hi`.
    pub fn range(&mut self, lo: u32, hi: u32) -> u32 {
        lo + self.below(hi - lo + 1)
    }

    /// True with probability `pct` percent.
    pub fn pct(&mut self, pct: u32) -> bool {
        self.below(100) < pct
    }

    pub fn pick<'a, T>(&mut self, xs: &'a [T]) -> &'a T {
        &xs[self.below(xs.len() as u32) as usize]
    }
}

// ---- interesting values ----

pub const INTS: &[u32] = &[
    0,
    1,
    2,
    3,
    7,
    8,
    15,
    16,
    31,
    32,
    33,
    63,
    64,
    65,
    0xffff_ffff,
    0xffff_fffe,
    0xffff_fff0,
    0x7fff_ffff,
    0x8000_0000,
    0x8000_0001,
    0xffff,
    0x1_0000,
    0x7fff,
    0x8000,
    0xff,
    0x100,
    0x80,
    0x7f,
    0xff_ffff,
    0x100_0000,
    0x80_0000,
    0xffff_8000,
    0xffff_ff80,
    0x5555_5555,
    0xaaaa_aaaa,
    0x0f0f_0f0f,
    0x1234_5678,
    0xdead_beef,
    0x8000_7fff,
    0x7fff_8000,
];

pub const F32S: &[u32] = &[
    0x0000_0000, // +0
    0x8000_0000, // -0
    0x3f80_0000, // 1
    0xbf80_0000, // -1
    0x3f00_0000, // 0.5
    0x4000_0000, // 2
    0x4040_0000, // 3
    0x7f80_0000, // +inf
    0xff80_0000, // -inf
    0x7fc0_0000, // qNaN
    0xffc0_0000, // -qNaN (the default NaN)
    0x7fc1_2345, // qNaN with a payload
    0xffe0_0001, // -qNaN with a payload
    0x7f80_0001, // sNaN
    0x7fa0_0000, // sNaN
    0xff80_1234, // -sNaN with a payload
    0x0000_0001, // smallest denormal
    0x007f_ffff, // largest denormal
    0x8000_0001,
    0x807f_ffff,
    0x0040_0000,
    0x0080_0000, // smallest normal
    0x8080_0000,
    0x7f7f_ffff, // largest finite
    0xff7f_ffff,
    0x4b80_0000, // 2^24
    0x4b00_0001,
    0x4f00_0000, // 2^31
    0x4f80_0000, // 2^32
    0xcf00_0000, // -2^31
    0xcf00_0001,
    0x3eff_ffff, // just below 0.5
    0x3fc0_0000, // 1.5
    0x4020_0000, // 2.5
    0xc020_0000, // -2.5
    0x4049_0fdb, // pi
    0x3eaa_aaab, // 1/3
    0x3dcc_cccd, // 0.1
    0x5f80_0000, // 2^64
    0x2f80_0000, // 2^-32
    0x0d80_0000,
    0x7e80_0000,
    0x3e22_f983, // 1/(2 pi)
    0x42c8_0000, // 100
    0xc2c8_0000,
    0x4b7f_ffff,
    0x3f7f_ffff,
];

pub const F16S: &[u32] = &[
    0x3c00, 0xbc00, 0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0xfe00, 0x7c01, 0x7d00, 0xfd55, 0x0001, 0x03ff, 0x8001,
    0x0400, 0x7bff, 0xfbff, 0x3800, 0x4000, 0x3555, 0x5640, 0x7000, 0x3bff, 0x4248, 0x1400, 0xc900,
];

/// f64 values as (high, low) words.
pub const F64S: &[(u32, u32)] = &[
    (0x3ff0_0000, 0),
    (0xbff0_0000, 0),
    (0, 0),
    (0x8000_0000, 0),
    (0x7ff0_0000, 0),
    (0xfff0_0000, 0),
    (0x7ff8_0000, 0),
    (0xfff8_0000, 0),
    (0x7ff8_0000, 0x1234),
    (0x7ff0_0000, 1),
    (0x7ff4_0000, 0x5678),
    (0, 1),
    (0x000f_ffff, 0xffff_ffff),
    (0x8000_0000, 1),
    (0x0010_0000, 0),
    (0x7fef_ffff, 0xffff_ffff),
    (0xffef_ffff, 0xffff_ffff),
    (0x4000_0000, 0),
    (0x3fe0_0000, 0),
    (0x41e0_0000, 0),
    (0xc1e0_0000, 0),
    (0x41f0_0000, 0),
    (0x3fb9_9999, 0x9999_999a),
    (0x4009_21fb, 0x5444_2d18),
    (0x4330_0000, 0),
    (0x3690_0000, 0),
    (0x47e0_0000, 0),
    (0x3fef_ffff, 0xffff_ffff),
];

/// A random "interesting" 32-bit value.
pub fn value(r: &mut Rng) -> u32 {
    match r.below(20) {
        0..=4 => *r.pick(INTS),
        5..=10 => *r.pick(F32S),
        11 => *r.pick(F16S) | *r.pick(F16S) << 16,
        12..=14 => {
            // A float of moderate magnitude.
            let exp = r.range(110, 150);
            (r.u32() & 0x8000_0000) | exp << 23 | (r.u32() & 0x7f_ffff)
        }
        15 => r.below(100),
        16 => r.range(0, 16).wrapping_neg(),
        17 => {
            let (h, l) = *r.pick(F64S);
            if r.pct(50) {
                h
            } else {
                l
            }
        }
        _ => r.u32(),
    }
}

// ---- register layout ----

/// VGPRs random instructions write: v0..v55.
pub const VDATA: u32 = 56;
/// Address registers of memory items.
pub const VADDR: u32 = 56;
/// Per-lane loop counters by depth.
pub const VLOOP: u32 = 60;
/// SGPRs random instructions write: s16..s63.
pub const SDATA: (u32, u32) = (16, 64);
pub const SLOOP: u32 = 64;
pub const SSAVE: u32 = 68;
pub const SRET: u32 = 76;
pub const SACC: u32 = 80;
/// Where mode items keep MODE while they change it.
pub const SMODE: u32 = 96;
/// The deepest nesting of control items.
pub const MAX_DEPTH: usize = 3;
/// LDS bytes of every wave.
pub const LDS_BYTES: u32 = 4096;
/// Bytes of the data buffer.
pub const MEM_BYTES: u32 = 4096;
/// Bytes the short V# (s[12:15]) covers: accesses past it are out of range.
pub const SHORT_RECORDS: u32 = 1024;

// ---- program items ----

/// One node of a program.
#[derive(Clone, Debug)]
pub enum Item {
    /// Lines that belong together (one instruction, or a setup and its instruction).
    Code(Vec<String>),
    /// `setup; s_cbranch_<cond> END; body; END:`.
    If { setup: Vec<String>, cond: &'static str, body: Vec<Item> },
    /// `setup; s_cbranch_<cond> ELSE; then; s_branch END; ELSE: els; END:`.
    IfElse { setup: Vec<String>, cond: &'static str, then: Vec<Item>, els: Vec<Item> },
    /// A counted loop in an SGPR (`shape` picks the latch).
    Loop { depth: usize, count: u32, shape: u32, body: Vec<Item> },
    /// A loop whose lanes leave after a per-lane number of iterations (`shape`: a break
    /// mask as LLVM builds it, or v_cmpx on the counter).
    DivLoop { depth: usize, src: u32, shape: u32, body: Vec<Item> },
    /// A divergent if (and else), as LLVM emits them with s_and_saveexec.
    DivIf { depth: usize, cond: Vec<String>, mask: String, then: Vec<Item>, els: Option<Vec<Item>> },
    /// EXEC saved, changed by `set`, the body, EXEC restored.
    ExecScope { depth: usize, set: Vec<String>, body: Vec<Item> },
    /// A subroutine called with s_call_b64 (or s_swappc_b64 to a computed address) and
    /// left with s_setpc_b64 (`times` calls).
    Call { times: u32, swap: bool, body: Vec<Item> },
    /// An indirect jump (s_getpc_b64, an offset, s_setpc_b64) over `body`: its target is
    /// no branch target the translator knows of. `guard`: an unexecuted s_branch makes
    /// the instruction after the s_setpc_b64 a block start, which the translator needs
    /// (divergence_setpc_fallthrough).
    Jump { guard: bool, body: Vec<Item> },
}

impl Item {
    /// Instructions in the item (for statistics and shrinking).
    pub fn size(&self) -> usize {
        let n = |b: &[Item]| b.iter().map(Item::size).sum::<usize>();
        match self {
            Item::Code(l) => l.len(),
            Item::If { setup, body, .. } => setup.len() + 1 + n(body),
            Item::IfElse { setup, then, els, .. } => setup.len() + 2 + n(then) + n(els),
            Item::Loop { body, .. } => 4 + n(body),
            Item::DivLoop { body, .. } => 8 + n(body),
            Item::DivIf { cond, then, els, .. } => cond.len() + 4 + n(then) + els.as_ref().map_or(0, |e| 2 + n(e)),
            Item::ExecScope { set, body, .. } => set.len() + 2 + n(body),
            Item::Call { times, body, .. } => 2 + 4 * *times as usize + n(body),
            Item::Jump { body, .. } => 5 + n(body),
        }
    }

    /// The item's child blocks (for shrinking).
    pub fn blocks_mut(&mut self) -> Vec<&mut Vec<Item>> {
        match self {
            Item::Code(_) => vec![],
            Item::If { body, .. } | Item::Loop { body, .. } | Item::DivLoop { body, .. } => vec![body],
            Item::ExecScope { body, .. } | Item::Call { body, .. } | Item::Jump { body, .. } => vec![body],
            Item::IfElse { then, els, .. } => vec![then, els],
            Item::DivIf { then, els, .. } => {
                let mut v = vec![then];
                if let Some(e) = els {
                    v.push(e);
                }
                v
            }
        }
    }
}

/// Renders items as assembly lines; `labels` numbers the labels (prefix `pfx`).
pub struct Render<'a> {
    pub wave64: bool,
    pub pfx: &'a str,
    pub labels: u32,
    pub out: Vec<String>,
}

impl Render<'_> {
    fn label(&mut self) -> String {
        self.labels += 1;
        format!(".L{}_{}", self.pfx, self.labels)
    }

    fn line(&mut self, s: impl Into<String>) {
        self.out.push(s.into());
    }

    fn exec(&self) -> &'static str {
        if self.wave64 {
            "exec"
        } else {
            "exec_lo"
        }
    }

    fn vcc(&self) -> &'static str {
        if self.wave64 {
            "vcc"
        } else {
            "vcc_lo"
        }
    }

    fn b(&self) -> &'static str {
        if self.wave64 {
            "b64"
        } else {
            "b32"
        }
    }

    /// A lane-mask SGPR (pair in wave64) at `base`.
    fn mask(&self, base: u32) -> String {
        if self.wave64 {
            format!("s[{}:{}]", base, base + 1)
        } else {
            format!("s{base}")
        }
    }

    pub fn items(&mut self, items: &[Item]) {
        for it in items {
            self.item(it);
        }
    }

    fn item(&mut self, it: &Item) {
        let (exec, vcc, b) = (self.exec(), self.vcc(), self.b());
        match it {
            Item::Code(lines) => {
                for l in lines {
                    self.line(l.clone());
                }
            }
            Item::If { setup, cond, body } => {
                let end = self.label();
                setup.iter().for_each(|l| self.line(l.clone()));
                self.line(format!("s_cbranch_{cond} {end}"));
                self.items(body);
                self.line(format!("{end}:"));
            }
            Item::IfElse { setup, cond, then, els } => {
                let (lelse, end) = (self.label(), self.label());
                setup.iter().for_each(|l| self.line(l.clone()));
                self.line(format!("s_cbranch_{cond} {lelse}"));
                self.items(then);
                self.line(format!("s_branch {end}"));
                self.line(format!("{lelse}:"));
                self.items(els);
                self.line(format!("{end}:"));
            }
            Item::Loop { depth, count, shape, body } => {
                let c = format!("s{}", SLOOP + *depth as u32);
                let (head, end) = (self.label(), self.label());
                self.line(format!("s_mov_b32 {c}, {count}"));
                self.line(format!("{head}:"));
                if shape % 4 == 2 {
                    // A while loop: the test at the top, an unconditional back edge.
                    self.line(format!("s_cmp_eq_u32 {c}, 0"));
                    self.line(format!("s_cbranch_scc1 {end}"));
                    self.items(body);
                    self.line(format!("s_add_i32 {c}, {c}, -1"));
                    self.line(format!("s_branch {head}"));
                } else {
                    self.items(body);
                    match shape % 4 {
                        0 => {
                            self.line(format!("s_add_i32 {c}, {c}, -1"));
                            self.line(format!("s_cmp_lg_u32 {c}, 0"));
                            self.line(format!("s_cbranch_scc1 {head}"));
                        }
                        1 => {
                            self.line(format!("s_sub_u32 {c}, {c}, 1"));
                            self.line(format!("s_cmpk_eq_u32 {c}, 0x0"));
                            self.line(format!("s_cbranch_scc0 {head}"));
                        }
                        _ => {
                            // The back edge on VCC.
                            self.line(format!("s_add_i32 {c}, {c}, -1"));
                            self.line(format!("s_cmp_lg_u32 {c}, 0"));
                            self.line(format!("s_cselect_{b} {vcc}, -1, 0"));
                            self.line(format!("s_cbranch_vccnz {head}"));
                        }
                    }
                }
                self.line(format!("{end}:"));
            }
            Item::DivLoop { depth, src, shape, body } => {
                let cnt = format!("v{}", VLOOP + *depth as u32);
                let head = self.label();
                self.line(format!("v_and_b32 {cnt}, 7, v{src}"));
                self.line(format!("v_add_nc_u32 {cnt}, 1, {cnt}"));
                if shape % 2 == 0 {
                    let acc = self.mask(SACC + 2 * *depth as u32);
                    self.line(format!("s_mov_{b} {acc}, 0"));
                    self.line(format!("{head}:"));
                    self.items(body);
                    self.line(format!("v_add_nc_u32 {cnt}, -1, {cnt}"));
                    self.line(format!("v_cmp_eq_u32_e32 {vcc}, 0, {cnt}"));
                    self.line(format!("s_or_{b} {acc}, {vcc}, {acc}"));
                    self.line(format!("s_and_not1_{b} {exec}, {exec}, {acc}"));
                    self.line(format!("s_cbranch_execnz {head}"));
                    self.line(format!("s_or_{b} {exec}, {exec}, {acc}"));
                } else {
                    let save = self.mask(SSAVE + 2 * *depth as u32);
                    self.line(format!("s_mov_{b} {save}, {exec}"));
                    self.line(format!("{head}:"));
                    self.items(body);
                    self.line(format!("v_add_nc_u32 {cnt}, -1, {cnt}"));
                    self.line(format!("v_cmpx_ne_u32_e32 0, {cnt}"));
                    self.line(format!("s_cbranch_execnz {head}"));
                    self.line(format!("s_mov_{b} {exec}, {save}"));
                }
            }
            Item::DivIf { depth, cond, mask, then, els } => {
                let save = self.mask(SSAVE + 2 * *depth as u32);
                let (mid, end) = (self.label(), self.label());
                cond.iter().for_each(|l| self.line(l.clone()));
                self.line(format!("s_and_saveexec_{b} {save}, {mask}"));
                match els {
                    None => {
                        self.line(format!("s_cbranch_execz {end}"));
                        self.items(then);
                        self.line(format!("{end}:"));
                    }
                    Some(els) => {
                        self.line(format!("s_xor_{b} {save}, {exec}, {save}"));
                        self.line(format!("s_cbranch_execz {mid}"));
                        self.items(then);
                        self.line(format!("{mid}:"));
                        self.line(format!("s_and_not1_saveexec_{b} {save}, {save}"));
                        self.line(format!("s_cbranch_execz {end}"));
                        self.items(els);
                        self.line(format!("{end}:"));
                    }
                }
                self.line(format!("s_or_{b} {exec}, {exec}, {save}"));
            }
            Item::ExecScope { depth, set, body } => {
                let save = self.mask(SSAVE + 2 * *depth as u32);
                self.line(format!("s_mov_{b} {save}, {exec}"));
                set.iter().for_each(|l| self.line(l.clone()));
                self.items(body);
                self.line(format!("s_mov_{b} {exec}, {save}"));
            }
            Item::Call { times, swap, body } => {
                let (sub, over) = (self.label(), self.label());
                let ret = format!("s[{}:{}]", SRET, SRET + 1);
                let (t0, t1) = (SRET + 2, SRET + 3);
                self.line(format!("s_branch {over}"));
                self.line(format!("{sub}:"));
                self.items(body);
                self.line(format!("s_setpc_b64 {ret}"));
                self.line(format!("{over}:"));
                for _ in 0..*times {
                    if *swap {
                        let pc = self.label();
                        self.line(format!("s_getpc_b64 s[{t0}:{t1}]"));
                        self.line(format!("{pc}:"));
                        self.line(format!("s_add_u32 s{t0}, s{t0}, {sub}-{pc}"));
                        self.line(format!("s_addc_u32 s{t1}, s{t1}, -1"));
                        self.line(format!("s_swappc_b64 {ret}, s[{t0}:{t1}]"));
                    } else {
                        self.line(format!("s_call_b64 {ret}, {sub}"));
                    }
                }
                // The return address is the code's; the dump shows no addresses.
                self.line(format!("s_mov_b64 {ret}, 0"));
                self.line(format!("s_mov_b64 s[{t0}:{t1}], 0"));
            }
            Item::Jump { guard, body } => {
                let (pc, target, go, after) = (self.label(), self.label(), self.label(), self.label());
                let (t0, t1) = (SRET + 2, SRET + 3);
                if *guard {
                    self.line(format!("s_branch {go}"));
                    self.line(format!("s_branch {after}"));
                    self.line(format!("{go}:"));
                }
                self.line(format!("s_getpc_b64 s[{t0}:{t1}]"));
                self.line(format!("{pc}:"));
                self.line(format!("s_add_u32 s{t0}, s{t0}, {target}-{pc}"));
                self.line(format!("s_addc_u32 s{t1}, s{t1}, 0"));
                self.line(format!("s_setpc_b64 s[{t0}:{t1}]"));
                if *guard {
                    self.line(format!("{after}:"));
                }
                self.items(body);
                self.line(format!("{target}:"));
                self.line(format!("s_mov_b64 s[{t0}:{t1}], 0"));
            }
        }
    }
}

// ---- opcode lists ----

/// Opcodes the generator never emits as random instructions, with the reason.
const EXCLUDED: &[(&str, &str)] = &[
    ("v_illegal", "raises the illegal-instruction exception"),
    ("s_getpc_b64", "the code's address (made by calls only)"),
    ("s_setpc_b64", "control flow (made by calls only)"),
    ("s_swappc_b64", "control flow"),
    ("s_rfe_b64", "returns from the trap handler"),
    ("s_sendmsg_rtn_b32", "messages answer with device state"),
    ("s_sendmsg_rtn_b64", "messages answer with device state (REALTIME)"),
    ("s_call_b64", "made by Call items"),
    ("s_getreg_b32", "made by mode items"),
    ("s_setreg_b32", "made by mode items"),
    ("s_setreg_imm32_b32", "made by mode items"),
    ("s_subvector_loop_begin", "not executed by softnavi"),
    ("s_subvector_loop_end", "not executed by softnavi"),
    ("s_waitcnt_vscnt", "made by memory items"),
    ("s_waitcnt_vmcnt", "made by memory items"),
    ("s_waitcnt_expcnt", "made by memory items"),
    ("s_waitcnt_lgkmcnt", "made by memory items"),
    ("s_movrels_b32", "M0-relative: made by lane items"),
    ("s_movrels_b64", "M0-relative: made by lane items"),
    ("s_movreld_b32", "M0-relative: made by lane items"),
    ("s_movreld_b64", "M0-relative: made by lane items"),
    ("s_movrelsd_2_b32", "M0-relative: made by lane items"),
    ("v_movreld_b32", "M0-relative: made by lane items"),
    ("v_movrels_b32", "M0-relative: made by lane items"),
    ("v_movrelsd_b32", "M0-relative: made by lane items"),
    ("v_movrelsd_2_b32", "M0-relative: made by lane items"),
    ("v_swaprel_b32", "M0-relative: made by lane items"),
    ("v_readlane_b32", "made by lane items"),
    ("v_writelane_b32", "made by lane items"),
    ("v_readfirstlane_b32", "made by lane items"),
    ("v_swap_b32", "made by lane items"),
    ("v_permlane64_b32", "made by lane items"),
    ("v_permlane16_b32", "made by lane items"),
    ("v_permlanex16_b32", "made by lane items"),
    ("v_fmamk_f32", "literal K: made by the VALU generator's special forms"),
    ("v_fmaak_f32", "literal K"),
    ("v_fmamk_f16", "literal K"),
    ("v_fmaak_f16", "literal K"),
];

fn excluded(name: &str) -> bool {
    EXCLUDED.iter().any(|(n, _)| *n == name)
        || (name.starts_with("s_") && name.contains("saveexec"))
        || (name.starts_with("s_") && name.contains("wrexec"))
}

/// The opcodes random ALU instructions are drawn from, by class.
pub struct Ops {
    pub sop: Vec<&'static OpInfo>,
    pub vop: Vec<&'static OpInfo>,
    pub vopc: Vec<&'static OpInfo>,
    pub vop3p: Vec<&'static OpInfo>,
    pub ds: Vec<&'static OpInfo>,
    pub global: Vec<&'static OpInfo>,
    pub mubuf: Vec<&'static OpInfo>,
}

impl Ops {
    pub fn new() -> Ops {
        let mut o =
            Ops { sop: vec![], vop: vec![], vopc: vec![], vop3p: vec![], ds: vec![], global: vec![], mubuf: vec![] };
        for info in OPS.iter() {
            if info.flags & F::X == 0 || excluded(info.name) {
                continue;
            }
            match info.enc {
                Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc => o.sop.push(info),
                Encoding::Sopk if SOPK_RANDOM.contains(&info.name) => o.sop.push(info),
                Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3 => o.vop.push(info),
                Encoding::Vopc => o.vopc.push(info),
                Encoding::Vop3p => o.vop3p.push(info),
                Encoding::Ds if info.flags & F::GDS == 0 && !DS_SKIP.contains(&info.name) => o.ds.push(info),
                Encoding::Global => o.global.push(info),
                Encoding::Mubuf if info.flags & F::LDS == 0 => o.mubuf.push(info),
                _ => {}
            }
        }
        o
    }
}

impl Default for Ops {
    fn default() -> Self {
        Ops::new()
    }
}

const SOPK_RANDOM: &[&str] = &[
    "s_movk_i32",
    "s_cmovk_i32",
    "s_cmpk_eq_i32",
    "s_cmpk_lg_i32",
    "s_cmpk_gt_i32",
    "s_cmpk_ge_i32",
    "s_cmpk_lt_i32",
    "s_cmpk_le_i32",
    "s_cmpk_eq_u32",
    "s_cmpk_lg_u32",
    "s_cmpk_gt_u32",
    "s_cmpk_ge_u32",
    "s_cmpk_lt_u32",
    "s_cmpk_le_u32",
    "s_addk_i32",
    "s_mulk_i32",
    "s_version",
];

/// DS opcodes not generated: ds_bvh_stack_rtn_b32 is not executed.
const DS_SKIP: &[&str] = &["ds_bvh_stack_rtn_b32"];

// ---- known divergences ----

/// Instruction forms on which the tiers are known to disagree (each has an ignored
/// reproducer in tiers.rs): `(mnemonic prefix, text the line contains)`. The generator
/// avoids them unless `SOFTNAVI_TIERS_KNOWN=1`, so that the long run finds new ones; remove
/// an entry when its reproducer passes.
pub const KNOWN_DIVERGENCES: &[(&str, &str)] = &[];

/// Whether the known divergences are generated too.
fn known_on() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("SOFTNAVI_TIERS_KNOWN").is_ok_and(|v| v == "1"))
}

/// Whether `item` is a known divergence (and known divergences are not generated).
pub fn known(item: &Item) -> bool {
    known_divergence(item)
}

fn known_divergence(item: &Item) -> bool {
    if known_on() {
        return false;
    }
    let bad = |lines: &[String]| {
        lines.iter().any(|l| KNOWN_DIVERGENCES.iter().any(|(op, text)| l.starts_with(op) && l.contains(text)))
    };
    match item {
        Item::Code(lines) => bad(lines),
        Item::If { setup, .. } | Item::IfElse { setup, .. } => bad(setup),
        Item::DivIf { cond, .. } => bad(cond),
        Item::ExecScope { set, .. } => bad(set),
        _ => false,
    }
}

// ---- the generator ----

/// Per-instruction limits of the VALU constant bus and literal.
#[derive(Default)]
struct Bus {
    /// Scalar values read (SGPRs, by name, and the literal).
    scalars: Vec<String>,
    literal: Option<u32>,
    /// How many scalars the form allows (VOP3: 2; e32: 1 plus the literal rules).
    max: usize,
    /// Literals are 16-bit values (v_fma_mix*).
    lit16: bool,
    /// The size of the operand the literal is in (a 32-bit and a 64-bit operand cannot
    /// share one).
    literal_dwords: u32,
}

impl Bus {
    fn can_sgpr(&self, name: &str) -> bool {
        self.scalars.iter().any(|s| s == name) || self.scalars.len() < self.max
    }

    /// Whether a literal may go in an operand of `n` dwords: a new one within the limits,
    /// or the one already there in an operand of the same size.
    fn can_literal(&self, n: u32) -> bool {
        match self.literal {
            Some(_) => self.literal_dwords == n,
            None => self.scalars.len() < self.max,
        }
    }
}

pub struct Gen<'o> {
    pub r: Rng,
    pub wave64: bool,
    ops: &'o Ops,
    /// Whether the program is inside a called subroutine (no nested calls).
    in_call: bool,
    /// Instructions emitted so far (a budget).
    pub emitted: usize,
    pub budget: usize,
}

/// How a VALU source may be given.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Slot {
    /// VGPR, SGPR, constant or literal.
    Any,
    /// VGPR only (VOP2 src1 in e32, DPP sources).
    V,
    /// VGPR, SGPR or inline constant (no literal).
    NoLit,
}

impl<'o> Gen<'o> {
    pub fn new(seed: u64, wave64: bool, ops: &'o Ops) -> Gen<'o> {
        let r = Rng::new(seed);
        Gen { r, wave64, ops, in_call: false, emitted: 0, budget: 0 }
    }

    fn exec(&self) -> &'static str {
        if self.wave64 {
            "exec"
        } else {
            "exec_lo"
        }
    }

    fn vcc(&self) -> &'static str {
        if self.wave64 {
            "vcc"
        } else {
            "vcc_lo"
        }
    }

    fn b(&self) -> &'static str {
        if self.wave64 {
            "b64"
        } else {
            "b32"
        }
    }

    // ---- registers ----

    /// A data VGPR tuple of `n` registers to write.
    fn vdst(&mut self, n: u32) -> String {
        let base = self.r.below(VDATA - n + 1);
        vname(base, n)
    }

    /// A VGPR tuple of `n` registers to read (the data registers, mostly).
    fn vread(&mut self, n: u32) -> String {
        let top = if self.r.pct(90) { VDATA } else { 64 };
        let base = self.r.below(top - n + 1);
        vname(base, n)
    }

    /// A data SGPR tuple of `n` registers (aligned as SMEM and 64-bit operands need).
    fn sdata(&mut self, n: u32) -> String {
        let align = match n {
            1 => 1,
            2 => 2,
            _ => 4,
        };
        let slots = (SDATA.1 - SDATA.0 - n) / align + 1;
        let base = SDATA.0 + align * self.r.below(slots);
        sname(base, n)
    }

    /// A 32-bit scalar destination.
    fn sdst32(&mut self) -> String {
        match self.r.below(20) {
            0 => "vcc_lo".into(),
            1 => "vcc_hi".into(),
            2 => "null".into(),
            3 => "m0".into(),
            _ => self.sdata(1),
        }
    }

    /// A 64-bit scalar destination.
    fn sdst64(&mut self) -> String {
        match self.r.below(12) {
            0 => "vcc".into(),
            1 => "null".into(),
            _ => self.sdata(2),
        }
    }

    /// A lane-mask destination (SGPR or pair).
    fn mask_dst(&mut self) -> String {
        if self.wave64 {
            match self.r.below(8) {
                0 => "vcc".into(),
                1 => "null".into(),
                _ => self.sdata(2),
            }
        } else {
            match self.r.below(8) {
                0 => "vcc_lo".into(),
                1 => "null".into(),
                _ => self.sdata(1),
            }
        }
    }

    /// A lane-mask source.
    fn mask_src(&mut self) -> String {
        if self.wave64 {
            match self.r.below(8) {
                0..=1 => "vcc".into(),
                2 => "exec".into(),
                _ => self.sdata(2),
            }
        } else {
            match self.r.below(8) {
                0..=1 => "vcc_lo".into(),
                2 => "exec_lo".into(),
                _ => self.sdata(1),
            }
        }
    }

    /// A 32-bit scalar source register.
    fn sreg32(&mut self) -> String {
        match self.r.below(25) {
            0 => "vcc_lo".into(),
            1 => "vcc_hi".into(),
            2 => "exec_lo".into(),
            3 => "exec_hi".into(),
            4 => "m0".into(),
            5 => "null".into(),
            6 => "src_scc".into(),
            _ => self.sdata(1),
        }
    }

    fn sreg64(&mut self) -> String {
        match self.r.below(16) {
            0 => "vcc".into(),
            1 => "exec".into(),
            2 => "null".into(),
            _ => self.sdata(2),
        }
    }

    // ---- constants ----

    fn inline_int(&mut self) -> String {
        (self.r.range(0, 80) as i32 - 16).to_string()
    }

    fn inline_float(&mut self) -> String {
        self.r.pick(&["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494"]).to_string()
    }

    fn inline(&mut self, float: bool) -> String {
        if float && self.r.pct(60) {
            self.inline_float()
        } else {
            self.inline_int()
        }
    }

    /// An inline constant for a 64-bit operand (1/(2 pi) is not one in f64 text).
    fn inline64(&mut self, float: bool) -> String {
        loop {
            let c = self.inline(float);
            if c != "0.15915494" {
                return c;
            }
        }
    }

    /// A literal value suited to an operand of type `ty`.
    fn literal_value(&mut self, ty: Ty) -> u32 {
        loop {
            let v = match ty {
                Ty::F16 | Ty::B16 | Ty::BF16 => *self.r.pick(F16S),
                Ty::F64 => self.r.pick(F64S).0,
                _ => value(&mut self.r),
            };
            // Values that are inline constants would be encoded as such.
            if !is_inline(v, ty) {
                return v;
            }
        }
    }

    // ---- VALU operands ----

    /// A source of type `ty` in a slot; `float_mods` allows neg/abs.
    fn vsrc(&mut self, ty: Ty, slot: Slot, bus: &mut Bus, float_mods: bool) -> String {
        let n = ty.dwords(self.wave64).max(1);
        let float = matches!(ty, Ty::F16 | Ty::F32 | Ty::F64 | Ty::V2F16);
        let roll = self.r.below(100);
        let konst = |g: &mut Self| if n >= 2 { g.inline64(float) } else { g.inline(float) };
        let s = if slot == Slot::V || n > 2 || roll < 62 {
            self.vread(n)
        } else if roll < 78 {
            let s = if n >= 2 { self.sreg64() } else { self.sreg32() };
            if bus.can_sgpr(&s) {
                if !bus.scalars.contains(&s) {
                    bus.scalars.push(s.clone());
                }
                s
            } else {
                konst(self)
            }
        } else if roll < 92 || slot == Slot::NoLit || !bus.can_literal(n) {
            konst(self)
        } else {
            let v = match bus.literal {
                Some(v) => v,
                None => {
                    let v = self.literal_value(if bus.lit16 { Ty::F16 } else { ty });
                    bus.literal = Some(v);
                    bus.literal_dwords = n;
                    bus.scalars.push("lit".into());
                    v
                }
            };
            format!("{v:#x}")
        };
        if !float_mods {
            return s;
        }
        // Registers take -x and |x|; constants neg(x) and abs(x) (-1.0 would be another
        // constant).
        let reg = s.starts_with(|c: char| c.is_ascii_alphabetic());
        if !reg && n >= 2 && s.starts_with("0x") {
            // LLVM takes no modifier on a 64-bit operand's literal.
            return s;
        }
        match (self.r.below(10), reg) {
            (0, true) => format!("-{s}"),
            (1, true) => format!("|{s}|"),
            (2, true) => format!("-|{s}|"),
            (0, false) => format!("neg({s})"),
            (1, false) => format!("abs({s})"),
            (2, false) => format!("neg(abs({s}))"),
            _ => s,
        }
    }

    /// A random VALU instruction from the VOP1/VOP2/VOP3 opcodes.
    pub fn vop(&mut self) -> Vec<String> {
        let info = *self.r.pick(&self.ops.vop);
        self.vop_of(info)
    }

    fn vop_of(&mut self, info: &OpInfo) -> Vec<String> {
        let name = info.name;
        let [d, s0, s1, s2] = info.ty;
        match name {
            "v_nop" | "v_pipeflush" => return vec![name.into()],
            "v_mov_b16" => return self.mov_b16(),
            "v_dot2acc_f32_f16" | "v_pk_fmac_f16" => {
                let mut bus = Bus { max: 1, ..Bus::default() };
                let a = self.vsrc(s0, Slot::Any, &mut bus, false);
                return vec![format!("{name} {}, {a}, {}", self.vdst(1), self.vread(1))];
            }
            _ => {}
        }
        let e32_only = info.flags & F::E32 != 0;
        let vop3_only = info.enc == Encoding::Vop3;
        let wide = [d, s0, s1, s2].iter().any(|t| matches!(t, Ty::B64 | Ty::F64 | Ty::B128));
        let sd = info.flags & F::SD != 0;
        let has_mask = s2 == Ty::Mask;
        let nsrc = [s0, s1, s2].iter().filter(|t| **t != Ty::N && **t != Ty::Mask).count();
        // Forms: 0 e32, 1 e64, 2 dpp16, 3 dpp8, 4 e64 dpp16, 5 e64 dpp8.
        let dpp_ok = !wide && !NO_DPP.contains(&name);
        let form = loop {
            let f = match self.r.below(20) {
                0..=6 => 0,
                7..=14 => 1,
                15..=16 => 2,
                17 => 3,
                18 => 4,
                _ => 5,
            };
            let ok = match f {
                0 => !vop3_only,
                1 => !e32_only,
                2 | 3 => !vop3_only && !e32_only && dpp_ok,
                _ => !e32_only && dpp_ok && !NO_VOP3_DPP.contains(&name),
            };
            if ok {
                break f;
            }
        };
        let e64 = !matches!(form, 0 | 2 | 3);
        let dpp = form >= 2;
        let float_dst = matches!(d, Ty::F32 | Ty::F64 | Ty::F16);
        // Input modifiers: VOP3 and DPP16 (DPP8 has no modifier bits).
        let mods = e64 || form == 2;
        // The constant bus: two scalar values in VOP3, one in e32; an SGPR lane mask is
        // one of them, and a few opcodes allow only one.
        let max = if !e64 || ONE_SCALAR.contains(&name) || has_mask { 1 } else { 2 };
        let lit16 = LIT16.contains(&name);
        let mut bus = Bus { max, lit16, ..Bus::default() };
        let mut ops: Vec<String> = Vec::new();
        // Destination(s).
        let dn = d.dwords(self.wave64).max(1);
        ops.push(self.vdst(dn));
        if sd {
            if e64 {
                let m = self.mask_dst();
                ops.push(m);
            } else {
                ops.push(self.vcc().into());
            }
        }
        let types = [s0, s1, s2];
        let mut src_vgpr = vec![];
        for (k, &t) in types.iter().enumerate().take(nsrc) {
            let slot = match (form, k) {
                (0, 0) => Slot::Any,
                (0, _) => Slot::V,
                (1, _) => Slot::Any,
                (2 | 3, _) => Slot::V,
                (_, 0) => Slot::V,
                (_, 1) => Slot::V,
                _ => Slot::NoLit,
            };
            let fm = mods && float_src(t, name, k);
            let src = self.vsrc(t, slot, &mut bus, fm);
            src_vgpr.push(src.trim_start_matches(['-', '|']).starts_with('v'));
            ops.push(src);
        }
        if has_mask {
            if e64 {
                let m = self.mask_src();
                ops.push(m);
            } else {
                ops.push(self.vcc().into());
            }
        }
        let mut text = format!("{name}{} {}", suffix(form, vop3_only), ops.join(", "));
        // Output modifiers (LLVM wants op_sel before clamp and omod).
        if e64 {
            // op_sel on the 16-bit VOP3 opcodes: the high half of a VGPR source (never of
            // a constant: softnavi does not execute that) and of the destination.
            if OPSEL16.contains(&name) && self.r.pct(40) {
                let mut bits: Vec<String> =
                    src_vgpr.iter().map(|&v| if v && self.r.pct(50) { "1" } else { "0" }.to_string()).collect();
                bits.push(self.r.below(2).to_string());
                text.push_str(&format!(" op_sel:[{}]", bits.join(",")));
            }
            if (float_dst || CLAMP_INT.contains(&name)) && !NO_CLAMP.contains(&name) && self.r.pct(15) {
                text.push_str(" clamp");
            }
            if float_dst && !NO_OMOD.contains(&name) && self.r.pct(12) {
                text.push(' ');
                let omod: &&str = self.r.pick(&["mul:2", "mul:4", "div:2"]);
                text.push_str(omod);
            }
        }
        if dpp {
            text.push(' ');
            text.push_str(&self.dpp_ctrl(form == 3 || form == 5));
        }
        vec![text]
    }

    /// v_mov_b16 (LLVM 19 knows only its true16 form: halves named .l / .h).
    fn mov_b16(&mut self) -> Vec<String> {
        let half = |g: &mut Self, r: String| format!("{r}.{}", if g.r.pct(50) { "l" } else { "h" });
        let d = self.vdst(1);
        let d = half(self, d);
        match self.r.below(6) {
            0 => {
                let s = self.sreg32();
                vec![format!("v_mov_b16_e32 {d}, {s}")]
            }
            1 => {
                let c = self.literal_value(Ty::F16);
                vec![format!("v_mov_b16_e32 {d}, {c:#x}")]
            }
            2 => {
                let s = self.vread(1);
                let s = half(self, s);
                let dpp8 = self.r.pct(30);
                let ctrl = self.dpp_ctrl(dpp8);
                vec![format!("v_mov_b16_dpp {d}, {s} {ctrl}")]
            }
            _ => {
                let s = self.vread(1);
                let s = half(self, s);
                vec![format!("v_mov_b16_e32 {d}, {s}")]
            }
        }
    }

    /// DPP16 or DPP8 controls.
    fn dpp_ctrl(&mut self, dpp8: bool) -> String {
        if dpp8 {
            let sel: Vec<String> = (0..8).map(|_| self.r.below(8).to_string()).collect();
            let fi = if self.r.pct(30) { " fi:1" } else { "" };
            return format!("dpp8:[{}]{fi}", sel.join(","));
        }
        let ctrl = match self.r.below(9) {
            0 | 1 => {
                let q: Vec<String> = (0..4).map(|_| self.r.below(4).to_string()).collect();
                format!("quad_perm:[{}]", q.join(","))
            }
            2 => format!("row_shl:{}", self.r.range(1, 15)),
            3 => format!("row_shr:{}", self.r.range(1, 15)),
            4 => format!("row_ror:{}", self.r.range(1, 15)),
            5 => "row_mirror".into(),
            6 => "row_half_mirror".into(),
            7 => format!("row_share:{}", self.r.below(16)),
            _ => format!("row_xmask:{}", self.r.below(16)),
        };
        let rm = if self.r.pct(70) { 0xf } else { self.r.below(16) };
        let bm = if self.r.pct(70) { 0xf } else { self.r.below(16) };
        let bc = if self.r.pct(40) { " bound_ctrl:1" } else { "" };
        let fi = if self.r.pct(30) { " fi:1" } else { "" };
        format!("{ctrl} row_mask:{rm:#x} bank_mask:{bm:#x}{bc}{fi}")
    }

    /// One random instance of ALU opcode `info` (any of [`Ops`]'s ALU lists); a v_cmpx
    /// comes after a line that turns every lane on.
    pub fn instance(&mut self, info: &OpInfo) -> Vec<String> {
        match info.enc {
            Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc | Encoding::Sopk => self.sop_of(info),
            Encoding::Vopc if info.flags & F::CMPX != 0 => {
                let on = if self.wave64 { "s_mov_b64 exec, -1" } else { "s_mov_b32 exec_lo, -1" };
                let mut l = vec![on.to_string()];
                l.extend(self.vopc_of(info, None));
                l
            }
            Encoding::Vopc => self.vopc_of(info, None),
            Encoding::Vop3p => self.vop3p_of(info),
            _ => self.vop_of(info),
        }
    }

    /// Every ALU opcode the generator knows.
    pub fn alu_ops(&self) -> Vec<&'static OpInfo> {
        let o = self.ops;
        o.sop.iter().chain(&o.vop).chain(&o.vopc).chain(&o.vop3p).copied().collect()
    }

    /// v_fmamk / v_fmaak (a literal K that is always there).
    pub fn fmak(&mut self) -> Vec<String> {
        let (name, ty) = *self.r.pick(&[
            ("v_fmamk_f32", Ty::F32),
            ("v_fmaak_f32", Ty::F32),
            ("v_fmamk_f16", Ty::F16),
            ("v_fmaak_f16", Ty::F16),
        ]);
        let k = self.literal_value(ty);
        // src0 shares the literal slot: a register or an inline constant.
        let a = if self.r.pct(80) { self.vread(1) } else { self.inline(true) };
        let (d, b) = (self.vdst(1), self.vread(1));
        let text = if name.contains("mk") {
            format!("{name} {d}, {a}, {k:#x}, {b}")
        } else {
            format!("{name} {d}, {a}, {b}, {k:#x}")
        };
        vec![text]
    }

    /// A VOPC compare: e32 to VCC, e64 to an SGPR (pair), or v_cmpx (EXEC; only where the
    /// caller allows EXEC to change).
    pub fn vopc(&mut self, cmpx_ok: bool) -> Vec<String> {
        let info = loop {
            let i = *self.r.pick(&self.ops.vopc);
            if cmpx_ok || i.flags & F::CMPX == 0 {
                break i;
            }
        };
        self.vopc_of(info, None)
    }

    /// `info` (a VOPC opcode) writing `dst` when given (e64), else a random form.
    fn vopc_of(&mut self, info: &OpInfo, dst: Option<String>) -> Vec<String> {
        let name = info.name;
        let cmpx = info.flags & F::CMPX != 0;
        let [_, s0, s1, _] = info.ty;
        let wide = matches!(s0, Ty::B64 | Ty::F64);
        let float = matches!(s0, Ty::F16 | Ty::F32 | Ty::F64);
        // 0 e32, 1 e64, 2 dpp16, 3 dpp8, 4 e64 dpp16.
        let form = if dst.is_some() {
            1
        } else {
            loop {
                let f = match self.r.below(10) {
                    0..=3 => 0,
                    4..=7 => 1,
                    8 => 2,
                    _ => [3, 4][self.r.below(2) as usize],
                };
                if f < 2 || !wide {
                    break f;
                }
            }
        };
        let e64 = form == 1 || form == 4;
        let mut bus = Bus { max: if e64 { 2 } else { 1 }, ..Bus::default() };
        let mut ops = Vec::new();
        if !cmpx {
            let d = match (&dst, e64) {
                (Some(d), _) => d.clone(),
                (None, true) => self.mask_dst(),
                (None, false) => self.vcc().into(),
            };
            ops.push(d);
        }
        let slot0 = if form >= 2 { Slot::V } else { Slot::Any };
        let slot1 = if e64 && form == 1 { Slot::Any } else { Slot::V };
        let fm = float && (e64 || form == 2);
        ops.push(self.vsrc(s0, slot0, &mut bus, fm));
        let s1txt = if name.contains("class") {
            // The class mask: a register or a constant with a few class bits.
            if slot1 == Slot::V || self.r.pct(50) {
                self.vread(1)
            } else {
                self.r.range(0, 64).to_string()
            }
        } else {
            self.vsrc(s1, slot1, &mut bus, fm)
        };
        ops.push(s1txt);
        let suffix = match form {
            0 => "_e32",
            1 => "_e64",
            2 | 3 => "_dpp",
            _ => "_e64_dpp",
        };
        let mut text = format!("{name}{suffix} {}", ops.join(", "));
        if form >= 2 {
            text.push(' ');
            text.push_str(&self.dpp_ctrl(form == 3));
        }
        vec![text]
    }

    /// A random VOP3P instruction (packed 16-bit, dot products, mixed precision, WMMA).
    pub fn vop3p(&mut self) -> Vec<String> {
        let info = *self.r.pick(&self.ops.vop3p);
        self.vop3p_of(info)
    }

    fn vop3p_of(&mut self, info: &OpInfo) -> Vec<String> {
        let name = info.name;
        if name.starts_with("v_wmma") {
            return self.wmma(info);
        }
        let [_, s0, s1, s2] = info.ty;
        let nsrc = [s0, s1, s2].iter().filter(|t| **t != Ty::N).count();
        let mut bus = Bus { max: 2, ..Bus::default() };
        let mix = name.starts_with("v_fma_mix");
        bus.lit16 = mix;
        let mut ops = vec![self.vdst(1)];
        for &t in [s0, s1, s2].iter().take(nsrc) {
            ops.push(self.vsrc(t, Slot::Any, &mut bus, mix));
        }
        let mut text = format!("{name} {}", ops.join(", "));
        // Which modifier bits the model executes (packed.rs): the integer dot products
        // take no op_sel, and neg_lo only on the A and B of the iu forms; dot2_f32 takes
        // none on its f32 accumulator; packed integer ops take no neg.
        let dot_int = name.starts_with("v_dot4") || name.starts_with("v_dot8");
        let dot2 = name.starts_with("v_dot2_f32");
        let iu = name.contains("_iu");
        let (mut sel, mut sel_hi, mut neg, mut neg_hi) = (0u32, (1u32 << nsrc) - 1, 0u32, 0u32);
        let full = (1u32 << nsrc) - 1;
        if !dot_int {
            if self.r.pct(40) {
                sel = self.r.below(full + 1);
            }
            if self.r.pct(40) {
                sel_hi = self.r.below(full + 1);
            }
        }
        let float = name.contains("f16") || name.contains("bf16");
        if float && !mix {
            if self.r.pct(30) {
                neg = self.r.below(full + 1);
            }
            if self.r.pct(30) {
                neg_hi = self.r.below(full + 1);
            }
        }
        if iu && self.r.pct(50) {
            neg = self.r.below(4);
        }
        if dot2 {
            sel &= 3;
            sel_hi |= 4;
            neg &= 3;
            neg_hi &= 3;
        }
        let bits = |v: u32| -> String {
            let b: Vec<String> = (0..nsrc).map(|k| (v >> k & 1).to_string()).collect();
            format!("[{}]", b.join(","))
        };
        if sel != 0 {
            text.push_str(&format!(" op_sel:{}", bits(sel)));
        }
        if sel_hi != full {
            text.push_str(&format!(" op_sel_hi:{}", bits(sel_hi)));
        }
        if neg != 0 {
            text.push_str(&format!(" neg_lo:{}", bits(neg)));
        }
        if neg_hi != 0 {
            text.push_str(&format!(" neg_hi:{}", bits(neg_hi)));
        }
        if !PK_NO_CLAMP.contains(&name) && self.r.pct(15) {
            text.push_str(" clamp");
        }
        vec![text]
    }

    fn wmma(&mut self, info: &OpInfo) -> Vec<String> {
        let name = info.name;
        // Operand sizes (wave32; wave64 halves C and D).
        let ab = match name {
            n if n.ends_with("iu8") => 4,
            n if n.ends_with("iu4") => 2,
            _ => 8,
        };
        let cd = if self.wave64 { 4 } else { 8 };
        // Four disjoint blocks of 8 registers among v0..v55.
        let mut blocks: Vec<u32> = (0..7).collect();
        let mut pick = |g: &mut Self| {
            let i = g.r.below(blocks.len() as u32) as usize;
            blocks.remove(i) * 8
        };
        let (dd, a, b) = (pick(self), pick(self), pick(self));
        let c = if self.r.pct(30) { dd } else { pick(self) };
        let mut text = format!("{name} {}, {}, {}, {}", vname(dd, cd), vname(a, ab), vname(b, ab), vname(c, cd));
        if name.contains("iu") {
            if self.r.pct(50) {
                text.push_str(&format!(" neg_lo:[{},{},0]", self.r.below(2), self.r.below(2)));
            }
            if self.r.pct(30) {
                text.push_str(" clamp");
            }
        } else if (name.contains("f16_16x") || name.contains("bf16_16x16x16_bf16")) && self.r.pct(40) {
            text.push_str(" op_sel:[0,0,1]");
        }
        vec![text]
    }

    /// A VOPD pair (wave32 only).
    pub fn vopd(&mut self) -> Vec<String> {
        const X: &[&str] = &[
            "v_dual_fmac_f32",
            "v_dual_fmaak_f32",
            "v_dual_fmamk_f32",
            "v_dual_mul_f32",
            "v_dual_add_f32",
            "v_dual_sub_f32",
            "v_dual_subrev_f32",
            "v_dual_mul_dx9_zero_f32",
            "v_dual_mov_b32",
            "v_dual_cndmask_b32",
            "v_dual_max_f32",
            "v_dual_min_f32",
            "v_dual_dot2acc_f32_f16",
        ];
        const Y_EXTRA: &[&str] = &["v_dual_add_nc_u32", "v_dual_lshlrev_b32", "v_dual_and_b32"];
        let x = *self.r.pick(X);
        let y = loop {
            let y = if self.r.pct(25) { *self.r.pick(Y_EXTRA) } else { *self.r.pick(X) };
            // Only one of the two may carry a literal K.
            if !(x.contains("fmaak") || x.contains("fmamk")) || !(y.contains("fmaak") || y.contains("fmamk")) {
                break y;
            }
        };
        let has_k = |o: &str| o.contains("fmaak") || o.contains("fmamk");
        let lit = if has_k(x) || has_k(y) { Some(self.literal_value(Ty::F32)) } else { None };
        // The constant bus: unique SGPRs, the literal and VCC (v_dual_cndmask) count; two
        // at most.
        let mut scalars = lit.is_some() as u32 + (x == "v_dual_cndmask_b32" || y == "v_dual_cndmask_b32") as u32;
        let mut sgpr: Option<String> = None;
        let mut src0 = |g: &mut Self, v: u32| -> String {
            match g.r.below(10) {
                0 if sgpr.is_some() => sgpr.clone().unwrap(),
                0 if scalars < 2 => {
                    scalars += 1;
                    let s = g.sdata(1);
                    sgpr = Some(s.clone());
                    s
                }
                1 => g.inline(true),
                _ => format!("v{v}"),
            }
        };
        // Registers, until the bank rules hold: vdstX and vdstY of opposite parity; src0,
        // vsrc1 and src2 (the accumulator of fmac / dot2acc, the VGPR after K of fmamk)
        // of X and Y in different banks (register number mod 4; mod 2 for src2).
        let (hx, hy) = loop {
            let regs: Vec<u32> = (0..6).map(|_| self.r.below(VDATA)).collect();
            let (dx, dy) = (regs[0], regs[1]);
            if dx % 2 == dy % 2 {
                continue;
            }
            let a = src0(self, regs[2]);
            let b = src0(self, regs[3]);
            let (x1, y1) = (regs[4], regs[5]);
            // (src0 register, vsrc1, src2) of a half.
            let parts = |op: &str, d: u32, a: &str, s1: u32| -> (Option<u32>, Option<u32>, Option<u32>) {
                let s0 = a.strip_prefix('v').and_then(|n| n.parse().ok());
                match op {
                    "v_dual_mov_b32" => (s0, None, None),
                    "v_dual_fmamk_f32" => (s0, None, Some(s1)),
                    "v_dual_fmac_f32" | "v_dual_dot2acc_f32_f16" => (s0, Some(s1), Some(d)),
                    _ => (s0, Some(s1), None),
                }
            };
            let px = parts(x, dx, &a, x1);
            let py = parts(y, dy, &b, y1);
            let clash = |p: Option<u32>, q: Option<u32>, m: u32| matches!((p, q), (Some(p), Some(q)) if p % m == q % m);
            if clash(px.0, py.0, 4) || clash(px.1, py.1, 4) || clash(px.2, py.2, 2) {
                continue;
            }
            let k = lit.map(|k| format!("{k:#x}")).unwrap_or_default();
            let half = |op: &str, d: u32, a: &str, s1: u32| match op {
                "v_dual_mov_b32" => format!("{op} v{d}, {a}"),
                "v_dual_fmaak_f32" => format!("{op} v{d}, {a}, v{s1}, {k}"),
                "v_dual_fmamk_f32" => format!("{op} v{d}, {a}, {k}, v{s1}"),
                _ => format!("{op} v{d}, {a}, v{s1}"),
            };
            break (half(x, dx, &a, x1), half(y, dy, &b, y1));
        };
        vec![format!("{hx} :: {hy}")]
    }

    /// A random SALU instruction (SOP1, SOP2, SOPC, SOPK).
    pub fn sop(&mut self) -> Vec<String> {
        let info = *self.r.pick(&self.ops.sop);
        self.sop_of(info)
    }

    fn sop_of(&mut self, info: &OpInfo) -> Vec<String> {
        let name = info.name;
        let [d, s0, s1, _] = info.ty;
        let mut lit: Option<u32> = None;
        let mut src = |g: &mut Self, t: Ty| -> String {
            let wide = t == Ty::B64;
            match g.r.below(100) {
                0..=64 => {
                    if wide {
                        g.sreg64()
                    } else {
                        g.sreg32()
                    }
                }
                65..=69 if !wide => "src_scc".into(),
                70..=87 => g.inline_int(),
                88..=91 if !wide => g.inline_float(),
                88..=91 => g.inline64(true),
                _ => {
                    let v = *lit.get_or_insert_with(|| value(&mut g.r));
                    if is_inline(v, Ty::B32) {
                        (v as i32).to_string()
                    } else {
                        format!("{v:#x}")
                    }
                }
            }
        };
        match info.enc {
            Encoding::Sopk => {
                let imm = if self.r.pct(50) { self.r.below(0x10000) } else { *self.r.pick(INTS) & 0xffff };
                if name == "s_version" {
                    return vec![format!("{name} {imm:#x}")];
                }
                let reg = if name.starts_with("s_cmpk") { self.sreg32() } else { self.sdst32() };
                vec![format!("{name} {reg}, {imm:#x}")]
            }
            Encoding::Sopc => {
                let a = src(self, s0);
                let b = src(self, s1);
                vec![format!("{name} {a}, {b}")]
            }
            Encoding::Sop1 => {
                let dst = if d == Ty::B64 { self.sdst64() } else { self.sdst32() };
                let a = if info.flags & F::SREG != 0 {
                    if s0 == Ty::B64 {
                        self.sreg64()
                    } else {
                        self.sreg32()
                    }
                } else {
                    src(self, s0)
                };
                vec![format!("{name} {dst}, {a}")]
            }
            _ => {
                let dst = if d == Ty::B64 { self.sdst64() } else { self.sdst32() };
                let a = src(self, s0);
                let b = src(self, s1);
                vec![format!("{name} {dst}, {a}, {b}")]
            }
        }
    }

    /// Lane and M0-relative operations.
    pub fn lane(&mut self) -> Vec<String> {
        let lanes = if self.wave64 { 64 } else { 32 };
        match self.r.below(12) {
            0 => {
                let sel = if self.r.pct(50) { self.r.below(lanes).to_string() } else { self.sdata(1) };
                vec![format!("v_readlane_b32 {}, {}, {sel}", self.sdst32(), self.vread(1))]
            }
            1 => {
                let sel = if self.r.pct(50) { self.r.below(lanes).to_string() } else { self.sdata(1) };
                let v = if self.r.pct(70) { self.sreg32() } else { self.inline_int() };
                vec![format!("v_writelane_b32 {}, {v}, {sel}", self.vdst(1))]
            }
            2 => vec![format!("v_readfirstlane_b32 {}, {}", self.sdst32(), self.vread(1))],
            3 => vec![format!("v_swap_b32 {}, {}", self.vdst(1), self.vdst(1))],
            4 => vec![format!("v_permlane64_b32 {}, {}", self.vdst(1), self.vread(1))],
            5 => {
                let name = if self.r.pct(50) { "v_permlane16_b32" } else { "v_permlanex16_b32" };
                let a = if self.r.pct(60) { self.sdata(1) } else { format!("{:#x}", self.r.u32()) };
                let b =
                    if self.r.pct(60) || a.starts_with("0x") { self.sdata(1) } else { format!("{:#x}", self.r.u32()) };
                let opsel = match self.r.below(4) {
                    0 => " op_sel:[1,0]",
                    1 => " op_sel:[0,1]",
                    2 => " op_sel:[1,1]",
                    _ => "",
                };
                vec![format!("{name} {}, {}, {a}, {b}{opsel}", self.vdst(1), self.vread(1))]
            }
            6..=8 => {
                // v_movrel*: M0 indexes the VGPRs; the sums stay in the data registers.
                let k = self.r.below(16);
                let name = *self.r.pick(&[
                    "v_movrels_b32",
                    "v_movreld_b32",
                    "v_movrelsd_b32",
                    "v_movrelsd_2_b32",
                    "v_swaprel_b32",
                ]);
                let (d, s) = (self.r.below(VDATA - 16), self.r.below(VDATA - 16));
                let sop = if name == "v_movreld_b32" && self.r.pct(30) { self.sdata(1) } else { format!("v{s}") };
                vec![format!("s_mov_b32 m0, {k}"), format!("{name} v{d}, {sop}")]
            }
            _ => {
                // s_movrel*: M0 indexes the SGPRs (inside the data registers).
                let k = self.r.below(8) * 2;
                let name = *self.r.pick(&[
                    "s_movrels_b32",
                    "s_movrels_b64",
                    "s_movreld_b32",
                    "s_movreld_b64",
                    "s_movrelsd_2_b32",
                ]);
                let wide = name.ends_with("b64");
                let n = if wide { 2 } else { 1 };
                let lo = SDATA.0;
                let hi = SDATA.1 - 16 - n;
                let base = |g: &mut Self| {
                    let b = g.r.range(lo, hi);
                    if wide {
                        b & !1
                    } else {
                        b
                    }
                };
                let (d, s) = (base(self), base(self));
                vec![format!("s_mov_b32 m0, {k}"), format!("{name} {}, {}", sname(d, n), sname(s, n))]
            }
        }
    }

    // ---- memory ----

    /// Address setup: `v56 = v<x> & mask` (an offset into the buffer).
    fn addr(&mut self, mask: u32) -> String {
        let x = self.r.below(VDATA);
        format!("v_and_b32 v{VADDR}, {mask:#x}, v{x}")
    }

    /// Data registers for a memory instruction of `ty`.
    fn mem_data(&mut self, ty: Ty) -> String {
        let n = ty.dwords(self.wave64).max(1);
        self.vread(n)
    }

    /// One global, flat, buffer, DS or scalar memory access group with its waits.
    pub fn memory(&mut self) -> Vec<String> {
        match self.r.below(20) {
            0..=5 => self.global(false),
            6 => self.global(true),
            7..=10 => self.buffer(),
            11..=16 => self.ds(),
            17 => self.ds_special(),
            _ => self.smem(),
        }
    }

    /// An offset (0..=2032, a multiple of 16) and an address mask (below 2 KiB, aligned to 16).
    fn span(&mut self) -> (u32, u32) {
        let off = *self.r.pick(&[0, 0, 0, 16, 32, 256, 1024, 2032]);
        (off, 0x7f0)
    }

    fn wait_for(&mut self, load: bool, lines: &mut Vec<String>, counter: &str) {
        if load {
            lines.push(format!("s_waitcnt {counter}(0)"));
        } else if self.r.pct(20) {
            lines.push("s_waitcnt_vscnt null, 0x0".into());
        }
    }

    fn global(&mut self, flat: bool) -> Vec<String> {
        let info = loop {
            let i = *self.r.pick(&self.ops.global);
            // No flat form: csub, addtid.
            if !flat || !(i.name.contains("csub") || i.name.contains("addtid")) {
                break i;
            }
        };
        let name = info.name;
        if name.contains("addtid") {
            // Lane-indexed: the address is saddr + lane * 4 + offset.
            let off = self.r.below(64) * 16;
            let mut l = vec![];
            if name.contains("load") {
                l.push(format!("{name} {}, s[4:5] offset:{off}", self.vdst(1)));
                l.push("s_waitcnt vmcnt(0)".into());
            } else {
                l.push(format!("{name} {}, s[4:5] offset:{off}", self.vread(1)));
            }
            return l;
        }
        let (off, mask) = self.span();
        let mut lines = vec![self.addr(mask)];
        let (dst, data) = (info.ty[0], info.ty[1]);
        let atomic = info.flags & F::ATOMIC != 0;
        let load = name.contains("load") || (atomic && self.r.pct(60));
        let fname = if flat { name.replacen("global_", "flat_", 1) } else { name.to_string() };
        // (address, "off" or saddr): flat has neither, global takes a 64-bit VGPR address
        // with "off" or a 32-bit offset with saddr.
        let (vaddr, saddr) = if flat || self.r.pct(25) {
            lines.push(format!("v_add_co_u32 v{}, {}, s4, v{VADDR}", VADDR + 2, self.vcc()));
            lines.push(format!("v_add_co_ci_u32_e64 v{}, null, s5, 0, {}", VADDR + 3, self.vcc()));
            (format!("v[{}:{}]", VADDR + 2, VADDR + 3), if flat { "" } else { ", off" })
        } else {
            (format!("v{VADDR}"), ", s[4:5]")
        };
        let tail = format!(" offset:{off}");
        let glc = if load && atomic { " glc" } else { "" };
        let slc = if self.r.pct(10) { " slc" } else { "" };
        let text = if atomic {
            let d = self.mem_data(data);
            if load {
                format!("{fname} {}, {vaddr}, {d}{saddr}{tail}{glc}{slc}", self.vdst(dst.dwords(self.wave64)))
            } else {
                format!("{fname} {vaddr}, {d}{saddr}{tail}{slc}")
            }
        } else if load {
            format!("{fname} {}, {vaddr}{saddr}{tail}{slc}", self.vdst(dst.dwords(self.wave64)))
        } else {
            format!("{fname} {vaddr}, {}{saddr}{tail}{slc}", self.mem_data(dst))
        };
        lines.push(text);
        let counter = if flat { "vmcnt(0) lgkmcnt" } else { "vmcnt" };
        self.wait_for(load, &mut lines, counter);
        lines
    }

    fn buffer(&mut self) -> Vec<String> {
        let info = *self.r.pick(&self.ops.mubuf);
        let name = info.name;
        if name.ends_with("_inv") {
            return vec![name.to_string()];
        }
        let (off, mask) = self.span();
        // s[8:11]: the whole buffer; s[12:15]: its first SHORT_RECORDS bytes, so that some
        // accesses are out of range (loads read 0, stores are dropped).
        let vs = if self.r.pct(30) { "s[12:15]" } else { "s[8:11]" };
        let soff = *self.r.pick(&["0", "0", "s7", "16"]);
        let atomic = info.flags & F::ATOMIC != 0;
        let load = name.contains("load") || (atomic && self.r.pct(60));
        let mut lines = vec![];
        let (vaddr, mode) = if self.r.pct(85) {
            lines.push(self.addr(mask));
            (format!("v{VADDR}"), " offen")
        } else {
            ("off".to_string(), "")
        };
        let (dst, data) = (info.ty[0], info.ty[1]);
        let glc = if atomic && load { " glc" } else { "" };
        let text = if atomic {
            let d = if load { self.vdst(data.dwords(self.wave64)) } else { self.mem_data(data) };
            format!("{name} {d}, {vaddr}, {vs}, {soff}{mode} offset:{off}{glc}")
        } else if load {
            format!("{name} {}, {vaddr}, {vs}, {soff}{mode} offset:{off}", self.vdst(dst.dwords(self.wave64)))
        } else {
            format!("{name} {}, {vaddr}, {vs}, {soff}{mode} offset:{off}", self.mem_data(dst))
        };
        lines.push(text);
        self.wait_for(load, &mut lines, "vmcnt");
        lines
    }

    fn ds(&mut self) -> Vec<String> {
        let info = loop {
            let i = *self.r.pick(&self.ops.ds);
            if !DS_SPECIAL.contains(&i.name) {
                break i;
            }
        };
        let name = info.name;
        if name == "ds_nop" {
            return vec![name.into()];
        }
        let [d, _a, d0, d1] = info.ty;
        let two = name.contains("2addr");
        let mut lines = vec![self.addr(0x7f0)];
        let mut ops = vec![];
        let ret = d != Ty::N;
        if ret {
            ops.push(self.vdst(d.dwords(self.wave64)));
        }
        ops.push(format!("v{VADDR}"));
        if d0 != Ty::N {
            ops.push(self.mem_data(d0));
        }
        if d1 != Ty::N {
            ops.push(self.mem_data(d1));
        }
        let tail = if two {
            let max = if name.contains("stride64") { 3 } else { 255 };
            format!(" offset0:{} offset1:{}", self.r.range(0, max), self.r.range(0, max))
        } else {
            let (off, _) = self.span();
            if off > 0 {
                format!(" offset:{off}")
            } else {
                String::new()
            }
        };
        lines.push(format!("{name} {}{tail}", ops.join(", ")));
        if ret {
            lines.push("s_waitcnt lgkmcnt(0)".into());
        }
        lines
    }

    fn ds_special(&mut self) -> Vec<String> {
        let mut l = vec![];
        match self.r.below(6) {
            0 => {
                let off = self.r.below(0x10000);
                l.push(format!("ds_swizzle_b32 {}, {} offset:{off:#x}", self.vdst(1), self.vread(1)));
            }
            1 | 2 => {
                let name = if self.r.pct(50) { "ds_permute_b32" } else { "ds_bpermute_b32" };
                let off = self.r.below(64) * 4;
                l.push(format!("{name} {}, {}, {} offset:{off}", self.vdst(1), self.vread(1), self.vread(1)));
            }
            3 => {
                let name = if self.r.pct(50) { "ds_append" } else { "ds_consume" };
                l.push(format!("s_mov_b32 m0, {}", self.r.below(512) * 4));
                l.push(format!("{name} {} offset:{}", self.vdst(1), self.r.below(64) * 4));
            }
            _ => {
                l.push(format!("s_mov_b32 m0, {}", self.r.below(256) * 4));
                let off = self.r.below(128) * 4;
                if self.r.pct(50) {
                    l.push(format!("ds_load_addtid_b32 {} offset:{off}", self.vdst(1)));
                } else {
                    l.push(format!("ds_store_addtid_b32 {} offset:{off}", self.vread(1)));
                    return l;
                }
            }
        }
        l.push("s_waitcnt lgkmcnt(0)".into());
        l
    }

    fn smem(&mut self) -> Vec<String> {
        let (n, w) = *self.r.pick(&[(1, "b32"), (2, "b64"), (4, "b128"), (8, "b256"), (16, "b512")]);
        let d = self.sdata(n);
        let off = self.r.below((MEM_BYTES - 64 * 4) / 4) * 4;
        let text = match self.r.below(3) {
            0 => format!("s_buffer_load_{w} {d}, s[8:11], {off:#x}"),
            1 => format!("s_load_{w} {d}, s[4:5], s7 offset:{off:#x}"),
            _ => format!("s_load_{w} {d}, s[4:5], {off:#x}"),
        };
        vec![text, "s_waitcnt lgkmcnt(0)".into()]
    }

    // ---- EXEC ----

    /// Lines that set EXEC to something partial (or everything, or nothing).
    pub fn exec_set(&mut self) -> Vec<String> {
        let (exec, b) = (self.exec(), self.b());
        let m = self.mask_value();
        match self.r.below(9) {
            8 => {
                // EXEC as the destination of an ordinary instruction.
                match self.r.below(3) {
                    0 => {
                        let info = loop {
                            let i = *self.r.pick(&self.ops.vopc);
                            if i.flags & F::CMPX == 0 {
                                break i;
                            }
                        };
                        self.vopc_of(info, Some(exec.to_string()))
                    }
                    1 => vec![format!("v_readfirstlane_b32 exec_lo, {}", self.vread(1))],
                    _ => vec![format!("s_mov_{b} {exec}, {}", if self.wave64 { self.sdata(2) } else { self.sdata(1) })],
                }
            }
            7 if !self.wave64 => {
                // EXEC_HI of a wave32: a register like others (EXEC_LO alone masks lanes).
                if self.r.pct(50) {
                    vec![format!("s_mov_b32 exec_hi, {:#x}", self.r.u32())]
                } else {
                    vec![format!("s_mov_b64 exec, {}", self.sdata(2))]
                }
            }
            0 | 1 | 7 => {
                if self.wave64 {
                    vec![
                        format!("s_mov_b32 exec_lo, {:#x}", m as u32),
                        format!("s_mov_b32 exec_hi, {:#x}", (m >> 32) as u32),
                    ]
                } else {
                    vec![format!("s_mov_b32 exec_lo, {:#x}", m as u32)]
                }
            }
            2 => self.vopc_cmpx(),
            3 => {
                let src = self.mask_src();
                let op =
                    *self.r.pick(&["and", "or", "xor", "andn2", "orn2", "nand", "nor", "xnor", "and_not0", "or_not0"]);
                let op = match op {
                    "andn2" => "and_not1",
                    "orn2" => "or_not1",
                    o => o,
                };
                let dst = self.mask_dst_pool();
                vec![format!("s_{op}_saveexec_{b} {dst}, {src}")]
            }
            4 => {
                let op = *self.r.pick(&["and_not0", "and_not1"]);
                let dst = self.mask_dst_pool();
                let src = self.mask_src();
                vec![format!("s_{op}_wrexec_{b} {dst}, {src}")]
            }
            _ => {
                let src = self.mask_src();
                let op = *self.r.pick(&["and", "or", "xor", "and_not1"]);
                vec![format!("s_{op}_{b} {exec}, {exec}, {src}")]
            }
        }
    }

    fn mask_dst_pool(&mut self) -> String {
        self.sdata(if self.wave64 { 2 } else { 1 })
    }

    /// A lane mask: all, none, one lane, halves, patterns, random.
    fn mask_value(&mut self) -> u64 {
        let full = if self.wave64 { u64::MAX } else { 0xffff_ffff };
        let m = match self.r.below(14) {
            0 => 0,
            1 | 12 | 13 => full,
            2 => 1 << self.r.below(if self.wave64 { 64 } else { 32 }),
            3 => 0x5555_5555_5555_5555,
            4 => 0xffff_0000_ffff_0000,
            5 => 0x0000_0000_ffff_ffff,
            6 => 0xffff_ffff_0000_0000,
            7 => full ^ (1 << self.r.below(32)),
            _ => self.r.u64(),
        };
        m & full
    }

    fn vopc_cmpx(&mut self) -> Vec<String> {
        let info = loop {
            let i = *self.r.pick(&self.ops.vopc);
            if i.flags & F::CMPX != 0 {
                break i;
            }
        };
        self.vopc_of(info, None)
    }

    // ---- mode ----

    /// A MODE change and back (the translated code leaves for the interpreter while the
    /// float mode is not the default, and for the checking loop while MODE enables float
    /// exceptions or TRAP_AFTER_INST, which without a trap handler are only recorded), or
    /// a MODE read.
    pub fn mode(&mut self) -> Vec<Item> {
        if self.r.pct(25) {
            return vec![Item::Code(vec![format!("s_getreg_b32 {}, hwreg(HW_REG_MODE, 0, 10)", self.sdata(1))])];
        }
        // MODE is saved in s96 (no random instruction writes it) and restored after.
        let mut items = vec![Item::Code(vec![format!("s_getreg_b32 s{SMODE}, hwreg(HW_REG_MODE)")])];
        let set = match self.r.below(6) {
            0 => format!("s_round_mode {:#x}", self.r.below(16)),
            1 => format!("s_denorm_mode {:#x}", self.r.below(16)),
            2 => format!("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 0, 8), {:#x}", self.r.below(256)),
            // DX10_CLAMP and IEEE.
            3 => format!("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 8, 2), {:#x}", self.r.below(4)),
            // Float exception enables (invalid, denormal, divide by zero, overflow,
            // underflow, inexact).
            4 => format!("s_setreg_imm32_b32 hwreg(HW_REG_MODE, 12, 6), {:#x}", self.r.range(1, 63)),
            // TRAP_AFTER_INST_EN.
            _ => "s_setreg_imm32_b32 hwreg(HW_REG_MODE, 11, 1), 1".to_string(),
        };
        items.push(Item::Code(vec![set]));
        for _ in 0..self.r.range(1, 4) {
            // v_dot2acc_f32_f16 runs only in the default float mode.
            let v = loop {
                let v = self.vop();
                if !v[0].starts_with("v_dot2acc") {
                    break v;
                }
            };
            items.push(Item::Code(v));
        }
        items.push(Item::Code(vec![format!("s_setreg_b32 hwreg(HW_REG_MODE), s{SMODE}")]));
        items
    }

    /// Instructions with no effect on the state compared (scheduling hints, waits).
    fn misc(&mut self) -> Vec<String> {
        let t = match self.r.below(14) {
            0 => format!("s_nop {}", self.r.below(8)),
            1 => "s_delay_alu instid0(VALU_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_1)".into(),
            2 => format!("s_sleep {}", self.r.below(2)),
            3 => format!("s_setprio {}", self.r.below(4)),
            4 => "s_barrier".into(),
            5 => format!(
                "s_waitcnt vmcnt({}) expcnt({}) lgkmcnt({})",
                self.r.below(64),
                self.r.below(8),
                self.r.below(64)
            ),
            6 => format!("s_waitcnt {:#x}", self.r.below(0x10000)),
            7 => {
                let name =
                    *self.r.pick(&["s_waitcnt_vmcnt", "s_waitcnt_vscnt", "s_waitcnt_lgkmcnt", "s_waitcnt_expcnt"]);
                // LLVM 19 takes only null as the register (the SGPR form is the count's
                // register operand, which it does not assemble).
                format!("{name} null, {:#x}", self.r.below(64))
            }
            8 => {
                // Hardware registers whose contents do not depend on timing (not TRAPSTS:
                // reading it keeps a program in the checking loop; that is rare).
                let reg = if self.r.pct(5) {
                    "HW_REG_TRAPSTS"
                } else {
                    *self.r.pick(&[
                        "HW_REG_MODE",
                        "HW_REG_STATUS",
                        "HW_REG_GPR_ALLOC",
                        "HW_REG_LDS_ALLOC",
                        "HW_REG_IB_STS",
                        "HW_REG_HW_ID1",
                        "HW_REG_HW_ID2",
                        "HW_REG_SH_MEM_BASES",
                    ])
                };
                format!("s_getreg_b32 {}, hwreg({reg})", self.sdata(1))
            }
            9 => "s_icache_inv".into(),
            10 => "s_dcache_inv".into(),
            11 => "s_gl1_inv".into(),
            12 => format!("s_clause {:#x}", self.r.below(4)),
            _ => "v_nop".into(),
        };
        vec![t]
    }

    // ---- structure ----

    /// A block of items at `depth`.
    pub fn block(&mut self, depth: usize, n: usize) -> Vec<Item> {
        let mut items = vec![];
        for _ in 0..n {
            if self.emitted >= self.budget {
                break;
            }
            let it = self.item(depth);
            // Control items count their own lines; their blocks counted themselves.
            self.emitted += it
                .iter()
                .map(|i| match i {
                    Item::Code(l) => l.len(),
                    _ => 4,
                })
                .sum::<usize>();
            items.extend(it);
        }
        items
    }

    /// The SCC- or VCC-setting instruction before a uniform branch.
    fn cond_setup(&mut self) -> (Vec<String>, &'static str) {
        let cond = if self.r.pct(3) {
            *self.r.pick(&["cdbgsys", "cdbguser", "cdbgsys_or_user", "cdbgsys_and_user"])
        } else {
            *self.r.pick(&["scc0", "scc1", "vccz", "vccnz", "execz", "execnz"])
        };
        let setup = match cond {
            "scc0" | "scc1" => {
                // A compare or any SALU instruction (most set SCC).
                let info = loop {
                    let i = *self.r.pick(&self.ops.sop);
                    if i.enc == Encoding::Sopc || self.r.pct(30) {
                        break i;
                    }
                };
                self.sop_of(info)
            }
            "vccz" | "vccnz" => {
                let info = loop {
                    let i = *self.r.pick(&self.ops.vopc);
                    if i.flags & F::CMPX == 0 {
                        break i;
                    }
                };
                let vcc = self.vcc().to_string();
                self.vopc_of(info, Some(vcc))
            }
            _ => vec![],
        };
        (setup, cond)
    }

    fn item(&mut self, depth: usize) -> Vec<Item> {
        loop {
            let it = self.item_any(depth);
            let known = it.iter().any(known_divergence);
            if !known {
                return it;
            }
        }
    }

    fn item_any(&mut self, depth: usize) -> Vec<Item> {
        let deeper = depth < MAX_DEPTH;
        let roll = self.r.below(1000);
        let code = |v: Vec<String>| vec![Item::Code(v)];
        match roll {
            0..=159 => code(self.sop()),
            160..=459 => code(self.vop()),
            460..=529 => code(self.vopc(depth == 0)),
            530..=569 => code(self.vop3p()),
            570..=589 => code(self.fmak()),
            590..=619 if !self.wave64 => code(self.vopd()),
            590..=619 => code(self.vop()),
            620..=659 => code(self.lane()),
            660..=759 => code(self.memory()),
            760..=769 => code(self.misc()),
            770..=779 => self.mode(),
            780..=809 if depth == 0 => code(self.exec_set()),
            780..=809 if deeper => {
                let set = self.exec_set_scoped();
                let n = self.r.range(1, 5) as usize;
                let body = self.block(depth + 1, n);
                vec![Item::ExecScope { depth, set, body }]
            }
            810..=859 => {
                let (setup, cond) = self.cond_setup();
                let n = self.r.range(1, 5) as usize;
                if self.r.pct(30) {
                    let then = self.block(depth, n);
                    let els = self.block(depth, n);
                    vec![Item::IfElse { setup, cond, then, els }]
                } else {
                    let body = self.block(depth, n);
                    vec![Item::If { setup, cond, body }]
                }
            }
            860..=909 if deeper => {
                let count = if self.r.pct(3) { self.r.range(1025, 1500) } else { self.r.range(1, 5) };
                let n = if count > 5 { self.r.range(1, 2) } else { self.r.range(1, 6) } as usize;
                let body = self.block(depth + 1, n);
                vec![Item::Loop { depth, count, shape: self.r.below(4), body }]
            }
            910..=949 if deeper => {
                let src = self.r.below(VDATA);
                let n = self.r.range(1, 6) as usize;
                let body = self.block(depth + 1, n);
                vec![Item::DivLoop { depth, src, shape: self.r.below(2), body }]
            }
            950..=989 if deeper => {
                let (cond, mask) = if self.r.pct(60) {
                    let vcc = self.vcc().to_string();
                    let info = loop {
                        let i = *self.r.pick(&self.ops.vopc);
                        if i.flags & F::CMPX == 0 {
                            break i;
                        }
                    };
                    (self.vopc_of(info, Some(vcc.clone())), vcc)
                } else {
                    let m = self.mask_dst_pool();
                    let info = loop {
                        let i = *self.r.pick(&self.ops.vopc);
                        if i.flags & F::CMPX == 0 {
                            break i;
                        }
                    };
                    (self.vopc_of(info, Some(m.clone())), m)
                };
                let n = self.r.range(1, 5) as usize;
                let then = self.block(depth + 1, n);
                let els = if self.r.pct(40) { Some(self.block(depth + 1, n)) } else { None };
                vec![Item::DivIf { depth, cond, mask, then, els }]
            }
            990..=996 if depth == 0 && !self.in_call => {
                self.in_call = true;
                let n = self.r.range(1, 5) as usize;
                let body = self.block(1, n);
                self.in_call = false;
                vec![Item::Call { times: self.r.range(1, 2), swap: self.r.pct(40), body }]
            }
            997..=999 => {
                let n = self.r.range(1, 3) as usize;
                let body = self.block(depth, n);
                vec![Item::Jump { guard: false, body }]
            }
            _ => code(self.vop()),
        }
    }

    /// An EXEC change inside a scope (EXEC is restored after it): never a saveexec into
    /// the saved mask.
    fn exec_set_scoped(&mut self) -> Vec<String> {
        self.exec_set()
    }

    /// A whole program body of about `budget` instructions.
    pub fn program(&mut self, budget: usize) -> Vec<Item> {
        self.budget = budget;
        self.emitted = 0;
        let mut items = vec![];
        while self.emitted < budget {
            let mut b = self.block(0, 8);
            if b.is_empty() {
                break;
            }
            items.append(&mut b);
        }
        items
    }

    /// A VM fault: an access outside every mapping (after the program body), by a global,
    /// flat, buffer or scalar instruction, in the lanes of EXEC.
    pub fn fault(&mut self) -> Vec<String> {
        // One in four: another kind of device-lost report (illegal instruction, MEMVIOL).
        if self.r.pct(25) {
            return match self.r.below(3) {
                0 => vec!["s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)".into(), format!("v_mov_b32 {}, 0", self.vdst(1))],
                1 => vec!["v_illegal".into()],
                _ => {
                    // A misaligned atomic (MEMVIOL whatever the alignment mode).
                    let (name, n) = *self.r.pick(&[("global_atomic_add_u32", 1), ("global_atomic_swap_b64", 2)]);
                    vec![
                        format!("v_and_b32 v{VADDR}, 0x7f0, v{}", self.r.below(VDATA)),
                        format!("v_or_b32 v{VADDR}, {}, v{VADDR}", self.r.range(1, 3)),
                        format!("{name} v{VADDR}, {}, s[4:5]", self.vread(n)),
                        "s_waitcnt_vscnt null, 0x0".into(),
                    ]
                }
            };
        }
        let vcc = self.vcc();
        // Far above the data buffer: nothing is mapped there.
        let hi = *self.r.pick(&[0x7000u32, 0x4000, 0x10_0000]);
        let mut l = vec![
            format!("s_add_u32 s{}, s4, {:#x}", SRET, self.r.below(0x1000) * 16),
            format!("s_addc_u32 s{}, s5, {hi:#x}", SRET + 1),
        ];
        match self.r.below(5) {
            0 => l.push(format!("global_load_b32 {}, v{VADDR}, s[{}:{}]", self.vdst(1), SRET, SRET + 1)),
            1 => l.push(format!("global_store_b64 v{VADDR}, {}, s[{}:{}] offset:8", self.vread(2), SRET, SRET + 1)),
            2 => {
                l.push(format!("v_add_co_u32 v{}, {vcc}, s{}, v{VADDR}", VADDR + 2, SRET));
                l.push(format!("v_add_co_ci_u32_e64 v{}, null, s{}, 0, {vcc}", VADDR + 3, SRET + 1));
                l.push(format!(
                    "flat_atomic_add_u32 {}, v[{}:{}], {} glc",
                    self.vdst(1),
                    VADDR + 2,
                    VADDR + 3,
                    self.vread(1)
                ));
            }
            3 => l.push(format!("s_load_b64 {}, s[{}:{}], 0x0", self.sdata(2), SRET, SRET + 1)),
            _ => {
                // A V# whose base is unmapped and whose range covers the access.
                l[1] = format!("s_addc_u32 s{}, s5, 0x7000", SRET + 1);
                l.push(format!("s_mov_b32 s{}, s{}", SRET + 2, 10));
                l.push(format!("s_mov_b32 s{}, s{}", SRET + 3, 11));
                l.push(format!("buffer_load_b32 {}, v{VADDR}, s[{}:{}], 0 offen", self.vdst(1), SRET, SRET + 3));
            }
        }
        l.insert(0, self.addr(0x7f0));
        l.push("s_waitcnt vmcnt(0) lgkmcnt(0)".into());
        l
    }
}

fn vname(base: u32, n: u32) -> String {
    if n <= 1 {
        format!("v{base}")
    } else {
        format!("v[{}:{}]", base, base + n - 1)
    }
}

fn sname(base: u32, n: u32) -> String {
    if n <= 1 {
        format!("s{base}")
    } else {
        format!("s[{}:{}]", base, base + n - 1)
    }
}

/// Whether `v` is an inline constant for an operand of type `ty` (so a literal of that
/// value would not be a literal).
fn is_inline(v: u32, ty: Ty) -> bool {
    let int = (v as i32) >= -16 && (v as i32) <= 64;
    let f32s = [
        0x3f00_0000,
        0xbf00_0000,
        0x3f80_0000,
        0xbf80_0000,
        0x4000_0000,
        0xc000_0000,
        0x4080_0000,
        0xc080_0000,
        0x3e22_f983,
    ];
    let f16s = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
    match ty {
        Ty::F16 | Ty::B16 | Ty::BF16 => int || f16s.contains(&v),
        _ => int || f32s.contains(&v),
    }
}

/// The VALU form suffix LLVM prints.
fn suffix(form: u32, vop3_only: bool) -> &'static str {
    match (form, vop3_only) {
        (0, _) => "_e32",
        (1, true) => "",
        (1, false) => "_e64",
        (2 | 3, _) => "_dpp",
        (_, true) => "_e64_dpp",
        _ => "_e64_dpp",
    }
}

/// Whether a source of type `t` of opcode `name` takes neg/abs.
fn float_src(t: Ty, name: &str, k: usize) -> bool {
    if NO_MODS.contains(&name) || INT_SRCS.iter().any(|(n, ks)| *n == name && ks.contains(&k)) {
        return false;
    }
    matches!(t, Ty::F16 | Ty::F32 | Ty::F64) || FLOAT_BITS_MODS.contains(&name)
}

/// Opcodes without DPP forms.
const NO_DPP: &[&str] = &["v_readfirstlane_b32", "v_nop", "v_pipeflush", "v_fmac_dx9_zero_f32"];
/// Opcodes without VOP3 DPP forms.
const NO_VOP3_DPP: &[&str] = &[
    "v_mul_lo_u32",
    "v_mul_hi_u32",
    "v_mul_hi_i32",
    "v_div_fixup_f32",
    "v_div_fmas_f32",
    "v_div_scale_f32",
    "v_fma_dx9_zero_f32",
    "v_fmac_dx9_zero_f32",
];
/// Opcodes whose VOP3 form reads one scalar value at most (the 64-bit shifts; v_div_fmas
/// reads VCC besides).
const ONE_SCALAR: &[&str] = &["v_lshlrev_b64", "v_lshrrev_b64", "v_ashrrev_i64", "v_div_fmas_f32", "v_div_fmas_f64"];
/// Opcodes whose literal must be a 16-bit value (a 16-bit source shares it).
const LIT16: &[&str] = &["v_dot2_f16_f16", "v_dot2_bf16_bf16"];
/// Float-typed opcodes whose sources take no neg/abs.
const NO_MODS: &[&str] = &[
    "v_cvt_f32_ubyte0",
    "v_cvt_f32_ubyte1",
    "v_cvt_f32_ubyte2",
    "v_cvt_f32_ubyte3",
    "v_dot2_f16_f16",
    "v_dot2_bf16_bf16",
];
/// Sources that are integers in float opcodes (no neg/abs).
const INT_SRCS: &[(&str, &[usize])] =
    &[("v_ldexp_f64", &[1]), ("v_ldexp_f16", &[1]), ("v_trig_preop_f64", &[1]), ("v_cvt_pk_u8_f32", &[1, 2])];
/// Integer opcodes whose VOP3 form takes clamp.
const CLAMP_INT: &[&str] = &["v_add_nc_u32", "v_sub_nc_u32", "v_subrev_nc_u32"];
/// Float opcodes whose VOP3 form takes no clamp.
const NO_CLAMP: &[&str] = &["v_dot2_f16_f16", "v_dot2_bf16_bf16"];
/// Float opcodes whose VOP3 form takes no output modifier.
const NO_OMOD: &[&str] = &["v_dot2_f16_f16", "v_dot2_bf16_bf16"];
/// Opcodes with typed-integer sources that take neg/abs anyway (bitwise).
const FLOAT_BITS_MODS: &[&str] = &[];
/// The VOP3-only 16-bit opcodes whose op_sel LLVM 19 (fake16 syntax) accepts.
const OPSEL16: &[&str] = &[
    "v_mad_u16",
    "v_fma_f16",
    "v_min3_f16",
    "v_min3_i16",
    "v_min3_u16",
    "v_max3_f16",
    "v_max3_i16",
    "v_max3_u16",
    "v_med3_f16",
    "v_med3_i16",
    "v_med3_u16",
    "v_mad_i16",
    "v_div_fixup_f16",
    "v_mad_u32_u16",
    "v_mad_i32_i16",
    "v_add_nc_u16",
    "v_sub_nc_u16",
    "v_add_nc_i16",
    "v_sub_nc_i16",
    "v_pack_b32_f16",
    "v_cvt_pk_norm_i16_f16",
    "v_cvt_pk_norm_u16_f16",
];
/// VOP3P opcodes without clamp.
const PK_NO_CLAMP: &[&str] = &[];
/// DS opcodes made by `ds_special`.
const DS_SPECIAL: &[&str] = &[
    "ds_swizzle_b32",
    "ds_permute_b32",
    "ds_bpermute_b32",
    "ds_append",
    "ds_consume",
    "ds_load_addtid_b32",
    "ds_store_addtid_b32",
];
