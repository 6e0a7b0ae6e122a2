// target-env: vulkan1.2
#version 450
#extension GL_KHR_shader_subgroup_basic : require
#extension GL_KHR_shader_subgroup_clustered : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
#extension GL_EXT_shader_subgroup_extended_types_int8 : require
#extension GL_EXT_shader_subgroup_extended_types_int16 : require
#extension GL_EXT_shader_subgroup_extended_types_int64 : require
#extension GL_EXT_shader_subgroup_extended_types_float16 : require
// shaderSubgroupExtendedTypes: clustered reductions on 8/16/64-bit integers and 16/64-bit
// floats (kept apart from sg_ext_*, which devices without clustered operations run).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) readonly buffer In { int a[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Out { int64_t r[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    uint o = i * 6u;
    r[o + 0u] = int64_t(subgroupClusteredAdd(int8_t(x), 4u));
    r[o + 1u] = int64_t(subgroupClusteredMax(int16_t(x), 8u));
    r[o + 2u] = subgroupClusteredMul(int64_t(x), 2u);
    r[o + 3u] = int64_t(subgroupClusteredAdd(float16_t(x), 4u));
    r[o + 4u] = int64_t(subgroupClusteredMin(double(x), 8u));
    r[o + 5u] = int64_t(int8_t(subgroupClusteredAnd(uint8_t(x), 8u)));
}
