// target-env: vulkan1.1
#version 450
// atomicMin/atomicMax, signed and unsigned, all invocations on the same words; the
// values returned by the signed minimum.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer State { int smin; int smax; uint umin; uint umax; };
layout(set = 0, binding = 1) readonly buffer In { int v[]; };
layout(set = 0, binding = 2) buffer Old { int old_smin[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    old_smin[i] = atomicMin(smin, v[i]);
    atomicMax(smax, v[i]);
    atomicMin(umin, uint(v[i]));
    atomicMax(umax, uint(v[i]));
}
