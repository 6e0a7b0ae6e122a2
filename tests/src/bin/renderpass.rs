//! `softnavi-renderpass`: a render pass instance without draws, which softnavi carries out
//! on its compute family (no graphics queue), begun three ways (a render pass and
//! framebuffer, an imageless framebuffer, dynamic rendering): the CLEAR load operations of a 4-sample
//! colour attachment and a D32_SFLOAT_S8_UINT attachment over a partial render area,
//! `vkCmdClearAttachments` rectangles on chosen layers of each aspect (the colour one in
//! subpass 0, depth and stencil in subpass 1), and subpass 0's multisample resolve at its
//! end. Every image is filled by transfer clears first, so the
//! texels outside the render area and the rectangles keep known values; the expected
//! images are computed here from the specification's rules ("Clear Values", "Clearing
//! Images Inside a Render Pass Instance", "Render Pass Load/Store/Resolve Operations").
//! On lavapipe (its queue has graphics) the same commands must pass validation-clean.

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{Context, Error};
use softnavi_tests::app::{self, Report};
use softnavi_tests::image::host_buffer;

type Res<T> = Result<T, Error>;

const W: u32 = 16;
const H: u32 = 8;
const LAYERS: u32 = 2;
const SAMPLES: vk::SampleCountFlags = vk::SampleCountFlags::TYPE_4;
const AREA: vk::Rect2D =
    vk::Rect2D { offset: vk::Offset2D { x: 2, y: 1 }, extent: vk::Extent2D { width: 12, height: 6 } };

/// Before the pass (transfer clears), the load operations, and the rectangles' values.
const RGBA_BEFORE: [u8; 4] = [10, 20, 30, 40];
const RGBA_LOAD: [f32; 4] = [1.0, 0.0, 0.0, 1.0];
const RGBA_RECT: [f32; 4] = [0.0, 1.0, 0.0, 0.5];
const DEPTH_BEFORE: f32 = 1.0;
const DEPTH_LOAD: f32 = 0.25;
const DEPTH_RECT: f32 = 0.75;
const STENCIL_BEFORE: u8 = 200;
const STENCIL_LOAD: u8 = 3;
const STENCIL_RECT: u8 = 9;

/// A rectangle on some layers: (x, y, width, height), first layer, layer count.
struct Rect([u32; 4], u32, u32);

const COLOUR_RECT: Rect = Rect([4, 2, 5, 3], 1, 1);
const DEPTH_RECT_AT: Rect = Rect([2, 1, 3, 3], 0, 2);
const STENCIL_RECT_AT: Rect = Rect([10, 5, 4, 2], 0, 1);

impl Rect {
    fn contains(&self, x: u32, y: u32, layer: u32) -> bool {
        let [rx, ry, rw, rh] = self.0;
        (rx..rx + rw).contains(&x) && (ry..ry + rh).contains(&y) && (self.1..self.1 + self.2).contains(&layer)
    }

    fn clear_rect(&self) -> vk::ClearRect {
        let [x, y, width, height] = self.0;
        vk::ClearRect {
            rect: vk::Rect2D {
                offset: vk::Offset2D { x: x as i32, y: y as i32 },
                extent: vk::Extent2D { width, height },
            },
            base_array_layer: self.1,
            layer_count: self.2,
        }
    }
}

fn in_area(x: u32, y: u32) -> bool {
    let (ax, ay) = (AREA.offset.x as u32, AREA.offset.y as u32);
    (ax..ax + AREA.extent.width).contains(&x) && (ay..ay + AREA.extent.height).contains(&y)
}

/// UNORM8 of a float, as the specification converts it (round to nearest).
fn unorm8(v: f32) -> u8 {
    (v.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// The expected texels, layer by layer, row by row: resolved colour (every sample of a
/// texel holds one value, so the mean is that value), depth (f32) and stencil bytes.
fn expected() -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    let (mut rgba, mut depth, mut stencil) = (Vec::new(), Vec::new(), Vec::new());
    for layer in 0..LAYERS {
        for y in 0..H {
            for x in 0..W {
                let c = match (in_area(x, y), COLOUR_RECT.contains(x, y, layer)) {
                    (_, true) => RGBA_RECT.map(unorm8),
                    (true, false) => RGBA_LOAD.map(unorm8),
                    (false, false) => RGBA_BEFORE,
                };
                rgba.extend_from_slice(&c);
                let d = match (in_area(x, y), DEPTH_RECT_AT.contains(x, y, layer)) {
                    (_, true) => DEPTH_RECT,
                    (true, false) => DEPTH_LOAD,
                    (false, false) => DEPTH_BEFORE,
                };
                depth.extend_from_slice(&d.to_le_bytes());
                stencil.push(match (in_area(x, y), STENCIL_RECT_AT.contains(x, y, layer)) {
                    (_, true) => STENCIL_RECT,
                    (true, false) => STENCIL_LOAD,
                    (false, false) => STENCIL_BEFORE,
                });
            }
        }
    }
    (rgba, depth, stencil)
}

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// Objects the case creates, destroyed when it ends (after the device is idle).
struct Objects<'c> {
    ctx: &'c Context,
    images: Vec<(vk::Image, vk::DeviceMemory)>,
    views: Vec<vk::ImageView>,
    render_pass: vk::RenderPass,
    framebuffer: vk::Framebuffer,
}

impl Drop for Objects<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: the device is idle; null handles are ignored.
        unsafe {
            d.destroy_framebuffer(self.framebuffer, None);
            d.destroy_render_pass(self.render_pass, None);
            for &v in &self.views {
                d.destroy_image_view(v, None);
            }
            for &(i, m) in &self.images {
                d.destroy_image(i, None);
                d.free_memory(m, None);
            }
        }
    }
}

impl Objects<'_> {
    /// A bound 2D array image of the case's extent and layers, and its 2D array view of
    /// `aspect`.
    fn image(
        &mut self,
        format: vk::Format,
        samples: vk::SampleCountFlags,
        usage: vk::ImageUsageFlags,
        aspect: vk::ImageAspectFlags,
    ) -> Res<vk::Image> {
        let (ctx, dev) = (self.ctx, self.ctx.device());
        let info = vk::ImageCreateInfo::default()
            .image_type(vk::ImageType::TYPE_2D)
            .format(format)
            .extent(vk::Extent3D { width: W, height: H, depth: 1 })
            .mip_levels(1)
            .array_layers(LAYERS)
            .samples(samples)
            .tiling(vk::ImageTiling::OPTIMAL)
            .usage(usage | vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
        // SAFETY: valid create infos; Drop destroys what is created.
        unsafe {
            let image = dev.create_image(&info, None).map_err(vkerr("vkCreateImage"))?;
            let req = dev.get_image_memory_requirements(image);
            let props = ctx.instance().get_physical_device_memory_properties(ctx.physical_device());
            let ty = (0..props.memory_type_count)
                .find(|&i| req.memory_type_bits >> i & 1 != 0)
                .ok_or_else(|| Error::Unsupported("no memory type for the image".into()))?;
            let alloc = vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty);
            let memory = dev.allocate_memory(&alloc, None);
            let memory = match memory {
                Ok(m) => m,
                Err(e) => {
                    dev.destroy_image(image, None);
                    return Err(vkerr("vkAllocateMemory")(e));
                }
            };
            self.images.push((image, memory));
            dev.bind_image_memory(image, memory, 0).map_err(vkerr("vkBindImageMemory"))?;
            let view = vk::ImageViewCreateInfo::default()
                .image(image)
                .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
                .format(format)
                .subresource_range(range(aspect));
            self.views.push(dev.create_image_view(&view, None).map_err(vkerr("vkCreateImageView"))?);
            Ok(image)
        }
    }
}

fn range(aspect_mask: vk::ImageAspectFlags) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: LAYERS,
    }
}

/// The render pass: a 4-sample colour attachment (cleared) resolved into a single-sample
/// one, and a cleared depth/stencil attachment, all from and to transfer layouts.
fn render_pass(ctx: &Context) -> Res<vk::RenderPass> {
    use vk::{AttachmentLoadOp as L, AttachmentStoreOp as S, ImageLayout as IL};
    let att = |format, samples, load, stencil_load| {
        vk::AttachmentDescription::default()
            .format(format)
            .samples(samples)
            .load_op(load)
            .store_op(S::STORE)
            .stencil_load_op(stencil_load)
            .stencil_store_op(S::STORE)
            .initial_layout(IL::TRANSFER_DST_OPTIMAL)
            .final_layout(IL::TRANSFER_SRC_OPTIMAL)
    };
    let one = vk::SampleCountFlags::TYPE_1;
    let atts = [
        att(vk::Format::R8G8B8A8_UNORM, SAMPLES, L::CLEAR, L::DONT_CARE),
        att(vk::Format::R8G8B8A8_UNORM, one, L::LOAD, L::DONT_CARE),
        att(vk::Format::D32_SFLOAT_S8_UINT, one, L::CLEAR, L::CLEAR),
    ];
    let colour = [vk::AttachmentReference { attachment: 0, layout: IL::COLOR_ATTACHMENT_OPTIMAL }];
    let resolve = [vk::AttachmentReference { attachment: 1, layout: IL::COLOR_ATTACHMENT_OPTIMAL }];
    let ds = vk::AttachmentReference { attachment: 2, layout: IL::DEPTH_STENCIL_ATTACHMENT_OPTIMAL };
    // Two subpasses (a depth/stencil attachment has its colour attachments' samples).
    let subpasses = [
        vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .color_attachments(&colour)
            .resolve_attachments(&resolve),
        vk::SubpassDescription::default()
            .pipeline_bind_point(vk::PipelineBindPoint::GRAPHICS)
            .depth_stencil_attachment(&ds),
    ];
    use vk::{AccessFlags as A, PipelineStageFlags as P};
    let attachment_stages = P::COLOR_ATTACHMENT_OUTPUT | P::EARLY_FRAGMENT_TESTS | P::LATE_FRAGMENT_TESTS;
    let attachment_access = A::COLOR_ATTACHMENT_WRITE | A::DEPTH_STENCIL_ATTACHMENT_WRITE;
    let deps: Vec<vk::SubpassDependency> = (0..2)
        .flat_map(|k| {
            [
                vk::SubpassDependency::default()
                    .src_subpass(vk::SUBPASS_EXTERNAL)
                    .dst_subpass(k)
                    .src_stage_mask(P::TRANSFER)
                    .src_access_mask(A::TRANSFER_WRITE)
                    .dst_stage_mask(attachment_stages)
                    .dst_access_mask(attachment_access),
                vk::SubpassDependency::default()
                    .src_subpass(k)
                    .dst_subpass(vk::SUBPASS_EXTERNAL)
                    .src_stage_mask(attachment_stages)
                    .src_access_mask(attachment_access)
                    .dst_stage_mask(P::TRANSFER)
                    .dst_access_mask(A::TRANSFER_READ),
            ]
        })
        .collect();
    let info = vk::RenderPassCreateInfo::default().attachments(&atts).subpasses(&subpasses).dependencies(&deps);
    // SAFETY: a valid create info.
    unsafe { ctx.device().create_render_pass(&info, None) }.map_err(vkerr("vkCreateRenderPass"))
}

/// How the instance is begun: a render pass and framebuffer, the same with an imageless
/// framebuffer (the views given at vkCmdBeginRenderPass), or dynamic rendering (two
/// instances: the colour one, then the depth/stencil one).
#[derive(Clone, Copy, PartialEq)]
enum Mode {
    RenderPass,
    Imageless,
    Dynamic,
    /// Dynamic rendering into a 4-sample depth/stencil attachment, resolved (SAMPLE_ZERO,
    /// both aspects) into the single-sample one that is read back.
    DynamicDepthResolve,
}

/// The attachment image infos of an imageless framebuffer over `formats` and `usages`.
fn attachment_infos(
    formats: &[vk::Format; 3],
    usages: [vk::ImageUsageFlags; 3],
) -> Vec<vk::FramebufferAttachmentImageInfo<'_>> {
    let transfer = vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST;
    formats
        .iter()
        .zip(usages)
        .map(|(f, u)| {
            vk::FramebufferAttachmentImageInfo::default()
                .usage(u | transfer)
                .width(W)
                .height(H)
                .layer_count(LAYERS)
                .view_formats(std::slice::from_ref(f))
        })
        .collect()
}

fn case(ctx: &Context, mode: Mode) -> Res<Result<(), String>> {
    use vk::{ImageAspectFlags as A, ImageLayout as IL, ImageUsageFlags as U};
    let mut o = Objects {
        ctx,
        images: Vec::new(),
        views: Vec::new(),
        render_pass: vk::RenderPass::null(),
        framebuffer: vk::Framebuffer::null(),
    };
    let ds_aspects = A::DEPTH | A::STENCIL;
    let formats = [vk::Format::R8G8B8A8_UNORM, vk::Format::R8G8B8A8_UNORM, vk::Format::D32_SFLOAT_S8_UINT];
    let usages = [U::COLOR_ATTACHMENT, U::COLOR_ATTACHMENT, U::DEPTH_STENCIL_ATTACHMENT];
    let msaa = o.image(formats[0], SAMPLES, usages[0], A::COLOR)?;
    let resolved = o.image(formats[1], vk::SampleCountFlags::TYPE_1, usages[1], A::COLOR)?;
    let ds = o.image(formats[2], vk::SampleCountFlags::TYPE_1, usages[2], ds_aspects)?;
    let ds_msaa = match mode {
        Mode::DynamicDepthResolve => Some(o.image(formats[2], SAMPLES, usages[2], ds_aspects)?),
        _ => None,
    };
    let dev = ctx.device();
    if matches!(mode, Mode::RenderPass | Mode::Imageless) {
        o.render_pass = render_pass(ctx)?;
        let infos = attachment_infos(&formats, usages);
        let mut imageless = vk::FramebufferAttachmentsCreateInfo::default().attachment_image_infos(&infos);
        let mut fb = vk::FramebufferCreateInfo::default().render_pass(o.render_pass).width(W).height(H).layers(LAYERS);
        fb = if mode == Mode::Imageless {
            fb.flags(vk::FramebufferCreateFlags::IMAGELESS).attachment_count(3).push_next(&mut imageless)
        } else {
            fb.attachments(&o.views)
        };
        // SAFETY: a valid create info.
        o.framebuffer = unsafe { dev.create_framebuffer(&fb, None) }.map_err(vkerr("vkCreateFramebuffer"))?;
    }
    let texels = (W * H * LAYERS) as usize;
    let (rgba_out, depth_out, stencil_out) = (
        host_buffer(ctx, "colour", &vec![0; texels * 4])?,
        host_buffer(ctx, "depth", &vec![0; texels * 4])?,
        host_buffer(ctx, "stencil", &vec![0; texels])?,
    );
    let layers = |aspect_mask| vk::ImageSubresourceLayers {
        aspect_mask,
        mip_level: 0,
        base_array_layer: 0,
        layer_count: LAYERS,
    };
    let download = |aspect| {
        [vk::BufferImageCopy::default().image_subresource(layers(aspect)).image_extent(vk::Extent3D {
            width: W,
            height: H,
            depth: 1,
        })]
    };
    let barrier = |image, aspect, old, new| {
        vk::ImageMemoryBarrier::default()
            .image(image)
            .old_layout(old)
            .new_layout(new)
            .src_access_mask(
                vk::AccessFlags::TRANSFER_WRITE
                    | vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            )
            .dst_access_mask(
                vk::AccessFlags::TRANSFER_WRITE
                    | vk::AccessFlags::TRANSFER_READ
                    | vk::AccessFlags::COLOR_ATTACHMENT_WRITE
                    | vk::AccessFlags::DEPTH_STENCIL_ATTACHMENT_WRITE,
            )
            .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
            .subresource_range(range(aspect))
    };
    // The multisampled depth/stencil attachment only ever holds what the instance clears:
    // it enters its attachment layout from UNDEFINED.
    let all = |old: [IL; 2], new: [IL; 2]| {
        let mut b = vec![
            barrier(msaa, A::COLOR, old[0], new[0]),
            barrier(resolved, A::COLOR, old[0], new[0]),
            barrier(ds, ds_aspects, old[1], new[1]),
        ];
        b.extend(
            ds_msaa
                .map(|i| barrier(i, ds_aspects, IL::UNDEFINED, new[1]))
                .filter(|_| new[1] == IL::DEPTH_STENCIL_ATTACHMENT_OPTIMAL),
        );
        b
    };
    ctx.submit_and_wait(|cmd| {
        let dst = IL::TRANSFER_DST_OPTIMAL;
        let every = vk::PipelineStageFlags::ALL_COMMANDS;
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            let b = all([IL::UNDEFINED; 2], [dst; 2]);
            dev.cmd_pipeline_barrier(cmd, every, every, Default::default(), &[], &[], &b);
            let rgba_before = vk::ClearColorValue { float32: RGBA_BEFORE.map(|c| c as f32 / 255.0) };
            let ds_before = vk::ClearDepthStencilValue { depth: DEPTH_BEFORE, stencil: STENCIL_BEFORE as u32 };
            for image in [msaa, resolved] {
                dev.cmd_clear_color_image(cmd, image, dst, &rgba_before, &[range(A::COLOR)]);
            }
            dev.cmd_clear_depth_stencil_image(cmd, ds, dst, &ds_before, &[range(ds_aspects)]);
            if matches!(mode, Mode::Dynamic | Mode::DynamicDepthResolve) {
                record_dynamic(ctx, cmd, &o.views, &all);
            } else {
                record_render_pass(ctx, cmd, &o, mode == Mode::Imageless);
            }
            let src = IL::TRANSFER_SRC_OPTIMAL;
            dev.cmd_copy_image_to_buffer(cmd, resolved, src, rgba_out.handle(), &download(A::COLOR));
            dev.cmd_copy_image_to_buffer(cmd, ds, src, depth_out.handle(), &download(A::DEPTH));
            dev.cmd_copy_image_to_buffer(cmd, ds, src, stencil_out.handle(), &download(A::STENCIL));
            let host = [vk::MemoryBarrier::default()
                .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .dst_access_mask(vk::AccessFlags::HOST_READ)];
            dev.cmd_pipeline_barrier(cmd, every, vk::PipelineStageFlags::HOST, Default::default(), &host, &[], &[]);
        }
        Ok(())
    })?;
    compare(&[("colour", &rgba_out, 4), ("depth", &depth_out, 4), ("stencil", &stencil_out, 1)])
}

/// The rectangles' clears: colour, depth, stencil.
fn rect_clears() -> [vk::ClearAttachment; 3] {
    let ds = |depth, stencil: u8| vk::ClearValue {
        depth_stencil: vk::ClearDepthStencilValue { depth, stencil: stencil as u32 },
    };
    let at = |aspect_mask, clear_value| vk::ClearAttachment { aspect_mask, color_attachment: 0, clear_value };
    [
        at(vk::ImageAspectFlags::COLOR, vk::ClearValue { color: vk::ClearColorValue { float32: RGBA_RECT } }),
        at(vk::ImageAspectFlags::DEPTH, ds(DEPTH_RECT, 0)),
        at(vk::ImageAspectFlags::STENCIL, ds(0.0, STENCIL_RECT)),
    ]
}

/// The load operations' clear values, per attachment.
fn load_values() -> [vk::ClearValue; 3] {
    [
        vk::ClearValue { color: vk::ClearColorValue { float32: RGBA_LOAD } },
        vk::ClearValue::default(),
        vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue { depth: DEPTH_LOAD, stencil: STENCIL_LOAD as u32 },
        },
    ]
}

/// The render pass instance (its views given at begin for an imageless framebuffer).
///
/// # Safety
/// `cmd` is recording; the objects live until the submission completes.
unsafe fn record_render_pass(ctx: &Context, cmd: vk::CommandBuffer, o: &Objects<'_>, imageless: bool) {
    let dev = ctx.device();
    let clears = load_values();
    let mut views = vk::RenderPassAttachmentBeginInfo::default().attachments(&o.views);
    let mut begin = vk::RenderPassBeginInfo::default()
        .render_pass(o.render_pass)
        .framebuffer(o.framebuffer)
        .render_area(AREA)
        .clear_values(&clears);
    if imageless {
        begin = begin.push_next(&mut views);
    }
    let rc = rect_clears();
    // SAFETY: by the caller's contract.
    unsafe {
        dev.cmd_begin_render_pass(cmd, &begin, vk::SubpassContents::INLINE);
        dev.cmd_clear_attachments(cmd, &rc[..1], &[COLOUR_RECT.clear_rect()]);
        // The colour attachment is resolved here, at the end of subpass 0.
        dev.cmd_next_subpass(cmd, vk::SubpassContents::INLINE);
        dev.cmd_clear_attachments(cmd, &rc[1..2], &[DEPTH_RECT_AT.clear_rect()]);
        dev.cmd_clear_attachments(cmd, &rc[2..], &[STENCIL_RECT_AT.clear_rect()]);
        dev.cmd_end_render_pass(cmd);
    }
}

/// Two dynamic rendering instances: the 4-sample colour attachment resolved (AVERAGE) into
/// the single-sample one, then the depth/stencil attachment; the images move between the
/// transfer and attachment layouts around them (`all` makes the barriers).
///
/// # Safety
/// `cmd` is recording; the views live until the submission completes.
unsafe fn record_dynamic(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    views: &[vk::ImageView],
    all: &dyn Fn([vk::ImageLayout; 2], [vk::ImageLayout; 2]) -> Vec<vk::ImageMemoryBarrier<'static>>,
) {
    use vk::ImageLayout as IL;
    let dev = ctx.device();
    let (colour, depth) = (IL::COLOR_ATTACHMENT_OPTIMAL, IL::DEPTH_STENCIL_ATTACHMENT_OPTIMAL);
    let values = load_values();
    let att = |view, layout, value| {
        vk::RenderingAttachmentInfo::default()
            .image_view(view)
            .image_layout(layout)
            .load_op(vk::AttachmentLoadOp::CLEAR)
            .store_op(vk::AttachmentStoreOp::STORE)
            .clear_value(value)
    };
    let colours = [att(views[0], colour, values[0])
        .resolve_mode(vk::ResolveModeFlags::AVERAGE)
        .resolve_image_view(views[1])
        .resolve_image_layout(colour)];
    // With a fourth view (the 4-sample depth/stencil attachment), it is rendered and
    // resolved into the third.
    let ds = match views.get(3) {
        Some(&ms) => att(ms, depth, values[2])
            .resolve_mode(vk::ResolveModeFlags::SAMPLE_ZERO)
            .resolve_image_view(views[2])
            .resolve_image_layout(depth),
        None => att(views[2], depth, values[2]),
    };
    let info = || vk::RenderingInfo::default().render_area(AREA).layer_count(LAYERS);
    let rc = rect_clears();
    let every = vk::PipelineStageFlags::ALL_COMMANDS;
    // SAFETY: by the caller's contract.
    unsafe {
        let b = all([IL::TRANSFER_DST_OPTIMAL; 2], [colour, depth]);
        dev.cmd_pipeline_barrier(cmd, every, every, Default::default(), &[], &[], &b);
        dev.cmd_begin_rendering(cmd, &info().color_attachments(&colours));
        dev.cmd_clear_attachments(cmd, &rc[..1], &[COLOUR_RECT.clear_rect()]);
        dev.cmd_end_rendering(cmd);
        dev.cmd_begin_rendering(cmd, &info().depth_attachment(&ds).stencil_attachment(&ds));
        dev.cmd_clear_attachments(cmd, &rc[1..2], &[DEPTH_RECT_AT.clear_rect()]);
        dev.cmd_clear_attachments(cmd, &rc[2..], &[STENCIL_RECT_AT.clear_rect()]);
        dev.cmd_end_rendering(cmd);
        let b = all([colour, depth], [IL::TRANSFER_SRC_OPTIMAL; 2]);
        dev.cmd_pipeline_barrier(cmd, every, every, Default::default(), &[], &[], &b);
    }
}

/// Each read-back buffer against the expected images.
fn compare(reads: &[(&str, &softnavi_examples::Buffer<'_>, usize)]) -> Res<Result<(), String>> {
    let (rgba, depth, stencil) = expected();
    for ((name, buf, texel), want) in reads.iter().zip([&rgba, &depth, &stencil]) {
        let got = buf.read::<u8>(want.len())?;
        if let Some(i) = (0..got.len()).find(|&i| got[i] != want[i]) {
            let t = (i / texel) as u32;
            let (layer, y, x) = (t / (W * H), t / W % H, t % W);
            return Ok(Err(format!(
                "{name} texel ({x}, {y}) of layer {layer}, byte {}: {:#x}, expected {:#x}",
                i % texel,
                got[i],
                want[i]
            )));
        }
    }
    Ok(Ok(()))
}

fn main() -> ExitCode {
    let ctx = match app::context("softnavi-renderpass", false) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut report = Report::default();
    report.case("load_clears_clear_attachments_resolve", case(&ctx, Mode::RenderPass));
    report.case("imageless_framebuffer", case(&ctx, Mode::Imageless));
    report.case("dynamic_rendering", case(&ctx, Mode::Dynamic));
    report.case("depth_stencil_resolve", case(&ctx, Mode::DynamicDepthResolve));
    report.finish(&ctx)
}
