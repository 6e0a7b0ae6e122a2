#version 450
// Every storage image dimensionality (r32ui): invocation (x, y, z) adds 1000 * (k + 1) + x
// + 10 * y + 100 * z to texel (x, y, z) of image k where it is in range (the last
// coordinate is the layer, or 6 * layer + face), and writes every imageSize.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) writeonly buffer Size { ivec4 size[6]; };
layout(set = 0, binding = 2, r32ui) uniform uimage1D i1d;
layout(set = 0, binding = 3, r32ui) uniform uimage1DArray i1da;
layout(set = 0, binding = 4, r32ui) uniform uimage2DArray i2da;
layout(set = 0, binding = 5, r32ui) uniform uimageCube icube;
layout(set = 0, binding = 6, r32ui) uniform uimageCubeArray icubea;
layout(set = 0, binding = 7, r32ui) uniform uimage3D i3d;
uint add(int k, ivec3 g) {
    return uint(1000 * (k + 1) + g.x + 10 * g.y + 100 * g.z);
}
void main() {
    ivec3 g = ivec3(gl_GlobalInvocationID);
    if (g == ivec3(0)) {
        size[0] = ivec4(imageSize(i1d), 0, 0, 0);
        size[1] = ivec4(imageSize(i1da), 0, 0);
        size[2] = ivec4(imageSize(i2da), 0);
        size[3] = ivec4(imageSize(icube), 0, 0);
        size[4] = ivec4(imageSize(icubea), 0);
        size[5] = ivec4(imageSize(i3d), 0);
    }
    if (g.y == 0 && g.z == 0 && g.x < imageSize(i1d)) {
        imageStore(i1d, g.x, imageLoad(i1d, g.x) + add(0, g));
    }
    if (g.z == 0 && all(lessThan(g.xy, imageSize(i1da)))) {
        imageStore(i1da, g.xy, imageLoad(i1da, g.xy) + add(1, g));
    }
    if (all(lessThan(g, imageSize(i2da)))) {
        imageStore(i2da, g, imageLoad(i2da, g) + add(2, g));
    }
    if (all(lessThan(g, ivec3(imageSize(icube), 6)))) {
        imageStore(icube, g, imageLoad(icube, g) + add(3, g));
    }
    ivec3 ca = imageSize(icubea);
    if (all(lessThan(g, ivec3(ca.xy, 6 * ca.z)))) {
        imageStore(icubea, g, imageLoad(icubea, g) + add(4, g));
    }
    if (all(lessThan(g, imageSize(i3d)))) {
        imageStore(i3d, g, imageLoad(i3d, g) + add(5, g));
    }
}
