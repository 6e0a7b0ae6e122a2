//! Cases of `tests/spirv/vk13/`: the shader side of Vulkan 1.2/1.3: the Vulkan memory
//! model, zero-initialised workgroup memory, subgroup operations on 8/16/64-bit types, a
//! dynamically uniform broadcast id, a typical SPIR-V 1.6 shader (LocalSizeId,
//! OpCopyLogical) and the float controls execution modes.

use ash::vk::SubgroupFeatureFlags as F;
use half::f16;
use softnavi_tests::check::{bytes, u32s, Lcg, Tol};

use crate::harness::{Case, Need, Output};

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    memory_model_cases(&mut out);
    zero_init_cases(&mut out);
    subgroup_cases(&mut out);
    spirv16_cases(&mut out);
    float_control_cases(&mut out);
    out.push(denorm_flush_ops_case());
    out.push(ptr_diff_case());
    out.push(device_index_case());
    out.push(spec_composite_case());
    out
}

/// OpSpecConstantOp with several literals (spec_composite.spvasm), specialised to a, b, c.
fn spec_composite_case() -> Case {
    let (a, b, c) = (-17i32, 40_000i32, 9i32);
    let want: Vec<i32> = (0..64).flat_map(|_| [a, b, 0, a, c, b, 0]).collect();
    Case::new("vk13/spec_composite", [1, 1, 1])
        .layer_crashes("Debian 12's layer (1.3.239) segfaults on the multi-literal OpSpecConstantOps")
        .spec(0, a.to_le_bytes().to_vec())
        .spec(1, b.to_le_bytes().to_vec())
        .spec(2, c.to_le_bytes().to_vec())
        .output(7 * 64 * 4)
        .expect(0, want, Tol::Exact)
}

fn memory_model_cases(out: &mut Vec<Case>) {
    // 64 workgroups of 64: each publishes its data with a device-scope release and reads
    // another's with device-scope acquires. A software GPU runs waves in an order where a
    // dropped ordering may not show, so passing here proves the lowering accepts and keeps
    // the operations; the orderings themselves are checked in the IR (compiler-bridge tests).
    let groups = 64usize;
    out.push(
        Case::new("vk13/mm_message", [groups as u32, 1, 1])
            .output(groups * 64 * 4)
            .output(groups * 4)
            .output(groups * 64 * 4)
            .needs(&[Need::VulkanMemoryModel])
            .check(move |o: &Output| {
                let data: Vec<u32> = o.get(0);
                for (i, d) in data.iter().enumerate().take(groups * 64) {
                    let want = (i / 64 * 1000 + i % 64 + 1) as u32;
                    if *d != want {
                        return Err(format!("data[{i}] = {d}, want {want}"));
                    }
                }
                let seen: Vec<u32> = o.get(2);
                if let Some(i) = seen.iter().take(groups * 64).position(|s| *s > 1) {
                    return Err(format!("invocation {i} saw a flag before the data it publishes"));
                }
                let observed = seen.iter().filter(|s| **s == 1).count();
                eprintln!("mm_message: {observed} of {} invocations saw another workgroup's flag", groups * 64);
                Ok(())
            }),
    );

    let n = 512usize;
    let a = u32s(31);
    let a: Vec<u32> = a.iter().cycle().take(n).copied().collect();
    let mut hist = vec![0u32; 18];
    for v in &a {
        hist[(v & 15) as usize] += 1;
    }
    hist[16] = n as u32;
    hist[17] = a.iter().copied().max().unwrap_or(0);
    let old: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761)).collect();
    let mut init = vec![0u32; 2 * n];
    let mut want_out = vec![0u32; 2 * n];
    for i in 0..n {
        init[2 * i] = old[i];
        want_out[2 * i] = a[i];
        want_out[2 * i + 1] = old[i].wrapping_add(a[i]);
    }
    out.push(
        Case::new("vk13/mm_atomics", [(n / 128) as u32, 1, 1])
            .storage_of(&a)
            .output(18 * 4)
            .storage_of(&init)
            .needs(&[Need::VulkanMemoryModel])
            .check(move |o: &Output| {
                o.expect(1, &hist, Tol::Exact)?;
                o.expect(2, &want_out, Tol::Exact)
            }),
    );
}

fn zero_init_cases(out: &mut Vec<Case>) {
    // Many more workgroups than the device holds at once, so later ones reuse LDS the
    // earlier ones scribbled over.
    let groups = 256usize;
    out.push(
        Case::new("vk13/zero_init", [groups as u32, 1, 1])
            .output(groups * 64 * 4)
            .needs(&[Need::ZeroInitializeWorkgroupMemory])
            .expect(0, vec![0u32; groups * 64], Tol::Exact),
    );
}

/// Sign-extends the low `w` bits of `v`.
fn wrap(v: i64, w: u32) -> i64 {
    if w >= 64 {
        v
    } else {
        (v << (64 - w)) >> (64 - w)
    }
}

/// What `sg_ext_*` computes for invocation `l` (local index) of a 64-invocation workgroup
/// whose values are `x`, at subgroup size `s`: 16 values, as i64 (ints) or f64 (floats).
fn sg_ext_int(x: &[i64], l: usize, s: usize, w: u32) -> Vec<i64> {
    let base = l / s * s;
    let id = l % s;
    let lanes = &x[base..base + s];
    let fold = |range: std::ops::Range<usize>, id0: i64, op: &dyn Fn(i64, i64) -> i64| -> i64 {
        lanes[range].iter().fold(id0, |a, b| op(a, *b))
    };
    let max_t = if w >= 64 { i64::MAX } else { (1i64 << (w - 1)) - 1 };
    let mask = if w >= 64 { u64::MAX } else { (1u64 << w) - 1 };
    let umin = lanes.iter().map(|v| (*v as u64) & mask).min().unwrap_or(mask);
    let r = vec![
        fold(0..s, 0, &|a, b| a.wrapping_add(b)),
        fold(0..id + 1, 1, &|a, b| a.wrapping_mul(b)),
        fold(0..id, max_t, &|a, b| a.min(b)),
        fold(0..s, i64::MIN, &|a, b| a.max(b)),
        fold(0..s, -1, &|a, b| a & b),
        fold(0..id + 1, 0, &|a, b| a | b),
        fold(0..id, 0, &|a, b| a ^ b),
        umin as i64,
        lanes[5],
        lanes[0],
        lanes[(id * 3 + 1) % s],
        lanes[id ^ 1],
        if id >= 1 { lanes[id - 1] } else { 0 },
        if id + 2 < s { lanes[id + 2] } else { 0 },
        fold(0..id + 1, max_t, &|a, b| a.min(b)),
        lanes[id ^ 1],
    ];
    r.into_iter().map(|v| wrap(v, w)).collect()
}

fn sg_ext_float(x: &[f64], l: usize, s: usize) -> Vec<f64> {
    let base = l / s * s;
    let id = l % s;
    let lanes = &x[base..base + s];
    let fold = |range: std::ops::Range<usize>, id0: f64, op: &dyn Fn(f64, f64) -> f64| -> f64 {
        lanes[range].iter().fold(id0, |a, b| op(a, *b))
    };
    vec![
        fold(0..s, 0.0, &|a, b| a + b),
        fold(0..id + 1, 0.0, &|a, b| a + b),
        fold(0..id, f64::INFINITY, &|a, b| a.min(b)),
        fold(0..s, f64::NEG_INFINITY, &|a, b| a.max(b)),
        fold(0..id, f64::NEG_INFINITY, &|a, b| a.max(b)),
        fold(0..id + 1, f64::NEG_INFINITY, &|a, b| a.max(b)),
        fold(0..id, 0.0, &|a, b| a + b),
        fold(0..s, f64::INFINITY, &|a, b| a.min(b)),
        lanes[5],
        lanes[0],
        lanes[(id * 3 + 1) % s],
        lanes[id ^ 1],
        if id >= 1 { lanes[id - 1] } else { 0.0 },
        if id + 2 < s { lanes[id + 2] } else { 0.0 },
        fold(0..id + 1, f64::INFINITY, &|a, b| a.min(b)),
        lanes[id ^ 1],
    ]
}

/// The case at the device's subgroup size and, where subgroup size control allows, at
/// 32 and 64.
fn sizes(case: impl Fn() -> Case) -> Vec<Case> {
    let mut out = vec![case()];
    for s in [32, 64] {
        let mut c = case().subgroup_size(s);
        c.name = format!("{}:s{s}", c.name);
        out.push(c);
    }
    out
}

fn small(seed: u64, n: usize, lo: i64, hi: i64) -> Vec<i32> {
    let mut r = Lcg(seed);
    (0..n).map(|_| (lo + (r.next() % (hi - lo + 1) as u64) as i64) as i32).collect()
}

fn subgroup_cases(out: &mut Vec<Case>) {
    let ops = F::ARITHMETIC | F::BALLOT | F::SHUFFLE | F::SHUFFLE_RELATIVE | F::QUAD;
    let groups = 2usize;
    let n = groups * 64;
    let int_cases: [(&'static str, u32, Need, i64, i64); 3] = [
        ("vk13/sg_ext_i8", 8, Need::Int8, -128, 127),
        ("vk13/sg_ext_i16", 16, Need::Int16, -32768, 32767),
        ("vk13/sg_ext_i64", 64, Need::Int64, i64::from(i32::MIN), i64::from(i32::MAX)),
    ];
    for (shader, w, need, lo, hi) in int_cases {
        let a = small(u64::from(w), n, lo, hi);
        out.extend(sizes(|| {
            let a = a.clone();
            let x: Vec<i64> = a.iter().map(|v| wrap(i64::from(*v), w)).collect();
            Case::new(shader, [groups as u32, 1, 1])
                .storage_of(&a)
                .output(n * 16 * if w == 64 { 8 } else { 4 })
                .needs(&[need, Need::SubgroupExtendedTypes, Need::Subgroup(ops)])
                .check(move |o: &Output| {
                    let s = o.subgroup_size as usize;
                    let want: Vec<i64> = (0..n).flat_map(|i| sg_ext_int(&x[i / 64 * 64..], i % 64, s, w)).collect();
                    if w == 64 {
                        o.expect(1, &want, Tol::Exact)
                    } else {
                        let want: Vec<i32> = want.iter().map(|v| *v as i32).collect();
                        o.expect(1, &want, Tol::Exact)
                    }
                })
        }));
    }
    for (shader, need) in [("vk13/sg_ext_f16", Need::Float16), ("vk13/sg_ext_f64", Need::Float64)] {
        let a = small(7, n, -4, 4);
        out.extend(sizes(|| {
            let x: Vec<f64> = a.iter().map(|v| f64::from(*v)).collect();
            let f64_out = shader.ends_with("f64");
            Case::new(shader, [groups as u32, 1, 1])
                .storage_of(&a)
                .output(n * 16 * if f64_out { 8 } else { 4 })
                .needs(&[need, Need::SubgroupExtendedTypes, Need::Subgroup(ops)])
                .check(move |o: &Output| {
                    let s = o.subgroup_size as usize;
                    let want: Vec<f64> = (0..n).flat_map(|i| sg_ext_float(&x[i / 64 * 64..], i % 64, s)).collect();
                    if f64_out {
                        o.expect(1, &want, Tol::Abs(0.0))
                    } else {
                        let want: Vec<f32> = want.iter().map(|v| *v as f32).collect();
                        o.expect(1, &want, Tol::Abs(0.0))
                    }
                })
        }));
    }

    // Clustered reductions on every extended type, against (cluster size, fold) references.
    let a = small(9, n, -100, 100);
    out.extend(sizes(|| {
        let a = a.clone();
        Case::new("vk13/sg_ext_clustered", [groups as u32, 1, 1])
            .storage_of(&a)
            .output(n * 6 * 8)
            .needs(&[
                Need::Int8,
                Need::Int16,
                Need::Int64,
                Need::Float16,
                Need::Float64,
                Need::SubgroupExtendedTypes,
                Need::Subgroup(F::ARITHMETIC | F::CLUSTERED),
            ])
            .check(move |o: &Output| {
                let cluster = |i: usize, size: usize| -> Vec<i64> {
                    let first = i / size * size;
                    a[first..first + size].iter().map(|v| i64::from(*v)).collect()
                };
                let want: Vec<i64> = (0..n)
                    .flat_map(|i| {
                        [
                            wrap(cluster(i, 4).iter().sum(), 8),
                            cluster(i, 8).into_iter().max().unwrap_or(0),
                            cluster(i, 2).iter().product(),
                            cluster(i, 4).iter().sum(),
                            cluster(i, 8).into_iter().min().unwrap_or(0),
                            wrap(cluster(i, 8).iter().fold(0xff, |acc, v| acc & (v & 0xff)), 8),
                        ]
                    })
                    .collect();
                o.expect(1, &want, Tol::Exact)
            })
    }));

    let a = u32s(44);
    let a: Vec<u32> = a.iter().cycle().take(n).copied().collect();
    let (base, lane_u) = (3u32, 9u32);
    out.extend(sizes(|| {
        let a = a.clone();
        Case::new("vk13/broadcast_dynamic_id", [groups as u32, 1, 1])
            .storage_of(&a)
            .uniform(bytes(&[lane_u, 0, 0, 0]))
            .output(n * 16)
            .push(bytes(&[base]))
            .needs(&[Need::Int16, Need::SubgroupExtendedTypes, Need::Subgroup(F::BALLOT)])
            .check(move |o: &Output| {
                let s = o.subgroup_size as usize;
                let mut want = Vec::new();
                for i in 0..n {
                    let first = i / s * s;
                    let lane = |k: u32| a[first + k as usize % s];
                    let acc = (0..4u32).fold(0u32, |acc, k| acc.wrapping_mul(31).wrapping_add(lane(base + k * 7)));
                    want.extend([acc, lane(lane_u), !lane(lane_u), lane(lane_u + base) & 0xffff]);
                }
                o.expect(2, &want, Tol::Exact)
            })
    }));
}

fn spirv16_cases(out: &mut Vec<Case>) {
    // Workgroup 8 x 4 from the LocalSizeId constants, 4 x 2 workgroups: 32 x 8 invocations.
    let (wx, wy, gx, gy) = (8usize, 4usize, 4usize, 2usize);
    let n = wx * wy * gx * gy;
    let a = u32s(5);
    let mut input = Vec::new();
    let mut want = Vec::new();
    let mut ids = Vec::new();
    for i in 0..n {
        let (x, y) = (i % (wx * gx), i / (wx * gx));
        let local = (x % wx + y % wy * wx) as u32;
        let v = a[i % a.len()];
        let (b0, b1) = ((v % 1000) as f32 * 0.25, (v >> 20) as f32);
        input.extend([v, 0, b0.to_bits(), b1.to_bits()]);
        want.extend([v.wrapping_add(local), 0, (b0 * 2.0).to_bits(), (b1 * 2.0).to_bits()]);
        ids.extend([wx as u32, wy as u32, 1, local]);
    }
    out.push(
        Case::new("vk13/localsize_id", [gx as u32, gy as u32, 1])
            .storage_of(&input)
            .output(n * 16)
            .output(n * 16)
            .spec(0, bytes(&[wx as u32]))
            .spec(1, bytes(&[wy as u32]))
            .check(move |o: &Output| {
                // Word 1 of each output struct is padding: compare a, b.x, b.y only.
                let got: Vec<u32> = o.get(1);
                for (i, (g, w)) in got.iter().zip(&want).enumerate() {
                    if i % 4 != 1 && g != w {
                        return Err(format!("word {i} of binding 1: {g:#x}, want {w:#x}"));
                    }
                }
                o.expect(2, &ids, Tol::Exact)
            }),
    );
}

fn float_control_cases(out: &mut Vec<Case>) {
    let den32 = f32::from_bits(0x0040_0000);
    let den64 = f64::from_bits(0x0008_0000_0000_0000);
    let a32 = [den32, 1e-20, 1.0, -0.0, f32::INFINITY, f32::NAN, 3.0, -den32];
    let b32 = [1.0, 1e-20, den32, 1.0, -1.0, 1.0, 1.0 / 3.0, 2.0];
    let a64 = [den64, 1e-160, 1.0, -0.0, f64::INFINITY, f64::NAN, 3.0, -den64];
    let b64 = [1.0, 1e-160, den64, 1.0, -1.0, 1.0, 1.0 / 3.0, 2.0];
    let keep32: Vec<f32> = a32.iter().zip(&b32).map(|(a, b)| a * b).collect();
    let keep64: Vec<f64> = a64.iter().zip(&b64).map(|(a, b)| a * b).collect();
    let flush = |v: f32| if v.is_subnormal() { 0.0 } else { v };
    let flush64 = |v: f64| if v.is_subnormal() { 0.0 } else { v };
    let ftz32: Vec<f32> = a32.iter().zip(&b32).map(|(a, b)| flush(flush(*a) * flush(*b))).collect();
    let ftz64: Vec<f64> = a64.iter().zip(&b64).map(|(a, b)| flush64(flush64(*a) * flush64(*b))).collect();
    let pad = |v: &[f32]| -> Vec<f32> { v.iter().cycle().take(64).copied().collect() };
    let pad64 = |v: &[f64]| -> Vec<f64> { v.iter().cycle().take(64).copied().collect() };
    for (shader, want32, want64, tol) in [
        ("vk13/denorm_flush", ftz32, ftz64.clone(), Tol::Abs(0.0)),
        ("vk13/denorm_preserve", keep32.clone(), keep64.clone(), Tol::Exact),
        // 32-bit denormals kept while 64-bit ones flush (denormBehaviorIndependence).
        ("vk13/denorm_mixed", keep32.clone(), ftz64, Tol::Abs(0.0)),
    ] {
        let (want32, want64) = (pad(&want32), pad64(&want64));
        let (keep32, keep64) = (pad(&keep32), pad64(&keep64));
        out.push(
            Case::new(shader, [1, 1, 1])
                .storage_of(&pad(&a32))
                .storage_of(&pad(&b32))
                .output(64 * 4)
                .storage_of(&pad64(&a64))
                .storage_of(&pad64(&b64))
                .output(64 * 8)
                .needs(&[Need::Float64])
                .check(move |o: &Output| {
                    let r = o.expect(2, &want32, tol).and_then(|_| o.expect(5, &want64, tol));
                    // Lavapipe's float controls properties are its own (llvmpipe runs with
                    // the host's denormal settings): either result is its answer.
                    if r.is_err() && o.lavapipe() {
                        let ftz = |v: f32| if v.is_subnormal() { 0.0 } else { v };
                        let ftz64 = |v: f64| if v.is_subnormal() { 0.0 } else { v };
                        let any32 = o.expect(2, &keep32, Tol::Abs(0.0)).is_ok()
                            || o.expect(2, &keep32.iter().map(|v| ftz(*v)).collect::<Vec<_>>(), Tol::Abs(0.0)).is_ok()
                            || o.expect(2, &want32, Tol::Abs(0.0)).is_ok();
                        let any64 = o.expect(5, &keep64, Tol::Abs(0.0)).is_ok()
                            || o.expect(5, &keep64.iter().map(|v| ftz64(*v)).collect::<Vec<_>>(), Tol::Abs(0.0))
                                .is_ok()
                            || o.expect(5, &want64, Tol::Abs(0.0)).is_ok();
                        if any32 && any64 {
                            return Ok(());
                        }
                    }
                    r
                }),
        );
    }
}

/// `denorm_flush_ops.spvasm`: negation, FAbs, Length, FSign and the half packing under
/// DenormFlushToZero, against the float controls rule (arithmetic, conversions and
/// GLSL.std.450 results flush denormal inputs and results; zeros compare equal whatever
/// their sign). Skipped where the mode is not offered (lavapipe, whose compiler crashes on
/// the flushing half unpack).
fn denorm_flush_ops_case() -> Case {
    let a32 = [f32::from_bits(0x0040_0000), -f32::from_bits(1), 1.5, -2.0, -0.0, f32::MIN_POSITIVE, -3.0e-39, 0.25];
    let a64 =
        [f64::from_bits(0x0008_0000_0000_0000), -f64::from_bits(1), 1.5, -2.0, -0.0, f64::MIN_POSITIVE, -1e-310, 0.25];
    let halves: [u32; 8] =
        [0x8001_0001, 0x03ff_0400, 0x3c00_8200, 0xc000_0000, 0x7bff_83ff, 0x0200_3800, 0, 0x8400_0123];
    let h32 = [1e-5f32, 3e-8, 6.1e-5, 1.0, 65504.0, f32::from_bits(0x0040_0000), 7e-5, -2.5e-6];
    let pad = |n: usize| (0..64).map(move |i| i % n);
    let (a32, a64): (Vec<f32>, Vec<f64>) = (pad(8).map(|i| a32[i]).collect(), pad(8).map(|i| a64[i]).collect());
    let (halves, h32): (Vec<u32>, Vec<f32>) = (pad(8).map(|i| halves[i]).collect(), pad(8).map(|i| h32[i]).collect());
    // (flushing, keeping) references.
    let refs = |flush: bool| {
        let f = |v: f32| if flush && v.is_subnormal() { 0.0 } else { v };
        let d = |v: f64| if flush && v.is_subnormal() { 0.0 } else { v };
        let h = |v: f16| if flush && !v.is_normal() && v.is_finite() { 0.0 } else { f32::from(v) };
        let sign = |v: f64| if v == 0.0 { 0.0 } else { v.signum() };
        let r32: Vec<f32> = (0..64)
            .flat_map(|i| {
                let x = f(a32[i]);
                let (lo, hi) = (f16::from_bits(halves[i] as u16), f16::from_bits((halves[i] >> 16) as u16));
                [-x, x.abs(), x.abs(), sign(x.into()) as f32, h(lo), h(hi)]
            })
            .collect();
        let r64: Vec<f64> = (0..64).map(|i| d(a64[i])).flat_map(|x| [-x, x.abs(), x.abs(), sign(x)]).collect();
        let p: Vec<f32> = (0..64)
            .flat_map(|i| {
                let x = f(h32[i]);
                [h(f16::from_f32(x)), h(f16::from_f32(-x))]
            })
            .collect();
        (r32, r64, p)
    };
    let want = refs(true);
    assert!(want != refs(false), "the inputs have denormals");
    Case::new("vk13/denorm_flush_ops", [1, 1, 1])
        .needs(&[Need::Float64, Need::DenormFlushToZero(16), Need::DenormFlushToZero(32), Need::DenormFlushToZero(64)])
        .storage_of(&a32)
        .storage_of(&a64)
        .storage_of(&halves)
        .storage_of(&h32)
        .output(64 * 6 * 4)
        .output(64 * 4 * 8)
        .output(64 * 4)
        .check(move |o: &Output| {
            let p: Vec<f32> = o
                .get::<u32>(6)
                .iter()
                .flat_map(|w| [*w as u16, (w >> 16) as u16])
                .map(|h| f16::from_bits(h).into())
                .collect();
            o.expect(4, &want.0, Tol::Abs(0.0))?;
            o.expect(5, &want.1, Tol::Abs(0.0))?;
            match p.iter().zip(&want.2).position(|(g, w)| g != w) {
                Some(j) => Err(format!("packed half {j} (binding 6): {:e}, want {:e}", p[j], want.2[j])),
                None => Ok(()),
            }
        })
}

/// OpPtrDiff (`ptr_diff.spvasm`): element distances in a buffer array and a Workgroup array.
/// `gl_DeviceIndex` is 0: one device per device group (CTS
/// `compute.pipeline.device_group.device_index` failed pipeline creation before).
pub fn device_index_case() -> Case {
    let want: Vec<u32> = (0..128u32).collect();
    Case::new("vk13/device_index", [2, 1, 1]).output(128 * 4).expect(0, want, Tol::Exact)
}

pub fn ptr_diff_case() -> Case {
    let want: Vec<i32> = (0..64i32).flat_map(|i| [((i * 3) & 63) - i, i]).collect();
    Case::new("vk13/ptr_diff", [1, 1, 1]).output(64 * 12).output(64 * 8).needs(&[Need::VariablePointers]).expect(
        1,
        want,
        Tol::Exact,
    )
}
