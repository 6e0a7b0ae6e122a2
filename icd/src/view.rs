//! Buffer views: the V# a uniform or storage texel buffer descriptor holds. Its format and
//! swizzle come from `format.rs`; stride is the texel size and num_records the number of
//! texels, with structured range checking (OOB_SELECT 1: out of range when the index is at
//! least num_records, RDNA3-NOTES, "Buffer range checking"), so the shaders' `idxen` format
//! instructions (`buffer_load_format_*`, `buffer_store_format_*`, atomics) address texels
//! by index and out-of-range texels read 0 (alpha 1 where the format has no alpha) and are
//! not written.

use ash::vk;
use gpu::rsrc::{BufferResource, OobSelect};

use crate::format::buffer_format;
use crate::handle::{destroy, guard, object, Object};
use crate::memory::buffer;

/// Most texels a view may have (`maxTexelBufferElements`): num_records is 32 bits.
pub const MAX_TEXEL_BUFFER_ELEMENTS: u32 = u32::MAX;
/// `minTexelBufferOffsetAlignment` and the texel buffer alignment properties: format
/// accesses need their component size (at most 4 bytes) aligned, so 4 serves every format.
pub const TEXEL_BUFFER_OFFSET_ALIGNMENT: u64 = 4;

pub struct BufferView {
    /// The descriptor the view's texel buffer descriptors hold.
    pub vsharp: [u32; 4],
}
object!(BufferView, vk::BufferView);

/// The V# of a view of `texels` texels of format `hw` (`texel_size` bytes) at `va`.
pub fn texel_vsharp(va: u64, fmt: &crate::format::BufferFormat, texels: u32) -> [u32; 4] {
    BufferResource {
        base: va,
        stride: fmt.texel_size,
        swizzle_enable: 0,
        num_records: texels,
        dst_sel: fmt.dst_sel,
        format: fmt.hw,
        index_stride: 0,
        add_tid_enable: false,
        oob_select: OobSelect::Structured,
        kind: 0,
    }
    .encode()
}

/// # Safety
/// Vulkan entry point.
///
/// Errors: `VK_ERROR_FORMAT_NOT_SUPPORTED` for a format without buffer features (not a
/// valid use, but named); `VK_ERROR_FEATURE_NOT_PRESENT` while buffer views are off.
pub unsafe extern "system" fn create_buffer_view(
    _d: vk::Device,
    info: *const vk::BufferViewCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::BufferView,
) -> vk::Result {
    guard("vkCreateBufferView", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        if !crate::features::api::BUFFER_VIEWS {
            tracing::warn!("vkCreateBufferView: buffer views are not supported");
            return vk::Result::ERROR_FEATURE_NOT_PRESENT;
        }
        let Some(fmt) = buffer_format(info.format) else {
            tracing::warn!("vkCreateBufferView: format {:?} has no texel buffer support", info.format);
            return vk::Result::ERROR_FORMAT_NOT_SUPPORTED;
        };
        // SAFETY: a live buffer handle per the specification.
        let Some(b) = (unsafe { buffer(info.buffer) }) else {
            tracing::warn!("vkCreateBufferView: null buffer");
            return vk::Result::ERROR_INITIALIZATION_FAILED;
        };
        let range = if info.range == vk::WHOLE_SIZE {
            // The whole rest of the buffer, in whole texels.
            b.size.saturating_sub(info.offset) / u64::from(fmt.texel_size) * u64::from(fmt.texel_size)
        } else {
            info.range
        };
        let texels = (range / u64::from(fmt.texel_size)).min(u64::from(MAX_TEXEL_BUFFER_ELEMENTS)) as u32;
        let vsharp = texel_vsharp(b.va(info.offset), &fmt, texels);
        // SAFETY: out is valid per the specification.
        unsafe { *out = BufferView { vsharp }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_buffer_view(
    _d: vk::Device,
    v: vk::BufferView,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<BufferView>("vkDestroyBufferView", v) }
}

/// The V# of view `h`, or the null (all-zero) V# for a null handle (robustness2's null
/// descriptors read 0 and drop writes).
///
/// # Safety
/// `h` must be a live buffer view handle or null.
pub unsafe fn view_vsharp(h: vk::BufferView) -> [u32; 4] {
    // SAFETY: by the caller's contract.
    unsafe { BufferView::from_handle(h) }.map_or([0; 4], |v| v.vsharp)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RDNA3-NOTES, "Buffer resource" and "Buffer range checking": a view's V#
    /// has the format, the texel stride, the texel count as num_records and structured
    /// range checking.
    #[test]
    fn view_vsharp_fields() {
        let f = buffer_format(vk::Format::R16G16B16A16_SFLOAT).expect("in the table"); // ok: test
        let v = BufferResource::decode(texel_vsharp(0x1234_5678_9a00, &f, 100));
        assert_eq!(v.base, 0x1234_5678_9a00);
        assert_eq!(v.stride, 8);
        assert_eq!(v.num_records, 100);
        assert_eq!(v.format, 57);
        assert_eq!(v.oob_select, OobSelect::Structured);
        assert_eq!(v.kind, 0);
    }
}
