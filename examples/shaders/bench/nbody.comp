#version 450
// The acceleration of every body from all n bodies (xyz position, w mass): ALU-bound,
// every lane loads the same vec4 in each step of the loop.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) readonly buffer Pos { vec4 pos[]; };
layout(set = 0, binding = 1, std430) writeonly buffer Acc { vec4 acc[]; };
layout(push_constant) uniform Params { uint n; float eps2; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    if (i >= pc.n) {
        return;
    }
    vec3 p = pos[i].xyz;
    vec3 a = vec3(0.0);
    for (uint j = 0; j < pc.n; j++) {
        vec4 q = pos[j];
        vec3 d = q.xyz - p;
        float r2 = dot(d, d) + pc.eps2;
        float inv = inversesqrt(r2);
        a += d * (q.w * inv * inv * inv);
    }
    acc[i] = vec4(a, 0.0);
}
