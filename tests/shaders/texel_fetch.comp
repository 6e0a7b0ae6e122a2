#version 450
#extension GL_EXT_samplerless_texture_functions : require
// Uniform texel buffer reads (tests/src/bin/texel.rs): texel i of `src` to out.texels[i]
// for i < count (count runs past the view: out-of-range texels), and textureSize.
// Built three times (tests/build.rs): TEX = textureBuffer / utextureBuffer / itextureBuffer,
// VEC = vec4 / uvec4 / ivec4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform TEX src;
layout(set = 0, binding = 1) buffer Out {
    uint size;
    uint pad[3];
    VEC texels[];
} o;
layout(push_constant) uniform P {
    uint count;
} p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i == 0) {
        o.size = uint(textureSize(src));
    }
    if (i < p.count) {
        o.texels[i] = texelFetch(src, int(i));
    }
}
