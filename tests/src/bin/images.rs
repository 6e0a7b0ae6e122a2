//! `softnavi-images [--validate]`: storage images end to end, checked against CPU
//! references. Each case uploads a pattern into an image with vkCmdCopyBufferToImage,
//! runs a shader that reads every texel of a view with `imageLoad`, writes `OP(texel)`
//! with `imageStore` to an image of the same shape and `imageSize` to a buffer, copies the
//! result back with vkCmdCopyImageToBuffer and compares it with the CPU's `OP` on the
//! pattern. Cases cover 1D, 2D, 3D, cube, 1D and 2D arrays, a view of one layer and one
//! level of an array with mips, and unorm, float, half, integer formats. Then the sampled
//! image cases of [`sample`] (textureLod, texelFetch, textureGather, sizes).
//!
//! Prints one `PASS`/`FAIL`/`SKIP` line per case; exit status 0 when every case passes,
//! 1 on a mismatch, 2 on a Vulkan error, 3 on validation messages (with `--validate`).

#[path = "images/sample.rs"]
mod sample;

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use ash::vk;
use half::f16;
use softnavi_examples::{spirv_words, Context, ContextOptions, Error, MemoryLocation};

type Res<T> = Result<T, Error>;

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// How one component is stored, and what the shaders' `OP` does to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Comp {
    /// UNORM8, `v * 0.5`: an even byte b becomes b / 2 exactly.
    Unorm8,
    /// UINT8, `v + 1`.
    Uint8,
    /// SFLOAT16, `v * 0.5`.
    Half,
    /// SFLOAT32, `v * 0.5`.
    Float,
    /// UINT32 / SINT32, `v + 1` (wrapping).
    Int32,
}

impl Comp {
    fn bytes(self) -> usize {
        match self {
            Comp::Unorm8 | Comp::Uint8 => 1,
            Comp::Half => 2,
            Comp::Float | Comp::Int32 => 4,
        }
    }

    /// A pattern component from seed `s`, in the range `op` is exact on.
    fn pattern(self, s: u32) -> Vec<u8> {
        match self {
            Comp::Unorm8 => vec![(s * 2 % 256) as u8],
            Comp::Uint8 => vec![(s % 255) as u8],
            Comp::Half => f16::from_f32((s % 200) as f32 * 0.25 - 20.0).to_le_bytes().to_vec(),
            Comp::Float => ((s % 1000) as f32 * 0.75 - 300.0).to_le_bytes().to_vec(),
            Comp::Int32 => s.wrapping_mul(2_654_435_761).to_le_bytes().to_vec(),
        }
    }

    /// The CPU's `OP` on one stored component.
    fn op(self, b: &[u8]) -> Vec<u8> {
        match self {
            Comp::Unorm8 => vec![b[0] / 2],
            Comp::Uint8 => vec![b[0] + 1],
            Comp::Half => {
                let h = f16::from_le_bytes([b[0], b[1]]);
                f16::from_f32(h.to_f32() * 0.5).to_le_bytes().to_vec()
            }
            Comp::Float => (f32::from_le_bytes([b[0], b[1], b[2], b[3]]) * 0.5).to_le_bytes().to_vec(),
            Comp::Int32 => u32::from_le_bytes([b[0], b[1], b[2], b[3]]).wrapping_add(1).to_le_bytes().to_vec(),
        }
    }
}

/// One case: the shader, the image and the view the shader sees.
struct Case {
    name: &'static str,
    spirv: &'static [u8],
    format: vk::Format,
    comp: Comp,
    comps: usize,
    ty: vk::ImageType,
    view: vk::ImageViewType,
    extent: [u32; 3],
    layers: u32,
    levels: u32,
    /// The view's first level and layer, and its layer count.
    base: (u32, u32, u32),
    /// What `imageSize` returns (as the shader writes it: unused components 0, a cube's
    /// third one 6).
    size: [i32; 4],
}

macro_rules! spv {
    ($n:literal) => {
        include_bytes!(concat!(env!("OUT_DIR"), "/image_rw_", $n, ".spv"))
    };
}

fn cases() -> Vec<Case> {
    use vk::{Format as F, ImageType as T, ImageViewType as V};
    let c = |name, spirv, format, comp, comps, ty, view, extent, layers| Case {
        name,
        spirv,
        format,
        comp,
        comps,
        ty,
        view,
        extent,
        layers,
        levels: 1,
        base: (0, 0, layers),
        size: [0; 4],
    };
    let mut v = vec![
        c("2d_rgba8", spv!("2d_rgba8"), F::R8G8B8A8_UNORM, Comp::Unorm8, 4, T::TYPE_2D, V::TYPE_2D, [13, 7, 1], 1),
        c("2d_r32f", spv!("2d_r32f"), F::R32_SFLOAT, Comp::Float, 1, T::TYPE_2D, V::TYPE_2D, [64, 3, 1], 1),
        c("3d_r32ui", spv!("3d_r32ui"), F::R32_UINT, Comp::Int32, 1, T::TYPE_3D, V::TYPE_3D, [5, 4, 3], 1),
        c(
            "2darray_rgba32f",
            spv!("2darray_rgba32f"),
            F::R32G32B32A32_SFLOAT,
            Comp::Float,
            4,
            T::TYPE_2D,
            V::TYPE_2D_ARRAY,
            [6, 5, 1],
            3,
        ),
        c(
            "1d_rgba16f",
            spv!("1d_rgba16f"),
            F::R16G16B16A16_SFLOAT,
            Comp::Half,
            4,
            T::TYPE_1D,
            V::TYPE_1D,
            [20, 1, 1],
            1,
        ),
        c(
            "1darray_rg32i",
            spv!("1darray_rg32i"),
            F::R32G32_SINT,
            Comp::Int32,
            2,
            T::TYPE_1D,
            V::TYPE_1D_ARRAY,
            [9, 1, 1],
            2,
        ),
        c("cube_r32ui", spv!("cube_r32ui"), F::R32_UINT, Comp::Int32, 1, T::TYPE_2D, V::CUBE, [4, 4, 1], 6),
        c(
            "2d_layer1_level1",
            spv!("2d_rgba8ui"),
            F::R8G8B8A8_UINT,
            Comp::Uint8,
            4,
            T::TYPE_2D,
            V::TYPE_2D,
            [8, 6, 1],
            3,
        ),
    ];
    let sizes: [[i32; 4]; 8] = [
        [13, 7, 0, 0],
        [64, 3, 0, 0],
        [5, 4, 3, 0],
        [6, 5, 3, 0],
        [20, 0, 0, 0],
        [9, 2, 0, 0],
        [4, 4, 6, 0],
        [4, 3, 0, 0],
    ];
    for (c, s) in v.iter_mut().zip(sizes) {
        c.size = s;
    }
    v[7].levels = 2;
    v[7].base = (1, 1, 1);
    v
}

impl Case {
    fn texel(&self) -> usize {
        self.comp.bytes() * self.comps
    }

    fn level_extent(&self, m: u32) -> [u32; 3] {
        self.extent.map(|e| (e >> m).max(1))
    }

    /// Tightly packed bytes of level `m`, all layers.
    fn level_bytes(&self, m: u32) -> usize {
        let [w, h, d] = self.level_extent(m);
        (w * h * d * self.layers) as usize * self.texel()
    }

    fn pattern(&self) -> Vec<u8> {
        let total: usize = (0..self.levels).map(|m| self.level_bytes(m)).sum();
        let mut out = Vec::with_capacity(total);
        let mut s = self.format.as_raw() as u32;
        while out.len() < total {
            out.extend(self.comp.pattern(s));
            s = s.wrapping_add(7);
        }
        out
    }

    /// Copy regions for every level, all layers, tightly packed one after another.
    fn regions(&self) -> Vec<vk::BufferImageCopy> {
        let mut off = 0;
        (0..self.levels)
            .map(|m| {
                let [w, h, d] = self.level_extent(m);
                let r = vk::BufferImageCopy::default()
                    .buffer_offset(off as u64)
                    .image_subresource(vk::ImageSubresourceLayers {
                        aspect_mask: vk::ImageAspectFlags::COLOR,
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

    /// The expected result: `OP` on the view's texels, the rest of `dst` still zero.
    fn expected(&self, src: &[u8]) -> Vec<u8> {
        let mut out = vec![0u8; src.len()];
        let (level, layer, count) = self.base;
        let off: usize = (0..level).map(|m| self.level_bytes(m)).sum();
        let [w, h, d] = self.level_extent(level);
        let per_layer = (w * h * d) as usize * self.texel();
        let from = off + layer as usize * per_layer;
        let to = from + count as usize * per_layer;
        let cb = self.comp.bytes();
        for i in (from..to).step_by(cb) {
            out[i..i + cb].copy_from_slice(&self.comp.op(&src[i..i + cb]));
        }
        out
    }

    fn groups(&self) -> [u32; 3] {
        let [w, h, d] = self.level_extent(self.base.0);
        let z = if self.ty == vk::ImageType::TYPE_3D { d } else { self.base.2 };
        let (x, y, z) = match self.view {
            vk::ImageViewType::TYPE_1D_ARRAY => (w, self.base.2, 1),
            vk::ImageViewType::TYPE_1D => (w, 1, 1),
            vk::ImageViewType::TYPE_2D => (w, h, 1),
            _ => (w, h, z),
        };
        [x.div_ceil(4), y.div_ceil(4), z.div_ceil(2)]
    }
}

/// An image with its memory and a view.
struct Image<'c> {
    ctx: &'c Context,
    image: vk::Image,
    memory: vk::DeviceMemory,
    view: vk::ImageView,
}

impl Drop for Image<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: the device is idle; null handles are ignored.
        unsafe {
            d.destroy_image_view(self.view, None);
            d.destroy_image(self.image, None);
            d.free_memory(self.memory, None);
        }
    }
}

/// What [`create_image`] makes: an image of one type, format, shape and usage, and a
/// view of `range` (first level, level count, first layer, layer count) with `aspect`.
struct ImageSpec {
    flags: vk::ImageCreateFlags,
    ty: vk::ImageType,
    format: vk::Format,
    extent: [u32; 3],
    levels: u32,
    layers: u32,
    usage: vk::ImageUsageFlags,
    view: vk::ImageViewType,
    aspect: vk::ImageAspectFlags,
    range: (u32, u32, u32, u32),
}

fn image<'c>(ctx: &'c Context, c: &Case) -> Res<Image<'c>> {
    let flags = if c.view == vk::ImageViewType::CUBE {
        vk::ImageCreateFlags::CUBE_COMPATIBLE
    } else {
        vk::ImageCreateFlags::empty()
    };
    let (level, layer, count) = c.base;
    create_image(
        ctx,
        &ImageSpec {
            flags,
            ty: c.ty,
            format: c.format,
            extent: c.extent,
            levels: c.levels,
            layers: c.layers,
            usage: vk::ImageUsageFlags::STORAGE | vk::ImageUsageFlags::TRANSFER_SRC | vk::ImageUsageFlags::TRANSFER_DST,
            view: c.view,
            aspect: vk::ImageAspectFlags::COLOR,
            range: (level, 1, layer, count),
        },
    )
}

fn create_image<'c>(ctx: &'c Context, s: &ImageSpec) -> Res<Image<'c>> {
    let d = ctx.device();
    let mut img =
        Image { ctx, image: vk::Image::null(), memory: vk::DeviceMemory::null(), view: vk::ImageView::null() };
    let info = vk::ImageCreateInfo::default()
        .flags(s.flags)
        .image_type(s.ty)
        .format(s.format)
        .extent(vk::Extent3D { width: s.extent[0], height: s.extent[1], depth: s.extent[2] })
        .mip_levels(s.levels)
        .array_layers(s.layers)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(s.usage);
    // SAFETY: valid create infos; objects are destroyed by Image::drop.
    unsafe {
        img.image = d.create_image(&info, None).map_err(vkerr("vkCreateImage"))?;
        let req = d.get_image_memory_requirements(img.image);
        let props = ctx.instance().get_physical_device_memory_properties(ctx.physical_device());
        let ty = (0..props.memory_type_count)
            .find(|&i| req.memory_type_bits >> i & 1 != 0)
            .ok_or_else(|| Error::Unsupported("no memory type for the image".into()))?;
        img.memory = d
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty), None)
            .map_err(vkerr("vkAllocateMemory"))?;
        d.bind_image_memory(img.image, img.memory, 0).map_err(vkerr("vkBindImageMemory"))?;
        let (level, levels, layer, layers) = s.range;
        let view =
            vk::ImageViewCreateInfo::default().image(img.image).view_type(s.view).format(s.format).subresource_range(
                vk::ImageSubresourceRange {
                    aspect_mask: s.aspect,
                    base_mip_level: level,
                    level_count: levels,
                    base_array_layer: layer,
                    layer_count: layers,
                },
            );
        img.view = d.create_image_view(&view, None).map_err(vkerr("vkCreateImageView"))?;
    }
    Ok(img)
}

/// A layout transition of every subresource of `image`.
fn barrier(
    image: vk::Image,
    layouts: (vk::ImageLayout, vk::ImageLayout),
    access: (vk::AccessFlags2, vk::AccessFlags2),
    stages: (vk::PipelineStageFlags2, vk::PipelineStageFlags2),
) -> vk::ImageMemoryBarrier2<'static> {
    barrier_on(image, vk::ImageAspectFlags::COLOR, layouts, access, stages)
}

/// [`barrier`] for the subresources of `aspect` (a depth image's DEPTH).
fn barrier_on(
    image: vk::Image,
    aspect: vk::ImageAspectFlags,
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
        .subresource_range(vk::ImageSubresourceRange {
            aspect_mask: aspect,
            base_mip_level: 0,
            level_count: vk::REMAINING_MIP_LEVELS,
            base_array_layer: 0,
            layer_count: vk::REMAINING_ARRAY_LAYERS,
        })
}

/// The pipeline of one case: two storage images and a storage buffer in set 0.
struct Pipe<'c> {
    ctx: &'c Context,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    pool: vk::DescriptorPool,
    set: vk::DescriptorSet,
}

impl Drop for Pipe<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: the device is idle; null handles are ignored.
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

fn pipe<'c>(ctx: &'c Context, spirv: &[u8]) -> Res<Pipe<'c>> {
    let ty = |i: u32| if i < 2 { vk::DescriptorType::STORAGE_IMAGE } else { vk::DescriptorType::STORAGE_BUFFER };
    let bindings: Vec<_> = (0..3)
        .map(|i| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(i)
                .descriptor_type(ty(i))
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    pipe_with(ctx, spirv, &bindings, 0)
}

/// A compute pipeline of `spirv` with one set of `bindings` (a pool sized for one set)
/// and `push` bytes of push constants.
fn pipe_with<'c>(
    ctx: &'c Context,
    spirv: &[u8],
    bindings: &[vk::DescriptorSetLayoutBinding<'_>],
    push: u32,
) -> Res<Pipe<'c>> {
    let d = ctx.device();
    let mut p = Pipe {
        ctx,
        set_layout: vk::DescriptorSetLayout::null(),
        layout: vk::PipelineLayout::null(),
        pipeline: vk::Pipeline::null(),
        pool: vk::DescriptorPool::null(),
        set: vk::DescriptorSet::null(),
    };
    let words = spirv_words(spirv)?;
    let ranges = [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(push)];
    let ranges = if push > 0 { &ranges[..] } else { &[] };
    // SAFETY: valid device and create infos; objects are destroyed by Pipe::drop.
    unsafe {
        p.set_layout = d
            .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(bindings), None)
            .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
        let set_layouts = [p.set_layout];
        let info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(ranges);
        p.layout = d.create_pipeline_layout(&info, None).map_err(vkerr("vkCreatePipelineLayout"))?;
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
            .map_err(vkerr("vkCreateShaderModule"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let r = d.create_compute_pipelines(
            vk::PipelineCache::null(),
            &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(p.layout)],
            None,
        );
        d.destroy_shader_module(module, None);
        p.pipeline = r.map_err(|(_, e)| Error::Vulkan { call: "vkCreateComputePipelines", result: e })?[0];
        let sizes: Vec<_> = bindings
            .iter()
            .map(|b| vk::DescriptorPoolSize::default().ty(b.descriptor_type).descriptor_count(b.descriptor_count))
            .collect();
        p.pool = d
            .create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
            .map_err(vkerr("vkCreateDescriptorPool"))?;
        p.set = d
            .allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default().descriptor_pool(p.pool).set_layouts(&set_layouts),
            )
            .map_err(vkerr("vkAllocateDescriptorSets"))?[0];
    }
    Ok(p)
}

/// Runs one case: `Ok(Err(why))` on a mismatch.
fn run_case(ctx: &Context, c: &Case) -> Res<Result<(), String>> {
    let d = ctx.device();
    let data = c.pattern();
    let usage = vk::BufferUsageFlags::TRANSFER_SRC | vk::BufferUsageFlags::TRANSFER_DST;
    let mut staging = ctx.create_buffer("staging", data.len() as u64, usage, MemoryLocation::CpuToGpu)?;
    staging.write(&data)?;
    let mut zeros = ctx.create_buffer("zeros", data.len() as u64, usage, MemoryLocation::CpuToGpu)?;
    zeros.write(&vec![0u8; data.len()])?;
    let mut size = ctx.create_buffer("size", 16, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::CpuToGpu)?;
    size.write(&[0x5a5a_5a5au32; 4])?;
    let (src, dst) = (image(ctx, c)?, image(ctx, c)?);
    let p = pipe(ctx, c.spirv)?;
    let infos = [src.view, dst.view]
        .map(|v| [vk::DescriptorImageInfo::default().image_view(v).image_layout(vk::ImageLayout::GENERAL)]);
    let binfo = [vk::DescriptorBufferInfo::default().buffer(size.handle()).range(vk::WHOLE_SIZE)];
    let writes = [
        vk::WriteDescriptorSet::default()
            .dst_set(p.set)
            .dst_binding(0)
            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
            .image_info(&infos[0]),
        vk::WriteDescriptorSet::default()
            .dst_set(p.set)
            .dst_binding(1)
            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
            .image_info(&infos[1]),
        vk::WriteDescriptorSet::default()
            .dst_set(p.set)
            .dst_binding(2)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&binfo),
    ];
    // SAFETY: live set, views and buffer; the set is not in use.
    unsafe { d.update_descriptor_sets(&writes, &[]) };
    let regions = c.regions();
    use vk::{AccessFlags2 as A, ImageLayout as L, PipelineStageFlags2 as S};
    ctx.submit_and_wait(|cmd| {
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            let to_dst = |i| {
                barrier(i, (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL), (A::NONE, A::TRANSFER_WRITE), (S::NONE, S::COPY))
            };
            d.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&[to_dst(src.image), to_dst(dst.image)]),
            );
            d.cmd_copy_buffer_to_image(cmd, staging.handle(), src.image, L::TRANSFER_DST_OPTIMAL, &regions);
            d.cmd_copy_buffer_to_image(cmd, zeros.handle(), dst.image, L::TRANSFER_DST_OPTIMAL, &regions);
            let to_general = |i| {
                barrier(
                    i,
                    (L::TRANSFER_DST_OPTIMAL, L::GENERAL),
                    (A::TRANSFER_WRITE, A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE),
                    (S::COPY, S::COMPUTE_SHADER),
                )
            };
            d.cmd_pipeline_barrier2(
                cmd,
                &vk::DependencyInfo::default().image_memory_barriers(&[to_general(src.image), to_general(dst.image)]),
            );
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, p.pipeline);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, p.layout, 0, &[p.set], &[]);
            let [x, y, z] = c.groups();
            d.cmd_dispatch(cmd, x, y, z);
            let to_src = barrier(
                dst.image,
                (L::GENERAL, L::TRANSFER_SRC_OPTIMAL),
                (A::SHADER_STORAGE_WRITE, A::TRANSFER_READ),
                (S::COMPUTE_SHADER, S::COPY),
            );
            d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&[to_src]));
            d.cmd_copy_image_to_buffer(cmd, dst.image, L::TRANSFER_SRC_OPTIMAL, zeros.handle(), &regions);
        }
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    let got_size: Vec<i32> = size.read::<i32>(4)?;
    if got_size != c.size {
        return Ok(Err(format!("imageSize {got_size:?} (expected {:?})", c.size)));
    }
    let got: Vec<u8> = zeros.read::<u8>(data.len())?;
    let want = c.expected(&data);
    let t = c.texel();
    if let Some(i) = (0..got.len() / t).find(|&i| got[i * t..(i + 1) * t] != want[i * t..(i + 1) * t]) {
        return Ok(Err(format!(
            "texel {i} (of {}): got {:02x?}, expected {:02x?} (source {:02x?})",
            got.len() / t,
            &got[i * t..(i + 1) * t],
            &want[i * t..(i + 1) * t],
            &data[i * t..(i + 1) * t]
        )));
    }
    Ok(Ok(()))
}

/// Whether the device can run `c`: its format's storage image feature.
fn supported(ctx: &Context, c: &Case) -> bool {
    // SAFETY: a plain query.
    let p = unsafe { ctx.instance().get_physical_device_format_properties(ctx.physical_device(), c.format) };
    p.optimal_tiling_features.contains(vk::FormatFeatureFlags::STORAGE_IMAGE)
}

/// Prints a case's `PASS`/`FAIL` line and raises `code` (1 on a mismatch, 2 on an error).
fn report(name: &str, r: Res<Result<(), String>>, code: &mut u8) {
    match r {
        Ok(Ok(())) => println!("PASS {name}"),
        Ok(Err(why)) => {
            println!("FAIL {name}: {why}");
            *code = (*code).max(1);
        }
        Err(e) => {
            println!("FAIL {name}: {e}");
            *code = 2;
        }
    }
}

fn main() -> ExitCode {
    let validate = std::env::args().any(|a| a == "--validate");
    let options = ContextOptions { app_name: "softnavi-images", device_filter: None, validate, shader_features: true };
    let ctx = match Context::new(&options) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("softnavi-images: {e}");
            return ExitCode::from(2);
        }
    };
    println!("device: {}", ctx.device_name());
    let mut code = 0;
    for c in cases() {
        if !supported(&ctx, &c) {
            println!("SKIP {}: {:?} has no storage image feature", c.name, c.format);
            continue;
        }
        report(c.name, run_case(&ctx, &c), &mut code);
    }
    sample::run_all(&ctx, &mut code);
    if let Some(v) = ctx.validation_counter() {
        let n = v.load(Ordering::Relaxed);
        println!("validation: {n} error/warning messages");
        if n > 0 && code == 0 {
            code = 3;
        }
    }
    ExitCode::from(code)
}
