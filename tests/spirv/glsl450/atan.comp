// target-env: vulkan1.2
#version 450
// atan (one and two operands), asin, acos; vec2 forms so that vector lowering is covered.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { vec2 a[]; };
layout(set = 0, binding = 1) readonly buffer B { vec2 b[]; };
layout(set = 0, binding = 2) writeonly buffer O { vec2 o[]; };
const uint M = 64;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec2 x = a[i], y = b[i];
    o[0 * M + i] = atan(x);
    o[1 * M + i] = atan(x, y);
    o[2 * M + i] = asin(y / 10.0);
    o[3 * M + i] = acos(y / 10.0);
}
