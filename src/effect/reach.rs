//! How far an effect's particles can get from where they are born, and for how long they
//! (and what they spawn) live: what bounds an effect in the world (`crate::visibility`).
//!
//! A bound, not an estimate. With drag k towards the wind w under gravity g, u = v − w
//! obeys u' = g − k·u, so over a time t a particle moves
//! x − x₀ = w·t + u₀·(1 − e^(−kt))/k + g·(t − (1 − e^(−kt))/k)/k,
//! the second factor at most t and the third at most t²/2 (without drag: v₀·t + g·t²/2, the
//! wind doing nothing). So it lies within its start speed plus the wind's (and
//! turbulence's) times its longest life T of a point on the segment to w·T, plus one on the
//! segment to g·T²/2 (a little more for the steps of symplectic Euler). What cannot be
//! bounded so (massive bodies, all-pairs gravity, flocks, stacks that move particles,
//! orbits) leaves the effect unbounded: always simulated, unless the host declares bounds.

use glam::Vec3;

use super::{EffectDesc, EmitterDesc, MeshSource, Shape, Trigger, Velocity, MAX_EMITTERS};
use crate::visibility::Aabb;

/// Where an effect's particles can be relative to where its scheduled emitters spawn.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Reach {
    /// Each scheduled emitter's spawn box in its own space (event emitters, and past the
    /// effect's emitters: None, their particles are born where their sources are). An
    /// inline array: every effect's is read every frame.
    pub spawn: [Option<Aabb>; MAX_EMITTERS],
    /// Where a particle's start velocity, or its ancestors', can carry it from its
    /// scheduled ancestor's birth (metres, in the emitters' space)...
    pub spread: Aabb,
    /// ... plus this many metres in any direction (the air, drawn size, shapes' offsets)...
    pub distance: f32,
    /// ... plus up to this many seconds² times the gravity...
    pub fall: f32,
    /// ... and up to this many seconds times the wind.
    pub drift: f32,
    /// Seconds from a scheduled particle's birth until the last of what it spawns can die.
    pub lifetime: f32,
    /// Where the effect's bounds hold the particles (a box that kills or wraps, not
    /// following the camera).
    pub confined: Option<Aabb>,
    /// A crowd's city: where its walkers are, whatever else.
    pub city: Option<Aabb>,
}

/// The reach of `desc` (validated); `mesh_radius` gives a mesh's bounding radius at scale
/// 1. None: its particles are not bounded.
pub(crate) fn reach(
    desc: &EffectDesc,
    mesh_radius: impl Fn(MeshSource) -> Option<f32>,
) -> Option<Reach> {
    let moved_by_others =
        desc.bodies.is_some() || desc.self_gravity.is_some() || desc.flock.is_some();
    let follows_camera = desc.bounds.is_some_and(|b| b.follow_camera);
    if moved_by_others || follows_camera {
        return None;
    }
    let city = match &desc.crowd {
        Some(crowd) => {
            let map = crowd.map().ok()?;
            let (w, h) = map.size();
            let [x, z] = map.origin();
            let far = Vec3::new(
                x + w as f32 * map.cell(),
                crowd.ground + 4.0,
                z + h as f32 * map.cell(),
            );
            Some(Aabb::new(Vec3::new(x, crowd.ground - 1.0, z), far).ok()?)
        }
        None => None,
    };
    let n = desc.emitters.len();
    let mut own = Vec::with_capacity(n);
    let mut spawn = [None; MAX_EMITTERS];
    for (k, e) in desc.emitters.iter().enumerate().take(MAX_EMITTERS) {
        let moved_by_stacks = !e.init.is_empty() || !e.update.is_empty();
        if moved_by_stacks && city.is_none() {
            return None;
        }
        let shape = shape_box(&e.shape, &mesh_radius)?;
        own.push(travel(desc, e)?);
        spawn[k] = match e.trigger {
            Trigger::Schedule => Some(shape),
            // born where its source is, offset by its shape (at a hit, its velocity is
            // turned to the surface's side: any way)
            _ => {
                if matches!(e.trigger, Trigger::OnHit { .. }) {
                    let spread = own.last_mut().expect("pushed");
                    spread.spread = Aabb::ball(Vec3::ZERO, spread.spread.farthest());
                }
                let offset = shape.min.abs().max(shape.max.abs()).length();
                own.last_mut().expect("pushed").distance += offset;
                None
            }
        };
    }
    let settle = match desc.collision.map(|c| c.response) {
        Some(super::Response::Settle { time }) => time,
        _ => 0.0,
    };
    let life = |e: &EmitterDesc| e.lifetime.mean + e.lifetime.variance + settle;
    // each emitter's reach and life from its scheduled ancestor: an event emitter's adds
    // its source's (a hit's source: any scheduled emitter); chains are at most n long
    let mut chain: Vec<Travel> = (0..n)
        .map(|k| Travel {
            life: life(&desc.emitters[k]),
            ..own[k]
        })
        .collect();
    for _ in 0..n {
        let before = chain.clone();
        let scheduled_most = (0..n)
            .filter(|&k| spawn[k].is_some())
            .map(|k| before[k])
            .fold(Travel::default(), Travel::most);
        for (k, e) in desc.emitters.iter().enumerate() {
            let source = match e.trigger {
                Trigger::Schedule => continue,
                Trigger::OnHit { .. } => scheduled_most,
                Trigger::OnDeath { of, .. } | Trigger::Trail { of, .. } => before[of as usize],
            };
            chain[k] = Travel {
                life: life(e),
                ..own[k]
            }
            .then(source);
        }
    }
    let most = chain.into_iter().fold(Travel::default(), Travel::most);
    let confined = desc
        .bounds
        .and_then(|b| Aabb::new(Vec3::from(b.min), Vec3::from(b.max)).ok());
    Some(Reach {
        spawn,
        spread: most.spread,
        distance: most.distance,
        fall: most.fall,
        drift: most.drift,
        lifetime: most.life,
        confined,
        city,
    })
}

impl Reach {
    /// Where particles born in `spawned` (world space) can be, under `gravity` and `wind`;
    /// `turned`: the most a transform the host set turns and scales emitters by (their
    /// velocities with them), so their spread is taken the same every way, that much larger.
    pub fn around(&self, spawned: Aabb, turned: Option<f32>, gravity: Vec3, wind: Vec3) -> Aabb {
        let spread = match turned {
            Some(scale) => Aabb::ball(Vec3::ZERO, self.spread.farthest() * scale),
            None => self.spread,
        };
        spawned
            .plus(spread)
            .swept(gravity * self.fall)
            .swept(wind * self.drift)
            .grown(self.distance)
    }
}

/// How far one particle (and its ancestors) can travel, and how long it lives.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Travel {
    /// Metres its start velocity carries it, each way.
    spread: Aabb,
    /// Metres in any direction.
    distance: f32,
    /// Seconds² times the gravity.
    fall: f32,
    /// Seconds times the wind.
    drift: f32,
    /// Seconds.
    life: f32,
}

impl Default for Travel {
    /// Nowhere, for no time.
    fn default() -> Self {
        Travel {
            spread: Aabb::ball(Vec3::ZERO, 0.0),
            distance: 0.0,
            fall: 0.0,
            drift: 0.0,
            life: 0.0,
        }
    }
}

impl Travel {
    /// This travel after `source`'s (a particle spawned where its source is).
    fn then(self, source: Travel) -> Travel {
        Travel {
            spread: self.spread.plus(source.spread),
            distance: self.distance + source.distance,
            fall: self.fall + source.fall,
            drift: self.drift + source.drift,
            life: self.life + source.life,
        }
    }

    /// At least as far as either, every way.
    fn most(self, other: Travel) -> Travel {
        Travel {
            spread: self.spread.union(other.spread),
            distance: self.distance.max(other.distance),
            fall: self.fall.max(other.fall),
            drift: self.drift.max(other.drift),
            life: self.life.max(other.life),
        }
    }
}

/// The box an emitter's shape spawns in, in the emitter's space (None: a galaxy disk,
/// whose body moves, or a mesh not known).
fn shape_box(shape: &Shape, mesh_radius: &impl Fn(MeshSource) -> Option<f32>) -> Option<Aabb> {
    Some(match *shape {
        Shape::Point(p) => Aabb::ball(p.into(), 0.0),
        Shape::Box { min, max } => Aabb::new(min.into(), max.into()).ok()?,
        Shape::Sphere { center, radius, .. } | Shape::Disk { center, radius, .. } => {
            Aabb::ball(center.into(), radius)
        }
        Shape::Galaxy { .. } => return None,
        Shape::Mesh {
            mesh,
            center,
            scale,
        } => Aabb::ball(center.into(), mesh_radius(mesh)? * scale),
    })
}

/// How far one particle of `e` can get from its birth over its longest life, with its
/// drawn size (None: an orbit, which massive bodies keep).
fn travel(desc: &EffectDesc, e: &EmitterDesc) -> Option<Travel> {
    let t = e.lifetime.mean + e.lifetime.variance;
    // every start velocity times 0 to t seconds
    let spread = match e.velocity {
        Velocity::Linear { mean, variance } => {
            let (mean, variance) = (Vec3::from(mean), Vec3::from(variance));
            let (slow, fast) = ((mean - variance) * t, (mean + variance) * t);
            Aabb {
                min: slow.min(Vec3::ZERO),
                max: fast.max(Vec3::ZERO),
            }
        }
        Velocity::Radial { speed } | Velocity::Normal { speed } => {
            Aabb::ball(Vec3::ZERO, (speed.mean.abs() + speed.variance) * t)
        }
        Velocity::Orbit { .. } => return None,
    };
    let f = &desc.forces;
    // without drag the air does nothing
    let dragged = f.drag > 0.0;
    let air = match dragged {
        true => Vec3::from(f.wind).length() + f.turbulence.map_or(0.0, |t| t.speed),
        false => 0.0,
    };
    let size_end = e.over_life.unwrap_or(desc.over_life).size_end.max(1.0);
    let size = (e.size.mean + e.size.variance) * size_end;
    Some(Travel {
        spread,
        distance: air * t + size,
        // (symplectic Euler's steps of up to 0.1 s fall up to g·T·0.05 further)
        fall: 0.5 * t * (t + 0.1),
        drift: if dragged { t } else { 0.0 },
        life: t,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{Burst, Forces, Range};

    fn emitter(shape: Shape, velocity: Velocity, life: f32) -> EmitterDesc {
        EmitterDesc {
            shape,
            bursts: vec![Burst::once(0.0, 10)],
            velocity,
            lifetime: Range::constant(life),
            size: Range::constant(0.1),
            ..Default::default()
        }
    }

    #[test]
    fn a_particle_reaches_what_its_speed_and_gravity_carry_it_over_its_life() {
        let up = Velocity::Linear {
            mean: [0.0, 3.0, 0.0],
            variance: [0.0, 0.0, 4.0],
        };
        let desc = EffectDesc {
            emitters: vec![emitter(Shape::Point([1.0, 0.0, 0.0]), up, 2.0)],
            forces: Forces {
                gravity: [0.0, -10.0, 0.0],
                ..Forces::NONE
            },
            ..Default::default()
        };
        let r = reach(&desc, |_| None).unwrap();
        // its start velocities for 0 to 2 s, its size any way, and down ½·2·(2 + 0.1) s² of
        // gravity
        assert_eq!(
            r.spread,
            Aabb {
                min: Vec3::new(0.0, 0.0, -8.0),
                max: Vec3::new(0.0, 6.0, 8.0)
            }
        );
        assert!((r.distance - 0.1).abs() < 1e-6, "{}", r.distance);
        assert!((r.fall - 2.1).abs() < 1e-6, "{}", r.fall);
        assert_eq!(r.drift, 0.0, "no drag: the air does nothing");
        assert_eq!(r.lifetime, 2.0);
        assert_eq!(r.spawn[0], Some(Aabb::ball(Vec3::X, 0.0)));
        let g = Vec3::new(0.0, -10.0, 0.0);
        let b = r.around(Aabb::ball(Vec3::X, 0.0), None, g, Vec3::ZERO);
        assert!(
            (b.max - Vec3::new(1.1, 6.1, 8.1)).abs().max_element() < 1e-5,
            "{b:?}"
        );
        assert!(
            (b.min - Vec3::new(0.9, -21.1, -8.1)).abs().max_element() < 1e-5,
            "{b:?}"
        );
        // turned by the host, the spread is the same every way; scaled, that much larger
        let turned = r.around(Aabb::ball(Vec3::X, 0.0), Some(1.0), g, Vec3::ZERO);
        assert!(
            (turned.max.x - (1.0 + 10.0 + 0.1)).abs() < 1e-5,
            "{turned:?}"
        );
        let scaled = r.around(Aabb::ball(Vec3::X, 0.0), Some(2.0), g, Vec3::ZERO);
        assert!(
            (scaled.max.x - (1.0 + 20.0 + 0.1)).abs() < 1e-5,
            "{scaled:?}"
        );
        // the fastest start, stepped by explicit Euler, stays inside
        let (mut x, mut v, dt) = (Vec3::X, Vec3::new(0.0, 3.0, 4.0), 0.01);
        for _ in 0..200 {
            x += v * dt;
            v += g * dt;
            assert!(x.cmpge(b.min).all() && x.cmple(b.max).all(), "{x}");
        }
    }

    #[test]
    fn what_a_death_spawns_reaches_on_from_where_its_source_died() {
        let still = Velocity::default();
        let mut sparks = emitter(
            Shape::Sphere {
                center: [0.0; 3],
                radius: 0.5,
                surface: false,
            },
            Velocity::Radial {
                speed: Range::constant(2.0),
            },
            1.0,
        );
        sparks.trigger = Trigger::OnDeath { of: 0, count: 4 };
        let rocket = emitter(
            Shape::Point([0.0; 3]),
            Velocity::Linear {
                mean: [0.0, 10.0, 0.0],
                variance: [0.0; 3],
            },
            3.0,
        );
        let desc = EffectDesc {
            emitters: vec![rocket, sparks, emitter(Shape::Point([0.0; 3]), still, 0.5)],
            forces: Forces::NONE,
            ..Default::default()
        };
        let r = reach(&desc, |_| None).unwrap();
        // the rocket's 30 m up, then the sparks' 2 m any way from its death, offset by
        // their shape (its box's corner, 0.87 m off), with both sizes
        let two = Vec3::splat(2.0);
        assert_eq!(
            r.spread,
            Aabb {
                min: -two,
                max: Vec3::new(0.0, 30.0, 0.0) + two
            }
        );
        let expected = 0.1 + 0.75f32.sqrt() + 0.1;
        assert!((r.distance - expected).abs() < 1e-4, "{}", r.distance);
        assert_eq!(r.lifetime, 4.0);
        assert_eq!(r.spawn[1], None);
    }

    #[test]
    fn what_others_move_is_not_bounded() {
        let orbit = Velocity::Orbit {
            body: 0,
            normal: [0.0, 1.0, 0.0],
            dispersion: 0.0,
        };
        let desc = EffectDesc {
            emitters: vec![emitter(Shape::Point([0.0; 3]), orbit, 1.0)],
            ..Default::default()
        };
        assert!(reach(&desc, |_| None).is_none());
        let mesh = Shape::Mesh {
            mesh: MeshSource::Cube,
            center: [0.0; 3],
            scale: 2.0,
        };
        let desc = EffectDesc {
            emitters: vec![emitter(mesh, Velocity::default(), 1.0)],
            forces: Forces::NONE,
            ..Default::default()
        };
        assert!(reach(&desc, |_| None).is_none(), "a mesh not known");
        let r = reach(&desc, |_| Some(0.9)).unwrap();
        assert_eq!(r.spawn[0], Some(Aabb::ball(Vec3::ZERO, 1.8)));
    }
}
