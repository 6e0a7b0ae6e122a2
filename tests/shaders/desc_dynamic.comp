#version 450
// softnavi-descriptors: dynamic uniform and storage buffers in two sets.
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; } pc;
layout(set = 0, binding = 0) uniform U { uint scale; } u;
layout(set = 0, binding = 1) buffer Out { uint o[]; } dst;
layout(set = 1, binding = 0) readonly buffer In { uint v[]; } src;
void main() {
    uint i = gl_GlobalInvocationID.x;
    // Lanes at or past n access beyond the descriptors' ranges (robust buffer access).
    if (i < pc.n) dst.o[i] = src.v[i] * u.scale + 1u;
}
