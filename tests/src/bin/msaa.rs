//! `softnavi-msaa [--validate] [--resolve]`: multisampled images end to end, checked against a CPU
//! reference. Two 4-sample R32_UINT 2D array images, A and B: vkCmdClearColorImage clears
//! them (7 and 9); a compute shader writes two thirds of A's samples with `imageStore(…,
//! sample, …)`; vkCmdCopyImage copies a whole layer of A into B and a sub-rectangle of the
//! other; then a shader reads every sample of each image with `imageLoad(…, sample)` and
//! `texelFetch` of a `usampler2DMSArray`, and `imageSamples`, `textureSamples`, `imageSize`,
//! `textureSize`; with `--resolve` (a graphics-queue command in Vulkan), vkCmdResolveImage of
//! A into a single-sampled image, which must hold sample 0, and of a 4-sample R32_SFLOAT
//! array a shader wrote, which must hold each texel's mean. Skipped (through the API) where the device has no
//! `shaderStorageImageMultisample` or no 4-sample R32_UINT storage images.
//!
//! Prints one `PASS`/`FAIL`/`SKIP` line; exit status 0 when it passes or is skipped, 1 on
//! a mismatch, 2 on a Vulkan error, 3 on validation messages (with `--validate`).

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{spirv_words, Context, Error, MemoryLocation};
use softnavi_tests::app::{self, Report};

type Res<T> = Result<T, Error>;

const W: u32 = 13;
const H: u32 = 10;
const LAYERS: u32 = 2;
const SAMPLES: u32 = 4;
const FORMAT: vk::Format = vk::Format::R32_UINT;
/// The sub-rectangle copied from A's layer 1 into B's layer 0: source offset, destination
/// offset, extent.
const PART: ([i32; 2], [i32; 2], [u32; 2]) = ([1, 2], [3, 1], [5, 4]);

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// What the write shader stores: every sample with (x + y + s) % 3 != 0 gets its id.
fn written(x: u32, y: u32, l: u32, s: u32) -> Option<u32> {
    ((x + y + s) % 3 != 0).then_some(0x4000_0000 | x | y << 8 | l << 16 | s << 24)
}

/// The CPU reference: A and B after the clears, the writes and the copies.
fn expected(b: bool, x: u32, y: u32, l: u32, s: u32) -> u32 {
    let a = |x, y, l| written(x, y, l, s).unwrap_or(7);
    if !b {
        return a(x, y, l);
    }
    let ([sx, sy], [dx, dy], [w, h]) = PART;
    let (dx, dy) = (dx as u32, dy as u32);
    match l {
        1 => a(x, y, 0),
        _ if (dx..dx + w).contains(&x) && (dy..dy + h).contains(&y) => a(x - dx + sx as u32, y - dy + sy as u32, 1),
        _ => 9,
    }
}

/// Objects destroyed at the end, in reverse order of creation.
struct Owned<'c> {
    ctx: &'c Context,
    images: Vec<(vk::Image, vk::DeviceMemory, vk::ImageView)>,
    pipes: Vec<(vk::Pipeline, vk::PipelineLayout, vk::DescriptorSetLayout)>,
    pool: vk::DescriptorPool,
}

impl Drop for Owned<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: the device is idle; null handles are ignored.
        unsafe {
            d.destroy_descriptor_pool(self.pool, None);
            for &(p, l, s) in &self.pipes {
                d.destroy_pipeline(p, None);
                d.destroy_pipeline_layout(l, None);
                d.destroy_descriptor_set_layout(s, None);
            }
            for &(i, m, v) in &self.images {
                d.destroy_image_view(v, None);
                d.destroy_image(i, None);
                d.free_memory(m, None);
            }
        }
    }
}

fn usage() -> vk::ImageUsageFlags {
    use vk::ImageUsageFlags as U;
    U::STORAGE | U::SAMPLED | U::TRANSFER_SRC | U::TRANSFER_DST
}

/// A 4-sample image of every usage the test needs, with an array view of all its layers.
fn create_image(ctx: &Context, own: &mut Owned<'_>) -> Res<(vk::Image, vk::ImageView)> {
    create_image_of(ctx, own, FORMAT)
}

/// [`create_image`] in format `format`.
fn create_image_of(ctx: &Context, own: &mut Owned<'_>, format: vk::Format) -> Res<(vk::Image, vk::ImageView)> {
    let d = ctx.device();
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(format)
        .extent(vk::Extent3D { width: W, height: H, depth: 1 })
        .mip_levels(1)
        .array_layers(LAYERS)
        .samples(vk::SampleCountFlags::TYPE_4)
        .tiling(vk::ImageTiling::OPTIMAL)
        .usage(usage());
    // SAFETY: valid create infos; the objects are destroyed by Owned::drop.
    unsafe {
        let image = d.create_image(&info, None).map_err(vkerr("vkCreateImage"))?;
        own.images.push((image, vk::DeviceMemory::null(), vk::ImageView::null()));
        let req = d.get_image_memory_requirements(image);
        let props = ctx.instance().get_physical_device_memory_properties(ctx.physical_device());
        let ty = (0..props.memory_type_count)
            .find(|&i| req.memory_type_bits >> i & 1 != 0)
            .ok_or_else(|| Error::Unsupported("no memory type for the image".into()))?;
        let memory = d
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty), None)
            .map_err(vkerr("vkAllocateMemory"))?;
        own.images.last_mut().expect("pushed").1 = memory;
        d.bind_image_memory(image, memory, 0).map_err(vkerr("vkBindImageMemory"))?;
        let view = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D_ARRAY)
            .format(format)
            .subresource_range(range());
        let view = d.create_image_view(&view, None).map_err(vkerr("vkCreateImageView"))?;
        own.images.last_mut().expect("pushed").2 = view;
        Ok((image, view))
    }
}

fn range() -> vk::ImageSubresourceRange {
    vk::ImageSubresourceRange {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        base_mip_level: 0,
        level_count: 1,
        base_array_layer: 0,
        layer_count: LAYERS,
    }
}

/// A compute pipeline of `spirv` over one set of `types` bindings.
fn create_pipe(
    ctx: &Context,
    own: &mut Owned<'_>,
    spirv: &[u8],
    types: &[vk::DescriptorType],
) -> Res<(vk::Pipeline, vk::PipelineLayout, vk::DescriptorSetLayout)> {
    let d = ctx.device();
    let bindings: Vec<_> = types
        .iter()
        .enumerate()
        .map(|(i, &t)| {
            vk::DescriptorSetLayoutBinding::default()
                .binding(i as u32)
                .descriptor_type(t)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE)
        })
        .collect();
    let words = spirv_words(spirv)?;
    // SAFETY: valid create infos; the objects are destroyed by Owned::drop.
    unsafe {
        let set = d
            .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
            .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
        own.pipes.push((vk::Pipeline::null(), vk::PipelineLayout::null(), set));
        let sets = [set];
        let layout = d
            .create_pipeline_layout(&vk::PipelineLayoutCreateInfo::default().set_layouts(&sets), None)
            .map_err(vkerr("vkCreatePipelineLayout"))?;
        own.pipes.last_mut().expect("pushed").1 = layout;
        let module = d
            .create_shader_module(&vk::ShaderModuleCreateInfo::default().code(&words), None)
            .map_err(vkerr("vkCreateShaderModule"))?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(c"main");
        let r = d.create_compute_pipelines(
            vk::PipelineCache::null(),
            &[vk::ComputePipelineCreateInfo::default().stage(stage).layout(layout)],
            None,
        );
        d.destroy_shader_module(module, None);
        let pipeline = r.map_err(|(_, e)| Error::Vulkan { call: "vkCreateComputePipelines", result: e })?[0];
        own.pipes.last_mut().expect("pushed").0 = pipeline;
        Ok((pipeline, layout, set))
    }
}

/// The image's whole range (`range`) through the shared barrier helper.
fn barrier(
    image: vk::Image,
    layouts: (vk::ImageLayout, vk::ImageLayout),
    access: (vk::AccessFlags2, vk::AccessFlags2),
    stages: (vk::PipelineStageFlags2, vk::PipelineStageFlags2),
) -> vk::ImageMemoryBarrier2<'static> {
    softnavi_tests::image::barrier(image, range(), layouts, access, stages)
}

/// Why the device cannot run the test, if it cannot.
fn unsupported(ctx: &Context) -> Option<String> {
    let (i, pd) = (ctx.instance(), ctx.physical_device());
    // SAFETY: plain queries.
    let (f, props) = unsafe {
        let f = i.get_physical_device_features(pd);
        let p = i.get_physical_device_image_format_properties(
            pd,
            FORMAT,
            vk::ImageType::TYPE_2D,
            vk::ImageTiling::OPTIMAL,
            usage(),
            vk::ImageCreateFlags::empty(),
        );
        (f, p)
    };
    if f.shader_storage_image_multisample != vk::TRUE {
        return Some("no shaderStorageImageMultisample".into());
    }
    match props {
        Ok(p) if p.sample_counts.contains(vk::SampleCountFlags::TYPE_4) => None,
        Ok(p) => Some(format!("R32_UINT storage images have sample counts {:?}", p.sample_counts)),
        Err(e) => Some(format!("R32_UINT storage images: {e}")),
    }
}

fn run(ctx: &Context, resolve: bool) -> Res<Result<(), String>> {
    let d = ctx.device();
    let mut own = Owned { ctx, images: Vec::new(), pipes: Vec::new(), pool: vk::DescriptorPool::null() };
    let (a, av) = create_image(ctx, &mut own)?;
    let (b, bv) = create_image(ctx, &mut own)?;
    use vk::DescriptorType as T;
    let write =
        create_pipe(ctx, &mut own, include_bytes!(concat!(env!("OUT_DIR"), "/msaa_write.spv")), &[T::STORAGE_IMAGE])?;
    let read = create_pipe(
        ctx,
        &mut own,
        include_bytes!(concat!(env!("OUT_DIR"), "/msaa_read.spv")),
        &[T::STORAGE_IMAGE, T::COMBINED_IMAGE_SAMPLER, T::STORAGE_BUFFER],
    )?;
    let words = 8 + 2 * (W * H * LAYERS * SAMPLES) as usize;
    let outs = [0, 1].map(|_| {
        ctx.create_buffer("out", 4 * words as u64, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::GpuToCpu)
    });
    let [oa, ob] = outs;
    let (oa, ob) = (oa?, ob?);
    // SAFETY: valid create infos; the sampler is destroyed below, the rest by Owned::drop.
    let sampler =
        unsafe { d.create_sampler(&vk::SamplerCreateInfo::default(), None) }.map_err(vkerr("vkCreateSampler"))?;
    let sizes = [
        vk::DescriptorPoolSize::default().ty(T::STORAGE_IMAGE).descriptor_count(3),
        vk::DescriptorPoolSize::default().ty(T::COMBINED_IMAGE_SAMPLER).descriptor_count(2),
        vk::DescriptorPoolSize::default().ty(T::STORAGE_BUFFER).descriptor_count(2),
    ];
    // SAFETY: as above.
    own.pool = unsafe {
        d.create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(3).pool_sizes(&sizes), None)
    }
    .map_err(vkerr("vkCreateDescriptorPool"))?;
    let layouts = [write.2, read.2, read.2];
    // SAFETY: a live pool with room for the three sets.
    let sets = unsafe {
        d.allocate_descriptor_sets(
            &vk::DescriptorSetAllocateInfo::default().descriptor_pool(own.pool).set_layouts(&layouts),
        )
    }
    .map_err(vkerr("vkAllocateDescriptorSets"))?;
    let general = vk::ImageLayout::GENERAL;
    let img = |v| [vk::DescriptorImageInfo::default().image_view(v).image_layout(general).sampler(sampler)];
    let (ia, ib) = (img(av), img(bv));
    let (ba, bb) = (
        [vk::DescriptorBufferInfo::default().buffer(oa.handle()).range(vk::WHOLE_SIZE)],
        [vk::DescriptorBufferInfo::default().buffer(ob.handle()).range(vk::WHOLE_SIZE)],
    );
    let w = |set, binding, ty| vk::WriteDescriptorSet::default().dst_set(set).dst_binding(binding).descriptor_type(ty);
    let writes = [
        w(sets[0], 0, T::STORAGE_IMAGE).image_info(&ia),
        w(sets[1], 0, T::STORAGE_IMAGE).image_info(&ia),
        w(sets[1], 1, T::COMBINED_IMAGE_SAMPLER).image_info(&ia),
        w(sets[1], 2, T::STORAGE_BUFFER).buffer_info(&ba),
        w(sets[2], 0, T::STORAGE_IMAGE).image_info(&ib),
        w(sets[2], 1, T::COMBINED_IMAGE_SAMPLER).image_info(&ib),
        w(sets[2], 2, T::STORAGE_BUFFER).buffer_info(&bb),
    ];
    // SAFETY: live sets, views, sampler and buffers; no set is in use.
    unsafe { d.update_descriptor_sets(&writes, &[]) };
    let r = record_and_run(ctx, [a, b], &sets, write.0, write.1, read.0, read.1);
    // SAFETY: the device is idle after the submission.
    unsafe { d.destroy_sampler(sampler, None) };
    r?;
    for (k, out) in [oa, ob].iter().enumerate() {
        let got: Vec<u32> = out.read::<u32>(words)?;
        let info = [SAMPLES, SAMPLES, W, H, LAYERS, W, H, LAYERS];
        if got[..8] != info {
            return Ok(Err(format!("image {k}: samples and sizes {:?} (expected {info:?})", &got[..8])));
        }
        for l in 0..LAYERS {
            for y in 0..H {
                for x in 0..W {
                    for s in 0..SAMPLES {
                        let at = 8 + 2 * ((((l * H + y) * W + x) * SAMPLES + s) as usize);
                        let want = expected(k == 1, x, y, l, s);
                        if got[at..at + 2] != [want, want] {
                            return Ok(Err(format!(
                                "image {k} ({x}, {y}) layer {l} sample {s}: imageLoad {:#x}, texelFetch {:#x} (expected {want:#x})",
                                got[at],
                                got[at + 1]
                            )));
                        }
                    }
                }
            }
        }
    }
    if resolve {
        return match resolve_check(ctx, a, FORMAT, &|x, y, l| expected(false, x, y, l, 0))? {
            Ok(()) => float_resolve(ctx, &mut own),
            e => Ok(e),
        };
    }
    Ok(Ok(()))
}

/// `--resolve` of a float image: a shader writes every sample of a 4-sample R32_SFLOAT
/// array (msaa_write_f.comp), which resolves to the samples' mean.
fn float_resolve(ctx: &Context, own: &mut Owned<'_>) -> Res<Result<(), String>> {
    let f = vk::Format::R32_SFLOAT;
    let (img, view) = create_image_of(ctx, own, f)?;
    let spv = include_bytes!(concat!(env!("OUT_DIR"), "/msaa_write_f.spv"));
    let (pipe, layout, set_layout) = create_pipe(ctx, own, spv, &[vk::DescriptorType::STORAGE_IMAGE])?;
    let d = ctx.device();
    let sizes = [vk::DescriptorPoolSize::default().ty(vk::DescriptorType::STORAGE_IMAGE).descriptor_count(1)];
    // SAFETY: a valid create info; destroyed below.
    let pool = unsafe {
        d.create_descriptor_pool(&vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&sizes), None)
    }
    .map_err(vkerr("vkCreateDescriptorPool"))?;
    let r = (|| {
        let layouts = [set_layout];
        // SAFETY: a live pool with room for the set.
        let set = unsafe {
            d.allocate_descriptor_sets(
                &vk::DescriptorSetAllocateInfo::default().descriptor_pool(pool).set_layouts(&layouts),
            )
        }
        .map_err(vkerr("vkAllocateDescriptorSets"))?[0];
        let info = [vk::DescriptorImageInfo::default().image_view(view).image_layout(vk::ImageLayout::GENERAL)];
        let w = vk::WriteDescriptorSet::default()
            .dst_set(set)
            .descriptor_type(vk::DescriptorType::STORAGE_IMAGE)
            .image_info(&info);
        // SAFETY: a live set and view.
        unsafe { d.update_descriptor_sets(&[w], &[]) };
        ctx.submit_and_wait(|cmd| {
            use vk::{AccessFlags2 as A, ImageLayout as L, PipelineStageFlags2 as S};
            let to_general = barrier(
                img,
                (L::UNDEFINED, L::GENERAL),
                (A::NONE, A::SHADER_STORAGE_WRITE),
                (S::NONE, S::COMPUTE_SHADER),
            );
            // SAFETY: recording; every object lives until the submission completes.
            unsafe {
                d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&[to_general]));
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, pipe);
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, layout, 0, &[set], &[]);
                d.cmd_dispatch(cmd, W.div_ceil(8), H.div_ceil(8), LAYERS);
            }
            Ok(())
        })?;
        let mean = |x: u32, y: u32, l: u32| (x as f32 + 16.0 * y as f32 + 256.0 * l as f32 + 0.375).to_bits();
        resolve_check(ctx, img, f, &mean)
    })();
    // SAFETY: the device is idle after the submissions.
    unsafe { d.destroy_descriptor_pool(pool, None) };
    r
}

/// `--resolve`: vkCmdResolveImage of `a` (every layer, `format`) into a single-sampled
/// image, read back and compared with `want` (bits per texel): an integer format resolves
/// to sample 0 (Vulkan's "Resolving Multisample Images"), a float one here to the mean.
fn resolve_check(
    ctx: &Context,
    a: vk::Image,
    format: vk::Format,
    want: &dyn Fn(u32, u32, u32) -> u32,
) -> Res<Result<(), String>> {
    use softnavi_tests::image::{create_image as single, host_buffer, transfer_barrier, ImageDesc};
    let desc = ImageDesc::new(format, vk::ImageViewType::TYPE_2D_ARRAY, [W, H, 1], 1, LAYERS);
    let r = single(ctx, &desc)?;
    let out = host_buffer(ctx, "resolved", &vec![0; desc.bytes()])?;
    let (general, src_l, dst_l) =
        (vk::ImageLayout::GENERAL, vk::ImageLayout::TRANSFER_SRC_OPTIMAL, vk::ImageLayout::TRANSFER_DST_OPTIMAL);
    let layers = vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: 0,
        layer_count: LAYERS,
    };
    let region = vk::ImageResolve::default().src_subresource(layers).dst_subresource(layers).extent(vk::Extent3D {
        width: W,
        height: H,
        depth: 1,
    });
    let d = ctx.device();
    ctx.submit_and_wait(|cmd| {
        use vk::{AccessFlags2 as A, PipelineStageFlags2 as S};
        let from_shader =
            barrier(a, (general, src_l), (A::SHADER_STORAGE_READ, A::TRANSFER_READ), (S::COMPUTE_SHADER, S::RESOLVE));
        // SAFETY: recording.
        unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(&[from_shader])) };
        transfer_barrier(ctx, cmd, &[(r.image, vk::ImageLayout::UNDEFINED, dst_l)]);
        // SAFETY: recording; every object lives until the submission completes.
        unsafe { d.cmd_resolve_image(cmd, a, src_l, r.image, dst_l, &[region]) };
        transfer_barrier(ctx, cmd, &[(r.image, dst_l, src_l)]);
        // SAFETY: as above.
        unsafe { d.cmd_copy_image_to_buffer(cmd, r.image, src_l, out.handle(), &desc.regions()) };
        transfer_barrier(ctx, cmd, &[]);
        Ok(())
    })?;
    let got = out.read::<u32>((W * H * LAYERS) as usize)?;
    for l in 0..LAYERS {
        for y in 0..H {
            for x in 0..W {
                let (have, want) = (got[((l * H + y) * W + x) as usize], want(x, y, l));
                if have != want {
                    return Ok(Err(format!(
                        "resolved {format:?} ({x}, {y}) layer {l}: {have:#x} (expected {want:#x})"
                    )));
                }
            }
        }
    }
    Ok(Ok(()))
}

/// Clears, writes, copies and reads, in one submission.
fn record_and_run(
    ctx: &Context,
    [a, b]: [vk::Image; 2],
    sets: &[vk::DescriptorSet],
    write: vk::Pipeline,
    write_layout: vk::PipelineLayout,
    read: vk::Pipeline,
    read_layout: vk::PipelineLayout,
) -> Res<()> {
    let d = ctx.device();
    use vk::{AccessFlags2 as A, ImageLayout as L, PipelineStageFlags2 as S};
    let deps = |cmd, bs: &[vk::ImageMemoryBarrier2<'_>]| {
        // SAFETY: recording.
        unsafe { d.cmd_pipeline_barrier2(cmd, &vk::DependencyInfo::default().image_memory_barriers(bs)) }
    };
    let clear = |v: u32| vk::ClearColorValue { uint32: [v, 0, 0, 1] };
    let layer = |l| vk::ImageSubresourceLayers {
        aspect_mask: vk::ImageAspectFlags::COLOR,
        mip_level: 0,
        base_array_layer: l,
        layer_count: 1,
    };
    let ([sx, sy], [dx, dy], [pw, ph]) = PART;
    let regions = [
        vk::ImageCopy::default().src_subresource(layer(0)).dst_subresource(layer(1)).extent(vk::Extent3D {
            width: W,
            height: H,
            depth: 1,
        }),
        vk::ImageCopy::default()
            .src_subresource(layer(1))
            .src_offset(vk::Offset3D { x: sx, y: sy, z: 0 })
            .dst_subresource(layer(0))
            .dst_offset(vk::Offset3D { x: dx, y: dy, z: 0 })
            .extent(vk::Extent3D { width: pw, height: ph, depth: 1 }),
    ];
    ctx.submit_and_wait(|cmd| {
        let to_dst =
            |i| barrier(i, (L::UNDEFINED, L::TRANSFER_DST_OPTIMAL), (A::NONE, A::TRANSFER_WRITE), (S::NONE, S::CLEAR));
        deps(cmd, &[to_dst(a), to_dst(b)]);
        // SAFETY: recording; every object lives until the submission completes.
        unsafe {
            d.cmd_clear_color_image(cmd, a, L::TRANSFER_DST_OPTIMAL, &clear(7), &[range()]);
            d.cmd_clear_color_image(cmd, b, L::TRANSFER_DST_OPTIMAL, &clear(9), &[range()]);
        }
        let rw = A::SHADER_STORAGE_READ | A::SHADER_STORAGE_WRITE;
        deps(
            cmd,
            &[barrier(
                a,
                (L::TRANSFER_DST_OPTIMAL, L::GENERAL),
                (A::TRANSFER_WRITE, rw),
                (S::CLEAR, S::COMPUTE_SHADER),
            )],
        );
        // SAFETY: as above.
        unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, write);
            d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, write_layout, 0, &[sets[0]], &[]);
            d.cmd_dispatch(cmd, W.div_ceil(8), H.div_ceil(8), LAYERS);
        }
        deps(
            cmd,
            &[
                barrier(
                    a,
                    (L::GENERAL, L::TRANSFER_SRC_OPTIMAL),
                    (A::SHADER_STORAGE_WRITE, A::TRANSFER_READ),
                    (S::COMPUTE_SHADER, S::COPY),
                ),
                barrier(
                    b,
                    (L::TRANSFER_DST_OPTIMAL, L::TRANSFER_DST_OPTIMAL),
                    (A::TRANSFER_WRITE, A::TRANSFER_WRITE),
                    (S::CLEAR, S::COPY),
                ),
            ],
        );
        // SAFETY: as above.
        unsafe { d.cmd_copy_image(cmd, a, L::TRANSFER_SRC_OPTIMAL, b, L::TRANSFER_DST_OPTIMAL, &regions) };
        let read_all = A::SHADER_STORAGE_READ | A::SHADER_SAMPLED_READ;
        deps(
            cmd,
            &[
                barrier(
                    a,
                    (L::TRANSFER_SRC_OPTIMAL, L::GENERAL),
                    (A::TRANSFER_READ, read_all),
                    (S::COPY, S::COMPUTE_SHADER),
                ),
                barrier(
                    b,
                    (L::TRANSFER_DST_OPTIMAL, L::GENERAL),
                    (A::TRANSFER_WRITE, read_all),
                    (S::COPY, S::COMPUTE_SHADER),
                ),
            ],
        );
        // SAFETY: as above.
        unsafe {
            d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, read);
            for set in &sets[1..3] {
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, read_layout, 0, &[*set], &[]);
                d.cmd_dispatch(cmd, W.div_ceil(8), H.div_ceil(8), LAYERS);
            }
        }
        ctx.cmd_compute_to_host_barrier(cmd);
        Ok(())
    })?;
    Ok(())
}

fn main() -> ExitCode {
    let ctx = match app::context("softnavi-msaa", true) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut report = Report::default();
    match unsupported(&ctx) {
        Some(why) => println!("SKIP msaa_storage_r32ui_4x: {why}"),
        None => report.case("msaa_storage_r32ui_4x", run(&ctx, std::env::args().any(|a| a == "--resolve"))),
    }
    report.finish(&ctx)
}
