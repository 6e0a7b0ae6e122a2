#version 450
// Depth compares: q[i] = (u, v, lod, reference): textureLod on sampler2DShadow, gathers
// of the comparisons (textureGather, textureGatherOffset) -> o[3 * i + k].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2DShadow t;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[3 * i] = vec4(textureLod(t, c.xyw, c.z));
    o[3 * i + 1] = textureGather(t, c.xy, c.w);
    o[3 * i + 2] = textureGatherOffset(t, c.xy, c.w, ivec2(1, -2));
}
