#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// 16-bit integer arithmetic (wrapping), with 32-bit storage.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int16_t x = int16_t(a[i]);
    uint16_t u = uint16_t(a[i] >> 3);
    int16_t p = x * int16_t(7) + int16_t(1000);
    o[3 * i] = int(p);
    o[3 * i + 1] = int(u / uint16_t(3) + (u >> 2us));
    o[3 * i + 2] = int(x >> 3s) + int(x < int16_t(0));
}
