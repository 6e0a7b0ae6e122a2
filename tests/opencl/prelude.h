// OpenCL C built-ins for kernels compiled by clang-19 with -nogpulib (no ROCm device
// libraries): each built-in the kernels use, written with clang's AMDGPU builtins. Included
// with `-include prelude.h`; COV is the code object version (-DCOV=4/5/6): v4 kernels read
// sizes from the HSA dispatch packet, v5/v6 from the implicit argument block (AMDGPUUsage).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

#define OVL __attribute__((overloadable, always_inline))

static inline __attribute__((always_inline)) uint __group_id(uint d) {
    return d == 0 ? __builtin_amdgcn_workgroup_id_x() : d == 1 ? __builtin_amdgcn_workgroup_id_y() : __builtin_amdgcn_workgroup_id_z();
}
static inline __attribute__((always_inline)) __constant char *__ia(void) {
    return (__constant char *)__builtin_amdgcn_implicitarg_ptr();
}
#define IA(T, o) (*(__constant T *)(__ia() + (o)))
#define DP(T, o) (*(__constant T *)((__constant char *)__builtin_amdgcn_dispatch_ptr() + (o)))

size_t OVL get_local_id(uint d) {
    return d == 0 ? __builtin_amdgcn_workitem_id_x() : d == 1 ? __builtin_amdgcn_workitem_id_y() : d == 2 ? __builtin_amdgcn_workitem_id_z() : 0;
}
size_t OVL get_group_id(uint d) { return d > 2 ? 0 : __group_id(d); }
#if COV >= 5
size_t OVL get_enqueued_local_size(uint d) { return d > 2 ? 1 : IA(ushort, 12 + 2 * d); }
size_t OVL get_local_size(uint d) {
    if (d > 2) return 1;
    return __group_id(d) < IA(uint, 4 * d) ? IA(ushort, 12 + 2 * d) : IA(ushort, 18 + 2 * d);
}
size_t OVL get_global_size(uint d) {
    return d > 2 ? 1 : (size_t)IA(uint, 4 * d) * IA(ushort, 12 + 2 * d) + IA(ushort, 18 + 2 * d);
}
size_t OVL get_num_groups(uint d) { return d > 2 ? 1 : IA(uint, 4 * d) + (IA(ushort, 18 + 2 * d) != 0); }
uint OVL get_work_dim(void) { return IA(ushort, 64); }
size_t OVL get_global_offset(uint d) { return d > 2 ? 0 : IA(ulong, 40 + 8 * d); }
#else
size_t OVL get_enqueued_local_size(uint d) { return d > 2 ? 1 : DP(ushort, 4 + 2 * d); }
size_t OVL get_local_size(uint d) {
    if (d > 2) return 1;
    uint gs = DP(ushort, 4 + 2 * d);
    uint left = DP(uint, 12 + 4 * d) - __group_id(d) * gs;
    return left < gs ? left : gs;
}
size_t OVL get_global_size(uint d) { return d > 2 ? 1 : DP(uint, 12 + 4 * d); }
size_t OVL get_num_groups(uint d) {
    if (d > 2) return 1;
    uint gs = DP(ushort, 4 + 2 * d);
    return (DP(uint, 12 + 4 * d) + gs - 1) / gs;
}
uint OVL get_work_dim(void) { return DP(ushort, 2) & 3; }
size_t OVL get_global_offset(uint d) { return d > 2 ? 0 : IA(ulong, 8 * d); }
#endif
size_t OVL get_global_id(uint d) {
    return get_group_id(d) * get_enqueued_local_size(d) + get_local_id(d) + get_global_offset(d);
}
size_t OVL get_local_linear_id(void) {
    return get_local_id(0) + get_local_id(1) * get_local_size(0) + get_local_id(2) * get_local_size(0) * get_local_size(1);
}

void OVL work_group_barrier(cl_mem_fence_flags f) {
    __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
    __builtin_amdgcn_s_barrier();
    __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
}
void OVL barrier(cl_mem_fence_flags f) { work_group_barrier(f); }

// Integer built-ins.
#define INT_SCALARS(X) X(char) X(uchar) X(short) X(ushort) X(int) X(uint) X(long) X(ulong)
#define MINMAX(T) T OVL min(T a, T b) { return a < b ? a : b; } T OVL max(T a, T b) { return a > b ? a : b; } \
    T OVL clamp(T x, T lo, T hi) { return min(max(x, lo), hi); } \
    T OVL add_sat(T a, T b) { return __builtin_elementwise_add_sat(a, b); } \
    T OVL sub_sat(T a, T b) { return __builtin_elementwise_sub_sat(a, b); } \
    T OVL hadd(T a, T b) { return (a >> 1) + (b >> 1) + (a & b & 1); } \
    T OVL rhadd(T a, T b) { return (a >> 1) + (b >> 1) + ((a | b) & 1); }
INT_SCALARS(MINMAX)
uchar4 OVL add_sat(uchar4 a, uchar4 b) { return __builtin_elementwise_add_sat(a, b); }
int2 OVL min(int2 a, int2 b) { return __builtin_elementwise_min(a, b); }
int2 OVL max(int2 a, int2 b) { return __builtin_elementwise_max(a, b); }
uint OVL abs(int x) { return x < 0 ? -(uint)x : (uint)x; }
uint OVL popcount(uint x) { return __builtin_popcount(x); }
uint OVL clz(uint x) { return x ? __builtin_clz(x) : 32; }
uint OVL ctz(uint x) { return x ? __builtin_ctz(x) : 32; }
uint OVL rotate(uint x, uint n) { return __builtin_rotateleft32(x, n); }
ulong OVL rotate(ulong x, ulong n) { return __builtin_rotateleft64(x, n); }
int OVL mad24(int a, int b, int c) { return ((a << 8) >> 8) * ((b << 8) >> 8) + c; }
uint OVL mul24(uint a, uint b) { return (a & 0xffffff) * (b & 0xffffff); }
int OVL mul_hi(int a, int b) { return (int)(((long)a * (long)b) >> 32); }
uint OVL mul_hi(uint a, uint b) { return (uint)(((ulong)a * (ulong)b) >> 32); }
ulong OVL mul_hi(ulong a, ulong b) { return (ulong)(((unsigned __int128)a * b) >> 64); }
int OVL select(int a, int b, int c) { return c ? b : a; }
float OVL select(float a, float b, int c) { return c ? b : a; }
int4 OVL select(int4 a, int4 b, int4 c) { return c < 0 ? b : a; }

// Float built-ins (precision: clang's lowering of the LLVM intrinsics on gfx1100).
float OVL fma(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
double OVL fma(double a, double b, double c) { return __builtin_fma(a, b, c); }
half OVL fma(half a, half b, half c) { return __builtin_elementwise_fma(a, b, c); }
float OVL mad(float a, float b, float c) { return __builtin_fmaf(a, b, c); }
float4 OVL fma(float4 a, float4 b, float4 c) { return __builtin_elementwise_fma(a, b, c); }
float OVL fmin(float a, float b) { return __builtin_fminf(a, b); }
float OVL fmax(float a, float b) { return __builtin_fmaxf(a, b); }
float OVL fabs(float a) { return __builtin_fabsf(a); }
float OVL copysign(float a, float b) { return __builtin_copysignf(a, b); }
float OVL sqrt(float a) { return __builtin_sqrtf(a); }
double OVL sqrt(double a) { return __builtin_sqrt(a); }
float OVL rsqrt(float a) { return __builtin_amdgcn_rsqf(a); }
float OVL native_recip(float a) { return __builtin_amdgcn_rcpf(a); }
float OVL exp(float a) { return __builtin_expf(a); }
float OVL exp2(float a) { return __builtin_exp2f(a); }
float OVL log(float a) { return __builtin_logf(a); }
float OVL log2(float a) { return __builtin_log2f(a); }
float OVL native_sin(float a) { return __builtin_amdgcn_sinf(a * 0.15915494309189535f); }
float OVL native_cos(float a) { return __builtin_amdgcn_cosf(a * 0.15915494309189535f); }
float OVL native_powr(float x, float y) { return __builtin_amdgcn_exp2f(y * __builtin_amdgcn_logf(x)); }
float OVL fmod(float a, float b) { return __builtin_fmodf(a, b); }
float OVL floor(float a) { return __builtin_floorf(a); }
float OVL ceil(float a) { return __builtin_ceilf(a); }
float OVL round(float a) { return __builtin_roundf(a); }
float OVL trunc(float a) { return __builtin_truncf(a); }
float OVL rint(float a) { return __builtin_rintf(a); }
float OVL ldexp(float a, int e) { return __builtin_ldexpf(a, e); }
float OVL frexp(float a, __private int *e) { return __builtin_frexpf(a, e); }

// Conversions.
int OVL convert_int_rtz(float x) { return (int)x; }
int OVL convert_int_rte(float x) { return (int)__builtin_rintf(x); }
int OVL convert_int_rtp(float x) { return (int)__builtin_ceilf(x); }
int OVL convert_int_rtn(float x) { return (int)__builtin_floorf(x); }
int OVL convert_int_sat(float x) {
    return x != x ? 0 : x >= 2147483648.0f ? INT_MAX : x < -2147483648.0f ? INT_MIN : (int)x;
}
uint OVL convert_uint_sat(float x) { return x != x || x <= 0.0f ? 0 : x >= 4294967296.0f ? UINT_MAX : (uint)x; }
uchar OVL convert_uchar_sat(int x) { return (uchar)clamp(x, 0, 255); }
char OVL convert_char_sat(int x) { return (char)clamp(x, -128, 127); }
short OVL convert_short_sat(int x) { return (short)clamp(x, -32768, 32767); }
ushort OVL convert_ushort_sat(int x) { return (ushort)clamp(x, 0, 65535); }

// Atomics (OpenCL 1.x names), device scope.
#define ATOMICS(T, AS) \
    T OVL atomic_add(volatile AS T *p, T v) { return __atomic_fetch_add((AS T *)p, v, __ATOMIC_RELAXED); } \
    T OVL atomic_min(volatile AS T *p, T v) { return __atomic_fetch_min((AS T *)p, v, __ATOMIC_RELAXED); } \
    T OVL atomic_max(volatile AS T *p, T v) { return __atomic_fetch_max((AS T *)p, v, __ATOMIC_RELAXED); } \
    T OVL atomic_xchg(volatile AS T *p, T v) { return __atomic_exchange_n((AS T *)p, v, __ATOMIC_RELAXED); } \
    T OVL atomic_inc(volatile AS T *p) { return __atomic_fetch_add((AS T *)p, (T)1, __ATOMIC_RELAXED); } \
    T OVL atomic_cmpxchg(volatile AS T *p, T cmp, T v) { \
        __atomic_compare_exchange_n((AS T *)p, &cmp, v, false, __ATOMIC_RELAXED, __ATOMIC_RELAXED); \
        return cmp; \
    }
ATOMICS(int, __global)
ATOMICS(uint, __global)
ATOMICS(int, __local)
ATOMICS(uint, __local)

// Sub-groups: a sub-group is a wave.
uint OVL get_sub_group_size(void) { return __builtin_amdgcn_wavefrontsize(); }
uint OVL get_sub_group_local_id(void) {
    return __builtin_amdgcn_mbcnt_hi(~0u, __builtin_amdgcn_mbcnt_lo(~0u, 0u));
}
uint OVL get_sub_group_id(void) { return get_local_linear_id() / get_sub_group_size(); }
int OVL sub_group_broadcast(int x, uint lane) { return __builtin_amdgcn_readlane(x, lane); }
int OVL isunordered(float a, float b) { return __builtin_isunordered(a, b); }
