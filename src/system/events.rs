//! An effect's events for the host (`crate::events`): the buffer its simulate reports into,
//! the read-back ring it is copied into after each frame, and what the host has not
//! drained yet.

use std::collections::VecDeque;

use super::ParticleSystem;
use crate::events::{DrainedEvents, EventSettings, ParticleEvent};
use crate::pipelines::Pipelines;
use crate::ring::ReadRing;
use crate::types::{EventHeader, HostEvent};

/// Read-back buffers per effect: frames whose events may be in flight at once.
const SLOTS: usize = 3;

const HEADER: u64 = std::mem::size_of::<EventHeader>() as u64;
const EVENT: u64 = std::mem::size_of::<HostEvent>() as u64;

/// A host-event buffer with room for `events` events after its header, zeroed.
pub(crate) fn event_buffer(device: &wgpu::Device, label: &str, events: u32) -> wgpu::Buffer {
    device.create_buffer(&wgpu::BufferDescriptor {
        label: Some(label),
        size: HEADER + EVENT * events as u64,
        usage: wgpu::BufferUsages::STORAGE
            | wgpu::BufferUsages::COPY_SRC
            | wgpu::BufferUsages::COPY_DST,
        mapped_at_creation: false,
    })
}

/// What one effect's listening holds.
pub(crate) struct EventStream {
    settings: EventSettings,
    /// Simulate's: the header, then `settings.per_frame` events.
    buffer: wgpu::Buffer,
    /// Copies of it, each stamped with the effect's frame.
    ring: ReadRing<u64>,
    /// Read back, not yet drained.
    kept: VecDeque<ParticleEvent>,
    /// Lost since the last drain.
    lost: u64,
    /// The GPU's running total in the last copy read (none read yet: 0, as it started).
    total: u64,
}

impl EventStream {
    fn new(device: &wgpu::Device, settings: EventSettings) -> Self {
        EventStream {
            settings,
            buffer: event_buffer(device, "flurry.host_events", settings.per_frame),
            ring: ReadRing::new(device, "flurry.host_events_readback", SLOTS),
            kept: VecDeque::new(),
            lost: 0,
            total: 0,
        }
    }

    /// Copy this frame's events (frame `frame` of the effect) into a free read-back buffer
    /// and zero the count for the next frame. None free: the events stay counted in the
    /// GPU's total, and the next copy read counts them lost.
    fn record(&self, encoder: &mut wgpu::CommandEncoder, frame: u64) {
        let size = self.buffer.size();
        self.ring.record(size, frame, |copy| {
            encoder.copy_buffer_to_buffer(&self.buffer, 0, copy, 0, size);
        });
        encoder.clear_buffer(&self.buffer, 0, Some(4));
    }

    /// Take the copies read back: frame by frame, oldest first.
    fn collect(&mut self) {
        let mut frames: Vec<(u64, Vec<u8>)> = Vec::new();
        let room = self.settings.per_frame as usize;
        self.ring.read_mapped(|frame, bytes| {
            // the header and the events written (not the rest of the buffer's room)
            let header: EventHeader = bytemuck::pod_read_unaligned(&bytes[..HEADER as usize]);
            let written = (header.count as usize).min(room);
            let used = HEADER as usize + written * EVENT as usize;
            frames.push((frame, bytes[..used].to_vec()));
        });
        frames.sort_by_key(|(frame, _)| *frame);
        for (_, bytes) in frames {
            self.take(&bytes);
        }
    }

    /// One frame's copy: its events kept (as many as fit), and what it lost counted: its
    /// events beyond the buffer, the events of frames since the last copy read that were
    /// never copied, and those beyond what is kept.
    fn take(&mut self, bytes: &[u8]) {
        let header: EventHeader = bytemuck::pod_read_unaligned(&bytes[..HEADER as usize]);
        let count = header.count as u64;
        let delivered = count.min(self.settings.per_frame as u64);
        let uncopied = header.total().saturating_sub(self.total + count);
        self.total = header.total();
        let room = (self.settings.kept as usize).saturating_sub(self.kept.len());
        let taken = (delivered as usize).min(room);
        self.lost += uncopied + (count - taken as u64);
        let events = &bytes[HEADER as usize..][..taken * EVENT as usize];
        debug_assert!(bytes.len() >= HEADER as usize + delivered as usize * EVENT as usize);
        for raw in events.chunks_exact(EVENT as usize) {
            let e: HostEvent = bytemuck::pod_read_unaligned(raw);
            self.kept.push_back(ParticleEvent::of(&e));
        }
    }

    fn drain(&mut self) -> DrainedEvents {
        DrainedEvents {
            events: self.kept.drain(..).collect(),
            lost: std::mem::take(&mut self.lost),
        }
    }
}

/// Let go of the read-backs of `rings` whose maps have landed (what they read is not
/// wanted any more); those in flight wait for a later call. Never blocks.
pub(crate) fn retire(rings: &mut Vec<ReadRing<u64>>) {
    for ring in rings.iter() {
        ring.read_mapped(|_, _| {});
    }
    rings.retain(ReadRing::mapping);
}

impl ParticleSystem {
    /// Report the events `settings` names to the host from the next frame on (None: none),
    /// recompiling its simulate with them in or out. What was read back and not drained
    /// yet is dropped with an old listening.
    pub fn set_events(
        &mut self,
        device: &wgpu::Device,
        p: &Pipelines,
        settings: Option<EventSettings>,
    ) -> crate::error::Result<()> {
        if let Some(s) = &settings {
            s.check()?;
        }
        let variant = crate::passes::simulate::SimulateVariant {
            host_events: settings.is_some(),
            ..self.simulate_variant
        };
        // (an effect not bound yet builds its simulate with its events when it is)
        let graph = match (&self.bound, &self.variants.update) {
            (Some(_), Some(block)) => Some(p.graph_simulate(&self.desc.name, variant, block)?),
            _ => None,
        };
        if let Some(b) = &mut self.bound {
            b.graph_simulate = graph;
        }
        self.simulate_variant = variant;
        let old = std::mem::replace(
            &mut self.events,
            settings.map(|s| EventStream::new(device, s)),
        );
        // (its read-backs in flight land first: dropped now, they would be waited for)
        self.retired_rings.extend(old.map(|s| s.ring));
        self.rebind_simulate(device, p);
        Ok(())
    }

    /// What its host hears this frame (`FrameUniforms::events`): nothing while it is
    /// prewarmed.
    pub(super) fn events_heard(&self) -> u32 {
        match (&self.events, self.prewarming) {
            (Some(stream), false) => stream.settings.mask(),
            _ => 0,
        }
    }

    /// Whether its steps report nothing to the host (a prewarm: what happened before it
    /// was seen).
    pub fn set_prewarming(&mut self, prewarming: bool) {
        self.prewarming = prewarming;
    }

    /// Its host-event buffer, for its simulate (one no simulate writes if the host does
    /// not listen).
    pub(super) fn events_buffer<'a>(&'a self, p: &'a Pipelines) -> &'a wgpu::Buffer {
        self.events
            .as_ref()
            .map_or_else(|| p.no_events(), |s| &s.buffer)
    }

    /// After its frame's simulate: copy its events back (an effect the host listens to, and
    /// that simulated).
    pub fn record_events(&self, encoder: &mut wgpu::CommandEncoder) {
        if let Some(stream) = &self.events {
            if self.records(super::Step::Simulate) {
                stream.record(encoder, self.frames);
            }
        }
    }

    /// At an update: ask for the maps of the frames recorded since.
    pub fn map_events(&self) {
        if let Some(stream) = &self.events {
            stream.ring.map_recorded();
        }
    }

    /// At an update, after the device was polled: keep the events read back, and let go of
    /// the old read-backs whose maps have landed.
    pub fn collect_events(&mut self) {
        if let Some(stream) = &mut self.events {
            stream.collect();
        }
        retire(&mut self.retired_rings);
    }

    /// Its event read-backs, still in flight or not, for whoever outlives it to let go of
    /// ([`retire`]).
    pub fn take_event_rings(&mut self) -> Vec<ReadRing<u64>> {
        let mut rings = std::mem::take(&mut self.retired_rings);
        rings.extend(self.events.take().map(|s| s.ring));
        rings
    }

    /// The events read back since the last drain (those whose maps completed since the
    /// last update too), and how many were lost (None: the host does not listen).
    pub fn drain_events(&mut self) -> Option<DrainedEvents> {
        let stream = self.events.as_mut()?;
        stream.ring.poll();
        stream.collect();
        Some(stream.drain())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::Vec3;

    /// A copy of the buffer as simulate leaves it: `count` this frame (of which the first
    /// `written` in the buffer), `total` since it began.
    fn copy(count: u32, total: u64, written: u32) -> Vec<u8> {
        let header = EventHeader {
            count,
            total: total as u32,
            total_hi: (total >> 32) as u32,
            _pad: 0,
        };
        let mut bytes = bytemuck::bytes_of(&header).to_vec();
        for k in 0..written {
            let e = HostEvent {
                pos: Vec3::new(k as f32, 0.0, 0.0),
                kind: crate::events::EVENT_HIT,
                normal: Vec3::Y,
                ..Default::default()
            };
            bytes.extend_from_slice(bytemuck::bytes_of(&e));
        }
        bytes
    }

    fn stream(per_frame: u32, kept: u32) -> EventStream {
        let gpu = crate::tests::gpu();
        let settings = EventSettings {
            per_frame,
            kept,
            ..Default::default()
        };
        EventStream::new(&gpu.device, settings)
    }

    #[test]
    fn every_event_is_delivered_or_counted_lost() {
        let mut s = stream(4, 6);
        // a frame within the buffer: all of it
        s.take(&copy(3, 3, 3));
        // a frame past the buffer: four of its seven written, three of them kept (six at
        // most), four lost
        s.take(&copy(7, 10, 4));
        // two frames never copied (5 events), then one of 2, neither kept
        s.take(&copy(2, 17, 2));
        let d = s.drain();
        assert_eq!(d.events.len(), 6);
        assert_eq!(d.lost, 4 + 5 + 2);
        assert_eq!(
            d.events.len() as u64 + d.lost,
            17,
            "every event accounted for"
        );
        assert_eq!(d.events[3].position.x, 0.0, "the second frame's first");
        assert_eq!(s.drain(), DrainedEvents::default(), "a drain empties it");
        // the count past 2^32 carried into the high word
        s.take(&copy(1, (1 << 32) + 20, 1));
        assert_eq!(s.drain().lost, (1 << 32) + 20 - 17 - 1);
    }
}
