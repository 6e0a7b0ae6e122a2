//! Shared by the test runners (`softnavi-clkernels`, `softnavi-spirv`): values read back
//! from GPU buffers, tolerant comparison with CPU references, and input generators that
//! start with the edge cases of each type.

use std::fmt::Debug;

use half::f16;

// ---- values and tolerances ------------------------------------------------------------------

#[derive(Clone, Copy, Debug)]
pub enum Tol {
    /// Same bits (any NaN matches any NaN).
    Exact,
    /// Within this many units in the last place (±0 equal; NaN matches NaN only).
    Ulp(u32),
    /// Within this absolute error.
    Abs(f64),
    /// Within this relative error.
    Rel(f64),
}

pub trait Val: Copy + Debug + 'static {
    const SIZE: usize;
    fn put(self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
    fn close(self, other: Self, tol: Tol) -> bool;
}

macro_rules! int_val {
    ($($t:ty),*) => {$(
        impl Val for $t {
            const SIZE: usize = std::mem::size_of::<$t>();
            fn put(self, out: &mut Vec<u8>) { out.extend_from_slice(&self.to_le_bytes()); }
            fn get(b: &[u8]) -> Self { <$t>::from_le_bytes(b[..Self::SIZE].try_into().unwrap()) }
            fn close(self, other: Self, _: Tol) -> bool { self == other }
        }
    )*};
}
int_val!(i8, u8, i16, u16, i32, u32, i64, u64);

/// Float comparison on (value as f64, is NaN, ordered bits, ulp size).
pub fn float_close(a: f64, b: f64, a_ord: i64, b_ord: i64, exact: bool, tol: Tol) -> bool {
    if a.is_nan() || b.is_nan() {
        return a.is_nan() && b.is_nan();
    }
    match tol {
        Tol::Exact => exact,
        Tol::Ulp(n) => a == b || (a_ord - b_ord).unsigned_abs() <= n as u64,
        Tol::Abs(e) => a == b || (a - b).abs() <= e,
        Tol::Rel(e) => a == b || (a - b).abs() <= e * b.abs(),
    }
}

/// Maps float bits to integers ordered like the values, with ±0 both at 0.
pub fn ordered(bits: i64, sign_bit: i64) -> i64 {
    if bits & sign_bit != 0 {
        -(bits & !sign_bit)
    } else {
        bits
    }
}

impl Val for f32 {
    const SIZE: usize = 4;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        f32::from_le_bytes(b[..4].try_into().unwrap())
    }
    fn close(self, o: Self, tol: Tol) -> bool {
        let (x, y) = (self.to_bits() as i64, o.to_bits() as i64);
        float_close(self as f64, o as f64, ordered(x, 1 << 31), ordered(y, 1 << 31), x == y, tol)
    }
}
impl Val for f64 {
    const SIZE: usize = 8;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        f64::from_le_bytes(b[..8].try_into().unwrap())
    }
    fn close(self, o: Self, tol: Tol) -> bool {
        let (x, y) = (self.to_bits() as i64, o.to_bits() as i64);
        float_close(self, o, ordered(x, i64::MIN), ordered(y, i64::MIN), x == y, tol)
    }
}
impl Val for f16 {
    const SIZE: usize = 2;
    fn put(self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.to_le_bytes());
    }
    fn get(b: &[u8]) -> Self {
        f16::from_le_bytes([b[0], b[1]])
    }
    fn close(self, o: Self, tol: Tol) -> bool {
        let (x, y) = (self.to_bits() as i64, o.to_bits() as i64);
        float_close(self.to_f64(), o.to_f64(), ordered(x, 1 << 15), ordered(y, 1 << 15), x == y, tol)
    }
}
impl<T: Val, const N: usize> Val for [T; N] {
    const SIZE: usize = T::SIZE * N;
    fn put(self, out: &mut Vec<u8>) {
        for v in self {
            v.put(out);
        }
    }
    fn get(b: &[u8]) -> Self {
        std::array::from_fn(|k| T::get(&b[k * T::SIZE..]))
    }
    fn close(self, o: Self, tol: Tol) -> bool {
        self.iter().zip(o.iter()).all(|(a, b)| a.close(*b, tol))
    }
}

pub fn bytes<T: Val>(v: &[T]) -> Vec<u8> {
    let mut out = Vec::with_capacity(v.len() * T::SIZE);
    for x in v {
        x.put(&mut out);
    }
    out
}

pub fn values<T: Val>(b: &[u8]) -> Vec<T> {
    b.chunks_exact(T::SIZE).map(T::get).collect()
}

// ---- inputs -----------------------------------------------------------------------------------

/// Work-items of the element-wise kernels (two workgroups of 64).
pub const N: usize = 128;

/// A 64-bit linear congruential generator (with an output shift): reproducible inputs.
pub struct Lcg(pub u64);
impl Lcg {
    #[allow(clippy::should_implement_trait)] // not an iterator: it never ends
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 11 ^ self.0 << 29
    }
    pub fn f32_in(&mut self, lo: f32, hi: f32) -> f32 {
        lo + (hi - lo) * ((self.next() >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// `edges` first, then random values from `gen`, N in all.
pub fn fill<T: Copy>(seed: u64, edges: &[T], mut gen: impl FnMut(&mut Lcg) -> T) -> Vec<T> {
    let mut r = Lcg(seed);
    (0..N).map(|i| if i < edges.len() { edges[i] } else { gen(&mut r) }).collect()
}

pub const I32_EDGES: &[i32] = &[
    0,
    1,
    -1,
    i32::MIN,
    i32::MAX,
    2,
    -2,
    31,
    32,
    33,
    63,
    64,
    0x7fff,
    -0x8000,
    0xffff,
    1000,
    -1000,
    0x00ff_ffff,
    0x0080_0000,
    -0x0080_0000,
    255,
    256,
    -129,
    7,
    -7,
    i32::MIN + 1,
    0x5555_5555,
    -0x5555_5556,
];

pub fn i32s(seed: u64) -> Vec<i32> {
    fill(seed, I32_EDGES, |r| match r.next() % 4 {
        0 => (r.next() % 2000) as i32 - 1000,
        1 => (r.next() % 64) as i32,
        _ => r.next() as i32,
    })
}
pub fn u32s(seed: u64) -> Vec<u32> {
    i32s(seed).into_iter().map(|v| v as u32).collect()
}
pub fn i64s(seed: u64) -> Vec<i64> {
    let edges = [0, 1, -1, i64::MIN, i64::MAX, 63, 64, 65, 1 << 32, -(1 << 32), 0xffff_ffff, 3, -3, i64::MIN + 1];
    fill(seed, &edges, |r| match r.next() % 4 {
        0 => (r.next() % 2000) as i64 - 1000,
        1 => (r.next() % 128) as i64,
        2 => r.next() as i32 as i64,
        _ => r.next() as i64 ^ (r.next() << 40) as i64,
    })
}
pub fn u64s(seed: u64) -> Vec<u64> {
    i64s(seed).into_iter().map(|v| v as u64).collect()
}

pub const F32_EDGES: &[f32] = &[
    0.0,
    -0.0,
    1.0,
    -1.0,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
    0.5,
    1.5,
    2.5,
    -2.5,
    3.0,
    f32::MAX,
    f32::MIN_POSITIVE,
    1e-45,
    -1e-40,
    1e10,
    -1e-10,
    0.1,
    -0.7,
    16777217.0,
    -8388609.5,
];

pub fn f32s(seed: u64) -> Vec<f32> {
    let mut v = fill(seed, F32_EDGES, |r| match r.next() % 3 {
        0 => r.f32_in(-10.0, 10.0),
        1 => f32::from_bits(r.next() as u32),
        _ => r.f32_in(-1e6, 1e6),
    });
    // A signalling NaN.
    v[N - 1] = f32::from_bits(0x7f80_0001);
    v
}
/// Finite values in [lo, hi) (edges inside the range first).
pub fn f32s_in(seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let edges: Vec<f32> = F32_EDGES.iter().copied().filter(|x| *x >= lo && *x < hi).collect();
    fill(seed, &edges, |r| r.f32_in(lo, hi))
}
pub fn f64s(seed: u64) -> Vec<f64> {
    let edges = [
        0.0,
        -0.0,
        1.0,
        -1.0,
        f64::INFINITY,
        f64::NEG_INFINITY,
        f64::NAN,
        0.1,
        3.0,
        f64::MAX,
        f64::MIN_POSITIVE,
        5e-324,
        1e300,
        -2.5,
    ];
    fill(seed, &edges, |r| match r.next() % 3 {
        0 => (r.next() % 20000) as f64 / 7.0 - 1000.0,
        1 => f64::from_bits(r.next()),
        _ => (r.next() as i64) as f64 / 3.0,
    })
}
pub fn f16s(seed: u64) -> Vec<f16> {
    let edges = [0.0f32, -0.0, 1.0, -1.0, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 65504.0, 6.1e-5, 6e-8, 0.1, 2.5];
    let e: Vec<f16> = edges.iter().map(|&x| f16::from_f32(x)).collect();
    fill(seed, &e, |r| f16::from_bits(r.next() as u16))
}

/// Compares `got` with `want` element by element.
pub fn compare<T: Val>(got: &[u8], want: &[T], tol: Tol, inputs: impl Fn(usize) -> String) -> Result<(), String> {
    let got: Vec<T> = values(got);
    let bad: Vec<usize> = (0..want.len()).filter(|&i| !got[i].close(want[i], tol)).collect();
    match bad.first() {
        None => Ok(()),
        Some(&i) => Err(format!(
            "{} of {} wrong; first at {i}: inputs {}, got {:?}, want {:?} ({tol:?})",
            bad.len(),
            want.len(),
            inputs(i),
            got[i],
            want[i]
        )),
    }
}
