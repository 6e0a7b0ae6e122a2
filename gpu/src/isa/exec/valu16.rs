//! 16-bit vector ALU: f16, i16, u16 and b16 operations (VOP1, VOP2, VOP3, VOPC), true16
//! halves selected by op_sel, and the conversions between f16 and other types.

use super::{FaultKind, Wave};
use crate::isa::decode::Inst;

impl Wave {
    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn valu16(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        #[allow(clippy::match_single_binding)]
        match inst.op {
            _ => self.valu64(inst),
        }
    }
}
