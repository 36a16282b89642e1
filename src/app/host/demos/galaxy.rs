//! Two disk galaxies in a parabolic encounter (Toomre & Toomre 1972): two massive,
//! softened cores pull on each other and on massless tracer stars that start on circular
//! orbits in exponential disks; the close passage throws out tidal tails and a bridge.
//! Units: G = 1, lengths in disk scale lengths, one frame = 0.02 time units.

use flurry::glam::Vec3;

use flurry::effect::*;
use flurry::Camera;

/// Masses of the two cores.
const MASSES: [f32; 2] = [1.0, 0.7];
/// Distance of closest approach of the parabolic orbit, and the starting separation.
pub const PERICENTRE: f32 = 1.6;
pub const START: f32 = 5.0;
const SOFTENING: f32 = 0.12;

/// Positions and velocities of the two cores on a parabolic orbit (zero energy) in the
/// x-z plane, centre of mass at rest at the origin.
pub fn cores(g: f32, masses: [f32; 2], start: f32, pericentre: f32) -> [(Vec3, Vec3); 2] {
    let m = masses[0] + masses[1];
    let speed = (2.0 * g * m / start).sqrt();
    // angular momentum of a parabola with pericentre q: h = sqrt(2 G M q)
    let tangential = (2.0 * g * m * pericentre).sqrt() / start;
    let radial = -(speed * speed - tangential * tangential).max(0.0).sqrt();
    let rel_pos = Vec3::new(start, 0.0, 0.0);
    let rel_vel = Vec3::new(radial, 0.0, tangential);
    let (f0, f1) = (masses[1] / m, masses[0] / m);
    [(-rel_pos * f0, -rel_vel * f0), (rel_pos * f1, rel_vel * f1)]
}

fn population(
    body: u32,
    count: u32,
    scale_length: f32,
    max_radius: f32,
    thickness: f32,
    normal: [f32; 3],
    rgb: [f32; 3],
) -> EmitterDesc {
    EmitterDesc {
        shape: Shape::Galaxy {
            body,
            scale_length,
            max_radius,
            thickness,
            normal,
        },
        bursts: vec![Burst::once(0.0, count)],
        velocity: Velocity::Orbit {
            body,
            normal,
            dispersion: 0.01,
        },
        lifetime: Range::constant(1e6),
        size: Range::new(0.05, 0.02),
        color: ColorRange::new([rgb[0], rgb[1], rgb[2], 0.3], [0.08, 0.08, 0.08, 0.15]),
        ..Default::default()
    }
}

pub fn effect(capacity: u32) -> EffectDesc {
    effect_with(capacity, 2)
}

/// Most galaxies in one effect (two emitters each).
pub const MAX_GALAXIES: u32 = 4;

/// `galaxies` disk galaxies (1..=4): two meet on the parabolic orbit; one sits alone; more
/// start on a ring, falling together with a little swirl.
pub fn effect_with(capacity: u32, galaxies: u32) -> EffectDesc {
    if galaxies != 2 {
        return group(capacity, galaxies.clamp(1, MAX_GALAXIES));
    }
    let [(p0, v0), (p1, v1)] = cores(1.0, MASSES, START, PERICENTRE);
    let body = |p: Vec3, v: Vec3, mass| BodyDesc {
        pos: p.to_array(),
        vel: v.to_array(),
        mass,
        softening: SOFTENING,
    };
    let share = |f: f32| ((capacity as f32 * f) as u32).max(1);
    // the first disk lies in the orbital plane (a prograde passage: long tails), the
    // second is tilted
    let flat = [0.0, 1.0, 0.0];
    let tilted = [0.35, 0.9, -0.25];
    let blue = [0.55, 0.7, 1.0];
    let yellow = [1.0, 0.82, 0.5];
    EffectDesc {
        name: "galaxy".into(),
        emitters: vec![
            population(0, share(0.45), 0.55, 2.6, 0.06, flat, blue),
            population(0, share(0.15), 0.12, 0.6, 0.15, flat, yellow),
            population(1, share(0.30), 0.45, 2.0, 0.05, tilted, blue),
            population(1, share(0.10), 0.1, 0.5, 0.12, tilted, yellow),
        ],
        forces: Forces::NONE,
        // explicit Euler gains energy on orbits; the galaxy uses the symplectic option
        integrator: Integrator::SymplecticEuler,
        blend: Blend::Additive,
        bodies: Some(Bodies {
            g: 1.0,
            bodies: vec![body(p0, v0, MASSES[0]), body(p1, v1, MASSES[1])],
        }),
        ..Default::default()
    }
}

pub fn camera(aspect: f32) -> Camera {
    let mut c = Camera::look_at(Vec3::new(0.0, 11.0, 8.0), Vec3::new(0.0, 0.0, 0.5), aspect);
    c.near = 0.02;
    c
}

fn group(capacity: u32, galaxies: u32) -> EffectDesc {
    let mut e = effect_with(capacity, 2);
    let per = capacity / galaxies;
    let mut bodies = vec![];
    let mut emitters = vec![];
    for k in 0..galaxies {
        let angle = std::f32::consts::TAU * k as f32 / galaxies as f32;
        let radius = if galaxies == 1 { 0.0 } else { START * 0.7 };
        let pos = Vec3::new(angle.cos(), 0.0, angle.sin()) * radius;
        let swirl = Vec3::new(-angle.sin(), 0.0, angle.cos()) * 0.15 * (galaxies > 1) as u32 as f32;
        bodies.push(BodyDesc {
            pos: pos.to_array(),
            vel: swirl.to_array(),
            mass: 1.0,
            softening: SOFTENING,
        });
        let normal = [0.3 * angle.sin(), 1.0, 0.3 * angle.cos()];
        emitters.push(population(
            k,
            (per * 3 / 4).max(1),
            0.5,
            2.2,
            0.05,
            normal,
            [0.55, 0.7, 1.0],
        ));
        emitters.push(population(
            k,
            (per / 4).max(1),
            0.12,
            0.5,
            0.12,
            normal,
            [1.0, 0.82, 0.5],
        ));
    }
    e.emitters = emitters;
    e.bodies = Some(Bodies { g: 1.0, bodies });
    e
}

/// N-body mode: two star clusters of equal mass falling together under their own all-pairs
/// gravity (at most 65,536 stars; G = 1, total mass 1).
pub fn nbody_effect(capacity: u32) -> EffectDesc {
    let n = capacity.min(MAX_NBODY);
    let cluster = |center: [f32; 3], drift: [f32; 3], rgb: [f32; 3]| EmitterDesc {
        shape: Shape::Sphere {
            center,
            radius: 1.0,
            surface: false,
        },
        bursts: vec![Burst::once(0.0, (n / 2).max(1))],
        velocity: Velocity::Linear {
            mean: drift,
            variance: [0.15; 3],
        },
        lifetime: Range::constant(1e6),
        size: Range::new(0.05, 0.02),
        color: ColorRange::new([rgb[0], rgb[1], rgb[2], 0.4], [0.08, 0.08, 0.08, 0.1]),
        ..Default::default()
    };
    let mut e = effect(capacity);
    e.name = "nbody".into();
    e.emitters = vec![
        cluster([-1.8, 0.0, -0.6], [0.25, 0.0, 0.12], [1.0, 0.82, 0.5]),
        cluster([1.8, 0.0, 0.6], [-0.25, 0.0, -0.12], [0.55, 0.7, 1.0]),
    ];
    e.bodies = None;
    e.self_gravity = Some(SelfGravity {
        g: 1.0,
        mass: 1.0 / n as f32,
        softening: 0.05,
    });
    e
}
