//! Cases of `tests/spirv/glsl450/`.

use crate::harness::Case;

pub fn cases() -> Vec<Case> {
    Vec::new()
}
