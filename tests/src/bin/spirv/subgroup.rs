//! Cases of `tests/spirv/subgroup/`: every subgroup operation category, with references
//! computed per subgroup from the subgroup size the pipeline ran with (`o.subgroup_size`):
//! subgroup k of a workgroup holds its local invocation indices [k × S, (k + 1) × S), and
//! only the invocations active at the operation take part. Default-size cases run at the
//! device's size; `.subgroup_size(32 | 64)` variants where subgroup size control allows.

use ash::vk::SubgroupFeatureFlags as F;
use softnavi_tests::check::{Lcg, Tol, Val};

use crate::harness::{Case, Need, Output};

/// Which invocations act together at an operation: invocations of one subgroup with the
/// same class; `None` for invocations that are not active there.
type Class<'a> = dyn Fn(usize, usize) -> Option<u32> + 'a;

/// A 1-D dispatch of `groups` workgroups of `local` invocations, subgroups of `s`.
#[derive(Clone, Copy)]
struct Grid {
    groups: usize,
    local: usize,
}

impl Grid {
    fn total(self) -> usize {
        self.groups * self.local
    }

    /// For each invocation (global index): `f(members, lane)` where `members` are the (lane,
    /// global index) of the invocations acting with it, in lane order; `None` when inactive.
    fn each<R>(self, s: usize, class: &Class<'_>, mut f: impl FnMut(&[(usize, usize)], usize) -> R) -> Vec<Option<R>> {
        (0..self.total())
            .map(|g| {
                let (wg, l) = (g / self.local, g % self.local);
                let (first, lane) = (l / s * s, l % s);
                let c = class(g, lane)?;
                let members: Vec<(usize, usize)> = (first..(first + s).min(self.local))
                    .map(|m| (m - first, wg * self.local + m))
                    .filter(|&(ml, mg)| class(mg, ml) == Some(c))
                    .collect();
                Some(f(&members, lane))
            })
            .collect()
    }
}

fn all(_: usize, _: usize) -> Option<u32> {
    Some(0)
}

/// Which members a group operation combines for the invocation in `lane`.
#[derive(Clone, Copy)]
enum Group {
    Reduce,
    Inclusive,
    Exclusive,
    Cluster(usize),
}

const SCANS: [Group; 3] = [Group::Reduce, Group::Inclusive, Group::Exclusive];

fn fold<T: Copy>(members: &[(usize, usize)], lane: usize, g: Group, v: &[T], id: T, op: impl Fn(T, T) -> T) -> T {
    members
        .iter()
        .filter(|&&(l, _)| match g {
            Group::Reduce => true,
            Group::Inclusive => l <= lane,
            Group::Exclusive => l < lane,
            Group::Cluster(c) => l / c == lane / c,
        })
        .fold(id, |acc, &(_, m)| op(acc, v[m]))
}

fn ints(seed: u64, n: usize, f: impl Fn(u64) -> u32) -> Vec<u32> {
    let mut r = Lcg(seed);
    (0..n).map(|_| f(r.next())).collect()
}

/// Checks binding `at` against `want(s)` computed for the subgroup size of the run.
fn expect_per_size<T: Val>(
    at: usize,
    tol: Tol,
    want: impl Fn(usize) -> Vec<T> + 'static,
) -> impl Fn(&Output) -> Result<(), String> {
    move |o: &Output| o.expect(at, &want(o.subgroup_size as usize), tol)
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

type IntOp = fn(i64, i64) -> i64;
type FloatOp = fn(f32, f32) -> f32;

/// (identity, op) of the integer operations in shader order: add, mul, min, max, and, or,
/// xor; `signed` picks the min / max.
fn int_ops(signed: bool) -> Vec<(i64, IntOp)> {
    let (min, max): (IntOp, IntOp) = if signed {
        (|a, b| a.min(b), |a, b| a.max(b))
    } else {
        (|a, b| (a as u32).min(b as u32) as i64, |a, b| (a as u32).max(b as u32) as i64)
    };
    let (min_id, max_id) = if signed { (i32::MAX as i64, i32::MIN as i64) } else { (-1, 0) };
    vec![
        (0, |a, b| a.wrapping_add(b)),
        (1, |a, b| a.wrapping_mul(b)),
        (min_id, min),
        (max_id, max),
        (-1, |a, b| a & b),
        (0, |a, b| a | b),
        (0, |a, b| a ^ b),
    ]
}

pub fn cases() -> Vec<Case> {
    let mut out = Vec::new();
    let arith = Need::Subgroup(F::BASIC | F::ARITHMETIC);

    // Integer operations × (reduce, inclusive, exclusive).
    for (shader, signed) in [("subgroup/arith_int", true), ("subgroup/arith_uint", false)] {
        let grid = Grid { groups: 4, local: 64 };
        let a: Vec<i32> = ints(if signed { 1 } else { 2 }, grid.total(), |r| match r % 4 {
            0 => (r >> 8) as u32,
            1 => (r >> 40) as u32 % 16,
            2 => (r >> 20) as u32 | 0x8000_0000,
            _ => u32::MAX - (r >> 50) as u32,
        })
        .into_iter()
        .map(|x| x as i32)
        .collect();
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new(shader, [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(4 * 21 * grid.total())
                .needs(&[arith])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let v: Vec<i64> = a.iter().map(|&x| x as i64).collect();
                    let ops = int_ops(signed);
                    grid.each(s, &all, |m, lane| {
                        ops.iter()
                            .flat_map(|&(id, op)| SCANS.map(|g| fold(m, lane, g, &v, id, op) as i32))
                            .collect::<Vec<i32>>()
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect()
                }))
        }));
    }

    // Float add / mul / min / max.
    {
        let grid = Grid { groups: 2, local: 128 };
        // ±1, ±2, ±0.5: every sum and product over a subgroup is exact in any order.
        let x: Vec<f32> = ints(3, grid.total(), |r| (r % 6) as u32)
            .iter()
            .map(|&r| [1.0, -1.0, 2.0, -2.0, 0.5, -0.5][r as usize])
            .collect();
        out.extend(sizes(|| {
            let x = x.clone();
            Case::new("subgroup/arith_float", [grid.groups as u32, 1, 1])
                .storage_of(&x)
                .output(4 * 12 * grid.total())
                .needs(&[arith])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let ops: [(f32, FloatOp); 4] = [
                        (0.0, |a, b| a + b),
                        (1.0, |a, b| a * b),
                        (f32::INFINITY, f32::min),
                        (f32::NEG_INFINITY, f32::max),
                    ];
                    grid.each(s, &all, |m, lane| {
                        ops.iter()
                            .flat_map(|&(id, op)| SCANS.map(|g| fold(m, lane, g, &x, id, op)))
                            .collect::<Vec<f32>>()
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect()
                }))
        }));
    }

    // Vector operands: add, inclusive min of an ivec3, exclusive max of a uvec2, inclusive
    // add of a vec3, xor.
    {
        let grid = Grid { groups: 2, local: 64 };
        let a: Vec<i32> = ints(5, 4 * grid.total(), |r| (r >> 16) as u32).into_iter().map(|x| x as i32).collect();
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/arith_vec", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(16 * 5 * grid.total())
                .needs(&[arith])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let comp = |c: usize| -> Vec<i64> { (0..grid.total()).map(|i| a[4 * i + c] as i64).collect() };
                    let cs: Vec<Vec<i64>> = (0..4).map(comp).collect();
                    let f = |c: usize| -> Vec<f32> { cs[c].iter().map(|&x| (x & 15) as f32).collect() };
                    let fs: Vec<Vec<f32>> = (0..3).map(f).collect();
                    grid.each(s, &all, |m, lane| {
                        let r = |g, c: usize, id, op: IntOp| fold(m, lane, g, &cs[c], id, op) as i32;
                        let umax: IntOp = |a, b| (a as u32).max(b as u32) as i64;
                        let mut v = Vec::new();
                        v.extend((0..4).map(|c| r(Group::Reduce, c, 0, |a, b| a.wrapping_add(b))));
                        v.extend((0..3).map(|c| r(Group::Inclusive, c, i32::MAX as i64, |a, b| a.min(b))));
                        v.push(0);
                        v.extend([2, 3].map(|c| r(Group::Exclusive, c, 0, umax)));
                        v.extend([0, 0]);
                        v.extend((0..3).map(|c| fold(m, lane, Group::Inclusive, &fs[c], 0.0, |a, b| a + b) as i32));
                        v.push(0);
                        v.extend((0..4).map(|c| r(Group::Reduce, c, 0, |a, b| a ^ b)));
                        v
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect::<Vec<i32>>()
                }))
        }));
    }

    // Logical and / or / xor.
    {
        let grid = Grid { groups: 2, local: 64 };
        // Mostly-true bits, so that "and" is not always false.
        let a = ints(6, grid.total(), |r| if r % 16 == 0 { 0 } else { (r >> 20) as u32 | 1 });
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/arith_bool", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(4 * 11 * grid.total())
                .needs(&[arith])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let bit = |b: u32| -> Vec<i64> { a.iter().map(|&x| i64::from(x >> b & 1)).collect() };
                    let (p, q0, q1) = (bit(0), bit(1), bit(2));
                    let ops: [(i64, IntOp); 3] = [(1, |a, b| a & b), (0, |a, b| a | b), (0, |a, b| a ^ b)];
                    grid.each(s, &all, |m, lane| {
                        let mut v: Vec<u32> = ops
                            .iter()
                            .flat_map(|&(id, op)| SCANS.map(|g| fold(m, lane, g, &p, id, op) as u32))
                            .collect();
                        v.push(fold(m, lane, Group::Inclusive, &q0, 0, |a, b| a ^ b) as u32);
                        v.push(fold(m, lane, Group::Inclusive, &q1, 0, |a, b| a ^ b) as u32);
                        v
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect::<Vec<u32>>()
                }))
        }));
    }

    // Divergence: lanes with lane % 3 != 0 act together, the others split by parity of x.
    {
        let grid = Grid { groups: 4, local: 64 };
        let a = ints(7, grid.total(), |r| (r >> 40) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/arith_divergent", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(16 * grid.total())
                .needs(&[arith])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let v: Vec<i64> = a.iter().map(|&x| i64::from(x)).collect();
                    let class = |g: usize, lane: usize| -> Option<u32> {
                        if lane % 3 != 0 {
                            Some(0)
                        } else if a[g] % 2 == 0 {
                            Some(1)
                        } else {
                            None
                        }
                    };
                    let add: IntOp = |a, b| (a as u32).wrapping_add(b as u32) as i64;
                    let min: IntOp = |a, b| a.min(b);
                    grid.each(s, &class, |m, lane| {
                        let first = m.iter().find(|&&(l, _)| l == lane).map(|&(_, g)| class(g, lane));
                        let r = |g, id, op| fold(m, lane, g, &v, id, op) as u32;
                        if first == Some(Some(0)) {
                            [
                                r(Group::Reduce, 0, add),
                                r(Group::Inclusive, 0, add),
                                r(Group::Exclusive, u32::MAX as i64, min),
                                r(Group::Reduce, 0, |a, b| a.max(b)),
                            ]
                        } else {
                            [
                                r(Group::Reduce, 0, add),
                                r(Group::Exclusive, 0, add),
                                r(Group::Inclusive, u32::MAX as i64, min),
                                r(Group::Reduce, 0, |a, b| a | b),
                            ]
                        }
                    })
                    .into_iter()
                    .flat_map(|r| r.unwrap_or([0xdead; 4]))
                    .collect::<Vec<u32>>()
                }))
        }));
    }

    // 64-bit integers and doubles.
    {
        let grid = Grid { groups: 2, local: 64 };
        let mut r = Lcg(8);
        let a: Vec<i64> = (0..grid.total()).map(|_| r.next() as i64).collect();
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/arith_64", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(8 * 6 * grid.total())
                .needs(&[arith, Need::Int64, Need::Float64])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let d: Vec<f64> = a.iter().map(|&x| (x >> 40) as f64).collect();
                    grid.each(s, &all, |m, lane| {
                        [
                            fold(m, lane, Group::Reduce, &a, 0, |x, y| x.wrapping_add(y)),
                            fold(m, lane, Group::Inclusive, &a, i64::MAX, |x, y| x.min(y)),
                            fold(m, lane, Group::Exclusive, &a, 0, |x, y| (x as u64).max(y as u64) as i64),
                            fold(m, lane, Group::Inclusive, &a, 0, |x, y| x ^ y),
                            fold(m, lane, Group::Inclusive, &d, 0.0, |x, y| x + y) as i64,
                            fold(m, lane, Group::Reduce, &d, f64::NEG_INFINITY, f64::max) as i64,
                        ]
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect::<Vec<i64>>()
                }))
        }));
    }

    // Clustered add, cluster sizes 1..32.
    let clustered = Need::Subgroup(F::BASIC | F::CLUSTERED);
    {
        let grid = Grid { groups: 4, local: 64 };
        let a = ints(9, grid.total(), |r| (r >> 36) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/clustered", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(4 * 6 * grid.total())
                .needs(&[clustered])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let v: Vec<i64> = a.iter().map(|&x| i64::from(x)).collect();
                    grid.each(s, &all, |m, lane| {
                        (0..6)
                            .map(|k| fold(m, lane, Group::Cluster(1 << k), &v, 0, |a, b| a.wrapping_add(b)) as u32)
                            .collect::<Vec<u32>>()
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect::<Vec<u32>>()
                }))
        }));
    }

    // Clustered min / max / and / or / xor / mul / float add, and add under divergence.
    {
        let grid = Grid { groups: 2, local: 128 };
        let a: Vec<i32> = ints(10, grid.total(), |r| (r >> 33) as u32).into_iter().map(|x| x as i32).collect();
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/clustered_ops", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(4 * 8 * grid.total())
                .needs(&[clustered])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let v: Vec<i64> = a.iter().map(|&x| i64::from(x)).collect();
                    let f: Vec<f32> = a.iter().map(|&x| (x & 255) as f32).collect();
                    let even = |g: usize, _: usize| (a[g] & 1 == 0).then_some(0);
                    let evens = grid.each(s, &even, |m, lane| {
                        fold(m, lane, Group::Cluster(8), &v, 0, |a, b| a.wrapping_add(b)) as i32
                    });
                    grid.each(s, &all, |m, lane| {
                        let c = |n| Group::Cluster(n);
                        vec![
                            fold(m, lane, c(4), &v, i64::MAX, |a, b| a.min(b)) as i32,
                            fold(m, lane, c(8), &v, 0, |a, b| (a as u32).max(b as u32) as i64) as i32,
                            fold(m, lane, c(2), &v, -1, |a, b| a & b) as i32,
                            fold(m, lane, c(16), &v, 0, |a, b| a | b) as i32,
                            fold(m, lane, c(4), &v, 0, |a, b| a ^ b) as i32,
                            fold(m, lane, c(8), &v, 1, |a, b| (a as i32).wrapping_mul(b as i32) as i64) as i32,
                            fold(m, lane, c(4), &f, 0.0, |a, b| a + b) as i32,
                        ]
                    })
                    .into_iter()
                    .zip(evens)
                    .flat_map(|(r, e)| {
                        let mut r = r.unwrap_or_default();
                        r.push(e.unwrap_or(0xdead));
                        r
                    })
                    .collect::<Vec<i32>>()
                }))
        }));
    }

    // A cluster of 64 needs 64-lane subgroups.
    {
        let grid = Grid { groups: 2, local: 128 };
        let a = ints(11, grid.total(), |r| (r >> 40) as u32);
        let want: Vec<u32> = grid
            .each(64, &all, |m, lane| {
                let v: Vec<i64> = a.iter().map(|&x| i64::from(x)).collect();
                [
                    fold(m, lane, Group::Cluster(64), &v, 0, |a, b| a.wrapping_add(b)) as u32,
                    fold(m, lane, Group::Cluster(32), &v, 0, |a, b| a.max(b)) as u32,
                ]
            })
            .into_iter()
            .flatten()
            .flatten()
            .collect();
        out.push(
            Case::new("subgroup/clustered64", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(8 * grid.total())
                .needs(&[clustered])
                .subgroup_size(64)
                .expect(1, want, Tol::Exact),
        );
    }
    out.extend(more_cases());
    out
}

/// A lane mask of `members` with `p`, as the four words of a SPIR-V ballot.
fn ballot(members: &[(usize, usize)], p: impl Fn(usize) -> bool) -> [u32; 4] {
    let mut w = [0u32; 4];
    for &(l, g) in members {
        if p(g) {
            w[l / 32] |= 1 << (l % 32);
        }
    }
    w
}

/// Per-invocation rows of `k` u32 values (`None` rows: all `0xdead`).
fn rows(v: Vec<Option<Vec<u32>>>, k: usize) -> Vec<u32> {
    v.into_iter().flat_map(|r| r.unwrap_or_else(|| vec![0xdead; k])).collect()
}

fn more_cases() -> Vec<Case> {
    let mut out = Vec::new();
    let vote = Need::Subgroup(F::BASIC | F::VOTE);
    let ballot_need = Need::Subgroup(F::BASIC | F::BALLOT);

    // Votes. x < 3000 mostly, so that some subgroups agree and others do not.
    {
        let grid = Grid { groups: 4, local: 64 };
        let a = ints(20, grid.total(), |r| {
            if r % 64 == 0 {
                7
            } else if (r >> 8) % 8 == 0 {
                (r >> 20) as u32 % 3000
            } else {
                100 * ((r >> 30) % 3) as u32 + (r >> 40) as u32 % 30 + (r >> 50) as u32 % 2 * 5000
            }
        });
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/vote", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(32 * grid.total())
                .needs(&[vote])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let every = |m: &[(usize, usize)], p: &dyn Fn(u32) -> bool| m.iter().all(|&(_, g)| p(a[g])) as u32;
                    let some = |m: &[(usize, usize)], p: &dyn Fn(u32) -> bool| m.iter().any(|&(_, g)| p(a[g])) as u32;
                    let same = |m: &[(usize, usize)], f: &dyn Fn(u32) -> u32| {
                        m.iter().all(|&(_, g)| f(a[g]) == f(a[m[0].1])) as u32
                    };
                    let main = grid.each(s, &all, |m, _| {
                        vec![
                            every(m, &|x| x < 1000),
                            some(m, &|x| x == 7),
                            same(m, &|x| x / 1000),
                            same(m, &|x| x / 2000),
                            same(m, &|x| x / 2000),
                            same(m, &|x| (x > 2500) as u32),
                        ]
                    });
                    let third = |_: usize, lane: usize| (lane % 3 != 0).then_some(0);
                    let div = grid.each(s, &third, |m, _| {
                        vec![every(m, &|x| x % 3 != 0) | some(m, &|x| x % 3 == 0) << 1, same(m, &|x| x % 3)]
                    });
                    main.into_iter()
                        .zip(div)
                        .flat_map(|(a, b)| [a.unwrap_or_default(), b.unwrap_or(vec![0xdead; 2])].concat())
                        .collect::<Vec<u32>>()
                }))
        }));
    }

    // Ballots and their bit operations.
    {
        let grid = Grid { groups: 2, local: 128 };
        let a = ints(21, grid.total(), |r| (r >> 24) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/ballot", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(64 * grid.total())
                .needs(&[ballot_need])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let count = |b: [u32; 4], upto: usize| -> u32 {
                        (0..upto.min(s)).filter(|&l| b[l / 32] >> (l % 32) & 1 != 0).count() as u32
                    };
                    let main = grid.each(s, &all, |m, lane| {
                        let b = ballot(m, |g| a[g] & 1 != 0);
                        let bits: Vec<usize> = (0..s).filter(|&l| b[l / 32] >> (l % 32) & 1 != 0).collect();
                        let me = m.iter().find(|&&(l, _)| l == lane).map_or(0, |&(_, g)| a[g]);
                        let first = a[m[0].1];
                        let c = [first, first >> 1, first >> 2, first >> 3];
                        let ix = (me >> 8) as usize % s;
                        let mut v = b.to_vec();
                        v.extend([
                            count(b, s),
                            count(b, lane + 1),
                            count(b, lane),
                            bits.first().map_or(u32::MAX, |&l| l as u32),
                            bits.last().map_or(u32::MAX, |&l| l as u32),
                            b[lane / 32] >> (lane % 32) & 1,
                            b[ix / 32] >> (ix % 32) & 1,
                            c[lane / 32] >> (lane % 32) & 1,
                        ]);
                        v
                    });
                    let some = |g: usize, _: usize| (a[g] % 5 < 3).then_some(0);
                    let div = grid.each(s, &some, |m, lane| {
                        let d = ballot(m, |_| true);
                        let e = ballot(m, |g| a[g] & 2 != 0);
                        vec![d[0], d[1], count(d, s), count(e, lane)]
                    });
                    main.into_iter()
                        .zip(div)
                        .flat_map(|(x, y)| [x.unwrap_or_default(), y.unwrap_or(vec![0xdead; 4])].concat())
                        .collect::<Vec<u32>>()
                }))
        }));
    }

    // Broadcasts: constant lanes, first active lane, elect.
    {
        let grid = Grid { groups: 2, local: 64 };
        let a = ints(22, grid.total(), |r| (r >> 20) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/broadcast", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(32 * grid.total())
                .needs(&[ballot_need])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let at = |m: &[(usize, usize)], l: usize| a[m[l].1];
                    let main = grid.each(s, &all, |m, _| {
                        let x2 = at(m, 2);
                        vec![
                            at(m, 0),
                            at(m, 3),
                            x2.wrapping_add(x2.wrapping_add(1)).wrapping_add(x2.wrapping_mul(2)),
                            ((at(m, 1) & 0xffff) as f32 * 0.5).to_bits(),
                            at(m, 1) & 1,
                            at(m, 0),
                        ]
                    });
                    let upper = |_: usize, lane: usize| (lane % 4 >= 2).then_some(0);
                    let div = grid.each(s, &upper, |m, lane| vec![a[m[0].1], (m[0].0 == lane) as u32]);
                    main.into_iter()
                        .zip(div)
                        .flat_map(|(x, y)| [x.unwrap_or_default(), y.unwrap_or(vec![0xdead; 2])].concat())
                        .collect::<Vec<u32>>()
                }))
        }));
    }

    // Broadcast from a dynamically uniform lane (SPIR-V 1.5).
    for (lane, lane2) in [(5u32, 62u32), (31, 0)] {
        let grid = Grid { groups: 2, local: 64 };
        let a = ints(23, grid.total(), |r| (r >> 20) as u32);
        let push = [lane, lane2].iter().flat_map(|x| x.to_le_bytes()).collect::<Vec<u8>>();
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/broadcast_dynamic", [grid.groups as u32, 1, 1])
                .named(&format!("lane{lane}"))
                .storage_of(&a)
                .output(12 * grid.total())
                .push(push.clone())
                .needs(&[ballot_need])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, _| {
                            vec![a[m[lane as usize % s].1], a[m[lane2 as usize % s].1] ^ 0x55, a[m[s - 1].1]]
                        }),
                        3,
                    )
                }))
        }));
    }

    // Mask built-ins.
    {
        let grid = Grid { groups: 2, local: 128 };
        out.extend(sizes(|| {
            Case::new("subgroup/masks", [grid.groups as u32, 1, 1])
                .output(80 * grid.total())
                .needs(&[ballot_need])
                .check(expect_per_size(0, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let mask = |p: &dyn Fn(usize) -> bool| ballot(m, |g| p(g % 128 % s)).to_vec();
                            [
                                mask(&|l| l == lane),
                                mask(&|l| l >= lane),
                                mask(&|l| l > lane),
                                mask(&|l| l <= lane),
                                mask(&|l| l < lane),
                            ]
                            .concat()
                        }),
                        20,
                    )
                }))
        }));
    }
    out.extend(shuffle_cases());
    out.extend(asm_cases());
    out
}

fn shuffle_cases() -> Vec<Case> {
    let mut out = Vec::new();
    let shuffle = Need::Subgroup(F::BASIC | F::SHUFFLE);

    // Shuffles from computed lanes and xor shuffles.
    {
        let grid = Grid { groups: 2, local: 64 };
        let a = ints(30, grid.total(), |r| (r >> 20) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/shuffle", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(40 * grid.total())
                .needs(&[shuffle])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let at = |l: usize| a[m[l].1];
                            let me = at(lane);
                            let mut v = vec![
                                at((lane * 7 + 3) % s),
                                at(s - 1 - lane),
                                (at((lane + s / 2) % s) & 0xff) + 1000,
                                at(me as usize % s) & 1,
                            ];
                            v.extend((0..6).map(|k| if 1 << k < s { at(lane ^ (1 << k)) } else { 0xdead }));
                            v
                        }),
                        10,
                    )
                }))
        }));
    }

    // Relative shuffles.
    {
        let grid = Grid { groups: 2, local: 128 };
        let a = ints(31, grid.total(), |r| (r >> 20) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/shuffle_relative", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(32 * grid.total())
                .needs(&[Need::Subgroup(F::BASIC | F::SHUFFLE_RELATIVE)])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let at = |l: usize| a[m[l].1];
                            [1, 3, 16, 33]
                                .iter()
                                .flat_map(|&d| {
                                    [
                                        if lane >= d { at(lane - d) } else { 0xdead },
                                        if lane + d < s { at(lane + d) } else { 0xdead },
                                    ]
                                })
                                .collect()
                        }),
                        8,
                    )
                }))
        }));
    }

    // Quad operations.
    {
        let grid = Grid { groups: 2, local: 64 };
        let a = ints(32, grid.total(), |r| (r >> 20) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/quad", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(32 * grid.total())
                .needs(&[Need::Subgroup(F::BASIC | F::QUAD)])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let at = |l: usize| a[m[l].1];
                            let q = lane & !3;
                            vec![
                                at(q),
                                at(q + 1),
                                at(q + 2),
                                at(q + 3),
                                at(lane ^ 1),
                                at(lane ^ 2),
                                (at(lane ^ 3) & 0x3fff_ffff) | 0x0080_0000,
                                at(lane ^ 1) & 1,
                            ]
                        }),
                        8,
                    )
                }))
        }));
    }

    // A partial last subgroup: 40 invocations per workgroup.
    {
        let grid = Grid { groups: 3, local: 40 };
        let a = ints(33, grid.total(), |r| (r >> 40) as u32);
        let need = Need::Subgroup(F::BASIC | F::ARITHMETIC | F::BALLOT | F::VOTE);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/partial", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(32 * grid.total())
                .needs(&[need])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let v: Vec<i64> = a.iter().map(|&x| i64::from(x)).collect();
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let me = m.iter().find(|&&(l, _)| l == lane).map_or(0, |&(_, g)| g);
                            vec![
                                fold(m, lane, Group::Reduce, &v, 0, |a, b| a.wrapping_add(b)) as u32,
                                fold(m, lane, Group::Exclusive, &v, 0, |a, b| a.wrapping_add(b)) as u32,
                                fold(m, lane, Group::Reduce, &v, i64::MAX, |a, b| a.min(b)) as u32,
                                m.len() as u32,
                                m.len() as u32 - 1,
                                1,
                                40usize.div_ceil(s) as u32,
                                (me % 40 / s) as u32,
                            ]
                        }),
                        8,
                    )
                }))
        }));
    }

    // GL_ARB_shader_group_vote.
    {
        let grid = Grid { groups: 4, local: 64 };
        let a = ints(34, grid.total(), |r| {
            if r % 50 == 0 {
                7
            } else {
                (r >> 20) as u32 % 4000 / 8 * (1 + (r >> 60) as u32 % 8)
            }
        });
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/arb_vote", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(12 * grid.total())
                .needs(&[Need::Subgroup(F::BASIC | F::VOTE)])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, _| {
                            let p = |f: &dyn Fn(u32) -> bool| m.iter().map(|&(_, g)| f(a[g])).collect::<Vec<bool>>();
                            let t = p(&|x| x / 1000 == 3);
                            vec![
                                p(&|x| x < 1000).iter().all(|&b| b) as u32,
                                p(&|x| x == 7).iter().any(|&b| b) as u32,
                                t.iter().all(|&b| b == t[0]) as u32,
                            ]
                        }),
                        3,
                    )
                }))
        }));
    }

    // GL_ARB_shader_ballot (64-bit masks: needs Int64).
    {
        let grid = Grid { groups: 2, local: 64 };
        let a = ints(35, grid.total(), |r| (r >> 20) as u32);
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/arb_ballot", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(24 * grid.total())
                .needs(&[Need::Subgroup(F::BASIC | F::BALLOT), Need::Int64])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let b = ballot(m, |g| a[g] & 1 != 0);
                            let lt = ballot(m, |g| g % 64 % s < lane);
                            let ge = ballot(m, |g| g % 64 % s >= lane);
                            vec![b[0], b[1], a[m[0].1], a[m[5].1], lt[0] ^ ge[1], s as u32 * 1000 + lane as u32]
                        }),
                        6,
                    )
                }))
        }));
    }

    // 64-bit shuffles and broadcasts.
    {
        let grid = Grid { groups: 2, local: 64 };
        let mut r = Lcg(36);
        let a: Vec<u64> = (0..grid.total()).map(|_| r.next()).collect();
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/shuffle_64", [grid.groups as u32, 1, 1])
                .storage_of(&a)
                .output(32 * grid.total())
                .needs(&[Need::Subgroup(F::BASIC | F::SHUFFLE | F::BALLOT), Need::Int64, Need::Float64])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    grid.each(s, &all, |m, lane| {
                        let at = |l: usize| a[m[l].1];
                        [at((lane + 5) % s), at(lane ^ (s / 2)), at(1), (at(lane ^ 1) >> 20) as f64 as u64]
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect::<Vec<u64>>()
                }))
        }));
    }
    out
}

/// The hand-written SPIR-V assembly forms.
pub fn asm_cases() -> Vec<Case> {
    let grid = Grid { groups: 2, local: 64 };
    let need = Need::Subgroup(F::BASIC | F::BALLOT | F::QUAD | F::ARITHMETIC);
    let mut out = Vec::new();
    // a[0] picks the lanes (and is the uniform ballot): bits 0..2 lane 5, quad lane 1.
    for (name, first) in [("a", 0x8000_0025u32), ("b", 0x0000_fff2)] {
        let mut a = ints(40, grid.total(), |r| (r >> 20) as u32);
        a[0] = first;
        out.extend(sizes(|| {
            let a = a.clone();
            Case::new("subgroup/dynamic_lanes", [grid.groups as u32, 1, 1])
                .named(name)
                .storage_of(&a)
                .output(16 * grid.total())
                .needs(&[need])
                .check(expect_per_size(1, Tol::Exact, move |s| {
                    let p: Vec<i64> = a.iter().map(|&x| i64::from(x & 1)).collect();
                    rows(
                        grid.each(s, &all, |m, lane| {
                            let at = |l: usize| a[m[l].1];
                            vec![
                                at((a[0] & 7) as usize),
                                at((lane & !3) | (a[0] & 3) as usize),
                                fold(m, lane, Group::Inclusive, &p, 0, |x, y| x ^ y) as u32,
                                a[0] >> (lane % 32) & 1,
                            ]
                        }),
                        4,
                    )
                }))
        }));
    }
    vec3_16bit_cases(&mut out);

    out
}

/// `subgroup/vec3_16bit`: i16vec3 and f16vec3 values across lanes (reduce, broadcasts, an
/// f16 inclusive scan of values exact in f16 and never -0, all-equal), per subgroup size.
fn vec3_16bit_cases(out: &mut Vec<Case>) {
    use half::f16;
    let a: Vec<[i16; 3]> = (0..64).map(|i| [i as i16 - 20, 3 * i as i16, 100 - i as i16]).collect();
    let h: Vec<[f32; 3]> = (0..64).map(|i| [i as f32, 0.5 * i as f32, -(i as f32) - 1.0]).collect();
    let mut input = vec![0u8; 1024];
    for i in 0..64 {
        for c in 0..3 {
            input[8 * i + 2 * c..8 * i + 2 * c + 2].copy_from_slice(&a[i][c].to_le_bytes());
            let hb = f16::from_f32(h[i][c]).to_bits().to_le_bytes();
            input[512 + 8 * i + 2 * c..512 + 8 * i + 2 * c + 2].copy_from_slice(&hb);
        }
    }
    let want = move |s: usize| -> Vec<u32> {
        let mut o = vec![0u8; 2304];
        let mut put = |at: usize, v: u16| o[at..at + 2].copy_from_slice(&v.to_le_bytes());
        for i in 0..64 {
            let base = i / s * s;
            for c in 0..3 {
                let sum = (base..base + s).fold(0i16, |x, j| x.wrapping_add(a[j][c]));
                put(8 * i + 2 * c, sum as u16);
                put(512 + 8 * i + 2 * c, a[base][c] as u16);
                let scan: f32 = (base..=i).map(|j| h[j][c]).sum();
                put(1024 + 8 * i + 2 * c, f16::from_f32(scan).to_bits());
                put(1536 + 8 * i + 2 * c, f16::from_f32(h[base + 1][c]).to_bits());
            }
            // all-equal of zeros: yes; of the f16 values: no.
            put(2048 + 4 * i, 1);
        }
        o.chunks(4).map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]])).collect()
    };
    let need = [
        Need::StorageBuffer16,
        Need::Int16,
        Need::Float16,
        Need::SubgroupExtendedTypes,
        Need::Subgroup(F::BASIC | F::ARITHMETIC | F::BALLOT | F::VOTE),
    ];
    let input = std::sync::Arc::new(input);
    let want = std::sync::Arc::new(want);
    out.extend(sizes(|| {
        let want = want.clone();
        Case::new("subgroup/vec3_16bit", [1, 1, 1])
            .needs(&need)
            .storage(input.to_vec())
            .output(2304)
            .check(expect_per_size(1, Tol::Exact, move |s| want(s)))
    }));
}
