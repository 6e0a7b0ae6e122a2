//! The common case of `image_sample_l` / `image_sample_lz` done per instruction: a 2D
//! linear image of a float format, one level sampled (a single-level view, MIP_FILTER
//! NONE or unnormalised coordinates) with the same XY filter for magnification and
//! minification, and no offset, bias, clamp, compare or gradients. The level's texels are
//! located through one translation for the whole instruction and the taps read them
//! directly, 8_8_8_8 UNORM through its table; everything else is `sample.rs`'s arithmetic
//! in the same order (`Env::position`, `wrap`, the corner order and f32 weights of
//! `Env::filter`), so the results are the same bit for bit. Where the level's span is not
//! in one buffer object the general path runs, which reports faults per tap.

use super::{bilinear, wrap, Env, Form, Lane};
use crate::isa::exec::imgfast;
use crate::isa::exec::Ctx;
use crate::rsrc::{img_type, mip_filter, tex_filter, SW_LINEAR};

/// One instruction's level, located.
pub(super) struct Level {
    host: *const u8,
    row: usize,
    bpe: usize,
    ext: [i64; 2],
    clamp: [u32; 2],
    level: u32,
    linear: bool,
    rgba8: bool,
    /// The border texel as the shader sees it.
    border: [f32; 4],
    /// DST_SEL as indices into a texel's components, then 1 and 0 (`buffer::pick`'s rule).
    swz: [usize; 4],
    one: u32,
    f: crate::format::BufFormat,
}

/// Whether this form, T# and S# take the per-instruction path.
fn applies(env: &Env, fm: Form) -> bool {
    let f = |x: u32| x == tex_filter::BILINEAR || x == tex_filter::ANISO_BILINEAR;
    let (t, s) = (&env.t, &env.s);
    let plain = !(fm.gather || fm.get_lod || fm.compare || fm.grad || fm.offset || fm.clamp || fm.bias);
    plain
        && (fm.lod || fm.lz)
        && t.kind == img_type::IMG_2D
        && t.sw_mode == SW_LINEAR
        && env.f.is_float()
        && f(s.xy_mag_filter) == f(s.xy_min_filter)
        && (env.unnorm || s.mip_filter == mip_filter::NONE || env.q == 0)
}

impl Level {
    /// The level every lane samples, located, or `None` when the general path must run.
    pub(super) fn new(env: &Env, fm: Form, ctx: &mut Ctx) -> Option<Level> {
        if !applies(env, fm) || env.block.is_some() {
            return None;
        }
        let level = env.t.base_level;
        let (lv, ext) = env.levels.get(level as usize).copied().flatten()?;
        let bpe = env.f.bytes as u64;
        let len = (ext[1] as u64 - 1) * lv.row_pitch + ext[0] as u64 * bpe;
        let host = ctx.tlb.translate(ctx.vm, env.t.base.wrapping_add(lv.offset), len, false).ok()?;
        let swz = imgfast::swizzle(&env.t);
        let linear = env.s.xy_mag_filter == tex_filter::BILINEAR || env.s.xy_mag_filter == tex_filter::ANISO_BILINEAR;
        let rgba8 = matches!((env.f.num, env.f.bits), (crate::format::Num::Unorm, [8, 8, 8, 8]));
        Some(Level {
            host,
            row: lv.row_pitch as usize,
            bpe: bpe as usize,
            ext: [ext[0] as i64, ext[1] as i64],
            clamp: [env.s.clamp[0], env.s.clamp[1]],
            level,
            linear,
            rgba8,
            border: env.swizzle(env.border).map(f32::from_bits),
            swz,
            one: env.f.one(false),
            f: env.f,
        })
    }

    /// Lane `l`'s result, as `Env::sample` computes it.
    pub(super) fn sample(&self, env: &Env, l: &Lane) -> [u32; 4] {
        let p = env.position(l, self.level);
        if !self.linear {
            let mut acc = [0f32; 4];
            let v = self.tap(p[0].floor() as i64, p[1].floor() as i64);
            let w = 1f32;
            for k in 0..4 {
                acc[k] += w * v[k];
            }
            return acc.map(f32::to_bits);
        }
        let taps = bilinear([p[0], p[1]], |x, y| Ok::<_, std::convert::Infallible>(self.tap(x, y)));
        let Ok(acc) = taps;
        acc.map(f32::to_bits)
    }

    /// The texel at `(x, y)` after wrapping, or the border, as f32 values.
    fn tap(&self, x: i64, y: i64) -> [f32; 4] {
        let (Some(x), Some(y)) = (wrap(self.clamp[0], x, self.ext[0]), wrap(self.clamp[1], y, self.ext[1])) else {
            return self.border;
        };
        // SAFETY: `new` translated the level's span, rows 0..ext[1] of `row` bytes with
        // `ext[0]` texels each; wrapping keeps x and y inside it.
        let p = unsafe { self.host.add(y as usize * self.row + x as usize * self.bpe) };
        let comp = if self.rgba8 {
            // SAFETY: as above, a 4-byte texel.
            let w = unsafe { p.cast::<u32>().read_unaligned() };
            let t = imgfast::unorm8_table();
            [t[(w & 0xff) as usize], t[(w >> 8 & 0xff) as usize], t[(w >> 16 & 0xff) as usize], t[(w >> 24) as usize]]
        } else {
            let mut b = [0u8; 16];
            // SAFETY: as above, `bpe` (at most 16) bytes.
            unsafe { std::ptr::copy_nonoverlapping(p, b.as_mut_ptr(), self.bpe) };
            imgfast::load_texel(&self.f, &b)
        };
        // `load_texel` gives 0 past the format's components, as `Env::swizzle` wants them.
        let c = [comp[0], comp[1], comp[2], comp[3], self.one, 0];
        self.swz.map(|i| f32::from_bits(c[i]))
    }
}
