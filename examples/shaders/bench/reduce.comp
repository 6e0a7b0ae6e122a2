#version 450
// Sum of n u32 values: a grid-strided loop per invocation, a tree in workgroup memory,
// then one global atomic per workgroup.
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1, std430) buffer Out { uint total; };
layout(push_constant) uniform Params { uint n; } pc;

shared uint tmp[256];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * 256u;
    uint acc = 0;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += stride) {
        acc += data[i];
    }
    tmp[lid] = acc;
    barrier();
    for (uint s = 128u; s > 0u; s >>= 1) {
        if (lid < s) {
            tmp[lid] += tmp[lid + s];
        }
        barrier();
    }
    if (lid == 0u) {
        atomicAdd(total, tmp[0]);
    }
}
