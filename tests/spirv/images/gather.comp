#version 450
// Gathers of each component, with a constant offset, four constant offsets, and a
// dynamic offset (shaderImageGatherExtended), on a 2D image, and of component 2 of a 2D
// array: q[i] = (u, v, layer, -), d[i] the dynamic offset (binding 2) -> o[8 * i + k].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 3) uniform sampler2D t;
layout(set = 0, binding = 4) uniform sampler2DArray ta;
layout(set = 0, binding = 2) readonly buffer D { ivec2 d[]; };
const ivec2 offs[4] = ivec2[4](ivec2(0, 0), ivec2(1, -1), ivec2(-2, 3), ivec2(7, -8));
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[8 * i] = textureGather(t, c.xy, 0);
    o[8 * i + 1] = textureGather(t, c.xy, 1);
    o[8 * i + 2] = textureGather(t, c.xy, 2);
    o[8 * i + 3] = textureGather(t, c.xy, 3);
    o[8 * i + 4] = textureGatherOffset(t, c.xy, ivec2(-3, 2), 1);
    o[8 * i + 5] = textureGatherOffsets(t, c.xy, offs, 0);
    o[8 * i + 6] = textureGatherOffset(t, c.xy, d[i], 3);
    o[8 * i + 7] = textureGather(ta, c.xyz, 2);
}
