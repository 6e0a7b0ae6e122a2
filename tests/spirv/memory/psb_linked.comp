// target-env: vulkan1.3
#version 450
#extension GL_EXT_buffer_reference2 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
// A linked list in one buffer: each invocation points its node at another with pointer
// arithmetic (OpPtrAccessChain), then walks five links.
layout(local_size_x = 128) in;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node;
layout(buffer_reference, std430, buffer_reference_align = 16) buffer Node { Node next; int value; int visits; };
layout(push_constant) uniform P { Node nodes; } pc;
layout(set = 0, binding = 1) buffer O { int o[]; };
void main() {
    uint i = gl_LocalInvocationID.x;
    Node mine = pc.nodes[i];
    mine.next = pc.nodes[(i * 7u + 3u) % 128u];
    memoryBarrierBuffer();
    barrier();
    Node n = mine;
    int sum = 0;
    for (int k = 0; k < 5; k++) {
        sum = sum * 3 + n.value;
        n = n.next;
    }
    o[i] = sum;
}
