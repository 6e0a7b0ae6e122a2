//! Fuzzes the gfx11 decoder and disassembler: any words, decoded as a program and from
//! every start offset, then every instruction disassembled in wave32 and wave64, must
//! neither panic nor hang.
//!
//! `cd fuzz && cargo +nightly fuzz run decode -- -max_total_time=600 -timeout=10`

#![no_main]

use gpu::isa::decode::decode;
use gpu::isa::program::Program;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    // Little-endian dwords; a trailing partial word is ignored.
    let words: Vec<u32> = data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();

    for wave64 in [false, true] {
        let program = Program::decode(0x1000, &words, wave64);
        for idx in 0..program.insts().len() {
            std::hint::black_box(program.describe(idx));
        }
        for i in 0..words.len() {
            let _ = std::hint::black_box(decode(&words[i..], wave64));
        }
    }
});
