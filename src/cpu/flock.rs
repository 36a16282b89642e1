//! The CPU twin of flock.wgsl: the same steering, summed over every other bird (O(N²), for
//! tests of a few thousand) where the GPU visits the grid's cells.

use glam::Vec3;

use crate::types::FlockParams;

/// A bird as the steering sees it.
#[derive(Clone, Copy, Debug)]
pub struct Bird {
    pub pos: Vec3,
    pub vel: Vec3,
}

/// Each bird's steering acceleration over a step of `dt` seconds, with neighbours within
/// `radius` metres (as `main` in flock.wgsl).
pub fn steering(birds: &[Bird], params: &FlockParams, radius: f32, dt: f32) -> Vec<Vec3> {
    birds
        .iter()
        .enumerate()
        .map(|(i, b)| steer(i, b, birds, params, radius, dt))
        .collect()
}

fn steer(i: usize, b: &Bird, birds: &[Bird], f: &FlockParams, radius: f32, dt: f32) -> Vec3 {
    let (mut count, mut pos_sum, mut vel_sum, mut push) =
        (0.0f32, Vec3::ZERO, Vec3::ZERO, Vec3::ZERO);
    for (j, other) in birds.iter().enumerate() {
        let away = b.pos - other.pos;
        let d2 = away.dot(away);
        if j == i || d2 > radius * radius {
            continue;
        }
        count += 1.0;
        pos_sum += other.pos;
        vel_sum += other.vel;
        let d = d2.sqrt();
        if d < f.separation && d > 0.0 {
            push += away * ((1.0 - d / f.separation) / d);
        }
    }
    let heading = b.vel / b.vel.length().max(1e-6);
    let mut a = f.separate * push + f.roost_pull * (roost_heading(b.pos, f) - heading);
    if count > 0.0 {
        a += f.align * (vel_sum / count - b.vel) + f.cohere * (pos_sum / count - b.pos);
    }
    let dt = dt.max(1e-9);
    let next = b.vel + a * dt;
    let speed = next.length();
    let limited = if speed > 1e-9 {
        next * (speed.clamp(f.min_speed, f.max_speed) / speed)
    } else {
        Vec3::new(f.min_speed, 0.0, 0.0)
    };
    (limited - b.vel) / dt
}

/// Round the roost's circle, pulled onto it from afar (`roost_heading` in flock.wgsl).
pub fn roost_heading(x: Vec3, f: &FlockParams) -> Vec3 {
    let rel = x - f.roost;
    let flat = glam::Vec2::new(rel.x, rel.z);
    let d = flat.length();
    let radial = if d > 1e-6 { flat / d } else { glam::Vec2::X };
    let tangent = Vec3::new(-radial.y, 0.0, radial.x);
    let ring = f.roost + Vec3::new(radial.x, 0.0, radial.y) * f.roost_radius;
    let off = ring - x;
    let band = 0.25 * f.roost_radius;
    let beyond = (off.length() - band).max(0.0) / (off.length().max(1e-6) * f.roost_radius);
    let heading = tangent + off * beyond;
    heading / heading.length().max(1e-6)
}
