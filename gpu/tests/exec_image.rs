//! MIMG on linear images (and, at the end, a swizzled one): image_load, image_load_mip, image_store, image_store_mip and
//! image_get_resinfo against a CPU model written here from the sources `exec/image.rs`
//! cites: the gfx11 linear layout (addrlib's `Gfx11Lib::HwlComputeSurfaceInfoLinear`: per
//! slice, the mip chain smallest level first, rows padded to 256 bytes), range checks per
//! level and layer, format conversion with host arithmetic, dmask and DST_SEL.
//!
//! The harness's data buffer (address in s[4:5]) holds the image, 256 bytes in; its T# is
//! built in s[12:19] from that address and `ImageResource::encode`.

#![allow(clippy::needless_range_loop)]

mod common;

use common::{model_offset, tsharp, Rng, WaveEnv, IMG_OFF};
use gpu::rsrc::{img_type, sel, ImageResource};
use gpu::ReportKind;

fn t_of(kind: u32, format: u32, w: u32, h: u32, depth: u32, levels: u32) -> ImageResource {
    ImageResource {
        base: IMG_OFF as u64,
        format,
        width: w - 1,
        height: h - 1,
        depth,
        max_mip: levels - 1,
        last_level: levels - 1,
        kind,
        dst_sel: [sel::X, sel::Y, sel::Z, sel::W],
        ..Default::default()
    }
}

fn run(body: &str, inputs: &[[u32; 4]], mem: Vec<u32>) -> (common::WaveOut, Vec<u32>) {
    common::run_wave_env(body, inputs, false, &WaveEnv { mem, ..WaveEnv::default() })
}

fn try_run(body: &str, inputs: &[[u32; 4]], mem: Vec<u32>) -> Result<(), std::sync::Arc<gpu::Report>> {
    common::try_run_wave_env(body, inputs, false, &WaveEnv { mem, ..WaveEnv::default() }).map(|_| ())
}

/// The dims, with their T# type, the address VGPRs of image_load_mip and the slices
/// (array layers or depth) of the test image.
const DIMS: [(&str, u32, &str); 6] = [
    ("1D", img_type::IMG_1D, "v[0:1]"),
    ("2D", img_type::IMG_2D, "v[0:2]"),
    ("3D", img_type::IMG_3D, "v[0:3]"),
    ("1D_ARRAY", img_type::IMG_1D_ARRAY, "v[0:2]"),
    ("2D_ARRAY", img_type::IMG_2D_ARRAY, "v[0:3]"),
    ("CUBE", img_type::CUBE, "v[0:3]"),
];

/// image_load_mip of every dim, R32_UINT texels holding their own (x, y, slice, level):
/// every level of a 3-level image, the view's levels (BASE_LEVEL 1) and layers
/// (BASE_ARRAY 1, DEPTH = the last layer), and coordinates past each bound, which load 0.
/// Also image_load (every lane at BASE_LEVEL), and both in wave64.
#[test]
fn image_load_mip_every_dim_level_and_layer() {
    for (mip_form, wave64) in [(true, false), (false, false), (true, true), (false, true)] {
        load_every_dim(mip_form, wave64);
    }
}

fn load_every_dim(mip_form: bool, wave64: bool) {
    let mut rng = Rng(7);
    let lanes = if wave64 { 64 } else { 32 };
    for (dim, kind, vaddr) in DIMS {
        // Without the mip operand, one address VGPR fewer.
        let vaddr = match (mip_form, vaddr) {
            (true, v) => v.to_string(),
            (false, "v[0:1]") => "v0".to_string(),
            (false, v) => v.replace(&v[4..5], &(v[4..5].parse::<u32>().unwrap_or(1) - 1).to_string()),
        };
        let (w, h) = (37, if matches!(kind, img_type::IMG_1D | img_type::IMG_1D_ARRAY) { 1 } else { 9 });
        let slices = match kind {
            img_type::IMG_3D => 5,
            img_type::IMG_1D_ARRAY | img_type::IMG_2D_ARRAY => 4,
            img_type::CUBE => 12,
            _ => 1,
        };
        let levels = 3;
        let arrayed = matches!(kind, img_type::IMG_1D_ARRAY | img_type::IMG_2D_ARRAY | img_type::CUBE);
        let mut t = t_of(kind, 20, w, h, if kind == img_type::IMG_3D { slices - 1 } else { 0 }, levels);
        // A view of levels 1..2 and (arrays) layers 1..slices-2.
        t.base_level = 1;
        if arrayed {
            (t.base_array, t.depth) = (1, slices - 2);
        }
        let bytes = IMG_OFF as usize + model_offset(w, h, levels, 4, 0, 0, slices, 0);
        let mut mem = vec![0u32; bytes / 4];
        let id = |x: u32, y: u32, s: u32, m: u32| 0x4000_0000 | m << 24 | s << 16 | y << 8 | x;
        for s in 0..slices {
            for m in 0..levels {
                let (lw, lh) = ((w >> m).max(1), (h >> m).max(1));
                let ld = if kind == img_type::IMG_3D { (slices >> m).max(1) } else { slices };
                if s >= ld {
                    continue;
                }
                for y in 0..lh {
                    for x in 0..lw {
                        mem[(IMG_OFF as usize + model_offset(w, h, levels, 4, x, y, s, m)) / 4] = id(x, y, s, m);
                    }
                }
            }
        }
        let mut inputs = Vec::new();
        let mut want = Vec::new();
        for l in 0..lanes {
            let mip = if mip_form { rng.next() % 3 } else { 0 }; // 2 is past LAST_LEVEL - BASE_LEVEL... level 3 is out
            let level = 1 + mip;
            let (lw, lh) = ((w >> level.min(2)).max(1), (h >> level.min(2)).max(1));
            let ld = (slices >> level.min(2)).max(1);
            // Mostly in range; lane 0..3 one past a bound each.
            let x = if l == 0 { lw } else { rng.next() % lw };
            let y = if l == 1 && h > 1 { lh } else { rng.next() % lh };
            let view_layers = if arrayed { slices - 2 } else { 1 };
            let s = match kind {
                img_type::IMG_3D if l == 2 => ld,
                img_type::IMG_3D => rng.next() % ld,
                _ if arrayed && l == 2 => view_layers,
                _ if arrayed => rng.next() % view_layers,
                _ => 0,
            };
            let inside = level <= 2 && x < lw && y < lh && s < if arrayed { view_layers } else { ld };
            let abs_s = if arrayed { s + 1 } else { s };
            want.push(if inside { id(x, y, abs_s, level) } else { 0 });
            inputs.push(match kind {
                img_type::IMG_1D => [x, mip, 0, 0],
                img_type::IMG_2D => [x, y, mip, 0],
                img_type::IMG_1D_ARRAY => [x, s, mip, 0],
                _ => [x, y, s, mip],
            });
        }
        let op = if mip_form { "image_load_mip" } else { "image_load" };
        let body = format!(
            "{}
             {op} v4, {vaddr}, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_{dim} unorm
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let env = WaveEnv { mem, ..WaveEnv::default() };
        let (out, _) = common::run_wave_env(&body, &inputs, wave64, &env);
        for l in 0..lanes {
            assert_eq!(out.v[l][0], want[l], "{op} {dim} wave64 {wave64} lane {l} input {:?}", inputs[l]);
        }
    }
}

/// image_load (level BASE_LEVEL) of 2D images in several formats, with dmask subsets and
/// DST_SEL swizzles; values converted on the CPU (UNORM: x / 255 rounded to f32; D16: to
/// f16 by `half`).
#[test]
fn image_load_formats_dmask_and_dst_sel() {
    let mut rng = Rng(11);
    let (w, h) = (19u32, 5u32);
    // (format, bytes per texel, components, name)
    for (format, bpe, name) in [
        (42u32, 4u32, "R8G8B8A8_UNORM"),
        (22, 4, "R32_FLOAT"),
        (28, 4, "R16G16_SINT"),
        (27, 4, "R16G16_UINT"),
        (63, 16, "R32G32B32A32_FLOAT"),
    ] {
        let bytes = IMG_OFF as usize + model_offset(w, h, 1, bpe, 0, 0, 1, 0);
        let mem: Vec<u32> = (0..bytes / 4).map(|_| rng.next() & 0x3f7f_ffff).collect();
        let byte_at = |x: u32, y: u32| IMG_OFF as usize + model_offset(w, h, 1, bpe, x, y, 0, 0);
        let word = |a: usize| mem[a / 4];
        // The format's components as 32-bit VGPR values (1 where absent for W, 0 else).
        let comps = |x: u32, y: u32| -> [u32; 4] {
            let a = byte_at(x, y);
            match format {
                42 => {
                    let v = word(a).to_le_bytes();
                    v.map(|b| ((b as f64 / 255.0) as f32).to_bits())
                }
                22 => [word(a), 0, 0, 0],
                28 => [word(a) as i16 as i32 as u32, (word(a) >> 16) as i16 as i32 as u32, 0, 0],
                27 => [word(a) & 0xffff, word(a) >> 16, 0, 0],
                _ => [word(a), word(a + 4), word(a + 8), word(a + 12)],
            }
        };
        let one = if matches!(format, 27 | 28) { 1 } else { 0x3f80_0000 };
        for (dmask, dst_sel) in [
            (0xfu32, [sel::X, sel::Y, sel::Z, sel::W]),
            (0x5, [sel::W, sel::Z, sel::Y, sel::X]),
            (0xe, [sel::X, sel::ZERO, sel::ONE, sel::Y]),
            (0x8, [sel::X, sel::Y, sel::Z, sel::ONE]),
        ] {
            let mut t = t_of(img_type::IMG_2D, format, w, h, 0, 1);
            t.dst_sel = dst_sel;
            let n = dmask.count_ones();
            let regs = if n == 1 { "v4".to_string() } else { format!("v[4:{}]", 3 + n) };
            let body = format!(
                "{}
                 image_load {regs}, v[0:1], s[12:19] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D
                 s_waitcnt vmcnt(0)",
                tsharp(&t)
            );
            let inputs: Vec<[u32; 4]> = (0..32).map(|l| [(l * 7) % (w + 2), l % (h + 1), 0, 0]).collect();
            let (out, _) = run(&body, &inputs, mem.clone());
            for l in 0..32 {
                let [x, y, _, _] = inputs[l];
                let inside = x < w && y < h;
                let c = if inside { comps(x, y) } else { [0; 4] };
                let vals: Vec<u32> = (0..4)
                    .map(|i| match dst_sel[i] {
                        _ if !inside => 0,
                        sel::ONE => one,
                        sel::ZERO => 0,
                        s => c[(s - sel::X) as usize],
                    })
                    .collect();
                let want: Vec<u32> = (0..4).filter(|i| dmask >> i & 1 != 0).map(|i| vals[i]).collect();
                assert_eq!(
                    &out.v[l][..n as usize],
                    &want[..],
                    "{name} dmask {dmask:#x} sel {dst_sel:?} lane {l} ({x}, {y})"
                );
            }
        }
        if format == 42 {
            // D16: two f16 components per VGPR.
            let t = t_of(img_type::IMG_2D, format, w, h, 0, 1);
            let body = format!(
                "{}
                 image_load v[4:5], v[0:1], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D d16
                 s_waitcnt vmcnt(0)",
                tsharp(&t)
            );
            let inputs: Vec<[u32; 4]> = (0..32).map(|l| [l % w, l % h, 0, 0]).collect();
            let (out, _) = run(&body, &inputs, mem.clone());
            for l in 0..32 {
                let b = word(byte_at(inputs[l][0], inputs[l][1])).to_le_bytes();
                let f = b.map(|b| half::f16::from_f64(b as f64 / 255.0).to_bits() as u32);
                assert_eq!([out.v[l][0], out.v[l][1]], [f[0] | f[1] << 16, f[2] | f[3] << 16], "d16 lane {l}");
            }
        }
    }
}

/// image_store_mip to a 2D array (R16G16_UINT: values saturate; R32G32B32A32_FLOAT with
/// dmask 0x3: Z and W written as 0) at every level and layer: the bytes land where the CPU
/// layout puts them, lanes out of range (x, layer or level) change nothing, and
/// image_load_mip reads back what was stored.
#[test]
fn image_store_mip_round_trip_and_out_of_range_dropped() {
    store_round_trip(false);
    store_round_trip(true);
}

fn store_round_trip(wave64: bool) {
    let (w, h, layers, levels) = (21u32, 6u32, 3u32, 3u32);
    let lanes = if wave64 { 64 } else { 32 };
    // The lane number: v_mbcnt_hi adds the low half's lanes in wave64.
    let mbcnt_hi = if wave64 { "v_mbcnt_hi_u32_b32 v10, -1, v10" } else { "" };
    for (format, bpe, dmask) in [(27u32, 4u32, 0x3u32), (63, 16, 0x3)] {
        let t = t_of(img_type::IMG_2D_ARRAY, format, w, h, layers - 1, levels);
        let bytes = IMG_OFF as usize + model_offset(w, h, levels, bpe, 0, 0, layers, 0);
        let mem0 = vec![0x5555_5555u32; bytes / 4];
        let mut want = mem0.clone();
        let mut inputs = Vec::new();
        for l in 0..lanes as u32 {
            let m = l % 4; // level 3 is past the last
            let (lw, lh) = ((w >> m.min(2)).max(1), (h >> m.min(2)).max(1));
            let (x, y, s) = ((l * 5) % (lw + 1), (l / 3) % lh, l % (layers + 1));
            inputs.push([x, y, s, m]);
            let inside = m < levels && x < lw && y < lh && s < layers;
            if inside {
                let a = (IMG_OFF as usize + model_offset(w, h, levels, bpe, x, y, s, m)) / 4;
                let (d0, d1) = (0x1_0000 + l * 1000, l * 3);
                if format == 27 {
                    want[a] = 0xffff | d1 << 16; // d0 saturates
                } else {
                    want[a..a + 4].copy_from_slice(&[d0, d1, 0, 0]);
                }
            }
        }
        let body = format!(
            "{}
             v_mbcnt_lo_u32_b32 v10, -1, 0
             {mbcnt_hi}
             v_mul_u32_u24 v4, 0x3e8, v10
             v_add_nc_u32 v4, 0x10000, v4
             v_mul_u32_u24 v5, 3, v10
             image_store_mip v[4:5], v[0:3], s[12:19] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D_ARRAY
             s_waitcnt_vscnt null, 0
             image_load_mip v[8:9], v[0:3], s[12:19] dmask:{dmask:#x} dim:SQ_RSRC_IMG_2D_ARRAY
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let env = WaveEnv { mem: mem0, ..WaveEnv::default() };
        let (out, mem) = common::run_wave_env(&body, &inputs, wave64, &env);
        assert!(mem == want, "format {format} wave64 {wave64}: stored bytes differ");
        for l in 0..lanes {
            let [x, y, s, m] = inputs[l];
            let (lw, lh) = ((w >> m.min(2)).max(1), (h >> m.min(2)).max(1));
            let inside = m < levels && x < lw && y < lh && s < layers;
            // A lane whose texel another lane also stored reads the later lane's value.
            let a = (IMG_OFF as usize + model_offset(w, h, levels, bpe, x, y, s, m.min(2))) / 4;
            let back = if !inside {
                [0, 0]
            } else if format == 27 {
                [want[a] & 0xffff, want[a] >> 16]
            } else {
                [want[a], want[a + 1]]
            };
            assert_eq!([out.v[l][4], out.v[l][5]], back, "format {format} wave64 {wave64} lane {l} {:?}", inputs[l]);
        }
    }
}

/// image_get_resinfo of every dim: the level's width, height, depth or the view's layers,
/// and the view's level count; past LAST_LEVEL the sizes are 0.
#[test]
fn image_get_resinfo_every_dim() {
    for (dim, kind, _) in DIMS {
        let one_d = matches!(kind, img_type::IMG_1D | img_type::IMG_1D_ARRAY);
        let (w, h) = (100, if one_d { 1 } else { 30 });
        let mut t = t_of(kind, 20, w, h, 0, 5);
        (t.base_level, t.last_level) = (1, 3);
        let layers = match kind {
            img_type::IMG_3D => {
                t.depth = 11; // depth 12
                0
            }
            img_type::IMG_1D_ARRAY | img_type::IMG_2D_ARRAY | img_type::CUBE => {
                (t.base_array, t.depth) = (2, 13); // layers 2..13
                12
            }
            _ => 0,
        };
        let body = format!(
            "{}
             image_get_resinfo v[4:7], v0, s[12:19] dmask:0xf dim:SQ_RSRC_IMG_{dim} unorm
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let inputs: Vec<[u32; 4]> = (0..32).map(|l| [l % 5, 0, 0, 0]).collect();
        let (out, _) = run(&body, &inputs, vec![0; 64]);
        for l in 0..32 {
            let level = 1 + l as u32 % 5;
            let ok = level <= 3;
            let sz = |x: u32| if ok { (x >> level).max(1) } else { 0 };
            let want = match kind {
                img_type::IMG_1D => [sz(w), 0, 0, 3],
                img_type::IMG_1D_ARRAY => [sz(w), layers, 0, 3],
                img_type::IMG_2D => [sz(w), sz(h), 0, 3],
                img_type::IMG_3D => [sz(w), sz(h), sz(12), 3],
                _ => [sz(w), sz(h), if ok { layers } else { 0 }, 3],
            };
            assert_eq!(out.v[l][..4], want, "{dim} lane {l}");
        }
    }
}

/// The null (all-zero) T#: loads and resinfo return 0, stores change nothing.
#[test]
fn null_tsharp_loads_zero_and_drops_stores() {
    let t = ImageResource::default();
    let body = format!(
        "{}
         v_mov_b32 v4, 7
         image_store v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
         v_mov_b32 v5, 9
         image_load v5, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
         image_get_resinfo v6, v0, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
         s_waitcnt vmcnt(0)",
        tsharp(&t)
            .replace("s_add_u32 s12, s4, 0x0", "s_mov_b32 s12, 0")
            .replace("s_addc_u32 s13, s5, 0", "s_mov_b32 s13, 0")
    );
    let (out, mem) = run(&body, &[[0; 4]; 32], vec![0x1234; 128]);
    assert!(out.v.iter().all(|v| v[1] == 0 && v[2] == 0));
    assert!(mem.iter().all(|&w| w == 0x1234));
}

/// What softnavi does not execute is a named fault, never a wrong answer: a T# whose TYPE
/// is not an image type, a swizzled T#, a DIM that does not match the TYPE (an MSAA T# and
/// dim among them), r128, the packed loads and stores, tfe on stores and
/// atomics, gather4h, an atomic on a format it cannot use; and a T# over
/// unmapped memory is a VM fault.
#[test]
fn unexecuted_forms_and_bad_tsharps_are_named_faults() {
    let ok = t_of(img_type::IMG_2D, 20, 8, 8, 0, 1);
    let load = "image_load v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D";
    let cases: Vec<(ImageResource, &str, &str)> = vec![
        (ImageResource { kind: 0, ..ok }, load, "TYPE 0"),
        (ImageResource { sw_mode: 9, ..ok }, load, "SW_MODE 9"),
        (ImageResource { kind: img_type::IMG_3D, ..ok }, load, "dim:SQ_RSRC_IMG_2D on a T# of TYPE 10"),
        (ImageResource { kind: img_type::IMG_2D_MSAA, ..ok }, load, "on a T# of TYPE 14 (2D_MSAA)"),
        (ImageResource { format: 72, ..ok }, load, "image format 72"),
        (ok, "image_load v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D r128", "image_load with r128 is decoded"),
        (
            ok,
            "image_load v4, v[0:2], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA",
            "dim:SQ_RSRC_IMG_2D_MSAA on a T# of TYPE 9 (2D)",
        ),
        (ok, "image_load_pck v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D", "image_load_pck is decoded"),
        (ok, "image_store_pck v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D", "image_store_pck is decoded"),
        (
            ok,
            "image_msaa_load v[4:7], v[0:2], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA",
            "image_msaa_load: dim:SQ_RSRC_IMG_2D_MSAA on a T# of TYPE 9",
        ),
        (ok, "image_store v[4:5], v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D tfe", "with tfe or lwe"),
        (ok, "image_atomic_add v[4:5], v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D glc tfe", "with tfe or lwe"),
        (
            ok,
            "image_gather4h v[4:7], v[0:1], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            "image_gather4h is decoded but not executed",
        ),
        // Atomics need a 32-bit (64-bit: 32_32_UINT/SINT) integer or float format.
        (
            ImageResource { format: 42, ..ok },
            "image_atomic_add v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D",
            "32-bit image atomics act on T#s of format 32_UINT, 32_SINT or 32_FLOAT (20..22); this T# has format 42",
        ),
        (
            ok,
            "image_atomic_umax v[4:5], v[0:1], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D",
            "64-bit image atomics act on T#s of format 32_32_UINT or 32_32_SINT (48, 49); this T# has format 20",
        ),
        (
            ImageResource { format: 50, ..ok },
            "image_atomic_cmpswap v[4:7], v[0:1], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D",
            "this T# has format 50",
        ),
    ];
    for (t, inst, want) in cases {
        let body = format!("{}\n {inst}\n s_waitcnt vmcnt(0)", tsharp(&t));
        let r = try_run(&body, &[[1, 1, 0, 0]; 32], vec![0; 256]).expect_err(inst);
        assert_eq!(r.kind, ReportKind::IllegalInstruction, "{inst}: {r}");
        assert!(r.to_string().contains(want), "{inst}: want {want:?} in\n{r}");
    }
    // A T# 1 MiB past the data buffer: the load is a VM fault at the texel's address.
    let far = ImageResource { base: 1 << 20, ..ok };
    let r = try_run(&format!("{}\n {load}\n s_waitcnt vmcnt(0)", tsharp(&far)), &[[1, 1, 0, 0]; 32], vec![0; 256])
        .expect_err("VM fault");
    assert!(r.to_string().contains("VM fault"), "{r}");
}

/// RDNA3-NOTES, "Memory counters and s_waitcnt", under the debug checker: an image_load's
/// data register read before the `s_waitcnt vmcnt` that retires it is a wave fault; with
/// the wait it runs.
#[test]
fn the_checker_sees_image_load_registers() {
    let t = t_of(img_type::IMG_2D, 20, 4, 4, 0, 1);
    let env = |mem: Vec<u32>| WaveEnv { mem, check: true, ..WaveEnv::default() };
    let body = |wait: &str| {
        format!(
            "{}
             v_mov_b32 v0, 0
             v_mov_b32 v1, 0
             image_load v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D
             {wait}
             v_add_nc_u32 v5, v4, v4",
            tsharp(&t)
        )
    };
    let early = common::try_run_wave_env(&body(""), &[[0; 4]; 32], false, &env(vec![3; 256]));
    let Err(report) = early else { panic!("the read before the wait is not a fault") };
    assert!(format!("{report:?}").contains("Memory counters and s_waitcnt"), "{report:?}");
    let ok = common::try_run_wave_env(&body("s_waitcnt vmcnt(0)"), &[[0; 4]; 32], false, &env(vec![3; 256]));
    assert!(ok.is_ok(), "{:?}", ok.err());
}

/// A16: two unsigned 16-bit address components per VGPR, low half first. A 2D-array
/// image_store_mip / image_load_mip round trip with x, y in v0 and slice, mip in v1
/// (against image_load_mip with 32-bit addresses), a 1D image_load whose high half is
/// garbage, and image_get_resinfo's mip level in a low half.
#[test]
fn a16_addresses_two_components_per_vgpr() {
    let (w, h, layers, levels) = (40u32, 6u32, 3u32, 2u32);
    let t = t_of(img_type::IMG_2D_ARRAY, 20, w, h, layers - 1, levels);
    let bytes = IMG_OFF as usize + model_offset(w, h, levels, 4, 0, 0, layers, 0);
    let mut inputs = Vec::new();
    let mut want = vec![0u32; bytes / 4];
    for l in 0..32u32 {
        let m = l % 3; // level 2 is past the last
        let (x, y, s) = ((l * 7) % (w >> m.min(1)), l % (h >> m.min(1)), l % layers);
        // v0 = {y, x}, v1 = {mip, slice}; v2, v3 the same as 32-bit components.
        inputs.push([x | y << 16, s | m << 16, l, 0]);
        if m < levels {
            want[(IMG_OFF as usize + model_offset(w, h, levels, 4, x, y, s, m)) / 4] = 0x100 + l;
        }
    }
    let body = format!(
        "{}
         v_add_nc_u32 v4, 0x100, v2
         image_store_mip v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY a16
         s_waitcnt_vscnt null, 0
         image_load_mip v5, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY a16
         v_and_b32 v12, 0xffff, v0
         v_lshrrev_b32 v13, 16, v0
         v_and_b32 v14, 0xffff, v1
         v_lshrrev_b32 v15, 16, v1
         image_load_mip v6, v[12:15], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY
         s_waitcnt vmcnt(0)",
        tsharp(&t)
    );
    let (out, mem) = run(&body, &inputs, vec![0; bytes / 4]);
    assert!(mem == want, "a16 stores landed elsewhere");
    for l in 0..32 {
        let m = l as u32 % 3;
        let v = if m < levels { 0x100 + l as u32 } else { 0 };
        assert_eq!([out.v[l][1], out.v[l][2]], [v, v], "lane {l} {:x?}", inputs[l]);
    }
    // 1D: the high half of v0 is not part of the address; resinfo's mip is v0's low half.
    let t1 = t_of(img_type::IMG_1D, 20, 64, 1, 0, 3);
    let mut mem1 = vec![0u32; (IMG_OFF as usize + model_offset(64, 1, 3, 4, 0, 0, 1, 0)) / 4];
    for x in 0..64 {
        mem1[(IMG_OFF as usize + model_offset(64, 1, 3, 4, x, 0, 0, 0)) / 4] = 0x500 + x;
    }
    let body = format!(
        "{}
         image_load v4, v0, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_1D a16
         image_get_resinfo v[5:6], v1, s[12:19] dmask:0x9 dim:SQ_RSRC_IMG_1D a16
         s_waitcnt vmcnt(0)",
        tsharp(&t1)
    );
    let inputs: Vec<[u32; 4]> =
        (0..32u32).map(|l| [(2 * l) | (0xbeef << 16), (l % 3) | (0xffff << 16), 0, 0]).collect();
    let (out, _) = run(&body, &inputs, mem1);
    for l in 0..32u32 {
        let o = &out.v[l as usize];
        assert_eq!(o[0], 0x500 + 2 * l, "1D a16 lane {l}");
        assert_eq!([o[1], o[2]], [64 >> (l % 3), 3], "resinfo a16 lane {l}");
    }
}

/// TFE and LWE on loads: the data is written as without them and the TFE status VGPR
/// after it keeps its value (softnavi's fetches never fail; compilers zero it beforehand),
/// also for lanes out of range (which load 0) and after D16 data. (LLVM's assembler gives
/// LWE alone no status register.)
#[test]
fn tfe_and_lwe_leave_the_status_vgpr() {
    let t = t_of(img_type::IMG_2D, 42, 8, 8, 0, 1);
    let bytes = IMG_OFF as usize + model_offset(8, 8, 1, 4, 0, 0, 1, 0);
    let mem: Vec<u32> = (0..bytes as u32 / 4).map(|i| i.wrapping_mul(0x9e37_79b1)).collect();
    let word = |x: u32, y: u32| mem[(IMG_OFF as usize + model_offset(8, 8, 1, 4, x, y, 0, 0)) / 4];
    let body = format!(
        "{}
         v_mov_b32 v5, 0x1234
         image_load v[4:5], v[0:1], s[12:19] dmask:0x8 dim:SQ_RSRC_IMG_2D tfe
         v_mov_b32 v7, 0x5678
         image_load v6, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D lwe
         v_mov_b32 v10, 0x9abc
         image_load v[8:10], v[0:1], s[12:19] dmask:0x7 dim:SQ_RSRC_IMG_2D tfe lwe d16
         s_waitcnt vmcnt(0)",
        tsharp(&t)
    );
    let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| [l % 9, l / 4, 0, 0]).collect();
    let (out, _) = run(&body, &inputs, mem.clone());
    for l in 0..32 {
        let [x, y, _, _] = inputs[l];
        let b = if x < 8 && y < 8 { word(x, y).to_le_bytes() } else { [0; 4] };
        let unorm = |v: u8| ((v as f64 / 255.0) as f32).to_bits();
        let h = |v: u8| half::f16::from_f64(v as f64 / 255.0).to_bits() as u32;
        let o = &out.v[l];
        let (w, r) = if x < 8 && y < 8 { (unorm(b[3]), unorm(b[0])) } else { (0, 0) };
        assert_eq!([o[0], o[1], o[2], o[3]], [w, 0x1234, r, 0x5678], "lane {l}");
        let d16 = if x < 8 && y < 8 { [h(b[0]) | h(b[1]) << 16, h(b[2])] } else { [0, 0] };
        assert_eq!([o[4], o[5] & 0xffff, o[6]], [d16[0], d16[1], 0x9abc], "d16 lane {l}");
    }
}

/// A swizzled image (SW_256B_D, the mode whose 256-byte blocks the harness's 256-aligned
/// buffer can hold): image_load_mip reads each texel where `ImageResource::texel_offset`
/// (addrlib's layout, `tests/swizzle.rs`) puts it, and image_store_mip writes there.
#[test]
fn swizzled_image_loads_and_stores_through_the_gfx11_layout() {
    let (w, h, layers, levels) = (29u32, 11u32, 2u32, 3u32);
    let mut t = t_of(img_type::IMG_2D_ARRAY, 20, w, h, layers - 1, levels);
    t.sw_mode = 2;
    let at = |x: u32, y: u32, s: u32, m: u32| (IMG_OFF as u64 + t.texel_offset(4, x, y, s, m).unwrap()) as usize / 4;
    let bytes = 4 * (at(0, 0, layers, 0) + 64);
    let mut mem0 = vec![0u32; bytes / 4];
    let id = |x: u32, y: u32, s: u32, m: u32| 0x4000_0000 | m << 24 | s << 16 | y << 8 | x;
    for s in 0..layers {
        for m in 0..levels {
            for y in 0..(h >> m).max(1) {
                for x in 0..(w >> m).max(1) {
                    assert_eq!(mem0[at(x, y, s, m)], 0, "two texels at one address");
                    mem0[at(x, y, s, m)] = id(x, y, s, m);
                }
            }
        }
    }
    let mut rng = Rng(11);
    let inputs: Vec<[u32; 4]> = (0..32)
        .map(|_| {
            let m = rng.next() % levels;
            [rng.next() % (w >> m).max(1), rng.next() % (h >> m).max(1), rng.next() % layers, m]
        })
        .collect();
    // Each texel read, then written back with bits flipped, by `suffix` ("_mip" with the
    // level in v3, or "" for BASE_LEVEL, which translated code inlines for linear T#s only:
    // under SOFTNAVI_JIT=on it once addressed this one linearly, as RADV's images).
    let round_trip = |suffix: &str, vaddr: &str, inputs: &[[u32; 4]]| {
        let body = format!(
            "{}
             image_load{suffix} v4, {vaddr}, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY
             s_waitcnt vmcnt(0)
             v_xor_b32 v5, 0x0f000000, v4
             image_store{suffix} v5, {vaddr}, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_ARRAY
             s_waitcnt_vscnt null, 0",
            tsharp(&t)
        );
        let (out, mem) = run(&body, inputs, mem0.clone());
        let mut want = mem0.clone();
        for (l, &[x, y, s, m]) in inputs.iter().enumerate() {
            assert_eq!(out.v[l][0], id(x, y, s, m), "{suffix} lane {l} {:?}", inputs[l]);
            want[at(x, y, s, m)] = id(x, y, s, m) ^ 0x0f00_0000;
        }
        assert!(mem == want, "{suffix}: stored words differ");
    };
    round_trip("_mip", "v[0:3]", &inputs);
    let base: Vec<[u32; 4]> = inputs.iter().map(|&[x, y, s, m]| [x >> m, y >> m, s, 0]).collect();
    round_trip("", "v[0:2]", &base);
}

/// `BufFormat::store32` of 8-bit UNORM, written from the rule (RDNA3-NOTES, "Buffer data
/// formats": clamp to [0, 1], NaN as 0, round to nearest even) with host f64 arithmetic.
fn unorm8_of(v: f32) -> u8 {
    let f = if v.is_nan() { 0.0 } else { (v as f64).clamp(0.0, 1.0) };
    (f * 255.0).round_ties_even() as u8
}

/// image_load / image_store on 8_8_8_8 UNORM with every lane in range (the translation
/// tier's inline path under SOFTNAVI_JIT=on, the interpreter's otherwise: CI runs both):
/// every byte value loads as `b / 255` rounded to f32, and stores round the edge values
/// (ties at k + 0.5, NaN, ±0, ±inf, out of [0, 1]) to nearest even; wave32 and wave64,
/// full and partial EXEC.
#[test]
fn rgba8_unorm_loads_every_byte_and_stores_round_to_nearest_even() {
    let (w, h) = (16u32, 8u32);
    let unorm = |b: u8| ((b as f64 / 255.0) as f32).to_bits();
    let texel = |x: u32, y: u32| (IMG_OFF as usize + model_offset(w, h, 1, 4, x, y, 0, 0)) / 4;
    let bytes = IMG_OFF as usize + model_offset(w, h, 1, 4, 0, h, 0, 0);
    let mut mem = vec![0u32; bytes / 4];
    for y in 0..h {
        for x in 0..w {
            let i = (y * w + x) * 4;
            mem[texel(x, y)] = u32::from_le_bytes([i as u8, (i + 1) as u8, (i + 2) as u8, (i + 3) as u8]);
        }
    }
    let t = t_of(img_type::IMG_2D, 42, w, h, 0, 1);
    for wave64 in [false, true] {
        let lanes = if wave64 { 64 } else { 32 };
        for first in (0..w * h).step_by(lanes) {
            let inputs: Vec<[u32; 4]> = (first..first + lanes as u32).map(|i| [i % w, i / w, 0, 0]).collect();
            let body = format!(
                "{}
                 image_load v[4:7], v[0:1], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D
                 image_load v8, v[0:1], s[12:19] dmask:0x4 dim:SQ_RSRC_IMG_2D
                 s_waitcnt vmcnt(0)",
                tsharp(&t)
            );
            let (out, _) = run_wave64(&body, &inputs, mem.clone(), wave64);
            for (l, &[x, y, _, _]) in inputs.iter().enumerate() {
                let b = mem[texel(x, y)].to_le_bytes();
                assert_eq!(
                    out.v[l][..5],
                    [unorm(b[0]), unorm(b[1]), unorm(b[2]), unorm(b[3]), unorm(b[2])],
                    "lane {l}"
                );
            }
        }
    }
    let edges = [
        f32::NAN,
        -0.0,
        0.0,
        -1.0,
        1.0,
        2.0,
        f32::INFINITY,
        f32::NEG_INFINITY,
        0.5 / 255.0,
        1.5 / 255.0,
        2.5 / 255.0,
        254.5 / 255.0,
        127.5 / 255.0,
        0.999,
        1e-30,
        0.3,
    ];
    let mut rng = Rng(5);
    for (wave64, exec) in [(false, "s_mov_b32 exec_lo, 0x7fffbfff"), (true, "s_mov_b64 exec, -1"), (false, "")] {
        let lanes = if wave64 { 64 } else { 32 };
        let inputs: Vec<[u32; 4]> = (0..lanes)
            .map(|l| {
                std::array::from_fn(
                    |k| if l < 16 { edges[(l + 5 * k) % 16].to_bits() } else { rng.next() % 0x3f90_0000 },
                )
            })
            .collect();
        let mbcnt_hi = if wave64 { "v_mbcnt_hi_u32_b32 v10, -1, v10" } else { "" };
        let body = format!(
            "{}
             v_mbcnt_lo_u32_b32 v10, -1, 0
             {mbcnt_hi}
             v_and_b32 v8, 15, v10
             v_lshrrev_b32 v9, 4, v10
             {exec}
             image_store v[0:3], v[8:9], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
             s_waitcnt_vscnt null, 0",
            tsharp(&t)
        );
        let (_, got) = run_wave64(&body, &inputs, mem.clone(), wave64);
        let mut want = mem.clone();
        for (l, v) in inputs.iter().enumerate() {
            let active = match exec {
                "" => true,
                e if wave64 => e.ends_with("-1"),
                _ => 0x7fff_bfffu32 >> l & 1 != 0,
            };
            if active {
                want[texel(l as u32 % w, l as u32 / w)] = u32::from_le_bytes(v.map(|b| unorm8_of(f32::from_bits(b))));
            }
        }
        assert!(got == want, "wave64 {wave64} {exec}: stored texels differ");
    }
}

fn run_wave64(body: &str, inputs: &[[u32; 4]], mem: Vec<u32>, wave64: bool) -> (common::WaveOut, Vec<u32>) {
    common::run_wave_env(body, inputs, wave64, &WaveEnv { mem, ..WaveEnv::default() })
}

/// image_load / image_store of 32-bit components on the other TYPEs the inline path
/// takes, every lane in range: R32_UINT on a 2D array view from layer 1, R32G32_UINT on a
/// 3D image, R32G32B32A32_FLOAT on a 1D array; then the same with one lane out of range
/// (the whole instruction goes to the interpreter: that lane loads 0 and stores nothing).
#[test]
fn inline_shapes_of_32_bit_image_loads_and_stores() {
    // (TYPE, dim, format, bytes per texel, address VGPRs, extent, BASE_ARRAY, DEPTH field)
    let cases = [
        (img_type::IMG_2D_ARRAY, "2D_ARRAY", 20u32, 4u32, "v[0:2]", [7u32, 5, 4], 1u32, 3u32),
        (img_type::IMG_3D, "3D", 48, 8, "v[0:2]", [6, 4, 3], 0, 2),
        (img_type::IMG_1D_ARRAY, "1D_ARRAY", 63, 16, "v[0:1]", [9, 1, 5], 2, 4),
    ];
    for (kind, dim, format, bpe, vaddr, [w, h, slices], base_array, depth) in cases {
        let one_d = kind == img_type::IMG_1D_ARRAY;
        let mut t = t_of(kind, format, w, h, depth, 1);
        t.base_array = base_array;
        let layers = if kind == img_type::IMG_3D { slices } else { depth + 1 - base_array };
        let first = if kind == img_type::IMG_3D { 0 } else { base_array };
        let dwords = bpe / 4;
        let texel = |x: u32, y: u32, s: u32| (IMG_OFF as usize + model_offset(w, h, 1, bpe, x, y, first + s, 0)) / 4;
        let bytes = 4 * texel(0, 0, layers) + 64;
        let mem: Vec<u32> = (0..bytes as u32 / 4).map(|i| i.wrapping_mul(0x9e37_79b9)).collect();
        for out_of_range in [false, true] {
            let inputs: Vec<[u32; 4]> = (0..32u32)
                .map(|l| {
                    let (x, rest) = (l % w, l / w);
                    let (y, s) = if one_d { (0, rest % layers) } else { (rest % h, (rest / h) % layers) };
                    let s = if out_of_range && l == 9 { layers } else { s };
                    if one_d {
                        [x, s, 0, 0]
                    } else {
                        [x, y, s, 0]
                    }
                })
                .collect();
            let at = |l: usize| {
                let c = inputs[l];
                let (y, s) = if one_d { (0, c[1]) } else { (c[1], c[2]) };
                (s < layers).then(|| texel(c[0], y, s))
            };
            let dmask = (1u32 << dwords) - 1;
            let regs = if dwords == 1 { "v4".to_string() } else { format!("v[4:{}]", 3 + dwords) };
            let body = format!(
                "{}
                 image_load {regs}, {vaddr}, s[12:19] dmask:{dmask:#x} dim:SQ_RSRC_IMG_{dim}
                 s_waitcnt vmcnt(0)
                 v_xor_b32 v8, 0x5a5a, v4
                 v_mov_b32 v9, v8
                 v_mov_b32 v10, v8
                 v_mov_b32 v11, v8
                 image_store v[8:11], {vaddr}, s[12:19] dmask:0xf dim:SQ_RSRC_IMG_{dim}
                 s_waitcnt_vscnt null, 0",
                tsharp(&t)
            );
            let (out, got) = run(&body, &inputs, mem.clone());
            let mut want = mem.clone();
            for l in 0..32 {
                let loaded: Vec<u32> = match at(l) {
                    Some(a) => mem[a..a + dwords as usize].to_vec(),
                    None => vec![0; dwords as usize],
                };
                assert_eq!(out.v[l][..dwords as usize], loaded[..], "{dim} oor {out_of_range} lane {l}");
                if let Some(a) = at(l) {
                    want[a..a + dwords as usize].fill(loaded[0] ^ 0x5a5a);
                }
            }
            assert!(got == want, "{dim} out of range {out_of_range}: stored texels differ");
        }
    }
}

/// The 2D dim on a 1D T# addresses its one row (y must be 0; a store with y 1 is dropped),
/// and on a 2D array T# its layer BASE_ARRAY: the stores RADV's compute copies into 1D and
/// layered images make (radv_meta_buffer_to_image_cs, seen running RADV on the model).
#[test]
fn two_d_dim_on_1d_and_array_tsharps() {
    let (w, h, layers) = (16u32, 4u32, 3u32);
    let one_d = t_of(img_type::IMG_1D, 20, w, 1, 0, 1);
    let array = ImageResource { base_array: 2, depth: 2, ..t_of(img_type::IMG_2D_ARRAY, 20, w, h, layers - 1, 1) };
    for (t, rows, slice) in [(one_d, 1, 0), (array, h, 2)] {
        let bytes = IMG_OFF as usize + model_offset(w, rows, 1, 4, 0, 0, layers, 0);
        let mem0 = vec![0u32; bytes / 4];
        let mut want = mem0.clone();
        let mut inputs = Vec::new();
        for l in 0..32u32 {
            let (x, y) = (l % w, l / w);
            inputs.push([x, y, 0, 0]);
            if y < rows {
                want[(IMG_OFF as usize + model_offset(w, rows, 1, 4, x, y, slice, 0)) / 4] = 100 + l;
            }
        }
        let body = format!(
            "{}
             v_mbcnt_lo_u32_b32 v4, -1, 0
             v_add_nc_u32 v4, 0x64, v4
             image_store v4, v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D unorm
             s_waitcnt_vscnt null, 0",
            tsharp(&t)
        );
        let (_, mem) = run(&body, &inputs, mem0);
        let diff: Vec<(usize, u32, u32)> =
            (0..mem.len()).filter(|&i| mem[i] != want[i]).map(|i| (i, mem[i], want[i])).take(6).collect();
        assert!(diff.is_empty(), "T# type {}: stored texels differ: {diff:?}", t.kind);
    }
}

/// image_store to the 16-bit packed UNORM formats (5_6_5, 1_5_5_5, 5_5_5_1, 4_4_4_4: image
/// formats 68..71), which RDNA3 stores (RADV offers them as storage images): each
/// component converted as the ISA's UNORM rule says (clamp to [0, 1], scale, round to
/// nearest even) and packed X first from the low bits, with the widths the format's name
/// lists from the top (`1_5_5_5`: a 1-bit W on top).
#[test]
fn packed_16_bit_unorm_formats_are_stored() {
    let w = 16u32;
    let vals = [0.0f32, 1.0, 0.5, 0.25, 2.0, -1.0, 0.1, 0.9, 0.75, 0.33, 0.66, 0.05, 0.95, 0.4, 0.6, 0.15];
    let comp = |x: u32, k: usize| if k == 3 { 0.5 } else { vals[(x as usize * 3 + k * 5) % vals.len()] };
    let unorm = |v: f32, bits: u32| {
        let max = ((1u32 << bits) - 1) as f64;
        (v.clamp(0.0, 1.0) as f64 * max).round_ties_even() as u32
    };
    // Lane l stores texel x = l % 16 (y 0) with components (v1, v2, v3, 0.5).
    let inputs: Vec<[u32; 4]> = (0..32u32)
        .map(|l| l % w)
        .map(|x| [x, comp(x, 0).to_bits(), comp(x, 1).to_bits(), comp(x, 2).to_bits()])
        .collect();
    // Format, X..W widths from the low bits.
    for (format, widths) in [(68, [5, 6, 5, 0]), (69, [5, 5, 5, 1]), (70, [1, 5, 5, 5]), (71, [4, 4, 4, 4])] {
        let t = t_of(img_type::IMG_2D, format, w, 1, 0, 1);
        let body = format!(
            "{}
             v_mov_b32 v8, v0
             v_mov_b32 v9, 0
             v_mov_b32 v4, v1
             v_mov_b32 v5, v2
             v_mov_b32 v6, v3
             v_mov_b32 v7, 0.5
             image_store v[4:7], v[8:9], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let mem = vec![0u32; (IMG_OFF as usize + 256) / 4];
        let (_, got) = run(&body, &inputs, mem);
        for x in 0..w {
            let (mut want, mut at) = (0u32, 0);
            for (k, &bits) in widths.iter().enumerate() {
                want |= unorm(comp(x, k), bits) << at;
                at += bits;
            }
            let off = IMG_OFF as usize + 2 * x as usize;
            let half = (got[off / 4] >> (8 * (off % 4))) & 0xffff;
            assert_eq!(half, want, "format {format} texel {x}");
        }
    }
}

/// RDNA3-NOTES, "Buffer data formats": stores apply DST_SEL the other way round from loads
/// (data component `i` goes to memory component `DST_SEL[i]`), so a T# that rotates its
/// components (RADV's B4G4R4A4 and B5G5R5A1: Y, Z, W, X over 4_4_4_4 and 5_5_5_1) stores
/// (R, G, B, A) where its loads read them: R in Y, G in Z, B in W, A in X. 8_8_8_8 UNORM
/// (the interpreter's fast path) and 32_32_32_32 UINT too; each loads back what it stored.
#[test]
fn rotated_dst_sel_stores_where_loads_read() {
    let w = 16u32;
    // UNORM values every width keeps exactly (0.2 = 3/15 = 51/255, 0.6 = 9/15 = 153/255).
    let unorm = [0.0f32, 1.0, 0.2, 0.6];
    // Format, component width in bits (0: 32-bit).
    for (format, bits) in [(71u32, 4u32), (42, 8), (61, 0)] {
        let mut t = t_of(img_type::IMG_2D, format, w, 1, 0, 1);
        t.dst_sel = [sel::Y, sel::Z, sel::W, sel::X];
        let data = |x: u32, k: u32| if bits == 0 { 100 * x + k } else { unorm[((x + k) % 4) as usize].to_bits() };
        let inputs: Vec<[u32; 4]> = (0..32u32).map(|l| std::array::from_fn(|k| data(l % w, k as u32))).collect();
        let body = format!(
            "{}
             v_mbcnt_lo_u32_b32 v8, -1, 0
             v_and_b32 v8, 15, v8
             v_mov_b32 v9, 0
             image_store v[0:3], v[8:9], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
             s_waitcnt_vscnt null, 0
             image_load v[4:7], v[8:9], s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D unorm
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let (out, got) = run(&body, &inputs, vec![0u32; (IMG_OFF as usize + 1024) / 4]);
        let width = if bits == 0 { 32 } else { bits };
        for x in 0..w {
            let bytes = (width / 2) as usize;
            let off = IMG_OFF as usize + bytes * x as usize;
            let texel: u128 =
                (0..bytes).map(|b| ((got[(off + b) / 4] >> (8 * ((off + b) % 4)) & 0xff) as u128) << (8 * b)).sum();
            // Memory component c holds data component (c + 3) % 4: A in X, R in Y, ...
            let want: u128 = (0..4u32)
                .map(|c| {
                    let v = data(x, (c + 3) % 4);
                    let v =
                        if bits == 0 { v } else { (f32::from_bits(v) * ((1u32 << bits) - 1) as f32).round() as u32 };
                    (v as u128) << (c * width)
                })
                .sum();
            assert_eq!(texel, want, "format {format} texel {x}: memory");
            assert_eq!(out.v[x as usize][..4], [0, 1, 2, 3].map(|k| data(x, k)), "format {format} texel {x}: load");
        }
    }
}

/// image_store to 5_9_9_9_FLOAT (E5B9G9R9, image format 67; RADV offers it as a storage
/// image): the three components share the exponent of the largest, as the Vulkan spec's
/// "RGB to Shared Exponent Conversion" says, checked against values worked out by hand
/// from it: 1.0 is mantissa 256 at exponent 16; a component past sharedexp_max
/// (65408) clamps to it (511 at 31); negatives and NaN store 0; a mantissa that rounds to
/// 512 takes the next exponent; the smallest exponent (0) holds 2^-24 steps.
#[test]
fn shared_exponent_stores_follow_the_specification() {
    // X, Y, Z, then the stored mantissas X, Y, Z and exponent.
    let cases: [([f32; 3], [u32; 4]); 7] = [
        ([1.0, 0.5, 0.0], [256, 128, 0, 16]),
        ([1e9, 0.0, 1.0], [511, 0, 0, 31]),
        ([-3.0, f32::NAN, 2.0], [0, 0, 256, 17]),
        // 1.999: 511.74 at exponent 16 rounds to 512, so exponent 17: 255.87 -> 256.
        ([1.999, 0.0, 0.0], [256, 0, 0, 17]),
        // Just below 0.5: 511.99997 at exponent 14 rounds to 512, so exponent 15.
        ([f32::from_bits(0x3eff_ffff), 0.0, 0.0], [256, 0, 0, 15]),
        ([3.0 * 2f32.powi(-24), 0.0, 0.0], [3, 0, 0, 0]),
        ([0.0, 0.0, 0.0], [0, 0, 0, 0]),
    ];
    let t = t_of(img_type::IMG_2D, 67, 8, 1, 0, 1);
    let inputs: Vec<[u32; 4]> =
        (0..32usize).map(|l| cases[l % 7].0.map(f32::to_bits)).map(|c| [c[0], c[1], c[2], 0]).collect();
    let body = format!(
        "{}
         v_mbcnt_lo_u32_b32 v8, -1, 0
         v_mov_b32 v9, 0
         v_cmp_gt_u32 vcc_lo, 7, v8
         s_and_b32 exec_lo, exec_lo, vcc_lo
         image_store v[0:2], v[8:9], s[12:19] dmask:0x7 dim:SQ_RSRC_IMG_2D unorm
         s_waitcnt_vscnt null, 0",
        tsharp(&t)
    );
    let (_, got) = run(&body, &inputs, vec![0u32; (IMG_OFF as usize + 256) / 4]);
    for (x, (rgb, [r, g, b, e])) in cases.iter().enumerate() {
        let w = got[IMG_OFF as usize / 4 + x];
        assert_eq!((w & 0x1ff, w >> 9 & 0x1ff, w >> 18 & 0x1ff, w >> 27), (*r, *g, *b, *e), "{rgb:?}");
    }
}
