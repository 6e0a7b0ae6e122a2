#version 450
// sin, cos, tan, radians, degrees; the inputs are in [-pi, pi].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    float x = a[i];
    o[0 * N + i] = sin(x);
    o[1 * N + i] = cos(x);
    o[2 * N + i] = tan(x * 0.35);
    o[3 * N + i] = radians(x * 50.0);
    o[4 * N + i] = degrees(x);
}
