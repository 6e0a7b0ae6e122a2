// target-env: vulkan1.1
#version 450
// bitfieldInsert / bitfieldExtract (signed and unsigned) with offsets and counts from the
// input, including count 0 and offset + count = 32, on scalars and vectors.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uvec4 v[]; };
layout(set = 0, binding = 1) buffer Out { uvec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = v[i];
    int off = int(x.z % 33u);
    int count = int(x.w % 33u);
    if (off + count > 32) count = 32 - off;
    uint ins = bitfieldInsert(x.x, x.y, off, count);
    uint ue = bitfieldExtract(x.x, off, count);
    int se = bitfieldExtract(int(x.y), off, count);
    ivec2 sv = bitfieldExtract(ivec2(x.xy), 4, 8);
    o[2u * i] = uvec4(ins, ue, uint(se), uint(count));
    uvec2 iv = bitfieldInsert(x.xy, x.yx, 28, 4);
    o[2u * i + 1u] = uvec4(uvec2(sv), iv);
}
