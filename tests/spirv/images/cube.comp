#version 450
// textureLod on a cube and a cube array: q[i] = direction and lod, layer[i] the cube
// array layer (binding 2) -> o[2 * i + k].
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer In { vec4 q[]; };
layout(set = 0, binding = 1) writeonly buffer Out { vec4 o[]; };
layout(set = 0, binding = 3) uniform samplerCube tc;
layout(set = 0, binding = 4) uniform samplerCubeArray ta;
layout(set = 0, binding = 2) readonly buffer L { float layer[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec4 c = q[i];
    o[2 * i] = textureLod(tc, c.xyz, c.w);
    o[2 * i + 1] = textureLod(ta, vec4(c.xyz, layer[i]), c.w);
}
