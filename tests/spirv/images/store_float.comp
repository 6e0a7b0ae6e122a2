#version 450
// imageStore to formatted storage images (8x8 each): invocation (x, y) stores a[i] to
// the unsigned formats and b[i] to the signed ones.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec4 b[]; };
layout(set = 0, binding = 2, rgba8) uniform writeonly image2D i0;
layout(set = 0, binding = 3, rgba8_snorm) uniform writeonly image2D i1;
layout(set = 0, binding = 4, rg16) uniform writeonly image2D i2;
layout(set = 0, binding = 5, r16_snorm) uniform writeonly image2D i3;
layout(set = 0, binding = 6, rgb10_a2) uniform writeonly image2D i4;
layout(set = 0, binding = 7, r11f_g11f_b10f) uniform writeonly image2D i5;
layout(set = 0, binding = 8, rgba16f) uniform writeonly image2D i6;
layout(set = 0, binding = 9, r32f) uniform writeonly image2D i7;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    imageStore(i0, p, a[i]);
    imageStore(i1, p, b[i]);
    imageStore(i2, p, a[i]);
    imageStore(i3, p, b[i]);
    imageStore(i4, p, a[i]);
    imageStore(i5, p, a[i]);
    imageStore(i6, p, b[i]);
    imageStore(i7, p, b[i]);
}
