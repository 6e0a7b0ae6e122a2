//! The rest of the scalar ALU: SOP1/SOPK/SOPC ops not in alu.rs, MODE and the hardware
//! registers (s_getreg / s_setreg, s_round_mode, s_denorm_mode).

use super::{FaultKind, Wave};
use crate::isa::decode::Inst;

impl Wave {
    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn salu_more(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        #[allow(clippy::match_single_binding)]
        match inst.op {
            _ => self.valu16(inst),
        }
    }
}
