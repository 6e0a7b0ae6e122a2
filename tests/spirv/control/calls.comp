// target-env: vulkan1.2
#version 450
// Function calls: in / out / inout parameters, struct and array results, a deep chain, and an
// early return out of nested loops.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { int a[]; };
layout(set = 0, binding = 1) writeonly buffer O { int o[]; };
struct Pair { int lo; int hi; };
Pair split(int v) { return Pair(v & 0xffff, v >> 16); }
int[4] digits(int v) {
    int d[4];
    for (int k = 0; k < 4; k++) d[k] = (v >> (4 * k)) & 15;
    return d;
}
void accumulate(in int v, inout int sum, out int count) {
    sum += v;
    count = v & 7;
}
int find(int v) { // the first (j, k) with j * k == v % 37, as j * 100 + k, or -1
    for (int j = 1; j < 10; j++) {
        for (int k = 1; k < 10; k++) {
            if (j * k == (v & 0xffff) % 37) return j * 100 + k;
        }
    }
    return -1;
}
int d1(int v) { return v + 1; }
int d2(int v) { return d1(v) * 2; }
int d3(int v) { return d2(v) - 3; }
int d4(int v) { return d3(v) ^ 4; }
int d5(int v) { return d4(v) + d1(v); }
int d6(int v) { return d5(v) * d2(1); }
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    Pair p = split(x);
    int d[4] = digits(x);
    int sum = 5, count;
    accumulate(d[1] + d[3], sum, count);
    o[6 * i] = p.lo;
    o[6 * i + 1] = p.hi;
    o[6 * i + 2] = sum;
    o[6 * i + 3] = count;
    o[6 * i + 4] = find(x);
    o[6 * i + 5] = d6(x & 0xfff);
}
