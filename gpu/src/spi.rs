//! The shader processor input (SPI): turns a dispatch (a snapshot of the COMPUTE_*
//! registers) into workgroups and gives each wave the launch state the hardware would
//! (RDNA3-NOTES, "Wave launch state"; AMDGPUUsage, "initial kernel execution state").

use crate::isa::exec::Wave;
use crate::pm4::{initiator, reg};

/// Everything about a dispatch that the SPI and the waves need.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dispatch {
    pub pgm: u64,
    pub rsrc1: u32,
    pub rsrc2: u32,
    pub rsrc3: u32,
    pub user_data: [u32; 16],
    /// NUM_THREAD_FULL per dimension.
    pub threads: [u32; 3],
    /// NUM_THREAD_PARTIAL per dimension (used for the last group when PARTIAL_TG_EN).
    pub partial: [u32; 3],
    /// First workgroup id per dimension (COMPUTE_START_*, or 0 with FORCE_START_AT_000).
    pub start: [u32; 3],
    /// One past the last workgroup id per dimension (the DISPATCH packet's dims).
    pub end: [u32; 3],
    pub initiator: u32,
    pub tmpring_size: u32,
    pub scratch_base: u64,
    /// The VMID's privileged registers, as the queue had them at the dispatch.
    pub vmid: VmidRegs,
    /// Run the waves under the debug checker (`Config::check`, `SOFTNAVI_CHECK`).
    pub check: bool,
}

/// SH_MEM_CONFIG.ALIGNMENT_MODE: how vector memory and LDS accesses must be aligned
/// (RDNA3-NOTES, "Memory alignment modes").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AlignMode {
    /// Accesses are aligned down to the smaller of their size and a dword.
    Dword = 0,
    /// Accesses must be aligned to the smaller of their size and a dword, else MEMVIOL.
    DwordStrict = 1,
    /// Accesses must be aligned to their size, else MEMVIOL.
    Strict = 2,
    /// Any alignment.
    Unaligned = 3,
}

/// The registers the kernel driver programs per VMID, out of reach of a user command
/// stream: SH_MEM_CONFIG, SH_MEM_BASES and the trap handler (SQ_SHADER_TBA/TMA).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VmidRegs {
    /// SH_MEM_CONFIG: ADDRESS_MODE bit 0, ALIGNMENT_MODE bits 3:2.
    pub sh_mem_config: u32,
    /// SH_MEM_BASES: PRIVATE_BASE bits 15:0 and SHARED_BASE bits 31:16, the bits 63:48 of
    /// the flat scratch and LDS apertures.
    pub sh_mem_bases: u32,
    /// Trap handler code (TBA) and data (TMA) addresses; zero when there is none.
    pub tba: u64,
    pub tma: u64,
}

impl Default for VmidRegs {
    /// What amdgpu programs on gfx11: 64-bit addressing, unaligned accesses allowed, the
    /// private aperture at 0x1000_0000_0000_0000 and the shared (LDS) one at
    /// 0x2000_0000_0000_0000.
    fn default() -> Self {
        VmidRegs { sh_mem_config: (AlignMode::Unaligned as u32) << 2 | 1, sh_mem_bases: 0x2000_1000, tba: 0, tma: 0 }
    }
}

impl VmidRegs {
    pub fn alignment(&self) -> AlignMode {
        match self.sh_mem_config >> 2 & 3 {
            0 => AlignMode::Dword,
            1 => AlignMode::DwordStrict,
            2 => AlignMode::Strict,
            _ => AlignMode::Unaligned,
        }
    }

    pub fn with_alignment(mut self, mode: AlignMode) -> Self {
        self.sh_mem_config = (self.sh_mem_config & !0xc) | (mode as u32) << 2;
        self
    }

    /// Bits 63:48 of flat addresses that fall in the private (scratch) aperture.
    pub fn private_aperture(&self) -> u64 {
        ((self.sh_mem_bases & 0xffff) as u64) << 48
    }

    /// Bits 63:48 of flat addresses that fall in the shared (LDS) aperture.
    pub fn shared_aperture(&self) -> u64 {
        ((self.sh_mem_bases >> 16) as u64) << 48
    }
}

/// Why a dispatch cannot be launched.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LaunchError {
    #[error("COMPUTE_SHADER_EN is not set in DISPATCH_INITIATOR {0:#x}")]
    NotEnabled(u32),
    #[error("workgroup size {0}x{1}x{2} is empty or above 1024 work-items")]
    GroupSize(u32, u32, u32),
    #[error("LDS size {0} bytes exceeds the 64 KiB a workgroup can have")]
    Lds(u32),
    #[error("scratch is enabled but COMPUTE_TMPRING_SIZE gives no space ({0:#x})")]
    Scratch(u32),
    #[error("a workgroup of {0} waves needs more scratch slots than COMPUTE_TMPRING_SIZE.WAVES = {1}")]
    ScratchSlots(u32, u32),
    #[error("a workgroup does not fit on a WGP: {0}")]
    Resources(Occupancy),
    #[error("{0} is not supported by softnavi")]
    Unsupported(&'static str),
    #[error("RSRC2.USER_SGPR {0} is above the 16 COMPUTE_USER_DATA registers")]
    UserSgprs(u32),
    #[error("a grid of {0}x{1}x{2} workgroups: more than 2^64 in one dispatch is not supported")]
    Grid(u32, u32, u32),
}

/// The gfx1100 resources the SPI allocates when it places workgroups on a WGP.
pub mod limits {
    /// SIMD32s per WGP (two CUs of two; RDNA3-NOTES, "CU mode and WGP mode").
    pub const SIMDS_PER_WGP: u32 = 4;
    /// Wave slots per SIMD.
    pub const MAX_WAVES_PER_SIMD: u32 = 16;
    /// VGPRs per SIMD lane on a 1536-VGPR part such as gfx1100 (RDNA3-NOTES,
    /// "VGPR allocation"); a wave64 register takes two rows, so wave64 has half.
    pub const VGPRS_PER_SIMD: u32 = 1536;
    /// VGPR allocation granules on such a part: 24 registers in wave32, 12 in wave64
    /// (RDNA3-NOTES, "VGPR allocation").
    pub const VGPR_GRANULE_W32: u32 = 24;
    pub const VGPR_GRANULE_W64: u32 = 12;
    /// RSRC1.VGPRS counts blocks of 8 (wave32) or 4 (wave64) registers, minus one.
    pub const VGPR_ENCODING_W32: u32 = 8;
    pub const VGPR_ENCODING_W64: u32 = 4;
    /// LDS of a WGP: two 64 KiB halves, one per CU, allocated in 1 KiB granules
    /// (RDNA3-NOTES, "LDS layout and allocation").
    pub const LDS_PER_CU: u32 = 64 * 1024;
    pub const LDS_GRANULE: u32 = 1024;
    /// Workgroups of more than one wave a WGP can hold (barrier resources; single-wave
    /// groups do not count; RDNA3-NOTES, "Workgroups and barriers").
    pub const MAX_GROUPS_PER_WGP: u32 = 32;
    /// Work-items of a workgroup.
    pub const MAX_GROUP_ITEMS: u32 = 1024;
}

/// Bit positions in the wave's MODE hardware register (gfx11 SQ_WAVE_MODE).
pub mod mode {
    pub const FP_ROUND: u32 = 0;
    pub const FP_DENORM: u32 = 4;
    pub const DX10_CLAMP: u32 = 8;
    pub const IEEE: u32 = 9;
    /// EXCP_EN[8:0]: invalid, denormal, divide by zero, overflow, underflow, inexact,
    /// integer divide by zero, address watch, memory violation.
    pub const EXCP_EN: u32 = 12;
    pub const FP16_OVFL: u32 = 23;
}

/// Bit positions in the wave's STATUS hardware register (gfx11 SQ_WAVE_STATUS).
pub mod status {
    pub const SCC: u32 = 0;
    pub const SPI_PRIO: u32 = 1;
    pub const PRIV: u32 = 5;
    pub const TRAP_EN: u32 = 6;
    pub const EXECZ: u32 = 9;
    pub const VCCZ: u32 = 10;
    pub const IN_TG: u32 = 11;
    pub const IN_BARRIER: u32 = 12;
    pub const VALID: u32 = 16;
    pub const SCRATCH_EN: u32 = 29;
}

/// What bounds the number of workgroups a WGP holds at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Limiter {
    /// The 16 wave slots of each SIMD.
    WaveSlots,
    Vgprs,
    Lds,
    /// The 32 multi-wave workgroups (barrier resources) of a WGP.
    Workgroups,
}

impl std::fmt::Display for Limiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Limiter::WaveSlots => "wave slots",
            Limiter::Vgprs => "VGPRs",
            Limiter::Lds => "LDS",
            Limiter::Workgroups => "workgroup slots",
        })
    }
}

/// How many of a dispatch's waves a modelled WGP holds at once, from the resources each
/// wave and workgroup allocates (what a profiler calls occupancy).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Occupancy {
    pub waves_per_group: u32,
    /// VGPRs allocated per wave (RSRC1.VGPRS rounded up to the allocation granule).
    pub vgprs_per_wave: u32,
    /// LDS bytes allocated per workgroup (1 KiB granules).
    pub lds_per_group: u32,
    /// Workgroups resident on one WGP.
    pub groups_per_wgp: u32,
    /// Average waves resident per SIMD, of [`limits::MAX_WAVES_PER_SIMD`].
    pub waves_per_simd: u32,
    pub limiter: Limiter,
}

impl std::fmt::Display for Occupancy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{}/{} waves per SIMD, {} workgroups per WGP, limited by {} ({} VGPRs and {} bytes of LDS allocated, {} waves per group)",
            self.waves_per_simd,
            limits::MAX_WAVES_PER_SIMD,
            self.groups_per_wgp,
            self.limiter,
            self.vgprs_per_wave,
            self.lds_per_group,
            self.waves_per_group
        )
    }
}

fn field(v: u32, lo: u32, width: u32) -> u32 {
    (v >> lo) & ((1 << width) - 1)
}

impl Dispatch {
    /// Snapshots the SH registers for a dispatch of workgroups `[start, dims)`.
    pub fn from_regs(sh: impl Fn(u32) -> u32, dims: [u32; 3], initiator_bits: u32) -> Dispatch {
        let force0 = initiator_bits & initiator::FORCE_START_AT_000 != 0;
        let start = if force0 {
            [0; 3]
        } else {
            [sh(reg::COMPUTE_START_X), sh(reg::COMPUTE_START_Y), sh(reg::COMPUTE_START_Z)]
        };
        let nt = [sh(reg::COMPUTE_NUM_THREAD_X), sh(reg::COMPUTE_NUM_THREAD_Y), sh(reg::COMPUTE_NUM_THREAD_Z)];
        let threads = nt.map(|v| v & 0xffff);
        // USE_THREAD_DIMENSIONS: the packet's dimensions count work-items, not groups; the
        // last group of a dimension gets the remainder (what RADV relies on for unaligned
        // indirect launches).
        let (end, partial) = if initiator_bits & initiator::USE_THREAD_DIMENSIONS != 0 {
            ([0, 1, 2].map(|d| dims[d].div_ceil(threads[d].max(1))), [0, 1, 2].map(|d| dims[d] % threads[d].max(1)))
        } else {
            (dims, nt.map(|v| v >> 16))
        };
        let mut user_data = [0; 16];
        for (i, u) in user_data.iter_mut().enumerate() {
            *u = sh(reg::COMPUTE_USER_DATA_0 + 4 * i as u32);
        }
        Dispatch {
            pgm: (sh(reg::COMPUTE_PGM_LO) as u64) << 8 | ((sh(reg::COMPUTE_PGM_HI) & 0xff) as u64) << 40,
            rsrc1: sh(reg::COMPUTE_PGM_RSRC1),
            rsrc2: sh(reg::COMPUTE_PGM_RSRC2),
            rsrc3: sh(reg::COMPUTE_PGM_RSRC3),
            user_data,
            threads,
            partial,
            start,
            end,
            initiator: initiator_bits,
            tmpring_size: sh(reg::COMPUTE_TMPRING_SIZE),
            scratch_base: (sh(reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO) as u64) << 8
                | ((sh(reg::COMPUTE_DISPATCH_SCRATCH_BASE_HI) & 0xff) as u64) << 40,
            vmid: VmidRegs::default(),
            check: false,
        }
    }

    pub fn wave64(&self) -> bool {
        self.initiator & initiator::CS_W32_EN == 0
    }

    pub fn lanes(&self) -> usize {
        if self.wave64() {
            64
        } else {
            32
        }
    }

    /// Workgroups per dimension.
    pub fn grid(&self) -> [u32; 3] {
        [0, 1, 2].map(|d| self.end[d].saturating_sub(self.start[d]))
    }

    pub fn group_count(&self) -> u64 {
        self.grid().iter().map(|&g| g as u64).product()
    }

    /// Workgroup id of the `i`-th group (x fastest).
    pub fn group_id(&self, i: u64) -> [u32; 3] {
        let g = self.grid();
        let (gx, gy) = (g[0].max(1) as u64, g[1].max(1) as u64);
        [
            self.start[0] + (i % gx) as u32,
            self.start[1] + ((i / gx) % gy) as u32,
            self.start[2] + (i / (gx * gy)) as u32,
        ]
    }

    /// The id of the group after `id` in [`Dispatch::group_id`]'s order (x fastest):
    /// `group_id(i + 1)` from `group_id(i)` without divisions.
    pub fn next_group_id(&self, id: [u32; 3]) -> [u32; 3] {
        let [mut x, mut y, mut z] = id;
        x += 1;
        if x >= self.end[0] {
            x = self.start[0];
            y += 1;
            if y >= self.end[1] {
                y = self.start[1];
                z += 1;
            }
        }
        [x, y, z]
    }

    /// LDS bytes each workgroup gets (RSRC2.LDS_SIZE in 512-byte units).
    pub fn lds_bytes(&self) -> u32 {
        field(self.rsrc2, 15, 9) * 512
    }

    /// Bytes of scratch per wave (TMPRING_SIZE.WAVESIZE, 256-byte units on gfx11).
    pub fn scratch_per_wave(&self) -> u64 {
        field(self.tmpring_size, 12, 15) as u64 * 256
    }

    /// Work-items per dimension of workgroup `id` (partial at the grid's end).
    pub fn group_size(&self, id: [u32; 3]) -> [u32; 3] {
        let partial_en = self.initiator & (initiator::PARTIAL_TG_EN | initiator::USE_THREAD_DIMENSIONS) != 0;
        [0, 1, 2].map(|d| {
            if partial_en && self.partial[d] != 0 && id[d] + 1 == self.end[d] {
                self.partial[d]
            } else {
                self.threads[d]
            }
        })
    }

    /// Work-items the dispatch launches (the CS_INVOCATIONS statistic): per dimension, the
    /// full groups and the partial one at the grid's end.
    pub fn invocations(&self) -> u64 {
        let g = self.grid();
        let last = self.group_size(self.end.map(|e| e.saturating_sub(1)));
        (0..3)
            .map(|d| if g[d] == 0 { 0 } else { (g[d] as u64 - 1) * self.threads[d] as u64 + last[d] as u64 })
            .product()
    }

    /// Waves of a full workgroup.
    pub fn waves_per_group(&self) -> u32 {
        let items = self.threads.iter().map(|&t| t as u64).product::<u64>();
        items.div_ceil(self.lanes() as u64).min(u32::MAX as u64) as u32
    }

    /// RSRC1.WGP_MODE: a workgroup's waves may use both CUs of the WGP and all its LDS.
    pub fn wgp_mode(&self) -> bool {
        self.rsrc1 >> 29 & 1 != 0
    }

    /// Scratch wave slots the queue's ring has (COMPUTE_TMPRING_SIZE.WAVES).
    pub fn scratch_slots(&self) -> u32 {
        field(self.tmpring_size, 0, 12)
    }

    pub fn scratch_enabled(&self) -> bool {
        self.rsrc2 & 1 != 0
    }

    /// The occupancy this dispatch gets on a modelled WGP.
    pub fn occupancy(&self) -> Occupancy {
        use limits::*;
        let wpg = self.waves_per_group().max(1);
        let (encoding, granule, total) = if self.wave64() {
            (VGPR_ENCODING_W64, VGPR_GRANULE_W64, VGPRS_PER_SIMD / 2)
        } else {
            (VGPR_ENCODING_W32, VGPR_GRANULE_W32, VGPRS_PER_SIMD)
        };
        let vgprs = ((field(self.rsrc1, 0, 6) + 1) * encoding).div_ceil(granule) * granule;
        let lds = self.lds_bytes().div_ceil(LDS_GRANULE) * LDS_GRANULE;
        // In CU mode a workgroup lives on one CU: two SIMDs and one LDS half.
        let (units, simds, lds_unit) =
            if self.wgp_mode() { (1, SIMDS_PER_WGP, 2 * LDS_PER_CU) } else { (2, SIMDS_PER_WGP / 2, LDS_PER_CU) };
        let waves_by_vgpr = (total / vgprs).min(MAX_WAVES_PER_SIMD);
        let mut limiter = if waves_by_vgpr < MAX_WAVES_PER_SIMD { Limiter::Vgprs } else { Limiter::WaveSlots };
        let mut per_unit = simds * waves_by_vgpr / wpg;
        if lds > 0 && lds_unit / lds < per_unit {
            per_unit = lds_unit / lds;
            limiter = Limiter::Lds;
        }
        if wpg > 1 && MAX_GROUPS_PER_WGP / units < per_unit {
            per_unit = MAX_GROUPS_PER_WGP / units;
            limiter = Limiter::Workgroups;
        }
        let groups = per_unit * units;
        Occupancy {
            waves_per_group: wpg,
            vgprs_per_wave: vgprs,
            lds_per_group: lds,
            groups_per_wgp: groups,
            waves_per_simd: (groups * wpg / SIMDS_PER_WGP).min(MAX_WAVES_PER_SIMD),
            limiter,
        }
    }

    /// Checks what the hardware would refuse to launch.
    pub fn validate(&self) -> Result<(), LaunchError> {
        if self.initiator & initiator::COMPUTE_SHADER_EN == 0 {
            return Err(LaunchError::NotEnabled(self.initiator));
        }
        // The full group and the partial one at the end of the grid must both fit.
        let partial = self.group_size(self.end.map(|e| e.saturating_sub(1)));
        for [x, y, z] in [self.threads, partial] {
            let n = x as u64 * y as u64 * z as u64;
            if n == 0 || n > 1024 {
                return Err(LaunchError::GroupSize(x, y, z));
            }
        }
        // The field has 5 bits; only 16 user data registers exist (RDNA3-NOTES, "Shader
        // program registers").
        let user_sgprs = field(self.rsrc2, 1, 5);
        if user_sgprs > 16 {
            return Err(LaunchError::UserSgprs(user_sgprs));
        }
        // Groups are counted and numbered in 64 bits (three 32-bit dimensions may need 96).
        let [gx, gy, gz] = self.grid();
        if (gx as u64).checked_mul(gy as u64).and_then(|n| n.checked_mul(gz as u64)).is_none() {
            return Err(LaunchError::Grid(gx, gy, gz));
        }
        if self.lds_bytes() > limits::LDS_PER_CU {
            return Err(LaunchError::Lds(self.lds_bytes()));
        }
        if self.scratch_enabled() {
            if self.scratch_per_wave() == 0 || self.scratch_slots() == 0 {
                return Err(LaunchError::Scratch(self.tmpring_size));
            }
            // Every wave of a group needs its scratch slot while the group runs.
            if self.waves_per_group() > self.scratch_slots() {
                return Err(LaunchError::ScratchSlots(self.waves_per_group(), self.scratch_slots()));
            }
        }
        // RSRC3.TRAP_ON_START / TRAP_ON_END and RSRC2.EXCP_EN are launch state of the
        // waves (init_waves, initial_mode): with TRAP_PRESENT clear they are ignored, like
        // every trap (RDNA3-NOTES, "Traps").
        let occupancy = self.occupancy();
        if occupancy.groups_per_wgp == 0 {
            return Err(LaunchError::Resources(occupancy));
        }
        Ok(())
    }

    /// RSRC3.TRAP_ON_START: each wave enters its trap handler before its first
    /// instruction (TRAPSTS.WAVESTART), when it has one (TRAP_PRESENT).
    pub fn trap_on_start(&self) -> bool {
        self.rsrc3 >> 10 & 1 != 0
    }

    /// RSRC3.TRAP_ON_END: each wave enters its trap handler at its first s_endpgm
    /// (TRAPSTS.WAVE_END); returning to the s_endpgm ends the wave.
    pub fn trap_on_end(&self) -> bool {
        self.rsrc3 >> 11 & 1 != 0
    }

    /// The wave's MODE register at launch (RDNA3-NOTES, "Wave launch state"): FLOAT_MODE,
    /// DX10_CLAMP, IEEE and FP16_OVFL from RSRC1, EXCP_EN from RSRC2 (EXCP_EN 30:24 →
    /// MODE.EXCP_EN[6:0], EXCP_EN_MSB 14:13 → [8:7]).
    pub fn initial_mode(&self) -> u32 {
        field(self.rsrc1, 12, 8) << mode::FP_ROUND
            | field(self.rsrc1, 21, 1) << mode::DX10_CLAMP
            | field(self.rsrc1, 23, 1) << mode::IEEE
            | field(self.rsrc2, 24, 7) << mode::EXCP_EN
            | field(self.rsrc2, 13, 2) << (mode::EXCP_EN + 7)
            | field(self.rsrc1, 26, 1) << mode::FP16_OVFL
    }

    /// The wave's STATUS register at launch: SPI_PRIO from RSRC1.PRIORITY, PRIV from
    /// RSRC1.PRIV, TRAP_EN from RSRC2.TRAP_PRESENT, IN_TG for a multi-wave group, VALID,
    /// SCRATCH_EN from RSRC2.SCRATCH_EN.
    pub fn initial_status(&self, in_group: bool) -> u32 {
        field(self.rsrc1, 10, 2) << status::SPI_PRIO
            | field(self.rsrc1, 20, 1) << status::PRIV
            | field(self.rsrc2, 6, 1) << status::TRAP_EN
            | (in_group as u32) << status::IN_TG
            | 1 << status::VALID
            | field(self.rsrc2, 0, 1) << status::SCRATCH_EN
    }

    /// Initialises the waves of workgroup `id` into `waves` (reusing their storage) and
    /// returns how many there are. `slot_base` numbers this worker's scratch slots.
    ///
    /// This works the dispatch's launch state out anew on every call; the WGP workers use
    /// the [`Launch`] their job made once ([`Dispatch::launch`]).
    pub fn init_waves(&self, id: [u32; 3], waves: &mut Vec<Wave>, slot_base: u32) -> usize {
        self.launch().init_waves(self, id, waves, slot_base)
    }

    /// The launch state of this dispatch's waves that is the same in every workgroup.
    pub fn launch(&self) -> Launch {
        let lanes = self.lanes();
        let occupancy = self.occupancy();
        // System SGPRs after the user SGPRs: the enabled TGID dimensions, then TG_SIZE.
        let mut tgid = [0usize; 3];
        let mut n_tgid = 0;
        for (d, bit) in [(0, 7), (1, 8), (2, 9)] {
            if self.rsrc2 >> bit & 1 != 0 {
                tgid[n_tgid] = d;
                n_tgid += 1;
            }
        }
        let threads = self.threads;
        let full_v0 = match self.threads.iter().map(|&t| t as u64).product::<u64>() {
            // A group this large never launches (validate); keep no table for it.
            n if n == 0 || n > limits::MAX_GROUP_ITEMS as u64 => Vec::new(),
            n => {
                let mut v0 = vec![0; (n as usize).div_ceil(lanes) * lanes];
                work_item_ids(threads, field(self.rsrc2, 11, 2), 0, &mut v0[..n as usize]);
                v0
            }
        };
        Launch {
            lanes,
            user_sgprs: field(self.rsrc2, 1, 5) as usize,
            tgid,
            n_tgid,
            tg_size: self.rsrc2 >> 10 & 1 != 0,
            tidig: field(self.rsrc2, 11, 2),
            scratch: self.rsrc2 & 1 != 0,
            scratch_per_wave: self.scratch_per_wave(),
            vgprs: occupancy.vgprs_per_wave.min(256),
            // LDS_ALLOC: LDS_BASE 8:0 (each workgroup's LDS starts at 0 here), LDS_SIZE
            // 20:12 in the 1 KiB allocation granules of RDNA3-NOTES,
            // "LDS layout and allocation".
            lds_alloc: (occupancy.lds_per_group / limits::LDS_GRANULE) << 12,
            hw_id2: self.hw_id2(),
            simds: if self.wgp_mode() { 4 } else { 2 },
            waves_per_group: self.waves_per_group().max(1),
            mode: self.initial_mode(),
            status: [self.initial_status(false), self.initial_status(true)],
            trap_on_start: self.trap_on_start(),
            trap_on_end: self.trap_on_end(),
            full: threads,
            full_v0,
        }
    }

    /// HW_ID1 of wave `w` of a workgroup run by the worker whose scratch slots start at
    /// `slot_base` (gfx11 `SQ_WAVE_HW_ID1`: WAVE_ID 4:0, SIMD_ID 9:8, WGP_ID 13:10, SA_ID
    /// 16, SE_ID 20:18). Each worker stands for one WGP of the chip's 6 SEs × 2 SAs × 4
    /// WGPs; a group's waves go round its SIMDs (4 in WGP mode, the first CU's 2 in CU
    /// mode), each taking the next wave slot of its SIMD (RDNA3-NOTES,
    /// "Hardware internal registers").
    pub fn hw_id1(&self, slot_base: u32, w: u32) -> u32 {
        let wgp = (slot_base / self.waves_per_group().max(1)) % 48;
        let simds = if self.wgp_mode() { 4 } else { 2 };
        let (simd, slot) = (w % simds, w / simds);
        (slot & 0x1f) | simd << 8 | (wgp % 4) << 10 | (wgp / 4 % 2) << 16 | (wgp / 8) << 18
    }

    /// HW_ID2 (gfx11 `SQ_WAVE_HW_ID2`: QUEUE_ID 3:0, PIPE_ID 5:4, ME_ID 9:8, STATE_ID
    /// 14:12, WG_ID 20:16, VM_ID 27:24): compute waves come from micro engine 1 (the
    /// first MEC), queue 0 of pipe 0, the WGP's workgroup slot 0, VMID 0.
    pub fn hw_id2(&self) -> u32 {
        1 << 8
    }
}

/// The packed work-item ids (v0 = x | y << 10 | z << 20, y and z only with
/// TIDIG_COMP_CNT 1 and 2) of `out.len()` consecutive work-items of a group of `size`,
/// starting at flat index `first` (x fastest): one division for the first, then counters.
fn work_item_ids(size: [u32; 3], tidig: u32, first: u32, out: &mut [u32]) {
    let [nx, ny, _] = size;
    let (mut x, mut y, mut z) = (first % nx, (first / nx) % ny, first / (nx * ny));
    for v in out {
        let yy = if tidig >= 1 { y } else { 0 };
        let zz = if tidig >= 2 { z } else { 0 };
        *v = x | yy << 10 | zz << 20;
        x += 1;
        if x == nx {
            x = 0;
            y += 1;
            if y == ny {
                y = 0;
                z += 1;
            }
        }
    }
}

/// The launch state of a dispatch's waves that is the same in every workgroup, worked out
/// once per dispatch ([`Dispatch::launch`]): the SGPR layout, MODE, STATUS, VGPR and LDS
/// allocation, and v0 and EXEC of every wave of a full group. A wave's launch then costs a
/// reset, a few stores and one copy of its v0 row.
#[derive(Clone, Debug)]
pub struct Launch {
    lanes: usize,
    user_sgprs: usize,
    /// The dimensions whose TGID is enabled, in SGPR order (the first `n_tgid`).
    tgid: [usize; 3],
    n_tgid: usize,
    tg_size: bool,
    tidig: u32,
    scratch: bool,
    scratch_per_wave: u64,
    vgprs: u32,
    lds_alloc: u32,
    hw_id2: u32,
    /// SIMDs a group's waves go round (HW_ID1), and the waves of a full group.
    simds: u32,
    waves_per_group: u32,
    mode: u32,
    /// STATUS of a single-wave and of a multi-wave group's waves.
    status: [u32; 2],
    trap_on_start: bool,
    trap_on_end: bool,
    /// The full group's size and its work-items' v0 values (whole waves; lanes past the
    /// group's work-items unused).
    full: [u32; 3],
    full_v0: Vec<u32>,
}

impl Launch {
    /// Initialises the waves of workgroup `id` of `d` (the dispatch this was made from)
    /// into `waves`, reusing their storage; returns how many there are. `slot_base`
    /// numbers this worker's scratch slots. The same state as [`Dispatch::init_waves`]
    /// describes: what a wave does not get here reads as its reset left it.
    pub fn init_waves(&self, d: &Dispatch, id: [u32; 3], waves: &mut Vec<Wave>, slot_base: u32) -> usize {
        let lanes = self.lanes;
        let size = d.group_size(id);
        let threads = (size[0] * size[1] * size[2]) as usize;
        let count = threads.div_ceil(lanes);
        while waves.len() < count {
            waves.push(Wave::new(lanes));
        }
        let full = size == self.full && !self.full_v0.is_empty();
        // HW_ID1: this worker's WGP, then each wave's SIMD and slot (Dispatch::hw_id1).
        let wgp = (slot_base / self.waves_per_group) % 48;
        let wgp_bits = (wgp % 4) << 10 | (wgp / 4 % 2) << 16 | (wgp / 8) << 18;
        let status = self.status[(count > 1) as usize];
        let sh_mem_bases = d.vmid.sh_mem_bases;
        for (w, wave) in waves.iter_mut().enumerate().take(count) {
            wave.reset(lanes);
            wave.vgprs = self.vgprs;
            // User SGPRs: exactly RSRC2.USER_SGPR of them, then the enabled system SGPRs.
            let u = self.user_sgprs;
            wave.sgpr[..u].copy_from_slice(&d.user_data[..u]);
            for (k, &dim) in self.tgid[..self.n_tgid].iter().enumerate() {
                wave.sgpr[u + k] = id[dim];
            }
            if self.tg_size {
                // Workgroup info: {first_wave[31], ..., wave_id_in_group[11:6],
                // tg_size_in_waves[5:0]}: Mesa reads the subgroup id from bits 11:6 (ACO's
                // and ac_nir_to_llvm's load_subgroup_id) and the subgroup count from 5:0.
                let first = if w == 0 { 1 << 31 } else { 0 };
                wave.sgpr[u + self.n_tgid] = (count as u32 & 0x3f) | (w as u32 & 0x3f) << 6 | first;
            }
            // v0 = x | y << 10 | z << 20 (packed work-item ids) for the lanes that exist;
            // EXEC = those lanes.
            let first = w * lanes;
            let n = (threads - first).min(lanes);
            if full {
                wave.vgpr[..n].copy_from_slice(&self.full_v0[first..first + n]);
            } else {
                work_item_ids(size, self.tidig, first as u32, &mut wave.vgpr[..n]);
            }
            wave.set_exec(if n == 64 { u64::MAX } else { (1u64 << n) - 1 });
            if self.scratch {
                wave.flat_scratch = d.scratch_base + (slot_base as u64 + w as u64) * self.scratch_per_wave;
            }
            wave.sh_mem_bases = sh_mem_bases;
            wave.mode = self.mode;
            wave.status = status;
            wave.trap_on_start = self.trap_on_start;
            wave.trap_on_end = self.trap_on_end;
            wave.track.set_checking(d.check);
            let w = w as u32;
            wave.track.hw_id1 = ((w / self.simds) & 0x1f) | (w % self.simds) << 8 | wgp_bits;
            wave.track.hw_id2 = self.hw_id2;
            wave.track.lds_alloc = self.lds_alloc;
        }
        count
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn dispatch(regs: &[(u32, u32)], dims: [u32; 3], init: u32) -> Dispatch {
        let m: HashMap<u32, u32> = regs.iter().copied().collect();
        Dispatch::from_regs(|r| m.get(&r).copied().unwrap_or(0), dims, init)
    }

    /// ARCHITECTURE.md / AMDGPUUsage: system SGPRs follow at index USER_SGPR, v0 packs the
    /// work-item ids, EXEC covers the lanes that exist.
    #[test]
    fn wave_launch_state_follows_rsrc2() {
        let d = dispatch(
            &[
                (reg::COMPUTE_PGM_RSRC2, 15 << 1 | 1 << 7 | 1 << 8 | 1 << 10 | 1 << 11),
                (reg::COMPUTE_NUM_THREAD_X, 8),
                (reg::COMPUTE_NUM_THREAD_Y, 5),
                (reg::COMPUTE_NUM_THREAD_Z, 1),
                (reg::COMPUTE_USER_DATA_0, 0x1234),
                (reg::COMPUTE_USER_DATA_1, 0x5678),
            ],
            [3, 2, 1],
            initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000 | initiator::CS_W32_EN,
        );
        d.validate().unwrap();
        assert_eq!(d.group_count(), 6);
        assert_eq!(d.group_id(4), [1, 1, 0]);
        let mut waves = Vec::new();
        let n = d.init_waves([2, 1, 0], &mut waves, 0);
        assert_eq!(n, 2); // 40 work-items in wave32
        let w = &waves[1];
        assert_eq!(&w.sgpr[..2], &[0x1234, 0x5678]);
        assert_eq!(&w.sgpr[15..18], &[2, 1, 2 | 1 << 6]); // TGID x, y, then TG_SIZE (2 waves; wave 1)
        assert_eq!(w.exec(), 0xff); // work-items 32..39
        assert_eq!(w.v(0)[0], 4 << 10); // item 32: x = 0, y = 4
        assert_eq!(waves[0].sgpr[17], 2 | 1 << 31); // first wave flag
    }

    /// Fuzz finding (pm4, docs/FUZZING.md): DISPATCH_DIRECT of 0x05050505 groups in each
    /// dimension made `group_count` overflow u64 (a panic on the CP thread); the launch is
    /// refused by name instead.
    #[test]
    fn a_grid_of_more_than_2_pow_64_groups_is_refused() {
        let regs = [(reg::COMPUTE_NUM_THREAD_X, 64), (reg::COMPUTE_NUM_THREAD_Y, 1), (reg::COMPUTE_NUM_THREAD_Z, 1)];
        let w32 = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000 | initiator::CS_W32_EN;
        let d = dispatch(&regs, [0x0505_0505; 3], w32);
        assert!(matches!(d.validate(), Err(LaunchError::Grid(0x0505_0505, 0x0505_0505, 0x0505_0505))));
        dispatch(&regs, [u32::MAX, u32::MAX, 1], w32).validate().unwrap();
    }

    #[test]
    fn partial_groups_and_start_offsets() {
        let d = dispatch(
            &[
                (reg::COMPUTE_NUM_THREAD_X, 64 | 10 << 16),
                (reg::COMPUTE_NUM_THREAD_Y, 1),
                (reg::COMPUTE_NUM_THREAD_Z, 1),
                (reg::COMPUTE_START_X, 5),
            ],
            [8, 1, 1],
            initiator::COMPUTE_SHADER_EN | initiator::PARTIAL_TG_EN,
        );
        assert_eq!(d.grid(), [3, 1, 1]);
        assert_eq!(d.group_id(0), [5, 0, 0]);
        assert_eq!(d.group_size([7, 0, 0]), [10, 1, 1]);
        assert_eq!(d.group_size([6, 0, 0]), [64, 1, 1]);
        assert_eq!(d.invocations(), 64 + 64 + 10, "CS_INVOCATIONS: two full groups and the partial one");
        let mut waves = Vec::new();
        assert_eq!(d.init_waves([7, 0, 0], &mut waves, 0), 1); // wave64, 10 lanes
        assert_eq!(waves[0].exec(), 0x3ff);
    }

    /// RDNA3-NOTES, "Wave launch state" and "Shader program registers"
    /// (the RSRC1/2 fields): MODE takes FLOAT_MODE, DX10_CLAMP, IEEE and FP16_OVFL from
    /// RSRC1 and EXCP_EN from RSRC2; STATUS takes PRIV and SPI priority from RSRC1, TRAP_EN
    /// from TRAP_PRESENT, SCRATCH_EN from RSRC2, IN_TG for multi-wave groups, and VALID.
    #[test]
    fn mode_and_status_at_launch_come_from_the_rsrc_registers() {
        let rsrc1 = 0xf0 << 12 | 1 << 21 | 1 << 23 | 1 << 26 | 1 << 20 | 2 << 10;
        let rsrc2 = 1 | 1 << 6 | 0x41 << 24 | 3 << 13;
        let d = dispatch(&[(reg::COMPUTE_PGM_RSRC1, rsrc1), (reg::COMPUTE_PGM_RSRC2, rsrc2)], [1, 1, 1], 0);
        // FP_DENORM = 0xf (bits 7:4), DX10_CLAMP 8, IEEE 9, EXCP_EN invalid|int-div0 and
        // address-watch|memviol (bits 12, 18, 19, 20), FP16_OVFL 23.
        assert_eq!(d.initial_mode(), 0xf0 | 1 << 8 | 1 << 9 | (0x41 | 3 << 7) << 12 | 1 << 23);
        // SPI_PRIO 2 (bits 2:1), PRIV 5, TRAP_EN 6, IN_TG 11, VALID 16, SCRATCH_EN 29.
        assert_eq!(d.initial_status(true), 2 << 1 | 1 << 5 | 1 << 6 | 1 << 11 | 1 << 16 | 1 << 29);
        assert_eq!(d.initial_status(false) & 1 << 11, 0);
        assert_eq!(dispatch(&[], [1, 1, 1], 0).initial_status(false), 1 << 16);
    }

    /// The launch state of every wave, from the documented rules (GPU.md "Wave launch"
    /// and the tests above): work-item `t` of a group of `nx × ny × nz` has x = t mod nx,
    /// y = (t / nx) mod ny, z = t / (nx ny); v0 packs the ids TIDIG_COMP_CNT enables;
    /// EXEC has a bit per existing work-item; user SGPRs, then TGIDs, then TG_SIZE;
    /// everything else in the SGPR file reads zero, whatever the wave's storage held.
    #[test]
    fn every_wave_of_every_group_gets_the_documented_launch_state() {
        for (wave64, threads, partial, tidig, rsrc2_sys) in [
            (false, [8, 5, 1], [0, 0, 0], 1, 1 << 7 | 1 << 8 | 1 << 10),
            (false, [7, 3, 3], [5, 2, 0], 2, 1 << 7 | 1 << 8 | 1 << 9 | 1 << 10),
            (true, [100, 1, 1], [36, 0, 0], 0, 1 << 9 | 1 << 10),
            (true, [4, 4, 4], [0, 3, 1], 2, 1 << 8),
            (false, [32, 1, 1], [0, 0, 0], 0, 1 << 7),
            (true, [16, 16, 4], [0, 0, 0], 1, 1 << 10),
        ] {
            let user = 3u32;
            let regs = [
                (reg::COMPUTE_PGM_RSRC2, user << 1 | rsrc2_sys | tidig << 11),
                (reg::COMPUTE_NUM_THREAD_X, threads[0] | partial[0] << 16),
                (reg::COMPUTE_NUM_THREAD_Y, threads[1] | partial[1] << 16),
                (reg::COMPUTE_NUM_THREAD_Z, threads[2] | partial[2] << 16),
                (reg::COMPUTE_USER_DATA_0, 0xaaaa),
                (reg::COMPUTE_USER_DATA_1, 0xbbbb),
                (reg::COMPUTE_USER_DATA_2, 0xcccc),
                (reg::COMPUTE_USER_DATA_3, 0xdddd),
            ];
            let mut init = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000 | initiator::PARTIAL_TG_EN;
            if !wave64 {
                init |= initiator::CS_W32_EN;
            }
            let d = dispatch(&regs, [3, 2, 2], init);
            d.validate().unwrap();
            let lanes = if wave64 { 64 } else { 32 };
            let launch = d.launch();
            let mut waves = Vec::new();
            for g in 0..d.group_count() {
                let id = d.group_id(g);
                // Dirty the storage as a previous group's program would.
                for w in waves.iter_mut() {
                    let w: &mut Wave = w;
                    w.sgpr.fill(0x5555_5555);
                }
                let count = launch.init_waves(&d, id, &mut waves, 8);
                let size: [u32; 3] =
                    std::array::from_fn(
                        |k| {
                            if partial[k] != 0 && id[k] + 1 == d.end[k] {
                                partial[k]
                            } else {
                                threads[k]
                            }
                        },
                    );
                let items = size.iter().product::<u32>() as usize;
                assert_eq!(count, items.div_ceil(lanes));
                for (w, wave) in waves.iter().enumerate().take(count) {
                    let mut want = vec![0u32; wave.sgpr.len()];
                    want[..3].copy_from_slice(&[0xaaaa, 0xbbbb, 0xcccc]);
                    let mut s = 3;
                    for (k, bit) in [7, 8, 9].into_iter().enumerate() {
                        if rsrc2_sys >> bit & 1 != 0 {
                            want[s] = id[k];
                            s += 1;
                        }
                    }
                    if rsrc2_sys & 1 << 10 != 0 {
                        want[s] = count as u32 | (w as u32) << 6 | if w == 0 { 1 << 31 } else { 0 };
                    }
                    let n = (items - w * lanes).min(lanes);
                    let exec = if n == 64 { u64::MAX } else { (1u64 << n) - 1 };
                    want[126] = exec as u32;
                    if wave64 {
                        want[127] = (exec >> 32) as u32;
                    }
                    assert_eq!(wave.sgpr.as_slice(), want.as_slice(), "group {id:?} wave {w}");
                    assert_eq!(wave.exec(), exec);
                    for l in 0..n {
                        let t = (w * lanes + l) as u32;
                        let (x, y, z) = (t % size[0], t / size[0] % size[1], t / (size[0] * size[1]));
                        let v = x | if tidig >= 1 { y << 10 } else { 0 } | if tidig >= 2 { z << 20 } else { 0 };
                        assert_eq!(wave.v(0)[l], v, "group {id:?} wave {w} lane {l}");
                    }
                    assert_eq!(wave.track.hw_id1, d.hw_id1(8, w as u32));
                    assert_eq!(wave.status, d.initial_status(count > 1));
                    assert_eq!(wave.mode, d.initial_mode());
                    assert_eq!((wave.pc, wave.executed, wave.trapsts, wave.flat_scratch), (0, 0, 0, 0));
                }
                if g + 1 < d.group_count() {
                    assert_eq!(d.next_group_id(id), d.group_id(g + 1));
                }
            }
        }
    }

    #[test]
    fn refuses_what_hardware_cannot_launch() {
        let d = dispatch(&[(reg::COMPUTE_NUM_THREAD_X, 2048)], [1, 1, 1], initiator::COMPUTE_SHADER_EN);
        assert!(matches!(d.validate(), Err(LaunchError::GroupSize(..))));
        let d = dispatch(&[(reg::COMPUTE_NUM_THREAD_X, 1)], [1, 1, 1], 0);
        assert!(matches!(d.validate(), Err(LaunchError::NotEnabled(_))));
    }

    /// Fuzz finding (pm4, docs/FUZZING.md): RSRC2.USER_SGPR above 16 was launched and
    /// `init_waves` indexed past the 16 user data registers (a panic on the worker).
    #[test]
    fn more_than_16_user_sgprs_are_refused_at_launch() {
        let threads = [(reg::COMPUTE_NUM_THREAD_X, 64), (reg::COMPUTE_NUM_THREAD_Y, 1), (reg::COMPUTE_NUM_THREAD_Z, 1)];
        let w32 = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000 | initiator::CS_W32_EN;
        for (user, ok) in [(16, true), (17, false), (31, false)] {
            let regs = [&threads[..], &[(reg::COMPUTE_PGM_RSRC2, user << 1)]].concat();
            let r = dispatch(&regs, [1, 1, 1], w32).validate();
            assert_eq!(r.is_ok(), ok, "USER_SGPR {user}: {r:?}");
            assert!(ok || matches!(r, Err(LaunchError::UserSgprs(u)) if u == user));
        }
    }
}
