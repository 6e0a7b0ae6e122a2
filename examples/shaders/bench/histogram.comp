#version 450
// A 256-bin histogram of the low byte of n values: workgroup-memory atomics, then one
// global atomic per non-empty bin and workgroup. Workgroups form a 2D grid (rows of
// gl_NumWorkGroups.x groups).
layout(local_size_x = 256) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint data[]; };
layout(set = 0, binding = 1, std430) buffer Bins { uint bins[]; };
layout(push_constant) uniform Params { uint n; } pc;

shared uint local_bins[256];

void main() {
    uint lid = gl_LocalInvocationID.x;
    local_bins[lid] = 0;
    barrier();
    uint i = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 256u + gl_GlobalInvocationID.x;
    if (i < pc.n) {
        atomicAdd(local_bins[data[i] & 255u], 1u);
    }
    barrier();
    uint count = local_bins[lid];
    if (count != 0) {
        atomicAdd(bins[lid], count);
    }
}
