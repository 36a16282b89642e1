//! Effects with stacks on the GPU: their generated emit and simulate against the CPU twin,
//! pipelines shared by equal stacks, parameters the host sets.

use glam::Vec3;

use super::pool::compare_with_twin;
use super::{gpu, Hosted};
use crate::effect::*;
use crate::expr::{Curve, Gradient, Interpolation, Key, Value};
use crate::Camera;

fn lines(v: &[&str]) -> Vec<crate::expr::Statement> {
    v.iter().map(|l| l.parse().unwrap()).collect()
}

/// Two emitters, one with every stack (a swirl round y that a parameter drives, a size
/// curve, a colour gradient over life, kills outside a ball, the effect's own attributes
/// of every type read and written, how it is drawn), one without.
fn swirl() -> EffectDesc {
    let stacked = EmitterDesc {
        shape: Shape::Sphere {
            center: [0.0, 1.0, 0.0],
            radius: 0.5,
            surface: false,
        },
        rate: 20_000.0,
        velocity: Velocity::Radial {
            speed: Range::new(1.0, 0.5),
        },
        lifetime: Range::new(1.5, 0.5),
        init: lines(&[
            "size = 0.05 + 0.1 * curve(fade, particle_rand(3))",
            "velocity += vec3(0.0, heat, 0.0)",
            "color = gradient(flame, rand())",
            "spin = 2.0 * particle_rand(4) - 1.0",
            "home = position",
            "warmth = 0.5 + particle_rand(5)",
        ]),
        update: lines(&[
            "force += cross(vec3(0.0, 1.0, 0.0), position) * swirl",
            "force -= position * 0.5",
            "size *= 0.995",
            "color = gradient(flame, age / lifetime)",
            "kill if length(position) > 3.0",
            "warmth -= dt * 0.5",
            "force += (home - position) * 0.2 * warmth",
            "steps += 1u",
            "lit = warmth > 0.8",
            "drift = vec2(position.x, position.z) - vec2(home.x, home.z)",
            "turns = -i32(steps)",
            "force += pull(origin, 0.05) + pull(eye, 0.01) + pull(emitter_origin, 0.01) + view_dir * 0.2",
            "force += pull(effect_point(vec3(0.0, 1.0, 0.0)), 0.02) + instance_vector(velocity) * 0.01",
            "force += pull(instance_point(home), 0.01) + emitter_vector(vec3(0.1)) - effect_vector(home) * 0.01",
        ]),
        // how it is drawn: never fed back (the update's `size *= 0.995` reads its own size)
        draw: lines(&[
            "size *= 1.5",
            "alpha = 1.0 - age / lifetime",
            "rotation = rotation + 1.0",
        ]),
        ..Default::default()
    };
    let plain = EmitterDesc {
        shape: Shape::Point([0.0, 0.5, 0.0]),
        rate: 5_000.0,
        velocity: Velocity::Linear {
            mean: [0.0, 1.0, 0.0],
            variance: [1.0, 0.5, 1.0],
        },
        ..Default::default()
    };
    let mut desc = EffectDesc {
        name: "swirl".into(),
        emitters: vec![stacked, plain],
        forces: Forces {
            gravity: [0.0, -2.0, 0.0],
            drag: 0.3,
            ..Default::default()
        },
        ..Default::default()
    };
    desc.parameters
        .insert("heat".into(), Parameter::new(1.5).range(0.0, 4.0));
    desc.nodes
        .insert("swirl".into(), "heat * 2.0".parse().unwrap());
    desc.functions.insert(
        "pull".into(),
        Function {
            parameters: vec!["to: vec3".into(), "k: f32".into()],
            body: "(to - position) * k".parse().unwrap(),
        },
    );
    for (name, initial) in [
        ("warmth", Value::F32(1.0)),
        ("home", Value::Vec3(Vec3::new(0.0, -1.0, 0.0))),
        ("steps", Value::U32(0)),
        ("lit", Value::Bool(true)),
        ("drift", Value::Vec2(glam::Vec2::ZERO)),
        ("turns", Value::I32(-7)),
    ] {
        desc.attributes.insert(name.into(), initial);
    }
    desc.curves.insert(
        "fade".into(),
        Curve {
            keys: vec![Key(0.0, 0.0), Key(0.5, 1.0), Key(1.0, 0.2)],
            interpolation: Interpolation::Smooth,
        },
    );
    desc.gradients.insert(
        "flame".into(),
        Gradient {
            keys: vec![
                Key(0.0, [1.0, 1.0, 0.9, 1.0]),
                Key(0.3, [1.0, 0.8, 0.2, 1.0]),
                Key(0.7, [0.9, 0.3, 0.1, 0.8]),
                Key(1.0, [0.3, 0.3, 0.3, 0.0]),
            ],
            interpolation: Interpolation::Linear,
        },
    );
    desc
}

#[test]
fn stacks_on_the_gpu_match_the_cpu_twin() {
    let snap = compare_with_twin(&swirl(), 32_768, 11, 60, 0.016);
    // the stacks did what they say (the twin and the GPU agree on it)
    let alive: Vec<_> = snap
        .alive
        .iter()
        .map(|&i| snap.particles[i as usize])
        .collect();
    let (stacked, plain): (Vec<crate::Particle>, Vec<crate::Particle>) =
        alive.iter().partition(|p| p.emitter == 0);
    assert!(stacked.len() > 1000 && plain.len() > 1000);
    assert!(plain
        .iter()
        .all(|p| p.size == 0.1 && p.color == u32::MAX && p.spin == 0.0));
    // drawn half as big again as they are, which their update never sees (it would grow
    // them by half every step)
    assert!(stacked
        .iter()
        .all(|p| p.size < 0.15 * 1.5 && p.pos.length() <= 3.0 + 0.1));
    let sizes: std::collections::BTreeSet<u32> = stacked.iter().map(|p| p.size.to_bits()).collect();
    assert!(sizes.len() > stacked.len() / 2, "sizes drawn per particle");
    let white = stacked.iter().filter(|p| p.color == u32::MAX).count();
    assert_eq!(white, 0, "every colour from the gradient");
    // the effect's own attributes: born with their initial values where no stack writes
    // them, stepped where one does
    let value = |name: &str, slot: u32| snap.attribute(name).unwrap()[slot as usize];
    for &i in &snap.alive {
        let p = snap.particles[i as usize];
        let (warmth, steps, lit) = (value("warmth", i), value("steps", i), value("lit", i));
        if p.emitter == 1 {
            assert_eq!(warmth, Value::F32(1.0));
            assert_eq!(value("home", i), Value::Vec3(Vec3::new(0.0, -1.0, 0.0)));
            assert_eq!((steps, lit), (Value::U32(0), Value::Bool(true)));
            assert_eq!(value("turns", i), Value::I32(-7));
        } else {
            let (Value::F32(w), Value::U32(n)) = (warmth, steps) else {
                panic!("types kept: {warmth:?} {steps:?}");
            };
            assert!(n >= 1 && w < 1.5, "slot {i}: {n} steps, warmth {w}");
            assert_eq!(lit, Value::Bool(w > 0.8), "slot {i}");
        }
    }
    assert!(
        snap.attribute("heat").is_none(),
        "a parameter is no attribute"
    );
}

fn camera() -> Camera {
    Camera::look_at(Vec3::new(0.0, 2.0, 10.0), Vec3::ZERO, 1.0)
}

#[test]
fn equal_stacks_share_pipelines_and_setting_a_parameter_builds_none() {
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let builds = |h: &Hosted| h.renderer.pipelines().graph_builds();
    let a = host
        .renderer
        .add_effect(device, queue, &swirl(), 4096, 1)
        .unwrap();
    assert_eq!(builds(&host), 2, "its emit and its simulate");
    // the same stacks again, and with another default: the code is the same
    host.renderer
        .add_effect(device, queue, &swirl(), 4096, 2)
        .unwrap();
    let mut hotter = swirl();
    hotter.parameters.get_mut("heat").unwrap().default = Value::F32(3.0);
    host.renderer
        .add_effect(device, queue, &hotter, 4096, 3)
        .unwrap();
    assert_eq!(builds(&host), 2, "equal stacks share their pipelines");
    for f in 0..20 {
        let heat = Value::F32(0.1 * f as f32);
        host.renderer.set_parameter(a, "heat", heat).unwrap();
        host.frame(&gpu, 0.016, camera());
    }
    assert_eq!(
        builds(&host),
        2,
        "setting a parameter every frame builds nothing"
    );
    assert_eq!(host.renderer.parameter(a, "heat"), Some(Value::F32(1.9)));
    // what a call costs on the CPU (this build: unoptimised)
    let calls = 100_000;
    let start = std::time::Instant::now();
    for k in 0..calls {
        let heat = Value::F32((k % 40) as f32 * 0.1);
        host.renderer.set_parameter(a, "heat", heat).unwrap();
    }
    let each = start.elapsed().as_secs_f64() / calls as f64;
    assert!(
        each < 5e-6,
        "set_parameter took {:.2} µs a call",
        each * 1e6
    );
    // refusals name the parameter and what it takes
    let e = host
        .renderer
        .set_parameter(a, "heat", Value::F32(9.0))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "parameter heat = 9.0: allowed a value of type f32 in 0..=4"
    );
    let e = host
        .renderer
        .set_parameter(a, "heta", Value::F32(1.0))
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "parameter = heta: allowed one of the effect's parameters: heat"
    );
    let e = host
        .renderer
        .set_parameter(a, "heat", Value::I32(1))
        .unwrap_err();
    assert!(e.to_string().contains("allowed a value of type f32"), "{e}");
}

/// Particles at rest without gravity, lifted by `force += vec3(0, lift, 0)`: nothing moves
/// while the host holds `lift` at 0; set to 10, each step adds 10·dt to the velocity.
#[test]
fn a_parameter_the_host_sets_drives_the_particles() {
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut desc = EffectDesc {
        name: "lift".into(),
        emitters: vec![EmitterDesc {
            bursts: vec![Burst {
                time: 0.0,
                count: 256,
                every: None,
                cycles: None,
            }],
            lifetime: Range::constant(100.0),
            update: lines(&["force += vec3(0.0, lift, 0.0)"]),
            ..Default::default()
        }],
        forces: Forces {
            gravity: [0.0; 3],
            ..Default::default()
        },
        ..Default::default()
    };
    desc.parameters
        .insert("lift".into(), Parameter::new(0.0).range(-100.0, 100.0));
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 1024, 5)
        .unwrap();
    let dt = 0.0625;
    for _ in 0..3 {
        host.frame(&gpu, dt, camera());
    }
    let speeds = |host: &Hosted| {
        let snap = host.renderer.snapshot(device, queue, id).unwrap();
        let alive: Vec<f32> = snap
            .alive
            .iter()
            .map(|&i| snap.particles[i as usize].vel.y)
            .collect();
        assert_eq!(alive.len(), 256);
        alive
    };
    assert!(speeds(&host).iter().all(|&v| v == 0.0), "held at rest");
    host.renderer
        .set_parameter(id, "lift", Value::F32(10.0))
        .unwrap();
    for _ in 0..2 {
        host.frame(&gpu, dt, camera());
    }
    for v in speeds(&host) {
        assert!((v - 2.0 * 10.0 * dt).abs() < 1e-5, "vy {v}");
    }
}

/// What a stack reads of the camera and of the effect's place (`eye`, `view_dir`,
/// `effect_point`) follows them the frame they move, and stays put while they do not:
/// parameters staged only when something changed still change when it does.
#[test]
fn a_stack_reads_the_camera_and_the_effect_where_they_are_each_frame() {
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let desc = EffectDesc {
        name: "watcher".into(),
        emitters: vec![EmitterDesc {
            bursts: vec![Burst {
                time: 0.0,
                count: 64,
                every: None,
                cycles: None,
            }],
            lifetime: Range::constant(100.0),
            // (the velocity carries what the step read; the particles kept at the origin)
            update: lines(&[
                "position = vec3(0.0)",
                "velocity = eye + view_dir",
                "size = effect_point(vec3(0.0)).x",
            ]),
            ..Default::default()
        }],
        forces: Forces {
            gravity: [0.0; 3],
            ..Default::default()
        },
        ..Default::default()
    };
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 256, 5)
        .unwrap();
    let at = |eye: Vec3| Camera::look_at(eye, eye + Vec3::new(0.0, 0.0, -1.0), 1.0);
    let read = |host: &Hosted| {
        let snap = host.renderer.snapshot(device, queue, id).unwrap();
        assert_eq!(snap.alive.len(), 64);
        let p = snap.particles[snap.alive[0] as usize];
        (p.vel, p.size)
    };
    let dt = 1.0 / 60.0;
    let (a, b) = (Vec3::new(1.0, 2.0, 10.0), Vec3::new(-3.0, 0.5, 7.0));
    let forward = Vec3::new(0.0, 0.0, -1.0);
    for frame in 0..4 {
        host.frame(&gpu, dt, at(a));
        if frame > 0 {
            let (vel, size) = read(&host);
            assert!(
                (vel - (a + forward)).length() < 1e-5,
                "frame {frame}: {vel}"
            );
            assert!(size.abs() < 1e-6, "frame {frame}: at the origin, {size}");
        }
    }
    host.frame(&gpu, dt, at(b));
    let (vel, _) = read(&host);
    assert!(
        (vel - (b + forward)).length() < 1e-5,
        "the camera moved: {vel}"
    );
    let moved = glam::Mat4::from_translation(Vec3::new(4.0, 0.0, 0.0));
    host.renderer.set_transform(id, moved).unwrap();
    host.frame(&gpu, dt, at(b));
    let (vel, size) = read(&host);
    assert!((size - 4.0).abs() < 1e-5, "the effect moved: {size}");
    assert!(
        (vel - (b + forward)).length() < 1e-5,
        "the camera held: {vel}"
    );
}

/// A fountain whose gravity and drag towards a breeze (swirled by `turbulence`, if given)
/// are the built-in fields, and the same fountain with them written as force functions in
/// its update stack.
fn fountains(turbulence: Option<Turbulence>) -> (EffectDesc, EffectDesc) {
    let built_in = EffectDesc {
        name: "fountain".into(),
        emitters: vec![EmitterDesc {
            rate: 8_000.0,
            velocity: Velocity::Linear {
                mean: [0.0, 5.0, 0.0],
                variance: [1.0, 1.0, 1.0],
            },
            lifetime: Range::new(1.5, 0.3),
            ..Default::default()
        }],
        forces: Forces {
            gravity: [0.0, -9.81, 0.0],
            wind: [1.5, 0.0, 0.5],
            drag: 0.4,
            turbulence,
        },
        ..Default::default()
    };
    let mut modules = EffectDesc {
        forces: Forces {
            gravity: [0.0; 3],
            wind: [0.0; 3],
            drag: 0.0,
            turbulence: None,
        },
        ..built_in.clone()
    };
    let function = |parameters: &[&str], body: &str| Function {
        parameters: parameters.iter().map(|p| p.to_string()).collect(),
        body: body.parse().unwrap(),
    };
    modules
        .functions
        .insert("gravity".into(), function(&["g: vec3"], "g"));
    modules.functions.insert(
        "drag".into(),
        function(&["k: f32", "wind: vec3"], "(wind - velocity) * k"),
    );
    modules.functions.insert(
        "eddies".into(),
        function(
            &["k: f32", "wind: vec3", "speed: f32", "scale: f32"],
            "(wind + speed * turbulence(position / scale, time * speed / scale) - velocity) * k",
        ),
    );
    let drag = match turbulence {
        None => "force += drag(0.4, vec3(1.5, 0.0, 0.5))".to_string(),
        Some(t) => format!(
            "force += eddies(0.4, vec3(1.5, 0.0, 0.5), {:?}, {:?})",
            t.speed, t.scale
        ),
    };
    modules.emitters[0].update = lines(&["force += gravity(vec3(0.0, -9.81, 0.0))", &drag]);
    (built_in, modules)
}

/// Looks over life written as `effects/modules/looks.ron`'s functions in a draw stack fold
/// into the emitter's own `over_life`: no stack, the same effect constants.
#[test]
fn looks_over_life_written_as_functions_fold_into_the_built_in_look() {
    let (mut built_in, _) = fountains(None);
    built_in.over_life = OverLife {
        color_end: [1.0, 0.5, 1.0, 0.0],
        size_end: 1.5,
    };
    let looks = include_str!("../../effects/modules/looks.ron");
    let mut modules = built_in.clone();
    modules.over_life = OverLife::default();
    modules.imports = vec!["looks.ron".into()];
    modules.emitters[0].draw = lines(&[
        "color *= fade(vec4(1.0, 0.5, 1.0, 0.0))",
        "size *= grow(1.5)",
    ]);
    modules.resolve_imports(|_| Ok(looks.to_string())).unwrap();
    let graph = crate::effect::graph::Graph::compile(&modules).unwrap();
    assert!(graph.draw.iter().all(Option::is_none) && graph.kept.is_empty());
    let mut folded = modules.effect_params(1, 4096);
    graph.fold_into(&mut folded);
    let own = built_in.effect_params(1, 4096);
    assert_eq!(folded.looks[0].color_end, own.looks[0].color_end);
    assert_eq!(folded.looks[0].size_end, own.looks[0].size_end);
    // not folded where the emitter has a look of its own already, or the stack does more
    let mut twice = modules.clone();
    twice.over_life.size_end = 2.0;
    let graph = crate::effect::graph::Graph::compile(&twice).unwrap();
    assert!(graph.draw[0].is_some());
    let mut more = modules.clone();
    more.emitters[0]
        .draw
        .push("rotation = 1.0".parse().unwrap());
    let graph = crate::effect::graph::Graph::compile(&more).unwrap();
    assert!(graph.draw[0].is_some());
    // on the GPU: nothing generated
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    host.renderer
        .add_effect(&gpu.device, &gpu.queue, &modules, 4096, 5)
        .unwrap();
    assert_eq!(host.renderer.pipelines().graph_builds(), 0);
}

#[test]
fn forces_written_as_functions_compile_to_the_built_in_step() {
    forces_fold(None);
}

#[test]
fn turbulence_written_as_a_function_compiles_to_the_built_in_step() {
    let eddies = Turbulence {
        speed: 0.8,
        scale: 1.5,
    };
    forces_fold(Some(eddies));
    // felt through less than the whole drag, it is a force of its own: generated
    let (_, mut weaker) = fountains(Some(eddies));
    weaker.forces.drag = 0.3;
    let graph = crate::effect::graph::Graph::compile(&weaker).unwrap();
    assert!(graph.update[0].as_ref().unwrap().force.is_some());
}

/// The fountain written with force functions (eddies too, with `turbulence`) against the
/// one written with the fields: folded, the same constants, nothing generated on the GPU,
/// the same particles.
fn forces_fold(turbulence: Option<Turbulence>) {
    let (built_in, modules) = fountains(turbulence);
    // folded into the effect's gravity, drag and wind: no stack is left to generate
    let graph = crate::effect::graph::Graph::compile(&modules).unwrap();
    assert!(graph.update.iter().all(Option::is_none));
    let mut folded = modules.effect_params(1, 4096);
    graph.fold_into(&mut folded);
    let own = built_in.effect_params(1, 4096);
    // the same acceleration g + d·(w − v) at any velocity, and the same drag (which the
    // step integrates exactly) and turbulence
    assert_eq!(folded.drag, own.drag);
    assert_eq!(
        (folded.turbulence, folded.turbulence_scale),
        (own.turbulence, own.turbulence_scale)
    );
    let accel = |e: &crate::types::EffectParams, v: Vec3| e.gravity + e.drag * (e.wind - v);
    for v in [
        Vec3::ZERO,
        Vec3::new(3.0, -7.0, 2.0),
        Vec3::new(-20.0, 40.0, 1.0),
    ] {
        let (x, y) = (accel(&folded, v), accel(&own, v));
        assert!(x.abs_diff_eq(y, 1e-5), "at {v}: {x} vs {y}");
    }
    // a force that is no gravity or drag is kept (and so is one where the stack moves the
    // particle itself)
    let mut kept = modules.clone();
    kept.emitters[0]
        .update
        .push("force += position * 0.1".parse().unwrap());
    let graph = crate::effect::graph::Graph::compile(&kept).unwrap();
    assert!(graph.update[0].as_ref().unwrap().force.is_some());
    let mut moved = modules.clone();
    moved.emitters[0]
        .update
        .push("velocity *= 0.99".parse().unwrap());
    let graph = crate::effect::graph::Graph::compile(&moved).unwrap();
    assert!(graph.update[0].as_ref().unwrap().force.is_some());

    // on the GPU: the built-in passes, nothing generated, the same particles
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let a = host
        .renderer
        .add_effect(device, queue, &built_in, 16_384, 5)
        .unwrap();
    let b = host
        .renderer
        .add_effect(device, queue, &modules, 16_384, 5)
        .unwrap();
    assert_eq!(
        host.renderer.pipelines().graph_builds(),
        0,
        "no code generated"
    );
    for _ in 0..40 {
        host.frame(&gpu, 0.016, camera());
    }
    let snap = |id| host.renderer.snapshot(device, queue, id).unwrap();
    let (sa, sb) = (snap(a), snap(b));
    assert!(sa.alive.len() > 1000);
    let by_id = |s: &crate::PoolSnapshot| -> std::collections::BTreeMap<u32, crate::Particle> {
        s.alive
            .iter()
            .map(|&i| (s.particles[i as usize].id, s.particles[i as usize]))
            .collect()
    };
    let (pa, pb) = (by_id(&sa), by_id(&sb));
    assert_eq!(pa.keys().collect::<Vec<_>>(), pb.keys().collect::<Vec<_>>());
    for (id, p) in &pa {
        let q = &pb[id];
        assert!(
            p.pos.abs_diff_eq(q.pos, 1e-4) && p.vel.abs_diff_eq(q.vel, 1e-4),
            "id {id}: {:?} {:?} vs {:?} {:?}",
            p.pos,
            p.vel,
            q.pos,
            q.vel
        );
    }
}

/// An emitter whose rate and bursts the spawn stage sets from a parameter: what reaches the
/// GPU follows the host's value frame by frame, and the twin spawns the same.
#[test]
fn the_spawn_stage_follows_a_parameter_the_host_sets() {
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut desc = EffectDesc {
        name: "dial".into(),
        emitters: vec![EmitterDesc {
            rate: 1024.0,
            bursts: vec![Burst {
                time: 0.0,
                count: 50,
                every: None,
                cycles: None,
            }],
            lifetime: Range::new(10.0, 0.0),
            spawn: lines(&["rate *= level", "burst = 2.0 * level"]),
            ..Default::default()
        }],
        ..Default::default()
    };
    desc.parameters
        .insert("level".into(), Parameter::new(1.0).range(0.0, 10.0));
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 16_384, 3)
        .unwrap();
    let emitted = |h: &Hosted| {
        h.renderer
            .snapshot(device, queue, id)
            .unwrap()
            .stats
            .emitted_total
    };
    let dt = 1.0 / 64.0;
    host.frame(&gpu, dt, camera());
    // the burst of 50 twice over, and 1024 a second for a 64th of one
    assert_eq!(emitted(&host), 100 + 16);
    host.renderer
        .set_parameter(id, "level", Value::F32(3.0))
        .unwrap();
    for _ in 0..10 {
        host.frame(&gpu, dt, camera());
    }
    assert_eq!(
        emitted(&host),
        116 + 10 * 48,
        "3072 a second for ten 64ths of one"
    );
    // the CPU twin, told the same, spawns the same
    let mut twin = crate::cpu::CpuTwin::new(&desc, 16_384, 3);
    twin.frame(dt);
    twin.parameters[0] = Value::F32(3.0).to_words();
    for _ in 0..10 {
        twin.frame(dt);
    }
    assert_eq!(twin.emitted, 596);
}

/// An effect whose particles live 10 s without forces, record what its `init` and `update`
/// lines say in its vec3 attributes `attributes` (born -99 each) and spawn 3,000 a second.
fn probe(name: &str, (init, update): (&[&str], &[&str]), attributes: &[&str]) -> EffectDesc {
    let mut desc = EffectDesc {
        name: name.into(),
        emitters: vec![EmitterDesc {
            rate: 3000.0,
            lifetime: Range::new(10.0, 0.0),
            init: lines(init),
            update: lines(update),
            ..Default::default()
        }],
        forces: Forces::NONE,
        ..Default::default()
    };
    for name in attributes {
        desc.attributes
            .insert(name.to_string(), Value::Vec3(Vec3::splat(-99.0)));
    }
    desc
}

/// An effect placed at three instances: each particle reads where its own instance has the
/// effect's origin, at birth and every step.
#[test]
fn instance_origin_is_where_the_particles_own_instance_is() {
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let desc = probe(
        "placed",
        (&["born = instance_origin"], &["now = instance_origin"]),
        &["born", "now"],
    );
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 4096, 1)
        .unwrap();
    let shift = Vec3::new(0.0, 1.0, 0.0);
    host.renderer
        .set_transform(id, glam::Mat4::from_translation(shift))
        .unwrap();
    let places = [
        Vec3::new(-4.0, 0.0, 0.0),
        Vec3::new(0.0, 0.0, 5.0),
        Vec3::new(3.0, 2.0, 1.0),
    ];
    let instances: Vec<crate::Instance> = places
        .iter()
        .map(|&at| crate::Instance::new(glam::Mat4::from_translation(at), 0.0))
        .collect();
    host.renderer.set_instances(device, id, &instances).unwrap();
    for _ in 0..10 {
        host.frame(&gpu, 0.016, camera());
    }
    let snap = host.renderer.snapshot(device, queue, id).unwrap();
    assert!(snap.alive.len() > 300);
    let mut seen = [0; 3];
    for &i in &snap.alive {
        let p = snap.particles[i as usize];
        let k = (p.flags >> crate::instances::FLAG_INSTANCE_SHIFT) as usize;
        let want = Value::Vec3(places[k] + shift);
        assert_eq!(
            snap.attribute("born").unwrap()[i as usize],
            want,
            "slot {i}"
        );
        assert_eq!(snap.attribute("now").unwrap()[i as usize], want, "slot {i}");
        seen[k] += 1;
    }
    assert!(
        seen.iter().all(|&n| n > 50),
        "every instance spawns: {seen:?}"
    );
}

/// An effect turned, scaled and moved, its emitter placed within it, at two instances
/// turned their own ways: points and directions carried out of each space land where the
/// transforms put them.
#[test]
fn points_and_directions_leave_their_spaces_through_the_transforms() {
    use glam::{Mat4, Quat};
    let gpu = gpu();
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let lines_of = [
        ("effect_at", "effect_point(vec3(1.0, 2.0, 3.0))"),
        ("effect_dir", "effect_vector(vec3(0.0, 0.0, 1.0))"),
        ("emitter_at", "emitter_point(vec3(1.0, 0.0, 0.0))"),
        ("instance_at", "instance_point(vec3(1.0, 2.0, 3.0))"),
        ("instance_dir", "instance_vector(vec3(1.0, 0.0, 0.0))"),
    ];
    let init: Vec<String> = lines_of.iter().map(|(n, e)| format!("{n} = {e}")).collect();
    let init: Vec<&str> = init.iter().map(String::as_str).collect();
    let names: Vec<&str> = lines_of.iter().map(|(n, _)| *n).collect();
    // (16 components of the effect's own at most: the sixth vector is the velocity, set
    // where it is the world's: at birth it is the emitter's own)
    let update = ["velocity = emitter_vector(vec3(0.0, 1.0, 0.0))"];
    let desc = probe("spaces", (&init, &update), &names);
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 4096, 1)
        .unwrap();
    let effect = Mat4::from_scale_rotation_translation(
        Vec3::splat(2.0),
        Quat::from_rotation_y(0.7),
        Vec3::new(0.0, 1.0, -2.0),
    );
    let emitter = Mat4::from_rotation_translation(Quat::from_rotation_x(0.4), Vec3::X * 3.0);
    let places = [
        Mat4::from_rotation_translation(Quat::from_rotation_z(0.5), Vec3::new(-4.0, 0.0, 0.0)),
        Mat4::from_scale_rotation_translation(
            Vec3::new(1.0, 0.5, 1.0),
            Quat::from_rotation_y(-1.2),
            Vec3::new(0.0, 0.0, 5.0),
        ),
    ];
    host.renderer.set_transform(id, effect).unwrap();
    host.renderer.set_emitter_transform(id, 0, emitter).unwrap();
    let instances: Vec<crate::Instance> = places
        .iter()
        .map(|&at| crate::Instance::new(at, 0.0))
        .collect();
    host.renderer.set_instances(device, id, &instances).unwrap();
    for _ in 0..6 {
        host.frame(&gpu, 0.016, camera());
    }
    let snap = host.renderer.snapshot(device, queue, id).unwrap();
    assert!(snap.alive.len() > 100);
    let p = Vec3::new(1.0, 2.0, 3.0);
    let near = |got: Value, want: Vec3, what: &str| {
        let Value::Vec3(got) = got else {
            panic!("{what}: {got:?}");
        };
        assert!(
            (got - want).length() <= 1e-5 * want.length().max(1.0),
            "{what}: {got} against {want}"
        );
    };
    let mut seen = [0; 2];
    for &i in &snap.alive {
        let particle = snap.particles[i as usize];
        let k = (particle.flags >> crate::instances::FLAG_INSTANCE_SHIFT) as usize;
        let read = |name: &str| snap.attribute(name).unwrap()[i as usize];
        let placed = places[k] * effect;
        near(
            read("effect_at"),
            effect.transform_point3(p),
            "effect_point",
        );
        near(
            read("effect_dir"),
            effect.transform_vector3(Vec3::Z),
            "effect_vector",
        );
        near(
            read("emitter_at"),
            (effect * emitter).transform_point3(Vec3::X),
            "emitter_point",
        );
        let up = (effect * emitter).transform_vector3(Vec3::Y);
        near(Value::Vec3(particle.vel), up, "emitter_vector");
        near(
            read("instance_at"),
            placed.transform_point3(p),
            "instance_point",
        );
        near(
            read("instance_dir"),
            placed.transform_vector3(Vec3::X),
            "instance_vector",
        );
        seen[k] += 1;
    }
    assert!(
        seen.iter().all(|&n| n > 30),
        "both instances spawn: {seen:?}"
    );
}

/// Each module/built-in pair of `benches/effects/` (the pairs docs/measurements.md profiles)
/// compiles to the same work: the effect written with modules generates no code and folds
/// into the built-in one's constants (its gravity and wind up to how they add up).
#[test]
fn the_bench_effects_written_with_modules_fold_into_their_built_in_twins() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/effects");
    let mut pairs = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let Some(base) = name.strip_suffix("-modules.ron") else {
            continue;
        };
        let modules = EffectDesc::from_file(&path).unwrap();
        let built_in = EffectDesc::from_file(&dir.join(format!("{base}.ron"))).unwrap();
        let graph = crate::effect::graph::Graph::compile(&modules).unwrap();
        for stage in [
            crate::effect::graph::Stage::Init,
            crate::effect::graph::Stage::Update,
            crate::effect::graph::Stage::Draw,
        ] {
            assert!(!graph.generates(stage), "{name}: {stage:?} generates code");
        }
        let mut folded = modules.effect_params(1, 65_536);
        graph.fold_into(&mut folded);
        let own = built_in.effect_params(1, 65_536);
        // g + d·w, the acceleration at rest, the same; everything else equal
        let rest = |e: &crate::types::EffectParams| e.gravity + e.drag * e.wind;
        assert!(
            rest(&folded).abs_diff_eq(rest(&own), 1e-5),
            "{name}: {} vs {}",
            rest(&folded),
            rest(&own)
        );
        let same = crate::types::EffectParams {
            gravity: own.gravity,
            wind: own.wind,
            ..folded
        };
        assert_eq!(
            crate::types::uniform_bytes(&same),
            crate::types::uniform_bytes(&own),
            "{name}: {same:?} vs {own:?}"
        );
        pairs += 1;
    }
    assert_eq!(pairs, 2, "the fountain and the snow");
}

/// A parameter the host sets just before a frame it records and then drops reaches the GPU
/// all the same: the frames after spawn with it (its parameters are kept through the queue
/// by the frame after they changed).
#[test]
fn a_parameter_set_before_a_dropped_frame_reaches_the_gpu() {
    let gpu = gpu();
    let mut desc = EffectDesc {
        forces: Forces::NONE,
        emitters: vec![EmitterDesc {
            rate: 100.0,
            lifetime: Range::constant(100.0),
            init: lines(&["velocity = vec3(speed, 0.0, 0.0)"]),
            ..Default::default()
        }],
        ..Default::default()
    };
    let speed = Parameter {
        default: Value::F32(1.0),
        min: None,
        max: None,
    };
    desc.parameters.insert("speed".into(), speed);
    let mut host = Hosted::new(&gpu);
    let (device, queue) = (&gpu.device, &gpu.queue);
    let id = host
        .renderer
        .add_effect(device, queue, &desc, 1024, 1)
        .unwrap();
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 8.0), Vec3::ZERO, 1.0);
    for _ in 0..3 {
        host.frame(&gpu, 0.1, camera);
    }
    // set, the host dropping `dropped` frames after, then 3 frames: each particle's speed
    // along x, in the order they were born
    let mut set_and_drop = |speed: f32, dropped: usize| {
        let speed = Value::F32(speed);
        host.renderer.set_parameter(id, "speed", speed).unwrap();
        for _ in 0..dropped {
            drop(host.record(&gpu, 0.1, camera));
        }
        for _ in 0..3 {
            host.frame(&gpu, 0.1, camera);
        }
        let snap = host.renderer.snapshot(device, queue, id).unwrap();
        let mut born: Vec<_> = (snap.alive.iter())
            .map(|&i| snap.particles[i as usize])
            .collect();
        born.sort_by_key(|p| p.id);
        born.iter().map(|p| p.vel.x).collect::<Vec<f32>>()
    };
    let speeds = set_and_drop(3.0, 1);
    assert_eq!(
        speeds.len(),
        60,
        "the dropped frame's spawns lost, no others"
    );
    assert_eq!(
        speeds[..30],
        [1.0; 30],
        "spawned before the parameter was set"
    );
    assert_eq!(
        speeds[30..],
        [3.0; 30],
        "spawned after the parameter was set"
    );
    // set again, and the two frames after it dropped (the second keeps what it carried
    // through the queue)
    let speeds = set_and_drop(5.0, 2);
    assert_eq!(speeds.len(), 90);
    assert_eq!(speeds[60..], [5.0; 30], "spawned after it was set again");
}
