#version 450
#extension GL_GOOGLE_include_directive : require
// vkCmdBlitImage as a compute shader (icd/src/blit.rs): one invocation per destination
// texel samples the source at the texel's mapped centre (Vulkan's "Image Blits"
// coordinate transform, done on the host into `origin` and `step`) and stores the result.
//
// Variants (scripts/gen-meta compiles each to icd/src/meta/blit_<class>_<src><dst>.spv):
//   SRC_3D / DST_3D  sampler3D / image3D, else the 2D-array types (1D and 2D images are
//                    viewed as 2D arrays one texel high or one layer deep)
//   CLASS_I, CLASS_U integer formats (nearest sampling, integer stores)
//   PACKED           float source, destination a packed 16-bit UNORM format stored as
//                    R16_UINT: the shader packs (image stores do not write those formats)
// Without PACKED, `size.w == 1` encodes the colour with the sRGB OETF before a store to
// the UNORM view of an sRGB image (image stores do not encode sRGB).

layout(local_size_x = 8, local_size_y = 8, local_size_z = 1) in;

#include "store.glsl"

#if defined(CLASS_I)
#define VEC ivec4
#define SRC_PREFIX isampler
#define DST_PREFIX iimage
#elif defined(CLASS_U)
#define VEC uvec4
#define SRC_PREFIX usampler
#define DST_PREFIX uimage
#else
#define VEC vec4
#define SRC_PREFIX sampler
#ifdef PACKED
#define DST_PREFIX uimage
#else
#define DST_PREFIX image
#endif
#endif

#ifdef SRC_3D
#define SRC_TYPE 3D
#else
#define SRC_TYPE 2DArray
#endif
#ifdef DST_3D
#define DST_TYPE 3D
#else
#define DST_TYPE 2DArray
#endif

#define CAT(a, b) a##b
#define XCAT(a, b) CAT(a, b)

layout(set = 0, binding = 0) uniform XCAT(SRC_PREFIX, SRC_TYPE) src;
layout(set = 0, binding = 1) uniform writeonly XCAT(DST_PREFIX, DST_TYPE) dst;

layout(push_constant) uniform Blit {
    // Source coordinate of destination texel (0, 0, 0)'s corner and its change per
    // destination texel: x, y (and z of a 3D source) normalised, z of an array the layer.
    vec4 origin;
    vec4 step_;
    // Destination texel (x, y, z or layer) of invocation (0, 0, 0).
    ivec4 base;
    // Destination texels per axis; w: 1 to encode sRGB.
    uvec4 size;
    // PACKED: per component, shift | bits << 8 (bits 0: not stored).
    uvec4 packing;
} pc;

void main() {
    uvec3 g = gl_GlobalInvocationID;
    if (any(greaterThanEqual(g, pc.size.xyz))) {
        return;
    }
    vec3 c = pc.origin.xyz + (vec3(g) + 0.5) * pc.step_.xyz;
    VEC v = textureLod(src, c, 0.0);
    ivec3 d = pc.base.xyz + ivec3(g);
#if defined(PACKED)
    imageStore(dst, d, uvec4(pack16(v, pc.packing), 0u, 0u, 0u));
#elif defined(CLASS_I) || defined(CLASS_U)
    imageStore(dst, d, v);
#else
    if (pc.size.w == 1u) {
        v.rgb = srgb_oetf(v.rgb);
    }
    imageStore(dst, d, v);
#endif
}
