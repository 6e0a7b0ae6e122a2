// Element-wise kernels: R[i] = expr(a = A[i], b = B[i]).
#define BINOP(name, TA, TB, TR, expr) \
    __kernel void name(__global const TA *A, __global const TB *B, __global TR *R) { \
        size_t i = get_global_id(0); \
        TA a = A[i]; \
        TB b = B[i]; \
        R[i] = (expr); \
    }

// 32-bit integers
BINOP(add_i32, int, int, int, a + b)
BINOP(sub_i32, int, int, int, a - b)
BINOP(mul_i32, int, int, int, a * b)
BINOP(div_i32, int, int, int, b == 0 || (a == INT_MIN && b == -1) ? 0 : a / b)
BINOP(rem_i32, int, int, int, b == 0 || (a == INT_MIN && b == -1) ? 0 : a % b)
BINOP(div_u32, uint, uint, uint, b == 0 ? 0 : a / b)
BINOP(rem_u32, uint, uint, uint, b == 0 ? 0 : a % b)
BINOP(min_i32, int, int, int, min(a, b))
BINOP(max_u32, uint, uint, uint, max(a, b))
BINOP(abs_i32, int, int, uint, abs(a))
BINOP(clamp_i32, int, int, int, clamp(a, -1000, max(b, -1000)))
BINOP(select_i32, int, int, int, select(a, b, a < b))
BINOP(shl_i32, int, uint, int, a << b)
BINOP(ashr_i32, int, uint, int, a >> b)
BINOP(lshr_u32, uint, uint, uint, a >> b)
BINOP(rotate_u32, uint, uint, uint, rotate(a, b))
BINOP(popcount_u32, uint, uint, uint, popcount(a))
BINOP(clz_u32, uint, uint, uint, clz(a))
BINOP(ctz_u32, uint, uint, uint, ctz(a))
BINOP(mad24_i32, int, int, int, mad24(a, b, a))
BINOP(mul24_u32, uint, uint, uint, mul24(a, b))
BINOP(mul_hi_i32, int, int, int, mul_hi(a, b))
BINOP(mul_hi_u32, uint, uint, uint, mul_hi(a, b))
BINOP(add_sat_i32, int, int, int, add_sat(a, b))
BINOP(sub_sat_u32, uint, uint, uint, sub_sat(a, b))
BINOP(hadd_i32, int, int, int, hadd(a, b))
BINOP(rhadd_u32, uint, uint, uint, rhadd(a, b))
BINOP(bitops_u32, uint, uint, uint, (a & b) ^ (~a | (b >> 3)))
BINOP(cmp_i32, int, int, int, (a < b) | (a == b) << 1 | ((uint)a > (uint)b) << 2)

// 8/16-bit integers
BINOP(add_u8, uchar, uchar, uchar, a + b)
BINOP(mul_i16, short, short, short, a * b)
BINOP(sat_narrow, int, int, uint, convert_uchar_sat(a) | (uint)(uchar)convert_char_sat(a) << 8 | (uint)convert_ushort_sat(b) << 16)
BINOP(sat_short, int, int, short, convert_short_sat((a >> 1) + (b >> 1)))
BINOP(hadd_u16, ushort, ushort, ushort, hadd(a, b))

// 64-bit integers
BINOP(mul_i64, long, long, long, a * b)
BINOP(div_i64, long, long, long, b == 0 || (a == LONG_MIN && b == -1) ? 0 : a / b)
BINOP(rem_u64, ulong, ulong, ulong, b == 0 ? 0 : a % b)
BINOP(shl_i64, long, ulong, long, a << b)
BINOP(ashr_i64, long, ulong, long, a >> b)
BINOP(mul_hi_u64, ulong, ulong, ulong, mul_hi(a, b))
BINOP(rotate_u64, ulong, ulong, ulong, rotate(a, b))
BINOP(minmax_i64, long, long, long, min(a, b) ^ max(a, b) << 1)

// 32-bit floats
BINOP(add_f32, float, float, float, a + b)
BINOP(mul_f32, float, float, float, a * b)
BINOP(div_f32, float, float, float, a / b)
BINOP(fma_f32, float, float, float, fma(a, b, a))
BINOP(fmin_f32, float, float, float, fmin(a, b))
BINOP(fmax_f32, float, float, float, fmax(a, b))
BINOP(copysign_f32, float, float, float, copysign(fabs(a), b))
BINOP(sqrt_f32, float, float, float, sqrt(a))
BINOP(rsqrt_f32, float, float, float, rsqrt(a))
BINOP(recip_f32, float, float, float, native_recip(a))
BINOP(exp_f32, float, float, float, exp(a))
BINOP(exp2_f32, float, float, float, exp2(a))
BINOP(log_f32, float, float, float, log(a))
BINOP(log2_f32, float, float, float, log2(a))
BINOP(sincos_f32, float, float, float2, (float2)(native_sin(a), native_cos(a)))
BINOP(powr_f32, float, float, float, native_powr(a, b))
BINOP(fmod_f32, float, float, float, fmod(a, b))
BINOP(rounding_f32, float, float, float4, (float4)(floor(a), ceil(a), round(a), trunc(a)))
BINOP(rint_f32, float, float, float, rint(a))
BINOP(ldexp_f32, float, int, float, ldexp(a, b))
__kernel void frexp_f32(__global const float *A, __global int *E, __global float *R) {
    size_t i = get_global_id(0);
    int e;
    R[i] = frexp(A[i], &e);
    E[i] = e;
}
BINOP(cmp_f32, float, float, int, (a < b) | (a == b) << 1 | isunordered(a, b) << 2)

// Conversions
BINOP(f32_to_i32, float, float, int4, (int4)(convert_int_rtz(a), convert_int_rte(a), convert_int_rtp(a), convert_int_rtn(a)))
BINOP(i32_to_f32, int, uint, float2, (float2)((float)a, (float)b))
BINOP(f32_to_i32_sat, float, float, uint2, (uint2)((uint)convert_int_sat(a), convert_uint_sat(a)))
BINOP(f32_to_u8, float, float, uchar, (uchar)a)

// Half (cl_khr_fp16)
BINOP(add_f16, half, half, half, a + b)
BINOP(mul_f16, half, half, half, a * b)
BINOP(fma_f16, half, half, half, fma(a, b, b))
BINOP(f16_to_f32, half, float, float2, (float2)((float)a, (float)(half)b))

// Double (cl_khr_fp64)
BINOP(add_f64, double, double, double, a + b)
BINOP(mul_f64, double, double, double, a * b)
BINOP(div_f64, double, double, double, a / b)
BINOP(sqrt_f64, double, double, double, sqrt(a))
BINOP(fma_f64, double, double, double, fma(a, b, a))
BINOP(f64_conv, double, long, double2, (double2)((double)(float)a, (double)b))
BINOP(f64_to_i64, double, double, long, (long)a)
