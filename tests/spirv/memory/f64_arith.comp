// target-env: vulkan1.2
#version 450
// 64-bit float arithmetic: add, multiply, divide, negate, comparisons and conversions.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { double a[]; };
layout(set = 0, binding = 1) buffer B { double b[]; };
layout(set = 0, binding = 2) buffer O { double o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    double x = a[i], y = b[i];
    o[4 * i] = x + y;
    o[4 * i + 1] = x * y;
    o[4 * i + 2] = x / y;
    o[4 * i + 3] = x > y ? -x : double(int(i)) * 0.5lf;
}
