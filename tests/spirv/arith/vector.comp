// target-env: vulkan1.3
#version 450
// Dynamic component access (OpVectorExtractDynamic / OpVectorInsertDynamic), swizzles
// (OpVectorShuffle), negation, bitwise not, vector times scalar and float dot products.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { ivec4 v[]; };
layout(set = 0, binding = 1) buffer Out { ivec4 o[]; };
layout(set = 0, binding = 2) buffer F { vec4 f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = v[i];
    uint k = uint(x.w) & 3u;
    ivec4 y = x.wzyx;
    y[k] = x[(k + 1u) & 3u];
    o[3u * i] = y;
    o[3u * i + 1u] = ivec4(-x.xy, ~x.zw);
    o[3u * i + 2u] = ivec4(x.yyx, x[k]);
    vec4 a = vec4(x & 255) * 0.25;
    vec4 b = vec4((x >> 8) & 15) - 4.0;
    f[2u * i] = -a * 2.5;
    f[2u * i + 1u] = vec4(dot(a, b), dot(a.xy, b.zw), dot(a.xyz, -b.xyz), -dot(a, a));
}
