// target-env: vulkan1.2
#version 450
// 16-bin histogram: shared-memory atomics per workgroup, then global atomics.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Hist { uint h[16]; };
shared uint bins[16];
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l < 16) bins[l] = 0;
    barrier();
    atomicAdd(bins[v[gl_GlobalInvocationID.x] & 15u], 1u);
    barrier();
    if (l < 16) atomicAdd(h[l], bins[l]);
}
