#version 450
#extension GL_ARB_gpu_shader_int64 : require
// 64-bit integers and doubles (capabilities Int64 and Float64).
layout(local_size_x = 32) in;

layout(set = 0, binding = 0, std430) buffer Data { double scale; uint64_t wide[]; };
layout(set = 0, binding = 1, std430) buffer Reals { double values[]; };

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint64_t w = wide[i];
    w = w * 6364136223846793005UL + 1442695040888963407UL;
    wide[i] = w ^ (w >> 29);
    double d = values[i];
    values[i] = d * scale + double(w & 0xffffUL) / 3.0LF + sqrt(abs(d));
}
