//! Writes the Khronos loader manifest next to the built library:
//! `target/<profile>/softnavi_icd.json`, with a `library_path` relative to the manifest,
//! so that `VK_ICD_FILENAMES=$PWD/target/<profile>/softnavi_icd.json` selects softnavi.

use std::path::PathBuf;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR")); // ok: build script
                                                                                       // OUT_DIR is target/<profile>/build/softnavi-icd-<hash>/out.
    let Some(profile_dir) = out.ancestors().nth(3) else { return };
    let manifest = r#"{
    "file_format_version": "1.0.1",
    "ICD": {
        "library_path": "./libsoftnavi_icd.so",
        "api_version": "1.1.281",
        "is_portability_driver": false
    }
}
"#;
    let path = profile_dir.join("softnavi_icd.json");
    if std::fs::read_to_string(&path).ok().as_deref() != Some(manifest) {
        if let Err(e) = std::fs::write(&path, manifest) {
            panic!("cannot write {}: {e}", path.display()); // ok: a build script reports by panicking
        }
    }
}
