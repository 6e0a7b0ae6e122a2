#version 450
// GLSL.std.450 Determinant and MatrixInverse of mat2, mat3 and mat4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer A { mat4 m[]; };
layout(set = 0, binding = 1, std430) buffer O { mat4 o[]; };
layout(set = 0, binding = 2, std430) buffer D { vec4 d[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4 a = m[i];
    mat3 b = mat3(a);
    mat2 c = mat2(a);
    d[i] = vec4(determinant(a), determinant(b), determinant(c), 0.0);
    o[3u * i] = inverse(a);
    o[3u * i + 1u] = mat4(inverse(b));
    o[3u * i + 2u] = mat4(inverse(c));
}
