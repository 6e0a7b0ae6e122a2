// target-env: spirv1.5
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
// Clustered add for every cluster size up to 32.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 6u;
    r[o + 0u] = subgroupClusteredAdd(x, 1u);
    r[o + 1u] = subgroupClusteredAdd(x, 2u);
    r[o + 2u] = subgroupClusteredAdd(x, 4u);
    r[o + 3u] = subgroupClusteredAdd(x, 8u);
    r[o + 4u] = subgroupClusteredAdd(x, 16u);
    r[o + 5u] = subgroupClusteredAdd(x, 32u);
}
