//! A stand-in for the host application's scene (`shaders/host.wgsl`): opaque flat quads
//! and an optional heightfield terrain drawn into the host's colour and depth, so tests and
//! demos have geometry that hides particles and that particles settle on.

use glam::Vec3;

use wgpu_profiler::GpuProfiler;

use crate::camera::Camera;
use crate::passes::{layout, render_pipeline, render_pipeline_from, uniform};
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

/// A procedural heightfield (seed 000's terrain): [`terrain_height`] over a square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terrain {
    /// Half the side of the square, metres, centred on the origin.
    pub half_size: f32,
    /// Heights stay within ±amplitude metres.
    pub amplitude: f32,
    /// Grid cells per side (two triangles each).
    pub cells: u32,
}

/// Height of the terrain at (x, z) (`terrain_height` in host.wgsl).
pub fn terrain_height(x: f32, z: f32, amplitude: f32) -> f32 {
    let h = 0.6 * (0.11 * x + 0.4).sin() * (0.09 * z).cos()
        + 0.3 * (0.23 * z + 1.3).sin() * (0.19 * x).cos()
        + 0.1 * (0.51 * x + 0.37 * z).sin();
    amplitude * h
}

/// The five visible faces (four sides and the top) of an upright box standing on
/// `base`, `half` wide and `height` tall, each face shaded by its normal.
pub fn pillar(base: Vec3, half: f32, height: f32, rgb: Vec3) -> Vec<HostQuad> {
    let light = Vec3::new(-0.5, 1.0, 0.3).normalize();
    let face = |center: Vec3, u: Vec3, v: Vec3| {
        let n = u.cross(v).normalize();
        let shade = 0.35 + 0.65 * n.dot(light).abs();
        HostQuad::rect(center, u, v, rgb * shade)
    };
    let mid = base + Vec3::Y * (0.5 * height);
    let (x, y, z) = (Vec3::X * half, Vec3::Y * (0.5 * height), Vec3::Z * half);
    vec![
        face(mid + x, z, y),
        face(mid - x, z, y),
        face(mid + z, x, y),
        face(mid - z, x, y),
        face(base + Vec3::Y * height, x, z),
    ]
}

pub struct HostScene {
    pipeline: wgpu::RenderPipeline,
    terrain_pipeline: wgpu::RenderPipeline,
    buffer: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// At most [`MAX_HOST_QUADS`]; more are ignored.
    pub quads: Vec<HostQuad>,
    pub terrain: Option<Terrain>,
}

impl HostScene {
    pub fn new(device: &wgpu::Device, color_format: wgpu::TextureFormat) -> Self {
        use encase::ShaderType;
        let vf = wgpu::ShaderStages::VERTEX_FRAGMENT;
        let layout = layout(device, "host", &[uniform(0, vf)]);
        let depth = Some(wgpu::DepthStencilState {
            format: HOST_DEPTH_FORMAT,
            depth_write_enabled: Some(true),
            depth_compare: Some(wgpu::CompareFunction::Less),
            stencil: Default::default(),
            bias: Default::default(),
        });
        let triangles = wgpu::PrimitiveTopology::TriangleList;
        let (shader, layouts) = (Shader::Host, &[&layout]);
        let pipeline = render_pipeline(
            device,
            shader,
            layouts,
            triangles,
            color_format.into(),
            depth.clone(),
        );
        let terrain_pipeline = render_pipeline_from(
            device,
            shader,
            "vs_terrain",
            layouts,
            triangles,
            color_format.into(),
            depth,
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
            terrain_pipeline,
            buffer,
            bind,
            quads: Vec::new(),
            terrain: None,
        }
    }

    /// Write the camera and quads for this frame.
    pub fn update(&self, queue: &wgpu::Queue, camera: &Camera) {
        let terrain = self.terrain.map_or(glam::Vec4::ZERO, |t| {
            glam::Vec4::new(t.half_size, t.amplitude, t.cells as f32, 1.0)
        });
        let mut u = HostUniforms {
            view_proj: camera.view_proj(),
            terrain,
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

    /// Draw the terrain and the quads into a pass with the host's colour and depth attached.
    pub fn record(&self, pass: &mut wgpu::RenderPass) {
        pass.set_bind_group(0, &self.bind, &[]);
        if let Some(t) = self.terrain {
            pass.set_pipeline(&self.terrain_pipeline);
            pass.draw(0..6 * t.cells * t.cells, 0..1);
        }
        let n = self.quads.len().min(MAX_HOST_QUADS) as u32;
        if n > 0 {
            pass.set_pipeline(&self.pipeline);
            pass.draw(0..6, 0..n);
        }
    }
}
