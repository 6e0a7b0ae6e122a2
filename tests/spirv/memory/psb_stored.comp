// target-env: vulkan1.2
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Buffer references stored in and loaded from a storage buffer, compared, and converted
// to and from uint64_t.
layout(local_size_x = 64) in;
layout(buffer_reference, std430) buffer Ints { int v[]; };
layout(push_constant) uniform P { Ints src; } pc;
layout(set = 0, binding = 1) buffer Slots { Ints slot[64]; uint64_t raw[64]; } s;
layout(set = 0, binding = 2) buffer O { int o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    s.slot[i] = Ints(uint64_t(pc.src) + 4ul * uint64_t(i));
    s.raw[i] = uint64_t(pc.src);
    barrier();
    Ints p = s.slot[(i + 1u) % 64u];
    Ints q = Ints(s.raw[i] + 4ul * uint64_t((i + 1u) % 64u));
    o[i] = p.v[0] + (uint64_t(p) == uint64_t(q) ? 1000 : 0) + q.v[1];
}
