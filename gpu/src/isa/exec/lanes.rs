//! Cross-lane operations: DPP16 and DPP8 source permutation for every VALU opcode that
//! has a DPP form, v_permlane16 / v_permlanex16 / v_permlane64, v_movrel*, v_swap*.

use super::{illegal, FaultKind, Wave};
use crate::isa::decode::Inst;

impl Wave {
    /// The last stop of the ALU chain: cross-lane VALU, or "not executed".
    pub(super) fn lanes(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        #[allow(clippy::match_single_binding)]
        match inst.op {
            op => Err(illegal(format!("{} is not executed by softnavi", op.name()))),
        }
    }

    /// A VALU instruction in a DPP16 or DPP8 form.
    pub(super) fn dpp(&mut self, inst: &Inst) -> Result<(), FaultKind> {
        Err(illegal(format!("{} with DPP is not executed by softnavi", inst.op.name())))
    }
}
