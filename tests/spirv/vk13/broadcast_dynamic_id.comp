// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
// subgroupBroadcastDynamicId (SPIR-V 1.5, Vulkan 1.2): OpGroupNonUniformBroadcast with a
// dynamically uniform id: a loop counter mixed with a push constant, a value read from a
// uniform buffer, for 32-bit, vector and 16-bit values.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint base; };
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std140) uniform U { uint lane_u; };
layout(set = 0, binding = 2, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, sz = gl_SubgroupSize;
    uint x = a[i];
    uint acc = 0u;
    for (uint k = 0u; k < 4u; k++) {
        acc = acc * 31u + subgroupBroadcast(x, (base + k * 7u) % sz);
    }
    r[i * 4u] = acc;
    uvec2 v = subgroupBroadcast(uvec2(x, ~x), lane_u % sz);
    r[i * 4u + 1u] = v.x;
    r[i * 4u + 2u] = v.y;
    r[i * 4u + 3u] = uint(subgroupBroadcast(uint16_t(x), (lane_u + base) % sz));
}
