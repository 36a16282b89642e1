//! Tonemap pass (`shaders/tonemap.wgsl`): the HDR particle image to an LDR target.

use super::{layout, render_pipeline};
use crate::shaders::Shader;

pub struct TonemapPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

impl TonemapPass {
    /// A pipeline writing `target_format` (sRGB formats encode on store).
    pub fn new(device: &wgpu::Device, target_format: wgpu::TextureFormat) -> Self {
        let layout = layout(
            device,
            "tonemap",
            &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::FRAGMENT,
                ty: wgpu::BindingType::Texture {
                    sample_type: wgpu::TextureSampleType::Float { filterable: false },
                    view_dimension: wgpu::TextureViewDimension::D2,
                    multisampled: false,
                },
                count: None,
            }],
        );
        let pipeline = render_pipeline(
            device,
            Shader::Tonemap,
            &layout,
            wgpu::PrimitiveTopology::TriangleList,
            target_format.into(),
        );
        TonemapPass { layout, pipeline }
    }

    pub fn bind(&self, device: &wgpu::Device, hdr: &wgpu::TextureView) -> wgpu::BindGroup {
        device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("tonemap"),
            layout: &self.layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: wgpu::BindingResource::TextureView(hdr),
            }],
        })
    }

    pub fn record(&self, pass: &mut wgpu::RenderPass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.draw(0..3, 0..1);
    }
}
