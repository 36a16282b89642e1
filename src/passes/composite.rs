//! Composite pass (`shaders/composite.wgsl`): upsample the particle target (bilinear or
//! nearest-depth) and blend it, premultiplied, onto the host's colour target, inside a pass
//! that has the host's depth attached read-only (or none), so the host may draw more after it.

use super::{bind, host_depth_texture, layout, render_pipeline, texture, uniform};
use crate::renderer::Targets;
use crate::shaders::Shader;
use crate::types::CompositeParams;

pub(crate) struct CompositePass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
    sampler: wgpu::Sampler,
}

impl CompositePass {
    /// A pipeline writing the host's colour format with the host's sample count, in passes
    /// that have the host's depth attached read-only when `targets` has one (it neither
    /// tests nor writes it; it reads every sample of it as a texture).
    pub fn new(device: &wgpu::Device, targets: &Targets) -> Self {
        let samples = targets.sample_count;
        let f = wgpu::ShaderStages::FRAGMENT;
        let layout = layout(
            device,
            "composite",
            &[
                texture(0, wgpu::TextureSampleType::Float { filterable: true }, f),
                texture(1, wgpu::TextureSampleType::Float { filterable: false }, f),
                host_depth_texture(2, samples, f),
                wgpu::BindGroupLayoutEntry {
                    binding: 3,
                    visibility: f,
                    ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
                    count: None,
                },
                uniform::<CompositeParams>().entry(4, f),
            ],
        );
        let premultiplied_over = wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        };
        let target = wgpu::ColorTargetState {
            format: targets.color_format,
            blend: Some(wgpu::BlendState {
                color: premultiplied_over,
                alpha: premultiplied_over,
            }),
            write_mask: wgpu::ColorWrites::ALL,
        };
        let pipeline = render_pipeline(
            device,
            (
                Shader::Composite,
                &[
                    ("SAMPLES", samples),
                    ("GAMMA_TARGET", targets.gamma_encoded() as u32),
                ],
            ),
            &[&layout],
            (target, samples),
            // (compatible with the pass's read-only depth; it tests nothing: the particles
            // were hidden behind the host's depth when they were drawn)
            (targets.depth_format.filter(|_| targets.depth_in_pass)).map(|format| {
                wgpu::DepthStencilState {
                    format,
                    depth_write_enabled: Some(false),
                    depth_compare: Some(wgpu::CompareFunction::Always),
                    stencil: Default::default(),
                    bias: Default::default(),
                }
            }),
        );
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("flurry.composite"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        CompositePass {
            layout,
            pipeline,
            sampler,
        }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        low_color: &wgpu::TextureView,
        low_depth: &wgpu::TextureView,
        host_depth: &wgpu::TextureView,
        params: &dyn crate::passes::Binding,
    ) -> wgpu::BindGroup {
        let view = wgpu::BindingResource::TextureView;
        let resources = [
            (0, view(low_color)),
            (1, view(low_depth)),
            (2, view(host_depth)),
            (3, wgpu::BindingResource::Sampler(&self.sampler)),
            (4, params.resource()),
        ];
        bind(device, "composite", &self.layout, &resources)
    }

    pub fn record(&self, pass: &mut wgpu::RenderPass, bind: &wgpu::BindGroup) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.draw(0..3, 0..1);
    }
}
