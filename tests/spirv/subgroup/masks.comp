// target-env: vulkan1.3
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// The mask built-ins (bits limited to the subgroup).
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { uvec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    r[i * 5u + 0u] = gl_SubgroupEqMask;
    r[i * 5u + 1u] = gl_SubgroupGeMask;
    r[i * 5u + 2u] = gl_SubgroupGtMask;
    r[i * 5u + 3u] = gl_SubgroupLeMask;
    r[i * 5u + 4u] = gl_SubgroupLtMask;
}
