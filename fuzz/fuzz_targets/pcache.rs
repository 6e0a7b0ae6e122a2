//! Fuzzes pipeline cache data: vkCreatePipelineCache's initial data (`Entries::parse`),
//! then a pipeline created from the cache alone, its statistics and a dispatch
//! (src/pcache.rs explains the input layout and why entries are wrapped).

#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    softnavi_fuzz::write_seeds_once("pcache", softnavi_fuzz::pcache::seeds);
    softnavi_fuzz::pcache::run(data);
});
