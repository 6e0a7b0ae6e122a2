// target-env: vulkan1.0
#version 450
// C = A * B for 16x16 integer matrices, one invocation per element of C.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) readonly buffer A { int a[256]; };
layout(set = 0, binding = 1) readonly buffer B { int b[256]; };
layout(set = 0, binding = 2) writeonly buffer C { int c[256]; };
void main() {
    uint r = gl_GlobalInvocationID.y, k = gl_GlobalInvocationID.x;
    int sum = 0;
    for (uint i = 0; i < 16; i++) sum += a[r * 16 + i] * b[i * 16 + k];
    c[r * 16 + k] = sum;
}
