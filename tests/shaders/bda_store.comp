#version 450
// Stores one dword through a buffer device address from the push constants: given an
// unmapped address, the store faults and the device is lost (softnavi-queues `lost`).
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430) buffer Ptr { uint v; };
layout(push_constant) uniform P { Ptr p; };
void main() {
    p.v = 1u;
}
