//! The core commands softnavi cannot carry out yet, present so that no
//! `vkGet*ProcAddr` of a core command returns NULL (the specification requires every core
//! command of the reported version; a NULL is a crash in the application).
//!
//! - Objects that exist without a graphics queue are created for real: render passes
//!   (both versions) and framebuffers here, images, views and samplers in `image.rs`.
//! - Render passes without draws are carried out: their CLEAR load operations (colour,
//!   depth, stencil) clear the render area of every framebuffer layer of their attachments'
//!   views, `vkCmdClearAttachments` clears rectangles of the current subpass's attachments
//!   (both through the command processor: a row uploaded with the command buffer, CP DMA
//!   copies of it, `transfer::clear_view_rect`), and each subpass's multisampled colour
//!   attachments are resolved into its resolve attachments at its end (resolve.rs), its
//!   depth/stencil attachment too where it names a resolve (SAMPLE_ZERO, the mode
//!   softnavi reports); storing needs nothing (attachments are memory). Dynamic rendering
//!   (`vkCmdBeginRendering`) is the same as a one-subpass instance, and an imageless
//!   framebuffer takes its views from the begin info. Viewport and scissor state is
//!   accepted and unused. This is how wgpu zero-fills new textures of a renderable format,
//!   and what nothing but a clear can observe.
//! - Commands that need a graphics-capable queue (draws, the other dynamic state, vertex
//!   and index buffers) and
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
/// stencil), and its subpasses.
pub struct RenderPass {
    pub attachments: Vec<(vk::Format, vk::AttachmentLoadOp, vk::AttachmentLoadOp)>,
    pub subpasses: Vec<Subpass>,
}
object!(RenderPass, vk::RenderPass);

/// A subpass's attachments, as indices into the render pass's (`None`: unused): colour
/// attachments, the resolve attachment of each, the depth/stencil attachment.
#[derive(Clone, Default)]
pub struct Subpass {
    pub colors: Vec<Option<u32>>,
    pub resolves: Vec<Option<u32>>,
    pub depth_stencil: Option<u32>,
    /// The depth/stencil resolve attachment and its depth and stencil modes
    /// (VkSubpassDescriptionDepthStencilResolve).
    pub ds_resolve: Option<(u32, DsModes)>,
}

/// A depth/stencil resolve's modes: depth, stencil (NONE or SAMPLE_ZERO, what softnavi
/// reports).
pub type DsModes = (vk::ResolveModeFlags, vk::ResolveModeFlags);

impl Subpass {
    fn new(colors: Vec<u32>, resolves: Vec<u32>, depth_stencil: Option<u32>) -> Subpass {
        let used = |a: u32| (a != vk::ATTACHMENT_UNUSED).then_some(a);
        Subpass {
            colors: colors.into_iter().map(used).collect(),
            resolves: resolves.into_iter().map(used).collect(),
            depth_stencil: depth_stencil.and_then(used),
            ds_resolve: None,
        }
    }
}

/// A render pass instance being recorded: its subpasses' attachment views, the current
/// subpass (vkCmdClearAttachments clears its attachments), the render area and the
/// framebuffer's layers (each subpass's multisample resolves cover them).
pub struct Rendering {
    subpasses: Vec<SubpassViews>,
    current: usize,
    area: vk::Rect2D,
    layers: u32,
    /// A dynamic rendering instance that will be resumed (RENDERING_SUSPENDING): its end
    /// resolves nothing yet.
    suspending: bool,
}

#[derive(Clone)]
struct SubpassViews {
    colors: Vec<Option<vk::ImageView>>,
    resolves: Vec<Option<vk::ImageView>>,
    depth_stencil: Option<vk::ImageView>,
    ds_resolve: Option<(vk::ImageView, DsModes)>,
}

impl Rendering {
    /// The views of `rp`'s subpasses in framebuffer `fb` (whose views are `attachments`:
    /// its own, or an imageless framebuffer's from the begin info), from subpass `current`
    /// on.
    fn new(
        rp: &RenderPass,
        fb: &Framebuffer,
        attachments: &[vk::ImageView],
        current: usize,
        area: vk::Rect2D,
    ) -> Rendering {
        let view = |a: Option<u32>| a.and_then(|a| attachments.get(a as usize).copied());
        let views = |v: &[Option<u32>]| v.iter().map(|&a| view(a)).collect();
        let subpasses = rp
            .subpasses
            .iter()
            .map(|s| SubpassViews {
                colors: views(&s.colors),
                resolves: views(&s.resolves),
                depth_stencil: view(s.depth_stencil),
                ds_resolve: s.ds_resolve.and_then(|(a, m)| view(Some(a)).map(|v| (v, m))),
            })
            .collect();
        Rendering { subpasses, current, area, layers: fb.extent.depth, suspending: false }
    }
}

/// The render pass instance a secondary command buffer begun with `info` continues
/// (RENDER_PASS_CONTINUE with a framebuffer that has its views in its inheritance info),
/// if any; without it vkCmdClearAttachments fails by name there.
///
/// # Safety
/// `info` is valid per the specification.
pub unsafe fn inherited(info: &vk::CommandBufferBeginInfo<'_>) -> Option<Rendering> {
    if !info.flags.contains(vk::CommandBufferUsageFlags::RENDER_PASS_CONTINUE) || info.p_inheritance_info.is_null() {
        return None;
    }
    // SAFETY: by the caller's contract; live handles per the specification.
    let (rp, fb) = unsafe {
        let i = &*info.p_inheritance_info;
        (RenderPass::from_handle(i.render_pass), Framebuffer::from_handle(i.framebuffer).map(|f| (f, i.subpass)))
    };
    let (rp, (fb, subpass)) = (rp?, fb?);
    // An imageless framebuffer's views are known to the primary's begin only.
    if fb.attachments.is_empty() && !rp.attachments.is_empty() {
        return None;
    }
    let area =
        vk::Rect2D { extent: vk::Extent2D { width: fb.extent.width, height: fb.extent.height }, ..Default::default() };
    Some(Rendering::new(rp, fb, &fb.attachments, subpass as usize, area))
}

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
        // SAFETY: as above.
        let subpasses = unsafe { slice(i.p_subpasses, i.subpass_count) }
            .iter()
            .map(|s| {
                // SAFETY: as above (the resolve and depth/stencil references may be null).
                unsafe {
                    let n = s.color_attachment_count;
                    let colors = slice(s.p_color_attachments, n).iter().map(|r| r.attachment).collect();
                    let resolves = slice(s.p_resolve_attachments, n).iter().map(|r| r.attachment).collect();
                    Subpass::new(colors, resolves, s.p_depth_stencil_attachment.as_ref().map(|r| r.attachment))
                }
            })
            .collect();
        // SAFETY: out is valid per the specification.
        unsafe { *out = RenderPass { attachments, subpasses }.into_handle() };
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
        // SAFETY: as above.
        let subpasses = unsafe { slice(i.p_subpasses, i.subpass_count) }
            .iter()
            .map(|s| {
                // SAFETY: as above (the resolve and depth/stencil references may be null).
                let mut sub = unsafe {
                    let n = s.color_attachment_count;
                    let colors = slice(s.p_color_attachments, n).iter().map(|r| r.attachment).collect();
                    let resolves = slice(s.p_resolve_attachments, n).iter().map(|r| r.attachment).collect();
                    Subpass::new(colors, resolves, s.p_depth_stencil_attachment.as_ref().map(|r| r.attachment))
                };
                // SAFETY: as above.
                sub.ds_resolve = unsafe { ds_resolve(s.p_next) };
                sub
            })
            .collect();
        // SAFETY: out is valid per the specification.
        unsafe { *out = RenderPass { attachments, subpasses }.into_handle() };
        vk::Result::SUCCESS
    })
}

/// A subpass's depth/stencil resolve (VkSubpassDescriptionDepthStencilResolve in its
/// chain `next`): the attachment and the modes, if it names one.
///
/// # Safety
/// `next` is a valid chain per the specification.
unsafe fn ds_resolve(next: *const std::ffi::c_void) -> Option<(u32, DsModes)> {
    let ty = vk::StructureType::SUBPASS_DESCRIPTION_DEPTH_STENCIL_RESOLVE;
    // SAFETY: by the caller's contract.
    let s = unsafe { crate::handle::chain(next) }.find(|&s| unsafe { (*s).s_type } == ty)?;
    // SAFETY: the structure its type names; its reference may be null.
    let (r, a) = unsafe {
        let r = &*(s as *const vk::SubpassDescriptionDepthStencilResolve<'_>);
        (r, r.p_depth_stencil_resolve_attachment.as_ref()?.attachment)
    };
    (a != vk::ATTACHMENT_UNUSED).then_some((a, (r.depth_resolve_mode, r.stencil_resolve_mode)))
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

/// The aspects of an attachment of `format` that load operations `load` (colour or depth)
/// and `stencil_load` clear.
fn load_clears(
    format: vk::Format,
    load: vk::AttachmentLoadOp,
    stencil_load: vk::AttachmentLoadOp,
) -> vk::ImageAspectFlags {
    use vk::ImageAspectFlags as A;
    let clear = |op: vk::AttachmentLoadOp, a: A| if op == vk::AttachmentLoadOp::CLEAR { a } else { A::empty() };
    let has = crate::image::aspects(format);
    clear(load, has & (A::COLOR | A::DEPTH)) | clear(stencil_load, has & A::STENCIL)
}

/// Begins a render pass instance: its CLEAR load operations clear the render area of every
/// framebuffer layer of their attachments (see the module documentation), and the
/// command buffer keeps the subpasses' views for vkCmdClearAttachments.
fn begin(c: vk::CommandBuffer, name: &str, info: &vk::RenderPassBeginInfo<'_>) -> Result<(), String> {
    // SAFETY: live handles per the specification.
    let (rp, fb) = unsafe { (RenderPass::from_handle(info.render_pass), Framebuffer::from_handle(info.framebuffer)) };
    let (Some(rp), Some(fb)) = (rp, fb) else { return Err("a null render pass or framebuffer".into()) };
    // An imageless framebuffer's views come with the begin info.
    // SAFETY: a valid chain per the specification.
    let given = unsafe { crate::handle::chain(info.p_next) }
        .find(|&s| unsafe { (*s).s_type } == vk::StructureType::RENDER_PASS_ATTACHMENT_BEGIN_INFO)
        // SAFETY: the structure its type names, with its views.
        .map(|s| unsafe {
            let b = &*(s as *const vk::RenderPassAttachmentBeginInfo<'_>);
            slice(b.p_attachments, b.attachment_count).to_vec()
        });
    let attachments = given.unwrap_or_else(|| fb.attachments.clone());
    *crate::cmd::rendering(c) = Some(Rendering::new(rp, fb, &attachments, 0, info.render_area));
    // SAFETY: clear_value_count values, per the specification.
    let values = unsafe { slice(info.p_clear_values, info.clear_value_count) };
    for (k, &(format, load, stencil_load)) in rp.attachments.iter().enumerate() {
        let aspects = load_clears(format, load, stencil_load);
        if aspects.is_empty() {
            continue;
        }
        let view = *attachments.get(k).ok_or_else(|| format!("{name}: the framebuffer has no attachment {k}"))?;
        let value = values.get(k).ok_or_else(|| format!("{name}: no clear value for attachment {k}"))?;
        crate::transfer::clear_view_rect(c, view, value, aspects, info.render_area, 0..fb.extent.depth)?;
    }
    Ok(())
}

/// `vkCmdClearAttachments`: each rectangle (and its layers) of each attachment of the
/// current subpass, cleared as the load operations clear (no draw is needed to clear).
/// Attachments the subpass does not use are left alone, as the specification says.
fn clear_attachments(
    c: vk::CommandBuffer,
    atts: &[vk::ClearAttachment],
    rects: &[vk::ClearRect],
) -> Result<(), String> {
    let views = crate::cmd::rendering(c)
        .as_ref()
        .and_then(|r| r.subpasses.get(r.current).cloned())
        .ok_or("outside a render pass instance (or in a secondary command buffer without its framebuffer)")?;
    for a in atts {
        let view = if a.aspect_mask.contains(vk::ImageAspectFlags::COLOR) {
            views.colors.get(a.color_attachment as usize).copied().flatten()
        } else {
            views.depth_stencil
        };
        let Some(view) = view else { continue };
        for r in rects {
            let layers = r.base_array_layer..r.base_array_layer.saturating_add(r.layer_count);
            crate::transfer::clear_view_rect(c, view, &a.clear_value, a.aspect_mask, r.rect, layers)?;
        }
    }
    Ok(())
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_clear_attachments(
    c: vk::CommandBuffer,
    n: u32,
    atts: *const vk::ClearAttachment,
    rn: u32,
    rects: *const vk::ClearRect,
) {
    const WHAT: &str = "vkCmdClearAttachments";
    guard(WHAT, (), || {
        // SAFETY: valid per the specification.
        let (atts, rects) = unsafe { (slice(atts, n), slice(rects, rn)) };
        if let Err(e) = clear_attachments(c, atts, rects) {
            crate::cmd::fail(c, WHAT, vk::Result::ERROR_FEATURE_NOT_PRESENT, e);
        }
    })
}
const _: vk::PFN_vkCmdClearAttachments = cmd_clear_attachments;

/// The end of the current subpass: its multisampled colour attachments resolved into
/// their resolve attachments over the render area (resolve.rs, as vkCmdResolveImage).
fn end_subpass(c: vk::CommandBuffer, what: &str) {
    let Some(r) = crate::cmd::rendering(c).as_ref().filter(|r| !r.suspending) else { return };
    let Some(views) = r.subpasses.get(r.current).cloned() else { return };
    let (area, layers) = (r.area, r.layers);
    for (src, dst) in views.colors.iter().zip(&views.resolves) {
        let (Some(src), Some(dst)) = (src, dst) else { continue };
        // SAFETY: live view handles per the specification.
        let (s, d) =
            unsafe { (crate::image::ImageView::from_handle(*src), crate::image::ImageView::from_handle(*dst)) };
        let (Some(s), Some(d)) = (s, d) else { continue };
        let region = area_region((s, d), vk::ImageAspectFlags::COLOR, area, layers);
        crate::resolve::resolve(c, what, s.image, d.image, &[region]);
    }
    if let (Some(src), Some((dst, modes))) = (views.depth_stencil, views.ds_resolve) {
        resolve_depth_stencil(c, what, (src, dst), modes, area, layers);
    }
}

/// The depth and stencil resolves of a subpass or rendering instance over `area` and
/// `layers`: each aspect whose mode is SAMPLE_ZERO (the only one softnavi reports; others
/// fail by name).
fn resolve_depth_stencil(
    c: vk::CommandBuffer,
    what: &str,
    (src, dst): (vk::ImageView, vk::ImageView),
    (depth, stencil): DsModes,
    area: vk::Rect2D,
    layers: u32,
) {
    use vk::ResolveModeFlags as M;
    // SAFETY: live view handles per the specification.
    let (s, d) = unsafe { (crate::image::ImageView::from_handle(src), crate::image::ImageView::from_handle(dst)) };
    let (Some(s), Some(d)) = (s, d) else { return };
    let aspects = [(vk::ImageAspectFlags::DEPTH, depth), (vk::ImageAspectFlags::STENCIL, stencil)];
    for (aspect, mode) in
        aspects.into_iter().filter(|&(a, m)| m != M::NONE && crate::image::aspects(s.format).contains(a))
    {
        if mode != M::SAMPLE_ZERO {
            let msg = format!("depth/stencil resolve mode {mode:?} is not offered (SAMPLE_ZERO is)");
            crate::cmd::fail(c, what, vk::Result::ERROR_FEATURE_NOT_PRESENT, msg);
            continue;
        }
        let region = area_region((s, d), aspect, area, layers);
        crate::resolve::resolve_sample_zero(c, what, (s.image, d.image), aspect, &region);
    }
}

/// The resolve region of `aspect` from view `s` to view `d` over `area` and `layers`
/// (relative to each view's first layer and level).
fn area_region(
    (s, d): (&crate::image::ImageView, &crate::image::ImageView),
    aspect: vk::ImageAspectFlags,
    area: vk::Rect2D,
    layers: u32,
) -> vk::ImageResolve {
    let sub = |v: &crate::image::ImageView| vk::ImageSubresourceLayers {
        aspect_mask: aspect,
        mip_level: v.range.base_mip_level,
        base_array_layer: v.range.base_array_layer,
        layer_count: layers,
    };
    let at = vk::Offset3D { x: area.offset.x, y: area.offset.y, z: 0 };
    vk::ImageResolve {
        src_subresource: sub(s),
        src_offset: at,
        dst_subresource: sub(d),
        dst_offset: at,
        extent: vk::Extent3D { width: area.extent.width, height: area.extent.height, depth: 1 },
    }
}

/// The next subpass of the render pass instance.
fn next_subpass(c: vk::CommandBuffer) {
    end_subpass(c, "vkCmdNextSubpass");
    if let Some(r) = crate::cmd::rendering(c) {
        r.current += 1;
    }
}

/// The end of the render pass instance (its attachments are memory: nothing to store but
/// the last subpass's resolves).
fn end_render_pass(c: vk::CommandBuffer) {
    end_subpass(c, "vkCmdEndRenderPass");
    *crate::cmd::rendering(c) = None;
}

/// `vkCmdBeginRendering` (dynamic rendering) without draws, as a one-subpass render pass:
/// the CLEAR load operations of its attachments clear the render area of its layers
/// (unless it resumes a suspended instance), vkCmdClearAttachments clears them, and its
/// end resolves the colour attachments that name a resolve view (AVERAGE for float
/// formats, SAMPLE_ZERO for integer ones, as Vulkan allows them and resolve.rs does) and
/// the depth and stencil ones (SAMPLE_ZERO, the mode softnavi reports).
fn begin_rendering(c: vk::CommandBuffer, info: &vk::RenderingInfo<'_>) -> Result<(), String> {
    use vk::ImageAspectFlags as A;
    // SAFETY: valid per the specification (the depth and stencil attachments may be null).
    let (colors, depth, stencil) = unsafe {
        (
            slice(info.p_color_attachments, info.color_attachment_count),
            info.p_depth_attachment.as_ref(),
            info.p_stencil_attachment.as_ref(),
        )
    };
    let view = |v: vk::ImageView| (v != vk::ImageView::null()).then_some(v);
    // The depth and stencil attachments' resolve (one resolve view: Vulkan asks the two to
    // be the same where both resolve).
    let mode = |a: Option<&vk::RenderingAttachmentInfo<'_>>| a.map_or(vk::ResolveModeFlags::NONE, |a| a.resolve_mode);
    let resolve_view = [depth, stencil]
        .into_iter()
        .flatten()
        .find(|a| a.resolve_mode != vk::ResolveModeFlags::NONE)
        .and_then(|a| view(a.resolve_image_view));
    let ds_resolve = resolve_view.map(|v| (v, (mode(depth), mode(stencil))));
    let ds = |a: Option<&vk::RenderingAttachmentInfo<'_>>| a.and_then(|a| view(a.image_view));
    let views = SubpassViews {
        colors: colors.iter().map(|a| view(a.image_view)).collect(),
        resolves: colors
            .iter()
            .map(|a| view(a.resolve_image_view).filter(|_| a.resolve_mode != vk::ResolveModeFlags::NONE))
            .collect(),
        depth_stencil: ds(depth).or(ds(stencil)),
        ds_resolve,
    };
    let layers = if info.view_mask != 0 { 32 - info.view_mask.leading_zeros() } else { info.layer_count };
    let suspending = info.flags.contains(vk::RenderingFlags::SUSPENDING);
    *crate::cmd::rendering(c) =
        Some(Rendering { subpasses: vec![views], current: 0, area: info.render_area, layers, suspending });
    if info.flags.contains(vk::RenderingFlags::RESUMING) {
        return Ok(());
    }
    let clears = colors
        .iter()
        .map(|a| (a, A::COLOR))
        .chain(depth.map(|a| (a, A::DEPTH)))
        .chain(stencil.map(|a| (a, A::STENCIL)));
    for (a, aspect) in clears {
        if let (Some(v), vk::AttachmentLoadOp::CLEAR) = (view(a.image_view), a.load_op) {
            crate::transfer::clear_view_rect(c, v, &a.clear_value, aspect, info.render_area, 0..layers)?;
        }
    }
    Ok(())
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_begin_rendering(c: vk::CommandBuffer, info: *const vk::RenderingInfo<'_>) {
    guard("vkCmdBeginRendering", (), || {
        // SAFETY: valid per the specification.
        if let Err(e) = begin_rendering(c, unsafe { &*info }) {
            crate::cmd::fail(c, "vkCmdBeginRendering", vk::Result::ERROR_FEATURE_NOT_PRESENT, e);
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_end_rendering(c: vk::CommandBuffer) {
    guard("vkCmdEndRendering", (), || {
        end_subpass(c, "vkCmdEndRendering");
        *crate::cmd::rendering(c) = None;
    })
}

const _: vk::PFN_vkCmdBeginRendering = cmd_begin_rendering;
const _: vk::PFN_vkCmdEndRendering = cmd_end_rendering;

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_next_subpass(c: vk::CommandBuffer, _contents: vk::SubpassContents) {
    guard("vkCmdNextSubpass", (), || next_subpass(c))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_next_subpass2(
    c: vk::CommandBuffer,
    _begin: *const vk::SubpassBeginInfo<'_>,
    _end: *const vk::SubpassEndInfo<'_>,
) {
    guard("vkCmdNextSubpass2", (), || next_subpass(c))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_end_render_pass(c: vk::CommandBuffer) {
    guard("vkCmdEndRenderPass", (), || end_render_pass(c))
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_end_render_pass2(c: vk::CommandBuffer, _end: *const vk::SubpassEndInfo<'_>) {
    guard("vkCmdEndRenderPass2", (), || end_render_pass(c))
}

const _: vk::PFN_vkCmdNextSubpass = cmd_next_subpass;
const _: vk::PFN_vkCmdNextSubpass2 = cmd_next_subpass2;
const _: vk::PFN_vkCmdEndRenderPass = cmd_end_render_pass;
const _: vk::PFN_vkCmdEndRenderPass2 = cmd_end_render_pass2;

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

/// Commands that change nothing softnavi carries out: viewport and scissor state (no draw
/// can run).
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
    cmd_set_viewport PFN_vkCmdSetViewport (u32, u32, *const vk::Viewport);
    cmd_set_scissor PFN_vkCmdSetScissor (u32, u32, *const vk::Rect2D);
    cmd_set_viewport_with_count PFN_vkCmdSetViewportWithCount (u32, *const vk::Viewport);
    cmd_set_scissor_with_count PFN_vkCmdSetScissorWithCount (u32, *const vk::Rect2D);
}

const _: vk::PFN_vkCmdBeginRenderPass = cmd_begin_render_pass;
const _: vk::PFN_vkCmdBeginRenderPass2 = cmd_begin_render_pass2;
