//! The `spirv` target followed by LLVM 19: every module the front end lowers is compiled
//! to a code object by the in-process backend, and the object is loaded back. A crash
//! inside libLLVM (an abort on IR it rejects) is a finding for LLVM's containment, not for
//! the front end; docs/FUZZING.md records what was seen.

#![no_main]

use libfuzzer_sys::fuzz_target;
use softnavi_fuzz::spirv::{compile, words};

fuzz_target!(|data: &[u8]| {
    compile(&words(data));
});
