//! Chip parameters and runtime configuration: everything the ICD needs to describe the
//! device truthfully, in one struct (like Mesa's `radeon_info`).

use std::time::Duration;

use crate::spi::{AlignMode, VmidRegs};

/// What softnavi models: a Navi 31 (Radeon RX 7900 XTX class) gfx1100.
#[derive(Clone, Debug)]
pub struct ChipInfo {
    pub name: &'static str,
    /// The board's marketing name (what amdgpu.ids gives for the PCI id and revision).
    pub marketing_name: &'static str,
    /// LLVM processor name.
    pub gfx_target: &'static str,
    pub vendor_id: u32,
    pub device_id: u32,
    /// PCI revision id (0xC8: the RX 7900 XTX's).
    pub pci_revision: u32,
    /// The amdgpu kernel driver's chip family and external revision (Mesa's
    /// `FAMILY_GFX1100` and `AMDGPU_GFX1100_RANGE`; the kernel adds 1 to the ASIC revision).
    pub amdgpu_family: u32,
    pub chip_external_rev: u32,
    /// Shader engines and shader arrays per engine: with `num_wgps`, the CU layout (Navi 31:
    /// 6 SEs of 2 SAs of 4 WGPs, 96 CUs).
    pub num_shader_engines: u32,
    pub shader_arrays_per_engine: u32,
    /// GB_ADDR_CONFIG: 32 pipes, 256-byte pipe interleave, 32 packers. The swizzle patterns
    /// of crate::addr are addrlib's for this value.
    pub gb_addr_config: u32,
    /// L2 cache channels (TCC blocks) of 256 KiB: Navi 31's 6 MiB.
    pub num_tcc_blocks: u32,
    /// Render backends (the model has no graphics; reported as the chip has them).
    pub num_rbs: u32,
    /// Peak shader and memory clocks in kHz, and the memory bus (GDDR6, 384 bits).
    pub max_engine_clock_khz: u64,
    pub max_memory_clock_khz: u64,
    pub vram_bit_width: u32,
    /// Modelled workgroup processors (used for occupancy figures, not for threads).
    pub num_wgps: u32,
    pub simds_per_wgp: u32,
    pub max_waves_per_simd: u32,
    pub vgprs_per_simd_lane: u32,
    pub lds_per_workgroup: u32,
    pub max_workgroup_size: u32,
    /// Frequency of the GPU timestamp counter (RELEASE_MEM / COPY_DATA timestamps).
    pub timestamp_hz: u64,
    /// Host worker threads executing workgroups.
    pub worker_threads: usize,
    /// Bytes of GPU memory that can be allocated.
    pub memory_size: u64,
    /// Waves whose scratch can be live at once: the scratch ring needs this many slots.
    pub scratch_wave_slots: u32,
}

/// How long a dispatch (or a CP wait) may run before it is a GPU hang, by default: ten
/// minutes. amdgpu gives a compute job 10 to 60 s on hardware that runs shaders on the
/// order of a thousand times faster than this model, so work that is legitimate there can
/// take minutes here; a shader that really hangs is reported after ten minutes, or sooner
/// with `SOFTNAVI_HANG_TIMEOUT_MS` (the tests that provoke hangs set a short one).
pub const DEFAULT_HANG_TIMEOUT: Duration = Duration::from_secs(600);

/// Waves a program launches before `SOFTNAVI_JIT=auto` translates it: a dispatch of 64
/// waves or more is translated at once (in the background, as its first waves run), a
/// program dispatched as a few waves at a time once it has run 64 (a conformance suite's
/// programs mostly never are: each would cost LLVM a compile and save nothing).
pub const DEFAULT_JIT_HOT_WAVES: u64 = 64;

/// Runtime knobs, from `SOFTNAVI_*` environment variables by default.
#[derive(Clone, Debug)]
pub struct Config {
    /// `SOFTNAVI_THREADS`: host threads running the workgroups of a dispatch (default:
    /// available cores): the queue's CP thread and `threads - 1` pool threads.
    pub threads: usize,
    /// `SOFTNAVI_HANG_TIMEOUT_MS`: a dispatch or CP wait running longer is a GPU hang
    /// (default [`DEFAULT_HANG_TIMEOUT`]).
    pub hang_timeout: Duration,
    /// `SOFTNAVI_MEMORY_MB`: GPU memory size (default 4096).
    pub memory_size: u64,
    /// `SOFTNAVI_PM4_TRACE=1`: the CP prints every packet it executes to stderr.
    pub pm4_trace: bool,
    /// The per-VMID registers the kernel driver would program (SH_MEM_CONFIG and
    /// SH_MEM_BASES); `SOFTNAVI_ALIGNMENT_MODE` (`dword`, `dword_strict`, `strict` or
    /// `unaligned`, the default) sets SH_MEM_CONFIG.ALIGNMENT_MODE.
    pub vmid: VmidRegs,
    /// `SOFTNAVI_CHECK=1`: every wave runs under the debug checker (results used before
    /// their s_waitcnt, S_CLAUSE and S_DELAY_ALU rules; RDNA3-NOTES,
    /// "Memory counters and s_waitcnt", "Instruction clauses" and "ALU delay hints"), which
    /// reports a broken rule as a wave fault. Off by default: it takes the executor off its
    /// fast path.
    pub check: bool,
    /// `SOFTNAVI_JIT` (`auto`, `on`, `off`): how programs are run (crate::jit).
    pub jit: crate::jit::JitMode,
    /// `SOFTNAVI_JIT_HOT_WAVES`: under `auto`, the waves a program launches (over all its
    /// dispatches) before it is translated.
    pub jit_hot_waves: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
            hang_timeout: DEFAULT_HANG_TIMEOUT,
            memory_size: 4096 << 20,
            pm4_trace: false,
            vmid: VmidRegs::default(),
            check: false,
            jit: crate::jit::JitMode::Auto,
            jit_hot_waves: DEFAULT_JIT_HOT_WAVES,
        }
    }
}

impl Config {
    pub fn from_env() -> Config {
        let mut c = Config::default();
        let num = |k: &str| std::env::var(k).ok().and_then(|v| v.trim().parse::<u64>().ok());
        if let Some(t) = num("SOFTNAVI_THREADS").filter(|t| *t > 0) {
            c.threads = t.min(256) as usize;
        }
        if let Some(ms) = num("SOFTNAVI_HANG_TIMEOUT_MS").filter(|m| *m > 0) {
            c.hang_timeout = Duration::from_millis(ms);
        }
        if let Some(mb) = num("SOFTNAVI_MEMORY_MB").filter(|m| *m > 0) {
            c.memory_size = mb << 20;
        }
        c.pm4_trace = num("SOFTNAVI_PM4_TRACE").is_some_and(|v| v != 0);
        c.check = num("SOFTNAVI_CHECK").is_some_and(|v| v != 0);
        if let Some(w) = num("SOFTNAVI_JIT_HOT_WAVES") {
            c.jit_hot_waves = w;
        }
        if let Ok(v) = std::env::var("SOFTNAVI_JIT") {
            match crate::jit::JitMode::parse(&v) {
                Some(m) => c.jit = m,
                None => tracing::warn!("SOFTNAVI_JIT={v} is not auto, on or off"),
            }
        }
        if let Ok(v) = std::env::var("SOFTNAVI_ALIGNMENT_MODE") {
            let mode = match v.trim() {
                "dword" => Some(AlignMode::Dword),
                "dword_strict" => Some(AlignMode::DwordStrict),
                "strict" => Some(AlignMode::Strict),
                "unaligned" => Some(AlignMode::Unaligned),
                _ => None,
            };
            match mode {
                Some(m) => c.vmid = c.vmid.with_alignment(m),
                None => tracing::warn!("SOFTNAVI_ALIGNMENT_MODE={v} is not dword, dword_strict, strict or unaligned"),
            }
        }
        c
    }

    pub fn chip_info(&self) -> ChipInfo {
        ChipInfo {
            name: "AMD Radeon RX 7900 XTX (softnavi RDNA3 gfx1100)",
            marketing_name: "AMD Radeon RX 7900 XTX",
            gfx_target: "gfx1100",
            vendor_id: 0x1002,
            device_id: 0x744c,
            pci_revision: 0xc8,
            amdgpu_family: 145,
            chip_external_rev: 0x01,
            num_shader_engines: 6,
            shader_arrays_per_engine: 2,
            gb_addr_config: 0x505,
            num_tcc_blocks: 24,
            num_rbs: 24,
            max_engine_clock_khz: 2_500_000,
            max_memory_clock_khz: 1_250_000,
            vram_bit_width: 384,
            num_wgps: 48,
            simds_per_wgp: 4,
            max_waves_per_simd: 16,
            vgprs_per_simd_lane: 1536,
            lds_per_workgroup: 64 * 1024,
            max_workgroup_size: 1024,
            timestamp_hz: 100_000_000,
            worker_threads: self.threads,
            memory_size: self.memory_size,
            // One workgroup of at most 32 waves per worker thread is live at a time.
            scratch_wave_slots: self.threads as u32 * 32,
        }
    }
}
