// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// shaderSubgroupExtendedTypes: arithmetic, broadcast, shuffle and quad
// operations on int64_t; small inputs, results widened for the output (the files
// sg_ext_i8/i16/i64/f16/f64 share one text but for the type).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int64_t r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, id = gl_SubgroupInvocationID, sz = gl_SubgroupSize;
    int64_t x = int64_t(a[i]);
    int64_t up = subgroupShuffleUp(x, 1u);
    int64_t down = subgroupShuffleDown(x, 2u);
    uint o = i * 16u;
    r[o + 0u] = int64_t(subgroupAdd(x));
    r[o + 1u] = int64_t(subgroupInclusiveMul(x));
    r[o + 2u] = int64_t(subgroupExclusiveMin(x));
    r[o + 3u] = int64_t(subgroupMax(x));
    r[o + 4u] = int64_t(subgroupAnd(x));
    r[o + 5u] = int64_t(subgroupInclusiveOr(x));
    r[o + 6u] = int64_t(subgroupExclusiveXor(x));
    r[o + 7u] = int64_t(int64_t(subgroupMin(uint64_t(x))));
    r[o + 8u] = int64_t(subgroupBroadcast(x, 5u));
    r[o + 9u] = int64_t(subgroupBroadcastFirst(x));
    r[o + 10u] = int64_t(subgroupShuffle(x, (id * 3u + 1u) % sz));
    r[o + 11u] = int64_t(subgroupShuffleXor(x, 1u));
    r[o + 12u] = int64_t(id >= 1u ? up : int64_t(0));
    r[o + 13u] = int64_t(id + 2u < sz ? down : int64_t(0));
    r[o + 14u] = int64_t(subgroupInclusiveMin(x));
    r[o + 15u] = int64_t(subgroupQuadSwapHorizontal(x));
}
