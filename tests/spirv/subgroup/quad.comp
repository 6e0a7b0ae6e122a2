// target-env: vulkan1.1
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_quad : require
// Quad broadcasts from each lane of the quad, and the three quad swaps.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 8u;
    r[o + 0u] = subgroupQuadBroadcast(x, 0u);
    r[o + 1u] = subgroupQuadBroadcast(x, 1u);
    r[o + 2u] = subgroupQuadBroadcast(x, 2u);
    r[o + 3u] = subgroupQuadBroadcast(ivec2(x, 0), 3u).x;
    r[o + 4u] = subgroupQuadSwapHorizontal(x);
    r[o + 5u] = subgroupQuadSwapVertical(x);
    r[o + 6u] = floatBitsToUint(subgroupQuadSwapDiagonal(uintBitsToFloat((x & 0x3fffffffu) | 0x00800000u)));
    r[o + 7u] = uint(subgroupQuadSwapHorizontal((x & 1u) != 0u));
}
