//! The `pcache` target: pipeline cache initial data into vkCreatePipelineCache, then a
//! pipeline creation that may only use the cache (FAIL_ON_PIPELINE_COMPILE_REQUIRED), its
//! statistics, a dispatch, and vkGetPipelineCacheData.
//!
//! The body of a blob ends in its SHA-256, which random mutation never gets right, and an
//! entry is only used under the key of the pipeline being created. So an input is, after
//! a mode byte, either the whole initial data (mode bit 0 set: header and checksum checks)
//! or one entry's fields after its key (kernel name, workgroup size, code object, and
//! whatever follows), which the harness wraps into a blob with this device's header, the
//! key of the harness's pipeline (saxpy) and a correct checksum. A checksum is no
//! protection against a hostile blob, so the entry's contents are the input that matters.

use std::sync::OnceLock;

use ash::vk as ash_vk;
use sha2::{Digest, Sha256};

use crate::vk::{self, DispatchError, Vk};

/// tests/spirv/basic/saxpy.comp, compiled by build.rs.
static SAXPY: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/saxpy.spv"));
/// Bytes of VkPipelineCacheHeaderVersionOne, and of the body's magic, version and count.
const HEADER: usize = 32;
const BODY_FIELDS: usize = 12;
const KEY: usize = 32;

/// The cache data of the harness's pipeline, compiled once.
struct Real {
    blob: Vec<u8>,
}

impl Real {
    fn get() -> &'static Real {
        static REAL: OnceLock<Real> = OnceLock::new();
        REAL.get_or_init(|| Real { blob: vk::with(compile) })
    }

    /// One entry's bytes after its key.
    fn entry(&self) -> &[u8] {
        &self.blob[HEADER + BODY_FIELDS + KEY..self.blob.len() - 32]
    }

    /// Initial data with this device's header, one entry under the real key, `entry` as
    /// its remaining bytes, and a correct checksum.
    fn wrap(&self, entry: &[u8]) -> Vec<u8> {
        let mut out = self.blob[..HEADER].to_vec();
        let body_start = out.len();
        out.extend_from_slice(&self.blob[HEADER..HEADER + 8]); // magic and body version
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&self.blob[HEADER + BODY_FIELDS..HEADER + BODY_FIELDS + KEY]);
        out.extend_from_slice(entry);
        let digest = Sha256::digest(&out[body_start..]);
        out.extend_from_slice(&digest);
        out
    }
}

/// Compiles the saxpy pipeline into an empty cache and returns the cache's data.
fn compile(vk: &Vk) -> Vec<u8> {
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let cache = unsafe { vk.device.create_pipeline_cache(&ash_vk::PipelineCacheCreateInfo::default(), None) }
        .expect("vkCreatePipelineCache"); // ok: harness set-up
    let module = vk.shader_module(SAXPY).expect("saxpy is valid SPIR-V"); // ok: set-up
    let p = vk.pipeline(module, c"main", cache, ash_vk::PipelineCreateFlags::empty()).expect("saxpy compiles"); // ok: set-up

    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let blob = unsafe { vk.device.get_pipeline_cache_data(cache) }.expect("vkGetPipelineCacheData"); // ok: set-up

    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    unsafe {
        vk.device.destroy_pipeline(p, None);
        vk.device.destroy_shader_module(module, None);
        vk.device.destroy_pipeline_cache(cache, None);
    }
    assert!(blob.len() > HEADER + BODY_FIELDS + KEY + 32, "one entry in the cache"); // ok: set-up
    blob
}

/// Seeds: the real entry (wrapped) and the real blob (raw).
pub fn seeds() -> Vec<(&'static str, Vec<u8>)> {
    let real = Real::get();
    vec![("entry", [&[0u8][..], real.entry()].concat()), ("blob", [&[1u8][..], &real.blob].concat())]
}

/// Runs one input (see the module's documentation for its layout).
pub fn run(data: &[u8]) {
    let real = Real::get();
    let rest = data.get(1..).unwrap_or(&[]);
    let initial = if data.first().is_some_and(|m| m & 1 == 1) { rest.to_vec() } else { real.wrap(rest) };
    if vk::with(|vk| use_cache(vk, &initial)) {
        vk::reset();
    }
}

/// Creates a cache from `initial` and a pipeline only from it; returns whether the
/// pipeline's dispatch lost the device.
fn use_cache(vk: &Vk, initial: &[u8]) -> bool {
    let info = ash_vk::PipelineCacheCreateInfo::default().initial_data(initial);
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let cache =
        unsafe { vk.device.create_pipeline_cache(&info, None) }.expect("vkCreatePipelineCache ignores bad data"); // ok: the finding
    let module = vk.shader_module(SAXPY).expect("saxpy is valid SPIR-V"); // ok: set-up
    let mut lost = false;
    let flags = ash_vk::PipelineCreateFlags::FAIL_ON_PIPELINE_COMPILE_REQUIRED;
    if let Ok(p) = vk.pipeline(module, c"main", cache, flags) {
        vk.inspect(p);
        lost = vk.dispatch(p, [1, 1, 1]) == Err(DispatchError::Lost);
        // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
        unsafe { vk.device.destroy_pipeline(p, None) };
    }
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    let _ = std::hint::black_box(unsafe { vk.device.get_pipeline_cache_data(cache) });
    // SAFETY: live handles of this device and valid create infos, as Vulkan requires.
    unsafe {
        vk.device.destroy_shader_module(module, None);
        vk.device.destroy_pipeline_cache(cache, None);
    }
    lost
}
