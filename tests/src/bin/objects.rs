//! `softnavi-objects`: every core command of Vulkan 1.0-1.3 is returned by
//! `vkGetDeviceProcAddr` / `vkGetInstanceProcAddr` (the lists are ash's tables, generated
//! from the Khronos registry), and the objects that exist without a graphics queue are
//! real: a linear image's memory requirements, binding and subresource layouts (checked
//! for what the specification guarantees, so that the same checks hold on any driver),
//! image views, samplers, render passes (both versions) and framebuffers (the image
//! transfer commands are `softnavi-transfer`'s). With `--refused`
//! it also records `vkCmdDraw` on a compute queue's command buffer and prints what
//! `vkEndCommandBuffer` returns.
//!
//! Prints `objects: ok` and exits 0; 1 on a failed check, 2 on a Vulkan error.

use std::ffi::CStr;
use std::process::ExitCode;

use ash::vk;

fn fail(msg: String) -> Result<(), String> {
    Err(msg)
}

/// Layer enumeration is the loader's, not a driver's.
fn loader_owned(n: &CStr) -> bool {
    n == c"vkEnumerateInstanceLayerProperties" || n == c"vkEnumerateDeviceLayerProperties"
}

fn check_commands(entry: &ash::Entry, instance: &ash::Instance, device: &ash::Device) -> Result<(), String> {
    // SAFETY: live handles and NUL-terminated names.
    let inst = |n: &CStr| unsafe { entry.get_instance_proc_addr(instance.handle(), n.as_ptr()) }.is_some();
    // SAFETY: as above.
    let dev = |n: &CStr| unsafe { instance.get_device_proc_addr(device.handle(), n.as_ptr()) }.is_some();
    let mut missing = Vec::new();
    let mut probe = |n: &CStr, found: bool| {
        if !found && !loader_owned(n) {
            missing.push(n.to_string_lossy().into_owned());
        }
        std::ptr::null()
    };
    // Each table's load asks for every command of its version by name.
    let _ = ash::InstanceFnV1_0::load(|n| probe(n, inst(n)));
    let _ = ash::InstanceFnV1_1::load(|n| probe(n, inst(n)));
    let _ = ash::InstanceFnV1_3::load(|n| probe(n, inst(n)));
    let _ = ash::DeviceFnV1_0::load(|n| probe(n, dev(n)));
    let _ = ash::DeviceFnV1_1::load(|n| probe(n, dev(n)));
    let _ = ash::DeviceFnV1_2::load(|n| probe(n, dev(n)));
    let _ = ash::DeviceFnV1_3::load(|n| probe(n, dev(n)));
    if !missing.is_empty() {
        return fail(format!("core commands not returned: {missing:?}"));
    }
    println!("objects: every core command is returned");
    Ok(())
}

/// A 2D RGBA8 linear image, 100x60, 3 levels, 2 layers: requirements, binding and the
/// layouts of every subresource.
fn check_image(instance: &ash::Instance, pd: vk::PhysicalDevice, device: &ash::Device) -> Result<(), String> {
    let e = vk::Extent3D { width: 100, height: 60, depth: 1 };
    let info = vk::ImageCreateInfo::default()
        .image_type(vk::ImageType::TYPE_2D)
        .format(vk::Format::R8G8B8A8_UNORM)
        .extent(e)
        .mip_levels(3)
        .array_layers(2)
        .samples(vk::SampleCountFlags::TYPE_1)
        .tiling(vk::ImageTiling::LINEAR)
        .usage(vk::ImageUsageFlags::TRANSFER_SRC)
        .initial_layout(vk::ImageLayout::UNDEFINED);
    // SAFETY (whole block): valid create infos; every handle belongs to `device` and is
    // destroyed before returning.
    unsafe {
        let image = device.create_image(&info, None).map_err(|r| format!("vkCreateImage: {r:?}"))?;
        let req = device.get_image_memory_requirements(image);
        let props = instance.get_physical_device_memory_properties(pd);
        let ty = (0..props.memory_type_count).find(|&i| req.memory_type_bits & (1 << i) != 0);
        let Some(ty) = ty else { return fail(format!("no memory type for the image: {req:?}")) };
        let mem = device
            .allocate_memory(&vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty), None)
            .map_err(|r| format!("vkAllocateMemory: {r:?}"))?;
        device.bind_image_memory(image, mem, 0).map_err(|r| format!("vkBindImageMemory: {r:?}"))?;
        let mut spans = Vec::new();
        for level in 0..3 {
            let w = (e.width >> level).max(1) as u64;
            let h = (e.height >> level).max(1) as u64;
            for layer in 0..2 {
                let sub = vk::ImageSubresource {
                    aspect_mask: vk::ImageAspectFlags::COLOR,
                    mip_level: level,
                    array_layer: layer,
                };
                let l = device.get_image_subresource_layout(image, sub);
                // The bytes the texels occupy (lavapipe reports a `size` up to the image's end).
                let used = l.row_pitch * (h - 1) + 4 * w;
                if l.row_pitch < 4 * w || l.size < used || l.offset + used > req.size {
                    return fail(format!(
                        "level {level} layer {layer} of a {w}x{h} RGBA8 image: {l:?}, memory {req:?}"
                    ));
                }
                spans.push((l.offset, l.offset + used));
            }
        }
        spans.sort_unstable();
        if spans.windows(2).any(|s| s[0].1 > s[1].0) {
            return fail(format!("subresources overlap: {spans:?}"));
        }
        let range =
            vk::ImageSubresourceRange::default().aspect_mask(vk::ImageAspectFlags::COLOR).level_count(1).layer_count(1);
        let view_info = vk::ImageViewCreateInfo::default()
            .image(image)
            .view_type(vk::ImageViewType::TYPE_2D)
            .format(info.format)
            .subresource_range(range);
        let view = device.create_image_view(&view_info, None).map_err(|r| format!("vkCreateImageView: {r:?}"))?;
        let sampler = device
            .create_sampler(&vk::SamplerCreateInfo::default().max_lod(vk::LOD_CLAMP_NONE), None)
            .map_err(|r| format!("vkCreateSampler: {r:?}"))?;
        let attachment = [vk::AttachmentDescription::default()
            .format(info.format)
            .samples(vk::SampleCountFlags::TYPE_1)
            .final_layout(vk::ImageLayout::GENERAL)];
        let color = [vk::AttachmentReference { attachment: 0, layout: vk::ImageLayout::GENERAL }];
        let subpass = [vk::SubpassDescription::default().color_attachments(&color)];
        let rp_info = vk::RenderPassCreateInfo::default().attachments(&attachment).subpasses(&subpass);
        let rp = device.create_render_pass(&rp_info, None).map_err(|r| format!("vkCreateRenderPass: {r:?}"))?;
        let views = [view];
        let fb_info =
            vk::FramebufferCreateInfo::default().render_pass(rp).attachments(&views).width(100).height(60).layers(1);
        let fb = device.create_framebuffer(&fb_info, None).map_err(|r| format!("vkCreateFramebuffer: {r:?}"))?;
        let g = device.get_render_area_granularity(rp);
        if g.width == 0 || g.height == 0 {
            return fail(format!("render area granularity {g:?}"));
        }
        let att2 = [vk::AttachmentDescription2::default().format(info.format).samples(vk::SampleCountFlags::TYPE_1)];
        let sub2 = [vk::SubpassDescription2::default()];
        let rp2 = device
            .create_render_pass2(&vk::RenderPassCreateInfo2::default().attachments(&att2).subpasses(&sub2), None)
            .map_err(|r| format!("vkCreateRenderPass2: {r:?}"))?;
        device.destroy_render_pass(rp2, None);
        device.destroy_framebuffer(fb, None);
        device.destroy_render_pass(rp, None);
        device.destroy_sampler(sampler, None);
        device.destroy_image_view(view, None);
        device.destroy_image(image, None);
        device.free_memory(mem, None);
    }
    println!("objects: image, view, sampler, render passes and framebuffer");
    Ok(())
}

/// A host-visible buffer of `size` bytes with its memory, mapped.
/// Records vkCmdDraw and prints what vkEndCommandBuffer says.
fn refused(device: &ash::Device, family: u32) -> Result<(), String> {
    // SAFETY: valid create infos; the pool is destroyed before returning.
    unsafe {
        let pool = device
            .create_command_pool(&vk::CommandPoolCreateInfo::default().queue_family_index(family), None)
            .map_err(|r| format!("vkCreateCommandPool: {r:?}"))?;
        let alloc = vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1);
        let cmd = device.allocate_command_buffers(&alloc).map_err(|r| format!("vkAllocateCommandBuffers: {r:?}"))?[0];
        device.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()).map_err(|r| format!("{r:?}"))?;
        device.cmd_draw(cmd, 3, 1, 0, 0);
        let r = device.end_command_buffer(cmd);
        println!("objects: vkEndCommandBuffer after vkCmdDraw: {r:?}");
        device.destroy_command_pool(pool, None);
    }
    Ok(())
}

fn run(refuse: bool) -> Result<(), String> {
    // SAFETY: loading the system Vulkan loader; nothing else in this process unloads it.
    let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("cannot load the Vulkan loader: {e}"))?;
    let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_3);
    // SAFETY (whole block): valid create infos; everything is destroyed before returning.
    unsafe {
        let instance = entry
            .create_instance(&vk::InstanceCreateInfo::default().application_info(&app), None)
            .map_err(|r| format!("vkCreateInstance: {r:?}"))?;
        let pd = *instance.enumerate_physical_devices().map_err(|r| format!("{r:?}"))?.first().ok_or("no device")?;
        let families = instance.get_physical_device_queue_family_properties(pd);
        let family =
            families.iter().position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE)).ok_or("no compute queue")?;
        let prio = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family as u32).queue_priorities(&prio)];
        let device = instance
            .create_device(pd, &vk::DeviceCreateInfo::default().queue_create_infos(&queues), None)
            .map_err(|r| format!("vkCreateDevice: {r:?}"))?;
        let r = check_commands(&entry, &instance, &device)
            .and_then(|()| check_image(&instance, pd, &device))
            .and_then(|()| if refuse { refused(&device, family as u32) } else { Ok(()) });
        device.destroy_device(None);
        instance.destroy_instance(None);
        r
    }
}

fn main() -> ExitCode {
    let refuse = std::env::args().any(|a| a == "--refused");
    match run(refuse) {
        Ok(()) => {
            println!("objects: ok");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("objects: {e}");
            ExitCode::from(1)
        }
    }
}
