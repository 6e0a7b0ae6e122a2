//! `docs/ISA.md` is generated from the opcode table; this test fails when it is stale.
//! `SOFTNAVI_BLESS=1` rewrites it.

#[test]
fn docs_isa_md_is_generated_from_the_table() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/ISA.md");
    let want = gpu::isa::table::coverage_markdown();
    if std::env::var_os("SOFTNAVI_BLESS").is_some() {
        std::fs::write(&path, &want).unwrap();
    }
    let have = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(have == want, "docs/ISA.md is stale: run SOFTNAVI_BLESS=1 cargo test -p softnavi-gpu --test isa_doc");
}
