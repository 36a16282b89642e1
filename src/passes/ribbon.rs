//! Ribbon passes: `shaders/ribbon_pieces.wgsl` lists the pieces of every span of the
//! sorted ribbon list, `shaders/ribbon.wgsl` draws them as a camera-facing strip along a
//! centripetal Catmull-Rom spline, into the particle target after the effect's billboards
//! (one instance per piece, the count written on the GPU: no read-back).

use super::draw::{particle_target, target_layout};
use super::{bind, bind_buffers, buffer_layout, compute_pipeline, dispatch_over_alive, layout};
use super::{read_only, read_write, render_pipeline, texture, uniform, BufferSlot};
use crate::effect::Blend;
use crate::pool::{ParticlePool, RIBBON_DRAW_OFFSET};
use crate::shaders::Shader;
use crate::types::{Counters, EffectParams, FrameUniforms, Particle};

/// ribbon_pieces.wgsl's group 0, in binding order.
pub(super) fn piece_slots() -> [BufferSlot; 7] {
    [
        read_only::<Particle>(),
        read_only::<[u32; 2]>(),
        read_write::<Counters>(),
        read_write::<[u32; 2]>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_write::<f32>(),
    ]
}

/// ribbon.wgsl's group 0, in binding order.
pub(super) fn draw_slots() -> [BufferSlot; 6] {
    [
        read_only::<Particle>(),
        read_only::<[u32; 2]>(),
        read_only::<[u32; 2]>(),
        uniform::<FrameUniforms>(),
        uniform::<EffectParams>(),
        read_only::<f32>(),
    ]
}

/// ribbon.wgsl's group 2: the effect's image and the sampler.
fn image_layout(device: &wgpu::Device) -> wgpu::BindGroupLayout {
    let f = wgpu::ShaderStages::FRAGMENT;
    let image = texture(0, wgpu::TextureSampleType::Float { filterable: true }, f);
    let sampler = wgpu::BindGroupLayoutEntry {
        binding: 1,
        visibility: f,
        ty: wgpu::BindingType::Sampler(wgpu::SamplerBindingType::Filtering),
        count: None,
    };
    layout(device, "ribbon_image", &[image, sampler])
}

/// The piece listing (one per renderer).
pub(crate) struct RibbonPieces {
    layout: wgpu::BindGroupLayout,
    pipeline: wgpu::ComputePipeline,
}

impl RibbonPieces {
    pub fn new(device: &wgpu::Device) -> Self {
        let c = wgpu::ShaderStages::COMPUTE;
        let layout = buffer_layout(device, "ribbon_pieces", c, &piece_slots());
        let pipeline =
            compute_pipeline(device, Shader::RibbonPieces, "main", &[Some(&layout)], &[]);
        RibbonPieces { layout, pipeline }
    }

    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        frame: &wgpu::Buffer,
        effect: &wgpu::Buffer,
    ) -> wgpu::BindGroup {
        let buffers = [
            &pool.particles,
            &pool.ribbon_list,
            &pool.draw_counters,
            &pool.ribbon_pieces,
            frame,
            effect,
            &pool.ribbon_along,
        ];
        bind_buffers(device, "ribbon_pieces", &self.layout, &buffers)
    }

    /// One thread per alive particle (at least one per ribbon point), sized on the GPU.
    pub fn record(
        &self,
        pass: &mut wgpu::ComputePass,
        bind: &wgpu::BindGroup,
        pool: &ParticlePool,
    ) {
        dispatch_over_alive(pass, &self.pipeline, bind, pool);
    }
}

/// The ribbon draw for one blend mode.
pub(crate) struct RibbonPass {
    layout: wgpu::BindGroupLayout,
    image_layout: wgpu::BindGroupLayout,
    pipeline: wgpu::RenderPipeline,
}

/// An effect's ribbon draw: its buffers (group 0) and its image (group 2).
pub(crate) struct RibbonDraw {
    buffers: wgpu::BindGroup,
    image: wgpu::BindGroup,
}

impl RibbonPass {
    pub fn new(device: &wgpu::Device, blend: Blend) -> Self {
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let layout = buffer_layout(device, "ribbon", vf, &draw_slots());
        let image_layout = image_layout(device);
        let layouts = [&layout, &target_layout(device), &image_layout];
        let target = (particle_target(blend), 1);
        let pipeline = render_pipeline(device, (Shader::Ribbon, &[]), &layouts, target, None);
        RibbonPass {
            layout,
            image_layout,
            pipeline,
        }
    }

    /// Bind groups drawing the pool's listed pieces with `image` (its view and sampler).
    pub fn bind(
        &self,
        device: &wgpu::Device,
        pool: &ParticlePool,
        (frame, effect): (&wgpu::Buffer, &wgpu::Buffer),
        (image, sampler): (&wgpu::TextureView, &wgpu::Sampler),
    ) -> RibbonDraw {
        let buffers = [
            &pool.particles,
            &pool.ribbon_list,
            &pool.ribbon_pieces,
            frame,
            effect,
            &pool.ribbon_along,
        ];
        let resources = [
            (0, wgpu::BindingResource::TextureView(image)),
            (1, wgpu::BindingResource::Sampler(sampler)),
        ];
        RibbonDraw {
            buffers: bind_buffers(device, "ribbon", &self.layout, &buffers),
            image: bind(device, "ribbon_image", &self.image_layout, &resources),
        }
    }

    /// Draw into a pass whose bind group 1 (the draw's [`target_layout`]) is already set.
    pub fn record(&self, pass: &mut wgpu::RenderPass, draw: &RibbonDraw, pool: &ParticlePool) {
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &draw.buffers, &[]);
        pass.set_bind_group(2, &draw.image, &[]);
        pass.draw_indirect(&pool.draw_counters, RIBBON_DRAW_OFFSET);
    }
}
