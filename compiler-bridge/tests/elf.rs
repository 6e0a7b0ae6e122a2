//! Code object loader tests on objects built by clang-19 / ld.lld-19 from OpenCL C.

mod common;

use common::{compile_cl, readelf_notes, Rng};
use compiler_bridge::elf::{CodeObject, ElfError, KernelDescriptor, UserSgpr};

/// Uses a constant table through PC-relative addressing (REL32_LO/HI) and a table of absolute
/// pointers (ABS64 in ET_REL, RELATIVE64 in ET_DYN).
const TABLES: &str = r#"
__constant int table[4] = {11, 22, 33, 44};
__constant int *__constant ptrs[2] = {&table[1], &table[2]};
__kernel void k(__global int *out) {
  uint i = __builtin_amdgcn_workitem_id_x();
  out[i] = table[out[i] & 3] + *ptrs[i & 1];
}
"#;

/// Two kernels without cross-section references, one with LDS and a required size.
const PLAIN: &str = r#"
__kernel void add(__global float *a, __global const float *b, float s) {
  uint i = __builtin_amdgcn_workgroup_id_x() * 64 + __builtin_amdgcn_workitem_id_x();
  a[i] = a[i] * s + b[i];
}
__kernel __attribute__((reqd_work_group_size(64, 2, 1)))
void lds(__global int *a) {
  __local int tmp[128];
  uint l = __builtin_amdgcn_workitem_id_x() + 64 * __builtin_amdgcn_workitem_id_y();
  tmp[l] = a[l];
  __builtin_amdgcn_fence(__ATOMIC_RELEASE, "workgroup");
  __builtin_amdgcn_s_barrier();
  __builtin_amdgcn_fence(__ATOMIC_ACQUIRE, "workgroup");
  a[l] = tmp[127 - l] + __builtin_amdgcn_workgroup_id_y();
}
"#;

const S_ENDPGM: u32 = 0xBFB0_0000;

fn word(image: &[u8], at: u64) -> u32 {
    let at = at as usize;
    u32::from_le_bytes(image[at..at + 4].try_into().unwrap())
}

/// The kernel's code from its entry to its first s_endpgm, inclusive.
fn kernel_code(co: &CodeObject, name: &str) -> Vec<u8> {
    let image = co.image_at(0);
    let start = co.kernel(name).unwrap().entry_offset();
    let mut end = start;
    while word(&image, end) != S_ENDPGM {
        end += 4;
    }
    image[start as usize..end as usize + 4].to_vec()
}

/// Pulls `key: value` lines of the kernel named `kernel` out of `llvm-readelf --notes`.
fn readelf_field(notes: &str, kernel: &str, key: &str) -> u32 {
    let start = notes.find(&format!(".name:           {kernel}\n")).expect("kernel in notes");
    // Kernel entries begin with "  - .args:" (or "  - ." when there are none); fields of one
    // kernel are the lines between two such starts, and `.name` is among them.
    let block_start = notes[..start].rfind("\n  - ").unwrap();
    let block_end = notes[start..].find("\n  - ").map_or(notes.len(), |e| start + e);
    let block = &notes[block_start..block_end];
    let line = block
        .lines()
        .find(|l| l.trim_start().starts_with(&format!("{key}:")) && l.starts_with("    ."))
        .unwrap_or_else(|| panic!("{key} in {block}"));
    line.split(':').nth(1).unwrap().trim().parse().unwrap()
}

#[test]
fn parses_all_code_object_versions_linked_and_relocatable() {
    for (version, abi) in [(4, 2u8), (5, 3), (6, 4)] {
        let flag = format!("-mcode-object-version={version}");
        let (rel, dynamic) = compile_cl(PLAIN, &[&flag]);
        assert_eq!(rel[8], abi);
        let notes = readelf_notes(&dynamic);
        for bytes in [&rel, &dynamic] {
            let co = CodeObject::parse(bytes).unwrap_or_else(|e| panic!("v{version}: {e}"));
            assert_eq!(co.code_object_version(), version);
            assert_eq!(co.mach(), 0x41);
            assert_eq!(co.target_name(), "gfx1100");
            assert_eq!(co.kernels.len(), 2);
            for k in &co.kernels {
                assert_eq!(k.symbol, format!("{}.kd", k.name));
                let (d, m) = (&k.descriptor, &k.metadata);
                assert!(d.wave32());
                assert_eq!(m.wavefront_size, 32);
                assert_eq!(d.kernarg_size, m.kernarg_segment_size);
                assert_eq!(d.group_segment_fixed_size, m.group_segment_fixed_size);
                assert_eq!(d.private_segment_fixed_size, 0);
                for key in [".kernarg_segment_size", ".sgpr_count", ".vgpr_count", ".max_flat_workgroup_size"] {
                    let got = match key {
                        ".kernarg_segment_size" => m.kernarg_segment_size,
                        ".sgpr_count" => m.sgpr_count,
                        ".vgpr_count" => m.vgpr_count,
                        _ => m.max_flat_workgroup_size,
                    };
                    assert_eq!(got, readelf_field(&notes, &k.name, key), "v{version} {} {key}", k.name);
                }
                assert!(k
                    .descriptor
                    .user_sgpr_layout()
                    .iter()
                    .any(|(s, _, n)| *s == UserSgpr::KernargSegmentPtr && *n == 2));
                assert!(k.descriptor.user_sgpr_count() >= 2);
                assert!(k.entry_offset() < co.image_size());
            }
            let add = co.kernel("add").unwrap();
            let kinds: Vec<_> = add.metadata.args.iter().map(|a| a.value_kind.as_str()).collect();
            assert_eq!(&kinds[..3], ["global_buffer", "global_buffer", "by_value"]);
            assert_eq!(add.metadata.args[0].address_space.as_deref(), Some("global"));
            assert_eq!((add.metadata.args[2].offset, add.metadata.args[2].size), (16, 4));
            // Nothing uses implicit arguments, so LLVM emits no hidden ones.
            assert_eq!(kinds.len(), 3);
            assert_eq!(add.metadata.reqd_workgroup_size, None);
            let lds = co.kernel("lds").unwrap();
            assert_eq!(lds.metadata.reqd_workgroup_size, Some([64, 2, 1]));
            assert_eq!(lds.descriptor.group_segment_fixed_size, 512);
            assert_eq!(lds.descriptor.workgroup_id_enabled(), [true, true, false]); // LLVM always enables X
            assert_eq!(lds.descriptor.workitem_id_dims(), 1);
        }
    }
}

#[test]
fn wave64_descriptor() {
    let (rel, _) = compile_cl(PLAIN, &["-mwavefrontsize64"]);
    let co = CodeObject::parse(&rel).unwrap();
    let k = co.kernel("add").unwrap();
    assert!(!k.descriptor.wave32());
    assert_eq!(k.metadata.wavefront_size, 64);
}

#[test]
fn relocatable_and_linked_give_the_same_code() {
    let (rel, dynamic) = compile_cl(PLAIN, &[]);
    let (rel, dynamic) = (CodeObject::parse(&rel).unwrap(), CodeObject::parse(&dynamic).unwrap());
    for name in ["add", "lds"] {
        let code = kernel_code(&rel, name);
        assert!(code.len() > 16);
        assert_eq!(code, kernel_code(&dynamic, name), "{name}");
        // Everything but the entry offset, which depends on where each layout put the code.
        let (a, b) = (rel.kernel(name).unwrap().descriptor, dynamic.kernel(name).unwrap().descriptor);
        assert_eq!(
            KernelDescriptor { kernel_code_entry_byte_offset: 0, ..a },
            KernelDescriptor { kernel_code_entry_byte_offset: 0, ..b }
        );
    }
}

/// Follows every `s_getpc_b64; s_add_u32 lit; s_addc_u32 lit` sequence in `k`'s code and
/// returns the image offsets they compute.
fn pc_relative_targets(co: &CodeObject) -> Vec<u64> {
    let image = co.image_at(0);
    let start = co.kernel("k").unwrap().entry_offset();
    let mut targets = Vec::new();
    let mut at = start;
    while word(&image, at) != S_ENDPGM {
        // s_getpc_b64 s[n:n+1] is 0xBE8n4700 with n in bits 22:16.
        if word(&image, at) & 0xFF80_FFFF == 0xBE80_4700 {
            let next = at + 4;
            let (add, lo, addc, hi) =
                (word(&image, next), word(&image, next + 4), word(&image, next + 8), word(&image, next + 12));
            assert_eq!(add >> 23, 0x100, "s_add_u32 follows s_getpc_b64"); // SOP2 opcode 0
            assert_eq!(addc >> 23, 0x104, "s_addc_u32 follows");
            targets.push(next.wrapping_add(u64::from(lo) | u64::from(hi) << 32));
            at += 20;
        } else {
            at += 4;
        }
    }
    targets
}

#[test]
fn relocations_resolve_in_both_flavours() {
    let table: Vec<u8> = [11i32, 22, 33, 44].iter().flat_map(|v| v.to_le_bytes()).collect();
    let (rel, dynamic) = compile_cl(TABLES, &[]);
    for (what, bytes) in [("ET_REL", rel), ("ET_DYN", dynamic)] {
        let co = CodeObject::parse(&bytes).unwrap();
        let (b1, b2) = (0x1_0000_0000u64, 0x7f12_3456_0000u64);
        let (i1, i2) = (co.image_at(b1), co.image_at(b2));
        assert_eq!(i1.len() as u64, co.image_size());
        // The pointer table is the only thing that moves with the load address.
        let moved: Vec<usize> = (0..i1.len() / 8).map(|w| w * 8).filter(|&o| i1[o..o + 8] != i2[o..o + 8]).collect();
        assert_eq!(moved.len(), 2, "{what}: {moved:?}");
        for (n, &o) in moved.iter().enumerate() {
            let p1 = u64::from_le_bytes(i1[o..o + 8].try_into().unwrap());
            let p2 = u64::from_le_bytes(i2[o..o + 8].try_into().unwrap());
            assert_eq!(p2 - p1, b2 - b1);
            let target = (p1 - b1) as usize;
            assert_eq!(&i1[target..target + 4], &table[4 * (n + 1)..4 * (n + 2)], "{what}: ptrs[{n}]");
        }
        // The code's PC-relative references land on `ptrs` and on `table`.
        let targets = pc_relative_targets(&co);
        assert_eq!(targets.len(), 2, "{what}");
        assert!(targets.contains(&(moved[0] as u64)), "{what}: {targets:x?} vs {moved:x?}");
        assert!(targets.iter().any(|&t| i1[t as usize..t as usize + 16] == table[..]), "{what}");
    }
}

fn patch(bytes: &[u8], f: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut b = bytes.to_vec();
    f(&mut b);
    b
}

fn replace_all(b: &mut [u8], from: &[u8], to: &[u8]) {
    assert_eq!(from.len(), to.len());
    let mut found = false;
    for i in 0..b.len().saturating_sub(from.len()) {
        if &b[i..i + from.len()] == from {
            b[i..i + from.len()].copy_from_slice(to);
            found = true;
        }
    }
    assert!(found, "pattern {:?} not found", String::from_utf8_lossy(from));
}

#[test]
fn malformed_inputs_give_descriptive_errors() {
    let (rel, dynamic) = compile_cl(TABLES, &[]);
    for bytes in [&rel, &dynamic] {
        let e = CodeObject::parse(&patch(bytes, |b| b[18] = 62)).unwrap_err(); // EM_X86_64
        assert_eq!(e, ElfError::WrongMachine(62));
        let e = CodeObject::parse(&patch(bytes, |b| b[8] = 1)).unwrap_err(); // code object v3
        assert!(matches!(e, ElfError::UnsupportedVersion { abi_version: 1, .. }), "{e}");
        let e = CodeObject::parse(&patch(bytes, |b| replace_all(b, b"k.kd\0", b"k.kx\0"))).unwrap_err();
        assert!(e.to_string().contains("k.kd"), "{e}");
        let e = CodeObject::parse(&patch(bytes, |b| replace_all(b, b"amdhsa.kernels", b"amdhsa.kernelz"))).unwrap_err();
        assert!(matches!(e, ElfError::Metadata(_)), "{e}");
        // A msgpack string header claiming more bytes than the note holds.
        let e = CodeObject::parse(&patch(bytes, |b| {
            replace_all(b, b"\xaeamdhsa.kernel", b"\xdb\x7f\xff\xff\xffa.kernels")
        }))
        .unwrap_err();
        assert!(matches!(e, ElfError::Metadata(_)), "{e}");
        for len in [0, 4, 63, 64, 100, bytes.len() / 2, bytes.len() - 1] {
            assert!(CodeObject::parse(&bytes[..len]).is_err(), "truncated to {len}");
        }
    }
    let (gfx1030, _) = compile_cl(TABLES, &["-mcpu=gfx1030"]);
    assert_eq!(CodeObject::parse(&gfx1030).unwrap_err(), ElfError::UnsupportedMach(0x36));
}

/// Byte offset of the first entry of the SHT_RELA section named `name`.
fn rela_offset(bytes: &[u8], name: &str) -> usize {
    use object::{Object, ObjectSection};
    let file = object::File::parse(bytes).unwrap();
    let s = file.section_by_name(name).unwrap();
    s.file_range().unwrap().0 as usize
}

#[test]
fn bad_relocations_are_errors() {
    let (rel, dynamic) = compile_cl(TABLES, &[]);
    // r_offset far outside the image / section.
    for (bytes, section) in [(&rel, ".rela.data.rel.ro"), (&dynamic, ".rela.dyn")] {
        let at = rela_offset(bytes, section);
        let e = CodeObject::parse(&patch(bytes, |b| b[at..at + 8].copy_from_slice(&0x10_0000u64.to_le_bytes())))
            .unwrap_err();
        assert!(matches!(e, ElfError::Relocation(_)), "{e}");
        assert!(e.to_string().contains("outside"), "{e}");
        // r_info type 7 = R_AMDGPU_GOTPCREL.
        let e = CodeObject::parse(&patch(bytes, |b| b[at + 8] = 7)).unwrap_err();
        assert_eq!(e, ElfError::UnsupportedRelocation { r_type: 7, name: "R_AMDGPU_GOTPCREL" });
    }
}

#[test]
fn random_mutations_never_panic() {
    let (rel, dynamic) = compile_cl(TABLES, &[]);
    let mut rng = Rng(0x5eed_c0de);
    let mut parsed = 0;
    for i in 0..3000 {
        let base = if i % 2 == 0 { &rel } else { &dynamic };
        let mut b = base.clone();
        for _ in 0..=rng.below(8) {
            let at = rng.below(b.len());
            match rng.below(4) {
                0 => b[at] = rng.next() as u8,
                1 => b[at] ^= 1 << rng.below(8),
                2 => b[at] = [0, 0xff, 0x7f, 0x80][rng.below(4)],
                _ => b.truncate(at),
            }
            if b.is_empty() {
                break;
            }
        }
        if let Ok(co) = CodeObject::parse(&b) {
            parsed += 1;
            let image = co.image_at(rng.next());
            assert_eq!(image.len() as u64, co.image_size());
            for k in &co.kernels {
                assert!(k.entry_offset() < co.image_size());
            }
        }
    }
    // Many mutations hit padding or unused bytes; the loader must still accept those.
    assert!(parsed > 100, "only {parsed} mutated objects parsed");
}
