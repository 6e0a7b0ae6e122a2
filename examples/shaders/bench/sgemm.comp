#version 450
// C = A * B for n x n row-major matrices (n a multiple of 16): 16x16 workgroups, each
// step loads one 16x16 tile of A and of B into workgroup memory between two barriers.
layout(local_size_x = 16, local_size_y = 16) in;

layout(set = 0, binding = 0, std430) readonly buffer A { float a[]; };
layout(set = 0, binding = 1, std430) readonly buffer B { float b[]; };
layout(set = 0, binding = 2, std430) writeonly buffer C { float c[]; };
layout(push_constant) uniform Params { uint n; } pc;

shared float ta[16][16];
shared float tb[16][16];

void main() {
    uint tx = gl_LocalInvocationID.x, ty = gl_LocalInvocationID.y;
    uint row = gl_GlobalInvocationID.y, col = gl_GlobalInvocationID.x;
    uint n = pc.n;
    float acc = 0.0;
    for (uint k0 = 0; k0 < n; k0 += 16) {
        ta[ty][tx] = a[row * n + k0 + tx];
        tb[ty][tx] = b[(k0 + ty) * n + col];
        barrier();
        for (uint k = 0; k < 16; k++) {
            acc = fma(ta[ty][k], tb[k][tx], acc);
        }
        barrier();
    }
    c[row * n + col] = acc;
}
