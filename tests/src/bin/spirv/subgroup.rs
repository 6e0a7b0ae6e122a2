//! Cases of `tests/spirv/subgroup/`.

use crate::harness::Case;

pub fn cases() -> Vec<Case> {
    Vec::new()
}
