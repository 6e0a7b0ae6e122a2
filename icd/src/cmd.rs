//! Command pools and command buffers. A command buffer is recorded as PM4 straight into
//! indirect buffers in GPU memory (chunks chained with `INDIRECT_BUFFER ... CHAIN`, the
//! chain's size patched when the next chunk is finished, as RADV does); kernarg segments
//! go to an upload area. Submission hands the first chunk to the winsys.

use std::sync::Arc;

use ash::vk::{self, Handle as _};
use compiler_bridge::abi;
use gpu::pm4::{self, reg, Builder};
use gpu::rsrc::BufferResource;

use crate::descriptor::{self, DescriptorSet, DescriptorUpdateTemplate};
use crate::device::{DeviceShared, Event};
use crate::handle::{destroy, guard, object, slice, Object};
use crate::memory::buffer;
use crate::pipeline::{Kernarg, Pipeline, PipelineLayout};
use compiler_bridge::hsa::{self, UserValue};

/// IB chunk size in dwords (32 KiB).
const CHUNK_DWORDS: u32 = 8192;
/// Upload area chunk size in bytes.
const UPLOAD_BYTES: u64 = 64 * 1024;
/// Dwords of one chaining INDIRECT_BUFFER packet.
const CHAIN_DWORDS: u32 = 4;
/// ACQUIRE_MEM GCR_CNTL after shader writes: invalidate K$/V$/GL1, write back and
/// invalidate GL2 (RADV's compute-to-compute barrier on gfx11).
const GCR_SHADER_WRITE: u32 = 0xc3b0;

/// PM4 written into chained IB chunks of GPU memory.
struct CmdStream {
    dev: Arc<DeviceShared>,
    chunks: Vec<Arc<gpu::mem::Bo>>,
    cur_used: u32,
    cur_cap: u32,
    /// The first IB: its address and, once known, its size.
    first: Option<(u64, u32)>,
    /// Host address of the size dword of the chain packet that points at the current chunk.
    chain_size: Option<*mut u32>,
    uploads: Vec<Arc<gpu::mem::Bo>>,
    up_used: u64,
    /// One packet being built (reused; no allocation per packet).
    pkt: Vec<u32>,
}

impl CmdStream {
    fn new(dev: Arc<DeviceShared>) -> CmdStream {
        CmdStream {
            dev,
            chunks: Vec::new(),
            cur_used: 0,
            cur_cap: 0,
            first: None,
            chain_size: None,
            uploads: Vec::new(),
            up_used: 0,
            pkt: Vec::with_capacity(64),
        }
    }

    fn reset(&mut self) {
        for bo in self.chunks.drain(..).chain(self.uploads.drain(..)) {
            self.dev.gpu.free(&bo);
        }
        self.cur_used = 0;
        self.cur_cap = 0;
        self.first = None;
        self.chain_size = None;
        self.up_used = 0;
    }

    fn cur_ptr(&self) -> *mut u32 {
        self.chunks.last().map_or(std::ptr::null_mut(), |b| b.host_ptr() as *mut u32)
    }

    /// Records the size of the current chunk where the IB that leads to it says it.
    fn close_chunk(&mut self) {
        let Some(bo) = self.chunks.last() else { return };
        match self.chain_size.take() {
            // SAFETY: the pointer is into a live chunk of ours.
            Some(p) => unsafe { p.write_volatile(self.cur_used | pm4::ib::VALID | pm4::ib::CHAIN) },
            None => self.first = Some((bo.va(), self.cur_used)),
        }
    }

    fn new_chunk(&mut self, min_dwords: u32) -> Result<(), vk::Result> {
        let cap = CHUNK_DWORDS.max(min_dwords + CHAIN_DWORDS);
        let bo = self.dev.gpu.alloc(cap as u64 * 4, 0).map_err(|_| vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)?;
        if !self.chunks.is_empty() {
            // Chain from the current chunk; its size is patched when the new one closes.
            let mut v = Vec::with_capacity(CHAIN_DWORDS as usize);
            Builder(&mut v).indirect_buffer(bo.va(), 0, true);
            self.write_raw(&v);
            let size_at = self.cur_used - 1;
            self.close_chunk();
            // SAFETY: size_at < cur_cap of the chunk being closed.
            self.chain_size = Some(unsafe { self.cur_ptr().add(size_at as usize) });
        }
        self.chunks.push(bo);
        self.cur_used = 0;
        self.cur_cap = cap;
        Ok(())
    }

    fn write_raw(&mut self, words: &[u32]) {
        let p = self.cur_ptr();
        for (k, &w) in words.iter().enumerate() {
            // SAFETY: callers reserved room (cur_used + len <= cur_cap).
            unsafe { p.add(self.cur_used as usize + k).write(w) };
        }
        self.cur_used += words.len() as u32;
    }

    /// Builds one packet with `f` and appends it, moving to a new chunk when it does not
    /// fit (a packet never straddles chunks).
    fn emit(&mut self, f: impl FnOnce(&mut Builder<Vec<u32>>)) -> Result<(), vk::Result> {
        let mut pkt = std::mem::take(&mut self.pkt);
        pkt.clear();
        f(&mut Builder(&mut pkt));
        let n = pkt.len() as u32;
        if self.chunks.is_empty() || self.cur_used + n + CHAIN_DWORDS > self.cur_cap {
            self.new_chunk(n)?;
        }
        self.write_raw(&pkt);
        self.pkt = pkt;
        Ok(())
    }

    /// Copies `data` into the upload area; returns its GPU address (`align`-aligned).
    fn upload(&mut self, data: &[u8], align: u64) -> Result<u64, vk::Result> {
        let len = data.len() as u64;
        let mut off = self.up_used.div_ceil(align) * align;
        if self.uploads.is_empty() || off + len > self.uploads.last().map_or(0, |b| b.size()) {
            let bo =
                self.dev.gpu.alloc(UPLOAD_BYTES.max(len), 0).map_err(|_| vk::Result::ERROR_OUT_OF_DEVICE_MEMORY)?;
            self.uploads.push(bo);
            off = 0;
        }
        let bo = self.uploads.last().expect("an upload chunk exists"); // ok: pushed above
                                                                       // SAFETY: off + len <= the chunk's size.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr(), bo.host_ptr().add(off as usize), data.len()) };
        self.up_used = off + len;
        Ok(bo.va() + off)
    }

    fn finish(&mut self) {
        self.close_chunk();
    }
}

impl Drop for CmdStream {
    fn drop(&mut self) {
        self.reset();
    }
}

/// User SGPR values of a dispatch: (first SGPR, dwords, how many of them).
type UserData = Vec<(u32, [u32; 2], u32)>;

/// Dword `i` of the push constants (0 past the end).
fn push_dword(push: &[u8], i: u32) -> u32 {
    let at = i as usize * 4;
    push.get(at..at + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Descriptor state bound for dispatches.
#[derive(Default, Clone)]
struct Bound {
    pipeline: vk::Pipeline,
    /// GPU address of each bound set's memory.
    sets: [u64; 32],
    /// Per set: its dynamic buffers (address with the dynamic offset applied, range).
    dynamic: Vec<Vec<(u64, u64)>>,
    /// Device addresses of set 0's buffer descriptors (for external code objects).
    set0_buffers: Vec<u64>,
    push: Vec<u8>,
    /// Per set index: the host image of its push descriptors (VK_KHR_push_descriptor). Each
    /// vkCmdPushDescriptorSetKHR updates it and uploads a copy, whose address is bound.
    push_sets: Vec<Vec<u8>>,
}

pub struct CommandBuffer {
    stream: CmdStream,
    bound: Bound,
    /// The first error met while recording; vkEndCommandBuffer reports it.
    error: Option<(vk::Result, String)>,
    /// Allocated from a pool of the transfer-only family: CP DMA work only (queue.rs).
    transfer_only: bool,
    /// The render pass instance being recorded (or continued, in a secondary command
    /// buffer): the attachments vkCmdClearAttachments clears (graphics.rs).
    rendering: Option<crate::graphics::Rendering>,
    /// A secondary command buffer (only those read their inheritance info).
    secondary: bool,
}
object!(CommandBuffer, vk::CommandBuffer, dispatchable);

impl CommandBuffer {
    /// The indirect buffer to submit, if anything was recorded.
    pub fn ib(&self) -> Option<gpu::Ib> {
        self.stream.first.filter(|(_, n)| *n > 0).map(|(va, dwords)| gpu::Ib { va, dwords })
    }

    fn reset(&mut self) {
        self.stream.reset();
        self.bound = Bound { push: vec![0; 256], ..Default::default() };
        self.error = None;
        self.rendering = None;
    }

    fn record(&mut self, what: &str, r: Result<(), (vk::Result, String)>) {
        if let Err((code, msg)) = r {
            tracing::warn!("{what}: {msg}");
            if self.error.is_none() {
                self.error = Some((code, format!("{what}: {msg}")));
            }
        }
    }

    /// Refuses compute work in a command buffer of the transfer-only family (a recording
    /// error: vkEndCommandBuffer fails). True when the command may be recorded.
    fn compute_allowed(&mut self, what: &str) -> bool {
        if self.transfer_only {
            let msg = format!(
                "not allowed in a command buffer of the transfer-only queue family {} (copy, fill, update, \
                 barriers, events and timestamps only)",
                crate::queue::TRANSFER_FAMILY
            );
            self.record(what, Err((vk::Result::ERROR_FEATURE_NOT_PRESENT, msg)));
        }
        !self.transfer_only
    }

    fn emit(&mut self, f: impl FnOnce(&mut Builder<Vec<u32>>)) -> Result<(), (vk::Result, String)> {
        self.stream.emit(f).map_err(|e| (e, "out of memory for the command stream".to_string()))
    }

    fn barrier(&mut self) -> Result<(), (vk::Result, String)> {
        self.emit(|b| b.cs_partial_flush_and_invalidate(GCR_SHADER_WRITE))
    }

    fn pipeline(&self) -> Result<&Pipeline, (vk::Result, String)> {
        // SAFETY: the bound pipeline outlives the recording, per the specification.
        unsafe { Pipeline::from_handle(self.bound.pipeline) }
            .map(|p| &*p)
            .ok_or((vk::Result::ERROR_UNKNOWN, "dispatch with no compute pipeline bound".into()))
    }

    /// Builds the kernarg segment for a dispatch (docs/ABI.md) and uploads it; returns its
    /// address and the user SGPR values, (first SGPR, dwords).
    fn kernarg(&mut self, p: &Pipeline, counts: [u32; 3]) -> Result<(u64, UserData), (vk::Result, String)> {
        let k = match &p.kernarg {
            Kernarg::Spirv(k) => *k,
            Kernarg::CodeObject(plan) => return self.code_object_kernarg(p, plan, counts),
        };
        let mut buf = vec![0u8; k.size.max(16) as usize];
        for (i, c) in counts.iter().enumerate() {
            buf[k.num_workgroups as usize + 4 * i..][..4].copy_from_slice(&c.to_le_bytes());
        }
        let mut dyn_slot = 0usize;
        for (s, set) in p.layout.sets.iter().enumerate() {
            let at = k.set_addresses as usize + 8 * s;
            buf[at..at + 8].copy_from_slice(&self.bound.sets.get(s).copied().unwrap_or(0).to_le_bytes());
            for j in 0..set.dynamic_count() as usize {
                let (va, range) = self.bound.dynamic.get(s).and_then(|d| d.get(j)).copied().unwrap_or((0, 0));
                let records = (range.div_ceil(4) * 4).min(u32::MAX as u64) as u32;
                let v = BufferResource::raw(va, records).encode();
                let at = k.dynamic_descriptors as usize + abi::BUFFER_DESCRIPTOR_SIZE as usize * dyn_slot;
                for (w, word) in v.iter().enumerate() {
                    buf[at + 4 * w..at + 4 * w + 4].copy_from_slice(&word.to_le_bytes());
                }
                dyn_slot += 1;
            }
        }
        let pc = p.layout.push_constant_size as usize;
        if pc > self.bound.push.len() {
            return Err((
                vk::Result::ERROR_UNKNOWN,
                format!("{pc} bytes of push constants exceed maxPushConstantsSize"),
            ));
        }
        buf[k.push_constants as usize..k.push_constants as usize + pc].copy_from_slice(&self.bound.push[..pc]);
        let va = self.stream.upload(&buf, 256).map_err(|e| (e, "out of memory for kernargs".into()))?;
        let user = p
            .user_sgprs
            .iter()
            .map(|&(sgpr, what, n)| {
                let v = match what {
                    UserValue::PushDword(i) => push_dword(&self.bound.push, i) as u64,
                    _ => va,
                };
                (sgpr, [v as u32, (v >> 32) as u32], n)
            })
            .collect();
        Ok((va, user))
    }

    /// The kernarg segment of an external code object's kernel, filled as an HSA runtime
    /// fills it (compiler_bridge::hsa), and its dispatch packet / queue when it takes them.
    fn code_object_kernarg(
        &mut self,
        p: &Pipeline,
        plan: &hsa::KernargPlan,
        counts: [u32; 3],
    ) -> Result<(u64, UserData), (vk::Result, String)> {
        let oom = |e| (e, "out of memory for kernargs".to_string());
        let mut buf = vec![0u8; plan.size as usize];
        let values = hsa::DispatchValues {
            counts,
            workgroup_size: p.workgroup_size,
            buffers: &self.bound.set0_buffers,
            push: &self.bound.push,
        };
        plan.fill(&values, &mut buf);
        let va = self.stream.upload(&buf, 256).map_err(oom)?;
        let mut user = Vec::with_capacity(plan.user_sgprs.len());
        for &(sgpr, what, n) in &plan.user_sgprs {
            let v: u64 = match what {
                UserValue::Kernarg => va,
                UserValue::DispatchPtr => {
                    let pkt = hsa::dispatch_packet(
                        counts,
                        p.workgroup_size,
                        p.private_bytes,
                        p.lds_bytes,
                        p.kernel_object,
                        va,
                    );
                    self.stream.upload(&pkt, 64).map_err(oom)?
                }
                UserValue::QueuePtr => self.stream.upload(&[0u8; hsa::QUEUE_SIZE], 64).map_err(oom)?,
                UserValue::DispatchId => 0,
                UserValue::PrivateSegmentSize(bytes) => bytes as u64,
                UserValue::PushDword(i) => push_dword(&self.bound.push, i) as u64,
            };
            user.push((sgpr, [v as u32, (v >> 32) as u32], n));
        }
        Ok((va, user))
    }

    fn meta_dispatch(
        &mut self,
        p: vk::Pipeline,
        set: &[u8],
        push: &[u8],
        counts: [u32; 3],
    ) -> Result<(), (vk::Result, String)> {
        let va = self.stream.upload(set, 256).map_err(|e| (e, "out of memory for descriptors".to_string()))?;
        let mut own = Bound { pipeline: p, push: vec![0; 256], ..Default::default() };
        own.sets[0] = va;
        own.push[..push.len()].copy_from_slice(push);
        let app = std::mem::replace(&mut self.bound, own);
        let res = self.dispatch([0; 3], counts, None);
        self.bound = app;
        res
    }

    /// Programs the compute registers for `p` and emits the dispatch packet(s).
    fn dispatch(
        &mut self,
        base: [u32; 3],
        counts: [u32; 3],
        indirect: Option<u64>,
    ) -> Result<(), (vk::Result, String)> {
        if indirect.is_none() && counts.contains(&0) {
            return Ok(());
        }
        let p = self.pipeline()?;
        let regs = (p.pgm, p.rsrc1, p.rsrc2, p.rsrc3, p.scratch, p.tmpring_waves, p.workgroup_size, p.wave32);
        let (pgm, rsrc1, rsrc2, rsrc3, scratch, waves, wg, wave32) = regs;
        let p: *const Pipeline = p;
        // SAFETY: the pipeline stays alive during recording (see `pipeline`).
        let p = unsafe { &*p };
        // Counts an indirect dispatch reads from memory: where the CP copies them.
        // (kernarg offset, offset in the indirect buffer, bytes)
        let indirect_counts: Vec<(u64, u64, u32)> = match (&p.kernarg, indirect) {
            (_, None) => Vec::new(),
            (Kernarg::Spirv(_), Some(_)) => vec![(abi::KERNARG_NUM_WORKGROUPS as u64, 0, 12)],
            (Kernarg::CodeObject(plan), Some(_)) => {
                if plan.needs_dispatch_packet() {
                    return Err((
                        vk::Result::ERROR_FEATURE_NOT_PRESENT,
                        "vkCmdDispatchIndirect of a code object kernel that reads the HSA dispatch packet \
                         (grid sizes known only on the GPU) is not supported"
                            .into(),
                    ));
                }
                let offsets = plan.block_count_offsets();
                (0..3).filter_map(|d| offsets[d].map(|o| (o as u64, 4 * d as u64, 4))).collect()
            }
        };
        let (kernarg, user) = self.kernarg(p, counts)?;
        let (tmpring, scratch_base) = match scratch {
            Some((va, per_wave)) => ((waves & 0xfff) | ((per_wave / 256) as u32 & 0x7fff) << 12, va),
            None => (0, 0),
        };
        let mut initiator = pm4::initiator::COMPUTE_SHADER_EN | pm4::initiator::ORDER_MODE;
        if wave32 {
            initiator |= pm4::initiator::CS_W32_EN;
        }
        if base == [0; 3] && indirect.is_none() {
            initiator |= pm4::initiator::FORCE_START_AT_000;
        }
        self.emit(|b| {
            b.set_sh_regs(reg::COMPUTE_PGM_LO, &[(pgm >> 8) as u32, (pgm >> 40) as u32]);
            b.set_sh_regs(reg::COMPUTE_PGM_RSRC1, &[rsrc1, rsrc2]);
            b.set_sh_reg(reg::COMPUTE_PGM_RSRC3, rsrc3);
            b.set_sh_reg(reg::COMPUTE_TMPRING_SIZE, tmpring);
            b.set_sh_regs(
                reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO,
                &[(scratch_base >> 8) as u32, (scratch_base >> 40) as u32],
            );
            for (sgpr, v, n) in &user {
                b.set_sh_regs(reg::COMPUTE_USER_DATA_0 + 4 * sgpr, &v[..(*n as usize).min(2)]);
            }
            b.set_sh_regs(reg::COMPUTE_NUM_THREAD_X, &wg);
            b.set_sh_regs(reg::COMPUTE_START_X, &base);
        })?;
        match indirect {
            None => {
                let end = [0, 1, 2].map(|d| base[d].saturating_add(counts[d]));
                self.emit(|b| b.dispatch_direct(end, initiator))
            }
            Some(va) => {
                // The CP copies the workgroup counts into the kernarg segment first, so
                // that NumWorkgroups (or hidden_block_count_*) reads what the dispatch uses.
                for &(at, from, len) in &indirect_counts {
                    self.emit(|b| b.dma_copy(kernarg + at, va + from, len))?;
                }
                self.emit(|b| b.dispatch_indirect(va, initiator))
            }
        }
    }
}

pub struct CommandPool {
    dev: Arc<DeviceShared>,
    family: u32,
    buffers: Vec<vk::CommandBuffer>,
}
object!(CommandPool, vk::CommandPool);

impl Drop for CommandPool {
    fn drop(&mut self) {
        for cb in self.buffers.drain(..) {
            crate::debug::forget(cb.as_raw());
            // SAFETY: the pool owns its command buffers.
            drop(unsafe { CommandBuffer::destroy(cb) });
        }
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_command_pool(
    device: vk::Device,
    info: *const vk::CommandPoolCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::CommandPool,
) -> vk::Result {
    guard("vkCreateCommandPool", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        if info.flags.contains(vk::CommandPoolCreateFlags::PROTECTED) {
            tracing::warn!("vkCreateCommandPool: protected command pools are not supported");
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        let family = info.queue_family_index;
        if family as usize >= crate::queue::families().len() {
            tracing::warn!("vkCreateCommandPool: queue family {family} does not exist");
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        }
        let pool = CommandPool { dev: crate::device::dev(device).shared.clone(), family, buffers: Vec::new() };
        // SAFETY: out is valid per the specification.
        unsafe { *out = pool.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_command_pool(
    _d: vk::Device,
    p: vk::CommandPool,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<CommandPool>("vkDestroyCommandPool", p) }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn reset_command_pool(
    _d: vk::Device,
    p: vk::CommandPool,
    _f: vk::CommandPoolResetFlags,
) -> vk::Result {
    guard("vkResetCommandPool", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: a live pool; its command buffers are not pending, per the specification.
        if let Some(p) = unsafe { CommandPool::from_handle(p) } {
            for &cb in &p.buffers {
                // SAFETY: as above.
                if let Some(c) = unsafe { CommandBuffer::from_handle(cb) } {
                    c.reset();
                    crate::debug::reset_command_buffer(cb.as_raw());
                }
            }
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn trim_command_pool(_d: vk::Device, _p: vk::CommandPool, _f: vk::CommandPoolTrimFlags) {}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn allocate_command_buffers(
    _d: vk::Device,
    info: *const vk::CommandBufferAllocateInfo<'_>,
    out: *mut vk::CommandBuffer,
) -> vk::Result {
    guard("vkAllocateCommandBuffers", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        // SAFETY: a live pool, externally synchronised.
        let Some(pool) = (unsafe { CommandPool::from_handle(info.command_pool) }) else {
            return vk::Result::ERROR_UNKNOWN;
        };
        for i in 0..info.command_buffer_count as usize {
            let mut cb = CommandBuffer {
                stream: CmdStream::new(pool.dev.clone()),
                bound: Bound::default(),
                error: None,
                transfer_only: pool.family == crate::queue::TRANSFER_FAMILY,
                rendering: None,
                secondary: info.level == vk::CommandBufferLevel::SECONDARY,
            };
            cb.reset();
            let h = cb.into_handle();
            pool.buffers.push(h);
            // SAFETY: out has room for command_buffer_count handles.
            unsafe { *out.add(i) = h };
        }
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn free_command_buffers(
    _d: vk::Device,
    p: vk::CommandPool,
    n: u32,
    cbs: *const vk::CommandBuffer,
) {
    guard("vkFreeCommandBuffers", (), || {
        // SAFETY: a live pool, externally synchronised.
        let mut pool = unsafe { CommandPool::from_handle(p) };
        // SAFETY: valid per the specification.
        for &cb in unsafe { slice(cbs, n) } {
            if cb == vk::CommandBuffer::null() {
                continue;
            }
            if let Some(pool) = pool.as_mut() {
                pool.buffers.retain(|&x| x != cb);
            }
            crate::debug::forget(cb.as_raw());
            // SAFETY: the application no longer uses the command buffer.
            drop(unsafe { CommandBuffer::destroy(cb) });
        }
    })
}

fn cb<'a>(h: vk::CommandBuffer) -> &'a mut CommandBuffer {
    // SAFETY: entry points receive live, externally synchronised command buffers.
    let c = unsafe { CommandBuffer::from_handle(h) };
    c.unwrap_or_else(|| panic!("null VkCommandBuffer")) // ok: caught by guard()
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn begin_command_buffer(
    c: vk::CommandBuffer,
    info: *const vk::CommandBufferBeginInfo<'_>,
) -> vk::Result {
    guard("vkBeginCommandBuffer", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let cmd = cb(c);
        cmd.reset();
        // A primary's inheritance info is ignored, and may be anything.
        if cmd.secondary {
            // SAFETY: valid per the specification.
            cmd.rendering = unsafe { crate::graphics::inherited(&*info) };
        }
        crate::debug::reset_command_buffer(c.as_raw());
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn end_command_buffer(c: vk::CommandBuffer) -> vk::Result {
    guard("vkEndCommandBuffer", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        let c = cb(c);
        c.stream.finish();
        match &c.error {
            Some((code, what)) => {
                tracing::warn!("vkEndCommandBuffer: recording failed: {what}");
                *code
            }
            None => vk::Result::SUCCESS,
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn reset_command_buffer(
    c: vk::CommandBuffer,
    _f: vk::CommandBufferResetFlags,
) -> vk::Result {
    guard("vkResetCommandBuffer", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        cb(c).reset();
        crate::debug::reset_command_buffer(c.as_raw());
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_bind_pipeline(c: vk::CommandBuffer, bp: vk::PipelineBindPoint, p: vk::Pipeline) {
    guard("vkCmdBindPipeline", (), || {
        let c = cb(c);
        if !c.compute_allowed("vkCmdBindPipeline") {
            return;
        }
        if bp != vk::PipelineBindPoint::COMPUTE {
            c.record(
                "vkCmdBindPipeline",
                Err((vk::Result::ERROR_FEATURE_NOT_PRESENT, format!("bind point {bp:?} is not supported"))),
            );
            return;
        }
        c.bound.pipeline = p;
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_bind_descriptor_sets(
    c: vk::CommandBuffer,
    _bp: vk::PipelineBindPoint,
    _layout: vk::PipelineLayout,
    first: u32,
    n: u32,
    sets: *const vk::DescriptorSet,
    ndyn: u32,
    dyn_offsets: *const u32,
) {
    guard("vkCmdBindDescriptorSets", (), || {
        let c = cb(c);
        if !c.compute_allowed("vkCmdBindDescriptorSets") {
            return;
        }
        // SAFETY: valid per the specification.
        let mut offsets = unsafe { slice(dyn_offsets, ndyn) }.iter();
        // SAFETY: valid per the specification.
        for (i, &s) in unsafe { slice(sets, n) }.iter().enumerate() {
            let idx = first as usize + i;
            if idx >= c.bound.sets.len() {
                break;
            }
            // SAFETY: live set handles.
            let Some(set) = (unsafe { DescriptorSet::from_handle(s) }) else {
                c.bound.sets[idx] = 0;
                continue;
            };
            c.bound.sets[idx] = set.va;
            if c.bound.dynamic.len() <= idx {
                c.bound.dynamic.resize(idx + 1, Vec::new());
            }
            // A VK_WHOLE_SIZE range ends at the buffer's end: the dynamic offset shortens it.
            c.bound.dynamic[idx] = set
                .dynamic
                .iter()
                .map(|&(va, range, whole)| {
                    let off = u64::from(*offsets.next().unwrap_or(&0));
                    (va + off, if whole { range.saturating_sub(off) } else { range })
                })
                .collect();
            if idx == 0 {
                c.bound.set0_buffers = set.buffer_addresses(&c.bound.dynamic[0]);
            }
        }
    })
}

impl CommandBuffer {
    /// Applies push descriptor writes to set `set` of `layout` and binds the result: the
    /// set's image is uploaded to the command buffer's upload area and its address goes
    /// where a bound set's would (so nothing outlives the command buffer).
    fn push_descriptors(
        &mut self,
        layout: vk::PipelineLayout,
        set: u32,
        writes: impl FnOnce(&mut dyn FnMut((u32, u32), descriptor::Item)),
    ) -> Result<(), (vk::Result, String)> {
        // SAFETY: the layout is live during recording, per the specification.
        let layout = unsafe { PipelineLayout::from_handle(layout) }
            .ok_or((vk::Result::ERROR_UNKNOWN, "null VkPipelineLayout".to_string()))?;
        let idx = set as usize;
        let sl = layout
            .abi
            .sets
            .get(idx)
            .filter(|_| idx < self.bound.sets.len())
            .ok_or((vk::Result::ERROR_UNKNOWN, format!("set {set} is not in the pipeline layout")))?;
        if self.bound.push_sets.len() <= idx {
            self.bound.push_sets.resize(idx + 1, Vec::new());
        }
        let mut image = std::mem::take(&mut self.bound.push_sets[idx]);
        // A set of another size is another layout: its descriptors start out null.
        image.resize(sl.size() as usize, 0);
        let immutable = layout.immutable.get(idx).cloned().unwrap_or_default();
        descriptor::write_immutable(sl, &immutable, None, &mut image);
        writes(&mut |at, item| descriptor::write_descriptor((sl, &immutable, None), &mut image, &mut [], at, item));
        let va = if image.is_empty() { Ok(0) } else { self.stream.upload(&image, abi::ALIGN as u64) };
        self.bound.push_sets[idx] = image;
        self.bound.sets[idx] = va.map_err(|e| (e, "out of memory for push descriptors".to_string()))?;
        if let Some(d) = self.bound.dynamic.get_mut(idx) {
            d.clear();
        }
        Ok(())
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_push_descriptor_set(
    c: vk::CommandBuffer,
    _bp: vk::PipelineBindPoint,
    layout: vk::PipelineLayout,
    set: u32,
    n: u32,
    writes: *const vk::WriteDescriptorSet<'_>,
) {
    guard("vkCmdPushDescriptorSetKHR", (), || {
        let c = cb(c);
        // SAFETY: valid per the specification.
        let writes = unsafe { slice(writes, n) };
        let r = c.push_descriptors(layout, set, |f| {
            for w in writes {
                // SAFETY: valid per the specification.
                unsafe { descriptor::write_items(w, f) };
            }
        });
        c.record("vkCmdPushDescriptorSetKHR", r);
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_push_descriptor_set_with_template(
    c: vk::CommandBuffer,
    t: vk::DescriptorUpdateTemplate,
    layout: vk::PipelineLayout,
    set: u32,
    data: *const std::ffi::c_void,
) {
    guard("vkCmdPushDescriptorSetWithTemplateKHR", (), || {
        let c = cb(c);
        // SAFETY: a live template handle.
        let Some(t) = (unsafe { DescriptorUpdateTemplate::from_handle(t) }) else {
            c.record(
                "vkCmdPushDescriptorSetWithTemplateKHR",
                Err((vk::Result::ERROR_UNKNOWN, "null VkDescriptorUpdateTemplate".into())),
            );
            return;
        };
        let t: &DescriptorUpdateTemplate = t;
        // SAFETY: the application's data matches the template, per the specification.
        let r = c.push_descriptors(layout, set, |f| unsafe { t.for_each(data, f) });
        c.record("vkCmdPushDescriptorSetWithTemplateKHR", r);
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_push_constants(
    c: vk::CommandBuffer,
    _layout: vk::PipelineLayout,
    _stages: vk::ShaderStageFlags,
    offset: u32,
    size: u32,
    values: *const std::ffi::c_void,
) {
    guard("vkCmdPushConstants", (), || {
        let c = cb(c);
        if !c.compute_allowed("vkCmdPushConstants") {
            return;
        }
        // SAFETY: values points to size bytes.
        let data = unsafe { slice(values as *const u8, size) };
        if let Some(dst) = c.bound.push.get_mut(offset as usize..offset as usize + data.len()) {
            dst.copy_from_slice(data);
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_dispatch(c: vk::CommandBuffer, x: u32, y: u32, z: u32) {
    guard("vkCmdDispatch", (), || {
        crate::debug::dispatched(c.as_raw(), cb(c).bound.pipeline.as_raw());
        let c = cb(c);
        if !c.compute_allowed("vkCmdDispatch") {
            return;
        }
        let r = c.dispatch([0; 3], [x, y, z], None);
        c.record("vkCmdDispatch", r);
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_dispatch_base(
    c: vk::CommandBuffer,
    bx: u32,
    by: u32,
    bz: u32,
    x: u32,
    y: u32,
    z: u32,
) {
    guard("vkCmdDispatchBase", (), || {
        crate::debug::dispatched(c.as_raw(), cb(c).bound.pipeline.as_raw());
        let c = cb(c);
        if !c.compute_allowed("vkCmdDispatchBase") {
            return;
        }
        let r = c.dispatch([bx, by, bz], [x, y, z], None);
        c.record("vkCmdDispatchBase", r);
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_dispatch_indirect(c: vk::CommandBuffer, b: vk::Buffer, offset: u64) {
    guard("vkCmdDispatchIndirect", (), || {
        crate::debug::dispatched(c.as_raw(), cb(c).bound.pipeline.as_raw());
        let c = cb(c);
        if !c.compute_allowed("vkCmdDispatchIndirect") {
            return;
        }
        // SAFETY: a live buffer handle.
        let va = unsafe { buffer(b) }.map_or(0, |b| b.va(offset));
        let r = c.dispatch([0; 3], [0; 3], Some(va));
        c.record("vkCmdDispatchIndirect", r);
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_set_device_mask(_c: vk::CommandBuffer, _mask: u32) {}

/// # Safety
/// Vulkan entry point.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_pipeline_barrier(
    c: vk::CommandBuffer,
    _src: vk::PipelineStageFlags,
    _dst: vk::PipelineStageFlags,
    _dep: vk::DependencyFlags,
    _nm: u32,
    _m: *const vk::MemoryBarrier<'_>,
    _nb: u32,
    _b: *const vk::BufferMemoryBarrier<'_>,
    _ni: u32,
    _i: *const vk::ImageMemoryBarrier<'_>,
) {
    guard("vkCmdPipelineBarrier", (), || pipeline_barrier(c, "vkCmdPipelineBarrier"))
}

/// Both barrier commands: every barrier waits for earlier work and makes its writes
/// visible (the stages and accesses given do not narrow it).
fn pipeline_barrier(c: vk::CommandBuffer, what: &str) {
    let c = cb(c);
    let r = c.barrier();
    c.record(what, r);
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_pipeline_barrier2(c: vk::CommandBuffer, _dep: *const vk::DependencyInfo<'_>) {
    guard("vkCmdPipelineBarrier2", (), || pipeline_barrier(c, "vkCmdPipelineBarrier2"))
}

/// Records a copy of `len` bytes from GPU address `src` to `dst` as CP DMA packets.
pub(crate) fn dma_copy(c: vk::CommandBuffer, what: &str, dst: u64, src: u64, len: u64) {
    let c = cb(c);
    for (at, n) in dma_pieces(len) {
        let res = c.emit(|b| b.dma_copy(dst + at, src + at, n));
        c.record(what, res);
    }
}

/// The device a command buffer records for.
pub(crate) fn device_of(c: vk::CommandBuffer) -> Option<Arc<DeviceShared>> {
    // SAFETY: entry points receive live command buffers.
    unsafe { CommandBuffer::from_handle(c) }.map(|c| c.stream.dev.clone())
}

/// Dispatches one of the driver's own pipelines (blit.rs) with set 0's memory `set` and
/// push constants `push`, as an application's dispatch would be recorded; the
/// application's bound pipeline, sets and push constants are as they were afterwards.
pub(crate) fn meta_dispatch(
    c: vk::CommandBuffer,
    what: &str,
    p: vk::Pipeline,
    set: &[u8],
    push: &[u8],
    counts: [u32; 3],
) {
    let c = cb(c);
    if !c.compute_allowed(what) {
        return;
    }
    let res = c.meta_dispatch(p, set, push, counts);
    c.record(what, res);
}

/// The render pass instance `c` records in (graphics.rs keeps it).
pub(crate) fn rendering<'a>(c: vk::CommandBuffer) -> &'a mut Option<crate::graphics::Rendering> {
    &mut cb(c).rendering
}

/// Copies `data` into memory that lives as long as `c`'s recording; its GPU address (the
/// source of transfer.rs's rectangle clears).
pub(crate) fn upload(c: vk::CommandBuffer, data: &[u8]) -> Result<u64, String> {
    cb(c).stream.upload(data, 256).map_err(|e| format!("no memory for {} bytes of clear data: {e}", data.len()))
}

/// Records a WRITE_DATA of `data` at GPU address `va`.
pub(crate) fn write_data(c: vk::CommandBuffer, what: &str, va: u64, data: &[u32]) {
    let c = cb(c);
    let res = c.emit(|b| b.write_data(va, data));
    c.record(what, res);
}

/// Splits `size` bytes into the (offset, length) pieces of one CP DMA packet each. The
/// piece size is a multiple of 4, so a fill's pieces stay whole dwords.
fn dma_pieces(size: u64) -> impl Iterator<Item = (u64, u32)> {
    const MAX: u64 = pm4::dma::MAX_BYTES as u64;
    const _: () = assert!(MAX % 4 == 0);
    (0..size).step_by(MAX as usize).map(move |at| (at, (size - at).min(MAX) as u32))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_buffer(
    c: vk::CommandBuffer,
    src: vk::Buffer,
    dst: vk::Buffer,
    n: u32,
    regions: *const vk::BufferCopy,
) {
    guard("vkCmdCopyBuffer", (), || {
        // SAFETY: live buffer handles.
        let (s, d) = unsafe { (buffer(src), buffer(dst)) };
        let (Some(s), Some(d)) = (s, d) else { return };
        // SAFETY: valid per the specification.
        for r in unsafe { slice(regions, n) } {
            dma_copy(c, "vkCmdCopyBuffer", d.va(r.dst_offset), s.va(r.src_offset), r.size);
        }
    })
}

/// # Safety
/// Vulkan entry point (core 1.3, VK_KHR_copy_commands2): buffer copies (the image copies
/// are in transfer.rs).
pub unsafe extern "system" fn cmd_copy_buffer2(c: vk::CommandBuffer, info: *const vk::CopyBufferInfo2<'_>) {
    guard("vkCmdCopyBuffer2", (), || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        // SAFETY: as above; VkBufferCopy2 adds sType/pNext (no extension structures are
        // defined for it) to VkBufferCopy's fields.
        let regions: Vec<vk::BufferCopy> = unsafe { slice(info.p_regions, info.region_count) }
            .iter()
            .map(|r| vk::BufferCopy { src_offset: r.src_offset, dst_offset: r.dst_offset, size: r.size })
            .collect();
        // SAFETY: the same command buffer and buffers, and regions as above.
        unsafe { cmd_copy_buffer(c, info.src_buffer, info.dst_buffer, regions.len() as u32, regions.as_ptr()) };
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_fill_buffer(
    c: vk::CommandBuffer,
    dst: vk::Buffer,
    offset: u64,
    size: u64,
    data: u32,
) {
    guard("vkCmdFillBuffer", (), || {
        let c = cb(c);
        // SAFETY: a live buffer handle.
        let Some(d) = (unsafe { buffer(dst) }) else { return };
        let size = if size == vk::WHOLE_SIZE { (d.size.saturating_sub(offset)) & !3 } else { size };
        for (at, len) in dma_pieces(size) {
            let va = d.va(offset + at);
            let res = c.emit(|b| b.dma_fill(va, data, len));
            c.record("vkCmdFillBuffer", res);
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_update_buffer(
    c: vk::CommandBuffer,
    dst: vk::Buffer,
    offset: u64,
    size: u64,
    data: *const std::ffi::c_void,
) {
    guard("vkCmdUpdateBuffer", (), || {
        let c = cb(c);
        // SAFETY: a live buffer handle.
        let Some(d) = (unsafe { buffer(dst) }) else { return };
        // SAFETY: data points to size bytes (a multiple of 4, at most 65536); it need not
        // be 4-byte aligned, so it is read as bytes.
        let bytes = unsafe { slice(data as *const u8, size.min(65536) as u32) };
        let words: Vec<u32> = bytes.chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
        for (k, chunk) in words.chunks(4096).enumerate() {
            let va = d.va(offset + k as u64 * 4096 * 4);
            let res = c.emit(|b| b.write_data(va, chunk));
            c.record("vkCmdUpdateBuffer", res);
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_execute_commands(c: vk::CommandBuffer, n: u32, cbs: *const vk::CommandBuffer) {
    guard("vkCmdExecuteCommands", (), || {
        let c_raw = c.as_raw();
        let c = cb(c);
        // SAFETY: valid per the specification.
        for &s in unsafe { slice(cbs, n) } {
            crate::debug::executed(c_raw, s.as_raw());
            // SAFETY: live secondary command buffers.
            if let Some(ib) = unsafe { CommandBuffer::from_handle(s) }.and_then(|s| s.ib()) {
                // A secondary command buffer runs as a nested IB (IB2).
                let r = c.emit(|b| b.indirect_buffer(ib.va, ib.dwords, false));
                c.record("vkCmdExecuteCommands", r);
            }
        }
    })
}

fn event_va(e: vk::Event) -> Option<u64> {
    // SAFETY: a live event handle.
    unsafe { Event::from_handle(e) }.map(|e| e.bo.va())
}

/// Sets (1) or resets (0) an event once earlier work is done: wait for it, then write.
fn write_event(c: vk::CommandBuffer, e: vk::Event, value: u32, what: &str) {
    let c = cb(c);
    let Some(va) = event_va(e) else { return };
    let r =
        c.emit(|b| b.event_write(pm4::event::CS_PARTIAL_FLUSH, 4)).and_then(|_| c.emit(|b| b.write_data(va, &[value])));
    c.record(what, r);
}

/// Waits until every event is set, then a barrier.
fn wait_events(c: vk::CommandBuffer, events: &[vk::Event], what: &str) {
    let c = cb(c);
    for &e in events {
        if let Some(va) = event_va(e) {
            let r = c.emit(|b| b.wait_mem(va, pm4::wait::EQ, 1, u32::MAX));
            c.record(what, r);
        }
    }
    let r = c.barrier();
    c.record(what, r);
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_set_event(c: vk::CommandBuffer, e: vk::Event, _stage: vk::PipelineStageFlags) {
    guard("vkCmdSetEvent", (), || write_event(c, e, 1, "vkCmdSetEvent"))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_set_event2(c: vk::CommandBuffer, e: vk::Event, _dep: *const vk::DependencyInfo<'_>) {
    guard("vkCmdSetEvent2", (), || write_event(c, e, 1, "vkCmdSetEvent2"))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_reset_event(c: vk::CommandBuffer, e: vk::Event, _stage: vk::PipelineStageFlags) {
    guard("vkCmdResetEvent", (), || write_event(c, e, 0, "vkCmdResetEvent"))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_reset_event2(c: vk::CommandBuffer, e: vk::Event, _stage: vk::PipelineStageFlags2) {
    guard("vkCmdResetEvent2", (), || write_event(c, e, 0, "vkCmdResetEvent2"))
}

/// # Safety
/// Vulkan entry point.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_wait_events(
    c: vk::CommandBuffer,
    n: u32,
    events: *const vk::Event,
    _src: vk::PipelineStageFlags,
    _dst: vk::PipelineStageFlags,
    _nm: u32,
    _m: *const vk::MemoryBarrier<'_>,
    _nb: u32,
    _b: *const vk::BufferMemoryBarrier<'_>,
    _ni: u32,
    _i: *const vk::ImageMemoryBarrier<'_>,
) {
    // SAFETY: valid per the specification.
    guard("vkCmdWaitEvents", (), || wait_events(c, unsafe { slice(events, n) }, "vkCmdWaitEvents"))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_wait_events2(
    c: vk::CommandBuffer,
    n: u32,
    events: *const vk::Event,
    _deps: *const vk::DependencyInfo<'_>,
) {
    // SAFETY: valid per the specification.
    guard("vkCmdWaitEvents2", (), || wait_events(c, unsafe { slice(events, n) }, "vkCmdWaitEvents2"))
}

/// Records a packet sequence for the query module.
pub(crate) fn emit_for(c: vk::CommandBuffer, what: &str, f: impl FnOnce(&mut Builder<Vec<u32>>)) {
    let c = cb(c);
    let r = c.emit(f);
    c.record(what, r);
}

/// Records an error on a command buffer (vkEndCommandBuffer reports it).
#[allow(dead_code, reason = "for recording modules (query.rs no longer needs it)")]
pub(crate) fn fail(c: vk::CommandBuffer, what: &str, code: vk::Result, msg: String) {
    cb(c).record(what, Err((code, msg)));
}
