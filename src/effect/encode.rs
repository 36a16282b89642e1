//! An effect as the GPU sees it: the per-effect constants ([`EffectParams`]), each frame's
//! spawn request ([`EmitUniforms`]) and the massive bodies, with every enum turned into the
//! code its WGSL constant names (`types::SHAPE_BOX` is `SHAPE_BOX` in common.wgsl).

use glam::{Vec3, Vec4};

use super::schema::*;
use super::{FrameTiming, Spawns};
use crate::mesh::MeshSet;
use crate::types::*;

impl EffectDesc {
    /// The emitter spawning at GPU events (collision hits or deaths), and how many per event.
    pub(crate) fn hit_emitter(&self) -> Option<(usize, u32)> {
        self.event_emitters().next()
    }

    /// The emitters that spawn at events (OnHit, OnDeath), with their counts per event.
    fn event_emitters(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.emitters
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e.trigger {
                Trigger::OnHit { count } | Trigger::OnDeath { count, .. } => Some((i, count)),
                Trigger::Schedule | Trigger::Trail { .. } => None,
            })
    }

    /// The trail emitter, the emitter it follows and its seconds between points.
    pub(crate) fn trail(&self) -> Option<(u32, u32, f32)> {
        self.emitters
            .iter()
            .enumerate()
            .find_map(|(i, e)| match e.trigger {
                Trigger::Trail { of, every } => Some((i as u32, of, every)),
                _ => None,
            })
    }

    /// The emitter whose particles' deaths are events (an OnDeath trigger's source).
    pub(crate) fn death_source(&self) -> Option<u32> {
        self.emitters.iter().find_map(|e| match e.trigger {
            Trigger::OnDeath { of, .. } => Some(of),
            _ => None,
        })
    }

    /// Its self-shadowing, if lit with shadows.
    pub(crate) fn shadows(&self) -> Option<Shadows> {
        self.lighting.and_then(|l| l.shadows)
    }

    /// What emitter `e`'s particles show: its own sprite, else the effect's.
    pub(crate) fn sprite_of(&self, e: usize) -> &Sprite {
        let own = self.emitters.get(e).and_then(|em| em.sprite.as_ref());
        own.unwrap_or(&self.sprite)
    }

    /// How emitter `e`'s particles look: its own settings, else the effect's.
    fn look_of(&self, e: usize) -> EmitterLook {
        let em = self.emitters.get(e);
        let o = em.and_then(|em| em.over_life).unwrap_or(self.over_life);
        let render = em.and_then(|em| em.render).unwrap_or(self.render);
        let sprite = self.sprite_of(e);
        let flipbook = match sprite {
            Sprite::Image(i) => i.flipbook,
            _ => None,
        };
        let flight = match render {
            RenderMode::Mesh { flight, .. } => flight,
            _ => None,
        };
        EmitterLook {
            color_end: o.color_end.into(),
            size_end: o.size_end,
            render_mode: render.code(),
            stretch: match render {
                RenderMode::Stretched { seconds } => seconds,
                _ => 0.0,
            },
            sprite: sprite.code(),
            // the renderer's image array knows where its frames lie (ParticleSystem::new)
            image_layer: 0,
            image_frames: match sprite {
                Sprite::Image(_) => flipbook.map_or(1, |f| f.frame_count()),
                _ => 0,
            },
            frame_rate: match flipbook.map(|f| f.timing) {
                Some(FrameTiming::PerSecond(rate)) => rate,
                _ => 0.0,
            },
            flipbook: flipbook.map_or(0, |f| {
                (f.random_start as u32 * FLIPBOOK_RANDOM_START) | (f.blend as u32 * FLIPBOOK_BLEND)
            }),
            anchored: em.is_some_and(|em| em.anchored) as u32,
            unlit: em.is_some_and(|em| em.unlit) as u32,
            emission: em.map_or(1.0, |em| em.emission),
            subdivisions: match render {
                RenderMode::Ribbon { subdivisions, .. } => subdivisions,
                _ => 0,
            },
            ribbon_repeats: match render {
                RenderMode::Ribbon {
                    texture: Some(t), ..
                } => t.repeats,
                _ => 0.0,
            },
            trail: em.is_some_and(|em| matches!(em.trigger, Trigger::Trail { .. })) as u32,
            // the renderer's meshes know them (ParticleSystem::new)
            mesh_radius: 0.0,
            impostor: glam::Vec3::ZERO,
            flap_hz: flight.map_or(0.0, |f| f.beat),
            flap_angle: flight.map_or(0.0, |f| f.angle),
            flies: flight.is_some() as u32,
            walks: (self.crowd.is_some() && matches!(render, RenderMode::Mesh { .. })) as u32,
        }
    }

    /// The most extra pieces per span among the emitters drawn as ribbons; None without
    /// ribbons.
    pub(crate) fn ribbon_subdivisions(&self) -> Option<u32> {
        (0..self.emitters.len())
            .filter_map(|e| match self.emitters[e].render.unwrap_or(self.render) {
                RenderMode::Ribbon { subdivisions, .. } => Some(subdivisions),
                _ => None,
            })
            .max()
    }

    /// The image this effect's ribbons show (all its textured ribbons show one); None
    /// without textured ribbons.
    pub(crate) fn ribbon_image(&self) -> Option<crate::image::ImageId> {
        self.emitters
            .iter()
            .find_map(|e| match e.render.unwrap_or(self.render) {
                RenderMode::Ribbon {
                    texture: Some(t), ..
                } => Some(t.image),
                _ => None,
            })
    }

    /// The mesh this effect's mesh particles are (all its mesh emitters draw one); None
    /// without mesh particles.
    pub(crate) fn particle_mesh(&self) -> Option<MeshSource> {
        (0..self.emitters.len()).find_map(|e| {
            match self.emitters[e].render.unwrap_or(self.render) {
                RenderMode::Mesh { mesh, .. } => Some(mesh),
                _ => None,
            }
        })
    }

    /// The massive bodies' initial state.
    pub(crate) fn initial_bodies(&self) -> Vec<Body> {
        self.bodies.as_ref().map_or_else(Vec::new, |b| {
            b.bodies
                .iter()
                .map(|d| Body {
                    pos: d.pos.into(),
                    mass: d.mass,
                    vel: d.vel.into(),
                    softening: d.softening,
                })
                .collect()
        })
    }

    /// A flock's steering on the GPU (None without a flock).
    pub(crate) fn flock_params(&self) -> Option<FlockParams> {
        let f = self.flock?;
        Some(FlockParams {
            separation: f.separation,
            separate: f.separate,
            align: f.align,
            cohere: f.cohere,
            roost: f.roost.center.into(),
            roost_radius: f.roost.radius,
            roost_pull: f.roost.pull,
            min_speed: f.speed.mean - f.speed.variance,
            max_speed: f.speed.mean + f.speed.variance,
            _pad0: 0,
        })
    }

    /// Per-effect GPU constants for a pool of `capacity` with random `seed`.
    pub(crate) fn effect_params(&self, seed: u32, capacity: u32) -> EffectParams {
        let (bounds_min, bounds_max, bounds_mode) = match self.bounds {
            None => (Vec3::ZERO, Vec3::ZERO, BOUNDS_NONE),
            Some(b) => {
                let mode = match b.on_exit {
                    OnExit::Kill => BOUNDS_KILL,
                    OnExit::Wrap => BOUNDS_WRAP,
                };
                (b.min.into(), b.max.into(), mode)
            }
        };
        let response = self.collision.map(|c| c.response);
        let (restitution, friction, settle_time) = match response {
            Some(Response::Bounce {
                restitution,
                friction,
            }) => (restitution, friction, 0.0),
            Some(Response::Settle { time }) => (0.0, 0.0, time),
            _ => (0.0, 0.0, 0.0),
        };
        let mut events = self.event_emitters();
        let (first, second) = (events.next(), events.next());
        EffectParams {
            gravity: self.forces.gravity.into(),
            drag: self.forces.drag,
            wind: self.forces.wind.into(),
            integrator: self.integrator.code(),
            bounds_min,
            bounds_mode,
            bounds_max,
            seed,
            light_wrap: self.lighting.map_or(UNLIT, |l| l.wrap),
            shadow_cells: self.shadows().map_or(0, |s| s.cells),
            shadow_strength: self.shadows().map_or(0.0, |s| s.strength),
            capacity,
            soft_distance: self.soft_distance,
            additive: (self.blend == Blend::Additive) as u32,
            collision: response.map_or(COLLIDE_NONE, |r| r.code()),
            restitution,
            friction,
            thickness: self.collision.map_or(0.0, |c| c.thickness),
            settle_time,
            body_g: self.bodies.as_ref().map_or(0.0, |b| b.g),
            body_count: self.bodies.as_ref().map_or(0, |b| b.bodies.len()) as u32,
            pass_accel: (self.self_gravity.is_some() || self.flock.is_some()) as u32,
            nbody_g: self.self_gravity.map_or(0.0, |n| n.g),
            nbody_mass: self.self_gravity.map_or(0.0, |n| n.mass),
            nbody_softening: self.self_gravity.map_or(1.0, |n| n.softening),
            hit_emitter: first.map_or(0, |(e, _)| e as u32),
            hit_count: first.map_or(0, |(_, n)| n),
            death_source: self.death_source().unwrap_or(NO_EMITTER),
            turbulence: self.forces.turbulence.map_or(0.0, |t| t.speed),
            turbulence_scale: self.forces.turbulence.map_or(1.0, |t| t.scale),
            follow_camera: self.bounds.is_some_and(|b| b.follow_camera) as u32,
            hit_emitter2: second.map_or(0, |(e, _)| e as u32),
            hit_count2: second.map_or(0, |(_, n)| n),
            trail_emitter: self.trail().map_or(0, |t| t.0),
            trail_source: self.trail().map_or(NO_EMITTER, |t| t.1),
            trail_every: self.trail().map_or(1.0, |t| t.2),
            looks: std::array::from_fn(|e| self.look_of(e)),
        }
    }

    /// Where the bounds and scheduled emitters are, relative to the world, for a camera at
    /// `eye`: its x and z when the bounds follow the camera, else zero.
    pub(crate) fn camera_offset(&self, eye: Vec3) -> Vec3 {
        match self.bounds {
            Some(b) if b.follow_camera => Vec3::new(eye.x, 0.0, eye.z),
            _ => Vec3::ZERO,
        }
    }

    /// This frame's emit uniforms for per-emitter `spawns` (already clamped), ids from
    /// `id_base` on, the scheduled emitters moved by `offset` ([`EffectDesc::camera_offset`])
    /// and carried by the host's transforms from the frame's start to its end (`motion`, per
    /// emitter; the identity past its end).
    #[cfg(test)]
    pub(crate) fn emit_uniforms(
        &self,
        spawns: &[Spawns],
        id_base: u32,
        offset: Vec3,
        motion: &[(glam::Mat4, glam::Mat4)],
        meshes: &MeshSet,
    ) -> EmitUniforms {
        let mut u = EmitUniforms::default();
        self.fill_emit_uniforms(&mut u, (spawns, id_base, offset, motion), meshes, true);
        u
    }

    /// [`EffectDesc::emit_uniforms`] written into `u` where it lies (2.3 KiB with every
    /// emitter's room, of which a frame writes and copies only the head and the emitters
    /// in use: what lies past them is never read). `whole`: every field of its emitters;
    /// else only the head and each emitter's spawns of the frame (its first
    /// [`crate::uniform_pages::EMITTER_SPAWNS`] bytes), the rest left as the last whole fill wrote it: where an
    /// emitter is, what it spawns and how (the same while the host neither places the
    /// effect again nor moves the camera it follows).
    pub(crate) fn fill_emit_uniforms(
        &self,
        u: &mut EmitUniforms,
        (spawns, id_base, offset, motion): (&[Spawns], u32, Vec3, &[(glam::Mat4, glam::Mat4)]),
        meshes: &MeshSet,
        whole: bool,
    ) {
        let count = self.emitters.len().min(MAX_EMITTERS);
        if whole {
            // (what it held before, up to the emitters in use, cleared: not moved about)
            let used = std::mem::offset_of!(EmitUniforms, emitters)
                + count * std::mem::size_of::<crate::types::EmitterParams>();
            bytemuck::bytes_of_mut(u)[..used].fill(0);
        }
        (u.emitter_count, u.id_base) = (count as u32, id_base);
        let mut first = 0u32;
        let emitters = self.emitters.iter().zip(spawns).take(MAX_EMITTERS);
        for (i, (slot, (e, s))) in u.emitters.iter_mut().zip(emitters).enumerate() {
            if whole {
                *slot = emitter_params(e, first, s.total(), meshes);
                (slot.start, slot.end) = motion.get(i).copied().unwrap_or_default();
                if e.trigger == Trigger::Schedule {
                    slot.p0 += offset.extend(0.0);
                    if slot.shape == SHAPE_BOX {
                        slot.p1 += offset.extend(0.0); // the box's max corner
                    }
                }
            } else {
                (slot.spawn_first, slot.spawn_count) = (first, s.total());
            }
            (slot.burst_count, slot.burst_at) = (s.burst, s.burst_at);
            first += s.total();
        }
        u.request = first;
    }
}

/// Emitter `e`'s GPU parameters; a mesh it names that `meshes` lacks (the renderer checks
/// first) spawns nothing but its centre.
fn emitter_params(
    e: &EmitterDesc,
    spawn_first: u32,
    spawn_count: u32,
    meshes: &MeshSet,
) -> EmitterParams {
    let (p0, p1) = match e.shape {
        Shape::Point(p) => (Vec3::from(p).extend(0.0), Vec4::ZERO),
        Shape::Box { min, max } => (Vec3::from(min).extend(0.0), Vec3::from(max).extend(0.0)),
        Shape::Sphere { center, radius, .. } => (Vec3::from(center).extend(radius), Vec4::ZERO),
        Shape::Disk {
            center,
            radius,
            normal,
        } => (
            Vec3::from(center).extend(radius),
            Vec3::from(normal).extend(0.0),
        ),
        // p0 = (normal, max radius), p1 = (thickness, body, 0, scale length)
        Shape::Galaxy {
            body,
            scale_length,
            max_radius,
            thickness,
            normal,
        } => (
            Vec3::from(normal).extend(max_radius),
            Vec4::new(thickness, body as f32, 0.0, scale_length),
        ),
        // p0 = (centre, 0), p1 = (first triangle, triangle count as bits, scale, 0)
        Shape::Mesh {
            mesh,
            center,
            scale,
        } => {
            let (first, count) = meshes.range(mesh).unwrap_or((0, 0));
            let bits = |n: u32| f32::from_bits(n);
            let p1 = Vec4::new(bits(first), bits(count), scale, 0.0);
            (Vec3::from(center).extend(0.0), p1)
        }
    };
    let (vel_mean, vel_var) = match e.velocity {
        Velocity::Linear { mean, variance } => (
            Vec3::from(mean).extend(0.0),
            Vec3::from(variance).extend(0.0),
        ),
        Velocity::Radial { speed } | Velocity::Normal { speed } => (
            Vec4::new(0.0, 0.0, 0.0, speed.mean),
            Vec4::new(0.0, 0.0, 0.0, speed.variance),
        ),
        // mean = (body, dispersion), var = (normal)
        Velocity::Orbit {
            body,
            normal,
            dispersion,
        } => (
            Vec4::new(body as f32, dispersion, 0.0, 0.0),
            Vec3::from(normal).extend(0.0),
        ),
    };
    EmitterParams {
        shape: e.shape.code(),
        spawn_first,
        spawn_count,
        velocity_mode: e.velocity.code(),
        p0,
        p1,
        vel_mean,
        vel_var,
        color_mean: e.color.mean.into(),
        color_var: e.color.variance.into(),
        life_size: Vec4::new(
            e.lifetime.mean,
            e.lifetime.variance,
            e.size.mean,
            e.size.variance,
        ),
        rot_spin: Vec4::new(
            e.rotation.mean,
            e.rotation.variance,
            e.spin.mean,
            e.spin.variance,
        ),
        ..Default::default()
    }
}

impl Shape {
    /// `SHAPE_*` of common.wgsl.
    fn code(self) -> u32 {
        match self {
            Shape::Point(_) => SHAPE_POINT,
            Shape::Box { .. } => SHAPE_BOX,
            Shape::Sphere { surface: false, .. } => SHAPE_SPHERE,
            Shape::Sphere { surface: true, .. } => SHAPE_SPHERE_SURFACE,
            Shape::Disk { .. } => SHAPE_DISK,
            Shape::Galaxy { .. } => SHAPE_EXP_DISK,
            Shape::Mesh { .. } => SHAPE_MESH,
        }
    }
}

impl Velocity {
    /// `VELOCITY_*` of common.wgsl.
    fn code(self) -> u32 {
        match self {
            Velocity::Linear { .. } => VELOCITY_LINEAR,
            Velocity::Radial { .. } => VELOCITY_RADIAL,
            Velocity::Orbit { .. } => VELOCITY_ORBIT,
            Velocity::Normal { .. } => VELOCITY_NORMAL,
        }
    }
}

impl RenderMode {
    /// `RENDER_*` of common.wgsl.
    fn code(self) -> u32 {
        match self {
            RenderMode::Billboard => RENDER_BILLBOARD,
            RenderMode::Upright => RENDER_UPRIGHT,
            RenderMode::Stretched { .. } => RENDER_STRETCHED,
            RenderMode::Tumbling => RENDER_TUMBLING,
            RenderMode::Flat => RENDER_FLAT,
            RenderMode::Ribbon { .. } => RENDER_RIBBON,
            RenderMode::Mesh { .. } => RENDER_MESH,
        }
    }
}

impl Sprite {
    /// `SPRITE_*` of common.wgsl.
    fn code(&self) -> u32 {
        match self {
            Sprite::Disc => SPRITE_DISC,
            Sprite::Snowflakes => SPRITE_SNOWFLAKE,
            Sprite::Ring => SPRITE_RING,
            Sprite::Image(_) => SPRITE_IMAGE,
        }
    }
}

impl Response {
    /// `COLLIDE_*` of common.wgsl.
    fn code(self) -> u32 {
        match self {
            Response::Bounce { .. } => COLLIDE_BOUNCE,
            Response::Kill => COLLIDE_KILL,
            Response::Settle { .. } => COLLIDE_SETTLE,
        }
    }
}

impl Integrator {
    /// `INTEGRATOR_*` of common.wgsl.
    fn code(self) -> u32 {
        match self {
            Integrator::ExplicitEuler => INTEGRATOR_EXPLICIT,
            Integrator::SymplecticEuler => INTEGRATOR_SYMPLECTIC,
        }
    }
}
