//! Cases of `tests/spirv/control/`.

use crate::harness::Case;

pub fn cases() -> Vec<Case> {
    Vec::new()
}
