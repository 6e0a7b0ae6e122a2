//! DRM_IOCTL_AMDGPU_INFO: what the kernel driver tells user space about the chip, from
//! the model's chip parameters (`gpu::info`).

use gpu::ChipInfo;

use crate::uapi::{self, info as q, AmdgpuInfo, DeviceInfo, Firmware, HeapInfo, HwIpInfo, MemoryInfo, Pod, VramGtt};
use crate::user;

/// The GPU virtual address ranges, as amdgpu reports them for a 48-bit VM: the low half
/// below the hole, the high half above it. RADV allocates every VA from the high half, and
/// the model sees those addresses as their low 48 bits.
pub const VA_RESERVED: u64 = 2 << 20;
pub const HOLE_START: u64 = 0x0000_8000_0000_0000;
pub const HOLE_END: u64 = 0xffff_8000_0000_0000;
pub const HIGH_VA_MAX: u64 = 0xffff_ffff_ffe0_0000;

/// GB_ADDR_CONFIG's register offset (dwords), the one register libdrm reads on gfx9+.
const MM_GB_ADDR_CONFIG: u32 = 0x263e;

/// The command processor is softnavi's model, so its "firmware" is too: one version for
/// ME, PFP and MEC, with feature level 32 (from which RADV uses 32-bit predication).
const CP_FIRMWARE: Firmware = Firmware { ver: 1, feature: 32 };

/// Rings the model offers: one graphics (universal) ring, four compute rings.
pub const GFX_RINGS: u32 = 1;
pub const COMPUTE_RINGS: u32 = 4;

/// Answers one INFO query; what is written is at most `return_size` bytes, as the kernel
/// does. Errors are errno values.
pub fn query(chip: &ChipInfo, usage: &Usage, req: &AmdgpuInfo) -> Result<(), i32> {
    let out = |v: &dyn Fn() -> Vec<u8>| {
        let b = v();
        user::write_bytes(req.return_pointer, &b[..b.len().min(req.return_size as usize)])
    };
    let bytes = |v: &dyn PodBytes| v.to_vec();
    match req.query {
        q::ACCEL_WORKING => out(&|| bytes(&1u32)),
        q::DEV_INFO => out(&|| bytes(&dev_info(chip))),
        q::HW_IP_INFO => out(&|| bytes(&hw_ip(req.args[0]))),
        q::HW_IP_COUNT => out(&|| bytes(&u32::from(hw_ip(req.args[0]).available_rings != 0))),
        q::FW_VERSION => out(&|| bytes(&firmware(req.args[0]))),
        q::MEMORY => out(&|| bytes(&memory(chip, usage))),
        q::VRAM_GTT => out(&|| {
            bytes(&VramGtt {
                vram_size: chip.memory_size,
                vram_cpu_accessible_size: chip.memory_size,
                gtt_size: chip.memory_size,
            })
        }),
        q::VRAM_USAGE | q::VIS_VRAM_USAGE => out(&|| bytes(&usage.vram)),
        q::GTT_USAGE => out(&|| bytes(&usage.gtt)),
        // Nothing moves or is evicted: the model's memory is all one host heap.
        q::NUM_BYTES_MOVED | q::NUM_EVICTIONS | q::NUM_VRAM_CPU_PAGE_FAULTS => out(&|| bytes(&0u64)),
        q::VRAM_LOST_COUNTER => out(&|| bytes(&0u32)),
        q::TIMESTAMP => out(&|| bytes(&crate::gpu::timestamp())),
        // No GDS, GWS or OA partitions.
        q::GDS_CONFIG => out(&|| bytes(&uapi::GdsInfo::zeroed())),
        // No video engines: every codec slot is invalid.
        q::VIDEO_CAPS => out(&|| bytes(&uapi::VideoCaps::zeroed())),
        q::READ_MMR_REG => read_registers(chip, req),
        other => {
            tracing::warn!(
                "AMDGPU_INFO query {other:#x} is not answered by softnavi (EINVAL, as the kernel for an unknown query)"
            );
            Err(libc::EINVAL)
        }
    }
}

/// A value written as its bytes.
trait PodBytes {
    fn to_vec(&self) -> Vec<u8>;
}

impl<T: Pod> PodBytes for T {
    fn to_vec(&self) -> Vec<u8> {
        user::bytes_of(self).to_vec()
    }
}

/// Bytes of BOs allocated per domain (RADV's memory budget reads them).
#[derive(Clone, Copy, Debug, Default)]
pub struct Usage {
    pub vram: u64,
    pub gtt: u64,
}

pub fn dev_info(chip: &ChipInfo) -> DeviceInfo {
    let mut d = DeviceInfo::zeroed();
    d.device_id = chip.device_id;
    d.external_rev = chip.chip_external_rev;
    d.chip_rev = chip.chip_external_rev - 1;
    d.pci_rev = chip.pci_revision;
    d.family = chip.amdgpu_family;
    d.num_shader_engines = chip.num_shader_engines;
    d.num_shader_arrays_per_engine = chip.shader_arrays_per_engine;
    d.gpu_counter_freq = (chip.timestamp_hz / 1000) as u32;
    d.max_engine_clock = chip.max_engine_clock_khz;
    d.max_memory_clock = chip.max_memory_clock_khz;
    let cus = chip.num_wgps * 2;
    let sas = chip.num_shader_engines * chip.shader_arrays_per_engine;
    let per_sa = cus / sas;
    d.cu_active_number = cus;
    d.num_cu_per_sh = per_sa;
    // gfx11's layout of the bitmap (Mesa's ac_gpu_info): SE i, SA j at [i % 4][(i / 4) * 2 + j].
    for se in 0..chip.num_shader_engines as usize {
        for sa in 0..chip.shader_arrays_per_engine as usize {
            let mask = (1u32 << per_sa) - 1;
            d.cu_bitmap[se % 4][(se / 4) * 2 + sa] = mask;
            d.cu_ao_bitmap[se % 4][(se / 4) * 2 + sa] = mask;
        }
    }
    d.enabled_rb_pipes_mask = ((1u64 << chip.num_rbs) - 1) as u32;
    d.num_rb_pipes = chip.num_rbs;
    d.num_hw_gfx_contexts = 8;
    d.virtual_address_offset = VA_RESERVED;
    d.virtual_address_max = HOLE_START;
    d.virtual_address_alignment = 4096;
    d.pte_fragment_size = 2 << 20;
    d.gart_page_size = 4096;
    d.vram_type = q::VRAM_TYPE_GDDR6;
    d.vram_bit_width = chip.vram_bit_width;
    d.wave_front_size = 32;
    d.num_shader_visible_vgprs = 256;
    d.num_tcc_blocks = chip.num_tcc_blocks;
    d.high_va_offset = HOLE_END;
    d.high_va_max = HIGH_VA_MAX;
    d
}

/// One hardware IP's description: GC 11.0 for graphics and compute, nothing else.
pub fn hw_ip(ip: u32) -> HwIpInfo {
    let mut h = HwIpInfo::zeroed();
    let rings = match ip {
        q::HW_IP_GFX => GFX_RINGS,
        q::HW_IP_COMPUTE => COMPUTE_RINGS,
        // No SDMA, UVD, VCE or VCN engine is modelled.
        _ => return h,
    };
    h.hw_ip_version_major = 11;
    h.hw_ip_version_minor = 0;
    h.ip_discovery_version = 11 << 16;
    h.ib_start_alignment = 32;
    h.ib_size_alignment = 32;
    h.available_rings = (1 << rings) - 1;
    h
}

fn firmware(kind: u32) -> Firmware {
    match kind {
        q::FW_GFX_ME | q::FW_GFX_PFP | q::FW_GFX_MEC => CP_FIRMWARE,
        // Engines without firmware (gfx11 has no CE; no video engines, no SDMA): version 0.
        _ => Firmware { ver: 0, feature: 0 },
    }
}

fn memory(chip: &ChipInfo, usage: &Usage) -> MemoryInfo {
    let heap = |used: u64| HeapInfo {
        total_heap_size: chip.memory_size,
        usable_heap_size: chip.memory_size,
        heap_usage: used,
        max_allocation: chip.memory_size,
    };
    MemoryInfo { vram: heap(usage.vram), cpu_accessible_vram: heap(usage.vram), gtt: heap(usage.gtt) }
}

fn read_registers(chip: &ChipInfo, req: &AmdgpuInfo) -> Result<(), i32> {
    let [offset, count, _instance, _flags] = req.args;
    let mut vals = Vec::new();
    for reg in offset..offset.saturating_add(count).min(offset + 128) {
        match reg {
            MM_GB_ADDR_CONFIG => vals.push(chip.gb_addr_config),
            other => {
                tracing::warn!("AMDGPU_INFO_READ_MMR_REG of register {other:#x}: softnavi models no such readable register (EINVAL)");
                return Err(libc::EINVAL);
            }
        }
    }
    let b: Vec<u8> = vals.iter().flat_map(|v| v.to_le_bytes()).collect();
    user::write_bytes(req.return_pointer, &b[..b.len().min(req.return_size as usize)])
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The CU layout adds up to the chip's WGPs, as Mesa counts it.
    #[test]
    fn cu_bitmap_counts_the_chip() {
        let chip = gpu::Config::default().chip_info();
        let d = dev_info(&chip);
        let mut cus = 0;
        for se in 0..d.num_shader_engines as usize {
            for sa in 0..d.num_shader_arrays_per_engine as usize {
                cus += d.cu_bitmap[se % 4][(se / 4) * 2 + sa].count_ones();
            }
        }
        assert_eq!(cus, chip.num_wgps * 2);
        assert_eq!(d.cu_active_number, cus);
        assert_eq!(d.family, 145, "AMDGPU_FAMILY_GC_11_0_0");
    }
}
