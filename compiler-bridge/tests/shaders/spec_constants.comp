#version 450
// Specialisation constants: the workgroup size, a scalar, a bool and derived constants
// (OpSpecConstantOp), plus a Private global and function-local arrays.
layout(local_size_x_id = 0, local_size_y = 1, local_size_z = 1) in;
layout(constant_id = 1) const uint SCALE = 3u;
layout(constant_id = 2) const bool NEGATE = false;
layout(constant_id = 3) const int BIAS = -2;
const uint DOUBLE_SCALE = SCALE * 2u + 1u;

layout(set = 0, binding = 0, std430) buffer Data { int data[]; };

int counter = 7;          // Private storage

int bump(int v) {
    counter += v;
    return counter;
}

void main() {
    uint i = gl_GlobalInvocationID.x;
    int table[4] = int[4](1, 2, 3, 4);
    int local[8];
    for (int k = 0; k < 8; k++) local[k] = k * int(SCALE);
    int v = data[i] * int(DOUBLE_SCALE) + BIAS + table[i & 3u] + local[(i + gl_WorkGroupSize.x) & 7u];
    if (NEGATE) v = -v;
    data[i] = bump(v) + bump(1);
}
