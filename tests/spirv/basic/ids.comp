// target-env: vulkan1.0
#version 450
// Every built-in input of a compute shader, from a 3-D dispatch of 3-D workgroups.
layout(local_size_x = 4, local_size_y = 2, local_size_z = 2) in;
layout(set = 0, binding = 0) buffer Out { uvec4 o[]; };
void main() {
    uvec3 g = gl_GlobalInvocationID;
    uvec3 n = gl_NumWorkGroups * gl_WorkGroupSize;
    uint i = g.x + n.x * (g.y + n.y * g.z);
    o[4 * i + 0] = uvec4(gl_GlobalInvocationID, gl_LocalInvocationIndex);
    o[4 * i + 1] = uvec4(gl_LocalInvocationID, 0);
    o[4 * i + 2] = uvec4(gl_WorkGroupID, 0);
    o[4 * i + 3] = uvec4(gl_NumWorkGroups, 0);
}
