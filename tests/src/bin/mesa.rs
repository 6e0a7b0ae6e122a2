//! `softnavi-mesa`: Mesa code objects (`.AMDGPU.config`; docs/ABI.md, "Mesa code
//! objects") built here by llc-19 from the LLVM IR below, for `amdgcn-mesa-mesa3d` and for
//! no OS, run through the Vulkan loader as shader modules and checked against CPU
//! references; then objects a driver must refuse (`malformed`).
//!
//! Prints `CASE <name> PASS` or `CASE <name> FAIL <why>` per case on stdout (`=== case
//! <name>` on stderr before each, so the driver's log can be attributed), and `MALFORMED
//! <what> <result>` per bad object. Needs llc-19, llvm-mc-19 and ld.lld-19 (scripts/setup).

use std::path::PathBuf;
use std::process::{Command, ExitCode};

use ash::vk;
use softnavi_examples::{Context, ContextOptions, Error};
use softnavi_tests::dispatch::{self, Binding, Dispatch, Kind};

/// Declarations every case uses: the segment pointer (LLVM's implicit buffer pointer, s[0:1]
/// of a Mesa3D shader) and raw buffer access through set 0's V#s.
const DECLS: &str = r#"
declare ptr addrspace(4) @llvm.amdgcn.implicit.buffer.ptr()
declare i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.raw.buffer.store.i32(i32, <4 x i32>, i32, i32, i32)
declare void @llvm.amdgcn.s.barrier()
"#;

/// Reads the segment (the SPIR-V kernarg layout of a pipeline layout with one set and 8
/// bytes of push constants): `%nx`, `%ny` (NumWorkgroups x, y at 0x00) and set 0's V#s
/// `%in` (binding 0) and `%out` (binding 1) through the set's address at 0x10.
const SEGMENT: &str = r#"
  %nx = load i32, ptr addrspace(4) %seg, align 4
  %nyp = getelementptr i8, ptr addrspace(4) %seg, i64 4
  %ny = load i32, ptr addrspace(4) %nyp, align 4
  %setp = getelementptr i8, ptr addrspace(4) %seg, i64 16
  %set = load ptr addrspace(4), ptr addrspace(4) %setp, align 8
  %in = load <4 x i32>, ptr addrspace(4) %set, align 16
  %outp = getelementptr i8, ptr addrspace(4) %set, i64 16
  %out = load <4 x i32>, ptr addrspace(4) %outp, align 16
"#;

/// The push constants `%c`, `%k` from the segment (at 0x20).
const PUSH: &str = r#"
  %cp = getelementptr i8, ptr addrspace(4) %seg, i64 32
  %c = load i32, ptr addrspace(4) %cp, align 4
  %kp = getelementptr i8, ptr addrspace(4) %seg, i64 36
  %k = load i32, ptr addrspace(4) %kp, align 4
"#;

/// `out[gid] = in[gid] * k + c` over a grid of 8 x 4 x 2 work-item groups: workgroup ids
/// from the system SGPRs, work-item ids from v0 (x | y << 10 | z << 20), the row width
/// from NumWorkgroups.
const SCALE_BODY: &str = r#"
  %lx = and i32 %ids, 1023
  %ly0 = lshr i32 %ids, 10
  %ly = and i32 %ly0, 1023
  %lz = lshr i32 %ids, 20
  %bx = mul i32 %wgx, 8
  %gx = add i32 %bx, %lx
  %by = mul i32 %wgy, 4
  %gy = add i32 %by, %ly
  %bz = mul i32 %wgz, 2
  %gz = add i32 %bz, %lz
  %w = mul i32 %nx, 8
  %h = mul i32 %ny, 4
  %zr = mul i32 %gz, %h
  %row = add i32 %zr, %gy
  %rw = mul i32 %row, %w
  %gid = add i32 %rw, %gx
  %off = shl i32 %gid, 2
  %v = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %vk = mul i32 %v, %k
  %r = add i32 %vk, %c
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}
"#;

/// The workgroup size SCALE_BODY is written for, and its grid.
const SCALE_GROUP: [u32; 3] = [8, 4, 2];
const SCALE_GRID: [u32; 3] = [3, 2, 2];

/// `scale` for the Mesa3D OS: the segment is LLVM's implicit buffer pointer, the `inreg`
/// arguments start at s2 with the workgroup ids.
fn scale_mesa3d() -> String {
    format!(
        "{DECLS}define amdgpu_cs void @scale(i32 inreg %wgx, i32 inreg %wgy, i32 inreg %wgz, i32 %ids) {{\n  \
         %seg = call ptr addrspace(4) @llvm.amdgcn.implicit.buffer.ptr()\n{SEGMENT}{PUSH}{SCALE_BODY}"
    )
}

/// `scale` for no OS: nothing is reserved, so the segment address is the first argument.
fn scale_no_os() -> String {
    format!(
        "{DECLS}define amdgpu_cs void @scale(ptr addrspace(4) inreg %seg, i32 inreg %wgx, i32 inreg %wgy, \
         i32 inreg %wgz, i32 %ids) {{\n{SEGMENT}{PUSH}{SCALE_BODY}"
    )
}

/// `scale` taking the push constants in user SGPRs s2, s3 (its config is edited to
/// USER_SGPR 4 before assembly): the workgroup ids follow at s4.
fn scale_user_sgprs() -> String {
    format!(
        "{DECLS}define amdgpu_cs void @scale(i32 inreg %c, i32 inreg %k, i32 inreg %wgx, i32 inreg %wgy, \
         i32 inreg %wgz, i32 %ids) {{\n  %seg = call ptr addrspace(4) @llvm.amdgcn.implicit.buffer.ptr()\n\
         {SEGMENT}{SCALE_BODY}"
    )
}

/// Groups of 64: LDS (each group reversed through it, across waves, with a barrier),
/// scratch (a private array indexed at run time) and a call to a helper function (its
/// address is an SHT_REL relocation). The helper comes after the entry point: the GPU
/// model decodes a program from its entry on, and a call to code before it faults. `out[g*64 + l] = mix(in[g*64 + 63 - l], in[g*64 + l]
/// + (l & 15))`, `mix(x, y) = x * 31 ^ y`.
fn busy() -> String {
    let mut stores = String::new();
    for i in 0..16 {
        stores += &format!(
            "  %a{i} = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 {i}\n  %p{i} = add i32 %v, {i}\n  \
             store volatile i32 %p{i}, ptr addrspace(5) %a{i}\n"
        );
    }
    format!(
        r#"{DECLS}
@lds = internal addrspace(3) global [64 x i32] poison, align 4

define amdgpu_cs void @busy(i32 inreg %wgx, i32 inreg %wgy, i32 inreg %wgz, i32 %ids) {{
  %seg = call ptr addrspace(4) @llvm.amdgcn.implicit.buffer.ptr()
{SEGMENT}{PUSH}
  %lx = and i32 %ids, 1023
  %base = mul i32 %wgx, 64
  %gid = add i32 %base, %lx
  %off = shl i32 %gid, 2
  %v = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)
  %ls = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %lx
  store i32 %v, ptr addrspace(3) %ls
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %rl = sub i32 63, %lx
  %lr = getelementptr [64 x i32], ptr addrspace(3) @lds, i32 0, i32 %rl
  %w = load i32, ptr addrspace(3) %lr
  %arr = alloca [16 x i32], align 4, addrspace(5)
{stores}  %i = and i32 %lx, 15
  %ai = getelementptr [16 x i32], ptr addrspace(5) %arr, i32 0, i32 %i
  %s = load volatile i32, ptr addrspace(5) %ai
  %m = call i32 @mix(i32 %w, i32 %s)
  call void @llvm.amdgcn.raw.buffer.store.i32(i32 %m, <4 x i32> %out, i32 %off, i32 0, i32 0)
  ret void
}}

define internal i32 @mix(i32 %x, i32 %y) noinline {{
  %a = mul i32 %x, 31
  %b = xor i32 %a, %y
  ret i32 %b
}}
"#
    )
}

/// `out[i] = in[i] * k` as f32, in two functions of one object: `keep` with LLVM's default
/// f32 denormal mode, `flush` compiled for flushed f32 denormals (RSRC1.FLOAT_MODE differs;
/// the dispatch must program each function's own).
fn float_modes() -> String {
    let body = |name: &str, attrs: &str| {
        format!(
            "define amdgpu_cs void @{name}(i32 inreg %wgx, i32 inreg %wgy, i32 inreg %wgz, i32 %ids) {attrs} {{\n  \
             %seg = call ptr addrspace(4) @llvm.amdgcn.implicit.buffer.ptr()\n{SEGMENT}{PUSH}  %lx = and i32 %ids, 1023\n  \
             %base = mul i32 %wgx, 64\n  %gid = add i32 %base, %lx\n  %off = shl i32 %gid, 2\n  \
             %v = call i32 @llvm.amdgcn.raw.buffer.load.i32(<4 x i32> %in, i32 %off, i32 0, i32 0)\n  \
             %f = bitcast i32 %v to float\n  %kf = bitcast i32 %k to float\n  %p = fmul float %f, %kf\n  \
             %r = bitcast float %p to i32\n  \
             call void @llvm.amdgcn.raw.buffer.store.i32(i32 %r, <4 x i32> %out, i32 %off, i32 0, i32 0)\n  ret void\n}}\n"
        )
    };
    format!(
        "{DECLS}{}{}attributes #0 = {{ \"denormal-fp-math-f32\"=\"preserve-sign,preserve-sign\" }}\n",
        body("keep", ""),
        body("flush", "#0")
    )
}

// ---- LLVM ----------------------------------------------------------------------------------

/// An LLVM 19 tool: `NAME-19` in PATH, else Debian's `/usr/lib/llvm-19/bin/NAME`.
fn tool(name: &str) -> PathBuf {
    let versioned = format!("{name}-19");
    std::env::var_os("PATH")
        .and_then(|paths| std::env::split_paths(&paths).map(|d| d.join(&versioned)).find(|p| p.is_file()))
        .unwrap_or_else(|| PathBuf::from("/usr/lib/llvm-19/bin").join(name))
}

/// A scratch directory for the tools' files.
fn scratch_dir() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("softnavi-mesa-{}", std::process::id()));
    let _ = std::fs::create_dir_all(&dir);
    dir
}

/// Runs `cmd` reading `input` from file `name` (extension picks the type), returns the
/// bytes it writes to `out`.
fn tool_run(mut cmd: Command, name: &str, input: &[u8]) -> Result<Vec<u8>, Error> {
    let dir = scratch_dir();
    let (src, dst) = (dir.join(name), dir.join(format!("{name}.out")));
    std::fs::write(&src, input).map_err(|e| Error::Unsupported(format!("{}: {e}", src.display())))?;
    let o = cmd.arg(&src).arg("-o").arg(&dst).output();
    match o {
        Ok(o) if o.status.success() => {
            std::fs::read(&dst).map_err(|e| Error::Unsupported(format!("{}: {e}", dst.display())))
        }
        Ok(o) => Err(Error::Unsupported(format!("{cmd:?} failed:\n{}", String::from_utf8_lossy(&o.stderr)))),
        Err(e) => Err(Error::Unsupported(format!("cannot run {cmd:?} ({e}); install llvm-19 (scripts/setup)"))),
    }
}

/// Object flavour: (triple, wave64).
fn llc(ir: &str, triple: &str, wave64: bool, filetype: &str) -> Result<Vec<u8>, Error> {
    let mut cmd = Command::new(tool("llc"));
    cmd.args([&format!("-mtriple={triple}"), "-mcpu=gfx1100", &format!("-filetype={filetype}")]);
    if wave64 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    tool_run(cmd, "m.ll", ir.as_bytes())
}

fn assemble(asm: &str) -> Result<Vec<u8>, Error> {
    let mut cmd = Command::new(tool("llvm-mc"));
    cmd.args(["-triple=amdgcn-mesa-mesa3d", "-mcpu=gfx1100", "-filetype=obj"]);
    tool_run(cmd, "m.s", asm.as_bytes())
}

fn link(obj: &[u8]) -> Result<Vec<u8>, Error> {
    let mut cmd = Command::new(tool("ld.lld"));
    cmd.arg("-shared");
    tool_run(cmd, "m.o", obj)
}

/// llc's assembly for Mesa3D with every function's RSRC2.USER_SGPR set to `n`.
fn with_user_sgprs(ir: &str, n: u32) -> Result<Vec<u8>, Error> {
    let asm = String::from_utf8_lossy(&llc(ir, "amdgcn-mesa-mesa3d", false, "asm")?).into_owned();
    let mut lines: Vec<String> = asm.lines().map(str::to_string).collect();
    for i in 0..lines.len().saturating_sub(1) {
        if lines[i].trim() == ".long\t47180" {
            let v: u32 = lines[i + 1].trim().trim_start_matches(".long").trim().parse().unwrap_or(0);
            lines[i + 1] = format!("\t.long\t{}", (v & !(0x1f << 1)) | n << 1);
        }
    }
    assemble(&(lines.join("\n") + "\n"))
}

// ---- cases --------------------------------------------------------------------------------

type Check = Box<dyn Fn(&[u32]) -> Result<(), String>>;

struct Case {
    name: &'static str,
    object: Result<Vec<u8>, Error>,
    entry: &'static str,
    group: [u32; 3],
    grid: [u32; 3],
    wave64: bool,
    input: Vec<u32>,
    push: [u32; 2],
    check: Check,
}

fn words(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| c.iter().rev().fold(0, |w, &b| w << 8 | b as u32)).collect()
}

fn bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

/// The first index where `got` and `want` differ.
fn compare(got: &[u32], want: &[u32]) -> Result<(), String> {
    match got.iter().zip(want).position(|(g, w)| g != w) {
        None if got.len() >= want.len() => Ok(()),
        None => Err(format!("{} results, expected {}", got.len(), want.len())),
        Some(i) => Err(format!("out[{i}] = {:#x}, expected {:#x}", got[i], want[i])),
    }
}

fn scale_case(name: &'static str, object: Result<Vec<u8>, Error>, wave64: bool) -> Case {
    let n: u32 = (0..3).map(|d| SCALE_GROUP[d] * SCALE_GRID[d]).product();
    let input: Vec<u32> = (0..n).map(|i| i.wrapping_mul(2_654_435_761) ^ 0x5a5a).collect();
    let (c, k) = (0x1234_5678, 77);
    let want: Vec<u32> = input.iter().map(|v| v.wrapping_mul(k).wrapping_add(c)).collect();
    Case {
        name,
        object,
        entry: "scale",
        group: SCALE_GROUP,
        grid: SCALE_GRID,
        wave64,
        input,
        push: [c, k],
        check: Box::new(move |out| compare(out, &want)),
    }
}

fn busy_case(name: &'static str, wave64: bool) -> Case {
    let input: Vec<u32> = (0..256u32).map(|i| i.wrapping_mul(0x9e37_79b9) >> 3).collect();
    let want: Vec<u32> = (0..256usize)
        .map(|i| {
            let (g, l) = (i / 64, i % 64);
            let (w, s) = (input[g * 64 + 63 - l], input[i].wrapping_add(l as u32 & 15));
            w.wrapping_mul(31) ^ s
        })
        .collect();
    Case {
        name,
        object: llc(&busy(), "amdgcn-mesa-mesa3d", wave64, "obj"),
        entry: "busy",
        group: [64, 1, 1],
        grid: [4, 1, 1],
        wave64,
        input,
        push: [0, 0],
        check: Box::new(move |out| compare(out, &want)),
    }
}

/// f32 denormals, ±, and normal values times 1.0.
const FLOATS: [u32; 8] = [1, 0x8000_0001, 0x007f_ffff, 0x3f80_0000, 0xc2f6_e979, 0x0000_0400, 0x8040_0000, 0x0080_0000];

fn float_case(entry: &'static str) -> Case {
    let input: Vec<u32> = (0..64).map(|i| FLOATS[i % FLOATS.len()]).collect();
    let flush = entry == "flush";
    // x * 1.0 is x; flushing makes a denormal (exponent 0, mantissa not 0) a zero of its sign.
    let want: Vec<u32> = input
        .iter()
        .map(|&x| if flush && x & 0x7f80_0000 == 0 && x & 0x007f_ffff != 0 { x & 0x8000_0000 } else { x })
        .collect();
    Case {
        name: entry,
        object: llc(&float_modes(), "amdgcn-mesa-mesa3d", false, "obj"),
        entry,
        group: [64, 1, 1],
        grid: [1, 1, 1],
        wave64: false,
        input,
        push: [0, 1.0f32.to_bits()],
        check: Box::new(move |out| compare(out, &want)),
    }
}

fn cases() -> Vec<Case> {
    let mesa = llc(&scale_mesa3d(), "amdgcn-mesa-mesa3d", false, "obj");
    let linked = mesa.as_ref().map_err(|e| Error::Unsupported(format!("{e:?}"))).and_then(|o| link(o));
    vec![
        scale_case("scale-mesa3d", mesa, false),
        scale_case("scale-mesa3d-wave64", llc(&scale_mesa3d(), "amdgcn-mesa-mesa3d", true, "obj"), true),
        scale_case("scale-mesa3d-linked", linked, false),
        scale_case("scale-no-os", llc(&scale_no_os(), "amdgcn--", false, "obj"), false),
        scale_case("scale-user-sgprs", with_user_sgprs(&scale_user_sgprs(), 4), false),
        busy_case("busy", false),
        // LLVM sizes the scratch per wave for the wave size it compiled for.
        busy_case("busy-wave64", true),
        float_case("keep"),
        float_case("flush"),
    ]
}

// ---- running ----------------------------------------------------------------------------------

fn run(ctx: &Context, case: &Case) -> Result<Vec<u32>, Error> {
    let object = case.object.as_ref().map_err(|e| Error::Unsupported(format!("building the object: {e:?}")))?;
    let spec: Vec<(u32, Vec<u8>)> = (0..3).map(|d| (d as u32, case.group[d].to_le_bytes().to_vec())).collect();
    let n = case.input.len();
    let bindings = [
        Binding { kind: Kind::Storage, data: bytes(&case.input) },
        Binding { kind: Kind::Storage, data: vec![0; 4 * n] },
    ];
    let push = bytes(&case.push);
    let out = dispatch::run(
        ctx,
        &Dispatch {
            code: &words(object),
            entry: case.entry,
            bindings: &bindings,
            push: &push,
            spec: &spec,
            groups: case.grid,
            subgroup_size: case.wave64.then_some(64),
            images: &[],
        },
    )?;
    Ok(words(&out[1]))
}

fn context() -> Result<Context, Error> {
    Context::new(&ContextOptions {
        compute_only_queue: false,
        app_name: "softnavi-mesa",
        device_filter: None,
        validate: false,
        shader_features: true,
    })
}

/// Bad objects: module creation or pipeline creation fails with an error code (the ICD
/// logs why), never a crash. One `MALFORMED <what> <result>` line each.
fn malformed() -> Result<(), Error> {
    let ctx = context()?;
    let good = llc(&scale_mesa3d(), "amdgcn-mesa-mesa3d", false, "obj")?;
    let asm = String::from_utf8_lossy(&llc(&scale_mesa3d(), "amdgcn-mesa-mesa3d", false, "asm")?).into_owned();
    let config = asm.find(".section\t.AMDGPU.config").and_then(|at| asm[at..].find('\n').map(|e| at + e + 1));
    let config = config.ok_or_else(|| Error::Unsupported("llc wrote no .AMDGPU.config".into()))?;
    let odd = format!("{}\t.long\t7\n{}", &asm[..config], &asm[config..]);
    let rsrc1 = asm.find(".long\t47176").ok_or_else(|| Error::Unsupported("no RSRC1 in the config".into()))?;
    let value_end = rsrc1 + asm[rsrc1..].match_indices('\n').nth(1).map_or(0, |(i, _)| i + 1);
    let no_rsrc1 = format!("{}{}", &asm[..rsrc1], &asm[value_end..]);
    let scratch_rsrc = asm.replacen("scale:", "scale:\n\ts_mov_b32 s10, SCRATCH_RSRC_DWORD0\n", 1);
    let ps = llc("define amdgpu_ps void @scale(float %x) {\n  ret void\n}\n", "amdgcn-mesa-mesa3d", false, "obj")?;
    let objects = [
        ("truncated", good[..100].to_vec(), "scale"),
        ("odd-config", assemble(&odd)?, "scale"),
        ("scratch-rsrc", assemble(&scratch_rsrc)?, "scale"),
        ("missing-rsrc1", assemble(&no_rsrc1)?, "scale"),
        ("no-such-function", good.clone(), "nope"),
        ("pixel-shader", ps, "scale"),
    ];
    for (what, object, entry) in objects {
        let mut case = scale_case(what, Ok(object), false);
        case.entry = entry;
        match run(&ctx, &case) {
            Ok(_) => println!("MALFORMED {what} pipeline created"),
            Err(Error::Vulkan { call, result }) => println!("MALFORMED {what} {call} {result:?}"),
            Err(e) => println!("MALFORMED {what} {e:?}"),
        }
    }
    Ok(())
}

fn main() -> ExitCode {
    if std::env::args().nth(1).as_deref() == Some("malformed") {
        let r = malformed();
        let _ = std::fs::remove_dir_all(scratch_dir());
        return match r {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("{e:?}");
                ExitCode::from(1)
            }
        };
    }
    let mut ctx = match context() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("no Vulkan device: {e:?}");
            return ExitCode::from(1);
        }
    };
    for case in cases() {
        eprintln!("=== case {}", case.name);
        let verdict = match run(&ctx, &case) {
            Ok(out) => match (case.check)(&out) {
                Ok(()) => "PASS".to_string(),
                Err(e) => format!("FAIL wrong results: {e}"),
            },
            Err(e) => {
                if matches!(e, Error::Vulkan { result: vk::Result::ERROR_DEVICE_LOST, .. }) {
                    match context() {
                        Ok(c) => ctx = c,
                        Err(e2) => {
                            println!("CASE {} FAIL {e:?}; no new device: {e2:?}", case.name);
                            return ExitCode::from(1);
                        }
                    }
                }
                format!("FAIL {e:?}")
            }
        };
        println!("CASE {} {verdict}", case.name);
    }
    let _ = std::fs::remove_dir_all(scratch_dir());
    eprintln!("=== end");
    ExitCode::SUCCESS
}
