//! `EffectDesc`: what an effect emits and how its particles move, as a RON file.
//!
//! Every initial attribute is a mean ± variance (uniform in `[mean - variance, mean + variance]`,
//! seed 002). See `effects/*.ron` for documented examples.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Invalid, Result};
use crate::types::{
    Body, EffectParams, EmitUniforms, EmitterLook, EmitterParams, MAX_BODIES, MAX_EMITTERS,
};
use glam::{Vec3, Vec4};

/// A scalar drawn uniformly from `mean ± variance`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    pub mean: f32,
    #[serde(default)]
    pub variance: f32,
}

impl Range {
    pub const fn new(mean: f32, variance: f32) -> Self {
        Range { mean, variance }
    }
}

/// An RGBA colour (straight alpha, 0..1) drawn per channel from `mean ± variance`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColorRange {
    pub mean: [f32; 4],
    #[serde(default)]
    pub variance: [f32; 4],
}

/// Where new particles appear.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A single point.
    Point([f32; 3]),
    /// Uniform inside an axis-aligned box.
    Box { min: [f32; 3], max: [f32; 3] },
    /// Uniform inside a ball, or on its surface when `surface` is true.
    Sphere {
        center: [f32; 3],
        radius: f32,
        #[serde(default)]
        surface: bool,
    },
    /// Uniform on a flat disk facing `normal`.
    Disk {
        center: [f32; 3],
        radius: f32,
        normal: [f32; 3],
    },
    /// A galaxy disk around massive body `body` (see [`Bodies`]): surface density falling
    /// as exp(−r / scale_length) out to `max_radius`, ± `thickness` / 2 off the plane
    /// facing `normal`.
    Galaxy {
        body: u32,
        scale_length: f32,
        max_radius: f32,
        thickness: f32,
        normal: [f32; 3],
    },
}

/// Initial velocity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Velocity {
    /// Each component drawn from `mean ± variance`.
    Linear { mean: [f32; 3], variance: [f32; 3] },
    /// A uniformly random direction on the unit sphere times a speed (fireworks, seed 001).
    Radial { speed: Range },
    /// The circular orbit about massive body `body` in the plane facing `normal` (plus the
    /// body's own velocity), with a random `dispersion` (m/s per axis) on top.
    Orbit {
        body: u32,
        normal: [f32; 3],
        #[serde(default)]
        dispersion: f32,
    },
}

/// A massive body: it attracts every particle of the effect and the other bodies
/// (Plummer-softened gravity) and moves under their pull; particles do not pull back
/// (Toomre & Toomre's restricted problem: massive cores, massless stars).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDesc {
    pub pos: [f32; 3],
    #[serde(default)]
    pub vel: [f32; 3],
    pub mass: f32,
    /// Softening length, metres (> 0).
    pub softening: f32,
}

/// All-pairs gravity between the particles themselves (N-body mode, at most 65,536
/// particles): every particle has `mass` and pulls every other with Plummer softening.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfGravity {
    #[serde(default = "one")]
    pub g: f32,
    pub mass: f32,
    pub softening: f32,
}

/// Most particles an effect with [`SelfGravity`] may have (O(N²) work per step).
pub const MAX_NBODY: u32 = 65_536;

/// The massive bodies of an effect and their gravitational constant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bodies {
    #[serde(default = "one")]
    pub g: f32,
    pub bodies: Vec<BodyDesc>,
}

/// `count` particles at `time` seconds, repeated every `every` seconds `cycles` times
/// (forever when `cycles` is absent and `every` is given; once when `every` is absent).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Burst {
    pub time: f32,
    pub count: u32,
    #[serde(default)]
    pub every: Option<f32>,
    #[serde(default)]
    pub cycles: Option<u32>,
}

/// Most particles one GPU event (a hit or a death) may spawn.
pub const MAX_EVENT_SPAWN: u32 = 4096;

/// When an emitter spawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Trigger {
    /// By its `rate` and `bursts`.
    #[default]
    Schedule,
    /// `count` particles at every depth-collision hit of the effect, on the GPU (rain
    /// splashes): the emitter's shape is relative to the hit point, its velocity is turned
    /// to the surface's side, and its particles never collide themselves.
    OnHit { count: u32 },
    /// `count` particles wherever a particle of emitter `of` dies, on the GPU (seed 001's
    /// rockets bursting into sparks); the shape is relative to the death point and the new
    /// particles inherit nothing else.
    OnDeath { of: u32, count: u32 },
}

/// One emitter of an effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EmitterDesc {
    pub shape: Shape,
    /// Continuous emission, particles per second (fractions carry over between frames).
    #[serde(default)]
    pub rate: f32,
    #[serde(default)]
    pub bursts: Vec<Burst>,
    pub velocity: Velocity,
    /// Seconds.
    pub lifetime: Range,
    /// Diameter in metres.
    pub size: Range,
    pub color: ColorRange,
    /// Radians.
    #[serde(default)]
    pub rotation: Range,
    /// Radians per second.
    #[serde(default)]
    pub spin: Range,
    /// When it spawns (its schedule by default).
    #[serde(default)]
    pub trigger: Trigger,
    /// Its own appearance over life, in place of the effect's `over_life`.
    #[serde(default)]
    pub over_life: Option<OverLife>,
    /// Its own quad orientation, in place of the effect's `render`.
    #[serde(default)]
    pub render: Option<RenderMode>,
    /// Its own sprite, in place of the effect's `sprite`.
    #[serde(default)]
    pub sprite: Option<Sprite>,
    /// Its particles stay where they are born, untouched by forces (ripples, marks).
    #[serde(default)]
    pub anchored: bool,
}

/// Global forces: `a = gravity + drag·(wind − v)`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Forces {
    /// m/s².
    #[serde(default = "default_gravity")]
    pub gravity: [f32; 3],
    /// Air velocity, m/s; only felt through drag.
    #[serde(default)]
    pub wind: [f32; 3],
    /// Linear drag coefficient, 1/s.
    #[serde(default)]
    pub drag: f32,
    /// Eddies in the wind (curl noise), felt through drag like the wind.
    #[serde(default)]
    pub turbulence: Option<Turbulence>,
}

/// Curl-noise turbulence (Bridson et al. 2007): the wind gains a divergence-free field, the
/// curl of a two-octave trigonometric potential, so particles swirl without bunching up.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Turbulence {
    /// Largest speed of the field along any axis, m/s.
    pub speed: f32,
    /// Size of the larger eddies, metres (the smaller octave is about half).
    pub scale: f32,
}

fn default_gravity() -> [f32; 3] {
    [0.0, -9.81, 0.0]
}

impl Default for Forces {
    fn default() -> Self {
        Forces {
            gravity: default_gravity(),
            wind: [0.0; 3],
            drag: 0.0,
            turbulence: None,
        }
    }
}

/// Time integration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Integrator {
    /// `v' = v + a·dt; x' = x + v·dt` (the old velocity).
    #[default]
    ExplicitEuler,
    /// `v' = v + a·dt; x' = x + v'·dt`.
    SymplecticEuler,
}

/// What happens to a particle that leaves the bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OnExit {
    /// It dies.
    Kill,
    /// It re-enters from the opposite face (snow falling through the floor reappears at the top).
    Wrap,
}

/// The effect's region.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    pub min: [f32; 3],
    pub max: [f32; 3],
    pub on_exit: OnExit,
    /// The box, and the shapes of the scheduled emitters, are relative to the camera's x
    /// and z (seed 000: snow that never ends however far the camera goes).
    #[serde(default)]
    pub follow_camera: bool,
}

/// Appearance over normalised age t = age / lifetime: colour × mix(1, color_end, t),
/// size × mix(1, size_end, t).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct OverLife {
    #[serde(default = "ones")]
    pub color_end: [f32; 4],
    #[serde(default = "one")]
    pub size_end: f32,
}

fn ones() -> [f32; 4] {
    [1.0; 4]
}
fn one() -> f32 {
    1.0
}

impl Default for OverLife {
    fn default() -> Self {
        OverLife {
            color_end: ones(),
            size_end: 1.0,
        }
    }
}

/// How a particle's quad faces the camera.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum RenderMode {
    /// Facing the camera, turned by the particle's rotation (explosions, seed 003).
    #[default]
    Billboard,
    /// Turning about the world's up axis only (trees, flames; seed 003).
    Upright,
    /// Drawn along the velocity, as long as `seconds` of motion (rain streaks, sparks).
    Stretched { seconds: f32 },
    /// A flat quad spinning about its own X and Y axes, not facing the camera (seed 000's
    /// snowflakes).
    Tumbling,
    /// Lying flat on the ground, turned about the up axis by the rotation (ripples).
    Flat,
}

/// The image on a particle's quad.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Sprite {
    /// A procedural soft round dot.
    #[default]
    Disc,
    /// One of six procedural six-fold snowflakes (seed 000), chosen by the particle's id.
    Snowflakes,
    /// A thin procedural ring (ripples on water).
    Ring,
}

/// How particles combine with what is behind them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Blend {
    /// Light adds up; order does not matter (fireworks).
    Additive,
    /// Premultiplied "over"; needs back-to-front order.
    #[default]
    Alpha,
}

/// What a particle does when it hits the scene in the depth buffer.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Response {
    /// Reflect: the normal speed times `restitution` (0..=1), the tangential speed times
    /// `1 - friction` (0..=1).
    Bounce {
        restitution: f32,
        #[serde(default)]
        friction: f32,
    },
    /// Die on contact.
    Kill,
    /// Stop on the surface, stay `time` seconds fading out, then die (snow coming to rest).
    Settle { time: f32 },
}

/// Screen-space collision with the host's depth (the previous frame's, seen through the
/// previous frame's camera). Only positions on screen and in front of the far plane can
/// collide: particles off screen or behind everything pass through.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collision {
    pub response: Response,
    /// Metres behind the stored surface that still count as a hit; deeper means the
    /// particle is passing behind the object, not into it.
    #[serde(default = "default_thickness")]
    pub thickness: f32,
}

fn default_thickness() -> f32 {
    0.5
}

/// A whole effect.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EffectDesc {
    pub name: String,
    pub emitters: Vec<EmitterDesc>,
    #[serde(default)]
    pub forces: Forces,
    #[serde(default)]
    pub integrator: Integrator,
    #[serde(default)]
    pub bounds: Option<Bounds>,
    #[serde(default)]
    pub over_life: OverLife,
    #[serde(default)]
    pub blend: Blend,
    /// Sort visible particles back to front; absent: sort alpha-blended effects only
    /// (additive light does not depend on order).
    #[serde(default)]
    pub sort: Option<bool>,
    /// Soft particles: metres over which a particle fades out as it nears the scene
    /// behind it (0: hard intersections).
    #[serde(default)]
    pub soft_distance: f32,
    /// Depth-buffer collision with the host's scene; none when absent.
    #[serde(default)]
    pub collision: Option<Collision>,
    /// Massive bodies that attract the particles (galaxy cores); none when absent.
    #[serde(default)]
    pub bodies: Option<Bodies>,
    /// All-pairs gravity between the particles; none when absent.
    #[serde(default)]
    pub self_gravity: Option<SelfGravity>,
    /// Quad orientation; camera-facing billboards when absent.
    #[serde(default)]
    pub render: RenderMode,
    /// What is drawn on the quad; a soft disc when absent.
    #[serde(default)]
    pub sprite: Sprite,
}

impl EffectDesc {
    /// The emitter spawning at GPU events (collision hits or deaths), and how many per event.
    pub fn hit_emitter(&self) -> Option<(usize, u32)> {
        self.event_emitters().next()
    }

    /// The emitters that spawn at events (OnHit, OnDeath), with their counts per event.
    pub fn event_emitters(&self) -> impl Iterator<Item = (usize, u32)> + '_ {
        self.emitters
            .iter()
            .enumerate()
            .filter_map(|(i, e)| match e.trigger {
                Trigger::OnHit { count } | Trigger::OnDeath { count, .. } => Some((i, count)),
                Trigger::Schedule => None,
            })
    }

    /// How emitter `e`'s particles look: its own settings, else the effect's.
    pub fn look_of(&self, e: usize) -> EmitterLook {
        let em = self.emitters.get(e);
        let o = self.over_life_of(e);
        let render = em.and_then(|em| em.render).unwrap_or(self.render);
        let sprite = em.and_then(|em| em.sprite).unwrap_or(self.sprite);
        EmitterLook {
            color_end: o.color_end.into(),
            size_end: o.size_end,
            render_mode: match render {
                RenderMode::Billboard => 0,
                RenderMode::Upright => 1,
                RenderMode::Stretched { .. } => 2,
                RenderMode::Tumbling => 3,
                RenderMode::Flat => 4,
            },
            stretch: match render {
                RenderMode::Stretched { seconds } => seconds,
                _ => 0.0,
            },
            sprite: match sprite {
                Sprite::Disc => 0,
                Sprite::Snowflakes => 1,
                Sprite::Ring => 2,
            },
            anchored: em.is_some_and(|em| em.anchored) as u32,
            _pad0: 0,
            _pad1: 0,
            _pad2: 0,
        }
    }

    /// Emitter `e`'s appearance over life: its own, else the effect's.
    pub fn over_life_of(&self, e: usize) -> OverLife {
        self.emitters
            .get(e)
            .and_then(|em| em.over_life)
            .unwrap_or(self.over_life)
    }

    /// The emitter whose particles' deaths are events (an OnDeath trigger's source).
    pub fn death_source(&self) -> Option<u32> {
        self.emitters.iter().find_map(|e| match e.trigger {
            Trigger::OnDeath { of, .. } => Some(of),
            _ => None,
        })
    }

    /// Whether the visible list is sorted each frame.
    pub fn sorts(&self) -> bool {
        self.sort.unwrap_or(self.blend == Blend::Alpha)
    }

    /// Parse and validate RON source.
    pub fn from_ron(src: &str) -> Result<Self> {
        Self::parse(src, None)
    }

    /// Read, parse and validate a RON file.
    pub fn from_file(path: &Path) -> Result<Self> {
        let src = std::fs::read_to_string(path).map_err(|source| Error::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::parse(&src, Some(path))
    }

    fn parse(src: &str, path: Option<&Path>) -> Result<Self> {
        let desc: EffectDesc = ron::from_str(src).map_err(|e| Error::EffectSyntax {
            path: path.map(Path::to_path_buf),
            message: e.to_string(),
        })?;
        let problems = desc.problems();
        if problems.is_empty() {
            Ok(desc)
        } else {
            Err(Error::EffectInvalid {
                path: path.map(Path::to_path_buf),
                problems,
            })
        }
    }

    /// Pretty RON.
    pub fn to_ron(&self) -> String {
        ron::ser::to_string_pretty(self, ron::ser::PrettyConfig::default())
            .unwrap_or_else(|e| format!("// cannot serialise: {e}"))
    }

    /// Validate; `Ok` when every field is in range.
    pub fn validate(&self) -> Result<()> {
        let problems = self.problems();
        if problems.is_empty() {
            Ok(())
        } else {
            Err(Error::EffectInvalid {
                path: None,
                problems,
            })
        }
    }

    /// Every out-of-range field, with its path, value and allowed range.
    pub fn problems(&self) -> Vec<Invalid> {
        let mut v = Checker::default();
        let n = self.emitters.len();
        if n == 0 || n > MAX_EMITTERS {
            v.fail(
                "emitters",
                format!("{n} emitters"),
                format!("1..={MAX_EMITTERS} emitters"),
            );
        }
        for (i, e) in self.emitters.iter().enumerate() {
            let f = |name: &str| format!("emitters[{i}].{name}");
            match e.shape {
                Shape::Point(p) => v.vec(&f("shape.Point"), p),
                Shape::Box { min, max } => {
                    v.vec(&f("shape.Box.min"), min);
                    v.vec(&f("shape.Box.max"), max);
                    v.ordered(&f("shape.Box"), min, max);
                }
                Shape::Sphere { center, radius, .. } => {
                    v.vec(&f("shape.Sphere.center"), center);
                    v.range(
                        &f("shape.Sphere.radius"),
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
                    v.vec(&f("shape.Disk.center"), center);
                    v.range(&f("shape.Disk.radius"), radius, 0.0, 1e6, "0..=1e6 metres");
                    v.vec(&f("shape.Disk.normal"), normal);
                    if Vec3::from(normal).length() < 1e-6 {
                        v.fail(
                            &f("shape.Disk.normal"),
                            format!("{normal:?}"),
                            "a non-zero vector",
                        );
                    }
                }
                Shape::Galaxy { .. } => {} // checked with the bodies below
            }
            let n_bodies = self.bodies.as_ref().map_or(0, |b| b.bodies.len()) as u32;
            let mut body_index = |field: String, body: u32| {
                if body >= n_bodies {
                    let allowed = match n_bodies {
                        0 => "a body index, but the effect has no bodies".to_string(),
                        n => format!("0..{n} (the effect's bodies)"),
                    };
                    v.fail(&field, body, allowed);
                }
            };
            if let Shape::Galaxy { body, .. } = e.shape {
                body_index(f("shape.Galaxy.body"), body);
            }
            if let Velocity::Orbit { body, .. } = e.velocity {
                body_index(f("velocity.Orbit.body"), body);
            }
            if let Shape::Galaxy {
                scale_length,
                max_radius,
                thickness,
                normal,
                ..
            } = e.shape
            {
                v.range(
                    &f("shape.Galaxy.scale_length"),
                    scale_length,
                    1e-4,
                    1e6,
                    "1e-4..=1e6 metres",
                );
                v.range(
                    &f("shape.Galaxy.max_radius"),
                    max_radius,
                    1e-4,
                    1e6,
                    "1e-4..=1e6 metres",
                );
                v.range(
                    &f("shape.Galaxy.thickness"),
                    thickness,
                    0.0,
                    1e6,
                    "0..=1e6 metres",
                );
                v.vec(&f("shape.Galaxy.normal"), normal);
            }
            if let Velocity::Orbit {
                normal, dispersion, ..
            } = e.velocity
            {
                v.vec(&f("velocity.Orbit.normal"), normal);
                v.range(
                    &f("velocity.Orbit.dispersion"),
                    dispersion,
                    0.0,
                    1e6,
                    "0..=1e6 m/s",
                );
            }
            v.range(&f("rate"), e.rate, 0.0, 1e9, "0..=1e9 particles per second");
            for (b, burst) in e.bursts.iter().enumerate() {
                let g = |name: &str| format!("emitters[{i}].bursts[{b}].{name}");
                v.range(&g("time"), burst.time, 0.0, 1e9, "0..=1e9 seconds");
                if let Some(every) = burst.every {
                    v.range(&g("every"), every, 1e-3, 1e9, "1e-3..=1e9 seconds");
                }
            }
            match e.velocity {
                Velocity::Linear { mean, variance } => {
                    v.vec(&f("velocity.Linear.mean"), mean);
                    v.nonneg_vec(&f("velocity.Linear.variance"), variance);
                }
                Velocity::Radial { speed } => v.scalar(&f("velocity.Radial.speed"), speed),
                Velocity::Orbit { .. } => {} // checked with the bodies above
            }
            v.scalar(&f("lifetime"), e.lifetime);
            let lo = e.lifetime.mean - e.lifetime.variance;
            if e.lifetime.mean.is_finite() && e.lifetime.variance.is_finite() && lo <= 0.0 {
                v.fail(
                    &f("lifetime"),
                    format!("{} ± {}", e.lifetime.mean, e.lifetime.variance),
                    "mean - variance > 0 seconds (every particle must live)",
                );
            }
            v.range(&f("size.mean"), e.size.mean, 0.0, 1e6, "0..=1e6 metres");
            v.variance(&f("size.variance"), e.size.variance);
            for c in 0..4 {
                v.range(
                    &f(&format!("color.mean[{c}]")),
                    e.color.mean[c],
                    0.0,
                    1.0,
                    "0..=1",
                );
                v.range(
                    &f(&format!("color.variance[{c}]")),
                    e.color.variance[c],
                    0.0,
                    1.0,
                    "0..=1",
                );
            }
            v.scalar(&f("rotation"), e.rotation);
            v.scalar(&f("spin"), e.spin);
        }
        v.vec("forces.gravity", self.forces.gravity);
        v.vec("forces.wind", self.forces.wind);
        if let Some(t) = self.forces.turbulence {
            v.range(
                "forces.turbulence.speed",
                t.speed,
                0.0,
                100.0,
                "0..=100 m/s",
            );
            v.range(
                "forces.turbulence.scale",
                t.scale,
                0.01,
                1e4,
                "0.01..=10000 m",
            );
        }
        v.range(
            "forces.drag",
            self.forces.drag,
            0.0,
            1e3,
            "0..=1000 per second",
        );
        if let Some(b) = &self.bounds {
            v.vec("bounds.min", b.min);
            v.vec("bounds.max", b.max);
            v.ordered("bounds", b.min, b.max);
        }
        let own = self.emitters.iter().enumerate();
        let own = own.filter_map(|(i, e)| Some((format!("emitters[{i}].over_life"), e.over_life?)));
        for (field, o) in std::iter::once(("over_life".to_string(), self.over_life)).chain(own) {
            for c in 0..4 {
                let name = format!("{field}.color_end[{c}]");
                v.range(&name, o.color_end[c], 0.0, 1e3, "0..=1000");
            }
            let name = format!("{field}.size_end");
            v.range(&name, o.size_end, 0.0, 1e3, "0..=1000");
        }
        v.range(
            "soft_distance",
            self.soft_distance,
            0.0,
            1e3,
            "0..=1000 metres",
        );
        if let Some(c) = &self.collision {
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
                    v.range(
                        "collision.response.Bounce.restitution",
                        restitution,
                        0.0,
                        1.0,
                        "0..=1",
                    );
                    v.range(
                        "collision.response.Bounce.friction",
                        friction,
                        0.0,
                        1.0,
                        "0..=1",
                    );
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
        if let Some(b) = &self.bodies {
            v.range("bodies.g", b.g, 0.0, 1e12, "0..=1e12");
            if b.bodies.is_empty() || b.bodies.len() > MAX_BODIES {
                let n = b.bodies.len();
                v.fail(
                    "bodies.bodies",
                    format!("{n} bodies"),
                    format!("1..={MAX_BODIES} bodies"),
                );
            }
            for (i, body) in b.bodies.iter().enumerate() {
                let f = |name: &str| format!("bodies.bodies[{i}].{name}");
                v.vec(&f("pos"), body.pos);
                v.vec(&f("vel"), body.vel);
                v.range(&f("mass"), body.mass, 0.0, 1e12, "0..=1e12");
                v.range(
                    &f("softening"),
                    body.softening,
                    1e-4,
                    1e6,
                    "1e-4..=1e6 metres",
                );
            }
        }
        if let Some(n) = &self.self_gravity {
            v.range("self_gravity.g", n.g, 0.0, 1e12, "0..=1e12");
            v.range("self_gravity.mass", n.mass, 0.0, 1e12, "0..=1e12");
            v.range(
                "self_gravity.softening",
                n.softening,
                1e-4,
                1e6,
                "1e-4..=1e6 metres",
            );
        }
        if let RenderMode::Stretched { seconds } = self.render {
            v.range(
                "render.Stretched.seconds",
                seconds,
                0.0,
                10.0,
                "0..=10 seconds",
            );
        }
        let triggered = self
            .emitters
            .iter()
            .filter(|e| e.trigger != Trigger::Schedule)
            .count();
        if triggered > 2 {
            let n = format!("{triggered} OnHit/OnDeath emitters");
            v.fail("emitters[].trigger", n, "at most two");
        }
        let on_hit = self
            .emitters
            .iter()
            .any(|e| matches!(e.trigger, Trigger::OnHit { .. }));
        if on_hit && self.collision.is_none() {
            let why = "a collision response for an OnHit emitter to react to";
            v.fail("collision", "None", why);
        }
        for (i, e) in self.emitters.iter().enumerate() {
            if let Trigger::OnHit { count } | Trigger::OnDeath { count, .. } = e.trigger {
                if !(1..=MAX_EVENT_SPAWN).contains(&count) {
                    let field = format!("emitters[{i}].trigger.count");
                    let range = format!("1..={MAX_EVENT_SPAWN} particles per event");
                    v.fail(&field, count, &range);
                }
            }
            if let Trigger::OnDeath { of, .. } = e.trigger {
                if of as usize >= self.emitters.len() || of as usize == i {
                    let field = format!("emitters[{i}].trigger.OnDeath.of");
                    v.fail(&field, of, "another emitter of this effect");
                }
                // one watched emitter per effect (EffectParams::death_source)
                if let Some(first) = self.death_source().filter(|&f| f != of) {
                    let field = format!("emitters[{i}].trigger.OnDeath.of");
                    let allowed = format!("{first}, as the first OnDeath emitter watches");
                    v.fail(&field, of, &allowed);
                }
            }
        }
        v.0
    }

    /// The massive bodies' initial state, for the GPU.
    pub fn initial_bodies(&self) -> Vec<Body> {
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

    /// Per-effect GPU constants.
    pub fn effect_params(&self, seed: u32, capacity: u32) -> EffectParams {
        let (bounds_min, bounds_max, bounds_mode) = match self.bounds {
            None => (Vec3::ZERO, Vec3::ZERO, 0),
            Some(b) => {
                let mode = match b.on_exit {
                    OnExit::Kill => 1,
                    OnExit::Wrap => 2,
                };
                (b.min.into(), b.max.into(), mode)
            }
        };
        let second = self.event_emitters().nth(1);
        EffectParams {
            gravity: self.forces.gravity.into(),
            drag: self.forces.drag,
            wind: self.forces.wind.into(),
            integrator: match self.integrator {
                Integrator::ExplicitEuler => 0,
                Integrator::SymplecticEuler => 1,
            },
            bounds_min,
            bounds_mode,
            bounds_max,
            seed,
            _pad0: 0.0,
            capacity,
            soft_distance: self.soft_distance,
            additive: (self.blend == Blend::Additive) as u32,
            collision: match self.collision.map(|c| c.response) {
                None => 0,
                Some(Response::Bounce { .. }) => 1,
                Some(Response::Kill) => 2,
                Some(Response::Settle { .. }) => 3,
            },
            restitution: match self.collision.map(|c| c.response) {
                Some(Response::Bounce { restitution, .. }) => restitution,
                _ => 0.0,
            },
            friction: match self.collision.map(|c| c.response) {
                Some(Response::Bounce { friction, .. }) => friction,
                _ => 0.0,
            },
            thickness: self.collision.map_or(0.0, |c| c.thickness),
            settle_time: match self.collision.map(|c| c.response) {
                Some(Response::Settle { time }) => time,
                _ => 0.0,
            },
            body_g: self.bodies.as_ref().map_or(0.0, |b| b.g),
            body_count: self.bodies.as_ref().map_or(0, |b| b.bodies.len()) as u32,
            nbody: self.self_gravity.is_some() as u32,
            nbody_g: self.self_gravity.map_or(0.0, |n| n.g),
            nbody_mass: self.self_gravity.map_or(0.0, |n| n.mass),
            nbody_softening: self.self_gravity.map_or(1.0, |n| n.softening),
            hit_emitter: self.hit_emitter().map_or(0, |(e, _)| e as u32),
            hit_count: self.hit_emitter().map_or(0, |(_, n)| n),
            death_source: self.death_source().unwrap_or(u32::MAX),
            turbulence: self.forces.turbulence.map_or(0.0, |t| t.speed),
            turbulence_scale: self.forces.turbulence.map_or(1.0, |t| t.scale),
            follow_camera: self.bounds.is_some_and(|b| b.follow_camera) as u32,
            hit_emitter2: second.map_or(0, |(e, _)| e as u32),
            hit_count2: second.map_or(0, |(_, n)| n),
            looks: std::array::from_fn(|e| self.look_of(e)),
        }
    }

    /// This frame's emit uniforms for per-emitter spawn `counts` (already clamped).
    /// Where the bounds and scheduled emitters are, relative to the world, for a camera at
    /// `eye`: its x and z when the bounds follow the camera, else zero.
    pub fn camera_offset(&self, eye: Vec3) -> Vec3 {
        match self.bounds {
            Some(b) if b.follow_camera => Vec3::new(eye.x, 0.0, eye.z),
            _ => Vec3::ZERO,
        }
    }

    /// This frame's emit uniforms for per-emitter spawn `counts` (already clamped), the
    /// scheduled emitters moved by `offset` ([`EffectDesc::camera_offset`]).
    pub fn emit_uniforms_at(&self, counts: &[u32], id_base: u32, offset: Vec3) -> EmitUniforms {
        let mut u = self.emit_uniforms(counts, id_base);
        for (p, e) in u.emitters.iter_mut().zip(&self.emitters) {
            if e.trigger == Trigger::Schedule {
                p.p0 += offset.extend(0.0);
                if p.shape == 1 {
                    p.p1 += offset.extend(0.0); // a box's max corner
                }
            }
        }
        u
    }

    pub fn emit_uniforms(&self, counts: &[u32], id_base: u32) -> EmitUniforms {
        let mut u = EmitUniforms {
            emitter_count: self.emitters.len().min(MAX_EMITTERS) as u32,
            id_base,
            ..Default::default()
        };
        let mut first = 0u32;
        for (i, (e, &count)) in self
            .emitters
            .iter()
            .zip(counts)
            .enumerate()
            .take(MAX_EMITTERS)
        {
            u.emitters[i] = emitter_params(e, first, count);
            first += count;
        }
        u.request = first;
        u
    }
}

fn emitter_params(e: &EmitterDesc, spawn_first: u32, spawn_count: u32) -> EmitterParams {
    let (shape, p0, p1) = match e.shape {
        Shape::Point(p) => (0, Vec3::from(p).extend(0.0), Vec4::ZERO),
        Shape::Box { min, max } => (1, Vec3::from(min).extend(0.0), Vec3::from(max).extend(0.0)),
        Shape::Sphere {
            center,
            radius,
            surface,
        } => (
            if surface { 3 } else { 2 },
            Vec3::from(center).extend(radius),
            Vec4::ZERO,
        ),
        Shape::Disk {
            center,
            radius,
            normal,
        } => (
            4,
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
            5,
            Vec3::from(normal).extend(max_radius),
            Vec4::new(thickness, body as f32, 0.0, scale_length),
        ),
    };
    let (velocity_mode, vel_mean, vel_var) = match e.velocity {
        Velocity::Linear { mean, variance } => (
            0,
            Vec3::from(mean).extend(0.0),
            Vec3::from(variance).extend(0.0),
        ),
        Velocity::Radial { speed } => (
            1,
            Vec4::new(0.0, 0.0, 0.0, speed.mean),
            Vec4::new(0.0, 0.0, 0.0, speed.variance),
        ),
        // mean = (body, dispersion), var = (normal)
        Velocity::Orbit {
            body,
            normal,
            dispersion,
        } => (
            2,
            Vec4::new(body as f32, dispersion, 0.0, 0.0),
            Vec3::from(normal).extend(0.0),
        ),
    };
    EmitterParams {
        shape,
        spawn_first,
        spawn_count,
        velocity_mode,
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
    }
}

/// Collects [`Invalid`] entries.
#[derive(Default)]
struct Checker(Vec<Invalid>);

impl Checker {
    fn fail(&mut self, field: &str, value: impl ToString, allowed: impl Into<String>) {
        self.0.push(Invalid::new(field, value, allowed));
    }

    fn range(&mut self, field: &str, x: f32, lo: f32, hi: f32, allowed: &str) {
        if !(x.is_finite() && x >= lo && x <= hi) {
            self.fail(field, x, allowed);
        }
    }

    fn finite(&mut self, field: &str, x: f32) {
        if !x.is_finite() {
            self.fail(field, x, "a finite number");
        }
    }

    fn vec(&mut self, field: &str, v: [f32; 3]) {
        for (i, x) in v.iter().enumerate() {
            self.finite(&format!("{field}[{i}]"), *x);
        }
    }

    fn variance(&mut self, field: &str, x: f32) {
        self.range(field, x, 0.0, f32::MAX, "a finite number >= 0");
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
            self.fail(
                field,
                format!("min {min:?} max {max:?}"),
                "min < max on every axis",
            );
        }
    }
}

/// The per-frame spawn clock shared by the GPU system and the CPU twin: continuous rate with
/// fractional carry plus scheduled bursts in `[t, t + dt)`.
#[derive(Clone, Debug, Default)]
pub struct SpawnClock {
    /// Seconds simulated so far.
    pub time: f64,
    carry: Vec<f64>,
    /// Spawns requested since the start (ids of the next frame start here).
    pub requested_total: u64,
}

impl SpawnClock {
    /// Spawn counts per emitter for a step of `dt` seconds, advancing the clock.
    pub fn advance(&mut self, desc: &EffectDesc, dt: f32) -> Vec<u64> {
        let dt = dt as f64;
        let (t0, t1) = (self.time, self.time + dt);
        self.carry.resize(desc.emitters.len(), 0.0);
        let counts = desc
            .emitters
            .iter()
            .zip(self.carry.iter_mut())
            .map(|(e, carry)| {
                if e.trigger != Trigger::Schedule {
                    return 0; // spawned on the GPU, at collision hits
                }
                let exact = e.rate as f64 * dt + *carry;
                let whole = exact.floor();
                *carry = exact - whole;
                let bursts: u64 = e
                    .bursts
                    .iter()
                    .map(|b| burst_hits(b, t0, t1) * b.count as u64)
                    .sum();
                whole as u64 + bursts
            })
            .collect::<Vec<_>>();
        self.time = t1;
        self.requested_total += counts.iter().sum::<u64>();
        counts
    }
}

/// How many occurrences of `b` fall in `[t0, t1)`.
fn burst_hits(b: &Burst, t0: f64, t1: f64) -> u64 {
    let start = b.time as f64;
    match b.every {
        None => (start >= t0 && start < t1) as u64,
        Some(every) => {
            let every = every as f64;
            // occurrences k >= 0 with t0 <= start + k·every < t1
            let first = ((t0 - start) / every).ceil().max(0.0);
            let end = ((t1 - start) / every).ceil().max(0.0);
            let end = match b.cycles {
                Some(c) => end.min(c as f64),
                None => end,
            };
            (end - first).max(0.0) as u64
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> EffectDesc {
        crate::demos::Demo::Fireworks.effect(4096)
    }

    #[test]
    fn ron_round_trip() {
        let d = sample();
        let back = EffectDesc::from_ron(&d.to_ron()).expect("round trip");
        assert_eq!(d, back);
    }

    #[test]
    fn rejects_out_of_range_fields() {
        let mut d = sample();
        d.emitters[0].rate = -1.0;
        d.emitters[0].lifetime = Range::new(0.0, 0.0);
        d.emitters[0].size.mean = f32::NAN;
        let p = d.problems();
        let fields: Vec<_> = p.iter().map(|p| p.field.as_str()).collect();
        assert!(fields.contains(&"emitters[0].rate"), "{fields:?}");
        assert!(fields.contains(&"emitters[0].lifetime"), "{fields:?}");
        assert!(fields.contains(&"emitters[0].size.mean"), "{fields:?}");
    }

    #[test]
    fn rejects_bad_event_triggers() {
        let mut d = sample();
        d.emitters.truncate(1);
        d.emitters.push(d.emitters[0].clone());
        d.emitters[1].trigger = Trigger::OnDeath { of: 1, count: 0 };
        let fields: Vec<_> = d.problems().into_iter().map(|p| p.field).collect();
        assert!(
            fields.contains(&"emitters[1].trigger.OnDeath.of".into()),
            "{fields:?}"
        );
        assert!(
            fields.contains(&"emitters[1].trigger.count".into()),
            "{fields:?}"
        );
        d.emitters[1].trigger = Trigger::OnDeath { of: 0, count: 400 };
        assert!(d.problems().is_empty(), "{:?}", d.problems());
        assert_eq!(d.death_source(), Some(0));
        // two emitters watching different ones: one watched emitter per effect
        d.emitters[0].trigger = Trigger::OnDeath { of: 1, count: 1 };
        let fields: Vec<_> = d.problems().into_iter().map(|p| p.field).collect();
        assert_eq!(fields, ["emitters[1].trigger.OnDeath.of"]);
        // a third event emitter is one too many
        d.emitters[0].trigger = Trigger::Schedule;
        d.emitters.push(d.emitters[1].clone());
        d.emitters.push(d.emitters[1].clone());
        let fields: Vec<_> = d.problems().into_iter().map(|p| p.field).collect();
        assert_eq!(fields, ["emitters[].trigger"]);
    }

    #[test]
    fn unknown_field_is_a_syntax_error() {
        let src = sample().to_ron().replacen("name:", "colour: 3, name:", 1);
        let err = EffectDesc::from_ron(&src).unwrap_err().to_string();
        assert!(err.contains("colour"), "{err}");
    }

    #[test]
    fn spawn_clock_carries_fractions_and_repeats_bursts() {
        let mut d = sample();
        d.emitters.truncate(1);
        d.emitters[0].rate = 10.0;
        d.emitters[0].bursts = vec![Burst {
            time: 0.0,
            count: 100,
            every: Some(0.5),
            cycles: Some(3),
        }];
        let mut clock = SpawnClock::default();
        let total: u64 = (0..100).map(|_| clock.advance(&d, 0.03)[0]).sum();
        // 3 s at 10/s = 30 (to within the carry), and three bursts of 100
        assert!((329..=330).contains(&total), "{total}");
        assert_eq!(clock.requested_total, total);
    }
}
