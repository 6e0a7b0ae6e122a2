// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
// 8- and 16-bit push constants at their explicit offsets.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { int8_t a; uint8_t b; int16_t c; uint16_t d; float16_t e; i8vec2 f; } pc;
layout(set = 0, binding = 0) buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int k = int(i) % 6;
    int r = k == 0 ? int(pc.a) : k == 1 ? int(pc.b) : k == 2 ? int(pc.c) : k == 3 ? int(pc.d)
          : k == 4 ? int(float(pc.e) * 4.0) : int(pc.f.x) * 1000 + int(pc.f.y);
    o[i] = r + int(i);
}
