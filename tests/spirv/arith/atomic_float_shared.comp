// target-env: vulkan1.3
#version 450
#extension GL_EXT_shader_atomic_float : require
// Float atomicAdd in workgroup memory, exact terms; one sum per workgroup.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { float v[]; };
layout(set = 0, binding = 1) buffer Out { float sums[]; };
shared float s;
void main() {
    uint l = gl_LocalInvocationID.x;
    if (l == 0u) s = 0.5;
    barrier();
    atomicAdd(s, v[gl_GlobalInvocationID.x]);
    barrier();
    if (l == 0u) sums[gl_WorkGroupID.x] = s;
}
