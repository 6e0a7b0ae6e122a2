#version 450
// y[i] = a * x[i] + y[i]: a streaming kernel, one element per invocation, on a 2D grid of
// workgroups (rows of gl_NumWorkGroups.x groups) since 16 M / 64 groups exceed the 65535
// that devices must allow in one dimension.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer X { float x[]; };
layout(set = 0, binding = 1, std430) buffer Y { float y[]; };
layout(push_constant) uniform Params { float a; uint n; } pc;

void main() {
    uint i = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * 64u + gl_GlobalInvocationID.x;
    if (i < pc.n) {
        y[i] = pc.a * x[i] + y[i];
    }
}
