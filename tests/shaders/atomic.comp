#version 450
// Uses an image atomic: images are not lowered yet (their UniformConstant variables are
// refused), so pipeline creation must fail with an error that names what is missing.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, r32ui) uniform uimage2D counter;
void main() {
    imageAtomicAdd(counter, ivec2(0), 1u);
}
