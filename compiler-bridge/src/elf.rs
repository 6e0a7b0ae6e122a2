//! AMDHSA code object loader (gfx11, code object v4/v5/v6), and the ELF layout it shares
//! with Mesa's flavour of code object ([`crate::mesa`]).
//!
//! Accepts linked objects (`ET_DYN`, from `ld.lld -shared`) and relocatable ones (`ET_REL`,
//! what `clang -c` and LLVM's in-process emitter produce), so in-process compilation needs no
//! linker. Either way the result is one flat *image*: the bytes to upload, where image offset
//! 0 is the load address. Relocations whose value does not depend on the load address are
//! applied once at parse time; the others are kept as fixups and applied by
//! [`CodeObject::image_at`].
//!
//! Every input is untrusted (a `VkShaderModule` may hold any bytes): all reads are checked and
//! every problem is an [`ElfError`], never a panic.

use object::elf;
use object::read::elf::{FileHeader, ProgramHeader, Rel, Rela, SectionHeader, SectionTable, Sym, SymbolTable};
use object::{LittleEndian as LE, SectionIndex, SymbolIndex};

use crate::mesa::{ConfigObject, ELFOSABI_AMDGPU_MESA3D};

type Elf64 = elf::FileHeader64<LE>;

/// Largest image we are willing to lay out: bounds the allocation a hostile `p_memsz` or
/// `SHT_NOBITS` size could cause.
const MAX_IMAGE_SIZE: u64 = 256 << 20;
/// Size of a kernel descriptor (`NAME.kd`).
pub const KERNEL_DESCRIPTOR_SIZE: u64 = 64;
/// `NT_AMDGPU_METADATA`, owner "AMDGPU": the msgpack metadata note.
const NT_AMDGPU_METADATA: u32 = 32;
/// `ELFOSABI_AMDGPU_HSA`.
const ELFOSABI_AMDGPU_HSA: u8 = 64;
/// `EF_AMDGPU_MACH` mask of `e_flags`.
const EF_AMDGPU_MACH: u32 = 0xff;

/// The gfx11 `EF_AMDGPU_MACH` values: the model runs gfx1100 code, and the other gfx11
/// targets share its instruction encoding.
const GFX11_MACHS: &[(u32, &str)] = &[
    (0x41, "gfx1100"),
    (0x46, "gfx1101"),
    (0x47, "gfx1102"),
    (0x44, "gfx1103"),
    (0x43, "gfx1150"),
    (0x4a, "gfx1151"),
    (0x55, "gfx1152"),
    (0x58, "gfx1153"),
    (0x54, "gfx11-generic"),
];

/// Why a code object was rejected.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ElfError {
    #[error("malformed ELF: {0}")]
    Malformed(String),
    #[error("not an AMDGPU code object: e_machine is {0}, expected EM_AMDGPU (224)")]
    WrongMachine(u16),
    #[error("unsupported GPU target: e_flags mach {0:#x}, expected a gfx11 target (gfx1100 is 0x41)")]
    UnsupportedMach(u32),
    #[error(
        "unsupported code object: EI_OSABI {os_abi}, EI_ABIVERSION {abi_version} \
         (need AMDHSA (64) with code object v4, v5 or v6 (ABI version 2, 3 or 4), or a Mesa \
         object with a .AMDGPU.config section: MESA3D (66) or no OS (0), ABI version 0)"
    )]
    UnsupportedVersion { os_abi: u8, abi_version: u8 },
    #[error("unsupported ELF type {0} (need ET_REL (1) or ET_DYN (3))")]
    UnsupportedType(u16),
    #[error("bad AMDGPU metadata: {0}")]
    Metadata(String),
    #[error("kernel `{kernel}`: {what}")]
    Kernel { kernel: String, what: String },
    #[error("bad .AMDGPU.config: {0}")]
    Config(String),
    #[error("function `{function}`: {what}")]
    Function { function: String, what: String },
    #[error("unsupported relocation {name} (type {r_type})")]
    UnsupportedRelocation { r_type: u32, name: &'static str },
    #[error("bad relocation: {0}")]
    Relocation(String),
    #[error("loadable image of {0} bytes is too large")]
    TooLarge(u64),
}

fn malformed(what: &str) -> impl FnOnce(object::read::Error) -> ElfError + '_ {
    move |e| ElfError::Malformed(format!("{what}: {e}"))
}

/// A parsed code object: the loadable image and its kernels.
#[derive(Clone, Debug)]
pub struct CodeObject {
    pub kernels: Vec<Kernel>,
    image: Image,
    version: u32,
    mach: u32,
}

/// One kernel of a code object.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Kernel {
    /// `.name` from the metadata (the source-level kernel name).
    pub name: String,
    /// `.symbol` from the metadata: the descriptor symbol, `NAME.kd`.
    pub symbol: String,
    /// Offset of the 64-byte kernel descriptor in the image.
    pub descriptor_offset: u64,
    pub descriptor: KernelDescriptor,
    pub metadata: KernelMetadata,
}

impl Kernel {
    /// Image offset of the first instruction.
    pub fn entry_offset(&self) -> u64 {
        self.descriptor_offset.wrapping_add_signed(self.descriptor.kernel_code_entry_byte_offset)
    }
}

/// The fields of an AMDHSA kernel descriptor that a dispatch needs (AMDGPUUsage, "Kernel
/// Descriptor"). RSRC1.SGPRS is reserved on gfx10+ and must be ignored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KernelDescriptor {
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub kernarg_size: u32,
    pub kernel_code_entry_byte_offset: i64,
    pub compute_pgm_rsrc3: u32,
    pub compute_pgm_rsrc1: u32,
    pub compute_pgm_rsrc2: u32,
    pub kernel_code_properties: u16,
    pub kernarg_preload: u16,
}

/// The user SGPRs a kernel descriptor can enable, in the order the hardware loads them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UserSgpr {
    PrivateSegmentBuffer,
    DispatchPtr,
    QueuePtr,
    KernargSegmentPtr,
    DispatchId,
    FlatScratchInit,
    PrivateSegmentSize,
}

/// (`kernel_code_properties` bit, user SGPR, SGPR count) in AMDGPUUsage order.
const USER_SGPRS: [(u16, UserSgpr, u32); 7] = [
    (0, UserSgpr::PrivateSegmentBuffer, 4),
    (1, UserSgpr::DispatchPtr, 2),
    (2, UserSgpr::QueuePtr, 2),
    (3, UserSgpr::KernargSegmentPtr, 2),
    (4, UserSgpr::DispatchId, 2),
    (5, UserSgpr::FlatScratchInit, 2),
    (6, UserSgpr::PrivateSegmentSize, 1),
];

impl KernelDescriptor {
    /// Decodes the 64 descriptor bytes.
    pub fn from_bytes(b: &[u8; 64]) -> Self {
        let u32_at = |o: usize| u32::from_le_bytes([b[o], b[o + 1], b[o + 2], b[o + 3]]);
        let u16_at = |o: usize| u16::from_le_bytes([b[o], b[o + 1]]);
        let mut entry = [0u8; 8];
        entry.copy_from_slice(&b[16..24]);
        KernelDescriptor {
            group_segment_fixed_size: u32_at(0),
            private_segment_fixed_size: u32_at(4),
            kernarg_size: u32_at(8),
            kernel_code_entry_byte_offset: i64::from_le_bytes(entry),
            compute_pgm_rsrc3: u32_at(44),
            compute_pgm_rsrc1: u32_at(48),
            compute_pgm_rsrc2: u32_at(52),
            kernel_code_properties: u16_at(56),
            kernarg_preload: u16_at(58),
        }
    }

    /// `ENABLE_WAVEFRONT_SIZE32` (kernel_code_properties bit 10).
    pub fn wave32(&self) -> bool {
        self.kernel_code_properties & (1 << 10) != 0
    }

    /// `USES_DYNAMIC_STACK` (kernel_code_properties bit 11).
    pub fn uses_dynamic_stack(&self) -> bool {
        self.kernel_code_properties & (1 << 11) != 0
    }

    /// The enabled user SGPRs as (what, first SGPR, SGPR count), packed from s0 up.
    pub fn user_sgpr_layout(&self) -> Vec<(UserSgpr, u32, u32)> {
        let mut next = 0;
        let mut out = Vec::new();
        for (bit, sgpr, count) in USER_SGPRS {
            if self.kernel_code_properties & (1 << bit) != 0 {
                out.push((sgpr, next, count));
                next += count;
            }
        }
        out
    }

    /// `COMPUTE_PGM_RSRC2.USER_SGPR_COUNT`: where the system SGPRs (workgroup ids, ...)
    /// start. LLVM may set it above the enabled user SGPRs (gfx11 pads it for kernarg
    /// preloading), so use this, not the length of `user_sgpr_layout`.
    pub fn user_sgpr_count(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> 1) & 0x1f
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_PRIVATE_SEGMENT` (scratch).
    pub fn private_segment_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 & 1 != 0
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_ID_{X,Y,Z}`.
    pub fn workgroup_id_enabled(&self) -> [bool; 3] {
        let r = self.compute_pgm_rsrc2;
        [r & (1 << 7) != 0, r & (1 << 8) != 0, r & (1 << 9) != 0]
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_SGPR_WORKGROUP_INFO`.
    pub fn workgroup_info_enabled(&self) -> bool {
        self.compute_pgm_rsrc2 & (1 << 10) != 0
    }

    /// `COMPUTE_PGM_RSRC2.ENABLE_VGPR_WORKITEM_ID`: 0 = x, 1 = x and y, 2 = x, y and z
    /// (packed into v0 on gfx11).
    pub fn workitem_id_dims(&self) -> u32 {
        (self.compute_pgm_rsrc2 >> 11) & 3
    }

    /// VGPRs to allocate per lane, from `COMPUTE_PGM_RSRC1.GRANULATED_WORKITEM_VGPR_COUNT`
    /// (granule 8 in wave32, 4 in wave64 on gfx11).
    pub fn vgpr_alloc(&self) -> u32 {
        let granule = if self.wave32() { 8 } else { 4 };
        ((self.compute_pgm_rsrc1 & 0x3f) + 1) * granule
    }
}

/// The per-kernel part of the `NT_AMDGPU_METADATA` note.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KernelMetadata {
    pub args: Vec<KernelArg>,
    pub kernarg_segment_size: u32,
    pub kernarg_segment_align: u32,
    pub wavefront_size: u32,
    pub sgpr_count: u32,
    pub vgpr_count: u32,
    pub group_segment_fixed_size: u32,
    pub private_segment_fixed_size: u32,
    pub reqd_workgroup_size: Option<[u32; 3]>,
    pub max_flat_workgroup_size: u32,
}

/// One entry of a kernel's `.args`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelArg {
    pub name: Option<String>,
    pub offset: u32,
    pub size: u32,
    /// `.value_kind`: `by_value`, `global_buffer`, `hidden_block_count_x`, ...
    pub value_kind: String,
    /// `.address_space` for pointers: `global`, `constant`, ...
    pub address_space: Option<String>,
    /// `.pointee_align` of `dynamic_shared_pointer` arguments.
    pub pointee_align: Option<u32>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum FixupKind {
    Abs64,
    Abs32,
    Abs32Lo,
    Abs32Hi,
}

/// One relocation of an ET_REL section; `addend` is `None` in SHT_REL (the addend is in the
/// relocated bytes).
struct Reloc {
    offset: u64,
    r_type: u32,
    sym: u32,
    addend: Option<i64>,
}

/// A load-address-dependent relocation: write `base + target` at `offset`.
#[derive(Clone, Copy, Debug)]
struct Fixup {
    offset: u64,
    kind: FixupKind,
    target: u64,
}

impl CodeObject {
    /// Parses and lays out a code object. Never panics.
    pub fn parse(bytes: &[u8]) -> Result<CodeObject, ElfError> {
        with_aligned(bytes, parse_aligned)
    }

    /// Bytes of the loadable image.
    pub fn image_size(&self) -> u64 {
        self.image.size()
    }

    /// The image to place at GPU virtual address `base_va`, with relocations applied.
    pub fn image_at(&self, base_va: u64) -> Vec<u8> {
        self.image.at(base_va)
    }

    pub fn image(&self) -> &Image {
        &self.image
    }

    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.kernels.iter().find(|k| k.name == name)
    }

    /// Code object version: 4, 5 or 6.
    pub fn code_object_version(&self) -> u32 {
        self.version
    }

    /// `e_flags` machine (`EF_AMDGPU_MACH`), e.g. 0x41 for gfx1100.
    pub fn mach(&self) -> u32 {
        self.mach
    }

    /// The target name of `mach()`, e.g. "gfx1100".
    pub fn target_name(&self) -> &'static str {
        target_name(self.mach)
    }
}

/// The name of a gfx11 `EF_AMDGPU_MACH`, e.g. "gfx1100".
pub(crate) fn target_name(mach: u32) -> &'static str {
    GFX11_MACHS.iter().find(|(m, _)| *m == mach).map_or("gfx11", |(_, n)| n)
}

/// A code object's loadable image: image offset 0 is the load address.
#[derive(Clone, Debug, Default)]
pub struct Image {
    /// Every load-address-independent relocation applied.
    bytes: Vec<u8>,
    /// Load-address-dependent relocations, applied by `at`.
    fixups: Vec<Fixup>,
}

impl Image {
    pub fn size(&self) -> u64 {
        self.bytes.len() as u64
    }

    /// The image to place at GPU virtual address `base_va`, with relocations applied.
    pub fn at(&self, base_va: u64) -> Vec<u8> {
        let mut image = self.bytes.clone();
        for f in &self.fixups {
            let v = base_va.wrapping_add(f.target);
            let bytes = match f.kind {
                FixupKind::Abs64 => v.to_le_bytes().to_vec(),
                FixupKind::Abs32 | FixupKind::Abs32Lo => (v as u32).to_le_bytes().to_vec(),
                FixupKind::Abs32Hi => ((v >> 32) as u32).to_le_bytes().to_vec(),
            };
            // Offsets were bounds-checked at parse time.
            let at = f.offset as usize;
            image[at..at + bytes.len()].copy_from_slice(&bytes);
        }
        image
    }
}

/// Either flavour of code object a shader module may hold.
#[derive(Clone, Debug)]
pub enum AnyObject {
    Hsa(CodeObject),
    Mesa(ConfigObject),
}

impl AnyObject {
    /// Parses an AMDGPU ELF of either flavour: `EI_OSABI` tells them apart (AMDHSA objects
    /// are 64; Mesa3D ones 66 and LLVM's no-OS ones 0, both with `.AMDGPU.config`).
    pub fn parse(bytes: &[u8]) -> Result<AnyObject, ElfError> {
        match bytes.get(7) {
            Some(&(ELFOSABI_AMDGPU_MESA3D | 0)) => ConfigObject::parse(bytes).map(AnyObject::Mesa),
            _ => CodeObject::parse(bytes).map(AnyObject::Hsa),
        }
    }
}

/// Runs `f` on a copy of `bytes` in 8-aligned storage: `object` reads headers in place and
/// needs them naturally aligned, and a VkShaderModule only guarantees 4 bytes.
pub(crate) fn with_aligned<T>(bytes: &[u8], f: impl FnOnce(&[u8]) -> T) -> T {
    let mut words = vec![0u64; bytes.len().div_ceil(8)];
    let dst = words_as_bytes_mut(&mut words);
    dst[..bytes.len()].copy_from_slice(bytes);
    f(&dst[..bytes.len()])
}

fn words_as_bytes_mut(words: &mut [u64]) -> &mut [u8] {
    // SAFETY: u64 has no padding and any byte pattern is a valid u8; the length is the
    // byte size of the same allocation, and the borrow of `words` is carried over.
    unsafe { std::slice::from_raw_parts_mut(words.as_mut_ptr().cast::<u8>(), std::mem::size_of_val(words)) }
}

/// What a symbol resolves to.
#[derive(Clone, Copy, Debug)]
pub(crate) enum SymValue {
    /// An image offset: its address is load base + offset.
    Image(u64),
    /// An absolute value, independent of the load base.
    Absolute(u64),
}

/// Everything shared by the ET_REL and ET_DYN paths.
pub(crate) struct Ctx<'a> {
    pub data: &'a [u8],
    pub sections: SectionTable<'a, Elf64, &'a [u8]>,
    image: Vec<u8>,
    fixups: Vec<Fixup>,
}

/// Where the sections of a laid-out object went: how its symbols resolve.
pub(crate) enum Placement {
    /// ET_REL: the image offset of each loaded section, by section index.
    Relocatable(Vec<Option<u64>>),
    /// ET_DYN: a defined symbol's value is its image offset.
    Linked,
}

/// The ELF header of an AMDGPU object (`e_machine` checked).
pub(crate) fn amdgpu_header(data: &[u8]) -> Result<&Elf64, ElfError> {
    let header = Elf64::parse(data).map_err(malformed("ELF header"))?;
    header.endian().map_err(malformed("ELF header"))?;
    let machine = header.e_machine(LE).0;
    if machine != elf::EM_AMDGPU.0 {
        return Err(ElfError::WrongMachine(machine));
    }
    Ok(header)
}

/// The object's `EF_AMDGPU_MACH`, which must be a gfx11 target.
pub(crate) fn gfx11_mach(header: &Elf64) -> Result<u32, ElfError> {
    let mach = header.e_flags(LE).0 & EF_AMDGPU_MACH;
    if !GFX11_MACHS.iter().any(|(m, _)| *m == mach) {
        return Err(ElfError::UnsupportedMach(mach));
    }
    Ok(mach)
}

fn parse_aligned(data: &[u8]) -> Result<CodeObject, ElfError> {
    let header = amdgpu_header(data)?;
    let ident = header.e_ident();
    let version = match (ident.os_abi.0, ident.abi_version) {
        (ELFOSABI_AMDGPU_HSA, 2) => 4,
        (ELFOSABI_AMDGPU_HSA, 3) => 5,
        (ELFOSABI_AMDGPU_HSA, 4) => 6,
        (os_abi, abi_version) => return Err(ElfError::UnsupportedVersion { os_abi, abi_version }),
    };
    let mach = gfx11_mach(header)?;
    let (ctx, placement) = Ctx::load(data, header)?;

    let metadata = ctx.metadata_note(header)?;
    let mut kernels = Vec::new();
    for (name, symbol, meta) in parse_metadata(&metadata)? {
        let kernel_err = |what: String| ElfError::Kernel { kernel: name.clone(), what };
        let descriptor_offset = match placement.lookup(&ctx, &symbol)? {
            Some(SymValue::Image(off)) => off,
            Some(SymValue::Absolute(_)) => return Err(kernel_err(format!("descriptor `{symbol}` is absolute"))),
            None => return Err(kernel_err(format!("descriptor symbol `{symbol}` not found"))),
        };
        let bytes: &[u8; 64] = descriptor_offset
            .checked_add(KERNEL_DESCRIPTOR_SIZE)
            .filter(|end| *end <= ctx.image.len() as u64)
            .and_then(|end| ctx.image.get(descriptor_offset as usize..end as usize))
            .and_then(|s| s.try_into().ok())
            .ok_or_else(|| kernel_err(format!("descriptor at {descriptor_offset:#x} lies outside the image")))?;
        let descriptor = KernelDescriptor::from_bytes(bytes);
        let kernel = Kernel { name: name.clone(), symbol, descriptor_offset, descriptor, metadata: meta };
        let entry = kernel.entry_offset();
        if descriptor_offset.checked_add_signed(descriptor.kernel_code_entry_byte_offset).is_none()
            || entry >= ctx.image.len() as u64
            || entry % 4 != 0
        {
            return Err(kernel_err(format!("code entry {entry:#x} lies outside the image or is misaligned")));
        }
        kernels.push(kernel);
    }
    if kernels.is_empty() {
        return Err(ElfError::Metadata("no kernels in amdhsa.kernels".into()));
    }
    Ok(CodeObject { kernels, image: ctx.into_image(), version, mach })
}

impl Placement {
    /// The value of the symbol named `name` (.symtab first, then .dynsym).
    pub(crate) fn lookup(&self, ctx: &Ctx, name: &str) -> Result<Option<SymValue>, ElfError> {
        let kinds: &[elf::SectionType] = match self {
            Placement::Relocatable(_) => &[elf::SHT_SYMTAB],
            Placement::Linked => &[elf::SHT_SYMTAB, elf::SHT_DYNSYM],
        };
        for &kind in kinds {
            if let Some(table) = ctx.symtab(kind)? {
                if let Some(index) = find_symbol(&table, name)? {
                    return self.resolve(&table, index.0 as u32).map(Some);
                }
            }
        }
        Ok(None)
    }

    /// The value of symbol `index` of `table`.
    pub(crate) fn resolve<'d>(
        &self,
        table: &SymbolTable<'d, Elf64, &'d [u8]>,
        index: u32,
    ) -> Result<SymValue, ElfError> {
        match self {
            Placement::Relocatable(bases) => rel_symbol(table, index, bases),
            Placement::Linked => dyn_symbol(table, index),
        }
    }
}

impl<'a> Ctx<'a> {
    /// Lays out the image of an ET_REL or ET_DYN object and applies its relocations.
    pub(crate) fn load(data: &'a [u8], header: &'a Elf64) -> Result<(Ctx<'a>, Placement), ElfError> {
        let sections = header.sections(LE, data).map_err(malformed("section headers"))?;
        let mut ctx = Ctx { data, sections, image: Vec::new(), fixups: Vec::new() };
        let e_type = header.e_type(LE).0;
        let placement = if e_type == elf::ET_REL.0 {
            ctx.layout_relocatable()?
        } else if e_type == elf::ET_DYN.0 {
            ctx.layout_linked(header)?
        } else {
            return Err(ElfError::UnsupportedType(e_type));
        };
        Ok((ctx, placement))
    }

    pub(crate) fn into_image(self) -> Image {
        Image { bytes: self.image, fixups: self.fixups }
    }

    pub(crate) fn image_len(&self) -> u64 {
        self.image.len() as u64
    }

    fn alloc_image(&mut self, size: u64) -> Result<(), ElfError> {
        if size > MAX_IMAGE_SIZE {
            return Err(ElfError::TooLarge(size));
        }
        self.image = vec![0; size as usize];
        Ok(())
    }

    pub(crate) fn symtab(
        &self,
        sh_type: elf::SectionType,
    ) -> Result<Option<SymbolTable<'a, Elf64, &'a [u8]>>, ElfError> {
        let table = self.sections.symbols(LE, self.data, sh_type).map_err(malformed("symbol table"))?;
        Ok(if table.is_empty() { None } else { Some(table) })
    }

    /// ET_REL: places every SHF_ALLOC section at its alignment, in section order, then
    /// applies the relocations of those sections.
    fn layout_relocatable(&mut self) -> Result<Placement, ElfError> {
        let mut bases: Vec<Option<u64>> = vec![None; self.sections.len()];
        let mut size: u64 = 0;
        for (index, s) in self.sections.enumerate() {
            if s.sh_flags(LE).0 & elf::SHF_ALLOC.0 == 0 {
                continue;
            }
            let align = s.sh_addralign(LE).max(1);
            if !align.is_power_of_two() || align > 1 << 16 {
                return Err(ElfError::Malformed(format!("section {} has alignment {align}", index.0)));
            }
            let base = size.next_multiple_of(align);
            size = base.checked_add(s.sh_size(LE)).ok_or(ElfError::TooLarge(u64::MAX))?;
            if size > MAX_IMAGE_SIZE {
                return Err(ElfError::TooLarge(size));
            }
            bases[index.0] = Some(base);
        }
        self.alloc_image(size)?;
        for (index, s) in self.sections.enumerate() {
            let Some(base) = bases[index.0] else { continue };
            if s.sh_type(LE) == elf::SHT_NOBITS {
                continue;
            }
            let bytes = s.data(LE, self.data).map_err(malformed("section data"))?;
            let len = bytes.len().min(s.sh_size(LE) as usize);
            self.image[base as usize..base as usize + len].copy_from_slice(&bytes[..len]);
        }

        let symtab = self.symtab(elf::SHT_SYMTAB)?;
        for (index, s) in self.sections.enumerate() {
            let Some((relocs, link)) = self.relocations(s)? else { continue };
            let target = s.info_link(LE);
            let Some(target_base) = bases.get(target.0).copied().flatten() else { continue };
            let target_size = self.sections.section(target).map_err(malformed("relocation target"))?.sh_size(LE);
            let table = match &symtab {
                Some(t) if t.section() == link => t,
                _ => {
                    return Err(ElfError::Relocation(format!(
                        "section {} links to section {}, which is not the symbol table",
                        index.0, link.0
                    )))
                }
            };
            for Reloc { offset: off, r_type, sym, addend } in relocs {
                let width = reloc_width(r_type)?;
                if off.checked_add(width).is_none_or(|end| end > target_size) {
                    return Err(ElfError::Relocation(format!(
                        "{} at {off:#x} is outside its {target_size}-byte section",
                        reloc_name(r_type)
                    )));
                }
                let p = target_base + off;
                let addend = match addend {
                    Some(a) => a,
                    None => self.implicit_addend(p, r_type)?,
                };
                let sym = rel_symbol(table, sym, &bases)?;
                self.apply(p, r_type, sym, addend)?;
            }
        }
        Ok(Placement::Relocatable(bases))
    }

    /// The relocations of section `s` and the symbol table section they use, when it is an
    /// SHT_RELA or SHT_REL section.
    fn relocations(&self, s: &elf::SectionHeader64<LE>) -> Result<Option<(Vec<Reloc>, SectionIndex)>, ElfError> {
        let bad = malformed("relocation section");
        if let Some((relas, link)) = s.rela(LE, self.data).map_err(bad)? {
            let list = relas.iter().map(|r| Reloc {
                offset: r.r_offset(LE),
                r_type: r.r_type(LE, false).0,
                sym: r.r_sym(LE, false),
                addend: Some(r.r_addend(LE)),
            });
            return Ok(Some((list.collect(), link)));
        }
        let Some((rels, link)) = s.rel(LE, self.data).map_err(malformed("relocation section"))? else {
            return Ok(None);
        };
        let list = rels.iter().map(|r| Reloc {
            offset: r.r_offset(LE),
            r_type: r.r_type(LE).0,
            sym: r.r_sym(LE),
            addend: None,
        });
        Ok(Some((list.collect(), link)))
    }

    /// The addend an SHT_REL relocation keeps in the bytes it relocates (what LLVM's
    /// assembler writes for the Mesa OS, and lld reads): the 32-bit field sign-extended, or
    /// the 64-bit one.
    fn implicit_addend(&self, p: u64, r_type: u32) -> Result<i64, ElfError> {
        let width = reloc_width(r_type)?;
        let mut b = [0u8; 8];
        // Callers checked `p + width <= image size`.
        b[..width as usize].copy_from_slice(&self.image[p as usize..(p + width) as usize]);
        match width {
            0 => Ok(0),
            4 => Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]) as i64),
            8 => Ok(i64::from_le_bytes(b)),
            _ => Err(ElfError::Relocation(format!("{} in SHT_REL (no addend to read)", reloc_name(r_type)))),
        }
    }

    /// ET_DYN: lays PT_LOAD segments out by p_vaddr (image offset = vaddr) and applies
    /// the dynamic relocations.
    fn layout_linked(&mut self, header: &Elf64) -> Result<Placement, ElfError> {
        let phdrs = header.program_headers(LE, self.data).map_err(malformed("program headers"))?;
        let loads: Vec<_> = phdrs.iter().filter(|p| p.p_type(LE) == elf::PT_LOAD).collect();
        let mut size: u64 = 0;
        for p in &loads {
            let end = p.p_vaddr(LE).checked_add(p.p_memsz(LE)).ok_or(ElfError::TooLarge(u64::MAX))?;
            if p.p_filesz(LE) > p.p_memsz(LE) {
                return Err(ElfError::Malformed("PT_LOAD with p_filesz > p_memsz".into()));
            }
            size = size.max(end);
        }
        if loads.is_empty() {
            return Err(ElfError::Malformed("ET_DYN without PT_LOAD segments".into()));
        }
        self.alloc_image(size)?;
        for p in &loads {
            let bytes = p
                .data(LE, self.data)
                .map_err(|()| ElfError::Malformed("PT_LOAD segment extends past the end of the file".into()))?;
            let at = p.p_vaddr(LE) as usize;
            self.image[at..at + bytes.len()].copy_from_slice(bytes);
        }

        // Dynamic relocations (.rela.dyn) are the SHF_ALLOC RELA sections; r_offset is a vaddr.
        for (index, s) in self.sections.enumerate() {
            if s.sh_flags(LE).0 & elf::SHF_ALLOC.0 == 0 {
                continue;
            }
            let Some((relas, link)) = s.rela(LE, self.data).map_err(malformed("relocation section"))? else {
                continue;
            };
            let table =
                if link.0 == 0 {
                    None
                } else {
                    let sh = self.sections.section(link).map_err(malformed("relocation symbol table"))?;
                    let table = sh.symbols(LE, self.data, &self.sections, link).map_err(malformed("symbol table"))?;
                    Some(table.ok_or_else(|| {
                        ElfError::Relocation(format!("section {} links to a non-symbol table", index.0))
                    })?)
                };
            for r in relas {
                let r_type = r.r_type(LE, false).0;
                let off = r.r_offset(LE);
                let width = reloc_width(r_type)?;
                if off.checked_add(width).is_none_or(|end| end > size) {
                    return Err(ElfError::Relocation(format!(
                        "{} at {off:#x} is outside the {size}-byte image (section {})",
                        reloc_name(r_type),
                        index.0
                    )));
                }
                let sym_index = r.r_sym(LE, false);
                let sym = match (&table, sym_index) {
                    (_, 0) => SymValue::Absolute(0),
                    (Some(t), i) => dyn_symbol(t, i)?,
                    (None, i) => return Err(ElfError::Relocation(format!("symbol {i} without a symbol table"))),
                };
                self.apply(off, r_type, sym, r.r_addend(LE))?;
            }
        }

        Ok(Placement::Linked)
    }

    /// Applies relocation `r_type` at image offset `p` (already bounds-checked), or records a
    /// fixup when the value depends on the load base.
    fn apply(&mut self, p: u64, r_type: u32, sym: SymValue, addend: i64) -> Result<(), ElfError> {
        let name = reloc_name(r_type);
        let pc_relative = || match sym {
            SymValue::Image(s) => Ok(s.wrapping_add_signed(addend).wrapping_sub(p)),
            SymValue::Absolute(_) => Err(ElfError::Relocation(format!("{name} against an absolute symbol"))),
        };
        let fixup = |kind: FixupKind, this: &mut Self| match sym {
            SymValue::Image(s) => {
                this.fixups.push(Fixup { offset: p, kind, target: s.wrapping_add_signed(addend) });
                Ok(())
            }
            SymValue::Absolute(s) => {
                let v = s.wrapping_add_signed(addend);
                match kind {
                    FixupKind::Abs64 => this.write(p, &v.to_le_bytes()),
                    FixupKind::Abs32 | FixupKind::Abs32Lo => this.write(p, &(v as u32).to_le_bytes()),
                    FixupKind::Abs32Hi => this.write(p, &((v >> 32) as u32).to_le_bytes()),
                }
                Ok(())
            }
        };
        match r_type {
            R_AMDGPU_NONE => Ok(()),
            R_AMDGPU_ABS32_LO => fixup(FixupKind::Abs32Lo, self),
            R_AMDGPU_ABS32_HI => fixup(FixupKind::Abs32Hi, self),
            R_AMDGPU_ABS64 => fixup(FixupKind::Abs64, self),
            R_AMDGPU_ABS32 => fixup(FixupKind::Abs32, self),
            R_AMDGPU_RELATIVE64 => {
                // B + A: the symbol is ignored.
                self.fixups.push(Fixup { offset: p, kind: FixupKind::Abs64, target: addend as u64 });
                Ok(())
            }
            R_AMDGPU_REL32 | R_AMDGPU_REL32_LO => {
                let v = pc_relative()?;
                self.write(p, &(v as u32).to_le_bytes());
                Ok(())
            }
            R_AMDGPU_REL32_HI => {
                let v = pc_relative()?;
                self.write(p, &((v >> 32) as u32).to_le_bytes());
                Ok(())
            }
            R_AMDGPU_REL64 => {
                let v = pc_relative()?;
                self.write(p, &v.to_le_bytes());
                Ok(())
            }
            R_AMDGPU_REL16 => {
                // Branch offset in dwords from the end of the 4-byte instruction.
                let v = (pc_relative()? as i64).wrapping_sub(4) / 4;
                let v = i16::try_from(v).map_err(|_| ElfError::Relocation(format!("{name} out of range")))?;
                self.write(p, &v.to_le_bytes());
                Ok(())
            }
            _ => Err(ElfError::UnsupportedRelocation { r_type, name }),
        }
    }

    fn write(&mut self, at: u64, bytes: &[u8]) {
        // Callers checked `at + width <= image size`.
        let at = at as usize;
        self.image[at..at + bytes.len()].copy_from_slice(bytes);
    }

    /// The desc of the NT_AMDGPU_METADATA note, from SHT_NOTE sections or else PT_NOTE.
    fn metadata_note(&self, header: &Elf64) -> Result<Vec<u8>, ElfError> {
        let mut iters = Vec::new();
        for s in self.sections.iter() {
            if let Some(notes) = s.notes(LE, self.data).map_err(malformed("note section"))? {
                iters.push(notes);
            }
        }
        if iters.is_empty() {
            let phdrs = header.program_headers(LE, self.data).map_err(malformed("program headers"))?;
            for p in phdrs {
                if let Some(notes) = p.notes(LE, self.data).map_err(malformed("note segment"))? {
                    iters.push(notes);
                }
            }
        }
        for mut notes in iters {
            while let Some(note) = notes.next().map_err(malformed("note"))? {
                if note.name() == b"AMDGPU" && note.n_type(LE).0 == NT_AMDGPU_METADATA {
                    return Ok(note.desc().to_vec());
                }
            }
        }
        Err(ElfError::Metadata("no NT_AMDGPU_METADATA note (owner \"AMDGPU\", type 32)".into()))
    }
}

fn find_symbol<'d>(table: &SymbolTable<'d, Elf64, &'d [u8]>, name: &str) -> Result<Option<SymbolIndex>, ElfError> {
    for (index, sym) in table.enumerate() {
        if table.symbol_name(LE, sym).map_err(malformed("symbol name"))? == name.as_bytes() {
            return Ok(Some(index));
        }
    }
    Ok(None)
}

/// `SHN_AMDGPU_LDS`: an LDS variable the driver places (its value is its alignment).
const SHN_AMDGPU_LDS: elf::SymbolSection = elf::SymbolSection(0xff00);

/// Why a relocation against an undefined or LDS symbol cannot be applied; names the
/// symbols radeonsi and ac_rtld resolve themselves.
fn unplaced_symbol(name: &[u8], shndx: elf::SymbolSection) -> ElfError {
    let name = String::from_utf8_lossy(name);
    ElfError::Relocation(if name.starts_with("SCRATCH_RSRC_DWORD") {
        format!(
            "relocation against `{name}`, where radeonsi patches in its scratch buffer descriptor: \
             not supported (gfx11 code reaches scratch through FLAT_SCRATCH)"
        )
    } else if shndx == SHN_AMDGPU_LDS {
        format!("relocation against the LDS variable `{name}` (a driver-placed external addrspace(3) global): not supported")
    } else {
        format!("undefined symbol `{name}`")
    })
}

/// Resolves symbol `index` of an ET_REL symbol table, given the image base of each section.
fn rel_symbol<'d>(
    table: &SymbolTable<'d, Elf64, &'d [u8]>,
    index: u32,
    bases: &[Option<u64>],
) -> Result<SymValue, ElfError> {
    let index = SymbolIndex(index as usize);
    let sym = table.symbol(index).map_err(malformed("relocation symbol"))?;
    let value = sym.st_value(LE);
    let shndx = sym.st_shndx(LE);
    if shndx == elf::SHN_ABS {
        return Ok(SymValue::Absolute(value));
    }
    if shndx == elf::SHN_UNDEF && sym.st_bind() == elf::STB_WEAK {
        return Ok(SymValue::Absolute(0));
    }
    if shndx == elf::SHN_UNDEF || shndx == SHN_AMDGPU_LDS {
        return Err(unplaced_symbol(table.symbol_name(LE, sym).unwrap_or(b"?"), shndx));
    }
    let section: Option<SectionIndex> = table.symbol_section(LE, sym, index).map_err(malformed("symbol section"))?;
    match section.and_then(|s| bases.get(s.0).copied().flatten()) {
        Some(base) => Ok(SymValue::Image(base.wrapping_add(value))),
        None => Err(ElfError::Relocation(format!("symbol {} is in a section that is not loaded", index.0))),
    }
}

/// Resolves symbol `index` of an ET_DYN symbol table: defined symbols are vaddrs.
fn dyn_symbol<'d>(table: &SymbolTable<'d, Elf64, &'d [u8]>, index: u32) -> Result<SymValue, ElfError> {
    let sym = table.symbol(SymbolIndex(index as usize)).map_err(malformed("relocation symbol"))?;
    let shndx = sym.st_shndx(LE);
    if shndx == elf::SHN_ABS {
        Ok(SymValue::Absolute(sym.st_value(LE)))
    } else if shndx == elf::SHN_UNDEF && sym.st_bind() == elf::STB_WEAK {
        Ok(SymValue::Absolute(0))
    } else if shndx == elf::SHN_UNDEF || shndx == SHN_AMDGPU_LDS {
        Err(unplaced_symbol(table.symbol_name(LE, sym).unwrap_or(b"?"), shndx))
    } else {
        Ok(SymValue::Image(sym.st_value(LE)))
    }
}

const R_AMDGPU_NONE: u32 = 0;
const R_AMDGPU_ABS32_LO: u32 = 1;
const R_AMDGPU_ABS32_HI: u32 = 2;
const R_AMDGPU_ABS64: u32 = 3;
const R_AMDGPU_REL32: u32 = 4;
const R_AMDGPU_REL64: u32 = 5;
const R_AMDGPU_ABS32: u32 = 6;
const R_AMDGPU_REL32_LO: u32 = 10;
const R_AMDGPU_REL32_HI: u32 = 11;
const R_AMDGPU_RELATIVE64: u32 = 13;
const R_AMDGPU_REL16: u32 = 14;

fn reloc_name(r_type: u32) -> &'static str {
    match r_type {
        0 => "R_AMDGPU_NONE",
        1 => "R_AMDGPU_ABS32_LO",
        2 => "R_AMDGPU_ABS32_HI",
        3 => "R_AMDGPU_ABS64",
        4 => "R_AMDGPU_REL32",
        5 => "R_AMDGPU_REL64",
        6 => "R_AMDGPU_ABS32",
        7 => "R_AMDGPU_GOTPCREL",
        8 => "R_AMDGPU_GOTPCREL32_LO",
        9 => "R_AMDGPU_GOTPCREL32_HI",
        10 => "R_AMDGPU_REL32_LO",
        11 => "R_AMDGPU_REL32_HI",
        13 => "R_AMDGPU_RELATIVE64",
        14 => "R_AMDGPU_REL16",
        _ => "unknown",
    }
}

/// Bytes written by relocation `r_type`, or the error for the ones we do not apply.
fn reloc_width(r_type: u32) -> Result<u64, ElfError> {
    match r_type {
        R_AMDGPU_NONE => Ok(0),
        R_AMDGPU_REL16 => Ok(2),
        R_AMDGPU_ABS64 | R_AMDGPU_REL64 | R_AMDGPU_RELATIVE64 => Ok(8),
        R_AMDGPU_ABS32_LO | R_AMDGPU_ABS32_HI | R_AMDGPU_REL32 | R_AMDGPU_ABS32 | R_AMDGPU_REL32_LO
        | R_AMDGPU_REL32_HI => Ok(4),
        _ => Err(ElfError::UnsupportedRelocation { r_type, name: reloc_name(r_type) }),
    }
}

// ---- metadata -------------------------------------------------------------------------

use rmpv::Value;

fn meta_err(what: impl Into<String>) -> ElfError {
    ElfError::Metadata(what.into())
}

fn map_get<'v>(map: &'v [(Value, Value)], key: &str) -> Option<&'v Value> {
    map.iter().find(|(k, _)| k.as_str() == Some(key)).map(|(_, v)| v)
}

fn get_u32(map: &[(Value, Value)], key: &str, ctx: &str) -> Result<Option<u32>, ElfError> {
    match map_get(map, key) {
        None => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|n| u32::try_from(n).ok())
            .map(Some)
            .ok_or_else(|| meta_err(format!("{ctx}: `{key}` is not a 32-bit unsigned integer"))),
    }
}

fn get_str(map: &[(Value, Value)], key: &str, ctx: &str) -> Result<Option<String>, ElfError> {
    match map_get(map, key) {
        None => Ok(None),
        Some(v) => {
            v.as_str().map(|s| Some(s.to_owned())).ok_or_else(|| meta_err(format!("{ctx}: `{key}` is not a string")))
        }
    }
}

/// Parses the metadata msgpack into (name, symbol, metadata) per kernel.
fn parse_metadata(bytes: &[u8]) -> Result<Vec<(String, String, KernelMetadata)>, ElfError> {
    let root =
        rmpv::decode::read_value_with_max_depth(&mut &bytes[..], 16).map_err(|e| meta_err(format!("msgpack: {e}")))?;
    let root = root.as_map().ok_or_else(|| meta_err("root is not a map"))?;
    let kernels = map_get(root, "amdhsa.kernels")
        .ok_or_else(|| meta_err("no `amdhsa.kernels`"))?
        .as_array()
        .ok_or_else(|| meta_err("`amdhsa.kernels` is not an array"))?;
    let mut out = Vec::with_capacity(kernels.len());
    for (i, k) in kernels.iter().enumerate() {
        let k = k.as_map().ok_or_else(|| meta_err(format!("kernel {i} is not a map")))?;
        let ctx = format!("kernel {i}");
        let req_str = |key| get_str(k, key, &ctx)?.ok_or_else(|| meta_err(format!("{ctx}: missing `{key}`")));
        let req_u32 = |key| get_u32(k, key, &ctx)?.ok_or_else(|| meta_err(format!("{ctx}: missing `{key}`")));
        let opt_u32 = |key| Ok::<_, ElfError>(get_u32(k, key, &ctx)?.unwrap_or(0));
        let name = req_str(".name")?;
        let symbol = req_str(".symbol")?;
        let reqd_workgroup_size = match map_get(k, ".reqd_workgroup_size") {
            None => None,
            Some(v) => {
                let a = v.as_array().filter(|a| a.len() == 3);
                let dims: Option<Vec<u32>> = a.map(|a| a.iter().filter_map(|d| d.as_u64()?.try_into().ok()).collect());
                match dims {
                    Some(d) if d.len() == 3 => Some([d[0], d[1], d[2]]),
                    _ => return Err(meta_err(format!("{ctx}: `.reqd_workgroup_size` is not 3 integers"))),
                }
            }
        };
        let mut args = Vec::new();
        if let Some(list) = map_get(k, ".args") {
            let list = list.as_array().ok_or_else(|| meta_err(format!("{ctx}: `.args` is not an array")))?;
            for (j, a) in list.iter().enumerate() {
                let actx = format!("{ctx} arg {j}");
                let a = a.as_map().ok_or_else(|| meta_err(format!("{actx} is not a map")))?;
                let missing = |key: &str| meta_err(format!("{actx}: missing `{key}`"));
                args.push(KernelArg {
                    name: get_str(a, ".name", &actx)?,
                    offset: get_u32(a, ".offset", &actx)?.ok_or_else(|| missing(".offset"))?,
                    size: get_u32(a, ".size", &actx)?.ok_or_else(|| missing(".size"))?,
                    value_kind: get_str(a, ".value_kind", &actx)?.ok_or_else(|| missing(".value_kind"))?,
                    address_space: get_str(a, ".address_space", &actx)?,
                    pointee_align: get_u32(a, ".pointee_align", &actx)?,
                });
            }
        }
        let meta = KernelMetadata {
            args,
            kernarg_segment_size: req_u32(".kernarg_segment_size")?,
            kernarg_segment_align: req_u32(".kernarg_segment_align")?,
            wavefront_size: req_u32(".wavefront_size")?,
            sgpr_count: opt_u32(".sgpr_count")?,
            vgpr_count: opt_u32(".vgpr_count")?,
            group_segment_fixed_size: opt_u32(".group_segment_fixed_size")?,
            private_segment_fixed_size: opt_u32(".private_segment_fixed_size")?,
            reqd_workgroup_size,
            max_flat_workgroup_size: opt_u32(".max_flat_workgroup_size")?,
        };
        out.push((name, symbol, meta));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_sgpr_layout_follows_enable_bits() {
        let kd = KernelDescriptor { kernel_code_properties: 0b0010_1001 | (1 << 10), ..Default::default() };
        assert!(kd.wave32());
        assert_eq!(
            kd.user_sgpr_layout(),
            vec![
                (UserSgpr::PrivateSegmentBuffer, 0, 4),
                (UserSgpr::KernargSegmentPtr, 4, 2),
                (UserSgpr::FlatScratchInit, 6, 2),
            ]
        );
    }

    #[test]
    fn descriptor_fields_are_at_documented_offsets() {
        let mut b = [0u8; 64];
        b[0..4].copy_from_slice(&1u32.to_le_bytes());
        b[4..8].copy_from_slice(&2u32.to_le_bytes());
        b[8..12].copy_from_slice(&3u32.to_le_bytes());
        b[16..24].copy_from_slice(&(-256i64).to_le_bytes());
        b[44..48].copy_from_slice(&4u32.to_le_bytes());
        b[48..52].copy_from_slice(&5u32.to_le_bytes());
        b[52..56].copy_from_slice(&6u32.to_le_bytes());
        b[56..58].copy_from_slice(&7u16.to_le_bytes());
        b[58..60].copy_from_slice(&8u16.to_le_bytes());
        let kd = KernelDescriptor::from_bytes(&b);
        assert_eq!(
            kd,
            KernelDescriptor {
                group_segment_fixed_size: 1,
                private_segment_fixed_size: 2,
                kernarg_size: 3,
                kernel_code_entry_byte_offset: -256,
                compute_pgm_rsrc3: 4,
                compute_pgm_rsrc1: 5,
                compute_pgm_rsrc2: 6,
                kernel_code_properties: 7,
                kernarg_preload: 8,
            }
        );
    }

    #[test]
    fn garbage_is_an_error() {
        for input in [&b""[..], b"\x7fELF", &[0u8; 64][..], &[0xffu8; 200][..]] {
            assert!(CodeObject::parse(input).is_err());
        }
    }
}
