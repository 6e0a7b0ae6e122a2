//! Fuzzes the code object loader (`compiler_bridge::elf::CodeObject::parse`) and what the
//! ICD does with a loaded object: relocated images, kernarg plans, shader modules,
//! pipelines, executable statistics and a dispatch of each pipeline (src/elf.rs). Seeds:
//! code objects built by clang-19 and by the SPIR-V compiler (docs/FUZZING.md).

#![no_main]

use libfuzzer_sys::fuzz_target;
use softnavi_fuzz::elf::{load, through_icd};

fuzz_target!(|data: &[u8]| {
    let kernels = load(data);
    through_icd(data, &kernels);
});
