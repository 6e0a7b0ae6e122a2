// target-env: vulkan1.1
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_vote : require
// all / any / allEqual of bools, ints, floats and vectors, in uniform
// and divergent control flow.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 8u;
    r[o + 0u] = uint(subgroupAll(x < 1000u));
    r[o + 1u] = uint(subgroupAny(x == 7u));
    r[o + 2u] = uint(subgroupAllEqual(x / 1000u));
    // A float compare: -0.0 equals 0.0. (NaN, which equals nothing, is left out: lavapipe
    // calls a NaN equal.)
    r[o + 3u] = uint(subgroupAllEqual(uintBitsToFloat(x / 1000u == 5u ? 0x80000000u : 0u)) && subgroupAllEqual(float(x / 2000u)));
    r[o + 4u] = uint(subgroupAllEqual(uvec2(x / 2000u, 1u)));
    r[o + 5u] = uint(subgroupAllEqual(x > 2500u));
    r[o + 6u] = 0xdeadu; r[o + 7u] = 0xdeadu;
    if (gl_SubgroupInvocationID % 3u != 0u) {
        r[o + 6u] = uint(subgroupAll(x % 3u != 0u)) | uint(subgroupAny(x % 3u == 0u)) << 1;
        r[o + 7u] = uint(subgroupAllEqual(x % 3u));
    }
}
