#version 450
#extension GL_ARB_sparse_texture2 : require
// Uses sparse residency (a sparse texel fetch): softnavi has none, so pipeline creation must
// fail with an error that names what is missing.
layout(local_size_x = 64) in;
layout(set = 0, binding = 1) uniform sampler2D t;
layout(set = 0, binding = 0) buffer B { vec4 o; };
void main() {
    vec4 v;
    sparseTexelFetchARB(t, ivec2(0), 0, v);
    o = v;
}
