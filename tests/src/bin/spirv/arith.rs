//! Cases of `tests/spirv/arith/`.

use crate::harness::Case;

pub fn cases() -> Vec<Case> {
    Vec::new()
}
