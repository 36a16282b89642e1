//! The per-frame uniforms of every effect, and the renderer's own, in a few shared buffers
//! copied in with the frame's other uploads.
//!
//! Each effect's frame and emit uniforms change every frame. Written one effect at a time
//! they cost two `Queue::write_buffer` calls per effect, and each call stages its bytes in
//! a buffer of its own: measured on lavapipe, 200 writes of 2.3 KiB took 2.5-3.3 ms of CPU
//! against 60-85 µs for one write of the same bytes. So every effect gets a slot of a page
//! (a uniform buffer of [`SLOTS_PER_PAGE`] slots) and binds its three ranges of it; its
//! update copies its bytes into the page's copy on the CPU, and the frame's uploads
//! ([`crate::uploads`]: one `write_buffer` a frame for them all) copy in what changed:
//! each slot's frame uniforms, the emitters its emit uniforms use (about 320 bytes for one
//! emitter) where its own emit reads them (a batched emit reads its batch's table), its
//! parameters only when its effect says they changed (a parameter set, the effect moved,
//! the camera moved). Copying whole pages cost a host 40-50 µs a frame more for 100
//! effects.
//!
//! A page holds its slots' frame uniforms side by side, then their emit uniforms, then
//! their parameters: the frame uniforms of neighbouring slots are one copy, not one each,
//! and a batched emit's own uniforms are not copied at all (with both, a host's update +
//! encode of 100 small effects went from about 316 to 291 µs on lavapipe).
//! The renderer's own three ([`RendererUniforms`]) share one buffer, copied in with them.

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

use encase::internal::WriteInto;
use encase::ShaderType;

use crate::effect::MAX_EMITTERS;
use crate::types::{
    CollisionFrame, CompositeParams, DownsampleParams, EmitUniforms, EmitterParams, FrameUniforms,
    GraphParams,
};

/// Effects per page (a slot is the frame uniforms, the emit uniforms and the parameters,
/// each in its part of the page at an aligned offset: 4,096 bytes in all where uniform
/// offsets align to 256, so a page holds 512 KiB).
pub(crate) const SLOTS_PER_PAGE: usize = 128;

/// Bytes of one emitter in the emit uniforms.
const EMITTER: u64 = EmitterParams::METADATA.min_size().get();

/// Bytes of the emit uniforms before their emitters.
const EMIT_HEAD: u64 = EmitUniforms::METADATA.min_size().get() - EMITTER * MAX_EMITTERS as u64;

/// Bytes at the start of an emitter's emit uniforms that change every frame (its spawns:
/// the first, how many, the burst), with the two words among them that do not (its shape
/// and velocity mode).
pub(crate) const EMITTER_SPAWNS: u64 = std::mem::offset_of!(EmitterParams, p0) as u64;

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
    /// What the buffer will hold after the next flush (in blocks aligned as the structs
    /// written in place: [`UniformPages::emit`]).
    blocks: Vec<Block>,
    /// Which slots are handed out.
    used: [bool; SLOTS_PER_PAGE],
    /// Bytes of each slot's emit uniforms its emitters use (what a frame stages of them).
    emit_used: [u32; SLOTS_PER_PAGE],
    /// What the next flush copies of each slot (the flush runs in the renderer's `encode`,
    /// which a host calls with the renderer shared).
    due: [Due; SLOTS_PER_PAGE],
}

/// 16 bytes aligned to 16, as a uniform struct's vectors and matrices are.
#[repr(C, align(16))]
#[derive(Clone, Copy, bytemuck::Pod, bytemuck::Zeroable)]
struct Block([u8; 16]);

impl Page {
    fn bytes(&self) -> &[u8] {
        bytemuck::cast_slice(&self.blocks)
    }

    fn bytes_mut(&mut self) -> &mut [u8] {
        bytemuck::cast_slice_mut(&mut self.blocks)
    }
}

/// What the next flush copies of one slot: every frame its frame uniforms and what its
/// update wrote of its emit uniforms (the head and each emitter's spawns, or all its
/// emitters use: [`EmitStaged`]), unless a batch's table holds them; its parameters only
/// when staged again (they hold the host's parameters, the effect's transform and the
/// camera, most frames the same as the last); a slot just handed out, all of it.
#[derive(Default)]
struct Due {
    /// Its frame uniforms.
    frame: AtomicBool,
    /// Bytes of its emit uniforms, from their start.
    emit: AtomicU32,
    /// Its emit uniforms up to the emitters it uses, written whole to be kept: written
    /// through the queue too ([`EmitStaged::kept`]).
    kept: AtomicBool,
    /// Its batch's row of its emit uniforms (all its emitters' fields changed: the batch
    /// copies them, [`UniformPages::batch_row`]), and whether to be kept.
    row: AtomicBool,
    row_kept: AtomicBool,
    /// Its parameters, and whether to be kept (written through the queue too, as
    /// [`EmitStaged::kept`] says of the emitters).
    graph: AtomicBool,
    graph_kept: AtomicBool,
}

impl Due {
    fn all(emit: u64) -> Due {
        Due {
            frame: AtomicBool::new(true),
            emit: AtomicU32::new(emit as u32),
            kept: AtomicBool::new(false),
            row: AtomicBool::new(true),
            row_kept: AtomicBool::new(false),
            graph: AtomicBool::new(true),
            graph_kept: AtomicBool::new(false),
        }
    }
}

/// What an effect's update wrote of its emit uniforms, and where they are read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct EmitStaged {
    /// Every field of the emitters it uses; else the head and each emitter's spawns alone
    /// (the rest as the last whole write left them).
    pub whole: bool,
    /// Written whole for the frames after this one to keep (it stands still: they write
    /// its spawns alone). Besides this frame's copy it is written through the queue, as
    /// what new buffers start with is ([`crate::uploads::Uploads::init_bytes`]): it lands
    /// even if the host drops the frame it was recorded into.
    pub kept: bool,
    /// A batch's table holds them (its emit reads them there, not from the page).
    pub elsewhere: bool,
}

/// The pages and the slots free in them.
pub(crate) struct UniformPages {
    pages: Vec<Page>,
    layout: Layout,
}

/// Where a slot's parts lie in its page: each part of the page holds that part of every
/// slot, one after another.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Layout {
    /// Bytes between two slots' frame uniforms (the page's first part).
    frame: u64,
    /// Bytes between two slots' emit uniforms (the second part).
    emit: u64,
    /// Bytes between two slots' parameters (the third part).
    graph: u64,
}

impl Layout {
    /// Where slot `index`'s frame uniforms, emit uniforms and parameters start.
    fn offsets(&self, index: usize) -> [u64; 3] {
        let (i, n) = (index as u64, SLOTS_PER_PAGE as u64);
        [
            i * self.frame,
            n * self.frame + i * self.emit,
            n * (self.frame + self.emit) + i * self.graph,
        ]
    }

    /// Bytes of a page.
    fn page(&self) -> u64 {
        SLOTS_PER_PAGE as u64 * (self.frame + self.emit + self.graph)
    }
}

/// Two ranges copied as one where no more than this many bytes lie between them (copying
/// them costs less than a copy command more).
const JOINED_GAP: u64 = 256;

fn align(n: u64, to: u64) -> u64 {
    n.div_ceil(to) * to
}

/// The parts of a page for uniform offsets aligned to `to`.
fn slot_layout(to: u64) -> Layout {
    Layout {
        frame: align(FrameUniforms::min_size().get(), to),
        emit: align(EmitUniforms::min_size().get(), to),
        graph: align(GraphParams::min_size().get(), to),
    }
}

impl UniformPages {
    /// No pages yet; slots aligned for `device`'s uniform offsets (and at least to 16
    /// bytes, for the structs written in place).
    pub fn new(device: &wgpu::Device) -> Self {
        let to = (device.limits().min_uniform_buffer_offset_alignment as u64).max(16);
        UniformPages {
            pages: Vec::new(),
            layout: slot_layout(to),
        }
    }

    /// A free slot, in a new page when every page is full.
    pub fn slot(&mut self, device: &wgpu::Device) -> UniformSlot {
        let free = self.pages.iter().enumerate().find_map(|(page, p)| {
            let index = p.used.iter().position(|used| !used)?;
            Some((page, index))
        });
        let (page, index) = free.unwrap_or_else(|| {
            let size = self.layout.page();
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
                blocks: vec![Block([0; 16]); size.div_ceil(16) as usize],
                used: [false; SLOTS_PER_PAGE],
                emit_used: [0; SLOTS_PER_PAGE],
                due: std::array::from_fn(|_| Due::default()),
            });
            (self.pages.len() - 1, 0)
        });
        let p = &mut self.pages[page];
        p.used[index] = true;
        // (whatever the slot held before, its new effect's bytes all go in)
        p.due[index] = Due::all(EmitUniforms::min_size().get());
        let [frame, emit, graph] = self.layout.offsets(index);
        let range = |offset: u64, size: u64| BufferRange {
            buffer: p.buffer.clone(),
            offset,
            size: NonZeroU64::new(size).expect("uniform structs are not empty"),
        };
        UniformSlot {
            page,
            index,
            frame: range(frame, FrameUniforms::min_size().get()),
            emit: range(emit, EmitUniforms::min_size().get()),
            graph: range(graph, GraphParams::min_size().get()),
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

    /// `slot`'s emit uniforms as staged, to fill in place before [`UniformPages::write`]
    /// (2.3 KiB with every emitter's room: not built elsewhere and copied in).
    pub fn emit(&mut self, slot: &UniformSlot) -> &mut EmitUniforms {
        let start = slot.emit.offset as usize;
        let size = std::mem::size_of::<EmitUniforms>();
        bytemuck::from_bytes_mut(&mut self.pages[slot.page].bytes_mut()[start..][..size])
    }

    /// Stage `slot`'s uniforms for the next [`UniformPages::flush`]: its frame uniforms,
    /// what its update wrote of its emit uniforms in place ([`UniformPages::emit`], as
    /// `emit` says: copied by its batch where a batch's table holds them,
    /// [`UniformPages::batch_row`]), and its parameters when they changed (`graph` None: as
    /// staged last; with whether to be kept, as the frames after keep them).
    pub fn write(
        &mut self,
        slot: &UniformSlot,
        (frame, emit): (&FrameUniforms, EmitStaged),
        graph: Option<(&GraphParams, bool)>,
    ) {
        // the emitters past its count are never read (spawn.wgsl `emitter_of`): its bytes
        // up to them
        let emitters = (self.emit(slot).emitter_count as usize).min(MAX_EMITTERS) as u64;
        let p = &mut self.pages[slot.page];
        stage(p.bytes_mut(), &slot.frame, frame);
        let used = EMIT_HEAD + EMITTER * emitters;
        p.emit_used[slot.index] = used as u32;
        // (the head and each emitter's spawns: up to the last emitter's)
        let written = match (emit.whole, emitters) {
            (false, 1..) => EMIT_HEAD + EMITTER * (emitters - 1) + EMITTER_SPAWNS,
            (false, 0) => EMIT_HEAD,
            (true, _) => used,
        };
        let due = &mut p.due[slot.index];
        *due.frame.get_mut() = true;
        if !emit.elsewhere {
            let due_emit = due.emit.get_mut();
            *due_emit = (*due_emit).max(written as u32);
            *due.kept.get_mut() |= emit.kept;
        } else if emit.whole {
            *due.row.get_mut() = true;
            *due.row_kept.get_mut() |= emit.kept;
        }
        if let Some((graph, kept)) = graph {
            stage(p.bytes_mut(), &slot.graph, graph);
            *p.due[slot.index].graph.get_mut() = true;
            *p.due[slot.index].graph_kept.get_mut() |= kept;
        }
    }

    /// `slot`'s emit uniforms as staged, up to the emitters it uses, where its batch's row
    /// of them is due: its emitters' fields were written since the last call, or `fresh`
    /// (a row just made); and whether to be kept ([`EmitStaged::kept`], or fresh). The
    /// batched emit's table copies them.
    pub fn batch_row(&self, slot: &UniformSlot, fresh: bool) -> Option<(&[u8], bool)> {
        let (page, start) = (&self.pages[slot.page], slot.emit.offset as usize);
        let due = &page.due[slot.index];
        let written = take(&due.row);
        let kept = take(&due.row_kept) || fresh;
        let used = page.emit_used[slot.index] as usize;
        (written || fresh).then(|| (&page.bytes()[start..][..used], kept))
    }

    /// `slot`'s emit uniforms as staged (the emitters past its count as they were left).
    pub fn staged_emit(&self, slot: &UniformSlot) -> &EmitUniforms {
        let start = slot.emit.offset as usize;
        let size = std::mem::size_of::<EmitUniforms>();
        bytemuck::from_bytes(&self.pages[slot.page].bytes()[start..][..size])
    }

    /// Every uniform `slot` holds as staged, each part where it lies in the page (its
    /// frame, emit and parameters): a prewarm copies each step's into place on the GPU.
    pub fn staged_slot<'a>(&'a self, slot: &'a UniformSlot) -> [(&'a BufferRange, &'a [u8]); 3] {
        let bytes = self.pages[slot.page].bytes();
        let part = |range: &'a BufferRange| {
            let start = range.offset as usize;
            (range, &bytes[start..start + range.size.get() as usize])
        };
        [part(&slot.frame), part(&slot.emit), part(&slot.graph)]
    }

    /// From the next flush on, copy every slot's emit uniforms again (the batches that
    /// held some of them in their tables are gone).
    pub fn emit_everywhere(&mut self) {
        for p in &mut self.pages {
            for (due, used) in p.due.iter_mut().zip(p.emit_used) {
                let emit = due.emit.get_mut();
                *emit = (*emit).max(used);
            }
        }
    }

    /// Where in page `p` part `part` (1: emit uniforms, 2: parameters) is to be kept: from
    /// the first slot whose `kept` flag is up to the end (`size`) of the last (the flags
    /// taken down); None where none is.
    fn kept_span(
        &self,
        p: &Page,
        part: usize,
        kept: impl Fn(&Due) -> &AtomicBool,
        size: impl Fn(usize) -> u64,
    ) -> Option<(u64, u64)> {
        let mut span = None;
        for (index, due) in p.due.iter().enumerate() {
            if take(kept(due)) {
                let first = span.map_or(index, |(first, _)| first);
                span = Some((first, index));
            }
        }
        let (first, last) = span?;
        let start = self.layout.offsets(first)[part];
        Some((start, self.layout.offsets(last)[part] + size(last)))
    }

    /// Ask the CPU's caches for the lines `slot`'s update writes first.
    pub fn prefetch(&self, slot: &UniformSlot) {
        let bytes = self.pages[slot.page].bytes();
        let [frame, emit, _] = self.layout.offsets(slot.index).map(|o| o as usize);
        crate::prefetch::byte(bytes, frame);
        crate::prefetch::byte(bytes, emit);
        crate::prefetch::byte(bytes, emit + 64);
    }

    /// Upload what was staged since the last flush with the frame's `uploads` (ranges at
    /// most [`JOINED_GAP`] apart as one copy; what is kept through the queue too);
    /// whether there was anything.
    pub fn flush(&self, uploads: &mut crate::uploads::Uploads) -> bool {
        let mut copied = false;
        for p in &self.pages {
            // what is kept, through the queue: of each part, one write from the first slot
            // kept to the last (what lies between is as staged, the newest: a frame that
            // copies it copies the same)
            let emit = self.kept_span(p, 1, |d| &d.kept, |i| p.emit_used[i] as u64);
            let graph_size = GraphParams::min_size().get();
            let graph = self.kept_span(p, 2, |d| &d.graph_kept, |_| graph_size);
            for (start, end) in emit.into_iter().chain(graph) {
                let bytes = p.bytes()[start as usize..end as usize].to_vec();
                uploads.init_bytes(&p.buffer, start, bytes);
            }
            let mut ranges: Option<(u64, u64)> = None;
            let mut copy = |range: (u64, u64), ranges: &mut Option<(u64, u64)>| match ranges {
                Some((_, end)) if range.0 <= *end + JOINED_GAP => *end = range.1,
                _ => {
                    if let Some((start, end)) = ranges.replace(range) {
                        let bytes = &p.bytes()[start as usize..end as usize];
                        uploads.write_bytes(&p.buffer, start, bytes);
                    }
                }
            };
            // each part in turn, the slots in order: neighbours join
            let sizes = [
                FrameUniforms::min_size().get(),
                0,
                GraphParams::min_size().get(),
            ];
            for (part, size) in sizes.into_iter().enumerate() {
                for (index, due) in p.due.iter().enumerate() {
                    let bytes = match part {
                        0 => take(&due.frame) as u64 * size,
                        1 => take_bytes(&due.emit) as u64,
                        _ => take(&due.graph) as u64 * size,
                    };
                    if bytes > 0 {
                        let start = self.layout.offsets(index)[part];
                        copy((start, start + bytes.next_multiple_of(16)), &mut ranges);
                        copied = true;
                    }
                }
            }
            if let Some((start, end)) = ranges {
                let bytes = &p.bytes()[start as usize..end as usize];
                uploads.write_bytes(&p.buffer, start, bytes);
            }
        }
        copied
    }
}

/// Whether `flag` is set, cleared. Not an atomic swap: a swap is a locked instruction,
/// which waits for every store before it, and a flush takes a few flags of every slot of a
/// page each frame (some 800 for a page of 100 effects). An update sets them and the
/// encode after it takes them: never two at once.
fn take(flag: &AtomicBool) -> bool {
    let set = flag.load(Ordering::Relaxed);
    if set {
        flag.store(false, Ordering::Relaxed);
    }
    set
}

/// [`take`] of a count of bytes.
fn take_bytes(bytes: &AtomicU32) -> u32 {
    let taken = bytes.load(Ordering::Relaxed);
    if taken > 0 {
        bytes.store(0, Ordering::Relaxed);
    }
    taken
}

/// The renderer's own per-frame uniforms (the depth collision's view of the previous frame,
/// the downsample's and the composite's parameters) in one buffer at aligned offsets,
/// copied in together with the frame's other uploads.
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

    /// Stage this frame's three for the next [`RendererUniforms::flush`].
    pub fn write(
        &mut self,
        (collision, downsample, composite): (&CollisionFrame, &DownsampleParams, &CompositeParams),
    ) {
        stage(&mut self.bytes, &self.collision, collision);
        stage(&mut self.bytes, &self.downsample, downsample);
        stage(&mut self.bytes, &self.composite, composite);
    }

    /// Copy the staged three in with the frame's `uploads`.
    pub fn flush(&self, uploads: &mut crate::uploads::Uploads) {
        uploads.write_bytes(&self.buffer, 0, &self.bytes);
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

    /// What a frame copies of an effect's emit uniforms is what its update wrote: the head
    /// and each emitter's spawns, and the rest of its emitters' fields only when written
    /// whole (the page on the GPU keeps them from the last whole write meanwhile); a slot
    /// whose emit a batch reads copies none of it, and its batch's row is due only after a
    /// whole write.
    #[test]
    fn a_frame_copies_what_its_update_wrote_of_the_emitters() {
        let gpu = crate::tests::gpu();
        let mut pages = UniformPages::new(&gpu.device);
        let slot = pages.slot(&gpu.device);
        let mut uploads = crate::uploads::Uploads::default();
        let mut stage = |pages: &mut UniformPages, (request, speed): (u32, f32), emit| {
            let staged = pages.emit(&slot);
            (staged.request, staged.emitter_count) = (request, 2);
            for e in &mut staged.emitters[..2] {
                (e.spawn_count, e.vel_mean.x) = (request, speed);
            }
            pages.write(&slot, (&frame(0.0), emit), None);
            let mut encoder = gpu.device.create_command_encoder(&Default::default());
            pages.flush(&mut uploads);
            uploads.record((&gpu.device, &gpu.queue), &mut encoder);
            gpu.queue.submit([encoder.finish()]);
            let (buffer, offset) = (&slot.emit.buffer, slot.emit.offset);
            let size = slot.emit.size.get();
            let device = (&gpu.device, &gpu.queue);
            let bytes = crate::readback::read_buffer(device.0, device.1, buffer, offset, size);
            let on_gpu: EmitUniforms = bytemuck::pod_read_unaligned(&bytes.unwrap());
            let e = on_gpu.emitters;
            let spawned = [e[0].spawn_count, e[1].spawn_count];
            (on_gpu.request, spawned, e[1].vel_mean.x)
        };
        let whole = |elsewhere| EmitStaged {
            whole: true,
            kept: false,
            elsewhere,
        };
        let spawns = |elsewhere| EmitStaged {
            whole: false,
            kept: false,
            elsewhere,
        };
        let (here, batched) = (false, true);
        assert_eq!(stage(&mut pages, (5, 1.0), whole(here)), (5, [5, 5], 1.0));
        // (a field past the last emitter's spawns changed on the CPU alone stays as last
        // copied: the copy runs from the head up to them)
        assert_eq!(stage(&mut pages, (7, 2.0), spawns(here)), (7, [7, 7], 1.0));
        assert_eq!(stage(&mut pages, (8, 3.0), whole(here)), (8, [8, 8], 3.0));
        // read from a batch's row: none of it copied into the page, the row due when
        // written whole (or new)
        assert!(pages.batch_row(&slot, false).is_some(), "a new slot's row");
        assert_eq!(
            stage(&mut pages, (9, 4.0), spawns(batched)),
            (8, [8, 8], 3.0)
        );
        assert!(pages.batch_row(&slot, false).is_none(), "spawns alone");
        assert!(pages.batch_row(&slot, true).is_some(), "a new row");
        stage(&mut pages, (10, 5.0), whole(batched));
        let (row, kept) = pages
            .batch_row(&slot, false)
            .expect("due after a whole write");
        assert!(!kept, "written whole, not kept");
        let mut bytes = row.to_vec();
        bytes.resize(size_of::<EmitUniforms>(), 0);
        let row: EmitUniforms = bytemuck::pod_read_unaligned(&bytes);
        assert_eq!((row.request, row.emitters[1].vel_mean.x), (10, 5.0));
        assert!(pages.batch_row(&slot, false).is_none(), "taken");
    }

    /// The emit uniforms are staged as their memory: it must be what encase (and WGSL)
    /// lay out, every field of every emitter at its place.
    #[test]
    fn emit_uniforms_are_laid_out_as_their_memory() {
        let mut emit = EmitUniforms {
            request: 1,
            id_base: 2,
            emitter_count: 3,
            step: 4.0,
            frame: 5.0,
            instances: 6,
            per_instance: 7,
            time: 8.0,
            ..Default::default()
        };
        for (k, e) in emit.emitters.iter_mut().enumerate() {
            let f = k as f32 * 100.0;
            *e = EmitterParams {
                shape: k as u32 + 10,
                spawn_first: 11,
                spawn_count: 12,
                velocity_mode: 13,
                burst_count: 14,
                burst_at: f + 15.0,
                _pad0: 16,
                _pad1: 17,
                p0: glam::Vec4::splat(f + 18.0),
                p1: glam::Vec4::splat(f + 19.0),
                vel_mean: glam::Vec4::splat(f + 20.0),
                vel_var: glam::Vec4::splat(f + 21.0),
                color_mean: glam::Vec4::splat(f + 22.0),
                color_var: glam::Vec4::splat(f + 23.0),
                life_size: glam::Vec4::splat(f + 24.0),
                rot_spin: glam::Vec4::splat(f + 25.0),
                start: glam::Mat4::from_cols_array(&[f + 26.0; 16]),
                end: glam::Mat4::from_cols_array(&[f + 27.0; 16]),
            };
        }
        assert_eq!(
            bytemuck::bytes_of(&emit),
            &crate::types::uniform_bytes(&emit)[..]
        );
        assert_eq!(EMITTER, 288);
        assert_eq!(EMIT_HEAD, 32);
    }

    /// What [`SLOTS_PER_PAGE`] says a slot and a page take.
    #[test]
    fn a_slot_takes_4096_bytes_where_offsets_align_to_256() {
        // (the parameters' 16 slots, the effect's transform, the camera's eye and view
        // direction and the emitters' spaces: 864 bytes)
        let layout = slot_layout(256);
        assert_eq!((layout.frame, layout.emit, layout.graph), (512, 2560, 1024));
        assert_eq!(layout.page() / SLOTS_PER_PAGE as u64, 4096);
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
            assert!(
                s.emit.offset >= 512 * SLOTS_PER_PAGE as u64,
                "after every frame"
            );
            assert_eq!(s.graph.offset % align, 0, "parameter offsets are bindable");
            assert!(
                s.graph.offset >= 3072 * SLOTS_PER_PAGE as u64,
                "after every emit"
            );
        }
        pages.release(&slots[3]);
        let again = pages.slot(&gpu.device);
        assert_eq!(
            (again.page, again.index),
            (0, 3),
            "a freed slot is reused first"
        );
        for (k, s) in slots.iter().enumerate().filter(|(k, _)| *k != 3) {
            let emit = EmitStaged {
                whole: true,
                kept: false,
                elsewhere: false,
            };
            pages.write(
                s,
                (&frame(k as f32), emit),
                Some((&GraphParams::default(), false)),
            );
        }
        pages.write(
            &again,
            (
                &frame(1000.0),
                EmitStaged {
                    whole: true,
                    kept: false,
                    elsewhere: false,
                },
            ),
            Some((&GraphParams::default(), false)),
        );
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
