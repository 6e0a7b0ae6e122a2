#version 450
// Uses an atomic, which the SPIR-V lowering does not support yet: pipeline creation must
// fail with an error naming the instruction.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Counter { uint count; };
void main() {
    atomicAdd(count, 1u);
}
