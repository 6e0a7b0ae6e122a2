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
type Class = dyn Fn(usize, usize) -> Option<u32>;

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
    fn each<R>(self, s: usize, class: &Class, mut f: impl FnMut(&[(usize, usize)], usize) -> R) -> Vec<Option<R>> {
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
fn expect_per_size<T: Val>(at: usize, tol: Tol, want: impl Fn(usize) -> Vec<T> + 'static) -> impl Fn(&Output) -> Result<(), String> {
    move |o: &Output| o.expect(at, &want(o.subgroup_size as usize), tol)
}

/// The case at the device's subgroup size and, where subgroup size control allows, at
/// 32 and 64.
fn sizes(case: impl Fn() -> Case) -> Vec<Case> {
    let mut out = vec![case()];
    for s in [32, 64] {
        out.push(case().subgroup_size(s).named(&format!("s{s}")));
    }
    out
}

type IntOp = fn(i64, i64) -> i64;

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
            Case::new(shader, [grid.groups as u32, 1, 1]).storage_of(&a).output(4 * 21 * grid.total()).needs(&[arith]).check(
                expect_per_size(1, Tol::Exact, move |s| {
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
                }),
            )
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
                    let ops: [(f32, fn(f32, f32) -> f32); 4] =
                        [(0.0, |a, b| a + b), (1.0, |a, b| a * b), (f32::INFINITY, f32::min), (f32::NEG_INFINITY, f32::max)];
                    grid.each(s, &all, |m, lane| {
                        ops.iter().flat_map(|&(id, op)| SCANS.map(|g| fold(m, lane, g, &x, id, op))).collect::<Vec<f32>>()
                    })
                    .into_iter()
                    .flatten()
                    .flatten()
                    .collect()
                }))
        }));
    }
    out
}
