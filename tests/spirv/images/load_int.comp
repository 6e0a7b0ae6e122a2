#version 450
// imageLoad from formatted integer storage images (8x8 each): invocation (x, y) writes
// each image's texel (x, y) to o[6 * i + k] (signed ones as their bits).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 o[]; };
layout(set = 0, binding = 2, rgba8ui) uniform readonly uimage2D i0;
layout(set = 0, binding = 3, rg16i) uniform readonly iimage2D i1;
layout(set = 0, binding = 4, r32ui) uniform readonly uimage2D i2;
layout(set = 0, binding = 5, rgba32i) uniform readonly iimage2D i3;
layout(set = 0, binding = 6, rgb10_a2ui) uniform readonly uimage2D i4;
layout(set = 0, binding = 7, r8i) uniform readonly iimage2D i5;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    o[6 * i] = imageLoad(i0, p);
    o[6 * i + 1] = uvec4(imageLoad(i1, p));
    o[6 * i + 2] = imageLoad(i2, p);
    o[6 * i + 3] = uvec4(imageLoad(i3, p));
    o[6 * i + 4] = imageLoad(i4, p);
    o[6 * i + 5] = uvec4(imageLoad(i5, p));
}
