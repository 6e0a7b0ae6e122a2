// target-env: vulkan1.3
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_atomic_int64 : require
// 64-bit workgroup-memory atomics; one row per workgroup.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int64_t v[]; };
layout(set = 0, binding = 1) buffer Rows { uint64_t row[]; };
shared uint64_t sum;
shared int64_t lo;
shared uint64_t hi;
shared uint64_t x;
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    if (l == 0u) { sum = 0ul; lo = 0x7fffffffffffffffl; hi = 0ul; x = 0ul; }
    barrier();
    atomicAdd(sum, uint64_t(v[i]));
    atomicMin(lo, v[i]);
    atomicMax(hi, uint64_t(v[i]));
    atomicXor(x, uint64_t(v[i]));
    barrier();
    if (l == 0u) {
        uint r = 4u * gl_WorkGroupID.x;
        row[r] = sum; row[r + 1u] = uint64_t(lo); row[r + 2u] = hi; row[r + 3u] = x;
    }
}
