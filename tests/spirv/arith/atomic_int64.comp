// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit buffer atomics: tickets from a counter stepping in 2^32, sums, min/max, bitwise,
// exchange and a compare-exchange loop.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer State {
    uint64_t count; uint64_t sum; int64_t smin; int64_t smax; uint64_t umin; uint64_t umax;
    uint64_t all_and; uint64_t all_or; uint64_t all_xor; uint64_t slot; uint64_t cas_sum;
};
layout(set = 0, binding = 1) readonly buffer In { int64_t v[]; };
layout(set = 0, binding = 2) buffer Out { uint64_t ticket[128]; uint64_t got[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int64_t x = v[i];
    ticket[i] = atomicAdd(count, 1ul << 32);
    atomicAdd(sum, uint64_t(x));
    atomicMin(smin, x);
    atomicMax(smax, x);
    atomicMin(umin, uint64_t(x));
    atomicMax(umax, uint64_t(x));
    atomicAnd(all_and, uint64_t(x) | 0x8000000100000000ul);
    atomicOr(all_or, uint64_t(x) & 0x00ff00ff00ff00fful);
    atomicXor(all_xor, uint64_t(x));
    got[i] = atomicExchange(slot, uint64_t(i) << 33);
    uint64_t old = atomicAdd(cas_sum, 0ul);
    for (;;) {
        uint64_t seen = atomicCompSwap(cas_sum, old, old + uint64_t(x));
        if (seen == old) break;
        old = seen;
    }
}
