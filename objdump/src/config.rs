//! Mesa code objects (`.AMDGPU.config`): each function's config pairs decoded by register
//! and field with `gpu::pm4`'s definitions, what a softnavi dispatch of it programs
//! (docs/ABI.md, "Mesa code objects"), then its code.

use std::fmt::Write;

use compiler_bridge::mesa::{config_register_name, ComputeConfig, ConfigObject, Function};
use gpu::pm4::{self, fields, reg};

use crate::descriptor::{denorm_mode, round_mode};
use crate::listing::Layout;
use crate::Args;

/// Width of the name column of the register lines.
const NAME_WIDTH: usize = 40;

/// The whole listing of a Mesa code object.
pub fn render(args: &Args, object: &ConfigObject, layout: Layout) -> String {
    let mut out = String::new();
    let os = if object.os_abi() == 0 { "no OS (0)" } else { "MESA3D (66)" };
    let kind = if object.relocatable() { "relocatable (ET_REL)" } else { "linked (ET_DYN)" };
    let n = object.functions.len();
    let _ = writeln!(
        out,
        "{}: Mesa code object (.AMDGPU.config), EI_OSABI {os}, {} (EF_AMDGPU_MACH {:#x}), {kind}, {n} function{}",
        args.file.display(),
        object.target_name(),
        object.mach(),
        if n == 1 { "" } else { "s" }
    );
    let wave = if args.wave64 { 64 } else { 32 };
    let _ = writeln!(out, "the object does not record its wave size: disassembled as wave{wave} (--wave64, --wave32)");
    for section in &layout.sections {
        let _ = writeln!(out, "\nsection {} ({:#x}..{:#x})", section.name, section.addr, section.end());
        for (li, label) in section.labels.iter().enumerate() {
            let next = section.labels.get(li + 1).map_or(section.end(), |l| l.addr);
            out.push('\n');
            match object.functions.iter().find(|f| f.name == label.name) {
                Some(f) => out.push_str(&describe(f)),
                None => {
                    let _ = writeln!(out, "function {} (no config)", label.name);
                }
            }
            crate::render_code(&mut out, section, label, next, args.wave64);
        }
    }
    out
}

/// A function's config, one register per line with its fields, and the dispatch.
pub fn describe(f: &Function) -> String {
    let mut out = format!("function {} (.AMDGPU.config: {} pairs)\n", f.name, f.config.len());
    for &(r, v) in &f.config {
        let _ = writeln!(out, "  {:<w$} {v:#010x}", config_register_name(r), w = NAME_WIDTH);
        for &field in pm4::register_info(r).map_or(&[][..], |(_, fields)| fields) {
            let x = pm4::get(field, v);
            let _ = match note(r, field.0, x) {
                Some(n) => writeln!(out, "    {:<w$} {x:<6} // {n}", field.0, w = NAME_WIDTH - 2),
                None => writeln!(out, "    {:<w$} {x}", field.0, w = NAME_WIDTH - 2),
            };
        }
    }
    match f.compute() {
        Ok(c) => out.push_str(&dispatch(&c)),
        Err(e) => {
            let _ = writeln!(out, "  not loadable as a compute shader: {e}");
        }
    }
    out
}

/// A short explanation of a field's value, where one helps.
fn note(register: u32, field: &str, v: u32) -> Option<String> {
    Some(match (register, field) {
        (reg::COMPUTE_PGM_RSRC1, "VGPRS") => format!("{} VGPRs in wave32, {} in wave64", (v + 1) * 8, (v + 1) * 4),
        (reg::COMPUTE_PGM_RSRC1, "FLOAT_MODE") => format!(
            "f32: {}, {}; f16/f64: {}, {}",
            round_mode(v & 3),
            denorm_mode(v >> 4 & 3),
            round_mode(v >> 2 & 3),
            denorm_mode(v >> 6 & 3)
        ),
        (reg::COMPUTE_PGM_RSRC2, "LDS_SIZE") => format!("{} bytes", v * 512),
        (reg::COMPUTE_TMPRING_SIZE, "WAVESIZE") => format!("{} bytes per wave", v * 256),
        _ => return None,
    })
}

/// What a softnavi dispatch of the function programs.
fn dispatch(c: &ComputeConfig) -> String {
    let rsrc2 = c.dispatch_rsrc2();
    let user = c.user_sgprs();
    let push = if user > 2 { format!(", s[2:{}] push constants", user - 1) } else { String::new() };
    format!(
        "  dispatch: COMPUTE_PGM_RSRC2 {rsrc2:#010x} (USER_SGPR {user}, TGID_X/Y/Z_EN, TIDIG_COMP_CNT {}, SCRATCH_EN {}); \
         s[0:1] segment address{push}, s{user}..s{} workgroup ids; {} LDS bytes, {} scratch bytes per wave; \
         {} SGPRs and {} VGPRs spilled\n",
        pm4::get(fields::COMPUTE_PGM_RSRC2::TIDIG_COMP_CNT, rsrc2),
        pm4::get(fields::COMPUTE_PGM_RSRC2::SCRATCH_EN, rsrc2),
        user + 2,
        c.lds_bytes(),
        c.scratch_bytes_per_wave(),
        c.spilled_sgprs,
        c.spilled_vgprs
    )
}
