//! `softnavi-transfer [--validate] [--refused] [--general-queue]`: the image transfer commands against a CPU
//! model of the images. For texels of 1, 2, 4, 8 and 16 bytes and 2D arrays with mips, 3D
//! images with mips and 1D arrays, one command buffer fills two images from buffers
//! (vkCmdCopyBufferToImage), writes a partial region at an offset from a buffer with
//! `bufferRowLength`/`bufferImageHeight` and an offset (vkCmdCopyBufferToImage2), clears a
//! subresource range (vkCmdClearColorImage), copies regions between the images at offsets,
//! levels and layers (vkCmdCopyImage, vkCmdCopyImage2) and reads both back whole
//! (vkCmdCopyImageToBuffer) and a partial region into a padded buffer layout
//! (vkCmdCopyImageToBuffer2, the bytes around it untouched); every byte is compared.
//!
//! With `--refused` (no validation: these are invalid on purpose), on a queue without
//! GRAPHICS: vkCmdResolveImage(2) of single-sampled images each
//! fail their command buffer at vkEndCommandBuffer with VK_ERROR_FEATURE_NOT_PRESENT, and
//! the device still runs a copy afterwards.
//!
//! It asks for a compute-only queue family where the device has one (RADV's compute ring,
//! where RADV's image copies are compute shaders); `--general-queue` takes the first
//! family with compute instead (on RADV its general queue, where they are draws).
//!
//! Prints one `PASS`/`FAIL`/`SKIP` line per case; exit status 0 when every case passes, 1
//! on a mismatch, 2 on a Vulkan error, 3 on validation messages (with `--validate`).

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{Context, Error};
use softnavi_tests::app::{self, Report};
use softnavi_tests::image::{create_image, host_buffer, transfer_barrier as barrier, ImageDesc};

type Res<T> = Result<T, Error>;

/// Uint formats of each texel size: copies and clears move their bits unconverted.
const FORMATS: [vk::Format; 5] = [
    vk::Format::R8_UINT,
    vk::Format::R16_UINT,
    vk::Format::R32_UINT,
    vk::Format::R32G32_UINT,
    vk::Format::R32G32B32A32_UINT,
];

/// Bytes around the read-back regions.
const SENTINEL: u8 = 0xee;

fn hash(mut x: u32) -> u32 {
    x = x.wrapping_mul(0x9e37_79b1) ^ (x >> 15);
    x = x.wrapping_mul(0x85eb_ca6b) ^ (x >> 13);
    x ^ (x >> 16)
}

fn pattern(n: usize, seed: u32) -> Vec<u8> {
    (0..n as u32).map(|i| hash(seed.wrapping_mul(1_000_003).wrapping_add(i)) as u8).collect()
}

/// A region of a subresource: level, first layer, layers, offset, extent.
#[derive(Clone, Copy, Debug)]
struct Place {
    level: u32,
    layer: u32,
    layers: u32,
    offset: [u32; 3],
    extent: [u32; 3],
}

impl Place {
    fn sub(&self) -> vk::ImageSubresourceLayers {
        vk::ImageSubresourceLayers {
            aspect_mask: vk::ImageAspectFlags::COLOR,
            mip_level: self.level,
            base_array_layer: self.layer,
            layer_count: self.layers,
        }
    }
    fn offset3(&self) -> vk::Offset3D {
        vk::Offset3D { x: self.offset[0] as i32, y: self.offset[1] as i32, z: self.offset[2] as i32 }
    }
    fn extent3(&self) -> vk::Extent3D {
        vk::Extent3D { width: self.extent[0], height: self.extent[1], depth: self.extent[2] }
    }
    /// Every texel: (layer, x, y, z) in image coordinates, in buffer order.
    fn texels(&self) -> Vec<(u32, [u32; 3])> {
        let [w, h, d] = self.extent;
        let mut out = Vec::new();
        for l in 0..self.layers {
            for z in 0..d {
                for y in 0..h {
                    for x in 0..w {
                        let o = self.offset;
                        out.push((self.layer + l, [o[0] + x, o[1] + y, o[2] + z]));
                    }
                }
            }
        }
        out
    }
}

/// A buffer layout of a region: offset, row length and image height in texels (0: tight).
#[derive(Clone, Copy, Debug)]
struct Layout {
    offset: u64,
    row: u32,
    height: u32,
}

impl Layout {
    /// Byte address of texel `k` of [`Place::texels`] order (the spec's "Copying Data
    /// Between Buffers and Images": layers count as depth slices).
    fn address(&self, p: &Place, texel: usize, k: usize) -> usize {
        let [w, h, _] = p.extent;
        let (row, height) = (if self.row == 0 { w } else { self.row }, if self.height == 0 { h } else { self.height });
        let (x, rest) = (k as u32 % w, k as u32 / w);
        let (y, slice) = (rest % h, rest / h);
        self.offset as usize + (((slice * height + y) * row + x) as usize) * texel
    }

    fn region(&self, p: &Place) -> vk::BufferImageCopy2<'static> {
        vk::BufferImageCopy2::default()
            .buffer_offset(self.offset)
            .buffer_row_length(self.row)
            .buffer_image_height(self.height)
            .image_subresource(p.sub())
            .image_offset(p.offset3())
            .image_extent(p.extent3())
    }

    fn region1(&self, p: &Place) -> vk::BufferImageCopy {
        let r = self.region(p);
        vk::BufferImageCopy {
            buffer_offset: r.buffer_offset,
            buffer_row_length: r.buffer_row_length,
            buffer_image_height: r.buffer_image_height,
            image_subresource: r.image_subresource,
            image_offset: r.image_offset,
            image_extent: r.image_extent,
        }
    }
}

/// One shape of image and the places the case touches.
struct Shape {
    name: &'static str,
    view: vk::ImageViewType,
    extent: [u32; 3],
    levels: u32,
    layers: u32,
    /// The partial upload (vkCmdCopyBufferToImage2).
    upload: Place,
    /// The cleared range: level, first layer, layers (every slice of a 3D level).
    clear: (u32, u32, u32),
    /// Image-to-image copies: (from A, to B) with vkCmdCopyImage, then with vkCmdCopyImage2.
    copies: [(Place, Place); 2],
    /// The partial read-back of A (vkCmdCopyImageToBuffer2).
    download: Place,
}

fn place(level: u32, layer: u32, layers: u32, offset: [u32; 3], extent: [u32; 3]) -> Place {
    Place { level, layer, layers, offset, extent }
}

fn shapes() -> Vec<Shape> {
    use vk::ImageViewType as V;
    vec![
        Shape {
            name: "2d_array",
            view: V::TYPE_2D_ARRAY,
            extent: [13, 7, 1],
            levels: 3,
            layers: 4,
            upload: place(1, 1, 2, [1, 1, 0], [4, 2, 1]),
            clear: (0, 2, 2),
            copies: [
                (place(0, 1, 2, [2, 1, 0], [5, 3, 1]), place(0, 0, 2, [7, 4, 0], [5, 3, 1])),
                (place(1, 3, 1, [2, 1, 0], [3, 1, 1]), place(2, 2, 1, [0, 0, 0], [3, 1, 1])),
            ],
            download: place(0, 1, 3, [3, 2, 0], [7, 4, 1]),
        },
        Shape {
            name: "3d",
            view: V::TYPE_3D,
            extent: [9, 6, 5],
            levels: 2,
            layers: 1,
            upload: place(0, 0, 1, [2, 1, 1], [5, 3, 3]),
            clear: (1, 0, 1),
            copies: [
                (place(0, 0, 1, [1, 2, 0], [4, 3, 2]), place(0, 0, 1, [5, 0, 3], [4, 3, 2])),
                (place(1, 0, 1, [1, 1, 0], [3, 2, 2]), place(0, 0, 1, [0, 3, 0], [3, 2, 2])),
            ],
            download: place(0, 0, 1, [1, 1, 1], [6, 4, 3]),
        },
        Shape {
            name: "1d_array",
            view: V::TYPE_1D_ARRAY,
            extent: [17, 1, 1],
            levels: 2,
            layers: 3,
            upload: place(1, 0, 2, [2, 0, 0], [5, 1, 1]),
            clear: (0, 1, 1),
            copies: [
                (place(0, 0, 3, [3, 0, 0], [9, 1, 1]), place(0, 0, 3, [8, 0, 0], [9, 1, 1])),
                (place(1, 2, 1, [0, 0, 0], [8, 1, 1]), place(0, 1, 1, [1, 0, 0], [8, 1, 1])),
            ],
            download: place(0, 0, 2, [4, 0, 0], [11, 1, 1]),
        },
    ]
}

/// The CPU model: `ImageDesc`'s packed layout (level, layer, slice, row, texel).
struct Model(ImageDesc);

impl Model {
    fn texel(&self) -> usize {
        softnavi_tests::image::texel_size(self.0.format).unwrap_or(0)
    }
    fn at(&self, level: u32, layer: u32, c: [u32; 3]) -> usize {
        self.0.offset(level, layer, c)
    }
    fn write(&mut self, level: u32, layer: u32, c: [u32; 3], bytes: &[u8]) {
        let o = self.at(level, layer, c);
        self.0.data[o..o + bytes.len()].copy_from_slice(bytes);
    }
    fn read(&self, level: u32, layer: u32, c: [u32; 3]) -> Vec<u8> {
        let o = self.at(level, layer, c);
        self.0.data[o..o + self.texel()].to_vec()
    }
    /// The bytes of a tight copy of every level and layer.
    fn regions(&self) -> Vec<(Layout, Place)> {
        let mut off = 0;
        (0..self.0.levels)
            .map(|m| {
                let r = (
                    Layout { offset: off as u64, row: 0, height: 0 },
                    place(m, 0, self.0.layers, [0; 3], self.0.level_extent(m)),
                );
                off += self.0.level_bytes(m);
                r
            })
            .collect()
    }
}

/// The clear colour's texel bytes in a uint format of `texel` bytes.
fn clear_bytes(color: [u32; 4], texel: usize) -> Vec<u8> {
    match texel {
        1 => vec![color[0] as u8],
        2 => (color[0] as u16).to_le_bytes().to_vec(),
        _ => color.iter().flat_map(|c| c.to_le_bytes()).take(texel).collect(),
    }
}

/// The padded layout of the partial upload and read-back regions.
fn padded(p: &Place, texel: usize) -> Layout {
    Layout { offset: 3 * texel as u64, row: p.extent[0] + 3, height: p.extent[1] + 2 }
}

/// Bytes a padded region spans.
fn span(l: &Layout, p: &Place, texel: usize) -> usize {
    l.address(p, texel, p.texels().len() - 1) + texel + 5 * texel
}

/// Runs one case: `Ok(Err(why))` on a mismatch.
fn run_case(ctx: &Context, format: vk::Format, s: &Shape) -> Res<Result<(), String>> {
    let desc = ImageDesc::new(format, s.view, s.extent, s.levels, s.layers);
    let texel = softnavi_tests::image::texel_size(format).unwrap_or(0);
    let n = desc.bytes();
    let mut a = Model(desc.clone().with(pattern(n, 1 + format.as_raw() as u32)));
    let mut b = Model(desc.clone().with(pattern(n, 2 + format.as_raw() as u32)));
    let (full_a, full_b) = (a.0.data.clone(), b.0.data.clone());
    let up_layout = padded(&s.upload, texel);
    let up_bytes = pattern(span(&up_layout, &s.upload, texel), 3);
    let down_layout = padded(&s.download, texel);
    let down_len = span(&down_layout, &s.download, texel);
    let (img_a, img_b) = (create_image(ctx, &desc)?, create_image(ctx, &desc)?);
    let (buf_a, buf_b, buf_up) =
        (host_buffer(ctx, "a", &full_a)?, host_buffer(ctx, "b", &full_b)?, host_buffer(ctx, "up", &up_bytes)?);
    let (out_a, out_b) = (host_buffer(ctx, "out a", &vec![0; n])?, host_buffer(ctx, "out b", &vec![0; n])?);
    let out_part = host_buffer(ctx, "out part", &vec![SENTINEL; down_len])?;
    let color = [0x5a, 0x1234, 0x8765_4321, 0xfeed_beef];
    let (ia, ib) = (img_a.image, img_b.image);
    use vk::ImageLayout as L;
    let (undef, dst_l, src_l) = (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL, L::TRANSFER_SRC_OPTIMAL);
    let whole: Vec<vk::BufferImageCopy> = a.regions().iter().map(|(l, p)| l.region1(p)).collect();
    let d = ctx.device();
    ctx.submit_and_wait(|cmd| {
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            barrier(ctx, cmd, &[(ia, undef, dst_l), (ib, undef, dst_l)]);
            d.cmd_copy_buffer_to_image(cmd, buf_a.handle(), ia, dst_l, &whole);
            d.cmd_copy_buffer_to_image(cmd, buf_b.handle(), ib, dst_l, &whole);
            barrier(ctx, cmd, &[(ia, dst_l, dst_l)]);
            let up = [up_layout.region(&s.upload)];
            let info = vk::CopyBufferToImageInfo2::default()
                .src_buffer(buf_up.handle())
                .dst_image(ia)
                .dst_image_layout(dst_l)
                .regions(&up);
            d.cmd_copy_buffer_to_image2(cmd, &info);
            barrier(ctx, cmd, &[(ia, dst_l, dst_l)]);
            let (level, layer, layers) = s.clear;
            let range = vk::ImageSubresourceRange {
                aspect_mask: vk::ImageAspectFlags::COLOR,
                base_mip_level: level,
                level_count: 1,
                base_array_layer: layer,
                layer_count: layers,
            };
            d.cmd_clear_color_image(cmd, ia, dst_l, &vk::ClearColorValue { uint32: color }, &[range]);
            barrier(ctx, cmd, &[(ia, dst_l, src_l), (ib, dst_l, dst_l)]);
            let (src, dst) = s.copies[0];
            let copy = vk::ImageCopy {
                src_subresource: src.sub(),
                src_offset: src.offset3(),
                dst_subresource: dst.sub(),
                dst_offset: dst.offset3(),
                extent: src.extent3(),
            };
            d.cmd_copy_image(cmd, ia, src_l, ib, dst_l, &[copy]);
            barrier(ctx, cmd, &[(ib, dst_l, dst_l)]);
            let (src, dst) = s.copies[1];
            let copy2 = [vk::ImageCopy2::default()
                .src_subresource(src.sub())
                .src_offset(src.offset3())
                .dst_subresource(dst.sub())
                .dst_offset(dst.offset3())
                .extent(src.extent3())];
            let info = vk::CopyImageInfo2::default()
                .src_image(ia)
                .src_image_layout(src_l)
                .dst_image(ib)
                .dst_image_layout(dst_l)
                .regions(&copy2);
            d.cmd_copy_image2(cmd, &info);
            barrier(ctx, cmd, &[(ib, dst_l, src_l)]);
            d.cmd_copy_image_to_buffer(cmd, ia, src_l, out_a.handle(), &whole);
            d.cmd_copy_image_to_buffer(cmd, ib, src_l, out_b.handle(), &whole);
            let down = [down_layout.region(&s.download)];
            let info = vk::CopyImageToBufferInfo2::default()
                .src_image(ia)
                .src_image_layout(src_l)
                .dst_buffer(out_part.handle())
                .regions(&down);
            d.cmd_copy_image_to_buffer2(cmd, &info);
            barrier(ctx, cmd, &[]);
        }
        Ok(())
    })?;
    // The CPU model of the same commands.
    for (k, (layer, c)) in s.upload.texels().into_iter().enumerate() {
        let o = up_layout.address(&s.upload, texel, k);
        a.write(s.upload.level, layer, c, &up_bytes[o..o + texel]);
    }
    let (level, layer, layers) = s.clear;
    let full = place(level, layer, layers, [0; 3], a.0.level_extent(level));
    for (l, c) in full.texels() {
        a.write(level, l, c, &clear_bytes(color, texel));
    }
    for (src, dst) in s.copies {
        for ((sl, sc), (dl, dc)) in src.texels().into_iter().zip(dst.texels()) {
            let t = a.read(src.level, sl, sc);
            b.write(dst.level, dl, dc, &t);
        }
    }
    let mut part = vec![SENTINEL; down_len];
    for (k, (l, c)) in s.download.texels().into_iter().enumerate() {
        let o = down_layout.address(&s.download, texel, k);
        part[o..o + texel].copy_from_slice(&a.read(s.download.level, l, c));
    }
    for (what, got, want) in [
        ("image A", out_a.read::<u8>(n)?, &a.0.data),
        ("image B", out_b.read::<u8>(n)?, &b.0.data),
        ("the partial read-back", out_part.read::<u8>(down_len)?, &part),
    ] {
        if let Some(i) = (0..want.len()).find(|&i| got[i] != want[i]) {
            return Ok(Err(format!("{what}: byte {i} is {:#04x}, expected {:#04x}", got[i], want[i])));
        }
    }
    Ok(Ok(()))
}

/// Records `command` alone and returns what vkEndCommandBuffer says; then checks that a
/// copy still runs.
fn refused(ctx: &Context, name: &str, command: impl FnOnce(vk::CommandBuffer)) -> Res<Result<(), String>> {
    let r = ctx.submit_and_wait(|cmd| {
        command(cmd);
        Ok(())
    });
    match r {
        Err(Error::Vulkan { call: "vkEndCommandBuffer", result: vk::Result::ERROR_FEATURE_NOT_PRESENT }) => {}
        other => return Ok(Err(format!("{name}: vkEndCommandBuffer gave {other:?}, not ERROR_FEATURE_NOT_PRESENT"))),
    }
    // The device still works: a buffer copy.
    let src = host_buffer(ctx, "src", &[1, 2, 3, 4])?;
    let dst = host_buffer(ctx, "dst", &[0; 4])?;
    ctx.submit_and_wait(|cmd| {
        // SAFETY: recording; both buffers live until the submission completes.
        unsafe { ctx.device().cmd_copy_buffer(cmd, src.handle(), dst.handle(), &[vk::BufferCopy::default().size(4)]) };
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    Ok(if dst.read::<u8>(4)? == [1, 2, 3, 4] { Ok(()) } else { Err(format!("{name}: a copy after it failed")) })
}

/// The refused commands (their arguments are never looked at: the commands fail first).
fn refusals(ctx: &Context, report: &mut Report) -> Res<()> {
    let desc = ImageDesc::new(vk::Format::R8G8B8A8_UNORM, vk::ImageViewType::TYPE_2D, [4, 4, 1], 1, 1);
    let (src, dst) = (create_image(ctx, &desc)?, create_image(ctx, &desc)?);
    let (s, t, l) = (src.image, dst.image, vk::ImageLayout::GENERAL);
    let d = ctx.device();
    let sub = Place { level: 0, layer: 0, layers: 1, offset: [0; 3], extent: [4, 4, 1] }.sub();
    let resolve = vk::ImageResolve {
        src_subresource: sub,
        src_offset: vk::Offset3D::default(),
        dst_subresource: sub,
        dst_offset: vk::Offset3D::default(),
        extent: vk::Extent3D { width: 4, height: 4, depth: 1 },
    };
    let resolve2 = [vk::ImageResolve2::default().src_subresource(sub).dst_subresource(sub).extent(resolve.extent)];
    // SAFETY (each command): recording into a fresh command buffer; invalid on purpose (see
    // the module doc: single-sampled images), and softnavi refuses each by name.
    let resolve1 = |c| unsafe { d.cmd_resolve_image(c, s, l, t, l, &[resolve]) };
    report.case("refused vkCmdResolveImage", refused(ctx, "vkCmdResolveImage", resolve1));
    let info = vk::ResolveImageInfo2::default().src_image(s).src_image_layout(l).dst_image(t).dst_image_layout(l);
    let info = info.regions(&resolve2);
    // SAFETY: as above.
    let resolve2 = |c| unsafe { d.cmd_resolve_image2(c, &info) };
    report.case("refused vkCmdResolveImage2", refused(ctx, "vkCmdResolveImage2", resolve2));
    Ok(())
}

fn main() -> ExitCode {
    let refuse = std::env::args().any(|a| a == "--refused");
    let general = std::env::args().any(|a| a == "--general-queue");
    let ctx = match app::context("softnavi-transfer", !general) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut report = Report::default();
    // SAFETY: a plain query.
    let families = unsafe { ctx.instance().get_physical_device_queue_family_properties(ctx.physical_device()) };
    let graphics = families[ctx.queue_family_index() as usize].queue_flags.contains(vk::QueueFlags::GRAPHICS);
    if refuse {
        if graphics {
            println!("SKIP refusals: the queue has GRAPHICS, where these commands are valid");
        } else if let Err(e) = refusals(&ctx, &mut report) {
            report.case("refusals", Err(e));
        }
    } else {
        for format in FORMATS {
            for s in shapes() {
                report.case(&format!("{} {format:?}", s.name), run_case(&ctx, format, &s));
            }
        }
    }
    report.finish(&ctx)
}
