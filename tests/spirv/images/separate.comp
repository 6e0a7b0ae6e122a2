#version 450
// A separate texture and sampler (SAMPLED_IMAGE + SAMPLER), combined in the shader:
// textureLod and texelFetch, q[i] = (u, v, lod, -).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 2) uniform texture2D tex;
layout(set = 0, binding = 3) uniform sampler smp;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[2 * i] = textureLod(sampler2D(tex, smp), c.xy, c.z);
    o[2 * i + 1] = texelFetch(sampler2D(tex, smp), ivec2(i % 8u, i / 8u), 0);
}
