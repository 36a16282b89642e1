//! Depth downsample pass (`shaders/downsample.wgsl`): the host's depth, farthest of each
//! footprint, at the particle target's resolution.

use super::{compute_pipeline, layout, uniform};
use crate::shaders::Shader;

const C: wgpu::ShaderStages = wgpu::ShaderStages::COMPUTE;

/// Format of the downsampled depth: farthest (r) and nearest (g) of each footprint.
pub const LOW_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rg32Float;

pub struct DownsamplePass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl DownsamplePass {
    pub fn new(device: &wgpu::Device) -> Self {
        let layout = layout(
            device,
            "downsample",
            &[
                super::texture(0, wgpu::TextureSampleType::Depth, C),
                wgpu::BindGroupLayoutEntry {
                    binding: 1,
                    visibility: C,
                    ty: wgpu::BindingType::StorageTexture {
                        access: wgpu::StorageTextureAccess::WriteOnly,
                        format: LOW_DEPTH_FORMAT,
                        view_dimension: wgpu::TextureViewDimension::D2,
                    },
                    count: None,
                },
                uniform(2, C),
            ],
        );
        let pipeline = compute_pipeline(device, Shader::Downsample, "main", &layout);
        DownsamplePass { layout, pipeline }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        host_depth: &wgpu::TextureView,
        low_depth: &wgpu::TextureView,
        params: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("downsample"),
            layout: &self.layout,
            entries: &[
                wgpu::BindGroupEntry {
                    binding: 0,
                    resource: wgpu::BindingResource::TextureView(host_depth),
                },
                wgpu::BindGroupEntry {
                    binding: 1,
                    resource: wgpu::BindingResource::TextureView(low_depth),
                },
                wgpu::BindGroupEntry {
                    binding: 2,
                    resource: params.as_entire_binding(),
                },
            ],
        })
    }

    /// One thread per low-resolution texel.
    pub fn record(&self, pass: &mut wgpu::ComputePass, bind: &wgpu::BindGroup, low: (u32, u32)) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.dispatch_workgroups(low.0.div_ceil(8), low.1.div_ceil(8), 1);
    }
}
