//! Shader resource descriptors: the gfx11 buffer resource (V#), one definition used by the
//! ICD to write descriptors and by the executor to read them (RDNA3-NOTES,
//! "Buffer resource"; field layout from Mesa's gfx11 register database).

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

    #[test]
    fn raw_buffer_descriptor_matches_radv() {
        // RADV's gfx11 storage/uniform buffer dword 3.
        let d = BufferResource::raw(0x1234_5678_9abc, 100).encode();
        assert_eq!(d, [0x5678_9abc, 0x1234, 100, 0x3001_6fac]);
        assert_eq!(BufferResource::decode(d), BufferResource::raw(0x1234_5678_9abc, 100));
    }
}
