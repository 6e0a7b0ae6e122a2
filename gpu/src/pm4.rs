//! PM4 packets and the gfx11 compute registers: one set of definitions used by the ICD's
//! emitter ([`Builder`]), the command processor's parser ([`Header::parse`]) and the
//! stream dumper ([`dump`]). Facts from Mesa's `sid.h`/`gfx11.json`/`pkt3.json` and the
//! Linux amdgpu headers; see ARCHITECTURE.md, "PM4 facts".

use std::fmt::Write;

/// Type-3 packet opcodes (IT_OPCODE).
pub mod op {
    /// Every opcode this crate knows, with its name; the constants below are its entries.
    macro_rules! opcodes {
        ($( $name:ident = $v:literal, )*) => {
            $( pub const $name: u8 = $v; )*
            /// Name of a packet opcode, for dumps and error reports.
            pub fn name(op: u8) -> Option<&'static str> {
                match op {
                    $( $v => Some(stringify!($name)), )*
                    _ => None,
                }
            }
        };
    }

    opcodes! {
        NOP = 0x10,
        SET_BASE = 0x11,
        CLEAR_STATE = 0x12,
        INDEX_BUFFER_SIZE = 0x13,
        DISPATCH_DIRECT = 0x15,
        DISPATCH_INDIRECT = 0x16,
        ATOMIC_MEM = 0x1e,
        OCCLUSION_QUERY = 0x1f,
        SET_PREDICATION = 0x20,
        COND_EXEC = 0x22,
        PRED_EXEC = 0x23,
        DRAW_INDIRECT = 0x24,
        DRAW_INDEX_INDIRECT = 0x25,
        INDEX_BASE = 0x26,
        DRAW_INDEX_2 = 0x27,
        CONTEXT_CONTROL = 0x28,
        INDEX_TYPE = 0x2a,
        DRAW_INDIRECT_MULTI = 0x2c,
        DRAW_INDEX_AUTO = 0x2d,
        NUM_INSTANCES = 0x2f,
        DRAW_INDEX_MULTI_AUTO = 0x30,
        INDIRECT_BUFFER_CONST = 0x33,
        STRMOUT_BUFFER_UPDATE = 0x34,
        DRAW_INDEX_OFFSET_2 = 0x35,
        WRITE_DATA = 0x37,
        DRAW_INDEX_INDIRECT_MULTI = 0x38,
        WAIT_REG_MEM = 0x3c,
        INDIRECT_BUFFER = 0x3f,
        COPY_DATA = 0x40,
        PFP_SYNC_ME = 0x42,
        EVENT_WRITE = 0x46,
        EVENT_WRITE_EOP = 0x47,
        EVENT_WRITE_EOS = 0x48,
        RELEASE_MEM = 0x49,
        DISPATCH_MESH_INDIRECT_MULTI = 0x4c,
        DISPATCH_TASKMESH_GFX = 0x4d,
        DISPATCH_MESH_DIRECT = 0x4e,
        DMA_DATA = 0x50,
        CONTEXT_REG_RMW = 0x51,
        ACQUIRE_MEM = 0x58,
        LOAD_UCONFIG_REG = 0x5e,
        LOAD_SH_REG = 0x5f,
        LOAD_CONTEXT_REG = 0x61,
        LOAD_SH_REG_INDEX = 0x63,
        SET_CONFIG_REG = 0x68,
        SET_CONTEXT_REG = 0x69,
        SET_SH_REG = 0x76,
        SET_SH_REG_OFFSET = 0x77,
        SET_UCONFIG_REG = 0x79,
        SET_UCONFIG_REG_INDEX = 0x7a,
        SET_SH_REG_INDEX = 0x9b,
        LOAD_CONTEXT_REG_INDEX = 0x9f,
        DISPATCH_TASK_STATE_INIT = 0xa9,
        DISPATCH_TASKMESH_DIRECT_ACE = 0xaa,
        DISPATCH_TASKMESH_INDIRECT_MULTI_ACE = 0xad,
    }

    /// The packets that start graphics work (draws, mesh and task dispatches): the model
    /// has no graphics pipeline, so each is a CP error.
    pub fn is_draw(op: u8) -> bool {
        matches!(
            op,
            DRAW_INDIRECT
                | DRAW_INDEX_INDIRECT
                | DRAW_INDEX_2
                | DRAW_INDIRECT_MULTI
                | DRAW_INDEX_AUTO
                | DRAW_INDEX_MULTI_AUTO
                | DRAW_INDEX_OFFSET_2
                | DRAW_INDEX_INDIRECT_MULTI
                | DISPATCH_MESH_INDIRECT_MULTI
                | DISPATCH_TASKMESH_GFX
                | DISPATCH_MESH_DIRECT
                | DISPATCH_TASKMESH_DIRECT_ACE
                | DISPATCH_TASKMESH_INDIRECT_MULTI_ACE
        )
    }
}

/// First byte offset of the SH register space (SET_SH_REG offsets are relative to it).
pub const SH_REG_BASE: u32 = 0xb000;
pub const SH_REG_END: u32 = 0xc000;
/// Byte offsets of the context register space (SET_CONTEXT_REG offsets are relative to it).
pub const CONTEXT_REG_BASE: u32 = 0x28000;
pub const CONTEXT_REG_END: u32 = 0x30000;
/// First byte offset of the UCONFIG register space.
pub const UCONFIG_REG_BASE: u32 = 0x30000;
pub const UCONFIG_REG_END: u32 = 0x40000;

/// A register field: name, low bit, width.
pub type Field = (&'static str, u32, u32);

/// The value of `field` in register value `value`.
pub fn get(field: Field, value: u32) -> u32 {
    let (_, lo, width) = field;
    ((value as u64 >> lo) & ((1u64 << width) - 1)) as u32
}

/// `value` with `field` replaced by `v` (truncated to the field's width).
pub fn set(field: Field, value: u32, v: u32) -> u32 {
    let (_, lo, width) = field;
    let mask = (((1u64 << width) - 1) << lo) as u32;
    (value & !mask) | ((((v as u64) << lo) as u32) & mask)
}

macro_rules! registers {
    ($( $name:ident = $off:literal $( [ $( $f:ident $lo:literal $w:literal ),* ] )? ; )*) => {
        /// gfx11 compute register byte offsets.
        pub mod reg {
            $( pub const $name: u32 = $off; )*
        }
        /// The fields of each register, by name: `fields::COMPUTE_PGM_RSRC2::USER_SGPR`.
        pub mod fields {
            $(
                #[allow(non_snake_case)]
                pub mod $name {
                    $( $( pub const $f: crate::pm4::Field = (stringify!($f), $lo, $w); )* )?
                }
            )*
        }
        /// Name and fields of a known register.
        pub fn register_info(offset: u32) -> Option<(&'static str, &'static [Field])> {
            match offset {
                $( $off => Some((stringify!($name), &[ $( $( fields::$name::$f, )* )? ])), )*
                _ => None,
            }
        }
    };
}

registers! {
    COMPUTE_DISPATCH_INITIATOR = 0xb800 [COMPUTE_SHADER_EN 0 1, PARTIAL_TG_EN 1 1, FORCE_START_AT_000 2 1,
        USE_THREAD_DIMENSIONS 5 1, ORDER_MODE 6 1, TUNNEL_ENABLE 13 1, CS_W32_EN 15 1];
    COMPUTE_DIM_X = 0xb804;
    COMPUTE_DIM_Y = 0xb808;
    COMPUTE_DIM_Z = 0xb80c;
    COMPUTE_START_X = 0xb810;
    COMPUTE_START_Y = 0xb814;
    COMPUTE_START_Z = 0xb818;
    COMPUTE_NUM_THREAD_X = 0xb81c [NUM_THREAD_FULL 0 16, NUM_THREAD_PARTIAL 16 16];
    COMPUTE_NUM_THREAD_Y = 0xb820 [NUM_THREAD_FULL 0 16, NUM_THREAD_PARTIAL 16 16];
    COMPUTE_NUM_THREAD_Z = 0xb824 [NUM_THREAD_FULL 0 16, NUM_THREAD_PARTIAL 16 16];
    COMPUTE_PGM_LO = 0xb830;
    COMPUTE_PGM_HI = 0xb834;
    COMPUTE_DISPATCH_SCRATCH_BASE_LO = 0xb840;
    COMPUTE_DISPATCH_SCRATCH_BASE_HI = 0xb844;
    COMPUTE_PGM_RSRC1 = 0xb848 [VGPRS 0 6, SGPRS 6 4, PRIORITY 10 2, FLOAT_MODE 12 8, PRIV 20 1,
        DX10_CLAMP 21 1, IEEE_MODE 23 1, BULKY 24 1, FP16_OVFL 26 1, WGP_MODE 29 1, MEM_ORDERED 30 1,
        FWD_PROGRESS 31 1];
    COMPUTE_PGM_RSRC2 = 0xb84c [SCRATCH_EN 0 1, USER_SGPR 1 5, TRAP_PRESENT 6 1, TGID_X_EN 7 1,
        TGID_Y_EN 8 1, TGID_Z_EN 9 1, TG_SIZE_EN 10 1, TIDIG_COMP_CNT 11 2, EXCP_EN_MSB 13 2,
        LDS_SIZE 15 9, EXCP_EN 24 7];
    COMPUTE_VMID = 0xb850;
    COMPUTE_RESOURCE_LIMITS = 0xb854 [WAVES_PER_SH 0 10, TG_PER_CU 12 4, LOCK_THRESHOLD 16 6,
        SIMD_DEST_CNTL 22 1, FORCE_SIMD_DIST 23 1, CU_GROUP_COUNT 24 3];
    COMPUTE_TMPRING_SIZE = 0xb860 [WAVES 0 12, WAVESIZE 12 15];
    COMPUTE_PGM_RSRC3 = 0xb8a0 [SHARED_VGPR_CNT 0 4, INST_PREF_SIZE 4 6, TRAP_ON_START 10 1,
        TRAP_ON_END 11 1, IMAGE_OP 31 1];
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
    /// Only the compute engines (MEC) read it and refuse an IB without it: amdgpu's
    /// compute rings set it on every IB, and Mesa sets it on chained IBs for them. The
    /// graphics ring's PFP ignores it: amdgpu's gfx ring puts the VMID in bits 27:24 of
    /// this dword and no VALID, and RADV's IB2s on the gfx ring carry none.
    pub const VALID: u32 = 1 << 23;
}

/// SET_BASE (3 dwords): BASE_INDEX 3:0, then the base address (low dword, dword aligned:
/// bits 1:0 ignored; high dword). RADV puts an indirect buffer's own address there, 4-byte
/// aligned as Vulkan's offsets are, with a DISPATCH_INDIRECT offset of 0, and passes the
/// CTS's offsets of 52 on hardware: bit 2 counts.
pub mod set_base {
    /// The base of the graphics ring's indirect draw and dispatch arguments.
    pub const INDIRECT_BASE: u32 = 1;
}

/// CONTEXT_CONTROL (2 dwords): the load enables (dword 1) and shadow enables (dword 2)
/// of register shadowing; bit 31 of each says the packet updates that set.
pub mod context_control {
    pub const UPDATE_ENABLES: u32 = 1 << 31;
}

/// EVENT_WRITE SAMPLE_PIPELINESTAT (dwords: event, address low, address high): the
/// pipeline statistics counters, 64 bits each, written in the hardware's order — PS, C
/// primitives, C invocations, VS, GS, GS primitives, IA primitives, IA vertices, HS, DS, CS
/// invocations (RADV's `pipeline_statistics_indices` map Vulkan's bits onto these slots).
pub mod pipelinestat {
    pub const COUNTERS: usize = 11;
    pub const CS_INVOCATIONS: usize = 10;
}

/// VGT event types used by EVENT_WRITE / RELEASE_MEM (VGT_EVENT_TYPE, Mesa's V_028A90_*).
pub mod event {
    macro_rules! events {
        ($( $name:ident = $v:literal, )*) => {
            $( pub const $name: u32 = $v; )*
            pub fn name(e: u32) -> &'static str {
                match e {
                    $( $v => stringify!($name), )*
                    _ => "?",
                }
            }
        };
    }

    events! {
        CACHE_FLUSH_TS = 0x04,
        CONTEXT_DONE = 0x05,
        CACHE_FLUSH = 0x06,
        CS_PARTIAL_FLUSH = 0x07,
        VGT_STREAMOUT_RESET = 0x0a,
        VS_PARTIAL_FLUSH = 0x0f,
        PS_PARTIAL_FLUSH = 0x10,
        CACHE_FLUSH_AND_INV_TS_EVENT = 0x14,
        ZPASS_DONE = 0x15,
        CACHE_FLUSH_AND_INV_EVENT = 0x16,
        PERFCOUNTER_START = 0x17,
        PERFCOUNTER_STOP = 0x18,
        PIPELINESTAT_START = 0x19,
        PIPELINESTAT_STOP = 0x1a,
        PERFCOUNTER_SAMPLE = 0x1b,
        SAMPLE_PIPELINESTAT = 0x1e,
        SO_VGTSTREAMOUT_FLUSH = 0x1f,
        SAMPLE_STREAMOUTSTATS = 0x20,
        VGT_FLUSH = 0x24,
        SQ_NON_EVENT = 0x26,
        BOTTOM_OF_PIPE_TS = 0x28,
        DB_CACHE_FLUSH_AND_INV = 0x2a,
        FLUSH_AND_INV_DB_DATA_TS = 0x2b,
        FLUSH_AND_INV_DB_META = 0x2c,
        FLUSH_AND_INV_CB_DATA_TS = 0x2d,
        FLUSH_AND_INV_CB_META = 0x2e,
        CS_DONE = 0x2f,
        PS_DONE = 0x30,
        FLUSH_AND_INV_CB_PIXEL_DATA = 0x31,
        THREAD_TRACE_START = 0x33,
        THREAD_TRACE_STOP = 0x34,
        THREAD_TRACE_MARKER = 0x35,
        THREAD_TRACE_FINISH = 0x37,
        PIXEL_PIPE_STAT_CONTROL = 0x38,
        PIXEL_PIPE_STAT_DUMP = 0x39,
        PIXEL_PIPE_STAT_RESET = 0x3a,
    }

    /// Events that wait for, or flush the caches of, graphics work. The model runs no
    /// graphics work, so on the graphics ring each is already satisfied.
    pub fn is_graphics_sync(e: u32) -> bool {
        matches!(
            e,
            CONTEXT_DONE
                | VS_PARTIAL_FLUSH
                | PS_PARTIAL_FLUSH
                | VGT_FLUSH
                | SQ_NON_EVENT
                | DB_CACHE_FLUSH_AND_INV
                | FLUSH_AND_INV_DB_DATA_TS
                | FLUSH_AND_INV_DB_META
                | FLUSH_AND_INV_CB_DATA_TS
                | FLUSH_AND_INV_CB_META
                | FLUSH_AND_INV_CB_PIXEL_DATA
                | PS_DONE
        )
    }
}

/// RELEASE_MEM (gfx10+ layout). Dword 1: EVENT_TYPE 5:0, EVENT_INDEX 11:8, cache
/// actions above; dword 2: DST_SEL 17:16, INT_SEL 26:24, DATA_SEL 31:29.
pub mod release {
    pub const DST_SEL_SHIFT: u32 = 16;
    pub const INT_SEL_SHIFT: u32 = 24;
    pub const DATA_SEL_SHIFT: u32 = 29;
    /// DST_SEL: memory, or memory through L2 (the same here).
    pub const DST_MEM: u32 = 0;
    pub const DST_TC_L2: u32 = 1;
    /// DATA_SEL values.
    pub const DATA_NONE: u32 = 0;
    pub const DATA_32: u32 = 1;
    pub const DATA_64: u32 = 2;
    /// The 64-bit GPU clock counter.
    pub const DATA_TIMESTAMP: u32 = 3;
    /// The 64-bit system clock counter.
    pub const DATA_SYSTEM_CLOCK: u32 = 4;
    /// INT_SEL values: no interrupt; interrupt; interrupt once the data write is
    /// confirmed; only wait for the write confirmation (RADV's choice for data writes).
    pub const INT_NONE: u32 = 0;
    pub const INT_ONLY: u32 = 1;
    pub const INT_AFTER_WRITE: u32 = 2;
    pub const INT_SEND_DATA: u32 = 3;
}

/// WRITE_DATA / COPY_DATA destination and source selects (COPY_DATA dword 1: SRC_SEL 3:0,
/// DST_SEL 11:8, COUNT_SEL 16, WR_CONFIRM 20; WRITE_DATA dword 1: DST_SEL 11:8,
/// WR_ONE_ADDR 16, WR_CONFIRM 20).
pub mod sel {
    pub const REG: u32 = 0;
    /// Memory, synchronised (COPY_DATA source; the graphics engine's destination).
    pub const SRC_MEM: u32 = 1;
    pub const TC_L2: u32 = 2;
    pub const GDS: u32 = 3;
    pub const PERF: u32 = 4;
    /// Destination: memory. Source: the immediate in dwords 2–3.
    pub const MEM: u32 = 5;
    pub const IMM: u32 = 5;
    /// Source: the value returned by the last ATOMIC_MEM.
    pub const ATOMIC_RETURN: u32 = 6;
    /// Source: the GPU clock counter.
    pub const TIMESTAMP: u32 = 9;
    /// Source: the system clock counter.
    pub const SYSTEM_CLOCK: u32 = 10;
    pub const DST_SEL_SHIFT: u32 = 8;
    /// COPY_DATA: 64-bit copy.
    pub const COUNT_SEL: u32 = 1 << 16;
    /// WRITE_DATA: every dword goes to the same address.
    pub const WR_ONE_ADDR: u32 = 1 << 16;
    pub const WR_CONFIRM: u32 = 1 << 20;
}

/// WAIT_REG_MEM dword 1: FUNCTION 2:0, MEM_SPACE 5:4, OPERATION 7:6; the test is
/// `(value & mask) FUNCTION reference`.
pub mod wait {
    pub const ALWAYS: u32 = 0;
    pub const LT: u32 = 1;
    pub const LE: u32 = 2;
    pub const EQ: u32 = 3;
    pub const NE: u32 = 4;
    pub const GE: u32 = 5;
    pub const GT: u32 = 6;
    pub const MEM_SPACE_SHIFT: u32 = 4;
    pub const SPACE_REG: u32 = 0;
    pub const SPACE_MEM: u32 = 1;
    pub const OPERATION_SHIFT: u32 = 6;
    /// OPERATION: wait; write, wait, write a register (graphics only); a preemptable wait.
    pub const OP_WAIT: u32 = 0;
    pub const OP_WRITE_WAIT_WRITE: u32 = 1;
    pub const OP_WAIT_PREEMPTABLE: u32 = 3;

    /// The comparison of a FUNCTION code, or `None` for the reserved code 7.
    pub fn test(function: u32, value: u32, reference: u32) -> Option<bool> {
        Some(match function {
            ALWAYS => true,
            LT => value < reference,
            LE => value <= reference,
            EQ => value == reference,
            NE => value != reference,
            GE => value >= reference,
            GT => value > reference,
            _ => return None,
        })
    }
}

/// DMA_DATA (CP DMA). Dword 1: DST_SEL 21:20, SRC_SEL 30:29, CP_SYNC 31; dword 6
/// (COMMAND): BYTE_COUNT 25:0, SAS 26, DAS 27, SAIC 28, DAIC 29, RAW_WAIT 30, DIS_WC 31.
pub mod dma {
    pub const DST_SEL_SHIFT: u32 = 20;
    pub const SRC_SEL_SHIFT: u32 = 29;
    /// DST_SEL / SRC_SEL: an address (or a register with DAS / SAS), GDS, nowhere
    /// (destination) or the fill value in dword 2 (source), an address through L2.
    pub const SEL_ADDR: u32 = 0;
    pub const SEL_GDS: u32 = 1;
    pub const DST_NOWHERE: u32 = 2;
    pub const SRC_DATA_SEL: u32 = 2;
    pub const SEL_TC_L2: u32 = 3;
    /// SRC_SEL: DATA (fill with dword 2).
    pub const SRC_DATA: u32 = SRC_DATA_SEL << SRC_SEL_SHIFT;
    /// SRC_SEL / DST_SEL: address through L2.
    pub const SRC_ADDR_TC_L2: u32 = SEL_TC_L2 << SRC_SEL_SHIFT;
    pub const DST_ADDR_TC_L2: u32 = SEL_TC_L2 << DST_SEL_SHIFT;
    pub const CP_SYNC: u32 = 1 << 31;
    /// BYTE_COUNT: 26 bits on gfx9 and later.
    pub const BYTE_COUNT_MASK: u32 = (1 << 26) - 1;
    /// The source / destination is a register.
    pub const SAS: u32 = 1 << 26;
    pub const DAS: u32 = 1 << 27;
    /// The source / destination address does not increment.
    pub const SAIC: u32 = 1 << 28;
    pub const DAIC: u32 = 1 << 29;
    pub const RAW_WAIT: u32 = 1 << 30;
    pub const DISABLE_WR_CONFIRM: u32 = 1 << 31;
    /// Largest byte count RADV and radeonsi put in one packet on gfx11 (32767 rounded
    /// down to the 32-byte CP DMA alignment; the field itself allows 2^26 - 1).
    pub const MAX_BYTES: u32 = 32736;
}

/// ATOMIC_MEM (9 dwords): dword 1 ATOMIC 6:0 (a TC_OP), COMMAND 11:8; dwords 2–3 the
/// address, 4–5 the source data, 6–7 the compare data, 8 LOOP_INTERVAL 12:0.
pub mod atomic_mem {
    pub const COMMAND_SHIFT: u32 = 8;
    /// COMMAND: one attempt; repeat a compare-swap until it succeeds; wait for the write
    /// confirmation; send and continue.
    pub const SINGLE_PASS: u32 = 0;
    pub const LOOP_UNTIL_COMPARE_SATISFIED: u32 = 1;
    pub const WAIT_FOR_WRITE_CONFIRMATION: u32 = 2;
    pub const SEND_AND_CONTINUE: u32 = 3;
    /// TC_OP bits: the 64-bit forms, and the forms that return nothing.
    pub const OP_64: u32 = 0x20;
    pub const OP_NO_RETURN: u32 = 0x40;
    /// TC_OP operations (32-bit, returning).
    pub const SWAP: u32 = 0x07;
    pub const CMPSWAP: u32 = 0x08;
    pub const ADD: u32 = 0x0f;
    pub const SUB: u32 = 0x10;
    pub const SMIN: u32 = 0x11;
    pub const UMIN: u32 = 0x12;
    pub const SMAX: u32 = 0x13;
    pub const UMAX: u32 = 0x14;
    pub const AND: u32 = 0x15;
    pub const OR: u32 = 0x16;
    pub const XOR: u32 = 0x17;
    pub const INC: u32 = 0x18;
    pub const DEC: u32 = 0x19;

    /// The memory operation of a TC_OP code (with its 64-bit and no-return bits removed).
    pub fn operation(tc_op: u32) -> Option<crate::mem::atomic::AtomicOp> {
        use crate::mem::atomic::AtomicOp as A;
        Some(match tc_op & !(OP_64 | OP_NO_RETURN) {
            SWAP => A::Swap,
            CMPSWAP => A::CmpSwap,
            ADD => A::Add,
            SUB => A::Sub,
            SMIN => A::SMin,
            UMIN => A::UMin,
            SMAX => A::SMax,
            UMAX => A::UMax,
            AND => A::And,
            OR => A::Or,
            XOR => A::Xor,
            INC => A::Inc,
            DEC => A::Dec,
            _ => return None,
        })
    }
}

/// LOAD_SH_REG_INDEX (5 dwords): dword 1 INDEX 1:0 and the address's bits 31:2, dword 2
/// the address's high bits, dword 3 REG_OFFSET 15:0 and DATA_FORMAT 31, dword 4
/// NUM_DWORDS 13:0.
pub mod load_sh_reg {
    /// INDEX: the address is in the packet.
    pub const INDEX_DIRECT_ADDR: u32 = 0;
    /// DATA_FORMAT: memory holds the register values (not offset/value pairs).
    pub const FORMAT_OFFSET_AND_SIZE: u32 = 0;
    pub const FORMAT_OFFSET_AND_DATA: u32 = 1 << 31;
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
            data_sel << release::DATA_SEL_SHIFT | int_sel << release::INT_SEL_SHIFT,
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
        self.0.put(&[hdr, sel::MEM << sel::DST_SEL_SHIFT | sel::WR_CONFIRM, va as u32, (va >> 32) as u32]);
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
    /// (`func`: a [`wait`] function such as [`wait::EQ`]).
    pub fn wait_mem(&mut self, va: u64, func: u32, reference: u32, mask: u32) {
        self.0.put(&[
            header(op::WAIT_REG_MEM, 6, false),
            func & 7 | wait::SPACE_MEM << wait::MEM_SPACE_SHIFT,
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
        let ctl = src_sel | sel::MEM << sel::DST_SEL_SHIFT | if wide { sel::COUNT_SEL } else { 0 } | sel::WR_CONFIRM;
        self.0.put(&[
            header(op::COPY_DATA, 5, false),
            ctl,
            src as u32,
            (src >> 32) as u32,
            dst as u32,
            (dst >> 32) as u32,
        ]);
    }

    /// LOAD_SH_REG_INDEX: loads `dwords` consecutive SH registers from `reg` on from
    /// memory at `va` (RADV's way of getting an indirect dispatch's group counts into
    /// user SGPRs).
    pub fn load_sh_regs(&mut self, reg: u32, va: u64, dwords: u32) {
        debug_assert!((SH_REG_BASE..SH_REG_END).contains(&reg), "{reg:#x} is not an SH register");
        self.0.put(&[
            header(op::LOAD_SH_REG_INDEX, 4, false),
            (va as u32 & !3) | load_sh_reg::INDEX_DIRECT_ADDR,
            (va >> 32) as u32,
            reg.wrapping_sub(SH_REG_BASE) >> 2,
            dwords & 0x3fff,
        ]);
    }

    /// ATOMIC_MEM with TC_OP `tc_op` on memory at `va`.
    pub fn atomic_mem(&mut self, tc_op: u32, command: u32, va: u64, src: u64, cmp: u64) {
        self.0.put(&[
            header(op::ATOMIC_MEM, 8, false),
            tc_op & 0x7f | command << atomic_mem::COMMAND_SHIFT,
            va as u32,
            (va >> 32) as u32,
            src as u32,
            (src >> 32) as u32,
            cmp as u32,
            (cmp >> 32) as u32,
            10,
        ]);
    }

    /// WAIT_REG_MEM on a register (byte offset `reg`).
    pub fn wait_reg(&mut self, reg: u32, func: u32, reference: u32, mask: u32) {
        self.0.put(&[
            header(op::WAIT_REG_MEM, 6, false),
            func & 7 | wait::SPACE_REG << wait::MEM_SPACE_SHIFT,
            reg >> 2,
            0,
            reference,
            mask,
            4,
        ]);
    }

    /// COND_EXEC: the next `dwords` dwords run only if the dword at `va` is not zero.
    pub fn cond_exec(&mut self, va: u64, dwords: u32) {
        self.0.put(&[header(op::COND_EXEC, 4, false), va as u32 & !3, (va >> 32) as u32, 0, dwords & 0x3fff]);
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

/// Registers of the graphics shader stages that LLVM writes into a `.AMDGPU.config`
/// section (AMDGPUAsmPrinter's `getRsrcReg` and `EmitProgramInfoSI`; Mesa's `sid.h`): named
/// in dumps and errors only, the model has no graphics pipeline.
pub const GRAPHICS_REGISTERS: &[(u32, &str)] = &[
    (0xb028, "SPI_SHADER_PGM_RSRC1_PS"),
    (0xb02c, "SPI_SHADER_PGM_RSRC2_PS"),
    (0xb128, "SPI_SHADER_PGM_RSRC1_VS"),
    (0xb228, "SPI_SHADER_PGM_RSRC1_GS"),
    (0xb328, "SPI_SHADER_PGM_RSRC1_ES"),
    (0xb428, "SPI_SHADER_PGM_RSRC1_HS"),
    (0xb528, "SPI_SHADER_PGM_RSRC1_LS"),
    (0x286cc, "SPI_PS_INPUT_ENA"),
    (0x286d0, "SPI_PS_INPUT_ADDR"),
    (0x286e8, "SPI_TMPRING_SIZE"),
];

/// Name of a register byte offset, or its hex offset.
pub fn register_name(offset: u32) -> String {
    let graphics = || GRAPHICS_REGISTERS.iter().find(|(r, _)| *r == offset).map(|(_, n)| n.to_string());
    register_info(offset).map(|(n, _)| n.to_string()).or_else(graphics).unwrap_or_else(|| format!("reg {offset:#x}"))
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
        op::SET_SH_REG
        | op::SET_SH_REG_INDEX
        | op::SET_UCONFIG_REG
        | op::SET_UCONFIG_REG_INDEX
        | op::SET_CONTEXT_REG
            if !p.is_empty() =>
        {
            let base = match h.opcode {
                op::SET_UCONFIG_REG | op::SET_UCONFIG_REG_INDEX => UCONFIG_REG_BASE,
                op::SET_CONTEXT_REG => CONTEXT_REG_BASE,
                _ => SH_REG_BASE,
            };
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
        // The graphics ring's form: an offset from SET_BASE's base.
        op::DISPATCH_INDIRECT if p.len() == 2 => {
            let _ = write!(s, " base+{:#x} initiator={:#x}", p[0], p[1]);
        }
        op::SET_BASE if p.len() >= 3 => {
            let _ = write!(s, " index={} va={:#x}", p[0] & 0xf, (p[1] & !3) as u64 | (p[2] as u64) << 32);
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
        op::CONTEXT_CONTROL if p.len() >= 2 => {
            let _ = write!(s, " load_enables={:#x} shadow_enables={:#x}", p[0], p[1]);
        }
        op::DRAW_INDEX_AUTO if p.len() >= 2 => {
            let _ = write!(s, " vertices={} draw_initiator={:#x}", p[0], p[1]);
        }
        op::DRAW_INDEX_2 if p.len() >= 5 => {
            let va = p[1] as u64 | (p[2] as u64) << 32;
            let _ = write!(s, " max_size={} index_base={va:#x} indices={} draw_initiator={:#x}", p[0], p[3], p[4]);
        }
        op::EVENT_WRITE if !p.is_empty() => {
            let _ = write!(s, " {} index={}", event::name(p[0] & 0x3f), (p[0] >> 8) & 0xf);
        }
        op::RELEASE_MEM if p.len() >= 6 => {
            let _ = write!(
                s,
                " {} data_sel={} int_sel={} va={:#x} data={:#x}",
                event::name(p[0] & 0x3f),
                p[1] >> release::DATA_SEL_SHIFT,
                (p[1] >> release::INT_SEL_SHIFT) & 7,
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
                (p[0] >> sel::DST_SEL_SHIFT) & 0xf,
                p[1] as u64 | (p[2] as u64) << 32,
                p.len() - 3
            );
        }
        op::LOAD_SH_REG_INDEX if p.len() >= 4 => {
            let reg = SH_REG_BASE + (p[2] & 0xffff) * 4;
            let _ = write!(
                s,
                " index={} va={:#x} {} x{}{}",
                p[0] & 3,
                (p[0] & !3) as u64 | (p[1] as u64) << 32,
                register_name(reg),
                p[3] & 0x3fff,
                if p[2] & load_sh_reg::FORMAT_OFFSET_AND_DATA != 0 { " offset-and-data" } else { "" }
            );
        }
        op::ATOMIC_MEM if p.len() >= 8 => {
            let _ = write!(
                s,
                " tc_op={:#x} command={} va={:#x} src={:#x} cmp={:#x}",
                p[0] & 0x7f,
                (p[0] >> atomic_mem::COMMAND_SHIFT) & 0xf,
                p[1] as u64 | (p[2] as u64) << 32,
                p[3] as u64 | (p[4] as u64) << 32,
                p[5] as u64 | (p[6] as u64) << 32
            );
        }
        op::WAIT_REG_MEM if p.len() >= 5 => {
            let func = ["always", "<", "<=", "==", "!=", ">=", ">", "reserved"][(p[0] & 7) as usize];
            let target = if (p[0] >> wait::MEM_SPACE_SHIFT) & 3 == wait::SPACE_MEM {
                format!("mem {:#x}", (p[1] & !3) as u64 | (p[2] as u64) << 32)
            } else {
                register_name((p[1] & 0x3ffff) * 4)
            };
            let _ = write!(s, " ({target} & {:#x}) {func} {:#x}", p[4], p[3]);
        }
        op::COPY_DATA if p.len() >= 5 => {
            let _ = write!(
                s,
                " src_sel={} src={:#x} dst_sel={} dst={:#x}{}",
                p[0] & 0xf,
                p[1] as u64 | (p[2] as u64) << 32,
                (p[0] >> sel::DST_SEL_SHIFT) & 0xf,
                p[3] as u64 | (p[4] as u64) << 32,
                if p[0] & sel::COUNT_SEL != 0 { " 64-bit" } else { "" }
            );
        }
        op::COND_EXEC if p.len() >= 4 => {
            let _ = write!(s, " va={:#x} exec_count={}", (p[0] & !3) as u64 | (p[1] as u64) << 32, p[3] & 0x3fff);
        }
        op::DMA_DATA if p.len() >= 6 => {
            let fill = (p[0] >> dma::SRC_SEL_SHIFT) & 3 == dma::SRC_DATA_SEL;
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
    fn field_constants_are_the_register_table_and_get_set_round_trip() {
        let (name, table) = register_info(reg::COMPUTE_PGM_RSRC2).unwrap();
        assert_eq!(name, "COMPUTE_PGM_RSRC2");
        assert!(table.contains(&fields::COMPUTE_PGM_RSRC2::USER_SGPR));
        let lds = fields::COMPUTE_PGM_RSRC2::LDS_SIZE;
        let v = set(lds, u32::MAX, 3);
        assert_eq!((get(lds, v), v | 0x1ff << 15), (3, u32::MAX));
        assert_eq!(set(lds, 0, 0x200), 0, "truncated to the field");
        assert_eq!(get(fields::COMPUTE_TMPRING_SIZE::WAVESIZE, 0x21000), 0x21);
        assert_eq!(get(fields::COMPUTE_PGM_RSRC1::FWD_PROGRESS, 1 << 31), 1);
        assert_eq!(register_name(0xb028), "SPI_SHADER_PGM_RSRC1_PS");
        assert_eq!(register_name(0xb860), "COMPUTE_TMPRING_SIZE");
        assert_eq!(register_name(0x4), "reg 0x4");
    }

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
