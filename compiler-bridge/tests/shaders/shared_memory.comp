#version 450
// A 2D workgroup transposing a tile through shared memory, shared structs and vectors,
// and every barrier flavour.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer Src { vec4 src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { vec4 dst[]; };

struct Cell { vec4 value; uint owner; };
shared Cell tile[8][9];   // padded row
shared uint counter;
shared float partial[64];

void main() {
    uvec2 l = gl_LocalInvocationID.xy;
    uvec2 g = gl_GlobalInvocationID.xy;
    uint width = gl_NumWorkGroups.x * gl_WorkGroupSize.x;
    if (gl_LocalInvocationIndex == 0u) counter = 0u;
    tile[l.y][l.x].value = src[g.y * width + g.x];
    tile[l.y][l.x].owner = gl_LocalInvocationIndex;
    memoryBarrierShared();
    barrier();
    Cell c = tile[l.x][l.y];
    partial[gl_LocalInvocationIndex] = c.value.x + float(c.owner);
    groupMemoryBarrier();
    barrier();
    for (uint s = 32u; s > 0u; s >>= 1) {
        if (gl_LocalInvocationIndex < s)
            partial[gl_LocalInvocationIndex] += partial[gl_LocalInvocationIndex + s];
        barrier();
    }
    uvec2 t = gl_WorkGroupID.yx * gl_WorkGroupSize.xy + l;
    dst[t.y * width + t.x] = c.value + vec4(partial[0]);
    memoryBarrierBuffer();
    memoryBarrier();
}
