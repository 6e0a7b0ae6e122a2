//! Predecoded programs: the code at a kernel's entry address is decoded once into a
//! vector of [`Inst`]s with branch targets resolved to indices, and cached by address.
//! The executor never looks at machine words again.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

use parking_lot::Mutex;

use super::decode::{decode, decode_exec, decode_vopd, mflag, DecodeError, Inst, Operand};
use super::disasm::{disassemble, disassemble_dual};
use super::table::{self, Encoding, Op, F};
use crate::jit::Translated;
use crate::mem::{AddressSpace, VmFault};

/// Most dwords decoded for one program (4 MiB of code).
const MAX_PROGRAM_DWORDS: usize = 1 << 20;

/// Branch target index meaning "outside the decoded program".
pub const NO_TARGET: i32 = -1;

/// Which of the float widths that MODE's f16/f64 fields govern a program computes with.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WideFloats {
    pub f16: bool,
    pub f64: bool,
}

impl WideFloats {
    /// From the VALU opcodes' names (`v_add_f64`, `v_pk_fma_f16`, `v_cvt_f32_f16`,
    /// `v_dot2_f32_bf16`, ...): a superset of what reads those fields is enough.
    fn of(insts: &[Inst]) -> WideFloats {
        let mut w = WideFloats::default();
        for i in insts.iter().filter(|i| i.op.name().starts_with("v_")) {
            let name = i.op.name();
            w.f16 |= name.contains("f16");
            w.f64 |= name.contains("f64");
        }
        w
    }
}

/// One decoded program, starting at the kernel's entry address.
pub struct Program {
    base: u64,
    /// The wave size the code was decoded for (VOPD and lane-mask operands depend on it).
    wave64: bool,
    insts: Vec<Inst>,
    /// Dword offset of each instruction from `base`, plus one past the last.
    offsets: Vec<u32>,
    /// Why the words at an index could not be decoded (executing them traps).
    bad: HashMap<u32, DecodeError>,
    /// Instructions the hardware runs that LLVM's decoder refuses (a scalar tuple into
    /// VCC: [`decode_exec`]), with LLVM's reason: they execute, and read as refused where
    /// softnavi matches LLVM's text ([`Program::decode_error`]).
    outside_llvm: HashMap<u32, DecodeError>,
    /// The machine words, to check that the cached program still matches memory.
    words: Vec<u32>,
    /// The halves of each VOPD instruction (its `imm` indexes this).
    duals: Vec<[Inst; 2]>,
    /// Instructions that decoded but are not executed (their slot holds a trap), kept for
    /// disassembly.
    unexecuted_insts: HashMap<u32, Inst>,
    /// Whether some instruction reads TRAPSTS (s_getreg_b32 of HW_REG_TRAPSTS): the waves
    /// then accumulate its sticky float exception bits (exec/trap.rs).
    reads_trapsts: bool,
    /// Whether some VALU instruction has f16 (or bf16) or f64 operands or results: MODE's
    /// f16/f64 fields matter to it (crate::isa::exec::tier, `host_float`).
    wide_floats: WideFloats,
    /// The host code of the translation tier, once compiled (crate::jit).
    translation: OnceLock<Arc<Translated>>,
    /// Whether a translation was asked for.
    translation_requested: AtomicBool,
    /// Waves launched so far (`SOFTNAVI_JIT=auto` translates a program once it is hot).
    waves_launched: std::sync::atomic::AtomicU64,
}

impl Program {
    /// Decodes from `words` (starting at `base`) until `s_code_end` or the end, for waves
    /// of 64 lanes or 32.
    pub fn decode(base: u64, words: &[u32], wave64: bool) -> Program {
        let words = &words[..words.len().min(MAX_PROGRAM_DWORDS)];
        let mut insts = Vec::new();
        let mut offsets = Vec::new();
        let mut bad = HashMap::new();
        let mut outside_llvm = HashMap::new();
        let mut duals = Vec::new();
        let mut unexecuted_insts = HashMap::new();
        let mut at = 0usize;
        while at < words.len() {
            offsets.push(at as u32);
            match decode_exec(&words[at..], wave64) {
                Ok(mut i) => {
                    // Only a tuple starting at s92..s105 can run into VCC.
                    if i.src.iter().chain([&i.dst]).any(|o| matches!(o, Operand::Sgpr(92..=105))) {
                        if let Err(e) = decode(&words[at..], wave64) {
                            outside_llvm.insert(insts.len() as u32, e);
                        }
                    }
                    if i.op == Op::V_DUAL {
                        match decode_vopd(&words[at..]) {
                            Ok(pair) => {
                                i.imm = duals.len() as i32;
                                duals.push(pair);
                            }
                            Err(e) => {
                                bad.insert(insts.len() as u32, e);
                                i = placeholder(i.len);
                            }
                        }
                    }
                    at += i.len as usize;
                    let end = i.op == Op::S_CODE_END;
                    if let Some((op, with)) = not_executed(&i, duals.last().filter(|_| i.op == Op::V_DUAL)) {
                        // Decoded and printable, but a wave that reaches it traps.
                        bad.insert(insts.len() as u32, DecodeError::NotExecuted { op, with, len: i.len });
                        unexecuted_insts.insert(insts.len() as u32, i);
                        i = placeholder(i.len);
                    }
                    insts.push(i);
                    if end {
                        break;
                    }
                }
                Err(e) => {
                    bad.insert(insts.len() as u32, e);
                    // Keep the slot as an s_code_end placeholder; execution traps on it.
                    let len = e.skip().unwrap_or(1).max(1);
                    insts.push(placeholder(len));
                    at += len as usize;
                }
            }
        }
        let end = at.min(words.len());
        offsets.push(end as u32);
        // hwreg id 3 = HW_REG_TRAPSTS (simm16[5:0]).
        let reads_trapsts = insts.iter().any(|i| i.op == Op::S_GETREG_B32 && i.imm & 0x3f == 3);
        let wide_floats = WideFloats::of(&insts);
        let mut p = Program {
            base,
            wave64,
            insts,
            offsets,
            bad,
            outside_llvm,
            words: words[..end].to_vec(),
            duals,
            unexecuted_insts,
            reads_trapsts,
            wide_floats,
            translation: OnceLock::new(),
            translation_requested: AtomicBool::new(false),
            waves_launched: Default::default(),
        };
        p.resolve_branches();
        p
    }

    /// Reads and decodes the program at `entry`: the code runs to the end of its BO or
    /// to the first `s_code_end`.
    pub fn load(space: &AddressSpace, entry: u64, wave64: bool) -> Result<Program, VmFault> {
        let bo = space.lookup(entry, 4).ok_or(VmFault { addr: entry, len: 4, write: false })?;
        let avail = ((bo.va() + bo.size() - entry) / 4).min(MAX_PROGRAM_DWORDS as u64) as usize;
        let mut bytes = vec![0u8; avail * 4];
        space.read(entry, &mut bytes)?;
        let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
        // Stop at the first s_code_end so that we do not decode a whole BO of data.
        let end = words.iter().position(|&w| w == 0xbf9f0000).map_or(words.len(), |p| p + 1);
        Ok(Program::decode(entry, &words[..end], wave64))
    }

    fn resolve_branches(&mut self) {
        for idx in 0..self.insts.len() {
            let i = self.insts[idx];
            if i.op.has_flag(F::BRANCH) && !self.bad.contains_key(&(idx as u32)) {
                let next = self.offsets[idx + 1] as i64;
                let target = next + i.imm as i64;
                self.insts[idx].imm1 = self.index_of_offset(target).map_or(NO_TARGET, |t| t as i32);
            }
        }
    }

    fn index_of_offset(&self, dword: i64) -> Option<usize> {
        if dword < 0 {
            return None;
        }
        let i = self.offsets.binary_search(&(dword as u32)).ok()?;
        (i < self.insts.len()).then_some(i)
    }

    /// Index of the instruction at byte address `addr`, if one starts there.
    pub fn index_of(&self, addr: u64) -> Option<usize> {
        let off = addr.checked_sub(self.base)?;
        if off % 4 != 0 {
            return None;
        }
        self.index_of_offset((off / 4) as i64)
    }

    pub fn base(&self) -> u64 {
        self.base
    }

    /// Whether the program was decoded for wave64.
    pub fn wave64(&self) -> bool {
        self.wave64
    }

    /// The program's machine words.
    pub fn words_all(&self) -> &[u32] {
        &self.words
    }

    /// The translation tier's code for this program, once it is ready.
    #[inline]
    pub fn translation(&self) -> Option<&Arc<Translated>> {
        self.translation.get()
    }

    /// Counts `n` more waves launched; the total so far.
    pub(crate) fn count_waves(&self, n: u64) -> u64 {
        self.waves_launched.fetch_add(n, Ordering::Relaxed).saturating_add(n)
    }

    /// True the first time it is called: the caller then has the translation made.
    pub(crate) fn request_translation(&self) -> bool {
        !self.translation_requested.swap(true, Ordering::AcqRel)
    }

    pub(crate) fn set_translation(&self, t: Arc<Translated>) {
        let _ = self.translation.set(t);
    }

    /// Whether the program reads TRAPSTS (its waves then detect float exceptions).
    pub fn reads_trapsts(&self) -> bool {
        self.reads_trapsts
    }

    pub fn wide_floats(&self) -> WideFloats {
        self.wide_floats
    }

    pub fn insts(&self) -> &[Inst] {
        &self.insts
    }

    /// Byte address of instruction `idx` (or of the end, for `idx == len`).
    pub fn addr(&self, idx: usize) -> u64 {
        self.base + 4 * self.offsets[idx.min(self.offsets.len() - 1)] as u64
    }

    /// The decode error at `idx`, if its words were not a known instruction.
    pub fn decode_error(&self, idx: usize) -> Option<&DecodeError> {
        self.outside_llvm.get(&(idx as u32)).or_else(|| self.bad.get(&(idx as u32)))
    }

    /// The halves of the VOPD instruction `inst`.
    pub fn dual(&self, inst: &Inst) -> Option<&[Inst; 2]> {
        self.duals.get(inst.imm as usize)
    }

    /// Instruction `idx` in LLVM syntax, followed by its words (for traces and reports);
    /// words that did not decode say why.
    pub fn describe(&self, idx: usize) -> String {
        let wave64 = self.wave64;
        let words: Vec<String> = self.words(idx).iter().map(|w| format!("{w:08X}")).collect();
        let unexecuted = self.unexecuted_insts.get(&(idx as u32));
        let text = match (self.decode_error(idx), unexecuted.or(self.insts.get(idx))) {
            (Some(e), Some(i)) if self.outside_llvm.contains_key(&(idx as u32)) => {
                format!("{} /* executed; LLVM refuses it: {e} */", self.text(i, idx, wave64))
            }
            (Some(DecodeError::NotExecuted { .. }), Some(i)) => self.text(i, idx, wave64),
            (Some(e), _) => format!("<{e}>"),
            (None, Some(i)) => self.text(i, idx, wave64),
            (None, None) => return String::new(),
        };
        format!("{text}  // {:012X}: {}", self.addr(idx), words.join(" "))
    }

    fn text(&self, i: &Inst, idx: usize, wave64: bool) -> String {
        if i.op == Op::V_DUAL {
            return self.dual(i).map_or_else(String::new, |d| disassemble_dual(d, wave64));
        }
        disassemble(i, self.addr(idx), wave64)
    }

    /// The machine words of instruction `idx`.
    pub fn words(&self, idx: usize) -> &[u32] {
        let (a, b) = (self.offsets[idx] as usize, self.offsets[idx + 1] as usize);
        &self.words[a.min(self.words.len())..b.min(self.words.len())]
    }

    fn matches_memory(&self, space: &AddressSpace) -> bool {
        let mut bytes = vec![0u8; self.words.len() * 4];
        if space.read(self.base, &mut bytes).is_err() {
            return false;
        }
        bytes.chunks_exact(4).zip(&self.words).all(|(c, &w)| u32::from_le_bytes([c[0], c[1], c[2], c[3]]) == w)
    }
}

/// The opcode to name when `i` (with its VOPD halves) decodes but softnavi does not
/// execute it, and the form that is not executed: an opcode without the `X` flag, DPP
/// forms [`dpp_not_executed`] names, GDS forms of DS, and the special sources other than
/// the apertures (src_pops_exiting_wave_id, LDS-direct).
fn not_executed(i: &Inst, halves: Option<&[Inst; 2]>) -> Option<(Op, &'static str)> {
    let unexecuted_half = halves.and_then(|d| d.iter().map(|h| h.op).find(|op| !op.executed()));
    let special = |i: &Inst| i.src.iter().any(|s| matches!(s, Operand::Special(c) if !(235..=238).contains(c)));
    if !i.op.executed() {
        Some((i.op, ""))
    } else if let Some(with) = dpp_not_executed(i) {
        Some((i.op, with))
    } else if i.flags & mflag::GDS != 0 && i.op.encoding() == Encoding::Ds {
        Some((i.op, " with GDS"))
    } else if special(i) || halves.is_some_and(|d| d.iter().any(special)) {
        Some((i.op, " with a POPS or LDS-direct source"))
    } else if let Some(with) = mimg_not_executed(i) {
        Some((i.op, with))
    } else if scalar_dst_not_sgpr(i) {
        Some((i.op, " with a constant or special source as its scalar destination"))
    } else {
        unexecuted_half.map(|op| (op, ""))
    }
}

/// Why a DPP form of an executed opcode is not executed, if it is not: a DPP16 control
/// gfx11 does not have (the GFX9 wave shifts and row broadcasts, unassigned values), or
/// the M0-relative moves, whose DPP semantics the ISA reference does not define.
fn dpp_not_executed(i: &Inst) -> Option<&'static str> {
    if !i.form.is_dpp() {
        return None;
    }
    let ctrl = i.ext >> 8 & 0x1ff;
    let ctrl_ok =
        matches!(ctrl, 0x000..=0x0ff | 0x101..=0x10f | 0x111..=0x11f | 0x121..=0x12f | 0x140..=0x141 | 0x150..=0x16f);
    if !i.form.is_dpp8() && !ctrl_ok {
        return Some(" with a dpp_ctrl gfx11 does not have");
    }
    matches!(i.op, Op::V_MOVRELD_B32 | Op::V_MOVRELS_B32 | Op::V_MOVRELSD_B32 | Op::V_MOVRELSD_2_B32)
        .then_some(" with DPP")
}

/// Why a form of an executed MIMG opcode is not executed, if it is not (`exec/image.rs`):
/// a 128-bit resource, the MSAA dims on sampling, gathers and the `_mip` forms (LLVM has none
/// of those), `image_msaa_load` on a dim that is not MSAA (LLVM's assembler: "invalid dim;
/// must be MSAA type"), dmask 0, the texture-fail and LOD-warning status on stores and
/// atomics, and an atomic whose dmask is not one LLVM gives it.
fn mimg_not_executed(i: &Inst) -> Option<&'static str> {
    use super::decode::mimg;
    // The BVH opcodes' fixed fields (r128 among them) are checked by the decoder.
    if i.op.encoding() != Encoding::Mimg || i.op.mem().is_some_and(|m| m.access == table::Access::Bvh) {
        return None;
    }
    let atomic = i.op.mem().is_some_and(|m| m.rmw.is_some());
    let store = matches!(i.op, Op::IMAGE_STORE | Op::IMAGE_STORE_MIP);
    let dmask = (i.imm & mimg::DMASK) as u32;
    let status = i.flags & mflag::TFE != 0 || i.imm & mimg::LWE != 0;
    // Sampling, gathers and image_get_lod (exec/sample.rs) write no status VGPR.
    let filtered = i.op.mem().is_some_and(|m| m.access == table::Access::Sample);
    let msaa = (i.imm >> mimg::DIM_SHIFT & 7) >= 6;
    Some(match () {
        _ if filtered && status => " with tfe or lwe",
        _ if i.imm & mimg::R128 != 0 => " with r128",
        _ if msaa && (filtered || matches!(i.op, Op::IMAGE_LOAD_MIP | Op::IMAGE_STORE_MIP)) => " with an MSAA dim",
        _ if !msaa && i.op == Op::IMAGE_MSAA_LOAD => " with a dim that is not MSAA",
        _ if dmask == 0 => " with dmask 0",
        _ if status && (store || atomic) => " with tfe or lwe",
        _ if atomic && mimg::atomic_wide(i.op == Op::IMAGE_ATOMIC_CMPSWAP, dmask).is_none() => {
            " with a dmask other than 0x1 or 0x3 (cmpswap: 0x3 or 0xf)"
        }
        _ => return None,
    })
}

/// Whether a VALU scalar destination field (VOPC e64, v_readlane, v_readfirstlane) holds
/// something other than an SGPR: LLVM decodes those fields like sources.
fn scalar_dst_not_sgpr(i: &Inst) -> bool {
    let dst = |o: &Operand| !matches!(o, Operand::Sgpr(_) | Operand::Vgpr(_) | Operand::None);
    matches!(i.op.encoding(), Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3)
        && (dst(&i.dst) || dst(&i.sdst))
}

fn placeholder(len: u8) -> Inst {
    let mut i = decode(&[0xbf9f0000], false).unwrap_or_else(|_| unreachable!("s_code_end decodes")); // ok: constant input
    i.len = len;
    i
}

/// Programs by entry address and wave size. A cached program is reused only while the code in memory
/// is unchanged (pipelines are destroyed and their memory reused).
#[derive(Default)]
pub struct ProgramCache {
    map: Mutex<HashMap<(u64, bool), Arc<Program>>>,
}

impl ProgramCache {
    pub fn get(&self, space: &AddressSpace, entry: u64, wave64: bool) -> Result<Arc<Program>, VmFault> {
        if let Some(p) = self.map.lock().get(&(entry, wave64)).cloned() {
            if p.matches_memory(space) {
                return Ok(p);
            }
        }
        let p = Arc::new(Program::load(space, entry, wave64)?);
        self.map.lock().insert((entry, wave64), p.clone());
        Ok(p)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_targets_become_indices() {
        // s_cbranch_execz +1 ; s_nop 0 ; v_add_f32 v1, lit, v2 ; s_endpgm ; s_code_end
        let words = [0xbfa50003, 0xbf800000, 0x060204ff, 0x40490fdb, 0xbfb00000, 0xbf9f0000];
        let p = Program::decode(0x1000, &words, false);
        assert_eq!(p.insts().len(), 5);
        // next = dword 1, +3 → dword 4 = s_endpgm, index 3.
        assert_eq!(p.insts()[0].imm1, 3);
        assert_eq!(p.addr(3), 0x1000 + 16);
        assert_eq!(p.index_of(0x1000 + 16), Some(3));
        assert_eq!(p.index_of(0x1000 + 12), None, "inside the literal");
    }

    #[test]
    fn unknown_words_become_traps_not_errors() {
        let words = [0xffff_ffff, 0xbfb00000];
        let p = Program::decode(0, &words, false);
        assert!(p.decode_error(0).is_some());
        assert_eq!(p.insts()[1].op, Op::S_ENDPGM);
    }
}
