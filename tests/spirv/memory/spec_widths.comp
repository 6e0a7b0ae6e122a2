// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types : require
// Specialisation constants of 8-, 16- and 64-bit integer, half and double types, and
// conversions between them.
layout(local_size_x = 1) in;
layout(constant_id = 0) const int8_t I8 = int8_t(-5);
layout(constant_id = 1) const uint16_t U16 = uint16_t(700);
layout(constant_id = 2) const int64_t I64 = -9000000000l;
layout(constant_id = 3) const double D = 1.5lf;
layout(constant_id = 4) const float16_t H = 2.5hf;
layout(constant_id = 5) const uint64_t U64 = 1ul;
const int64_t SUM = int64_t(I8) + int64_t(U16) + I64;
const int16_t NARROW = int16_t(I64);
const uint64_t WIDE = uint64_t(U16) << 40;
layout(set = 0, binding = 0) buffer O { int64_t o[8]; double d[2]; };
void main() {
    o[0] = int64_t(I8);
    o[1] = int64_t(U16);
    o[2] = I64;
    o[3] = SUM;
    o[4] = int64_t(NARROW);
    o[5] = int64_t(WIDE);
    o[6] = int64_t(U64 * 3ul);
    o[7] = int64_t(float(H) * 4.0);
    d[0] = D * 2.0lf;
    d[1] = double(H);
}
