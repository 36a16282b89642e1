//! Per-pass GPU times with flurry's own timestamp queries
//! ([`crate::ParticleRenderer::enable_profiling`]): each pass the renderer records writes
//! a timestamp at its beginning and end; after the frame the queries are resolved and
//! copied into one of a few read-back buffers, which are mapped once the host has
//! submitted the frame (at the next update) and read when the map completes, without ever
//! blocking. Times therefore arrive a frame or more late.

use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};
use std::sync::{Arc, Mutex};

/// Most passes timed per frame (two timestamps each).
const MAX_PASSES: u32 = 32;
/// Read-back buffers in the ring: frames whose times may be in flight at once.
const SLOTS: usize = 4;

/// One read-back buffer and what it holds.
struct Slot {
    buffer: wgpu::Buffer,
    state: SlotState,
}

enum SlotState {
    /// Free for the next frame.
    Idle,
    /// A frame's timestamps are copied into it; the host submits them before the next
    /// update.
    Recorded(Vec<&'static str>),
    /// Mapping was asked for; `done` is set when it completes.
    Mapping(Vec<&'static str>, Arc<AtomicBool>),
}

/// The renderer's pass timer.
pub(crate) struct PassTimer {
    device: wgpu::Device,
    queries: wgpu::QuerySet,
    resolve: wgpu::Buffer,
    slots: Vec<Slot>,
    /// Timestamp pairs handed out in the frame being recorded.
    next: AtomicU32,
    /// The frame being recorded has a read-back buffer to go to.
    active: AtomicBool,
    labels: Mutex<Vec<&'static str>>,
    /// Nanoseconds per timestamp tick.
    period: f32,
    /// The latest frame read back: ("frame", span), then each pass.
    times: Vec<(String, f64)>,
}

impl PassTimer {
    /// A timer on `device`, or none when it cannot write timestamps in passes.
    pub fn new(device: &wgpu::Device, queue: &wgpu::Queue) -> Option<Self> {
        if !device.features().contains(wgpu::Features::TIMESTAMP_QUERY) {
            return None;
        }
        let count = 2 * MAX_PASSES;
        let bytes = count as u64 * 8;
        let queries = device.create_query_set(&wgpu::QuerySetDescriptor {
            label: Some("flurry.pass_times"),
            ty: wgpu::QueryType::Timestamp,
            count,
        });
        let buffer = |label, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size: bytes,
                usage,
                mapped_at_creation: false,
            })
        };
        use wgpu::BufferUsages as B;
        let resolve = buffer("flurry.pass_times.resolve", B::QUERY_RESOLVE | B::COPY_SRC);
        let slots = (0..SLOTS)
            .map(|_| Slot {
                buffer: buffer("flurry.pass_times.read", B::MAP_READ | B::COPY_DST),
                state: SlotState::Idle,
            })
            .collect();
        Some(PassTimer {
            device: device.clone(),
            queries,
            resolve,
            slots,
            next: AtomicU32::new(0),
            active: AtomicBool::new(false),
            labels: Mutex::new(Vec::new()),
            period: queue.get_timestamp_period(),
            times: Vec::new(),
        })
    }

    /// Start a frame: the passes recorded from now on are timed if a read-back buffer is
    /// free for it (else the frame goes untimed).
    pub fn begin_frame(&self) {
        self.next.store(0, Ordering::Relaxed);
        self.labels.lock().expect("not poisoned").clear();
        let free = self
            .slots
            .iter()
            .any(|s| matches!(s.state, SlotState::Idle));
        self.active.store(free, Ordering::Relaxed);
    }

    /// The timestamp writes of a pass named `label`: (query set, beginning, end), or none
    /// when the frame has used every pair.
    pub fn pass(&self, label: &'static str) -> Option<(&wgpu::QuerySet, u32, u32)> {
        let mut labels = self.labels.lock().expect("not poisoned");
        let i = self.next.load(Ordering::Relaxed);
        if i >= MAX_PASSES || !self.active.load(Ordering::Relaxed) {
            return None;
        }
        self.next.store(i + 1, Ordering::Relaxed);
        labels.push(label);
        Some((&self.queries, 2 * i, 2 * i + 1))
    }

    /// End the frame: resolve its timestamps and copy them into a free read-back buffer.
    pub fn end_frame(&mut self, encoder: &mut wgpu::CommandEncoder) {
        let n = self.next.load(Ordering::Relaxed);
        let labels = std::mem::take(&mut *self.labels.lock().expect("not poisoned"));
        let Some(slot) = self
            .slots
            .iter_mut()
            .find(|s| matches!(s.state, SlotState::Idle))
        else {
            return;
        };
        if n == 0 {
            return;
        }
        encoder.resolve_query_set(&self.queries, 0..2 * n, &self.resolve, 0);
        encoder.copy_buffer_to_buffer(&self.resolve, 0, &slot.buffer, 0, 2 * n as u64 * 8);
        slot.state = SlotState::Recorded(labels);
    }

    /// At an update: the frames recorded before it have been submitted; map them, and read
    /// every map that has completed. Never blocks.
    pub fn collect(&mut self) {
        for slot in &mut self.slots {
            if let SlotState::Recorded(labels) = &mut slot.state {
                let done = Arc::new(AtomicBool::new(false));
                let flag = done.clone();
                slot.buffer
                    .slice(..)
                    .map_async(wgpu::MapMode::Read, move |r| {
                        flag.store(r.is_ok(), Ordering::Release)
                    });
                slot.state = SlotState::Mapping(std::mem::take(labels), done);
            }
        }
        let _ = self.device.poll(wgpu::PollType::Poll);
        let period = self.period as f64;
        for slot in &mut self.slots {
            let SlotState::Mapping(labels, done) = &slot.state else {
                continue;
            };
            if !done.load(Ordering::Acquire) {
                continue;
            }
            let ticks: Vec<u64> = {
                let bytes = slot.buffer.slice(..).get_mapped_range();
                match bytes {
                    Ok(view) => bytemuck::pod_collect_to_vec(&view[..labels.len() * 16]),
                    Err(_) => Vec::new(),
                }
            };
            slot.buffer.unmap();
            if ticks.len() == 2 * labels.len() && !labels.is_empty() {
                let ms = |a: u64, b: u64| b.saturating_sub(a) as f64 * period * 1e-6;
                let first = ticks.iter().step_by(2).min().copied().unwrap_or(0);
                let last = ticks.iter().skip(1).step_by(2).max().copied().unwrap_or(0);
                let mut times = vec![("frame".to_string(), ms(first, last))];
                times.extend(
                    labels
                        .iter()
                        .zip(ticks.chunks(2))
                        .map(|(l, t)| (l.to_string(), ms(t[0], t[1]))),
                );
                self.times = times;
            }
            slot.state = SlotState::Idle;
        }
    }

    /// Milliseconds of the latest frame read back: ("frame", first beginning to last end),
    /// then each pass in recording order.
    pub fn times(&self) -> &[(String, f64)] {
        &self.times
    }
}

impl Drop for PassTimer {
    /// Let every map in flight land first (dropping a buffer with a map pending crashes
    /// some drivers, lavapipe among them).
    fn drop(&mut self) {
        let mapping = |s: &Slot| matches!(s.state, SlotState::Mapping(..));
        if self.slots.iter().any(mapping) {
            let _ = self.device.poll(wgpu::PollType::wait_indefinitely());
        }
    }
}
