//! The core commands softnavi cannot carry out yet, present so that no
//! `vkGet*ProcAddr` of a core command returns NULL (the specification requires every core
//! command of the reported version; a NULL is a crash in the application).
//!
//! - Objects that exist without a graphics queue are created for real: render passes
//!   (both versions) and framebuffers here, images, views and samplers in `image.rs`.
//! - Render passes without draws are carried out: their CLEAR load operations clear the
//!   attachments' views over the whole framebuffer (through the command processor, as
//!   vkCmdClearColorImage); storing needs nothing (attachments are memory). Viewport and
//!   scissor state is accepted and unused. This is how wgpu zero-fills new textures of a
//!   renderable format, and what nothing but a clear can observe.
//! - Commands that need a graphics-capable queue (draws, the other dynamic state, vertex
//!   and index buffers, attachment clears, dynamic rendering) and
//!   `vkCmdBeginQuery` / `vkCmdEndQuery` (timestamp pools, and occlusion pools whose queries nothing can begin) log their name
//!   and why, and fail their command buffer: `vkEndCommandBuffer` returns
//!   `VK_ERROR_FEATURE_NOT_PRESENT`. Graphics pipelines, sparse binding and Y'CbCr
//!   conversions are refused the same way at creation. (The graphics-queue transfer
//!   commands are carried out on the compute family: blits in `blit.rs`, resolves in
//!   `resolve.rs`, depth clears in `transfer.rs`.)

use ash::vk;

use crate::handle::{destroy, guard, object, slice, Object};

/// Why a command is refused.
#[derive(Clone, Copy)]
enum Why {
    Graphics,
    Query,
}

impl Why {
    fn text(self) -> &'static str {
        match self {
            Why::Graphics => "needs a graphics-capable queue; softnavi has compute and transfer queues only",
            Why::Query => "occlusion and pipeline-statistics queries are begun on a graphics queue (timestamp pools and never-begun occlusion pools only)",
        }
    }
}

fn reject(c: vk::CommandBuffer, name: &str, why: Why) {
    guard(name, (), || crate::cmd::fail(c, name, vk::Result::ERROR_FEATURE_NOT_PRESENT, why.text().to_string()))
}

/// One refused command per line: Rust name, Vulkan name, ash's PFN type (which checks the
/// signature at compile time), why, and the parameter types after the command buffer.
macro_rules! refused {
    ($( $f:ident $name:literal $pfn:ident $why:ident ( $($t:ty),* ); )*) => { $(
        #[doc = concat!("`", $name, "`: refused (see the module documentation).")]
        ///
        /// # Safety
        /// Vulkan entry point.
        pub unsafe extern "system" fn $f(c: vk::CommandBuffer $(, _: $t)*) {
            reject(c, $name, Why::$why)
        }
        const _: vk::$pfn = $f;
    )* };
}

refused! {
    cmd_set_line_width "vkCmdSetLineWidth" PFN_vkCmdSetLineWidth Graphics (f32);
    cmd_set_depth_bias "vkCmdSetDepthBias" PFN_vkCmdSetDepthBias Graphics (f32, f32, f32);
    cmd_set_blend_constants "vkCmdSetBlendConstants" PFN_vkCmdSetBlendConstants Graphics (*const [f32; 4]);
    cmd_set_depth_bounds "vkCmdSetDepthBounds" PFN_vkCmdSetDepthBounds Graphics (f32, f32);
    cmd_set_stencil_compare_mask "vkCmdSetStencilCompareMask" PFN_vkCmdSetStencilCompareMask Graphics (vk::StencilFaceFlags, u32);
    cmd_set_stencil_write_mask "vkCmdSetStencilWriteMask" PFN_vkCmdSetStencilWriteMask Graphics (vk::StencilFaceFlags, u32);
    cmd_set_stencil_reference "vkCmdSetStencilReference" PFN_vkCmdSetStencilReference Graphics (vk::StencilFaceFlags, u32);
    cmd_bind_index_buffer "vkCmdBindIndexBuffer" PFN_vkCmdBindIndexBuffer Graphics (vk::Buffer, u64, vk::IndexType);
    cmd_bind_vertex_buffers "vkCmdBindVertexBuffers" PFN_vkCmdBindVertexBuffers Graphics (u32, u32, *const vk::Buffer, *const u64);
    cmd_draw "vkCmdDraw" PFN_vkCmdDraw Graphics (u32, u32, u32, u32);
    cmd_draw_indexed "vkCmdDrawIndexed" PFN_vkCmdDrawIndexed Graphics (u32, u32, u32, i32, u32);
    cmd_draw_indirect "vkCmdDrawIndirect" PFN_vkCmdDrawIndirect Graphics (vk::Buffer, u64, u32, u32);
    cmd_draw_indexed_indirect "vkCmdDrawIndexedIndirect" PFN_vkCmdDrawIndexedIndirect Graphics (vk::Buffer, u64, u32, u32);
    cmd_draw_indirect_count "vkCmdDrawIndirectCount" PFN_vkCmdDrawIndirectCount Graphics (vk::Buffer, u64, vk::Buffer, u64, u32, u32);
    cmd_draw_indexed_indirect_count "vkCmdDrawIndexedIndirectCount" PFN_vkCmdDrawIndexedIndirectCount Graphics (vk::Buffer, u64, vk::Buffer, u64, u32, u32);
    cmd_clear_attachments "vkCmdClearAttachments" PFN_vkCmdClearAttachments Graphics (u32, *const vk::ClearAttachment, u32, *const vk::ClearRect);
    cmd_begin_rendering "vkCmdBeginRendering" PFN_vkCmdBeginRendering Graphics (*const vk::RenderingInfo<'_>);
    cmd_end_rendering "vkCmdEndRendering" PFN_vkCmdEndRendering Graphics ();
    cmd_set_cull_mode "vkCmdSetCullMode" PFN_vkCmdSetCullMode Graphics (vk::CullModeFlags);
    cmd_set_front_face "vkCmdSetFrontFace" PFN_vkCmdSetFrontFace Graphics (vk::FrontFace);
    cmd_set_primitive_topology "vkCmdSetPrimitiveTopology" PFN_vkCmdSetPrimitiveTopology Graphics (vk::PrimitiveTopology);
    cmd_bind_vertex_buffers2 "vkCmdBindVertexBuffers2" PFN_vkCmdBindVertexBuffers2 Graphics (u32, u32, *const vk::Buffer, *const u64, *const u64, *const u64);
    cmd_set_depth_test_enable "vkCmdSetDepthTestEnable" PFN_vkCmdSetDepthTestEnable Graphics (vk::Bool32);
    cmd_set_depth_write_enable "vkCmdSetDepthWriteEnable" PFN_vkCmdSetDepthWriteEnable Graphics (vk::Bool32);
    cmd_set_depth_compare_op "vkCmdSetDepthCompareOp" PFN_vkCmdSetDepthCompareOp Graphics (vk::CompareOp);
    cmd_set_depth_bounds_test_enable "vkCmdSetDepthBoundsTestEnable" PFN_vkCmdSetDepthBoundsTestEnable Graphics (vk::Bool32);
    cmd_set_stencil_test_enable "vkCmdSetStencilTestEnable" PFN_vkCmdSetStencilTestEnable Graphics (vk::Bool32);
    cmd_set_stencil_op "vkCmdSetStencilOp" PFN_vkCmdSetStencilOp Graphics (vk::StencilFaceFlags, vk::StencilOp, vk::StencilOp, vk::StencilOp, vk::CompareOp);
    cmd_set_rasterizer_discard_enable "vkCmdSetRasterizerDiscardEnable" PFN_vkCmdSetRasterizerDiscardEnable Graphics (vk::Bool32);
    cmd_set_depth_bias_enable "vkCmdSetDepthBiasEnable" PFN_vkCmdSetDepthBiasEnable Graphics (vk::Bool32);
    cmd_set_primitive_restart_enable "vkCmdSetPrimitiveRestartEnable" PFN_vkCmdSetPrimitiveRestartEnable Graphics (vk::Bool32);
    cmd_begin_query "vkCmdBeginQuery" PFN_vkCmdBeginQuery Query (vk::QueryPool, u32, vk::QueryControlFlags);
    cmd_end_query "vkCmdEndQuery" PFN_vkCmdEndQuery Query (vk::QueryPool, u32);
}

/// Graphics pipelines need a graphics queue: every one is VK_NULL_HANDLE.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_graphics_pipelines(
    _d: vk::Device,
    _cache: vk::PipelineCache,
    n: u32,
    _infos: *const vk::GraphicsPipelineCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Pipeline,
) -> vk::Result {
    guard("vkCreateGraphicsPipelines", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        tracing::warn!("vkCreateGraphicsPipelines: {}", Why::Graphics.text());
        for k in 0..n as usize {
            // SAFETY: out has room for n handles per the specification.
            unsafe { *out.add(k) = vk::Pipeline::null() };
        }
        vk::Result::ERROR_FEATURE_NOT_PRESENT
    })
}

/// No queue family has SPARSE_BINDING.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn queue_bind_sparse(
    _q: vk::Queue,
    _n: u32,
    _infos: *const vk::BindSparseInfo<'_>,
    _fence: vk::Fence,
) -> vk::Result {
    tracing::warn!("vkQueueBindSparse: no queue family supports sparse binding");
    vk::Result::ERROR_FEATURE_NOT_PRESENT
}

/// A render pass: its attachments' formats and load operations (colour or depth, then
/// stencil), and its subpass count.
pub struct RenderPass {
    pub attachments: Vec<(vk::Format, vk::AttachmentLoadOp, vk::AttachmentLoadOp)>,
    pub subpasses: u32,
}
object!(RenderPass, vk::RenderPass);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_render_pass(
    _d: vk::Device,
    info: *const vk::RenderPassCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::RenderPass,
) -> vk::Result {
    guard("vkCreateRenderPass", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: as above.
        let attachments = unsafe { slice(i.p_attachments, i.attachment_count) }
            .iter()
            .map(|a| (a.format, a.load_op, a.stencil_load_op))
            .collect();
        // SAFETY: out is valid per the specification.
        unsafe { *out = RenderPass { attachments, subpasses: i.subpass_count }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_render_pass2(
    _d: vk::Device,
    info: *const vk::RenderPassCreateInfo2<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::RenderPass,
) -> vk::Result {
    guard("vkCreateRenderPass2", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: as above.
        let attachments = unsafe { slice(i.p_attachments, i.attachment_count) }
            .iter()
            .map(|a| (a.format, a.load_op, a.stencil_load_op))
            .collect();
        // SAFETY: out is valid per the specification.
        unsafe { *out = RenderPass { attachments, subpasses: i.subpass_count }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_render_pass(
    _d: vk::Device,
    r: vk::RenderPass,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<RenderPass>("vkDestroyRenderPass", r) }
}

/// Any render area is as good as another: granularity 1×1.
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn get_render_area_granularity(_d: vk::Device, _r: vk::RenderPass, out: *mut vk::Extent2D) {
    // SAFETY: out is valid per the specification.
    guard("vkGetRenderAreaGranularity", (), || unsafe { *out = vk::Extent2D { width: 1, height: 1 } })
}

pub struct Framebuffer {
    pub extent: vk::Extent3D,
    pub attachments: Vec<vk::ImageView>,
}
object!(Framebuffer, vk::Framebuffer);

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn create_framebuffer(
    _d: vk::Device,
    info: *const vk::FramebufferCreateInfo<'_>,
    _alloc: *const vk::AllocationCallbacks<'_>,
    out: *mut vk::Framebuffer,
) -> vk::Result {
    guard("vkCreateFramebuffer", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        let imageless = i.flags.contains(vk::FramebufferCreateFlags::IMAGELESS);
        // SAFETY: as above (imageless framebuffers have no views).
        let attachments =
            if imageless { Vec::new() } else { unsafe { slice(i.p_attachments, i.attachment_count) }.to_vec() };
        let extent = vk::Extent3D { width: i.width, height: i.height, depth: i.layers };
        // SAFETY: out is valid per the specification.
        unsafe { *out = Framebuffer { extent, attachments }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn destroy_framebuffer(
    _d: vk::Device,
    f: vk::Framebuffer,
    _alloc: *const vk::AllocationCallbacks<'_>,
) {
    // SAFETY: the application no longer uses the object, per the specification.
    unsafe { destroy::<Framebuffer>("vkDestroyFramebuffer", f) }
}

/// The CLEAR load operations of a render pass begun with `info` (see the module
/// documentation); the render area must be the whole framebuffer.
fn begin(c: vk::CommandBuffer, name: &str, info: &vk::RenderPassBeginInfo<'_>) -> Result<(), String> {
    // SAFETY: live handles per the specification.
    let (rp, fb) = unsafe { (RenderPass::from_handle(info.render_pass), Framebuffer::from_handle(info.framebuffer)) };
    let (Some(rp), Some(fb)) = (rp, fb) else { return Err("a null render pass or framebuffer".into()) };
    // SAFETY: clear_value_count values, per the specification.
    let values = unsafe { slice(info.p_clear_values, info.clear_value_count) };
    let a = info.render_area;
    let whole =
        a.offset.x == 0 && a.offset.y == 0 && a.extent.width == fb.extent.width && a.extent.height == fb.extent.height;
    let clears = rp
        .attachments
        .iter()
        .enumerate()
        .filter(|(_, (_, l, s))| *l == vk::AttachmentLoadOp::CLEAR || *s == vk::AttachmentLoadOp::CLEAR);
    for (k, (format, load, stencil_load)) in clears {
        if !whole {
            return Err(format!("{name}: clearing attachment {k} over a partial render area {a:?} is not supported"));
        }
        let view = *fb.attachments.get(k).ok_or_else(|| format!("{name}: the framebuffer has no attachment {k}"))?;
        let value = values.get(k).ok_or_else(|| format!("{name}: no clear value for attachment {k}"))?;
        // loadOp is the colour or depth aspect's, stencilLoadOp the stencil's.
        let clear = |op: vk::AttachmentLoadOp, a| {
            if op == vk::AttachmentLoadOp::CLEAR {
                a
            } else {
                vk::ImageAspectFlags::empty()
            }
        };
        let aspects = match *format {
            vk::Format::S8_UINT => clear(*stencil_load, vk::ImageAspectFlags::STENCIL),
            crate::image::D32S8 => {
                clear(*load, vk::ImageAspectFlags::DEPTH) | clear(*stencil_load, vk::ImageAspectFlags::STENCIL)
            }
            f if crate::image::is_depth_stencil(f) => clear(*load, vk::ImageAspectFlags::DEPTH),
            _ => clear(*load, vk::ImageAspectFlags::COLOR),
        };
        if !aspects.is_empty() {
            crate::transfer::clear_view(c, view, value, aspects)?;
        }
    }
    Ok(())
}

fn begin_or_fail(c: vk::CommandBuffer, name: &str, info: *const vk::RenderPassBeginInfo<'_>) {
    guard(name, (), || {
        // SAFETY: valid per the specification.
        if let Err(e) = begin(c, name, unsafe { &*info }) {
            crate::cmd::fail(c, name, vk::Result::ERROR_FEATURE_NOT_PRESENT, e);
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_begin_render_pass(
    c: vk::CommandBuffer,
    info: *const vk::RenderPassBeginInfo<'_>,
    _contents: vk::SubpassContents,
) {
    begin_or_fail(c, "vkCmdBeginRenderPass", info)
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_begin_render_pass2(
    c: vk::CommandBuffer,
    info: *const vk::RenderPassBeginInfo<'_>,
    _sub: *const vk::SubpassBeginInfo<'_>,
) {
    begin_or_fail(c, "vkCmdBeginRenderPass2", info)
}

/// Commands that change nothing softnavi carries out: subpass changes and the end of a
/// render pass (the clears happened at its beginning, attachments are memory), viewport
/// and scissor state (no draw can run).
macro_rules! accepted {
    ($( $f:ident $pfn:ident ( $($t:ty),* ); )*) => { $(
        /// Accepted and unused (see the module documentation).
        ///
        /// # Safety
        /// Vulkan entry point.
        pub unsafe extern "system" fn $f(_c: vk::CommandBuffer $(, _: $t)*) {}
        const _: vk::$pfn = $f;
    )* };
}

accepted! {
    cmd_next_subpass PFN_vkCmdNextSubpass (vk::SubpassContents);
    cmd_end_render_pass PFN_vkCmdEndRenderPass ();
    cmd_next_subpass2 PFN_vkCmdNextSubpass2 (*const vk::SubpassBeginInfo<'_>, *const vk::SubpassEndInfo<'_>);
    cmd_end_render_pass2 PFN_vkCmdEndRenderPass2 (*const vk::SubpassEndInfo<'_>);
    cmd_set_viewport PFN_vkCmdSetViewport (u32, u32, *const vk::Viewport);
    cmd_set_scissor PFN_vkCmdSetScissor (u32, u32, *const vk::Rect2D);
    cmd_set_viewport_with_count PFN_vkCmdSetViewportWithCount (u32, *const vk::Viewport);
    cmd_set_scissor_with_count PFN_vkCmdSetScissorWithCount (u32, *const vk::Rect2D);
}

const _: vk::PFN_vkCmdBeginRenderPass = cmd_begin_render_pass;
const _: vk::PFN_vkCmdBeginRenderPass2 = cmd_begin_render_pass2;
