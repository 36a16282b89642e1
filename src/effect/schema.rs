//! The effect schema: what an effect emits and how its particles move and look, as Rust
//! values and as RON files (serde). Every field has a default, so an effect names only what
//! differs from it, in Rust (`..Default::default()`) and in a file (fields left out).

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// Whole numbers read from a file, as digits or in exponent form (`1e6`): a number out of a
/// u32's range or with a fraction is refused with the value and the range (the reader adds
/// the field's path: `effect::parse`).
mod whole {
    use serde::de::{Deserializer, Error, Visitor};

    struct Whole;

    impl Visitor<'_> for Whole {
        type Value = u32;

        fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
            write!(f, "a whole number 0..=4294967295")
        }

        fn visit_u64<E: Error>(self, v: u64) -> Result<u32, E> {
            u32::try_from(v).map_err(|_| E::custom(format!("{v}: allowed 0..=4294967295")))
        }

        fn visit_i64<E: Error>(self, v: i64) -> Result<u32, E> {
            u32::try_from(v).map_err(|_| E::custom(format!("{v}: allowed 0..=4294967295")))
        }

        fn visit_f64<E: Error>(self, v: f64) -> Result<u32, E> {
            if v.fract() == 0.0 && (0.0..=u32::MAX as f64).contains(&v) {
                Ok(v as u32)
            } else {
                Err(E::custom(format!(
                    "{v:e}: allowed whole numbers 0..=4294967295"
                )))
            }
        }
    }

    /// A particle count, or an emitter's index.
    pub fn number<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
        d.deserialize_any(Whole)
    }
}

/// A scalar drawn uniformly from `[mean - variance, mean + variance]`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Range {
    /// The middle of the range.
    pub mean: f32,
    /// Half the width of the range (>= 0); 0: always `mean`.
    #[serde(default)]
    pub variance: f32,
}

impl Range {
    /// `mean ± variance`.
    pub const fn new(mean: f32, variance: f32) -> Self {
        Range { mean, variance }
    }

    /// Always `value`.
    pub const fn constant(value: f32) -> Self {
        Range::new(value, 0.0)
    }
}

/// An RGBA colour (straight alpha, 0..=1) drawn per channel from `mean ± variance`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ColorRange {
    /// The middle colour.
    pub mean: [f32; 4],
    /// Half the width of each channel's range.
    #[serde(default)]
    pub variance: [f32; 4],
}

impl ColorRange {
    /// `mean ± variance` per channel.
    pub const fn new(mean: [f32; 4], variance: [f32; 4]) -> Self {
        ColorRange { mean, variance }
    }

    /// Always `rgba`.
    pub const fn constant(rgba: [f32; 4]) -> Self {
        ColorRange::new(rgba, [0.0; 4])
    }
}

/// Opaque white.
impl Default for ColorRange {
    fn default() -> Self {
        ColorRange::constant([1.0; 4])
    }
}

/// Where new particles appear.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Shape {
    /// A single point.
    Point([f32; 3]),
    /// Uniform inside an axis-aligned box.
    Box {
        /// The corner with the smallest coordinates.
        min: [f32; 3],
        /// The corner with the largest coordinates.
        max: [f32; 3],
    },
    /// Uniform inside a ball, or on its surface when `surface` is true.
    Sphere {
        /// The ball's centre.
        center: [f32; 3],
        /// Metres.
        radius: f32,
        /// On the surface only.
        #[serde(default)]
        surface: bool,
    },
    /// Uniform on a flat disk facing `normal`.
    Disk {
        /// The disk's centre.
        center: [f32; 3],
        /// Metres.
        radius: f32,
        /// The side the disk faces (any length but zero).
        normal: [f32; 3],
    },
    /// A galaxy disk around massive body `body` (see [`Bodies`]): surface density falling
    /// as exp(−r / scale_length) out to `max_radius`, ± `thickness` / 2 off the plane
    /// facing `normal`.
    Galaxy {
        /// Index of the body at the centre.
        body: u32,
        /// Metres over which the density falls by e.
        scale_length: f32,
        /// No star farther out, metres.
        max_radius: f32,
        /// Metres across the plane.
        thickness: f32,
        /// The side the disk faces.
        normal: [f32; 3],
    },
    /// Uniform over a triangle mesh's surface: a triangle chosen by its share of the area,
    /// a uniform point on it; the normal there (the corner normals interpolated) is what
    /// [`Velocity::Normal`] follows.
    Mesh {
        /// Which mesh: a built-in or one the host added.
        mesh: MeshSource,
        /// Where the mesh's origin goes, metres.
        #[serde(default)]
        center: [f32; 3],
        /// The mesh's size factor (> 0; the built-ins are about 1 m across).
        #[serde(default = "one")]
        scale: f32,
    },
}

/// Which mesh a [`Shape::Mesh`] emitter spawns on (and, later, what a mesh particle is).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum MeshSource {
    /// The unit cube, centred on the origin.
    Cube,
    /// A regular tetrahedron on alternate corners of the unit cube.
    Tetrahedron,
    /// A flat irregular shard one metre long, 0.08 m thick.
    Shard,
    /// A leaf one metre long along z, facing up.
    Leaf,
    /// A bird one metre across the wings, its nose along +z, facing up.
    Bird,
    /// A person 1.75 m tall standing on the origin, facing +z, whose legs and arms swing
    /// (each vertex follows one bone): a crowd's walkers take the pose of their gait.
    Figure,
    /// A mesh the host added to the renderer
    /// ([`ParticleRenderer::add_mesh`](crate::ParticleRenderer::add_mesh)); in a file,
    /// `Host(0)` is the first it added.
    Host(crate::mesh::MeshId),
}

/// As a file writes it: `Cube`, `Host(0)`.
impl std::fmt::Display for MeshSource {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        match self {
            MeshSource::Host(id) => write!(f, "Host({})", id.0),
            built_in => write!(f, "{built_in:?}"),
        }
    }
}

/// At the origin.
impl Default for Shape {
    fn default() -> Self {
        Shape::Point([0.0; 3])
    }
}

/// Initial velocity.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub enum Velocity {
    /// Each component drawn from `mean ± variance`.
    Linear {
        /// m/s per axis.
        mean: [f32; 3],
        /// m/s per axis (>= 0).
        variance: [f32; 3],
    },
    /// A uniformly random direction on the unit sphere times a speed (fireworks).
    Radial {
        /// m/s.
        speed: Range,
    },
    /// The circular orbit about massive body `body` in the plane facing `normal` (plus the
    /// body's own velocity), with a random `dispersion` (m/s per axis) on top.
    Orbit {
        /// Index of the body orbited.
        body: u32,
        /// The orbit plane faces it.
        normal: [f32; 3],
        /// m/s of random motion per axis.
        #[serde(default)]
        dispersion: f32,
    },
    /// Along the surface's normal where the particle is born, times a speed: out of a
    /// [`Shape::Mesh`] (its interpolated normal), a sphere (radially) or a disk (the side it
    /// faces). Sparks thrown off a blade.
    Normal {
        /// m/s (negative: into the surface).
        speed: Range,
    },
}

/// At rest.
impl Default for Velocity {
    fn default() -> Self {
        Velocity::Linear {
            mean: [0.0; 3],
            variance: [0.0; 3],
        }
    }
}

/// A massive body: it attracts every particle of the effect and the other bodies
/// (Plummer-softened gravity) and moves under their pull; particles do not pull back
/// (Toomre & Toomre's restricted problem: massive cores, massless stars).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BodyDesc {
    /// Initial position, metres.
    pub pos: [f32; 3],
    /// Initial velocity, m/s.
    #[serde(default)]
    pub vel: [f32; 3],
    /// Mass (in the units of `g`).
    pub mass: f32,
    /// Softening length, metres (> 0).
    pub softening: f32,
}

/// All-pairs gravity between the particles themselves (N-body mode, at most
/// [`MAX_NBODY`](super::MAX_NBODY) particles): every particle has `mass` and pulls every
/// other with Plummer softening.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SelfGravity {
    /// Gravitational constant.
    #[serde(default = "one")]
    pub g: f32,
    /// Mass of every particle.
    pub mass: f32,
    /// Softening length, metres (> 0).
    pub softening: f32,
}

/// The massive bodies of an effect and their gravitational constant.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bodies {
    /// Gravitational constant.
    #[serde(default = "one")]
    pub g: f32,
    /// 1 to [`MAX_BODIES`](super::MAX_BODIES) bodies.
    pub bodies: Vec<BodyDesc>,
}

/// `count` particles at `time` seconds, repeated every `every` seconds `cycles` times
/// (forever when `cycles` is absent and `every` is given; once when `every` is absent).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Burst {
    /// Seconds from the effect's start.
    pub time: f32,
    /// Particles per occurrence.
    #[serde(deserialize_with = "whole::number")]
    pub count: u32,
    /// Seconds between occurrences; once when absent.
    #[serde(default)]
    pub every: Option<f32>,
    /// How many occurrences; forever when absent.
    #[serde(default)]
    pub cycles: Option<u32>,
}

impl Burst {
    /// `count` particles once, at `time` seconds.
    pub const fn once(time: f32, count: u32) -> Self {
        Burst {
            time,
            count,
            every: None,
            cycles: None,
        }
    }
}

/// When an emitter spawns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Trigger {
    /// By its `rate` and `bursts`.
    #[default]
    Schedule,
    /// `count` particles at every depth-collision hit of the effect, on the GPU (rain
    /// splashes): the emitter's shape is relative to the hit point, its velocity is turned
    /// to the surface's side, and its particles never collide themselves.
    OnHit {
        /// Particles per hit.
        #[serde(deserialize_with = "whole::number")]
        count: u32,
    },
    /// `count` particles wherever a particle of emitter `of` dies, on the GPU (rockets
    /// bursting into sparks); the shape is relative to the death point and the new
    /// particles inherit nothing else.
    OnDeath {
        /// The emitter whose particles' deaths are watched.
        #[serde(deserialize_with = "whole::number")]
        of: u32,
        /// Particles per death.
        #[serde(deserialize_with = "whole::number")]
        count: u32,
    },
    /// A trail behind every particle of emitter `of`: one particle every `every` seconds
    /// of its life, where it was then, on the GPU (the shape is relative to that point;
    /// the velocity is the emitter's own; the colour is the particle's start colour times
    /// the emitter's, so white keeps it). Drawn as a [`RenderMode::Ribbon`], each
    /// particle's trail is its own ribbon, joined in the order it was laid (every firework
    /// spark drawing its streak); drawn as billboards, a trail of puffs. A trail keeps
    /// 4096 points at most: a particle older than 4096 × `every` lays no more.
    Trail {
        /// The emitter whose particles leave trails.
        #[serde(deserialize_with = "whole::number")]
        of: u32,
        /// Seconds between two points of a trail (1e-3..=1000).
        every: f32,
    },
}

/// One emitter of an effect. By default a point at the origin that spawns nothing: set a
/// `rate` or `bursts`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmitterDesc {
    /// Where its particles appear.
    pub shape: Shape,
    /// Continuous emission, particles per second (fractions carry over between frames), born
    /// at even intervals over each frame.
    pub rate: f32,
    /// Scheduled bursts, each born when it is due within its frame.
    pub bursts: Vec<Burst>,
    /// Initial velocity.
    pub velocity: Velocity,
    /// Seconds (mean − variance > 0).
    pub lifetime: Range,
    /// Diameter in metres.
    pub size: Range,
    /// Start colour.
    pub color: ColorRange,
    /// Radians.
    pub rotation: Range,
    /// Radians per second.
    pub spin: Range,
    /// When it spawns (its schedule by default).
    pub trigger: Trigger,
    /// Its own appearance over life, in place of the effect's `over_life`.
    pub over_life: Option<OverLife>,
    /// Its own quad orientation, in place of the effect's `render`.
    pub render: Option<RenderMode>,
    /// Its own sprite, in place of the effect's `sprite`.
    pub sprite: Option<Sprite>,
    /// Its particles stay where they are born, untouched by forces (ripples, marks).
    pub anchored: bool,
    /// Its billboards are not lit by the effect's [`Lighting`] (a flame or a spark among
    /// lit smoke: light of their own).
    #[serde(default, skip_serializing_if = "is_false")]
    pub unlit: bool,
    /// Multiplies its colour's red, green and blue as drawn (0..=1000): above 1, light
    /// brighter than white (sparks, embers), which an HDR host receives as it is and an LDR
    /// host sees tonemapped.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub emission: f32,
    /// Lines run once as each particle is born, after its ranges are drawn, in order
    /// (`"size = 0.1 + 0.05 * particle_rand(1)"`): its position and velocity in the
    /// emitter's own space, before the emitter's transform places them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub init: Vec<crate::expr::Statement>,
    /// Lines run every step before its forces are applied, in order: `attribute = …`,
    /// `force += …` (an acceleration, m/s², added to gravity and drag), `kill if …`.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub update: Vec<crate::expr::Statement>,
    /// The render stage: lines that say how each particle is drawn, run as it is born and
    /// after every step: `color`, `alpha`, `size` and `rotation` set (`"alpha = 1.0 - age /
    /// lifetime"`) from what the particle is, which they never change: the other stacks
    /// keep reading the particle's own values.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub draw: Vec<crate::expr::Statement>,
    /// The spawn stage: lines run once a frame, before the emitter spawns, that set its
    /// `rate` (particles per second; it starts as the `rate` above) and `burst` (what each
    /// burst due in the frame spawns, times its count; it starts at 1) from the clock, the
    /// effect's parameters, `origin` and `eye` (`"rate = 2000.0 * intensity"`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub spawn: Vec<crate::expr::Statement>,
}

/// A point at the origin spawning nothing; particles at rest, living 1 s, 0.1 m across,
/// opaque white.
impl Default for EmitterDesc {
    fn default() -> Self {
        EmitterDesc {
            shape: Shape::default(),
            rate: 0.0,
            bursts: Vec::new(),
            velocity: Velocity::default(),
            lifetime: Range::constant(1.0),
            size: Range::constant(0.1),
            color: ColorRange::default(),
            rotation: Range::default(),
            spin: Range::default(),
            trigger: Trigger::Schedule,
            over_life: None,
            render: None,
            sprite: None,
            anchored: false,
            unlit: false,
            emission: 1.0,
            init: Vec::new(),
            update: Vec::new(),
            draw: Vec::new(),
            spawn: Vec::new(),
        }
    }
}

/// Global forces: `a = gravity + drag·(wind − v)`.
///
/// The drag is integrated exactly over each step, the other forces held as they were at
/// its start: `v' = v + a·dt·(1 − e^(−drag·dt))/(drag·dt)`. The velocity relaxes towards
/// `wind + gravity/drag` and never overshoots it, so any drag is stable at any step (explicit
/// Euler's `v + a·dt` diverges once `drag·dt > 2`); without drag this is `v + a·dt` exactly.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Forces {
    /// m/s² (Earth's by default).
    pub gravity: [f32; 3],
    /// Air velocity, m/s; only felt through drag.
    pub wind: [f32; 3],
    /// Linear drag coefficient, 1/s (0..=1000): the velocity's approach to the wind
    /// falls by `e^(−drag·t)`.
    pub drag: f32,
    /// Eddies in the wind (curl noise), felt through drag like the wind.
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

/// Earth's gravity, no wind, no drag, no turbulence.
impl Default for Forces {
    fn default() -> Self {
        Forces {
            gravity: [0.0, -9.81, 0.0],
            wind: [0.0; 3],
            drag: 0.0,
            turbulence: None,
        }
    }
}

impl Forces {
    /// No force at all (particles keep their initial velocity).
    pub const NONE: Forces = Forces {
        gravity: [0.0; 3],
        wind: [0.0; 3],
        drag: 0.0,
        turbulence: None,
    };
}

/// Time integration.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Integrator {
    /// `v' = v + a·dt; x' = x + v·dt` (the old velocity; the drag's share of `a·dt` exact,
    /// as [`Forces`] says).
    #[default]
    ExplicitEuler,
    /// `v' = v + a·dt; x' = x + v'·dt` (keeps orbits closed; the drag as for explicit
    /// Euler).
    SymplecticEuler,
}

/// What happens to a particle that leaves the bounds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum OnExit {
    /// It dies.
    Kill,
    /// It re-enters from the opposite face (snow falling through the floor reappears at the
    /// top).
    Wrap,
}

/// The effect's region.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Bounds {
    /// The corner with the smallest coordinates.
    pub min: [f32; 3],
    /// The corner with the largest coordinates.
    pub max: [f32; 3],
    /// What leaving the box does.
    pub on_exit: OnExit,
    /// The box, and the shapes of the scheduled emitters, are relative to the camera's x
    /// and z (snow that never ends however far the camera goes).
    #[serde(default)]
    pub follow_camera: bool,
}

/// Appearance over normalised age t = age / lifetime: colour × mix(1, color_end, t),
/// size × mix(1, size_end, t).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct OverLife {
    /// Multiplies the start colour at the end of life (0..=1000 per channel).
    pub color_end: [f32; 4],
    /// Multiplies the start size at the end of life (0..=1000).
    pub size_end: f32,
}

/// Unchanged over life.
impl Default for OverLife {
    fn default() -> Self {
        OverLife {
            color_end: [1.0; 4],
            size_end: 1.0,
        }
    }
}

/// How a particle's quad faces the camera.
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum RenderMode {
    /// Facing the camera, turned by the particle's rotation (explosions).
    #[default]
    Billboard,
    /// Turning about the world's up axis only (trees, flames).
    Upright,
    /// Drawn along the velocity, as long as `seconds` of motion (rain streaks, sparks).
    Stretched {
        /// Seconds of motion the streak covers (0..=10).
        seconds: f32,
    },
    /// A flat quad spinning about its own X and Y axes, not facing the camera (snowflakes).
    Tumbling,
    /// Lying flat on the ground, turned about the up axis by the rotation (ripples).
    Flat,
    /// The emitter's living particles are the control points of one ribbon, joined in
    /// the order they were born into a strip turned towards the camera around its
    /// direction (afterimages of a swung blade). Between each two points the strip follows
    /// a centripetal Catmull-Rom spline (no cusps or loops where points bunch up), in
    /// `subdivisions` + 1 straight pieces; its width is the particles' size, its colour
    /// theirs (both over life), blended between neighbours. A point that dies leaves its
    /// neighbours joined. The strip's pieces are sorted with the effect's other particles,
    /// piece by piece, where the effect sorts. Only for emitters that spawn on their
    /// schedule and trails.
    Ribbon {
        /// Extra pieces per span between two points (0..=16): 0 joins them straight.
        subdivisions: u32,
        /// An image along the strip, tinted by its colour; none: the colour alone.
        #[serde(default)]
        texture: Option<RibbonTexture>,
    },
    /// Each particle is a lit, opaque triangle mesh (debris, shards, leaves): scaled by
    /// its size (the built-ins are about 1 m across), turned by its rotation about its own
    /// random axis (spin turns it), coloured by its colour over life and lit by the
    /// renderer's [`Light`](crate::Light). Drawn into the host's colour and depth with a
    /// depth test against them, and hiding the particles behind it; it collides with the
    /// host's depth like every particle. An effect's mesh emitters all draw one mesh.
    Mesh {
        /// Which mesh: a built-in or one the host added.
        mesh: MeshSource,
        /// A mesh that flies (birds): turned to face where it goes, its wings beating.
        #[serde(default)]
        flight: Option<Flight>,
    },
}

/// A flying mesh particle: its mesh's +z turned along its velocity and its +y as near to
/// the world's up as that allows (no roll), in place of its rotation; the mesh's two halves
/// (x > 0 and x < 0) beat about its z axis like wings, up and down through `angle` either
/// side of the rest pose, `beat` times a second, each particle at its own phase.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flight {
    /// Wing beats per second (0..=100).
    pub beat: f32,
    /// Radians either side of the rest pose (0..=1.5).
    pub angle: f32,
}

/// The image a ribbon shows along its length. Its texture coordinate runs along the ribbon
/// from 0 at its newest point to `repeats` at its oldest, spread evenly over its living
/// points (so the image stretches as the ribbon grows and slides as its points die), and
/// across it from 0 on one edge to 1 on the other; the image repeats along and is clamped
/// across. All of an effect's ribbons show one image.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct RibbonTexture {
    /// Which image: one the host added
    /// ([`ParticleRenderer::add_image`](crate::ParticleRenderer::add_image)); in a file `0`
    /// is the first it added.
    pub image: crate::image::ImageId,
    /// Times the image repeats from the newest point to the oldest (0.01..=1000).
    #[serde(default = "one")]
    pub repeats: f32,
}

/// The image on a particle's quad.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub enum Sprite {
    /// A procedural soft round dot.
    #[default]
    Disc,
    /// One of six procedural six-fold snowflakes, chosen by the particle's id.
    Snowflakes,
    /// A thin procedural ring (ripples on water).
    Ring,
    /// An image or a flipbook's frames (smoke puffs, flames, sparks).
    Image(super::ImageSprite),
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
    /// Reflect: the normal speed times `restitution` (0..=1), the tangential speed and
    /// the spin times `1 - friction` (0..=1), so tumbling debris comes to rest.
    Bounce {
        /// Fraction of the normal speed kept.
        restitution: f32,
        /// Fraction of the tangential speed lost.
        #[serde(default)]
        friction: f32,
    },
    /// Die on contact.
    Kill,
    /// Stop on the surface (and stop spinning), stay `time` seconds fading out, then die
    /// (snow coming to rest).
    Settle {
        /// Seconds at rest.
        time: f32,
    },
}

/// Screen-space collision with the host's depth (the previous frame's, seen through the
/// previous frame's camera). Only positions on screen and in front of the far plane can
/// collide: particles off screen or behind everything pass through.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Collision {
    /// What a hit does.
    pub response: Response,
    /// Metres behind the stored surface that still count as a hit; deeper means the
    /// particle is passing behind the object, not into it.
    #[serde(default = "default_thickness")]
    pub thickness: f32,
}

impl Collision {
    /// `response` with the default thickness (0.5 m).
    pub const fn new(response: Response) -> Self {
        Collision {
            response,
            thickness: 0.5,
        }
    }
}

fn default_thickness() -> f32 {
    Collision::new(Response::Kill).thickness
}

fn one() -> f32 {
    1.0
}

fn is_false(b: &bool) -> bool {
    !*b
}

fn is_one(x: &f32) -> bool {
    *x == 1.0
}

/// Billboards lit by the renderer's [`Light`](crate::Light): each pixel of a sprite takes
/// the normal of the visible half of a sphere (facing the camera at its centre, edge-on at
/// its rim), so a puff of smoke is lit on the side towards the light and dark on the other,
/// and its colour is multiplied by the light's ambient plus its colour times the wrapped
/// diffuse term `max(0, (n·l + wrap) / (1 + wrap))`. Ribbons and mesh particles are not
/// affected (meshes are always lit).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Lighting {
    /// How far the light reaches round the sphere (0..=1): 0 is Lambert's (dark past the
    /// terminator but for the ambient), 1 lights all but the point facing away; thin
    /// media such as smoke scatter light round, about 0.5.
    pub wrap: f32,
    /// Particles shadow one another along the light (a column of smoke lit on top, dark
    /// beneath); none when absent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub shadows: Option<Shadows>,
}

/// Wrap 0.5: soft, smoke-like; no shadows.
impl Default for Lighting {
    fn default() -> Self {
        Lighting {
            wrap: 0.5,
            shadows: None,
        }
    }
}

/// Self-shadowing: each frame the particles' density is gathered into a grid of `cells`³
/// boxes around where they are, and the light reaching each particle is what passes
/// through the others between it and the light: exp(−τ · `strength`), τ the optical depth
/// of their discs (each its drawn area times its opacity, spread over its cell). Only the
/// light's direct part is shadowed; the ambient reaches everywhere.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Shadows {
    /// Cells along each side of the grid (4..=64): finer shadows cost more; cells about a
    /// puff across shade best.
    pub cells: u32,
    /// Multiplies the optical depth (0..=100): above 1, denser smoke than its look says.
    pub strength: f32,
}

/// A grid of 16³ cells, the particles as dense as they look.
impl Default for Shadows {
    fn default() -> Self {
        Shadows {
            cells: 16,
            strength: 1.0,
        }
    }
}

/// Boids (a flock of birds, a school of fish): each particle steers apart from the
/// neighbours nearer than `separation`, towards their mean heading and their centre (all
/// those within the effect's `neighbours` radius), and round a roost, at a speed kept within
/// `speed`. The steering is worked out once a frame on the GPU through the neighbour grid
/// and added to the effect's forces.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Flock {
    /// Metres: neighbours nearer than this push apart (at most the `neighbours` radius).
    pub separation: f32,
    /// m/s²: the push of one neighbour at distance 0, falling linearly to 0 at
    /// `separation` (0..=10000).
    pub separate: f32,
    /// 1/s: how fast a particle turns to its neighbours' mean velocity (0..=1000).
    pub align: f32,
    /// 1/s²: the pull towards its neighbours' mean position, per metre (0..=1000).
    pub cohere: f32,
    /// The horizontal circle the flock flies round.
    pub roost: Roost,
    /// m/s: the speed range every particle keeps (`mean − variance` at least 0 and the top
    /// at most 10000).
    pub speed: Range,
}

/// A horizontal circle about `center`: flocks fly round it anticlockwise seen from above,
/// turned back onto it from more than a quarter of its radius away.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Roost {
    /// Metres.
    pub center: [f32; 3],
    /// Metres (0.01..=1e6).
    pub radius: f32,
    /// m/s²: how hard a particle turns towards the way round the circle (0..=10000).
    pub pull: f32,
}

/// A whole effect. The default is named "effect", has no emitters (add at least one),
/// Earth's gravity, explicit Euler, no bounds, alpha-blended camera-facing soft discs.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EffectDesc {
    /// Shown in `stats` output and errors.
    pub name: String,
    /// 1 to [`MAX_EMITTERS`](super::MAX_EMITTERS) emitters sharing the pool.
    pub emitters: Vec<EmitterDesc>,
    /// Gravity, wind, drag, turbulence.
    pub forces: Forces,
    /// How velocity and position are stepped.
    pub integrator: Integrator,
    /// The region particles live in; none when absent.
    pub bounds: Option<Bounds>,
    /// Colour and size over life (emitters may have their own).
    pub over_life: OverLife,
    /// How particles combine with what is behind them.
    pub blend: Blend,
    /// Sort visible particles back to front; absent: sort alpha-blended effects only
    /// (additive light does not depend on order).
    pub sort: Option<bool>,
    /// Soft particles: metres over which a particle fades out as it nears the scene
    /// behind it (0: hard intersections).
    pub soft_distance: f32,
    /// Depth-buffer collision with the host's scene; none when absent.
    pub collision: Option<Collision>,
    /// Massive bodies that attract the particles (galaxy cores); none when absent.
    pub bodies: Option<Bodies>,
    /// All-pairs gravity between the particles; none when absent.
    pub self_gravity: Option<SelfGravity>,
    /// Bin the particles each frame on a GPU grid so that each finds its neighbours within
    /// this radius (metres, 0.01..=1000): the base of flocking and crowds; none when
    /// absent.
    pub neighbours: Option<f32>,
    /// Boids: every particle steers by its neighbours (those within `neighbours`, which a
    /// flock needs) and circles a roost; none when absent.
    pub flock: Option<Flock>,
    /// People walking a city's streets: every particle is a walker (needs `neighbours`);
    /// none when absent.
    pub crowd: Option<super::Crowd>,
    /// Quad orientation (emitters may have their own).
    pub render: RenderMode,
    /// What is drawn on the quad (emitters may have their own).
    pub sprite: Sprite,
    /// Billboards lit by the renderer's [`Light`](crate::Light); unlit (absent) by
    /// default.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub lighting: Option<Lighting>,
    /// Values the host sets while the effect runs, by name
    /// (at most [`MAX_PARAMETERS`](super::MAX_PARAMETERS)).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parameters: BTreeMap<String, super::Parameter>,
    /// The effect's own attributes, by name, each with the value a particle is born with
    /// (its type is that value's: `heat: 1.0`, `home: "vec3(0.0)"`). Stored per particle
    /// only for an effect that declares them (at most
    /// [`MAX_ATTRIBUTE_WORDS`](super::MAX_ATTRIBUTE_WORDS) components in all); stacks read
    /// and write them as they do the built-in ones.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub attributes: BTreeMap<String, crate::expr::Value>,
    /// Module files (`effects/modules/*.ron`) whose functions the stacks call, each by its
    /// path relative to the effect file ([`EffectDesc::from_file`] reads them; an effect
    /// parsed from text reads them with [`EffectDesc::resolve_imports`]).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub imports: Vec<String>,
    /// Functions the stacks call by name, declared in the effect itself.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub functions: BTreeMap<String, super::Function>,
    /// The modules of `imports` as read, one per import in order (empty until read).
    #[serde(skip)]
    pub imported: Vec<super::Module>,
    /// Named expressions every stack reads by name (`heat: "1 - age / lifetime"`); they
    /// read the particle as it entered the stack.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub nodes: BTreeMap<String, crate::expr::Expr>,
    /// Curves (keyed f32 values) read as `curve(name, x)`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub curves: BTreeMap<String, crate::expr::Curve>,
    /// Gradients (keyed colours) read as `gradient(name, x)`.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub gradients: BTreeMap<String, crate::expr::Gradient>,
}

impl Default for EffectDesc {
    fn default() -> Self {
        EffectDesc {
            name: "effect".into(),
            emitters: Vec::new(),
            forces: Forces::default(),
            integrator: Integrator::default(),
            bounds: None,
            over_life: OverLife::default(),
            blend: Blend::default(),
            sort: None,
            soft_distance: 0.0,
            collision: None,
            bodies: None,
            self_gravity: None,
            neighbours: None,
            flock: None,
            crowd: None,
            render: RenderMode::default(),
            sprite: Sprite::default(),
            lighting: None,
            parameters: BTreeMap::new(),
            attributes: BTreeMap::new(),
            imports: Vec::new(),
            functions: BTreeMap::new(),
            imported: Vec::new(),
            nodes: BTreeMap::new(),
            curves: BTreeMap::new(),
            gradients: BTreeMap::new(),
        }
    }
}
