//! An effect is compiled once on its way in: `add_effect` checks and compiles its stacks
//! once, a compiled effect is added any number of times without compiling again, warming
//! compiles each effect once, and moving an emitter compiles nothing.

use super::{gpu, Hosted};
use crate::effect::graph::Graph;
use crate::effect::*;
use crate::expr::Value;
use crate::{Camera, Settings};

fn lines(v: &[&str]) -> Vec<crate::expr::Statement> {
    v.iter().map(|l| l.parse().unwrap()).collect()
}

/// An effect with stacks in every stage and a parameter: every part of the compile runs.
fn stacked() -> EffectDesc {
    let mut desc = EffectDesc {
        name: "stacked".into(),
        emitters: vec![EmitterDesc {
            rate: 200.0,
            shape: Shape::Sphere {
                center: [0.0; 3],
                radius: 0.5,
                surface: false,
            },
            lifetime: Range::constant(1.0),
            init: lines(&["velocity = vec3(0.0, lift, 0.0)"]),
            update: lines(&[
                "force += vec3(0.0, 0.1 * sin(time), 0.0)",
                "kill if age > 0.5",
            ]),
            draw: lines(&["size = 0.05 + 0.01 * age"]),
            spawn: lines(&["rate *= 1.5"]),
            ..Default::default()
        }],
        ..Default::default()
    };
    let lift = Parameter {
        default: Value::F32(1.0),
        min: Some(0.0),
        max: Some(4.0),
    };
    desc.parameters.insert("lift".into(), lift);
    desc
}

fn camera() -> Camera {
    Camera::look_at(glam::Vec3::new(0.0, 1.0, 6.0), glam::Vec3::ZERO, 1.0)
}

/// The effects' graphs `work` compiled on this thread.
fn compiles(work: impl FnOnce()) -> u64 {
    let before = Graph::compiles_on_this_thread();
    work();
    Graph::compiles_on_this_thread() - before
}

#[test]
fn adding_an_effect_compiles_it_once() {
    let gpu = gpu();
    let (device, queue) = (&gpu.device, &gpu.queue);
    for background_compile in [false, true] {
        let settings = Settings {
            background_compile,
            ..super::blocking()
        };
        let mut hosted = Hosted::with_settings(&gpu, settings);
        let desc = stacked();
        let n = compiles(|| {
            let r = &mut hosted.renderer;
            r.add_effect(device, queue, &desc, 1024, 1).unwrap();
        });
        assert_eq!(n, 1, "one add, background compile {background_compile}");
        // its frames, its pipelines built on this thread or the worker's, compile no effect
        let n = compiles(|| {
            for _ in 0..3 {
                hosted.frame(&gpu, 1.0 / 60.0, camera());
            }
        });
        assert_eq!(n, 0, "frames, background compile {background_compile}");
    }
}

#[test]
fn a_compiled_effect_is_added_many_times_compiling_nothing_again() {
    let gpu = gpu();
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut hosted = Hosted::new(&gpu);
    let desc = stacked();
    let mut compiled = None;
    let n = compiles(|| compiled = Some(hosted.renderer.compile(&desc).unwrap()));
    assert_eq!(n, 1);
    let compiled = compiled.unwrap();
    let n = compiles(|| {
        for seed in 0..4 {
            let r = &mut hosted.renderer;
            r.add_compiled(device, queue, &compiled, 1024, seed)
                .unwrap();
        }
    });
    assert_eq!(n, 0, "four adds of one compiled effect");
    for _ in 0..20 {
        hosted.frame(&gpu, 1.0 / 60.0, camera());
    }
    // each copy runs as an effect of its own: its own seed, parameters and particles
    let ids: Vec<_> = hosted.renderer.effects().collect();
    assert_eq!(ids.len(), 4);
    hosted
        .renderer
        .set_parameter(ids[0], "lift", Value::F32(3.0))
        .unwrap();
    assert_eq!(
        hosted.renderer.parameter(ids[1], "lift"),
        Some(Value::F32(1.0))
    );
    let a = hosted.renderer.snapshot(device, queue, ids[0]).unwrap();
    let b = hosted.renderer.snapshot(device, queue, ids[1]).unwrap();
    assert!(a.stats.alive > 0 && b.stats.alive > 0);
    let positions = |s: &crate::PoolSnapshot| -> Vec<glam::Vec3> {
        s.alive
            .iter()
            .map(|&i| s.particles[i as usize].pos)
            .collect()
    };
    assert_ne!(positions(&a), positions(&b), "two seeds, two pools");
}

#[test]
fn a_bad_effect_is_refused_by_compile_as_by_add() {
    let gpu = gpu();
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut hosted = Hosted::new(&gpu);
    let mut desc = stacked();
    desc.emitters[0].update = lines(&["kill if nothing > 1.0"]);
    let compiled = hosted.renderer.compile(&desc).unwrap_err().to_string();
    let added = hosted.renderer.add_effect(device, queue, &desc, 64, 1);
    assert_eq!(added.unwrap_err().to_string(), compiled);
    assert!(compiled.contains("nothing"), "{compiled}");
    desc.emitters[0].update.clear();
    desc.emitters[0].lifetime = Range::constant(-1.0);
    let refused = hosted.renderer.compile(&desc).unwrap_err().to_string();
    assert!(refused.contains("emitters[0].lifetime"), "{refused}");
}

#[test]
fn warming_compiles_each_effect_once_and_moving_an_emitter_none() {
    let gpu = gpu();
    let (device, queue) = (&gpu.device, &gpu.queue);
    let mut hosted = Hosted::new(&gpu);
    let desc = stacked();
    let n = compiles(|| {
        hosted.renderer.warm(device, &[&desc]).unwrap();
    });
    assert_eq!(n, 1, "warm");
    let id = hosted
        .renderer
        .add_effect(device, queue, &desc, 256, 1)
        .unwrap();
    let n = compiles(|| {
        let velocity = Velocity::Radial {
            speed: Range::constant(2.0),
        };
        let shape = Shape::Sphere {
            center: [0.0; 3],
            radius: 0.5,
            surface: false,
        };
        let r = &mut hosted.renderer;
        r.set_emitter(id, 0, shape, velocity, 50.0).unwrap();
        hosted.frame(&gpu, 1.0 / 60.0, camera());
    });
    assert_eq!(n, 0, "an emitter moved");
    // a moved emitter is still checked: a rate out of range is refused, naming it
    let shape = Shape::Point([0.0; 3]);
    let velocity = Velocity::default();
    let refused = hosted.renderer.set_emitter(id, 0, shape, velocity, -1.0);
    let refused = refused.unwrap_err().to_string();
    assert!(refused.contains("rate"), "{refused}");
}
