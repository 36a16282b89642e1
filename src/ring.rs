//! A ring of read-back buffers that never blocks the host: a frame copies what it wants to
//! read into a free buffer (none free: that frame is not read), the buffer is mapped at a
//! later update, once the host has submitted the frame, and read when the map has
//! completed. What is read therefore arrives a frame or two late. The effects' counts and
//! their events for the host go back so (`renderer/reads.rs`).

use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Mutex};

/// A map's outcome, as its callback leaves it.
const PENDING: u8 = 0;
const MAPPED: u8 = 1;
const FAILED: u8 = 2;

enum State<M> {
    Idle,
    /// Copied into by a frame the host submits before the next update; `M` says what.
    Recorded(M),
    /// Mapping was asked for; the flag says how it went.
    Mapping(M, Arc<AtomicU8>),
}

struct Slot<M> {
    buffer: Option<wgpu::Buffer>,
    state: State<M>,
}

/// Read-back buffers, each holding what one frame copied and `M`, what the copy was of.
pub(crate) struct ReadRing<M> {
    device: wgpu::Device,
    label: &'static str,
    slots: Mutex<Vec<Slot<M>>>,
}

impl<M> ReadRing<M> {
    /// `slots` buffers, made as frames first need them.
    pub fn new(device: &wgpu::Device, label: &'static str, slots: usize) -> Self {
        let slots = (0..slots)
            .map(|_| Slot {
                buffer: None,
                state: State::Idle,
            })
            .collect();
        ReadRing {
            device: device.clone(),
            label,
            slots: Mutex::new(slots),
        }
    }

    /// Give `copy` a free buffer of at least `size` bytes to record its copies into, and
    /// keep `what` with it; false (nothing recorded) when every buffer is in flight.
    pub fn record(&self, size: u64, what: M, copy: impl FnOnce(&wgpu::Buffer)) -> bool {
        let mut slots = self.slots.lock().expect("not poisoned");
        let Some(slot) = slots.iter_mut().find(|s| matches!(s.state, State::Idle)) else {
            return false;
        };
        if slot.buffer.as_ref().is_none_or(|b| b.size() < size) {
            slot.buffer = Some(self.device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(self.label),
                size: size.next_power_of_two().max(64),
                usage: wgpu::BufferUsages::MAP_READ | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        copy(slot.buffer.as_ref().expect("made above"));
        slot.state = State::Recorded(what);
        true
    }

    /// At an update (the frames recorded before it were submitted): ask for their maps.
    /// They complete at a later `device.poll`.
    pub fn map_recorded(&self) {
        let mut slots = self.slots.lock().expect("not poisoned");
        for slot in slots.iter_mut() {
            if !matches!(slot.state, State::Recorded(_)) {
                continue;
            }
            let State::Recorded(what) = std::mem::replace(&mut slot.state, State::Idle) else {
                unreachable!("matched above");
            };
            let outcome = Arc::new(AtomicU8::new(PENDING));
            let flag = outcome.clone();
            let buffer = slot.buffer.as_ref().expect("recorded into");
            buffer.slice(..).map_async(wgpu::MapMode::Read, move |r| {
                flag.store(if r.is_ok() { MAPPED } else { FAILED }, Ordering::Release)
            });
            slot.state = State::Mapping(what, outcome);
        }
    }

    /// Let the maps asked for complete where the GPU is done with them (never waits).
    pub fn poll(&self) {
        let _ = self.device.poll(wgpu::PollType::Poll);
    }

    /// Every buffer whose map has completed, read by `read` (with what it holds) and freed;
    /// a map that failed frees its buffer unread. Never blocks.
    pub fn read_mapped(&self, mut read: impl FnMut(M, &[u8])) {
        let mut slots = self.slots.lock().expect("not poisoned");
        for slot in slots.iter_mut() {
            let State::Mapping(_, outcome) = &slot.state else {
                continue;
            };
            let outcome = outcome.load(Ordering::Acquire);
            if outcome == PENDING {
                continue;
            }
            let State::Mapping(what, _) = std::mem::replace(&mut slot.state, State::Idle) else {
                unreachable!("matched above");
            };
            if outcome == MAPPED {
                let buffer = slot.buffer.as_ref().expect("mapped");
                if let Ok(view) = buffer.slice(..).get_mapped_range() {
                    read(what, &view);
                }
                buffer.unmap();
            }
        }
    }
}

impl<M> Drop for ReadRing<M> {
    /// Let every map in flight land first (dropping a buffer with a map pending crashes
    /// some drivers, lavapipe among them).
    fn drop(&mut self) {
        let slots = self.slots.get_mut().expect("not poisoned");
        if slots.iter().any(|s| matches!(s.state, State::Mapping(..))) {
            let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
        }
    }
}
