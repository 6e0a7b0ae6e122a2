// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// OpBitcast between vectors and scalars of one size: uvec2 <-> uint64_t <-> double,
// f16vec2 <-> uint, i16vec2 <-> int.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { uvec2 a[]; };
layout(set = 0, binding = 1) buffer O { uint64_t o[]; };
layout(set = 0, binding = 2) buffer P { uvec2 p[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec2 v = a[i];
    o[i] = pack64(v) + 1ul;
    double d = uint64BitsToDouble(pack64(v.yx));
    uvec2 back = unpack32(doubleBitsToUint64(d));
    f16vec2 h = unpackFloat2x16(v.x);
    i16vec2 s = unpackInt2x16(int(v.y));
    p[2 * i] = back;
    p[2 * i + 1] = uvec2(packFloat2x16(h.yx), uint(packInt2x16(s + i16vec2(1s))));
}
