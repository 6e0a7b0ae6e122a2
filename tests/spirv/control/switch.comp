#version 450
// switch with fall-through, default in the middle, several labels on one case, many cases.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    // % of a negative operand is undefined in GLSL: the selector is made from x >= 0.
    int x = a[i] & 0x7fffffff, r = 0;
    switch (x % 24 - 3) {
    case 0: r += 1;
    case 1: r += 10; break;
    case 2: case 3: case -3: r = 7; break;
    case 4: r = x;
    default: r += 100;
    case 5: r += 1000; break;
    case 6: r = -6; break;
    case 7: r = 77; // fall-through into 8
    case 8: r *= 2; break;
    case 9: r = 9; break;
    case 10: r = 10; break;
    case 11: r = 11; break;
    case 12: r = 12; break;
    case 13: r = 13; break;
    case 14: r = 14; break;
    case 15: r = 15; break;
    case -1: r = -1; break;
    case -2: r = -2; break;
    case -23: r = -23; break;
    }
    switch (uint(a[i]) >> 29) { // every label without a break but the last
    case 7u: r += 1;
    case 6u: r += 2;
    case 5u: r += 4;
    }
    o[i] = r;
}
