//! `softnavi-rayquery [--validate]`: ray queries (VK_KHR_ray_query over
//! VK_KHR_acceleration_structure) in a compute shader. The app builds a bottom-level
//! structure of 64 random triangles and a top-level one of two instances of it (one moved,
//! turned and scaled) on the device, traces 4,096 rays with `rayQueryProceedEXT`
//! (tests/shaders/rayquery.comp) twice — opaque, then also culling back-facing triangles —
//! and checks every closest hit (distance, primitive, instance custom index, barycentrics,
//! facing) and every miss against a CPU reference that intersects each ray with every
//! triangle in f64. Front-facing is as Vulkan (after DXR) defines it: the vertices appear
//! clockwise from the ray's origin in a left-handed frame, counter-clockwise in the
//! right-handed one the reference computes in. Rays whose answer a rounding could change
//! (a hit within 1e-4 of a triangle's edge or the extent's end, two hits at nearly the same
//! distance) are let through.
//!
//! softnavi's own ICD offers no ray queries; RADV does on gfx1100 (image_bvh64_intersect_ray
//! in its shaders, its structures built by its compute shaders): this runs on RADV over the
//! model. Prints `PASS rayquery` or `FAIL rayquery: why` (exit 1), `SKIP` where the device
//! lacks the extensions (exit 0), exit 2 on a Vulkan error, 3 on validation messages.

use std::process::ExitCode;

use ash::vk;
use softnavi_examples::spirv_words;
use softnavi_tests::pipeline::ComputePipeline;
use softnavi_tests::vkr;

const SHADER: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/rayquery.spv"));
const TRIANGLES: usize = 64;
const RAYS: usize = 4096;
/// Instance custom indices, checked in the hits.
const CUSTOM: [u32; 2] = [5, 77];
/// gl_RayFlagsOpaqueEXT, gl_RayFlagsCullBackFacingTrianglesEXT.
const OPAQUE: u32 = 0x1;
const CULL_BACK: u32 = 0x10;
/// The second instance's transform (row-major 3x4): a quarter turn about z, half size,
/// moved by (3, 0, 1).
const MOVED: [f32; 12] = [0.0, -0.5, 0.0, 3.0, 0.5, 0.0, 0.0, 0.0, 0.0, 0.0, 0.5, 1.0];
const IDENTITY: [f32; 12] = [1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 1.0, 0.0];

type R<T> = Result<T, String>;

/// A deterministic generator (xorshift), for the scene and the rays.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.next()
    }
}

/// A host-visible buffer with a device address.
struct Buf {
    buffer: vk::Buffer,
    memory: vk::DeviceMemory,
    ptr: *mut u8,
    addr: u64,
    size: u64,
}

struct Gpu {
    _entry: ash::Entry,
    inst: ash::Instance,
    phys: vk::PhysicalDevice,
    dev: ash::Device,
    accel: ash::khr::acceleration_structure::Device,
    queue: vk::Queue,
    family: u32,
    bufs: Vec<Buf>,
}

impl Gpu {
    /// The first device that offers ray queries; `Ok(None)` where none does.
    fn new(validate: bool) -> R<Option<Gpu>> {
        // SAFETY: loading the Vulkan loader.
        let entry = unsafe { ash::Entry::load() }.map_err(|e| format!("the Vulkan loader: {e}"))?;
        let app = vk::ApplicationInfo::default().api_version(vk::API_VERSION_1_2);
        let layers = [c"VK_LAYER_KHRONOS_validation".as_ptr()];
        let info = vk::InstanceCreateInfo::default().application_info(&app).enabled_layer_names(if validate {
            &layers[..]
        } else {
            &[]
        });
        // SAFETY: a valid create info.
        let inst = vkr("vkCreateInstance", unsafe { entry.create_instance(&info, None) })?;
        let wanted = [
            ash::khr::acceleration_structure::NAME,
            ash::khr::ray_query::NAME,
            ash::khr::deferred_host_operations::NAME,
        ];
        // SAFETY: a live instance.
        let devices = vkr("vkEnumeratePhysicalDevices", unsafe { inst.enumerate_physical_devices() })?;
        let offers = |p: vk::PhysicalDevice| {
            // SAFETY: a device of this instance.
            let exts = unsafe { inst.enumerate_device_extension_properties(p) }.unwrap_or_default();
            wanted.iter().all(|w| exts.iter().any(|e| e.extension_name_as_c_str().is_ok_and(|n| n == *w)))
        };
        let Some(phys) = devices.into_iter().find(|&p| offers(p)) else {
            // SAFETY: nothing made from it.
            unsafe { inst.destroy_instance(None) };
            return Ok(None);
        };
        // SAFETY: a device of this instance.
        let props = unsafe { inst.get_physical_device_properties(phys) };
        let name = props.device_name_as_c_str().unwrap_or(c"?").to_string_lossy().into_owned();
        println!("device: {name}");
        // SAFETY: as above.
        let families = unsafe { inst.get_physical_device_queue_family_properties(phys) };
        let family = families.iter().position(|f| f.queue_flags.contains(vk::QueueFlags::COMPUTE)).unwrap_or(0) as u32;
        let prio = [1.0];
        let queues = [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&prio)];
        let names: Vec<_> = wanted.iter().map(|n| n.as_ptr()).collect();
        let mut v12 = vk::PhysicalDeviceVulkan12Features::default().buffer_device_address(true);
        let mut accel = vk::PhysicalDeviceAccelerationStructureFeaturesKHR::default().acceleration_structure(true);
        let mut rq = vk::PhysicalDeviceRayQueryFeaturesKHR::default().ray_query(true);
        let info = vk::DeviceCreateInfo::default()
            .queue_create_infos(&queues)
            .enabled_extension_names(&names)
            .push_next(&mut v12)
            .push_next(&mut accel)
            .push_next(&mut rq);
        // SAFETY: a valid create info of supported extensions and features.
        let dev = vkr("vkCreateDevice", unsafe { inst.create_device(phys, &info, None) })?;
        // SAFETY: family and index requested above.
        let queue = unsafe { dev.get_device_queue(family, 0) };
        let accel = ash::khr::acceleration_structure::Device::new(&inst, &dev);
        Ok(Some(Gpu { _entry: entry, inst, phys, dev, accel, queue, family, bufs: Vec::new() }))
    }

    /// A host-visible, coherent buffer of `size` bytes with a device address; its index.
    fn buffer(&mut self, size: u64, usage: vk::BufferUsageFlags) -> R<usize> {
        let usage = usage | vk::BufferUsageFlags::SHADER_DEVICE_ADDRESS;
        // SAFETY: valid create and allocate infos; the memory is bound once, then mapped.
        unsafe {
            let buffer = vkr(
                "vkCreateBuffer",
                self.dev.create_buffer(&vk::BufferCreateInfo::default().size(size).usage(usage), None),
            )?;
            let req = self.dev.get_buffer_memory_requirements(buffer);
            let mem = self.inst.get_physical_device_memory_properties(self.phys);
            let want = vk::MemoryPropertyFlags::HOST_VISIBLE | vk::MemoryPropertyFlags::HOST_COHERENT;
            let ty = (0..mem.memory_type_count)
                .find(|&i| {
                    req.memory_type_bits >> i & 1 != 0 && mem.memory_types[i as usize].property_flags.contains(want)
                })
                .ok_or("no host-visible coherent memory type for a buffer")?;
            let mut flags = vk::MemoryAllocateFlagsInfo::default().flags(vk::MemoryAllocateFlags::DEVICE_ADDRESS);
            let alloc =
                vk::MemoryAllocateInfo::default().allocation_size(req.size).memory_type_index(ty).push_next(&mut flags);
            let memory = vkr("vkAllocateMemory", self.dev.allocate_memory(&alloc, None))?;
            vkr("vkBindBufferMemory", self.dev.bind_buffer_memory(buffer, memory, 0))?;
            let ptr = vkr("vkMapMemory", self.dev.map_memory(memory, 0, vk::WHOLE_SIZE, vk::MemoryMapFlags::empty()))?;
            std::ptr::write_bytes(ptr as *mut u8, 0, size as usize);
            let addr = self.dev.get_buffer_device_address(&vk::BufferDeviceAddressInfo::default().buffer(buffer));
            self.bufs.push(Buf { buffer, memory, ptr: ptr as *mut u8, addr, size });
        }
        Ok(self.bufs.len() - 1)
    }

    fn write<T: Copy>(&self, b: usize, data: &[T]) {
        let bytes = std::mem::size_of_val(data);
        assert!(bytes as u64 <= self.bufs[b].size, "the buffer holds the data");
        // SAFETY: mapped, coherent, large enough (checked); the GPU is not using it.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr() as *const u8, self.bufs[b].ptr, bytes) };
    }

    fn read_f32(&self, b: usize, n: usize) -> Vec<f32> {
        assert!(n as u64 * 4 <= self.bufs[b].size, "the buffer holds the values");
        // SAFETY: as in `write`; f32 has no invalid bit patterns.
        unsafe { std::slice::from_raw_parts(self.bufs[b].ptr as *const f32, n) }.to_vec()
    }

    /// Records with `record` into a new command buffer, submits it and waits.
    fn submit(&self, record: impl FnOnce(vk::CommandBuffer)) -> R<()> {
        let d = &self.dev;
        // SAFETY: objects made here are destroyed here after the wait.
        unsafe {
            let pool = vkr(
                "vkCreateCommandPool",
                d.create_command_pool(&vk::CommandPoolCreateInfo::default().queue_family_index(self.family), None),
            )?;
            let info = vk::CommandBufferAllocateInfo::default().command_pool(pool).command_buffer_count(1);
            let cmd = vkr("vkAllocateCommandBuffers", d.allocate_command_buffers(&info))?[0];
            vkr("vkBeginCommandBuffer", d.begin_command_buffer(cmd, &vk::CommandBufferBeginInfo::default()))?;
            record(cmd);
            vkr("vkEndCommandBuffer", d.end_command_buffer(cmd))?;
            let fence = vkr("vkCreateFence", d.create_fence(&vk::FenceCreateInfo::default(), None))?;
            let cmds = [cmd];
            let r = d
                .queue_submit(self.queue, &[vk::SubmitInfo::default().command_buffers(&cmds)], fence)
                .and_then(|_| d.wait_for_fences(&[fence], true, u64::MAX));
            d.destroy_fence(fence, None);
            d.destroy_command_pool(pool, None);
            vkr("vkQueueSubmit / vkWaitForFences", r)
        }
    }

    /// A global memory barrier from `src` to `dst` stages and accesses.
    fn barrier(
        &self,
        cmd: vk::CommandBuffer,
        src: (vk::PipelineStageFlags, vk::AccessFlags),
        dst: (vk::PipelineStageFlags, vk::AccessFlags),
    ) {
        let mb = [vk::MemoryBarrier::default().src_access_mask(src.1).dst_access_mask(dst.1)];
        // SAFETY: recording.
        unsafe { self.dev.cmd_pipeline_barrier(cmd, src.0, dst.0, vk::DependencyFlags::empty(), &mb, &[], &[]) };
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        // SAFETY: the device is idle after `submit`'s waits; everything made from it goes first.
        unsafe {
            let _ = self.dev.device_wait_idle();
            for b in &self.bufs {
                self.dev.destroy_buffer(b.buffer, None);
                self.dev.free_memory(b.memory, None);
            }
            self.dev.destroy_device(None);
            self.inst.destroy_instance(None);
        }
    }
}

const AS_BUILD: (vk::PipelineStageFlags, vk::AccessFlags) =
    (vk::PipelineStageFlags::ACCELERATION_STRUCTURE_BUILD_KHR, vk::AccessFlags::ACCELERATION_STRUCTURE_WRITE_KHR);

/// Builds one acceleration structure from `geometry` (`count` primitives) on the device.
fn build(
    gpu: &mut Gpu,
    ty: vk::AccelerationStructureTypeKHR,
    geometry: vk::AccelerationStructureGeometryKHR,
    count: u32,
) -> R<(vk::AccelerationStructureKHR, u64)> {
    let geoms = [geometry];
    let mut info = vk::AccelerationStructureBuildGeometryInfoKHR::default()
        .ty(ty)
        .flags(vk::BuildAccelerationStructureFlagsKHR::PREFER_FAST_TRACE)
        .mode(vk::BuildAccelerationStructureModeKHR::BUILD)
        .geometries(&geoms);
    let mut sizes = vk::AccelerationStructureBuildSizesInfoKHR::default();
    // SAFETY: a valid build info.
    unsafe {
        gpu.accel.get_acceleration_structure_build_sizes(
            vk::AccelerationStructureBuildTypeKHR::DEVICE,
            &info,
            &[count],
            &mut sizes,
        )
    };
    let storage =
        gpu.buffer(sizes.acceleration_structure_size, vk::BufferUsageFlags::ACCELERATION_STRUCTURE_STORAGE_KHR)?;
    let scratch = gpu.buffer(sizes.build_scratch_size.max(256) + 256, vk::BufferUsageFlags::STORAGE_BUFFER)?;
    let create = vk::AccelerationStructureCreateInfoKHR::default()
        .buffer(gpu.bufs[storage].buffer)
        .size(sizes.acceleration_structure_size)
        .ty(ty);
    // SAFETY: a valid create info over a live buffer.
    let accel =
        vkr("vkCreateAccelerationStructureKHR", unsafe { gpu.accel.create_acceleration_structure(&create, None) })?;
    info = info
        .dst_acceleration_structure(accel)
        .scratch_data(vk::DeviceOrHostAddressKHR { device_address: (gpu.bufs[scratch].addr + 255) & !255 });
    let range = [vk::AccelerationStructureBuildRangeInfoKHR::default().primitive_count(count)];
    gpu.submit(|cmd| {
        // SAFETY: recording; every buffer lives until the wait.
        unsafe { gpu.accel.cmd_build_acceleration_structures(cmd, &[info], &[&range]) };
        gpu.barrier(cmd, AS_BUILD, (vk::PipelineStageFlags::ALL_COMMANDS, vk::AccessFlags::MEMORY_READ));
    })?;
    let ai = vk::AccelerationStructureDeviceAddressInfoKHR::default().acceleration_structure(accel);
    // SAFETY: a live structure.
    let addr = unsafe { gpu.accel.get_acceleration_structure_device_address(&ai) };
    Ok((accel, addr))
}

/// The scene: triangles (object space) and the rays (origin, tmin, direction, tmax).
struct Scene {
    tris: Vec<[[f64; 3]; 3]>,
    rays: Vec<([f64; 3], f64, [f64; 3], f64)>,
}

fn scene() -> Scene {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let tris = (0..TRIANGLES)
        .map(|_| {
            let c = [rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), rng.range(-2.0, 2.0)];
            std::array::from_fn(|_| std::array::from_fn(|k| c[k] + rng.range(-0.7, 0.7)))
        })
        .collect();
    let rays = (0..RAYS)
        .map(|i| {
            let o: [f64; 3] = std::array::from_fn(|_| rng.range(-6.0, 6.0));
            let target: [f64; 3] = [rng.range(-2.5, 4.0), rng.range(-2.5, 2.5), rng.range(-2.5, 2.5)];
            let d = std::array::from_fn(|k| target[k] - o[k]);
            // Every eighth ray ends short of its target: the extent cuts hits off.
            (o, 0.0, d, if i % 8 == 0 { 0.8 } else { 1.0e4 })
        })
        .collect();
    Scene { tris, rays }
}

/// `m` (row-major 3x4) applied to point `p`.
fn xform(m: &[f32; 12], p: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|r| (0..3).map(|c| m[r * 4 + c] as f64 * p[c]).sum::<f64>() + m[r * 4 + 3] as f64)
}

fn sub(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    std::array::from_fn(|k| a[k] - b[k])
}
fn cross(a: [f64; 3], b: [f64; 3]) -> [f64; 3] {
    [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
}
fn dot(a: [f64; 3], b: [f64; 3]) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}

/// A CPU hit: t, primitive, instance, barycentrics (of v1 and v2), whether the ray meets
/// the front (the vertices counter-clockwise seen from its origin: dot(n, d) < 0 for
/// n = (v1 - v0) x (v2 - v0)), and the distance to an edge in barycentric terms.
#[derive(Clone, Copy)]
struct Hit {
    t: f64,
    prim: usize,
    inst: usize,
    uv: [f64; 2],
    front: bool,
    margin: f64,
}

/// Every hit of ray `r`, nearest first (Möller–Trumbore in f64, world space).
fn hits(s: &Scene, r: usize) -> Vec<Hit> {
    let (o, tmin, d, tmax) = s.rays[r];
    let mut out = Vec::new();
    for (inst, m) in [IDENTITY, MOVED].iter().enumerate() {
        for (prim, t) in s.tris.iter().enumerate() {
            let [v0, v1, v2] = t.map(|v| xform(m, v));
            let (e1, e2) = (sub(v1, v0), sub(v2, v0));
            let p = cross(d, e2);
            let det = dot(e1, p);
            if det.abs() < 1e-12 {
                continue;
            }
            let tv = sub(o, v0);
            let u = dot(tv, p) / det;
            let q = cross(tv, e1);
            let v = dot(d, q) / det;
            let t = dot(e2, q) / det;
            let margin = u.min(v).min(1.0 - u - v);
            if margin >= -1e-4 && t >= tmin - 1e-6 && t <= tmax + 1e-6 {
                out.push(Hit { t, prim, inst, uv: [u, v], front: dot(cross(e1, e2), d) < 0.0, margin });
            }
        }
    }
    out.sort_by(|a, b| a.t.total_cmp(&b.t));
    out
}

fn dispatch(gpu: &mut Gpu, tlas: vk::AccelerationStructureKHR, rays: usize, hits: usize, flags: u32) -> R<()> {
    let words = spirv_words(SHADER).map_err(|e| e.to_string())?;
    let d = &gpu.dev;
    let types = [
        vk::DescriptorType::ACCELERATION_STRUCTURE_KHR,
        vk::DescriptorType::STORAGE_BUFFER,
        vk::DescriptorType::STORAGE_BUFFER,
    ];
    let p = ComputePipeline::new(d, &words, &types, 8)?;
    let structs = [tlas];
    let mut as_write = vk::WriteDescriptorSetAccelerationStructureKHR::default().acceleration_structures(&structs);
    let bi = |b: usize| [vk::DescriptorBufferInfo { buffer: gpu.bufs[b].buffer, offset: 0, range: vk::WHOLE_SIZE }];
    let (rb, hb) = (bi(rays), bi(hits));
    let buffer = |b, info| {
        vk::WriteDescriptorSet::default()
            .dst_set(p.set)
            .dst_binding(b)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(info)
    };
    let writes = [
        vk::WriteDescriptorSet::default()
            .dst_set(p.set)
            .dst_binding(0)
            .descriptor_count(1)
            .descriptor_type(vk::DescriptorType::ACCELERATION_STRUCTURE_KHR)
            .push_next(&mut as_write),
        buffer(1, &rb),
        buffer(2, &hb),
    ];
    // SAFETY: a live set, structure and buffers.
    unsafe { d.update_descriptor_sets(&writes, &[]) };
    let mut push = [0u8; 8];
    push[..4].copy_from_slice(&(RAYS as u32).to_le_bytes());
    push[4..].copy_from_slice(&flags.to_le_bytes());
    let r = gpu.submit(|cmd| {
        p.bind(d, cmd);
        // SAFETY: recording; the objects live until the wait.
        unsafe {
            d.cmd_push_constants(cmd, p.layout, vk::ShaderStageFlags::COMPUTE, 0, &push);
            d.cmd_dispatch(cmd, RAYS.div_ceil(64) as u32, 1, 1);
        }
        gpu.barrier(
            cmd,
            (vk::PipelineStageFlags::COMPUTE_SHADER, vk::AccessFlags::SHADER_WRITE),
            (vk::PipelineStageFlags::HOST, vk::AccessFlags::HOST_READ),
        );
    });
    p.destroy(d);
    r
}

/// Builds the structures, traces the rays with each of `flags`; the hit buffers' values.
fn trace(gpu: &mut Gpu, s: &Scene, flags: &[u32]) -> R<Vec<Vec<f32>>> {
    // Indexed geometry: each triangle's vertices from the end of the vertex buffer back.
    let last = TRIANGLES as u32 * 3 - 1;
    let verts: Vec<f32> = s.tris.iter().rev().flat_map(|t| t.iter().rev().flat_map(|v| v.map(|x| x as f32))).collect();
    let indices: Vec<u32> = (0..=last).map(|i| last - i).collect();
    let input = vk::BufferUsageFlags::ACCELERATION_STRUCTURE_BUILD_INPUT_READ_ONLY_KHR;
    let vb = gpu.buffer(verts.len() as u64 * 4, input)?;
    let ib = gpu.buffer(indices.len() as u64 * 4, input)?;
    gpu.write(vb, &verts);
    gpu.write(ib, &indices);
    let tri = vk::AccelerationStructureGeometryTrianglesDataKHR::default()
        .vertex_format(vk::Format::R32G32B32_SFLOAT)
        .vertex_data(vk::DeviceOrHostAddressConstKHR { device_address: gpu.bufs[vb].addr })
        .vertex_stride(12)
        .max_vertex(TRIANGLES as u32 * 3 - 1)
        .index_type(vk::IndexType::UINT32)
        .index_data(vk::DeviceOrHostAddressConstKHR { device_address: gpu.bufs[ib].addr });
    let geom = vk::AccelerationStructureGeometryKHR::default()
        .geometry_type(vk::GeometryTypeKHR::TRIANGLES)
        .geometry(vk::AccelerationStructureGeometryDataKHR { triangles: tri })
        .flags(vk::GeometryFlagsKHR::OPAQUE);
    let (blas, blas_addr) = build(gpu, vk::AccelerationStructureTypeKHR::BOTTOM_LEVEL, geom, TRIANGLES as u32)?;
    let instances: Vec<vk::AccelerationStructureInstanceKHR> = [IDENTITY, MOVED]
        .iter()
        .zip(CUSTOM)
        .map(|(m, custom)| vk::AccelerationStructureInstanceKHR {
            transform: vk::TransformMatrixKHR { matrix: *m },
            instance_custom_index_and_mask: vk::Packed24_8::new(custom, 0xff),
            instance_shader_binding_table_record_offset_and_flags: vk::Packed24_8::new(0, 0),
            acceleration_structure_reference: vk::AccelerationStructureReferenceKHR { device_handle: blas_addr },
        })
        .collect();
    let inb = gpu.buffer(std::mem::size_of_val(&instances[..]) as u64, input)?;
    gpu.write(inb, &instances);
    let inst_data = vk::AccelerationStructureGeometryInstancesDataKHR::default()
        .data(vk::DeviceOrHostAddressConstKHR { device_address: gpu.bufs[inb].addr });
    let geom = vk::AccelerationStructureGeometryKHR::default()
        .geometry_type(vk::GeometryTypeKHR::INSTANCES)
        .geometry(vk::AccelerationStructureGeometryDataKHR { instances: inst_data });
    let (tlas, _) = build(gpu, vk::AccelerationStructureTypeKHR::TOP_LEVEL, geom, 2)?;
    let rays: Vec<f32> = s
        .rays
        .iter()
        .flat_map(|(o, tmin, d, tmax)| [o[0], o[1], o[2], *tmin, d[0], d[1], d[2], *tmax].map(|x| x as f32))
        .collect();
    let rb = gpu.buffer(rays.len() as u64 * 4, vk::BufferUsageFlags::STORAGE_BUFFER)?;
    gpu.write(rb, &rays);
    let mut hbs = Vec::new();
    let mut r = Ok(());
    for &f in flags {
        let hb = gpu.buffer(RAYS as u64 * 32, vk::BufferUsageFlags::STORAGE_BUFFER)?;
        hbs.push(hb);
        r = r.and_then(|_| dispatch(gpu, tlas, rb, hb, f));
    }
    // SAFETY: idle after the waits; the structures are unused.
    unsafe {
        gpu.accel.destroy_acceleration_structure(tlas, None);
        gpu.accel.destroy_acceleration_structure(blas, None);
    }
    r?;
    Ok(hbs.iter().map(|&hb| gpu.read_f32(hb, RAYS * 8)).collect())
}

/// Whether a rounding could change ray `r`'s answer: a hit near a triangle's edge or an
/// end of the extent, or two hits at nearly the same distance, no farther than the nearest.
fn ambiguous(h: &[Hit], tmin: f64, tmax: f64) -> bool {
    let eps = |t: f64| 1e-4 * t.abs().max(1.0);
    let valid = |x: &Hit| x.margin >= 0.0 && x.t >= tmin && x.t <= tmax;
    let reach = h.iter().find(|x| valid(x)).map_or(f64::INFINITY, |x| x.t);
    let front: Vec<&Hit> = h.iter().filter(|x| x.t <= reach + eps(reach)).collect();
    front.iter().any(|x| x.margin < 1e-4 || (x.t - tmax).abs() <= eps(tmax) || (x.t - tmin).abs() <= eps(tmin))
        || front.windows(2).any(|w| (w[1].t - w[0].t).abs() <= eps(w[0].t))
}

/// Compares the GPU's hits traced with ray flags `flags` with the CPU's.
fn check(s: &Scene, got: &[f32], flags: u32) -> Result<String, String> {
    let (mut checked, mut loose, mut hit_count) = (0, 0, 0);
    for r in 0..RAYS {
        // Culled triangles are not candidates at all.
        let h: Vec<Hit> = hits(s, r).into_iter().filter(|x| flags & CULL_BACK == 0 || x.front).collect();
        let want = h.iter().copied().find(|x| x.margin >= 0.0 && x.t >= s.rays[r].1 && x.t <= s.rays[r].3);
        let g = &got[r * 8..r * 8 + 8];
        let ok = match want {
            None => g[0] == -1.0,
            Some(w) => {
                let t_ok = (g[0] as f64 - w.t).abs() <= 1e-4 * w.t.abs().max(1.0);
                let ids = g[1] as usize == w.prim && g[2] as u32 == CUSTOM[w.inst];
                let uv_ok = (g[4] as f64 - w.uv[0]).abs() <= 1e-3 && (g[5] as f64 - w.uv[1]).abs() <= 1e-3;
                t_ok && ids && uv_ok && g[3] == f32::from(u8::from(w.front))
            }
        };
        hit_count += usize::from(ok && want.is_some());
        if ambiguous(&h, s.rays[r].1, s.rays[r].3) {
            loose += 1;
            continue;
        }
        checked += 1;
        if !ok {
            let w = want.map_or("a miss".into(), |w| {
                let (t, p, c, u, v, f) = (w.t, w.prim, CUSTOM[w.inst], w.uv[0], w.uv[1], w.front);
                format!("t {t:.6} prim {p} custom {c} front {f} uv ({u:.5}, {v:.5})")
            });
            let [t, p, c, f, u, v, ..] = g else { unreachable!("8 values per ray") };
            return Err(format!(
                "ray {r}: the GPU gives t {t} prim {p} custom {c} front {f} uv ({u}, {v}), the CPU {w}"
            ));
        }
    }
    if hit_count < RAYS / 8 || checked < RAYS * 9 / 10 {
        return Err(format!("the scene checks too little: {hit_count} hits, {checked} rays exact"));
    }
    Ok(format!("{checked} rays checked exactly ({hit_count} hits), {loose} near an edge or a tie"))
}

fn main() -> ExitCode {
    let validate = std::env::args().any(|a| a == "--validate");
    let mut gpu = match Gpu::new(validate) {
        Ok(Some(g)) => g,
        Ok(None) => {
            println!("SKIP rayquery: no device offers VK_KHR_ray_query and VK_KHR_acceleration_structure");
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            println!("FAIL rayquery: {e}");
            return ExitCode::from(2);
        }
    };
    let s = scene();
    let passes = [("opaque", OPAQUE), ("opaque, back faces culled", OPAQUE | CULL_BACK)];
    let got = match trace(&mut gpu, &s, &passes.map(|(_, f)| f)) {
        Ok(g) => g,
        Err(e) => {
            println!("FAIL rayquery: {e}");
            return ExitCode::from(2);
        }
    };
    drop(gpu);
    let mut code = ExitCode::SUCCESS;
    for ((name, flags), g) in passes.iter().zip(&got) {
        match check(&s, g, *flags) {
            Ok(summary) => println!("rayquery {name}: {summary}"),
            Err(why) => {
                println!("FAIL rayquery: {name}: {why}");
                code = ExitCode::from(1);
            }
        }
    }
    if code == ExitCode::SUCCESS {
        println!("PASS rayquery");
    }
    code
}
