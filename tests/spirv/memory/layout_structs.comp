// target-env: vulkan1.0
#version 450
// Explicit layouts: std140 scalar arrays (16-byte stride) and vec3 in a uniform block,
// arrays of nested structs, a runtime array of structs and its length.
layout(local_size_x = 32) in;
struct Inner { vec3 p; float w; ivec2 q; };
struct Outer { float s; Inner in2[2]; vec3 tail; };
layout(set = 0, binding = 0, std140) uniform U { float k[4]; vec3 v; int n; Inner one; } u;
layout(set = 0, binding = 1, std430) buffer S { Outer items[]; } s;
layout(set = 0, binding = 2, std430) buffer O { vec4 o[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    Outer it = s.items[i];
    float a = it.s * u.k[i % 4u] + dot(it.in2[1].p, u.v) + it.in2[0].w;
    vec3 t = it.tail + u.one.p * float(u.one.q.y);
    o[i] = vec4(a + float(it.in2[i % 2u].q.x + u.n), t.y, t.z, float(s.items.length()));
    s.items[i].in2[0].q = ivec2(int(i), u.n);
}
