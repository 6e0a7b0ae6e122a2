#version 450
// softnavi-descriptors: set 0 is pushed (VK_KHR_push_descriptor), set 1 is a bound set.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; } src;
layout(set = 0, binding = 1) buffer Out { uint o[]; } dst;
layout(set = 1, binding = 0) uniform S { uint scale; uint add; } s;
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst.o[i] = src.v[i] * s.scale + s.add;
}
