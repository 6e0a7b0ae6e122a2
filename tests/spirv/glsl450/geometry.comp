// target-env: vulkan1.2
#version 450
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { float a[]; };
layout(set = 0, binding = 1) readonly buffer B { float b[]; };
layout(set = 0, binding = 2) writeonly buffer O { float o[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    vec3 x = vec3(a[i], a[(i + 1) % N], a[(i + 2) % N]);
    vec3 y = vec3(b[i], b[(i + 1) % N], b[(i + 2) % N]);
    uint k = i * 20;
    o[k + 0] = length(x);
    o[k + 1] = distance(x, y);
    o[k + 2] = length(x.x);
    vec3 n = normalize(x);
    o[k + 3] = n.x; o[k + 4] = n.y; o[k + 5] = n.z;
    vec3 c = cross(x, y);
    o[k + 6] = c.x; o[k + 7] = c.y; o[k + 8] = c.z;
    vec3 f = faceforward(x, y, vec3(1.0, -2.0, 0.5));
    o[k + 9] = f.x; o[k + 10] = f.y; o[k + 11] = f.z;
    vec3 m = normalize(y);
    vec3 r = reflect(x, m);
    o[k + 12] = r.x; o[k + 13] = r.y; o[k + 14] = r.z;
    vec3 t = refract(n, m, 0.75);
    o[k + 15] = t.x; o[k + 16] = t.y; o[k + 17] = t.z;
    o[k + 18] = distance(a[i], b[i]);
    o[k + 19] = dot(x, y);
}
