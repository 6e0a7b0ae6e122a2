//! The gfx11 opcode table: one row per opcode, the single source of truth from which the
//! decoder (code → [`Op`]), the disassembler (mnemonic, operand widths) and the executor
//! (an exhaustive `match` on [`Op`]) are derived. Opcode numbers and mnemonics are
//! LLVM 19's (`llvm-mc-19 -mcpu=gfx1100`); a test checks the numbers against it.
//!
//! Each block is `Encoding pattern_macro { rows }` (the macro matches all of the block's opcodes);
//! each row: `code NAME "mnemonic" [dst src0 src1 src2] flags`. The four [`Ty`] slots
//! mean, per encoding: SOP/VOP — destination and sources; SMEM — destination width;
//! DS/MUBUF/FLAT — data width (loads: returned, stores: supplied; atomics: returned, then
//! supplied); SOPK/SOPP — the
//! destination (if any) and the immediate. `flags` are [`F`] bits.

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
            Ty::B16 | Ty::F16 | Ty::B32 | Ty::F32 => 1,
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
    pub const NONE: u8 = 0;
    /// VOP3 form is VOP3SD (has an SGPR carry/condition destination in bits 14:8).
    pub const SD: u8 = 1;
    /// VOPC: writes EXEC (v_cmpx).
    pub const CMPX: u8 = 2;
    /// SOPP: the immediate is a branch offset.
    pub const BRANCH: u8 = 4;
    /// VOP1/VOP2: has only a VOP3 form in practice (a literal/32-bit form does not exist).
    pub const LIT_K: u8 = 8;
    /// FLAT/GLOBAL/DS/MUBUF: an atomic read-modify-write; `[returned, supplied]` widths
    /// (cmpswap supplies the new value and the compare value).
    pub const ATOMIC: u8 = 16;
}

/// Static facts of one opcode.
#[derive(Debug)]
pub struct OpInfo {
    pub op: Op,
    pub enc: Encoding,
    pub code: u16,
    pub name: &'static str,
    /// `[dst, src0, src1, src2]`, see the module documentation.
    pub ty: [Ty; 4],
    pub flags: u8,
}

macro_rules! opcode_table {
    ($( $enc:ident $ops:ident { $( $code:literal $name:ident $text:literal [$d:ident $s0:ident $s1:ident $s2:ident] $flags:ident ; )* } )*) => {
        /// Every opcode softnavi decodes (and executes), across all encodings.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
        #[repr(u16)]
        pub enum Op { $( $( $name, )* )* }

        /// Rows in [`Op`] order: `OPS[op as usize].op == op`.
        pub static OPS: &[OpInfo] = &[ $( $( OpInfo {
            op: Op::$name,
            enc: Encoding::$enc,
            code: $code,
            name: $text,
            ty: [Ty::$d, Ty::$s0, Ty::$s1, Ty::$s2],
            flags: F::$flags,
        }, )* )* ];

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
        0x00 S_ADD_U32 "s_add_u32" [B32 B32 B32 N] NONE;
        0x01 S_SUB_U32 "s_sub_u32" [B32 B32 B32 N] NONE;
        0x02 S_ADD_I32 "s_add_i32" [B32 B32 B32 N] NONE;
        0x03 S_SUB_I32 "s_sub_i32" [B32 B32 B32 N] NONE;
        0x04 S_ADDC_U32 "s_addc_u32" [B32 B32 B32 N] NONE;
        0x05 S_SUBB_U32 "s_subb_u32" [B32 B32 B32 N] NONE;
        0x06 S_ABSDIFF_I32 "s_absdiff_i32" [B32 B32 B32 N] NONE;
        0x08 S_LSHL_B32 "s_lshl_b32" [B32 B32 B32 N] NONE;
        0x09 S_LSHL_B64 "s_lshl_b64" [B64 B64 B32 N] NONE;
        0x0a S_LSHR_B32 "s_lshr_b32" [B32 B32 B32 N] NONE;
        0x0b S_LSHR_B64 "s_lshr_b64" [B64 B64 B32 N] NONE;
        0x0c S_ASHR_I32 "s_ashr_i32" [B32 B32 B32 N] NONE;
        0x0d S_ASHR_I64 "s_ashr_i64" [B64 B64 B32 N] NONE;
        0x0e S_LSHL1_ADD_U32 "s_lshl1_add_u32" [B32 B32 B32 N] NONE;
        0x0f S_LSHL2_ADD_U32 "s_lshl2_add_u32" [B32 B32 B32 N] NONE;
        0x10 S_LSHL3_ADD_U32 "s_lshl3_add_u32" [B32 B32 B32 N] NONE;
        0x11 S_LSHL4_ADD_U32 "s_lshl4_add_u32" [B32 B32 B32 N] NONE;
        0x12 S_MIN_I32 "s_min_i32" [B32 B32 B32 N] NONE;
        0x13 S_MIN_U32 "s_min_u32" [B32 B32 B32 N] NONE;
        0x14 S_MAX_I32 "s_max_i32" [B32 B32 B32 N] NONE;
        0x15 S_MAX_U32 "s_max_u32" [B32 B32 B32 N] NONE;
        0x16 S_AND_B32 "s_and_b32" [B32 B32 B32 N] NONE;
        0x17 S_AND_B64 "s_and_b64" [B64 B64 B64 N] NONE;
        0x18 S_OR_B32 "s_or_b32" [B32 B32 B32 N] NONE;
        0x19 S_OR_B64 "s_or_b64" [B64 B64 B64 N] NONE;
        0x1a S_XOR_B32 "s_xor_b32" [B32 B32 B32 N] NONE;
        0x1b S_XOR_B64 "s_xor_b64" [B64 B64 B64 N] NONE;
        0x1c S_NAND_B32 "s_nand_b32" [B32 B32 B32 N] NONE;
        0x1d S_NAND_B64 "s_nand_b64" [B64 B64 B64 N] NONE;
        0x1e S_NOR_B32 "s_nor_b32" [B32 B32 B32 N] NONE;
        0x1f S_NOR_B64 "s_nor_b64" [B64 B64 B64 N] NONE;
        0x20 S_XNOR_B32 "s_xnor_b32" [B32 B32 B32 N] NONE;
        0x21 S_XNOR_B64 "s_xnor_b64" [B64 B64 B64 N] NONE;
        0x22 S_AND_NOT1_B32 "s_and_not1_b32" [B32 B32 B32 N] NONE;
        0x23 S_AND_NOT1_B64 "s_and_not1_b64" [B64 B64 B64 N] NONE;
        0x24 S_OR_NOT1_B32 "s_or_not1_b32" [B32 B32 B32 N] NONE;
        0x25 S_OR_NOT1_B64 "s_or_not1_b64" [B64 B64 B64 N] NONE;
        0x26 S_BFE_U32 "s_bfe_u32" [B32 B32 B32 N] NONE;
        0x27 S_BFE_I32 "s_bfe_i32" [B32 B32 B32 N] NONE;
        0x28 S_BFE_U64 "s_bfe_u64" [B64 B64 B32 N] NONE;
        0x29 S_BFE_I64 "s_bfe_i64" [B64 B64 B32 N] NONE;
        0x2a S_BFM_B32 "s_bfm_b32" [B32 B32 B32 N] NONE;
        0x2b S_BFM_B64 "s_bfm_b64" [B64 B32 B32 N] NONE;
        0x2c S_MUL_I32 "s_mul_i32" [B32 B32 B32 N] NONE;
        0x2d S_MUL_HI_U32 "s_mul_hi_u32" [B32 B32 B32 N] NONE;
        0x2e S_MUL_HI_I32 "s_mul_hi_i32" [B32 B32 B32 N] NONE;
        0x30 S_CSELECT_B32 "s_cselect_b32" [B32 B32 B32 N] NONE;
        0x31 S_CSELECT_B64 "s_cselect_b64" [B64 B64 B64 N] NONE;
        0x32 S_PACK_LL_B32_B16 "s_pack_ll_b32_b16" [B32 B32 B32 N] NONE;
        0x33 S_PACK_LH_B32_B16 "s_pack_lh_b32_b16" [B32 B32 B32 N] NONE;
        0x34 S_PACK_HH_B32_B16 "s_pack_hh_b32_b16" [B32 B32 B32 N] NONE;
        0x35 S_PACK_HL_B32_B16 "s_pack_hl_b32_b16" [B32 B32 B32 N] NONE;
    }
    Sopk sopk_ops {
        0x00 S_MOVK_I32 "s_movk_i32" [B32 Imm16 N N] NONE;
        0x01 S_VERSION "s_version" [N Imm16 N N] NONE;
        0x02 S_CMOVK_I32 "s_cmovk_i32" [B32 Imm16 N N] NONE;
        0x03 S_CMPK_EQ_I32 "s_cmpk_eq_i32" [B32 Imm16 N N] NONE;
        0x04 S_CMPK_LG_I32 "s_cmpk_lg_i32" [B32 Imm16 N N] NONE;
        0x05 S_CMPK_GT_I32 "s_cmpk_gt_i32" [B32 Imm16 N N] NONE;
        0x06 S_CMPK_GE_I32 "s_cmpk_ge_i32" [B32 Imm16 N N] NONE;
        0x07 S_CMPK_LT_I32 "s_cmpk_lt_i32" [B32 Imm16 N N] NONE;
        0x08 S_CMPK_LE_I32 "s_cmpk_le_i32" [B32 Imm16 N N] NONE;
        0x09 S_CMPK_EQ_U32 "s_cmpk_eq_u32" [B32 Imm16 N N] NONE;
        0x0a S_CMPK_LG_U32 "s_cmpk_lg_u32" [B32 Imm16 N N] NONE;
        0x0b S_CMPK_GT_U32 "s_cmpk_gt_u32" [B32 Imm16 N N] NONE;
        0x0c S_CMPK_GE_U32 "s_cmpk_ge_u32" [B32 Imm16 N N] NONE;
        0x0d S_CMPK_LT_U32 "s_cmpk_lt_u32" [B32 Imm16 N N] NONE;
        0x0e S_CMPK_LE_U32 "s_cmpk_le_u32" [B32 Imm16 N N] NONE;
        0x0f S_ADDK_I32 "s_addk_i32" [B32 Imm16 N N] NONE;
        0x10 S_MULK_I32 "s_mulk_i32" [B32 Imm16 N N] NONE;
        0x18 S_WAITCNT_VSCNT "s_waitcnt_vscnt" [B32 Imm16 N N] NONE;
        0x19 S_WAITCNT_VMCNT "s_waitcnt_vmcnt" [B32 Imm16 N N] NONE;
        0x1a S_WAITCNT_EXPCNT "s_waitcnt_expcnt" [B32 Imm16 N N] NONE;
        0x1b S_WAITCNT_LGKMCNT "s_waitcnt_lgkmcnt" [B32 Imm16 N N] NONE;
    }
    Sop1 sop1_ops {
        0x00 S_MOV_B32 "s_mov_b32" [B32 B32 N N] NONE;
        0x01 S_MOV_B64 "s_mov_b64" [B64 B64 N N] NONE;
        0x02 S_CMOV_B32 "s_cmov_b32" [B32 B32 N N] NONE;
        0x03 S_CMOV_B64 "s_cmov_b64" [B64 B64 N N] NONE;
        0x04 S_BREV_B32 "s_brev_b32" [B32 B32 N N] NONE;
        0x05 S_BREV_B64 "s_brev_b64" [B64 B64 N N] NONE;
        0x08 S_CTZ_I32_B32 "s_ctz_i32_b32" [B32 B32 N N] NONE;
        0x09 S_CTZ_I32_B64 "s_ctz_i32_b64" [B32 B64 N N] NONE;
        0x0a S_CLZ_I32_U32 "s_clz_i32_u32" [B32 B32 N N] NONE;
        0x0b S_CLZ_I32_U64 "s_clz_i32_u64" [B32 B64 N N] NONE;
        0x0e S_SEXT_I32_I8 "s_sext_i32_i8" [B32 B32 N N] NONE;
        0x0f S_SEXT_I32_I16 "s_sext_i32_i16" [B32 B32 N N] NONE;
        0x10 S_BITSET0_B32 "s_bitset0_b32" [B32 B32 N N] NONE;
        0x11 S_BITSET0_B64 "s_bitset0_b64" [B64 B32 N N] NONE;
        0x12 S_BITSET1_B32 "s_bitset1_b32" [B32 B32 N N] NONE;
        0x13 S_BITSET1_B64 "s_bitset1_b64" [B64 B32 N N] NONE;
        0x15 S_ABS_I32 "s_abs_i32" [B32 B32 N N] NONE;
        0x16 S_BCNT0_I32_B32 "s_bcnt0_i32_b32" [B32 B32 N N] NONE;
        0x17 S_BCNT0_I32_B64 "s_bcnt0_i32_b64" [B32 B64 N N] NONE;
        0x18 S_BCNT1_I32_B32 "s_bcnt1_i32_b32" [B32 B32 N N] NONE;
        0x19 S_BCNT1_I32_B64 "s_bcnt1_i32_b64" [B32 B64 N N] NONE;
        0x1e S_NOT_B32 "s_not_b32" [B32 B32 N N] NONE;
        0x1f S_NOT_B64 "s_not_b64" [B64 B64 N N] NONE;
        0x20 S_AND_SAVEEXEC_B32 "s_and_saveexec_b32" [B32 B32 N N] NONE;
        0x21 S_AND_SAVEEXEC_B64 "s_and_saveexec_b64" [B64 B64 N N] NONE;
        0x22 S_OR_SAVEEXEC_B32 "s_or_saveexec_b32" [B32 B32 N N] NONE;
        0x23 S_OR_SAVEEXEC_B64 "s_or_saveexec_b64" [B64 B64 N N] NONE;
        0x24 S_XOR_SAVEEXEC_B32 "s_xor_saveexec_b32" [B32 B32 N N] NONE;
        0x25 S_XOR_SAVEEXEC_B64 "s_xor_saveexec_b64" [B64 B64 N N] NONE;
        0x2c S_AND_NOT0_SAVEEXEC_B32 "s_and_not0_saveexec_b32" [B32 B32 N N] NONE;
        0x2d S_AND_NOT0_SAVEEXEC_B64 "s_and_not0_saveexec_b64" [B64 B64 N N] NONE;
        0x2e S_OR_NOT0_SAVEEXEC_B32 "s_or_not0_saveexec_b32" [B32 B32 N N] NONE;
        0x2f S_OR_NOT0_SAVEEXEC_B64 "s_or_not0_saveexec_b64" [B64 B64 N N] NONE;
        0x30 S_AND_NOT1_SAVEEXEC_B32 "s_and_not1_saveexec_b32" [B32 B32 N N] NONE;
        0x31 S_AND_NOT1_SAVEEXEC_B64 "s_and_not1_saveexec_b64" [B64 B64 N N] NONE;
        0x32 S_OR_NOT1_SAVEEXEC_B32 "s_or_not1_saveexec_b32" [B32 B32 N N] NONE;
        0x33 S_OR_NOT1_SAVEEXEC_B64 "s_or_not1_saveexec_b64" [B64 B64 N N] NONE;
        0x47 S_GETPC_B64 "s_getpc_b64" [B64 N N N] NONE;
        0x48 S_SETPC_B64 "s_setpc_b64" [N B64 N N] NONE;
        0x49 S_SWAPPC_B64 "s_swappc_b64" [B64 B64 N N] NONE;
    }
    Sopc sopc_ops {
        0x00 S_CMP_EQ_I32 "s_cmp_eq_i32" [N B32 B32 N] NONE;
        0x01 S_CMP_LG_I32 "s_cmp_lg_i32" [N B32 B32 N] NONE;
        0x02 S_CMP_GT_I32 "s_cmp_gt_i32" [N B32 B32 N] NONE;
        0x03 S_CMP_GE_I32 "s_cmp_ge_i32" [N B32 B32 N] NONE;
        0x04 S_CMP_LT_I32 "s_cmp_lt_i32" [N B32 B32 N] NONE;
        0x05 S_CMP_LE_I32 "s_cmp_le_i32" [N B32 B32 N] NONE;
        0x06 S_CMP_EQ_U32 "s_cmp_eq_u32" [N B32 B32 N] NONE;
        0x07 S_CMP_LG_U32 "s_cmp_lg_u32" [N B32 B32 N] NONE;
        0x08 S_CMP_GT_U32 "s_cmp_gt_u32" [N B32 B32 N] NONE;
        0x09 S_CMP_GE_U32 "s_cmp_ge_u32" [N B32 B32 N] NONE;
        0x0a S_CMP_LT_U32 "s_cmp_lt_u32" [N B32 B32 N] NONE;
        0x0b S_CMP_LE_U32 "s_cmp_le_u32" [N B32 B32 N] NONE;
        0x0c S_BITCMP0_B32 "s_bitcmp0_b32" [N B32 B32 N] NONE;
        0x0d S_BITCMP1_B32 "s_bitcmp1_b32" [N B32 B32 N] NONE;
        0x0e S_BITCMP0_B64 "s_bitcmp0_b64" [N B64 B32 N] NONE;
        0x0f S_BITCMP1_B64 "s_bitcmp1_b64" [N B64 B32 N] NONE;
        0x10 S_CMP_EQ_U64 "s_cmp_eq_u64" [N B64 B64 N] NONE;
        0x11 S_CMP_LG_U64 "s_cmp_lg_u64" [N B64 B64 N] NONE;
    }
    Sopp sopp_ops {
        0x00 S_NOP "s_nop" [N Imm16 N N] NONE;
        0x03 S_SLEEP "s_sleep" [N Imm16 N N] NONE;
        0x04 S_SET_INST_PREFETCH_DISTANCE "s_set_inst_prefetch_distance" [N Imm16 N N] NONE;
        0x05 S_CLAUSE "s_clause" [N Imm16 N N] NONE;
        0x07 S_DELAY_ALU "s_delay_alu" [N Imm16 N N] NONE;
        0x08 S_WAITCNT_DEPCTR "s_waitcnt_depctr" [N Imm16 N N] NONE;
        0x09 S_WAITCNT "s_waitcnt" [N Imm16 N N] NONE;
        0x0a S_WAIT_IDLE "s_wait_idle" [N N N N] NONE;
        0x1f S_CODE_END "s_code_end" [N N N N] NONE;
        0x20 S_BRANCH "s_branch" [N Imm16 N N] BRANCH;
        0x21 S_CBRANCH_SCC0 "s_cbranch_scc0" [N Imm16 N N] BRANCH;
        0x22 S_CBRANCH_SCC1 "s_cbranch_scc1" [N Imm16 N N] BRANCH;
        0x23 S_CBRANCH_VCCZ "s_cbranch_vccz" [N Imm16 N N] BRANCH;
        0x24 S_CBRANCH_VCCNZ "s_cbranch_vccnz" [N Imm16 N N] BRANCH;
        0x25 S_CBRANCH_EXECZ "s_cbranch_execz" [N Imm16 N N] BRANCH;
        0x26 S_CBRANCH_EXECNZ "s_cbranch_execnz" [N Imm16 N N] BRANCH;
        0x30 S_ENDPGM "s_endpgm" [N N N N] NONE;
        0x35 S_SETPRIO "s_setprio" [N Imm16 N N] NONE;
        0x36 S_SENDMSG "s_sendmsg" [N Imm16 N N] NONE;
        0x3c S_ICACHE_INV "s_icache_inv" [N N N N] NONE;
        0x3d S_BARRIER "s_barrier" [N N N N] NONE;
    }
    Smem smem_ops {
        0x00 S_LOAD_B32 "s_load_b32" [B32 N N N] NONE;
        0x01 S_LOAD_B64 "s_load_b64" [B64 N N N] NONE;
        0x02 S_LOAD_B128 "s_load_b128" [B128 N N N] NONE;
        0x03 S_LOAD_B256 "s_load_b256" [B256 N N N] NONE;
        0x04 S_LOAD_B512 "s_load_b512" [B512 N N N] NONE;
        0x08 S_BUFFER_LOAD_B32 "s_buffer_load_b32" [B32 N N N] NONE;
        0x09 S_BUFFER_LOAD_B64 "s_buffer_load_b64" [B64 N N N] NONE;
        0x0a S_BUFFER_LOAD_B128 "s_buffer_load_b128" [B128 N N N] NONE;
        0x0b S_BUFFER_LOAD_B256 "s_buffer_load_b256" [B256 N N N] NONE;
        0x0c S_BUFFER_LOAD_B512 "s_buffer_load_b512" [B512 N N N] NONE;
        0x20 S_GL1_INV "s_gl1_inv" [N N N N] NONE;
        0x21 S_DCACHE_INV "s_dcache_inv" [N N N N] NONE;
    }
    Vop2 vop2_ops {
        0x01 V_CNDMASK_B32 "v_cndmask_b32" [B32 B32 B32 Mask] NONE;
        0x03 V_ADD_F32 "v_add_f32" [F32 F32 F32 N] NONE;
        0x04 V_SUB_F32 "v_sub_f32" [F32 F32 F32 N] NONE;
        0x05 V_SUBREV_F32 "v_subrev_f32" [F32 F32 F32 N] NONE;
        0x07 V_MUL_DX9_ZERO_F32 "v_mul_dx9_zero_f32" [F32 F32 F32 N] NONE;
        0x08 V_MUL_F32 "v_mul_f32" [F32 F32 F32 N] NONE;
        0x09 V_MUL_I32_I24 "v_mul_i32_i24" [B32 B32 B32 N] NONE;
        0x0a V_MUL_HI_I32_I24 "v_mul_hi_i32_i24" [B32 B32 B32 N] NONE;
        0x0b V_MUL_U32_U24 "v_mul_u32_u24" [B32 B32 B32 N] NONE;
        0x0c V_MUL_HI_U32_U24 "v_mul_hi_u32_u24" [B32 B32 B32 N] NONE;
        0x0f V_MIN_F32 "v_min_f32" [F32 F32 F32 N] NONE;
        0x10 V_MAX_F32 "v_max_f32" [F32 F32 F32 N] NONE;
        0x11 V_MIN_I32 "v_min_i32" [B32 B32 B32 N] NONE;
        0x12 V_MAX_I32 "v_max_i32" [B32 B32 B32 N] NONE;
        0x13 V_MIN_U32 "v_min_u32" [B32 B32 B32 N] NONE;
        0x14 V_MAX_U32 "v_max_u32" [B32 B32 B32 N] NONE;
        0x18 V_LSHLREV_B32 "v_lshlrev_b32" [B32 B32 B32 N] NONE;
        0x19 V_LSHRREV_B32 "v_lshrrev_b32" [B32 B32 B32 N] NONE;
        0x1a V_ASHRREV_I32 "v_ashrrev_i32" [B32 B32 B32 N] NONE;
        0x1b V_AND_B32 "v_and_b32" [B32 B32 B32 N] NONE;
        0x1c V_OR_B32 "v_or_b32" [B32 B32 B32 N] NONE;
        0x1d V_XOR_B32 "v_xor_b32" [B32 B32 B32 N] NONE;
        0x1e V_XNOR_B32 "v_xnor_b32" [B32 B32 B32 N] NONE;
        0x20 V_ADD_CO_CI_U32 "v_add_co_ci_u32" [B32 B32 B32 Mask] SD;
        0x21 V_SUB_CO_CI_U32 "v_sub_co_ci_u32" [B32 B32 B32 Mask] SD;
        0x22 V_SUBREV_CO_CI_U32 "v_subrev_co_ci_u32" [B32 B32 B32 Mask] SD;
        0x25 V_ADD_NC_U32 "v_add_nc_u32" [B32 B32 B32 N] NONE;
        0x26 V_SUB_NC_U32 "v_sub_nc_u32" [B32 B32 B32 N] NONE;
        0x27 V_SUBREV_NC_U32 "v_subrev_nc_u32" [B32 B32 B32 N] NONE;
        0x2b V_FMAC_F32 "v_fmac_f32" [F32 F32 F32 N] NONE;
        0x2c V_FMAMK_F32 "v_fmamk_f32" [F32 F32 F32 F32] LIT_K;
        0x2d V_FMAAK_F32 "v_fmaak_f32" [F32 F32 F32 F32] LIT_K;
    }
    Vop1 vop1_ops {
        0x00 V_NOP "v_nop" [N N N N] NONE;
        0x01 V_MOV_B32 "v_mov_b32" [B32 B32 N N] NONE;
        0x02 V_READFIRSTLANE_B32 "v_readfirstlane_b32" [B32 B32 N N] NONE;
        0x05 V_CVT_F32_I32 "v_cvt_f32_i32" [F32 B32 N N] NONE;
        0x06 V_CVT_F32_U32 "v_cvt_f32_u32" [F32 B32 N N] NONE;
        0x07 V_CVT_U32_F32 "v_cvt_u32_f32" [B32 F32 N N] NONE;
        0x08 V_CVT_I32_F32 "v_cvt_i32_f32" [B32 F32 N N] NONE;
        0x20 V_FRACT_F32 "v_fract_f32" [F32 F32 N N] NONE;
        0x21 V_TRUNC_F32 "v_trunc_f32" [F32 F32 N N] NONE;
        0x22 V_CEIL_F32 "v_ceil_f32" [F32 F32 N N] NONE;
        0x23 V_RNDNE_F32 "v_rndne_f32" [F32 F32 N N] NONE;
        0x24 V_FLOOR_F32 "v_floor_f32" [F32 F32 N N] NONE;
        0x25 V_EXP_F32 "v_exp_f32" [F32 F32 N N] NONE;
        0x27 V_LOG_F32 "v_log_f32" [F32 F32 N N] NONE;
        0x2a V_RCP_F32 "v_rcp_f32" [F32 F32 N N] NONE;
        0x2b V_RCP_IFLAG_F32 "v_rcp_iflag_f32" [F32 F32 N N] NONE;
        0x2e V_RSQ_F32 "v_rsq_f32" [F32 F32 N N] NONE;
        0x33 V_SQRT_F32 "v_sqrt_f32" [F32 F32 N N] NONE;
        0x37 V_NOT_B32 "v_not_b32" [B32 B32 N N] NONE;
        0x38 V_BFREV_B32 "v_bfrev_b32" [B32 B32 N N] NONE;
        0x39 V_CLZ_I32_U32 "v_clz_i32_u32" [B32 B32 N N] NONE;
        0x3a V_CTZ_I32_B32 "v_ctz_i32_b32" [B32 B32 N N] NONE;
    }
    Vopc vopc_ops {
        0x11 V_CMP_LT_F32 "v_cmp_lt_f32" [Mask F32 F32 N] NONE;
        0x12 V_CMP_EQ_F32 "v_cmp_eq_f32" [Mask F32 F32 N] NONE;
        0x13 V_CMP_LE_F32 "v_cmp_le_f32" [Mask F32 F32 N] NONE;
        0x14 V_CMP_GT_F32 "v_cmp_gt_f32" [Mask F32 F32 N] NONE;
        0x15 V_CMP_LG_F32 "v_cmp_lg_f32" [Mask F32 F32 N] NONE;
        0x16 V_CMP_GE_F32 "v_cmp_ge_f32" [Mask F32 F32 N] NONE;
        0x17 V_CMP_O_F32 "v_cmp_o_f32" [Mask F32 F32 N] NONE;
        0x18 V_CMP_U_F32 "v_cmp_u_f32" [Mask F32 F32 N] NONE;
        0x19 V_CMP_NGE_F32 "v_cmp_nge_f32" [Mask F32 F32 N] NONE;
        0x1a V_CMP_NLG_F32 "v_cmp_nlg_f32" [Mask F32 F32 N] NONE;
        0x1b V_CMP_NGT_F32 "v_cmp_ngt_f32" [Mask F32 F32 N] NONE;
        0x1c V_CMP_NLE_F32 "v_cmp_nle_f32" [Mask F32 F32 N] NONE;
        0x1d V_CMP_NEQ_F32 "v_cmp_neq_f32" [Mask F32 F32 N] NONE;
        0x1e V_CMP_NLT_F32 "v_cmp_nlt_f32" [Mask F32 F32 N] NONE;
        0x41 V_CMP_LT_I32 "v_cmp_lt_i32" [Mask B32 B32 N] NONE;
        0x42 V_CMP_EQ_I32 "v_cmp_eq_i32" [Mask B32 B32 N] NONE;
        0x43 V_CMP_LE_I32 "v_cmp_le_i32" [Mask B32 B32 N] NONE;
        0x44 V_CMP_GT_I32 "v_cmp_gt_i32" [Mask B32 B32 N] NONE;
        0x45 V_CMP_NE_I32 "v_cmp_ne_i32" [Mask B32 B32 N] NONE;
        0x46 V_CMP_GE_I32 "v_cmp_ge_i32" [Mask B32 B32 N] NONE;
        0x49 V_CMP_LT_U32 "v_cmp_lt_u32" [Mask B32 B32 N] NONE;
        0x4a V_CMP_EQ_U32 "v_cmp_eq_u32" [Mask B32 B32 N] NONE;
        0x4b V_CMP_LE_U32 "v_cmp_le_u32" [Mask B32 B32 N] NONE;
        0x4c V_CMP_GT_U32 "v_cmp_gt_u32" [Mask B32 B32 N] NONE;
        0x4d V_CMP_NE_U32 "v_cmp_ne_u32" [Mask B32 B32 N] NONE;
        0x4e V_CMP_GE_U32 "v_cmp_ge_u32" [Mask B32 B32 N] NONE;
        0x91 V_CMPX_LT_F32 "v_cmpx_lt_f32" [N F32 F32 N] CMPX;
        0x92 V_CMPX_EQ_F32 "v_cmpx_eq_f32" [N F32 F32 N] CMPX;
        0x93 V_CMPX_LE_F32 "v_cmpx_le_f32" [N F32 F32 N] CMPX;
        0x94 V_CMPX_GT_F32 "v_cmpx_gt_f32" [N F32 F32 N] CMPX;
        0x95 V_CMPX_LG_F32 "v_cmpx_lg_f32" [N F32 F32 N] CMPX;
        0x96 V_CMPX_GE_F32 "v_cmpx_ge_f32" [N F32 F32 N] CMPX;
        0x97 V_CMPX_O_F32 "v_cmpx_o_f32" [N F32 F32 N] CMPX;
        0x98 V_CMPX_U_F32 "v_cmpx_u_f32" [N F32 F32 N] CMPX;
        0x99 V_CMPX_NGE_F32 "v_cmpx_nge_f32" [N F32 F32 N] CMPX;
        0x9a V_CMPX_NLG_F32 "v_cmpx_nlg_f32" [N F32 F32 N] CMPX;
        0x9b V_CMPX_NGT_F32 "v_cmpx_ngt_f32" [N F32 F32 N] CMPX;
        0x9c V_CMPX_NLE_F32 "v_cmpx_nle_f32" [N F32 F32 N] CMPX;
        0x9d V_CMPX_NEQ_F32 "v_cmpx_neq_f32" [N F32 F32 N] CMPX;
        0x9e V_CMPX_NLT_F32 "v_cmpx_nlt_f32" [N F32 F32 N] CMPX;
        0xc1 V_CMPX_LT_I32 "v_cmpx_lt_i32" [N B32 B32 N] CMPX;
        0xc2 V_CMPX_EQ_I32 "v_cmpx_eq_i32" [N B32 B32 N] CMPX;
        0xc3 V_CMPX_LE_I32 "v_cmpx_le_i32" [N B32 B32 N] CMPX;
        0xc4 V_CMPX_GT_I32 "v_cmpx_gt_i32" [N B32 B32 N] CMPX;
        0xc5 V_CMPX_NE_I32 "v_cmpx_ne_i32" [N B32 B32 N] CMPX;
        0xc6 V_CMPX_GE_I32 "v_cmpx_ge_i32" [N B32 B32 N] CMPX;
        0xc9 V_CMPX_LT_U32 "v_cmpx_lt_u32" [N B32 B32 N] CMPX;
        0xca V_CMPX_EQ_U32 "v_cmpx_eq_u32" [N B32 B32 N] CMPX;
        0xcb V_CMPX_LE_U32 "v_cmpx_le_u32" [N B32 B32 N] CMPX;
        0xcc V_CMPX_GT_U32 "v_cmpx_gt_u32" [N B32 B32 N] CMPX;
        0xcd V_CMPX_NE_U32 "v_cmpx_ne_u32" [N B32 B32 N] CMPX;
        0xce V_CMPX_GE_U32 "v_cmpx_ge_u32" [N B32 B32 N] CMPX;
    }
    Vop3 vop3_ops {
        0x20a V_MAD_I32_I24 "v_mad_i32_i24" [B32 B32 B32 B32] NONE;
        0x20b V_MAD_U32_U24 "v_mad_u32_u24" [B32 B32 B32 B32] NONE;
        0x210 V_BFE_U32 "v_bfe_u32" [B32 B32 B32 B32] NONE;
        0x211 V_BFE_I32 "v_bfe_i32" [B32 B32 B32 B32] NONE;
        0x212 V_BFI_B32 "v_bfi_b32" [B32 B32 B32 B32] NONE;
        0x213 V_FMA_F32 "v_fma_f32" [F32 F32 F32 F32] NONE;
        0x216 V_ALIGNBIT_B32 "v_alignbit_b32" [B32 B32 B32 B32] NONE;
        0x217 V_ALIGNBYTE_B32 "v_alignbyte_b32" [B32 B32 B32 B32] NONE;
        0x219 V_MIN3_F32 "v_min3_f32" [F32 F32 F32 F32] NONE;
        0x21a V_MIN3_I32 "v_min3_i32" [B32 B32 B32 B32] NONE;
        0x21b V_MIN3_U32 "v_min3_u32" [B32 B32 B32 B32] NONE;
        0x21c V_MAX3_F32 "v_max3_f32" [F32 F32 F32 F32] NONE;
        0x21d V_MAX3_I32 "v_max3_i32" [B32 B32 B32 B32] NONE;
        0x21e V_MAX3_U32 "v_max3_u32" [B32 B32 B32 B32] NONE;
        0x220 V_MED3_I32 "v_med3_i32" [B32 B32 B32 B32] NONE;
        0x221 V_MED3_U32 "v_med3_u32" [B32 B32 B32 B32] NONE;
        0x240 V_XOR3_B32 "v_xor3_b32" [B32 B32 B32 B32] NONE;
        0x244 V_PERM_B32 "v_perm_b32" [B32 B32 B32 B32] NONE;
        0x245 V_XAD_U32 "v_xad_u32" [B32 B32 B32 B32] NONE;
        0x246 V_LSHL_ADD_U32 "v_lshl_add_u32" [B32 B32 B32 B32] NONE;
        0x247 V_ADD_LSHL_U32 "v_add_lshl_u32" [B32 B32 B32 B32] NONE;
        0x255 V_ADD3_U32 "v_add3_u32" [B32 B32 B32 B32] NONE;
        0x256 V_LSHL_OR_B32 "v_lshl_or_b32" [B32 B32 B32 B32] NONE;
        0x257 V_AND_OR_B32 "v_and_or_b32" [B32 B32 B32 B32] NONE;
        0x258 V_OR3_B32 "v_or3_b32" [B32 B32 B32 B32] NONE;
        0x2fe V_MAD_U64_U32 "v_mad_u64_u32" [B64 B32 B32 B64] SD;
        0x2ff V_MAD_I64_I32 "v_mad_i64_i32" [B64 B32 B32 B64] SD;
        0x300 V_ADD_CO_U32 "v_add_co_u32" [B32 B32 B32 N] SD;
        0x301 V_SUB_CO_U32 "v_sub_co_u32" [B32 B32 B32 N] SD;
        0x302 V_SUBREV_CO_U32 "v_subrev_co_u32" [B32 B32 B32 N] SD;
        0x31c V_LDEXP_F32 "v_ldexp_f32" [F32 F32 B32 N] NONE;
        0x31d V_BFM_B32 "v_bfm_b32" [B32 B32 B32 N] NONE;
        0x31e V_BCNT_U32_B32 "v_bcnt_u32_b32" [B32 B32 B32 N] NONE;
        0x31f V_MBCNT_LO_U32_B32 "v_mbcnt_lo_u32_b32" [B32 B32 B32 N] NONE;
        0x320 V_MBCNT_HI_U32_B32 "v_mbcnt_hi_u32_b32" [B32 B32 B32 N] NONE;
        0x32c V_MUL_LO_U32 "v_mul_lo_u32" [B32 B32 B32 N] NONE;
        0x32d V_MUL_HI_U32 "v_mul_hi_u32" [B32 B32 B32 N] NONE;
        0x32e V_MUL_HI_I32 "v_mul_hi_i32" [B32 B32 B32 N] NONE;
        0x33c V_LSHLREV_B64 "v_lshlrev_b64" [B64 B32 B64 N] NONE;
        0x33d V_LSHRREV_B64 "v_lshrrev_b64" [B64 B32 B64 N] NONE;
        0x33e V_ASHRREV_I64 "v_ashrrev_i64" [B64 B32 B64 N] NONE;
        0x360 V_READLANE_B32 "v_readlane_b32" [B32 B32 B32 N] NONE;
        0x361 V_WRITELANE_B32 "v_writelane_b32" [B32 B32 B32 N] NONE;
    }
    Ds ds_ops {
        0x00 DS_ADD_U32 "ds_add_u32" [B32 N N N] NONE;
        0x01 DS_SUB_U32 "ds_sub_u32" [B32 N N N] NONE;
        0x05 DS_MIN_I32 "ds_min_i32" [B32 N N N] NONE;
        0x06 DS_MAX_I32 "ds_max_i32" [B32 N N N] NONE;
        0x07 DS_MIN_U32 "ds_min_u32" [B32 N N N] NONE;
        0x08 DS_MAX_U32 "ds_max_u32" [B32 N N N] NONE;
        0x09 DS_AND_B32 "ds_and_b32" [B32 N N N] NONE;
        0x0a DS_OR_B32 "ds_or_b32" [B32 N N N] NONE;
        0x0b DS_XOR_B32 "ds_xor_b32" [B32 N N N] NONE;
        0x0d DS_STORE_B32 "ds_store_b32" [B32 N N N] NONE;
        0x0e DS_STORE_2ADDR_B32 "ds_store_2addr_b32" [B32 N N N] NONE;
        0x0f DS_STORE_2ADDR_STRIDE64_B32 "ds_store_2addr_stride64_b32" [B32 N N N] NONE;
        0x1e DS_STORE_B8 "ds_store_b8" [B32 N N N] NONE;
        0x1f DS_STORE_B16 "ds_store_b16" [B32 N N N] NONE;
        0x20 DS_ADD_RTN_U32 "ds_add_rtn_u32" [B32 N N N] NONE;
        0x36 DS_LOAD_B32 "ds_load_b32" [B32 N N N] NONE;
        0x37 DS_LOAD_2ADDR_B32 "ds_load_2addr_b32" [B32 N N N] NONE;
        0x38 DS_LOAD_2ADDR_STRIDE64_B32 "ds_load_2addr_stride64_b32" [B32 N N N] NONE;
        0x3a DS_LOAD_U8 "ds_load_u8" [B32 N N N] NONE;
        0x3c DS_LOAD_U16 "ds_load_u16" [B32 N N N] NONE;
        0x4d DS_STORE_B64 "ds_store_b64" [B64 N N N] NONE;
        0x4e DS_STORE_2ADDR_B64 "ds_store_2addr_b64" [B64 N N N] NONE;
        0x76 DS_LOAD_B64 "ds_load_b64" [B64 N N N] NONE;
        0x77 DS_LOAD_2ADDR_B64 "ds_load_2addr_b64" [B64 N N N] NONE;
        0xdf DS_STORE_B128 "ds_store_b128" [B128 N N N] NONE;
        0xff DS_LOAD_B128 "ds_load_b128" [B128 N N N] NONE;
    }
    Mubuf mubuf_ops {
        0x10 BUFFER_LOAD_U8 "buffer_load_u8" [B32 N N N] NONE;
        0x11 BUFFER_LOAD_I8 "buffer_load_i8" [B32 N N N] NONE;
        0x12 BUFFER_LOAD_U16 "buffer_load_u16" [B32 N N N] NONE;
        0x13 BUFFER_LOAD_I16 "buffer_load_i16" [B32 N N N] NONE;
        0x14 BUFFER_LOAD_B32 "buffer_load_b32" [B32 N N N] NONE;
        0x15 BUFFER_LOAD_B64 "buffer_load_b64" [B64 N N N] NONE;
        0x16 BUFFER_LOAD_B96 "buffer_load_b96" [B96 N N N] NONE;
        0x17 BUFFER_LOAD_B128 "buffer_load_b128" [B128 N N N] NONE;
        0x18 BUFFER_STORE_B8 "buffer_store_b8" [B32 N N N] NONE;
        0x19 BUFFER_STORE_B16 "buffer_store_b16" [B32 N N N] NONE;
        0x1a BUFFER_STORE_B32 "buffer_store_b32" [B32 N N N] NONE;
        0x1b BUFFER_STORE_B64 "buffer_store_b64" [B64 N N N] NONE;
        0x1c BUFFER_STORE_B96 "buffer_store_b96" [B96 N N N] NONE;
        0x1d BUFFER_STORE_B128 "buffer_store_b128" [B128 N N N] NONE;
        0x2b BUFFER_GL0_INV "buffer_gl0_inv" [N N N N] NONE;
        0x2c BUFFER_GL1_INV "buffer_gl1_inv" [N N N N] NONE;
    }
    Global global_ops {
        0x10 GLOBAL_LOAD_U8 "global_load_u8" [B32 N N N] NONE;
        0x11 GLOBAL_LOAD_I8 "global_load_i8" [B32 N N N] NONE;
        0x12 GLOBAL_LOAD_U16 "global_load_u16" [B32 N N N] NONE;
        0x13 GLOBAL_LOAD_I16 "global_load_i16" [B32 N N N] NONE;
        0x14 GLOBAL_LOAD_B32 "global_load_b32" [B32 N N N] NONE;
        0x15 GLOBAL_LOAD_B64 "global_load_b64" [B64 N N N] NONE;
        0x16 GLOBAL_LOAD_B96 "global_load_b96" [B96 N N N] NONE;
        0x17 GLOBAL_LOAD_B128 "global_load_b128" [B128 N N N] NONE;
        0x18 GLOBAL_STORE_B8 "global_store_b8" [B32 N N N] NONE;
        0x19 GLOBAL_STORE_B16 "global_store_b16" [B32 N N N] NONE;
        0x1a GLOBAL_STORE_B32 "global_store_b32" [B32 N N N] NONE;
        0x1b GLOBAL_STORE_B64 "global_store_b64" [B64 N N N] NONE;
        0x1c GLOBAL_STORE_B96 "global_store_b96" [B96 N N N] NONE;
        0x1d GLOBAL_STORE_B128 "global_store_b128" [B128 N N N] NONE;
        0x33 GLOBAL_ATOMIC_SWAP_B32 "global_atomic_swap_b32" [B32 B32 N N] ATOMIC;
        0x34 GLOBAL_ATOMIC_CMPSWAP_B32 "global_atomic_cmpswap_b32" [B32 B64 N N] ATOMIC;
        0x35 GLOBAL_ATOMIC_ADD_U32 "global_atomic_add_u32" [B32 B32 N N] ATOMIC;
        0x36 GLOBAL_ATOMIC_SUB_U32 "global_atomic_sub_u32" [B32 B32 N N] ATOMIC;
        0x37 GLOBAL_ATOMIC_CSUB_U32 "global_atomic_csub_u32" [B32 B32 N N] ATOMIC;
        0x38 GLOBAL_ATOMIC_MIN_I32 "global_atomic_min_i32" [B32 B32 N N] ATOMIC;
        0x39 GLOBAL_ATOMIC_MIN_U32 "global_atomic_min_u32" [B32 B32 N N] ATOMIC;
        0x3a GLOBAL_ATOMIC_MAX_I32 "global_atomic_max_i32" [B32 B32 N N] ATOMIC;
        0x3b GLOBAL_ATOMIC_MAX_U32 "global_atomic_max_u32" [B32 B32 N N] ATOMIC;
        0x3c GLOBAL_ATOMIC_AND_B32 "global_atomic_and_b32" [B32 B32 N N] ATOMIC;
        0x3d GLOBAL_ATOMIC_OR_B32 "global_atomic_or_b32" [B32 B32 N N] ATOMIC;
        0x3e GLOBAL_ATOMIC_XOR_B32 "global_atomic_xor_b32" [B32 B32 N N] ATOMIC;
        0x3f GLOBAL_ATOMIC_INC_U32 "global_atomic_inc_u32" [B32 B32 N N] ATOMIC;
        0x40 GLOBAL_ATOMIC_DEC_U32 "global_atomic_dec_u32" [B32 B32 N N] ATOMIC;
        0x41 GLOBAL_ATOMIC_SWAP_B64 "global_atomic_swap_b64" [B64 B64 N N] ATOMIC;
        0x42 GLOBAL_ATOMIC_CMPSWAP_B64 "global_atomic_cmpswap_b64" [B64 B128 N N] ATOMIC;
        0x43 GLOBAL_ATOMIC_ADD_U64 "global_atomic_add_u64" [B64 B64 N N] ATOMIC;
        0x44 GLOBAL_ATOMIC_SUB_U64 "global_atomic_sub_u64" [B64 B64 N N] ATOMIC;
        0x45 GLOBAL_ATOMIC_MIN_I64 "global_atomic_min_i64" [B64 B64 N N] ATOMIC;
        0x46 GLOBAL_ATOMIC_MIN_U64 "global_atomic_min_u64" [B64 B64 N N] ATOMIC;
        0x47 GLOBAL_ATOMIC_MAX_I64 "global_atomic_max_i64" [B64 B64 N N] ATOMIC;
        0x48 GLOBAL_ATOMIC_MAX_U64 "global_atomic_max_u64" [B64 B64 N N] ATOMIC;
        0x49 GLOBAL_ATOMIC_AND_B64 "global_atomic_and_b64" [B64 B64 N N] ATOMIC;
        0x4a GLOBAL_ATOMIC_OR_B64 "global_atomic_or_b64" [B64 B64 N N] ATOMIC;
        0x4b GLOBAL_ATOMIC_XOR_B64 "global_atomic_xor_b64" [B64 B64 N N] ATOMIC;
        0x4c GLOBAL_ATOMIC_INC_U64 "global_atomic_inc_u64" [B64 B64 N N] ATOMIC;
        0x4d GLOBAL_ATOMIC_DEC_U64 "global_atomic_dec_u64" [B64 B64 N N] ATOMIC;
        0x50 GLOBAL_ATOMIC_CMPSWAP_F32 "global_atomic_cmpswap_f32" [F32 B64 N N] ATOMIC;
        0x51 GLOBAL_ATOMIC_MIN_F32 "global_atomic_min_f32" [F32 F32 N N] ATOMIC;
        0x52 GLOBAL_ATOMIC_MAX_F32 "global_atomic_max_f32" [F32 F32 N N] ATOMIC;
        0x56 GLOBAL_ATOMIC_ADD_F32 "global_atomic_add_f32" [F32 F32 N N] ATOMIC;
    }
    Scratch scratch_ops {
        0x10 SCRATCH_LOAD_U8 "scratch_load_u8" [B32 N N N] NONE;
        0x11 SCRATCH_LOAD_I8 "scratch_load_i8" [B32 N N N] NONE;
        0x12 SCRATCH_LOAD_U16 "scratch_load_u16" [B32 N N N] NONE;
        0x13 SCRATCH_LOAD_I16 "scratch_load_i16" [B32 N N N] NONE;
        0x14 SCRATCH_LOAD_B32 "scratch_load_b32" [B32 N N N] NONE;
        0x15 SCRATCH_LOAD_B64 "scratch_load_b64" [B64 N N N] NONE;
        0x16 SCRATCH_LOAD_B96 "scratch_load_b96" [B96 N N N] NONE;
        0x17 SCRATCH_LOAD_B128 "scratch_load_b128" [B128 N N N] NONE;
        0x18 SCRATCH_STORE_B8 "scratch_store_b8" [B32 N N N] NONE;
        0x19 SCRATCH_STORE_B16 "scratch_store_b16" [B32 N N N] NONE;
        0x1a SCRATCH_STORE_B32 "scratch_store_b32" [B32 N N N] NONE;
        0x1b SCRATCH_STORE_B64 "scratch_store_b64" [B64 N N N] NONE;
        0x1c SCRATCH_STORE_B96 "scratch_store_b96" [B96 N N N] NONE;
        0x1d SCRATCH_STORE_B128 "scratch_store_b128" [B128 N N N] NONE;
    }
    Vopd vopd_ops {
        0x00 V_DUAL "v_dual" [N N N N] NONE;
    }
}

/// VOPD component opcodes (opX 0–13, opY 0–18) and the VOP1/VOP2 opcode each is.
/// `None`: a code LLVM 19 does not know, or a dot product softnavi does not execute yet.
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
    None, // v_dual_dot2acc_f32_f16
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

    pub fn has_flag(self, flag: u8) -> bool {
        self.info().flags & flag != 0
    }
}

/// Per-encoding code → opcode maps, built once from [`OPS`].
struct Lookup {
    tables: Vec<(Encoding, Vec<Option<Op>>)>,
}

fn code_space(enc: Encoding) -> usize {
    match enc {
        Encoding::Sop2 | Encoding::Sopc | Encoding::Sopp | Encoding::Vop3p => 128,
        Encoding::Sopk => 32,
        Encoding::Vop2 => 64,
        Encoding::Vop3 => 1024,
        Encoding::Flat | Encoding::Global | Encoding::Scratch => 128,
        Encoding::Vopd => 1,
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
}
