//! What a frame writes into buffers its passes read (the effects' uniform pages, the
//! batches' rows, the instances): gathered on the CPU, written with one
//! `Queue::write_buffer` into one of a few upload buffers, and copied into place by
//! commands recorded into the host's encoder before the frame's first pass. And what the
//! buffers made since the last frame start with (a new pool's lists, an effect's constants
//! and tables, a batch's rows): written through the queue as the frame is recorded
//! ([`Uploads::buffer_init`] says why then).
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

/// What a new buffer (or texture) starts with, written through the queue by
/// [`Uploads::write_init`] as the next frame is recorded.
enum Init {
    Bytes {
        buffer: wgpu::Buffer,
        offset: u64,
        bytes: Vec<u8>,
    },
    Zeros {
        buffer: wgpu::Buffer,
        offset: u64,
        size: u64,
    },
    Texels {
        texture: wgpu::Texture,
        bytes: Vec<u8>,
        bytes_per_row: u32,
        size: (u32, u32),
    },
}

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
    /// What the buffers made since the last frame start with.
    init: Vec<Init>,
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

    /// What `destination` starts with at `offset` (both multiples of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`] long and far): written by [`Uploads::write_init`].
    pub fn init_bytes(&mut self, destination: &wgpu::Buffer, offset: u64, bytes: Vec<u8>) {
        debug_assert!(offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        debug_assert!((bytes.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        if !bytes.is_empty() {
            let buffer = destination.clone();
            self.init.push(Init::Bytes {
                buffer,
                offset,
                bytes,
            });
        }
    }

    /// `size` bytes of `destination` at `offset` (both multiples of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`]) that start as zeros: written by
    /// [`Uploads::write_init`].
    pub fn init_zeros(&mut self, destination: &wgpu::Buffer, offset: u64, size: u64) {
        debug_assert!(offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        debug_assert!(size.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        if size > 0 {
            let buffer = destination.clone();
            self.init.push(Init::Zeros {
                buffer,
                offset,
                size,
            });
        }
    }

    /// A buffer of `contents` (zeros after them up to a multiple of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`]) for `usage` (and writes into it), filled by
    /// [`Uploads::write_init`] before anything reads it.
    ///
    /// Why not `DeviceExt::create_buffer_init`: wgpu stages the contents of each buffer so
    /// made in a buffer of its own, freed once the copy is done, between the buffers that
    /// live on. The holes they leave in the device's memory are what every later
    /// allocation searches (a frame's upload among them): 100 effects added so left 600 to
    /// 740 holes, and placing a frame's upload among them took ~45 µs of the host's CPU a
    /// frame (lavapipe, `perf` of `flurry profile effects --host`). Written as a frame is
    /// recorded, every buffer added since then is already placed: the staging lands after
    /// them, and leaves no hole when freed.
    pub fn buffer_init(
        &mut self,
        device: &wgpu::Device,
        label: &str,
        contents: &[u8],
        usage: wgpu::BufferUsages,
    ) -> wgpu::Buffer {
        let size = (contents.len() as u64)
            .next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT)
            .max(wgpu::COPY_BUFFER_ALIGNMENT);
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some(label),
            size,
            usage: usage | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let mut bytes = contents.to_vec();
        bytes.resize(size as usize, 0);
        self.init_bytes(&buffer, 0, bytes);
        buffer
    }

    /// An `Rgba32Float` texture of `size` texels (a table shaders sample), `texels` row by
    /// row, filled by [`Uploads::write_init`] (for the reason of [`Uploads::buffer_init`]).
    pub fn float_texture_init(
        &mut self,
        device: &wgpu::Device,
        label: &str,
        size: (u32, u32),
        texels: &[[f32; 4]],
    ) -> wgpu::Texture {
        let format = wgpu::TextureFormat::Rgba32Float;
        let usage = wgpu::TextureUsages::TEXTURE_BINDING | wgpu::TextureUsages::COPY_DST;
        let texture = crate::gpu::texture_2d(device, label, size, format, usage);
        let bytes = bytemuck::cast_slice(&texels[..(size.0 * size.1) as usize]).to_vec();
        self.init.push(Init::Texels {
            texture: texture.clone(),
            bytes,
            bytes_per_row: size.0 * 16,
            size,
        });
        texture
    }

    /// Write what the buffers made since the last call start with, through `queue`: it
    /// lands at the start of the next submission, whichever encoder that submits (a frame
    /// recorded and dropped loses none of it).
    pub fn write_init(&mut self, queue: &wgpu::Queue) {
        let mut zeros = Vec::new();
        for init in self.init.drain(..) {
            match init {
                Init::Bytes {
                    buffer,
                    offset,
                    bytes,
                } => queue.write_buffer(&buffer, offset, &bytes),
                Init::Zeros {
                    buffer,
                    offset,
                    size,
                } => {
                    zeros.resize(zeros.len().max(size as usize), 0u8);
                    queue.write_buffer(&buffer, offset, &zeros[..size as usize]);
                }
                Init::Texels {
                    texture,
                    bytes,
                    bytes_per_row,
                    size,
                } => queue.write_texture(
                    texture.as_image_copy(),
                    &bytes,
                    wgpu::TexelCopyBufferLayout {
                        offset: 0,
                        bytes_per_row: Some(bytes_per_row),
                        rows_per_image: None,
                    },
                    wgpu::Extent3d {
                        width: size.0,
                        height: size.1,
                        depth_or_array_layers: 1,
                    },
                ),
            }
        }
    }

    /// Write what was gathered since the last call through `queue` into an upload buffer
    /// and record its copies into `encoder` (before the passes that read them), after what
    /// new buffers start with ([`Uploads::write_init`]); whether there was anything.
    pub fn record(
        &mut self,
        (device, queue): (&wgpu::Device, &wgpu::Queue),
        encoder: &mut wgpu::CommandEncoder,
    ) -> bool {
        self.write_init(queue);
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
