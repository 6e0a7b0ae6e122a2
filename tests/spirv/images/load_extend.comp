// target-env: vulkan1.2
#version 450
// Integer reads in SPIR-V 1.5, where glslang marks them ZeroExtend (unsigned) and
// SignExtend (signed): imageLoad of rgba8ui and r8i storage images and texelFetch of
// R8G8B8A8_UINT and R8_SINT sampled ones (8x8 each) -> o[4 * i + k].
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0) writeonly buffer Out { uvec4 o[]; };
layout(set = 0, binding = 2, rgba8ui) uniform readonly uimage2D i0;
layout(set = 0, binding = 3, r8i) uniform readonly iimage2D i1;
layout(set = 0, binding = 4) uniform usampler2D t0;
layout(set = 0, binding = 5) uniform isampler2D t1;
void main() {
    ivec2 p = ivec2(gl_GlobalInvocationID.xy);
    uint i = gl_LocalInvocationIndex;
    o[4 * i] = imageLoad(i0, p);
    o[4 * i + 1] = uvec4(imageLoad(i1, p));
    o[4 * i + 2] = texelFetch(t0, p, 0);
    o[4 * i + 3] = uvec4(texelFetch(t1, p, 0));
}
