#version 450
// Uses an atomic on a multisampled storage image: softnavi has no multisampled images, so
// pipeline creation must fail with an error that names what is missing.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2DMS counter;
void main() {
    imageAtomicAdd(counter, ivec2(0), 0, 1u);
}
