//! The rules `docs/expressions.md` states about stacks, each a test named after it, run on
//! the GPU: a pool held at rest, its stacks writing what they read into the velocity, read
//! back after a few steps.

use glam::Vec3;

use super::{held, still, Solo};
use crate::effect::*;
use crate::Camera;

fn lines(v: &[&str]) -> Vec<crate::expr::Statement> {
    v.iter().map(|l| l.parse().unwrap()).collect()
}

/// 64 particles born at the origin at t = 0, living 100 s, with `init`, `update` and
/// `draw` stacks and the node `entered` (the velocity's x), run 3 frames; their
/// velocities, and the snapshot's particles.
fn run(init: &[&str], update: &[&str], draw: &[&str]) -> Vec<crate::Particle> {
    let mut emitter = held(Shape::Point([0.0; 3]), 64);
    emitter.init = lines(init);
    emitter.update = lines(update);
    emitter.draw = lines(draw);
    let mut desc = still("rules", vec![emitter]);
    desc.nodes
        .insert("entered".into(), "velocity.x".parse().unwrap());
    let mut solo = Solo::new(&desc, 256, 7);
    let camera = Camera::look_at(Vec3::new(0.0, 0.0, 5.0), Vec3::ZERO, 1.0);
    for _ in 0..3 {
        solo.frame(1.0 / 60.0, &camera);
    }
    let snap = solo.snapshot();
    assert_eq!(snap.alive.len(), 64);
    snap.alive
        .iter()
        .map(|&i| snap.particles[i as usize])
        .collect()
}

/// "Each line reads what the lines before it wrote."
#[test]
fn each_line_reads_what_the_lines_before_it_wrote() {
    let update = [
        "velocity = vec3(1.0, 2.0, 3.0)",
        "velocity += velocity",
        "velocity *= vec3(1.0, 0.5, 1.0)",
    ];
    for p in run(&[], &update, &[]) {
        assert_eq!(p.vel, Vec3::new(2.0, 2.0, 6.0));
    }
}

/// "Nodes read the particle as it entered the stack": a node read after a line that
/// changed the velocity still reads the velocity the step began with.
#[test]
fn nodes_read_the_particle_as_it_entered_the_stack() {
    let update = [
        "velocity = vec3(velocity.x + 1.0, 0.0, 0.0)",
        "velocity = vec3(velocity.x, entered, 0.0)",
    ];
    for p in run(&[], &update, &[]) {
        assert!(p.vel.x >= 1.0, "{}", p.vel);
        assert_eq!(
            p.vel.y,
            p.vel.x - 1.0,
            "entered, not as the first line left it"
        );
    }
}

/// "The draw stage never changes the particle": the update reads the size the particle
/// was born with, whatever the draw stage makes of it.
#[test]
fn the_draw_stage_never_changes_the_particle() {
    let update = ["velocity = vec3(size, color.a, 0.0)"];
    let draw = ["size = 100.0", "alpha = 0.25", "size *= 2.0"];
    for p in run(&["size = 0.5"], &update, &draw) {
        assert_eq!(p.vel.x, 0.5, "the particle's own size");
        assert!(p.vel.y > 0.99, "the particle's own alpha, {}", p.vel.y);
    }
}

/// "`rand()` is new at every evaluation and call; `particle_rand(k)` is the same for a
/// particle's whole life."
#[test]
fn rand_differs_at_every_call_and_particle_rand_never_changes() {
    let init = ["rotation = particle_rand(3)"];
    let update = ["velocity = vec3(rand(), rand(), particle_rand(3))"];
    let ps = run(&init, &update, &[]);
    for p in &ps {
        assert_ne!(p.vel.x, p.vel.y, "two calls, two numbers");
        assert_eq!(p.vel.z, p.rotation, "the same stream, born and stepping");
    }
    // and each particle draws its own
    let distinct: std::collections::HashSet<u32> = ps.iter().map(|p| p.vel.z.to_bits()).collect();
    assert!(distinct.len() > 60, "{} distinct of 64", distinct.len());
}

/// "Folding changes nothing but speed": a force the compiler folds into the effect's
/// gravity and the same force written so that it cannot be folded (it reads the particle's
/// age) give the same pool.
#[test]
fn folding_changes_nothing_but_speed() {
    let folded = run(&[], &["force += vec3(0.5, -2.0, 0.0)"], &[]);
    let kept = run(
        &[],
        &["force += vec3(0.5, -2.0, 0.0) * select(1.0, 3.0, age < 0.0)"],
        &[],
    );
    for (a, b) in folded.iter().zip(&kept) {
        assert!(a.vel.y < -0.05, "the force acted: {}", a.vel);
        assert!(
            (a.vel - b.vel).length() < 1e-6,
            "{} against {}",
            a.vel,
            b.vel
        );
        assert!(
            (a.pos - b.pos).length() < 1e-6,
            "{} against {}",
            a.pos,
            b.pos
        );
    }
}
