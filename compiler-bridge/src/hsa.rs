//! External code objects used as shader modules (ARCHITECTURE.md, "External code objects
//! can be used as shader modules"; docs/ABI.md): how a kernel's kernarg segment is filled
//! from a Vulkan pipeline layout and dispatch, as an HSA runtime (ROCclr) fills it.
//!
//! [`KernargPlan::new`] decides, once per pipeline, where every byte of the kernarg segment
//! comes from (metadata `.args` order and `.value_kind`); [`KernargPlan::fill`] writes it per
//! dispatch. Nothing here knows about the GPU model or Vulkan objects.

use crate::elf::{Kernel, UserSgpr};

/// Size of an `hsa_kernel_dispatch_packet_t`.
pub const DISPATCH_PACKET_SIZE: usize = 64;
/// Bytes of the zeroed `amd_queue_t` stand-in a queue pointer points at.
pub const QUEUE_SIZE: usize = 256;

/// Where one kernel argument's bytes come from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArgSource {
    /// The device address of set 0's `n`-th buffer descriptor (bindings in increasing
    /// number, array elements in order).
    Buffer(u32),
    /// `size` bytes of the push-constant block at this offset.
    Push(u32),
    /// A fixed value (LDS offsets of dynamic `__local` arguments, null pointers, zeros).
    Const(u64),
    /// Workgroup count in a dimension (`hidden_block_count_*`).
    BlockCount(usize),
    /// Workgroup size in a dimension (`hidden_group_size_*`).
    GroupSize(usize),
    /// Grid size modulo workgroup size (`hidden_remainder_*`): 0, the grid is whole groups.
    Remainder(usize),
    /// `hidden_grid_dims`: the highest dimension whose grid is more than one work-item.
    GridDims,
}

/// One argument to write: `size` bytes at kernarg `offset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ArgFill {
    pub offset: u32,
    pub size: u32,
    pub source: ArgSource,
}

/// Values a user SGPR pair (or single SGPR) receives at dispatch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UserValue {
    Kernarg,
    DispatchPtr,
    QueuePtr,
    DispatchId,
    /// `PRIVATE_SEGMENT_SIZE`: bytes of private memory per work-item.
    PrivateSegmentSize(u32),
    /// Dword `n` of the push constants (Mesa code objects, [`crate::mesa`]).
    PushDword(u32),
}

/// How to fill one kernel's kernarg segment and user SGPRs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernargPlan {
    /// Bytes of the kernarg segment (at least 16).
    pub size: u32,
    pub fills: Vec<ArgFill>,
    /// Buffer descriptors of set 0 the kernel takes (its `global_buffer` arguments).
    pub buffers: u32,
    /// Bytes of push constants the `by_value` arguments use.
    pub push_bytes: u32,
    /// LDS the workgroup needs: the kernel's fixed LDS plus its dynamic `__local` arguments.
    pub lds_bytes: u32,
    /// User SGPRs to program: (first SGPR, what, SGPR count).
    pub user_sgprs: Vec<(u32, UserValue, u32)>,
}

/// Values of one dispatch.
#[derive(Clone, Copy, Debug)]
pub struct DispatchValues<'a> {
    /// Workgroup counts (vkCmdDispatch's arguments).
    pub counts: [u32; 3],
    pub workgroup_size: [u32; 3],
    /// Device addresses of set 0's buffer descriptors, in order.
    pub buffers: &'a [u64],
    /// The push-constant block.
    pub push: &'a [u8],
}

/// `hidden_*` kinds whose value is a null pointer or zero on this stack (no printf or
/// hostcall buffers, no device-side enqueue, no multigrid sync, global offset 0: a Vulkan
/// dispatch's base workgroup is in the workgroup ids already).
const ZERO_HIDDEN: &[&str] = &[
    "hidden_none",
    "hidden_global_offset_x",
    "hidden_global_offset_y",
    "hidden_global_offset_z",
    "hidden_tool_correlation_id",
    "hidden_reserved",
    "hidden_heap_v1",
    "hidden_hostcall_buffer",
    "hidden_printf_buffer",
    "hidden_default_queue",
    "hidden_completion_action",
    "hidden_multigrid_sync_arg",
    "hidden_queue_ptr",
    "hidden_private_base",
    "hidden_shared_base",
];

/// Most bytes of kernel arguments this driver places per dispatch: a bound of softnavi's
/// (kernels use a few hundred bytes), so that a code object's metadata cannot make each
/// dispatch allocate gigabytes.
pub const MAX_KERNARG_BYTES: u32 = 1 << 20;

/// `v` rounded up to a multiple of `a`, saturating (the operands come from code objects).
fn align_up(v: u32, a: u32) -> u32 {
    v.div_ceil(a).saturating_mul(a)
}

impl KernargPlan {
    /// Plans the kernarg segment of `kernel`. `dynamic_lds` gives the byte size of each
    /// dynamic `__local` pointer argument, in order (specialisation constants 3, 4, ...).
    /// Errors name what the kernel needs that this path does not give.
    pub fn new(kernel: &Kernel, dynamic_lds: &[u32]) -> Result<KernargPlan, String> {
        let meta = &kernel.metadata;
        let kd = &kernel.descriptor;
        let mut fills = Vec::with_capacity(meta.args.len());
        let (mut buffers, mut push) = (0u32, 0u32);
        let mut lds = kd.group_segment_fixed_size.max(meta.group_segment_fixed_size);
        let mut dynamic_lds_args = 0usize;
        let mut hidden_dynamic_lds = Vec::new();
        let size = meta.kernarg_segment_size.max(kd.kernarg_size);
        if size > MAX_KERNARG_BYTES {
            return Err(format!("a kernarg segment of {size} bytes exceeds the {MAX_KERNARG_BYTES} softnavi places"));
        }
        for (i, a) in meta.args.iter().enumerate() {
            let what = || format!("argument {i} ({}, `{}`)", a.name.as_deref().unwrap_or("unnamed"), a.value_kind);
            if a.offset.checked_add(a.size).is_none_or(|end| end > size) {
                return Err(format!("{} lies outside the {size}-byte kernarg segment", what()));
            }
            let hidden_dim = |s: &str| match s.as_bytes().last() {
                Some(b'x') => 0,
                Some(b'y') => 1,
                _ => 2,
            };
            let source = match a.value_kind.as_str() {
                "global_buffer" => {
                    if a.size != 8 {
                        return Err(format!("{} is not a 64-bit pointer", what()));
                    }
                    buffers += 1;
                    ArgSource::Buffer(buffers - 1)
                }
                "by_value" => {
                    // C struct layout of the by-value arguments alone: each at the next
                    // offset aligned like its kernarg offset and size (at most 16).
                    let align = (1u32 << (a.offset | a.size | 16).trailing_zeros()).min(16);
                    let at = align_up(push, align);
                    push = at.saturating_add(a.size);
                    ArgSource::Push(at)
                }
                "dynamic_shared_pointer" => {
                    let Some(&bytes) = dynamic_lds.get(dynamic_lds_args) else {
                        return Err(format!(
                            "{} is a dynamic __local pointer: give its byte size in specialisation \
                             constant {}",
                            what(),
                            3 + dynamic_lds_args
                        ));
                    };
                    dynamic_lds_args += 1;
                    let align = a.pointee_align.unwrap_or(4).clamp(4, 256);
                    let at = align_up(lds, align);
                    lds = at.saturating_add(bytes);
                    ArgSource::Const(at as u64)
                }
                "hidden_block_count_x" | "hidden_block_count_y" | "hidden_block_count_z" => {
                    ArgSource::BlockCount(hidden_dim(&a.value_kind))
                }
                "hidden_group_size_x" | "hidden_group_size_y" | "hidden_group_size_z" => {
                    ArgSource::GroupSize(hidden_dim(&a.value_kind))
                }
                "hidden_remainder_x" | "hidden_remainder_y" | "hidden_remainder_z" => {
                    ArgSource::Remainder(hidden_dim(&a.value_kind))
                }
                "hidden_grid_dims" => ArgSource::GridDims,
                "hidden_dynamic_lds_size" => {
                    // Known once every dynamic argument is placed.
                    hidden_dynamic_lds.push(fills.len());
                    ArgSource::Const(0)
                }
                k if ZERO_HIDDEN.contains(&k) => ArgSource::Const(0),
                _ => return Err(format!("{} has a value kind this driver does not fill", what())),
            };
            fills.push(ArgFill { offset: a.offset, size: a.size, source });
        }
        if push > MAX_KERNARG_BYTES {
            return Err(format!(
                "its by-value arguments take {push} bytes, above the {MAX_KERNARG_BYTES} softnavi places"
            ));
        }
        let fixed = kd.group_segment_fixed_size.max(meta.group_segment_fixed_size);
        for i in hidden_dynamic_lds {
            fills[i].source = ArgSource::Const((lds - fixed) as u64);
        }
        if lds > 64 * 1024 {
            return Err(format!("the kernel needs {lds} bytes of LDS; a workgroup has 65536"));
        }
        let mut user_sgprs = Vec::new();
        for (what, first, count) in kd.user_sgpr_layout() {
            let v = match what {
                UserSgpr::KernargSegmentPtr => UserValue::Kernarg,
                UserSgpr::DispatchPtr => UserValue::DispatchPtr,
                UserSgpr::QueuePtr => UserValue::QueuePtr,
                UserSgpr::DispatchId => UserValue::DispatchId,
                UserSgpr::PrivateSegmentSize => UserValue::PrivateSegmentSize(kd.private_segment_fixed_size),
                UserSgpr::PrivateSegmentBuffer | UserSgpr::FlatScratchInit => {
                    return Err(format!("the kernel asks for the {what:?} user SGPRs, which gfx11 does not use"))
                }
            };
            user_sgprs.push((first, v, count));
        }
        if kd.kernarg_preload != 0 {
            return Err("kernel argument preloading is not supported".into());
        }
        Ok(KernargPlan {
            size: align_up(size.max(16), 16),
            fills,
            buffers,
            push_bytes: push,
            lds_bytes: lds,
            user_sgprs,
        })
    }

    /// Whether a dispatch needs an HSA dispatch packet (the kernel takes a dispatch pointer).
    pub fn needs_dispatch_packet(&self) -> bool {
        self.user_sgprs.iter().any(|(_, v, _)| *v == UserValue::DispatchPtr)
    }

    /// Writes the kernarg segment for a dispatch into `out` (`self.size` bytes).
    pub fn fill(&self, v: &DispatchValues, out: &mut [u8]) {
        let grid = [0, 1, 2].map(|d| v.counts[d] as u64 * v.workgroup_size[d] as u64);
        let dims = grid_dims(grid);
        for f in &self.fills {
            let value = match f.source {
                ArgSource::Buffer(n) => v.buffers.get(n as usize).copied().unwrap_or(0),
                ArgSource::Push(at) => {
                    let src = v.push.get(at as usize..at as usize + f.size as usize).unwrap_or(&[]);
                    if let Some(dst) = out.get_mut(f.offset as usize..f.offset as usize + src.len()) {
                        dst.copy_from_slice(src);
                    }
                    continue;
                }
                ArgSource::Const(c) => c,
                ArgSource::BlockCount(d) => v.counts[d] as u64,
                ArgSource::GroupSize(d) => v.workgroup_size[d] as u64,
                ArgSource::Remainder(_) => 0,
                ArgSource::GridDims => dims as u64,
            };
            let n = (f.size as usize).min(8);
            if let Some(dst) = out.get_mut(f.offset as usize..f.offset as usize + n) {
                dst.copy_from_slice(&value.to_le_bytes()[..n]);
            }
        }
    }

    /// Kernarg offsets of the `hidden_block_count_{x,y,z}` arguments (4 bytes each), for an
    /// indirect dispatch whose counts the command processor copies in.
    pub fn block_count_offsets(&self) -> [Option<u32>; 3] {
        let mut out = [None; 3];
        for f in &self.fills {
            if let ArgSource::BlockCount(d) = f.source {
                out[d] = Some(f.offset);
            }
        }
        out
    }
}

/// `hidden_grid_dims` / the dispatch packet's dimensions: 3 if the grid has more than one
/// work-item in z, else 2 if in y, else 1.
pub fn grid_dims(grid: [u64; 3]) -> u16 {
    if grid[2] > 1 {
        3
    } else if grid[1] > 1 {
        2
    } else {
        1
    }
}

/// An `hsa_kernel_dispatch_packet_t` as an HSA runtime writes it (the code reads the
/// workgroup and grid sizes from it).
pub fn dispatch_packet(
    counts: [u32; 3],
    workgroup_size: [u32; 3],
    private_bytes: u32,
    lds_bytes: u32,
    kernel_object: u64,
    kernarg: u64,
) -> [u8; DISPATCH_PACKET_SIZE] {
    let mut p = [0u8; DISPATCH_PACKET_SIZE];
    let grid = [0, 1, 2].map(|d| counts[d] as u64 * workgroup_size[d] as u64);
    // header: type KERNEL_DISPATCH (2), barrier, system-scope acquire/release fences.
    let header: u16 = 2 | 1 << 8 | 2 << 9 | 2 << 11;
    p[0..2].copy_from_slice(&header.to_le_bytes());
    p[2..4].copy_from_slice(&grid_dims(grid).to_le_bytes());
    for d in 0..3 {
        p[4 + 2 * d..6 + 2 * d].copy_from_slice(&(workgroup_size[d] as u16).to_le_bytes());
        p[12 + 4 * d..16 + 4 * d].copy_from_slice(&(grid[d].min(u32::MAX as u64) as u32).to_le_bytes());
    }
    p[24..28].copy_from_slice(&private_bytes.to_le_bytes());
    p[28..32].copy_from_slice(&lds_bytes.to_le_bytes());
    p[32..40].copy_from_slice(&kernel_object.to_le_bytes());
    p[40..48].copy_from_slice(&kernarg.to_le_bytes());
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::elf::{KernelArg, KernelDescriptor, KernelMetadata};

    fn arg(offset: u32, size: u32, kind: &str) -> KernelArg {
        KernelArg { name: None, offset, size, value_kind: kind.into(), address_space: None, pointee_align: None }
    }

    fn kernel(args: Vec<KernelArg>, size: u32) -> Kernel {
        Kernel {
            name: "k".into(),
            symbol: "k.kd".into(),
            descriptor_offset: 0,
            descriptor: KernelDescriptor { kernel_code_properties: 1 << 3 | 1 << 1, ..Default::default() },
            metadata: KernelMetadata { args, kernarg_segment_size: size, ..Default::default() },
        }
    }

    /// AMDGPUUsage, "Code Object V5 Metadata": the implicit block's fields by value kind.
    #[test]
    fn v5_hidden_arguments_are_filled_like_an_hsa_runtime() {
        let k = kernel(
            vec![
                arg(0, 8, "global_buffer"),
                arg(8, 4, "by_value"),
                arg(16, 8, "global_buffer"),
                arg(24, 8, "by_value"),
                arg(32, 4, "hidden_block_count_x"),
                arg(36, 4, "hidden_block_count_y"),
                arg(40, 4, "hidden_block_count_z"),
                arg(44, 2, "hidden_group_size_x"),
                arg(46, 2, "hidden_group_size_y"),
                arg(48, 2, "hidden_group_size_z"),
                arg(50, 2, "hidden_remainder_x"),
                arg(72, 8, "hidden_global_offset_x"),
                arg(96, 2, "hidden_grid_dims"),
            ],
            288,
        );
        let plan = KernargPlan::new(&k, &[]).unwrap();
        assert_eq!((plan.buffers, plan.push_bytes, plan.size), (2, 16, 288));
        assert!(plan.needs_dispatch_packet());
        let mut push = [0u8; 16];
        push[0..4].copy_from_slice(&7u32.to_le_bytes());
        push[8..16].copy_from_slice(&(-2i64).to_le_bytes());
        let mut out = vec![0xaau8; plan.size as usize];
        let v =
            DispatchValues { counts: [5, 3, 1], workgroup_size: [64, 2, 1], buffers: &[0x1000, 0x2000], push: &push };
        plan.fill(&v, &mut out);
        let u64_at = |o: usize| u64::from_le_bytes(out[o..o + 8].try_into().unwrap());
        let u32_at = |o: usize| u32::from_le_bytes(out[o..o + 4].try_into().unwrap());
        let u16_at = |o: usize| u16::from_le_bytes(out[o..o + 2].try_into().unwrap());
        assert_eq!((u64_at(0), u32_at(8), u64_at(16), u64_at(24)), (0x1000, 7, 0x2000, (-2i64) as u64));
        assert_eq!((u32_at(32), u32_at(36), u32_at(40)), (5, 3, 1));
        assert_eq!((u16_at(44), u16_at(46), u16_at(48), u16_at(50)), (64, 2, 1, 0));
        assert_eq!((u64_at(72), u16_at(96)), (0, 2));
        assert_eq!(plan.block_count_offsets(), [Some(32), Some(36), Some(40)]);
    }

    #[test]
    fn dynamic_local_arguments_take_sizes_from_specialisation() {
        let mut k = kernel(vec![arg(0, 4, "dynamic_shared_pointer"), arg(8, 4, "hidden_dynamic_lds_size")], 16);
        k.metadata.args[0].pointee_align = Some(8);
        k.metadata.group_segment_fixed_size = 100;
        k.descriptor.group_segment_fixed_size = 100;
        assert!(KernargPlan::new(&k, &[]).unwrap_err().contains("specialisation constant 3"));
        let plan = KernargPlan::new(&k, &[256]).unwrap();
        assert_eq!(plan.fills[0].source, ArgSource::Const(104));
        assert_eq!(plan.fills[1].source, ArgSource::Const(260));
        assert_eq!(plan.lds_bytes, 360);
        let k = kernel(vec![arg(0, 8, "hidden_sideband")], 8);
        assert!(KernargPlan::new(&k, &[]).unwrap_err().contains("hidden_sideband"));
    }

    /// Found while writing the `elf` fuzz target (docs/FUZZING.md): a kernarg segment size
    /// near u32::MAX overflowed the rounding (a panic with overflow checks), and a large
    /// one made every dispatch allocate that much; by-value argument offsets could overflow.
    #[test]
    fn kernarg_sizes_from_metadata_are_bounded() {
        for size in [u32::MAX, u32::MAX - 15, MAX_KERNARG_BYTES + 1] {
            assert!(KernargPlan::new(&kernel(vec![], size), &[]).unwrap_err().contains("exceeds"), "{size}");
        }
        let plan = KernargPlan::new(&kernel(vec![], MAX_KERNARG_BYTES), &[]).unwrap();
        assert_eq!(plan.size, MAX_KERNARG_BYTES);
        let args = (0..2).map(|_| arg(0, MAX_KERNARG_BYTES, "by_value")).collect();
        assert!(KernargPlan::new(&kernel(args, MAX_KERNARG_BYTES), &[]).unwrap_err().contains("by-value"));
        let mut k = kernel(vec![arg(0, 4, "dynamic_shared_pointer")], 16);
        k.metadata.args[0].pointee_align = Some(256);
        k.descriptor.group_segment_fixed_size = u32::MAX - 3;
        assert!(KernargPlan::new(&k, &[u32::MAX]).unwrap_err().contains("LDS"));
    }

    #[test]
    fn dispatch_packet_layout() {
        let p = dispatch_packet([4, 2, 1], [32, 1, 1], 16, 512, 0xabc0, 0x5000);
        assert_eq!(u16::from_le_bytes([p[0], p[1]]) & 0xff, 2);
        assert_eq!(u16::from_le_bytes([p[2], p[3]]), 2);
        assert_eq!(u16::from_le_bytes([p[4], p[5]]), 32);
        assert_eq!(u32::from_le_bytes(p[12..16].try_into().unwrap()), 128);
        assert_eq!(u32::from_le_bytes(p[16..20].try_into().unwrap()), 2);
        assert_eq!(u32::from_le_bytes(p[28..32].try_into().unwrap()), 512);
        assert_eq!(u64::from_le_bytes(p[40..48].try_into().unwrap()), 0x5000);
    }
}
