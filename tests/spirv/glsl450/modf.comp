// target-env: vulkan1.3
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { vec2 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { vec2 o[]; };
const uint M = 64;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 whole;
    o[0 * M + i] = modf(a[i], whole);
    o[1 * M + i] = whole;
}
