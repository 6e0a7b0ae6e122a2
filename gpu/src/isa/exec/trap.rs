//! Traps: entering the trap handler (user `s_trap`, exceptions, host-initiated traps, trap
//! on wave start / end, trap after instruction) and the detection of the MODE.EXCP_EN
//! floating-point exceptions.
//!
//! RDNA3-NOTES, "Traps": on a trap the hardware loads
//! `{TTMP1, TTMP0} = {7'h0, HT[0], trapID[7:0], PC[47:0]}`, sets STATUS.PRIV and jumps to
//! TBA; `s_rfe_b64` clears PRIV and jumps back. With STATUS.TRAP_EN = 0 every trap is
//! ignored. The trap handler is its own decoded [`Program`](super::super::program::Program)
//! at TBA; a wave runs either the kernel or the handler program ([`Wave::in_handler`]).
//!
//! Decisions where the sources are silent:
//! - A trap condition while STATUS.PRIV = 1 (in the handler, or a kernel launched with
//!   RSRC1.PRIV) is not taken: `s_trap` is a NOP, a host trap stays pending until PRIV is
//!   clear, float exceptions only accumulate in TRAPSTS, and MEMVIOL / illegal instruction
//!   are device-lost reports (they cannot be masked and cannot nest).
//! - TRAP_EN = 1 with no handler installed (TBA = 0): a trap is a fault report naming that.
//! - An exception's TTMP PC is that of the faulting instruction, whose results are not
//!   written (a global atomic's lanes before the misaligned one have done their atomics); a float exception's is that of the next instruction (the
//!   excepting instruction completed, as the hardware reports float exceptions after the
//!   result); a host trap's and trap-after-instruction's the next instruction to execute.
//! - Forms softnavi does not support (`FaultKind::Unsupported`: modifier combinations,
//!   messages, registers and encodings it leaves out) stay device-lost reports: they are a
//!   limit of this model, not of the program, and a handler skipping them would hide that.
//! - VM faults (an address outside every mapping) go to the kernel driver on hardware, not
//!   to the wave's trap handler: they stay device-lost reports.

use super::{FaultKind, Operand, Wave, STATUS_PRIV};
use crate::isa::decode::{Inst, SGPR_TTMP0};
use crate::isa::table::{Encoding, Op, Ty};
use crate::spi::{mode, status};

/// The traps paragraph of docs/ISA.md (table.rs's `coverage_markdown` includes it).
pub(crate) const COVERAGE_NOTES: &str = "\
Traps: a trap handler is installed with `Device::set_trap_handler(tba, tma)` and used by\n\
dispatches with RSRC2.TRAP_PRESENT. s_trap, MEMVIOL, illegal instructions, host traps\n\
(`Device::host_trap`), RSRC3.TRAP_ON_START / TRAP_ON_END, MODE.TRAP_AFTER_INST_EN and\n\
the MODE.EXCP_EN float exceptions enter it (TTMP0/1 = PC, trap id, HT; STATUS.PRIV);\n\
s_rfe_b64 returns. Float exceptions are detected from the results of f32 and f64 VOP1 /\n\
VOP2 / VOP3 / VOPC instructions (not DPP, not VOPD halves, not the division helpers\n\
v_div_scale / v_div_fmas / v_div_fixup, whose sequence's v_rcp reports divide by zero):\n\
input denormal (any float source), invalid (NaN result from non-NaN sources), divide by\n\
zero (infinite v_rcp / v_rsq / v_log / v_rcp_iflag result from a zero source), overflow\n\
(other infinite results from finite sources), underflow (nonzero denormal results;\n\
inexact results of the exactly recomputed operations whose exact value is below the\n\
smallest normal), inexact (v_add / v_sub / v_subrev / v_mul / v_fma / v_fmac / v_fmamk /\n\
v_fmaak f32, v_add_f64, v_mul_f64 and v_cvt_f32_i32 / u32 without clamp or omod, by\n\
exact recomputation). Not detected: inexact of every other opcode (rcp, sqrt, exp, log,\n\
trig, fma_f64, conversions, ...), invalid of comparisons and of float-to-integer\n\
conversions, every exception of f16, packed (VOP3P), DPP and VOPD instructions, integer\n\
divide by zero (gfx11 has no integer divide) and address watch (no watch registers). The\n\
detection runs only while MODE.EXCP_EN has a float bit or TRAP_AFTER_INST_EN set, or the\n\
program reads TRAPSTS.\n\n";

/// TRAPSTS bits (gfx11 `SQ_WAVE_TRAPSTS`).
pub(crate) mod trapsts {
    /// EXCP[8:0]: invalid, input denormal, divide by zero, overflow, underflow, inexact,
    /// integer divide by zero, address watch, memory violation.
    pub const INVALID: u32 = 1 << 0;
    pub const DENORM: u32 = 1 << 1;
    pub const DIV0: u32 = 1 << 2;
    pub const OVERFLOW: u32 = 1 << 3;
    pub const UNDERFLOW: u32 = 1 << 4;
    pub const INEXACT: u32 = 1 << 5;
    pub const MEMVIOL: u32 = 1 << 8;
    pub const ILLEGAL_INST: u32 = 1 << 11;
    pub const HOST_TRAP: u32 = 1 << 16;
    pub const WAVESTART: u32 = 1 << 17;
    pub const WAVE_END: u32 = 1 << 18;
    pub const TRAP_AFTER_INST: u32 = 1 << 20;
}

/// MODE.TRAP_AFTER_INST_EN.
pub(crate) const MODE_TRAP_AFTER_INST: u32 = 1 << 11;
/// MODE.EXCP_EN bits of the float exceptions softnavi detects (invalid .. inexact).
pub(crate) const MODE_FP_EXCP: u32 = 0x3f << mode::EXCP_EN;
/// MODE bits that make the run loop take its checking path.
pub(crate) const MODE_CHECKED: u32 = MODE_TRAP_AFTER_INST | MODE_FP_EXCP;

/// Why and where a wave enters its trap handler.
#[derive(Clone, Copy, Debug)]
pub(crate) struct TrapCause {
    /// The byte PC saved in TTMP0/1.
    pub pc: u64,
    /// simm16[7:0] of s_trap, 0 otherwise.
    pub id: u8,
    /// Host-initiated.
    pub host: bool,
    /// TRAPSTS bits to set.
    pub bits: u32,
}

/// Per-lane float sources of a VALU instruction (f32 bits, or f64 bits when `wide`), read
/// before it executes.
pub(crate) struct FpBefore {
    srcs: [[u64; 64]; 3],
    nsrc: usize,
    /// f64 sources and result.
    wide: bool,
    /// The source is an integer (v_cvt_f32_i32 / u32): no denormal check.
    int_src: bool,
    exec: u64,
}

/// A float's value (exact, as f64) and whether it is denormal, from its bits.
fn class(bits: u64, wide: bool) -> (f64, bool) {
    if wide {
        (f64::from_bits(bits), bits & 0x7ff0_0000_0000_0000 == 0 && bits & 0x000f_ffff_ffff_ffff != 0)
    } else {
        let x = bits as u32;
        (f32::from_bits(x) as f64, x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0)
    }
}

impl Wave {
    pub(crate) fn trap_enabled(&self) -> bool {
        self.status & 1 << status::TRAP_EN != 0
    }

    pub(crate) fn privileged(&self) -> bool {
        self.status & STATUS_PRIV != 0
    }

    /// Whether a trap is taken now (TRAP_EN set, not privileged).
    pub(crate) fn can_trap(&self) -> bool {
        self.trap_enabled() && !self.privileged()
    }

    /// Enters the trap handler: TTMP0/1 get the PC, trap id and HT; TRAPSTS gets the
    /// cause's bits; STATUS.PRIV is set; the wave continues at the handler's first
    /// instruction (TBA). `Err` when no handler is installed.
    pub(crate) fn enter_trap(&mut self, c: TrapCause, has_handler: bool) -> Result<(), FaultKind> {
        if !has_handler {
            return Err(FaultKind::IllegalInstruction(format!(
                "trap (id {}{}) with STATUS.TRAP_EN set but no trap handler installed (TBA = 0)",
                c.id,
                if c.host { ", host-initiated" } else { "" }
            )));
        }
        let t = SGPR_TTMP0 as usize;
        self.sgpr[t] = c.pc as u32;
        self.sgpr[t + 1] = (c.pc >> 32) as u32 & 0xffff | (c.id as u32) << 16 | (c.host as u32) << 24;
        self.trapsts |= c.bits;
        self.status |= STATUS_PRIV;
        self.in_handler = true;
        self.pc = 0;
        Ok(())
    }

    /// The TRAPSTS bits of a fault that enters the trap handler (MEMVIOL, illegal
    /// instruction), or `None` for one that stays a device-lost report.
    pub(crate) fn exception_bits(kind: &FaultKind) -> Option<u32> {
        match kind {
            FaultKind::MemoryViolation(_) => Some(trapsts::MEMVIOL),
            FaultKind::IllegalInstruction(_) => Some(trapsts::ILLEGAL_INST),
            _ => None,
        }
    }

    /// Reads the float sources of `inst` if it is an f32 or f64 VALU instruction whose
    /// float exceptions are detected (VOP1, VOP2, VOP3 and VOPC without DPP; not VOPD
    /// halves, not the division helpers, whose infinities and NaNs are by design: the
    /// v_rcp of the division sequence reports divide by zero).
    pub(crate) fn fp_before(&self, inst: &Inst) -> Option<FpBefore> {
        use Op::*;
        let info = inst.op.info();
        if !matches!(info.enc, Encoding::Vop1 | Encoding::Vop2 | Encoding::Vop3 | Encoding::Vopc)
            || inst.form.is_dpp()
            || matches!(
                inst.op,
                V_DIV_FIXUP_F32
                    | V_DIV_FMAS_F32
                    | V_DIV_SCALE_F32
                    | V_DIV_FIXUP_F64
                    | V_DIV_FMAS_F64
                    | V_DIV_SCALE_F64
                    | V_CVT_F32_UBYTE0
                    | V_CVT_F32_UBYTE1
                    | V_CVT_F32_UBYTE2
                    | V_CVT_F32_UBYTE3
            )
        {
            return None;
        }
        let int_src = matches!(inst.op, V_CVT_F32_I32 | V_CVT_F32_U32);
        let wide = info.ty[1] == Ty::F64;
        let fty = if wide { Ty::F64 } else { Ty::F32 };
        let nsrc = match inst.op {
            _ if int_src => 1,
            V_FMAC_F32 => 3,
            _ => info.ty[1..].iter().take_while(|t| **t == fty).count(),
        };
        if nsrc == 0 {
            return None;
        }
        let mut b = FpBefore { srcs: [[0; 64]; 3], nsrc: 0, wide, int_src, exec: self.exec() };
        let sign = if wide { 1u64 << 63 } else { 1 << 31 };
        for (k, op) in fp_sources(inst).iter().take(nsrc).enumerate() {
            if matches!(op, Operand::None) {
                break;
            }
            let mut v = if wide { self.vsrc64(op) } else { self.vsrc(op).map(|x| x as u64) };
            let (neg, abs) = if int_src { (false, false) } else { (inst.neg >> k & 1 != 0, inst.abs >> k & 1 != 0) };
            for x in v.iter_mut() {
                if abs {
                    *x &= !sign;
                }
                if neg {
                    *x ^= sign;
                }
            }
            b.srcs[k] = v;
            b.nsrc = k + 1;
        }
        Some(b)
    }

    /// The float exceptions (TRAPSTS.EXCP bits) `inst` raised, from its sources read by
    /// [`Wave::fp_before`] and its results now in the register file.
    ///
    /// Detected, per active lane: input denormal (a denormal source); invalid (a NaN
    /// result from non-NaN sources); divide by zero (an infinite result of v_rcp / v_rsq /
    /// v_log / v_rcp_iflag from a zero source); overflow (any other infinite result from
    /// finite sources; also inexact); underflow (a nonzero denormal result, or for the
    /// exactly recomputed operations an inexact result whose exact value is below the
    /// smallest normal); inexact by exact recomputation for v_add / v_sub / v_subrev /
    /// v_mul / v_fma / v_fmac / v_fmamk / v_fmaak f32, v_cvt_f32_i32 / u32, v_add_f64 and
    /// v_mul_f64, without output modifiers. Nothing else is detected: see docs/ISA.md.
    pub(crate) fn fp_after(&self, inst: &Inst, b: &FpBefore) -> u32 {
        use Op::*;
        let info = inst.op.info();
        let wide = b.wide;
        let mut bits = 0u32;
        let lanes = self.lanes;
        let nsrc = if b.int_src { 0 } else { b.nsrc };
        for k in 0..nsrc {
            for l in 0..lanes {
                if b.exec >> l & 1 != 0 && class(b.srcs[k][l], wide).1 {
                    bits |= trapsts::DENORM;
                }
            }
        }
        // Results: only a float VGPR destination of the sources' width.
        let Operand::Vgpr(d) = inst.dst else { return bits };
        if info.ty[0] != (if wide { Ty::F64 } else { Ty::F32 }) || info.enc == Encoding::Vopc {
            return bits;
        }
        let (lo, hi) = (self.v(d as usize), self.v(d as usize + 1));
        let div0_op = matches!(inst.op, V_RCP_F32 | V_RSQ_F32 | V_LOG_F32 | V_RCP_IFLAG_F32 | V_RCP_F64 | V_RSQ_F64);
        let plain = inst.omod == 0 && !inst.clamp;
        let exact_op = plain
            && matches!(
                inst.op,
                V_ADD_F32 | V_SUB_F32 | V_SUBREV_F32 | V_MUL_F32 | V_FMA_F32 | V_FMAC_F32 | V_FMAMK_F32 | V_FMAAK_F32
            );
        let exact64_op = plain && matches!(inst.op, V_ADD_F64 | V_MUL_F64);
        let cvt_op = plain && b.int_src;
        let min_normal = if wide { f64::MIN_POSITIVE } else { f32::MIN_POSITIVE as f64 };
        for l in 0..lanes {
            if b.exec >> l & 1 == 0 {
                continue;
            }
            let rbits = if wide { lo[l] as u64 | (hi[l] as u64) << 32 } else { lo[l] as u64 };
            let (r, r_denorm) = class(rbits, wide);
            let ins: [f64; 3] = std::array::from_fn(|k| class(b.srcs[k][l], wide).0);
            let ins = &ins[..nsrc];
            if r.is_nan() {
                if !ins.iter().any(|x| x.is_nan()) {
                    bits |= trapsts::INVALID;
                }
                continue;
            }
            if r.is_infinite() && ins.iter().all(|x| x.is_finite()) {
                if div0_op && ins.contains(&0.0) {
                    bits |= trapsts::DIV0;
                } else if !cvt_op {
                    bits |= trapsts::OVERFLOW | trapsts::INEXACT;
                }
                continue;
            }
            if r_denorm {
                bits |= trapsts::UNDERFLOW;
            }
            // `(s, e)`: the exact value is s + e, with e != 0 only when it needs more bits
            // than an f64 has (then it is no result of this width either).
            let exact = if cvt_op {
                let x = b.srcs[0][l] as u32;
                Some((if inst.op == V_CVT_F32_I32 { x as i32 as f64 } else { x as f64 }, 0.0))
            } else if exact_op {
                Some(exact_f32(inst, &ins[..ins.len().min(3)]))
            } else if exact64_op {
                Some(exact_f64(inst, ins))
            } else {
                None
            };
            if let Some((s, e)) = exact {
                if s.is_finite() && (e != 0.0 || r != s) {
                    bits |= trapsts::INEXACT;
                    if s != 0.0 && s.abs() < min_normal {
                        bits |= trapsts::UNDERFLOW;
                    }
                }
            }
        }
        bits
    }
}

/// The source operands of `inst` in the order of its f32 arithmetic: fmac reads its
/// destination as the addend, fmamk has K (src2) as its second factor.
fn fp_sources(inst: &Inst) -> [Operand; 3] {
    let [s0, s1, s2, _] = inst.src;
    match inst.op {
        Op::V_FMAC_F32 => [s0, s1, inst.dst],
        Op::V_FMAMK_F32 => [s0, s2, s1],
        _ => [s0, s1, s2],
    }
}

/// TwoSum: `(a + b rounded, its rounding error)`.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// The exact result of an f32 add / sub / mul / fma from its f32 sources (as f64) as a
/// pair `(s, e)` (value s + e): products of two f32 are exact in f64, and TwoSum gives a
/// sum's error.
fn exact_f32(inst: &Inst, x: &[f64]) -> (f64, f64) {
    let x = |k: usize| x.get(k).copied().unwrap_or(0.0);
    match inst.op {
        Op::V_ADD_F32 => two_sum(x(0), x(1)),
        Op::V_SUB_F32 => two_sum(x(0), -x(1)),
        Op::V_SUBREV_F32 => two_sum(x(1), -x(0)),
        Op::V_MUL_F32 => (x(0) * x(1), 0.0),
        _ => two_sum(x(0) * x(1), x(2)),
    }
}

/// The exact result of v_add_f64 / v_mul_f64 as `(s, e)`: TwoSum, or TwoProduct through
/// the host's fused multiply-add.
fn exact_f64(inst: &Inst, x: &[f64]) -> (f64, f64) {
    if inst.op == Op::V_ADD_F64 {
        two_sum(x[0], x[1])
    } else {
        let p = x[0] * x[1];
        (p, x[0].mul_add(x[1], -p))
    }
}
