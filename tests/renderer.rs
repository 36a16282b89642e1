//! The render node in a test host: two effects in one renderer, a resize between frames,
//! and no work reaching the GPU unless the host submits.

mod common;

use common::host::demos::Demo;
use common::host::{HeadlessTarget, HostSetup, Projection};
use common::host_frame;
use flurry::{Camera, ParticleRenderer, Pass, Settings};
use glam::{Vec2, Vec3};

#[test]
fn two_effects_resize_and_only_the_host_submits() {
    let gpu = common::gpu();
    let mut renderer = standard_renderer(&gpu);
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron"));
    let fountain = flurry::EffectDesc::from_file(path).unwrap();
    let fountain_id = renderer
        .add_effect(&gpu.device, &gpu.queue, &fountain, 4096, 1)
        .unwrap();
    let fireworks = renderer
        .add_effect(
            &gpu.device,
            &gpu.queue,
            &Demo::Fireworks.effect(4096),
            4096,
            2,
        )
        .unwrap();
    let camera = Camera::look_at(
        Vec3::new(0.0, 4.0, 14.0),
        Vec3::new(0.0, 4.0, -10.0),
        4.0 / 3.0,
    );
    let small = HeadlessTarget::new(&gpu.device, 96, 72);
    let large = HeadlessTarget::new(&gpu.device, 160, 120);

    // recorded but never submitted: the pools must be untouched (flurry sees a recording,
    // not a submit: that frame's spawns are lost, as documented)
    renderer
        .update(&gpu.device, &gpu.queue, 0.02, camera, small.size())
        .unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    renderer
        .encode(&gpu.device, &mut encoder, &small.frame())
        .unwrap();
    drop(encoder);
    for i in [fountain_id, fireworks] {
        let snap = renderer.snapshot(&gpu.device, &gpu.queue, i).unwrap();
        assert_eq!(
            snap.counters.emitted, 0,
            "effect {i:?} ran without the host submitting"
        );
    }

    // frames at one size, then another: the particle target follows
    let mut submits = 0;
    for (frames, target) in [(5, &small), (5, &large)] {
        for _ in 0..frames {
            host_frame(&gpu, &mut renderer, target, &camera, 0.1);
            submits += 1;
        }
        assert_eq!(
            renderer.target_size(target.size()),
            (target.width.div_ceil(2), target.height.div_ceil(2))
        );
    }
    assert_eq!(submits, 10);
    for i in [fountain_id, fireworks] {
        let snap = renderer.snapshot(&gpu.device, &gpu.queue, i).unwrap();
        assert!(snap.counters.emitted > 0, "effect {i:?} never emitted");
        assert!(snap.stats.visible > 0, "effect {i:?} shows nothing");
    }
    let img = large.read_rgba(&gpu).unwrap();
    let lit = img
        .pixels()
        .filter(|p| p.0[..3].iter().any(|&c| c > 60))
        .count();
    assert!(
        lit > 50,
        "the larger frame shows no particles ({lit} lit pixels)"
    );
}

#[test]
fn a_frame_updated_but_never_recorded_loses_no_spawns_and_no_particles() {
    // a host whose surface was not ready skips drawing after it updated: the snow's only
    // burst is at t = 0, and it must still appear in the first frame that is drawn
    let gpu = common::gpu();
    let mut renderer = standard_renderer(&gpu);
    let mut desc = Demo::Snow.effect(4096);
    desc.emitters[0].rate = 100.0;
    desc.emitters[0].bursts = vec![flurry::effect::Burst::once(0.0, 500)];
    desc.emitters[0].lifetime = flurry::effect::Range::constant(100.0);
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 4096, 3)
        .unwrap();
    let camera = Demo::Snow.camera(4.0 / 3.0);
    let target = HeadlessTarget::new(&gpu.device, 64, 48);
    let skip = |renderer: &mut ParticleRenderer| {
        renderer
            .update(&gpu.device, &gpu.queue, 0.1, camera, target.size())
            .unwrap();
    };
    let snapshot =
        |renderer: &ParticleRenderer| renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    skip(&mut renderer);
    let nothing = snapshot(&renderer);
    assert_eq!(nothing.stats.emitted_total, 0);
    assert_eq!(nothing.stats.requested_total, 0, "nothing was recorded yet");
    host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    let first = snapshot(&renderer);
    // the burst and 0.2 s at 100/s
    assert_eq!(first.stats.emitted_total, 520);
    assert_eq!(first.stats.alive, 520);
    // particles are where the last recorded frame left them, whatever was skipped since
    for _ in 0..3 {
        skip(&mut renderer);
        host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    }
    let later = snapshot(&renderer);
    assert_eq!(later.stats.emitted_total, 520 + 3 * 20);
    assert_eq!(later.stats.alive, 520 + 3 * 20);
    assert_eq!(
        later.stats.requested_total,
        later.stats.emitted_total + later.stats.dropped_total
    );
    let mut ids: Vec<u32> = later
        .alive
        .iter()
        .map(|&i| later.particles[i as usize].id)
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 580, "every particle once in the alive list");
}

#[test]
fn effects_can_be_removed_and_passes_timed() {
    let gpu = common::gpu();
    let mut renderer = standard_renderer(&gpu);
    let a = renderer
        .add_effect(
            &gpu.device,
            &gpu.queue,
            &Demo::Fireworks.effect(2048),
            2048,
            1,
        )
        .unwrap();
    let b = renderer
        .add_effect(&gpu.device, &gpu.queue, &Demo::Snow.effect(2048), 2048, 2)
        .unwrap();
    assert!(renderer.remove_effect(a));
    assert!(!renderer.remove_effect(a), "removed twice");
    assert!(renderer.effect(a).is_none());
    assert!(renderer.snapshot(&gpu.device, &gpu.queue, a).is_err());
    assert_eq!(renderer.effects().collect::<Vec<_>>(), [b]);
    assert!(renderer.effect(b).is_some());
    let has_timestamps = gpu
        .device
        .features()
        .contains(wgpu::Features::TIMESTAMP_QUERY);
    assert_eq!(
        renderer.enable_profiling(&gpu.device, &gpu.queue),
        has_timestamps
    );
    let target = HeadlessTarget::new(&gpu.device, 64, 48);
    let camera = Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 4.0 / 3.0);
    for _ in 0..6 {
        host_frame(&gpu, &mut renderer, &target, &camera, 0.02);
        gpu.wait().unwrap();
    }
    if has_timestamps {
        let names: Vec<&str> = renderer
            .pass_times()
            .iter()
            .map(|(n, _)| n.as_str())
            .collect();
        for pass in [
            "emit",
            "simulate",
            "cull",
            "sort",
            "downsample",
            "draw",
            "composite",
        ] {
            assert!(names.contains(&pass), "no time for {pass}: {names:?}");
        }
        let times = renderer.pass_times();
        assert_eq!(times[0].0, "frame");
        let frame = times[0].1;
        for (name, ms) in &times[1..] {
            assert!(
                ms.is_finite() && *ms >= 0.0 && *ms <= frame,
                "{name}: {ms} ms in a frame of {frame} ms"
            );
        }
    }
}

/// Alpha-blended effect of single large particles at the given points, in one colour.
fn dots(points: &[[f32; 3]], rgb: [f32; 3]) -> flurry::EffectDesc {
    use flurry::effect::*;
    let color = [rgb[0], rgb[1], rgb[2], 0.95];
    let size = Range::new(1.5, 0.0);
    let emitters = points
        .iter()
        .map(|&p| common::held(Shape::Point(p), 1, size, color, [0.0; 3]))
        .collect();
    common::still("dots", emitters)
}

#[test]
fn blended_effects_are_sorted_together() {
    // red particles behind and in front of a green one: drawn effect by effect, green would
    // end on top; sorted together, the near red one covers it
    let gpu = common::gpu();
    let mut renderer = ParticleRenderer::new(
        &gpu.device,
        HeadlessTarget::TARGETS,
        Settings {
            scale: flurry::Scale::Full,
            ..common::settings()
        },
    )
    .unwrap();
    let red = renderer
        .add_effect(
            &gpu.device,
            &gpu.queue,
            &dots(&[[0.0, 0.0, -1.0], [0.0, 0.0, 1.0]], [1.0, 0.0, 0.0]),
            16,
            1,
        )
        .unwrap();
    let green = renderer
        .add_effect(
            &gpu.device,
            &gpu.queue,
            &dots(&[[0.0, 0.0, 0.0]], [0.0, 1.0, 0.0]),
            16,
            2,
        )
        .unwrap();
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 6.0), Vec3::ZERO, 1.0);
    let target = HeadlessTarget::new(&gpu.device, 64, 64);
    for _ in 0..2 {
        host_frame(&gpu, &mut renderer, &target, &camera, 1e-4);
    }
    // both are gathered into one list: one merge pass, no sort of their own
    assert!(renderer.passes().contains(&Pass::Merge));
    assert!(!renderer.passes().contains(&Pass::Sort));
    let img = target.read_rgba(&gpu).unwrap();
    let c = img.get_pixel(32, 32).0;
    assert!(
        c[0] as u32 > 2 * c[1] as u32,
        "the near red particle should cover the green one: {c:?}"
    );
    // removing the green effect leaves one alpha effect: no merge any more, it sorts alone
    renderer.remove_effect(green);
    renderer
        .update(&gpu.device, &gpu.queue, 1e-4, camera, target.size())
        .unwrap();
    assert!(!renderer.passes().contains(&Pass::Merge));
    assert!(renderer.passes().contains(&Pass::Sort));
    assert!(renderer.effect(red).is_some());
}

/// Six alpha-blended effects, more than one draw could once bind, are sorted and drawn as
/// one list: the nearest dot covers the others whichever effect holds it (the fifth added,
/// where drawing effect by effect would leave the sixth on top), and every dot takes its
/// colour over life from its own effect's constants (all are born white).
#[test]
fn any_number_of_blended_effects_are_sorted_together_each_with_its_constants() {
    use flurry::effect::*;
    let gpu = common::gpu();
    let settings = Settings {
        scale: flurry::Scale::Full,
        ..common::settings()
    };
    let mut renderer =
        ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, settings).unwrap();
    // (depth on the view axis, colour at the end of life): the fifth is the nearest and
    // turns red, the sixth, drawn last if each effect drew its own, turns blue
    let green = [0.0, 1.0, 0.0, 1.0];
    let dots = [
        (-2.5, green),
        (0.5, green),
        (-1.5, green),
        (1.5, green),
        (2.5, [1.0, 0.0, 0.0, 1.0]),
        (-0.5, [0.0, 0.0, 1.0, 1.0]),
    ];
    for (k, &(z, color_end)) in dots.iter().enumerate() {
        let mut emitter = common::held(
            Shape::Point([0.0, 0.0, z]),
            1,
            Range::new(1.5, 0.0),
            [1.0, 1.0, 1.0, 0.95],
            [0.0; 3],
        );
        emitter.lifetime = Range::constant(1.0);
        let mut desc = common::still("dot", vec![emitter]);
        desc.over_life.color_end = color_end;
        renderer
            .add_effect(&gpu.device, &gpu.queue, &desc, 16, k as u32)
            .unwrap();
    }
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 6.0), Vec3::ZERO, 1.0);
    let target = HeadlessTarget::new(&gpu.device, 64, 64);
    // some nine tenths of their lives: each about 0.1 white and 0.9 its end colour (the
    // red one about (1, 0.1, 0.1) in linear light, brighter in sRGB)
    for _ in 0..9 {
        host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    }
    assert!(renderer.passes().contains(&Pass::Merge));
    assert!(
        !renderer.passes().contains(&Pass::Sort),
        "every effect is sorted in the merged list"
    );
    let c = target.read_rgba(&gpu).unwrap().get_pixel(32, 32).0;
    let (r, g, b) = (c[0] as u32, c[1] as u32, c[2] as u32);
    assert!(
        r > 200 && r > g + 80 && r > b + 80,
        "the nearest dot, red by its own effect's constants, should cover the rest: {c:?}"
    );
}

/// A host moves an emitter (a gun that follows the camera): new particles leave from where
/// it now is, at its new velocity and rate.
#[test]
fn an_emitter_can_be_moved_and_re_aimed() {
    use flurry::effect::*;
    let gpu = common::gpu();
    let mut renderer = standard_renderer(&gpu);
    let idle = EffectDesc {
        forces: Forces::NONE,
        emitters: vec![EmitterDesc {
            lifetime: Range::constant(10.0),
            ..Default::default()
        }],
        ..Default::default()
    };
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &idle, 1024, 1)
        .unwrap();
    let muzzle = Shape::Point([3.0, 2.0, 1.0]);
    let velocity = Velocity::Linear {
        mean: [0.0, 0.0, -100.0],
        variance: [0.0; 3],
    };
    let err = renderer
        .set_emitter(id, 1, muzzle, velocity, 600.0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("index = 1") && err.contains("0..1"), "{err}");
    // values out of range are refused like a new effect's, and change nothing
    let nan = Shape::Point([f32::NAN, 0.0, 0.0]);
    let err = renderer
        .set_emitter(id, 0, nan, velocity, 600.0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("emitters[0].shape.Point[0]"), "{err}");
    let err = renderer
        .set_emitter(id, 0, muzzle, velocity, -1.0)
        .unwrap_err()
        .to_string();
    assert!(err.contains("emitters[0].rate = -1"), "{err}");
    assert_eq!(
        renderer.effect(id).unwrap().emitters[0].rate,
        idle.emitters[0].rate
    );
    renderer
        .set_emitter(id, 0, muzzle, velocity, 600.0)
        .unwrap();
    let target = HeadlessTarget::new(&gpu.device, 32, 32);
    let camera = Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 1.0);
    host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    let snap = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    assert_eq!(snap.stats.emitted_total, 60, "600/s for 0.1 s");
    for &i in &snap.alive {
        let p = snap.particles[i as usize];
        assert_eq!(p.vel, Vec3::new(0.0, 0.0, -100.0));
        // born at the muzzle this frame, moved by at most one step since
        let from = p.pos - Vec3::new(3.0, 2.0, 1.0);
        assert!(from.x.abs() < 1e-4 && from.y.abs() < 1e-4 && from.z <= 0.0 && from.z >= -10.0);
    }
    assert_eq!(renderer.effect(id).unwrap().emitters[0].rate, 600.0);
}

/// A renderer for the standard test host's targets, with the default settings.
fn standard_renderer(gpu: &flurry::GpuContext) -> ParticleRenderer {
    ParticleRenderer::new(&gpu.device, HeadlessTarget::TARGETS, common::settings()).unwrap()
}

/// A wgpu error anywhere fails the test (wgpu's default handler would panic later, or on
/// another thread).
fn fail_on_wgpu_errors(gpu: &flurry::GpuContext) {
    gpu.device
        .on_uncaptured_error(std::sync::Arc::new(|e| panic!("wgpu error: {e}")));
}

/// The shipped fountain, and a camera that sees it over the ground.
fn fountain_seen() -> (flurry::EffectDesc, Camera) {
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron"));
    let fountain = flurry::EffectDesc::from_file(path).unwrap();
    let eye = Vec3::new(0.0, 3.0, 9.0);
    (
        fountain,
        Camera::look_at(eye, Vec3::new(0.0, 2.0, 0.0), 4.0 / 3.0),
    )
}

/// A host's own pass over what `view` holds (resolved into `resolve`), its depth attached
/// read-only or not at all.
fn host_pass<'a>(
    encoder: &'a mut wgpu::CommandEncoder,
    (view, resolve): (&'a wgpu::TextureView, Option<&'a wgpu::TextureView>),
    depth: Option<&'a wgpu::TextureView>,
) -> wgpu::RenderPass<'a> {
    encoder.begin_render_pass(&wgpu::RenderPassDescriptor {
        label: Some("host overlay"),
        color_attachments: &[Some(wgpu::RenderPassColorAttachment {
            view,
            depth_slice: None,
            resolve_target: resolve,
            ops: wgpu::Operations {
                load: wgpu::LoadOp::Load,
                store: wgpu::StoreOp::Store,
            },
        })],
        depth_stencil_attachment: depth.map(|view| wgpu::RenderPassDepthStencilAttachment {
            view,
            depth_ops: None,
            stencil_ops: None,
        }),
        timestamp_writes: None,
        occlusion_query_set: None,
        multiview_mask: None,
    })
}

/// A frame of 1/60 s begun: the renderer updated, the host's scene drawn over black into
/// the encoder returned.
fn host_scene(
    gpu: &flurry::GpuContext,
    (renderer, target): (&mut ParticleRenderer, &HeadlessTarget),
    view: flurry::View,
) -> wgpu::CommandEncoder {
    renderer
        .update(&gpu.device, &gpu.queue, 1.0 / 60.0, view, target.size())
        .unwrap();
    target.scene.update(&gpu.queue, view.view_proj());
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    target.encode_scene(&mut encoder, [0.0, 0.0, 0.0, 1.0], None);
    encoder
}

/// How a test host composites the particles.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Composite {
    /// `encode`: flurry's own composite pass.
    Encode,
    /// `prepare`, then `render` in the host's pass, its depth attached read-only.
    HostPass,
    /// `prepare`, then `render` in a host's pass with no depth attachment (a UI toolkit's).
    PassWithoutDepth,
}

/// Frames of the fountain drawn with `encode`, or with `prepare` and `render` inside a pass
/// of the host's (its colour, its depth read-only or not attached at all): the same
/// picture, the particles hidden behind the host's ground alike.
#[test]
fn prepare_and_render_in_the_host_pass_draw_what_encode_draws() {
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let (fountain, camera) = fountain_seen();
    let picture = |composite: Composite, setup: HostSetup| {
        let mut target = HeadlessTarget::of(&gpu.device, (96, 72), setup);
        let targets = match composite {
            Composite::PassWithoutDepth => target.targets().without_depth_in_pass(),
            _ => target.targets(),
        };
        let mut renderer = ParticleRenderer::new(&gpu.device, targets, common::settings()).unwrap();
        renderer
            .add_effect(&gpu.device, &gpu.queue, &fountain, 4096, 5)
            .unwrap();
        target.scene.quads = common::host::Stage::Plane.quads();
        let view = setup.projection.view(&camera, Vec2::ZERO, target.size());
        for _ in 0..20 {
            let mut encoder = host_scene(&gpu, (&mut renderer, &target), view);
            let frame = target.frame();
            if composite != Composite::Encode {
                renderer.prepare(&gpu.device, &mut encoder, &frame).unwrap();
                let depth = frame.depth.filter(|_| composite == Composite::HostPass);
                // the host's own pass, resolving its multisampled colour at the end
                let mut pass = host_pass(&mut encoder, (frame.color, frame.resolve), depth);
                renderer.render(&mut pass);
            } else {
                renderer.encode(&gpu.device, &mut encoder, &frame).unwrap();
            }
            gpu.queue.submit([encoder.finish()]);
        }
        target.read_rgba(&gpu).unwrap()
    };
    let reversed_msaa = HostSetup {
        projection: Projection::ReversedInfinite,
        samples: 4,
        hdr: false,
    };
    for setup in [HostSetup::STANDARD, reversed_msaa] {
        let one = picture(Composite::Encode, setup);
        let lit = one.pixels().filter(|p| p.0[2] > 60).count();
        assert!(
            lit > 30,
            "{setup:?}: the fountain shows in {lit} pixels only"
        );
        for composite in [Composite::HostPass, Composite::PassWithoutDepth] {
            let two = picture(composite, setup);
            let differ = one
                .pixels()
                .zip(two.pixels())
                .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > 2))
                .count();
            assert_eq!(
                differ, 0,
                "{setup:?}: {differ} pixels differ between encode and {composite:?}"
            );
        }
    }
}

/// `render` in a viewport of a larger target (an editor's viewport in its window), that
/// target stored as sRGB or, as egui's window is, gamma-encoded without an sRGB format: the
/// viewport shows what `encode` draws into a target of the viewport's own size, pixel for
/// pixel, the rest of the target untouched: over the ground in the sRGB target, over black
/// in the gamma-encoded one (over a bright ground it blends in gamma space, as egui does).
#[test]
fn render_in_a_viewport_of_a_larger_target_draws_what_encode_draws() {
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let (fountain, camera) = fountain_seen();
    let (size, window, origin) = ((96, 72), (150, 110), (31, 17));
    // the host's picture: the viewport's pixels, and how many of the window's others changed
    let picture = |format: Option<wgpu::TextureFormat>, stage: common::host::Stage| {
        let mut target = match format {
            Some(format) => HeadlessTarget::stored_as(&gpu.device, size, format),
            None => HeadlessTarget::new(&gpu.device, size.0, size.1),
        };
        let targets = match format {
            Some(_) => target.targets().without_depth_in_pass(),
            None => target.targets(),
        };
        let mut renderer = ParticleRenderer::new(&gpu.device, targets, common::settings()).unwrap();
        renderer
            .add_effect(&gpu.device, &gpu.queue, &fountain, 4096, 5)
            .unwrap();
        target.scene.quads = stage.quads();
        let view = HostSetup::STANDARD
            .projection
            .view(&camera, Vec2::ZERO, target.size());
        let grey = [77u8; 4];
        let outside = format.map(|format| {
            let usage = wgpu::TextureUsages::RENDER_ATTACHMENT
                | wgpu::TextureUsages::COPY_DST
                | wgpu::TextureUsages::COPY_SRC;
            let t = common::host::headless::texture(&gpu.device, "window", window, format, usage);
            let texels = vec![grey; (window.0 * window.1) as usize].concat();
            gpu.queue.write_texture(
                t.as_image_copy(),
                &texels,
                wgpu::TexelCopyBufferLayout {
                    offset: 0,
                    bytes_per_row: Some(4 * window.0),
                    rows_per_image: None,
                },
                t.size(),
            );
            t
        });
        for _ in 0..20 {
            let mut encoder = host_scene(&gpu, (&mut renderer, &target), view);
            let frame = target.frame();
            let Some(window_texture) = &outside else {
                renderer.encode(&gpu.device, &mut encoder, &frame).unwrap();
                gpu.queue.submit([encoder.finish()]);
                continue;
            };
            renderer.prepare(&gpu.device, &mut encoder, &frame).unwrap();
            // the host's image into the window's rectangle, then the particles over it
            let mut at = window_texture.as_image_copy();
            at.origin = wgpu::Origin3d {
                x: origin.0,
                y: origin.1,
                z: 0,
            };
            let extent = frame.color.texture().size();
            encoder.copy_texture_to_texture(frame.color.texture().as_image_copy(), at, extent);
            let view = window_texture.create_view(&Default::default());
            let mut pass = host_pass(&mut encoder, (&view, None), None);
            let (x, y) = (origin.0 as f32, origin.1 as f32);
            pass.set_viewport(x, y, size.0 as f32, size.1 as f32, 0.0, 1.0);
            renderer.render(&mut pass);
            drop(pass);
            gpu.queue.submit([encoder.finish()]);
        }
        let Some(window_texture) = outside else {
            return (target.read_rgba(&gpu).unwrap(), 0);
        };
        let all = gpu.read_texture(&window_texture).unwrap();
        let all = image::RgbaImage::from_raw(window.0, window.1, all).unwrap();
        let inside = |x: u32, y: u32| {
            (origin.0..origin.0 + size.0).contains(&x) && (origin.1..origin.1 + size.1).contains(&y)
        };
        let changed = all
            .enumerate_pixels()
            .filter(|&(x, y, p)| !inside(x, y) && p.0 != grey)
            .count();
        let viewport = image::imageops::crop_imm(&all, origin.0, origin.1, size.0, size.1);
        (viewport.to_image(), changed)
    };
    use common::host::Stage;
    use wgpu::TextureFormat as F;
    let cases = [
        (F::Rgba8UnormSrgb, Stage::Plane),
        (F::Rgba8Unorm, Stage::Empty),
    ];
    for (format, stage) in cases {
        let (one, _) = picture(None, stage);
        let lit = one.pixels().filter(|p| p.0[2] > 60).count();
        assert!(
            lit > 30,
            "{stage:?}: the fountain shows in {lit} pixels only"
        );
        let (two, changed) = picture(Some(format), stage);
        assert_eq!(
            changed, 0,
            "{format:?} {stage:?}: pixels outside the viewport changed"
        );
        let tolerance = 2;
        let differ = one
            .pixels()
            .zip(two.pixels())
            .filter(|(a, b)| a.0.iter().zip(b.0).any(|(x, y)| x.abs_diff(y) > tolerance))
            .count();
        assert_eq!(
            differ, 0,
            "{format:?} {stage:?}: {differ} pixels differ by more than {tolerance}"
        );
    }
}

/// New targets (an HDR colour format, then MSAA switched on) keep every effect and its pool.
#[test]
fn new_targets_keep_the_effects_and_their_pools() {
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let mut renderer = standard_renderer(&gpu);
    let snow = Demo::Snow.effect(2048);
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &snow, 2048, 3)
        .unwrap();
    let camera = Demo::Snow.camera(1.0);
    let ldr = HeadlessTarget::new(&gpu.device, 48, 48);
    let frame = |renderer: &mut ParticleRenderer, targets: &flurry::FrameTargets| {
        renderer
            .update(&gpu.device, &gpu.queue, 0.02, camera, (48, 48))
            .unwrap();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        renderer.encode(&gpu.device, &mut encoder, targets).unwrap();
        gpu.queue.submit([encoder.finish()]);
    };
    for _ in 0..3 {
        host_frame(&gpu, &mut renderer, &ldr, &camera, 0.02);
    }
    let before = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    let hdr_format = wgpu::TextureFormat::Rgba16Float;
    let hdr = common::host::headless::texture(
        &gpu.device,
        "hdr",
        (48, 48),
        hdr_format,
        wgpu::TextureUsages::RENDER_ATTACHMENT,
    );
    let hdr_view = hdr.create_view(&Default::default());
    let targets = flurry::Targets::new(hdr_format, None);
    renderer.set_targets(&gpu.device, targets).unwrap();
    assert_eq!(renderer.targets(), targets);
    let hdr_frame = flurry::FrameTargets::new(&hdr_view, None);
    frame(&mut renderer, &hdr_frame);
    let after = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    assert_eq!(after.stats.capacity, 2048);
    assert!(before.stats.alive > 1000, "{:?}", before.stats);
    assert!(
        after.stats.emitted_total >= before.stats.emitted_total,
        "the pool was rebuilt: {:?} then {:?}",
        before.stats,
        after.stats
    );
    assert!(
        after.stats.alive + 10 >= before.stats.alive,
        "{:?}",
        after.stats
    );
    // the old targets are refused now, with what is expected instead
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let err = renderer
        .encode(&gpu.device, &mut encoder, &ldr.frame())
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("frame.color") && err.contains("Rgba16Float"),
        "{err}"
    );
    drop(encoder);
    // MSAA switched on: the same pool goes on into a multisampled host
    let setup = common::host::HostSetup {
        samples: 4,
        ..Default::default()
    };
    // larger: flakes smaller than a pixel light nothing unless they cover a pixel centre,
    // so a 48-pixel frame of 2,048 flakes can show none
    let msaa = HeadlessTarget::of(&gpu.device, (160, 120), setup);
    renderer.set_targets(&gpu.device, msaa.targets()).unwrap();
    host_frame(&gpu, &mut renderer, &msaa, &camera, 0.02);
    let multisampled = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    assert!(multisampled.stats.emitted_total >= after.stats.emitted_total);
    assert!(multisampled.stats.alive + 10 >= after.stats.alive);
    let lit = msaa
        .read_rgba(&gpu)
        .unwrap()
        .pixels()
        .filter(|p| p.0[..3].iter().any(|&c| c > 0))
        .count();
    // on a black background every flake, however faint, lights its pixels
    assert!(
        lit > 20,
        "the multisampled frame shows no snow ({lit} lit pixels)"
    );
}

/// What a host can get wrong is an error naming the value and what is allowed, and no wgpu
/// error is raised on the way.
#[test]
fn bad_host_input_is_an_error_not_a_panic() {
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let targets = flurry::Targets::new;
    let settings = common::settings();
    let refused = |r: flurry::Result<ParticleRenderer>, needle: &str| match r {
        Ok(_) => panic!("{needle}: accepted"),
        Err(e) => assert!(e.to_string().contains(needle), "{e}"),
    };
    use wgpu::TextureFormat as F;
    let new = |t| ParticleRenderer::new(&gpu.device, t, settings);
    refused(
        new(targets(F::Rgba32Uint, None)),
        "color_format = Rgba32Uint",
    );
    refused(
        new(targets(F::Rgba8UnormSrgb, Some(F::Stencil8))),
        "depth_format",
    );
    // a sample count no format allows, with the counts that would do
    refused(
        new(targets(F::Rgba8UnormSrgb, Some(F::Depth32Float)).with_samples(3)),
        "sample_count = 3",
    );

    let mut renderer = new(HeadlessTarget::TARGETS).unwrap();
    let snow = Demo::Snow.effect(1024);
    let add = |r: &mut ParticleRenderer, capacity| {
        r.add_effect(&gpu.device, &gpu.queue, &snow, capacity, 1)
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let err = add(&mut renderer, 0);
    assert!(
        err.contains("capacity = 0") && err.contains("allowed 1..="),
        "{err}"
    );
    let err = add(&mut renderer, u32::MAX);
    let max = ParticleRenderer::max_capacity(&gpu.device);
    assert!(err.contains(&format!("allowed 1..={max}")), "{err}");

    let camera = Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 1.0);
    let mut update = |dt: f32, size: (u32, u32)| {
        renderer
            .update(&gpu.device, &gpu.queue, dt, camera, size)
            .unwrap_err()
            .to_string()
    };
    let limit = gpu.device.limits().max_texture_dimension_2d;
    assert!(update(0.02, (0, 10)).contains("size = 0x10"));
    assert!(update(0.02, (limit + 1, 10)).contains(&format!("1..={limit}")));
    assert!(update(f32::NAN, (10, 10)).contains("dt = NaN"));
    // projections flurry cannot read a depth convention from
    let mut oblique = camera.proj();
    oblique.x_axis.z = 0.4;
    let mut left_handed = camera.proj();
    left_handed.z_axis.w = 1.0;
    for proj in [oblique, left_handed] {
        let view = flurry::View::new(camera.view(), proj);
        let err = renderer
            .update(&gpu.device, &gpu.queue, 0.02, view, (10, 10))
            .unwrap_err()
            .to_string();
        assert!(err.contains("view.proj"), "{err}");
    }

    // a host depth that flurry cannot sample: refused before wgpu sees it
    renderer
        .update(&gpu.device, &gpu.queue, 0.02, camera, (32, 32))
        .unwrap();
    let color = HeadlessTarget::new(&gpu.device, 32, 32);
    let depth = common::host::headless::texture(
        &gpu.device,
        "depth without TEXTURE_BINDING",
        (32, 32),
        F::Depth32Float,
        wgpu::TextureUsages::RENDER_ATTACHMENT,
    );
    let depth_view = depth.create_view(&Default::default());
    let frame = flurry::FrameTargets::new(color.frame().color, Some(&depth_view));
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    let err = renderer
        .encode(&gpu.device, &mut encoder, &frame)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("frame.depth") && err.contains("TEXTURE_BINDING"),
        "{err}"
    );
    // a frame of another size than the update's
    let small = HeadlessTarget::new(&gpu.device, 16, 16);
    let err = renderer
        .prepare(&gpu.device, &mut encoder, &small.frame())
        .unwrap_err()
        .to_string();
    assert!(err.contains("16x16") && err.contains("32x32"), "{err}");
    // a multisampled frame for single-sampled targets
    let msaa = common::host::HostSetup {
        samples: 4,
        ..Default::default()
    };
    let multisampled = HeadlessTarget::of(&gpu.device, (32, 32), msaa);
    let err = renderer
        .encode(&gpu.device, &mut encoder, &multisampled.frame())
        .unwrap_err()
        .to_string();
    assert!(err.contains("4 samples"), "{err}");
    gpu.queue.submit([encoder.finish()]);
    gpu.wait().unwrap();
}

#[test]
fn a_device_with_limits_below_webgpus_defaults_is_refused_naming_them() {
    let gpu = common::gpu();
    // the error ParticleRenderer::new gives on a device of `limits`
    let refusal = |limits: wgpu::Limits| {
        let desc = wgpu::DeviceDescriptor {
            required_limits: limits,
            ..Default::default()
        };
        let (device, _queue) = pollster::block_on(gpu.adapter.request_device(&desc)).unwrap();
        ParticleRenderer::new(&device, HeadlessTarget::TARGETS, common::settings())
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    // a host that asked its adapter for WebGL2's limits: no storage buffers at all
    let err = refusal(wgpu::Limits::downlevel_webgl2_defaults());
    assert!(
        err.contains("max_storage_buffers_per_shader_stage: has 0, needs 8"),
        "{err}"
    );
    // one a storage buffer short of WebGPU's baseline, which every pass fits in
    let short = wgpu::Limits {
        max_storage_buffers_per_shader_stage: 7,
        ..Default::default()
    };
    let err = refusal(short);
    assert!(
        err.contains("max_storage_buffers_per_shader_stage: has 7, needs 8"),
        "{err}"
    );
    // WebGPU's baseline itself: a renderer
    let desc = wgpu::DeviceDescriptor::default();
    let (device, _queue) = pollster::block_on(gpu.adapter.request_device(&desc)).unwrap();
    ParticleRenderer::new(&device, HeadlessTarget::TARGETS, common::settings()).unwrap();
}

#[test]
fn an_effect_removed_between_update_and_encode_leaves_the_others_drawn() {
    // three alpha-blended effects sorted together; the middle one removed after the update
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let mut renderer = standard_renderer(&gpu);
    let ids: Vec<_> = [[-1.0, 0.0, 0.0], [0.0, 0.0, 0.0], [1.0, 0.0, 0.0]]
        .into_iter()
        .map(|p| {
            let desc = dots(&[p], [0.9, 0.3, 0.2]);
            renderer
                .add_effect(&gpu.device, &gpu.queue, &desc, 64, 1)
                .unwrap()
        })
        .collect();
    let target = HeadlessTarget::new(&gpu.device, 48, 32);
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 6.0), Vec3::ZERO, 1.5);
    host_frame(&gpu, &mut renderer, &target, &camera, 0.02);
    assert!(renderer.passes().contains(&Pass::Merge));
    renderer
        .update(&gpu.device, &gpu.queue, 0.02, camera, target.size())
        .unwrap();
    assert!(renderer.remove_effect(ids[1]));
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    renderer
        .encode(&gpu.device, &mut encoder, &target.frame())
        .unwrap();
    // a second frame for the same update is refused (it would step the simulation twice)
    let err = renderer
        .encode(&gpu.device, &mut encoder, &target.frame())
        .unwrap_err()
        .to_string();
    assert!(err.contains("one encode or prepare per update"), "{err}");
    gpu.queue.submit([encoder.finish()]);
    host_frame(&gpu, &mut renderer, &target, &camera, 0.02);
    for id in [ids[0], ids[2]] {
        let snap = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
        assert_eq!(snap.check(), Ok(()));
        assert_eq!(snap.stats.alive, 1);
    }
}

#[test]
fn a_moving_emitter_draws_a_line_along_its_frame_path() {
    // a point emitter at 2,000 particles a second carried 10 m along x in one 0.1 s frame:
    // its 200 spawns lie along the way, no tenth of it holding more than twice the mean
    use flurry::effect::*;
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let mut renderer = standard_renderer(&gpu);
    let desc = EffectDesc {
        forces: Forces::NONE,
        emitters: vec![EmitterDesc {
            rate: 2000.0,
            lifetime: Range::constant(10.0),
            ..Default::default()
        }],
        ..Default::default()
    };
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 4096, 1)
        .unwrap();
    let target = HeadlessTarget::new(&gpu.device, 32, 32);
    let camera = Camera::look_at(Vec3::new(5.0, 2.0, 20.0), Vec3::new(5.0, 0.0, 0.0), 1.0);
    // a first frame where it stands still: its spawns at the origin
    host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    let still = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    assert!(still
        .alive
        .iter()
        .all(|&i| still.particles[i as usize].pos == Vec3::ZERO));
    let born: std::collections::HashSet<u32> = still.alive.iter().copied().collect();
    renderer
        .set_transform(id, glam::Mat4::from_translation(Vec3::new(10.0, 0.0, 0.0)))
        .unwrap();
    host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    let moved = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    let xs: Vec<f32> = moved
        .alive
        .iter()
        .filter(|i| !born.contains(i))
        .map(|&i| moved.particles[i as usize].pos.x)
        .collect();
    assert_eq!(xs.len(), 200);
    let mut tenths = [0u32; 10];
    for x in &xs {
        assert!((0.0..=10.0).contains(x), "spawned off the path at x = {x}");
        tenths[((x / 1.0) as usize).min(9)] += 1;
    }
    let mean = xs.len() as u32 / 10;
    assert!(
        tenths.iter().all(|&n| n <= 2 * mean && n > 0),
        "spawns per tenth of the path: {tenths:?}"
    );
    // refusals: an unknown effect, a matrix that is not finite or not invertible
    assert!(renderer
        .set_transform(id, glam::Mat4::from_cols_array(&[f32::NAN; 16]))
        .is_err());
    assert!(renderer.set_transform(id, glam::Mat4::ZERO).is_err());
    assert!(renderer
        .set_emitter_transform(id, 3, glam::Mat4::IDENTITY)
        .is_err());
}

#[test]
fn a_still_hose_streams_and_a_burst_is_born_when_it_is_due() {
    // a hose held still, 2,000 particles a second at 10 m/s along x, and a burst of 50 due
    // 0.025 s into a 0.1 s frame: after the frame the hose's 200 spawns lie evenly along the
    // metre its first one flew (no tenth holding more than twice the mean, their ages from
    // 0 to 0.1 s), and the burst's particles together 0.75 m out, 0.075 s old
    use flurry::effect::*;
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let mut renderer = standard_renderer(&gpu);
    let emitter = EmitterDesc {
        velocity: Velocity::Linear {
            mean: [10.0, 0.0, 0.0],
            variance: [0.0; 3],
        },
        lifetime: Range::constant(10.0),
        ..Default::default()
    };
    let desc = EffectDesc {
        forces: Forces::NONE,
        emitters: vec![
            EmitterDesc {
                rate: 2000.0,
                ..emitter.clone()
            },
            EmitterDesc {
                bursts: vec![Burst::once(0.025, 50)],
                ..emitter
            },
        ],
        ..Default::default()
    };
    let id = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 4096, 1)
        .unwrap();
    let target = HeadlessTarget::new(&gpu.device, 32, 32);
    let camera = Camera::look_at(Vec3::new(0.5, 2.0, 5.0), Vec3::new(0.5, 0.0, 0.0), 1.0);
    host_frame(&gpu, &mut renderer, &target, &camera, 0.1);
    let snap = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    let alive = snap.alive.iter().map(|&i| &snap.particles[i as usize]);
    let (hose, burst) = alive.partition::<Vec<&flurry::Particle>, _>(|p| p.emitter == 0);
    assert_eq!((hose.len(), burst.len()), (200, 50));
    let mut tenths = [0u32; 10];
    for p in &hose {
        assert!(
            (0.0..=1.0).contains(&p.pos.x),
            "off the stream at x = {}",
            p.pos.x
        );
        // where a particle is says how long it has flown
        assert!(
            (p.pos.x - 10.0 * p.age).abs() < 1e-4,
            "{} m at {} s",
            p.pos.x,
            p.age
        );
        tenths[((p.pos.x * 10.0) as usize).min(9)] += 1;
    }
    assert!(
        tenths.iter().all(|&n| n <= 2 * 20 && n > 0),
        "spawns per tenth of the stream: {tenths:?}"
    );
    for p in &burst {
        assert!(
            (p.pos.x - 0.75).abs() < 1e-4,
            "burst particle at {}",
            p.pos.x
        );
        assert!(
            (p.age - 0.075).abs() < 1e-5,
            "burst particle {} s old",
            p.age
        );
    }
}

#[test]
fn a_recorded_frame_the_host_drops_leaves_every_pool_whole() {
    // a host that records a frame and then drops its encoder (an error after recording, a
    // surface lost): the GPU never ran it, and the next frames go on from where the last
    // submitted one left the particles
    let gpu = common::gpu();
    fail_on_wgpu_errors(&gpu);
    let mut renderer = standard_renderer(&gpu);
    // a fountain of 4,000 a second: the dropped frame had 200 spawns pending, and sparks of
    // fireworks die and spawn on the GPU
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/fountain.ron"));
    let fountain = flurry::EffectDesc::from_file(path).unwrap();
    let ids = [
        renderer
            .add_effect(&gpu.device, &gpu.queue, &fountain, 16_384, 3)
            .unwrap(),
        renderer
            .add_effect(
                &gpu.device,
                &gpu.queue,
                &Demo::Fireworks.effect(4096),
                4096,
                3,
            )
            .unwrap(),
    ];
    let target = HeadlessTarget::new(&gpu.device, 64, 48);
    let camera = Demo::Fireworks.camera(4.0 / 3.0);
    for _ in 0..20 {
        host_frame(&gpu, &mut renderer, &target, &camera, 0.05);
    }
    renderer
        .update(&gpu.device, &gpu.queue, 0.05, camera, target.size())
        .unwrap();
    let mut encoder = gpu.device.create_command_encoder(&Default::default());
    renderer
        .encode(&gpu.device, &mut encoder, &target.frame())
        .unwrap();
    drop(encoder);
    for frame in 0..5 {
        host_frame(&gpu, &mut renderer, &target, &camera, 0.05);
        for id in ids {
            let snap = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
            assert_eq!(snap.check(), Ok(()), "frame {frame} after the dropped one");
            assert!(snap.stats.alive > 0);
        }
    }
}

#[test]
fn an_effect_that_asks_for_neighbours_gets_its_grid_pass() {
    let gpu = common::gpu();
    let target = HeadlessTarget::of(&gpu.device, (64, 48), HostSetup::STANDARD);
    let mut renderer =
        ParticleRenderer::new(&gpu.device, target.targets(), common::settings()).unwrap();
    let mut desc = Demo::Snow.effect(4096);
    desc.neighbours = Some(2000.0);
    let err = renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 4096, 1)
        .unwrap_err()
        .to_string();
    assert!(
        err.contains("neighbours = 2000: allowed 0.01..=1000 m"),
        "{err}"
    );
    desc.neighbours = Some(0.5);
    renderer
        .add_effect(&gpu.device, &gpu.queue, &desc, 4096, 1)
        .unwrap();
    let camera = Demo::Snow.camera(target.aspect());
    host_frame(&gpu, &mut renderer, &target, &camera, 0.05);
    let passes = renderer.passes();
    let at = |p: Pass| passes.iter().position(|&q| q == p).unwrap();
    assert!(at(Pass::Emit) < at(Pass::Grid) && at(Pass::Grid) < at(Pass::Simulate));
    // steering only where a flock asks for it
    assert!(!passes.contains(&Pass::Flock), "{passes:?}");
    let id = renderer.effects().next().unwrap();
    let snap = renderer.snapshot(&gpu.device, &gpu.queue, id).unwrap();
    snap.check().unwrap();
    let path = std::path::Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/effects/flock.ron"));
    let flock = flurry::EffectDesc::from_file(path).unwrap();
    renderer
        .add_effect(&gpu.device, &gpu.queue, &flock, 4096, 1)
        .unwrap();
    host_frame(&gpu, &mut renderer, &target, &camera, 0.05);
    let passes = renderer.passes();
    let at = |p: Pass| passes.iter().position(|&q| q == p).unwrap();
    assert!(at(Pass::Grid) < at(Pass::Flock) && at(Pass::Flock) < at(Pass::Simulate));
}
