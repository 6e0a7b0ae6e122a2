// target-env: spirv1.4
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Vector operands: each component is its own reduction.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { ivec4 a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { ivec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i];
    uint o = i * 5u;
    r[o + 0u] = subgroupAdd(x);
    r[o + 1u] = ivec4(subgroupInclusiveMin(x.xyz), 0);
    r[o + 2u] = ivec4(uvec2(subgroupExclusiveMax(uvec2(x.zw))), 0, 0);
    r[o + 3u] = ivec4(subgroupInclusiveAdd(vec3(x.xyz & 15)), 0);
    r[o + 4u] = subgroupXor(x);
}
