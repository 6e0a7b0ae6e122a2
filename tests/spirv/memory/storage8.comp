// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
// 8-bit scalars and vectors loaded from and stored to storage buffers.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { i8vec4 a[]; };
layout(set = 0, binding = 1) buffer O { int8_t o[]; };
layout(set = 0, binding = 2) buffer P { u8vec2 p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    i8vec4 v = a[i];
    o[i] = v.x + v.y - v.z;
    p[i] = u8vec2(v.wz);
}
