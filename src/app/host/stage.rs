//! A stand-in for a host application's scene (`stage.wgsl`): opaque flat quads and an
//! optional heightfield terrain drawn into the host's colour and depth, so demos and tests
//! have geometry that hides particles and that particles settle on. The program draws it
//! with its own pipeline, as any host would.

use encase::ShaderType;
use flurry::glam::{Mat4, Vec3, Vec4};
use flurry::wgpu;

use super::projection::HostSetup;

/// Depth format of the stand-in host.
pub const HOST_DEPTH_FORMAT: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;

/// The stage's source.
pub const STAGE_WGSL: &str = include_str!("stage.wgsl");

/// Most quads in a stand-in host scene (`MAX_QUADS` in stage.wgsl).
pub const MAX_HOST_QUADS: usize = 16;

/// One flat quad of the stage (`HostQuad` in stage.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub struct HostQuad {
    pub center: Vec4,
    pub u: Vec4,
    pub v: Vec4,
    pub color: Vec4,
}

/// The stage's uniforms (`HostUniforms` in stage.wgsl).
#[derive(Clone, Copy, Debug, Default, ShaderType)]
pub struct HostUniforms {
    pub view_proj: Mat4,
    /// Terrain: half size (m), height amplitude (m), cells per side, unused.
    pub terrain: Vec4,
    pub quads: [HostQuad; MAX_HOST_QUADS],
}

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

/// A procedural heightfield: [`terrain_height`] over a square.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Terrain {
    /// Half the side of the square, metres, centred on the origin.
    pub half_size: f32,
    /// Heights stay within ±amplitude metres.
    pub amplitude: f32,
    /// Grid cells per side (two triangles each).
    pub cells: u32,
}

/// Height of the terrain at (x, z) (`terrain_height` in stage.wgsl).
pub fn terrain_height(x: f32, z: f32, amplitude: f32) -> f32 {
    let h = 0.6 * (0.11 * x + 0.4).sin() * (0.09 * z).cos()
        + 0.3 * (0.23 * z + 1.3).sin() * (0.19 * x).cos()
        + 0.1 * (0.51 * x + 0.37 * z).sin();
    amplitude * h
}

/// The terrain of [`Stage::Terrain`].
pub const TERRAIN: Terrain = Terrain {
    half_size: 60.0,
    amplitude: 2.5,
    cells: 96,
};

/// Ground height of [`Stage::Terrain`] at (x, z).
pub fn ground(x: f32, z: f32) -> f32 {
    terrain_height(x, z, TERRAIN.amplitude)
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

/// The host scene a demo runs in (`--scene`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum Stage {
    /// Nothing but the background.
    #[default]
    Empty,
    /// A flat ground plane at y = 0 seen from a camera above it; particles collide with it
    /// (snow settles, fireworks bounce).
    Plane,
    /// Rolling heightfield hills and three pillars standing on them; snow settles on both.
    Terrain,
}

impl Stage {
    /// Put the stage's geometry into the host scene.
    pub fn apply(self, host: &mut HostScene) {
        host.quads = self.quads();
        host.terrain = (self == Stage::Terrain).then_some(TERRAIN);
    }

    /// The stage's opaque quads.
    pub fn quads(self) -> Vec<HostQuad> {
        match self {
            Stage::Empty => vec![],
            Stage::Terrain => [(-4.0, 0.0), (3.5, -5.0), (-1.0, -11.0)]
                .into_iter()
                .flat_map(|(x, z)| {
                    // sunk half a metre so no gap shows on a slope
                    let base = Vec3::new(x, ground(x, z) - 0.5, z);
                    pillar(base, 0.35, 4.5, Vec3::new(0.12, 0.1, 0.09))
                })
                .collect(),
            Stage::Plane => vec![HostQuad::rect(
                Vec3::ZERO,
                Vec3::new(60.0, 0.0, 0.0),
                Vec3::new(0.0, 0.0, 60.0),
                Vec3::new(0.05, 0.055, 0.07),
            )],
        }
    }
}

/// The stand-in scene's pipelines and uniforms.
pub struct HostScene {
    pipeline: wgpu::RenderPipeline,
    terrain_pipeline: wgpu::RenderPipeline,
    buffer: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// The buildings' pipeline and its group 1 (the boxes).
    box_pipeline: wgpu::RenderPipeline,
    box_layout: wgpu::BindGroupLayout,
    /// A crowd's buildings: their boxes' bind group and count, and the street under them.
    city: Option<(wgpu::BindGroup, u32)>,
    street: Option<HostQuad>,
    /// At most [`MAX_HOST_QUADS`]; more are ignored.
    pub quads: Vec<HostQuad>,
    pub terrain: Option<Terrain>,
    /// Its depth convention and sample count.
    pub setup: HostSetup,
}

impl HostScene {
    /// The scene drawn into `color_format` targets of `setup`'s sample count, with its
    /// depth convention.
    pub fn new(device: &wgpu::Device, color_format: wgpu::TextureFormat, setup: HostSetup) -> Self {
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("stage"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX_FRAGMENT,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: Some(HostUniforms::min_size()),
                },
                count: None,
            }],
        });
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("stage"),
            source: wgpu::ShaderSource::Wgsl(STAGE_WGSL.into()),
        });
        let box_layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: Some("stage.city"),
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Storage { read_only: true },
                    has_dynamic_offset: false,
                    min_binding_size: Some(super::city::HostBox::min_size()),
                },
                count: None,
            }],
        });
        let pipeline = |vertex: &str| {
            let groups = if vertex == "vs_box" {
                vec![Some(&layout), Some(&box_layout)]
            } else {
                vec![Some(&layout)]
            };
            let pipeline_layout = device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                label: Some("stage"),
                bind_group_layouts: &groups,
                immediate_size: 0,
            });
            device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
                label: Some("stage"),
                layout: Some(&pipeline_layout),
                vertex: wgpu::VertexState {
                    module: &module,
                    entry_point: Some(vertex),
                    compilation_options: Default::default(),
                    buffers: &[],
                },
                primitive: Default::default(),
                depth_stencil: Some(wgpu::DepthStencilState {
                    format: HOST_DEPTH_FORMAT,
                    depth_write_enabled: Some(true),
                    depth_compare: Some(setup.projection.depth_compare()),
                    stencil: Default::default(),
                    bias: Default::default(),
                }),
                multisample: wgpu::MultisampleState {
                    count: setup.samples,
                    ..Default::default()
                },
                fragment: Some(wgpu::FragmentState {
                    module: &module,
                    entry_point: Some("fs_main"),
                    compilation_options: Default::default(),
                    targets: &[Some(color_format.into())],
                }),
                multiview_mask: None,
                cache: None,
            })
        };
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("stage"),
            size: HostUniforms::min_size().get(),
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("stage"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: buffer.as_entire_binding(),
            }],
        });
        HostScene {
            pipeline: pipeline("vs_main"),
            terrain_pipeline: pipeline("vs_terrain"),
            box_pipeline: pipeline("vs_box"),
            box_layout,
            city: None,
            street: None,
            buffer,
            bind,
            quads: Vec::new(),
            terrain: None,
            setup,
        }
    }

    /// Draw `map`'s buildings standing on `ground`, and the street under them.
    pub fn set_city(&mut self, device: &wgpu::Device, map: &flurry::nav::CityMap, ground: f32) {
        let boxes = super::city::buildings(map, ground);
        if !boxes.is_empty() {
            let bind = super::city::upload(device, &self.box_layout, &boxes);
            self.city = Some((bind, boxes.len() as u32));
        }
        let (w, h) = map.size();
        let half = Vec3::new(0.5 * w as f32, 0.0, 0.5 * h as f32) * map.cell();
        let [x0, z0] = map.origin();
        let centre = Vec3::new(x0 + half.x, ground - 0.01, z0 + half.z);
        let street = Vec3::new(0.045, 0.045, 0.05);
        let (u, v) = (Vec3::X * half.x, Vec3::Z * half.z);
        self.street = Some(HostQuad::rect(centre, u, v, street));
    }

    /// Write the view and quads for this frame.
    pub fn update(&self, queue: &wgpu::Queue, view_proj: Mat4) {
        let terrain = self.terrain.map_or(Vec4::ZERO, |t| {
            Vec4::new(t.half_size, t.amplitude, t.cells as f32, 1.0)
        });
        let mut u = HostUniforms {
            view_proj,
            terrain,
            ..Default::default()
        };
        for (slot, q) in u
            .quads
            .iter_mut()
            .zip(self.street.iter().chain(&self.quads))
        {
            *slot = *q;
        }
        let mut bytes = encase::UniformBuffer::new(Vec::<u8>::new());
        bytes.write(&u).expect("encase writes into a Vec");
        queue.write_buffer(&self.buffer, 0, &bytes.into_inner());
    }

    /// The host's pass: clear `color` to `background` (linear) and `depth` to far (1, or 0
    /// under reversed Z), draw the scene; in a profiler scope when one is given.
    pub fn encode(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        (color, depth): (&wgpu::TextureView, &wgpu::TextureView),
        background: [f64; 4],
        profiler: Option<&wgpu_profiler::GpuProfiler>,
    ) {
        let query = profiler.map(|p| p.begin_pass_query("host", encoder));
        let [r, g, b, a] = background;
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("host"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: color,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color { r, g, b, a }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(self.setup.projection.clear_depth()),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: query
                    .as_ref()
                    .and_then(|q| q.render_pass_timestamp_writes()),
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.record(&mut pass);
        }
        if let (Some(p), Some(q)) = (profiler, query) {
            p.end_query(encoder, q);
        }
    }

    /// Draw the terrain and the quads into a pass with the host's colour and depth attached.
    pub fn record(&self, pass: &mut wgpu::RenderPass) {
        pass.set_bind_group(0, &self.bind, &[]);
        if let Some(t) = self.terrain {
            pass.set_pipeline(&self.terrain_pipeline);
            pass.draw(0..6 * t.cells * t.cells, 0..1);
        }
        let n = (self.quads.len() + self.street.is_some() as usize).min(MAX_HOST_QUADS) as u32;
        if n > 0 {
            pass.set_pipeline(&self.pipeline);
            pass.draw(0..6, 0..n);
        }
        if let Some((boxes, count)) = &self.city {
            pass.set_pipeline(&self.box_pipeline);
            pass.set_bind_group(1, boxes, &[]);
            pass.draw(0..36, 0..*count);
        }
    }
}
