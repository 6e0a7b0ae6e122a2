// target-env: vulkan1.3
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i]; // in [-5, 5]
    o[0 * N + i] = sinh(x);
    o[1 * N + i] = cosh(x);
    o[2 * N + i] = tanh(x * 4.0);
    o[3 * N + i] = asinh(x * 10.0);
    o[4 * N + i] = acosh(abs(x) * 10.0 + 1.0);
    o[5 * N + i] = atanh(x * 0.19);
}
