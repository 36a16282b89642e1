//! The CPU twin of emit + simulate (tests only): the same spawn clock, random streams and
//! arithmetic as the WGSL, so GPU tests can compare against it particle by particle (keyed
//! by `id`). Shapes and velocity modes it does not know (galaxy disks, orbits) it leaves
//! at the emitter's first point and at rest: twin tests avoid them.
//!
//! Which spawn requests are dropped when the dead list runs dry depends on GPU scheduling,
//! so comparisons are exact only while nothing is dropped.

pub mod flock;

use std::collections::BTreeMap;
use std::f32::consts::TAU;

use glam::{Vec3, Vec4};

use crate::effect::graph::attributes::Placement;
use crate::effect::graph::cpu::Surroundings;
use crate::effect::graph::{Graph, Stage, MAX_PARAMETERS};
use crate::effect::{EffectDesc, SpawnClock};
use crate::hash::pcg_hash;
use crate::mesh::surface::{pick, surface_point};
use crate::mesh::{MeshSet, SurfaceTriangle};
use crate::types::*;

struct Rng(u32);

impl Rng {
    fn next01(&mut self) -> f32 {
        self.0 = pcg_hash(self.0);
        (self.0 >> 8) as f32 * (1.0 / 16777216.0)
    }

    fn range(&mut self, mean: f32, variance: f32) -> f32 {
        mean + variance * (2.0 * self.next01() - 1.0)
    }

    fn unit_vector(&mut self) -> Vec3 {
        let z = 2.0 * self.next01() - 1.0;
        let phi = TAU * self.next01();
        let r = (1.0 - z * z).max(0.0).sqrt();
        Vec3::new(r * phi.cos(), r * phi.sin(), z)
    }
}

/// WGSL `pack4x8unorm`.
pub fn pack4x8unorm(c: Vec4) -> u32 {
    let q = |x: f32| (0.5 + 255.0 * x.clamp(0.0, 1.0)).floor() as u32;
    q(c.x) | (q(c.y) << 8) | (q(c.z) << 16) | (q(c.w) << 24)
}

/// Where a particle is born and the surface normal there (zero where the shape has none).
fn spawn_point(em: &EmitterParams, rng: &mut Rng, surface: &[SurfaceTriangle]) -> (Vec3, Vec3) {
    match em.shape {
        SHAPE_BOX => {
            let u = Vec3::new(rng.next01(), rng.next01(), rng.next01());
            let pos = em.p0.truncate() * (Vec3::ONE - u) + em.p1.truncate() * u;
            (pos, Vec3::ZERO)
        }
        SHAPE_SPHERE => {
            let dir = rng.unit_vector();
            let u = rng.next01();
            (em.p0.truncate() + dir * (em.p0.w * u.powf(1.0 / 3.0)), dir)
        }
        SHAPE_SPHERE_SURFACE => {
            let dir = rng.unit_vector();
            (em.p0.truncate() + dir * em.p0.w, dir)
        }
        SHAPE_DISK => {
            let n = em.p1.truncate().normalize();
            let helper = if n.x.abs() > 0.9 { Vec3::Y } else { Vec3::X };
            let t = n.cross(helper).normalize();
            let b = n.cross(t);
            let u = rng.next01();
            let phi = TAU * rng.next01();
            let r = em.p0.w * u.sqrt();
            (em.p0.truncate() + (t * phi.cos() + b * phi.sin()) * r, n)
        }
        SHAPE_MESH => {
            let range = (em.p1.x.to_bits(), em.p1.y.to_bits());
            let t = &surface[pick(surface, range, rng.next01())];
            let (r1, r2) = (rng.next01(), rng.next01());
            let (pos, normal) = surface_point(t, r1, r2);
            (em.p0.truncate() + pos * em.p1.z, normal)
        }
        _ => (em.p0.truncate(), Vec3::ZERO),
    }
}

/// When within the frame spawn `k` of emitter `em` is born, as a fraction of the frame
/// (`birth_fraction` in emit.wgsl).
fn birth_fraction(em: &EmitterParams, k: u32) -> f32 {
    if k < em.burst_count {
        return em.burst_at;
    }
    let spread = (em.spawn_count - em.burst_count).max(1);
    ((k - em.burst_count) as f32 + 0.5) / spread as f32
}

/// The particle the emit pass creates for spawn `ordinal` of this frame (`surface`: the
/// renderer's mesh triangles), its emitter's init stack run on it (with `around`), and its
/// record of the effect's own attributes.
pub fn spawn(
    emit: &EmitUniforms,
    effect: &EffectParams,
    (surface, graph): (&[SurfaceTriangle], &Graph),
    ordinal: u32,
    around: &Surroundings,
) -> (Particle, Vec<u32>) {
    let e = (1..emit.emitter_count as usize)
        .rfind(|&i| ordinal >= emit.emitters[i].spawn_first)
        .unwrap_or(0);
    let em = &emit.emitters[e];
    let id = emit.id_base.wrapping_add(ordinal);
    let mut rng = Rng(pcg_hash(id ^ pcg_hash(effect.seed)));
    let (pos, normal) = spawn_point(em, &mut rng, surface);
    let vel = if em.velocity_mode == VELOCITY_NORMAL {
        normal * rng.range(em.vel_mean.w, em.vel_var.w)
    } else if em.velocity_mode == VELOCITY_RADIAL {
        let dir = rng.unit_vector();
        dir * rng.range(em.vel_mean.w, em.vel_var.w)
    } else {
        let x = rng.range(em.vel_mean.x, em.vel_var.x);
        let y = rng.range(em.vel_mean.y, em.vel_var.y);
        let z = rng.range(em.vel_mean.z, em.vel_var.z);
        Vec3::new(x, y, z)
    };
    let lifetime = rng.range(em.life_size.x, em.life_size.y).max(1e-6);
    let r = rng.range(em.color_mean.x, em.color_var.x);
    let g = rng.range(em.color_mean.y, em.color_var.y);
    let b = rng.range(em.color_mean.z, em.color_var.z);
    let a = rng.range(em.color_mean.w, em.color_var.w);
    let size = rng.range(em.life_size.z, em.life_size.w).max(0.0);
    let rotation = rng.range(em.rot_spin.x, em.rot_spin.y);
    let spin = rng.range(em.rot_spin.z, em.rot_spin.w);
    let mut p = Particle {
        pos,
        age: 0.0,
        vel,
        lifetime,
        color: pack4x8unorm(Vec4::new(r, g, b, a)),
        size,
        rotation, // as at age 0: it turns by its spin as it ages (Particle::rotation_now)
        spin,
        id,
        emitter: e as u32,
        flags: crate::instances::MAX_INSTANCES << crate::instances::FLAG_INSTANCE_SHIFT,
        settled_at: 0.0,
    };
    // its init stack, in the emitter's own space (before the transform places it)
    let mut record = graph.initial_record();
    for &(a, k) in &graph.kept {
        record[k as usize] = match a {
            crate::effect::graph::attributes::Attribute::Color => p.color,
            crate::effect::graph::attributes::Attribute::Size => p.size.to_bits(),
            _ => p.rotation.to_bits(),
        };
    }
    if let Some(init) = &graph.init[e] {
        init.run(Stage::Init, (&mut p, &mut record), around);
    }
    if graph.generates(Stage::Draw) {
        crate::effect::graph::cpu::draw(graph, &mut p, &mut record, around);
    }
    // born at its own time in the frame, where the host's transform had the emitter then
    let f = birth_fraction(em, ordinal - em.spawn_first);
    let pos = em
        .start
        .transform_point3(p.pos)
        .lerp(em.end.transform_point3(p.pos), f);
    let vel = em
        .start
        .transform_vector3(p.vel)
        .lerp(em.end.transform_vector3(p.vel), f);
    // stepped by the whole frame like the rest: younger and further back by its lateness
    let late = f * emit.frame;
    let anchored = effect.looks[e].anchored == 1;
    let p = Particle {
        pos: if anchored { pos } else { pos - vel * late },
        age: -late,
        vel,
        ..p
    };
    (p, record)
}

fn wrap1(x: f32, lo: f32, hi: f32) -> f32 {
    if x >= lo && x <= hi {
        return x;
    }
    let extent = hi - lo;
    x - extent * ((x - lo) / extent).floor()
}

/// The curl-noise wind of `turbulence` in simulate.wgsl at `x` and `time` (m/s).
pub fn turbulence(x: Vec3, time: f32, effect: &EffectParams) -> Vec3 {
    let q = x / effect.turbulence_scale;
    let t = time * effect.turbulence / effect.turbulence_scale;
    let v = Vec3::from(crate::expr::curl_octaves(q.to_array(), t));
    v * (effect.turbulence / 3.555)
}

/// `drag_share` of step.wgsl: (1 − e^(−x))/x, the share of a step's acceleration a linear
/// drag lets through at x = drag·dt (the exact solution of the drag over the step).
pub fn drag_share(x: f32) -> f32 {
    if x < 0.015625 {
        1.0 - x * (0.5 - x * (1.0 / 6.0 - x / 24.0))
    } else {
        (1.0 - (-x).exp()) / x
    }
}

/// One simulate step of one particle at clock `time` with the bounds moved by `offset`
/// ([`EffectDesc::camera_offset`]) and `steering` added to its forces (a flock's), its
/// emitter's update stack (if any) run first with `around` on it and its `record` of the
/// effect's own attributes, as `step_particle` in step.wgsl; false when it dies.
pub fn step(
    (p, record): (&mut Particle, &mut [u32]),
    (effect, graph): (&EffectParams, &Graph),
    (dt, time): (f32, f32),
    (offset, steering): (Vec3, Vec3),
    around: &Surroundings,
) -> bool {
    if effect.looks[(p.emitter as usize).min(MAX_EMITTERS - 1)].anchored == 1 {
        p.vel = Vec3::ZERO;
        p.age += dt;
        return p.age < p.lifetime;
    }
    let update = graph
        .update
        .get(p.emitter as usize)
        .and_then(Option::as_ref);
    let (force, kept) = match update {
        Some(stack) => stack.run(Stage::Update, (p, record), around),
        None => (Vec3::ZERO, true),
    };
    let v = p.vel;
    let mut wind = effect.wind;
    if effect.turbulence > 0.0 {
        wind += turbulence(p.pos, time, effect);
    }
    let mut a = effect.gravity + effect.drag * (wind - v) + steering;
    if update.is_some_and(|s| s.force.is_some()) {
        a += force;
    }
    let v_new = v + a * (dt * drag_share(effect.drag * dt));
    let mut x = if effect.integrator == INTEGRATOR_SYMPLECTIC {
        p.pos + v_new * dt
    } else {
        p.pos + v * dt
    };
    p.vel = v_new;
    p.age += dt;
    let mut alive = p.age < p.lifetime && kept;
    let (lo, hi) = (effect.bounds_min + offset, effect.bounds_max + offset);
    match effect.bounds_mode {
        BOUNDS_KILL => alive = alive && x.cmpge(lo).all() && x.cmple(hi).all(),
        BOUNDS_WRAP => {
            x = Vec3::new(
                wrap1(x.x, lo.x, hi.x),
                wrap1(x.y, lo.y, hi.y),
                wrap1(x.z, lo.z, hi.z),
            )
        }
        _ => {}
    }
    p.pos = x;
    alive
}

/// Emit + simulate on the CPU, particles keyed by id.
pub struct CpuTwin {
    desc: EffectDesc,
    effect: EffectParams,
    capacity: u32,
    clock: SpawnClock,
    pub particles: BTreeMap<u32, Particle>,
    /// Each living particle's record of the effect's own attributes, by id.
    pub attributes: BTreeMap<u32, Vec<u32>>,
    pub emitted: u64,
    pub dropped: u64,
    /// Particles killed because a step left a number of theirs not finite.
    pub non_finite: u64,
    /// The camera's position (bounds that follow the camera move with it).
    pub eye: Vec3,
    /// Where the effect is (its transform), as its stacks read it.
    pub transform: glam::Mat4,
    /// The direction the camera looks along, as the stacks read it.
    pub view_dir: Vec3,
    /// Each emitter's (start, end) world transform in the next frame (identity if absent).
    pub motion: Vec<(glam::Mat4, glam::Mat4)>,
    /// The meshes Mesh-shaped emitters name (the built-ins unless a test adds its own).
    pub meshes: MeshSet,
    /// Simulate steps a frame, each of its share of the frame (at least 1), as
    /// `ParticleRenderer::set_substeps` asks the GPU for.
    pub substeps: u32,
    /// The effect's stacks, and its parameters' values.
    graph: Graph,
    pub parameters: [[u32; 4]; MAX_PARAMETERS],
}

impl CpuTwin {
    pub fn new(desc: &EffectDesc, capacity: u32, seed: u32) -> Self {
        let graph = Graph::compile(desc).expect("the twin's effect compiles");
        let mut effect = desc.effect_params(seed, capacity);
        graph.fold_into(&mut effect);
        CpuTwin {
            desc: desc.clone(),
            effect,
            capacity,
            clock: SpawnClock::default(),
            particles: BTreeMap::new(),
            attributes: BTreeMap::new(),
            emitted: 0,
            dropped: 0,
            non_finite: 0,
            eye: Vec3::ZERO,
            transform: glam::Mat4::IDENTITY,
            view_dir: Vec3::NEG_Z,
            motion: Vec::new(),
            meshes: MeshSet::default(),
            substeps: 1,
            parameters: graph.default_block(),
            graph,
        }
    }

    /// One frame of `dt` seconds: emit, then simulate everything alive.
    pub fn frame(&mut self, dt: f32) {
        // where each emitter's space is at the frame's end (the origin without motion)
        let emitters: Vec<glam::Mat4> = (0..self.desc.emitters.len())
            .map(|i| self.motion.get(i).map_or(glam::Mat4::IDENTITY, |m| m.1))
            .collect();
        let placement = Placement {
            transform: self.transform,
            emitters: &emitters,
            eye: self.eye,
            view_dir: self.view_dir,
        };
        let spawning = self.graph.spawning(
            &self.desc,
            &crate::effect::graph::spawn::SpawnInputs {
                time: self.clock.time as f32,
                dt,
                params: &self.parameters,
                placement,
            },
        );
        self.dropped += self.clock.advance(&self.desc, dt, self.capacity, &spawning);
        let offset = self.desc.camera_offset(self.eye);
        let id_base = self.clock.taken_total as u32;
        let emit = EmitUniforms {
            frame: dt,
            ..self.desc.emit_uniforms(
                &self.clock.pending(),
                id_base,
                offset,
                &self.motion,
                &self.meshes,
            )
        };
        self.clock.take();
        let time = self.clock.time as f32;
        // (a substep is a step of its own, of its share of the frame: as the stacks read it
        // from init on, emit.wgsl's `emit.step`)
        let substeps = self.substeps.max(1);
        let step_dt = dt / substeps as f32;
        let around = Surroundings {
            time,
            dt: step_dt,
            seed: self.effect.seed,
            params: &self.parameters,
            table: &self.graph.table,
            customs: &self.graph.attributes,
            placement,
            kept: &self.graph.kept,
        };
        let sources = (self.meshes.triangles(), &self.graph);
        for ordinal in 0..emit.request {
            if self.particles.len() < self.capacity as usize {
                let (p, record) = spawn(&emit, &self.effect, sources, ordinal, &around);
                self.attributes.insert(p.id, record);
                self.particles.insert(p.id, p);
                self.emitted += 1;
            } else {
                self.dropped += 1;
            }
        }
        let effect = self.effect;
        // the flock's steering, found once a frame and added at every substep (flock.wgsl)
        let steering: BTreeMap<u32, Vec3> = (self.particles.keys().copied())
            .zip(self.steering(dt))
            .collect();
        let graph = &self.graph;
        let records = &mut self.attributes;
        let non_finite = &mut self.non_finite;
        let draws = graph.generates(Stage::Draw);
        for _ in 0..substeps {
            self.particles.retain(|id, p| {
                let s = steering.get(id).copied().unwrap_or_default();
                let record = records.get_mut(id).map_or(&mut [][..], |r| &mut r[..]);
                let mut alive = step(
                    (p, &mut *record),
                    (&effect, graph),
                    (step_dt, time),
                    (offset, s),
                    &around,
                );
                if !p.numbers_finite() {
                    // as step.wgsl's `advance`: killed and counted
                    alive = false;
                    *non_finite += 1;
                }
                if draws {
                    // how it is drawn now (graph.wgsl's draw hook, after every step)
                    crate::effect::graph::cpu::draw(graph, p, record, &around);
                }
                if !alive {
                    records.remove(id);
                }
                alive
            });
        }
    }

    /// The flock's steering of every particle, in id order (empty without a flock).
    fn steering(&self, dt: f32) -> Vec<Vec3> {
        let (Some(params), Some(radius)) = (self.desc.flock_params(), self.desc.neighbours) else {
            return Vec::new();
        };
        let birds: Vec<flock::Bird> = self
            .particles
            .values()
            .map(|p| flock::Bird {
                pos: p.pos,
                vel: p.vel,
            })
            .collect();
        flock::steering(&birds, &params, radius, dt)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn turbulent(speed: f32, scale: f32) -> EffectParams {
        EffectParams {
            turbulence: speed,
            turbulence_scale: scale,
            ..Default::default()
        }
    }

    /// Central-difference divergence of the turbulence at x.
    fn divergence(x: Vec3, t: f32, e: &EffectParams) -> f32 {
        let h = 1e-2;
        let d = |axis: Vec3| {
            let f = |s: f32| turbulence(x + axis * s, t, e).dot(axis);
            (f(h) - f(-h)) / (2.0 * h)
        };
        d(Vec3::X) + d(Vec3::Y) + d(Vec3::Z)
    }

    /// The language's `turbulence(q, t)` is the built-in field divided by its speed, read at
    /// `q = x / scale`, `t = time · speed / scale`: what lets a stack that writes it fold
    /// into the built-in one.
    #[test]
    fn the_languages_turbulence_is_the_built_in_field_per_unit_speed() {
        let (speed, scale) = (0.8, 1.5);
        let e = turbulent(speed, scale);
        for k in 0..200u32 {
            let c = |i: u32| (pcg_hash(k * 4 + i) >> 8) as f32 / 16_777_216.0 * 30.0 - 15.0;
            let (x, time) = (Vec3::new(c(0), c(1), c(2)), c(3).abs());
            let q = (x / scale).to_array();
            let unit = crate::expr::turbulence(q, time * speed / scale);
            let built_in = turbulence(x, time, &e);
            let language = Vec3::from(unit) * speed;
            assert!(
                built_in.abs_diff_eq(language, 1e-6),
                "at {x}, {time}: {built_in} vs {language}"
            );
        }
    }

    #[test]
    fn turbulence_is_divergence_free_bounded_and_not_trivial() {
        let e = turbulent(2.0, 3.0);
        let mut rng = 12345u32;
        let mut r = || {
            rng = pcg_hash(rng);
            (rng >> 8) as f32 / 16_777_216.0 * 40.0 - 20.0
        };
        let (mut max_div, mut max_grad, mut max_speed) = (0f32, 0f32, 0f32);
        for _ in 0..500 {
            let x = Vec3::new(r(), r(), r());
            let t = r().abs();
            max_div = max_div.max(divergence(x, t, &e).abs());
            let v = turbulence(x, t, &e);
            max_speed = max_speed.max(v.abs().max_element());
            // a one-sided derivative of one component, to compare the divergence with
            let dx = (turbulence(x + Vec3::X * 1e-2, t, &e) - v) / 1e-2;
            max_grad = max_grad.max(dx.y.abs());
        }
        assert!(
            max_speed <= 2.0 + 1e-4,
            "speed {max_speed} beyond the bound"
        );
        assert!(max_speed > 1.0, "speed {max_speed}: a weak field");
        assert!(max_grad > 0.3, "gradient {max_grad}: a weak field");
        assert!(
            max_div < 1e-3 * max_grad.max(1.0) * 10.0,
            "divergence {max_div} against gradients of {max_grad}"
        );
    }
}
