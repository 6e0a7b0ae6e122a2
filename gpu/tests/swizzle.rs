//! gfx11 swizzled image addressing (`gpu::addr`) against AMD's addrlib: the byte
//! offsets in `data/swizzle_vectors.txt`, which `scripts/addrlib-oracle` computed with
//! addrlib's `Addr2ComputeSurfaceAddrFromCoord` (gfx1100, 32 pipes, 32 packers) for random
//! 1D, 2D and 3D colour surfaces in every swizzle mode softnavi addresses, and for 2D and
//! 2D array colour surfaces of 2, 4 and 8 samples in the modes addrlib allows them
//! (SW_64KB_R_X, SW_256KB_R_X), and the refusals of the modes it does not.

use gpu::rsrc::{img_type, ImageResource};

struct Vector {
    rtype: u32,
    mode: u32,
    elem_log2: u32,
    extent: [u32; 3],
    levels: u32,
    mip: u32,
    at: [u32; 3],
    offset: u64,
    /// log2 of the samples and the sample (multisampled vectors), else 0 and 0.
    samples_log2: u32,
    sample: u32,
}

fn vectors() -> Vec<Vector> {
    include_str!("data/swizzle_vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u64> = l.split_whitespace().map(|f| f.parse().unwrap()).collect();
            assert!(v.len() == 12 || v.len() == 14, "{l}");
            let u = |i: usize| v[i] as u32;
            Vector {
                rtype: u(0),
                mode: u(1),
                elem_log2: u(2),
                extent: [u(3), u(4), u(5)],
                levels: u(6),
                mip: u(7),
                at: [u(8), u(9), u(10)],
                offset: v[11],
                samples_log2: v.get(12).map_or(0, |&n| n.trailing_zeros()),
                sample: v.get(13).map_or(0, |&s| s as u32),
            }
        })
        .collect()
}

/// The T# of a vector's surface: an array for 1D and 2D (the layers in DEPTH), 3D with its
/// depth; a multisampled one is a 2D_MSAA_ARRAY with log2(samples) in LAST_LEVEL and MAX_MIP,
/// as Mesa writes it.
fn tsharp(v: &Vector) -> ImageResource {
    let [w, h, d] = v.extent;
    if v.samples_log2 > 0 {
        return ImageResource {
            base: 0x100_0000,
            width: w - 1,
            height: h - 1,
            depth: d - 1,
            max_mip: v.samples_log2,
            last_level: v.samples_log2,
            sw_mode: v.mode,
            kind: img_type::IMG_2D_MSAA_ARRAY,
            ..Default::default()
        };
    }
    ImageResource {
        base: 0x100_0000,
        width: w - 1,
        height: h - 1,
        depth: d - 1,
        max_mip: v.levels - 1,
        last_level: v.levels - 1,
        sw_mode: v.mode,
        kind: [img_type::IMG_1D_ARRAY, img_type::IMG_2D_ARRAY, img_type::IMG_3D][v.rtype as usize - 1],
        ..Default::default()
    }
}

#[test]
fn offsets_match_addrlib() {
    let vs = vectors();
    assert!(vs.len() > 2000);
    let mut bad = Vec::new();
    for v in &vs {
        let t = tsharp(v);
        let got = t.sample_offset(1 << v.elem_log2, v.at[0], v.at[1], v.at[2], v.mip, v.sample);
        if got != Some(v.offset) {
            bad.push(format!(
                "rtype {} mode {} elem_log2 {} {:?} levels {} mip {} at {:?} sample {} of {}: addrlib {}, softnavi {:?}",
                v.rtype,
                v.mode,
                v.elem_log2,
                v.extent,
                v.levels,
                v.mip,
                v.at,
                v.sample,
                1 << v.samples_log2,
                v.offset,
                got
            ));
        }
    }
    assert!(bad.is_empty(), "{} of {} differ:\n{}", bad.len(), vs.len(), bad[..bad.len().min(20)].join("\n"));
}

/// Every (resource class, mode, element size) addrlib has a colour surface for is among the
/// vectors, so each pattern softnavi carries is checked.
#[test]
fn vectors_cover_every_pattern() {
    let vs = vectors();
    for (dim3, modes) in [
        (false, &[2, 6, 10, 18, 22, 24, 26, 27, 28, 30, 31][..]),
        (true, &[5, 9, 17, 21, 24, 25, 26, 27, 28, 29, 31][..]),
    ] {
        for &mode in modes {
            for e in 0..5 {
                let have = gpu::addr::pattern(mode, dim3, e, 0).is_some();
                let tested = vs
                    .iter()
                    .any(|v| (v.rtype == 3) == dim3 && v.mode == mode && v.elem_log2 == e && v.samples_log2 == 0);
                assert_eq!(have, tested, "mode {mode} dim3 {dim3} elem_log2 {e}");
            }
        }
    }
    // Multisampled: every 2D mode (addrlib accepts R_X only for colour, and Z_X for 2- and
    // 4-byte depth), 2, 4, 8 samples.
    for mode in [2, 6, 10, 18, 22, 24, 26, 27, 28, 30, 31] {
        for e in 0..5 {
            for sl in 1..4 {
                let have = gpu::addr::pattern(mode, false, e, sl).is_some();
                let tested = vs.iter().any(|v| v.mode == mode && v.elem_log2 == e && v.samples_log2 == sl);
                assert_eq!(have, tested, "mode {mode} elem_log2 {e} samples_log2 {sl}");
                let depth = matches!(mode, 24 | 28) && matches!(e, 1 | 2);
                assert_eq!(have, matches!(mode, 27 | 31) || depth, "MSAA mode {mode} elem_log2 {e} samples_log2 {sl}");
            }
        }
    }
}

/// Every sample of every texel of a multisampled surface has its own element: the offsets
/// of a small 4-sample array are distinct and fill the slices without gaps.
#[test]
fn msaa_samples_fill_the_surface() {
    let t = ImageResource {
        base: 0x100_0000,
        width: 255,
        height: 127,
        depth: 1,
        max_mip: 2,
        last_level: 2,
        sw_mode: 27,
        kind: img_type::IMG_2D_MSAA_ARRAY,
        ..Default::default()
    };
    let mut seen = std::collections::HashSet::new();
    for layer in 0..2 {
        for y in 0..128 {
            for x in 0..256 {
                for s in 0..4 {
                    let o = t.sample_offset(4, x, y, layer, 0, s).expect("addressed");
                    assert_eq!(o % 4, 0);
                    assert!(seen.insert(o), "({x}, {y}, {layer}) sample {s} at {o} twice");
                }
            }
        }
    }
    assert_eq!(seen.iter().max().copied(), Some(2 * 256 * 128 * 4 * 4 - 4));
}

fn refusal(t: &ImageResource, bpe: u32) -> String {
    assert_eq!(t.texel_offset(bpe, 0, 0, 0, 0), None);
    t.layout_unsupported(bpe).expect("refused")
}

/// Modes softnavi does not address are refused by name, never given an address: reserved
/// numbers, modes addrlib has no colour surface in for the resource (the S modes of 2D
/// images, Z order with 16-byte elements, 64KB_D_X for 3D images of 8-byte texels, 1D
/// images outside 64KB_Z_X and 64KB_R_X), elements that are not a power of two bytes, and
/// a base address not aligned to the block (a pipe/bank XOR).
#[test]
fn unaddressed_modes_are_refused_by_name() {
    let t2 = ImageResource { width: 63, height: 63, kind: img_type::IMG_2D, ..Default::default() };
    assert!(refusal(&ImageResource { sw_mode: 1, ..t2 }, 4).contains("SW_MODE 1 (reserved)"));
    assert!(refusal(&ImageResource { sw_mode: 9, ..t2 }, 4).contains("SW_MODE 9 (SW_64KB_S)"));
    assert!(refusal(&ImageResource { sw_mode: 24, ..t2 }, 16).contains("SW_MODE 24 (SW_64KB_Z_X)"));
    assert!(refusal(&ImageResource { sw_mode: 27, ..t2 }, 12).contains("12 bytes"));
    let t3 = ImageResource { kind: img_type::IMG_3D, sw_mode: 26, ..t2 };
    assert!(refusal(&t3, 8).contains("SW_MODE 26 (SW_64KB_D_X)"));
    assert_eq!(t3.layout_unsupported(4), None);
    let t1 = ImageResource { kind: img_type::IMG_1D, sw_mode: 10, ..t2 };
    assert!(refusal(&t1, 4).contains("1D"));
    assert_eq!(ImageResource { sw_mode: 27, ..t1 }.layout_unsupported(4), None);
    let xor = ImageResource { sw_mode: 27, base: 0x1_0000 | 3 << 8, ..t2 };
    assert!(refusal(&xor, 4).contains("not aligned to its 65536-byte block"));
    assert_eq!(ImageResource { base: 0x3_0000, ..xor }.layout_unsupported(4), None);
}

/// The swizzle mode and size of MSAA colour images, as RADV has addrlib choose them
/// (`data/msaa_preferred.txt`, from `Addr2GetPreferredSurfaceSetting`).
#[test]
fn msaa_mode_and_size_match_addrlib() {
    preferred_match(include_str!("data/msaa_preferred.txt"), gpu::addr::msaa_layout);
}

/// The swizzle mode and size of MSAA depth images (D16, D32), as RADV has addrlib choose
/// them (`data/msaa_depth_preferred.txt`).
#[test]
fn msaa_depth_mode_and_size_match_addrlib() {
    preferred_match(include_str!("data/msaa_depth_preferred.txt"), gpu::addr::msaa_depth_layout);
}

/// `gpu::addr::msaa_layout`'s signature: (elem_log2, samples, w, h, layers) -> (mode, bytes).
type MsaaLayout = fn(u32, u32, u32, u32, u32) -> Option<(u32, u64)>;

/// Every row of an addrlib preferred-mode table (elem_log2 width height layers samples
/// sw_mode surf_size) is what `layout` gives.
fn preferred_match(table: &str, layout: MsaaLayout) {
    let mut n = 0;
    for l in table.lines().filter(|l| !l.starts_with('#')) {
        let v: Vec<u64> = l.split_whitespace().map(|f| f.parse().unwrap()).collect();
        let [e, w, h, layers, samples, mode, size] = v[..] else { panic!("{l}") };
        assert_eq!(
            layout(e as u32, samples as u32, w as u32, h as u32, layers as u32),
            Some((mode as u32, size)),
            "{l}"
        );
        n += 1;
    }
    assert!(n >= 400);
}

/// An MSAA T# in a mode addrlib has no MSAA pattern for (Z order of 8-byte elements, which
/// only depth surfaces of 2 and 4 bytes have; the S and D modes) or linear is refused by
/// name.
#[test]
fn msaa_outside_r_x_is_refused() {
    let t = ImageResource {
        width: 63,
        height: 63,
        kind: img_type::IMG_2D_MSAA,
        last_level: 2,
        max_mip: 2,
        ..Default::default()
    };
    assert!(refusal(&t, 4).contains("multisampled and linear"));
    assert!(refusal(&ImageResource { sw_mode: 24, ..t }, 8).contains("2D 4-sample"));
    assert_eq!(ImageResource { sw_mode: 24, ..t }.layout_unsupported(4), None);
    assert!(refusal(&ImageResource { sw_mode: 26, ..t }, 4).contains("SW_64KB_D_X"));
    assert_eq!(ImageResource { sw_mode: 31, ..t }.layout_unsupported(4), None);
}

/// A level past the resource's levels has no address (callers range-check first).
#[test]
fn no_address_past_the_levels() {
    let t =
        ImageResource { width: 63, height: 63, kind: img_type::IMG_2D, sw_mode: 27, max_mip: 1, ..Default::default() };
    assert!(t.texel_offset(4, 0, 0, 0, 1).is_some());
    assert_eq!(t.texel_offset(4, 0, 0, 0, 2), None);
}
