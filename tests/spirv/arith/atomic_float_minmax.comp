// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_atomic_float2 : require
// Float atomicMin/atomicMax (OpAtomicFMinEXT / OpAtomicFMaxEXT) in a buffer and in
// workgroup memory, on values without NaNs.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer State { float lo; float hi; float wg[4]; };
layout(set = 0, binding = 1) readonly buffer In { float v[]; };
shared float slo, shi;
void main() {
    uint l = gl_LocalInvocationID.x;
    float x = v[gl_GlobalInvocationID.x];
    if (l == 0u) { slo = 1e30; shi = -1e30; }
    barrier();
    atomicMin(lo, x);
    atomicMax(hi, x);
    atomicMin(slo, x);
    atomicMax(shi, x);
    barrier();
    if (l == 0u) { wg[2u * gl_WorkGroupID.x] = slo; wg[2u * gl_WorkGroupID.x + 1u] = shi; }
}
