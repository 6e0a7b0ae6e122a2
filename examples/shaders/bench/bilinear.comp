#version 450
// Resamples a sampled rgba8 image (combined image sampler, LINEAR, CLAMP_TO_EDGE) to an
// n x n rgba8 storage image (n a multiple of 8) with textureLod(..., 0) at texel centres:
// one output texel per invocation, 8x8 workgroups.
layout(local_size_x = 8, local_size_y = 8) in;

layout(set = 0, binding = 0) uniform sampler2D src;
layout(set = 0, binding = 1, rgba8) uniform writeonly image2D dst;
layout(push_constant) uniform Params { float inv_n; } pc;

void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec2 uv = (vec2(p) + 0.5) * pc.inv_n;
    imageStore(dst, p, textureLod(src, uv, 0.0));
}
