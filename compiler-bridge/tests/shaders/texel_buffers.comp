#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Texel buffers of every kind the lowering handles: fetch, load, store, size, atomics,
// arrays and the combined samplerBuffer form.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform textureBuffer src;
layout(set = 0, binding = 1, rgba32f) uniform writeonly imageBuffer dst;
layout(set = 0, binding = 2, r32ui) uniform uimageBuffer counters;
layout(set = 0, binding = 3) uniform isamplerBuffer ints;
layout(set = 0, binding = 4, rgba8) uniform readonly imageBuffer packed[2];
void main() {
    int i = int(gl_GlobalInvocationID.x);
    vec4 a = texelFetch(src, i);
    vec4 b = imageLoad(packed[i & 1], i);
    ivec4 c = texelFetch(ints, i);
    imageStore(dst, i, a + b + vec4(c) + vec4(float(imageSize(dst)), float(textureSize(src)), 0.0, 0.0));
    imageAtomicAdd(counters, i % 4, 1u);
}
