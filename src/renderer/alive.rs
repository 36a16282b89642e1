//! How many particles each effect has, read back without ever blocking: after a frame's
//! cull each effect's counters (alive, emitted, dropped, …) are copied into one of a few
//! read-back buffers, mapped once the host has submitted the frame (at the next update) and
//! read when the map completes. Counts therefore arrive a frame or two late, each stamped
//! with the effect's frame it counts ([`crate::ParticleRenderer::is_finished`]).

use super::{EffectId, Entry};
use crate::ring::ReadRing;
use crate::types::Counters;

/// Read-back buffers in the ring: frames whose counts may be in flight at once.
const SLOTS: usize = 3;

/// Bytes of one pool's counters.
const COUNTERS: u64 = std::mem::size_of::<Counters>() as u64;

/// Which effects a frame counted, and each one's frame then.
type Counted = Vec<(EffectId, u64)>;

/// The renderer's ring of alive counts.
pub(crate) struct AliveRing {
    ring: ReadRing<Counted>,
}

/// One effect's counters at the end of its frame `frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Observed {
    pub id: EffectId,
    pub frame: u64,
    pub counters: Counters,
}

impl AliveRing {
    pub fn new(device: &wgpu::Device) -> Self {
        AliveRing {
            ring: ReadRing::new(device, "flurry.alive_counts", SLOTS),
        }
    }

    /// Copy every effect's counters into a free read-back buffer (none free: this
    /// frame goes uncounted), after the frame's cull.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, entries: &[Entry]) {
        if entries.is_empty() {
            return;
        }
        let counted: Counted = (entries.iter()).map(|e| (e.id, e.system.frame())).collect();
        self.ring
            .record(COUNTERS * entries.len() as u64, counted, |buffer| {
                for (k, e) in entries.iter().enumerate() {
                    let counters = &e.system.pool().counters;
                    let (from, to) = (counters.offset, COUNTERS * k as u64);
                    encoder.copy_buffer_to_buffer(&counters.buffer, from, buffer, to, COUNTERS);
                }
            });
    }

    /// At an update: the frames recorded before it were submitted; ask for their maps
    /// (they complete at the update's poll).
    pub fn map_recorded(&self) {
        self.ring.map_recorded();
    }

    /// The counts whose maps have completed, oldest first. Never blocks.
    pub fn read_mapped(&self) -> Vec<Observed> {
        let mut seen = Vec::new();
        self.ring.read_mapped(|counted, bytes| {
            let size = COUNTERS as usize * counted.len();
            let counts: Vec<Counters> = bytemuck::pod_collect_to_vec(&bytes[..size]);
            seen.extend(
                (counted.iter().zip(counts)).map(|(&(id, frame), counters)| Observed {
                    id,
                    frame,
                    counters,
                }),
            );
        });
        seen.sort_by_key(|o| o.frame);
        seen
    }
}
