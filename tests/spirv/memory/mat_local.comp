// target-env: vulkan1.2
#version 450
// Matrices in Function, Private and Workgroup memory, with dynamic column and element indices.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { vec4 a[]; };
layout(set = 0, binding = 1) buffer O { vec4 o[]; };
shared mat4 sm[64];
mat3 pm;
void main() {
    uint i = gl_LocalInvocationID.x;
    mat4 f = mat4(a[i], a[(i + 1u) % 64u], a[(i + 2u) % 64u], a[(i + 3u) % 64u]);
    f[i % 4u][(i / 4u) % 4u] = float(i);
    sm[i] = f;
    pm = mat3(f);
    pm[i % 3u] *= 2.0;
    barrier();
    mat4 g = sm[63u - i];
    o[2u * i] = g[i % 4u] + vec4(pm[(i + 1u) % 3u], pm[2][i % 3u]);
    o[2u * i + 1u] = g * f[0];
}
