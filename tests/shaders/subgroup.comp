#version 450
#extension GL_KHR_shader_subgroup_basic : require
// The subgroup "basic" category, checked on the host by the probe's `subgroup` scenario.
// Workgroups of 80 invocations: not a multiple of 32, so softnavi's last subgroup (wave) is
// partial, 16 lanes. (80 is a multiple of lavapipe's 8: Mesa 22.3's lavapipe rounds
// gl_NumSubgroups down, 11 for 90 invocations in subgroups of 8, where Vulkan needs 12.)
// Each invocation writes 8 words at slot gl_WorkGroupID.x * 80 + gl_LocalInvocationIndex:
//   [0] gl_SubgroupSize        [1] gl_SubgroupInvocationID   [2] gl_SubgroupID
//   [3] gl_NumSubgroups        [4] subgroupElect() with the whole subgroup active
//   [5] gl_LocalInvocationIndex of its subgroup's elected invocation, passed through
//       shared memory with subgroupMemoryBarrierShared() + subgroupBarrier()
//   [6] subgroupElect() among the invocations whose gl_SubgroupInvocationID % 3 == 2
//       only (the others leave the word as the host filled it)
//   [7] gl_LocalInvocationIndex
layout(local_size_x = 80) in;

layout(set = 0, binding = 0, std430) buffer Out { uint data[]; };

shared uint leader[80];

void main() {
    uint i = (gl_WorkGroupID.x * 80u + gl_LocalInvocationIndex) * 8u;
    data[i + 0u] = gl_SubgroupSize;
    data[i + 1u] = gl_SubgroupInvocationID;
    data[i + 2u] = gl_SubgroupID;
    data[i + 3u] = gl_NumSubgroups;
    bool elected = subgroupElect();
    data[i + 4u] = elected ? 1u : 0u;
    if (elected && gl_SubgroupID < 80u) {
        leader[gl_SubgroupID] = gl_LocalInvocationIndex;
    }
    subgroupMemoryBarrierShared();
    subgroupBarrier();
    data[i + 5u] = leader[min(gl_SubgroupID, 79u)];
    if (gl_SubgroupInvocationID % 3u == 2u) {
        data[i + 6u] = subgroupElect() ? 1u : 0u;
    }
    data[i + 7u] = gl_LocalInvocationIndex;
}
