// target-env: vulkan1.1
#version 450
#extension GL_EXT_shader_atomic_float : require
// Float atomicAdd on a buffer, on terms that are multiples of 1/8 with small sums, so the
// result is exact in any order.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Sums { float total; float by4[4]; };
layout(set = 0, binding = 1) readonly buffer In { float v[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    atomicAdd(total, v[i]);
    atomicAdd(by4[i % 4u], -v[i]);
}
