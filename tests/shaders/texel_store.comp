#version 450
// Storage texel buffer writes (tests/src/bin/texel.rs): in.texels[i] to texel i of `dst`
// for i < count (count runs past the view: out-of-range writes are dropped), and imageSize.
// The image has no format qualifier: the view's format converts. Built three times
// (tests/build.rs): IMG = imageBuffer / uimageBuffer / iimageBuffer, VEC = vec4 / uvec4 / ivec4.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) uniform writeonly IMG dst;
layout(set = 0, binding = 1) buffer In {
    uint size;
    uint pad[3];
    VEC texels[];
} b;
layout(push_constant) uniform P {
    uint count;
} p;
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i == 0) {
        b.size = uint(imageSize(dst));
    }
    if (i < p.count) {
        imageStore(dst, int(i), b.texels[i]);
    }
}
