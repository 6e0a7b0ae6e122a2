//! The wave's memory counters (VMcnt, VScnt, LGKMcnt, EXPcnt) and the debug checker
//! (`SOFTNAVI_CHECK=1`), from RDNA3-NOTES, "Memory counters and s_waitcnt",
//! "Instruction clauses" and "ALU delay hints".
//!
//! RDNA3-NOTES, "Memory counters and s_waitcnt": every memory instruction counts
//! on the counter of its group until it completes; `s_waitcnt*` waits until a counter is
//! at or below a value. Memory completes at once in this model, so the counters model
//! completion as late as the program allows: an instruction stays outstanding until a
//! wait retires it. VMcnt, VScnt and EXPcnt retire in issue order; in LGKMcnt the LDS /
//! GDS / FLAT accesses retire in order, while SMEM loads and messages may return out of
//! order (only `lgkmcnt(0)` surely retires them, the rule LLVM's SIInsertWaitcnts uses).
//!
//! The counters cost one table lookup per instruction that reaches `Wave::step` (memory
//! instructions never take the ALU fast path). The checker, when on, also sees every
//! other instruction (the fast path is skipped) and reports, as a [`FaultKind::Check`]:
//! - a register read or overwritten while a load that writes it is still outstanding;
//! - the S_CLAUSE rules (RDNA3-NOTES, "Instruction clauses");
//! - S_DELAY_ALU fields the encoding does not define (RDNA3-NOTES, "ALU delay hints").

use super::{illegal, FaultKind, Wave};
use crate::isa::decode::{mflag, Inst, Operand, SGPR_NULL};
use crate::isa::program::Program;
use crate::isa::rules::slot_ty;
use crate::isa::table::cnt::*;
use crate::isa::table::{Access, Encoding, Op, OpInfo, Ty, F};

/// Counter widths of gfx11 (s_waitcnt fields: vmcnt 15:10, lgkmcnt 9:4, expcnt 2:0;
/// vscnt SIMM16[5:0]).
const MAX: [u8; 4] = [63, 63, 63, 7];
const VM: usize = 0;
const VS: usize = 1;
const LGKM: usize = 2;
const EXP: usize = 3;

/// The counter class of `op` (0 for instructions that count on nothing): its row's
/// [`Op::counters`].
#[inline(always)]
pub(super) fn class(op: Op) -> u8 {
    op.counters()
}

/// Per-wave counter state and launch facts the hardware registers report.
#[derive(Default)]
pub struct Track {
    /// Outstanding instructions per counter: VMcnt, VScnt, LGKMcnt, EXPcnt.
    pub cnt: [u8; 4],
    /// Every instruction goes through `Wave::step` (checker on, or VGPRs released).
    pub slow: bool,
    /// s_sendmsg MSG_DEALLOC_VGPRS was sent: the wave may only end.
    pub vgprs_released: bool,
    /// HW_ID1 and HW_ID2 (s_getreg), set at launch.
    pub hw_id1: u32,
    pub hw_id2: u32,
    /// LDS_ALLOC (s_getreg), set at launch.
    pub lds_alloc: u32,
    /// The debug checker, when on.
    pub checker: Option<Box<Checker>>,
}

impl Track {
    /// Back to the launch state, keeping the checker's allocation.
    pub fn reset(&mut self) {
        self.cnt = [0; 4];
        self.vgprs_released = false;
        if let Some(c) = &mut self.checker {
            **c = Checker::new();
        }
        self.slow = self.checker.is_some();
    }

    /// Turns the debug checker on or off for the next launch.
    pub fn set_checking(&mut self, on: bool) {
        match (on, self.checker.is_some()) {
            (true, false) => self.checker = Some(Box::new(Checker::new())),
            (false, true) => self.checker = None,
            _ => {}
        }
        self.slow = on || self.vgprs_released;
    }

    /// Issues `n` counts on counter `k`; `ordered`: they complete in issue order (the
    /// checker numbers only those).
    fn count(&mut self, k: usize, n: u8, ordered: bool) {
        for _ in 0..n {
            if self.cnt[k] >= MAX[k] {
                // The counter is full: the issue waits for the oldest to complete.
                self.retire(k, (MAX[k] - 1) as u32);
            }
            self.cnt[k] += 1;
        }
        if let (Some(c), true) = (&mut self.checker, ordered) {
            c.issued[k] = c.issued[k].wrapping_add(n as u32);
        }
    }

    /// A wait for counter `k` to be at most `n`.
    fn retire(&mut self, k: usize, n: u32) {
        self.cnt[k] = self.cnt[k].min(n.min(255) as u8);
        if let Some(c) = &mut self.checker {
            c.retire(k, n);
        }
    }

    /// IB_STS as s_getreg reads it: VM_CNT 3:0 (bits 5:4 at 23:22), EXP_CNT 6:4,
    /// LGKM_CNT 11:8 (saturating), VS_CNT 31:26 (the gfx10/11 SQ_WAVE_IB_STS fields).
    pub fn ib_sts(&self) -> u32 {
        let [vm, vs, lgkm, exp] = self.cnt.map(u32::from);
        (vm & 0xf) | (vm >> 4 & 3) << 22 | (exp & 7) << 4 | lgkm.min(15) << 8 | (vs & 0x3f) << 26
    }
}

/// A register's outstanding load.
#[derive(Clone, Copy, Default)]
struct Pending {
    /// Counter + 1 (0: nothing pending); `OOO` for out-of-order LGKM.
    kind: u8,
    /// Issue number on its counter (for `OOO`: the lgkmcnt(0) epoch).
    seq: u32,
    /// Program index of the load.
    at: u32,
    /// The lanes the load writes (EXEC at its issue; all for SGPRs).
    lanes: u64,
}

const OOO: u8 = 5;
/// Pending slots: v0..v255, then s0..s127.
const SGPR_BASE: usize = 256;

/// Clause types (RDNA3-NOTES, "Instruction clauses": the main types).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum ClauseTy {
    ImageLoad,
    ImageStore,
    ImageAtomic,
    ImageSample,
    ImageBvh,
    VmemLoad,
    VmemStore,
    VmemAtomic,
    FlatLoad,
    FlatStore,
    FlatAtomic,
    Lds,
    Smem,
    Valu,
}

struct Clause {
    /// Set by the first instruction.
    ty: Option<ClauseTy>,
    /// Instructions left in the clause.
    left: u32,
    /// Instructions per group (0: one group).
    span: u32,
    /// Position in the current group, and clause-type instructions in it so far.
    pos: u32,
    typed: u32,
}

/// The debug checker's state.
pub struct Checker {
    pend: [Pending; 384],
    /// Issued and retired instructions per counter (in-order counters: an instruction with
    /// issue number `s` is complete when `s < retired`).
    issued: [u32; 4],
    retired: [u32; 4],
    /// LGKM instructions that return out of order are all complete after an lgkmcnt(0):
    /// one issued in epoch `e` is complete when `e < epoch`.
    epoch: u32,
    clause: Option<Clause>,
    /// The previous instruction was s_clause.
    after_clause: bool,
}

fn check(rule: &str, why: String) -> FaultKind {
    FaultKind::Check(format!("{rule}: {why}"))
}

const RULE_DEP: &str = "RDNA3-NOTES, \"Memory counters and s_waitcnt\"";
const RULE_CLAUSE: &str = "RDNA3-NOTES, \"Instruction clauses\"";
const RULE_DELAY: &str = "RDNA3-NOTES, \"ALU delay hints\"";

impl Checker {
    fn new() -> Checker {
        Checker {
            pend: [Pending::default(); 384],
            issued: [0; 4],
            retired: [0; 4],
            epoch: 0,
            clause: None,
            after_clause: false,
        }
    }

    fn retire(&mut self, k: usize, n: u32) {
        // At worst every out-of-order instruction completed first, so the `n` left are the
        // newest in-order ones.
        if n < self.issued[k].wrapping_sub(self.retired[k]) {
            self.retired[k] = self.issued[k].wrapping_sub(n);
        }
        if k == LGKM && n == 0 {
            self.epoch = self.epoch.wrapping_add(1);
        }
    }

    fn ready(&self, p: Pending) -> bool {
        match p.kind {
            0 => true,
            OOO => p.seq != self.epoch,
            k => (self.retired[k as usize - 1].wrapping_sub(p.seq) as i32) > 0,
        }
    }
}

fn counter_name(kind: u8) -> &'static str {
    match kind {
        1 => "VMcnt",
        2 => "VScnt",
        3 => "LGKMcnt",
        4 => "EXPcnt",
        _ => "LGKMcnt (out of order: only lgkmcnt(0) retires it)",
    }
}

fn reg_name(slot: usize) -> String {
    if slot < SGPR_BASE {
        format!("v{slot}")
    } else {
        format!("s{}", slot - SGPR_BASE)
    }
}

/// Up to 8 register operands of an instruction: (operand, registers, written).
struct Regs {
    n: usize,
    r: [(Operand, u32, bool); 8],
}

impl Regs {
    fn push(&mut self, o: Operand, n: u32, write: bool) {
        // A slot without a type holds no operand (the decoder may leave a field's
        // register there).
        if n > 0 && matches!(o, Operand::Vgpr(_) | Operand::Sgpr(_)) && self.n < 8 {
            self.r[self.n] = (o, n, write);
            self.n += 1;
        }
    }
}

/// The registers of the MIMG instructions the executor runs (exec/image.rs, exec/sample.rs):
/// the data (dmask's components, gather4's four, two per register with D16; loads add the
/// TFE status register; atomics read theirs and, with GLC, write the first half back), the
/// address (the dim's coordinates and the mip level, or a sampling form's operands, two per
/// register with A16; with NSA one register each), the T# and the S#.
fn mimg_regs(r: &mut Regs, i: &Inst) {
    use crate::isa::decode::mimg;
    let sampling = super::sample::executes(i.op);
    let gather = i.op.name().starts_with("image_gather4");
    let n = if gather || i.op == Op::IMAGE_MSAA_LOAD { 4 } else { (i.imm & mimg::DMASK).count_ones() };
    let data = if i.imm & mimg::D16 != 0 { n.div_ceil(2) } else { n };
    let tfe = (i.flags & mflag::TFE != 0) as u32;
    let mip = match i.op {
        Op::IMAGE_LOAD | Op::IMAGE_LOAD_MIP | Op::IMAGE_MSAA_LOAD | Op::IMAGE_GET_RESINFO => {
            r.push(i.dst, data + tfe, true);
            i.op == Op::IMAGE_LOAD_MIP
        }
        Op::IMAGE_STORE | Op::IMAGE_STORE_MIP => {
            r.push(i.dst, data, false);
            i.op == Op::IMAGE_STORE_MIP
        }
        _ if i.op.mem().is_some_and(|m| m.rmw.is_some()) => {
            r.push(i.dst, data, false);
            if i.flags & mflag::GLC != 0 {
                let cmpswap = i.op == Op::IMAGE_ATOMIC_CMPSWAP;
                r.push(i.dst, if cmpswap { data / 2 } else { data }, true);
            }
            false
        }
        _ if sampling => {
            r.push(i.dst, data + tfe, true);
            false
        }
        Op::IMAGE_BVH_INTERSECT_RAY | Op::IMAGE_BVH64_INTERSECT_RAY => return bvh_regs(r, i),
        _ => return,
    };
    let dim = (i.imm >> mimg::DIM_SHIFT & 7) as usize;
    let a16 = i.imm & mimg::A16 != 0;
    let addr = if sampling {
        super::sample::addr_count(i.op, dim, a16)
    } else {
        let comps = if i.op == Op::IMAGE_GET_RESINFO {
            1
        } else {
            super::image::COORDS.get(dim).map_or(0, |c| c + mip as usize)
        };
        if a16 {
            comps.div_ceil(2)
        } else {
            comps
        }
    };
    if i.imm & mimg::NSA != 0 {
        r.push(i.src[0], 1, false);
        for k in 1..addr {
            if let Some(v) = super::image::mimg_addr_reg(i, k) {
                r.push(Operand::Vgpr(v), 1, false);
            }
        }
    } else {
        r.push(i.src[0], addr as u32, false);
    }
    r.push(i.src[1], if i.imm & mimg::R128 != 0 { 4 } else { 8 }, false);
    if sampling {
        r.push(i.src[2], 4, false);
    }
}

/// The registers of a ray intersection (exec/bvh.rs): four result dwords, the address
/// groups (consecutive, or with NSA each group at its own register) and the 4-dword T#.
fn bvh_regs(r: &mut Regs, i: &Inst) {
    use crate::isa::decode::mimg;
    r.push(i.dst, 4, true);
    let a16 = i.imm & mimg::A16 != 0;
    let sizes = &mimg::BVH_SLOTS[(i.op == Op::IMAGE_BVH64_INTERSECT_RAY) as usize][..5 - a16 as usize];
    if i.imm & mimg::NSA != 0 {
        for (g, &n) in sizes.iter().enumerate() {
            if let Some(v) = super::bvh::addr_reg(i, g, 0) {
                r.push(Operand::Vgpr(v), n as u32, false);
            }
        }
    } else {
        r.push(i.src[0], sizes.iter().map(|&n| n as u32).sum(), false);
    }
    r.push(i.src[1], 4, false);
}

/// The register operands of `i` with the widths its encoding gives each slot (as the
/// decoder's tuple check reads them).
fn regs(i: &Inst, wave64: bool) -> Regs {
    let mut r = Regs { n: 0, r: [(Operand::None, 0, false); 8] };
    let info = i.op.info();
    let t = info.ty;
    let n = |ty: Ty| ty.dwords(wave64);
    let tfe = (i.flags & mflag::TFE != 0) as u32;
    match info.enc {
        Encoding::Smem => {
            r.push(i.dst, n(t[0]), true);
            r.push(i.src[0], n(t[1]), false);
            r.push(i.src[1], 1, false);
        }
        Encoding::Ds => {
            r.push(i.dst, n(t[0]), true);
            r.push(i.src[0], 1, false);
            r.push(i.src[1], n(t[2]), false);
            r.push(i.src[2], n(t[3]), false);
        }
        Encoding::Mubuf | Encoding::Mtbuf => {
            let both = i.flags & (mflag::IDXEN | mflag::OFFEN) == mflag::IDXEN | mflag::OFFEN;
            if returns_data(info, i) {
                r.push(i.dst, n(t[0]) + tfe, true);
            }
            r.push(i.src[0], 1 + both as u32, false);
            // The data field is read by stores and atomics only (a load's is not used).
            if writes_memory(info) {
                r.push(i.src[1], n(t[0]).max(n(t[1])), false);
            }
            r.push(i.src[2], 4, false);
            r.push(i.src[3], 1, false);
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            let atomic = info.flags & F::ATOMIC != 0;
            let addr = if info.enc != Encoding::Scratch && i.src[2] == Operand::None { 2 } else { 1 };
            if returns_data(info, i) {
                r.push(i.dst, n(t[0]), true);
            }
            r.push(i.src[0], addr, false);
            if writes_memory(info) {
                r.push(i.src[1], if atomic { n(t[1]) } else { n(t[0]) }, false);
            }
            r.push(i.src[2], if info.enc == Encoding::Global { 2 } else { 1 }, false);
        }
        Encoding::Mimg => mimg_regs(&mut r, i),
        // Not executed (graphics-only): no operand reaches a register here.
        Encoding::Exp | Encoding::Vinterp | Encoding::Ldsdir | Encoding::Vopd => {}
        _ => {
            let k = |s: usize| n(slot_ty(i.op, s, wave64));
            r.push(i.dst, k(0), true);
            r.push(i.sdst, Ty::Mask.dwords(wave64), true);
            for s in 0..3 {
                r.push(i.src[s], k(s + 1), false);
            }
            if info.enc == Encoding::Sopk {
                // s_setreg reads the SGPR of its sdst field.
                r.push(i.src[0], 1, false);
            }
        }
    }
    r
}

/// The access of a vector memory instruction (`None` for the others).
fn access(info: &OpInfo) -> Access {
    match info.kind {
        crate::isa::table::Kind::Mem(m) => m.access,
        _ => Access::None,
    }
}

/// Whether a vector memory instruction reads its data operand: stores and atomics.
fn writes_memory(info: &OpInfo) -> bool {
    matches!(access(info), Access::Store | Access::Atomic)
}

/// Whether a vector memory instruction writes its VDST: loads, and atomics with GLC (a
/// store's vdst field is unused, and LLVM encodes v0 there).
fn returns_data(info: &OpInfo, i: &Inst) -> bool {
    match access(info) {
        Access::Atomic => i.flags & mflag::GLC != 0,
        a => a != Access::Store,
    }
}

/// The slots of register operand `o` of `n` registers (NULL and past-the-file excluded).
fn slots(o: Operand, n: u32) -> std::ops::Range<usize> {
    match o {
        Operand::Vgpr(v) => (v as usize).min(256)..(v as usize + n as usize).min(256),
        Operand::Sgpr(s) if s == SGPR_NULL => 0..0,
        Operand::Sgpr(s) => {
            let s = if n >= 2 { s & !1 } else { s } as usize;
            SGPR_BASE + s.min(128)..SGPR_BASE + (s + n as usize).min(128)
        }
        _ => 0..0,
    }
}

fn clause_type(i: &Inst, cls: u8) -> Option<ClauseTy> {
    let info = i.op.info();
    let rmw = cls & C_RMW != 0;
    let store = cls & C_VS != 0;
    Some(match info.enc {
        Encoding::Vop1
        | Encoding::Vop2
        | Encoding::Vopc
        | Encoding::Vop3
        | Encoding::Vop3p
        | Encoding::Vopd
        | Encoding::Vinterp => ClauseTy::Valu,
        Encoding::Smem => ClauseTy::Smem,
        // GDS / GWS may not be in a clause.
        Encoding::Ds if info.flags & F::GDS != 0 || i.flags & mflag::GDS != 0 => return None,
        Encoding::Ds => ClauseTy::Lds,
        Encoding::Mubuf | Encoding::Mtbuf | Encoding::Global | Encoding::Scratch => match () {
            _ if rmw => ClauseTy::VmemAtomic,
            _ if store => ClauseTy::VmemStore,
            _ => ClauseTy::VmemLoad,
        },
        Encoding::Flat => match () {
            _ if rmw => ClauseTy::FlatAtomic,
            _ if store => ClauseTy::FlatStore,
            _ => ClauseTy::FlatLoad,
        },
        Encoding::Mimg => match () {
            _ if access(info) == Access::Bvh => ClauseTy::ImageBvh,
            _ if access(info) == Access::Sample => ClauseTy::ImageSample,
            _ if rmw => ClauseTy::ImageAtomic,
            _ if store => ClauseTy::ImageStore,
            _ => ClauseTy::ImageLoad,
        },
        _ => return None,
    })
}

/// Vector instructions: they need the wave's VGPRs.
fn vector(enc: Encoding) -> bool {
    !matches!(enc, Encoding::Sop1 | Encoding::Sop2 | Encoding::Sopc | Encoding::Sopk | Encoding::Sopp | Encoding::Smem)
}

impl Wave {
    /// Counts `inst` on its counters and, with the checker on, checks it first. Called at
    /// the top of `step()` for instructions with a counter class or when `track.slow`.
    /// Kept out of line, away from the ALU loop's code.
    #[inline(never)]
    pub(super) fn track_inst(&mut self, inst: &Inst, cls: u8, idx: usize, prog: &Program) -> Result<(), FaultKind> {
        if self.track.vgprs_released {
            let uses = vector(inst.op.info().enc)
                || regs(inst, self.wave64()).r.iter().any(|r| matches!(r.0, Operand::Vgpr(_)));
            if uses {
                return Err(illegal(format!(
                    "{} uses VGPRs after s_sendmsg sendmsg(MSG_DEALLOC_VGPRS) released them (RDNA3-NOTES, \"Messages\": after it the wave may only end)",
                    inst.op.name()
                )));
            }
        }
        // The counter effect: atomics return data (VMcnt) only with GLC.
        let cls =
            if cls & C_RMW != 0 { cls | if inst.flags & mflag::GLC != 0 { C_VM | C_LOAD } else { C_VS } } else { cls };
        if let Some(mut ck) = self.track.checker.take() {
            let r = self.check_inst(&mut ck, inst, cls, idx, prog);
            self.track.checker = Some(ck);
            r?;
        }
        if cls & C_VM != 0 {
            self.track.count(VM, 1, true);
        }
        if cls & C_VS != 0 {
            self.track.count(VS, 1, true);
        }
        if cls & C_LGKM != 0 {
            self.track.count(LGKM, 1, true);
        }
        if cls & C_LGKM_OOO != 0 {
            self.track.count(LGKM, 1 + (cls & C_TWICE != 0) as u8, false);
        }
        if cls & C_EXP != 0 {
            self.track.count(EXP, 1, true);
        }
        Ok(())
    }

    /// s_waitcnt, s_waitcnt_{vs,vm,exp,lgkm}cnt, s_wait_idle: retires what the wait waits for.
    /// s_waitcnt_depctr waits on ALU and VMEM-source dependency counters, which are always
    /// satisfied here: it retires no memory counter.
    #[inline(never)]
    pub(super) fn waitcnt(&mut self, inst: &Inst) {
        use crate::isa::table::Op::{
            S_WAITCNT, S_WAITCNT_EXPCNT, S_WAITCNT_LGKMCNT, S_WAITCNT_VMCNT, S_WAITCNT_VSCNT, S_WAIT_IDLE,
        };
        // The SOPK forms wait for SGPR[SDST] + SIMM16 (LLVM only writes NULL there); the
        // larger of the two readings retires less, the safe side for the checker.
        let sopk = || (self.s32(&inst.dst) as u64 + (inst.imm as u32 & 0xffff) as u64).min(u32::MAX as u64) as u32;
        match inst.op {
            S_WAITCNT => {
                let imm = inst.imm as u32;
                self.track.retire(VM, imm >> 10 & 0x3f);
                self.track.retire(LGKM, imm >> 4 & 0x3f);
                self.track.retire(EXP, imm & 7);
            }
            S_WAITCNT_VMCNT => {
                let n = sopk();
                self.track.retire(VM, n)
            }
            S_WAITCNT_VSCNT => {
                let n = sopk();
                self.track.retire(VS, n)
            }
            S_WAITCNT_LGKMCNT => {
                let n = sopk();
                self.track.retire(LGKM, n)
            }
            S_WAITCNT_EXPCNT => {
                let n = sopk();
                self.track.retire(EXP, n)
            }
            S_WAIT_IDLE => {
                for k in 0..4 {
                    self.track.retire(k, 0);
                }
            }
            _ => {}
        }
    }

    fn check_inst(&self, ck: &mut Checker, inst: &Inst, cls: u8, idx: usize, prog: &Program) -> Result<(), FaultKind> {
        self.check_clause(ck, inst, cls)?;
        if inst.op == Op::S_DELAY_ALU {
            check_delay_alu(inst.imm as u32 & 0xffff)?;
        }
        // Registers: VOPD's halves, or the instruction's own operands.
        let wave64 = self.wave64();
        let halves;
        let mut list = std::slice::from_ref(inst);
        if inst.op.info().enc == Encoding::Vopd {
            if let Some(p) = prog.dual(inst) {
                halves = *p;
                list = &halves;
            }
        }
        // The kind a load of this instruction leaves on its destination. A FLAT load counts
        // on VMcnt and LGKMcnt; its data is taken as ready when VMcnt retires it (the
        // memory it reaches in nearly every program; LLVM waits on vmcnt for FLAT loads it
        // knows are global and on both otherwise). Implicit operands (VCC of v_cndmask and
        // carries, EXEC, M0) are not checked: SMEM loads into them are not expected.
        let load_kind = if cls & C_LOAD == 0 {
            0
        } else if cls & C_VM != 0 {
            VM as u8 + 1
        } else if cls & C_EXP != 0 {
            EXP as u8 + 1
        } else if cls & C_LGKM_OOO != 0 {
            OOO
        } else {
            LGKM as u8 + 1
        };
        for part in list {
            let rs = regs(part, wave64);
            for &(o, n, write) in &rs.r[..rs.n] {
                for s in slots(o, n) {
                    let p = ck.pend[s];
                    if ck.ready(p) {
                        continue;
                    }
                    // A later load on the same in-order counter may overwrite: it completes
                    // after the earlier one.
                    if write && load_kind == p.kind && p.kind != OOO {
                        continue;
                    }
                    // A write to other lanes than the load's (the other arm of an if/else,
                    // which ACO schedules before the load's wait) does not race with it.
                    if write && s < SGPR_BASE && p.lanes & self.exec() == 0 {
                        continue;
                    }
                    return Err(check(
                        RULE_DEP,
                        format!(
                            "{} is {} while the load at {:#x} ({}) that writes it is outstanding: no s_waitcnt retired it",
                            reg_name(s),
                            if write { "overwritten" } else { "read" },
                            prog.addr(p.at as usize),
                            counter_name(p.kind),
                        ),
                    ));
                }
            }
        }
        if load_kind != 0 {
            let seq = if load_kind == OOO { ck.epoch } else { ck.issued[load_kind as usize - 1] };
            let rs = regs(inst, wave64);
            let exec = self.exec();
            for &(o, n, write) in &rs.r[..rs.n] {
                // A vector load issued with EXEC = 0 returns no data: its VGPRs stay free.
                let vgpr = matches!(o, Operand::Vgpr(_));
                if write && !(vgpr && exec == 0) {
                    for s in slots(o, n) {
                        let lanes = if vgpr { exec } else { !0 };
                        ck.pend[s] = Pending { kind: load_kind, seq, at: idx as u32, lanes };
                    }
                }
            }
        }
        Ok(())
    }

    /// RDNA3-NOTES, "Instruction clauses": S_CLAUSE's length and break encoding, one clause
    /// type, the instructions not allowed inside, groups of at least two clause-type
    /// instructions.
    fn check_clause(&self, ck: &mut Checker, inst: &Inst, cls: u8) -> Result<(), FaultKind> {
        let op = inst.op;
        let after_clause = std::mem::replace(&mut ck.after_clause, op == Op::S_CLAUSE);
        let inside_ok = matches!(op, Op::S_NOP | Op::S_SLEEP | Op::S_DELAY_ALU);
        let Some(c) = &mut ck.clause else {
            if op == Op::S_CLAUSE {
                let imm = inst.imm as u32 & 0xffff;
                // SIMM16[5:0]: the clause length minus one; SIMM16[11:8]: instructions
                // between breaks (0: none). Other bits are not defined.
                if imm & !0xf3f != 0 {
                    return Err(check(RULE_CLAUSE, format!("s_clause {imm:#x} sets bits outside [5:0] and [11:8]")));
                }
                let len = (imm & 0x3f) + 1;
                if len < 2 {
                    return Err(check(
                        RULE_CLAUSE,
                        "s_clause 0x0: a clause of one instruction (each group needs at least two clause-type instructions)"
                            .into(),
                    ));
                }
                ck.clause = Some(Clause { ty: None, left: len, span: imm >> 8 & 0xf, pos: 0, typed: 0 });
            }
            return Ok(());
        };
        let name = op.name();
        let ct = clause_type(inst, cls);
        if c.pos == 0 && ct.is_none() {
            if after_clause && op == Op::S_DELAY_ALU {
                return Err(check(
                    RULE_CLAUSE,
                    "s_delay_alu immediately after s_clause (the instruction after s_clause declares the clause type; put s_delay_alu before s_clause)".into(),
                ));
            }
            let what = if inside_ok {
                "may be inside a clause but not first in it or in a group"
            } else {
                "is not allowed inside a clause"
            };
            return Err(check(RULE_CLAUSE, format!("{name} {what}")));
        }
        if c.ty.is_none() {
            // RDNA3-NOTES, "Instruction clauses": a first instruction skipped (EXEC==0; a
            // VMEM load also needs VMcnt==0) starts no clause; the rest execute singly.
            let exec0 = self.exec() == 0;
            let skipped = match ct {
                Some(ClauseTy::Valu) => exec0,
                Some(ClauseTy::VmemLoad | ClauseTy::FlatLoad) => exec0 && self.track.cnt[VM] == 0,
                _ => false,
            };
            if skipped {
                ck.clause = None;
                return Ok(());
            }
            c.ty = ct;
        }
        match ct {
            Some(t) if Some(t) == c.ty => c.typed += 1,
            Some(t) => {
                // c.ty is set: a clause's first instruction is of a clause type (above).
                let ty = c.ty.unwrap_or(t);
                return Err(check(
                    RULE_CLAUSE,
                    format!("{name} ({t:?}) in a clause of type {ty:?} (a clause holds one type of instruction)"),
                ));
            }
            None if op == Op::S_DELAY_ALU && c.ty == Some(ClauseTy::Valu) => {
                return Err(check(RULE_CLAUSE, "s_delay_alu inside a VALU clause".into()))
            }
            None if inside_ok => {}
            None => return Err(check(RULE_CLAUSE, format!("{name} is not allowed inside a clause"))),
        }
        c.pos += 1;
        c.left -= 1;
        if c.left == 0 || c.pos == c.span {
            if c.typed < 2 {
                return Err(check(
                    RULE_CLAUSE,
                    format!(
                        "a clause group with {} clause-type instruction(s): each group needs at least two",
                        c.typed
                    ),
                ));
            }
            c.pos = 0;
            c.typed = 0;
        }
        if c.left == 0 {
            ck.clause = None;
        }
        Ok(())
    }
}

/// RDNA3-NOTES, "ALU delay hints": s_delay_alu is InstID0 [3:0], Skip [6:4], InstID1
/// [10:7]. InstIDs 0-11 are defined (NO_DEP, VALU_DEP_1-4, TRANS32_DEP_1-3,
/// FMA_ACCUM_CYCLE_1, SALU_CYCLE_1-3), skips 0-5 (SAME, NEXT, SKIP_1-4); bits 15:11 are not
/// defined.
fn check_delay_alu(imm: u32) -> Result<(), FaultKind> {
    let (id0, skip, id1) = (imm & 0xf, imm >> 4 & 7, imm >> 7 & 0xf);
    let bad = if id0 > 11 {
        format!("instid0 {id0} is reserved")
    } else if skip > 5 {
        format!("instskip {skip} is reserved")
    } else if id1 > 11 {
        format!("instid1 {id1} is reserved")
    } else if imm >> 11 != 0 {
        "bits 15:11 are set".to_string()
    } else {
        return Ok(());
    };
    Err(check(RULE_DELAY, format!("s_delay_alu {imm:#x}: {bad}")))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_follow_seed_001_counter_groups() {
        assert_eq!(class(Op::GLOBAL_LOAD_B32), C_VM | C_LOAD);
        assert_eq!(class(Op::GLOBAL_STORE_B32), C_VS);
        assert_eq!(class(Op::FLAT_LOAD_B32), C_VM | C_LOAD | C_LGKM);
        assert_eq!(class(Op::DS_LOAD_B32), C_LGKM | C_LOAD);
        assert_eq!(class(Op::DS_STORE_B32), C_LGKM);
        assert_eq!(class(Op::S_LOAD_B32), C_LGKM_OOO | C_LOAD);
        assert_eq!(class(Op::S_SENDMSG_RTN_B64), C_LGKM_OOO | C_TWICE | C_LOAD);
        assert_eq!(class(Op::BUFFER_ATOMIC_ADD_U32), C_RMW);
        assert_eq!(class(Op::BUFFER_GL0_INV), 0);
        assert_eq!(class(Op::V_ADD_F32), 0);
    }

    #[test]
    fn delay_alu_fields() {
        assert!(check_delay_alu(0x591).is_ok());
        assert!(check_delay_alu(0x257).is_ok());
        assert!(check_delay_alu(0xc).is_err());
        assert!(check_delay_alu(0x60).is_err());
        assert!(check_delay_alu(0x600).is_err());
        assert!(check_delay_alu(0x800).is_err());
    }

    #[test]
    fn in_order_retirement() {
        let mut t = Track::default();
        t.set_checking(true);
        t.count(VM, 1, true);
        t.count(VM, 1, true);
        t.retire(VM, 1);
        let c = t.checker.as_ref().unwrap();
        assert!(c.ready(Pending { kind: 1, seq: 0, at: 0, lanes: !0 }));
        assert!(!c.ready(Pending { kind: 1, seq: 1, at: 0, lanes: !0 }));
        assert_eq!(t.cnt[VM], 1);
    }
}
