//! Pass scopes: every pass the renderer records is opened through [`compute_pass_in`] /
//! [`render_pass_in`], which give it timestamp writes when it is timed: by the renderer's
//! own [`PassTimer`], or in a scope of the host's wgpu-profiler (feature `wgpu-profiler`).

#[cfg(feature = "wgpu-profiler")]
use wgpu_profiler::{GpuProfiler, GpuProfilerQuery};

use crate::timer::PassTimer;

/// How the passes of a recording are timed.
#[derive(Clone, Copy)]
pub(crate) enum Scopes<'a> {
    /// Not at all.
    None,
    /// By the renderer's own timestamp queries.
    Timer(&'a PassTimer),
    /// In scopes of a host's profiler, nested under `parent`.
    #[cfg(feature = "wgpu-profiler")]
    Profiler {
        profiler: &'a GpuProfiler,
        parent: Option<&'a GpuProfilerQuery>,
    },
}

/// A pass's scope: where its timestamps go, and what closes it.
enum Scope<'a> {
    Plain,
    Timed(&'a wgpu::QuerySet, u32, u32),
    #[cfg(feature = "wgpu-profiler")]
    Profiled(&'a GpuProfiler, GpuProfilerQuery),
}

impl<'a> Scopes<'a> {
    fn open(self, encoder: &mut wgpu::CommandEncoder, label: &'static str) -> Scope<'a> {
        let _ = &encoder;
        match self {
            Scopes::None => Scope::Plain,
            Scopes::Timer(t) => match t.pass(label) {
                Some((set, begin, end)) => Scope::Timed(set, begin, end),
                None => Scope::Plain,
            },
            #[cfg(feature = "wgpu-profiler")]
            Scopes::Profiler { profiler, parent } => {
                let query = profiler
                    .begin_pass_query(label, encoder)
                    .with_parent(parent);
                Scope::Profiled(profiler, query)
            }
        }
    }
}

impl Scope<'_> {
    fn compute_writes(&self) -> Option<wgpu::ComputePassTimestampWrites<'_>> {
        match self {
            Scope::Plain => None,
            Scope::Timed(query_set, begin, end) => Some(wgpu::ComputePassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(*begin),
                end_of_pass_write_index: Some(*end),
            }),
            #[cfg(feature = "wgpu-profiler")]
            Scope::Profiled(_, q) => q.compute_pass_timestamp_writes(),
        }
    }

    fn render_writes(&self) -> Option<wgpu::RenderPassTimestampWrites<'_>> {
        match self {
            Scope::Plain => None,
            Scope::Timed(query_set, begin, end) => Some(wgpu::RenderPassTimestampWrites {
                query_set,
                beginning_of_pass_write_index: Some(*begin),
                end_of_pass_write_index: Some(*end),
            }),
            #[cfg(feature = "wgpu-profiler")]
            Scope::Profiled(_, q) => q.render_pass_timestamp_writes(),
        }
    }

    fn close(self, encoder: &mut wgpu::CommandEncoder) {
        let _ = &encoder;
        #[cfg(feature = "wgpu-profiler")]
        if let Scope::Profiled(profiler, query) = self {
            profiler.end_query(encoder, query);
        }
    }
}

/// Open a compute pass named `label` (timed as `scopes` says) and record into it.
pub(crate) fn compute_pass_in(
    encoder: &mut wgpu::CommandEncoder,
    scopes: Scopes<'_>,
    label: &'static str,
    f: impl FnOnce(&mut wgpu::ComputePass),
) {
    let scope = scopes.open(encoder, label);
    {
        let mut pass = encoder.begin_compute_pass(&wgpu::ComputePassDescriptor {
            label: Some(label),
            timestamp_writes: scope.compute_writes(),
        });
        f(&mut pass);
    }
    scope.close(encoder);
}

/// Open a render pass named `label` over `desc` (timed as `scopes` says) and record into
/// it.
pub(crate) fn render_pass_in(
    encoder: &mut wgpu::CommandEncoder,
    scopes: Scopes<'_>,
    desc: wgpu::RenderPassDescriptor<'_>,
    label: &'static str,
    f: impl FnOnce(&mut wgpu::RenderPass),
) {
    let scope = scopes.open(encoder, label);
    {
        let desc = wgpu::RenderPassDescriptor {
            timestamp_writes: scope.render_writes(),
            ..desc
        };
        let mut pass = encoder.begin_render_pass(&desc);
        f(&mut pass);
    }
    scope.close(encoder);
}
