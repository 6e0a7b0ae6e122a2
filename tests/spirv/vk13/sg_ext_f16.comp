// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// shaderSubgroupExtendedTypes: arithmetic, broadcast, shuffle and quad
// operations on float16_t; small inputs, results widened for the output (the files
// sg_ext_i8/i16/i64/f16/f64 share one text but for the type).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, id = gl_SubgroupInvocationID, sz = gl_SubgroupSize;
    float16_t x = float16_t(a[i]);
    float16_t up = subgroupShuffleUp(x, 1u);
    float16_t down = subgroupShuffleDown(x, 2u);
    uint o = i * 16u;
    r[o + 0u] = float(subgroupAdd(x));
    r[o + 1u] = float(subgroupInclusiveAdd(x));
    r[o + 2u] = float(subgroupExclusiveMin(x));
    r[o + 3u] = float(subgroupMax(x));
    r[o + 4u] = float(subgroupExclusiveMax(x));
    r[o + 5u] = float(subgroupInclusiveMax(x));
    r[o + 6u] = float(subgroupExclusiveAdd(x));
    r[o + 7u] = float(subgroupMin(x));
    r[o + 8u] = float(subgroupBroadcast(x, 5u));
    r[o + 9u] = float(subgroupBroadcastFirst(x));
    r[o + 10u] = float(subgroupShuffle(x, (id * 3u + 1u) % sz));
    r[o + 11u] = float(subgroupShuffleXor(x, 1u));
    r[o + 12u] = float(id >= 1u ? up : float16_t(0));
    r[o + 13u] = float(id + 2u < sz ? down : float16_t(0));
    r[o + 14u] = float(subgroupInclusiveMin(x));
    r[o + 15u] = float(subgroupQuadSwapHorizontal(x));
}
