// target-env: vulkan1.0
#version 450
// Rounding and sign functions, one result array each: o[k * N + i].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    o[0 * N + i] = roundEven(x);
    o[1 * N + i] = trunc(x);
    o[2 * N + i] = floor(x);
    o[3 * N + i] = ceil(x);
    o[4 * N + i] = fract(x);
    o[5 * N + i] = abs(x);
    o[6 * N + i] = sign(x);
    o[7 * N + i] = round(x);
}
