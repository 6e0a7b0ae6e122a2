//! Mesa code objects (`.AMDGPU.config`; docs/ABI.md, "Mesa code objects") built by llc-19
//! from LLVM IR for gfx1100, for the Mesa3D OS and for no OS, wave32 and wave64: the parsed
//! config of every function must be the `.long` pairs llc prints in its assembly for the
//! same IR, and its fields (read with `gpu::pm4`'s layouts) what llc's `;` comments say;
//! relocations resolve; bad objects give named errors, never panics.

mod common;

use std::collections::HashMap;
use std::process::Command;

use common::{compile_cl, llvm_tool, run, Rng, TempDir};
use compiler_bridge::elf::{AnyObject, CodeObject, ElfError};
use compiler_bridge::mesa::{ComputeConfig, ConfigObject};
use gpu::pm4::{self, fields};

const TRIPLES: [&str; 2] = ["amdgcn-mesa-mesa3d", "amdgcn--"];

/// A call to a local helper function (a config of its own; REL relocations of its address),
/// LDS and a barrier under flushed f32 denormals, scratch, and (`spill_ir`) spilled VGPRs.
const SEVERAL: &str = r#"
@lds = internal addrspace(3) global [100 x i32] poison, align 4
declare void @llvm.amdgcn.s.barrier()

define amdgpu_cs void @zeta(ptr addrspace(1) inreg %p, i32 inreg %k, i32 %tid) {
  %x = and i32 %tid, 1023
  %v = call i32 @helper(i32 %x)
  %m = mul i32 %v, %k
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %x
  store i32 %m, ptr addrspace(1) %a
  ret void
}

define internal i32 @helper(i32 %x) noinline {
  %y = mul i32 %x, 7
  ret i32 %y
}

define amdgpu_cs void @alpha(ptr addrspace(1) inreg %p, i32 %tid) #0 {
  %x = and i32 %tid, 1023
  %s = getelementptr [100 x i32], ptr addrspace(3) @lds, i32 0, i32 %x
  store i32 %tid, ptr addrspace(3) %s
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %r = sub i32 99, %x
  %t = getelementptr [100 x i32], ptr addrspace(3) @lds, i32 0, i32 %r
  %v = load i32, ptr addrspace(3) %t
  %f = bitcast i32 %v to float
  %g = fadd float %f, 1.0
  %a = getelementptr float, ptr addrspace(1) %p, i32 %x
  store float %g, ptr addrspace(1) %a
  ret void
}

define amdgpu_cs void @scratch(ptr addrspace(1) inreg %p, i32 %tid, i32 %idx) {
  %arr = alloca [64 x i32], align 4, addrspace(5)
  %e = getelementptr [64 x i32], ptr addrspace(5) %arr, i32 0, i32 %tid
  store volatile i32 %tid, ptr addrspace(5) %e
  %f = getelementptr [64 x i32], ptr addrspace(5) %arr, i32 0, i32 %idx
  %v = load volatile i32, ptr addrspace(5) %f
  store i32 %v, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "denormal-fp-math-f32"="preserve-sign,preserve-sign" }
"#;

/// One function, nothing to relocate: what ld.lld-19 can link (it cannot read the implicit
/// addends of Mesa's SHT_REL relocations).
const ONE: &str = r#"
define amdgpu_cs void @main(ptr addrspace(1) inreg %p, i32 inreg %k, i32 %tid) {
  %x = and i32 %tid, 1023
  %m = mul i32 %x, %k
  %a = getelementptr i32, ptr addrspace(1) %p, i32 %x
  store i32 %m, ptr addrspace(1) %a
  ret void
}
"#;

/// 48 values live at once in at most 24 VGPRs: LLVM spills VGPRs to scratch.
fn spill_ir() -> String {
    let n = 48;
    let mut s = String::from("define amdgpu_cs void @spill(ptr addrspace(1) inreg %p, i32 %tid) #1 {\n");
    for i in 0..n {
        s += &format!("  %g{i} = getelementptr i32, ptr addrspace(1) %p, i32 {}\n", i * 64);
        s += &format!("  %h{i} = getelementptr i32, ptr addrspace(1) %g{i}, i32 %tid\n");
        s += &format!("  %v{i} = load volatile i32, ptr addrspace(1) %h{i}\n");
    }
    let mut acc = "%v0".to_string();
    for i in 1..n {
        s += &format!("  %m{i} = mul i32 %v{i}, %v{}\n  %s{i} = add i32 {acc}, %m{i}\n", n - i);
        acc = format!("%s{i}");
    }
    s += &format!("  store i32 {acc}, ptr addrspace(1) %p\n  ret void\n}}\n");
    s + "attributes #1 = { \"amdgpu-num-vgpr\"=\"24\" }\n"
}

fn several() -> String {
    format!("{SEVERAL}\n{}", spill_ir())
}

/// llc-19's assembly and relocatable object for `ir`.
fn llc(ir: &str, triple: &str, wave64: bool) -> (String, Vec<u8>) {
    let dir = TempDir::new("llc");
    let src = dir.path("m.ll");
    std::fs::write(&src, ir).unwrap();
    let mut out = Vec::new();
    for filetype in ["asm", "obj"] {
        let dst = dir.path(filetype);
        run(Command::new(llvm_tool("llc"))
            .args([format!("-mtriple={triple}"), "-mcpu=gfx1100".into(), format!("-filetype={filetype}")])
            .args(if wave64 { &["-mattr=+wavefrontsize64"][..] } else { &[] })
            .arg(&src)
            .arg("-o")
            .arg(&dst));
        out.push(std::fs::read(&dst).unwrap());
    }
    (String::from_utf8(out.remove(0)).unwrap(), out.remove(0))
}

/// llvm-mc-19's object for assembly `asm`.
fn assemble(asm: &str, triple: &str) -> Vec<u8> {
    let dir = TempDir::new("mc");
    let (src, dst) = (dir.path("m.s"), dir.path("m.o"));
    std::fs::write(&src, asm).unwrap();
    run(Command::new(llvm_tool("llvm-mc"))
        .args([&format!("-triple={triple}"), "-mcpu=gfx1100", "-filetype=obj"])
        .arg(&src)
        .arg("-o")
        .arg(&dst));
    std::fs::read(&dst).unwrap()
}

/// ld.lld-19's shared object of `obj`.
fn link(obj: &[u8]) -> Vec<u8> {
    let dir = TempDir::new("lld");
    let (o, so) = (dir.path("m.o"), dir.path("m.so"));
    std::fs::write(&o, obj).unwrap();
    run(Command::new(llvm_tool("ld.lld")).arg("-shared").arg(&o).arg("-o").arg(&so));
    std::fs::read(&so).unwrap()
}

/// What llc's assembly says of one function: the `.long` pairs of its `.AMDGPU.config` and
/// the `; Key: value` lines of its "Kernel info" (or "Function info") comment block.
#[derive(Debug)]
struct AsmFunction {
    name: String,
    config: Vec<(u32, u32)>,
    info: HashMap<String, String>,
}

fn asm_functions(asm: &str) -> Vec<AsmFunction> {
    let (mut out, mut longs) = (Vec::<AsmFunction>::new(), Vec::new());
    let (mut in_config, mut in_info) = (false, false);
    for line in asm.lines() {
        let t = line.trim();
        in_info &= t.starts_with(';');
        if t.starts_with(".section") || t == ".text" {
            in_config = t.contains(".AMDGPU.config");
        } else if let Some(v) = t.strip_prefix(".long").filter(|_| in_config) {
            longs.push(v.trim().parse::<u32>().unwrap());
        } else if !line.starts_with(char::is_whitespace) && !t.starts_with(['.', ';']) && t.contains(':') {
            let name = t.split(':').next().unwrap().to_string();
            let config = longs.chunks(2).map(|p| (p[0], p[1])).collect();
            out.push(AsmFunction { name, config, info: HashMap::new() });
            longs.clear();
        } else if t == "; Kernel info:" || t == "; Function info:" {
            in_info = true;
        } else if let Some(c) = t.strip_prefix("; ").filter(|_| in_info) {
            let (k, v) = c.split_once(": ").or_else(|| c.split_once(" = ")).unwrap();
            out.last_mut().unwrap().info.insert(k.trim().into(), v.trim().into());
        }
    }
    out
}

fn number(info: &HashMap<String, String>, key: &str) -> u64 {
    let v = info.get(key).unwrap_or_else(|| panic!("no `; {key}` in {info:?}"));
    v.split_whitespace().next().unwrap().parse().unwrap()
}

/// The fields llc's comments state, against the registers as `gpu::pm4` decodes them.
fn check_fields(what: &str, c: &ComputeConfig, info: &HashMap<String, String>, wave: u64) {
    use fields::{COMPUTE_PGM_RSRC1 as r1, COMPUTE_PGM_RSRC2 as r2};
    for (field, value, key) in [
        (r1::FLOAT_MODE, c.rsrc1, "FloatMode"),
        (r1::IEEE_MODE, c.rsrc1, "IeeeMode"),
        (r1::VGPRS, c.rsrc1, "VGPRBlocks"),
        (r1::SGPRS, c.rsrc1, "SGPRBlocks"),
        (r2::SCRATCH_EN, c.rsrc2, "COMPUTE_PGM_RSRC2:SCRATCH_EN"),
        (r2::USER_SGPR, c.rsrc2, "COMPUTE_PGM_RSRC2:USER_SGPR"),
        (r2::TRAP_PRESENT, c.rsrc2, "COMPUTE_PGM_RSRC2:TRAP_HANDLER"),
        (r2::TGID_X_EN, c.rsrc2, "COMPUTE_PGM_RSRC2:TGID_X_EN"),
        (r2::TGID_Y_EN, c.rsrc2, "COMPUTE_PGM_RSRC2:TGID_Y_EN"),
        (r2::TGID_Z_EN, c.rsrc2, "COMPUTE_PGM_RSRC2:TGID_Z_EN"),
        (r2::TIDIG_COMP_CNT, c.rsrc2, "COMPUTE_PGM_RSRC2:TIDIG_COMP_CNT"),
    ] {
        assert_eq!(pm4::get(field, value) as u64, number(info, key), "{what}: {key}");
    }
    // LLVM: scratch in 256-byte blocks per wave, LDS in 512-byte blocks.
    let scratch = number(info, "ScratchSize") * wave;
    assert_eq!(c.scratch_bytes_per_wave(), scratch.div_ceil(256) * 256, "{what}: ScratchSize");
    assert_eq!(c.lds_bytes() as u64, number(info, "LDSByteSize").div_ceil(512) * 512, "{what}: LDSByteSize");
}

#[test]
fn config_of_every_function_is_what_llc_prints() {
    for triple in TRIPLES {
        for wave64 in [false, true] {
            let what = format!("{triple} wave{}", if wave64 { 64 } else { 32 });
            let (asm, obj) = llc(&several(), triple, wave64);
            let o = ConfigObject::parse(&obj).unwrap_or_else(|e| panic!("{what}: {e}"));
            assert_eq!(o.os_abi(), if triple.contains("mesa") { 66 } else { 0 }, "{what}");
            assert_eq!((o.target_name(), o.relocatable()), ("gfx1100", true));
            let expected = asm_functions(&asm);
            let names: Vec<&str> = o.functions.iter().map(|f| f.name.as_str()).collect();
            let asm_names: Vec<&str> = expected.iter().map(|f| f.name.as_str()).collect();
            assert_eq!(names, asm_names, "{what}: the functions in image order are llc's");
            for (f, a) in o.functions.iter().zip(&expected) {
                let what = format!("{what} {}", f.name);
                assert_eq!(f.config, a.config, "{what}: config pairs");
                assert_eq!(f.size, number(&a.info, "codeLenInByte"), "{what}: code size");
                if f.name == "helper" {
                    // Not an entry point: its config is zeros, its code 4-byte aligned.
                    assert!(f.compute().unwrap_err().to_string().contains("not an entry point"), "{what}");
                    continue;
                }
                assert_eq!(f.offset % 256, 0, "{what}: entry points are 256-byte aligned");
                let c = f.compute().unwrap_or_else(|e| panic!("{what}: {e}"));
                check_fields(&what, &c, &a.info, if wave64 { 64 } else { 32 });
            }
            let spill = o.function("spill").unwrap().compute().unwrap();
            assert!(spill.spilled_vgprs > 0 && spill.scratch_bytes_per_wave() > 0, "{what}: {spill:?}");
            let alpha = o.function("alpha").unwrap().compute().unwrap();
            assert_eq!(pm4::get(fields::COMPUTE_PGM_RSRC1::FLOAT_MODE, alpha.rsrc1) >> 4 & 3, 0, "{what}");
        }
    }
}

#[test]
fn linked_objects_match_relocatable_ones() {
    for triple in TRIPLES {
        let (_, obj) = llc(ONE, triple, false);
        let rel = ConfigObject::parse(&obj).unwrap();
        let dynamic = ConfigObject::parse(&link(&obj)).unwrap();
        assert!(!dynamic.relocatable());
        let (r, d) = (&rel.functions[0], &dynamic.functions[0]);
        assert_eq!((&r.name, &r.config, r.size), (&d.name, &d.config, d.size));
        let (ri, di) = (rel.image_at(0), dynamic.image_at(0));
        let code = |image: &[u8], at: u64, size: u64| image[at as usize..(at + size) as usize].to_vec();
        assert_eq!(code(&ri, r.offset, r.size), code(&di, d.offset, d.size), "{triple}");
    }
}

/// Mesa's relocations are SHT_REL: the addend is in the relocated bytes. Every relocation of
/// `.text`, as the `object` crate reads it, must hold the symbol's address (Mesa3D) or its
/// distance (no OS) at any load base.
#[test]
fn rel_relocations_resolve_with_their_implicit_addends() {
    use object::{Object, ObjectSection, ObjectSymbol, RelocationTarget};
    for triple in TRIPLES {
        let (_, obj) = llc(SEVERAL, triple, false);
        let o = ConfigObject::parse(&obj).unwrap();
        let file = object::File::parse(&obj[..]).unwrap();
        let text = file.section_by_name(".text").unwrap();
        let zeta = o.function("zeta").unwrap();
        let text_base = zeta.offset - file.symbol_by_name("zeta").unwrap().address();
        let relocs: Vec<_> = text.relocations().collect();
        assert_eq!(relocs.len(), 2, "{triple}: the helper call's address, lo and hi");
        for base in [0x1234_5600_u64, 0x7f_ffff_ff00] {
            let image = o.image_at(base);
            for (at, r) in &relocs {
                let RelocationTarget::Symbol(i) = r.target() else { panic!("{r:?}") };
                let sym = file.symbol_by_index(i).unwrap();
                let field = &text.data().unwrap()[*at as usize..*at as usize + 4];
                let addend = i32::from_le_bytes(field.try_into().unwrap()) as i64;
                let target = (base + text_base + sym.address()).wrapping_add_signed(addend);
                let place = base + text_base + at;
                let got = u32::from_le_bytes(image[(text_base + at) as usize..][..4].try_into().unwrap());
                let object::RelocationFlags::Elf { r_type } = r.flags() else { panic!("{r:?}") };
                // AMDGPUUsage, "Relocation Records": ABS32_LO/HI (Mesa3D), REL32_LO/HI (no OS).
                let want = match r_type.0 {
                    1 => target,
                    2 => target >> 32,
                    10 => target.wrapping_sub(place),
                    11 => target.wrapping_sub(place) >> 32,
                    t => panic!("{triple}: relocation type {t}"),
                };
                assert_eq!(got, want as u32, "{triple}: relocation at {at:#x} against {:?}", sym.name());
            }
        }
    }
}

#[test]
fn the_os_abi_tells_the_flavours_apart() {
    let (_, obj) = llc(ONE, TRIPLES[0], false);
    assert!(matches!(AnyObject::parse(&obj), Ok(AnyObject::Mesa(_))));
    assert_eq!(CodeObject::parse(&obj).unwrap_err(), ElfError::UnsupportedVersion { os_abi: 66, abi_version: 0 });
    let (hsa, _) = compile_cl("__kernel void k(__global int *p) { *p = 1; }", &[]);
    assert!(matches!(AnyObject::parse(&hsa), Ok(AnyObject::Hsa(_))));
    assert!(matches!(ConfigObject::parse(&hsa), Err(ElfError::UnsupportedVersion { os_abi: 64, .. })));
}

/// `asm` with the first `.long REG` line and the value line after it removed.
fn drop_pair(asm: &str, reg: u32) -> String {
    let lines: Vec<&str> = asm.lines().collect();
    let at = lines.iter().position(|l| l.trim() == format!(".long\t{reg}")).expect("the register is in the config");
    [&lines[..at], &lines[at + 2..]].concat().join("\n") + "\n"
}

/// `asm` with `lines` inserted at the start of its (first) `.AMDGPU.config`.
fn prepend_config(asm: &str, lines: &str) -> String {
    let at = asm.find(".section\t.AMDGPU.config").unwrap();
    let eol = at + asm[at..].find('\n').unwrap() + 1;
    format!("{}{lines}{}", &asm[..eol], &asm[eol..])
}

fn parse_error(asm: &str, triple: &str) -> String {
    ConfigObject::parse(&assemble(asm, triple)).unwrap_err().to_string()
}

fn compute_error(asm: &str, triple: &str) -> String {
    let o = ConfigObject::parse(&assemble(asm, triple)).unwrap();
    o.functions[0].compute().unwrap_err().to_string()
}

#[test]
fn bad_configs_give_named_errors() {
    let triple = TRIPLES[0];
    let (asm, obj) = llc(ONE, triple, false);
    // The assembly round-trips: the edits below are all that differ.
    assert_eq!(
        ConfigObject::parse(&assemble(&asm, triple)).unwrap().functions,
        ConfigObject::parse(&obj).unwrap().functions
    );
    assert!(parse_error(&prepend_config(&asm, "\t.long\t7\n"), triple).contains("not whole (register, value) pairs"));
    assert!(compute_error(&drop_pair(&asm, 0xb848), triple).contains("no COMPUTE_PGM_RSRC1"));
    assert!(compute_error(&drop_pair(&asm, 0xb84c), triple).contains("no COMPUTE_PGM_RSRC2"));
    let unknown = asm.replacen(".long\t47200", ".long\t47188", 1);
    assert!(compute_error(&unknown, triple).contains("unknown config register COMPUTE_RESOURCE_LIMITS (0xb854)"));
    assert!(parse_error(&prepend_config(&asm, "\t.long\t4\n\t.long\tmain\n"), triple).contains("relocations"));
    // Two functions whose configs run together.
    let (two, _) = llc(SEVERAL, triple, false);
    assert!(parse_error(&drop_pair(&two, 8), triple).contains("3 function configs for 4 function symbols"));
    for len in [0, 7, 64, 100, obj.len() / 2, obj.len() - 1] {
        assert!(ConfigObject::parse(&obj[..len]).is_err(), "truncated to {len}");
    }
}

#[test]
fn what_a_driver_must_patch_or_place_is_refused_by_name() {
    let triple = TRIPLES[0];
    let (asm, _) = llc(ONE, triple, false);
    let scratch = asm.replacen("main:", "main:\n\ts_mov_b32 s10, SCRATCH_RSRC_DWORD0\n", 1);
    let e = parse_error(&scratch, triple);
    assert!(e.contains("`SCRATCH_RSRC_DWORD0`, where radeonsi patches in its scratch buffer descriptor"), "{e}");
    let lds = "@ext = external addrspace(3) global [16 x i32], align 4\n\
               define amdgpu_cs void @c(i32 %tid) {\n  %q = getelementptr [16 x i32], ptr addrspace(3) @ext, i32 0, i32 %tid\n\
               store i32 %tid, ptr addrspace(3) %q\n  ret void\n}\n";
    let e = ConfigObject::parse(&llc(lds, triple, false).1).unwrap_err().to_string();
    assert!(e.contains("the LDS variable `ext`"), "{e}");
    let kernel =
        "define amdgpu_kernel void @k(ptr addrspace(1) %p) {\n  store i32 1, ptr addrspace(1) %p\n  ret void\n}\n";
    let o = ConfigObject::parse(&llc(kernel, triple, false).1).unwrap();
    assert!(o.functions[0].compute().unwrap_err().to_string().contains("an amdgpu_kernel"));
    let ps = "define amdgpu_ps void @ps(float %x) {\n  ret void\n}\n";
    let o = ConfigObject::parse(&llc(ps, triple, false).1).unwrap();
    let e = o.functions[0].compute().unwrap_err().to_string();
    assert!(e.contains("SPI_SHADER_PGM_RSRC1_PS (0xb028), a graphics stage's register"), "{e}");
}

#[test]
fn random_mutations_never_panic() {
    let (_, rel) = llc(&several(), TRIPLES[0], false);
    let (_, one) = llc(ONE, TRIPLES[1], false);
    let dynamic = link(&one);
    let mut rng = Rng(0x6e5a_c0f1);
    let mut parsed = 0;
    for i in 0..3000 {
        let mut b = [&rel, &one, &dynamic][i % 3].clone();
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
        if let Ok(o) = ConfigObject::parse(&b) {
            parsed += 1;
            assert_eq!(o.image_at(rng.next()).len() as u64, o.image_size());
            for f in &o.functions {
                assert!(f.offset < o.image_size());
                if let Ok(c) = f.compute() {
                    assert!(c.user_sgpr_values().len() <= 15);
                    let _ = (c.dispatch_rsrc2(), c.lds_bytes(), c.scratch_bytes_per_wave());
                }
            }
        }
    }
    assert!(parsed > 100, "only {parsed} mutated objects parsed");
}
