//! Packed math (VOP3P): v_pk_* on two 16-bit halves, dot products, fma_mix, and WMMA.

use super::{FaultKind, Wave};
use crate::isa::decode::Inst;

impl Wave {
    /// Executes `inst` if it belongs here; otherwise passes it on.
    pub(super) fn packed(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        #[allow(clippy::match_single_binding)]
        match inst.op {
            _ => self.lanes(inst),
        }
    }
}
