//! The shader processor input (SPI): turns a dispatch (a snapshot of the COMPUTE_*
//! registers) into workgroups and gives each wave the launch state the hardware would
//! (seed 000, "initial wave state"; AMDGPUUsage, "initial kernel execution state").

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
            threads: nt.map(|v| v & 0xffff),
            partial: nt.map(|v| v >> 16),
            start,
            end: dims,
            initiator: initiator_bits,
            tmpring_size: sh(reg::COMPUTE_TMPRING_SIZE),
            scratch_base: (sh(reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO) as u64) << 8
                | ((sh(reg::COMPUTE_DISPATCH_SCRATCH_BASE_HI) & 0xff) as u64) << 40,
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
        let partial_en = self.initiator & initiator::PARTIAL_TG_EN != 0;
        [0, 1, 2].map(|d| {
            if partial_en && self.partial[d] != 0 && id[d] + 1 == self.end[d] {
                self.partial[d]
            } else {
                self.threads[d]
            }
        })
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
        if self.lds_bytes() > 64 * 1024 {
            return Err(LaunchError::Lds(self.lds_bytes()));
        }
        if self.rsrc2 & 1 != 0 && (self.scratch_per_wave() == 0 || field(self.tmpring_size, 0, 12) == 0) {
            return Err(LaunchError::Scratch(self.tmpring_size));
        }
        Ok(())
    }

    /// Initialises the waves of workgroup `id` into `waves` (reusing their storage) and
    /// returns how many there are. `slot_base` numbers this worker's scratch slots.
    pub fn init_waves(&self, id: [u32; 3], waves: &mut Vec<Wave>, slot_base: u32) -> usize {
        let lanes = self.lanes();
        let [nx, ny, nz] = self.group_size(id);
        let threads = (nx * ny * nz) as usize;
        let count = threads.div_ceil(lanes);
        while waves.len() < count {
            waves.push(Wave::new(lanes));
        }
        let user_sgprs = field(self.rsrc2, 1, 5) as usize;
        let tidig = field(self.rsrc2, 11, 2);
        let scratch = self.rsrc2 & 1 != 0;
        for (w, wave) in waves.iter_mut().enumerate().take(count) {
            wave.reset(lanes);
            // User SGPRs: exactly RSRC2.USER_SGPR of them, then the enabled system SGPRs.
            wave.sgpr[..user_sgprs].copy_from_slice(&self.user_data[..user_sgprs]);
            let mut s = user_sgprs;
            for (d, bit) in [(0, 7), (1, 8), (2, 9)] {
                if self.rsrc2 >> bit & 1 != 0 {
                    wave.sgpr[s] = id[d];
                    s += 1;
                }
            }
            if self.rsrc2 >> 10 & 1 != 0 {
                // Workgroup info: {first_wave[31], ..., tg_size_in_waves[5:0]}.
                wave.sgpr[s] = (count as u32 & 0x3f) | if w == 0 { 1 << 31 } else { 0 };
            }
            // v0 = x | y << 10 | z << 20 (packed work-item ids); EXEC = the lanes that exist.
            let mut exec = 0u64;
            for l in 0..lanes {
                let t = w * lanes + l;
                if t >= threads {
                    break;
                }
                exec |= 1 << l;
                let t = t as u32;
                let (x, y, z) = (t % nx, (t / nx) % ny, t / (nx * ny));
                let y = if tidig >= 1 { y } else { 0 };
                let z = if tidig >= 2 { z } else { 0 };
                wave.vgpr[l] = x | y << 10 | z << 20;
            }
            wave.set_exec(exec);
            if scratch {
                wave.flat_scratch = self.scratch_base + (slot_base as u64 + w as u64) * self.scratch_per_wave();
            }
            // MODE from RSRC1: FLOAT_MODE[7:0], DX10_CLAMP, IEEE.
            wave.mode = field(self.rsrc1, 12, 8) | field(self.rsrc1, 21, 1) << 8 | field(self.rsrc1, 23, 1) << 9;
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
        assert_eq!(&w.sgpr[15..18], &[2, 1, 2]); // TGID x, y, then TG_SIZE (2 waves)
        assert_eq!(w.exec(), 0xff); // work-items 32..39
        assert_eq!(w.v(0)[0], 4 << 10); // item 32: x = 0, y = 4
        assert_eq!(waves[0].sgpr[17], 2 | 1 << 31); // first wave flag
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
        let mut waves = Vec::new();
        assert_eq!(d.init_waves([7, 0, 0], &mut waves, 0), 1); // wave64, 10 lanes
        assert_eq!(waves[0].exec(), 0x3ff);
    }

    #[test]
    fn refuses_what_hardware_cannot_launch() {
        let d = dispatch(&[(reg::COMPUTE_NUM_THREAD_X, 2048)], [1, 1, 1], initiator::COMPUTE_SHADER_EN);
        assert!(matches!(d.validate(), Err(LaunchError::GroupSize(..))));
        let d = dispatch(&[(reg::COMPUTE_NUM_THREAD_X, 1)], [1, 1, 1], 0);
        assert!(matches!(d.validate(), Err(LaunchError::NotEnabled(_))));
    }
}
