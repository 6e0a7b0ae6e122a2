#version 450
// Inclusive prefix sum per workgroup (Hillis-Steele in shared memory).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uint v[]; };
layout(set = 0, binding = 1) buffer Out { uint o[]; };
shared uint s[2][64];
void main() {
    uint l = gl_LocalInvocationID.x;
    uint cur = 0;
    s[0][l] = v[gl_GlobalInvocationID.x];
    barrier();
    for (uint d = 1; d < 64; d <<= 1) {
        uint x = s[cur][l];
        if (l >= d) x += s[cur][l - d];
        s[1 - cur][l] = x;
        cur = 1 - cur;
        barrier();
    }
    o[gl_GlobalInvocationID.x] = s[cur][l];
}
