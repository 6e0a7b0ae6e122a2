// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Only active invocations take part: every third lane is off, and the lanes of one branch
// never see the other branch's.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 4u;
    if (gl_SubgroupInvocationID % 3u != 0u) {
        r[o + 0u] = subgroupAdd(x);
        r[o + 1u] = subgroupInclusiveAdd(x);
        r[o + 2u] = subgroupExclusiveMin(x);
        r[o + 3u] = subgroupMax(x);
    } else if (x % 2u == 0u) {
        r[o + 0u] = subgroupAdd(x);
        r[o + 1u] = subgroupExclusiveAdd(x);
        r[o + 2u] = subgroupInclusiveMin(x);
        r[o + 3u] = subgroupOr(x);
    } else {
        r[o + 0u] = 0xdeadu; r[o + 1u] = 0xdeadu; r[o + 2u] = 0xdeadu; r[o + 3u] = 0xdeadu;
    }
}
