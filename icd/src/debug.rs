//! VK_EXT_debug_utils in the ICD: object names and tags (per handle, thread-safe),
//! command-buffer and queue labels, and their use in device-lost reports: a fault's PC is
//! mapped back to the pipeline whose code object holds it, and the report names that
//! pipeline, its shader module, the command buffers that dispatched it and the device's
//! queues by their debug names.
//!
//! The loader implements messengers itself; it passes vkSetDebugUtilsObjectNameEXT and the
//! label commands down to an ICD that reports the extension (through vkGetDeviceProcAddr).

use std::collections::HashMap;
use std::sync::OnceLock;

use ash::vk;
use parking_lot::Mutex;

use crate::handle::guard;

/// A named object: its type and name (and tag, if set).
#[derive(Clone, Default)]
struct Info {
    ty: vk::ObjectType,
    name: Option<String>,
    tag: Option<(u64, Vec<u8>)>,
}

/// A pipeline's code in GPU memory, for mapping a fault's PC back to it.
#[derive(Clone)]
struct Code {
    start: u64,
    end: u64,
    pipeline: u64,
    module: u64,
    /// The module's name when the pipeline was made (the module may be gone since).
    module_name: Option<String>,
    kernel: String,
}

#[derive(Default)]
struct Registry {
    /// Keyed by (device, handle): handles are unique among live objects of a device.
    objects: HashMap<(u64, u64), Info>,
    code: Vec<Code>,
    /// Command buffers and the pipelines they dispatch (raw handles), with the label path
    /// open at the dispatch.
    dispatched: HashMap<u64, Vec<(u64, String)>>,
    /// Open label stacks of command buffers and queues.
    labels: HashMap<u64, Vec<String>>,
    /// The Arc address of the last report explained (each loss is explained once).
    explained: usize,
}

fn registry() -> &'static Mutex<Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    R.get_or_init(Mutex::default)
}

/// The debug name of an object, if the application gave it one (any device).
pub fn name_of(handle: u64) -> Option<String> {
    registry().lock().objects.iter().find(|((_, h), _)| *h == handle).and_then(|(_, i)| i.name.clone())
}

/// "pipeline 'saxpy' (VkPipeline 0x...)" or "VkPipeline 0x..." without a name.
fn describe(kind: &str, ty: &str, handle: u64, name: Option<String>) -> String {
    match name {
        Some(n) => format!("{kind} '{n}' ({ty} {handle:#x})"),
        None => format!("{kind} ({ty} {handle:#x}, unnamed)"),
    }
}

/// Forgets what is known about a destroyed object.
pub fn forget(handle: u64) {
    if handle == 0 {
        return;
    }
    let mut r = registry().lock();
    r.objects.retain(|(_, h), _| *h != handle);
    r.dispatched.remove(&handle);
    r.labels.remove(&handle);
}

/// Records where a pipeline's code lies (`forget_code` when it is destroyed).
pub fn register_code(start: u64, end: u64, pipeline: u64, module: u64, kernel: &str) {
    let module_name = name_of(module);
    registry().lock().code.push(Code { start, end, pipeline, module, module_name, kernel: kernel.to_string() });
}

/// A pipeline whose code starts at `start` is gone.
pub fn forget_code(start: u64) {
    registry().lock().code.retain(|c| c.start != start);
}

/// A command buffer was (re)begun: what it dispatched before no longer counts.
pub fn reset_command_buffer(cb: u64) {
    let mut r = registry().lock();
    r.dispatched.remove(&cb);
    r.labels.remove(&cb);
}

/// A command buffer recorded a dispatch of `pipeline`.
pub fn dispatched(cb: u64, pipeline: u64) {
    let mut r = registry().lock();
    let label = r.labels.get(&cb).map(|l| l.join(" / ")).unwrap_or_default();
    let v = r.dispatched.entry(cb).or_default();
    if !v.iter().any(|(p, l)| *p == pipeline && *l == label) {
        v.push((pipeline, label));
    }
}

/// A primary command buffer executes a secondary: the secondary's dispatches count as the
/// primary's too (under the primary's open label, then the secondary's).
pub fn executed(primary: u64, secondary: u64) {
    let mut r = registry().lock();
    let Some(list) = r.dispatched.get(&secondary).cloned() else { return };
    let outer = r.labels.get(&primary).map(|l| l.join(" / ")).unwrap_or_default();
    let via = match r.objects.iter().find(|((_, h), _)| *h == secondary).and_then(|(_, i)| i.name.clone()) {
        Some(n) => format!("secondary '{n}'"),
        None => format!("secondary {secondary:#x}"),
    };
    let v = r.dispatched.entry(primary).or_default();
    for (p, l) in list {
        let label =
            [outer.as_str(), &via, &l].iter().filter(|s| !s.is_empty()).copied().collect::<Vec<_>>().join(" / ");
        if !v.iter().any(|(q, m)| *q == p && *m == label) {
            v.push((p, label));
        }
    }
}

/// The PCs a report names ("PC 0x1234" / "pc: 0x1234").
fn pcs(text: &str) -> Vec<u64> {
    let mut out = Vec::new();
    for (i, _) in text.match_indices("0x") {
        let before = &text[..i];
        if !(before.ends_with("PC ") || before.ends_with("pc: ") || before.ends_with("pc=")) {
            continue;
        }
        let digits: String = text[i + 2..].chars().take_while(char::is_ascii_hexdigit).collect();
        if let Ok(v) = u64::from_str_radix(&digits, 16) {
            out.push(v);
        }
    }
    out
}

/// What the ICD knows about the objects behind a device-lost report, or None when its PC
/// is in no pipeline's code (or it names no PC).
pub fn explain(report: &str) -> Option<String> {
    let r = registry().lock();
    let pc = pcs(report).into_iter().find(|pc| r.code.iter().any(|c| (c.start..c.end).contains(pc)))?;
    let c = r.code.iter().find(|c| (c.start..c.end).contains(&pc))?;
    let name = |h: u64| r.objects.iter().find(|((_, x), _)| *x == h).and_then(|(_, i)| i.name.clone());
    let mut s = format!(
        "the fault at PC {pc:#x} is in {} (kernel {}, offset {:#x}), made from {}",
        describe("pipeline", "VkPipeline", c.pipeline, name(c.pipeline)),
        c.kernel,
        pc - c.start,
        describe("shader module", "VkShaderModule", c.module, name(c.module).or_else(|| c.module_name.clone())),
    );
    let mut cbs: Vec<(u64, &str)> = r
        .dispatched
        .iter()
        .flat_map(|(cb, ps)| ps.iter().filter(|(p, _)| *p == c.pipeline).map(move |(_, l)| (*cb, l.as_str())))
        .collect();
    cbs.sort_unstable();
    for (cb, label) in cbs {
        s.push_str(&format!("; dispatched by {}", describe("command buffer", "VkCommandBuffer", cb, name(cb))));
        if !label.is_empty() {
            s.push_str(&format!(" inside label '{label}'"));
        }
    }
    let mut queues: Vec<(u64, String)> = r
        .objects
        .iter()
        .filter(|(_, i)| i.ty == vk::ObjectType::QUEUE)
        .filter_map(|((_, h), i)| i.name.clone().map(|n| (*h, n)))
        .collect();
    queues.sort();
    for (q, n) in queues {
        s.push_str(&format!("; on {}", describe("queue", "VkQueue", q, Some(n))));
        if let Some(l) = r.labels.get(&q).filter(|l| !l.is_empty()) {
            s.push_str(&format!(" inside label '{}'", l.join(" / ")));
        }
    }
    Some(s)
}

/// Logs [`explain`] for a device-lost report, once per report.
pub fn report_lost(report: &std::sync::Arc<gpu::report::Report>) {
    let at = std::sync::Arc::as_ptr(report) as usize;
    {
        let mut r = registry().lock();
        if r.explained == at {
            return;
        }
        r.explained = at;
    }
    let text = format!("{}\n{}", report.summary, report.details);
    if let Some(s) = explain(&text) {
        tracing::error!("softnavi: device lost: {s}");
    }
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn set_debug_utils_object_name(
    device: vk::Device,
    info: *const vk::DebugUtilsObjectNameInfoEXT<'_>,
) -> vk::Result {
    guard("vkSetDebugUtilsObjectNameEXT", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        let name = if info.p_object_name.is_null() {
            None
        } else {
            // SAFETY: a NUL-terminated string.
            Some(unsafe { std::ffi::CStr::from_ptr(info.p_object_name) }.to_string_lossy().into_owned())
        };
        use ash::vk::Handle as _;
        let mut r = registry().lock();
        let e = r.objects.entry((device.as_raw(), info.object_handle)).or_default();
        e.ty = info.object_type;
        e.name = name.filter(|n| !n.is_empty());
        vk::Result::SUCCESS
    })
}

/// # Safety
/// Vulkan entry point.
pub unsafe extern "system" fn set_debug_utils_object_tag(
    device: vk::Device,
    info: *const vk::DebugUtilsObjectTagInfoEXT<'_>,
) -> vk::Result {
    guard("vkSetDebugUtilsObjectTagEXT", vk::Result::ERROR_OUT_OF_HOST_MEMORY, || {
        // SAFETY: valid per the specification.
        let info = unsafe { &*info };
        // SAFETY: p_tag points to tag_size bytes.
        let tag = unsafe { std::slice::from_raw_parts(info.p_tag as *const u8, info.tag_size) }.to_vec();
        use ash::vk::Handle as _;
        let mut r = registry().lock();
        let e = r.objects.entry((device.as_raw(), info.object_handle)).or_default();
        e.ty = info.object_type;
        e.tag = Some((info.tag_name, tag));
        vk::Result::SUCCESS
    })
}

fn label_name(l: *const vk::DebugUtilsLabelEXT<'_>) -> String {
    if l.is_null() {
        return String::new();
    }
    // SAFETY: valid per the specification.
    let l = unsafe { &*l };
    if l.p_label_name.is_null() {
        return String::new();
    }
    // SAFETY: a NUL-terminated string.
    unsafe { std::ffi::CStr::from_ptr(l.p_label_name) }.to_string_lossy().into_owned()
}

fn begin_label(owner: u64, l: *const vk::DebugUtilsLabelEXT<'_>) {
    let name = label_name(l);
    tracing::debug!("debug label {owner:#x}: begin '{name}'");
    registry().lock().labels.entry(owner).or_default().push(name);
}

fn end_label(owner: u64) {
    if let Some(v) = registry().lock().labels.get_mut(&owner) {
        v.pop();
    }
}

fn insert_label(owner: u64, l: *const vk::DebugUtilsLabelEXT<'_>) {
    tracing::trace!("debug label {owner:#x}: {}", label_name(l));
}

macro_rules! label_commands {
    ($($begin:ident $end:ident $insert:ident $h:ty, $bn:literal $en:literal $in:literal;)*) => {$(
        /// # Safety
        /// Vulkan entry point.
        pub unsafe extern "system" fn $begin(o: $h, l: *const vk::DebugUtilsLabelEXT<'_>) {
            use ash::vk::Handle as _;
            guard($bn, (), || begin_label(o.as_raw(), l))
        }
        /// # Safety
        /// Vulkan entry point.
        pub unsafe extern "system" fn $end(o: $h) {
            use ash::vk::Handle as _;
            guard($en, (), || end_label(o.as_raw()))
        }
        /// # Safety
        /// Vulkan entry point.
        pub unsafe extern "system" fn $insert(o: $h, l: *const vk::DebugUtilsLabelEXT<'_>) {
            use ash::vk::Handle as _;
            guard($in, (), || insert_label(o.as_raw(), l))
        }
    )*};
}

label_commands! {
    cmd_begin_label cmd_end_label cmd_insert_label vk::CommandBuffer,
        "vkCmdBeginDebugUtilsLabelEXT" "vkCmdEndDebugUtilsLabelEXT" "vkCmdInsertDebugUtilsLabelEXT";
    queue_begin_label queue_end_label queue_insert_label vk::Queue,
        "vkQueueBeginDebugUtilsLabelEXT" "vkQueueEndDebugUtilsLabelEXT" "vkQueueInsertDebugUtilsLabelEXT";
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fault_pc_names_the_pipeline_module_and_command_buffer() {
        let (dev, pipe, module, cb) = (0xd000u64, 0x5000u64, 0x6000u64, 0x7000u64);
        {
            let mut r = registry().lock();
            for (h, ty, n) in [
                (pipe, vk::ObjectType::PIPELINE, "saxpy"),
                (module, vk::ObjectType::SHADER_MODULE, "saxpy.comp"),
                (cb, vk::ObjectType::COMMAND_BUFFER, "frame"),
            ] {
                r.objects.insert((dev, h), Info { ty, name: Some(n.into()), tag: None });
            }
        }
        register_code(0x1_0000, 0x1_0400, pipe, module, "main");
        let label = vk::DebugUtilsLabelEXT::default().label_name(c"step 1");
        begin_label(cb, &label);
        dispatched(cb, pipe);
        end_label(cb);
        let s = explain("VM fault at PC 0x10104 (queue 0 dispatch #1)").unwrap();
        assert!(s.contains("pipeline 'saxpy' (VkPipeline 0x5000)"), "{s}");
        assert!(s.contains("shader module 'saxpy.comp'"), "{s}");
        assert!(s.contains("command buffer 'frame'"), "{s}");
        assert!(s.contains("inside label 'step 1'"), "{s}");
        let primary = 0x8000u64;
        executed(primary, cb);
        let s = explain("VM fault at PC 0x10104").unwrap();
        assert!(s.contains("(VkCommandBuffer 0x8000, unnamed) inside label 'secondary 'frame' / step 1'"), "{s}");
        forget(primary);
        assert!(s.contains("offset 0x104"), "{s}");
        assert!(explain("VM fault at PC 0x20000").is_none());
        forget_code(0x1_0000);
        forget(cb);
        assert!(explain("VM fault at PC 0x10104").is_none());
    }
}
