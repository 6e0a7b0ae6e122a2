// target-env: vulkan1.3
#version 450
// Non-square matrices: mat2x3 * mat3x2, mat3x2 * vec3, vec2 * mat3x2 (column-major, std430),
// composite construction and extraction.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer A { float a[]; };
layout(set = 0, binding = 1, std430) buffer O { mat3 o[]; };
layout(set = 0, binding = 2, std430) buffer P { vec4 p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = 8u * i;
    mat2x3 m = mat2x3(a[k], a[k + 1u], a[k + 2u], a[k + 3u], a[k + 4u], a[k + 5u]);
    mat3x2 n = mat3x2(vec2(a[k + 6u], a[k + 7u]), vec2(a[k + 1u]), vec2(a[k], 2.0));
    o[i] = m * n;
    vec2 r = n * vec3(1.0, a[k + 2u], -1.0);
    vec3 s = vec2(a[k + 3u], 0.5) * n;
    p[i] = vec4(r, s.x + s.y, s.z + m[1][2]);
}
