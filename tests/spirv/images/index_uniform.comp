#version 450
// Arrays of descriptors indexed by a dynamically uniform value (push constant k): four
// sampled textures with one sampler, and three storage images; invocation i fetches
// texel i of texture k and stores it to image k % 3.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform texture2D ts[4];
layout(set = 0, binding = 3) uniform sampler s;
layout(set = 0, binding = 4, rgba8) uniform writeonly image2D imgs[3];
layout(push_constant) uniform P { int k; };
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    vec4 v = texelFetch(sampler2D(ts[k], s), p, 0);
    o[gl_LocalInvocationIndex] = v;
    imageStore(imgs[k % 3], p, v);
}
