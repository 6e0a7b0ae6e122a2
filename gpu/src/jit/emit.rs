//! One program as one LLVM function: `i32 @run(ptr %w, ptr %v, ptr %env, i32 %pc)`.
//!
//! The function starts at instruction `%pc`, which must be an entry point (a branch
//! target, the program's start, or the instruction after a call-out): a `switch` picks
//! the basic block. Blocks are the program's own: they end at branches and call-outs.
//! Instructions with an inline lowering (SALU, VALU, branches, no-op SOPPs) are IR; every
//! other one is a call-out to the interpreter ([`super::callout`]), which executes it
//! exactly as the interpreter's loop would. The function returns
//! - [`RET_INTERP`]: the interpreter continues at `Wave::pc` (an entry `%pc` that is not
//!   one, or the end of the program);
//! - [`RET_LEAVE`]: a call-out left the run loop (end, barrier, fault, trap, MODE change;
//!   the reason is in the environment);
//! - [`RET_RESUME`]: `Wave::pc` was set (a loop's back edge ran out of its polling
//!   budget, or a call-out jumped); the run loop checks for an abort and re-enters.
//!
//! `Wave::executed` (and `Wave::translated`) are kept exact at every call-out and exit, so
//! fault reports show the interpreter's counts.

use std::fmt::Write;

use super::ir::{Ir, Layout, Lower, NotInline};
use super::{mem, salu, valu};
use crate::isa::decode::Inst;
use crate::isa::program::{Program, NO_TARGET};
use crate::isa::table::{Encoding, Kind, Op};

pub const RET_INTERP: u32 = 0;
pub const RET_LEAVE: u32 = 1;
pub const RET_RESUME: u32 = 2;

/// The translated program: its IR, entry points, and how much of it is inline.
pub struct Module {
    pub ir: String,
    /// Entry points by instruction index.
    pub entries: Vec<bool>,
    /// Instructions translated inline, and all instructions.
    pub inline: usize,
    pub total: usize,
}

/// How the run loop's lean path treats an instruction without running it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Class {
    /// A conditional or unconditional branch to a decoded instruction.
    Branch,
    /// SOPP instructions with no effect in the lean loop.
    Nop,
    /// SALU or VALU: inline if the lowering takes it, else a call-out.
    Alu,
    /// A wait for memory counters (`Wave::waitcnt`).
    Wait,
    /// SMEM, MUBUF, GLOBAL, DS: inline for the shapes `mem.rs` takes (with a call-out
    /// when a run-time condition fails), else a call-out.
    Mem,
    /// Everything else: a call-out.
    Callout,
}

/// The instruction's class, from its row's [`Kind`] (`isa/table.rs`) and, for branches and
/// the SOPK waits, its operands.
fn class(inst: &Inst) -> Class {
    use crate::isa::decode::{Operand, SGPR_NULL};
    match inst.op.kind() {
        Kind::Branch if inst.imm1 != NO_TARGET => Class::Branch,
        Kind::Nop => Class::Nop,
        // The SOPK waits count SGPR[sdst] + simm16: inline only with NULL there.
        Kind::Wait if inst.op.encoding() != Encoding::Sopk || inst.dst == Operand::Sgpr(SGPR_NULL) => Class::Wait,
        // The other SOPK waits and s_sendmsg_rtn_* (SOP1) go to the scalar lowering, which
        // does not take them: a call-out within the block.
        Kind::Alu | Kind::Wait | Kind::Msg { rtn: true } => Class::Alu,
        // Memory the inline paths may take (jit/mem.rs), with a call-out as the fallback.
        Kind::Mem(_)
            if matches!(inst.op.encoding(), Encoding::Smem | Encoding::Mubuf | Encoding::Global | Encoding::Ds) =>
        {
            Class::Mem
        }
        Kind::Mem(_) if matches!(inst.op, Op::IMAGE_LOAD | Op::IMAGE_STORE) => Class::Mem,
        // Branches without a decoded target, jumps, messages, memory, and whatever else the
        // interpreter runs: call-outs that end their block.
        _ => Class::Callout,
    }
}

/// Translates `prog` (waves of `lanes` lanes) into a module whose function is `name`;
pub fn translate(prog: &Program, lanes: usize, lay: Layout, name: &str) -> Module {
    let insts = prog.insts();
    let classes: Vec<Class> = insts.iter().map(class).collect();
    let mut leader = vec![false; insts.len() + 1];
    leader[0] = true;
    for (i, inst) in insts.iter().enumerate() {
        match classes[i] {
            Class::Branch => {
                leader[inst.imm1 as usize] = true;
                leader[i + 1] = true;
            }
            Class::Callout | Class::Alu => {
                // An ALU instruction may become a call-out; either may leave the loop (a
                // fault, a MODE change) and the wave may resume after it.
                if matches!(classes[i], Class::Callout) {
                    leader[i + 1] = true;
                }
            }
            Class::Nop | Class::Wait | Class::Mem => {}
        }
    }
    let reachable = reachable(insts);
    let mut e = Emit { ir: Ir::new(lanes, lay), prog, classes, leader, reachable, inline: 0, pending: 0 };
    e.function(name);
    let entries = (0..insts.len()).map(|i| e.leader[i] && e.reachable[i]).collect();
    let inline = e.inline;
    Module { ir: e.finish(), entries, inline, total: insts.len() }
}

/// The instructions reachable from the program's start by fall-through and decoded
/// branch targets. A program runs to the end of its code object's text, which may hold
/// other kernels: only what this kernel can reach is translated. Code reached otherwise
/// (s_setpc, a return from the trap handler) runs in the interpreter until it meets an
/// entry point.
fn reachable(insts: &[Inst]) -> Vec<bool> {
    use Op::*;
    let mut seen = vec![false; insts.len()];
    let mut work = vec![0usize];
    while let Some(i) = work.pop() {
        if i >= insts.len() || seen[i] {
            continue;
        }
        seen[i] = true;
        let inst = &insts[i];
        if inst.op.has_flag(crate::isa::table::F::BRANCH) && inst.imm1 != NO_TARGET {
            work.push(inst.imm1 as usize);
        }
        if !matches!(inst.op, S_ENDPGM | S_ENDPGM_SAVED | S_BRANCH | S_CODE_END | S_SETPC_B64) {
            work.push(i + 1);
        }
    }
    seen
}

struct Emit<'a> {
    ir: Ir,
    prog: &'a Program,
    classes: Vec<Class>,
    leader: Vec<bool>,
    reachable: Vec<bool>,
    inline: usize,
    /// Instructions of the current block not yet added to `Wave::executed`.
    pending: u32,
}

impl Emit<'_> {
    fn function(&mut self, name: &str) {
        let n = self.prog.insts().len();
        let _ = writeln!(self.ir.out, "define i32 @{name}(ptr noalias %w, ptr noalias %v, ptr %env, i32 %pc) #0 {{");
        self.ir.start("entry");
        // Scratch arrays for the memory access helper (jit/mem.rs): lane offsets of up to
        // two elements, and up to four dwords per lane, in 64 lanes.
        self.ir.line("%scratch_at = alloca [128 x i64], align 32");
        self.ir.line("%scratch_data = alloca [256 x i32], align 32");
        // What the image helper writes (jit/image.rs).
        let img = std::mem::size_of::<super::image::JitImage>();
        self.ir.line(&format!("%scratch_img = alloca [{img} x i8], align 8"));
        let cases: Vec<String> =
            (0..n).filter(|&i| self.leader[i] && self.reachable[i]).map(|i| format!("i32 {i}, label %b{i}")).collect();
        self.ir.line(&format!("switch i32 %pc, label %bad [ {} ]", cases.join(" ")));
        self.ir.start("bad");
        self.ir.line(&format!("ret i32 {RET_INTERP}"));
        let mut i = 0;
        while i < n {
            let end = (i + 1..=n).find(|&j| self.leader[j]).unwrap_or(n);
            // Blocks are reachable or not as a whole (they begin at every branch target
            // and after every instruction that does not fall through).
            if self.reachable[i] {
                self.block(i, end);
            }
            i = end;
        }
        // Past the last instruction: the interpreter reports it.
        self.ir.start(&format!("b{n}"));
        self.set_pc(n);
        self.ir.line(&format!("ret i32 {RET_INTERP}"));
        self.ir.out.push_str("}\n");
    }

    fn finish(self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "; softnavi: RDNA3 program translated to host code ({} lanes)", self.ir.n);
        out.push_str(&self.ir.out);
        for d in &self.ir.decls {
            out.push_str(d);
            out.push('\n');
        }
        // The code runs with denormal inputs kept or flushed (MXCSR's DAZ, as the wave's
        // MODE asks: tier.rs): LLVM must not fold float constants assuming either.
        out.push_str("attributes #0 = { \"denormal-fp-math\"=\"dynamic,dynamic\" }\n");
        // !0: rarely taken; !1: almost always taken.
        out.push_str("!0 = !{!\"branch_weights\", i32 1, i32 1000}\n");
        out.push_str("!1 = !{!\"branch_weights\", i32 1000, i32 1}\n");
        out
    }

    /// Instructions `start..end`, which form one basic block.
    fn block(&mut self, start: usize, end: usize) {
        self.ir.start(&format!("b{start}"));
        self.pending = 0;
        for idx in start..end {
            self.pending += 1;
            let inst = self.prog.insts()[idx];
            match self.classes[idx] {
                Class::Branch => return self.branch(&inst, idx),
                Class::Nop => self.inline += 1,
                Class::Wait => {
                    self.inline += 1;
                    self.wait(&inst);
                }
                Class::Alu => {
                    let mark = self.ir.out.len();
                    let block = self.ir.block.clone();
                    if self.alu(&inst).is_ok() {
                        self.inline += 1;
                    } else {
                        self.ir.out.truncate(mark);
                        self.ir.block = block;
                        self.call_out(idx);
                    }
                }
                Class::Mem => {
                    self.sync();
                    let mark = self.ir.out.len();
                    let block = self.ir.block.clone();
                    if mem::memory(&mut self.ir, &inst, idx).is_ok() {
                        self.inline += 1;
                    } else {
                        self.ir.out.truncate(mark);
                        self.ir.block = block;
                        self.call_out(idx);
                    }
                }
                Class::Callout => self.call_out(idx),
            }
        }
        self.sync();
        if self.reachable.get(end).copied().unwrap_or(true) {
            self.ir.line(&format!("br label %b{end}"));
        } else {
            // After an instruction that never falls through (s_endpgm, s_setpc, ...): its
            // call-out always leaves; the interpreter would report the fall-through.
            self.set_pc(end);
            self.ir.line(&format!("ret i32 {RET_INTERP}"));
        }
    }

    fn alu(&mut self, inst: &Inst) -> Lower {
        match inst.op.encoding() {
            Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopk | Encoding::Sopc => salu::salu(&mut self.ir, inst),
            Encoding::Vopd => {
                let pair = *self.prog.dual(inst).ok_or(NotInline)?;
                // Both halves read the state from before the instruction; Y is written
                // first, then X (the interpreter's order).
                let x = valu::valu(&mut self.ir, &pair[0])?;
                let y = valu::valu(&mut self.ir, &pair[1])?;
                valu::apply(&mut self.ir, y)?;
                valu::apply(&mut self.ir, x)
            }
            _ => {
                let effects = valu::valu(&mut self.ir, inst)?;
                valu::apply(&mut self.ir, effects)
            }
        }
    }

    /// `Wave::waitcnt`: each counter waited for drops to at most the wait's value (the
    /// model's memory is complete at once; the counters only track what is outstanding).
    fn wait(&mut self, inst: &Inst) {
        use Op::*;
        let imm = inst.imm as u32;
        // (counter, value): VM 0, VS 1, LGKM 2, EXP 3.
        let limits: Vec<(usize, u32)> = match inst.op {
            S_WAITCNT => vec![(0, imm >> 10 & 0x3f), (2, imm >> 4 & 0x3f), (3, imm & 7)],
            S_WAIT_IDLE => (0..4).map(|k| (k, 0)).collect(),
            S_WAITCNT_VMCNT => vec![(0, imm & 0xffff)],
            S_WAITCNT_VSCNT => vec![(1, imm & 0xffff)],
            S_WAITCNT_LGKMCNT => vec![(2, imm & 0xffff)],
            _ => vec![(3, imm & 0xffff)],
        };
        for (k, n) in limits {
            let off = self.ir.lay.cnt + k;
            let p = self.ir.val(&format!("getelementptr inbounds i8, ptr %w, i64 {off}"));
            let c = self.ir.val(&format!("load i8, ptr {p}, align 1"));
            let m = self.ir.call("i8", "llvm.umin.i8", &["i8", "i8"], &[&c, &(n.min(255) as u8 as i8).to_string()]);
            self.ir.line(&format!("store i8 {m}, ptr {p}, align 1"));
        }
    }

    /// Adds the block's instructions so far to the wave's counters.
    fn sync(&mut self) {
        if self.pending == 0 {
            return;
        }
        let k = self.pending;
        self.pending = 0;
        for off in [self.ir.lay.executed, self.ir.lay.translated] {
            let p = self.ir.val(&format!("getelementptr inbounds i8, ptr %w, i64 {off}"));
            let x = self.ir.val(&format!("load i64, ptr {p}, align 8"));
            let y = self.ir.val(&format!("add i64 {x}, {k}"));
            self.ir.line(&format!("store i64 {y}, ptr {p}, align 8"));
        }
    }

    fn set_pc(&mut self, pc: usize) {
        let off = self.ir.lay.pc;
        let p = self.ir.val(&format!("getelementptr inbounds i8, ptr %w, i64 {off}"));
        self.ir.line(&format!("store i64 {pc}, ptr {p}, align 8"));
    }

    /// Runs instruction `idx` in the interpreter; leaves the function unless it says to go on.
    fn call_out(&mut self, idx: usize) {
        self.sync();
        self.ir.callout(idx);
    }

    /// A branch with a decoded target: taken or not, as `Wave::branch_taken` decides. A
    /// back edge first uses one loop iteration from the budget in the environment; when
    /// it runs out, the run loop gets control (abort and host-trap checks) and re-enters
    /// at the target.
    fn branch(&mut self, inst: &Inst, idx: usize) {
        self.inline += 1;
        self.sync();
        let target = inst.imm1 as usize;
        let back = target <= idx;
        let taken = if back { format!("poll{idx}") } else { format!("b{target}") };
        if inst.op == Op::S_BRANCH {
            self.ir.line(&format!("br label %{taken}"));
        } else {
            let c = self.condition(inst.op);
            self.ir.line(&format!("br i1 {c}, label %{taken}, label %b{}", idx + 1));
        }
        if back {
            self.ir.start(&format!("poll{idx}"));
            let b = self.ir.val("load i32, ptr %env, align 4");
            let b1 = self.ir.val(&format!("sub i32 {b}, 1"));
            self.ir.line(&format!("store i32 {b1}, ptr %env, align 4"));
            let z = self.ir.val(&format!("icmp eq i32 {b1}, 0"));
            self.ir.line(&format!("br i1 {z}, label %stop{idx}, label %b{target}, !prof !0"));
            self.ir.start(&format!("stop{idx}"));
            self.set_pc(target);
            self.ir.line(&format!("ret i32 {RET_RESUME}"));
        }
    }

    fn condition(&mut self, op: Op) -> String {
        use Op::*;
        let get = |e: &mut Self| -> Result<String, NotInline> {
            Ok(match op {
                S_CBRANCH_SCC0 | S_CBRANCH_SCC1 => e.ir.scc()?,
                _ => {
                    let m = if matches!(op, S_CBRANCH_VCCZ | S_CBRANCH_VCCNZ) {
                        e.ir.mask_reg(crate::isa::decode::SGPR_VCC_LO)?
                    } else {
                        e.ir.exec()?
                    };
                    e.ir.val(&format!("icmp ne {} {m}, 0", e.ir.mi()))
                }
            })
        };
        let c = get(self).unwrap_or_else(|_| "false".into());
        match op {
            S_CBRANCH_SCC0 | S_CBRANCH_VCCZ | S_CBRANCH_EXECZ => self.ir.val(&format!("xor i1 {c}, true")),
            _ => c,
        }
    }
}
