//! A headless GPU context for hosts that have none of their own (tests, tools, offscreen
//! rendering): adapter and device selection with no window or surface needed.
//!
//! * `WGPU_BACKEND` (e.g. `vulkan`, `gl`) restricts the backends, as in every wgpu program
//!   (set to nothing, it is as if unset).
//! * `FLURRY_ADAPTER=cpu|gpu|<name substring>` forces an adapter; without it the highest
//!   performance adapter wins (discrete, integrated, virtual, then CPU).
//! * No adapter at all is an [`Error::NoAdapter`] that says what to install.

use crate::error::{Error, Result};

/// A device and queue with the adapter and instance they came from (a clone shares them).
#[derive(Clone, Debug)]
pub struct GpuContext {
    /// The instance the adapter was found on.
    pub instance: wgpu::Instance,
    /// The adapter in use.
    pub adapter: wgpu::Adapter,
    /// A device with the adapter's own limits or WebGPU's defaults
    /// ([`GpuContext::webgpu_defaults`]), and the optional features the adapter has.
    pub device: wgpu::Device,
    /// The device's queue.
    pub queue: wgpu::Queue,
}

/// Features flurry uses when the adapter has them (timestamps for the profiler, subgroup
/// operations for all-pairs gravity, a pipeline cache to keep across runs).
const OPTIONAL_FEATURES: wgpu::Features = wgpu::Features::TIMESTAMP_QUERY
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_ENCODERS)
    .union(wgpu::Features::TIMESTAMP_QUERY_INSIDE_PASSES)
    .union(wgpu::Features::SUBGROUP)
    .union(wgpu::Features::PIPELINE_CACHE);

impl GpuContext {
    /// Pick an adapter (see the module docs) and create a device with the adapter's limits.
    pub fn new_headless() -> Result<Self> {
        let wanted = std::env::var("FLURRY_ADAPTER")
            .ok()
            .filter(|s| !s.is_empty());
        Self::with_adapter(wanted.as_deref())
    }

    /// As [`GpuContext::new_headless`], the device asking for WebGPU's default limits
    /// (`wgpu::Limits::default()`, what a browser and most hosts give) rather than all the
    /// adapter has: everything flurry does fits them, but for pools past what their
    /// storage bindings hold (128 MiB: 2,097,152 particles). The tests run on it.
    pub fn webgpu_defaults() -> Result<Self> {
        let wanted = std::env::var("FLURRY_ADAPTER")
            .ok()
            .filter(|s| !s.is_empty());
        let instance = wgpu::Instance::new(Self::headless_instance());
        Self::open(
            instance,
            (wanted.as_deref(), None),
            Some(wgpu::Limits::default()),
        )
    }

    /// As [`GpuContext::new_headless`] with an explicit choice instead of `FLURRY_ADAPTER`.
    pub fn with_adapter(wanted: Option<&str>) -> Result<Self> {
        Self::with_instance(wgpu::Instance::new(Self::headless_instance()), wanted, None)
    }

    /// An instance for no window, as wgpu's environment variables say.
    fn headless_instance() -> wgpu::InstanceDescriptor {
        Self::instance_from_env(wgpu::InstanceDescriptor::new_without_display_handle())
    }

    /// `desc` with wgpu's environment variables applied (`WGPU_BACKEND`, `WGPU_DEBUG`, …:
    /// [`wgpu::InstanceDescriptor::with_env`]), except that a `WGPU_BACKEND` set to nothing
    /// counts as unset (wgpu reads it as no backend at all, and finds no adapter).
    pub fn instance_from_env(desc: wgpu::InstanceDescriptor) -> wgpu::InstanceDescriptor {
        let backends = desc.backends;
        let mut desc = desc.with_env();
        if backend_variable().is_none() {
            desc.backends = backends;
        }
        desc
    }

    /// A device on `instance` whose adapter can present to `surface` (if given);
    /// `FLURRY_ADAPTER` applies as in [`GpuContext::new_headless`].
    pub fn with_instance(
        instance: wgpu::Instance,
        wanted: Option<&str>,
        surface: Option<&wgpu::Surface<'_>>,
    ) -> Result<Self> {
        Self::open(instance, (wanted, surface), None)
    }

    /// A device on `instance` of `limits` (None: the adapter's own).
    fn open(
        instance: wgpu::Instance,
        (wanted, surface): (Option<&str>, Option<&wgpu::Surface<'_>>),
        limits: Option<wgpu::Limits>,
    ) -> Result<Self> {
        let adapter = pick_adapter(&instance, wanted, surface)?;
        let features = adapter.features() & OPTIONAL_FEATURES;
        let limits = limits.unwrap_or_else(|| adapter.limits());
        let (device, queue) = request_device(&adapter, features, limits)?;
        Ok(GpuContext {
            instance,
            adapter,
            device,
            queue,
        })
    }

    /// `"name (backend, type)"` of the adapter in use.
    pub fn adapter_name(&self) -> String {
        describe(&self.adapter.get_info())
    }

    /// True on a CPU rasteriser such as lavapipe.
    pub fn is_cpu(&self) -> bool {
        self.adapter.get_info().device_type == wgpu::DeviceType::Cpu
    }

    /// Wait until all submitted work is done.
    pub fn wait(&self) -> Result<()> {
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .map(|_| ())
            .map_err(|e| Error::Readback(e.to_string()))
    }

    /// Read a 2D texture of 4 bytes a texel (`Rgba8Unorm`, `Rgba8UnormSrgb`, `Bgra8*`)
    /// back, rows tightly packed; it needs `COPY_SRC` usage. Blocks until the copy is done.
    pub fn read_texture(&self, texture: &wgpu::Texture) -> Result<Vec<u8>> {
        if texture.format().block_copy_size(None) != Some(4) {
            let format = format!("{:?}", texture.format());
            let allowed = "a format of 4 bytes a texel";
            return Err(crate::error::Invalid::new("texture", format, allowed).into());
        }
        if !texture.usage().contains(wgpu::TextureUsages::COPY_SRC) {
            let usage = format!("{:?}", texture.usage());
            let allowed = "usages that include COPY_SRC";
            return Err(crate::error::Invalid::new("texture.usage", usage, allowed).into());
        }
        crate::readback::read_texture(&self.device, &self.queue, texture)
    }
}

/// `WGPU_BACKEND` where it names something (set to blanks it is as good as unset).
fn backend_variable() -> Option<String> {
    std::env::var("WGPU_BACKEND")
        .ok()
        .filter(|b| !b.trim().is_empty())
}

fn describe(info: &wgpu::AdapterInfo) -> String {
    format!("{} ({:?}, {:?})", info.name, info.backend, info.device_type)
}

fn rank(t: wgpu::DeviceType) -> u32 {
    match t {
        wgpu::DeviceType::DiscreteGpu => 0,
        wgpu::DeviceType::IntegratedGpu => 1,
        wgpu::DeviceType::VirtualGpu => 2,
        wgpu::DeviceType::Cpu => 3,
        wgpu::DeviceType::Other => 4,
    }
}

fn matches(info: &wgpu::AdapterInfo, wanted: &str) -> bool {
    match wanted.to_ascii_lowercase().as_str() {
        "cpu" => info.device_type == wgpu::DeviceType::Cpu,
        "gpu" => matches!(
            info.device_type,
            wgpu::DeviceType::DiscreteGpu
                | wgpu::DeviceType::IntegratedGpu
                | wgpu::DeviceType::VirtualGpu
        ),
        name => info.name.to_ascii_lowercase().contains(name),
    }
}

fn pick_adapter(
    instance: &wgpu::Instance,
    wanted: Option<&str>,
    surface: Option<&wgpu::Surface<'_>>,
) -> Result<wgpu::Adapter> {
    let adapters: Vec<wgpu::Adapter> =
        pollster::block_on(instance.enumerate_adapters(wgpu::Backends::all()))
            .into_iter()
            .filter(|a| surface.is_none_or(|s| a.is_surface_supported(s)))
            .collect();
    if adapters.is_empty() {
        let backend = backend_variable()
            .map(|b| format!(" (WGPU_BACKEND={b})"))
            .unwrap_or_default();
        return Err(Error::NoAdapter { detail: backend });
    }
    // adapters without what flurry needs are skipped (wgpu falls back to GL where Vulkan
    // is missing, and GL cannot write the storage textures the passes write)
    let (usable, unusable): (Vec<_>, Vec<_>) = adapters
        .iter()
        .map(|a| (a, crate::adapter::missing(a)))
        .partition(|(_, missing)| missing.is_empty());
    if usable.is_empty() {
        let lacking = unusable
            .iter()
            .map(|(a, missing)| format!("{} lacks {}", describe(&a.get_info()), missing.join(", ")))
            .collect::<Vec<_>>()
            .join("; ");
        return Err(Error::NoSuitableAdapter { lacking });
    }
    let adapters: Vec<wgpu::Adapter> = usable.into_iter().map(|(a, _)| a.clone()).collect();
    let mut candidates: Vec<wgpu::Adapter> = adapters
        .iter()
        .filter(|a| wanted.is_none_or(|w| matches(&a.get_info(), w)))
        .cloned()
        .collect();
    if candidates.is_empty() {
        let available = adapters
            .iter()
            .map(|a| describe(&a.get_info()))
            .collect::<Vec<_>>()
            .join(", ");
        return Err(Error::AdapterNotFound {
            wanted: wanted.unwrap_or_default().to_string(),
            available,
        });
    }
    // Best type first; among equals prefer a native backend over GL.
    candidates.sort_by_key(|a| {
        let info = a.get_info();
        (rank(info.device_type), info.backend == wgpu::Backend::Gl)
    });
    Ok(candidates.swap_remove(0))
}

/// The same adapter and instance with a device of the optional features but `lacking`
/// (tests of the passes that take another way without a feature).
#[cfg(test)]
impl GpuContext {
    pub(crate) fn lacking(&self, lacking: wgpu::Features) -> Result<GpuContext> {
        let features = self.adapter.features() & (OPTIONAL_FEATURES - lacking);
        let (device, queue) = request_device(&self.adapter, features, self.device.limits())?;
        Ok(GpuContext {
            instance: self.instance.clone(),
            adapter: self.adapter.clone(),
            device,
            queue,
        })
    }
}

/// A device of `limits` with `features`.
fn request_device(
    adapter: &wgpu::Adapter,
    features: wgpu::Features,
    limits: wgpu::Limits,
) -> Result<(wgpu::Device, wgpu::Queue)> {
    let desc = wgpu::DeviceDescriptor {
        label: Some("flurry"),
        required_features: features,
        required_limits: limits,
        experimental_features: wgpu::ExperimentalFeatures::disabled(),
        memory_hints: wgpu::MemoryHints::Performance,
        trace: wgpu::Trace::Off,
    };
    pollster::block_on(adapter.request_device(&desc)).map_err(|source| Error::RequestDevice {
        adapter: describe(&adapter.get_info()),
        source,
    })
}

/// A 2D texture of one mip level and sample.
pub(crate) fn texture_2d(
    device: &wgpu::Device,
    label: &str,
    size: (u32, u32),
    format: wgpu::TextureFormat,
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    multisampled_2d(device, label, size, (format, 1), usage)
}

/// A 2D texture of one mip level and `samples` samples (more than one: renderable).
pub(crate) fn multisampled_2d(
    device: &wgpu::Device,
    label: &str,
    (width, height): (u32, u32),
    (format, samples): (wgpu::TextureFormat, u32),
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: Some(label),
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}
