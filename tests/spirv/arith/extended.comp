// target-env: vulkan1.2
#version 450
// uaddCarry, usubBorrow, umulExtended, imulExtended (OpIAddCarry, OpISubBorrow,
// OpUMulExtended, OpSMulExtended) on scalars and vectors.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { uvec2 ab[]; };
layout(set = 0, binding = 1) buffer Out { uvec4 add_sub[]; };
layout(set = 0, binding = 2) buffer Mul { uvec4 mul[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    uvec2 x = ab[i];
    uint carry, borrow;
    uint s = uaddCarry(x.x, x.y, carry);
    uint d = usubBorrow(x.x, x.y, borrow);
    add_sub[i] = uvec4(s, carry, d, borrow);
    uvec2 hi, lo;
    umulExtended(x, x.yx + uvec2(0u, 7u), hi, lo);
    ivec2 shi, slo;
    imulExtended(ivec2(x), ivec2(x.yy), shi, slo);
    mul[2u * i] = uvec4(lo.x, hi.x, lo.y, hi.y);
    mul[2u * i + 1u] = uvec4(slo.x, shi.x, slo.y, shi.y);
}
