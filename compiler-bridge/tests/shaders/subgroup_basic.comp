#version 450
#extension GL_KHR_shader_subgroup_basic : require
// Every feature of the subgroup "basic" category: the four built-ins, subgroupElect in
// uniform and divergent control flow (also inside a called function), and the subgroup
// barriers. 10 x 9 = 90 invocations: the third wave is partial.
layout(local_size_x = 10, local_size_y = 9) in;

layout(set = 0, binding = 0, std430) buffer Out { uint data[]; };

shared uint leader[96];

uint elect_in(uint lane) {
    // A function of its own in the SPIR-V: the lowering's LLVM function for it is
    // `convergent` until it is inlined into the kernel.
    return (lane % 3u == 2u && subgroupElect()) ? 1u : 0u;
}

void main() {
    uint i = gl_LocalInvocationIndex * 8u;
    data[i + 0u] = gl_SubgroupSize;
    data[i + 1u] = gl_SubgroupInvocationID;
    data[i + 2u] = gl_SubgroupID;
    data[i + 3u] = gl_NumSubgroups;
    data[i + 4u] = subgroupElect() ? 1u : 0u;
    if (subgroupElect()) {
        leader[gl_SubgroupID] = gl_LocalInvocationIndex;
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    data[i + 5u] = leader[gl_SubgroupID];
    subgroupMemoryBarrier();
    if (gl_SubgroupInvocationID >= 5u) {
        data[i + 6u] = subgroupElect() ? 1u : 0u;
    }
    data[i + 7u] = elect_in(gl_SubgroupInvocationID);
}
