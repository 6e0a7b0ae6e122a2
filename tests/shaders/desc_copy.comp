#version 450
// softnavi-descriptors: two arrays of storage buffers, filled by templates and copies.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { uint v[]; } a[2];
layout(set = 0, binding = 1) readonly buffer B { uint v[]; } b[2];
layout(set = 0, binding = 2) buffer Out { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    o[4u * i + 0u] = a[0].v[i];
    o[4u * i + 1u] = a[1].v[i];
    o[4u * i + 2u] = b[0].v[i];
    o[4u * i + 3u] = b[1].v[i];
}
