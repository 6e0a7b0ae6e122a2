#version 450
// Each workgroup sums a grid-strided slice of `data` in workgroup memory and writes one
// partial sum; the host adds the partial sums.
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint partial[]; };
layout(push_constant) uniform Params {
    uint n;
} pc;

shared uint tmp[256];

void main() {
    uint lid = gl_LocalInvocationID.x;
    uint stride = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    uint acc = 0;
    for (uint i = gl_GlobalInvocationID.x; i < pc.n; i += stride) {
        acc += data[i];
    }
    tmp[lid] = acc;
    barrier();
    for (uint s = gl_WorkGroupSize.x / 2; s > 0; s >>= 1) {
        if (lid < s) {
            tmp[lid] += tmp[lid + s];
        }
        barrier();
    }
    if (lid == 0) {
        partial[gl_WorkGroupID.x] = tmp[0];
    }
}
