// target-env: vulkan1.2
#version 450
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// Buffer references in push constants: loads, stores, a member access, uint64 casts.
layout(local_size_x = 64) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Data { float scale; float pad[3]; vec4 v[]; };
layout(buffer_reference, std430) buffer Out { vec4 o[]; };
layout(push_constant) uniform P { Data data; Out out_; uint n; } pc;
void main() {
    uint i = gl_GlobalInvocationID.x;
    Data d = pc.data;
    vec4 x = i < pc.n ? d.v[i] * d.scale : vec4(-1.0);
    Out o = Out(uint64_t(pc.out_));
    o.o[i] = x;
}
