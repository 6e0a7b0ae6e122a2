#version 450
// Spins forever (the loop's value is odd, never 0), then would store through the buffer
// device address in the push constants: a hang, which the model reports once it outlasts
// SOFTNAVI_HANG_TIMEOUT_MS (softnavi-queues `hang`).
#extension GL_EXT_buffer_reference : require
layout(local_size_x = 1) in;
layout(buffer_reference, std430) buffer Ptr { uint v; };
layout(push_constant) uniform P { Ptr p; };
void main() {
    uint i = 1u;
    while (i != 0u) {
        i = i * 2654435761u | 1u;
    }
    p.v = i;
}
