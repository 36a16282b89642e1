//! What a frame writes into buffers its passes read (the effects' uniform pages, the
//! batches' rows, the instances): gathered on the CPU, written with one
//! `Queue::write_buffer` into one of a few upload buffers, and copied into place by
//! commands recorded into the host's encoder before the frame's first pass.
//!
//! Why not one `write_buffer` a destination: each call stages its bytes in a buffer made
//! for it (on lavapipe 200 writes of 2.3 KiB took 2.5-3.3 ms of CPU against 60-85 µs for
//! one write of the same bytes), and a write lands at the start of the next submission,
//! before the commands of a frame the host recorded earlier and has not submitted yet. The
//! copies keep each frame's bytes in its own commands.
//!
//! Why not wgpu's `StagingBelt`: its buffers are mapped again after every frame, and each
//! `Buffer::map_async` advances the queue's submission index (wgpu-core allots an index to
//! flush what is pending for the buffer, and drops it when nothing is): to a host counting
//! its submissions, a submission it did not make.

/// Upload buffers: frames recorded and not yet submitted may each hold one (more than
/// that many frames recorded ahead of their submission read a later frame's bytes).
const RING: usize = 3;

/// One frame's uploads, and the buffers they go through.
#[derive(Default)]
pub(crate) struct Uploads {
    /// The frame's bytes, each write at a copy-aligned offset.
    bytes: Vec<u8>,
    /// Where each write goes: (destination, its offset, offset in `bytes`, bytes).
    copies: Vec<(wgpu::Buffer, u64, u64, u64)>,
    ring: [Option<wgpu::Buffer>; RING],
    /// The ring's buffer the next frame uses.
    next: usize,
}

impl Uploads {
    /// `size` bytes to fill now, for `destination` at `offset` (both multiples of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`]), copied in by the next [`Uploads::record`].
    pub fn write(&mut self, destination: &wgpu::Buffer, offset: u64, size: u64) -> &mut [u8] {
        debug_assert!(offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        debug_assert!(size.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        let start = self.bytes.len();
        self.bytes.resize(start + size as usize, 0);
        let copy = (destination.clone(), offset, start as u64, size);
        self.copies.push(copy);
        &mut self.bytes[start..]
    }

    /// `bytes` for `destination` at `offset` (both multiples of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`] long and far), copied in by the next
    /// [`Uploads::record`]: [`Uploads::write`] without filling the room first.
    pub fn write_bytes(&mut self, destination: &wgpu::Buffer, offset: u64, bytes: &[u8]) {
        debug_assert!(offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        debug_assert!((bytes.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        if bytes.is_empty() {
            return;
        }
        let start = self.bytes.len() as u64;
        self.bytes.extend_from_slice(bytes);
        let copy = (destination.clone(), offset, start, bytes.len() as u64);
        self.copies.push(copy);
    }

    /// Write what was gathered since the last call through `queue` into an upload buffer
    /// and record its copies into `encoder` (before the passes that read them); whether
    /// there was anything.
    pub fn record(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        encoder: &mut wgpu::CommandEncoder,
    ) -> bool {
        if self.copies.is_empty() {
            return false;
        }
        let size = self.bytes.len() as u64;
        let slot = &mut self.ring[self.next];
        self.next = (self.next + 1) % RING;
        if slot.as_ref().is_none_or(|b| b.size() < size) {
            *slot = Some(device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flurry.uploads"),
                size: size.next_power_of_two().max(1 << 12),
                usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            }));
        }
        let upload = slot.as_ref().expect("made above");
        queue.write_buffer(upload, 0, &self.bytes);
        for (destination, offset, from, size) in self.copies.drain(..) {
            encoder.copy_buffer_to_buffer(upload, from, &destination, offset, size);
        }
        self.bytes.clear();
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two frames recorded before either is submitted each copy their own bytes.
    #[test]
    fn frames_recorded_ahead_copy_their_own_bytes() {
        let gpu = crate::tests::gpu();
        let (device, queue) = (&gpu.device, &gpu.queue);
        let target = device.create_buffer(&wgpu::BufferDescriptor {
            label: None,
            size: 8,
            usage: wgpu::BufferUsages::COPY_DST | wgpu::BufferUsages::COPY_SRC,
            mapped_at_creation: false,
        });
        let mut uploads = Uploads::default();
        let mut frame = |value: u32| {
            let mut encoder = device.create_command_encoder(&Default::default());
            let bytes = uploads.write(&target, 4, 4);
            bytes.copy_from_slice(&value.to_le_bytes());
            assert!(uploads.record((device, queue), &mut encoder));
            assert!(
                !uploads.record((device, queue), &mut encoder),
                "nothing more"
            );
            encoder
        };
        let (first, second) = (frame(7), frame(9));
        let read = |expected: u32| {
            let bytes = crate::readback::read_buffer(device, queue, &target, 4, 4).unwrap();
            assert_eq!(bytes, expected.to_le_bytes());
        };
        queue.submit([first.finish()]);
        read(7);
        queue.submit([second.finish()]);
        read(9);
    }
}
