//! What the renderer learns from the GPU, read back without ever blocking and at most once
//! a frame: after the frame's cull, the counters (alive, emitted, dropped, …) of the
//! effects whose counts someone needs and the events of those the host listens to are
//! copied into one of a few read-back buffers, mapped once the host has submitted the frame
//! (at the next update) and read when the map completes. They arrive a frame or two late,
//! each stamped with its effect's frame.
//!
//! One buffer a frame, and none when nothing is wanted: every `Buffer::map_async`
//! advances the queue's submission index (wgpu-core allots an index to flush what is
//! pending for the buffer, and drops it when nothing is), which a host counting its own
//! submissions sees as one it did not make. A host whose effects loop, with no budget and
//! no events, sees none.

use super::{EffectId, Entry};
use crate::ring::ReadRing;
use crate::types::Counters;

/// Read-back buffers in the ring: frames whose reads may be in flight at once.
const SLOTS: usize = 3;

/// Bytes of one pool's counters.
const COUNTERS: u64 = std::mem::size_of::<Counters>() as u64;

/// What one frame's read-back holds, where.
#[derive(Default)]
struct Contents {
    /// Each counted effect and its frame then, its counters at [`COUNTERS`] × its place.
    counts: Vec<(EffectId, u64)>,
    /// Each listened effect's events: its stream, its frame then, and where its copy is
    /// (offset, bytes).
    events: Vec<Events>,
}

/// One effect's copy of its events in a frame's read-back.
struct Events {
    id: EffectId,
    stream: u64,
    frame: u64,
    offset: u64,
    size: u64,
}

/// One effect's counters at the end of its frame `frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Observed {
    pub id: EffectId,
    pub frame: u64,
    pub counters: Counters,
}

/// One effect's events of its frame `frame`, as its simulate left them (the header, then
/// the events written), for its stream `stream`.
pub(crate) struct ReadEvents {
    pub id: EffectId,
    pub stream: u64,
    pub frame: u64,
    pub bytes: Vec<u8>,
}

/// The renderer's read-backs.
pub(crate) struct FrameReads {
    ring: ReadRing<Contents>,
}

impl FrameReads {
    pub fn new(device: &wgpu::Device) -> Self {
        FrameReads {
            ring: ReadRing::new(device, "flurry.frame_reads", SLOTS),
        }
    }

    /// After the frame's cull: copy the counters of the effects that want them counted
    /// (all of them under a `budget`) and the events of those listened to that simulated
    /// into a free read-back buffer (none free: this frame goes unread; the events stay
    /// counted on the GPU and are counted lost), and start the listened effects' next
    /// frame of events. Nothing wanted: nothing copied, nothing to map.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, entries: &[Entry], budget: bool) {
        let counted = entries.iter().filter(|e| e.system.wants_counts(budget));
        let listened = entries.iter().filter(|e| e.system.events_read().is_some());
        let (n_counted, n_listened) = (counted.clone().count(), listened.clone().count());
        if n_counted + n_listened > 0 {
            let mut contents = Contents {
                counts: Vec::with_capacity(n_counted),
                events: Vec::with_capacity(n_listened),
            };
            contents
                .counts
                .extend(counted.clone().map(|e| (e.id, e.system.frame())));
            let mut end = COUNTERS * n_counted as u64;
            for e in listened.clone() {
                let (stream, size) = e.system.events_read().expect("listened");
                let (id, frame, offset) = (e.id, e.system.frame(), end);
                contents.events.push(Events {
                    id,
                    stream,
                    frame,
                    offset,
                    size,
                });
                end += size;
            }
            self.ring.record(end, contents, |buffer| {
                for (k, e) in counted.enumerate() {
                    let counters = &e.system.pool().counters;
                    let (from, to) = (counters.offset, COUNTERS * k as u64);
                    encoder.copy_buffer_to_buffer(&counters.buffer, from, buffer, to, COUNTERS);
                }
                let mut offset = COUNTERS * n_counted as u64;
                for e in listened {
                    offset += e.system.copy_events(encoder, (buffer, offset));
                }
            });
        }
        // (copied or not, the next frame's events start at none)
        for e in entries {
            e.system.restart_events(encoder);
        }
    }

    /// At an update: the frames recorded before it were submitted; ask for their maps
    /// (they complete at the update's poll).
    pub fn map_recorded(&self) {
        self.ring.map_recorded();
    }

    /// Let the maps asked for complete where the GPU is done with them (never waits).
    pub fn poll(&self) {
        self.ring.poll();
    }

    /// The counts and events whose maps have completed, each oldest first. Never blocks.
    pub fn read_mapped(&self) -> (Vec<Observed>, Vec<ReadEvents>) {
        let (mut seen, mut heard) = (Vec::new(), Vec::new());
        self.ring.read_mapped(|contents, bytes| {
            let counts = contents.counts.iter().enumerate();
            seen.extend(counts.map(|(k, &(id, frame))| {
                let at = k * COUNTERS as usize;
                let counters = bytemuck::pod_read_unaligned(&bytes[at..][..COUNTERS as usize]);
                Observed {
                    id,
                    frame,
                    counters,
                }
            }));
            heard.extend(contents.events.iter().map(|e| {
                let copy = &bytes[e.offset as usize..][..e.size as usize];
                ReadEvents {
                    id: e.id,
                    stream: e.stream,
                    frame: e.frame,
                    bytes: copy[..crate::system::events::written(copy)].to_vec(),
                }
            }));
        });
        seen.sort_by_key(|o| o.frame);
        heard.sort_by_key(|e| e.frame);
        (seen, heard)
    }
}
