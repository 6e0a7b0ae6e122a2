//! The driver's own compute shaders, as a driver's meta operations are: `meta/blit.comp`
//! (vkCmdBlitImage, blit.rs) and `meta/resolve.comp` (vkCmdResolveImage, resolve.rs),
//! GLSL compiled by `scripts/gen-meta` into the SPIR-V embedded here (a unit test keeps it
//! current), built through the ICD's own pipeline path on a device's first use of each
//! variant, and dispatched in the command buffer like an application's dispatch
//! (`cmd::meta_dispatch`). Each reads its source through set 0 binding 0 (a combined image
//! sampler) and writes its destination through binding 1 (a storage image), converting
//! where image stores cannot ([`Store`]).

use std::sync::Arc;

use ash::vk;
use compiler_bridge::abi::{self, Binding, BindingLocation, DescriptorKind};

use crate::device::DeviceShared;

/// Workgroup size of the meta shaders in x and y.
pub const GROUP: u32 = 8;

/// Bytes of the meta shaders' push constants (five 16-byte vectors at most).
const PUSH_BYTES: u32 = 80;

/// What a shader variant does with a texel.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Class {
    Float = 0,
    Sint = 1,
    Uint = 2,
    /// Float source, packed 16-bit UNORM destination.
    Packed = 3,
}

/// The numeric class of format `f`.
pub fn class(f: vk::Format) -> Class {
    let name = format!("{f:?}");
    if name.contains("UINT") {
        Class::Uint
    } else if name.contains("SINT") {
        Class::Sint
    } else {
        Class::Float
    }
}

/// One of the driver's shaders: a blit variant (`class * 4 + src_3d * 2 + dst_3d`) or a
/// resolve variant (its class).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shader {
    Blit(usize),
    Resolve(Class),
}

/// `meta/blit_<class>_<src><dst>.spv` in [`Shader::Blit`]'s order, then
/// `meta/resolve_<class>.spv` in [`Class`]'s.
const SPIRV: [&[u8]; 20] = [
    include_bytes!("meta/blit_f_aa.spv"),
    include_bytes!("meta/blit_f_a3.spv"),
    include_bytes!("meta/blit_f_3a.spv"),
    include_bytes!("meta/blit_f_33.spv"),
    include_bytes!("meta/blit_i_aa.spv"),
    include_bytes!("meta/blit_i_a3.spv"),
    include_bytes!("meta/blit_i_3a.spv"),
    include_bytes!("meta/blit_i_33.spv"),
    include_bytes!("meta/blit_u_aa.spv"),
    include_bytes!("meta/blit_u_a3.spv"),
    include_bytes!("meta/blit_u_3a.spv"),
    include_bytes!("meta/blit_u_33.spv"),
    include_bytes!("meta/blit_p_aa.spv"),
    include_bytes!("meta/blit_p_a3.spv"),
    include_bytes!("meta/blit_p_3a.spv"),
    include_bytes!("meta/blit_p_33.spv"),
    include_bytes!("meta/resolve_f.spv"),
    include_bytes!("meta/resolve_i.spv"),
    include_bytes!("meta/resolve_u.spv"),
    include_bytes!("meta/resolve_p.spv"),
];

impl Shader {
    fn index(self) -> usize {
        match self {
            Shader::Blit(v) => v,
            Shader::Resolve(c) => 16 + c as usize,
        }
    }
}

/// Set 0 of every meta shader: the source (combined image sampler), the destination
/// (storage image).
fn set_layout() -> abi::SetLayout {
    abi::SetLayout::new(vec![
        Binding { binding: 0, kind: DescriptorKind::CombinedImageSampler, count: 1 },
        Binding { binding: 1, kind: DescriptorKind::StorageImage, count: 1 },
    ])
}

/// Set 0's memory holding the source's T# and S# and the destination's T#.
pub fn set_memory(src: &[u32; 8], sampler: &[u32; 4], dst: &[u32; 8]) -> Vec<u8> {
    let layout = set_layout();
    let mut set = vec![0u8; layout.size() as usize];
    let at = |b: u32| match layout.binding(b) {
        Some((_, BindingLocation::SetMemory(o))) => o as usize,
        _ => unreachable!("set_layout has bindings 0 and 1 in set memory"), // ok: fixed layout
    };
    put(&mut set, at(0), src);
    put(&mut set, at(0) + abi::COMBINED_SAMPLER_OFFSET as usize, sampler);
    put(&mut set, at(1), dst);
    set
}

fn put(mem: &mut [u8], at: usize, words: &[u32]) {
    for (i, w) in words.iter().enumerate() {
        mem[at + 4 * i..at + 4 * i + 4].copy_from_slice(&w.to_le_bytes());
    }
}

/// How a destination format is stored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Store {
    /// Through a view of the format itself.
    Direct,
    /// Through the UNORM view named, after the sRGB OETF (image stores do not encode sRGB).
    Srgb(vk::Format),
    /// As R16_UINT, each component (R, G, B, A) at `shift | bits << 8` (bits 0: absent):
    /// gfx11 image stores do not write the packed 16-bit formats.
    Packed([u32; 4]),
}

impl Store {
    /// The format of the destination's view.
    pub fn view_format(self, f: vk::Format) -> vk::Format {
        match self {
            Store::Direct => f,
            Store::Srgb(u) => u,
            Store::Packed(_) => vk::Format::R16_UINT,
        }
    }

    /// The push constants that say it: (1 to encode sRGB, the packing).
    pub fn push(self) -> (u32, [u32; 4]) {
        match self {
            Store::Srgb(_) => (1, [0; 4]),
            Store::Packed(p) => (0, p),
            Store::Direct => (0, [0; 4]),
        }
    }
}

/// Per component `shift | bits << 8` of the packed 16-bit formats with a T# format.
fn packing(f: vk::Format) -> Option<[u32; 4]> {
    let c = |shift: u32, bits: u32| shift | bits << 8;
    Some(match f {
        vk::Format::R5G6B5_UNORM_PACK16 => [c(11, 5), c(5, 6), c(0, 5), 0],
        vk::Format::B5G6R5_UNORM_PACK16 => [c(0, 5), c(5, 6), c(11, 5), 0],
        vk::Format::A1R5G5B5_UNORM_PACK16 => [c(10, 5), c(5, 5), c(0, 5), c(15, 1)],
        vk::Format::R5G5B5A1_UNORM_PACK16 => [c(11, 5), c(6, 5), c(1, 5), c(0, 1)],
        vk::Format::B5G5R5A1_UNORM_PACK16 => [c(1, 5), c(6, 5), c(11, 5), c(0, 1)],
        vk::Format::R4G4B4A4_UNORM_PACK16 => [c(12, 4), c(8, 4), c(4, 4), c(0, 4)],
        vk::Format::B4G4R4A4_UNORM_PACK16 => [c(4, 4), c(8, 4), c(12, 4), c(0, 4)],
        vk::Format::A4R4G4B4_UNORM_PACK16 => [c(8, 4), c(4, 4), c(0, 4), c(12, 4)],
        vk::Format::A4B4G4R4_UNORM_PACK16 => [c(0, 4), c(4, 4), c(8, 4), c(12, 4)],
        _ => return None,
    })
}

/// How the meta shaders store to `f`, or `None` where they cannot (formats without a
/// storable T# format).
pub fn store(f: vk::Format) -> Option<Store> {
    if let Some(p) = packing(f) {
        return Some(Store::Packed(p));
    }
    let unorm = match f {
        vk::Format::R8_SRGB => vk::Format::R8_UNORM,
        vk::Format::R8G8_SRGB => vk::Format::R8G8_UNORM,
        vk::Format::R8G8B8A8_SRGB => vk::Format::R8G8B8A8_UNORM,
        vk::Format::A8B8G8R8_SRGB_PACK32 => vk::Format::A8B8G8R8_UNORM_PACK32,
        vk::Format::B8G8R8A8_SRGB => vk::Format::B8G8R8A8_UNORM,
        _ => return crate::format::image_format(f).filter(|h| h.storage).map(|_| Store::Direct),
    };
    Some(Store::Srgb(unorm))
}

/// One dispatch of a meta shader: its set 0 memory, push constants and workgroups.
pub struct Dispatch {
    pub shader: Shader,
    pub set: Vec<u8>,
    pub push: Vec<u8>,
    pub counts: [u32; 3],
}

/// The device's pipeline for `shader`, built on first use.
fn pipeline(shared: &Arc<DeviceShared>, shader: Shader) -> Result<vk::Pipeline, String> {
    let mut meta = shared.meta.lock();
    let key = shader.index();
    if let Some(p) = meta.get(&key) {
        return Ok(*p);
    }
    let words: Vec<u32> = SPIRV[key].chunks_exact(4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]])).collect();
    let layout = abi::PipelineLayout { sets: vec![set_layout()], push_constant_size: PUSH_BYTES };
    let p = crate::pipeline::internal(shared, &words, layout)
        .map_err(|(_, e)| format!("the driver's {shader:?} shader did not compile: {e}"))?;
    meta.insert(key, p);
    Ok(p)
}

/// Records dispatch `d` into `c` (what: the command, for errors).
pub fn record(c: vk::CommandBuffer, what: &str, d: &Dispatch) -> Result<(), String> {
    let shared = crate::cmd::device_of(c).ok_or("a null command buffer")?;
    let p = pipeline(&shared, d.shader)?;
    crate::cmd::meta_dispatch(c, what, p, &d.set, &d.push, d.counts);
    Ok(())
}

/// Records the dispatch `plan` makes of each region (`None`: an empty region), or fails
/// the command buffer with the first region's error: blits' and resolves' loop.
pub fn record_regions<R>(
    c: vk::CommandBuffer,
    what: &str,
    regions: &[R],
    plan: impl Fn(&R) -> Result<Option<Dispatch>, String>,
) {
    for r in regions {
        let recorded = plan(r).and_then(|d| d.map_or(Ok(()), |d| record(c, what, &d)));
        if let Err(e) = recorded {
            return crate::cmd::fail(c, what, vk::Result::ERROR_FEATURE_NOT_PRESENT, e);
        }
    }
}

/// `words` as the little-endian bytes of push constants.
pub fn push_bytes(words: &[u32]) -> Vec<u8> {
    words.iter().flat_map(|w| w.to_le_bytes()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every format the required tables give BLIT_DST, and the packed ones, can be stored.
    #[test]
    fn blit_destinations_have_a_store() {
        for f in [
            vk::Format::R8G8B8A8_SRGB,
            vk::Format::B8G8R8A8_SRGB,
            vk::Format::A8B8G8R8_SRGB_PACK32,
            vk::Format::R5G6B5_UNORM_PACK16,
            vk::Format::A1R5G5B5_UNORM_PACK16,
            vk::Format::R32G32B32A32_SFLOAT,
            vk::Format::A2B10G10R10_UINT_PACK32,
        ] {
            assert!(store(f).is_some(), "{f:?}");
        }
        assert!(matches!(store(vk::Format::E5B9G9R9_UFLOAT_PACK32), Some(Store::Direct)));
        assert_eq!(store(vk::Format::R8G8B8_UNORM), None);
    }

    /// The packings name each component's bits where Vulkan's format names put them
    /// (Vulkan spec, "Packed formats": the first component in the most significant bits).
    #[test]
    fn packings_cover_sixteen_bits() {
        for f in [
            vk::Format::R5G6B5_UNORM_PACK16,
            vk::Format::B5G6R5_UNORM_PACK16,
            vk::Format::A1R5G5B5_UNORM_PACK16,
            vk::Format::R5G5B5A1_UNORM_PACK16,
            vk::Format::B5G5R5A1_UNORM_PACK16,
            vk::Format::R4G4B4A4_UNORM_PACK16,
            vk::Format::B4G4R4A4_UNORM_PACK16,
            vk::Format::A4R4G4B4_UNORM_PACK16,
            vk::Format::A4B4G4R4_UNORM_PACK16,
        ] {
            let p = packing(f).expect("packed"); // ok: test
            let mask = p.iter().fold(0u32, |m, &c| m | ((1u32 << (c >> 8)) - 1) << (c & 0xff));
            assert_eq!(mask, 0xffff, "{f:?}");
        }
        assert_eq!(packing(vk::Format::A1R5G5B5_UNORM_PACK16).map(|p| p[3]), Some(15 | 1 << 8));
    }

    /// The embedded SPIR-V is what `scripts/gen-meta` makes of `meta/*.comp` with this
    /// machine's glslang (skipped, saying so, where glslangValidator is absent).
    #[test]
    fn spirv_is_current() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/meta");
        let out = std::env::temp_dir().join(format!("softnavi-meta-{}", std::process::id()));
        std::fs::create_dir_all(&out).expect("temp dir"); // ok: test
        let names = ["f", "i", "u", "p"];
        let defs = ["", "-DCLASS_I", "-DCLASS_U", "-DPACKED"];
        for (v, committed) in SPIRV.iter().enumerate() {
            let (source, file, args) = if v < 16 {
                let (class, s3, d3) = (v / 4, v & 2 != 0, v & 1 != 0);
                let axes = |three: bool| if three { '3' } else { 'a' };
                let file = format!("blit_{}_{}{}.spv", names[class], axes(s3), axes(d3));
                let args = [defs[class], if s3 { "-DSRC_3D" } else { "" }, if d3 { "-DDST_3D" } else { "" }];
                ("blit.comp", file, args)
            } else {
                ("resolve.comp", format!("resolve_{}.spv", names[v - 16]), [defs[v - 16], "", ""])
            };
            let mut cmd = std::process::Command::new("glslangValidator");
            cmd.args(["-V", "--target-env", "vulkan1.1"]).args(args.iter().filter(|a| !a.is_empty()));
            cmd.arg("-o").arg(out.join(&file)).arg(dir.join(source));
            match cmd.output() {
                Err(_) => return eprintln!("skipped: glslangValidator is not installed (scripts/setup installs it)"),
                Ok(o) => assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stdout)),
            }
            let fresh = std::fs::read(out.join(&file)).expect("glslang output"); // ok: test
            assert!(fresh == *committed, "{file} is stale: run scripts/gen-meta");
        }
        let _ = std::fs::remove_dir_all(out);
    }
}
