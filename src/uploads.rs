//! What a frame writes into buffers its passes read (the effects' uniform pages, the
//! batches' rows, the instances), and what the buffers made since the last frame start
//! with (a new pool's lists, an effect's constants and tables, a batch's rows): gathered
//! on the CPU, written with one `Queue::write_buffer_with` into one of a few upload
//! buffers, and copied into place by commands recorded into the host's encoder before the
//! frame's first pass.
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

/// The most bytes a ring's buffer keeps room for: a larger upload (a large pool's lists
/// as it is added) goes through a buffer of its own, dropped once copied.
const RING_MOST: u64 = 1 << 20;

/// Where a copy's bytes come from.
enum Source {
    /// The frame's `bytes`, from this offset.
    Staged(u64),
    /// Bytes of its own: what a new buffer starts with (kept apart from the frame's
    /// `bytes`, which would otherwise grow by every pool added before a frame, and keep
    /// that room).
    Owned(Vec<u8>),
    Zeros,
}

/// Where a copy's bytes go.
enum Copy {
    /// `size` bytes into `buffer` at `offset`.
    Buffer {
        buffer: wgpu::Buffer,
        offset: u64,
        source: Source,
        size: u64,
    },
    /// A whole 2D texture of `size` texels, its rows `bytes_per_row` apart.
    Texture {
        texture: wgpu::Texture,
        source: Source,
        bytes_per_row: u32,
        size: (u32, u32),
    },
}

impl Copy {
    fn source(&self) -> &Source {
        match self {
            Copy::Buffer { source, .. } | Copy::Texture { source, .. } => source,
        }
    }
}

/// Where the owned bytes after `at` in an upload start (a copy to a texture starts at a
/// multiple of its texel's bytes, 16 at most).
fn owned_start(at: u64) -> u64 {
    at.next_multiple_of(16)
}

/// One frame's uploads, and the buffers they go through.
#[derive(Default)]
pub(crate) struct Uploads {
    /// The frame's bytes, each write at a copy-aligned offset.
    bytes: Vec<u8>,
    /// What each write fills, in the order written.
    copies: Vec<Copy>,
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
        self.copies.push(Copy::Buffer {
            buffer: destination.clone(),
            offset,
            source: Source::Staged(start as u64),
            size,
        });
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
        self.copies.push(Copy::Buffer {
            buffer: destination.clone(),
            offset,
            source: Source::Staged(start),
            size: bytes.len() as u64,
        });
    }

    /// `bytes` (a multiple of [`wgpu::COPY_BUFFER_ALIGNMENT`] long) for `destination` at
    /// `offset` (as far), copied in by the next [`Uploads::record`]: what a new buffer, or
    /// one made to start again, starts with.
    pub fn write_owned(&mut self, destination: &wgpu::Buffer, offset: u64, bytes: Vec<u8>) {
        debug_assert!(offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        debug_assert!((bytes.len() as u64).is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        if bytes.is_empty() {
            return;
        }
        self.copies.push(Copy::Buffer {
            buffer: destination.clone(),
            offset,
            size: bytes.len() as u64,
            source: Source::Owned(bytes),
        });
    }

    /// `size` bytes of `destination` at `offset` (both multiples of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`]) zeroed by the next [`Uploads::record`], in turn with
    /// the writes.
    pub fn zero(&mut self, destination: &wgpu::Buffer, offset: u64, size: u64) {
        debug_assert!(offset.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        debug_assert!(size.is_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
        if size > 0 {
            self.copies.push(Copy::Buffer {
                buffer: destination.clone(),
                offset,
                source: Source::Zeros,
                size,
            });
        }
    }

    /// A buffer of `contents` (zeros after them up to a multiple of
    /// [`wgpu::COPY_BUFFER_ALIGNMENT`]) for `usage` (and copies into it), filled by the next
    /// [`Uploads::record`], before anything recorded after that reads it.
    ///
    /// Why not `DeviceExt::create_buffer_init`: wgpu stages the contents of each buffer so
    /// made in a buffer of its own, freed once the copy is done, between the buffers that
    /// live on. The holes they leave in the device's memory are what every later
    /// allocation searches (a frame's upload among them): 100 effects added so left 600 to
    /// 700 holes, and placing a frame's upload among them took ~45 µs of the host's CPU a
    /// frame (lavapipe, `perf` of `flurry profile effects --host`).
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
        let mut owned = contents.to_vec();
        owned.resize(size as usize, 0);
        self.write_owned(&buffer, 0, owned);
        buffer
    }

    /// An `Rgba32Float` texture of `size` texels (a table shaders sample), `texels` row by
    /// row, filled by the next [`Uploads::record`] (for the reason of
    /// [`Uploads::buffer_init`]).
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
        let row = size.0 as usize * 16;
        let bytes_per_row = row.next_multiple_of(wgpu::COPY_BYTES_PER_ROW_ALIGNMENT as usize);
        let mut owned = vec![0u8; bytes_per_row * size.1 as usize];
        for (y, texels) in texels.chunks(size.0 as usize).enumerate() {
            let at = y * bytes_per_row;
            owned[at..at + row].copy_from_slice(bytemuck::cast_slice(texels));
        }
        self.copies.push(Copy::Texture {
            texture: texture.clone(),
            source: Source::Owned(owned),
            bytes_per_row: bytes_per_row as u32,
            size,
        });
        texture
    }

    /// What waits for the next frame, recorded into an encoder of its own and submitted
    /// now (a read-back's: what it reads is then as the next frame would find it).
    pub fn submit(&mut self, (device, queue): (&wgpu::Device, &wgpu::Queue)) {
        if self.copies.is_empty() {
            return;
        }
        let mut encoder = device.create_command_encoder(&wgpu::CommandEncoderDescriptor {
            label: Some("flurry.uploads_before_a_read"),
        });
        self.record((device, queue), &mut encoder);
        queue.submit([encoder.finish()]);
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
        // the frame's bytes, then each owned piece after them
        let mut size = self.bytes.len() as u64;
        for copy in &self.copies {
            if let Source::Owned(bytes) = copy.source() {
                size = owned_start(size) + bytes.len() as u64;
            }
        }
        let made = |size: u64| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flurry.uploads"),
                size,
                usage: wgpu::BufferUsages::COPY_SRC | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            })
        };
        let upload = match size.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT) {
            0 => None, // zeros only
            size if size > RING_MOST => Some(made(size)),
            size => {
                let slot = &mut self.ring[self.next];
                self.next = (self.next + 1) % RING;
                if slot.as_ref().is_none_or(|b| b.size() < size) {
                    *slot = Some(made(size.next_power_of_two().max(1 << 12)));
                }
                slot.clone()
            }
        };
        if let Some(upload) = &upload {
            let whole = wgpu::BufferSize::new(size.next_multiple_of(wgpu::COPY_BUFFER_ALIGNMENT));
            let whole = whole.expect("not empty");
            if let Some(mut view) = queue.write_buffer_with(upload, 0, whole) {
                let staged = self.bytes.len();
                view.slice(..staged).copy_from_slice(&self.bytes);
                let mut at = staged as u64;
                for copy in &self.copies {
                    if let Source::Owned(bytes) = copy.source() {
                        let start = owned_start(at) as usize;
                        view.slice(start..start + bytes.len())
                            .copy_from_slice(bytes);
                        at = (start + bytes.len()) as u64;
                    }
                }
            }
        }
        // (the owned pieces where the first pass put them)
        let mut at = self.bytes.len() as u64;
        let mut from = |source: &Source| match source {
            Source::Staged(from) => *from,
            Source::Owned(bytes) => {
                let start = owned_start(at);
                at = start + bytes.len() as u64;
                start
            }
            Source::Zeros => unreachable!("a clear copies nothing"),
        };
        for copy in self.copies.drain(..) {
            match (copy, &upload) {
                (
                    Copy::Buffer {
                        buffer,
                        offset,
                        source: Source::Zeros,
                        size,
                    },
                    _,
                ) => encoder.clear_buffer(&buffer, offset, Some(size)),
                (
                    Copy::Buffer {
                        buffer,
                        offset,
                        source,
                        size,
                    },
                    Some(upload),
                ) => encoder.copy_buffer_to_buffer(upload, from(&source), &buffer, offset, size),
                (
                    Copy::Texture {
                        texture,
                        source,
                        bytes_per_row,
                        size,
                    },
                    Some(upload),
                ) => encoder.copy_buffer_to_texture(
                    wgpu::TexelCopyBufferInfo {
                        buffer: upload,
                        layout: wgpu::TexelCopyBufferLayout {
                            offset: from(&source),
                            bytes_per_row: Some(bytes_per_row),
                            rows_per_image: None,
                        },
                    },
                    texture.as_image_copy(),
                    wgpu::Extent3d {
                        width: size.0,
                        height: size.1,
                        depth_or_array_layers: 1,
                    },
                ),
                (_, None) => unreachable!("bytes to copy are in the upload"),
            }
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
