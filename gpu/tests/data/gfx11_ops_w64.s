// Lane-mask operands in wave64: VCC and SGPR pairs.
v_cndmask_b32 v1, v2, v3, vcc
v_cndmask_b32_e64 v1, v2, v3, s[4:5]
v_cndmask_b32_e64 v1, 0, -1, vcc
v_add_co_ci_u32 v1, vcc, v2, v3, vcc
v_add_co_ci_u32_e64 v1, s[4:5], v2, v3, s[6:7]
v_sub_co_ci_u32 v1, vcc, s2, v3, vcc
v_subrev_co_ci_u32_e64 v1, null, v2, 0, s[6:7]
v_add_co_u32 v1, vcc, v2, v3
v_add_co_u32 v1, s[4:5], s2, v3
v_sub_co_u32 v1, s[4:5], v2, 0x1234
v_subrev_co_u32 v1, null, v2, v3
v_mad_u64_u32 v[1:2], s[4:5], v3, v4, v[5:6]
v_mad_i64_i32 v[1:2], null, v3, v4, v[5:6]
v_cmp_lt_f32 vcc, v1, v2
v_cmp_lt_f32_e64 s[4:5], v1, v2
v_cmp_eq_u32 vcc, 0x1234, v2
v_cmp_ne_i32_e64 vcc, s4, v2
v_cmp_ge_u32_e64 s[100:101], -1, v2
v_cmpx_gt_u32 v1, v2
v_cmpx_nlt_f32_e64 v1, -v2
s_and_saveexec_b64 s[4:5], vcc
s_or_saveexec_b64 s[4:5], s[6:7]
s_mov_b64 exec, vcc
s_and_b64 exec, exec, s[4:5]
s_cbranch_vccz 3
v_readfirstlane_b32 s4, v1
v_mbcnt_hi_u32_b32 v1, -1, v1
v_readlane_b32 s4, v1, 63
