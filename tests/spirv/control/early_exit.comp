// target-env: vulkan1.3
#version 450
// Early exits: return from main inside nested loops (divergent), while (true) with break,
// continue inside do/while, and a function returning from inside a switch in a loop.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) buffer O { uint o[]; };
uint scan(uint x) {
    for (uint k = 0; k < 32; k++) {
        switch ((x >> k) & 3u) {
        case 3u: return k;
        case 2u: if (k > 20) return 100 + k; break;
        default: break;
        }
    }
    return 999;
}
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    o[2 * i] = scan(x);
    uint n = 0;
    while (true) {
        n++;
        if (n * n > (x & 1023)) break;
    }
    uint m = 0, c = 0;
    do {
        c++;
        if ((c & 1) == 0) continue;
        m += c;
    } while (c < (x & 15));
    for (uint j = 0; j < 8; j++) {
        for (uint k = 0; k < 8; k++) {
            if (j * 8 + k == (x >> 8 & 63)) {
                o[2 * i + 1] = n * 10000 + m * 10 + j;
                return;
            }
        }
    }
    o[2 * i + 1] = n * 10000 + m * 10 + 9;
}
