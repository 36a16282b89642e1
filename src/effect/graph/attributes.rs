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
            Place::Origin => "graph_params.origin",
            Place::EmitterOrigin => {
                "graph_params.emitters[min((*p).emitter, MAX_EMITTERS - 1u)].xyz"
            }
            Place::InstanceOrigin => "graph_instance_origin(*p)",
            Place::Eye => "graph_params.eye",
            Place::ViewDir => "graph_params.view_dir",
        }
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
