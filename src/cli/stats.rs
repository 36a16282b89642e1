//! `flurry stats`: simulate, print counts as JSON, optionally dump the pool.

use serde_json::json;

use flurry::app::Scene;
use flurry::demos::Stage;
use flurry::effect::EffectDesc;
use flurry::error::Error;
use flurry::types::Particle;
use flurry::{Camera, Demo};

use super::args::StatsArgs;
use super::{setup, write_file, Clock};

pub fn run(a: StatsArgs) -> Result<(), Error> {
    let file_desc = a.effect.as_deref().map(EffectDesc::from_file).transpose()?;
    let demo = a.demo.map(|d| a.common.mode.apply(d)).transpose()?;
    let default_particles = demo.map_or(16_384, Demo::default_particles);
    let (gpu, capacity, dt) = setup(&a.common, default_particles)?;
    let size = (320, 240);
    let (mut scene, name) = match (demo, file_desc) {
        (Some(d), _) => (
            super::demo_scene(&gpu, d, &a.common, capacity, size, false, None)?,
            d.name().to_string(),
        ),
        (None, Some(desc)) => {
            let stage = a.common.scene.unwrap_or_default();
            let cam = |aspect| match stage {
                Stage::Empty => {
                    Camera::look_at(glam::Vec3::new(0.0, 5.0, 15.0), glam::Vec3::ZERO, aspect)
                }
                Stage::Plane | Stage::Terrain => Demo::Snow.camera_in(stage, aspect),
            };
            let mut scene = Scene::new(&gpu, &desc, capacity, a.common.seed, size, cam)?;
            stage.apply(&mut scene.target.scene);
            (scene, desc.name)
        }
        (None, None) => unreachable!("clap requires a demo or --effect"),
    };
    scene.renderer.set_substeps(a.common.substeps); // also for --effect files
    let mut clock = Clock::new(dt);
    for _ in 0..a.frames {
        let dt = clock.tick();
        scene.frame(&gpu, dt, false);
    }
    let snap = scene.system().snapshot(&gpu.device, &gpu.queue)?;
    let s = scene.system().stats(&snap);
    let settled = snap
        .alive
        .iter()
        .filter(|&&i| snap.particles[i as usize].flags & Particle::SETTLED != 0)
        .count();
    if let Some(path) = &a.dump {
        let alive: Vec<_> = snap
            .alive
            .iter()
            .map(|&i| {
                let p = &snap.particles[i as usize];
                json!({"index": i, "id": p.id, "pos": p.pos.to_array(), "vel": p.vel.to_array(),
                       "age": p.age, "lifetime": p.lifetime,
                       "settled": p.flags & Particle::SETTLED != 0})
            })
            .collect();
        let dump = json!({
            "capacity": capacity,
            "alive": alive,
            "dead": snap.dead,
            "visible_sorted": snap.visible.iter().map(|pair| pair[1]).collect::<Vec<_>>(),
            "camera": {"eye": scene.camera.eye.to_array(),
                       "view_proj": scene.camera.view_proj().to_cols_array()},
        });
        write_file(path, dump.to_string())?;
    }
    out!(
        "{}",
        json!({"demo": name, "capacity": capacity, "frames": a.frames, "alive": s.alive,
               "dead": s.dead, "visible": s.visible, "splatted": s.splatted, "emitted_total": s.emitted_total,
               "dropped_total": s.dropped_total, "killed_total": s.killed_total,
               "requested_total": s.requested_total, "hits_total": snap.counters.hits,
               "settled": settled})
    );
    Ok(())
}
