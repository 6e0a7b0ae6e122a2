#version 450
// softnavi-msaa: writes every sample (x + y + s) % 3 != 0 of a multisampled storage image
// array with its own id; the others keep what a clear left.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32ui) uniform uimage2DMSArray img;

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 size = imageSize(img);
    if (any(greaterThanEqual(p, size))) {
        return;
    }
    int n = imageSamples(img);
    for (int s = 0; s < n; s++) {
        if ((p.x + p.y + s) % 3 != 0) {
            imageStore(img, p, s, uvec4(0x40000000u | uint(p.x) | uint(p.y) << 8 | uint(p.z) << 16 | uint(s) << 24));
        }
    }
}
