// target-env: vulkan1.3
#version 460
#extension GL_EXT_null_initializer : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
// shaderZeroInitializeWorkgroupMemory: Workgroup variables with OpConstantNull initialisers
// (an array, a struct, an odd-sized 16-bit array and a 16 KiB array) read as zero at the
// start of every workgroup, even after earlier workgroups left garbage in the LDS. Each
// invocation writes the OR of what it reads (0 wanted), then scribbles over everything.
layout(local_size_x = 64) in;
struct S { uint a; float b[3]; uvec2 c; };
shared uint arr[64] = {};
shared S st = {};
shared uint16_t odd[7] = {};
shared uvec4 big[1024] = {};
shared uint plain[4];
layout(set = 0, binding = 0, std430) writeonly buffer Out { uint r[]; };
void main() {
    uint l = gl_LocalInvocationID.x;
    uint acc = arr[l] | st.a | floatBitsToUint(st.b[l % 3u]) | st.c.x | st.c.y | uint(odd[l % 7u]);
    for (uint k = l; k < 1024u; k += 64u) {
        uvec4 v = big[k];
        acc |= v.x | v.y | v.z | v.w;
    }
    barrier();
    arr[l] = 0xdead0000u + l;
    st.a = 7u;
    st.b[l % 3u] = 1.5;
    st.c = uvec2(l, 3u);
    odd[l % 7u] = uint16_t(0xbeef);
    for (uint k = l; k < 1024u; k += 64u) {
        big[k] = uvec4(k, ~k, 1u, 2u);
    }
    plain[l % 4u] = l;
    r[gl_GlobalInvocationID.x] = acc;
}
