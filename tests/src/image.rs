//! Images for the test runners: what a dispatch's image descriptors hold ([`ImageDesc`],
//! [`ImageBinding`]), the Vulkan objects made from them, their upload before the dispatch
//! and the read-back of storage images after it.
//!
//! Texel data is tightly packed, levels one after another, each level all its layers (and
//! a layer all its slices), as `vkCmdCopyBufferToImage` with `bufferRowLength` 0 reads it.

use ash::vk;
use softnavi_examples::{Buffer, Context, Error, MemoryLocation};

/// One image and the view the shader sees (the whole image).
#[derive(Clone, Debug)]
pub struct ImageDesc {
    pub format: vk::Format,
    pub view: vk::ImageViewType,
    /// Level 0's width, height, depth.
    pub extent: [u32; 3],
    pub levels: u32,
    /// Array layers (6 per cube).
    pub layers: u32,
    /// Initial texels (see the module doc); zeros when empty.
    pub data: Vec<u8>,
    /// The view's first level, levels, first layer and layers (`None`: the whole image).
    pub subrange: Option<[u32; 4]>,
}

/// One descriptor binding of images or samplers (set 0, `binding`).
#[derive(Clone, Debug)]
pub struct ImageBinding {
    pub binding: u32,
    /// STORAGE_IMAGE, SAMPLED_IMAGE, COMBINED_IMAGE_SAMPLER or SAMPLER.
    pub ty: vk::DescriptorType,
    /// One per array element (empty for SAMPLER).
    pub images: Vec<ImageDesc>,
    /// One per array element (SAMPLER, COMBINED_IMAGE_SAMPLER).
    pub samplers: Vec<vk::SamplerCreateInfo<'static>>,
    /// The samplers are immutable: in the set layout, not written to the set.
    pub immutable: bool,
}

impl ImageBinding {
    pub fn count(&self) -> u32 {
        self.images.len().max(self.samplers.len()) as u32
    }
}

/// Bytes per texel of the formats the corpus uses (`None`: not one of them).
pub fn texel_size(f: vk::Format) -> Option<usize> {
    use vk::Format as F;
    Some(match f {
        F::R8_UNORM | F::R8_SNORM | F::R8_UINT | F::R8_SINT | F::S8_UINT => 1,
        F::R8G8_UNORM
        | F::R5G6B5_UNORM_PACK16
        | F::A4R4G4B4_UNORM_PACK16
        | F::R16_UNORM
        | F::R16_SNORM
        | F::R16_UINT
        | F::R16_SINT
        | F::R16_SFLOAT
        | F::D16_UNORM => 2,
        F::R8G8B8A8_UNORM
        | F::R8G8B8A8_SNORM
        | F::R8G8B8A8_UINT
        | F::R8G8B8A8_SINT
        | F::R8G8B8A8_SRGB
        | F::B8G8R8A8_UNORM
        | F::B8G8R8A8_UINT
        | F::B8G8R8A8_SNORM
        | F::A2R10G10B10_UINT_PACK32
        | F::R16G16_UNORM
        | F::R16G16_SNORM
        | F::R16G16_SINT
        | F::R16G16_UINT
        | F::R16G16_SFLOAT
        | F::R32_UINT
        | F::R32_SINT
        | F::R32_SFLOAT
        | F::A2B10G10R10_UNORM_PACK32
        | F::A2B10G10R10_UINT_PACK32
        | F::B10G11R11_UFLOAT_PACK32
        | F::D32_SFLOAT => 4,
        F::R16G16B16A16_UNORM
        | F::R16G16B16A16_SFLOAT
        | F::R16G16B16A16_SINT
        | F::R32G32_SFLOAT
        | F::R32G32_UINT
        | F::R32G32_SINT => 8,
        F::R32G32B32A32_SFLOAT | F::R32G32B32A32_UINT | F::R32G32B32A32_SINT => 16,
        _ => return None,
    })
}

pub fn is_depth(f: vk::Format) -> bool {
    matches!(f, vk::Format::D16_UNORM | vk::Format::D32_SFLOAT)
}

impl ImageDesc {
    /// A view of `view` type over a whole image of `extent`, `levels` and `layers`.
    pub fn new(format: vk::Format, view: vk::ImageViewType, extent: [u32; 3], levels: u32, layers: u32) -> ImageDesc {
        ImageDesc { format, view, extent, levels, layers, data: Vec::new(), subrange: None }
    }

    pub fn with(mut self, data: Vec<u8>) -> ImageDesc {
        self.data = data;
        self
    }

    pub fn image_type(&self) -> vk::ImageType {
        use vk::ImageViewType as V;
        match self.view {
            V::TYPE_1D | V::TYPE_1D_ARRAY => vk::ImageType::TYPE_1D,
            V::TYPE_3D => vk::ImageType::TYPE_3D,
            _ => vk::ImageType::TYPE_2D,
        }
    }

    pub fn flags(&self) -> vk::ImageCreateFlags {
        if matches!(self.view, vk::ImageViewType::CUBE | vk::ImageViewType::CUBE_ARRAY) {
            vk::ImageCreateFlags::CUBE_COMPATIBLE
        } else {
            vk::ImageCreateFlags::empty()
        }
    }

    pub fn aspect(&self) -> vk::ImageAspectFlags {
        if is_depth(self.format) {
            vk::ImageAspectFlags::DEPTH
        } else {
            vk::ImageAspectFlags::COLOR
        }
    }

    /// Width, height, depth of level `m`.
    pub fn level_extent(&self, m: u32) -> [u32; 3] {
        self.extent.map(|e| (e >> m).max(1))
    }

    /// Bytes of level `m`, all layers.
    pub fn level_bytes(&self, m: u32) -> usize {
        let [w, h, d] = self.level_extent(m);
        (w * h * d * self.layers) as usize * texel_size(self.format).unwrap_or(0)
    }

    /// Bytes of the whole image (every level).
    pub fn bytes(&self) -> usize {
        (0..self.levels).map(|m| self.level_bytes(m)).sum()
    }

    /// Byte offset of texel (x, y, z) of `layer` at level `m`.
    pub fn offset(&self, m: u32, layer: u32, [x, y, z]: [u32; 3]) -> usize {
        let [w, h, d] = self.level_extent(m);
        let t = texel_size(self.format).unwrap_or(0);
        let before: usize = (0..m).map(|k| self.level_bytes(k)).sum();
        before + ((((layer * d + z) * h + y) * w + x) as usize) * t
    }

    /// Copy regions for every level, all layers, packed as the module doc says.
    pub fn regions(&self) -> Vec<vk::BufferImageCopy> {
        let mut off = 0;
        (0..self.levels)
            .map(|m| {
                let [w, h, d] = self.level_extent(m);
                let r = vk::BufferImageCopy::default()
                    .buffer_offset(off as u64)
                    .image_subresource(vk::ImageSubresourceLayers {
                        aspect_mask: self.aspect(),
                        mip_level: m,
                        base_array_layer: 0,
                        layer_count: self.layers,
                    })
                    .image_extent(vk::Extent3D { width: w, height: h, depth: d });
                off += self.level_bytes(m);
                r
            })
            .collect()
    }

    /// The view's subresources.
    fn view_range(&self) -> vk::ImageSubresourceRange {
        let [base_mip_level, level_count, base_array_layer, layer_count] =
            self.subrange.unwrap_or([0, self.levels, 0, self.layers]);
        vk::ImageSubresourceRange {
            aspect_mask: self.aspect(),
            base_mip_level,
            level_count,
            base_array_layer,
            layer_count,
        }
    }

    fn range(&self) -> vk::ImageSubresourceRange {
        vk::ImageSubresourceRange {
            aspect_mask: self.aspect(),
            base_mip_level: 0,
            level_count: self.levels,
            base_array_layer: 0,
            layer_count: self.layers,
        }
    }
}

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// The Vulkan objects of a dispatch's image bindings, destroyed on drop.
pub struct Objects<'c> {
    ctx: &'c Context,
    images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
    pub samplers: Vec<vk::Sampler>,
    /// Per binding: (view, sampler) per array element (null where absent).
    pub elements: Vec<Vec<(vk::ImageView, vk::Sampler)>>,
    /// Per binding: its samplers (for immutable ones).
    pub immutable: Vec<Vec<vk::Sampler>>,
}

impl Drop for Objects<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: the device is idle (or lost); null handles are ignored.
        unsafe {
            for &(image, memory, view) in &self.images {
                d.destroy_image_view(view, None);
                d.destroy_image(image, None);
                d.free_memory(memory, None);
            }
            for &s in &self.samplers {
                d.destroy_sampler(s, None);
            }
        }
    }
}

impl Objects<'_> {
    /// Every image in binding order, with its description (for copies and barriers).
    fn flat<'b>(
        &self,
        bindings: &'b [ImageBinding],
    ) -> impl Iterator<Item = (&'b ImageBinding, &'b ImageDesc, vk::Image)> {
        let mut k = 0;
        let mut out = Vec::new();
        for b in bindings {
            for i in &b.images {
                out.push((b, i, self.images[k].0));
                k += 1;
            }
        }
        out.into_iter()
    }
}

/// Creates the images, views and samplers of `bindings`.
pub fn create<'c>(ctx: &'c Context, bindings: &[ImageBinding]) -> Result<Objects<'c>, Error> {
    let mut o = Objects { ctx, images: Vec::new(), samplers: Vec::new(), elements: Vec::new(), immutable: Vec::new() };
    for b in bindings {
        let mut elems = Vec::new();
        for k in 0..b.count() as usize {
            let view = match b.images.get(k) {
                Some(desc) => image(ctx, &mut o, desc, b.ty)?,
                None => vk::ImageView::null(),
            };
            let sampler = match b.samplers.get(k) {
                Some(info) => {
                    // SAFETY: a valid create info (no pNext).
                    let s = unsafe { ctx.device().create_sampler(info, None) }.map_err(vkerr("vkCreateSampler"))?;
                    o.samplers.push(s);
                    s
                }
                None => vk::Sampler::null(),
            };
            elems.push((view, sampler));
        }
        o.immutable.push(elems.iter().map(|e| e.1).collect());
        o.elements.push(elems);
    }
    Ok(o)
}

fn usage(ty: vk::DescriptorType) -> vk::ImageUsageFlags {
    let transfer = vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST;
    if ty == vk::DescriptorType::STORAGE_IMAGE {
        transfer | vk::ImageUsageFlags::STORAGE
    } else {
        transfer | vk::ImageUsageFlags::SAMPLED
    }
}

/// Creates one image with memory and its view (kept in `o`); returns the view.
fn image(ctx: &Context, o: &mut Objects<'_>, s: &ImageDesc, ty: vk::DescriptorType) -> Result<vk::ImageView, Error> {
    let d = ctx.device();
    let info = vk::ImageCreateInfo::default()
        .flags(s.flags())
        .image_type(s.image_type())
        .format(s.format)
        .extent(vk::Extent3D { width: s.extent[0], height: s.extent[1], depth: s.extent[2] })
        .mip_levels(s.levels)
        .array_layers(s.layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage(ty));
    o.images.push((vk::Image::null(), vk::DeviceMemory::null(), vk::ImageView::null()));
    let slot = o.images.len() - 1;
    // SAFETY: valid create infos; what is created is recorded in `o` and destroyed by its drop.
    unsafe {
        let image = d.create_image(&info, None).map_err(vkerr("vkCreateImage"))?;
        o.images[slot].0 = image;
        let req = d.get_image_memory_requirements(image);
        let props = ctx.instance().get_physical_device_memory_properties(ctx.physical_device());
        let ty = (0..props.memory_type_count)
            .find(|&i| req.memory_type_bits >> i & 1 != 0)
            .ok_or_else(|| Error::Unsupported("no memory type for the image".into()))?;
        let memory = d
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty), None)
            .map_err(vkerr("vkAllocateMemory"))?;
        o.images[slot].1 = memory;
        d.bind_image_memory(image, memory, 0).map_err(vkerr("vkBindImageMemory"))?;
        let view = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(s.view)
            .format(s.format)
            .subresource_range(s.view_range());
        let view = d.create_image_view(&view, None).map_err(vkerr("vkCreateImageView"))?;
        o.images[slot].2 = view;
        Ok(view)
    }
}

/// The layout a descriptor of `ty` reads its image in.
pub fn layout(ty: vk::DescriptorType) -> vk::ImageLayout {
    if ty == vk::DescriptorType::STORAGE_IMAGE {
        vk::ImageLayout::GENERAL
    } else {
        vk::ImageLayout::SHADER_READ_ONLY_OPTIMAL
    }
}

/// An image memory barrier of `range` between two layouts, accesses and stages, with no
/// queue family transfer.
pub fn barrier(
    image: vk::Image,
    range: vk::ImageSubresourceRange,
    (old, new): (vk::ImageLayout, vk::ImageLayout),
    (src, dst): (vk::AccessFlags2, vk::AccessFlags2),
    (src_stage, dst_stage): (vk::PipelineStageFlags2, vk::PipelineStageFlags2),
) -> vk::ImageMemoryBarrier2<'static> {
    vk::ImageMemoryBarrier2::default()
        .image(image)
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(src)
        .dst_access_mask(dst)
        .src_stage_mask(src_stage)
        .dst_stage_mask(dst_stage)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(range)
}

/// Host buffers for the initial texels of every image and for the read-back of the
/// storage ones, with each image's offset in them.
pub struct Staging<'c> {
    upload: Option<softnavi_examples::Buffer<'c>>,
    download: Option<softnavi_examples::Buffer<'c>>,
    offsets: Vec<usize>,
}

/// Fills the upload buffer (initial texels, zeros where none are given).
pub fn staging<'c>(ctx: &'c Context, bindings: &[ImageBinding]) -> Result<Staging<'c>, Error> {
    let mut data = Vec::new();
    let mut offsets = Vec::new();
    for desc in bindings.iter().flat_map(|b| &b.images) {
        offsets.push(data.len());
        let n = desc.bytes();
        let mut texels = desc.data.clone();
        if texels.len() != n {
            if !texels.is_empty() {
                return Err(Error::Unsupported(format!("image data of {} bytes, the image has {n}", texels.len())));
            }
            texels.resize(n, 0);
        }
        data.extend(texels);
        data.resize(data.len().div_ceil(16) * 16, 0);
    }
    if data.is_empty() {
        return Ok(Staging { upload: None, download: None, offsets });
    }
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let mut up = ctx.create_buffer("image upload", data.len() as u64, usage, MemoryLocation::CpuToGpu)?;
    up.write(&data)?;
    let mut down = ctx.create_buffer("image download", data.len() as u64, usage, MemoryLocation::CpuToGpu)?;
    down.write(&vec![0u8; data.len()])?;
    Ok(Staging { upload: Some(up), download: Some(down), offsets })
}

/// Records the uploads and the transitions to the descriptors' layouts.
pub fn record_upload(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    o: &Objects<'_>,
    s: &Staging<'_>,
    bindings: &[ImageBinding],
) {
    let Some(up) = &s.upload else { return };
    use vk::{AccessFlags2 as A, ImageLayout as L, PipelineStageFlags2 as S};
    let d = ctx.device();
    let all: Vec<_> = o.flat(bindings).collect();
    let to_dst: Vec<_> = all
        .iter()
        .map(|(_, desc, img)| {
            barrier(
                *img,
                desc.range(),
                (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL),
                (A::NONE, A::TRANSFER_WRITE),
                (S::NONE, S::COPY),
            )
        })
        .collect();
    let to_use: Vec<_> = all
        .iter()
        .map(|(b, desc, img)| {
            let read = if b.ty == vk::DescriptorType::STORAGE_IMAGE {
                A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE
            } else {
                A::SHADER_SAMPLED_READ
            };
            let layouts = (L::TRANSFER_DST_OPTIMAL, layout(b.ty));
            barrier(*img, desc.range(), layouts, (A::TRANSFER_WRITE, read), (S::COPY, S::COMPUTE_SHADER))
        })
        .collect();
    // SAFETY: recording; every object lives until the submission completes.
    unsafe {
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&to_dst));
        for ((_, desc, img), off) in all.iter().zip(&s.offsets) {
            let regions: Vec<_> =
                desc.regions().into_iter().map(|r| r.buffer_offset(r.buffer_offset + *off as u64)).collect();
            d.cmd_copy_buffer_to_image(cmd, up.handle(), *img, L::TRANSFER_DST_OPTIMAL, &regions);
        }
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&to_use));
    }
}

/// Records the copies of the storage images into the read-back buffer (after the dispatch).
pub fn record_download(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    o: &Objects<'_>,
    s: &Staging<'_>,
    bindings: &[ImageBinding],
) {
    let Some(down) = &s.download else { return };
    use vk::{AccessFlags2 as A, ImageLayout as L, PipelineStageFlags2 as S};
    let d = ctx.device();
    let storage: Vec<_> =
        o.flat(bindings).zip(&s.offsets).filter(|((b, _, _), _)| b.ty == vk::DescriptorType::STORAGE_IMAGE).collect();
    let to_src: Vec<_> = storage
        .iter()
        .map(|((_, desc, img), _)| {
            barrier(
                *img,
                desc.range(),
                (L::GENERAL, L::TRANSFER_SRC_OPTIMAL),
                (A::SHADER_STORAGE_WRITE, A::TRANSFER_READ),
                (S::COMPUTE_SHADER, S::COPY),
            )
        })
        .collect();
    let to_host = vk::MemoryBarrier2::default()
        .src_access_mask(A::TRANSFER_WRITE)
        .dst_access_mask(A::HOST_READ)
        .src_stage_mask(S::COPY)
        .dst_stage_mask(S::HOST);
    // SAFETY: recording; every object lives until the submission completes.
    unsafe {
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&to_src));
        for ((_, desc, img), off) in &storage {
            let regions: Vec<_> =
                desc.regions().into_iter().map(|r| r.buffer_offset(r.buffer_offset + **off as u64)).collect();
            d.cmd_copy_image_to_buffer(cmd, *img, L::TRANSFER_SRC_OPTIMAL, down.handle(), &regions);
        }
        d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().memory_barriers(&[to_host]));
    }
}

/// Every image's texels after the dispatch, in binding order (storage images read back;
/// the others as uploaded).
pub fn read_back(s: &Staging<'_>, bindings: &[ImageBinding]) -> Result<Vec<Vec<u8>>, Error> {
    let (Some(up), Some(down)) = (&s.upload, &s.download) else { return Ok(Vec::new()) };
    let (up, down) = (up.read::<u8>(up.size() as usize)?, down.read::<u8>(down.size() as usize)?);
    let mut out = Vec::new();
    let mut k = 0;
    for b in bindings {
        for desc in &b.images {
            let from = if b.ty == vk::DescriptorType::STORAGE_IMAGE { &down } else { &up };
            out.push(from[s.offsets[k]..s.offsets[k] + desc.bytes()].to_vec());
            k += 1;
        }
    }
    Ok(out)
}

/// An image with memory for the transfer test apps (TRANSFER_SRC and TRANSFER_DST usage),
/// destroyed on drop.
pub struct Image<'c> {
    ctx: &'c Context,
    pub image: vk::Image,
    memory: vk::DeviceMemory,
}

impl Drop for Image<'_> {
    fn drop(&mut self) {
        // SAFETY: the device is idle; null handles are ignored.
        unsafe {
            self.ctx.device().destroy_image(self.image, None);
            self.ctx.device().free_memory(self.memory, None);
        }
    }
}

/// Creates and binds an image for `d` (OPTIMAL tiling, one sample).
pub fn create_image<'c>(ctx: &'c Context, d: &ImageDesc) -> Result<Image<'c>, Error> {
    let dev = ctx.device();
    let info = vk::ImageCreateInfo::default()
        .image_type(d.image_type())
        .flags(d.flags())
        .format(d.format)
        .extent(vk::Extent3D { width: d.extent[0], height: d.extent[1], depth: d.extent[2] })
        .mip_levels(d.levels)
        .array_layers(d.layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST);
    let mut img = Image { ctx, image: vk::Image::null(), memory: vk::DeviceMemory::null() };
    // SAFETY: valid create infos; Image::drop destroys what is created.
    unsafe {
        img.image = dev.create_image(&info, None).map_err(vkerr("vkCreateImage"))?;
        let req = dev.get_image_memory_requirements(img.image);
        let props = ctx.instance().get_physical_device_memory_properties(ctx.physical_device());
        let ty = (0..props.memory_type_count)
            .find(|&i| req.memory_type_bits >> i & 1 != 0)
            .ok_or_else(|| Error::Unsupported("no memory type for the image".into()))?;
        img.memory = dev
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty), None)
            .map_err(vkerr("vkAllocateMemory"))?;
        dev.bind_image_memory(img.image, img.memory, 0).map_err(vkerr("vkBindImageMemory"))?;
    }
    Ok(img)
}

/// A host-visible transfer buffer holding `data`.
pub fn host_buffer<'c>(ctx: &'c Context, name: &str, data: &[u8]) -> Result<Buffer<'c>, Error> {
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let mut b = ctx.create_buffer(name, data.len().max(4) as u64, usage, MemoryLocation::CpuToGpu)?;
    b.write(data)?;
    Ok(b)
}

/// A transfer-to-transfer barrier moving `range` of `image` from layout `old` to `new`.
fn transfer_image_barrier(
    image: vk::Image,
    old: vk::ImageLayout,
    new: vk::ImageLayout,
    range: vk::ImageSubresourceRange,
) -> vk::ImageMemoryBarrier2<'static> {
    use vk::{AccessFlags2 as A, PipelineStageFlags2 as S};
    vk::ImageMemoryBarrier2::default()
        .image(image)
        .old_layout(old)
        .new_layout(new)
        .src_access_mask(A::TRANSFER_WRITE)
        .dst_access_mask(A::TRANSFER_READ | A::TRANSFER_WRITE)
        .src_stage_mask(S::ALL_TRANSFER)
        .dst_stage_mask(S::ALL_TRANSFER)
        .src_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .dst_queue_family_index(vk::QUEUE_FAMILY_IGNORED)
        .subresource_range(range)
}

/// Colour levels `levels` (first, count), every layer.
fn colour_levels(levels: (u32, u32)) -> vk::ImageSubresourceRange {
    levels_of(vk::ImageAspectFlags::COLOR, levels)
}

/// Levels `levels` (first, count) of `aspect_mask`, every layer.
fn levels_of(
    aspect_mask: vk::ImageAspectFlags,
    (base_mip_level, level_count): (u32, u32),
) -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask,
        base_mip_level,
        level_count,
        base_array_layer: 0,
        layer_count: vk::REMAINING_ARRAY_LAYERS,
    }
}

/// A barrier between transfer commands (and before host reads): each image from one
/// layout to another.
pub fn transfer_barrier(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    images: &[(vk::Image, vk::ImageLayout, vk::ImageLayout)],
) {
    aspect_barrier(ctx, cmd, images, vk::ImageAspectFlags::COLOR)
}

/// [`transfer_barrier`] of images of `aspect` (DEPTH for depth images).
pub fn aspect_barrier(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    images: &[(vk::Image, vk::ImageLayout, vk::ImageLayout)],
    aspect: vk::ImageAspectFlags,
) {
    use vk::{AccessFlags2 as A, PipelineStageFlags2 as S};
    let all = levels_of(aspect, (0, vk::REMAINING_MIP_LEVELS));
    let bs: Vec<_> = images.iter().map(|&(i, old, new)| transfer_image_barrier(i, old, new, all)).collect();
    let host = [vk::MemoryBarrier2::default()
        .src_access_mask(A::TRANSFER_WRITE)
        .dst_access_mask(A::HOST_READ)
        .src_stage_mask(S::ALL_TRANSFER)
        .dst_stage_mask(S::HOST)];
    let dep = vk::DependencyInfo::default().image_memory_barriers(&bs).memory_barriers(&host);
    // SAFETY: recording; the images live until the submission completes.
    unsafe { ctx.device().cmd_pipeline_barrier2(cmd, &dep) };
}

/// A transfer-to-transfer barrier moving one level (all layers) of `image` between layouts
/// (a mip chain blitted level by level reads one level of the image it writes).
pub fn level_barrier(
    ctx: &Context,
    cmd: vk::CommandBuffer,
    image: vk::Image,
    level: u32,
    (old, new): (vk::ImageLayout, vk::ImageLayout),
) {
    let b = [transfer_image_barrier(image, old, new, colour_levels((level, 1)))];
    // SAFETY: recording; the image lives until the submission completes.
    unsafe { ctx.device().cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&b)) };
}
