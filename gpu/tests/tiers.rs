//! The two execution tiers against each other: random RDNA3 programs (tiers/gen.rs) run
//! on a device that interprets (`JitMode::Off`) and one that translates (`JitMode::On`),
//! with the same inputs; every VGPR v0..v63 of every lane, the SGPRs s16..s93 (with EXEC,
//! VCC, SCC and M0), the data buffer, the LDS and the executed instruction count must be
//! equal, and so must the device-lost report of a program that faults (one in eight ends
//! with a VM fault, a misaligned atomic, an illegal instruction or VGPRs used after their
//! release). A failed translation is a finding too.
//!
//! `cargo test --release -p softnavi-gpu --test tiers` runs a fixed set of seeds.
//! `SOFTNAVI_TIERS_SECONDS=600` runs random seeds for that long instead (from
//! `SOFTNAVI_TIERS_BASE`, default the clock; with `--nocapture` it prints the programs and
//! instructions compared per second every 30 s); `SOFTNAVI_TIERS_SEED=N` runs one seed
//! and prints its program. A divergence prints the seed, the program shrunk to the items
//! that still diverge, its first differences and the inputs of the registers it names.
//!
//! Known divergences (gen.rs, `KNOWN_DIVERGENCES`) are not generated unless
//! `SOFTNAVI_TIERS_KNOWN=1`; each has an ignored reproducer here (`divergence_*`), to be
//! enabled once fixed. Programs both tiers stop with the same "not executed" / "not
//! supported" report are skipped and counted by message (the generator avoids the forms
//! softnavi leaves out); `SOFTNAVI_TIERS_SHOW_LOST=1` prints the reports of programs
//! outside the fault set that lost the device. Ignored tools: `generator_assembles` (what
//! llvm-mc-19 rejects), `sweep_every_alu_opcode`, `explore_f32_*`.

mod common;
#[path = "tiers/gen.rs"]
mod gen;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{addr, read_words, write_words, Dispatch, RSRC1_ALL_VGPRS, S_CODE_END, W32, W64};
use gen::{Gen, Item, Ops, Render, Rng, LDS_BYTES, MEM_BYTES, SHORT_RECORDS};
use gpu::jit::JitMode;
use gpu::mem::Bo;
use gpu::rsrc::BufferResource;
use gpu::{Config, Device, Ib, Queue};

/// SGPRs the epilogue dumps: s16..s93 (s88..s93 hold EXEC, VCC, SCC and M0).
const DUMP_SGPRS: std::ops::Range<u32> = 16..94;

// ---- one program ----

/// A generated program with its inputs.
#[derive(Clone)]
struct Case {
    seed: u64,
    wave64: bool,
    /// Ends with an access outside every mapping.
    fault: Option<Vec<String>>,
    items: Vec<Item>,
    /// Initial s16..s79.
    sgpr: Vec<u32>,
    /// Initial v0..v63, lane-major (64 per lane).
    vgpr: Vec<u32>,
    mem: Vec<u32>,
    m0: u32,
    vcc: u64,
    scc: bool,
    /// Work-items of the workgroup (a partial wave starts with the lanes that exist).
    threads: u32,
    /// COMPUTE_PGM_RSRC1.FLOAT_MODE: LLVM's 0xf0 (denormals kept), or for one seed in four
    /// RADV's 0xc0 (f32 denormals flushed, which translated code computes with the host's
    /// DAZ and FTZ).
    float_mode: u32,
}

impl Case {
    fn lanes(&self) -> usize {
        if self.wave64 {
            64
        } else {
            32
        }
    }

    fn new(seed: u64, fault: bool, ops: &Ops) -> Case {
        let mut r = Rng::new(seed ^ 0x5eed_da7a);
        let wave64 = r.pct(35);
        let mut case = Case::inputs(seed, wave64, &mut r);
        let mut g = Gen::new(seed, wave64, ops);
        // Now and then a long program (more live values for the translator's code).
        let budget = if g.r.pct(4) { g.r.range(300, 600) } else { g.r.range(20, 160) } as usize;
        case.items = g.program(budget);
        case.fault = fault.then(|| g.fault());
        case.float_mode = if seed % 4 == 3 { 0xc0 } else { 0xf0 };
        case
    }

    /// A program without items: the random inputs of `seed`.
    fn inputs(seed: u64, wave64: bool, r: &mut Rng) -> Case {
        let lanes = if wave64 { 64 } else { 32 };
        let sgpr = (0..64).map(|_| gen::value(r)).collect();
        // Per register: the same value in every lane, a value per lane, or f64 pairs.
        let mut vgpr = vec![0u32; lanes * 64];
        let mut reg = 0;
        while reg < 64 {
            match r.below(10) {
                0..=1 => {
                    let v = gen::value(r);
                    (0..lanes).for_each(|l| vgpr[l * 64 + reg] = v);
                    reg += 1;
                }
                2 if reg < 63 => {
                    for l in 0..lanes {
                        let (h, lo) = *r.pick(gen::F64S);
                        vgpr[l * 64 + reg] = lo;
                        vgpr[l * 64 + reg + 1] = h;
                    }
                    reg += 2;
                }
                _ => {
                    (0..lanes).for_each(|l| vgpr[l * 64 + reg] = gen::value(r));
                    reg += 1;
                }
            }
        }
        let mem = (0..MEM_BYTES / 4).map(|_| gen::value(r)).collect();
        let (m0, vcc, scc) = (r.u32(), r.u64(), r.pct(50));
        let threads = if r.pct(85) { lanes as u32 } else { r.range(1, lanes as u32 - 1) };
        Case { seed, wave64, fault: None, items: vec![], sgpr, vgpr, mem, m0, vcc, scc, threads, float_mode: 0xf0 }
    }

    /// The body's assembly (without prologue and epilogue), labels prefixed `pfx`.
    fn body(&self, pfx: &str) -> Vec<String> {
        let mut r = Render { wave64: self.wave64, pfx, labels: 0, out: vec![] };
        r.items(&self.items);
        if let Some(f) = &self.fault {
            r.out.extend(f.iter().cloned());
        }
        r.out
    }

    /// The whole program: prologue, body, epilogue.
    fn source(&self, pfx: &str) -> String {
        let lanes = self.lanes();
        let mut s = String::new();
        let mut l = |x: String| {
            if !x.ends_with(':') {
                s.push_str("  ");
            }
            s.push_str(&x);
            s.push('\n');
        };
        // Prologue: lane id, inputs, LDS contents, M0, VCC, SCC, with every lane on (the
        // EXEC of the launch is restored before the body).
        if self.wave64 {
            l("s_mov_b64 s[94:95], exec".into());
            l("s_mov_b64 exec, -1".into());
            l("v_mbcnt_lo_u32_b32 v64, -1, 0".into());
            l("v_mbcnt_hi_u32_b32 v64, -1, v64".into());
        } else {
            l("s_mov_b32 s94, exec_lo".into());
            l("s_mov_b32 exec_lo, -1".into());
            l("v_mbcnt_lo_u32_b32 v64, -1, 0".into());
        }
        l("v_lshlrev_b32 v65, 8, v64".into());
        l("v_add_nc_u32 v66, 0x100, v65".into());
        for k in 0..4 {
            l(format!("s_load_b512 s[{}:{}], s[0:1], {:#x}", 16 + 16 * k, 31 + 16 * k, 64 * k));
        }
        for k in 0..16 {
            l(format!("global_load_b128 v[{}:{}], v66, s[0:1] offset:{}", 4 * k, 4 * k + 3, 16 * k));
        }
        l("s_waitcnt vmcnt(0) lgkmcnt(0)".into());
        l("v_lshlrev_b32 v67, 4, v64".into());
        for k in 0..LDS_BYTES as usize / (lanes * 16) {
            l(format!("ds_store_b128 v67, v[{}:{}] offset:{}", 4 * k, 4 * k + 3, k * lanes * 16));
        }
        l("s_waitcnt lgkmcnt(0)".into());
        l(format!("s_mov_b32 m0, {:#x}", self.m0));
        l(format!("s_mov_b32 vcc_lo, {:#x}", self.vcc as u32));
        l(format!("s_mov_b32 vcc_hi, {:#x}", (self.vcc >> 32) as u32));
        l(if self.wave64 { "s_mov_b64 exec, s[94:95]" } else { "s_mov_b32 exec_lo, s94" }.into());
        l(format!("s_cmp_eq_u32 0, {}", self.scc as u32 ^ 1));
        for line in self.body(pfx) {
            l(line);
        }
        // Epilogue: the scalar state, then everything to the output buffer.
        l("s_mov_b32 s88, exec_lo".into());
        l("s_mov_b32 s89, exec_hi".into());
        l("s_mov_b32 s90, vcc_lo".into());
        l("s_mov_b32 s91, vcc_hi".into());
        l("s_cselect_b32 s92, 1, 0".into());
        l("s_mov_b32 s93, m0".into());
        if self.wave64 {
            l("s_mov_b64 exec, -1".into());
        } else {
            l("s_mov_b32 exec_lo, -1".into());
        }
        l("s_waitcnt vmcnt(0) lgkmcnt(0)".into());
        l("s_waitcnt_vscnt null, 0x0".into());
        for k in 0..16 {
            l(format!("global_store_b128 v65, v[{}:{}], s[2:3] offset:{}", 4 * k, 4 * k + 3, 16 * k));
        }
        for (i, sg) in DUMP_SGPRS.enumerate() {
            l(format!("v_writelane_b32 v{}, s{sg}, {}", 70 + i / lanes, i % lanes));
        }
        l("v_lshlrev_b32 v66, 2, v64".into());
        l(format!("v_add_nc_u32 v66, {:#x}, v66", lanes * 256));
        let sregs = DUMP_SGPRS.len().div_ceil(lanes);
        for k in 0..sregs {
            l(format!("global_store_b32 v66, v{}, s[2:3] offset:{}", 70 + k, k * lanes * 4));
        }
        l(format!("v_add_nc_u32 v68, {:#x}, v67", lanes * 256 + 512));
        for k in 0..LDS_BYTES as usize / (lanes * 16) {
            l(format!("ds_load_b128 v[76:79], v67 offset:{}", k * lanes * 16));
            l("s_waitcnt lgkmcnt(0)".into());
            l(format!("global_store_b128 v68, v[76:79], s[2:3] offset:{}", k * lanes * 16));
        }
        l("s_endpgm".into());
        s
    }

    /// Instructions of the body.
    fn size(&self) -> usize {
        self.items.iter().map(Item::size).sum::<usize>() + self.fault.as_ref().map_or(0, |f| f.len())
    }
}

// ---- assembling many programs at once ----

/// Assembles `cases` (all of one wave size) with one llvm-mc-19 call; returns each one's
/// machine words, or the assembler's errors by case index with the offending lines.
fn assemble(cases: &[&Case]) -> Result<Vec<Vec<u32>>, BTreeMap<usize, Vec<String>>> {
    let wave64 = cases[0].wave64;
    assert!(cases.iter().all(|c| c.wave64 == wave64));
    let mut src = String::from(".text\n");
    let mut starts = vec![]; // (first source line, case)
    for (i, c) in cases.iter().enumerate() {
        src.push_str(".p2align 8\n");
        starts.push(src.lines().count() + 1);
        let _ = writeln!(src, "tiers_p{i}:");
        src.push_str(&c.source(&format!("p{i}")));
    }
    let dir = common::scratch_dir("tiers");
    let (s, o) = (dir.join("t.s"), dir.join("t.o"));
    std::fs::write(&s, &src).unwrap();
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args(["-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj"]);
    if wave64 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    let out = cmd.arg("-o").arg(&o).arg(&s).output().expect("cannot run llvm-mc-19");
    let stderr = String::from_utf8_lossy(&out.stderr);
    if !out.status.success() || stderr.contains("error") {
        let lines: Vec<&str> = src.lines().collect();
        let mut errs: BTreeMap<usize, Vec<String>> = BTreeMap::new();
        for e in stderr.lines().filter(|l| l.contains(": error: ")) {
            let n: usize = e.split(':').nth(1).and_then(|x| x.parse().ok()).unwrap_or(0);
            let case = starts.iter().rposition(|&st| st <= n).unwrap_or(0);
            let msg = e.split(": error: ").nth(1).unwrap_or(e);
            errs.entry(case)
                .or_default()
                .push(format!("{} ({msg})", lines.get(n.wrapping_sub(1)).unwrap_or(&"?").trim()));
        }
        if errs.is_empty() {
            errs.insert(0, vec![stderr.to_string()]);
        }
        let _ = std::fs::remove_dir_all(&dir);
        return Err(errs);
    }
    let bytes = std::fs::read(&o).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    let words = split_object(&bytes, cases.len());
    Ok(words)
}

/// The code of each `tiers_pN` symbol of an object file.
fn split_object(bytes: &[u8], n: usize) -> Vec<Vec<u32>> {
    use object::{Object, ObjectSection, ObjectSymbol};
    let obj = object::File::parse(bytes).expect("llvm-mc wrote no ELF");
    let text = obj.section_by_name(".text").expect("no .text");
    let data = text.data().unwrap();
    let mut starts = vec![usize::MAX; n];
    for sym in obj.symbols() {
        if let Some(i) = sym.name().ok().and_then(|s| s.strip_prefix("tiers_p")).and_then(|s| s.parse::<usize>().ok()) {
            starts[i] = sym.address() as usize;
        }
    }
    (0..n)
        .map(|i| {
            let end = if i + 1 < n { starts[i + 1] } else { data.len() };
            data[starts[i]..end].chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
        })
        .collect()
}

// ---- running a program on one tier ----

/// A device of one tier.
struct Tier {
    mode: JitMode,
    dev: Device,
    queue: Queue,
    /// Compile time of this tier's devices, and what the current device had reported.
    compile: Duration,
    compile_seen: Duration,
    /// Translation failures the current device had reported.
    failures_seen: u64,
}

/// What a program left behind.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Outcome {
    Done {
        /// VGPRs (lane-major), then the SGPR block, then the LDS.
        dump: Vec<u32>,
        mem: Vec<u32>,
        executed: u64,
        translated: u64,
    },
    /// The device-lost report.
    Lost { kind: gpu::ReportKind, text: String },
    /// The translation tier failed to compile the program (it ran in the interpreter).
    Untranslated,
}

impl Tier {
    fn new(mode: JitMode) -> Tier {
        let dev = Device::new(Config {
            threads: 1,
            hang_timeout: Duration::from_secs(10),
            memory_size: 64 << 20,
            check: false,
            jit: mode,
            ..Config::default()
        })
        .unwrap();
        let queue = dev.create_queue().unwrap();
        Tier { mode, dev, queue, compile: Duration::ZERO, compile_seen: Duration::ZERO, failures_seen: 0 }
    }

    /// A fresh device of the same tier.
    fn renew(&mut self) {
        let compile = self.compile;
        *self = Tier::new(self.mode);
        self.compile = compile;
    }

    fn alloc(&self, words: &[u32]) -> Arc<Bo> {
        let bo = self.dev.alloc(4 * words.len().max(1) as u64, 256).unwrap();
        write_words(&bo, 0, words);
        bo
    }

    fn run(&mut self, case: &Case, code: &[u32]) -> Outcome {
        let lanes = case.lanes();
        let mut words = code.to_vec();
        words.extend(std::iter::repeat_n(S_CODE_END, 64));
        let code_bo = self.alloc(&words);
        let mut input = case.sgpr.clone();
        input.resize(64, 0);
        input.extend(&case.vgpr);
        let in_bo = self.alloc(&input);
        let out_len = lanes * 64 + 128 + LDS_BYTES as usize / 4;
        let out_bo = self.alloc(&vec![0xdead_beef; out_len]);
        let data_bo = self.alloc(&case.mem);
        let mut user = addr(in_bo.va()).to_vec();
        user.extend(addr(out_bo.va()));
        user.extend(addr(data_bo.va()));
        user.extend([MEM_BYTES, 0]);
        user.extend(BufferResource::raw(data_bo.va(), MEM_BYTES).encode());
        user.extend(BufferResource::raw(data_bo.va(), SHORT_RECORDS).encode());
        let mut d = Dispatch::new(&code_bo, &user, [false; 3], [case.threads, 1, 1]).lds(LDS_BYTES);
        d.rsrc1 = RSRC1_ALL_VGPRS & !(0xff << 12) | case.float_mode << 12;
        let ib_words = d.ib([1, 1, 1], if case.wave64 { W64 } else { W32 });
        let ib_bo = self.alloc(&ib_words);
        let ib = Ib { va: ib_bo.va(), dwords: ib_words.len() as u32 };
        let seq = self.queue.submit(&[ib]).unwrap_or_else(|e| panic!("submit failed: {e}"));
        let outcome = match self.queue.wait(seq, Duration::from_secs(60)) {
            Ok(true) => {
                let rec = self.dev.stats().recent.back().cloned().expect("no dispatch record");
                Outcome::Done {
                    dump: read_words(&out_bo, 0, out_len),
                    mem: read_words(&data_bo, 0, case.mem.len()),
                    executed: rec.wave_instructions,
                    translated: rec.translated_instructions,
                }
            }
            Ok(false) => panic!("seed {}: the dispatch did not finish in 60 s", case.seed),
            Err(report) => Outcome::Lost { kind: report.kind, text: report.to_string() },
        };
        let stats = self.dev.stats();
        self.compile += stats.jit.compile_time.saturating_sub(self.compile_seen);
        self.compile_seen = stats.jit.compile_time;
        let failed = stats.jit.failures > self.failures_seen;
        self.failures_seen = stats.jit.failures;
        for bo in [&code_bo, &in_bo, &out_bo, &data_bo, &ib_bo] {
            self.dev.free(bo);
        }
        if matches!(outcome, Outcome::Lost { .. }) {
            // A lost device refuses further work.
            self.renew();
        }
        if failed {
            return Outcome::Untranslated;
        }
        outcome
    }
}

/// The interpreter's device and the translator's, kept in step (same allocations, same
/// dispatch numbers) so that addresses in reports agree.
struct Pair {
    off: Tier,
    on: Tier,
    runs: u32,
}

impl Pair {
    fn new() -> Pair {
        Pair { off: Tier::new(JitMode::Off), on: Tier::new(JitMode::On), runs: 0 }
    }

    fn renew(&mut self) {
        self.off.renew();
        self.on.renew();
    }

    fn run(&mut self, case: &Case, code: &[u32]) -> (Outcome, Outcome) {
        // Fresh devices now and then keep their program caches and queues small.
        self.runs += 1;
        if self.runs % 500 == 0 {
            self.renew();
        }
        let a = self.off.run(case, code);
        let b = self.on.run(case, code);
        if matches!(a, Outcome::Lost { .. }) != matches!(b, Outcome::Lost { .. }) {
            // Keep the devices in step after one of them was replaced.
            self.renew();
        }
        (a, b)
    }
}

// ---- comparing ----

/// The first differences between the two outcomes (empty when they agree).
fn compare(case: &Case, off: &Outcome, on: &Outcome) -> Vec<String> {
    let lanes = case.lanes();
    let mut diffs = vec![];
    match (off, on) {
        (
            Outcome::Done { dump: d0, mem: m0, executed: e0, .. },
            Outcome::Done { dump: d1, mem: m1, executed: e1, .. },
        ) => {
            for (i, (a, b)) in d0.iter().zip(d1).enumerate() {
                if a != b && diffs.len() < 8 {
                    let what = if i < lanes * 64 {
                        format!("v{} lane {}", i % 64, i / 64)
                    } else if i < lanes * 64 + DUMP_SGPRS.len() {
                        let k = i - lanes * 64;
                        sgpr_name(DUMP_SGPRS.start + k as u32)
                    } else if i < lanes * 64 + 128 {
                        continue;
                    } else {
                        format!("LDS byte {:#x}", 4 * (i - lanes * 64 - 128))
                    };
                    diffs.push(format!("{what}: interpreter {a:#010x}, translated {b:#010x}"));
                }
            }
            for (i, (a, b)) in m0.iter().zip(m1).enumerate() {
                if a != b && diffs.len() < 12 {
                    diffs.push(format!("memory byte {:#x}: interpreter {a:#010x}, translated {b:#010x}", 4 * i));
                }
            }
            if e0 != e1 {
                diffs.push(format!("executed instructions: interpreter {e0}, translated {e1}"));
            }
        }
        (Outcome::Lost { kind: k0, text: t0 }, Outcome::Lost { kind: k1, text: t1 }) => {
            if k0 != k1 || t0 != t1 {
                diffs.push(format!("reports differ ({k0:?} / {k1:?})"));
                for (a, b) in t0.lines().zip(t1.lines()) {
                    if a != b && diffs.len() < 10 {
                        diffs.push(format!("interpreter: {a}\n    translated:  {b}"));
                    }
                }
                if t0.lines().count() != t1.lines().count() {
                    diffs.push("the reports have different line counts".into());
                }
            }
        }
        (Outcome::Lost { text, .. }, Outcome::Done { .. }) => {
            diffs.push(format!("only the interpreter lost the device:\n{text}"));
        }
        (Outcome::Done { .. }, Outcome::Lost { text, .. }) => {
            diffs.push(format!("only the translated code lost the device:\n{text}"));
        }
        (_, Outcome::Untranslated) | (Outcome::Untranslated, _) => {
            diffs
                .push("the translation tier failed to compile the program (SOFTNAVI_JIT_DUMP=DIR keeps its IR)".into());
        }
    }
    diffs
}

fn sgpr_name(s: u32) -> String {
    match s {
        88 => "EXEC_LO".into(),
        89 => "EXEC_HI".into(),
        90 => "VCC_LO".into(),
        91 => "VCC_HI".into(),
        92 => "SCC".into(),
        93 => "M0".into(),
        _ => format!("s{s}"),
    }
}

/// A report for an instruction (or a form of one) softnavi does not execute: when both
/// tiers give it the program is skipped (the generator should not make it; the skips are
/// counted by message).
fn not_executed(o: &Outcome) -> Option<String> {
    match o {
        Outcome::Lost { kind: gpu::ReportKind::IllegalInstruction, text }
            if text.contains("not executed") || text.contains("not supported") =>
        {
            let first = text.lines().nth(1).unwrap_or("").trim();
            Some(first.to_string())
        }
        _ => None,
    }
}

// ---- shrinking ----

/// Every way of making the item tree smaller by one step: removing one item, or putting
/// a control item's blocks in its place.
fn smaller(items: &[Item]) -> Vec<Vec<Item>> {
    let mut out = vec![];
    for i in 0..items.len() {
        let mut v = items.to_vec();
        v.remove(i);
        out.push(v);
        let mut inner = items[i].clone();
        let blocks: Vec<Vec<Item>> = inner.blocks_mut().into_iter().map(|b| b.clone()).collect();
        if !blocks.is_empty() {
            let mut v = items.to_vec();
            let flat: Vec<Item> = blocks.iter().flatten().cloned().collect();
            v.splice(i..=i, flat);
            out.push(v);
            // Shrink inside the blocks.
            let nb = inner.blocks_mut().len();
            for b in 0..nb {
                let orig = inner.blocks_mut()[b].clone();
                for s in smaller(&orig) {
                    let mut it = items[i].clone();
                    *it.blocks_mut()[b] = s;
                    let mut v = items.to_vec();
                    v[i] = it;
                    out.push(v);
                }
            }
        }
        if let Item::Code(lines) = &items[i] {
            if lines.len() > 1 {
                // Drop setup lines one at a time (the last line is the instruction).
                for k in 0..lines.len() - 1 {
                    let mut l = lines.clone();
                    l.remove(k);
                    let mut v = items.to_vec();
                    v[i] = Item::Code(l);
                    out.push(v);
                }
            }
        }
    }
    out
}

/// Runs `case` on both tiers; the differences, or None when it cannot run (does not
/// assemble, or is skipped).
fn check(pair: &mut Pair, case: &Case) -> Option<Vec<String>> {
    let code = assemble(&[case]).ok()?.pop()?;
    let (a, b) = pair.run(case, &code);
    if not_executed(&a).is_some() && a == b {
        return None;
    }
    Some(compare(case, &a, &b))
}

/// The smallest variant of `case` that still diverges (greedy, one step at a time).
fn shrink(pair: &mut Pair, case: &Case, deadline: Instant) -> Case {
    let mut best = case.clone();
    'outer: while Instant::now() < deadline {
        for items in smaller(&best.items) {
            if Instant::now() >= deadline {
                break 'outer;
            }
            let cand = Case { items, ..best.clone() };
            if cand.size() >= best.size() {
                continue;
            }
            if check(pair, &cand).is_some_and(|d| !d.is_empty()) {
                best = cand;
                continue 'outer;
            }
        }
        break;
    }
    best
}

/// The initial values of the registers `lines` name (VGPRs: the first lanes), for a
/// divergence report.
fn inputs_of(case: &Case, lines: &[String]) -> String {
    let mut vregs = std::collections::BTreeSet::new();
    let mut sregs = std::collections::BTreeSet::new();
    for l in lines {
        let text = l.split("//").next().unwrap_or("");
        for tok in text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '[' || c == ']' || c == ':')) {
            let (kind, rest) = match tok.chars().next() {
                Some(k @ ('v' | 's')) => (k, &tok[1..]),
                _ => continue,
            };
            let (lo, hi) = match rest.strip_prefix('[').and_then(|r| r.strip_suffix(']')) {
                Some(range) => match range.split_once(':') {
                    Some((a, b)) => (a.parse::<u32>().ok(), b.parse::<u32>().ok()),
                    None => (None, None),
                },
                None => (rest.parse::<u32>().ok(), rest.parse::<u32>().ok()),
            };
            if let (Some(lo), Some(hi)) = (lo, hi) {
                for r in lo..=hi.min(lo + 16) {
                    if kind == 'v' && r < 64 {
                        vregs.insert(r);
                    } else if kind == 's' && (16..80).contains(&r) {
                        sregs.insert(r);
                    }
                }
            }
        }
    }
    let mut out = String::new();
    let lanes = case.lanes().min(8);
    for r in vregs {
        let vals: Vec<String> = (0..lanes).map(|l| format!("{:#010x}", case.vgpr[l * 64 + r as usize])).collect();
        let _ = writeln!(out, "    v{r} (lanes 0..{lanes}): {}", vals.join(" "));
    }
    for r in sregs {
        let _ = writeln!(out, "    s{r}: {:#010x}", case.sgpr[r as usize - 16]);
    }
    let _ = writeln!(
        out,
        "    M0 {:#010x}, VCC {:#018x}, SCC {}, work-items {}",
        case.m0, case.vcc, case.scc as u8, case.threads
    );
    out
}

// ---- the driver ----

#[derive(Default)]
struct Totals {
    programs: u64,
    faults: u64,
    skipped: u64,
    /// Instructions in the programs' bodies.
    static_insts: u64,
    /// Wave instructions executed (per tier).
    executed: u64,
    /// Of those, run by translated code.
    translated: u64,
    /// Programs that lost the device (in both tiers alike).
    lost: u64,
    /// Time the translator spent compiling.
    compile: Duration,
    /// Why programs outside the fault set lost the device (the report's first line).
    lost_why: BTreeMap<String, u64>,
    /// Why programs were skipped.
    skip_why: BTreeMap<String, u64>,
    divergences: Vec<String>,
}

/// Generates, assembles (in batches) and compares the programs of `seeds`.
fn run_seeds(pair: &mut Pair, ops: &Ops, seeds: &[(u64, bool)], totals: &mut Totals, shrink_budget: Duration) {
    let cases: Vec<Case> = seeds.iter().map(|&(s, f)| Case::new(s, f, ops)).collect();
    run_cases(pair, &cases, totals, shrink_budget);
}

/// Assembles (in batches) and compares `cases`.
fn run_cases(pair: &mut Pair, cases: &[Case], totals: &mut Totals, shrink_budget: Duration) {
    for wave64 in [false, true] {
        let batch: Vec<&Case> = cases.iter().filter(|c| c.wave64 == wave64).collect();
        if batch.is_empty() {
            continue;
        }
        let codes = match assemble(&batch) {
            Ok(c) => c,
            Err(errs) => {
                let mut msg = String::from("llvm-mc-19 rejected generated instructions (a generator bug):\n");
                for (i, lines) in errs {
                    let _ = writeln!(msg, "  seed {} (wave{}):", batch[i].seed, if wave64 { 64 } else { 32 });
                    for l in lines {
                        let _ = writeln!(msg, "    {l}");
                    }
                }
                panic!("{msg}");
            }
        };
        for (case, code) in batch.iter().zip(&codes) {
            let (a, b) = pair.run(case, code);
            if let Some(why) = not_executed(&a).filter(|_| a == b) {
                totals.skipped += 1;
                *totals.skip_why.entry(why).or_default() += 1;
                continue;
            }
            totals.programs += 1;
            totals.static_insts += case.size() as u64;
            if case.fault.is_some() {
                totals.faults += 1;
            }
            match &b {
                Outcome::Done { executed, translated, .. } => {
                    totals.executed += executed;
                    totals.translated += translated;
                }
                Outcome::Untranslated => {}
                Outcome::Lost { text, .. } => {
                    totals.lost += 1;
                    if case.fault.is_none() {
                        let why = text.lines().next().unwrap_or("").to_string();
                        let why = why.split(" at PC").next().unwrap_or("").to_string();
                        *totals.lost_why.entry(why).or_default() += 1;
                        if std::env::var("SOFTNAVI_TIERS_SHOW_LOST").is_ok() {
                            eprintln!("seed {} lost the device:\n{text}", case.seed);
                        }
                    }
                }
            }
            let diffs = compare(case, &a, &b);
            if !diffs.is_empty() {
                let small = shrink(pair, case, Instant::now() + shrink_budget);
                let small_diffs = check(pair, &small).unwrap_or_default();
                let mut msg = String::new();
                let _ = writeln!(
                    msg,
                    "DIVERGENCE: seed {} (wave{}{}), {} of {} instructions after shrinking",
                    case.seed,
                    case.lanes(),
                    if case.fault.is_some() { ", fault set" } else { "" },
                    small.size(),
                    case.size()
                );
                let _ = writeln!(msg, "first differences (full program):");
                for d in &diffs {
                    let _ = writeln!(msg, "  {d}");
                }
                let _ = writeln!(msg, "first differences (shrunk program):");
                for d in &small_diffs {
                    let _ = writeln!(msg, "  {d}");
                }
                let _ = writeln!(msg, "shrunk body:");
                let body = small.body("s");
                for l in &body {
                    let _ = writeln!(msg, "    {l}");
                }
                let _ = writeln!(msg, "inputs (SOFTNAVI_TIERS_SEED={} prints the whole program):", case.seed);
                msg.push_str(&inputs_of(&small, &body));
                eprintln!("{msg}");
                totals.divergences.push(msg);
            }
        }
    }
}

fn env_u64(k: &str) -> Option<u64> {
    std::env::var(k).ok().and_then(|v| v.trim().parse().ok())
}

/// Whether seed `s` makes a program of the fault set (one in eight).
fn fault_seed(s: u64) -> bool {
    s % 8 == 7
}

/// The fixed seeds of the default run: programs of both wave sizes, one in eight of the
/// fault set.
fn fixed_seeds() -> Vec<(u64, bool)> {
    (0..56).map(|s| (s, fault_seed(s))).collect()
}

/// Whether this host has the translation tier (LLVM 19's ORC JIT through libLLVM): a
/// program of one instruction translates.
fn translator_available() -> bool {
    let case = Case { items: vec![Item::Code(vec!["s_nop 0".into()])], ..Case::inputs(0, false, &mut Rng::new(0)) };
    let code = assemble(&[&case]).unwrap().pop().unwrap();
    let (_, b) = Pair::new().run(&case, &code);
    !matches!(b, Outcome::Untranslated)
}

#[test]
fn tiers_agree_on_random_programs() {
    if !translator_available() {
        eprintln!("tiers: SKIPPED: the translation tier is not available on this host (no libLLVM 19 ORC JIT)");
        return;
    }
    let ops = Ops::new();
    let mut pair = Pair::new();
    let mut totals = Totals::default();
    let start = Instant::now();
    if let Some(seed) = env_u64("SOFTNAVI_TIERS_SEED") {
        let fault = fault_seed(seed);
        let case = Case::new(seed, fault, &ops);
        eprintln!("seed {seed} (wave{}):\n{}", case.lanes(), case.source("s"));
        run_seeds(&mut pair, &ops, &[(seed, fault)], &mut totals, Duration::from_secs(120));
    } else if let Some(secs) = env_u64("SOFTNAVI_TIERS_SECONDS") {
        let base = env_u64("SOFTNAVI_TIERS_BASE").unwrap_or_else(|| {
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
        });
        eprintln!("tiers: random seeds from {base} for {secs} s");
        let end = start + Duration::from_secs(secs);
        let mut next = base;
        let mut last = Instant::now();
        while Instant::now() < end {
            // One fault-set program in eight.
            let seeds: Vec<(u64, bool)> = (0..24).map(|k| (next + k, fault_seed(next + k))).collect();
            next += 24;
            run_seeds(&mut pair, &ops, &seeds, &mut totals, Duration::from_secs(300));
            if last.elapsed() > Duration::from_secs(30) {
                last = Instant::now();
                totals.compile = pair.on.compile;
                report(&totals, start.elapsed());
            }
        }
    } else {
        run_seeds(&mut pair, &ops, &fixed_seeds(), &mut totals, Duration::from_secs(60));
    }
    totals.compile = pair.on.compile;
    report(&totals, start.elapsed());
    assert!(totals.divergences.is_empty(), "{} divergences (above)", totals.divergences.len());
}

fn report(t: &Totals, elapsed: Duration) {
    let s = elapsed.as_secs_f64().max(1e-9);
    eprintln!(
        "tiers: {} programs ({} of the fault set, {} lost the device, {} skipped), {:.0} s compiling, {} body instructions, {} wave instructions executed per tier ({:.0}% translated) in {:.0} s: {:.1} programs/s, {:.0} body instructions/s, {:.0} executed instructions/s; {} divergences",
        t.programs,
        t.faults,
        t.lost,
        t.skipped,
        t.compile.as_secs_f64(),
        t.static_insts,
        t.executed,
        100.0 * t.translated as f64 / t.executed.max(1) as f64,
        s,
        t.programs as f64 / s,
        t.static_insts as f64 / s,
        t.executed as f64 / s,
        t.divergences.len()
    );
    for (why, n) in &t.lost_why {
        eprintln!("  lost: {n} x {why}");
    }
    for (why, n) in &t.skip_why {
        eprintln!("  skipped: {n} x {why}");
    }
}

/// The comparison itself: a difference anywhere in the dump, the memory, the executed
/// count or the report is one.
#[test]
fn the_comparison_sees_every_difference() {
    let mut r = Rng::new(1);
    let case = Case::inputs(1, false, &mut r);
    let lanes = case.lanes();
    let len = lanes * 64 + 128 + LDS_BYTES as usize / 4;
    type Edit<'a> = &'a dyn Fn(&mut Vec<u32>, &mut Vec<u32>, &mut u64);
    let done = |f: Edit| {
        let (mut dump, mut mem, mut executed) = (vec![7u32; len], vec![9u32; 16], 100u64);
        f(&mut dump, &mut mem, &mut executed);
        Outcome::Done { dump, mem, executed, translated: 0 }
    };
    let base = done(&|_, _, _| {});
    assert!(compare(&case, &base, &base).is_empty());
    let cases: [(&str, Outcome); 7] = [
        ("v5 lane 3", done(&|d, _, _| d[3 * 64 + 5] ^= 1)),
        ("s20", done(&|d, _, _| d[lanes * 64 + 4] ^= 1)),
        ("EXEC_LO", done(&|d, _, _| d[lanes * 64 + 72] ^= 1)),
        ("LDS byte 0x10", done(&|d, _, _| d[lanes * 64 + 128 + 4] ^= 1)),
        ("memory byte 0x8", done(&|_, m, _| m[2] ^= 1)),
        ("executed instructions", done(&|_, _, e| *e += 1)),
        (
            "only the translated code lost the device",
            Outcome::Lost { kind: gpu::ReportKind::VmFault, text: "x".into() },
        ),
    ];
    for (what, other) in cases {
        let d = compare(&case, &base, &other);
        assert!(d.len() == 1 && d[0].starts_with(what), "{what}: {d:?}");
    }
    let lost = |t: &str| Outcome::Lost { kind: gpu::ReportKind::VmFault, text: t.into() };
    assert!(compare(&case, &lost("a\nb"), &lost("a\nb")).is_empty());
    assert!(!compare(&case, &lost("a\nb"), &lost("a\nc")).is_empty());
    assert!(!compare(&case, &base, &Outcome::Untranslated).is_empty());
}

/// The generator alone: assembles `SOFTNAVI_TIERS_COUNT` programs (default 2000) and
/// lists every instruction llvm-mc-19 rejects, grouped by its message (for working on the
/// generator: `cargo test --release -p softnavi-gpu --test tiers -- --ignored --nocapture`).
#[test]
#[ignore = "a tool for working on the generator"]
fn generator_assembles() {
    let ops = Ops::new();
    let n = env_u64("SOFTNAVI_TIERS_COUNT").unwrap_or(2000);
    let base = env_u64("SOFTNAVI_TIERS_BASE").unwrap_or(0);
    let mut by_msg: BTreeMap<String, Vec<String>> = BTreeMap::new();
    let mut lines = 0;
    for chunk in (base..base + n).collect::<Vec<_>>().chunks(100) {
        let cases: Vec<Case> = chunk.iter().map(|&s| Case::new(s, fault_seed(s), &ops)).collect();
        for wave64 in [false, true] {
            let batch: Vec<&Case> = cases.iter().filter(|c| c.wave64 == wave64).collect();
            lines += batch.iter().map(|c| c.size()).sum::<usize>();
            if let Err(errs) = assemble(&batch) {
                for l in errs.into_values().flatten() {
                    let msg = l.rsplit_once(" (").map_or(l.clone(), |(_, m)| m.to_string());
                    let mnemonic = l.split_whitespace().next().unwrap_or("").to_string();
                    let msg =
                        if std::env::var("SOFTNAVI_TIERS_BY_OP").is_ok() { format!("{mnemonic}: {msg}") } else { msg };
                    by_msg.entry(msg).or_default().push(format!("w{}: {l}", if wave64 { 64 } else { 32 }));
                }
            }
        }
    }
    let mut total = 0;
    for (msg, ls) in &by_msg {
        total += ls.len();
        eprintln!("{} x {msg}", ls.len());
        for l in ls.iter().take(6) {
            eprintln!("    {l}");
        }
    }
    eprintln!("{total} rejected of {lines} instructions");
    assert!(by_msg.is_empty());
}

// ---- reproducers ----

/// Runs a hand-written body on both tiers: every lane starts with zeros in v0..v63 and
/// s16..s79, except VGPR `r` of lane `l` = `values[l % values.len()]` for each `(r,
/// values)` of `vgprs`; the data buffer and VCC are zero, M0 and SCC too. Returns the
/// differences (empty when the tiers agree).
fn repro(body: &str, wave64: bool, vgprs: &[(u32, &[u32])]) -> Vec<String> {
    try_repro(body, wave64, vgprs).unwrap_or_else(|e| panic!("does not assemble:\n{e}"))
}

/// [`try_repro`] under MODE's FP_DENORM = `float_mode` (0xc0: f32 denormals flushed, as
/// Vulkan's default float mode programs it).
fn try_repro_mode(body: &str, wave64: bool, vgprs: &[(u32, &[u32])], float_mode: u32) -> Result<Vec<String>, String> {
    try_repro_with(body, wave64, vgprs, float_mode)
}

/// [`repro`], or the assembler's errors.
fn try_repro(body: &str, wave64: bool, vgprs: &[(u32, &[u32])]) -> Result<Vec<String>, String> {
    try_repro_with(body, wave64, vgprs, 0xf0)
}

fn try_repro_with(body: &str, wave64: bool, vgprs: &[(u32, &[u32])], float_mode: u32) -> Result<Vec<String>, String> {
    let lanes = if wave64 { 64 } else { 32 };
    let mut vgpr = vec![0u32; lanes * 64];
    for &(r, values) in vgprs {
        for l in 0..lanes {
            vgpr[l * 64 + r as usize] = values[l % values.len()];
        }
    }
    let case = Case {
        seed: 0,
        wave64,
        fault: None,
        items: vec![Item::Code(body.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect())],
        sgpr: vec![0; 64],
        vgpr,
        mem: vec![0; MEM_BYTES as usize / 4],
        m0: 0,
        vcc: 0,
        scc: false,
        threads: lanes as u32,
        float_mode,
    };
    let mut pair = Pair::new();
    let code = assemble(&[&case]).map_err(|e| format!("{e:?}"))?.pop().unwrap();
    let (a, b) = pair.run(&case, &code);
    Ok(compare(&case, &a, &b))
}

/// The M0 both tiers leave after a hand-written body (as [`repro`] runs it).
fn m0_after(body: &str, wave64: bool) -> (u32, u32) {
    let case = Case {
        seed: 0,
        wave64,
        fault: None,
        items: vec![Item::Code(body.lines().map(|l| l.trim().to_string()).filter(|l| !l.is_empty()).collect())],
        sgpr: vec![0; 64],
        vgpr: vec![0; if wave64 { 64 * 64 } else { 32 * 64 }],
        mem: vec![0; MEM_BYTES as usize / 4],
        m0: 0,
        vcc: 0,
        scc: false,
        threads: if wave64 { 64 } else { 32 },
        float_mode: 0xf0,
    };
    let code = assemble(&[&case]).unwrap().pop().unwrap();
    let (a, b) = Pair::new().run(&case, &code);
    let m0 = |o: &Outcome| match o {
        Outcome::Done { dump, .. } => dump[case.lanes() * 64 + (93 - DUMP_SGPRS.start) as usize],
        other => panic!("{other:?}"),
    };
    (m0(&a), m0(&b))
}

/// Asserts that the tiers agree on a reproducer.
fn assert_repro(body: &str, wave64: bool, vgprs: &[(u32, &[u32])]) {
    let d = repro(body, wave64, vgprs);
    assert!(d.is_empty(), "the tiers disagree on\n{body}\n{}", d.join("\n"));
}

/// Under Vulkan's default float mode (f32 denormals flushed: MODE 0xc0, which the
/// translated code runs with the host's DAZ and FTZ), the f32 operations the translator
/// lowers with integer or bit operations rather than arithmetic (frexp, ldexp, fract,
/// class tests, conversions, min/max) give what the interpreter gives, for every special
/// value and denormal, with and without source modifiers.
#[test]
fn flushing_mode_agrees_on_bit_level_f32_ops() {
    if !translator_available() {
        eprintln!("skipped: the translation tier is not available");
        return;
    }
    let ops: &[(&str, usize)] = &[
        ("v_frexp_mant_f32", 1),
        ("v_frexp_exp_i32_f32", 1),
        ("v_ldexp_f32", 2),
        ("v_fract_f32", 1),
        ("v_floor_f32", 1),
        ("v_trunc_f32", 1),
        ("v_rndne_f32", 1),
        ("v_cvt_i32_f32", 1),
        ("v_cvt_f16_f32", 1),
        ("v_min_f32", 2),
        ("v_max_f32", 2),
        ("v_med3_f32", 3),
        ("v_cmp_class_f32", 2),
        ("v_mul_f32", 2),
        ("v_fma_f32", 3),
    ];
    let mut vals = f32_specials();
    // Denormals of both signs and sizes, and normals that ldexp makes denormal.
    vals.extend([0x1, 0x7f_ffff, 0x40_0000, 0x8000_0001, 0x807f_ffff, 0x0080_0000, 0x8080_0000, 0x3f80_0000]);
    let exps: Vec<u32> = [-130i32, -126, -1, 0, 1, 24, 127].iter().map(|&e| e as u32).collect();
    let mut r = Rng::new(11);
    let mut found = Vec::new();
    for &(op, n) in ops {
        for (variant, m) in ["{}", "-{}", "|{}|"].iter().enumerate() {
            let mut body = String::new();
            for k in 0..16u32 {
                let srcs: Vec<String> = (0..n as u32)
                    .map(|j| {
                        let v = format!("v{}", 1 + 3 * k + j);
                        let int_src = (op == "v_ldexp_f32" || op == "v_cmp_class_f32") && j == 1;
                        if int_src {
                            v
                        } else {
                            m.replace("{}", &v)
                        }
                    })
                    .collect();
                if op.starts_with("v_cmp") {
                    body.push_str(&format!("{op}_e64 s[{}:{}], {}\n", 16 + 2 * k, 17 + 2 * k, srcs.join(", ")));
                } else {
                    body.push_str(&format!("{op}_e64 v{}, {}\n", 1 + 3 * k + 2, srcs.join(", ")));
                }
            }
            let regs: Vec<Vec<u32>> = (0..49)
                .map(|i| {
                    let int = op == "v_ldexp_f32" && i % 3 == 2;
                    (0..64).map(|_| if int { *r.pick(&exps) } else { *r.pick(&vals) }).collect()
                })
                .collect();
            let init: Vec<(u32, &[u32])> = regs.iter().enumerate().skip(1).map(|(i, v)| (i as u32, &v[..])).collect();
            match try_repro_mode(&body, true, &init, 0xc0) {
                Ok(d) if !d.is_empty() => found.push(format!("{op} ({variant}): {}", d[..d.len().min(3)].join("; "))),
                Ok(_) => {}
                Err(e) => found.push(format!("{op}: does not assemble: {}", &e[..e.len().min(200)])),
            }
        }
    }
    assert!(found.is_empty(), "the tiers disagree under MODE 0xc0:\n{}", found.join("\n"));
}

/// Every f32 special value, one per lane.
fn f32_specials() -> Vec<u32> {
    gen::F32S.to_vec()
}

/// Every ALU opcode the generator knows, in programs of 40 random instances each (wave32
/// and wave64), with the long run's inputs: a sweep that reaches each opcode, however
/// rare. A tool for the report (about two minutes); prints the divergences it finds.
#[test]
#[ignore = "a sweep over every opcode (a tool)"]
fn sweep_every_alu_opcode() {
    let ops = Ops::new();
    let mut pair = Pair::new();
    let mut totals = Totals::default();
    let start = Instant::now();
    let base = env_u64("SOFTNAVI_TIERS_BASE").unwrap_or(0);
    let infos = Gen::new(0, false, &ops).alu_ops();
    for (k, chunk) in infos.chunks(12).enumerate() {
        let mut cases = vec![];
        for (j, info) in chunk.iter().enumerate() {
            for wave64 in [false, true] {
                let seed = base + 1_000_000 + 2 * (12 * k + j) as u64 + wave64 as u64;
                let mut case = Case::inputs(seed, wave64, &mut Rng::new(seed));
                let mut g = Gen::new(seed, wave64, &ops);
                case.items = (0..40).map(|_| Item::Code(g.instance(info))).filter(|i| !gen::known(i)).collect();
                cases.push(case);
            }
        }
        // Report what does not assemble (a generator bug) and go on without it.
        let mut good = vec![];
        for c in cases {
            match assemble(&[&c]) {
                Ok(_) => good.push(c),
                Err(e) => eprintln!("does not assemble: {e:?}"),
            }
        }
        run_cases(&mut pair, &good, &mut totals, Duration::from_secs(60));
    }
    totals.compile = pair.on.compile;
    report(&totals, start.elapsed());
    assert!(totals.divergences.is_empty(), "{} divergences (above)", totals.divergences.len());
}

/// A tool: the f32 VOP1 operations with each input modifier on every special value,
/// one program each, listing which disagree.
#[test]
#[ignore = "a tool for narrowing divergences down"]
fn explore_f32_unary_modifiers() {
    let ops = [
        "v_rcp_f32",
        "v_rcp_iflag_f32",
        "v_rsq_f32",
        "v_sqrt_f32",
        "v_exp_f32",
        "v_log_f32",
        "v_floor_f32",
        "v_ceil_f32",
        "v_trunc_f32",
        "v_rndne_f32",
        "v_fract_f32",
        "v_frexp_mant_f32",
        "v_frexp_exp_i32_f32",
        "v_cvt_i32_f32",
        "v_cvt_u32_f32",
        "v_mov_b32",
        "v_sin_f32",
        "v_cos_f32",
    ];
    let vals = f32_specials();
    for op in ops {
        for m in ["v1", "-v1", "|v1|", "-|v1|"] {
            for wave64 in [false, true] {
                let body = format!("{op}_e64 v2, {m}");
                let Ok(d) = try_repro(&body, wave64, &[(1, &vals)]) else { continue };
                if !d.is_empty() {
                    eprintln!("wave{}: {body}: {}", if wave64 { 64 } else { 32 }, d[..d.len().min(3)].join("; "));
                }
            }
        }
    }
}

/// Divergence: v_rcp_f32 and v_rcp_iflag_f32 with the neg input modifier on a NaN. The
/// interpreter returns the negated input NaN, quieted (the hardware's rule: a NaN input
/// propagates, and input modifiers apply before the operation); the translated code returns
/// it with its original sign: it lowers rcp as `fdiv 1.0, x` on the negated bits, LLVM
/// folds `fdiv 1.0, -x` into `fdiv -1.0, x` (NaN signs are not preserved by arithmetic in
/// LLVM's semantics) and the host returns x's NaN.
#[test]
fn divergence_rcp_neg_nan() {
    let nans: &[u32] = &[0x7fc0_0000, 0xffc0_0000, 0x7fc1_2345, 0x7f80_0001, 0xff80_1234, 0x3f80_0000];
    assert_repro("v_rcp_f32_e64 v2, -v1\nv_rcp_iflag_f32_e64 v3, -v1", false, &[(1, nans)]);
}

/// Divergence (a translation failure): code after s_setpc_b64 that no decoded branch
/// targets, up to a conditional branch. `emit::class` takes s_setpc_b64 (SOP1) for an ALU
/// instruction, so no block ends after it, while `emit::reachable` stops there: the block
/// that holds the s_setpc goes on into code `reachable` calls unreachable, and its
/// conditional branch names blocks that are never written (`use of undefined value
/// '%bN'`); the program then runs in the interpreter only (an error under
/// SOFTNAVI_JIT=on). Indirect calls (s_swappc_b64 into a function placed after another
/// function's s_setpc_b64 return) have this shape.
#[test]
fn divergence_setpc_fallthrough() {
    assert_repro(
        "s_getpc_b64 s[78:79]
        .Lpc:
        s_add_u32 s78, s78, .Lt-.Lpc
        s_addc_u32 s79, s79, 0
        s_setpc_b64 s[78:79]
        .Lt:
        s_mov_b64 s[78:79], 0
        s_cbranch_execz .Lskip
        v_mov_b32 v1, 1
        .Lskip:",
        false,
        &[],
    );
}

/// A tool: f32 operations of one to three sources, with each input modifier and clamp /
/// omod, on random pairs and triples of special values (wave64, 20 instructions of 64
/// lanes per program), listing which disagree.
#[test]
#[ignore = "a tool for narrowing divergences down"]
fn explore_f32_special_values() {
    let ops: &[(&str, usize)] = &[
        ("v_add_f32", 2),
        ("v_sub_f32", 2),
        ("v_subrev_f32", 2),
        ("v_mul_f32", 2),
        ("v_min_f32", 2),
        ("v_max_f32", 2),
        ("v_fma_f32", 3),
        ("v_fmac_f32", 2),
        ("v_min3_f32", 3),
        ("v_max3_f32", 3),
        ("v_med3_f32", 3),
        ("v_ldexp_f32", 2),
        ("v_mul_dx9_zero_f32", 2),
        ("v_fma_dx9_zero_f32", 3),
        ("v_minmax_f32", 3),
        ("v_maxmin_f32", 3),
        ("v_cndmask_b32", 2),
        ("v_cmp_class_f32", 2),
        ("v_frexp_mant_f32", 1),
        ("v_frexp_exp_i32_f32", 1),
        ("v_rcp_f32", 1),
        ("v_rsq_f32", 1),
        ("v_sqrt_f32", 1),
        ("v_exp_f32", 1),
        ("v_log_f32", 1),
        ("v_floor_f32", 1),
        ("v_ceil_f32", 1),
        ("v_trunc_f32", 1),
        ("v_rndne_f32", 1),
        ("v_fract_f32", 1),
        ("v_cvt_i32_f32", 1),
        ("v_cvt_u32_f32", 1),
        ("v_cvt_f32_i32", 1),
        ("v_cvt_f32_u32", 1),
        ("v_mov_b32", 1),
        ("v_cmp_lt_f32", 2),
        ("v_cmp_nge_f32", 2),
        ("v_cmp_lg_f32", 2),
        ("v_cmp_u_f32", 2),
        ("v_cmp_neq_f32", 2),
    ];
    let mut r = Rng::new(7);
    let mut vals = f32_specials();
    vals.extend(gen::INTS);
    for &(op, n) in ops {
        for variant in 0..6 {
            let mut body = String::new();
            for k in 0..20u32 {
                let mut srcs = vec![];
                for j in 0..n as u32 {
                    let v = format!("v{}", 1 + 3 * k + j);
                    let m = match (variant + k as usize + j as usize) % 4 {
                        _ if variant == 0 => v,
                        0 => v,
                        1 => format!("-{v}"),
                        2 => format!("|{v}|"),
                        _ => format!("-|{v}|"),
                    };
                    let plain = op.starts_with("v_cvt_f32_") || op == "v_mov_b32";
                    srcs.push(if plain || (op == "v_ldexp_f32" || op == "v_cmp_class_f32") && j == 1 {
                        format!("v{}", 1 + 3 * k + j)
                    } else {
                        m
                    });
                }
                let int_out =
                    op.starts_with("v_cmp") || op.starts_with("v_cvt_") || op.contains("_i32_") || op == "v_mov_b32";
                let outm = match variant {
                    4 if !int_out => " clamp",
                    5 if !int_out => " mul:2",
                    _ => "",
                };
                let line = if op.starts_with("v_cmp") {
                    format!("{op}_e64 s[{}:{}], {}", 16 + 2 * k, 17 + 2 * k, srcs.join(", "))
                } else if op == "v_cndmask_b32" {
                    format!("{op}_e64 v{}, {}, vcc", 64 - 1 - k as usize % 2, srcs.join(", "))
                } else {
                    format!("{op}_e64 v{}, {}{outm}", 61 + k % 2, srcs.join(", "))
                };
                body.push_str(&line);
                body.push('\n');
                // Keep every result: copy it into the registers the dump shows.
                if !op.starts_with("v_cmp") {
                    body.push_str(&format!("v_mov_b32 v{}, v{}\n", 1 + 3 * k + 2, 61 + k % 2));
                }
            }
            let regs: Vec<Vec<u32>> = (0..61).map(|_| (0..64).map(|_| *r.pick(&vals)).collect()).collect();
            let init: Vec<(u32, &[u32])> = regs.iter().enumerate().skip(1).map(|(i, v)| (i as u32, &v[..])).collect();
            match try_repro(&body, true, &init) {
                Ok(d) if !d.is_empty() => {
                    eprintln!("{op} variant {variant}: {}", d[..d.len().min(4)].join("; "));
                }
                Ok(_) => {}
                Err(e) => eprintln!("{op} variant {variant}: does not assemble: {}", &e[..e.len().min(300)]),
            }
        }
    }
}

/// Divergence: s_cmov_b64 with NULL as destination while SCC is 0. The interpreter writes
/// nothing; the translated code (`jit/salu.rs`, S_CMOV_B64) writes `select(SCC, src,
/// old)` through `Ir::sdst64`, with `old` read from NULL as 0, and `sdst64` stores the
/// pair NULL, M0: M0 becomes 0. (With SCC 1 both tiers write the source's high half to
/// M0: see `null_64bit_destination_keeps_m0`.)
#[test]
fn divergence_cmov_b64_null() {
    assert_repro(
        "s_mov_b32 m0, 0x12345678
        s_mov_b32 s20, 1
        s_mov_b32 s21, 0xabcdef
        s_cmp_eq_u32 0, 1
        s_cmov_b64 null, s[20:21]",
        false,
        &[],
    );
}

/// RDNA3-NOTES, "NULL" (a write to NULL is discarded): a 64-bit SALU result (and a wave64
/// lane mask) with NULL as destination leaves M0, the register after NULL, alone. Both
/// tiers wrote the high half there once (found by this generator).
#[test]
fn null_64bit_destination_keeps_m0() {
    for (body, wave64) in [
        ("s_mov_b32 m0, 0x12345678\ns_mov_b32 s20, 1\ns_mov_b32 s21, 0xabcdef\ns_mov_b64 null, s[20:21]", false),
        ("s_mov_b32 m0, 0x12345678\ns_cmp_eq_u32 0, 0\ns_cselect_b64 null, -1, 0", false),
        ("s_mov_b32 m0, 0x12345678\nv_cmp_eq_u32_e64 null, 0, 0", true),
    ] {
        assert_eq!(m0_after(body, wave64), (0x1234_5678, 0x1234_5678), "M0 after\n{body}");
    }
}
