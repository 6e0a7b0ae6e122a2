#version 450
// Views of part of an image: a storage view of one level and layer of a 2D array
// (rgba8ui), where each texel gets + 1, and a sampled view whose first level is the
// image's level 1: imageSize, textureSize and texelFetch at view levels 0 and 1.
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 sizes; vec4 o[]; };
layout(set = 0, binding = 2, rgba8ui) uniform uimage2D img;
layout(set = 0, binding = 3) uniform sampler2D t;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    if (i == 0u) {
        sizes = uvec4(imageSize(img), textureSize(t, 0).x, textureSize(t, 1).x);
    }
    if (all(lessThan(p, imageSize(img)))) {
        imageStore(img, p, imageLoad(img, p) + 1u);
    }
    o[2 * i] = texelFetch(t, p % 4, 0);
    o[2 * i + 1] = texelFetch(t, p % 2, 1);
}
