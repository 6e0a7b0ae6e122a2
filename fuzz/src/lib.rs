//! Shared harness code of softnavi's fuzz targets (docs/FUZZING.md): each target in
//! `fuzz_targets/` feeds one input boundary; this crate sets up what it feeds into.

pub mod elf;
pub mod pcache;
pub mod pm4;
pub mod spirv;
pub mod vk;

use std::sync::Once;

/// With `SOFTNAVI_FUZZ_SEEDS=DIR` in the environment, writes the seeds `make` returns into
/// `DIR/<target>/` once per process (`cargo fuzz run <target> -- -runs=1` then makes the
/// seeds the harness alone can make: PM4 at the set-up's addresses, cache blobs with a
/// real key).
pub fn write_seeds_once(target: &str, make: impl FnOnce() -> Vec<(&'static str, Vec<u8>)>) {
    static ONCE: Once = Once::new();
    let Some(dir) = std::env::var_os("SOFTNAVI_FUZZ_SEEDS") else { return };
    ONCE.call_once(|| {
        let dir = std::path::Path::new(&dir).join(target);
        std::fs::create_dir_all(&dir).expect("the seed directory is writable"); // ok: seed tooling
        for (name, bytes) in make() {
            std::fs::write(dir.join(name), bytes).expect("the seed directory is writable");
            // ok: seed tooling
        }
    });
}
