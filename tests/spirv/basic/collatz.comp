// target-env: vulkan1.3
#version 450
// Data-dependent loop trip counts: Collatz steps until 1 (divergent loops in a wave).
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uint n[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint steps[]; };
void main() {
    uint x = n[gl_GlobalInvocationID.x], k = 0;
    while (x > 1) {
        x = (x & 1u) != 0 ? 3 * x + 1 : x >> 1;
        k++;
    }
    steps[gl_GlobalInvocationID.x] = k;
}
