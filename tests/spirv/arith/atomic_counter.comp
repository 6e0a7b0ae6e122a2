// target-env: vulkan1.0
#version 450
// Contended buffer atomics: one ticket per invocation from a counter, sums of inputs.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Counter { uint count; uint sum; int signed_sum; };
layout(set = 0, binding = 1) readonly buffer In { uint v[]; };
layout(set = 0, binding = 2) buffer Tickets { uint ticket[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ticket[i] = atomicAdd(count, 1u);
    atomicAdd(sum, v[i]);
    atomicAdd(signed_sum, -int(v[i] & 0xffu));
}
