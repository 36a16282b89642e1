//! What the GPU tells the host about an effect's particles: where they hit the scene and
//! where they died ([`crate::ParticleRenderer::set_events`],
//! [`crate::ParticleRenderer::drain_events`]), for sounds, decals and gameplay.
//!
//! Simulate writes each event into a buffer of the effect's (up to
//! [`EventSettings::per_frame`] a frame), which is copied into one of a few read-back
//! buffers after the frame and mapped at a later update, never waited for: events arrive a
//! frame or two late. Nothing is lost silently: an event beyond a frame's room, a frame
//! whose read-back found every buffer still in flight and an event beyond what the host
//! keeps undrained ([`EventSettings::kept`]) are all counted in [`DrainedEvents::lost`].

use glam::Vec3;

use crate::error::{Invalid, Result};

/// The most events an effect may record in one frame ([`EventSettings::per_frame`]):
/// 48 bytes each, 3 MiB a frame's buffer.
pub const MAX_EVENTS_PER_FRAME: u32 = 65_536;

/// The most events an effect may keep for the host between two drains
/// ([`EventSettings::kept`]).
pub const MAX_EVENTS_KEPT: u32 = 1 << 20;

/// What happened to a particle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum EventKind {
    /// It hit the host's scene (depth collision): whatever the response, bounce, settle or
    /// kill.
    Hit,
    /// It died: its life ran out, a collision or a stack killed it, it left the effect's
    /// bounds, or it faded out at rest.
    Death,
}

/// One event of one particle, as the GPU recorded it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ParticleEvent {
    /// A hit or a death.
    pub kind: EventKind,
    /// Where, in world space, metres: on the surface for a hit (a millimetre in front of
    /// it), where it was at the end of its last step for a death.
    pub position: Vec3,
    /// Its velocity, m/s: arriving at the surface for a hit (before the response), at the
    /// end of its last step for a death.
    pub velocity: Vec3,
    /// The surface's unit normal, facing the side the particle came from (a hit); zero for a
    /// death.
    pub normal: Vec3,
    /// The emitter that spawned it (its index in the effect's `emitters`).
    pub emitter: usize,
    /// The effect's own time when the step that recorded it ended, in seconds since the
    /// effect was added (its time scale applied; paused time not counted).
    pub time: f32,
}

/// Which of an effect's events reach the host, and how many are kept on the way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EventSettings {
    /// Report the particles' hits on the host's scene (effects with depth collision).
    pub hits: bool,
    /// Report the particles' deaths.
    pub deaths: bool,
    /// Events recorded in one frame, 1 to [`MAX_EVENTS_PER_FRAME`] (each frame's buffer
    /// holds this many: 48 bytes each, and three read-back copies of it); those beyond are
    /// counted as lost.
    pub per_frame: u32,
    /// Events kept for the host until it drains them, 1 to [`MAX_EVENTS_KEPT`]; newer
    /// events beyond are counted as lost.
    pub kept: u32,
}

impl Default for EventSettings {
    /// Hits only, 4,096 a frame, 16,384 kept.
    fn default() -> Self {
        EventSettings {
            hits: true,
            deaths: false,
            per_frame: 4096,
            kept: 16_384,
        }
    }
}

impl EventSettings {
    /// Refuses a `per_frame` or a `kept` outside its range, naming it.
    pub fn check(&self) -> Result<()> {
        if !(1..=MAX_EVENTS_PER_FRAME).contains(&self.per_frame) {
            let allowed = format!("1..={MAX_EVENTS_PER_FRAME} events a frame");
            return Err(Invalid::new("per_frame", self.per_frame, allowed).into());
        }
        if !(1..=MAX_EVENTS_KEPT).contains(&self.kept) {
            let allowed = format!("1..={MAX_EVENTS_KEPT} events");
            return Err(Invalid::new("kept", self.kept, allowed).into());
        }
        Ok(())
    }

    /// The kinds as simulate reads them (`FrameUniforms::events`): a bit per
    /// [`EventKind`].
    pub(crate) fn mask(&self) -> u32 {
        (self.hits as u32) << EVENT_HIT | (self.deaths as u32) << EVENT_DEATH
    }
}

/// `HostEvent::kind` of a hit, and its bit in `FrameUniforms::events` (common.wgsl).
pub(crate) const EVENT_HIT: u32 = 0;
/// `HostEvent::kind` of a death, and its bit in `FrameUniforms::events`.
pub(crate) const EVENT_DEATH: u32 = 1;

/// What one drain of an effect's events gives.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct DrainedEvents {
    /// The events read back since the last drain, oldest first (a frame's in the order the
    /// GPU recorded them, which is no order in particular).
    pub events: Vec<ParticleEvent>,
    /// Events the GPU recorded since the last drain that never reached this list: beyond a
    /// frame's [`EventSettings::per_frame`], in frames whose read-back found every buffer
    /// in flight, or beyond [`EventSettings::kept`].
    pub lost: u64,
}

impl ParticleEvent {
    /// The event simulate wrote.
    pub(crate) fn of(e: &crate::types::HostEvent) -> Self {
        ParticleEvent {
            kind: match e.kind {
                EVENT_HIT => EventKind::Hit,
                _ => EventKind::Death,
            },
            position: e.pos,
            velocity: e.vel,
            normal: e.normal,
            emitter: e.emitter as usize,
            time: e.time,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_out_of_range_are_refused_by_name() {
        assert!(EventSettings::default().check().is_ok());
        let none = EventSettings {
            per_frame: 0,
            ..Default::default()
        };
        let e = none.check().unwrap_err().to_string();
        assert!(e.contains("per_frame") && e.contains("65536"), "{e}");
        let many = EventSettings {
            kept: MAX_EVENTS_KEPT + 1,
            ..Default::default()
        };
        let e = many.check().unwrap_err().to_string();
        assert!(e.contains("kept"), "{e}");
    }

    #[test]
    fn each_kind_has_its_bit() {
        let both = EventSettings {
            deaths: true,
            ..Default::default()
        };
        assert_eq!(both.mask(), 0b11);
        let deaths = EventSettings {
            hits: false,
            ..both
        };
        assert_eq!(deaths.mask(), 1 << EVENT_DEATH);
    }
}
