// Every opcode of gpu::isa::table::OPS in typical forms, for the differential test in
// disasm.rs: llvm-mc-19 assembles this file (wave32), llvm-objdump-19 disassembles it, and
// softnavi's decoder and disassembler must agree with LLVM on every line. Sections: one or
// more forms per table row (SOP2, SOPK, SOP1, SOPC, SMEM, VOP2, VOP1, VOPC, VOP3, MUBUF,
// GLOBAL, SCRATCH), then SOPP, DS, VOPD and operand variety (special registers, inline
// constants, literals, modifiers, offsets, cache bits).
// Branch targets are numbers, not labels: objdump prints a label name for a target that
// starts a symbol.
s_add_u32 s4, s8, s12
s_add_u32 s20, -5, 0x1234
s_sub_u32 s4, s8, s12
s_sub_u32 s20, -5, 0x1234
s_add_i32 s4, s8, s12
s_add_i32 s20, -5, 0x1234
s_sub_i32 s4, s8, s12
s_sub_i32 s20, -5, 0x1234
s_addc_u32 s4, s8, s12
s_addc_u32 s20, -5, 0x1234
s_subb_u32 s4, s8, s12
s_subb_u32 s20, -5, 0x1234
s_absdiff_i32 s4, s8, s12
s_absdiff_i32 s20, -5, 0x1234
s_lshl_b32 s4, s8, s12
s_lshl_b32 s20, -5, 0x1234
s_lshl_b64 s[4:5], s[8:9], s12
s_lshl_b64 s[20:21], 7, 0x1234
s_lshr_b32 s4, s8, s12
s_lshr_b32 s20, -5, 0x1234
s_lshr_b64 s[4:5], s[8:9], s12
s_lshr_b64 s[20:21], 7, 0x1234
s_ashr_i32 s4, s8, s12
s_ashr_i32 s20, -5, 0x1234
s_ashr_i64 s[4:5], s[8:9], s12
s_ashr_i64 s[20:21], 7, 0x1234
s_lshl1_add_u32 s4, s8, s12
s_lshl1_add_u32 s20, -5, 0x1234
s_lshl2_add_u32 s4, s8, s12
s_lshl2_add_u32 s20, -5, 0x1234
s_lshl3_add_u32 s4, s8, s12
s_lshl3_add_u32 s20, -5, 0x1234
s_lshl4_add_u32 s4, s8, s12
s_lshl4_add_u32 s20, -5, 0x1234
s_min_i32 s4, s8, s12
s_min_i32 s20, -5, 0x1234
s_min_u32 s4, s8, s12
s_min_u32 s20, -5, 0x1234
s_max_i32 s4, s8, s12
s_max_i32 s20, -5, 0x1234
s_max_u32 s4, s8, s12
s_max_u32 s20, -5, 0x1234
s_and_b32 s4, s8, s12
s_and_b32 s20, -5, 0x1234
s_and_b64 s[4:5], s[8:9], s[12:13]
s_and_b64 s[20:21], 7, s[12:13]
s_or_b32 s4, s8, s12
s_or_b32 s20, -5, 0x1234
s_or_b64 s[4:5], s[8:9], s[12:13]
s_or_b64 s[20:21], 7, s[12:13]
s_xor_b32 s4, s8, s12
s_xor_b32 s20, -5, 0x1234
s_xor_b64 s[4:5], s[8:9], s[12:13]
s_xor_b64 s[20:21], 7, s[12:13]
s_nand_b32 s4, s8, s12
s_nand_b32 s20, -5, 0x1234
s_nand_b64 s[4:5], s[8:9], s[12:13]
s_nand_b64 s[20:21], 7, s[12:13]
s_nor_b32 s4, s8, s12
s_nor_b32 s20, -5, 0x1234
s_nor_b64 s[4:5], s[8:9], s[12:13]
s_nor_b64 s[20:21], 7, s[12:13]
s_xnor_b32 s4, s8, s12
s_xnor_b32 s20, -5, 0x1234
s_xnor_b64 s[4:5], s[8:9], s[12:13]
s_xnor_b64 s[20:21], 7, s[12:13]
s_and_not1_b32 s4, s8, s12
s_and_not1_b32 s20, -5, 0x1234
s_and_not1_b64 s[4:5], s[8:9], s[12:13]
s_and_not1_b64 s[20:21], 7, s[12:13]
s_or_not1_b32 s4, s8, s12
s_or_not1_b32 s20, -5, 0x1234
s_or_not1_b64 s[4:5], s[8:9], s[12:13]
s_or_not1_b64 s[20:21], 7, s[12:13]
s_bfe_u32 s4, s8, s12
s_bfe_u32 s20, -5, 0x1234
s_bfe_i32 s4, s8, s12
s_bfe_i32 s20, -5, 0x1234
s_bfe_u64 s[4:5], s[8:9], s12
s_bfe_u64 s[20:21], 7, 0x1234
s_bfe_i64 s[4:5], s[8:9], s12
s_bfe_i64 s[20:21], 7, 0x1234
s_bfm_b32 s4, s8, s12
s_bfm_b32 s20, -5, 0x1234
s_bfm_b64 s[4:5], s8, s12
s_bfm_b64 s[20:21], -5, 0x1234
s_mul_i32 s4, s8, s12
s_mul_i32 s20, -5, 0x1234
s_mul_hi_u32 s4, s8, s12
s_mul_hi_u32 s20, -5, 0x1234
s_mul_hi_i32 s4, s8, s12
s_mul_hi_i32 s20, -5, 0x1234
s_cselect_b32 s4, s8, s12
s_cselect_b32 s20, -5, 0x1234
s_cselect_b64 s[4:5], s[8:9], s[12:13]
s_cselect_b64 s[20:21], 7, s[12:13]
s_pack_ll_b32_b16 s4, s8, s12
s_pack_ll_b32_b16 s20, -5, 0x1234
s_pack_lh_b32_b16 s4, s8, s12
s_pack_lh_b32_b16 s20, -5, 0x1234
s_pack_hh_b32_b16 s4, s8, s12
s_pack_hh_b32_b16 s20, -5, 0x1234
s_pack_hl_b32_b16 s4, s8, s12
s_pack_hl_b32_b16 s20, -5, 0x1234
s_movk_i32 s4, 0x1234
s_version 0x1234
s_cmovk_i32 s4, 0x1234
s_cmpk_eq_i32 s4, 0x1234
s_cmpk_lg_i32 s4, 0x1234
s_cmpk_gt_i32 s4, 0x1234
s_cmpk_ge_i32 s4, 0x1234
s_cmpk_lt_i32 s4, 0x1234
s_cmpk_le_i32 s4, 0x1234
s_cmpk_eq_u32 s4, 0x1234
s_cmpk_lg_u32 s4, 0x1234
s_cmpk_gt_u32 s4, 0x1234
s_cmpk_ge_u32 s4, 0x1234
s_cmpk_lt_u32 s4, 0x1234
s_cmpk_le_u32 s4, 0x1234
s_addk_i32 s4, 0x1234
s_mulk_i32 s4, 0x1234
s_waitcnt_vscnt null, 0x12
s_waitcnt_vmcnt null, 0x12
s_waitcnt_expcnt null, 0x12
s_waitcnt_lgkmcnt null, 0x12
s_mov_b32 s4, s8
s_mov_b32 s6, 0x11223344
s_mov_b64 s[4:5], s[8:9]
s_mov_b64 s[6:7], 0x11223344
s_cmov_b32 s4, s8
s_cmov_b32 s6, 0x11223344
s_cmov_b64 s[4:5], s[8:9]
s_cmov_b64 s[6:7], 0x11223344
s_brev_b32 s4, s8
s_brev_b32 s6, 0x11223344
s_brev_b64 s[4:5], s[8:9]
s_brev_b64 s[6:7], 0x11223344
s_ctz_i32_b32 s4, s8
s_ctz_i32_b32 s6, 0x11223344
s_ctz_i32_b64 s4, s[8:9]
s_ctz_i32_b64 s6, 0x11223344
s_clz_i32_u32 s4, s8
s_clz_i32_u32 s6, 0x11223344
s_clz_i32_u64 s4, s[8:9]
s_clz_i32_u64 s6, 0x11223344
s_sext_i32_i8 s4, s8
s_sext_i32_i8 s6, 0x11223344
s_sext_i32_i16 s4, s8
s_sext_i32_i16 s6, 0x11223344
s_bitset0_b32 s4, s8
s_bitset0_b32 s6, 0x11223344
s_bitset0_b64 s[4:5], s8
s_bitset0_b64 s[6:7], 0x11223344
s_bitset1_b32 s4, s8
s_bitset1_b32 s6, 0x11223344
s_bitset1_b64 s[4:5], s8
s_bitset1_b64 s[6:7], 0x11223344
s_abs_i32 s4, s8
s_abs_i32 s6, 0x11223344
s_bcnt0_i32_b32 s4, s8
s_bcnt0_i32_b32 s6, 0x11223344
s_bcnt0_i32_b64 s4, s[8:9]
s_bcnt0_i32_b64 s6, 0x11223344
s_bcnt1_i32_b32 s4, s8
s_bcnt1_i32_b32 s6, 0x11223344
s_bcnt1_i32_b64 s4, s[8:9]
s_bcnt1_i32_b64 s6, 0x11223344
s_not_b32 s4, s8
s_not_b32 s6, 0x11223344
s_not_b64 s[4:5], s[8:9]
s_not_b64 s[6:7], 0x11223344
s_and_saveexec_b32 s4, s8
s_and_saveexec_b32 s6, 0x11223344
s_and_saveexec_b64 s[4:5], s[8:9]
s_and_saveexec_b64 s[6:7], 0x11223344
s_or_saveexec_b32 s4, s8
s_or_saveexec_b32 s6, 0x11223344
s_or_saveexec_b64 s[4:5], s[8:9]
s_or_saveexec_b64 s[6:7], 0x11223344
s_xor_saveexec_b32 s4, s8
s_xor_saveexec_b32 s6, 0x11223344
s_xor_saveexec_b64 s[4:5], s[8:9]
s_xor_saveexec_b64 s[6:7], 0x11223344
s_and_not0_saveexec_b32 s4, s8
s_and_not0_saveexec_b32 s6, 0x11223344
s_and_not0_saveexec_b64 s[4:5], s[8:9]
s_and_not0_saveexec_b64 s[6:7], 0x11223344
s_or_not0_saveexec_b32 s4, s8
s_or_not0_saveexec_b32 s6, 0x11223344
s_or_not0_saveexec_b64 s[4:5], s[8:9]
s_or_not0_saveexec_b64 s[6:7], 0x11223344
s_and_not1_saveexec_b32 s4, s8
s_and_not1_saveexec_b32 s6, 0x11223344
s_and_not1_saveexec_b64 s[4:5], s[8:9]
s_and_not1_saveexec_b64 s[6:7], 0x11223344
s_or_not1_saveexec_b32 s4, s8
s_or_not1_saveexec_b32 s6, 0x11223344
s_or_not1_saveexec_b64 s[4:5], s[8:9]
s_or_not1_saveexec_b64 s[6:7], 0x11223344
s_getpc_b64 s[4:5]
s_setpc_b64 s[8:9]
s_swappc_b64 s[4:5], s[8:9]
s_swappc_b64 s[6:7], 0x11223344
s_cmp_eq_i32 s4, s8
s_cmp_eq_i32 s4, 0xabcd
s_cmp_lg_i32 s4, s8
s_cmp_lg_i32 s4, 0xabcd
s_cmp_gt_i32 s4, s8
s_cmp_gt_i32 s4, 0xabcd
s_cmp_ge_i32 s4, s8
s_cmp_ge_i32 s4, 0xabcd
s_cmp_lt_i32 s4, s8
s_cmp_lt_i32 s4, 0xabcd
s_cmp_le_i32 s4, s8
s_cmp_le_i32 s4, 0xabcd
s_cmp_eq_u32 s4, s8
s_cmp_eq_u32 s4, 0xabcd
s_cmp_lg_u32 s4, s8
s_cmp_lg_u32 s4, 0xabcd
s_cmp_gt_u32 s4, s8
s_cmp_gt_u32 s4, 0xabcd
s_cmp_ge_u32 s4, s8
s_cmp_ge_u32 s4, 0xabcd
s_cmp_lt_u32 s4, s8
s_cmp_lt_u32 s4, 0xabcd
s_cmp_le_u32 s4, s8
s_cmp_le_u32 s4, 0xabcd
s_bitcmp0_b32 s4, s8
s_bitcmp0_b32 s4, 0xabcd
s_bitcmp1_b32 s4, s8
s_bitcmp1_b32 s4, 0xabcd
s_bitcmp0_b64 s[4:5], s8
s_bitcmp0_b64 s[4:5], 0xabcd
s_bitcmp1_b64 s[4:5], s8
s_bitcmp1_b64 s[4:5], 0xabcd
s_cmp_eq_u64 s[4:5], s[8:9]
s_cmp_eq_u64 s[4:5], 0xabcd
s_cmp_lg_u64 s[4:5], s[8:9]
s_cmp_lg_u64 s[4:5], 0xabcd
s_load_b32 s4, s[0:1], 0x10
s_load_b32 s4, s[2:3], s5 offset:0x20
s_load_b64 s[4:5], s[0:1], 0x10
s_load_b64 s[4:5], s[2:3], s5 offset:0x20
s_load_b128 s[4:7], s[0:1], 0x10
s_load_b128 s[4:7], s[2:3], s5 offset:0x20
s_load_b256 s[4:11], s[0:1], 0x10
s_load_b256 s[4:11], s[2:3], s5 offset:0x20
s_load_b512 s[4:19], s[0:1], 0x10
s_load_b512 s[4:19], s[2:3], s5 offset:0x20
s_buffer_load_b32 s4, s[8:11], 0x40
s_buffer_load_b32 s4, s[8:11], s2
s_buffer_load_b64 s[4:5], s[8:11], 0x40
s_buffer_load_b64 s[4:5], s[8:11], s2
s_buffer_load_b128 s[4:7], s[8:11], 0x40
s_buffer_load_b128 s[4:7], s[8:11], s2
s_buffer_load_b256 s[4:11], s[8:11], 0x40
s_buffer_load_b256 s[4:11], s[8:11], s2
s_buffer_load_b512 s[4:19], s[8:11], 0x40
s_buffer_load_b512 s[4:19], s[8:11], s2
s_gl1_inv
s_dcache_inv
s_atc_probe 7, s[4:5], 0x64
s_atc_probe_buffer 7, s[8:11], 0x64
v_cndmask_b32 v1, v2, v3, vcc_lo
v_cndmask_b32_e64 v1, v2, v3, s6
v_add_f32 v1, v2, v3
v_add_f32 v1, s4, v3
v_add_f32 v1, 0.5, v3
v_add_f32 v1, 0x12345, v3
v_add_f32_e64 v1, -v2, |v3| mul:2
v_sub_f32 v1, v2, v3
v_sub_f32 v1, s4, v3
v_sub_f32 v1, 0.5, v3
v_sub_f32 v1, 0x12345, v3
v_sub_f32_e64 v1, -v2, |v3| mul:2
v_subrev_f32 v1, v2, v3
v_subrev_f32 v1, s4, v3
v_subrev_f32 v1, 0.5, v3
v_subrev_f32 v1, 0x12345, v3
v_subrev_f32_e64 v1, -v2, |v3| mul:2
v_mul_dx9_zero_f32 v1, v2, v3
v_mul_dx9_zero_f32 v1, s4, v3
v_mul_dx9_zero_f32 v1, 0.5, v3
v_mul_dx9_zero_f32 v1, 0x12345, v3
v_mul_dx9_zero_f32_e64 v1, -v2, |v3| mul:2
v_mul_f32 v1, v2, v3
v_mul_f32 v1, s4, v3
v_mul_f32 v1, 0.5, v3
v_mul_f32 v1, 0x12345, v3
v_mul_f32_e64 v1, -v2, |v3| mul:2
v_mul_i32_i24 v1, v2, v3
v_mul_i32_i24 v1, s4, v3
v_mul_i32_i24 v1, -3, v3
v_mul_i32_i24 v1, 0x12345, v3
v_mul_i32_i24_e64 v1, v2, s5
v_mul_hi_i32_i24 v1, v2, v3
v_mul_hi_i32_i24 v1, s4, v3
v_mul_hi_i32_i24 v1, -3, v3
v_mul_hi_i32_i24 v1, 0x12345, v3
v_mul_hi_i32_i24_e64 v1, v2, s5
v_mul_u32_u24 v1, v2, v3
v_mul_u32_u24 v1, s4, v3
v_mul_u32_u24 v1, -3, v3
v_mul_u32_u24 v1, 0x12345, v3
v_mul_u32_u24_e64 v1, v2, s5
v_mul_hi_u32_u24 v1, v2, v3
v_mul_hi_u32_u24 v1, s4, v3
v_mul_hi_u32_u24 v1, -3, v3
v_mul_hi_u32_u24 v1, 0x12345, v3
v_mul_hi_u32_u24_e64 v1, v2, s5
v_min_f32 v1, v2, v3
v_min_f32 v1, s4, v3
v_min_f32 v1, 0.5, v3
v_min_f32 v1, 0x12345, v3
v_min_f32_e64 v1, -v2, |v3| mul:2
v_max_f32 v1, v2, v3
v_max_f32 v1, s4, v3
v_max_f32 v1, 0.5, v3
v_max_f32 v1, 0x12345, v3
v_max_f32_e64 v1, -v2, |v3| mul:2
v_min_i32 v1, v2, v3
v_min_i32 v1, s4, v3
v_min_i32 v1, -3, v3
v_min_i32 v1, 0x12345, v3
v_min_i32_e64 v1, v2, s5
v_max_i32 v1, v2, v3
v_max_i32 v1, s4, v3
v_max_i32 v1, -3, v3
v_max_i32 v1, 0x12345, v3
v_max_i32_e64 v1, v2, s5
v_min_u32 v1, v2, v3
v_min_u32 v1, s4, v3
v_min_u32 v1, -3, v3
v_min_u32 v1, 0x12345, v3
v_min_u32_e64 v1, v2, s5
v_max_u32 v1, v2, v3
v_max_u32 v1, s4, v3
v_max_u32 v1, -3, v3
v_max_u32 v1, 0x12345, v3
v_max_u32_e64 v1, v2, s5
v_lshlrev_b32 v1, v2, v3
v_lshlrev_b32 v1, s4, v3
v_lshlrev_b32 v1, -3, v3
v_lshlrev_b32 v1, 0x12345, v3
v_lshlrev_b32_e64 v1, v2, s5
v_lshrrev_b32 v1, v2, v3
v_lshrrev_b32 v1, s4, v3
v_lshrrev_b32 v1, -3, v3
v_lshrrev_b32 v1, 0x12345, v3
v_lshrrev_b32_e64 v1, v2, s5
v_ashrrev_i32 v1, v2, v3
v_ashrrev_i32 v1, s4, v3
v_ashrrev_i32 v1, -3, v3
v_ashrrev_i32 v1, 0x12345, v3
v_ashrrev_i32_e64 v1, v2, s5
v_and_b32 v1, v2, v3
v_and_b32 v1, s4, v3
v_and_b32 v1, -3, v3
v_and_b32 v1, 0x12345, v3
v_and_b32_e64 v1, v2, s5
v_or_b32 v1, v2, v3
v_or_b32 v1, s4, v3
v_or_b32 v1, -3, v3
v_or_b32 v1, 0x12345, v3
v_or_b32_e64 v1, v2, s5
v_xor_b32 v1, v2, v3
v_xor_b32 v1, s4, v3
v_xor_b32 v1, -3, v3
v_xor_b32 v1, 0x12345, v3
v_xor_b32_e64 v1, v2, s5
v_xnor_b32 v1, v2, v3
v_xnor_b32 v1, s4, v3
v_xnor_b32 v1, -3, v3
v_xnor_b32 v1, 0x12345, v3
v_xnor_b32_e64 v1, v2, s5
v_add_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo
v_add_co_ci_u32_e64 v1, s4, v2, v3, s6
v_sub_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo
v_sub_co_ci_u32_e64 v1, s4, v2, v3, s6
v_subrev_co_ci_u32 v1, vcc_lo, v2, v3, vcc_lo
v_subrev_co_ci_u32_e64 v1, s4, v2, v3, s6
v_add_nc_u32 v1, v2, v3
v_add_nc_u32 v1, s4, v3
v_add_nc_u32 v1, -3, v3
v_add_nc_u32 v1, 0x12345, v3
v_add_nc_u32_e64 v1, v2, s5
v_sub_nc_u32 v1, v2, v3
v_sub_nc_u32 v1, s4, v3
v_sub_nc_u32 v1, -3, v3
v_sub_nc_u32 v1, 0x12345, v3
v_sub_nc_u32_e64 v1, v2, s5
v_subrev_nc_u32 v1, v2, v3
v_subrev_nc_u32 v1, s4, v3
v_subrev_nc_u32 v1, -3, v3
v_subrev_nc_u32 v1, 0x12345, v3
v_subrev_nc_u32_e64 v1, v2, s5
v_fmac_f32 v1, v2, v3
v_fmac_f32 v1, s4, v3
v_fmac_f32 v1, 0.5, v3
v_fmac_f32 v1, 0x12345, v3
v_fmac_f32_e64 v1, -v2, |v3| mul:2
v_fmamk_f32 v1, v2, 0x42c80000, v3
v_fmaak_f32 v1, v2, v3, 0x42c80000
v_illegal
v_nop
v_nop_e64
v_mov_b32 v1, v2
v_mov_b32 v1, s5
v_mov_b32 v1, 0x4048f5c3
v_mov_b32_e64 v1, v2
v_readfirstlane_b32 s4, v2
v_cvt_f32_i32 v1, v2
v_cvt_f32_i32 v1, s5
v_cvt_f32_i32 v1, 0x4048f5c3
v_cvt_f32_i32_e64 v1, v2 clamp
v_cvt_f32_u32 v1, v2
v_cvt_f32_u32 v1, s5
v_cvt_f32_u32 v1, 0x4048f5c3
v_cvt_f32_u32_e64 v1, v2 clamp
v_cvt_u32_f32 v1, v2
v_cvt_u32_f32 v1, s5
v_cvt_u32_f32 v1, 0x4048f5c3
v_cvt_u32_f32_e64 v1, -|v2|
v_cvt_i32_f32 v1, v2
v_cvt_i32_f32 v1, s5
v_cvt_i32_f32 v1, 0x4048f5c3
v_cvt_i32_f32_e64 v1, -|v2|
v_fract_f32 v1, v2
v_fract_f32 v1, s5
v_fract_f32 v1, 0x4048f5c3
v_fract_f32_e64 v1, -|v2| clamp
v_trunc_f32 v1, v2
v_trunc_f32 v1, s5
v_trunc_f32 v1, 0x4048f5c3
v_trunc_f32_e64 v1, -|v2| clamp
v_ceil_f32 v1, v2
v_ceil_f32 v1, s5
v_ceil_f32 v1, 0x4048f5c3
v_ceil_f32_e64 v1, -|v2| clamp
v_rndne_f32 v1, v2
v_rndne_f32 v1, s5
v_rndne_f32 v1, 0x4048f5c3
v_rndne_f32_e64 v1, -|v2| clamp
v_floor_f32 v1, v2
v_floor_f32 v1, s5
v_floor_f32 v1, 0x4048f5c3
v_floor_f32_e64 v1, -|v2| clamp
v_exp_f32 v1, v2
v_exp_f32 v1, s5
v_exp_f32 v1, 0x4048f5c3
v_exp_f32_e64 v1, -|v2| clamp
v_log_f32 v1, v2
v_log_f32 v1, s5
v_log_f32 v1, 0x4048f5c3
v_log_f32_e64 v1, -|v2| clamp
v_rcp_f32 v1, v2
v_rcp_f32 v1, s5
v_rcp_f32 v1, 0x4048f5c3
v_rcp_f32_e64 v1, -|v2| clamp
v_rcp_iflag_f32 v1, v2
v_rcp_iflag_f32 v1, s5
v_rcp_iflag_f32 v1, 0x4048f5c3
v_rcp_iflag_f32_e64 v1, -|v2| clamp
v_rsq_f32 v1, v2
v_rsq_f32 v1, s5
v_rsq_f32 v1, 0x4048f5c3
v_rsq_f32_e64 v1, -|v2| clamp
v_sqrt_f32 v1, v2
v_sqrt_f32 v1, s5
v_sqrt_f32 v1, 0x4048f5c3
v_sqrt_f32_e64 v1, -|v2| clamp
v_not_b32 v1, v2
v_not_b32 v1, s5
v_not_b32 v1, 0x4048f5c3
v_not_b32_e64 v1, v2
v_bfrev_b32 v1, v2
v_bfrev_b32 v1, s5
v_bfrev_b32 v1, 0x4048f5c3
v_bfrev_b32_e64 v1, v2
v_clz_i32_u32 v1, v2
v_clz_i32_u32 v1, s5
v_clz_i32_u32 v1, 0x4048f5c3
v_clz_i32_u32_e64 v1, v2
v_ctz_i32_b32 v1, v2
v_ctz_i32_b32 v1, s5
v_ctz_i32_b32 v1, 0x4048f5c3
v_ctz_i32_b32_e64 v1, v2
v_cmp_lt_f32 vcc_lo, v1, v2
v_cmp_lt_f32 vcc_lo, 1.0, v2
v_cmp_lt_f32_e64 s4, v1, s6
v_cmp_lt_f32_e64 s4, -v1, 0x5678
v_cmp_eq_f32 vcc_lo, v1, v2
v_cmp_eq_f32 vcc_lo, 1.0, v2
v_cmp_eq_f32_e64 s4, v1, s6
v_cmp_eq_f32_e64 s4, -v1, 0x5678
v_cmp_le_f32 vcc_lo, v1, v2
v_cmp_le_f32 vcc_lo, 1.0, v2
v_cmp_le_f32_e64 s4, v1, s6
v_cmp_le_f32_e64 s4, -v1, 0x5678
v_cmp_gt_f32 vcc_lo, v1, v2
v_cmp_gt_f32 vcc_lo, 1.0, v2
v_cmp_gt_f32_e64 s4, v1, s6
v_cmp_gt_f32_e64 s4, -v1, 0x5678
v_cmp_lg_f32 vcc_lo, v1, v2
v_cmp_lg_f32 vcc_lo, 1.0, v2
v_cmp_lg_f32_e64 s4, v1, s6
v_cmp_lg_f32_e64 s4, -v1, 0x5678
v_cmp_ge_f32 vcc_lo, v1, v2
v_cmp_ge_f32 vcc_lo, 1.0, v2
v_cmp_ge_f32_e64 s4, v1, s6
v_cmp_ge_f32_e64 s4, -v1, 0x5678
v_cmp_o_f32 vcc_lo, v1, v2
v_cmp_o_f32 vcc_lo, 1.0, v2
v_cmp_o_f32_e64 s4, v1, s6
v_cmp_o_f32_e64 s4, -v1, 0x5678
v_cmp_u_f32 vcc_lo, v1, v2
v_cmp_u_f32 vcc_lo, 1.0, v2
v_cmp_u_f32_e64 s4, v1, s6
v_cmp_u_f32_e64 s4, -v1, 0x5678
v_cmp_nge_f32 vcc_lo, v1, v2
v_cmp_nge_f32 vcc_lo, 1.0, v2
v_cmp_nge_f32_e64 s4, v1, s6
v_cmp_nge_f32_e64 s4, -v1, 0x5678
v_cmp_nlg_f32 vcc_lo, v1, v2
v_cmp_nlg_f32 vcc_lo, 1.0, v2
v_cmp_nlg_f32_e64 s4, v1, s6
v_cmp_nlg_f32_e64 s4, -v1, 0x5678
v_cmp_ngt_f32 vcc_lo, v1, v2
v_cmp_ngt_f32 vcc_lo, 1.0, v2
v_cmp_ngt_f32_e64 s4, v1, s6
v_cmp_ngt_f32_e64 s4, -v1, 0x5678
v_cmp_nle_f32 vcc_lo, v1, v2
v_cmp_nle_f32 vcc_lo, 1.0, v2
v_cmp_nle_f32_e64 s4, v1, s6
v_cmp_nle_f32_e64 s4, -v1, 0x5678
v_cmp_neq_f32 vcc_lo, v1, v2
v_cmp_neq_f32 vcc_lo, 1.0, v2
v_cmp_neq_f32_e64 s4, v1, s6
v_cmp_neq_f32_e64 s4, -v1, 0x5678
v_cmp_nlt_f32 vcc_lo, v1, v2
v_cmp_nlt_f32 vcc_lo, 1.0, v2
v_cmp_nlt_f32_e64 s4, v1, s6
v_cmp_nlt_f32_e64 s4, -v1, 0x5678
v_cmp_lt_i32 vcc_lo, v1, v2
v_cmp_lt_i32 vcc_lo, 1.0, v2
v_cmp_lt_i32_e64 s4, v1, s6
v_cmp_lt_i32_e64 s4, v1, 0x5678
v_cmp_eq_i32 vcc_lo, v1, v2
v_cmp_eq_i32 vcc_lo, 1.0, v2
v_cmp_eq_i32_e64 s4, v1, s6
v_cmp_eq_i32_e64 s4, v1, 0x5678
v_cmp_le_i32 vcc_lo, v1, v2
v_cmp_le_i32 vcc_lo, 1.0, v2
v_cmp_le_i32_e64 s4, v1, s6
v_cmp_le_i32_e64 s4, v1, 0x5678
v_cmp_gt_i32 vcc_lo, v1, v2
v_cmp_gt_i32 vcc_lo, 1.0, v2
v_cmp_gt_i32_e64 s4, v1, s6
v_cmp_gt_i32_e64 s4, v1, 0x5678
v_cmp_ne_i32 vcc_lo, v1, v2
v_cmp_ne_i32 vcc_lo, 1.0, v2
v_cmp_ne_i32_e64 s4, v1, s6
v_cmp_ne_i32_e64 s4, v1, 0x5678
v_cmp_ge_i32 vcc_lo, v1, v2
v_cmp_ge_i32 vcc_lo, 1.0, v2
v_cmp_ge_i32_e64 s4, v1, s6
v_cmp_ge_i32_e64 s4, v1, 0x5678
v_cmp_lt_u32 vcc_lo, v1, v2
v_cmp_lt_u32 vcc_lo, 1.0, v2
v_cmp_lt_u32_e64 s4, v1, s6
v_cmp_lt_u32_e64 s4, v1, 0x5678
v_cmp_eq_u32 vcc_lo, v1, v2
v_cmp_eq_u32 vcc_lo, 1.0, v2
v_cmp_eq_u32_e64 s4, v1, s6
v_cmp_eq_u32_e64 s4, v1, 0x5678
v_cmp_le_u32 vcc_lo, v1, v2
v_cmp_le_u32 vcc_lo, 1.0, v2
v_cmp_le_u32_e64 s4, v1, s6
v_cmp_le_u32_e64 s4, v1, 0x5678
v_cmp_gt_u32 vcc_lo, v1, v2
v_cmp_gt_u32 vcc_lo, 1.0, v2
v_cmp_gt_u32_e64 s4, v1, s6
v_cmp_gt_u32_e64 s4, v1, 0x5678
v_cmp_ne_u32 vcc_lo, v1, v2
v_cmp_ne_u32 vcc_lo, 1.0, v2
v_cmp_ne_u32_e64 s4, v1, s6
v_cmp_ne_u32_e64 s4, v1, 0x5678
v_cmp_ge_u32 vcc_lo, v1, v2
v_cmp_ge_u32 vcc_lo, 1.0, v2
v_cmp_ge_u32_e64 s4, v1, s6
v_cmp_ge_u32_e64 s4, v1, 0x5678
v_cmpx_lt_f32 v1, v2
v_cmpx_lt_f32 s4, v2
v_cmpx_lt_f32_e64 v1, s4
v_cmpx_eq_f32 v1, v2
v_cmpx_eq_f32 s4, v2
v_cmpx_eq_f32_e64 v1, s4
v_cmpx_le_f32 v1, v2
v_cmpx_le_f32 s4, v2
v_cmpx_le_f32_e64 v1, s4
v_cmpx_gt_f32 v1, v2
v_cmpx_gt_f32 s4, v2
v_cmpx_gt_f32_e64 v1, s4
v_cmpx_lg_f32 v1, v2
v_cmpx_lg_f32 s4, v2
v_cmpx_lg_f32_e64 v1, s4
v_cmpx_ge_f32 v1, v2
v_cmpx_ge_f32 s4, v2
v_cmpx_ge_f32_e64 v1, s4
v_cmpx_o_f32 v1, v2
v_cmpx_o_f32 s4, v2
v_cmpx_o_f32_e64 v1, s4
v_cmpx_u_f32 v1, v2
v_cmpx_u_f32 s4, v2
v_cmpx_u_f32_e64 v1, s4
v_cmpx_nge_f32 v1, v2
v_cmpx_nge_f32 s4, v2
v_cmpx_nge_f32_e64 v1, s4
v_cmpx_nlg_f32 v1, v2
v_cmpx_nlg_f32 s4, v2
v_cmpx_nlg_f32_e64 v1, s4
v_cmpx_ngt_f32 v1, v2
v_cmpx_ngt_f32 s4, v2
v_cmpx_ngt_f32_e64 v1, s4
v_cmpx_nle_f32 v1, v2
v_cmpx_nle_f32 s4, v2
v_cmpx_nle_f32_e64 v1, s4
v_cmpx_neq_f32 v1, v2
v_cmpx_neq_f32 s4, v2
v_cmpx_neq_f32_e64 v1, s4
v_cmpx_nlt_f32 v1, v2
v_cmpx_nlt_f32 s4, v2
v_cmpx_nlt_f32_e64 v1, s4
v_cmpx_lt_i32 v1, v2
v_cmpx_lt_i32 s4, v2
v_cmpx_lt_i32_e64 v1, s4
v_cmpx_eq_i32 v1, v2
v_cmpx_eq_i32 s4, v2
v_cmpx_eq_i32_e64 v1, s4
v_cmpx_le_i32 v1, v2
v_cmpx_le_i32 s4, v2
v_cmpx_le_i32_e64 v1, s4
v_cmpx_gt_i32 v1, v2
v_cmpx_gt_i32 s4, v2
v_cmpx_gt_i32_e64 v1, s4
v_cmpx_ne_i32 v1, v2
v_cmpx_ne_i32 s4, v2
v_cmpx_ne_i32_e64 v1, s4
v_cmpx_ge_i32 v1, v2
v_cmpx_ge_i32 s4, v2
v_cmpx_ge_i32_e64 v1, s4
v_cmpx_lt_u32 v1, v2
v_cmpx_lt_u32 s4, v2
v_cmpx_lt_u32_e64 v1, s4
v_cmpx_eq_u32 v1, v2
v_cmpx_eq_u32 s4, v2
v_cmpx_eq_u32_e64 v1, s4
v_cmpx_le_u32 v1, v2
v_cmpx_le_u32 s4, v2
v_cmpx_le_u32_e64 v1, s4
v_cmpx_gt_u32 v1, v2
v_cmpx_gt_u32 s4, v2
v_cmpx_gt_u32_e64 v1, s4
v_cmpx_ne_u32 v1, v2
v_cmpx_ne_u32 s4, v2
v_cmpx_ne_u32_e64 v1, s4
v_cmpx_ge_u32 v1, v2
v_cmpx_ge_u32 s4, v2
v_cmpx_ge_u32_e64 v1, s4
v_mad_i32_i24 v1, v2, v4, v6
v_mad_i32_i24 v1, s4, 7, 0x1234
v_mad_u32_u24 v1, v2, v4, v6
v_mad_u32_u24 v1, s4, 7, 0x1234
v_bfe_u32 v1, v2, v4, v6
v_bfe_u32 v1, s4, 7, 0x1234
v_bfe_i32 v1, v2, v4, v6
v_bfe_i32 v1, s4, 7, 0x1234
v_bfi_b32 v1, v2, v4, v6
v_bfi_b32 v1, s4, 7, 0x1234
v_fma_f32 v1, v2, v4, v6
v_fma_f32 v1, s4, -2.0, 0x1234
v_fma_f32 v1, -v2, |v3|, -|v4| clamp div:2
v_alignbit_b32 v1, v2, v4, v6
v_alignbit_b32 v1, s4, 7, 0x1234
v_alignbyte_b32 v1, v2, v4, v6
v_alignbyte_b32 v1, s4, 7, 0x1234
v_min3_f32 v1, v2, v4, v6
v_min3_f32 v1, s4, -2.0, 0x1234
v_min3_f32 v1, -v2, |v3|, -|v4| clamp div:2
v_min3_i32 v1, v2, v4, v6
v_min3_i32 v1, s4, 7, 0x1234
v_min3_u32 v1, v2, v4, v6
v_min3_u32 v1, s4, 7, 0x1234
v_max3_f32 v1, v2, v4, v6
v_max3_f32 v1, s4, -2.0, 0x1234
v_max3_f32 v1, -v2, |v3|, -|v4| clamp div:2
v_max3_i32 v1, v2, v4, v6
v_max3_i32 v1, s4, 7, 0x1234
v_max3_u32 v1, v2, v4, v6
v_max3_u32 v1, s4, 7, 0x1234
v_med3_i32 v1, v2, v4, v6
v_med3_i32 v1, s4, 7, 0x1234
v_med3_u32 v1, v2, v4, v6
v_med3_u32 v1, s4, 7, 0x1234
v_xor3_b32 v1, v2, v4, v6
v_xor3_b32 v1, s4, 7, 0x1234
v_perm_b32 v1, v2, v4, v6
v_perm_b32 v1, s4, 7, 0x1234
v_xad_u32 v1, v2, v4, v6
v_xad_u32 v1, s4, 7, 0x1234
v_lshl_add_u32 v1, v2, v4, v6
v_lshl_add_u32 v1, s4, 7, 0x1234
v_add_lshl_u32 v1, v2, v4, v6
v_add_lshl_u32 v1, s4, 7, 0x1234
v_add3_u32 v1, v2, v4, v6
v_add3_u32 v1, s4, 7, 0x1234
v_lshl_or_b32 v1, v2, v4, v6
v_lshl_or_b32 v1, s4, 7, 0x1234
v_and_or_b32 v1, v2, v4, v6
v_and_or_b32 v1, s4, 7, 0x1234
v_or3_b32 v1, v2, v4, v6
v_or3_b32 v1, s4, 7, 0x1234
v_mad_u64_u32 v[1:2], s4, v3, v4, v[5:6]
v_mad_u64_u32 v[1:2], null, s3, 7, v[5:6]
v_mad_i64_i32 v[1:2], s4, v3, v4, v[5:6]
v_mad_i64_i32 v[1:2], null, s3, 7, v[5:6]
v_add_co_u32 v1, vcc_lo, v2, v3
v_add_co_u32 v1, s4, s5, v3
v_sub_co_u32 v1, vcc_lo, v2, v3
v_sub_co_u32 v1, s4, s5, v3
v_subrev_co_u32 v1, vcc_lo, v2, v3
v_subrev_co_u32 v1, s4, s5, v3
v_ldexp_f32 v1, v2, v4
v_ldexp_f32 v1, s4, 7
v_bfm_b32 v1, v2, v4
v_bfm_b32 v1, s4, 7
v_bcnt_u32_b32 v1, v2, v4
v_bcnt_u32_b32 v1, s4, 7
v_mbcnt_lo_u32_b32 v1, v2, v4
v_mbcnt_lo_u32_b32 v1, s4, 7
v_mbcnt_hi_u32_b32 v1, v2, v4
v_mbcnt_hi_u32_b32 v1, s4, 7
v_mul_lo_u32 v1, v2, v4
v_mul_lo_u32 v1, s4, 7
v_mul_hi_u32 v1, v2, v4
v_mul_hi_u32 v1, s4, 7
v_mul_hi_i32 v1, v2, v4
v_mul_hi_i32 v1, s4, 7
v_lshlrev_b64 v[1:2], v2, v[4:5]
v_lshlrev_b64 v[1:2], s4, 7
v_lshrrev_b64 v[1:2], v2, v[4:5]
v_lshrrev_b64 v[1:2], s4, 7
v_ashrrev_i64 v[1:2], v2, v[4:5]
v_ashrrev_i64 v[1:2], s4, 7
v_readlane_b32 s4, v1, 3
v_pipeflush
v_movreld_b32 v1, v2
v_movreld_b32 v1, s5
v_movrels_b32 v1, v2
v_movrelsd_b32 v1, v2
v_movrelsd_2_b32 v1, v2
v_swap_b32 v1, v2
v_swaprel_b32 v1, v2
v_permlane64_b32 v1, v2
v_permlane16_b32 v1, v2, s3, s4
v_permlane16_b32 v1, v2, s3, 0x12345678 op_sel:[1,1]
v_permlanex16_b32 v1, v2, m0, exec_lo op_sel:[1,0]
v_mov_b32_dpp v1, v2 row_share:3 row_mask:0xf bank_mask:0xf bound_ctrl:1 fi:1
v_mov_b32_dpp v1, v2 row_xmask:3 row_mask:0x5 bank_mask:0xa
v_add_f32_dpp v1, -v2, |v3| row_ror:7 row_mask:0xf bank_mask:0xf
v_add_f32_e64_dpp v1, v2, v3 dpp8:[7,6,5,4,3,2,1,0] fi:1
v_cmp_lt_f32_e64_dpp s5, v2, v3 row_half_mirror row_mask:0xf bank_mask:0xf
v_readlane_b32 s4, v1, s5
v_writelane_b32 v1, s4, 3
v_writelane_b32 v1, 7, s5
buffer_load_u8 v1, v5, s[8:11], 0 offen
buffer_load_u8 v1, off, s[8:11], s3 offset:64 glc
buffer_load_u8 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_u8 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_i8 v1, v5, s[8:11], 0 offen
buffer_load_i8 v1, off, s[8:11], s3 offset:64 glc
buffer_load_i8 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_i8 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_u16 v1, v5, s[8:11], 0 offen
buffer_load_u16 v1, off, s[8:11], s3 offset:64 glc
buffer_load_u16 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_u16 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_i16 v1, v5, s[8:11], 0 offen
buffer_load_i16 v1, off, s[8:11], s3 offset:64 glc
buffer_load_i16 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_i16 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_b32 v1, v5, s[8:11], 0 offen
buffer_load_b32 v1, off, s[8:11], s3 offset:64 glc
buffer_load_b32 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_b32 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_b64 v[1:2], v5, s[8:11], 0 offen
buffer_load_b64 v[1:2], off, s[8:11], s3 offset:64 glc
buffer_load_b64 v[1:2], v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_b64 v[1:2], v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_b96 v[1:3], v5, s[8:11], 0 offen
buffer_load_b96 v[1:3], off, s[8:11], s3 offset:64 glc
buffer_load_b96 v[1:3], v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_b96 v[1:3], v[5:6], s[12:15], 7 idxen offen dlc
buffer_load_b128 v[1:4], v5, s[8:11], 0 offen
buffer_load_b128 v[1:4], off, s[8:11], s3 offset:64 glc
buffer_load_b128 v[1:4], v5, s[12:15], 0 idxen offset:4095 slc
buffer_load_b128 v[1:4], v[5:6], s[12:15], 7 idxen offen dlc
buffer_store_b8 v1, v5, s[8:11], 0 offen
buffer_store_b8 v1, off, s[8:11], s3 offset:64 glc
buffer_store_b8 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_store_b8 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_store_b16 v1, v5, s[8:11], 0 offen
buffer_store_b16 v1, off, s[8:11], s3 offset:64 glc
buffer_store_b16 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_store_b16 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_store_b32 v1, v5, s[8:11], 0 offen
buffer_store_b32 v1, off, s[8:11], s3 offset:64 glc
buffer_store_b32 v1, v5, s[12:15], 0 idxen offset:4095 slc
buffer_store_b32 v1, v[5:6], s[12:15], 7 idxen offen dlc
buffer_store_b64 v[1:2], v5, s[8:11], 0 offen
buffer_store_b64 v[1:2], off, s[8:11], s3 offset:64 glc
buffer_store_b64 v[1:2], v5, s[12:15], 0 idxen offset:4095 slc
buffer_store_b64 v[1:2], v[5:6], s[12:15], 7 idxen offen dlc
buffer_store_b96 v[1:3], v5, s[8:11], 0 offen
buffer_store_b96 v[1:3], off, s[8:11], s3 offset:64 glc
buffer_store_b96 v[1:3], v5, s[12:15], 0 idxen offset:4095 slc
buffer_store_b96 v[1:3], v[5:6], s[12:15], 7 idxen offen dlc
buffer_store_b128 v[1:4], v5, s[8:11], 0 offen
buffer_store_b128 v[1:4], off, s[8:11], s3 offset:64 glc
buffer_store_b128 v[1:4], v5, s[12:15], 0 idxen offset:4095 slc
buffer_store_b128 v[1:4], v[5:6], s[12:15], 7 idxen offen dlc
buffer_gl0_inv
buffer_gl1_inv
global_load_u8 v1, v5, s[2:3]
global_load_u8 v1, v[6:7], off offset:-16
global_load_u8 v1, v5, s[2:3] offset:2047 glc slc dlc
global_load_i8 v1, v5, s[2:3]
global_load_i8 v1, v[6:7], off offset:-16
global_load_i8 v1, v5, s[2:3] offset:2047 glc slc dlc
global_load_u16 v1, v5, s[2:3]
global_load_u16 v1, v[6:7], off offset:-16
global_load_u16 v1, v5, s[2:3] offset:2047 glc slc dlc
global_load_i16 v1, v5, s[2:3]
global_load_i16 v1, v[6:7], off offset:-16
global_load_i16 v1, v5, s[2:3] offset:2047 glc slc dlc
global_load_b32 v1, v5, s[2:3]
global_load_b32 v1, v[6:7], off offset:-16
global_load_b32 v1, v5, s[2:3] offset:2047 glc slc dlc
global_load_b64 v[1:2], v5, s[2:3]
global_load_b64 v[1:2], v[6:7], off offset:-16
global_load_b64 v[1:2], v5, s[2:3] offset:2047 glc slc dlc
global_load_b96 v[1:3], v5, s[2:3]
global_load_b96 v[1:3], v[6:7], off offset:-16
global_load_b96 v[1:3], v5, s[2:3] offset:2047 glc slc dlc
global_load_b128 v[1:4], v5, s[2:3]
global_load_b128 v[1:4], v[6:7], off offset:-16
global_load_b128 v[1:4], v5, s[2:3] offset:2047 glc slc dlc
global_store_b8 v5, v1, s[2:3]
global_store_b8 v[6:7], v1, off offset:-4096
global_store_b8 v5, v1, s[2:3] offset:12 glc
global_store_b16 v5, v1, s[2:3]
global_store_b16 v[6:7], v1, off offset:-4096
global_store_b16 v5, v1, s[2:3] offset:12 glc
global_store_b32 v5, v1, s[2:3]
global_store_b32 v[6:7], v1, off offset:-4096
global_store_b32 v5, v1, s[2:3] offset:12 glc
global_store_b64 v5, v[1:2], s[2:3]
global_store_b64 v[6:7], v[1:2], off offset:-4096
global_store_b64 v5, v[1:2], s[2:3] offset:12 glc
global_store_b96 v5, v[1:3], s[2:3]
global_store_b96 v[6:7], v[1:3], off offset:-4096
global_store_b96 v5, v[1:3], s[2:3] offset:12 glc
global_store_b128 v5, v[1:4], s[2:3]
global_store_b128 v[6:7], v[1:4], off offset:-4096
global_store_b128 v5, v[1:4], s[2:3] offset:12 glc
global_atomic_swap_b32 v5, v8, s[2:3]
global_atomic_swap_b32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_swap_b32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_swap_b32 v[6:7], v12, off offset:-4096 slc
global_atomic_cmpswap_b32 v5, v[8:9], s[2:3]
global_atomic_cmpswap_b32 v20, v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_cmpswap_b32 v20, v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_cmpswap_b32 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_add_u32 v5, v8, s[2:3]
global_atomic_add_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_add_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_add_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_sub_u32 v5, v8, s[2:3]
global_atomic_sub_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_sub_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_sub_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_csub_u32 v5, v8, s[2:3]
global_atomic_csub_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_csub_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_csub_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_min_i32 v5, v8, s[2:3]
global_atomic_min_i32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_min_i32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_min_i32 v[6:7], v12, off offset:-4096 slc
global_atomic_min_u32 v5, v8, s[2:3]
global_atomic_min_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_min_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_min_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_max_i32 v5, v8, s[2:3]
global_atomic_max_i32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_max_i32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_max_i32 v[6:7], v12, off offset:-4096 slc
global_atomic_max_u32 v5, v8, s[2:3]
global_atomic_max_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_max_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_max_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_and_b32 v5, v8, s[2:3]
global_atomic_and_b32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_and_b32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_and_b32 v[6:7], v12, off offset:-4096 slc
global_atomic_or_b32 v5, v8, s[2:3]
global_atomic_or_b32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_or_b32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_or_b32 v[6:7], v12, off offset:-4096 slc
global_atomic_xor_b32 v5, v8, s[2:3]
global_atomic_xor_b32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_xor_b32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_xor_b32 v[6:7], v12, off offset:-4096 slc
global_atomic_inc_u32 v5, v8, s[2:3]
global_atomic_inc_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_inc_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_inc_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_dec_u32 v5, v8, s[2:3]
global_atomic_dec_u32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_dec_u32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_dec_u32 v[6:7], v12, off offset:-4096 slc
global_atomic_swap_b64 v5, v[8:9], s[2:3]
global_atomic_swap_b64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_swap_b64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_swap_b64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_cmpswap_b64 v5, v[8:11], s[2:3]
global_atomic_cmpswap_b64 v[20:21], v5, v[8:11], s[2:3] offset:-64 glc
global_atomic_cmpswap_b64 v[20:21], v[6:7], v[8:11], off offset:2047 glc slc dlc
global_atomic_cmpswap_b64 v[6:7], v[12:15], off offset:-4096 slc
global_atomic_add_u64 v5, v[8:9], s[2:3]
global_atomic_add_u64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_add_u64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_add_u64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_sub_u64 v5, v[8:9], s[2:3]
global_atomic_sub_u64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_sub_u64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_sub_u64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_min_i64 v5, v[8:9], s[2:3]
global_atomic_min_i64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_min_i64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_min_i64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_min_u64 v5, v[8:9], s[2:3]
global_atomic_min_u64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_min_u64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_min_u64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_max_i64 v5, v[8:9], s[2:3]
global_atomic_max_i64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_max_i64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_max_i64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_max_u64 v5, v[8:9], s[2:3]
global_atomic_max_u64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_max_u64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_max_u64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_and_b64 v5, v[8:9], s[2:3]
global_atomic_and_b64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_and_b64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_and_b64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_or_b64 v5, v[8:9], s[2:3]
global_atomic_or_b64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_or_b64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_or_b64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_xor_b64 v5, v[8:9], s[2:3]
global_atomic_xor_b64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_xor_b64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_xor_b64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_inc_u64 v5, v[8:9], s[2:3]
global_atomic_inc_u64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_inc_u64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_inc_u64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_dec_u64 v5, v[8:9], s[2:3]
global_atomic_dec_u64 v[20:21], v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_dec_u64 v[20:21], v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_dec_u64 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_cmpswap_f32 v5, v[8:9], s[2:3]
global_atomic_cmpswap_f32 v20, v5, v[8:9], s[2:3] offset:-64 glc
global_atomic_cmpswap_f32 v20, v[6:7], v[8:9], off offset:2047 glc slc dlc
global_atomic_cmpswap_f32 v[6:7], v[12:13], off offset:-4096 slc
global_atomic_min_f32 v5, v8, s[2:3]
global_atomic_min_f32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_min_f32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_min_f32 v[6:7], v12, off offset:-4096 slc
global_atomic_max_f32 v5, v8, s[2:3]
global_atomic_max_f32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_max_f32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_max_f32 v[6:7], v12, off offset:-4096 slc
global_atomic_add_f32 v5, v8, s[2:3]
global_atomic_add_f32 v20, v5, v8, s[2:3] offset:-64 glc
global_atomic_add_f32 v20, v[6:7], v8, off offset:2047 glc slc dlc
global_atomic_add_f32 v[6:7], v12, off offset:-4096 slc
scratch_load_u8 v1, v5, off
scratch_load_u8 v1, off, s3 offset:16
scratch_load_u8 v1, v5, s3 offset:-8 glc
scratch_load_i8 v1, v5, off
scratch_load_i8 v1, off, s3 offset:16
scratch_load_i8 v1, v5, s3 offset:-8 glc
scratch_load_u16 v1, v5, off
scratch_load_u16 v1, off, s3 offset:16
scratch_load_u16 v1, v5, s3 offset:-8 glc
scratch_load_i16 v1, v5, off
scratch_load_i16 v1, off, s3 offset:16
scratch_load_i16 v1, v5, s3 offset:-8 glc
scratch_load_b32 v1, v5, off
scratch_load_b32 v1, off, s3 offset:16
scratch_load_b32 v1, v5, s3 offset:-8 glc
scratch_load_b64 v[1:2], v5, off
scratch_load_b64 v[1:2], off, s3 offset:16
scratch_load_b64 v[1:2], v5, s3 offset:-8 glc
scratch_load_b96 v[1:3], v5, off
scratch_load_b96 v[1:3], off, s3 offset:16
scratch_load_b96 v[1:3], v5, s3 offset:-8 glc
scratch_load_b128 v[1:4], v5, off
scratch_load_b128 v[1:4], off, s3 offset:16
scratch_load_b128 v[1:4], v5, s3 offset:-8 glc
scratch_store_b8 v5, v1, off
scratch_store_b8 off, v1, s3 offset:16
scratch_store_b8 v5, v1, s3 slc
scratch_store_b16 v5, v1, off
scratch_store_b16 off, v1, s3 offset:16
scratch_store_b16 v5, v1, s3 slc
scratch_store_b32 v5, v1, off
scratch_store_b32 off, v1, s3 offset:16
scratch_store_b32 v5, v1, s3 slc
scratch_store_b64 v5, v[1:2], off
scratch_store_b64 off, v[1:2], s3 offset:16
scratch_store_b64 v5, v[1:2], s3 slc
scratch_store_b96 v5, v[1:3], off
scratch_store_b96 off, v[1:3], s3 offset:16
scratch_store_b96 v5, v[1:3], s3 slc
scratch_store_b128 v5, v[1:4], off
scratch_store_b128 off, v[1:4], s3 offset:16
scratch_store_b128 v5, v[1:4], s3 slc
// ---- SOPP ----
s_nop 0
s_nop 7
s_sleep 2
s_set_inst_prefetch_distance 0x2
s_clause 0x3f
s_delay_alu instid0(VALU_DEP_1)
s_delay_alu instid0(TRANS32_DEP_1) | instskip(NEXT) | instid1(SALU_CYCLE_3)
s_delay_alu instid0(VALU_DEP_4) | instskip(SKIP_4) | instid1(FMA_ACCUM_CYCLE_1)
s_delay_alu 0
s_delay_alu instskip(NEXT)
s_delay_alu 0xfff
s_waitcnt_depctr 0xfff
s_waitcnt_depctr 0xffe3
s_waitcnt_depctr depctr_va_vdst(0)
s_waitcnt_depctr depctr_sa_sdst(0)
s_waitcnt_depctr depctr_vm_vsrc(0) depctr_va_vcc(0)
s_waitcnt_depctr 0xff9f
s_waitcnt_depctr 0
s_waitcnt vmcnt(0) lgkmcnt(0)
s_waitcnt vmcnt(0) expcnt(0) lgkmcnt(0)
s_waitcnt vmcnt(63) expcnt(7) lgkmcnt(63)
s_waitcnt expcnt(0)
s_waitcnt vmcnt(5)
s_waitcnt lgkmcnt(1)
s_wait_idle
s_branch 3
s_branch 65535
s_branch 0x8000
s_cbranch_scc0 4
s_cbranch_scc1 65530
s_cbranch_vccz 1
s_cbranch_vccnz 2
s_cbranch_execz 18
s_cbranch_execnz 65533
s_endpgm
s_setprio 3
s_sendmsg sendmsg(MSG_DEALLOC_VGPRS)
s_sendmsg sendmsg(MSG_INTERRUPT)
s_icache_inv
s_barrier
s_code_end
// ---- DS ----
ds_add_u32 v1, v2
ds_add_u32 v1, v2 offset:65535
ds_sub_u32 v1, v2 offset:4
ds_min_i32 v1, v2
ds_max_i32 v1, v2 offset:16
ds_min_u32 v1, v2
ds_max_u32 v1, v2
ds_and_b32 v1, v2
ds_or_b32 v1, v2 offset:256
ds_xor_b32 v1, v2
ds_store_b32 v1, v2
ds_store_b32 v1, v2 offset:1024
ds_store_2addr_b32 v1, v2, v3 offset1:1
ds_store_2addr_b32 v1, v2, v3 offset0:4 offset1:255
ds_store_2addr_stride64_b32 v1, v2, v3 offset0:1 offset1:2
ds_store_b8 v1, v2 offset:3
ds_store_b16 v1, v2 offset:2
ds_add_rtn_u32 v5, v1, v2
ds_add_rtn_u32 v5, v1, v2 offset:8
ds_load_b32 v5, v1
ds_load_b32 v5, v1 offset:128
ds_load_2addr_b32 v[5:6], v1 offset1:32
ds_load_2addr_b32 v[5:6], v1 offset0:7 offset1:9
ds_load_2addr_stride64_b32 v[5:6], v1 offset1:2
ds_load_u8 v5, v1 offset:1
ds_load_u16 v5, v1
ds_store_b64 v1, v[2:3]
ds_store_b64 v1, v[2:3] offset:512
ds_store_2addr_b64 v1, v[2:3], v[4:5] offset1:1
ds_load_b64 v[5:6], v1 offset:8
ds_load_2addr_b64 v[5:8], v1 offset0:2 offset1:3
ds_store_b128 v1, v[2:5]
ds_store_b128 v1, v[2:5] offset:16
ds_load_b128 v[5:8], v1
ds_load_b128 v[5:8], v1 offset:32
// ---- VOPD (wave32) ----
v_dual_fmac_f32 v0, v1, v2 :: v_dual_fmac_f32 v3, v4, v5
v_dual_fmaak_f32 v0, v1, v2, 0x40490fdb :: v_dual_mov_b32 v3, v4
v_dual_fmamk_f32 v0, v1, 0x3f000001, v2 :: v_dual_add_f32 v3, v4, v5
v_dual_mul_f32 v0, v1, v2 :: v_dual_fmaak_f32 v3, v4, v5, 0x41200000
v_dual_add_f32 v0, s1, v2 :: v_dual_fmamk_f32 v3, v4, 0x41200000, v5
v_dual_sub_f32 v0, v1, v2 :: v_dual_sub_f32 v3, 1.0, v5
v_dual_subrev_f32 v0, v1, v2 :: v_dual_subrev_f32 v3, v4, v5
v_dual_mul_dx9_zero_f32 v0, v1, v2 :: v_dual_mul_dx9_zero_f32 v3, v4, v5
v_dual_mov_b32 v0, 0x1234 :: v_dual_mov_b32 v3, 0x1234
v_dual_cndmask_b32 v0, v1, v2 :: v_dual_cndmask_b32 v3, v4, v5
v_dual_max_f32 v0, v1, v2 :: v_dual_max_f32 v3, v4, v5
v_dual_min_f32 v0, -4.0, v2 :: v_dual_min_f32 v3, v4, v5
v_dual_mov_b32 v0, v1 :: v_dual_add_nc_u32 v3, v4, v5
v_dual_mov_b32 v0, s5 :: v_dual_lshlrev_b32 v3, 2, v5
v_dual_mov_b32 v0, v1 :: v_dual_and_b32 v3, 0xff, v5
v_dual_mul_f32 v10, v11, v12 :: v_dual_mul_f32 v11, v13, v14
v_dual_add_f32 v255, v1, v2 :: v_dual_add_f32 v254, v3, v4
v_dual_dot2acc_f32_f16 v1, v2, v3 :: v_dual_mov_b32 v4, v5
// ---- Operand variety ----
s_mov_b32 s4, vcc_lo
s_mov_b32 vcc_hi, s4
s_mov_b32 exec_lo, s4
s_mov_b32 s4, exec_hi
s_mov_b32 m0, s4
s_mov_b32 s4, m0
s_mov_b32 null, s4
s_mov_b32 s4, null
s_mov_b32 s105, -16
s_mov_b32 s4, 64
s_mov_b32 s4, 0.5
s_mov_b32 s4, -4.0
s_mov_b32 s4, 0.15915494
s_mov_b32 s4, src_scc
s_mov_b64 vcc, s[4:5]
s_mov_b64 exec, s[4:5]
s_mov_b64 s[4:5], exec
s_mov_b64 s[4:5], -1
s_mov_b64 s[4:5], 1.0
s_mov_b64 s[4:5], 0x12345678
s_mov_b64 s[4:5], ttmp[4:5]
s_mov_b32 s4, ttmp6
s_add_u32 s4, 0x80000000, s5
s_and_b32 exec_lo, exec_lo, vcc_lo
s_or_b32 exec_lo, exec_lo, s0
s_and_saveexec_b32 s3, vcc_lo
s_load_b32 s4, s[0:1], 0x10 glc
s_load_b64 s[4:5], s[0:1], null dlc
s_load_b128 s[4:7], s[0:1], 0xfffff
s_load_b32 s4, s[0:1], -4
s_load_b32 s4, s[2:3], s5 offset:-0x4
s_load_b32 s4, s[2:3], -0x100000
s_buffer_load_b64 s[4:5], s[8:11], 0x8 glc dlc
s_load_b32 s4, s[0:1], m0
v_mov_b32 v1, vcc_lo
v_mov_b32 v1, exec_lo
v_mov_b32 v1, m0
v_mov_b32 v1, -1
v_mov_b32 v1, 1.0
v_mov_b32 v1, 0.15915494
v_mov_b32 v255, v0
v_mov_b32_e64 v1, src_scc
v_add_f32 v1, -1.0, v2
v_add_f32 v1, 4.0, v2
v_add_f32 v1, 0x7fc00000, v2
v_add_f32_e64 v1, v2, -4.0
v_add_f32_e64 v1, v2, s5 clamp
v_add_f32_e64 v1, -|s2|, v3 mul:4
v_mul_f32_e64 v1, v2, v3 div:2
v_max_f32_e64 v1, |v2|, |v3|
v_add_nc_u32 v1, 64, v2
v_add_nc_u32 v1, -16, v2
v_add_nc_u32_e64 v1, v2, v3 clamp
v_sub_nc_u32_e64 v1, s2, 7
v_lshlrev_b32_e64 v1, s2, s3
v_and_b32_e64 v1, v2, 0xffff
v_cndmask_b32_e64 v1, 0, 1, s4
v_cndmask_b32_e64 v1, v2, v3, vcc_lo
v_cndmask_b32 v1, 0x1234, v3, vcc_lo
v_cndmask_b32_e64 v1, -v2, |v3|, s4
v_add_co_u32 v1, s4, v2, v3 clamp
v_add_co_ci_u32_e64 v1, null, 0, v3, vcc_lo
v_cmp_gt_u32_e64 vcc_lo, s4, v1
v_cmp_eq_f32_e64 s4, |v1|, -v2
v_cmp_lt_i32_e64 s4, 0x100, v1
v_cmpx_lt_f32_e64 -v1, |v2|
v_cmpx_eq_u32_e64 s4, 0x1234
v_cmp_lt_f32 vcc_lo, 0x3fc00000, v1
v_mad_u32_u24 v1, v2, 3, s2
v_lshl_or_b32 v1, s15, 6, v0
v_fma_f32 v1, v2, 0x40490fdb, v3
v_fma_f32 v1, 0x40490fdb, v2, 0x40490fdb
v_fma_f32 v1, s2, s2, v3
v_fma_f32 v1, v2, v3, v4 mul:2
v_bfi_b32 v1, 0xffff, v2, v3
v_mad_u64_u32 v[1:2], null, v3, 0x1234, v[5:6]
v_mad_u64_u32 v[1:2], vcc_lo, s3, v4, 0
v_lshlrev_b64 v[1:2], 2, v[1:2]
v_lshrrev_b64 v[1:2], s3, 3
v_ashrrev_i64 v[1:2], 31, s[2:3]
v_readlane_b32 s4, v1, 0x10
v_readlane_b32 vcc_lo, v1, m0
v_writelane_b32 v1, m0, 5
v_readfirstlane_b32 s4, v255
v_readfirstlane_b32 m0, v1
v_readfirstlane_b32 vcc_lo, v1
v_mbcnt_lo_u32_b32 v1, -1, 0
v_mbcnt_hi_u32_b32 v1, -1, v1
v_sqrt_f32_e64 v1, |v2| mul:2
v_cvt_f32_u32_e64 v1, v2 clamp
v_cvt_i32_f32_e64 v1, -v2
v_rcp_f32_e64 v1, s2 div:2
v_nop
v_nop_e64
buffer_load_b32 v1, off, s[8:11], 0
buffer_load_b32 v1, off, s[8:11], 0 offset:4 glc slc dlc
buffer_load_b32 v1, v2, s[8:11], 64 offen
buffer_load_b32 v1, v2, s[8:11], -1 offen
buffer_load_b32 v1, v2, s[8:11], m0 offen
buffer_load_b32 v1, v2, s[8:11], null offen
buffer_store_b32 v1, v2, s[92:95], s0 idxen
buffer_load_b128 v[252:255], v2, s[8:11], 0 offen
buffer_gl0_inv
buffer_gl1_inv
global_load_b32 v1, v2, s[100:101]
global_load_b32 v1, v[2:3], off
global_load_b32 v1, v2, vcc
global_load_b128 v[1:4], v[254:255], off offset:-4096
global_store_b128 v[1:2], v[252:255], off offset:4095
global_store_b32 v2, v1, s[2:3] offset:-1 dlc
scratch_load_b32 v1, off, off
scratch_load_b32 v1, off, off offset:4
scratch_load_b32 v1, off, m0
scratch_load_b32 v1, off, vcc_lo
scratch_store_b32 off, v1, off offset:-16
scratch_store_b128 off, v[1:4], s2
s_version UC_VERSION_GFX11
s_version UC_VERSION_GFX10|UC_VERSION_W64_BIT
s_version UC_VERSION_GFX11|UC_VERSION_W32_BIT|UC_VERSION_MDP_BIT
s_version 0x8000
s_version 7
s_version 0x1006
s_sendmsg 0x15
s_sendmsg 0
s_sendmsg 5
s_sendmsg 131
s_sendmsg 0x123
v_mov_b32_e64 v1, 0x1234
v_add_nc_u32_e64 v1, v2, 0x1234
v_mad_u32_u24 v1, v2, v3, v4 clamp
v_add3_u32 v1, s2, 0x1234, v3
v_cmp_eq_u32_e64 null, v1, v2
v_cmp_ne_u32_e64 exec_lo, 0, v1
v_cndmask_b32_e64 v1, v2, 0x1234, vcc_lo
v_readlane_b32 s104, v255, s105
v_fmac_f32_e64 v1, -v2, |v3| clamp div:2
v_min3_f32 v1, -|v2|, s3, 1.0
v_max_f32_e64 v1, v2, v2 clamp
s_cselect_b32 s4, 16, 22
s_cselect_b64 s[4:5], -1, 0
s_cmp_eq_u64 s[4:5], 0x1234
s_bitcmp1_b32 s4, 31
s_lshl_b64 s[4:5], s[4:5], 63
s_getpc_b64 s[104:105]
s_addk_i32 s4, 0xfff0
s_movk_i32 vcc_lo, 0x8000
// Opcodes executed since issue 4 (generated forms, each checked with llvm-mc-19).
s_getreg_b32 s4, hwreg(HW_REG_MODE)
s_setreg_b32 hwreg(HW_REG_MODE), s4
s_setreg_imm32_b32 hwreg(HW_REG_MODE), 0x1234
s_call_b64 s[4:5], 16
s_cls_i32 s4, s5
s_cls_i32_i64 s4, s[6:7]
s_bitreplicate_b64_b32 s[4:5], s6
s_quadmask_b32 s4, s5
s_quadmask_b64 s[4:5], s[6:7]
s_wqm_b32 s4, s5
s_wqm_b64 s[4:5], s[6:7]
s_nand_saveexec_b32 s4, s5
s_nand_saveexec_b64 s[4:5], s[6:7]
s_nor_saveexec_b32 s4, s5
s_nor_saveexec_b64 s[4:5], s[6:7]
s_xnor_saveexec_b32 s4, s5
s_xnor_saveexec_b64 s[4:5], s[6:7]
s_and_not0_wrexec_b32 s4, s5
s_and_not0_wrexec_b64 s[4:5], s[6:7]
s_and_not1_wrexec_b32 s4, s5
s_and_not1_wrexec_b64 s[4:5], s[6:7]
s_movrels_b32 s4, s5
s_movrels_b64 s[4:5], s[6:7]
s_movreld_b32 s4, s5
s_movreld_b64 s[4:5], s[6:7]
s_movrelsd_2_b32 s4, s5
s_rfe_b64 s[4:5]
s_sendmsg_rtn_b32 s4, sendmsg(MSG_RTN_GET_REALTIME)
s_sendmsg_rtn_b64 s[4:5], 16
s_setkill 1
s_sethalt 1
s_wait_event 1
s_trap 1
s_round_mode 1
s_denorm_mode 1
s_cbranch_cdbgsys 1
s_cbranch_cdbguser 1
s_cbranch_cdbgsys_or_user 1
s_cbranch_cdbgsys_and_user 1
s_endpgm_saved
s_wakeup
s_sendmsghalt 1
s_incperflevel 1
s_decperflevel 1
s_ttracedata
s_ttracedata_imm 1
v_dot2acc_f32_f16 v1, v2, v3
v_fmac_dx9_zero_f32 v1, v2, v3
v_cvt_pk_rtz_f16_f32 v1, v2, v3
v_add_f16 v1, v2, v3
v_sub_f16 v1, v2, v3
v_subrev_f16 v1, v2, v3
v_mul_f16 v1, v2, v3
v_fmac_f16 v1, v2, v3
v_max_f16 v1, v2, v3
v_min_f16 v1, v2, v3
v_ldexp_f16 v1, v2, v3
v_pk_fmac_f16 v1, v2, v3
v_cvt_i32_f64 v1, v[2:3]
v_cvt_f64_i32 v[2:3], v1
v_cvt_f16_f32 v1, v2
v_cvt_f32_f16 v1, v2
v_cvt_nearest_i32_f32 v1, v2
v_cvt_floor_i32_f32 v1, v2
v_cvt_off_f32_i4 v1, v2
v_cvt_f32_f64 v1, v[2:3]
v_cvt_f64_f32 v[2:3], v1
v_cvt_f32_ubyte0 v1, v2
v_cvt_f32_ubyte1 v1, v2
v_cvt_f32_ubyte2 v1, v2
v_cvt_f32_ubyte3 v1, v2
v_cvt_u32_f64 v1, v[2:3]
v_cvt_f64_u32 v[2:3], v1
v_trunc_f64 v[2:3], v[4:5]
v_ceil_f64 v[2:3], v[4:5]
v_rndne_f64 v[2:3], v[4:5]
v_floor_f64 v[2:3], v[4:5]
v_rcp_f64 v[2:3], v[4:5]
v_rsq_f64 v[2:3], v[4:5]
v_sqrt_f64 v[2:3], v[4:5]
v_sin_f32 v1, v2
v_cos_f32 v1, v2
v_cls_i32 v1, v2
v_frexp_exp_i32_f64 v1, v[2:3]
v_frexp_mant_f64 v[2:3], v[4:5]
v_fract_f64 v[2:3], v[4:5]
v_frexp_exp_i32_f32 v1, v2
v_frexp_mant_f32 v1, v2
v_cvt_f16_u16 v1, v2
v_cvt_f16_i16 v1, v2
v_cvt_u16_f16 v1, v2
v_cvt_i16_f16 v1, v2
v_rcp_f16 v1, v2
v_sqrt_f16 v1, v2
v_rsq_f16 v1, v2
v_log_f16 v1, v2
v_exp_f16 v1, v2
v_frexp_mant_f16 v1, v2
v_frexp_exp_i16_f16 v1, v2
v_floor_f16 v1, v2
v_ceil_f16 v1, v2
v_trunc_f16 v1, v2
v_rndne_f16 v1, v2
v_fract_f16 v1, v2
v_sin_f16 v1, v2
v_cos_f16 v1, v2
v_sat_pk_u8_i16 v1, v2
v_cvt_norm_i16_f16 v1, v2
v_cvt_norm_u16_f16 v1, v2
v_not_b16 v1, v2
v_cvt_i32_i16 v1, v2
v_cvt_u32_u16 v1, v2
v_cmp_f_f16 v1, v2
v_cmp_lt_f16 v1, v2
v_cmp_eq_f16 v1, v2
v_cmp_le_f16 v1, v2
v_cmp_gt_f16 v1, v2
v_cmp_lg_f16 v1, v2
v_cmp_ge_f16 v1, v2
v_cmp_o_f16 v1, v2
v_cmp_u_f16 v1, v2
v_cmp_nge_f16 v1, v2
v_cmp_nlg_f16 v1, v2
v_cmp_ngt_f16 v1, v2
v_cmp_nle_f16 v1, v2
v_cmp_neq_f16 v1, v2
v_cmp_nlt_f16 v1, v2
v_cmp_t_f16 v1, v2
v_cmp_f_f32 v1, v2
v_cmp_t_f32 v1, v2
v_cmp_f_f64 v[2:3], v[4:5]
v_cmp_lt_f64 v[2:3], v[4:5]
v_cmp_eq_f64 v[2:3], v[4:5]
v_cmp_le_f64 v[2:3], v[4:5]
v_cmp_gt_f64 v[2:3], v[4:5]
v_cmp_lg_f64 v[2:3], v[4:5]
v_cmp_ge_f64 v[2:3], v[4:5]
v_cmp_o_f64 v[2:3], v[4:5]
v_cmp_u_f64 v[2:3], v[4:5]
v_cmp_nge_f64 v[2:3], v[4:5]
v_cmp_nlg_f64 v[2:3], v[4:5]
v_cmp_ngt_f64 v[2:3], v[4:5]
v_cmp_nle_f64 v[2:3], v[4:5]
v_cmp_neq_f64 v[2:3], v[4:5]
v_cmp_nlt_f64 v[2:3], v[4:5]
v_cmp_t_f64 v[2:3], v[4:5]
v_cmp_lt_i16 v1, v2
v_cmp_eq_i16 v1, v2
v_cmp_le_i16 v1, v2
v_cmp_gt_i16 v1, v2
v_cmp_ne_i16 v1, v2
v_cmp_ge_i16 v1, v2
v_cmp_lt_u16 v1, v2
v_cmp_eq_u16 v1, v2
v_cmp_le_u16 v1, v2
v_cmp_gt_u16 v1, v2
v_cmp_ne_u16 v1, v2
v_cmp_ge_u16 v1, v2
v_cmp_f_i32 v1, v2
v_cmp_t_i32 v1, v2
v_cmp_f_u32 v1, v2
v_cmp_t_u32 v1, v2
v_cmp_f_i64 v[2:3], v[4:5]
v_cmp_lt_i64 v[2:3], v[4:5]
v_cmp_eq_i64 v[2:3], v[4:5]
v_cmp_le_i64 v[2:3], v[4:5]
v_cmp_gt_i64 v[2:3], v[4:5]
v_cmp_ne_i64 v[2:3], v[4:5]
v_cmp_ge_i64 v[2:3], v[4:5]
v_cmp_t_i64 v[2:3], v[4:5]
v_cmp_f_u64 v[2:3], v[4:5]
v_cmp_lt_u64 v[2:3], v[4:5]
v_cmp_eq_u64 v[2:3], v[4:5]
v_cmp_le_u64 v[2:3], v[4:5]
v_cmp_gt_u64 v[2:3], v[4:5]
v_cmp_ne_u64 v[2:3], v[4:5]
v_cmp_ge_u64 v[2:3], v[4:5]
v_cmp_t_u64 v[2:3], v[4:5]
v_cmp_class_f16 v1, v2
v_cmp_class_f32 v1, v2
v_cmp_class_f64 v[2:3], v1
v_cmpx_f_f16 v1, v2
v_cmpx_lt_f16 v1, v2
v_cmpx_eq_f16 v1, v2
v_cmpx_le_f16 v1, v2
v_cmpx_gt_f16 v1, v2
v_cmpx_lg_f16 v1, v2
v_cmpx_ge_f16 v1, v2
v_cmpx_o_f16 v1, v2
v_cmpx_u_f16 v1, v2
v_cmpx_nge_f16 v1, v2
v_cmpx_nlg_f16 v1, v2
v_cmpx_ngt_f16 v1, v2
v_cmpx_nle_f16 v1, v2
v_cmpx_neq_f16 v1, v2
v_cmpx_nlt_f16 v1, v2
v_cmpx_t_f16 v1, v2
v_cmpx_f_f32 v1, v2
v_cmpx_t_f32 v1, v2
v_cmpx_f_f64 v[2:3], v[4:5]
v_cmpx_lt_f64 v[2:3], v[4:5]
v_cmpx_eq_f64 v[2:3], v[4:5]
v_cmpx_le_f64 v[2:3], v[4:5]
v_cmpx_gt_f64 v[2:3], v[4:5]
v_cmpx_lg_f64 v[2:3], v[4:5]
v_cmpx_ge_f64 v[2:3], v[4:5]
v_cmpx_o_f64 v[2:3], v[4:5]
v_cmpx_u_f64 v[2:3], v[4:5]
v_cmpx_nge_f64 v[2:3], v[4:5]
v_cmpx_nlg_f64 v[2:3], v[4:5]
v_cmpx_ngt_f64 v[2:3], v[4:5]
v_cmpx_nle_f64 v[2:3], v[4:5]
v_cmpx_neq_f64 v[2:3], v[4:5]
v_cmpx_nlt_f64 v[2:3], v[4:5]
v_cmpx_t_f64 v[2:3], v[4:5]
v_cmpx_lt_i16 v1, v2
v_cmpx_eq_i16 v1, v2
v_cmpx_le_i16 v1, v2
v_cmpx_gt_i16 v1, v2
v_cmpx_ne_i16 v1, v2
v_cmpx_ge_i16 v1, v2
v_cmpx_lt_u16 v1, v2
v_cmpx_eq_u16 v1, v2
v_cmpx_le_u16 v1, v2
v_cmpx_gt_u16 v1, v2
v_cmpx_ne_u16 v1, v2
v_cmpx_ge_u16 v1, v2
v_cmpx_f_i32 v1, v2
v_cmpx_t_i32 v1, v2
v_cmpx_f_u32 v1, v2
v_cmpx_t_u32 v1, v2
v_cmpx_f_i64 v[2:3], v[4:5]
v_cmpx_lt_i64 v[2:3], v[4:5]
v_cmpx_eq_i64 v[2:3], v[4:5]
v_cmpx_le_i64 v[2:3], v[4:5]
v_cmpx_gt_i64 v[2:3], v[4:5]
v_cmpx_ne_i64 v[2:3], v[4:5]
v_cmpx_ge_i64 v[2:3], v[4:5]
v_cmpx_t_i64 v[2:3], v[4:5]
v_cmpx_f_u64 v[2:3], v[4:5]
v_cmpx_lt_u64 v[2:3], v[4:5]
v_cmpx_eq_u64 v[2:3], v[4:5]
v_cmpx_le_u64 v[2:3], v[4:5]
v_cmpx_gt_u64 v[2:3], v[4:5]
v_cmpx_ne_u64 v[2:3], v[4:5]
v_cmpx_ge_u64 v[2:3], v[4:5]
v_cmpx_t_u64 v[2:3], v[4:5]
v_cmpx_class_f16 v1, v2
v_cmpx_class_f32 v1, v2
v_cmpx_class_f64 v[2:3], v1
v_fma_dx9_zero_f32 v1, v2, v3, v4
v_cubeid_f32 v1, v2, v3, v4
v_cubesc_f32 v1, v2, v3, v4
v_cubetc_f32 v1, v2, v3, v4
v_cubema_f32 v1, v2, v3, v4
v_fma_f64 v[2:3], v[4:5], v[6:7], v[8:9]
v_lerp_u8 v1, v2, v3, v4
v_mullit_f32 v1, v2, v3, v4
v_med3_f32 v1, v2, v3, v4
v_sad_u8 v1, v2, v3, v4
v_sad_hi_u8 v1, v2, v3, v4
v_sad_u16 v1, v2, v3, v4
v_sad_u32 v1, v2, v3, v4
v_cvt_pk_u8_f32 v1, v2, v3, v4
v_div_fixup_f32 v1, v2, v3, v4
v_div_fixup_f64 v[2:3], v[4:5], v[6:7], v[8:9]
v_div_fmas_f32 v1, v2, v3, v4
v_div_fmas_f64 v[2:3], v[4:5], v[6:7], v[8:9]
v_msad_u8 v1, v2, v3, v4
v_qsad_pk_u16_u8 v[2:3], v[4:5], v6, v[8:9]
v_mqsad_pk_u16_u8 v[2:3], v[4:5], v6, v[8:9]
v_mqsad_u32_u8 v[0:3], v[4:5], v6, v[0:3]
v_mad_u16 v1, v2, v3, v4
v_fma_f16 v1, v2, v3, v4
v_min3_f16 v1, v2, v3, v4
v_min3_i16 v1, v2, v3, v4
v_min3_u16 v1, v2, v3, v4
v_max3_f16 v1, v2, v3, v4
v_max3_i16 v1, v2, v3, v4
v_max3_u16 v1, v2, v3, v4
v_med3_f16 v1, v2, v3, v4
v_med3_i16 v1, v2, v3, v4
v_med3_u16 v1, v2, v3, v4
v_mad_i16 v1, v2, v3, v4
v_div_fixup_f16 v1, v2, v3, v4
v_mad_u32_u16 v1, v2, v3, v4
v_mad_i32_i16 v1, v2, v3, v4
v_maxmin_f32 v1, v2, v3, v4
v_minmax_f32 v1, v2, v3, v4
v_maxmin_f16 v1, v2, v3, v4
v_minmax_f16 v1, v2, v3, v4
v_maxmin_u32 v1, v2, v3, v4
v_minmax_u32 v1, v2, v3, v4
v_maxmin_i32 v1, v2, v3, v4
v_minmax_i32 v1, v2, v3, v4
v_div_scale_f32 v1, vcc_lo, v2, v3, v4
v_div_scale_f64 v[2:3], vcc_lo, v[4:5], v[6:7], v[8:9]
v_add_nc_u16 v1, v2, v3
v_sub_nc_u16 v1, v2, v3
v_mul_lo_u16 v1, v2, v3
v_cvt_pk_i16_f32 v1, v2, v3
v_cvt_pk_u16_f32 v1, v2, v3
v_max_u16 v1, v2, v3
v_max_i16 v1, v2, v3
v_min_u16 v1, v2, v3
v_min_i16 v1, v2, v3
v_add_nc_i16 v1, v2, v3
v_sub_nc_i16 v1, v2, v3
v_pack_b32_f16 v1, v2, v3
v_cvt_pk_norm_i16_f16 v1, v2, v3
v_cvt_pk_norm_u16_f16 v1, v2, v3
v_cvt_pk_norm_i16_f32 v1, v2, v3
v_cvt_pk_norm_u16_f32 v1, v2, v3
v_cvt_pk_u16_u32 v1, v2, v3
v_cvt_pk_i16_i32 v1, v2, v3
v_sub_nc_i32 v1, v2, v3
v_add_nc_i32 v1, v2, v3
v_add_f64 v[2:3], v[4:5], v[6:7]
v_mul_f64 v[2:3], v[4:5], v[6:7]
v_min_f64 v[2:3], v[4:5], v[6:7]
v_max_f64 v[2:3], v[4:5], v[6:7]
v_ldexp_f64 v[2:3], v[4:5], v6
v_trig_preop_f64 v[2:3], v[4:5], v6
v_lshlrev_b16 v1, v2, v3
v_lshrrev_b16 v1, v2, v3
v_ashrrev_i16 v1, v2, v3
v_and_b16 v1, v2, v3
v_or_b16 v1, v2, v3
v_xor_b16 v1, v2, v3
v_pk_mad_i16 v1, v2, v3, v4
v_pk_mul_lo_u16 v1, v2, v3
v_pk_add_i16 v1, v2, v3
v_pk_sub_i16 v1, v2, v3
v_pk_lshlrev_b16 v1, v2, v3
v_pk_lshrrev_b16 v1, v2, v3
v_pk_ashrrev_i16 v1, v2, v3
v_pk_max_i16 v1, v2, v3
v_pk_min_i16 v1, v2, v3
v_pk_mad_u16 v1, v2, v3, v4
v_pk_add_u16 v1, v2, v3
v_pk_sub_u16 v1, v2, v3
v_pk_max_u16 v1, v2, v3
v_pk_min_u16 v1, v2, v3
v_pk_fma_f16 v1, v2, v3, v4
v_pk_add_f16 v1, v2, v3
v_pk_mul_f16 v1, v2, v3
v_pk_min_f16 v1, v2, v3
v_pk_max_f16 v1, v2, v3
v_dot2_f32_f16 v1, v2, v3, v4
v_dot4_i32_iu8 v1, v2, v3, v4
v_dot4_u32_u8 v1, v2, v3, v4
v_dot8_i32_iu4 v1, v2, v3, v4
v_dot8_u32_u4 v1, v2, v3, v4
v_dot2_f32_bf16 v1, v2, v3, v4
v_fma_mix_f32 v1, v2, v3, v4
v_fma_mixlo_f16 v1, v2, v3, v4
v_fma_mixhi_f16 v1, v2, v3, v4
v_wmma_f32_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
v_wmma_f32_16x16x16_bf16 v[0:7], v[8:15], v[16:23], v[0:7]
v_wmma_f16_16x16x16_f16 v[0:7], v[8:15], v[16:23], v[0:7]
v_wmma_bf16_16x16x16_bf16 v[0:7], v[8:15], v[16:23], v[0:7]
v_wmma_i32_16x16x16_iu8 v[0:7], v[8:11], v[12:15], v[0:7]
v_wmma_i32_16x16x16_iu4 v[0:7], v[8:9], v[10:11], v[0:7]
v_fmamk_f16 v1, v2, 0x1234, v3
v_fmaak_f16 v1, v2, v3, 0x1234
v_mov_b16 v1.l, v2.l
v_cndmask_b16 v1, v2, v3, vcc_lo
v_dot2_f16_f16 v1, v2, v3, v4
v_dot2_bf16_bf16 v1, v2, v3, v4 op_sel:[0,0,1,1]

// ---- DS (issue 5): add DS forms below this line ----
ds_rsub_u32 v1, v2 offset:8
ds_inc_u32 v1, v2 offset:8
ds_dec_u32 v1, v2 offset:8
ds_mskor_b32 v1, v2, v6 offset:8
ds_cmpstore_b32 v1, v2, v6 offset:8
ds_cmpstore_f32 v1, v2, v6 offset:8
ds_min_f32 v1, v2 offset:8
ds_max_f32 v1, v2 offset:8
ds_nop
ds_add_f32 v1, v2 offset:8
ds_sub_rtn_u32 v10, v1, v2 offset:8
ds_rsub_rtn_u32 v10, v1, v2 offset:8
ds_inc_rtn_u32 v10, v1, v2 offset:8
ds_dec_rtn_u32 v10, v1, v2 offset:8
ds_min_rtn_i32 v10, v1, v2 offset:8
ds_max_rtn_i32 v10, v1, v2 offset:8
ds_min_rtn_u32 v10, v1, v2 offset:8
ds_max_rtn_u32 v10, v1, v2 offset:8
ds_and_rtn_b32 v10, v1, v2 offset:8
ds_or_rtn_b32 v10, v1, v2 offset:8
ds_xor_rtn_b32 v10, v1, v2 offset:8
ds_mskor_rtn_b32 v10, v1, v2, v6 offset:8
ds_storexchg_rtn_b32 v10, v1, v2 offset:8
ds_storexchg_2addr_rtn_b32 v[10:11], v1, v2, v6 offset0:1 offset1:2
ds_storexchg_2addr_stride64_rtn_b32 v[10:11], v1, v2, v6 offset0:1 offset1:2
ds_cmpstore_rtn_b32 v10, v1, v2, v6 offset:8
ds_cmpstore_rtn_f32 v10, v1, v2, v6 offset:8
ds_min_rtn_f32 v10, v1, v2 offset:8
ds_max_rtn_f32 v10, v1, v2 offset:8
ds_wrap_rtn_b32 v10, v1, v2, v6 offset:8
ds_swizzle_b32 v5, v1 offset:swizzle(BITMASK_PERM,"01pip")
ds_swizzle_b32 v5, v1 offset:swizzle(QUAD_PERM,3,2,1,0)
ds_swizzle_b32 v5, v1 offset:0xe01f
ds_swizzle_b32 v5, v1 offset:0xc420
ds_load_i8 v10, v1 offset:8
ds_load_i16 v10, v1 offset:8
ds_consume v10 offset:16
ds_append v10 offset:16
ds_add_u64 v1, v[2:3] offset:8
ds_sub_u64 v1, v[2:3] offset:8
ds_rsub_u64 v1, v[2:3] offset:8
ds_inc_u64 v1, v[2:3] offset:8
ds_dec_u64 v1, v[2:3] offset:8
ds_min_i64 v1, v[2:3] offset:8
ds_max_i64 v1, v[2:3] offset:8
ds_min_u64 v1, v[2:3] offset:8
ds_max_u64 v1, v[2:3] offset:8
ds_and_b64 v1, v[2:3] offset:8
ds_or_b64 v1, v[2:3] offset:8
ds_xor_b64 v1, v[2:3] offset:8
ds_mskor_b64 v1, v[2:3], v[6:7] offset:8
ds_store_2addr_stride64_b64 v1, v[2:3], v[6:7] offset0:1 offset1:2
ds_cmpstore_b64 v1, v[2:3], v[6:7] offset:8
ds_cmpstore_f64 v1, v[2:3], v[6:7] offset:8
ds_min_f64 v1, v[2:3] offset:8
ds_max_f64 v1, v[2:3] offset:8
ds_add_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_sub_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_rsub_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_inc_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_dec_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_min_rtn_i64 v[10:11], v1, v[2:3] offset:8
ds_max_rtn_i64 v[10:11], v1, v[2:3] offset:8
ds_min_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_max_rtn_u64 v[10:11], v1, v[2:3] offset:8
ds_and_rtn_b64 v[10:11], v1, v[2:3] offset:8
ds_or_rtn_b64 v[10:11], v1, v[2:3] offset:8
ds_xor_rtn_b64 v[10:11], v1, v[2:3] offset:8
ds_mskor_rtn_b64 v[10:11], v1, v[2:3], v[6:7] offset:8
ds_storexchg_rtn_b64 v[10:11], v1, v[2:3] offset:8
ds_storexchg_2addr_rtn_b64 v[10:13], v1, v[2:3], v[6:7] offset0:1 offset1:2
ds_storexchg_2addr_stride64_rtn_b64 v[10:13], v1, v[2:3], v[6:7] offset0:1 offset1:2
ds_cmpstore_rtn_b64 v[10:11], v1, v[2:3], v[6:7] offset:8
ds_cmpstore_rtn_f64 v[10:11], v1, v[2:3], v[6:7] offset:8
ds_min_rtn_f64 v[10:11], v1, v[2:3] offset:8
ds_max_rtn_f64 v[10:11], v1, v[2:3] offset:8
ds_load_2addr_stride64_b64 v[10:13], v1 offset0:1 offset1:2
ds_add_rtn_f32 v10, v1, v2 offset:8
ds_condxchg32_rtn_b64 v[10:11], v1, v[2:3] offset:8
ds_store_b8_d16_hi v1, v2 offset:8
ds_store_b16_d16_hi v1, v2 offset:8
ds_load_u8_d16 v10, v1 offset:8
ds_load_u8_d16_hi v10, v1 offset:8
ds_load_i8_d16 v10, v1 offset:8
ds_load_i8_d16_hi v10, v1 offset:8
ds_load_u16_d16 v10, v1 offset:8
ds_load_u16_d16_hi v10, v1 offset:8
ds_store_addtid_b32 v2 offset:8
ds_load_addtid_b32 v10 offset:8
ds_permute_b32 v10, v1, v2 offset:8
ds_bpermute_b32 v10, v1, v2 offset:8
ds_store_b96 v1, v[2:4] offset:8
ds_load_b96 v[10:12], v1 offset:8


// ---- MUBUF and MTBUF (issue 5): add buffer forms below this line ----
buffer_load_format_x v1, v5, s[8:11], 0 offen
buffer_load_format_xy v[1:2], v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_format_xyz v[1:3], v5, s[8:11], 0 offen
buffer_load_format_xyzw v[1:4], v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_store_format_x v1, v5, s[8:11], 0 offen
buffer_store_format_xy v[1:2], v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_store_format_xyz v[1:3], v5, s[8:11], 0 offen
buffer_store_format_xyzw v[1:4], v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_d16_format_x v1, v5, s[8:11], 0 offen
buffer_load_d16_format_xy v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_d16_format_xyz v[1:2], v5, s[8:11], 0 offen
buffer_load_d16_format_xyzw v[1:2], v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_store_d16_format_x v1, v5, s[8:11], 0 offen
buffer_store_d16_format_xy v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_store_d16_format_xyz v[1:2], v5, s[8:11], 0 offen
buffer_store_d16_format_xyzw v[1:2], v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_d16_u8 v1, v5, s[8:11], 0 offen
buffer_load_d16_i8 v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_d16_b16 v1, v5, s[8:11], 0 offen
buffer_load_d16_hi_u8 v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_d16_hi_i8 v1, v5, s[8:11], 0 offen
buffer_load_d16_hi_b16 v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_store_d16_hi_b8 v1, v5, s[8:11], 0 offen
buffer_store_d16_hi_b16 v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_load_d16_hi_format_x v1, v5, s[8:11], 0 offen
buffer_store_d16_hi_format_x v1, v[5:6], s[12:15], s3 idxen offen offset:16 glc
buffer_atomic_swap_b32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_add_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_sub_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_csub_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_min_i32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_min_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_max_i32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_max_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_and_b32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_or_b32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_xor_b32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_inc_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_dec_u32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_min_f32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_max_f32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_add_f32 v1, v5, s[8:11], 0 offen glc
buffer_atomic_cmpswap_b32 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_cmpswap_f32 v[1:2], v[5:6], s[8:11], s3 idxen offen offset:8
buffer_atomic_swap_b64 v[1:2], v5, s[8:11], 0 offen slc
buffer_atomic_add_u64 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_sub_u64 v[1:2], v5, s[8:11], 0 offen slc
buffer_atomic_min_i64 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_min_u64 v[1:2], v5, s[8:11], 0 offen slc
buffer_atomic_max_i64 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_max_u64 v[1:2], v5, s[8:11], 0 offen slc
buffer_atomic_and_b64 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_or_b64 v[1:2], v5, s[8:11], 0 offen slc
buffer_atomic_xor_b64 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_inc_u64 v[1:2], v5, s[8:11], 0 offen slc
buffer_atomic_dec_u64 v[1:2], v5, s[8:11], 0 offen glc
buffer_atomic_cmpswap_b64 v[1:4], v5, s[8:11], 0 offen glc
tbuffer_load_format_x v1, v5, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offen
tbuffer_store_format_x v1, v[5:6], s[8:11], s3 format:[BUF_FMT_32_FLOAT] idxen offen offset:4
tbuffer_load_d16_format_x v1, v5, s[8:11], 0 format:[BUF_FMT_32_FLOAT] idxen
tbuffer_store_d16_format_x v1, off, s[8:11], 0 format:[BUF_FMT_32_FLOAT] offset:12
tbuffer_load_format_xy v[1:2], v5, s[8:11], 0 format:[BUF_FMT_16_16_UNORM] offen
tbuffer_store_format_xy v[1:2], v[5:6], s[8:11], s3 format:[BUF_FMT_16_16_UNORM] idxen offen offset:4
tbuffer_load_d16_format_xy v1, v5, s[8:11], 0 format:[BUF_FMT_16_16_UNORM] idxen
tbuffer_store_d16_format_xy v1, off, s[8:11], 0 format:[BUF_FMT_16_16_UNORM] offset:12
tbuffer_load_format_xyz v[1:3], v5, s[8:11], 0 format:[BUF_FMT_32_32_32_UINT] offen
tbuffer_store_format_xyz v[1:3], v[5:6], s[8:11], s3 format:[BUF_FMT_32_32_32_UINT] idxen offen offset:4
tbuffer_load_d16_format_xyz v[1:2], v5, s[8:11], 0 format:[BUF_FMT_32_32_32_UINT] idxen
tbuffer_store_d16_format_xyz v[1:2], off, s[8:11], 0 format:[BUF_FMT_32_32_32_UINT] offset:12
tbuffer_load_format_xyzw v[1:4], v5, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] offen
tbuffer_store_format_xyzw v[1:4], v[5:6], s[8:11], s3 format:[BUF_FMT_8_8_8_8_SNORM] idxen offen offset:4
tbuffer_load_d16_format_xyzw v[1:2], v5, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] idxen
tbuffer_store_d16_format_xyzw v[1:2], off, s[8:11], 0 format:[BUF_FMT_8_8_8_8_SNORM] offset:12


// ---- FLAT, GLOBAL and SCRATCH (issue 5): add flat forms below this line ----
// The aperture sources LLVM reads to turn LDS and private pointers into flat ones.
s_mov_b64 s[2:3], src_shared_base
s_mov_b64 s[2:3], src_private_base
s_mov_b32 s2, src_shared_limit
s_add_u32 s4, src_private_limit, s5
flat_load_u8 v1, v[2:3] offset:2 glc slc dlc
flat_load_i8 v1, v[2:3] offset:2 glc slc dlc
flat_load_u16 v1, v[2:3] offset:2 glc slc dlc
flat_load_i16 v1, v[2:3] offset:2 glc slc dlc
flat_load_b32 v1, v[2:3] offset:2 glc slc dlc
flat_load_b64 v[1:2], v[2:3] offset:2 glc slc dlc
flat_load_b96 v[1:3], v[2:3] offset:2 glc slc dlc
flat_load_b128 v[1:4], v[2:3] offset:2 glc slc dlc
flat_store_b8 v[2:3], v4 offset:12
flat_store_b16 v[2:3], v4 offset:12
flat_store_b32 v[2:3], v4 offset:12
flat_store_b64 v[2:3], v[4:5] offset:12
flat_store_b96 v[2:3], v[4:6] offset:12
flat_store_b128 v[2:3], v[4:7] offset:12
flat_load_d16_u8 v1, v[2:3] offset:2 glc slc dlc
flat_load_d16_i8 v1, v[2:3] offset:2 glc slc dlc
flat_load_d16_b16 v1, v[2:3] offset:2 glc slc dlc
flat_load_d16_hi_u8 v1, v[2:3] offset:2 glc slc dlc
flat_load_d16_hi_i8 v1, v[2:3] offset:2 glc slc dlc
flat_load_d16_hi_b16 v1, v[2:3] offset:2 glc slc dlc
flat_store_d16_hi_b8 v[2:3], v4 offset:12
flat_store_d16_hi_b16 v[2:3], v4 offset:12
flat_atomic_swap_b32 v[2:3], v4 offset:4095
flat_atomic_swap_b32 v1, v[2:3], v4 glc
flat_atomic_cmpswap_b32 v[2:3], v[4:5] offset:4095
flat_atomic_cmpswap_b32 v1, v[2:3], v[4:5] glc
flat_atomic_add_u32 v[2:3], v4 offset:4095
flat_atomic_add_u32 v1, v[2:3], v4 glc
flat_atomic_sub_u32 v[2:3], v4 offset:4095
flat_atomic_sub_u32 v1, v[2:3], v4 glc
flat_atomic_min_i32 v[2:3], v4 offset:4095
flat_atomic_min_i32 v1, v[2:3], v4 glc
flat_atomic_min_u32 v[2:3], v4 offset:4095
flat_atomic_min_u32 v1, v[2:3], v4 glc
flat_atomic_max_i32 v[2:3], v4 offset:4095
flat_atomic_max_i32 v1, v[2:3], v4 glc
flat_atomic_max_u32 v[2:3], v4 offset:4095
flat_atomic_max_u32 v1, v[2:3], v4 glc
flat_atomic_and_b32 v[2:3], v4 offset:4095
flat_atomic_and_b32 v1, v[2:3], v4 glc
flat_atomic_or_b32 v[2:3], v4 offset:4095
flat_atomic_or_b32 v1, v[2:3], v4 glc
flat_atomic_xor_b32 v[2:3], v4 offset:4095
flat_atomic_xor_b32 v1, v[2:3], v4 glc
flat_atomic_inc_u32 v[2:3], v4 offset:4095
flat_atomic_inc_u32 v1, v[2:3], v4 glc
flat_atomic_dec_u32 v[2:3], v4 offset:4095
flat_atomic_dec_u32 v1, v[2:3], v4 glc
flat_atomic_swap_b64 v[2:3], v[4:5] offset:4095
flat_atomic_swap_b64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_cmpswap_b64 v[2:3], v[4:7] offset:4095
flat_atomic_cmpswap_b64 v[1:2], v[2:3], v[4:7] glc
flat_atomic_add_u64 v[2:3], v[4:5] offset:4095
flat_atomic_add_u64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_sub_u64 v[2:3], v[4:5] offset:4095
flat_atomic_sub_u64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_min_i64 v[2:3], v[4:5] offset:4095
flat_atomic_min_i64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_min_u64 v[2:3], v[4:5] offset:4095
flat_atomic_min_u64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_max_i64 v[2:3], v[4:5] offset:4095
flat_atomic_max_i64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_max_u64 v[2:3], v[4:5] offset:4095
flat_atomic_max_u64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_and_b64 v[2:3], v[4:5] offset:4095
flat_atomic_and_b64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_or_b64 v[2:3], v[4:5] offset:4095
flat_atomic_or_b64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_xor_b64 v[2:3], v[4:5] offset:4095
flat_atomic_xor_b64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_inc_u64 v[2:3], v[4:5] offset:4095
flat_atomic_inc_u64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_dec_u64 v[2:3], v[4:5] offset:4095
flat_atomic_dec_u64 v[1:2], v[2:3], v[4:5] glc
flat_atomic_cmpswap_f32 v[2:3], v[4:5] offset:4095
flat_atomic_cmpswap_f32 v1, v[2:3], v[4:5] glc
flat_atomic_min_f32 v[2:3], v4 offset:4095
flat_atomic_min_f32 v1, v[2:3], v4 glc
flat_atomic_max_f32 v[2:3], v4 offset:4095
flat_atomic_max_f32 v1, v[2:3], v4 glc
flat_atomic_add_f32 v[2:3], v4 offset:4095
flat_atomic_add_f32 v1, v[2:3], v4 glc
global_load_d16_u8 v1, v5, s[2:3] offset:-1
global_load_d16_u8 v1, v[6:7], off offset:2047 glc
global_load_d16_i8 v1, v5, s[2:3] offset:-1
global_load_d16_i8 v1, v[6:7], off offset:2047 glc
global_load_d16_b16 v1, v5, s[2:3] offset:-1
global_load_d16_b16 v1, v[6:7], off offset:2047 glc
global_load_d16_hi_u8 v1, v5, s[2:3] offset:-1
global_load_d16_hi_u8 v1, v[6:7], off offset:2047 glc
global_load_d16_hi_i8 v1, v5, s[2:3] offset:-1
global_load_d16_hi_i8 v1, v[6:7], off offset:2047 glc
global_load_d16_hi_b16 v1, v5, s[2:3] offset:-1
global_load_d16_hi_b16 v1, v[6:7], off offset:2047 glc
global_store_d16_hi_b8 v5, v1, s[2:3] offset:-4096
global_store_d16_hi_b8 v[6:7], v1, off offset:4095
global_store_d16_hi_b16 v5, v1, s[2:3] offset:-4096
global_store_d16_hi_b16 v[6:7], v1, off offset:4095
global_load_addtid_b32 v1, s[2:3] offset:16 glc
global_load_addtid_b32 v1, off
global_store_addtid_b32 v1, s[2:3] offset:-16
global_store_addtid_b32 v1, off offset:8
scratch_load_d16_u8 v1, off, off offset:4095
scratch_load_d16_u8 v1, v5, off offset:-8 glc
scratch_load_d16_u8 v1, off, s3
scratch_load_d16_i8 v1, off, off offset:4095
scratch_load_d16_i8 v1, v5, off offset:-8 glc
scratch_load_d16_i8 v1, off, s3
scratch_load_d16_b16 v1, off, off offset:4095
scratch_load_d16_b16 v1, v5, off offset:-8 glc
scratch_load_d16_b16 v1, off, s3
scratch_load_d16_hi_u8 v1, off, off offset:4095
scratch_load_d16_hi_u8 v1, v5, off offset:-8 glc
scratch_load_d16_hi_u8 v1, off, s3
scratch_load_d16_hi_i8 v1, off, off offset:4095
scratch_load_d16_hi_i8 v1, v5, off offset:-8 glc
scratch_load_d16_hi_i8 v1, off, s3
scratch_load_d16_hi_b16 v1, off, off offset:4095
scratch_load_d16_hi_b16 v1, v5, off offset:-8 glc
scratch_load_d16_hi_b16 v1, off, s3
scratch_store_d16_hi_b8 off, v1, off offset:-4096
scratch_store_d16_hi_b8 v5, v1, s3 offset:8
scratch_store_d16_hi_b8 off, v1, s3
scratch_store_d16_hi_b16 off, v1, off offset:-4096
scratch_store_d16_hi_b16 v5, v1, s3 offset:8
scratch_store_d16_hi_b16 off, v1, s3
scratch_store_b128 off, v[0:3], off offset:48
scratch_load_b32 v0, v0, off
scratch_load_i16 v3, off, s42 offset:2
scratch_store_b64 v5, v[1:2], s3 offset:-2


// ---- Wave state and program flow (issue 5): add forms below this line ----
s_waitcnt vmcnt(1) expcnt(2) lgkmcnt(3)
s_waitcnt_vscnt null, 0x3f
s_wait_idle
s_clause 0x203
s_sendmsg sendmsg(MSG_INTERRUPT)
s_sendmsg sendmsg(MSG_HS_TESSFACTOR)
s_sendmsg sendmsg(MSG_STALL_WAVE_GEN)
s_sendmsg sendmsg(MSG_HALT_WAVES)
s_sendmsg sendmsg(MSG_GS_ALLOC_REQ)
s_sendmsghalt sendmsg(MSG_DEALLOC_VGPRS)
s_sendmsg_rtn_b32 s1, sendmsg(MSG_RTN_GET_DOORBELL)
s_sendmsg_rtn_b32 s1, sendmsg(MSG_RTN_GET_DDID)
s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TMA)
s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TBA)
s_sendmsg_rtn_b32 s1, sendmsg(MSG_RTN_SAVE_WAVE)
s_sendmsg_rtn_b64 s[2:3], sendmsg(MSG_RTN_GET_TBA_TO_PC)
s_getreg_b32 s1, hwreg(HW_REG_HW_ID1)
s_getreg_b32 s1, hwreg(HW_REG_HW_ID2)
s_getreg_b32 s1, hwreg(HW_REG_GPR_ALLOC)
s_getreg_b32 s1, hwreg(HW_REG_LDS_ALLOC)
s_getreg_b32 s1, hwreg(HW_REG_IB_STS)
s_getreg_b32 s1, hwreg(HW_REG_SH_MEM_BASES)
s_getreg_b32 s1, hwreg(HW_REG_SHADER_CYCLES, 0, 20)
s_getreg_b32 s1, hwreg(HW_REG_PERF_SNAPSHOT_DATA)
s_getreg_b32 s1, hwreg(HW_REG_PERF_SNAPSHOT_PC_LO)
s_getreg_b32 s1, hwreg(HW_REG_PERF_SNAPSHOT_PC_HI)


// ---- end of the issue 5 sections ----
image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_load v[0:3], [v0, v1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load_mip v[0:3], [v0, v1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_store v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_load_mip v[0:3], [v0, v1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_store_mip v[0:3], [v4, v5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_get_resinfo v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D
image_msaa_load v[0:3], v[4:6], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
image_msaa_load v[0:3], [v4, v5, v6, v7], s[0:7] dmask:0x4 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY
image_sample_d_g16 v[0:3], v[4:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_d_g16 v0, v[4:6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_1D
image_sample_c_d_g16 v0, [v4, v5, v6, v7, v8], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_sample_d_o_g16 v[0:1], v[4:8], s[0:7], s[8:11] dmask:0x3 dim:SQ_RSRC_IMG_2D
image_sample_c_d_o_g16 v0, v[4:9], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_sample_c_d_cl_g16 v0, v[4:12], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_3D
image_sample_d_cl_o_g16 v[0:3], v[4:8], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_1D
image_sample_c_d_cl_o_g16 v0, v[4:11], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_CUBE
image_sample_d_cl_g16 v[0:3], v[4:9], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY
image_bvh_intersect_ray v[4:7], [v9, v10, v[11:13], v[14:16], v[17:19]], s[4:7]
image_bvh_intersect_ray v[0:3], v[10:20], s[4:7]
image_bvh_intersect_ray v[0:3], v[10:17], s[8:11] a16
image_bvh64_intersect_ray v[0:3], v[10:21], s[4:7]
image_bvh64_intersect_ray v[0:3], [v[10:11], v12, v[13:15], v[30:32]], s[4:7] a16
image_msaa_load v[0:1], v[4:6], s[0:7] dmask:0x2 dim:SQ_RSRC_IMG_2D_MSAA d16
image_load v4, v[0:2], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
image_store v[4:7], v[0:3], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA_ARRAY
image_load v[4:5], [v0, v2, v7], s[8:15] dmask:0x9 dim:SQ_RSRC_IMG_2D_ARRAY glc
image_load v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D a16
image_load v[0:4], [v0, v1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D tfe
image_load_mip v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D a16
image_store v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D a16
image_atomic_add v1, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D glc
image_load_mip v[0:3], [v0, v1], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D lwe
image_store_mip v[0:3], v4, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D a16
image_get_resinfo v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D a16
image_atomic_swap v1, v0, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D glc
image_atomic_cmpswap v[0:1], v2, s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_1D glc
image_atomic_sub v1, [v2, v3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_atomic_smin v[4:5], v[2:3], s[8:15] dmask:0x3 dim:SQ_RSRC_IMG_2D glc
image_atomic_umin v1, v[2:4], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY slc
image_atomic_smax v1, v2, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D glc a16
image_atomic_umax v[4:5], [v2, v3, v7], s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_3D
image_atomic_and v1, v[2:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D_ARRAY glc
image_atomic_or v1, [v2, v5, v6], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_CUBE
image_atomic_xor v1, v[2:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D glc dlc
image_atomic_inc v1, v2, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D glc
image_atomic_dec v[6:7], v2, s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_1D glc
image_atomic_cmpswap v[4:7], v[2:3], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D glc
image_sample v[0:3], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_d v[0:3], v[0:5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_l v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_b v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz v[0:3], v[0:1], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_d v[0:3], v[0:6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_l v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_b v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_lz v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_o v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_d_o v[0:3], v[0:6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_l_o v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_b_o v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_lz_o v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_o v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_d_o v[0:3], v[0:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_l_o v[0:3], v[0:4], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_b_o v[0:3], v[0:4], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_lz_o v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_gather4 v[0:3], v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_l v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_b v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_lz v[0:3], v[0:1], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_lz v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_o v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_lz_o v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_lz_o v[0:3], v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_get_lod v[0:1], v[0:1], s[0:7], s[8:11] dmask:0x3 dim:SQ_RSRC_IMG_2D
image_sample_cl v[0:3], v[0:2], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_d_cl v[0:3], v[0:6], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_b_cl v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_cl v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_d_cl v[0:3], v[0:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_b_cl v[0:3], v[0:4], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_cl_o v[0:3], v[0:3], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_d_cl_o v[0:3], v[0:7], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_b_cl_o v[0:3], v[0:4], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_cl_o v[0:3], v[0:4], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_d_cl_o v[0:3], v[0:8], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_sample_c_b_cl_o v[0:3], v[0:5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D
image_gather4_cl v[0:3], v[0:2], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_b_cl v[0:3], v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_cl v[0:3], v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_l v[0:3], v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_b v[0:3], v[0:3], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_b_cl v[0:3], v[0:4], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_sample_lz v[4:5], [v0, v2], s[0:7], s[12:15] dmask:0x7 dim:SQ_RSRC_IMG_2D d16
image_sample_c_l_o v7, [v0, v1, v2, v3, v9], s[4:11], s[16:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_gather4_c_lz v[0:1], [v4, v5, v6], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D d16
