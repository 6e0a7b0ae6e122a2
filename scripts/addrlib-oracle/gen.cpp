// softnavi's gfx11 swizzle oracle: a small program against AMD's addrlib (as Mesa ships it,
// src/amd/addrlib), built by build.sh next to this file. It writes
//   gpu/src/addr/patterns.rs   the per-address-bit x/y/z masks of every gfx11 swizzle mode
//                              softnavi executes, read back from addrlib by probing
//   gpu/tests/data/swizzle_vectors.txt   byte offsets addrlib computes for random surfaces
//                              and coordinates, which gpu/tests/swizzle.rs checks.
// Multisampled colour surfaces (2, 4 and 8 samples, 2D and 2D arrays) are probed too: their
// patterns take the sample index as a fourth coordinate. A third file,
//   gpu/tests/data/msaa_preferred.txt   the swizzle mode Addr2GetPreferredSurfaceSetting
//                              picks for random MSAA colour images with RADV's flags, and
//                              their size, which gpu/tests/swizzle.rs checks gpu::addr against.
// Only addrlib's public interface (addrinterface.h) is used; no addrlib code is copied.
//
// The chip: gfx1100 (family FAMILY_NV3 = 0x91, revision 0x01, Navi31) with GB_ADDR_CONFIG
// NUM_PIPES = 5 (32 pipes), PIPE_INTERLEAVE_SIZE = 0 (256 bytes), NUM_PKRS = 5: Mesa's
// "gfx11_32pipe" case of src/amd/common/ac_surface_test_common.h.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <vector>
#include "addrinterface.h"

static const unsigned GB_ADDR_CONFIG = 5 | 0 << 3 | 5 << 8;
static ADDR_HANDLE lib;

static void* ADDR_API alloc_mem(const ADDR_ALLOCSYSMEM_INPUT* in) { return malloc(in->sizeInBytes); }
static ADDR_E_RETURNCODE ADDR_API free_mem(const ADDR_FREESYSMEM_INPUT* in) {
    free(in->pVirtAddr);
    return ADDR_OK;
}

struct Surf {
    int rtype;  // ADDR_RSRC_TEX_1D/2D/3D
    int mode, elog2;
    unsigned w, h, d, mips;  // d: depth (3D) or array layers
    unsigned samples;
    int depth = 0;  // a depth surface (flags.depth) rather than colour
};

static bool info(const Surf& s, ADDR2_COMPUTE_SURFACE_INFO_OUTPUT* out) {
    ADDR2_COMPUTE_SURFACE_INFO_INPUT in = {};
    in.size = sizeof(in);
    in.flags.texture = 1;
    in.flags.color = !s.depth;
    in.flags.depth = s.depth;
    in.swizzleMode = (AddrSwizzleMode)s.mode;
    in.resourceType = (AddrResourceType)s.rtype;
    in.bpp = 8u << s.elog2;
    in.width = s.w;
    in.height = s.h;
    in.numSlices = s.d;
    in.numMipLevels = s.mips;
    in.numSamples = s.samples;
    in.numFrags = s.samples;
    memset(out, 0, sizeof(*out));
    out->size = sizeof(*out);
    return Addr2ComputeSurfaceInfo(lib, &in, out) == ADDR_OK;
}

static bool addr(const Surf& s, unsigned mip, unsigned x, unsigned y, unsigned z, unsigned long long* a,
                 unsigned sample = 0) {
    ADDR2_COMPUTE_SURFACE_ADDRFROMCOORD_INPUT in = {};
    in.size = sizeof(in);
    in.sample = sample;
    in.x = x;
    in.y = y;
    in.slice = z;
    in.mipId = mip;
    in.flags.texture = 1;
    in.flags.color = !s.depth;
    in.flags.depth = s.depth;
    in.swizzleMode = (AddrSwizzleMode)s.mode;
    in.resourceType = (AddrResourceType)s.rtype;
    in.bpp = 8u << s.elog2;
    in.unalignedWidth = s.w;
    in.unalignedHeight = s.h;
    in.numSlices = s.d;
    in.numMipLevels = s.mips;
    in.numSamples = s.samples;
    in.numFrags = s.samples;
    ADDR2_COMPUTE_SURFACE_ADDRFROMCOORD_OUTPUT out = {};
    out.size = sizeof(out);
    if (Addr2ComputeSurfaceAddrFromCoord(lib, &in, &out) != ADDR_OK) {
        fprintf(stderr, "Addr2ComputeSurfaceAddrFromCoord failed: rtype %d mode %d elog2 %d %ux%ux%u levels %u at mip %u (%u, %u, %u)\n",
                s.rtype, s.mode, s.elog2, s.w, s.h, s.d, s.mips, mip, x, y, z);
        return false;
    }
    *a = out.addr;
    return true;
}

static unsigned log2u(unsigned v) { return 31 - __builtin_clz(v); }

// Modes per resource class: 1D, 2D (thin) and 3D, those addrlib accepts for colour textures
// (Gfx11Rsrc1d/2d/3dSwModeMask) and has a 1xAA pattern for.
static const int MODES_1D[] = {24, 27};
static const int MODES_2D[] = {2, 6, 10, 18, 22, 24, 26, 27, 28, 30, 31};
static const int MODES_3D[] = {5, 9, 17, 21, 24, 25, 26, 27, 28, 29, 31};
// Multisampled colour surfaces: Gfx11MsaaSwModeMask (the Z_X and R_X modes) less the Z
// order, which addrlib refuses for MSAA colour (ValidateSwModeParams). 2D only; no mips.
static const int MODES_MSAA[] = {27, 31};

// A second generator for the multisampled cases, so that the single-sample vectors stay as
// they were, and a third for the multisampled depth surfaces (added later).
static std::mt19937 msaa_rng(1102);
static std::mt19937 depth_rng(1103);
// Multisampled depth surfaces: the Z_X modes (addrlib's depth MSAA patterns, keyed by mode,
// element size and samples like the others, so no colour pattern is shadowed).
static const int MODES_MSAA_DEPTH[] = {24, 28};

// Probes the multisampled patterns (x, y, slice and sample bits) and adds random
// multisampled surfaces to `cases`.
static bool msaa_patterns(FILE* pf, std::vector<Surf>& cases, const int* modes, int nmodes, int depth,
                          std::mt19937& msaa_rng) {
    for (int k = 0; k < nmodes; k++) {
        int mode = modes[k];
        for (unsigned slog2 = 1; slog2 <= 3; slog2++) {
            for (int e = 0; e < 5; e++) {
                // Depth surfaces: 16- and 32-bit depth (D16_UNORM, D32_SFLOAT).
                if (depth && e != 1 && e != 2) continue;
                unsigned n = 1u << slog2;
                Surf one = {1, mode, e, 1, 1, 1, 1, n, depth};
                ADDR2_COMPUTE_SURFACE_INFO_OUTPUT o;
                if (!info(one, &o)) {
                    fprintf(stderr, "no MSAA surface: mode %d elog2 %d samples %u\n", mode, e, n);
                    return false;
                }
                unsigned blog2 = log2u(o.baseAlign);
                Surf big = {1, mode, e, 16384, 16384, 2048, 1, n, depth};
                unsigned long long mask = (1ull << blog2) - 1, a;
                unsigned xm[14], ym[14], zm[11], sm[3] = {0, 0, 0};
                for (int i = 0; i < 14; i++) {
                    if (!addr(big, 0, 1u << i, 0, 0, &a)) return false;
                    xm[i] = a & mask;
                    if (!addr(big, 0, 0, 1u << i, 0, &a)) return false;
                    ym[i] = a & mask;
                }
                for (int i = 0; i < 11; i++) {
                    if (!addr(big, 0, 0, 0, 1u << i, &a)) return false;
                    zm[i] = a & mask;
                }
                for (unsigned i = 0; i < slog2; i++) {
                    if (!addr(big, 0, 0, 0, 0, &a, 1u << i)) return false;
                    sm[i] = a & mask;
                }
                for (int t = 0; t < 200; t++) {
                    unsigned x = msaa_rng() % 16384, y = msaa_rng() % 16384, z = msaa_rng() % 2048, smp = msaa_rng() % n;
                    if (!addr(big, 0, x, y, z, &a, smp)) return false;
                    unsigned v = 0;
                    for (int i = 0; i < 14; i++) v ^= ((x >> i & 1) ? xm[i] : 0) ^ ((y >> i & 1) ? ym[i] : 0);
                    for (int i = 0; i < 11; i++) v ^= (z >> i & 1) ? zm[i] : 0;
                    for (unsigned i = 0; i < slog2; i++) v ^= (smp >> i & 1) ? sm[i] : 0;
                    if (v != (a & mask)) {
                        fprintf(stderr, "not linear: MSAA mode %d elog2 %d samples %u\n", mode, e, n);
                        return false;
                    }
                }
                fprintf(pf, "    Pattern { mode: %d, dim3: false, elem_log2: %d, samples_log2: %u, block_log2: [%u, %u, %u], bits: &[",
                        mode, e, slog2, log2u(o.blockWidth), log2u(o.blockHeight), log2u(o.blockSlices));
                for (unsigned b = 0; b < blog2; b++) {
                    unsigned m[4] = {0, 0, 0, 0};
                    for (int i = 0; i < 14; i++) m[0] |= (xm[i] >> b & 1) << i;
                    for (int i = 0; i < 14; i++) m[1] |= (ym[i] >> b & 1) << i;
                    for (int i = 0; i < 11; i++) m[2] |= (zm[i] >> b & 1) << i;
                    for (unsigned i = 0; i < slog2; i++) m[3] |= (sm[i] >> b & 1) << i;
                    fprintf(pf, "%s[%#x, %#x, %#x, %#x]", b ? ", " : "", m[0], m[1], m[2], m[3]);
                }
                fprintf(pf, "] },\n");
                for (int t = 0; t < 8; t++) {
                    Surf s = {1, mode, e, 1, 1, 1, 1, n, depth};
                    s.w = 1 + msaa_rng() % (1u << (msaa_rng() % 12));
                    s.h = 1 + msaa_rng() % (1u << (msaa_rng() % 12));
                    s.d = t % 2 ? 1 : 1 + msaa_rng() % 6;
                    cases.push_back(s);
                }
            }
        }
    }
    return true;
}

// The mode addrlib prefers for an MSAA colour image, with the flags and forbidden blocks
// RADV gives it (ac_surface.c: gfx9_compute_surface, gfx9_get_preferred_swizzle_mode on a
// dGPU: color, texture, opt4space; no 256-byte blocks), and that surface's size.
static bool preferred(const Surf& s, int* mode, unsigned long long* size) {
    ADDR2_GET_PREFERRED_SURF_SETTING_INPUT sin = {};
    ADDR2_GET_PREFERRED_SURF_SETTING_OUTPUT sout = {};
    sin.size = sizeof(sin);
    sout.size = sizeof(sout);
    sin.flags.color = !s.depth;
    sin.flags.depth = s.depth;
    sin.flags.texture = 1;
    sin.flags.opt4space = 1;
    sin.resourceType = ADDR_RSRC_TEX_2D;
    sin.resourceLoction = ADDR_RSRC_LOC_INVIS;
    sin.forbiddenBlock.micro = 1;
    sin.bpp = 8u << s.elog2;
    sin.width = s.w;
    sin.height = s.h;
    sin.numSlices = s.d;
    sin.numMipLevels = 1;
    sin.numSamples = s.samples;
    sin.numFrags = s.samples;
    if (Addr2GetPreferredSurfaceSetting(lib, &sin, &sout) != ADDR_OK) return false;
    *mode = sout.swizzleMode;
    Surf t = s;
    t.mode = sout.swizzleMode;
    ADDR2_COMPUTE_SURFACE_INFO_OUTPUT o;
    if (!info(t, &o)) return false;
    *size = o.surfSize;
    return true;
}

static bool write_preferred(const char* path, int depth, std::mt19937& msaa_rng) {
    FILE* f = fopen(path, "w");
    fprintf(f,
            "# Generated by scripts/addrlib-oracle (gen.cpp against AMD's addrlib as Mesa ships it); do not edit.\n"
            "# MSAA %s images as RADV asks addrlib for them (Addr2GetPreferredSurfaceSetting, flags %s,\n"
            "# texture, opt4space; no 256-byte blocks): the preferred swizzle mode and the surface's bytes.\n"
            "# Columns: elem_log2 width height layers samples sw_mode surf_size\n",
            depth ? "depth" : "colour", depth ? "depth" : "color");
    for (int t = 0; t < 400; t++) {
        int e = depth ? 1 + (int)(msaa_rng() % 2) : (int)(msaa_rng() % 5);
        Surf s = {1, 0, e, 1, 1, 1, 1, 2u << (msaa_rng() % 3), depth};
        s.w = 1 + msaa_rng() % (1u << (msaa_rng() % 13));
        s.h = 1 + msaa_rng() % (1u << (msaa_rng() % 13));
        s.d = t % 3 ? 1 : 1 + msaa_rng() % 8;
        int mode;
        unsigned long long size;
        if (!preferred(s, &mode, &size)) {
            fprintf(stderr, "no preferred MSAA mode: %ux%ux%u elog2 %d samples %u\n", s.w, s.h, s.d, s.elog2, s.samples);
            return false;
        }
        fprintf(f, "%d %u %u %u %u %d %llu\n", s.elog2, s.w, s.h, s.d, s.samples, mode, size);
    }
    fclose(f);
    return true;
}

int main(int argc, char** argv) {
    if (argc != 5) {
        fprintf(stderr, "usage: gen PATTERNS.rs VECTORS.txt PREFERRED.txt DEPTH_PREFERRED.txt\n");
        return 2;
    }
    ADDR_CREATE_INPUT ci = {};
    ci.size = sizeof(ci);
    ci.chipEngine = 0xD;  // CIASICIDGFXENGINE_ARCTICISLAND, as Mesa's ac_addrlib_create for gfx9+
    ci.chipFamily = 0x91;
    ci.chipRevision = 0x01;
    ci.callbacks.allocSysMem = alloc_mem;
    ci.callbacks.freeSysMem = free_mem;
    ci.regValue.gbAddrConfig = GB_ADDR_CONFIG;
    ADDR_CREATE_OUTPUT co = {};
    co.size = sizeof(co);
    if (AddrCreate(&ci, &co) != ADDR_OK) {
        fprintf(stderr, "AddrCreate failed\n");
        return 1;
    }
    lib = co.hLib;

    FILE* pf = fopen(argv[1], "w");
    fprintf(pf,
            "//! Generated by scripts/addrlib-oracle (gen.cpp, from AMD's addrlib as Mesa ships it); do not edit.\n"
            "//! For gfx1100 with GB_ADDR_CONFIG 0x%x (32 pipes, 256-byte pipe interleave, 32 packers): per\n"
            "//! swizzle mode, resource class and element size, the block's log2 dimensions and, for each\n"
            "//! address bit inside the block, the x, y and z bits (element coordinates, z the slice) whose\n"
            "//! XOR it is: addrlib's `GFX11_SW_*_PATINFO` patterns (`gfx11SwizzlePattern.h`) for this\n"
            "//! configuration, read back through `Addr2ComputeSurfaceAddrFromCoord` one coordinate bit at a time.\n\n"
            "use super::Pattern;\n\npub(super) static PATTERNS: &[Pattern] = &[\n",
            GB_ADDR_CONFIG);
    std::mt19937 rng(1100);
    std::vector<Surf> cases;
    // 1D surfaces share the 2D equations (addrlib's m_equationLookupTable has 2D and 3D only):
    // no 1D patterns, but 1D vectors.
    for (int rtype = 0; rtype < 3; rtype++) {
        const int* modes = rtype == 0 ? MODES_1D : rtype == 1 ? MODES_2D : MODES_3D;
        int n = rtype == 0 ? 2 : 11;
        for (int k = 0; k < n; k++) {
            for (int e = 0; e < 5; e++) {
                int mode = modes[k];
                // Z order (64KB_Z_X, 256KB_Z_X) takes elements of at most 8 bytes.
                if ((mode == 24 || mode == 28) && e == 4) continue;
                Surf one = {rtype, mode, e, 1, 1, 1, 1, 1};
                ADDR2_COMPUTE_SURFACE_INFO_OUTPUT o;
                if (!info(one, &o)) {
                    fprintf(stderr, "no surface: rtype %d mode %d elog2 %d\n", rtype, mode, e);
                    return 1;
                }
                unsigned blog2 = log2u(o.baseAlign);
                // Probe: a surface of the largest T# extents, one level.
                Surf big = {rtype, mode, e, 16384, rtype == 0 ? 1u : 16384u, 8192u, 1, 1};
                unsigned long long mask = (1ull << blog2) - 1;
                {
                    unsigned long long a;
                    if (!addr(big, 0, 1, 0, 0, &a)) {
                        fprintf(stderr, "  (skipped: addrlib has no equation for it)\n");
                        continue;
                    }
                }
                unsigned xm[14], ym[14], zm[13];
                for (int i = 0; i < 14; i++) {
                    unsigned long long a;
                    if (!addr(big, 0, 1u << i, 0, 0, &a)) return 1;
                    xm[i] = a & mask;
                    ym[i] = 0;
                    if (rtype != 0) {
                        if (!addr(big, 0, 0, 1u << i, 0, &a)) return 1;
                        ym[i] = a & mask;
                    }
                }
                for (int i = 0; i < 13; i++) {
                    unsigned long long a;
                    if (!addr(big, 0, 0, 0, 1u << i, &a)) return 1;
                    zm[i] = a & mask;
                }
                // Linearity over GF(2): check random points.
                for (int t = 0; t < 200; t++) {
                    unsigned x = rng() % 16384, y = rtype == 0 ? 0 : rng() % 16384, z = rng() % 8192;
                    unsigned long long a;
                    if (!addr(big, 0, x, y, z, &a)) return 1;
                    unsigned v = 0;
                    for (int i = 0; i < 14; i++) v ^= (x >> i & 1) ? xm[i] : 0;
                    for (int i = 0; i < 14; i++) v ^= (y >> i & 1) ? ym[i] : 0;
                    for (int i = 0; i < 13; i++) v ^= (z >> i & 1) ? zm[i] : 0;
                    if (v != (a & mask)) {
                        fprintf(stderr, "not linear: rtype %d mode %d elog2 %d\n", rtype, mode, e);
                        return 1;
                    }
                }
                if (rtype != 0) fprintf(pf, "    Pattern { mode: %d, dim3: %s, elem_log2: %d, samples_log2: 0, block_log2: [%u, %u, %u], bits: &[", mode,
                        rtype == 2 ? "true" : "false", e, log2u(o.blockWidth), log2u(o.blockHeight), log2u(o.blockSlices));
                for (unsigned b = 0; rtype != 0 && b < blog2; b++) {
                    unsigned m[3] = {0, 0, 0};
                    for (int i = 0; i < 14; i++) m[0] |= (xm[i] >> b & 1) << i;
                    for (int i = 0; i < 14; i++) m[1] |= (ym[i] >> b & 1) << i;
                    for (int i = 0; i < 13; i++) m[2] |= (zm[i] >> b & 1) << i;
                    fprintf(pf, "%s[%#x, %#x, %#x, 0]", b ? ", " : "", m[0], m[1], m[2]);
                }
                if (rtype != 0) fprintf(pf, "] },\n");
                // Random surfaces for the vectors.
                for (int t = 0; t < 6; t++) {
                    Surf s = {rtype, mode, e, 1, 1, 1, 1, 1};
                    s.w = 1 + rng() % (1u << (rng() % 12));
                    if (rtype != 0) s.h = 1 + rng() % (1u << (rng() % 12));
                    s.d = rtype == 2 ? 1 + rng() % (1u << (rng() % 8)) : 1 + rng() % 6;
                    unsigned mx = s.w > s.h ? s.w : s.h;
                    if (rtype == 2 && s.d > mx) mx = s.d;
                    unsigned levels = log2u(mx) + 1;
                    s.mips = (t % 3 == 0) ? 1 : 1 + rng() % levels;
                    cases.push_back(s);
                }
            }
        }
    }
    if (!msaa_patterns(pf, cases, MODES_MSAA, 2, 0, msaa_rng)) return 1;
    if (!msaa_patterns(pf, cases, MODES_MSAA_DEPTH, 2, 1, depth_rng)) return 1;
    fprintf(pf, "];\n");
    fclose(pf);

    FILE* vf = fopen(argv[2], "w");
    fprintf(vf,
            "# Generated by scripts/addrlib-oracle (gen.cpp against AMD's addrlib as Mesa ships it); do not edit.\n"
            "# Chip: gfx1100 (FAMILY_NV3, revision 1), GB_ADDR_CONFIG 0x%x (32 pipes, 256 B interleave, 32 packers).\n"
            "# Colour texture surfaces, one sample, pipeBankXor 0; Addr2ComputeSurfaceAddrFromCoord's byte offset.\n"
            "# Columns: rtype (1 1D, 2 2D, 3 3D) sw_mode elem_log2 width height depth_or_layers levels mip x y z_or_slice offset\n"
            "#   then, for multisampled surfaces only: samples sample\n",
            GB_ADDR_CONFIG);
    for (const Surf& s : cases) {
        for (int p = 0; p < 4; p++) {
            unsigned mip = rng() % s.mips;
            unsigned mw = s.w >> mip ? s.w >> mip : 1, mh = s.h >> mip ? s.h >> mip : 1;
            unsigned md = s.rtype == 2 ? (s.d >> mip ? s.d >> mip : 1) : s.d;
            unsigned x = rng() % mw, y = rng() % mh, z = rng() % md;
            if (p == 0) x = mw - 1, y = mh - 1, z = md - 1;
            unsigned long long a;
            std::mt19937& srng = s.depth ? depth_rng : msaa_rng;
            unsigned sample = s.samples > 1 ? (p == 0 ? s.samples - 1 : srng() % s.samples) : 0;
            if (!addr(s, mip, x, y, z, &a, sample)) {
                fprintf(stderr, "addr failed\n");
                return 1;
            }
            fprintf(vf, "%d %d %d %u %u %u %u %u %u %u %u %llu", s.rtype + 1, s.mode, s.elog2, s.w, s.h, s.d, s.mips, mip, x,
                    y, z, a);
            if (s.samples > 1) fprintf(vf, " %u %u", s.samples, sample);
            fprintf(vf, "\n");
        }
    }
    fclose(vf);
    if (!write_preferred(argv[3], 0, msaa_rng)) return 1;
    if (!write_preferred(argv[4], 1, depth_rng)) return 1;
    AddrDestroy(lib);
    return 0;
}
