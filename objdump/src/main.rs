//! `softnavi-objdump`: disassembles an AMDHSA gfx11 code object with softnavi's RDNA3
//! decoder. For each kernel it prints the decoded kernel descriptor, then the code, one
//! instruction per line as `llvm-objdump -d` prints it: `<text>  // <address>: <words>`.
//! For a Mesa code object it prints each function's `.AMDGPU.config` instead (`config`).

mod config;
mod descriptor;
mod listing;

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Parser;
use compiler_bridge::elf::{AnyObject, CodeObject, ElfError, Kernel};

use listing::{CodeSection, Label, Layout};

/// Disassembles an AMDHSA code object for gfx11 (as made by `clang-19 -target
/// amdgcn-amd-amdhsa -mcpu=gfx1100`): kernel descriptors, then instructions in LLVM syntax.
/// A Mesa code object (`llc-19 -mtriple=amdgcn-mesa-mesa3d`): each function's
/// `.AMDGPU.config` registers, then its instructions.
#[derive(Parser, Debug)]
#[command(name = "softnavi-objdump", version)]
struct Args {
    /// Target processor: a gfx11 one (gfx1100, gfx1101, gfx1102, gfx1103, gfx1150, gfx1151,
    /// gfx1152, gfx1153, gfx11-generic). They share the instruction encoding. Default: the
    /// object's.
    #[arg(long, value_name = "CPU")]
    mcpu: Option<String>,
    /// Disassemble as wave64 (lane masks are 64-bit: `vcc`, `s[0:1]`), whatever the kernel
    /// descriptors say.
    #[arg(long, conflicts_with = "wave32")]
    wave64: bool,
    /// Disassemble as wave32 (`vcc_lo`), whatever the kernel descriptors say.
    #[arg(long)]
    wave32: bool,
    /// The code object (ELF) to disassemble.
    file: PathBuf,
}

/// The gfx11 processors: the names `--mcpu` accepts, with their `EF_AMDGPU_MACH`.
const GFX11: &[(&str, u32)] = &[
    ("gfx1100", 0x41),
    ("gfx1101", 0x46),
    ("gfx1102", 0x47),
    ("gfx1103", 0x44),
    ("gfx1150", 0x43),
    ("gfx1151", 0x4a),
    ("gfx1152", 0x55),
    ("gfx1153", 0x58),
    ("gfx11-generic", 0x54),
];

/// Other `EF_AMDGPU_MACH` values (AMDGPUUsage, "AMDGPU EF_AMDGPU_MACH Values"), to name
/// the target of an object we reject.
const OTHER_MACHS: &[(u32, &str)] = &[
    (0x20, "gfx600"),
    (0x22, "gfx700"),
    (0x28, "gfx801"),
    (0x29, "gfx802"),
    (0x2a, "gfx803"),
    (0x2c, "gfx900"),
    (0x2f, "gfx906"),
    (0x30, "gfx908"),
    (0x3f, "gfx90a"),
    (0x40, "gfx940"),
    (0x4c, "gfx942"),
    (0x4f, "gfx950"),
    (0x33, "gfx1010"),
    (0x34, "gfx1011"),
    (0x35, "gfx1012"),
    (0x36, "gfx1030"),
    (0x37, "gfx1031"),
    (0x38, "gfx1032"),
    (0x39, "gfx1033"),
    (0x48, "gfx1200"),
    (0x4e, "gfx1201"),
];

fn main() -> ExitCode {
    let args = Args::parse();
    match run(&args) {
        Ok(text) => {
            let mut stdout = std::io::stdout().lock();
            match stdout.write_all(text.as_bytes()).and_then(|()| stdout.flush()) {
                Ok(()) => ExitCode::SUCCESS,
                // `softnavi-objdump x | head` is not an error.
                Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
                Err(e) => {
                    eprintln!("softnavi-objdump: error: writing the output: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Err(e) => {
            eprintln!("softnavi-objdump: error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: &Args) -> Result<String, String> {
    if let Some(cpu) = &args.mcpu {
        if !GFX11.iter().any(|(name, _)| name == cpu) {
            let names: Vec<&str> = GFX11.iter().map(|(n, _)| *n).collect();
            return Err(format!(
                "--mcpu {cpu}: not a gfx11 processor; softnavi decodes gfx11 (RDNA3) code only: {}",
                names.join(", ")
            ));
        }
    }
    let path = args.file.display();
    let bytes = std::fs::read(&args.file).map_err(|e| format!("{path}: {e}"))?;
    let object = AnyObject::parse(&bytes).map_err(|e| match e {
        ElfError::UnsupportedMach(mach) => {
            let name = OTHER_MACHS.iter().find(|(m, _)| *m == mach).map_or("an unknown target", |(_, n)| n);
            format!(
                "{path}: the code object is for {name} (EF_AMDGPU_MACH {mach:#x}), not gfx11; \
                 softnavi decodes gfx11 (RDNA3) code only"
            )
        }
        e => format!("{path}: {e}"),
    })?;
    let layout = listing::layout(&bytes).map_err(|e| format!("{path}: {e}"))?;
    Ok(match object {
        AnyObject::Hsa(object) => render(args, &object, layout),
        AnyObject::Mesa(object) => config::render(args, &object, layout),
    })
}

/// The wave size to disassemble `kernel` (or a non-kernel function, `None`) in.
fn wave64_for(args: &Args, object: &CodeObject, kernel: Option<&Kernel>) -> bool {
    if args.wave64 || args.wave32 {
        return args.wave64;
    }
    match kernel {
        Some(k) => !k.descriptor.wave32(),
        // A function without a descriptor: the object's wave size when its kernels agree.
        None => {
            let w64 = object.kernels.iter().filter(|k| !k.descriptor.wave32()).count();
            w64 > 0 && w64 == object.kernels.len()
        }
    }
}

fn render(args: &Args, object: &CodeObject, mut layout: Layout) -> String {
    let mut out = String::new();
    let kind = if layout.relocatable { "relocatable (ET_REL)" } else { "linked (ET_DYN)" };
    let target = object.target_name();
    out.push_str(&format!(
        "{}: AMDHSA code object v{}, {target} (EF_AMDGPU_MACH {:#x}), {kind}, {} kernel{}\n",
        args.file.display(),
        object.code_object_version(),
        object.mach(),
        object.kernels.len(),
        if object.kernels.len() == 1 { "" } else { "s" }
    ));
    if let Some(cpu) = args.mcpu.as_deref().filter(|c| *c != target) {
        out.push_str(&format!("disassembled as {cpu} (--mcpu)\n"));
    }

    // Which code label each kernel starts at: its function symbol (the descriptor name
    // without `.kd`), else, in a linked object, the entry the descriptor points at.
    let mut kernel_at: Vec<Option<(usize, u64)>> = Vec::new();
    for k in &object.kernels {
        let code_name = k.symbol.strip_suffix(".kd").unwrap_or(&k.name);
        let by_name = layout
            .sections
            .iter()
            .enumerate()
            .find_map(|(si, s)| s.labels.iter().find(|l| l.name == code_name).map(|l| (si, l.addr)));
        let found = by_name.or_else(|| {
            if layout.relocatable {
                return None;
            }
            let entry = k.entry_offset();
            let si = layout.sections.iter().position(|s| s.contains(entry))?;
            layout.sections[si].add_label(Label { name: k.name.clone(), addr: entry, size: None });
            Some((si, entry))
        });
        kernel_at.push(found);
    }

    for (ki, k) in object.kernels.iter().enumerate() {
        if kernel_at[ki].is_none() {
            out.push('\n');
            out.push_str(&kernel_header(k, &layout, None));
            out.push_str("  (code not found: no function symbol for it in an executable section)\n");
        }
    }

    for (si, section) in layout.sections.iter().enumerate() {
        out.push_str(&format!("\nsection {} ({:#x}..{:#x})\n", section.name, section.addr, section.end()));
        if let Some(first) = section.labels.first() {
            if first.addr > section.addr {
                let wave64 = wave64_for(args, object, None);
                out.push_str(&format!("\n// {} bytes before the first symbol:\n", first.addr - section.addr));
                listing::disassemble(&mut out, section.addr, section.slice(section.addr, first.addr), wave64);
            }
        } else if !section.bytes.is_empty() {
            out.push_str("\n// no symbols in this section:\n");
            let wave64 = wave64_for(args, object, None);
            listing::disassemble(&mut out, section.addr, &section.bytes, wave64);
        }
        for (li, label) in section.labels.iter().enumerate() {
            let next = section.labels.get(li + 1).map_or(section.end(), |l| l.addr);
            let kernel = kernel_at.iter().position(|at| *at == Some((si, label.addr))).map(|ki| &object.kernels[ki]);
            out.push('\n');
            match kernel {
                Some(k) => out.push_str(&kernel_header(k, &layout, Some(label.addr))),
                None => out.push_str(&format!("function {} (no kernel descriptor)\n", label.name)),
            }
            render_code(&mut out, section, label, next, wave64_for(args, object, kernel));
        }
    }
    out
}

/// The kernel's name and decoded descriptor; `code_addr` is where its code was found.
fn kernel_header(k: &Kernel, layout: &Layout, code_addr: Option<u64>) -> String {
    let kd_addr = layout.data_symbols.iter().find(|(n, _)| *n == k.symbol).map(|(_, a)| *a);
    // In a linked object the image offset is the address.
    let kd_addr = kd_addr.or((!layout.relocatable).then_some(k.descriptor_offset));
    let at = kd_addr.map_or(String::new(), |a| format!(" at {a:#x}"));
    format!(
        "kernel {} (descriptor {}{at})\n{}",
        k.name,
        k.symbol,
        descriptor::describe(k, code_addr, layout.relocatable)
    )
}

/// The code of `label` (its `st_size` bytes), then whatever follows up to `next` (the next
/// symbol or the end of the section: alignment padding, `s_code_end`), which
/// `llvm-objdump` lists under the symbol too.
fn render_code(out: &mut String, section: &CodeSection, label: &Label, next: u64, wave64: bool) {
    let end = match label.size {
        Some(size) if size > 0 => label.addr.saturating_add(size).min(next),
        _ => next,
    };
    let wave = if wave64 { 64 } else { 32 };
    out.push_str(&format!(
        "\n<{}> {:#x}..{:#x} ({} bytes, wave{wave}):\n",
        label.name,
        label.addr,
        end,
        end - label.addr
    ));
    listing::disassemble(out, label.addr, section.slice(label.addr, end), wave64);
    if next > end {
        out.push_str(&format!(
            "// {} bytes after <{}> up to {next:#x}: padding, outside the symbol\n",
            next - end,
            label.name
        ));
        listing::disassemble(out, end, section.slice(end, next), wave64);
    }
}
