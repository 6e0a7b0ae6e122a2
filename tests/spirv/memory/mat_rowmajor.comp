// target-env: vulkan1.2
#version 450
// Row-major matrices (std140 uniform, std430 storage): whole loads and stores, a column,
// an element, and a dynamically indexed column.
layout(local_size_x = 16) in;
layout(set = 0, binding = 0, std140, row_major) uniform U { mat3x4 m; mat2 n; } u;
layout(set = 0, binding = 1, std430, row_major) buffer O { mat4x3 t; vec4 col; float e; float pad; vec3 dyn[16]; } o;
void main() {
    uint i = gl_LocalInvocationID.x;
    if (i == 0u) {
        o.t = transpose(u.m);
        o.col = u.m[1];
        o.e = u.m[2][3] + u.n[1][0];
    }
    o.dyn[i] = u.m[i % 3u].xyz + vec3(u.n[i % 2u], 1.0);
}
