// target-env: spirv1.3
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_ballot : require
// Broadcast from a constant lane and from the first active lane: scalars, vectors, floats,
// bools.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint o = i * 8u;
    r[o + 0u] = subgroupBroadcast(x, 0u);
    r[o + 1u] = subgroupBroadcast(x, 3u);
    uvec3 v = subgroupBroadcast(uvec3(x, x + 1u, x * 2u), 2u);
    r[o + 2u] = v.x + v.y + v.z;
    r[o + 3u] = floatBitsToUint(subgroupBroadcast(float(x & 0xffffu) * 0.5, 1u));
    r[o + 4u] = uint(subgroupBroadcast((x & 1u) != 0u, 1u));
    r[o + 5u] = subgroupBroadcastFirst(x);
    r[o + 6u] = 0xdeadu; r[o + 7u] = 0xdeadu;
    if (gl_SubgroupInvocationID % 4u >= 2u) {
        r[o + 6u] = subgroupBroadcastFirst(x);
        r[o + 7u] = uint(subgroupElect());
    }
}
