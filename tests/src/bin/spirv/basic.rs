//! Cases of `tests/spirv/basic/`: the runner's own smoke tests (buffers, push constants,
//! uniform blocks, specialisation, built-ins, shared memory).

use softnavi_tests::check::{bytes, f32s_in, u32s, Tol, N};

use crate::harness::Case;

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();

    let (x, y) = (f32s_in(1, -100.0, 100.0), f32s_in(2, -100.0, 100.0));
    let (a, n) = (2.5f32, N as u32 - 3);
    let want: Vec<f32> = (0..N).map(|i| if i < n as usize { a.mul_add(x[i], y[i]) } else { y[i] }).collect();
    let mut push = a.to_le_bytes().to_vec();
    push.extend_from_slice(&n.to_le_bytes());
    // a * x + y rounds once or twice (fma contraction is allowed); |x|, |y| < 100 and
    // a = 2.5 bound the difference by a few ulps of 350.
    out.push(Case::new("basic/saxpy", [2, 1, 1]).storage_of(&x).storage_of(&y).push(push).expect(
        1,
        want,
        Tol::Abs(1e-4),
    ));

    let (groups, size) = ([3u32, 2, 2], [4u32, 2, 2]);
    let n = [groups[0] * size[0], groups[1] * size[1], groups[2] * size[2]];
    let mut want = Vec::new();
    for z in 0..n[2] {
        for y in 0..n[1] {
            for x in 0..n[0] {
                let l = [x % size[0], y % size[1], z % size[2]];
                let index = l[0] + size[0] * (l[1] + size[1] * l[2]);
                want.extend_from_slice(&[x, y, z, index, l[0], l[1], l[2], 0]);
                want.extend_from_slice(&[x / size[0], y / size[1], z / size[2], 0, groups[0], groups[1], groups[2], 0]);
            }
        }
    }
    out.push(Case::new("basic/ids", groups).output(4 * want.len()).expect(0, want, Tol::Exact));

    for (local, scale) in [(32u32, 3i32), (64, -7)] {
        let (bias, k) = ([10i32, -20, 30, -40], 5i32);
        let mut ubo = bytes(&bias);
        ubo.extend_from_slice(&k.to_le_bytes());
        let want: Vec<i32> = (0..256).map(|i| i * scale * k + bias[i as usize % 4] + local as i32).collect();
        out.push(
            Case::new("basic/uniform_spec", [256 / local, 1, 1])
                .named(&format!("local{local}"))
                .uniform(ubo)
                .output(4 * 256)
                .spec(0, local.to_le_bytes().to_vec())
                .spec(1, scale.to_le_bytes().to_vec())
                .expect(1, want, Tol::Exact),
        );
    }

    let v: Vec<u32> = u32s(3).iter().chain(u32s(4).iter()).map(|x| x >> 8).collect();
    let want: Vec<u32> = v.chunks(128).map(|c| c.iter().fold(0u32, |s, x| s.wrapping_add(*x))).collect();
    out.push(Case::new("basic/shared_reduce", [2, 1, 1]).storage_of(&v).output(8).expect(1, want, Tol::Exact));

    // Workgroup algorithms: scan, histogram, matrix product, tiled transpose, divergent
    // loops, sorting.
    let v: Vec<u32> = u32s(5).iter().chain(u32s(6).iter()).map(|x| x & 0xffff).collect();
    let want: Vec<u32> = v
        .chunks(64)
        .flat_map(|c| {
            c.iter()
                .scan(0u32, |acc, x| {
                    *acc += x;
                    Some(*acc)
                })
                .collect::<Vec<_>>()
        })
        .collect();
    out.push(Case::new("basic/prefix_scan", [4, 1, 1]).storage_of(&v).output(4 * 256).expect(1, want, Tol::Exact));

    let v: Vec<u32> = u32s(7).iter().chain(u32s(8).iter()).copied().collect();
    let mut hist = vec![0u32; 16];
    for x in &v {
        hist[(x & 15) as usize] += 1;
    }
    out.push(Case::new("basic/histogram", [4, 1, 1]).storage_of(&v).output(64).expect(1, hist, Tol::Exact));

    let a: Vec<i32> = (0..256).map(|i| (i * 37 % 41) - 20).collect();
    let b: Vec<i32> = (0..256).map(|i| (i * 53 % 29) - 14).collect();
    let c: Vec<i32> = (0..256).map(|e| (0..16).map(|i| a[e / 16 * 16 + i] * b[i * 16 + e % 16]).sum()).collect();
    out.push(Case::new("basic/matmul", [2, 2, 1]).storage_of(&a).storage_of(&b).output(1024).expect(2, c, Tol::Exact));

    let m: Vec<u32> = (0..1024).collect();
    let t: Vec<u32> = (0..1024u32).map(|i| (i % 32) * 32 + i / 32).collect();
    out.push(Case::new("basic/transpose_tile", [4, 4, 1]).storage_of(&m).output(4096).expect(1, t, Tol::Exact));

    let n: Vec<u32> = (1..=128u32).map(|i| i * 7 + 1).collect();
    let steps: Vec<u32> = n
        .iter()
        .map(|&x| {
            let (mut x, mut k) = (x, 0);
            while x > 1 {
                x = if x & 1 != 0 { 3 * x + 1 } else { x >> 1 };
                k += 1;
            }
            k
        })
        .collect();
    out.push(Case::new("basic/collatz", [4, 1, 1]).storage_of(&n).output(512).expect(1, steps, Tol::Exact));

    let d: Vec<u32> = u32s(9).iter().chain(u32s(10).iter()).copied().collect();
    let sorted: Vec<u32> = d
        .chunks(128)
        .flat_map(|c| {
            let mut c = c.to_vec();
            c.sort_unstable();
            c
        })
        .collect();
    out.push(Case::new("basic/bitonic_sort", [2, 1, 1]).storage_of(&d).expect(0, sorted, Tol::Exact));
    out
}
