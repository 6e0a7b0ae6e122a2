//! The Linux DRM and amdgpu user-space ABI the shim answers: ioctl numbers and argument
//! structures, as `include/uapi/drm/drm.h` and `amdgpu_drm.h` define them (x86-64 layout;
//! sizes checked at compile time).

/// `_IOC` direction bits.
pub const IOC_WRITE: u32 = 1;
pub const IOC_READ: u32 = 2;

/// The parts of an ioctl request number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Request {
    pub dir: u32,
    pub kind: u8,
    pub nr: u8,
    pub size: usize,
}

impl Request {
    pub fn decode(req: u64) -> Request {
        let req = req as u32;
        Request { dir: req >> 30, kind: (req >> 8) as u8, nr: req as u8, size: ((req >> 16) & 0x3fff) as usize }
    }
}

/// The DRM ioctl type character.
pub const DRM_TYPE: u8 = b'd';
/// Driver ioctls start here (`DRM_COMMAND_BASE`).
pub const DRM_COMMAND_BASE: u8 = 0x40;

/// DRM core ioctl numbers.
pub mod nr {
    pub const VERSION: u8 = 0x00;
    pub const GET_UNIQUE: u8 = 0x01;
    pub const GET_MAGIC: u8 = 0x02;
    pub const GET_CLIENT: u8 = 0x05;
    pub const GEM_CLOSE: u8 = 0x09;
    pub const GEM_FLINK: u8 = 0x0a;
    pub const GEM_OPEN: u8 = 0x0b;
    pub const GET_CAP: u8 = 0x0c;
    pub const SET_CLIENT_CAP: u8 = 0x0d;
    pub const PRIME_HANDLE_TO_FD: u8 = 0x2d;
    pub const PRIME_FD_TO_HANDLE: u8 = 0x2e;
    pub const SYNCOBJ_CREATE: u8 = 0xbf;
    pub const SYNCOBJ_DESTROY: u8 = 0xc0;
    pub const SYNCOBJ_HANDLE_TO_FD: u8 = 0xc1;
    pub const SYNCOBJ_FD_TO_HANDLE: u8 = 0xc2;
    pub const SYNCOBJ_WAIT: u8 = 0xc3;
    pub const SYNCOBJ_RESET: u8 = 0xc4;
    pub const SYNCOBJ_SIGNAL: u8 = 0xc5;
    pub const SYNCOBJ_TIMELINE_WAIT: u8 = 0xca;
    pub const SYNCOBJ_QUERY: u8 = 0xcb;
    pub const SYNCOBJ_TRANSFER: u8 = 0xcc;
    pub const SYNCOBJ_TIMELINE_SIGNAL: u8 = 0xcd;
}

/// amdgpu ioctl numbers, relative to [`DRM_COMMAND_BASE`].
pub mod amdgpu {
    pub const GEM_CREATE: u8 = 0x00;
    pub const GEM_MMAP: u8 = 0x01;
    pub const CTX: u8 = 0x02;
    pub const BO_LIST: u8 = 0x03;
    pub const CS: u8 = 0x04;
    pub const INFO: u8 = 0x05;
    pub const GEM_METADATA: u8 = 0x06;
    pub const GEM_WAIT_IDLE: u8 = 0x07;
    pub const GEM_VA: u8 = 0x08;
    pub const WAIT_CS: u8 = 0x09;
    pub const GEM_OP: u8 = 0x10;
    pub const GEM_USERPTR: u8 = 0x11;
    pub const WAIT_FENCES: u8 = 0x12;
    pub const VM: u8 = 0x13;
    pub const FENCE_TO_HANDLE: u8 = 0x14;
    pub const SCHED: u8 = 0x15;
}

/// The name of a DRM or amdgpu ioctl number, for the log.
pub fn ioctl_name(r: Request) -> String {
    if r.kind != DRM_TYPE {
        return format!("ioctl type {:#x} nr {:#x}", r.kind, r.nr);
    }
    const CORE: &[(u8, &str)] = &[
        (nr::VERSION, "DRM_IOCTL_VERSION"),
        (nr::GET_UNIQUE, "DRM_IOCTL_GET_UNIQUE"),
        (nr::GET_MAGIC, "DRM_IOCTL_GET_MAGIC"),
        (nr::GET_CLIENT, "DRM_IOCTL_GET_CLIENT"),
        (nr::GEM_CLOSE, "DRM_IOCTL_GEM_CLOSE"),
        (nr::GEM_FLINK, "DRM_IOCTL_GEM_FLINK"),
        (nr::GEM_OPEN, "DRM_IOCTL_GEM_OPEN"),
        (nr::GET_CAP, "DRM_IOCTL_GET_CAP"),
        (nr::SET_CLIENT_CAP, "DRM_IOCTL_SET_CLIENT_CAP"),
        (nr::PRIME_HANDLE_TO_FD, "DRM_IOCTL_PRIME_HANDLE_TO_FD"),
        (nr::PRIME_FD_TO_HANDLE, "DRM_IOCTL_PRIME_FD_TO_HANDLE"),
        (nr::SYNCOBJ_CREATE, "DRM_IOCTL_SYNCOBJ_CREATE"),
        (nr::SYNCOBJ_DESTROY, "DRM_IOCTL_SYNCOBJ_DESTROY"),
        (nr::SYNCOBJ_HANDLE_TO_FD, "DRM_IOCTL_SYNCOBJ_HANDLE_TO_FD"),
        (nr::SYNCOBJ_FD_TO_HANDLE, "DRM_IOCTL_SYNCOBJ_FD_TO_HANDLE"),
        (nr::SYNCOBJ_WAIT, "DRM_IOCTL_SYNCOBJ_WAIT"),
        (nr::SYNCOBJ_RESET, "DRM_IOCTL_SYNCOBJ_RESET"),
        (nr::SYNCOBJ_SIGNAL, "DRM_IOCTL_SYNCOBJ_SIGNAL"),
        (nr::SYNCOBJ_TIMELINE_WAIT, "DRM_IOCTL_SYNCOBJ_TIMELINE_WAIT"),
        (nr::SYNCOBJ_QUERY, "DRM_IOCTL_SYNCOBJ_QUERY"),
        (nr::SYNCOBJ_TRANSFER, "DRM_IOCTL_SYNCOBJ_TRANSFER"),
        (nr::SYNCOBJ_TIMELINE_SIGNAL, "DRM_IOCTL_SYNCOBJ_TIMELINE_SIGNAL"),
    ];
    const DRIVER: &[&str] = &[
        "GEM_CREATE",
        "GEM_MMAP",
        "CTX",
        "BO_LIST",
        "CS",
        "INFO",
        "GEM_METADATA",
        "GEM_WAIT_IDLE",
        "GEM_VA",
        "WAIT_CS",
        "",
        "",
        "",
        "",
        "",
        "",
        "GEM_OP",
        "GEM_USERPTR",
        "WAIT_FENCES",
        "VM",
        "FENCE_TO_HANDLE",
        "SCHED",
    ];
    if let Some((_, n)) = CORE.iter().find(|(n, _)| *n == r.nr) {
        return (*n).to_string();
    }
    match r.nr.checked_sub(DRM_COMMAND_BASE).and_then(|i| DRIVER.get(i as usize)) {
        Some(n) if !n.is_empty() => format!("DRM_IOCTL_AMDGPU_{n}"),
        _ => format!("DRM ioctl {:#x}", r.nr),
    }
}

/// Plain old data: any bit pattern is a valid value, so the argument of an ioctl can be
/// copied in and out as bytes.
///
/// # Safety
/// Implementors are `repr(C)` structures of integers (and arrays of them) only.
pub unsafe trait Pod: Copy + 'static {
    fn zeroed() -> Self {
        // SAFETY: all-zero bytes are a valid value of a Pod type.
        unsafe { std::mem::zeroed() }
    }
}

macro_rules! pod {
    ($($t:ty = $size:expr),* $(,)?) => {
        $(
            // SAFETY: a repr(C) structure of integers.
            unsafe impl Pod for $t {}
            const _: () = assert!(std::mem::size_of::<$t>() == $size);
        )*
    };
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DrmVersion {
    pub version_major: i32,
    pub version_minor: i32,
    pub version_patchlevel: i32,
    pub name_len: u64,
    pub name: u64,
    pub date_len: u64,
    pub date: u64,
    pub desc_len: u64,
    pub desc: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DrmGetCap {
    pub capability: u64,
    pub value: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DrmSetClientCap {
    pub capability: u64,
    pub value: u64,
}

pub mod cap {
    pub const DUMB_BUFFER: u64 = 0x1;
    pub const PRIME: u64 = 0x5;
    pub const TIMESTAMP_MONOTONIC: u64 = 0x6;
    pub const ADDFB2_MODIFIERS: u64 = 0x10;
    pub const SYNCOBJ: u64 = 0x13;
    pub const SYNCOBJ_TIMELINE: u64 = 0x14;
    /// DRM_CAP_PRIME's bits.
    pub const PRIME_IMPORT: u64 = 1;
    pub const PRIME_EXPORT: u64 = 2;
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DrmGemClose {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DrmPrimeHandle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjCreate {
    pub handle: u32,
    pub flags: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjDestroy {
    pub handle: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjHandle {
    pub handle: u32,
    pub flags: u32,
    pub fd: i32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjTransfer {
    pub src_handle: u32,
    pub dst_handle: u32,
    pub src_point: u64,
    pub dst_point: u64,
    pub flags: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjWait {
    pub handles: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjTimelineWait {
    pub handles: u64,
    pub points: u64,
    pub timeout_nsec: i64,
    pub count_handles: u32,
    pub flags: u32,
    pub first_signaled: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjArray {
    pub handles: u64,
    pub count_handles: u32,
    pub pad: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct SyncobjTimelineArray {
    pub handles: u64,
    pub points: u64,
    pub count_handles: u32,
    pub flags: u32,
}

pub mod syncobj {
    pub const CREATE_SIGNALED: u32 = 1;
    pub const WAIT_ALL: u32 = 1;
    pub const WAIT_FOR_SUBMIT: u32 = 2;
    pub const WAIT_AVAILABLE: u32 = 4;
    pub const QUERY_LAST_SUBMITTED: u32 = 1;
    pub const EXPORT_SYNC_FILE: u32 = 1;
    pub const IMPORT_SYNC_FILE: u32 = 1;
}

/// `union drm_amdgpu_ctx`: `in` is op, flags, ctx_id, priority; `out` is ctx_id (alloc)
/// or flags (u64), hangs, reset_status (query).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AmdgpuCtx {
    pub words: [u32; 4],
}

pub mod ctx {
    pub const OP_ALLOC: u32 = 1;
    pub const OP_FREE: u32 = 2;
    pub const OP_QUERY_STATE: u32 = 3;
    pub const OP_QUERY_STATE2: u32 = 4;
    pub const QUERY2_FLAGS_RESET: u64 = 1;
    pub const QUERY2_FLAGS_GUILTY: u64 = 4;
    pub const GUILTY_RESET: u32 = 1;
    pub const PRIORITY_VERY_LOW: i32 = -1023;
    pub const PRIORITY_UNSET: i32 = -2048;
    pub const PRIORITY_VERY_HIGH: i32 = 1023;
}

/// `struct drm_amdgpu_info`: where to write, how much, which query, and the query's own
/// four words (`query_hw_ip`, `read_mmr_reg`, `query_fw`, ...).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AmdgpuInfo {
    pub return_pointer: u64,
    pub return_size: u32,
    pub query: u32,
    pub args: [u32; 4],
}

pub mod info {
    pub const ACCEL_WORKING: u32 = 0x00;
    pub const HW_IP_INFO: u32 = 0x02;
    pub const HW_IP_COUNT: u32 = 0x03;
    pub const TIMESTAMP: u32 = 0x05;
    pub const FW_VERSION: u32 = 0x0e;
    pub const NUM_BYTES_MOVED: u32 = 0x0f;
    pub const VRAM_USAGE: u32 = 0x10;
    pub const GTT_USAGE: u32 = 0x11;
    pub const GDS_CONFIG: u32 = 0x13;
    pub const VRAM_GTT: u32 = 0x14;
    pub const READ_MMR_REG: u32 = 0x15;
    pub const DEV_INFO: u32 = 0x16;
    pub const VIS_VRAM_USAGE: u32 = 0x17;
    pub const NUM_EVICTIONS: u32 = 0x18;
    pub const MEMORY: u32 = 0x19;
    pub const NUM_VRAM_CPU_PAGE_FAULTS: u32 = 0x1e;
    pub const VRAM_LOST_COUNTER: u32 = 0x1f;
    pub const VIDEO_CAPS: u32 = 0x21;

    pub const FW_VCE: u32 = 0x1;
    pub const FW_UVD: u32 = 0x2;
    pub const FW_GFX_ME: u32 = 0x04;
    pub const FW_GFX_PFP: u32 = 0x05;
    pub const FW_GFX_CE: u32 = 0x06;
    pub const FW_GFX_RLC: u32 = 0x07;
    pub const FW_GFX_MEC: u32 = 0x08;
    pub const FW_SDMA: u32 = 0x0b;

    pub const HW_IP_GFX: u32 = 0;
    pub const HW_IP_COMPUTE: u32 = 1;
    pub const HW_IP_DMA: u32 = 2;
    pub const HW_IP_NUM: u32 = 9;

    pub const VRAM_TYPE_GDDR6: u32 = 9;

    /// Video codec capability slots (`AMDGPU_INFO_VIDEO_CAPS_CODEC_IDX_COUNT`).
    pub const VIDEO_CODECS: usize = 8;
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct DeviceInfo {
    pub device_id: u32,
    pub chip_rev: u32,
    pub external_rev: u32,
    pub pci_rev: u32,
    pub family: u32,
    pub num_shader_engines: u32,
    pub num_shader_arrays_per_engine: u32,
    pub gpu_counter_freq: u32,
    pub max_engine_clock: u64,
    pub max_memory_clock: u64,
    pub cu_active_number: u32,
    pub cu_ao_mask: u32,
    pub cu_bitmap: [[u32; 4]; 4],
    pub enabled_rb_pipes_mask: u32,
    pub num_rb_pipes: u32,
    pub num_hw_gfx_contexts: u32,
    pub pcie_gen: u32,
    pub ids_flags: u64,
    pub virtual_address_offset: u64,
    pub virtual_address_max: u64,
    pub virtual_address_alignment: u32,
    pub pte_fragment_size: u32,
    pub gart_page_size: u32,
    pub ce_ram_size: u32,
    pub vram_type: u32,
    pub vram_bit_width: u32,
    pub vce_harvest_config: u32,
    pub gc_double_offchip_lds_buf: u32,
    pub prim_buf_gpu_addr: u64,
    pub pos_buf_gpu_addr: u64,
    pub cntl_sb_buf_gpu_addr: u64,
    pub param_buf_gpu_addr: u64,
    pub prim_buf_size: u32,
    pub pos_buf_size: u32,
    pub cntl_sb_buf_size: u32,
    pub param_buf_size: u32,
    pub wave_front_size: u32,
    pub num_shader_visible_vgprs: u32,
    pub num_cu_per_sh: u32,
    pub num_tcc_blocks: u32,
    pub gs_vgt_table_depth: u32,
    pub gs_prim_buffer_depth: u32,
    pub max_gs_waves_per_vgt: u32,
    pub pcie_num_lanes: u32,
    pub cu_ao_bitmap: [[u32; 4]; 4],
    pub high_va_offset: u64,
    pub high_va_max: u64,
    pub pa_sc_tile_steering_override: u32,
    pub _pad: u32,
    pub tcc_disabled_mask: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct HwIpInfo {
    pub hw_ip_version_major: u32,
    pub hw_ip_version_minor: u32,
    pub capabilities_flags: u64,
    pub ib_start_alignment: u32,
    pub ib_size_alignment: u32,
    pub available_rings: u32,
    pub ip_discovery_version: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct HeapInfo {
    pub total_heap_size: u64,
    pub usable_heap_size: u64,
    pub heap_usage: u64,
    pub max_allocation: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemoryInfo {
    pub vram: HeapInfo,
    pub cpu_accessible_vram: HeapInfo,
    pub gtt: HeapInfo,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VramGtt {
    pub vram_size: u64,
    pub vram_cpu_accessible_size: u64,
    pub gtt_size: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Firmware {
    pub ver: u32,
    pub feature: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GdsInfo {
    pub words: [u32; 8],
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct VideoCaps {
    /// Per codec: valid, max_width, max_height, max_pixels_per_frame, max_level, pad.
    pub codec_info: [[u32; 6]; info::VIDEO_CODECS],
}

/// `union drm_amdgpu_gem_create`: in = bo_size, alignment, domains, domain_flags; out =
/// handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemCreate {
    pub bo_size: u64,
    pub alignment: u64,
    pub domains: u64,
    pub domain_flags: u64,
}

pub mod gem {
    pub const DOMAIN_CPU: u64 = 0x1;
    pub const DOMAIN_GTT: u64 = 0x2;
    pub const DOMAIN_VRAM: u64 = 0x4;
    /// GDS, GWS and OA: on-chip resources gfx11 user space does not allocate here.
    pub const DOMAIN_ONCHIP: u64 = 0x8 | 0x10 | 0x20;
    pub const OP_GET_GEM_CREATE_INFO: u32 = 0;
    pub const OP_SET_PLACEMENT: u32 = 1;
    pub const METADATA_OP_SET: u32 = 1;
    pub const METADATA_OP_GET: u32 = 2;
    pub const VA_OP_MAP: u32 = 1;
    pub const VA_OP_UNMAP: u32 = 2;
    pub const VA_OP_CLEAR: u32 = 3;
    pub const VA_OP_REPLACE: u32 = 4;
    pub const VM_PAGE_PRT: u32 = 1 << 4;
    pub const BO_LIST_OP_CREATE: u32 = 0;
    pub const BO_LIST_OP_DESTROY: u32 = 1;
    pub const BO_LIST_OP_UPDATE: u32 = 2;
    /// GEM_USERPTR flags (`AMDGPU_GEM_USERPTR_*`).
    pub const USERPTR_READONLY: u32 = 1 << 0;
    pub const USERPTR_ANONONLY: u32 = 1 << 1;
    pub const USERPTR_VALIDATE: u32 = 1 << 2;
    pub const USERPTR_REGISTER: u32 = 1 << 3;
}

/// `union drm_amdgpu_gem_mmap`: in = handle; out = the offset to mmap the node at.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemMmap {
    pub handle_or_offset: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemVa {
    pub handle: u32,
    pub _pad: u32,
    pub operation: u32,
    pub flags: u32,
    pub va_address: u64,
    pub offset_in_bo: u64,
    pub map_size: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemOp {
    pub handle: u32,
    pub op: u32,
    pub value: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemMetadata {
    pub handle: u32,
    pub op: u32,
    pub flags: u64,
    pub tiling_info: u64,
    pub data_size_bytes: u32,
    pub data: [u32; 64],
    pub _pad: u32,
}

/// `union drm_amdgpu_gem_wait_idle`: in = handle, flags, timeout; out = status, domain.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemWaitIdle {
    pub handle_or_status: u32,
    pub flags_or_domain: u32,
    pub timeout: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct GemUserptr {
    pub addr: u64,
    pub size: u64,
    pub flags: u32,
    pub handle: u32,
}

/// `union drm_amdgpu_bo_list`: in = operation, list_handle, bo_number, bo_info_size,
/// bo_info_ptr; out = list_handle.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BoList {
    pub operation: u32,
    pub list_handle: u32,
    pub bo_number: u32,
    pub bo_info_size: u32,
    pub bo_info_ptr: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct BoListEntry {
    pub bo_handle: u32,
    pub bo_priority: u32,
}

/// `union drm_amdgpu_cs`: in = ctx_id, bo_list_handle, num_chunks, flags, chunks; out =
/// handle (the submission's sequence number, in the first 8 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Cs {
    pub ctx_id: u32,
    pub bo_list_handle: u32,
    pub num_chunks: u32,
    pub flags: u32,
    pub chunks: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CsChunk {
    pub chunk_id: u32,
    pub length_dw: u32,
    pub chunk_data: u64,
}

pub mod chunk {
    pub const IB: u32 = 0x01;
    pub const FENCE: u32 = 0x02;
    pub const DEPENDENCIES: u32 = 0x03;
    pub const SYNCOBJ_IN: u32 = 0x04;
    pub const SYNCOBJ_OUT: u32 = 0x05;
    pub const BO_HANDLES: u32 = 0x06;
    pub const SCHEDULED_DEPENDENCIES: u32 = 0x07;
    pub const SYNCOBJ_TIMELINE_WAIT: u32 = 0x08;
    pub const SYNCOBJ_TIMELINE_SIGNAL: u32 = 0x09;
    pub const IB_FLAG_CE: u32 = 1;
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CsChunkIb {
    pub _pad: u32,
    pub flags: u32,
    pub va_start: u64,
    pub ib_bytes: u32,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
}

/// `struct drm_amdgpu_cs_chunk_fence`: a BO and the offset in it where the submission's
/// sequence number is written when it completes (a "user fence").
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CsChunkFence {
    pub handle: u32,
    pub offset: u32,
}

/// `struct drm_amdgpu_cs_chunk_dep`, also `struct drm_amdgpu_fence` (same layout).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CsChunkDep {
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub ctx_id: u32,
    pub handle: u64,
}

#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CsChunkSyncobj {
    pub handle: u32,
    pub flags: u32,
    pub point: u64,
}

/// `union drm_amdgpu_wait_cs`: in = handle, timeout, ip_type, ip_instance, ring, ctx_id;
/// out = status (first 8 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WaitCs {
    pub handle: u64,
    pub timeout: u64,
    pub ip_type: u32,
    pub ip_instance: u32,
    pub ring: u32,
    pub ctx_id: u32,
}

/// `union drm_amdgpu_wait_fences`: in = fences, fence_count, wait_all, timeout_ns; out =
/// status, first_signaled.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct WaitFences {
    pub fences: u64,
    pub fence_count: u32,
    pub wait_all: u32,
    pub timeout_ns: u64,
}

/// `union drm_amdgpu_vm`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct AmdgpuVm {
    pub op: u32,
    pub flags: u32,
}

pod! {
    GemCreate = 32,
    GemMmap = 8,
    GemVa = 40,
    GemOp = 16,
    GemMetadata = 288,
    GemWaitIdle = 16,
    GemUserptr = 24,
    BoList = 24,
    BoListEntry = 8,
    Cs = 24,
    CsChunk = 16,
    CsChunkIb = 32,
    CsChunkDep = 24,
    CsChunkSyncobj = 16,
    CsChunkFence = 8,
    WaitCs = 32,
    WaitFences = 24,
    AmdgpuVm = 8,
}

pod! {
    DrmVersion = 64,
    DrmGetCap = 16,
    DrmSetClientCap = 16,
    DrmGemClose = 8,
    DrmPrimeHandle = 12,
    SyncobjCreate = 8,
    SyncobjDestroy = 8,
    SyncobjHandle = 16,
    SyncobjTransfer = 32,
    SyncobjWait = 32,
    SyncobjTimelineWait = 40,
    SyncobjArray = 16,
    SyncobjTimelineArray = 24,
    AmdgpuCtx = 16,
    AmdgpuInfo = 32,
    DeviceInfo = 368,
    HwIpInfo = 32,
    HeapInfo = 32,
    MemoryInfo = 96,
    VramGtt = 24,
    Firmware = 8,
    GdsInfo = 32,
    VideoCaps = 192,
    u32 = 4,
    u64 = 8,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Request numbers from drm.h / amdgpu_drm.h, as the kernel headers compute them.
    #[test]
    fn request_numbers_decode() {
        // DRM_IOCTL_VERSION = _IOWR('d', 0x00, struct drm_version) = 0xc0406400.
        let r = Request::decode(0xc040_6400);
        assert_eq!(r, Request { dir: IOC_READ | IOC_WRITE, kind: DRM_TYPE, nr: 0, size: 64 });
        // DRM_IOCTL_AMDGPU_INFO = _IOW('d', 0x45, struct drm_amdgpu_info) = 0x40206445.
        let r = Request::decode(0x4020_6445);
        assert_eq!(r, Request { dir: IOC_WRITE, kind: DRM_TYPE, nr: 0x45, size: 32 });
        assert_eq!(ioctl_name(r), "DRM_IOCTL_AMDGPU_INFO");
        assert_eq!(ioctl_name(Request::decode(0xc02064c3)), "DRM_IOCTL_SYNCOBJ_WAIT");
    }
}
