#version 450
#extension GL_ARB_sparse_texture_clamp : require
// textureGradClampARB (the MinLod image operand) on a 2D image: q[2i] = (u, v, min lod,
// -), q[2i + 1] = (dPdx.x, dPdy.y, -, -).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2D t;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[2 * i], g = q[2 * i + 1];
    o[i] = textureGradClampARB(t, c.xy, vec2(g.x, 0.0), vec2(0.0, g.y), c.z);
}
