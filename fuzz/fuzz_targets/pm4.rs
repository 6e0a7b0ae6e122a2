//! Fuzzes the GPU model's command processor with PM4: any dwords as an indirect buffer,
//! on a fresh device per input (src/pm4.rs). Packets that do not decode or cannot run must
//! lose the device with a report, kernels they dispatch must fault or finish, and the
//! submission must end (complete or lost) within the hang timeout: never a panic, a hang
//! or unbounded allocation (run with -timeout and -rss_limit_mb, docs/FUZZING.md).

#![no_main]

use libfuzzer_sys::fuzz_target;
use softnavi_fuzz::pm4::Setup;

fuzz_target!(|data: &[u8]| {
    softnavi_fuzz::write_seeds_once("pm4", || {
        Setup::fresh().seeds().into_iter().map(|(n, w)| (n, bytes(&w))).collect()
    });
    let words: Vec<u32> = data.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    Setup::fresh().run(&words);
});

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}
