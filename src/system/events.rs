//! An effect's events for the host (`crate::events`): the buffer its simulate reports into,
//! copied into the renderer's read-back of the frame after each frame
//! (`renderer/reads.rs`), and what the host has not drained yet.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};

use super::ParticleSystem;
use crate::events::{DrainedEvents, EventSettings, ParticleEvent};
use crate::pipelines::Pipelines;
use crate::types::{EventHeader, HostEvent};

/// Listenings made so far in this process: each stream's number, so that what was read
/// back for an old listening never reaches a new one.
static STREAMS: AtomicU64 = AtomicU64::new(0);

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

/// The bytes of a copy of a host-event buffer that hold something: its header and the
/// events written this frame (not the rest of its room).
pub(crate) fn written(copy: &[u8]) -> usize {
    let header: EventHeader = bytemuck::pod_read_unaligned(&copy[..HEADER as usize]);
    let room = (copy.len() - HEADER as usize) / EVENT as usize;
    HEADER as usize + (header.count as usize).min(room) * EVENT as usize
}

/// What one effect's listening holds.
pub(crate) struct EventStream {
    /// This listening's number ([`STREAMS`]).
    number: u64,
    settings: EventSettings,
    /// Simulate's: the header, then `settings.per_frame` events.
    buffer: wgpu::Buffer,
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
            number: STREAMS.fetch_add(1, Ordering::Relaxed),
            settings,
            buffer: event_buffer(device, "flurry.host_events", settings.per_frame),
            kept: VecDeque::new(),
            lost: 0,
            total: 0,
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
        let graph = match (&self.bound, &self.effect.variants().update) {
            (Some(_), Some(block)) => {
                Some(p.graph_simulate(&self.effect.desc().name, variant, block)?)
            }
            _ => None,
        };
        if let Some(b) = &mut self.bound {
            b.graph_simulate = graph;
        }
        self.simulate_variant = variant;
        // (what is read back for the old listening is not taken by the new one)
        self.events = settings.map(|s| EventStream::new(device, s));
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

    /// What the renderer reads back of its events after this frame: its listening's
    /// number and the bytes of its host-event buffer (None: the host does not listen, or it
    /// did not simulate).
    pub fn events_read(&self) -> Option<(u64, u64)> {
        let stream = self.events.as_ref()?;
        let simulated = self.records(super::Step::Simulate);
        simulated.then(|| (stream.number, stream.buffer.size()))
    }

    /// Copy its host-event buffer into `to` at `offset` (where [`ParticleSystem::events_read`]
    /// says there are events to read); the bytes copied.
    pub fn copy_events(
        &self,
        encoder: &mut wgpu::CommandEncoder,
        (to, offset): (&wgpu::Buffer, u64),
    ) -> u64 {
        let Some(stream) = &self.events else {
            return 0;
        };
        let size = stream.buffer.size();
        encoder.copy_buffer_to_buffer(&stream.buffer, 0, to, offset, size);
        size
    }

    /// After its frame's events were copied (or not: no read-back free): the next frame's
    /// start at none. Their total is kept, so that a frame never read counts as lost.
    pub fn restart_events(&self, encoder: &mut wgpu::CommandEncoder) {
        if let (Some(stream), Some(_)) = (&self.events, self.events_read()) {
            encoder.clear_buffer(&stream.buffer, 0, Some(4));
        }
    }

    /// One frame's events read back (its host-event buffer's header and events written),
    /// kept for the host if they are of its listening now (`stream`).
    pub fn take_events(&mut self, stream: u64, bytes: &[u8]) {
        if let Some(s) = self.events.as_mut().filter(|s| s.number == stream) {
            s.take(bytes);
        }
    }

    /// The events read back since the last drain, and how many were lost (None: the host
    /// does not listen).
    pub fn drain_events(&mut self) -> Option<DrainedEvents> {
        Some(self.events.as_mut()?.drain())
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
