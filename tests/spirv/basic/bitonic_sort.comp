// target-env: vulkan1.1
#version 450
// Bitonic sort of 128 values per workgroup in shared memory.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0) buffer Data { uint d[]; };
shared uint s[128];
void main() {
    uint l = gl_LocalInvocationID.x, base = gl_WorkGroupID.x * 128;
    s[l] = d[base + l];
    barrier();
    for (uint k = 2; k <= 128; k <<= 1) {
        for (uint j = k >> 1; j > 0; j >>= 1) {
            uint p = l ^ j;
            uint a = s[l], b = s[p];
            barrier();
            bool up = (l & k) == 0;
            if (p > l) s[l] = up ? min(a, b) : max(a, b);
            else s[l] = up ? max(a, b) : min(a, b);
            barrier();
        }
    }
    d[base + l] = s[l];
}
