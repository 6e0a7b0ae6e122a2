// target-env: vulkan1.3
#version 450
#extension GL_KHR_memory_scope_semantics : require
// Atomics with explicit scopes and semantics: acquire/release loads and stores, device,
// workgroup and subgroup scopes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer State { uint flag; uint count; uint data[]; };
shared uint wg_count;
void main() {
    uint l = gl_LocalInvocationID.x, i = gl_GlobalInvocationID.x;
    if (l == 0u) atomicStore(wg_count, 0u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsRelease);
    barrier();
    atomicAdd(wg_count, 1u, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquireRelease);
    atomicAdd(data[i + 256u], i, gl_ScopeSubgroup, gl_StorageSemanticsBuffer, gl_SemanticsRelaxed);
    atomicAdd(count, 1u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquireRelease);
    barrier();
    uint n = atomicLoad(wg_count, gl_ScopeWorkgroup, gl_StorageSemanticsShared, gl_SemanticsAcquire);
    data[i] = n + atomicLoad(flag, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsAcquire);
    atomicStore(data[i + 128u], i * 3u, gl_ScopeDevice, gl_StorageSemanticsBuffer, gl_SemanticsRelease);
}
