//! Built-in demos: an effect sized to the pool, a camera and a background.

mod campfire;
pub mod crowd;
mod explosion;
mod fireworks;
pub mod flock;
pub mod galaxy;
pub mod gun;
mod rain;
mod shipped_images;
mod snow;
mod spell;
pub mod sword;
mod vortex;

use flurry::effect::EffectDesc;
use flurry::glam::Vec3;
use flurry::{Camera, Invalid};

use super::stage::{ground, Stage, TERRAIN};

/// The demos `flurry demo|stats|profile` know.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Demo {
    /// Snow in a wrapping box around the camera (the DirectX 9 snow chapter, the particle-system lecture and the rain-and-snow thesis).
    Snow,
    /// Rockets bursting into additive sparks of random colours (the particle-system lecture).
    Fireworks,
    /// Rain streaks with splashes spawned on the GPU where drops hit the ground (the rain-and-snow thesis).
    Rain,
    /// The particle gun: bullets from the camera along its look direction (the particle-system lecture).
    Gun,
    /// Two disk galaxies colliding: massive cores, a million tracer stars (the N-body galaxy the snow chapter mentions).
    Galaxy,
    /// A sword swung in arcs: a ribbon afterimage, sparks with trails from the blade's surface, lit metal shards that bounce and settle (the modern GPU particles talk).
    Sword,
    /// A murmuration: boids that start scattered and turn into one flock circling a roost, steered through a GPU neighbour grid, drawn as birds beating their wings.
    Flock,
    /// A city's crowd: walkers between doors along GPU flow fields, kept off the buildings by the map's distance field and apart through the neighbour grid, each in a state of the effect's state table, drawn as figures with a walk cycle.
    Crowd,
    /// A campfire written as stacks of expressions: a flame along a multi-key gradient, sparks bright while fast, smoke lifted by a heat of its own that cools.
    Campfire,
    /// An explosion every four seconds: a fireball flipbook, a shockwave ring, glinting sparks with trails, bouncing debris, lingering smoke lit and shadowing itself.
    Explosion,
    /// Dust spun up a funnel by force functions imported from a module file (effects/modules/vortex.ron).
    Vortex,
    /// A spell's motes orbiting their walking caster in a colour the host sets (--param tint=…).
    Spell,
    /// The galaxy's N-body mode (`--mode nbody`): two self-gravitating star clusters.
    #[value(skip)]
    Nbody,
}

/// How the galaxy demo computes gravity (`--mode`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, clap::ValueEnum)]
pub enum GalaxyMode {
    /// Massive cores pulling massless tracer stars (O(N·M)).
    #[default]
    Collision,
    /// All-pairs gravity between at most 65,536 stars (O(N²)).
    Nbody,
}

impl GalaxyMode {
    /// The demo a `--mode` turns `demo` into; N-body mode exists for the galaxy only.
    pub fn apply(self, demo: Demo) -> Result<Demo, Invalid> {
        match (self, demo) {
            (GalaxyMode::Collision, d) => Ok(d),
            (GalaxyMode::Nbody, Demo::Galaxy | Demo::Nbody) => Ok(Demo::Nbody),
            (GalaxyMode::Nbody, d) => Err(Invalid::new(
                "--mode",
                "nbody",
                format!("with the galaxy demo only (not {})", d.name()),
            )),
        }
    }
}

impl Demo {
    pub fn name(self) -> &'static str {
        match self {
            Demo::Snow => "snow",
            Demo::Fireworks => "fireworks",
            Demo::Rain => "rain",
            Demo::Gun => "gun",
            Demo::Galaxy => "galaxy",
            Demo::Nbody => "nbody",
            Demo::Sword => "sword",
            Demo::Flock => "flock",
            Demo::Crowd => "crowd",
            Demo::Campfire => "campfire",
            Demo::Explosion => "explosion",
            Demo::Vortex => "vortex",
            Demo::Spell => "spell",
        }
    }

    /// The effect, scaled so that `capacity` particles are about what it needs.
    pub fn effect(self, capacity: u32) -> EffectDesc {
        match self {
            Demo::Snow => snow::effect(capacity),
            Demo::Fireworks => fireworks::effect(capacity),
            Demo::Rain => rain::effect(capacity),
            Demo::Gun => gun::effect(&gun::player(16.0 / 9.0), true),
            Demo::Galaxy => galaxy::effect(capacity),
            Demo::Nbody => galaxy::nbody_effect(capacity),
            Demo::Sword => sword::effect(),
            Demo::Flock => flock::effect(capacity),
            Demo::Crowd => crowd::effect(capacity),
            Demo::Campfire => campfire::effect(),
            Demo::Explosion => explosion::effect(),
            Demo::Vortex => vortex::effect(capacity),
            Demo::Spell => spell::effect(),
        }
    }

    /// The meshes the demo adds to its renderer before its effect (`Host(0)` onwards).
    pub fn meshes(self) -> Vec<flurry::Mesh> {
        match self {
            Demo::Sword => vec![sword::blade()],
            _ => Vec::new(),
        }
    }

    /// The images the demo adds to its renderer before its effect (`image: 0` onwards).
    pub fn images(self) -> Vec<flurry::Image> {
        match self {
            Demo::Sword => vec![sword::afterimage()],
            Demo::Campfire | Demo::Explosion => shipped_images::images(),
            _ => Vec::new(),
        }
    }

    /// Where the demo holds its effect at a time, if it moves it.
    pub fn motion(self) -> Option<fn(f64) -> flurry::glam::Mat4> {
        match self {
            Demo::Sword => Some(sword::blade_at),
            Demo::Spell => Some(spell::caster_at),
            _ => None,
        }
    }

    /// The effect for `stage`: over the plane it collides with the ground.
    pub fn effect_in(self, stage: Stage, capacity: u32) -> EffectDesc {
        match (self, stage) {
            (_, Stage::Empty) => self.effect(capacity),
            (Demo::Snow, Stage::Plane) => snow::effect_over_ground(capacity),
            (Demo::Snow, Stage::Terrain) => snow::effect_over_terrain(capacity),
            (_, Stage::Terrain) => self.effect(capacity),
            (Demo::Fireworks, Stage::Plane) => fireworks::effect_over_ground(capacity),
            (
                Demo::Galaxy
                | Demo::Nbody
                | Demo::Rain
                | Demo::Gun
                | Demo::Sword
                | Demo::Flock
                | Demo::Crowd
                | Demo::Campfire
                | Demo::Explosion
                | Demo::Vortex
                | Demo::Spell,
                Stage::Plane,
            ) => self.effect(capacity),
        }
    }

    /// The camera for `stage`: over the plane it looks down at the ground.
    pub fn camera_in(self, stage: Stage, aspect: f32) -> Camera {
        let look = |eye: Vec3, target: Vec3| Camera::look_at(eye, target, aspect);
        match (self, stage) {
            (_, Stage::Empty) => self.camera(aspect),
            (Demo::Snow, Stage::Plane) => look(Vec3::new(0.0, 6.0, 14.0), Vec3::ZERO),
            (Demo::Snow, Stage::Terrain) => {
                let eye = Vec3::new(0.0, ground(0.0, 10.0) + 2.2, 10.0);
                look(eye, Vec3::new(0.0, ground(0.0, -8.0) + 1.2, -8.0))
            }
            (_, Stage::Terrain) => self.camera(aspect),
            (Demo::Fireworks, Stage::Plane) => {
                look(Vec3::new(0.0, 4.0, 12.0), Vec3::new(0.0, 4.0, -14.0))
            }
            (
                Demo::Galaxy
                | Demo::Nbody
                | Demo::Rain
                | Demo::Gun
                | Demo::Sword
                | Demo::Flock
                | Demo::Crowd
                | Demo::Campfire
                | Demo::Explosion
                | Demo::Vortex
                | Demo::Spell,
                Stage::Plane,
            ) => self.camera(aspect),
        }
    }

    /// The demo's camera for a target of `aspect` = width / height.
    pub fn camera(self, aspect: f32) -> Camera {
        match self {
            Demo::Snow => snow::camera(aspect),
            Demo::Fireworks => fireworks::camera(aspect),
            Demo::Rain => rain::camera(aspect),
            Demo::Gun => gun::camera(aspect),
            Demo::Galaxy | Demo::Nbody => galaxy::camera(aspect),
            Demo::Sword => sword::camera(aspect),
            Demo::Flock => flock::camera(aspect),
            Demo::Crowd => crowd::camera(aspect),
            Demo::Campfire => campfire::camera(aspect),
            Demo::Explosion => explosion::camera(aspect),
            Demo::Vortex => vortex::camera(aspect),
            Demo::Spell => spell::camera(aspect),
        }
    }

    /// Clear colour behind the particles (linear RGB).
    pub fn background(self) -> [f64; 4] {
        match self {
            Demo::Snow => [0.012, 0.018, 0.035, 1.0],
            Demo::Fireworks => [0.002, 0.002, 0.008, 1.0],
            Demo::Rain => [0.008, 0.01, 0.016, 1.0],
            Demo::Gun => [0.01, 0.012, 0.02, 1.0],
            Demo::Galaxy | Demo::Nbody => [0.0005, 0.0005, 0.0015, 1.0],
            Demo::Sword => [0.006, 0.007, 0.012, 1.0],
            // a winter dusk
            Demo::Flock => [0.32, 0.36, 0.45, 1.0],
            // a hazy day
            Demo::Crowd => [0.5, 0.56, 0.65, 1.0],
            // night
            Demo::Campfire | Demo::Spell => [0.004, 0.005, 0.01, 1.0],
            // dusk
            Demo::Explosion => [0.02, 0.022, 0.03, 1.0],
            // a dusky plain
            Demo::Vortex => [0.03, 0.03, 0.04, 1.0],
        }
    }

    /// Default pool size.
    pub fn default_particles(self) -> u32 {
        match self {
            Demo::Snow => 65_536,
            Demo::Fireworks => 65_536,
            Demo::Galaxy => 1_048_576,
            Demo::Nbody => 16_384,
            Demo::Rain => 65_536,
            Demo::Gun => 4_096,
            Demo::Sword => 65_536,
            Demo::Flock => 262_144,
            Demo::Crowd => 131_072,
            Demo::Campfire | Demo::Spell | Demo::Explosion => 16_384,
            Demo::Vortex => 65_536,
        }
    }

    /// The level of detail the demo runs at when `--mesh-lod` is not given: the crowd's
    /// walkers a few pixels tall are drawn as discs (most of the city, from its camera).
    pub fn lod(self) -> Option<flurry::Lod> {
        match self {
            Demo::Crowd => Some(mesh_lod(CROWD_MESH_LOD)),
            _ => None,
        }
    }

    /// The host scene the demo runs in when `--scene` is not given (rain needs ground).
    pub fn default_stage(self) -> Stage {
        match self {
            Demo::Rain | Demo::Gun | Demo::Sword => Stage::Plane,
            Demo::Campfire | Demo::Explosion | Demo::Vortex | Demo::Spell => Stage::Plane,
            Demo::Snow => Stage::Terrain,
            _ => Stage::Empty,
        }
    }

    /// Seconds (simulation time units) per frame when the run asks for a fixed step
    /// without giving one.
    pub fn default_dt(self) -> f32 {
        match self {
            Demo::Galaxy | Demo::Nbody => 0.02,
            // the steering is worked out once a frame: 30 a second is what it was tuned at
            Demo::Flock | Demo::Crowd => 1.0 / 30.0,
            _ => 1.0 / 60.0,
        }
    }
}

/// Host pixels of radius at most which the crowd's walkers are drawn as discs.
pub const CROWD_MESH_LOD: f32 = 8.0;

/// A level of detail that draws mesh particles spanning at most `pixels` in radius as discs
/// and leaves every rate as it is.
pub fn mesh_lod(pixels: f32) -> flurry::Lod {
    flurry::Lod {
        near: 0.0,
        far: 0.0,
        far_rates: 1.0,
        mesh_pixels: pixels,
    }
}
