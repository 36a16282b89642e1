//! Draw pass (`shaders/draw.wgsl`): camera-facing billboards pulled from the visible list by
//! `draw_indirect` (instance count written on the GPU), into an Rgba16Float target.

use super::{bind_buffers, layout, render_pipeline, storage, texture, uniform};
use crate::effect::Blend;
use crate::pool::ParticlePool;
use crate::shaders::Shader;
use crate::types::IndirectArgs;

/// Format of the particle colour target.
pub const PARTICLE_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Rgba16Float;

pub struct DrawPass {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

fn blend_state(blend: Blend) -> wgpu::BlendState {
    let color = match blend {
        // premultiplied colour: additive is (One, One), "over" is (One, OneMinusSrcAlpha)
        Blend::Additive => wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::One,
            operation: wgpu::BlendOperation::Add,
        },
        Blend::Alpha => wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    };
    wgpu::BlendState {
        color,
        alpha: wgpu::BlendComponent {
            src_factor: wgpu::BlendFactor::One,
            dst_factor: wgpu::BlendFactor::OneMinusSrcAlpha,
            operation: wgpu::BlendOperation::Add,
        },
    }
}

impl DrawPass {
    pub fn new(device: &wgpu::Device, blend: Blend) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let v = wgpu::ShaderStages::VERTEX;
        let layout = layout(
            device,
            "draw",
            &[
                storage(0, true, v),
                storage(1, true, v),
                uniform(2, vf),
                uniform(3, vf),
            ],
        );
        let pipeline = render_pipeline(
            device,
            Shader::Draw,
            &[&layout, &target_layout(device)],
            wgpu::PrimitiveTopology::TriangleList,
            wgpu::ColorTargetState {
                format: PARTICLE_FORMAT,
                blend: Some(blend_state(blend)),
                write_mask: wgpu::ColorWrites::ALL,
            },
            None,
        );
        DrawPass { layout, pipeline }
    }

    /// Bind group drawing the pool's visible list in order.
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        bind_buffers(
            device,
            "draw",
            &self.layout,
            &[&pool.particles, &pool.visible, frame, effect],
        )
    }

    /// Draw into a pass whose bind group 1 ([`target_layout`]) is already set.
    pub fn record(&self, pass: &mut wgpu::RenderPass, bind: &wgpu::BindGroup, pool: &ParticlePool) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, bind, &[]);
        pass.draw_indirect(&pool.args, IndirectArgs::DRAW_OFFSET);
    }
}

/// Bind group 1 of the draw: the particle target's scene depth (Rg32Float: farthest, nearest).
pub fn target_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let depth = wgpu::TextureSampleType::Float { filterable: false };
    layout(
        device,
        "draw_target",
        &[texture(0, depth, wgpu::ShaderStages::FRAGMENT)],
    )
}
