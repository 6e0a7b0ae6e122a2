#version 450
// Several sets, an array of storage buffers indexed dynamically, a dynamic uniform buffer
// (set 1 binding 0 in the test's layout), a runtime-sized array's length() and push
// constants with a struct.
layout(local_size_x = 64) in;

layout(set = 0, binding = 0, std430) buffer Out { uint total; uint data[]; } outbuf;
layout(set = 0, binding = 2, std430) readonly buffer Inputs { uint values[]; } inputs[4];
layout(set = 1, binding = 0, std140) uniform Scale { uvec4 factor; } scale;
layout(set = 2, binding = 3, std430) buffer Log { uint entries[]; } log_buf;

struct Window { uint first; uint count; };
layout(push_constant) uniform Params { Window window; uint which; } pc;

void main() {
    uint i = gl_GlobalInvocationID.x;
    uint n = uint(outbuf.data.length());
    if (i >= n || i < pc.window.first || i >= pc.window.first + pc.window.count) return;
    uint which = pc.which & 3u;
    uint v = inputs[which].values[i] + inputs[2].values.length();
    outbuf.data[i] = v * scale.factor[i & 3u];
    log_buf.entries[i % uint(log_buf.entries.length())] = which;
}
