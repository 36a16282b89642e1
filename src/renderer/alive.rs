//! How many particles each effect has, read back without ever blocking: after a frame's
//! cull each effect's alive count is copied into one of a few read-back buffers, mapped
//! once the host has submitted the frame (at the next update) and read when the map
//! completes. Counts therefore arrive a frame or two late, each stamped with the effect's
//! frame it counts ([`crate::ParticleRenderer::is_finished`]).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::{EffectId, Entry};

/// Read-back buffers in the ring: frames whose counts may be in flight at once.
const SLOTS: usize = 3;

/// Where a pool's alive count lies in its counters (`Counters::alive`, the second word).
const ALIVE_OFFSET: u64 = 4;

/// Which effects a frame counted, and each one's frame then.
type Counted = Vec<(EffectId, u64)>;

enum State {
    Idle,
    /// Copied into by a frame the host submits before the next update.
    Recorded(Counted),
    /// Mapping was asked for; `done` is set when it completes.
    Mapping(Counted, Arc<AtomicBool>),
}

struct Slot {
    buffer: Option<wgpu::Buffer>,
    state: State,
}

/// The renderer's ring of alive counts.
pub(crate) struct AliveRing {
    device: wgpu::Device,
    slots: Mutex<Vec<Slot>>,
}

/// One effect's alive count at the end of its frame `frame`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Observed {
    pub id: EffectId,
    pub frame: u64,
    pub alive: u32,
}

impl AliveRing {
    pub fn new(device: &wgpu::Device) -> Self {
        let slots = (0..SLOTS)
            .map(|_| Slot {
                buffer: None,
                state: State::Idle,
            })
            .collect();
        AliveRing {
            device: device.clone(),
            slots: Mutex::new(slots),
        }
    }

    /// Copy every effect's alive count into a free read-back buffer (none free: this
    /// frame goes uncounted), after the frame's cull.
    pub fn record(&self, encoder: &mut wgpu::CommandEncoder, entries: &[Entry]) {
        if entries.is_empty() {
            return;
        }
        let mut slots = self.slots.lock().expect("not poisoned");
        let Some(slot) = slots.iter_mut().find(|s| matches!(s.state, State::Idle)) else {
            return;
        };
        let size = 4 * entries.len() as u64;
        if slot.buffer.as_ref().is_none_or(|b| b.size() < size) {
            slot.buffer = Some(self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flurry.alive_counts"),
                size: size.next_power_of_two().max(64),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        let buffer = slot.buffer.as_ref().expect("made above");
        let mut counted = Vec::with_capacity(entries.len());
        for (k, e) in entries.iter().enumerate() {
            let counters = &e.system.pool().counters;
            let from = counters.offset + ALIVE_OFFSET;
            encoder.copy_buffer_to_buffer(&counters.buffer, from, buffer, 4 * k as u64, 4);
            counted.push((e.id, e.system.frame()));
        }
        slot.state = State::Recorded(counted);
    }

    /// At an update: the frames recorded before it were submitted; map them, and read every
    /// map that has completed (oldest first). Never blocks.
    pub fn collect(&self) -> Vec<Observed> {
        let mut slots = self.slots.lock().expect("not poisoned");
        for slot in slots.iter_mut() {
            if let State::Recorded(counted) = &mut slot.state {
                let done = Arc::new(AtomicBool::new(false));
                let flag = done.clone();
                let buffer = slot.buffer.as_ref().expect("recorded into");
                buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                    flag.store(r.is_ok(), Ordering::Release)
                });
                slot.state = State::Mapping(std::mem::take(counted), done);
            }
        }
        let _ = self.device.poll(wgpu::PollType::Poll);
        let mut seen = Vec::new();
        for slot in slots.iter_mut() {
            let State::Mapping(counted, done) = &slot.state else {
                continue;
            };
            if !done.load(Ordering::Acquire) {
                continue;
            }
            let buffer = slot.buffer.as_ref().expect("mapped");
            if let Ok(view) = buffer.slice(..).get_mapped_range() {
                let counts: Vec<u32> = bytemuck::pod_collect_to_vec(&view[..4 * counted.len()]);
                seen.extend(
                    counted
                        .iter()
                        .zip(counts)
                        .map(|(&(id, frame), alive)| Observed { id, frame, alive }),
                );
            }
            buffer.unmap();
            slot.state = State::Idle;
        }
        seen.sort_by_key(|o| o.frame);
        seen
    }
}

impl Drop for AliveRing {
    /// Let every map in flight land first (dropping a buffer with a map pending crashes
    /// some drivers, lavapipe among them).
    fn drop(&mut self) {
        let slots = self.slots.get_mut().expect("not poisoned");
        if slots.iter().any(|s| matches!(s.state, State::Mapping(..))) {
            let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
        }
    }
}
