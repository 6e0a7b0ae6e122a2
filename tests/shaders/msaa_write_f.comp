#version 450
// softnavi-msaa --resolve: writes every sample of a multisampled R32_SFLOAT image array
// with x + 16 y + 256 layer + 0.25 sample, whose four-sample mean is x + 16 y + 256 layer
// + 0.375 (exact in f32).
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32f) uniform image2DMSArray img;

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 size = imageSize(img);
    if (any(greaterThanEqual(p, size))) {
        return;
    }
    int n = imageSamples(img);
    for (int s = 0; s < n; s++) {
        imageStore(img, p, s, vec4(float(p.x + 16 * p.y + 256 * p.z) + 0.25 * float(s)));
    }
}
