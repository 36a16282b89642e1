//! The merged sort: two to four alpha-blended, sorted effects gather their visible pairs into
//! one list (each pair tagged with its effect's draw slot), sorted once and drawn in one
//! draw, so their particles interleave back to front. Built from the shared pipelines: a
//! change of the set allocates buffers and bind groups, never compiles.

use wgpu::util::DeviceExt;

use super::Entry;
use crate::effect::Blend;
use crate::image::Images;
use crate::passes::draw::{DrawArgs, DrawBinding, DrawSources, MAX_SLOTS};
use crate::passes::sort::{SortBinding, SortPlan};
use crate::pipelines::Pipelines;
use crate::types::{sort_len, uniform_bytes, Counters, IndirectArgs, MergeParams};

pub(super) struct Merged {
    /// Indices into the renderer's entries, by slot.
    slots: Vec<usize>,
    /// Kept alive for the bind groups that use it.
    _pairs: wgpu::Buffer,
    counters: wgpu::Buffer,
    args: wgpu::Buffer,
    gather_binds: Vec<wgpu::BindGroup>,
    plan: SortPlan,
    sort_bind: SortBinding,
    draw_bind: DrawBinding,
}

impl Merged {
    /// The merged set of `entries`, marking its members; None when fewer than two
    /// alpha-blended sorted effects without ribbons exist (the first four are merged).
    pub fn new(
        device: &wgpu::Device,
        (p, images): (&Pipelines, &Images),
        entries: &mut [Entry],
    ) -> Option<Self> {
        for e in entries.iter_mut() {
            e.system.set_merged(false);
        }
        let slots: Vec<usize> = entries
            .iter()
            .enumerate()
            .filter(|(_, e)| {
                let (d, ribbons) = (e.system.desc(), e.system.has_ribbons());
                // an effect's ribbon pieces are drawn from its own ribbon buffers
                d.blend == Blend::Alpha && d.sorts() && !ribbons
            })
            .map(|(i, _)| i)
            .take(MAX_SLOTS)
            .collect();
        if slots.len() < 2 {
            return None;
        }
        let total: u32 = slots.iter().map(|&i| entries[i].system.capacity()).sum();
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let buffer = |label, size, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let pairs = buffer("flurry.merged_pairs", sort_len(total) as u64 * 8, storage);
        let counters_size = std::mem::size_of::<Counters>() as u64;
        let counters = buffer(
            "flurry.merged_counters",
            counters_size,
            storage | wgpu::BufferUsages::COPY_DST,
        );
        let args = buffer(
            "flurry.merged_args",
            std::mem::size_of::<IndirectArgs>() as u64,
            storage | wgpu::BufferUsages::INDIRECT,
        );
        let gather_binds = slots
            .iter()
            .enumerate()
            .map(|(slot, &i)| {
                let params = MergeParams {
                    slot: slot as u32,
                    ..Default::default()
                };
                let params = device.create_buffer_init(&wgpu::util::BufferInitDescriptor {
                    label: Some("flurry.merge_slot"),
                    contents: &uniform_bytes(&params),
                    usage: wgpu::BufferUsages::UNIFORM,
                });
                let pool = entries[i].system.pool();
                p.merge()
                    .bind(device, pool, &pairs, &counters, &params, &args)
            })
            .collect();
        let plan = SortPlan::bitonic(device, total);
        let sort_bind = p.sort().bind(device, &plan, &pairs, &counters);
        let sources: Vec<(&wgpu::Buffer, &wgpu::Buffer)> = slots
            .iter()
            .map(|&i| {
                let system = &entries[i].system;
                (&system.pool().particles, system.uniforms().1)
            })
            .collect();
        let first = entries[slots[0]].system.pool();
        let frame = entries[slots[0]].system.uniforms().0;
        let draw = p.merged_draw();
        // no member has ribbons: the first one's (unused) ribbon buffers fill their slots
        let sources = DrawSources {
            slots: &sources,
            list: &pairs,
            ribbons: [&first.ribbon_points, &first.ribbon_pieces],
        };
        let draw_bind = draw.bind_sources(
            device,
            &sources,
            frame,
            (images.view(None), &images.sampler),
        );
        for &i in &slots {
            entries[i].system.set_merged(true);
        }
        Some(Merged {
            slots,
            _pairs: pairs,
            counters,
            args,
            gather_binds,
            plan,
            sort_bind,
            draw_bind,
        })
    }

    /// Whether the renderer's entry `i` is a member.
    pub fn has(&self, i: usize) -> bool {
        self.slots.contains(&i)
    }

    /// Pairs its sort's passes move for `count` gathered pairs.
    pub fn sorted(&self, count: u64) -> u64 {
        let (passes, pairs) = self.plan.passes_for(count);
        passes * pairs
    }

    /// This frame's gathers start from an empty list (cleared in the frame's encoder: a
    /// queue write costs more CPU than the clear).
    pub fn reset(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.clear_buffer(&self.counters, 0, None);
    }

    /// Gather every member's visible pairs, sort them together, size the draw.
    pub fn record(&self, p: &Pipelines, pass: &mut wgpu::ComputePass, entries: &[Entry]) {
        for (bind, &i) in self.gather_binds.iter().zip(&self.slots) {
            p.merge()
                .record_gather(pass, bind, entries[i].system.capacity());
        }
        p.sort().record(pass, &self.plan, &self.sort_bind);
        p.merge().record_args(pass, &self.gather_binds[0]);
    }

    /// Draw the merged list into a pass whose bind group 1 is set.
    pub fn record_draw(&self, p: &Pipelines, pass: &mut wgpu::RenderPass) {
        let args = DrawArgs::Direct(&self.args, IndirectArgs::DRAW_OFFSET);
        p.merged_draw().record(pass, &self.draw_bind, args);
    }
}
