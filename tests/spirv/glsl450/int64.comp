// target-env: spirv1.5
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer forms of SAbs, SSign, SMin/SMax/SClamp, UMin/UMax/UClamp.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int64_t a[]; };
layout(set = 0, binding = 1) readonly buffer B { int64_t b[]; };
layout(set = 0, binding = 2) writeonly buffer O { int64_t o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = a[i], y = b[i];
    u64vec2 u = u64vec2(x, y), v = u64vec2(y, x);
    o[0 * N + i] = abs(x);
    o[1 * N + i] = sign(x);
    o[2 * N + i] = min(x, y);
    o[3 * N + i] = max(x, y);
    o[4 * N + i] = clamp(x, min(y, ~y), max(y, ~y));
    o[5 * N + i] = int64_t(min(u, v).x);
    o[6 * N + i] = int64_t(max(u, v).y);
    o[7 * N + i] = int64_t(clamp(u, v >> 1, v).x);
}
