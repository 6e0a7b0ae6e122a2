// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_16bit_storage : require
// Three-component vectors of 16- and 64-bit types in std430 buffers (6-byte vectors at an
// 8-byte stride, 24-byte vectors at a 32-byte stride).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer A { f16vec3 h[64]; i16vec3 s[64]; i64vec3 l[64]; dvec3 d[64]; } a;
layout(set = 0, binding = 1, std430) buffer O { f16vec3 h[64]; i16vec3 s[64]; i64vec3 l[64]; dvec3 d[64]; } o;
void main() {
    uint i = gl_GlobalInvocationID.x, j = 63u - i;
    o.h[i] = a.h[j].zxy;
    o.s[i] = a.s[j] + i16vec3(1s);
    o.l[i] = a.l[j] * 3l;
    o.d[i] = a.d[j].yzx;
}
