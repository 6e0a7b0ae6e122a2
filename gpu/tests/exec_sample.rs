//! Sampling (`exec/sample.rs`) against CPU references written here from the Vulkan spec's
//! "Texel Filtering" chapter: texel coordinates `u = s * width + offset`, NEAREST
//! `i = floor(u)`, LINEAR `i0 = floor(u - 0.5)` with weight `frac(u - 0.5)`, the wrap
//! table ("Wrapping Operation"), LOD `λ = log2(ρmax) + bias` clamped to [minLod, maxLod]
//! and level selection (`ceil(d' + 0.5) - 1` for NEAREST, blending for LINEAR), depth
//! compare before filtering, gather's i0j1, i1j1, i1j0, i0j0 order and the sRGB EOTF.
//!
//! The image (R32_FLOAT texels, unless a test says otherwise) lies in the data buffer as
//! `exec_image.rs` places it; the T# is in s[12:19], the S# in s[20:23]; the address
//! VGPRs are v0..v3, the result v4..v7.

#![allow(clippy::needless_range_loop)]

mod common;

use common::{model_offset, tsharp, WaveEnv, WaveOut, IMG_OFF};
use gpu::rsrc::{
    border_color, depth_compare, img_type, lod_to_u4_8, mip_filter, sel, tex_clamp, tex_filter, ImageResource,
    SamplerResource,
};

const R32F: u32 = 22;

fn t_of(kind: u32, w: u32, h: u32, levels: u32, depth: u32) -> ImageResource {
    ImageResource {
        base: IMG_OFF as u64,
        format: R32F,
        width: w - 1,
        height: h - 1,
        depth,
        max_mip: levels - 1,
        last_level: levels - 1,
        kind,
        dst_sel: [sel::X, sel::ZERO, sel::ZERO, sel::ONE],
        ..Default::default()
    }
}

/// A sampler with one filter for mag and min, one wrap mode on every axis.
fn samp(filter: u32, mip: u32, clamp: u32) -> SamplerResource {
    SamplerResource {
        clamp: [clamp; 3],
        xy_mag_filter: filter,
        xy_min_filter: filter,
        mip_filter: mip,
        max_lod: lod_to_u4_8(15.0),
        ..Default::default()
    }
}

/// A texel's value: distinct per position, layer and level.
fn val(x: u32, y: u32, layer: u32, level: u32) -> f32 {
    x as f32 + 16.0 * y as f32 + 0.25 * layer as f32 + 100.0 * level as f32
}

/// The data buffer holding an R32F image of `levels` levels and `slices` slices.
fn image_mem(w: u32, h: u32, levels: u32, slices: u32) -> Vec<u32> {
    let mut mem = vec![0u32; (IMG_OFF as usize + model_offset(w, h, levels, 4, 0, 0, slices, 0)) / 4];
    for s in 0..slices {
        for m in 0..levels {
            for y in 0..(h >> m).max(1) {
                for x in 0..(w >> m).max(1) {
                    mem[(IMG_OFF as usize + model_offset(w, h, levels, 4, x, y, s, m)) / 4] = val(x, y, s, m).to_bits();
                }
            }
        }
    }
    mem
}

fn ssharp(s: &SamplerResource) -> String {
    s.encode().iter().enumerate().map(|(k, w)| format!("s_mov_b32 s{}, {w:#x}\n", 20 + k)).collect()
}

fn try_sample(
    inst: &str,
    t: &ImageResource,
    s: &SamplerResource,
    inputs: &[[u32; 4]],
    mem: Vec<u32>,
) -> Result<WaveOut, std::sync::Arc<gpu::Report>> {
    let body = format!("{}{}{inst}\ns_waitcnt vmcnt(0)", tsharp(t), ssharp(s));
    common::try_run_wave_env(&body, inputs, false, &WaveEnv { mem, ..WaveEnv::default() }).map(|r| r.0)
}

fn sample(inst: &str, t: &ImageResource, s: &SamplerResource, inputs: &[[u32; 4]], mem: Vec<u32>) -> WaveOut {
    try_sample(inst, t, s, inputs, mem).unwrap_or_else(|r| panic!("{inst}: {r}"))
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn close(got: u32, want: f32, what: &str) {
    let g = f32::from_bits(got);
    assert!((g - want).abs() <= 1e-4 * want.abs().max(1.0), "{what}: got {g}, want {want}");
}

/// Vulkan spec, "Wrapping Operation": the texel an integer coordinate names, `None` for
/// a border texel.
fn wrap_ref(mode: u32, i: i64, size: i64) -> Option<i64> {
    let mirror = |a: i64| if a >= 0 { a } else { -(1 + a) };
    let clamped = match mode {
        tex_clamp::WRAP => i.rem_euclid(size),
        tex_clamp::MIRROR => (size - 1) - mirror(i.rem_euclid(2 * size) - size),
        tex_clamp::CLAMP_LAST_TEXEL => i.clamp(0, size - 1),
        tex_clamp::MIRROR_ONCE_LAST_TEXEL => mirror(i).clamp(0, size - 1),
        tex_clamp::CLAMP_BORDER => i.clamp(-1, size),
        _ => mirror(i).min(size),
    };
    (0..size).contains(&clamped).then_some(clamped)
}

/// The spec's 2D filtering of level `m` at texel-space (u, v): (X, 0, 0, 1) texels, the
/// border colour `border` in all four components.
#[allow(clippy::too_many_arguments)]
fn ref2d(w: u32, h: u32, m: u32, layer: u32, u: f32, v: f32, linear: bool, mode: u32, border: [f32; 4]) -> [f32; 4] {
    let (lw, lh) = ((w >> m).max(1) as i64, (h >> m).max(1) as i64);
    let texel = |i: i64, j: i64| match (wrap_ref(mode, i, lw), wrap_ref(mode, j, lh)) {
        (Some(x), Some(y)) => [val(x as u32, y as u32, layer, m), 0.0, 0.0, 1.0],
        _ => border,
    };
    if !linear {
        return texel(u.floor() as i64, v.floor() as i64);
    }
    let (u, v) = (u - 0.5, v - 0.5);
    let (i0, j0) = (u.floor() as i64, v.floor() as i64);
    let (a, b) = (u - u.floor(), v - v.floor());
    let t = [texel(i0, j0), texel(i0 + 1, j0), texel(i0, j0 + 1), texel(i0 + 1, j0 + 1)];
    std::array::from_fn(|k| {
        (1.0 - a) * (1.0 - b) * t[0][k] + a * (1.0 - b) * t[1][k] + (1.0 - a) * b * t[2][k] + a * b * t[3][k]
    })
}

fn check4(out: &WaveOut, l: usize, want: [f32; 4], what: &str) {
    for k in 0..4 {
        close(out.v[l][k], want[k], &format!("{what} lane {l} component {k}"));
    }
}

/// Vulkan "Texel Filtering": NEAREST and LINEAR at texel centres (both give the texel) and
/// between them, with normalized coordinates (image_sample_lz, CLAMP_LAST_TEXEL).
#[test]
fn nearest_and_linear_at_centres_and_between() {
    let (w, h) = (8, 4);
    let t = t_of(img_type::IMG_2D, w, h, 1, 0);
    let coords: Vec<(f32, f32)> = (0..32).map(|l| ((l % 8) as f32 * 0.6 + 0.5, (l / 8) as f32 * 0.7 + 0.3)).collect();
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(u, v)| [f(u / w as f32), f(v / h as f32), 0, 0]).collect();
    for filter in [tex_filter::POINT, tex_filter::BILINEAR] {
        let s = samp(filter, mip_filter::NONE, tex_clamp::CLAMP_LAST_TEXEL);
        let out = sample(
            "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
            &t,
            &s,
            &inputs,
            image_mem(w, h, 1, 1),
        );
        for (l, &(u, v)) in coords.iter().enumerate() {
            let want = ref2d(w, h, 0, 0, u, v, filter == tex_filter::BILINEAR, tex_clamp::CLAMP_LAST_TEXEL, [0.0; 4]);
            check4(&out, l, want, &format!("filter {filter} at ({u}, {v})"));
        }
    }
}

/// Vulkan "Wrapping Operation": every wrap mode gfx11 executes, with negative coordinates
/// and coordinates past 1, LINEAR filtering; the border modes with each
/// BORDER_COLOR_TYPE (Mesa `radv_tex_bordercolor`: 0 transparent black, 1 opaque black,
/// 2 opaque white).
#[test]
fn wrap_modes_and_border_colours() {
    let (w, h) = (5, 3);
    let t = t_of(img_type::IMG_2D, w, h, 1, 0);
    let coords: Vec<(f32, f32)> = (0..32).map(|l| (-2.3 + l as f32 * 0.41, 1.7 - l as f32 * 0.23)).collect();
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(s, t)| [f(s), f(t), 0, 0]).collect();
    // Vulkan "Texel Replacement": the border colour replaces the texel, which then has only
    // the R32_FLOAT image's components (R; G, B 0 and A 1 from "Conversion to RGBA").
    let borders = [[0.0, 0.0, 0.0, 1.0], [0.0, 0.0, 0.0, 1.0], [1.0, 0.0, 0.0, 1.0]];
    for mode in [0, 1, 2, 3, 6, 7] {
        for bc in [border_color::TRANS_BLACK, border_color::OPAQUE_BLACK, border_color::OPAQUE_WHITE] {
            if bc != 0 && !matches!(mode, 6 | 7) {
                continue;
            }
            let s = SamplerResource { border_color_type: bc, ..samp(tex_filter::BILINEAR, 0, mode) };
            let out = sample(
                "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
                &t,
                &s,
                &inputs,
                image_mem(w, h, 1, 1),
            );
            for (l, &(cs, ct)) in coords.iter().enumerate() {
                let want = ref2d(w, h, 0, 0, cs * w as f32, ct * h as f32, true, mode, borders[bc as usize]);
                check4(&out, l, want, &format!("mode {mode} border {bc} at ({cs}, {ct})"));
            }
        }
    }
}

/// The spec's LOD rules with image_sample_l: λ = lod + LOD_BIAS clamped to [MIN_LOD,
/// MAX_LOD], then to the levels; XY_MAG_FILTER for λ ≤ 0 else XY_MIN_FILTER; MIP_FILTER
/// POINT picks `ceil(d' + 0.5) − 1`, LINEAR blends the two levels around d'.
#[test]
fn mip_selection_with_explicit_lod_bias_and_clamp() {
    let (w, h, levels) = (16, 8, 4);
    let t = t_of(img_type::IMG_2D, w, h, levels, 0);
    let lods = [-1.0f32, 0.0, 0.3, 0.5, 0.7, 1.2, 1.5, 2.49, 2.51, 5.0, 0.9, 1.9];
    let (cs, ct) = (0.37f32, 0.61f32);
    let inputs: Vec<[u32; 4]> = lods.iter().map(|&lod| [f(cs), f(ct), f(lod), 0]).collect();
    for mip in [mip_filter::POINT, mip_filter::LINEAR] {
        for (min_lod, max_lod, bias) in
            [(0.0f32, 15.0f32, 0.0f32), (1.0, 2.0, 0.0), (0.0, 15.0, 0.5), (0.0, 15.0, -1.0)]
        {
            let s = SamplerResource {
                xy_mag_filter: tex_filter::POINT,
                xy_min_filter: tex_filter::BILINEAR,
                mip_filter: mip,
                min_lod: lod_to_u4_8(min_lod),
                max_lod: lod_to_u4_8(max_lod),
                lod_bias: gpu::rsrc::lod_bias_to_s6_8(bias),
                ..Default::default()
            };
            let out = sample(
                "image_sample_l v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
                &t,
                &s,
                &inputs,
                image_mem(w, h, levels, 1),
            );
            for (l, &lod) in lods.iter().enumerate() {
                let lambda = (lod + bias).max(min_lod).min(max_lod);
                let linear = lambda > 0.0;
                let d = lambda.clamp(0.0, (levels - 1) as f32);
                let at = |m: u32| ref2d(w, h, m, 0, cs * (w >> m) as f32, ct * (h >> m) as f32, linear, 0, [0.0; 4]);
                let want = if mip == mip_filter::POINT {
                    at(((d + 0.5).ceil() - 1.0) as u32)
                } else {
                    let (lo, hi, a) = (d.floor() as u32, (d.floor() as u32 + 1).min(levels - 1), d.fract());
                    let (x, y) = (at(lo), at(hi));
                    std::array::from_fn(|k| x[k] * (1.0 - a) + y[k] * a)
                };
                check4(&out, l, want, &format!("mip {mip} lod {lod} clamp [{min_lod}, {max_lod}] bias {bias}"));
            }
        }
    }
}

/// Implicit LOD from quad derivatives (lanes 4k..4k+3: top-left, top-right, bottom-left,
/// bottom-right): quad k steps 2^k texels per pixel in x (and half that in y), so
/// ρ = 2^k and POINT mip filtering picks level k (clamped to the last). image_get_lod
/// returns (clamped λ, λ); image_sample_cl's clamp operand raises the level.
#[test]
fn quad_derivatives_pick_the_level() {
    let (w, h, levels) = (64, 64, 5);
    let t = t_of(img_type::IMG_2D, w, h, levels, 0);
    let mut inputs = Vec::new();
    for q in 0..8u32 {
        let step = (1u32 << q) as f32;
        let (x0, y0) = (0.3f32, 0.55f32);
        for (dx, dy) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let s = x0 + dx * step / w as f32;
            let tt = y0 + dy * step * 0.5 / h as f32;
            inputs.push([f(s), f(tt), f(2.0), 0]);
        }
    }
    let s = samp(tex_filter::POINT, mip_filter::POINT, tex_clamp::WRAP);
    let out = sample(
        "image_sample v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &t,
        &s,
        &inputs,
        image_mem(w, h, levels, 1),
    );
    let lod = sample(
        "image_get_lod v[4:5], v[0:1], s[12:19], s[20:23] dmask:0x3 dim:SQ_RSRC_IMG_2D",
        &t,
        &s,
        &inputs,
        image_mem(w, h, levels, 1),
    );
    let cl = sample(
        "image_sample_cl v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &t,
        &s,
        &inputs,
        image_mem(w, h, levels, 1),
    );
    for l in 0..32 {
        let q = (l / 4) as f32;
        let m = (q as u32).min(levels - 1);
        let [cs, ct] = [f32::from_bits(inputs[l][0]), f32::from_bits(inputs[l][1])];
        let at = |m: u32| ref2d(w, h, m, 0, cs * (w >> m) as f32, ct * (h >> m) as f32, false, 0, [0.0; 4]);
        check4(&out, l, at(m), &format!("quad {q}"));
        close(lod.v[l][0], q.min((levels - 1) as f32), &format!("get_lod x lane {l}"));
        close(lod.v[l][1], q, &format!("get_lod y lane {l}"));
        check4(&cl, l, at(m.max(2)), &format!("cl 2, quad {q}"));
    }
}

/// `_g16`: the derivatives are f16, two per VGPR, each direction packed on its own (low
/// half first; 1D pads each direction to a VGPR: llvm-mc-19 takes 3 address VGPRs for
/// 1D and 4 for 2D), the coordinates stay f32, or f16 with A16 (llc-19 selects these forms
/// for `llvm.amdgcn.image.sample.d` with f16 derivatives, packing them as here). Lane l steps 2^k texels per pixel (k = l % 5)
/// in x, half that in y: POINT mip filtering picks level k (clamped to the last).
#[test]
fn g16_derivatives_are_halves_per_direction() {
    let (w, h, levels) = (64, 64, 4);
    let h16 = |x: f32| gpu::format::f32_to_f16(x) as u32;
    let s = samp(tex_filter::POINT, mip_filter::POINT, tex_clamp::WRAP);
    let (cs, ct) = (0.3f32, 0.55f32);
    let steps: Vec<f32> = (0..32).map(|l| (1u32 << (l % 5)) as f32).collect();
    let t2 = t_of(img_type::IMG_2D, w, h, levels, 0);
    let inputs: Vec<[u32; 4]> =
        steps.iter().map(|&k| [h16(k / w as f32), h16(0.5 * k / h as f32) << 16, f(cs), f(ct)]).collect();
    let out = sample(
        "image_sample_d_g16 v[4:7], v[0:3], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &t2,
        &s,
        &inputs,
        image_mem(w, h, levels, 1),
    );
    let t1 = t_of(img_type::IMG_1D, w, 1, levels, 0);
    let inputs1: Vec<[u32; 4]> = steps.iter().map(|&k| [h16(k / w as f32), h16(0.0), f(cs), 0]).collect();
    let out1 = sample(
        "image_sample_d_g16 v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_1D",
        &t1,
        &s,
        &inputs1,
        image_mem(w, 1, levels, 1),
    );
    // With A16 too (LLVM's form for f16 derivatives and coordinates): the coordinates two
    // per VGPR after the derivatives.
    let (hs, ht) = (0.3125f32, 0.5625f32);
    let inputs16: Vec<[u32; 4]> = inputs.iter().map(|i| [i[0], i[1], h16(hs) | h16(ht) << 16, 0]).collect();
    let out16 = sample(
        "image_sample_d_g16 v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D a16",
        &t2,
        &s,
        &inputs16,
        image_mem(w, h, levels, 1),
    );
    for (l, &k) in steps.iter().enumerate() {
        let m = (k.log2() as u32).min(levels - 1);
        let want16 = ref2d(w, h, m, 0, hs * (w >> m) as f32, ht * (h >> m) as f32, false, 0, [0.0; 4]);
        check4(&out16, l, want16, &format!("2D with a16, lane {l}: level {m}"));
        let at = |m: u32, hh: u32| {
            ref2d(w, hh, m, 0, cs * (w >> m) as f32, ct * (hh >> m).max(1) as f32, false, 0, [0.0; 4])
        };
        check4(&out, l, at(m, h), &format!("2D, lane {l}: level {m}"));
        let want1 = ref2d(w, 1, m, 0, cs * (w >> m) as f32, 0.5, false, 0, [0.0; 4]);
        check4(&out1, l, want1, &format!("1D, lane {l}: level {m}"));
    }
}

/// Offsets (`_o`): one VGPR of 6-bit signed texel offsets, x in bits 5:0 and y in 13:8
/// (LLVM's packing), added to the texel coordinates before wrapping (NEAREST, WRAP).
#[test]
fn offsets_shift_texels() {
    let (w, h) = (8, 8);
    let t = t_of(img_type::IMG_2D, w, h, 1, 0);
    let offs: Vec<(i32, i32)> = (0..32).map(|l| ((l % 16) - 8, 7 - (l / 2) % 16)).collect();
    let (cs, ct) = (0.31f32, 0.69f32);
    let inputs: Vec<[u32; 4]> =
        offs.iter().map(|&(x, y)| [(x as u32 & 0x3f) | (y as u32 & 0x3f) << 8, f(cs), f(ct), 0]).collect();
    let s = samp(tex_filter::POINT, 0, tex_clamp::WRAP);
    let out = sample(
        "image_sample_lz_o v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &t,
        &s,
        &inputs,
        image_mem(w, h, 1, 1),
    );
    for (l, &(x, y)) in offs.iter().enumerate() {
        let want = ref2d(w, h, 0, 0, cs * w as f32 + x as f32, ct * h as f32 + y as f32, false, 0, [0.0; 4]);
        check4(&out, l, want, &format!("offset ({x}, {y})"));
    }
}

/// Depth compare (`_c`, Vulkan "Depth Compare Operation"): `reference OP texel` per tap,
/// 1.0 or 0.0, then filtered (PCF), for each DEPTH_COMPARE_FUNC.
#[test]
fn depth_compare_every_func() {
    let (w, h) = (8, 4);
    let t = t_of(img_type::IMG_2D, w, h, 1, 0);
    let coords: Vec<(f32, f32, f32)> =
        (0..32).map(|l| (0.05 + l as f32 * 0.029, 0.2 + (l % 5) as f32 * 0.15, ((l * 7) % 40) as f32)).collect();
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(s, t, r)| [f(r), f(s), f(t), 0]).collect();
    let ops: [fn(f32, f32) -> bool; 8] = [
        |_, _| false,
        |r, d| r < d,
        |r, d| r == d,
        |r, d| r <= d,
        |r, d| r > d,
        |r, d| r != d,
        |r, d| r >= d,
        |_, _| true,
    ];
    for func in 0..8 {
        for filter in [tex_filter::POINT, tex_filter::BILINEAR] {
            let s = SamplerResource { depth_compare_func: func, ..samp(filter, 0, tex_clamp::CLAMP_LAST_TEXEL) };
            let out = sample(
                "image_sample_c_lz v4, v[0:2], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D",
                &t,
                &s,
                &inputs,
                image_mem(w, h, 1, 1),
            );
            for (l, &(cs, ct, r)) in coords.iter().enumerate() {
                let pass = |i: i64, j: i64| {
                    let (x, y) = (i.clamp(0, w as i64 - 1) as u32, j.clamp(0, h as i64 - 1) as u32);
                    ops[func as usize](r, val(x, y, 0, 0)) as u32 as f32
                };
                let (u, v) = (cs * w as f32, ct * h as f32);
                let want = if filter == tex_filter::POINT {
                    pass(u.floor() as i64, v.floor() as i64)
                } else {
                    let (u, v) = (u - 0.5, v - 0.5);
                    let (i, j, a, b) = (u.floor() as i64, v.floor() as i64, u - u.floor(), v - v.floor());
                    (1.0 - a) * (1.0 - b) * pass(i, j)
                        + a * (1.0 - b) * pass(i + 1, j)
                        + (1.0 - a) * b * pass(i, j + 1)
                        + a * b * pass(i + 1, j + 1)
                };
                close(out.v[l][0], want, &format!("func {func} filter {filter} ref {r} at ({cs}, {ct})"));
            }
        }
    }
    let _ = depth_compare::ALWAYS;
}

/// Gather4 (Vulkan "Texel Gathering"): the 2×2 LINEAR footprint of the dmask'd component
/// in the order i0j1, i1j1, i1j0, i0j0; with `_c`, each tap's comparison.
#[test]
fn gather4_footprint_order() {
    let (w, h) = (8, 4);
    let t = t_of(img_type::IMG_2D, w, h, 1, 0);
    let coords: Vec<(f32, f32)> = (0..32).map(|l| (l as f32 * 0.031, 0.1 + (l % 4) as f32 * 0.27)).collect();
    let s = samp(tex_filter::BILINEAR, 0, tex_clamp::CLAMP_LAST_TEXEL);
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(s, t)| [f(s), f(t), 0, 0]).collect();
    let out = sample(
        "image_gather4_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &t,
        &s,
        &inputs,
        image_mem(w, h, 1, 1),
    );
    let ref_inputs: Vec<[u32; 4]> = coords.iter().map(|&(s, t)| [f(20.0), f(s), f(t), 0]).collect();
    let s_c = SamplerResource { depth_compare_func: depth_compare::LESS, ..s };
    let cmp = sample(
        "image_gather4_c_lz v[4:7], v[0:2], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D",
        &t,
        &s_c,
        &ref_inputs,
        image_mem(w, h, 1, 1),
    );
    for (l, &(cs, ct)) in coords.iter().enumerate() {
        let (u, v) = (cs * w as f32 - 0.5, ct * h as f32 - 0.5);
        let (i0, j0) = (u.floor() as i64, v.floor() as i64);
        let tv = |i: i64, j: i64| val(i.clamp(0, w as i64 - 1) as u32, j.clamp(0, h as i64 - 1) as u32, 0, 0);
        let want = [tv(i0, j0 + 1), tv(i0 + 1, j0 + 1), tv(i0 + 1, j0), tv(i0, j0)];
        for k in 0..4 {
            close(out.v[l][k], want[k], &format!("gather lane {l} tap {k}"));
            close(cmp.v[l][k], (20.0 < want[k]) as u32 as f32, &format!("gather_c lane {l} tap {k}"));
        }
    }
}

/// Unnormalized coordinates (Vulkan "unnormalizedCoordinates"): texel-space coordinates,
/// from FORCE_UNNORMALIZED or the instruction's unorm bit; the base level is sampled.
#[test]
fn unnormalized_coordinates() {
    let (w, h) = (8, 4);
    let t = ImageResource { base_level: 1, ..t_of(img_type::IMG_2D, w, h, 2, 0) };
    let coords: Vec<(f32, f32)> = (0..32).map(|l| (l as f32 * 0.13, (l % 3) as f32 * 0.6)).collect();
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(s, t)| [f(s), f(t), 0, 0]).collect();
    let s = samp(tex_filter::BILINEAR, mip_filter::POINT, tex_clamp::CLAMP_LAST_TEXEL);
    let forced = SamplerResource { force_unnormalized: true, ..s };
    let a = sample(
        "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
        &t,
        &forced,
        &inputs,
        image_mem(w, h, 2, 1),
    );
    let b = sample(
        "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D unorm",
        &t,
        &s,
        &inputs,
        image_mem(w, h, 2, 1),
    );
    for (l, &(u, v)) in coords.iter().enumerate() {
        let want = ref2d(w, h, 1, 0, u, v, true, tex_clamp::CLAMP_LAST_TEXEL, [0.0; 4]);
        check4(&a, l, want, "FORCE_UNNORMALIZED");
        check4(&b, l, want, "unorm bit");
    }
}

/// sRGB (Vulkan "sRGB EOTF"): 8_8_8_8_SRGB (gfx11 format 66) decodes R, G and B with
/// the EOTF before filtering and keeps A linear; SKIP_DEGAMMA returns them encoded.
#[test]
fn srgb_degamma() {
    let t =
        ImageResource { format: 66, dst_sel: [sel::X, sel::Y, sel::Z, sel::W], ..t_of(img_type::IMG_2D, 4, 1, 1, 0) };
    let texels: [[u8; 4]; 4] = [[0, 10, 11, 255], [100, 188, 255, 128], [1, 2, 3, 4], [200, 60, 30, 0]];
    let mut mem = vec![0u32; (IMG_OFF + 1024) as usize / 4];
    for (x, b) in texels.iter().enumerate() {
        mem[IMG_OFF as usize / 4 + x] = u32::from_le_bytes(*b);
    }
    let eotf = |c: f64| if c <= 0.04045 { c / 12.92 } else { ((c + 0.055) / 1.055).powf(2.4) };
    let inputs: Vec<[u32; 4]> = (0..4).map(|x| [f((x as f32 + 0.5) / 4.0), f(0.5), 0, 0]).collect();
    for skip in [false, true] {
        let s = SamplerResource { skip_degamma: skip, ..samp(tex_filter::POINT, 0, tex_clamp::CLAMP_LAST_TEXEL) };
        let out = sample(
            "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
            &t,
            &s,
            &inputs,
            mem.clone(),
        );
        for x in 0..4 {
            let want: [f32; 4] = std::array::from_fn(|k| {
                let c = texels[x][k] as f64 / 255.0;
                (if k < 3 && !skip { eotf(c) } else { c }) as f32
            });
            check4(&out, x, want, &format!("texel {x} skip_degamma {skip}"));
        }
    }
}

/// Arrays (Vulkan "Texel Coordinate Systems"): layer = clamp(RNE(r), 0, layers − 1),
/// counted from the view's BASE_ARRAY.
#[test]
fn array_layer_rounds_to_nearest_even() {
    let (w, h) = (4, 4);
    // Four layers, the view 1..3.
    let t = ImageResource { base_array: 1, ..t_of(img_type::IMG_2D_ARRAY, w, h, 1, 3) };
    let layers = [-0.7f32, 0.4, 0.5, 1.5, 2.5, 1.49, 7.0, -3.0];
    let inputs: Vec<[u32; 4]> = layers.iter().map(|&r| [f(0.3), f(0.6), f(r), 0]).collect();
    let s = samp(tex_filter::POINT, 0, tex_clamp::CLAMP_LAST_TEXEL);
    let out = sample(
        "image_sample_lz v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D_ARRAY",
        &t,
        &s,
        &inputs,
        image_mem(w, h, 1, 4),
    );
    for (l, &r) in layers.iter().enumerate() {
        let layer = 1 + (r.round_ties_even().clamp(0.0, 2.0) as u32);
        check4(&out, l, ref2d(w, h, 0, layer, 1.2, 2.4, false, 2, [0.0; 4]), &format!("layer coordinate {r}"));
    }
}

/// An S# softnavi does not execute is a named Unsupported fault, never a panic or a
/// guess: anisotropic filtering, and a REGISTER border colour with a border mode.
#[test]
fn unsupported_sampler_faults() {
    let t = t_of(img_type::IMG_2D, 4, 4, 1, 0);
    let inst = "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let aniso = SamplerResource { max_aniso_ratio: 2, ..samp(tex_filter::ANISO_BILINEAR, 0, 0) };
    let custom = SamplerResource { border_color_type: border_color::REGISTER, ..samp(0, 0, tex_clamp::CLAMP_BORDER) };
    for (s, want) in [(aniso, "anisotropic filtering"), (custom, "REGISTER (custom) border colour")] {
        let r = try_sample(inst, &t, &s, &[[0; 4]; 32], image_mem(4, 4, 1, 1)).expect_err(want);
        assert!(r.to_string().contains(want), "want {want:?} in\n{r}");
        assert!(r.to_string().contains("image_sample_lz"), "{r}");
    }
    // REGISTER without a border mode is never read: it runs.
    let unused = SamplerResource { border_color_type: border_color::REGISTER, ..samp(0, 0, 0) };
    sample(inst, &t, &unused, &[[0; 4]; 32], image_mem(4, 4, 1, 1));
}

/// A16 sampling (LLVM's `packImage16bitOpsToDwords`, which the backend uses when the
/// coordinates are f16 or exactly representable constants): the coordinates and the LOD
/// are f16, two per VGPR, low half first; the result matches the f32-address form.
#[test]
fn a16_packs_coordinates_and_lod_two_per_vgpr() {
    let (w, h) = (8, 4);
    let t = t_of(img_type::IMG_2D, w, h, 2, 0);
    let s = samp(tex_filter::BILINEAR, mip_filter::POINT, tex_clamp::WRAP);
    let coords: Vec<(f32, f32, f32)> =
        (0..32).map(|l| ((l % 8) as f32 * 0.125 - 0.25, (l / 8) as f32 * 0.375 + 0.0625, (l % 2) as f32)).collect();
    let h16 = |x: f32| half::f16::from_f32(x).to_bits() as u32;
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(u, v, lod)| [h16(u) | h16(v) << 16, h16(lod), 0, 0]).collect();
    let out = sample(
        "image_sample_l v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D a16",
        &t,
        &s,
        &inputs,
        image_mem(w, h, 2, 1),
    );
    for (l, &(u, v, lod)) in coords.iter().enumerate() {
        let m = lod as u32;
        let (lw, lh) = ((w >> m) as f32, (h >> m) as f32);
        let want = ref2d(w, h, m, 0, u * lw, v * lh, true, tex_clamp::WRAP, [0.0; 4]);
        check4(&out, l, want, &format!("a16 at ({u}, {v}) lod {lod}"));
    }
}

/// A swizzled image (SW_256B_D: 256-byte blocks, which the harness's 256-aligned buffer
/// holds): NEAREST and LINEAR sampling read each texel where `ImageResource::texel_offset`
/// (addrlib's gfx11 layout, `tests/swizzle.rs`) puts it, on every level (image_sample_l).
#[test]
fn swizzled_image_samples_through_the_gfx11_layout() {
    let (w, h, levels) = (13, 7, 3);
    let t = ImageResource { sw_mode: 2, ..t_of(img_type::IMG_2D, w, h, levels, 0) };
    let at = |x: u32, y: u32, m: u32| (IMG_OFF as u64 + t.texel_offset(4, x, y, 0, m).unwrap()) as usize / 4;
    let mut mem = vec![0u32; at(0, 0, 0) + 2048];
    for m in 0..levels {
        for y in 0..(h >> m).max(1) {
            for x in 0..(w >> m).max(1) {
                mem[at(x, y, m)] = val(x, y, 0, m).to_bits();
            }
        }
    }
    let coords: Vec<(f32, f32, u32)> =
        (0..32).map(|l| ((l % 8) as f32 * 0.37 + 0.1, ((l / 8) % 4) as f32 * 0.23 + 0.05, l % levels)).collect();
    let inputs: Vec<[u32; 4]> = coords.iter().map(|&(u, v, m)| [f(u), f(v), f(m as f32), 0]).collect();
    for filter in [tex_filter::POINT, tex_filter::BILINEAR] {
        let s = samp(filter, mip_filter::POINT, tex_clamp::CLAMP_LAST_TEXEL);
        let out = sample(
            "image_sample_l v[4:7], v[0:2], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D",
            &t,
            &s,
            &inputs,
            mem.clone(),
        );
        for (l, &(u, v, m)) in coords.iter().enumerate() {
            let (lw, lh) = ((w >> m).max(1) as f32, (h >> m).max(1) as f32);
            let linear = filter == tex_filter::BILINEAR;
            let want = ref2d(w, h, m, 0, u * lw, v * lh, linear, tex_clamp::CLAMP_LAST_TEXEL, [0.0; 4]);
            check4(&out, l, want, &format!("filter {filter} level {m} at ({u}, {v})"));
        }
    }
}

/// A BC1 block (Microsoft's BC1, Vulkan's "BC1 RGB"): endpoint c0 the RGB565 `c0`, c1
/// black, every row's texels taking indices 0, 1, 2, 3: c0, c1, (2·c0 + c1)/3, (c0 + 2·c1)/3.
fn bc1_block(c0: u16) -> [u32; 2] {
    [c0 as u32, 0xe4e4_e4e4]
}

/// Block-compressed images (gfx11 image format 109, BC1_UNORM), laid out as the linear
/// layout's elements (a block each, 8 bytes): image_load of texels in each of the four
/// blocks of an 8×8 image decodes the right block and texel, and image_sample_lz with
/// NEAREST at texel centres does the same; a store to it is a named fault.
#[test]
fn bc1_blocks_decode_on_loads_and_samples() {
    // Blocks (bx, by): red, green, blue, white; RGB565 of each, and its 8-bit colour.
    let blocks =
        [(0xf800u16, [1.0, 0.0, 0.0]), (0x07e0, [0.0, 1.0, 0.0]), (0x001f, [0.0, 0.0, 1.0]), (0xffff, [1.0; 3])];
    let (bw, bh) = (2u32, 2u32);
    let mut mem = vec![0u32; (IMG_OFF as usize + model_offset(bw, bh, 1, 8, 0, 0, 1, 0)) / 4];
    for (k, (c0, _)) in blocks.iter().enumerate() {
        let at = (IMG_OFF as usize + model_offset(bw, bh, 1, 8, k as u32 % 2, k as u32 / 2, 0, 0)) / 4;
        mem[at..at + 2].copy_from_slice(&bc1_block(*c0));
    }
    let want = |x: u32, y: u32| -> [f32; 4] {
        let (_, c) = blocks[(x / 4 + 2 * (y / 4)) as usize];
        let scale = [1.0, 0.0, 2.0 / 3.0, 1.0 / 3.0][(x % 4) as usize];
        [c[0] * scale, c[1] * scale, c[2] * scale, 1.0]
    };
    let t =
        ImageResource { format: 109, dst_sel: [sel::X, sel::Y, sel::Z, sel::W], ..t_of(img_type::IMG_2D, 8, 8, 1, 0) };
    let texels: Vec<(u32, u32)> = (0..32).map(|l| (l % 8, (l / 8) * 2 + (l % 2))).collect();
    let near = |got: u32, want: f32, what: &str| {
        let g = f32::from_bits(got);
        assert!((g - want).abs() <= 1.0 / 255.0, "{what}: got {g}, want {want}");
    };
    let loads: Vec<[u32; 4]> = texels.iter().map(|&(x, y)| [x, y, 0, 0]).collect();
    let body =
        format!("{}image_load v[4:7], v[0:1], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D\ns_waitcnt vmcnt(0)", tsharp(&t));
    let out = common::run_wave_env(&body, &loads, false, &WaveEnv { mem: mem.clone(), ..WaveEnv::default() }).0;
    for (l, &(x, y)) in texels.iter().enumerate() {
        for c in 0..4 {
            near(out.v[l][c], want(x, y)[c], &format!("image_load ({x}, {y}) component {c}"));
        }
    }
    let centres: Vec<[u32; 4]> =
        texels.iter().map(|&(x, y)| [f((x as f32 + 0.5) / 8.0), f((y as f32 + 0.5) / 8.0), 0, 0]).collect();
    let s = samp(tex_filter::POINT, mip_filter::NONE, tex_clamp::CLAMP_LAST_TEXEL);
    let inst = "image_sample_lz v[4:7], v[0:1], s[12:19], s[20:23] dmask:0xf dim:SQ_RSRC_IMG_2D";
    let out = sample(inst, &t, &s, &centres, mem.clone());
    for (l, &(x, y)) in texels.iter().enumerate() {
        for c in 0..4 {
            near(out.v[l][c], want(x, y)[c], &format!("image_sample_lz ({x}, {y}) component {c}"));
        }
    }
    let store = format!("{}image_store v[4:7], v[0:1], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D", tsharp(&t));
    let r = common::try_run_wave_env(&store, &loads, false, &WaveEnv { mem, ..WaveEnv::default() });
    let report = r.map(|_| ()).expect_err("a store to a BC1 image faults"); // ok: test
    assert!(report.to_string().contains("only loads and samplers read"), "{report}");
}
