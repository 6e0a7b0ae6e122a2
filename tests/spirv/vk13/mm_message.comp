// target-env: vulkan1.3
#version 460
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Message passing across workgroups under the Vulkan memory model: each workgroup writes
// its data (coherent: NonPrivatePointer + MakePointerAvailable/Visible at device scope),
// makes it available with a workgroup control barrier, and publishes a flag with a
// device-scope release store; every invocation then watches another workgroup's flag with
// device-scope acquire loads (a bounded spin, so no forward-progress assumption) and, once
// it sees the flag, must see that workgroup's data. seen: 0 flag not seen, 1 data right,
// 2 data wrong (an ordering bug).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) coherent buffer Data { uint data[]; };
layout(set = 0, binding = 1, std430) buffer Flags { uint flag[]; };
layout(set = 0, binding = 2, std430) buffer Seen { uint seen[]; };
void main() {
    uint g = gl_WorkGroupID.x, l = gl_LocalInvocationID.x, n = gl_NumWorkGroups.x;
    data[g * 64u + l] = g * 1000u + l + 1u;
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsBuffer,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    if (l == 0u) {
        atomicStore(flag[g], 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                    gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    }
    uint j = (g + 1u + l) % n;
    uint f = 0u;
    for (uint k = 0u; k < 200u && f == 0u; k++) {
        f = atomicLoad(flag[j], gl_ScopeDevice, gl_StorageSemanticsBuffer,
                       gl_SemanticsAcquire | gl_SemanticsMakeVisible);
    }
    uint r = 0u;
    if (f != 0u) {
        uint m = (l * 7u) % 64u;
        r = data[j * 64u + m] == j * 1000u + m + 1u ? 1u : 2u;
    }
    seen[g * 64u + l] = r;
}
