//! Mesh particles: instanced triangle meshes turned by the particle's rotation, scaled by
//! its size, lit by the renderer's light, opaque in the host's colour and depth, hiding
//! the particles behind them and colliding with the host's depth.

mod common;

use common::host::stage::Stage;
use common::host::Scene;
use common::Render;
use flurry::effect::*;
use flurry::{Camera, Light, Scale, Settings, Upsample};
use glam::Vec3;

const SIZE: (u32, u32) = (256, 256);

/// One particle at `at`, at rest, `size` across, grey, drawn as `mesh`.
fn one(mesh: MeshSource, at: [f32; 3], size: f32) -> EmitterDesc {
    EmitterDesc {
        shape: Shape::Point(at),
        bursts: vec![Burst::once(0.0, 1)],
        lifetime: Range::constant(100.0),
        size: Range::constant(size),
        color: ColorRange::constant([0.8, 0.8, 0.8, 1.0]),
        render: Some(RenderMode::Mesh { mesh, flight: None }),
        ..Default::default()
    }
}

fn still(emitters: Vec<EmitterDesc>) -> EffectDesc {
    common::still("meshes", emitters)
}

fn scene(effect: &EffectDesc, eye: Vec3, upsample: Upsample) -> (flurry::GpuContext, Scene) {
    let gpu = common::gpu();
    let camera = move |aspect| Camera::look_at(eye, Vec3::ZERO, aspect);
    let scene = Scene::new(&gpu, effect, 1024, 3, SIZE, camera)
        .unwrap()
        .with_settings(Settings {
            scale: Scale::Full,
            upsample,
            ..common::settings()
        });
    (gpu, scene)
}

fn pixel(camera: &Camera, x: Vec3) -> (u32, u32) {
    let p = common::to_pixel(camera.view_proj(), SIZE, x);
    (p.x as u32, p.y as u32)
}

/// The linear value of an sRGB byte.
fn linear(c: u8) -> f32 {
    let c = c as f32 / 255.0;
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

#[test]
fn a_lit_cube_s_faces_follow_n_dot_l() {
    let eye = Vec3::new(3.0, 4.0, 5.0);
    let cube = still(vec![one(MeshSource::Cube, [0.0; 3], 2.0)]);
    let (gpu, mut scene) = scene(&cube, eye, Upsample::default());
    let light = Light {
        direction: [0.5, 0.8, 0.3],
        color: [1.0; 3],
        ambient: [0.1; 3],
    };
    scene.renderer.set_light(light).unwrap();
    for _ in 0..2 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let img = scene.image(&gpu).unwrap();
    let l = Vec3::from(light.direction).normalize();
    // the three faces the camera sees, sampled at their centres
    for n in [Vec3::X, Vec3::Y, Vec3::Z] {
        let (x, y) = pixel(&scene.camera, n); // the face centre of a 2 m cube
        let got = linear(img.get_pixel(x, y).0[1]);
        let want = 0.8 * (0.1 + n.dot(l).max(0.0));
        assert!(
            (got - want).abs() <= 0.02 * want,
            "face {n}: {got:.4} where 0.8 × (0.1 + n·l) = {want:.4}"
        );
    }
}

#[test]
fn a_mesh_particle_hides_the_particles_behind_it() {
    // a cube 1 m in front of the origin, a big red disc behind it
    let mut behind = one(MeshSource::Cube, [0.0, 0.0, -2.0], 3.0);
    behind.render = Some(RenderMode::Billboard);
    behind.color = ColorRange::constant([1.0, 0.0, 0.0, 1.0]);
    let effect = still(vec![one(MeshSource::Cube, [0.0, 0.0, 1.0], 1.0), behind]);
    for upsample in [Upsample::NearestDepth, Upsample::Bilinear] {
        let (gpu, mut scene) = scene(&effect, Vec3::new(0.0, 0.0, 8.0), upsample);
        scene.frame(&gpu, 1.0 / 60.0, true);
        hidden_behind_the_cube(&scene.image(&gpu).unwrap(), &scene.camera, upsample);
    }
}

fn hidden_behind_the_cube(img: &image::RgbaImage, camera: &Camera, upsample: Upsample) {
    let (cx, cy) = pixel(camera, Vec3::new(0.0, 0.0, 1.5));
    let centre = img.get_pixel(cx, cy).0;
    assert!(
        centre[0] == centre[1] && centre[1] == centre[2] && centre[1] > 40,
        "{upsample:?}: the cube's face is {centre:?}: the disc behind shows through"
    );
    let (ex, ey) = pixel(camera, Vec3::new(1.0, 0.0, -2.0));
    let beside = img.get_pixel(ex, ey).0;
    let red = beside[0] > 150 && beside[1] < 40;
    assert!(red, "{upsample:?}: the disc beside the cube is {beside:?}");
}

#[test]
fn debris_comes_to_rest_on_the_ground_without_colliding_with_itself() {
    let debris = EffectDesc {
        name: "debris".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Sphere {
                center: [0.0, 2.0, 0.0],
                radius: 0.5,
                surface: false,
            },
            bursts: vec![Burst::once(0.0, 200)],
            velocity: Velocity::Radial {
                speed: Range::new(2.0, 1.0),
            },
            lifetime: Range::constant(100.0),
            size: Range::new(0.3, 0.1),
            rotation: Range::new(0.0, 3.0),
            spin: Range::new(0.0, 6.0),
            render: Some(RenderMode::Mesh {
                mesh: MeshSource::Shard,
                flight: None,
            }),
            ..Default::default()
        }],
        collision: Some(Collision::new(Response::Bounce {
            restitution: 0.3,
            friction: 0.5,
        })),
        ..Default::default()
    };
    let gpu = common::gpu();
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 6.0, 9.0), Vec3::ZERO, aspect);
    let mut scene = Scene::new(&gpu, &debris, 1024, 3, (320, 240), camera).unwrap();
    Stage::Plane.apply(&mut scene.target.scene);
    for _ in 0..240 {
        scene.frame(&gpu, 1.0 / 60.0, true);
    }
    let snap = scene.snapshot(&gpu).unwrap();
    snap.check().unwrap();
    let on_screen: Vec<_> = snap
        .alive
        .iter()
        .map(|&i| snap.particles[i as usize])
        .filter(|p| {
            let clip = scene.camera.view_proj() * p.pos.extend(1.0);
            let ndc = clip.truncate() / clip.w;
            ndc.x.abs() < 0.95 && ndc.y.abs() < 0.95
        })
        .collect();
    assert!(
        on_screen.len() > 100,
        "only {} shards on screen",
        on_screen.len()
    );
    for p in &on_screen {
        assert!(
            p.pos.y.abs() < 0.05 && p.vel.length() < 0.2,
            "shard {} at {} moving at {}: not at rest on the ground",
            p.id,
            p.pos,
            p.vel
        );
        assert!(
            p.spin.abs() < 0.5,
            "shard {} still spins at {}",
            p.id,
            p.spin
        );
    }
}

#[test]
fn mesh_effects_are_checked_by_field() {
    let mut effect = still(vec![
        one(MeshSource::Cube, [0.0; 3], 1.0),
        one(MeshSource::Leaf, [0.0; 3], 1.0),
    ]);
    let problems: Vec<String> = effect.problems().iter().map(|p| p.to_string()).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("emitters[1].render.Mesh.mesh = Leaf: allowed Cube")),
        "{problems:?}"
    );
    effect.emitters.truncate(1);
    effect.emitters[0].render = Some(RenderMode::Mesh {
        mesh: MeshSource::Host(flurry::MeshId(2)),
        flight: None,
    });
    let gpu = common::gpu();
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, aspect);
    let nothing = common::still("nothing", vec![EmitterDesc::default()]);
    let mut scene = Scene::new(&gpu, &nothing, 16, 1, (64, 64), camera).unwrap();
    let r = &mut scene.renderer;
    let text = r
        .add_effect(&gpu.device, &gpu.queue, &effect, 64, 1)
        .unwrap_err()
        .to_string();
    assert!(
        text.contains("emitters[0].render.Mesh.mesh = Host(2)"),
        "{text}"
    );
    let bad = Light {
        direction: [0.0; 3],
        ..Light::default()
    };
    let text = r.set_light(bad).unwrap_err().to_string();
    assert!(text.contains("light.direction"), "{text}");
}

/// A green cube `size` across at `at`.
fn green(at: [f32; 3], size: f32) -> EmitterDesc {
    EmitterDesc {
        color: ColorRange::constant([0.0, 0.9, 0.0, 1.0]),
        ..one(MeshSource::Cube, at, size)
    }
}

#[test]
fn mesh_particles_meet_the_host_s_depth_in_every_convention() {
    let gpu = common::gpu();
    // behind the wall (z = 2, left half), right of it, and in front of it
    let cubes = still(vec![
        green([-1.5, 0.0, 0.0], 0.8),
        green([1.5, 0.0, 0.0], 0.8),
        green([-1.0, -0.8, 3.5], 0.4),
    ]);
    for setup in common::setups() {
        let mut scene = common::wall_scene(&gpu, common::settings(), setup);
        let id = scene.effect;
        scene.renderer.remove_effect(id);
        scene.effect = scene
            .renderer
            .add_effect(&gpu.device, &gpu.queue, &cubes, 64, 1)
            .unwrap();
        let (w, h) = scene.target.size();
        let view_proj = scene.view().view_proj();
        let img = scene.render(&gpu);
        let at = |x: Vec3| {
            let p = common::to_pixel(view_proj, (w, h), x);
            img.get_pixel(p.x as u32, p.y as u32).0
        };
        let name = format!("{:?} × {}", setup.projection, setup.samples);
        let hidden = at(Vec3::new(-1.5, 0.0, 0.4));
        assert!(
            hidden[1] == hidden[0] && hidden[0] > 60,
            "{name}: the cube behind the wall shows: {hidden:?}"
        );
        let right = at(Vec3::new(1.5, 0.0, 0.4));
        assert!(
            right[1] > 60 && right[0] < 20,
            "{name}: the cube right of the wall is {right:?}"
        );
        let front = at(Vec3::new(-1.0, -0.8, 3.7));
        assert!(
            front[1] > 60 && front[0] < 20,
            "{name}: the cube before the wall is {front:?}"
        );
    }
}

#[test]
fn a_flying_mesh_faces_where_it_flies() {
    // a bird 4 m across the wings (its body 2.8 m long), wings still, seen from above:
    // flying along x its silhouette is longer across z (the wings) than along x, and
    // flying along z the other way round
    for (vel, wings_across_z) in [([3.0, 0.0, 0.0], true), ([0.0, 0.0, 3.0], false)] {
        let mut bird = one(MeshSource::Bird, [0.0; 3], 4.0);
        bird.velocity = Velocity::Linear {
            mean: vel,
            variance: [0.0; 3],
        };
        bird.render = Some(RenderMode::Mesh {
            mesh: MeshSource::Bird,
            flight: Some(Flight {
                beat: 0.0,
                angle: 0.0,
            }),
        });
        let (gpu, mut scene) = scene(
            &still(vec![bird]),
            Vec3::new(0.0, 10.0, 0.01),
            Upsample::default(),
        );
        scene.frame(&gpu, 1e-3, true);
        let img = scene.image(&gpu).unwrap();
        let lit: Vec<(u32, u32)> = img
            .enumerate_pixels()
            .filter(|(_, _, p)| p.0[1] > 40)
            .map(|(x, y, _)| (x, y))
            .collect();
        assert!(!lit.is_empty(), "no bird drawn");
        let span = |f: fn(&(u32, u32)) -> u32| {
            lit.iter().map(f).max().unwrap() - lit.iter().map(f).min().unwrap()
        };
        // image x runs along world x, image y along world z
        let (along_x, along_z) = (span(|p| p.0), span(|p| p.1));
        assert_eq!(
            along_z > along_x,
            wings_across_z,
            "flying along {vel:?}: {along_x} px along x, {along_z} px along z"
        );
        let ratio = along_x.max(along_z) as f32 / along_x.min(along_z) as f32;
        assert!((1.25..=1.6).contains(&ratio), "4 m by 2.8 m: {ratio}");
    }
}

/// A crowd of 1,024 standing figures in many colours, to be seen from 80 m off: each a
/// few pixels tall.
fn far_crowd() -> EffectDesc {
    let figures = EmitterDesc {
        shape: Shape::Box {
            min: [-10.0, 0.0, -10.0],
            max: [10.0, 0.001, 10.0],
        },
        bursts: vec![Burst::once(0.0, 1024)],
        lifetime: Range::constant(100.0),
        size: Range::constant(1.0),
        color: ColorRange::new([0.5, 0.5, 0.5, 1.0], [0.4, 0.4, 0.4, 0.0]),
        render: Some(RenderMode::Mesh {
            mesh: MeshSource::Figure,
            flight: None,
        }),
        ..Default::default()
    };
    still(vec![figures])
}

/// Block means of an image's linear light, `k` pixels a side.
fn block_means(img: &image::RgbaImage, k: u32) -> Vec<[f32; 3]> {
    let mut out = Vec::new();
    for by in 0..img.height() / k {
        for bx in 0..img.width() / k {
            let mut sum = [0.0f32; 3];
            for y in by * k..(by + 1) * k {
                for x in bx * k..(bx + 1) * k {
                    let p = img.get_pixel(x, y).0;
                    for c in 0..3 {
                        sum[c] += linear(p[c]);
                    }
                }
            }
            out.push(sum.map(|s| s / (k * k) as f32));
        }
    }
    out
}

/// Under a level of detail, figures spanning a few pixels are drawn as lit discs (none
/// as meshes), and from afar the picture is the meshes' own: seen from 20° and 45° above,
/// blocks of 32 pixels (an eighth of the picture) within 0.035 of linear light and the
/// crowd's light within 5 % (lit over a sphere's normals rather than a standing
/// cylinder's, a block of 16 was 0.059 off from 20°).
#[test]
fn far_mesh_particles_are_drawn_as_lit_discs_alike_from_afar() {
    let gpu = common::gpu();
    // (every rate kept: only the meshes' detail)
    let lod = flurry::Lod {
        near: 0.0,
        far: 0.0,
        far_rates: 1.0,
        mesh_pixels: 6.0,
    };
    // seen from 20° and from 45° above
    for eye in [Vec3::new(0.0, 30.0, 80.0), Vec3::new(0.0, 60.0, 60.0)] {
        let camera = move |aspect| Camera::look_at(eye, Vec3::ZERO, aspect);
        let full = Settings {
            scale: Scale::Full,
            ..common::settings()
        };
        let scene = || {
            let s = Scene::new(&gpu, &far_crowd(), 1024, 3, SIZE, camera).unwrap();
            s.with_settings(full)
        };
        let (mut meshes, mut discs) = (scene(), scene());
        discs.renderer.set_lod(discs.effect, Some(lod)).unwrap();
        assert_eq!(discs.renderer.lod(discs.effect), Some(lod));
        for s in [&mut meshes, &mut discs] {
            s.background = [0.05, 0.05, 0.05, 1.0];
            for _ in 0..2 {
                s.frame(&gpu, 1.0 / 60.0, true);
            }
        }
        let (m, d) = (
            meshes.snapshot(&gpu).unwrap(),
            discs.snapshot(&gpu).unwrap(),
        );
        assert_eq!(m.stats.alive, 1024);
        assert_eq!(
            m.stats.visible, 0,
            "{eye}: all drawn as meshes: {:?}",
            m.stats
        );
        assert_eq!(
            d.stats.visible, 1024,
            "{eye}: all drawn as discs: {:?}",
            d.stats
        );
        let (a, b) = (meshes.image(&gpu).unwrap(), discs.image(&gpu).unwrap());
        let (a, b) = (block_means(&a, 32), block_means(&b, 32));
        let mut most: f32 = 0.0;
        let (mut lit_a, mut lit_b) = (0.0, 0.0);
        for (x, y) in a.iter().zip(&b) {
            for c in 0..3 {
                most = most.max((x[c] - y[c]).abs());
                lit_a += x[c];
                lit_b += y[c];
            }
        }
        assert!(most < 0.035, "{eye}: a block {most} apart in linear light");
        let apart = (lit_b - lit_a).abs();
        assert!(
            apart <= 0.06 * lit_a,
            "{eye}: light {lit_b} against {lit_a}"
        );
    }
}
