// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 8- and 16-bit members of a std140 uniform block.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std140) uniform U { uint8_t a; int16_t b; f16vec2 c; i8vec4 d; } u;
layout(set = 0, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float v = float(u.a) + float(u.b) * 2.0 + float(u.c.x) - float(u.c.y) + float(u.d[i % 4u]);
    o[i] = v * float(i);
}
