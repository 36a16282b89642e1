//! The render node's contract, kept with a host that is not flurry's: written against the
//! public API alone, as a user's application would be. It asks its adapter for the
//! default device (WebGPU's default limits, no optional feature), draws its own ground
//! with 4× MSAA and reversed Z (cleared to 0, tested with `Greater`, the far plane at
//! infinity), records flurry into its own encoder, composites the particles inside its own
//! render pass and submits every frame itself. For a few hundred frames it uses every
//! feature a game reaches for: images and flipbooks, lit billboards, ribbons, mesh
//! particles, particles born on a mesh of its own, instances, parameters, playback, LOD,
//! an effect off screen, and events. Then it checks what it was promised: no wgpu error,
//! no submission but its own, every pool's invariant, and particles drawn where the
//! effects are.

use std::path::Path;
use std::sync::{Arc, Mutex};

use flurry::effect::{EffectDesc, MeshSource, Shape};
use flurry::expr::Value;
use flurry::glam::{Mat4, Vec3};
use flurry::wgpu;
use flurry::{EventSettings, FrameTargets, Instance, Lod, Mesh, OffScreen, ParticleRenderer};
use flurry::{Settings, Targets, View};

const COLOR: wgpu::TextureFormat = wgpu::TextureFormat::Rgba8UnormSrgb;
const DEPTH: wgpu::TextureFormat = wgpu::TextureFormat::Depth32Float;
const SAMPLES: u32 = 4;
const SIZE: (u32, u32) = (192, 128);
const SKY: [f32; 3] = [0.02, 0.03, 0.05];

/// The host's ground: a square of 60 m at y = 0, drawn from the vertex index alone.
const GROUND_WGSL: &str = r#"
@group(0) @binding(0) var<uniform> view_proj: mat4x4<f32>;
@vertex fn vs(@builtin(vertex_index) v: u32) -> @builtin(position) vec4<f32> {
    let corner = array<vec2<f32>, 6>(vec2(-1.0, -1.0), vec2(1.0, -1.0), vec2(1.0, 1.0),
                                     vec2(-1.0, -1.0), vec2(1.0, 1.0), vec2(-1.0, 1.0))[v];
    return view_proj * vec4<f32>(corner.x * 30.0, 0.0, corner.y * 30.0, 1.0);
}
@fragment fn fs() -> @location(0) vec4<f32> {
    return vec4<f32>(0.12, 0.11, 0.1, 1.0);
}
"#;

/// The host's camera: right-handed, reversed Z, the far plane at infinity.
fn view() -> View {
    let look = flurry::glam::camera::rh::view::look_at_mat4;
    let eye = look(Vec3::new(0.0, 6.0, 22.0), Vec3::new(0.0, 2.0, 0.0), Vec3::Y);
    let aspect = SIZE.0 as f32 / SIZE.1 as f32;
    let proj = flurry::glam::camera::rh::proj::directx::perspective_infinite_reverse;
    View::new(eye, proj(55f32.to_radians(), aspect, 0.1))
}

/// What the host owns: its device, its targets, its ground.
struct Host {
    device: wgpu::Device,
    queue: wgpu::Queue,
    msaa: wgpu::TextureView,
    depth: wgpu::TextureView,
    /// The resolved picture, read back at the end.
    resolved: wgpu::Texture,
    ground: wgpu::RenderPipeline,
    globals: wgpu::Buffer,
    bind: wgpu::BindGroup,
    /// wgpu's errors, as the device reported them.
    errors: Arc<Mutex<Vec<String>>>,
}

fn texture(device: &wgpu::Device, format: wgpu::TextureFormat, samples: u32) -> wgpu::Texture {
    let usage = if samples > 1 {
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::TEXTURE_BINDING
    } else {
        wgpu::TextureUsages::RENDER_ATTACHMENT | wgpu::TextureUsages::COPY_SRC
    };
    device.create_texture(&wgpu::TextureDescriptor {
        label: None,
        size: wgpu::Extent3d {
            width: SIZE.0,
            height: SIZE.1,
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

impl Host {
    fn new() -> Host {
        let instance = wgpu::Instance::new(wgpu::InstanceDescriptor::new_without_display_handle());
        let adapter = pollster::block_on(instance.request_adapter(&Default::default()))
            .expect("an adapter (apt-get install mesa-vulkan-drivers for lavapipe)");
        // the default device: WebGPU's default limits, no optional feature
        let (device, queue) =
            pollster::block_on(adapter.request_device(&Default::default())).unwrap();
        assert_eq!(device.limits(), wgpu::Limits::default());
        let errors = Arc::new(Mutex::new(Vec::new()));
        let seen = errors.clone();
        device.on_uncaptured_error(Arc::new(move |e| seen.lock().unwrap().push(e.to_string())));
        let module = device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some("ground"),
            source: wgpu::ShaderSource::Wgsl(GROUND_WGSL.into()),
        });
        let ground = device.create_render_pipeline(&wgpu::RenderPipelineDescriptor {
            label: Some("ground"),
            layout: None,
            vertex: wgpu::VertexState {
                module: &module,
                entry_point: Some("vs"),
                compilation_options: Default::default(),
                buffers: &[],
            },
            primitive: Default::default(),
            depth_stencil: Some(wgpu::DepthStencilState {
                format: DEPTH,
                depth_write_enabled: Some(true),
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
                targets: &[Some(COLOR.into())],
            }),
            multiview_mask: None,
            cache: None,
        });
        let globals = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("view_proj"),
            size: 64,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let bind = device.create_bind_group(&wgpu::BindGroupDescriptor {
            label: None,
            layout: &ground.get_bind_group_layout(0),
            entries: &[wgpu::BindGroupEntry {
                binding: 0,
                resource: globals.as_entire_binding(),
            }],
        });
        let view = |t: wgpu::Texture| t.create_view(&Default::default());
        Host {
            msaa: view(texture(&device, COLOR, SAMPLES)),
            depth: view(texture(&device, DEPTH, SAMPLES)),
            resolved: texture(&device, COLOR, 1),
            ground,
            globals,
            bind,
            errors,
            device,
            queue,
        }
    }

    /// One frame: flurry's update, the host's ground, flurry's work recorded, the host's
    /// pass with the particles composited in it and resolved, submitted by the host. The
    /// submission's index.
    fn frame(&self, particles: Option<&mut ParticleRenderer>, dt: f32) -> u64 {
        let view = view();
        let vp = view.view_proj().to_cols_array();
        self.queue
            .write_buffer(&self.globals, 0, bytemuck::cast_slice(&vp));
        let mut particles = particles;
        if let Some(p) = particles.as_deref_mut() {
            p.update(&self.device, &self.queue, dt, view, SIZE).unwrap();
        }
        let mut encoder = self.device.create_command_encoder(&Default::default());
        {
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("host scene"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.msaa,
                    depth_slice: None,
                    resolve_target: None,
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Clear(wgpu::Color {
                            r: SKY[0] as f64,
                            g: SKY[1] as f64,
                            b: SKY[2] as f64,
                            a: 1.0,
                        }),
                        store: wgpu::StoreOp::Store,
                    },
                })],
                depth_stencil_attachment: Some(wgpu::RenderPassDepthStencilAttachment {
                    view: &self.depth,
                    depth_ops: Some(wgpu::Operations {
                        load: wgpu::LoadOp::Clear(0.0),
                        store: wgpu::StoreOp::Store,
                    }),
                    stencil_ops: None,
                }),
                timestamp_writes: None,
                occlusion_query_set: None,
                multiview_mask: None,
            });
            pass.set_pipeline(&self.ground);
            pass.set_bind_group(0, &self.bind, &[]);
            pass.draw(0..6, 0..1);
        }
        let targets = FrameTargets::new(&self.msaa, Some(&self.depth));
        if let Some(p) = particles.as_deref_mut() {
            p.prepare(&self.device, &mut encoder, &targets).unwrap();
        }
        {
            let resolved = self.resolved.create_view(&Default::default());
            let mut pass = encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
                label: Some("host overlay"),
                color_attachments: &[Some(wgpu::RenderPassColorAttachment {
                    view: &self.msaa,
                    depth_slice: None,
                    resolve_target: Some(&resolved),
                    ops: wgpu::Operations {
                        load: wgpu::LoadOp::Load,
                        store: wgpu::StoreOp::Store,
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
            if let Some(p) = particles.as_deref() {
                p.render(&mut pass);
            }
        }
        index(&self.queue.submit([encoder.finish()]))
    }

    /// The resolved picture, read back (the host's own read-back, after the frames: it
    /// submits and waits).
    fn picture(&self) -> image::RgbaImage {
        let row = (SIZE.0 * 4).next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT);
        let buffer = self.device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("picture"),
            size: (row * SIZE.1) as u64,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::MAP_READ,
            mapped_at_creation: false,
        });
        let mut encoder = self.device.create_command_encoder(&Default::default());
        encoder.copy_texture_to_buffer(
            self.resolved.as_image_copy(),
            wgpu::TexelCopyBufferInfo {
                buffer: &buffer,
                layout: wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(row),
                    rows_per_image: None,
                },
            },
            self.resolved.size(),
        );
        self.queue.submit([encoder.finish()]);
        buffer
            .slice(..)
            .map_async(wgpu::MapMode::Read, |r| r.unwrap());
        self.device
            .poll(wgpu::PollType::wait_indefinitely())
            .unwrap();
        let bytes = buffer.slice(..).get_mapped_range().unwrap();
        let mut pixels = Vec::with_capacity((SIZE.0 * SIZE.1 * 4) as usize);
        for y in 0..SIZE.1 as usize {
            pixels.extend_from_slice(&bytes[y * row as usize..][..SIZE.0 as usize * 4]);
        }
        image::RgbaImage::from_raw(SIZE.0, SIZE.1, pixels).unwrap()
    }
}

/// A submission's index as wgpu numbers them (its `Debug` form is all a host can read).
fn index(i: &wgpu::SubmissionIndex) -> u64 {
    let digits: String = format!("{i:?}")
        .chars()
        .filter(char::is_ascii_digit)
        .collect();
    digits.parse().expect("a number")
}

/// A shipped effect, its images loaded from beside it.
fn shipped(p: &mut ParticleRenderer, host: &Host, name: &str) -> EffectDesc {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("effects");
    let mut desc = EffectDesc::from_file(&folder.join(format!("{name}.ron"))).unwrap();
    p.load_images(&host.device, &host.queue, &mut desc, &folder)
        .unwrap();
    desc
}

/// Where world point `x` lands in the picture, in pixels (None: behind the camera or
/// outside it).
fn pixel(x: Vec3) -> Option<(u32, u32)> {
    let clip = view().view_proj() * x.extend(1.0);
    let ndc = clip.truncate() / clip.w;
    let (px, py) = (
        (ndc.x * 0.5 + 0.5) * SIZE.0 as f32,
        (0.5 - ndc.y * 0.5) * SIZE.1 as f32,
    );
    let inside =
        clip.w > 0.0 && (0.0..SIZE.0 as f32).contains(&px) && (0.0..SIZE.1 as f32).contains(&py);
    inside.then_some((px as u32, py as u32))
}

/// Pixels within `r` of `at` that differ from the host's own picture by more than a
/// rounding step.
fn changed_near(
    with: &image::RgbaImage,
    without: &image::RgbaImage,
    at: (u32, u32),
    r: u32,
) -> usize {
    let (x0, y0) = (at.0.saturating_sub(r), at.1.saturating_sub(r));
    let (x1, y1) = ((at.0 + r).min(SIZE.0 - 1), (at.1 + r).min(SIZE.1 - 1));
    let mut n = 0;
    for y in y0..=y1 {
        for x in x0..=x1 {
            let (a, b) = (with.get_pixel(x, y).0, without.get_pixel(x, y).0);
            n += (0..3).any(|c| a[c].abs_diff(b[c]) > 3) as usize;
        }
    }
    n
}

#[test]
fn a_host_on_webgpus_defaults_gets_every_feature_and_submits_alone() {
    let host = Host::new();
    // the host's picture without flurry, to compare with
    host.frame(None, 0.0);
    host.device
        .poll(wgpu::PollType::wait_indefinitely())
        .unwrap();
    let bare = host.picture();

    let targets = Targets::new(COLOR, Some(DEPTH)).with_samples(SAMPLES);
    let mut p = ParticleRenderer::new(&host.device, targets, Settings::default()).unwrap();
    let (device, queue) = (&host.device, &host.queue);

    // images and flipbooks, lit smoke, a parameter
    let campfire = shipped(&mut p, &host, "campfire");
    let fire = p.add_effect(device, queue, &campfire, 16_384, 1).unwrap();
    p.set_transform(fire, Mat4::from_translation(Vec3::new(-6.0, 0.0, 0.0)))
        .unwrap();
    // ribbons
    let streamer = shipped(&mut p, &host, "streamer");
    let ribbons = p.add_effect(device, queue, &streamer, 4096, 2).unwrap();
    p.set_transform(ribbons, Mat4::from_translation(Vec3::new(6.0, 3.0, 0.0)))
        .unwrap();
    // mesh particles, colliding with the host's ground; its hits heard
    let debris = shipped(&mut p, &host, "debris");
    let shards = p.add_effect(device, queue, &debris, 4096, 3).unwrap();
    // particles born on a mesh of the host's own, placed three times
    let mesh = p
        .add_mesh(
            device,
            Mesh::new(
                vec![[-1.0, 0.0, -1.0], [1.0, 0.0, -1.0], [0.0, 0.0, 1.0]],
                vec![[0.0, 1.0, 0.0]; 3],
                vec![0, 2, 1],
            )
            .unwrap(),
        )
        .unwrap();
    let mut fountain = shipped(&mut p, &host, "fountain");
    fountain.collision = None;
    for e in &mut fountain.emitters {
        e.shape = Shape::Mesh {
            mesh: MeshSource::Host(mesh),
            center: [0.0; 3],
            scale: 0.5,
        };
    }
    let fountains = p.add_effect(device, queue, &fountain, 16_384, 4).unwrap();
    let placed: Vec<Instance> = [-3.0f32, 0.0, 3.0]
        .iter()
        .map(|&x| Instance::new(Mat4::from_translation(Vec3::new(x, 0.0, 6.0)), 6.0))
        .collect();
    p.set_instances(device, fountains, &placed).unwrap();
    // far away and behind the camera: frozen while unseen; and one thinned by distance
    let embers = shipped(&mut p, &host, "embers");
    let unseen = p.add_effect(device, queue, &embers, 4096, 5).unwrap();
    p.set_transform(unseen, Mat4::from_translation(Vec3::new(0.0, 0.0, 200.0)))
        .unwrap();
    p.set_off_screen(unseen, OffScreen::Pause).unwrap();
    // two more out there: one that goes on unseen, one frozen that catches up when the
    // host brings it into view (its catch-up recorded into the host's frame)
    let far = Mat4::from_translation(Vec3::new(0.0, 0.0, 200.0));
    let went_on = p.add_effect(device, queue, &embers, 1024, 6).unwrap();
    p.set_transform(went_on, far).unwrap();
    let caught = p.add_effect(device, queue, &embers, 1024, 7).unwrap();
    p.set_transform(caught, far).unwrap();
    p.set_off_screen(caught, OffScreen::CatchUp).unwrap();
    let lod = Lod {
        near: 5.0,
        far: 40.0,
        far_rates: 0.25,
        ..Default::default()
    };
    p.set_lod(fire, Some(lod)).unwrap();

    // the frames go on while a worker builds the effects' pipelines (the default): the
    // host shows its scene meanwhile, as at a loading screen that keeps drawing
    let ids = [fire, ribbons, shards, fountains, unseen, went_on, caught];
    let mut last = host.frame(Some(&mut p), 1.0 / 60.0);
    let mut waited = 0;
    while !ids.iter().all(|&id| p.is_ready(id).unwrap()) {
        assert!(
            waited < 20_000,
            "the effects were not ready after {waited} frames"
        );
        let now = host.frame(Some(&mut p), 1.0 / 60.0);
        assert_eq!(
            now - last,
            1,
            "a frame while compiling moved the index by {}",
            now - last
        );
        last = now;
        waited += 1;
    }
    let (mut indices, mut heard) = (Vec::new(), 0);
    for frame in 1..300u32 {
        match frame {
            // the first 100 frames read nothing back: only the host submits
            40 => p.pause(ribbons).unwrap(),
            60 => {
                assert_eq!(p.is_on_screen(caught), Some(false));
                let seen = Mat4::from_translation(Vec3::new(3.0, 0.0, -4.0));
                p.set_transform(caught, seen).unwrap();
            }
            80 => p.play(ribbons).unwrap(),
            // then the host listens to hits and stops an effect (its counts go back, to
            // tell when it is finished): at most one read-back a frame
            100 => p
                .set_events(device, shards, Some(EventSettings::default()))
                .unwrap(),
            200 => p.stop_emitting(fountains).unwrap(),
            _ => {}
        }
        let intensity = 1.0 + (frame as f32 * 0.05).sin();
        p.set_parameter(fire, "intensity", Value::F32(intensity))
            .unwrap();
        let now = host.frame(Some(&mut p), 1.0 / 60.0);
        indices.push((frame, now - last));
        last = now;
        if frame >= 100 {
            heard += p.drain_events(shards).unwrap().events.len();
        }
    }
    host.device
        .poll(wgpu::PollType::wait_indefinitely())
        .unwrap();
    let errors = host.errors.lock().unwrap().clone();
    assert!(errors.is_empty(), "wgpu errors: {errors:#?}");

    // no submission but the host's: its own, one a frame, and from frame 100 on at most
    // one map of a read-back a frame (wgpu-core gives each map a submission index of its
    // own though nothing is submitted)
    for &(frame, step) in &indices {
        let most = if frame <= 100 { 1 } else { 2 };
        assert!(
            (1..=most).contains(&step),
            "frame {frame}: the index moved by {step}"
        );
    }
    assert!(heard > 0, "the debris's hits on the ground were heard");
    assert_eq!(p.is_finished(unseen), Some(false));

    // every pool's invariant, and no particle killed for a number that was not finite
    for id in ids {
        let snap = p.snapshot(device, queue, id).unwrap();
        snap.check().unwrap_or_else(|e| panic!("{id:?}: {e}"));
        assert_eq!(snap.stats.non_finite_total, 0, "{id:?}");
    }
    let frozen = p.time(unseen).unwrap();
    assert!(frozen < 0.1, "unseen, it ran {frozen} s of 5");
    // (both bound at one update: one effect's pipelines)
    let (ran, caught_up) = (p.time(went_on).unwrap(), p.time(caught).unwrap());
    assert!(ran > 4.0, "{ran}");
    assert!(
        (caught_up - ran).abs() < 1e-3,
        "caught up {caught_up} s of {ran}"
    );
    assert_eq!(p.is_on_screen(caught), Some(true));

    // particles where the effects are, nothing where none is
    let drawn = host.picture();
    let places = [
        ("campfire", Vec3::new(-6.0, 1.0, 0.0)),
        // (its emitter rises from 6 m above its origin, 8 m behind it)
        ("streamer", Vec3::new(6.0, 9.5, -8.0)),
        ("fountains", Vec3::new(0.0, 1.0, 6.0)),
    ];
    for (name, at) in places {
        let at = pixel(at).expect("in view");
        let n = changed_near(&drawn, &bare, at, 10);
        assert!(n > 10, "{name}: {n} pixels drawn near {at:?}");
    }
    let sky = pixel(Vec3::new(0.0, 30.0, -200.0)).expect("the sky is in view");
    assert_eq!(
        changed_near(&drawn, &bare, sky, 3),
        0,
        "particles in the empty sky"
    );
}
