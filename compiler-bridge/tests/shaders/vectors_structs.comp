#version 450
// Vectors (swizzles, construct/extract/insert, dynamic component access, bool vectors),
// structs and arrays in std430 storage and std140 uniform buffers, GLSL.std.450 basics.
layout(local_size_x = 16, local_size_y = 4) in;

struct Inner { vec2 uv; int flags[3]; };
struct Particle {
    vec4 position;
    vec3 velocity;
    float mass;
    ivec2 cell;
    Inner inner;
    uvec4 ids;
};

layout(set = 0, binding = 0, std430) buffer Particles { uint count; Particle particles[]; };
layout(set = 0, binding = 1, std140) uniform Params {
    vec4 gravity;
    float dt;
    vec3 bounds_min;
    vec3 bounds_max;
    float weights[4];
} params;

void main() {
    uint i = gl_LocalInvocationIndex + gl_WorkGroupID.x * gl_WorkGroupSize.x * gl_WorkGroupSize.y;
    if (i >= count) return;
    Particle p = particles[i];                       // whole-struct load
    vec3 a = params.gravity.xyz / max(p.mass, 1e-3);
    p.velocity = fma(a, vec3(params.dt), p.velocity);
    p.position.xyz += p.velocity * params.dt;
    p.position.xyz = clamp(p.position.xyz, params.bounds_min, params.bounds_max);
    bvec3 hit = lessThanEqual(p.position.xyz, params.bounds_min);
    if (any(hit)) p.velocity = mix(-p.velocity, p.velocity, vec3(hit));
    if (all(greaterThan(p.velocity, vec3(0.0)))) p.velocity.zyx = p.velocity.xxy;
    float speed = length(p.velocity);
    vec3 dir = speed > 0.0 ? normalize(p.velocity) : vec3(0.0);
    p.position.w = dot(dir, vec3(1.0, 2.0, 3.0)) + sqrt(abs(speed)) + floor(speed) + fract(speed);
    p.cell = ivec2(floor(p.position.xy));
    p.cell = min(max(p.cell, ivec2(-8)), ivec2(8)) + abs(p.cell) / 2;
    int k = int(i & 3u);
    p.inner.uv[k & 1] = params.weights[k] * p.inner.uv.y;  // dynamic vector and array indices
    p.inner.flags[k % 3] = p.cell[k & 1];
    p.ids = uvec4(p.ids.wzyx) + uvec4(max(p.ids.x, 3u), min(p.ids.y, 9u), p.ids.zw);
    p.mass = step(1.0, p.mass) * p.mass + exp2(log2(max(p.mass, 1.0)));
    particles[i] = p;                                // whole-struct store
}
