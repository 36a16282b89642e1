//! The per-frame uniforms of every effect, and the renderer's own, in a few shared buffers
//! written with one copy each a frame.
//!
//! Each effect's frame and emit uniforms change every frame. Written one effect at a time
//! they cost two `Queue::write_buffer` calls per effect, and each call stages its bytes in
//! a buffer of its own: measured on lavapipe, 200 writes of 2.3 KiB took 2.5-3.3 ms of CPU
//! against 60-85 µs for one write of the same bytes. So every effect gets a slot of a page
//! (a uniform buffer of [`SLOTS_PER_PAGE`] slots) and binds its two ranges of it; its
//! update copies its bytes into the page's copy on the CPU, and the renderer copies each
//! page in once, with the frame's other uploads at the start of its commands
//! ([`crate::uploads`]: one `write_buffer` a frame for them all). The
//! renderer's own three ([`RendererUniforms`]) share one buffer, written with one
//! `write_buffer`.

use std::num::NonZeroU64;

use encase::internal::WriteInto;
use encase::ShaderType;

use crate::types::{
    CollisionFrame, CompositeParams, DownsampleParams, EmitUniforms, FrameUniforms, GraphParams,
};

/// Effects per page (a slot is the frame uniforms, the emit uniforms and the parameters,
/// each at an aligned offset: 4,096 bytes where uniform offsets align to 256, so a page holds
/// 512 KiB).
pub(crate) const SLOTS_PER_PAGE: usize = 128;

/// What a bind group entry binds: a whole buffer, or a range of one.
pub(crate) trait Binding {
    fn resource(&self) -> wgpu::BindingResource<'_>;
}

impl Binding for wgpu::Buffer {
    fn resource(&self) -> wgpu::BindingResource<'_> {
        self.as_entire_binding()
    }
}

/// `size` bytes of `buffer` from `offset`.
#[derive(Clone, Debug)]
pub(crate) struct BufferRange {
    pub buffer: wgpu::Buffer,
    pub offset: u64,
    pub size: NonZeroU64,
}

impl Binding for BufferRange {
    fn resource(&self) -> wgpu::BindingResource<'_> {
        wgpu::BindingResource::Buffer(wgpu::BufferBinding {
            buffer: &self.buffer,
            offset: self.offset,
            size: Some(self.size),
        })
    }
}

/// One effect's place in the pages: its frame and emit uniforms, and its parameters (what
/// its stacks read: [`crate::effect::Parameter`]).
#[derive(Clone, Debug)]
pub(crate) struct UniformSlot {
    page: usize,
    index: usize,
    pub frame: BufferRange,
    pub emit: BufferRange,
    pub graph: BufferRange,
}

struct Page {
    buffer: wgpu::Buffer,
    /// What the buffer will hold after the next flush.
    bytes: Vec<u8>,
    /// Which slots are handed out.
    used: [bool; SLOTS_PER_PAGE],
    /// Something was staged since the last flush.
    dirty: std::sync::atomic::AtomicBool,
}

/// The pages and the slots free in them.
pub(crate) struct UniformPages {
    pages: Vec<Page>,
    /// Bytes from a slot's start to its emit uniforms (the frame's size, aligned).
    emit_offset: u64,
    /// Bytes from a slot's start to its parameters.
    graph_offset: u64,
    /// Bytes between two slots.
    stride: u64,
}

fn align(n: u64, to: u64) -> u64 {
    n.div_ceil(to) * to
}

/// Where a slot's emit uniforms and parameters start, and the bytes between two slots, for
/// uniform offsets aligned to `to`.
fn slot_layout(to: u64) -> (u64, u64, u64) {
    let emit_offset = align(FrameUniforms::min_size().get(), to);
    let graph_offset = align(emit_offset + EmitUniforms::min_size().get(), to);
    (
        emit_offset,
        graph_offset,
        align(graph_offset + GraphParams::min_size().get(), to),
    )
}

impl UniformPages {
    /// No pages yet; slots aligned for `device`'s uniform offsets.
    pub fn new(device: &wgpu::Device) -> Self {
        let to = device.limits().min_uniform_buffer_offset_alignment as u64;
        let (emit_offset, graph_offset, stride) = slot_layout(to);
        UniformPages {
            pages: Vec::new(),
            emit_offset,
            graph_offset,
            stride,
        }
    }

    /// A free slot, in a new page when every page is full.
    pub fn slot(&mut self, device: &wgpu::Device) -> UniformSlot {
        let free = self.pages.iter().enumerate().find_map(|(page, p)| {
            let index = p.used.iter().position(|used| !used)?;
            Some((page, index))
        });
        let (page, index) = free.unwrap_or_else(|| {
            let size = self.stride * SLOTS_PER_PAGE as u64;
            self.pages.push(Page {
                buffer: device.create_buffer(&wgpu::BufferDescriptor {
                    label: Some("flurry.uniform_page"),
                    size,
                    // COPY_SRC: tests read the pages back
                    usage: wgpu::BufferUsages::UNIFORM
                        | wgpu::BufferUsages::COPY_DST
                        | wgpu::BufferUsages::COPY_SRC,
                    mapped_at_creation: false,
                }),
                bytes: vec![0; size as usize],
                used: [false; SLOTS_PER_PAGE],
                dirty: false.into(),
            });
            (self.pages.len() - 1, 0)
        });
        let p = &mut self.pages[page];
        p.used[index] = true;
        let start = index as u64 * self.stride;
        let range = |offset: u64, size: u64| BufferRange {
            buffer: p.buffer.clone(),
            offset: start + offset,
            size: NonZeroU64::new(size).expect("uniform structs are not empty"),
        };
        UniformSlot {
            page,
            index,
            frame: range(0, FrameUniforms::min_size().get()),
            emit: range(self.emit_offset, EmitUniforms::min_size().get()),
            graph: range(self.graph_offset, GraphParams::min_size().get()),
        }
    }

    /// Give `slot` back (its effect is gone).
    pub fn release(&mut self, slot: &UniformSlot) {
        self.pages[slot.page].used[slot.index] = false;
    }

    /// Slots handed out and not given back.
    #[cfg(test)]
    pub fn in_use(&self) -> usize {
        let used = self.pages.iter().flat_map(|p| p.used);
        used.filter(|&u| u).count()
    }

    /// Stage `slot`'s uniforms for the next [`UniformPages::flush`].
    pub fn write(
        &mut self,
        slot: &UniformSlot,
        (frame, emit, graph): (&FrameUniforms, &EmitUniforms, &GraphParams),
    ) {
        let p = &mut self.pages[slot.page];
        stage(&mut p.bytes, &slot.frame, frame);
        stage(&mut p.bytes, &slot.emit, emit);
        stage(&mut p.bytes, &slot.graph, graph);
        *p.dirty.get_mut() = true;
    }

    /// The emit uniforms staged for `slot` (as its page will hold them after the flush):
    /// the batched emit's table copies them.
    pub fn staged_emit(&self, slot: &UniformSlot) -> &[u8] {
        let start = slot.emit.offset as usize;
        &self.pages[slot.page].bytes[start..start + slot.emit.size.get() as usize]
    }

    /// Every uniform `slot` holds as staged (its frame, emit and parameters, from the
    /// slot's start in its page to the end of its parameters): a prewarm copies each step's
    /// into place on the GPU.
    pub fn staged_slot(&self, slot: &UniformSlot) -> &[u8] {
        let start = slot.frame.offset as usize;
        let end = (slot.graph.offset + slot.graph.size.get()) as usize;
        &self.pages[slot.page].bytes[start..end]
    }

    /// Upload every page something was staged in (up to its last slot in use) with the
    /// frame's `uploads`; whether there was any.
    pub fn flush(&self, uploads: &mut crate::uploads::Uploads) -> bool {
        let mut copied = false;
        for p in &self.pages {
            if !p.dirty.swap(false, std::sync::atomic::Ordering::Relaxed) {
                continue;
            }
            let last = p.used.iter().rposition(|&u| u).map_or(0, |i| i + 1);
            let end = (last as u64 * self.stride) as usize;
            if end > 0 {
                uploads.write_bytes(&p.buffer, 0, &p.bytes[..end]);
                copied = true;
            }
        }
        copied
    }
}

/// The renderer's own per-frame uniforms (the depth collision's view of the previous frame,
/// the downsample's and the composite's parameters) in one buffer at aligned offsets,
/// written together with one `write_buffer`.
pub(crate) struct RendererUniforms {
    buffer: wgpu::Buffer,
    bytes: Vec<u8>,
    pub collision: BufferRange,
    pub downsample: BufferRange,
    pub composite: BufferRange,
}

impl RendererUniforms {
    pub fn new(device: &wgpu::Device) -> Self {
        let to = device.limits().min_uniform_buffer_offset_alignment as u64;
        let sizes = [
            CollisionFrame::min_size(),
            DownsampleParams::min_size(),
            CompositeParams::min_size(),
        ];
        let mut offsets = [0u64; 3];
        let mut end = 0;
        for (offset, size) in offsets.iter_mut().zip(sizes) {
            *offset = align(end, to);
            end = *offset + size.get();
        }
        let buffer = device.create_buffer(&wgpu::BufferDescriptor {
            label: Some("flurry.renderer_uniforms"),
            size: end,
            usage: wgpu::BufferUsages::UNIFORM | wgpu::BufferUsages::COPY_DST,
            mapped_at_creation: false,
        });
        let range = |k: usize| BufferRange {
            buffer: buffer.clone(),
            offset: offsets[k],
            size: sizes[k],
        };
        RendererUniforms {
            collision: range(0),
            downsample: range(1),
            composite: range(2),
            bytes: vec![0; end as usize],
            buffer,
        }
    }

    /// This frame's three, written at once.
    pub fn write(
        &mut self,
        queue: &wgpu::Queue,
        (collision, downsample, composite): (&CollisionFrame, &DownsampleParams, &CompositeParams),
    ) {
        stage(&mut self.bytes, &self.collision, collision);
        stage(&mut self.bytes, &self.downsample, downsample);
        stage(&mut self.bytes, &self.composite, composite);
        queue.write_buffer(&self.buffer, 0, &self.bytes);
    }

    /// The collision frame alone (a prewarm between frames).
    pub fn write_collision(&mut self, queue: &wgpu::Queue, collision: &CollisionFrame) {
        stage(&mut self.bytes, &self.collision, collision);
        let range = &self.collision;
        let start = range.offset as usize;
        let bytes = &self.bytes[start..start + range.size.get() as usize];
        queue.write_buffer(&self.buffer, range.offset, bytes);
    }
}

/// Lay `value` out by encase into `range`'s bytes of `bytes` (a copy of its buffer).
fn stage<T: ShaderType + WriteInto>(bytes: &mut [u8], range: &BufferRange, value: &T) {
    let start = range.offset as usize;
    let end = start + range.size.get() as usize;
    // the range is the struct's own size: encase cannot run out of room
    encase::UniformBuffer::new(&mut bytes[start..end])
        .write(value)
        .expect("a range holds its struct");
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The frame uniforms of `slot` as the GPU holds them.
    fn read_frame(gpu: &crate::gpu::GpuContext, slot: &UniformSlot) -> Vec<u8> {
        let (buffer, offset) = (&slot.frame.buffer, slot.frame.offset);
        let size = slot.frame.size.get();
        crate::readback::read_buffer(&gpu.device, &gpu.queue, buffer, offset, size).unwrap()
    }

    fn frame(time: f32) -> FrameUniforms {
        FrameUniforms {
            time,
            ..Default::default()
        }
    }

    /// What [`SLOTS_PER_PAGE`] says a slot and a page take.
    #[test]
    fn a_slot_takes_4096_bytes_where_offsets_align_to_256() {
        // (the parameters' 16 slots, the effect's transform, the camera's eye and view
        // direction and the emitters' spaces: 864 bytes)
        assert_eq!(slot_layout(256), (512, 3072, 4096));
        assert_eq!(4096 * SLOTS_PER_PAGE, 512 << 10);
    }

    /// Slots fill a page, then the next; a slot given back is handed out again, and each
    /// slot's bytes land at its own offset after one flush.
    #[test]
    fn slots_fill_pages_and_each_slot_holds_its_own_uniforms() {
        let gpu = crate::tests::gpu();
        let mut pages = UniformPages::new(&gpu.device);
        let slots: Vec<_> = (0..SLOTS_PER_PAGE + 1)
            .map(|_| pages.slot(&gpu.device))
            .collect();
        assert_eq!(
            pages.pages.len(),
            2,
            "one slot past a full page opens a second"
        );
        assert_eq!(pages.in_use(), SLOTS_PER_PAGE + 1);
        let align = gpu.device.limits().min_uniform_buffer_offset_alignment as u64;
        for s in &slots {
            assert_eq!(s.frame.offset % align, 0, "frame offsets are bindable");
            assert_eq!(s.emit.offset % align, 0, "emit offsets are bindable");
            assert!(s.emit.offset >= s.frame.offset + s.frame.size.get());
            assert_eq!(s.graph.offset % align, 0, "parameter offsets are bindable");
            assert!(s.graph.offset >= s.emit.offset + s.emit.size.get());
        }
        pages.release(&slots[3]);
        let again = pages.slot(&gpu.device);
        assert_eq!(
            (again.page, again.index),
            (0, 3),
            "a freed slot is reused first"
        );
        let emit = EmitUniforms::default();
        for (k, s) in slots.iter().enumerate().filter(|(k, _)| *k != 3) {
            pages.write(s, (&frame(k as f32), &emit, &GraphParams::default()));
        }
        pages.write(&again, (&frame(1000.0), &emit, &GraphParams::default()));
        let mut uploads = crate::uploads::Uploads::default();
        let mut encoder = gpu.device.create_command_encoder(&Default::default());
        assert!(pages.flush(&mut uploads), "staged pages are copied");
        uploads.record((&gpu.device, &gpu.queue), &mut encoder);
        gpu.queue.submit([encoder.finish()]);
        assert!(!pages.flush(&mut uploads), "nothing staged since");
        for (k, s) in slots.iter().enumerate().filter(|(k, _)| *k != 3) {
            let want = crate::types::uniform_bytes(&frame(k as f32));
            assert_eq!(read_frame(&gpu, s), want, "slot {k}");
        }
        let want = crate::types::uniform_bytes(&frame(1000.0));
        assert_eq!(read_frame(&gpu, &again), want, "the reused slot");
    }
}
