// Instructions softnavi does not execute: decoding must reject them (an illegal
// instruction when executed) and know their length, so that decoding goes on after them.
v_movrels_b32_dpp v1, v2 quad_perm:[1,0,3,2] row_mask:0xf bank_mask:0xf
v_movreld_b32_dpp v1, v2 dpp8:[7,6,5,4,3,2,1,0]
.long 0x7e0202fa, 0xff013002 // v_mov_b32_dpp v1, v2 with dpp_ctrl 0x130 (GFX9 wave_shl:1)
.long 0x7e0202fa, 0xff014302 // v_mov_b32_dpp v1, v2 with dpp_ctrl 0x143 (GFX9 row_bcast:31)
image_gather4h v[0:3], [v4, v5], s[0:7], s[8:11] dmask:0x2 dim:SQ_RSRC_IMG_2D
exp mrt0 v0, v0, v0, v0 done
ds_add_u32 v1, v2 gds
v_interp_p10_f32 v0, v1, v2, v3
lds_param_load v1, attr0.x
lds_direct_load v1
ds_bvh_stack_rtn_b32 v5, v6, v7, v[8:11]
s_subvector_loop_begin s4, 16
s_subvector_loop_end s4, 16
buffer_load_lds_b32 v1, s[4:7], 0 offen
buffer_load_lds_u8 off, s[4:7], s3 offset:16
buffer_load_lds_format_x v1, s[8:11], 0 idxen
exp pos0 v0, v1, v2, v3
ds_gws_init v1 offset:16 gds
ds_ordered_count v1, v2 offset:4 gds
ds_add_gs_reg_rtn v[2:3], v1 offset:8 gds
ds_bvh_stack_rtn_b32 v1, v2, v3, v[4:7] offset:4
ds_store_b32 v1, v2 gds
// More MIMG forms (in place of the FLAT lines and the aperture sources, now executed):
image_sample_l v0, [v4, v5, v6, v7], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
image_load v4, v[0:1], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D r128
image_load_mip v4, v[0:3], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
image_load_pck v[0:3], v[4:5], s[0:7] dmask:0xf dim:SQ_RSRC_IMG_2D
image_load_mip_pck_sgn v0, v[4:6], s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_2D
image_store_pck v[0:1], v4, s[0:7] dmask:0x3 dim:SQ_RSRC_IMG_1D
image_store v[0:1], v4, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D tfe
image_atomic_add v[0:1], v4, s[0:7] dmask:0x1 dim:SQ_RSRC_IMG_1D glc tfe
image_sample_lz v[0:3], [v4, v5], s[0:7], s[8:11] dmask:0xf dim:SQ_RSRC_IMG_2D lwe
image_gather4 v[0:4], [v4, v5], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D tfe
image_gather4h v[0:3], [v4, v5], s[0:7], s[8:11] dmask:0x1 dim:SQ_RSRC_IMG_2D
// src_lds_direct, which the assembler refuses in these slots, as raw words:
// v_bfe_u32 v230, s0, src_lds_direct, s7; s_sub_i32 ttmp4, src_lds_direct, src_lds_direct;
// buffer_load_d16_hi_i8 v0, off, s[0:3], src_lds_direct
.long 0xd61000e6, 0x001dfc00
.long 0x81f0fefe
.long 0xe08b0000, 0xfe000000
// VALU scalar destinations holding a constant, a literal, or src_lds_direct (LLVM prints
// them with "Invalid immediate/register" comments): v_cmp_lt_f32_e64 0, v0, s0;
// v_cmp_lt_f32_e64 0x12345678, v0, s0; v_readlane_b32 -1, v0, s0;
// v_readfirstlane_b32 src_lds_direct, v0
.long 0xd4110080, 0x00000100
.long 0xd41100ff, 0x00000100, 0x12345678
.long 0xd76000c1, 0x00000100
.long 0x7ffc0500
