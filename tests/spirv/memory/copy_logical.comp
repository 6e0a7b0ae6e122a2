// target-env: vulkan1.2
#version 450
// Whole structs (with a matrix, a vec3 and an array) copied between a std140 uniform
// block and a std430 storage buffer: OpCopyLogical between their differently laid out types.
layout(local_size_x = 16) in;
struct T { vec3 v; float f[2]; mat2 m; };
layout(set = 0, binding = 0, std140) uniform U { T t[2]; } u;
layout(set = 0, binding = 1, std430) buffer O { T t[]; } o;
void main() {
    uint i = gl_GlobalInvocationID.x;
    T x = u.t[i % 2u];
    x.f[1] += float(i);
    x.m[1] *= float(i);
    o.t[i] = x;
    if (i == 0u) {
        o.t[16] = u.t[1];
    }
}
