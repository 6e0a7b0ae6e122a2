// target-env: vulkan1.3
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
// Clustered reductions of the other operations, some under divergence.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    uint o = i * 8u;
    r[o + 0u] = subgroupClusteredMin(x, 4u);
    r[o + 1u] = int(subgroupClusteredMax(uint(x), 8u));
    r[o + 2u] = subgroupClusteredAnd(x, 2u);
    r[o + 3u] = subgroupClusteredOr(x, 16u);
    r[o + 4u] = subgroupClusteredXor(x, 4u);
    r[o + 5u] = subgroupClusteredMul(x, 8u);
    r[o + 6u] = int(subgroupClusteredAdd(float(x & 255), 4u));
    r[o + 7u] = 0xdead;
    if ((x & 1) == 0) {
        r[o + 7u] = subgroupClusteredAdd(x, 8u);
    }
}
