// target-env: spirv1.5
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// SPIR-V 1.5: the broadcast lane may be dynamically uniform (a push constant here).
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint lane; uint lane2; };
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    r[i * 3u] = subgroupBroadcast(x, lane % gl_SubgroupSize);
    r[i * 3u + 1u] = subgroupBroadcast(x ^ 0x55u, lane2 % gl_SubgroupSize);
    r[i * 3u + 2u] = subgroupBroadcast(x, gl_SubgroupSize - 1u);
}
