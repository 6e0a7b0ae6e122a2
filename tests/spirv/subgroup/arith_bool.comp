// target-env: spirv1.3
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
// Logical and / or / xor of booleans and boolean vectors.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    bool p = (a[i] & 1u) != 0u;
    bvec2 q = bvec2((a[i] & 2u) != 0u, (a[i] & 4u) != 0u);
    uint o = i * 11u;
    r[o + 0u] = uint(subgroupAnd(p)); r[o + 1u] = uint(subgroupInclusiveAnd(p)); r[o + 2u] = uint(subgroupExclusiveAnd(p));
    r[o + 3u] = uint(subgroupOr(p)); r[o + 4u] = uint(subgroupInclusiveOr(p)); r[o + 5u] = uint(subgroupExclusiveOr(p));
    r[o + 6u] = uint(subgroupXor(p)); r[o + 7u] = uint(subgroupInclusiveXor(p)); r[o + 8u] = uint(subgroupExclusiveXor(p));
    uvec2 x = uvec2(subgroupInclusiveXor(q));
    r[o + 9u] = x.x; r[o + 10u] = x.y;
}
