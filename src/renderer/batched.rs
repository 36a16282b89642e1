//! The batched passes: the pools sized per slot that share a chunk of the arena
//! ([`crate::arena`]) emit by one dispatch a chunk (those placed once, without massive
//! bodies), are relisted by one dispatch a chunk after every simulate of the step,
//! and those whose effects compile to the same simulate (and batch: no collision, bodies,
//! passes before it or spawning deaths) are simulated by one dispatch, a workgroup row a
//! pool, instead of one dispatch each (each of which costs about 0.1 ms on lavapipe whatever
//! its particles). Rebuilt with the merged set, when effects come and go or their steps
//! change; a pool counted this frame (more than one step) simulates and relists itself.
//! (The merged lists batch their members' culls the same way, grouped here: `merged.rs`.)

use std::sync::Arc;

use encase::ShaderType;

use super::Entry;
use crate::arena::Chunk;
use crate::passes::batch_emit::{BatchEmit, BatchEmitTables, BatchSpawns};
use crate::passes::batch_relist::{BatchMember, BatchRelist, BATCH_ROWS};
use crate::passes::batch_simulate::{BatchSimulate, BatchTables, StepClock};
use crate::passes::simulate::SimulateVariant;
use crate::pipelines::Pipelines;
use crate::pool::Sizing;
use crate::system::Batched;
use crate::types::{uniform_bytes, EffectParams, EmitUniforms};
use crate::uniform_pages::UniformPages;
use crate::uploads::Uploads;
use std::sync::atomic::{AtomicBool, Ordering};

#[derive(Default)]
pub(super) struct Batches {
    emits: Vec<EmitBatch>,
    relists: Vec<BatchRelist>,
    simulates: Vec<SimulateBatch>,
}

/// The pools of one chunk that emit in one dispatch.
struct EmitBatch {
    /// Their entries, by row.
    members: Vec<usize>,
    /// Their emit uniforms, by row, a row copied when its emitters' fields change
    /// ([`UniformPages::batch_row`]).
    emits: wgpu::Buffer,
    /// No frame has copied its rows of `emits` yet: the next copies every one.
    fresh: AtomicBool,
    /// Their spawns of the frame ([`BatchSpawns`]), by row, copied every frame in one
    /// piece (a uniform table of [`BATCH_ROWS`] rows).
    spawns: wgpu::Buffer,
    /// The most spawns one of them asks for this frame.
    most_request: u32,
    bind: BatchEmit,
}

/// The pools of one chunk simulated in one dispatch.
struct SimulateBatch {
    variant: SimulateVariant,
    /// Their entries, by row.
    members: Vec<usize>,
    /// Their clocks, by row, written every frame.
    clocks: wgpu::Buffer,
    bind: BatchSimulate,
}

/// The entries of `entries` in the arena sized per slot, grouped by chunk (and by `key` of
/// their index and entry within a chunk, None leaving one out), in order; only groups of
/// two or more (one pool alone is as cheap).
pub(super) fn groups<K: PartialEq>(
    entries: &[Entry],
    key: impl Fn(usize, &Entry) -> Option<K>,
) -> Vec<(Arc<Chunk>, K, Vec<usize>)> {
    let mut groups: Vec<(Arc<Chunk>, K, Vec<usize>)> = vec![];
    for (i, e) in entries.iter().enumerate() {
        let pool = e.system.pool();
        let Some(lease) = pool
            .lease
            .as_ref()
            .filter(|_| pool.sizing == Sizing::PerSlot)
        else {
            continue;
        };
        let Some(k) = key(i, e) else {
            continue;
        };
        let chunk = lease.chunk();
        match groups
            .iter_mut()
            .find(|(c, gk, _)| Arc::ptr_eq(c, chunk) && *gk == k)
        {
            Some((_, _, members)) => members.push(i),
            None => groups.push((chunk.clone(), k, vec![i])),
        }
    }
    groups.retain(|(_, _, members)| members.len() >= 2);
    groups
}

/// `groups` with each group's members in runs of at most [`BATCH_ROWS`], a batch each: a
/// batched simulate's and cull's tables are uniforms of that many rows.
pub(super) fn in_rows<K: Clone>(
    groups: Vec<(Arc<Chunk>, K, Vec<usize>)>,
) -> Vec<(Arc<Chunk>, K, Vec<usize>)> {
    let mut batches = vec![];
    for (chunk, key, members) in groups {
        for run in members.chunks(BATCH_ROWS) {
            batches.push((chunk.clone(), key.clone(), run.to_vec()));
        }
    }
    batches
}

/// Where the pools of `members` are in their chunk, by row, and their largest capacity.
pub(super) fn pool_places(entries: &[Entry], members: &[usize]) -> (Vec<BatchMember>, u32) {
    let mut most = 0;
    let table = members
        .iter()
        .map(|&i| {
            let pool = entries[i].system.pool();
            let lease = pool.lease.as_ref().expect("a member is in the arena");
            most = most.max(pool.capacity);
            BatchMember {
                first: lease.first_entry(),
                counters: lease.pool(),
                ..Default::default()
            }
        })
        .collect();
    (table, most)
}

/// A storage table of `contents`, written as the next frame is recorded
/// ([`Uploads::buffer_init`]).
pub(super) fn table_buffer(
    (device, uploads): (&wgpu::Device, &mut Uploads),
    label: &str,
    contents: &[u8],
) -> wgpu::Buffer {
    uploads.buffer_init(device, label, contents, wgpu::BufferUsages::STORAGE)
}

/// A batch's uniform table: `rows` (at most [`BATCH_ROWS`] of `row` bytes each), then
/// zeros up to [`BATCH_ROWS`] rows (the WGSL array's length).
pub(super) fn uniform_table(
    (device, uploads): (&wgpu::Device, &mut Uploads),
    label: &str,
    mut rows: Vec<u8>,
    row: usize,
) -> wgpu::Buffer {
    assert!(
        rows.len() <= BATCH_ROWS * row,
        "more rows than a batch holds"
    );
    rows.resize(BATCH_ROWS * row, 0);
    uploads.buffer_init(device, label, &rows, wgpu::BufferUsages::UNIFORM)
}

/// The constants of the effects of `members`, a row each, as their uniforms hold them (an
/// EffectParams' size is a multiple of its alignment: its array stride).
fn effects_rows(entries: &[Entry], members: &[usize]) -> Vec<u8> {
    members
        .iter()
        .flat_map(|&i| uniform_bytes::<EffectParams>(entries[i].system.params()))
        .collect()
}

impl Batches {
    /// The batches of `entries`, marking their members; `surface`: the renderer's mesh
    /// triangles (the batches are made again when a mesh is added).
    pub fn new(
        (device, uploads): (&wgpu::Device, &mut Uploads),
        p: &Pipelines,
        entries: &mut [Entry],
        surface: &wgpu::Buffer,
    ) -> Self {
        for e in entries.iter_mut() {
            e.system.set_batched(Batched::default());
        }
        let mut marks = vec![Batched::default(); entries.len()];
        let mut emits = vec![];
        let emitting = groups(entries, |_, e| e.system.emit_batches().then_some(()));
        for (chunk, (), members) in in_rows(emitting) {
            let (table, _) = pool_places(entries, &members);
            let table = table_buffer(
                (device, uploads),
                "flurry.batch_members",
                bytemuck::cast_slice(&table),
            );
            let effects = effects_rows(entries, &members);
            let effects = table_buffer((device, uploads), "flurry.batch_effects", &effects);
            // (its rows written whole by the first frame recorded: `fresh`)
            let uniforms = device.create_buffer(&wgpu::BufferDescriptor {
                label: Some("flurry.batch_emits"),
                size: EmitUniforms::min_size().get() * members.len() as u64,
                usage: wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_DST,
                mapped_at_creation: false,
            });
            let spawns = uniform_table(
                (device, uploads),
                "flurry.batch_spawns",
                vec![],
                size_of::<BatchSpawns>(),
            );
            let tables = BatchEmitTables {
                members: &table,
                effects: &effects,
                emits: &uniforms,
                spawns: &spawns,
            };
            let sizes = (surface, members.len() as u32);
            let bind = p.batch_emit().bind(device, &chunk, &tables, sizes);
            for &i in &members {
                marks[i].emit = true;
            }
            emits.push(EmitBatch {
                members,
                emits: uniforms,
                fresh: AtomicBool::new(true),
                spawns,
                most_request: 0,
                bind,
            });
        }
        let mut relists = vec![];
        for (chunk, (), members) in
            groups(entries, |_, e| e.system.relists_in_batch().then_some(()))
        {
            let (table, most) = pool_places(entries, &members);
            let table = table_buffer(
                (device, uploads),
                "flurry.batch_members",
                bytemuck::cast_slice(&table),
            );
            relists.push(p.batch_relist().bind(device, &chunk, &table, most));
            for i in members {
                marks[i].relist = true;
            }
        }
        let mut simulates = vec![];
        let variants = groups(entries, |_, e| e.system.batch_variant());
        for (chunk, variant, members) in in_rows(variants) {
            let (table, most) = pool_places(entries, &members);
            let table = bytemuck::cast_slice(&table).to_vec();
            let row = size_of::<BatchMember>();
            let table = uniform_table((device, uploads), "flurry.batch_members", table, row);
            let effects = effects_rows(entries, &members);
            let row = EffectParams::min_size().get() as usize;
            let effects = uniform_table((device, uploads), "flurry.batch_effects", effects, row);
            let clocks = vec![0; members.len() * size_of::<StepClock>()];
            let clocks = uniform_table(
                (device, uploads),
                "flurry.batch_clocks",
                clocks,
                size_of::<StepClock>(),
            );
            let tables = BatchTables {
                members: &table,
                effects: &effects,
                clocks: &clocks,
            };
            let sizes = (members.len() as u32, most);
            let bind = p
                .batch_simulate(variant)
                .bind(device, &chunk, &tables, sizes);
            for &i in &members {
                marks[i].simulate = true;
            }
            simulates.push(SimulateBatch {
                variant,
                members,
                clocks,
                bind,
            });
        }
        for (e, mark) in entries.iter_mut().zip(marks) {
            e.system.set_batched(mark);
        }
        Batches {
            emits,
            relists,
            simulates,
        }
    }

    /// The most spawns a member of each emit batch asks for this frame (after the members'
    /// updates).
    pub fn plan_frame(&mut self, entries: &[Entry]) {
        for batch in &mut self.emits {
            let requests = batch
                .members
                .iter()
                .map(|&i| entries[i].system.emit_request());
            batch.most_request = requests.max().unwrap_or(0);
        }
    }

    /// Upload this frame's emit uniforms and clocks of the batches' members (as their
    /// updates staged them in `pages`) with the frame's `uploads`.
    pub fn write_frame(
        &self,
        uploads: &mut crate::uploads::Uploads,
        entries: &[Entry],
        pages: &UniformPages,
    ) {
        for batch in &self.emits {
            // a row a member whose emitters changed (every row of a new batch), as far as
            // the emitters it uses: the rest of a row is never read
            let row = EmitUniforms::min_size().get() as usize;
            let fresh = batch.fresh.swap(false, Ordering::Relaxed);
            let mut kept: Option<(usize, usize)> = None;
            for (k, &i) in batch.members.iter().enumerate() {
                let Some((staged, keep)) = entries[i].system.batch_row(pages, fresh) else {
                    continue;
                };
                if keep {
                    kept = Some((kept.map_or(k, |(first, _)| first), k));
                }
                // (a new row through the queue alone, its buffer read by no earlier frame)
                if !fresh {
                    uploads.write_bytes(&batch.emits, (row * k) as u64, staged);
                }
            }
            // what is kept (every row of a new batch), through the queue too, landing even
            // if this frame is dropped: one write from the first row kept to the last, each
            // row as staged (the newest: a frame that copies one copies the same)
            if let Some((first, last)) = kept {
                let rows = batch.members[first..=last].iter().flat_map(|&i| {
                    let staged = entries[i].system.staged_emit(pages);
                    bytemuck::bytes_of(staged)[..row].iter().copied()
                });
                uploads.init_bytes(&batch.emits, (row * first) as u64, rows.collect());
            }
            // every member's spawns, one copy
            let row = size_of::<BatchSpawns>();
            let view = uploads.write(&batch.spawns, 0, (row * batch.members.len()) as u64);
            for (k, &i) in batch.members.iter().enumerate() {
                let spawns = BatchSpawns::of(entries[i].system.staged_emit(pages));
                view[k * row..][..row].copy_from_slice(bytemuck::bytes_of(&spawns));
            }
        }
        for batch in &self.simulates {
            let row = std::mem::size_of::<StepClock>();
            let size = (row * batch.members.len()) as u64;
            let view = uploads.write(&batch.clocks, 0, size);
            for (k, &i) in batch.members.iter().enumerate() {
                let clock = entries[i].system.step_clock();
                view[k * row..(k + 1) * row].copy_from_slice(bytemuck::bytes_of(&clock));
            }
        }
    }

    /// The spawns of every pool batched so (into the emit step's pass).
    pub fn record_emit(&self, p: &Pipelines, pass: &mut wgpu::ComputePass) {
        for batch in &self.emits {
            p.batch_emit().record(pass, &batch.bind, batch.most_request);
        }
    }

    /// Simulate every pool batched so, then relist every batched pool (into the simulate
    /// step's pass, after the other pools' simulates).
    pub fn record(&self, p: &Pipelines, pass: &mut wgpu::ComputePass) {
        for batch in &self.simulates {
            p.batch_simulate(batch.variant).record(pass, &batch.bind);
        }
        for relist in &self.relists {
            p.batch_relist().record(pass, relist);
        }
    }
}
