#version 450
// Loops (for, while, do-while with break/continue), a switch with fall-through, non-inlined
// function calls with in/out parameters, and integer/float conversions and division.
layout(local_size_x = 32) in;

layout(set = 0, binding = 0, std430) buffer Data { int values[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Result { float results[]; };
layout(push_constant) uniform Params { int count; int divisor; uint shift; } pc;

int classify(int v) {
    int r = 0;
    switch (v & 7) {
    case 0:
        r = 10;
        break;
    case 1:
    case 2:
        r = 20;
        // fall through
    case 3:
        r += 1;
        break;
    case 6:
        return -1;
    default:
        r = v / max(pc.divisor, 1);
    }
    return r;
}

void accumulate(inout int acc, in int v, out uint steps) {
    steps = 0u;
    while (v > 1) {
        v = (v % 2 == 0) ? v / 2 : 3 * v + 1;
        steps++;
        if (steps > 100u) break;
    }
    acc += int(steps);
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= uint(pc.count)) return;
    int v = values[i];
    int acc = 0;
    uint steps;
    for (int k = 0; k < 4; k++) {
        if (k == 2) continue;
        acc += classify(v + k);
    }
    accumulate(acc, v, steps);
    int j = 0;
    do {
        acc ^= j << int(pc.shift);
        j++;
    } while (j < int(steps % 5u));
    acc += v % max(pc.divisor, 1) + int(uint(v) / 3u) + int(uint(v) % 7u) + (v >> 2) + int(uint(v) >> pc.shift);
    float f = float(acc) * 0.5 + float(steps) / 3.0 + float(uint(v));
    values[i] = int(f) + int(uint(f * 2.0));
    results[i] = f - float(int(f));
}
