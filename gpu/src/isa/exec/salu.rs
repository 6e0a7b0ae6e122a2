//! The rest of the scalar ALU: SOP1/SOPK/SOPC ops not in alu.rs, MODE and the hardware
//! registers (s_getreg / s_setreg, s_round_mode, s_denorm_mode).
//!
//! Semantics follow the RDNA3 ISA reference guide's pseudo-code for each opcode; register
//! layouts (MODE, STATUS, TRAPSTS, HW_ID1/2, IB_STS) are gfx11's `SQ_WAVE_*` registers and
//! the hwreg ids are LLVM 19's for gfx1100 (`llvm-objdump-19 --mcpu=gfx1100` names 1, 2,
//! 3, 5, 6, 7, 15, 18-21, 23, 24, 27 and 29). SCC follows RDNA3-NOTES, "SCC": the mask
//! operations (quadmask, wqm, the saveexec/wrexec family) set it to "result != 0", the
//! moves, bit replication and counts of sign bits leave it alone.

use std::sync::OnceLock;
use std::time::Instant;

use super::{illegal, unsupported, FaultKind, Wave, STATUS_PRIV};
use crate::isa::decode::{Inst, Operand, SGPR_EXEC_LO, SGPR_M0, SGPR_TTMP0, SGPR_VCC_LO};
use crate::isa::table::Op::*;
use crate::spi::{mode, status};

/// hwreg ids of gfx11 (LLVM's `Hwreg::Id` for gfx1100).
pub(super) mod hwreg {
    pub const MODE: u32 = 1;
    pub const STATUS: u32 = 2;
    pub const TRAPSTS: u32 = 3;
    pub const GPR_ALLOC: u32 = 5;
    pub const LDS_ALLOC: u32 = 6;
    pub const IB_STS: u32 = 7;
    pub const SH_MEM_BASES: u32 = 15;
    pub const PERF_SNAPSHOT_PC_LO: u32 = 18;
    pub const PERF_SNAPSHOT_PC_HI: u32 = 19;
    pub const FLAT_SCR_LO: u32 = 20;
    pub const FLAT_SCR_HI: u32 = 21;
    pub const HW_ID1: u32 = 23;
    pub const HW_ID2: u32 = 24;
    pub const PERF_SNAPSHOT_DATA: u32 = 27;
    pub const SHADER_CYCLES: u32 = 29;
}

/// MODE bits a shader may write (gfx11 `SQ_WAVE_MODE`): FP_ROUND 3:0, FP_DENORM 7:4,
/// DX10_CLAMP 8, IEEE 9, LOD_CLAMPED 10, TRAP_AFTER_INST_EN 11, EXCP_EN 20:12, WAVE_END 21,
/// FP16_OVFL 23, DISABLE_PERF 27. The other bits are reserved and read as zero.
const MODE_WRITABLE: u32 = 0x003f_ffff | 1 << 23 | 1 << 27;
/// TRAPSTS fields (gfx11 `SQ_WAVE_TRAPSTS`): EXCP 8:0, SAVECTX 10, ILLEGAL_INST 11,
/// EXCP_HI 14:12, BUFFER_OOB 15, HOST_TRAP 16, WAVESTART 17, WAVE_END 18, PERF_SNAPSHOT 19,
/// TRAP_AFTER_INST 20, UTC_ERROR 28. User shaders may write them (RDNA3-NOTES,
/// "Exceptions").
const TRAPSTS_WRITABLE: u32 = 0x1ff | 0x1f_fc00 | 1 << 28;
/// STATUS fields a privileged wave may write: SCC 0, USER_PRIO 4:3, PRIV 5, HALT 13,
/// COND_DBG_USER 20, COND_DBG_SYS 21.
const STATUS_PRIV_WRITABLE: u32 = 1 | 3 << 3 | STATUS_PRIV | STATUS_HALT | 3 << 20;
/// STATUS.HALT.
pub(super) const STATUS_HALT: u32 = 1 << 13;
/// Message ids of gfx11 (LLVM's `SendMsg` ids for gfx1100, checked with
/// `llvm-objdump-19`: the others print as numbers and are reserved).
pub(super) mod msg {
    pub const INTERRUPT: u32 = 1;
    pub const HS_TESSFACTOR: u32 = 2;
    pub const DEALLOC_VGPRS: u32 = 3;
    pub const STALL_WAVE_GEN: u32 = 5;
    pub const HALT_WAVES: u32 = 6;
    pub const GS_ALLOC_REQ: u32 = 9;
    pub const RTN_GET_DOORBELL: u32 = 128;
    pub const RTN_GET_DDID: u32 = 129;
    pub const RTN_GET_TMA: u32 = 130;
    pub const RTN_GET_REALTIME: u32 = 131;
    pub const RTN_SAVE_WAVE: u32 = 132;
    pub const RTN_GET_TBA: u32 = 133;
    pub const RTN_GET_TBA_TO_PC: u32 = 134;
}

/// REALTIME: a free-running 100 MHz clock (RDNA3-NOTES, "Time counters"; the rate of the
/// device's timestamp counter, `ChipInfo::timestamp_hz`), counted from the first read in
/// this process.
pub fn realtime() -> u64 {
    static EPOCH: OnceLock<Instant> = OnceLock::new();
    (EPOCH.get_or_init(Instant::now).elapsed().as_nanos() / 10) as u64
}

/// The hwreg operand of s_getreg / s_setreg: (id, offset, size in bits).
fn hwreg_fields(imm: i32) -> (u32, u32, u32) {
    let imm = imm as u32 & 0xffff;
    (imm & 0x3f, imm >> 6 & 0x1f, (imm >> 11 & 0x1f) + 1)
}

/// Counts the leading bits equal to the sign bit after it (s_cls_i32's definition: the
/// first bit from the top that differs from bit 31, or -1 when all bits are equal).
fn cls(v: u64, bits: u32) -> u32 {
    let sign_ext = if v >> (bits - 1) & 1 != 0 { u64::MAX } else { 0 };
    let diff = (v ^ sign_ext) << (64 - bits);
    if diff == 0 {
        u32::MAX
    } else {
        diff.leading_zeros()
    }
}

/// Bit i of the result is set when nibble i of `v` is non-zero.
fn quadmask(v: u64, nibbles: u32) -> u64 {
    (0..nibbles).filter(|i| v >> (4 * i) & 0xf != 0).fold(0, |m, i| m | 1 << i)
}

/// Every nibble of `v` that is non-zero becomes 0xf.
fn wqm(v: u64) -> u64 {
    (0..16).filter(|i| v >> (4 * i) & 0xf != 0).fold(0, |m, i| m | 0xf << (4 * i))
}

/// Each bit of `v` twice: bit i goes to bits 2i and 2i + 1.
fn bitreplicate(v: u32) -> u64 {
    (0..32).filter(|i| v >> i & 1 != 0).fold(0, |m, i| m | 3 << (2 * i))
}

/// The SGPR that `base` indexed by `index` reaches, for s_movrel*: indexing stays inside
/// the base's region ([s0..vcc_hi], [ttmp0..ttmp15], and no indexing from anything else),
/// 64-bit operands ignore the LSB (RDNA3-NOTES, "SGPR alignment" and
/// "SGPR out-of-range behaviour"). `None` when out of range.
fn movrel_reg(base: u8, index: u32, b64: bool) -> Option<usize> {
    let base = base as u64;
    let mut addr = base + index as u64;
    if b64 {
        addr &= !1;
    }
    let last = addr + b64 as u64;
    let (lo, hi) = match base {
        0..=107 => (0, SGPR_VCC_LO as u64 + 1),
        108..=123 => (SGPR_TTMP0 as u64, SGPR_TTMP0 as u64 + 15),
        _ => (base & !(b64 as u64), base | b64 as u64),
    };
    (addr >= lo && last <= hi).then_some(addr as usize)
}

impl Wave {
    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn salu_more(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        let op = inst.op;
        match op {
            // ---------------- SOP1 ----------------
            S_CLS_I32 => {
                let v = cls(self.s32(&inst.src[0]) as u64, 32);
                self.sdst32(&inst.dst, v);
            }
            S_CLS_I32_I64 => {
                let v = cls(self.s64(&inst.src[0]), 64);
                self.sdst32(&inst.dst, v);
            }
            S_BITREPLICATE_B64_B32 => {
                let v = bitreplicate(self.s32(&inst.src[0]));
                self.sdst64(&inst.dst, v);
            }
            S_QUADMASK_B32 | S_WQM_B32 => {
                let s = self.s32(&inst.src[0]) as u64;
                let v = if op == S_QUADMASK_B32 { quadmask(s, 8) } else { wqm(s) } as u32;
                self.sdst32(&inst.dst, v);
                self.set_scc_for(&inst.dst, v != 0);
            }
            S_QUADMASK_B64 | S_WQM_B64 => {
                let s = self.s64(&inst.src[0]);
                let v = if op == S_QUADMASK_B64 { quadmask(s, 16) } else { wqm(s) };
                self.sdst64(&inst.dst, v);
                self.set_scc_for(&inst.dst, v != 0);
            }
            S_NAND_SAVEEXEC_B32
            | S_NAND_SAVEEXEC_B64
            | S_NOR_SAVEEXEC_B32
            | S_NOR_SAVEEXEC_B64
            | S_XNOR_SAVEEXEC_B32
            | S_XNOR_SAVEEXEC_B64
            | S_AND_NOT0_WREXEC_B32
            | S_AND_NOT0_WREXEC_B64
            | S_AND_NOT1_WREXEC_B32
            | S_AND_NOT1_WREXEC_B64 => {
                let b64 = matches!(
                    op,
                    S_NAND_SAVEEXEC_B64
                        | S_NOR_SAVEEXEC_B64
                        | S_XNOR_SAVEEXEC_B64
                        | S_AND_NOT0_WREXEC_B64
                        | S_AND_NOT1_WREXEC_B64
                );
                // Read the source before writing anything: it may be EXEC or SDST itself.
                let s = if b64 { self.s64(&inst.src[0]) } else { self.s32(&inst.src[0]) as u64 };
                let width = if b64 { u64::MAX } else { u32::MAX as u64 };
                let old = self.exec_bits(b64);
                let new = match op {
                    S_NAND_SAVEEXEC_B32 | S_NAND_SAVEEXEC_B64 => !(s & old),
                    S_NOR_SAVEEXEC_B32 | S_NOR_SAVEEXEC_B64 => !(s | old),
                    S_XNOR_SAVEEXEC_B32 | S_XNOR_SAVEEXEC_B64 => !(s ^ old),
                    S_AND_NOT0_WREXEC_B32 | S_AND_NOT0_WREXEC_B64 => !s & old,
                    _ => s & !old, // S_AND_NOT1_WREXEC_*
                } & width;
                // saveexec writes the old EXEC to SDST, wrexec the new one.
                let saved = if matches!(
                    op,
                    S_AND_NOT0_WREXEC_B32 | S_AND_NOT0_WREXEC_B64 | S_AND_NOT1_WREXEC_B32 | S_AND_NOT1_WREXEC_B64
                ) {
                    new
                } else {
                    old
                };
                if b64 {
                    self.sdst64(&inst.dst, saved);
                } else {
                    self.sdst32(&inst.dst, saved as u32);
                }
                // EXEC is written even when SDST is out of range (RDNA3-NOTES,
                // "SGPR out-of-range behaviour").
                self.set_exec_bits(b64, new);
                self.set_scc_for(&inst.dst, new != 0);
            }
            S_MOVRELS_B32 | S_MOVRELS_B64 => {
                let Operand::Sgpr(base) = inst.src[0] else {
                    return Err(illegal(format!("{} needs a register source", op.name())));
                };
                let b64 = op == S_MOVRELS_B64;
                // An out-of-range source reads s0 (s[0:1]) instead.
                let r = movrel_reg(base, self.sget(SGPR_M0 as usize), b64).unwrap_or(0);
                if b64 {
                    let v = self.sget(r) as u64 | (self.sget(r + 1) as u64) << 32;
                    self.sdst64(&inst.dst, v);
                } else {
                    let v = self.sget(r);
                    self.sdst32(&inst.dst, v);
                }
            }
            S_MOVRELD_B32 | S_MOVRELD_B64 => {
                let Operand::Sgpr(base) = inst.dst else {
                    return Err(illegal(format!("{} needs a register destination", op.name())));
                };
                let b64 = op == S_MOVRELD_B64;
                let v = if b64 { self.s64(&inst.src[0]) } else { self.s32(&inst.src[0]) as u64 };
                // An out-of-range destination is not written.
                if let Some(r) = movrel_reg(base, self.sget(SGPR_M0 as usize), b64) {
                    self.sset(r, v as u32);
                    if b64 {
                        self.sset(r + 1, (v >> 32) as u32);
                    }
                }
            }
            S_MOVRELSD_2_B32 => {
                let (Operand::Sgpr(src), Operand::Sgpr(dst)) = (inst.src[0], inst.dst) else {
                    return Err(illegal("s_movrelsd_2_b32 needs register operands"));
                };
                let m0 = self.sget(SGPR_M0 as usize);
                let r = movrel_reg(src, m0 & 0x3ff, false).unwrap_or(0);
                let v = self.sget(r);
                if let Some(d) = movrel_reg(dst, m0 >> 16 & 0x3ff, false) {
                    self.sset(d, v);
                }
            }
            // ---------------- SOPK: hardware registers ----------------
            S_GETREG_B32 => {
                let (id, offset, size) = hwreg_fields(inst.imm);
                let v = self.hwreg_read(id)?;
                let field = (v >> offset) & (u32::MAX >> (32 - size));
                self.sdst32(&inst.dst, field);
            }
            S_SETREG_B32 | S_SETREG_IMM32_B32 => {
                let (id, offset, size) = hwreg_fields(inst.imm);
                let s = self.s32(&inst.src[0]);
                let mask = ((u32::MAX >> (32 - size)) as u64) << offset;
                self.hwreg_write(id, (s as u64) << offset, mask as u32)?;
            }
            _ => return self.valu16(inst),
        }
        Ok(())
    }

    /// The full 32 bits of hardware register `id`, as s_getreg reads it.
    fn hwreg_read(&self, id: u32) -> Result<u32, FaultKind> {
        Ok(match id {
            hwreg::MODE => self.mode,
            hwreg::STATUS => {
                let live = 1 << status::SCC | 1 << status::EXECZ | 1 << status::VCCZ;
                self.status & !live
                    | (self.scc as u32) << status::SCC
                    | ((self.exec() == 0) as u32) << status::EXECZ
                    | ((self.vcc() == 0) as u32) << status::VCCZ
            }
            hwreg::TRAPSTS => self.trapsts,
            // The counters as the wave's waits left them (check.rs).
            hwreg::IB_STS => self.track.ib_sts(),
            hwreg::FLAT_SCR_LO => self.flat_scratch as u32,
            hwreg::FLAT_SCR_HI => (self.flat_scratch >> 32) as u32,
            // Set at launch from the wave's slot (spi.rs; RDNA3-NOTES,
            // "Hardware internal registers": the values are the hardware's placement, which
            // the ISA calls unpredictable).
            hwreg::HW_ID1 => self.track.hw_id1,
            hwreg::HW_ID2 => self.track.hw_id2,
            hwreg::GPR_ALLOC => self.gpr_alloc(),
            hwreg::LDS_ALLOC => self.track.lds_alloc,
            hwreg::SH_MEM_BASES => self.sh_mem_bases,
            // The performance snapshot is taken by the SQ's profiling, which never runs
            // here: the registers read zero, as before a first snapshot.
            hwreg::PERF_SNAPSHOT_PC_LO | hwreg::PERF_SNAPSHOT_PC_HI | hwreg::PERF_SNAPSHOT_DATA => 0,
            // RDNA3-NOTES, "Time counters": a 20-bit free-running cycle counter; one cycle
            // per instruction executed by this wave here.
            hwreg::SHADER_CYCLES => (self.executed & 0xf_ffff) as u32,
            _ => return Err(unsupported(format!("s_getreg_b32 of {}", hwreg_name(id)))),
        })
    }

    /// s_setreg: replaces the bits of `mask` in register `id` with those of `value`, where the
    /// register lets the wave write them; writes to read-only registers are ignored.
    fn hwreg_write(&mut self, id: u32, value: u64, mask: u32) -> Result<(), FaultKind> {
        let value = value as u32;
        let privileged = self.status & STATUS_PRIV != 0;
        match id {
            hwreg::MODE => {
                let m = mask & MODE_WRITABLE;
                // EXCP_EN and TRAP_AFTER_INST_EN switch the run loop to its checking path
                // (trap.rs) after this instruction.
                self.mode = self.mode & !m | value & m;
            }
            hwreg::TRAPSTS => {
                let m = mask & TRAPSTS_WRITABLE;
                self.trapsts = self.trapsts & !m | value & m;
            }
            // In the trap handler (RDNA3-NOTES, "STATUS register": some fields are
            // writable there): SCC, USER_PRIO, PRIV, HALT and the two COND_DBG bits, what
            // a handler restores or sets (ROCm's halts a wave by writing HALT, then
            // s_rfe_b64). TRAP_EN, EXECZ, VCCZ, VALID and the launch fields stay.
            hwreg::STATUS if privileged => {
                let m = mask & STATUS_PRIV_WRITABLE;
                let live = self.status & !(1 << status::SCC) | (self.scc as u32) << status::SCC;
                let new = live & !m | value & m;
                self.scc = new & 1 << status::SCC != 0;
                self.status = new & !(1 << status::SCC);
            }
            hwreg::FLAT_SCR_LO | hwreg::FLAT_SCR_HI if privileged => {
                let shift = if id == hwreg::FLAT_SCR_HI { 32 } else { 0 };
                let old = (self.flat_scratch >> shift) as u32;
                let new = old & !mask | value & mask;
                self.flat_scratch = self.flat_scratch & !(0xffff_ffffu64 << shift) | (new as u64) << shift;
            }
            // Read-only for this wave: the write is ignored.
            hwreg::STATUS
            | hwreg::FLAT_SCR_LO
            | hwreg::FLAT_SCR_HI
            | hwreg::GPR_ALLOC
            | hwreg::LDS_ALLOC
            | hwreg::IB_STS
            | hwreg::SH_MEM_BASES
            | hwreg::PERF_SNAPSHOT_PC_LO
            | hwreg::PERF_SNAPSHOT_PC_HI
            | hwreg::PERF_SNAPSHOT_DATA
            | hwreg::HW_ID1
            | hwreg::HW_ID2
            | hwreg::SHADER_CYCLES => {}
            _ => return Err(unsupported(format!("s_setreg of {}", hwreg_name(id)))),
        }
        Ok(())
    }

    /// s_round_mode / s_denorm_mode: MODE[3:0] or MODE[7:4] from SIMM16[3:0].
    pub(super) fn set_float_mode(&mut self, inst: &Inst) {
        let shift = if inst.op == S_ROUND_MODE { mode::FP_ROUND } else { mode::FP_DENORM };
        self.mode = self.mode & !(0xf << shift) | (inst.imm as u32 & 0xf) << shift;
    }

    /// s_sendmsg / s_sendmsghalt (RDNA3-NOTES, "Messages"): the message id is SIMM16[7:0],
    /// the payload M0; ids gfx11 does not define are reserved (illegal).
    pub(super) fn sendmsg(&mut self, imm: i32) -> Result<(), FaultKind> {
        match imm as u32 & 0xff {
            // An early release of the VGPRs before s_endpgm: after it the wave may only
            // end (check.rs makes any later VGPR use an illegal instruction).
            msg::DEALLOC_VGPRS => {
                self.track.vgprs_released = true;
                self.track.slow = true;
                Ok(())
            }
            // An interrupt to the host with M0 as its payload: amdgpu only logs SQ
            // interrupt messages; so does softnavi.
            msg::INTERRUPT => {
                tracing::info!("s_sendmsg MSG_INTERRUPT from a wave, M0 = {:#x}", self.sget(SGPR_M0 as usize));
                Ok(())
            }
            // Graphics-pipeline messages: a compute wave has no HS or GS stage to receive
            // them, so sending one is a program error here rather than a silent no-op.
            m @ (msg::HS_TESSFACTOR | msg::GS_ALLOC_REQ) => Err(illegal(format!(
                "s_sendmsg {} is a graphics-pipeline message: a compute wave has no stage to receive it",
                if m == msg::HS_TESSFACTOR { "MSG_HS_TESSFACTOR" } else { "MSG_GS_ALLOC_REQ" }
            ))),
            // Context-save and debugger messages (stop wave launch, halt the VMID's waves).
            msg::STALL_WAVE_GEN | msg::HALT_WAVES => Err(unsupported(format!(
                "s_sendmsg {}: wave-launch stalls and halts (context save, debuggers) are not supported",
                if imm as u32 & 0xff == msg::STALL_WAVE_GEN { "MSG_STALL_WAVE_GEN" } else { "MSG_HALT_WAVES" }
            ))),
            m => Err(illegal(format!(
                "s_sendmsg of message id {m}, which gfx11 reserves (RDNA3-NOTES, \"Messages\": reserved codes are illegal)"
            ))),
        }
    }

    /// s_sendmsg_rtn_b32 / _b64 (RDNA3-NOTES, "Messages"): the message id is the SSRC0
    /// field; the result goes to SDST (the low dword for _b32). LGKMcnt counts it twice
    /// (check.rs).
    pub(super) fn sendmsg_rtn(&mut self, inst: &Inst, ctx: &super::Ctx) -> Result<(), FaultKind> {
        let id = inst.imm as u32 & 0xff;
        let v = match id {
            msg::RTN_GET_REALTIME => realtime(),
            // The 256-byte aligned addresses shifted right by 8: ROCm's gfx11 trap handler
            // shifts the result left by 8.
            msg::RTN_GET_TMA => ctx.vmid.tma >> 8,
            msg::RTN_GET_TBA => ctx.vmid.tba >> 8,
            // softnavi's queues have no doorbells (the CP reads the ring directly): doorbell
            // index 0.
            msg::RTN_GET_DOORBELL => 0,
            // The draw/dispatch id: dispatches are not numbered for waves here; 0.
            msg::RTN_GET_DDID => 0,
            msg::RTN_SAVE_WAVE | msg::RTN_GET_TBA_TO_PC => {
                return Err(unsupported(format!(
                    "{} of {}: a trap-handler (context save) message, not supported",
                    inst.op.name(),
                    if id == msg::RTN_SAVE_WAVE { "MSG_RTN_SAVE_WAVE" } else { "MSG_RTN_GET_TBA_TO_PC" }
                )))
            }
            m => {
                return Err(illegal(format!(
                "{} of message id {m}, which gfx11 reserves (RDNA3-NOTES, \"Messages\": reserved codes are illegal)",
                inst.op.name()
            )))
            }
        };
        if inst.op == S_SENDMSG_RTN_B64 {
            self.sdst64(&inst.dst, v);
        } else {
            self.sdst32(&inst.dst, v as u32);
        }
        Ok(())
    }

    /// GPR_ALLOC (gfx11 `SQ_WAVE_GPR_ALLOC`): VGPR_BASE 8:0, VGPR_SIZE 17:12 in 4-VGPR
    /// units minus one (the unit the amdgpu context-save handler's size arithmetic uses),
    /// SGPR_BASE 23:16 and SGPR_SIZE 27:24 in 16-SGPR units minus one (128 SGPRs incl. VCC,
    /// TTMP and the specials). Each wave's base is its slot (HW_ID1.WAVE_ID) times its size.
    fn gpr_alloc(&self) -> u32 {
        let wave = self.track.hw_id1 & 0x1f;
        let vsize = self.vgprs.div_ceil(4).max(1);
        let ssize = 128 / 16;
        ((wave * vsize) & 0x1ff) | (vsize - 1) << 12 | ((wave * ssize) & 0xff) << 16 | (ssize - 1) << 24
    }

    /// s_sethalt / s_sendmsghalt: sets or clears STATUS.HALT; whether the wave is now halted
    /// (the trap handler ignores HALT).
    pub(super) fn set_halt(&mut self, halt: bool) -> bool {
        if halt {
            self.status |= STATUS_HALT;
        } else {
            self.status &= !STATUS_HALT;
        }
        halt && self.status & STATUS_PRIV == 0
    }

    /// EXEC_LO, or EXEC as 64 bits (the raw registers, whatever the wave size).
    fn exec_bits(&self, b64: bool) -> u64 {
        let lo = self.sgpr[SGPR_EXEC_LO as usize] as u64;
        if b64 {
            lo | (self.sgpr[SGPR_EXEC_LO as usize + 1] as u64) << 32
        } else {
            lo
        }
    }

    fn set_exec_bits(&mut self, b64: bool, v: u64) {
        self.sgpr[SGPR_EXEC_LO as usize] = v as u32;
        if b64 {
            self.sgpr[SGPR_EXEC_LO as usize + 1] = (v >> 32) as u32;
        }
    }
}

/// An hwreg id s_getreg / s_setreg cannot reach, for error messages.
fn hwreg_name(id: u32) -> String {
    format!("hwreg {id} (not a gfx11 hardware register): not supported")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bit_helpers_follow_the_isa_pseudo_code() {
        assert_eq!(cls(0x4000_0000, 32), 1);
        assert_eq!(cls(0, 32), u32::MAX);
        assert_eq!(cls(0xffff_ffff, 32), u32::MAX);
        assert_eq!(cls(0xffff_0000, 32), 16);
        assert_eq!(cls(1, 64), 63);
        assert_eq!(quadmask(0x0f00_0010, 8), 0b0100_0010);
        assert_eq!(wqm(0x0100_0020), 0x0f00_00f0);
        assert_eq!(bitreplicate(0x8000_0005), 0xc000_0000_0000_0033);
        assert_eq!(movrel_reg(100, 7, false), Some(107));
        assert_eq!(movrel_reg(100, 8, false), None);
        assert_eq!(movrel_reg(100, 7, true), Some(106));
        assert_eq!(movrel_reg(110, 13, false), Some(123));
        assert_eq!(movrel_reg(110, 14, false), None);
        assert_eq!(movrel_reg(125, 0, false), Some(125));
        assert_eq!(movrel_reg(125, 1, false), None);
        assert_eq!(hwreg_fields(0xf801), (1, 0, 32));
    }
}
