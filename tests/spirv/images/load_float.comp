#version 450
// imageLoad from formatted storage images of normalized, packed and float formats (8x8
// each): invocation (x, y) writes each image's texel (x, y) to o[8 * i + k].
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2, rgba8) uniform readonly image2D i0;
layout(set = 0, binding = 3, rgba8_snorm) uniform readonly image2D i1;
layout(set = 0, binding = 4, rg16) uniform readonly image2D i2;
layout(set = 0, binding = 5, r16_snorm) uniform readonly image2D i3;
layout(set = 0, binding = 6, rgb10_a2) uniform readonly image2D i4;
layout(set = 0, binding = 7, r11f_g11f_b10f) uniform readonly image2D i5;
layout(set = 0, binding = 8, rgba16f) uniform readonly image2D i6;
layout(set = 0, binding = 9, rg32f) uniform readonly image2D i7;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    o[8 * i] = imageLoad(i0, p);
    o[8 * i + 1] = imageLoad(i1, p);
    o[8 * i + 2] = imageLoad(i2, p);
    o[8 * i + 3] = imageLoad(i3, p);
    o[8 * i + 4] = imageLoad(i4, p);
    o[8 * i + 5] = imageLoad(i5, p);
    o[8 * i + 6] = imageLoad(i6, p);
    o[8 * i + 7] = imageLoad(i7, p);
}
