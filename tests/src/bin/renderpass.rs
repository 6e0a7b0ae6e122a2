//! `softnavi-renderpass`: a render pass instance without draws, which softnavi carries out
//! on its compute family (no graphics queue): the CLEAR load operations of a 4-sample
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

fn case(ctx: &Context) -> Res<Result<(), String>> {
    use vk::{ImageAspectFlags as A, ImageLayout as IL, ImageUsageFlags as U};
    let mut o = Objects {
        ctx,
        images: Vec::new(),
        views: Vec::new(),
        render_pass: vk::RenderPass::null(),
        framebuffer: vk::Framebuffer::null(),
    };
    let ds_aspects = A::DEPTH | A::STENCIL;
    let msaa = o.image(vk::Format::R8G8B8A8_UNORM, SAMPLES, U::COLOR_ATTACHMENT, A::COLOR)?;
    let resolved = o.image(vk::Format::R8G8B8A8_UNORM, vk::SampleCountFlags::TYPE_1, U::COLOR_ATTACHMENT, A::COLOR)?;
    let ds =
        o.image(vk::Format::D32_SFLOAT_S8_UINT, vk::SampleCountFlags::TYPE_1, U::DEPTH_STENCIL_ATTACHMENT, ds_aspects)?;
    o.render_pass = render_pass(ctx)?;
    let fb = vk::FramebufferCreateInfo::default()
        .render_pass(o.render_pass)
        .attachments(&o.views)
        .width(W)
        .height(H)
        .layers(LAYERS);
    let dev = ctx.device();
    // SAFETY: a valid create info.
    o.framebuffer = unsafe { dev.create_framebuffer(&fb, None) }.map_err(vkerr("vkCreateFramebuffer"))?;
    let texels = (W * H * LAYERS) as usize;
    let (rgba_out, depth_out, stencil_out) = (
        host_buffer(ctx, "colour", &vec![0; texels * 4])?,
        host_buffer(ctx, "depth", &vec![0; texels * 4])?,
        host_buffer(ctx, "stencil", &vec![0; texels])?,
    );
    let rgba_before = vk::ClearColorValue { float32: RGBA_BEFORE.map(|c| c as f32 / 255.0) };
    let ds_before = vk::ClearDepthStencilValue { depth: DEPTH_BEFORE, stencil: STENCIL_BEFORE as u32 };
    let clears = [
        vk::ClearValue { color: vk::ClearColorValue { float32: RGBA_LOAD } },
        vk::ClearValue::default(),
        vk::ClearValue {
            depth_stencil: vk::ClearDepthStencilValue { depth: DEPTH_LOAD, stencil: STENCIL_LOAD as u32 },
        },
    ];
    let rect_clears = [
        vk::ClearAttachment {
            aspect_mask: A::COLOR,
            color_attachment: 0,
            clear_value: vk::ClearValue { color: vk::ClearColorValue { float32: RGBA_RECT } },
        },
        vk::ClearAttachment {
            aspect_mask: A::DEPTH,
            color_attachment: 0,
            clear_value: vk::ClearValue { depth_stencil: vk::ClearDepthStencilValue { depth: DEPTH_RECT, stencil: 0 } },
        },
        vk::ClearAttachment {
            aspect_mask: A::STENCIL,
            color_attachment: 0,
            clear_value: vk::ClearValue {
                depth_stencil: vk::ClearDepthStencilValue { depth: 0.0, stencil: STENCIL_RECT as u32 },
            },
        },
    ];
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
    ctx.submit_and_wait(|cmd| {
        let to_dst = |image, aspect| {
            vk::ImageMemoryBarrier::default()
                .image(image)
                .old_layout(IL::UNDEFINED)
                .new_layout(IL::TRANSFER_DST_OPTIMAL)
                .dst_access_mask(vk::AccessFlags::TRANSFER_WRITE)
                .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
                .subresource_range(range(aspect))
        };
        let begin = vk::RenderPassBeginInfo::default()
            .render_pass(o.render_pass)
            .framebuffer(o.framebuffer)
            .render_area(AREA)
            .clear_values(&clears);
        let host = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::TRANSFER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            let barriers = [to_dst(msaa, A::COLOR), to_dst(resolved, A::COLOR), to_dst(ds, ds_aspects)];
            let (top, transfer) = (vk::PipelineStageFlags::TOP_OF_PIPE, vk::PipelineStageFlags::TRANSFER);
            dev.cmd_pipeline_barrier(cmd, top, transfer, Default::default(), &[], &[], &barriers);
            for image in [msaa, resolved] {
                dev.cmd_clear_color_image(cmd, image, IL::TRANSFER_DST_OPTIMAL, &rgba_before, &[range(A::COLOR)]);
            }
            dev.cmd_clear_depth_stencil_image(cmd, ds, IL::TRANSFER_DST_OPTIMAL, &ds_before, &[range(ds_aspects)]);
            dev.cmd_begin_render_pass(cmd, &begin, vk::SubpassContents::INLINE);
            dev.cmd_clear_attachments(cmd, &rect_clears[..1], &[COLOUR_RECT.clear_rect()]);
            // The colour attachment is resolved here, at the end of subpass 0.
            dev.cmd_next_subpass(cmd, vk::SubpassContents::INLINE);
            dev.cmd_clear_attachments(cmd, &rect_clears[1..2], &[DEPTH_RECT_AT.clear_rect()]);
            dev.cmd_clear_attachments(cmd, &rect_clears[2..], &[STENCIL_RECT_AT.clear_rect()]);
            dev.cmd_end_render_pass(cmd);
            let src = IL::TRANSFER_SRC_OPTIMAL;
            dev.cmd_copy_image_to_buffer(cmd, resolved, src, rgba_out.handle(), &download(A::COLOR));
            dev.cmd_copy_image_to_buffer(cmd, ds, src, depth_out.handle(), &download(A::DEPTH));
            dev.cmd_copy_image_to_buffer(cmd, ds, src, stencil_out.handle(), &download(A::STENCIL));
            dev.cmd_pipeline_barrier(cmd, transfer, vk::PipelineStageFlags::HOST, Default::default(), &host, &[], &[]);
        }
        Ok(())
    })?;
    let (rgba, depth, stencil) = expected();
    for (name, buf, want, texel) in
        [("colour", &rgba_out, &rgba, 4), ("depth", &depth_out, &depth, 4), ("stencil", &stencil_out, &stencil, 1)]
    {
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
    report.case("load_clears_clear_attachments_resolve", case(&ctx));
    report.finish(&ctx)
}
