//! Validation of an [`EffectDesc`], section by section: every value out of range becomes an
//! [`Invalid`] naming its field path (`emitters[0].lifetime`), the value and what is allowed.

use glam::Vec3;

use super::schema::*;
use super::{FrameTiming, MAX_BODIES, MAX_EMITTERS, MAX_EVENT_SPAWN, MAX_SUBDIVISIONS};
use crate::error::Invalid;

/// Every out-of-range field of `desc`.
pub(crate) fn problems(desc: &EffectDesc) -> Vec<Invalid> {
    check(desc).problems
}

/// Every number of `desc` that validation checks against a range, with that range.
pub(crate) fn field_ranges(desc: &EffectDesc) -> Vec<FieldRange> {
    check(desc).ranges
}

/// `desc` checked field by field.
fn check(desc: &EffectDesc) -> Checker {
    let mut v = Checker::default();
    let n = desc.emitters.len();
    if n == 0 || n > MAX_EMITTERS {
        let allowed = format!("1..={MAX_EMITTERS} emitters");
        v.fail("emitters", format!("{n} emitters"), allowed);
    }
    let bodies = desc.bodies.as_ref().map_or(0, |b| b.bodies.len()) as u32;
    for (i, e) in desc.emitters.iter().enumerate() {
        let at = |name: &str| format!("emitters[{i}].{name}");
        shape(&mut v, &at, e.shape, bodies);
        velocity(&mut v, &at, e.velocity, bodies);
        let has_normal = matches!(
            e.shape,
            Shape::Mesh { .. } | Shape::Sphere { .. } | Shape::Disk { .. }
        );
        if matches!(e.velocity, Velocity::Normal { .. }) && !has_normal {
            let allowed = "Normal with a Mesh, Sphere or Disk shape (one with a surface normal)";
            v.fail(&at("velocity"), "Normal", allowed);
        }
        schedule(&mut v, &at, e);
        attributes(&mut v, &at, e);
        v.range(&at("emission"), e.emission, 0.0, 1e3, "0..=1000");
        if let Some(render) = e.render {
            render_mode(&mut v, &at("render"), render);
        }
        let ribbon = matches!(e.render.unwrap_or(desc.render), RenderMode::Ribbon { .. });
        let ordered = matches!(e.trigger, Trigger::Schedule | Trigger::Trail { .. });
        if ribbon && !ordered {
            let allowed = "Schedule or Trail for a ribbon's points (joined in the order laid)";
            v.fail(&at("trigger"), format!("{:?}", e.trigger), allowed);
        }
    }
    forces(&mut v, &desc.forces);
    if let Some(b) = &desc.bounds {
        v.vec("bounds.min", b.min);
        v.vec("bounds.max", b.max);
        v.ordered("bounds", b.min, b.max);
    }
    looks(&mut v, desc);
    mesh_particles(&mut v, desc);
    ribbon_images(&mut v, desc);
    image_sprites(&mut v, desc);
    neighbours(&mut v, desc.neighbours);
    if let Some(f) = &desc.flock {
        flock(&mut v, f, desc);
    }
    if let Some(c) = &desc.crowd {
        super::crowd::check(&mut v, c, desc);
    }
    v.range(
        "soft_distance",
        desc.soft_distance,
        0.0,
        1e3,
        "0..=1000 metres",
    );
    if let Some(c) = &desc.collision {
        collision(&mut v, c);
    }
    if let Some(l) = &desc.lighting {
        v.range("lighting.wrap", l.wrap, 0.0, 1.0, "0..=1");
        if let Some(s) = &l.shadows {
            if !(4..=64).contains(&s.cells) {
                v.fail("lighting.shadows.cells", s.cells, "4..=64 cells a side");
            }
            v.range(
                "lighting.shadows.strength",
                s.strength,
                0.0,
                100.0,
                "0..=100",
            );
        }
    }
    gravity(&mut v, desc);
    triggers(&mut v, desc);
    declarations(&mut v, desc);
    v
}

/// The graph's declarations: parameters (how many, their bounds and defaults), curves' and
/// gradients' keys. (Its expressions are checked when the graph compiles.)
fn declarations(v: &mut Checker, desc: &EffectDesc) {
    let n = desc.parameters.len();
    if n > super::MAX_PARAMETERS {
        let allowed = format!("at most {} parameters", super::MAX_PARAMETERS);
        v.fail("parameters", format!("{n} parameters"), allowed);
    }
    for (name, p) in &desc.parameters {
        let at = |f: &str| format!("parameters.{name}.{f}");
        for (field, bound) in [("min", p.min), ("max", p.max)] {
            if let Some(b) = bound.filter(|b| !b.is_finite()) {
                v.fail(&at(field), b, "a finite number");
            }
        }
        let ordered = match (p.min, p.max) {
            (Some(lo), Some(hi)) if lo > hi => {
                v.fail(&at("max"), hi, format!("at least min ({lo})"));
                false
            }
            _ => true,
        };
        // (bounds the wrong way round admit nothing: said once, above)
        if ordered && !p.admits(p.default) {
            v.fail(&at("default"), p.default, p.allowed());
        }
    }
    let words: usize = desc.attributes.values().map(|v| v.ty().components()).sum();
    if words > super::MAX_ATTRIBUTE_WORDS {
        let allowed = format!(
            "at most {} components in all (a vec3 takes three)",
            super::MAX_ATTRIBUTE_WORDS
        );
        v.fail("attributes", format!("{words} components"), allowed);
    }
    for (name, initial) in &desc.attributes {
        let n = initial.ty().components();
        if initial.ty().is_float() && !initial.components()[..n].iter().all(|c| c.is_finite()) {
            v.fail(&format!("attributes.{name}"), initial, "finite components");
        }
    }
    for (name, c) in &desc.curves {
        if let Err(e) = c.check() {
            v.fail(
                &format!("curves.{name}.keys"),
                e,
                "at least one key, in ascending positions, all finite",
            );
        }
    }
    for (name, g) in &desc.gradients {
        if let Err(e) = g.check() {
            v.fail(
                &format!("gradients.{name}.keys"),
                e,
                "at least one key, in ascending positions, all finite",
            );
        }
    }
}

/// Where an emitter spawns; `bodies`: how many massive bodies a galaxy disk may name.
fn shape(v: &mut Checker, at: &dyn Fn(&str) -> String, shape: Shape, bodies: u32) {
    match shape {
        Shape::Point(p) => v.vec(&at("shape.Point"), p),
        Shape::Box { min, max } => {
            v.vec(&at("shape.Box.min"), min);
            v.vec(&at("shape.Box.max"), max);
            v.ordered(&at("shape.Box"), min, max);
        }
        Shape::Sphere { center, radius, .. } => {
            v.vec(&at("shape.Sphere.center"), center);
            v.range(
                &at("shape.Sphere.radius"),
                radius,
                0.0,
                1e6,
                "0..=1e6 metres",
            );
        }
        Shape::Disk {
            center,
            radius,
            normal,
        } => {
            v.vec(&at("shape.Disk.center"), center);
            v.range(&at("shape.Disk.radius"), radius, 0.0, 1e6, "0..=1e6 metres");
            v.direction(&at("shape.Disk.normal"), normal);
        }
        Shape::Galaxy {
            body,
            scale_length,
            max_radius,
            thickness,
            normal,
        } => {
            v.body_index(&at("shape.Galaxy.body"), body, bodies);
            let metres = "1e-4..=1e6 metres";
            v.range(
                &at("shape.Galaxy.scale_length"),
                scale_length,
                1e-4,
                1e6,
                metres,
            );
            v.range(
                &at("shape.Galaxy.max_radius"),
                max_radius,
                1e-4,
                1e6,
                metres,
            );
            v.range(
                &at("shape.Galaxy.thickness"),
                thickness,
                0.0,
                1e6,
                "0..=1e6 metres",
            );
            v.direction(&at("shape.Galaxy.normal"), normal);
        }
        // whether a Host mesh exists is the renderer's to check (it holds them)
        Shape::Mesh { center, scale, .. } => {
            v.vec(&at("shape.Mesh.center"), center);
            v.range(&at("shape.Mesh.scale"), scale, 1e-6, 1e6, "1e-6..=1e6");
        }
    }
}

fn velocity(v: &mut Checker, at: &dyn Fn(&str) -> String, velocity: Velocity, bodies: u32) {
    match velocity {
        Velocity::Linear { mean, variance } => {
            v.vec(&at("velocity.Linear.mean"), mean);
            v.nonneg_vec(&at("velocity.Linear.variance"), variance);
        }
        Velocity::Radial { speed } => v.scalar(&at("velocity.Radial.speed"), speed),
        Velocity::Normal { speed } => v.scalar(&at("velocity.Normal.speed"), speed),
        Velocity::Orbit {
            body,
            normal,
            dispersion,
        } => {
            v.body_index(&at("velocity.Orbit.body"), body, bodies);
            v.direction(&at("velocity.Orbit.normal"), normal);
            v.range(
                &at("velocity.Orbit.dispersion"),
                dispersion,
                0.0,
                1e6,
                "0..=1e6 m/s",
            );
        }
    }
}

/// The rate and the bursts.
fn schedule(v: &mut Checker, at: &dyn Fn(&str) -> String, e: &EmitterDesc) {
    v.range(
        &at("rate"),
        e.rate,
        0.0,
        1e9,
        "0..=1e9 particles per second",
    );
    for (b, burst) in e.bursts.iter().enumerate() {
        let field = |name: &str| at(&format!("bursts[{b}].{name}"));
        v.range(&field("time"), burst.time, 0.0, 1e9, "0..=1e9 seconds");
        if let Some(every) = burst.every {
            v.range(&field("every"), every, 1e-3, 1e9, "1e-3..=1e9 seconds");
        }
    }
}

/// What each new particle is given: lifetime, size, colour, rotation, spin.
fn attributes(v: &mut Checker, at: &dyn Fn(&str) -> String, e: &EmitterDesc) {
    v.scalar(&at("lifetime"), e.lifetime);
    let (mean, variance) = (e.lifetime.mean, e.lifetime.variance);
    if mean.is_finite() && variance.is_finite() && mean - variance <= 0.0 {
        v.fail(
            &at("lifetime"),
            format!("{mean} ± {variance}"),
            "mean - variance > 0 seconds (every particle must live)",
        );
    }
    v.range(&at("size.mean"), e.size.mean, 0.0, 1e6, "0..=1e6 metres");
    v.variance(&at("size.variance"), e.size.variance);
    for c in 0..4 {
        let (mean, variance) = (e.color.mean[c], e.color.variance[c]);
        v.range(&at(&format!("color.mean[{c}]")), mean, 0.0, 1.0, "0..=1");
        v.range(
            &at(&format!("color.variance[{c}]")),
            variance,
            0.0,
            1.0,
            "0..=1",
        );
    }
    v.scalar(&at("rotation"), e.rotation);
    v.scalar(&at("spin"), e.spin);
}

fn render_mode(v: &mut Checker, field: &str, render: RenderMode) {
    match render {
        RenderMode::Stretched { seconds } => {
            let field = format!("{field}.Stretched.seconds");
            v.range(&field, seconds, 0.0, 10.0, "0..=10 seconds");
        }
        RenderMode::Ribbon {
            subdivisions,
            texture,
        } => {
            if subdivisions > MAX_SUBDIVISIONS {
                let field = format!("{field}.Ribbon.subdivisions");
                v.fail(&field, subdivisions, format!("0..={MAX_SUBDIVISIONS}"));
            }
            if let Some(t) = texture {
                let field = format!("{field}.Ribbon.texture.repeats");
                v.range(&field, t.repeats, 0.01, 1e3, "0.01..=1000");
            }
        }
        RenderMode::Mesh {
            flight: Some(f), ..
        } => {
            let at = |name: &str| format!("{field}.Mesh.flight.{name}");
            v.range(&at("beat"), f.beat, 0.0, 100.0, "0..=100 per second");
            v.range(&at("angle"), f.angle, 0.0, 1.5, "0..=1.5 radians");
        }
        _ => {}
    }
}

fn neighbours(v: &mut Checker, radius: Option<f32>) {
    if let Some(r) = radius {
        v.range("neighbours", r, 0.01, 1e3, "0.01..=1000 m");
    }
}

fn flock(v: &mut Checker, f: &Flock, desc: &EffectDesc) {
    let Some(radius) = desc.neighbours else {
        let allowed = "a flock with `neighbours: Some(radius)` (whom each particle steers by)";
        v.fail("flock", "without neighbours", allowed);
        return;
    };
    if desc.self_gravity.is_some() {
        v.fail(
            "flock",
            "with self_gravity",
            "a flock or self_gravity, not both",
        );
    }
    // (a radius out of its own range is reported as such, not through the separation)
    if (0.01..=1e3).contains(&radius) {
        let within = format!("0.001..={radius} m (the neighbours radius)");
        v.range("flock.separation", f.separation, 1e-3, radius, &within);
    }
    v.range("flock.separate", f.separate, 0.0, 1e4, "0..=10000 m/s²");
    v.range("flock.align", f.align, 0.0, 1e3, "0..=1000 per second");
    v.range("flock.cohere", f.cohere, 0.0, 1e3, "0..=1000 per second²");
    v.vec("flock.roost.center", f.roost.center);
    v.range(
        "flock.roost.radius",
        f.roost.radius,
        0.01,
        1e6,
        "0.01..=1e6 m",
    );
    v.range("flock.roost.pull", f.roost.pull, 0.0, 1e4, "0..=10000 m/s²");
    let (lo, hi) = (
        f.speed.mean - f.speed.variance,
        f.speed.mean + f.speed.variance,
    );
    v.range(
        "flock.speed.variance",
        f.speed.variance,
        0.0,
        1e4,
        "0..=10000 m/s",
    );
    v.range("flock.speed.mean", f.speed.mean, 0.0, 1e4, "0..=10000 m/s");
    if lo < 0.0 || hi > 1e4 {
        let value = format!("{lo}..={hi} m/s");
        v.fail("flock.speed", value, "a range within 0..=10000 m/s");
    }
}

fn forces(v: &mut Checker, forces: &Forces) {
    v.vec("forces.gravity", forces.gravity);
    v.vec("forces.wind", forces.wind);
    if let Some(t) = forces.turbulence {
        let (speed, scale) = ("forces.turbulence.speed", "forces.turbulence.scale");
        v.range(speed, t.speed, 0.0, 100.0, "0..=100 m/s");
        v.range(scale, t.scale, 0.01, 1e4, "0.01..=10000 m");
    }
    v.range("forces.drag", forces.drag, 0.0, 1e3, "0..=1000 per second");
}

/// Colour and size over life (the effect's and each emitter's own), the render mode.
fn looks(v: &mut Checker, desc: &EffectDesc) {
    let own = desc.emitters.iter().enumerate().filter_map(|(i, e)| {
        let o = e.over_life?;
        Some((format!("emitters[{i}].over_life"), o))
    });
    for (field, o) in std::iter::once(("over_life".to_string(), desc.over_life)).chain(own) {
        for c in 0..4 {
            let name = format!("{field}.color_end[{c}]");
            v.range(&name, o.color_end[c], 0.0, 1e3, "0..=1000");
        }
        v.range(
            &format!("{field}.size_end"),
            o.size_end,
            0.0,
            1e3,
            "0..=1000",
        );
    }
    render_mode(v, "render", desc.render);
}

/// An effect's ribbons show one image (its ribbons are one draw).
fn ribbon_images(v: &mut Checker, desc: &EffectDesc) {
    let Some(first) = desc.ribbon_image() else {
        return;
    };
    for (i, e) in desc.emitters.iter().enumerate() {
        if let RenderMode::Ribbon {
            texture: Some(t), ..
        } = e.render.unwrap_or(desc.render)
        {
            if t.image != first {
                let allowed = format!(
                    "{}, the image of the effect's first textured ribbon",
                    first.0
                );
                v.fail(
                    &format!("emitters[{i}].render.Ribbon.texture.image"),
                    t.image.0,
                    allowed,
                );
            }
        }
    }
}

/// Most frames across or down a flipbook's sheet.
pub(crate) const MAX_FLIPBOOK_SIDE: u32 = 64;

/// Most frames in a flipbook's sheet: each is a layer of the renderer's image array, which
/// holds 256 layers on every WebGPU device (a sheet of more passed the file's checks and
/// was then refused by the renderer).
pub(crate) const MAX_FLIPBOOK_FRAMES: u32 = 256;

/// Flipbooks' sheets and timing.
fn image_sprites(v: &mut Checker, desc: &EffectDesc) {
    for (field, sprite) in desc.image_sprites() {
        let Some(f) = sprite.flipbook else {
            continue;
        };
        let at = |name: &str| format!("{field}.flipbook.{name}");
        let side = 1..=MAX_FLIPBOOK_SIDE;
        for (name, n) in [("columns", f.columns), ("rows", f.rows)] {
            if !side.contains(&n) {
                v.fail(&at(name), n, format!("1..={MAX_FLIPBOOK_SIDE} frames"));
            }
        }
        let grid = f.columns.saturating_mul(f.rows);
        if grid > MAX_FLIPBOOK_FRAMES && side.contains(&f.columns) && side.contains(&f.rows) {
            let value = format!("{} × {} = {grid} frames", f.columns, f.rows);
            let allowed = format!(
                "at most {MAX_FLIPBOOK_FRAMES} frames (columns × rows: the layers of an image \
                 array every WebGPU device holds)"
            );
            v.fail(&format!("{field}.flipbook"), value, allowed);
        }
        if let Some(frames) = f.frames.filter(|&n| n == 0 || n > grid) {
            let allowed = format!("1..={grid} (columns × rows)");
            v.fail(&at("frames"), frames, allowed);
        }
        if let FrameTiming::PerSecond(rate) = f.timing {
            v.range(
                &at("timing.PerSecond"),
                rate,
                0.01,
                1e3,
                "0.01..=1000 frames a second",
            );
        }
    }
}

/// An effect's mesh emitters draw one mesh (one instanced draw per effect).
fn mesh_particles(v: &mut Checker, desc: &EffectDesc) {
    let Some(first) = desc.particle_mesh() else {
        return;
    };
    for (i, e) in desc.emitters.iter().enumerate() {
        if let RenderMode::Mesh { mesh, .. } = e.render.unwrap_or(desc.render) {
            if mesh != first {
                let allowed = format!("{first:?}, the mesh of the effect's first mesh emitter");
                v.fail(
                    &format!("emitters[{i}].render.Mesh.mesh"),
                    format!("{mesh:?}"),
                    allowed,
                );
            }
        }
    }
}

fn collision(v: &mut Checker, c: &Collision) {
    v.range(
        "collision.thickness",
        c.thickness,
        1e-4,
        1e3,
        "1e-4..=1000 metres",
    );
    match c.response {
        Response::Bounce {
            restitution,
            friction,
        } => {
            let field = "collision.response.Bounce";
            v.range(
                &format!("{field}.restitution"),
                restitution,
                0.0,
                1.0,
                "0..=1",
            );
            v.range(&format!("{field}.friction"), friction, 0.0, 1.0, "0..=1");
        }
        Response::Settle { time } => v.range(
            "collision.response.Settle.time",
            time,
            1e-3,
            1e6,
            "1e-3..=1e6 seconds",
        ),
        Response::Kill => {}
    }
}

/// Massive bodies and all-pairs gravity.
fn gravity(v: &mut Checker, desc: &EffectDesc) {
    if let Some(b) = &desc.bodies {
        v.range("bodies.g", b.g, 0.0, 1e12, "0..=1e12");
        let n = b.bodies.len();
        if n == 0 || n > MAX_BODIES {
            let allowed = format!("1..={MAX_BODIES} bodies");
            v.fail("bodies.bodies", format!("{n} bodies"), allowed);
        }
        for (i, body) in b.bodies.iter().enumerate() {
            let at = |name: &str| format!("bodies.bodies[{i}].{name}");
            v.vec(&at("pos"), body.pos);
            v.vec(&at("vel"), body.vel);
            v.range(&at("mass"), body.mass, 0.0, 1e12, "0..=1e12");
            let (field, metres) = (at("softening"), "1e-4..=1e6 metres");
            v.range(&field, body.softening, 1e-4, 1e6, metres);
        }
    }
    if let Some(n) = &desc.self_gravity {
        v.range("self_gravity.g", n.g, 0.0, 1e12, "0..=1e12");
        v.range("self_gravity.mass", n.mass, 0.0, 1e12, "0..=1e12");
        let metres = "1e-4..=1e6 metres";
        v.range("self_gravity.softening", n.softening, 1e-4, 1e6, metres);
    }
}

/// Emitters that spawn at GPU events: at most two, each with a count and (on death) a
/// watched emitter that exists, all watching the same one.
fn triggers(v: &mut Checker, desc: &EffectDesc) {
    let triggered = desc
        .emitters
        .iter()
        .filter(|e| matches!(e.trigger, Trigger::OnHit { .. } | Trigger::OnDeath { .. }))
        .count();
    if triggered > 2 {
        let n = format!("{triggered} OnHit/OnDeath emitters");
        v.fail("emitters[].trigger", n, "at most two");
    }
    let on_hit = desc
        .emitters
        .iter()
        .any(|e| matches!(e.trigger, Trigger::OnHit { .. }));
    if on_hit && desc.collision.is_none() {
        let why = "a collision response for an OnHit emitter to react to";
        v.fail("collision", "None", why);
    }
    for (i, e) in desc.emitters.iter().enumerate() {
        if let Trigger::OnHit { count } | Trigger::OnDeath { count, .. } = e.trigger {
            if !(1..=MAX_EVENT_SPAWN).contains(&count) {
                let field = format!("emitters[{i}].trigger.count");
                let range = format!("1..={MAX_EVENT_SPAWN} particles per event");
                v.fail(&field, count, &range);
            }
        }
        if let Trigger::Trail { of, every } = e.trigger {
            trail(v, desc, i, (of, every));
        }
        if let Trigger::OnDeath { of, .. } = e.trigger {
            let field = format!("emitters[{i}].trigger.OnDeath.of");
            if of as usize >= desc.emitters.len() || of as usize == i {
                v.fail(&field, of, "another emitter of this effect");
            }
            // one watched emitter per effect (EffectParams::death_source)
            if let Some(first) = desc.death_source().filter(|&f| f != of) {
                let allowed = format!("{first}, as the first OnDeath emitter watches");
                v.fail(&field, of, &allowed);
            }
        }
    }
}

/// Trail emitter `i` following emitter `of` every `every` seconds: one per effect, behind
/// another emitter that is not itself a trail.
fn trail(v: &mut Checker, desc: &EffectDesc, i: usize, (of, every): (u32, f32)) {
    let at = |name: &str| format!("emitters[{i}].trigger.Trail.{name}");
    let source = desc.emitters.get(of as usize).filter(|_| of as usize != i);
    match source.map(|s| s.trigger) {
        None => v.fail(&at("of"), of, "another emitter of this effect"),
        Some(Trigger::Trail { .. }) => {
            v.fail(&at("of"), of, "an emitter that is not itself a trail")
        }
        Some(_) => {}
    }
    v.range(&at("every"), every, 1e-3, 1e3, "1e-3..=1000 seconds");
    if desc
        .trail()
        .is_some_and(|(first, _, _)| first as usize != i)
    {
        let allowed = "one Trail emitter per effect";
        v.fail(&format!("emitters[{i}].trigger"), "a second Trail", allowed);
    }
}

/// The largest magnitude of a position (metres), velocity (m/s), force or angle an effect
/// may give: far beyond any scene, far below where f32 arithmetic overflows.
const MAGNITUDE: f32 = 1e9;

/// A number of an effect that validation checks against a range
/// ([`EffectDesc::field_ranges`]): what an editor's slider spans.
#[derive(Clone, Debug, PartialEq)]
pub struct FieldRange {
    /// Its path, as validation names it (`emitters[0].lifetime.mean`, `bounds.min[1]`,
    /// `emitters[1].shape.Sphere.radius`: an enum's variant by name).
    pub path: String,
    /// The least value allowed.
    pub min: f32,
    /// The greatest value allowed.
    pub max: f32,
    /// The range in words, with its unit where it has one (`0..=1000 metres`).
    pub allowed: String,
    /// The number as the effect has it (a field left out of a file at its default
    /// included).
    pub value: f32,
}

/// Collects [`Invalid`] entries, and the range of every number it checks.
#[derive(Default)]
pub(super) struct Checker {
    problems: Vec<Invalid>,
    ranges: Vec<FieldRange>,
}

impl Checker {
    pub(super) fn fail(&mut self, field: &str, value: impl ToString, allowed: impl Into<String>) {
        self.problems.push(Invalid::new(field, value, allowed));
    }

    pub(super) fn range(&mut self, field: &str, x: f32, lo: f32, hi: f32, allowed: &str) {
        self.ranges.push(FieldRange {
            path: field.to_string(),
            min: lo,
            max: hi,
            allowed: allowed.to_string(),
            value: x,
        });
        if !(x.is_finite() && x >= lo && x <= hi) {
            self.fail(field, x, allowed);
        }
    }

    /// A position, velocity, force or angle: finite and within ±[`MAGNITUDE`] (beyond it
    /// a frame's arithmetic overflows f32 or loses every centimetre).
    fn finite(&mut self, field: &str, x: f32) {
        self.range(
            field,
            x,
            -MAGNITUDE,
            MAGNITUDE,
            "a finite number within ±1e9",
        );
    }

    fn vec(&mut self, field: &str, v: [f32; 3]) {
        for (i, x) in v.iter().enumerate() {
            self.finite(&format!("{field}[{i}]"), *x);
        }
    }

    /// A finite vector of some length.
    fn direction(&mut self, field: &str, v: [f32; 3]) {
        self.vec(field, v);
        if Vec3::from(v).length() < 1e-6 {
            self.fail(field, format!("{v:?}"), "a non-zero vector");
        }
    }

    fn variance(&mut self, field: &str, x: f32) {
        self.range(field, x, 0.0, MAGNITUDE, "0..=1e9");
    }

    fn nonneg_vec(&mut self, field: &str, v: [f32; 3]) {
        for (i, x) in v.iter().enumerate() {
            self.variance(&format!("{field}[{i}]"), *x);
        }
    }

    fn scalar(&mut self, field: &str, r: Range) {
        self.finite(&format!("{field}.mean"), r.mean);
        self.variance(&format!("{field}.variance"), r.variance);
    }

    fn ordered(&mut self, field: &str, min: [f32; 3], max: [f32; 3]) {
        if (0..3).any(|i| min[i] >= max[i]) {
            let value = format!("min {min:?} max {max:?}");
            self.fail(field, value, "min < max on every axis");
        }
    }

    /// `body` names one of the effect's `bodies`.
    fn body_index(&mut self, field: &str, body: u32, bodies: u32) {
        if body >= bodies {
            let allowed = match bodies {
                0 => "a body index, but the effect has no bodies".to_string(),
                n => format!("0..{n} (the effect's bodies)"),
            };
            self.fail(field, body, allowed);
        }
    }
}
