//! The merged lists: every sorted effect without ribbons is culled straight into one list (a
//! copy of each particle it keeps, marked with the member it came from), sorted once and
//! drawn in one draw, so that their particles interleave back to front and a hundred small
//! effects cost one sort and one draw, not a hundred. The unsorted effects without ribbons
//! share a second list the same way, drawn and splatted once, not sorted. Either list takes
//! both blends: the draw writes premultiplied colour, additive light being colour with
//! alpha 0, under one blend state ("over"), and the splat adds each particle as its member
//! blends (so a sorted additive effect is drawn in order among the alpha-blended ones, and
//! an alpha-blended one that asks not to be sorted costs no sort). Its splatted particles
//! are splatted in two lists, by two variants: those whose splat samples a texture or
//! lights them apart from the rest, so that a disc pays for no member's snowflakes. The
//! small members whose pools share a chunk of the arena are culled in one dispatch
//! (`shaders/batch_merge.wgsl`), a workgroup row a member. Built from the shared
//! pipelines: a change of the set allocates buffers and bind groups, and compiles only a
//! variant of the merged cull that no member needed before (at the update, not the encode).

use encase::ShaderType;

use super::batched::{groups, in_rows, pool_places, uniform_table};
use super::Entry;
use crate::image::Images;
use crate::passes::batch_merge::{row_size, row_table, BatchCull, CullMember};
use crate::passes::cull::CullVariant;
use crate::passes::draw::{DrawArgs, DrawBinding, DrawSources, DrawSprites};
use crate::passes::members::{max_members, member_table};
use crate::passes::merge::{MemberInputs, MergedList, SplatList, COUNTERS_BYTES};
use crate::passes::sort::{SortBinding, SortPlan};
use crate::passes::splat::{SplatBlend, SplatTarget, SplatVariant};
use crate::passes::Binding;
use crate::pipelines::Pipelines;
use crate::types::{sort_len, uniform_bytes, IndirectArgs};
use crate::types::{MergeParams, PARTICLE_SIZE};
use crate::uniform_pages::BufferRange;
use crate::uploads::Uploads;

/// Members whose pools share a chunk of the arena, culled in one dispatch by a variant
/// with what any of them shows.
struct CullBatch {
    variant: CullVariant,
    /// Their entries, by row.
    #[cfg(test)]
    members: Vec<usize>,
    cull: BatchCull,
}

pub(super) struct Merged {
    /// Indices into the renderer's entries, by member.
    members: Vec<usize>,
    /// The merged lists' counters, and the indirect arguments of their draw and splat.
    counters: wgpu::Buffer,
    args: wgpu::Buffer,
    /// The cull into the merged lists of each member culled alone (by entry).
    alone: Vec<(usize, wgpu::BindGroup)>,
    /// The culls of small members a dispatch for many.
    batches: Vec<CullBatch>,
    /// Writes the arguments from the counters.
    args_bind: wgpu::BindGroup,
    /// The splats of the copies the culls sent to the splat lists (the rich one only where
    /// a member's particles sample a texture or are lit): each list's bind group, variant
    /// and which it is.
    splats: Vec<(wgpu::BindGroup, SplatVariant, SplatList)>,
    /// What any of its members' particles show (the draw's sprites, the blend).
    variant: SplatVariant,
    /// The sort of the list (the sorted members').
    sort: Option<(SortPlan, SortBinding)>,
    draw_bind: DrawBinding,
}

/// Whether the entry is drawn from the merged list that is `sorted` or not (an effect's
/// ribbon pieces are drawn from its own ribbon buffers, so one with ribbons never is).
fn mergeable(e: &Entry, sorted: bool) -> bool {
    e.system.desc().sorts() == sorted && !e.system.has_ribbons() && e.system.is_bound()
}

/// Entries of the merged list of `total` particles: the sort's padded length where it is
/// sorted.
fn list_len(total: u32, sorted: bool) -> u64 {
    match sorted {
        true => sort_len(total) as u64,
        false => total as u64,
    }
}

/// The entries merged: every mergeable one, in order, while the members' particles fit one
/// storage binding of `device` (their copies and the list's pairs are one buffer each).
fn members(device: &wgpu::Device, entries: &[Entry], sorted: bool) -> Vec<usize> {
    let binding = device.limits().max_storage_buffer_binding_size;
    let (mut members, mut total) = (vec![], 0u64);
    for (i, e) in entries
        .iter()
        .enumerate()
        .filter(|(_, e)| mergeable(e, sorted))
    {
        let with = total + e.system.capacity() as u64;
        // (the copies' indices stay below the ribbon entries' bit in the draw's list, the
        // members' indices within a copy's instance bits)
        let fits = with < 1 << 31
            && with * PARTICLE_SIZE <= binding
            && list_len(with as u32, sorted) * 8 <= binding
            && members.len() < crate::instances::MAX_INSTANCES as usize
            && members.len() < max_members(device);
        if fits {
            members.push(i);
            total = with;
        }
    }
    members
}

impl Merged {
    /// The merged set of the `entries` that are `sorted` or not, marking its members (the
    /// caller unmarks every entry first); None when fewer than two of them are, without
    /// ribbons.
    pub fn new(
        (device, uploads): (&wgpu::Device, &mut Uploads),
        (p, images): (&Pipelines, &Images),
        entries: &mut [Entry],
        sorted: bool,
    ) -> Option<Self> {
        let members = members(device, entries, sorted);
        if members.len() < 2 {
            return None;
        }
        let total: u32 = members.iter().map(|&i| entries[i].system.capacity()).sum();
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let buffer = |label, size, usage| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        let pairs = buffer("flurry.merged_pairs", list_len(total, sorted) * 8, storage);
        let counters = buffer(
            "flurry.merged_counters",
            COUNTERS_BYTES,
            storage | wgpu::BufferUsages::COPY_DST,
        );
        let args = buffer(
            "flurry.merged_args",
            SplatList::ALL.len() as u64 * std::mem::size_of::<IndirectArgs>() as u64,
            storage | wgpu::BufferUsages::INDIRECT,
        );
        let copies = buffer(
            "flurry.merged_copies",
            total as u64 * PARTICLE_SIZE,
            storage,
        );
        let splat_list = buffer(
            "flurry.merged_splat",
            SplatList::buffer_bytes(total),
            storage,
        );
        // how the members' particles are drawn, a few texels a member
        let params: Vec<_> = members
            .iter()
            .map(|&i| entries[i].system.params())
            .collect();
        let table = member_table(device, uploads, &params);
        let list = MergedList {
            pairs: &pairs,
            splat: &splat_list,
            counters: &counters,
            args: &args,
            copies: &copies,
            room: total,
        };
        // every member's cull parameters in one buffer, each where a uniform binding may
        // start (one buffer for all: creating a buffer a member cost more than the rest of
        // the rebuild)
        let align = device.limits().min_uniform_buffer_offset_alignment as u64;
        let slot_size = MergeParams::min_size().get().next_multiple_of(align) as usize;
        let mut params = vec![0u8; members.len() * slot_size];
        for (member, slot) in params.chunks_mut(slot_size).enumerate() {
            let bytes = uniform_bytes(&MergeParams {
                member: member as u32,
                copies: total,
                ..Default::default()
            });
            slot[..bytes.len()].copy_from_slice(&bytes);
        }
        let params = uploads.buffer_init(
            device,
            "flurry.merge_members",
            &params,
            wgpu::BufferUsages::UNIFORM,
        );
        for &i in &members {
            entries[i].system.set_merged(true);
        }
        // the small members of a chunk are culled a dispatch for all, by a variant with
        // every render mode any of them shows (a member placed as instances is culled
        // alone: its cull reads its instances' bounds). Each dispatch cost lavapipe about
        // 0.08 ms whatever its work (100 mixed effects' culls: 8 dispatches against 4), and
        // a streak's extent costs a round sprite little.
        let key = |i, e: &Entry| {
            let variant = e.system.cull_variant();
            (members.contains(&i) && !variant.instanced).then_some(())
        };
        let mut batched = vec![false; entries.len()];
        let mut batches = vec![];
        for (chunk, (), group) in in_rows(groups(entries, key)) {
            let variant =
                CullVariant::merged(group.iter().map(|&i| entries[i].system.cull_variant()));
            let (places, most) = pool_places(entries, &group);
            let rows: Vec<_> = group
                .iter()
                .zip(places)
                .map(|(&i, place)| {
                    let member = CullMember {
                        first: place.first,
                        counters: place.counters,
                        member: members.iter().position(|&m| m == i).expect("a member") as u32,
                        copies: total,
                    };
                    (member, entries[i].system.params())
                })
                .collect();
            let (rows, row) = (row_table(&rows), row_size() as usize);
            let rows = uniform_table((device, uploads), "flurry.batch_merge_rows", rows, row);
            // (the view and the splat's threshold the cull reads are every member's)
            let frame: &dyn Binding = entries[group[0]].system.uniforms().0;
            p.batch_merge().cull(variant);
            let sizes = (group.len() as u32, most);
            let cull = p
                .batch_merge()
                .bind(device, (&chunk, &list), (frame, &rows), sizes);
            for &i in &group {
                batched[i] = true;
            }
            batches.push(CullBatch {
                variant,
                #[cfg(test)]
                members: group,
                cull,
            });
        }
        let alone = members
            .iter()
            .enumerate()
            .filter(|&(_, &i)| !batched[i])
            .map(|(member, &i)| {
                let range = BufferRange {
                    buffer: params.clone(),
                    offset: (member * slot_size) as u64,
                    size: MergeParams::min_size(),
                };
                let system = &entries[i].system;
                p.merge().cull(system.cull_variant());
                let (frame, effect) = system.uniforms();
                let inputs = MemberInputs {
                    frame,
                    effect,
                    instances: system.instances_buffer(),
                    params: &range,
                };
                (i, p.merge().bind(device, system.pool(), &list, &inputs))
            })
            .collect();
        let sort = sorted.then(|| {
            let plan = SortPlan::bitonic((device, uploads), total);
            let bind = p.sort().bind(device, &plan, &pairs, &counters);
            (plan, bind)
        });
        let args_bind = p.merge().bind_args(device, &list);
        let first = entries[members[0]].system.pool();
        // the first member's constants fill the uniform binding of one effect's, which the
        // merged draw and splat never read
        let (frame, effect) = entries[members[0]].system.uniforms();
        // no member has ribbons: the first one's (unused) ribbon buffers fill their slots
        let sources = DrawSources {
            particles: &copies,
            list: &pairs,
            effect,
            members: Some(&table),
            ribbons: [&first.ribbon_points, &first.ribbon_pieces],
        };
        let variants = members.iter().map(|&i| entries[i].system.splat_variant());
        let variant = SplatVariant::merged(variants);
        let draw_bind = p.merged_draw(DrawSprites::of(variant)).bind_sources(
            device,
            &sources,
            frame,
            (images.view(None), &images.sampler),
        );
        let splats = SplatList::ALL
            .into_iter()
            .filter(|&l| l == SplatList::Plain || variant.is_rich())
            .map(|l| {
                let bind = p
                    .splat()
                    .bind_merged(device, (&list, l), (frame, effect), &table);
                (bind, variant.for_list(l), l)
            })
            .collect();
        Some(Merged {
            members,
            counters,
            args,
            alone,
            batches,
            args_bind,
            splats,
            variant,
            sort,
            draw_bind,
        })
    }

    /// Whether the renderer's entry `i` is a member.
    pub fn has(&self, i: usize) -> bool {
        self.members.contains(&i)
    }

    /// Pairs its sort's passes move for `count` listed pairs (none for the unsorted list).
    pub fn sorted(&self, count: u64) -> u64 {
        self.sort.as_ref().map_or(0, |(plan, _)| {
            let (passes, pairs) = plan.passes_for(count);
            passes * pairs
        })
    }

    /// This frame's culls start from an empty list (cleared in the frame's encoder, before
    /// the cull pass: a queue write costs more CPU than the clear).
    pub fn reset(&self, encoder: &mut wgpu::CommandEncoder) {
        encoder.clear_buffer(&self.counters, 0, None);
    }

    /// Whether the renderer's entry `i` is culled in a batch (for the batch tests).
    #[cfg(test)]
    pub fn culled_in_batch(&self, i: usize) -> bool {
        self.batches.iter().any(|b| b.members.contains(&i))
    }

    /// Cull every member into the merged lists (into the cull pass, after [`Merged::reset`]).
    pub fn record_cull(&self, p: &Pipelines, pass: &mut wgpu::ComputePass, entries: &[Entry]) {
        for batch in &self.batches {
            p.batch_merge().record(pass, batch.variant, &batch.cull);
        }
        for (i, bind) in &self.alone {
            let system = &entries[*i].system;
            p.merge()
                .record_cull(pass, system.cull_variant(), bind, system.pool());
        }
    }

    /// Sort the merged list (the sorted members'), size its draw and splat.
    pub fn record(&self, p: &Pipelines, pass: &mut wgpu::ComputePass) {
        if let Some((plan, bind)) = &self.sort {
            p.sort().record(pass, plan, bind);
        }
        p.merge().record_args(pass, &self.args_bind);
    }

    /// Splat the copies the members' culls sent to the splat lists (into a compute pass
    /// whose other splats, if any, are recorded beside it, before the resolve).
    pub fn record_splat(&self, p: &Pipelines, pass: &mut wgpu::ComputePass, target: &SplatTarget) {
        for (bind, variant, list) in &self.splats {
            p.splat()
                .record(pass, (bind, *variant), target, (&self.args, list.args()));
        }
    }

    /// How its splats blend.
    pub fn splat_blend(&self) -> SplatBlend {
        self.variant.blend
    }

    /// Draw the merged list into a pass whose bind group 1 is set.
    pub fn record_draw(&self, p: &Pipelines, pass: &mut wgpu::RenderPass) {
        let args = DrawArgs::Direct(&self.args, IndirectArgs::DRAW_OFFSET);
        p.merged_draw(DrawSprites::of(self.variant))
            .record(pass, &self.draw_bind, args);
    }
}
