// target-env: vulkan1.1
#version 450
#extension GL_ARB_shader_group_vote : require
// GL_ARB_shader_group_vote: OpSubgroupAllKHR / AnyKHR / AllEqualKHR.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint x = a[i];
    r[i * 3u] = uint(allInvocationsARB(x < 1000u));
    r[i * 3u + 1u] = uint(anyInvocationARB(x == 7u));
    r[i * 3u + 2u] = uint(allInvocationsEqualARB(x / 1000u == 3u));
}
