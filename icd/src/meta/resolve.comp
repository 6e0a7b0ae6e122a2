#version 450
#extension GL_GOOGLE_include_directive : require
// vkCmdResolveImage as a compute shader (icd/src/resolve.rs): one invocation per
// destination texel reads its source texel's samples (texelFetch of the multisampled
// view, a 2D_MSAA_ARRAY T#) and stores their mean (floating-point and normalised formats)
// or sample 0 (integer formats: Vulkan's "a single sample's value is selected").
//
// Variants (scripts/gen-meta compiles each to icd/src/meta/resolve_<class>.spv):
//   CLASS_I, CLASS_U integer formats; PACKED: a packed 16-bit UNORM destination stored as
//   R16_UINT; none: float. Without PACKED, `size.w == 1` encodes sRGB (store.glsl).

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

#include "store.glsl"

#if defined(CLASS_I)
#define VEC ivec4
#define SRC isampler2DMSArray
#define DST iimage2DArray
#elif defined(CLASS_U)
#define VEC uvec4
#define SRC usampler2DMSArray
#define DST uimage2DArray
#else
#define VEC vec4
#define SRC sampler2DMSArray
#ifdef PACKED
#define DST uimage2DArray
#else
#define DST image2DArray
#endif
#endif

layout(set = 0, binding = 0) uniform SRC src;
layout(set = 0, binding = 1) uniform writeonly DST dst;

layout(push_constant) uniform Resolve {
    // Source texel (x, y, layer) of invocation (0, 0, 0); w: the source's samples.
    ivec4 src_base;
    // Destination texel (x, y, layer) of invocation (0, 0, 0).
    ivec4 dst_base;
    // Texels per axis (x, y, layers); w: 1 to encode sRGB.
    uvec4 size;
    // PACKED: per component, shift | bits << 8.
    uvec4 packing;
} pc;

void main() {
    uvec3 g = gl_GlobalInvocationID;
    if (any(greaterThanEqual(g, pc.size.xyz))) {
        return;
    }
    ivec3 s = pc.src_base.xyz + ivec3(g);
    ivec3 d = pc.dst_base.xyz + ivec3(g);
#if defined(CLASS_I) || defined(CLASS_U)
    imageStore(dst, d, texelFetch(src, s, 0));
#else
    vec4 v = vec4(0.0);
    for (int i = 0; i < pc.src_base.w; i++) {
        v += texelFetch(src, s, i);
    }
    v /= float(pc.src_base.w);
#ifdef PACKED
    imageStore(dst, d, uvec4(pack16(v, pc.packing), 0u, 0u, 0u));
#else
    if (pc.size.w == 1u) {
        v.rgb = srgb_oetf(v.rgb);
    }
    imageStore(dst, d, v);
#endif
#endif
}
