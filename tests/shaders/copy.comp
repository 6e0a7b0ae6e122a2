#version 450
// dst[i] = src[i] + 1
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer Src { uint src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Dst { uint dst[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    dst[i] = src[i] + 1u;
}
