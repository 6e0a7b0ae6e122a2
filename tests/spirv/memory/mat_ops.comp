#version 450
// Matrix arithmetic on std430 matrices: M*v, v*M, M*M, M*s, transpose, outerProduct.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0, std430) buffer A { mat4 m[]; };
layout(set = 0, binding = 1, std430) buffer V { vec4 v[]; };
layout(set = 0, binding = 2, std430) buffer O { mat4 o[]; };
layout(set = 0, binding = 3, std430) buffer W { vec4 w[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    mat4 a = m[i], b = m[(i + 1u) % 64u];
    vec4 x = v[i];
    w[2u * i] = a * x;
    w[2u * i + 1u] = x * a;
    o[4u * i] = a * b;
    o[4u * i + 1u] = a * 0.5;
    o[4u * i + 2u] = transpose(a);
    o[4u * i + 3u] = outerProduct(x, v[(i + 3u) % 64u]) + a;
}
