// target-env: vulkan1.1
#version 450
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// Three-component 16-bit vectors across lanes (the CTS's subgroups.*.compute.*16vec3):
// LLVM 19 cannot select readlane on 48-bit values, so they cross lanes as <3 x i32>.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer A { i16vec3 a[64]; f16vec3 h[64]; };
layout(set = 0, binding = 1, std430) buffer O { i16vec3 s[64]; i16vec3 f[64]; f16vec3 hs[64]; f16vec3 hf[64]; uint eq[64]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    s[i] = subgroupAdd(a[i]);
    f[i] = subgroupBroadcastFirst(a[i]);
    hs[i] = subgroupInclusiveAdd(h[i]);
    hf[i] = subgroupBroadcast(h[i], 1u);
    eq[i] = uint(subgroupAllEqual(a[i] * int16_t(0))) | uint(subgroupAllEqual(h[i])) << 1;
}
