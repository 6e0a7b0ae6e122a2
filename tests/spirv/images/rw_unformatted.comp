#version 450
#extension GL_EXT_shader_image_load_formatted : require
// Storage images without a format in the shader (StorageImageReadWithoutFormat and
// WriteWithoutFormat): texel (x, y, z) of a 3D image goes to (w-1-x, y, z) of another.
layout(local_size_x = 4, local_size_y = 4, local_size_z = 4) in;
layout(set = 0, binding = 0) writeonly buffer Size { ivec4 size; };
layout(set = 0, binding = 2) uniform readonly image3D src;
layout(set = 0, binding = 3) uniform writeonly image3D dst;
void main() {
    ivec3 g = ivec3(gl_GlobalInvocationID), s = imageSize(src);
    if (g == ivec3(0)) {
        size = ivec4(s, imageSize(dst).x);
    }
    if (any(greaterThanEqual(g, s))) {
        return;
    }
    imageStore(dst, ivec3(s.x - 1 - g.x, g.yz), imageLoad(src, g));
}
