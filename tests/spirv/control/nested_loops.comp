// target-env: vulkan1.0
#version 450
// Nested loops with continue and break at both levels, and a do/while.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], acc = 0;
    for (uint j = 0; j < 12; j++) {
        if ((x >> j & 1) == 1) continue;
        for (uint k = j; k < 20; k += 3) {
            if (k == 14) continue;
            acc = acc * 3 + k;
            if (((acc ^ x) & 31) == 7) break;
        }
        if (acc > 0x40000000u) break;
    }
    uint n = 0;
    do {
        x = (x & 1) == 1 ? 3 * x + 1 : x >> 1;
        n++;
    } while (x != 1 && n < 50);
    o[2 * i] = acc;
    o[2 * i + 1] = n;
}
