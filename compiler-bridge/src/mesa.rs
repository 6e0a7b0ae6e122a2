//! Mesa's flavour of code object: no kernel descriptors or metadata, but a `.AMDGPU.config`
//! section of (register, value) pairs per function, as LLVM writes it for the Mesa3D OS
//! (and for no OS) and radeonsi's `ac_shader_binary_read_config` reads it (docs/ABI.md,
//! "Mesa code objects").
//!
//! [`ConfigObject::parse`] lays the object out like an AMDHSA one (ET_REL or ET_DYN,
//! [`crate::elf`]) and splits the config among its functions; [`Function::compute`] checks a
//! function's registers and says what a dispatch of it programs. Register layouts are
//! `gpu::pm4`'s. Every input is untrusted: problems are [`ElfError`]s, never panics.

use gpu::pm4::{self, fields, reg};
use object::elf;
use object::read::elf::{FileHeader, SectionHeader, Sym};
use object::LittleEndian as LE;

use crate::elf::{amdgpu_header, gfx11_mach, Ctx, ElfError, Image, Placement, SymValue};
use crate::hsa::UserValue;

/// `ELFOSABI_AMDGPU_MESA3D`; LLVM's `amdgcn--` (no OS) objects carry 0 and the same config.
pub const ELFOSABI_AMDGPU_MESA3D: u8 = 66;
/// The pseudo-registers LLVM ends each function's config with (radeonsi's `SPILLED_SGPRS`
/// and `SPILLED_VGPRS`).
pub const SPILLED_SGPRS: u32 = 0x4;
pub const SPILLED_VGPRS: u32 = 0x8;
/// `STT_AMDGPU_HSA_KERNEL`: LLVM gives it to Mesa `amdgpu_kernel` functions, whose code
/// starts with an `amd_kernel_code_t` header.
const STT_AMDGPU_HSA_KERNEL: elf::SymbolType = elf::SymbolType(10);
/// Most user SGPRs a dispatch can load (COMPUTE_USER_DATA_0..15).
pub const MAX_USER_SGPRS: u32 = 16;
/// User SGPRs the segment address takes (s[0:1]).
const SEGMENT_SGPRS: u32 = 2;

/// A parsed Mesa code object: its image and functions.
#[derive(Clone, Debug)]
pub struct ConfigObject {
    /// In image order, which is the order of their config.
    pub functions: Vec<Function>,
    image: Image,
    mach: u32,
    os_abi: u8,
    relocatable: bool,
}

/// A function symbol and its part of `.AMDGPU.config`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Function {
    pub name: String,
    /// Image offset of its first instruction.
    pub offset: u64,
    /// `st_size`.
    pub size: u64,
    /// An `amdgpu_kernel` (STT_AMDGPU_HSA_KERNEL), not a shader.
    pub kernel: bool,
    /// (register byte offset, value) pairs, in section order.
    pub config: Vec<(u32, u32)>,
}

/// The registers of a compute function's config.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ComputeConfig {
    pub rsrc1: u32,
    pub rsrc2: u32,
    /// COMPUTE_PGM_RSRC3 when the config sets it (LLVM 19 does not), else 0.
    pub rsrc3: u32,
    pub tmpring_size: u32,
    pub spilled_sgprs: u32,
    pub spilled_vgprs: u32,
}

impl ConfigObject {
    /// Parses a Mesa code object. Never panics.
    pub fn parse(bytes: &[u8]) -> Result<ConfigObject, ElfError> {
        crate::elf::with_aligned(bytes, parse_aligned)
    }

    pub fn function(&self, name: &str) -> Option<&Function> {
        self.functions.iter().find(|f| f.name == name)
    }

    pub fn image(&self) -> &Image {
        &self.image
    }

    pub fn image_size(&self) -> u64 {
        self.image.size()
    }

    pub fn image_at(&self, base_va: u64) -> Vec<u8> {
        self.image.at(base_va)
    }

    /// `e_flags` machine (`EF_AMDGPU_MACH`), e.g. 0x41 for gfx1100.
    pub fn mach(&self) -> u32 {
        self.mach
    }

    pub fn target_name(&self) -> &'static str {
        crate::elf::target_name(self.mach)
    }

    /// `EI_OSABI`: [`ELFOSABI_AMDGPU_MESA3D`] or 0.
    pub fn os_abi(&self) -> u8 {
        self.os_abi
    }

    /// ET_REL (else ET_DYN).
    pub fn relocatable(&self) -> bool {
        self.relocatable
    }
}

fn config_err(what: impl Into<String>) -> ElfError {
    ElfError::Config(what.into())
}

fn parse_aligned(data: &[u8]) -> Result<ConfigObject, ElfError> {
    let header = amdgpu_header(data)?;
    let ident = header.e_ident();
    let os_abi = ident.os_abi.0;
    if !matches!(os_abi, ELFOSABI_AMDGPU_MESA3D | 0) || ident.abi_version != 0 {
        return Err(ElfError::UnsupportedVersion { os_abi, abi_version: ident.abi_version });
    }
    let mach = gfx11_mach(header)?;
    let relocatable = header.e_type(LE).0 == elf::ET_REL.0;
    let (ctx, placement) = Ctx::load(data, header)?;
    let config = config_section(&ctx)?;
    let symbols = function_symbols(&ctx, &placement)?;
    let chunks = split_config(&config, symbols.len())?;
    let functions = symbols
        .into_iter()
        .zip(chunks)
        .map(|((name, offset, size, kernel), config)| Function { name, offset, size, kernel, config })
        .collect();
    Ok(ConfigObject { functions, image: ctx.into_image(), mach, os_abi, relocatable })
}

/// The bytes of `.AMDGPU.config`, which nothing may relocate (a relocation there would be a
/// register value LLVM could not compute, which radeonsi does not patch either).
fn config_section(ctx: &Ctx) -> Result<Vec<u8>, ElfError> {
    let (index, section) = ctx
        .sections
        .section_by_name(LE, b".AMDGPU.config")
        .ok_or_else(|| config_err("the object has no .AMDGPU.config section"))?;
    let bytes = section.data(LE, ctx.data).map_err(|e| config_err(format!("section data: {e}")))?.to_vec();
    for s in ctx.sections.iter() {
        let relocs = matches!(s.sh_type(LE), elf::SHT_REL | elf::SHT_RELA);
        if relocs && s.sh_info(LE) as usize == index.0 && s.sh_size(LE) > 0 {
            return Err(config_err("it has relocations (register values LLVM left to the linker)"));
        }
    }
    Ok(bytes)
}

/// The function symbols (`STT_FUNC`, and `STT_AMDGPU_HSA_KERNEL` to refuse them by name)
/// as (name, image offset, size, kernel), in image order, one per address.
fn function_symbols(ctx: &Ctx, placement: &Placement) -> Result<Vec<(String, u64, u64, bool)>, ElfError> {
    let table = match ctx.symtab(elf::SHT_SYMTAB)? {
        Some(t) => t,
        None => ctx.symtab(elf::SHT_DYNSYM)?.ok_or_else(|| config_err("the object has no symbol table"))?,
    };
    let mut out: Vec<(String, u64, u64, bool)> = Vec::new();
    for (index, sym) in table.enumerate() {
        let kernel = sym.st_type() == STT_AMDGPU_HSA_KERNEL;
        if !(sym.st_type() == elf::STT_FUNC || kernel) || sym.st_shndx(LE) == elf::SHN_UNDEF {
            continue;
        }
        let name = table.symbol_name(LE, sym).map_err(|e| ElfError::Malformed(format!("symbol name: {e}")))?;
        let name = String::from_utf8_lossy(name).into_owned();
        let offset = match placement.resolve(&table, index.0 as u32)? {
            SymValue::Image(off) if off < ctx.image_len() && off % 4 == 0 => off,
            _ => return Err(config_err(format!("function `{name}` is not at an aligned place in the image"))),
        };
        if !out.iter().any(|f| f.1 == offset) {
            out.push((name, offset, sym.st_size(LE), kernel));
        }
    }
    if out.is_empty() {
        return Err(config_err("the object has no function symbols"));
    }
    out.sort_by_key(|f| f.1);
    Ok(out)
}

/// Splits the config among `functions` functions. LLVM writes one run of pairs per
/// function, in the order it emits them, each ending with SPILLED_VGPRS; the runs differ in
/// length (4 pairs for most graphics stages, 5 for compute, 7 for pixel shaders), and local
/// functions have one too. radeonsi's `ac_shader_binary_config_start` instead gives each
/// *global* symbol an equal share, which is wrong as soon as a local helper function is
/// not inlined, so split at the terminators. A config without one is accepted whole for an
/// object of one function.
fn split_config(bytes: &[u8], functions: usize) -> Result<Vec<Vec<(u32, u32)>>, ElfError> {
    if bytes.len() % 8 != 0 {
        return Err(config_err(format!("its {} bytes are not whole (register, value) pairs", bytes.len())));
    }
    let word = |c: &[u8]| u32::from_le_bytes([c[0], c[1], c[2], c[3]]);
    let pairs: Vec<(u32, u32)> = bytes.chunks_exact(8).map(|c| (word(&c[..4]), word(&c[4..]))).collect();
    let mut chunks: Vec<Vec<(u32, u32)>> = Vec::new();
    let mut current = Vec::new();
    for &(r, v) in &pairs {
        current.push((r, v));
        if r == SPILLED_VGPRS {
            chunks.push(std::mem::take(&mut current));
        }
    }
    if chunks.is_empty() && functions == 1 {
        chunks.push(current);
    } else if !current.is_empty() {
        return Err(config_err(format!("{} pairs follow the last SPILLED_VGPRS", current.len())));
    }
    if chunks.len() != functions {
        return Err(config_err(format!("{} function configs for {functions} function symbols", chunks.len())));
    }
    Ok(chunks)
}

impl Function {
    fn err(&self, what: impl Into<String>) -> ElfError {
        ElfError::Function { function: self.name.clone(), what: what.into() }
    }

    /// The registers of a compute (`amdgpu_cs`) function, checked: an entry point (256-byte
    /// aligned, as LLVM aligns them and COMPUTE_PGM_LO needs), COMPUTE_PGM_RSRC1 and RSRC2
    /// present, each register at most once, nothing but RSRC1/2/3, TMPRING_SIZE and the spill
    /// counts.
    pub fn compute(&self) -> Result<ComputeConfig, ElfError> {
        if self.offset % 256 != 0 {
            return Err(self.err(format!(
                "its code at image offset {:#x} is not 256-byte aligned: a callable function, not an entry point",
                self.offset
            )));
        }
        if self.kernel {
            return Err(self.err(
                "an amdgpu_kernel (STT_AMDGPU_HSA_KERNEL; its code starts with an amd_kernel_code_t \
                 header): only amdgpu_cs functions are compute shaders here",
            ));
        }
        let (mut rsrc1, mut rsrc2, mut c) = (None, None, ComputeConfig::default());
        for (i, &(r, v)) in self.config.iter().enumerate() {
            if self.config[..i].iter().any(|&(seen, _)| seen == r) {
                return Err(self.err(format!("config register {} appears twice", config_register_name(r))));
            }
            match r {
                reg::COMPUTE_PGM_RSRC1 => rsrc1 = Some(v),
                reg::COMPUTE_PGM_RSRC2 => rsrc2 = Some(v),
                reg::COMPUTE_PGM_RSRC3 => c.rsrc3 = v,
                reg::COMPUTE_TMPRING_SIZE => c.tmpring_size = v,
                SPILLED_SGPRS => c.spilled_sgprs = v,
                SPILLED_VGPRS => c.spilled_vgprs = v,
                r if pm4::GRAPHICS_REGISTERS.iter().any(|(g, _)| *g == r) => {
                    return Err(self.err(format!(
                        "its config sets {} ({r:#x}), a graphics stage's register: not a compute (amdgpu_cs) function",
                        pm4::register_name(r)
                    )))
                }
                r => return Err(self.err(format!("unknown config register {}", config_register_name(r)))),
            }
        }
        let missing = |name: &str| self.err(format!("its config has no {name}"));
        c.rsrc1 = rsrc1.ok_or_else(|| missing("COMPUTE_PGM_RSRC1"))?;
        c.rsrc2 = rsrc2.ok_or_else(|| missing("COMPUTE_PGM_RSRC2"))?;
        if c.user_sgprs() > MAX_USER_SGPRS {
            return Err(self.err(format!("RSRC2.USER_SGPR is {}; a dispatch loads at most 16", c.user_sgprs())));
        }
        Ok(c)
    }
}

/// A config register's name and offset, e.g. `COMPUTE_PGM_RSRC1 (0xb848)`.
pub fn config_register_name(r: u32) -> String {
    match r {
        SPILLED_SGPRS => "SPILLED_SGPRS (0x4)".into(),
        SPILLED_VGPRS => "SPILLED_VGPRS (0x8)".into(),
        r => format!("{} ({r:#x})", pm4::register_name(r)),
    }
}

impl ComputeConfig {
    /// User SGPRs a dispatch loads: RSRC2.USER_SGPR, at least the 2 of the segment address
    /// (LLVM reserves s[0:1] for Mesa3D shaders and counts only those; for no OS it says 0).
    pub fn user_sgprs(&self) -> u32 {
        pm4::get(fields::COMPUTE_PGM_RSRC2::USER_SGPR, self.rsrc2).max(SEGMENT_SGPRS)
    }

    /// LDS bytes per workgroup (RSRC2.LDS_SIZE, 512-byte granules).
    pub fn lds_bytes(&self) -> u32 {
        pm4::get(fields::COMPUTE_PGM_RSRC2::LDS_SIZE, self.rsrc2) * 512
    }

    /// Scratch bytes per wave (TMPRING_SIZE.WAVESIZE, 256-byte granules on gfx11); LLVM
    /// computes it for the wave size it compiled for.
    pub fn scratch_bytes_per_wave(&self) -> u64 {
        pm4::get(fields::COMPUTE_TMPRING_SIZE::WAVESIZE, self.tmpring_size) as u64 * 256
    }

    /// VGPRs a lane gets (RSRC1.VGPRS granules: 8 in wave32, 4 in wave64 on gfx11).
    pub fn vgprs(&self, wave32: bool) -> u32 {
        (pm4::get(fields::COMPUTE_PGM_RSRC1::VGPRS, self.rsrc1) + 1) * if wave32 { 8 } else { 4 }
    }

    /// COMPUTE_PGM_RSRC2 as a dispatch programs it. LLVM knows nothing of the system SGPRs
    /// of an amdgpu_cs function (the driver passes them as `inreg` arguments), so, as
    /// radeonsi does, the driver sets them: workgroup ids x, y, z after the user SGPRs,
    /// work-item ids x, y, z packed in v0, no workgroup info; scratch on when the config
    /// gives scratch space. USER_SGPR, the trap and exception bits and LDS_SIZE are the
    /// config's.
    pub fn dispatch_rsrc2(&self) -> u32 {
        use fields::COMPUTE_PGM_RSRC2 as f;
        let mut r = pm4::set(f::USER_SGPR, self.rsrc2, self.user_sgprs());
        for (field, v) in [
            (f::SCRATCH_EN, (self.scratch_bytes_per_wave() > 0) as u32),
            (f::TGID_X_EN, 1),
            (f::TGID_Y_EN, 1),
            (f::TGID_Z_EN, 1),
            (f::TG_SIZE_EN, 0),
            (f::TIDIG_COMP_CNT, 2),
        ] {
            r = pm4::set(field, r, v);
        }
        r
    }

    /// What each user SGPR receives: (first SGPR, value, SGPR count). s[0:1] is the address of
    /// a segment laid out as a SPIR-V pipeline's kernarg segment; any further user SGPRs
    /// are the push constants' first dwords, in order.
    pub fn user_sgpr_values(&self) -> Vec<(u32, UserValue, u32)> {
        let mut out = vec![(0, UserValue::Kernarg, SEGMENT_SGPRS)];
        out.extend((SEGMENT_SGPRS..self.user_sgprs()).map(|s| (s, UserValue::PushDword(s - SEGMENT_SGPRS), 1)));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(list: &[(u32, u32)]) -> Vec<u8> {
        list.iter().flat_map(|(r, v)| r.to_le_bytes().into_iter().chain(v.to_le_bytes())).collect()
    }

    /// LLVM 19's config for `define amdgpu_cs void @f(i32 inreg %a, i32 %tid)` with 260
    /// bytes of scratch per lane (llc-19 -mtriple=amdgcn-mesa-mesa3d -mcpu=gfx1100).
    const LLC: [(u32, u32); 5] = [(0xb848, 0x602f_0000), (0xb84c, 5), (0xb860, 0x21000), (4, 0), (8, 0)];

    #[test]
    fn config_splits_at_spilled_vgprs() {
        let mut two = LLC.to_vec();
        two.extend_from_slice(&[(0xb028, 0), (0x286e8, 0), (0xb02c, 0), (0x286cc, 1), (0x286d0, 1), (4, 0), (8, 0)]);
        let chunks = split_config(&pairs(&two), 2).unwrap();
        assert_eq!((chunks[0].len(), chunks[1].len()), (5, 7));
        assert!(split_config(&pairs(&two), 3).unwrap_err().to_string().contains("2 function configs for 3"));
        assert!(split_config(&pairs(&two)[..pairs(&two).len() - 4], 2).unwrap_err().to_string().contains("pairs"));
        assert!(split_config(&pairs(&two)[..pairs(&two).len() - 8], 2).unwrap_err().to_string().contains("follow"));
        assert_eq!(split_config(&pairs(&LLC[..3]), 1).unwrap()[0].len(), 3);
    }

    fn function(config: &[(u32, u32)]) -> Function {
        Function { name: "f".into(), offset: 0, size: 4, kernel: false, config: config.to_vec() }
    }

    #[test]
    fn compute_config_is_checked_and_the_dispatch_sets_system_sgprs() {
        let c = function(&LLC).compute().unwrap();
        assert_eq!((c.user_sgprs(), c.scratch_bytes_per_wave(), c.lds_bytes(), c.vgprs(true)), (2, 0x21 * 256, 0, 8));
        // USER_SGPR 2, SCRATCH_EN, TGID_X/Y/Z_EN, TIDIG_COMP_CNT 2.
        assert_eq!(c.dispatch_rsrc2(), 1 | 2 << 1 | 7 << 7 | 2 << 11);
        assert_eq!(c.user_sgpr_values(), vec![(0, UserValue::Kernarg, 2)]);
        let no_scratch = ComputeConfig { tmpring_size: 0, rsrc2: 1 | 4 << 1 | 3 << 15, ..c };
        assert_eq!(no_scratch.dispatch_rsrc2(), 4 << 1 | 7 << 7 | 2 << 11 | 3 << 15);
        assert_eq!(no_scratch.lds_bytes(), 1536);
        assert_eq!(
            no_scratch.user_sgpr_values()[1..],
            [(2, UserValue::PushDword(0), 1), (3, UserValue::PushDword(1), 1)]
        );
        for (config, needle) in [
            (&LLC[1..], "no COMPUTE_PGM_RSRC1"),
            (&[LLC[0], LLC[2]][..], "no COMPUTE_PGM_RSRC2"),
            (&[LLC[0], LLC[1], LLC[0]][..], "COMPUTE_PGM_RSRC1 (0xb848) appears twice"),
            (&[(0xb028, 0)][..], "SPI_SHADER_PGM_RSRC1_PS (0xb028), a graphics stage's register"),
            (&[LLC[0], LLC[1], (0xb854, 0)][..], "unknown config register COMPUTE_RESOURCE_LIMITS (0xb854)"),
            (&[LLC[0], LLC[1], (0x1234, 0)][..], "unknown config register reg 0x1234 (0x1234)"),
            (&[LLC[0], (0xb84c, 17 << 1)][..], "USER_SGPR is 17"),
        ] {
            let e = function(config).compute().unwrap_err().to_string();
            assert!(e.contains(needle), "{e}");
        }
        let kernel = Function { kernel: true, ..function(&LLC) };
        assert!(kernel.compute().unwrap_err().to_string().contains("amdgpu_kernel"));
        let helper = Function { offset: 0x130, ..function(&LLC) };
        assert!(helper.compute().unwrap_err().to_string().contains("not an entry point"));
    }
}
