//! Depth downsample pass (`shaders/downsample.wgsl`): the host's depth as distances along
//! the view axis, farthest and nearest of each footprint (every sample of a multisampled
//! host), at the particle target's resolution.

use super::{bind, compute_pipeline, host_depth_texture, layout, storage_texture, uniform};
use crate::compiler::Compiler;
use crate::renderer::Scale;
use crate::shaders::Shader;
use crate::types::DownsampleParams;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// Format of the downsampled depth: farthest (r) and nearest (g) distance of each
/// footprint, metres.
pub(crate) const LOW_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;

pub(crate) struct DownsamplePass {
    device: Compiler,
    samples: u32,
    /// The host gives a depth (else everything is far away).
    has_depth: bool,
    layout: wgpu::BindGroupLayout,
    /// By scale factor (1, 2, 4: index 0, 1, 2), then with the host's distances kept apart
    /// or not (index + 3), each built the first time a frame needs it.
    pipelines: [std::sync::OnceLock<wgpu::ComputePipeline>; 6],
}

impl DownsamplePass {
    /// The pass for a host depth of `samples` samples, or none (`has_depth` false).
    pub fn new(device: &Compiler, samples: u32, has_depth: bool) -> Self {
        let entries = [
            host_depth_texture(0, samples, C),
            storage_texture(1, LOW_DEPTH_FORMAT, C),
            uniform::<DownsampleParams>().entry(2, C),
            storage_texture(3, LOW_DEPTH_FORMAT, C),
        ];
        let layout = layout(device, "downsample", &entries);
        DownsamplePass {
            device: device.clone(),
            samples,
            has_depth,
            layout,
            pipelines: Default::default(),
        }
    }

    /// The pipeline for `scale`'s footprints, keeping the host's distances `apart` or not.
    pub fn pipeline(&self, scale: Scale, apart: bool) -> &wgpu::ComputePipeline {
        let factor = scale.factor();
        let index = factor.trailing_zeros() as usize + 3 * apart as usize;
        self.pipelines[index].get_or_init(|| {
            let consts = [
                ("SAMPLES", self.samples),
                ("FACTOR", factor),
                ("APART", apart as u32),
                ("HAS_DEPTH", self.has_depth as u32),
            ];
            let groups = [Some(&self.layout)];
            compute_pipeline(&self.device, Shader::Downsample, "main", &groups, &consts)
        })
    }

    /// Bind group writing the host's distances into `drawn_depth` (what mesh particles draw
    /// into and the particles are drawn against) and, kept apart, `low_depth` (for the next
    /// frame's collisions, where mesh particles are drawn).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        host_depth: &wgpu::TextureView,
        (low_depth, drawn_depth): (&wgpu::TextureView, &wgpu::TextureView),
        params: &dyn crate::passes::Binding,
    ) -> wgpu::BindGroup {
        let resources = [
            (0, wgpu::BindingResource::TextureView(host_depth)),
            (1, wgpu::BindingResource::TextureView(low_depth)),
            (2, params.resource()),
            (3, wgpu::BindingResource::TextureView(drawn_depth)),
        ];
        bind(device, "downsample", &self.layout, &resources)
    }

    /// One thread per low-resolution texel, of `low` texels at `scale`; the host's
    /// distances written `apart` too (mesh particles will be drawn into the drawn ones) or
    /// into the drawn ones alone.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        (low, scale, apart): ((u32, u32), Scale, bool),
    ) {
        pass.set_pipeline(self.pipeline(scale, apart));
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(low.0.div_ceil(8), low.1.div_ceil(8), 1);
    }
}
