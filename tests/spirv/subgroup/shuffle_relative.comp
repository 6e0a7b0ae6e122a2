// target-env: spirv1.6
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require
// Shuffle up / down; results from lanes outside the subgroup are undefined, so not kept.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint s = gl_SubgroupSize;
    uint lane = gl_SubgroupInvocationID;
    uint o = i * 8u;
    uint d[4] = uint[4](1u, 3u, 16u, 33u);
    for (uint k = 0u; k < 4u; k++) {
        uint up = subgroupShuffleUp(x, d[k]);
        uint down = subgroupShuffleDown(x, d[k]);
        r[o + 2u * k] = lane >= d[k] ? up : 0xdeadu;
        r[o + 2u * k + 1u] = lane + d[k] < s ? down : 0xdeadu;
    }
}
