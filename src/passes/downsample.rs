//! Depth downsample pass (`shaders/downsample.wgsl`): the host's depth as distances along
//! the view axis, farthest and nearest of each footprint (every sample of a multisampled
//! host), at the particle target's resolution.

use super::{bind, compute_pipeline, host_depth_texture, layout, storage_texture, uniform};
use crate::renderer::Scale;
use crate::shaders::Shader;
use crate::types::DownsampleParams;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// Format of the downsampled depth: farthest (r) and nearest (g) distance of each
/// footprint, metres.
pub(crate) const LOW_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;

pub(crate) struct DownsamplePass {
    device: wgpu::Device,
    samples: u32,
    layout: wgpu::BindGroupLayout,
    /// By scale factor (1, 2, 4: index 0, 1, 2), each built the first time a frame needs
    /// it.
    pipelines: [std::sync::OnceLock<wgpu::ComputePipeline>; 3],
}

impl DownsamplePass {
    /// The pass for a host depth of `samples` samples.
    pub fn new(device: &wgpu::Device, samples: u32) -> Self {
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
            layout,
            pipelines: Default::default(),
        }
    }

    /// The pipeline for `scale`'s footprints.
    fn pipeline(&self, scale: Scale) -> &wgpu::ComputePipeline {
        let factor = scale.factor();
        self.pipelines[factor.trailing_zeros() as usize].get_or_init(|| {
            let consts = [("SAMPLES", self.samples), ("FACTOR", factor)];
            let groups = [Some(&self.layout)];
            compute_pipeline(&self.device, Shader::Downsample, "main", &groups, &consts)
        })
    }

    /// Bind group writing the host's distances into `low_depth` (kept for collisions) and
    /// `drawn_depth` (what mesh particles draw into and the particles are drawn against).
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

    /// One thread per low-resolution texel, of `low` texels at `scale`.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        (low, scale): ((u32, u32), Scale),
    ) {
        pass.set_pipeline(self.pipeline(scale));
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(low.0.div_ceil(8), low.1.div_ceil(8), 1);
    }
}
