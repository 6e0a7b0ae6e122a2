// target-env: vulkan1.3
#version 450
#extension GL_EXT_shader_atomic_float : require
#extension GL_EXT_shader_atomic_float2 : require
// 64-bit float atomics: atomicAdd in a buffer and in workgroup memory (exact terms, so
// any order gives the same sums), atomicExchange, and atomicMin/atomicMax.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer State { double total; double lo; double hi; double slot; double wg[2]; };
layout(set = 0, binding = 1) readonly buffer In { double v[]; };
layout(set = 0, binding = 2) buffer Out { double got[]; };
shared double s;
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    double x = v[i];
    if (l == 0u) s = 0.25lf;
    barrier();
    atomicAdd(total, x);
    atomicAdd(s, -x);
    atomicMin(lo, x);
    atomicMax(hi, x);
    got[i] = atomicExchange(slot, double(i) * 1.5lf);
    barrier();
    if (l == 0u) wg[gl_WorkGroupID.x] = s;
}
