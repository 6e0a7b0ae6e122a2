// target-env: vulkan1.3
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// 64-bit values through shuffles and broadcasts (two dwords each).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint64_t a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint64_t r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t x = a[i];
    uint s = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    r[i * 4u] = subgroupShuffle(x, (lane + 5u) % s);
    r[i * 4u + 1u] = subgroupShuffleXor(x, s / 2u);
    r[i * 4u + 2u] = subgroupBroadcast(x, 1u);
    r[i * 4u + 3u] = uint64_t(subgroupShuffle(double(x >> 20), lane ^ 1u));
}
