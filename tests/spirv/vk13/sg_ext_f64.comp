// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
#extension GL_KHR_shader_subgroup_quad : require
// shaderSubgroupExtendedTypes: arithmetic, broadcast, shuffle and quad
// operations on double; small inputs, results widened for the output (the files
// sg_ext_i8/i16/i64/f16/f64 share one text but for the type).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { double r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, id = gl_SubgroupInvocationID, sz = gl_SubgroupSize;
    double x = double(a[i]);
    double up = subgroupShuffleUp(x, 1u);
    double down = subgroupShuffleDown(x, 2u);
    uint o = i * 16u;
    r[o + 0u] = double(subgroupAdd(x));
    r[o + 1u] = double(subgroupInclusiveAdd(x));
    r[o + 2u] = double(subgroupExclusiveMin(x));
    r[o + 3u] = double(subgroupMax(x));
    r[o + 4u] = double(subgroupExclusiveMax(x));
    r[o + 5u] = double(subgroupInclusiveMax(x));
    r[o + 6u] = double(subgroupExclusiveAdd(x));
    r[o + 7u] = double(subgroupMin(x));
    r[o + 8u] = double(subgroupBroadcast(x, 5u));
    r[o + 9u] = double(subgroupBroadcastFirst(x));
    r[o + 10u] = double(subgroupShuffle(x, (id * 3u + 1u) % sz));
    r[o + 11u] = double(subgroupShuffleXor(x, 1u));
    r[o + 12u] = double(id >= 1u ? up : double(0));
    r[o + 13u] = double(id + 2u < sz ? down : double(0));
    r[o + 14u] = double(subgroupInclusiveMin(x));
    r[o + 15u] = double(subgroupQuadSwapHorizontal(x));
}
