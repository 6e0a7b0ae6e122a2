//! CPU references of the memory kernels (tests/opencl/memory.cl and buffer.ll): LDS,
//! scratch, flat, global and buffer instructions, end to end. Every kernel runs N = 128
//! work-items in two workgroups of 64. Where atomics make the order of events free, the
//! check is on what does not depend on it: final values of commutative operations, old
//! values as a permutation or multiset, or bounds.
//!
//! The memory opcodes each kernel needs (llvm-objdump-19 of the gfx1100 builds; the
//! scalar loads and the global accesses of inputs and results are left out where they are
//! incidental):
//!
//! | kernel | opcodes |
//! | --- | --- |
//! | lds_i8 | ds_store_b8, ds_load_i8, ds_load_u8 |
//! | lds_i16 | ds_store_b16, ds_load_i16, ds_load_u16 |
//! | lds_b64 | ds_store_b64, ds_load_b64 |
//! | lds_vec | ds_store_b64/b96/b128, ds_load_b64/b96/b128 |
//! | lds_2addr | ds_store_2addr_stride64_b32/b64, ds_load_2addr_b32/b64, ds_load_2addr_stride64_b32/b64 |
//! | lds_d16 | ds_load_u16_d16_hi, ds_load_u8_d16_hi, ds_store_b16_d16_hi, ds_load_i8/u8/u16, ds_store_b8/b16 |
//! | d16_lo | global_load_d16_b16, global_load_d16_u8, ds_load_u16_d16, ds_load_u8_d16, ds_load_i8_d16 |
//! | lds_atomics | ds_add/sub_u32, ds_and/or/xor_b32, ds_min/max_i32/u32, ds_inc/dec_u32, ds_cmpstore_rtn_b32 |
//! | lds_atomics_rtn | ds_add/sub_rtn_u32, ds_inc/dec_rtn_u32, ds_storexchg_rtn_b32, ds_min_rtn_i32, ds_or_rtn_b32, ds_max_rtn_u32 |
//! | lds_atomics64 | ds_store_b64, ds_add/sub_u64, ds_and/or/xor_b64, ds_min/max_i64/u64, ds_inc/dec_u64, ds_cmpstore_rtn_b64, ds_storexchg_rtn_b64 |
//! | lds_float_atomics | ds_add_f32, ds_add_rtn_f32, ds_min_f32, ds_max_f32, ds_min_rtn_f32, ds_cmpstore_rtn_b64 (f64 add) |
//! | lds_swizzle | ds_swizzle_b32 |
//! | lds_permute | ds_permute_b32, ds_bpermute_b32 |
//! | lds_append | ds_append, ds_consume |
//! | private_widths | scratch_store_b8/b16/b32/b64/b128, scratch_load_i8/u8/i16/u16/b32/b64/b128 |
//! | private_d16 | scratch_load_d16_hi_b16, scratch_load_u16, scratch_store_b16/b128, global_load_d16_hi_b16 |
//! | global_bytes | global_load_u8/u16, global_store_b8/b16 |
//! | global_d16 | global_load_i8, global_load_d16_hi_u8, global_load_d16_hi_b16, global_store_d16_hi_b16, global_store_b8/b16 |
//! | global_vec | global_load_b64/b96/b128, global_store_b64/b96/b128 |
//! | global_atomics | global_atomic_add/sub_u32, and/or/xor_b32, min/max_i32/u32, inc/dec_u32, cmpswap_b32 |
//! | global_atomics_rtn | the same with return (glc): add/sub/inc/dec_u32, swap_b32, min_i32, or_b32, max_u32 |
//! | global_atomics64 | global_atomic_add/sub_u64, and/or/xor_b64, min/max_i64/u64, inc/dec_u64, cmpswap_b64, swap_b64 |
//! | global_float_atomics | global_atomic_add_f32 (with and without return), cmpswap_b32 (min/max loops), cmpswap_b64 (f64 add) |
//! | flat_mixed | flat_load_u8/u16/b32/b64, flat_store_b8/b16/b32/b64, scratch_load/store, ds_load/store |
//! | flat_atomics | flat_atomic_add_u32, min_i32, inc_u32, swap_b32, add_u64, cmpswap_b64, flat_load_b64 |
//! | buffer_raw | buffer_load_u8/u16/b32/b64/b96/b128, buffer_store_b8/b16/b32/b64/b96/b128 (offen, soffset) |
//! | buffer_oob | buffer_load_u8/b32/b128, buffer_store_b32/b128 past num_records |
//! | buffer_struct | buffer_load_b32/b128 idxen (and idxen offen), buffer_store_b16/b128 idxen |
//! | buffer_atomics | buffer_atomic_add/sub_u32, and/or/xor_b32, min/max_i32/u32, inc/dec_u32, swap_b32, cmpswap_b32 |
//! | buffer_atomics64 | buffer_atomic_add/sub_u64, and/or/xor_b64, min/max_i64/u64, inc/dec_u64, swap_b64, cmpswap_b64 |
//! | buffer_float_atomics | buffer_atomic_add_f32, buffer_atomic_min_f32, buffer_atomic_max_f32 |
//! | buffer_format | buffer_load_format_xyzw, buffer_load_d16_format_xyzw, buffer_store_format_xyzw (V# format 8_8_8_8_UNORM) |
//! | tbuffer | tbuffer_load_format_xy/xyzw, tbuffer_store_format_xy/xyzw (8_8_8_8_UNORM/UINT, 16_16_SINT, 32_32_UINT; raw and idxen) |

use super::*;

const WG: usize = 64;

fn case(file: usize, kernel: &'static str, buffers: Vec<Vec<u8>>, push: Vec<u8>, check: Check) -> Case {
    Case { file, kernel, groups: [(N / WG) as u32, 1, 1], spec: Vec::new(), buffers, push, check }
}

fn same<T: PartialEq + Debug>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None if got.len() >= want.len() => Ok(()),
        None => Err(format!("{what}: {} values, want {}", got.len(), want.len())),
        Some(i) => Err(format!("{what}: first difference at {i}: got {:?}, want {:?}", got[i], want[i])),
    }
}

/// The same values in any order.
fn same_multiset<T: Ord + Copy + Debug>(what: &str, got: &[T], want: &[T]) -> Result<(), String> {
    let (mut g, mut w) = (got.to_vec(), want.to_vec());
    g.sort_unstable();
    w.sort_unstable();
    if g == w {
        Ok(())
    } else {
        Err(format!("{what}: got {g:?}, want {w:?} (in any order)"))
    }
}

/// ds_inc_u32 / global_atomic_inc_u32: `old >= limit ? 0 : old + 1`.
fn inc_wrap(v: u64, limit: u64) -> u64 {
    if v >= limit {
        0
    } else {
        v + 1
    }
}

/// ds_dec_u32 / global_atomic_dec_u32: `old == 0 || old > limit ? limit : old - 1`.
fn dec_wrap(v: u64, limit: u64) -> u64 {
    if v == 0 || v > limit {
        limit
    } else {
        v - 1
    }
}

/// Multiples of 1/4 in [-256, 256): sums of up to 2^12 of them are exact in any order.
fn quarters(seed: u64) -> Vec<f32> {
    let mut r = Lcg(seed);
    (0..N).map(|_| ((r.next() % 2048) as i32 - 1024) as f32 * 0.25).collect()
}

fn f16_mul(a: f16, b: f64) -> f16 {
    f16::from_f64(a.to_f64() * b)
}

fn f16_add(a: f16, b: f16) -> f16 {
    f16::from_f64(a.to_f64() + b.to_f64())
}

/// The 32-bit atomics of lds_atomics / global_atomics / buffer_atomics over `a` (item
/// indices `ids`, which pick the and/or masks): counters 0..12 from their initial values.
fn atomics32(a: &[i32], ids: impl Iterator<Item = usize>) -> [i32; 12] {
    let mut c = [0, 1000, -1, 0, 0x5a5a_5a5a, i32::MAX, i32::MIN, -1, 0, 0, 5, 1];
    for (&v, l) in a.iter().zip(ids) {
        c[0] = c[0].wrapping_add(v);
        c[1] = c[1].wrapping_sub(v);
        c[2] &= !(1 << (l % 32)) | v;
        c[3] |= v & (0x11 << (l % 27));
        c[4] ^= v;
        c[5] = c[5].min(v);
        c[6] = c[6].max(v);
        c[7] = (c[7] as u32).min(v as u32) as i32;
        c[8] = (c[8] as u32).max(v as u32) as i32;
        c[9] = inc_wrap(c[9] as u64, 9) as i32;
        c[10] = dec_wrap(c[10] as u64, 37) as i32;
        c[11] = c[11].wrapping_mul(v.wrapping_mul(2).wrapping_add(1));
    }
    c
}

fn atomics64(a: &[i64], ids: impl Iterator<Item = usize>) -> [i64; 12] {
    let mut c = [0, 1000, -1, 0, 0x5a5a_5a5a_5a5a_5a5a, i64::MAX, i64::MIN, -1, 0, 0, 5, 1];
    for (&v, l) in a.iter().zip(ids) {
        c[0] = c[0].wrapping_add(v);
        c[1] = c[1].wrapping_sub(v);
        c[2] &= !(1i64 << (l % 64)) | v;
        c[3] |= v & (0x11i64 << (l % 59));
        c[4] ^= v;
        c[5] = c[5].min(v);
        c[6] = c[6].max(v);
        c[7] = (c[7] as u64).min(v as u64) as i64;
        c[8] = (c[8] as u64).max(v as u64) as i64;
        c[9] = inc_wrap(c[9] as u64, 9) as i64;
        c[10] = dec_wrap(c[10] as u64, 37) as i64;
        c[11] = c[11].wrapping_mul(v.wrapping_mul(2).wrapping_add(1));
    }
    c
}

pub(super) fn cases(wave: usize) -> Vec<Case> {
    let mut out = lds_cases();
    out.push(lds_permute(wave));
    out.extend(private_cases());
    out.extend(global_cases());
    out.extend(flat_cases());
    out.extend(buffer_cases());
    out
}

#[allow(clippy::too_many_lines)]
fn lds_cases() -> Vec<Case> {
    let mut out = Vec::new();
    {
        let a: Vec<i8> = u32s(0x3001).iter().map(|&v| v as i8).collect();
        let want: Vec<i32> = (0..N)
            .map(|g| {
                let (b, l) = (g / WG * WG, g % WG);
                let u = a[b + (l * 5 + 3) % WG] as u8 ^ 0x5a;
                a[b + WG - 1 - l] as i32 * 1000 + u as i32
            })
            .collect();
        out.push(case(MEMORY, "lds_i8", vec![bytes(&a), vec![0; 4 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a: Vec<i16> = u32s(0x3002).iter().map(|&v| v as i16).collect();
        let want: Vec<i32> = (0..N)
            .map(|g| {
                let (b, l) = (g / WG * WG, g % WG);
                let u = a[b + (l * 5 + 3) % WG] as u16 ^ 0x5a5a;
                a[b + WG - 1 - l] as i32 * 3 + u as i32
            })
            .collect();
        out.push(case(MEMORY, "lds_i16", vec![bytes(&a), vec![0; 4 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a = i64s(0x3003);
        let want: Vec<i64> = (0..N)
            .map(|g| {
                let (b, l) = (g / WG * WG, g % WG);
                a[b + WG - 1 - l].wrapping_mul(3).wrapping_add(a[b + (l * 7 + 1) % WG])
            })
            .collect();
        out.push(case(MEMORY, "lds_b64", vec![bytes(&a), vec![0; 8 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let (p, q) = (i32s(0x3004), i32s(0x3005));
        let a: Vec<[i32; 4]> = (0..N).map(|i| [p[i], q[i], p[(i + 5) % N], q[(i + 9) % N]]).collect();
        let want: Vec<[i32; 4]> = (0..N)
            .map(|g| {
                let (b, l) = (g / WG * WG, g % WG);
                let x = a[b + WG - 1 - l];
                let y = a[b + (l + 7) % WG]; // v3 = (a.y, a.z, a.w)
                let z = a[b + (l + 13) % WG]; // v4 = (a.w, a.z, a.y, a.x)
                [
                    x[0].wrapping_add(y[3]),
                    x[1] ^ y[1],
                    z[3].wrapping_sub(z[0]),
                    z[2].wrapping_mul(3).wrapping_add(z[1]).wrapping_add(y[2]),
                ]
            })
            .collect();
        out.push(case(MEMORY, "lds_vec", vec![bytes(&a), vec![0; 16 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a = i32s(0x3006);
        let mut want = Vec::new();
        for grp in a.chunks(WG) {
            let t = |k: usize| match k / WG {
                0 => grp[k],
                1 => grp[k - WG].wrapping_mul(3),
                2 => grp[k - 2 * WG] ^ 0x1234,
                _ => !grp[k - 3 * WG],
            };
            let q = |k: usize| if k < WG { (grp[k] as i64) << 20 } else { grp[k - WG] as i64 - 5 };
            for l in 0..WG {
                let m = WG - 2 - (l & 62) + (l & 1);
                let p = (l * 3) % (WG - 1);
                let s = q(m).wrapping_add(q(m + WG)).wrapping_add(q(p)).wrapping_sub(q(p + 1));
                want.push(
                    t(m).wrapping_add(t(m + 1).wrapping_mul(5))
                        .wrapping_add(t(m + 2 * WG))
                        .wrapping_sub(t(m + 3 * WG))
                        .wrapping_add(t(p + WG).wrapping_mul(7))
                        .wrapping_sub(t(p + WG + 1)),
                );
                want.push((s ^ (s >> 32)) as i32);
            }
        }
        out.push(case(MEMORY, "lds_2addr", vec![bytes(&a), vec![0; 8 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a: Vec<f16> = f16s(0x3007).into_iter().chain(f16s(0x3008)).collect();
        let bits = |h: f16| h.to_bits() as i16;
        let mut want = Vec::new();
        for grp in a.chunks(2 * WG) {
            // The first-phase arrays, as the kernel fills them.
            let h: Vec<f16> = (0..2 * WG).map(|k| if k < WG { grp[2 * k] } else { grp[2 * (k - WG) + 1] }).collect();
            let s: Vec<i16> = (0..2 * WG)
                .map(|k| if k < WG { bits(grp[2 * k]) >> 3 } else { bits(grp[2 * (k - WG) + 1]).wrapping_add(1) })
                .collect();
            let c: Vec<i8> = (0..2 * WG)
                .map(|k| if k < WG { bits(grp[2 * k]) as i8 } else { (bits(grp[2 * (k - WG) + 1]) >> 8) as i8 })
                .collect();
            // Each lane's vectors.
            let lane = |l: usize| {
                let m = WG - 1 - l;
                let v = (f16_mul(h[m], 2.0), f16_mul(h[l + WG], 0.5));
                let w = (s[m + WG].wrapping_add(c[m] as i16), s[l].wrapping_add(c[l + WG] as u8 as i16));
                (v, w)
            };
            let (mut h2, mut s2, mut c2) = (h.clone(), s.clone(), c.clone());
            for l in 0..WG {
                let m = WG - 1 - l;
                let (v, w) = lane(l);
                h2[l] = v.1;
                h2[l + WG] = v.0;
                s2[m] = w.1;
                c2[m] = w.1 as i8;
                c2[m + WG] = w.0 as i8;
            }
            for l in 0..WG {
                want.push(h2[l]);
                want.push(h2[l + WG]);
                want.push(f16::from_bits(s2[l] as u16));
                want.push(f16::from_bits(c2[l] as u8 as u16 | (c2[l + WG] as u8 as u16) << 8));
            }
        }
        let bufs = vec![bytes(&a), vec![0; 8 * N]];
        out.push(case(MEMORY, "lds_d16", bufs, vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a: Vec<[f16; 2]> = f16s(0x3010).into_iter().zip(f16s(0x3011)).map(|(x, y)| [x, y]).collect();
        let b = f16s(0x3012);
        let c: Vec<i8> = u32s(0x3013).iter().map(|&v| (v >> 9) as i8).collect();
        let hb = |h: f16| h.to_bits() as i16;
        let (mut r, mut s, mut t) = (Vec::new(), vec![[0i16; 2]; 2 * N], vec![0i8; 2 * N]);
        let mut ty = [0i8; N];
        for g in 0..N {
            let (base, l, m) = (g / WG * WG, g % WG, N - 1 - g);
            let v = [b[m], a[g][1]];
            let w = [b[base + (l + 5) % WG], a[base + WG - 1 - l][1]];
            r.push([f16::from_f64(v[0].to_f64() * w[0].to_f64()), f16::from_f64(v[1].to_f64() * w[1].to_f64())]);
            let sv = [c[g] as i16, hb(a[m][1])];
            let z = [c[base + (l + 9) % WG] as i16, hb(a[g][1])];
            let u = [c[m] as u8 as i16, hb(a[g ^ 1][1])];
            let y = [c[base + (l + 3) % WG] as u8 as i16, hb(a[base + (l + 1) % WG][1])];
            s[g] = [sv[0].wrapping_add(z[0]), sv[1].wrapping_add(z[1])];
            s[g + N] = [u[0].wrapping_add(y[0]), u[1].wrapping_add(y[1])];
            ty[g] = sv[1].wrapping_add(y[1]) as i8;
            t[g] = ty[g];
        }
        for g in 0..N {
            let (base, l) = (g / WG * WG, g % WG);
            t[g + N] = ty[base + (l + 7) % WG];
        }
        let bufs = vec![bytes(&a), bytes(&b), bytes(&c), vec![0; 4 * N], vec![0; 8 * N], vec![0; 2 * N]];
        let check: Check = Box::new(move |o| {
            compare(&o[3], &r, Tol::Exact, |i| format!("R {i}"))?;
            compare(&o[4], &s, Tol::Exact, |i| format!("S {i}"))?;
            compare(&o[5], &t, Tol::Exact, |i| format!("T {i}"))
        });
        out.push(case(MEMORY, "d16_lo", bufs, vec![], check));
    }
    {
        let a = i32s(0x3009);
        let want: Vec<i32> = a.chunks(WG).flat_map(|grp| atomics32(grp, 0..WG)).collect();
        out.push(case(MEMORY, "lds_atomics", vec![bytes(&a), vec![0; 4 * 24]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a = i32s(0x300a);
        let aa = a.clone();
        let check: Check = Box::new(move |o| {
            let r: Vec<i32> = values(&o[1]);
            let f: Vec<i32> = values(&o[2]);
            for (k, grp) in aa.chunks(WG).enumerate() {
                let col = |c: usize| -> Vec<i32> { (0..WG).map(|l| r[8 * (k * WG + l) + c]).collect() };
                let fin = &f[8 * k..8 * k + 8];
                let w = WG as i32;
                same_multiset("add 1 (old values)", &col(0), &(0..w).collect::<Vec<_>>())?;
                same_multiset("sub 1 (old values)", &col(1), &(0..w).map(|v| -v).collect::<Vec<_>>())?;
                same_multiset("inc (old values)", &col(2), &(0..w).collect::<Vec<_>>())?;
                same_multiset("dec (old values)", &col(3), &(0..w).map(|v| 500 - v).collect::<Vec<_>>())?;
                let mut xs = col(4);
                xs.push(fin[4]);
                let mut ws = grp.to_vec();
                ws.push(-7);
                same_multiset("xchg (old values and the final one)", &xs, &ws)?;
                let mn = *grp.iter().min().unwrap();
                let mx = grp.iter().map(|&v| v as u32).max().unwrap();
                same("final values", fin, &[w, -w, w, 500 - w, fin[4], mn, -1, mx as i32])?;
                for (l, &old) in col(5).iter().enumerate() {
                    if old < mn || (old != i32::MAX && !grp.contains(&old)) {
                        return Err(format!("min: lane {l} saw {old}"));
                    }
                }
                let ors = col(6);
                if ors.iter().filter(|&&v| v == 0).count() != 1 {
                    return Err(format!("or: {ors:?} should have exactly one 0"));
                }
                for (l, &old) in col(7).iter().enumerate() {
                    if old as u32 > mx || (old != 0 && !grp.contains(&old)) {
                        return Err(format!("max_u: lane {l} saw {old}"));
                    }
                }
            }
            Ok(())
        });
        let bufs = vec![bytes(&a), vec![0; 32 * N], vec![0; 4 * 16]];
        out.push(case(MEMORY, "lds_atomics_rtn", bufs, vec![], check));
    }
    {
        let a = i64s(0x300b);
        let aa = a.clone();
        let check: Check = Box::new(move |o| {
            let r: Vec<i64> = values(&o[1]);
            let x: Vec<i64> = values(&o[2]);
            for (k, grp) in aa.chunks(WG).enumerate() {
                let fin = &r[13 * k..13 * k + 13];
                same("final values", &fin[..12], &atomics64(grp, 0..WG))?;
                let mut xs = x[k * WG..(k + 1) * WG].to_vec();
                xs.push(fin[12]);
                let mut ws = grp.to_vec();
                ws.push(-3);
                same_multiset("xchg (old values and the final one)", &xs, &ws)?;
            }
            Ok(())
        });
        let bufs = vec![bytes(&a), vec![0; 8 * 26], vec![0; 8 * N]];
        out.push(case(MEMORY, "lds_atomics64", bufs, vec![], check));
    }
    {
        let a = quarters(0x300c);
        let aa = a.clone();
        let check: Check = Box::new(move |o| {
            let r: Vec<f32> = values(&o[1]);
            let f: Vec<f32> = values(&o[2]);
            let d: Vec<f64> = values(&o[3]);
            for (k, grp) in aa.chunks(WG).enumerate() {
                let sum: f32 = grp.iter().sum::<f32>() + 0.5;
                let mn = grp.iter().fold(f32::INFINITY, |m, &v| m.min(v));
                let mx = grp.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
                let fin = &f[5 * k..5 * k + 5];
                let want = [sum, mn, mx, -8.0 + WG as f32, mn.min(3.0)];
                if fin.iter().zip(&want).any(|(g, w)| g.to_bits() != w.to_bits()) {
                    return Err(format!("group {k}: final values {fin:?}, want {want:?}"));
                }
                let dsum = grp.iter().map(|&v| v as f64 * 2.0).sum::<f64>() + 0.25;
                if d[k] != dsum {
                    return Err(format!("group {k}: f64 sum {}, want {dsum}", d[k]));
                }
                let adds: Vec<i32> = (0..WG).map(|l| r[2 * (k * WG + l)] as i32).collect();
                same_multiset("add 1.0 (old values)", &adds, &(-8..WG as i32 - 8).collect::<Vec<_>>())?;
                for l in 0..WG {
                    let old = r[2 * (k * WG + l) + 1];
                    if old < fin[4] || (old != 3.0 && !grp.contains(&old)) {
                        return Err(format!("fmin: lane {l} saw {old}"));
                    }
                }
            }
            Ok(())
        });
        let bufs = vec![bytes(&a), vec![0; 8 * N], vec![0; 4 * 10], vec![0; 16]];
        out.push(case(MEMORY, "lds_float_atomics", bufs, vec![], check));
    }
    {
        // ds_swizzle_b32 offset: bit 15 set: quad permute (2 bits per lane of the quad);
        // clear: bit masks on the lane's index within 32 (and 4:0, or 9:5, xor 14:10).
        let a = i32s(0x300d);
        let quad = |g: usize, p: usize| (g & !3) | ((p >> (2 * (g & 3))) & 3);
        let mask = |g: usize, and: usize, or: usize, xor: usize| (g & !31) | ((((g & 31) & and) | or) ^ xor);
        let want: Vec<i32> = (0..N)
            .flat_map(|g| [a[quad(g, 0x1b)], a[quad(g, 1 | 2 << 4)], a[mask(g, 0x1f, 0, 0x10)], a[mask(g, 0x18, 3, 7)]])
            .collect();
        out.push(case(MEMORY, "lds_swizzle", vec![bytes(&a), vec![0; 16 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        // The items with an odd input append themselves; every item consumes a slot.
        let a = i32s(0x300e);
        let aa = a.clone();
        const EMPTY: i32 = 0x7777_7776;
        let check: Check = Box::new(move |o| {
            let r: Vec<i32> = values(&o[1]);
            let s: Vec<i32> = values(&o[2]);
            for (k, grp) in aa.chunks(WG).enumerate() {
                let slots = &s[k * WG..(k + 1) * WG];
                same_multiset("ds_consume slots", slots, &(0..WG as i32).collect::<Vec<_>>())?;
                let odd: Vec<i32> = grp.iter().copied().filter(|v| v & 1 != 0).collect();
                let list = &r[k * WG..(k + 1) * WG];
                same_multiset("ds_append list", &list[..odd.len()], &odd)?;
                same("after the ds_append list", &list[odd.len()..], &vec![EMPTY; WG - odd.len()])?;
            }
            Ok(())
        });
        let bufs = vec![bytes(&a), bytes(&vec![EMPTY; N]), vec![0; 4 * N]];
        out.push(case(MEMORY, "lds_append", bufs, vec![], check));
    }
    out
}

/// ds_permute / ds_bpermute pick lanes within the wave: the results depend on its size.
fn lds_permute(wave: usize) -> Case {
    let a = i32s(0x300f);
    let mut want = vec![0i32; 3 * N];
    for g in 0..N {
        let (base, lane) = (g / wave * wave, g % wave);
        let to = (lane * 5 + 3) % wave;
        want[3 * g] = a[base + to];
        // ds_permute: lane `to` receives this lane's value.
        want[3 * (base + to) + 1] = a[g];
        want[3 * g + 2] = a[base + (lane + 40) % wave];
    }
    case(MEMORY, "lds_permute", vec![bytes(&a), vec![0; 12 * N]], vec![], expect(1, want, Tol::Exact))
}

fn private_cases() -> Vec<Case> {
    let mut out = Vec::new();
    {
        let a = i32s(0x3101);
        let want: Vec<[i32; 4]> = a
            .iter()
            .map(|&a| {
                let mut c: Vec<i8> = (0..80).map(|k| a.wrapping_add(k * 3) as i8).collect();
                let mut s: Vec<i16> = (0..80).map(|k| a.wrapping_mul(k) as i16).collect();
                let mut i: Vec<i32> = (0..64).map(|k| a ^ (k << 9)).collect();
                let mut q: Vec<i64> = (0..32).map(|k| (a as i64).wrapping_mul(k + 1) << 7).collect();
                let mut v: Vec<[i32; 4]> =
                    (0..16).map(|k| [a.wrapping_add(k), a.wrapping_sub(k), k, a.wrapping_mul(k)]).collect();
                let (x, y) = (a as u32 as usize & 63, (a as u32 as usize >> 6) & 63);
                c[y] = (c[x] as i32 + 1) as i8;
                s[y] = (s[x] as i32 - 1) as i16;
                i[y] = i[x].wrapping_mul(2);
                q[y & 31] = q[x & 31].wrapping_add(1);
                let t = v[x & 15];
                v[y & 15] = [t[3], t[2], t[1], t[0]];
                let base = [
                    c[x ^ 5] as i32 + c[y] as u8 as i32,
                    s[x ^ 7] as i32 + s[y] as u16 as i32,
                    i[x ^ 9].wrapping_add(i[y]),
                    (q[(x ^ 3) & 31] >> 3) as i32 ^ (q[y & 31] >> 32) as i32,
                ];
                let (p, r) = (v[(x ^ 1) & 15], v[y & 15]);
                std::array::from_fn(|k| base[k].wrapping_add(p[k]).wrapping_add(r[k]))
            })
            .collect();
        out.push(case(MEMORY, "private_widths", vec![bytes(&a), vec![0; 16 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a = f16s(0x3102);
        let want: Vec<[f16; 2]> = (0..N)
            .map(|g| {
                let mut h: Vec<f16> = (0..48).map(|k| a[(g + k) % N]).collect();
                let x = (a[g].to_bits() as i16 as i32 as u32 % 48) as usize;
                let y = (x * 7 + 5) % 48;
                h[(x + 1) % 48] = f16_mul(h[y], 2.0);
                [f16_add(h[x], h[(y + 3) % 48]), f16_add(h[y], h[(x + 1) % 48])]
            })
            .collect();
        out.push(case(MEMORY, "private_d16", vec![bytes(&a), vec![0; 4 * N]], vec![], expect(1, want, Tol::Exact)));
    }
    out
}

#[allow(clippy::too_many_lines)]
fn global_cases() -> Vec<Case> {
    let mut out = Vec::new();
    {
        let a: Vec<i8> = u32s(0x3201).iter().map(|&v| (v >> 3) as i8).collect();
        let b: Vec<i16> = u32s(0x3202).iter().map(|&v| (v >> 5) as i16).collect();
        let (mut r8, mut r16, mut r) = (Vec::new(), Vec::new(), Vec::new());
        for g in 0..N {
            let x = a[(g * 7) % N] as i32;
            let ua = a[g] as u8 as i32;
            let y = b[(g * 3) % N] as i32;
            let ub = b[g] as u16 as i32;
            r8.push((x * 3 + ub as i8 as i32) as i8);
            r16.push((y - ua) as i16);
            r.push(x + ua * 7 + y * 11 + ub * 13);
        }
        let bufs = vec![bytes(&a), bytes(&b), vec![0; N], vec![0; 2 * N], vec![0; 4 * N]];
        let check: Check = Box::new(move |o| {
            compare(&o[2], &r8, Tol::Exact, |i| format!("item {i}"))?;
            compare(&o[3], &r16, Tol::Exact, |i| format!("item {i}"))?;
            compare(&o[4], &r, Tol::Exact, |i| format!("item {i}"))
        });
        out.push(case(MEMORY, "global_bytes", bufs, vec![], check));
    }
    {
        let a = f16s(0x3203);
        let b: Vec<i8> = u32s(0x3204).iter().map(|&v| v as i8).collect();
        let (mut r, mut s, mut c) = (vec![f16::ZERO; 2 * N], vec![0i16; 2 * N], vec![0i8; N]);
        for g in 0..N {
            let m = N - 1 - g;
            let v = (f16_mul(a[g], 0.5), f16_mul(a[m], 3.0));
            let w = ((b[g] as i16).wrapping_mul(3), (b[m] as u8 as i16).wrapping_mul(5));
            r[g] = v.1;
            r[m + N] = v.0;
            s[g] = w.1;
            s[g + N] = w.0;
            c[m] = w.1 as i8;
        }
        let bufs = vec![bytes(&a), bytes(&b), vec![0; 4 * N], vec![0; 4 * N], vec![0; N]];
        let check: Check = Box::new(move |o| {
            compare(&o[2], &r, Tol::Exact, |i| format!("R {i}"))?;
            compare(&o[3], &s, Tol::Exact, |i| format!("S {i}"))?;
            compare(&o[4], &c, Tol::Exact, |i| format!("C {i}"))
        });
        out.push(case(MEMORY, "global_d16", bufs, vec![], check));
    }
    {
        let (p, q) = (i32s(0x3205), i32s(0x3206));
        let a: Vec<[i32; 4]> = (0..N).map(|i| [p[i], q[i], p[(i + 3) % N], q[(i + 11) % N]]).collect();
        let b: Vec<[i32; 3]> = (0..N).map(|i| [q[(i + 1) % N], p[(i + 2) % N], p[i] ^ q[i]]).collect();
        let flat: Vec<i32> = a.iter().flatten().copied().collect();
        let (mut r2, mut r3, mut r4) = (Vec::new(), Vec::new(), Vec::new());
        for g in 0..N {
            let x = a[(g * 3) % N];
            let y = b[g];
            let c = [flat[2 * (g ^ 1)], flat[2 * (g ^ 1) + 1]];
            r2.push([c[0].wrapping_add(x[0]), c[1].wrapping_add(x[1])]);
            r3.push(std::array::from_fn::<i32, 3, _>(|k| y[k].wrapping_mul(3).wrapping_add(x[k + 1])));
            r4.push([y[0] ^ x[0], y[1] ^ x[1], y[2] ^ x[2], c[0] ^ x[3]]);
        }
        let bufs = vec![bytes(&a), bytes(&b), vec![0; 8 * N], vec![0; 12 * N], vec![0; 16 * N]];
        let check: Check = Box::new(move |o| {
            compare(&o[2], &r2, Tol::Exact, |i| format!("R2 {i}"))?;
            compare(&o[3], &r3, Tol::Exact, |i| format!("R3 {i}"))?;
            compare(&o[4], &r4, Tol::Exact, |i| format!("R4 {i}"))
        });
        out.push(case(MEMORY, "global_vec", bufs, vec![], check));
    }
    {
        let a = i32s(0x3207);
        let init = [0, 1000, -1, 0, 0x5a5a_5a5a, i32::MAX, i32::MIN, -1, 0, 0, 5, 1];
        let want = atomics32(&a, 0..N).to_vec();
        let bufs = vec![bytes(&a), bytes(&init)];
        out.push(case(MEMORY, "global_atomics", bufs, vec![], expect(1, want, Tol::Exact)));
    }
    {
        let a = i32s(0x3208);
        let aa = a.clone();
        let init = [0, 0, 0, 500, -7, i32::MAX, 0, 0];
        let check: Check = Box::new(move |o| {
            let c: Vec<i32> = values(&o[1]);
            let r: Vec<i32> = values(&o[2]);
            let col = |k: usize| -> Vec<i32> { (0..N).map(|g| r[8 * g + k]).collect() };
            let n = N as i32;
            same_multiset("add 1 (old values)", &col(0), &(0..n).collect::<Vec<_>>())?;
            same_multiset("sub 1 (old values)", &col(1), &(0..n).map(|v| -v).collect::<Vec<_>>())?;
            same_multiset("inc (old values)", &col(2), &(0..n).collect::<Vec<_>>())?;
            same_multiset("dec (old values)", &col(3), &(0..n).map(|v| 500 - v).collect::<Vec<_>>())?;
            let mut xs = col(4);
            xs.push(c[4]);
            let mut ws = aa.clone();
            ws.push(-7);
            same_multiset("xchg (old values and the final one)", &xs, &ws)?;
            let mn = *aa.iter().min().unwrap();
            let mx = aa.iter().map(|&v| v as u32).max().unwrap();
            same("final values", &c, &[n, -n, n, 500 - n, c[4], mn, -1, mx as i32])?;
            for (g, &old) in col(5).iter().enumerate() {
                if old < mn || (old != i32::MAX && !aa.contains(&old)) {
                    return Err(format!("min: item {g} saw {old}"));
                }
            }
            if col(6).iter().filter(|&&v| v == 0).count() != 1 {
                return Err(format!("or: {:?} should have exactly one 0", col(6)));
            }
            for (g, &old) in col(7).iter().enumerate() {
                if old as u32 > mx || (old != 0 && !aa.contains(&old)) {
                    return Err(format!("max_u: item {g} saw {old}"));
                }
            }
            Ok(())
        });
        out.push(case(MEMORY, "global_atomics_rtn", vec![bytes(&a), bytes(&init), vec![0; 32 * N]], vec![], check));
    }
    {
        let a = i64s(0x3209);
        let aa = a.clone();
        let init = [0, 1000, -1, 0, 0x5a5a_5a5a_5a5a_5a5a, i64::MAX, i64::MIN, -1, 0, 0, 5, 1, 0i64];
        let check: Check = Box::new(move |o| {
            let c: Vec<i64> = values(&o[1]);
            let x: Vec<i64> = values(&o[2]);
            same("final values", &c[..12], &atomics64(&aa, 0..N))?;
            let mut xs = x.clone();
            xs.push(c[12]);
            let mut ws = aa.clone();
            ws.push(0);
            same_multiset("xchg (old values and the final one)", &xs, &ws)
        });
        out.push(case(MEMORY, "global_atomics64", vec![bytes(&a), bytes(&init), vec![0; 8 * N]], vec![], check));
    }
    {
        let a = quarters(0x320a);
        let aa = a.clone();
        let init = [0.5f32, f32::INFINITY, f32::NEG_INFINITY, -8.0];
        let check: Check = Box::new(move |o| {
            let c: Vec<f32> = values(&o[1]);
            let r: Vec<f32> = values(&o[2]);
            let d: Vec<f64> = values(&o[3]);
            let sum = aa.iter().sum::<f32>() + 0.5;
            let mn = aa.iter().fold(f32::INFINITY, |m, &v| m.min(v));
            let mx = aa.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
            let want = [sum, mn, mx, -8.0 + N as f32];
            if c.iter().zip(&want).any(|(g, w)| g.to_bits() != w.to_bits()) {
                return Err(format!("final values {c:?}, want {want:?}"));
            }
            let dsum = aa.iter().map(|&v| v as f64 * 2.0).sum::<f64>() + 0.25;
            if d[0] != dsum {
                return Err(format!("f64 sum {}, want {dsum}", d[0]));
            }
            let olds: Vec<i32> = r.iter().map(|&v| v as i32).collect();
            same_multiset("add 1.0 (old values)", &olds, &(-8..N as i32 - 8).collect::<Vec<_>>())
        });
        let bufs = vec![bytes(&a), bytes(&init), vec![0; 4 * N], bytes(&[0.25f64])];
        out.push(case(MEMORY, "global_float_atomics", bufs, vec![], check));
    }
    out
}

#[allow(clippy::too_many_lines)]
fn flat_cases() -> Vec<Case> {
    let mut out = Vec::new();
    {
        let a = i32s(0x3301);
        let g0: Vec<i32> = (0..4 * N as i32).map(|i| i.wrapping_mul(0x0101_0107) ^ 0x3c).collect();
        let mut g = g0.clone();
        let mut want = Vec::new();
        for (k, grp) in a.chunks(WG).enumerate() {
            let mut l_arr: Vec<i32> = grp.iter().map(|v| v.wrapping_mul(5)).collect();
            let mut lq: Vec<i64> = grp.iter().map(|&v| (v as i64) << 33).collect();
            let mut rows = Vec::new();
            for (l, &v) in grp.iter().enumerate() {
                let gi = k * WG + l;
                let mut p: Vec<i32> = (0..16).map(|j| v.wrapping_add(j)).collect();
                let mut pq: Vec<i64> = (0..8).map(|j| (v as i64).wrapping_mul(j)).collect();
                let (sel, j) = ((v as u32) % 3, ((v as u32 >> 2) & 7) as usize);
                let ip: &mut i32 = match sel {
                    0 => &mut g[gi],
                    1 => &mut l_arr[l],
                    _ => &mut p[j],
                };
                let before = *ip;
                let mut b = before.wrapping_add(1).to_le_bytes();
                let c = b[1] as i8 as i32;
                let uc = b[2] as i32;
                let s = i16::from_le_bytes([b[2], b[3]]) as i32;
                b[3] = (c + 1) as u8;
                let s0 = ((s - 1) as i16).to_le_bytes();
                b[0] = s0[0];
                b[1] = s0[1];
                let after = i32::from_le_bytes(b);
                *ip = after;
                let qb = match sel {
                    0 => g[2 * WG + 2 * gi] as u32 as i64 | (g[2 * WG + 2 * gi + 1] as i64) << 32,
                    1 => lq[l],
                    _ => pq[j],
                };
                let qa = qb ^ 0x7f;
                match sel {
                    0 => {
                        g[2 * WG + 2 * gi] = qa as i32;
                        g[2 * WG + 2 * gi + 1] = (qa >> 32) as i32;
                    }
                    1 => lq[l] = qa,
                    _ => pq[j] = qa,
                }
                rows.push((before, after.wrapping_add(uc), qb as i32 ^ (qa >> 32) as i32, sel, p[(j + 1) & 15]));
            }
            for (l, (x, y, z, sel, pn)) in rows.into_iter().enumerate() {
                want.push([x, y, z, if sel == 1 { l_arr[(l + 1) % WG] } else { pn }]);
            }
        }
        let bufs = vec![bytes(&a), bytes(&g0), vec![0; 16 * N]];
        let check: Check = Box::new(move |o| {
            compare(&o[2], &want, Tol::Exact, |i| format!("item {i}"))?;
            compare(&o[1], &g, Tol::Exact, |i| format!("G[{i}]"))
        });
        out.push(case(MEMORY, "flat_mixed", bufs, vec![], check));
    }
    {
        // Even items use global counters, odd ones their group's local counters.
        let a = i32s(0x3302);
        let aa = a.clone();
        let mut g0 = vec![0i32; 24];
        g0[..5].copy_from_slice(&[0, i32::MAX, 0, 0, -1]);
        let q0 = [0i64, 1, 0, 0, 0, 0];
        let check: Check = Box::new(move |o| {
            let g: Vec<i32> = values(&o[1]);
            let q: Vec<i64> = values(&o[2]);
            let r: Vec<i32> = values(&o[3]);
            // (counters, 64-bit counters, items) for global, then each group's local memory.
            let mut sets: Vec<(Vec<i32>, Vec<i64>, Vec<usize>)> =
                vec![(g[..5].to_vec(), q[..2].to_vec(), (0..N).step_by(2).collect())];
            for k in 0..N / WG {
                let items = (k * WG + 1..(k + 1) * WG).step_by(2).collect();
                sets.push((g[8 + 8 * k..13 + 8 * k].to_vec(), q[2 + 2 * k..4 + 2 * k].to_vec(), items));
            }
            for (c, cq, items) in sets {
                let v: Vec<i32> = items.iter().map(|&i| aa[i]).collect();
                let n = items.len() as i32;
                let sum = v.iter().fold(0i32, |s, &x| s.wrapping_add(x));
                let mn = *v.iter().min().unwrap();
                same("counters", &c[..4], &[sum, mn, n, n])?;
                let qsum = v.iter().fold(0i64, |s, &x| s.wrapping_add(x as i64));
                let prod = v.iter().fold(1i64, |s, &x| s.wrapping_mul(2 * x as i64 + 1));
                same("64-bit counters", &cq, &[qsum, prod])?;
                let slots: Vec<i32> = items.iter().map(|&i| r[2 * i]).collect();
                same_multiset("add 1 (old values)", &slots, &(0..n).collect::<Vec<_>>())?;
                let mut xs: Vec<i32> = items.iter().map(|&i| r[2 * i + 1]).collect();
                xs.push(c[4]);
                let mut ws = v.clone();
                ws.push(-1);
                same_multiset("xchg (old values and the final one)", &xs, &ws)?;
            }
            Ok(())
        });
        let bufs = vec![bytes(&a), bytes(&g0), bytes(&q0), vec![0; 8 * N]];
        out.push(case(MEMORY, "flat_atomics", bufs, vec![], check));
    }
    out
}

#[allow(clippy::too_many_lines)]
fn buffer_cases() -> Vec<Case> {
    let mut out = Vec::new();
    {
        // RDNA3-NOTES, "Buffer addressing", linear buffers: base + soffset +
        // voffset + inst_offset, for every width.
        let n = 32 * N + 32;
        let a: Vec<u8> = u64s(0x3401).iter().flat_map(|v| v.to_le_bytes()).cycle().take(n).collect();
        let aa = a.clone();
        let (mut r, mut r2) = (vec![0u8; n], vec![0u8; 32 * N]);
        let rd = |o: usize, len: usize| -> Vec<u8> { aa[o..o + len].to_vec() };
        let u32at = |b: &[u8], k: usize| u32::from_le_bytes(b[4 * k..4 * k + 4].try_into().unwrap());
        for g in 0..N {
            let o = 32 * g;
            let b8 = a[o + 32];
            let b16 = u16::from_le_bytes([a[o + 34], a[o + 35]]);
            let b32 = u32at(&rd(o + 40, 4), 0);
            let b64 = rd(o + 48, 8);
            let b96 = rd(o + 4, 12);
            let b128 = rd(o + 16, 16);
            r[o + 33] = b8.wrapping_add(1);
            r[o + 36..o + 38].copy_from_slice(&(b16 ^ 0xffff).to_le_bytes());
            r[o + 40..o + 44].copy_from_slice(&b32.wrapping_mul(3).to_le_bytes());
            for k in 0..2 {
                r[o + 48 + 4 * k..o + 52 + 4 * k].copy_from_slice(&u32at(&b64, k).wrapping_add(1).to_le_bytes());
            }
            for k in 0..3 {
                r2[o + 4 * k..o + 4 * k + 4].copy_from_slice(&(u32at(&b96, k) ^ 5).to_le_bytes());
            }
            let x = u32at(&b96, 0);
            for k in 0..4 {
                r2[o + 16 + 4 * k..o + 20 + 4 * k].copy_from_slice(&u32at(&b128, k).wrapping_add(x).to_le_bytes());
            }
        }
        let push = bytes(&[n as u32, 32]);
        let check: Check = Box::new(move |o| {
            compare(&o[1], &r, Tol::Exact, |i| format!("R byte {i}"))?;
            compare(&o[2], &r2, Tol::Exact, |i| format!("R2 byte {i}"))
        });
        out.push(case(MEMORY, "buffer_raw", vec![a, vec![0; n], vec![0; 32 * N]], push, check));
    }
    {
        // RDNA3-NOTES, "Buffer range checking": out-of-range loads return zero and stores
        // write nothing; B64/B96/B128 are checked per dword (MUBUF: only the components
        // past the range are zero or dropped); raw buffers check bytes against num_records.
        let a: Vec<u32> = (0..4).flat_map(|k| u32s(0x3402 + k)).collect();
        let n = 4 * N; // dwords of A
        const EMPTY: u32 = 0x5ee5_ee5e;
        let mut r = vec![EMPTY; 5 * N];
        let byte = |i: usize| a[i / 4].to_le_bytes()[i % 4] as u32;
        for g in 0..N {
            let mut v = [a[4 * g], a[4 * g + 1], a[4 * g + 2], a[4 * g + 3]];
            if g == N - 1 {
                v[2] = 0;
                v[3] = 0;
            }
            let b = if g & 1 == 0 { byte(4 * n - 9) } else { 0 };
            let st = [v[0], v[1] ^ b, v[2] ^ g as u32, v[3] ^ 7];
            let keep = if g == N - 1 { 3 } else { 4 };
            r[4 * g..4 * g + keep].copy_from_slice(&st[..keep]);
        }
        let push = bytes(&[(4 * n) as u32]);
        out.push(case(
            MEMORY,
            "buffer_oob",
            vec![bytes(&a), bytes(&vec![EMPTY; 5 * N])],
            push,
            expect(1, r, Tol::Exact),
        ));
    }
    {
        // Structured buffers: address = base + index * stride + offset; with OOB_SELECT 1
        // the index is checked against num_records (RDNA3-NOTES, "Buffer addressing":
        // num_records counts strides).
        let a: Vec<[u32; 4]> =
            u32s(0x3410).iter().zip(u32s(0x3411)).map(|(&x, y)| [x, y, x ^ y, x.wrapping_add(y)]).collect();
        let recs = N - 4;
        const EMPTY: u32 = 0xe3e3_e3e3;
        let mut r = vec![[EMPTY; 4]; N];
        let mut r2 = vec![EMPTY; 4 * N];
        for g in 0..recs {
            let v = a[g];
            let w = a[g ^ 1][1];
            let x = a[g][g & 3];
            r[g] = [v[0].wrapping_add(w), v[1].wrapping_add(x), v[2].wrapping_add(w), v[3].wrapping_add(x & 0xffff)];
            r2[4 * g] = (EMPTY & 0xffff_0000) | (v[3] & 0xffff);
        }
        let bufs = vec![bytes(&a), bytes(&vec![[EMPTY; 4]; N]), bytes(&vec![EMPTY; 4 * N])];
        let check: Check = Box::new(move |o| {
            compare(&o[1], &r, Tol::Exact, |i| format!("R {i}"))?;
            compare(&o[2], &r2, Tol::Exact, |i| format!("R2 dword {i}"))
        });
        out.push(case(BUFFER, "buffer_struct", bufs, bytes(&[recs as u32]), check));
    }
    {
        let a = i32s(0x3405);
        let aa = a.clone();
        let init = [0, 1000, -1, 0, 0x5a5a_5a5a, i32::MAX, i32::MIN, -1, 0, 0, 5, 1, 0, -7, 0, 0];
        let check: Check = Box::new(move |o| {
            let c: Vec<i32> = values(&o[1]);
            let r: Vec<i32> = values(&o[2]);
            same("final values", &c[..12], &atomics32(&aa, 0..N))?;
            let slots: Vec<i32> = (0..N).map(|g| r[2 * g]).collect();
            same_multiset("add 1 (old values)", &slots, &(0..N as i32).collect::<Vec<_>>())?;
            same("slot counter", &c[12..13], &[N as i32])?;
            let mut xs: Vec<i32> = (0..N).map(|g| r[2 * g + 1]).collect();
            xs.push(c[13]);
            let mut ws = aa.clone();
            ws.push(-7);
            same_multiset("swap (old values and the final one)", &xs, &ws)
        });
        let bufs = vec![bytes(&a), bytes(&init), vec![0; 8 * N]];
        out.push(case(BUFFER, "buffer_atomics", bufs, bytes(&[4 * N as u32]), check));
    }
    {
        let a = i64s(0x3406);
        let aa = a.clone();
        let init = [0, 1000, -1, 0, 0x5a5a_5a5a_5a5a_5a5a, i64::MAX, i64::MIN, -1, 0, 0, 5, 1, 0, 0i64];
        let check: Check = Box::new(move |o| {
            let c: Vec<i64> = values(&o[1]);
            let x: Vec<i64> = values(&o[2]);
            same("final values", &c[..12], &atomics64(&aa, 0..N))?;
            let mut xs = x.clone();
            xs.push(c[12]);
            let mut ws = aa.clone();
            ws.push(0);
            same_multiset("swap (old values and the final one)", &xs, &ws)
        });
        let bufs = vec![bytes(&a), bytes(&init), vec![0; 8 * N]];
        out.push(case(BUFFER, "buffer_atomics64", bufs, bytes(&[8 * N as u32]), check));
    }
    {
        let a = quarters(0x3407);
        let aa = a.clone();
        let init = [0.5f32, f32::INFINITY, f32::NEG_INFINITY, -8.0];
        let check: Check = Box::new(move |o| {
            let c: Vec<f32> = values(&o[1]);
            let r: Vec<f32> = values(&o[2]);
            let sum = aa.iter().sum::<f32>() + 0.5;
            let mn = aa.iter().fold(f32::INFINITY, |m, &v| m.min(v));
            let mx = aa.iter().fold(f32::NEG_INFINITY, |m, &v| m.max(v));
            let want = [sum, mn, mx, -8.0 + N as f32];
            if c.iter().zip(&want).any(|(g, w)| g.to_bits() != w.to_bits()) {
                return Err(format!("final values {c:?}, want {want:?}"));
            }
            let olds: Vec<i32> = r.iter().map(|&v| v as i32).collect();
            same_multiset("add 1.0 (old values)", &olds, &(-8..N as i32 - 8).collect::<Vec<_>>())
        });
        let bufs = vec![bytes(&a), bytes(&init), vec![0; 4 * N]];
        out.push(case(BUFFER, "buffer_float_atomics", bufs, bytes(&[4 * N as u32]), check));
    }
    {
        // RDNA3-NOTES, "Buffer data formats" and "D16 buffer instructions": MUBUF format
        // loads and stores take the format from the V# (8_8_8_8_UNORM here):
        // b / 255 as f32 and as f16 (D16), and back.
        let a = u32s(0x3409);
        let by: Vec<[u8; 4]> = a.iter().map(|v| v.to_le_bytes()).collect();
        let f: Vec<[f32; 4]> = by.iter().map(|b| b.map(|x| x as f32 / 255.0)).collect();
        let h: Vec<[f16; 4]> = by.iter().map(|b| b.map(|x| f16::from_f64(x as f64 / 255.0))).collect();
        let r: Vec<[u8; 4]> = by.iter().map(|b| [b[3], b[2], b[1], b[0]]).collect();
        let check: Check = Box::new(move |o| {
            compare(&o[1], &f, Tol::Ulp(1), |i| format!("F {i}"))?;
            compare(&o[2], &h, Tol::Ulp(1), |i| format!("H {i}"))?;
            compare(&o[3], &r, Tol::Exact, |i| format!("R {i}"))
        });
        let bufs = vec![bytes(&a), vec![0; 16 * N], vec![0; 8 * N], vec![0; 4 * N]];
        out.push(case(BUFFER, "buffer_format", bufs, bytes(&[4 * N as u32]), check));
    }
    {
        // RDNA3-NOTES, "Buffer data formats", format conversion for MTBUF: UNORM bytes to b
        // / 255 and back, SINT sign extension, UINT as is. The inputs avoid the edges where
        // a store would have to clamp (255 + 1, 32767 + 1).
        let mut rng = Lcg(0x3408);
        let a: Vec<[u8; 16]> = (0..N)
            .map(|_| {
                let mut r = [0u8; 16];
                for (k, b) in r.iter_mut().enumerate() {
                    let v = rng.next() as u8;
                    *b = match k {
                        0..=3 => v.min(254),
                        5 | 7 => v & 0xbf,
                        _ => v,
                    };
                }
                r
            })
            .collect();
        let (mut f, mut r, mut r2) = (Vec::new(), vec![[0u8; 16]; N], vec![[0u8; 16]; N]);
        for (g, rec) in a.iter().enumerate() {
            f.push(std::array::from_fn::<f32, 4, _>(|k| rec[k] as f32 / 255.0));
            r[g][..4].copy_from_slice(&rec[..4]);
            for k in 0..2 {
                let s = i16::from_le_bytes([rec[4 + 2 * k], rec[5 + 2 * k]]) + 1;
                r[g][4 + 2 * k..6 + 2 * k].copy_from_slice(&s.to_le_bytes());
            }
            r[g][8..12].copy_from_slice(&rec[12..16]);
            r[g][12..16].copy_from_slice(&rec[8..12]);
            for k in 0..4 {
                r2[g][k] = rec[k] + 1;
            }
        }
        let check: Check = Box::new(move |o| {
            compare(&o[1], &f, Tol::Ulp(1), |i| format!("F {i}"))?;
            compare(&o[2], &r, Tol::Exact, |i| format!("R {i}"))?;
            compare(&o[3], &r2, Tol::Exact, |i| format!("R2 {i}"))
        });
        let bufs = vec![bytes(&a), vec![0; 16 * N], vec![0; 16 * N], vec![0; 16 * N]];
        out.push(case(BUFFER, "tbuffer", bufs, bytes(&[16 * N as u32]), check));
    }
    out
}
