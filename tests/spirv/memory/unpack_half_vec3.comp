// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// Halves kept in the low 16 bits of uvec3 elements (the CTS's
// glsl.builtin.precision_fp16_storage32b.comparison.compute.vec3): each element bitcast
// to f16vec2 (OpBitcast) and its .x taken. InstCombine folds the bitcasts into the
// <3 x i32> buffer load, making a <6 x half> load that LLVM 19's AMDGPU backend cannot
// widen; the compiler must still produce the shader.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer A { uvec3 a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec3 u = a[i];
    f16vec3 h = f16vec3(unpackFloat2x16(u.x).x, unpackFloat2x16(u.y).x, unpackFloat2x16(u.z).x);
    uvec3 v = a[i ^ 1u];
    f16vec3 g = f16vec3(unpackFloat2x16(v.x).x, unpackFloat2x16(v.y).x, unpackFloat2x16(v.z).x);
    o[i] = vec4(vec3(h + g), float(all(equal(lessThan(h, g), bvec3(true, false, true)))));
}
