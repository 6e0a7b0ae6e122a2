// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle : require
// Shuffle from any lane, and xor shuffles by every power of two (across the wave64 halves).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint s = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint o = i * 10u;
    r[o + 0u] = subgroupShuffle(x, (lane * 7u + 3u) % s);
    r[o + 1u] = subgroupShuffle(x, s - 1u - lane);
    vec2 f = subgroupShuffle(vec2(float(x & 0xffu), -1.5), (lane + s / 2u) % s);
    r[o + 2u] = uint(f.x) + uint(f.y == -1.5) * 1000u;
    r[o + 3u] = uint(subgroupShuffle((x & 1u) != 0u, x % s));
    for (uint k = 0u; k < 6u; k++) {
        uint m = 1u << k;
        r[o + 4u + k] = m < s ? subgroupShuffleXor(x, m) : 0xdeadu;
    }
}
