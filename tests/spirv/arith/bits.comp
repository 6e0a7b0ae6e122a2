// target-env: vulkan1.3
#version 450
// bitCount and bitfieldReverse on signed and unsigned vectors.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer In { uvec4 v[]; };
layout(set = 0, binding = 1) buffer Out { uvec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec4 x = v[i];
    o[3u * i] = uvec4(bitCount(x));
    o[3u * i + 1u] = uvec4(bitCount(ivec4(x)));
    o[3u * i + 2u] = bitfieldReverse(x.wzyx) ^ uvec4(bitfieldReverse(ivec4(x)).yxwz);
}
