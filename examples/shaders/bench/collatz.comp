#version 450
// Collatz steps of each value (capped): a divergent integer loop, lanes finish at
// different iterations.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint start[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint steps[]; };
layout(push_constant) uniform Params { uint n; uint cap; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) {
        return;
    }
    uint v = start[i];
    uint s = 0;
    while (v > 1u && s < pc.cap) {
        v = (v & 1u) != 0u ? 3u * v + 1u : v >> 1;
        s++;
    }
    steps[i] = s;
}
