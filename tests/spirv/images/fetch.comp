#version 450
// texelFetch with a lod, and texelFetchOffset (ConstOffset), on 2D, 3D, 2D array, 1D array
// and unsigned integer 2D images: p[i] = (x, y, z or layer, lod).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { ivec4 p[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler2D t2;
layout(set = 0, binding = 3) uniform sampler3D t3;
layout(set = 0, binding = 4) uniform sampler2DArray ta;
layout(set = 0, binding = 5) uniform sampler1DArray t1a;
layout(set = 0, binding = 6) uniform usampler2D tu;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 c = p[i];
    o[6 * i] = texelFetch(t2, c.xy, c.w);
    o[6 * i + 1] = texelFetchOffset(t2, c.xy, c.w, ivec2(1, -1));
    o[6 * i + 2] = texelFetch(t3, c.xyz, c.w);
    o[6 * i + 3] = texelFetchOffset(ta, c.xyz, c.w, ivec2(-1, 1));
    o[6 * i + 4] = texelFetch(t1a, c.xz, c.w);
    o[6 * i + 5] = uintBitsToFloat(texelFetch(tu, c.xy, c.w));
}
