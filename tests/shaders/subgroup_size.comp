#version 450
#extension GL_KHR_shader_subgroup_basic : require
// What a pipeline's subgroup size requirement (VK_EXT_subgroup_size_control) gives the
// shader: each invocation writes gl_SubgroupSize, gl_SubgroupInvocationID, gl_SubgroupID and
// gl_NumSubgroups at slot gl_WorkGroupID.x * 128 + gl_LocalInvocationIndex. 128 is a
// multiple of every subgroup size, so REQUIRE_FULL_SUBGROUPS holds.
layout(local_size_x = 128) in;

layout(set = 0, binding = 0, std430) writeonly buffer Out { uint data[]; };

void main() {
    uint i = (gl_WorkGroupID.x * 128u + gl_LocalInvocationIndex) * 4u;
    data[i + 0u] = gl_SubgroupSize;
    data[i + 1u] = gl_SubgroupInvocationID;
    data[i + 2u] = gl_SubgroupID;
    data[i + 3u] = gl_NumSubgroups;
}
