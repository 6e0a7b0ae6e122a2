// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// 64-bit integers: bit counts of their halves (Vulkan has bit instructions for 32 bits
// only), a wrapping multiply, shifts by 32- and 64-bit amounts, and a 32-bit value shifted
// by a 64-bit amount.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint64_t v[]; };
layout(set = 0, binding = 1) buffer Out { uint64_t o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t x = v[i];
    uint s = uint(i) % 64u;
    uint64_t s64 = (x >> 7) % 64ul;
    o[6u * i] = uint64_t(bitCount(uint(x)) + bitCount(uint(x >> 32))) | (uint64_t(bitCount(int(x >> 32))) << 32);
    o[6u * i + 1u] = x * 0x9e3779b97f4a7c15ul;
    o[6u * i + 2u] = x << s;
    o[6u * i + 3u] = uint64_t(int64_t(x) >> s64);
    o[6u * i + 4u] = x >> s64;
    o[6u * i + 5u] = uint64_t(uint(x) >> (s64 % 32ul)) | (uint64_t(int(x) >> (s % 32u)) << 32);
}
