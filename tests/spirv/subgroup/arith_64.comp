// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
// 64-bit integers and doubles.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int64_t a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int64_t r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = a[i];
    uint o = i * 6u;
    r[o + 0u] = subgroupAdd(x);
    r[o + 1u] = subgroupInclusiveMin(x);
    r[o + 2u] = int64_t(subgroupExclusiveMax(uint64_t(x)));
    r[o + 3u] = subgroupInclusiveXor(x);
    double d = double(x >> 40);
    r[o + 4u] = int64_t(subgroupInclusiveAdd(d));
    r[o + 5u] = int64_t(subgroupMax(d));
}
