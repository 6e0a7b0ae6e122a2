// target-env: vulkan1.1
#version 450
// Double-precision matrices: dmat3 * dvec3, dmat3 * dmat3, transpose, determinant.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer A { dmat3 m[]; };
layout(set = 0, binding = 1, std430) buffer O { dmat3 o[]; };
layout(set = 0, binding = 2, std430) buffer P { dvec4 p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    dmat3 a = m[i];
    o[i] = a * transpose(a);
    dvec3 v = a * dvec3(1.0lf, -2.0lf, 0.5lf);
    p[i] = dvec4(v, determinant(a));
}
