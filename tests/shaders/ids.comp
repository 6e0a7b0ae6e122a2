#version 450
// Records, for each invocation, its workgroup id and the dispatch's workgroup count, at the
// slot of its global invocation index (grid of at most 16 x 4 groups of 4 invocations).
layout(local_size_x = 4) in;
layout(set = 0, binding = 0, std430) writeonly buffer Out { uvec4 slot[]; };
layout(push_constant) uniform Params { uint tag; } pc;
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uint i = g.y * 64u + g.x;
    slot[i] = uvec4(gl_WorkGroupID.x, gl_WorkGroupID.y, gl_NumWorkGroups.x * 100u + gl_NumWorkGroups.y, pc.tag);
}
