// target-env: vulkan1.1
#version 450
#extension GL_ARB_shader_ballot : require
#extension GL_ARB_gpu_shader_int64 : require
// GL_ARB_shader_ballot: OpSubgroupBallotKHR, FirstInvocationKHR, ReadInvocationKHR, and the
// 64-bit masks.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    uint64_t b = ballotARB((x & 1u) != 0u);
    r[i * 6u] = uint(b);
    r[i * 6u + 1u] = uint(b >> 32);
    r[i * 6u + 2u] = readFirstInvocationARB(x);
    r[i * 6u + 3u] = readInvocationARB(x, 5u);
    r[i * 6u + 4u] = uint(gl_SubGroupLtMaskARB) ^ uint(gl_SubGroupGeMaskARB >> 32);
    r[i * 6u + 5u] = gl_SubGroupSizeARB * 1000u + gl_SubGroupInvocationARB;
}
