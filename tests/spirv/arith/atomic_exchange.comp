// target-env: vulkan1.2
#version 450
// atomicExchange: every value put in the slot comes out exactly once (returned or final).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer Slot { uint slot; };
layout(set = 0, binding = 1) buffer Out { uint got[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    got[i] = atomicExchange(slot, i + 1u);
}
