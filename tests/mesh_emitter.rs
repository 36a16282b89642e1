//! Spawning on a mesh's surface: a triangle chosen by its share of the area, a uniform
//! point on it, the surface normal there for the velocity; the meshes are the built-ins and
//! the host's own.

mod common;

use common::host::Scene;
use flurry::effect::*;
use flurry::{Camera, Mesh, MeshId};
use glam::Vec3;

/// Five separate triangles of areas 1, 2, 3, 4 and 10 m², facing five ways.
fn five_triangles() -> (Mesh, Vec<[Vec3; 3]>) {
    let mut triangles = Vec::new();
    let facing = [
        Vec3::Y,
        Vec3::X,
        -Vec3::Z,
        Vec3::new(1.0, 1.0, 0.0).normalize(),
        -Vec3::Y,
    ];
    for (k, (area, n)) in [1.0f32, 2.0, 3.0, 4.0, 10.0]
        .into_iter()
        .zip(facing)
        .enumerate()
    {
        // a right triangle with legs √(2·area) in the plane facing n, 3 m apart
        let (u, v) = n.any_orthonormal_pair();
        let leg = (2.0 * area).sqrt();
        let origin = Vec3::new(3.0 * k as f32, 0.0, 0.0);
        // u × v = n: counter-clockwise seen from the side n faces
        let (u, v) = if u.cross(v).dot(n) > 0.0 {
            (u, v)
        } else {
            (v, u)
        };
        triangles.push([origin, origin + u * leg, origin + v * leg]);
    }
    let positions = triangles.iter().flatten().map(|p| p.to_array()).collect();
    let normals = triangles
        .iter()
        .flat_map(|[a, b, c]| [(*b - *a).cross(*c - *a).normalize().to_array(); 3])
        .collect();
    let mesh = Mesh::new(positions, normals, (0..15).collect()).unwrap();
    (mesh, triangles)
}

/// The effect: `count` particles at t = 0 on `mesh` (placed at `center`, `scale`d), thrown
/// off along the surface normal at 1 m/s, no forces.
fn on_mesh(mesh: MeshSource, center: [f32; 3], scale: f32, count: u32) -> EffectDesc {
    EffectDesc {
        name: "on a mesh".into(),
        emitters: vec![EmitterDesc {
            shape: Shape::Mesh {
                mesh,
                center,
                scale,
            },
            bursts: vec![Burst::once(0.0, count)],
            velocity: Velocity::Normal {
                speed: Range::constant(1.0),
            },
            lifetime: Range::constant(100.0),
            ..Default::default()
        }],
        forces: Forces::NONE,
        ..Default::default()
    }
}

const DT: f32 = 1e-3;

/// Where each particle of `effect` was born and how fast it went, after one frame of DT
/// (explicit Euler without forces: born at pos − vel·DT); `host` meshes are added first.
fn spawned(effect: &EffectDesc, host: Vec<Mesh>, capacity: u32) -> Vec<(Vec3, Vec3)> {
    let gpu = common::gpu();
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 2.0, 20.0), Vec3::ZERO, aspect);
    let nothing = common::still("nothing", vec![EmitterDesc::default()]);
    let mut scene = Scene::new(&gpu, &nothing, 16, 1, (64, 64), camera).unwrap();
    for mesh in host {
        scene.renderer.add_mesh(&gpu.device, mesh).unwrap();
    }
    let r = &mut scene.renderer;
    let id = r
        .add_effect(&gpu.device, &gpu.queue, effect, capacity, 9)
        .unwrap();
    scene.frame(&gpu, DT, false);
    let snap = scene
        .renderer
        .snapshot(&gpu.device, &gpu.queue, id)
        .unwrap();
    snap.alive
        .iter()
        .map(|&i| {
            let p = snap.particles[i as usize];
            (p.pos - p.vel * DT, p.vel)
        })
        .collect()
}

/// How far `x` is from triangle `t` when it lies over the triangle's inside, else None.
fn off_triangle(x: Vec3, [a, b, c]: [Vec3; 3]) -> Option<f32> {
    let n = (b - a).cross(c - a).normalize();
    let d = (x - a).dot(n);
    let q = x - n * d;
    // barycentric coordinates of q
    let (v0, v1, v2) = (b - a, c - a, q - a);
    let (d00, d01, d11) = (v0.dot(v0), v0.dot(v1), v1.dot(v1));
    let (d20, d21) = (v2.dot(v0), v2.dot(v1));
    let den = d00 * d11 - d01 * d01;
    let v = (d11 * d20 - d01 * d21) / den;
    let w = (d00 * d21 - d01 * d20) / den;
    let slack = -1e-5;
    (v >= slack && w >= slack && v + w <= 1.0 - slack).then_some(d.abs())
}

#[test]
fn spawns_land_on_the_triangles_in_proportion_to_their_area() {
    let (mesh, triangles) = five_triangles();
    let (center, scale) = (Vec3::new(1.0, 2.0, -3.0), 2.0);
    let placed: Vec<[Vec3; 3]> = triangles
        .iter()
        .map(|t| t.map(|p| center + p * scale))
        .collect();
    let n = 40_000;
    let effect = on_mesh(MeshSource::Host(MeshId(0)), center.to_array(), scale, n);
    let born = spawned(&effect, vec![mesh], 65_536);
    assert_eq!(born.len(), n as usize);
    let mut counts = [0u32; 5];
    for (k, &(x, vel)) in born.iter().enumerate() {
        let on: Vec<(usize, f32)> = placed
            .iter()
            .enumerate()
            .filter_map(|(t, tri)| off_triangle(x, *tri).map(|d| (t, d)))
            .filter(|&(_, d)| d <= 1e-5 * scale)
            .collect();
        assert_eq!(on.len(), 1, "particle {k} at {x} lies on {on:?}");
        let t = on[0].0;
        counts[t] += 1;
        let [a, b, c] = placed[t];
        let normal = (b - a).cross(c - a).normalize();
        assert!(
            (vel - normal).length() < 1e-5,
            "particle {k} on triangle {t} leaves at {vel}, not along its normal {normal}"
        );
    }
    // chi-square against the areas' shares, 4 degrees of freedom: 13.28 at 1 %
    let areas = [1.0, 2.0, 3.0, 4.0, 10.0];
    let total: f64 = areas.iter().sum();
    let chi2: f64 = counts
        .iter()
        .zip(areas)
        .map(|(&o, a)| {
            let e = n as f64 * a / total;
            (o as f64 - e).powi(2) / e
        })
        .sum();
    assert!(
        chi2 < 13.28,
        "counts {counts:?}: chi-square {chi2:.2} against the areas"
    );
    // and not a uniform choice of triangle: the 10 m² one holds about half
    assert!(counts[4] > 4 * counts[0], "{counts:?}");
}

#[test]
fn a_built_in_cube_throws_particles_off_its_faces() {
    let born = spawned(
        &on_mesh(MeshSource::Cube, [0.0, 1.0, 0.0], 0.5, 4096),
        vec![],
        4096,
    );
    assert_eq!(born.len(), 4096);
    let mut faces = [0u32; 6];
    for (x, vel) in born {
        let local = (x - Vec3::Y) / 0.5;
        // on a face: one coordinate at ±0.5, the others within
        let axis = local.abs().max_position();
        assert!(
            (local.abs()[axis] - 0.5).abs() < 1e-5,
            "{local} is off the cube's surface"
        );
        assert!(
            local.abs().max_element() <= 0.5 + 1e-5,
            "{local} is outside the cube"
        );
        let mut normal = Vec3::ZERO;
        normal[axis] = local[axis].signum();
        assert!(
            (vel - normal).length() < 1e-5,
            "{vel} at {local}: not its face's normal"
        );
        faces[axis * 2 + (local[axis] > 0.0) as usize] += 1;
    }
    // six equal faces: chi-square with 5 degrees of freedom, 15.09 at 1 %
    let e = 4096.0 / 6.0;
    let chi2: f64 = faces.iter().map(|&o| (o as f64 - e).powi(2) / e).sum();
    assert!(chi2 < 15.09, "faces {faces:?}: chi-square {chi2:.2}");
}

#[test]
fn a_mesh_the_renderer_does_not_have_is_refused_by_field() {
    let gpu = common::gpu();
    let camera = |aspect| Camera::look_at(Vec3::new(0.0, 2.0, 20.0), Vec3::ZERO, aspect);
    let nothing = common::still("nothing", vec![EmitterDesc::default()]);
    let mut scene = Scene::new(&gpu, &nothing, 16, 1, (64, 64), camera).unwrap();
    let effect = on_mesh(MeshSource::Host(MeshId(0)), [0.0; 3], 1.0, 10);
    let r = &mut scene.renderer;
    let e = r
        .add_effect(&gpu.device, &gpu.queue, &effect, 64, 1)
        .unwrap_err();
    let text = e.to_string();
    assert!(
        text.contains("emitters[0].shape.Mesh.mesh") && text.contains("no mesh added"),
        "{text}"
    );
    // once added it is there; Host(1) is not
    r.add_mesh(&gpu.device, Mesh::tetrahedron()).unwrap();
    r.add_effect(&gpu.device, &gpu.queue, &effect, 64, 1)
        .unwrap();
    let further = on_mesh(MeshSource::Host(MeshId(1)), [0.0; 3], 1.0, 10);
    let text = r
        .add_effect(&gpu.device, &gpu.queue, &further, 64, 1)
        .unwrap_err()
        .to_string();
    assert!(text.contains("Host(0..1)"), "{text}");
    // nor may an emitter be moved onto it
    let id = scene.effect;
    let shape = further.emitters[0].shape;
    let velocity = further.emitters[0].velocity;
    let text = scene
        .renderer
        .set_emitter(id, 0, shape, velocity, 1.0)
        .unwrap_err()
        .to_string();
    assert!(text.contains("emitters[0].shape.Mesh.mesh"), "{text}");
}

#[test]
fn bad_meshes_and_mesh_emitters_are_refused_by_field() {
    let p = vec![[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0]];
    let n = vec![[0.0, 0.0, 1.0]; 3];
    let err = |r: flurry::Result<Mesh>| r.unwrap_err().to_string();
    let e = err(Mesh::new(p.clone(), n.clone(), vec![]));
    assert!(e.contains("mesh.indices") && e.contains("0 indices"), "{e}");
    let e = err(Mesh::new(p.clone(), n.clone(), vec![0, 1, 3]));
    assert!(
        e.contains("mesh.indices[2] = 3") && e.contains("0..3"),
        "{e}"
    );
    let e = err(Mesh::new(
        p.clone(),
        vec![[f32::NAN, 0.0, 1.0]; 3],
        vec![0, 1, 2],
    ));
    assert!(e.contains("mesh.normals[0]"), "{e}");
    let e = err(Mesh::new(p.clone(), n[..2].to_vec(), vec![0, 1, 2]));
    assert!(e.contains("mesh.normals") && e.contains("3 normals"), "{e}");
    let e = err(Mesh::new(p.clone(), n.clone(), vec![0, 1, 1]));
    assert!(e.contains("zero area"), "{e}");
    let e = err(Mesh::new(vec![[1e7, 0.0, 0.0]; 3], n, vec![0, 1, 2]));
    assert!(e.contains("mesh.positions[0]"), "{e}");

    let mut effect = on_mesh(MeshSource::Cube, [0.0; 3], 0.0, 10);
    effect.emitters.push(EmitterDesc {
        shape: Shape::Box {
            min: [0.0; 3],
            max: [1.0; 3],
        },
        rate: 1.0,
        velocity: Velocity::Normal {
            speed: Range::constant(1.0),
        },
        ..Default::default()
    });
    let problems: Vec<String> = effect.problems().iter().map(|p| p.to_string()).collect();
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("emitters[0].shape.Mesh.scale = 0")),
        "{problems:?}"
    );
    assert!(
        problems
            .iter()
            .any(|p| p.starts_with("emitters[1].velocity = Normal")),
        "{problems:?}"
    );
    // in a file
    let text = "(emitters: [(shape: Mesh(mesh: Leaf, scale: 2.0), rate: 5.0, \
                velocity: Normal(speed: (mean: 1.0)))])";
    let desc = EffectDesc::from_ron(text).unwrap();
    assert!(
        matches!(desc.emitters[0].shape, Shape::Mesh { mesh: MeshSource::Leaf, scale, .. } if scale == 2.0)
    );
}
