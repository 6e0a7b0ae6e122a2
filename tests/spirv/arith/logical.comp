// target-env: vulkan1.0
#version 450
// Vector comparisons (signed and unsigned), any/all/not, logical and/or/equal/not-equal
// on boolean vectors, and selection by a boolean vector (mix).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { ivec4 a[]; };
layout(set = 0, binding = 1) readonly buffer In2 { ivec4 b[]; };
layout(set = 0, binding = 2) buffer Out { uint o[]; };
layout(set = 0, binding = 3) buffer Sel { ivec4 sel[]; };
uint bits(bvec4 v) { return (v.x ? 1u : 0u) | (v.y ? 2u : 0u) | (v.z ? 4u : 0u) | (v.w ? 8u : 0u); }
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i], y = b[i];
    bvec4 slt = lessThan(x, y), sge = greaterThanEqual(x, y);
    bvec4 ult = lessThan(uvec4(x), uvec4(y)), ugt = greaterThan(uvec4(x), uvec4(y));
    bvec4 eq = equal(x, y), ne = notEqual(x & 3, y & 3), sle = lessThanEqual(x, y);
    bvec4 mixed = bvec4(slt.x && ult.y, slt.y || ugt.z, slt.z == ult.w, slt.w != eq.x);
    uint r = bits(slt) | bits(sge) << 4 | bits(ult) << 8 | bits(ugt) << 12 | bits(eq) << 16 | bits(ne) << 20;
    r |= bits(not(sle)) << 24 | bits(mixed) << 28;
    o[2u * i] = r;
    o[2u * i + 1u] = (any(slt) ? 1u : 0u) | (all(ult) ? 2u : 0u) | (any(eq) ? 4u : 0u) | (all(not(eq)) ? 8u : 0u);
    sel[i] = mix(x, y, ult);
}
