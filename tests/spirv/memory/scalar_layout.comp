// target-env: vulkan1.2
#version 450
#extension GL_EXT_scalar_block_layout : require
// Scalar block layout: vec3 and mat3 packed at 4-byte alignment, in a storage buffer
// array of structs (stride 52) and a push-constant block.
layout(local_size_x = 64) in;
struct S { float a; vec3 v; mat3 m; };
layout(set = 0, binding = 0, scalar) buffer A { S s[]; };
layout(set = 0, binding = 1, scalar) buffer O { vec3 o[]; };
layout(push_constant, scalar) uniform P { vec3 k; mat2x3 n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    S x = s[i];
    o[i] = x.m * x.v + x.a * pc.k + pc.n[1];
    s[i].v = x.m[i % 3u];
}
