//! Shader resource descriptors: the gfx11 buffer resource (V#, RDNA3-NOTES, "Buffer
//! resource"; field layout from Mesa's gfx11 register database), image resource (T#,
//! [`ImageResource`]) and sampler resource (S#, [`SamplerResource`]), one definition each, used by the ICD to write descriptors and by the
//! executor to read them.

/// `SQ_SEL_*` destination component selects in V# dword 3.
pub mod sel {
    pub const ZERO: u32 = 0;
    pub const ONE: u32 = 1;
    pub const X: u32 = 4;
    pub const Y: u32 = 5;
    pub const Z: u32 = 6;
    pub const W: u32 = 7;
}

/// gfx11 buffer data formats (`GFX11_FORMAT`, the values a buffer V# can hold).
pub mod format {
    pub const INVALID: u32 = 0;
    pub const F32_UINT: u32 = 20;
    pub const F32_SINT: u32 = 21;
    pub const F32_FLOAT: u32 = 22;
}

/// How the hardware range-checks buffer accesses (V# dword 3, bits 29:28).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OobSelect {
    /// Out of range if `index >= num_records || offset + size > stride`.
    StructuredWithOffset = 0,
    /// Out of range if `index >= num_records`.
    Structured = 1,
    /// Only an empty buffer (`num_records == 0`) is out of range.
    Disabled = 2,
    /// Out of range if `offset + size > num_records` (bytes).
    Raw = 3,
}

impl OobSelect {
    fn from_bits(v: u32) -> OobSelect {
        match v & 3 {
            0 => OobSelect::StructuredWithOffset,
            1 => OobSelect::Structured,
            2 => OobSelect::Disabled,
            _ => OobSelect::Raw,
        }
    }
}

/// A decoded gfx11 buffer resource (V#).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BufferResource {
    /// 48-bit base address.
    pub base: u64,
    pub stride: u32,
    pub swizzle_enable: u32,
    pub num_records: u32,
    pub dst_sel: [u32; 4],
    pub format: u32,
    pub index_stride: u32,
    pub add_tid_enable: bool,
    pub oob_select: OobSelect,
    /// Resource type (0 = buffer).
    pub kind: u32,
}

impl BufferResource {
    /// The descriptor softnavi writes for a storage or uniform buffer: raw addressing,
    /// byte-exact range checking (the same dword 3 RADV writes on gfx11).
    pub fn raw(base: u64, size: u32) -> BufferResource {
        BufferResource {
            base,
            stride: 0,
            swizzle_enable: 0,
            num_records: size,
            dst_sel: [sel::X, sel::Y, sel::Z, sel::W],
            format: format::F32_FLOAT,
            index_stride: 0,
            add_tid_enable: false,
            oob_select: OobSelect::Raw,
            kind: 0,
        }
    }

    /// RDNA3-NOTES, "Swizzled buffer addressing": `const_element_size`, the bytes
    /// swizzling keeps together, or `None` when swizzling is off. The notes name 4 and 16
    /// bytes; Mesa writes 1 for 4-byte elements (scratch) and 3 for 16-byte ones (the
    /// attribute ring). 2 is not documented: softnavi takes it as 8 bytes, the size between.
    pub fn element_size(&self) -> Option<u32> {
        match self.swizzle_enable & 3 {
            0 => None,
            s => Some(2 << s),
        }
    }

    /// `const_index_stride` in records: 8, 16, 32 or 64 (INDEX_STRIDE 0..3).
    pub fn index_stride_records(&self) -> u32 {
        8 << (self.index_stride & 3)
    }

    /// The all-zero V# (RDNA3-NOTES, "Null buffer resource").
    pub fn is_null(&self) -> bool {
        self.encode() == [0; 4]
    }

    pub fn decode(w: [u32; 4]) -> BufferResource {
        BufferResource {
            base: w[0] as u64 | ((w[1] & 0xffff) as u64) << 32,
            stride: (w[1] >> 16) & 0x3fff,
            swizzle_enable: w[1] >> 30,
            num_records: w[2],
            dst_sel: [w[3] & 7, (w[3] >> 3) & 7, (w[3] >> 6) & 7, (w[3] >> 9) & 7],
            format: (w[3] >> 12) & 0x3f,
            index_stride: (w[3] >> 21) & 3,
            add_tid_enable: (w[3] >> 23) & 1 != 0,
            oob_select: OobSelect::from_bits(w[3] >> 28),
            kind: w[3] >> 30,
        }
    }

    pub fn encode(&self) -> [u32; 4] {
        [
            self.base as u32,
            ((self.base >> 32) as u32 & 0xffff) | (self.stride & 0x3fff) << 16 | (self.swizzle_enable & 3) << 30,
            self.num_records,
            (self.dst_sel[0] & 7)
                | (self.dst_sel[1] & 7) << 3
                | (self.dst_sel[2] & 7) << 6
                | (self.dst_sel[3] & 7) << 9
                | (self.format & 0x3f) << 12
                | (self.index_stride & 3) << 21
                | (self.add_tid_enable as u32) << 23
                | (self.oob_select as u32) << 28
                | (self.kind & 3) << 30,
        ]
    }
}

/// `SQ_RSRC_IMG_*`: the TYPE of an image resource (T# dword 3, bits 31:28). Values 0..7
/// are not image types (a buffer descriptor's TYPE is 0).
pub mod img_type {
    pub const IMG_1D: u32 = 8;
    pub const IMG_2D: u32 = 9;
    pub const IMG_3D: u32 = 10;
    /// Cube (and cube array): six 2D layers per cube.
    pub const CUBE: u32 = 11;
    pub const IMG_1D_ARRAY: u32 = 12;
    pub const IMG_2D_ARRAY: u32 = 13;
    pub const IMG_2D_MSAA: u32 = 14;
    pub const IMG_2D_MSAA_ARRAY: u32 = 15;
}

/// SW_MODE 0: `ADDR_SW_LINEAR`. The other modes softnavi addresses are in [`crate::addr`].
pub const SW_LINEAR: u32 = 0;

/// A decoded gfx11 image resource (T#, eight dwords).
///
/// Field layout: AMD's gfx11 definitions in ROCR-Runtime `src/image/resource_gfx11.h`
/// (`SQ_IMG_RSRC_WORD0..7`), and how Mesa's `ac_build_gfx10_texture_descriptor` /
/// `ac_set_mutable_tex_desc_fields` (`src/amd/common/ac_descriptors.c`) fill them for
/// gfx11 (MAX_MIP in dword 1, MIN_LOD split over dwords 5 and 6, the base address in
/// 256-byte units). Sizes are stored minus one, as Mesa writes them.
///
/// | dword | bits | field |
/// |---|---|---|
/// | 0 | 31:0 | BASE_ADDRESS (address bits 39:8) |
/// | 1 | 7:0 | BASE_ADDRESS_HI (address bits 47:40) |
/// | 1 | 14:13, 15 | LLC_NOALLOC, BIG_PAGE |
/// | 1 | 19:16 | MAX_MIP (levels of the resource − 1) |
/// | 1 | 27:20 | FORMAT (gfx11 unified format) |
/// | 1 | 31:30 | WIDTH − 1, bits 1:0 |
/// | 2 | 11:0 | WIDTH − 1, bits 13:2 |
/// | 2 | 27:14 | HEIGHT − 1 |
/// | 3 | 11:0 | DST_SEL_X, Y, Z, W (3 bits each) |
/// | 3 | 15:12, 19:16 | BASE_LEVEL, LAST_LEVEL |
/// | 3 | 24:20 | SW_MODE |
/// | 3 | 27:25 | BC_SWIZZLE |
/// | 3 | 31:28 | TYPE ([`img_type`]) |
/// | 4 | 12:0 | DEPTH: 3D: depth − 1; arrays and cubes: the last layer of the view; 1D, 2D: the low bits of PITCH − 1 (gfx10.3+, custom pitch) |
/// | 4 | 13 | PITCH − 1, bit 13 |
/// | 4 | 28:16 | BASE_ARRAY (the first layer of the view) |
/// | 5 | 3:0 | ARRAY_PITCH (3D: 0 SRV, 1 UAV) |
/// | 5 | 11:8, 15:12, 19:16 | DEPTH_SCALE, HEIGHT_SCALE, WIDTH_SCALE |
/// | 5 | 22:20 | PERF_MOD |
/// | 5 | 23, 24, 25, 26 | CORNER_SAMPLES, LINKED_RESOURCE, LOD_HDW_CNT_EN, PRT_DEFAULT |
/// | 5 | 31:27 | MIN_LOD, bits 4:0 |
/// | 6 | 6:0 | MIN_LOD, bits 11:5 (unsigned 4.8 fixed point) |
/// | 6 | 10 | ITERATE_256 |
/// | 6 | 14:11 | SAMPLE_PATTERN_OFFSET |
/// | 6 | 16:15, 18:17 | MAX_UNCOMPRESSED_BLOCK_SIZE, MAX_COMPRESSED_BLOCK_SIZE |
/// | 6 | 19..23 | META_PIPE_ALIGNED, WRITE_COMPRESS_ENABLE, COMPRESSION_EN, ALPHA_IS_ON_MSB, COLOR_TRANSFORM |
/// | 6 | 31:24 | META_DATA_ADDRESS, address bits 15:8 |
/// | 7 | 31:0 | META_DATA_ADDRESS, address bits 47:16 |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ImageResource {
    /// Byte address of the resource (a multiple of 256: the T# holds bits 47:8).
    pub base: u64,
    pub llc_noalloc: u32,
    pub big_page: bool,
    /// Mip levels of the whole resource − 1 (the linear layout depends on it).
    pub max_mip: u32,
    /// gfx11 unified image format (1..63 are the buffer formats, [`format`] and
    /// `crate::format::BufFormat`).
    pub format: u32,
    /// Width − 1 of level 0 of the resource (14 bits).
    pub width: u32,
    /// Height − 1 of level 0 (14 bits).
    pub height: u32,
    pub dst_sel: [u32; 4],
    /// The view's first and last levels (absolute level numbers).
    pub base_level: u32,
    pub last_level: u32,
    /// Swizzle mode (0: linear, [`SW_LINEAR`]; the others: [`crate::addr`]).
    pub sw_mode: u32,
    pub bc_swizzle: u32,
    /// Resource type ([`img_type`]).
    pub kind: u32,
    /// DEPTH (13 bits) and bit 13 of PITCH − 1: see the table.
    pub depth: u32,
    pub pitch_msb: u32,
    pub base_array: u32,
    pub array_pitch: u32,
    pub depth_scale: u32,
    pub height_scale: u32,
    pub width_scale: u32,
    pub perf_mod: u32,
    pub corner_samples: bool,
    pub linked_resource: bool,
    pub lod_hdw_cnt_en: bool,
    pub prt_default: bool,
    /// Unsigned 4.8 fixed point (12 bits).
    pub min_lod: u32,
    pub iterate_256: bool,
    pub sample_pattern_offset: u32,
    pub max_uncompressed_block_size: u32,
    pub max_compressed_block_size: u32,
    pub meta_pipe_aligned: bool,
    pub write_compress_enable: bool,
    pub compression_en: bool,
    pub alpha_is_on_msb: bool,
    pub color_transform: bool,
    /// Metadata (DCC/HTILE) address, a multiple of 256.
    pub meta_address: u64,
}

/// Where a texel of a linear image lies, from [`ImageResource::texel_offset`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LinearLevel {
    /// Byte offset of the level in each slice's mip chain.
    pub offset: u64,
    /// Bytes from one row to the next.
    pub row_pitch: u64,
    /// Bytes from one slice (array layer, or depth slice of a 3D image) to the next: the
    /// whole mip chain of one slice.
    pub slice_pitch: u64,
}

fn bit(w: u32, b: u32) -> bool {
    w >> b & 1 != 0
}

fn field(w: u32, lo: u32, n: u32) -> u32 {
    w >> lo & ((1u32 << n) - 1)
}

impl ImageResource {
    /// The all-zero T#: what RADV writes for a null image descriptor (nullDescriptor).
    pub fn is_null(&self) -> bool {
        self.encode() == [0; 8]
    }

    /// Width, height and depth of level `level` of the resource: level 0's halved per
    /// level, at least 1 (depth only for 3D; 1 otherwise).
    pub fn level_extent(&self, level: u32) -> [u32; 3] {
        let d = if self.kind == img_type::IMG_3D { self.depth + 1 } else { 1 };
        let h = if matches!(self.kind, img_type::IMG_1D | img_type::IMG_1D_ARRAY) { 1 } else { self.height + 1 };
        [(self.width + 1) >> level, h >> level, d >> level].map(|x| x.max(1))
    }

    /// The PITCH − 1 field of a 1D or 2D T# (DEPTH, with bit 13 in PITCH_MSB).
    pub fn pitch_field(&self) -> u32 {
        self.depth | self.pitch_msb << 13
    }

    /// The gfx11 linear layout (SW_MODE 0) of level `level` for texels of `bpe` bytes, as
    /// AMD's addrlib computes it (`Gfx11Lib::HwlComputeSurfaceInfoLinear`, in PAL's and
    /// Mesa's `addrlib/src/gfx11/gfx11addrlib.cpp`):
    /// - each level's rows are its width rounded up to a multiple of `256 / bpe` texels
    ///   (256 bytes), its height rows of them;
    /// - each slice (an array layer, or one depth slice of a 3D image) holds the whole mip
    ///   chain, the smallest level first (offset 0) and level 0 last; the slices follow
    ///   one another, `slice_pitch` bytes apart (the sum of every level's size);
    /// - with one level, a 1D or 2D resource may have a custom row pitch (Mesa, gfx10.3+:
    ///   PITCH − 1 in the DEPTH field, a multiple of 256 bytes); softnavi takes a nonzero
    ///   field as that pitch (Mesa writes 0, the last layer of a 2D view, where there is
    ///   none).
    ///
    /// `None` where the rule does not say: texels that are not a power of two bytes
    /// (addrlib rounds with `PowTwoAlign` to `256 / bpe`, which is not a power of two
    /// then), a custom pitch below the width, not a multiple of 256 bytes, or with several
    /// levels.
    ///
    /// A BCn T# (`crate::format::bc`) is laid out in blocks: [`Self::linear_level_in`] with
    /// [`Self::block_dim`].
    pub fn linear_level(&self, bpe: u32, level: u32) -> Option<LinearLevel> {
        self.linear_level_in(bpe, level, self.block_dim())
    }

    /// Texels per side of the elements the layout addresses: 4 for the BCn formats, else 1.
    pub fn block_dim(&self) -> u32 {
        if crate::format::bc::Block::from_image(self.format).is_some() {
            crate::format::bc::BLOCK_DIM
        } else {
            1
        }
    }

    /// [`Self::linear_level`] for elements of `block` × `block` texels (4 for the BCn
    /// formats, `crate::format::bc`): each level's width and height in elements round up,
    /// as addrlib works on a compressed surface's elements; rows are rows of blocks.
    pub fn linear_level_in(&self, bpe: u32, level: u32, block: u32) -> Option<LinearLevel> {
        if !bpe.is_power_of_two() || bpe > 256 {
            return None;
        }
        let align = (256 / bpe) as u64;
        let levels = self.max_mip + 1;
        let custom = matches!(self.kind, img_type::IMG_1D | img_type::IMG_2D) && self.pitch_field() != 0;
        let elems = |m: u32| self.level_extent(m).map(|e| e.div_ceil(block));
        let pitch_of = |m: u32| -> Option<u64> {
            let [w, _, _] = elems(m);
            if custom {
                let p = self.pitch_field() as u64 + 1;
                return (levels == 1 && p >= w as u64 && (p * bpe as u64) % 256 == 0).then_some(p);
            }
            Some((w as u64).next_multiple_of(align))
        };
        let size = |m: u32| -> Option<u64> { Some(pitch_of(m)? * elems(m)[1] as u64 * bpe as u64) };
        let mut offset = 0;
        let mut slice_pitch = 0;
        for m in (0..levels).rev() {
            if m == level {
                offset = slice_pitch;
            }
            slice_pitch += size(m)?;
        }
        Some(LinearLevel { offset, row_pitch: pitch_of(level)? * bpe as u64, slice_pitch })
    }

    /// log2 of the samples of an MSAA T# (TYPE 2D_MSAA or 2D_MSAA_ARRAY): LAST_LEVEL holds
    /// it, BASE_LEVEL is 0 (Mesa's `ac_build_gfx10_texture_descriptor`, and
    /// `ac_nir_lower_resinfo`'s `query_samples`, which reads it back); 0 for the other types.
    pub fn samples_log2(&self) -> u32 {
        if self.is_msaa() {
            self.last_level
        } else {
            0
        }
    }

    /// TYPE is 2D_MSAA or 2D_MSAA_ARRAY.
    pub fn is_msaa(&self) -> bool {
        matches!(self.kind, img_type::IMG_2D_MSAA | img_type::IMG_2D_MSAA_ARRAY)
    }

    /// The byte offset from [`Self::base`] of texel (`x`, `y`) of slice `slice` (the array
    /// layer counted from layer 0 of the resource, or the depth slice of a 3D image) of
    /// level `level`: under the linear layout of [`Self::linear_level`],
    /// `slice * slice_pitch + offset(level) + y * row_pitch(level) + x * bpe`; in the other
    /// swizzle modes, addrlib's gfx11 layout ([`crate::addr`]). `None` where
    /// [`Self::layout_unsupported`] says why. The coordinates are not range checked here.
    pub fn texel_offset(&self, bpe: u32, x: u32, y: u32, slice: u32, level: u32) -> Option<u64> {
        self.sample_offset(bpe, x, y, slice, level, 0)
    }

    /// [`Self::texel_offset`] of sample `sample` (of an MSAA T#; 0 otherwise). MSAA surfaces
    /// are never linear (addrlib refuses it).
    pub fn sample_offset(&self, bpe: u32, x: u32, y: u32, slice: u32, level: u32, sample: u32) -> Option<u64> {
        if self.sw_mode != SW_LINEAR {
            let s = crate::addr::surface(self, bpe).ok()?;
            return (level < s.levels).then(|| s.offset(x, y, slice, level, sample));
        }
        if self.is_msaa() {
            return None;
        }
        let l = self.linear_level(bpe, level)?;
        // BCn: the block holding the texel.
        let (x, y) = (x / self.block_dim(), y / self.block_dim());
        Some(slice as u64 * l.slice_pitch + l.offset + y as u64 * l.row_pitch + x as u64 * bpe as u64)
    }

    /// Why softnavi cannot address the texels (of `bpe` bytes) of this T#, if it cannot: a
    /// linear layout [`Self::linear_level`] does not pin down, or a swizzle mode, element size
    /// or base address [`crate::addr::surface`] does not take.
    pub fn layout_unsupported(&self, bpe: u32) -> Option<String> {
        if self.sw_mode != SW_LINEAR && self.block_dim() > 1 {
            return Some(format!(
                "the T# has the block-compressed format {} in swizzle mode {}: softnavi addresses BCn images in the linear layout only",
                self.format, self.sw_mode
            ));
        }
        if self.sw_mode != SW_LINEAR {
            return crate::addr::surface(self, bpe).err();
        }
        if self.is_msaa() {
            return Some(
                "the T# is multisampled and linear (SW_MODE 0); gfx11 MSAA surfaces are swizzled (addrlib's ValidateSwModeParams refuses a linear one)"
                    .into(),
            );
        }
        self.linear_level(bpe, self.base_level).is_none().then(|| {
            format!(
                "the gfx11 linear layout of this T# is not pinned down (texels of {bpe} bytes, or a custom pitch {} with {} levels)",
                self.pitch_field() + 1,
                self.max_mip + 1
            )
        })
    }

    pub fn decode(w: [u32; 8]) -> ImageResource {
        ImageResource {
            base: (w[0] as u64 | (field(w[1], 0, 8) as u64) << 32) << 8,
            llc_noalloc: field(w[1], 13, 2),
            big_page: bit(w[1], 15),
            max_mip: field(w[1], 16, 4),
            format: field(w[1], 20, 8),
            width: field(w[1], 30, 2) | field(w[2], 0, 12) << 2,
            height: field(w[2], 14, 14),
            dst_sel: [field(w[3], 0, 3), field(w[3], 3, 3), field(w[3], 6, 3), field(w[3], 9, 3)],
            base_level: field(w[3], 12, 4),
            last_level: field(w[3], 16, 4),
            sw_mode: field(w[3], 20, 5),
            bc_swizzle: field(w[3], 25, 3),
            kind: field(w[3], 28, 4),
            depth: field(w[4], 0, 13),
            pitch_msb: field(w[4], 13, 1),
            base_array: field(w[4], 16, 13),
            array_pitch: field(w[5], 0, 4),
            depth_scale: field(w[5], 8, 4),
            height_scale: field(w[5], 12, 4),
            width_scale: field(w[5], 16, 4),
            perf_mod: field(w[5], 20, 3),
            corner_samples: bit(w[5], 23),
            linked_resource: bit(w[5], 24),
            lod_hdw_cnt_en: bit(w[5], 25),
            prt_default: bit(w[5], 26),
            min_lod: field(w[5], 27, 5) | field(w[6], 0, 7) << 5,
            iterate_256: bit(w[6], 10),
            sample_pattern_offset: field(w[6], 11, 4),
            max_uncompressed_block_size: field(w[6], 15, 2),
            max_compressed_block_size: field(w[6], 17, 2),
            meta_pipe_aligned: bit(w[6], 19),
            write_compress_enable: bit(w[6], 20),
            compression_en: bit(w[6], 21),
            alpha_is_on_msb: bit(w[6], 22),
            color_transform: bit(w[6], 23),
            meta_address: (field(w[6], 24, 8) as u64) << 8 | (w[7] as u64) << 16,
        }
    }

    /// The eight dwords (bits a field does not have are dropped: the base and metadata
    /// addresses' bits 7:0 and 63:48).
    pub fn encode(&self) -> [u32; 8] {
        let f = |v: u32, lo: u32, n: u32| (v & ((1u32 << n) - 1)) << lo;
        let b = |v: bool, at: u32| (v as u32) << at;
        let base = self.base >> 8;
        [
            base as u32,
            f((base >> 32) as u32, 0, 8)
                | f(self.llc_noalloc, 13, 2)
                | b(self.big_page, 15)
                | f(self.max_mip, 16, 4)
                | f(self.format, 20, 8)
                | f(self.width, 30, 2),
            f(self.width >> 2, 0, 12) | f(self.height, 14, 14),
            f(self.dst_sel[0], 0, 3)
                | f(self.dst_sel[1], 3, 3)
                | f(self.dst_sel[2], 6, 3)
                | f(self.dst_sel[3], 9, 3)
                | f(self.base_level, 12, 4)
                | f(self.last_level, 16, 4)
                | f(self.sw_mode, 20, 5)
                | f(self.bc_swizzle, 25, 3)
                | f(self.kind, 28, 4),
            f(self.depth, 0, 13) | f(self.pitch_msb, 13, 1) | f(self.base_array, 16, 13),
            f(self.array_pitch, 0, 4)
                | f(self.depth_scale, 8, 4)
                | f(self.height_scale, 12, 4)
                | f(self.width_scale, 16, 4)
                | f(self.perf_mod, 20, 3)
                | b(self.corner_samples, 23)
                | b(self.linked_resource, 24)
                | b(self.lod_hdw_cnt_en, 25)
                | b(self.prt_default, 26)
                | f(self.min_lod, 27, 5),
            f(self.min_lod >> 5, 0, 7)
                | b(self.iterate_256, 10)
                | f(self.sample_pattern_offset, 11, 4)
                | f(self.max_uncompressed_block_size, 15, 2)
                | f(self.max_compressed_block_size, 17, 2)
                | b(self.meta_pipe_aligned, 19)
                | b(self.write_compress_enable, 20)
                | b(self.compression_en, 21)
                | b(self.alpha_is_on_msb, 22)
                | b(self.color_transform, 23)
                | f((self.meta_address >> 8) as u32, 24, 8),
            (self.meta_address >> 16) as u32,
        ]
    }
}

/// `SQ_TEX_CLAMP`: how a coordinate outside the image is brought back (S# CLAMP_X/Y/Z).
/// Vulkan's address modes map onto 0, 1, 2, 3 and 6 (RADV's `radv_tex_wrap`).
pub mod tex_clamp {
    /// VK_SAMPLER_ADDRESS_MODE_REPEAT.
    pub const WRAP: u32 = 0;
    /// MIRRORED_REPEAT.
    pub const MIRROR: u32 = 1;
    /// CLAMP_TO_EDGE.
    pub const CLAMP_LAST_TEXEL: u32 = 2;
    /// MIRROR_CLAMP_TO_EDGE.
    pub const MIRROR_ONCE_LAST_TEXEL: u32 = 3;
    pub const CLAMP_HALF_BORDER: u32 = 4;
    pub const MIRROR_ONCE_HALF_BORDER: u32 = 5;
    /// CLAMP_TO_BORDER.
    pub const CLAMP_BORDER: u32 = 6;
    pub const MIRROR_ONCE_BORDER: u32 = 7;
}

/// `SQ_TEX_XY_FILTER`: the S# XY_MAG_FILTER and XY_MIN_FILTER values.
pub mod tex_filter {
    pub const POINT: u32 = 0;
    pub const BILINEAR: u32 = 1;
    pub const ANISO_POINT: u32 = 2;
    pub const ANISO_BILINEAR: u32 = 3;
}

/// `SQ_TEX_MIP_FILTER` (MIP_FILTER) and `SQ_TEX_Z_FILTER` (Z_FILTER): the same numbers.
pub mod mip_filter {
    /// No mipmapping: the view's base level only (Z_FILTER: the XY filter applies).
    pub const NONE: u32 = 0;
    pub const POINT: u32 = 1;
    pub const LINEAR: u32 = 2;
}

/// `SQ_TEX_BORDER_COLOR` (BORDER_COLOR_TYPE).
pub mod border_color {
    pub const TRANS_BLACK: u32 = 0;
    pub const OPAQUE_BLACK: u32 = 1;
    pub const OPAQUE_WHITE: u32 = 2;
    /// A colour from the border colour table, BORDER_COLOR_PTR its index (custom colours).
    pub const REGISTER: u32 = 3;
}

/// `SQ_TEX_DEPTH_COMPARE_*` (DEPTH_COMPARE_FUNC): `reference OP texel`, in
/// `VkCompareOp` order (RADV's `radv_tex_compare` maps them one to one).
pub mod depth_compare {
    pub const NEVER: u32 = 0;
    pub const LESS: u32 = 1;
    pub const EQUAL: u32 = 2;
    pub const LESS_EQUAL: u32 = 3;
    pub const GREATER: u32 = 4;
    pub const NOT_EQUAL: u32 = 5;
    pub const GREATER_EQUAL: u32 = 6;
    pub const ALWAYS: u32 = 7;
}

/// `SQ_IMG_FILTER_MODE_*` (FILTER_MODE): Vulkan's sampler reduction modes.
pub mod filter_mode {
    pub const BLEND: u32 = 0;
    pub const MIN: u32 = 1;
    pub const MAX: u32 = 2;
}

/// A decoded gfx11 sampler resource (S#, four dwords).
///
/// Field layout: Mesa's `ac_build_sampler_descriptor` (`src/amd/common/ac_descriptors.c`)
/// and RADV's `radv_init_sampler` (`src/amd/vulkan/radv_sampler.c`), which fill
/// `SQ_IMG_SAMP_WORD0..3` (`S_008F30_*` .. `S_008F3C_*`) for gfx11, with the bit positions
/// of AMD's RDNA3 SRD disassembler (`SrdSamplerRdna3::ExtractFields`, Radeon GPU
/// Analyzer) and ROCR-Runtime's `resource_gfx11.h` (its WORD0 and WORD1). On gfx11
/// BORDER_COLOR_PTR moved to dword 3 bits 29:18 (Mesa's `S_008F3C_BORDER_COLOR_PTR_GFX11`);
/// the bits of dword 3 below it and dword 2 bits 28 and 31 have no field here (encode
/// writes them 0).
///
/// | dword | bits | field |
/// |---|---|---|
/// | 0 | 2:0, 5:3, 8:6 | CLAMP_X, CLAMP_Y, CLAMP_Z ([`tex_clamp`]) |
/// | 0 | 11:9 | MAX_ANISO_RATIO (log2 of 1..16) |
/// | 0 | 14:12 | DEPTH_COMPARE_FUNC ([`depth_compare`]) |
/// | 0 | 15 | FORCE_UNNORMALIZED |
/// | 0 | 18:16 | ANISO_THRESHOLD |
/// | 0 | 19, 20 | MC_COORD_TRUNC, FORCE_DEGAMMA |
/// | 0 | 26:21 | ANISO_BIAS |
/// | 0 | 27, 28 | TRUNC_COORD, DISABLE_CUBE_WRAP |
/// | 0 | 30:29 | FILTER_MODE ([`filter_mode`]) |
/// | 0 | 31 | SKIP_DEGAMMA |
/// | 1 | 11:0, 23:12 | MIN_LOD, MAX_LOD (unsigned 4.8 fixed point) |
/// | 1 | 27:24, 31:28 | PERF_MIP, PERF_Z |
/// | 2 | 13:0 | LOD_BIAS (signed 6.8 fixed point, two's complement: −32 .. 31.996) |
/// | 2 | 19:14 | LOD_BIAS_SEC |
/// | 2 | 21:20, 23:22 | XY_MAG_FILTER, XY_MIN_FILTER ([`tex_filter`]) |
/// | 2 | 25:24, 27:26 | Z_FILTER, MIP_FILTER ([`mip_filter`]) |
/// | 2 | 29, 30 | ANISO_OVERRIDE, BLEND_ZERO_PRT |
/// | 3 | 29:18 | BORDER_COLOR_PTR |
/// | 3 | 31:30 | BORDER_COLOR_TYPE ([`border_color`]) |
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SamplerResource {
    pub clamp: [u32; 3],
    pub max_aniso_ratio: u32,
    pub depth_compare_func: u32,
    pub force_unnormalized: bool,
    pub aniso_threshold: u32,
    pub mc_coord_trunc: bool,
    pub force_degamma: bool,
    pub aniso_bias: u32,
    pub trunc_coord: bool,
    pub disable_cube_wrap: bool,
    pub filter_mode: u32,
    pub skip_degamma: bool,
    /// Unsigned 4.8 fixed point ([`lod_to_u4_8`]).
    pub min_lod: u32,
    pub max_lod: u32,
    pub perf_mip: u32,
    pub perf_z: u32,
    /// Signed 6.8 fixed point, 14 bits two's complement ([`lod_bias_to_s6_8`]).
    pub lod_bias: u32,
    pub lod_bias_sec: u32,
    pub xy_mag_filter: u32,
    pub xy_min_filter: u32,
    pub z_filter: u32,
    pub mip_filter: u32,
    pub aniso_override: bool,
    pub blend_zero_prt: bool,
    pub border_color_ptr: u32,
    pub border_color_type: u32,
}

/// A LOD as the unsigned 4.8 MIN_LOD / MAX_LOD field: clamped to [0, 15] and truncated,
/// as RADV's `radv_float_to_ufixed(CLAMP(lod, 0, 15), 8)`.
pub fn lod_to_u4_8(lod: f32) -> u32 {
    (lod.clamp(0.0, 15.0) * 256.0) as u32
}

/// The LOD a MIN_LOD / MAX_LOD field holds.
pub fn u4_8_to_lod(v: u32) -> f32 {
    (v & 0xfff) as f32 / 256.0
}

/// A bias as the signed 6.8 LOD_BIAS field: clamped to [−32, 31] and truncated toward
/// zero, as RADV's `radv_float_to_sfixed(CLAMP(bias, -32, 31), 8)` (gfx10+).
pub fn lod_bias_to_s6_8(bias: f32) -> u32 {
    ((bias.clamp(-32.0, 31.0) * 256.0) as i32 as u32) & 0x3fff
}

/// The bias a LOD_BIAS field holds.
pub fn s6_8_to_lod_bias(v: u32) -> f32 {
    (((v << 18) as i32) >> 18) as f32 / 256.0
}

impl SamplerResource {
    pub fn decode(w: [u32; 4]) -> SamplerResource {
        SamplerResource {
            clamp: [field(w[0], 0, 3), field(w[0], 3, 3), field(w[0], 6, 3)],
            max_aniso_ratio: field(w[0], 9, 3),
            depth_compare_func: field(w[0], 12, 3),
            force_unnormalized: bit(w[0], 15),
            aniso_threshold: field(w[0], 16, 3),
            mc_coord_trunc: bit(w[0], 19),
            force_degamma: bit(w[0], 20),
            aniso_bias: field(w[0], 21, 6),
            trunc_coord: bit(w[0], 27),
            disable_cube_wrap: bit(w[0], 28),
            filter_mode: field(w[0], 29, 2),
            skip_degamma: bit(w[0], 31),
            min_lod: field(w[1], 0, 12),
            max_lod: field(w[1], 12, 12),
            perf_mip: field(w[1], 24, 4),
            perf_z: field(w[1], 28, 4),
            lod_bias: field(w[2], 0, 14),
            lod_bias_sec: field(w[2], 14, 6),
            xy_mag_filter: field(w[2], 20, 2),
            xy_min_filter: field(w[2], 22, 2),
            z_filter: field(w[2], 24, 2),
            mip_filter: field(w[2], 26, 2),
            aniso_override: bit(w[2], 29),
            blend_zero_prt: bit(w[2], 30),
            border_color_ptr: field(w[3], 18, 12),
            border_color_type: field(w[3], 30, 2),
        }
    }

    pub fn encode(&self) -> [u32; 4] {
        let f = |v: u32, lo: u32, n: u32| (v & ((1u32 << n) - 1)) << lo;
        let b = |v: bool, at: u32| (v as u32) << at;
        [
            f(self.clamp[0], 0, 3)
                | f(self.clamp[1], 3, 3)
                | f(self.clamp[2], 6, 3)
                | f(self.max_aniso_ratio, 9, 3)
                | f(self.depth_compare_func, 12, 3)
                | b(self.force_unnormalized, 15)
                | f(self.aniso_threshold, 16, 3)
                | b(self.mc_coord_trunc, 19)
                | b(self.force_degamma, 20)
                | f(self.aniso_bias, 21, 6)
                | b(self.trunc_coord, 27)
                | b(self.disable_cube_wrap, 28)
                | f(self.filter_mode, 29, 2)
                | b(self.skip_degamma, 31),
            f(self.min_lod, 0, 12) | f(self.max_lod, 12, 12) | f(self.perf_mip, 24, 4) | f(self.perf_z, 28, 4),
            f(self.lod_bias, 0, 14)
                | f(self.lod_bias_sec, 14, 6)
                | f(self.xy_mag_filter, 20, 2)
                | f(self.xy_min_filter, 22, 2)
                | f(self.z_filter, 24, 2)
                | f(self.mip_filter, 26, 2)
                | b(self.aniso_override, 29)
                | b(self.blend_zero_prt, 30),
            f(self.border_color_ptr, 18, 12) | f(self.border_color_type, 30, 2),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RDNA3-NOTES, "Buffer resource": every V# field decodes from its bits and
    /// encodes back.
    #[test]
    fn vsharp_fields_round_trip() {
        let w = [
            0x89ab_cdef,
            0xc000_0000 | 40 << 16 | 0x4567,
            77,
            0x4000_0000 | 0x1000_0000 | 1 << 23 | 3 << 21 | 61 << 12 | 0o7654,
        ];
        let v = BufferResource::decode(w);
        assert_eq!(v.base, 0x4567_89ab_cdef);
        assert_eq!((v.stride, v.swizzle_enable, v.num_records), (40, 3, 77));
        assert_eq!(v.dst_sel, [4, 5, 6, 7]);
        assert_eq!((v.format, v.index_stride, v.add_tid_enable), (61, 3, true));
        assert_eq!((v.oob_select, v.kind), (OobSelect::Structured, 1));
        assert_eq!((v.element_size(), v.index_stride_records()), (Some(16), 64));
        assert_eq!(v.encode(), w);
        assert!(BufferResource::decode([0; 4]).is_null());
        assert_eq!(BufferResource::decode([0, 1 << 30, 0, 0]).element_size(), Some(4));
    }

    /// Every T# field decodes from its bits and encodes back (all 32 bits of all eight
    /// dwords that have a field set).
    #[test]
    fn tsharp_fields_round_trip() {
        let w = [
            0x1234_5678,
            0xc000_0000 | 0xab << 20 | 0x9 << 16 | 1 << 15 | 2 << 13 | 0x9a,
            0x0abc_c000 | 0x0123,
            0xd000_0000 | 5 << 25 | 0x1f << 20 | 0xe << 16 | 0x3 << 12 | 0o7654,
            0x1abc_0000 | 1 << 13 | 0x1234,
            0xf800_0000 | 0xf << 23 | 5 << 20 | 0x321 << 8 | 1,
            0xff00_0000 | 0x1f << 19 | 3 << 17 | 2 << 15 | 0xa << 11 | 1 << 10 | 0x55,
            0xfedc_ba98,
        ];
        let t = ImageResource::decode(w);
        assert_eq!(t.base, 0x9a_1234_5678 << 8);
        assert_eq!((t.llc_noalloc, t.big_page, t.max_mip, t.format), (2, true, 9, 0xab));
        assert_eq!((t.width, t.height), (0x123 << 2 | 3, 0x2af3));
        assert_eq!(t.dst_sel, [4, 5, 6, 7]);
        assert_eq!((t.base_level, t.last_level, t.sw_mode, t.bc_swizzle, t.kind), (3, 0xe, 0x1f, 5, 0xd));
        assert_eq!((t.depth, t.pitch_msb, t.base_array, t.pitch_field()), (0x1234, 1, 0x1abc, 0x3234));
        assert_eq!((t.array_pitch, t.depth_scale, t.height_scale, t.width_scale, t.perf_mod), (1, 1, 2, 3, 5));
        assert_eq!(t.min_lod, 0x55 << 5 | 0x1f);
        assert_eq!((t.iterate_256, t.sample_pattern_offset, t.max_uncompressed_block_size), (true, 0xa, 2));
        assert_eq!(t.meta_address, 0xfedc_ba98_ff00);
        assert_eq!(t.encode(), w);
        assert!(ImageResource::decode([0; 8]).is_null());
    }

    /// The linear layout (addrlib's gfx11 rule): a 2D array of 3 levels, 4-byte texels,
    /// level 0 of 100 x 10: pitches 128, 64, 64 texels; each layer holds level 2, then 1,
    /// then 0.
    #[test]
    fn linear_mip_chain_smallest_first() {
        let t = ImageResource { width: 99, height: 9, max_mip: 2, kind: img_type::IMG_2D_ARRAY, ..Default::default() };
        let (l0, l1, l2) = (128 * 4 * 10, 64 * 4 * 5, 64 * 4 * 2);
        let slice = l0 + l1 + l2;
        assert_eq!(t.linear_level(4, 2), Some(LinearLevel { offset: 0, row_pitch: 256, slice_pitch: slice }));
        assert_eq!(t.linear_level(4, 1).unwrap().offset, l2);
        assert_eq!(t.linear_level(4, 0), Some(LinearLevel { offset: l2 + l1, row_pitch: 512, slice_pitch: slice }));
        assert_eq!(t.texel_offset(4, 3, 2, 1, 0), Some(slice + l2 + l1 + 2 * 512 + 12));
        assert_eq!(t.linear_level(12, 0), None);
    }

    #[test]
    fn raw_buffer_descriptor_matches_radv() {
        // RADV's gfx11 storage/uniform buffer dword 3.
        let d = BufferResource::raw(0x1234_5678_9abc, 100).encode();
        assert_eq!(d, [0x5678_9abc, 0x1234, 100, 0x3001_6fac]);
        assert_eq!(BufferResource::decode(d), BufferResource::raw(0x1234_5678_9abc, 100));
    }

    /// Every S# field decodes from its bits and encodes back (all bits that have a field).
    #[test]
    fn ssharp_fields_round_trip() {
        let w = [0xffff_ffff, 0xffff_ffff, 0x6fff_ffff, 0xfffc_0000];
        let s = SamplerResource::decode(w);
        assert_eq!(s.encode(), w);
        let one = |k: usize, b: u32| {
            let mut w = [0; 4];
            w[k] = 1 << b;
            SamplerResource::decode(w)
        };
        let d = SamplerResource::default();
        assert_eq!(one(0, 6), SamplerResource { clamp: [0, 0, 1], ..d });
        assert_eq!(one(0, 12), SamplerResource { depth_compare_func: 1, ..d });
        assert_eq!(one(0, 15), SamplerResource { force_unnormalized: true, ..d });
        assert_eq!(one(0, 21), SamplerResource { aniso_bias: 1, ..d });
        assert_eq!(one(0, 28), SamplerResource { disable_cube_wrap: true, ..d });
        assert_eq!(one(0, 31), SamplerResource { skip_degamma: true, ..d });
        assert_eq!(one(1, 12), SamplerResource { max_lod: 1, ..d });
        assert_eq!(one(1, 28), SamplerResource { perf_z: 1, ..d });
        assert_eq!(one(2, 13), SamplerResource { lod_bias: 1 << 13, ..d });
        assert_eq!(one(2, 14), SamplerResource { lod_bias_sec: 1, ..d });
        assert_eq!(one(2, 22), SamplerResource { xy_min_filter: 1, ..d });
        assert_eq!(one(2, 26), SamplerResource { mip_filter: 1, ..d });
        assert_eq!(one(2, 30), SamplerResource { blend_zero_prt: true, ..d });
        assert_eq!(one(3, 18), SamplerResource { border_color_ptr: 1, ..d });
        assert_eq!(one(3, 30), SamplerResource { border_color_type: 1, ..d });
        // Bits without a field are dropped.
        assert_eq!(SamplerResource::decode([0, 0, 1 << 28 | 1 << 31, 0x3ffff]).encode(), [0; 4]);
    }

    /// The LOD fields' fixed point: RADV's `radv_float_to_ufixed` / `_sfixed` (truncating,
    /// after clamping to [0, 15] and [−32, 31]).
    #[test]
    fn lod_fixed_point() {
        assert_eq!((lod_to_u4_8(0.25), lod_to_u4_8(10.0), lod_to_u4_8(1000.0), lod_to_u4_8(-1.0)), (64, 2560, 3840, 0));
        assert_eq!(u4_8_to_lod(0xfff), 4095.0 / 256.0);
        assert_eq!((lod_bias_to_s6_8(1.5), lod_bias_to_s6_8(-2.5), lod_bias_to_s6_8(-100.0)), (384, 0x3d80, 0x2000));
        for v in [0, 1, 0x1f00, 0x2000, 0x3fff, 0x3d80] {
            assert_eq!(lod_bias_to_s6_8(s6_8_to_lod_bias(v)), v);
        }
    }

    /// The S# RADV's `radv_init_sampler` writes on gfx11 for this VkSamplerCreateInfo:
    /// magFilter = minFilter = NEAREST (so TRUNC_COORD = 1), mipmapMode LINEAR,
    /// addressModeU/V/W = REPEAT / MIRRORED_REPEAT / CLAMP_TO_BORDER, mipLodBias −2.5,
    /// anisotropyEnable false, compareEnable true with LESS_OR_EQUAL, minLod 0.25,
    /// maxLod 10, borderColor FLOAT_OPAQUE_WHITE, unnormalizedCoordinates false, no flags,
    /// no reduction mode (and no drirc overrides).
    #[test]
    fn ssharp_as_radv_writes_it() {
        let s = SamplerResource {
            clamp: [tex_clamp::WRAP, tex_clamp::MIRROR, tex_clamp::CLAMP_BORDER],
            depth_compare_func: depth_compare::LESS_EQUAL,
            trunc_coord: true,
            min_lod: lod_to_u4_8(0.25),
            max_lod: lod_to_u4_8(10.0),
            lod_bias: lod_bias_to_s6_8(-2.5),
            xy_mag_filter: tex_filter::POINT,
            xy_min_filter: tex_filter::POINT,
            mip_filter: mip_filter::LINEAR,
            border_color_type: border_color::OPAQUE_WHITE,
            ..Default::default()
        };
        assert_eq!(s.encode(), [0x0800_3188, 0x00a0_0040, 0x0800_3d80, 0x8000_0000]);
        assert_eq!(SamplerResource::decode(s.encode()), s);
    }
}
