#version 450
#extension GL_EXT_nonuniform_qualifier : require
// Arrays of descriptors indexed by non-uniform values (nonuniformEXT): invocation i
// samples combined image sampler i % 4 at q[i] = (u, v, lod, -) and fetches texel i of
// texture (i / 4) % 4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2D ts[4];
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[2 * i] = textureLod(ts[nonuniformEXT(i % 4u)], c.xy, c.z);
    o[2 * i + 1] = texelFetch(ts[nonuniformEXT((i / 4u) % 4u)], ivec2(i % 8u, i / 8u), 0);
}
