//! Composite pass (`shaders/composite.wgsl`): upsample the particle target (bilinear or
//! nearest-depth) and blend it, premultiplied, onto the host's colour target, inside a pass
//! that has the host's depth attached read-only (or none), so the host may draw more after it.

use super::{bind, host_depth_texture, layout, render_pipeline, texture, uniform};
use crate::compiler::Compiler;
use crate::renderer::Targets;
use crate::shaders::Shader;
use crate::types::CompositeParams;

pub(crate) struct CompositePass {
    device: Compiler,
    targets: Targets,
    layout: wgpu::BindGroupLayout,
    /// Upsampling bilinearly (a particle target smaller than the host's), its own texel a
    /// pixel (one of the host's size), then upsampling by nearest depth (index + 2): each
    /// built the first time a frame needs it.
    pipelines: [std::sync::OnceLock<wgpu::RenderPipeline>; 4],
    sampler: wgpu::Sampler,
}

impl CompositePass {
    /// Pipelines writing the host's colour format with the host's sample count, in passes
    /// that have the host's depth attached read-only when `targets` has one (they neither
    /// test nor write it; they read every sample of it as a texture).
    pub fn new(device: &Compiler, targets: &Targets) -> Self {
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
        let sampler = device.create_sampler(&wgpu::SamplerDescriptor {
            label: Some("flurry.composite"),
            mag_filter: wgpu::FilterMode::Linear,
            min_filter: wgpu::FilterMode::Linear,
            ..Default::default()
        });
        CompositePass {
            device: device.clone(),
            targets: *targets,
            layout,
            pipelines: Default::default(),
            sampler,
        }
    }

    /// The pipeline for a particle target of the host's size (`same_size`) or a smaller
    /// one, upsampled by `nearest` depth (where the host has a depth) or bilinearly.
    pub fn pipeline(&self, same_size: bool, nearest: bool) -> &wgpu::RenderPipeline {
        let nearest = nearest && self.targets.depth_format.is_some();
        self.pipelines[same_size as usize + 2 * nearest as usize].get_or_init(|| {
            let targets = &self.targets;
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
            let samples = targets.sample_count;
            let consts = [
                ("SAMPLES", samples),
                ("GAMMA_TARGET", targets.gamma_encoded() as u32),
                ("SAME_SIZE", same_size as u32),
                ("NEAREST_DEPTH", nearest as u32),
                ("TONEMAP", !targets.hdr() as u32),
            ];
            render_pipeline(
                &self.device,
                (Shader::Composite, &consts),
                &[&self.layout],
                (target, samples),
                // (compatible with the pass's read-only depth; it tests nothing: the
                // particles were hidden behind the host's depth when they were drawn)
                (targets.depth_format.filter(|_| targets.depth_in_pass)).map(|format| {
                    wgpu::DepthStencilState {
                        format,
                        depth_write_enabled: Some(false),
                        depth_compare: Some(wgpu::CompareFunction::Always),
                        stencil: Default::default(),
                        bias: Default::default(),
                    }
                }),
            )
        })
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

    /// Composite the particle target `bind` binds, of the host's size (`same_size`: at
    /// [`crate::renderer::Scale::Full`]) or smaller, upsampled by `nearest` depth or not.
    pub fn record(
        &self,
        pass: &mut wgpu::RenderPass,
        bind: &wgpu::BindGroup,
        (same_size, nearest): (bool, bool),
    ) {
        pass.set_pipeline(self.pipeline(same_size, nearest));
        pass.set_bind_group(0, bind, &[]);
        pass.draw(0..3, 0..1);
    }
}
