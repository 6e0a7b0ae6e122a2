#version 450
// softnavi-descriptors: a runtime array of storage buffers (variable count, partially
// bound, update-after-bind) and an array of uniform buffers, both indexed non-uniformly.
#extension GL_EXT_nonuniform_qualifier : require
layout(local_size_x = 64) in;
layout(push_constant) uniform P { uint n; uint skip; uint probe; } pc;
layout(set = 0, binding = 0) buffer Out { uint o[]; };
layout(set = 0, binding = 1) uniform U { uvec4 u[4]; } ubos[4];
layout(set = 0, binding = 2) readonly buffer In { uint v[]; } ins[];
void main() {
    uint i = gl_GlobalInvocationID.x;
    uint k = (i * 7u + 3u) % pc.n;
    // The unwritten element is read only when probing (softnavi: a null V# reads 0).
    if (k == pc.skip && pc.probe == 0u) k = (k + 1u) % pc.n;
    uint a = ins[nonuniformEXT(k)].v[i];
    uint b = ubos[nonuniformEXT(i & 3u)].u[(i >> 2) & 3u].x;
    o[i] = a + b;
}
