#version 450
// Image atomics on r32ui and r32i (4x2 each): 64 invocations apply, with value v = a[i],
// add to texel (0, 0), min (1, 0), max (2, 0), and (3, 0), or (0, 1), xor (1, 1), exchange
// (2, 1), and compare-exchange 0 -> i + 1 (3, 1); the returned values go to o.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer Out { uint o[]; };
layout(set = 0, binding = 2, r32ui) uniform uimage2D u;
layout(set = 0, binding = 3, r32i) uniform iimage2D s;
void main() {
    uint i = gl_LocalInvocationIndex;
    int v = a[i];
    uint w = uint(v);
    o[16 * i] = imageAtomicAdd(u, ivec2(0, 0), w);
    o[16 * i + 1] = imageAtomicMin(u, ivec2(1, 0), w);
    o[16 * i + 2] = imageAtomicMax(u, ivec2(2, 0), w);
    o[16 * i + 3] = imageAtomicAnd(u, ivec2(3, 0), w);
    o[16 * i + 4] = imageAtomicOr(u, ivec2(0, 1), w);
    o[16 * i + 5] = imageAtomicXor(u, ivec2(1, 1), w);
    o[16 * i + 6] = imageAtomicExchange(u, ivec2(2, 1), w);
    o[16 * i + 7] = imageAtomicCompSwap(u, ivec2(3, 1), 0u, i + 1u);
    o[16 * i + 8] = uint(imageAtomicAdd(s, ivec2(0, 0), v));
    o[16 * i + 9] = uint(imageAtomicMin(s, ivec2(1, 0), v));
    o[16 * i + 10] = uint(imageAtomicMax(s, ivec2(2, 0), v));
    o[16 * i + 11] = uint(imageAtomicAnd(s, ivec2(3, 0), v));
    o[16 * i + 12] = uint(imageAtomicOr(s, ivec2(0, 1), v));
    o[16 * i + 13] = uint(imageAtomicXor(s, ivec2(1, 1), v));
    o[16 * i + 14] = uint(imageAtomicExchange(s, ivec2(2, 1), v));
    o[16 * i + 15] = uint(imageAtomicCompSwap(s, ivec2(3, 1), 0, int(i) + 1));
}
