//! The block-compressed image formats the texture unit decodes: gfx11 image formats 109 to
//! 122, BC1 to BC7 (the numbers of Mesa's gfx11 format table, `gfx11-rsrc.json`:
//! `BC1_UNORM` 109, `BC1_SRGB` 110, ... `BC7_SRGB` 122). An image of them is a grid of 4×4
//! texel blocks (8 bytes for BC1 and BC4, 16 for the others), which the linear layout
//! lays out as elements (`ImageResource::linear_level_in`); reads decode the block that
//! holds a texel. The block encodings are Microsoft's BC1–BC7 (Vulkan's "Block-Compressed
//! Image Formats" names them), decoded by `bcdec_rs`, a port of the widely used bcdec.
//!
//! Decoded values, as image loads and samplers return them: BC1, BC2, BC3 and BC7 RGBA
//! UNORM from their 8-bit decodings, sRGB formats' RGB through the sRGB EOTF; BC4 and BC5
//! one and two UNORM or SNORM components; BC6H three half floats (unsigned or signed).
//! Components a format lacks read as 0, alpha as 1.

/// One BCn format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Block {
    /// 1..=7.
    pub bc: u8,
    /// SNORM (BC4, BC5) or SFLOAT (BC6H).
    pub signed: bool,
    /// sRGB-encoded RGB (BC1, BC2, BC3, BC7).
    pub srgb: bool,
}

/// Texels per block side.
pub const BLOCK_DIM: u32 = 4;

impl Block {
    /// The BCn format with gfx11 image format number `n`.
    pub fn from_image(n: u32) -> Option<Block> {
        let k = n.checked_sub(109).filter(|&k| k < 14)?;
        let bc = (k / 2 + 1) as u8;
        let second = k % 2 == 1;
        Some(match bc {
            4..=6 => Block { bc, signed: second, srgb: false },
            _ => Block { bc, signed: false, srgb: second },
        })
    }

    /// Bytes of one 4×4 block.
    pub fn bytes(&self) -> u32 {
        if matches!(self.bc, 1 | 4) {
            8
        } else {
            16
        }
    }

    /// How a read sees it: the decoded texel's components are 32_32_32_32_FLOAT, and the
    /// element the layout addresses is a block ([`Self::bytes`]).
    pub fn decoded(&self) -> super::BufFormat {
        super::BufFormat { comps: 4, bits: [32; 4], bytes: self.bytes() as u8, num: super::Num::Float }
    }

    /// The format of the decoded texels [`Self::texel`] gives, as loads take their bytes.
    pub fn texel_format() -> super::BufFormat {
        super::BufFormat { comps: 4, bits: [32; 4], bytes: 16, num: super::Num::Float }
    }

    /// Components of a decoded texel.
    pub fn comps(&self) -> u8 {
        match self.bc {
            4 => 1,
            5 => 2,
            6 => 3,
            _ => 4,
        }
    }

    /// Texel (`x`, `y`) (each 0..4) of the block `b` (at least [`Self::bytes`] long): its
    /// components as f32, the missing ones 0 (alpha 1).
    pub fn texel(&self, b: &[u8], x: usize, y: usize) -> [f32; 4] {
        let i = y * 4 + x;
        let mut out = [0.0, 0.0, 0.0, 1.0];
        match self.bc {
            1..=3 | 7 => {
                let mut rgba = [0u8; 64];
                match self.bc {
                    1 => bcdec_rs::bc1(b, &mut rgba, 16),
                    2 => bcdec_rs::bc2(b, &mut rgba, 16),
                    3 => bcdec_rs::bc3(b, &mut rgba, 16),
                    _ => bcdec_rs::bc7(b, &mut rgba, 16),
                }
                for (k, o) in out.iter_mut().enumerate() {
                    let v = rgba[4 * i + k] as f64 / 255.0;
                    *o = if self.srgb && k < 3 { super::srgb_to_linear(v) } else { v } as f32;
                }
            }
            4 => {
                let mut r = [0f32; 16];
                bcdec_rs::bc4_float(b, &mut r, 4, self.signed);
                out[0] = r[i];
            }
            5 => {
                let mut rg = [0f32; 32];
                bcdec_rs::bc5_float(b, &mut rg, 8, self.signed);
                out[..2].copy_from_slice(&rg[2 * i..2 * i + 2]);
            }
            _ => {
                let mut rgb = [0f32; 48];
                bcdec_rs::bc6h_float(b, &mut rgb, 12, self.signed);
                out[..3].copy_from_slice(&rgb[3 * i..3 * i + 3]);
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Mesa's gfx11 format table: BC1_UNORM 109, BC1_SRGB 110 ... BC4_SNORM 116, BC6_SFLOAT
    /// 120, BC7_SRGB 122; 108 and 123 are not BCn.
    #[test]
    fn gfx11_numbers() {
        assert_eq!(Block::from_image(109), Some(Block { bc: 1, signed: false, srgb: false }));
        assert_eq!(Block::from_image(110), Some(Block { bc: 1, signed: false, srgb: true }));
        assert_eq!(Block::from_image(116), Some(Block { bc: 4, signed: true, srgb: false }));
        assert_eq!(Block::from_image(120), Some(Block { bc: 6, signed: true, srgb: false }));
        assert_eq!(Block::from_image(122), Some(Block { bc: 7, signed: false, srgb: true }));
        assert_eq!((Block::from_image(108), Block::from_image(123)), (None, None));
        assert_eq!(
            [109, 111, 115, 117, 119, 121].map(|n| Block::from_image(n).unwrap().bytes()),
            [8, 16, 8, 16, 16, 16]
        );
    }

    /// Microsoft's BC1 encoding (Vulkan's "BC1 RGB"): endpoints are RGB565, c0 > c1 selects
    /// four colours (index 2 is (2·c0 + c1) / 3), c0 ≤ c1 three and transparent black.
    #[test]
    fn bc1_endpoints_and_interpolation() {
        // c0 = white (0xffff), c1 = black (0x0000): indices 0, 1, 2, 3 in texels 0..3.
        let b = [0xff, 0xff, 0x00, 0x00, 0b1110_0100, 0, 0, 0];
        let f = Block::from_image(109).unwrap();
        let t: Vec<f32> = (0..4).map(|x| f.texel(&b, x, 0)[0]).collect();
        assert_eq!(t[0], 1.0);
        assert_eq!(t[1], 0.0);
        assert!((t[2] - 2.0 / 3.0).abs() < 1.0 / 255.0, "{t:?}");
        assert!((t[3] - 1.0 / 3.0).abs() < 1.0 / 255.0, "{t:?}");
        // c0 ≤ c1: index 3 is transparent black.
        let b = [0x00, 0x00, 0xff, 0xff, 0b1100_0000, 0, 0, 0];
        assert_eq!(f.texel(&b, 3, 0), [0.0, 0.0, 0.0, 0.0]);
    }

    /// BC4 (Vulkan's "BC4 unsigned"): r0 > r1 interpolates eight values; index 0 is r0.
    #[test]
    fn bc4_red_endpoints() {
        let b = [255, 0, 0b001, 0, 0, 0, 0, 0];
        let f = Block::from_image(115).unwrap();
        assert_eq!(f.texel(&b, 0, 0), [0.0, 0.0, 0.0, 1.0]);
        assert_eq!(f.texel(&b, 1, 0), [1.0, 0.0, 0.0, 1.0]);
    }
}
