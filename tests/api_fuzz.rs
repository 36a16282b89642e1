//! The public render-node API driven by a seeded random host: 2,000 steps of adding and
//! removing effects (ribbons, trails, mesh particles and mesh emitters among them, a flock,
//! and the strongest drag the schema allows), adding meshes and images, setting the light,
//! resizing, updating, encoding, changing settings, substeps, targets and emitters, driving
//! effects as a game does (pause, time scale, events, off screen, level of detail, prewarm), with
//! valid and invalid arguments (capacities, sizes, formats, sample counts, substeps, dt of
//! 0, negative, NaN, infinite and 10 s, views that are not finite). Every call a host could
//! get wrong must return `Err` when its input is invalid and `Ok` otherwise, no wgpu error
//! may be raised, nothing may panic, and every pool keeps its invariants after every
//! frame (every living particle finite among them). A failure names the seed and the
//! step, so it reproduces.

use std::sync::{Arc, Mutex};

#[path = "common/adapter.rs"]
mod adapter;
use flurry::GpuContext;

use flurry::effect::{EffectDesc, Forces, Shape, Velocity};
use flurry::glam::{Mat4, Vec3};
use flurry::wgpu;
use flurry::{
    Camera, EffectId, FrameTargets, ParticleRenderer, Scale, Settings, Targets, Upsample, View,
};

/// A small PCG stream: the same seed gives the same host.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = ((self.0 >> 18) ^ self.0) >> 27;
        x.rotate_right((self.0 >> 59) as u32) as u32
    }

    fn below(&mut self, n: usize) -> usize {
        self.next() as usize % n
    }

    fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }
}

fn effect(name: &str) -> EffectDesc {
    let path = format!("{}/effects/{name}.ron", env!("CARGO_MANIFEST_DIR"));
    EffectDesc::from_file(path.as_ref()).unwrap()
}

/// A host's frame of `targets` and `size`: its colour (and depth) views.
struct Frame {
    color: wgpu::TextureView,
    depth: Option<wgpu::TextureView>,
}

impl Frame {
    fn new(device: &wgpu::Device, targets: Targets, (width, height): (u32, u32)) -> Self {
        let texture = |format, usage| {
            device
                .create_texture(&wgpu::TextureDescriptor {
                    label: Some("fuzz host"),
                    size: wgpu::Extent3d {
                        width,
                        height,
                        depth_or_array_layers: 1,
                    },
                    mip_level_count: 1,
                    sample_count: targets.sample_count,
                    dimension: wgpu::TextureDimension::D2,
                    format,
                    usage,
                    view_formats: &[],
                })
                .create_view(&Default::default())
        };
        use wgpu::TextureUsages as U;
        Frame {
            color: texture(targets.color_format, U::RENDER_ATTACHMENT),
            depth: targets
                .depth_format
                .map(|f| texture(f, U::RENDER_ATTACHMENT | U::TEXTURE_BINDING)),
        }
    }

    fn targets(&self) -> FrameTargets<'_> {
        FrameTargets::new(&self.color, self.depth.as_ref())
    }
}

/// The host: what it believes is valid, to compare every answer with.
struct Host {
    renderer: ParticleRenderer,
    targets: Targets,
    effects: Vec<EffectId>,
    removed: Vec<EffectId>,
    /// Effects whose events it listens to.
    listened: Vec<EffectId>,
    size: (u32, u32),
    /// The last update succeeded with this size: a frame of it may be encoded.
    updated: Option<(u32, u32)>,
    /// A frame was recorded since that update (a second is refused).
    recorded: bool,
}

#[test]
fn two_thousand_random_host_steps_keep_every_promise() {
    let gpu = adapter::gpu();
    let errors: Arc<Mutex<Vec<String>>> = Arc::default();
    let sink = errors.clone();
    gpu.device.on_uncaptured_error(Arc::new(move |e| {
        sink.lock().unwrap().push(e.to_string());
    }));
    let device = &gpu.device;
    let max_texture = device.limits().max_texture_dimension_2d;
    let max_capacity = ParticleRenderer::max_capacity(device);
    // the fountain under the strongest drag allowed (explicit Euler's step diverged past
    // drag·dt = 2: a drag of 400 at 1/60 s filled the pool with NaN)
    let mut dragged = effect("fountain");
    dragged.name = "dragged".into();
    dragged.forces = Forces {
        drag: 1000.0,
        ..dragged.forces
    };
    // (without bounds: a particle gone NaN fails every bounds test and is killed unseen)
    dragged.bounds = None;
    // the sword names the host's mesh 0: valid once a mesh was added
    let valid_effects = [
        effect("fountain"),
        effect("fireworks"),
        effect("snow"),
        effect("streamer"),
        effect("debris"),
        effect("embers"),
        effect("sword"),
        effect("flock"),
        dragged,
    ];
    let (mut meshes, mut images) = (0, 0);
    // the flocks and dragged fountains added, with the speeds their particles keep to
    let mut flocks = std::collections::HashMap::new();
    // FLURRY_FUZZ_SEED runs another host (a failure names its seed)
    let seed = std::env::var("FLURRY_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0x5eed_f1a2);
    let mut rng = Rng(seed);
    let base = Targets::new(
        wgpu::TextureFormat::Rgba8UnormSrgb,
        Some(wgpu::TextureFormat::Depth32Float),
    );
    let mut host = Host {
        // (compiling on the fuzz's thread to begin with: the steps toggle it)
        renderer: ParticleRenderer::new(
            device,
            base,
            Settings {
                background_compile: false,
                ..Settings::default()
            },
        )
        .unwrap(),
        targets: base,
        effects: vec![],
        removed: vec![],
        listened: vec![],
        size: (64, 48),
        updated: None,
        recorded: false,
    };
    let camera = Camera::look_at(Vec3::new(0.0, 3.0, 14.0), Vec3::new(0.0, 2.0, 0.0), 1.3);
    let (mut frames, mut refusals) = (0, 0);
    for step in 0..2000 {
        let at = format!("seed {seed:#x}, step {step}");
        // a host mostly records the frame it just updated
        let pending = host.updated.is_some() && !host.recorded;
        let action = if pending && rng.below(3) < 2 {
            99
        } else {
            rng.below(100)
        };
        // (the call's result is an error, it should have been one)
        let (refused, invalid, what): (bool, bool, String) = match action {
            // add an effect: a capacity in or out of the device's range, a valid effect or
            // one with a value out of range
            0..=9 => {
                let capacity = rng.pick(&[0, 1, 64, 1024, 4096, max_capacity + 1, u32::MAX]);
                let mut desc = valid_effects[rng.below(valid_effects.len())].clone();
                let corrupt = rng.below(4) == 0;
                if corrupt {
                    desc.emitters[0].rate = rng.pick(&[f32::NAN, -1.0, f32::INFINITY]);
                }
                // the sword names the host's mesh 0 and image 0
                let unheld = desc.name == "sword" && (meshes == 0 || images == 0);
                let ok_capacity = (1..=4096).contains(&capacity) && !unheld;
                let result =
                    host.renderer
                        .add_effect(device, &gpu.queue, &desc, capacity, rng.next());
                if let Ok(id) = &result {
                    host.effects.push(*id);
                    if let Some(flock) = desc.flock {
                        let speed = flock.speed;
                        let range = (speed.mean - speed.variance, speed.mean + speed.variance);
                        flocks.insert(*id, range);
                    } else if desc.name == "dragged" {
                        flocks.insert(*id, (0.0, 12.0));
                    }
                }
                // at most six effects: remove the oldest beyond that
                if host.effects.len() > 6 {
                    let id = host.effects.remove(0);
                    assert!(host.renderer.remove_effect(id), "{at}: remove");
                    host.removed.push(id);
                }
                let what = format!("add_effect(capacity {capacity}, corrupt {corrupt})");
                (result.is_err(), corrupt || !ok_capacity, what)
            }
            // remove an effect, or one removed before
            10..=14 => {
                let stale = host.removed.last().copied();
                match (host.effects.is_empty(), stale) {
                    (false, _) if rng.below(2) == 0 => {
                        let id = host.effects.remove(rng.below(host.effects.len()));
                        host.removed.push(id);
                        let removed = host.renderer.remove_effect(id);
                        (!removed, false, "remove_effect(live)".into())
                    }
                    (_, Some(id)) => {
                        let removed = host.renderer.remove_effect(id);
                        (!removed, true, "remove_effect(removed)".into())
                    }
                    _ => continue,
                }
            }
            // resize: the next update takes the size
            15..=22 => {
                host.size = rng.pick(&[
                    (64, 48),
                    (64, 48),
                    (33, 20),
                    (17, 9),
                    (1, 1),
                    (0, 5),
                    (max_texture + 1, 4),
                ]);
                continue;
            }
            // settings: any scale and upsampling, splat radii in and out of range (clamped)
            23..=25 => {
                host.renderer.set_settings(Settings {
                    scale: rng.pick(&[Scale::Full, Scale::Half, Scale::Quarter]),
                    upsample: rng.pick(&[Upsample::Bilinear, Upsample::NearestDepth]),
                    edge_threshold: 0.1,
                    splat_radius: rng.pick(&[0.0, 2.0, 4.0, 100.0, f32::NAN, -3.0]),
                    background_compile: rng.pick(&[false, true]),
                });
                continue;
            }
            // substeps in and out of range (a flock steered once a frame for all of them)
            26..=27 => {
                let substeps = rng.pick(&[1, 2, 4, 8, 0, flurry::MAX_SUBSTEPS + 1]);
                let result = host.renderer.set_substeps(substeps);
                let invalid = !(1..=flurry::MAX_SUBSTEPS).contains(&substeps);
                (
                    result.is_err(),
                    invalid,
                    format!("set_substeps({substeps})"),
                )
            }
            // targets: formats that can or cannot be drawn into, sample counts
            28..=31 => {
                let color = rng.pick(&[
                    wgpu::TextureFormat::Rgba8UnormSrgb,
                    wgpu::TextureFormat::Rgba16Float,
                    wgpu::TextureFormat::Rgba32Uint,
                ]);
                let depth = rng.pick(&[
                    None,
                    Some(wgpu::TextureFormat::Depth32Float),
                    Some(wgpu::TextureFormat::Stencil8),
                ]);
                let samples = rng.pick(&[1, 1, 4, 3]);
                let targets = Targets::new(color, depth).with_samples(samples);
                let invalid = color == wgpu::TextureFormat::Rgba32Uint
                    || depth == Some(wgpu::TextureFormat::Stencil8)
                    || samples == 3;
                let result = host.renderer.set_targets(device, targets);
                if result.is_ok() {
                    host.targets = targets;
                }
                (
                    result.is_err(),
                    invalid,
                    format!("set_targets({targets:?})"),
                )
            }
            // move an emitter, with values in and out of range
            32..=36 => {
                let Some(&id) = host.effects.first() else {
                    continue;
                };
                let x = rng.pick(&[0.0, 3.0, f32::NAN, 3e38]);
                let rate = rng.pick(&[0.0, 500.0, -1.0, f32::NAN]);
                let index = rng.pick(&[0, 0, 7]);
                let velocity = Velocity::Linear {
                    mean: [0.0, 5.0, 0.0],
                    variance: [1.0; 3],
                };
                let shape = Shape::Point([x, 1.0, 0.0]);
                let result = host.renderer.set_emitter(id, index, shape, velocity, rate);
                let rate_ok = rate.is_finite() && rate >= 0.0;
                let invalid = !x.is_finite() || x.abs() > 1e9 || !rate_ok || index != 0;
                (
                    result.is_err(),
                    invalid,
                    format!("set_emitter({index}, x {x}, rate {rate})"),
                )
            }
            // drive an effect as a game does, with arguments in and out of range
            67..=69 => {
                let stale = host.removed.last().copied().filter(|_| rng.below(5) == 0);
                let Some(id) = stale.or_else(|| host.effects.first().copied()) else {
                    continue;
                };
                let known = stale.is_none();
                match rng.below(7) {
                    0 => {
                        let scale = rng.pick(&[1.0, 0.5, 0.0, 100.0, -1.0, f32::NAN, 101.0]);
                        let result = host.renderer.set_time_scale(id, scale);
                        let ok = (0.0..=flurry::MAX_TIME_SCALE).contains(&scale);
                        (
                            result.is_err(),
                            !known || !ok,
                            format!("set_time_scale({scale})"),
                        )
                    }
                    1 => {
                        let result = match rng.below(3) {
                            0 => host.renderer.pause(id),
                            1 => host.renderer.play(id),
                            _ => host.renderer.stop_emitting(id),
                        };
                        (
                            result.is_err(),
                            !known,
                            "pause, play or stop_emitting".into(),
                        )
                    }
                    2 => {
                        let per_frame = rng.pick(&[1, 4096, 0, flurry::MAX_EVENTS_PER_FRAME + 1]);
                        let settings = flurry::EventSettings {
                            hits: rng.below(2) == 0,
                            deaths: rng.below(2) == 0,
                            per_frame,
                            kept: 1024,
                        };
                        let settings = (rng.below(4) != 0).then_some(settings);
                        let result = host.renderer.set_events(device, id, settings);
                        let ok = settings.is_none_or(|s| s.check().is_ok());
                        if result.is_ok() {
                            host.listened.retain(|&l| l != id);
                            if settings.is_some() {
                                host.listened.push(id);
                            }
                        }
                        (
                            result.is_err(),
                            !known || !ok,
                            format!("set_events({settings:?})"),
                        )
                    }
                    3 => {
                        let result = host.renderer.drain_events(id);
                        let listened = host.listened.contains(&id);
                        (result.is_err(), !known || !listened, "drain_events".into())
                    }
                    4 => {
                        let off = rng.pick(&[
                            flurry::OffScreen::Simulate,
                            flurry::OffScreen::Pause,
                            flurry::OffScreen::CatchUp,
                        ]);
                        let result = host.renderer.set_off_screen(id, off);
                        (result.is_err(), !known, format!("set_off_screen({off:?})"))
                    }
                    5 => {
                        let far = rng.pick(&[50.0, 0.0, f32::NAN]);
                        let pixels = rng.pick(&[0.0, 4.0, 65.0]);
                        let lod = flurry::Lod {
                            far,
                            mesh_pixels: pixels,
                            ..Default::default()
                        };
                        let lod = (rng.below(4) != 0).then_some(lod);
                        let result = host.renderer.set_lod(id, lod);
                        let ok = lod.is_none_or(|l| l.check().is_ok());
                        (result.is_err(), !known || !ok, format!("set_lod({lod:?})"))
                    }
                    _ => {
                        let seconds = rng.pick(&[0.05, 0.0, -1.0, f32::NAN, 1e6]);
                        let view = View::from(camera);
                        let result = host.renderer.prewarm(
                            device,
                            &gpu.queue,
                            id,
                            (seconds, 1.0 / 60.0),
                            view,
                        );
                        // a paused effect, or one frozen out of view, is refused
                        let paused = host.renderer.playback(id) == Some(flurry::Playback::Paused);
                        let frozen = host.renderer.is_on_screen(id) == Some(false)
                            && host.renderer.off_screen(id) != Some(flurry::OffScreen::Simulate);
                        let ok = (0.0..=flurry::MAX_PREWARM).contains(&seconds);
                        // (the next frame is recorded after the next update)
                        host.recorded |= result.is_ok();
                        let invalid = !known || !ok || paused || frozen;
                        (result.is_err(), invalid, format!("prewarm({seconds})"))
                    }
                }
            }
            // update: any dt, the current size, a view that is or is not usable
            37..=66 => {
                let dt = rng.pick(&[
                    0.016,
                    0.016,
                    0.0,
                    0.001,
                    10.0,
                    -1.0,
                    f32::NAN,
                    f32::INFINITY,
                ]);
                let broken_view = rng.below(10) == 0;
                let view = if broken_view {
                    View::new(camera.view(), Mat4::from_cols_array(&[f32::NAN; 16]))
                } else {
                    View::from(camera)
                };
                let size = host.size;
                let result = host.renderer.update(device, &gpu.queue, dt, view, size);
                let size_ok =
                    (1..=max_texture).contains(&size.0) && (1..=max_texture).contains(&size.1);
                let invalid = !(dt.is_finite() && dt >= 0.0) || broken_view || !size_ok;
                host.updated = result.is_ok().then_some(size);
                host.recorded &= result.is_err();
                (
                    result.is_err(),
                    invalid,
                    format!("update(dt {dt}, {size:?}, broken view {broken_view})"),
                )
            }
            // add a mesh or an image (any valid one is taken), or set a light in or out of
            // range
            70..=72 => {
                let pick = rng.below(3);
                if pick == 0 {
                    let size = [rng.pick(&[0.1, 1.0, 3.0]), 0.5, 0.2];
                    let mesh = flurry::Mesh::cuboid(size).unwrap();
                    let result = host.renderer.add_mesh(device, mesh);
                    meshes += result.is_ok() as u32;
                    (result.is_err(), false, format!("add_mesh({size:?})"))
                } else if pick == 1 {
                    let side = rng.pick(&[1, 5, 64]);
                    let pixels = vec![[200, 100, 50, 255]; (side * side) as usize];
                    let image = flurry::Image::new(side, side, pixels).unwrap();
                    let result = host.renderer.add_image(device, &gpu.queue, &image);
                    images += result.is_ok() as u32;
                    (result.is_err(), false, format!("add_image({side}x{side})"))
                } else {
                    let y = rng.pick(&[1.0, 0.0, f32::NAN]);
                    let ambient = rng.pick(&[0.2, -1.0, 2000.0]);
                    let light = flurry::Light {
                        direction: [0.0, y, 0.0],
                        ambient: [ambient; 3],
                        ..Default::default()
                    };
                    let result = host.renderer.set_light(light);
                    let invalid = y != 1.0 || !(0.0..=1000.0).contains(&ambient);
                    (result.is_err(), invalid, format!("set_light({light:?})"))
                }
            }
            // encode a frame: of the update's size, or of another
            _ => {
                let Some(size) = host.updated else {
                    continue;
                };
                let wrong = rng.below(8) == 0;
                let frame_size = if wrong { (size.0 + 1, size.1) } else { size };
                let frame = Frame::new(device, host.targets, frame_size);
                let mut encoder = device.create_command_encoder(&Default::default());
                let result = if rng.below(2) == 0 {
                    host.renderer.encode(device, &mut encoder, &frame.targets())
                } else {
                    host.renderer
                        .prepare(device, &mut encoder, &frame.targets())
                };
                gpu.queue.submit([encoder.finish()]);
                let again = host.recorded;
                host.recorded |= result.is_ok();
                if result.is_ok() {
                    frames += 1;
                    for &id in &host.effects {
                        let snap = host.renderer.snapshot(device, &gpu.queue, id).unwrap();
                        if let Err(e) = snap.check() {
                            panic!("{at}: after a frame, effect {id:?}: {e}");
                        }
                        // a flock's birds fly within its speed range once time has passed
                        // for them (a frame of dt 0 moves nothing), whatever the substeps;
                        // the dragged fountain's drops, born under 8 m/s, only slow towards
                        // the wind (0.8 m/s, eddies of 0.4): never past 12 m/s
                        let Some(&(slowest, fastest)) = flocks.get(&id) else {
                            continue;
                        };
                        for &i in &snap.alive {
                            let p = snap.particles[i as usize];
                            let speed = p.vel.length();
                            let within = speed >= slowest * 0.999 && speed <= fastest * 1.001;
                            assert!(
                                within || p.age == 0.0,
                                "{at}: a particle of {id:?} moves at {speed} m/s (allowed \
                                 {slowest}..={fastest})"
                            );
                        }
                    }
                }
                let what = format!("encode(frame {frame_size:?}, update {size:?}, again {again})");
                (result.is_err(), wrong || again, what)
            }
        };
        let _ = device.poll(wgpu::PollType::wait_indefinitely());
        let raised = std::mem::take(&mut *errors.lock().unwrap());
        assert!(
            raised.is_empty(),
            "{at}: {what} raised wgpu errors: {raised:?}"
        );
        assert_eq!(
            refused,
            invalid,
            "{at}: {what} returned {}",
            if refused { "Err" } else { "Ok" }
        );
        refusals += refused as u32;
    }
    // the run exercised both sides
    println!("{frames} frames drawn, {refusals} calls refused");
    assert!(frames > 200, "only {frames} frames were drawn");
    assert!(refusals > 100, "only {refusals} calls were refused");
}
