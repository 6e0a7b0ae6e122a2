//! gfx11 swizzled image addressing (`gpu::addr`) against AMD's addrlib: the byte
//! offsets in `data/swizzle_vectors.txt`, which `scripts/addrlib-oracle` computed with
//! addrlib's `Addr2ComputeSurfaceAddrFromCoord` (gfx1100, 32 pipes, 32 packers) for random
//! 1D, 2D and 3D colour surfaces in every swizzle mode softnavi addresses, and the refusals
//! of the modes it does not.

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
}

fn vectors() -> Vec<Vector> {
    include_str!("data/swizzle_vectors.txt")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let v: Vec<u64> = l.split_whitespace().map(|f| f.parse().unwrap()).collect();
            assert_eq!(v.len(), 12, "{l}");
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
            }
        })
        .collect()
}

/// The T# of a vector's surface: an array for 1D and 2D (the layers in DEPTH), 3D with its
/// depth.
fn tsharp(v: &Vector) -> ImageResource {
    let [w, h, d] = v.extent;
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
        let got = t.texel_offset(1 << v.elem_log2, v.at[0], v.at[1], v.at[2], v.mip);
        if got != Some(v.offset) {
            bad.push(format!(
                "rtype {} mode {} elem_log2 {} {:?} levels {} mip {} at {:?}: addrlib {}, softnavi {:?}",
                v.rtype, v.mode, v.elem_log2, v.extent, v.levels, v.mip, v.at, v.offset, got
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
                let have = gpu::addr::pattern(mode, dim3, e).is_some();
                let tested = vs.iter().any(|v| (v.rtype == 3) == dim3 && v.mode == mode && v.elem_log2 == e);
                assert_eq!(have, tested, "mode {mode} dim3 {dim3} elem_log2 {e}");
            }
        }
    }
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

/// A level past the resource's levels has no address (callers range-check first).
#[test]
fn no_address_past_the_levels() {
    let t =
        ImageResource { width: 63, height: 63, kind: img_type::IMG_2D, sw_mode: 27, max_mip: 1, ..Default::default() };
    assert!(t.texel_offset(4, 0, 0, 0, 1).is_some());
    assert_eq!(t.texel_offset(4, 0, 0, 0, 2), None);
}
