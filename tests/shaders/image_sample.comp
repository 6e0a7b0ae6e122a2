#version 450
// softnavi-images, sampling: per invocation i, with q[i] = (u, v, lod, layer or depth
// reference): textureLod, texelFetch, textureGather (component 1, or the depth
// reference) and (textureSize at level 1, textureQueryLevels). ARRAY, SEPARATE (texture
// and sampler in two bindings), SHADOW and NOGATHER come from build.rs.
layout(local_size_x = 64) in;
#if SHADOW
#define STYPE sampler2DShadow
#define TTYPE texture2D
#elif ARRAY
#define STYPE sampler2DArray
#define TTYPE texture2DArray
#else
#define STYPE sampler2D
#define TTYPE texture2D
#endif
#if SEPARATE
layout(set = 0, binding = 0) uniform TTYPE t;
layout(set = 0, binding = 3) uniform sampler s;
#define TEX STYPE(t, s)
#else
layout(set = 0, binding = 0) uniform STYPE tex;
#define TEX tex
#endif
layout(set = 0, binding = 1) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 2) writeonly buffer Out { vec4 o[]; };
layout(push_constant) uniform P { uint n; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= n) {
        return;
    }
    vec4 c = q[i];
    int x = int(i % 4u), y = int(i / 4u % 4u), level = int(i & 1u);
#if SHADOW
    o[4 * i] = vec4(textureLod(TEX, vec3(c.xy, c.w), c.z));
    o[4 * i + 1] = vec4(0.0);
    o[4 * i + 2] = textureGather(TEX, c.xy, c.w);
    o[4 * i + 3] = vec4(textureSize(TEX, 0), textureQueryLevels(TEX), 0);
#elif ARRAY
    o[4 * i] = textureLod(TEX, vec3(c.xy, c.w), c.z);
    o[4 * i + 1] = texelFetch(TEX, ivec3(x, y, int(i % 3u)), level);
    o[4 * i + 2] = textureGather(TEX, vec3(c.xy, c.w), 1);
    o[4 * i + 3] = vec4(textureSize(TEX, 1), textureQueryLevels(TEX));
#else
    o[4 * i] = textureLod(TEX, c.xy, c.z);
    o[4 * i + 1] = texelFetch(TEX, ivec2(x, y), level);
#if NOGATHER
    o[4 * i + 2] = vec4(0.0);
#else
    o[4 * i + 2] = textureGather(TEX, c.xy, 1);
#endif
    o[4 * i + 3] = vec4(textureSize(TEX, 1), textureQueryLevels(TEX), 0);
#endif
}
