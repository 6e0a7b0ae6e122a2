#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer E { int e[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
layout(set = 0, binding = 3) writeonly buffer X { int x[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    int ex;
    o[0 * N + i] = frexp(a[i], ex);
    x[i] = ex;
    o[1 * N + i] = ldexp(a[i], e[i]);
}
