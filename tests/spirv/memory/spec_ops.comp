// target-env: vulkan1.2
#version 450
// Specialisation constant operations folded at pipeline creation, local_size_x_id
// (the WorkgroupSize built-in constant) and a shared array sized by a specialisation constant.
layout(local_size_x_id = 0) in;
layout(constant_id = 0) const uint WG = 8;
layout(constant_id = 1) const int A = 5;
layout(constant_id = 2) const int B = -3;
layout(constant_id = 3) const bool F = false;
layout(constant_id = 4) const uint U = 7u;
const int ADD = A + B, SUB = A - B, MUL = A * B, DIV = A / B, REM = A % B;
const int SHL = A << 3, SHR = B >> 1, BITS = (A & B) | (A ^ 12);
const uint USHR = U >> 1u, UDIV = U / 2u, UMOD = U % 3u, NOTU = ~U;
const bool CMP = (A < B) != (U >= 7u && !F), EQ = A == B, NE = (A != B) != F;
const int SEL = F ? A : B;
const uint CONV = uint(B) + uint(A);
const int NEG = -A;
const ivec2 V = ivec2(A, B) * 2;
const int VX = V.y;
shared int buf[WG * 2u];
layout(set = 0, binding = 0) buffer O { int o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    buf[i] = int(i);
    buf[i + WG] = -int(i);
    barrier();
    int vals[20] = int[](ADD, SUB, MUL, DIV, REM, SHL, SHR, BITS, int(USHR), int(UDIV), int(UMOD), int(NOTU),
                         int(CMP), int(EQ), int(NE), SEL, int(CONV), NEG, VX, int(gl_WorkGroupSize.x));
    uint g = gl_WorkGroupID.x;
    o[g * WG * 2u + i] = vals[i % 20u] + buf[(i + 1u) % WG] * 100;
    o[g * WG * 2u + WG + i] = buf[WG + i];
}
