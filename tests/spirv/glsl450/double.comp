#version 450
// The GLSL.std.450 instructions that allow 64-bit floats.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) readonly buffer A { double a[]; };
layout(set = 0, binding = 1) readonly buffer B { double b[]; };
layout(set = 0, binding = 2) writeonly buffer O { double o[]; };
layout(set = 0, binding = 3) writeonly buffer X { int x[]; };
const uint N = 128;
void main() {
    uint i = gl_GlobalInvocationID.x;
    double v = a[i], w = b[i];
    double aw = abs(w) + 1.0;
    o[0 * N + i] = sqrt(aw);
    o[1 * N + i] = inversesqrt(aw);
    o[2 * N + i] = floor(v) + 1000.0 * fract(v);
    o[3 * N + i] = roundEven(v) + 1000.0 * trunc(w);
    o[4 * N + i] = ceil(v) - sign(w) + abs(v);
    o[5 * N + i] = min(v, w) + 3.0 * max(v, w);
    o[6 * N + i] = clamp(v, -abs(w), abs(w));
    o[7 * N + i] = mix(v, w, 0.25) + step(v, w);
    o[8 * N + i] = fma(v, w, 0.5);
    o[9 * N + i] = length(dvec2(v, w)) + distance(dvec2(v, w), dvec2(1.0, 2.0));
    o[10 * N + i] = normalize(dvec3(v, w, 1.0)).x;
    int e;
    o[11 * N + i] = frexp(v, e);
    x[i] = e;
    o[12 * N + i] = ldexp(v, int(i) - 64);
    double whole;
    o[13 * N + i] = modf(v, whole) + whole * 4.0;
    uvec2 u = unpackDouble2x32(v);
    o[14 * N + i] = packDouble2x32(uvec2(u.x, u.y ^ 0x80000000u)); // -v
    o[15 * N + i] = smoothstep(0.0, 8.0, v);
    o[16 * N + i] = cross(dvec3(v, w, 1.0), dvec3(w, 2.0, v)).y;
    o[17 * N + i] = reflect(dvec2(v, w), dvec2(0.6, 0.8)).x;
    o[18 * N + i] = faceforward(v, w, 1.0);
}
