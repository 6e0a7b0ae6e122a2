// target-env: vulkan1.2
#version 450
#extension GL_EXT_shader_explicit_arithmetic_types_float16 : require
// frexp of a 3-component half vector (LLVM 19 cannot widen a <3 x half> frexp: the
// lowering goes component by component), both GLSL forms.
layout(local_size_x = 64) in;
layout(set = 0, binding = 0) buffer A { float a[]; };
layout(set = 0, binding = 1) buffer M { float m[]; };
layout(set = 0, binding = 2) buffer E { int e[]; };
void main() {
    uint i = gl_GlobalInvocationID.x;
    f16vec3 v = f16vec3(a[3 * i], a[3 * i + 1], a[3 * i + 2]);
    ivec3 ex;
    f16vec3 mt = frexp(v, ex);
    for (int k = 0; k < 3; k++) {
        m[3 * i + k] = float(mt[k]);
        e[3 * i + k] = ex[k];
    }
}
