//! The AMDHSA kernel descriptor, field by field, for gfx11 (bit positions from LLVM's
//! AMDGPUUsage, "Kernel Descriptor" and the `compute_pgm_rsrc1/2/3` tables).

use std::fmt::Write;

use compiler_bridge::elf::{Kernel, UserSgpr};

/// A bit field of a 32-bit register: (name, lowest bit, width).
type Field = (&'static str, u32, u32);

/// `COMPUTE_PGM_RSRC1` (GFX6-GFX12 table; the names are gfx11's).
const RSRC1: &[Field] = &[
    ("GRANULATED_WORKITEM_VGPR_COUNT", 0, 6),
    ("GRANULATED_WAVEFRONT_SGPR_COUNT", 6, 4),
    ("PRIORITY", 10, 2),
    ("FLOAT_ROUND_MODE_32", 12, 2),
    ("FLOAT_ROUND_MODE_16_64", 14, 2),
    ("FLOAT_DENORM_MODE_32", 16, 2),
    ("FLOAT_DENORM_MODE_16_64", 18, 2),
    ("PRIV", 20, 1),
    ("ENABLE_DX10_CLAMP", 21, 1),
    ("DEBUG_MODE", 22, 1),
    ("ENABLE_IEEE_MODE", 23, 1),
    ("BULKY", 24, 1),
    ("CDBG_USER", 25, 1),
    ("FP16_OVFL", 26, 1),
    ("WGP_MODE", 29, 1),
    ("MEM_ORDERED", 30, 1),
    ("FWD_PROGRESS", 31, 1),
];

/// `COMPUTE_PGM_RSRC2` (GFX6-GFX11 table).
const RSRC2: &[Field] = &[
    ("ENABLE_PRIVATE_SEGMENT", 0, 1),
    ("USER_SGPR_COUNT", 1, 5),
    ("ENABLE_TRAP_HANDLER", 6, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_X", 7, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_Y", 8, 1),
    ("ENABLE_SGPR_WORKGROUP_ID_Z", 9, 1),
    ("ENABLE_SGPR_WORKGROUP_INFO", 10, 1),
    ("ENABLE_VGPR_WORKITEM_ID", 11, 2),
    ("ENABLE_EXCEPTION_ADDRESS_WATCH", 13, 1),
    ("ENABLE_EXCEPTION_MEMORY", 14, 1),
    ("GRANULATED_LDS_SIZE", 15, 9),
    ("ENABLE_EXCEPTION_IEEE_754_FP_INVALID_OPERATION", 24, 1),
    ("ENABLE_EXCEPTION_FP_DENORMAL_SOURCE", 25, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_DIVISION_BY_ZERO", 26, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_OVERFLOW", 27, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_UNDERFLOW", 28, 1),
    ("ENABLE_EXCEPTION_IEEE_754_FP_INEXACT", 29, 1),
    ("ENABLE_EXCEPTION_INT_DIVIDE_BY_ZERO", 30, 1),
];

/// `COMPUTE_PGM_RSRC3` for gfx11 (GFX10-GFX11 table).
const RSRC3_GFX11: &[Field] = &[
    ("SHARED_VGPR_COUNT", 0, 4),
    ("INST_PREF_SIZE", 4, 6),
    ("TRAP_ON_START", 10, 1),
    ("TRAP_ON_END", 11, 1),
    ("IMAGE_OP", 31, 1),
];

/// `kernel_code_properties` (16 bits).
const CODE_PROPERTIES: &[Field] = &[
    ("ENABLE_SGPR_PRIVATE_SEGMENT_BUFFER", 0, 1),
    ("ENABLE_SGPR_DISPATCH_PTR", 1, 1),
    ("ENABLE_SGPR_QUEUE_PTR", 2, 1),
    ("ENABLE_SGPR_KERNARG_SEGMENT_PTR", 3, 1),
    ("ENABLE_SGPR_DISPATCH_ID", 4, 1),
    ("ENABLE_SGPR_FLAT_SCRATCH_INIT", 5, 1),
    ("ENABLE_SGPR_PRIVATE_SEGMENT_SIZE", 6, 1),
    ("ENABLE_WAVEFRONT_SIZE32", 10, 1),
    ("USES_DYNAMIC_STACK", 11, 1),
];

/// `kernarg_preload` (16 bits).
const KERNARG_PRELOAD: &[Field] = &[("KERNARG_PRELOAD_SPEC_LENGTH", 0, 7), ("KERNARG_PRELOAD_SPEC_OFFSET", 7, 9)];

/// Width of the name column of the field lines.
const NAME_WIDTH: usize = 48;

fn get(value: u32, (_, lo, width): Field) -> u32 {
    (value >> lo) & ((1u64 << width) - 1) as u32
}

/// The bits of `value` that no field of `fields` covers.
fn reserved_bits(value: u32, fields: &[Field]) -> u32 {
    let covered = fields.iter().fold(0u64, |m, &(_, lo, width)| m | (((1u64 << width) - 1) << lo));
    value & !(covered as u32)
}

pub(crate) fn round_mode(v: u32) -> &'static str {
    match v {
        0 => "round to nearest even",
        1 => "round toward +infinity",
        2 => "round toward -infinity",
        _ => "round toward zero",
    }
}

pub(crate) fn denorm_mode(v: u32) -> &'static str {
    match v {
        0 => "flush source and destination denorms",
        1 => "flush destination denorms",
        2 => "flush source denorms",
        _ => "no flush",
    }
}

/// A short explanation of a field's value, where one helps.
fn note(name: &str, v: u32, wave32: bool) -> Option<String> {
    Some(match name {
        "GRANULATED_WORKITEM_VGPR_COUNT" => {
            let granule = if wave32 { 8 } else { 4 };
            format!("{} VGPRs (granule {granule} in wave{})", (v + 1) * granule, if wave32 { 32 } else { 64 })
        }
        "GRANULATED_WAVEFRONT_SGPR_COUNT" if v != 0 => {
            "reserved on gfx10+ (AMDGPUUsage: must be 0; LLVM 19 sets it)".into()
        }
        "FLOAT_ROUND_MODE_32" | "FLOAT_ROUND_MODE_16_64" => round_mode(v).into(),
        "FLOAT_DENORM_MODE_32" | "FLOAT_DENORM_MODE_16_64" => denorm_mode(v).into(),
        "ENABLE_VGPR_WORKITEM_ID" => match v {
            0 => "x",
            1 => "x, y",
            2 => "x, y, z",
            _ => "undefined",
        }
        .into(),
        "USER_SGPR_COUNT" => format!("system SGPRs start at s{v}"),
        _ => return None,
    })
}

/// Writes a register's value and then each of its fields by name.
fn register(out: &mut String, name: &str, value: u32, fields: &[Field], hex_digits: usize, wave32: bool) {
    let _ = writeln!(out, "  {name:<w$} {value:#0d$x}", w = NAME_WIDTH, d = hex_digits + 2);
    for &field in fields {
        let v = get(value, field);
        let _ = match note(field.0, v, wave32) {
            Some(n) => writeln!(out, "    {:<w$} {v:<6} // {n}", field.0, w = NAME_WIDTH - 2),
            None => writeln!(out, "    {:<w$} {v}", field.0, w = NAME_WIDTH - 2),
        };
    }
    let reserved = reserved_bits(value, fields);
    if reserved != 0 {
        let _ = writeln!(out, "    {:<w$} {reserved:#x} // reserved bits set", "(reserved)", w = NAME_WIDTH - 2);
    }
}

fn user_sgpr_name(s: UserSgpr) -> &'static str {
    match s {
        UserSgpr::PrivateSegmentBuffer => "private segment buffer",
        UserSgpr::DispatchPtr => "dispatch ptr",
        UserSgpr::QueuePtr => "queue ptr",
        UserSgpr::KernargSegmentPtr => "kernarg segment ptr",
        UserSgpr::DispatchId => "dispatch id",
        UserSgpr::FlatScratchInit => "flat scratch init",
        UserSgpr::PrivateSegmentSize => "private segment size",
    }
}

fn sgpr_range(first: u32, count: u32) -> String {
    if count == 1 {
        format!("s{first}")
    } else {
        format!("s[{first}:{}]", first + count - 1)
    }
}

/// The descriptor of `kernel`, decoded, one field per line (indented by two spaces).
/// `code_addr` is where its code is in the ELF's address space, when known. In a
/// relocatable object the entry offset is the one the loader computes (relocation applied,
/// sections laid out one after the other), not the bytes in the file.
pub fn describe(kernel: &Kernel, code_addr: Option<u64>, relocatable: bool) -> String {
    let kd = &kernel.descriptor;
    let wave32 = kd.wave32();
    let mut out = String::new();
    let field = |out: &mut String, name: &str, value: String| {
        let _ = writeln!(out, "  {name:<w$} {value}", w = NAME_WIDTH);
    };
    field(&mut out, "group_segment_fixed_size", kd.group_segment_fixed_size.to_string());
    field(&mut out, "private_segment_fixed_size", kd.private_segment_fixed_size.to_string());
    field(&mut out, "kernarg_size", kd.kernarg_size.to_string());
    let entry = kd.kernel_code_entry_byte_offset;
    let relocated = if relocatable { "relocated by the loader; " } else { "" };
    let target = match code_addr {
        Some(t) => format!(" // {relocated}code at {t:#x}"),
        None if relocatable => " // relocated by the loader".to_string(),
        None => String::new(),
    };
    field(
        &mut out,
        "kernel_code_entry_byte_offset",
        format!("{entry} ({}{:#x}){target}", sign(entry), entry.unsigned_abs()),
    );
    register(&mut out, "COMPUTE_PGM_RSRC1", kd.compute_pgm_rsrc1, RSRC1, 8, wave32);
    register(&mut out, "COMPUTE_PGM_RSRC2", kd.compute_pgm_rsrc2, RSRC2, 8, wave32);
    register(&mut out, "COMPUTE_PGM_RSRC3", kd.compute_pgm_rsrc3, RSRC3_GFX11, 8, wave32);
    register(&mut out, "kernel_code_properties", u32::from(kd.kernel_code_properties), CODE_PROPERTIES, 4, wave32);

    let layout = kd.user_sgpr_layout();
    let sgprs = if layout.is_empty() {
        "none".to_string()
    } else {
        let list: Vec<String> = layout
            .iter()
            .map(|&(s, first, count)| format!("{} {}", sgpr_range(first, count), user_sgpr_name(s)))
            .collect();
        list.join(", ")
    };
    field(&mut out, "user SGPRs", sgprs);
    field(&mut out, "wavefront size", if wave32 { "32".into() } else { "64".into() });
    field(&mut out, "uses dynamic stack", if kd.uses_dynamic_stack() { "yes".into() } else { "no".into() });

    if kd.kernarg_preload != 0 {
        register(&mut out, "kernarg_preload", u32::from(kd.kernarg_preload), KERNARG_PRELOAD, 4, wave32);
    } else {
        field(&mut out, "kernarg_preload", "none".into());
    }

    let m = &kernel.metadata;
    let _ = writeln!(
        out,
        "  metadata: .wavefront_size {}, .sgpr_count {}, .vgpr_count {}, .kernarg_segment_size {}, \
         .kernarg_segment_align {}, .max_flat_workgroup_size {}",
        m.wavefront_size,
        m.sgpr_count,
        m.vgpr_count,
        m.kernarg_segment_size,
        m.kernarg_segment_align,
        m.max_flat_workgroup_size
    );
    if let Some([x, y, z]) = m.reqd_workgroup_size {
        let _ = writeln!(out, "  metadata: .reqd_workgroup_size [{x}, {y}, {z}]");
    }
    for (i, a) in m.args.iter().enumerate() {
        let name = a.name.as_deref().map_or(String::new(), |n| format!(" {n}"));
        let space = a.address_space.as_deref().map_or(String::new(), |s| format!(", {s}"));
        let _ = writeln!(out, "  arg {i}{name}: {}, offset {}, size {}{space}", a.value_kind, a.offset, a.size);
    }
    out
}

fn sign(v: i64) -> &'static str {
    if v < 0 {
        "-"
    } else {
        ""
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_cover_their_registers_without_overlap() {
        for (fields, reserved) in [
            (RSRC1, 0x1800_0000u32),
            (RSRC2, 0x8000_0000),
            (RSRC3_GFX11, 0x7fff_f000),
            (CODE_PROPERTIES, 0xffff_0000 | 0xf000 | 0x380),
            (KERNARG_PRELOAD, 0xffff_0000),
        ] {
            let mut seen = 0u64;
            for &(name, lo, width) in fields {
                let mask = ((1u64 << width) - 1) << lo;
                assert_eq!(seen & mask, 0, "{name} overlaps");
                seen |= mask;
            }
            assert_eq!(seen as u32, !reserved);
            assert_eq!(reserved_bits(u32::MAX, fields), reserved);
        }
    }

    #[test]
    fn fields_decode_at_their_bit_positions() {
        assert_eq!(get(0x0000_f000, RSRC1[3]), 3); // FLOAT_ROUND_MODE_32
        assert_eq!(get(0x0000_f000, RSRC1[4]), 3); // FLOAT_ROUND_MODE_16_64
        assert_eq!(get(0x0000_003e, RSRC2[1]), 31); // USER_SGPR_COUNT
        assert_eq!(get(0x0000_1800, RSRC2[7]), 3); // ENABLE_VGPR_WORKITEM_ID
        assert_eq!(get(0x00ff_8000, RSRC2[10]), 0x1ff); // GRANULATED_LDS_SIZE
        assert_eq!(get(0x0000_03f0, RSRC3_GFX11[1]), 0x3f); // INST_PREF_SIZE
        assert_eq!(get(0x8000_0000, RSRC3_GFX11[4]), 1); // IMAGE_OP
        assert_eq!(get(0xff80, KERNARG_PRELOAD[1]), 0x1ff);
    }
}
