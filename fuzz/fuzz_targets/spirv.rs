//! Fuzzes the SPIR-V front end the ICD runs at pipeline creation: the module check of
//! vkCreateShaderModule, layout reflection and the lowering to LLVM IR (wave32 and wave64,
//! with the reflected layout, with none, and with specialisation constants). Malformed or
//! unsupported modules must be errors, never panics or hangs. LLVM is not run here (see
//! `spirv_llvm`). Seeds: the SPIR-V corpus of tests/spirv (docs/FUZZING.md).

#![no_main]

use libfuzzer_sys::fuzz_target;
use softnavi_fuzz::spirv::{front_end, words};

fuzz_target!(|data: &[u8]| {
    front_end(&words(data));
});
