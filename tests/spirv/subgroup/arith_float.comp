// target-env: vulkan1.3
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Float add / mul / min / max; inputs whose sums and products are exact in any order.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { float a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { float r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    uint o = i * 12u;
    r[o + 0u] = subgroupAdd(x); r[o + 1u] = subgroupInclusiveAdd(x); r[o + 2u] = subgroupExclusiveAdd(x);
    r[o + 3u] = subgroupMul(x); r[o + 4u] = subgroupInclusiveMul(x); r[o + 5u] = subgroupExclusiveMul(x);
    r[o + 6u] = subgroupMin(x); r[o + 7u] = subgroupInclusiveMin(x); r[o + 8u] = subgroupExclusiveMin(x);
    r[o + 9u] = subgroupMax(x); r[o + 10u] = subgroupInclusiveMax(x); r[o + 11u] = subgroupExclusiveMax(x);
}
