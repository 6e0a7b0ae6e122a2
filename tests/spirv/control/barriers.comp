// target-env: vulkan1.1
#version 450
// Divergent control flow between barriers that are in uniform control flow: a workgroup
// reduction whose rounds are a uniform loop, with divergent work inside each round.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
shared uint s[64];
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    uint v = a[i];
    if ((v & 1) == 0) {
        for (uint k = 0; k < (v & 7); k++) v += k;
    } else {
        v = v * 3;
    }
    s[l] = v;
    barrier();
    for (uint w = 32; w > 0; w >>= 1) {
        if (l < w) s[l] += s[l + w];
        barrier();
    }
    o[i] = v + (l == 0 ? s[0] : 0);
}
