#version 450
// Storage texel buffer atomics and loads (tests/src/bin/texel.rs): every invocation adds
// its index + 1 to texel i % 4 of an r32ui view, returns the old value, and also adds to
// texel count + 3 (out of range: dropped); then, after a barrier, imageLoad of
// texels 0..7 (4..7 are the filler bytes after the counters) by the first invocations.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform coherent uimageBuffer counters;
layout(set = 0, binding = 1) buffer Out {
    uint loaded[8];
    uint oob_old[64];
} o;
layout(push_constant) uniform P {
    uint count;
} p;
void main() {
    uint i = gl_LocalInvocationIndex;
    imageAtomicAdd(counters, int(i % 4), i + 1);
    o.oob_old[i] = imageAtomicAdd(counters, int(p.count + 3), 1u);
    memoryBarrierImage();
    barrier();
    if (i < 8) {
        o.loaded[i] = imageLoad(counters, int(i)).x;
    }
}
