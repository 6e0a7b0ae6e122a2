//! PM4 packets and the gfx11 compute registers: one set of definitions used by the ICD's
//! emitter ([`Builder`]), the command processor's parser ([`Header::parse`]) and the
//! stream dumper ([`dump`]). Facts from Mesa's `sid.h`/`gfx11.json`/`pkt3.json` and the
//! Linux amdgpu headers; see ARCHITECTURE.md, "PM4 facts".

use std::fmt::Write;

/// Type-3 packet opcodes (IT_OPCODE).
pub mod op {
    pub const NOP: u8 = 0x10;
    pub const SET_BASE: u8 = 0x11;
    pub const CLEAR_STATE: u8 = 0x12;
    pub const DISPATCH_DIRECT: u8 = 0x15;
    pub const DISPATCH_INDIRECT: u8 = 0x16;
    pub const ATOMIC_MEM: u8 = 0x1e;
    pub const COND_EXEC: u8 = 0x22;
    pub const CONTEXT_CONTROL: u8 = 0x28;
    pub const WRITE_DATA: u8 = 0x37;
    pub const WAIT_REG_MEM: u8 = 0x3c;
    pub const INDIRECT_BUFFER: u8 = 0x3f;
    pub const COPY_DATA: u8 = 0x40;
    pub const PFP_SYNC_ME: u8 = 0x42;
    pub const EVENT_WRITE: u8 = 0x46;
    pub const RELEASE_MEM: u8 = 0x49;
    pub const DMA_DATA: u8 = 0x50;
    pub const ACQUIRE_MEM: u8 = 0x58;
    pub const LOAD_SH_REG_INDEX: u8 = 0x63;
    pub const SET_SH_REG: u8 = 0x76;
    pub const SET_UCONFIG_REG: u8 = 0x79;
    pub const SET_SH_REG_INDEX: u8 = 0x9b;

    /// Name of a packet opcode, for dumps and error reports.
    pub fn name(op: u8) -> Option<&'static str> {
        Some(match op {
            NOP => "NOP",
            SET_BASE => "SET_BASE",
            CLEAR_STATE => "CLEAR_STATE",
            DISPATCH_DIRECT => "DISPATCH_DIRECT",
            DISPATCH_INDIRECT => "DISPATCH_INDIRECT",
            ATOMIC_MEM => "ATOMIC_MEM",
            COND_EXEC => "COND_EXEC",
            CONTEXT_CONTROL => "CONTEXT_CONTROL",
            WRITE_DATA => "WRITE_DATA",
            WAIT_REG_MEM => "WAIT_REG_MEM",
            INDIRECT_BUFFER => "INDIRECT_BUFFER",
            COPY_DATA => "COPY_DATA",
            PFP_SYNC_ME => "PFP_SYNC_ME",
            EVENT_WRITE => "EVENT_WRITE",
            RELEASE_MEM => "RELEASE_MEM",
            DMA_DATA => "DMA_DATA",
            ACQUIRE_MEM => "ACQUIRE_MEM",
            LOAD_SH_REG_INDEX => "LOAD_SH_REG_INDEX",
            SET_SH_REG => "SET_SH_REG",
            SET_UCONFIG_REG => "SET_UCONFIG_REG",
            SET_SH_REG_INDEX => "SET_SH_REG_INDEX",
            _ => return None,
        })
    }
}

/// First byte offset of the SH register space (SET_SH_REG offsets are relative to it).
pub const SH_REG_BASE: u32 = 0xb000;
pub const SH_REG_END: u32 = 0xc000;
/// First byte offset of the UCONFIG register space.
pub const UCONFIG_REG_BASE: u32 = 0x30000;
pub const UCONFIG_REG_END: u32 = 0x40000;

/// A register field: name, low bit, width.
pub type Field = (&'static str, u32, u32);

macro_rules! registers {
    ($( $name:ident = $off:literal $( [ $( $f:literal $lo:literal $w:literal ),* ] )? ; )*) => {
        /// gfx11 compute register byte offsets.
        pub mod reg {
            $( pub const $name: u32 = $off; )*
        }
        /// Name and fields of a known register.
        pub fn register_info(offset: u32) -> Option<(&'static str, &'static [Field])> {
            match offset {
                $( $off => Some((stringify!($name), &[ $( $( ($f, $lo, $w), )* )? ])), )*
                _ => None,
            }
        }
    };
}

registers! {
    COMPUTE_DISPATCH_INITIATOR = 0xb800 ["COMPUTE_SHADER_EN" 0 1, "PARTIAL_TG_EN" 1 1, "FORCE_START_AT_000" 2 1,
        "USE_THREAD_DIMENSIONS" 5 1, "ORDER_MODE" 6 1, "TUNNEL_ENABLE" 13 1, "CS_W32_EN" 15 1];
    COMPUTE_DIM_X = 0xb804;
    COMPUTE_DIM_Y = 0xb808;
    COMPUTE_DIM_Z = 0xb80c;
    COMPUTE_START_X = 0xb810;
    COMPUTE_START_Y = 0xb814;
    COMPUTE_START_Z = 0xb818;
    COMPUTE_NUM_THREAD_X = 0xb81c ["NUM_THREAD_FULL" 0 16, "NUM_THREAD_PARTIAL" 16 16];
    COMPUTE_NUM_THREAD_Y = 0xb820 ["NUM_THREAD_FULL" 0 16, "NUM_THREAD_PARTIAL" 16 16];
    COMPUTE_NUM_THREAD_Z = 0xb824 ["NUM_THREAD_FULL" 0 16, "NUM_THREAD_PARTIAL" 16 16];
    COMPUTE_PGM_LO = 0xb830;
    COMPUTE_PGM_HI = 0xb834;
    COMPUTE_DISPATCH_SCRATCH_BASE_LO = 0xb840;
    COMPUTE_DISPATCH_SCRATCH_BASE_HI = 0xb844;
    COMPUTE_PGM_RSRC1 = 0xb848 ["VGPRS" 0 6, "SGPRS" 6 4, "PRIORITY" 10 2, "FLOAT_MODE" 12 8, "PRIV" 20 1,
        "DX10_CLAMP" 21 1, "IEEE_MODE" 23 1, "BULKY" 24 1, "FP16_OVFL" 26 1, "WGP_MODE" 29 1, "MEM_ORDERED" 30 1,
        "FWD_PROGRESS" 31 1];
    COMPUTE_PGM_RSRC2 = 0xb84c ["SCRATCH_EN" 0 1, "USER_SGPR" 1 5, "TRAP_PRESENT" 6 1, "TGID_X_EN" 7 1,
        "TGID_Y_EN" 8 1, "TGID_Z_EN" 9 1, "TG_SIZE_EN" 10 1, "TIDIG_COMP_CNT" 11 2, "EXCP_EN_MSB" 13 2,
        "LDS_SIZE" 15 9, "EXCP_EN" 24 7];
    COMPUTE_VMID = 0xb850;
    COMPUTE_RESOURCE_LIMITS = 0xb854 ["WAVES_PER_SH" 0 10, "TG_PER_CU" 12 4, "LOCK_THRESHOLD" 16 6,
        "SIMD_DEST_CNTL" 22 1, "FORCE_SIMD_DIST" 23 1, "CU_GROUP_COUNT" 24 3];
    COMPUTE_TMPRING_SIZE = 0xb860 ["WAVES" 0 12, "WAVESIZE" 12 15];
    COMPUTE_PGM_RSRC3 = 0xb8a0 ["SHARED_VGPR_CNT" 0 4, "INST_PREF_SIZE" 4 6, "TRAP_ON_START" 10 1,
        "TRAP_ON_END" 11 1, "IMAGE_OP" 31 1];
    COMPUTE_USER_DATA_0 = 0xb900;
    COMPUTE_USER_DATA_1 = 0xb904;
    COMPUTE_USER_DATA_2 = 0xb908;
    COMPUTE_USER_DATA_3 = 0xb90c;
    COMPUTE_USER_DATA_4 = 0xb910;
    COMPUTE_USER_DATA_5 = 0xb914;
    COMPUTE_USER_DATA_6 = 0xb918;
    COMPUTE_USER_DATA_7 = 0xb91c;
    COMPUTE_USER_DATA_8 = 0xb920;
    COMPUTE_USER_DATA_9 = 0xb924;
    COMPUTE_USER_DATA_10 = 0xb928;
    COMPUTE_USER_DATA_11 = 0xb92c;
    COMPUTE_USER_DATA_12 = 0xb930;
    COMPUTE_USER_DATA_13 = 0xb934;
    COMPUTE_USER_DATA_14 = 0xb938;
    COMPUTE_USER_DATA_15 = 0xb93c;
}

/// COMPUTE_DISPATCH_INITIATOR bits.
pub mod initiator {
    pub const COMPUTE_SHADER_EN: u32 = 1 << 0;
    pub const PARTIAL_TG_EN: u32 = 1 << 1;
    pub const FORCE_START_AT_000: u32 = 1 << 2;
    /// The dispatch dimensions count work-items, not workgroups.
    pub const USE_THREAD_DIMENSIONS: u32 = 1 << 5;
    pub const ORDER_MODE: u32 = 1 << 6;
    pub const CS_W32_EN: u32 = 1 << 15;
}

/// INDIRECT_BUFFER control dword bits.
pub mod ib {
    pub const SIZE_MASK: u32 = 0xf_ffff;
    pub const CHAIN: u32 = 1 << 20;
    pub const VALID: u32 = 1 << 23;
}

/// VGT event types used by EVENT_WRITE / RELEASE_MEM.
pub mod event {
    pub const CACHE_FLUSH_TS: u32 = 4;
    pub const CACHE_FLUSH: u32 = 6;
    pub const CS_PARTIAL_FLUSH: u32 = 7;
    pub const CACHE_FLUSH_AND_INV_TS_EVENT: u32 = 0x14;
    pub const CACHE_FLUSH_AND_INV_EVENT: u32 = 0x16;
    pub const BOTTOM_OF_PIPE_TS: u32 = 0x28;
    pub const CS_DONE: u32 = 0x2f;

    pub fn name(e: u32) -> &'static str {
        match e {
            CACHE_FLUSH_TS => "CACHE_FLUSH_TS",
            CACHE_FLUSH => "CACHE_FLUSH",
            CS_PARTIAL_FLUSH => "CS_PARTIAL_FLUSH",
            CACHE_FLUSH_AND_INV_TS_EVENT => "CACHE_FLUSH_AND_INV_TS_EVENT",
            CACHE_FLUSH_AND_INV_EVENT => "CACHE_FLUSH_AND_INV_EVENT",
            BOTTOM_OF_PIPE_TS => "BOTTOM_OF_PIPE_TS",
            CS_DONE => "CS_DONE",
            _ => "?",
        }
    }
}

/// RELEASE_MEM dword 2 selects.
pub mod release {
    /// DATA_SEL (bits 31:29).
    pub const DATA_NONE: u32 = 0;
    pub const DATA_32: u32 = 1;
    pub const DATA_64: u32 = 2;
    pub const DATA_TIMESTAMP: u32 = 3;
    /// INT_SEL (bits 26:24): raise the end-of-pipe interrupt once the data is written.
    pub const INT_NONE: u32 = 0;
    pub const INT_AFTER_WRITE: u32 = 2;
    pub const INT_SEND_DATA: u32 = 3;
}

/// WRITE_DATA / COPY_DATA destination and source selects.
pub mod sel {
    pub const REG: u32 = 0;
    pub const MEM: u32 = 5;
    pub const IMM: u32 = 5;
    pub const TC_L2: u32 = 2;
    pub const TIMESTAMP: u32 = 9;
}

/// DMA_DATA (CP DMA) fields.
pub mod dma {
    /// SRC_SEL: DATA (fill with dword 2).
    pub const SRC_DATA: u32 = 2 << 29;
    /// SRC_SEL / DST_SEL: address through L2.
    pub const SRC_ADDR_TC_L2: u32 = 3 << 29;
    pub const DST_ADDR_TC_L2: u32 = 3 << 20;
    pub const CP_SYNC: u32 = 1 << 31;
    pub const BYTE_COUNT_MASK: u32 = (1 << 26) - 1;
    pub const RAW_WAIT: u32 = 1 << 30;
    pub const DISABLE_WR_CONFIRM: u32 = 1 << 31;
    /// Largest byte count RADV puts in one packet on gfx11 (the field allows 2^26 - 1).
    pub const MAX_BYTES: u32 = 32736;
}

/// A type-3 header: `3 << 30 | (payload - 1) << 16 | op << 8 | shader_type << 1 | pred`.
pub fn header(opcode: u8, payload_dwords: u32, compute: bool) -> u32 {
    3 << 30 | ((payload_dwords.max(1) - 1) & 0x3fff) << 16 | (opcode as u32) << 8 | (compute as u32) << 1
}

/// A one-dword NOP (count 0x3fff means "just the header").
pub const NOP_1DW: u32 = 0xffff_1000;

/// A parsed packet header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Header {
    pub opcode: u8,
    /// Payload dwords that follow the header.
    pub payload: u32,
    pub compute: bool,
    pub predicate: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("packet type {0} is not supported (header {1:#010x})")]
    UnsupportedType(u32, u32),
}

impl Header {
    /// Parses a header dword. Type-2 packets are one-dword fillers (an empty NOP).
    pub fn parse(dw: u32) -> Result<Header, ParseError> {
        match dw >> 30 {
            3 if dw == NOP_1DW => Ok(Header { opcode: op::NOP, payload: 0, compute: false, predicate: false }),
            3 => Ok(Header {
                opcode: (dw >> 8) as u8,
                payload: ((dw >> 16) & 0x3fff) + 1,
                compute: dw & 2 != 0,
                predicate: dw & 1 != 0,
            }),
            2 => Ok(Header { opcode: op::NOP, payload: 0, compute: false, predicate: false }),
            t => Err(ParseError::UnsupportedType(t, dw)),
        }
    }
}

/// Where packets go.
pub trait Sink {
    fn put(&mut self, dwords: &[u32]);
}

impl Sink for Vec<u32> {
    fn put(&mut self, dwords: &[u32]) {
        self.extend_from_slice(dwords);
    }
}

/// Emits compute packets into a [`Sink`].
pub struct Builder<'a, S: Sink + ?Sized>(pub &'a mut S);

impl<S: Sink + ?Sized> Builder<'_, S> {
    /// SET_SH_REG of consecutive registers starting at byte offset `reg`.
    pub fn set_sh_regs(&mut self, reg: u32, values: &[u32]) {
        debug_assert!((SH_REG_BASE..SH_REG_END).contains(&reg), "{reg:#x} is not an SH register");
        self.0.put(&[header(op::SET_SH_REG, values.len() as u32 + 1, true), reg.wrapping_sub(SH_REG_BASE) >> 2]);
        self.0.put(values);
    }

    pub fn set_sh_reg(&mut self, reg: u32, value: u32) {
        self.set_sh_regs(reg, &[value]);
    }

    pub fn dispatch_direct(&mut self, dims: [u32; 3], initiator: u32) {
        self.0.put(&[header(op::DISPATCH_DIRECT, 4, true), dims[0], dims[1], dims[2], initiator]);
    }

    pub fn dispatch_indirect(&mut self, va: u64, initiator: u32) {
        self.0.put(&[header(op::DISPATCH_INDIRECT, 3, true), va as u32, (va >> 32) as u32, initiator]);
    }

    /// INDIRECT_BUFFER; with `chain`, the current IB ends and execution continues there.
    pub fn indirect_buffer(&mut self, va: u64, dwords: u32, chain: bool) {
        let ctl = (dwords & ib::SIZE_MASK) | ib::VALID | if chain { ib::CHAIN } else { 0 };
        self.0.put(&[header(op::INDIRECT_BUFFER, 3, false), va as u32, (va >> 32) as u32, ctl]);
    }

    /// EVENT_WRITE of a partial flush or cache event.
    pub fn event_write(&mut self, event_type: u32, event_index: u32) {
        self.0.put(&[header(op::EVENT_WRITE, 1, false), event_type | event_index << 8]);
    }

    /// The compute-to-compute barrier RADV emits: wait for dispatches, then invalidate the
    /// shader caches (ACQUIRE_MEM with GCR_CNTL).
    pub fn cs_partial_flush_and_invalidate(&mut self, gcr_cntl: u32) {
        self.event_write(event::CS_PARTIAL_FLUSH, 4);
        self.acquire_mem(gcr_cntl);
    }

    pub fn acquire_mem(&mut self, gcr_cntl: u32) {
        self.0.put(&[header(op::ACQUIRE_MEM, 7, false), 0, 0xffff_ffff, 0x00ff_ffff, 0, 0, 0x0a, gcr_cntl]);
    }

    /// RELEASE_MEM: at end of pipe, write `data` (per `data_sel`) to `va` and optionally
    /// raise the interrupt.
    pub fn release_mem(&mut self, event_type: u32, data_sel: u32, int_sel: u32, va: u64, data: u64) {
        self.0.put(&[
            header(op::RELEASE_MEM, 7, false),
            event_type | 5 << 8,
            data_sel << 29 | int_sel << 24,
            va as u32,
            (va >> 32) as u32,
            data as u32,
            (data >> 32) as u32,
            0,
        ]);
    }

    /// WRITE_DATA of `data` to memory at `va` (with write confirm).
    pub fn write_data(&mut self, va: u64, data: &[u32]) {
        let hdr = header(op::WRITE_DATA, data.len() as u32 + 3, false);
        self.0.put(&[hdr, sel::MEM << 8 | 1 << 20, va as u32, (va >> 32) as u32]);
        self.0.put(data);
    }

    /// DMA_DATA fill of `bytes` bytes at `va` with `value`.
    pub fn dma_fill(&mut self, va: u64, value: u32, bytes: u32) {
        self.0.put(&[
            header(op::DMA_DATA, 6, false),
            dma::SRC_DATA | dma::DST_ADDR_TC_L2 | dma::CP_SYNC,
            value,
            0,
            va as u32,
            (va >> 32) as u32,
            bytes & dma::BYTE_COUNT_MASK,
        ]);
    }

    /// DMA_DATA copy of `bytes` bytes from `src` to `dst`.
    pub fn dma_copy(&mut self, dst: u64, src: u64, bytes: u32) {
        self.0.put(&[
            header(op::DMA_DATA, 6, false),
            dma::SRC_ADDR_TC_L2 | dma::DST_ADDR_TC_L2 | dma::CP_SYNC,
            src as u32,
            (src >> 32) as u32,
            dst as u32,
            (dst >> 32) as u32,
            bytes & dma::BYTE_COUNT_MASK,
        ]);
    }

    /// WAIT_REG_MEM on memory: poll the dword at `va` until `(value & mask) <func> reference`
    /// (`func`: 3 `==`, 4 `!=`, ...).
    pub fn wait_mem(&mut self, va: u64, func: u32, reference: u32, mask: u32) {
        self.0.put(&[
            header(op::WAIT_REG_MEM, 6, false),
            func & 7 | 1 << 4,
            va as u32,
            (va >> 32) as u32,
            reference,
            mask,
            4,
        ]);
    }

    /// COPY_DATA of a dword (or a qword with `wide`) from `src` to memory at `dst`;
    /// `src_sel` selects memory (`sel::TC_L2`), an immediate or the timestamp counter.
    pub fn copy_data(&mut self, src_sel: u32, src: u64, dst: u64, wide: bool) {
        let ctl = src_sel | sel::MEM << 8 | (wide as u32) << 16 | 1 << 20;
        self.0.put(&[
            header(op::COPY_DATA, 5, false),
            ctl,
            src as u32,
            (src >> 32) as u32,
            dst as u32,
            (dst >> 32) as u32,
        ]);
    }

    /// A NOP packet occupying exactly `dwords` dwords (at least 1).
    pub fn nop(&mut self, dwords: u32) {
        match dwords {
            0 => {}
            1 => self.0.put(&[NOP_1DW]),
            n => {
                self.0.put(&[header(op::NOP, n - 1, false)]);
                for _ in 0..n - 1 {
                    self.0.put(&[0]);
                }
            }
        }
    }
}

fn fields_text(value: u32, fields: &[Field]) -> String {
    let parts: Vec<String> = fields
        .iter()
        .filter_map(|&(name, lo, w)| {
            let v = (value >> lo) & if w == 32 { u32::MAX } else { (1 << w) - 1 };
            (v != 0).then(|| format!("{name}={v:#x}"))
        })
        .collect();
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join(" "))
    }
}

/// Name of a register byte offset, or its hex offset.
pub fn register_name(offset: u32) -> String {
    register_info(offset).map_or_else(|| format!("reg {offset:#x}"), |(n, _)| n.to_string())
}

/// Describes one packet (header + payload) in a line of text.
pub fn describe(words: &[u32]) -> String {
    let Some(&hdr) = words.first() else { return "<empty>".into() };
    let h = match Header::parse(hdr) {
        Ok(h) => h,
        Err(e) => return format!("<{e}>"),
    };
    let name = op::name(h.opcode).map_or_else(|| format!("OPCODE_{:#04x}", h.opcode), str::to_string);
    let p = &words[1..words.len().min(1 + h.payload as usize)];
    let mut s = format!("{name} ({} dw)", h.payload);
    match h.opcode {
        op::SET_SH_REG | op::SET_UCONFIG_REG if !p.is_empty() => {
            let base = if h.opcode == op::SET_SH_REG { SH_REG_BASE } else { UCONFIG_REG_BASE };
            for (k, v) in p[1..].iter().enumerate() {
                let r = base + ((p[0] & 0xffff) + k as u32) * 4;
                let fields = register_info(r).map_or(String::new(), |(_, f)| fields_text(*v, f));
                let _ = write!(s, "\n    {} = {v:#010x}{fields}", register_name(r));
            }
        }
        op::DISPATCH_DIRECT if p.len() >= 4 => {
            let f = register_info(reg::COMPUTE_DISPATCH_INITIATOR).map_or(String::new(), |(_, f)| fields_text(p[3], f));
            let _ = write!(s, " dims={}x{}x{} initiator={:#x}{f}", p[0], p[1], p[2], p[3]);
        }
        op::DISPATCH_INDIRECT if p.len() >= 3 => {
            let _ = write!(s, " va={:#x} initiator={:#x}", p[0] as u64 | (p[1] as u64) << 32, p[2]);
        }
        op::INDIRECT_BUFFER if p.len() >= 3 => {
            let _ = write!(
                s,
                " va={:#x} size={}dw{}{}",
                p[0] as u64 | (p[1] as u64) << 32,
                p[2] & ib::SIZE_MASK,
                if p[2] & ib::CHAIN != 0 { " CHAIN" } else { "" },
                if p[2] & ib::VALID != 0 { " VALID" } else { "" }
            );
        }
        op::EVENT_WRITE if !p.is_empty() => {
            let _ = write!(s, " {} index={}", event::name(p[0] & 0x3f), (p[0] >> 8) & 0xf);
        }
        op::RELEASE_MEM if p.len() >= 6 => {
            let _ = write!(
                s,
                " {} data_sel={} int_sel={} va={:#x} data={:#x}",
                event::name(p[0] & 0x3f),
                p[1] >> 29,
                (p[1] >> 24) & 7,
                p[2] as u64 | (p[3] as u64) << 32,
                p[4] as u64 | (p[5] as u64) << 32
            );
        }
        op::ACQUIRE_MEM if p.len() >= 7 => {
            let _ = write!(s, " gcr_cntl={:#x}", p[6]);
        }
        op::WRITE_DATA if p.len() >= 3 => {
            let _ = write!(
                s,
                " dst_sel={} va={:#x} {} dw",
                (p[0] >> 8) & 0xf,
                p[1] as u64 | (p[2] as u64) << 32,
                p.len() - 3
            );
        }
        op::DMA_DATA if p.len() >= 6 => {
            let fill = (p[0] >> 29) & 3 == 2;
            let dst = p[3] as u64 | (p[4] as u64) << 32;
            if fill {
                let _ = write!(s, " fill value={:#x} dst={dst:#x} bytes={}", p[1], p[5] & dma::BYTE_COUNT_MASK);
            } else {
                let src = p[1] as u64 | (p[2] as u64) << 32;
                let _ = write!(s, " copy src={src:#x} dst={dst:#x} bytes={}", p[5] & dma::BYTE_COUNT_MASK);
            }
        }
        _ => {}
    }
    s
}

/// Prints a whole stream, one packet per entry, with dword offsets.
pub fn dump(words: &[u32]) -> String {
    let mut out = String::new();
    let mut at = 0usize;
    while at < words.len() {
        let len = match Header::parse(words[at]) {
            Ok(h) => 1 + h.payload as usize,
            Err(_) => 1,
        };
        let _ = writeln!(out, "[{at:5}] {}", describe(&words[at..(at + len).min(words.len())]));
        at += len;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_match_radv_values() {
        // Values from Mesa/RADV for gfx11 compute.
        assert_eq!(header(op::DISPATCH_DIRECT, 4, true), 0xc003_1502);
        assert_eq!(header(op::DISPATCH_INDIRECT, 3, true), 0xc002_1602);
        assert_eq!(header(op::RELEASE_MEM, 7, false), 0xc006_4900);
        assert_eq!(header(op::ACQUIRE_MEM, 7, false), 0xc006_5800);
        assert_eq!(header(op::EVENT_WRITE, 1, false), 0xc000_4600);
        assert_eq!(header(op::INDIRECT_BUFFER, 3, false), 0xc002_3f00);
        let h = Header::parse(0xc003_1502).unwrap();
        assert_eq!((h.opcode, h.payload, h.compute), (op::DISPATCH_DIRECT, 4, true));
        assert_eq!(Header::parse(NOP_1DW).unwrap().payload, 0);
        assert!(Header::parse(0x4000_0000).is_err());
    }

    #[test]
    fn builder_and_dump_round_trip() {
        let mut v = Vec::new();
        let mut b = Builder(&mut v);
        b.set_sh_regs(reg::COMPUTE_PGM_RSRC1, &[0x60af_0080, 0x9e]);
        b.cs_partial_flush_and_invalidate(0x380);
        b.dispatch_direct([4, 1, 1], 0xa045);
        b.nop(3);
        // RADV's CS_PARTIAL_FLUSH.
        assert_eq!(&v[4..6], &[0xc000_4600, 0x407]);
        let text = dump(&v);
        assert!(text.contains("COMPUTE_PGM_RSRC2 = 0x0000009e (USER_SGPR=0xf TGID_X_EN=0x1)"), "{text}");
        assert!(text.contains("DISPATCH_DIRECT (4 dw) dims=4x1x1 initiator=0xa045"), "{text}");
        assert!(text.contains("EVENT_WRITE (1 dw) CS_PARTIAL_FLUSH index=4"), "{text}");
        assert_eq!(text.lines().filter(|l| l.starts_with('[')).count(), 5, "{text}");
    }
}
