// What the meta shaders (blit.comp, resolve.comp) share: how a destination texel is
// stored when image stores cannot convert to its format (icd/src/meta.rs, `Store`).

// sRGB destinations are stored through their UNORM view: the shader encodes.
vec3 srgb_oetf(vec3 l) {
    l = clamp(l, 0.0, 1.0);
    return mix(l * 12.92, 1.055 * pow(l, vec3(1.0 / 2.4)) - 0.055, greaterThan(l, vec3(0.0031308)));
}

// Packed 16-bit UNORM destinations are stored as R16_UINT: per component (R, G, B, A)
// `packing` holds shift | bits << 8 (bits 0: not stored).
uint pack16(vec4 v, uvec4 packing) {
    uint r = 0u;
    for (int c = 0; c < 4; c++) {
        uint bits = (packing[c] >> 8) & 0xffu;
        if (bits == 0u) {
            continue;
        }
        float m = float((1u << bits) - 1u);
        r |= uint(floor(clamp(v[c], 0.0, 1.0) * m + 0.5)) << (packing[c] & 0xffu);
    }
    return r;
}
