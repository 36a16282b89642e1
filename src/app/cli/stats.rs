//! `flurry stats`: simulate, print counts as JSON, optionally dump the pool.

use serde_json::json;

use crate::host::HostSetup;
use flurry::{glam, Camera, Particle};

use super::args::StatsArgs;
use super::{output, setup, Clock};
use crate::host::demos::Demo;
use crate::host::{AppError, Scene, Stage};
use crate::progress::Progress;

pub fn run(a: StatsArgs) -> Result<(), AppError> {
    if a.demo.is_none() && a.effect.is_none() {
        use clap::ValueEnum as _;
        let names: Vec<_> = Demo::value_variants().iter().map(|d| d.name()).collect();
        let allowed = format!("a demo ({}) or --effect FILE.ron", names.join(", "));
        return Err(flurry::Invalid::new("DEMO", "none", allowed).into());
    }
    output::check(&[
        ("--dump", a.dump.as_deref(), "json"),
        ("--events", a.events.as_deref(), "json"),
    ])?;
    let file_desc = a
        .effect
        .as_deref()
        .map(crate::host::live_effect::effect_file)
        .transpose()?;
    // without a demo's host, a file that names the host's meshes or images cannot run
    if let (None, Some(path), Some(desc)) = (a.demo, a.effect.as_deref(), file_desc.as_ref()) {
        if let Some(needs) = super::host_needs(desc, path) {
            let allowed = format!(
                "an effect naming no mesh or image of its host's, or a demo with it ({needs})"
            );
            return Err(flurry::Invalid::new("--effect", path.display(), allowed).into());
        }
    }
    let demo = a.demo.map(|d| a.common.mode.apply(d)).transpose()?;
    let default_particles = demo.map_or(16_384, Demo::default_particles);
    let (gpu, capacity, dt) = setup(&a.common, default_particles)?;
    let size = (320, 240);
    let file = a.effect.as_deref().zip(file_desc.as_ref());
    let (mut scene, name) = match (demo, file) {
        (Some(d), _) => (
            super::demo_scene(
                &gpu,
                d,
                &a.common,
                capacity,
                (size, HostSetup::STANDARD),
                false,
                file,
            )?,
            d.name().to_string(),
        ),
        (None, Some((path, desc))) => {
            let stage = a.common.scene.unwrap_or_default();
            let cam = |aspect| match stage {
                Stage::Empty => {
                    Camera::look_at(glam::Vec3::new(0.0, 5.0, 15.0), glam::Vec3::ZERO, aspect)
                }
                Stage::Plane | Stage::Terrain => Demo::Snow.camera_in(stage, aspect),
            };
            let scene = Scene::new(&gpu, desc, capacity, a.common.pool.seed, size, cam);
            let mut scene = scene.map_err(|e| super::in_file(e, path))?;
            stage.apply(&mut scene.target.scene);
            let id = scene.effect;
            super::set_params(&mut scene.renderer, id, &a.common.params)?;
            scene.renderer.set_lod(id, a.common.lod(None)?)?;
            (scene, desc.name.clone())
        }
        (None, None) => unreachable!("refused above"),
    };
    scene.renderer.set_substeps(a.common.substeps)?; // also for --effect files
    let prewarm_ms = match a.prewarm {
        Some(seconds) => {
            let step = a.common.dt.unwrap_or(1.0 / 60.0) as f32;
            Some(prewarm(&gpu, &mut scene, (seconds, step))?)
        }
        None => None,
    };
    let mut heard = a.events.as_ref().map(|_| Heard::default());
    if heard.is_some() {
        let all = flurry::EventSettings {
            hits: true,
            deaths: true,
            per_frame: flurry::MAX_EVENTS_PER_FRAME,
            kept: flurry::MAX_EVENTS_KEPT,
        };
        let id = scene.effect;
        scene.renderer.set_events(&gpu.device, id, Some(all))?;
    }
    let mut clock = Clock::new(dt);
    let mut progress = Progress::new(&name, a.frames);
    for done in 0..a.frames {
        let dt = clock.tick();
        scene.frame(&gpu, dt, false);
        if let Some(heard) = &mut heard {
            heard.drain(&mut scene)?;
        }
        let frame = done + 1;
        if a.check_every.is_some_and(|k| frame % k == 0) {
            let violation = scene.snapshot(&gpu)?.check();
            violation.map_err(|violation| AppError::Violation { frame, violation })?;
        }
        if progress.shown() {
            gpu.wait()?;
            progress.frame(frame);
        }
    }
    drop(progress);
    if let Some(heard) = &mut heard {
        // the last frames' read-backs: asked for by an update that records no frame
        gpu.wait()?;
        let (view, size) = (scene.view(), scene.target.size());
        (scene.renderer).update(&gpu.device, &gpu.queue, 0.0, view, size)?;
        gpu.wait()?;
        heard.drain(&mut scene)?;
    }
    let snap = scene.snapshot(&gpu)?;
    let s = snap.stats;
    let settled = snap
        .alive
        .iter()
        .filter(|&&i| snap.particles[i as usize].flags & Particle::SETTLED != 0)
        .count();
    // numbers that are no longer numbers (a stack dividing by a zero it met at run time):
    // the particles a step left so were killed and counted on the GPU; what the living
    // still hold in the effect's own attributes is counted here. Said, never reported as fine.
    let non_finite = snap
        .alive
        .iter()
        .filter(|&&i| {
            let own = snap.attributes.iter().all(|(_, v)| finite(v[i as usize]));
            !(snap.particles[i as usize].numbers_finite() && own)
        })
        .count();
    if s.non_finite_total > 0 {
        eprintln!(
            "warning: {} particles were killed for holding a number that is not finite (inf \
             or NaN): a stack computes one at run time",
            s.non_finite_total
        );
    }
    if non_finite > 0 {
        let alive = snap.alive.len();
        eprintln!(
            "warning: {non_finite} of {alive} particles hold an attribute that is not finite \
             (inf or NaN): a stack computes one at run time"
        );
    }
    if let Some(path) = &a.dump {
        let crowd = scene.desc().crowd.clone();
        let alive: Vec<_> = snap
            .alive
            .iter()
            .map(|&i| {
                let p = &snap.particles[i as usize];
                let mut entry = json!({"index": i, "id": p.id, "pos": p.pos.to_array(),
                       "vel": p.vel.to_array(), "age": p.age, "lifetime": p.lifetime,
                       "settled": p.flags & Particle::SETTLED != 0});
                // the effect's own attributes, by name
                for (name, values) in &snap.attributes {
                    entry[name.as_str()] = value_json(values[i as usize]);
                }
                if let (Some(crowd), Some(w)) = (&crowd, snap.walkers.get(i as usize)) {
                    let state = crowd.states.get(w.state as usize).map(|s| s.name.as_str());
                    entry["state"] = json!(state);
                    entry["destination"] = json!(w.destination);
                }
                entry
            })
            .collect();
        let mut dump = json!({
            "capacity": capacity,
            "alive": alive,
            "dead": snap.dead,
            "visible_sorted": snap.visible.iter().map(|pair| pair[1]).collect::<Vec<_>>(),
            "visible_splatted": snap.splat,
            "camera": {"eye": scene.camera.eye.to_array(),
                       "view_proj": scene.camera.view_proj().to_cols_array()},
        });
        if let Some(crowd) = &crowd {
            dump["map"] = map_json(crowd)?;
        }
        output::write_with("--dump", path, |out| Ok(serde_json::to_writer(out, &dump)?))?;
    }
    let events = match (&heard, &a.events) {
        (Some(heard), Some(path)) => {
            output::write_with("--events", path, |out| heard.write(out, &name))?;
            Some(heard.summary())
        }
        _ => None,
    };
    out!(
        "{}",
        json!({"demo": name, "capacity": capacity, "frames": a.frames, "alive": s.alive,
               "dead": s.dead, "visible": s.visible, "splatted": s.splatted, "emitted_total": s.emitted_total,
               "dropped_total": s.dropped_total, "killed_total": s.killed_total,
               "requested_total": s.requested_total, "hits_total": snap.counters.hits_total(),
               "settled": settled, "non_finite": non_finite,
               "non_finite_total": s.non_finite_total, "prewarm_ms": prewarm_ms,
               "events": events})
    );
    Ok(())
}

/// Every event drained during a run (`--events`).
#[derive(Default)]
struct Heard {
    events: Vec<flurry::ParticleEvent>,
    lost: u64,
}

impl Heard {
    fn drain(&mut self, scene: &mut Scene) -> Result<(), AppError> {
        let drained = scene.renderer.drain_events(scene.effect)?;
        self.events.extend(drained.events);
        self.lost += drained.lost;
        Ok(())
    }

    fn count(&self, kind: flurry::EventKind) -> usize {
        self.events.iter().filter(|e| e.kind == kind).count()
    }

    /// What stdout's JSON says of them.
    fn summary(&self) -> serde_json::Value {
        use flurry::EventKind::{Death, Hit};
        json!({"hits": self.count(Hit), "deaths": self.count(Death), "lost": self.lost})
    }

    /// The file: the summary and every event, written as it goes (never held whole).
    fn write(&self, out: &mut dyn std::io::Write, effect: &str) -> std::io::Result<()> {
        let head = json!({"effect": effect, "summary": self.summary()}).to_string();
        // the head's object, left open for the list
        write!(out, "{},\"events\":[", &head[..head.len() - 1])?;
        for (k, e) in self.events.iter().enumerate() {
            let kind = match e.kind {
                flurry::EventKind::Hit => "hit",
                flurry::EventKind::Death => "death",
            };
            let entry = json!({"kind": kind, "position": e.position.to_array(),
                "velocity": e.velocity.to_array(), "normal": e.normal.to_array(),
                "emitter": e.emitter, "time": e.time});
            let comma = if k == 0 { "" } else { "," };
            write!(out, "{comma}{entry}")?;
        }
        write!(out, "]}}")
    }
}

/// Run the scene's effect `seconds` (`--prewarm`) in steps of `step` before its frames,
/// after a frame of no time that draws the scene it collides with; the wall milliseconds
/// it took, the GPU waited for.
fn prewarm(
    gpu: &flurry::GpuContext,
    scene: &mut Scene,
    (seconds, step): (f64, f32),
) -> Result<f64, AppError> {
    if !(0.0..=flurry::MAX_PREWARM as f64).contains(&seconds) {
        let allowed = format!("0..={} seconds", flurry::MAX_PREWARM);
        return Err(flurry::Invalid::new("--prewarm", seconds, allowed).into());
    }
    // (the prewarm steps --dt at a time: the flag is named, not the call's argument)
    let steps = flurry::PREWARM_STEPS;
    if !steps.contains(&step) {
        let (lo, hi) = (steps.start(), steps.end());
        let allowed = format!("{lo}..={hi} seconds with --prewarm (its steps are --dt long)");
        return Err(flurry::Invalid::new("--dt", step, allowed).into());
    }
    scene.frame(gpu, 0.0, false);
    gpu.wait()?;
    let start = std::time::Instant::now();
    let view = scene.view();
    let (id, device, queue) = (scene.effect, &gpu.device, &gpu.queue);
    scene
        .renderer
        .prewarm(device, queue, id, (seconds as f32, step), view)?;
    gpu.wait()?;
    Ok(start.elapsed().as_secs_f64() * 1e3)
}

/// Whether an attribute's value is a number (or numbers) and not inf or NaN.
fn finite(v: flurry::expr::Value) -> bool {
    use flurry::expr::Value;
    match v {
        Value::F32(x) => x.is_finite(),
        Value::Vec2(x) => x.is_finite(),
        Value::Vec3(x) => x.is_finite(),
        Value::Vec4(x) => x.is_finite(),
        Value::Bool(_) | Value::I32(_) | Value::U32(_) => true,
    }
}

/// An attribute's value as the dump writes it: a number, a bool, or an array of numbers.
fn value_json(v: flurry::expr::Value) -> serde_json::Value {
    use flurry::expr::Value;
    match v {
        Value::Bool(b) => json!(b),
        Value::I32(i) => json!(i),
        Value::U32(u) => json!(u),
        Value::F32(x) => json!(x),
        Value::Vec2(v) => json!(v.to_array()),
        Value::Vec3(v) => json!(v.to_array()),
        Value::Vec4(v) => json!(v.to_array()),
    }
}

/// A crowd's map as the dump writes it: cell size, cells along x and z, every cell blocked
/// (1) or street (0) row by row from the corner at `origin` (the smallest x and z), and the
/// destinations' cell centres (x, z) in the order walkers' `destination` indexes them.
fn map_json(crowd: &flurry::effect::Crowd) -> Result<serde_json::Value, AppError> {
    let map = crowd.map()?;
    let (width, height) = map.size();
    let blocked: Vec<u8> = map.blocked().iter().map(|&b| b as u8).collect();
    let [x0, z0] = map.origin();
    let cell = map.cell();
    let destinations: Vec<[f32; 2]> = crowd
        .destinations_on(&map)
        .iter()
        .map(|&(x, z)| [x0 + (x as f32 + 0.5) * cell, z0 + (z as f32 + 0.5) * cell])
        .collect();
    Ok(
        json!({"cell": cell, "width": width, "height": height, "blocked": blocked,
              "origin": [x0, z0], "destinations": destinations}),
    )
}
