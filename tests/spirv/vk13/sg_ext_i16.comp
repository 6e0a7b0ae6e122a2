// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
// shaderSubgroupExtendedTypes: arithmetic, broadcast, shuffle and quad
// operations on int16_t; small inputs, results widened for the output (the files
// sg_ext_i8/i16/i64/f16/f64 share one text but for the type).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, id = gl_SubgroupInvocationID, sz = gl_SubgroupSize;
    int16_t x = int16_t(a[i]);
    int16_t up = subgroupShuffleUp(x, 1u);
    int16_t down = subgroupShuffleDown(x, 2u);
    uint o = i * 16u;
    r[o + 0u] = int(subgroupAdd(x));
    r[o + 1u] = int(subgroupInclusiveMul(x));
    r[o + 2u] = int(subgroupExclusiveMin(x));
    r[o + 3u] = int(subgroupMax(x));
    r[o + 4u] = int(subgroupAnd(x));
    r[o + 5u] = int(subgroupInclusiveOr(x));
    r[o + 6u] = int(subgroupExclusiveXor(x));
    r[o + 7u] = int(int16_t(subgroupMin(uint16_t(x))));
    r[o + 8u] = int(subgroupBroadcast(x, 5u));
    r[o + 9u] = int(subgroupBroadcastFirst(x));
    r[o + 10u] = int(subgroupShuffle(x, (id * 3u + 1u) % sz));
    r[o + 11u] = int(subgroupShuffleXor(x, 1u));
    r[o + 12u] = int(id >= 1u ? up : int16_t(0));
    r[o + 13u] = int(id + 2u < sz ? down : int16_t(0));
    r[o + 14u] = int(subgroupInclusiveMin(x));
    r[o + 15u] = int(subgroupQuadSwapHorizontal(x));
}
