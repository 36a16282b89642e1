//! Pass scopes: every pass the renderer records is opened through [`compute_pass_in`] /
//! [`render_pass_in`], which wrap it in a wgpu-profiler scope when a profiler is given
//! (feature `profiler`; timestamps read back a few frames late). Without the feature the
//! scopes are plain passes.

#[cfg(feature = "profiler")]
use wgpu_profiler::{GpuProfiler, GpuProfilerQuery, GpuProfilerSettings};

/// A profiler and the scope new pass scopes nest under (none: top level).
#[derive(Clone, Copy)]
pub(crate) struct Profiling<'a> {
    #[cfg(feature = "profiler")]
    pub profiler: &'a GpuProfiler,
    #[cfg(feature = "profiler")]
    pub parent: Option<&'a GpuProfilerQuery>,
    /// Without the feature no profiling exists: the type has no value.
    #[cfg(not(feature = "profiler"))]
    _none: (std::convert::Infallible, std::marker::PhantomData<&'a ()>),
}

/// Open a compute pass named `label` (in a profiler scope when `profiling` is given) and
/// record into it.
pub(crate) fn compute_pass_in(
    encoder: &mut wgpu::CommandEncoder,
    profiling: Option<Profiling<'_>>,
    label: &str,
    f: impl FnOnce(&mut wgpu::ComputePass),
) {
    #[cfg(feature = "profiler")]
    let query = profiling.map(|p| {
        p.profiler
            .begin_pass_query(label, encoder)
            .with_parent(p.parent)
    });
    #[cfg(feature = "profiler")]
    let timestamp_writes = query
        .as_ref()
        .and_then(|q| q.compute_pass_timestamp_writes());
    #[cfg(not(feature = "profiler"))]
    let (timestamp_writes, _) = (None, profiling);
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes,
        });
        f(&mut pass);
    }
    #[cfg(feature = "profiler")]
    if let (Some(p), Some(q)) = (profiling, query) {
        p.profiler.end_query(encoder, q);
    }
}

/// Open a render pass named `label` over `desc` (in a profiler scope when `profiling` is
/// given) and record into it.
pub(crate) fn render_pass_in(
    encoder: &mut wgpu::CommandEncoder,
    profiling: Option<Profiling<'_>>,
    desc: wgpu::RenderPassDescriptor<'_>,
    label: &str,
    f: impl FnOnce(&mut wgpu::RenderPass),
) {
    #[cfg(feature = "profiler")]
    let query = profiling.map(|p| {
        p.profiler
            .begin_pass_query(label, encoder)
            .with_parent(p.parent)
    });
    #[cfg(feature = "profiler")]
    let timestamp_writes = query
        .as_ref()
        .and_then(|q| q.render_pass_timestamp_writes());
    #[cfg(not(feature = "profiler"))]
    let (timestamp_writes, _) = (None, (profiling, label));
    {
        let desc = wgpu::RenderPassDescriptor {
            timestamp_writes,
            ..desc
        };
        let mut pass = encoder.begin_render_pass(&desc);
        f(&mut pass);
    }
    #[cfg(feature = "profiler")]
    if let (Some(p), Some(q)) = (profiling, query) {
        p.profiler.end_query(encoder, q);
    }
}

#[cfg(feature = "profiler")]
/// A profiler for timing passes with GPU timestamps (none when the device cannot).
pub(crate) fn gpu_profiler(device: &wgpu::Device) -> Option<GpuProfiler> {
    GpuProfiler::new(
        device,
        GpuProfilerSettings {
            enable_timer_queries: true,
            // lavapipe crashes in vkCmdBeginDebugUtilsLabelEXT when debug builds of wgpu
            // enable the debug-utils extension (seen with wgpu 30 / Mesa 22.3)
            enable_debug_groups: false,
            max_num_pending_frames: 4,
        },
    )
    .ok()
}
