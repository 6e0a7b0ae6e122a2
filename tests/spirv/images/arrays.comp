#version 450
// textureLod on 1D, 1D array, 2D array and 3D images: q[i] = (u, v, w or layer, lod) ->
// o[4 * i + k].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform sampler1D t1;
layout(set = 0, binding = 3) uniform sampler1DArray t1a;
layout(set = 0, binding = 4) uniform sampler2DArray t2a;
layout(set = 0, binding = 5) uniform sampler3D t3;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[4 * i] = textureLod(t1, c.x, c.w);
    o[4 * i + 1] = textureLod(t1a, c.xz, c.w);
    o[4 * i + 2] = textureLod(t2a, c.xyz, c.w);
    o[4 * i + 3] = textureLod(t3, c.xyz, c.w);
}
