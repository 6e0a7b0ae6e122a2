// target-env: vulkan1.3
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    o[0 * N + i] = findLSB(x);
    o[1 * N + i] = findMSB(x);
    o[2 * N + i] = findMSB(uint(x));
    ivec2 v = findMSB(ivec2(x, ~x));
    o[3 * N + i] = v.x + 100 * v.y;
}
