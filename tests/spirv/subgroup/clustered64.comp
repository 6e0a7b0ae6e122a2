// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
// A cluster of 64: needs a subgroup of 64 (the cluster size may not exceed it).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    r[i * 2u] = subgroupClusteredAdd(a[i], 64u);
    r[i * 2u + 1u] = subgroupClusteredMax(a[i], 32u);
}
