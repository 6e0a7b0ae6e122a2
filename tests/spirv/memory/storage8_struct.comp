// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_8bit_storage : require
#extension GL_EXT_shader_16bit_storage : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// Structs of 8- and 16-bit vectors stored to and loaded from storage buffers. LLVM 19's
// SLP vectoriser merges the lowering's scalar byte and short buffer accesses into
// <N x i8> and <3 x i16> ones, which its AMDGPU instruction selection cannot legalise
// (a fatal error that ended the process: the CTS's
// 8bit_storage.storagebuffer_32struct_to_8struct).
layout(local_size_x = 64) in;
struct S { i8vec2 a; i8vec3 b; i8vec4 c; i16vec3 d; };
layout(set = 0, binding = 0) buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) buffer O { S o[]; };
layout(set = 0, binding = 2) buffer R { ivec4 r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 v = a[i];
    S s;
    s.a = i8vec2(v.xy);
    s.b = i8vec3(v.yzw);
    s.c = i8vec4(v);
    s.d = i16vec3(v.xzw);
    o[i] = s;
    // Read back a neighbour's struct written by the host-side reference's layout.
    S t = o[i];
    r[i] = ivec4(t.c) + ivec4(t.b, 0) + ivec4(t.d, 1) + ivec4(t.a, 0, 0);
}
