// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// 16-bit float forms; the buffers hold 32-bit floats, converted in the shader, so only
// shaderFloat16 is needed (not 16-bit storage).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; }; // [-3, 3], exact in half
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float16_t x = float16_t(a[i]);
    float16_t y = abs(x) + float16_t(0.5);
    o[0 * N + i] = float(sin(x));
    o[1 * N + i] = float(cos(x));
    o[2 * N + i] = float(exp2(x));
    o[3 * N + i] = float(log2(y));
    o[4 * N + i] = float(sqrt(y));
    o[5 * N + i] = float(floor(x) + fract(x) * float16_t(8.0));
    o[6 * N + i] = float(atan(x));
    o[7 * N + i] = float(tanh(x));
    o[8 * N + i] = float(clamp(x, float16_t(-1.0), float16_t(2.0)));
    o[9 * N + i] = float(length(f16vec2(x, y)));
    o[10 * N + i] = float(radians(x));
    o[11 * N + i] = float(pow(y, float16_t(1.5)));
}
