// target-env: vulkan1.2
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; }; // [-10, 10]
layout(set = 0, binding = 1) readonly buffer B { float b[]; }; // [-10, 10]
layout(set = 0, binding = 2) readonly buffer C { float c[]; }; // [0, 1]
layout(set = 0, binding = 3) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i], y = b[i], t = c[i];
    o[0 * N + i] = mix(x, y, t);
    o[1 * N + i] = step(y, x);
    o[2 * N + i] = smoothstep(y, y + 3.0, x);
    o[3 * N + i] = fma(x, y, t);
    o[4 * N + i] = mix(x, y, t > 0.5); // OpSelect, not FMix
}
