//! gfx11 instruction decoder: machine words → [`Inst`]. Never panics, never allocates;
//! an encoding or opcode softnavi does not know is a [`DecodeError`] value, which the
//! program builder turns into an illegal-instruction trap at that PC.

use super::rules::{dpp_mods, lo128, slot_ty, vop3_fields_set, Lo128};
use super::table::{lookup, Access, Encoding, Op, Ty, F, VOPD_OPS};

/// A decoded operand. Inline constants and literals are resolved to the bit pattern the
/// instruction sees for its operand type; the source field is kept for disassembly.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Operand {
    #[default]
    None,
    /// Scalar register file index: 0–105 SGPRs, 106/107 VCC, 108–123 TTMP, 124 NULL,
    /// 125 M0, 126/127 EXEC.
    Sgpr(u8),
    Vgpr(u16),
    /// An inline constant (`code` 128–248) or a literal (`code` 255) with its value.
    Const {
        code: u16,
        value: u64,
    },
    Scc,
    Vccz,
    Execz,
    /// src_shared_base/limit, src_private_base/limit, src_pops_exiting_wave_id (235–239)
    /// and src_lds_direct (254): decoded and printed; the apertures (235–238) are read from
    /// the wave's SH_MEM_BASES, an instruction that reads one of the others is not
    /// executed (it traps by name).
    Special(u8),
}

pub const SGPR_VCC_LO: u8 = 106;
pub const SGPR_TTMP0: u8 = 108;
pub const SGPR_NULL: u8 = 124;
pub const SGPR_M0: u8 = 125;
pub const SGPR_EXEC_LO: u8 = 126;
pub const SGPR_EXEC_HI: u8 = 127;
pub const SRC_LITERAL: u32 = 255;
/// [`Operand::Special`] code of src_lds_direct.
pub const SRC_LDS_DIRECT: u8 = 254;
/// [`Operand::Const`] code of the constant K of fmamk/fmaak (a literal that is always
/// there, printed as hex even where it could have been an inline constant).
pub const SRC_K: u16 = 0x100;
const SRC_DPP16: u32 = 250;
const SRC_DPP8: u32 = 233;
const SRC_DPP8_FI: u32 = 234;

/// How the instruction was encoded (its opcode may exist in several encodings).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Form {
    /// The opcode's own encoding (SOP*, SMEM, VOP1/2/C as `_e32`, VOP3, VOP3P, memory).
    #[default]
    Native,
    /// A VOP1/VOP2/VOPC opcode in the VOP3 encoding (`_e64`).
    Vop3,
    /// VOP1/VOP2/VOPC with a DPP16 dword (`_dpp`); the control word is in [`Inst::ext`].
    Dpp16,
    /// VOP1/VOP2/VOPC with a DPP8 dword; the lane selects are in [`Inst::ext`].
    Dpp8,
    /// VOP3 with a DPP16 dword (`_e64_dpp`).
    Vop3Dpp16,
    /// VOP3 with a DPP8 dword.
    Vop3Dpp8,
}

impl Form {
    pub fn is_dpp(self) -> bool {
        matches!(self, Form::Dpp16 | Form::Dpp8 | Form::Vop3Dpp16 | Form::Vop3Dpp8)
    }

    pub fn is_dpp8(self) -> bool {
        matches!(self, Form::Dpp8 | Form::Vop3Dpp8)
    }

    /// The VOP3 encoding (with or without DPP).
    pub fn is_vop3(self) -> bool {
        matches!(self, Form::Vop3 | Form::Vop3Dpp16 | Form::Vop3Dpp8)
    }
}

/// Memory-instruction flag bits in [`Inst::flags`].
pub mod mflag {
    pub const GLC: u16 = 1;
    pub const SLC: u16 = 2;
    pub const DLC: u16 = 4;
    pub const OFFEN: u16 = 8;
    pub const IDXEN: u16 = 16;
    pub const TFE: u16 = 32;
    pub const GDS: u16 = 64;
    pub const SVE: u16 = 128;
    /// DPP8 fetch-inactive (src0 = 234) / DPP16 FI bit.
    pub const FI: u16 = 256;
}

/// A decoded instruction. Operand slots by class:
/// - SALU/VALU: `dst`, `sdst` (VOP3SD carry / VOPC `_e64` mask), `src[0..3]`.
/// - SMEM: `dst` = data, `src[0]` = base pair (or V# for `s_buffer_*`), `src[1]` = soffset,
///   `imm` = offset; s_atc_probe* have no `dst` and their sdata field in `imm1`.
/// - DS: `dst`, `src[0]` = address, `src[1]`/`src[2]` = data0/data1, `imm`/`imm1` = offsets.
/// - MUBUF: `dst` (loads) / `src[1]` (stores) = vdata (none for loads into LDS),
///   `src[0]` = vaddr, `src[2]` = V#, `src[3]` = soffset, `imm` = offset.
/// - FLAT/GLOBAL: `dst`, `src[0]` = address, `src[1]` = data, `src[2]` = saddr, `imm`.
/// - SOPK/SOPP: `imm` = simm16 (sign-extended where the instruction is signed);
///   s_setreg_b32/s_setreg_imm32_b32 write `src[0]` (the SGPR or the literal).
/// - SOP1 s_sendmsg_rtn_*: `imm` = the message id.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Inst {
    pub op: Op,
    pub form: Form,
    /// Size in dwords, including a literal.
    pub len: u8,
    pub dst: Operand,
    pub sdst: Operand,
    pub src: [Operand; 4],
    pub neg: u8,
    pub abs: u8,
    pub opsel: u8,
    /// VOP3P: op_sel_hi and neg_hi.
    pub opsel_hi: u8,
    pub neg_hi: u8,
    /// A further encoding dword: the DPP control word, the second dword of MTBUF, EXP and
    /// VINTERP, or MIMG's NSA address dword (kept for fields only the disassembler prints).
    pub ext: u32,
    pub clamp: bool,
    pub omod: u8,
    pub imm: i32,
    pub imm1: i32,
    pub flags: u16,
}

impl Inst {
    fn new(op: Op, len: u8) -> Inst {
        Inst {
            op,
            form: Form::Native,
            len,
            dst: Operand::None,
            sdst: Operand::None,
            src: [Operand::None; 4],
            neg: 0,
            abs: 0,
            opsel: 0,
            opsel_hi: 0,
            neg_hi: 0,
            ext: 0,
            clamp: false,
            omod: 0,
            imm: 0,
            imm1: 0,
            flags: 0,
        }
    }
}

/// Why words could not be decoded. Carries the encoding size so that decoding can go on
/// after the bad instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DecodeError {
    #[error("truncated instruction")]
    Truncated,
    #[error("unknown encoding (word {0:#010x})")]
    UnknownEncoding(u32),
    #[error("{enc:?} opcode {code:#x} is not supported")]
    UnknownOpcode { enc: Encoding, code: u32, len: u8 },
    #[error("{what} is not supported")]
    Unsupported { what: &'static str, len: u8 },
    /// `with` names the form that is not executed (" with DPP", ...), empty when the
    /// opcode itself is not.
    #[error("{}{} is decoded but not executed by softnavi", .op.name(), .with)]
    NotExecuted { op: Op, with: &'static str, len: u8 },
}

impl DecodeError {
    /// Dwords to skip to reach the next instruction, when known.
    pub fn skip(&self) -> Option<u8> {
        match *self {
            DecodeError::UnknownOpcode { len, .. }
            | DecodeError::Unsupported { len, .. }
            | DecodeError::NotExecuted { len, .. } => Some(len),
            _ => None,
        }
    }
}

fn bits(w: u32, lo: u32, width: u32) -> u32 {
    (w >> lo) & ((1u32 << width) - 1)
}

fn sext(v: u32, width: u32) -> i32 {
    ((v << (32 - width)) as i32) >> (32 - width)
}

/// The constant an inline-constant source field denotes for an operand of type `ty`.
pub fn inline_constant(code: u32, ty: Ty) -> Option<u64> {
    let wide = matches!(ty, Ty::B64 | Ty::F64);
    let half = matches!(ty, Ty::B16 | Ty::F16 | Ty::V2F16);
    let int = |v: i64| if wide { v as u64 } else { v as i32 as u32 as u64 };
    Some(match code {
        128..=192 => int(code as i64 - 128),
        193..=208 => int(192 - code as i64),
        240..=248 => {
            let i = (code - 240) as usize;
            if wide {
                const D: [u64; 9] = [
                    0x3fe0000000000000,
                    0xbfe0000000000000,
                    0x3ff0000000000000,
                    0xbff0000000000000,
                    0x4000000000000000,
                    0xc000000000000000,
                    0x4010000000000000,
                    0xc010000000000000,
                    0x3fc45f306dc9c882,
                ];
                D[i]
            } else if half {
                const H: [u64; 9] = [0x3800, 0xb800, 0x3c00, 0xbc00, 0x4000, 0xc000, 0x4400, 0xc400, 0x3118];
                H[i]
            } else {
                const S: [u64; 9] = [
                    0x3f000000, 0xbf000000, 0x3f800000, 0xbf800000, 0x40000000, 0xc0000000, 0x40800000, 0xc0800000,
                    0x3e22f983,
                ];
                // bf16 is the high half of an f32.
                if matches!(ty, Ty::BF16 | Ty::V2BF16) {
                    S[i] >> 16
                } else {
                    S[i]
                }
            }
        }
        _ => return None,
    })
}

/// Widens a 32-bit literal to the operand type: f64 literals are the high dword.
fn literal_value(lit: u32, ty: Ty) -> u64 {
    match ty {
        Ty::F64 => (lit as u64) << 32,
        _ => lit as u64,
    }
}

/// Decodes a scalar-or-constant source field (8 bits in SALU, 9 bits in VALU where 256+
/// are VGPRs). `literal` is the dword after the instruction, if present.
fn source(code: u32, ty: Ty, literal: Option<u32>) -> Result<Operand, DecodeError> {
    Ok(match code {
        0..=127 => Operand::Sgpr(code as u8),
        256..=511 => Operand::Vgpr((code - 256) as u16),
        SRC_LITERAL => match literal {
            Some(l) => Operand::Const { code: 255, value: literal_value(l, ty) },
            None => return Err(DecodeError::Truncated),
        },
        235..=239 | 254 => Operand::Special(code as u8),
        251 => Operand::Vccz,
        252 => Operand::Execz,
        253 => Operand::Scc,
        c => match inline_constant(c, ty) {
            Some(value) => Operand::Const { code: c as u16, value },
            None => return Err(DecodeError::Unsupported { what: "reserved source operand", len: 1 }),
        },
    })
}

/// Decodes the instruction at the start of `w` for a wave of 64 lanes or 32.
pub fn decode(w: &[u32], wave64: bool) -> Result<Inst, DecodeError> {
    decode_as(w, wave64, false)
}

/// [`decode`] for execution: the hardware reads scalar registers by number, so a tuple may
/// run from s104/s105 into VCC (s106, s107), which Mesa's ACO allocates (a V# in
/// s[104:107]) and LLVM's register classes, whose text [`decode`] keeps to, do not have.
pub fn decode_exec(w: &[u32], wave64: bool) -> Result<Inst, DecodeError> {
    decode_as(w, wave64, true)
}

fn decode_as(w: &[u32], wave64: bool, into_vcc: bool) -> Result<Inst, DecodeError> {
    let mut i = decode_fields(w)?;
    sign_extend_literals(&mut i);
    let len = i.len;
    if i.op == Op::V_DUAL && wave64 {
        return Err(DecodeError::Unsupported { what: "VOPD in a wave64 program", len });
    }
    if !tuples_ok(&i, wave64, into_vcc) {
        return Err(DecodeError::Unsupported { what: "a register tuple past the register file or misaligned", len });
    }
    Ok(i)
}

/// A literal in a 64-bit integer source of an opcode whose such sources are signed
/// ([`F::SEXT64`]) is sign-extended from its 32 bits ([`literal_value`] zero-extends).
fn sign_extend_literals(i: &mut Inst) {
    if !i.op.has_flag(F::SEXT64) {
        return;
    }
    let ty = i.op.info().ty;
    for (src, &t) in i.src.iter_mut().zip(&ty[1..]) {
        if let (Operand::Const { code, value }, Ty::B64) = (src, t) {
            if *code as u32 == SRC_LITERAL {
                *value = *value as u32 as i32 as i64 as u64;
            }
        }
    }
}

/// Whether a register tuple of `n` registers is one LLVM accepts: VGPR tuples end at v255,
/// SGPR tuples as [`sgpr_tuple_ok`] says. src_lds_direct is a single 32-bit register: LLVM
/// rejects it in a wider operand (a 64-bit SALU or VALU source, a wave64 lane mask), while
/// the other special sources (apertures, vccz, execz, scc) are accepted at any width.
fn tuple_ok(o: Operand, n: u32, into_vcc: bool) -> bool {
    match o {
        Operand::Vgpr(v) => v as u32 + n <= 256,
        // A tuple from the SGPRs may end in VCC (s106, s107), aligned as LLVM aligns them.
        Operand::Sgpr(s) if into_vcc && n >= 2 && s <= 105 && s as u32 % n.min(4) == 0 && s as u32 + n <= 108 => true,
        Operand::Sgpr(s) => sgpr_tuple_ok(s as u32, n),
        Operand::Special(SRC_LDS_DIRECT) => n <= 1,
        _ => true,
    }
}

/// Checks every register tuple of a decoded instruction against [`tuple_ok`], with the
/// widths its encoding gives each slot.
fn tuples_ok(i: &Inst, wave64: bool, into_vcc: bool) -> bool {
    let tuple_ok = |o: Operand, n: u32| tuple_ok(o, n, into_vcc);
    let info = i.op.info();
    let n = |ty: Ty| ty.dwords(wave64);
    let t = info.ty;
    match info.enc {
        Encoding::Vopd | Encoding::Mimg | Encoding::Exp | Encoding::Vinterp | Encoding::Ldsdir => true,
        Encoding::Smem => tuple_ok(i.dst, n(t[0])) && tuple_ok(i.src[0], n(t[1])),
        Encoding::Ds => tuple_ok(i.dst, n(t[0])) && (0..3).all(|k| tuple_ok(i.src[k], n(t[k + 1]))),
        Encoding::Mubuf | Encoding::Mtbuf => {
            let tfe = (i.flags & mflag::TFE != 0) as u32;
            let both = i.flags & (mflag::IDXEN | mflag::OFFEN) == mflag::IDXEN | mflag::OFFEN;
            // The V# (srsrc) is an SGPR quad: s[104:107] is none.
            tuple_ok(i.src[1], n(t[0]).max(n(t[1])) + tfe)
                && tuple_ok(i.src[0], 1 + both as u32)
                && tuple_ok(i.src[2], 4)
        }
        Encoding::Flat | Encoding::Global | Encoding::Scratch => {
            let atomic = info.flags & F::ATOMIC != 0;
            let data = if atomic { n(t[1]) } else { n(t[0]) };
            let addr = if info.enc != Encoding::Scratch && i.src[2] == Operand::None { 2 } else { 1 };
            // vdst counts only where it is written (loads, atomics that return with GLC),
            // the data only where it is read (stores, atomics).
            let load = i.op.mem().is_some_and(|m| m.access == Access::Load);
            let writes = if atomic { i.flags & mflag::GLC != 0 } else { load };
            (!writes || tuple_ok(i.dst, n(t[0])))
                && (load || tuple_ok(i.src[1], data))
                && tuple_ok(i.src[0], addr)
                && tuple_ok(i.src[2], if info.enc == Encoding::Global { 2 } else { 1 })
        }
        _ => {
            let n = |k: usize| n(slot_ty(i.op, k, wave64));
            // sdst: the lane mask of VOPC and VOP3SD.
            tuple_ok(i.dst, n(0))
                && (0..3).all(|k| tuple_ok(i.src[k], n(k + 1)))
                && tuple_ok(i.sdst, Ty::Mask.dwords(wave64))
        }
    }
}

fn decode_fields(w: &[u32]) -> Result<Inst, DecodeError> {
    let w0 = *w.first().ok_or(DecodeError::Truncated)?;
    let w1 = w.get(1).copied();
    match w0 >> 30 {
        // VOP2 (bit 31 = 0); VOP1 and VOPC are VOP2-space prefixes.
        0 | 1 => {
            let op6 = bits(w0, 25, 6);
            match bits(w0, 25, 7) {
                0x3f => decode_vop1(w0, w1),
                0x3e => decode_vopc(w0, w1),
                _ => decode_vop2(w0, w1, op6),
            }
        }
        2 => decode_salu(w0, w1),
        _ => decode_group3(w0, w),
    }
}

fn need(w: Option<u32>) -> Result<u32, DecodeError> {
    w.ok_or(DecodeError::Truncated)
}

/// The SGPR destination field (8 bits) of VOPC in VOP3, v_readlane and v_readfirstlane.
/// LLVM decodes it like a scalar source: a constant, a special source or a literal is
/// printed (with an "Invalid immediate" comment), reserved codes are rejected; only an
/// SGPR is executed (see `program::not_executed`).
fn scalar_dst(code: u32, literal: Option<u32>) -> Result<Operand, DecodeError> {
    source(code, Ty::B32, literal)
}

/// The literal of a 64-bit VALU encoding: the third dword, or the fourth after a DPP one.
fn literal_after(w: &[u32], dpp: bool) -> Option<u32> {
    w.get(2 + dpp as usize).copied()
}

/// Whether a 32-bit VOP/SOP instruction uses a literal (then it is one dword longer).
fn uses_literal(fields: &[u32]) -> bool {
    fields.contains(&SRC_LITERAL)
}

/// Whether SGPR field `code` may start a tuple of `n` scalar registers, as LLVM decides:
/// the tuple (aligned down to 2 or 4 registers) must end within the SGPRs (s105) or the
/// trap temporaries (ttmp15), or be vcc, null or exec; it cannot start at vcc_hi, m0 or
/// exec_hi.
fn sgpr_tuple_ok(code: u32, n: u32) -> bool {
    if n < 2 {
        return true;
    }
    let start = if n == 2 { code & !1 } else { code & !3 };
    match code {
        0..=105 => start + n <= 106,
        108..=123 => start + n <= 124,
        106 | 124 | 126 => true,
        _ => false,
    }
}

fn decode_salu(w0: u32, w1: Option<u32>) -> Result<Inst, DecodeError> {
    let top9 = bits(w0, 23, 9);
    match top9 {
        0x17d => {
            // SOP1
            let (code, sdst, s0) = (bits(w0, 8, 8), bits(w0, 16, 7), bits(w0, 0, 8));
            let op = lookup(Encoding::Sop1, code);
            let t = op.map_or([Ty::N; 4], |op| op.info().ty);
            // s_sendmsg_rtn_* take an 8-bit message id in the source field, never a literal;
            // s_getpc_b64 has no source and ignores the field.
            let len = 1 + (!matches!(t[1], Ty::Imm16 | Ty::N) && uses_literal(&[s0])) as u8;
            let op = op.ok_or(DecodeError::UnknownOpcode { enc: Encoding::Sop1, code, len })?;
            let mut i = Inst::new(op, len);
            if t[0] != Ty::N {
                i.dst = Operand::Sgpr(sdst as u8);
            }
            match t[1] {
                Ty::N => {}
                Ty::Imm16 => i.imm = s0 as i32,
                ty => i.src[0] = source(s0, ty, w1)?,
            }
            Ok(i)
        }
        0x17e => {
            // SOPC
            let (code, s1, s0) = (bits(w0, 16, 7), bits(w0, 8, 8), bits(w0, 0, 8));
            let len = 1 + uses_literal(&[s0, s1]) as u8;
            let op =
                lookup(Encoding::Sopc, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Sopc, code, len })?;
            let t = op.info().ty;
            let mut i = Inst::new(op, len);
            i.src[0] = source(s0, t[1], w1)?;
            i.src[1] = source(s1, t[2], w1)?;
            Ok(i)
        }
        0x17f => {
            // SOPP
            let code = bits(w0, 16, 7);
            let op =
                lookup(Encoding::Sopp, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Sopp, code, len: 1 })?;
            let mut i = Inst::new(op, 1);
            let simm = bits(w0, 0, 16);
            // LLVM rejects an immediate on the opcodes that take none.
            if op.info().ty[1] == Ty::N && simm != 0 {
                return Err(DecodeError::Unsupported { what: "an immediate on a SOPP opcode without one", len: 1 });
            }
            i.imm = if op.has_flag(F::BRANCH) { sext(simm, 16) } else { simm as i32 };
            Ok(i)
        }
        _ if bits(w0, 28, 4) == 0xb => {
            // SOPK
            let (code, sdst) = (bits(w0, 23, 5), bits(w0, 16, 7));
            let op = lookup(Encoding::Sopk, code);
            // s_setreg_imm32_b32 is followed by its 32-bit immediate.
            let len = if op == Some(Op::S_SETREG_IMM32_B32) { 2 } else { 1 };
            let op = op.ok_or(DecodeError::UnknownOpcode { enc: Encoding::Sopk, code, len })?;
            let t = op.info().ty;
            let mut i = Inst::new(op, len);
            if t[0] != Ty::N {
                i.dst = Operand::Sgpr(sdst as u8);
            }
            // s_setreg_b32 writes the SGPR of the sdst field; s_setreg_imm32_b32 its literal.
            if t[2] != Ty::N {
                i.src[0] = if len == 2 {
                    Operand::Const { code: SRC_LITERAL as u16, value: need(w1)? as u64 }
                } else {
                    Operand::Sgpr(sdst as u8)
                };
            }
            // Unsigned compares and waitcnt take the immediate zero-extended.
            let simm = bits(w0, 0, 16);
            i.imm = match op {
                Op::S_CMPK_EQ_U32
                | Op::S_CMPK_LG_U32
                | Op::S_CMPK_GT_U32
                | Op::S_CMPK_GE_U32
                | Op::S_CMPK_LT_U32
                | Op::S_CMPK_LE_U32
                | Op::S_WAITCNT_VSCNT
                | Op::S_WAITCNT_VMCNT
                | Op::S_WAITCNT_EXPCNT
                | Op::S_WAITCNT_LGKMCNT
                | Op::S_VERSION
                | Op::S_GETREG_B32
                | Op::S_SETREG_B32
                | Op::S_SETREG_IMM32_B32 => simm as i32,
                _ => sext(simm, 16),
            };
            Ok(i)
        }
        _ => {
            // SOP2
            let (code, sdst, s1, s0) = (bits(w0, 23, 7), bits(w0, 16, 7), bits(w0, 8, 8), bits(w0, 0, 8));
            let len = 1 + uses_literal(&[s0, s1]) as u8;
            let op =
                lookup(Encoding::Sop2, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Sop2, code, len })?;
            let t = op.info().ty;
            let mut i = Inst::new(op, len);
            i.dst = Operand::Sgpr(sdst as u8);
            i.src[0] = source(s0, t[1], w1)?;
            i.src[1] = source(s1, t[2], w1)?;
            Ok(i)
        }
    }
}

/// The DPP dword that follows a 32-bit VALU instruction whose src0 field selects DPP.
fn dpp(src0: u32, w: Option<u32>, vop3: bool) -> Result<Option<(Form, u32, u16)>, DecodeError> {
    let (form, fi) = match (src0, vop3) {
        (SRC_DPP16, false) => (Form::Dpp16, 0),
        (SRC_DPP16, true) => (Form::Vop3Dpp16, 0),
        (SRC_DPP8, false) => (Form::Dpp8, 0),
        (SRC_DPP8, true) => (Form::Vop3Dpp8, 0),
        (SRC_DPP8_FI, false) => (Form::Dpp8, mflag::FI),
        (SRC_DPP8_FI, true) => (Form::Vop3Dpp8, mflag::FI),
        _ => return Ok(None),
    };
    let w = need(w)?;
    let fi = if matches!(form, Form::Dpp16 | Form::Vop3Dpp16) && w >> 18 & 1 != 0 { mflag::FI } else { fi };
    Ok(Some((form, w, fi)))
}

/// Applies a DPP dword to an e32 instruction: src0 becomes the DPP's VGPR, and DPP16
/// carries src0/src1 neg and abs bits.
fn apply_dpp(i: &mut Inst, form: Form, w: u32, fi: u16) -> Result<(), DecodeError> {
    // DPP moves 32-bit lanes: no 64-bit operands.
    if i.op.info().ty.iter().any(|t| matches!(t, Ty::B64 | Ty::F64)) {
        return Err(DecodeError::Unsupported { what: "DPP with 64-bit operands", len: i.len });
    }
    if i.op.has_flag(F::NODPP) {
        return Err(DecodeError::Unsupported { what: "DPP on an opcode without a DPP form", len: i.len });
    }
    i.form = form;
    i.ext = w;
    i.flags |= fi;
    i.src[0] = Operand::Vgpr(bits(w, 0, 8) as u16);
    if form == Form::Dpp16 {
        i.neg = (bits(w, 20, 1) | bits(w, 22, 1) << 1) as u8;
        i.abs = (bits(w, 21, 1) | bits(w, 23, 1) << 1) as u8;
        let (neg, abs) = dpp_mods(i.op);
        if i.neg & !neg != 0 || i.abs & !abs != 0 {
            return Err(DecodeError::Unsupported {
                what: "a DPP source modifier this opcode does not have",
                len: i.len,
            });
        }
    }
    Ok(())
}

/// Rejects v128+ in the vdst/vsrc1 fields of a 32-bit VALU encoding where LLVM's true16
/// register classes do not allow it ([`lo128`]).
fn lo128_ok(op: Op, vdst: u32, vsrc1: Option<u32>, len: u8) -> Result<(), DecodeError> {
    let [d, _, s1] = lo128(op);
    if (d == Lo128::Reject && vdst >= 128) || (s1 == Lo128::Reject && vsrc1.is_some_and(|v| v >= 128)) {
        return Err(DecodeError::Unsupported { what: "a 16-bit operand in v128 or above (e32)", len });
    }
    Ok(())
}

fn decode_vop1(w0: u32, w1: Option<u32>) -> Result<Inst, DecodeError> {
    let (code, vdst, s0) = (bits(w0, 9, 8), bits(w0, 17, 8), bits(w0, 0, 9));
    let known = lookup(Encoding::Vop1, code);
    if let Some(op) = known.filter(|op| op.info().ty == [Ty::N; 4]) {
        // v_nop, v_pipeflush: src0 is ignored (even a literal code), vdst must be 0.
        if vdst != 0 {
            return Err(DecodeError::Unsupported { what: "operand fields of an instruction without operands", len: 1 });
        }
        return Ok(Inst::new(op, 1));
    }
    let dpp = dpp(s0, w1, false)?;
    // v_readfirstlane writes an SGPR: its vdst field is a scalar operand (see scalar_dst).
    let sdst = known == Some(Op::V_READFIRSTLANE_B32);
    let len = 1 + (uses_literal(&[s0]) || dpp.is_some() || (sdst && vdst == SRC_LITERAL)) as u8;
    let op = known.ok_or(DecodeError::UnknownOpcode { enc: Encoding::Vop1, code, len })?;
    lo128_ok(op, vdst, None, len)?;
    let t = op.info().ty;
    let mut i = Inst::new(op, len);
    if sdst {
        i.dst = scalar_dst(vdst, w1)?;
    } else if t[0] != Ty::N {
        i.dst = Operand::Vgpr(vdst as u16);
    }
    if t[1] != Ty::N && dpp.is_none() {
        i.src[0] = source(s0, t[1], w1)?;
    }
    if let Some((form, w, fi)) = dpp {
        apply_dpp(&mut i, form, w, fi)?;
    }
    Ok(i)
}

fn decode_vop2(w0: u32, w1: Option<u32>, code: u32) -> Result<Inst, DecodeError> {
    if code == 0 {
        // Opcode 0 is v_illegal, and only as the all-zero dword.
        return match w0 {
            0 => Ok(Inst::new(Op::V_ILLEGAL, 1)),
            _ => Err(DecodeError::UnknownOpcode { enc: Encoding::Vop2, code, len: 1 }),
        };
    }
    let (vdst, vs1, s0) = (bits(w0, 17, 8), bits(w0, 9, 8), bits(w0, 0, 9));
    let dpp = dpp(s0, w1, false)?;
    let mut len = 1 + (uses_literal(&[s0]) || dpp.is_some()) as u8;
    let known = lookup(Encoding::Vop2, code);
    if known.is_some_and(|op| op.has_flag(F::LIT_K)) {
        // K is the instruction's one literal.
        len = 2;
    }
    let op = known.ok_or(DecodeError::UnknownOpcode { enc: Encoding::Vop2, code, len })?;
    lo128_ok(op, vdst, Some(vs1), len)?;
    let t = op.info().ty;
    let mut i = Inst::new(op, len);
    i.dst = Operand::Vgpr(vdst as u16);
    i.src[0] = if dpp.is_some() { Operand::None } else { source(s0, t[1], w1)? };
    i.src[1] = Operand::Vgpr(vs1 as u16);
    if op.has_flag(F::LIT_K) {
        // The constant K is the literal: fmamk = s0 * K + s1, fmaak = s0 * s1 + K.
        if dpp.is_some() {
            return Err(DecodeError::Unsupported { what: "DPP with a literal constant", len: 2 });
        }
        i.src[2] = Operand::Const { code: SRC_K, value: need(w1)? as u64 };
    } else if t[3] == Ty::Mask {
        i.src[2] = Operand::Sgpr(SGPR_VCC_LO);
        if op.has_flag(F::SD) {
            i.sdst = Operand::Sgpr(SGPR_VCC_LO);
        }
    }
    if let Some((form, w, fi)) = dpp {
        apply_dpp(&mut i, form, w, fi)?;
    }
    Ok(i)
}

fn decode_vopc(w0: u32, w1: Option<u32>) -> Result<Inst, DecodeError> {
    let (code, vs1, s0) = (bits(w0, 17, 8), bits(w0, 9, 8), bits(w0, 0, 9));
    let dpp = dpp(s0, w1, false)?;
    let len = 1 + (uses_literal(&[s0]) || dpp.is_some()) as u8;
    let op = lookup(Encoding::Vopc, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Vopc, code, len })?;
    lo128_ok(op, 0, Some(vs1), len)?;
    let t = op.info().ty;
    let mut i = Inst::new(op, len);
    i.sdst = if op.has_flag(F::CMPX) { Operand::Sgpr(SGPR_EXEC_LO) } else { Operand::Sgpr(SGPR_VCC_LO) };
    i.src[0] = if dpp.is_some() { Operand::None } else { source(s0, t[1], w1)? };
    i.src[1] = Operand::Vgpr(vs1 as u16);
    if let Some((form, w, fi)) = dpp {
        apply_dpp(&mut i, form, w, fi)?;
    }
    Ok(i)
}

fn decode_group3(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    match bits(w0, 26, 6) {
        0x35 => decode_vop3(w0, w),
        0x3d => decode_smem(w0, w),
        0x36 => decode_ds(w0, w),
        0x38 => decode_mubuf(w0, w),
        0x3a => decode_mtbuf(w0, w),
        0x37 => decode_flat(w0, w),
        0x3c => decode_mimg(w0, w),
        0x3e => decode_exp(w0, w),
        0x32 => {
            // VOPD: one container; its halves come from decode_vopd().
            let (sx, sy) = (bits(w0, 0, 9), bits(w.get(1).copied().ok_or(DecodeError::Truncated)?, 0, 9));
            let (ox, oy) = (bits(w0, 22, 4), bits(w0, 17, 5));
            let k = matches!(ox, 1 | 2) || matches!(oy, 1 | 2);
            let len = 2 + (uses_literal(&[sx, sy]) || k) as u8;
            decode_vopd(w).map(|_| Inst::new(Op::V_DUAL, len))
        }
        0x33 => match bits(w0, 24, 8) {
            0xcc => decode_vop3p(w0, w),
            0xcd => decode_vinterp(w0, w),
            0xce => decode_ldsdir(w0),
            _ => Err(DecodeError::UnknownEncoding(w0)),
        },
        _ => Err(DecodeError::UnknownEncoding(w0)),
    }
}

/// The two halves (X, Y) of a VOPD instruction, each as an ordinary VOP1/VOP2 `Inst`.
pub fn decode_vopd(w: &[u32]) -> Result<[Inst; 2], DecodeError> {
    let w0 = *w.first().ok_or(DecodeError::Truncated)?;
    let w1 = *w.get(1).ok_or(DecodeError::Truncated)?;
    let lit = w.get(2).copied();
    let (ox, oy) = (bits(w0, 22, 4), bits(w0, 17, 5));
    let vdst_x = bits(w1, 24, 8);
    // vdstY is stored without its LSB, which is the opposite of vdstX's.
    let vdst_y = bits(w1, 17, 7) << 1 | ((vdst_x & 1) ^ 1);
    let half = |code: u32, dst: u32, s0: u32, vs1: u32| -> Result<Inst, DecodeError> {
        let op = VOPD_OPS.get(code as usize).copied().flatten().ok_or(DecodeError::UnknownOpcode {
            enc: Encoding::Vopd,
            code,
            len: 2 + lit.is_some() as u8,
        })?;
        let t = op.info().ty;
        if t[2] == Ty::N && vs1 != 0 {
            return Err(DecodeError::Unsupported { what: "VOPD vsrc1 field of a one-source half", len: 2 });
        }
        let mut i = Inst::new(op, 0);
        i.dst = Operand::Vgpr(dst as u16);
        i.src[0] = source(s0, t[1], lit)?;
        if t[2] != Ty::N {
            i.src[1] = Operand::Vgpr(vs1 as u16);
        }
        match op {
            Op::V_FMAAK_F32 | Op::V_FMAMK_F32 => {
                i.src[2] = Operand::Const { code: SRC_K, value: lit.ok_or(DecodeError::Truncated)? as u64 }
            }
            Op::V_CNDMASK_B32 => i.src[2] = Operand::Sgpr(SGPR_VCC_LO),
            _ => {}
        }
        Ok(i)
    };
    let x = half(ox, vdst_x, bits(w0, 0, 9), bits(w0, 9, 8))?;
    let y = half(oy, vdst_y, bits(w1, 0, 9), bits(w1, 9, 8))?;
    Ok([x, y])
}

/// Number of source operands of a VALU opcode (its non-empty source slots).
fn source_count(t: &[Ty; 4]) -> usize {
    t[1..].iter().filter(|t| **t != Ty::N).count()
}

fn decode_vop3(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 16, 10);
    let (s0, s1, s2) = (bits(w1, 0, 9), bits(w1, 9, 9), bits(w1, 18, 9));
    let dpp = dpp(s0, w.get(2).copied(), true)?;
    let len = 2 + uses_literal(&[s0, s1, s2]) as u8 + dpp.is_some() as u8;
    let (op, form) = match code {
        0x000..=0x0ff => (lookup(Encoding::Vopc, code), Form::Vop3),
        0x100..=0x13f => (lookup(Encoding::Vop2, code - 0x100), Form::Vop3),
        0x180..=0x1ff => (lookup(Encoding::Vop1, code - 0x180), Form::Vop3),
        _ => (lookup(Encoding::Vop3, code), Form::Native),
    };
    let op = op.ok_or(DecodeError::UnknownOpcode { enc: Encoding::Vop3, code, len })?;
    // LLVM 19 has no VOP3 form of the 32-bit-only opcodes, of v_readfirstlane, of
    // v_illegal, and of v_mov_b16 (known there only as true16 e32 and DPP).
    if op.has_flag(F::LIT_K | F::E32) || matches!(op, Op::V_READFIRSTLANE_B32 | Op::V_MOV_B16 | Op::V_ILLEGAL) {
        return Err(DecodeError::UnknownOpcode { enc: Encoding::Vop3, code, len });
    }
    if vop3_fields_set(w0, w1) & !op.vop3_fields().0 != 0 {
        return Err(DecodeError::Unsupported { what: "a VOP3 modifier this opcode does not have", len });
    }
    let info = op.info();
    let t = info.ty;
    let vdst = bits(w0, 0, 8);
    // VOPC in VOP3 writes its mask to the scalar operand in the vdst field (v_cmpx: EXEC
    // only), v_readlane its result.
    let cmp = info.enc == Encoding::Vopc;
    let sdst = (cmp && !op.has_flag(F::CMPX)) || op == Op::V_READLANE_B32;
    let len = if sdst && vdst == SRC_LITERAL && !uses_literal(&[s0, s1, s2]) { len + 1 } else { len };
    let lit = literal_after(w, dpp.is_some());
    let mut i = Inst::new(op, len);
    i.form = form;
    let sd = op.has_flag(F::SD);
    if cmp {
        i.sdst = if sdst { scalar_dst(vdst, lit)? } else { Operand::Sgpr(SGPR_EXEC_LO) };
    } else if sdst {
        i.dst = scalar_dst(vdst, lit)?;
    } else if t[0] != Ty::N {
        i.dst = Operand::Vgpr(vdst as u16);
    }
    // VOP3SD: bits 14:8 are the carry-out SGPR, so there is no abs and no op_sel.
    if sd {
        i.sdst = Operand::Sgpr(bits(w0, 8, 7) as u8);
    } else {
        i.abs = bits(w0, 8, 3) as u8;
        i.opsel = bits(w0, 11, 4) as u8;
    }
    i.clamp = bits(w0, 15, 1) != 0;
    i.omod = bits(w1, 27, 2) as u8;
    i.neg = bits(w1, 29, 3) as u8;
    let n = source_count(&t);
    let fields = [s0, s1, s2];
    // LLVM rejects encodings that set fields of absent sources.
    let absent = (1u8 << 3) - (1 << n);
    if fields[n..].iter().any(|&f| f != 0) || i.neg & absent != 0 || (!sd && i.abs & absent != 0) {
        return Err(DecodeError::Unsupported { what: "VOP3 fields of absent operands", len });
    }
    for (k, &f) in fields.iter().enumerate() {
        if t[k + 1] != Ty::N && !(k == 0 && dpp.is_some()) {
            i.src[k] = source(f, t[k + 1], lit)?;
        }
    }
    if let Some((form, w, fi)) = dpp {
        apply_dpp(&mut i, form, w, fi)?;
    }
    Ok(i)
}

fn decode_vop3p(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 16, 7);
    let (s0, s1, s2) = (bits(w1, 0, 9), bits(w1, 9, 9), bits(w1, 18, 9));
    // The VOP3P encoding field is 9 bits (31:23): bit 23 is 0.
    if bits(w0, 23, 1) != 0 {
        return Err(DecodeError::UnknownEncoding(w0));
    }
    let dpp = dpp(s0, w.get(2).copied(), true)?;
    let len = 2 + uses_literal(&[s0, s1, s2]) as u8 + dpp.is_some() as u8;
    let op = lookup(Encoding::Vop3p, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Vop3p, code, len })?;
    if vop3_fields_set(w0, w1) & !op.vop3_fields().0 != 0 {
        return Err(DecodeError::Unsupported { what: "a VOP3P modifier this opcode does not have", len });
    }
    let t = op.info().ty;
    if [s0, s1, s2][source_count(&t)..].iter().any(|&f| f != 0) {
        return Err(DecodeError::Unsupported { what: "VOP3P fields of absent operands", len });
    }
    let mut i = Inst::new(op, len);
    i.dst = Operand::Vgpr(bits(w0, 0, 8) as u16);
    i.neg_hi = bits(w0, 8, 3) as u8;
    i.opsel = bits(w0, 11, 3) as u8;
    i.opsel_hi = (bits(w1, 27, 2) | bits(w0, 14, 1) << 2) as u8;
    i.clamp = bits(w0, 15, 1) != 0;
    i.neg = bits(w1, 29, 3) as u8;
    let lit = literal_after(w, dpp.is_some());
    for (k, &f) in [s0, s1, s2].iter().enumerate() {
        if t[k + 1] != Ty::N && !(k == 0 && dpp.is_some()) {
            i.src[k] = source(f, t[k + 1], lit)?;
        }
    }
    if let Some((form, w, fi)) = dpp {
        apply_dpp(&mut i, form, w, fi)?;
    }
    Ok(i)
}

fn decode_vinterp(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 16, 7);
    let op =
        lookup(Encoding::Vinterp, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Vinterp, code, len: 2 })?;
    let t = op.info().ty;
    let fields = [bits(w1, 0, 9), bits(w1, 9, 9), bits(w1, 18, 9)];
    // LLVM takes a literal source (an invalid immediate, but one dword longer).
    let len = 2 + uses_literal(&fields) as u8;
    let mut i = Inst::new(op, len);
    i.dst = Operand::Vgpr(bits(w0, 0, 8) as u16);
    i.imm = bits(w0, 8, 3) as i32; // wait_exp
    i.opsel = bits(w0, 11, 4) as u8;
    // The f32 forms have no op_sel: LLVM rejects any of its bits.
    if i.opsel != 0 && matches!(op, Op::V_INTERP_P10_F32 | Op::V_INTERP_P2_F32) {
        return Err(DecodeError::Unsupported { what: "op_sel on a 32-bit VINTERP opcode", len });
    }
    i.clamp = bits(w0, 15, 1) != 0;
    i.neg = bits(w1, 29, 3) as u8;
    let lit = w.get(2).copied();
    for (k, f) in fields.into_iter().enumerate() {
        i.src[k] = source(f, t[k + 1], lit)?;
    }
    Ok(i)
}

fn decode_ldsdir(w0: u32) -> Result<Inst, DecodeError> {
    if bits(w0, 22, 2) != 0 {
        return Err(DecodeError::Unsupported { what: "LDSDIR reserved bits", len: 1 });
    }
    let code = bits(w0, 20, 2);
    let op =
        lookup(Encoding::Ldsdir, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Ldsdir, code, len: 1 })?;
    let mut i = Inst::new(op, 1);
    i.dst = Operand::Vgpr(bits(w0, 0, 8) as u16);
    i.imm = bits(w0, 16, 4) as i32; // wait_vdst
    i.imm1 = bits(w0, 8, 8) as i32; // attr (15:10), channel (9:8)
    Ok(i)
}

fn decode_exp(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let mut i = Inst::new(Op::EXP, 2);
    i.imm = bits(w0, 0, 16) as i32; // en 3:0, target 9:4, done 11, row 13
    i.ext = w1;
    Ok(i)
}

fn decode_mtbuf(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 15, 4);
    let len = buffer_len(w1);
    let op = lookup(Encoding::Mtbuf, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Mtbuf, code, len })?;
    let mut i = buffer_fields(op, w0, w)?;
    i.imm1 = bits(w0, 19, 7) as i32; // format
    Ok(i)
}

/// MIMG fields in [`Inst::imm`] (from the first dword: dmask, dim and the flags that are not
/// cache bits, which are in [`Inst::flags`]). [`Inst::imm1`] holds the VGPR counts of vdata
/// (bits 7:0) and of the address (bits 15:8), [`Inst::ext`] the NSA dword of further address
/// VGPRs (bytes in order). `dst` = vdata, `src[0]` = first address VGPR, `src[1]` = the
/// resource (T#), `src[2]` = the sampler (S#) of sample and gather instructions.
pub mod mimg {
    pub const DMASK: i32 = 0xf;
    pub const DIM_SHIFT: u32 = 4;
    pub const UNORM: i32 = 1 << 7;
    pub const R128: i32 = 1 << 8;
    pub const A16: i32 = 1 << 9;
    pub const LWE: i32 = 1 << 10;
    pub const D16: i32 = 1 << 11;
    /// The address is a list of VGPRs (non-sequential address, one dword more).
    pub const NSA: i32 = 1 << 12;
    /// Dimension names in `dim` field order.
    pub const DIMS: [&str; 8] = ["1D", "2D", "3D", "CUBE", "1D_ARRAY", "2D_ARRAY", "2D_MSAA", "2D_MSAA_ARRAY"];
    /// Address VGPRs of each slot of image_bvh_intersect_ray and image_bvh64_intersect_ray:
    /// node pointer, ray extent, origin, direction, inverse direction (a16 packs the last two
    /// into one slot's three VGPRs and drops the fifth).
    pub const BVH_SLOTS: [[u8; 5]; 2] = [[1, 1, 3, 3, 3], [2, 1, 3, 3, 3]];
    /// Derivatives of the `_d` forms per dim, both directions (x then y of each).
    pub const GRADS: [u32; 8] = [2, 4, 6, 4, 2, 4, 4, 4];

    /// Address VGPRs the derivatives take on `dim`: one each, or with `_g16` two f16 per
    /// VGPR, each direction packed on its own, an odd count padded (LLVM's
    /// `packImage16bitOpsToDwords`).
    pub fn grad_dwords(dim: usize, g16: bool) -> u32 {
        let n = GRADS.get(dim).copied().unwrap_or(0);
        if g16 {
            2 * (n / 2).div_ceil(2)
        } else {
            n
        }
    }

    /// Whether an image atomic with `dmask` is 64-bit (`Some(true)`) or 32-bit: LLVM's
    /// `lowerImage` gives 32-bit atomics dmask 0x1 and 64-bit ones 0x3, cmpswap (data and
    /// compare value) 0x3 and 0xf. `None` for any other dmask.
    pub fn atomic_wide(cmpswap: bool, dmask: u32) -> Option<bool> {
        match (cmpswap, dmask) {
            (false, 0x1) | (true, 0x3) => Some(false),
            (false, 0x3) | (true, 0xf) => Some(true),
            _ => None,
        }
    }
}

/// The address a MIMG opcode takes, read from its name (`image_sample_c_d_cl_o_g16`).
#[derive(Default)]
struct MimgShape {
    /// Offset, bias and compare dwords before the coordinates.
    extra: u32,
    /// A LOD, clamp or mip level after the coordinates.
    lod: bool,
    coords: bool,
    /// Derivatives (16-bit with `g16`).
    grad: bool,
    g16: bool,
    /// Has a sampler operand.
    sampler: bool,
    /// Returns four components whatever dmask is (gather4, msaa_load).
    four: bool,
    gather: bool,
    atomic: bool,
    cmpswap: bool,
    /// LLVM rejects d16.
    no_d16: bool,
    /// Has forms for MSAA dimensions (loads, stores and atomics without a mip level).
    msaa_dims: bool,
}

fn mimg_shape(name: &str) -> MimgShape {
    let base = name.strip_prefix("image_").unwrap_or(name);
    let mut s = MimgShape { coords: true, ..MimgShape::default() };
    let mut parts = base.split('_');
    let first = parts.next().unwrap_or("");
    match first {
        "sample" | "gather4" | "gather4h" | "get" if base != "get_resinfo" => {
            s.sampler = true;
            s.gather = first.starts_with("gather4");
            s.four = s.gather;
            s.no_d16 = base == "get_lod";
            for p in parts {
                match p {
                    "c" | "o" | "b" => s.extra += 1,
                    "l" | "cl" => s.lod = true,
                    "d" => s.grad = true,
                    "g16" => s.g16 = true,
                    _ => {}
                }
            }
        }
        "atomic" => {
            s.atomic = true;
            s.cmpswap = base == "atomic_cmpswap";
            s.no_d16 = true;
            s.msaa_dims = true;
        }
        "get" => {
            s.coords = false;
            s.lod = true;
            s.no_d16 = true;
        }
        _ => {
            for p in parts {
                s.lod |= p == "mip";
                s.no_d16 |= p == "pck";
            }
            s.four = base == "msaa_load";
            s.msaa_dims = !s.lod;
        }
    }
    s
}

/// Address dwords of a MIMG instruction of `shape` for dimension `dim`, with 16-bit
/// addresses (`a16`) or 32-bit ones.
fn mimg_addr_dwords(s: &MimgShape, dim: usize, a16: bool) -> u32 {
    const COORDS: [u32; 8] = [1, 2, 3, 3, 2, 3, 3, 4];
    let comps = if s.coords { COORDS[dim] } else { 0 } + s.lod as u32;
    let grads = if s.grad { mimg::grad_dwords(dim, s.g16) } else { 0 };
    s.extra + grads + if a16 { comps.div_ceil(2) } else { comps }
}

fn decode_mimg(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    // NSA (bit 0) adds a dword of further address VGPRs.
    let nsa = w0 & 1 != 0;
    let len = 2 + nsa as u8;
    let w1 = need(w.get(1).copied())?;
    if w.len() < len as usize {
        return Err(DecodeError::Truncated);
    }
    let code = bits(w0, 18, 8);
    let op = lookup(Encoding::Mimg, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Mimg, code, len })?;
    let reject = |what| Err(DecodeError::Unsupported { what, len });
    let nsa_word = if nsa { w.get(2).copied().unwrap_or(0) } else { 0 };
    let dim = bits(w0, 2, 3);
    let dmask = bits(w0, 8, 4);
    let (a16, d16, tfe) = (bits(w0, 16, 1) != 0, bits(w0, 17, 1) != 0, bits(w1, 21, 1) != 0);
    let (vdata, vaddr) = (bits(w1, 8, 8), bits(w1, 0, 8));
    let (srsrc, ssamp) = (bits(w1, 16, 5), bits(w1, 26, 5));
    let nsa_reg = |k: u32| bits(nsa_word, 8 * k, 8);
    let mut i = Inst::new(op, len);
    i.dst = Operand::Vgpr(vdata as u16);
    i.src[0] = Operand::Vgpr(vaddr as u16);
    i.src[1] = Operand::Sgpr((srsrc * 4) as u8);
    i.ext = nsa_word;
    i.imm = dmask as i32 | (dim << mimg::DIM_SHIFT) as i32;
    for (bit, f) in [(7, mimg::UNORM), (15, mimg::R128), (16, mimg::A16), (17, mimg::D16)] {
        if bits(w0, bit, 1) != 0 {
            i.imm |= f;
        }
    }
    if bits(w1, 22, 1) != 0 {
        i.imm |= mimg::LWE;
    }
    if nsa {
        i.imm |= mimg::NSA;
    }
    for (bit, f) in [(14, mflag::GLC), (12, mflag::SLC), (13, mflag::DLC)] {
        if bits(w0, bit, 1) != 0 {
            i.flags |= f;
        }
    }
    if tfe {
        i.flags |= mflag::TFE;
    }

    if matches!(op, Op::IMAGE_BVH_INTERSECT_RAY | Op::IMAGE_BVH64_INTERSECT_RAY) {
        // dmask 0xf, unorm and r128 are required, dim, the cache bits, d16, tfe, lwe and the
        // sampler field clear; a16 may vary.
        let fixed = w0 & 0x2_ff9c == 0x8f80 && bits(w1, 21, 2) == 0 && ssamp == 0;
        if !fixed || !sgpr_tuple_ok(srsrc * 4, 4) || vdata + 4 > 256 {
            return reject("image_bvh fields other than a16");
        }
        let slots = &mimg::BVH_SLOTS[(op == Op::IMAGE_BVH64_INTERSECT_RAY) as usize][..5 - a16 as usize];
        let n: u32 = slots.iter().map(|&s| s as u32).sum();
        // (LLVM 19 crashes on an NSA tuple past v255.)
        let fits = if nsa {
            slots.iter().enumerate().all(|(k, &s)| if k == 0 { vaddr } else { nsa_reg(k as u32 - 1) } + s as u32 <= 256)
        } else {
            vaddr + n <= 256
        };
        if !fits {
            return reject("a register tuple past v255");
        }
        i.imm1 = (4 | n << 8) as i32;
        return Ok(i);
    }

    let s = mimg_shape(op.name());
    if !s.sampler && ssamp != 0 {
        return reject("a sampler field in an image instruction without one");
    }
    if s.no_d16 && d16 {
        return reject("d16 in an image instruction without 16-bit data");
    }
    if !sgpr_tuple_ok(srsrc * 4, 8) || s.sampler && !sgpr_tuple_ok(ssamp * 4, 4) {
        return reject("an image resource or sampler in SGPRs LLVM rejects");
    }
    if s.sampler {
        i.src[2] = Operand::Sgpr((ssamp * 4) as u8);
    }

    // LLVM picks the variant of the instruction for the data and address sizes the fields
    // call for. Where no such variant exists, or its registers pass v255, it keeps the
    // variant it decoded first: one data VGPR (four for gather4 and msaa_load, two for
    // cmpswap) and the smallest address (the largest NSA list of single VGPRs).
    let mut data = if s.four { 4 } else { dmask.count_ones().max(1) };
    if d16 {
        data = data.div_ceil(2);
    }
    data += tfe as u32;
    let data = match data {
        2 | 4 if s.cmpswap => Some(data),
        1 | 2 if s.atomic && !s.cmpswap => Some(data),
        4 if s.atomic && !s.cmpswap => Some(5),
        2 | 4 | 5 if s.gather => Some(data),
        _ if s.atomic || s.gather => None,
        _ => Some(data),
    };
    let (lo, hi) = if !s.coords {
        (1, 4)
    } else {
        let dims = if s.msaa_dims { 8 } else { 6 };
        let (mut lo, mut hi) = (u32::MAX, 0);
        for d in 0..dims {
            for a in [false, true] {
                let n = mimg_addr_dwords(&s, d, a);
                (lo, hi) = (lo.min(n), hi.max(n));
            }
        }
        (if s.grad { s.extra + 2 } else { lo }, hi)
    };
    let addr = mimg_addr_dwords(&s, dim as usize, a16);
    let addr_ok = if nsa {
        (lo.max(2)..=hi).contains(&addr)
    } else {
        (lo..=hi).contains(&addr) || addr == hi + 1 && matches!(hi, 3 | 7)
    };
    let fits = |data: u32, addr: u32| {
        vdata + data <= 256
            && match (nsa, addr) {
                (false, _) => vaddr + addr <= 256,
                (true, 6..) => nsa_reg(3) + addr - 4 <= 256,
                _ => true,
            }
    };
    let default = (
        if s.four {
            4
        } else if s.cmpswap {
            2
        } else {
            1
        },
        if nsa { hi.min(5) } else { lo },
    );
    if !fits(default.0, default.1) {
        return reject("a register tuple past v255");
    }
    let (data, addr) = match data {
        Some(d) if addr_ok && fits(d, addr) => (d, addr),
        _ => default,
    };
    i.imm1 = (data | addr << 8) as i32;
    Ok(i)
}

fn decode_smem(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 18, 8);
    let op = lookup(Encoding::Smem, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Smem, code, len: 2 })?;
    let t = op.info().ty;
    let (sdata, sbase) = (bits(w0, 6, 7), bits(w0, 0, 6) * 2);
    // The cache invalidations and probes take no glc/dlc.
    if t[0] == Ty::N && bits(w0, 13, 2) != 0 {
        return Err(DecodeError::Unsupported { what: "SMEM flags LLVM rejects", len: 2 });
    }
    let mut i = Inst::new(op, 2);
    if t[1] != Ty::N {
        i.src[0] = Operand::Sgpr(sbase as u8);
        i.src[1] = Operand::Sgpr(bits(w1, 25, 7) as u8);
        i.imm = sext(bits(w1, 0, 21), 21);
    }
    if t[0] != Ty::N {
        i.dst = Operand::Sgpr(sdata as u8);
    } else {
        i.imm1 = sdata as i32; // s_atc_probe*: an immediate
    }
    i.flags = if bits(w0, 14, 1) != 0 { mflag::GLC } else { 0 } | if bits(w0, 13, 1) != 0 { mflag::DLC } else { 0 };
    Ok(i)
}

fn decode_ds(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 18, 8);
    let op = lookup(Encoding::Ds, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Ds, code, len: 2 })?;
    let t = op.info().ty;
    let gds = bits(w0, 17, 1) != 0;
    // Fields in slot order: vdst, addr, data0, data1. LLVM rejects an encoding that sets
    // the field of an absent operand, a GDS-only instruction without `gds`, an LDS-only one
    // with it, and ds_nop with an offset.
    let fields = [bits(w1, 24, 8), bits(w1, 0, 8), bits(w1, 8, 8), bits(w1, 16, 8)];
    let stray = fields.iter().zip(t).any(|(&f, ty)| ty == Ty::N && f != 0);
    let bad_gds = if op.has_flag(F::GDS) { !gds } else { gds && op.has_flag(F::LDS) };
    if stray || bad_gds || (op == Op::DS_NOP && bits(w0, 0, 16) != 0) {
        return Err(DecodeError::Unsupported { what: "DS fields of absent operands", len: 2 });
    }
    let mut i = Inst::new(op, 2);
    i.imm = bits(w0, 0, 8) as i32;
    i.imm1 = bits(w0, 8, 8) as i32;
    if gds {
        i.flags |= mflag::GDS;
    }
    i.src[0] = Operand::Vgpr(bits(w1, 0, 8) as u16);
    i.src[1] = Operand::Vgpr(bits(w1, 8, 8) as u16);
    i.src[2] = Operand::Vgpr(bits(w1, 16, 8) as u16);
    i.dst = Operand::Vgpr(bits(w1, 24, 8) as u16);
    Ok(i)
}

fn decode_mubuf(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 18, 8);
    let len = buffer_len(w1);
    let op = lookup(Encoding::Mubuf, code).ok_or(DecodeError::UnknownOpcode { enc: Encoding::Mubuf, code, len })?;
    buffer_fields(op, w0, w)
}

/// MUBUF/MTBUF length: a literal soffset follows the two dwords.
fn buffer_len(w1: u32) -> u8 {
    2 + (bits(w1, 24, 8) == SRC_LITERAL) as u8
}

/// The fields MUBUF and MTBUF share.
fn buffer_fields(op: Op, w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let info = op.info();
    let lds = op.has_flag(F::LDS);
    // The cache invalidations have no operands at all: they take neither glc/dlc nor
    // addressing bits, and their other fields are ignored.
    if info.ty[0] == Ty::N && !lds {
        if bits(w0, 13, 2) != 0 || bits(w1, 21, 3) != 0 {
            return Err(DecodeError::Unsupported { what: "buffer flags this instruction does not have", len: 2 });
        }
        return Ok(Inst::new(op, 2));
    }
    let len = buffer_len(w1);
    // TFE exists only for MUBUF loads and stores to VGPRs (not atomics, LDS loads or
    // MTBUF).
    let tfe_ok = info.enc == Encoding::Mubuf && info.flags & F::ATOMIC == 0 && !lds;
    if !tfe_ok && bits(w1, 21, 1) != 0 {
        return Err(DecodeError::Unsupported { what: "buffer flags this instruction does not have", len });
    }
    let mut i = Inst::new(op, len);
    i.imm = bits(w0, 0, 12) as i32;
    let mut f = 0;
    for (bit, flag) in [(14, mflag::GLC), (12, mflag::SLC), (13, mflag::DLC)] {
        if bits(w0, bit, 1) != 0 {
            f |= flag;
        }
    }
    for (bit, flag) in [(22, mflag::OFFEN), (23, mflag::IDXEN), (21, mflag::TFE)] {
        if bits(w1, bit, 1) != 0 {
            f |= flag;
        }
    }
    i.flags = f;
    i.src[0] = Operand::Vgpr(bits(w1, 0, 8) as u16);
    if !lds {
        let vdata = Operand::Vgpr(bits(w1, 8, 8) as u16);
        i.dst = vdata;
        i.src[1] = vdata;
    }
    i.src[2] = Operand::Sgpr((bits(w1, 16, 5) * 4) as u8);
    i.src[3] = source(bits(w1, 24, 8), Ty::B32, w.get(2).copied())?;
    Ok(i)
}

fn decode_flat(w0: u32, w: &[u32]) -> Result<Inst, DecodeError> {
    let w1 = need(w.get(1).copied())?;
    let code = bits(w0, 18, 7);
    let enc = match bits(w0, 16, 2) {
        0 => Encoding::Flat,
        1 => Encoding::Scratch,
        2 => Encoding::Global,
        _ => return Err(DecodeError::UnknownEncoding(w0)),
    };
    let op = lookup(enc, code).ok_or(DecodeError::UnknownOpcode { enc, code, len: 2 })?;
    let saddr = bits(w1, 16, 7);
    // FLAT has neither saddr nor SVE; GLOBAL has no SVE (its saddr pair is checked with
    // the other register tuples).
    let bad = match enc {
        Encoding::Flat => saddr != SGPR_NULL as u32 || bits(w1, 23, 1) != 0,
        Encoding::Global => bits(w1, 23, 1) != 0,
        _ => false,
    };
    if bad {
        return Err(DecodeError::Unsupported { what: "FLAT saddr/SVE fields of this segment", len: 2 });
    }
    let mut i = Inst::new(op, 2);
    // The offset is signed for GLOBAL and SCRATCH, unsigned for FLAT.
    i.imm = if enc == Encoding::Flat { bits(w0, 0, 13) as i32 } else { sext(bits(w0, 0, 13), 13) };
    let mut f = 0;
    for (bit, flag) in [(14, mflag::GLC), (15, mflag::SLC), (13, mflag::DLC)] {
        if bits(w0, bit, 1) != 0 {
            f |= flag;
        }
    }
    if bits(w1, 23, 1) != 0 {
        f |= mflag::SVE;
    }
    i.flags = f;
    // Scratch uses the VGPR address only with SVE; global_*_addtid_b32 never (the lane
    // id is the offset).
    let addtid = op.mem().is_some_and(|m| m.tid);
    i.src[0] = if (enc == Encoding::Scratch && f & mflag::SVE == 0) || addtid {
        Operand::None
    } else {
        Operand::Vgpr(bits(w1, 0, 8) as u16)
    };
    i.src[1] = Operand::Vgpr(bits(w1, 8, 8) as u16);
    // saddr = 0x7c ("off") selects the 64-bit VGPR address form.
    i.src[2] = if saddr == SGPR_NULL as u32 { Operand::None } else { Operand::Sgpr(saddr as u8) };
    i.dst = Operand::Vgpr(bits(w1, 24, 8) as u16);
    Ok(i)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decodes_saxpy_words_from_llvm() {
        // Words from llvm-objdump-19 of an LLVM-compiled saxpy kernel.
        let i = decode(&[0xD6560000, 0x04010C0F], false).unwrap();
        assert_eq!(i.op, Op::V_LSHL_OR_B32);
        assert_eq!(i.src, [Operand::Sgpr(15), Operand::Const { code: 134, value: 6 }, Operand::Vgpr(0), Operand::None]);
        let i = decode(&[0xE0500000, 0x80400100], false).unwrap();
        assert_eq!(i.op, Op::BUFFER_LOAD_B32);
        assert_eq!(i.dst, Operand::Vgpr(1));
        assert_eq!(i.src[2], Operand::Sgpr(0));
        assert_eq!(i.flags, mflag::OFFEN);
        let i = decode(&[0xBFA50012], false).unwrap();
        assert_eq!((i.op, i.imm), (Op::S_CBRANCH_EXECZ, 18));
        let i = decode(&[0x7C980002], false).unwrap();
        assert_eq!(i.op, Op::V_CMP_GT_U32);
        assert_eq!(i.sdst, Operand::Sgpr(SGPR_VCC_LO));
    }

    #[test]
    fn src_lds_direct_only_in_32_bit_operands() {
        // Words probed with llvm-objdump-19: accepted in 32-bit SALU and VOP3 sources and
        // a wave32 lane mask, rejected in 64-bit ones and a wave64 lane mask.
        let lds = Operand::Special(SRC_LDS_DIRECT);
        assert_eq!(decode(&[0xbe800ffe], false).map(|i| i.src[0]), Ok(lds)); // s_sext_i32_i16
        assert!(decode(&[0xbe8033fe], false).is_err()); // s_or_not1_saveexec_b64
        assert!(decode(&[0x8ccc8dfe], true).is_err()); // s_or_b64
        assert_eq!(decode(&[0xd61000e6, 0x001dfc00], true).map(|i| i.src[1]), Ok(lds)); // v_bfe_u32
        assert!(decode(&[0xd5970005, 0x000000fe], false).is_err()); // v_trunc_f64_e64
        let cndmask = [0xd5010005, 0x03f80802]; // v_cndmask_b32_e64 v5, s2, s4, src_lds_direct
        assert_eq!(decode(&cndmask, false).map(|i| i.src[2]), Ok(lds));
        assert!(decode(&cndmask, true).is_err());
    }

    #[test]
    fn never_panics_on_arbitrary_words() {
        let mut x = 0x1234_5678_9abc_def0u64;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let w = [x as u32, (x >> 32) as u32, x.rotate_left(17) as u32];
            let _ = decode(&w, x & 1 != 0);
            let _ = decode(&w[..1], x & 2 != 0);
            let _ = decode_exec(&w, x & 4 != 0);
        }
    }
}
