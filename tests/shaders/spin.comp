#version 450
// Never terminates: spins until data[0] becomes a value nobody writes.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0, std430) coherent buffer Data { uint data[]; };
void main() {
    uint i = 0;
    while (data[0] != 0xdeadbeefu) {
        i++;
    }
    data[gl_GlobalInvocationID.x + 1] = i;
}
