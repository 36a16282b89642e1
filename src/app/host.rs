//! A stand-in for the host application's scene (`shaders/host.wgsl`): opaque flat quads
//! drawn into the host's colour and depth, so tests and demos have geometry that hides
//! particles.

use glam::Vec3;

use wgpu_profiler::GpuProfiler;

use crate::camera::Camera;
use crate::passes::{layout, render_pipeline, uniform};
use crate::profiler::render_pass;
use crate::renderer::color_attachment;
use crate::shaders::Shader;
use crate::types::{uniform_bytes, HostQuad, HostUniforms, MAX_HOST_QUADS};

/// Depth format of the stand-in host.
pub const HOST_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

impl HostQuad {
    /// A rectangle at `center` spanning ±`u` and ±`v`, of linear colour `rgb`.
    pub fn rect(center: Vec3, u: Vec3, v: Vec3, rgb: Vec3) -> Self {
        HostQuad {
            center: center.extend(1.0),
            u: u.extend(0.0),
            v: v.extend(0.0),
            color: rgb.extend(1.0),
        }
    }
}

pub struct HostScene {
    pipeline: wgpu::RenderPipeline,
    buffer: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// At most [`MAX_HOST_QUADS`]; more are ignored.
    pub quads: Vec<HostQuad>,
}

impl HostScene {
    pub fn new(device: &wgpu::Device, color_format: wgpu::TextureFormat) -> Self {
        use encase::ShaderType;
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let layout = layout(device, "host", &[uniform(0, vf)]);
        let pipeline = render_pipeline(
            device,
            Shader::Host,
            &[&layout],
            wgpu::PrimitiveTopology::TriangleList,
            color_format.into(),
            Some(wgpu::DepthStencilState {
                format: HOST_DEPTH_FORMAT,
                depth_write_enabled: Some(true),
                depth_compare: Some(wgpu::CompareFunction::Less),
                stencil: Default::default(),
                bias: Default::default(),
            }),
        );
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.host"),
            size: HostUniforms::min_size().get(),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = crate::passes::bind_buffers(device, "host", &layout, &[&buffer]);
        HostScene {
            pipeline,
            buffer,
            bind,
            quads: Vec::new(),
        }
    }

    /// Write the camera and quads for this frame.
    pub fn update(&self, queue: &wgpu::Queue, camera: &Camera) {
        let mut u = HostUniforms {
            view_proj: camera.view_proj(),
            ..Default::default()
        };
        for (slot, q) in u.quads.iter_mut().zip(&self.quads) {
            *slot = *q;
        }
        queue.write_buffer(&self.buffer, 0, &uniform_bytes(&u));
    }

    /// The host's pass: clear `color` to `background` (linear) and `depth` to far, draw
    /// the quads.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        (color, depth): (&wgpu::TextureView, &wgpu::TextureView),
        background: [f64; 4],
        profiler: Option<&GpuProfiler>,
    ) {
        let [r, g, b, a] = background;
        let clear = wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a });
        let attachments = [Some(color_attachment(color, clear))];
        let desc = wgpu::RenderPassDescriptor {
            label: Some("host"),
            color_attachments: &attachments,
            depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                view: depth,
                depth_ops: Some(wgpu::Operations {
                    load: wgpu::LoadOp::Clear(1.0),
                    store: wgpu::StoreOp::Store,
                }),
                stencil_ops: None,
            }),
            timestamp_writes: None,
            occlusion_query_set: None,
            multiview_mask: None,
        };
        render_pass(encoder, profiler, desc, "host", |pass| self.record(pass));
    }

    /// Draw the quads into a pass with the host's colour and depth attached.
    pub fn record(&self, pass: &mut wgpu::RenderPass) {
        let n = self.quads.len().min(MAX_HOST_QUADS) as u32;
        if n == 0 {
            return;
        }
        pass.set_pipeline(&self.pipeline);
        pass.set_bind_group(0, &self.bind, &[]);
        pass.draw(0..6, 0..n);
    }
}
