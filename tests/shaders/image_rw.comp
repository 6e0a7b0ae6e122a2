#version 450
// softnavi-images: reads every texel of a storage image, writes OP(texel) to another of
// the same shape, and imageSize to a buffer. IMG/VEC/FMT/OP/DIM/CUBE come from build.rs.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 2) in;
layout(set = 0, binding = 0, FMT) uniform readonly IMG src;
layout(set = 0, binding = 1, FMT) uniform writeonly IMG dst;
layout(set = 0, binding = 2) buffer Size { ivec4 size; };
#if CUBE
#define S4 ivec4(imageSize(src), 6, 0)
#elif DIM == 1
#define S4 ivec4(imageSize(src), 0, 0, 0)
#elif DIM == 2
#define S4 ivec4(imageSize(src), 0, 0)
#else
#define S4 ivec4(imageSize(src), 0)
#endif
#if DIM == 1
#define C(g) g.x
#elif DIM == 2
#define C(g) g.xy
#else
#define C(g) g
#endif
void main() {
    ivec3 g = ivec3(gl_GlobalInvocationID);
    ivec4 s = S4;
    if (g == ivec3(0)) {
        size = s;
    }
    if (any(greaterThanEqual(g, max(s.xyz, ivec3(1))))) {
        return;
    }
    VEC v = imageLoad(src, C(g));
    imageStore(dst, C(g), OP(v));
}
