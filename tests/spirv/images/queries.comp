#version 450
// textureSize at lod i % levels and textureQueryLevels on every sampled dimensionality,
// and imageSize of a storage image: o[8 * i + k].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { int lod[]; };
layout(set = 0, binding = 1) writeonly buffer Out { ivec4 o[]; };
layout(set = 0, binding = 2) uniform sampler1D t1;
layout(set = 0, binding = 3) uniform sampler1DArray t1a;
layout(set = 0, binding = 4) uniform sampler2D t2;
layout(set = 0, binding = 5) uniform sampler2DArray t2a;
layout(set = 0, binding = 6) uniform sampler3D t3;
layout(set = 0, binding = 7) uniform samplerCube tc;
layout(set = 0, binding = 8) uniform samplerCubeArray tca;
layout(set = 0, binding = 9, rgba8) uniform readonly image2DArray img;
void main() {
    uint i = gl_GlobalInvocationID.x;
    int l = lod[i];
    o[8 * i] = ivec4(textureSize(t1, l), 0, 0, textureQueryLevels(t1));
    o[8 * i + 1] = ivec4(textureSize(t1a, l), 0, textureQueryLevels(t1a));
    o[8 * i + 2] = ivec4(textureSize(t2, l), 0, textureQueryLevels(t2));
    o[8 * i + 3] = ivec4(textureSize(t2a, l), textureQueryLevels(t2a));
    o[8 * i + 4] = ivec4(textureSize(t3, l), textureQueryLevels(t3));
    o[8 * i + 5] = ivec4(textureSize(tc, l), 0, textureQueryLevels(tc));
    o[8 * i + 6] = ivec4(textureSize(tca, l), textureQueryLevels(tca));
    o[8 * i + 7] = ivec4(imageSize(img), 0);
}
