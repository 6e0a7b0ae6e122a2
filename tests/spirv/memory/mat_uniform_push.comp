// target-env: vulkan1.0
#version 450
// Matrices in a std140 uniform block (an array of mat3 at a 48-byte stride, a row-major
// mat2x3) and in push constants (column- and row-major), accessed whole and by column.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std140) uniform U { mat3 ms[4]; layout(row_major) mat2x3 r; } u;
layout(push_constant) uniform P { mat2 c; layout(row_major) mat2 rm; } pc;
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat3 m = u.ms[i % 4u];
    vec3 a = m * vec3(1.0, 2.0, float(i)) + u.r[i % 2u];
    vec2 b = pc.c * vec2(float(i), 1.0) + pc.rm[1] + u.ms[3][i % 3u].xy;
    o[2u * i] = vec4(a, b.x);
    o[2u * i + 1u] = vec4(b.y, (pc.rm * pc.c)[0], 0.0);
}
