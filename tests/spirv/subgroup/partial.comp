// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_KHR_shader_subgroup_vote : require
// 40 invocations: the last subgroup is partial (its missing lanes are inactive).
layout(local_size_x = 40) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 8u;
    r[o + 0u] = subgroupAdd(x);
    r[o + 1u] = subgroupExclusiveAdd(x);
    r[o + 2u] = subgroupMin(x);
    r[o + 3u] = subgroupBallotBitCount(subgroupBallot(true));
    r[o + 4u] = subgroupBallotFindMSB(subgroupBallot(true));
    r[o + 5u] = uint(subgroupAll(x != 12345u));
    r[o + 6u] = gl_NumSubgroups;
    r[o + 7u] = gl_SubgroupID;
}
