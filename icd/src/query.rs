//! Timestamp query pools. Each query is a u64 in GPU memory: `u64::MAX` means "not
//! written yet" (RADV's convention), a timestamp is written by RELEASE_MEM at end of pipe.

use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use gpu::pm4;

use crate::cmd::emit_for;
use crate::device::{dev, DeviceShared};
use crate::handle::{destroy, guard, object, Object};
use crate::memory::buffer;

const NOT_READY: u64 = u64::MAX;

pub struct QueryPool {
    bo: Arc<gpu::mem::Bo>,
    count: u32,
    dev: Arc<DeviceShared>,
}
object!(QueryPool, vk::QueryPool);

impl Drop for QueryPool {
    fn drop(&mut self) {
        self.dev.gpu.free(&self.bo);
    }
}

impl QueryPool {
    fn va(&self, q: u32) -> u64 {
        self.bo.va() + 8 * q as u64
    }

    fn read(&self, q: u32) -> u64 {
        // SAFETY: q < count; the BO holds 8 bytes per query and lives with the pool.
        unsafe { (self.bo.host_ptr().add(8 * q as usize) as *const u64).read_volatile() }
    }
}

fn pool<'a>(h: vk::QueryPool) -> Option<&'a QueryPool> {
    // SAFETY: entry points receive live query pool handles.
    unsafe { QueryPool::from_handle(h) }.map(|p| &*p)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_query_pool(
    device: vk::Device,
    info: *const vk::QueryPoolCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::QueryPool,
) -> vk::Result {
    guard("vkCreateQueryPool", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        // Occlusion pools are core Vulkan and may be created on any device; only a queue
        // with GRAPHICS may begin their queries, so here they stay unavailable.
        if ![vk::QueryType::TIMESTAMP, vk::QueryType::OCCLUSION].contains(&info.query_type) {
            tracing::warn!("vkCreateQueryPool: {:?} queries are not supported (timestamps only)", info.query_type);
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        let d = dev(device);
        let Ok(bo) = d.shared.gpu.alloc(8 * info.query_count.max(1) as u64, 0) else {
            return vk::Result::ERROR_OUT_OF_DEVICE_MEMORY;
        };
        // SAFETY: fresh BO of 8 * count bytes.
        unsafe { std::ptr::write_bytes(bo.host_ptr(), 0xff, 8 * info.query_count as usize) };
        // SAFETY: out is valid per the specification.
        unsafe { *out = QueryPool { bo, count: info.query_count, dev: d.shared.clone() }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_query_pool(
    _d: vk::Device,
    p: vk::QueryPool,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<QueryPool>("vkDestroyQueryPool", p) }
}

/// # Safety
/// Vulkan entry point.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn get_query_pool_results(
    _d: vk::Device,
    p: vk::QueryPool,
    first: u32,
    count: u32,
    size: usize,
    data: *mut std::ffi::c_void,
    stride: u64,
    flags: vk::QueryResultFlags,
) -> vk::Result {
    guard("vkGetQueryPoolResults", vk::Result::ERROR_DEVICE_LOST, || {
        let Some(p) = pool(p) else { return vk::Result::ERROR_UNKNOWN };
        let wide = flags.contains(vk::QueryResultFlags::TYPE_64);
        let avail = flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY);
        let mut result = vk::Result::SUCCESS;
        for i in 0..count.min(p.count.saturating_sub(first)) {
            let q = first + i;
            let mut v = p.read(q);
            if v == NOT_READY && flags.contains(vk::QueryResultFlags::WAIT) {
                let start = Instant::now();
                while v == NOT_READY {
                    if p.dev.lost() {
                        return vk::Result::ERROR_DEVICE_LOST;
                    }
                    if start.elapsed() > Duration::from_secs(2) && p.dev.idle() {
                        // Everything submitted is done and the query was never written.
                        break;
                    }
                    std::thread::sleep(Duration::from_micros(50));
                    v = p.read(q);
                }
            }
            let ready = v != NOT_READY;
            if !ready {
                result = vk::Result::NOT_READY;
            }
            let at = i as usize * stride as usize;
            let elem = if wide { 8 } else { 4 };
            let write = |k: usize, x: u64| {
                if at + (k + 1) * elem <= size {
                    // SAFETY: within the application's buffer of `size` bytes.
                    unsafe {
                        let dst = (data as *mut u8).add(at + k * elem);
                        if wide {
                            (dst as *mut u64).write_unaligned(x);
                        } else {
                            (dst as *mut u32).write_unaligned(x as u32);
                        }
                    }
                }
            };
            if ready || flags.contains(vk::QueryResultFlags::PARTIAL) {
                write(0, if ready { v } else { 0 });
            }
            if avail {
                write(1, ready as u64);
            }
        }
        result
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_reset_query_pool(c: vk::CommandBuffer, p: vk::QueryPool, first: u32, count: u32) {
    guard("vkCmdResetQueryPool", (), || {
        let Some(p) = pool(p) else { return };
        let n = count.min(p.count.saturating_sub(first));
        if n > 0 {
            let va = p.va(first);
            emit_for(c, "vkCmdResetQueryPool", |b| b.dma_fill(va, 0xffff_ffff, 8 * n));
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_write_timestamp(
    c: vk::CommandBuffer,
    _stage: vk::PipelineStageFlags,
    p: vk::QueryPool,
    q: u32,
) {
    guard("vkCmdWriteTimestamp", (), || write_timestamp(c, p, q, "vkCmdWriteTimestamp"))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_write_timestamp2(
    c: vk::CommandBuffer,
    _stage: vk::PipelineStageFlags2,
    p: vk::QueryPool,
    q: u32,
) {
    guard("vkCmdWriteTimestamp2", (), || write_timestamp(c, p, q, "vkCmdWriteTimestamp2"))
}

/// VK_AMD_buffer_marker: `marker` is written at `dst` + `offset` once earlier work has
/// passed the stage: at the bottom of the pipe whatever stage is named (as timestamps are),
/// by the same RELEASE_MEM, with the 32-bit value as its data.
fn write_marker(c: vk::CommandBuffer, dst: vk::Buffer, offset: u64, marker: u32, what: &str) {
    // SAFETY: a live buffer handle per the specification.
    let Some(b) = (unsafe { buffer(dst) }) else {
        return crate::cmd::fail(c, what, vk::Result::ERROR_UNKNOWN, "a null buffer".into());
    };
    let va = b.va(offset);
    emit_for(c, what, |p| {
        p.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, pm4::release::DATA_32, pm4::release::INT_NONE, va, marker as u64)
    });
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_write_buffer_marker(
    c: vk::CommandBuffer,
    _stage: vk::PipelineStageFlags,
    dst: vk::Buffer,
    offset: u64,
    marker: u32,
) {
    guard("vkCmdWriteBufferMarkerAMD", (), || write_marker(c, dst, offset, marker, "vkCmdWriteBufferMarkerAMD"))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_write_buffer_marker2(
    c: vk::CommandBuffer,
    _stage: vk::PipelineStageFlags2,
    dst: vk::Buffer,
    offset: u64,
    marker: u32,
) {
    guard("vkCmdWriteBufferMarker2AMD", (), || write_marker(c, dst, offset, marker, "vkCmdWriteBufferMarker2AMD"))
}

const _: vk::PFN_vkCmdWriteBufferMarkerAMD = cmd_write_buffer_marker;
const _: vk::PFN_vkCmdWriteBufferMarker2AMD = cmd_write_buffer_marker2;

/// Both timestamp commands: the timestamp is taken at the bottom of the pipe, once earlier
/// work is done, whatever stage is named.
fn write_timestamp(c: vk::CommandBuffer, p: vk::QueryPool, q: u32, what: &str) {
    let Some(p) = pool(p) else { return };
    let va = p.va(q);
    emit_for(c, what, |b| {
        b.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, pm4::release::DATA_TIMESTAMP, pm4::release::INT_NONE, va, 0)
    });
}

/// # Safety
/// Vulkan entry point.
#[allow(clippy::too_many_arguments)]
pub unsafe extern "system" fn cmd_copy_query_pool_results(
    c: vk::CommandBuffer,
    p: vk::QueryPool,
    first: u32,
    count: u32,
    dst: vk::Buffer,
    offset: u64,
    stride: u64,
    flags: vk::QueryResultFlags,
) {
    guard("vkCmdCopyQueryPoolResults", (), || {
        let Some(p) = pool(p) else { return };
        // SAFETY: a live buffer handle.
        let Some(d) = (unsafe { buffer(dst) }) else { return };
        let wide = flags.contains(vk::QueryResultFlags::TYPE_64);
        let w = if wide { 8 } else { 4 };
        for i in 0..count.min(p.count.saturating_sub(first)) {
            if flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY) && !flags.contains(vk::QueryResultFlags::WAIT) {
                // Availability without waiting: the query's high dword + 1 (0 exactly when
                // it is the "not written" pattern; any non-zero value means available), and
                // the value copied only when that is non-zero (COND_EXEC).
                let src = p.va(first + i);
                let at = d.va(offset + i as u64 * stride);
                let mut value = Vec::new();
                gpu::pm4::Builder(&mut value).copy_data(pm4::sel::TC_L2, src, at, wide);
                let skip = value.len() as u32;
                emit_for(c, "vkCmdCopyQueryPoolResults", |b| {
                    b.copy_data(pm4::sel::TC_L2, src + 4, at + w, false);
                    if wide {
                        b.write_data(at + w + 4, &[0]);
                    }
                    let add = pm4::atomic_mem::ADD | pm4::atomic_mem::OP_NO_RETURN;
                    b.atomic_mem(add, pm4::atomic_mem::SINGLE_PASS, at + w, 1, 0);
                    b.cond_exec(at + w, skip);
                    b.copy_data(pm4::sel::TC_L2, src, at, wide);
                });
                continue;
            }
            let src = p.va(first + i);
            let at = d.va(offset + i as u64 * stride);
            emit_for(c, "vkCmdCopyQueryPoolResults", |b| {
                if flags.contains(vk::QueryResultFlags::WAIT) {
                    // Wait until the high dword is no longer the "not written" pattern.
                    b.wait_mem(src + 4, pm4::wait::NE, 0xffff_ffff, u32::MAX);
                }
                b.copy_data(pm4::sel::TC_L2, src, at, wide);
                if flags.contains(vk::QueryResultFlags::WITH_AVAILABILITY) {
                    b.write_data(at + w, if wide { &[1, 0] } else { &[1] });
                }
            });
        }
    })
}

/// # Safety
/// Vulkan entry point (core 1.2, VK_EXT_host_query_reset): resets queries from the host;
/// the queries are not in use by the device, per the specification.
pub unsafe extern "system" fn reset_query_pool(_d: vk::Device, p: vk::QueryPool, first: u32, count: u32) {
    guard("vkResetQueryPool", (), || {
        let Some(p) = pool(p) else { return };
        let n = count.min(p.count.saturating_sub(first));
        if n > 0 {
            // SAFETY: first + n <= count; the BO holds 8 bytes per query.
            unsafe { std::ptr::write_bytes(p.bo.host_ptr().add(8 * first as usize), 0xff, 8 * n as usize) };
        }
    })
}
