// Memory instructions end to end: LDS (every width, two-address forms, D16, atomics,
// swizzle, permute, append/consume), private arrays in scratch, generic (flat) pointers
// into global, local and private memory, global atomics of every kind, byte/short and D16
// global accesses. Each kernel runs in workgroups of 64 (N = 128 work-items, two groups);
// the CPU references are in tests/src/bin/clkernels.rs (memory_cases). The opcodes each
// kernel needs are listed there, as llvm-objdump-19 shows them for the gfx1100 builds.
#define WG 64
#define K __kernel __attribute__((reqd_work_group_size(WG, 1, 1)))
#define LID ((uint)get_local_id(0))
#define GID ((uint)get_global_id(0))

// Device-scope atomics (system scope would turn global min/max into compare-and-swap loops).
#define DEV(op, p, v) __scoped_atomic_##op(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_DEVICE)
#define WGS(op, p, v) __scoped_atomic_##op(p, v, __ATOMIC_RELAXED, __MEMORY_SCOPE_WRKGRP)

// ---- LDS --------------------------------------------------------------------------------------

// Bytes: ds_store_b8, ds_load_i8, ds_load_u8.
K void lds_i8(__global const char *A, __global int *R) {
    __local char c[WG];
    __local uchar u[WG];
    uint l = LID, g = GID;
    c[l] = A[g];
    u[l] = (uchar)(A[g] ^ 0x5a);
    barrier(CLK_LOCAL_MEM_FENCE);
    R[g] = (int)c[WG - 1 - l] * 1000 + (int)u[(l * 5 + 3) % WG];
}

// Shorts: ds_store_b16, ds_load_i16, ds_load_u16.
K void lds_i16(__global const short *A, __global int *R) {
    __local short c[WG];
    __local ushort u[WG];
    uint l = LID, g = GID;
    c[l] = A[g];
    u[l] = (ushort)(A[g] ^ 0x5a5a);
    barrier(CLK_LOCAL_MEM_FENCE);
    R[g] = (int)c[WG - 1 - l] * 3 + (int)u[(l * 5 + 3) % WG];
}

// Longs: ds_store_b64, ds_load_b64.
K void lds_b64(__global const long *A, __global long *R) {
    __local long q[WG];
    uint l = LID, g = GID;
    q[l] = A[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    R[g] = q[WG - 1 - l] * 3 + q[(l * 7 + 1) % WG];
}

// Vectors: ds_store_b64/b96/b128, ds_load_b64/b96/b128 (a 12-byte struct at 16-byte
// alignment is a b96 access).
typedef struct { int x, y, z; } __attribute__((aligned(16))) int3a;
K void lds_vec(__global const int4 *A, __global int4 *R) {
    __local int2 v2[WG];
    __local int3a v3[WG];
    __local int4 v4[WG];
    uint l = LID, g = GID;
    int4 a = A[g];
    v2[l] = a.xy;
    v3[l].x = a.y;
    v3[l].y = a.z;
    v3[l].z = a.w;
    v4[l] = a.wzyx;
    barrier(CLK_LOCAL_MEM_FENCE);
    int2 x = v2[WG - 1 - l];
    int3a y = v3[(l + 7) % WG];
    int4 z = v4[(l + 13) % WG];
    R[g] = (int4)(x.x + y.z, x.y ^ y.x, z.x - z.w, z.y * 3 + z.z + y.y);
}

// Two addresses per instruction: ds_store_2addr(_stride64)_b32/b64 and the loads.
K void lds_2addr(__global const int *A, __global int *R) {
    __local int t[4 * WG];
    __local long q[2 * WG];
    uint l = LID, g = GID;
    int a = A[g];
    t[l] = a;
    t[l + WG] = a * 3;
    t[l + 2 * WG] = a ^ 0x1234;
    t[l + 3 * WG] = ~a;
    q[l] = (long)a << 20;
    q[l + WG] = (long)a - 5;
    barrier(CLK_LOCAL_MEM_FENCE);
    // m + 1 may be odd: two dwords at 4-byte alignment are one ds_load_2addr_b32.
    uint m = WG - 2 - (l & 62) + (l & 1), p = (l * 3) % (WG - 1);
    long s = q[m] + q[m + WG] + q[p] - q[p + 1];
    R[2 * g] = t[m] + t[m + 1] * 5 + t[m + 2 * WG] - t[m + 3 * WG] + t[p + WG] * 7 - t[p + WG + 1];
    R[2 * g + 1] = (int)(s ^ (s >> 32));
}

// Halves and shorts into the halves of a register: the D16 loads and stores.
K void lds_d16(__global const half *A, __global half *R) {
    __local half h[2 * WG];
    __local short s[2 * WG];
    __local char c[2 * WG];
    uint l = LID, g = GID;
    h[l] = A[2 * g];
    h[l + WG] = A[2 * g + 1];
    s[l] = as_short(A[2 * g]) >> 3;
    s[l + WG] = as_short(A[2 * g + 1]) + 1;
    c[l] = (char)as_short(A[2 * g]);
    c[l + WG] = (char)(as_short(A[2 * g + 1]) >> 8);
    barrier(CLK_LOCAL_MEM_FENCE);
    uint m = WG - 1 - l;
    half2 v = (half2)(h[m], h[l + WG]);
    short2 w = (short2)(s[m + WG], s[l]);
    short2 b = (short2)(c[m], (uchar)c[l + WG]);
    v = v * (half2)(2.0h, 0.5h);
    w = w + b;
    barrier(CLK_LOCAL_MEM_FENCE);
    h[l] = v.y;
    h[l + WG] = v.x;
    s[m] = w.y;
    c[m] = (char)w.y;
    c[m + WG] = (char)w.x;
    barrier(CLK_LOCAL_MEM_FENCE);
    R[4 * g] = h[l];
    R[4 * g + 1] = h[l + WG];
    R[4 * g + 2] = as_half(s[l]);
    R[4 * g + 3] = as_half((short)((ushort)(uchar)c[l] | (ushort)(uchar)c[l + WG] << 8));
}

// The low-half D16 forms: a load into the low half of a register whose high half is live
// (global_load_d16_b16/_u8/_i8, ds_load_u16_d16/u8_d16/i8_d16), and byte stores of a high
// half.
K void d16_lo(__global const half2 *A, __global const half *B, __global const char *C, __global half2 *R,
              __global short2 *S, __global char *T) {
    __local half2 lh[WG];
    __local half lb[WG];
    __local char lc[WG];
    uint l = LID, g = GID, m = 2 * WG - 1 - g;
    half2 v = A[g];
    v.x = B[m];
    short2 s = as_short2(A[m]);
    s.x = C[g];
    short2 u = as_short2(A[g ^ 1]);
    u.x = (uchar)C[m];
    lh[l] = v;
    lb[l] = B[g];
    lc[l] = C[g];
    barrier(CLK_LOCAL_MEM_FENCE);
    half2 w = lh[WG - 1 - l];
    w.x = lb[(l + 5) % WG];
    short2 z = as_short2(lh[l]);
    z.x = lc[(l + 9) % WG];
    short2 y = as_short2(lh[(l + 1) % WG]);
    y.x = (uchar)lc[(l + 3) % WG];
    barrier(CLK_LOCAL_MEM_FENCE);
    R[g] = v * w;
    S[g] = s + z;
    S[g + 2 * WG] = u + y;
    short2 t = s + y;
    T[g] = (char)t.y;
    lc[l] = (char)t.y;
    barrier(CLK_LOCAL_MEM_FENCE);
    T[g + 2 * WG] = lc[(l + 7) % WG];
}

// Local atomics without return: the final values are the same in any order. inc/dec wrap
// at their limit (ds_inc_u32: old >= limit ? 0 : old + 1; ds_dec_u32: old == 0 || old >
// limit ? limit : old - 1), the same limit for every lane.
K void lds_atomics(__global const int *A, __global int *R) {
    __local int s[12];
    uint l = LID, g = GID;
    if (l == 0) {
        s[0] = 0; s[1] = 1000; s[2] = -1; s[3] = 0; s[4] = 0x5a5a5a5a; s[5] = INT_MAX;
        s[6] = INT_MIN; s[7] = -1; s[8] = 0; s[9] = 0; s[10] = 5; s[11] = 1;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = A[g];
    WGS(fetch_add, &s[0], a);
    WGS(fetch_sub, &s[1], a);
    WGS(fetch_and, &s[2], ~(1 << (l % 32)) | a);
    WGS(fetch_or, &s[3], a & (0x11 << (l % 27)));
    WGS(fetch_xor, &s[4], a);
    WGS(fetch_min, &s[5], a);
    WGS(fetch_max, &s[6], a);
    WGS(fetch_min, (__local uint *)&s[7], (uint)a);
    WGS(fetch_max, (__local uint *)&s[8], (uint)a);
    __builtin_amdgcn_atomic_inc32((volatile __local uint *)&s[9], 9u, __ATOMIC_RELAXED, "workgroup");
    __builtin_amdgcn_atomic_dec32((volatile __local uint *)&s[10], 37u, __ATOMIC_RELAXED, "workgroup");
    // Multiplication by odd numbers (modulo 2^32) through compare-and-swap.
    int old = s[11], seen;
    while ((seen = atomic_cmpxchg(&s[11], old, (int)((uint)old * (2u * (uint)a + 1u)))) != old) old = seen;
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 12) R[get_group_id(0) * 12 + l] = s[l];
}

// Local atomics with return. Per item: the slot from add 1, the old values of sub 1, inc
// (limit 1000), dec (limit 1000), xchg, min, or and max_u; per group the final values.
K void lds_atomics_rtn(__global const int *A, __global int *R, __global int *F) {
    __local int s[8];
    uint l = LID, g = GID;
    if (l == 0) {
        s[0] = 0; s[1] = 0; s[2] = 0; s[3] = 500; s[4] = -7; s[5] = INT_MAX; s[6] = 0; s[7] = 0;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = A[g];
    R[8 * g + 0] = WGS(fetch_add, &s[0], 1);
    R[8 * g + 1] = WGS(fetch_sub, &s[1], 1);
    R[8 * g + 2] = __builtin_amdgcn_atomic_inc32((volatile __local uint *)&s[2], 1000u, __ATOMIC_RELAXED, "workgroup");
    R[8 * g + 3] = __builtin_amdgcn_atomic_dec32((volatile __local uint *)&s[3], 1000u, __ATOMIC_RELAXED, "workgroup");
    R[8 * g + 4] = WGS(exchange_n, &s[4], a);
    R[8 * g + 5] = WGS(fetch_min, &s[5], a);
    R[8 * g + 6] = WGS(fetch_or, &s[6], 1 << (l % 32));
    R[8 * g + 7] = WGS(fetch_max, (__local uint *)&s[7], (uint)a);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 8) F[get_group_id(0) * 8 + l] = s[l];
}

// 64-bit local atomics, without return but for xchg (X: the old values of s[12]) and the
// compare-and-swap loop.
K void lds_atomics64(__global const long *A, __global long *R, __global long *X) {
    __local long s[13];
    uint l = LID, g = GID;
    if (l == 0) {
        s[0] = 0; s[1] = 1000; s[2] = -1; s[3] = 0; s[4] = 0x5a5a5a5a5a5a5a5aL; s[5] = LONG_MAX;
        s[6] = LONG_MIN; s[7] = -1; s[8] = 0; s[9] = 0; s[10] = 5; s[11] = 1; s[12] = -3;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    long a = A[g];
    WGS(fetch_add, &s[0], a);
    WGS(fetch_sub, &s[1], a);
    WGS(fetch_and, &s[2], ~(1L << (l % 64)) | a);
    WGS(fetch_or, &s[3], a & (0x11L << (l % 59)));
    WGS(fetch_xor, &s[4], a);
    WGS(fetch_min, &s[5], a);
    WGS(fetch_max, &s[6], a);
    WGS(fetch_min, (__local ulong *)&s[7], (ulong)a);
    WGS(fetch_max, (__local ulong *)&s[8], (ulong)a);
    __builtin_amdgcn_atomic_inc64((volatile __local ulong *)&s[9], 9ul, __ATOMIC_RELAXED, "workgroup");
    __builtin_amdgcn_atomic_dec64((volatile __local ulong *)&s[10], 37ul, __ATOMIC_RELAXED, "workgroup");
    long old = s[11], want;
    do {
        want = (long)((ulong)old * (2ul * (ulong)a + 1ul));
    } while (!__atomic_compare_exchange_n(&s[11], &old, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
    X[g] = WGS(exchange_n, &s[12], a);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 13) R[get_group_id(0) * 13 + l] = s[l];
}

// Float local atomics: the inputs are multiples of 1/4 below 2^10, so every sum is exact in
// any order. Per group: add, min, max (no return), add with return of 1.0 (the old values
// are init + 0 ... 63), and an f64 add (a compare-and-swap loop on gfx11).
K void lds_float_atomics(__global const float *A, __global float *R, __global float *F, __global double *D) {
    __local float s[5];
    __local double d;
    uint l = LID, g = GID;
    if (l == 0) {
        s[0] = 0.5f; s[1] = INFINITY; s[2] = -INFINITY; s[3] = -8.0f; s[4] = 3.0f;
        d = 0.25;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
    float a = A[g];
    __builtin_amdgcn_ds_faddf(&s[0], a, __ATOMIC_RELAXED, 2, false);
    WGS(fetch_min, &s[1], a);
    WGS(fetch_max, &s[2], a);
    R[2 * g] = __builtin_amdgcn_ds_faddf(&s[3], 1.0f, __ATOMIC_RELAXED, 2, false);
    R[2 * g + 1] = __builtin_amdgcn_ds_fminf(&s[4], a, __ATOMIC_RELAXED, 2, false);
    WGS(fetch_add, &d, (double)a * 2.0);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 5) F[get_group_id(0) * 5 + l] = s[l];
    if (l == 0) D[get_group_id(0)] = d;
}

// ds_swizzle_b32, quad-permute and bit-mask modes; the swizzles stay inside 32 lanes, so
// the results do not depend on the wave size.
K void lds_swizzle(__global const int *A, __global int *R) {
    uint g = GID;
    int a = A[g];
    R[4 * g + 0] = __builtin_amdgcn_ds_swizzle(a, 0x801b);                // quad perm [3,2,1,0]
    R[4 * g + 1] = __builtin_amdgcn_ds_swizzle(a, 0x8000 | 1 | 2 << 4);   // quad perm [1,0,2,0]
    R[4 * g + 2] = __builtin_amdgcn_ds_swizzle(a, 0x10 << 10 | 0x1f);     // xor 16 (swap halves)
    R[4 * g + 3] = __builtin_amdgcn_ds_swizzle(a, 7 << 10 | 3 << 5 | 0x18); // (l & 0x18 | 3) ^ 7
}

// ds_permute_b32 / ds_bpermute_b32: lane (5 l + 3) mod W, and byte addresses beyond the
// wave (lane + 40, taken modulo the wave size).
K void lds_permute(__global const int *A, __global int *R) {
    uint g = GID, w = get_sub_group_size(), lane = get_sub_group_local_id();
    int a = A[g];
    int to = (int)(((lane * 5 + 3) % w) * 4);
    R[3 * g + 0] = __builtin_amdgcn_ds_bpermute(to, a);
    R[3 * g + 1] = __builtin_amdgcn_ds_permute(to, a);
    R[3 * g + 2] = __builtin_amdgcn_ds_bpermute((int)(lane + 40) * 4, a);
}

// ds_append / ds_consume: the items with an odd input append themselves to a list; every
// item consumes one slot from a counter that starts at 64.
K void lds_append(__global const int *A, __global int *R, __global int *S) {
    __local int cnt[2];
    uint l = LID, g = GID, base = get_group_id(0) * WG;
    if (l == 0) { cnt[0] = 0; cnt[1] = WG; }
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = A[g];
    ulong exec = __builtin_amdgcn_read_exec();
    uint below = __builtin_amdgcn_mbcnt_hi((uint)(exec >> 32), __builtin_amdgcn_mbcnt_lo((uint)exec, 0u));
    uint n = (uint)__builtin_popcountl(exec);
    int c = __builtin_amdgcn_ds_consume(&cnt[1]);
    S[g] = c - (int)n + (int)below;
    if (a & 1) {
        ulong e = __builtin_amdgcn_read_exec();
        uint b = __builtin_amdgcn_mbcnt_hi((uint)(e >> 32), __builtin_amdgcn_mbcnt_lo((uint)e, 0u));
        int slot = __builtin_amdgcn_ds_append(&cnt[0]);
        R[base + slot + b] = a;
    }
}

// ---- private memory (scratch) ---------------------------------------------------------------

// Private arrays of every width, indexed at run time. Big enough that LLVM does not move
// them into LDS for the (at most 1024) items of a workgroup (promote-alloca).
__kernel __attribute__((amdgpu_flat_work_group_size(64, 1024))) void private_widths(__global const int *A, __global int4 *R) {
    char c[80];
    short s[80];
    int i[64];
    long q[32];
    int4 v[16];
    uint g = GID;
    int a = A[g];
    for (int k = 0; k < 80; k++) {
        c[k] = (char)(a + k * 3);
        s[k] = (short)(a * k);
    }
    for (int k = 0; k < 64; k++) i[k] = a ^ (k << 9);
    for (int k = 0; k < 32; k++) q[k] = (long)a * (k + 1) << 7;
    for (int k = 0; k < 16; k++) v[k] = (int4)(a + k, a - k, k, a * k);
    uint x = (uint)a & 63, y = ((uint)a >> 6) & 63;
    c[y] = (char)(c[x] + 1);
    s[y] = (short)(s[x] - 1);
    i[y] = i[x] * 2;
    q[y & 31] = q[x & 31] + 1;
    v[y & 15] = v[x & 15].wzyx;
    R[g] = (int4)((int)c[x ^ 5] + (uchar)c[y], (int)s[x ^ 7] + (ushort)s[y],
                  i[x ^ 9] + i[y], (int)(q[(x ^ 3) & 31] >> 3) ^ (int)(q[y & 31] >> 32)) + v[(x ^ 1) & 15] + v[y & 15];
}

// Private halves: D16 scratch loads into the halves of a register.
K void private_d16(__global const half *A, __global half2 *R) {
    half h[48];
    uint g = GID;
    for (int k = 0; k < 48; k++) h[k] = A[(g + k) % (2 * WG)];
    uint x = (uint)as_short(A[g]) % 48, y = (x * 7 + 5) % 48;
    h[(x + 1) % 48] = h[y] * 2.0h;
    R[g] = (half2)(h[x], h[y]) + (half2)(h[(y + 3) % 48], h[(x + 1) % 48]);
}

// ---- global memory ----------------------------------------------------------------------------

// Bytes and shorts: global_load_i8/u8/i16/u16, global_store_b8/b16.
K void global_bytes(__global const char *A, __global const short *B, __global char *R8, __global short *R16, __global int *R) {
    uint g = GID;
    char a = A[(g * 7) % (2 * WG)];
    uchar ua = ((__global const uchar *)A)[g];
    short b = B[(g * 3) % (2 * WG)];
    ushort ub = ((__global const ushort *)B)[g];
    R8[g] = (char)(a * 3 + (char)ub);
    R16[g] = (short)(b - (short)ua);
    R[g] = (int)a + (int)ua * 7 + (int)b * 11 + (int)ub * 13;
}

// Halves into register halves: global_load_d16_b16 / d16_hi_b16, u8/i8 into halves,
// global_store_d16_hi_b16 / b8 d16_hi.
K void global_d16(__global const half *A, __global const char *B, __global half *R, __global short *S, __global char *C) {
    uint g = GID, m = 2 * WG - 1 - g;
    half2 v = (half2)(A[g], A[m]);
    short2 b = (short2)(B[g], (uchar)B[m]);
    v = v * (half2)(0.5h, 3.0h);
    b = b * (short2)(3, 5);
    R[g] = v.y;
    R[m + 2 * WG] = v.x;
    S[g] = b.y;
    S[g + 2 * WG] = b.x;
    C[m] = (char)b.y;
}

// Vectors: global_load/store_b64, b96 (a packed 12-byte struct), b128.
typedef struct { int x, y, z; } int3p;
K void global_vec(__global const int4 *A, __global const int3p *B, __global int2 *R2, __global int3p *R3, __global int4 *R4) {
    uint g = GID;
    int4 a = A[(g * 3) % (2 * WG)];
    int3p b = B[g];
    int2 c = ((__global const int2 *)A)[g ^ 1];
    R2[g] = c + a.xy;
    int3p o = {b.x * 3 + a.y, b.y * 3 + a.z, b.z * 3 + a.w};
    R3[g] = o;
    R4[g] = (int4)(b.x, b.y, b.z, c.x) ^ a;
}

// Global atomics without return (device scope): final values are order-independent.
K void global_atomics(__global const int *A, __global int *C) {
    uint g = GID;
    int a = A[g];
    DEV(fetch_add, &C[0], a);
    DEV(fetch_sub, &C[1], a);
    DEV(fetch_and, &C[2], ~(1 << (g % 32)) | a);
    DEV(fetch_or, &C[3], a & (0x11 << (g % 27)));
    DEV(fetch_xor, &C[4], a);
    DEV(fetch_min, &C[5], a);
    DEV(fetch_max, &C[6], a);
    DEV(fetch_min, (__global uint *)&C[7], (uint)a);
    DEV(fetch_max, (__global uint *)&C[8], (uint)a);
    __builtin_amdgcn_atomic_inc32((volatile __global uint *)&C[9], 9u, __ATOMIC_RELAXED, "agent");
    __builtin_amdgcn_atomic_dec32((volatile __global uint *)&C[10], 37u, __ATOMIC_RELAXED, "agent");
    int old = C[11], seen;
    while ((seen = atomic_cmpxchg(&C[11], old, (int)((uint)old * (2u * (uint)a + 1u)))) != old) old = seen;
}

// Global atomics with return: per item, the old values of add 1 (a slot), sub 1, inc and
// dec (limit 1000), xchg, min, or, max_u, in C[0..8] from their initial values.
K void global_atomics_rtn(__global const int *A, __global int *C, __global int *R) {
    uint g = GID;
    int a = A[g];
    R[8 * g + 0] = DEV(fetch_add, &C[0], 1);
    R[8 * g + 1] = DEV(fetch_sub, &C[1], 1);
    R[8 * g + 2] = __builtin_amdgcn_atomic_inc32((volatile __global uint *)&C[2], 1000u, __ATOMIC_RELAXED, "agent");
    R[8 * g + 3] = __builtin_amdgcn_atomic_dec32((volatile __global uint *)&C[3], 1000u, __ATOMIC_RELAXED, "agent");
    R[8 * g + 4] = DEV(exchange_n, &C[4], a);
    R[8 * g + 5] = DEV(fetch_min, &C[5], a);
    R[8 * g + 6] = DEV(fetch_or, &C[6], 1 << (g % 32));
    R[8 * g + 7] = DEV(fetch_max, (__global uint *)&C[7], (uint)a);
}

// 64-bit global atomics (no return), xchg with return and a compare-and-swap loop.
K void global_atomics64(__global const long *A, __global long *C, __global long *X) {
    uint g = GID;
    long a = A[g];
    DEV(fetch_add, &C[0], a);
    DEV(fetch_sub, &C[1], a);
    DEV(fetch_and, &C[2], ~(1L << (g % 64)) | a);
    DEV(fetch_or, &C[3], a & (0x11L << (g % 59)));
    DEV(fetch_xor, &C[4], a);
    DEV(fetch_min, &C[5], a);
    DEV(fetch_max, &C[6], a);
    DEV(fetch_min, (__global ulong *)&C[7], (ulong)a);
    DEV(fetch_max, (__global ulong *)&C[8], (ulong)a);
    __builtin_amdgcn_atomic_inc64((volatile __global ulong *)&C[9], 9ul, __ATOMIC_RELAXED, "agent");
    __builtin_amdgcn_atomic_dec64((volatile __global ulong *)&C[10], 37ul, __ATOMIC_RELAXED, "agent");
    long old = C[11], want;
    do {
        want = (long)((ulong)old * (2ul * (ulong)a + 1ul));
    } while (!__scoped_atomic_compare_exchange_n(&C[11], &old, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                                 __MEMORY_SCOPE_DEVICE));
    X[g] = DEV(exchange_n, &C[12], a);
}

// Float global atomics: add (with and without return), min, max; f64 add.
K void global_float_atomics(__global const float *A, __global float *C, __global float *R, __global double *D) {
    uint g = GID;
    float a = A[g];
    __builtin_amdgcn_global_atomic_fadd_f32(&C[0], a);
    DEV(fetch_min, &C[1], a);
    DEV(fetch_max, &C[2], a);
    R[g] = DEV(fetch_add, &C[3], 1.0f);
    DEV(fetch_add, &D[0], (double)a * 2.0);
}

// ---- generic (flat) pointers ------------------------------------------------------------------

// Each item picks global, local or private memory at run time; the accesses go through
// flat instructions, routed by aperture.
K void flat_mixed(__global const int *A, __global int *G, __global int4 *R) {
    __local int L[WG];
    __local long LQ[WG];
    int P[16];
    long PQ[8];
    uint l = LID, g = GID;
    int a = A[g];
    L[l] = a * 5;
    LQ[l] = (long)a << 33;
    for (int k = 0; k < 16; k++) P[k] = a + k;
    for (int k = 0; k < 8; k++) PQ[k] = (long)a * k;
    barrier(CLK_LOCAL_MEM_FENCE);
    uint sel = (uint)a % 3, k = ((uint)a >> 2) & 7;
    int *p = sel == 0 ? (int *)&G[g] : sel == 1 ? (int *)&L[l] : (int *)&P[k];
    long *q = sel == 0 ? (long *)&G[2 * WG + 2 * g] : sel == 1 ? (long *)&LQ[l] : (long *)&PQ[k];
    int before = *p;
    *p = before + 1;
    long qb = *q;
    *q = qb ^ 0x7f;
    char *pc = (char *)p;
    short *ps = (short *)p;
    int c = pc[1];
    uint uc = ((uchar *)p)[2];
    int s = ps[1];
    pc[3] = (char)(c + 1);
    ps[0] = (short)(s - 1);
    int after = *p;
    long qa = *q;
    barrier(CLK_LOCAL_MEM_FENCE);
    R[g] = (int4)(before, after + (int)uc, (int)qb ^ (int)(qa >> 32), sel == 1 ? L[(l + 1) % WG] : P[(k + 1) & 15]);
}

// Atomics through generic pointers to global or local memory (even items: global).
K void flat_atomics(__global const int *A, __global int *G, __global long *GQ, __global int *R) {
    __local int L[5];
    __local long LQ[2];
    uint l = LID, g = GID;
    if (l == 0) { L[0] = 0; L[1] = INT_MAX; L[2] = 0; L[3] = 0; L[4] = -1; LQ[0] = 0; LQ[1] = 1; }
    barrier(CLK_LOCAL_MEM_FENCE);
    int a = A[g];
    int *p = (g & 1) ? (int *)&L[0] : (int *)&G[0];
    long *q = (g & 1) ? (long *)&LQ[0] : (long *)&GQ[0];
    DEV(fetch_add, &p[0], a);
    DEV(fetch_min, &p[1], a);
    R[2 * g] = DEV(fetch_add, &p[2], 1);
    __builtin_amdgcn_atomic_inc32((volatile uint *)&p[3], 1000u, __ATOMIC_RELAXED, "agent");
    DEV(fetch_add, &q[0], (long)a);
    long old = q[1], want;
    do {
        want = (long)((ulong)old * (2ul * (ulong)a + 1ul));
    } while (!__scoped_atomic_compare_exchange_n(&q[1], &old, want, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED,
                                                 __MEMORY_SCOPE_DEVICE));
    R[2 * g + 1] = DEV(exchange_n, &p[4], a);
    barrier(CLK_LOCAL_MEM_FENCE);
    if (l < 5) G[8 + get_group_id(0) * 8 + l] = L[l];
    if (l < 2) GQ[2 + get_group_id(0) * 2 + l] = LQ[l];
}

// ---- buffers (clang-19's raw buffer builtins; buffer.ll has the rest) ------------------------

// The V# dword 3 the ICD writes for storage buffers (docs/ABI.md): dst_sel XYZW, format
// 32_FLOAT, oob_select 3 (raw: byte range check, per component).
#define RAW 0x30016fac

// Every width of raw buffer load and store, with an SGPR offset (soff = 32). Per 32-byte
// slot o of A: b8 at o+32, b16 at o+34, b32 at o+40, b64 at o+48 (soffset), b96 at o+4,
// b128 at o+16; to R: b8 + 1 at o+33, b16 ^ 0xffff at o+36, b32 * 3 at o+40, b64 + 1 at
// o+48 (soffset); to R2: b96 ^ 5 at o, b128 + b96.x at o+16 (soffset 16).
K void buffer_raw(__global const uchar *A, __global uchar *R, __global uchar *R2, uint n, uint soff) {
    __amdgpu_buffer_rsrc_t a = __builtin_amdgcn_make_buffer_rsrc((__global void *)A, 0, n, RAW);
    __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(R, 0, n, RAW);
    __amdgpu_buffer_rsrc_t r2 = __builtin_amdgcn_make_buffer_rsrc(R2, 0, n - 32, RAW);
    uint o = GID * 32;
    uchar b8 = __builtin_amdgcn_raw_buffer_load_b8(a, o, soff, 0);
    ushort b16 = __builtin_amdgcn_raw_buffer_load_b16(a, o + 2, soff, 0);
    uint b32 = __builtin_amdgcn_raw_buffer_load_b32(a, o + 8, soff, 0);
    uint2 b64 = __builtin_amdgcn_raw_buffer_load_b64(a, o + 16, soff, 0);
    uint3 b96 = __builtin_amdgcn_raw_buffer_load_b96(a, o + 4, 0, 0);
    uint4 b128 = __builtin_amdgcn_raw_buffer_load_b128(a, o + 16, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b8(b8 + 1, r, o + 1, soff, 0);
    __builtin_amdgcn_raw_buffer_store_b16(b16 ^ 0xffff, r, o + 4, soff, 0);
    __builtin_amdgcn_raw_buffer_store_b32(b32 * 3, r, o + 8, soff, 0);
    __builtin_amdgcn_raw_buffer_store_b64(b64 + 1, r, o + 16, soff, 0);
    __builtin_amdgcn_raw_buffer_store_b96(b96 ^ 5, r2, o, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b128(b128 + b96.x, r2, o, soff / 2, 0);
}

// Range checking (raw, OOB_SELECT 3). A has n = 16 N bytes but its V# says n - 8, R's says
// n - 4 (R has n + 4 N bytes). The b128 load of the last item gets its two dwords past the
// range as 0, its b128 store drops the last dword; whole accesses past the range read 0 and
// are dropped.
K void buffer_oob(__global const int4 *A, __global int *R, uint n) {
    __amdgpu_buffer_rsrc_t a = __builtin_amdgcn_make_buffer_rsrc((__global void *)A, 0, n - 8, RAW);
    __amdgpu_buffer_rsrc_t r = __builtin_amdgcn_make_buffer_rsrc(R, 0, n - 4, RAW);
    uint g = GID;
    uint4 v = __builtin_amdgcn_raw_buffer_load_b128(a, g * 16, 0, 0);
    uint w = __builtin_amdgcn_raw_buffer_load_b32(a, n + g * 4, 0, 0);
    uint b = __builtin_amdgcn_raw_buffer_load_b8(a, n - 9 + (g & 1), 0, 0);
    __builtin_amdgcn_raw_buffer_store_b128(v ^ (uint4)(w, b, g, 7), r, g * 16, 0, 0);
    __builtin_amdgcn_raw_buffer_store_b32(g, r, n + g * 4, 0, 0);
}
