#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integer arithmetic: add, multiply, shifts by < 64, comparisons, bitwise.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { int64_t a[]; };
layout(set = 0, binding = 1) buffer B { int64_t b[]; };
layout(set = 0, binding = 2) buffer O { int64_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = a[i], y = b[i];
    uint s = uint(y) & 63u;
    o[4 * i] = x + y * 3l;
    o[4 * i + 1] = (x << s) ^ (x >> (s / 2u));
    o[4 * i + 2] = int64_t(uint64_t(x) >> s) | (x & y);
    o[4 * i + 3] = x < y ? x - y : int64_t(uint64_t(x) * uint64_t(y));
}
