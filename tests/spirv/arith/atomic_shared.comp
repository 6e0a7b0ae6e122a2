// target-env: spirv1.4
#version 450
// Workgroup-memory atomics: a ticket counter, min/max, a bitmap, an exchange and a xor, then one
// row of results per workgroup.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int v[]; };
layout(set = 0, binding = 1) buffer Tickets { uint ticket[]; };
layout(set = 0, binding = 2) buffer Rows { uint row[]; };
shared uint count;
shared int lo;
shared int hi;
shared uint bits[2];
shared uint last;
shared uint x;
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    if (l == 0u) {
        count = 0u; lo = 2147483647; hi = -2147483647 - 1; bits[0] = 0u; bits[1] = 0u; last = 1000u; x = 0u;
    }
    barrier();
    ticket[i] = atomicAdd(count, 1u);
    atomicMin(lo, v[i]);
    atomicMax(hi, v[i]);
    atomicOr(bits[l / 32u], 1u << (l % 32u));
    atomicXor(x, uint(v[i]));
    atomicExchange(last, l);
    barrier();
    if (l == 0u) {
        uint r = 7u * gl_WorkGroupID.x;
        row[r] = count; row[r + 1u] = uint(lo); row[r + 2u] = uint(hi);
        row[r + 3u] = bits[0]; row[r + 4u] = bits[1]; row[r + 5u] = last; row[r + 6u] = x;
    }
}
