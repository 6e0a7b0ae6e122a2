// target-env: vulkan1.3
#version 450
// Lock-free accumulation with compare-exchange loops: an integer sum and a float sum
// built on the bits (its terms are multiples of 1/4, so any order gives the exact sum).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Total { uint total; uint fbits; uint tries; };
layout(set = 0, binding = 1) readonly buffer In { uint v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint old = total;
    for (;;) {
        uint seen = atomicCompSwap(total, old, old + v[i]);
        if (seen == old) break;
        old = seen;
    }
    float term = float(v[i] % 64u) * 0.25;
    uint fold = atomicAdd(fbits, 0u);
    for (;;) {
        uint fnew = floatBitsToUint(uintBitsToFloat(fold) + term);
        uint seen = atomicCompSwap(fbits, fold, fnew);
        if (seen == fold) break;
        fold = seen;
    }
    atomicAdd(tries, 1u);
}
