// target-env: vulkan1.0
#version 450
// Integer and float min/max/clamp, abs and sign of integers; ivec4 forms.
layout(local_size_x = 32) in;
layout(set = 0, binding = 0) readonly buffer A { ivec4 a[]; };
layout(set = 0, binding = 1) readonly buffer B { ivec4 b[]; };
layout(set = 0, binding = 2) readonly buffer F { vec4 f[]; };
layout(set = 0, binding = 3) writeonly buffer O { ivec4 o[]; };
layout(set = 0, binding = 4) writeonly buffer P { vec4 p[]; };
const uint M = 32;
void main() {
    uint i = gl_GlobalInvocationID.x;
    ivec4 x = a[i], y = b[i];
    uvec4 ux = uvec4(x), uy = uvec4(y);
    o[0 * M + i] = min(x, y);
    o[1 * M + i] = max(x, y);
    o[2 * M + i] = clamp(x, min(y, -y), max(y, -y));
    o[3 * M + i] = ivec4(min(ux, uy));
    o[4 * M + i] = ivec4(max(ux, uy));
    o[5 * M + i] = ivec4(clamp(ux, min(uy, uy >> 1), max(uy, uy >> 1)));
    o[6 * M + i] = abs(x);
    o[7 * M + i] = sign(x);
    vec4 v = f[i], w = f[(i + 7) % M];
    p[0 * M + i] = min(v, w);
    p[1 * M + i] = max(v, w);
    p[2 * M + i] = clamp(v, -abs(w), abs(w));
}
