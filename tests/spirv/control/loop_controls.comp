// target-env: spirv1.4
#version 450
#extension GL_EXT_control_flow_attributes : require
// Loop and selection controls are hints: results must not depend on them.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i], s = 0;
    [[unroll]] for (int k = 0; k < 8; k++) s += x >> k;
    [[dont_unroll]] for (int k = 0; k < 5; k++) s ^= s << 3;
    [[dependency_infinite]] for (uint k = 0; k < (x & 15); k++) s += k;
    [[dependency_length(2)]] for (uint k = 0; k < 4; k++) s = s * 5 + k;
    [[min_iterations(2), max_iterations(16)]] for (uint k = 0; k < (x & 7) + 2; k++) s += 11;
    [[iteration_multiple(2)]] for (uint k = 0; k < 6; k++) s += k * k;
    [[peel_count(1)]] for (uint k = 0; k < 3; k++) s ^= k;
    [[partial_count(2)]] for (uint k = 0; k < 4; k++) s += 1;
    [[flatten]] if ((x & 1) == 1) s += 100; else s -= 100;
    [[dont_flatten]] if ((x & 2) == 2) s *= 3;
    [[flatten]] switch (x & 3) { case 0: s += 1; break; default: s += 2; break; }
    o[i] = s;
}
