// target-env: spirv1.3
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; }; // [-10, 10]
layout(set = 0, binding = 1) readonly buffer B { float b[]; }; // [0.01, 100]
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i];
    o[0 * N + i] = exp(x);
    o[1 * N + i] = exp2(x * 1.5);
    o[2 * N + i] = log(y);
    o[3 * N + i] = log2(y);
    o[4 * N + i] = pow(y, x * 0.3);
    o[5 * N + i] = sqrt(y);
    o[6 * N + i] = inversesqrt(y);
}
