//! MIMG on multisampled images (dims 2D_MSAA and 2D_MSAA_ARRAY): image_load, image_store,
//! image_atomic_add, image_msaa_load and image_get_resinfo against a CPU model written here
//! from the sources `exec/image.rs` cites: the sample index is the last address component,
//! the sample count 2^LAST_LEVEL (Mesa's MSAA T#), texels where addrlib's MSAA patterns put
//! them (`ImageResource::sample_offset`, checked against addrlib in `tests/swizzle.rs`),
//! and `image_msaa_load` returning one component of samples FRAGID + 0..3 (RDNA3 ISA
//! guide; LLVM's `AMDGPUImageIntrinsicOptimizer`).
//!
//! The image sits at the start of the harness's data buffer, aligned to 64 KiB for
//! SW_64KB_R_X; its T# is built in s[12:19].

mod common;

use common::{tsharp, Rng, WaveEnv};
use gpu::rsrc::{img_type, sel, ImageResource};
use gpu::ReportKind;

/// A `samples`-sample R32_UINT (format 20, or `format`) image of `w` x `h` and `layers`
/// layers in SW_64KB_R_X, as Mesa's T# describes it: LAST_LEVEL = MAX_MIP = log2(samples).
fn t_msaa(format: u32, w: u32, h: u32, layers: u32, samples: u32) -> ImageResource {
    let array = layers > 1;
    ImageResource {
        base: 0,
        format,
        width: w - 1,
        height: h - 1,
        depth: if array { layers - 1 } else { 0 },
        max_mip: samples.trailing_zeros(),
        last_level: samples.trailing_zeros(),
        sw_mode: 27,
        kind: if array { img_type::IMG_2D_MSAA_ARRAY } else { img_type::IMG_2D_MSAA },
        dst_sel: [sel::X, sel::Y, sel::Z, sel::W],
        ..Default::default()
    }
}

fn env(mem: Vec<u32>) -> WaveEnv {
    WaveEnv { mem, data_align: 65536, ..WaveEnv::default() }
}

/// Word index in the data buffer of sample `s` of (x, y, layer), 4-byte texels.
fn at(t: &ImageResource, x: u32, y: u32, layer: u32, s: u32) -> usize {
    t.sample_offset(4, x, y, layer, 0, s).expect("addressed") as usize / 4
}

fn id(x: u32, y: u32, layer: u32, s: u32) -> u32 {
    0x4000_0000 | s << 24 | layer << 20 | y << 10 | x
}

/// The image's words, each sample of each texel holding its own [`id`].
fn filled(t: &ImageResource, w: u32, h: u32, layers: u32, samples: u32) -> Vec<u32> {
    let words = at(t, 0, 0, layers, 0).max(at(t, w - 1, h - 1, layers - 1, samples - 1) + 1);
    let mut mem = vec![0u32; words + 64];
    for l in 0..layers {
        for y in 0..h {
            for x in 0..w {
                for s in 0..samples {
                    assert_eq!(mem[at(t, x, y, l, s)], 0, "two samples at one address");
                    mem[at(t, x, y, l, s)] = id(x, y, l, s);
                }
            }
        }
    }
    mem
}

/// image_load then image_store of every sample count and both dims: each lane reads the
/// sample it names and writes it back changed; a sample index at the count, or a layer past
/// the view, reads 0 and stores nothing.
#[test]
fn loads_and_stores_address_each_sample() {
    for (samples, layers) in [(2, 1), (4, 3), (8, 1), (8, 2)] {
        let (w, h) = (21, 13);
        let t = t_msaa(20, w, h, layers, samples);
        let mem0 = filled(&t, w, h, layers, samples);
        let array = layers > 1;
        let mut rng = Rng((samples + layers) as u64);
        let inputs: Vec<[u32; 4]> = (0..32u32)
            .map(|l| {
                let (x, y) = (rng.next() % w, rng.next() % h);
                let layer = if l == 1 && array { layers } else { rng.next() % layers };
                let s = if l == 0 { samples } else { rng.next() % samples };
                if array {
                    [x, y, layer, s]
                } else {
                    [x, y, s, 0]
                }
            })
            .collect();
        let (dim, vaddr) = if array { ("2D_MSAA_ARRAY", "v[0:3]") } else { ("2D_MSAA", "v[0:2]") };
        let body = format!(
            "{}
             image_load v4, {vaddr}, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_{dim}
             s_waitcnt vmcnt(0)
             v_xor_b32 v5, 0x0f000000, v4
             v_cmp_ne_u32 vcc_lo, 0, v4
             s_and_saveexec_b32 s0, vcc_lo
             v_xor_b32 v5, 0x00800000, v5
             image_store v5, {vaddr}, s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_{dim}
             s_waitcnt_vscnt null, 0
             s_mov_b32 exec_lo, s0",
            tsharp(&t)
        );
        let (out, mem) = common::run_wave_env(&body, &inputs, false, &env(mem0.clone()));
        let mut want = mem0;
        for (l, i) in inputs.iter().enumerate() {
            let [x, y, layer, s] = if array { *i } else { [i[0], i[1], 0, i[2]] };
            let inside = s < samples && layer < layers;
            let v = if inside { id(x, y, layer, s) } else { 0 };
            assert_eq!(out.v[l][0], v, "{samples} samples {layers} layers lane {l} {i:?}");
            if inside {
                want[at(&t, x, y, layer, s)] = v ^ 0x0f80_0000;
            }
        }
        assert!(mem == want, "{samples} samples, {layers} layers: stored words differ");
    }
}

/// image_msaa_load: dmask's one component of samples FRAGID + 0..3 in four registers (a
/// two-component 32_32_UINT image, component 1), past the sample count 0; with D16 two
/// registers of 16-bit halves.
#[test]
fn msaa_load_returns_one_component_of_four_samples() {
    let (w, h, layers, samples) = (9, 7, 2, 8);
    // 32_32_UINT (48): two words per sample; component 0 the id, component 1 its complement.
    let t = t_msaa(48, w, h, layers, samples);
    let word = |x: u32, y: u32, l: u32, s: u32| t.sample_offset(8, x, y, l, 0, s).unwrap() as usize / 4;
    let mut mem0 = vec![0u32; word(0, 0, layers, 0).max(word(w - 1, h - 1, layers - 1, samples - 1)) + 64];
    for l in 0..layers {
        for y in 0..h {
            for x in 0..w {
                for s in 0..samples {
                    mem0[word(x, y, l, s)] = id(x, y, l, s);
                    mem0[word(x, y, l, s) + 1] = !id(x, y, l, s);
                }
            }
        }
    }
    let mut rng = Rng(5);
    let inputs: Vec<[u32; 4]> = (0..32)
        .map(|l| [rng.next() % w, rng.next() % h, rng.next() % layers, if l % 3 == 0 { 4 } else { 0 }])
        .collect();
    let body = format!(
        "{}
         image_msaa_load v[4:7], v[0:3], s[12:19] dmask:0x2 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY
         image_msaa_load v[8:9], v[0:3], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA_ARRAY d16
         s_waitcnt vmcnt(0)",
        tsharp(&t)
    );
    let (out, _) = common::run_wave_env(&body, &inputs, false, &env(mem0));
    for (l, &[x, y, layer, f]) in inputs.iter().enumerate() {
        for i in 0..4 {
            assert_eq!(out.v[l][i], !id(x, y, layer, f + i as u32), "lane {l} register {i}");
        }
        // D16 of a 32-bit UINT component: its low 16 bits (as MUBUF d16 format loads).
        let half = |i: u32| id(x, y, layer, f + i) & 0xffff;
        assert_eq!(out.v[l][4], half(0) | half(1) << 16, "lane {l} d16");
        assert_eq!(out.v[l][5], half(2) | half(3) << 16, "lane {l} d16");
    }
    // Four samples: FRAGID 4 is past the count.
    let t4 = t_msaa(20, 8, 8, 1, 4);
    let mem = filled(&t4, 8, 8, 1, 4);
    let inputs: Vec<[u32; 4]> = (0..32).map(|l| [l % 8, l / 4, if l % 2 == 1 { 4 } else { 0 }, 0]).collect();
    let body = format!(
        "{}
         image_msaa_load v[4:7], v[0:2], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
         s_waitcnt vmcnt(0)",
        tsharp(&t4)
    );
    let (out, _) = common::run_wave_env(&body, &inputs, false, &env(mem));
    for (l, &[x, y, f, _]) in inputs.iter().enumerate() {
        for i in 0..4 {
            let want = if f == 0 { id(x, y, 0, i as u32) } else { 0 };
            assert_eq!(out.v[l][i], want, "lane {l} register {i}");
        }
    }
}

/// image_atomic_add on one sample changes that sample only and returns its old value.
#[test]
fn atomics_act_on_one_sample() {
    let t = t_msaa(20, 4, 4, 1, 4);
    let mem0 = filled(&t, 4, 4, 1, 4);
    // Lanes l and l + 16 add to the same sample: two additions land.
    let inputs: Vec<[u32; 4]> = (0..32).map(|l| [l % 4, (l / 4) % 4, (l / 16 + l) % 4, 0]).collect();
    let body = format!(
        "{}
         v_mov_b32 v4, 1
         image_atomic_add v4, v[0:2], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA glc
         s_waitcnt vmcnt(0)",
        tsharp(&t)
    );
    let (_, mem) = common::run_wave_env(&body, &inputs, false, &env(mem0.clone()));
    let mut want = mem0;
    for &[x, y, s, _] in &inputs {
        want[at(&t, x, y, 0, s)] += 1;
    }
    assert!(mem == want, "atomic results differ");
}

/// image_get_resinfo on MSAA T#s: width, height and (arrays) the view's layers; a nonzero
/// mip operand returns 0.
#[test]
fn resinfo_gives_the_size_and_layers() {
    for (layers, dim) in [(1, "2D_MSAA"), (5, "2D_MSAA_ARRAY")] {
        let mut t = t_msaa(20, 30, 17, layers, 4);
        if layers > 1 {
            t.base_array = 1;
        }
        let inputs: Vec<[u32; 4]> = (0..32).map(|l| [(l % 2 == 1) as u32, 0, 0, 0]).collect();
        let body = format!(
            "{}
             image_get_resinfo v[4:6], v0, s[12:19] dmask:0x7 dim:SQ_RSRC_IMG_{dim}
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let (out, _) = common::run_wave_env(&body, &inputs, false, &env(vec![0; 64]));
        for (l, i) in inputs.iter().enumerate() {
            // The array view starts at layer 1: layers - 1 of them; the 2D one has none.
            let want = if i[0] == 0 { [30, 17, layers.saturating_sub(1)] } else { [0; 3] };
            assert_eq!(out.v[l][..3], want, "{dim} lane {l}");
        }
    }
}

/// What softnavi does not execute on MSAA is a named fault: image_msaa_load of two
/// components, at a FRAGID not a multiple of 4, through a swizzling DST_SEL, or on a dim
/// that is not MSAA; the level count of image_get_resinfo; sampling an MSAA dim; an MSAA
/// T# in a mode addrlib has no MSAA colour surface in.
#[test]
fn unexecuted_msaa_forms_are_named_faults() {
    let ok = t_msaa(20, 8, 8, 1, 4);
    let msaa_load = "image_msaa_load v[4:7], v[0:2], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA";
    let two = [0u32, 0, 2, 0];
    let cases: Vec<(ImageResource, &str, [u32; 4], &str)> = vec![
        (
            ok,
            // image_msaa_load v[4:7], v[0:2], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D_MSAA, which
            // llvm-mc refuses to assemble ("only one bit must be set").
            ".long 0xf0600318, 0x00030400",
            [0; 4],
            "dmask 0x3",
        ),
        (ok, msaa_load, two, "FRAGID 2"),
        (ImageResource { dst_sel: [sel::Y, sel::X, sel::Z, sel::W], ..ok }, msaa_load, [0; 4], "DST_SEL"),
        (
            ok,
            // image_msaa_load v[4:7], v[0:1], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D, which llvm-mc
            // refuses ("invalid dim; must be MSAA type").
            ".long 0xf0600104, 0x00030400",
            [0; 4],
            "with a dim that is not MSAA",
        ),
        (ok, "image_get_resinfo v[4:7], v0, s[12:19] dmask:0xf dim:SQ_RSRC_IMG_2D_MSAA", [0; 4], "level count"),
        (
            ok,
            "image_sample_l v4, v[0:3], s[12:19], s[20:23] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA",
            [0; 4],
            "with an MSAA dim",
        ),
        // Z order with samples: addrlib's depth patterns cover 2- and 4-byte elements only.
        (
            ImageResource { sw_mode: 24, format: 48, ..ok },
            "image_load v[4:5], v[0:2], s[12:19] dmask:0x3 dim:SQ_RSRC_IMG_2D_MSAA",
            [0; 4],
            "SW_MODE 24",
        ),
    ];
    for (t, inst, input, want) in cases {
        let body = format!("{}\n {inst}\n s_waitcnt vmcnt(0)", tsharp(&t));
        let r = common::try_run_wave_env(&body, &[input; 32], false, &env(vec![0; 16384])).map(|_| ()).expect_err(inst);
        let text = r.to_string();
        assert_eq!(r.kind, ReportKind::IllegalInstruction, "{inst}: {text}");
        assert!(text.contains(want), "{inst}: want {want:?} in\n{text}");
    }
}

/// The 2D_MSAA dim on a 2D_MSAA_ARRAY T# (RADV's 2D view of one layer of a layered image:
/// the array type, BASE_ARRAY at the layer) reads and writes layer BASE_ARRAY; past DEPTH
/// it is out of range.
#[test]
fn msaa_2d_dim_on_an_array_tsharp_uses_base_array() {
    let (w, h, layers, samples) = (8, 8, 3, 2);
    let full = t_msaa(20, w, h, layers, samples);
    let mem0 = filled(&full, w, h, layers, samples);
    for (base_array, depth) in [(2, 2), (1, 1), (3, 2)] {
        let t = ImageResource { base_array, depth, ..full };
        let inputs: Vec<[u32; 4]> = (0..32).map(|l| [l % 8, l / 4, l % 2, 0]).collect();
        let body = format!(
            "{}
             image_load v4, v[0:2], s[12:19] dmask:0x1 dim:SQ_RSRC_IMG_2D_MSAA
             s_waitcnt vmcnt(0)",
            tsharp(&t)
        );
        let (out, _) = common::run_wave_env(&body, &inputs, false, &env(mem0.clone()));
        for (l, &[x, y, s, _]) in inputs.iter().enumerate() {
            let want = if base_array <= depth { id(x, y, base_array, s) } else { 0 };
            assert_eq!(out.v[l][0], want, "BASE_ARRAY {base_array} lane {l}");
        }
    }
}
