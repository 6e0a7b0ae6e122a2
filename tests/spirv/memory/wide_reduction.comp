// target-env: vulkan1.1
#version 450
// A reduction over compares of consecutive uvec2s in a storage buffer (the CTS's
// ssbo.layout.random.all_shared_buffer.29): LLVM 19's SLP vectoriser merges the four
// 64-bit loads into one <4 x i64> buffer load, which its AMDGPU instruction selection
// cannot select; the compiler must still produce the shader.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer A { uvec2 c[]; };
layout(set = 0, binding = 1, std430) buffer O { uint o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x, b = 4u * (i & 1u);
    bool ok = true;
    ok = c[b] == uvec2(0u, 3u) && ok;
    ok = c[b + 1u] == uvec2(8u, 3u) && ok;
    ok = c[b + 2u] == uvec2(7u, 5u) && ok;
    ok = c[b + 3u] == uvec2(4u, 2u) && ok;
    o[i] = ok ? i : ~i;
}
