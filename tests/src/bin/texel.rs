//! `softnavi-texel [--validate]`: uniform and storage texel buffers through buffer views,
//! checked against CPU references: `texelFetch` in many formats (with the components a
//! format lacks reading 0, alpha 1, and out-of-range texels reading 0 or (0,0,0,1)),
//! `textureSize`/`imageSize`, `imageStore` through format conversion (with out-of-range
//! writes dropped and the bytes around the view untouched), and `imageAtomicAdd` /
//! `imageLoad` on r32ui. Descriptors go in through vkUpdateDescriptorSets (fetch), an
//! update template (store) and a descriptor copy (atomics).
//!
//! Prints one `PASS`/`FAIL` line per case; exit status 0 when every case passes, 1 on a
//! mismatch, 2 on a Vulkan error, 3 on validation messages (with `--validate`).

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use ash::vk;
use half::f16;
use softnavi_examples::{spirv_words, Context, ContextOptions, Error, MemoryLocation};

const FETCH_F: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_fetch_f.spv"));
const FETCH_U: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_fetch_u.spv"));
const FETCH_I: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_fetch_i.spv"));
const STORE_F: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_store_f.spv"));
const STORE_U: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_store_u.spv"));
const STORE_I: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_store_i.spv"));
const ATOMIC: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/texel_atomic.spv"));

type Res<T> = Result<T, Error>;

/// Texels in each view; the shaders run 4 more invocations than that.
const TEXELS: usize = 40;
/// Bytes before the view in its buffer (a multiple of every minTexelBufferOffsetAlignment).
const OFFSET: usize = 256;
/// Filler of the bytes around a view.
const SENTINEL: u8 = 0xab;

/// The shader's sampled type.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Ty {
    F,
    U,
    I,
}

/// A texel as the shader sees it: 4 components' bits.
type Texel = [u32; 4];

fn vkerr(call: &'static str) -> impl Fn(vk::Result) -> Error {
    move |result| Error::Vulkan { call, result }
}

/// A format, and how a texel's bytes become shader values and back.
struct Format {
    format: vk::Format,
    ty: Ty,
    size: usize,
    /// The shader value of a texel's bytes.
    decode: fn(&[u8]) -> Texel,
    /// Absolute tolerance for float results (normalised formats).
    tol: f32,
}

fn f(x: f32) -> u32 {
    x.to_bits()
}

fn unorm(v: u32, bits: u32) -> u32 {
    f(v as f32 / ((1u32 << bits) - 1) as f32)
}

fn snorm(v: i32, bits: u32) -> u32 {
    f((v as f32 / ((1i32 << (bits - 1)) - 1) as f32).max(-1.0))
}

fn le16(b: &[u8], i: usize) -> u16 {
    u16::from_le_bytes([b[2 * i], b[2 * i + 1]])
}

fn le32(b: &[u8], i: usize) -> u32 {
    u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
}

/// An unsigned 11- or 10-bit float (5-bit exponent, 6 or 5 mantissa bits) as f32.
fn small_float(v: u32, mbits: u32) -> f32 {
    let (e, m) = (v >> mbits, v & ((1 << mbits) - 1));
    let frac = m as f32 / (1u32 << mbits) as f32;
    match e {
        0 => frac * 2f32.powi(-14),
        31 if m == 0 => f32::INFINITY,
        31 => f32::NAN,
        e => (1.0 + frac) * 2f32.powi(e as i32 - 15),
    }
}

fn one_f() -> u32 {
    f(1.0)
}

fn formats() -> Vec<Format> {
    vec![
        Format {
            format: vk::Format::R32_SFLOAT,
            ty: Ty::F,
            size: 4,
            decode: |b| [le32(b, 0), 0, 0, one_f()],
            tol: 0.0,
        },
        Format {
            format: vk::Format::R8G8B8A8_UNORM,
            ty: Ty::F,
            size: 4,
            decode: |b| [unorm(b[0] as u32, 8), unorm(b[1] as u32, 8), unorm(b[2] as u32, 8), unorm(b[3] as u32, 8)],
            tol: 1e-6,
        },
        Format {
            format: vk::Format::B8G8R8A8_UNORM,
            ty: Ty::F,
            size: 4,
            decode: |b| [unorm(b[2] as u32, 8), unorm(b[1] as u32, 8), unorm(b[0] as u32, 8), unorm(b[3] as u32, 8)],
            tol: 1e-6,
        },
        Format {
            format: vk::Format::R8G8B8A8_SNORM,
            ty: Ty::F,
            size: 4,
            decode: |b| {
                [
                    snorm(b[0] as i8 as i32, 8),
                    snorm(b[1] as i8 as i32, 8),
                    snorm(b[2] as i8 as i32, 8),
                    snorm(b[3] as i8 as i32, 8),
                ]
            },
            tol: 1e-6,
        },
        Format {
            format: vk::Format::R8G8B8A8_UINT,
            ty: Ty::U,
            size: 4,
            decode: |b| [b[0] as u32, b[1] as u32, b[2] as u32, b[3] as u32],
            tol: 0.0,
        },
        Format {
            format: vk::Format::R16G16B16A16_SFLOAT,
            ty: Ty::F,
            size: 8,
            decode: |b| {
                let h = |i| f(f16::from_bits(le16(b, i)).to_f32());
                [h(0), h(1), h(2), h(3)]
            },
            tol: 0.0,
        },
        Format {
            format: vk::Format::R16_SINT,
            ty: Ty::I,
            size: 2,
            decode: |b| [le16(b, 0) as i16 as i32 as u32, 0, 0, 1],
            tol: 0.0,
        },
        Format {
            format: vk::Format::R16G16_SNORM,
            ty: Ty::F,
            size: 4,
            decode: |b| [snorm(le16(b, 0) as i16 as i32, 16), snorm(le16(b, 1) as i16 as i32, 16), 0, one_f()],
            tol: 1e-6,
        },
        Format {
            format: vk::Format::R32G32_UINT,
            ty: Ty::U,
            size: 8,
            decode: |b| [le32(b, 0), le32(b, 1), 0, 1],
            tol: 0.0,
        },
        Format {
            format: vk::Format::R32G32B32A32_SFLOAT,
            ty: Ty::F,
            size: 16,
            decode: |b| [le32(b, 0), le32(b, 1), le32(b, 2), le32(b, 3)],
            tol: 0.0,
        },
        Format {
            format: vk::Format::R32G32B32A32_SINT,
            ty: Ty::I,
            size: 16,
            decode: |b| [le32(b, 0), le32(b, 1), le32(b, 2), le32(b, 3)],
            tol: 0.0,
        },
        Format {
            format: vk::Format::A2B10G10R10_UNORM_PACK32,
            ty: Ty::F,
            size: 4,
            decode: |b| {
                let v = le32(b, 0);
                [unorm(v & 1023, 10), unorm(v >> 10 & 1023, 10), unorm(v >> 20 & 1023, 10), unorm(v >> 30, 2)]
            },
            tol: 1e-6,
        },
        Format {
            format: vk::Format::B10G11R11_UFLOAT_PACK32,
            ty: Ty::F,
            size: 4,
            decode: |b| {
                let v = le32(b, 0);
                [f(small_float(v & 0x7ff, 6)), f(small_float(v >> 11 & 0x7ff, 6)), f(small_float(v >> 22, 5)), one_f()]
            },
            tol: 0.0,
        },
    ]
}

/// Deterministic texel bytes; float formats get finite values only.
fn texel_bytes(fmt: &Format, seed: u32) -> Vec<u8> {
    let mut x = seed.wrapping_mul(2_654_435_761).wrapping_add(12345);
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        x
    };
    let mut out = Vec::new();
    for i in 0..TEXELS {
        let mut t: Vec<u8> = (0..fmt.size).map(|_| next() as u8).collect();
        match fmt.format {
            vk::Format::R32_SFLOAT | vk::Format::R32G32B32A32_SFLOAT => {
                for (k, c) in t.chunks_mut(4).enumerate() {
                    let v = (i as f32 - 17.5) * 0.375 + k as f32 * 100.25;
                    c.copy_from_slice(&v.to_le_bytes());
                }
            }
            vk::Format::R16G16B16A16_SFLOAT => {
                for (k, c) in t.chunks_mut(2).enumerate() {
                    let v = f16::from_f32((i as f32 - 20.0) * 0.5 + k as f32 * 3.25);
                    c.copy_from_slice(&v.to_le_bytes());
                }
            }
            vk::Format::B10G11R11_UFLOAT_PACK32 => {
                // Exponents below 31 (no infinities or NaNs).
                let v = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
                let r = (v & 0x7ff) % (30 << 6);
                let g = (v >> 11 & 0x7ff) % (30 << 6);
                let b = (v >> 22) % (30 << 5);
                t.copy_from_slice(&(r | g << 11 | b << 22).to_le_bytes());
            }
            vk::Format::R8G8B8A8_SNORM | vk::Format::R16G16_SNORM if i == 3 => {
                // Include the most negative values, which clamp to -1.
                t.iter_mut().for_each(|b| *b = 0x80);
            }
            _ => {}
        }
        out.extend_from_slice(&t);
    }
    out
}

/// Whether `got` equals `want` (bits, or within `tol` for float types).
fn same(ty: Ty, tol: f32, got: Texel, want: Texel) -> bool {
    (0..4).all(|k| match ty {
        Ty::F => {
            let (g, w) = (f32::from_bits(got[k]), f32::from_bits(want[k]));
            g.to_bits() == w.to_bits() || (g - w).abs() <= tol
        }
        _ => got[k] == want[k],
    })
}

/// What a test pipeline needs: one texel buffer at binding 0, one storage buffer at 1.
struct Pipe<'c> {
    ctx: &'c Context,
    set_layout: vk::DescriptorSetLayout,
    layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    pool: vk::DescriptorPool,
    sets: Vec<vk::DescriptorSet>,
}

impl Drop for Pipe<'_> {
    fn drop(&mut self) {
        let d = self.ctx.device();
        // SAFETY: the device is idle (submit_and_wait waited) or lost; null handles are ignored.
        unsafe {
            d.destroy_pipeline(self.pipeline, None);
            d.destroy_descriptor_pool(self.pool, None);
            d.destroy_pipeline_layout(self.layout, None);
            d.destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

impl<'c> Pipe<'c> {
    /// A pipeline of `spirv` and `nsets` descriptor sets of its layout.
    fn new(ctx: &'c Context, spirv: &[u8], texel: vk::DescriptorType, nsets: u32) -> Res<Pipe<'c>> {
        let d = ctx.device();
        let mut p = Pipe {
            ctx,
            set_layout: vk::DescriptorSetLayout::null(),
            layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            pool: vk::DescriptorPool::null(),
            sets: Vec::new(),
        };
        let bindings = [
            vk::DescriptorSetLayoutBinding::default()
                .binding(0)
                .descriptor_type(texel)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
            vk::DescriptorSetLayoutBinding::default()
                .binding(1)
                .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                .descriptor_count(1)
                .stage_flags(vk::ShaderStageFlags::COMPUTE),
        ];
        let words = spirv_words(spirv)?;
        // SAFETY: valid device and create infos; objects are used after creation only.
        unsafe {
            p.set_layout = d
                .create_descriptor_set_layout(&vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings), None)
                .map_err(vkerr("vkCreateDescriptorSetLayout"))?;
            let set_layouts = [p.set_layout];
            let ranges = [vk::PushConstantRange::default().stage_flags(vk::ShaderStageFlags::COMPUTE).size(4)];
            p.layout = d
                .create_pipeline_layout(
                    &vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts).push_constant_ranges(&ranges),
                    None,
                )
                .map_err(vkerr("vkCreatePipelineLayout"))?;
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
            let sizes = [
                vk::DescriptorPoolSize::default().ty(texel).descriptor_count(nsets),
                vk::DescriptorPoolSize::default().ty(vk::DescriptorType::STORAGE_BUFFER).descriptor_count(nsets),
            ];
            p.pool = d
                .create_descriptor_pool(
                    &vk::DescriptorPoolCreateInfo::default().max_sets(nsets).pool_sizes(&sizes),
                    None,
                )
                .map_err(vkerr("vkCreateDescriptorPool"))?;
            let layouts = vec![p.set_layout; nsets as usize];
            p.sets = d
                .allocate_descriptor_sets(
                    &vk::DescriptorSetAllocateInfo::default().descriptor_pool(p.pool).set_layouts(&layouts),
                )
                .map_err(vkerr("vkAllocateDescriptorSets"))?;
        }
        Ok(p)
    }

    /// Writes the storage buffer of set `s`.
    fn write_storage(&self, s: usize, buf: vk::Buffer) {
        let info = [vk::DescriptorBufferInfo::default().buffer(buf).range(vk::WHOLE_SIZE)];
        let w = vk::WriteDescriptorSet::default()
            .dst_set(self.sets[s])
            .dst_binding(1)
            .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
            .buffer_info(&info);
        // SAFETY: live set and buffer; the set is not in use.
        unsafe { self.ctx.device().update_descriptor_sets(&[w], &[]) };
    }

    /// Dispatches `groups` workgroups with set 0 and push constant `count`.
    fn run(&self, count: u32, groups: u32) -> Res<()> {
        let d = self.ctx.device();
        self.ctx.submit_and_wait(|cmd| {
            // SAFETY: recording; every object is live until the submission completes.
            unsafe {
                d.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
                d.cmd_bind_descriptor_sets(cmd, vk::PipelineBindPoint::COMPUTE, self.layout, 0, &self.sets[..1], &[]);
                d.cmd_push_constants(cmd, self.layout, vk::ShaderStageFlags::COMPUTE, 0, &count.to_le_bytes());
                d.cmd_dispatch(cmd, groups, 1, 1);
            }
            self.ctx.cmd_compute_to_host_barrier(cmd);
            Ok(())
        })?;
        Ok(())
    }
}

/// A buffer view of `TEXELS` texels of `format` at `OFFSET` in `buf`.
fn view(ctx: &Context, buf: vk::Buffer, format: vk::Format, size: usize) -> Res<vk::BufferView> {
    let info = vk::BufferViewCreateInfo::default()
        .buffer(buf)
        .format(format)
        .offset(OFFSET as u64)
        .range((TEXELS * size) as u64);
    // SAFETY: a live buffer with texel buffer usage.
    unsafe { ctx.device().create_buffer_view(&info, None) }.map_err(vkerr("vkCreateBufferView"))
}

/// The bytes of a texel buffer: sentinels around `data` at `OFFSET`.
fn with_sentinels(data: &[u8]) -> Vec<u8> {
    let mut v = vec![SENTINEL; OFFSET + data.len() + OFFSET];
    v[OFFSET..OFFSET + data.len()].copy_from_slice(data);
    v
}

fn texel_usage() -> vk::BufferUsageFlags {
    vk::BufferUsageFlags::UNIFORM_TEXEL_BUFFER | vk::BufferUsageFlags::STORAGE_TEXEL_BUFFER
}

/// Reads every texel (and 4 past the end) through a uniform texel buffer.
fn fetch_case(ctx: &Context, fmt: &Format) -> Res<Result<(), String>> {
    let code = match fmt.ty {
        Ty::F => FETCH_F,
        Ty::U => FETCH_U,
        Ty::I => FETCH_I,
    };
    let data = texel_bytes(fmt, fmt.format.as_raw() as u32);
    let bytes = with_sentinels(&data);
    let mut tb = ctx.create_buffer("texels", bytes.len() as u64, texel_usage(), MemoryLocation::CpuToGpu)?;
    tb.write(&bytes)?;
    let out_len = 16 + 16 * (TEXELS + 4);
    let mut ob =
        ctx.create_buffer("out", out_len as u64, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::CpuToGpu)?;
    ob.write(&vec![0x5au8; out_len])?;
    let v = view(ctx, tb.handle(), fmt.format, fmt.size)?;
    let result = (|| {
        let p = Pipe::new(ctx, code, vk::DescriptorType::UNIFORM_TEXEL_BUFFER, 1)?;
        let views = [v];
        let w = vk::WriteDescriptorSet::default()
            .dst_set(p.sets[0])
            .dst_binding(0)
            .descriptor_count(1)
            .descriptor_type(vk::DescriptorType::UNIFORM_TEXEL_BUFFER)
            .texel_buffer_view(&views);
        // SAFETY: live set and view; the set is not in use.
        unsafe { ctx.device().update_descriptor_sets(&[w], &[]) };
        p.write_storage(0, ob.handle());
        p.run((TEXELS + 4) as u32, 1)?;
        let out: Vec<u32> = ob.read::<u32>(out_len / 4)?;
        if out[0] != TEXELS as u32 {
            return Ok(Err(format!("textureSize {} (expected {TEXELS})", out[0])));
        }
        for i in 0..TEXELS + 4 {
            let got: Texel = [out[4 + 4 * i], out[5 + 4 * i], out[6 + 4 * i], out[7 + 4 * i]];
            if i < TEXELS {
                let want = (fmt.decode)(&data[i * fmt.size..(i + 1) * fmt.size]);
                if !same(fmt.ty, fmt.tol, got, want) {
                    return Ok(Err(format!("texel {i}: got {got:08x?}, expected {want:08x?}")));
                }
            } else {
                // Robust buffer access: out-of-range texels are zero, or (0,0,0,1).
                let one = if fmt.ty == Ty::F { one_f() } else { 1 };
                if got != [0; 4] && got != [0, 0, 0, one] {
                    return Ok(Err(format!("out-of-range texel {i}: got {got:08x?}")));
                }
            }
        }
        Ok(Ok(()))
    })();
    // SAFETY: the device is idle; the view is no longer used.
    unsafe { ctx.device().destroy_buffer_view(v, None) };
    result
}

/// Writes every texel (and 4 past the end) through a storage texel buffer; the descriptor
/// goes in through an update template.
fn store_case(ctx: &Context, fmt: &Format) -> Res<Result<(), String>> {
    let code = match fmt.ty {
        Ty::F => STORE_F,
        Ty::U => STORE_U,
        Ty::I => STORE_I,
    };
    // The values to store: those of texels a fetch gives (exactly representable).
    let data = texel_bytes(fmt, 7 + fmt.format.as_raw() as u32);
    let mut vals: Vec<u32> = vec![0; 4];
    for i in 0..TEXELS + 4 {
        let t = if i < TEXELS { (fmt.decode)(&data[i * fmt.size..(i + 1) * fmt.size]) } else { [1, 2, 3, 4] };
        vals.extend_from_slice(&t);
    }
    let bytes = vec![SENTINEL; OFFSET + data.len() + OFFSET];
    let mut tb = ctx.create_buffer("texels", bytes.len() as u64, texel_usage(), MemoryLocation::CpuToGpu)?;
    tb.write(&bytes)?;
    let mut ib = ctx.create_buffer(
        "in",
        (vals.len() * 4) as u64,
        vk::BufferUsageFlags::STORAGE_BUFFER,
        MemoryLocation::CpuToGpu,
    )?;
    ib.write(&vals)?;
    let v = view(ctx, tb.handle(), fmt.format, fmt.size)?;
    let result = (|| {
        let p = Pipe::new(ctx, code, vk::DescriptorType::STORAGE_TEXEL_BUFFER, 1)?;
        let entry = [vk::DescriptorUpdateTemplateEntry::default()
            .dst_binding(0)
            .descriptor_count(1)
            .descriptor_type(vk::DescriptorType::STORAGE_TEXEL_BUFFER)
            .offset(0)
            .stride(std::mem::size_of::<vk::BufferView>())];
        let info = vk::DescriptorUpdateTemplateCreateInfo::default()
            .descriptor_update_entries(&entry)
            .template_type(vk::DescriptorUpdateTemplateType::DESCRIPTOR_SET)
            .descriptor_set_layout(p.set_layout);
        let d = ctx.device();
        // SAFETY: valid create info; the template's data is one VkBufferView.
        unsafe {
            let t =
                d.create_descriptor_update_template(&info, None).map_err(vkerr("vkCreateDescriptorUpdateTemplate"))?;
            d.update_descriptor_set_with_template(p.sets[0], t, &v as *const vk::BufferView as *const std::ffi::c_void);
            d.destroy_descriptor_update_template(t, None);
        }
        p.write_storage(0, ib.handle());
        p.run((TEXELS + 4) as u32, 1)?;
        let size = ib.read::<u32>(1)?[0];
        if size != TEXELS as u32 {
            return Ok(Err(format!("imageSize {size} (expected {TEXELS})")));
        }
        let got = tb.read::<u8>(bytes.len())?;
        if let Some(i) = (0..bytes.len()).find(|&i| (i < OFFSET || i >= OFFSET + data.len()) && got[i] != SENTINEL) {
            return Ok(Err(format!("byte {i} outside the view was written ({:#04x})", got[i])));
        }
        for i in 0..TEXELS {
            let stored = &got[OFFSET + i * fmt.size..OFFSET + (i + 1) * fmt.size];
            let (g, w) = ((fmt.decode)(stored), (fmt.decode)(&data[i * fmt.size..(i + 1) * fmt.size]));
            if !same(fmt.ty, fmt.tol, g, w) {
                return Ok(Err(format!("texel {i}: stored {stored:02x?} reads {g:08x?}, expected {w:08x?}")));
            }
        }
        Ok(Ok(()))
    })();
    // SAFETY: the device is idle; the view is no longer used.
    unsafe { ctx.device().destroy_buffer_view(v, None) };
    result
}

/// imageAtomicAdd and imageLoad on an r32ui view of 4 texels; the descriptor is copied
/// from a second set.
fn atomic_case(ctx: &Context) -> Res<Result<(), String>> {
    let n = 4usize;
    let init: Vec<u32> = vec![10, 20, 30, 40];
    let data: Vec<u8> = init.iter().flat_map(|v| v.to_le_bytes()).collect();
    let bytes = with_sentinels(&data);
    let mut tb = ctx.create_buffer("counters", bytes.len() as u64, texel_usage(), MemoryLocation::CpuToGpu)?;
    tb.write(&bytes)?;
    let out_len = 4 * (8 + 64);
    let mut ob =
        ctx.create_buffer("out", out_len as u64, vk::BufferUsageFlags::STORAGE_BUFFER, MemoryLocation::CpuToGpu)?;
    ob.write(&vec![0x5au8; out_len])?;
    let info = vk::BufferViewCreateInfo::default()
        .buffer(tb.handle())
        .format(vk::Format::R32_UINT)
        .offset(OFFSET as u64)
        .range(vk::WHOLE_SIZE);
    // SAFETY: a live buffer with texel buffer usage. WHOLE_SIZE: the view runs to the end
    // of the buffer (the trailing sentinel bytes too); the shader indexes texel count + 3.
    let v = unsafe { ctx.device().create_buffer_view(&info, None) }.map_err(vkerr("vkCreateBufferView"))?;
    let texels = (bytes.len() - OFFSET) / 4;
    let result = (|| {
        let p = Pipe::new(ctx, ATOMIC, vk::DescriptorType::STORAGE_TEXEL_BUFFER, 2)?;
        let views = [v];
        let w = vk::WriteDescriptorSet::default()
            .dst_set(p.sets[1])
            .dst_binding(0)
            .descriptor_count(1)
            .descriptor_type(vk::DescriptorType::STORAGE_TEXEL_BUFFER)
            .texel_buffer_view(&views);
        let c = vk::CopyDescriptorSet::default()
            .src_set(p.sets[1])
            .src_binding(0)
            .dst_set(p.sets[0])
            .dst_binding(0)
            .descriptor_count(1);
        // SAFETY: live sets and view; the sets are not in use.
        unsafe {
            ctx.device().update_descriptor_sets(&[w], &[]);
            ctx.device().update_descriptor_sets(&[], &[c]);
        }
        p.write_storage(0, ob.handle());
        p.run(texels as u32, 1)?;
        let out = ob.read::<u32>(out_len / 4)?;
        let got = tb.read::<u8>(bytes.len())?;
        let counters: Vec<u32> = (0..n).map(|i| le32(&got[OFFSET..], i)).collect();
        // Invocation i adds i + 1 to counter i % 4.
        let want: Vec<u32> =
            (0..n).map(|k| init[k] + (0..64u32).filter(|i| *i as usize % 4 == k).map(|i| i + 1).sum::<u32>()).collect();
        if counters != want {
            return Ok(Err(format!("counters {counters:?}, expected {want:?}")));
        }
        if out[..4] != want[..] {
            return Ok(Err(format!("imageLoad {:?}, expected {want:?}", &out[..4])));
        }
        // Texels 4..7 are the sentinel bytes after the counters, inside the view.
        let sentinel = u32::from_le_bytes([SENTINEL; 4]);
        if out[4..8].iter().any(|&x| x != sentinel) {
            return Ok(Err(format!("imageLoad of texels 4..7: {:x?}", &out[4..8])));
        }
        // Texel count + 3 is out of range: the atomic changes no memory (the counters and
        // sentinels above are intact). What it returns is undefined (robustBufferAccess):
        // LLVM's atomic optimiser makes one atomic of a uniform add and gives lane k the old
        // value + k, so lanes see 0, 1, 2, ... where the hardware returned 0.
        let _ = &out[8..];
        Ok(Ok(()))
    })();
    // SAFETY: the device is idle; the view is no longer used.
    unsafe { ctx.device().destroy_buffer_view(v, None) };
    result
}

/// The buffer features the device reports for `f`.
fn features(ctx: &Context, f: vk::Format) -> vk::FormatFeatureFlags {
    // SAFETY: a valid physical device.
    unsafe { ctx.instance().get_physical_device_format_properties(ctx.physical_device(), f) }.buffer_features
}

fn main() -> ExitCode {
    let validate = std::env::args().any(|a| a == "--validate");
    let options = ContextOptions {
        compute_only_queue: false,
        app_name: "softnavi-texel",
        device_filter: None,
        validate,
        shader_features: true,
    };
    let ctx = match Context::new(&options) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("softnavi-texel: error: {e}");
            return ExitCode::from(2);
        }
    };
    println!("softnavi-texel: device: {}", ctx.device_name());
    let counter = ctx.validation_counter();
    let fmts = formats();
    let mut failed = 0;
    let mut error = false;
    let mut report = |name: String, r: Res<Result<(), String>>| match r {
        Ok(Ok(())) => println!("PASS {name}"),
        Ok(Err(m)) => {
            failed += 1;
            println!("FAIL {name}: {m}");
        }
        Err(e) => {
            error = true;
            println!("ERROR {name}: {e}");
        }
    };
    // A case whose format lacks the feature is skipped (a `SKIP` line), as Vulkan requires.
    for fm in &fmts {
        if features(&ctx, fm.format).contains(vk::FormatFeatureFlags::UNIFORM_TEXEL_BUFFER) {
            report(format!("fetch {:?}", fm.format), fetch_case(&ctx, fm));
        } else {
            println!("SKIP fetch {:?}: no UNIFORM_TEXEL_BUFFER", fm.format);
        }
    }
    for fm in &fmts {
        if features(&ctx, fm.format).contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER) {
            report(format!("store {:?}", fm.format), store_case(&ctx, fm));
        } else {
            println!("SKIP store {:?}: no STORAGE_TEXEL_BUFFER", fm.format);
        }
    }
    if features(&ctx, vk::Format::R32_UINT).contains(vk::FormatFeatureFlags::STORAGE_TEXEL_BUFFER_ATOMIC) {
        report("atomic R32_UINT".into(), atomic_case(&ctx));
    } else {
        println!("SKIP atomic R32_UINT: no STORAGE_TEXEL_BUFFER_ATOMIC");
    }
    let _ = ctx.wait_idle();
    drop(ctx);
    let messages = counter.map_or(0, |c| c.load(Ordering::SeqCst));
    println!("softnavi-texel: {failed} failed; validation: {messages} error/warning messages");
    if error {
        ExitCode::from(2)
    } else if failed > 0 {
        ExitCode::from(1)
    } else if messages > 0 {
        ExitCode::from(3)
    } else {
        ExitCode::SUCCESS
    }
}
