#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec4 o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint u = a[i];
    o[0 * N + i] = unpackSnorm4x8(u);
    o[1 * N + i] = unpackUnorm4x8(u);
    o[2 * N + i] = vec4(unpackSnorm2x16(u), unpackUnorm2x16(u));
    o[3 * N + i] = vec4(unpackHalf2x16(u), 0.0, 1.0);
}
