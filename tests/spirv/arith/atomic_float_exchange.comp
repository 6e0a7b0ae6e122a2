// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_atomic_float : require
// atomicExchange on a float: every value put in comes out exactly once.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Slot { float slot; };
layout(set = 0, binding = 1) buffer Out { float got[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    got[i] = atomicExchange(slot, float(i) * -0.5);
}
