// target-env: vulkan1.3
#version 460
#pragma use_vulkan_memory_model
#extension GL_KHR_memory_scope_semantics : require
// Atomics, barriers and volatile accesses with Vulkan scopes and semantics: a workgroup
// histogram in shared memory (workgroup scope, relaxed), published to the buffer with
// device-scope acquire-release atomics after a memoryBarrier, and a volatile load.
layout(local_size_x = 128) in;
layout(set = 0, binding = 0, std430) readonly buffer In { uint a[]; };
layout(set = 0, binding = 1, std430) buffer Hist { uint hist[16]; uint total; uint maxv; };
layout(set = 0, binding = 2, std430) volatile buffer Out { uint out_v[]; };
shared uint local_hist[16];
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    if (l < 16u) {
        atomicStore(local_hist[l], 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    }
    controlBarrier(gl_ScopeWorkgroup, gl_ScopeWorkgroup, gl_StorageSemanticsShared,
                   gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    uint v = a[i];
    atomicAdd(local_hist[v & 15u], 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelaxed);
    memoryBarrier(gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    barrier();
    if (l < 16u) {
        uint c = atomicLoad(local_hist[l], gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire);
        atomicAdd(hist[l], c, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                  gl_SemanticsAcquireRelease | gl_SemanticsMakeAvailable | gl_SemanticsMakeVisible);
    }
    atomicAdd(total, 1u, gl_ScopeQueueFamily, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    atomicMax(maxv, v, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease | gl_SemanticsMakeAvailable);
    uint e = atomicExchange(out_v[i * 2u], v, gl_ScopeDevice, gl_StorageSemanticsBuffer,
                            gl_SemanticsAcquireRelease | gl_SemanticsVolatile);
    out_v[i * 2u + 1u] = e + out_v[i * 2u];
}
