// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 16-bit float arithmetic on values where every result is exact in f16.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer O { float o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t x = float16_t(a[i]);
    f16vec2 v = f16vec2(x, x * 0.5hf);
    f16vec2 w = v * v + f16vec2(1.0hf, -2.0hf);
    o[3 * i] = float(w.x);
    o[3 * i + 1] = float(w.y);
    o[3 * i + 2] = float(-x - 0.25hf);
}
