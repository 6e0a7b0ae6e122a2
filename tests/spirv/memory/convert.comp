// target-env: vulkan1.3
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// Conversions between every integer width and every float width.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { int a[]; };
layout(set = 0, binding = 1) buffer O { int64_t o[]; };
layout(set = 0, binding = 2) buffer F { double f[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    int x = a[i];
    int8_t b = int8_t(x);
    int16_t h = int16_t(x);
    int64_t l = int64_t(x);
    o[8 * i] = int64_t(b);
    o[8 * i + 1] = int64_t(uint8_t(b));
    o[8 * i + 2] = int64_t(h);
    o[8 * i + 3] = int64_t(uint16_t(h));
    o[8 * i + 4] = int64_t(uint64_t(uint(x)));
    o[8 * i + 5] = int64_t(int16_t(b)) + int64_t(uint16_t(uint8_t(h)));
    o[8 * i + 6] = int64_t(int8_t(l * 3l));
    o[8 * i + 7] = int64_t(double(x) * 0.25lf);
    float16_t small = float16_t(int8_t(x >> 24));
    f[4 * i] = double(small);
    f[4 * i + 1] = double(float(h)) + double(l);
    f[4 * i + 2] = double(uint8_t(b)) - double(float16_t(uint8_t(b)));
    f[4 * i + 3] = double(int16_t(float(h) * 0.5));
}
