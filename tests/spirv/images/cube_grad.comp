#version 450
// textureGrad on a cube: q[3i] = direction, q[3i + 1] = dPdx, q[3i + 2] = dPdy.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform samplerCube t;
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[i] = textureGrad(t, q[3 * i].xyz, q[3 * i + 1].xyz, q[3 * i + 2].xyz);
}
