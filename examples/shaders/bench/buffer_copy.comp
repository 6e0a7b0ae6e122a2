#version 450
// dst = src for an n x n u32 matrix (n a multiple of 8): one u32 per invocation, on the
// same 8x8 workgroups as image_copy.comp, so that only the kind of memory access differs.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, std430) readonly buffer In { uint src[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint dst[]; };
layout(push_constant) uniform Params { uint n; } pc;

void main() {
    uint i = gl_GlobalInvocationID.y * pc.n + gl_GlobalInvocationID.x;
    dst[i] = src[i];
}
