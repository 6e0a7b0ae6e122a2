#version 450
// textureLod on a 2D combined image sampler: q[i] = (u, v, lod, -), the sampler's filter,
// mip mode, address modes and border colour set per case.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2D t;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = textureLod(t, q[i].xy, q[i].z);
}
