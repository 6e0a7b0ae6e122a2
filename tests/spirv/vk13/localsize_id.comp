// target-env: vulkan1.3
#version 460
// A typical Vulkan 1.3 (SPIR-V 1.6) compute shader: the workgroup size from specialisation
// constants (LocalSizeId in SPIR-V 1.6), struct copies between differently laid out types
// (OpCopyLogical).
layout(local_size_x_id = 0, local_size_y_id = 1) in;
struct P { uint a; vec2 b; };
layout(set = 0, binding = 0, std430) readonly buffer In { P p[]; };
layout(set = 0, binding = 1, std140) writeonly buffer Out { P q[]; };
layout(set = 0, binding = 2, std430) writeonly buffer Ids { uvec4 ids[]; };
void main() {
    uint i = gl_GlobalInvocationID.y * gl_NumWorkGroups.x * gl_WorkGroupSize.x + gl_GlobalInvocationID.x;
    P t = p[i];
    t.a += gl_LocalInvocationIndex;
    t.b *= 2.0;
    q[i] = t;
    ids[i] = uvec4(gl_WorkGroupSize, gl_LocalInvocationIndex);
}
