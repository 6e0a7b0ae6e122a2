#version 450
// out = transpose(in) for an n x n u32 matrix (n a multiple of 16), through a padded
// 16x16 tile in workgroup memory so that both the reads and the writes are row-wise.
layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform Params { uint n; } pc;

shared uint tile[16][17];

void main() {
    uint n = pc.n;
    uvec2 g = gl_WorkGroupID.xy * 16u;
    uvec2 l = gl_LocalInvocationID.xy;
    tile[l.y][l.x] = src[(g.y + l.y) * n + g.x + l.x];
    barrier();
    dst[(g.x + l.y) * n + g.y + l.x] = tile[l.x][l.y];
}
