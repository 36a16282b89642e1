//! What a stack's lines read and write: the particle's attributes, the frame's clock, the
//! effect's parameters; how the generated WGSL reads and writes each, and how the CPU twin
//! does.

use crate::expr::Type;

/// A built-in attribute of every particle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Attribute {
    Position,
    Velocity,
    Age,
    Lifetime,
    Size,
    Color,
    Rotation,
    Spin,
    Id,
    Emitter,
}

impl Attribute {
    pub const ALL: [Attribute; 10] = [
        Attribute::Position,
        Attribute::Velocity,
        Attribute::Age,
        Attribute::Lifetime,
        Attribute::Size,
        Attribute::Color,
        Attribute::Rotation,
        Attribute::Spin,
        Attribute::Id,
        Attribute::Emitter,
    ];

    /// Its name in expressions.
    pub const fn name(self) -> &'static str {
        match self {
            Attribute::Position => "position",
            Attribute::Velocity => "velocity",
            Attribute::Age => "age",
            Attribute::Lifetime => "lifetime",
            Attribute::Size => "size",
            Attribute::Color => "color",
            Attribute::Rotation => "rotation",
            Attribute::Spin => "spin",
            Attribute::Id => "id",
            Attribute::Emitter => "emitter",
        }
    }

    pub const fn ty(self) -> Type {
        match self {
            Attribute::Position | Attribute::Velocity => Type::Vec3,
            Attribute::Color => Type::Vec4,
            Attribute::Id | Attribute::Emitter => Type::U32,
            _ => Type::F32,
        }
    }

    /// What it is, for the reference table.
    pub const fn doc(self) -> &'static str {
        match self {
            Attribute::Position => {
                "world position, metres (where it is born: the emitter's own space)"
            }
            Attribute::Velocity => "metres per second",
            Attribute::Age => "seconds since it was born",
            Attribute::Lifetime => "seconds it lives (it dies when age reaches it)",
            Attribute::Size => "diameter, metres",
            Attribute::Color => "straight-alpha RGBA, 0..1 (kept as 8 bits a channel)",
            Attribute::Rotation => "radians about the view axis now",
            Attribute::Spin => "radians per second",
            Attribute::Id => "its emission ordinal: a stable key (read only)",
            Attribute::Emitter => "the index of the emitter that spawned it (read only)",
        }
    }

    /// Whether a stack's line may set it (age, id and emitter are the engine's).
    pub const fn writable(self) -> bool {
        !matches!(self, Attribute::Age | Attribute::Id | Attribute::Emitter)
    }

    pub fn by_name(name: &str) -> Option<Attribute> {
        Attribute::ALL.into_iter().find(|a| a.name() == name)
    }

    /// The WGSL that reads it from the particle `(*p)`.
    pub fn wgsl_read(self) -> &'static str {
        match self {
            Attribute::Position => "(*p).pos",
            Attribute::Velocity => "(*p).vel",
            Attribute::Age => "(*p).age",
            Attribute::Lifetime => "(*p).lifetime",
            Attribute::Size => "(*p).size",
            Attribute::Color => "unpack4x8unorm((*p).color)",
            Attribute::Rotation => "rotation_now(*p)",
            Attribute::Spin => "(*p).spin",
            Attribute::Id => "(*p).id",
            Attribute::Emitter => "(*p).emitter",
        }
    }
}

/// Where the effect and the camera are this frame, read by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Place {
    /// The effect's transform's translation.
    Origin,
    /// Where the particle's emitter's own space has its origin.
    EmitterOrigin,
    /// Where the host placed the particle's instance of the effect (its origin without).
    InstanceOrigin,
    /// The camera's position.
    Eye,
    /// The direction the camera looks along.
    ViewDir,
}

impl Place {
    pub const ALL: [Place; 5] = [
        Place::Origin,
        Place::EmitterOrigin,
        Place::InstanceOrigin,
        Place::Eye,
        Place::ViewDir,
    ];

    /// Whether it is the particle's own (no spawn stage reads it: no particle exists yet).
    pub const fn particles(self) -> bool {
        matches!(self, Place::InstanceOrigin)
    }

    pub const fn name(self) -> &'static str {
        match self {
            Place::Origin => "origin",
            Place::EmitterOrigin => "emitter_origin",
            Place::InstanceOrigin => "instance_origin",
            Place::Eye => "eye",
            Place::ViewDir => "view_dir",
        }
    }

    pub const fn doc(self) -> &'static str {
        match self {
            Place::Origin => "where the effect is now: its transform's translation, world metres",
            Place::EmitterOrigin => {
                "where its emitter is now: the origin of the emitter's own space (the effect's \
                 transform times the emitter's), world metres"
            }
            Place::InstanceOrigin => {
                "where the particle's instance of the effect has the effect's origin now \
                 (`origin` for an effect placed once), world metres"
            }
            Place::Eye => "the camera's position, world metres",
            Place::ViewDir => "the direction the camera looks along, a unit vector (world)",
        }
    }

    /// The WGSL that reads it (graph.wgsl's `graph_params`) for the particle `(*p)`.
    pub const fn wgsl_read(self) -> &'static str {
        match self {
            Place::Origin => "graph_params.transform[3].xyz",
            Place::EmitterOrigin => {
                "graph_params.emitters[min((*p).emitter, MAX_EMITTERS - 1u)][3].xyz"
            }
            Place::InstanceOrigin => "graph_instance_origin(*p)",
            Place::Eye => "graph_params.eye",
            Place::ViewDir => "graph_params.view_dir",
        }
    }
}

/// A space whose points and directions expressions carry into the world
/// (`effect_point(p)`, `emitter_vector(v)`, …), from its origin and its axes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Space {
    /// The effect's own: its transform.
    Effect,
    /// The particle's emitter's: the effect's transform times the emitter's.
    Emitter,
    /// The effect's own as the particle's instance places it (the effect's for an effect
    /// placed once).
    Instance,
}

impl Space {
    pub const ALL: [Space; 3] = [Space::Effect, Space::Emitter, Space::Instance];

    /// Its name in `{name}_point` and `{name}_vector`.
    pub const fn name(self) -> &'static str {
        match self {
            Space::Effect => "effect",
            Space::Emitter => "emitter",
            Space::Instance => "instance",
        }
    }

    /// The input holding its origin.
    pub const fn origin(self) -> Place {
        match self {
            Space::Effect => Place::Origin,
            Space::Emitter => Place::EmitterOrigin,
            Space::Instance => Place::InstanceOrigin,
        }
    }

    /// The hidden input holding its axis `k` (x, y, z); hidden: no expression can name it.
    pub fn axis(self, k: usize) -> String {
        format!("${}_{}", self.name(), ['x', 'y', 'z'][k])
    }

    /// The space and axis of hidden input `name`, if it is one.
    pub fn by_axis(name: &str) -> Option<(Space, u8)> {
        Space::ALL
            .iter()
            .find_map(|&s| (0..3).find(|&k| s.axis(k) == name).map(|k| (s, k as u8)))
    }

    /// The WGSL that reads its axis `k` (world) for the particle `(*p)`.
    pub fn wgsl_axis(self, k: u8) -> String {
        match self {
            Space::Effect => format!("graph_params.transform[{k}].xyz"),
            Space::Emitter => {
                format!("graph_params.emitters[min((*p).emitter, MAX_EMITTERS - 1u)][{k}].xyz")
            }
            Space::Instance => format!("graph_instance_axis(*p, {k}u)"),
        }
    }

    /// The expression language's view of it: the inputs of its origin and axes.
    pub fn frame(self, refusal: Option<String>) -> crate::expr::Frame {
        crate::expr::Frame {
            name: self.name(),
            origin: self.origin().name().to_string(),
            axes: [0, 1, 2].map(|k| self.axis(k)),
            refusal,
        }
    }
}

/// Where the effect, its emitters' spaces and the camera are this frame, as the CPU
/// evaluator reads them (the GPU reads `GraphParams`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Placement<'a> {
    /// The effect's transform (world).
    pub transform: glam::Mat4,
    /// Each emitter's space (world: the effect's transform times the emitter's).
    pub emitters: &'a [glam::Mat4],
    pub eye: glam::Vec3,
    pub view_dir: glam::Vec3,
}

impl Placement<'_> {
    /// Emitter `e`'s space (the identity for an emitter the effect does not have).
    fn emitter(&self, e: usize) -> glam::Mat4 {
        self.emitters
            .get(e)
            .copied()
            .unwrap_or(glam::Mat4::IDENTITY)
    }

    /// `place` as emitter `e`'s particles read it (an effect placed once: its instance is
    /// the effect).
    pub fn place(&self, place: Place, e: usize) -> glam::Vec3 {
        match place {
            Place::Origin | Place::InstanceOrigin => self.transform.w_axis.truncate(),
            Place::EmitterOrigin => self.emitter(e).w_axis.truncate(),
            Place::Eye => self.eye,
            Place::ViewDir => self.view_dir,
        }
    }

    /// Axis `k` of `space` as emitter `e`'s particles read it.
    pub fn axis(&self, space: Space, k: u8, e: usize) -> glam::Vec3 {
        let m = match space {
            Space::Effect | Space::Instance => self.transform,
            Space::Emitter => self.emitter(e),
        };
        m.col(k as usize).truncate()
    }
}

/// The frame's clock, read by name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Clock {
    /// Seconds since the effect started.
    Time,
    /// Seconds of this step.
    Dt,
}

impl Clock {
    pub const ALL: [Clock; 2] = [Clock::Time, Clock::Dt];

    pub const fn name(self) -> &'static str {
        match self {
            Clock::Time => "time",
            Clock::Dt => "dt",
        }
    }

    pub const fn doc(self) -> &'static str {
        match self {
            Clock::Time => "seconds since the effect started (at the frame's start)",
            Clock::Dt => "seconds of this step",
        }
    }
}
