// target-env: vulkan1.1
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Every signed integer operation, as reduction and inclusive / exclusive scans.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    uint o = i * 21u;
    r[o + 0u] = subgroupAdd(x); r[o + 1u] = subgroupInclusiveAdd(x); r[o + 2u] = subgroupExclusiveAdd(x);
    r[o + 3u] = subgroupMul(x); r[o + 4u] = subgroupInclusiveMul(x); r[o + 5u] = subgroupExclusiveMul(x);
    r[o + 6u] = subgroupMin(x); r[o + 7u] = subgroupInclusiveMin(x); r[o + 8u] = subgroupExclusiveMin(x);
    r[o + 9u] = subgroupMax(x); r[o + 10u] = subgroupInclusiveMax(x); r[o + 11u] = subgroupExclusiveMax(x);
    r[o + 12u] = subgroupAnd(x); r[o + 13u] = subgroupInclusiveAnd(x); r[o + 14u] = subgroupExclusiveAnd(x);
    r[o + 15u] = subgroupOr(x); r[o + 16u] = subgroupInclusiveOr(x); r[o + 17u] = subgroupExclusiveOr(x);
    r[o + 18u] = subgroupXor(x); r[o + 19u] = subgroupInclusiveXor(x); r[o + 20u] = subgroupExclusiveXor(x);
}
