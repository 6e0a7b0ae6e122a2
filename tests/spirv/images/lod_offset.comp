#version 450
// textureLodOffset with constant offsets on 2D, 3D and 2D array images: q[i] = (u, v, w or
// layer, lod).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2D t2;
layout(set = 0, binding = 3) uniform sampler3D t3;
layout(set = 0, binding = 4) uniform sampler2DArray ta;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[4 * i] = textureLodOffset(t2, c.xy, c.w, ivec2(-2, 3));
    o[4 * i + 1] = textureLodOffset(t2, c.xy, c.w, ivec2(1, -1));
    o[4 * i + 2] = textureLodOffset(t3, c.xyz, c.w, ivec3(1, -2, 1));
    o[4 * i + 3] = textureLodOffset(ta, c.xyz, c.w, ivec2(-1, 2));
}
