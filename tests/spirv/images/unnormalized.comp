#version 450
// Unnormalized coordinates (texel space, lod 0): q[i] = (x, y, -, -).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2D t;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = textureLod(t, q[i].xy, 0.0);
}
