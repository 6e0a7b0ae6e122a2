//! Shared Vulkan compute boilerplate for the softnavi example binaries (`saxpy`, `reduce`).
//!
//! Everything here sticks to core Vulkan 1.0/1.1 entry points: no images, no timeline
//! semaphores, no synchronization2 and no extensions, except `VK_EXT_debug_utils` when the
//! user asks for validation (`--validate`) and the extension is available.
//!
//! Ownership model: [`Context`] owns the instance, device, queue, command pool and the
//! gpu-allocator [`Allocator`]. Resources created from it ([`Buffer`], [`ComputeKernel`])
//! borrow the context, so the borrow checker guarantees they are destroyed before it, and
//! each resource releases its own Vulkan objects on drop (also on error paths).

use std::cell::{Cell, RefCell};
use std::ffi::{c_char, c_void, CStr, CString};
use std::fmt;
use std::io::Cursor;
use std::mem::ManuallyDrop;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use ash::vk;
use gpu_allocator::vulkan::{Allocation, AllocationCreateDesc, AllocationScheme, Allocator, AllocatorCreateDesc};
use gpu_allocator::{AllocationSizes, AllocatorDebugSettings};

pub use gpu_allocator::MemoryLocation;

/// SPIR-V for `shaders/saxpy.comp` (compiled by `build.rs` with `glslangValidator -V`).
pub const SAXPY_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/saxpy.spv"));
/// SPIR-V for `shaders/reduce.comp` (compiled by `build.rs` with `glslangValidator -V`).
pub const REDUCE_SPV: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/reduce.spv"));

/// Exit status: everything verified.
pub const EXIT_OK: u8 = 0;
/// Exit status: the GPU result did not match the CPU reference.
pub const EXIT_MISMATCH: u8 = 1;
/// Exit status: a Vulkan (or loader / allocator / capability) error occurred.
pub const EXIT_VULKAN_ERROR: u8 = 2;
/// Exit status: `--validate` was given and the validation layer reported errors/warnings.
pub const EXIT_VALIDATION: u8 = 3;

/// How long to wait on the submit fence before giving up with `VK_TIMEOUT`.
pub const FENCE_TIMEOUT: Duration = Duration::from_secs(300);

const VALIDATION_LAYER: &CStr = c"VK_LAYER_KHRONOS_validation";

// ---------------------------------------------------------------------------------------------
// Errors
// ---------------------------------------------------------------------------------------------

/// Everything that can go wrong while talking to Vulkan.
#[derive(Debug)]
pub enum Error {
    /// `libvulkan.so.1` could not be loaded.
    Loader(ash::LoadingError),
    /// A Vulkan call returned an error code.
    Vulkan { call: &'static str, result: vk::Result },
    /// gpu-allocator failed.
    Allocation(gpu_allocator::AllocationError),
    /// The embedded SPIR-V is malformed.
    Spirv(String),
    /// No suitable device, a limit is too small, bad arguments for the device, ...
    Unsupported(String),
    /// The submit fence did not signal within [`FENCE_TIMEOUT`].
    Timeout(Duration),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Loader(e) => write!(f, "failed to load the Vulkan loader: {e}"),
            Error::Vulkan { call, result } => write!(f, "{call} failed: {result}"),
            Error::Allocation(e) => write!(f, "gpu-allocator: {e}"),
            Error::Spirv(e) => write!(f, "invalid SPIR-V: {e}"),
            Error::Unsupported(e) => f.write_str(e),
            Error::Timeout(t) => write!(
                f,
                "vkWaitForFences timed out after {t:?}; the GPU work may still be running, so \
                 its Vulkan objects are leaked instead of destroyed"
            ),
        }
    }
}

impl std::error::Error for Error {}

impl From<ash::LoadingError> for Error {
    fn from(e: ash::LoadingError) -> Self {
        Error::Loader(e)
    }
}

impl From<gpu_allocator::AllocationError> for Error {
    fn from(e: gpu_allocator::AllocationError) -> Self {
        Error::Allocation(e)
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Attaches the name of the failing Vulkan call to a `VkResult`.
trait VkResultExt<T> {
    fn vk(self, call: &'static str) -> Result<T>;
}

impl<T> VkResultExt<T> for std::result::Result<T, vk::Result> {
    fn vk(self, call: &'static str) -> Result<T> {
        self.map_err(|result| Error::Vulkan { call, result })
    }
}

/// Converts SPIR-V bytes (e.g. from `include_bytes!`, which has no alignment guarantee) into
/// properly aligned words.
pub fn spirv_words(bytes: &[u8]) -> Result<Vec<u32>> {
    ash::util::read_spv(&mut Cursor::new(bytes)).map_err(|e| Error::Spirv(e.to_string()))
}

// ---------------------------------------------------------------------------------------------
// Command line / program driver
// ---------------------------------------------------------------------------------------------

/// Options shared by every example binary.
#[derive(clap::Args, Debug, Clone)]
pub struct CommonArgs {
    /// Use the first device with a compute queue whose name contains this (case-insensitive)
    #[arg(long, value_name = "SUBSTRING")]
    pub device: Option<String>,
    /// Enable VK_LAYER_KHRONOS_validation; exit with status 3 if it reports any error/warning
    #[arg(long)]
    pub validate: bool,
}

/// Result of a verification run that completed without Vulkan errors.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Verified,
    Mismatch,
}

/// Creates the [`Context`], runs `body`, tears everything down and maps the result to the
/// process exit status (0 verified, 1 mismatch, 2 Vulkan error, 3 validation messages).
pub fn run_example(name: &str, common: &CommonArgs, body: impl FnOnce(&Context) -> Result<Outcome>) -> ExitCode {
    let options = ContextOptions {
        compute_only_queue: false,
        app_name: name,
        device_filter: common.device.as_deref(),
        validate: common.validate,
        shader_features: false,
    };
    let ctx = match Context::new(&options) {
        Ok(ctx) => ctx,
        Err(e) => {
            eprintln!("{name}: error: {e}");
            return ExitCode::from(EXIT_VULKAN_ERROR);
        }
    };
    let v = ctx.api_version();
    println!(
        "{name}: device: {} (Vulkan {}.{}.{}, {:?})",
        ctx.device_name(),
        vk::api_version_major(v),
        vk::api_version_minor(v),
        vk::api_version_patch(v),
        ctx.properties().device_type,
    );
    let counter = ctx.validation_counter();

    let result = body(&ctx).and_then(|outcome| ctx.wait_idle().map(|()| outcome));
    // Destroys device, messenger and instance; validation messages emitted during teardown
    // are still counted below.
    drop(ctx);

    let mut code = match result {
        Ok(Outcome::Verified) => EXIT_OK,
        Ok(Outcome::Mismatch) => EXIT_MISMATCH,
        Err(e) => {
            eprintln!("{name}: error: {e}");
            EXIT_VULKAN_ERROR
        }
    };
    if let Some(counter) = counter {
        let messages = counter.load(Ordering::SeqCst);
        if messages == 0 {
            println!("{name}: validation: 0 error/warning messages");
        } else {
            eprintln!("{name}: validation: {messages} error/warning message(s) reported");
            if code == EXIT_OK {
                code = EXIT_VALIDATION;
            }
        }
    }
    ExitCode::from(code)
}

// ---------------------------------------------------------------------------------------------
// Deterministic inputs
// ---------------------------------------------------------------------------------------------

/// Tiny 64-bit LCG (Knuth's MMIX constants), so inputs are reproducible without `rand`.
#[derive(Debug, Clone)]
pub struct Lcg(u64);

impl Lcg {
    pub fn new(seed: u64) -> Self {
        // Scramble the seed a little so that small seeds don't start with tiny outputs.
        Lcg(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0 = self.0.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 32) as u32
    }

    /// Uniform in `[-1, 1)`, with 24 significant bits (exactly representable).
    pub fn next_f32_signed(&mut self) -> f32 {
        let unit = (self.next_u32() >> 8) as f32 / (1u32 << 24) as f32;
        unit * 2.0 - 1.0
    }
}

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

/// Parameters for [`Context::new`].
#[derive(Debug, Clone, Copy)]
pub struct ContextOptions<'a> {
    pub app_name: &'a str,
    /// Case-insensitive substring of `VkPhysicalDeviceProperties::deviceName`.
    pub device_filter: Option<&'a str>,
    /// Enable `VK_LAYER_KHRONOS_validation` (+ `VK_EXT_debug_utils` if present).
    pub validate: bool,
    /// Enable every shader feature of [`ShaderFeatures`] the device reports, with the
    /// extensions that carry them (test runners); the examples themselves need none.
    pub shader_features: bool,
    /// Prefer a queue family with compute but not graphics where the device has one (RADV's
    /// compute rings, where its image copies are compute shaders rather than draws, which
    /// softnavi's GPU model does not execute); else, and by default, the first family
    /// with compute.
    pub compute_only_queue: bool,
}

/// Shader features and subgroup properties of the device, as enabled by a context created
/// with [`ContextOptions::shader_features`] (all false otherwise).
#[derive(Debug, Clone, Default)]
pub struct ShaderFeatures {
    pub float64: bool,
    pub int64: bool,
    pub int16: bool,
    pub float16: bool,
    pub int8: bool,
    /// `storageBuffer16BitAccess` (and `uniformAndStorageBuffer16BitAccess`, push constants
    /// in `storage_push_constant16`).
    pub storage_buffer16: bool,
    pub uniform16: bool,
    pub storage_push_constant16: bool,
    pub storage_buffer8: bool,
    pub uniform8: bool,
    pub storage_push_constant8: bool,
    pub buffer_int64_atomics: bool,
    pub shared_int64_atomics: bool,
    pub buffer_float32_atomic_add: bool,
    pub shared_float32_atomic_add: bool,
    pub buffer_float64_atomic_add: bool,
    pub shared_float64_atomic_add: bool,
    pub buffer_float32_atomics: bool,
    pub shared_float32_atomics: bool,
    pub buffer_device_address: bool,
    pub variable_pointers: bool,
    pub variable_pointers_storage_buffer: bool,
    pub integer_dot_product: bool,
    /// `vulkanMemoryModel` and `vulkanMemoryModelDeviceScope` (VK_KHR_vulkan_memory_model).
    pub vulkan_memory_model: bool,
    /// `shaderZeroInitializeWorkgroupMemory` (VK_KHR_zero_initialize_workgroup_memory).
    pub zero_initialize_workgroup_memory: bool,
    /// `shaderSubgroupExtendedTypes` (VK_KHR_shader_subgroup_extended_types).
    pub subgroup_extended_types: bool,
    /// `VK_EXT_subgroup_size_control` with `subgroupSizeControl` and `computeFullSubgroups`.
    pub subgroup_size_control: bool,
    /// The default subgroup size and the range `VK_EXT_subgroup_size_control` allows.
    pub subgroup_size: u32,
    pub min_subgroup_size: u32,
    pub max_subgroup_size: u32,
    /// `VkSubgroupFeatureFlags` for compute (0 if compute is not a supported stage).
    pub subgroup_operations: vk::SubgroupFeatureFlags,
    /// `shaderDenormFlushToZeroFloat16/32/64` (Vulkan 1.2 float controls properties):
    /// which widths the `DenormFlushToZero` execution mode may be used with.
    pub denorm_flush_to_zero: [bool; 3],
    /// Device extensions enabled.
    pub extensions: Vec<String>,
}

/// Shared counter of validation errors/warnings seen by the debug messenger.
pub type ValidationCounter = Arc<AtomicUsize>;

struct Validation {
    loader: ash::ext::debug_utils::Instance,
    messenger: vk::DebugUtilsMessengerEXT,
    counter: ValidationCounter,
}

/// Instance + device + compute queue + command pool + memory allocator.
pub struct Context {
    // Dropped explicitly (before the device) in `Drop`.
    allocator: ManuallyDrop<RefCell<Allocator>>,
    command_pool: vk::CommandPool,
    queue: vk::Queue,
    queue_family_index: u32,
    device: ash::Device,
    physical_device: vk::PhysicalDevice,
    properties: vk::PhysicalDeviceProperties,
    device_name: String,
    shader_features: ShaderFeatures,
    validation: Option<Validation>,
    instance: ash::Instance,
    // Set when a fence wait timed out: submitted work may still reference our objects, so
    // nothing is destroyed anymore (leaked until process exit) and nothing waits for idle.
    hung: Cell<bool>,
    // Keeps libvulkan loaded for as long as the instance lives.
    _entry: ash::Entry,
}

unsafe extern "system" fn debug_callback(
    severity: vk::DebugUtilsMessageSeverityFlagsEXT,
    types: vk::DebugUtilsMessageTypeFlagsEXT,
    data: *const vk::DebugUtilsMessengerCallbackDataEXT<'_>,
    user_data: *mut c_void,
) -> vk::Bool32 {
    if severity
        .intersects(vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR)
        && !user_data.is_null()
    {
        // SAFETY: `user_data` is `Arc::as_ptr` of a counter kept alive by `Context` (and by
        // `run_example`) until after `vkDestroyInstance`.
        unsafe { &*(user_data as *const AtomicUsize) }.fetch_add(1, Ordering::SeqCst);
    }
    let message = if data.is_null() {
        None
    } else {
        // SAFETY: the layer passes a valid callback-data struct for the duration of the call.
        unsafe { (*data).message_as_c_str() }.map(|m| m.to_string_lossy().into_owned())
    };
    eprintln!("validation [{severity:?}] [{types:?}]: {}", message.as_deref().unwrap_or("<no message>"));
    vk::FALSE
}

struct PhysicalDeviceInfo {
    handle: vk::PhysicalDevice,
    properties: vk::PhysicalDeviceProperties,
    name: String,
    compute_family: Option<u32>,
}

impl Context {
    /// The instance version asked for: Vulkan 1.3 where the loader offers it (then SPIR-V
    /// 1.4+ and LocalSizeId are valid usage on 1.3 devices), else 1.1.
    fn instance_api_version(entry: &ash::Entry) -> u32 {
        // SAFETY: a plain global query.
        match unsafe { entry.try_enumerate_instance_version() } {
            Ok(Some(v)) if v >= vk::API_VERSION_1_3 => vk::API_VERSION_1_3,
            _ => vk::API_VERSION_1_1,
        }
    }

    /// Loads the Vulkan loader, creates a Vulkan 1.3 (or 1.1) instance, picks a physical device with a
    /// compute-capable queue family, and creates the device, queue, command pool and allocator.
    pub fn new(options: &ContextOptions<'_>) -> Result<Self> {
        // SAFETY: loading the system Vulkan loader; nothing else in this process unloads it.
        let entry = unsafe { ash::Entry::load() }?;

        let app_name = CString::new(options.app_name)
            .map_err(|_| Error::Unsupported("application name contains a NUL byte".into()))?;
        let api_version = Self::instance_api_version(&entry);
        let app_info = vk::ApplicationInfo::default()
            .application_name(&app_name)
            .application_version(vk::make_api_version(0, 0, 1, 0))
            .engine_name(c"softnavi-examples")
            .engine_version(vk::make_api_version(0, 0, 1, 0))
            .api_version(api_version);

        let mut layers = Vec::new();
        let mut extensions = Vec::new();
        let mut counter: Option<ValidationCounter> = None;
        if options.validate {
            // SAFETY: plain enumeration.
            let available =
                unsafe { entry.enumerate_instance_layer_properties() }.vk("vkEnumerateInstanceLayerProperties")?;
            let has_layer = available.iter().any(|l| l.layer_name_as_c_str().ok() == Some(VALIDATION_LAYER));
            if !has_layer {
                return Err(Error::Unsupported(format!(
                    "--validate: {} is not installed",
                    VALIDATION_LAYER.to_string_lossy()
                )));
            }
            layers.push(VALIDATION_LAYER.as_ptr());

            // VK_EXT_debug_utils may come from the loader/ICDs or from the layer itself.
            let mut has_debug_utils = false;
            for layer in [None, Some(VALIDATION_LAYER)] {
                // SAFETY: plain enumeration.
                let exts = unsafe { entry.enumerate_instance_extension_properties(layer) }
                    .vk("vkEnumerateInstanceExtensionProperties")?;
                has_debug_utils |=
                    exts.iter().any(|e| e.extension_name_as_c_str().ok() == Some(ash::ext::debug_utils::NAME));
            }
            if has_debug_utils {
                extensions.push(ash::ext::debug_utils::NAME.as_ptr());
                counter = Some(Arc::new(AtomicUsize::new(0)));
            } else {
                eprintln!(
                    "{}: warning: VK_EXT_debug_utils is not available; validation messages \
                     will be printed by the layer but cannot be counted",
                    options.app_name
                );
            }
        }

        let severities = vk::DebugUtilsMessageSeverityFlagsEXT::WARNING | vk::DebugUtilsMessageSeverityFlagsEXT::ERROR;
        let types = vk::DebugUtilsMessageTypeFlagsEXT::GENERAL
            | vk::DebugUtilsMessageTypeFlagsEXT::VALIDATION
            | vk::DebugUtilsMessageTypeFlagsEXT::PERFORMANCE;
        let user_data = counter.as_ref().map_or(std::ptr::null_mut(), |c| Arc::as_ptr(c) as *mut c_void);
        let mut messenger_info = vk::DebugUtilsMessengerCreateInfoEXT::default()
            .message_severity(severities)
            .message_type(types)
            .pfn_user_callback(Some(debug_callback))
            .user_data(user_data);

        let mut instance_info = vk::InstanceCreateInfo::default()
            .application_info(&app_info)
            .enabled_layer_names(&layers)
            .enabled_extension_names(&extensions);
        if counter.is_some() {
            // Also catch messages from vkCreateInstance / vkDestroyInstance themselves.
            instance_info = instance_info.push_next(&mut messenger_info);
        }
        // SAFETY: all pointers in `instance_info` outlive the call.
        let instance = unsafe { entry.create_instance(&instance_info, None) }.vk("vkCreateInstance")?;

        let validation = match counter {
            None => None,
            Some(counter) => {
                let loader = ash::ext::debug_utils::Instance::new(&entry, &instance);
                let info = vk::DebugUtilsMessengerCreateInfoEXT::default()
                    .message_severity(severities)
                    .message_type(types)
                    .pfn_user_callback(Some(debug_callback))
                    .user_data(user_data);
                // SAFETY: valid instance with VK_EXT_debug_utils enabled.
                match unsafe { loader.create_debug_utils_messenger(&info, None) } {
                    Ok(messenger) => Some(Validation { loader, messenger, counter }),
                    Err(result) => {
                        // SAFETY: nothing else was created from the instance yet.
                        unsafe { instance.destroy_instance(None) };
                        return Err(Error::Vulkan { call: "vkCreateDebugUtilsMessengerEXT", result });
                    }
                }
            }
        };

        match Self::create_device_objects(&instance, api_version, options) {
            Ok((info, device, queue, command_pool, allocator, shader_features)) => Ok(Context {
                allocator: ManuallyDrop::new(RefCell::new(allocator)),
                command_pool,
                queue,
                queue_family_index: info.compute_family.unwrap_or_default(),
                device,
                physical_device: info.handle,
                properties: info.properties,
                device_name: info.name,
                shader_features,
                validation,
                instance,
                hung: Cell::new(false),
                _entry: entry,
            }),
            Err(e) => {
                // SAFETY: everything created from the instance has been destroyed already.
                unsafe {
                    if let Some(v) = &validation {
                        v.loader.destroy_debug_utils_messenger(v.messenger, None);
                    }
                    instance.destroy_instance(None);
                }
                Err(e)
            }
        }
    }

    fn select_physical_device(
        instance: &ash::Instance,
        filter: Option<&str>,
        compute_only: bool,
    ) -> Result<PhysicalDeviceInfo> {
        // SAFETY: valid instance.
        let handles = unsafe { instance.enumerate_physical_devices() }.vk("vkEnumeratePhysicalDevices")?;
        let mut devices = Vec::with_capacity(handles.len());
        for handle in handles {
            // SAFETY: `handle` was just enumerated from `instance`.
            let (properties, families) = unsafe {
                (
                    instance.get_physical_device_properties(handle),
                    instance.get_physical_device_queue_family_properties(handle),
                )
            };
            let name = properties
                .device_name_as_c_str()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|_| "<unnamed device>".into());
            let usable =
                |f: &vk::QueueFamilyProperties| f.queue_flags.contains(vk::QueueFlags::COMPUTE) && f.queue_count > 0;
            let dedicated =
                families.iter().position(|f| usable(f) && !f.queue_flags.contains(vk::QueueFlags::GRAPHICS));
            let compute_family = dedicated
                .filter(|_| compute_only)
                .or_else(|| families.iter().position(usable))
                .and_then(|i| u32::try_from(i).ok());
            devices.push(PhysicalDeviceInfo { handle, properties, name, compute_family });
        }

        let wanted = filter.map(str::to_lowercase);
        let matches = |d: &PhysicalDeviceInfo| wanted.as_deref().is_none_or(|w| d.name.to_lowercase().contains(w));
        if let Some(i) = devices.iter().position(|d| d.compute_family.is_some() && matches(d)) {
            return Ok(devices.swap_remove(i));
        }

        let available = if devices.is_empty() {
            "none".to_string()
        } else {
            devices
                .iter()
                .map(|d| {
                    let compute = if d.compute_family.is_some() { "" } else { " (no compute queue)" };
                    format!("`{}`{compute}", d.name)
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(Error::Unsupported(match filter {
            Some(f) => format!("no Vulkan device with a compute queue matches --device `{f}`; available: {available}"),
            None => format!("no Vulkan device with a compute queue; available: {available}"),
        }))
    }

    #[allow(clippy::type_complexity)]
    fn create_device_objects(
        instance: &ash::Instance,
        instance_version: u32,
        options: &ContextOptions<'_>,
    ) -> Result<(PhysicalDeviceInfo, ash::Device, vk::Queue, vk::CommandPool, Allocator, ShaderFeatures)> {
        let want_features = options.shader_features;
        let info = Self::select_physical_device(instance, options.device_filter, options.compute_only_queue)?;
        let family =
            info.compute_family.ok_or_else(|| Error::Unsupported("selected device has no compute queue".into()))?;

        let priorities = [1.0f32];
        let queue_infos =
            [vk::DeviceQueueCreateInfo::default().queue_family_index(family).queue_priorities(&priorities)];
        let mut chain = FeatureChain::default();
        let mut features = ShaderFeatures::default();
        let mut ext_ptrs = Vec::new();
        let mut features2 = vk::PhysicalDeviceFeatures2::default();
        // Vulkan 1.3 on both sides: the Vulkan11/12/13 feature structures replace the
        // promoted ones (chaining both is invalid).
        let core13 = info.properties.api_version >= vk::API_VERSION_1_3 && instance_version >= vk::API_VERSION_1_3;
        let device = if want_features {
            // SAFETY: plain enumeration on a device of `instance`.
            let available = unsafe { instance.enumerate_device_extension_properties(info.handle) }
                .vk("vkEnumerateDeviceExtensionProperties")?;
            let names: Vec<&CStr> = available.iter().filter_map(|e| e.extension_name_as_c_str().ok()).collect();
            // SAFETY: every structure chained is one the device's extensions (or Vulkan 1.1) define.
            unsafe { chain.query(instance, info.handle, core13, &names, &mut features, &mut ext_ptrs, &mut features2) };
            let device_info = vk::DeviceCreateInfo::default()
                .queue_create_infos(&queue_infos)
                .enabled_extension_names(&ext_ptrs)
                .push_next(&mut features2);
            // SAFETY: `info.handle` belongs to `instance`; the create info and chain outlive the call.
            unsafe { instance.create_device(info.handle, &device_info, None) }.vk("vkCreateDevice")?
        } else if core13 {
            // No extensions; of the features only maintenance4 (LocalSizeId), where reported.
            let mut v13 = vk::PhysicalDeviceVulkan13Features::default();
            let mut query = vk::PhysicalDeviceFeatures2::default().push_next(&mut v13);
            // SAFETY: a Vulkan 1.3 device of `instance`; the chain holds a 1.3 structure.
            unsafe { instance.get_physical_device_features2(info.handle, &mut query) };
            let mut enable = vk::PhysicalDeviceVulkan13Features::default().maintenance4(v13.maintenance4 == vk::TRUE);
            let device_info = vk::DeviceCreateInfo::default().queue_create_infos(&queue_infos).push_next(&mut enable);
            // SAFETY: `info.handle` belongs to `instance`; the create info outlives the call.
            unsafe { instance.create_device(info.handle, &device_info, None) }.vk("vkCreateDevice")?
        } else {
            // No extensions, no features: the examples only need core compute.
            let device_info = vk::DeviceCreateInfo::default().queue_create_infos(&queue_infos);
            // SAFETY: `info.handle` belongs to `instance`; the create info outlives the call.
            unsafe { instance.create_device(info.handle, &device_info, None) }.vk("vkCreateDevice")?
        };
        // SAFETY: queue 0 of `family` was requested above.
        let queue = unsafe { device.get_device_queue(family, 0) };

        let pool_info = vk::CommandPoolCreateInfo::default()
            .flags(vk::CommandPoolCreateFlags::TRANSIENT)
            .queue_family_index(family);
        // SAFETY: valid device.
        let command_pool = match unsafe { device.create_command_pool(&pool_info, None) } {
            Ok(pool) => pool,
            Err(result) => {
                // SAFETY: nothing else was created from the device.
                unsafe { device.destroy_device(None) };
                return Err(Error::Vulkan { call: "vkCreateCommandPool", result });
            }
        };

        let allocator = Allocator::new(&AllocatorCreateDesc {
            instance: instance.clone(),
            device: device.clone(),
            physical_device: info.handle,
            debug_settings: AllocatorDebugSettings::default(),
            buffer_device_address: features.buffer_device_address,
            allocation_sizes: AllocationSizes::default(),
        });
        match allocator {
            Ok(allocator) => Ok((info, device, queue, command_pool, allocator, features)),
            Err(e) => {
                // SAFETY: only the pool was created from the device.
                unsafe {
                    device.destroy_command_pool(command_pool, None);
                    device.destroy_device(None);
                }
                Err(e.into())
            }
        }
    }

    /// `VkPhysicalDeviceProperties::deviceName` of the selected device.
    pub fn device_name(&self) -> &str {
        &self.device_name
    }

    /// Properties (including limits) of the selected device.
    pub fn properties(&self) -> &vk::PhysicalDeviceProperties {
        &self.properties
    }

    /// Limits of the selected device.
    pub fn limits(&self) -> &vk::PhysicalDeviceLimits {
        &self.properties.limits
    }

    /// The shader features enabled on the device ([`ContextOptions::shader_features`]).
    pub fn shader_features(&self) -> &ShaderFeatures {
        &self.shader_features
    }

    /// `apiVersion` the selected device reports.
    pub fn api_version(&self) -> u32 {
        self.properties.api_version
    }

    pub fn physical_device(&self) -> vk::PhysicalDevice {
        self.physical_device
    }

    pub fn device(&self) -> &ash::Device {
        &self.device
    }

    pub fn instance(&self) -> &ash::Instance {
        &self.instance
    }

    pub fn queue(&self) -> vk::Queue {
        self.queue
    }

    pub fn queue_family_index(&self) -> u32 {
        self.queue_family_index
    }

    /// The validation message counter, if `--validate` is active and debug utils is present.
    pub fn validation_counter(&self) -> Option<ValidationCounter> {
        self.validation.as_ref().map(|v| Arc::clone(&v.counter))
    }

    /// `vkDeviceWaitIdle`.
    pub fn wait_idle(&self) -> Result<()> {
        // SAFETY: valid device; the queue is only used from this thread.
        unsafe { self.device.device_wait_idle() }.vk("vkDeviceWaitIdle")
    }

    /// Returns an error unless `groups` fits `maxComputeWorkGroupCount`.
    pub fn check_workgroup_count(&self, groups: [u32; 3]) -> Result<()> {
        let max = self.limits().max_compute_work_group_count;
        if groups.iter().zip(max).any(|(&g, m)| g == 0 || g > m) {
            return Err(Error::Unsupported(format!(
                "dispatch of {groups:?} workgroups is outside 1..=maxComputeWorkGroupCount {max:?}"
            )));
        }
        Ok(())
    }

    /// Returns an error unless a workgroup of `size` invocations is supported.
    pub fn check_workgroup_size(&self, size: [u32; 3]) -> Result<()> {
        let limits = self.limits();
        let max = limits.max_compute_work_group_size;
        let invocations = u64::from(size[0]) * u64::from(size[1]) * u64::from(size[2]);
        if size.iter().zip(max).any(|(&s, m)| s > m)
            || invocations > u64::from(limits.max_compute_work_group_invocations)
        {
            return Err(Error::Unsupported(format!(
                "workgroup size {size:?} exceeds maxComputeWorkGroupSize {max:?} / \
                 maxComputeWorkGroupInvocations {}",
                limits.max_compute_work_group_invocations
            )));
        }
        Ok(())
    }

    /// Returns an error unless a storage buffer of `bytes` bytes can be bound as a whole
    /// (`maxStorageBufferRange`). Cheap to call before generating large inputs.
    pub fn check_storage_buffer_size(&self, bytes: u64) -> Result<()> {
        let max = self.limits().max_storage_buffer_range;
        if bytes == 0 || bytes > u64::from(max) {
            return Err(Error::Unsupported(format!(
                "storage buffer of {bytes} bytes is outside 1..=maxStorageBufferRange {max}"
            )));
        }
        Ok(())
    }

    /// Creates a buffer of `size` bytes with memory from gpu-allocator at `location`, which must
    /// be host-visible (`CpuToGpu` or `GpuToCpu`): the buffer is persistently mapped.
    pub fn create_buffer(
        &self,
        name: &str,
        size: u64,
        usage: vk::BufferUsageFlags,
        location: MemoryLocation,
    ) -> Result<Buffer<'_>> {
        if size == 0 {
            return Err(Error::Unsupported(format!("buffer `{name}`: size must be > 0")));
        }
        let info = vk::BufferCreateInfo::default().size(size).usage(usage).sharing_mode(vk::SharingMode::EXCLUSIVE);
        // SAFETY: valid device and create info.
        let handle = unsafe { self.device.create_buffer(&info, None) }.vk("vkCreateBuffer")?;
        // From here on, `Buffer::drop` cleans up whatever has been created.
        let mut buffer = Buffer { ctx: self, handle, allocation: None, size };
        // SAFETY: `handle` is a live buffer of this device.
        let requirements = unsafe { self.device.get_buffer_memory_requirements(handle) };
        let allocation = self.allocator.borrow_mut().allocate(&AllocationCreateDesc {
            name,
            requirements,
            location,
            linear: true,
            allocation_scheme: AllocationScheme::GpuAllocatorManaged,
        })?;
        let (memory, offset) = (
            // SAFETY: the memory is only bound, never freed, through this handle.
            unsafe { allocation.memory() },
            allocation.offset(),
        );
        let mapped = allocation.mapped_ptr().is_some();
        buffer.allocation = Some(allocation);
        // SAFETY: the allocation satisfies `requirements` (size, alignment, type bits).
        unsafe { self.device.bind_buffer_memory(handle, memory, offset) }.vk("vkBindBufferMemory")?;
        if !mapped {
            return Err(Error::Unsupported(format!(
                "buffer `{name}`: memory for {location:?} is not host-visible/mapped"
            )));
        }
        Ok(buffer)
    }

    /// [`Context::create_buffer`] sized for `data`, then uploads `data`.
    pub fn create_buffer_with_data<T: Pod>(
        &self,
        name: &str,
        usage: vk::BufferUsageFlags,
        location: MemoryLocation,
        data: &[T],
    ) -> Result<Buffer<'_>> {
        let size = std::mem::size_of_val(data) as u64;
        let mut buffer = self.create_buffer(name, size, usage, location)?;
        buffer.write(data)?;
        Ok(buffer)
    }

    /// Creates a compute pipeline from `spirv` (entry point `entry`) whose descriptor set 0 has
    /// one storage buffer per element of `buffers` (binding `i` = `buffers[i]`, whole range)
    /// and whose layout has `push_constant_size` bytes of compute push constants at offset 0.
    pub fn create_compute_kernel(
        &self,
        spirv: &[u32],
        entry: &CStr,
        buffers: &[&Buffer<'_>],
        push_constant_size: u32,
    ) -> Result<ComputeKernel<'_>> {
        let limits = self.limits();
        if push_constant_size % 4 != 0 || push_constant_size > limits.max_push_constants_size {
            return Err(Error::Unsupported(format!(
                "push constant size {push_constant_size} is not a multiple of 4 or exceeds \
                 maxPushConstantsSize {}",
                limits.max_push_constants_size
            )));
        }
        for b in buffers {
            self.check_storage_buffer_size(b.size)?;
        }
        let count = u32::try_from(buffers.len()).map_err(|_| Error::Unsupported("too many buffers".into()))?;

        // Filled in step by step; `ComputeKernel::drop` destroys whatever is non-null, so an
        // early `?` return does not leak.
        let mut kernel = ComputeKernel {
            ctx: self,
            set_layout: vk::DescriptorSetLayout::null(),
            pipeline_layout: vk::PipelineLayout::null(),
            pipeline: vk::Pipeline::null(),
            descriptor_pool: vk::DescriptorPool::null(),
            descriptor_set: vk::DescriptorSet::null(),
            push_constant_size,
        };
        let device = &self.device;

        let bindings: Vec<_> = (0..count)
            .map(|binding| {
                vk::DescriptorSetLayoutBinding::default()
                    .binding(binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .descriptor_count(1)
                    .stage_flags(vk::ShaderStageFlags::COMPUTE)
            })
            .collect();
        let set_layout_info = vk::DescriptorSetLayoutCreateInfo::default().bindings(&bindings);
        // SAFETY: valid device and create info.
        kernel.set_layout =
            unsafe { device.create_descriptor_set_layout(&set_layout_info, None) }.vk("vkCreateDescriptorSetLayout")?;

        let set_layouts = [kernel.set_layout];
        let push_ranges = [vk::PushConstantRange::default()
            .stage_flags(vk::ShaderStageFlags::COMPUTE)
            .offset(0)
            .size(push_constant_size)];
        let mut layout_info = vk::PipelineLayoutCreateInfo::default().set_layouts(&set_layouts);
        if push_constant_size > 0 {
            layout_info = layout_info.push_constant_ranges(&push_ranges);
        }
        // SAFETY: valid device and create info.
        kernel.pipeline_layout =
            unsafe { device.create_pipeline_layout(&layout_info, None) }.vk("vkCreatePipelineLayout")?;

        let pool_sizes =
            [vk::DescriptorPoolSize::default().ty(vk::DescriptorType::STORAGE_BUFFER).descriptor_count(count.max(1))];
        let pool_info = vk::DescriptorPoolCreateInfo::default().max_sets(1).pool_sizes(&pool_sizes);
        // SAFETY: valid device and create info.
        kernel.descriptor_pool =
            unsafe { device.create_descriptor_pool(&pool_info, None) }.vk("vkCreateDescriptorPool")?;

        let alloc_info =
            vk::DescriptorSetAllocateInfo::default().descriptor_pool(kernel.descriptor_pool).set_layouts(&set_layouts);
        // SAFETY: the pool has room for exactly this set.
        kernel.descriptor_set = unsafe { device.allocate_descriptor_sets(&alloc_info) }
            .vk("vkAllocateDescriptorSets")?
            .first()
            .copied()
            .ok_or(Error::Vulkan { call: "vkAllocateDescriptorSets", result: vk::Result::ERROR_UNKNOWN })?;

        let buffer_infos: Vec<[vk::DescriptorBufferInfo; 1]> = buffers
            .iter()
            .map(|b| [vk::DescriptorBufferInfo::default().buffer(b.handle).offset(0).range(vk::WHOLE_SIZE)])
            .collect();
        let writes: Vec<_> = buffer_infos
            .iter()
            .zip(0..count)
            .map(|(info, binding)| {
                vk::WriteDescriptorSet::default()
                    .dst_set(kernel.descriptor_set)
                    .dst_binding(binding)
                    .descriptor_type(vk::DescriptorType::STORAGE_BUFFER)
                    .buffer_info(info)
            })
            .collect();
        // SAFETY: the set and buffers are live; the set is not in use by any command buffer.
        unsafe { device.update_descriptor_sets(&writes, &[]) };

        let module_info = vk::ShaderModuleCreateInfo::default().code(spirv);
        // SAFETY: valid device; `spirv` is word-aligned SPIR-V.
        let module = unsafe { device.create_shader_module(&module_info, None) }.vk("vkCreateShaderModule")?;
        let stage = vk::PipelineShaderStageCreateInfo::default()
            .stage(vk::ShaderStageFlags::COMPUTE)
            .module(module)
            .name(entry);
        let pipeline_info = [vk::ComputePipelineCreateInfo::default().stage(stage).layout(kernel.pipeline_layout)];
        // SAFETY: valid device, module and layout.
        let pipelines = unsafe { device.create_compute_pipelines(vk::PipelineCache::null(), &pipeline_info, None) };
        // The module is not needed once the pipeline exists (or failed to).
        // SAFETY: the module is not referenced by anything after pipeline creation.
        unsafe { device.destroy_shader_module(module, None) };
        kernel.pipeline = pipelines
            .map_err(|(_, result)| Error::Vulkan { call: "vkCreateComputePipelines", result })?
            .first()
            .copied()
            .ok_or(Error::Vulkan { call: "vkCreateComputePipelines", result: vk::Result::ERROR_UNKNOWN })?;
        Ok(kernel)
    }

    /// Records a global memory barrier making compute-shader writes visible to host reads.
    pub fn cmd_compute_to_host_barrier(&self, cmd: vk::CommandBuffer) {
        let barrier = [vk::MemoryBarrier::default()
            .src_access_mask(vk::AccessFlags::SHADER_WRITE)
            .dst_access_mask(vk::AccessFlags::HOST_READ)];
        // SAFETY: `cmd` is in the recording state (called from within `submit_and_wait`).
        unsafe {
            self.device.cmd_pipeline_barrier(
                cmd,
                vk::PipelineStageFlags::COMPUTE_SHADER,
                vk::PipelineStageFlags::HOST,
                vk::DependencyFlags::empty(),
                &barrier,
                &[],
                &[],
            )
        };
    }

    /// Allocates a one-time command buffer, lets `record` fill it, submits it to the compute
    /// queue with a fence and waits for the fence. Returns the wall time from just before
    /// `vkQueueSubmit` until `vkWaitForFences` returned.
    pub fn submit_and_wait(&self, record: impl FnOnce(vk::CommandBuffer) -> Result<()>) -> Result<Duration> {
        let device = &self.device;
        let alloc_info = vk::CommandBufferAllocateInfo::default()
            .command_pool(self.command_pool)
            .level(vk::CommandBufferLevel::PRIMARY)
            .command_buffer_count(1);
        // SAFETY: valid pool; only used from this thread.
        let cmd = unsafe { device.allocate_command_buffers(&alloc_info) }
            .vk("vkAllocateCommandBuffers")?
            .first()
            .copied()
            .ok_or(Error::Vulkan { call: "vkAllocateCommandBuffers", result: vk::Result::ERROR_UNKNOWN })?;
        let mut guard = SubmitGuard { ctx: self, cmd, fence: vk::Fence::null(), pending: false };

        let begin = vk::CommandBufferBeginInfo::default().flags(vk::CommandBufferUsageFlags::ONE_TIME_SUBMIT);
        // SAFETY: freshly allocated command buffer.
        unsafe { device.begin_command_buffer(cmd, &begin) }.vk("vkBeginCommandBuffer")?;
        record(cmd)?;
        // SAFETY: `cmd` is recording.
        unsafe { device.end_command_buffer(cmd) }.vk("vkEndCommandBuffer")?;

        // SAFETY: valid device.
        guard.fence = unsafe { device.create_fence(&vk::FenceCreateInfo::default(), None) }.vk("vkCreateFence")?;

        let cmds = [cmd];
        let submit = [vk::SubmitInfo::default().command_buffers(&cmds)];
        let start = Instant::now();
        // SAFETY: `cmd` is executable, the fence is unsignaled, the queue is externally
        // synchronized by being used from this thread only.
        unsafe { device.queue_submit(self.queue, &submit, guard.fence) }.vk("vkQueueSubmit")?;
        guard.pending = true;
        let timeout = u64::try_from(FENCE_TIMEOUT.as_nanos()).unwrap_or(u64::MAX);
        // SAFETY: valid fence.
        match unsafe { device.wait_for_fences(&[guard.fence], true, timeout) } {
            Ok(()) => {}
            Err(vk::Result::TIMEOUT) => {
                self.hung.set(true);
                return Err(Error::Timeout(FENCE_TIMEOUT));
            }
            Err(result) => return Err(Error::Vulkan { call: "vkWaitForFences", result }),
        }
        let elapsed = start.elapsed();
        guard.pending = false;
        Ok(elapsed)
    }
}

/// Frees the command buffer and fence of [`Context::submit_and_wait`], first waiting for the
/// device to go idle if the work may still be in flight (error after submission).
struct SubmitGuard<'a> {
    ctx: &'a Context,
    cmd: vk::CommandBuffer,
    fence: vk::Fence,
    pending: bool,
}

impl Drop for SubmitGuard<'_> {
    fn drop(&mut self) {
        if self.ctx.hung.get() {
            return;
        }
        let device = &self.ctx.device;
        // SAFETY: after the (best effort) idle wait nothing references these objects.
        unsafe {
            if self.pending {
                let _ = device.device_wait_idle();
            }
            device.destroy_fence(self.fence, None);
            device.free_command_buffers(self.ctx.command_pool, &[self.cmd]);
        }
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        if self.hung.get() {
            return;
        }
        // SAFETY: every resource borrowing the context has been dropped (enforced by the
        // borrow checker); objects are destroyed in reverse creation order.
        unsafe {
            let _ = self.device.device_wait_idle();
            // Frees all VkDeviceMemory blocks; must happen before vkDestroyDevice.
            ManuallyDrop::drop(&mut self.allocator);
            self.device.destroy_command_pool(self.command_pool, None);
            self.device.destroy_device(None);
            if let Some(v) = &self.validation {
                v.loader.destroy_debug_utils_messenger(v.messenger, None);
            }
            self.instance.destroy_instance(None);
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Buffers
// ---------------------------------------------------------------------------------------------

/// Plain-old-data element types that may be copied to/from mapped memory byte-for-byte.
///
/// # Safety
/// Implementors must have no padding, no invalid bit patterns and no pointers.
pub unsafe trait Pod: Copy + 'static {}
// SAFETY: primitive numeric types.
unsafe impl Pod for u8 {}
// SAFETY: primitive numeric types.
unsafe impl Pod for u32 {}
// SAFETY: primitive numeric types.
unsafe impl Pod for i32 {}
// SAFETY: primitive numeric types.
unsafe impl Pod for f32 {}

/// A `VkBuffer` bound to persistently mapped, host-visible and host-coherent memory from
/// gpu-allocator (it only hands out `HOST_COHERENT` memory for `CpuToGpu`/`GpuToCpu`, so no
/// flush/invalidate is needed).
pub struct Buffer<'a> {
    ctx: &'a Context,
    handle: vk::Buffer,
    allocation: Option<Allocation>,
    size: u64,
}

impl Buffer<'_> {
    pub fn handle(&self) -> vk::Buffer {
        self.handle
    }

    /// Size in bytes, as requested at creation.
    pub fn size(&self) -> u64 {
        self.size
    }

    fn mapped(&self, bytes: usize) -> Result<*mut u8> {
        if bytes as u64 > self.size {
            return Err(Error::Unsupported(format!("access of {bytes} bytes exceeds buffer size {}", self.size)));
        }
        self.allocation
            .as_ref()
            .and_then(Allocation::mapped_ptr)
            .map(|p| p.as_ptr().cast::<u8>())
            .ok_or_else(|| Error::Unsupported("buffer memory is not mapped".into()))
    }

    /// Copies `data` to the start of the buffer. Must not race with GPU access.
    pub fn write<T: Pod>(&mut self, data: &[T]) -> Result<()> {
        let bytes = std::mem::size_of_val(data);
        let dst = self.mapped(bytes)?;
        // SAFETY: `dst` points to at least `bytes` mapped bytes that nothing else accesses
        // right now; `T: Pod`.
        unsafe { std::ptr::copy_nonoverlapping(data.as_ptr().cast::<u8>(), dst, bytes) };
        Ok(())
    }

    /// Reads `count` elements from the start of the buffer. Call only after the GPU writes
    /// were made host-visible (barrier to `HOST_READ` + fence wait).
    pub fn read<T: Pod>(&self, count: usize) -> Result<Vec<T>> {
        let bytes = count
            .checked_mul(std::mem::size_of::<T>())
            .ok_or_else(|| Error::Unsupported("read size overflows".into()))?;
        let src = self.mapped(bytes)?;
        let mut out = Vec::<T>::with_capacity(count);
        // SAFETY: `src` has at least `bytes` readable bytes; `out` has capacity for `count`
        // elements and every bit pattern is a valid `T` (`T: Pod`).
        unsafe {
            std::ptr::copy_nonoverlapping(src, out.as_mut_ptr().cast::<u8>(), bytes);
            out.set_len(count);
        }
        Ok(out)
    }
}

impl Drop for Buffer<'_> {
    fn drop(&mut self) {
        if self.ctx.hung.get() {
            // Possibly still in use by the GPU: leak (see `Context::hung`).
            std::mem::forget(self.allocation.take());
            return;
        }
        // SAFETY: callers wait for GPU work using the buffer before dropping it.
        unsafe { self.ctx.device.destroy_buffer(self.handle, None) };
        if let Some(allocation) = self.allocation.take() {
            if let Err(e) = self.ctx.allocator.borrow_mut().free(allocation) {
                eprintln!("warning: failed to free buffer memory: {e}");
            }
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Compute pipelines
// ---------------------------------------------------------------------------------------------

/// A compute pipeline with its layout and one descriptor set of storage buffers.
pub struct ComputeKernel<'a> {
    ctx: &'a Context,
    set_layout: vk::DescriptorSetLayout,
    pipeline_layout: vk::PipelineLayout,
    pipeline: vk::Pipeline,
    descriptor_pool: vk::DescriptorPool,
    descriptor_set: vk::DescriptorSet,
    push_constant_size: u32,
}

impl ComputeKernel<'_> {
    pub fn pipeline(&self) -> vk::Pipeline {
        self.pipeline
    }

    pub fn pipeline_layout(&self) -> vk::PipelineLayout {
        self.pipeline_layout
    }

    pub fn descriptor_set(&self) -> vk::DescriptorSet {
        self.descriptor_set
    }

    /// Records bind pipeline + bind descriptor set + push constants + dispatch into `cmd`.
    pub fn record_dispatch(&self, cmd: vk::CommandBuffer, push_constants: &[u8], groups: [u32; 3]) -> Result<()> {
        if push_constants.len() != self.push_constant_size as usize {
            return Err(Error::Unsupported(format!(
                "got {} bytes of push constants, pipeline layout declares {}",
                push_constants.len(),
                self.push_constant_size
            )));
        }
        self.ctx.check_workgroup_count(groups)?;
        let device = &self.ctx.device;
        // SAFETY: `cmd` is recording; all bound objects are live and outlive the submission
        // (`submit_and_wait` blocks until completion).
        unsafe {
            device.cmd_bind_pipeline(cmd, vk::PipelineBindPoint::COMPUTE, self.pipeline);
            device.cmd_bind_descriptor_sets(
                cmd,
                vk::PipelineBindPoint::COMPUTE,
                self.pipeline_layout,
                0,
                &[self.descriptor_set],
                &[],
            );
            if !push_constants.is_empty() {
                device.cmd_push_constants(cmd, self.pipeline_layout, vk::ShaderStageFlags::COMPUTE, 0, push_constants);
            }
            device.cmd_dispatch(cmd, groups[0], groups[1], groups[2]);
        }
        Ok(())
    }
}

impl Drop for ComputeKernel<'_> {
    fn drop(&mut self) {
        if self.ctx.hung.get() {
            // Possibly still in use by the GPU: leak (see `Context::hung`).
            return;
        }
        let device = &self.ctx.device;
        // SAFETY: no submitted work uses these objects anymore; destroying null handles is a
        // no-op. The descriptor set is freed with its pool.
        unsafe {
            device.destroy_pipeline(self.pipeline, None);
            device.destroy_descriptor_pool(self.descriptor_pool, None);
            device.destroy_pipeline_layout(self.pipeline_layout, None);
            device.destroy_descriptor_set_layout(self.set_layout, None);
        }
    }
}

/// The feature structures [`ContextOptions::shader_features`] queries and enables. Boxed so
/// that the `pNext` pointers between them stay valid while the chain is alive.
#[derive(Default)]
struct FeatureChain {
    storage16: Box<vk::PhysicalDevice16BitStorageFeatures<'static>>,
    variable_pointers: Box<vk::PhysicalDeviceVariablePointersFeatures<'static>>,
    float16_int8: Box<vk::PhysicalDeviceShaderFloat16Int8Features<'static>>,
    storage8: Box<vk::PhysicalDevice8BitStorageFeatures<'static>>,
    atomic_int64: Box<vk::PhysicalDeviceShaderAtomicInt64Features<'static>>,
    atomic_float: Box<vk::PhysicalDeviceShaderAtomicFloatFeaturesEXT<'static>>,
    atomic_float2: Box<vk::PhysicalDeviceShaderAtomicFloat2FeaturesEXT<'static>>,
    bda: Box<vk::PhysicalDeviceBufferDeviceAddressFeatures<'static>>,
    subgroup_size_control: Box<vk::PhysicalDeviceSubgroupSizeControlFeatures<'static>>,
    dot_product: Box<vk::PhysicalDeviceShaderIntegerDotProductFeatures<'static>>,
    memory_model: Box<vk::PhysicalDeviceVulkanMemoryModelFeatures<'static>>,
    zero_init: Box<vk::PhysicalDeviceZeroInitializeWorkgroupMemoryFeatures<'static>>,
    subgroup_types: Box<vk::PhysicalDeviceShaderSubgroupExtendedTypesFeatures<'static>>,
    v11: Box<vk::PhysicalDeviceVulkan11Features<'static>>,
    v12: Box<vk::PhysicalDeviceVulkan12Features<'static>>,
    v13: Box<vk::PhysicalDeviceVulkan13Features<'static>>,
}

impl FeatureChain {
    /// Chains every structure the device supports into `features2`, queries it, records
    /// what is enabled in `out` and the extensions to enable in `ext_ptrs` (the structures
    /// are then passed to vkCreateDevice unchanged: every supported feature is enabled).
    /// With `core13` (a Vulkan 1.3 instance and device) the Vulkan11/12/13 structures take
    /// the place of the structures promoted into them; extensions are still enabled.
    ///
    /// # Safety
    /// `device` must belong to `instance`; `names` are its extensions.
    #[allow(clippy::too_many_arguments)]
    unsafe fn query(
        &mut self,
        instance: &ash::Instance,
        device: vk::PhysicalDevice,
        core13: bool,
        names: &[&CStr],
        out: &mut ShaderFeatures,
        ext_ptrs: &mut Vec<*const c_char>,
        features2: &mut vk::PhysicalDeviceFeatures2<'static>,
    ) {
        let mut head: *mut c_void = std::ptr::null_mut();
        // Puts a structure at the front of the chain.
        macro_rules! link {
            ($s:expr) => {{
                $s.p_next = head;
                head = (&mut *$s) as *mut _ as *mut c_void;
            }};
        }
        let mut enable = |name: &CStr, ext_ptrs: &mut Vec<*const c_char>| -> bool {
            let found = names.iter().find(|n| **n == name);
            if let Some(n) = found {
                ext_ptrs.push(n.as_ptr());
                out.extensions.push(n.to_string_lossy().into_owned());
            }
            found.is_some()
        };
        if core13 {
            link!(self.v11);
            link!(self.v12);
            link!(self.v13);
        } else {
            link!(self.storage16);
            link!(self.variable_pointers);
        }
        let f16 = enable(ash::khr::shader_float16_int8::NAME, ext_ptrs);
        if f16 && !core13 {
            link!(self.float16_int8);
        }
        let s8 = enable(ash::khr::_8bit_storage::NAME, ext_ptrs);
        if s8 && !core13 {
            link!(self.storage8);
        }
        if enable(ash::khr::shader_atomic_int64::NAME, ext_ptrs) && !core13 {
            link!(self.atomic_int64);
        }
        if enable(ash::ext::shader_atomic_float::NAME, ext_ptrs) {
            link!(self.atomic_float);
            // Float atomic min/max (AtomicFloat32MinMaxEXT and friends).
            if enable(ash::ext::shader_atomic_float2::NAME, ext_ptrs) {
                link!(self.atomic_float2);
            }
        }
        if enable(ash::khr::buffer_device_address::NAME, ext_ptrs) && !core13 {
            link!(self.bda);
        }
        let ssc = enable(ash::ext::subgroup_size_control::NAME, ext_ptrs) || core13;
        if ssc && !core13 {
            link!(self.subgroup_size_control);
        }
        if enable(ash::khr::shader_integer_dot_product::NAME, ext_ptrs) && !core13 {
            link!(self.dot_product);
        }
        if enable(ash::khr::vulkan_memory_model::NAME, ext_ptrs) && !core13 {
            link!(self.memory_model);
        }
        if enable(ash::khr::zero_initialize_workgroup_memory::NAME, ext_ptrs) && !core13 {
            link!(self.zero_init);
        }
        if enable(ash::khr::shader_subgroup_extended_types::NAME, ext_ptrs) && !core13 {
            link!(self.subgroup_types);
        }
        for ext in [ash::khr::storage_buffer_storage_class::NAME, ash::khr::variable_pointers::NAME] {
            enable(ext, ext_ptrs);
        }
        enable(ash::khr::shader_non_semantic_info::NAME, ext_ptrs);
        // Imported host allocations (no feature structure).
        enable(ash::ext::external_memory_host::NAME, ext_ptrs);
        // The SPIR-V SubgroupBallotKHR / SubgroupVoteKHR capabilities (no feature structures).
        enable(ash::ext::shader_subgroup_ballot::NAME, ext_ptrs);
        enable(ash::ext::shader_subgroup_vote::NAME, ext_ptrs);
        features2.p_next = head;
        // SAFETY: the chain holds only structures of supported extensions, Vulkan 1.1 or
        // (with core13) Vulkan 1.3.
        unsafe { instance.get_physical_device_features2(device, features2) };
        if core13 {
            // The promoted structures, read back from the core ones (nothing chains them).
            let (v11, v12, v13) = (&*self.v11, &*self.v12, &*self.v13);
            self.storage16.storage_buffer16_bit_access = v11.storage_buffer16_bit_access;
            self.storage16.uniform_and_storage_buffer16_bit_access = v11.uniform_and_storage_buffer16_bit_access;
            self.storage16.storage_push_constant16 = v11.storage_push_constant16;
            self.variable_pointers.variable_pointers = v11.variable_pointers;
            self.variable_pointers.variable_pointers_storage_buffer = v11.variable_pointers_storage_buffer;
            self.float16_int8.shader_float16 = v12.shader_float16;
            self.float16_int8.shader_int8 = v12.shader_int8;
            self.storage8.storage_buffer8_bit_access = v12.storage_buffer8_bit_access;
            self.storage8.uniform_and_storage_buffer8_bit_access = v12.uniform_and_storage_buffer8_bit_access;
            self.storage8.storage_push_constant8 = v12.storage_push_constant8;
            self.atomic_int64.shader_buffer_int64_atomics = v12.shader_buffer_int64_atomics;
            self.atomic_int64.shader_shared_int64_atomics = v12.shader_shared_int64_atomics;
            self.bda.buffer_device_address = v12.buffer_device_address;
            self.subgroup_size_control.subgroup_size_control = v13.subgroup_size_control;
            self.subgroup_size_control.compute_full_subgroups = v13.compute_full_subgroups;
            self.dot_product.shader_integer_dot_product = v13.shader_integer_dot_product;
            self.memory_model.vulkan_memory_model = v12.vulkan_memory_model;
            self.memory_model.vulkan_memory_model_device_scope = v12.vulkan_memory_model_device_scope;
            self.zero_init.shader_zero_initialize_workgroup_memory = v13.shader_zero_initialize_workgroup_memory;
            self.subgroup_types.shader_subgroup_extended_types = v12.shader_subgroup_extended_types;
            // Capture/replay and multi-device addresses are not needed: leave them off.
            self.v12.buffer_device_address_capture_replay = vk::FALSE;
            self.v12.buffer_device_address_multi_device = vk::FALSE;
        }
        let f = &features2.features;
        let b = |v: vk::Bool32| v == vk::TRUE;
        out.float64 = b(f.shader_float64);
        out.int64 = b(f.shader_int64);
        out.int16 = b(f.shader_int16);
        out.storage_buffer16 = b(self.storage16.storage_buffer16_bit_access);
        out.uniform16 = b(self.storage16.uniform_and_storage_buffer16_bit_access);
        out.storage_push_constant16 = b(self.storage16.storage_push_constant16);
        out.variable_pointers = b(self.variable_pointers.variable_pointers);
        out.variable_pointers_storage_buffer = b(self.variable_pointers.variable_pointers_storage_buffer);
        out.float16 = b(self.float16_int8.shader_float16);
        out.int8 = b(self.float16_int8.shader_int8);
        out.storage_buffer8 = b(self.storage8.storage_buffer8_bit_access);
        out.uniform8 = b(self.storage8.uniform_and_storage_buffer8_bit_access);
        out.storage_push_constant8 = b(self.storage8.storage_push_constant8);
        out.buffer_int64_atomics = b(self.atomic_int64.shader_buffer_int64_atomics);
        out.shared_int64_atomics = b(self.atomic_int64.shader_shared_int64_atomics);
        let a = &self.atomic_float;
        out.buffer_float32_atomic_add = b(a.shader_buffer_float32_atomic_add);
        out.shared_float32_atomic_add = b(a.shader_shared_float32_atomic_add);
        out.buffer_float64_atomic_add = b(a.shader_buffer_float64_atomic_add);
        out.shared_float64_atomic_add = b(a.shader_shared_float64_atomic_add);
        out.buffer_float32_atomics = b(a.shader_buffer_float32_atomics);
        out.shared_float32_atomics = b(a.shader_shared_float32_atomics);
        out.buffer_device_address = b(self.bda.buffer_device_address);
        out.integer_dot_product = b(self.dot_product.shader_integer_dot_product);
        out.vulkan_memory_model =
            b(self.memory_model.vulkan_memory_model) && b(self.memory_model.vulkan_memory_model_device_scope);
        out.zero_initialize_workgroup_memory = b(self.zero_init.shader_zero_initialize_workgroup_memory);
        out.subgroup_extended_types = b(self.subgroup_types.shader_subgroup_extended_types);
        out.subgroup_size_control = ssc
            && b(self.subgroup_size_control.subgroup_size_control)
            && b(self.subgroup_size_control.compute_full_subgroups);
        // Capture/replay and multi-device addresses are not needed: leave them off.
        self.bda.buffer_device_address_capture_replay = vk::FALSE;
        self.bda.buffer_device_address_multi_device = vk::FALSE;

        let mut subgroup = vk::PhysicalDeviceSubgroupProperties::default();
        let mut size_control = vk::PhysicalDeviceSubgroupSizeControlProperties::default();
        let mut float_controls = vk::PhysicalDeviceFloatControlsProperties::default();
        let mut props = vk::PhysicalDeviceProperties2::default().push_next(&mut subgroup);
        if ssc {
            props = props.push_next(&mut size_control);
        }
        if core13 || enable(ash::khr::shader_float_controls::NAME, ext_ptrs) {
            props = props.push_next(&mut float_controls);
        }
        // SAFETY: as above.
        unsafe { instance.get_physical_device_properties2(device, &mut props) };
        out.subgroup_size = subgroup.subgroup_size;
        out.denorm_flush_to_zero = [
            b(float_controls.shader_denorm_flush_to_zero_float16),
            b(float_controls.shader_denorm_flush_to_zero_float32),
            b(float_controls.shader_denorm_flush_to_zero_float64),
        ];
        out.subgroup_operations = if subgroup.supported_stages.contains(vk::ShaderStageFlags::COMPUTE) {
            subgroup.supported_operations
        } else {
            vk::SubgroupFeatureFlags::empty()
        };
        if out.subgroup_size_control {
            out.min_subgroup_size = size_control.min_subgroup_size;
            out.max_subgroup_size = size_control.max_subgroup_size;
        } else {
            (out.min_subgroup_size, out.max_subgroup_size) = (out.subgroup_size, out.subgroup_size);
        }
    }
}
