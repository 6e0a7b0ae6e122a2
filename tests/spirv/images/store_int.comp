#version 450
// imageStore to formatted integer storage images (8x8 each): invocation (x, y) stores
// v[i] (in range for every format) to each.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer V { ivec4 v[]; };
layout(set = 0, binding = 2, rgba8ui) uniform writeonly uimage2D i0;
layout(set = 0, binding = 3, rg16i) uniform writeonly iimage2D i1;
layout(set = 0, binding = 4, r32i) uniform writeonly iimage2D i2;
layout(set = 0, binding = 5, rgba32ui) uniform writeonly uimage2D i3;
layout(set = 0, binding = 6, rgb10_a2ui) uniform writeonly uimage2D i4;
layout(set = 0, binding = 7, r8i) uniform writeonly iimage2D i5;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    ivec4 x = v[gl_LocalInvocationIndex];
    imageStore(i0, p, uvec4(x & 255));
    imageStore(i1, p, x);
    imageStore(i2, p, x);
    imageStore(i3, p, uvec4(x));
    imageStore(i4, p, uvec4(x & ivec4(1023, 1023, 1023, 3)));
    imageStore(i5, p, x);
}
