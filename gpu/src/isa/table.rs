//! The gfx11 opcode table: one row per opcode, the one home of the per-opcode facts (what
//! an opcode computes lives in the executor's `match`, not here). The decoder (code →
//! [`Op`]), the disassembler (mnemonic, operand widths, modifier fields), the executor (an
//! exhaustive `match` on [`Op`], memory access shapes, atomic operations), the memory
//! counters and the debug checker, and the translation tier (which instructions are
//! branches, waits, no-ops, lowered inline or run by the interpreter) all read the same
//! row. Opcode numbers and mnemonics are LLVM 19's (`llvm-mc-19 -mcpu=gfx1100`).
//!
//! **Provenance.** The table is maintained by hand. Its rows were first generated from
//! LLVM 19 (every opcode number of every encoding disassembled with `llvm-objdump-19
//! --mcpu=gfx1100`, operand widths and constant classes read from the output, the VOP3
//! modifier fields probed bit by bit) by a one-off script that was not kept; since then
//! they have been edited by hand. `gpu/tests/llvm_isa.rs` checks them against LLVM 19 on
//! every run: random instructions of every opcode number of every encoding must decode and
//! disassemble exactly as `llvm-objdump-19` does, which pins the numbers, mnemonics,
//! operand types, flags and modifier fields. The facts column is softnavi's own (what the
//! executor and the translator do): `memory_facts_agree_with_the_mnemonics` (below) checks
//! the memory facts against the mnemonics, `tests/exec_flow.rs` that the `nop` and `wait`
//! rows change nothing in either tier, and the tests of `isa::exec` and
//! `tests/exec_*.rs` the rest through what the executor does with them.
//!
//! Each block is `Encoding pattern_macro { rows }` (the macro matches all of the block's
//! opcodes); each row: `code NAME "mnemonic" [dst src0 src1 src2] flags => facts;`.
//!
//! *Stored* (stated by the row):
//! - The four [`Ty`] slots mean, per encoding: SOP/VOP/VOP3P/VINTERP — destination and
//!   sources; SMEM — data and base widths; DS — vdst, addr, data0, data1;
//!   MUBUF/MTBUF/FLAT — data width (loads: returned, stores: supplied; atomics: returned,
//!   then supplied); SOPK/SOPP — the destination (if any), the immediate and (s_setreg*)
//!   the source; an `Imm16` source of SOP1 (s_sendmsg_rtn_*) is an immediate in the source
//!   field.
//! - `flags` are [`F`] bits; `X` marks the opcodes the executor implements.
//! - `facts` ([`Facts`], built with the constructors of [`row`]) says what the opcode is,
//!   a [`Kind`]: `alu` (the translation tier lowers it inline where it can), `interp` (the
//!   interpreter runs it, translated code calls out), `nop`, `wait`, `branch`, `jump`,
//!   `msg`/`msg_rtn`, or for the memory encodings (and only for them: the macro rejects a
//!   row that breaks this) the access: `ld(bytes)`, `st(bytes)`, `ldf(components)`,
//!   `stf(components)`, `rmw(bytes, operation)`, `sample`, `bvh`, `special`, with
//!   modifiers `.sx()` (sign-extended), `.lo()`/`.hi()` (D16 half), `.two(stride)` (DS
//!   two-address), `.tid()` (lane-indexed address). VOP3/VOP3P rows whose modifier fields
//!   are not all there and printed add `.v3(has, printed)`. The facts column is mandatory:
//!   a row without it does not compile.
//!
//! *Derived* (computed from the stored facts when the static table is built, at compile
//! time): [`OpInfo::counters`] (the memory-counter class, [`counters`]) and
//! [`F::ATOMIC`] (an `rmw` row outside DS). Derived elsewhere by rules over the row:
//! operand register counts ([`Ty::dwords`], `isa::rules::slot_ty`), the 32-bit VALU
//! encodings' v0..v127 limits, the DPP modifier bits and the register classes
//! (`isa::rules`, which lists LLVM's exceptions to each rule).

/// Instruction encodings of gfx11 (RDNA3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Encoding {
    Sop2,
    Sopk,
    Sop1,
    Sopc,
    Sopp,
    Smem,
    Vop2,
    Vop1,
    Vopc,
    /// VOP3-only opcodes (the VOP3 forms of VOP1/VOP2/VOPC opcodes belong to those).
    Vop3,
    Vop3p,
    Ds,
    Mubuf,
    Flat,
    Global,
    Scratch,
    /// Dual-issue VALU: one container opcode; the two halves are VOP1/VOP2 opcodes from
    /// [`VOPD_OPS`].
    Vopd,
    /// Graphics-only: parameter interpolation.
    Vinterp,
    /// Graphics-only: LDS parameter and direct loads.
    Ldsdir,
    Mtbuf,
    Mimg,
    /// Graphics-only: export.
    Exp,
}

/// Operand data types, as far as decoding and disassembly need them: they select the
/// register count and the meaning of inline constants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    /// No operand in this slot.
    N,
    B16,
    F16,
    B32,
    F32,
    /// Two f16 halves (packed math); literals print as LLVM's v2f16.
    V2F16,
    /// bfloat16, the high half of an f32, in the low half of a register.
    BF16,
    /// Two bf16 halves.
    V2BF16,
    B64,
    F64,
    B96,
    B128,
    B256,
    B512,
    /// A lane mask: VCC in the 32-bit VOP encodings, an SGPR (pair in wave64) in VOP3.
    Mask,
    /// A 16-bit immediate (SOPK, SOPP).
    Imm16,
}

impl Ty {
    /// Registers (dwords) an operand of this type occupies; lane masks depend on the wave.
    pub fn dwords(self, wave64: bool) -> u32 {
        match self {
            Ty::N | Ty::Imm16 => 0,
            Ty::B16 | Ty::F16 | Ty::BF16 | Ty::B32 | Ty::F32 | Ty::V2F16 | Ty::V2BF16 => 1,
            Ty::B64 | Ty::F64 => 2,
            Ty::B96 => 3,
            Ty::B128 => 4,
            Ty::B256 => 8,
            Ty::B512 => 16,
            Ty::Mask => 1 + wave64 as u32,
        }
    }
}

/// Opcode flags.
pub struct F;
impl F {
    pub const NONE: u16 = 0;
    /// VOP3 form is VOP3SD (has an SGPR carry/condition destination in bits 14:8).
    pub const SD: u16 = 1;
    /// VOPC: writes EXEC (v_cmpx).
    pub const CMPX: u16 = 2;
    /// SOPP, SOPK: the immediate is a branch offset (the decoder resolves its target).
    /// Whether the run loops follow it is the facts column's (`branch`, `jump`, `nop`).
    pub const BRANCH: u16 = 4;
    /// VOP2 fmamk/fmaak: the constant K is a literal that always follows; only the
    /// 32-bit encoding exists.
    pub const LIT_K: u16 = 8;
    /// FLAT/GLOBAL/MUBUF/MIMG: an atomic read-modify-write; `[returned, supplied]` widths
    /// (cmpswap supplies the new value and the compare value). Derived from the facts
    /// column (an `rmw` row outside DS, whose atomics keep the DS operand layout); a row
    /// does not state it.
    pub const ATOMIC: u16 = 16;
    /// DS: a GDS/GWS-only instruction (LLVM prints `gds`).
    pub const GDS: u16 = 32;
    /// Executed by softnavi; a decoded opcode without it raises the illegal-instruction
    /// exception when a wave reaches it.
    pub const X: u16 = 64;
    /// DS: an LDS-only instruction without a GDS form (its `gds` bit must be clear).
    /// MUBUF: a load into LDS (no VGPR data).
    pub const LDS: u16 = 128;
    /// VOP1/VOP2: only the 32-bit encoding exists (no VOP3 form), so LLVM prints no
    /// `_e32` suffix.
    pub const E32: u16 = 256;
    /// SOP1: the source is a register only (LLVM prints a constant there followed by
    /// `/*Invalid immediate*/`).
    pub const SREG: u16 = 512;
    /// VOP1/VOP2/VOPC/VOP3/VOP3P: LLVM 19 has no DPP form of this opcode (DPP16 or DPP8,
    /// e32 or VOP3), beyond the rule that DPP has no 64-bit operands (probed with
    /// llvm-objdump-19).
    pub const NODPP: u16 = 1024;
    /// A WMMA (matrix multiply-accumulate) opcode: its accumulator (vdst, src2) spreads
    /// over twice the lanes in wave64, so it takes half the registers there.
    pub const WMMA: u16 = 2048;
    /// Its 64-bit integer sources are signed: a 32-bit literal there is sign-extended to 64
    /// bits, where the other 64-bit integer sources zero-extend it (LLVM's
    /// OPERAND_REG_IMM_I64 and _U64; ACO builds 64-bit constants on it).
    pub const SEXT64: u16 = 4096;
}

/// What an opcode is, for the run loops, the translation tier, the memory counters and the
/// memory units: the facts column of a row (`=> alu`, `=> ld(4).sx()`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// Computes in the scalar or vector ALU and falls through. The translation tier lowers
    /// it inline where its lowering takes it, else calls out to the interpreter in the
    /// middle of its block.
    Alu,
    /// Runs in the interpreter only: translated code calls out to it and its block ends
    /// there (it may leave the run loop: end, barrier, trap, fault, MODE change).
    Interp,
    /// Has no effect in this model: the lean loop, the interpreter and the translation
    /// tier skip it (s_nop, s_clause, s_delay_alu, the debug branches, ...).
    Nop,
    /// Waits for the memory counters (`Wave::waitcnt`; the translation tier inlines it).
    Wait,
    /// A SOPP branch, conditional or not, to the instruction its offset names.
    Branch,
    /// Moves the program counter to a register value or calls (s_setpc, s_swappc, s_rfe,
    /// s_call): the interpreter runs it, and its block ends.
    Jump,
    /// A message (s_sendmsg*): counts on LGKMcnt, completing in any order; `rtn`: it
    /// returns a value to its SGPR destination (and counts twice: issue and return).
    Msg { rtn: bool },
    /// An instruction of a memory unit (SMEM, DS, MUBUF, MTBUF, MIMG, FLAT, GLOBAL,
    /// SCRATCH, LDSDIR, EXP), run by the interpreter; what it accesses.
    Mem(Mem),
}

/// What a memory instruction moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// No data of its own, or data the unit handles by opcode (cache invalidations, the
    /// DS crossbar and counter instructions, GDS/GWS, probes, graphics-only ones).
    None,
    Load,
    Store,
    /// A read-modify-write ([`Mem::rmw`]).
    Atomic,
    /// An image sample or gather (a load through the sampler).
    Sample,
    /// A ray intersection (image_bvh*).
    Bvh,
}

/// Which half of a VGPR a D16 access uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum D16 {
    /// The whole register(s).
    No,
    /// Bits 15:0 (loads keep bits 31:16).
    Lo,
    /// Bits 31:16 (loads keep bits 15:0; stores take their data from there).
    Hi,
}

/// The read-modify-write of an atomic (one operation, whichever unit: LDS, buffer, global,
/// flat, image). Data operands: `d0` is the source, `d1` the second data operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rmw {
    /// `d0` (LDS: storexchg).
    Swap,
    /// `mem == d1 ? d0 : mem` (LDS: cmpstore; buffer/flat: cmpswap, the new value first).
    CmpSwap,
    /// CmpSwap compared as floats.
    FCmpSwap,
    Add,
    Sub,
    /// `d0 - mem` (LDS only).
    Rsub,
    /// Subtract, clamped at zero (buffer/global csub).
    CSub,
    /// `mem >= d0 ? 0 : mem + 1`.
    Inc,
    /// `mem == 0 || mem > d0 ? d0 : mem - 1`.
    Dec,
    SMin,
    SMax,
    UMin,
    UMax,
    FMin,
    FMax,
    FAdd,
    And,
    Or,
    Xor,
    /// `(mem & !d0) | d1` (LDS only).
    Mskor,
    /// `mem >= d0 ? mem - d0 : mem + d1` (LDS only).
    Wrap,
    /// Per dword, where the data's bit 31 is set, its bits 30:0 (LDS only).
    CondXchg32,
}

/// What a memory instruction accesses, as its row states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mem {
    pub access: Access,
    /// Bytes per lane (per element, for the two-address DS forms): the data size of a
    /// plain load or store, the operand size of an atomic; 0 where a format, the V# or the
    /// image descriptor decides.
    pub size: u8,
    /// Narrow loads: sign-extended.
    pub signed: bool,
    pub d16: D16,
    /// Format conversions (buffer_*_format_*, tbuffer_*): the components; 0: none.
    pub comps: u8,
    /// An atomic's operation.
    pub rmw: Option<Rmw>,
    /// DS two-address forms: offset0 and offset1 count elements times this (1, or 64 for
    /// stride64); 0: one address.
    pub stride: u8,
    /// The address is lane-indexed (ds_*_addtid_b32: M0 + offset + 4 × lane;
    /// global_*_addtid_b32: saddr + offset + 4 × lane).
    pub tid: bool,
}

/// The counter classes ([`Op::counters`]), bits: which of the wave's memory counters an
/// instruction counts on until it completes (RDNA3-NOTES, "Memory counters and s_waitcnt").
pub mod cnt {
    /// VMcnt (loads, sampling).
    pub const C_VM: u8 = 1;
    /// VScnt (stores).
    pub const C_VS: u8 = 2;
    /// A vector-memory atomic: VMcnt with GLC (returns the old value), else VScnt.
    pub const C_RMW: u8 = 4;
    /// LGKMcnt, completing in order (LDS, GDS, the LDS half of FLAT).
    pub const C_LGKM: u8 = 8;
    /// LGKMcnt, completing in any order (SMEM, messages).
    pub const C_LGKM_OOO: u8 = 16;
    /// Counts twice (s_sendmsg_rtn: issue and return, RDNA3-NOTES, "Messages").
    pub const C_TWICE: u8 = 32;
    /// EXPcnt (exports, LDS parameter and direct loads).
    pub const C_EXP: u8 = 64;
    /// Writes its destination when it completes.
    pub const C_LOAD: u8 = 128;
}

/// A row's facts column: what the opcode is, and (VOP3/VOP3P) which modifier fields LLVM
/// accepts and prints. Rows build it with the constructors of [`row`].
#[derive(Clone, Copy, Debug)]
pub struct Facts {
    pub kind: Kind,
    /// See [`OpInfo::vop3`].
    pub vop3: (u16, u16),
}

/// The constructors rows write in their facts column (`=> ...`).
#[allow(non_upper_case_globals)]
pub mod row {
    use super::{Access, Facts, Kind, Mem, Rmw, D16};

    const fn k(kind: Kind) -> Facts {
        Facts { kind, vop3: (0x3fff, 0x3fff) }
    }
    const fn m(access: Access, size: u8, comps: u8, rmw: Option<Rmw>) -> Facts {
        k(Kind::Mem(Mem { access, size, signed: false, d16: D16::No, comps, rmw, stride: 0, tid: false }))
    }

    pub const alu: Facts = k(Kind::Alu);
    pub const interp: Facts = k(Kind::Interp);
    pub const nop: Facts = k(Kind::Nop);
    pub const wait: Facts = k(Kind::Wait);
    pub const branch: Facts = k(Kind::Branch);
    pub const jump: Facts = k(Kind::Jump);
    pub const msg: Facts = k(Kind::Msg { rtn: false });
    pub const msg_rtn: Facts = k(Kind::Msg { rtn: true });
    /// A memory-unit instruction without data of its own ([`Access::None`]).
    pub const special: Facts = m(Access::None, 0, 0, None);
    pub const sample: Facts = m(Access::Sample, 0, 0, None);
    pub const bvh: Facts = m(Access::Bvh, 0, 0, None);

    /// A load of `size` bytes per lane.
    pub const fn ld(size: u8) -> Facts {
        m(Access::Load, size, 0, None)
    }
    /// A store of `size` bytes per lane.
    pub const fn st(size: u8) -> Facts {
        m(Access::Store, size, 0, None)
    }
    /// A format-converting load of `comps` components.
    pub const fn ldf(comps: u8) -> Facts {
        m(Access::Load, 0, comps, None)
    }
    /// A format-converting store of `comps` components.
    pub const fn stf(comps: u8) -> Facts {
        m(Access::Store, 0, comps, None)
    }
    /// An atomic of `size`-byte operands.
    pub const fn rmw(size: u8, op: Rmw) -> Facts {
        m(Access::Atomic, size, 0, Some(op))
    }

    impl Facts {
        const fn edit(self, signed: Option<bool>, d16: Option<D16>, stride: Option<u8>, tid: Option<bool>) -> Facts {
            // Evaluated at compile time: a modifier on a row that is no memory access does
            // not compile.
            let Kind::Mem(mut x) = self.kind else { panic!("a memory modifier on a row that is not a memory access") }; // ok: const evaluation, a compile error
            if let Some(s) = signed {
                x.signed = s;
            }
            if let Some(h) = d16 {
                x.d16 = h;
            }
            if let Some(s) = stride {
                x.stride = s;
            }
            if let Some(t) = tid {
                x.tid = t;
            }
            Facts { kind: Kind::Mem(x), vop3: self.vop3 }
        }
        /// Sign-extends (narrow loads).
        pub const fn sx(self) -> Facts {
            self.edit(Some(true), None, None, None)
        }
        /// D16: the low half of the VGPR.
        pub const fn lo(self) -> Facts {
            self.edit(None, Some(D16::Lo), None, None)
        }
        /// D16: the high half of the VGPR.
        pub const fn hi(self) -> Facts {
            self.edit(None, Some(D16::Hi), None, None)
        }
        /// A DS two-address form whose offsets count `stride` elements.
        pub const fn two(self, stride: u8) -> Facts {
            self.edit(None, None, Some(stride), None)
        }
        /// A lane-indexed address.
        pub const fn tid(self) -> Facts {
            self.edit(None, None, None, Some(true))
        }
        /// The VOP3/VOP3P modifier fields, where they are not all there and printed.
        pub const fn v3(self, has: u16, printed: u16) -> Facts {
            Facts { kind: self.kind, vop3: (has, printed) }
        }
    }
}

/// Static facts of one opcode: its row.
#[derive(Debug)]
pub struct OpInfo {
    pub op: Op,
    pub enc: Encoding,
    pub code: u16,
    pub name: &'static str,
    /// `[dst, src0, src1, src2]`, see the module documentation.
    pub ty: [Ty; 4],
    /// [`F`] bits: those the row states, and [`F::ATOMIC`], derived from its facts.
    pub flags: u16,
    /// What the opcode is (the row's facts column).
    pub kind: Kind,
    /// VOP3/VOP3P: the modifier fields the opcode has, and those of them LLVM prints (a
    /// field it has but does not print is accepted and ignored), as `(has, printed)` masks
    /// (the layout is in `isa/rules.rs`). All of them unless the row says `.v3(..)`.
    pub vop3: (u16, u16),
    /// The memory counters it counts on, [`cnt`] bits (derived: [`counters`]).
    pub counters: u8,
}

const fn is_mem_encoding(enc: Encoding) -> bool {
    use Encoding::*;
    matches!(enc, Smem | Ds | Mubuf | Mtbuf | Mimg | Flat | Global | Scratch | Ldsdir | Exp)
}

/// The memory-counter class of a row (RDNA3-NOTES, "Memory counters and s_waitcnt": every
/// memory instruction counts on the counter of its group until it completes), derived from
/// its encoding, facts, destination type and flags: SMEM and messages count on LGKMcnt out
/// of order, DS on LGKMcnt in order, vector memory on VMcnt (loads, samples, atomics with
/// GLC) or VScnt (stores, atomics without), FLAT also on LGKMcnt (it may reach LDS),
/// exports and LDSDIR on EXPcnt. `C_LOAD`: it writes a destination (a MUBUF load into LDS
/// does not).
pub const fn counters(enc: Encoding, kind: Kind, ty: [Ty; 4], flags: u16) -> u8 {
    use cnt::*;
    let returns = if matches!(ty[0], Ty::N) { 0 } else { C_LOAD };
    let vmem = match kind {
        Kind::Mem(m) => match m.access {
            Access::None => 0,
            Access::Atomic => C_RMW,
            Access::Load | Access::Sample | Access::Bvh => {
                C_VM | if flags & F::LDS != 0 && matches!(enc, Encoding::Mubuf) { 0 } else { C_LOAD }
            }
            Access::Store => C_VS,
        },
        _ => 0,
    };
    match enc {
        Encoding::Smem => C_LGKM_OOO | returns,
        Encoding::Ds => C_LGKM | returns,
        Encoding::Mubuf | Encoding::Mtbuf | Encoding::Global | Encoding::Scratch | Encoding::Mimg => vmem,
        Encoding::Flat => vmem | C_LGKM,
        Encoding::Exp => C_EXP,
        Encoding::Ldsdir => C_EXP | C_LOAD,
        _ => match kind {
            Kind::Msg { rtn: false } => C_LGKM_OOO,
            Kind::Msg { rtn: true } => C_LGKM_OOO | C_TWICE | C_LOAD,
            _ => 0,
        },
    }
}

impl OpInfo {
    /// A row, with its derived facts. Evaluated at compile time (OPS is a static), so the
    /// checks here are compile errors.
    const fn new(op: Op, enc: Encoding, code: u16, name: &'static str, ty: [Ty; 4], flags: u16, f: Facts) -> OpInfo {
        if flags & F::ATOMIC != 0 {
            panic!("F::ATOMIC comes from the facts column (rmw), not a row"); // ok: a compile error
        }
        if is_mem_encoding(enc) != matches!(f.kind, Kind::Mem(_)) {
            panic!("memory encodings, and only they, state a memory access"); // ok: a compile error
        }
        let atomic = match f.kind {
            Kind::Mem(m) => matches!(m.access, Access::Atomic) && !matches!(enc, Encoding::Ds),
            _ => false,
        };
        let flags = flags | if atomic { F::ATOMIC } else { 0 };
        OpInfo {
            op,
            enc,
            code,
            name,
            ty,
            flags,
            kind: f.kind,
            vop3: f.vop3,
            counters: counters(enc, f.kind, ty, flags),
        }
    }
}

macro_rules! opcode_table {
    ($( $enc:ident $ops:ident { $( $code:literal $name:ident $text:literal [$d:ident $s0:ident $s1:ident $s2:ident] $($flag:ident)|+ => $facts:expr ; )* } )*) => {
        /// Every opcode softnavi decodes (and executes), across all encodings.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Op { $( $( $name, )* )* }

        /// Rows in [`Op`] order: `OPS[op as usize].op == op`.
        pub static OPS: &[OpInfo] = &[ $( $( OpInfo::new(
            Op::$name,
            Encoding::$enc,
            $code,
            $text,
            [Ty::$d, Ty::$s0, Ty::$s1, Ty::$s2],
            0 $( | F::$flag )+,
            {
                #[allow(unused_imports)]
                use $crate::isa::table::{row::*, Rmw::*};
                $facts
            },
        ), )* )* ];

        // One pattern macro per encoding, matching all of its opcodes (`ds_ops!()`), so
        // that the executor's dispatch can name a whole encoding without a second list.
        $(
            #[allow(unused_macros)]
            macro_rules! $ops {
                () => { $( $crate::isa::table::Op::$name )|* };
            }
            #[allow(unused_imports)]
            pub(crate) use $ops;
        )*
    };
}

opcode_table! {
    Sop2 sop2_ops {
        0x00 S_ADD_U32 "s_add_u32" [B32 B32 B32 N] X => alu;
        0x01 S_SUB_U32 "s_sub_u32" [B32 B32 B32 N] X => alu;
        0x02 S_ADD_I32 "s_add_i32" [B32 B32 B32 N] X => alu;
        0x03 S_SUB_I32 "s_sub_i32" [B32 B32 B32 N] X => alu;
        0x04 S_ADDC_U32 "s_addc_u32" [B32 B32 B32 N] X => alu;
        0x05 S_SUBB_U32 "s_subb_u32" [B32 B32 B32 N] X => alu;
        0x06 S_ABSDIFF_I32 "s_absdiff_i32" [B32 B32 B32 N] X => alu;
        0x08 S_LSHL_B32 "s_lshl_b32" [B32 B32 B32 N] X => alu;
        0x09 S_LSHL_B64 "s_lshl_b64" [B64 B64 B32 N] X => alu;
        0x0a S_LSHR_B32 "s_lshr_b32" [B32 B32 B32 N] X => alu;
        0x0b S_LSHR_B64 "s_lshr_b64" [B64 B64 B32 N] X => alu;
        0x0c S_ASHR_I32 "s_ashr_i32" [B32 B32 B32 N] X => alu;
        0x0d S_ASHR_I64 "s_ashr_i64" [B64 B64 B32 N] SEXT64 | X => alu;
        0x0e S_LSHL1_ADD_U32 "s_lshl1_add_u32" [B32 B32 B32 N] X => alu;
        0x0f S_LSHL2_ADD_U32 "s_lshl2_add_u32" [B32 B32 B32 N] X => alu;
        0x10 S_LSHL3_ADD_U32 "s_lshl3_add_u32" [B32 B32 B32 N] X => alu;
        0x11 S_LSHL4_ADD_U32 "s_lshl4_add_u32" [B32 B32 B32 N] X => alu;
        0x12 S_MIN_I32 "s_min_i32" [B32 B32 B32 N] X => alu;
        0x13 S_MIN_U32 "s_min_u32" [B32 B32 B32 N] X => alu;
        0x14 S_MAX_I32 "s_max_i32" [B32 B32 B32 N] X => alu;
        0x15 S_MAX_U32 "s_max_u32" [B32 B32 B32 N] X => alu;
        0x16 S_AND_B32 "s_and_b32" [B32 B32 B32 N] X => alu;
        0x17 S_AND_B64 "s_and_b64" [B64 B64 B64 N] X => alu;
        0x18 S_OR_B32 "s_or_b32" [B32 B32 B32 N] X => alu;
        0x19 S_OR_B64 "s_or_b64" [B64 B64 B64 N] X => alu;
        0x1a S_XOR_B32 "s_xor_b32" [B32 B32 B32 N] X => alu;
        0x1b S_XOR_B64 "s_xor_b64" [B64 B64 B64 N] X => alu;
        0x1c S_NAND_B32 "s_nand_b32" [B32 B32 B32 N] X => alu;
        0x1d S_NAND_B64 "s_nand_b64" [B64 B64 B64 N] X => alu;
        0x1e S_NOR_B32 "s_nor_b32" [B32 B32 B32 N] X => alu;
        0x1f S_NOR_B64 "s_nor_b64" [B64 B64 B64 N] X => alu;
        0x20 S_XNOR_B32 "s_xnor_b32" [B32 B32 B32 N] X => alu;
        0x21 S_XNOR_B64 "s_xnor_b64" [B64 B64 B64 N] X => alu;
        0x22 S_AND_NOT1_B32 "s_and_not1_b32" [B32 B32 B32 N] X => alu;
        0x23 S_AND_NOT1_B64 "s_and_not1_b64" [B64 B64 B64 N] X => alu;
        0x24 S_OR_NOT1_B32 "s_or_not1_b32" [B32 B32 B32 N] X => alu;
        0x25 S_OR_NOT1_B64 "s_or_not1_b64" [B64 B64 B64 N] X => alu;
        0x26 S_BFE_U32 "s_bfe_u32" [B32 B32 B32 N] X => alu;
        0x27 S_BFE_I32 "s_bfe_i32" [B32 B32 B32 N] X => alu;
        0x28 S_BFE_U64 "s_bfe_u64" [B64 B64 B32 N] X => alu;
        0x29 S_BFE_I64 "s_bfe_i64" [B64 B64 B32 N] X => alu;
        0x2a S_BFM_B32 "s_bfm_b32" [B32 B32 B32 N] X => alu;
        0x2b S_BFM_B64 "s_bfm_b64" [B64 B32 B32 N] X => alu;
        0x2c S_MUL_I32 "s_mul_i32" [B32 B32 B32 N] X => alu;
        0x2d S_MUL_HI_U32 "s_mul_hi_u32" [B32 B32 B32 N] X => alu;
        0x2e S_MUL_HI_I32 "s_mul_hi_i32" [B32 B32 B32 N] X => alu;
        0x30 S_CSELECT_B32 "s_cselect_b32" [B32 B32 B32 N] X => alu;
        0x31 S_CSELECT_B64 "s_cselect_b64" [B64 B64 B64 N] X => alu;
        0x32 S_PACK_LL_B32_B16 "s_pack_ll_b32_b16" [B32 B32 B32 N] X => alu;
        0x33 S_PACK_LH_B32_B16 "s_pack_lh_b32_b16" [B32 B32 B32 N] X => alu;
        0x34 S_PACK_HH_B32_B16 "s_pack_hh_b32_b16" [B32 B32 B32 N] X => alu;
        0x35 S_PACK_HL_B32_B16 "s_pack_hl_b32_b16" [B32 B32 B32 N] X => alu;
    }
    Sopk sopk_ops {
        0x00 S_MOVK_I32 "s_movk_i32" [B32 Imm16 N N] X => alu;
        0x01 S_VERSION "s_version" [N Imm16 N N] X => nop;
        0x02 S_CMOVK_I32 "s_cmovk_i32" [B32 Imm16 N N] X => alu;
        0x03 S_CMPK_EQ_I32 "s_cmpk_eq_i32" [B32 Imm16 N N] X => alu;
        0x04 S_CMPK_LG_I32 "s_cmpk_lg_i32" [B32 Imm16 N N] X => alu;
        0x05 S_CMPK_GT_I32 "s_cmpk_gt_i32" [B32 Imm16 N N] X => alu;
        0x06 S_CMPK_GE_I32 "s_cmpk_ge_i32" [B32 Imm16 N N] X => alu;
        0x07 S_CMPK_LT_I32 "s_cmpk_lt_i32" [B32 Imm16 N N] X => alu;
        0x08 S_CMPK_LE_I32 "s_cmpk_le_i32" [B32 Imm16 N N] X => alu;
        0x09 S_CMPK_EQ_U32 "s_cmpk_eq_u32" [B32 Imm16 N N] X => alu;
        0x0a S_CMPK_LG_U32 "s_cmpk_lg_u32" [B32 Imm16 N N] X => alu;
        0x0b S_CMPK_GT_U32 "s_cmpk_gt_u32" [B32 Imm16 N N] X => alu;
        0x0c S_CMPK_GE_U32 "s_cmpk_ge_u32" [B32 Imm16 N N] X => alu;
        0x0d S_CMPK_LT_U32 "s_cmpk_lt_u32" [B32 Imm16 N N] X => alu;
        0x0e S_CMPK_LE_U32 "s_cmpk_le_u32" [B32 Imm16 N N] X => alu;
        0x0f S_ADDK_I32 "s_addk_i32" [B32 Imm16 N N] X => alu;
        0x10 S_MULK_I32 "s_mulk_i32" [B32 Imm16 N N] X => alu;
        0x11 S_GETREG_B32 "s_getreg_b32" [B32 Imm16 N N] X => alu;
        0x12 S_SETREG_B32 "s_setreg_b32" [N Imm16 B32 N] X => alu;
        0x13 S_SETREG_IMM32_B32 "s_setreg_imm32_b32" [N Imm16 B32 N] X => alu;
        0x14 S_CALL_B64 "s_call_b64" [B64 Imm16 N N] BRANCH | X => jump;
        0x16 S_SUBVECTOR_LOOP_BEGIN "s_subvector_loop_begin" [B32 Imm16 N N] BRANCH => interp;
        0x17 S_SUBVECTOR_LOOP_END "s_subvector_loop_end" [B32 Imm16 N N] BRANCH => interp;
        0x18 S_WAITCNT_VSCNT "s_waitcnt_vscnt" [B32 Imm16 N N] X => wait;
        0x19 S_WAITCNT_VMCNT "s_waitcnt_vmcnt" [B32 Imm16 N N] X => wait;
        0x1a S_WAITCNT_EXPCNT "s_waitcnt_expcnt" [B32 Imm16 N N] X => wait;
        0x1b S_WAITCNT_LGKMCNT "s_waitcnt_lgkmcnt" [B32 Imm16 N N] X => wait;
    }
    Sop1 sop1_ops {
        0x00 S_MOV_B32 "s_mov_b32" [B32 B32 N N] X => alu;
        0x01 S_MOV_B64 "s_mov_b64" [B64 B64 N N] X => alu;
        0x02 S_CMOV_B32 "s_cmov_b32" [B32 B32 N N] X => alu;
        0x03 S_CMOV_B64 "s_cmov_b64" [B64 B64 N N] X => alu;
        0x04 S_BREV_B32 "s_brev_b32" [B32 B32 N N] X => alu;
        0x05 S_BREV_B64 "s_brev_b64" [B64 B64 N N] X => alu;
        0x08 S_CTZ_I32_B32 "s_ctz_i32_b32" [B32 B32 N N] X => alu;
        0x09 S_CTZ_I32_B64 "s_ctz_i32_b64" [B32 B64 N N] X => alu;
        0x0a S_CLZ_I32_U32 "s_clz_i32_u32" [B32 B32 N N] X => alu;
        0x0b S_CLZ_I32_U64 "s_clz_i32_u64" [B32 B64 N N] X => alu;
        0x0c S_CLS_I32 "s_cls_i32" [B32 B32 N N] X => alu;
        0x0d S_CLS_I32_I64 "s_cls_i32_i64" [B32 B64 N N] SEXT64 | X => alu;
        0x0e S_SEXT_I32_I8 "s_sext_i32_i8" [B32 B32 N N] X => alu;
        0x0f S_SEXT_I32_I16 "s_sext_i32_i16" [B32 B32 N N] X => alu;
        0x10 S_BITSET0_B32 "s_bitset0_b32" [B32 B32 N N] X => alu;
        0x11 S_BITSET0_B64 "s_bitset0_b64" [B64 B32 N N] X => alu;
        0x12 S_BITSET1_B32 "s_bitset1_b32" [B32 B32 N N] X => alu;
        0x13 S_BITSET1_B64 "s_bitset1_b64" [B64 B32 N N] X => alu;
        0x14 S_BITREPLICATE_B64_B32 "s_bitreplicate_b64_b32" [B64 B32 N N] X => alu;
        0x15 S_ABS_I32 "s_abs_i32" [B32 B32 N N] X => alu;
        0x16 S_BCNT0_I32_B32 "s_bcnt0_i32_b32" [B32 B32 N N] X => alu;
        0x17 S_BCNT0_I32_B64 "s_bcnt0_i32_b64" [B32 B64 N N] X => alu;
        0x18 S_BCNT1_I32_B32 "s_bcnt1_i32_b32" [B32 B32 N N] X => alu;
        0x19 S_BCNT1_I32_B64 "s_bcnt1_i32_b64" [B32 B64 N N] X => alu;
        0x1a S_QUADMASK_B32 "s_quadmask_b32" [B32 B32 N N] X => alu;
        0x1b S_QUADMASK_B64 "s_quadmask_b64" [B64 B64 N N] X => alu;
        0x1c S_WQM_B32 "s_wqm_b32" [B32 B32 N N] X => alu;
        0x1d S_WQM_B64 "s_wqm_b64" [B64 B64 N N] X => alu;
        0x1e S_NOT_B32 "s_not_b32" [B32 B32 N N] X => alu;
        0x1f S_NOT_B64 "s_not_b64" [B64 B64 N N] X => alu;
        0x20 S_AND_SAVEEXEC_B32 "s_and_saveexec_b32" [B32 B32 N N] X => alu;
        0x21 S_AND_SAVEEXEC_B64 "s_and_saveexec_b64" [B64 B64 N N] X => alu;
        0x22 S_OR_SAVEEXEC_B32 "s_or_saveexec_b32" [B32 B32 N N] X => alu;
        0x23 S_OR_SAVEEXEC_B64 "s_or_saveexec_b64" [B64 B64 N N] X => alu;
        0x24 S_XOR_SAVEEXEC_B32 "s_xor_saveexec_b32" [B32 B32 N N] X => alu;
        0x25 S_XOR_SAVEEXEC_B64 "s_xor_saveexec_b64" [B64 B64 N N] X => alu;
        0x26 S_NAND_SAVEEXEC_B32 "s_nand_saveexec_b32" [B32 B32 N N] X => alu;
        0x27 S_NAND_SAVEEXEC_B64 "s_nand_saveexec_b64" [B64 B64 N N] X => alu;
        0x28 S_NOR_SAVEEXEC_B32 "s_nor_saveexec_b32" [B32 B32 N N] X => alu;
        0x29 S_NOR_SAVEEXEC_B64 "s_nor_saveexec_b64" [B64 B64 N N] X => alu;
        0x2a S_XNOR_SAVEEXEC_B32 "s_xnor_saveexec_b32" [B32 B32 N N] X => alu;
        0x2b S_XNOR_SAVEEXEC_B64 "s_xnor_saveexec_b64" [B64 B64 N N] X => alu;
        0x2c S_AND_NOT0_SAVEEXEC_B32 "s_and_not0_saveexec_b32" [B32 B32 N N] X => alu;
        0x2d S_AND_NOT0_SAVEEXEC_B64 "s_and_not0_saveexec_b64" [B64 B64 N N] X => alu;
        0x2e S_OR_NOT0_SAVEEXEC_B32 "s_or_not0_saveexec_b32" [B32 B32 N N] X => alu;
        0x2f S_OR_NOT0_SAVEEXEC_B64 "s_or_not0_saveexec_b64" [B64 B64 N N] X => alu;
        0x30 S_AND_NOT1_SAVEEXEC_B32 "s_and_not1_saveexec_b32" [B32 B32 N N] X => alu;
        0x31 S_AND_NOT1_SAVEEXEC_B64 "s_and_not1_saveexec_b64" [B64 B64 N N] X => alu;
        0x32 S_OR_NOT1_SAVEEXEC_B32 "s_or_not1_saveexec_b32" [B32 B32 N N] X => alu;
        0x33 S_OR_NOT1_SAVEEXEC_B64 "s_or_not1_saveexec_b64" [B64 B64 N N] X => alu;
        0x34 S_AND_NOT0_WREXEC_B32 "s_and_not0_wrexec_b32" [B32 B32 N N] X => alu;
        0x35 S_AND_NOT0_WREXEC_B64 "s_and_not0_wrexec_b64" [B64 B64 N N] X => alu;
        0x36 S_AND_NOT1_WREXEC_B32 "s_and_not1_wrexec_b32" [B32 B32 N N] X => alu;
        0x37 S_AND_NOT1_WREXEC_B64 "s_and_not1_wrexec_b64" [B64 B64 N N] X => alu;
        0x40 S_MOVRELS_B32 "s_movrels_b32" [B32 B32 N N] SREG | X => alu;
        0x41 S_MOVRELS_B64 "s_movrels_b64" [B64 B64 N N] SREG | X => alu;
        0x42 S_MOVRELD_B32 "s_movreld_b32" [B32 B32 N N] X => alu;
        0x43 S_MOVRELD_B64 "s_movreld_b64" [B64 B64 N N] X => alu;
        0x44 S_MOVRELSD_2_B32 "s_movrelsd_2_b32" [B32 B32 N N] X => alu;
        0x47 S_GETPC_B64 "s_getpc_b64" [B64 N N N] X => alu;
        0x48 S_SETPC_B64 "s_setpc_b64" [N B64 N N] X | SREG => jump;
        0x49 S_SWAPPC_B64 "s_swappc_b64" [B64 B64 N N] X => jump;
        0x4a S_RFE_B64 "s_rfe_b64" [N B64 N N] SREG | X => jump;
        0x4c S_SENDMSG_RTN_B32 "s_sendmsg_rtn_b32" [B32 Imm16 N N] X => msg_rtn;
        0x4d S_SENDMSG_RTN_B64 "s_sendmsg_rtn_b64" [B64 Imm16 N N] X => msg_rtn;
    }
    Sopc sopc_ops {
        0x00 S_CMP_EQ_I32 "s_cmp_eq_i32" [N B32 B32 N] X => alu;
        0x01 S_CMP_LG_I32 "s_cmp_lg_i32" [N B32 B32 N] X => alu;
        0x02 S_CMP_GT_I32 "s_cmp_gt_i32" [N B32 B32 N] X => alu;
        0x03 S_CMP_GE_I32 "s_cmp_ge_i32" [N B32 B32 N] X => alu;
        0x04 S_CMP_LT_I32 "s_cmp_lt_i32" [N B32 B32 N] X => alu;
        0x05 S_CMP_LE_I32 "s_cmp_le_i32" [N B32 B32 N] X => alu;
        0x06 S_CMP_EQ_U32 "s_cmp_eq_u32" [N B32 B32 N] X => alu;
        0x07 S_CMP_LG_U32 "s_cmp_lg_u32" [N B32 B32 N] X => alu;
        0x08 S_CMP_GT_U32 "s_cmp_gt_u32" [N B32 B32 N] X => alu;
        0x09 S_CMP_GE_U32 "s_cmp_ge_u32" [N B32 B32 N] X => alu;
        0x0a S_CMP_LT_U32 "s_cmp_lt_u32" [N B32 B32 N] X => alu;
        0x0b S_CMP_LE_U32 "s_cmp_le_u32" [N B32 B32 N] X => alu;
        0x0c S_BITCMP0_B32 "s_bitcmp0_b32" [N B32 B32 N] X => alu;
        0x0d S_BITCMP1_B32 "s_bitcmp1_b32" [N B32 B32 N] X => alu;
        0x0e S_BITCMP0_B64 "s_bitcmp0_b64" [N B64 B32 N] X => alu;
        0x0f S_BITCMP1_B64 "s_bitcmp1_b64" [N B64 B32 N] X => alu;
        0x10 S_CMP_EQ_U64 "s_cmp_eq_u64" [N B64 B64 N] X => alu;
        0x11 S_CMP_LG_U64 "s_cmp_lg_u64" [N B64 B64 N] X => alu;
    }
    Sopp sopp_ops {
        0x00 S_NOP "s_nop" [N Imm16 N N] X => nop;
        0x01 S_SETKILL "s_setkill" [N Imm16 N N] X => interp;
        0x02 S_SETHALT "s_sethalt" [N Imm16 N N] X => interp;
        0x03 S_SLEEP "s_sleep" [N Imm16 N N] X => nop;
        0x04 S_SET_INST_PREFETCH_DISTANCE "s_set_inst_prefetch_distance" [N Imm16 N N] X => nop;
        0x05 S_CLAUSE "s_clause" [N Imm16 N N] X => nop;
        0x07 S_DELAY_ALU "s_delay_alu" [N Imm16 N N] X => nop;
        0x08 S_WAITCNT_DEPCTR "s_waitcnt_depctr" [N Imm16 N N] X => nop;
        0x09 S_WAITCNT "s_waitcnt" [N Imm16 N N] X => wait;
        0x0a S_WAIT_IDLE "s_wait_idle" [N N N N] X => wait;
        0x0b S_WAIT_EVENT "s_wait_event" [N Imm16 N N] X => nop;
        0x10 S_TRAP "s_trap" [N Imm16 N N] X => interp;
        0x11 S_ROUND_MODE "s_round_mode" [N Imm16 N N] X => interp;
        0x12 S_DENORM_MODE "s_denorm_mode" [N Imm16 N N] X => interp;
        0x1f S_CODE_END "s_code_end" [N N N N] X => interp;
        0x20 S_BRANCH "s_branch" [N Imm16 N N] BRANCH | X => branch;
        0x21 S_CBRANCH_SCC0 "s_cbranch_scc0" [N Imm16 N N] BRANCH | X => branch;
        0x22 S_CBRANCH_SCC1 "s_cbranch_scc1" [N Imm16 N N] BRANCH | X => branch;
        0x23 S_CBRANCH_VCCZ "s_cbranch_vccz" [N Imm16 N N] BRANCH | X => branch;
        0x24 S_CBRANCH_VCCNZ "s_cbranch_vccnz" [N Imm16 N N] BRANCH | X => branch;
        0x25 S_CBRANCH_EXECZ "s_cbranch_execz" [N Imm16 N N] BRANCH | X => branch;
        0x26 S_CBRANCH_EXECNZ "s_cbranch_execnz" [N Imm16 N N] BRANCH | X => branch;
        0x27 S_CBRANCH_CDBGSYS "s_cbranch_cdbgsys" [N Imm16 N N] BRANCH | X => nop;
        0x28 S_CBRANCH_CDBGUSER "s_cbranch_cdbguser" [N Imm16 N N] BRANCH | X => nop;
        0x29 S_CBRANCH_CDBGSYS_OR_USER "s_cbranch_cdbgsys_or_user" [N Imm16 N N] BRANCH | X => nop;
        0x2a S_CBRANCH_CDBGSYS_AND_USER "s_cbranch_cdbgsys_and_user" [N Imm16 N N] BRANCH | X => nop;
        0x30 S_ENDPGM "s_endpgm" [N Imm16 N N] X => interp;
        0x31 S_ENDPGM_SAVED "s_endpgm_saved" [N N N N] X => interp;
        0x34 S_WAKEUP "s_wakeup" [N N N N] X => nop;
        0x35 S_SETPRIO "s_setprio" [N Imm16 N N] X => nop;
        0x36 S_SENDMSG "s_sendmsg" [N Imm16 N N] X => msg;
        0x37 S_SENDMSGHALT "s_sendmsghalt" [N Imm16 N N] X => msg;
        0x38 S_INCPERFLEVEL "s_incperflevel" [N Imm16 N N] X => nop;
        0x39 S_DECPERFLEVEL "s_decperflevel" [N Imm16 N N] X => nop;
        0x3a S_TTRACEDATA "s_ttracedata" [N N N N] X => nop;
        0x3b S_TTRACEDATA_IMM "s_ttracedata_imm" [N Imm16 N N] X => nop;
        0x3c S_ICACHE_INV "s_icache_inv" [N N N N] X => nop;
        0x3d S_BARRIER "s_barrier" [N N N N] X => interp;
    }
    Smem smem_ops {
        0x00 S_LOAD_B32 "s_load_b32" [B32 B64 N N] X => ld(4);
        0x01 S_LOAD_B64 "s_load_b64" [B64 B64 N N] X => ld(8);
        0x02 S_LOAD_B128 "s_load_b128" [B128 B64 N N] X => ld(16);
        0x03 S_LOAD_B256 "s_load_b256" [B256 B64 N N] X => ld(32);
        0x04 S_LOAD_B512 "s_load_b512" [B512 B64 N N] X => ld(64);
        0x08 S_BUFFER_LOAD_B32 "s_buffer_load_b32" [B32 B128 N N] X => ld(4);
        0x09 S_BUFFER_LOAD_B64 "s_buffer_load_b64" [B64 B128 N N] X => ld(8);
        0x0a S_BUFFER_LOAD_B128 "s_buffer_load_b128" [B128 B128 N N] X => ld(16);
        0x0b S_BUFFER_LOAD_B256 "s_buffer_load_b256" [B256 B128 N N] X => ld(32);
        0x0c S_BUFFER_LOAD_B512 "s_buffer_load_b512" [B512 B128 N N] X => ld(64);
        0x20 S_GL1_INV "s_gl1_inv" [N N N N] X => special;
        0x21 S_DCACHE_INV "s_dcache_inv" [N N N N] X => special;
        0x22 S_ATC_PROBE "s_atc_probe" [N B64 N N] X => special;
        0x23 S_ATC_PROBE_BUFFER "s_atc_probe_buffer" [N B128 N N] X => special;
    }
    Vop2 vop2_ops {
        // The all-zero dword: raises the illegal-instruction exception.
        0x00 V_ILLEGAL "v_illegal" [N N N N] X => interp;
        0x01 V_CNDMASK_B32 "v_cndmask_b32" [B32 B32 B32 Mask] X => alu.v3(0x2c7b, 0x2c03);
        0x02 V_DOT2ACC_F32_F16 "v_dot2acc_f32_f16" [F32 V2F16 V2F16 N] E32 | X => alu;
        0x03 V_ADD_F32 "v_add_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x04 V_SUB_F32 "v_sub_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x05 V_SUBREV_F32 "v_subrev_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x06 V_FMAC_DX9_ZERO_F32 "v_fmac_dx9_zero_f32" [F32 F32 F32 N] X | NODPP => alu.v3(0x2ffb, 0x2f83);
        0x07 V_MUL_DX9_ZERO_F32 "v_mul_dx9_zero_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x08 V_MUL_F32 "v_mul_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x09 V_MUL_I32_I24 "v_mul_i32_i24" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x0a V_MUL_HI_I32_I24 "v_mul_hi_i32_i24" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x0b V_MUL_U32_U24 "v_mul_u32_u24" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x0c V_MUL_HI_U32_U24 "v_mul_hi_u32_u24" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x0f V_MIN_F32 "v_min_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x10 V_MAX_F32 "v_max_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x11 V_MIN_I32 "v_min_i32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x12 V_MAX_I32 "v_max_i32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x13 V_MIN_U32 "v_min_u32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x14 V_MAX_U32 "v_max_u32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x18 V_LSHLREV_B32 "v_lshlrev_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x19 V_LSHRREV_B32 "v_lshrrev_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x1a V_ASHRREV_I32 "v_ashrrev_i32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x1b V_AND_B32 "v_and_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x1c V_OR_B32 "v_or_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x1d V_XOR_B32 "v_xor_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x1e V_XNOR_B32 "v_xnor_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x20 V_ADD_CO_CI_U32 "v_add_co_ci_u32" [B32 B32 B32 Mask] SD | X => alu.v3(0x20ff, 0x20ff);
        0x21 V_SUB_CO_CI_U32 "v_sub_co_ci_u32" [B32 B32 B32 Mask] SD | X => alu.v3(0x20ff, 0x20ff);
        0x22 V_SUBREV_CO_CI_U32 "v_subrev_co_ci_u32" [B32 B32 B32 Mask] SD | X => alu.v3(0x20ff, 0x20ff);
        0x25 V_ADD_NC_U32 "v_add_nc_u32" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x26 V_SUB_NC_U32 "v_sub_nc_u32" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x27 V_SUBREV_NC_U32 "v_subrev_nc_u32" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x2b V_FMAC_F32 "v_fmac_f32" [F32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x2c V_FMAMK_F32 "v_fmamk_f32" [F32 F32 F32 F32] LIT_K | X => alu;
        0x2d V_FMAAK_F32 "v_fmaak_f32" [F32 F32 F32 F32] LIT_K | X => alu;
        0x2f V_CVT_PK_RTZ_F16_F32 "v_cvt_pk_rtz_f16_f32" [B32 F32 F32 N] X => alu.v3(0x2ffb, 0x2f83);
        0x32 V_ADD_F16 "v_add_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x33 V_SUB_F16 "v_sub_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x34 V_SUBREV_F16 "v_subrev_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x35 V_MUL_F16 "v_mul_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x36 V_FMAC_F16 "v_fmac_f16" [F16 F16 F16 N] X => alu.v3(0x2fdb, 0x2fdb);
        0x37 V_FMAMK_F16 "v_fmamk_f16" [F16 F16 F16 F16] LIT_K | X => alu;
        0x38 V_FMAAK_F16 "v_fmaak_f16" [F16 F16 F16 F16] LIT_K | X => alu;
        0x39 V_MAX_F16 "v_max_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x3a V_MIN_F16 "v_min_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x3b V_LDEXP_F16 "v_ldexp_f16" [F16 F16 F16 N] X => alu.v3(0x2ffb, 0x2f83);
        0x3c V_PK_FMAC_F16 "v_pk_fmac_f16" [V2F16 V2F16 V2F16 N] E32 | X => alu;
    }
    Vop1 vop1_ops {
        0x00 V_NOP "v_nop" [N N N N] X => nop.v3(0x0078, 0x0000);
        0x01 V_MOV_B32 "v_mov_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x02 V_READFIRSTLANE_B32 "v_readfirstlane_b32" [B32 B32 N N] X | E32 | NODPP => alu;
        0x03 V_CVT_I32_F64 "v_cvt_i32_f64" [B32 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x04 V_CVT_F64_I32 "v_cvt_f64_i32" [F64 B32 N N] X => alu.v3(0x23f8, 0x2380);
        0x05 V_CVT_F32_I32 "v_cvt_f32_i32" [F32 B32 N N] X => alu.v3(0x23f8, 0x2380);
        0x06 V_CVT_F32_U32 "v_cvt_f32_u32" [F32 B32 N N] X => alu.v3(0x23f8, 0x2380);
        0x07 V_CVT_U32_F32 "v_cvt_u32_f32" [B32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x08 V_CVT_I32_F32 "v_cvt_i32_f32" [B32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x0a V_CVT_F16_F32 "v_cvt_f16_f32" [F16 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x0b V_CVT_F32_F16 "v_cvt_f32_f16" [F32 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x0c V_CVT_NEAREST_I32_F32 "v_cvt_nearest_i32_f32" [B32 F32 N N] X => alu.v3(0x24f9, 0x2481);
        0x0d V_CVT_FLOOR_I32_F32 "v_cvt_floor_i32_f32" [B32 F32 N N] X => alu.v3(0x24f9, 0x2481);
        0x0e V_CVT_OFF_F32_I4 "v_cvt_off_f32_i4" [F32 B32 N N] X => alu.v3(0x23f8, 0x2380);
        0x0f V_CVT_F32_F64 "v_cvt_f32_f64" [F32 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x10 V_CVT_F64_F32 "v_cvt_f64_f32" [F64 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x11 V_CVT_F32_UBYTE0 "v_cvt_f32_ubyte0" [F32 F32 N N] X => alu.v3(0x23f8, 0x2380);
        0x12 V_CVT_F32_UBYTE1 "v_cvt_f32_ubyte1" [F32 F32 N N] X => alu.v3(0x23f8, 0x2380);
        0x13 V_CVT_F32_UBYTE2 "v_cvt_f32_ubyte2" [F32 F32 N N] X => alu.v3(0x23f8, 0x2380);
        0x14 V_CVT_F32_UBYTE3 "v_cvt_f32_ubyte3" [F32 F32 N N] X => alu.v3(0x23f8, 0x2380);
        0x15 V_CVT_U32_F64 "v_cvt_u32_f64" [B32 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x16 V_CVT_F64_U32 "v_cvt_f64_u32" [F64 B32 N N] X => alu.v3(0x23f8, 0x2380);
        0x17 V_TRUNC_F64 "v_trunc_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x18 V_CEIL_F64 "v_ceil_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x19 V_RNDNE_F64 "v_rndne_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x1a V_FLOOR_F64 "v_floor_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x1b V_PIPEFLUSH "v_pipeflush" [N N N N] X => alu.v3(0x0078, 0x0000);
        0x1c V_MOV_B16 "v_mov_b16" [B16 B16 N N] X => alu;
        0x20 V_FRACT_F32 "v_fract_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x21 V_TRUNC_F32 "v_trunc_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x22 V_CEIL_F32 "v_ceil_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x23 V_RNDNE_F32 "v_rndne_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x24 V_FLOOR_F32 "v_floor_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x25 V_EXP_F32 "v_exp_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x27 V_LOG_F32 "v_log_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x2a V_RCP_F32 "v_rcp_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x2b V_RCP_IFLAG_F32 "v_rcp_iflag_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x2e V_RSQ_F32 "v_rsq_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x2f V_RCP_F64 "v_rcp_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x31 V_RSQ_F64 "v_rsq_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x33 V_SQRT_F32 "v_sqrt_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x34 V_SQRT_F64 "v_sqrt_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x35 V_SIN_F32 "v_sin_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x36 V_COS_F32 "v_cos_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x37 V_NOT_B32 "v_not_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x38 V_BFREV_B32 "v_bfrev_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x39 V_CLZ_I32_U32 "v_clz_i32_u32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x3a V_CTZ_I32_B32 "v_ctz_i32_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x3b V_CLS_I32 "v_cls_i32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x3c V_FREXP_EXP_I32_F64 "v_frexp_exp_i32_f64" [B32 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x3d V_FREXP_MANT_F64 "v_frexp_mant_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x3e V_FRACT_F64 "v_fract_f64" [F64 F64 N N] X => alu.v3(0x27f9, 0x2781);
        0x3f V_FREXP_EXP_I32_F32 "v_frexp_exp_i32_f32" [B32 F32 N N] X => alu.v3(0x24f9, 0x2481);
        0x40 V_FREXP_MANT_F32 "v_frexp_mant_f32" [F32 F32 N N] X => alu.v3(0x27f9, 0x2781);
        0x42 V_MOVRELD_B32 "v_movreld_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x43 V_MOVRELS_B32 "v_movrels_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x44 V_MOVRELSD_B32 "v_movrelsd_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x48 V_MOVRELSD_2_B32 "v_movrelsd_2_b32" [B32 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x50 V_CVT_F16_U16 "v_cvt_f16_u16" [F16 B16 N N] X => alu.v3(0x23f8, 0x2380);
        0x51 V_CVT_F16_I16 "v_cvt_f16_i16" [F16 B16 N N] X => alu.v3(0x23f8, 0x2380);
        0x52 V_CVT_U16_F16 "v_cvt_u16_f16" [B16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x53 V_CVT_I16_F16 "v_cvt_i16_f16" [B16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x54 V_RCP_F16 "v_rcp_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x55 V_SQRT_F16 "v_sqrt_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x56 V_RSQ_F16 "v_rsq_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x57 V_LOG_F16 "v_log_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x58 V_EXP_F16 "v_exp_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x59 V_FREXP_MANT_F16 "v_frexp_mant_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x5a V_FREXP_EXP_I16_F16 "v_frexp_exp_i16_f16" [B16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x5b V_FLOOR_F16 "v_floor_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x5c V_CEIL_F16 "v_ceil_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x5d V_TRUNC_F16 "v_trunc_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x5e V_RNDNE_F16 "v_rndne_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x5f V_FRACT_F16 "v_fract_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x60 V_SIN_F16 "v_sin_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x61 V_COS_F16 "v_cos_f16" [F16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x62 V_SAT_PK_U8_I16 "v_sat_pk_u8_i16" [B16 B32 N N] X => alu.v3(0x2078, 0x2000);
        0x63 V_CVT_NORM_I16_F16 "v_cvt_norm_i16_f16" [B16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x64 V_CVT_NORM_U16_F16 "v_cvt_norm_u16_f16" [B16 F16 N N] X => alu.v3(0x27f9, 0x2781);
        0x65 V_SWAP_B32 "v_swap_b32" [B32 B32 N N] E32 | X | NODPP => alu;
        0x67 V_PERMLANE64_B32 "v_permlane64_b32" [B32 B32 N N] E32 | X | NODPP => alu;
        0x68 V_SWAPREL_B32 "v_swaprel_b32" [B32 B32 N N] E32 | X | NODPP => alu;
        0x69 V_NOT_B16 "v_not_b16" [B16 B16 N N] X => alu.v3(0x2078, 0x2000);
        0x6a V_CVT_I32_I16 "v_cvt_i32_i16" [B32 B16 N N] X => alu.v3(0x2078, 0x2000);
        0x6b V_CVT_U32_U16 "v_cvt_u32_u16" [B32 B16 N N] X => alu.v3(0x2078, 0x2000);
    }
    Vopc vopc_ops {
        0x00 V_CMP_F_F16 "v_cmp_f_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x01 V_CMP_LT_F16 "v_cmp_lt_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x02 V_CMP_EQ_F16 "v_cmp_eq_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x03 V_CMP_LE_F16 "v_cmp_le_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x04 V_CMP_GT_F16 "v_cmp_gt_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x05 V_CMP_LG_F16 "v_cmp_lg_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x06 V_CMP_GE_F16 "v_cmp_ge_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x07 V_CMP_O_F16 "v_cmp_o_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x08 V_CMP_U_F16 "v_cmp_u_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x09 V_CMP_NGE_F16 "v_cmp_nge_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x0a V_CMP_NLG_F16 "v_cmp_nlg_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x0b V_CMP_NGT_F16 "v_cmp_ngt_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x0c V_CMP_NLE_F16 "v_cmp_nle_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x0d V_CMP_NEQ_F16 "v_cmp_neq_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x0e V_CMP_NLT_F16 "v_cmp_nlt_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x0f V_CMP_T_F16 "v_cmp_t_f16" [Mask F16 F16 N] X => alu.v3(0x2cfb, 0x2c83);
        0x10 V_CMP_F_F32 "v_cmp_f_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x11 V_CMP_LT_F32 "v_cmp_lt_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x12 V_CMP_EQ_F32 "v_cmp_eq_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x13 V_CMP_LE_F32 "v_cmp_le_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x14 V_CMP_GT_F32 "v_cmp_gt_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x15 V_CMP_LG_F32 "v_cmp_lg_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x16 V_CMP_GE_F32 "v_cmp_ge_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x17 V_CMP_O_F32 "v_cmp_o_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x18 V_CMP_U_F32 "v_cmp_u_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x19 V_CMP_NGE_F32 "v_cmp_nge_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x1a V_CMP_NLG_F32 "v_cmp_nlg_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x1b V_CMP_NGT_F32 "v_cmp_ngt_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x1c V_CMP_NLE_F32 "v_cmp_nle_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x1d V_CMP_NEQ_F32 "v_cmp_neq_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x1e V_CMP_NLT_F32 "v_cmp_nlt_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x1f V_CMP_T_F32 "v_cmp_t_f32" [Mask F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x20 V_CMP_F_F64 "v_cmp_f_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x21 V_CMP_LT_F64 "v_cmp_lt_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x22 V_CMP_EQ_F64 "v_cmp_eq_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x23 V_CMP_LE_F64 "v_cmp_le_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x24 V_CMP_GT_F64 "v_cmp_gt_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x25 V_CMP_LG_F64 "v_cmp_lg_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x26 V_CMP_GE_F64 "v_cmp_ge_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x27 V_CMP_O_F64 "v_cmp_o_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x28 V_CMP_U_F64 "v_cmp_u_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x29 V_CMP_NGE_F64 "v_cmp_nge_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x2a V_CMP_NLG_F64 "v_cmp_nlg_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x2b V_CMP_NGT_F64 "v_cmp_ngt_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x2c V_CMP_NLE_F64 "v_cmp_nle_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x2d V_CMP_NEQ_F64 "v_cmp_neq_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x2e V_CMP_NLT_F64 "v_cmp_nlt_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x2f V_CMP_T_F64 "v_cmp_t_f64" [Mask F64 F64 N] X => alu.v3(0x2cfb, 0x2c83);
        0x31 V_CMP_LT_I16 "v_cmp_lt_i16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x32 V_CMP_EQ_I16 "v_cmp_eq_i16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x33 V_CMP_LE_I16 "v_cmp_le_i16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x34 V_CMP_GT_I16 "v_cmp_gt_i16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x35 V_CMP_NE_I16 "v_cmp_ne_i16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x36 V_CMP_GE_I16 "v_cmp_ge_i16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x39 V_CMP_LT_U16 "v_cmp_lt_u16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x3a V_CMP_EQ_U16 "v_cmp_eq_u16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x3b V_CMP_LE_U16 "v_cmp_le_u16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x3c V_CMP_GT_U16 "v_cmp_gt_u16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x3d V_CMP_NE_U16 "v_cmp_ne_u16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x3e V_CMP_GE_U16 "v_cmp_ge_u16" [Mask B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x40 V_CMP_F_I32 "v_cmp_f_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x41 V_CMP_LT_I32 "v_cmp_lt_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x42 V_CMP_EQ_I32 "v_cmp_eq_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x43 V_CMP_LE_I32 "v_cmp_le_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x44 V_CMP_GT_I32 "v_cmp_gt_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x45 V_CMP_NE_I32 "v_cmp_ne_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x46 V_CMP_GE_I32 "v_cmp_ge_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x47 V_CMP_T_I32 "v_cmp_t_i32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x48 V_CMP_F_U32 "v_cmp_f_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x49 V_CMP_LT_U32 "v_cmp_lt_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x4a V_CMP_EQ_U32 "v_cmp_eq_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x4b V_CMP_LE_U32 "v_cmp_le_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x4c V_CMP_GT_U32 "v_cmp_gt_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x4d V_CMP_NE_U32 "v_cmp_ne_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x4e V_CMP_GE_U32 "v_cmp_ge_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x4f V_CMP_T_U32 "v_cmp_t_u32" [Mask B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x50 V_CMP_F_I64 "v_cmp_f_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x51 V_CMP_LT_I64 "v_cmp_lt_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x52 V_CMP_EQ_I64 "v_cmp_eq_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x53 V_CMP_LE_I64 "v_cmp_le_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x54 V_CMP_GT_I64 "v_cmp_gt_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x55 V_CMP_NE_I64 "v_cmp_ne_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x56 V_CMP_GE_I64 "v_cmp_ge_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x57 V_CMP_T_I64 "v_cmp_t_i64" [Mask B64 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x58 V_CMP_F_U64 "v_cmp_f_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x59 V_CMP_LT_U64 "v_cmp_lt_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x5a V_CMP_EQ_U64 "v_cmp_eq_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x5b V_CMP_LE_U64 "v_cmp_le_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x5c V_CMP_GT_U64 "v_cmp_gt_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x5d V_CMP_NE_U64 "v_cmp_ne_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x5e V_CMP_GE_U64 "v_cmp_ge_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x5f V_CMP_T_U64 "v_cmp_t_u64" [Mask B64 B64 N] X => alu.v3(0x2078, 0x2000);
        0x7d V_CMP_CLASS_F16 "v_cmp_class_f16" [Mask F16 F32 N] X => alu.v3(0x2479, 0x2401);
        0x7e V_CMP_CLASS_F32 "v_cmp_class_f32" [Mask F32 F32 N] X => alu.v3(0x2479, 0x2401);
        0x7f V_CMP_CLASS_F64 "v_cmp_class_f64" [Mask F64 F32 N] X => alu.v3(0x2479, 0x2401);
        0x80 V_CMPX_F_F16 "v_cmpx_f_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x81 V_CMPX_LT_F16 "v_cmpx_lt_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x82 V_CMPX_EQ_F16 "v_cmpx_eq_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x83 V_CMPX_LE_F16 "v_cmpx_le_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x84 V_CMPX_GT_F16 "v_cmpx_gt_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x85 V_CMPX_LG_F16 "v_cmpx_lg_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x86 V_CMPX_GE_F16 "v_cmpx_ge_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x87 V_CMPX_O_F16 "v_cmpx_o_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x88 V_CMPX_U_F16 "v_cmpx_u_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x89 V_CMPX_NGE_F16 "v_cmpx_nge_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x8a V_CMPX_NLG_F16 "v_cmpx_nlg_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x8b V_CMPX_NGT_F16 "v_cmpx_ngt_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x8c V_CMPX_NLE_F16 "v_cmpx_nle_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x8d V_CMPX_NEQ_F16 "v_cmpx_neq_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x8e V_CMPX_NLT_F16 "v_cmpx_nlt_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x8f V_CMPX_T_F16 "v_cmpx_t_f16" [N F16 F16 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x90 V_CMPX_F_F32 "v_cmpx_f_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x91 V_CMPX_LT_F32 "v_cmpx_lt_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x92 V_CMPX_EQ_F32 "v_cmpx_eq_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x93 V_CMPX_LE_F32 "v_cmpx_le_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x94 V_CMPX_GT_F32 "v_cmpx_gt_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x95 V_CMPX_LG_F32 "v_cmpx_lg_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x96 V_CMPX_GE_F32 "v_cmpx_ge_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x97 V_CMPX_O_F32 "v_cmpx_o_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x98 V_CMPX_U_F32 "v_cmpx_u_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x99 V_CMPX_NGE_F32 "v_cmpx_nge_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x9a V_CMPX_NLG_F32 "v_cmpx_nlg_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x9b V_CMPX_NGT_F32 "v_cmpx_ngt_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x9c V_CMPX_NLE_F32 "v_cmpx_nle_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x9d V_CMPX_NEQ_F32 "v_cmpx_neq_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x9e V_CMPX_NLT_F32 "v_cmpx_nlt_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0x9f V_CMPX_T_F32 "v_cmpx_t_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa0 V_CMPX_F_F64 "v_cmpx_f_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa1 V_CMPX_LT_F64 "v_cmpx_lt_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa2 V_CMPX_EQ_F64 "v_cmpx_eq_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa3 V_CMPX_LE_F64 "v_cmpx_le_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa4 V_CMPX_GT_F64 "v_cmpx_gt_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa5 V_CMPX_LG_F64 "v_cmpx_lg_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa6 V_CMPX_GE_F64 "v_cmpx_ge_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa7 V_CMPX_O_F64 "v_cmpx_o_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa8 V_CMPX_U_F64 "v_cmpx_u_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xa9 V_CMPX_NGE_F64 "v_cmpx_nge_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xaa V_CMPX_NLG_F64 "v_cmpx_nlg_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xab V_CMPX_NGT_F64 "v_cmpx_ngt_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xac V_CMPX_NLE_F64 "v_cmpx_nle_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xad V_CMPX_NEQ_F64 "v_cmpx_neq_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xae V_CMPX_NLT_F64 "v_cmpx_nlt_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xaf V_CMPX_T_F64 "v_cmpx_t_f64" [N F64 F64 N] CMPX | X => alu.v3(0x2cfb, 0x0c83);
        0xb1 V_CMPX_LT_I16 "v_cmpx_lt_i16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xb2 V_CMPX_EQ_I16 "v_cmpx_eq_i16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xb3 V_CMPX_LE_I16 "v_cmpx_le_i16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xb4 V_CMPX_GT_I16 "v_cmpx_gt_i16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xb5 V_CMPX_NE_I16 "v_cmpx_ne_i16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xb6 V_CMPX_GE_I16 "v_cmpx_ge_i16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xb9 V_CMPX_LT_U16 "v_cmpx_lt_u16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xba V_CMPX_EQ_U16 "v_cmpx_eq_u16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xbb V_CMPX_LE_U16 "v_cmpx_le_u16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xbc V_CMPX_GT_U16 "v_cmpx_gt_u16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xbd V_CMPX_NE_U16 "v_cmpx_ne_u16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xbe V_CMPX_GE_U16 "v_cmpx_ge_u16" [N B16 B16 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc0 V_CMPX_F_I32 "v_cmpx_f_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc1 V_CMPX_LT_I32 "v_cmpx_lt_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc2 V_CMPX_EQ_I32 "v_cmpx_eq_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc3 V_CMPX_LE_I32 "v_cmpx_le_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc4 V_CMPX_GT_I32 "v_cmpx_gt_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc5 V_CMPX_NE_I32 "v_cmpx_ne_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc6 V_CMPX_GE_I32 "v_cmpx_ge_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc7 V_CMPX_T_I32 "v_cmpx_t_i32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc8 V_CMPX_F_U32 "v_cmpx_f_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xc9 V_CMPX_LT_U32 "v_cmpx_lt_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xca V_CMPX_EQ_U32 "v_cmpx_eq_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xcb V_CMPX_LE_U32 "v_cmpx_le_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xcc V_CMPX_GT_U32 "v_cmpx_gt_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xcd V_CMPX_NE_U32 "v_cmpx_ne_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xce V_CMPX_GE_U32 "v_cmpx_ge_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xcf V_CMPX_T_U32 "v_cmpx_t_u32" [N B32 B32 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xd0 V_CMPX_F_I64 "v_cmpx_f_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd1 V_CMPX_LT_I64 "v_cmpx_lt_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd2 V_CMPX_EQ_I64 "v_cmpx_eq_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd3 V_CMPX_LE_I64 "v_cmpx_le_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd4 V_CMPX_GT_I64 "v_cmpx_gt_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd5 V_CMPX_NE_I64 "v_cmpx_ne_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd6 V_CMPX_GE_I64 "v_cmpx_ge_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd7 V_CMPX_T_I64 "v_cmpx_t_i64" [N B64 B64 N] CMPX | SEXT64 | X => alu.v3(0x2078, 0x0000);
        0xd8 V_CMPX_F_U64 "v_cmpx_f_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xd9 V_CMPX_LT_U64 "v_cmpx_lt_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xda V_CMPX_EQ_U64 "v_cmpx_eq_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xdb V_CMPX_LE_U64 "v_cmpx_le_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xdc V_CMPX_GT_U64 "v_cmpx_gt_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xdd V_CMPX_NE_U64 "v_cmpx_ne_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xde V_CMPX_GE_U64 "v_cmpx_ge_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xdf V_CMPX_T_U64 "v_cmpx_t_u64" [N B64 B64 N] CMPX | X => alu.v3(0x2078, 0x0000);
        0xfd V_CMPX_CLASS_F16 "v_cmpx_class_f16" [N F16 F32 N] CMPX | X => alu.v3(0x2479, 0x0401);
        0xfe V_CMPX_CLASS_F32 "v_cmpx_class_f32" [N F32 F32 N] CMPX | X => alu.v3(0x2479, 0x0401);
        0xff V_CMPX_CLASS_F64 "v_cmpx_class_f64" [N F64 F32 N] CMPX | X => alu.v3(0x2479, 0x0401);
    }
    Vop3 vop3_ops {
        0x209 V_FMA_DX9_ZERO_F32 "v_fma_dx9_zero_f32" [F32 F32 F32 F32] X | NODPP => alu.v3(0x3fff, 0x3f87);
        0x20a V_MAD_I32_I24 "v_mad_i32_i24" [B32 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x20b V_MAD_U32_U24 "v_mad_u32_u24" [B32 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x20c V_CUBEID_F32 "v_cubeid_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x20d V_CUBESC_F32 "v_cubesc_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x20e V_CUBETC_F32 "v_cubetc_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x20f V_CUBEMA_F32 "v_cubema_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x210 V_BFE_U32 "v_bfe_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x211 V_BFE_I32 "v_bfe_i32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x212 V_BFI_B32 "v_bfi_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x213 V_FMA_F32 "v_fma_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x214 V_FMA_F64 "v_fma_f64" [F64 F64 F64 F64] X => alu.v3(0x3fff, 0x3f87);
        0x215 V_LERP_U8 "v_lerp_u8" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x216 V_ALIGNBIT_B32 "v_alignbit_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x217 V_ALIGNBYTE_B32 "v_alignbyte_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x218 V_MULLIT_F32 "v_mullit_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x219 V_MIN3_F32 "v_min3_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x21a V_MIN3_I32 "v_min3_i32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x21b V_MIN3_U32 "v_min3_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x21c V_MAX3_F32 "v_max3_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x21d V_MAX3_I32 "v_max3_i32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x21e V_MAX3_U32 "v_max3_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x21f V_MED3_F32 "v_med3_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x220 V_MED3_I32 "v_med3_i32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x221 V_MED3_U32 "v_med3_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x222 V_SAD_U8 "v_sad_u8" [B32 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x223 V_SAD_HI_U8 "v_sad_hi_u8" [B32 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x224 V_SAD_U16 "v_sad_u16" [B16 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x225 V_SAD_U32 "v_sad_u32" [B32 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x226 V_CVT_PK_U8_F32 "v_cvt_pk_u8_f32" [B32 F32 F32 F32] X => alu.v3(0x3cff, 0x3c81);
        0x227 V_DIV_FIXUP_F32 "v_div_fixup_f32" [F32 F32 F32 F32] X | NODPP => alu.v3(0x3fff, 0x3f87);
        0x228 V_DIV_FIXUP_F64 "v_div_fixup_f64" [F64 F64 F64 F64] X => alu.v3(0x3fff, 0x3f87);
        0x237 V_DIV_FMAS_F32 "v_div_fmas_f32" [F32 F32 F32 F32] X | NODPP => alu.v3(0x3fff, 0x3f87);
        0x238 V_DIV_FMAS_F64 "v_div_fmas_f64" [F64 F64 F64 F64] X => alu.v3(0x3fff, 0x3f87);
        0x239 V_MSAD_U8 "v_msad_u8" [B32 B32 B32 B32] X => alu.v3(0x20f8, 0x2080);
        0x23a V_QSAD_PK_U16_U8 "v_qsad_pk_u16_u8" [B64 B64 B32 B64] X => alu.v3(0x20f8, 0x2080);
        0x23b V_MQSAD_PK_U16_U8 "v_mqsad_pk_u16_u8" [B64 B64 B32 B64] X => alu.v3(0x20f8, 0x2080);
        0x23d V_MQSAD_U32_U8 "v_mqsad_u32_u8" [B128 B64 B32 B128] X | NODPP => alu.v3(0x20f8, 0x2080);
        0x240 V_XOR3_B32 "v_xor3_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x241 V_MAD_U16 "v_mad_u16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x244 V_PERM_B32 "v_perm_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x245 V_XAD_U32 "v_xad_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x246 V_LSHL_ADD_U32 "v_lshl_add_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x247 V_ADD_LSHL_U32 "v_add_lshl_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x248 V_FMA_F16 "v_fma_f16" [F16 F16 F16 F16] X => alu;
        0x249 V_MIN3_F16 "v_min3_f16" [F16 F16 F16 F16] X => alu;
        0x24a V_MIN3_I16 "v_min3_i16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x24b V_MIN3_U16 "v_min3_u16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x24c V_MAX3_F16 "v_max3_f16" [F16 F16 F16 F16] X => alu;
        0x24d V_MAX3_I16 "v_max3_i16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x24e V_MAX3_U16 "v_max3_u16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x24f V_MED3_F16 "v_med3_f16" [F16 F16 F16 F16] X => alu;
        0x250 V_MED3_I16 "v_med3_i16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x251 V_MED3_U16 "v_med3_u16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x253 V_MAD_I16 "v_mad_i16" [B16 B16 B16 B16] X => alu.v3(0x3cff, 0x20f8);
        0x254 V_DIV_FIXUP_F16 "v_div_fixup_f16" [F16 F16 F16 F16] X => alu;
        0x255 V_ADD3_U32 "v_add3_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x256 V_LSHL_OR_B32 "v_lshl_or_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x257 V_AND_OR_B32 "v_and_or_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x258 V_OR3_B32 "v_or3_b32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x259 V_MAD_U32_U16 "v_mad_u32_u16" [B32 B16 B16 B32] X => alu.v3(0x3cff, 0x20f8);
        0x25a V_MAD_I32_I16 "v_mad_i32_i16" [B32 B16 B16 B32] X => alu.v3(0x3cff, 0x20f8);
        0x25b V_PERMLANE16_B32 "v_permlane16_b32" [B32 B32 B32 B32] X | NODPP => alu.v3(0x3c7f, 0x2018);
        0x25c V_PERMLANEX16_B32 "v_permlanex16_b32" [B32 B32 B32 B32] X | NODPP => alu.v3(0x3c7f, 0x2018);
        0x25d V_CNDMASK_B16 "v_cndmask_b16" [B16 B16 B16 Mask] X => alu.v3(0x2c7b, 0x2c03);
        0x25e V_MAXMIN_F32 "v_maxmin_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x25f V_MINMAX_F32 "v_minmax_f32" [F32 F32 F32 F32] X => alu.v3(0x3fff, 0x3f87);
        0x260 V_MAXMIN_F16 "v_maxmin_f16" [F16 F16 F16 F16] X => alu.v3(0x3fff, 0x3f87);
        0x261 V_MINMAX_F16 "v_minmax_f16" [F16 F16 F16 F16] X => alu.v3(0x3fff, 0x3f87);
        0x262 V_MAXMIN_U32 "v_maxmin_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x263 V_MINMAX_U32 "v_minmax_u32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x264 V_MAXMIN_I32 "v_maxmin_i32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x265 V_MINMAX_I32 "v_minmax_i32" [B32 B32 B32 B32] X => alu.v3(0x2078, 0x2000);
        0x266 V_DOT2_F16_F16 "v_dot2_f16_f16" [F16 V2F16 V2F16 F16] X => alu.v3(0x3c7f, 0x3c67);
        0x267 V_DOT2_BF16_BF16 "v_dot2_bf16_bf16" [BF16 V2BF16 V2BF16 BF16] X => alu.v3(0x3c7f, 0x3c67);
        0x2fc V_DIV_SCALE_F32 "v_div_scale_f32" [F32 F32 F32 F32] SD | X | NODPP => alu;
        0x2fd V_DIV_SCALE_F64 "v_div_scale_f64" [F64 F64 F64 F64] SD | X => alu;
        0x2fe V_MAD_U64_U32 "v_mad_u64_u32" [B64 B32 B32 B64] SD | X => alu.v3(0x20ff, 0x20ff);
        0x2ff V_MAD_I64_I32 "v_mad_i64_i32" [B64 B32 B32 B64] SD | SEXT64 | X => alu.v3(0x20ff, 0x20ff);
        0x300 V_ADD_CO_U32 "v_add_co_u32" [B32 B32 B32 N] SD | X => alu.v3(0x20ff, 0x20ff);
        0x301 V_SUB_CO_U32 "v_sub_co_u32" [B32 B32 B32 N] SD | X => alu.v3(0x20ff, 0x20ff);
        0x302 V_SUBREV_CO_U32 "v_subrev_co_u32" [B32 B32 B32 N] SD | X => alu.v3(0x20ff, 0x20ff);
        0x303 V_ADD_NC_U16 "v_add_nc_u16" [B16 B16 B16 N] X => alu.v3(0x2cdb, 0x20d8);
        0x304 V_SUB_NC_U16 "v_sub_nc_u16" [B16 B16 B16 N] X => alu.v3(0x2cdb, 0x20d8);
        0x305 V_MUL_LO_U16 "v_mul_lo_u16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x306 V_CVT_PK_I16_F32 "v_cvt_pk_i16_f32" [B16 F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x307 V_CVT_PK_U16_F32 "v_cvt_pk_u16_f32" [B16 F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x309 V_MAX_U16 "v_max_u16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x30a V_MAX_I16 "v_max_i16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x30b V_MIN_U16 "v_min_u16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x30c V_MIN_I16 "v_min_i16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x30d V_ADD_NC_I16 "v_add_nc_i16" [B16 B16 B16 N] X => alu.v3(0x2cdb, 0x20d8);
        0x30e V_SUB_NC_I16 "v_sub_nc_i16" [B16 B16 B16 N] X => alu.v3(0x2cdb, 0x20d8);
        0x311 V_PACK_B32_F16 "v_pack_b32_f16" [B32 F16 F16 N] X => alu.v3(0x2cdb, 0x2cdb);
        0x312 V_CVT_PK_NORM_I16_F16 "v_cvt_pk_norm_i16_f16" [B16 F16 F16 N] X => alu.v3(0x2cdb, 0x2cdb);
        0x313 V_CVT_PK_NORM_U16_F16 "v_cvt_pk_norm_u16_f16" [B16 F16 F16 N] X => alu.v3(0x2cdb, 0x2cdb);
        0x31c V_LDEXP_F32 "v_ldexp_f32" [F32 F32 B32 N] X => alu.v3(0x2ffb, 0x2f81);
        0x31d V_BFM_B32 "v_bfm_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x31e V_BCNT_U32_B32 "v_bcnt_u32_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x31f V_MBCNT_LO_U32_B32 "v_mbcnt_lo_u32_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x320 V_MBCNT_HI_U32_B32 "v_mbcnt_hi_u32_b32" [B32 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x321 V_CVT_PK_NORM_I16_F32 "v_cvt_pk_norm_i16_f32" [B16 F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x322 V_CVT_PK_NORM_U16_F32 "v_cvt_pk_norm_u16_f32" [B16 F32 F32 N] X => alu.v3(0x2cfb, 0x2c83);
        0x323 V_CVT_PK_U16_U32 "v_cvt_pk_u16_u32" [B16 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x324 V_CVT_PK_I16_I32 "v_cvt_pk_i16_i32" [B16 B32 B32 N] X => alu.v3(0x2078, 0x2000);
        0x325 V_SUB_NC_I32 "v_sub_nc_i32" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x326 V_ADD_NC_I32 "v_add_nc_i32" [B32 B32 B32 N] X => alu.v3(0x20f8, 0x2080);
        0x327 V_ADD_F64 "v_add_f64" [F64 F64 F64 N] X => alu.v3(0x2ffb, 0x2f83);
        0x328 V_MUL_F64 "v_mul_f64" [F64 F64 F64 N] X => alu.v3(0x2ffb, 0x2f83);
        0x329 V_MIN_F64 "v_min_f64" [F64 F64 F64 N] X => alu.v3(0x2ffb, 0x2f83);
        0x32a V_MAX_F64 "v_max_f64" [F64 F64 F64 N] X => alu.v3(0x2ffb, 0x2f83);
        0x32b V_LDEXP_F64 "v_ldexp_f64" [F64 F64 F32 N] X => alu.v3(0x2ffb, 0x2f81);
        0x32c V_MUL_LO_U32 "v_mul_lo_u32" [B32 B32 B32 N] X | NODPP => alu.v3(0x2078, 0x2000);
        0x32d V_MUL_HI_U32 "v_mul_hi_u32" [B32 B32 B32 N] X | NODPP => alu.v3(0x2078, 0x2000);
        0x32e V_MUL_HI_I32 "v_mul_hi_i32" [B32 B32 B32 N] X | NODPP => alu.v3(0x2078, 0x2000);
        0x32f V_TRIG_PREOP_F64 "v_trig_preop_f64" [F64 F64 F32 N] X => alu.v3(0x2ffb, 0x2f81);
        0x338 V_LSHLREV_B16 "v_lshlrev_b16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x339 V_LSHRREV_B16 "v_lshrrev_b16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x33a V_ASHRREV_I16 "v_ashrrev_i16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x33c V_LSHLREV_B64 "v_lshlrev_b64" [B64 B32 B64 N] X => alu.v3(0x2078, 0x2000);
        0x33d V_LSHRREV_B64 "v_lshrrev_b64" [B64 B32 B64 N] X => alu.v3(0x2078, 0x2000);
        0x33e V_ASHRREV_I64 "v_ashrrev_i64" [B64 B32 B64 N] SEXT64 | X => alu.v3(0x2078, 0x2000);
        0x360 V_READLANE_B32 "v_readlane_b32" [B32 B32 B32 N] X | NODPP => alu.v3(0x2078, 0x2000);
        0x361 V_WRITELANE_B32 "v_writelane_b32" [B32 B32 B32 N] X | NODPP => alu.v3(0x2078, 0x2000);
        0x362 V_AND_B16 "v_and_b16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x363 V_OR_B16 "v_or_b16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
        0x364 V_XOR_B16 "v_xor_b16" [B16 B16 B16 N] X => alu.v3(0x2078, 0x2000);
    }
    Vop3p vop3p_ops {
        0x00 V_PK_MAD_I16 "v_pk_mad_i16" [B32 B32 B32 B32] X | NODPP => interp;
        0x01 V_PK_MUL_LO_U16 "v_pk_mul_lo_u16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x02 V_PK_ADD_I16 "v_pk_add_i16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x03 V_PK_SUB_I16 "v_pk_sub_i16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x04 V_PK_LSHLREV_B16 "v_pk_lshlrev_b16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x05 V_PK_LSHRREV_B16 "v_pk_lshrrev_b16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x06 V_PK_ASHRREV_I16 "v_pk_ashrrev_i16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x07 V_PK_MAX_I16 "v_pk_max_i16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x08 V_PK_MIN_I16 "v_pk_min_i16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x09 V_PK_MAD_U16 "v_pk_mad_u16" [B32 B32 B32 B32] X | NODPP => interp;
        0x0a V_PK_ADD_U16 "v_pk_add_u16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x0b V_PK_SUB_U16 "v_pk_sub_u16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x0c V_PK_MAX_U16 "v_pk_max_u16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x0d V_PK_MIN_U16 "v_pk_min_u16" [B32 B32 B32 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x0e V_PK_FMA_F16 "v_pk_fma_f16" [V2F16 V2F16 V2F16 V2F16] X | NODPP => interp;
        0x0f V_PK_ADD_F16 "v_pk_add_f16" [V2F16 V2F16 V2F16 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x10 V_PK_MUL_F16 "v_pk_mul_f16" [V2F16 V2F16 V2F16 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x11 V_PK_MIN_F16 "v_pk_min_f16" [V2F16 V2F16 V2F16 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x12 V_PK_MAX_F16 "v_pk_max_f16" [V2F16 V2F16 V2F16 N] X | NODPP => interp.v3(0x2fdb, 0x2f9b);
        0x13 V_DOT2_F32_F16 "v_dot2_f32_f16" [F32 V2F16 V2F16 F32] X => interp;
        0x16 V_DOT4_I32_IU8 "v_dot4_i32_iu8" [B32 B32 B32 B32] X | NODPP => interp;
        0x17 V_DOT4_U32_U8 "v_dot4_u32_u8" [B32 B32 B32 B32] X | NODPP => interp;
        0x18 V_DOT8_I32_IU4 "v_dot8_i32_iu4" [B32 B32 B32 B32] X | NODPP => interp;
        0x19 V_DOT8_U32_U4 "v_dot8_u32_u4" [B32 B32 B32 B32] X | NODPP => interp;
        0x1a V_DOT2_F32_BF16 "v_dot2_f32_bf16" [F32 V2BF16 V2BF16 F32] X | NODPP => interp;
        0x20 V_FMA_MIX_F32 "v_fma_mix_f32" [B32 B32 B32 B32] X => interp;
        0x21 V_FMA_MIXLO_F16 "v_fma_mixlo_f16" [B32 B32 B32 B32] X => interp;
        0x22 V_FMA_MIXHI_F16 "v_fma_mixhi_f16" [B32 B32 B32 B32] X => interp;
        0x40 V_WMMA_F32_16X16X16_F16 "v_wmma_f32_16x16x16_f16" [B256 B256 B256 B256] X | NODPP | WMMA => interp.v3(0x3f47, 0x3c07);
        0x41 V_WMMA_F32_16X16X16_BF16 "v_wmma_f32_16x16x16_bf16" [B256 B256 B256 B256] X | NODPP | WMMA => interp.v3(0x3f47, 0x3c07);
        0x42 V_WMMA_F16_16X16X16_F16 "v_wmma_f16_16x16x16_f16" [B256 B256 B256 B256] X | NODPP | WMMA => interp.v3(0x3f7f, 0x3f7f);
        0x43 V_WMMA_BF16_16X16X16_BF16 "v_wmma_bf16_16x16x16_bf16" [B256 B256 B256 B256] X | NODPP | WMMA => interp.v3(0x3f7f, 0x3f7f);
        0x44 V_WMMA_I32_16X16X16_IU8 "v_wmma_i32_16x16x16_iu8" [B256 B128 B128 B256] X | NODPP | WMMA => interp.v3(0x3fc7, 0x3c87);
        0x45 V_WMMA_I32_16X16X16_IU4 "v_wmma_i32_16x16x16_iu4" [B256 B64 B64 B256] X | NODPP | WMMA => interp.v3(0x3fc7, 0x3c87);
    }
    Vinterp vinterp_ops {
        0x00 V_INTERP_P10_F32 "v_interp_p10_f32" [B32 B32 B32 B32] NONE => interp;
        0x01 V_INTERP_P2_F32 "v_interp_p2_f32" [B32 B32 B32 B32] NONE => interp;
        0x02 V_INTERP_P10_F16_F32 "v_interp_p10_f16_f32" [B32 B32 B32 B32] NONE => interp;
        0x03 V_INTERP_P2_F16_F32 "v_interp_p2_f16_f32" [B32 B32 B32 B32] NONE => interp;
        0x04 V_INTERP_P10_RTZ_F16_F32 "v_interp_p10_rtz_f16_f32" [B32 B32 B32 B32] NONE => interp;
        0x05 V_INTERP_P2_RTZ_F16_F32 "v_interp_p2_rtz_f16_f32" [B32 B32 B32 B32] NONE => interp;
    }
    Ldsdir ldsdir_ops {
        0x00 LDS_PARAM_LOAD "lds_param_load" [B32 N N N] NONE => special;
        0x01 LDS_DIRECT_LOAD "lds_direct_load" [B32 N N N] NONE => special;
    }
    Ds ds_ops {
        0x00 DS_ADD_U32 "ds_add_u32" [N B32 B32 N] X => rmw(4, Add);
        0x01 DS_SUB_U32 "ds_sub_u32" [N B32 B32 N] X => rmw(4, Sub);
        0x02 DS_RSUB_U32 "ds_rsub_u32" [N B32 B32 N] X => rmw(4, Rsub);
        0x03 DS_INC_U32 "ds_inc_u32" [N B32 B32 N] X => rmw(4, Inc);
        0x04 DS_DEC_U32 "ds_dec_u32" [N B32 B32 N] X => rmw(4, Dec);
        0x05 DS_MIN_I32 "ds_min_i32" [N B32 B32 N] X => rmw(4, SMin);
        0x06 DS_MAX_I32 "ds_max_i32" [N B32 B32 N] X => rmw(4, SMax);
        0x07 DS_MIN_U32 "ds_min_u32" [N B32 B32 N] X => rmw(4, UMin);
        0x08 DS_MAX_U32 "ds_max_u32" [N B32 B32 N] X => rmw(4, UMax);
        0x09 DS_AND_B32 "ds_and_b32" [N B32 B32 N] X => rmw(4, And);
        0x0a DS_OR_B32 "ds_or_b32" [N B32 B32 N] X => rmw(4, Or);
        0x0b DS_XOR_B32 "ds_xor_b32" [N B32 B32 N] X => rmw(4, Xor);
        0x0c DS_MSKOR_B32 "ds_mskor_b32" [N B32 B32 B32] X => rmw(4, Mskor);
        0x0d DS_STORE_B32 "ds_store_b32" [N B32 B32 N] X => st(4);
        0x0e DS_STORE_2ADDR_B32 "ds_store_2addr_b32" [N B32 B32 B32] X => st(4).two(1);
        0x0f DS_STORE_2ADDR_STRIDE64_B32 "ds_store_2addr_stride64_b32" [N B32 B32 B32] X => st(4).two(64);
        0x10 DS_CMPSTORE_B32 "ds_cmpstore_b32" [N B32 B32 B32] X => rmw(4, CmpSwap);
        0x11 DS_CMPSTORE_F32 "ds_cmpstore_f32" [N B32 B32 B32] X => rmw(4, FCmpSwap);
        0x12 DS_MIN_F32 "ds_min_f32" [N B32 B32 N] X => rmw(4, FMin);
        0x13 DS_MAX_F32 "ds_max_f32" [N B32 B32 N] X => rmw(4, FMax);
        0x14 DS_NOP "ds_nop" [N N N N] LDS | X => special;
        0x15 DS_ADD_F32 "ds_add_f32" [N B32 B32 N] X => rmw(4, FAdd);
        0x18 DS_GWS_SEMA_RELEASE_ALL "ds_gws_sema_release_all" [N N N N] GDS => special;
        0x19 DS_GWS_INIT "ds_gws_init" [N B32 N N] GDS => special;
        0x1a DS_GWS_SEMA_V "ds_gws_sema_v" [N N N N] GDS => special;
        0x1b DS_GWS_SEMA_BR "ds_gws_sema_br" [N B32 N N] GDS => special;
        0x1c DS_GWS_SEMA_P "ds_gws_sema_p" [N N N N] GDS => special;
        0x1d DS_GWS_BARRIER "ds_gws_barrier" [N B32 N N] GDS => special;
        0x1e DS_STORE_B8 "ds_store_b8" [N B32 B32 N] X => st(1);
        0x1f DS_STORE_B16 "ds_store_b16" [N B32 B32 N] X => st(2);
        0x20 DS_ADD_RTN_U32 "ds_add_rtn_u32" [B32 B32 B32 N] X => rmw(4, Add);
        0x21 DS_SUB_RTN_U32 "ds_sub_rtn_u32" [B32 B32 B32 N] X => rmw(4, Sub);
        0x22 DS_RSUB_RTN_U32 "ds_rsub_rtn_u32" [B32 B32 B32 N] X => rmw(4, Rsub);
        0x23 DS_INC_RTN_U32 "ds_inc_rtn_u32" [B32 B32 B32 N] X => rmw(4, Inc);
        0x24 DS_DEC_RTN_U32 "ds_dec_rtn_u32" [B32 B32 B32 N] X => rmw(4, Dec);
        0x25 DS_MIN_RTN_I32 "ds_min_rtn_i32" [B32 B32 B32 N] X => rmw(4, SMin);
        0x26 DS_MAX_RTN_I32 "ds_max_rtn_i32" [B32 B32 B32 N] X => rmw(4, SMax);
        0x27 DS_MIN_RTN_U32 "ds_min_rtn_u32" [B32 B32 B32 N] X => rmw(4, UMin);
        0x28 DS_MAX_RTN_U32 "ds_max_rtn_u32" [B32 B32 B32 N] X => rmw(4, UMax);
        0x29 DS_AND_RTN_B32 "ds_and_rtn_b32" [B32 B32 B32 N] X => rmw(4, And);
        0x2a DS_OR_RTN_B32 "ds_or_rtn_b32" [B32 B32 B32 N] X => rmw(4, Or);
        0x2b DS_XOR_RTN_B32 "ds_xor_rtn_b32" [B32 B32 B32 N] X => rmw(4, Xor);
        0x2c DS_MSKOR_RTN_B32 "ds_mskor_rtn_b32" [B32 B32 B32 B32] X => rmw(4, Mskor);
        0x2d DS_STOREXCHG_RTN_B32 "ds_storexchg_rtn_b32" [B32 B32 B32 N] X => rmw(4, Swap);
        0x2e DS_STOREXCHG_2ADDR_RTN_B32 "ds_storexchg_2addr_rtn_b32" [B64 B32 B32 B32] X => rmw(4, Swap).two(1);
        0x2f DS_STOREXCHG_2ADDR_STRIDE64_RTN_B32 "ds_storexchg_2addr_stride64_rtn_b32" [B64 B32 B32 B32] X => rmw(4, Swap).two(64);
        0x30 DS_CMPSTORE_RTN_B32 "ds_cmpstore_rtn_b32" [B32 B32 B32 B32] X => rmw(4, CmpSwap);
        0x31 DS_CMPSTORE_RTN_F32 "ds_cmpstore_rtn_f32" [B32 B32 B32 B32] X => rmw(4, FCmpSwap);
        0x32 DS_MIN_RTN_F32 "ds_min_rtn_f32" [B32 B32 B32 N] X => rmw(4, FMin);
        0x33 DS_MAX_RTN_F32 "ds_max_rtn_f32" [B32 B32 B32 N] X => rmw(4, FMax);
        0x34 DS_WRAP_RTN_B32 "ds_wrap_rtn_b32" [B32 B32 B32 B32] X => rmw(4, Wrap);
        0x35 DS_SWIZZLE_B32 "ds_swizzle_b32" [B32 B32 N N] X => special;
        0x36 DS_LOAD_B32 "ds_load_b32" [B32 B32 N N] X => ld(4);
        0x37 DS_LOAD_2ADDR_B32 "ds_load_2addr_b32" [B64 B32 N N] X => ld(4).two(1);
        0x38 DS_LOAD_2ADDR_STRIDE64_B32 "ds_load_2addr_stride64_b32" [B64 B32 N N] X => ld(4).two(64);
        0x39 DS_LOAD_I8 "ds_load_i8" [B32 B32 N N] X => ld(1).sx();
        0x3a DS_LOAD_U8 "ds_load_u8" [B32 B32 N N] X => ld(1);
        0x3b DS_LOAD_I16 "ds_load_i16" [B32 B32 N N] X => ld(2).sx();
        0x3c DS_LOAD_U16 "ds_load_u16" [B32 B32 N N] X => ld(2);
        0x3d DS_CONSUME "ds_consume" [B32 N N N] X => special;
        0x3e DS_APPEND "ds_append" [B32 N N N] X => special;
        0x3f DS_ORDERED_COUNT "ds_ordered_count" [B32 B32 N N] GDS => special;
        0x40 DS_ADD_U64 "ds_add_u64" [N B32 B64 N] X => rmw(8, Add);
        0x41 DS_SUB_U64 "ds_sub_u64" [N B32 B64 N] X => rmw(8, Sub);
        0x42 DS_RSUB_U64 "ds_rsub_u64" [N B32 B64 N] X => rmw(8, Rsub);
        0x43 DS_INC_U64 "ds_inc_u64" [N B32 B64 N] X => rmw(8, Inc);
        0x44 DS_DEC_U64 "ds_dec_u64" [N B32 B64 N] X => rmw(8, Dec);
        0x45 DS_MIN_I64 "ds_min_i64" [N B32 B64 N] X => rmw(8, SMin);
        0x46 DS_MAX_I64 "ds_max_i64" [N B32 B64 N] X => rmw(8, SMax);
        0x47 DS_MIN_U64 "ds_min_u64" [N B32 B64 N] X => rmw(8, UMin);
        0x48 DS_MAX_U64 "ds_max_u64" [N B32 B64 N] X => rmw(8, UMax);
        0x49 DS_AND_B64 "ds_and_b64" [N B32 B64 N] X => rmw(8, And);
        0x4a DS_OR_B64 "ds_or_b64" [N B32 B64 N] X => rmw(8, Or);
        0x4b DS_XOR_B64 "ds_xor_b64" [N B32 B64 N] X => rmw(8, Xor);
        0x4c DS_MSKOR_B64 "ds_mskor_b64" [N B32 B64 B64] X => rmw(8, Mskor);
        0x4d DS_STORE_B64 "ds_store_b64" [N B32 B64 N] X => st(8);
        0x4e DS_STORE_2ADDR_B64 "ds_store_2addr_b64" [N B32 B64 B64] X => st(8).two(1);
        0x4f DS_STORE_2ADDR_STRIDE64_B64 "ds_store_2addr_stride64_b64" [N B32 B64 B64] X => st(8).two(64);
        0x50 DS_CMPSTORE_B64 "ds_cmpstore_b64" [N B32 B64 B64] X => rmw(8, CmpSwap);
        0x51 DS_CMPSTORE_F64 "ds_cmpstore_f64" [N B32 B64 B64] X => rmw(8, FCmpSwap);
        0x52 DS_MIN_F64 "ds_min_f64" [N B32 B64 N] X => rmw(8, FMin);
        0x53 DS_MAX_F64 "ds_max_f64" [N B32 B64 N] X => rmw(8, FMax);
        0x60 DS_ADD_RTN_U64 "ds_add_rtn_u64" [B64 B32 B64 N] X => rmw(8, Add);
        0x61 DS_SUB_RTN_U64 "ds_sub_rtn_u64" [B64 B32 B64 N] X => rmw(8, Sub);
        0x62 DS_RSUB_RTN_U64 "ds_rsub_rtn_u64" [B64 B32 B64 N] X => rmw(8, Rsub);
        0x63 DS_INC_RTN_U64 "ds_inc_rtn_u64" [B64 B32 B64 N] X => rmw(8, Inc);
        0x64 DS_DEC_RTN_U64 "ds_dec_rtn_u64" [B64 B32 B64 N] X => rmw(8, Dec);
        0x65 DS_MIN_RTN_I64 "ds_min_rtn_i64" [B64 B32 B64 N] X => rmw(8, SMin);
        0x66 DS_MAX_RTN_I64 "ds_max_rtn_i64" [B64 B32 B64 N] X => rmw(8, SMax);
        0x67 DS_MIN_RTN_U64 "ds_min_rtn_u64" [B64 B32 B64 N] X => rmw(8, UMin);
        0x68 DS_MAX_RTN_U64 "ds_max_rtn_u64" [B64 B32 B64 N] X => rmw(8, UMax);
        0x69 DS_AND_RTN_B64 "ds_and_rtn_b64" [B64 B32 B64 N] X => rmw(8, And);
        0x6a DS_OR_RTN_B64 "ds_or_rtn_b64" [B64 B32 B64 N] X => rmw(8, Or);
        0x6b DS_XOR_RTN_B64 "ds_xor_rtn_b64" [B64 B32 B64 N] X => rmw(8, Xor);
        0x6c DS_MSKOR_RTN_B64 "ds_mskor_rtn_b64" [B64 B32 B64 B64] X => rmw(8, Mskor);
        0x6d DS_STOREXCHG_RTN_B64 "ds_storexchg_rtn_b64" [B64 B32 B64 N] X => rmw(8, Swap);
        0x6e DS_STOREXCHG_2ADDR_RTN_B64 "ds_storexchg_2addr_rtn_b64" [B128 B32 B64 B64] X => rmw(8, Swap).two(1);
        0x6f DS_STOREXCHG_2ADDR_STRIDE64_RTN_B64 "ds_storexchg_2addr_stride64_rtn_b64" [B128 B32 B64 B64] X => rmw(8, Swap).two(64);
        0x70 DS_CMPSTORE_RTN_B64 "ds_cmpstore_rtn_b64" [B64 B32 B64 B64] X => rmw(8, CmpSwap);
        0x71 DS_CMPSTORE_RTN_F64 "ds_cmpstore_rtn_f64" [B64 B32 B64 B64] X => rmw(8, FCmpSwap);
        0x72 DS_MIN_RTN_F64 "ds_min_rtn_f64" [B64 B32 B64 N] X => rmw(8, FMin);
        0x73 DS_MAX_RTN_F64 "ds_max_rtn_f64" [B64 B32 B64 N] X => rmw(8, FMax);
        0x76 DS_LOAD_B64 "ds_load_b64" [B64 B32 N N] X => ld(8);
        0x77 DS_LOAD_2ADDR_B64 "ds_load_2addr_b64" [B128 B32 N N] X => ld(8).two(1);
        0x78 DS_LOAD_2ADDR_STRIDE64_B64 "ds_load_2addr_stride64_b64" [B128 B32 N N] X => ld(8).two(64);
        0x79 DS_ADD_RTN_F32 "ds_add_rtn_f32" [B32 B32 B32 N] X => rmw(4, FAdd);
        0x7a DS_ADD_GS_REG_RTN "ds_add_gs_reg_rtn" [B64 N B32 N] GDS => special;
        0x7b DS_SUB_GS_REG_RTN "ds_sub_gs_reg_rtn" [B64 N B32 N] GDS => special;
        0x7e DS_CONDXCHG32_RTN_B64 "ds_condxchg32_rtn_b64" [B64 B32 B64 N] X => rmw(8, CondXchg32);
        0xa0 DS_STORE_B8_D16_HI "ds_store_b8_d16_hi" [N B32 B32 N] X => st(1).hi();
        0xa1 DS_STORE_B16_D16_HI "ds_store_b16_d16_hi" [N B32 B32 N] X => st(2).hi();
        0xa2 DS_LOAD_U8_D16 "ds_load_u8_d16" [B32 B32 N N] X => ld(1).lo();
        0xa3 DS_LOAD_U8_D16_HI "ds_load_u8_d16_hi" [B32 B32 N N] X => ld(1).hi();
        0xa4 DS_LOAD_I8_D16 "ds_load_i8_d16" [B32 B32 N N] X => ld(1).sx().lo();
        0xa5 DS_LOAD_I8_D16_HI "ds_load_i8_d16_hi" [B32 B32 N N] X => ld(1).sx().hi();
        0xa6 DS_LOAD_U16_D16 "ds_load_u16_d16" [B32 B32 N N] X => ld(2).lo();
        0xa7 DS_LOAD_U16_D16_HI "ds_load_u16_d16_hi" [B32 B32 N N] X => ld(2).hi();
        0xad DS_BVH_STACK_RTN_B32 "ds_bvh_stack_rtn_b32" [B32 B32 B32 B128] LDS => special;
        0xb0 DS_STORE_ADDTID_B32 "ds_store_addtid_b32" [N N B32 N] X => st(4).tid();
        0xb1 DS_LOAD_ADDTID_B32 "ds_load_addtid_b32" [B32 N N N] X => ld(4).tid();
        0xb2 DS_PERMUTE_B32 "ds_permute_b32" [B32 B32 B32 N] LDS | X => special;
        0xb3 DS_BPERMUTE_B32 "ds_bpermute_b32" [B32 B32 B32 N] LDS | X => special;
        0xde DS_STORE_B96 "ds_store_b96" [N B32 B96 N] X => st(12);
        0xdf DS_STORE_B128 "ds_store_b128" [N B32 B128 N] X => st(16);
        0xfe DS_LOAD_B96 "ds_load_b96" [B96 B32 N N] X => ld(12);
        0xff DS_LOAD_B128 "ds_load_b128" [B128 B32 N N] X => ld(16);
    }
    Mubuf mubuf_ops {
        0x00 BUFFER_LOAD_FORMAT_X "buffer_load_format_x" [B32 N N N] X => ldf(1);
        0x01 BUFFER_LOAD_FORMAT_XY "buffer_load_format_xy" [B64 N N N] X => ldf(2);
        0x02 BUFFER_LOAD_FORMAT_XYZ "buffer_load_format_xyz" [B96 N N N] X => ldf(3);
        0x03 BUFFER_LOAD_FORMAT_XYZW "buffer_load_format_xyzw" [B128 N N N] X => ldf(4);
        0x04 BUFFER_STORE_FORMAT_X "buffer_store_format_x" [B32 N N N] X => stf(1);
        0x05 BUFFER_STORE_FORMAT_XY "buffer_store_format_xy" [B64 N N N] X => stf(2);
        0x06 BUFFER_STORE_FORMAT_XYZ "buffer_store_format_xyz" [B96 N N N] X => stf(3);
        0x07 BUFFER_STORE_FORMAT_XYZW "buffer_store_format_xyzw" [B128 N N N] X => stf(4);
        0x08 BUFFER_LOAD_D16_FORMAT_X "buffer_load_d16_format_x" [B32 N N N] X => ldf(1).lo();
        0x09 BUFFER_LOAD_D16_FORMAT_XY "buffer_load_d16_format_xy" [B32 N N N] X => ldf(2).lo();
        0x0a BUFFER_LOAD_D16_FORMAT_XYZ "buffer_load_d16_format_xyz" [B64 N N N] X => ldf(3).lo();
        0x0b BUFFER_LOAD_D16_FORMAT_XYZW "buffer_load_d16_format_xyzw" [B64 N N N] X => ldf(4).lo();
        0x0c BUFFER_STORE_D16_FORMAT_X "buffer_store_d16_format_x" [B32 N N N] X => stf(1).lo();
        0x0d BUFFER_STORE_D16_FORMAT_XY "buffer_store_d16_format_xy" [B32 N N N] X => stf(2).lo();
        0x0e BUFFER_STORE_D16_FORMAT_XYZ "buffer_store_d16_format_xyz" [B64 N N N] X => stf(3).lo();
        0x0f BUFFER_STORE_D16_FORMAT_XYZW "buffer_store_d16_format_xyzw" [B64 N N N] X => stf(4).lo();
        0x10 BUFFER_LOAD_U8 "buffer_load_u8" [B32 N N N] X => ld(1);
        0x11 BUFFER_LOAD_I8 "buffer_load_i8" [B32 N N N] X => ld(1).sx();
        0x12 BUFFER_LOAD_U16 "buffer_load_u16" [B32 N N N] X => ld(2);
        0x13 BUFFER_LOAD_I16 "buffer_load_i16" [B32 N N N] X => ld(2).sx();
        0x14 BUFFER_LOAD_B32 "buffer_load_b32" [B32 N N N] X => ld(4);
        0x15 BUFFER_LOAD_B64 "buffer_load_b64" [B64 N N N] X => ld(8);
        0x16 BUFFER_LOAD_B96 "buffer_load_b96" [B96 N N N] X => ld(12);
        0x17 BUFFER_LOAD_B128 "buffer_load_b128" [B128 N N N] X => ld(16);
        0x18 BUFFER_STORE_B8 "buffer_store_b8" [B32 N N N] X => st(1);
        0x19 BUFFER_STORE_B16 "buffer_store_b16" [B32 N N N] X => st(2);
        0x1a BUFFER_STORE_B32 "buffer_store_b32" [B32 N N N] X => st(4);
        0x1b BUFFER_STORE_B64 "buffer_store_b64" [B64 N N N] X => st(8);
        0x1c BUFFER_STORE_B96 "buffer_store_b96" [B96 N N N] X => st(12);
        0x1d BUFFER_STORE_B128 "buffer_store_b128" [B128 N N N] X => st(16);
        0x1e BUFFER_LOAD_D16_U8 "buffer_load_d16_u8" [B32 N N N] X => ld(1).lo();
        0x1f BUFFER_LOAD_D16_I8 "buffer_load_d16_i8" [B32 N N N] X => ld(1).sx().lo();
        0x20 BUFFER_LOAD_D16_B16 "buffer_load_d16_b16" [B32 N N N] X => ld(2).lo();
        0x21 BUFFER_LOAD_D16_HI_U8 "buffer_load_d16_hi_u8" [B32 N N N] X => ld(1).hi();
        0x22 BUFFER_LOAD_D16_HI_I8 "buffer_load_d16_hi_i8" [B32 N N N] X => ld(1).sx().hi();
        0x23 BUFFER_LOAD_D16_HI_B16 "buffer_load_d16_hi_b16" [B32 N N N] X => ld(2).hi();
        0x24 BUFFER_STORE_D16_HI_B8 "buffer_store_d16_hi_b8" [B32 N N N] X => st(1).hi();
        0x25 BUFFER_STORE_D16_HI_B16 "buffer_store_d16_hi_b16" [B32 N N N] X => st(2).hi();
        0x26 BUFFER_LOAD_D16_HI_FORMAT_X "buffer_load_d16_hi_format_x" [B32 N N N] X => ldf(1).hi();
        0x27 BUFFER_STORE_D16_HI_FORMAT_X "buffer_store_d16_hi_format_x" [B32 N N N] X => stf(1).hi();
        0x2b BUFFER_GL0_INV "buffer_gl0_inv" [N N N N] X => special;
        0x2c BUFFER_GL1_INV "buffer_gl1_inv" [N N N N] X => special;
        0x2d BUFFER_LOAD_LDS_U8 "buffer_load_lds_u8" [N N N N] LDS => ld(1);
        0x2e BUFFER_LOAD_LDS_I8 "buffer_load_lds_i8" [N N N N] LDS => ld(1).sx();
        0x2f BUFFER_LOAD_LDS_U16 "buffer_load_lds_u16" [N N N N] LDS => ld(2);
        0x30 BUFFER_LOAD_LDS_I16 "buffer_load_lds_i16" [N N N N] LDS => ld(2).sx();
        0x31 BUFFER_LOAD_LDS_B32 "buffer_load_lds_b32" [N N N N] LDS => ld(4);
        0x32 BUFFER_LOAD_LDS_FORMAT_X "buffer_load_lds_format_x" [N N N N] LDS => ldf(1);
        0x33 BUFFER_ATOMIC_SWAP_B32 "buffer_atomic_swap_b32" [B32 B32 N N] X => rmw(4, Swap);
        0x34 BUFFER_ATOMIC_CMPSWAP_B32 "buffer_atomic_cmpswap_b32" [B32 B64 N N] X => rmw(4, CmpSwap);
        0x35 BUFFER_ATOMIC_ADD_U32 "buffer_atomic_add_u32" [B32 B32 N N] X => rmw(4, Add);
        0x36 BUFFER_ATOMIC_SUB_U32 "buffer_atomic_sub_u32" [B32 B32 N N] X => rmw(4, Sub);
        0x37 BUFFER_ATOMIC_CSUB_U32 "buffer_atomic_csub_u32" [B32 B32 N N] X => rmw(4, CSub);
        0x38 BUFFER_ATOMIC_MIN_I32 "buffer_atomic_min_i32" [B32 B32 N N] X => rmw(4, SMin);
        0x39 BUFFER_ATOMIC_MIN_U32 "buffer_atomic_min_u32" [B32 B32 N N] X => rmw(4, UMin);
        0x3a BUFFER_ATOMIC_MAX_I32 "buffer_atomic_max_i32" [B32 B32 N N] X => rmw(4, SMax);
        0x3b BUFFER_ATOMIC_MAX_U32 "buffer_atomic_max_u32" [B32 B32 N N] X => rmw(4, UMax);
        0x3c BUFFER_ATOMIC_AND_B32 "buffer_atomic_and_b32" [B32 B32 N N] X => rmw(4, And);
        0x3d BUFFER_ATOMIC_OR_B32 "buffer_atomic_or_b32" [B32 B32 N N] X => rmw(4, Or);
        0x3e BUFFER_ATOMIC_XOR_B32 "buffer_atomic_xor_b32" [B32 B32 N N] X => rmw(4, Xor);
        0x3f BUFFER_ATOMIC_INC_U32 "buffer_atomic_inc_u32" [B32 B32 N N] X => rmw(4, Inc);
        0x40 BUFFER_ATOMIC_DEC_U32 "buffer_atomic_dec_u32" [B32 B32 N N] X => rmw(4, Dec);
        0x41 BUFFER_ATOMIC_SWAP_B64 "buffer_atomic_swap_b64" [B64 B64 N N] X => rmw(8, Swap);
        0x42 BUFFER_ATOMIC_CMPSWAP_B64 "buffer_atomic_cmpswap_b64" [B64 B128 N N] X => rmw(8, CmpSwap);
        0x43 BUFFER_ATOMIC_ADD_U64 "buffer_atomic_add_u64" [B64 B64 N N] X => rmw(8, Add);
        0x44 BUFFER_ATOMIC_SUB_U64 "buffer_atomic_sub_u64" [B64 B64 N N] X => rmw(8, Sub);
        0x45 BUFFER_ATOMIC_MIN_I64 "buffer_atomic_min_i64" [B64 B64 N N] X => rmw(8, SMin);
        0x46 BUFFER_ATOMIC_MIN_U64 "buffer_atomic_min_u64" [B64 B64 N N] X => rmw(8, UMin);
        0x47 BUFFER_ATOMIC_MAX_I64 "buffer_atomic_max_i64" [B64 B64 N N] X => rmw(8, SMax);
        0x48 BUFFER_ATOMIC_MAX_U64 "buffer_atomic_max_u64" [B64 B64 N N] X => rmw(8, UMax);
        0x49 BUFFER_ATOMIC_AND_B64 "buffer_atomic_and_b64" [B64 B64 N N] X => rmw(8, And);
        0x4a BUFFER_ATOMIC_OR_B64 "buffer_atomic_or_b64" [B64 B64 N N] X => rmw(8, Or);
        0x4b BUFFER_ATOMIC_XOR_B64 "buffer_atomic_xor_b64" [B64 B64 N N] X => rmw(8, Xor);
        0x4c BUFFER_ATOMIC_INC_U64 "buffer_atomic_inc_u64" [B64 B64 N N] X => rmw(8, Inc);
        0x4d BUFFER_ATOMIC_DEC_U64 "buffer_atomic_dec_u64" [B64 B64 N N] X => rmw(8, Dec);
        0x50 BUFFER_ATOMIC_CMPSWAP_F32 "buffer_atomic_cmpswap_f32" [B32 B64 N N] X => rmw(4, FCmpSwap);
        0x51 BUFFER_ATOMIC_MIN_F32 "buffer_atomic_min_f32" [B32 B32 N N] X => rmw(4, FMin);
        0x52 BUFFER_ATOMIC_MAX_F32 "buffer_atomic_max_f32" [B32 B32 N N] X => rmw(4, FMax);
        0x56 BUFFER_ATOMIC_ADD_F32 "buffer_atomic_add_f32" [B32 B32 N N] X => rmw(4, FAdd);
    }
    Mtbuf mtbuf_ops {
        0x00 TBUFFER_LOAD_FORMAT_X "tbuffer_load_format_x" [B32 N N N] X => ldf(1);
        0x01 TBUFFER_LOAD_FORMAT_XY "tbuffer_load_format_xy" [B64 N N N] X => ldf(2);
        0x02 TBUFFER_LOAD_FORMAT_XYZ "tbuffer_load_format_xyz" [B96 N N N] X => ldf(3);
        0x03 TBUFFER_LOAD_FORMAT_XYZW "tbuffer_load_format_xyzw" [B128 N N N] X => ldf(4);
        0x04 TBUFFER_STORE_FORMAT_X "tbuffer_store_format_x" [B32 N N N] X => stf(1);
        0x05 TBUFFER_STORE_FORMAT_XY "tbuffer_store_format_xy" [B64 N N N] X => stf(2);
        0x06 TBUFFER_STORE_FORMAT_XYZ "tbuffer_store_format_xyz" [B96 N N N] X => stf(3);
        0x07 TBUFFER_STORE_FORMAT_XYZW "tbuffer_store_format_xyzw" [B128 N N N] X => stf(4);
        0x08 TBUFFER_LOAD_D16_FORMAT_X "tbuffer_load_d16_format_x" [B32 N N N] X => ldf(1).lo();
        0x09 TBUFFER_LOAD_D16_FORMAT_XY "tbuffer_load_d16_format_xy" [B32 N N N] X => ldf(2).lo();
        0x0a TBUFFER_LOAD_D16_FORMAT_XYZ "tbuffer_load_d16_format_xyz" [B64 N N N] X => ldf(3).lo();
        0x0b TBUFFER_LOAD_D16_FORMAT_XYZW "tbuffer_load_d16_format_xyzw" [B64 N N N] X => ldf(4).lo();
        0x0c TBUFFER_STORE_D16_FORMAT_X "tbuffer_store_d16_format_x" [B32 N N N] X => stf(1).lo();
        0x0d TBUFFER_STORE_D16_FORMAT_XY "tbuffer_store_d16_format_xy" [B32 N N N] X => stf(2).lo();
        0x0e TBUFFER_STORE_D16_FORMAT_XYZ "tbuffer_store_d16_format_xyz" [B64 N N N] X => stf(3).lo();
        0x0f TBUFFER_STORE_D16_FORMAT_XYZW "tbuffer_store_d16_format_xyzw" [B64 N N N] X => stf(4).lo();
    }
    Mimg mimg_ops {
        0x00 IMAGE_LOAD "image_load" [N N N N] X => ld(0);
        0x01 IMAGE_LOAD_MIP "image_load_mip" [N N N N] X => ld(0);
        0x02 IMAGE_LOAD_PCK "image_load_pck" [N N N N] NONE => ld(0);
        0x03 IMAGE_LOAD_PCK_SGN "image_load_pck_sgn" [N N N N] NONE => ld(0);
        0x04 IMAGE_LOAD_MIP_PCK "image_load_mip_pck" [N N N N] NONE => ld(0);
        0x05 IMAGE_LOAD_MIP_PCK_SGN "image_load_mip_pck_sgn" [N N N N] NONE => ld(0);
        0x06 IMAGE_STORE "image_store" [N N N N] X => st(0);
        0x07 IMAGE_STORE_MIP "image_store_mip" [N N N N] X => st(0);
        0x08 IMAGE_STORE_PCK "image_store_pck" [N N N N] NONE => st(0);
        0x09 IMAGE_STORE_MIP_PCK "image_store_mip_pck" [N N N N] NONE => st(0);
        0x0a IMAGE_ATOMIC_SWAP "image_atomic_swap" [N N N N] X => rmw(0, Swap);
        0x0b IMAGE_ATOMIC_CMPSWAP "image_atomic_cmpswap" [N N N N] X => rmw(0, CmpSwap);
        0x0c IMAGE_ATOMIC_ADD "image_atomic_add" [N N N N] X => rmw(0, Add);
        0x0d IMAGE_ATOMIC_SUB "image_atomic_sub" [N N N N] X => rmw(0, Sub);
        0x0e IMAGE_ATOMIC_SMIN "image_atomic_smin" [N N N N] X => rmw(0, SMin);
        0x0f IMAGE_ATOMIC_UMIN "image_atomic_umin" [N N N N] X => rmw(0, UMin);
        0x10 IMAGE_ATOMIC_SMAX "image_atomic_smax" [N N N N] X => rmw(0, SMax);
        0x11 IMAGE_ATOMIC_UMAX "image_atomic_umax" [N N N N] X => rmw(0, UMax);
        0x12 IMAGE_ATOMIC_AND "image_atomic_and" [N N N N] X => rmw(0, And);
        0x13 IMAGE_ATOMIC_OR "image_atomic_or" [N N N N] X => rmw(0, Or);
        0x14 IMAGE_ATOMIC_XOR "image_atomic_xor" [N N N N] X => rmw(0, Xor);
        0x15 IMAGE_ATOMIC_INC "image_atomic_inc" [N N N N] X => rmw(0, Inc);
        0x16 IMAGE_ATOMIC_DEC "image_atomic_dec" [N N N N] X => rmw(0, Dec);
        0x17 IMAGE_GET_RESINFO "image_get_resinfo" [N N N N] X => ld(0);
        0x18 IMAGE_MSAA_LOAD "image_msaa_load" [N N N N] X => ld(0);
        0x19 IMAGE_BVH_INTERSECT_RAY "image_bvh_intersect_ray" [N N N N] X => bvh;
        0x1a IMAGE_BVH64_INTERSECT_RAY "image_bvh64_intersect_ray" [N N N N] X => bvh;
        0x1b IMAGE_SAMPLE "image_sample" [N N N N] X => sample;
        0x1c IMAGE_SAMPLE_D "image_sample_d" [N N N N] X => sample;
        0x1d IMAGE_SAMPLE_L "image_sample_l" [N N N N] X => sample;
        0x1e IMAGE_SAMPLE_B "image_sample_b" [N N N N] X => sample;
        0x1f IMAGE_SAMPLE_LZ "image_sample_lz" [N N N N] X => sample;
        0x20 IMAGE_SAMPLE_C "image_sample_c" [N N N N] X => sample;
        0x21 IMAGE_SAMPLE_C_D "image_sample_c_d" [N N N N] X => sample;
        0x22 IMAGE_SAMPLE_C_L "image_sample_c_l" [N N N N] X => sample;
        0x23 IMAGE_SAMPLE_C_B "image_sample_c_b" [N N N N] X => sample;
        0x24 IMAGE_SAMPLE_C_LZ "image_sample_c_lz" [N N N N] X => sample;
        0x25 IMAGE_SAMPLE_O "image_sample_o" [N N N N] X => sample;
        0x26 IMAGE_SAMPLE_D_O "image_sample_d_o" [N N N N] X => sample;
        0x27 IMAGE_SAMPLE_L_O "image_sample_l_o" [N N N N] X => sample;
        0x28 IMAGE_SAMPLE_B_O "image_sample_b_o" [N N N N] X => sample;
        0x29 IMAGE_SAMPLE_LZ_O "image_sample_lz_o" [N N N N] X => sample;
        0x2a IMAGE_SAMPLE_C_O "image_sample_c_o" [N N N N] X => sample;
        0x2b IMAGE_SAMPLE_C_D_O "image_sample_c_d_o" [N N N N] X => sample;
        0x2c IMAGE_SAMPLE_C_L_O "image_sample_c_l_o" [N N N N] X => sample;
        0x2d IMAGE_SAMPLE_C_B_O "image_sample_c_b_o" [N N N N] X => sample;
        0x2e IMAGE_SAMPLE_C_LZ_O "image_sample_c_lz_o" [N N N N] X => sample;
        0x2f IMAGE_GATHER4 "image_gather4" [N N N N] X => sample;
        0x30 IMAGE_GATHER4_L "image_gather4_l" [N N N N] X => sample;
        0x31 IMAGE_GATHER4_B "image_gather4_b" [N N N N] X => sample;
        0x32 IMAGE_GATHER4_LZ "image_gather4_lz" [N N N N] X => sample;
        0x33 IMAGE_GATHER4_C "image_gather4_c" [N N N N] X => sample;
        0x34 IMAGE_GATHER4_C_LZ "image_gather4_c_lz" [N N N N] X => sample;
        0x35 IMAGE_GATHER4_O "image_gather4_o" [N N N N] X => sample;
        0x36 IMAGE_GATHER4_LZ_O "image_gather4_lz_o" [N N N N] X => sample;
        0x37 IMAGE_GATHER4_C_LZ_O "image_gather4_c_lz_o" [N N N N] X => sample;
        0x38 IMAGE_GET_LOD "image_get_lod" [N N N N] X => ld(0);
        0x39 IMAGE_SAMPLE_D_G16 "image_sample_d_g16" [N N N N] X => sample;
        0x3a IMAGE_SAMPLE_C_D_G16 "image_sample_c_d_g16" [N N N N] X => sample;
        0x3b IMAGE_SAMPLE_D_O_G16 "image_sample_d_o_g16" [N N N N] X => sample;
        0x3c IMAGE_SAMPLE_C_D_O_G16 "image_sample_c_d_o_g16" [N N N N] X => sample;
        0x40 IMAGE_SAMPLE_CL "image_sample_cl" [N N N N] X => sample;
        0x41 IMAGE_SAMPLE_D_CL "image_sample_d_cl" [N N N N] X => sample;
        0x42 IMAGE_SAMPLE_B_CL "image_sample_b_cl" [N N N N] X => sample;
        0x43 IMAGE_SAMPLE_C_CL "image_sample_c_cl" [N N N N] X => sample;
        0x44 IMAGE_SAMPLE_C_D_CL "image_sample_c_d_cl" [N N N N] X => sample;
        0x45 IMAGE_SAMPLE_C_B_CL "image_sample_c_b_cl" [N N N N] X => sample;
        0x46 IMAGE_SAMPLE_CL_O "image_sample_cl_o" [N N N N] X => sample;
        0x47 IMAGE_SAMPLE_D_CL_O "image_sample_d_cl_o" [N N N N] X => sample;
        0x48 IMAGE_SAMPLE_B_CL_O "image_sample_b_cl_o" [N N N N] X => sample;
        0x49 IMAGE_SAMPLE_C_CL_O "image_sample_c_cl_o" [N N N N] X => sample;
        0x4a IMAGE_SAMPLE_C_D_CL_O "image_sample_c_d_cl_o" [N N N N] X => sample;
        0x4b IMAGE_SAMPLE_C_B_CL_O "image_sample_c_b_cl_o" [N N N N] X => sample;
        0x54 IMAGE_SAMPLE_C_D_CL_G16 "image_sample_c_d_cl_g16" [N N N N] X => sample;
        0x55 IMAGE_SAMPLE_D_CL_O_G16 "image_sample_d_cl_o_g16" [N N N N] X => sample;
        0x56 IMAGE_SAMPLE_C_D_CL_O_G16 "image_sample_c_d_cl_o_g16" [N N N N] X => sample;
        0x5f IMAGE_SAMPLE_D_CL_G16 "image_sample_d_cl_g16" [N N N N] X => sample;
        0x60 IMAGE_GATHER4_CL "image_gather4_cl" [N N N N] X => sample;
        0x61 IMAGE_GATHER4_B_CL "image_gather4_b_cl" [N N N N] X => sample;
        0x62 IMAGE_GATHER4_C_CL "image_gather4_c_cl" [N N N N] X => sample;
        0x63 IMAGE_GATHER4_C_L "image_gather4_c_l" [N N N N] X => sample;
        0x64 IMAGE_GATHER4_C_B "image_gather4_c_b" [N N N N] X => sample;
        0x65 IMAGE_GATHER4_C_B_CL "image_gather4_c_b_cl" [N N N N] X => sample;
        0x90 IMAGE_GATHER4H "image_gather4h" [N N N N] NONE => sample;
    }
    Flat flat_ops {
        0x10 FLAT_LOAD_U8 "flat_load_u8" [B32 N N N] X => ld(1);
        0x11 FLAT_LOAD_I8 "flat_load_i8" [B32 N N N] X => ld(1).sx();
        0x12 FLAT_LOAD_U16 "flat_load_u16" [B32 N N N] X => ld(2);
        0x13 FLAT_LOAD_I16 "flat_load_i16" [B32 N N N] X => ld(2).sx();
        0x14 FLAT_LOAD_B32 "flat_load_b32" [B32 N N N] X => ld(4);
        0x15 FLAT_LOAD_B64 "flat_load_b64" [B64 N N N] X => ld(8);
        0x16 FLAT_LOAD_B96 "flat_load_b96" [B96 N N N] X => ld(12);
        0x17 FLAT_LOAD_B128 "flat_load_b128" [B128 N N N] X => ld(16);
        0x18 FLAT_STORE_B8 "flat_store_b8" [B32 N N N] X => st(1);
        0x19 FLAT_STORE_B16 "flat_store_b16" [B32 N N N] X => st(2);
        0x1a FLAT_STORE_B32 "flat_store_b32" [B32 N N N] X => st(4);
        0x1b FLAT_STORE_B64 "flat_store_b64" [B64 N N N] X => st(8);
        0x1c FLAT_STORE_B96 "flat_store_b96" [B96 N N N] X => st(12);
        0x1d FLAT_STORE_B128 "flat_store_b128" [B128 N N N] X => st(16);
        0x1e FLAT_LOAD_D16_U8 "flat_load_d16_u8" [B32 N N N] X => ld(1).lo();
        0x1f FLAT_LOAD_D16_I8 "flat_load_d16_i8" [B32 N N N] X => ld(1).sx().lo();
        0x20 FLAT_LOAD_D16_B16 "flat_load_d16_b16" [B32 N N N] X => ld(2).lo();
        0x21 FLAT_LOAD_D16_HI_U8 "flat_load_d16_hi_u8" [B32 N N N] X => ld(1).hi();
        0x22 FLAT_LOAD_D16_HI_I8 "flat_load_d16_hi_i8" [B32 N N N] X => ld(1).sx().hi();
        0x23 FLAT_LOAD_D16_HI_B16 "flat_load_d16_hi_b16" [B32 N N N] X => ld(2).hi();
        0x24 FLAT_STORE_D16_HI_B8 "flat_store_d16_hi_b8" [B32 N N N] X => st(1).hi();
        0x25 FLAT_STORE_D16_HI_B16 "flat_store_d16_hi_b16" [B32 N N N] X => st(2).hi();
        0x33 FLAT_ATOMIC_SWAP_B32 "flat_atomic_swap_b32" [B32 B32 N N] X => rmw(4, Swap);
        0x34 FLAT_ATOMIC_CMPSWAP_B32 "flat_atomic_cmpswap_b32" [B32 B64 N N] X => rmw(4, CmpSwap);
        0x35 FLAT_ATOMIC_ADD_U32 "flat_atomic_add_u32" [B32 B32 N N] X => rmw(4, Add);
        0x36 FLAT_ATOMIC_SUB_U32 "flat_atomic_sub_u32" [B32 B32 N N] X => rmw(4, Sub);
        0x38 FLAT_ATOMIC_MIN_I32 "flat_atomic_min_i32" [B32 B32 N N] X => rmw(4, SMin);
        0x39 FLAT_ATOMIC_MIN_U32 "flat_atomic_min_u32" [B32 B32 N N] X => rmw(4, UMin);
        0x3a FLAT_ATOMIC_MAX_I32 "flat_atomic_max_i32" [B32 B32 N N] X => rmw(4, SMax);
        0x3b FLAT_ATOMIC_MAX_U32 "flat_atomic_max_u32" [B32 B32 N N] X => rmw(4, UMax);
        0x3c FLAT_ATOMIC_AND_B32 "flat_atomic_and_b32" [B32 B32 N N] X => rmw(4, And);
        0x3d FLAT_ATOMIC_OR_B32 "flat_atomic_or_b32" [B32 B32 N N] X => rmw(4, Or);
        0x3e FLAT_ATOMIC_XOR_B32 "flat_atomic_xor_b32" [B32 B32 N N] X => rmw(4, Xor);
        0x3f FLAT_ATOMIC_INC_U32 "flat_atomic_inc_u32" [B32 B32 N N] X => rmw(4, Inc);
        0x40 FLAT_ATOMIC_DEC_U32 "flat_atomic_dec_u32" [B32 B32 N N] X => rmw(4, Dec);
        0x41 FLAT_ATOMIC_SWAP_B64 "flat_atomic_swap_b64" [B64 B64 N N] X => rmw(8, Swap);
        0x42 FLAT_ATOMIC_CMPSWAP_B64 "flat_atomic_cmpswap_b64" [B64 B128 N N] X => rmw(8, CmpSwap);
        0x43 FLAT_ATOMIC_ADD_U64 "flat_atomic_add_u64" [B64 B64 N N] X => rmw(8, Add);
        0x44 FLAT_ATOMIC_SUB_U64 "flat_atomic_sub_u64" [B64 B64 N N] X => rmw(8, Sub);
        0x45 FLAT_ATOMIC_MIN_I64 "flat_atomic_min_i64" [B64 B64 N N] X => rmw(8, SMin);
        0x46 FLAT_ATOMIC_MIN_U64 "flat_atomic_min_u64" [B64 B64 N N] X => rmw(8, UMin);
        0x47 FLAT_ATOMIC_MAX_I64 "flat_atomic_max_i64" [B64 B64 N N] X => rmw(8, SMax);
        0x48 FLAT_ATOMIC_MAX_U64 "flat_atomic_max_u64" [B64 B64 N N] X => rmw(8, UMax);
        0x49 FLAT_ATOMIC_AND_B64 "flat_atomic_and_b64" [B64 B64 N N] X => rmw(8, And);
        0x4a FLAT_ATOMIC_OR_B64 "flat_atomic_or_b64" [B64 B64 N N] X => rmw(8, Or);
        0x4b FLAT_ATOMIC_XOR_B64 "flat_atomic_xor_b64" [B64 B64 N N] X => rmw(8, Xor);
        0x4c FLAT_ATOMIC_INC_U64 "flat_atomic_inc_u64" [B64 B64 N N] X => rmw(8, Inc);
        0x4d FLAT_ATOMIC_DEC_U64 "flat_atomic_dec_u64" [B64 B64 N N] X => rmw(8, Dec);
        0x50 FLAT_ATOMIC_CMPSWAP_F32 "flat_atomic_cmpswap_f32" [B32 B64 N N] X => rmw(4, FCmpSwap);
        0x51 FLAT_ATOMIC_MIN_F32 "flat_atomic_min_f32" [B32 B32 N N] X => rmw(4, FMin);
        0x52 FLAT_ATOMIC_MAX_F32 "flat_atomic_max_f32" [B32 B32 N N] X => rmw(4, FMax);
        0x56 FLAT_ATOMIC_ADD_F32 "flat_atomic_add_f32" [B32 B32 N N] X => rmw(4, FAdd);
    }
    Global global_ops {
        0x10 GLOBAL_LOAD_U8 "global_load_u8" [B32 N N N] X => ld(1);
        0x11 GLOBAL_LOAD_I8 "global_load_i8" [B32 N N N] X => ld(1).sx();
        0x12 GLOBAL_LOAD_U16 "global_load_u16" [B32 N N N] X => ld(2);
        0x13 GLOBAL_LOAD_I16 "global_load_i16" [B32 N N N] X => ld(2).sx();
        0x14 GLOBAL_LOAD_B32 "global_load_b32" [B32 N N N] X => ld(4);
        0x15 GLOBAL_LOAD_B64 "global_load_b64" [B64 N N N] X => ld(8);
        0x16 GLOBAL_LOAD_B96 "global_load_b96" [B96 N N N] X => ld(12);
        0x17 GLOBAL_LOAD_B128 "global_load_b128" [B128 N N N] X => ld(16);
        0x18 GLOBAL_STORE_B8 "global_store_b8" [B32 N N N] X => st(1);
        0x19 GLOBAL_STORE_B16 "global_store_b16" [B32 N N N] X => st(2);
        0x1a GLOBAL_STORE_B32 "global_store_b32" [B32 N N N] X => st(4);
        0x1b GLOBAL_STORE_B64 "global_store_b64" [B64 N N N] X => st(8);
        0x1c GLOBAL_STORE_B96 "global_store_b96" [B96 N N N] X => st(12);
        0x1d GLOBAL_STORE_B128 "global_store_b128" [B128 N N N] X => st(16);
        0x1e GLOBAL_LOAD_D16_U8 "global_load_d16_u8" [B32 N N N] X => ld(1).lo();
        0x1f GLOBAL_LOAD_D16_I8 "global_load_d16_i8" [B32 N N N] X => ld(1).sx().lo();
        0x20 GLOBAL_LOAD_D16_B16 "global_load_d16_b16" [B32 N N N] X => ld(2).lo();
        0x21 GLOBAL_LOAD_D16_HI_U8 "global_load_d16_hi_u8" [B32 N N N] X => ld(1).hi();
        0x22 GLOBAL_LOAD_D16_HI_I8 "global_load_d16_hi_i8" [B32 N N N] X => ld(1).sx().hi();
        0x23 GLOBAL_LOAD_D16_HI_B16 "global_load_d16_hi_b16" [B32 N N N] X => ld(2).hi();
        0x24 GLOBAL_STORE_D16_HI_B8 "global_store_d16_hi_b8" [B32 N N N] X => st(1).hi();
        0x25 GLOBAL_STORE_D16_HI_B16 "global_store_d16_hi_b16" [B32 N N N] X => st(2).hi();
        0x28 GLOBAL_LOAD_ADDTID_B32 "global_load_addtid_b32" [B32 N N N] X => ld(4).tid();
        0x29 GLOBAL_STORE_ADDTID_B32 "global_store_addtid_b32" [B32 N N N] X => st(4).tid();
        0x33 GLOBAL_ATOMIC_SWAP_B32 "global_atomic_swap_b32" [B32 B32 N N] X => rmw(4, Swap);
        0x34 GLOBAL_ATOMIC_CMPSWAP_B32 "global_atomic_cmpswap_b32" [B32 B64 N N] X => rmw(4, CmpSwap);
        0x35 GLOBAL_ATOMIC_ADD_U32 "global_atomic_add_u32" [B32 B32 N N] X => rmw(4, Add);
        0x36 GLOBAL_ATOMIC_SUB_U32 "global_atomic_sub_u32" [B32 B32 N N] X => rmw(4, Sub);
        0x37 GLOBAL_ATOMIC_CSUB_U32 "global_atomic_csub_u32" [B32 B32 N N] X => rmw(4, CSub);
        0x38 GLOBAL_ATOMIC_MIN_I32 "global_atomic_min_i32" [B32 B32 N N] X => rmw(4, SMin);
        0x39 GLOBAL_ATOMIC_MIN_U32 "global_atomic_min_u32" [B32 B32 N N] X => rmw(4, UMin);
        0x3a GLOBAL_ATOMIC_MAX_I32 "global_atomic_max_i32" [B32 B32 N N] X => rmw(4, SMax);
        0x3b GLOBAL_ATOMIC_MAX_U32 "global_atomic_max_u32" [B32 B32 N N] X => rmw(4, UMax);
        0x3c GLOBAL_ATOMIC_AND_B32 "global_atomic_and_b32" [B32 B32 N N] X => rmw(4, And);
        0x3d GLOBAL_ATOMIC_OR_B32 "global_atomic_or_b32" [B32 B32 N N] X => rmw(4, Or);
        0x3e GLOBAL_ATOMIC_XOR_B32 "global_atomic_xor_b32" [B32 B32 N N] X => rmw(4, Xor);
        0x3f GLOBAL_ATOMIC_INC_U32 "global_atomic_inc_u32" [B32 B32 N N] X => rmw(4, Inc);
        0x40 GLOBAL_ATOMIC_DEC_U32 "global_atomic_dec_u32" [B32 B32 N N] X => rmw(4, Dec);
        0x41 GLOBAL_ATOMIC_SWAP_B64 "global_atomic_swap_b64" [B64 B64 N N] X => rmw(8, Swap);
        0x42 GLOBAL_ATOMIC_CMPSWAP_B64 "global_atomic_cmpswap_b64" [B64 B128 N N] X => rmw(8, CmpSwap);
        0x43 GLOBAL_ATOMIC_ADD_U64 "global_atomic_add_u64" [B64 B64 N N] X => rmw(8, Add);
        0x44 GLOBAL_ATOMIC_SUB_U64 "global_atomic_sub_u64" [B64 B64 N N] X => rmw(8, Sub);
        0x45 GLOBAL_ATOMIC_MIN_I64 "global_atomic_min_i64" [B64 B64 N N] X => rmw(8, SMin);
        0x46 GLOBAL_ATOMIC_MIN_U64 "global_atomic_min_u64" [B64 B64 N N] X => rmw(8, UMin);
        0x47 GLOBAL_ATOMIC_MAX_I64 "global_atomic_max_i64" [B64 B64 N N] X => rmw(8, SMax);
        0x48 GLOBAL_ATOMIC_MAX_U64 "global_atomic_max_u64" [B64 B64 N N] X => rmw(8, UMax);
        0x49 GLOBAL_ATOMIC_AND_B64 "global_atomic_and_b64" [B64 B64 N N] X => rmw(8, And);
        0x4a GLOBAL_ATOMIC_OR_B64 "global_atomic_or_b64" [B64 B64 N N] X => rmw(8, Or);
        0x4b GLOBAL_ATOMIC_XOR_B64 "global_atomic_xor_b64" [B64 B64 N N] X => rmw(8, Xor);
        0x4c GLOBAL_ATOMIC_INC_U64 "global_atomic_inc_u64" [B64 B64 N N] X => rmw(8, Inc);
        0x4d GLOBAL_ATOMIC_DEC_U64 "global_atomic_dec_u64" [B64 B64 N N] X => rmw(8, Dec);
        0x50 GLOBAL_ATOMIC_CMPSWAP_F32 "global_atomic_cmpswap_f32" [F32 B64 N N] X => rmw(4, FCmpSwap);
        0x51 GLOBAL_ATOMIC_MIN_F32 "global_atomic_min_f32" [F32 F32 N N] X => rmw(4, FMin);
        0x52 GLOBAL_ATOMIC_MAX_F32 "global_atomic_max_f32" [F32 F32 N N] X => rmw(4, FMax);
        0x56 GLOBAL_ATOMIC_ADD_F32 "global_atomic_add_f32" [F32 F32 N N] X => rmw(4, FAdd);
    }
    Scratch scratch_ops {
        0x10 SCRATCH_LOAD_U8 "scratch_load_u8" [B32 N N N] X => ld(1);
        0x11 SCRATCH_LOAD_I8 "scratch_load_i8" [B32 N N N] X => ld(1).sx();
        0x12 SCRATCH_LOAD_U16 "scratch_load_u16" [B32 N N N] X => ld(2);
        0x13 SCRATCH_LOAD_I16 "scratch_load_i16" [B32 N N N] X => ld(2).sx();
        0x14 SCRATCH_LOAD_B32 "scratch_load_b32" [B32 N N N] X => ld(4);
        0x15 SCRATCH_LOAD_B64 "scratch_load_b64" [B64 N N N] X => ld(8);
        0x16 SCRATCH_LOAD_B96 "scratch_load_b96" [B96 N N N] X => ld(12);
        0x17 SCRATCH_LOAD_B128 "scratch_load_b128" [B128 N N N] X => ld(16);
        0x18 SCRATCH_STORE_B8 "scratch_store_b8" [B32 N N N] X => st(1);
        0x19 SCRATCH_STORE_B16 "scratch_store_b16" [B32 N N N] X => st(2);
        0x1a SCRATCH_STORE_B32 "scratch_store_b32" [B32 N N N] X => st(4);
        0x1b SCRATCH_STORE_B64 "scratch_store_b64" [B64 N N N] X => st(8);
        0x1c SCRATCH_STORE_B96 "scratch_store_b96" [B96 N N N] X => st(12);
        0x1d SCRATCH_STORE_B128 "scratch_store_b128" [B128 N N N] X => st(16);
        0x1e SCRATCH_LOAD_D16_U8 "scratch_load_d16_u8" [B32 N N N] X => ld(1).lo();
        0x1f SCRATCH_LOAD_D16_I8 "scratch_load_d16_i8" [B32 N N N] X => ld(1).sx().lo();
        0x20 SCRATCH_LOAD_D16_B16 "scratch_load_d16_b16" [B32 N N N] X => ld(2).lo();
        0x21 SCRATCH_LOAD_D16_HI_U8 "scratch_load_d16_hi_u8" [B32 N N N] X => ld(1).hi();
        0x22 SCRATCH_LOAD_D16_HI_I8 "scratch_load_d16_hi_i8" [B32 N N N] X => ld(1).sx().hi();
        0x23 SCRATCH_LOAD_D16_HI_B16 "scratch_load_d16_hi_b16" [B32 N N N] X => ld(2).hi();
        0x24 SCRATCH_STORE_D16_HI_B8 "scratch_store_d16_hi_b8" [B32 N N N] X => st(1).hi();
        0x25 SCRATCH_STORE_D16_HI_B16 "scratch_store_d16_hi_b16" [B32 N N N] X => st(2).hi();
    }
    Vopd vopd_ops {
        0x00 V_DUAL "v_dual" [N N N N] X => alu;
    }
    Exp exp_ops {
        0x00 EXP "exp" [N N N N] NONE => special;
    }
}

/// VOPD component opcodes (opX 0–13, opY 0–18) and the VOP1/VOP2 opcode each is.
/// `None`: a code LLVM 19 does not know.
pub const VOPD_OPS: [Option<Op>; 19] = [
    Some(Op::V_FMAC_F32),
    Some(Op::V_FMAAK_F32),
    Some(Op::V_FMAMK_F32),
    Some(Op::V_MUL_F32),
    Some(Op::V_ADD_F32),
    Some(Op::V_SUB_F32),
    Some(Op::V_SUBREV_F32),
    Some(Op::V_MUL_DX9_ZERO_F32),
    Some(Op::V_MOV_B32),
    Some(Op::V_CNDMASK_B32),
    Some(Op::V_MAX_F32),
    Some(Op::V_MIN_F32),
    Some(Op::V_DOT2ACC_F32_F16),
    None, // v_dual_dot2acc_f32_bf16 (not in LLVM 19)
    None,
    None,
    Some(Op::V_ADD_NC_U32),
    Some(Op::V_LSHLREV_B32),
    Some(Op::V_AND_B32),
];

impl Op {
    pub fn info(self) -> &'static OpInfo {
        &OPS[self as usize]
    }

    pub fn name(self) -> &'static str {
        self.info().name
    }

    pub fn encoding(self) -> Encoding {
        self.info().enc
    }

    pub fn has_flag(self, flag: u16) -> bool {
        self.info().flags & flag != 0
    }

    /// Whether softnavi's executor implements this opcode.
    pub fn executed(self) -> bool {
        self.has_flag(F::X)
    }

    /// What the opcode is (its row's facts column).
    #[inline]
    pub fn kind(self) -> Kind {
        self.info().kind
    }

    /// What a memory instruction accesses; `None` for the other encodings.
    #[inline]
    pub fn mem(self) -> Option<&'static Mem> {
        match &self.info().kind {
            Kind::Mem(m) => Some(m),
            _ => None,
        }
    }

    /// The memory counters it counts on ([`cnt`] bits; 0 for none).
    #[inline]
    pub fn counters(self) -> u8 {
        self.info().counters
    }

    /// The VOP3/VOP3P modifier fields ([`OpInfo::vop3`]).
    #[inline]
    pub fn vop3_fields(self) -> (u16, u16) {
        self.info().vop3
    }
}

/// All encodings, in table order.
pub const ENCODINGS: [Encoding; 22] = [
    Encoding::Sop2,
    Encoding::Sopk,
    Encoding::Sop1,
    Encoding::Sopc,
    Encoding::Sopp,
    Encoding::Smem,
    Encoding::Vop2,
    Encoding::Vop1,
    Encoding::Vopc,
    Encoding::Vop3,
    Encoding::Vop3p,
    Encoding::Vopd,
    Encoding::Vinterp,
    Encoding::Ldsdir,
    Encoding::Ds,
    Encoding::Mubuf,
    Encoding::Mtbuf,
    Encoding::Mimg,
    Encoding::Flat,
    Encoding::Global,
    Encoding::Scratch,
    Encoding::Exp,
];

/// `docs/ISA.md`: per encoding, the opcodes decoded and executed, generated from [`OPS`]
/// (a test keeps the file equal to this).
pub fn coverage_markdown() -> String {
    use std::fmt::Write;
    let mut s = String::from(
        "# gfx11 ISA coverage\n\n\
         Generated from `gpu/src/isa/table.rs` by `gpu::isa::table::coverage_markdown()`; do not edit\n\
         (`SOFTNAVI_BLESS=1 cargo test -p softnavi-gpu --test isa_doc` rewrites it).\n\n\
         *Decoded*: the decoder knows the opcode and the disassembler prints it. *Executed*: a wave\n\
         runs it; a decoded opcode that is not executed raises the illegal-instruction exception\n\
         (named, with PC and disassembly) when a wave reaches it. The DPP16 and DPP8 forms of an\n\
         executed opcode are executed (except those of v_movrel*, and dpp_ctrl values gfx11 does\n\
         not have). How far the disassembly matches LLVM 19 is measured by\n\
         `gpu/tests/llvm_isa.rs`.\n\n\
         DS: every LDS instruction is executed. Not executed (the illegal-instruction\n\
         exception): the GDS and GWS instructions (`ds_gws_*`, `ds_ordered_count`,\n\
         `ds_add_gs_reg_rtn`, `ds_sub_gs_reg_rtn`) and any DS instruction with its `gds` bit\n\
         set, as they need a GDS allocation that compute queues do not get here; and\n\
         `ds_bvh_stack_rtn_b32`, whose ray-tracing stack semantics the sources softnavi follows\n\
         do not pin down.\n\n\
         Vector memory: every MUBUF, MTBUF, FLAT, GLOBAL and SCRATCH instruction is executed\n\
         except the MUBUF loads into LDS (`buffer_load_lds_*`): LLVM assembles them for gfx11,\n\
         but its gfx11 targets lack the `vmem-to-lds-load-insts` feature (clang rejects the\n\
         LDS-load builtins for gfx1100), and no source pins down their LDS address on gfx11.\n\
         TFE (the texture-fail status VGPR) on a buffer instruction is an illegal instruction.\n\n\
         Images (MIMG): `image_load`, `image_load_mip`, `image_store`, `image_store_mip`,\n\
         `image_get_resinfo`, every `image_atomic_*` gfx11 has, the `image_sample` and\n\
         `image_gather4` families and `image_get_lod` are executed on linear images (SW_MODE 0)\n\
         and on one-sample swizzled ones in every mode gfx11 addrlib has a colour surface in\n\
         (256B_D, 4KB_S/D(_X), 64KB_S/D(_X/_T), 64KB_Z_X, 64KB_R_X and the 256KB ones; addressed\n\
         as addrlib addresses them for gfx1100 with 32 pipes, without a pipe/bank XOR in the\n\
         base address), of the dims 1D, 2D, 3D, cube, 1D array and 2D array, and (loads, stores,\n\
         atomics, `image_msaa_load` and `image_get_resinfo`) 2D MSAA and MSAA arrays of 2, 4 and 8\n\
         samples in 64KB_R_X and 256KB_R_X, the modes addrlib gives MSAA colour surfaces, in the formats buffers share and\n\
         8_SRGB, 8_8_SRGB, 8_8_8_8_SRGB, 5_9_9_9_FLOAT and the 16-bit packed UNORM ones\n\
         (loads and sampling; stores to all but the sRGB ones; atomics:\n\
         32_UINT, 32_SINT, 32_FLOAT; 64-bit ones 32_32_UINT and 32_32_SINT), with a16 on\n\
         every one of them and tfe and lwe on loads. Not executed: r128, the MSAA dims on sampling,\n\
         gathers and the `_mip` forms, dmask 0, tfe and lwe on stores, atomics and sampling,\n\
         `image_gather4h`, `image_msaa_load` of several components, at a FRAGID that is\n\
         not a multiple of 4 or through a swizzling DST_SEL (gfx11.0's MSAA DST_SEL erratum), and the packed loads and\n\
         stores (`*_pck*`: no source pins down how their raw elements lie in VGPRs).\n\n\
         Ray intersection: `image_bvh_intersect_ray` and `image_bvh64_intersect_ray` are executed in\n\
         every address form (consecutive VGPRs, NSA, A16) on box32, box16 and triangle nodes\n\
         (RDNA3-NOTES, \"Ray intersection\"); a T# with pointer flags, box sorting heuristic 3, a\n\
         type other than 8, or triangle return mode 0, and barycentric source 3, are named errors.\n\n\
         Scalar and vector ALU: every opcode is executed except `s_subvector_loop_begin` and\n\
         `s_subvector_loop_end`, whose semantics AMD's documentation leaves unclear (Mesa's ACO\n\
         notes say so too; no compiler for gfx11 emits them). VINTERP, LDSDIR and EXP are\n\
         graphics-only encodings: a compute wave that reaches one raises the\n\
         illegal-instruction exception.\n\n",
    );
    s.push_str(crate::isa::exec::TRAP_NOTES);
    s.push_str("| Encoding | Decoded | Executed |\n|---|---:|---:|\n");
    let (mut td, mut tx) = (0, 0);
    for enc in ENCODINGS {
        let rows: Vec<&OpInfo> = OPS.iter().filter(|i| i.enc == enc).collect();
        let x = rows.iter().filter(|i| i.flags & F::X != 0).count();
        let _ = writeln!(s, "| {enc:?} | {} | {x} |", rows.len());
        td += rows.len();
        tx += x;
    }
    let _ = writeln!(s, "| **All** | **{td}** | **{tx}** |");
    for enc in ENCODINGS {
        let _ = write!(s, "\n## {enc:?}\n\n");
        for i in OPS.iter().filter(|i| i.enc == enc) {
            let mark = if i.flags & F::X != 0 { "executed" } else { "decoded" };
            let _ = writeln!(s, "- `{:#05x}` `{}` — {mark}", i.code, i.name);
        }
    }
    s
}

/// Per-encoding code → opcode maps, built once from [`OPS`].
struct Lookup {
    tables: Vec<(Encoding, Vec<Option<Op>>)>,
}

fn code_space(enc: Encoding) -> usize {
    match enc {
        Encoding::Sop2 | Encoding::Sopc | Encoding::Sopp | Encoding::Vop3p | Encoding::Vinterp => 128,
        Encoding::Sopk => 32,
        Encoding::Vop2 => 64,
        Encoding::Vop3 => 1024,
        Encoding::Flat | Encoding::Global | Encoding::Scratch => 128,
        Encoding::Vopd | Encoding::Exp => 1,
        Encoding::Ldsdir => 4,
        Encoding::Mtbuf => 16,
        Encoding::Mimg => 256,
        Encoding::Sop1 | Encoding::Smem | Encoding::Vop1 | Encoding::Vopc | Encoding::Ds | Encoding::Mubuf => 256,
    }
}

fn lookup_tables() -> &'static Lookup {
    static LOOKUP: std::sync::OnceLock<Lookup> = std::sync::OnceLock::new();
    LOOKUP.get_or_init(|| {
        let mut tables: Vec<(Encoding, Vec<Option<Op>>)> = Vec::new();
        for info in OPS {
            let i = match tables.iter().position(|(e, _)| *e == info.enc) {
                Some(i) => i,
                None => {
                    tables.push((info.enc, vec![None; code_space(info.enc)]));
                    tables.len() - 1
                }
            };
            tables[i].1[info.code as usize] = Some(info.op);
        }
        Lookup { tables }
    })
}

/// The opcode with number `code` in encoding `enc`, if softnavi knows it.
pub fn lookup(enc: Encoding, code: u32) -> Option<Op> {
    let t = lookup_tables().tables.iter().find(|(e, _)| *e == enc)?;
    t.1.get(code as usize).copied().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn table_rows_are_in_enum_order_and_unique() {
        for (i, info) in OPS.iter().enumerate() {
            assert_eq!(info.op as usize, i);
            assert_eq!(lookup(info.enc, info.code as u32), Some(info.op), "{}", info.name);
            assert!((info.code as usize) < code_space(info.enc), "{}", info.name);
        }
    }

    /// The hand-written memory facts agree with what the mnemonics spell: the direction
    /// (`load`, `store`, `atomic`), the width token (`u8`, `i16`, `b64`, ...: size and
    /// sign), `d16`/`d16_hi`, `format_xyz`, `2addr`/`stride64`, `addtid`, and the atomic's
    /// operation. Only this test reads facts from names.
    #[test]
    fn memory_facts_agree_with_the_mnemonics() {
        use Rmw::*;
        let mut checked = 0;
        for info in OPS {
            let Kind::Mem(m) = info.kind else { continue };
            let name = info.name;
            let t: Vec<&str> = name.split('_').collect();
            let has = |w: &str| t.contains(&w);
            let width = t.iter().find_map(|w| {
                let (sign, bits) = w.split_at(1);
                let bits: u32 = bits.parse().ok().filter(|_| matches!(sign, "b" | "u" | "i" | "f"))?;
                Some((sign == "i", bits))
            });
            match info.enc {
                Encoding::Mimg | Encoding::Ldsdir | Encoding::Exp => continue,
                Encoding::Smem if has("load") => {
                    assert_eq!(m.access, Access::Load, "{name}");
                    assert_eq!(Some(m.size as u32 * 8), width.map(|w| w.1), "{name}");
                }
                Encoding::Smem => assert_eq!(m.access, Access::None, "{name}"),
                _ if m.access == Access::Atomic => {
                    // buffer_atomic_add_u32, ds_add_rtn_u64, ds_cmpstore_rtn_f32, ...
                    let at = t.iter().position(|w| *w == "atomic").map_or(1, |p| p + 1);
                    let ty = t.iter().rev().find(|w| w.len() > 1 && matches!(&w[..1], "b" | "u" | "i" | "f"));
                    let want = match (t[at], ty.map(|w| &w[..1])) {
                        ("swap" | "storexchg", _) => Swap,
                        ("cmpswap" | "cmpstore", Some("f")) => FCmpSwap,
                        ("cmpswap" | "cmpstore", _) => CmpSwap,
                        ("add", Some("f")) => FAdd,
                        ("add", _) => Add,
                        ("sub", _) => Sub,
                        ("rsub", _) => Rsub,
                        ("csub", _) => CSub,
                        ("inc", _) => Inc,
                        ("dec", _) => Dec,
                        ("min", Some("i")) => SMin,
                        ("min", Some("u")) => UMin,
                        ("min", Some("f")) => FMin,
                        ("max", Some("i")) => SMax,
                        ("max", Some("u")) => UMax,
                        ("max", Some("f")) => FMax,
                        ("and", _) => And,
                        ("or", _) => Or,
                        ("xor", _) => Xor,
                        ("mskor", _) => Mskor,
                        ("wrap", _) => Wrap,
                        ("condxchg32", _) => CondXchg32,
                        w => panic!("{name}: no operation for {w:?}"), // ok: a unit test
                    };
                    assert_eq!(m.rmw, Some(want), "{name}");
                    let wide = ty.is_some_and(|w| w.ends_with("64"));
                    assert_eq!(m.size, if wide { 8 } else { 4 }, "{name}");
                    assert_eq!(
                        m.stride,
                        if has("2addr") {
                            if has("stride64") {
                                64
                            } else {
                                1
                            }
                        } else {
                            0
                        },
                        "{name}"
                    );
                }
                _ if has("load") || has("store") => {
                    assert_eq!(m.access, if has("load") { Access::Load } else { Access::Store }, "{name}");
                    assert_eq!(m.rmw, None, "{name}");
                    let d16 = match (has("d16"), has("hi")) {
                        (false, _) => D16::No,
                        (true, false) => D16::Lo,
                        (true, true) => D16::Hi,
                    };
                    assert_eq!(m.d16, d16, "{name}");
                    match t.iter().position(|w| *w == "format") {
                        Some(p) => assert_eq!((m.comps as usize, m.size), (t[p + 1].len(), 0), "{name}"),
                        None => {
                            let (signed, bits) = width.unwrap_or_else(|| panic!("{name}: no width")); // ok: a unit test
                            assert_eq!((m.comps, m.size as u32 * 8, m.signed), (0, bits, signed), "{name}");
                        }
                    }
                    assert_eq!(
                        m.stride,
                        if has("2addr") {
                            if has("stride64") {
                                64
                            } else {
                                1
                            }
                        } else {
                            0
                        },
                        "{name}"
                    );
                    assert_eq!(m.tid, has("addtid"), "{name}");
                }
                _ => assert_eq!(m.access, Access::None, "{name}"),
            }
            checked += 1;
        }
        assert!(checked > 350, "{checked}");
    }
}
