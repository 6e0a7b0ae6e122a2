// target-env: vulkan1.3
#version 450
// Tree reduction in shared memory with barriers; one sum per workgroup.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uint sums[]; };
shared uint s[128];
void main() {
    uint l = gl_LocalInvocationID.x;
    s[l] = v[gl_GlobalInvocationID.x];
    barrier();
    for (uint w = 64; w > 0; w >>= 1) {
        if (l < w) s[l] += s[l + w];
        barrier();
    }
    if (l == 0) sums[gl_WorkGroupID.x] = s[0];
}
