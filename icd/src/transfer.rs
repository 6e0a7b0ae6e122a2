//! Image transfer commands: `vkCmdCopyBufferToImage`, `vkCmdCopyImageToBuffer`,
//! `vkCmdCopyImage` and their `*2` forms, recorded as the command processor's DMA
//! (PM4 DMA_DATA, one packet per texel row), as RADV's CP-DMA paths do, never as a host
//! copy beside the command stream. Images are linear (image.rs), so a row of a region is
//! one contiguous range in both places.
//!
//! A region of a D32_SFLOAT_S8_UINT image copies the plane of its aspect (image.rs,
//! `Image::plane`), in that aspect's buffer layout (4-byte depth, 1-byte stencil). A region
//! outside its image, an unbound image or images of different texel sizes fail the command
//! buffer with a log line naming the command.
//!
//! Multisampled images (swizzled, image.rs): `vkCmdCopyImage` between two of the same sample
//! count and layout copies whole layers of equal index (the pattern XORs the layer index into
//! a layer's bytes) with one DMA range each, and other regions sample by
//! sample, each sample's element where `gpu::rsrc::ImageResource::sample_offset` puts it on
//! both sides (runs that are contiguous on both sides merged); `vkCmdClearColorImage` fills
//! every layer of the range, which is nothing but its texels' samples, by WRITE_DATA and CP DMA.
//! Buffer copies of multisampled images are invalid in Vulkan and refused by name.

use ash::vk;

use crate::cmd::dma_copy;
use crate::handle::{guard, slice};
use crate::image::{block_dim, image, texel_size, Image};
use crate::memory::buffer;

/// One copy's subresource and box.
struct Place {
    level: u32,
    layer: u32,
    layers: u32,
    offset: vk::Offset3D,
}

/// Texel bytes of an image whose rows can be copied, or why not.
fn copyable(img: &Image) -> Result<u64, String> {
    if crate::image::COMBINED_DEPTH_STENCIL.contains(&img.format) {
        return Err(format!("copies of the combined depth/stencil format {:?} are not implemented", img.format));
    }
    if img.bound.is_none() {
        return Err("the image is not bound to memory".into());
    }
    texel_size(img.format).ok_or_else(|| format!("format {:?} cannot be copied", img.format))
}

/// `extent` (texels) in the elements rows are made of: BCn blocks (rounded up: a region
/// may end at the edge in a partial block), else texels.
fn elements(img: &Image, extent: vk::Extent3D) -> vk::Extent3D {
    let b = block_dim(img.format);
    vk::Extent3D { width: extent.width.div_ceil(b), height: extent.height.div_ceil(b), ..extent }
}

/// Checks that `extent` (texels) at `p` lies in the image; returns the GPU address of
/// element (x, y) of slice `z` of layer `l` (relative to the place; BCn images count in
/// blocks, see [`elements`]) as a closure.
fn rows<'a>(img: &'a Image, p: &Place, extent: vk::Extent3D) -> Result<impl Fn(u32, u32, u32) -> u64 + 'a, String> {
    let texel = copyable(img)?;
    let l = *img.levels.get(p.level as usize).ok_or_else(|| format!("mip level {} of {}", p.level, img.mip_levels))?;
    let b = block_dim(img.format);
    if p.offset.x % b as i32 != 0 || p.offset.y % b as i32 != 0 {
        return Err(format!("offset {:?} is not a multiple of the {b}x{b} blocks of {:?}", p.offset, img.format));
    }
    let dim = |full: u32, blocks: u32| ((full >> p.level).max(1).div_ceil(blocks)) as i64;
    let (w, h, d) = (dim(img.extent.width, b), dim(img.extent.height, b), dim(img.extent.depth, 1));
    let extent = elements(img, extent);
    let (bi, o) = (b as i32, p.offset);
    let o = vk::Offset3D { x: o.x / bi, y: o.y / bi, z: o.z };
    let fits = |at: i32, n: u32, max: i64| at >= 0 && at as i64 + n as i64 <= max;
    let layers_ok = p.layer as u64 + p.layers as u64 <= img.array_layers as u64;
    if !(fits(o.x, extent.width, w) && fits(o.y, extent.height, h) && fits(o.z, extent.depth, d) && layers_ok) {
        return Err(format!(
            "region {extent:?} at {o:?}, layers {}+{}, outside level {} ({w}x{h}x{d}, {} layers)",
            p.layer, p.layers, p.level, img.array_layers
        ));
    }
    let base = img.bound.as_ref().map_or(0, |(_, va)| *va) + l.offset;
    let (layer0, o) = (p.layer as u64, o);
    Ok(move |layer: u32, z: u32, y: u32| {
        base + (layer0 + layer as u64) * l.layer_pitch
            + (o.z as u64 + z as u64) * l.depth_pitch
            + (o.y as u64 + y as u64) * l.row_pitch
            + o.x as u64 * texel
    })
}

fn place(s: &vk::ImageSubresourceLayers, offset: vk::Offset3D) -> Place {
    Place { level: s.mip_level, layer: s.base_array_layer, layers: s.layer_count, offset }
}

/// One buffer <-> image region, row by row.
fn buffer_image(
    c: vk::CommandBuffer,
    what: &str,
    buf: vk::Buffer,
    img: vk::Image,
    r: &vk::BufferImageCopy,
    to_image: bool,
) -> Result<(), String> {
    // SAFETY: live handles per the specification.
    let (b, i) = unsafe { (buffer(buf), image(img)) };
    let (Some(b), Some(i)) = (b, i) else { return Err("a null buffer or image".into()) };
    // One aspect's plane: a D32S8 region copies its depth as D32_SFLOAT or stencil as S8.
    let (i, _) = i.plane(r.image_subresource.aspect_mask)?;
    let i = &*i;
    let at = rows(i, &place(&r.image_subresource, r.image_offset), r.image_extent)?;
    let texel = copyable(i)?;
    // Rows of texels, or of BCn blocks (the buffer holds whole blocks too).
    let e = elements(i, r.image_extent);
    let full = |given: u32, own: u32| if given == 0 { own } else { given.div_ceil(block_dim(i.format)) } as u64;
    let (row_len, img_h) = (full(r.buffer_row_length, e.width), full(r.buffer_image_height, e.height));
    let row_bytes = e.width as u64 * texel;
    for layer in 0..r.image_subresource.layer_count {
        for z in 0..e.depth {
            for y in 0..e.height {
                let slice = layer as u64 * e.depth as u64 + z as u64;
                let bva = b.va(r.buffer_offset + ((slice * img_h + y as u64) * row_len) * texel);
                let iva = at(layer, z, y);
                let (dst, src) = if to_image { (iva, bva) } else { (bva, iva) };
                dma_copy(c, what, dst, src, row_bytes);
            }
        }
    }
    Ok(())
}

/// One image -> image region, row by row. A 2D image's layers and a 3D image's depth
/// slices pair up one to one (Vulkan's 2D <-> 3D copies: the 2D side's layer count is the
/// 3D side's extent depth).
fn image_image(c: vk::CommandBuffer, src: vk::Image, dst: vk::Image, r: &vk::ImageCopy) -> Result<(), String> {
    let both = vk::ImageAspectFlags::DEPTH | vk::ImageAspectFlags::STENCIL;
    if r.src_subresource.aspect_mask == both && r.dst_subresource.aspect_mask == both {
        // Both aspects of depth/stencil images: plane by plane.
        for aspect in [vk::ImageAspectFlags::DEPTH, vk::ImageAspectFlags::STENCIL] {
            let sub = |s: vk::ImageSubresourceLayers| vk::ImageSubresourceLayers { aspect_mask: aspect, ..s };
            let one = vk::ImageCopy {
                src_subresource: sub(r.src_subresource),
                dst_subresource: sub(r.dst_subresource),
                ..*r
            };
            image_image(c, src, dst, &one)?;
        }
        return Ok(());
    }
    // SAFETY: live handles per the specification.
    let (s, d) = unsafe { (image(src), image(dst)) };
    let (Some(s), Some(d)) = (s, d) else { return Err("a null image".into()) };
    let ((s, _), (d, _)) = (s.plane(r.src_subresource.aspect_mask)?, d.plane(r.dst_subresource.aspect_mask)?);
    let (s, d) = (&*s, &*d);
    let (ts, td) = (copyable(s)?, copyable(d)?);
    if ts != td {
        return Err(format!("texel sizes differ: {:?} ({ts} bytes) to {:?} ({td} bytes)", s.format, d.format));
    }
    if s.is_msaa() || d.is_msaa() {
        return msaa_copy(c, s, d, r, ts);
    }
    let e = r.extent;
    let three_d = |i: &Image| i.image_type == vk::ImageType::TYPE_3D;
    let n = if three_d(s) { e.depth } else { r.src_subresource.layer_count };
    // Between a BCn format and an uncompressed one of the block's size (or another BCn
    // format), the extent is the source's texels; the destination's covers the same
    // elements.
    let blocks = elements(s, e);
    let bd = block_dim(d.format);
    let e_dst = vk::Extent3D { width: blocks.width * bd, height: blocks.height * bd, ..e };
    // Each side's place and extent, its slices as layers (2D) or depth (3D).
    let side = |i: &Image, sub: &vk::ImageSubresourceLayers, off: vk::Offset3D, e: vk::Extent3D| {
        let p = Place { layers: if three_d(i) { 1 } else { n }, ..place(sub, off) };
        (p, vk::Extent3D { depth: if three_d(i) { n } else { 1 }, ..e })
    };
    let (ps, es) = side(s, &r.src_subresource, r.src_offset, e);
    let (pd, ed) = side(d, &r.dst_subresource, r.dst_offset, e_dst);
    let (from, to) = (rows(s, &ps, es)?, rows(d, &pd, ed)?);
    let at = |i: &Image, k: u32| if three_d(i) { (0, k) } else { (k, 0) };
    for k in 0..n {
        let ((sl, sz), (dl, dz)) = (at(s, k), at(d, k));
        for y in 0..blocks.height {
            dma_copy(c, "vkCmdCopyImage", to(dl, dz, y), from(sl, sz, y), blocks.width as u64 * ts);
        }
    }
    Ok(())
}

/// The GPU address of the image's memory.
fn va(i: &Image) -> u64 {
    i.bound.as_ref().map_or(0, |(_, va)| *va)
}

/// One region of `vkCmdCopyImage` between multisampled images of one sample count: whole
/// layers of equal layouts as one range each, else sample by sample (see the module's notes).
fn msaa_copy(c: vk::CommandBuffer, s: &Image, d: &Image, r: &vk::ImageCopy, texel: u64) -> Result<(), String> {
    if s.samples != d.samples {
        return Err(format!("sample counts differ: {:?} to {:?}", s.samples, d.samples));
    }
    let (ss, ds) = (&r.src_subresource, &r.dst_subresource);
    let e = r.extent;
    let n = ss.layer_count;
    let inside = |i: &Image, sub: &vk::ImageSubresourceLayers, o: vk::Offset3D| {
        let fits = |at: i32, len: u32, max: u32| at >= 0 && at as u64 + len as u64 <= max as u64;
        sub.mip_level == 0
            && fits(o.x, e.width, i.extent.width)
            && fits(o.y, e.height, i.extent.height)
            && o.z == 0
            && e.depth == 1
            && sub.base_array_layer as u64 + n as u64 <= i.array_layers as u64
    };
    if !inside(s, ss, r.src_offset) || !inside(d, ds, r.dst_offset) {
        return Err(format!("region {e:?}, {n} layers, outside a multisampled image"));
    }
    let (sl, dl) = (s.levels[0].layer_pitch, d.levels[0].layer_pitch);
    let whole =
        |i: &Image, o: vk::Offset3D| o.x == 0 && o.y == 0 && e.width == i.extent.width && e.height == i.extent.height;
    // The pattern XORs layer bits into a layer's bytes: only a layer of the same index and
    // layout holds the same bytes.
    let same = s.sw_mode == d.sw_mode && sl == dl && s.extent == d.extent && ss.base_array_layer == ds.base_array_layer;
    if same && whole(s, r.src_offset) && whole(d, r.dst_offset) {
        let (from, to) = (va(s) + sl * ss.base_array_layer as u64, va(d) + dl * ds.base_array_layer as u64);
        dma_copy(c, "vkCmdCopyImage", to, from, sl * n as u64);
        return Ok(());
    }
    let (ts, td) = (s.msaa_resource(va(s)), d.msaa_resource(va(d)));
    if let Some(why) = ts.layout_unsupported(texel as u32).or_else(|| td.layout_unsupported(texel as u32)) {
        return Err(why);
    }
    let samples = s.samples.as_raw();
    let at = |t: &gpu::rsrc::ImageResource, x: u32, y: u32, l: u32, k: u32| {
        t.sample_offset(texel as u32, x, y, l, 0, k).map(|o| t.base + o).ok_or("no MSAA layout for the image")
    };
    // Runs contiguous on both sides become one packet.
    let mut run: Option<(u64, u64, u64)> = None;
    for l in 0..n {
        for y in 0..e.height {
            for x in 0..e.width {
                for k in 0..samples {
                    let (sx, sy) = (r.src_offset.x as u32 + x, r.src_offset.y as u32 + y);
                    let (dx, dy) = (r.dst_offset.x as u32 + x, r.dst_offset.y as u32 + y);
                    let from = at(&ts, sx, sy, ss.base_array_layer + l, k)?;
                    let to = at(&td, dx, dy, ds.base_array_layer + l, k)?;
                    run = match run {
                        Some((f, t, len)) if f + len == from && t + len == to => Some((f, t, len + texel)),
                        Some((f, t, len)) => {
                            dma_copy(c, "vkCmdCopyImage", t, f, len);
                            Some((from, to, texel))
                        }
                        None => Some((from, to, texel)),
                    };
                }
            }
        }
    }
    if let Some((f, t, len)) = run {
        dma_copy(c, "vkCmdCopyImage", t, f, len);
    }
    Ok(())
}

/// Clears layers `layers` of a multisampled image: the first 16 KiB of each (or all of it)
/// by WRITE_DATA of the repeated texel, then CP DMA copies of that piece over the rest.
fn clear_msaa(c: vk::CommandBuffer, i: &Image, texel: &[u8], layers: std::ops::Range<u32>) -> Result<(), String> {
    const PIECE: u64 = 16384;
    let pitch = i.levels[0].layer_pitch;
    let piece = PIECE.min(pitch);
    // Texels are a power of two up to 16 bytes: they tile the piece exactly.
    let bytes = repeat(texel, piece as usize);
    let words: Vec<u32> = bytes.chunks(4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes"))).collect();
    for l in layers {
        let first = va(i) + pitch * l as u64;
        crate::cmd::write_data(c, "vkCmdClearColorImage", first, &words);
        for at in (piece..pitch).step_by(piece as usize) {
            dma_copy(c, "vkCmdClearColorImage", first + at, first, piece.min(pitch - at));
        }
    }
    Ok(())
}

fn report(c: vk::CommandBuffer, what: &str, r: Result<(), String>) {
    if let Err(msg) = r {
        crate::cmd::fail(c, what, vk::Result::ERROR_FEATURE_NOT_PRESENT, msg);
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_buffer_to_image(
    c: vk::CommandBuffer,
    src: vk::Buffer,
    dst: vk::Image,
    _layout: vk::ImageLayout,
    n: u32,
    regions: *const vk::BufferImageCopy,
) {
    guard("vkCmdCopyBufferToImage", (), || {
        // SAFETY: valid per the specification.
        for r in unsafe { slice(regions, n) } {
            report(c, "vkCmdCopyBufferToImage", buffer_image(c, "vkCmdCopyBufferToImage", src, dst, r, true));
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_image_to_buffer(
    c: vk::CommandBuffer,
    src: vk::Image,
    _layout: vk::ImageLayout,
    dst: vk::Buffer,
    n: u32,
    regions: *const vk::BufferImageCopy,
) {
    guard("vkCmdCopyImageToBuffer", (), || {
        // SAFETY: valid per the specification.
        for r in unsafe { slice(regions, n) } {
            report(c, "vkCmdCopyImageToBuffer", buffer_image(c, "vkCmdCopyImageToBuffer", dst, src, r, false));
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_image(
    c: vk::CommandBuffer,
    src: vk::Image,
    _src_layout: vk::ImageLayout,
    dst: vk::Image,
    _dst_layout: vk::ImageLayout,
    n: u32,
    regions: *const vk::ImageCopy,
) {
    guard("vkCmdCopyImage", (), || {
        // SAFETY: valid per the specification.
        for r in unsafe { slice(regions, n) } {
            report(c, "vkCmdCopyImage", image_image(c, src, dst, r));
        }
    })
}

/// The 1.0 region of a `VkBufferImageCopy2` (its chain holds nothing softnavi reads).
fn region1(r: &vk::BufferImageCopy2<'_>) -> vk::BufferImageCopy {
    vk::BufferImageCopy {
        buffer_offset: r.buffer_offset,
        buffer_row_length: r.buffer_row_length,
        buffer_image_height: r.buffer_image_height,
        image_subresource: r.image_subresource,
        image_offset: r.image_offset,
        image_extent: r.image_extent,
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_buffer_to_image2(
    c: vk::CommandBuffer,
    info: *const vk::CopyBufferToImageInfo2<'_>,
) {
    guard("vkCmdCopyBufferToImage2", (), || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: as above.
        for r in unsafe { slice(i.p_regions, i.region_count) } {
            let r = region1(r);
            report(
                c,
                "vkCmdCopyBufferToImage2",
                buffer_image(c, "vkCmdCopyBufferToImage2", i.src_buffer, i.dst_image, &r, true),
            );
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_image_to_buffer2(
    c: vk::CommandBuffer,
    info: *const vk::CopyImageToBufferInfo2<'_>,
) {
    guard("vkCmdCopyImageToBuffer2", (), || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: as above.
        for r in unsafe { slice(i.p_regions, i.region_count) } {
            let r = region1(r);
            report(
                c,
                "vkCmdCopyImageToBuffer2",
                buffer_image(c, "vkCmdCopyImageToBuffer2", i.dst_buffer, i.src_image, &r, false),
            );
        }
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_copy_image2(c: vk::CommandBuffer, info: *const vk::CopyImageInfo2<'_>) {
    guard("vkCmdCopyImage2", (), || {
        // SAFETY: valid per the specification.
        let i = unsafe { &*info };
        // SAFETY: as above.
        for r in unsafe { slice(i.p_regions, i.region_count) } {
            let r = vk::ImageCopy {
                src_subresource: r.src_subresource,
                src_offset: r.src_offset,
                dst_subresource: r.dst_subresource,
                dst_offset: r.dst_offset,
                extent: r.extent,
            };
            report(c, "vkCmdCopyImage2", image_image(c, i.src_image, i.dst_image, &r));
        }
    })
}

/// The levels or layers `[base, base + count)` of a range, `VK_REMAINING_*` resolved.
fn span(base: u32, count: u32, total: u32) -> std::ops::Range<u32> {
    let end = if count == vk::REMAINING_MIP_LEVELS { total } else { base.saturating_add(count).min(total) };
    base..end
}

/// Clears one subresource range: each level's first row is written by the CP
/// (WRITE_DATA, the packed colour repeated), then copied by CP DMA to every other row of
/// the range.
fn clear_range(c: vk::CommandBuffer, i: &Image, texel: &[u8], r: &vk::ImageSubresourceRange) -> Result<(), String> {
    let t = texel.len() as u64;
    if i.is_msaa() {
        if i.bound.is_none() {
            return Err("the image is not bound to memory".into());
        }
        if !span(r.base_mip_level, r.level_count, i.mip_levels).contains(&0) {
            return Ok(());
        }
        return clear_msaa(c, i, texel, span(r.base_array_layer, r.layer_count, i.array_layers));
    }
    for level in span(r.base_mip_level, r.level_count, i.mip_levels) {
        let layers = span(r.base_array_layer, r.layer_count, i.array_layers);
        let p = Place { level, layer: layers.start, layers: layers.len() as u32, offset: vk::Offset3D::default() };
        let dim = |full: u32| (full >> level).max(1);
        let e = vk::Extent3D { width: dim(i.extent.width), height: dim(i.extent.height), depth: dim(i.extent.depth) };
        let at = rows(i, &p, e)?;
        // The row, padded to whole dwords (the padding lands in the row's pitch padding).
        let mut row = repeat(texel, (e.width as u64 * t) as usize);
        row.resize(row.len().next_multiple_of(4), 0);
        let words: Vec<u32> = row.chunks(4).map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes"))).collect();
        let first = at(0, 0, 0);
        for (k, piece) in words.chunks(4096).enumerate() {
            crate::cmd::write_data(c, "vkCmdClearColorImage", first + 16384 * k as u64, piece);
        }
        for layer in 0..p.layers {
            for z in 0..e.depth {
                for y in 0..e.height {
                    if (layer, z, y) != (0, 0, 0) {
                        dma_copy(c, "vkCmdClearColorImage", at(layer, z, y), first, e.width as u64 * t);
                    }
                }
            }
        }
    }
    Ok(())
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_clear_color_image(
    c: vk::CommandBuffer,
    img: vk::Image,
    _layout: vk::ImageLayout,
    color: *const vk::ClearColorValue,
    n: u32,
    ranges: *const vk::ImageSubresourceRange,
) {
    guard("vkCmdClearColorImage", (), || {
        // SAFETY: a live handle and valid pointers per the specification.
        let (i, color) = unsafe { (image(img), &*color) };
        let Some(i) = i else { return };
        let Some(texel) = crate::texel::pack(i.format, color) else {
            return report(c, "vkCmdClearColorImage", Err(format!("format {:?} cannot be cleared", i.format)));
        };
        // SAFETY: valid per the specification.
        for r in unsafe { slice(ranges, n) } {
            report(c, "vkCmdClearColorImage", clear_range(c, i, &texel, r));
        }
    })
}

/// Clears `aspects` of `rect` in layers `layers` (relative to the view's first layer) of
/// image view `v`'s level with `value` (colour, or depth and stencil): a render pass's CLEAR
/// load operations over its render area and vkCmdClearAttachments (graphics.rs).
pub fn clear_view_rect(
    c: vk::CommandBuffer,
    v: vk::ImageView,
    value: &vk::ClearValue,
    aspects: vk::ImageAspectFlags,
    rect: vk::Rect2D,
    layers: std::ops::Range<u32>,
) -> Result<(), String> {
    use vk::ImageAspectFlags as A;
    // SAFETY: a live view handle per the specification.
    let view =
        unsafe { <crate::image::ImageView as crate::handle::Object>::from_handle(v) }.ok_or("a null image view")?;
    // SAFETY: the view's image outlives it, per the specification.
    let i = unsafe { image(view.image) }.ok_or("a view of a null image")?;
    let (level, base) = (view.range.base_mip_level, view.range.base_array_layer);
    let layers = base + layers.start..base + layers.end;
    if !crate::image::is_depth_stencil(view.format) {
        // SAFETY: the union member a colour attachment's clear uses, per the specification.
        let texel = crate::texel::pack(view.format, unsafe { &value.color });
        let texel = texel.ok_or_else(|| format!("format {:?} cannot be cleared", view.format))?;
        return clear_rect(c, i, &texel, level, layers, rect);
    }
    // SAFETY: as above, for depth/stencil attachments.
    let ds = unsafe { value.depth_stencil };
    // The aspects asked that the format has (others are no attachment of it).
    let asked = aspects & crate::image::aspects(view.format);
    for aspect in [A::DEPTH, A::STENCIL].into_iter().filter(|&a| asked.contains(a)) {
        let (plane, _) = i.plane(aspect)?;
        let texel =
            ds_texel(plane.format, &ds).ok_or_else(|| format!("format {:?} cannot be cleared", plane.format))?;
        clear_rect(c, &plane, &texel, level, layers.clone(), rect)?;
    }
    Ok(())
}

/// Clears `rect` (clipped to the level) of `level`, layers `layers` (depth slices of a 3D
/// image) of `i` to `texel`: one row of it uploaded with the command buffer, CP DMA copies
/// of the row to each row of the rectangle; for a multisampled image the whole layers
/// ([`clear_msaa`]) or the runs of contiguous bytes the rectangle's samples make.
fn clear_rect(
    c: vk::CommandBuffer,
    i: &Image,
    texel: &[u8],
    level: u32,
    layers: std::ops::Range<u32>,
    rect: vk::Rect2D,
) -> Result<(), String> {
    const WHAT: &str = "vkCmdClearAttachments";
    let dim = |full: u32| (full >> level).max(1);
    let (w, h) = (dim(i.extent.width), dim(i.extent.height));
    let clip = |at: i32, n: u32, max: u32| {
        let lo = at.clamp(0, max as i32) as u32;
        (lo, (at as i64 + n as i64).clamp(0, max as i64) as u32 - lo)
    };
    let ((x, rw), (y, rh)) = (clip(rect.offset.x, rect.extent.width, w), clip(rect.offset.y, rect.extent.height, h));
    if rw == 0 || rh == 0 || layers.is_empty() {
        return Ok(());
    }
    if i.is_msaa() {
        if (x, y, rw, rh) == (0, 0, w, h) {
            return clear_msaa(c, i, texel, layers);
        }
        return clear_msaa_rect(c, i, texel, layers, [x, y, rw, rh]);
    }
    let three_d = i.image_type == vk::ImageType::TYPE_3D;
    let n = layers.len() as u32;
    let (first, z) = if three_d { (0, layers.start as i32) } else { (layers.start, 0) };
    let p = Place {
        level,
        layer: first,
        layers: if three_d { 1 } else { n },
        offset: vk::Offset3D { x: x as i32, y: y as i32, z },
    };
    let at = rows(i, &p, vk::Extent3D { width: rw, height: rh, depth: if three_d { n } else { 1 } })?;
    let row = repeat(texel, rw as usize * texel.len());
    let src = crate::cmd::upload(c, &row)?;
    for layer in 0..p.layers {
        for z in 0..if three_d { n } else { 1 } {
            for y in 0..rh {
                dma_copy(c, WHAT, at(layer, z, y), src, row.len() as u64);
            }
        }
    }
    Ok(())
}

/// [`clear_rect`] of part of a multisampled image: the rectangle's samples' bytes, sorted
/// into runs of contiguous bytes, each a CP DMA copy from an uploaded run of the texel.
fn clear_msaa_rect(
    c: vk::CommandBuffer,
    i: &Image,
    texel: &[u8],
    layers: std::ops::Range<u32>,
    [x, y, w, h]: [u32; 4],
) -> Result<(), String> {
    const RUN: u64 = 65536;
    let t = texel.len() as u64;
    let r = i.msaa_resource(va(i));
    if let Some(why) = r.layout_unsupported(t as u32) {
        return Err(why);
    }
    if layers.end > i.array_layers {
        return Err(format!("layers {layers:?} of an image of {} layers", i.array_layers));
    }
    let samples = i.samples.as_raw();
    let mut at: Vec<u64> = Vec::with_capacity((w * h * samples * layers.len() as u32) as usize);
    for l in layers {
        for (px, py) in (y..y + h).flat_map(|py| (x..x + w).map(move |px| (px, py))) {
            for k in 0..samples {
                at.push(r.sample_offset(t as u32, px, py, l, 0, k).ok_or("no MSAA layout for the image")?);
            }
        }
    }
    at.sort_unstable();
    let pattern = repeat(texel, RUN.min(at.len() as u64 * t) as usize);
    let src = crate::cmd::upload(c, &pattern)?;
    let mut run: Option<(u64, u64)> = None;
    for o in at {
        run = match run {
            Some((s, len)) if s + len == o && len + t <= pattern.len() as u64 => Some((s, len + t)),
            Some((s, len)) => {
                dma_copy(c, "vkCmdClearAttachments", r.base + s, src, len);
                Some((o, t))
            }
            None => Some((o, t)),
        };
    }
    if let Some((s, len)) = run {
        dma_copy(c, "vkCmdClearAttachments", r.base + s, src, len);
    }
    Ok(())
}

/// Clears the aspects `r` names of a depth and/or stencil image: each plane's texels take
/// the depth or the stencil value.
fn clear_depth_stencil(
    c: vk::CommandBuffer,
    i: &Image,
    value: &vk::ClearDepthStencilValue,
    r: &vk::ImageSubresourceRange,
) -> Result<(), String> {
    use vk::ImageAspectFlags as A;
    let has = crate::image::aspects(i.format);
    if r.aspect_mask.is_empty() || !has.contains(r.aspect_mask) || has == A::COLOR {
        return Err(format!("aspects {:?} of {:?}, which has {has:?}", r.aspect_mask, i.format));
    }
    for aspect in [A::DEPTH, A::STENCIL].into_iter().filter(|&a| r.aspect_mask.contains(a)) {
        let (plane, _) = i.plane(aspect)?;
        let texel = ds_texel(plane.format, value)
            .ok_or_else(|| format!("format {:?} is not a depth or stencil format", i.format))?;
        clear_range(c, &plane, &texel, r)?;
    }
    Ok(())
}

/// The texel a depth/stencil clear `value` gives one plane of format `f`: the stencil
/// byte for S8_UINT, the depth in a depth format.
fn ds_texel(f: vk::Format, value: &vk::ClearDepthStencilValue) -> Option<Vec<u8>> {
    if f == vk::Format::S8_UINT {
        Some(vec![value.stencil as u8])
    } else {
        depth_texel(f, value.depth)
    }
}

/// `texel` repeated over `bytes` bytes (the last copy cut short where they do not divide).
fn repeat(texel: &[u8], bytes: usize) -> Vec<u8> {
    texel.iter().copied().cycle().take(bytes).collect()
}

/// The texel of depth `d` in depth format `f` (the UNORM ones round, D32_SFLOAT keeps it).
fn depth_texel(f: vk::Format, d: f32) -> Option<Vec<u8>> {
    match f {
        vk::Format::D32_SFLOAT => Some(d.to_le_bytes().to_vec()),
        vk::Format::D16_UNORM => Some((((d.clamp(0.0, 1.0) * 65535.0).round()) as u16).to_le_bytes().to_vec()),
        // 24-bit UNORM depth in the low bits, the X8 byte 0.
        vk::Format::X8_D24_UNORM_PACK32 => {
            Some((((d.clamp(0.0, 1.0) as f64 * 16_777_215.0).round()) as u32).to_le_bytes().to_vec())
        }
        _ => None,
    }
}

/// `vkCmdClearDepthStencilImage` of the depth formats, S8_UINT and D32_SFLOAT_S8_UINT (each
/// aspect of the range in its plane): every texel of the ranges takes the depth (or
/// stencil), through the CP as colour clears are (a multisampled image's samples are all
/// its bytes: its Z order needs no care). Recorded on the compute family, as blits are
/// (Vulkan puts it on graphics queues).
///
/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn cmd_clear_depth_stencil_image(
    c: vk::CommandBuffer,
    img: vk::Image,
    _layout: vk::ImageLayout,
    value: *const vk::ClearDepthStencilValue,
    n: u32,
    ranges: *const vk::ImageSubresourceRange,
) {
    const WHAT: &str = "vkCmdClearDepthStencilImage";
    guard(WHAT, (), || {
        // SAFETY: a live handle and valid pointers per the specification.
        let (i, value) = unsafe { (image(img), &*value) };
        let Some(i) = i else { return };
        // SAFETY: valid per the specification.
        for r in unsafe { slice(ranges, n) } {
            report(c, WHAT, clear_depth_stencil(c, i, value, r));
        }
    })
}

const _: vk::PFN_vkCmdClearDepthStencilImage = cmd_clear_depth_stencil_image;

const _: vk::PFN_vkCmdClearColorImage = cmd_clear_color_image;
const _: vk::PFN_vkCmdCopyBufferToImage = cmd_copy_buffer_to_image;
const _: vk::PFN_vkCmdCopyImageToBuffer = cmd_copy_image_to_buffer;
const _: vk::PFN_vkCmdCopyImage = cmd_copy_image;
const _: vk::PFN_vkCmdCopyBufferToImage2 = cmd_copy_buffer_to_image2;
const _: vk::PFN_vkCmdCopyImageToBuffer2 = cmd_copy_image_to_buffer2;
const _: vk::PFN_vkCmdCopyImage2 = cmd_copy_image2;

#[cfg(test)]
mod tests {
    use super::*;

    /// Vulkan spec, "Conversion from Floating-Point to Normalized Fixed-Point" (round to
    /// nearest, clamp to [0, 1]) for the UNORM depth formats; D32_SFLOAT keeps the float.
    #[test]
    fn depth_clear_texels() {
        assert_eq!(depth_texel(vk::Format::D16_UNORM, 0.5), Some(32768u16.to_le_bytes().to_vec()));
        assert_eq!(depth_texel(vk::Format::X8_D24_UNORM_PACK32, 0.5), Some(0x0080_0000u32.to_le_bytes().to_vec()));
        assert_eq!(depth_texel(vk::Format::X8_D24_UNORM_PACK32, 2.0), Some(0x00ff_ffffu32.to_le_bytes().to_vec()));
        assert_eq!(depth_texel(vk::Format::D32_SFLOAT, 0.375), Some(0.375f32.to_le_bytes().to_vec()));
        assert_eq!(depth_texel(vk::Format::R8_UNORM, 0.5), None);
    }
}
