// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// 8-bit integer arithmetic (wrapping), with 32-bit storage.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int8_t x = int8_t(a[i]);
    uint8_t u = uint8_t(a[i] >> 8);
    o[3 * i] = int(x * int8_t(5) - int8_t(3));
    o[3 * i + 1] = int(uint(u * uint8_t(3) + uint8_t(200)));
    o[3 * i + 2] = int(int8_t(x >> int8_t(2)) ^ int8_t(u));
}
