// target-env: vulkan1.2
#version 450
// A uniform block, a specialisation constant and a specialised workgroup size.
layout(local_size_x_id = 0) in;
layout(constant_id = 1) const int SCALE = 1;
layout(set = 0, binding = 0) uniform U { ivec4 bias; int k; } u;
layout(set = 0, binding = 1) buffer Out { int o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = int(i) * SCALE * u.k + u.bias[i % 4] + int(gl_WorkGroupSize.x);
}
