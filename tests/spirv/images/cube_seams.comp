#version 450
// Seamless cube sampling: LINEAR textureLod at level 0 and gathers of an RGBA8 and an R32F
// cube near the faces' edges and corners: q[i] = direction -> o[3 * i + k].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 3) uniform samplerCube tc;
layout(set = 0, binding = 4) uniform samplerCube tf;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 c = q[i].xyz;
    o[3 * i] = textureLod(tc, c, 0.0);
    o[3 * i + 1] = textureGather(tc, c, 1);
    o[3 * i + 2] = textureGather(tf, c, 0);
}
