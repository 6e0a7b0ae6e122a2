//! Cases of `tests/spirv/memory/`.

use crate::harness::Case;

pub fn cases() -> Vec<Case> {
    Vec::new()
}
