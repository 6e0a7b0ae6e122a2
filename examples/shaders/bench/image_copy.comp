#version 450
// dst = src for two n x n rgba8 storage images (n a multiple of 8): one texel per
// invocation, imageLoad then imageStore, 8x8 workgroups. buffer_copy.comp is the same
// bytes through a uint SSBO.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0, rgba8) uniform readonly image2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    imageStore(dst, p, imageLoad(src, p));
}
