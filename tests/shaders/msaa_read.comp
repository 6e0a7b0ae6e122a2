#version 450
// softnavi-msaa: reads every sample of a multisampled image array twice, with imageLoad
// (storage) and texelFetch (sampled), and the queries imageSamples, textureSamples,
// imageSize and textureSize.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0, r32ui) uniform uimage2DMSArray img;
layout(binding = 1) uniform usampler2DMSArray tex;
layout(binding = 2) buffer Out {
    int info[8];
    uint loads[];
};

void main() {
    ivec3 p = ivec3(gl_GlobalInvocationID);
    ivec3 size = imageSize(img);
    if (p == ivec3(0)) {
        info[0] = imageSamples(img);
        info[1] = textureSamples(tex);
        info[2] = size.x;
        info[3] = size.y;
        info[4] = size.z;
        ivec3 ts = textureSize(tex);
        info[5] = ts.x;
        info[6] = ts.y;
        info[7] = ts.z;
    }
    if (any(greaterThanEqual(p, size))) {
        return;
    }
    int n = imageSamples(img);
    uint base = uint(((p.z * size.y + p.y) * size.x + p.x) * n);
    for (int s = 0; s < n; s++) {
        loads[2u * (base + uint(s))] = imageLoad(img, p, s).x;
        loads[2u * (base + uint(s)) + 1u] = texelFetch(tex, p, s).x;
    }
}
