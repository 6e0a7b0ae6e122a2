// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 16-bit scalars and vectors loaded from and stored to storage buffers.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uint16_t a[]; };
layout(set = 0, binding = 1) buffer B { f16vec2 b[]; };
layout(set = 0, binding = 2) buffer O { uint16_t o[]; };
layout(set = 0, binding = 3) buffer P { f16vec2 p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = a[i] + uint16_t(i);
    p[i] = b[i].yx;
}
