// target-env: vulkan1.2
#version 450
// atomicAnd/Or/Xor: on one word from every invocation, and a bitmap of one bit per
// invocation (32 invocations per word).
layout(local_size_x = 32, local_size_y = 2) in;
layout(set = 0, binding = 0) buffer State { uint all_and; uint all_or; uint all_xor; uint bitmap[4]; };
layout(set = 0, binding = 1) readonly buffer In { uint v[]; };
void main() {
    uint i = gl_LocalInvocationIndex + 64u * gl_WorkGroupID.x;
    atomicAnd(all_and, v[i] | 0x81000000u);
    atomicOr(all_or, v[i] & 0x0f0f0f0fu);
    atomicXor(all_xor, v[i]);
    atomicOr(bitmap[i / 32u], 1u << (i % 32u));
}
