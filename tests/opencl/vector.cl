// Vectors, structs, by-value arguments.
__kernel void float4_mad(__global const float4 *A, __global const float4 *B, __global float4 *R, float4 k) {
    size_t i = get_global_id(0);
    R[i] = fma(A[i], B[i], k);
}
__kernel void int2_minmax(__global const int2 *A, __global const int2 *B, __global int2 *R) {
    size_t i = get_global_id(0);
    R[i] = min(A[i], B[i]) + max(A[i], B[i]).yx;
}
__kernel void uchar4_add_sat(__global const uchar4 *A, __global const uchar4 *B, __global uchar4 *R) {
    size_t i = get_global_id(0);
    R[i] = add_sat(A[i], B[i]);
}
__kernel void swizzle(__global const int4 *A, __global int4 *R) {
    size_t i = get_global_id(0);
    int4 a = A[i];
    R[i] = a.wzyx + a.s1032 * 3 + select(a, a.zzzz, a > 0);
}
typedef struct {
    int id;
    float weight;
    long total;
} item_t;
typedef struct {
    int bias;
    float scale;
} params_t;
__kernel void structs(__global const item_t *in, __global item_t *out, params_t p, long extra) {
    size_t i = get_global_id(0);
    item_t t = in[i];
    t.id += p.bias;
    t.weight *= p.scale;
    t.total = t.total * 3 + extra;
    out[i] = t;
}
