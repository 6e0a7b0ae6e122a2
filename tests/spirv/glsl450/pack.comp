// target-env: vulkan1.0
#version 450
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { vec4 a[]; };
layout(set = 0, binding = 1) writeonly buffer O { uint o[]; };
const uint M = 32;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 v = a[i];
    o[0 * M + i] = packSnorm4x8(v);
    o[1 * M + i] = packUnorm4x8(v);
    o[2 * M + i] = packSnorm2x16(v.xy);
    o[3 * M + i] = packUnorm2x16(v.zw);
    o[4 * M + i] = packHalf2x16(v.yz);
}
