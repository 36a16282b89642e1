//! The particle pool: particle storage, the dead list, two alive lists (the current one, 0,
//! and the survivors simulate writes, 1, copied back into 0 on the GPU), the atomic counters
//! and the indirect arguments.
//!
//! The dead list starts with every index (top of the stack = index 0). All counting happens
//! on the GPU; the CPU reads the pool only when asked ([`ParticlePool::snapshot`]), never in
//! the frame loop.

use crate::uploads::Uploads;

use crate::arena::{Lease, PoolArena};
use crate::error::{Error, Invalid, Result};
use crate::readback::read_buffer;
use crate::types::{sort_len, Body, Counters, HitEvent, IndirectArgs, Particle, PARTICLE_SIZE};
use crate::uniform_pages::BufferRange;

/// GPU buffers of one pool.
pub(crate) struct ParticlePool {
    pub capacity: u32,
    /// How its passes over the alive list are sized this frame.
    pub sizing: Sizing,
    /// Its own buffers, or its ranges of the renderer's arena (a small pool's: see
    /// [`ParticlePool::new`]), as the lists and the counters are.
    pub particles: BufferRange,
    /// Its free slots (a stack), and its two alive lists: ranges of one buffer, each list
    /// [`LISTS_GRAIN`]-aligned and as far after the one before (alive 0, alive 1, dead), so
    /// that simulate binds the three as one ([`ParticlePool::lists`]).
    pub dead: BufferRange,
    pub alive: [BufferRange; 2],
    /// Visible (sort key, index) pairs written by cull, sorted in place; padded to
    /// [`sort_len`] pairs for the bitonic sort.
    pub visible: wgpu::Buffer,
    /// Indices of the particles cull sends to the compute splat this frame.
    pub splat: wgpu::Buffer,
    pub counters: BufferRange,
    /// Its ranges of the arena, held while it lives (None: buffers of its own).
    pub lease: Option<Lease>,
    pub args: wgpu::Buffer,
    /// Accelerations per slot (vec4) a pass writes for simulate: all-pairs gravity, a
    /// flock's steering (one slot when the effect has neither).
    pub accel: wgpu::Buffer,
    /// This frame's depth-collision hits ([`HitEvent`], up to [`hit_event_capacity`]).
    pub hit_events: wgpu::Buffer,
    /// Ribbon points as (ribbon key, index), written by cull and sorted in place into
    /// ribbons; padded to [`sort_len`] pairs (one pair for an effect without ribbons).
    pub ribbon_list: wgpu::Buffer,
    /// The mesh draw's indirect arguments, the ribbons' counts and the indexed draw of an
    /// effect with ribbons, laid out as [`Counters`] (`DrawCounters` in common.wgsl names
    /// the words): words 0..5 are the mesh draw's indexed arguments (its mesh's index count,
    /// the mesh particles listed, its first index, its base vertex, 0), word 5 counts the
    /// ribbon list (`visible`, so the sort takes it as its count), word 6 the ribbon pieces
    /// listed, and words 8..13 from [`RIBBON_DRAW_OFFSET`] are the effect's indexed draw.
    pub draw_counters: wgpu::Buffer,
    /// The ribbons' pieces, (ribbon list entry, pieces << 5 | piece), which the
    /// visible list names; room for every span in its most pieces.
    pub ribbon_pieces: wgpu::Buffer,
    /// The mesh particles on screen this frame (indices; one entry for an effect without
    /// mesh particles).
    pub mesh_list: wgpu::Buffer,
    /// Each sorted ribbon list entry's point as the draw reads it (`RibbonPoint` in
    /// common.wgsl, [`RIBBON_POINT_SIZE`] bytes, written by the piece listing), and one past
    /// the last; one entry for an effect without ribbons.
    pub ribbon_points: wgpu::Buffer,
}

/// Entries a pool's lists are aligned to in their buffer (256 bytes: the offset alignment
/// wgpu guarantees for storage bindings).
pub(crate) const LISTS_GRAIN: u32 = 64;

/// Where in [`ParticlePool::draw_counters`] the ribbon pieces' count is.
pub(crate) const RIBBON_PIECES_OFFSET: u64 = 24;

/// Where in [`ParticlePool::draw_counters`] the count of the dots its cull listed apart is
/// (`DrawCounters.dots`).
pub(crate) const DOTS_OFFSET: u64 = 28;

/// Where in [`ParticlePool::draw_counters`] the indexed draw of an effect with ribbons
/// starts (6 indices, the visible list's length, 0, 0, 0).
pub(crate) const RIBBON_DRAW_OFFSET: u64 = 32;

/// Bytes of a `RibbonPoint` (common.wgsl; checked by the layout test).
pub(crate) const RIBBON_POINT_SIZE: u64 = 48;

/// A visible-list entry that is a ribbon piece, not a particle (`RIBBON_ENTRY` in
/// common.wgsl).
pub(crate) const RIBBON_ENTRY: u32 = 0x8000_0000;

/// How the passes over a pool's alive list (simulate and those before it, relist, cull)
/// are sized.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Sizing {
    /// From the indirect arguments args.wgsl writes from the counts after emit and after
    /// simulate (its cull's after every spawn): any pool, any frame.
    Counted,
    /// One thread per slot, dispatched as such from the CPU, each thread past the alive
    /// count idle: no argument pass after emit or after simulate (emit's first thread
    /// starts the frame's event count, relist's takes the survivors' count, the cull's
    /// clears the scratch count). Two dispatches fewer an effect a frame, which is what
    /// many small effects pay for (on lavapipe 100 effects of 1,024 particles took 0.6–0.85
    /// of the frame they took counted: docs/measurements.md). For pools of at most
    /// [`PER_SLOT_MOST`] whose frame is one step with no spawns after it (the trails' and
    /// the hit spawns' counts come from the argument passes).
    PerSlot,
}

/// The largest pool sized [`Sizing::PerSlot`]: 64 workgroups a pass at most. Past it the
/// idle workgroups cost more than the argument passes save (on lavapipe, 100 effects filling
/// their pools: per slot won at 4,096, was as often slower at 8,192 and 1.3 times slower at
/// 16,384).
pub(crate) const PER_SLOT_MOST: u32 = 4096;

impl Sizing {
    /// The sizing of a pool of `capacity` simulated in `substeps` steps a frame;
    /// `spawns_after_simulate`: it lays trails or spawns at hits.
    pub fn of(capacity: u32, substeps: u32, spawns_after_simulate: bool) -> Sizing {
        if capacity <= PER_SLOT_MOST && substeps == 1 && !spawns_after_simulate {
            Sizing::PerSlot
        } else {
            Sizing::Counted
        }
    }
}

/// What a pool holds beyond its particles and lists, by what its effect does.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct PoolNeeds {
    /// All-pairs gravity or a flock: an acceleration per particle.
    pub accel: bool,
    /// The most pieces a ribbon span is drawn in (0: no ribbons).
    pub ribbon_pieces: u32,
    /// The mesh its mesh particles are (None: none).
    pub mesh: Option<crate::mesh::MeshDraw>,
}

/// Hit events a pool of `capacity` keeps per frame (more are counted, not stored).
pub(crate) fn hit_event_capacity(capacity: u32) -> u32 {
    capacity.clamp(1, 4096)
}

/// One effect's pool read back to the CPU ([`crate::ParticleRenderer::snapshot`]): for
/// tests, statistics and dumps, never for the frame loop.
#[derive(Clone, Debug)]
pub struct PoolSnapshot {
    /// Totals since the effect was added.
    pub stats: Stats,
    /// The GPU's counters as they are.
    pub counters: Counters,
    /// Every slot, alive or not.
    pub particles: Vec<Particle>,
    /// Indices of the living particles (`counters.alive` entries).
    pub alive: Vec<u32>,
    /// Indices of the free slots (`counters.dead` entries).
    pub dead: Vec<u32>,
    /// The (sort key, index) pairs of the particles drawn as triangles last frame, in draw
    /// order (the list also held the ribbon pieces, left out here). The key
    /// orders the particle's distance along the view axis: ascending keys run far to near.
    /// Empty for an alpha-blended effect sorted together with others: its particles were
    /// listed in the renderer's one list of them all (its [`Stats`] still count them).
    pub visible: Vec<[u32; 2]>,
    /// Indices of the particles splatted by compute last frame (`counters.splatted`; empty
    /// for an effect sorted with others, as `visible` is).
    pub splat: Vec<u32>,
    /// The last frame's depth-collision hits (as many as were stored).
    pub hit_events: Vec<HitEvent>,
    /// The effect's massive bodies as they are now.
    pub bodies: Vec<Body>,
    /// A crowd's walkers, one per slot (none for other effects).
    pub walkers: Vec<crate::Walker>,
    /// The effect's own attributes (declared in its file), by name, each one's value in
    /// every slot (a free slot holds what its last particle left); none for an effect that
    /// declares none. [`PoolSnapshot::attribute`] finds one by name.
    pub attributes: Vec<(String, Vec<crate::expr::Value>)>,
    /// The indirect arguments the GPU wrote last (for the pool tests).
    #[cfg(test)]
    pub(crate) args: IndirectArgs,
}

impl PoolSnapshot {
    /// The effect's own attribute `name` in every slot, if it declares one so named.
    pub fn attribute(&self, name: &str) -> Option<&[crate::expr::Value]> {
        let found = self.attributes.iter().find(|(n, _)| n == name);
        found.map(|(_, values)| &values[..])
    }

    /// The pool's invariants, as they hold after every submitted frame: every slot in the
    /// alive or the dead list exactly once, alive + dead = capacity, requested = emitted +
    /// dropped, killed = emitted − alive, every particle drawn or splatted alive, and every
    /// living particle's position and velocity finite. The first that fails, described (for
    /// tests, soak runs and tools).
    pub fn check(&self) -> std::result::Result<(), String> {
        let s = &self.stats;
        let capacity = s.capacity as usize;
        if s.alive as usize + s.dead as usize != capacity {
            let (a, d) = (s.alive, s.dead);
            return Err(format!("alive {a} + dead {d} != capacity {capacity}"));
        }
        let mut seen = vec![0u8; capacity];
        for (list, indices) in [("alive", &self.alive), ("dead", &self.dead)] {
            for &i in indices {
                let Some(slot) = seen.get_mut(i as usize) else {
                    return Err(format!(
                        "{list} list holds {i}, past the capacity {capacity}"
                    ));
                };
                *slot += 1;
                if *slot > 1 {
                    return Err(format!("slot {i} is listed twice (the second in {list})"));
                }
            }
        }
        if let Some(i) = seen.iter().position(|&n| n == 0) {
            return Err(format!(
                "slot {i} is in neither the alive nor the dead list"
            ));
        }
        // simulate over every slot finds the living by their lifetime
        for (list, indices, live) in [("alive", &self.alive, true), ("dead", &self.dead, false)] {
            for &i in indices {
                let marked = self.particles[i as usize].is_live();
                if marked != live {
                    let not = if marked { "" } else { "not " };
                    return Err(format!("slot {i} of the {list} list is {not}marked live"));
                }
            }
        }
        // a step that blew up (an unstable force) leaves NaN or infinities, which every
        // count above would still accept as a particle
        for &i in &self.alive {
            let p = &self.particles[i as usize];
            for (what, v) in [("position", p.pos), ("velocity", p.vel)] {
                if !v.is_finite() {
                    let [x, y, z] = v.to_array();
                    return Err(format!(
                        "slot {i} (alive, id {}) has a non-finite {what} ({x}, {y}, {z})",
                        p.id
                    ));
                }
            }
        }
        if s.requested_total != s.emitted_total + s.dropped_total {
            let (r, e, d) = (s.requested_total, s.emitted_total, s.dropped_total);
            return Err(format!("requested {r} != emitted {e} + dropped {d}"));
        }
        if s.killed_total != s.emitted_total - s.alive as u64 {
            let (k, e, a) = (s.killed_total, s.emitted_total, s.alive);
            return Err(format!("killed {k} != emitted {e} - alive {a}"));
        }
        let alive: std::collections::HashSet<u32> = self.alive.iter().copied().collect();
        let shown = self
            .visible
            .iter()
            .map(|p| p[1])
            .chain(self.splat.iter().copied());
        for i in shown {
            if !alive.contains(&i) {
                return Err(format!("slot {i} is drawn but not alive"));
            }
        }
        Ok(())
    }
}

/// Totals of one effect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stats {
    /// Slots in the pool.
    pub capacity: u32,
    /// Particles alive.
    pub alive: u32,
    /// Free slots.
    pub dead: u32,
    /// In the view frustum last frame (drawn or splatted).
    pub visible: u32,
    /// Of those, splatted by compute (the rest are drawn as triangles).
    pub splatted: u32,
    /// Particles emitted since the effect was added.
    pub emitted_total: u64,
    /// Spawns that found no free slot.
    pub dropped_total: u64,
    /// Particles that died.
    pub killed_total: u64,
    /// Spawns asked for: by the schedule and by GPU events; always `emitted + dropped`.
    pub requested_total: u64,
    /// Of the dropped, those the renderer's particle budget held back
    /// ([`crate::ParticleRenderer::set_budget`]).
    pub held_back_total: u64,
    /// Of the killed, those a step left holding a number that is not finite (inf or NaN:
    /// a stack that divides by a zero it meets at run time, or takes the root of a
    /// negative): such a particle can be neither drawn, sorted nor aged out, so it dies.
    /// Not zero means an effect computes garbage somewhere.
    pub non_finite_total: u64,
}

/// The largest pool `limits` allow, with the limit that binds (its name and bytes).
pub(crate) fn max_capacity(limits: &wgpu::Limits) -> (u64, &'static str, u64) {
    let storage = limits.max_storage_buffer_binding_size;
    let buffer = limits.max_buffer_size;
    let (limit_name, limit) = if storage <= buffer {
        ("max_storage_buffer_binding_size", storage)
    } else {
        ("max_buffer_size", buffer)
    };
    // the per-particle dispatches go two-dimensional past the per-dimension limit
    // (`dispatch_size`): only the bytes bind
    let by_bytes = limit / PARTICLE_SIZE;
    (by_bytes.min(u32::MAX as u64), limit_name, limit)
}

/// `requested` as a capacity `device` allows, else an error naming `field`, the value and
/// the range allowed.
pub(crate) fn check_capacity(device: &wgpu::Device, field: &str, requested: u64) -> Result<u32> {
    let (max, limit_name, limit) = max_capacity(&device.limits());
    if requested == 0 {
        return Err(Invalid::new(field, 0, format!("1..={max} on this device")).into());
    }
    if requested > max {
        return Err(Error::CapacityTooLarge {
            field: field.to_string(),
            requested,
            max,
            // (as wide as a u64 count of particles of PARTICLE_SIZE bytes can make it)
            bytes: requested as u128 * PARTICLE_SIZE as u128,
            limit,
            limit_name,
        });
    }
    Ok(requested as u32)
}

/// Bytes of the ribbon piece list of a pool of `capacity` whose spans are drawn in up to
/// `pieces` pieces (0 without ribbons).
fn ribbon_pieces_size(capacity: u32, pieces: u32) -> u64 {
    capacity as u64 * pieces as u64 * 8
}

/// Entries the visible list of a pool of `capacity` may hold: a particle each, and each
/// ribbon piece where its spans are drawn in up to `pieces` pieces.
pub(crate) fn visible_entries(capacity: u32, pieces: u32) -> u64 {
    capacity as u64 * (1 + pieces as u64)
}

/// Refuse a `capacity` whose visible list, with room for every ribbon piece (spans of up
/// to `pieces` pieces) and rounded up to a power of two for the sort, would not fit one
/// storage binding (the piece list is smaller).
pub(crate) fn check_ribbon_capacity(
    device: &wgpu::Device,
    capacity: u32,
    pieces: u32,
) -> Result<()> {
    let limit = device.limits().max_storage_buffer_binding_size;
    let most_pairs = (1u64 << (limit / 8).max(1).ilog2()).min(1 << 31);
    let per_point = visible_entries(1, pieces);
    let most = most_pairs / per_point;
    if capacity as u64 <= most {
        return Ok(());
    }
    let allowed = format!(
        "1..={most} for ribbons of up to {pieces} pieces a span (the visible list holds a \
         particle and its pieces, {per_point} entries a point, rounded up to a power of two \
         for the sort; a storage binding holds {limit} bytes)"
    );
    Err(Invalid::new("capacity", capacity, allowed).into())
}

impl ParticlePool {
    /// Allocate a pool of `capacity` particles (checked with [`check_capacity`] first, and
    /// [`check_ribbon_capacity`] where it has ribbons) with what `needs` asks for, its
    /// passes sized as `sizing` says. A pool sized per slot without ribbons or mesh
    /// particles keeps its particles, lists and counters in `arena` where there is one (so
    /// that passes over many such pools can run as one dispatch, [`crate::arena`]); its
    /// ranges are then written afresh. What it starts with goes in `uploads`, written
    /// through the queue as the next frame is recorded ([`Uploads::buffer_init`]).
    pub fn new(
        (device, uploads): (&wgpu::Device, &mut Uploads),
        capacity: u32,
        needs: PoolNeeds,
        sizing: Sizing,
        arena: Option<&PoolArena>,
    ) -> Self {
        let PoolNeeds {
            accel: per_particle_accel,
            ribbon_pieces,
            mesh,
        } = needs;
        let n = capacity as u64;
        let storage = wgpu::BufferUsages::STORAGE | wgpu::BufferUsages::COPY_SRC;
        let buffer = |label: &str, size: u64, usage: wgpu::BufferUsages| {
            device.create_buffer(&wgpu::BufferDescriptor {
                label: Some(label),
                size,
                usage,
                mapped_at_creation: false,
            })
        };
        // every slot free (the top of the stack first), no particle live
        let dead_init: Vec<u32> = (0..capacity).rev().collect();
        let initial = Counters {
            dead: capacity as i32,
            ..Default::default()
        };
        let batchable = sizing == Sizing::PerSlot && ribbon_pieces == 0 && mesh.is_none();
        let lease = arena
            .filter(|_| batchable)
            .map(|a| a.lease(device, capacity));
        let [particles, dead, alive_a, alive_b, counters] = match &lease {
            Some(lease) => {
                let ranges = [
                    lease.particles(),
                    lease.dead(),
                    lease.alive(0),
                    lease.alive(1),
                    lease.counters(),
                ];
                // a range another pool had: its particles' flags must not read as live
                let [particles, dead, .., counters] = &ranges;
                uploads.init_zeros(&particles.buffer, particles.offset, particles.size.get());
                let mut write = |r: &BufferRange, bytes: &[u8]| {
                    uploads.init_bytes(&r.buffer, r.offset, bytes.to_vec());
                };
                write(dead, bytemuck::cast_slice(&dead_init));
                write(counters, bytemuck::bytes_of(&initial));
                ranges
            }
            None => {
                let mut init =
                    |label, contents: &[u8]| uploads.buffer_init(device, label, contents, storage);
                let whole = |buffer: wgpu::Buffer| BufferRange {
                    size: std::num::NonZeroU64::new(buffer.size()).expect("not empty"),
                    buffer,
                    offset: 0,
                };
                // alive 0, alive 1, then the dead list (every slot), `apart` entries apart
                let apart = capacity.next_multiple_of(LISTS_GRAIN) as usize;
                let mut entries = vec![0u32; 2 * apart];
                entries.extend_from_slice(&dead_init);
                let lists = init("flurry.lists", bytemuck::cast_slice(&entries));
                let list = |k: usize| BufferRange {
                    buffer: lists.clone(),
                    offset: (k * apart * 4) as u64,
                    size: std::num::NonZeroU64::new(n * 4).expect("not empty"),
                };
                [
                    whole(buffer("flurry.particles", n * PARTICLE_SIZE, storage)),
                    list(2),
                    list(0),
                    list(1),
                    whole(init("flurry.counters", bytemuck::bytes_of(&initial))),
                ]
            }
        };
        let alive = [alive_a, alive_b];
        let entries = visible_entries(capacity, ribbon_pieces) as u32;
        let visible = buffer("flurry.visible", sort_len(entries) as u64 * 8, storage);
        let splat = buffer("flurry.splat", n * 4, storage);
        let args = uploads.buffer_init(
            device,
            "flurry.indirect_args",
            bytemuck::bytes_of(&IndirectArgs::default()),
            storage | wgpu::BufferUsages::INDIRECT,
        );
        let hit_events = buffer(
            "flurry.hit_events",
            hit_event_capacity(capacity) as u64 * std::mem::size_of::<HitEvent>() as u64,
            storage,
        );
        let ribbon_pairs = if ribbon_pieces > 0 {
            sort_len(capacity)
        } else {
            1
        };
        let ribbon_list = buffer("flurry.ribbon_list", ribbon_pairs as u64 * 8, storage);
        let point_entries = if ribbon_pieces > 0 { n + 1 } else { 1 };
        let ribbon_points = buffer(
            "flurry.ribbon_points",
            point_entries * RIBBON_POINT_SIZE,
            storage,
        );
        // the draws' constant arguments; the passes only count in words 1, 5 and 9
        let mesh_draw = mesh.unwrap_or(crate::mesh::MeshDraw {
            first_index: 0,
            index_count: 0,
            base_vertex: 0,
        });
        let draw_counters = uploads.buffer_init(
            device,
            "flurry.draw_counters",
            bytemuck::bytes_of(&Counters {
                dead: mesh_draw.index_count as i32,
                next_alive: mesh_draw.first_index,
                emitted: mesh_draw.base_vertex as u32,
                // the indexed draw's index count, at RIBBON_DRAW_OFFSET
                hit_spawned: 6,
                ..Default::default()
            }),
            storage | wgpu::BufferUsages::INDIRECT,
        );
        let mesh_entries = if mesh.is_some() { n } else { 1 };
        let mesh_list = buffer("flurry.mesh_list", mesh_entries * 4, storage);
        let pieces_size = ribbon_pieces_size(capacity, ribbon_pieces).max(8);
        let ribbon_pieces = buffer("flurry.ribbon_pieces", pieces_size, storage);
        let accel_slots = if per_particle_accel { n } else { 1 };
        let accel = buffer("flurry.accel", accel_slots * 16, storage);
        ParticlePool {
            accel,
            hit_events,
            capacity,
            sizing,
            particles,
            dead,
            alive,
            visible,
            splat,
            counters,
            lease,
            args,
            ribbon_list,
            draw_counters,
            ribbon_pieces,
            mesh_list,
            ribbon_points,
        }
    }

    /// Its three lists as one binding (simulate's): from the start of its current alive list
    /// to the end of its dead list, the next alive list as far after the current one as the
    /// dead list is after that (simulate.wgsl `lists_apart`).
    pub fn lists(&self) -> BufferRange {
        let [current, next] = &self.alive;
        let apart = next.offset - current.offset;
        debug_assert!(next.buffer == current.buffer && self.dead.buffer == current.buffer);
        debug_assert_eq!(self.dead.offset - next.offset, apart);
        let end = self.dead.offset + self.dead.size.get();
        BufferRange {
            buffer: current.buffer.clone(),
            offset: current.offset,
            size: std::num::NonZeroU64::new(end - current.offset).expect("not empty"),
        }
    }

    /// Every particle gone, from the next recorded frame on (written as it is recorded):
    /// each slot free again and none alive (no particle's flags read as live). The
    /// counters' totals (emitted, dropped, hits, requested) are kept: the cleared particles
    /// count as killed.
    pub fn clear(&self, uploads: &mut Uploads) {
        let particles = &self.particles;
        uploads.init_zeros(&particles.buffer, particles.offset, particles.size.get());
        let dead: Vec<u32> = (0..self.capacity).rev().collect();
        let dead = bytemuck::cast_slice(&dead).to_vec();
        uploads.init_bytes(&self.dead.buffer, self.dead.offset, dead);
        // dead, alive and next_alive: the first three words of the counters
        let counts = bytemuck::cast_slice(&[self.capacity, 0, 0]).to_vec();
        let counters = &self.counters;
        uploads.init_bytes(&counters.buffer, counters.offset, counts);
    }

    /// The counters and the draw counters (laid out as [`Counters`]) as the GPU left them.
    /// Blocks.
    pub fn read_counts(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
    ) -> Result<(Counters, Counters)> {
        let size = std::mem::size_of::<Counters>() as u64;
        let read = |buffer, offset| -> Result<Counters> {
            let bytes = read_buffer(device, queue, buffer, offset, size)?;
            Ok(bytemuck::pod_read_unaligned(&bytes))
        };
        let counters = read(&self.counters.buffer, self.counters.offset)?;
        Ok((counters, read(&self.draw_counters, 0)?))
    }

    /// The indirect arguments as the GPU left them. Blocks.
    pub fn read_args(&self, device: &wgpu::Device, queue: &wgpu::Queue) -> Result<IndirectArgs> {
        let size = std::mem::size_of::<IndirectArgs>() as u64;
        let bytes = read_buffer(device, queue, &self.args, 0, size)?;
        Ok(bytemuck::pod_read_unaligned(&bytes))
    }

    /// Read the pool back, the visible and splat lists only where `lists` (an effect sorted
    /// with others lists its particles in the merged list, not its own); `bodies` is the
    /// buffer of the effect's `body_count` massive bodies; `stats` from the counters. Blocks.
    pub fn snapshot(
        &self,
        device: &wgpu::Device,
        queue: &wgpu::Queue,
        lists: bool,
        (bodies, body_count): (&wgpu::Buffer, u64),
        stats: impl FnOnce(&Counters) -> Stats,
    ) -> Result<PoolSnapshot> {
        let counters: Counters = bytemuck::pod_read_unaligned(&read_buffer(
            device,
            queue,
            &self.counters.buffer,
            self.counters.offset,
            std::mem::size_of::<Counters>() as u64,
        )?);
        #[cfg(test)]
        let args = self.read_args(device, queue)?;
        let n = self.capacity as u64;
        let range = |r: &BufferRange, bytes| read_buffer(device, queue, &r.buffer, r.offset, bytes);
        let particles = range(&self.particles, n * PARTICLE_SIZE)?;
        let alive_n = (counters.alive as u64).min(n);
        let dead_n = (counters.dead.max(0) as u64).min(n);
        let alive = range(&self.alive[0], alive_n * 4)?;
        let dead = range(&self.dead, dead_n * 4)?;
        // the visible list also names ribbon pieces: the snapshot keeps the particles,
        // and counts them as visible
        let pieces = read_buffer(device, queue, &self.draw_counters, RIBBON_PIECES_OFFSET, 4)?;
        let pieces: u32 = bytemuck::pod_read_unaligned(&pieces);
        let listed = |n: u64| if lists { n } else { 0 };
        let visible_n = listed(counters.visible as u64).min(self.visible.size() / 8);
        let visible = read_buffer(device, queue, &self.visible, 0, visible_n * 8)?;
        let visible: Vec<[u32; 2]> = bytemuck::pod_collect_to_vec(&visible);
        let visible: Vec<[u32; 2]> = visible
            .into_iter()
            .filter(|e| e[1] & RIBBON_ENTRY == 0)
            .collect();
        let particles_shown = Counters {
            visible: counters.visible.saturating_sub(pieces),
            ..counters
        };
        // the splat list: from the front, then the dots listed apart from its back
        // (cull_test.wgsl DOTS; none for a pool that lists no dots)
        let dots = read_buffer(device, queue, &self.draw_counters, DOTS_OFFSET, 4)?;
        let dots = listed(bytemuck::pod_read_unaligned::<u32>(&dots) as u64).min(n);
        let splat_n = listed(counters.splatted as u64).min(n);
        let front = splat_n.saturating_sub(dots);
        let mut splat = read_buffer(device, queue, &self.splat, 0, front * 4)?;
        splat.extend(read_buffer(
            device,
            queue,
            &self.splat,
            (n - dots) * 4,
            dots * 4,
        )?);
        let events_n = counters.events.min(hit_event_capacity(self.capacity)) as u64;
        let event_size = std::mem::size_of::<HitEvent>() as u64;
        let events = read_buffer(device, queue, &self.hit_events, 0, events_n * event_size)?;
        let body_size = std::mem::size_of::<Body>() as u64;
        let body_bytes = read_buffer(device, queue, bodies, 0, body_count * body_size)?;
        Ok(PoolSnapshot {
            stats: stats(&particles_shown),
            bodies: bytemuck::pod_collect_to_vec(&body_bytes),
            counters,
            particles: bytemuck::pod_collect_to_vec(&particles),
            alive: bytemuck::pod_collect_to_vec(&alive),
            dead: bytemuck::pod_collect_to_vec(&dead),
            visible,
            splat: bytemuck::pod_collect_to_vec(&splat),
            hit_events: bytemuck::pod_collect_to_vec(&events),
            walkers: Vec::new(),
            attributes: Vec::new(),
            #[cfg(test)]
            args,
        })
    }
}
