#version 450
// data[i] += 1: each run of a dispatch shows up in the result (re-submissions, twice
// executed secondaries).
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) buffer Data { uint data[]; };
void main() {
    data[gl_GlobalInvocationID.x] += 1u;
}
