// Workgroups, LDS, barriers, atomics, control flow, scratch, sub-groups.
#define WG 64

__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void reduce_sum(__global const int *A, __global int *R) {
    __local int tmp[WG];
    uint l = get_local_id(0);
    tmp[l] = A[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint s = WG / 2; s > 0; s >>= 1) {
        if (l < s) tmp[l] += tmp[l + s];
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    if (l == 0) R[get_group_id(0)] = tmp[0];
}

// Inclusive prefix sum within each workgroup (Hillis-Steele).
__kernel __attribute__((reqd_work_group_size(128, 1, 1))) void prefix_sum(__global const int *A, __global int *R) {
    __local int buf[2][128];
    uint l = get_local_id(0);
    int cur = 0;
    buf[0][l] = A[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint off = 1; off < 128; off <<= 1) {
        int v = buf[cur][l];
        if (l >= off) v += buf[cur][l - off];
        buf[cur ^ 1][l] = v;
        cur ^= 1;
        barrier(CLK_LOCAL_MEM_FENCE);
    }
    R[get_global_id(0)] = buf[cur][l];
}

// 16x16 tiles through LDS; the grid is 2D.
__kernel __attribute__((reqd_work_group_size(16, 16, 1))) void transpose(__global const float *A, __global float *R, uint n) {
    __local float tile[16][17];
    uint x = get_global_id(0), y = get_global_id(1);
    tile[get_local_id(1)][get_local_id(0)] = A[y * n + x];
    barrier(CLK_LOCAL_MEM_FENCE);
    uint ox = get_group_id(1) * 16 + get_local_id(0), oy = get_group_id(0) * 16 + get_local_id(1);
    R[oy * n + ox] = tile[get_local_id(0)][get_local_id(1)];
}

// Histogram of bytes: local atomics, then global atomics.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void histogram(__global const uint *A, __global uint *H) {
    __local uint h[16];
    uint l = get_local_id(0);
    if (l < 16) h[l] = 0;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint v = A[get_global_id(0)];
    for (int k = 0; k < 4; k++) atomic_inc(&h[(v >> (8 * k)) & 15]);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 16) atomic_add(&H[l], h[l]);
}

// Global atomics on a few counters: add, min, max, xchg (sum of old values), inc, cmpxchg.
__kernel void atomics(__global const int *A, __global int *C) {
    int v = A[get_global_id(0)];
    atomic_add(&C[0], v);
    atomic_min(&C[1], v);
    atomic_max(&C[2], v);
    atomic_inc((__global uint *)&C[3]);
    int old = C[4];
    int seen;
    while ((seen = atomic_cmpxchg(&C[4], old, old ^ v)) != old) old = seen;
    __builtin_amdgcn_atomic_inc32((volatile __global uint *)&C[5], 9u, __ATOMIC_RELAXED, "agent");
    atomic_xchg(&C[6 + (get_global_id(0) & 1)], v);
}

// Local atomics: min/max/add per workgroup, written out by lane 0.
__kernel __attribute__((reqd_work_group_size(WG, 1, 1))) void local_atomics(__global const int *A, __global int *R) {
    __local int s[3];
    uint l = get_local_id(0);
    if (l == 0) { s[0] = 0; s[1] = INT_MAX; s[2] = INT_MIN; }
    barrier(CLK_LOCAL_MEM_FENCE);
    int v = A[get_global_id(0)];
    atomic_add(&s[0], v);
    atomic_min(&s[1], v);
    atomic_max(&s[2], v);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 3) R[get_group_id(0) * 3 + l] = s[l];
}

// A dynamic __local argument: its size comes from specialisation constant 3.
__kernel void dynamic_lds(__global const int *A, __global int *R, __local int *tmp) {
    uint l = get_local_id(0), n = get_local_size(0);
    tmp[l] = A[get_global_id(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    R[get_global_id(0)] = tmp[n - 1 - l] * 2;
}

// Loops and data-dependent trip counts: Collatz steps.
__kernel void collatz(__global const uint *A, __global uint *R) {
    uint x = A[get_global_id(0)], steps = 0;
    while (x > 1 && steps < 1000) {
        x = (x & 1) ? 3 * x + 1 : x / 2;
        steps++;
    }
    R[get_global_id(0)] = steps;
}

__kernel void switch_case(__global const int *A, __global int *R) {
    int a = A[get_global_id(0)], r;
    switch (a & 7) {
    case 0: r = a * 2; break;
    case 1: r = a - 100; break;
    case 2:
    case 3: r = a ^ 0x55; break;
    case 5: r = -a; break;
    default: r = a / 3;
    }
    R[get_global_id(0)] = r;
}

__kernel void branches(__global const int *A, __global int *R) {
    int a = A[get_global_id(0)], r = 0;
    if (a > 0) {
        if (a % 3 == 0) r = 1;
        else if (a % 3 == 1) r = 2;
        else { for (int k = 0; k < (a & 15); k++) r += k; }
    } else if (a < -50) {
        r = -1;
    }
    R[get_global_id(0)] = r;
}

// A private array indexed at run time (scratch): insertion sort of 16 values per item.
__kernel void private_sort(__global const uint *A, __global uint *R) {
    uint v[16];
    size_t i = get_global_id(0);
    for (int k = 0; k < 16; k++) v[k] = A[(i * 16 + k * 7) % (get_global_size(0) * 16)];
    for (int k = 1; k < 16; k++) {
        uint x = v[k];
        int j = k - 1;
        while (j >= 0 && v[j] > x) { v[j + 1] = v[j]; j--; }
        v[j + 1] = x;
    }
    R[i] = v[A[i] & 15] ^ v[0] << 1;
}

// Naive matrix multiply, n x n, 2D grid.
__kernel __attribute__((reqd_work_group_size(8, 8, 1))) void matmul(__global const float *A, __global const float *B, __global float *C, uint n) {
    uint r = get_global_id(1), c = get_global_id(0);
    float acc = 0.0f;
    for (uint k = 0; k < n; k++) acc = fma(A[r * n + k], B[k * n + c], acc);
    C[r * n + c] = acc;
}

// 3-point stencil with clamped edges.
__kernel void stencil(__global const float *A, __global float *R) {
    size_t i = get_global_id(0), n = get_global_size(0);
    float l = A[i == 0 ? 0 : i - 1], c = A[i], r = A[i + 1 == n ? i : i + 1];
    R[i] = 0.25f * l + 0.5f * c + 0.25f * r;
}

// Work-item functions in 3D: ids, sizes, groups, work_dim.
__kernel void ids_3d(__global uint *R) {
    size_t gx = get_global_id(0), gy = get_global_id(1), gz = get_global_id(2);
    size_t i = (gz * get_global_size(1) + gy) * get_global_size(0) + gx;
    R[4 * i + 0] = gx | gy << 8 | gz << 16 | get_work_dim() << 24;
    R[4 * i + 1] = get_local_id(0) | get_local_id(1) << 8 | get_local_id(2) << 16;
    R[4 * i + 2] = get_group_id(0) | get_group_id(1) << 8 | get_group_id(2) << 16;
    R[4 * i + 3] = get_num_groups(0) | get_num_groups(1) << 8 | get_num_groups(2) << 16 | get_local_size(0) << 24;
}

// Sub-groups (waves): size, lane, broadcast from lane 1, a reduction with readlane.
__kernel void subgroups(__global const int *A, __global int *R) {
    int v = A[get_global_id(0)];
    uint n = get_sub_group_size(), lane = get_sub_group_local_id();
    int sum = 0;
    for (uint k = 0; k < n; k++) sum += __builtin_amdgcn_readlane(v, k);
    R[4 * get_global_id(0) + 0] = n;
    R[4 * get_global_id(0) + 1] = lane;
    R[4 * get_global_id(0) + 2] = sub_group_broadcast(v, 1);
    R[4 * get_global_id(0) + 3] = sum;
}
