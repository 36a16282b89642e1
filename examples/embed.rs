//! Embedding flurry in an application that renders its own scene the way engines do.
//!
//! The host draws a lit ground and a few boxes with its own pipeline, its own matrices and
//! its own depth buffer — reversed Z (1 at the near plane, cleared to 0, tested with
//! `Greater`) with an infinite far plane, and 4× MSAA — then hands its views to flurry,
//! which adds snow that falls behind and in front of the boxes and settles on them:
//! `prepare` records flurry's work, and `render` composites the snow inside the host's own
//! overlay pass (multisampled, resolved at its end), where the host then draws a UI panel
//! over it. flurry reads the depth convention from the projection matrix. Windowed by
//! default:
//!
//! ```text
//! cargo run --release --example embed
//! cargo run --release --example embed -- --headless --frames 30 --out embed.png
//! ```

use std::sync::Arc;

use flurry::effect::{Collision, EffectDesc, Response};
use flurry::glam::{Mat4, Vec3};
use flurry::wgpu::{self, util::DeviceExt};
use flurry::{EffectId, FrameTargets, GpuContext, ParticleRenderer, Settings, Targets, View};

const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
/// Samples per pixel of the host's colour and depth.
const SAMPLES: u32 = 4;
const PARTICLES: u32 = 32_768;

/// The host's own scene: unit cubes scaled and placed by instance matrices, lit by a sun.
const SCENE_WGSL: &str = r#"
struct Globals { view_proj: mat4x4<f32>, boxes: array<mat4x4<f32>, 8> }
@group(0) @binding(0) var<uniform> g: Globals;
struct Out { @builtin(position) clip: vec4<f32>, @location(0) normal: vec3<f32>, @location(1) tint: f32 }
@vertex fn vs(@location(0) pos: vec3<f32>, @location(1) normal: vec3<f32>, @builtin(instance_index) i: u32) -> Out {
    let m = g.boxes[i];
    var o: Out;
    o.clip = g.view_proj * m * vec4<f32>(pos, 1.0);
    o.normal = normalize((m * vec4<f32>(normal, 0.0)).xyz);
    o.tint = select(0.55, 0.25, i == 0u);
    return o;
}
@fragment fn fs(i: Out) -> @location(0) vec4<f32> {
    let sun = normalize(vec3<f32>(0.4, 1.0, 0.3));
    let light = 0.15 + 0.85 * max(dot(i.normal, sun), 0.0);
    return vec4<f32>(vec3<f32>(i.tint * light) * vec3<f32>(0.9, 0.85, 0.8), 1.0);
}

// The UI: a translucent panel in the lower left corner, drawn after the particles.
@vertex fn ui_vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
    let corner = array<vec2<f32>, 6>(vec2(0.0, 0.0), vec2(1.0, 0.0), vec2(1.0, 1.0),
                                     vec2(0.0, 0.0), vec2(1.0, 1.0), vec2(0.0, 1.0))[v];
    return vec4<f32>(vec2(-0.92, -0.92) + corner * vec2(0.7, 0.3), 0.0, 1.0);
}
@fragment fn ui_fs() -> @location(0) vec4<f32> {
    return vec4<f32>(0.08, 0.1, 0.16, 0.8);
}
"#;

/// A unit cube centred on the origin: 36 vertices of (position, normal).
fn cube() -> Vec<[f32; 6]> {
    let mut v = Vec::new();
    for axis in 0..3 {
        for sign in [-1.0f32, 1.0] {
            let n = Vec3::from_array(std::array::from_fn(|k| if k == axis { sign } else { 0.0 }));
            let (u, w) = (
                Vec3::from_array(std::array::from_fn(|k| (k == (axis + 1) % 3) as u8 as f32)),
                Vec3::from_array(std::array::from_fn(|k| (k == (axis + 2) % 3) as u8 as f32)),
            );
            let c = |a: f32, b: f32| (n + u * a + w * b) * 0.5;
            for p in [
                c(-1., -1.),
                c(1., -1.),
                c(1., 1.),
                c(-1., -1.),
                c(1., 1.),
                c(-1., 1.),
            ] {
                v.push([p.x, p.y, p.z, n.x, n.y, n.z]);
            }
        }
    }
    v
}

/// The boxes: the ground slab first, then a few crates.
fn boxes() -> Vec<Mat4> {
    let at = |x: f32, z: f32, s: Vec3| {
        Mat4::from_translation(Vec3::new(x, s.y * 0.5, z)) * Mat4::from_scale(s)
    };
    vec![
        Mat4::from_translation(Vec3::new(0.0, -0.25, 0.0))
            * Mat4::from_scale(Vec3::new(40.0, 0.5, 40.0)),
        at(-3.0, 0.0, Vec3::new(2.0, 2.0, 2.0)),
        at(2.5, -2.0, Vec3::new(1.5, 3.0, 1.5)),
        at(0.5, 2.5, Vec3::new(3.0, 1.0, 1.5)),
    ]
}

/// Everything the host owns, plus flurry's renderer.
struct Host {
    gpu: GpuContext,
    pipeline: wgpu::RenderPipeline,
    ui: wgpu::RenderPipeline,
    vertices: wgpu::Buffer,
    globals: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// The multisampled colour and depth the host draws into.
    msaa: wgpu::TextureView,
    depth: wgpu::TextureView,
    color_format: wgpu::TextureFormat,
    particles: ParticleRenderer,
    snow: EffectId,
    size: (u32, u32),
}

/// The host's camera matrices: right-handed, reversed Z with the far plane at infinity.
fn view(size: (u32, u32)) -> View {
    let look = flurry::glam::camera::rh::view::look_at_mat4;
    let eye = look(Vec3::new(6.0, 5.0, 11.0), Vec3::new(0.0, 1.0, 0.0), Vec3::Y);
    let aspect = size.0 as f32 / size.1 as f32;
    let infinite_reverse = flurry::glam::camera::rh::proj::directx::perspective_infinite_reverse;
    View::new(eye, infinite_reverse(60f32.to_radians(), aspect, 0.05))
}

impl Host {
    fn new(
        gpu: GpuContext,
        color_format: wgpu::TextureFormat,
        size: (u32, u32),
    ) -> Result<Self, flurry::Error> {
        let device = &gpu.device;
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("host scene"),
            source: wgpu::ShaderSource::Wgsl(SCENE_WGSL.into()),
        });
        let layout = device.create_bind_group_layout(&wgpu::BindGroupLayoutDescriptor {
            label: None,
            entries: &[wgpu::BindGroupLayoutEntry {
                binding: 0,
                visibility: wgpu::ShaderStages::VERTEX,
                ty: wgpu::BindingType::Buffer {
                    ty: wgpu::BufferBindingType::Uniform,
                    has_dynamic_offset: false,
                    min_binding_size: None,
                },
                count: None,
            }],
        });
        let pipeline = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("host scene"),
            layout: Some(
                &device.create_pipeline_layout(&wgpu::PipelineLayoutDescriptor {
                    label: None,
                    bind_group_layouts: &[Some(&layout)],
                    immediate_size: 0,
                }),
            ),
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[Some(wgpu::VertexBufferLayout {
                    array_stride: 24,
                    step_mode: wgpu::VertexStepMode::Vertex,
                    attributes: &wgpu::vertex_attr_array![0 => Float32x3, 1 => Float32x3],
                })],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH,
                depth_write_enabled: Some(true),
                // reversed Z: nearer is greater
                depth_compare: Some(wgpu::CompareFunction::Greater),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: SAMPLES,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("fs"),
                compilation_options: Default::default(),
                targets: &[Some(color_format.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        // drawn in the overlay pass, which has the depth attached read-only
        let ui = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ui"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("ui_vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH,
                depth_write_enabled: Some(false),
                depth_compare: Some(wgpu::CompareFunction::Always),
                stencil: Default::default(),
                bias: Default::default(),
            }),
            multisample: wgpu::MultisampleState {
                count: SAMPLES,
                ..Default::default()
            },
            fragment: Some(wgpu::FragmentState {
                module: &module,
                entry_point: Some("ui_fs"),
                compilation_options: Default::default(),
                targets: &[Some(wgpu::ColorTargetState {
                    format: color_format,
                    blend: Some(wgpu::BlendState::ALPHA_BLENDING),
                    write_mask: wgpu::ColorWrites::ALL,
                })],
            }),
            multiview_mask: None,
            cache: None,
        });
        let vertices = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
            label: Some("cube"),
            contents: bytemuck::cast_slice(&cube()),
            usage: wgpu::BufferUsages::VERTEX,
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("globals"),
            size: 64 * 9,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: Some("globals"),
            layout: &layout,
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            }],
        });
        // flurry: snow that settles on whatever the host's depth shows
        let targets = Targets::new(color_format, Some(DEPTH)).with_samples(SAMPLES);
        let mut particles = ParticleRenderer::new(device, targets, Settings::default())?;
        // the shipped snow, its first fill sized to the pool, settling on what it hits
        let mut snow = EffectDesc::from_ron(include_str!("../effects/snow.ron"))?;
        snow.emitters[0].bursts[0].count = PARTICLES;
        snow.collision = Some(Collision {
            response: Response::Settle { time: 3.0 },
            thickness: 0.4,
        });
        // its pipelines built before the first frame, as at a loading screen (else off the
        // host's thread: the snow would start once they are ready)
        particles.warm(device, &[&snow])?;
        let snow = particles.add_effect(device, &gpu.queue, &snow, PARTICLES, 1)?;
        Ok(Host {
            pipeline,
            ui,
            vertices,
            globals,
            bind,
            msaa: msaa_view(device, size, color_format),
            depth: depth_view(device, size),
            color_format,
            particles,
            snow,
            size,
            gpu,
        })
    }

    fn resize(&mut self, size: (u32, u32)) {
        self.size = size;
        self.msaa = msaa_view(&self.gpu.device, size, self.color_format);
        self.depth = depth_view(&self.gpu.device, size);
    }

    /// One frame resolved into `color`: the host's scene, flurry's preparation, then the
    /// host's overlay pass with the particles composited and the UI over them; the host
    /// submits.
    fn frame(&mut self, color: &wgpu::TextureView, dt: f32) -> Result<(), flurry::Error> {
        let gpu = &self.gpu;
        let view = view(self.size);
        let mut globals = vec![view.view_proj()];
        globals.extend(boxes());
        globals.resize(9, Mat4::IDENTITY);
        gpu.queue
            .write_buffer(&self.globals, 0, bytemuck::cast_slice(&globals));
        self.particles
            .update(&gpu.device, &gpu.queue, dt, view, self.size)?;

        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("host scene"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.msaa,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: 0.02,
                            g: 0.03,
                            b: 0.05,
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0.0), // reversed Z: 0 is far
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.pipeline);
            pass.set_bind_group(0, &self.bind, &[]);
            pass.set_vertex_buffer(0, self.vertices.slice(..));
            pass.draw(0..36, 0..boxes().len() as u32);
        }
        let targets = FrameTargets::new(&self.msaa, Some(&self.depth));
        self.particles
            .prepare(&gpu.device, &mut encoder, &targets)?;
        {
            // the host's overlay pass: its multisampled colour, resolved into the output at
            // the end, and its depth read-only (flurry samples it)
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("overlay"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.msaa,
                    depth_slice: None,
                    resolve_target: Some(color),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Discard,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.depth,
                    depth_ops: None,
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            self.particles.render(&mut pass);
            pass.set_pipeline(&self.ui);
            pass.draw(0..6, 0..1);
        }
        gpu.queue.submit([encoder.finish()]);
        Ok(())
    }
}

/// A 2D texture of the host's, of `samples` samples.
fn texture(
    device: &wgpu::Device,
    (width, height): (u32, u32),
    (format, samples): (wgpu::TextureFormat, u32),
    usage: wgpu::TextureUsages,
) -> wgpu::Texture {
    device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width,
            height,
            depth_or_array_layers: 1,
        },
        mip_level_count: 1,
        sample_count: samples,
        dimension: wgpu::TextureDimension::D2,
        format,
        usage,
        view_formats: &[],
    })
}

fn depth_view(device: &wgpu::Device, size: (u32, u32)) -> wgpu::TextureView {
    // flurry reads the host's depth: it must be bindable as a texture
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING;
    texture(device, size, (DEPTH, SAMPLES), usage).create_view(&Default::default())
}

fn msaa_view(
    device: &wgpu::Device,
    size: (u32, u32),
    format: wgpu::TextureFormat,
) -> wgpu::TextureView {
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT;
    texture(device, size, (format, SAMPLES), usage).create_view(&Default::default())
}

/// Offscreen: `frames` frames into an sRGB texture, saved as a PNG.
fn headless(frames: u32, out: &str) -> Result<(), Box<dyn std::error::Error>> {
    let (width, height) = (640, 400);
    let gpu = GpuContext::new_headless()?;
    let format = wgpu::TextureFormat::Rgba8UnormSrgb;
    let usage = wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC;
    let color = texture(&gpu.device, (width, height), (format, 1), usage);
    let view = color.create_view(&Default::default());
    let mut host = Host::new(gpu, format, (width, height))?;
    for _ in 0..frames {
        host.frame(&view, 1.0 / 30.0)?;
    }
    let pixels = host.gpu.read_texture(&color)?;
    image::RgbaImage::from_raw(width, height, pixels)
        .ok_or("read-back of the wrong size")?
        .save(out)?;
    // where the snow came to rest: the ground's top is at y = 0, the boxes' above it
    let gpu = &host.gpu;
    let pool = host
        .particles
        .snapshot(&gpu.device, &gpu.queue, host.snow)?;
    let at_rest: Vec<_> = pool
        .alive
        .iter()
        .map(|&i| pool.particles[i as usize])
        .filter(|p| p.flags & flurry::Particle::SETTLED != 0)
        .collect();
    let on_boxes = at_rest.iter().filter(|p| p.pos.y > 0.5).count();
    println!(
        "wrote {out}: {} flakes at rest, {on_boxes} of them on the boxes",
        at_rest.len()
    );
    Ok(())
}

/// A window: the host's own winit loop.
struct App {
    window: Option<(
        Arc<winit::window::Window>,
        wgpu::Surface<'static>,
        wgpu::SurfaceConfiguration,
        Host,
    )>,
    last: std::time::Instant,
}

impl winit::application::ApplicationHandler for App {
    fn resumed(&mut self, event_loop: &winit::event_loop::ActiveEventLoop) {
        if self.window.is_some() {
            return;
        }
        let window = Arc::new(
            event_loop
                .create_window(
                    winit::window::Window::default_attributes().with_title("flurry embed"),
                )
                .expect("open a window"),
        );
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_with_display_handle(
            Box::new(event_loop.owned_display_handle()),
        ));
        let surface = instance.create_surface(window.clone()).expect("surface");
        let gpu = GpuContext::with_instance(instance, None, Some(&surface)).expect("adapter");
        let size = window.inner_size();
        let mut config = surface
            .get_default_config(&gpu.adapter, size.width.max(1), size.height.max(1))
            .expect("surface config");
        if let Some(f) = surface
            .get_capabilities(&gpu.adapter)
            .formats
            .into_iter()
            .find(|f| f.is_srgb())
        {
            config.format = f;
        }
        surface.configure(&gpu.device, &config);
        let host = Host::new(gpu, config.format, (config.width, config.height)).expect("host");
        window.request_redraw();
        self.window = Some((window, surface, config, host));
    }

    fn window_event(
        &mut self,
        event_loop: &winit::event_loop::ActiveEventLoop,
        _: winit::window::WindowId,
        event: winit::event::WindowEvent,
    ) {
        use winit::event::WindowEvent;
        let Some((window, surface, config, host)) = self.window.as_mut() else {
            return;
        };
        match event {
            WindowEvent::CloseRequested => event_loop.exit(),
            WindowEvent::Resized(s) if s.width > 0 && s.height > 0 => {
                config.width = s.width;
                config.height = s.height;
                surface.configure(&host.gpu.device, config);
                host.resize((s.width, s.height));
            }
            WindowEvent::RedrawRequested => {
                let dt = self.last.elapsed().as_secs_f32().min(0.1);
                self.last = std::time::Instant::now();
                if let wgpu::CurrentSurfaceTexture::Success(frame)
                | wgpu::CurrentSurfaceTexture::Suboptimal(frame) = surface.get_current_texture()
                {
                    let view = frame.texture.create_view(&Default::default());
                    if let Err(e) = host.frame(&view, dt) {
                        eprintln!("error: {e}");
                        event_loop.exit();
                    }
                    host.gpu.queue.present(frame);
                } else {
                    surface.configure(&host.gpu.device, config);
                }
                window.request_redraw();
            }
            _ => {}
        }
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    if args.iter().any(|a| a == "--headless") {
        let frames = value("--frames").and_then(|f| f.parse().ok()).unwrap_or(30);
        return headless(
            frames,
            &value("--out").unwrap_or_else(|| "embed.png".into()),
        );
    }
    match winit::event_loop::EventLoop::new() {
        Ok(event_loop) => {
            let mut app = App {
                window: None,
                last: std::time::Instant::now(),
            };
            Ok(event_loop.run_app(&mut app)?)
        }
        Err(e) => {
            println!("no display ({e}): rendering headless");
            headless(30, "embed.png")
        }
    }
}
