//! Where the code is: the executable sections of the ELF and the function symbols in them,
//! at the addresses `llvm-objdump` prints (`st_value` for linked objects, section address
//! plus `st_value` for relocatable ones).

use object::read::elf::ElfFile64;
use object::{LittleEndian, Object, ObjectKind, ObjectSection, ObjectSymbol, SymbolKind, SymbolSection};

use gpu::isa::program::Program;

/// One executable section.
pub struct CodeSection {
    pub name: String,
    pub addr: u64,
    pub bytes: Vec<u8>,
    /// Function symbols in it, sorted by address, one per address.
    pub labels: Vec<Label>,
}

/// A function symbol (or a kernel entry found through its descriptor).
#[derive(Clone, Debug)]
pub struct Label {
    pub name: String,
    pub addr: u64,
    /// `st_size`; `None` when unknown (the code then runs to the next label).
    pub size: Option<u64>,
}

/// What the ELF holds besides the loader's view of it.
pub struct Layout {
    pub sections: Vec<CodeSection>,
    /// Addresses of the data symbols (the `NAME.kd` descriptors among them), by name.
    pub data_symbols: Vec<(String, u64)>,
    pub relocatable: bool,
}

/// Reads the executable sections and symbols of `bytes` (already accepted by
/// `CodeObject::parse`, but every read is still checked).
pub fn layout(bytes: &[u8]) -> Result<Layout, String> {
    // `object` reads headers in place and needs them aligned: copy to an 8-aligned offset.
    let mut storage = vec![0u8; bytes.len() + 8];
    let pad = storage.as_ptr().align_offset(8).min(8);
    storage[pad..pad + bytes.len()].copy_from_slice(bytes);
    let data = &storage[pad..pad + bytes.len()];

    let file = ElfFile64::<LittleEndian>::parse(data).map_err(|e| format!("malformed ELF: {e}"))?;
    let relocatable = file.kind() == ObjectKind::Relocatable;
    let mut sections = Vec::new();
    for s in file.sections() {
        if s.kind() != object::SectionKind::Text {
            continue;
        }
        let name = s.name().unwrap_or("?").to_string();
        let data = s.data().map_err(|e| format!("malformed ELF: section {name}: {e}"))?;
        if s.address().checked_add(data.len() as u64).is_none() {
            return Err(format!(
                "malformed ELF: section {name} at {:#x} runs past the end of the address space",
                s.address()
            ));
        }
        sections.push((s.index(), CodeSection { name, addr: s.address(), bytes: data.to_vec(), labels: Vec::new() }));
    }

    let mut data_symbols = Vec::new();
    // .symtab has the local functions too; .dynsym is what is left of a stripped object.
    let tables = [file.symbols().collect::<Vec<_>>(), file.dynamic_symbols().collect::<Vec<_>>()];
    for table in &tables {
        for sym in table {
            let (SymbolSection::Section(index), Ok(name)) = (sym.section(), sym.name()) else { continue };
            if name.is_empty() {
                continue;
            }
            let base = if relocatable {
                match file.section_by_index(index) {
                    Ok(s) => s.address(),
                    Err(_) => continue,
                }
            } else {
                0
            };
            let addr = base.wrapping_add(sym.address());
            match sym.kind() {
                SymbolKind::Text => {
                    let Some((_, section)) = sections.iter_mut().find(|(i, _)| *i == index) else { continue };
                    // A symbol outside its section (malformed) or a second name for an address.
                    if !section.contains(addr) || section.labels.iter().any(|l| l.addr == addr) {
                        continue;
                    }
                    section.labels.push(Label { name: name.to_string(), addr, size: Some(sym.size()) });
                }
                SymbolKind::Data if !data_symbols.iter().any(|(n, _)| n == name) => {
                    data_symbols.push((name.to_string(), addr));
                }
                _ => {}
            }
        }
    }
    let mut sections: Vec<CodeSection> = sections.into_iter().map(|(_, s)| s).collect();
    for s in &mut sections {
        s.labels.sort_by_key(|l| l.addr);
    }
    Ok(Layout { sections, data_symbols, relocatable })
}

impl CodeSection {
    pub fn contains(&self, addr: u64) -> bool {
        addr >= self.addr && addr - self.addr < self.bytes.len() as u64
    }

    pub fn end(&self) -> u64 {
        self.addr + self.bytes.len() as u64
    }

    /// Adds a label unless one is already at `addr`; keeps the labels sorted.
    pub fn add_label(&mut self, label: Label) {
        if let Err(at) = self.labels.binary_search_by_key(&label.addr, |l| l.addr) {
            self.labels.insert(at, label);
        }
    }

    /// The bytes of `[start, end)` (clamped to the section).
    pub fn slice(&self, start: u64, end: u64) -> &[u8] {
        let lo = start.saturating_sub(self.addr).min(self.bytes.len() as u64) as usize;
        let hi = end.saturating_sub(self.addr).min(self.bytes.len() as u64) as usize;
        &self.bytes[lo..hi.max(lo)]
    }
}

/// Disassembles `bytes` (at address `addr`): one line per instruction, `<text>  //
/// <address>: <words>`, as `Program::describe` prints it. Decoding goes on past
/// `s_code_end` and undecodable words to the end of `bytes`; a tail shorter than a dword is
/// reported.
pub fn disassemble(out: &mut String, addr: u64, bytes: &[u8], wave64: bool) {
    let words: Vec<u32> = bytes.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect();
    let mut at = 0usize;
    while at < words.len() {
        let base = addr + 4 * at as u64;
        let program = Program::decode(base, &words[at..], wave64);
        let count = program.insts().len();
        for idx in 0..count {
            out.push_str(&program.describe(idx));
            out.push('\n');
        }
        let consumed = ((program.addr(count) - base) / 4) as usize;
        if consumed == 0 {
            break;
        }
        at += consumed;
    }
    let tail = bytes.len() % 4;
    if tail != 0 {
        let start = bytes.len() - tail;
        let hex: Vec<String> = bytes[start..].iter().map(|b| format!("{b:02X}")).collect();
        out.push_str(&format!("// {:012X}: {} ({tail} trailing bytes)\n", addr + start as u64, hex.join(" ")));
    }
}
