// target-env: spirv1.4
#version 450
// Transposes a 32x32 matrix through 8x8 tiles in shared memory.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer In { uint m[1024]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint t[1024]; };
shared uint tile[8][9];
void main() {
    uvec2 l = gl_LocalInvocationID.xy, g = gl_WorkGroupID.xy;
    tile[l.y][l.x] = m[(g.y * 8 + l.y) * 32 + g.x * 8 + l.x];
    barrier();
    t[(g.x * 8 + l.y) * 32 + g.y * 8 + l.x] = tile[l.x][l.y];
}
